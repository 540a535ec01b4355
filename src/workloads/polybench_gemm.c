/* GEMM (UVMBench polybench/GEMM, gemm.cu): C = BETA*C + ALPHA*A*B, one kernel, 32x8 blocks.
 * The source sizes the grid as (ceil(NI/32), ceil(NJ/8)) while x indexes columns j < NJ
 * and y rows i < NI; this is kept (only the covered elements are computed when NI != NJ). */
#include "workloads/wl_util_poly.h"

#define ALPHA 32412.0f
#define BETA 2123.0f

enum { A_, B_, C_ };
enum { NI, NJ, NK };

static const gms_wl_param params[] = {
    { "NI", "512", "rows of A and C" },
    { "NJ", "512", "columns of B and C" },
    { "NK", "512", "columns of A, rows of B" },
    { "scale", "1", "multiply every size by this factor" },
    { "repeat", "1", "run the kernel this many times (C accumulates)" },
    { NULL, NULL, NULL },
};

static uint64_t elems(const uint64_t *d, int k)
{
    return k == A_ ? d[NI] * d[NK] : k == B_ ? d[NK] * d[NJ] : d[NI] * d[NJ];
}

static void init(const pb_state *s, float **a)
{
    const uint64_t *d = s->dim;
    for (uint64_t i = 0; i < d[NI]; i++)
        for (uint64_t j = 0; j < d[NK]; j++) a[A_][i * d[NK] + j] = ((float)i * (float)j) / (float)d[NI];
    for (uint64_t i = 0; i < d[NK]; i++)
        for (uint64_t j = 0; j < d[NJ]; j++) a[B_][i * d[NJ] + j] = ((float)i * (float)j + 1) / (float)d[NJ];
    for (uint64_t i = 0; i < d[NI]; i++)
        for (uint64_t j = 0; j < d[NJ]; j++) a[C_][i * d[NJ] + j] = ((float)i * (float)j + 2) / (float)d[NJ];
}

static void launch(pb_state *s, gms_program *p)
{
    const uint64_t *d = s->dim;
    int64_t a1[8] = { A_, B_, C_, (int64_t)d[NI], (int64_t)d[NJ], (int64_t)d[NK], PB_MM_SCALED,
                     pb_ab_bits(ALPHA, BETA) };
    pb_launch_gen(s, p, "_Z11gemm_kernelPfS_S_", wl_dim3(wl_cdiv(d[NI], 32), wl_cdiv(d[NJ], 8), 1), wl_dim3(32, 8, 1), 20,
              pb_step_mm, pb_mm_wsize(), a1, 8);
}

static void cpu(const pb_state *s, float **a)
{
    const uint64_t *d = s->dim;
    uint64_t jmax = (uint64_t)wl_cdiv(d[NI], 32) * 32, imax = (uint64_t)wl_cdiv(d[NJ], 8) * 8;
    for (uint64_t i = 0; i < d[NI] && i < imax; i++)
        for (uint64_t j = 0; j < d[NJ] && j < jmax; j++) {
            float c = a[C_][i * d[NJ] + j] * BETA;
            for (uint64_t k = 0; k < d[NK]; k++) c += ALPHA * a[A_][i * d[NK] + k] * a[B_][k * d[NJ] + j];
            a[C_][i * d[NJ] + j] = c;
        }
}

static const pb_def def = {
    .name = "gemm",
    .dims = { "NI", "NJ", "NK" },
    .dim_scaled = { 1, 1, 1 },
    .arrs = { { "A", 1, 0, 0 }, { "B", 1, 0, 0 }, { "C", 1, 1, 1 } },
    .elems = elems, .init = init, .launch = launch, .cpu = cpu,
    .rtol = 1e-3, .atol = 1e-2,
};

PB_WORKLOAD(gemm, "gemm", def, params, "machine learning", "I",
            "C = alpha*A*B + beta*C, one thread per element of C, accumulator stored every iteration");
