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

/* one sample point's contribution, as the kernel computes it */
static inline void gicov_step(const lk *s, int k, int np, uint64_t i, uint64_t j, float *sum, float *mean, float *m2)
{
    uint64_t x = (uint64_t)((int64_t)i + s->tx[k * NPOINTS + np]), y = (uint64_t)((int64_t)j + s->ty[k * NPOINTS + np]);
    uint64_t ad = x * s->m + y;
    float p = s->gx[ad] * s->cs[np] + s->gy[ad] * s->sn[np];
    *sum += p;
    float delta = p - *mean;
    *mean = *mean + delta / (float)(np + 1);
    *m2 = *m2 + delta * (p - *mean);
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
            int kk = g->k, np = g->np;
            for (int l = 0; l < 32; l++) a[l] = C_TX + 4 * (uint64_t)(kk * NPOINTS + np);
            uint8_t cx = gms_emit_load(&x->e, 0x28, g->m, GMS_MEM_LD_CONST, 4, a, GMS_REG_NONE);
            for (int l = 0; l < 32; l++) a[l] = C_TY + 4 * (uint64_t)(kk * NPOINTS + np);
            uint8_t cy = gms_emit_load(&x->e, 0x30, g->m, GMS_MEM_LD_CONST, 4, a, GMS_REG_NONE);
            uint8_t ad = wl_int_at(x, 0x38, g->m, cx, g->ri);
            ad = wl_int_at(x, 0x40, g->m, ad, cy);
            WL_TLANES(x, g->m, l, t) {
                uint64_t xx = (uint64_t)((int64_t)i + s->tx[kk * NPOINTS + np]);
                uint64_t yy = (uint64_t)((int64_t)(t + MAXR) + s->ty[kk * NPOINTS + np]);
                a[l] = s->d_gx + 4 * (xx * s->m + yy);
            }
            uint8_t vx = gms_emit_load(&x->e, 0x48, g->m, GMS_MEM_LD_TEX, 4, a, ad);
            WL_SH_LD(x, g->m, float, s->gx[(a[l] - s->d_gx) / 4]);
            WL_TLANES(x, g->m, l, t) a[l] += s->d_gy - s->d_gx;
            uint8_t vy = gms_emit_load(&x->e, 0x50, g->m, GMS_MEM_LD_TEX, 4, a, ad);
            WL_SH_LD(x, g->m, float, s->gy[(a[l] - s->d_gy) / 4]);
            for (int l = 0; l < 32; l++) a[l] = C_COS + 4 * (uint64_t)np;
            uint8_t c = gms_emit_load(&x->e, 0x58, g->m, GMS_MEM_LD_CONST, 4, a, GMS_REG_NONE);
            for (int l = 0; l < 32; l++) a[l] = C_SIN + 4 * (uint64_t)np;
            uint8_t sn = gms_emit_load(&x->e, 0x60, g->m, GMS_MEM_LD_CONST, 4, a, GMS_REG_NONE);
            uint8_t p = wl_fp_at(x, 0x68, g->m, vy, sn, GMS_REG_NONE);
            p = wl_fp_at(x, 0x70, g->m, vx, c, p);
            g->rs = wl_fp_at(x, 0x78, g->m, g->rs, p, GMS_REG_NONE);       /* sum += p */
            uint8_t d = wl_fp_at(x, 0x80, g->m, p, GMS_REG_NONE, GMS_REG_NONE);
            uint8_t r = wl_sfu_at(x, 0x88, g->m, ad);                       /* 1 / (n + 1) */
            uint8_t mn = wl_fp_at(x, 0x90, g->m, d, r, GMS_REG_NONE);
            wl_fp_at(x, 0x98, g->m, p, mn, d);                              /* M2 += delta * (p - mean) */
            wl_bra_at(x, 0xa0, g->m, GMS_REG_NONE);
            WL_TLANES(x, g->m, l, t) gicov_step(s, kk, np, i, t + MAXR, &g->sum[l], &g->mean[l], &g->m2[l]);
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
    float mx[32];
    uint8_t ri, rmx;
} dl_warp;

static int k_dilate(const wl_kernel *k, wl_wgen *ws, gms_error *err)
{
    dl_warp *g = (dl_warp *)ws;
    wl_warp *x = &ws->w;
    lk *s = k->st;
    const uint64_t t0 = ws->block * DTPB;
    uint64_t a[32];
    (void)err;
    WL_GEN_BEGIN(&ws->g)
    g->ri = wl_prologue_idx(x, x->live);
    g->m = 0;
    WL_TLANES(x, x->live, l, t) if ((t0 + t) / s->m < s->n) g->m |= 1u << l;
    wl_int_at(x, 0x18, x->live, g->ri, GMS_REG_NONE);            /* i, j; if (j < img_n) */
    wl_bra_at(x, 0x20, x->live, GMS_REG_NONE);
    WL_TLANES(x, g->m, l, t) g->mx[l] = 0;
    g->rmx = wl_int_at(x, 0x28, g->m, GMS_REG_NONE, GMS_REG_NONE);
    for (g->ei = 0; g->ei < STREL; g->ei++) {
        g->my = 0;
        WL_TLANES(x, g->m, l, t) {
            int64_t y = (int64_t)((t0 + t) % s->m) - 12 + g->ei;
            if (y >= 0 && y < (int64_t)s->m) g->my |= 1u << l;
        }
        wl_int_at(x, 0x30, g->m, g->ri, GMS_REG_NONE);
        wl_bra_at(x, 0x38, g->m, GMS_REG_NONE);
        for (g->ej = 0; g->ej < STREL && g->my; g->ej++) {
            for (int l = 0; l < 32; l++) a[l] = C_STREL + 4 * (uint64_t)(g->ei * STREL + g->ej);
            uint8_t e = gms_emit_load(&x->e, 0x40, g->my, GMS_MEM_LD_CONST, 4, a, GMS_REG_NONE);
            uint32_t mx = 0;
            if (s->strel[g->ei * STREL + g->ej] != 0)
                WL_TLANES(x, g->my, l, t) {
                    int64_t xx = (int64_t)((t0 + t) / s->m) - 12 + g->ej;
                    if (xx >= 0 && xx < (int64_t)s->n) {
                        mx |= 1u << l;
                        int64_t y = (int64_t)((t0 + t) % s->m) - 12 + g->ei;
                        a[l] = s->d_gicov + 4 * ((uint64_t)xx * s->m + (uint64_t)y);
                    }
                }
            wl_int_at(x, 0x48, g->my, e, GMS_REG_NONE);                  /* x in range, strel != 0 */
            wl_bra_at(x, 0x50, g->my, GMS_REG_NONE);
            if (mx) {
                uint8_t v = gms_emit_load(&x->e, 0x58, mx, GMS_MEM_LD_TEX, 4, a, g->ri);
                WL_SH_LD(x, mx, float, s->gicov[(a[l] - s->d_gicov) / 4]);
                g->rmx = wl_fp_at(x, 0x60, mx, v, g->rmx, GMS_REG_NONE);  /* FMNMX */
                WL_TLANES(x, mx, l, t) {
                    float v2 = s->gicov[(a[l] - s->d_gicov) / 4];
                    if (v2 > g->mx[l]) g->mx[l] = v2;
                }
            }
            wl_bra_at(x, 0x68, g->my, GMS_REG_NONE);
        }
        WL_GEN_YIELD(&ws->g);
    }
    WL_TLANES(x, g->m, l, t) {
        uint64_t id = t0 + t, ii = id % s->m, jj = id / s->m;
        a[l] = s->d_dil + 4 * (ii * s->n + jj);
        s->dil[ii * s->n + jj] = g->mx[l];
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
    gms_prog_copy_h2d(p, s->d_gx, b);
    wl_sh_init(p, s->d_gx, s->gx, b);
    gms_prog_copy_h2d(p, s->d_gy, b);
    wl_sh_init(p, s->d_gy, s->gy, b);
    wl_kernel k = {.st = s, .step = k_gicov, .wsize = sizeof(gv_warp),
                   .grid = {(uint32_t)(s->n - 2 * MAXR), 1, 1}, .block = {(uint32_t)(s->m - 2 * MAXR), 1, 1}};
    wl_launch_k(p, "_Z12GICOV_kerneliPf", &k, 32, 0);
    gms_prog_sync(p);
    wl_kernel kd = {.st = s, .step = k_dilate, .wsize = sizeof(dl_warp),
                    .grid = {wl_cdiv(s->m * s->n, DTPB), 1, 1}, .block = {DTPB, 1, 1}};
    wl_launch_k(p, "_Z13dilate_kerneliiiiPf", &kd, 24, 0);
    gms_prog_sync(p);
    gms_prog_copy_d2h(p, s->d_gicov, b);
    gms_prog_copy_d2h(p, s->d_dil, b);
    s->rep++;
    (void)err;
    return 1;
}

/* plain CPU detection: GICOV scores of the interior pixels, then the disk dilation */
static int verify(void *st, gms_error *err)
{
    lk *s = st;
    uint64_t m = s->m, n = s->n;
    float *gv = wl_calloc(m * n, 4), *dl = wl_calloc(m * n, 4);
    for (uint64_t i = MAXR; i < n - MAXR; i++)
        for (uint64_t j = MAXR; j < m - MAXR; j++) {
            float best = 0;
            for (int k = 0; k < NCIRCLES; k++) {
                float sum = 0, mean = 0, m2 = 0;
                for (int q = 0; q < NPOINTS; q++) gicov_step(s, k, q, i, j, &sum, &mean, &m2);
                float mu = sum / (float)NPOINTS, var = m2 / (float)(NPOINTS - 1);
                if (mu * mu / var > best) best = mu * mu / var;
            }
            gv[i * m + j] = best;
        }
    for (uint64_t jj = 0; jj < n; jj++)
        for (uint64_t ii = 0; ii < m; ii++) {
            float best = 0;
            for (int64_t ei = 0; ei < STREL; ei++)
                for (int64_t ej = 0; ej < STREL; ej++) {
                    int64_t y = (int64_t)ii - 12 + ei, xx = (int64_t)jj - 12 + ej;
                    if (y < 0 || y >= (int64_t)m || xx < 0 || xx >= (int64_t)n || !s->strel[ei * STREL + ej]) continue;
                    float v = gv[(uint64_t)xx * m + (uint64_t)y];
                    if (v > best) best = v;
                }
            dl[ii * n + jj] = best;
        }
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
    free(s->gx); free(s->gy); free(s->gicov); free(s->dil);
    free(s);
}

const gms_workload_ops gms_wl_leukocyte = {
    .name = "leukocyte", .suite = "rodinia", .domain = "medical imaging", .ri = "-",
    .summary = "leukocyte detection: GICOV scores along 7 circles per pixel (texture), then a disk dilation (LKC)",
    .params = params, .create = create, .next = next, .verify = verify, .destroy = destroy,
    .footprint = footprint,
};
