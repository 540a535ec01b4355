/* GTO (greedy-then-oldest): keep issuing from the last warp while it can, else the oldest
 * candidate that can. Age order is the scheduler's order[] list (oldest first). */
#include "core/sm_internal.h"

static void gto_pick(gms_sm *s, uint32_t si, uint64_t now)
{
    sched *q = &s->sc[si];
    const gms_inst *in;
    int lsu_free = gms_sm_mem_slot_free(s, si);
    if (q->last >= 0 && cand_or_ready(s, (uint32_t)q->last) && gms_sm_can_issue(s, (uint32_t)q->last, now, lsu_free, &in)) {
        gms_sm_issue(s, (uint32_t)q->last, in, now);
        return;
    }
    /* the candidates (cand_or_ready, as sched_cands gives them to LRR), by local slot, moved
     * to a mask by position in the age order (q->pos): the scan tests the candidates alone,
     * oldest first, as a scan of order[] skipping the others would */
    uint32_t nloc = local_of(s, s->nwarps_max + s->nsched - 1 - si), words = (nloc + 63) / 64;
    uint32_t pwords = (q->n + 63) / 64;
    uint64_t buf[MAX_WARPS / 64], pm[MAX_WARPS / 64] = {0};
    const uint64_t *c0 = sched_cands(s, si, words, buf);
    int32_t skip = q->last >= 0 ? (int32_t)local_of(s, (uint32_t)q->last) : -1;   /* tried above */
    for (uint32_t k = 0; k < words; k++) {
        uint64_t bits = c0[k];
        if (skip >= 0 && (uint32_t)skip >> 6 == k) bits &= ~(1ULL << (skip & 63));
        while (bits) {
            uint32_t p = q->pos[k * 64 + (uint32_t)__builtin_ctzll(bits)];
            bits &= bits - 1;
            pm[p >> 6] |= 1ULL << (p & 63);
        }
    }
    for (uint32_t k = 0; k < pwords; k++) {
        for (uint64_t bits = pm[k]; bits; bits &= bits - 1) {
            uint32_t wi = q->order[k * 64 + (uint32_t)__builtin_ctzll(bits)];
            if (gms_sm_can_issue(s, wi, now, lsu_free, &in)) { q->last = (int32_t)wi; gms_sm_issue(s, wi, in, now); return; }
        }
    }
}

const gms_warp_sched_ops gms_sched_gto = { .name = "gto", .summary = "greedy-then-oldest (GTO)", .pick = gto_pick };
