#include "workloads/workload.h"
/* Built-in workloads of the sdk suite (one gms_wl_<name> per file, listed here). */

const gms_workload_ops *const gms_workloads_sdk[] = {
    NULL,
};
