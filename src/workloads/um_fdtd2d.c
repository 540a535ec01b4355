/* um-fdtd2d: UVMSmart's benchmarks/Managed/FDTD-2D (Polybench/GPU fdtd2d.cu with managed
 * _fict_, ex, ey, hz): the built-in fdtd-2d's three kernels per time step at UVMSmart's size,
 * tmax = 20, NX = NY = 1280. Its kernels are separated by cudaThreadSynchronize, which is only a
 * wait, and the program never calls cudaDeviceSynchronize: no copy-back at its end (the base
 * program's final synchronisation is dropped). The arrays' values are the built-in fdtd-2d's
 * (UVMSmart's closed forms differ; the accesses are the same). */
#include "workloads/um_alias.h"

static const gms_wl_param params[] = {
    { "tmax", "20", "time steps, 3 kernels each (UVMSmart's tmax)" },
    { "NX", "1280", "rows (UVMSmart's NX)" },
    { "NY", "1280", "columns (UVMSmart's NY)" },
    { "scale", "1", "multiply NX and NY by this factor" },
    { "repeat", "1", "run the whole time loop this many times" },
    { NULL, NULL, NULL },
};

UM_ALIAS(um_fdtd2d, "um-fdtd2d", gms_wl_pb_fdtd2d, params, 0, "electrodynamics", "I",
         "UVMSmart Managed FDTD-2D: 20 time steps on 1280x1280 fields (the fdtd-2d kernels), no final sync");
