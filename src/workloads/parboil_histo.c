/* histo (Parboil, src/cuda/histo_*.cu): a saturating (255) histogram of an image's values,
 * `iters` times (main.cu: numIterations). Per iteration:
 *   histo_prescan_kernel <<<64, 512>>>: each block samples 1/8 of its 1/64 of the input, each
 *     thread its mean and deviation, a shared-memory tree sum, thread 0 atomicMin/atomicMax of
 *     (avg -+ 10 sigma) / BINS_PER_BLOCK into `ranges` (CUDA's float->uint: NaN and negatives
 *     0), read back by the host to size the next grid;
 *   histo_intermediates_kernel <<<height/16, (width+1)/2>>>: each thread turns 16 rows of two
 *     values (uint2 loads, rows pitched to an even width) into uchar4 mappings {block, indexhi,
 *     indexlo, byte offset} of the bin;
 *   histo_main_kernel <<<(14, max-min+1), 768>>>: block (x, y) clears a 24K-bin (KB = 24)
 *     byte-packed sub-histogram in shared memory, reads every 14th chunk of the mappings and
 *     atomically adds those of range min+y in shared memory (a byte that wraps records 256 and
 *     the carry's correction in global_overflow); blocks y = 0 also add the bins outside
 *     [min, max] to the 16-bit global_histo (atomicAdd while below 255); then copies the
 *     sub-histogram to global_subhisto;
 *   histo_final_kernel <<<42, 512>>>: the bins below and above the range from global_histo,
 *     those inside from global_overflow + the 14 sub-histograms' bytes, each min(., 255) into
 *     the byte histogram final_histo, clearing global_histo and global_overflow as it goes.
 * So the result is min(count, 255) per bin, which verify compares with a plain CPU histogram.
 * Defaults: the default dataset, a 996 x 1040 image, a 256 x 4096 histogram, 20 iterations;
 * img.bin becomes values normal around the middle of the bin range (sigma = bins/64) with 1%
 * uniform outliers (`sigma` sets the spread). `scale` multiplies the image and histogram heights (the widths size the
 * source's buffers: width >= 14 * histo_width / 4). */
#include "workloads/parboil_util.h"
#include "workloads/wl_util_poly.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { INPUT, RANGES, SMAP, SUBH, GHIST, OVF, FINAL };
enum { W, H, HW, HH, ITERS, CAP, SIGMA };
#define PRESCAN_THREADS 512
#define PRESCAN_BLOCKS 64
#define KB 24
#define BPB (KB * 1024)
#define BLOCK_X 14
#define UNROLL 16
#define THREADS 768

static const gms_wl_param params[] = {
    { "width", "996", "image width (default dataset 996)" },
    { "height", "1040", "image height (multiple of 16; 1040)" },
    { "hwidth", "256", "histogram width (256)" },
    { "hheight", "4096", "histogram height (4096)" },
    { "iters", "20", "iterations of the four kernels (numIterations, 20)" },
    { "sigma", "0", "spread of the generated values in bins (0: bins/64)" },
    { "scale", "1", "multiplies height and hheight" },
    { "repeat", "1", "run the iterations this many times" },
    { NULL, NULL, NULL },
};

static void gen_image(const uint64_t *d, uint64_t seed, uint32_t *in, int sampled);
static uint32_t ranges_hi(const uint64_t *d, const uint32_t *in, uint32_t *lo);

static int sizes(const gms_wl_args *a, uint64_t *d, gms_error *err)
{
    if (gms_wl_check_range(a, "width", 2, 1u << 16, err) || gms_wl_check_range(a, "hwidth", 4, 1u << 16, err))
        return -1;
    d[W] = gms_wl_u64(a, "width");
    d[HW] = gms_wl_u64(a, "hwidth");
    /* at least one range block of bins (BINS_PER_BLOCK): the source lays the 14 sub-histograms
     * out histo_height*histo_width/4 words apart, each BINS_PER_BLOCK/4 words long */
    if (wl_clamp_scaled(a, "histo", "height", UNROLL, UNROLL, 1u << 16, &d[H], err) ||
        wl_clamp_scaled(a, "histo", "hheight", 1, (BPB + d[HW] - 1) / d[HW], 1u << 16, &d[HH], err) ||
        gms_wl_check_range(a, "iters", 1, 100000, err))
        return -1;
    if (d[HW] * d[HH] < BPB)
        return gms_err(err, "workload histo: hwidth x hheight = %llu bins, fewer than one range block (%u): the "
                            "source's sub-histograms would overlap", (unsigned long long)(d[HW] * d[HH]), BPB);
    d[ITERS] = gms_wl_u64(a, "iters");
    d[SIGMA] = gms_wl_u64(a, "sigma");
    if (d[HW] % 4 || BLOCK_X * d[HW] / 4 > d[W])
        return gms_err(err, "workload histo: hwidth=%llu must be a multiple of 4 and at most width*4/14 (%llu): the "
                            "source sizes its sub-histogram buffers by the image width",
                       (unsigned long long)d[HW], (unsigned long long)(d[W] * 4 / BLOCK_X));
    if (d[HW] * d[HH] >= 256ull * BPB)
        return gms_err(err, "workload histo: %llu bins do not fit the uchar4 mapping (at most %u)",
                       (unsigned long long)(d[HW] * d[HH]), 256u * BPB - 1);
    /* The source sizes its histogram buffers as width x histo_height, which holds the 14
     * sub-histograms and the ranges [min, max] the prescan finds on its inputs; on a small
     * image or histogram (the prescan of too few samples gives NaN: range 0 only) they would
     * overflow, so the buffers are made large enough (the default input is unaffected). */
    const uint64_t bins = d[HW] * d[HH];
    /* only what ranges_hi reads is defined (host speed: the rest of the buffer untouched):
     * zeros, for the pitch's pad elements, then the sampled values */
    uint32_t *in = wl_malloc((d[W] + 1) / 2 * 2 * d[H], sizeof *in), lo;
    const uint64_t pstride = d[W] * d[H] / PRESCAN_BLOCKS;
    for (uint64_t b = 0; b < PRESCAN_BLOCKS; b++) memset(in + b * pstride, 0, pstride / 8 * sizeof *in);
    gen_image(d, gms_wl_seed(a), in, 1);
    uint64_t hi = ranges_hi(d, in, &lo), cap = d[W] * d[HH];
    free(in);
    uint64_t need[3] = { (BLOCK_X - 1) * bins / 4 + (hi + 1) * BPB / 4, (hi + 1) * BPB, bins };
    for (int i = 0; i < 3; i++) if (need[i] > cap) cap = need[i];
    d[CAP] = cap;
    return 0;
}

static uint64_t elems(const uint64_t *d, int k)
{
    uint64_t hb = d[CAP];
    switch (k) {
    case INPUT: return (d[W] + 1) / 2 * 2 * d[H];
    case RANGES: return 2;
    case SMAP: return d[W] * d[H];
    default: return hb;
    }
}

/* img.bin as a generator: values normal around the middle of the bin range, 1% uniform.
 * sampled: only the elements the prescan reads (prescan_block: the first eighth of each of
 * its 64 blocks' stretches of the flat, pitched buffer) are computed, the others left as they
 * are (host speed: sizes() needs the prescan's ranges only, and the log and cos of the other
 * seven eighths were most of its time); the random stream takes the same draws either way,
 * so every computed element is the one the full image has. */
static void gen_image(const uint64_t *d, uint64_t seed, uint32_t *in, int sampled)
{
    const uint64_t bins = d[HW] * d[HH], ew = (d[W] + 1) / 2 * 2;
    const uint64_t stride = d[W] * d[H] / PRESCAN_BLOCKS, span = stride / 8;
    gms_rng r;
    gms_rng_seed(&r, seed);
    double mean = (double)bins / 2, sigma = d[SIGMA] ? (double)d[SIGMA] : (double)bins / 64;
    for (uint64_t y = 0; y < d[H]; y++)
        for (uint64_t x = 0; x < d[W]; x++) {
            const uint64_t at = y * ew + x;
            if (sampled && !(stride && at < PRESCAN_BLOCKS * stride && at % stride < span)) {
                if (gms_rng_below(&r, 100) == 0) (void)gms_rng_below(&r, bins);
                else { (void)gms_rng_next(&r); (void)gms_rng_next(&r); }
                continue;
            }
            double v;
            if (gms_rng_below(&r, 100) == 0) v = (double)gms_rng_below(&r, bins);
            else {
                double u1 = (double)(gms_rng_next(&r) >> 11) * (1.0 / 9007199254740992.0) + 1e-300;
                double u2 = (double)(gms_rng_next(&r) >> 11) * (1.0 / 9007199254740992.0);
                v = mean + sigma * sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2);
            }
            if (v < 0) v = 0;
            if (v > (double)(bins - 1)) v = (double)(bins - 1);
            in[at] = (uint32_t)v;
        }
}

/* the CPU reference's inputs (h is not the model's s->h) are a copy of the model's image as
 * generated, kept by launch() before the first kernel (host speed: the same values without
 * generating them again) */
static void init(const pbl_state *s, void **h)
{
    if (h != s->h && s->aux) memcpy(h[INPUT], s->aux, s->n[INPUT] * sizeof(uint32_t));
    else gen_image(s->dim, s->seed, h[INPUT], 0);
    uint32_t *rg = h[RANGES];
    rg[0] = UINT32_MAX;
    rg[1] = 0;
}

/* CUDA's cvt.rzi.u32.f32: NaN and negatives 0, saturating */
static uint32_t f2u(float f)
{
    if (!(f > 0)) return 0;
    if (f >= 4294967296.0f) return UINT32_MAX;
    return (uint32_t)f;
}

/* ---------------------------------------------------------------- prescan */
typedef struct prescan_res { float avg[PRESCAN_THREADS], sd[PRESCAN_THREADS]; uint32_t cnt[PRESCAN_THREADS]; uint32_t lo, hi; } prescan_res;

static void prescan_block(const uint64_t *d, const uint32_t *in, uint64_t b, prescan_res *o)
{
    const int64_t size = (int64_t)(d[W] * d[H]), stride = size / PRESCAN_BLOCKS, end = (int64_t)b * stride + stride / 8;
    float A[PRESCAN_THREADS], S[PRESCAN_THREADS];
    for (int t = 0; t < PRESCAN_THREADS; t++) {
        float avg = 0;
        uint32_t c = 0;
        for (int64_t a = (int64_t)b * stride + t; a < end; a += PRESCAN_THREADS) { avg += (float)in[a]; c++; }
        avg /= (float)c;
        float sd = 0;
        for (int64_t a = (int64_t)b * stride + t; a < end; a += PRESCAN_THREADS) {
            float x = (float)in[a] - avg;
            sd = PBL_MAD(x, x, sd);
        }
        sd /= (float)c;
        o->avg[t] = A[t] = avg;
        o->sd[t] = S[t] = sqrtf(sd);
        o->cnt[t] = c;
    }
    for (int st = PRESCAN_THREADS / 2; st >= 2; st >>= 1)
        for (int t = 0; t < st; t++) { A[t] += A[t + st]; S[t] += S[t + st]; }
    float avg = (A[0] + A[1]) / PRESCAN_THREADS, sd = (S[0] + S[1]) / PRESCAN_THREADS;
    o->lo = f2u(PBL_MAD(-10.0f, sd, avg)) / BPB;
    o->hi = f2u(PBL_MAD(10.0f, sd, avg)) / BPB;
}

/* the range [lo, hi] of the prescan's 64 blocks (what the host reads back) */
static uint32_t ranges_hi(const uint64_t *d, const uint32_t *in, uint32_t *lo)
{
    prescan_res *o = gms_xcalloc(1, sizeof *o);
    uint32_t l = UINT32_MAX, h = 0;
    for (uint64_t b = 0; b < PRESCAN_BLOCKS; b++) {
        prescan_block(d, in, b, o);
        if (o->lo < l) l = o->lo;
        if (o->hi > h) h = o->hi;
    }
    free(o);
    *lo = l;
    return h;
}

/* the input index of element a (the image rows are pitched to an even width) */
static inline uint64_t in_at(const uint64_t *d, int64_t a)
{
    /* the kernel reads `input` flat: its index a is the pitched buffer's element a */
    (void)d;
    return (uint64_t)a;
}

static int fill_prescan(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    pbl_state *s = k->st;
    const uint64_t *d = s->dim;
    const uint32_t *in = PBL_U(s, INPUT);
    uint32_t *rg = PBL_U(s, RANGES);
    prescan_res *o = gms_xcalloc(1, sizeof *o);
    prescan_block(d, in, block, o);
    if (block == 0) { rg[0] = UINT32_MAX; rg[1] = 0; }   /* main.cu's H2D of ranges_h before the launch */
    const int64_t size = (int64_t)(d[W] * d[H]), stride = size / PRESCAN_BLOCKS, end = (int64_t)block * stride + stride / 8;
    for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, k, block, wi);
        const uint32_t m = w.live;
        uint64_t ad[32];
        for (int q = 0; q < 6; q++) wl_int(&w, m, GMS_REG_NONE, GMS_REG_NONE);   /* S2R, stride, addr, end */
        uint8_t pin = wl_int(&w, m, GMS_REG_NONE, GMS_REG_NONE);
        uint32_t trips = 0;
        for (int l = 0; l < 32; l++) if (o->cnt[wi * 32 + l] > trips) trips = o->cnt[wi * 32 + l];
        uint8_t acc = GMS_REG_NONE;
        for (int pass = 0; pass < 2; pass++) {
            uint32_t top = w.pc;
            for (uint32_t t = 0; t <= trips; t++) {
                w.pc = top;
                uint32_t mk = 0;
                WL_LANES(m, l) if (t < o->cnt[wi * 32 + l]) mk |= 1u << l;
                wl_pred(&w, m, GMS_REG_NONE, GMS_REG_NONE);                   /* ISETP addr < end */
                wl_bra(&w, m & ~mk);
                if (!mk) break;
                WL_LANES(mk, l) ad[l] = s->d[INPUT] + 4 * in_at(d, (int64_t)block * stride + wi * 32 + l + (int64_t)t * PRESCAN_THREADS);
                uint8_t v = wl_ldg(&w, mk, ad, pin);
                WL_SH_LD(&w, mk, uint32_t, in[in_at(d, (int64_t)block * stride + wi * 32 + l + (int64_t)t * PRESCAN_THREADS)]);
                v = wl_sfu(&w, mk, v);                                          /* I2F */
                if (pass) v = wl_fp(&w, mk, v, GMS_REG_NONE, GMS_REG_NONE);    /* x - avg */
                acc = wl_fp(&w, mk, v, pass ? v : GMS_REG_NONE, acc);           /* FADD / FFMA */
                wl_int(&w, mk, GMS_REG_NONE, GMS_REG_NONE);                     /* IADD addr */
            }
            uint8_t c = wl_sfu(&w, m, GMS_REG_NONE);                            /* I2F count */
            acc = wl_fdiv(&w, m, acc, c);
            if (pass) acc = wl_fsqrt(&w, m, acc);
            WL_LANES(m, l) ad[l] = (uint64_t)(pass * PRESCAN_THREADS + wi * 32 + (uint32_t)l) * 4;
            wl_st(&w, m, GMS_MEM_ST_SHARED, 4, ad, GMS_REG_NONE, acc);          /* Avg[t] / StdDev[t] */
        }
        (void)end;
    }
    /* the tree sum: strides 256..32 with a barrier each, then 16..2 in warp 0 */
    for (int st = PRESCAN_THREADS / 2; st >= 2; st >>= 1) {
        for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
            wl_warp w;
            w.e.w = &bt->warps[wi];
            w.e.next_reg = GMS_EMIT_REG_FIRST + 40;
            w.pc = 0x800 + (uint32_t)(st >= 32 ? 0 : 0x100);
            w.live = 0xffffffffu;
            w.sh = NULL;
            if (st >= 32) wl_bar(&w);
            else if (wi) continue;
            uint32_t mk = 0;
            for (int l = 0; l < 32; l++) if (wi * 32 + (uint32_t)l < (uint32_t)st) mk |= 1u << l;
            wl_pred(&w, w.live, GMS_REG_NONE, GMS_REG_NONE);
            wl_bra(&w, w.live & ~mk);
            if (!mk) continue;
            uint64_t a[32];
            for (int arr = 0; arr < 2; arr++) {
                WL_LANES(mk, l) a[l] = (uint64_t)(arr * PRESCAN_THREADS + wi * 32 + (uint32_t)l) * 4;
                uint8_t x = wl_ld(&w, mk, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE);
                WL_LANES(mk, l) a[l] += (uint64_t)st * 4;
                uint8_t y = wl_ld(&w, mk, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE);
                x = wl_fp(&w, mk, x, y, GMS_REG_NONE);
                WL_LANES(mk, l) a[l] -= (uint64_t)st * 4;
                wl_st(&w, mk, GMS_MEM_ST_SHARED, 4, a, GMS_REG_NONE, x);
            }
        }
    }
    for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
        wl_warp w;
        w.e.w = &bt->warps[wi];
        w.e.next_reg = GMS_EMIT_REG_FIRST + 60;
        w.pc = 0xa00;
        w.live = 0xffffffffu;
        w.sh = k->sh;
        wl_pred(&w, w.live, GMS_REG_NONE, GMS_REG_NONE);                         /* tid == 0 */
        wl_bra(&w, wi ? w.live : w.live & ~1u);
        if (wi == 0) {
            uint64_t a[32] = { 0 };
            uint8_t r[4];
            for (int q = 0; q < 4; q++) {
                a[0] = (uint64_t)((q / 2) * PRESCAN_THREADS + q % 2) * 4;
                r[q] = wl_ld(&w, 1u, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE);
            }
            uint8_t av = wl_fp(&w, 1u, r[0], r[1], GMS_REG_NONE), sd = wl_fp(&w, 1u, r[2], r[3], GMS_REG_NONE);
            av = wl_fp(&w, 1u, av, GMS_REG_NONE, GMS_REG_NONE);
            sd = wl_fp(&w, 1u, sd, GMS_REG_NONE, GMS_REG_NONE);
            uint8_t lo = wl_fp(&w, 1u, sd, av, GMS_REG_NONE), hi = wl_fp(&w, 1u, sd, av, GMS_REG_NONE);
            lo = wl_sfu(&w, 1u, lo);                                              /* F2I */
            hi = wl_sfu(&w, 1u, hi);
            lo = wl_int(&w, 1u, lo, GMS_REG_NONE);                                /* / BINS_PER_BLOCK */
            hi = wl_int(&w, 1u, hi, GMS_REG_NONE);
            /* the atomics leave the running min / max (blocks in launch order) */
            if (o->lo < rg[0]) rg[0] = o->lo;
            if (o->hi > rg[1]) rg[1] = o->hi;
            a[0] = s->d[RANGES];
            wl_atom(&w, 1u, GMS_MEM_ATOM_GLOBAL, 4, a, GMS_REG_NONE, lo);
            WL_SH_ST(&w, 1u, uint32_t, rg[0]);
            a[0] = s->d[RANGES] + 4;
            wl_atom(&w, 1u, GMS_MEM_ATOM_GLOBAL, 4, a, GMS_REG_NONE, hi);
            WL_SH_ST(&w, 1u, uint32_t, rg[1]);
        }
        wl_exit(&w, w.live);
    }
    free(o);
    return 0;
}

/* ---------------------------------------------------------------- intermediates */
static uint32_t mapping(uint32_t bin)
{
    uint32_t offset = (bin % 4) * 8, lo = (bin >> 2) % 256, hi = (bin >> 10) % KB, blk = bin / BPB;
    return (blk & 0xff) | (hi & 0xff) << 8 | (lo & 0xff) << 16 | (offset & 0xff) << 24;
}

static int fill_inter(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    pbl_state *s = k->st;
    const uint64_t *d = s->dim, width = d[W], pitch = (d[W] + 1) / 2, bdim = k->block.x;
    const uint32_t *in = PBL_U(s, INPUT);
    uint32_t *sm = PBL_U(s, SMAP);
    for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, k, block, wi);
        const uint32_t m = w.live;
        uint64_t ad[32];
        uint32_t noskip = m;
        WL_LANES(m, l) if ((width % 2) && w.tx[l] == bdim - 1) noskip &= ~(1u << l);
        for (int q = 0; q < 6; q++) wl_int(&w, m, GMS_REG_NONE, GMS_REG_NONE);   /* S2R, line, load_bin, store, skip */
        uint8_t pl = wl_int(&w, m, GMS_REG_NONE, GMS_REG_NONE), ps = wl_int(&w, m, GMS_REG_NONE, GMS_REG_NONE);
        for (uint64_t i = 0; i < UNROLL; i++) {
            const uint64_t line = UNROLL * block + i;
            WL_LANES(m, l) ad[l] = s->d[INPUT] + 8 * (line * pitch + w.tx[l]);
            uint8_t v = wl_ld(&w, m, GMS_MEM_LD_GLOBAL, 8, ad, pl);                     /* uint2 */
            WL_SH_LD(&w, m, uint64_t, (uint64_t)in[2 * (line * pitch + w.tx[l])] |
                                          (uint64_t)in[2 * (line * pitch + w.tx[l]) + 1] << 32);
            for (int hlf = 0; hlf < 2; hlf++) {
                uint32_t mk = hlf ? noskip : m;
                if (!mk) continue;
                uint8_t b = v;
                for (int q = 0; q < 6; q++) b = wl_int(&w, mk, b, GMS_REG_NONE);       /* %4, >>2, >>10, /BPB, pack */
                WL_LANES(mk, l) {
                    uint64_t st = line * width + w.tx[l] + (hlf ? bdim : 0);
                    ad[l] = s->d[SMAP] + 4 * st;
                    sm[st] = mapping(in[2 * (line * pitch + w.tx[l]) + (uint64_t)hlf]);
                }
                wl_stg(&w, mk, ad, ps, b);
                WL_SH_ST(&w, mk, uint32_t, sm[line * width + w.tx[l] + (hlf ? bdim : 0)]);
            }
            pl = wl_int(&w, m, pl, GMS_REG_NONE);                                     /* load_bin += pitch */
            ps = wl_int(&w, m, ps, GMS_REG_NONE);                                     /* store += width */
        }
        wl_exit(&w, m);
    }
    return 0;
}

/* ---------------------------------------------------------------- main */
/* lane l's index l: a warp's consecutive words base + 4*l as wl_ld_idx takes them (the same
 * record as wl_ldg of the built addresses; host speed) */
static const uint64_t lane_id[32] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
                                      16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31 };

static int fill_main(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    pbl_state *s = k->st;
    const uint64_t *d = s->dim, n = d[W] * d[H], hw4 = d[HH] * d[HW] / 4;
    const uint32_t rmin = (uint32_t)k->arg[0], rmax = (uint32_t)k->arg[1];
    const uint64_t bx = block % BLOCK_X, by = block / BLOCK_X, gstride = (uint64_t)THREADS * BLOCK_X;
    const uint32_t myrange = rmin + (uint32_t)by;
    const uint32_t *sm = PBL_U(s, SMAP);
    uint32_t *gh = PBL_U(s, GHIST) /* as the kernel's uint words */, *ovf = PBL_U(s, OVF), *sub = PBL_U(s, SUBH);
    uint16_t *gh16 = (uint16_t *)s->h[GHIST];
    uint32_t *smem = gms_xcalloc(BPB / 4, sizeof *smem);
    (void)gh;
    for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, k, block, wi);
        const uint32_t m = w.live;
        uint64_t ad[32];
        for (int q = 0; q < 5; q++) wl_int(&w, m, GMS_REG_NONE, GMS_REG_NONE);   /* S2R x3, range, load */
        /* clearMemory: BINS_PER_BLOCK/4 words, THREADS apart */
        for (uint64_t i = 0; i < BPB / 4; i += THREADS) {
            WL_LANES(m, l) ad[l] = 4 * (i + wi * 32 + (uint64_t)l);
            wl_st(&w, m, GMS_MEM_ST_SHARED, 4, ad, GMS_REG_NONE, GMS_REG_NONE);
        }
        wl_bar(&w);
    }
    /* the scan: warp by warp, each warp's loads in order, lanes in order within an atomic
     * (one serialization of the block; the overflow bookkeeping is exact for any) */
    for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
        wl_warp w;
        w.e.w = &bt->warps[wi];
        w.e.next_reg = GMS_EMIT_REG_FIRST + 20;
        w.live = 0xffffffffu;
        w.sh = k->sh;
        w.pc = 0x400;
        const uint32_t m = w.live;
        uint64_t ad[32];
        uint8_t pm = wl_int(&w, m, GMS_REG_NONE, GMS_REG_NONE);
        uint32_t top = w.pc;
        for (uint64_t base = bx * THREADS + wi * 32;; base += gstride) {
            w.pc = top;
            uint32_t mk = 0;
            for (int l = 0; l < 32; l++) if (base + (uint64_t)l < n) mk |= 1u << l;
            wl_pred(&w, m, GMS_REG_NONE, GMS_REG_NONE);                            /* load < num_elements */
            wl_bra(&w, m & ~mk);
            if (!mk) break;
            /* host speed: the next stretch of the mappings asked for now (a warp's 128 bytes,
             * gstride words apart: the host's prefetcher does not see that pattern) */
            if (base + gstride + 32 <= n) {
                __builtin_prefetch(sm + base + gstride);
                __builtin_prefetch(sm + base + gstride + 16);
            }
            uint8_t v = wl_ld_idx(&w, mk, GMS_MEM_LD_GLOBAL, 4, s->d[SMAP] + 4 * base, lane_id, 4, pm);
            if (w.sh) wl_sh_last(w.sh, w.e.w, 0, sm + base, sizeof(uint32_t));   /* WL_SH_LD of sm[base + l] */
            wl_int(&w, mk, pm, GMS_REG_NONE);                                       /* load += stride */
            uint8_t rg = wl_int(&w, mk, v, GMS_REG_NONE);                           /* range = sm.x */
            uint32_t loc = 0, glo = 0;
            WL_LANES(mk, l) {
                uint32_t r = sm[base + (uint64_t)l] & 0xff;
                if (r == myrange) loc |= 1u << l;
                if (by == 0 && (r < rmin || r > rmax)) glo |= 1u << l;
            }
            wl_pred(&w, mk, rg, GMS_REG_NONE);                                      /* range == myRange */
            wl_bra(&w, mk & ~loc);
            if (loc) {
                uint8_t idx = wl_int(&w, loc, v, GMS_REG_NONE), add = wl_int(&w, loc, v, GMS_REG_NONE);
                WL_LANES(loc, l) {
                    uint32_t x = sm[base + (uint64_t)l];
                    ad[l] = 4 * (((x >> 8) & 0xff) * 256 + ((x >> 16) & 0xff));
                }
                uint8_t prev = wl_atom(&w, loc, GMS_MEM_ATOM_SHARED, 4, ad, idx, add);
                uint8_t pb = wl_int(&w, loc, prev, GMS_REG_NONE);                 /* (prev >> offset) & 0xff */
                uint32_t of = 0;
                uint32_t prevs[32];
                WL_LANES(loc, l) {
                    uint32_t x = sm[base + (uint64_t)l], off = x >> 24, word = ((x >> 8) & 0xff) * 256 + ((x >> 16) & 0xff);
                    prevs[l] = smem[word];
                    smem[word] += 1u << off;
                    if (((prevs[l] >> off) & 0xff) == 0xff) of |= 1u << l;
                }
                wl_pred(&w, loc, pb, GMS_REG_NONE);
                wl_bra(&w, loc & ~of);
                if (of) {
                    /* global_overflow[bin] += 256, and the carry's correction of bins +1..+3 */
                    uint8_t bn = wl_int3(&w, of, v, GMS_REG_NONE, GMS_REG_NONE);
                    for (int q = 0; q < 4; q++) {
                        uint32_t mq = 0;
                        uint32_t val[32];
                        WL_LANES(of, l) {
                            uint32_t x = sm[base + (uint64_t)l], off = x >> 24, p = prevs[l];
                            uint32_t bin = (x & 0xff) * BPB + off / 8 + (((x >> 16) & 0xff) << 2) + (((x >> 8) & 0xff) << 10);
                            int go = q == 0 || (q == 1 && off < 24) ||
                                     (q == 2 && off < 16 && ((p >> (off + 8)) & 0xff) == 0xff) ||
                                     (q == 3 && off < 8 && ((p >> (off + 16)) & 0xff) == 0xff);
                            if (!go) continue;
                            uint32_t addv = q == 0 ? 256u : ((p >> (off + 8 * (uint32_t)q)) & 0xff) < 0xff ? 0xffffffffu : 0xffu;
                            mq |= 1u << l;
                            ad[l] = s->d[OVF] + 4 * ((uint64_t)bin + (uint64_t)q);
                            ovf[bin + (uint32_t)q] += addv;
                            val[l] = ovf[bin + (uint32_t)q];
                        }
                        if (q) wl_pred(&w, of, GMS_REG_NONE, GMS_REG_NONE);
                        if (!mq) continue;
                        wl_atom(&w, mq, GMS_MEM_ATOM_GLOBAL, 4, ad, bn, GMS_REG_NONE);
                        WL_SH_ST(&w, mq, uint32_t, val[l]);
                    }
                }
            }
            if (by == 0) {
                wl_pred(&w, mk, rg, GMS_REG_NONE);                                  /* outside [min, max] */
                wl_bra(&w, mk & ~glo);
                if (glo) {
                    uint8_t bd = wl_int(&w, glo, v, GMS_REG_NONE);
                    uint32_t words[32], incm = 0, val[32];
                    WL_LANES(glo, l) {
                        uint32_t x = sm[base + (uint64_t)l];
                        uint32_t bin = (x & 0xff) * BPB + (x >> 24) / 8 + (((x >> 16) & 0xff) << 2) + (((x >> 8) & 0xff) << 10);
                        words[l] = bin / 2;
                        ad[l] = s->d[GHIST] + 4 * (uint64_t)(bin / 2);
                    }
                    uint8_t old = wl_ldg(&w, glo, ad, bd);
                    /* the lanes' loads all precede their atomics */
                    WL_SH_LD(&w, glo, uint32_t, (uint32_t)gh16[2 * words[l]] | (uint32_t)gh16[2 * words[l] + 1] << 16);
                    uint32_t before[32];
                    WL_LANES(glo, l) before[l] = (uint32_t)gh16[2 * words[l]] | (uint32_t)gh16[2 * words[l] + 1] << 16;
                    WL_LANES(glo, l) {
                        uint32_t x = sm[base + (uint64_t)l];
                        uint32_t bin = (x & 0xff) * BPB + (x >> 24) / 8 + (((x >> 16) & 0xff) << 2) + (((x >> 8) & 0xff) << 10);
                        uint32_t sh = bin % 2 ? 16 : 0;
                        if (((before[l] >> sh) & 0xffff) < 255) {
                            incm |= 1u << l;
                            gh16[bin] = (uint16_t)(gh16[bin] + 1);
                            val[l] = (uint32_t)gh16[2 * words[l]] | (uint32_t)gh16[2 * words[l] + 1] << 16;
                        }
                    }
                    wl_pred(&w, glo, old, GMS_REG_NONE);                          /* old_bin < 255 */
                    if (incm) {
                        wl_atom(&w, incm, GMS_MEM_ATOM_GLOBAL, 4, ad, bd, GMS_REG_NONE);
                        WL_SH_ST(&w, incm, uint32_t, val[l]);
                    }
                }
            }
            pbl_loop_back(&w, m, m, pm);
        }
    }
    /* copyMemory: the sub-histogram to global_subhisto[x*(hh*hw/4) + range*BPB/4 + i] */
    const uint64_t store = bx * hw4 + (uint64_t)myrange * (BPB / 4);
    for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
        wl_warp w;
        w.e.w = &bt->warps[wi];
        w.e.next_reg = GMS_EMIT_REG_FIRST + 80;
        w.live = 0xffffffffu;
        w.sh = k->sh;
        w.pc = 0xc00;
        const uint32_t m = w.live;
        uint64_t ad[32];
        wl_bar(&w);
        uint8_t pd = wl_int(&w, m, GMS_REG_NONE, GMS_REG_NONE);
        for (uint64_t i = 0; i < BPB / 4; i += THREADS) {
            WL_LANES(m, l) ad[l] = 4 * (i + wi * 32 + (uint64_t)l);
            uint8_t v = wl_ld(&w, m, GMS_MEM_LD_SHARED, 4, ad, GMS_REG_NONE);
            WL_LANES(m, l) {
                uint64_t e = store + i + wi * 32 + (uint64_t)l;
                ad[l] = s->d[SUBH] + 4 * e;
                sub[e] = smem[i + wi * 32 + (uint64_t)l];
            }
            wl_stg(&w, m, ad, pd, v);
            WL_SH_ST(&w, m, uint32_t, sub[store + i + wi * 32 + (uint64_t)l]);
        }
        wl_exit(&w, m);
    }
    free(smem);
    return 0;
}

/* ---------------------------------------------------------------- final */
typedef struct u128 { uint32_t v[4]; } u128;

static int fill_final(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    pbl_state *s = k->st;
    const uint64_t *d = s->dim, hw4 = d[HH] * d[HW] / 4, gstride = (uint64_t)BLOCK_X * 3 * 512;
    const uint64_t rmin = (uint64_t)k->arg[0], rmax = (uint64_t)k->arg[1];
    const uint64_t low4 = rmin * BPB / 4, mid4 = (rmax - rmin + 1) * BPB / 4;
    uint16_t *gh16 = (uint16_t *)s->h[GHIST];
    uint32_t *ovf = PBL_U(s, OVF), *sub = PBL_U(s, SUBH);
    uint8_t *fin = s->h[FINAL];
    for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, k, block, wi);
        const uint32_t m = w.live;
        uint64_t ad[32], st0 = block * 512 + wi * 32;
        for (int q = 0; q < 6; q++) wl_int(&w, m, GMS_REG_NONE, GMS_REG_NONE);   /* S2R, offsets, region sizes */
        uint8_t pi = wl_int(&w, m, GMS_REG_NONE, GMS_REG_NONE);
        const uint64_t from[3] = { 0, low4, low4 + mid4 }, to[3] = { low4, low4 + mid4, hw4 };
        for (int rgn = 0; rgn < 3; rgn++) {
            uint32_t top = w.pc;
            for (uint64_t i0 = from[rgn] + st0;; i0 += gstride) {
                w.pc = top;
                uint32_t mk = 0;
                for (int l = 0; l < 32; l++) if (i0 + (uint64_t)l < to[rgn]) mk |= 1u << l;
                wl_pred(&w, m, pi, GMS_REG_NONE);
                wl_bra(&w, m & ~mk);
                if (!mk) break;
                uint32_t out[32];
                uint8_t r[4];
                if (rgn != 1) {
                    WL_LANES(mk, l) ad[l] = s->d[GHIST] + 8 * (i0 + (uint64_t)l);
                    uint8_t v = wl_ld(&w, mk, GMS_MEM_LD_GLOBAL, 8, ad, pi);         /* ushort4 */
                    WL_SH_LD(&w, mk, uint64_t, (uint64_t)gh16[4 * (i0 + l)] | (uint64_t)gh16[4 * (i0 + l) + 1] << 16 |
                                                   (uint64_t)gh16[4 * (i0 + l) + 2] << 32 | (uint64_t)gh16[4 * (i0 + l) + 3] << 48);
                    uint8_t z = wl_int(&w, mk, GMS_REG_NONE, GMS_REG_NONE);
                    wl_st(&w, mk, GMS_MEM_ST_GLOBAL, 8, ad, pi, z);
                    WL_SH_ST(&w, mk, uint64_t, 0);
                    WL_LANES(mk, l) {
                        out[l] = 0;
                        for (int c = 0; c < 4; c++) {
                            uint32_t x = gh16[4 * (i0 + (uint64_t)l) + (uint64_t)c];
                            out[l] |= (x < 255 ? x : 255) << (8 * c);
                            gh16[4 * (i0 + (uint64_t)l) + (uint64_t)c] = 0;
                        }
                    }
                    for (int c = 0; c < 4; c++) r[c] = wl_int(&w, mk, v, GMS_REG_NONE);  /* IMNMX */
                } else {
                    WL_LANES(mk, l) ad[l] = s->d[OVF] + 16 * (i0 + (uint64_t)l);
                    uint8_t v = wl_ld(&w, mk, GMS_MEM_LD_GLOBAL, 16, ad, pi);        /* uint4 */
                    u128 vals[32];
                    uint32_t acc[32][4];
                    WL_LANES(mk, l) for (int c = 0; c < 4; c++) acc[l][c] = vals[l].v[c] = ovf[4 * (i0 + (uint64_t)l) + (uint64_t)c];
                    if (w.sh) wl_sh_last(w.sh, w.e.w, 0, vals, sizeof(u128));
                    uint8_t z = wl_int(&w, mk, GMS_REG_NONE, GMS_REG_NONE);
                    wl_st(&w, mk, GMS_MEM_ST_GLOBAL, 16, ad, pi, z);
                    memset(vals, 0, sizeof vals);
                    if (w.sh) wl_sh_last(w.sh, w.e.w, 1, vals, sizeof(u128));
                    WL_LANES(mk, l) for (int c = 0; c < 4; c++) ovf[4 * (i0 + (uint64_t)l) + (uint64_t)c] = 0;
                    for (int c = 0; c < 4; c++) r[c] = wl_int(&w, mk, v, GMS_REG_NONE);
                    for (uint64_t j = 0; j < BLOCK_X; j++) {
                        WL_LANES(mk, l) ad[l] = s->d[SUBH] + 4 * (i0 + (uint64_t)l + j * hw4);
                        uint8_t b = wl_ldg(&w, mk, ad, pi);
                        WL_SH_LD(&w, mk, uint32_t, sub[i0 + (uint64_t)l + j * hw4]);
                        for (int c = 0; c < 4; c++) {
                            uint8_t e = wl_int(&w, mk, b, GMS_REG_NONE);                /* BFE */
                            r[c] = wl_int(&w, mk, r[c], e);                             /* IADD */
                        }
                        WL_LANES(mk, l) for (int c = 0; c < 4; c++) acc[l][c] += (sub[i0 + (uint64_t)l + j * hw4] >> (8 * c)) & 0xff;
                    }
                    WL_LANES(mk, l) {
                        out[l] = 0;
                        for (int c = 0; c < 4; c++) out[l] |= (acc[l][c] < 255 ? acc[l][c] : 255) << (8 * c);
                    }
                    for (int c = 0; c < 4; c++) r[c] = wl_int(&w, mk, r[c], GMS_REG_NONE);  /* IMNMX */
                }
                uint8_t pk = wl_int3(&w, mk, r[0], r[1], r[2]);                        /* pack uchar4 */
                pk = wl_int(&w, mk, pk, r[3]);
                WL_LANES(mk, l) {
                    ad[l] = s->d[FINAL] + 4 * (i0 + (uint64_t)l);
                    memcpy(fin + 4 * (i0 + (uint64_t)l), &out[l], 4);
                }
                wl_stg(&w, mk, ad, pi, pk);
                WL_SH_ST(&w, mk, uint32_t, out[l]);
                pi = wl_int(&w, m, pi, GMS_REG_NONE);                                   /* i += stride */
            }
        }
        wl_exit(&w, m);
    }
    return 0;
}

/* ---------------------------------------------------------------- program */
static void launch(pbl_state *s, gms_program *p, uint64_t rep)
{
    const uint64_t *d = s->dim, ew = (d[W] + 1) / 2 * 2;
    if (rep == 0 && !s->aux) {   /* the image as generated, for the CPU reference (init) */
        s->aux = wl_malloc(s->n[INPUT], sizeof(uint32_t));
        memcpy(s->aux, s->h[INPUT], s->n[INPUT] * sizeof(uint32_t));
    }
    if (rep == 0) /* main.cu: the image row by row into the pitched buffer */
        for (uint64_t y = 0; y < d[H]; y++) gms_prog_copy_h2d(p, s->d[INPUT] + 4 * y * ew, 4 * d[W]);
    /* the prescan's result, as the host reads it back (ranges_h) */
    uint32_t lo, hi = ranges_hi(d, PBL_U(s, INPUT), &lo);
    int64_t rg[2] = { lo, hi };
    for (uint64_t it = 0; it < d[ITERS]; it++) {
        gms_prog_copy_h2d(p, s->d[RANGES], 8);
        wl_launch(p, "_Z20histo_prescan_kernelPjiS_", wl_dim3(PRESCAN_BLOCKS, 1, 1), wl_dim3(PRESCAN_THREADS, 1, 1), 24,
                  2 * PRESCAN_THREADS * 4, fill_prescan, s, NULL, 0);
        gms_prog_copy_d2h(p, s->d[RANGES], 8);
        gms_prog_copy_h2d(p, s->d[SUBH], 4 * s->n[SUBH]);   /* zeroData */
        wl_launch(p, "_Z26histo_intermediates_kernelP5uint2jjjP6uchar4", wl_dim3((uint32_t)(d[H] / UNROLL), 1, 1),
                  wl_dim3((uint32_t)((d[W] + 1) / 2), 1, 1), 16, 0, fill_inter, s, NULL, 0);
        wl_launch(p, "_Z17histo_main_kernelP6uchar4jjjjjPjS1_S1_", wl_dim3(BLOCK_X, hi - lo + 1, 1),
                  wl_dim3(THREADS, 1, 1), 24, BPB, fill_main, s, rg, 2);
        wl_launch(p, "_Z18histo_final_kerneljjjjPjS_S_S_", wl_dim3(BLOCK_X * 3, 1, 1), wl_dim3(512, 1, 1), 32, 0,
                  fill_final, s, rg, 2);
    }
}

/* the reference: min(count, 255) per bin, the mappings, and the cleared buffers */
static void cpu(const pbl_state *s, void **h, uint64_t rep)
{
    const uint64_t *d = s->dim, ew = (d[W] + 1) / 2 * 2, bins = d[HW] * d[HH];
    const uint32_t *in = h[INPUT];
    uint32_t *sm = h[SMAP];
    uint8_t *fin = h[FINAL];
    /* min(count, 255) per bin, counted in place (host speed: no array of full counts) */
    memset(fin, 0, bins);
    for (uint64_t y = 0; y < d[H]; y++)
        for (uint64_t x = 0; x < d[W]; x++) {
            uint32_t v = in[y * ew + x];
            if (fin[v] < 255) fin[v]++;
        }
    /* the intermediates kernel: thread t of a row maps the row's values 2t and 2t+1 (a uint2)
     * to mappings t and t + blockDim (the order of the mappings does not matter to a
     * histogram, so the source interleaves them) */
    const uint64_t bd = (d[W] + 1) / 2;
    for (uint64_t y = 0; y < d[H]; y++)
        for (uint64_t t = 0; t < bd; t++) {
            sm[y * d[W] + t] = mapping(in[y * ew + 2 * t]);
            if (!(d[W] % 2 && t == bd - 1)) sm[y * d[W] + t + bd] = mapping(in[y * ew + 2 * t + 1]);
        }
}

static const pbl_def def = {
    .name = "histo",
    .arrs = { { "input", 0, 0, 0, PBL_U32 }, { "ranges", 0, 0, 0, PBL_U32 }, { "sm_mappings", 0, 0, 1, PBL_U32 },
              { "global_subhisto", 0, 0, 0, PBL_U32 }, { "global_histo", 0, 0, 1, PBL_U16 },
              { "global_overflow", 0, 0, 1, PBL_U32 }, { "final_histo", 0, 1, 1, PBL_U8 } },
    .sizes = sizes, .elems = elems, .init = init, .launch = launch, .cpu = cpu,
    .rtol = 0, .atol = 0,
};

PBL_WORKLOAD(histo, "histo", def, params, "image processing", "I",
             "saturating histogram: prescan, mappings, shared-memory byte sub-histograms with atomics, final merge");
