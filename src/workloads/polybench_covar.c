/* COVAR (UVMBench polybench/COVAR, covariance.cu): covariance matrix of an (N+1) x (M+1)
 * data matrix (rows and columns 1..), three kernels: mean_kernel (256-thread blocks, a
 * column per thread), reduce_kernel (32x8 blocks, centers one element per thread),
 * covar_kernel (256-thread blocks, thread j1 computes row j1 of the upper triangle: a
 * divergent loop over j2 >= j1, each an N-long dot product accumulated in memory).
 * Grids are sized as in the source, which truncates: M/256 blocks, and (M/32, N/32) blocks
 * of 32x8 for reduce_kernel, which therefore centers only rows 1..N/4 (kept: the reference
 * computes the same). M must be >= 256 and N >= 32. */
#include "workloads/wl_util_colstats.h"
#include "workloads/wl_clamp.h"

enum { DATA_, SYM_, MEAN_ };
enum { M, N };

static const gms_wl_param params[] = {
    { "M", "2048", "columns (variables); at least 256" },
    { "N", "2048", "rows (observations); at least 32" },
    { "scale", "1", "multiply every size by this factor" },
    { "repeat", "1", "run the kernel sequence this many times" },
    { NULL, NULL, NULL },
};

static uint64_t elems(const uint64_t *d, int k)
{
    return k == DATA_ ? (d[M] + 1) * (d[N] + 1) : k == SYM_ ? (d[M] + 1) * (d[M] + 1) : d[M] + 1;
}

static void init(const pb_state *s, float **a)
{
    uint64_t m = s->dim[M], n = s->dim[N];
    for (uint64_t i = 1; i <= m; i++)
        for (uint64_t j = 1; j <= n; j++) a[DATA_][i * (n + 1) + j] = ((float)i * (float)j) / (float)m;
}

static void launch(pb_state *s, gms_program *p)
{
    uint64_t m = s->dim[M], n = s->dim[N];
    gms_dim3 b1 = wl_dim3(256, 1, 1);
    int64_t mean[4] = { DATA_, MEAN_, (int64_t)m, (int64_t)n };
    int64_t center[5] = { DATA_, MEAN_, -1, (int64_t)m, (int64_t)n };
    int64_t covar[5] = { DATA_, SYM_, (int64_t)m, (int64_t)n, 0 };
    pb_launch(s, p, "_Z11mean_kernelPfS_", wl_dim3((uint32_t)(m / 256), 1, 1), b1, 16, pb_fill_col_mean, mean, 4);
    pb_launch(s, p, "_Z13reduce_kernelPfS_", wl_dim3((uint32_t)(m / 32), (uint32_t)(n / 32), 1), wl_dim3(32, 8, 1), 16,
              pb_fill_col_center, center, 5);
    pb_launch_gen(s, p, "_Z12covar_kernelPfS_", wl_dim3((uint32_t)(m / 256), 1, 1), b1, 24, pb_step_col_sym,
                  pb_col_sym_wsize(), covar, 5);
}

static void cpu(const pb_state *s, float **a)
{
    int64_t m = (int64_t)s->dim[M], n = (int64_t)s->dim[N];
    /* the kernels' coverage: columns 1..min(M, 256*(M/256)), rows 1..min(N, 8*(N/32)) */
    int64_t jc = (m / 256) * 256, jr = (m / 32) * 32, ir = (n / 32) * 8;
    pb_cpu_col_mean(a[DATA_], a[MEAN_], m, n, jc);
    pb_cpu_col_center(a[DATA_], a[MEAN_], NULL, m, n, ir, jr);
    pb_cpu_col_sym(a[DATA_], a[SYM_], m, n, jc, 0);
}

static int check(const pb_state *s, gms_error *err)
{
    uint64_t m = s->dim[M], n = s->dim[N];
    if (pb_need_grid(s, "mean_kernel", m / 256, 1, err)) return -1;
    return pb_need_grid(s, "reduce_kernel", m / 32, n / 32, err);
}

static const pb_def def = {
    .name = "covar",
    .dims = { "M", "N" },
    .dim_scaled = { 1, 1 },
    .dim_min = { 256, 32 },   /* the smallest launchable grids (mean_kernel M/256, reduce_kernel N/32) */
    .arrs = { { "data", 1, 0, 1 }, { "symmat", 1, 1, 1 }, { "mean", 1, 0, 1 } },
    .elems = elems, .check = check, .init = init, .launch = launch, .cpu = cpu,
    .rtol = 1e-3, .atol = 1e-8,
};

static int create(const gms_wl_args *a, void **st, gms_error *e) { return pb_create(&def, a, st, e); }
static uint64_t footprint(const gms_wl_args *a) { return pb_footprint(&def, a); }

const gms_workload_ops gms_wl_pb_covar = {
    .name = "covar", .suite = "polybench", .domain = "statistics", .ri = "I",
    .summary = "covariance matrix: column means, centering, then a triangle of column dot products",
    .params = params, .create = create, .next = pb_next, .verify = pb_verify, .destroy = pb_destroy,
    .footprint = footprint,
};
