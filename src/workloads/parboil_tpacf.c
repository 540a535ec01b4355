/* tpacf (Parboil, src/cuda/kernel.cu, gen_hists): the two-point angular correlation of a set
 * of observed points (unit vectors) against NUM_SETS random sets: one launch of 2*NUM_SETS+1
 * blocks of 256 threads; block 0 pairs the data with itself (DD), blocks 1..NUM_SETS each
 * random set with itself (RR), the rest the data with one random set (DR). A block stages 256
 * "data" points in shared memory per tile; each thread holds one "random" point and, for each
 * staged point (a BAR between them), computes the dot product, binary-searches the 20 angular
 * bins (boundaries in constant memory), and increments its pair's sub-histogram in shared
 * memory with the source's tag-and-retry update (the two threads of a pair that hit the same
 * bin write at once; one write survives, the other thread sees someone else's tag and
 * retries). The 128 sub-histograms are then summed by a shared-memory tree and thread t < 20
 * stores bin t (8-byte hist_t) to histograms[20*block + t].
 * Defaults: the small dataset's shape, NUM_SETS = 100 random sets of 487 points; the
 * Datapnts/Randompnts files become uniform random directions on the sphere. Each thread runs
 * ceil(N/256)^2 x 256 steps: resumable. */
#include "workloads/parboil_util.h"
#include "workloads/wl_simd.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { HIST, XD, YD, ZD };
enum { NSETS, NELEM };
#define NBINS 20
#define BLK 256
#define MASK27 134217727u
#define WH 3072   /* shared byte offset of warp_hists (after data_x_s, data_y_s, data_z_s) */

static const gms_wl_param params[] = {
    { "sets", "100", "random sets (NUM_SETS; small dataset 100)" },
    { "points", "487", "points per set (NUM_ELEMENTS; small dataset 487)" },
    { "scale", "1", "multiplies sets and points" },
    { "repeat", "1", "run the kernel this many times" },
    { NULL, NULL, NULL },
};

/* a `scale` that takes points below one 256-point tile clamps to it (a few KB of data: the
 * oversubscribed UVM runs need a footprint of a few pages) */
static int sizes(const gms_wl_args *a, uint64_t *d, gms_error *err)
{
    return wl_clamp_scaled(a, "tpacf", "sets", 1, 1, 30000, &d[NSETS], err) ||
           wl_clamp_scaled(a, "tpacf", "points", 1, BLK, 1u << 20, &d[NELEM], err);
}

static uint64_t nblocks(const uint64_t *d) { return 2 * d[NSETS] + 1; }
static uint64_t elems(const uint64_t *d, int k) { return k == HIST ? 2 * NBINS * nblocks(d) : (d[NSETS] + 1) * d[NELEM]; }

static void init(const pbl_state *s, void **h)
{
    gms_rng r;
    gms_rng_seed(&r, s->seed);
    float *x = h[XD], *y = h[YD], *z = h[ZD];
    for (uint64_t i = 0; i < s->n[XD]; i++) {
        /* uniform on the sphere: z uniform in [-1, 1), azimuth uniform */
        double zz = 2.0 * wl_randf(&r) - 1.0, ph = 6.283185307179586 * wl_randf(&r), rr = sqrt(1 - zz * zz);
        x[i] = (float)(rr * cos(ph));
        y[i] = (float)(rr * sin(ph));
        z[i] = (float)zz;
    }
}

/* the bin boundaries (initBinB): cos of 10^(k/5) arcminutes, k = 0..20 */
static void binb(float *b)
{
    for (int k = 0; k <= NBINS; k++) b[k] = (float)cos(pow(10.0, log10(1.0) + k * 1.0 / 5) / 60.0 * 3.141592653589793 / 180.0);
}

static inline float dist(const float *x, const float *y, const float *z, uint64_t a, uint64_t b)
{
    return PBL_MAD(z[a], z[b], PBL_MAD(y[a], y[b], x[a] * x[b]));
}

/* The kernel's binary search (mn = 0, mx = NBINS; while (mx > mn + 1) { k2 = (mn + mx) / 2;
 * if (d >= binb[k2]) mx = k2; else mn = k2; }; bin mx-1 when binb[mx] <= d < binb[mn],
 * else -1) depends on d only through c = #{k : binb[k] > d}: binb decreases, so
 * d >= binb[k2] iff k2 >= c, and the bin is c-1 for 1 <= c <= NBINS, else -1. Host speed:
 * c is 21 vector compares, no branches; this gives the while loop's trips for c. */
static int search_trips(unsigned c)
{
    unsigned mn = 0, mx = NBINS;
    int n = 0;
    for (; mx > mn + 1; n++) {
        unsigned k2 = (mn + mx) / 2;
        if (k2 >= c) mx = k2;
        else mn = k2;
    }
    return n;
}

/* Host speed: 4 lanes (pairs) per operation (GCC's generic vectors: SSE2 on x86-64), each
 * with the scalar code's operations in its order (-std=c11: no contraction) */
typedef float tp_v4 __attribute__((vector_size(16)));
typedef uint32_t tp_v4u __attribute__((vector_size(16)));
static inline tp_v4 tp_ld(const float *p) { tp_v4 v; memcpy(&v, p, sizeof v); return v; }
static inline tp_v4 tp_bc(float x) { return (tp_v4){ x, x, x, x }; }

/* the block's pairs: data set `ds` (index of the staged points) x random set `rs` */
static void block_sets(const uint64_t *d, uint64_t bx, uint64_t *ds, uint64_t *rs, int *self)
{
    *self = bx < d[NSETS] + 1;
    *rs = *self ? bx : bx - d[NSETS];
    *ds = *self ? bx : 0;
}

/* the lanes of a warp at one step of the kernel's loop (the model's values) */
typedef struct tp_lanes {
    int bin[32];           /* each lane's pair's bin, -1: none */
    uint32_t inr;          /* the lanes that count their pair (in a bin, inside the set,
                              above the diagonal in a self block) */
    uint32_t ge[8];        /* ge[t]: the lanes whose search makes t trips or more (at most 5) */
    uint32_t same;         /* even lanes l with bin[l] == bin[l+1] */
    int maxt;              /* the most trips */
} tp_lanes;

/* The lanes of warp `wi` at step k of tiles (i, j) of block bx (tc[c]: search_trips(c)). A
 * lane past the set computes with distance 0, as the model always did. */
/* cnt[l] = #{b: bb[b] > d_l}, d_l = the dot product of lane l's point lq[.][l] and p, as the
 * kernel computes it (FMUL, FFMA, FFMA: each lane the same IEEE operations in the same order
 * on every path, no FMA, no contraction, so the paths agree bit for bit). Host speed: 4, 8
 * or 16 lanes per operation (SSE2; AVX and AVX-512F when the host has them). */
#define TP_COUNTS_BODY(V, VU, W)                                                            \
    for (int v = 0; v < 32; v += (W)) {                                                     \
        V x0, x1, x2;                                                                       \
        memcpy(&x0, lq[0] + v, sizeof x0), memcpy(&x1, lq[1] + v, sizeof x1);               \
        memcpy(&x2, lq[2] + v, sizeof x2);                                                  \
        V d = PBL_MAD(x2, p[2], PBL_MAD(x1, p[1], x0 * p[0]));                              \
        VU c = (VU){ 0 } + 0u;                                                              \
        for (int b = 0; b <= NBINS; b++) c -= (VU)(((V){ 0 } + bb[b]) > d); /* true: ~0 */  \
        memcpy(cnt + v, &c, sizeof c);                                                      \
    }

static void tp_counts4(const float lq[3][32], const float p[3], const float *bb, uint32_t cnt[32])
{
    TP_COUNTS_BODY(tp_v4, tp_v4u, 4)
}

#ifdef WL_HAVE_X86_SIMD
typedef float tp_v8 __attribute__((vector_size(32)));
typedef uint32_t tp_v8u __attribute__((vector_size(32)));
typedef float tp_v16 __attribute__((vector_size(64)));
typedef uint32_t tp_v16u __attribute__((vector_size(64)));
WL_TARGET_AVX static void tp_counts8(const float lq[3][32], const float p[3], const float *bb, uint32_t cnt[32])
{
    TP_COUNTS_BODY(tp_v8, tp_v8u, 8)
}
WL_TARGET_AVX512 static void tp_counts16(const float lq[3][32], const float p[3], const float *bb, uint32_t cnt[32])
{
    TP_COUNTS_BODY(tp_v16, tp_v16u, 16)
}
#endif

static void tp_counts(const float lq[3][32], const float p[3], const float *bb, uint32_t cnt[32])
{
#ifdef WL_HAVE_X86_SIMD
    const int vf = wl_host_vec_floats();
    if (vf == 16) { tp_counts16(lq, p, bb, cnt); return; }
    if (vf == 8) { tp_counts8(lq, p, bb, cnt); return; }
#endif
    tp_counts4(lq, p, bb, cnt);
}

static void lanes_bins(const pbl_state *s, const float *bb, const int8_t *tc, uint64_t bx, uint64_t i, uint64_t j,
                       uint64_t k, uint64_t wi, tp_lanes *o)
{
    const uint64_t n = s->dim[NELEM], q0 = j + wi * 32, p = i + k;
    uint64_t ds, rs;
    int self;
    block_sets(s->dim, bx, &ds, &rs, &self);
    const float *src[3] = { PBL_F(s, XD), PBL_F(s, YD), PBL_F(s, ZD) };
    float lq[3][32];                       /* the lanes' random points (zeros past the set) */
    float pv[3];                           /* the staged point */
    for (int c = 0; c < 3; c++) {
        if (q0 + 32 <= n) memcpy(lq[c], src[c] + rs * n + q0, sizeof lq[c]);
        else
            for (uint64_t l = 0; l < 32; l++) lq[c][l] = q0 + l < n ? src[c][rs * n + q0 + l] : 0.f;
        pv[c] = src[c][ds * n + p];
    }
    uint32_t cnt[32];
    tp_counts(lq, pv, bb, cnt);
    /* host speed: without branches or a memory read-modify-write per lane: the trip
     * counts (0-7) as three bit planes, the lanes in range as masks */
    uint32_t inr = 0, pl[3] = { 0, 0, 0 }, at[8];
    for (uint32_t l = 0; l < 32; l++) {
        uint32_t c = cnt[l], t = (uint32_t)tc[c];
        int bin = c - 1u < NBINS ? (int)c - 1 : -1;
        o->bin[l] = bin;
        inr |= (uint32_t)(bin >= 0) << l;
        pl[0] |= (t & 1u) << l, pl[1] |= (t >> 1 & 1u) << l, pl[2] |= (t >> 2 & 1u) << l;
    }
    for (uint32_t t = 0; t < 8; t++)   /* at[t]: the lanes of exactly t trips */
        at[t] = (t & 1 ? pl[0] : ~pl[0]) & (t & 2 ? pl[1] : ~pl[1]) & (t & 4 ? pl[2] : ~pl[2]);
    /* lanes with q0 + l < n, and with q0 + l > p in the self-correlation */
    inr &= q0 >= n ? 0 : n - q0 >= 32 ? ~0u : (1u << (n - q0)) - 1;
    if (self && p >= q0) inr &= p - q0 >= 31 ? 0 : ~0u << (p - q0 + 1);
    o->inr = inr;
    o->ge[7] = at[7];
    for (int t = 6; t >= 0; t--) o->ge[t] = o->ge[t + 1] | at[t];
    o->maxt = 0;
    for (int t = 1; t < 8; t++)
        if (at[t]) o->maxt = t;
    o->same = 0;
    for (int l = 0; l < 32; l += 2) o->same |= (uint32_t)(o->bin[l] == o->bin[l + 1]) << l;
}

/* The block's histogram as its lanes leave it in warp_hists[b][0] (untagged): the pairs every
 * lane counts, tile by tile (the model's values; the CPU reference is block_hist) */
static void block_hist_lanes(const pbl_state *s, const float *bb, const int8_t *tc, uint64_t bx, uint32_t *hist)
{
    const uint64_t n = s->dim[NELEM];
    uint64_t ds, rs;
    int self;
    tp_lanes o;
    block_sets(s->dim, bx, &ds, &rs, &self);
    memset(hist, 0, NBINS * sizeof *hist);
    for (uint64_t i = 0; i < n; i += BLK)
        for (uint64_t j = self ? i + 1 : 0; j < n; j += BLK)
            for (uint64_t k = 0; k < BLK && k + i < n; k++)
                for (uint64_t wi = 0; wi < BLK / 32; wi++) {
                    lanes_bins(s, bb, tc, bx, i, j, k, wi, &o);
                    WL_LANES(o.inr, l) hist[o.bin[l]]++;
                }
}

/* The CPU reference's block histogram, pair by pair (p, q) of the sets (q > p in a self
 * block), binned independently of the lanes: G[b] = #{pairs : binb[b] > d} (4 pairs per
 * vector), and bin b holds G[b] - G[b+1] pairs (binb[b+1] <= d < binb[b]). Counts wrap mod
 * 2^32 like the kernel's (which keeps 27 bits). */
static void block_hist(const pbl_state *s, const float *x, const float *y, const float *z, uint64_t bx, uint32_t *hist)
{
    const uint64_t n = s->dim[NELEM];
    uint64_t ds, rs;
    int self;
    float bb[NBINS + 1];
    binb(bb);
    block_sets(s->dim, bx, &ds, &rs, &self);
    tp_v4 bv[NBINS + 1];
    tp_v4u gv[NBINS + 1];
    uint32_t G[NBINS + 1] = { 0 };
    for (int b = 0; b <= NBINS; b++) bv[b] = tp_bc(bb[b]), gv[b] = (tp_v4u){ 0, 0, 0, 0 };
    const float *xq = x + rs * n, *yq = y + rs * n, *zq = z + rs * n;
    for (uint64_t p = 0; p < n; p++) {
        const uint64_t a = ds * n + p;
        const tp_v4 xp = tp_bc(x[a]), yp = tp_bc(y[a]), zp = tp_bc(z[a]);
        uint64_t q = self ? p + 1 : 0;
        for (; q + 4 <= n; q += 4) {
            tp_v4 d = PBL_MAD(zp, tp_ld(zq + q), PBL_MAD(yp, tp_ld(yq + q), xp * tp_ld(xq + q)));
            for (int b = 0; b <= NBINS; b++) gv[b] -= (tp_v4u)(bv[b] > d);
        }
        for (; q < n; q++) {
            float d = dist(x, y, z, a, rs * n + q);
            for (int b = 0; b <= NBINS; b++) G[b] += bb[b] > d;
        }
    }
    for (int b = 0; b <= NBINS; b++) G[b] += gv[b][0] + gv[b][1] + gv[b][2] + gv[b][3];
    for (int b = 0; b < NBINS; b++) hist[b] = G[b] - G[b + 1];
}

/* lane l's address 4*(l & 15): the LDC's of dev_binb[k2] */
static const uint64_t lane16[32] = { 0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60,
                                     0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60 };

typedef struct tp_warp {
    wl_wgen ws;
    uint64_t i, j, k;
    float bb[NBINS + 1];
    int8_t tc[NBINS + 2];    /* search_trips(c) */
    uint8_t rx, ry, rz;
} tp_warp;

static int step(const wl_kernel *k, wl_wgen *ws, gms_error *err)
{
    tp_warp *g = (tp_warp *)ws;
    wl_warp *w = &ws->w;
    pbl_state *s = k->st;
    const uint64_t n = s->dim[NELEM], bx = w->bx;
    const float *x = PBL_F(s, XD), *y = PBL_F(s, YD), *z = PBL_F(s, ZD);
    const uint32_t m = w->live;
    uint64_t ds, rs, ad[32];
    int self;
    block_sets(s->dim, bx, &ds, &rs, &self);
    WL_GEN_BEGIN(&ws->g)
    binb(g->bb);
    for (unsigned c = 0; c <= NBINS + 1; c++) g->tc[c] = (int8_t)search_trips(c);
    for (int q = 0; q < 6; q++) wl_int(w, m, GMS_REG_NONE, GMS_REG_NONE);          /* S2R, do_self, pointers */
    /* clear warp_hists: 20 x 128 words, 256 threads at a time */
    for (uint64_t c = 0; c < NBINS * 128; c += BLK) {
        WL_LANES(m, l) ad[l] = WH + 4 * (c + w->warp * 32 + (uint64_t)l);
        wl_st(w, m, GMS_MEM_ST_SHARED, 4, ad, GMS_REG_NONE, GMS_REG_NONE);
    }
    for (g->i = 0; g->i < n; g->i += BLK) {
        {   /* stage the data tile */
            uint32_t mk = 0;
            WL_LANES(m, l) if (g->i + w->warp * 32 + (uint64_t)l < n) mk |= 1u << l;
            wl_pred(w, m, GMS_REG_NONE, GMS_REG_NONE);
            wl_bra(w, m & ~mk);
            if (mk) {
                const float *src[3] = { x, y, z };
                for (int c = 0; c < 3; c++) {
                    uint8_t p = wl_int(w, mk, GMS_REG_NONE, GMS_REG_NONE);
                    WL_LANES(mk, l) ad[l] = s->d[XD + c] + 4 * (ds * n + g->i + w->warp * 32 + (uint64_t)l);
                    uint8_t v = wl_ldg(w, mk, ad, p);
                    WL_SH_LD(w, mk, float, src[c][ds * n + g->i + w->warp * 32 + (uint64_t)l]);
                    WL_LANES(mk, l) ad[l] = 4 * (BLK * (uint64_t)c + w->warp * 32 + (uint64_t)l);
                    wl_st(w, mk, GMS_MEM_ST_SHARED, 4, ad, GMS_REG_NONE, v);
                }
            }
            wl_bar(w);
        }
        for (g->j = self ? g->i + 1 : 0; g->j < n; g->j += BLK) {
            {   /* this thread's random point */
                uint32_t mk = 0;
                WL_LANES(m, l) if (g->j + w->warp * 32 + (uint64_t)l < n) mk |= 1u << l;
                wl_pred(w, m, GMS_REG_NONE, GMS_REG_NONE);
                wl_bra(w, m & ~mk);
                const float *src[3] = { x, y, z };
                uint8_t *r[3] = { &g->rx, &g->ry, &g->rz };
                for (int c = 0; c < 3 && mk; c++) {
                    uint8_t p = wl_int(w, mk, GMS_REG_NONE, GMS_REG_NONE);
                    WL_LANES(mk, l) ad[l] = s->d[XD + c] + 4 * (rs * n + g->j + w->warp * 32 + (uint64_t)l);
                    *r[c] = wl_ldg(w, mk, ad, p);
                    WL_SH_LD(w, mk, float, src[c][rs * n + g->j + w->warp * 32 + (uint64_t)l]);
                }
            }
            for (g->k = 0; g->k < BLK && g->k + g->i < n; g->k++) {
                w->pc = 0x400;
                {
                    uint64_t a[32];
                    /* data_x_s[k], _y_, _z_: broadcasts (recorded as wl_ld records them, without
                     * an address array) */
                    uint8_t dx = wl_ld_bcast(w, m, GMS_MEM_LD_SHARED, 4, 4 * g->k, GMS_REG_NONE);
                    uint8_t dy = wl_ld_bcast(w, m, GMS_MEM_LD_SHARED, 4, 4 * g->k + 4 * BLK, GMS_REG_NONE);
                    uint8_t dz = wl_ld_bcast(w, m, GMS_MEM_LD_SHARED, 4, 4 * g->k + 8 * BLK, GMS_REG_NONE);
                    uint8_t dd = wl_fp(w, m, dz, g->rz, wl_fp(w, m, dy, g->ry, wl_fp(w, m, dx, g->rx, GMS_REG_NONE)));
                    /* the binary search: 4 or 5 trips, lanes leave as their interval closes */
                    tp_lanes o;
                    lanes_bins(s, g->bb, g->tc, bx, g->i, g->j, g->k, w->warp, &o);
                    const uint32_t inr = o.inr & m;
                    uint8_t mn = wl_int(w, m, GMS_REG_NONE, GMS_REG_NONE), mx = wl_int(w, m, GMS_REG_NONE, GMS_REG_NONE);
                    for (int t = 0; t <= o.maxt; t++) {
                        uint32_t mt = o.ge[t] & m, go = o.ge[t + 1] & m;    /* trips >= t, > t */
                        wl_pred(w, mt, mx, mn);                                      /* max > min+1 */
                        wl_bra(w, mt & ~go);
                        if (!go) break;
                        uint8_t k2 = wl_int(w, go, mn, mx);                         /* (min+max)/2 */
                        uint8_t bv = wl_ld(w, go, GMS_MEM_LD_CONST, 4, lane16, k2);  /* dev_binb[k2] (LDC) */
                        wl_pred(w, go, dd, bv);                                      /* distance >= binb[k2] */
                        mx = wl_int(w, go, k2, mx);                                  /* SEL max */
                        mn = wl_int(w, go, k2, mn);                                  /* SEL min */
                    }
                    uint8_t b0 = wl_ld_bcast(w, m, GMS_MEM_LD_CONST, 4, 0, mn), b1 = wl_ld_bcast(w, m, GMS_MEM_LD_CONST, 4, 0, mx);
                    wl_pred(w, m, dd, b0);                                           /* the range and pair tests */
                    wl_pred(w, m, dd, b1);
                    wl_bra(w, m & ~inr);
                    if (inr) {
                        /* tag-and-retry: lanes 2t and 2t+1 share warp_hists[.][tid/2]; when both
                         * hit one bin the higher lane's write survives and the lower one retries */
                        uint32_t pass = inr;
                        uint8_t bi = wl_int(w, inr, mx, GMS_REG_NONE);              /* bin_index = max-1 */
                        for (int round = 0; pass; round++) {
                            for (uint32_t r = pass; r; r &= r - 1) {
                                int l = __builtin_ctz(r);
                                a[l] = WH + 4 * ((uint64_t)o.bin[l] * 128 + (w->warp * 32 + (uint64_t)l) / 2);
                            }
                            uint8_t v = wl_ld(w, pass, GMS_MEM_LD_SHARED, 4, a, bi);
                            v = wl_int(w, pass, v, GMS_REG_NONE);                     /* & mask, +1 */
                            v = wl_int(w, pass, v, GMS_REG_NONE);                     /* | tag */
                            wl_st(w, pass, GMS_MEM_ST_SHARED, 4, a, bi, v);
                            uint8_t back = wl_ld(w, pass, GMS_MEM_LD_SHARED, 4, a, bi);
                            wl_pred(w, pass, back, v);
                            /* even lanes whose odd neighbour is in the round and in their bin */
                            uint32_t lose = pass & pass >> 1 & o.same;
                            wl_bra(w, lose);
                            pass = lose;
                        }
                    }
                    wl_bar(w);
                    pbl_loop_back(w, m, m, GMS_REG_NONE);
                }
                WL_GEN_YIELD(&ws->g);
            }
        }
    }
    {   /* the tree sum: offsets 64..1, bins 4 at a time, BAR before each */
        uint64_t wi = w->warp;
        for (uint64_t off = 64; off > 0; off >>= 1)
            for (uint64_t base = 0; base < NBINS; base += 4) {
                wl_bar(w);
                uint32_t mk = 0;
                WL_LANES(m, l) {
                    uint64_t t = wi * 32 + (uint64_t)l;
                    if ((t & 63) < off && base + t / 64 < NBINS) mk |= 1u << l;
                }
                wl_pred(w, m, GMS_REG_NONE, GMS_REG_NONE);
                wl_bra(w, m & ~mk);
                if (!mk) continue;
                uint64_t a[32];
                WL_LANES(mk, l) { uint64_t t = wi * 32 + (uint64_t)l; a[l] = WH + 4 * ((base + t / 64) * 128 + (t & 63)); }
                uint8_t u = wl_ld(w, mk, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE);
                WL_LANES(mk, l) a[l] += 4 * off;
                uint8_t v = wl_ld(w, mk, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE);
                u = wl_int(w, mk, u, v);
                WL_LANES(mk, l) a[l] -= 4 * off;
                wl_st(w, mk, GMS_MEM_ST_SHARED, 4, a, GMS_REG_NONE, u);
            }
        wl_bar(w);
        if (wi == 0) {
            uint32_t mk = (1u << NBINS) - 1, hist[NBINS];
            block_hist_lanes(s, g->bb, g->tc, bx, hist);
            uint32_t *H = PBL_U(s, HIST);
            uint64_t a[32];
            WL_LANES(mk, l) a[l] = WH + 4 * (uint64_t)l * 128;
            uint8_t v = wl_ld(w, mk, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE);
            v = wl_int(w, mk, v, GMS_REG_NONE);                                       /* & mask */
            WL_LANES(mk, l) {
                a[l] = s->d[HIST] + 8 * (bx * NBINS + (uint64_t)l);
                H[2 * (bx * NBINS + (uint64_t)l)] = hist[l] & MASK27;
                H[2 * (bx * NBINS + (uint64_t)l) + 1] = 0;
            }
            wl_st(w, mk, GMS_MEM_ST_GLOBAL, 8, a, GMS_REG_NONE, v);
            WL_SH_ST(w, mk, uint64_t, (uint64_t)(hist[l] & MASK27));
        }
        wl_exit(w, m);
    }
    WL_GEN_END(&ws->g);
}

static void launch(pbl_state *s, gms_program *p, uint64_t rep)
{
    wl_launch_gen(p, "_Z9gen_histsPmPfS0_S0_ii", wl_dim3((uint32_t)nblocks(s->dim), 1, 1), wl_dim3(BLK, 1, 1), 32,
                  3 * BLK * 4 + NBINS * 128 * 4, step, sizeof(tp_warp), s, NULL, 0);
}

static void cpu(const pbl_state *s, void **h, uint64_t rep)
{
    uint32_t *H = h[HIST], hist[NBINS];
    for (uint64_t bx = 0; bx < nblocks(s->dim); bx++) {
        block_hist(s, h[XD], h[YD], h[ZD], bx, hist);
        for (int b = 0; b < NBINS; b++) {
            H[2 * (bx * NBINS + (uint64_t)b)] = hist[b] & MASK27;
            H[2 * (bx * NBINS + (uint64_t)b) + 1] = 0;
        }
    }
}

static const pbl_def def = {
    .name = "tpacf",
    .arrs = { { "histograms", 0, 1, 1, PBL_U32 }, { "x", 1, 0, 0, PBL_F32 }, { "y", 1, 0, 0, PBL_F32 },
              { "z", 1, 0, 0, PBL_F32 } },
    .sizes = sizes, .elems = elems, .init = init, .launch = launch, .cpu = cpu,
    .rtol = 0, .atol = 0,
};

PBL_WORKLOAD(tpacf, "tpacf", def, params, "astrophysics", "R",
             "two-point angular correlation: pair distances binned into shared-memory tagged sub-histograms");
