/* COVAR (UVMBench polybench/COVAR, covariance.cu): covariance matrix of an (N+1) x (M+1)
 * data matrix (rows and columns 1..), three kernels: mean_kernel (256-thread blocks, a
 * column per thread), reduce_kernel (32x8 blocks, centers one element per thread),
 * covar_kernel (256-thread blocks, thread j1 computes row j1 of the upper triangle: a
 * divergent loop over j2 >= j1, each an N-long dot product accumulated in memory).
 * Grids are sized as in the source, which truncates: M/256 blocks, and (M/32, N/32) blocks
 * of 32x8 for reduce_kernel, which therefore centers only rows 1..N/4 (kept: the reference
 * computes the same). M must be >= 256 and N >= 32. */
#include "workloads/wl_util_poly.h"

#define FLOAT_N 3214212.01

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

static int fill_mean(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    pb_state *s = k->st;
    int64_t m = (int64_t)s->dim[M], n = (int64_t)s->dim[N];
    float *data = s->h[DATA_], *mean = s->h[MEAN_];
    for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, k, block, wi);
        int64_t j[32];
        uint32_t in = 0;
        WL_LANES(w.live, l) {
            j[l] = wl_gx(&w, l) + 1;
            if (j[l] >= 1 && j[l] < m + 1) in |= 1u << l;
        }
        uint8_t r[2];
        uint32_t mk = wl_guard(&w, 1, 2, in, r);
        if (!mk) continue;
        uint64_t ma[32], da[32];
        float acc[32];
        WL_FADDR(ma, mk, s->d[MEAN_], j[l]);
        uint8_t four = wl_int(&w, mk, GMS_REG_NONE, GMS_REG_NONE);
        uint8_t pm = wl_int(&w, mk, r[0], four);
        uint8_t rm = wl_int(&w, mk, GMS_REG_NONE, GMS_REG_NONE);
        wl_stg(&w, mk, ma, pm, rm);
        WL_LANES(mk, l) acc[l] = 0.0f;
        wl_loop L;
        wl_loop_begin(&L, &w, mk, (uint64_t)n, 4, 1, r[0]);
        for (int64_t i = 1; i <= n; i++) {
            wl_loop_top(&L, &w);
            WL_FADDR(da, mk, s->d[DATA_], i * (m + 1) + j[l]);
            uint8_t v = wl_ldg(&w, mk, da, L.ptr[0]);
            rm = wl_fp(&w, mk, rm, v, GMS_REG_NONE);
            wl_stg(&w, mk, ma, pm, rm);
            WL_LANES(mk, l) acc[l] += data[i * (m + 1) + j[l]];
            wl_loop_end(&L, &w, mk, i < n ? mk : 0);
        }
        rm = wl_fdiv(&w, mk, rm, GMS_REG_NONE);
        wl_stg(&w, mk, ma, pm, rm);
        WL_LANES(mk, l) mean[j[l]] = acc[l] / (float)FLOAT_N;
        wl_exit(&w, mk);
    }
    return 0;
}

static int fill_reduce(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    pb_state *s = k->st;
    int64_t m = (int64_t)s->dim[M], n = (int64_t)s->dim[N];
    float *data = s->h[DATA_], *mean = s->h[MEAN_];
    for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, k, block, wi);
        int64_t i[32], j[32];
        uint32_t in = 0;
        WL_LANES(w.live, l) {
            j[l] = wl_gx(&w, l) + 1;
            i[l] = wl_gy(&w, l) + 1;
            if (i[l] >= 1 && i[l] < n + 1 && j[l] >= 1 && j[l] < m + 1) in |= 1u << l;
        }
        uint8_t r[2];
        uint32_t mk = wl_guard(&w, 2, 4, in, r);
        if (!mk) continue;
        uint64_t da[32], ma[32];
        WL_FADDR(da, mk, s->d[DATA_], i[l] * (m + 1) + j[l]);
        WL_FADDR(ma, mk, s->d[MEAN_], j[l]);
        uint8_t idx = wl_int(&w, mk, r[1], r[0]);
        uint8_t four = wl_int(&w, mk, GMS_REG_NONE, GMS_REG_NONE);
        uint8_t pd = wl_int(&w, mk, idx, four);
        uint8_t pm = wl_int(&w, mk, r[0], four);
        uint8_t v = wl_ldg(&w, mk, da, pd);
        uint8_t mv = wl_ldg(&w, mk, ma, pm);
        v = wl_fp(&w, mk, v, mv, GMS_REG_NONE);
        wl_stg(&w, mk, da, pd, v);
        WL_LANES(mk, l) data[i[l] * (m + 1) + j[l]] -= mean[j[l]];
        wl_exit(&w, mk);
    }
    return 0;
}

/* covar_kernel's warp, resumable (wl_gen.h): each thread loops over ~M columns x N rows */
typedef struct covar_warp {
    wl_wgen ws;
    int64_t j1[32], jmin, t, i;
    uint32_t mk, act, otop;
    uint8_t four, ps, rj, rs;
    uint64_t sa[32];
    float acc[32];
    wl_loop L;
} covar_warp;

static int step_covar(const wl_kernel *k, wl_wgen *ws, gms_error *err)
{
    covar_warp *g = (covar_warp *)ws;
    wl_warp *w = &ws->w;
    pb_state *s = k->st;
    int64_t m = (int64_t)s->dim[M], n = (int64_t)s->dim[N];
    float *data = s->h[DATA_], *sym = s->h[SYM_];
    int64_t *j1 = g->j1;
    WL_GEN_BEGIN(&ws->g)
    uint32_t in = 0;
    WL_LANES(w->live, l) {
        j1[l] = wl_gx(w, l) + 1;
        if (j1[l] >= 1 && j1[l] < m + 1) in |= 1u << l;
    }
    uint8_t r[2];
    g->mk = wl_guard(w, 1, 2, in, r);
    if (!g->mk) return 0;
    uint32_t mk = g->mk;
    g->four = wl_int(w, mk, GMS_REG_NONE, GMS_REG_NONE);
    g->ps = wl_int(w, mk, r[0], g->four);
    g->jmin = INT64_MAX;
    WL_LANES(mk, l) if (j1[l] < g->jmin) g->jmin = j1[l];
    g->rj = wl_int(w, mk, r[0], GMS_REG_NONE);              /* MOV j2 = j1 */
    g->otop = w->pc;
    for (g->t = 0; g->jmin + g->t <= m; g->t++) {
        int64_t t = g->t;
        g->act = 0;
        WL_LANES(g->mk, l) if (j1[l] + t <= m) g->act |= 1u << l;
        w->pc = g->otop;
        WL_FADDR(g->sa, g->act, s->d[SYM_], j1[l] * (m + 1) + j1[l] + t);
        g->rs = wl_int(w, g->act, GMS_REG_NONE, GMS_REG_NONE);
        wl_stg(w, g->act, g->sa, g->ps, g->rs);
        WL_LANES(g->act, l) g->acc[l] = 0.0f;
        wl_loop_begin(&g->L, w, g->act, (uint64_t)n, 4, 2, g->rj);
        for (g->i = 1; g->i <= n; g->i++) {
            int64_t i = g->i, tt = g->t;
            uint32_t act = g->act;
            uint64_t a1[32], a2[32];
            wl_loop_top(&g->L, w);
            WL_FADDR(a1, act, s->d[DATA_], i * (m + 1) + j1[l]);
            WL_FADDR(a2, act, s->d[DATA_], i * (m + 1) + j1[l] + tt);
            uint8_t v1 = wl_ldg(w, act, a1, g->L.ptr[0]);
            uint8_t v2 = wl_ldg(w, act, a2, g->L.ptr[1]);
            g->rs = wl_fp(w, act, v1, v2, g->rs);
            wl_stg(w, act, g->sa, g->ps, g->rs);
            WL_LANES(act, l) g->acc[l] = fmaf(data[i * (m + 1) + j1[l]], data[i * (m + 1) + j1[l] + tt], g->acc[l]);
            wl_loop_end(&g->L, w, act, i < n ? act : 0);
            WL_GEN_YIELD(&ws->g);
        }
        uint32_t act = g->act;
        int64_t t2 = g->t;
        uint64_t a1[32];
        WL_FADDR(a1, act, s->d[SYM_], (j1[l] + t2) * (m + 1) + j1[l]);
        uint8_t pt = wl_int(w, act, g->rj, g->four);
        wl_stg(w, act, a1, pt, g->rs);
        WL_LANES(act, l) {
            sym[j1[l] * (m + 1) + j1[l] + t2] = g->acc[l];
            sym[(j1[l] + t2) * (m + 1) + j1[l]] = g->acc[l];
        }
        uint32_t more = 0;
        WL_LANES(act, l) if (j1[l] + t2 + 1 <= m) more |= 1u << l;
        g->rj = wl_int(w, act, g->rj, GMS_REG_NONE);
        wl_pred(w, act, g->rj, GMS_REG_NONE);
        wl_bra(w, more);
    }
    wl_exit(w, g->mk);
    WL_GEN_END(&ws->g);
}

static void launch(pb_state *s, gms_program *p)
{
    uint64_t m = s->dim[M], n = s->dim[N];
    gms_dim3 b1 = wl_dim3(256, 1, 1);
    pb_launch(s, p, "_Z11mean_kernelPfS_", wl_dim3((uint32_t)(m / 256), 1, 1), b1, 16, fill_mean, NULL, 0);
    pb_launch(s, p, "_Z13reduce_kernelPfS_", wl_dim3((uint32_t)(m / 32), (uint32_t)(n / 32), 1), wl_dim3(32, 8, 1), 16,
              fill_reduce, NULL, 0);
    pb_launch_gen(s, p, "_Z12covar_kernelPfS_", wl_dim3((uint32_t)(m / 256), 1, 1), b1, 24, step_covar,
                  sizeof(covar_warp), NULL, 0);
}

static void cpu(const pb_state *s, float **a)
{
    int64_t m = (int64_t)s->dim[M], n = (int64_t)s->dim[N];
    int64_t jc = (m / 256) * 256, jr = (m / 32) * 32, ir = (n / 32) * 8;
    float *data = a[DATA_], *mean = a[MEAN_], *sym = a[SYM_];
    for (int64_t j = 1; j <= m && j <= jc; j++) {
        float mu = 0;
        for (int64_t i = 1; i <= n; i++) mu += data[i * (m + 1) + j];
        mean[j] = mu / (float)FLOAT_N;
    }
    for (int64_t i = 1; i <= n && i <= ir; i++)
        for (int64_t j = 1; j <= m && j <= jr; j++) data[i * (m + 1) + j] -= mean[j];
    for (int64_t j1 = 1; j1 <= m && j1 <= jc; j1++)
        for (int64_t j2 = j1; j2 <= m; j2++) {
            float c = 0;
            for (int64_t i = 1; i <= n; i++) c += data[i * (m + 1) + j1] * data[i * (m + 1) + j2];
            sym[j1 * (m + 1) + j2] = c;
            sym[j2 * (m + 1) + j1] = c;
        }
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
    .arrs = { { "data", 1, 0, 1 }, { "symmat", 1, 1, 1 }, { "mean", 1, 0, 1 } },
    .elems = elems, .check = check, .init = init, .launch = launch, .cpu = cpu,
    .rtol = 1e-3, .atol = 1e-8,
};

PB_WORKLOAD(covar, "covar", def, params, "statistics", "I",
            "covariance matrix: column means, centering, then a triangle of column dot products");
