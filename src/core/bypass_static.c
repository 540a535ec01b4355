/* static-L (-gms_l1d_bypass static -gms_bypass_l L): the first L warps (one block resident)
 * or blocks (more resident) of each SM use the L1D, the rest bypass it: the (w, N-L, N) and
 * (b, N-L, N) points of spec 001 Fig. 3, against which MDB's choice is judged. */
#include "core/bypass_policy.h"
#include "core/sm_internal.h"

static int static_bypass(void *st, gms_sm *s, uint32_t wi)
{
    (void)st;
    const warp *w = &s->w[wi];
    uint32_t idx = s->blocks_used > 1 ? w->blk : wi - s->blocks[w->blk].first_warp;
    return idx >= s->p->core.bypass_l;
}

const gms_bypass_ops gms_bypass_static = {
    .name = "static", .summary = "the first -gms_bypass_l warps/blocks of each SM use the L1D, the rest bypass it",
    .bypass = static_bypass,
};
