/* Two-level (Narasiman et al.): the `two_level_active` oldest candidate warps form the active
 * set, served round-robin; the others wait in the pending set. */
#include "core/sm_internal.h"
#include <stdio.h>
#include <stdlib.h>

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

/* "two_level_active:<active warps>:..." (GPGPU-Sim's form; only the first number is used) */
static int two_level_configure(gms_core_params *c, const char *args, gms_error *err)
{
    if (!*args) return 0;   /* the default, 6 */
    char *end;
    unsigned long n = strtoul(args, &end, 10);
    if (end == args || n == 0)
        return gms_err(err, "-gpgpu_scheduler: '%s': two_level_active:<active warps>:... expected", c->scheduler);
    c->two_level_active = (uint32_t)n;
    return 0;
}

static void two_level_describe(const gms_core_params *c, char *buf, size_t n)
{
    snprintf(buf, n, "with %u active warps", c->two_level_active);
}

const gms_warp_sched_ops gms_sched_two_level = {
    .name = "two_level_active", .summary = "two-level", .pick = two_level_pick,
    .configure = two_level_configure, .describe = two_level_describe,
};
