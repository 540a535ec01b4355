/* um-atax: UVMSmart's benchmarks/Managed/ATAX (Polybench/GPU atax.cu with managed A, x, y, tmp):
 * the built-in atax's two kernels (tmp = A x by rows, y = A^T tmp by columns, 256 threads) at
 * UVMSmart's size, NX = NY = 1200 (A 5.5 MiB, the vectors 4800 bytes each, which UVMSmart's
 * allocator rounds to 64 KiB), then cudaDeviceSynchronize. UVMSmart fills x[i] = i pi and
 * A[i][j] = i j / NX; the values here are the built-in atax's (the accesses are the same). */
#include "workloads/um_alias.h"

static const gms_wl_param params[] = {
    { "NX", "1200", "rows of A (UVMSmart's NX)" },
    { "NY", "1200", "columns of A (UVMSmart's NY)" },
    { "scale", "1", "multiply every size by this factor" },
    { "repeat", "1", "run the kernel sequence this many times (tmp and y accumulate)" },
    { NULL, NULL, NULL },
};

UM_ALIAS(um_atax, "um-atax", gms_wl_pb_atax, params, 1, "linear algebra", "I",
         "UVMSmart Managed ATAX: y = A^T (A x) with A 1200x1200 (the atax kernels)");
