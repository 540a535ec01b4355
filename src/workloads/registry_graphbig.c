#include "workloads/workload.h"
/* Built-in workloads of the graphbig suite (one gms_wl_<name> per file, listed here). */
extern const gms_workload_ops gms_wl_gb_bfs_twc;
extern const gms_workload_ops gms_wl_gb_pr;
extern const gms_workload_ops gms_wl_gb_sssp_twc;
extern const gms_workload_ops gms_wl_gb_bfs_ttc;
extern const gms_workload_ops gms_wl_gb_bfs_ta;
extern const gms_workload_ops gms_wl_gb_bfs_tf;
extern const gms_workload_ops gms_wl_gb_gc_ttc;
extern const gms_workload_ops gms_wl_gb_gc_dtc;
extern const gms_workload_ops gms_wl_gb_kcore;
extern const gms_workload_ops gms_wl_gb_bc;
extern const gms_workload_ops gms_wl_gb_bfs_dwc;

const gms_workload_ops *const gms_workloads_graphbig[] = {
    &gms_wl_gb_bfs_twc,
    &gms_wl_gb_pr,
    &gms_wl_gb_sssp_twc,
    &gms_wl_gb_bfs_ttc,
    &gms_wl_gb_bfs_ta,
    &gms_wl_gb_bfs_tf,
    &gms_wl_gb_gc_ttc,
    &gms_wl_gb_gc_dtc,
    &gms_wl_gb_kcore,
    &gms_wl_gb_bc,
    &gms_wl_gb_bfs_dwc,
    NULL,
};
