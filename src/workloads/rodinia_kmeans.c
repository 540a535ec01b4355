/* KMEANS-RODINIA (Rodinia 3.1 kmeans, CUDA; not UVMBench's kmeans-cuda, which is `kmeans`):
 * k-means of `points` points with `features` features into `clusters` clusters, the suite's
 * run `kmeans -o -i kdd_cup` (494020 x 34, 5 clusters, threshold 0.001). Kernels, 256 threads
 * per block, ceil(points / 256) blocks (a 2D grid of side ceil(sqrt(blocks)) past 65535):
 *   invert_mapping  once: features (point-major) -> features_flipped (feature-major)
 *   kmeansPoint     per iteration: each thread computes its point's squared distance to every
 *                   centre (feature j of its point at [point + j*points], coalesced; centre
 *                   feature at [c*features + j], the same for the whole warp) and stores the
 *                   nearest centre in membership
 * Per iteration the host uploads the centres, downloads membership, counts the changes
 * (delta) and recomputes the centres; it stops when delta <= threshold (no point moved) or
 * after 500 iterations, as kmeans_clustering.c does. The initial centres are the first
 * `clusters` points.
 *
 * The suite reads features and centres through textures (tex1Dfetch). tex=0 (default) emits
 * them as global loads (LDG, through the L1D, as the cache studies that list KMS observe
 * them); tex=1 as texture fetches, which this model times as a fixed latency without memory
 * traffic.
 *
 * Input: kdd_cup is replaced by points drawn around `clusters` random centres in [0, 1)^f
 * (each feature within +-0.15 of its centre's, uniform), from the seed. */
#include "workloads/wl_util.h"
#include "workloads/wl_clamp.h"
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TPB 256

typedef struct kmr {
    uint64_t n, nf, nc, maxit, repeat, rep;
    int tex;
    uint32_t gx, gy;           /* kmeansPoint's grid */
    float *feat, *flip, *clus;
    int32_t *memb, *hmemb;     /* device membership (kernel result), the host's copy */
    uint64_t iters_done, iter; /* iterations run in the current repetition */
    int converged, started;
    uint64_t d_feat, d_flip, d_clus, d_memb;
    float *res_clus;           /* the centres after the last repetition, for verify */
    uint64_t res_iters;
    wl_shadow *sh;
} kmr;

static const gms_wl_param params[] = {
    {"points", "494020", "points (kdd_cup)"},
    {"features", "34", "features per point"},
    {"clusters", "5", "clusters (-m 5 -n 5)"},
    {"max_iter", "500", "iteration limit of the convergence loop"},
    {"tex", "0", "1: features and centres through texture fetches (the suite); 0: global loads"},
    {"scale", "1", "multiplies points"},
    {"repeat", "1", "run the clustering N times from the same initial centres"},
    {NULL, NULL, NULL},
};

static int sizes(const gms_wl_args *a, uint64_t *n, gms_error *err)
{
    if (wl_clamp_size(a, "kmeans-rodinia", "points", gms_wl_u64(a, "clusters"), 1ULL << 28, n, err)) return -1;
    if (gms_wl_check_range(a, "features", 1, 4096, err) || gms_wl_check_range(a, "clusters", 1, 1024, err)) return -1;
    if (*n < gms_wl_u64(a, "clusters"))
        return gms_err(err, "workload kmeans-rodinia: points=%llu must be at least clusters=%llu",
                       (unsigned long long)*n, (unsigned long long)gms_wl_u64(a, "clusters"));
    return 0;
}

static uint64_t footprint(const gms_wl_args *a)
{
    gms_error e;
    uint64_t n;
    if (sizes(a, &n, &e)) return 0;
    uint64_t f = gms_wl_u64(a, "features"), c = gms_wl_u64(a, "clusters");
    return 4 * (2 * n * f + c * f + n);
}

static int create(const gms_wl_args *a, void **out, gms_error *err)
{
    uint64_t n;
    if (sizes(a, &n, err) || gms_wl_check_range(a, "max_iter", 1, 1000000, err) ||
        gms_wl_check_range(a, "tex", 0, 1, err) || gms_wl_check_range(a, "repeat", 1, 1000000, err))
        return -1;
    kmr *s = gms_xcalloc(1, sizeof *s);
    s->n = n;
    s->nf = gms_wl_u64(a, "features");
    s->nc = gms_wl_u64(a, "clusters");
    s->maxit = gms_wl_u64(a, "max_iter");
    s->tex = (int)gms_wl_u64(a, "tex");
    s->repeat = gms_wl_u64(a, "repeat");
    uint64_t nb = (n + TPB - 1) / TPB;
    if (nb <= 65535) { s->gx = (uint32_t)nb; s->gy = 1; }
    else { s->gx = s->gy = (uint32_t)ceil(sqrt((double)nb)); }
    s->feat = wl_malloc(n * s->nf, 4);
    s->flip = wl_malloc(n * s->nf, 4);
    s->clus = wl_malloc(s->nc * s->nf, 4);
    s->res_clus = wl_malloc(s->nc * s->nf, 4);
    s->memb = wl_malloc(n, 4);
    s->hmemb = wl_malloc(n, 4);
    gms_rng g;
    gms_rng_seed(&g, gms_wl_seed(a));
    float *ctr = wl_malloc(s->nc * s->nf, 4);
    for (uint64_t i = 0; i < s->nc * s->nf; i++) ctr[i] = wl_randf(&g);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t c = gms_rng_below(&g, s->nc);
        for (uint64_t j = 0; j < s->nf; j++) s->feat[i * s->nf + j] = ctr[c * s->nf + j] + 0.3f * (wl_randf(&g) - 0.5f);
    }
    free(ctr);
    *out = s;
    return 0;
}

static int k_invert(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    kmr *s = k->st;
    for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, k, block, wi);
        uint64_t gid[32];
        uint8_t ri;
        uint32_t m = wl_prologue_1d(&w, s->n, gid, &ri);
        if (!m) continue;
        uint32_t pc = w.pc;
        for (uint64_t j = 0; j < s->nf; j++) {
            w.pc = pc;
            /* host speed: the addresses as base + elem*gid[l] (wl_ld_idx / wl_st_idx make the
             * records wl_ldg / wl_stg make of the built addresses) */
            uint8_t v = wl_ld_idx(&w, m, GMS_MEM_LD_GLOBAL, 4, s->d_feat + 4 * j, gid, (uint32_t)(4 * s->nf), ri);
            WL_SH_LD(&w, m, float, s->feat[gid[l] * s->nf + j]);
            float *fl = s->flip + s->n * j;
            WL_LANES(m, l) fl[gid[l]] = s->feat[gid[l] * s->nf + j];
            wl_st_idx(&w, m, GMS_MEM_ST_GLOBAL, 4, s->d_flip + 4 * s->n * j, gid, 4, ri, v);
            WL_SH_ST(&w, m, float, fl[gid[l]]);
            wl_bra(&w, m);
        }
        wl_exit(&w, m);
    }
    (void)err;
    return 0;
}

/* Host speed: 4 floats per operation (GCC's generic vectors: SSE on x86-64, scalar code
 * elsewhere), each vector lane a point of its own with the scalar code's operations in its
 * order (no contraction under -std=c11), so every distance is bit-identical. */
typedef float km_v4 __attribute__((vector_size(16)));
typedef int32_t km_v4i __attribute__((vector_size(16)));
static inline km_v4 km_ld(const float *p) { km_v4 v; memcpy(&v, p, sizeof v); return v; }
static inline void km_st(float *p, km_v4 v) { memcpy(p, &v, sizeof v); }
static inline km_v4 km_bc(float x) { return (km_v4){ x, x, x, x }; }

/* the nearest centre of point p (the kernel's loop order; -1 never: nclusters >= 1), from the
 * point-major features (feat[p*nf + j], the values features_flipped holds at [p + j*n]) */
static int32_t nearest(const kmr *s, const float *feat, const float *clus, uint64_t p)
{
    float min_dist = FLT_MAX;
    int32_t idx = -1;
    for (uint64_t i = 0; i < s->nc; i++) {
        float ans = 0.0f;
        for (uint64_t j = 0; j < s->nf; j++) {
            float d = feat[p * s->nf + j] - clus[i * s->nf + j];
            ans += d * d;
        }
        if (ans < min_dist) { min_dist = ans; idx = (int32_t)i; }
    }
    return idx;
}

/* nearest() of points p .. p+3 (each one's distances in nearest()'s order, the same
 * strict comparison: a NaN distance never wins); col: room for 4*nf floats (the four
 * points' features side by side) */
static void nearest4(const kmr *s, const float *feat, const float *clus, uint64_t p, float *col, int32_t *out)
{
    for (uint64_t j = 0; j < s->nf; j++)
        for (uint64_t q = 0; q < 4; q++) col[4 * j + q] = feat[(p + q) * s->nf + j];
    km_v4 min_dist = km_bc(FLT_MAX);
    km_v4i idx = { -1, -1, -1, -1 };
    for (uint64_t i = 0; i < s->nc; i++) {
        km_v4 ans = km_bc(0.0f);
        for (uint64_t j = 0; j < s->nf; j++) {
            km_v4 d = km_ld(col + 4 * j) - km_bc(clus[i * s->nf + j]);
            ans += d * d;
        }
        km_v4i lt = ans < min_dist;
        min_dist = (km_v4)(((km_v4i)ans & lt) | ((km_v4i)min_dist & ~lt));
        idx = ((km_v4i){ (int32_t)i, (int32_t)i, (int32_t)i, (int32_t)i } & lt) | (idx & ~lt);
    }
    memcpy(out, &idx, sizeof idx);
}

static int k_point(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    kmr *s = k->st;
    uint64_t bid = (uint64_t)k->grid.x * (block / k->grid.x) + block % k->grid.x;
    gms_mem_kind kind = s->tex ? GMS_MEM_LD_TEX : GMS_MEM_LD_GLOBAL;
    for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, k, block, wi);
        uint64_t pid[32], a[32];
        uint32_t m = 0;
        WL_LANES(w.live, l) { pid[l] = bid * TPB + w.tx[l]; if (pid[l] < s->n) m |= 1u << l; }
        /* host speed: a full warp of consecutive points (every warp but the last one's tail)
         * reads its feature row as one stretch */
        int run = m == 0xffffffffu;
        for (int l = 1; l < 32 && run; l++) run = pid[l] == pid[0] + (uint64_t)l;
        uint8_t t = wl_int(&w, w.live, GMS_REG_NONE, GMS_REG_NONE);   /* S2R tid */
        uint8_t c = wl_int(&w, w.live, GMS_REG_NONE, GMS_REG_NONE);   /* S2R ctaid.x, .y */
        c = wl_int(&w, w.live, c, GMS_REG_NONE);
        uint8_t ri = wl_int3(&w, w.live, t, c, GMS_REG_NONE);
        wl_pred(&w, w.live, ri, GMS_REG_NONE);
        wl_bra(&w, w.live);
        uint32_t pc = w.pc;
        if (m) {
            /* the lanes' distances accumulate as the loads are emitted, in nearest()'s order
             * (host speed: the point's features are read once, not again for the result) */
            uint8_t best = GMS_REG_NONE;
            float min_dist[32];
            int32_t idx[32];
            WL_LANES(m, l) { min_dist[l] = FLT_MAX; idx[l] = -1; }
            for (uint64_t i = 0; i < s->nc; i++) {
                w.pc = pc;
                uint8_t ans = wl_int(&w, m, GMS_REG_NONE, GMS_REG_NONE);
                uint32_t pj = w.pc;
                float acc[32];
                WL_LANES(m, l) acc[l] = 0.0f;
                for (uint64_t j = 0; j < s->nf; j++) {
                    w.pc = pj;
                    const float *fj = s->flip + j * s->n;
                    float cj = s->clus[i * s->nf + j];
                    uint64_t base = s->d_flip + 4 * j * s->n;
                    uint8_t x;
                    if (run) {   /* the same addresses, values and sums as the general case */
                        const float *fp = fj + pid[0];
                        /* host speed: the next warp's stretch of this row asked for now (each
                         * of the nf rows is its own stream, more than the host's prefetcher
                         * follows); the first cluster's pass is the one that reads them */
                        if (i == 0 && pid[0] + 64 <= s->n) {
                            __builtin_prefetch(fp + 32);
                            __builtin_prefetch(fp + 48);
                        }
                        const km_v4 cv = km_bc(cj);
                        for (int l = 0; l < 32; l += 4) {
                            km_v4 dd = km_ld(fp + l) - cv;
                            km_st(acc + l, km_ld(acc + l) + dd * dd);
                        }
                        /* base + 4*pid[l]: the record wl_ld makes of those addresses */
                        x = wl_ld_idx(&w, m, kind, 4, base, pid, 4, ri);
                        /* WL_SH_LD of fj[pid[l]]: the lane values are fp[l] */
                        if (!s->tex && w.sh) wl_sh_last(w.sh, w.e.w, 0, fp, sizeof(float));
                    } else {
                        WL_LANES(m, l) {
                            a[l] = base + 4 * pid[l];
                            float dd = fj[pid[l]] - cj;
                            acc[l] += dd * dd;
                        }
                        x = wl_ld(&w, m, kind, 4, a, ri);
                        if (!s->tex) WL_SH_LD(&w, m, float, fj[pid[l]]);
                    }
                    /* every lane the centre's feature (host speed: as base + 4*0, the same record
                     * as wl_ld of 32 equal addresses, without the array) */
                    static const uint64_t zero[32];
                    uint8_t y = wl_ld_idx(&w, m, kind, 4, s->d_clus + 4 * (i * s->nf + j), zero, 4, ri);
                    if (run && !s->tex && w.sh) {   /* WL_SH_LD of cj, the lanes' copies 4 per store */
                        float cb[32];
                        for (int l = 0; l < 32; l += 4) km_st(cb + l, km_bc(cj));
                        wl_sh_last(w.sh, w.e.w, 0, cb, sizeof(float));
                    } else if (!s->tex) WL_SH_LD(&w, m, float, cj);
                    uint8_t d = wl_fp(&w, m, x, y, GMS_REG_NONE);
                    ans = wl_fp(&w, m, d, d, ans);
                    wl_bra(&w, m);
                }
                WL_LANES(m, l) if (acc[l] < min_dist[l]) { min_dist[l] = acc[l]; idx[l] = (int32_t)i; }
                w.pc = pj + 5 * 16;
                wl_pred(&w, m, ans, best);
                best = wl_int(&w, m, ans, best);
                wl_bra(&w, m);
            }
            w.pc = pc + (2 + 5 + 3) * 16;
            WL_LANES(m, l) { a[l] = s->d_memb + 4 * pid[l]; s->memb[pid[l]] = idx[l]; }
            wl_stg(&w, m, a, ri, best);
            WL_SH_ST(&w, m, int32_t, s->memb[pid[l]]);
        }
        w.pc = pc + 11 * 16;
        wl_exit(&w, w.live);
    }
    (void)err;
    return 0;
}

/* the host's part of an iteration: delta and the new centres from membership (kmeansCuda's
 * loop and kmeans_clustering's update); returns delta */
static uint64_t host_update(const kmr *s, const int32_t *memb, int32_t *hmemb, float *clus)
{
    uint64_t nf = s->nf, nc = s->nc, delta = 0;
    float *nc_sum = wl_calloc(nc * nf, 4);
    int32_t *nc_len = wl_calloc(nc, 4);
    for (uint64_t i = 0; i < s->n; i++) {
        int32_t c = memb[i];
        if (c != hmemb[i]) delta++;
        hmemb[i] = c;
        nc_len[c]++;
        for (uint64_t j = 0; j < nf; j++) nc_sum[(uint64_t)c * nf + j] += s->feat[i * nf + j];
    }
    for (uint64_t i = 0; i < nc; i++)
        for (uint64_t j = 0; j < nf; j++)
            if (nc_len[i] > 0) clus[i * nf + j] = nc_sum[i * nf + j] / (float)nc_len[i];
    free(nc_sum);
    free(nc_len);
    return delta;
}

static void restart(kmr *s)
{
    memcpy(s->clus, s->feat, 4 * s->nc * s->nf);   /* the first `clusters` points */
    for (uint64_t i = 0; i < s->n; i++) s->hmemb[i] = -1;
    s->iter = 0;
    s->started = 0;
}

/* One iteration per call: the host reads membership (written by the previous call's kernel)
 * before it decides whether to go on. */
static int next(void *st, gms_program *p, gms_error *err)
{
    kmr *s = st;
    s->sh = p->shadow;
    uint64_t cb = 4 * s->nc * s->nf;
    for (;;) {
        if (s->rep == s->repeat) return 0;
        if (!s->started) {
            if (s->rep == 0) {
                s->d_feat = gms_prog_alloc(p, 4 * s->n * s->nf, "feature_d");
                s->d_flip = gms_prog_alloc(p, 4 * s->n * s->nf, "feature_flipped_d");
                s->d_memb = gms_prog_alloc(p, 4 * s->n, "membership_d");
                s->d_clus = gms_prog_alloc(p, cb, "clusters_d");
                gms_prog_copy_h2d(p, s->d_feat, 4 * s->n * s->nf);
                wl_sh_init(p, s->d_feat, s->feat, 4 * s->n * s->nf);
                wl_launch(p, "_Z14invert_mappingPfS_ii", wl_dim3(wl_cdiv(s->n, TPB), 1, 1), wl_dim3(TPB, 1, 1), 16,
                          0, k_invert, s, NULL, 0);
            }
            restart(s);
            s->started = 1;
        } else {
            uint64_t delta = host_update(s, s->memb, s->hmemb, s->clus);
            s->iter++;
            /* do { ... } while ((delta > threshold) && (loop++ < 500)): 501 kernels at most */
            if (!(delta > 0 && s->iter <= s->maxit)) {
                memcpy(s->res_clus, s->clus, cb);
                s->res_iters = s->iter;
                s->rep++;
                s->started = 0;
                continue;
            }
        }
        gms_prog_copy_h2d(p, s->d_clus, cb);
        wl_sh_init(p, s->d_clus, s->clus, cb);
        wl_launch(p, "_Z11kmeansPointPfiiiPiS_S_S0_", wl_dim3(s->gx, s->gy, 1), wl_dim3(TPB, 1, 1), 20, 0, k_point,
                  s, NULL, 0);
        gms_prog_sync(p);
        gms_prog_copy_d2h(p, s->d_memb, 4 * s->n);
        (void)err;
        return 1;
    }
}

static int verify(void *st, gms_error *err)
{
    kmr *s = st;
    uint64_t n = s->n, nf = s->nf, cb = s->nc * nf;
    /* host speed: the reference features_flipped (flip[i + j*n] = feat[i*nf + j]) is not
     * built unless the comparison below finds an element that differs */
    float *clus = wl_malloc(cb, 4), *col = wl_malloc(4 * nf, 4);
    int32_t *memb = wl_malloc(n, 4), *hm = wl_malloc(n, 4);
    memcpy(clus, s->feat, 4 * cb);
    for (uint64_t i = 0; i < n; i++) hm[i] = -1;
    uint64_t it = 0, delta;
    do {
        uint64_t i = 0;
        for (; i + 4 <= n; i += 4) nearest4(s, s->feat, clus, i, col, memb + i);
        for (; i < n; i++) memb[i] = nearest(s, s->feat, clus, i);
        delta = host_update(s, memb, hm, clus);
        it++;
    } while (delta > 0 && it <= s->maxit);
    int rc = 0;
    if (it != s->res_iters)
        rc = gms_err(err, "workload kmeans-rodinia: %llu iterations, CPU reference %llu",
                     (unsigned long long)s->res_iters, (unsigned long long)it);
    void *o1 = NULL, *o2 = NULL;
    if (!rc) {
        const uint32_t *gm = wl_result(s->sh, s->d_memb, s->memb, n, 4, &o1);
        rc = wl_check_u32("kmeans-rodinia", "membership", gm, (const uint32_t *)memb, n, err);
    }
    if (!rc) {
        const float *gf = wl_result(s->sh, s->d_flip, s->flip, n * nf, 4, &o2);
        /* wl_check_f32's test with no tolerance: equal, or both NaN (64 points at a time,
         * their features in the L1); on a difference the reference is built and
         * wl_check_f32 names the first element that differs */
        int same = 1;
        for (uint64_t i0 = 0; i0 < n && same; i0 += 64) {
            uint64_t i1 = i0 + 64 < n ? i0 + 64 : n;
            for (uint64_t j = 0; j < nf && same; j++)
                for (uint64_t i = i0; i < i1; i++) {
                    float g = gf[i + j * n], r = s->feat[i * nf + j];
                    if (!(g == r || (isnan(g) && isnan(r)))) { same = 0; break; }
                }
        }
        if (!same) {
            float *flip = wl_malloc(n * nf, 4);
            for (uint64_t i = 0; i < n; i++)
                for (uint64_t j = 0; j < nf; j++) flip[i + j * n] = s->feat[i * nf + j];
            rc = wl_check_f32("kmeans-rodinia", "features_flipped", gf, flip, n * nf, 0, 0, err);
            free(flip);
        }
    }
    if (!rc) rc = wl_check_f32("kmeans-rodinia", "clusters", s->res_clus, clus, cb, 1e-6, 0, err);
    free(o1); free(o2); free(col); free(clus); free(memb); free(hm);
    return rc;
}

static void destroy(void *st)
{
    kmr *s = st;
    if (!s) return;
    free(s->feat); free(s->flip); free(s->clus); free(s->res_clus); free(s->memb); free(s->hmemb);
    free(s);
}

const gms_workload_ops gms_wl_kmeans_rodinia = {
    .name = "kmeans-rodinia", .suite = "rodinia", .domain = "data mining", .ri = "-",
    .summary = "Rodinia kmeans: invert_mapping, then kmeansPoint per iteration until no point moves (KMS)",
    .params = params, .create = create, .next = next, .verify = verify, .destroy = destroy,
    .footprint = footprint,
};
