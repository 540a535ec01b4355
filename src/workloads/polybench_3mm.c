/* 3MM (UVMBench polybench/3MM, 3mm.cu): E += A*B, F += C*D, G += E*F; three kernels, 32x8
 * blocks. E, F, G start at zero (copied from never-written host buffers in the source). */
#include "workloads/wl_util_poly.h"

enum { A_, B_, C_, D_, E_, F_, G_ };
enum { NI, NJ, NK, NL, NM };

static const gms_wl_param params[] = {
    { "NI", "512", "rows of A, E, G" },
    { "NJ", "512", "columns of B, E; rows of C, F" },
    { "NK", "512", "columns of A, rows of B" },
    { "NL", "512", "columns of D, F, G" },
    { "NM", "512", "columns of C, rows of D" },
    { "scale", "1", "multiply every size by this factor" },
    { "repeat", "1", "run the kernel sequence this many times" },
    { NULL, NULL, NULL },
};

static uint64_t elems(const uint64_t *d, int k)
{
    switch (k) {
    case A_: return d[NI] * d[NK];
    case B_: return d[NK] * d[NJ];
    case C_: return d[NJ] * d[NM];
    case D_: return d[NM] * d[NL];
    case E_: return d[NI] * d[NJ];
    case F_: return d[NJ] * d[NL];
    default: return d[NI] * d[NL];
    }
}

static void init(const pb_state *s, float **a)
{
    const uint64_t *d = s->dim;
    pb_init_ratio(a[A_], d[NI], d[NK], 0, d[NI]);
    pb_init_ratio(a[B_], d[NK], d[NJ], 1, d[NJ]);
    pb_init_ratio(a[C_], d[NJ], d[NM], 3, d[NL]);
    pb_init_ratio(a[D_], d[NM], d[NL], 2, d[NK]);
}

static void launch(pb_state *s, gms_program *p)
{
    const uint64_t *d = s->dim;
    gms_dim3 b = wl_dim3(32, 8, 1);
    int64_t a1[8] = { A_, B_, E_, (int64_t)d[NI], (int64_t)d[NJ], (int64_t)d[NK], 0, 0 };
    pb_launch_gen(s, p, "_Z11mm3_kernel1PfS_S_", wl_dim3(wl_cdiv(d[NJ], 32), wl_cdiv(d[NI], 8), 1), b, 16, pb_step_mm, pb_mm_wsize(),
              a1, 8);
    int64_t a2[8] = { C_, D_, F_, (int64_t)d[NJ], (int64_t)d[NL], (int64_t)d[NM], 0, 0 };
    pb_launch_gen(s, p, "_Z11mm3_kernel2PfS_S_", wl_dim3(wl_cdiv(d[NL], 32), wl_cdiv(d[NJ], 8), 1), b, 16, pb_step_mm, pb_mm_wsize(),
              a2, 8);
    int64_t a3[8] = { E_, F_, G_, (int64_t)d[NI], (int64_t)d[NL], (int64_t)d[NJ], 0, 0 };
    pb_launch_gen(s, p, "_Z11mm3_kernel3PfS_S_", wl_dim3(wl_cdiv(d[NL], 32), wl_cdiv(d[NI], 8), 1), b, 16, pb_step_mm, pb_mm_wsize(),
              a3, 8);
}

static void cpu(const pb_state *s, float **a)
{
    const uint64_t *d = s->dim;
    pb_cpu_mm(a[A_], a[B_], a[E_], d[NI], d[NJ], d[NK], 0, 1, 1);
    pb_cpu_mm(a[C_], a[D_], a[F_], d[NJ], d[NL], d[NM], 0, 1, 1);
    pb_cpu_mm(a[E_], a[F_], a[G_], d[NI], d[NL], d[NJ], 0, 1, 1);
}

static const pb_def def = {
    .name = "3mm",
    .dims = { "NI", "NJ", "NK", "NL", "NM" },
    .dim_scaled = { 1, 1, 1, 1, 1 },
    .arrs = { { "A", 1, 0, 0 }, { "B", 1, 0, 0 }, { "C", 1, 0, 0 }, { "D", 1, 0, 0 },
              { "E", 1, 0, 1 }, { "F", 1, 0, 1 }, { "G", 1, 1, 1 } },
    .elems = elems, .init = init, .launch = launch, .cpu = cpu,
    .rtol = 1e-3, .atol = 1e-3,
};

PB_WORKLOAD(3mm, "3mm", def, params, "linear algebra", "R",
            "three matrix multiplications G = (A*B)*(C*D), one thread per output element");
