/* Warp schedulers: one line per member. */
#include "core/warp_sched.h"
#include "config/params.h"
#include <string.h>

extern const gms_warp_sched_ops gms_sched_lrr, gms_sched_gto, gms_sched_two_level;
static const gms_warp_sched_ops *const all[] = { &gms_sched_lrr, &gms_sched_gto, &gms_sched_two_level };

static long chosen(const struct gms_params *p);
GMS_REGISTRY_DEFINE(gms_warp_sched_reg, "warp scheduler", "gpgpu_scheduler", gms_warp_sched_ops, all, name,
                    summary, NULL, chosen);
static long chosen(const struct gms_params *p)
{
    return gms_reg_index_n(&gms_warp_sched_reg, p->core.scheduler, strcspn(p->core.scheduler, ":"));
}

const gms_warp_sched_ops *gms_warp_sched_find(const char *spec)
{
    /* "two_level_active:6:0:1": the parameters follow the name */
    long i = gms_reg_index_n(&gms_warp_sched_reg, spec, strcspn(spec, ":"));
    return i < 0 ? NULL : all[i];
}
