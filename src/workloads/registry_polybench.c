#include "workloads/workload.h"
/* UVMBench: Polybench workloads (docs/workloads-polybench.md), in Table 5.1 order */
extern const gms_workload_ops gms_wl_pb_2dconv, gms_wl_pb_2mm, gms_wl_pb_3dconv, gms_wl_pb_3mm, gms_wl_pb_atax,
    gms_wl_pb_bicg, gms_wl_pb_corr, gms_wl_pb_covar, gms_wl_pb_fdtd2d, gms_wl_pb_gemm, gms_wl_pb_gesummv,
    gms_wl_pb_gramschm, gms_wl_pb_mvt, gms_wl_pb_syr2k, gms_wl_pb_syrk;

const gms_workload_ops *const gms_workloads_polybench[] = {
    &gms_wl_pb_2dconv, &gms_wl_pb_2mm,     &gms_wl_pb_3dconv, &gms_wl_pb_3mm,      &gms_wl_pb_atax,
    &gms_wl_pb_bicg,   &gms_wl_pb_corr,    &gms_wl_pb_covar,  &gms_wl_pb_fdtd2d,   &gms_wl_pb_gemm,
    &gms_wl_pb_gesummv, &gms_wl_pb_gramschm, &gms_wl_pb_mvt,  &gms_wl_pb_syr2k,    &gms_wl_pb_syrk,
    NULL,
};
