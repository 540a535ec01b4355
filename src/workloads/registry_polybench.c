#include "workloads/workload.h"
/* UVMBench: Polybench workloads (docs/workloads-polybench.md) */
extern const gms_workload_ops gms_wl_pb_2mm, gms_wl_pb_3mm, gms_wl_pb_gemm;

const gms_workload_ops *const gms_workloads_polybench[] = {
    &gms_wl_pb_2mm,
    &gms_wl_pb_3mm,
    &gms_wl_pb_gemm,
    NULL,
};
