/* SMK-W (spec 001 section 4.3, [ext]): per-epoch warp-instruction quotas per kernel and SM in
 * proportion to the kernels' isolated IPC (wq_share, set by the driver); a kernel whose quota
 * is used up issues nothing; new quotas are added when every kernel's is used up. A kernel
 * with quota left that cannot use it must not stop the others for ever (one with no block on
 * the SM, between two of its kernels). Two readings (docs/cke.md, -gms_cke_smkw_idle):
 * idle > 0, a kernel that has issued nothing for that many cycles counts as used up (a stalled
 * one too: the default, 256); idle 0, only a kernel with no block on the SM does (the spec's
 * "new quotas only when all are used up", a kernel waiting on memory included). */
#include "cke/cke_mi.h"

/* may kernel k's quota still hold the others back? */
static int smkw_holds(const gms_cke_sm *cs, uint32_t k, uint64_t now)
{
    const gms_cke_app_sm *a = &cs->a[k];
    if (a->wquota <= 0) return 0;
    if (cs->c->smkw_idle) return a->last_issue + cs->c->smkw_idle > now;
    return a->blocks_here != 0;
}

static int smkw_gate(gms_cke_sm *cs, uint32_t app, int is_mem, uint64_t now)
{
    (void)is_mem;
    if (cs->a[app].wquota > 0) return 1;
    for (uint32_t k = 0; k < cs->napps; k++)
        if (smkw_holds(cs, k, now)) { cs->a[app].denied++; return 0; }
    for (uint32_t k = 0; k < cs->napps; k++) {
        if (cs->a[k].wquota < 0) cs->a[k].wquota = 0;
        cs->a[k].wquota += cs->wq_share[k] ? cs->wq_share[k] : 1;
    }
    return 1;
}
static void smkw_issued(gms_cke_sm *cs, uint32_t app, int is_mem, uint64_t now)
{
    (void)is_mem; (void)now;
    cs->a[app].wquota--;
}
static void smkw_init(gms_cke_sm *cs)
{
    for (uint32_t k = 0; k < cs->napps; k++) cs->a[k].wquota = cs->wq_share[k] ? cs->wq_share[k] : 1;
}
const gms_cke_mi_ops gms_cke_mi_smkw = { .name = "smkw", .knobs = GMS_KNOBS("gms_cke_wq_epoch", "gms_cke_smkw_", "gms_cke_profile_window"), .summary = "SMK-W: warp-instruction quotas per epoch in proportion to the isolated IPC",
                                         .gate = smkw_gate, .issued = smkw_issued, .init = smkw_init };
