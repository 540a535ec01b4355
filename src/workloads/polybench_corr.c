/* CORR (UVMBench polybench/CORR, correlation.cu): correlation matrix of an (N+1) x (M+1)
 * data matrix (rows and columns 1..), four kernels: mean_kernel and std_kernel (256-thread
 * blocks, a column per thread), reduce_kernel (32x8, one element per thread), corr_kernel
 * (256-thread blocks, thread j1 computes row j1 of the upper triangle: a divergent loop over
 * j2 > j1, each an N-long dot product accumulated in memory), then the host writes
 * symmat[M][M] = 1 with a 4-byte copy. Grids are sized as in the source, which truncates:
 * M/256 and (M/32, N/8) blocks (M must be >= 256 and N >= 8). symmat is allocated
 * (M+1) x (max(M,N)+1) floats (the source: (M+1) x (N+1), the same when M = N). */
#include "workloads/wl_util_colstats.h"
#include "workloads/wl_clamp.h"

#define EPS 0.005f

enum { DATA_, SYM_, STD_, MEAN_ };
enum { M, N };

static const gms_wl_param params[] = {
    { "M", "2048", "columns (variables); at least 256" },
    { "N", "2048", "rows (observations); at least 8" },
    { "scale", "1", "multiply every size by this factor" },
    { "repeat", "1", "run the kernel sequence this many times" },
    { NULL, NULL, NULL },
};

static uint64_t elems(const uint64_t *d, int k)
{
    uint64_t mx = d[M] > d[N] ? d[M] : d[N];
    return k == DATA_ ? (d[M] + 1) * (d[N] + 1) : k == SYM_ ? (d[M] + 1) * (mx + 1) : d[M] + 1;
}

static void init(const pb_state *s, float **a)
{
    uint64_t m = s->dim[M], n = s->dim[N];
    for (uint64_t i = 0; i <= m; i++)
        for (uint64_t j = 0; j <= n; j++) a[DATA_][i * (n + 1) + j] = ((float)i * (float)j) / (float)(m + 1);
}

static int fill_std(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    pb_state *s = k->st;
    int64_t m = (int64_t)s->dim[M], n = (int64_t)s->dim[N];
    float *data = s->h[DATA_], *mean = s->h[MEAN_], *sd = s->h[STD_];
    for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, k, block, wi);
        int64_t j[32];
        uint8_t r[2];
        uint32_t mk = wl_guard_span(&w, 1, 1, m + 1, 2, j, r);
        if (!mk) continue;
        uint64_t sa[32], ma[32], da[32];
        float acc[32];
        WL_FADDR(sa, mk, s->d[STD_], j[l]);
        WL_FADDR(ma, mk, s->d[MEAN_], j[l]);
        uint8_t four = wl_int(&w, mk, GMS_REG_NONE, GMS_REG_NONE);
        uint8_t ps = wl_int(&w, mk, r[0], four);
        uint8_t pm = wl_int(&w, mk, r[0], four);
        uint8_t rs = wl_int(&w, mk, GMS_REG_NONE, GMS_REG_NONE);
        wl_stg(&w, mk, sa, ps, rs);
        WL_LANES(mk, l) acc[l] = 0.0f;
        WL_SH_ST(&w, mk, float, 0.0f);
        wl_loop L;
        wl_loop_begin(&L, &w, mk, (uint64_t)n, 4, 1, r[0]);
        for (int64_t i = 1; i <= n; i++) {
            wl_loop_top(&L, &w);
            WL_FADDR(da, mk, s->d[DATA_], i * (m + 1) + j[l]);
            uint8_t v = wl_ldg(&w, mk, da, L.ptr[0]);
            WL_SH_LD(&w, mk, float, data[i * (m + 1) + j[l]]);
            uint8_t mv = wl_ldg(&w, mk, ma, pm);                      /* mean reloaded: std may alias */
            WL_SH_LD(&w, mk, float, mean[j[l]]);
            uint8_t dd = wl_fp(&w, mk, v, mv, GMS_REG_NONE);          /* FADD */
            rs = wl_fp(&w, mk, dd, dd, rs);                           /* FFMA */
            wl_stg(&w, mk, sa, ps, rs);
            WL_LANES(mk, l) {
                float d = data[i * (m + 1) + j[l]] - mean[j[l]];
                acc[l] = fmaf(d, d, acc[l]);
            }
            WL_SH_ST(&w, mk, float, acc[l]);
            wl_loop_end(&L, &w, mk, i < n ? mk : 0);
        }
        rs = wl_fdiv(&w, mk, rs, GMS_REG_NONE);
        wl_stg(&w, mk, sa, ps, rs);
        WL_SH_ST(&w, mk, float, acc[l] / PB_COLSTATS_FLOAT_N);
        rs = wl_fsqrt(&w, mk, rs);
        wl_stg(&w, mk, sa, ps, rs);
        WL_SH_ST(&w, mk, float, sqrtf(acc[l] / PB_COLSTATS_FLOAT_N));
        uint32_t small = 0;
        WL_LANES(mk, l) {
            float v = sqrtf(acc[l] / PB_COLSTATS_FLOAT_N);
            if (v <= EPS) { v = 1.0f; small |= 1u << l; }
            sd[j[l]] = v;
        }
        wl_pred(&w, mk, rs, GMS_REG_NONE);                             /* ISETP std <= EPS */
        uint8_t one = wl_int(&w, small, GMS_REG_NONE, GMS_REG_NONE);
        wl_stg(&w, small, sa, ps, one);                                /* @P std = 1 */
        WL_SH_ST(&w, small, float, 1.0f);
        wl_exit(&w, mk);
    }
    return 0;
}

static void launch(pb_state *s, gms_program *p)
{
    uint64_t m = s->dim[M], n = s->dim[N];
    gms_dim3 b1 = wl_dim3(256, 1, 1);
    int64_t mean[4] = { DATA_, MEAN_, (int64_t)m, (int64_t)n };
    int64_t center[5] = { DATA_, MEAN_, STD_, (int64_t)m, (int64_t)n };
    int64_t corr[5] = { DATA_, SYM_, (int64_t)m, (int64_t)n, 1 };
    pb_launch(s, p, "_Z11mean_kernelPfS_", wl_dim3((uint32_t)(m / 256), 1, 1), b1, 16, pb_fill_col_mean, mean, 4);
    pb_launch(s, p, "_Z10std_kernelPfS_S_", wl_dim3((uint32_t)(m / 256), 1, 1), b1, 16, fill_std, NULL, 0);
    pb_launch(s, p, "_Z13reduce_kernelPfS_S_", wl_dim3((uint32_t)(m / 32), (uint32_t)(n / 8), 1), wl_dim3(32, 8, 1),
              16, pb_fill_col_center, center, 5);
    pb_launch_gen(s, p, "_Z11corr_kernelPfS_", wl_dim3((uint32_t)(m / 256), 1, 1), b1, 24, pb_step_col_sym,
                  pb_col_sym_wsize(), corr, 5);
}

static void post(pb_state *s, gms_program *p)
{
    uint64_t m = s->dim[M];
    s->h[SYM_][m * (m + 1) + m] = 1.0f;
    gms_prog_copy_h2d(p, pb_addr(s, SYM_, m * (m + 1) + m), 4);
    wl_sh_init(p, pb_addr(s, SYM_, m * (m + 1) + m), &s->h[SYM_][m * (m + 1) + m], 4);
}

static void cpu(const pb_state *s, float **a)
{
    int64_t m = (int64_t)s->dim[M], n = (int64_t)s->dim[N];
    /* the kernels' coverage: columns 1..min(M, 256*(M/256)), rows 1..min(N, 8*(N/8)) */
    int64_t jc = (m / 256) * 256, jr = (m / 32) * 32, ir = (n / 8) * 8;
    float *data = a[DATA_], *mean = a[MEAN_], *sd = a[STD_], *sym = a[SYM_];
    pb_cpu_col_mean(data, mean, m, n, jc);
    for (int64_t j = 1; j <= m && j <= jc; j++) {
        float v = 0;
        for (int64_t i = 1; i <= n; i++) {
            float d = data[i * (m + 1) + j] - mean[j];
            v += d * d;
        }
        v = sqrtf(v / PB_COLSTATS_FLOAT_N);
        sd[j] = v <= EPS ? 1.0f : v;
    }
    pb_cpu_col_center(data, mean, sd, m, n, ir, jr);
    pb_cpu_col_sym(data, sym, m, n, jc, 1);
    sym[m * (m + 1) + m] = 1.0f;
}

static int check(const pb_state *s, gms_error *err)
{
    uint64_t m = s->dim[M], n = s->dim[N];
    if (pb_need_grid(s, "mean_kernel", m / 256, 1, err)) return -1;
    return pb_need_grid(s, "reduce_kernel", m / 32, n / 8, err);
}

static const pb_def def = {
    .name = "corr",
    .dims = { "M", "N" },
    .dim_scaled = { 1, 1 },
    .dim_min = { 256, 8 },   /* the smallest launchable grids (mean_kernel M/256, reduce_kernel N/8) */
    .arrs = { { "data", 1, 0, 1 }, { "symmat", 1, 1, 1 }, { "stddev", 1, 0, 1 }, { "mean", 1, 0, 1 } },
    .elems = elems, .check = check, .init = init, .launch = launch, .post = post, .cpu = cpu,
    .rtol = 2e-3, .atol = 1e-7,
};

static int create(const gms_wl_args *a, void **st, gms_error *e) { return pb_create(&def, a, st, e); }
static uint64_t footprint(const gms_wl_args *a) { return pb_footprint(&def, a); }

const gms_workload_ops gms_wl_pb_corr = {
    .name = "corr", .suite = "polybench", .domain = "statistics", .ri = "I",
    .summary = "correlation matrix: column means and deviations, normalisation, then a triangle of column dot products",
    .params = params, .create = create, .next = pb_next, .verify = pb_verify, .destroy = pb_destroy,
    .footprint = footprint,
};
