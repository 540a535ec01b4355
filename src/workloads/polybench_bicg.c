/* BICG (UVMBench polybench/BICG, bicg.cu): the BiCG sub-kernels s = A^T r and q = A p, two
 * kernels, 256-thread blocks: bicg_kernel1 s[j] = sum_i A[i*NY+j]*r[i] (coalesced),
 * bicg_kernel2 q[i] = sum_j A[i*NY+j]*p[j] (lanes NY*4 bytes apart). */
#include "workloads/wl_util_poly.h"

enum { A_, R_, S_, P_, Q_ };
enum { NX, NY };

static const gms_wl_param params[] = {
    { "NX", "4096", "rows of A" },
    { "NY", "4096", "columns of A" },
    { "scale", "1", "multiply every size by this factor" },
    { "repeat", "1", "run the kernel sequence this many times" },
    { NULL, NULL, NULL },
};

static uint64_t elems(const uint64_t *d, int k)
{
    return k == A_ ? d[NX] * d[NY] : k == R_ || k == Q_ ? d[NX] : d[NY];
}

static void init(const pb_state *s, float **a)
{
    const uint64_t *d = s->dim;
    for (uint64_t i = 0; i < d[NX]; i++) {
        a[R_][i] = (float)((double)i * 3.14159265358979323846);
        for (uint64_t j = 0; j < d[NY]; j++) a[A_][i * d[NY] + j] = ((float)i * (float)j) / (float)d[NX];
    }
    for (uint64_t i = 0; i < d[NY]; i++) a[P_][i] = (float)((double)i * 3.14159265358979323846);
}

static void launch(pb_state *s, gms_program *p)
{
    const uint64_t *d = s->dim;
    int64_t a1[8] = { A_, R_, S_, (int64_t)d[NY], (int64_t)d[NX], 1, (int64_t)d[NY], 1 };
    pb_launch_gen(s, p, "_Z12bicg_kernel1PfS_S_", wl_dim3(wl_cdiv(d[NY], 256), 1, 1), wl_dim3(256, 1, 1), 16,
              pb_step_dot, pb_dot_wsize(), a1, 8);
    int64_t a2[8] = { A_, P_, Q_, (int64_t)d[NX], (int64_t)d[NY], (int64_t)d[NY], 1, 1 };
    pb_launch_gen(s, p, "_Z12bicg_kernel2PfS_S_", wl_dim3(wl_cdiv(d[NX], 256), 1, 1), wl_dim3(256, 1, 1), 16,
              pb_step_dot, pb_dot_wsize(), a2, 8);
}

static void cpu(const pb_state *s, float **a)
{
    const uint64_t *d = s->dim;
    pb_cpu_dot(a[A_], a[R_], a[S_], d[NY], d[NX], 1, d[NY], 1);
    pb_cpu_dot(a[A_], a[P_], a[Q_], d[NX], d[NY], d[NY], 1, 1);
}

static const pb_def def = {
    .name = "bicg",
    .dims = { "NX", "NY" },
    .dim_scaled = { 1, 1 },
    .arrs = { { "A", 1, 0, 0 }, { "r", 1, 0, 0 }, { "s", 1, 1, 1 }, { "p", 1, 0, 0 }, { "q", 1, 1, 1 } },
    .elems = elems, .init = init, .launch = launch, .cpu = cpu,
    .rtol = 1e-3, .atol = 1e-2,
};

PB_WORKLOAD(bicg, "bicg", def, params, "linear algebra", "I",
            "BiCGStab sub-kernels s = A^T r (column per thread) and q = A p (row per thread)");
