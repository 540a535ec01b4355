#include "workloads/workload.h"
/* microbenchmarks (issue: foundation) */
const gms_workload_ops *const gms_workloads_micro[] = { NULL };
