#include "workloads/workload.h"
/* Built-in workloads of the graphbig suite (one gms_wl_<name> per file, listed here). */
extern const gms_workload_ops gms_wl_gb_bfs_twc;
extern const gms_workload_ops gms_wl_gb_pr;
extern const gms_workload_ops gms_wl_gb_sssp_twc;
extern const gms_workload_ops gms_wl_gb_bfs_ttc;
extern const gms_workload_ops gms_wl_gb_bfs_ta;
extern const gms_workload_ops gms_wl_gb_bfs_tf;

const gms_workload_ops *const gms_workloads_graphbig[] = {
    &gms_wl_gb_bfs_twc,
    &gms_wl_gb_pr,
    &gms_wl_gb_sssp_twc,
    &gms_wl_gb_bfs_ttc,
    &gms_wl_gb_bfs_ta,
    &gms_wl_gb_bfs_tf,
    NULL,
};
