/* um-2dconv: UVMSmart's benchmarks/Managed/2DCONV (Polybench/GPU 2DConvolution.cu with managed
 * A and B): the built-in 2dconv's kernel (3x3 convolution, 32x8 blocks) at UVMSmart's size,
 * NI = NJ = 1024, then cudaDeviceSynchronize. A is rand()/RAND_MAX there, seeded here. */
#include "workloads/um_alias.h"

static const gms_wl_param params[] = {
    { "NI", "1024", "image rows (UVMSmart's NI)" },
    { "NJ", "1024", "image columns (UVMSmart's NJ)" },
    { "scale", "1", "multiply every size by this factor" },
    { "repeat", "1", "run the kernel this many times" },
    { NULL, NULL, NULL },
};

UM_ALIAS(um_2dconv, "um-2dconv", gms_wl_pb_2dconv, params, 1, "machine learning", "R",
         "UVMSmart Managed 2DCONV: 3x3 convolution of a 1024x1024 image (the 2dconv kernel)");
