/* SYRK (UVMBench polybench/SYRK, syrk.cu): C = beta*C + alpha*A*A^T, one kernel, 32x8
 * blocks, one thread per element of C; both A reads of an iteration are row reads
 * (a[i*M+k]: warp broadcast, a[j*M+k]: lanes M*4 bytes apart). */
#include "workloads/wl_util_poly.h"

#define ALPHA 12435.0f
#define BETA 4546.0f

enum { A_, C_ };
enum { N, M };

static const gms_wl_param params[] = {
    { "N", "1024", "order of C, rows of A" },
    { "M", "1024", "columns of A" },
    { "scale", "1", "multiply every size by this factor" },
    { "repeat", "1", "run the kernel this many times (C accumulates)" },
    { NULL, NULL, NULL },
};

static uint64_t elems(const uint64_t *d, int k) { return k == A_ ? d[N] * d[M] : d[N] * d[N]; }

static void init(const pb_state *s, float **a)
{
    uint64_t n = s->dim[N], m = s->dim[M];
    for (uint64_t i = 0; i < n; i++) {
        for (uint64_t j = 0; j < m; j++) a[A_][i * m + j] = ((float)i * (float)j) / (float)n;
        for (uint64_t j = 0; j < n; j++) a[C_][i * n + j] = ((float)i * (float)j + 2) / (float)n;
    }
}

static void launch(pb_state *s, gms_program *p)
{
    uint64_t n = s->dim[N], m = s->dim[M];
    /* C (n x n) += alpha * A (n x m) * A^T: the matrix-multiply kernel with B = A read transposed */
    int64_t args[8] = { A_, A_, C_, (int64_t)n, (int64_t)n, (int64_t)m, PB_MM_SCALED | PB_MM_BT, pb_ab_bits(ALPHA, BETA) };
    pb_launch_gen(s, p, "_Z11syrk_kernelffPfS_", wl_dim3(wl_cdiv(n, 32), wl_cdiv(n, 8), 1), wl_dim3(32, 8, 1), 20,
                  pb_step_mm, pb_mm_wsize(), args, 8);
}

static void cpu(const pb_state *s, float **a)
{
    uint64_t n = s->dim[N], m = s->dim[M];
    pb_cpu_mm(a[A_], a[A_], a[C_], n, n, m, PB_MM_SCALED | PB_MM_BT, ALPHA, BETA);
}

static const pb_def def = {
    .name = "syrk",
    .dims = { "N", "M" },
    .dim_scaled = { 1, 1 },
    .arrs = { { "A", 1, 0, 0 }, { "C", 1, 1, 1 } },
    .elems = elems, .init = init, .launch = launch, .cpu = cpu,
    .rtol = 1e-3, .atol = 1e-1,
};

PB_WORKLOAD(syrk, "syrk", def, params, "linear algebra", "R",
            "symmetric rank-k update C = alpha*A*A^T + beta*C, one thread per element of C");
