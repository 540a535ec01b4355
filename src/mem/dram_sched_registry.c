/* DRAM schedulers: one line per member; index = -gpgpu_dram_scheduler value. */
#include "mem/dram_sched.h"
#include <string.h>

extern const gms_dram_sched_ops gms_dram_sched_fcfs, gms_dram_sched_frfcfs;

const gms_dram_sched_ops *const gms_dram_sched_registry[] = {
    &gms_dram_sched_fcfs,     /* 0 */
    &gms_dram_sched_frfcfs,   /* 1 */
};
const size_t gms_dram_sched_nregistry = sizeof gms_dram_sched_registry / sizeof gms_dram_sched_registry[0];

const gms_dram_sched_ops *gms_dram_sched_find(const char *name)
{
    for (size_t i = 0; i < gms_dram_sched_nregistry; i++)
        if (!strcmp(gms_dram_sched_registry[i]->name, name)) return gms_dram_sched_registry[i];
    return NULL;
}
