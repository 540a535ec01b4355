/* SC (Rodinia streamcluster, UVMBench): PARSEC's online k-median clustering of a stream of
 * random points (the suite's run: `sc_gpu 10 20 256 65536 65536 1000 none output.txt 1`).
 * The host algorithm (pkmedian: pspeedy, selectfeasible_fast, pFL local search; contcenters,
 * copycenters; a final localSearch of the intermediate centers) is reproduced exactly,
 * including its lrand48() stream (srand48(seed); the suite uses SEED 1). Each pgain() runs on
 * the GPU as in streamcluster_cuda.cu:
 *   cudaMalloc work_mem; (first call) center_table, switch_membership, p, coord;
 *   H2D coord (first call or after contcenters), center_table, p; memset; 
 *   kernel_compute_cost: 512 threads, one point each: squared distance to the candidate x over
 *     the dimension-major coordinates, then lower[K] += x_cost - cost (saves) or
 *     lower[center_table[assign]] += cost - x_cost, switch_membership[tid] = 1;
 *   D2H work_mem, switch_membership; then the serial part on the host.
 * The host program runs as a state machine: next() resumes it after each kernel.
 * Differences: work_mem is allocated once and reused (re-allocated only when it must grow;
 * the program model has no cudaFree); the memsets and the Point array's host pointers are not
 * modelled as commands. */
#include "util/fnv.h"
#include "workloads/wl_buf.h"
#include "workloads/wl_clamp.h"
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TPB 512
#define MAXBLOCKS 65536
#define SP 1
#define ITER 3

typedef struct pt { float weight; int64_t coord; int64_t assign; float cost; } pt;  /* coord: float index */
typedef struct pts { int64_t num; int dim; pt *p; float *cbuf; } pts;

enum { S_READ, S_GAIN, S_GAIN_POST, S_FINISHED };

typedef struct sc {
    /* parameters */
    int64_t kmin, kmax, dim, n, chunk, csize;
    wl_pool *pool;         /* the wrapper's allocations across repetitions */
    int cpu;                      /* 1: reference run, pgain's kernel on the CPU */
    uint64_t x48;                 /* lrand48 state */
    /* stream */
    int64_t remaining, idoffset;
    float *block, *cblock;
    pts points, centers;
    int64_t *centerIDs;
    int final_phase;              /* 0: chunks, 1: the centers' localSearch */
    /* host globals of the suite */
    uint8_t *switch_m, *is_center;
    int32_t *center_table;
    int coord_changed;
    int64_t iter;                 /* pgain calls so far */
    /* pkmedian / pFL state */
    pts *cur;
    int64_t k, kfinal;
    int32_t *feasible;
    int64_t numfeasible;
    float cost, lastcost, hiz, loz, z;
    int fl_phase;
    float fl_cost, fl_change, fl_e;
    int64_t fl_iter, fl_i, gain_x;
    double gain_sum;
    int state;
    /* device arrays (host copies) */
    int64_t dnum, wm_cap, stride;
    wl_buf coord_d, ct_d, sw_d, p_d, wm_d;
    float *wm_h, *coord_h;
    int allocated;
    uint8_t *pbytes;              /* staging of the Point array as the device sees it */
    wl_shadow *sh;                /* functional verify runs: pgain reads work_mem and the
                                     switch flags back from it */
    uint64_t wm_hash;             /* FNV-1a of every pgain call's work_mem and switch flags:
                                     verify compares the kernel's outputs themselves, since a
                                     rejected gain (gl >= 0) leaves no other trace of them */
} sc;

static const gms_wl_param params[] = {
    {"k1", "10", "minimum number of centers (kmin)"},
    {"k2", "20", "maximum number of centers (kmax)"},
    {"dim", "256", "dimension of each point (d)"},
    {"n", "65536", "number of points in the stream"},
    {"chunksize", "65536", "points handled per step"},
    {"clustersize", "1000", "maximum number of intermediate centers"},
    {"scale", "1", "multiplies n, chunksize and dim"},
    {"repeat", "1", "run the whole clustering N times from the same input stream"},
    {NULL, NULL, NULL},
};

/* ---------------------------------------------------------------- lrand48 */
static void srand48_r2(sc *s, uint64_t seed) { s->x48 = ((seed & 0xffffffffULL) << 16) | 0x330eULL; }
static long lrand(sc *s)
{
    s->x48 = (0x5deece66dULL * s->x48 + 0xbULL) & ((1ULL << 48) - 1);
    return (long)(s->x48 >> 17);
}

/* ---------------------------------------------------------------- host algorithm */
static float *crd(const pts *P, int64_t i) { return &P->cbuf[P->p[i].coord]; }

static float dist(const pts *P, int64_t a, int64_t b)
{
    const float *x = crd(P, a), *y = crd(P, b);
    float r = 0.0f;
    for (int i = 0; i < P->dim; i++) r += (x[i] - y[i]) * (x[i] - y[i]);
    return r;
}

static void shuffle(sc *s, pts *P)
{
    for (int64_t i = 0; i < P->num - 1; i++) {
        int64_t j = (lrand(s) % (P->num - i)) + i;
        pt t = P->p[i]; P->p[i] = P->p[j]; P->p[j] = t;
    }
}

static void intshuffle(sc *s, int32_t *a, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        int64_t j = (lrand(s) % (n - i)) + i;
        int32_t t = a[i]; a[i] = a[j]; a[j] = t;
    }
}

static float pspeedy(sc *s, pts *P, float z, int64_t *kc)
{
    for (int64_t k = 0; k < P->num; k++) {
        float d = dist(P, k, 0);
        P->p[k].cost = d * P->p[k].weight;
        P->p[k].assign = 0;
    }
    *kc = 1;
    for (int64_t i = 1; i < P->num; i++) {
        int open = ((float)lrand(s) / (float)INT_MAX) < (P->p[i].cost / z);
        if (!open) continue;
        (*kc)++;
        for (int64_t k = 0; k < P->num; k++) {
            float d = dist(P, i, k);
            if (d * P->p[k].weight < P->p[k].cost) {
                P->p[k].cost = d * P->p[k].weight;
                P->p[k].assign = i;
            }
        }
    }
    float mytotal = 0;
    for (int64_t k = 0; k < P->num; k++) mytotal += P->p[k].cost;
    float total = z * (float)(*kc);
    total += mytotal;
    return total;
}

static int64_t selectfeasible(sc *s, pts *P)
{
    int64_t nf = P->num;
    float lim = (float)(ITER * s->kmin) * logf((float)s->kmin);
    if ((float)nf > lim) nf = (int64_t)lim;
    free(s->feasible);
    s->feasible = gms_xcalloc(nf ? (uint64_t)nf : 1, 4);
    if (nf == P->num) {
        for (int64_t i = 0; i < nf; i++) s->feasible[i] = (int32_t)i;
        return nf;
    }
    float *acc = gms_xmalloc(4 * (uint64_t)P->num);
    acc[0] = P->p[0].weight;
    for (int64_t i = 1; i < P->num; i++) acc[i] = acc[i - 1] + P->p[i].weight;
    float tw = acc[P->num - 1];
    for (int64_t i = 0; i < nf; i++) {
        float w = ((float)lrand(s) / (float)INT_MAX) * tw;
        int64_t l = 0, r = P->num - 1;
        if (acc[0] > w) { s->feasible[i] = 0; continue; }
        while (l + 1 < r) {
            int64_t k = (l + r) / 2;
            if (acc[k] > w) r = k; else l = k;
        }
        s->feasible[i] = (int32_t)r;
    }
    free(acc);
    return nf;
}

/* pFL: start a round or finish; returns 1 when pFL has ended (cost in s->cost) */
static int fl_check(sc *s)
{
    if ((double)(s->fl_change / s->fl_cost) > 1.0 * (double)s->fl_e) {
        s->fl_change = 0.0f;
        intshuffle(s, s->feasible, s->numfeasible);
        s->fl_i = 0;
        s->state = S_GAIN;
        return 0;
    }
    s->cost = s->fl_cost;
    return 1;
}

static int fl_begin(sc *s, float e)
{
    s->fl_e = e;
    s->fl_cost = s->cost;
    s->fl_change = s->fl_cost;
    s->fl_iter = (int64_t)((float)(ITER * s->kmax) * logf((float)s->kmax));
    return fl_check(s);
}

/* pkmedian prelude; returns 1 when the local search is already over (trivial case) */
static int pk_begin(sc *s, pts *P)
{
    s->cur = P;
    float hiz = 0, loz = 0, myhiz = 0;
    for (int64_t kk = 0; kk < P->num; kk++) myhiz += dist(P, kk, 0) * P->p[kk].weight;
    hiz += myhiz;
    float z = (float)((hiz + loz) / 2.0);
    s->hiz = hiz; s->loz = loz; s->z = z;
    if (P->num <= s->kmax) {
        for (int64_t kk = 0; kk < P->num; kk++) { P->p[kk].assign = kk; P->p[kk].cost = 0; }
        s->cost = 0;
        s->kfinal = s->k;
        return 1;
    }
    shuffle(s, P);
    s->cost = pspeedy(s, P, s->z, &s->k);
    int i = 0;
    while (s->k < s->kmin && i < SP) { s->cost = pspeedy(s, P, s->z, &s->k); i++; }
    while (s->k < s->kmin) {
        if (i >= SP) { s->hiz = s->z; s->z = (float)((s->hiz + s->loz) / 2.0); i = 0; }
        shuffle(s, P);
        s->cost = pspeedy(s, P, s->z, &s->k);
        i++;
    }
    s->numfeasible = selectfeasible(s, P);
    for (int64_t j = 0; j < P->num; j++) s->is_center[P->p[j].assign] = 1;
    s->lastcost = s->cost;
    s->fl_phase = 0;
    return 0;
}

/* after a pFL; returns 1 when pkmedian has ended, else starts the next pFL */
static int pk_after_fl(sc *s)
{
    for (;;) {
        if (s->fl_phase == 0) {
            int64_t k = s->k;
            if ((k <= 1.1 * (double)s->kmax && k >= 0.9 * (double)s->kmin) || (k <= s->kmax + 2 && k >= s->kmin - 2)) {
                s->fl_phase = 1;
                if (!fl_begin(s, 0.001f)) return 0;
            }
        }
        if (s->k > s->kmax) {
            s->loz = s->z; s->z = (float)((s->hiz + s->loz) / 2.0);
            s->cost += (s->z - s->loz) * (float)s->k;
        }
        if (s->k < s->kmin) {
            s->hiz = s->z; s->z = (float)((s->hiz + s->loz) / 2.0);
            s->cost += (s->z - s->hiz) * (float)s->k;
        }
        if ((s->k <= s->kmax && s->k >= s->kmin) || (double)s->loz >= 0.999 * (double)s->hiz) {
            s->kfinal = s->k;
            return 1;
        }
        s->lastcost = s->cost;
        s->fl_phase = 0;
        if (!fl_begin(s, 0.1f)) return 0;
    }
}

static void contcenters(pts *P)
{
    for (int64_t i = 0; i < P->num; i++) {
        int64_t a = P->p[i].assign;
        if (a == i) continue;
        float rel = P->p[a].weight + P->p[i].weight;
        rel = P->p[i].weight / rel;
        float *ca = crd(P, a), *ci = crd(P, i);
        for (int ii = 0; ii < P->dim; ii++) {
            ca[ii] = (float)((double)ca[ii] * (1.0 - (double)rel));
            ca[ii] += ci[ii] * rel;
        }
        P->p[a].weight += P->p[i].weight;
    }
}

static int copycenters(sc *s, gms_error *err)
{
    pts *P = &s->points, *C = &s->centers;
    uint8_t *med = gms_xcalloc((uint64_t)P->num, 1);
    for (int64_t i = 0; i < P->num; i++) med[P->p[i].assign] = 1;
    int64_t k = C->num;
    for (int64_t i = 0; i < P->num; i++) {
        if (!med[i]) continue;
        if (k >= s->csize) {
            free(med);
            return gms_err(err, "workload sc: more than clustersize=%lld intermediate centers", (long long)s->csize);
        }
        memcpy(crd(C, k), crd(P, i), 4 * (uint64_t)P->dim);
        C->p[k].weight = P->p[i].weight;
        s->centerIDs[k] = i + s->idoffset;
        k++;
    }
    C->num = k;
    free(med);
    return 0;
}

/* ---------------------------------------------------------------- pgain */
static void stage_points(sc *s, const pts *P)
{
    for (int64_t i = 0; i < P->num; i++) {
        uint8_t *b = s->pbytes + 32 * i;
        memset(b, 0, 32);
        memcpy(b, &P->p[i].weight, 4);
        memcpy(b + 16, &P->p[i].assign, 8);
        memcpy(b + 24, &P->p[i].cost, 4);
    }
}

static void cpu_cost(sc *s, int64_t num, int64_t x, int64_t K, int64_t stride)
{
    const float *coord = WL_F(s->coord_d);
    float *wm = WL_F(s->wm_d);
    const int32_t *ct = WL_I(s->ct_d);
    uint8_t *sw = s->sw_d.h;
    for (int64_t tid = 0; tid < num; tid++) {
        const uint8_t *pb = (const uint8_t *)s->p_d.h + 32 * tid;
        float w, c;
        int64_t a;
        memcpy(&w, pb, 4); memcpy(&a, pb + 16, 8); memcpy(&c, pb + 24, 4);
        float d = 0.0f;
        for (int64_t i = 0; i < s->dim; i++) {
            float t = coord[i * num + tid] - coord[i * num + x];
            d += t * t;
        }
        float xc = d * w;
        if (xc < c) { sw[tid] = 1; wm[tid * stride + K] += xc - c; }
        else wm[tid * stride + ct[a]] += c - xc;
    }
}

static int k_cost(const wl_kernel *k, uint64_t blk, gms_block_trace *out, gms_error *err)
{
    sc *s = k->st;
    wl_warp W[WL_MAXW];
    uint32_t nw = wl_block_begin(out, TPB, W);
    wl_warps_sh(W, nw, k);
    int64_t num = k->arg[0], x = k->arg[1], K = k->arg[2], stride = k->arg[3], dim = s->dim;
    const float *coord = WL_F(s->coord_d);
    float *wm = WL_F(s->wm_d);
    const int32_t *ct = WL_I(s->ct_d);
    uint8_t *sw = s->sw_d.h;
    uint64_t a1[32], a2[32];
    for (uint32_t wi = 0; wi < nw; wi++) {
        wl_warp *w = &W[wi];
        uint8_t ri = wl_prologue_idx(w, w->live);
        uint32_t m = 0;
        int64_t tid[32];
        float d[32];
        WL_TLANES(w, w->live, l, t) {
            tid[l] = (int64_t)blk * TPB + t;
            if (tid[l] < num) { m |= 1u << l; d[l] = 0.0f; }
        }
        uint8_t q = wl_int_at(w, 0x18, w->live, ri, GMS_REG_NONE);
        wl_bra_at(w, 0x20, w->live, q);
        if (!m) { wl_exit_at(w, WL_PC_END, w->live); continue; }
        uint8_t acc = wl_int_at(w, 0x28, m, GMS_REG_NONE, GMS_REG_NONE);
        for (int64_t i = 0; i < dim; i++) {
            WL_TLANES(w, m, l, t) {
                a1[l] = s->coord_d.d + 4 * (uint64_t)(i * num + tid[l]);
                a2[l] = s->coord_d.d + 4 * (uint64_t)(i * num + x);
                float tt = coord[i * num + tid[l]] - coord[i * num + x];
                d[l] += tt * tt;
            }
            uint8_t v1 = wl_ldg_at(w, 0x30, m, 4, a1, ri);
            WL_SH_LD(w, m, float, coord[i * num + tid[l]]);
            uint8_t v2 = wl_ldg_at(w, 0x38, m, 4, a2, ri);
            WL_SH_LD(w, m, float, coord[i * num + x]);
            uint8_t df = wl_fp_at(w, 0x40, m, v1, v2, GMS_REG_NONE);
            acc = wl_fp_at(w, 0x48, m, df, df, acc);
            if (i % 4 == 3 || i + 1 == dim) {
                uint8_t c = wl_int_at(w, 0x50, m, ri, GMS_REG_NONE);
                wl_bra_at(w, 0x58, m, c);
            }
        }
        uint32_t save = 0;
        int64_t as[32];
        float xc[32], cc[32], wt[32];
        float wm0[32], wm1[32];   /* each lane's work_mem element before and after, for the shadow */
        WL_TLANES(w, m, l, t) {
            const uint8_t *pb = (const uint8_t *)s->p_d.h + 32 * tid[l];
            memcpy(&wt[l], pb, 4); memcpy(&as[l], pb + 16, 8); memcpy(&cc[l], pb + 24, 4);
            xc[l] = d[l] * wt[l];
            a1[l] = s->p_d.d + 32 * (uint64_t)tid[l];
            if (xc[l] < cc[l]) save |= 1u << l;
        }
        uint8_t vw = wl_ldg_at(w, 0x60, m, 4, a1, ri);
        WL_SH_LD(w, m, float, wt[l]);
        uint8_t xr = wl_fp_at(w, 0x68, m, acc, vw, GMS_REG_NONE);
        WL_TLANES(w, m, l, t) a1[l] = s->p_d.d + 32 * (uint64_t)tid[l] + 24;
        uint8_t vc = wl_ldg_at(w, 0x70, m, 4, a1, ri);
        WL_SH_LD(w, m, float, cc[l]);
        uint8_t pr = wl_fp_at(w, 0x78, m, xr, vc, GMS_REG_NONE);     /* FSETP */
        wl_bra_at(w, 0x80, m, pr);
        uint32_t other = m & ~save;
        if (save) {
            WL_TLANES(w, save, l, t) {
                a1[l] = s->sw_d.d + (uint64_t)tid[l];
                a2[l] = s->wm_d.d + 4 * (uint64_t)(tid[l] * stride + K);
                sw[tid[l]] = 1;
                wm0[l] = wm[tid[l] * stride + K];
                wm[tid[l] * stride + K] = wm1[l] = wm0[l] + (xc[l] - cc[l]);
            }
            uint8_t one = wl_int_at(w, 0x88, save, GMS_REG_NONE, GMS_REG_NONE);
            gms_emit_store(&w->e, 0x90, save, GMS_MEM_ST_GLOBAL, 1, a1, ri, one);
            WL_SH_ST(w, save, uint8_t, 1);
            uint8_t o = wl_ldg_at(w, 0x98, save, 4, a2, ri);
            WL_SH_LD(w, save, float, wm0[l]);
            uint8_t df = wl_fp_at(w, 0xa0, save, xr, vc, GMS_REG_NONE);
            df = wl_fp_at(w, 0xa8, save, o, df, GMS_REG_NONE);
            wl_stg_at(w, 0xb0, save, 4, a2, ri, df);
            WL_SH_ST(w, save, float, wm1[l]);
        }
        if (other) {
            WL_TLANES(w, other, l, t) a1[l] = s->p_d.d + 32 * (uint64_t)tid[l] + 16;
            uint8_t va = gms_emit_load(&w->e, 0xb8, other, GMS_MEM_LD_GLOBAL, 8, a1, ri);
            WL_SH_LD(w, other, int64_t, as[l]);
            WL_TLANES(w, other, l, t) a1[l] = s->ct_d.d + 4 * (uint64_t)as[l];
            uint8_t vt = wl_ldg_at(w, 0xc0, other, 4, a1, va);
            WL_SH_LD(w, other, int32_t, ct[as[l]]);
            WL_TLANES(w, other, l, t) {
                int64_t e = tid[l] * stride + ct[as[l]];
                a2[l] = s->wm_d.d + 4 * (uint64_t)e;
                wm0[l] = wm[e];
                wm[e] = wm1[l] = wm0[l] + (cc[l] - xc[l]);
            }
            uint8_t ad = wl_int_at(w, 0xc8, other, vt, GMS_REG_NONE);
            uint8_t o = wl_ldg_at(w, 0xd0, other, 4, a2, ad);
            WL_SH_LD(w, other, float, wm0[l]);
            uint8_t df = wl_fp_at(w, 0xd8, other, vc, xr, GMS_REG_NONE);
            df = wl_fp_at(w, 0xe0, other, o, df, GMS_REG_NONE);
            wl_stg_at(w, 0xe8, other, 4, a2, ad, df);
            WL_SH_ST(w, other, float, wm1[l]);
        }
        wl_exit_at(w, WL_PC_END, w->live);
    }
    (void)err;
    return 0;
}

/* the part of pgain before the kernel: host preparation, allocations, copies, launch */
static void pgain_pre(sc *s, gms_program *p, int64_t x)
{
    pts *P = s->cur;
    int64_t K = s->k, stride = K + 1, num = P->num, dim = P->dim;
    s->stride = stride;
    s->gain_x = x;
    int first = s->iter == 0;
    /* the suite sizes the device arrays by the first call's num; the final localSearch of up to
     * clustersize centers may exceed it, so they hold max(chunksize, clustersize) points here */
    int64_t cap = s->chunk > s->csize ? s->chunk : s->csize;
    if (first) s->coord_h = gms_xmalloc(4 * (uint64_t)(cap * dim));
    int64_t count = 0;
    for (int64_t i = 0; i < num; i++) if (s->is_center[i]) s->center_table[i] = (int32_t)count++;
    if (s->coord_changed || first)
        for (int64_t i = 0; i < dim; i++)
            for (int64_t j = 0; j < num; j++) s->coord_h[num * i + j] = crd(P, j)[i];
    uint64_t wmb = 4 * (uint64_t)(stride * (num + 1));
    if (!s->cpu && (wmb > s->wm_d.bytes || !s->wm_d.h)) {
        wl_buf_free(&s->wm_d);
        wl_buf_new(&s->wm_d, wmb);
        wl_buf_alloc_in(p, s->pool, &s->wm_d, "work_mem_d", 0);
    } else if (wmb > s->wm_d.bytes || !s->wm_d.h) {
        wl_buf_free(&s->wm_d);
        wl_buf_new(&s->wm_d, wmb);
    }
    if (first) {
        s->dnum = cap;
        wl_buf_new(&s->ct_d, 4 * (uint64_t)cap);
        wl_buf_new(&s->sw_d, (uint64_t)cap);
        wl_buf_new(&s->p_d, 32 * (uint64_t)cap);
        wl_buf_new(&s->coord_d, 4 * (uint64_t)(cap * dim));
        s->pbytes = s->p_d.h;
        if (!s->cpu) {
            wl_buf_alloc_in(p, s->pool, &s->ct_d, "center_table_d", 0);
            wl_buf_alloc_in(p, s->pool, &s->sw_d, "switch_membership_d", 0);
            wl_buf_alloc_in(p, s->pool, &s->p_d, "p", 0);
            wl_buf_alloc_in(p, s->pool, &s->coord_d, "coord_d", 0);
        }
    }
    if (s->coord_changed || first) {
        memcpy(s->coord_d.h, s->coord_h, 4 * (uint64_t)(num * dim));
        if (!s->cpu) {
            gms_prog_copy_h2d(p, s->coord_d.d, 4 * (uint64_t)(num * dim));
            wl_sh_init(p, s->coord_d.d, s->coord_d.h, 4 * (uint64_t)(num * dim));
        }
    }
    memcpy(s->ct_d.h, s->center_table, 4 * (uint64_t)num);
    stage_points(s, P);
    memset(s->sw_d.h, 0, (uint64_t)num);
    memset(s->wm_d.h, 0, wmb);
    if (s->cpu) {
        cpu_cost(s, num, x, K, stride);
        return;
    }
    s->sh = p->shadow;
    gms_prog_copy_h2d(p, s->ct_d.d, 4 * (uint64_t)num);
    wl_sh_init(p, s->ct_d.d, s->ct_d.h, 4 * (uint64_t)num);
    gms_prog_copy_h2d(p, s->p_d.d, 32 * (uint64_t)num);
    wl_sh_init(p, s->p_d.d, s->p_d.h, 32 * (uint64_t)num);
    /* the zeroed work_mem and switch flags the kernel starts from (the suite's cudaMemsets,
     * not modelled as commands) */
    wl_sh_init(p, s->wm_d.d, s->wm_d.h, wmb);
    wl_sh_init(p, s->sw_d.d, s->sw_d.h, (uint64_t)num);
    int nb = (int)((float)(num + TPB - 1) / (float)TPB);
    int nby = (int)((float)(nb + MAXBLOCKS - 1) / (float)MAXBLOCKS);
    int nbx = (int)((float)(nb + nby - 1) / (float)nby);
    wl_kernel kk = {.st = s, .fill = k_cost, .grid = {(uint32_t)nbx, (uint32_t)nby, 1}, .block = {TPB, 1, 1}};
    kk.arg[0] = num; kk.arg[1] = x; kk.arg[2] = K; kk.arg[3] = stride;
    wl_launch_k(p, "kernel_compute_cost", &kk, 24, 0);
    gms_prog_sync(p);
    gms_prog_copy_d2h(p, s->wm_d.d, wmb);
    gms_prog_copy_d2h(p, s->sw_d.d, (uint64_t)num);
}


static float pgain_post(sc *s)
{
    pts *P = s->cur;
    int64_t num = P->num, stride = s->stride, K = s->k, x = s->gain_x;
    uint64_t wmn = (uint64_t)(stride * (num + 1));
    float *wm = gms_xmalloc(4 * wmn);
    if (!s->cpu && wl_shadow_active(s->sh)) {
        /* the D2H copies of work_mem and the switch flags: in a functional verify run, what
         * the kernel left at their device addresses */
        wl_shadow_read(s->sh, s->wm_d.d, s->wm_d.h, 4 * wmn);
        wl_shadow_read(s->sh, s->sw_d.d, s->sw_d.h, (uint64_t)num);
    }
    memcpy(wm, s->wm_d.h, 4 * wmn);
    memcpy(s->switch_m, s->sw_d.h, (uint64_t)num);
    s->wm_hash = gms_fnv1a(gms_fnv1a(s->wm_hash ? s->wm_hash : GMS_FNV_OFFSET, wm, 4 * wmn), s->switch_m, (uint64_t)num);
    int64_t nclose = 0;
    float gl = s->z, *lower = &wm[stride * num];
    for (int64_t i = 0; i < num; i++) {
        if (s->is_center[i]) {
            float low = s->z;
            for (int64_t j = 0; j < num; j++) low += wm[j * stride + s->center_table[i]];
            lower[s->center_table[i]] = low;
            if (low > 0) { ++nclose; wm[i * stride + K] -= low; }
        }
        gl += wm[i * stride + K];
    }
    if (gl < 0) {
        for (int64_t i = 0; i < num; i++) {
            int close = lower[s->center_table[P->p[i].assign]] > 0;
            if (s->switch_m[i] || close) {
                P->p[i].cost = dist(P, i, x) * P->p[i].weight;
                P->p[i].assign = x;
            }
        }
        for (int64_t i = 0; i < num; i++)
            if (s->is_center[i] && lower[s->center_table[i]] > 0) s->is_center[i] = 0;
        if (x >= 0 && x < num) s->is_center[x] = 1;
        s->k = s->k + 1 - nclose;
    } else {
        gl = 0;
    }
    free(wm);
    s->iter++;
    return -gl;
}

/* ---------------------------------------------------------------- the driver */
static void ls_setup(sc *s, int64_t num)
{
    free(s->switch_m); free(s->is_center); free(s->center_table);
    s->switch_m = gms_xcalloc((uint64_t)num + 1, 1);
    s->is_center = gms_xcalloc((uint64_t)num + 1, 1);
    s->center_table = gms_xcalloc((uint64_t)num + 1, 4);
}

/* run the host program until it launches a kernel (1), finishes (0) or fails (-1) */
static int drive(sc *s, gms_program *p, gms_error *err)
{
    for (;;) {
        switch (s->state) {
        case S_READ: {
            if (s->final_phase == 2) { s->state = S_FINISHED; return 0; }
            int done;
            if (s->final_phase == 0) {
                int64_t nr = 0;
                for (int64_t i = 0; i < s->chunk && s->remaining > 0; i++, s->remaining--, nr++)
                    for (int64_t k = 0; k < s->dim; k++) s->block[i * s->dim + k] = (float)lrand(s) / (float)INT_MAX;
                s->points.num = nr;
                for (int64_t i = 0; i < nr; i++) {
                    s->points.p[i].weight = 1.0f;
                    s->points.p[i].coord = i * s->dim;
                }
                ls_setup(s, nr);
                done = pk_begin(s, &s->points);
            } else {
                ls_setup(s, s->centers.num);
                done = pk_begin(s, &s->centers);
            }
            if (done || fl_begin(s, 0.1f)) {
                if (!done && !pk_after_fl(s)) break;
                goto ls_done;
            }
            break;
        }
        case S_GAIN:
            if (s->fl_i < s->fl_iter) {
                int64_t x = s->feasible[s->fl_i % s->numfeasible];
                pgain_pre(s, p, x);
                s->state = S_GAIN_POST;
                if (!s->cpu) return 1;
                break;
            }
            s->fl_cost -= s->fl_change;
            if (fl_check(s) && pk_after_fl(s)) goto ls_done;
            break;
        case S_GAIN_POST: {
            float g = pgain_post(s);
            s->fl_change += g;
            s->gain_sum += g;
            s->fl_i++;
            s->state = S_GAIN;
            break;
        }
        default:
            return 0;
        }
        continue;
    ls_done:
        if (s->final_phase == 0) {
            contcenters(&s->points);
            s->coord_changed = 1;
            if (s->kfinal + s->centers.num > s->csize)
                return gms_err(err, "workload sc: oops! no more space for centers (clustersize=%lld)",
                               (long long)s->csize);
            if (copycenters(s, err)) return -1;
            s->idoffset += s->points.num;
            if (s->remaining <= 0) s->final_phase = 1;
        } else {
            contcenters(&s->centers);
            s->final_phase = 2;
        }
        s->state = S_READ;
    }
}

/* `scale` multiplies dim as well as n and chunksize: every distance is dim long, so scaling
 * the points alone left scale=0.01 at 256 dimensions (over a minute) */
static int sizes(const gms_wl_args *a, sc *s, gms_error *err)
{
    uint64_t k1, k2, d, n, ch, cs;
    if (wl_param(a, "k1", 2, 100000, &k1, err) || wl_param(a, "k2", 2, 100000, &k2, err) ||
        wl_param(a, "dim", 1, 1 << 16, &d, err) || wl_clamp_scaled(a, "sc", "dim", 1, 1, 1 << 16, &d, err) ||
        wl_clamp_scaled(a, "sc", "n", 1, 1, 1ULL << 31, &n, err) ||
        wl_clamp_scaled(a, "sc", "chunksize", 1, 1, 1ULL << 31, &ch, err) || wl_param(a, "clustersize", 1, 1ULL << 24, &cs, err))
        return -1;
    if (k1 > k2) return gms_err(err, "workload sc: k1=%llu must not exceed k2=%llu", (unsigned long long)k1, (unsigned long long)k2);
    if (ch * d > (1ULL << 34)) return gms_err(err, "workload sc: chunksize x dim is too large");
    if (s) {
        s->kmin = (int64_t)k1; s->kmax = (int64_t)k2; s->dim = (int64_t)d;
        s->n = (int64_t)n; s->chunk = (int64_t)ch; s->csize = (int64_t)cs;
    }
    return 0;
}

static uint64_t footprint(const gms_wl_args *a)
{
    gms_error e;
    sc t;
    if (sizes(a, &t, &e)) return 0;
    uint64_t num = (uint64_t)(t.chunk > t.csize ? t.chunk : t.csize), k = (uint64_t)t.kmax;
    return 4 * num + num + 32 * num + 4 * num * (uint64_t)t.dim + 4 * (2 * k + 2) * (num + 1);
}

static sc *sc_new(const sc *par, uint64_t seed, int cpu)
{
    sc *s = gms_xcalloc(1, sizeof *s);
    s->kmin = par->kmin; s->kmax = par->kmax; s->dim = par->dim; s->n = par->n; s->chunk = par->chunk;
    s->csize = par->csize;
    s->cpu = cpu;
    srand48_r2(s, seed);
    s->remaining = s->n;
    s->block = gms_xmalloc(4 * (uint64_t)(s->chunk * s->dim));
    s->cblock = gms_xcalloc((uint64_t)(s->csize * s->dim), 4);
    s->points.dim = (int)s->dim;
    s->points.p = gms_xcalloc((uint64_t)s->chunk, sizeof(pt));
    s->points.cbuf = s->block;
    s->centers.dim = (int)s->dim;
    s->centers.p = gms_xcalloc((uint64_t)s->csize, sizeof(pt));
    s->centers.cbuf = s->cblock;
    for (int64_t i = 0; i < s->csize; i++) { s->centers.p[i].coord = i * s->dim; s->centers.p[i].weight = 1.0f; }
    s->centerIDs = gms_xcalloc((uint64_t)s->csize, 8);
    s->state = S_READ;
    return s;
}

static void sc_free(sc *s)
{
    if (!s) return;
    free(s->block); free(s->cblock); free(s->points.p); free(s->centers.p); free(s->centerIDs);
    free(s->switch_m); free(s->is_center); free(s->center_table); free(s->feasible);
    free(s->coord_h);
    wl_buf_free(&s->coord_d); wl_buf_free(&s->ct_d); wl_buf_free(&s->sw_d); wl_buf_free(&s->p_d);
    wl_buf_free(&s->wm_d);
    free(s);
}

typedef struct scw {
    sc *run;
    uint64_t seed;
    uint64_t repeat, rep;  /* repetitions asked for; the one running (from 0) */
    wl_pool pool;
} scw;

static int create(const gms_wl_args *a, void **out, gms_error *err)
{
    sc par;
    if (sizes(a, &par, err)) return -1;
    scw *w = gms_xcalloc(1, sizeof *w);
    w->seed = gms_wl_seed(a);
    if (wl_param(a, "repeat", 1, 1000000, &w->repeat, err)) {
        free(w);
        return -1;
    }
    w->run = sc_new(&par, w->seed, 0);
    w->run->pool = &w->pool;
    *out = w;
    return 0;
}

static int drive_owner(void *o, gms_program *p, gms_error *err)
{
    return drive(((scw *)o)->run, p, err);
}

static void rebuild(void *o)
{
    scw *w = o;
    sc *fresh = sc_new(w->run, w->seed, 0);   /* sc_new reads only the parameters */
    sc_free(w->run);
    w->run = fresh;
    w->run->pool = &w->pool;
}

static int next(void *st, gms_program *p, gms_error *err)
{
    scw *w = st;
    return wl_rerun(w, &w->rep, w->repeat, &w->pool, drive_owner, rebuild, p, err);
}

static int verify(void *st, gms_error *err)
{
    scw *w = st;
    sc *g = w->run;
    if (g->state != S_FINISHED) return gms_err(err, "workload sc: the program did not finish");
    sc *r = sc_new(g, w->seed, 1);
    int rc = drive(r, NULL, err);
    if (rc == 0 && r->iter != g->iter)
        rc = gms_err(err, "workload sc: %lld pgain calls, reference %lld", (long long)g->iter, (long long)r->iter);
    if (rc == 0 && (g->centers.num != r->centers.num || g->kfinal != r->kfinal))
        rc = gms_err(err, "workload sc: %lld centers (kfinal %lld), reference %lld (kfinal %lld)",
                     (long long)g->centers.num, (long long)g->kfinal, (long long)r->centers.num, (long long)r->kfinal);
    for (int64_t i = 0; rc == 0 && i < g->centers.num; i++) {
        const pt *a = &g->centers.p[i], *b = &r->centers.p[i];
        if (a->assign != b->assign || a->weight != b->weight || g->centerIDs[i] != r->centerIDs[i] ||
            memcmp(crd(&g->centers, i), crd(&r->centers, i), 4 * (uint64_t)g->dim))
            rc = gms_err(err, "workload sc: center %lld differs from the reference (id %lld vs %lld, assign %lld vs %lld)",
                         (long long)i, (long long)g->centerIDs[i], (long long)r->centerIDs[i], (long long)a->assign,
                         (long long)b->assign);
    }
    if (rc == 0 && g->wm_hash != r->wm_hash)
        rc = gms_err(err, "workload sc: the work_mem or switch_membership a kernel_compute_cost left differs from "
                          "the reference's (hash over all %lld pgain calls)", (long long)g->iter);
    if (rc == 0 && g->gain_sum != r->gain_sum)
        rc = gms_err(err, "workload sc: total gain %.9g, reference %.9g", g->gain_sum, r->gain_sum);
    sc_free(r);
    return rc ? -1 : 0;
}

static void destroy(void *st)
{
    scw *w = st;
    if (!w) return;
    sc_free(w->run);
    wl_pool_free(&w->pool);
    free(w);
}

const gms_workload_ops gms_wl_sc = {
    .name = "sc", .suite = "rodinia", .domain = "data mining", .ri = "I",
    .summary = "Streamcluster: online k-median; one kernel_compute_cost launch (512 threads) per pgain",
    .params = params, .create = create, .next = next, .verify = verify, .destroy = destroy,
    .footprint = footprint,
};
