/* sad (Parboil, src/cuda/sad4.cu, largerBlocks.cu): H.264 motion-estimation SADs of every
 * 4x4 block of the current frame against every position of a +-16 pixel search window of the
 * reference frame, then of the larger block shapes (8x4, 4x8, 8x8, 16x8, 8x16, 16x16) by
 * adding the 4x4 ones: 41 shapes x 1089 positions (padded to 1096) per macroblock.
 *   mb_sad_calc <<<(w/4, h/4), 61>>>: one block per 4x4 block; 16 threads copy it to shared
 *     memory, BAR, each thread computes 18 positions, three at a time (six texture reads of
 *     the reference per row, clamped at the borders), into shared sad_loc, BAR, and the first
 *     warp copies the 1096 SADs out with 8-byte stores;
 *   larger_sad_calc_8 <<<(mb_w, mb_h), (32, 4)>>> and larger_sad_calc_16 <<<(mb_w, mb_h), 32>>>:
 *     pairs of 16-bit SADs added as packed 32-bit words, 545 words per shape.
 * The shared padding positions 1089..1095 of sad_loc are never written by the kernel
 * (undefined on a GPU); the model and the reference treat them as 0. Defaults: the default
 * dataset, QCIF frames (176 x 144); the reference.bin / frame.bin inputs become a smooth
 * random 8-bit image and a copy moved by (3, -2) pixels with +-4 noise. */
#include "workloads/parboil_util.h"
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <immintrin.h>
#endif

enum { SADS, FRAME, REF };
enum { WID, HEI };
#define SEARCH_RANGE 16
#define SEARCH_DIM 33
#define MAX_POS 1089
#define MAX_POS_PADDED 1096
#define POS_PER_THREAD 18
#define THREADS_SAD 61   /* CEIL(MAX_POS, POS_PER_THREAD) */

static const gms_wl_param params[] = {
    { "width", "176", "frame width (multiple of 16; default dataset QCIF 176)" },
    { "height", "144", "frame height (multiple of 16; 144)" },
    { "scale", "1", "multiplies width and height" },
    { "repeat", "1", "run the three kernels this many times" },
    { NULL, NULL, NULL },
};

static int sizes(const gms_wl_args *a, uint64_t *d, gms_error *err)
{
    return wl_clamp_scaled(a, "sad", "width", 16, 16, 1u << 14, &d[WID], err) ||
           wl_clamp_scaled(a, "sad", "height", 16, 16, 1u << 14, &d[HEI], err);
}

static uint64_t mbs(const uint64_t *d) { return d[WID] / 16 * (d[HEI] / 16); }
static uint64_t elems(const uint64_t *d, int k) { return k == SADS ? mbs(d) * 41 * MAX_POS_PADDED : d[WID] * d[HEI]; }

static void init(const pbl_state *s, void **h)
{
    const uint64_t w = s->dim[WID], hh = s->dim[HEI];
    gms_rng r;
    gms_rng_seed(&r, s->seed);
    uint16_t *ref = h[REF], *cur = h[FRAME];
    /* smooth: a coarse random grid (every 8 pixels) bilinearly interpolated, plus noise */
    uint64_t gw = w / 8 + 2, gh = hh / 8 + 2;
    float *g = wl_malloc(gw * gh, sizeof *g);
    for (uint64_t i = 0; i < gw * gh; i++) g[i] = 255.f * wl_randf(&r);
    for (uint64_t y = 0; y < hh; y++)
        for (uint64_t x = 0; x < w; x++) {
            float fx = (float)(x % 8) / 8, fy = (float)(y % 8) / 8;
            const float *c = g + (y / 8) * gw + x / 8;
            float v = (1 - fy) * ((1 - fx) * c[0] + fx * c[1]) + fy * ((1 - fx) * c[gw] + fx * c[gw + 1]);
            v += (float)gms_rng_below(&r, 9) - 4;
            ref[y * w + x] = (uint16_t)(v < 0 ? 0 : v > 255 ? 255 : v);
        }
    for (uint64_t y = 0; y < hh; y++)
        for (uint64_t x = 0; x < w; x++) {
            int64_t sx = (int64_t)x - 3, sy = (int64_t)y + 2;
            if (sx < 0) sx = 0;
            if (sy >= (int64_t)hh) sy = (int64_t)hh - 1;
            int v = ref[(uint64_t)sy * w + (uint64_t)sx] + (int)gms_rng_below(&r, 9) - 4;
            cur[y * w + x] = (uint16_t)(v < 0 ? 0 : v > 255 ? 255 : v);
        }
    free(g);
}

/* tex2D(ref, x, y) with clamp addressing: the texel's index */
static inline uint64_t texel(const uint64_t *d, int64_t x, int64_t y)
{
    if (x < 0) x = 0;
    if (x >= (int64_t)d[WID]) x = (int64_t)d[WID] - 1;
    if (y < 0) y = 0;
    if (y >= (int64_t)d[HEI]) y = (int64_t)d[HEI] - 1;
    return (uint64_t)y * d[WID] + (uint64_t)x;
}

/* the SADs of 4x4 block (bx, by) at the MAX_POS positions of its search window (position
 * pos at offset (pos % 33, pos / 33) from (4bx - 16, 4by - 16)), the reference read with
 * clamp addressing as tex2D does: the sums the kernel's threads compute, three positions
 * each. The pixels are 8-bit values (init clamps them to 0..255), so the window is copied
 * to bytes once and, with SSE2, each SAD is one PSADBW over the 16 pixels (an integer sum:
 * any order gives the same value). */
static void block_sads(const uint64_t *d, const uint16_t *ref, const uint16_t *cur, uint64_t bx, uint64_t by,
                       uint16_t *out)
{
    const int64_t W = (int64_t)d[WID], Hh = (int64_t)d[HEI];
    const int64_t rx = (int64_t)(4 * bx) - SEARCH_RANGE, ry = (int64_t)(4 * by) - SEARCH_RANGE;
    enum { WN = SEARCH_DIM + 3 };
    uint8_t win[WN][WN], blk[16];
    int64_t cx[WN];
    for (int x = 0; x < WN; x++) cx[x] = rx + x < 0 ? 0 : rx + x >= W ? W - 1 : rx + x;
    for (int y = 0; y < WN; y++) {
        int64_t ty = ry + y < 0 ? 0 : ry + y >= Hh ? Hh - 1 : ry + y;
        const uint16_t *rr = ref + ty * W;
        for (int x = 0; x < WN; x++) win[y][x] = (uint8_t)rr[cx[x]];
    }
    for (uint64_t y = 0; y < 4; y++)
        for (uint64_t x = 0; x < 4; x++) blk[4 * y + x] = (uint8_t)cur[(4 * by + y) * d[WID] + 4 * bx + x];
#if defined(__SSE2__)
    /* strip[px][y]: the 4 bytes of window row y from column px, so that position (px, py)'s
     * 16 pixels (rows py..py+3) are one contiguous load */
    uint8_t strip[SEARCH_DIM][WN][4];
    for (int px = 0; px < SEARCH_DIM; px++)
        for (int y = 0; y < WN; y++) memcpy(strip[px][y], &win[y][px], 4);
    const __m128i bv = _mm_loadu_si128((const __m128i *)blk);
    for (int px = 0; px < SEARCH_DIM; px++)
        for (int py = 0; py < SEARCH_DIM; py++) {
            __m128i sv = _mm_sad_epu8(_mm_loadu_si128((const __m128i *)strip[px][py]), bv);
            unsigned sum = (unsigned)_mm_cvtsi128_si32(sv) + (unsigned)_mm_extract_epi16(sv, 4);
            out[py * SEARCH_DIM + px] = (uint16_t)sum;
        }
#else
    for (int py = 0; py < SEARCH_DIM; py++)
        for (int px = 0; px < SEARCH_DIM; px++) {
            unsigned sum = 0;
            for (int y = 0; y < 4; y++)
                for (int x = 0; x < 4; x++) sum += (unsigned)abs((int)win[py + y][px + x] - (int)blk[4 * y + x]);
            out[py * SEARCH_DIM + px] = (uint16_t)sum;
        }
#endif
}

/* element offset of 4x4 block (bx, by)'s 1096 SADs in blk_sad */
static inline uint64_t sad4_at(const uint64_t *d, uint64_t bx, uint64_t by)
{
    uint64_t mbw = d[WID] / 16;
    return (mbs(d) * 25 + ((by / 4) * mbw + bx / 4) * 16 + 4 * (by & 3) + (bx & 3)) * MAX_POS_PADDED;
}

static int fill_sad(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    pbl_state *s = k->st;
    const uint64_t *d = s->dim;
    const uint64_t bx = block % k->grid.x, by = block / k->grid.x;
    const uint16_t *ref = s->h[REF], *cur = s->h[FRAME];
    uint16_t *sads = s->h[SADS];
    uint16_t loc[MAX_POS_PADDED];   /* shared sad_loc: the threads' SADs (the padding 0) */
    memset(loc, 0, sizeof loc);
    block_sads(d, ref, cur, bx, by, loc);
    const int64_t rx = (int64_t)(4 * bx) - SEARCH_RANGE, ry = (int64_t)(4 * by) - SEARCH_RANGE;
    wl_warp W[2];
    for (uint32_t wi = 0; wi < 2; wi++) {
        wl_warp *w = &W[wi];
        wl_warp_begin(w, bt, k, block, wi);
        uint64_t ad[32];
        for (int q = 0; q < 8; q++) wl_int(w, w->live, GMS_REG_NONE, GMS_REG_NONE);   /* S2R, coordinates */
        if (wi == 0) {   /* threads 0..15 copy the 4x4 block */
            uint32_t m = 0xffffu;
            uint8_t p = wl_int(w, m, GMS_REG_NONE, GMS_REG_NONE);
            WL_LANES(m, l) ad[l] = s->d[FRAME] + 2 * ((4 * by + (uint64_t)(l >> 2)) * d[WID] + 4 * bx + (uint64_t)(l & 3));
            uint8_t v = wl_ld(w, m, GMS_MEM_LD_GLOBAL, 2, ad, p);
            WL_SH_LD(w, m, uint16_t, cur[(4 * by + (uint64_t)(l >> 2)) * d[WID] + 4 * bx + (uint64_t)(l & 3)]);
            WL_LANES(m, l) ad[l] = 2 * (uint64_t)l;
            wl_st(w, m, GMS_MEM_ST_SHARED, 2, ad, GMS_REG_NONE, v);
        }
        wl_bar(w);
        /* thread t: positions 18t .. min(18t + 18, 1089), three at a time */
        uint32_t top = w->pc;
        for (int it = 0; it < POS_PER_THREAD / 3; it++) {
            w->pc = top;
            uint32_t mk = 0;
            WL_LANES(w->live, l) if ((uint64_t)(wi * 32 + (uint32_t)l) * POS_PER_THREAD + 3 * (uint64_t)it < MAX_POS) mk |= 1u << l;
            if (!mk) break;
            uint8_t s1 = GMS_REG_NONE, s2 = GMS_REG_NONE, s3 = GMS_REG_NONE;
            /* each lane's texel rows (y) and clamped columns (kx), once per iteration (host
             * speed: the address loops below run over all 32 lanes without a mask test, so
             * every lane's are computed; the emitters read only mk's) */
            int64_t trow[4][32], tcol[6][32];
            for (int l = 0; l < 32; l++) {
                uint64_t pos = (uint64_t)(wi * 32 + (uint32_t)l) * POS_PER_THREAD + 3 * (uint64_t)it;
                int64_t sx = rx + (int64_t)(pos % SEARCH_DIM), sy = ry + (int64_t)(pos / SEARCH_DIM);
                for (int y = 0; y < 4; y++) trow[y][l] = (int64_t)texel(d, 0, sy + y);
                for (int kx = 0; kx < 6; kx++) tcol[kx][l] = (int64_t)texel(d, sx + kx, 0);
            }
            for (int y = 0; y < 4; y++) {
                uint8_t f[4];
                for (int x = 0; x < 4; x++) {
                    for (int l = 0; l < 32; l++) ad[l] = 2 * (uint64_t)(4 * y + x);
                    f[x] = wl_ld(w, mk, GMS_MEM_LD_SHARED, 2, ad, GMS_REG_NONE);          /* FRAME_GET */
                }
                for (int kx = 0; kx < 6; kx++) {
                    for (int l = 0; l < 32; l++) ad[l] = s->d[REF] + 2 * (uint64_t)(trow[y][l] + tcol[kx][l]);
                    uint8_t t = wl_ld(w, mk, GMS_MEM_LD_TEX, 2, ad, GMS_REG_NONE);        /* tex2D */
                    for (int q = 0; q < 3; q++) {
                        int fx = kx - q;
                        if (fx < 0 || fx > 3) continue;
                        uint8_t *acc = q == 0 ? &s1 : q == 1 ? &s2 : &s3;
                        uint8_t df = wl_int(w, mk, t, f[fx]);                                 /* IADD t - f */
                        *acc = wl_int3(w, mk, df, *acc, GMS_REG_NONE);                      /* IABS + IADD */
                    }
                }
            }
            uint8_t acc[3] = { s1, s2, s3 };
            for (int q = 0; q < 3; q++) {
                WL_LANES(mk, l) ad[l] = 2 * ((uint64_t)(wi * 32 + (uint32_t)l) * POS_PER_THREAD + 3 * (uint64_t)it + (uint64_t)q);
                wl_st(w, mk, GMS_MEM_ST_SHARED, 2, ad, GMS_REG_NONE, acc[q]);
            }
            pbl_loop_back(w, w->live, it + 1 < POS_PER_THREAD / 3 ? mk : 0, GMS_REG_NONE);   /* + wrap of the x offset */
        }
        wl_bar(w);
    }
    /* the first warp copies the 1096 SADs out, 4 at a time */
    wl_warp *w = &W[0];
    const uint64_t o = sad4_at(d, bx, by);
    memcpy(sads + o, loc, sizeof loc);
    uint8_t p = wl_int(w, w->live, GMS_REG_NONE, GMS_REG_NONE);
    for (uint64_t idx = 0; idx < MAX_POS_PADDED / 4; idx += 32) {
        uint32_t mk = 0;
        uint64_t ad[32];
        for (int l = 0; l < 32; l++) if (idx + (uint64_t)l < MAX_POS_PADDED / 4) mk |= 1u << l;
        WL_LANES(mk, l) ad[l] = 8 * (idx + (uint64_t)l);
        uint8_t v = wl_ld(w, mk, GMS_MEM_LD_SHARED, 8, ad, GMS_REG_NONE);
        WL_LANES(mk, l) ad[l] = s->d[SADS] + 2 * o + 8 * (idx + (uint64_t)l);
        wl_st(w, mk, GMS_MEM_ST_GLOBAL, 8, ad, p, v);
        uint64_t vals[32];
        WL_LANES(mk, l) memcpy(&vals[l], loc + 4 * (idx + (uint64_t)l), 8);
        WL_SH_ST(w, mk, uint64_t, vals[l]);
        pbl_loop_back(w, w->live, idx + 32 < MAX_POS_PADDED / 4 ? mk : 0, p);
    }
    wl_exit(w, w->live);
    wl_exit(&W[1], W[1].live);
    return 0;
}

/* the larger shapes: the input and output pointers (in 16-bit elements) as the source
 * computes them, for kernel 8 (tx, ty: the 8x8 quadrant) or 16 */
static void lg_8(const uint64_t *d, uint64_t mbx, uint64_t mby, uint64_t tx, uint64_t ty, uint64_t *bi, uint64_t *b6,
                 uint64_t *b5, uint64_t *b4)
{
    uint64_t mbc = mbs(d), mi = (mby * (d[WID] / 16) + mbx) * MAX_POS_PADDED;
    *bi = (mbc * 25 + (ty * 8 + tx * 2)) * MAX_POS_PADDED + mi * 16;
    *b6 = ((mbc << 4) + mbc + (ty * 4 + tx * 2)) * MAX_POS_PADDED + mi * 8;
    *b5 = ((mbc << 3) + mbc + (ty * 4 + tx)) * MAX_POS_PADDED + mi * 8;
    *b4 = ((mbc << 2) + mbc + (ty * 2 + tx)) * MAX_POS_PADDED + mi * 4;
}

static void lg_16(const uint64_t *d, uint64_t mbx, uint64_t mby, uint64_t *bi, uint64_t *b3, uint64_t *b2, uint64_t *b1)
{
    uint64_t mbc = mbs(d) * MAX_POS_PADDED, mi = (mby * (d[WID] / 16) + mbx) * MAX_POS_PADDED;
    *bi = ((mbc + mi) << 2) + mbc;
    *b3 = ((mbc + mi) << 1) + mbc;
    *b2 = mbc + mi * 2;
    *b1 = mi;
}

/* one search-position word of the 8 or 16 kernel on 16-bit array a (packed adds, no carry) */
static inline uint32_t w32(const uint16_t *a, uint64_t el, uint64_t word)
{
    uint32_t v;
    memcpy(&v, a + el + 2 * word, 4);
    return v;
}
static inline void w32_put(uint16_t *a, uint64_t el, uint64_t word, uint32_t v) { memcpy(a + el + 2 * word, &v, 4); }

#define HALF (MAX_POS_PADDED / 2)

static void larger(const uint64_t *d, uint16_t *a, uint64_t bi, const uint64_t bo[3], int k16, uint64_t sp, uint32_t v[9])
{
    uint32_t i00 = w32(a, bi, sp), i01 = w32(a, bi, sp + HALF), i10 = w32(a, bi, sp + (k16 ? 2 : 4) * HALF),
             i11 = w32(a, bi, sp + (k16 ? 3 : 5) * HALF);
    v[0] = i00; v[1] = i01; v[2] = i10; v[3] = i11;
    w32_put(a, bo[0], sp, v[4] = i00 + i10);
    w32_put(a, bo[0], sp + HALF, v[5] = i01 + i11);
    w32_put(a, bo[1], sp, v[6] = i00 + i01);
    w32_put(a, bo[1], sp + (k16 ? 1 : 2) * HALF, v[7] = i10 + i11);
    w32_put(a, bo[2], sp, v[8] = (i00 + i01) + (i10 + i11));
}

static int fill_larger(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    pbl_state *s = k->st;
    const uint64_t *d = s->dim;
    const int k16 = (int)k->arg[0];
    const uint64_t mbx = block % k->grid.x, mby = block / k->grid.x;
    uint16_t *a = s->h[SADS];
    for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, k, block, wi);
        uint64_t bi, bo[3];
        if (k16) lg_16(d, mbx, mby, &bi, &bo[0], &bo[1], &bo[2]);
        else lg_8(d, mbx, mby, wi & 1, wi >> 1, &bi, &bo[0], &bo[1], &bo[2]);
        for (int q = 0; q < 10; q++) wl_int(&w, w.live, GMS_REG_NONE, GMS_REG_NONE);   /* S2R, the pointers */
        uint8_t p = wl_int(&w, w.live, GMS_REG_NONE, GMS_REG_NONE);
        uint32_t top = w.pc;
        for (uint64_t sp0 = 0;; sp0 += 32) {
            w.pc = top;
            uint32_t mk = 0;
            for (int l = 0; l < 32; l++) if (sp0 + (uint64_t)l < (MAX_POS + 1) / 2) mk |= 1u << l;
            wl_pred(&w, w.live, p, GMS_REG_NONE);
            wl_bra(&w, w.live & ~mk);
            if (!mk) break;
            uint32_t v[32][9];
            WL_LANES(mk, l) larger(d, a, bi, bo, k16, sp0 + (uint64_t)l, v[l]);
            const uint64_t in_w[4] = { 0, HALF, (k16 ? 2 : 4) * HALF, (k16 ? 3 : 5) * HALF };
            const uint64_t out_el[5] = { bo[0], bo[0], bo[1], bo[1], bo[2] };
            const uint64_t out_w[5] = { 0, HALF, 0, (k16 ? 1 : 2) * HALF, 0 };
            uint8_t r[4];
            uint64_t ad[32];
            for (int q = 0; q < 4; q++) {
                WL_LANES(mk, l) ad[l] = s->d[SADS] + 2 * bi + 4 * (sp0 + (uint64_t)l + in_w[q]);
                r[q] = wl_ldg(&w, mk, ad, p);
                WL_SH_LD(&w, mk, uint32_t, v[l][q]);
            }
            const uint8_t srcs[5][2] = { { 0, 2 }, { 1, 3 }, { 0, 1 }, { 2, 3 }, { 0, 0 } };
            uint8_t sum01 = GMS_REG_NONE;
            for (int q = 0; q < 5; q++) {
                uint8_t x = q < 4 ? wl_int(&w, mk, r[srcs[q][0]], r[srcs[q][1]]) : wl_int(&w, mk, sum01, r[2]);
                if (q == 2) sum01 = x;
                WL_LANES(mk, l) ad[l] = s->d[SADS] + 2 * out_el[q] + 4 * (sp0 + (uint64_t)l + out_w[q]);
                wl_stg(&w, mk, ad, p, x);
                WL_SH_ST(&w, mk, uint32_t, v[l][4 + q]);
            }
            p = wl_int(&w, w.live, p, GMS_REG_NONE);
        }
        wl_exit(&w, w.live);
    }
    return 0;
}

static void launch(pbl_state *s, gms_program *p, uint64_t rep)
{
    const uint64_t *d = s->dim;
    wl_launch(p, "_Z11mb_sad_calcPtS_ii", wl_dim3((uint32_t)(d[WID] / 4), (uint32_t)(d[HEI] / 4), 1),
              wl_dim3(THREADS_SAD, 1, 1), 32, MAX_POS_PADDED * 2 + 32, fill_sad, s, NULL, 0);
    int64_t a8 = 0, a16 = 1;
    wl_launch(p, "_Z17larger_sad_calc_8Ptii", wl_dim3((uint32_t)(d[WID] / 16), (uint32_t)(d[HEI] / 16), 1),
              wl_dim3(32, 4, 1), 16, 0, fill_larger, s, &a8, 1);
    wl_launch(p, "_Z18larger_sad_calc_16Ptii", wl_dim3((uint32_t)(d[WID] / 16), (uint32_t)(d[HEI] / 16), 1),
              wl_dim3(32, 1, 1), 16, 0, fill_larger, s, &a16, 1);
}

static void cpu(const pbl_state *s, void **h, uint64_t rep)
{
    const uint64_t *d = s->dim;
    const uint16_t *ref = h[REF], *cur = h[FRAME];
    uint16_t *a = h[SADS];
    for (uint64_t by = 0; by < d[HEI] / 4; by++)
        for (uint64_t bx = 0; bx < d[WID] / 4; bx++) {
            uint16_t *o = a + sad4_at(d, bx, by);
            block_sads(d, ref, cur, bx, by, o);
            for (uint64_t pos = MAX_POS; pos < MAX_POS_PADDED; pos++) o[pos] = 0;
        }
    uint32_t v[9];
    for (int k16 = 0; k16 < 2; k16++)
        for (uint64_t mby = 0; mby < d[HEI] / 16; mby++)
            for (uint64_t mbx = 0; mbx < d[WID] / 16; mbx++)
                for (uint64_t q = 0; q < (k16 ? 1u : 4u); q++) {
                    uint64_t bi, bo[3];
                    if (k16) lg_16(d, mbx, mby, &bi, &bo[0], &bo[1], &bo[2]);
                    else lg_8(d, mbx, mby, q & 1, q >> 1, &bi, &bo[0], &bo[1], &bo[2]);
                    for (uint64_t sp = 0; sp < (MAX_POS + 1) / 2; sp++) larger(d, a, bi, bo, k16, sp, v);
                }
}

static const pbl_def def = {
    .name = "sad",
    .arrs = { { "d_sads", 0, 1, 1, PBL_U16 }, { "d_cur_image", 1, 0, 0, PBL_U16 }, { "ref (texture)", 1, 0, 0, PBL_U16 } },
    .sizes = sizes, .elems = elems, .init = init, .launch = launch, .cpu = cpu,
    .rtol = 0, .atol = 0,
};

PBL_WORKLOAD(sad, "sad", def, params, "video encoding", "R",
             "motion-estimation SADs: 4x4 blocks against a +-16 search window (texture reads), then the larger shapes");
