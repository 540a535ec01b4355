/* KNN (kNN-CUDA, UVMBench): k nearest reference points of every query point (random points
 * in [0,1)^dim). Per iteration cuComputeDistanceGlobal (16x16 tiles in shared memory),
 * cuInsertionSort (256 threads, one query column each) and cuParallelSqrt (16x16). The
 * suite's fourth kernel, extract_with_interpolation, is never launched by its main. */
#include "workloads/wl_buf.h"
#include "workloads/wl_clamp.h"
#include "util/rng.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BD 16

typedef struct kn {
    uint64_t nref, nq, dim, k, iters, repeat;
    int done;
    wl_buf ref, query, dist, ind;
    wl_shadow *sh;         /* functional verify runs: verify reads dist and ind from it */
} kn;

static const gms_wl_param params[] = {
    {"ref", "4096", "reference points (ref_nb)"},
    {"query", "4096", "query points (query_nb)"},
    {"dim", "32", "dimension of the points"},
    {"k", "20", "neighbours to find"},
    {"iter", "100", "knn_cuda calls (3 kernels each)"},
    {"scale", "1", "multiplies ref and query"},
    {"repeat", "1", "run all the knn_cuda calls N times (no kernel depends on an earlier call's output)"},
    {NULL, NULL, NULL},
};

static int sizes(const gms_wl_args *a, uint64_t *r, uint64_t *q, gms_error *err)
{
    if (wl_clamp_scaled(a, "knn", "ref", 1, 0, 65535, r, err) || wl_clamp_scaled(a, "knn", "query", 1, 0, 65535, q, err)) return -1;
    return 0;
}

static uint64_t footprint(const gms_wl_args *a)
{
    gms_error e;
    uint64_t r = 0, q = 0;
    if (sizes(a, &r, &q, &e)) return 0;
    uint64_t d = gms_wl_u64(a, "dim"), k = gms_wl_u64(a, "k");
    return 4 * (r * d + q * d + r * q + q * k);
}

static int create(const gms_wl_args *a, void **out, gms_error *err)
{
    uint64_t r, q, d, k, it, rep;
    if (sizes(a, &r, &q, err) || wl_param(a, "dim", 1, 4096, &d, err) || wl_param(a, "iter", 1, 1000000, &it, err) ||
        wl_param(a, "repeat", 1, 1000000, &rep, err))
        return -1;
    if (wl_param(a, "k", 1, r, &k, err)) return -1;
    kn *s = gms_xcalloc(1, sizeof *s);
    s->nref = r; s->nq = q; s->dim = d; s->k = k; s->iters = it; s->repeat = rep;
    wl_buf_new(&s->ref, 4 * r * d);
    wl_buf_new(&s->query, 4 * q * d);
    wl_buf_new(&s->dist, 4 * q * r);
    wl_buf_new(&s->ind, 4 * q * k);
    gms_rng g;
    gms_rng_seed(&g, gms_wl_seed(a));
    for (uint64_t i = 0; i < r * d; i++) WL_F(s->ref)[i] = (float)gms_rng_double(&g);
    for (uint64_t i = 0; i < q * d; i++) WL_F(s->query)[i] = (float)gms_rng_double(&g);
    *out = s;
    return 0;
}

static int k_dist(const wl_kernel *kk, uint64_t blk, gms_block_trace *out, gms_error *err)
{
    kn *s = kk->st;
    wl_warp W[WL_MAXW];
    uint32_t nw = wl_block_begin(out, BD * BD, W);
    wl_warps_sh(W, nw, kk);
    int64_t wA = (int64_t)s->nref, wB = (int64_t)s->nq, dim = (int64_t)s->dim;
    int64_t bxi = (int64_t)(blk % kk->grid.x), byi = (int64_t)(blk / kk->grid.x);
    int64_t beginA = BD * byi, beginB = BD * bxi, stepA = BD * wA, stepB = BD * wB, endA = beginA + (dim - 1) * wA;
    const float *A = WL_F(s->ref), *B = WL_F(s->query);
    float sA[BD][BD], sB[BD][BD], ssd[BD * BD] = {0};
    uint64_t a1[32], a2[32], sa[32], sb[32];
    uint8_t ri[WL_MAXW], acc[WL_MAXW];
    for (uint32_t w = 0; w < nw; w++) {
        wl_warp *x = &W[w];
        ri[w] = wl_prologue_idx(x, x->live);
        uint64_t z[32] = {0};
        wl_sts_at(x, 0x18, x->live, 4, z, GMS_REG_NONE, ri[w]);   /* begin_A, begin_B, ... */
        acc[w] = wl_int_at(x, 0x20, x->live, GMS_REG_NONE, GMS_REG_NONE);
    }
    wl_bar_all(W, nw, 0x28);   /* the shared loop bounds are read after the stores */
    for (int64_t a = beginA, b = beginB; a <= endA; a += stepA, b += stepB) {
        for (uint32_t w = 0; w < nw; w++) {
            wl_warp *x = &W[w];
            uint32_t mA = 0, mB = 0;
            WL_TLANES(x, x->live, l, t) {
                int64_t tx = t % BD, ty = t / BD;
                sa[l] = 4 * (uint64_t)t;
                sb[l] = 4 * (uint64_t)(BD * BD + t);
                sA[ty][tx] = sB[ty][tx] = 0;
                if (a / wA + ty < dim) {
                    if (beginA + tx < wA) { mA |= 1u << l; a1[l] = s->ref.d + 4 * (uint64_t)(a + wA * ty + tx); sA[ty][tx] = A[a + wA * ty + tx]; }
                    if (beginB + tx < wB) { mB |= 1u << l; a2[l] = s->query.d + 4 * (uint64_t)(b + wB * ty + tx); sB[ty][tx] = B[b + wB * ty + tx]; }
                }
            }
            uint8_t c = wl_int_at(x, 0x30, x->live, ri[w], GMS_REG_NONE);
            wl_bra_at(x, 0x38, x->live, c);
            uint8_t va = wl_ldg_at(x, 0x40, mA, 4, a1, c);
            WL_SH_LD(x, mA, float, sA[(x->t0 + (uint32_t)l) / BD][(x->t0 + (uint32_t)l) % BD]);
            uint8_t vb = wl_ldg_at(x, 0x48, mB, 4, a2, c);
            WL_SH_LD(x, mB, float, sB[(x->t0 + (uint32_t)l) / BD][(x->t0 + (uint32_t)l) % BD]);
            wl_sts_at(x, 0x50, x->live, 4, sa, GMS_REG_NONE, va);
            wl_sts_at(x, 0x58, x->live, 4, sb, GMS_REG_NONE, vb);
        }
        wl_bar_all(W, nw, 0x60);
        for (uint32_t w = 0; w < nw; w++) {
            wl_warp *x = &W[w];
            uint32_t m = 0;
            WL_TLANES(x, x->live, l, t) {
                int64_t tx = t % BD, ty = t / BD;
                if (beginA + ty < wA && beginB + tx < wB) {
                    m |= 1u << l;
                    for (int kx = 0; kx < BD; kx++) {
                        float tmp = sA[kx][ty] - sB[kx][tx];
                        ssd[t] += tmp * tmp;
                    }
                }
            }
            uint8_t c = wl_int_at(x, 0x68, x->live, ri[w], GMS_REG_NONE);
            wl_bra_at(x, 0x70, x->live, c);
            for (int kx = 0; kx < BD && m; kx++) {
                WL_TLANES(x, m, l, t) {
                    sa[l] = 4 * (uint64_t)(kx * BD + (int64_t)t / BD);
                    sb[l] = 4 * (uint64_t)(BD * BD + kx * BD + (int64_t)t % BD);
                }
                uint8_t v1 = wl_lds_at(x, 0x78, m, 4, sa, GMS_REG_NONE);
                uint8_t v2 = wl_lds_at(x, 0x80, m, 4, sb, GMS_REG_NONE);
                uint8_t d = wl_fp_at(x, 0x88, m, v1, v2, GMS_REG_NONE);
                acc[w] = wl_fp_at(x, 0x90, m, d, d, acc[w]);
            }
        }
        wl_bar_all(W, nw, 0x98);
    }
    float *AB = WL_F(s->dist);
    for (uint32_t w = 0; w < nw; w++) {
        wl_warp *x = &W[w];
        uint32_t m = 0;
        WL_TLANES(x, x->live, l, t) {
            int64_t tx = t % BD, ty = t / BD;
            if (beginA + ty < wA && beginB + tx < wB) {
                m |= 1u << l;
                uint64_t idx = (uint64_t)((beginA + ty) * wB + beginB + tx);
                a1[l] = s->dist.d + 4 * idx;
                AB[idx] = ssd[t];
            }
        }
        wl_stg_at(x, 0xa0, m, 4, a1, ri[w], acc[w]);
        WL_SH_ST(x, m, float, ssd[x->t0 + (uint32_t)l]);
        wl_exit_at(x, WL_PC_END, x->live);
    }
    (void)err;
    return 0;
}

/* cuInsertionSort: one thread per query column; loops run in SIMT lock-step (divergent lanes
 * masked off, reconverging after each inner loop) */
static int k_sort(const wl_kernel *kk, uint64_t blk, gms_block_trace *out, gms_error *err)
{
    kn *s = kk->st;
    wl_warp W[WL_MAXW];
    uint32_t nw = wl_block_begin(out, 256, W);
    wl_warps_sh(W, nw, kk);
    int64_t width = (int64_t)s->nq, height = (int64_t)s->nref, k = (int64_t)s->k;
    float *dist = WL_F(s->dist);
    int32_t *ind = WL_I(s->ind);
    uint64_t a1[32], a2[32];
    for (uint32_t w = 0; w < nw; w++) {
        wl_warp *x = &W[w];
        uint8_t ri, c;
        uint32_t act = wl_guard_1d(x, blk * 256, (uint64_t)width, &ri, &c);
        if (!act) { wl_exit_at(x, WL_PC_END, x->live); continue; }
        int64_t col[32];
        float maxd[32];
        WL_TLANES(x, act, l, t) col[l] = (int64_t)(blk * 256 + t);
#define DA(r_, l_) (s->dist.d + 4 * (uint64_t)((r_) * width + col[l_]))
#define IA(r_, l_) (s->ind.d + 4 * (uint64_t)((r_) * width + col[l_]))
        WL_TLANES(x, act, l, t) { a1[l] = DA(0, l); a2[l] = IA(0, l); maxd[l] = dist[col[l]]; ind[col[l]] = 1; }
        uint8_t rmax = wl_ldg_at(x, 0x28, act, 4, a1, ri);
        WL_SH_LD(x, act, float, maxd[l]);
        wl_stg_at(x, 0x30, act, 4, a2, ri, GMS_REG_NONE);
        WL_SH_ST(x, act, int32_t, 1);
        for (int part = 1; part <= 2; part++) {
            int64_t lo = part == 1 ? 1 : k, hi = part == 1 ? k : height;
            for (int64_t lr = lo; lr < hi; lr++) {
                float cur[32];
                uint32_t mins = 0;
                WL_TLANES(x, act, l, t) {
                    a1[l] = DA(lr, l);
                    cur[l] = dist[lr * width + col[l]];
                    if (cur[l] < maxd[l]) mins |= 1u << l;
                }
                uint8_t rc = wl_ldg_at(x, 0x38, act, 4, a1, ri);
                WL_SH_LD(x, act, float, cur[l]);
                uint8_t p = wl_fp_at(x, 0x40, act, rc, rmax, GMS_REG_NONE);
                wl_bra_at(x, 0x48, act, p);
                int64_t pos[32];
                int64_t lim = part == 1 ? lr - 1 : k - 1;
                /* search: first a with dist[a] > cur */
                uint32_t searching = mins;
                WL_TLANES(x, mins, l, t) pos[l] = lim;
                for (int64_t a = 0; a < lim && searching; a++) {
                    uint32_t found = 0;
                    WL_TLANES(x, searching, l, t) {
                        a1[l] = DA(a, l);
                        if (dist[a * width + col[l]] > cur[l]) { pos[l] = a; found |= 1u << l; }
                    }
                    uint8_t v = wl_ldg_at(x, 0x50, searching, 4, a1, ri);
                    WL_SH_LD(x, searching, float, dist[a * width + col[l]]);
                    uint8_t q = wl_fp_at(x, 0x58, searching, v, rc, GMS_REG_NONE);
                    wl_bra_at(x, 0x60, searching, q);
                    searching &= ~found;
                }
                /* shift down */
                int64_t top = part == 1 ? lr : k - 1;
                for (int64_t j = top;; j--) {
                    uint32_t mv = 0;
                    WL_TLANES(x, mins, l, t) if (j > pos[l]) {
                        mv |= 1u << l;
                        a1[l] = DA(j - 1, l); a2[l] = IA(j - 1, l);
                        dist[j * width + col[l]] = dist[(j - 1) * width + col[l]];
                        ind[j * width + col[l]] = ind[(j - 1) * width + col[l]];
                    }
                    if (!mv) break;
                    /* the host has already shifted: element j holds element j-1's value */
                    uint8_t v1 = wl_ldg_at(x, 0x68, mv, 4, a1, ri);
                    WL_SH_LD(x, mv, float, dist[(j - 1) * width + col[l]]);
                    WL_TLANES(x, mv, l, t) a1[l] = DA(j, l);
                    wl_stg_at(x, 0x70, mv, 4, a1, ri, v1);
                    WL_SH_ST(x, mv, float, dist[j * width + col[l]]);
                    uint8_t v2 = wl_ldg_at(x, 0x78, mv, 4, a2, ri);
                    WL_SH_LD(x, mv, int32_t, ind[(j - 1) * width + col[l]]);
                    WL_TLANES(x, mv, l, t) a2[l] = IA(j, l);
                    wl_stg_at(x, 0x80, mv, 4, a2, ri, v2);
                    WL_SH_ST(x, mv, int32_t, ind[j * width + col[l]]);
                    wl_bra_at(x, 0x88, mv, ri);
                }
                WL_TLANES(x, mins, l, t) {
                    a1[l] = DA(pos[l], l); a2[l] = IA(pos[l], l);
                    dist[pos[l] * width + col[l]] = cur[l];
                    ind[pos[l] * width + col[l]] = (int32_t)lr + 1;
                }
                wl_stg_at(x, 0x90, mins, 4, a1, ri, rc);
                WL_SH_ST(x, mins, float, cur[l]);
                wl_stg_at(x, 0x98, mins, 4, a2, ri, GMS_REG_NONE);
                WL_SH_ST(x, mins, int32_t, lr + 1);
                if (part == 1) {
                    uint32_t other = act & ~mins;
                    WL_TLANES(x, other, l, t) { a2[l] = IA(lr, l); ind[lr * width + col[l]] = (int32_t)lr + 1; }
                    wl_stg_at(x, 0xa0, other, 4, a2, ri, GMS_REG_NONE);
                    WL_SH_ST(x, other, int32_t, lr + 1);
                    WL_TLANES(x, act, l, t) { a1[l] = DA(lr, l); maxd[l] = dist[lr * width + col[l]]; }
                    rmax = wl_ldg_at(x, 0xa8, act, 4, a1, ri);
                    WL_SH_LD(x, act, float, maxd[l]);
                } else if (mins) {
                    WL_TLANES(x, mins, l, t) { a1[l] = DA(k - 1, l); maxd[l] = dist[(k - 1) * width + col[l]]; }
                    rmax = wl_ldg_at(x, 0xb0, mins, 4, a1, ri);
                    WL_SH_LD(x, mins, float, maxd[l]);
                }
            }
        }
#undef DA
#undef IA
        wl_exit_at(x, WL_PC_END, x->live);
    }
    (void)err;
    return 0;
}

static int k_sqrt(const wl_kernel *kk, uint64_t blk, gms_block_trace *out, gms_error *err)
{
    kn *s = kk->st;
    wl_warp W[WL_MAXW];
    uint32_t nw = wl_block_begin(out, BD * BD, W);
    wl_warps_sh(W, nw, kk);
    uint64_t bx = blk % kk->grid.x, by = blk / kk->grid.x;
    float *dist = WL_F(s->dist);
    uint64_t a[32];
    float in[32], o[32];   /* each lane's value before and after, for the shadow memory */
    for (uint32_t w = 0; w < nw; w++) {
        wl_warp *x = &W[w];
        uint8_t ri = wl_prologue_idx(x, x->live);
        uint32_t m = 0;
        WL_TLANES(x, x->live, l, t) {
            uint64_t xi = bx * BD + t % BD, yi = by * BD + t / BD;
            if (xi < s->nq && yi < s->k) {
                m |= 1u << l;
                a[l] = s->dist.d + 4 * (yi * s->nq + xi);
                in[l] = dist[yi * s->nq + xi];
                dist[yi * s->nq + xi] = o[l] = sqrtf(in[l]);
            }
        }
        uint8_t c = wl_int_at(x, 0x18, x->live, ri, GMS_REG_NONE);
        wl_bra_at(x, 0x20, x->live, c);
        uint8_t v = wl_ldg_at(x, 0x28, m, 4, a, ri);
        WL_SH_LD(x, m, float, in[l]);
        v = wl_sfu_at(x, 0x30, m, v);
        wl_stg_at(x, 0x38, m, 4, a, ri, v);
        WL_SH_ST(x, m, float, o[l]);
        wl_exit_at(x, WL_PC_END, x->live);
    }
    (void)err;
    return 0;
}

static int next(void *st, gms_program *p, gms_error *err)
{
    kn *s = st;
    if (s->done) return 0;
    s->sh = p->shadow;
    /* knn_cuda() of the non-UVM version: cudaMalloc, H2D of ref and query, the three
     * kernels, cudaDeviceSynchronize, D2H of the k first rows of dist and of ind, cudaFree, in
     * every call. The allocations are made once: a cudaMalloc after the cudaFree of the same
     * sizes gets the same addresses back, and neither costs time in this model. The UVM
     * version passes its managed arrays to the kernels and syncs; it has no copies. */
    if (p->uvm) {   /* main()'s cudaMallocManaged order */
        wl_buf_alloc(p, &s->ref, "ref", 0);
        wl_buf_alloc(p, &s->query, "query", 0);
        wl_buf_alloc(p, &s->dist, "dist", 0);
        wl_buf_alloc(p, &s->ind, "ind", 0);
    } else {        /* knn_cuda()'s cudaMalloc order */
        wl_buf_alloc(p, &s->query, "query_dev", 0);
        wl_buf_alloc(p, &s->dist, "dist_dev", 0);
        wl_buf_alloc(p, &s->ind, "ind_dev", 0);
        wl_buf_alloc(p, &s->ref, "ref_dev", 0);
    }
    uint32_t q16 = (uint32_t)((s->nq + BD - 1) / BD), r16 = (uint32_t)((s->nref + BD - 1) / BD);
    uint32_t k16 = (uint32_t)((s->k + BD - 1) / BD), q256 = (uint32_t)((s->nq + 255) / 256);
    wl_kernel k1 = {.st = s, .fill = k_dist, .grid = {q16, r16, 1}, .block = {BD, BD, 1}};
    wl_kernel k2 = {.st = s, .fill = k_sort, .grid = {q256, 1, 1}, .block = {256, 1, 1}};
    wl_kernel k3 = {.st = s, .fill = k_sqrt, .grid = {q16, k16, 1}, .block = {BD, BD, 1}};
    /* each call recomputes dist and ind from ref and query: nothing to reset between repetitions */
    for (uint64_t i = 0; i < s->iters * s->repeat; i++) {
        wl_buf_upload(p, &s->ref);
        wl_buf_upload(p, &s->query);
        wl_launch_k(p, "cuComputeDistanceGlobal", &k1, 32, 2 * 4 * BD * BD + 20);
        wl_launch_k(p, "cuInsertionSort", &k2, 32, 0);
        wl_launch_k(p, "cuParallelSqrt", &k3, 16, 0);
        gms_prog_sync(p);
        gms_prog_copy_d2h(p, s->dist.d, 4 * s->nq * s->k);
        gms_prog_copy_d2h(p, s->ind.d, s->ind.bytes);
    }
    s->done = 1;
    (void)err;
    return 1;
}

static int verify(void *st, gms_error *err)
{
    kn *s = st;
    uint64_t r = s->nref, q = s->nq, d = s->dim, k = s->k;
    const float *ref = WL_F(s->ref), *qu = WL_F(s->query);
    void *od, *oi;   /* the results as the kernels left them at their device addresses */
    const float *gd = wl_result(s->sh, s->dist.d, s->dist.h, q * k, 4, &od);
    const int32_t *gi = wl_result(s->sh, s->ind.d, s->ind.h, q * k, 4, &oi);
    float *dist = gms_xmalloc(4 * r);
    int32_t *idx = gms_xmalloc(4 * r);
    int rc = 0;
    for (uint64_t i = 0; i < q && !rc; i++) {
        for (uint64_t j = 0; j < r; j++) {
            float sum = 0;
            for (uint64_t e = 0; e < d; e++) {
                float df = ref[e * r + j] - qu[e * q + i];
                sum += df * df;
            }
            dist[j] = sum;
            idx[j] = (int32_t)j;
        }
        /* modified insertion sort of the k smallest */
        for (uint64_t a = 1; a < r; a++) {
            float cd = dist[a];
            int32_t ci = (int32_t)a;
            if (a >= k && cd >= dist[k - 1]) continue;
            uint64_t j = a < k - 1 ? a : k - 1;
            while (j > 0 && dist[j - 1] > cd) { dist[j] = dist[j - 1]; idx[j] = idx[j - 1]; j--; }
            dist[j] = cd;
            idx[j] = ci;
        }
        for (uint64_t j = 0; j < k && !rc; j++) {
            float want = sqrtf(dist[j]);
            if (fabsf(gd[j * q + i] - want) > 1e-3f * (want > 1 ? want : 1))
                rc = gms_err(err, "workload knn: distance %llu of query %llu = %g, reference %g",
                             (unsigned long long)j, (unsigned long long)i, gd[j * q + i], want);
            else if (gi[j * q + i] != idx[j] + 1 && fabsf(gd[j * q + i] - want) > 0)
                rc = gms_err(err, "workload knn: neighbour %llu of query %llu = %d, reference %d",
                             (unsigned long long)j, (unsigned long long)i, gi[j * q + i], idx[j] + 1);
        }
    }
    free(dist);
    free(idx);
    free(od);
    free(oi);
    return rc ? -1 : 0;
}

static void destroy(void *st)
{
    kn *s = st;
    if (!s) return;
    wl_buf_free(&s->ref);
    wl_buf_free(&s->query);
    wl_buf_free(&s->dist);
    wl_buf_free(&s->ind);
    free(s);
}

const gms_workload_ops gms_wl_knn = {
    .name = "knn", .suite = "ml", .domain = "machine learning", .ri = "R",
    .summary = "K-nearest neighbours (kNN-CUDA): tiled distance matrix, per-column insertion sort, sqrt",
    .params = params, .create = create, .next = next, .verify = verify, .destroy = destroy,
    .footprint = footprint,
};
