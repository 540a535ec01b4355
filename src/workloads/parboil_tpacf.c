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

/* the kernel's binary search: bin max-1 when inside [binb[max], binb[min]), else -1; *steps
 * = the while loop's trips */
static inline int bin_of(const float *bb, float d, int *steps)
{
    unsigned mn = 0, mx = NBINS;
    int n = 0;
    while (mx > mn + 1) {
        unsigned k2 = (mn + mx) / 2;
        if (d >= bb[k2]) mx = k2;
        else mn = k2;
        n++;
    }
    *steps = n;
    return d < bb[mn] && d >= bb[mx] ? (int)mx - 1 : -1;
}

/* the block's pairs: data set `ds` (index of the staged points) x random set `rs` */
static void block_sets(const uint64_t *d, uint64_t bx, uint64_t *ds, uint64_t *rs, int *self)
{
    *self = bx < d[NSETS] + 1;
    *rs = *self ? bx : bx - d[NSETS];
    *ds = *self ? bx : 0;
}

/* the block's histogram (what its tree sum leaves in warp_hists[b][0], untagged) */
static void block_hist(const pbl_state *s, const float *x, const float *y, const float *z, uint64_t bx, uint32_t *hist)
{
    const uint64_t n = s->dim[NELEM];
    uint64_t ds, rs;
    int self, st;
    float bb[NBINS + 1];
    binb(bb);
    block_sets(s->dim, bx, &ds, &rs, &self);
    memset(hist, 0, NBINS * sizeof *hist);
    for (uint64_t p = 0; p < n; p++)
        for (uint64_t q = self ? p + 1 : 0; q < n; q++) {
            int b = bin_of(bb, dist(x, y, z, ds * n + p, rs * n + q), &st);
            if (b >= 0) hist[b]++;
        }
}

typedef struct tp_warp {
    wl_wgen ws;
    uint64_t i, j, k;
    float bb[NBINS + 1];
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
                    for (int l = 0; l < 32; l++) a[l] = 4 * g->k;
                    uint8_t dx = wl_ld(w, m, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE);  /* data_x_s[k] (broadcast) */
                    for (int l = 0; l < 32; l++) a[l] += 4 * BLK;
                    uint8_t dy = wl_ld(w, m, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE);
                    for (int l = 0; l < 32; l++) a[l] += 4 * BLK;
                    uint8_t dz = wl_ld(w, m, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE);
                    uint8_t dd = wl_fp(w, m, dz, g->rz, wl_fp(w, m, dy, g->ry, wl_fp(w, m, dx, g->rx, GMS_REG_NONE)));
                    /* the binary search: 4 or 5 trips, lanes leave as their interval closes */
                    int bin[32], trips[32], maxt = 0;
                    uint32_t inr = 0;
                    WL_LANES(m, l) {
                        uint64_t q = g->j + w->warp * 32 + (uint64_t)l, p = g->i + g->k;
                        float dv = q < n ? dist(x, y, z, ds * n + p, rs * n + q) : 0.f;
                        bin[l] = bin_of(g->bb, dv, &trips[l]);
                        if (trips[l] > maxt) maxt = trips[l];
                        if (bin[l] >= 0 && (!self || q > p) && q < n) inr |= 1u << l;
                    }
                    uint8_t mn = wl_int(w, m, GMS_REG_NONE, GMS_REG_NONE), mx = wl_int(w, m, GMS_REG_NONE, GMS_REG_NONE);
                    for (int t = 0; t <= maxt; t++) {
                        uint32_t mt = 0;
                        WL_LANES(m, l) if (trips[l] >= t) mt |= 1u << l;
                        wl_pred(w, mt, mx, mn);                                      /* max > min+1 */
                        uint32_t go = 0;
                        WL_LANES(m, l) if (trips[l] > t) go |= 1u << l;
                        wl_bra(w, mt & ~go);
                        if (!go) break;
                        uint8_t k2 = wl_int(w, go, mn, mx);                         /* (min+max)/2 */
                        WL_LANES(go, l) a[l] = 4 * (uint64_t)(l & 15);            /* dev_binb[k2] (LDC) */
                        uint8_t bv = wl_ld(w, go, GMS_MEM_LD_CONST, 4, a, k2);
                        wl_pred(w, go, dd, bv);                                      /* distance >= binb[k2] */
                        mx = wl_int(w, go, k2, mx);                                  /* SEL max */
                        mn = wl_int(w, go, k2, mn);                                  /* SEL min */
                    }
                    for (int l = 0; l < 32; l++) a[l] = 0;
                    uint8_t b0 = wl_ld(w, m, GMS_MEM_LD_CONST, 4, a, mn), b1 = wl_ld(w, m, GMS_MEM_LD_CONST, 4, a, mx);
                    wl_pred(w, m, dd, b0);                                           /* the range and pair tests */
                    wl_pred(w, m, dd, b1);
                    wl_bra(w, m & ~inr);
                    if (inr) {
                        /* tag-and-retry: lanes 2t and 2t+1 share warp_hists[.][tid/2]; when both
                         * hit one bin the higher lane's write survives and the lower one retries */
                        uint32_t pass = inr;
                        uint8_t bi = wl_int(w, inr, mx, GMS_REG_NONE);              /* bin_index = max-1 */
                        for (int round = 0; pass; round++) {
                            WL_LANES(pass, l) a[l] = WH + 4 * ((uint64_t)bin[l] * 128 + (w->warp * 32 + (uint64_t)l) / 2);
                            uint8_t v = wl_ld(w, pass, GMS_MEM_LD_SHARED, 4, a, bi);
                            v = wl_int(w, pass, v, GMS_REG_NONE);                     /* & mask, +1 */
                            v = wl_int(w, pass, v, GMS_REG_NONE);                     /* | tag */
                            wl_st(w, pass, GMS_MEM_ST_SHARED, 4, a, bi, v);
                            uint8_t back = wl_ld(w, pass, GMS_MEM_LD_SHARED, 4, a, bi);
                            wl_pred(w, pass, back, v);
                            uint32_t lose = 0;
                            WL_LANES(pass, l) if ((l & 1) == 0 && (pass >> (l + 1) & 1) && bin[l] == bin[l + 1]) lose |= 1u << l;
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
            block_hist(s, x, y, z, bx, hist);
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
