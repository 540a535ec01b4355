/* KMEANS (kmeans-cuda, UVMBench): k-means on `points` 2D points with `k` clusters, `reps`
 * rounds of get_dst (n blocks x k threads), regroup (n x 1), clear, recenter_step1 (one
 * block of k threads scanning every point) and recenter_step2 (1 x k): 5 kernels. */
#include "workloads/wl_buf.h"
#include "workloads/wl_clamp.h"
#include "util/rng.h"
#include <stdlib.h>
#include <string.h>

enum { GROUP, NX, NY, X, Y, MUX, MUY, SUMX, SUMY, DST, NBUF };
static const char *const names[NBUF] = {"group_d", "nx_d", "ny_d", "x_d", "y_d", "mu_x_d", "mu_y_d",
                                        "sum_x_d", "sum_y_d", "dst_d"};

typedef struct km {
    uint64_t n, k, reps;
    uint64_t repeat, rep;   /* repetitions asked for, pushed so far */
    wl_buf b[NBUF];
    float *mux0, *muy0;
    wl_shadow *sh;          /* functional verify runs: verify reads group, mu_x, mu_y from it */
} km;

static const gms_wl_param params[] = {
    {"points", "1000000", "number of points (the suite's input file size)"},
    {"k", "3", "number of clusters (initCoord.txt lines); threads per block of 4 kernels"},
    {"reps", "100", "k-means rounds"},
    {"scale", "1", "multiplies points"},
    {"repeat", "1", "run all the rounds N times from the same initial centres"},
    {NULL, NULL, NULL},
};

static uint64_t footprint(const gms_wl_args *a)
{
    gms_error e;
    uint64_t n = 0;
    if (wl_clamp_scaled(a, "kmeans", "points", 1, 0, 1ULL << 31, &n, &e)) return 0;
    uint64_t k = gms_wl_u64(a, "k");
    return 4 * (3 * n + n * k + 6 * k);
}

static int create(const gms_wl_args *a, void **out, gms_error *err)
{
    uint64_t n, k, reps, rep;
    if (wl_clamp_scaled(a, "kmeans", "points", 1, 0, 1ULL << 31, &n, err) || wl_param(a, "k", 1, 1024, &k, err) ||
        wl_param(a, "reps", 1, 1000000, &reps, err) || wl_param(a, "repeat", 1, 1000000, &rep, err))
        return -1;
    if (n > UINT32_MAX) return gms_err(err, "workload kmeans: points=%llu exceeds the grid limit", (unsigned long long)n);
    km *s = gms_xcalloc(1, sizeof *s);
    s->n = n; s->k = k; s->reps = reps; s->repeat = rep;
    uint64_t sz[NBUF] = {n, k, k, n, n, k, k, k, k, n * k};
    for (int i = 0; i < NBUF; i++) wl_buf_new(&s->b[i], 4 * sz[i]);
    gms_rng g;
    gms_rng_seed(&g, gms_wl_seed(a));
    /* points around k centres */
    for (uint64_t i = 0; i < n; i++) {
        uint64_t c = gms_rng_below(&g, k);
        WL_F(s->b[X])[i] = (float)(10.0 * (double)c + 4.0 * gms_rng_double(&g));
        WL_F(s->b[Y])[i] = (float)(5.0 * (double)c + 4.0 * gms_rng_double(&g));
    }
    s->mux0 = gms_xmalloc(4 * k);
    s->muy0 = gms_xmalloc(4 * k);
    for (uint64_t j = 0; j < k; j++) {
        s->mux0[j] = WL_F(s->b[X])[j * (n / k)];
        s->muy0[j] = WL_F(s->b[Y])[j * (n / k)];
    }
    memcpy(s->b[MUX].h, s->mux0, 4 * k);
    memcpy(s->b[MUY].h, s->muy0, 4 * k);
    *out = s;
    return 0;
}

#define A(k_, i_) (s->b[k_].d + 4 * (uint64_t)(i_))

static float dist2(float x, float y, float mx, float my)
{
    float d = (x - mx) * (x - mx);
    d += (y - my) * (y - my);
    return d;
}

/* kernel ids: 0 get_dst, 1 regroup, 2 clear, 3 recenter_step1 (k_recenter1), 4 recenter_step2 */
static int k_km(const wl_kernel *kk, uint64_t blk, gms_block_trace *out, gms_error *err)
{
    km *s = kk->st;
    uint32_t tpb = kk->block.x;
    wl_warp W[WL_MAXW];
    uint32_t nw = wl_block_begin(out, tpb, W);
    float *x = WL_F(s->b[X]), *y = WL_F(s->b[Y]), *mux = WL_F(s->b[MUX]), *muy = WL_F(s->b[MUY]);
    float *dst = WL_F(s->b[DST]), *sx = WL_F(s->b[SUMX]), *sy = WL_F(s->b[SUMY]);
    int32_t *grp = WL_I(s->b[GROUP]), *nxs = WL_I(s->b[NX]), *nys = WL_I(s->b[NY]);
    uint64_t k = s->k;
    uint64_t a1[32], a2[32], a3[32], a4[32];
    wl_warps_sh(W, nw, kk);
    for (uint32_t w = 0; w < nw; w++) {
        wl_warp *wp = &W[w];
        uint32_t m = wp->live;
        uint8_t ri = wl_prologue_idx(wp, m);
        switch (kk->arg[0]) {
        case 0: {
            WL_TLANES(wp, m, l, j) {
                a1[l] = A(X, blk); a2[l] = A(MUX, j); a3[l] = A(Y, blk); a4[l] = A(MUY, j);
                dst[blk * k + j] = dist2(x[blk], y[blk], mux[j], muy[j]);
            }
            /* the first store holds (x - mu_x)^2, as dist2 computes it */
            uint32_t j0 = wp->t0;
#define KM_DX(l) ((x[blk] - mux[j0 + (l)]) * (x[blk] - mux[j0 + (l)]))
            uint8_t vx = wl_ldg_at(wp, 0x18, m, 4, a1, ri);
            WL_SH_LD(wp, m, float, x[blk]);
            uint8_t vm = wl_ldg_at(wp, 0x20, m, 4, a2, ri);
            WL_SH_LD(wp, m, float, mux[j0 + l]);
            uint8_t d = wl_fp_at(wp, 0x28, m, vx, vm, GMS_REG_NONE);
            d = wl_fp_at(wp, 0x30, m, d, d, GMS_REG_NONE);
            WL_TLANES(wp, m, l, j) a1[l] = A(DST, blk * k + j);
            wl_stg_at(wp, 0x38, m, 4, a1, ri, d);
            WL_SH_ST(wp, m, float, KM_DX(l));
            uint8_t vy = wl_ldg_at(wp, 0x40, m, 4, a3, ri);
            WL_SH_LD(wp, m, float, y[blk]);
            uint8_t vn = wl_ldg_at(wp, 0x48, m, 4, a4, ri);
            WL_SH_LD(wp, m, float, muy[j0 + l]);
            uint8_t old = wl_ldg_at(wp, 0x50, m, 4, a1, ri);
            WL_SH_LD(wp, m, float, KM_DX(l));
#undef KM_DX
            uint8_t e = wl_fp_at(wp, 0x58, m, vy, vn, GMS_REG_NONE);
            e = wl_fp_at(wp, 0x60, m, e, e, old);
            wl_stg_at(wp, 0x68, m, 4, a1, ri, e);
            WL_SH_ST(wp, m, float, dst[blk * k + j0 + l]);
            break;
        }
        case 1: {
            a1[0] = A(DST, blk * k);
            a2[0] = A(GROUP, blk);
            uint8_t mn = wl_ldg_at(wp, 0x18, 1u, 4, a1, ri);
            WL_SH_LD(wp, 1u, float, dst[blk * k]);
            wl_stg_at(wp, 0x20, 1u, 4, a2, ri, GMS_REG_NONE);
            WL_SH_ST(wp, 1u, int32_t, 1);
            float md = dst[blk * k];
            grp[blk] = 1;
            for (uint64_t j = 1; j < k; j++) {
                a1[0] = A(DST, blk * k + j);
                uint8_t v = wl_ldg_at(wp, 0x28, 1u, 4, a1, ri);
                WL_SH_LD(wp, 1u, float, dst[blk * k + j]);
                uint8_t c = wl_fp_at(wp, 0x30, 1u, v, mn, GMS_REG_NONE);
                wl_bra_at(wp, 0x38, 1u, c);
                if (dst[blk * k + j] < md) {
                    md = dst[blk * k + j];
                    grp[blk] = (int32_t)j + 1;
                    wl_stg_at(wp, 0x40, 1u, 4, a2, ri, GMS_REG_NONE);
                    WL_SH_ST(wp, 1u, int32_t, grp[blk]);
                }
                wl_bra_at(wp, 0x48, 1u, ri);
            }
            break;
        }
        case 2: {
            WL_TLANES(wp, m, l, j) { a1[l] = A(SUMX, j); a2[l] = A(SUMY, j); a3[l] = A(NX, j); a4[l] = A(NY, j);
                                    sx[j] = sy[j] = 0; nxs[j] = nys[j] = 0; }
            wl_stg_at(wp, 0x18, m, 4, a1, ri, GMS_REG_NONE);
            WL_SH_ST(wp, m, float, 0.0f);
            wl_stg_at(wp, 0x20, m, 4, a2, ri, GMS_REG_NONE);
            WL_SH_ST(wp, m, float, 0.0f);
            wl_stg_at(wp, 0x28, m, 4, a3, ri, GMS_REG_NONE);
            WL_SH_ST(wp, m, int32_t, 0);
            wl_stg_at(wp, 0x30, m, 4, a4, ri, GMS_REG_NONE);
            WL_SH_ST(wp, m, int32_t, 0);
            break;
        }
        default: {
            WL_TLANES(wp, m, l, j) {
                a1[l] = A(SUMX, j); a2[l] = A(NX, j); a3[l] = A(SUMY, j); a4[l] = A(NY, j);
                mux[j] = sx[j] / (float)nxs[j];
                muy[j] = sy[j] / (float)nys[j];
            }
            uint32_t j0 = wp->t0;
            uint8_t v1 = wl_ldg_at(wp, 0x18, m, 4, a1, ri);
            WL_SH_LD(wp, m, float, sx[j0 + l]);
            uint8_t v2 = wl_ldg_at(wp, 0x20, m, 4, a2, ri);
            WL_SH_LD(wp, m, int32_t, nxs[j0 + l]);
            uint8_t q = wl_sfu_at(wp, 0x28, m, v2);
            q = wl_fp_at(wp, 0x30, m, v1, q, GMS_REG_NONE);
            WL_TLANES(wp, m, l, j) a1[l] = A(MUX, j);
            wl_stg_at(wp, 0x38, m, 4, a1, ri, q);
            WL_SH_ST(wp, m, float, mux[j0 + l]);
            uint8_t v3 = wl_ldg_at(wp, 0x40, m, 4, a3, ri);
            WL_SH_LD(wp, m, float, sy[j0 + l]);
            uint8_t v4 = wl_ldg_at(wp, 0x48, m, 4, a4, ri);
            WL_SH_LD(wp, m, int32_t, nys[j0 + l]);
            uint8_t r = wl_sfu_at(wp, 0x50, m, v4);
            r = wl_fp_at(wp, 0x58, m, v3, r, GMS_REG_NONE);
            WL_TLANES(wp, m, l, j) a1[l] = A(MUY, j);
            wl_stg_at(wp, 0x60, m, 4, a1, ri, r);
            WL_SH_ST(wp, m, float, muy[j0 + l]);
            break;
        }
        }
        wl_exit_at(wp, WL_PC_END, m);
    }
    (void)err;
    return 0;
}

/* recenter_step1 (kernel 3): one block of k threads, each walking all n points, so a warp's
 * stream grows with n; generated resumably (wl_gen.h). A thread only accumulates its own
 * cluster's sums, so the warps are independent. */
typedef struct rc_warp {
    wl_wgen ws;
    uint64_t i;
    uint8_t ri;
} rc_warp;

static int k_recenter1(const wl_kernel *kk, wl_wgen *ws, gms_error *err)
{
    rc_warp *g = (rc_warp *)ws;
    wl_warp *wp = &ws->w;
    km *s = kk->st;
    float *x = WL_F(s->b[X]), *y = WL_F(s->b[Y]), *sx = WL_F(s->b[SUMX]), *sy = WL_F(s->b[SUMY]);
    int32_t *grp = WL_I(s->b[GROUP]), *nxs = WL_I(s->b[NX]), *nys = WL_I(s->b[NY]);
    uint64_t a1[32], a2[32], a3[32], a4[32];
    float psx[32], psy[32];   /* the sums and counts each lane loads, before its update */
    int32_t pnx[32], pny[32];
    uint32_t m = wp->live;
    WL_GEN_BEGIN(&ws->g)
    g->ri = wl_prologue_idx(wp, m);
    /* every thread walks all points; the one whose cluster matches accumulates */
    for (g->i = 0; g->i < s->n; g->i++) {
        uint64_t i = g->i;
        uint8_t ri = g->ri;
        uint32_t mm = 0;
        WL_TLANES(wp, m, l, j) {
            a1[l] = A(GROUP, i);
            if (grp[i] == (int32_t)j + 1) mm |= 1u << l;
        }
        uint8_t gv = wl_ldg_at(wp, 0x18, m, 4, a1, ri);
        WL_SH_LD(wp, m, int32_t, grp[i]);
        uint8_t c = wl_int_at(wp, 0x20, m, gv, ri);
        wl_bra_at(wp, 0x28, m, c);
        if (mm) {
            WL_TLANES(wp, mm, l, j) {
                a1[l] = A(X, i); a2[l] = A(SUMX, j); a3[l] = A(Y, i); a4[l] = A(SUMY, j);
                psx[l] = sx[j]; psy[l] = sy[j]; pnx[l] = nxs[j]; pny[l] = nys[j];
                sx[j] += x[i]; sy[j] += y[i]; nxs[j]++; nys[j]++;
            }
            uint32_t j0 = wp->t0;
            uint8_t vx = wl_ldg_at(wp, 0x30, mm, 4, a1, ri);
            WL_SH_LD(wp, mm, float, x[i]);
            uint8_t vs = wl_ldg_at(wp, 0x38, mm, 4, a2, ri);
            WL_SH_LD(wp, mm, float, psx[l]);
            wl_stg_at(wp, 0x40, mm, 4, a2, ri, wl_fp_at(wp, 0x48, mm, vx, vs, GMS_REG_NONE));
            WL_SH_ST(wp, mm, float, sx[j0 + l]);
            uint8_t vy = wl_ldg_at(wp, 0x50, mm, 4, a3, ri);
            WL_SH_LD(wp, mm, float, y[i]);
            uint8_t vt = wl_ldg_at(wp, 0x58, mm, 4, a4, ri);
            WL_SH_LD(wp, mm, float, psy[l]);
            wl_stg_at(wp, 0x60, mm, 4, a4, ri, wl_fp_at(wp, 0x68, mm, vy, vt, GMS_REG_NONE));
            WL_SH_ST(wp, mm, float, sy[j0 + l]);
            WL_TLANES(wp, mm, l, j) { a1[l] = A(NX, j); a2[l] = A(NY, j); }
            uint8_t n1 = wl_ldg_at(wp, 0x70, mm, 4, a1, ri);
            WL_SH_LD(wp, mm, int32_t, pnx[l]);
            wl_stg_at(wp, 0x78, mm, 4, a1, ri, wl_int_at(wp, 0x80, mm, n1, GMS_REG_NONE));
            WL_SH_ST(wp, mm, int32_t, nxs[j0 + l]);
            uint8_t n2 = wl_ldg_at(wp, 0x88, mm, 4, a2, ri);
            WL_SH_LD(wp, mm, int32_t, pny[l]);
            wl_stg_at(wp, 0x90, mm, 4, a2, ri, wl_int_at(wp, 0x98, mm, n2, GMS_REG_NONE));
            WL_SH_ST(wp, mm, int32_t, nys[j0 + l]);
        }
        wl_bra_at(wp, 0xa0, m, ri);
        WL_GEN_YIELD(&ws->g);
    }
    wl_exit_at(wp, WL_PC_END, m);
    WL_GEN_END(&ws->g);
}

/* One repetition (all `reps` rounds) per call. Later repetitions start again from the initial
 * centres (host copy + H2D), which must happen only when the previous repetition's kernels
 * have run, which is when next() is called again. */
static int next(void *st, gms_program *p, gms_error *err)
{
    km *s = st;
    if (s->rep == s->repeat) return 0;
    s->sh = p->shadow;
    if (s->rep == 0) {
        for (int i = 0; i < NBUF; i++) wl_buf_alloc(p, &s->b[i], names[i], i == X || i == Y || i == MUX || i == MUY);
    } else {
        memcpy(s->b[MUX].h, s->mux0, s->b[MUX].bytes);
        memcpy(s->b[MUY].h, s->muy0, s->b[MUY].bytes);
        wl_buf_upload(p, &s->b[MUX]);
        wl_buf_upload(p, &s->b[MUY]);
    }
    static const char *const kn[5] = {"get_dst", "regroup", "clear", "recenter_step1", "recenter_step2"};
    uint32_t n = (uint32_t)s->n, k = (uint32_t)s->k;
    const gms_dim3 grid[5] = {{n, 1, 1}, {n, 1, 1}, {1, 1, 1}, {1, 1, 1}, {1, 1, 1}};
    const gms_dim3 blk[5] = {{k, 1, 1}, {1, 1, 1}, {k, 1, 1}, {k, 1, 1}, {k, 1, 1}};
    for (uint64_t r = 0; r < s->reps; r++)
        for (int i = 0; i < 5; i++) {
            wl_kernel kk = {.st = s, .fill = k_km, .grid = grid[i], .block = blk[i]};
            if (i == 3) { kk.fill = NULL; kk.step = k_recenter1; kk.wsize = sizeof(rc_warp); }
            kk.arg[0] = i;
            wl_launch_k(p, kn[i], &kk, 16, 0);
        }
    gms_prog_sync(p);
    gms_prog_copy_d2h(p, s->b[GROUP].d, s->b[GROUP].bytes);
    gms_prog_copy_d2h(p, s->b[MUX].d, s->b[MUX].bytes);
    gms_prog_copy_d2h(p, s->b[MUY].d, s->b[MUY].bytes);
    s->rep++;
    (void)err;
    return 1;
}

static int verify(void *st, gms_error *err)
{
    km *s = st;
    uint64_t n = s->n, k = s->k;
    const float *x = WL_F(s->b[X]), *y = WL_F(s->b[Y]);
    float *mx = gms_xmalloc(4 * k), *my = gms_xmalloc(4 * k), *sx = gms_xmalloc(4 * k), *sy = gms_xmalloc(4 * k);
    int32_t *g = gms_xmalloc(4 * n), *cnt = gms_xmalloc(4 * k);
    memcpy(mx, s->mux0, 4 * k);
    memcpy(my, s->muy0, 4 * k);
    for (uint64_t r = 0; r < s->reps; r++) {
        for (uint64_t i = 0; i < n; i++) {
            float md = dist2(x[i], y[i], mx[0], my[0]);
            g[i] = 1;
            for (uint64_t j = 1; j < k; j++) {
                float d = dist2(x[i], y[i], mx[j], my[j]);
                if (d < md) { md = d; g[i] = (int32_t)j + 1; }
            }
        }
        for (uint64_t j = 0; j < k; j++) { sx[j] = sy[j] = 0; cnt[j] = 0; }
        for (uint64_t i = 0; i < n; i++) { uint64_t j = (uint64_t)g[i] - 1; sx[j] += x[i]; sy[j] += y[i]; cnt[j]++; }
        for (uint64_t j = 0; j < k; j++) { mx[j] = sx[j] / (float)cnt[j]; my[j] = sy[j] / (float)cnt[j]; }
    }
    void *og, *ox, *oy;   /* the results as the kernels left them at their device addresses */
    const int32_t *gg = wl_result(s->sh, s->b[GROUP].d, s->b[GROUP].h, n, 4, &og);
    const float *gx = wl_result(s->sh, s->b[MUX].d, s->b[MUX].h, k, 4, &ox);
    const float *gy = wl_result(s->sh, s->b[MUY].d, s->b[MUY].h, k, 4, &oy);
    int rc = wl_check_i32("kmeans", "group", gg, g, n, err);
    if (!rc) rc = wl_check_f32_tol("kmeans", "mu_x", gx, mx, k, 1e-5, err);
    if (!rc) rc = wl_check_f32_tol("kmeans", "mu_y", gy, my, k, 1e-5, err);
    free(mx); free(my); free(sx); free(sy); free(g); free(cnt); free(og); free(ox); free(oy);
    return rc ? -1 : 0;
}

static void destroy(void *st)
{
    km *s = st;
    if (!s) return;
    for (int i = 0; i < NBUF; i++) wl_buf_free(&s->b[i]);
    free(s->mux0);
    free(s->muy0);
    free(s);
}

const gms_workload_ops gms_wl_kmeans = {
    .name = "kmeans", .suite = "ml", .domain = "machine learning", .ri = "I",
    .summary = "K-means (kmeans-cuda): distances, regroup, clear and two recenter kernels per round",
    .params = params, .create = create, .next = next, .verify = verify, .destroy = destroy,
    .footprint = footprint,
};
