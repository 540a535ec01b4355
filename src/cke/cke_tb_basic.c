/* Block-partition schemes that need no profiling: greedy (no partition: every kernel up to its
 * occupancy, blocks go to the kernels in launch order), spatial multitasking (the SMs split
 * evenly, n_sm / kernels each; the n_sm mod kernels SMs left over stay idle, as in the
 * author's simulator), manual (manual:T0,T1[,T2] blocks per SM) and SMK-P (dominant resource
 * fairness over registers, shared memory, threads and block slots). */
#include "cke/cke.h"
#include <string.h>

static void all_sms(const gms_cke_plan_ctx *x, gms_cke_plan *o)
{
    memset(o, 0, sizeof *o);
    for (uint32_t k = 0; k < x->napps; k++) { o->sm_lo[k] = 0; o->sm_hi[k] = x->n_sm; }
}

static int greedy_plan(const gms_cke_plan_ctx *x, gms_cke_plan *o, gms_error *err)
{
    (void)err;
    all_sms(x, o);
    return 0;
}
const gms_cke_tb_ops gms_cke_tb_greedy = { .name = "greedy", .summary = "no partition: blocks to the kernels in launch order, each up to its occupancy",
                                           .plan = greedy_plan };

static int spatial_plan(const gms_cke_plan_ctx *x, gms_cke_plan *o, gms_error *err)
{
    all_sms(x, o);
    uint32_t per = x->n_sm / x->napps;
    if (per == 0) return gms_err(err, "-gms_cke_tb spatial: %u SMs cannot be split among %u kernels", x->n_sm, x->napps);
    for (uint32_t k = 0; k < x->napps; k++) { o->sm_lo[k] = k * per; o->sm_hi[k] = (k + 1) * per; }
    return 0;
}
const gms_cke_tb_ops gms_cke_tb_spatial = { .name = "spatial", .summary = "spatial multitasking: the SMs split evenly among the kernels",
                                            .plan = spatial_plan };

static int manual_plan(const gms_cke_plan_ctx *x, gms_cke_plan *o, gms_error *err)
{
    all_sms(x, o);
    if (x->c->ntb_args != x->napps)
        return gms_err(err, "-gms_cke_tb manual: %u block counts given for %u kernels", x->c->ntb_args, x->napps);
    for (uint32_t k = 0; k < x->napps; k++) o->cap[k] = x->c->tb_args[k];
    return 0;
}
const gms_cke_tb_ops gms_cke_tb_manual = { .name = "manual", .summary = "manual:T0,T1[,T2]: the given blocks per SM per kernel",
                                           .plan = manual_plan };

static int smk_plan(const gms_cke_plan_ctx *x, gms_cke_plan *o, gms_error *err)
{
    all_sms(x, o);
    if (gms_cke_check_coresident(x, x->c ? x->c->tb : "smk", err)) return -1;
    gms_drf_partition(x->shape, x->napps, &x->lim, o->cap);
    /* (DRF gives each kernel its first block before any kernel a second: with one block of
     * each fitting, none is left at 0) */
    for (uint32_t k = 0; k < x->napps; k++)
        if (!o->cap[k]) return gms_err(err, "internal: -gms_cke_tb smk: kernel %u gets no block beside the others", k);
    return 0;
}
const gms_cke_tb_ops gms_cke_tb_smk = { .name = "smk", .summary = "SMK-P: dominant resource fairness over registers, shared memory, threads, block slots",
                                        .plan = smk_plan };
