#include "workloads/workload.h"
/* Built-in workloads of the graphbig suite (one gms_wl_<name> per file, listed here). */

const gms_workload_ops *const gms_workloads_graphbig[] = {
    NULL,
};
