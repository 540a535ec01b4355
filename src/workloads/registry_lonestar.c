#include "workloads/workload.h"
/* Built-in workloads of the lonestar suite (LonestarGPU, docs/workloads-lonestar.md; one
 * gms_wl_<name> per file, listed here). */
extern const gms_workload_ops gms_wl_barnes_hut;

const gms_workload_ops *const gms_workloads_lonestar[] = {
    &gms_wl_barnes_hut,
    NULL,
};
