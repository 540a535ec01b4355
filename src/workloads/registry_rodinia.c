#include "workloads/workload.h"
/* UVMBench: Rodinia and machine-learning workloads */
const gms_workload_ops *const gms_workloads_rodinia[] = { NULL };
