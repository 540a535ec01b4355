#include "workloads/workload.h"
/* UVMBench: Rodinia and machine-learning workloads */
extern const gms_workload_ops gms_wl_backprop;
extern const gms_workload_ops gms_wl_hotspot;
extern const gms_workload_ops gms_wl_pathfinder;
extern const gms_workload_ops gms_wl_bfs;
extern const gms_workload_ops gms_wl_gaussian;
extern const gms_workload_ops gms_wl_nw;
extern const gms_workload_ops gms_wl_srad;
extern const gms_workload_ops gms_wl_hotspot3d;
extern const gms_workload_ops gms_wl_kmeans;
extern const gms_workload_ops gms_wl_knn;
extern const gms_workload_ops gms_wl_lr;
extern const gms_workload_ops gms_wl_dwt2d;
extern const gms_workload_ops gms_wl_sc;
extern const gms_workload_ops gms_wl_svm;
extern const gms_workload_ops gms_wl_pfilter;
extern const gms_workload_ops gms_wl_bn;
extern const gms_workload_ops gms_wl_cnn;
/* Rodinia beyond UVMBench (issue 22) */
extern const gms_workload_ops gms_wl_btree;
extern const gms_workload_ops gms_wl_cfd;
extern const gms_workload_ops gms_wl_lud;
extern const gms_workload_ops gms_wl_kmeans_rodinia;
extern const gms_workload_ops gms_wl_hybridsort;
extern const gms_workload_ops gms_wl_pfilter_rodinia;
/* the data-cache versions of the SDK's histogram and scalarProd (spec 001, Li et al.) */
extern const gms_workload_ops gms_wl_histo_dc;
extern const gms_workload_ops gms_wl_scalarprod_dc;
extern const gms_workload_ops gms_wl_heartwall;
extern const gms_workload_ops gms_wl_leukocyte;

const gms_workload_ops *const gms_workloads_rodinia[] = {
    &gms_wl_backprop,
    &gms_wl_hotspot,
    &gms_wl_pathfinder,
    &gms_wl_bfs,
    &gms_wl_gaussian,
    &gms_wl_nw,
    &gms_wl_srad,
    &gms_wl_hotspot3d,
    &gms_wl_kmeans,
    &gms_wl_knn,
    &gms_wl_lr,
    &gms_wl_dwt2d,
    &gms_wl_sc,
    &gms_wl_svm,
    &gms_wl_pfilter,
    &gms_wl_bn,
    &gms_wl_cnn,
    &gms_wl_btree,
    &gms_wl_cfd,
    &gms_wl_lud,
    &gms_wl_kmeans_rodinia,
    &gms_wl_hybridsort,
    &gms_wl_pfilter_rodinia,
    &gms_wl_histo_dc,
    &gms_wl_scalarprod_dc,
    &gms_wl_heartwall,
    &gms_wl_leukocyte,
    NULL,
};
