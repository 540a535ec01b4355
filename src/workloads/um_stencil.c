/* um-stencil: UVMSmart's benchmarks/Managed/stencil (Parboil 7-point stencil with managed h_A0
 * and h_Anext, both read from the dataset file on the host): the built-in Parboil stencil's
 * kernel at UVMSmart's input (`main 128x128x32.bin 128 128 32 100`: a 128 x 128 x 32 grid, 100
 * launches ping-ponging the two arrays back to back), then one cudaDeviceSynchronize. Its
 * cudaMemPrefetchAsync calls are compiled only with -DPREF, which its run does not use. The
 * grid values are generated (the built-in's), not the dataset file's. */
#include "workloads/um_alias.h"

static const gms_wl_param params[] = {
    { "nx", "128", "grid x (UVMSmart's 128)" },
    { "ny", "128", "grid y (128)" },
    { "nz", "32", "grid z (32)" },
    { "iters", "100", "iterations = kernel launches (100)" },
    { "scale", "1", "multiplies nx, ny, nz (not iters)" },
    { "repeat", "1", "run the iterations this many times (the Jacobi sweep continues)" },
    { NULL, NULL, NULL },
};

UM_ALIAS(um_stencil, "um-stencil", gms_wl_parboil_stencil, params, 3, "stencil", "R",
         "UVMSmart Managed stencil: 7-point Jacobi on 128x128x32, 100 launches (the Parboil stencil kernel)");
