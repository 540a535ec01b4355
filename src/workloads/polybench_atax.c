/* ATAX (UVMBench polybench/ATAX, atax.cu): y = A^T (A x), two kernels, 256-thread blocks:
 * atax_kernel1 tmp[i] += A[i*NY+j]*x[j] (lanes NY*4 bytes apart), atax_kernel2
 * y[j] += A[i*NY+j]*tmp[i] (coalesced). tmp and y start at zero. */
#include "workloads/wl_util_poly.h"

enum { A_, X_, Y_, TMP_ };
enum { NX, NY };

static const gms_wl_param params[] = {
    { "NX", "4096", "rows of A" },
    { "NY", "4096", "columns of A" },
    { "scale", "1", "multiply every size by this factor" },
    { "repeat", "1", "run the kernel sequence this many times (tmp and y accumulate)" },
    { NULL, NULL, NULL },
};

static uint64_t elems(const uint64_t *d, int k)
{
    return k == A_ ? d[NX] * d[NY] : k == X_ || k == Y_ ? d[NY] : d[NX];
}

static void init(const pb_state *s, float **a)
{
    const uint64_t *d = s->dim;
    for (uint64_t i = 0; i < d[NX]; i++) {
        if (i < d[NY]) a[X_][i] = (float)((double)i * 3.14159265358979323846);
        for (uint64_t j = 0; j < d[NY]; j++) a[A_][i * d[NY] + j] = ((float)i * (float)j) / (float)d[NX];
    }
}

static void launch(pb_state *s, gms_program *p)
{
    const uint64_t *d = s->dim;
    int64_t a1[8] = { A_, X_, TMP_, (int64_t)d[NX], (int64_t)d[NY], (int64_t)d[NY], 1, 0 };
    pb_launch_gen(s, p, "_Z12atax_kernel1PfS_S_", wl_dim3(wl_cdiv(d[NX], 256), 1, 1), wl_dim3(256, 1, 1), 16,
              pb_step_dot, pb_dot_wsize(), a1, 8);
    int64_t a2[8] = { A_, TMP_, Y_, (int64_t)d[NY], (int64_t)d[NX], 1, (int64_t)d[NY], 0 };
    pb_launch_gen(s, p, "_Z12atax_kernel2PfS_S_", wl_dim3(wl_cdiv(d[NY], 256), 1, 1), wl_dim3(256, 1, 1), 16,
              pb_step_dot, pb_dot_wsize(), a2, 8);
}

static void cpu(const pb_state *s, float **a)
{
    const uint64_t *d = s->dim;
    pb_cpu_dot(a[A_], a[X_], a[TMP_], d[NX], d[NY], d[NY], 1, 0);
    pb_cpu_dot(a[A_], a[TMP_], a[Y_], d[NY], d[NX], 1, d[NY], 0);
}

static const pb_def def = {
    .name = "atax",
    .dims = { "NX", "NY" },
    .dim_scaled = { 1, 1 },
    .arrs = { { "A", 1, 0, 0 }, { "x", 1, 0, 0 }, { "y", 1, 1, 1 }, { "tmp", 1, 0, 1 } },
    .elems = elems, .init = init, .launch = launch, .cpu = cpu,
    .rtol = 1e-3, .atol = 1e-2,
};

PB_WORKLOAD(atax, "atax", def, params, "linear algebra", "I",
            "matrix-transpose-vector product y = A^T(Ax): a row-per-thread pass then a column-per-thread pass");
