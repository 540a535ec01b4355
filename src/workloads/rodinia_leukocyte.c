/* leukocyte (Rodinia 3.1, CUDA, find_ellipse_kernel.cu): detection of white blood cells in
 * the first frame of an intravital microscopy video. The host computes the frame's x and y
 * gradients (grad_m rows x grad_n columns, column major) and uploads them; then
 *   GICOV_kernel  grad_n - 2*MaxR blocks of grad_m - 2*MaxR threads (MaxR = MAX_RAD + 2 = 22),
 *                 one per pixel (column i = blockIdx.x + MaxR, row j = threadIdx.x + MaxR):
 *                 for each of NCIRCLES = 7 circles (radii 8, 10, ..., 20) the mean and
 *                 variance (running, Welford) of the gradient along the normal at NPOINTS = 150
 *                 sample points (tex1Dfetch of grad_x and grad_y at (i + tX, j + tY), angles and
 *                 offsets in constant memory); stores the largest mean^2 / variance
 *   dilate_kernel ceil(m*n / 176) blocks of 176 threads, one per pixel (row tid % m, column
 *                 tid / m): the largest GICOV score under a 25 x 25 disk structuring element
 *                 (constant memory), read through a texture; stored at row * n + column.
 * Both kernels loop long per thread: resumable (wl_gen.h).
 *
 * Differences (docs/workloads-rodinia.md): the tracking stage (IMGVF_kernel, one block per
 * detected cell, iterated in later frames) is not modelled, only the detection's two kernels;
 * the host-side gradient, thresholding and ellipse fitting are host work as in the source.
 * Input: the first frame of testfile.avi becomes a generated frame of the given size: `cells`
 * bright rings of radius 10 (the suite's RADIUS) on a noisy background. */
#include "workloads/wl_buf.h"
#include "workloads/wl_clamp.h"
#include "workloads/wl_simd.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NPOINTS 150
#define NCIRCLES 7
#define MIN_RAD 8
#define MAXR 22        /* MAX_RAD + 2 */
#define STREL 25       /* 12 * 2 + 1 */
#define DTPB 176       /* dilate_kernel's threads per block */
/* constant memory: c_sin_angle, c_cos_angle, c_tX, c_tY, c_strel */
#define C_SIN 0
#define C_COS (4 * NPOINTS)
#define C_TX (8 * NPOINTS)
#define C_TY (C_TX + 4 * NCIRCLES * NPOINTS)
#define C_STREL (C_TY + 4 * NCIRCLES * NPOINTS)

typedef struct lk {
    uint64_t m, n, cells, repeat, rep;
    float *gx, *gy, *gicov, *dil;
    float sn[NPOINTS], cs[NPOINTS], strel[STREL * STREL];
    int32_t tx[NCIRCLES * NPOINTS], ty[NCIRCLES * NPOINTS];
    uint64_t d_gx, d_gy, d_gicov, d_dil;
    float *gpad;    /* dilate_kernel's GICOV scores, padded (pad_gicov); built at its first block */
    int gpad_ok;
    int vf;         /* the host's floats per vector (wl_simd.h) */
    wl_shadow *sh;
} lk;

static const gms_wl_param params[] = {
    {"rows", "219", "frame rows (grad_m) of the chopped first frame"},
    {"cols", "640", "frame columns (grad_n)"},
    {"cells", "10", "cells drawn in the generated frame"},
    {"scale", "1", "multiplies rows, cols and cells"},
    {"repeat", "1", "run the detection N times (gradients uploaded again each time)"},
    {NULL, NULL, NULL},
};

static int dims(const gms_wl_args *a, uint64_t *m, uint64_t *n, uint64_t *c, gms_error *err)
{
    /* at least one GICOV block of one thread */
    if (wl_clamp_scaled(a, "leukocyte", "rows", 1, 2 * MAXR + 1, 1 << 16, m, err) ||
        wl_clamp_scaled(a, "leukocyte", "cols", 1, 2 * MAXR + 1, 1 << 16, n, err) ||
        wl_clamp_scaled(a, "leukocyte", "cells", 1, 1, 100000, c, err))
        return -1;
    if (*m <= 2 * MAXR || *n <= 2 * MAXR)
        return gms_err(err, "workload leukocyte: rows=%llu and cols=%llu must be above %d", (unsigned long long)*m,
                       (unsigned long long)*n, 2 * MAXR);
    if (*m - 2 * MAXR > 1024)
        return gms_err(err, "workload leukocyte: rows=%llu must be at most %d (threads per GICOV block)",
                       (unsigned long long)*m, 1024 + 2 * MAXR);
    return 0;
}

static uint64_t footprint(const gms_wl_args *a)
{
    gms_error e;
    uint64_t m, n, c;
    if (dims(a, &m, &n, &c, &e)) return 0;
    return 4 * 4 * m * n;
}

static int create(const gms_wl_args *a, void **out, gms_error *err)
{
    uint64_t m, n, c;
    if (dims(a, &m, &n, &c, err) || gms_wl_check_range(a, "repeat", 1, 1000000, err)) return -1;
    lk *s = gms_xcalloc(1, sizeof *s);
    s->m = m; s->n = n; s->cells = c;
    s->repeat = gms_wl_u64(a, "repeat");
    s->vf = wl_host_vec_floats();
    s->gx = wl_calloc(m * n, 4); s->gy = wl_calloc(m * n, 4);
    s->gicov = wl_calloc(m * n, 4); s->dil = wl_calloc(m * n, 4);
    for (int i = 0; i < NPOINTS; i++) {
        double t = 2 * M_PI * i / NPOINTS;
        s->sn[i] = (float)sin(t);
        s->cs[i] = (float)cos(t);
        for (int k = 0; k < NCIRCLES; k++) {
            double r = MIN_RAD + 2 * k;
            s->tx[k * NPOINTS + i] = (int32_t)(cos(t) * r);
            s->ty[k * NPOINTS + i] = (int32_t)(sin(t) * r);
        }
    }
    for (int i = 0; i < STREL; i++)
        for (int j = 0; j < STREL; j++)
            s->strel[i * STREL + j] = (i - 12) * (i - 12) + (j - 12) * (j - 12) <= 144 ? 1.0f : 0.0f;
    /* the frame: rings of radius 10 on a noisy background; central-difference gradients */
    gms_rng g;
    gms_rng_seed(&g, gms_wl_seed(a));
    float *img = wl_malloc(m * n, 4);
    for (uint64_t i = 0; i < m * n; i++) img[i] = 0.2f + 0.05f * wl_randf(&g);
    for (uint64_t k = 0; k < c; k++) {
        double cy = wl_randf(&g) * (double)m, cx = wl_randf(&g) * (double)n;
        for (int64_t x = (int64_t)cx - 13; x <= (int64_t)cx + 13; x++)
            for (int64_t y = (int64_t)cy - 13; y <= (int64_t)cy + 13; y++) {
                if (x < 0 || y < 0 || x >= (int64_t)n || y >= (int64_t)m) continue;
                double d = sqrt(((double)x - cx) * ((double)x - cx) + ((double)y - cy) * ((double)y - cy));
                img[(uint64_t)x * m + (uint64_t)y] += (float)(0.6 * exp(-(d - 10) * (d - 10) / 4));
            }
    }
    for (uint64_t x = 0; x < n; x++)
        for (uint64_t y = 0; y < m; y++) {
            uint64_t xl = x ? x - 1 : x, xh = x + 1 < n ? x + 1 : x, yl = y ? y - 1 : y, yh = y + 1 < m ? y + 1 : y;
            s->gx[x * m + y] = (img[xh * m + y] - img[xl * m + y]) / (float)(xh - xl);
            s->gy[x * m + y] = (img[x * m + yh] - img[x * m + yl]) / (float)(yh - yl);
        }
    free(img);
    *out = s;
    return 0;
}

/* Host speed: GCC's generic vectors (SSE on x86-64, scalar code elsewhere; 8 and 16 floats
 * under WL_TARGET_AVX / _AVX512, wl_simd.h); each element gets the scalar code's IEEE
 * operations in its order (the build does not contract a*b + c), so every width gives the
 * same bits */
typedef float lk_v4 __attribute__((vector_size(16)));
typedef int32_t lk_v4i __attribute__((vector_size(16)));
/* v > best ? v : best in each element, as "if (v > best) best = v"; VTI the integer vector of
 * VT's width */
#define LK_VMAX(VT, VTI, v, best) ((VT)(((VTI)(v) & ((v) > (best))) | ((VTI)(best) & ~((v) > (best)))))

/* 4-byte lanes l of mask at base + l*step (most of the emitted loads: without building and
 * testing 32 addresses when the lanes are one run, frontend/emit.c) */
static inline uint8_t ld_prog(wl_warp *x, uint32_t pc, uint32_t mask, gms_mem_kind kind, uint64_t base,
                              uint64_t step, uint8_t areg)
{
    return gms_emit_load_prog(&x->e, pc, mask, kind, 4, base, step, areg);
}

/* Host speed (the dilation, 25 x 25 neighbours per pixel, without a range test each): the
 * m x n scores g (column major) copied into dst (allocated if NULL) between PAD zero rows
 * above and PAD + 3 below each column, PAD zero columns left and PAD + 4 right, so the
 * neighbour (row r - 12 + ei, column c - 12 + ej) of pixel (r, c) is
 * dst[(c + ej) * padm(m) + r + ei] for every r < m + 3, c < n + 4 and ei, ej < STREL, a zero
 * when outside the image (the rows up to m + 2: a vector of 4 rows; the columns up to n + 3:
 * dilate_kernel's last block's lanes beyond the image) */
#define PAD 12
static uint64_t padm(uint64_t m) { return m + 2 * PAD + 3; }
static float *pad_gicov(const float *g, float *dst, uint64_t m, uint64_t n)
{
    uint64_t pm = padm(m), cols = n + 2 * PAD + 4;
    if (!dst) dst = wl_malloc(cols * pm, 4);
    memset(dst, 0, 4 * cols * pm);
    for (uint64_t c = 0; c < n; c++) memcpy(dst + (c + PAD) * pm + PAD, g + c * m, 4 * m);
    return dst;
}

/* Sample point np of the current circle for nl pixels of one column whose gradients are
 * elements e + l of gx and gy (l < nl: consecutive rows): each one's running sum, mean and M2
 * (Welford) as the kernel computes it:
 *   p = gx*cos + gy*sin; sum += p; delta = p - mean; mean += delta / (np + 1);
 *   M2 += delta * (p - mean)
 * Host speed: built for 4, 8 and 16 floats per operation (wl_simd.h; no FMA, each element the
 * scalar code's operations in its order, so every width gives the same bits) and picked by
 * the host's width. */
#define GICOV_BODY(VT, W)                                                                      \
    const float c = s->cs[np], sn = s->sn[np], r = (float)(np + 1);                            \
    const float *gx = s->gx + e, *gy = s->gy + e;                                              \
    VT c4, s4, r4;                                                                             \
    for (int k = 0; k < (W); k++) c4[k] = c, s4[k] = sn, r4[k] = r;                            \
    int l = 0;                                                                                 \
    for (; l + (W) <= nl; l += (W)) {                                                          \
        VT vx, vy, sm, mn, q2;                                                                 \
        memcpy(&vx, gx + l, sizeof vx), memcpy(&vy, gy + l, sizeof vy);                        \
        memcpy(&sm, sum + l, sizeof sm), memcpy(&mn, mean + l, sizeof mn);                     \
        memcpy(&q2, m2 + l, sizeof q2);                                                        \
        VT p = vx * c4 + vy * s4;                                                              \
        sm = sm + p;                                                                           \
        VT delta = p - mn;                                                                     \
        mn = mn + delta / r4;                                                                  \
        q2 = q2 + delta * (p - mn);                                                            \
        memcpy(sum + l, &sm, sizeof sm), memcpy(mean + l, &mn, sizeof mn);                     \
        memcpy(m2 + l, &q2, sizeof q2);                                                        \
    }                                                                                          \
    for (; l < nl; l++) {                                                                      \
        float p = gx[l] * c + gy[l] * sn;                                                      \
        sum[l] += p;                                                                           \
        float delta = p - mean[l];                                                             \
        mean[l] = mean[l] + delta / r;                                                         \
        m2[l] = m2[l] + delta * (p - mean[l]);                                                 \
    }

static void gicov_run4(const lk *s, int np, uint64_t e, int nl, float *sum, float *mean, float *m2)
{
    GICOV_BODY(lk_v4, 4)
}

#ifdef WL_HAVE_X86_SIMD
typedef float lk_v8 __attribute__((vector_size(32)));
typedef float lk_v16 __attribute__((vector_size(64)));
WL_TARGET_AVX static void gicov_run8(const lk *s, int np, uint64_t e, int nl, float *sum, float *mean, float *m2)
{
    GICOV_BODY(lk_v8, 8)
}
WL_TARGET_AVX512 static void gicov_run16(const lk *s, int np, uint64_t e, int nl, float *sum, float *mean,
                                         float *m2)
{
    GICOV_BODY(lk_v16, 16)
}
#endif

/* the host's width: wl_host_vec_floats(), read once per run (vf) */
static void gicov_run(const lk *s, int vf, int np, uint64_t e, int nl, float *sum, float *mean, float *m2)
{
#ifdef WL_HAVE_X86_SIMD
    if (vf == 16 && nl >= 16) { gicov_run16(s, np, e, nl, sum, mean, m2); return; }
    if (vf >= 8 && nl >= 8) { gicov_run8(s, np, e, nl, sum, mean, m2); return; }
#endif
    (void)vf;
    gicov_run4(s, np, e, nl, sum, mean, m2);
}

typedef struct gv_warp {
    wl_wgen ws;
    int k, np;
    uint32_t m;
    float sum[32], mean[32], m2[32], mx[32];
    uint8_t ri, rs, rmx;
} gv_warp;

static int k_gicov(const wl_kernel *k, wl_wgen *ws, gms_error *err)
{
    gv_warp *g = (gv_warp *)ws;
    wl_warp *x = &ws->w;
    lk *s = k->st;
    const uint64_t i = ws->block + MAXR;
    uint64_t a[32];
    (void)err;
    WL_GEN_BEGIN(&ws->g)
    g->m = x->live;
    g->ri = wl_prologue_idx(x, g->m);
    g->rmx = wl_int_at(x, 0x18, g->m, GMS_REG_NONE, GMS_REG_NONE);
    WL_TLANES(x, g->m, l, t) g->mx[l] = 0;
    for (g->k = 0; g->k < NCIRCLES; g->k++) {
        WL_TLANES(x, g->m, l, t) { g->sum[l] = 0; g->mean[l] = 0; g->m2[l] = 0; }
        g->rs = wl_int_at(x, 0x20, g->m, GMS_REG_NONE, GMS_REG_NONE);
        for (g->np = 0; g->np < NPOINTS; g->np++) {
            const int np = g->np, q = g->k * NPOINTS + np;
            /* lane l is row j = t0 + l + MAXR of column i: it samples element e + l of the
             * gradients (column i + tX, row j + tY) */
            const uint64_t e = (uint64_t)((int64_t)i + s->tx[q]) * s->m + (uint64_t)((int64_t)(x->t0 + MAXR) + s->ty[q]);
            uint8_t cx = ld_prog(x, 0x28, g->m, GMS_MEM_LD_CONST, C_TX + 4 * (uint64_t)q, 0, GMS_REG_NONE);
            uint8_t cy = ld_prog(x, 0x30, g->m, GMS_MEM_LD_CONST, C_TY + 4 * (uint64_t)q, 0, GMS_REG_NONE);
            uint8_t ad = wl_int_at(x, 0x38, g->m, cx, g->ri);
            ad = wl_int_at(x, 0x40, g->m, ad, cy);
            uint8_t vx = ld_prog(x, 0x48, g->m, GMS_MEM_LD_TEX, s->d_gx + 4 * e, 4, ad);
            if (x->sh) wl_sh_last(x->sh, x->e.w, 0, s->gx + e, sizeof(float));   /* WL_SH_LD: gx[e + l] */
            uint8_t vy = ld_prog(x, 0x50, g->m, GMS_MEM_LD_TEX, s->d_gy + 4 * e, 4, ad);
            if (x->sh) wl_sh_last(x->sh, x->e.w, 0, s->gy + e, sizeof(float));
            uint8_t c = ld_prog(x, 0x58, g->m, GMS_MEM_LD_CONST, C_COS + 4 * (uint64_t)np, 0, GMS_REG_NONE);
            uint8_t sn = ld_prog(x, 0x60, g->m, GMS_MEM_LD_CONST, C_SIN + 4 * (uint64_t)np, 0, GMS_REG_NONE);
            uint8_t p = wl_fp_at(x, 0x68, g->m, vy, sn, GMS_REG_NONE);
            p = wl_fp_at(x, 0x70, g->m, vx, c, p);
            g->rs = wl_fp_at(x, 0x78, g->m, g->rs, p, GMS_REG_NONE);       /* sum += p */
            uint8_t d = wl_fp_at(x, 0x80, g->m, p, GMS_REG_NONE, GMS_REG_NONE);
            uint8_t r = wl_sfu_at(x, 0x88, g->m, ad);                       /* 1 / (n + 1) */
            uint8_t mn = wl_fp_at(x, 0x90, g->m, d, r, GMS_REG_NONE);
            wl_fp_at(x, 0x98, g->m, p, mn, d);                              /* M2 += delta * (p - mean) */
            wl_bra_at(x, 0xa0, g->m, GMS_REG_NONE);
            /* the lanes: a run from lane 0 (a 1D block), other masks lane by lane */
            if ((g->m & (g->m + 1)) == 0) gicov_run(s, s->vf, np, e, __builtin_popcount(g->m), g->sum, g->mean, g->m2);
            else WL_LANES(g->m, l) gicov_run(s, s->vf, np, e + (uint64_t)l, 1, g->sum + l, g->mean + l, g->m2 + l);
            WL_GEN_YIELD(&ws->g);
        }
        uint8_t mn = wl_fp_at(x, 0xa8, g->m, g->rs, GMS_REG_NONE, GMS_REG_NONE);   /* mean, var, ratio */
        uint8_t v = wl_sfu_at(x, 0xb0, g->m, mn);
        v = wl_fp_at(x, 0xb8, g->m, mn, v, GMS_REG_NONE);
        g->rmx = wl_fp_at(x, 0xc0, g->m, v, g->rmx, GMS_REG_NONE);
        WL_TLANES(x, g->m, l, t) {
            float mean = g->sum[l] / (float)NPOINTS, var = g->m2[l] / (float)(NPOINTS - 1);
            if ((mean * mean) / var > g->mx[l]) g->mx[l] = (mean * mean) / var;
        }
    }
    WL_TLANES(x, g->m, l, t) {
        uint64_t j = t + MAXR;
        a[l] = s->d_gicov + 4 * (i * s->m + j);
        s->gicov[i * s->m + j] = g->mx[l];
    }
    wl_stg_at(x, 0xc8, g->m, 4, a, g->ri, g->rmx);
    WL_SH_ST(x, g->m, float, g->mx[l]);
    wl_exit_at(x, WL_PC_END, g->m);
    WL_GEN_END(&ws->g);
}

typedef struct dl_warp {
    wl_wgen ws;
    int ei, ej;
    uint32_t m, my;
    uint32_t rin[STREL], cin[STREL];   /* lanes whose row - 12 + ei (column - 12 + ej) is in the image */
    float mx[32];
    uint64_t pe[32];   /* lane l's neighbour (ei, ej) = (0, 0) in gpad (lanes not live: 0) */
    int contig;        /* every lane live and pe[l] = pe[0] + l (one column of the image) */
    uint8_t ri, rmx;
} dl_warp;

/* the dilation's gicov, padded: built once the GICOV kernel is done (its block 0 begins) */
static int dl_begin(const wl_kernel *k, uint64_t block, gms_error *err)
{
    lk *s = k->st;
    if (!s->gpad_ok) {
        s->gpad = pad_gicov(s->gicov, s->gpad, s->m, s->n);
        /* the scores are now read only, until the next repetition's GICOV kernel */
        wl_shadow_ro_begin(s->sh, s->d_gicov, s->gicov, 4 * s->m * s->n);
    }
    s->gpad_ok = 1;
    (void)block; (void)err;
    return 0;
}

/* mx[l] = v[l] if v[l] > mx[l], for the lanes of mask: W lanes per operation (4, 8 or 16 by
 * the host's width, wl_simd.h; a comparison and a select, the same result at every width) */
#define MAXL_BODY(VT, VTI, W)                                                                  \
    for (int l = 0; l < 32; l += (W)) {                                                        \
        VTI in;                                                                                \
        for (int k = 0; k < (W); k++) in[k] = -(int32_t)(mask >> (l + k) & 1);                 \
        VT old, v1;                                                                            \
        memcpy(&old, mx + l, sizeof old), memcpy(&v1, v + l, sizeof v1);                       \
        VT nw = LK_VMAX(VT, VTI, v1, old);                                                     \
        nw = (VT)(((VTI)nw & in) | ((VTI)old & ~in));                                          \
        memcpy(mx + l, &nw, sizeof nw);                                                        \
    }

/* the verification's dilation: for the rows ii.. ii+W-1 of column jj of the padded scores gp
 * (pm rows per column), the largest at the no offsets off[] */
#define DIL_BODY(VT, VTI, W)                                                                   \
    VT b;                                                                                      \
    for (int k = 0; k < (W); k++) b[k] = 0;                                                    \
    for (int k = 0; k < no; k++) {                                                             \
        VT v1;                                                                                 \
        memcpy(&v1, c + off[k], sizeof v1);                                                    \
        b = LK_VMAX(VT, VTI, v1, b);                                                           \
    }                                                                                          \
    memcpy(out, &b, sizeof b);

static void max_lanes4(float *mx, const float *v, uint32_t mask) { MAXL_BODY(lk_v4, lk_v4i, 4) }
static void dil_rows4(const float *c, const uint64_t *off, int no, float *out) { DIL_BODY(lk_v4, lk_v4i, 4) }
#ifdef WL_HAVE_X86_SIMD
typedef int32_t lk_v8i __attribute__((vector_size(32)));
typedef int32_t lk_v16i __attribute__((vector_size(64)));
WL_TARGET_AVX static void max_lanes8(float *mx, const float *v, uint32_t mask) { MAXL_BODY(lk_v8, lk_v8i, 8) }
WL_TARGET_AVX512 static void max_lanes16(float *mx, const float *v, uint32_t mask) { MAXL_BODY(lk_v16, lk_v16i, 16) }
WL_TARGET_AVX static void dil_rows8(const float *c, const uint64_t *off, int no, float *out)
{
    DIL_BODY(lk_v8, lk_v8i, 8)
}
WL_TARGET_AVX512 static void dil_rows16(const float *c, const uint64_t *off, int no, float *out)
{
    DIL_BODY(lk_v16, lk_v16i, 16)
}
#endif

static void max_lanes(int vf, float *mx, const float *v, uint32_t mask)
{
#ifdef WL_HAVE_X86_SIMD
    if (vf == 16) { max_lanes16(mx, v, mask); return; }
    if (vf == 8) { max_lanes8(mx, v, mask); return; }
#endif
    (void)vf;
    max_lanes4(mx, v, mask);
}

/* rows ii .. ii + vf - 1 at once; rows past the column's end read the next padded column's
 * first rows (never past the array: the last column read, n + 23, has 4 more after it), and
 * are not stored */
static void dil_rows(int vf, const float *c, const uint64_t *off, int no, float *out)
{
#ifdef WL_HAVE_X86_SIMD
    if (vf == 16) { dil_rows16(c, off, no, out); return; }
    if (vf == 8) { dil_rows8(c, off, no, out); return; }
#endif
    dil_rows4(c, off, no, out);
}

static int k_dilate(const wl_kernel *k, wl_wgen *ws, gms_error *err)
{
    dl_warp *g = (dl_warp *)ws;
    wl_warp *x = &ws->w;
    lk *s = k->st;
    const uint64_t t0 = ws->block * DTPB, m = s->m, n = s->n;
    uint64_t a[32];
    (void)err;
    WL_GEN_BEGIN(&ws->g)
    g->ri = wl_prologue_idx(x, x->live);
    g->m = 0;
    WL_TLANES(x, x->live, l, t) {
        const uint64_t r = (t0 + t) % m, c = (t0 + t) / m;
        if (c < n) g->m |= 1u << l;
        for (uint64_t e = 0; e < STREL; e++) {
            if (r + e >= 12 && r + e - 12 < m) g->rin[e] |= 1u << l;
            if (c + e >= 12 && c + e - 12 < n) g->cin[e] |= 1u << l;
        }
        g->pe[l] = c * padm(m) + r;
    }
    g->contig = x->live == 0xffffffffu;
    for (int l = 1; l < 32 && g->contig; l++) g->contig = g->pe[l] == g->pe[0] + (uint64_t)l;
    wl_int_at(x, 0x18, x->live, g->ri, GMS_REG_NONE);            /* i, j; if (j < img_n) */
    wl_bra_at(x, 0x20, x->live, GMS_REG_NONE);
    WL_TLANES(x, g->m, l, t) g->mx[l] = 0;
    g->rmx = wl_int_at(x, 0x28, g->m, GMS_REG_NONE, GMS_REG_NONE);
    for (g->ei = 0; g->ei < STREL; g->ei++) {
        g->my = g->m & g->rin[g->ei];
        wl_int_at(x, 0x30, g->m, g->ri, GMS_REG_NONE);
        wl_bra_at(x, 0x38, g->m, GMS_REG_NONE);
        for (g->ej = 0; g->ej < STREL && g->my; g->ej++) {
            uint8_t e = ld_prog(x, 0x40, g->my, GMS_MEM_LD_CONST, C_STREL + 4 * (uint64_t)(g->ei * STREL + g->ej), 0,
                                GMS_REG_NONE);
            /* the lanes whose neighbour is in the image under a non-zero strel element */
            uint32_t mx = s->strel[g->ei * STREL + g->ej] != 0 ? g->my & g->cin[g->ej] : 0;
            wl_int_at(x, 0x48, g->my, e, GMS_REG_NONE);                  /* x in range, strel != 0 */
            wl_bra_at(x, 0x50, g->my, GMS_REG_NONE);
            if (mx) {
                /* neighbour (ei, ej) of pixel id = t0 + t (row id % m, column id / m) is
                 * element id + (ej - 12) * m + ei - 12, consecutive for consecutive lanes; its
                 * score from gpad for every lane (outside mx: a padding zero or another score,
                 * never used) */
                const uint64_t dp = (uint64_t)g->ej * padm(m) + (uint64_t)g->ei;
                /* host speed: lanes of one column read consecutive scores, used in place
                 * (a copy's 4-byte stores would stall the compares' 16-byte loads) */
                float vbuf[32];
                const float *v = vbuf;
                if (g->contig) v = s->gpad + g->pe[0] + dp;
                else for (int l = 0; l < 32; l++) vbuf[l] = s->gpad[g->pe[l] + dp];
                uint8_t vr = ld_prog(x, 0x58, mx, GMS_MEM_LD_TEX,
                                     s->d_gicov + 4 * (t0 + x->t0 + ((uint64_t)g->ej - 12) * m + (uint64_t)g->ei - 12), 4, g->ri);
                if (x->sh) {   /* WL_SH_LD */
                    /* lanes of one column: lane l reads score id + (ej - 12) * m + ei - 12 of the
                     * unpadded scores (id its pixel), checked by its place there (the scores are
                     * read only now: wl_shadow_ro_begin in dl_begin); else by value */
                    const int64_t e0 = (int64_t)(t0 + x->t0) + ((int64_t)g->ej - 12) * (int64_t)m + (int64_t)g->ei - 12;
                    const float *want = g->contig && e0 >= 0 ? s->gicov + e0 : v;
                    wl_sh_last(x->sh, x->e.w, 0, want, sizeof(float));
                }
                g->rmx = wl_fp_at(x, 0x60, mx, vr, g->rmx, GMS_REG_NONE);  /* FMNMX */
                max_lanes(s->vf, g->mx, v, mx);
            }
            wl_bra_at(x, 0x68, g->my, GMS_REG_NONE);
        }
        WL_GEN_YIELD(&ws->g);
    }
    WL_TLANES(x, g->m, l, t) {
        uint64_t id = t0 + t, ii = id % m, jj = id / m;
        a[l] = s->d_dil + 4 * (ii * n + jj);
        s->dil[ii * n + jj] = g->mx[l];
    }
    wl_stg_at(x, 0x70, g->m, 4, a, g->ri, g->rmx);
    WL_SH_ST(x, g->m, float, g->mx[l]);
    wl_exit_at(x, WL_PC_END, x->live);
    WL_GEN_END(&ws->g);
}

static int next(void *st, gms_program *p, gms_error *err)
{
    lk *s = st;
    if (s->rep == s->repeat) return 0;
    s->sh = p->shadow;
    uint64_t b = 4 * s->m * s->n;
    if (s->rep == 0) {
        s->d_gx = gms_prog_alloc(p, b, "device_grad_x");
        s->d_gy = gms_prog_alloc(p, b, "device_grad_y");
        s->d_gicov = gms_prog_alloc(p, b, "device_gicov");
        s->d_dil = gms_prog_alloc(p, b, "device_img_dilated");
    }
    wl_shadow_ro_end(s->sh, s->d_gicov);   /* the last repetition's scores (none at the first) */
    gms_prog_copy_h2d(p, s->d_gx, b);
    wl_sh_init_ro(p, s->d_gx, s->gx, b);   /* read by the kernels only */
    gms_prog_copy_h2d(p, s->d_gy, b);
    wl_sh_init_ro(p, s->d_gy, s->gy, b);
    wl_kernel k = {.st = s, .step = k_gicov, .wsize = sizeof(gv_warp),
                   .grid = {(uint32_t)(s->n - 2 * MAXR), 1, 1}, .block = {(uint32_t)(s->m - 2 * MAXR), 1, 1}};
    wl_launch_k(p, "_Z12GICOV_kerneliPf", &k, 32, 0);
    gms_prog_sync(p);
    s->gpad_ok = 0;   /* this repetition's scores */
    wl_kernel kd = {.st = s, .step = k_dilate, .wsize = sizeof(dl_warp), .begin = dl_begin,
                    .grid = {wl_cdiv(s->m * s->n, DTPB), 1, 1}, .block = {DTPB, 1, 1}};
    wl_launch_k(p, "_Z13dilate_kerneliiiiPf", &kd, 24, 0);
    gms_prog_sync(p);
    gms_prog_copy_d2h(p, s->d_gicov, b);
    gms_prog_copy_d2h(p, s->d_dil, b);
    s->rep++;
    (void)err;
    return 1;
}

/* plain CPU detection: GICOV scores of the interior pixels, then the disk dilation (host
 * speed: a column's pixels at once, 4 per operation, each with the scalar code's operations) */
static int verify(void *st, gms_error *err)
{
    lk *s = st;
    uint64_t m = s->m, n = s->n;
    const int nj = (int)(m - 2 * MAXR);
    float *gv = wl_calloc(m * n, 4), *dl = wl_calloc(m * n, 4), *w = wl_malloc(4 * (uint64_t)nj, 4);
    float *sum = w, *mean = w + nj, *m2 = w + 2 * nj, *best = w + 3 * nj;
    for (uint64_t i = MAXR; i < n - MAXR; i++) {
        memset(best, 0, sizeof(float) * (size_t)nj);
        for (int k = 0; k < NCIRCLES; k++) {
            memset(w, 0, sizeof(float) * 3 * (size_t)nj);
            for (int q = 0; q < NPOINTS; q++)   /* rows j = MAXR + l: gradients at (i + tX, j + tY) */
                gicov_run(s, s->vf, q, (uint64_t)((int64_t)i + s->tx[k * NPOINTS + q]) * m + (uint64_t)(MAXR + s->ty[k * NPOINTS + q]),
                          nj, sum, mean, m2);
            for (int l = 0; l < nj; l++) {
                float mu = sum[l] / (float)NPOINTS, var = m2[l] / (float)(NPOINTS - 1);
                if (mu * mu / var > best[l]) best[l] = mu * mu / var;
            }
        }
        memcpy(gv + i * m + MAXR, best, sizeof(float) * (size_t)nj);
    }
    /* the largest score under the disk: neighbours outside the image are padding zeros, which
     * leave it as it is (scores and the running largest are +0 or above, never NaN) */
    float *gp = pad_gicov(gv, NULL, m, n);
    const uint64_t pm = padm(m);
    const int vf = s->vf, rw = vf;
    uint64_t off[STREL * STREL];
    int no = 0;
    for (int ei = 0; ei < STREL; ei++)
        for (int ej = 0; ej < STREL; ej++)
            if (s->strel[ei * STREL + ej]) off[no++] = (uint64_t)ej * pm + (uint64_t)ei;
    for (uint64_t jj = 0; jj < n; jj++)
        for (uint64_t ii = 0; ii < m; ii += (uint64_t)rw) {   /* rows ii..ii+rw-1 (past m: not stored) */
            float b[16];
            dil_rows(vf, gp + jj * pm + ii, off, no, b);
            for (uint64_t r = ii; r < m && r < ii + (uint64_t)rw; r++) dl[r * n + jj] = b[r - ii];
        }
    free(gp); free(w);
    void *o1, *o2;
    const float *g1 = wl_result(s->sh, s->d_gicov, s->gicov, m * n, 4, &o1);
    const float *g2 = wl_result(s->sh, s->d_dil, s->dil, m * n, 4, &o2);
    int rc = wl_check_f32("leukocyte", "GICOV", g1, gv, m * n, 1e-4, 1e-6, err) ||
             wl_check_f32("leukocyte", "dilated GICOV", g2, dl, m * n, 1e-4, 1e-6, err);
    free(o1); free(o2); free(gv); free(dl);
    return rc ? -1 : 0;
}

static void destroy(void *st)
{
    lk *s = st;
    if (!s) return;
    free(s->gx); free(s->gy); free(s->gicov); free(s->dil); free(s->gpad);
    free(s);
}

const gms_workload_ops gms_wl_leukocyte = {
    .name = "leukocyte", .suite = "rodinia", .domain = "medical imaging", .ri = "-",
    .summary = "leukocyte detection: GICOV scores along 7 circles per pixel (texture), then a disk dilation (LKC)",
    .params = params, .create = create, .next = next, .verify = verify, .destroy = destroy,
    .footprint = footprint,
};
