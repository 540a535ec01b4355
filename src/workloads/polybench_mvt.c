/* MVT (UVMBench polybench/MVT, mvt.cu): x1 += A y1 and x2 += A^T y2, two kernels,
 * 256-thread blocks: mvt_kernel1 reads rows (lanes N*4 bytes apart), mvt_kernel2 columns. */
#include "workloads/wl_util_poly.h"

enum { A_, X1_, X2_, Y1_, Y2_ };
enum { N };

static const gms_wl_param params[] = {
    { "N", "4096", "matrix side" },
    { "scale", "1", "multiply every size by this factor" },
    { "repeat", "1", "run the kernel sequence this many times (x1, x2 accumulate)" },
    { NULL, NULL, NULL },
};

static uint64_t elems(const uint64_t *d, int k) { return k == A_ ? d[N] * d[N] : d[N]; }

static void init(const pb_state *s, float **a)
{
    uint64_t n = s->dim[N];
    for (uint64_t i = 0; i < n; i++) {
        a[X1_][i] = (float)i / (float)n;
        a[X2_][i] = ((float)i + 1) / (float)n;
        a[Y1_][i] = ((float)i + 3) / (float)n;
        a[Y2_][i] = ((float)i + 4) / (float)n;
        for (uint64_t j = 0; j < n; j++) a[A_][i * n + j] = ((float)i * (float)j) / (float)n;
    }
}

static void launch(pb_state *s, gms_program *p)
{
    int64_t n = (int64_t)s->dim[N];
    int64_t a1[8] = { A_, Y1_, X1_, n, n, n, 1, 0 };
    pb_launch_gen(s, p, "_Z11mvt_kernel1PfS_S_", wl_dim3(wl_cdiv((uint64_t)n, 256), 1, 1), wl_dim3(256, 1, 1), 16,
              pb_step_dot, pb_dot_wsize(), a1, 8);
    int64_t a2[8] = { A_, Y2_, X2_, n, n, 1, n, 0 };
    pb_launch_gen(s, p, "_Z11mvt_kernel2PfS_S_", wl_dim3(wl_cdiv((uint64_t)n, 256), 1, 1), wl_dim3(256, 1, 1), 16,
              pb_step_dot, pb_dot_wsize(), a2, 8);
}

static void cpu(const pb_state *s, float **a)
{
    uint64_t n = s->dim[N];
    pb_cpu_dot(a[A_], a[Y1_], a[X1_], n, n, n, 1, 0);
    pb_cpu_dot(a[A_], a[Y2_], a[X2_], n, n, 1, n, 0);
}

static const pb_def def = {
    .name = "mvt",
    .dims = { "N" },
    .dim_scaled = { 1 },
    .arrs = { { "a", 1, 0, 0 }, { "x1", 1, 1, 1 }, { "x2", 1, 1, 1 }, { "y_1", 1, 0, 0 }, { "y_2", 1, 0, 0 } },
    .elems = elems, .init = init, .launch = launch, .cpu = cpu,
    .rtol = 1e-3, .atol = 1e-3,
};

PB_WORKLOAD(mvt, "mvt", def, params, "linear algebra", "I",
            "matrix-vector products x1 += A y1 (row per thread) and x2 += A^T y2 (column per thread)");
