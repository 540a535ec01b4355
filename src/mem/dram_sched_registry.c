/* DRAM schedulers: one line per member; index = -gpgpu_dram_scheduler value. */
#include "mem/dram_sched.h"
#include "config/params.h"

extern const gms_dram_sched_ops gms_dram_sched_fcfs, gms_dram_sched_frfcfs;

const gms_dram_sched_ops *const gms_dram_sched_registry[] = {
    &gms_dram_sched_fcfs,     /* 0 */
    &gms_dram_sched_frfcfs,   /* 1 */
};
const size_t gms_dram_sched_nregistry = sizeof gms_dram_sched_registry / sizeof gms_dram_sched_registry[0];

static long chosen(const struct gms_params *p);
GMS_REGISTRY_DEFINE(gms_dram_sched_reg, "DRAM scheduler", "gms_dram_scheduler", gms_dram_sched_ops,
                    gms_dram_sched_registry, name, summary, NULL, chosen);
/* by name, else -gpgpu_dram_scheduler's number, the place in the array */
static long chosen(const struct gms_params *p)
{
    if (p->mem.dram_sched_name[0]) return gms_reg_index(&gms_dram_sched_reg, p->mem.dram_sched_name);
    return p->mem.dram_scheduler < gms_dram_sched_nregistry ? (long)p->mem.dram_scheduler : -1;
}

const gms_dram_sched_ops *gms_dram_sched_find(const char *name) { return gms_reg_find(&gms_dram_sched_reg, name); }
