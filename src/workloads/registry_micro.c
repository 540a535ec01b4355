#include "workloads/workload.h"
/* microbenchmarks (docs/workloads-micro.md) */
extern const gms_workload_ops gms_wl_stream, gms_wl_strided, gms_wl_gather, gms_wl_pointer_chase,
    gms_wl_transpose, gms_wl_reduce, gms_wl_matvec;

const gms_workload_ops *const gms_workloads_micro[] = {
    &gms_wl_stream,
    &gms_wl_strided,
    &gms_wl_gather,
    &gms_wl_pointer_chase,
    &gms_wl_transpose,
    &gms_wl_reduce,
    &gms_wl_matvec,
    NULL,
};
