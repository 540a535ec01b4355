#include "workloads/workload.h"
/* Built-in workloads of the parboil suite (one gms_wl_parboil_<name> per file, listed here;
 * docs/workloads-parboil.md) */
extern const gms_workload_ops gms_wl_parboil_sgemm, gms_wl_parboil_spmv, gms_wl_parboil_lbm,
    gms_wl_parboil_stencil, gms_wl_parboil_mriq, gms_wl_parboil_histo,
    gms_wl_parboil_cutcp, gms_wl_parboil_sad, gms_wl_parboil_tpacf;

const gms_workload_ops *const gms_workloads_parboil[] = {
    &gms_wl_parboil_sgemm,
    &gms_wl_parboil_spmv,
    &gms_wl_parboil_lbm,
    &gms_wl_parboil_stencil,
    &gms_wl_parboil_mriq,
    &gms_wl_parboil_histo,
    &gms_wl_parboil_cutcp,
    &gms_wl_parboil_sad,
    &gms_wl_parboil_tpacf,
    NULL,
};
