#include "workloads/workload.h"
/* UVMSmart's benchmarks/Managed set, named apart from the UVMBench / Rodinia / Polybench
 * versions with the um- prefix (docs/workloads-um.md) */
extern const gms_workload_ops gms_wl_um_addvectors, gms_wl_um_streamtriad, gms_wl_um_ra, gms_wl_um_2dconv,
    gms_wl_um_atax, gms_wl_um_fdtd2d, gms_wl_um_pathfinder, gms_wl_um_hotspot, gms_wl_um_nw, gms_wl_um_srad_v2,
    gms_wl_um_stencil, gms_wl_um_backprop, gms_wl_um_bfs, gms_wl_um_sssp;

const gms_workload_ops *const gms_workloads_um[] = {
    &gms_wl_um_addvectors,
    &gms_wl_um_streamtriad,
    &gms_wl_um_ra,
    &gms_wl_um_2dconv,
    &gms_wl_um_atax,
    &gms_wl_um_fdtd2d,
    &gms_wl_um_pathfinder,
    &gms_wl_um_hotspot,
    &gms_wl_um_nw,
    &gms_wl_um_srad_v2,
    &gms_wl_um_stencil,
    &gms_wl_um_backprop,
    &gms_wl_um_bfs,
    &gms_wl_um_sssp,
    NULL,
};
