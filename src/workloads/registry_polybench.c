#include "workloads/workload.h"
/* UVMBench: Polybench workloads */
const gms_workload_ops *const gms_workloads_polybench[] = { NULL };
