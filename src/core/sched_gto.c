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
    /* the candidates (cand_or_ready, as sched_cands gives them to LRR) as a bit mask by local
     * slot: the age-ordered scan tests a bit per warp, and ends when no candidate is left */
    uint32_t nloc = local_of(s, s->nwarps_max + s->nsched - 1 - si), words = (nloc + 63) / 64, left = 0;
    uint64_t buf[MAX_WARPS / 64], cb[MAX_WARPS / 64];
    const uint64_t *c0 = sched_cands(s, si, words, buf);
    for (uint32_t k = 0; k < words; k++) cb[k] = c0[k];
    if (q->last >= 0) {   /* tried above (a warp's scheduler is fixed by its index) */
        uint32_t li = local_of(s, (uint32_t)q->last);
        cb[li >> 6] &= ~(1ULL << (li & 63));
    }
    for (uint32_t k = 0; k < words; k++) left += (uint32_t)__builtin_popcountll(cb[k]);
    for (uint32_t k = 0; k < q->n && left; k++) {
        uint32_t wi = q->order[k], li = local_of(s, wi);
        uint64_t bit = 1ULL << (li & 63);
        if (!(cb[li >> 6] & bit)) continue;
        cb[li >> 6] &= ~bit;
        left--;
        if (gms_sm_can_issue(s, wi, now, lsu_free, &in)) { q->last = (int32_t)wi; gms_sm_issue(s, wi, in, now); return; }
    }
}

const gms_warp_sched_ops gms_sched_gto = { .name = "gto", .summary = "greedy-then-oldest (GTO)", .pick = gto_pick };
