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
    uint32_t nloc = local_of(s, s->nwarps_max + s->nsched - 1 - si);
    if (nloc <= 64) {
        /* host speed (64 warps or fewer per scheduler): the candidates (cand_or_ready, as
         * sched_cands gives them to LRR) as one bit mask by local slot; the age-ordered scan
         * tests a bit per warp and ends when no candidate is left to visit */
        uint64_t buf[MAX_WARPS / 64];
        uint64_t cb = sched_cands(s, si, 1, buf)[0];
        if (q->last >= 0 && sched_of(s, (uint32_t)q->last) == si) cb &= ~(1ULL << local_of(s, (uint32_t)q->last));
        for (uint32_t k = 0; k < q->n && cb; k++) {
            uint32_t wi = q->order[k];
            uint64_t bit = 1ULL << local_of(s, wi);
            if (!(cb & bit)) continue;
            cb &= ~bit;
            if (gms_sm_can_issue(s, wi, now, lsu_free, &in)) { q->last = (int32_t)wi; gms_sm_issue(s, wi, in, now); return; }
        }
        return;
    }
    for (uint32_t k = 0; k < q->n; k++) {
        uint32_t wi = q->order[k];
        if (!cand_or_ready(s, wi) || (int32_t)wi == q->last) continue;
        if (gms_sm_can_issue(s, wi, now, lsu_free, &in)) { q->last = (int32_t)wi; gms_sm_issue(s, wi, in, now); return; }
    }
}

const gms_warp_sched_ops gms_sched_gto = { .name = "gto", .summary = "greedy-then-oldest (GTO)", .pick = gto_pick };
