/* DWT2D (Rodinia dwt2d, UVMBench): forward 5/3 integer 2D discrete wavelet transform of an
 * RGB image (the suite's run: `dwt2d rgb.bmp -d 1024x1024 -f -5 -l 3`), on random pixels.
 *
 *   c_CopySrcToComponents  256 threads: 192 threads stage the block's 768 source bytes in
 *                          shared memory as words, BAR, every thread stores its pixel's
 *                          R, G, B - 128 into three component arrays
 *                          (c_CopySrcToComponent for components=1)
 *   fdwt53Kernel<WX, 8>    per level and component: WX = 192 / 128 / 64 threads (width >= 960,
 *                          >= 480, else), one image column per thread plus 3 boundary columns,
 *                          a sliding window of 8 rows (divRndUp(height, 120) steps per block):
 *                          load + vertical lifting per column in the shared TransformBuffer
 *                          (even/odd column halves), BAR, horizontal predict, BAR, horizontal
 *                          update, BAR, write 4 low + 4 high coefficients per thread into the
 *                          linearly stored bands, BAR. Loaders/writers mirror at the image edges
 *                          exactly as io.h does (checked versions only in boundary blocks).
 * nStage2dDWT's device-to-device cudaMemcpys (backup of the input, the LL band copied back
 * into the input between levels, restore of the input) are emitted as a plain copy kernel
 * "cudaMemcpyDtoD" (256 threads, one int each): the program model has no D2D copy command.
 * Shared memory starts zeroed (on hardware the never-output guard columns hold garbage). */
#include "workloads/wl_buf.h"
#include "workloads/wl_clamp.h"
#include "util/rng.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 256
#define WIN_Y 8
#define MAXWX 192

typedef struct dw {
    uint64_t w, h, comps, levels, repeat, rep;
    int done;
    wl_buf src;                  /* bytes, alignedSize */
    wl_buf out[3], backup, in[3];
    uint8_t *img;                /* the source image (verify) */
    wl_shadow *sh;               /* functional verify runs: verify reads the results from it */
} dw;

static const gms_wl_param params[] = {
    {"width", "1024", "image width (-d WxH); multiple of 2^levels"},
    {"height", "1024", "image height (-d WxH); multiple of 2^levels"},
    {"components", "3", "colour components (-c): 3 (RGB) or 1"},
    {"levels", "3", "DWT levels (-l)"},
    {"scale", "1", "multiplies width and height"},
    {"repeat", "1", "run the component transforms N times (independent invocations)"},
    {NULL, NULL, NULL},
};

static int winx(int64_t sx) { return sx >= 960 ? 192 : sx >= 480 ? 128 : 64; }
static int64_t divup(int64_t n, int64_t d) { return n / d + (n % d ? 1 : 0); }

/* the first level (1-based) whose blocks do not mirror inside an sx x sy image (io.h mirrors
 * once), 0 if every level fits */
static uint64_t level_misfit(int64_t sx, int64_t sy, uint64_t lv)
{
    for (uint64_t l = 0; l < lv; l++) {
        int64_t steps = divup(sy, 15 * WIN_Y), gy = divup(sy, WIN_Y * steps);
        if (sx < 4 || sy < 4 || gy * WIN_Y * steps > 2 * sy - 2) return l + 1;
        sx /= 2;
        sy /= 2;
    }
    return 0;
}

/* the smallest image every level fits: width 4 at the last level, the height searched over
 * multiples of 2^levels (the window condition is not monotonic in the height) */
static void smallest(uint64_t lv, uint64_t *w, uint64_t *h)
{
    uint64_t g = 1ULL << lv;
    *w = g * 2 > 4 ? g * 2 : 4;
    for (*h = g; *h < 1ULL << 15 && level_misfit(INT64_MAX / 2, (int64_t)*h, lv); *h += g) {}
}

static int sizes(const gms_wl_args *a, uint64_t *w, uint64_t *h, uint64_t *lv, gms_error *err)
{
    if (wl_param(a, "levels", 1, 10, lv, err)) return -1;
    uint64_t g = 1ULL << *lv, mw, mh;
    smallest(*lv, &mw, &mh);
    if (wl_clamp_scaled(a, "dwt2d", "width", g, mw, 1ULL << 15, w, err) ||
        wl_clamp_scaled(a, "dwt2d", "height", g, mh, 1ULL << 15, h, err))
        return -1;
    int64_t sx = (int64_t)*w, sy = (int64_t)*h;
    uint64_t l = level_misfit(sx, sy, *lv);
    if (l)
        return gms_err(err, "workload dwt2d: level %llu is %lldx%lld, too small for the %lldx%d window "
                       "(use a larger width/height or fewer levels)", (unsigned long long)l,
                       (long long)(sx >> (l - 1)), (long long)(sy >> (l - 1)), (long long)winx(sx >> (l - 1)), WIN_Y);
    return 0;
}

static uint64_t footprint(const gms_wl_args *a)
{
    gms_error e;
    uint64_t w = 0, h = 0, lv = 0;
    if (sizes(a, &w, &h, &lv, &e)) return 0;
    uint64_t c = gms_wl_u64(a, "components") == 1 ? 1 : 3, px = w * h;
    return divup((int64_t)px, THREADS) * THREADS * c + 4 * px * (2 * c + 1);
}

static int create(const gms_wl_args *a, void **out, gms_error *err)
{
    uint64_t w, h, lv, c, rep;
    if (sizes(a, &w, &h, &lv, err) || wl_param(a, "components", 1, 3, &c, err) ||
        wl_param(a, "repeat", 1, 1000000, &rep, err))
        return -1;
    if (c == 2) return gms_err(err, "workload dwt2d: components=2 is not supported (1 or 3)");
    dw *s = gms_xcalloc(1, sizeof *s);
    s->w = w; s->h = h; s->comps = c; s->levels = lv; s->repeat = rep;
    uint64_t px = w * h, aligned = (uint64_t)divup((int64_t)px, THREADS) * THREADS * c;
    wl_buf_new(&s->src, aligned);
    for (uint64_t i = 0; i < c; i++) { wl_buf_new(&s->out[i], 4 * px); wl_buf_new(&s->in[i], 4 * px); }
    wl_buf_new(&s->backup, 4 * px);
    gms_rng r;
    gms_rng_seed(&r, gms_wl_seed(a));
    uint8_t *b = s->src.h;
    for (uint64_t i = 0; i < px * c; i++) b[i] = (uint8_t)(gms_rng_next(&r) >> 56);
    s->img = gms_xmalloc(px * c);
    memcpy(s->img, b, px * c);
    *out = s;
    return 0;
}

/* ---------------------------------------------------------------- c_CopySrcToComponents */
static int k_split(const wl_kernel *k, uint64_t blk, gms_block_trace *out, gms_error *err)
{
    dw *s = k->st;
    wl_warp W[WL_MAXW];
    uint32_t nw = wl_block_begin(out, THREADS, W);
    wl_warps_sh(W, nw, k);
    uint32_t c = (uint32_t)s->comps;
    uint64_t gX = blk * THREADS, pixels = s->w * s->h, a[32], sa[32];
    const uint8_t *src = s->src.h;
    uint8_t sdata[THREADS * 3];
    uint8_t ri[WL_MAXW];
    uint32_t wv[32];   /* the source word each lane loads, for the shadow memory */
    for (uint32_t w = 0; w < nw; w++) {
        wl_warp *x = &W[w];
        ri[w] = wl_prologue_idx(x, x->live);
        uint32_t m = 0;
        WL_TLANES(x, x->live, l, t) if (t * 4 < THREADS * c) {
            m |= 1u << l;
            uint64_t word = (gX * c >> 2) + t;
            a[l] = s->src.d + 4 * word;
            sa[l] = 4 * (uint64_t)t;
            memcpy(&sdata[4 * t], &src[4 * word], 4);
            memcpy(&wv[l], &src[4 * word], 4);
        }
        uint8_t q = wl_int_at(x, 0x18, x->live, ri[w], GMS_REG_NONE);
        wl_bra_at(x, 0x20, x->live, q);
        if (m) {
            uint8_t v = wl_ldg_at(x, 0x28, m, 4, a, ri[w]);
            WL_SH_LD(x, m, uint32_t, wv[l]);
            wl_sts_at(x, 0x30, m, 4, sa, GMS_REG_NONE, v);
        }
    }
    wl_bar_all(W, nw, 0x38);
    for (uint32_t w = 0; w < nw; w++) {
        wl_warp *x = &W[w];
        uint8_t v[3];
        for (uint32_t ci = 0; ci < c; ci++) {
            WL_TLANES(x, x->live, l, t) sa[l] = (uint64_t)t * c + ci;
            v[ci] = gms_emit_load(&x->e, 0x40 + 8 * ci, x->live, GMS_MEM_LD_SHARED, 1, sa, GMS_REG_NONE);
        }
        uint32_t m = 0;
        WL_TLANES(x, x->live, l, t) if (gX + t < pixels) m |= 1u << l;
        uint8_t q = wl_int_at(x, 0x58, x->live, ri[w], GMS_REG_NONE);
        wl_bra_at(x, 0x60, x->live, q);
        for (uint32_t ci = 0; ci < c && m; ci++) {
            int32_t *dst = WL_I(s->in[ci]);
            WL_TLANES(x, m, l, t) {
                a[l] = s->in[ci].d + 4 * (gX + t);
                dst[gX + t] = (int32_t)sdata[t * c + ci] - 128;
            }
            uint8_t d = wl_int_at(x, 0x68 + 16 * ci, m, v[ci], GMS_REG_NONE);
            wl_stg_at(x, 0x70 + 16 * ci, m, 4, a, ri[w], d);
            WL_SH_ST(x, m, int32_t, dst[gX + (uint64_t)x->t0 + (uint64_t)l]);
        }
        wl_exit_at(x, WL_PC_END, x->live);
    }
    (void)err;
    return 0;
}

/* ---------------------------------------------------------------- cudaMemcpyDtoD */
static int k_copy(const wl_kernel *k, uint64_t blk, gms_block_trace *out, gms_error *err)
{
    dw *s = k->st;
    wl_warp W[WL_MAXW];
    uint32_t nw = wl_block_begin(out, THREADS, W);
    wl_warps_sh(W, nw, k);
    const wl_buf *dst = (const wl_buf *)(intptr_t)k->arg[0], *src = (const wl_buf *)(intptr_t)k->arg[1];
    uint64_t n = (uint64_t)k->arg[2], a[32], b[32];
    for (uint32_t w = 0; w < nw; w++) {
        wl_warp *x = &W[w];
        uint8_t ri, q;
        uint32_t m = wl_guard_1d(x, blk * THREADS, n, &ri, &q);
        WL_TLANES(x, m, l, t) {
            uint64_t i = blk * THREADS + t;
            a[l] = src->d + 4 * i;
            b[l] = dst->d + 4 * i;
            WL_I(*dst)[i] = WL_I(*src)[i];
        }
        if (m) {
            uint64_t i0 = blk * THREADS + x->t0;   /* lane l copies element i0 + l */
            uint8_t v = wl_ldg_at(x, 0x28, m, 4, a, ri);
            WL_SH_LD(x, m, int32_t, WL_I(*src)[i0 + (uint64_t)l]);
            wl_stg_at(x, 0x30, m, 4, b, ri, v);
            WL_SH_ST(x, m, int32_t, WL_I(*dst)[i0 + (uint64_t)l]);
        }
        wl_exit_at(x, WL_PC_END, x->live);
    }
    (void)s;
    (void)err;
    return 0;
}

/* ---------------------------------------------------------------- fdwt53Kernel */
typedef struct ldr { int64_t last, stride, end; int chk; } ldr;
typedef struct wtr { int64_t next, end, lh, hl; int chk; } wtr;
typedef struct col { ldr L; int64_t off; int32_t p0, p1, p2; } col;

/* DWTIO::mirror. The suite mirrors once (d >= n: 2n-2-d; d < 0: -d), which leaves the image
 * (reads out of bounds) when a 64-wide window covers a level narrower than 33 pixels; this
 * uses io.h's commented-out repeated mirroring, identical wherever the single mirror is in range. */
static void mirror(int64_t *d, int64_t n)
{
    if (n <= 1) { *d = 0; return; }
    if (*d < 0) {
        int64_t u = -1 - *d, ph = (u / (n - 1)) & 1, r = u % (n - 1);
        *d = ph == 0 ? r + 1 : n - 2 - r;
    } else if (*d >= n) {
        int64_t o = *d - n, ph = (o / (n - 1)) & 1, r = o % (n - 1);
        *d = ph == 0 ? n - 2 - r : r + 1;
    }
}

static void ldr_init(ldr *L, int64_t sx, int64_t sy, int64_t fx, int64_t fy)
{
    mirror(&fx, sx);
    L->end = L->chk ? sy * sx + fx : 0;
    L->stride = sx;
    L->last = fx + sx * fy - sx;
}

static int64_t ldr_next(ldr *L)
{
    L->last += L->stride;
    if (L->chk && L->last == L->end) {
        L->last -= 2 * L->stride;
        L->stride = -L->stride;
    }
    return L->last;
}

static void wtr_init(wtr *W, int64_t sx, int64_t sy, int64_t fx, int64_t fy)
{
    if (fx >= sx) { W->next = W->end = W->lh = W->hl = 0; return; }
    int64_t coff = fx / 2, vs;
    if (fx & 1) {
        vs = sx / 2;
        coff += divup(sx, 2) * divup(sy, 2);
        W->lh = (sx * sy) / 2;
    } else {
        vs = sx / 2 + (sx & 1);
        W->lh = divup(sy, 2) * sx;
    }
    W->hl = vs - W->lh;
    W->end = W->chk ? coff + (sy / 2) * vs + (sy & 1) * W->lh : 0;
    W->next = coff + (fy / 2) * vs + (fy & 1) * W->lh;
}

typedef struct fdwt {
    dw *s;
    const wl_buf *in, *out;
    int64_t sx, sy, steps, WX, VS, ODD;
    int32_t *buf;
    wl_warp *W;
    uint32_t nw;
} fdwt;

static int64_t coloff(const fdwt *f, int64_t c) { c += 2; return c / 2 + (c & 1) * f->ODD; }

static int load_px(const fdwt *f, ldr *L, uint64_t *addr, int32_t *v, gms_error *err)
{
    int64_t i = ldr_next(L);
    if (i < 0 || i >= f->sx * f->sy)
        return gms_err(err, "workload dwt2d: internal error: pixel index %lld outside %lldx%lld",
                       (long long)i, (long long)f->sx, (long long)f->sy);
    *addr = f->in->d + 4 * (uint64_t)i;
    *v = WL_I(*f->in)[i];
    return 0;
}

/* initColumn for the lanes in m of warp x: 3 loads */
static int init_cols(fdwt *f, wl_warp *x, uint32_t m, col *C, const int64_t *cid, int64_t bx, int64_t by,
                     int64_t firstY, uint8_t ri, gms_error *err)
{
    uint64_t a[3][32];
    int32_t lv[3][32];   /* the pixel each lane loads, for the shadow memory */
    WL_TLANES(x, m, l, t) {
        col *c = &C[l];
        c->off = coloff(f, cid[l]);
        int64_t fx = bx * f->WX + cid[l];
        int32_t v[3] = {0, 0, 0};
        if (by == 0) {
            ldr_init(&c->L, f->sx, f->sy, fx, firstY);
            for (int j = 0; j < 3; j++) if (load_px(f, &c->L, &a[j][l], &v[j], err)) return -1;
            c->p2 = v[0]; c->p1 = v[1]; c->p0 = v[2];
            for (int j = 0; j < 3; j++) lv[j][l] = v[j];
            ldr_init(&c->L, f->sx, f->sy, fx, firstY + 1);
        } else {
            ldr_init(&c->L, f->sx, f->sy, fx, firstY - 2);
            for (int j = 0; j < 3; j++) if (load_px(f, &c->L, &a[j][l], &v[j], err)) return -1;
            c->p0 = v[0]; c->p1 = v[1]; c->p2 = v[2];
            for (int j = 0; j < 3; j++) lv[j][l] = v[j];
        }
    }
    for (int j = 0; j < 3; j++) {
        wl_ldg_at(x, 0x40 + 8 * (uint32_t)j, m, 4, a[j], ri);
        WL_SH_LD(x, m, int32_t, lv[j][l]);
    }
    return 0;
}

static int32_t pred(int32_t p, int32_t c, int32_t n) { return c - (p + n) / 2; }
static int32_t upd(int32_t p, int32_t c, int32_t n) { return c + (p + n + 2) / 4; }

/* the lane's part of a lifting step on buffer elements (prev, center, next): 3 LDS, 4 INT, STS */
static void lift_emit(wl_warp *x, uint32_t pc, uint32_t m, const uint64_t *ap, const uint64_t *ac, const uint64_t *an)
{
    uint8_t p = wl_lds_at(x, pc, m, 4, ap, GMS_REG_NONE);
    uint8_t n = wl_lds_at(x, pc + 8, m, 4, an, GMS_REG_NONE);
    uint8_t c = wl_lds_at(x, pc + 16, m, 4, ac, GMS_REG_NONE);
    uint8_t s1 = wl_int_at(x, pc + 24, m, p, n);
    uint8_t s2 = wl_int_at(x, pc + 32, m, s1, GMS_REG_NONE);
    uint8_t s3 = wl_int_at(x, pc + 40, m, s2, s1);
    uint8_t r = wl_int_at(x, pc + 48, m, c, s3);
    wl_sts_at(x, pc + 56, m, 4, ac, GMS_REG_NONE, r);
}

/* loadAndVerticallyTransform for the lanes in m */
static int vert(fdwt *f, wl_warp *x, uint32_t m, col *C, uint8_t ri, gms_error *err)
{
    int32_t *B = f->buf;
    int64_t VS = f->VS;
    uint64_t sa[32], sb[32], sc[32], ga[32];
    int32_t v[32];
    for (int i = 0; i < 3; i++) {
        WL_TLANES(x, m, l, t) {
            sa[l] = 4 * (uint64_t)(C[l].off + i * VS);
            B[C[l].off + i * VS] = i == 0 ? C[l].p0 : i == 1 ? C[l].p1 : C[l].p2;
        }
        wl_sts_at(x, 0x58 + 8 * (uint32_t)i, m, 4, sa, GMS_REG_NONE, ri);
    }
    for (int i = 3; i < 3 + WIN_Y; i++) {
        WL_TLANES(x, m, l, t) {
            if (load_px(f, &C[l].L, &ga[l], &v[l], err)) return -1;
            sa[l] = 4 * (uint64_t)(C[l].off + i * VS);
            B[C[l].off + i * VS] = v[l];
        }
        uint8_t r = wl_ldg_at(x, 0x70, m, 4, ga, ri);
        WL_SH_LD(x, m, int32_t, v[l]);
        wl_sts_at(x, 0x78, m, 4, sa, GMS_REG_NONE, r);
        wl_int_at(x, 0x80, m, ri, GMS_REG_NONE);
    }
    for (int i = 0; i < 3; i++) {
        WL_TLANES(x, m, l, t) {
            sa[l] = 4 * (uint64_t)(C[l].off + (WIN_Y + i) * VS);
            int32_t q = B[C[l].off + (WIN_Y + i) * VS];
            if (i == 0) C[l].p0 = q; else if (i == 1) C[l].p1 = q; else C[l].p2 = q;
        }
        wl_lds_at(x, 0x88 + 8 * (uint32_t)i, m, 4, sa, GMS_REG_NONE);
    }
    /* forEachVerticalOdd: rows 1,3,...,9; forEachVerticalEven: rows 2,4,6,8 */
    for (int pass = 0; pass < 2; pass++) {
        int steps = pass == 0 ? (WIN_Y + 3 - 1) / 2 : (WIN_Y + 3) / 2 - 1;
        for (int i = 0; i < steps; i++) {
            int64_t row = pass == 0 ? i * 2 + 1 : 2 + i * 2;
            WL_TLANES(x, m, l, t) {
                int64_t o = C[l].off;
                sa[l] = 4 * (uint64_t)(o + (row - 1) * VS);
                sb[l] = 4 * (uint64_t)(o + row * VS);
                sc[l] = 4 * (uint64_t)(o + (row + 1) * VS);
                int32_t p = B[o + (row - 1) * VS], n = B[o + (row + 1) * VS];
                B[o + row * VS] = pass == 0 ? pred(p, B[o + row * VS], n) : upd(p, B[o + row * VS], n);
            }
            lift_emit(x, pass == 0 ? 0xa0 : 0xe0, m, sa, sb, sc);
        }
    }
    return 0;
}

/* horizontalStep over all threads of the block */
static void hstep(fdwt *f, int64_t count, int64_t prevOff, int64_t midOff, int64_t nextOff, int update, uint32_t pc)
{
    int32_t *B = f->buf;
    int64_t WX = f->WX, STEPS = count / WX, fin = count % WX, finOff = count - fin;
    uint64_t sa[32], sb[32], sc[32];
    for (uint32_t w = 0; w < f->nw; w++) {
        wl_warp *x = &f->W[w];
        for (int64_t i = 0; i <= STEPS; i++) {
            uint32_t m = 0;
            int64_t base = i < STEPS ? i * WX : finOff;
            WL_TLANES(x, x->live, l, t) {
                if (i == STEPS && (int64_t)t >= fin) continue;
                m |= 1u << l;
                int64_t j = base + t;
                sa[l] = 4 * (uint64_t)(prevOff + j);
                sb[l] = 4 * (uint64_t)(midOff + j);
                sc[l] = 4 * (uint64_t)(nextOff + j);
                int32_t p = B[prevOff + j], n = B[nextOff + j];
                B[midOff + j] = update ? upd(p, B[midOff + j], n) : pred(p, B[midOff + j], n);
            }
            if (i == STEPS) {
                uint8_t q = wl_int_at(x, pc, x->live, GMS_REG_NONE, GMS_REG_NONE);
                wl_bra_at(x, pc + 8, x->live, q);
            }
            if (m) lift_emit(x, pc + 16, m, sa, sb, sc);
        }
    }
}

static int k_fdwt(const wl_kernel *k, uint64_t blk, gms_block_trace *out, gms_error *err)
{
    dw *s = k->st;
    fdwt f = {.s = s};
    f.in = (const wl_buf *)(intptr_t)k->arg[0];
    f.out = (const wl_buf *)(intptr_t)k->arg[1];
    f.sx = k->arg[2]; f.sy = k->arg[3]; f.steps = k->arg[4];
    f.WX = k->block.x;
    f.VS = 2 + f.WX / 2;
    int64_t bufsz = f.VS * (WIN_Y + 3), pad = 32 - ((bufsz + 16) % 32);
    f.ODD = bufsz + pad;
    int32_t buf[2 * (2 + MAXWX / 2) * (WIN_Y + 3) + 32];
    memset(buf, 0, sizeof buf);
    f.buf = buf;
    wl_warp W[WL_MAXW];
    f.W = W;
    f.nw = wl_block_begin(out, (uint32_t)f.WX, W);
    wl_warps_sh(W, f.nw, k);
    int64_t bx = (int64_t)(blk % k->grid.x), by = (int64_t)(blk / k->grid.x);
    int64_t maxX = (bx + 1) * f.WX + 1, maxY = (by + 1) * WIN_Y * f.steps + 1;
    int atR = maxX >= f.sx, atB = maxY >= f.sy;
    int chkL = atB, chkW = atB || atR;
    int64_t firstY = by * WIN_Y * f.steps;
    col C[WL_MAXW][32], BC[32];
    wtr WR[WL_MAXW][32];
    int64_t outOff[WL_MAXW][32];
    uint8_t ri[WL_MAXW];
    int32_t *O = WL_I(*f.out);
    for (uint32_t w = 0; w < f.nw; w++) {
        wl_warp *x = &W[w];
        ri[w] = wl_prologue_idx(x, x->live);
        wl_int_at(x, 0x18, x->live, ri[w], GMS_REG_NONE);          /* boundary selection */
        wl_bra_at(x, 0x20, x->live, ri[w]);
        int64_t cid[32];
        WL_TLANES(x, x->live, l, t) { cid[l] = t; C[w][l].L.chk = chkL; }
        if (init_cols(&f, x, x->live, C[w], cid, bx, by, firstY, ri[w], err)) return -1;
        uint32_t bm = w == 0 ? (x->live & 7u) : 0;
        uint8_t q = wl_int_at(x, 0x30, x->live, ri[w], GMS_REG_NONE);
        wl_bra_at(x, 0x38, x->live, q);
        if (bm) {
            WL_TLANES(x, bm, l, t) { cid[l] = (int64_t)t + (t == 0 ? f.WX : -3); BC[l].L.chk = chkL; }
            if (init_cols(&f, x, bm, BC, cid, bx, by, firstY, ri[w], err)) return -1;
        }
        WL_TLANES(x, x->live, l, t) {
            int64_t oc = 2 * (int64_t)t - (f.WX - 1) * ((int64_t)t / (f.WX / 2));
            outOff[w][l] = coloff(&f, oc);
            WR[w][l].chk = chkW;
            wtr_init(&WR[w][l], f.sx, f.sy, bx * f.WX + oc, firstY);
        }
        wl_int_at(x, 0x50, x->live, ri[w], GMS_REG_NONE);
    }
    uint64_t ga[32], sa[32];
    int32_t ov[32];   /* the coefficient each lane stores, for the shadow memory */
    for (int64_t step = 0; step < f.steps; step++) {
        for (uint32_t w = 0; w < f.nw; w++) {
            wl_warp *x = &W[w];
            if (vert(&f, x, x->live, C[w], ri[w], err)) return -1;
            uint32_t bm = w == 0 ? (x->live & 7u) : 0;
            uint8_t q = wl_int_at(x, 0x120, x->live, ri[w], GMS_REG_NONE);
            wl_bra_at(x, 0x128, x->live, q);
            if (bm && vert(&f, x, bm, BC, ri[w], err)) return -1;
        }
        wl_bar_all(W, f.nw, 0x130);
        int64_t cnt = WIN_Y * f.VS - 1, first = 2 * f.VS;
        hstep(&f, cnt, first, first + f.ODD, first + 1, 0, 0x140);
        wl_bar_all(W, f.nw, 0x1c0);
        hstep(&f, cnt, first + f.ODD, first + 1, first + f.ODD + 1, 1, 0x1d0);
        wl_bar_all(W, f.nw, 0x250);
        for (uint32_t w = 0; w < f.nw; w++) {
            wl_warp *x = &W[w];
            for (int r = 2; r < 2 + WIN_Y; r += 2) {
                for (int hi = 0; hi < 2; hi++) {
                    uint32_t m = 0;
                    WL_TLANES(x, x->live, l, t) {
                        wtr *wr = &WR[w][l];
                        int64_t bi = outOff[w][l] + (r + hi) * f.VS;
                        sa[l] = 4 * (uint64_t)bi;
                        if (wr->chk && wr->next == wr->end) continue;
                        if (wr->next < 0 || wr->next >= f.sx * f.sy)
                            return gms_err(err, "workload dwt2d: internal error: band index %lld",
                                           (long long)wr->next);
                        m |= 1u << l;
                        ga[l] = f.out->d + 4 * (uint64_t)wr->next;
                        O[wr->next] = ov[l] = buf[bi];
                        wr->next += hi ? wr->hl : wr->lh;
                    }
                    uint8_t v = wl_lds_at(x, 0x260 + 32 * (uint32_t)hi, x->live, 4, sa, GMS_REG_NONE);
                    if (chkW) {
                        uint8_t q = wl_int_at(x, 0x268 + 32 * (uint32_t)hi, x->live, GMS_REG_NONE, GMS_REG_NONE);
                        wl_bra_at(x, 0x270 + 32 * (uint32_t)hi, x->live, q);
                    }
                    if (m) {
                        wl_stg_at(x, 0x278 + 32 * (uint32_t)hi, m, 4, ga, ri[w], v);
                        WL_SH_ST(x, m, int32_t, ov[l]);
                    }
                }
            }
        }
        wl_bar_all(W, f.nw, 0x2b0);
    }
    for (uint32_t w = 0; w < f.nw; w++) wl_exit_at(&W[w], WL_PC_END, W[w].live);
    return 0;
}

static void launch_copy(dw *s, gms_program *p, wl_buf *dst, wl_buf *src, uint64_t n)
{
    wl_kernel k = {.st = s, .fill = k_copy, .grid = {(uint32_t)divup((int64_t)n, THREADS), 1, 1}, .block = {THREADS, 1, 1}};
    k.arg[0] = (int64_t)(intptr_t)dst;
    k.arg[1] = (int64_t)(intptr_t)src;
    k.arg[2] = (int64_t)n;
    wl_launch_k(p, "cudaMemcpyDtoD", &k, 16, 0);
}

static void launch_fdwt(dw *s, gms_program *p, wl_buf *in, wl_buf *out, int64_t sx, int64_t sy, uint64_t levels)
{
    int64_t WX = winx(sx), steps = divup(sy, 15 * WIN_Y);
    wl_kernel k = {.st = s, .fill = k_fdwt, .grid = {(uint32_t)divup(sx, WX), (uint32_t)divup(sy, WIN_Y * steps), 1},
                   .block = {(uint32_t)WX, 1, 1}};
    k.arg[0] = (int64_t)(intptr_t)in;
    k.arg[1] = (int64_t)(intptr_t)out;
    k.arg[2] = sx; k.arg[3] = sy; k.arg[4] = steps;
    int64_t vs = 2 + WX / 2, bs = vs * (WIN_Y + 3), pad = 32 - ((bs + 16) % 32);
    char name[64];
    snprintf(name, sizeof name, "fdwt53Kernel<%lld,%d>", (long long)WX, WIN_Y);
    wl_launch_k(p, name, &k, 32, (uint32_t)(4 * (2 * bs + pad)));
    if (levels > 1) {
        int64_t lx = divup(sx, 2), ly = divup(sy, 2);
        launch_copy(s, p, in, out, (uint64_t)(lx * ly));
        launch_fdwt(s, p, in, out, lx, ly, levels - 1);
    }
}

static int next(void *st, gms_program *p, gms_error *err)
{
    dw *s = st;
    if (s->done) return 0;
    s->sh = p->shadow;
    uint64_t px = s->w * s->h, c = s->comps;
    wl_buf_alloc(p, &s->src, "srcImg", 1);
    wl_buf_alloc(p, &s->out[0], "c_r_out", 0);
    wl_buf_alloc(p, &s->backup, "backup", 0);
    if (c == 3) {
        wl_buf_alloc(p, &s->out[1], "c_g_out", 0);
        wl_buf_alloc(p, &s->out[2], "c_b_out", 0);
        wl_buf_alloc(p, &s->in[0], "c_r", 0);
        wl_buf_alloc(p, &s->in[1], "c_g", 0);
        wl_buf_alloc(p, &s->in[2], "c_b", 0);
    } else {
        wl_buf_alloc(p, &s->in[0], "c_r", 0);
    }
    wl_kernel ks = {.st = s, .fill = k_split, .grid = {(uint32_t)divup((int64_t)px, THREADS), 1, 1}, .block = {THREADS, 1, 1}};
    wl_launch_k(p, c == 3 ? "c_CopySrcToComponents<int>" : "c_CopySrcToComponent<int>", &ks, 16, THREADS * (uint32_t)c);
    for (uint64_t r = 0; r < s->repeat; r++)
        for (uint64_t i = 0; i < c; i++) {
            launch_copy(s, p, &s->backup, &s->in[i], px);
            launch_fdwt(s, p, &s->in[i], &s->out[i], (int64_t)s->w, (int64_t)s->h, s->levels);
            launch_copy(s, p, &s->in[i], &s->backup, px);
        }
    gms_prog_sync(p);
    for (uint64_t i = 0; i < c; i++) gms_prog_copy_d2h(p, s->out[i].d, s->out[i].bytes);
    s->done = 1;
    (void)err;
    return 1;
}

/* ---------------------------------------------------------------- CPU reference */
static int64_t mir(int64_t d, int64_t n) { return d >= n ? 2 * n - 2 - d : d < 0 ? -d : d; }

/* one level: vertical lifting of every column, then horizontal lifting of every row
 * (symmetric extension), written into the four linearly stored bands */
static void cpu_level(const int32_t *in, int32_t *out, int64_t sx, int64_t sy)
{
    int32_t *t = gms_xmalloc(4 * (uint64_t)(sx * sy));
    memcpy(t, in, 4 * (uint64_t)(sx * sy));
    for (int64_t x = 0; x < sx; x++) {
        for (int64_t y = 1; y < sy; y += 2)
            t[y * sx + x] = pred(t[(y - 1) * sx + x], t[y * sx + x], t[mir(y + 1, sy) * sx + x]);
        for (int64_t y = 0; y < sy; y += 2)
            t[y * sx + x] = upd(t[mir(y - 1, sy) * sx + x], t[y * sx + x], t[mir(y + 1, sy) * sx + x]);
    }
    for (int64_t y = 0; y < sy; y++) {
        int32_t *r = &t[y * sx];
        for (int64_t x = 1; x < sx; x += 2) r[x] = pred(r[x - 1], r[x], r[mir(x + 1, sx)]);
        for (int64_t x = 0; x < sx; x += 2) r[x] = upd(r[mir(x - 1, sx)], r[x], r[mir(x + 1, sx)]);
    }
    for (int64_t y = 0; y < sy; y++)
        for (int64_t x = 0; x < sx; x++) {
            wtr w = {.chk = 0};
            wtr_init(&w, sx, sy, x, y);
            out[w.next] = t[y * sx + x];
        }
    free(t);
}

static int verify(void *st, gms_error *err)
{
    dw *s = st;
    uint64_t px = s->w * s->h, c = s->comps;
    int32_t *in = gms_xmalloc(4 * px), *out = gms_xcalloc(px, 4);
    int rc = 0;
    for (uint64_t ci = 0; ci < c && !rc; ci++) {
        memset(out, 0, 4 * px);
        for (uint64_t i = 0; i < px; i++) in[i] = (int32_t)s->img[i * c + ci] - 128;
        int64_t sx = (int64_t)s->w, sy = (int64_t)s->h;
        for (uint64_t l = 0; l < s->levels; l++) {
            cpu_level(in, out, sx, sy);
            sx = divup(sx, 2);
            sy = divup(sy, 2);
            memcpy(in, out, 4 * (uint64_t)(sx * sy));
        }
        const char *nm[3] = {"c_r_out", "c_g_out", "c_b_out"};
        void *own;   /* the results as the kernels left them at their device addresses */
        rc = wl_check_i32("dwt2d", nm[ci], wl_result(s->sh, s->out[ci].d, s->out[ci].h, px, 4, &own), out, px, err);
        free(own);
        if (!rc) {
            for (uint64_t i = 0; i < px; i++) in[i] = (int32_t)s->img[i * c + ci] - 128;
            rc = wl_check_i32("dwt2d", ci == 0 ? "c_r" : ci == 1 ? "c_g" : "c_b",
                          wl_result(s->sh, s->in[ci].d, s->in[ci].h, px, 4, &own), in, px, err);
            free(own);
        }
    }
    free(in);
    free(out);
    return rc ? -1 : 0;
}

static void destroy(void *st)
{
    dw *s = st;
    if (!s) return;
    wl_buf_free(&s->src);
    for (int i = 0; i < 3; i++) { wl_buf_free(&s->out[i]); wl_buf_free(&s->in[i]); }
    wl_buf_free(&s->backup);
    free(s->img);
    free(s);
}

const gms_workload_ops gms_wl_dwt2d = {
    .name = "dwt2d", .suite = "rodinia", .domain = "media compression", .ri = "R",
    .summary = "2D discrete wavelet transform: forward 5/3 DWT of an RGB image (component split + fdwt53 per level)",
    .params = params, .create = create, .next = next, .verify = verify, .destroy = destroy,
    .footprint = footprint,
};
