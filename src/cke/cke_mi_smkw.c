/* SMK-W (spec 001 section 4.3, [ext]): per-epoch warp-instruction quotas per kernel and SM in
 * proportion to the kernels' isolated IPC (wq_share, set by the driver); a kernel whose quota
 * is used up issues nothing; new quotas are added when every kernel's is used up. Documented
 * choice (docs/cke.md): a kernel that has issued nothing for 256 cycles counts as used up, so
 * that one without resident warps (between two of its kernels) does not stop the others. */
#include "cke/cke_mi.h"

#define SMKW_IDLE 256

static int smkw_gate(gms_cke_sm *cs, uint32_t app, int is_mem, uint64_t now)
{
    (void)is_mem;
    if (cs->a[app].wquota > 0) return 1;
    for (uint32_t k = 0; k < cs->napps; k++)
        if (cs->a[k].wquota > 0 && cs->a[k].last_issue + SMKW_IDLE > now) { cs->a[app].denied++; return 0; }
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
const gms_cke_mi_ops gms_cke_mi_smkw = { .name = "smkw", .knobs = GMS_KNOBS("gms_cke_wq_epoch"), .summary = "SMK-W: warp-instruction quotas per epoch in proportion to the isolated IPC",
                                         .gate = smkw_gate, .issued = smkw_issued, .init = smkw_init };
