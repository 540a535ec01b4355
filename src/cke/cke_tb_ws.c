/* Warped-Slicer (spec 001 section 4.3): each kernel's scalability curve, its IPC alone on the
 * GPU with t = 1..occupancy blocks per SM (profile runs of -gms_cke_profile_window cycles),
 * and the feasible combination maximising the minimum normalised performance (the sweet
 * point, gms_ws_sweet_point). Predicted STP = sum of the normalised performances there. */
#include "cke/cke.h"
#include <stdlib.h>
#include <string.h>

static int ws_plan(const gms_cke_plan_ctx *x, gms_cke_plan *o, gms_error *err)
{
    memset(o, 0, sizeof *o);
    /* the sweet point gives every kernel a block: none if one of each does not fit (checked
     * before the profile runs, which would be for nothing) */
    if (gms_cke_check_coresident(x, x->c ? x->c->tb : "ws", err)) return -1;
    double *curve[GMS_CKE_MAX_APPS] = {0};
    int rc = 0;
    for (uint32_t k = 0; k < x->napps && !rc; k++) {
        curve[k] = calloc(x->shape[k].occ, sizeof *curve[k]);
        if (!curve[k]) { rc = gms_err(err, "out of memory"); break; }
        for (uint32_t t = 1; t <= x->shape[k].occ && !rc; t++) rc = x->profile(x->ud, k, t, &curve[k][t - 1], err);
    }
    if (!rc) {
        o->predicted_stp = gms_ws_sweet_point(x->shape, x->napps, &x->lim, (const double *const *)curve, o->cap);
        if (o->predicted_stp < 0) rc = gms_err(err, "internal: -gms_cke_tb ws: no sweet point, yet one block of each kernel fits");
        for (uint32_t k = 0; k < x->napps; k++) { o->sm_lo[k] = 0; o->sm_hi[k] = x->n_sm; }
    }
    for (uint32_t k = 0; k < x->napps; k++) free(curve[k]);
    return rc;
}
/* WS + UCP (spec 001 section 4.3, "WS-L1D Partition"): the same block partition, and the
 * driver gives every SM a UCP way partition of its L1D (cke_ucp.h) */
const gms_cke_tb_ops gms_cke_tb_ws_ucp = { .name = "ws-ucp", .knobs = GMS_KNOBS("gms_cke_ucp_period", "gms_cke_ucp_enforce", "gms_cke_profile_window"),
                                           .summary = "Warped-Slicer plus UCP way partitioning of the L1D among the kernels",
                                           .plan = ws_plan, .l1_ucp = 1 };
const gms_cke_tb_ops gms_cke_tb_ws = { .name = "ws", .knobs = GMS_KNOBS("gms_cke_profile_window"), .summary = "Warped-Slicer: the sweet point of the kernels' profiled scalability curves",
                                       .plan = ws_plan };
