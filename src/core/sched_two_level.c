/* Two-level (Narasiman et al.): the `two_level_active` oldest candidate warps form the active
 * set, served round-robin; the others wait in the pending set. */
#include "core/sm_internal.h"

static void two_level_pick(gms_sm *s, uint32_t si, uint64_t now)
{
    sched *q = &s->sc[si];
    const gms_inst *in;
    int lsu_free = gms_sm_mem_slot_free(s, si);
    uint32_t limit = s->p->core.two_level_active, rank = 0;
    uint32_t pos = q->last_pos;
    uint16_t act[MAX_WARPS];
    uint32_t na = 0;
    for (uint32_t k = 0; k < q->n && rank < limit; k++)
        if (cand_or_ready(s, q->order[k])) { act[na++] = (uint16_t)k; rank++; }
    for (uint32_t j = 0; j < na; j++) {
        uint32_t k = act[(j + pos + 1) % na];
        uint32_t wi = q->order[k];
        if (gms_sm_can_issue(s, wi, now, lsu_free, &in)) { q->last_pos = (j + pos + 1) % na; gms_sm_issue(s, wi, in, now); return; }
    }
}

const gms_warp_sched_ops gms_sched_two_level = { "two_level_active", "two-level", two_level_pick };
