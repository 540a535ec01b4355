/* um-hotspot: UVMSmart's benchmarks/Managed/hotspot (Rodinia hotspot with managed MatrixTemp[0],
 * MatrixTemp[1], MatrixPower, in that order, filled on the host, no prefetch): the built-in
 * hotspot's kernel at UVMSmart's input (`hotspot 1024 2 8`: a 1024x1024 grid, pyramid height 2,
 * 8 time steps = 4 launches back to back, 12 MiB), then one cudaDeviceSynchronize before the
 * host writes the result (the built-in, UVMBench's, synchronises after every launch: those syncs
 * are dropped and one is put at the end). The temperatures and
 * powers are generated, not Rodinia's temp_1024 / power_1024 files. */
#include "workloads/um_alias.h"

static const gms_wl_param params[] = {
    {"rows", "1024", "grid rows = cols (UVMSmart's grid_rows/grid_cols)"},
    {"pyramid", "2", "pyramid height: time steps per kernel launch (UVMSmart's 2)"},
    {"sim_time", "8", "number of time steps (UVMSmart's 8)"},
    {"scale", "1", "multiplies rows"},
    {"repeat", "1", "run the whole simulation N times from the same input"},
    {NULL, NULL, NULL},
};

UM_ALIAS(um_hotspot, "um-hotspot", gms_wl_hotspot, params, 3, "physics simulation", "R",
         "UVMSmart Managed hotspot: 1024x1024 grid, pyramid 2, 8 steps (the hotspot kernel)");
