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
    for (uint32_t k = 0; k < q->n; k++) {
        uint32_t wi = q->order[k];
        if (!cand_or_ready(s, wi) || (int32_t)wi == q->last) continue;
        if (gms_sm_can_issue(s, wi, now, lsu_free, &in)) { q->last = (int32_t)wi; gms_sm_issue(s, wi, in, now); return; }
    }
}

const gms_warp_sched_ops gms_sched_gto = { .name = "gto", .summary = "greedy-then-oldest (GTO)", .pick = gto_pick };
