/* 2MM (UVMBench polybench/2MM, 2mm.cu): C += A*B then E += C*D, two kernels, 32x8 blocks.
 * As in the source, C starts from its init values and E from zero (the GPU program never
 * clears them), so C = C0 + A*B and E = C*D. */
#include "workloads/wl_util_poly.h"

enum { A_, B_, C_, D_, E_ };
enum { NI, NJ, NK, NL };

static const gms_wl_param params[] = {
    { "NI", "2048", "rows of A, C, E" },
    { "NJ", "2048", "columns of B, C; rows of D" },
    { "NK", "2048", "columns of A, rows of B" },
    { "NL", "2048", "columns of D, E" },
    { "scale", "1", "multiply every size by this factor" },
    { "repeat", "1", "run the kernel sequence this many times" },
    { NULL, NULL, NULL },
};

static uint64_t elems(const uint64_t *d, int k)
{
    switch (k) {
    case A_: return d[NI] * d[NK];
    case B_: return d[NK] * d[NJ];
    case C_: return d[NI] * d[NJ];
    case D_: return d[NJ] * d[NL];
    default: return d[NI] * d[NL];
    }
}

static void init(const pb_state *s, float **a)
{
    const uint64_t *d = s->dim;
    pb_init_ratio(a[A_], d[NI], d[NK], 0, d[NI]);
    pb_init_ratio(a[B_], d[NK], d[NJ], 1, d[NJ]);
    pb_init_ratio(a[C_], d[NI], d[NJ], 3, d[NL]);
    pb_init_ratio(a[D_], d[NJ], d[NL], 2, d[NK]);
}

static void launch(pb_state *s, gms_program *p)
{
    const uint64_t *d = s->dim;
    int64_t a1[8] = { A_, B_, C_, (int64_t)d[NI], (int64_t)d[NJ], (int64_t)d[NK], 0, 0 };
    pb_launch_gen(s, p, "_Z11mm2_kernel1PfS_S_", wl_dim3(wl_cdiv(d[NJ], 32), wl_cdiv(d[NI], 8), 1), wl_dim3(32, 8, 1),
              16, pb_step_mm, pb_mm_wsize(), a1, 8);
    int64_t a2[8] = { C_, D_, E_, (int64_t)d[NI], (int64_t)d[NL], (int64_t)d[NJ], 0, 0 };
    pb_launch_gen(s, p, "_Z11mm2_kernel2PfS_S_", wl_dim3(wl_cdiv(d[NL], 32), wl_cdiv(d[NI], 8), 1), wl_dim3(32, 8, 1),
              16, pb_step_mm, pb_mm_wsize(), a2, 8);
}

static void cpu(const pb_state *s, float **a)
{
    const uint64_t *d = s->dim;
    pb_cpu_mm(a[A_], a[B_], a[C_], d[NI], d[NJ], d[NK], 0, 1, 1);
    pb_cpu_mm(a[C_], a[D_], a[E_], d[NI], d[NL], d[NJ], 0, 1, 1);
}

static int check(const pb_state *s, gms_error *err)
{
    const uint64_t *d = s->dim;
    if (pb_need_grid(s, "mm2_kernel1", wl_cdiv(d[NJ], 32), wl_cdiv(d[NI], 8), err)) return -1;
    return pb_need_grid(s, "mm2_kernel2", wl_cdiv(d[NL], 32), wl_cdiv(d[NI], 8), err);
}

static const pb_def def = {
    .name = "2mm",
    .dims = { "NI", "NJ", "NK", "NL" },
    .dim_scaled = { 1, 1, 1, 1 },
    .arrs = { { "A", 1, 0, 0 }, { "B", 1, 0, 0 }, { "C", 1, 0, 1 }, { "D", 1, 0, 0 }, { "E", 1, 1, 1 } },
    .elems = elems, .check = check, .init = init, .launch = launch, .cpu = cpu,
    .rtol = 1e-3, .atol = 1e-3,
};

PB_WORKLOAD(2mm, "2mm", def, params, "linear algebra", "R",
            "two chained matrix multiplications E = (A*B)*D, one thread per output element");
