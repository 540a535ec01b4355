/* heartwall (Rodinia 3.1, CUDA): tracks the inner (endo) and outer (epi) wall of a mouse
 * heart through the frames of an ultrasound video. One launch of `kernel` per frame, one
 * block of 512 threads per tracked point (20 endo + 31 epi = 51 blocks); before each launch
 * the host copies the frame to the device. In the block of point p:
 *   frame 0   thread 0 records the point's location; every thread copies its share of the
 *             (2*tSize+1)^2 template around the point from the frame into T[p]
 *   frame f>0 selection: the (2*sSize+1)^2 search window around the point -> in2[p]; BAR
 *             rotation: T[p] rotated by 180 degrees into shared memory; BAR
 *             convolution: every element of the full convolution of in2[p] with it
 *             (conv_rows^2, conv_rows = in_rows + in2_rows - 1), each a loop over up to
 *             in_rows^2 products (shared template x global in2) -> conv[p]; BAR
 *             search: thread c < 2*(sSize-tSize)+1 takes column c of the region where the
 *             template lies wholly inside the window and keeps its largest element (shared
 *             par_max_val / par_max_coo); BAR; thread 0 takes the largest of those, moves the
 *             point by its offset from the window's centre and records the location.
 * The loops "ei = tx; while (ei < n) { ...; ei += 512; }" are the source's; arrays are column
 * major as in the source (index col * rows + row).
 *
 * Differences (docs/workloads-rodinia.md): the source normalises the convolution into a
 * correlation coefficient (cumulative sums of the padded window and its square, a mask
 * convolution, the template's deviation: about 15 more block-wide steps over arrays of the
 * same sizes) before the search; here the search runs on the raw convolution, so the kernel
 * has the source's dominant loads (template, window, convolution) and not those steps. A
 * moved point is kept at least sSize from the frame's edges (the source trusts its video).
 *
 * Input: test.avi (609 x 590 pixels, 104 frames; the suite's run script tracks 20) becomes a
 * generated video of the same size: two bright elliptical rings (the walls) whose radii beat
 * with a period of 10 frames over a fixed speckle texture plus per-frame noise, the points
 * spread evenly on the rings of frame 0. The kernel's long loops are resumable (wl_gen.h);
 * wl_kernel.begin computes a block's results at dispatch, the warps only emit. */
#include "workloads/wl_buf.h"
#include "workloads/wl_clamp.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <immintrin.h>
#endif

#define NT 512   /* NUMBER_THREADS */
#define HW_MAX_IN_R 2001   /* template rows at most: tsize <= 1000 */

typedef struct hw {
    uint64_t rows, cols, frames, endo, epi, np, ts, ss, repeat, rep, f;
    uint64_t in_r, in_e, in2_r, in2_e, cv_r, cv_e, sub;
    float *video;            /* frames x rows x cols, each frame column major */
    int32_t *row0, *col0;    /* the points in frame 0 */
    int32_t *row, *col;      /* d_Row / d_Col as the kernels leave them */
    int32_t *orow, *ocol;    /* their values when the current launch began (for the shadow) */
    int32_t *trow, *tcol;    /* d_tRowLoc / d_tColLoc: points x frames */
    float *T, *in2, *conv;   /* per point: template, search window, convolution */
    float *pad;              /* hw_begin's scratch: a window, its columns padded with zeros */
    uint64_t pad_h;          /* padded column height */
    uint64_t d_frame, d_row, d_col, d_trow, d_tcol, d_T, d_in2, d_conv;
    wl_shadow *sh;
} hw;

static const gms_wl_param params[] = {
    {"frames", "20", "video frames tracked (the run script's 20 of test.avi's 104)"},
    {"rows", "609", "frame rows (test.avi)"},
    {"cols", "590", "frame columns (test.avi)"},
    {"endo", "20", "points on the inner wall (endoPoints)"},
    {"epi", "31", "points on the outer wall (epiPoints)"},
    {"tsize", "25", "template radius (tSize): templates of (2*tsize+1)^2 pixels"},
    {"ssize", "40", "search radius (sSize), above tsize: windows of (2*ssize+1)^2 pixels"},
    {"scale", "1", "multiplies frames, rows, cols, endo, epi, tsize and ssize (a smaller video)"},
    {"repeat", "1", "track the video N times (the frames uploaded again each time)"},
    {NULL, NULL, NULL},
};

typedef struct hw_dims { uint64_t frames, rows, cols, endo, epi, ts, ss; } hw_dims;

static int dims(const gms_wl_args *a, hw_dims *d, gms_error *err)
{
    if (wl_clamp_scaled(a, "heartwall", "tsize", 1, 1, 1000, &d->ts, err) ||
        wl_clamp_scaled(a, "heartwall", "ssize", 1, d->ts + 1, 2000, &d->ss, err) ||
        wl_clamp_scaled(a, "heartwall", "frames", 1, 2, 100000, &d->frames, err) ||
        wl_clamp_scaled(a, "heartwall", "endo", 1, 1, 10000, &d->endo, err) ||
        wl_clamp_scaled(a, "heartwall", "epi", 1, 1, 10000, &d->epi, err))
        return -1;
    if (d->ss <= d->ts)
        return gms_err(err, "workload heartwall: ssize=%llu must be above tsize=%llu", (unsigned long long)d->ss,
                       (unsigned long long)d->ts);
    if (2 * (d->ss - d->ts) + 1 > NT)
        return gms_err(err, "workload heartwall: ssize - tsize = %llu must be at most 255",
                       (unsigned long long)(d->ss - d->ts));
    if (d->frames < 2) return gms_err(err, "workload heartwall: frames=%llu must be at least 2", (unsigned long long)d->frames);
    /* the rings need room for the search windows around them */
    uint64_t min = 2 * d->ss + 5;
    if (wl_clamp_scaled(a, "heartwall", "rows", 1, min, 1 << 16, &d->rows, err) ||
        wl_clamp_scaled(a, "heartwall", "cols", 1, min, 1 << 16, &d->cols, err))
        return -1;
    if (d->rows < min || d->cols < min)
        return gms_err(err, "workload heartwall: rows=%llu and cols=%llu must be at least 2*ssize+5 = %llu",
                       (unsigned long long)d->rows, (unsigned long long)d->cols, (unsigned long long)min);
    return 0;
}

static uint64_t bytes_of(const hw_dims *d)
{
    uint64_t np = d->endo + d->epi, in_r = 2 * d->ts + 1, in2_r = 2 * d->ss + 1, cv_r = in_r + in2_r - 1;
    return 4 * (d->rows * d->cols + 2 * np + 2 * np * d->frames + np * (in_r * in_r + in2_r * in2_r + cv_r * cv_r));
}

static uint64_t footprint(const gms_wl_args *a)
{
    gms_error e;
    hw_dims d;
    if (dims(a, &d, &e)) return 0;
    return bytes_of(&d);
}

/* the generated video: rings at normalised elliptical radii re(f), rp(f) */
static void make_video(hw *s, uint64_t seed)
{
    gms_rng g;
    gms_rng_seed(&g, seed);
    uint64_t R = s->rows, C = s->cols, n = R * C;
    float *speckle = wl_malloc(n, 4);
    for (uint64_t i = 0; i < n; i++) speckle[i] = 0.3f * wl_randf(&g);
    double cr = (double)(R - 1) / 2, cc = (double)(C - 1) / 2;
    double hr = cr - (double)s->ss - 1, hc = cc - (double)s->ss - 1;   /* the rings' room */
    /* host speed: the rings are symmetric about both centre lines, and so are their bits:
     * pixel (R-1-r, c) has r' - cr = -(r - cr) exactly (small integers and halves), the
     * division and the square keep the sign out, so rho, and the ring value, are those of
     * (r, c). Each frame's ring values are computed over one quadrant (rows r <= R-1-r,
     * columns c <= C-1-c) and read back for the other three */
    const uint64_t RQ = (R + 1) / 2, CQ = (C + 1) / 2;
    float *ring = wl_malloc(RQ * CQ, 4);
    for (uint64_t f = 0; f < s->frames; f++) {
        double beat = sin(2 * M_PI * (double)f / 10.0);
        double re = 0.5 * (1 + 0.1 * beat), rp = 0.9 * (1 + 0.05 * beat);
        float *fr = s->video + f * n;
        for (uint64_t c = 0; c < CQ; c++)
            for (uint64_t r = 0; r < RQ; r++) {
                double y = ((double)r - cr) / hr, x = ((double)c - cc) / hc, rho = sqrt(x * x + y * y);
                double de = pow((rho - re) / 0.06, 2), dp = pow((rho - rp) / 0.06, 2);
                /* 0.5 * exp(-de) + 0.5 * exp(-dp), the same bits; host speed (two thirds of
                 * the pixels need one exp): a term under 2^-54 times the other is below half
                 * an ulp of it and leaves the sum as it is, so it is not computed. de > dp + 40
                 * makes it at most e^-40 (1 + 2^-51) < 2^-54 / 13 times the other (exp's
                 * error is under 1 ulp; where the other is subnormal, it rounds to 0). */
                double v = de > dp + 40 ? 0.5 * exp(-dp)
                         : dp > de + 40 ? 0.5 * exp(-de) : 0.5 * exp(-de) + 0.5 * exp(-dp);
                ring[c * RQ + r] = (float)v;
            }
        for (uint64_t c = 0; c < C; c++) {
            const float *rc = ring + (c < CQ ? c : C - 1 - c) * RQ;
            for (uint64_t r = 0; r < R; r++)
                fr[c * R + r] = rc[r < RQ ? r : R - 1 - r] + speckle[c * R + r] + 0.05f * wl_randf(&g);
        }
    }
    free(ring);
    free(speckle);
    for (uint64_t p = 0; p < s->np; p++) {
        int epi = p >= s->endo;
        uint64_t k = epi ? p - s->endo : p, m = epi ? s->epi : s->endo;
        double t = 2 * M_PI * ((double)k + 0.5) / (double)m, rad = epi ? 0.9 : 0.5;
        s->row0[p] = (int32_t)lround(cr + rad * hr * sin(t));
        s->col0[p] = (int32_t)lround(cc + rad * hc * cos(t));
    }
}

static int create(const gms_wl_args *a, void **out, gms_error *err)
{
    hw_dims d;
    if (dims(a, &d, err) || gms_wl_check_range(a, "repeat", 1, 1000000, err)) return -1;
    hw *s = gms_xcalloc(1, sizeof *s);
    s->rows = d.rows; s->cols = d.cols; s->frames = d.frames; s->endo = d.endo; s->epi = d.epi;
    s->np = d.endo + d.epi; s->ts = d.ts; s->ss = d.ss;
    s->repeat = gms_wl_u64(a, "repeat");
    s->in_r = 2 * d.ts + 1; s->in_e = s->in_r * s->in_r;
    s->in2_r = 2 * d.ss + 1; s->in2_e = s->in2_r * s->in2_r;
    s->cv_r = s->in_r + s->in2_r - 1; s->cv_e = s->cv_r * s->cv_r;
    s->sub = s->in2_r - s->in_r + 1;
    s->video = wl_malloc(d.frames * d.rows * d.cols, 4);
    s->row0 = wl_calloc(s->np, 4); s->col0 = wl_calloc(s->np, 4);
    s->row = wl_calloc(s->np, 4); s->col = wl_calloc(s->np, 4);
    s->orow = wl_calloc(s->np, 4); s->ocol = wl_calloc(s->np, 4);
    s->trow = wl_calloc(s->np * d.frames, 4); s->tcol = wl_calloc(s->np * d.frames, 4);
    s->T = wl_calloc(s->np * s->in_e, 4);
    s->in2 = wl_calloc(s->np * s->in2_e, 4);
    s->conv = wl_calloc(s->np * s->cv_e, 4);
    s->pad_h = s->in2_r + 2 * (s->in_r - 1) + 16;
    s->pad = wl_calloc(s->in2_r * s->pad_h, 4);
    make_video(s, gms_wl_seed(a));
    *out = s;
    return 0;
}

/* conv element ei's loop bounds (0-based, inclusive): ja over template columns, ia rows */
static void conv_bounds(const hw *s, uint64_t ei, int64_t *ja1, int64_t *ja2, int64_t *ia1, int64_t *ia2)
{
    int64_t ic = (int64_t)(ei % s->cv_r), jc = (int64_t)(ei / s->cv_r), n2 = (int64_t)s->in2_r - 1, n1 = (int64_t)s->in_r - 1;
    *ja1 = jc - n2 > 0 ? jc - n2 : 0;
    *ja2 = jc < n1 ? jc : n1;
    *ia1 = ic - n2 > 0 ? ic - n2 : 0;
    *ia2 = ic < n1 ? ic : n1;
}

static int32_t clampi(int64_t v, int64_t lo, int64_t hi) { return (int32_t)(v < lo ? lo : v > hi ? hi : v); }

/* block p of frame f's launch: the whole block's results, at dispatch */
static int hw_begin(const wl_kernel *k, uint64_t p, gms_error *err)
{
    hw *s = k->st;
    uint64_t f = (uint64_t)k->arg[0], R = s->rows;
    const float *fr = s->video + f * R * s->cols;
    s->orow[p] = s->row[p];
    s->ocol[p] = s->col[p];
    int64_t r0 = s->row[p], c0 = s->col[p];
    if (f == 0) {
        s->trow[p * s->frames] = (int32_t)r0;
        s->tcol[p * s->frames] = (int32_t)c0;
        for (uint64_t ei = 0; ei < s->in_e; ei++) {
            int64_t r = (int64_t)(ei % s->in_r), c = (int64_t)(ei / s->in_r);
            s->T[p * s->in_e + ei] = fr[(uint64_t)(c0 - (int64_t)s->ts + c) * R + (uint64_t)(r0 - (int64_t)s->ts + r)];
        }
        return 0;
    }
    float *in2 = s->in2 + p * s->in2_e, *cv = s->conv + p * s->cv_e;
    const float *T = s->T + p * s->in_e;
    for (uint64_t ei = 0; ei < s->in2_e; ei++) {
        int64_t r = (int64_t)(ei % s->in2_r), c = (int64_t)(ei / s->in2_r);
        in2[ei] = fr[(uint64_t)(c0 - (int64_t)s->ss + c) * R + (uint64_t)(r0 - (int64_t)s->ss + r)];
    }
#if defined(__SSE2__)
    /* Host speed: 16 elements of a column at once, one SSE lane each. Every row ia of the
     * template is visited (0..n1), the window's columns padded with zeros above and below,
     * so an element's terms outside its own row range [ia1, ia2] are products with 0: a
     * sum is never -0 (it starts at +0 and IEEE addition gives -0 only from two -0), so
     * adding +-0 leaves it unchanged, and each element's real terms come in the scalar
     * loop's order (ja outer, ia inner) with its operations: the same bits. */
    {
        const int64_t n1 = (int64_t)s->in_r - 1, n2 = (int64_t)s->in2_r - 1, H = (int64_t)s->pad_h;
        const int64_t cr = (int64_t)s->cv_r;
        for (int64_t c = 0; c <= n2; c++) memcpy(s->pad + c * H + n1, in2 + c * (n2 + 1), sizeof(float) * (size_t)(n2 + 1));
        for (int64_t jc = 0; jc < cr; jc++) {
            const int64_t ja1 = jc - n2 > 0 ? jc - n2 : 0, ja2 = jc < n1 ? jc : n1;
            for (int64_t ic0 = 0; ic0 < cr; ic0 += 16) {
                __m128 s0 = _mm_setzero_ps(), s1 = s0, s2 = s0, s3 = s0;
                for (int64_t ja = ja1; ja <= ja2; ja++) {
                    const float *tc = T + s->in_e - 1 - (uint64_t)((int64_t)s->in_r * ja);   /* row ia: tc[-ia] */
                    const float *pc = s->pad + (jc - ja) * H + n1 + ic0;                   /* row ia: pc - ia */
                    for (int64_t ia = 0; ia <= n1; ia++) {
                        const __m128 t = _mm_set1_ps(tc[-ia]);
                        const float *q = pc - ia;
                        s0 = _mm_add_ps(s0, _mm_mul_ps(t, _mm_loadu_ps(q)));
                        s1 = _mm_add_ps(s1, _mm_mul_ps(t, _mm_loadu_ps(q + 4)));
                        s2 = _mm_add_ps(s2, _mm_mul_ps(t, _mm_loadu_ps(q + 8)));
                        s3 = _mm_add_ps(s3, _mm_mul_ps(t, _mm_loadu_ps(q + 12)));
                    }
                }
                float out[16];
                _mm_storeu_ps(out, s0);
                _mm_storeu_ps(out + 4, s1);
                _mm_storeu_ps(out + 8, s2);
                _mm_storeu_ps(out + 12, s3);
                const int64_t n = cr - ic0 < 16 ? cr - ic0 : 16;
                memcpy(cv + jc * cr + ic0, out, sizeof(float) * (size_t)n);
            }
        }
    }
#else
    for (uint64_t ei = 0; ei < s->cv_e; ei++) {
        int64_t ja1, ja2, ia1, ia2, ic = (int64_t)(ei % s->cv_r), jc = (int64_t)(ei / s->cv_r);
        conv_bounds(s, ei, &ja1, &ja2, &ia1, &ia2);
        float sum = 0;
        for (int64_t ja = ja1; ja <= ja2; ja++)
            for (int64_t ia = ia1; ia <= ia2; ia++)
                sum = sum + T[s->in_e - 1 - (uint64_t)((int64_t)s->in_r * ja + ia)] *
                                in2[(uint64_t)((int64_t)s->in2_r * (jc - ja) + ic - ia)];
        cv[ei] = sum;
    }
#endif
    float best = 0;
    uint64_t bc = 0, br = 0;
    int first = 1;
    for (uint64_t c = 0; c < s->sub; c++)
        for (uint64_t r = 0; r < s->sub; r++) {
            float v = cv[(c + s->in_r - 1) * s->cv_r + r + s->in_r - 1];
            if (first || v > best) { best = v; bc = c; br = r; first = 0; }
        }
    int64_t mv = (int64_t)(s->ss - s->ts);
    s->row[p] = clampi(r0 + (int64_t)br - mv, (int64_t)s->ss, (int64_t)(R - 1 - s->ss));
    s->col[p] = clampi(c0 + (int64_t)bc - mv, (int64_t)s->ss, (int64_t)(s->cols - 1 - s->ss));
    s->trow[p * s->frames + f] = s->row[p];
    s->tcol[p * s->frames + f] = s->col[p];
    (void)err;
    return 0;
}

/* 4-byte lanes of mask all at addr (half the emitted loads: the template's shared element;
 * without building and testing 32 addresses when the lanes are one run, frontend/emit.c) */
static inline uint8_t ld_bcast(wl_warp *x, uint32_t pc, uint32_t mask, gms_mem_kind kind, uint64_t addr, uint8_t areg)
{
    return gms_emit_load_prog(&x->e, pc, mask, kind, 4, addr, 0, areg);
}

typedef struct hw_warp {
    wl_wgen ws;
    uint64_t t;              /* round of the "ei += 512" loop */
    int64_t ja, jlo, jhi;    /* the convolution's column loop (union over the lanes) */
    uint32_t m;              /* the convolution's lanes with an element this round */
    uint32_t cstart;         /* those of its first row (ic = 0): a column of conv starts there */
    int32_t ja1[32], ja2[32], ia1[32], ia2[32], ic[32], jc[32];   /* their loop bounds */
    int64_t off[32];         /* in2 index of their (ja, ia) = (0, 0) product: in2_r * jc + ic */
    int64_t r0, c0;          /* the point when the block began (a later frame's block may begin
                                before this one's warps are all generated) */
    uint8_t ri, rr, rc, acc;
} hw_warp;

#define SH_PAR(s) (4 * (s)->in_e)   /* shared: d_in_mod_temp, then par_max_val, par_max_coo */

static int hw_step(const wl_kernel *k, wl_wgen *ws, gms_error *err)
{
    hw_warp *g = (hw_warp *)ws;
    wl_warp *x = &ws->w;
    hw *s = k->st;
    const uint64_t f = (uint64_t)k->arg[0], p = ws->block, R = s->rows;
    if (!ws->g.resume) { g->r0 = s->orow[p]; g->c0 = s->ocol[p]; }
    const int64_t r0 = g->r0, c0 = g->c0;
    uint64_t a[32], ei[32];
    uint32_t m;
    (void)err;
    WL_GEN_BEGIN(&ws->g)
    g->ri = wl_prologue_idx(x, x->live);
    WL_TLANES(x, x->live, l, t) a[l] = s->d_row + 4 * p;
    g->rr = wl_ldg_at(x, 0x18, x->live, 4, a, g->ri);               /* d_Row[point_no] */
    WL_SH_LD(x, x->live, int32_t, r0);
    WL_TLANES(x, x->live, l, t) a[l] = s->d_col + 4 * p;
    g->rc = wl_ldg_at(x, 0x20, x->live, 4, a, g->ri);
    WL_SH_LD(x, x->live, int32_t, c0);
    if (f == 0) {
        if (ws->w.warp == 0) {                                      /* thread 0: tRowLoc, tColLoc */
            a[0] = s->d_trow + 4 * (p * s->frames);
            wl_stg_at(x, 0x28, 1u, 4, a, g->ri, g->rr);
            WL_SH_ST(x, 1u, int32_t, r0);
            a[0] = s->d_tcol + 4 * (p * s->frames);
            wl_stg_at(x, 0x30, 1u, 4, a, g->ri, g->rc);
            WL_SH_ST(x, 1u, int32_t, c0);
        }
        for (g->t = 0;; g->t++) {                                 /* CREATE TEMPLATES */
            m = 0;
            WL_TLANES(x, x->live, l, t) if ((ei[l] = t + NT * g->t) < s->in_e) m |= 1u << l;
            wl_bra_at(x, 0x38, x->live, g->ri);
            if (!m) break;
            uint8_t q = wl_int_at(x, 0x40, m, g->ri, GMS_REG_NONE);      /* row, col */
            q = wl_int_at(x, 0x48, m, q, g->rr);
            q = wl_int_at(x, 0x50, m, q, g->rc);                         /* ori_pointer */
            WL_TLANES(x, m, l, t) {
                int64_t r = (int64_t)(ei[l] % s->in_r), c = (int64_t)(ei[l] / s->in_r);
                a[l] = s->d_frame + 4 * ((uint64_t)(c0 - (int64_t)s->ts + c) * R + (uint64_t)(r0 - (int64_t)s->ts + r));
            }
            uint8_t v = wl_ldg_at(x, 0x58, m, 4, a, q);
            WL_SH_LD(x, m, float, s->video[f * R * s->cols + (a[l] - s->d_frame) / 4]);
            WL_TLANES(x, m, l, t) a[l] = s->d_T + 4 * (p * s->in_e + ei[l]);
            wl_stg_at(x, 0x60, m, 4, a, q, v);
            WL_SH_ST(x, m, float, s->T[p * s->in_e + ei[l]]);
            WL_GEN_YIELD(&ws->g);
        }
        wl_exit_at(x, WL_PC_END, x->live);
        WL_GEN_YIELD_ALWAYS(&ws->g);
        goto done;
    }
    for (g->t = 0;; g->t++) {                                     /* SELECTION */
        m = 0;
        WL_TLANES(x, x->live, l, t) if ((ei[l] = t + NT * g->t) < s->in2_e) m |= 1u << l;
        wl_bra_at(x, 0x28, x->live, g->ri);
        if (!m) break;
        uint8_t q = wl_int_at(x, 0x30, m, g->ri, GMS_REG_NONE);
        q = wl_int_at(x, 0x38, m, q, g->rr);
        q = wl_int_at(x, 0x40, m, q, g->rc);
        WL_TLANES(x, m, l, t) {
            int64_t r = (int64_t)(ei[l] % s->in2_r), c = (int64_t)(ei[l] / s->in2_r);
            a[l] = s->d_frame + 4 * ((uint64_t)(c0 - (int64_t)s->ss + c) * R + (uint64_t)(r0 - (int64_t)s->ss + r));
        }
        uint8_t v = wl_ldg_at(x, 0x48, m, 4, a, q);
        WL_SH_LD(x, m, float, s->video[f * R * s->cols + (a[l] - s->d_frame) / 4]);
        WL_TLANES(x, m, l, t) a[l] = s->d_in2 + 4 * (p * s->in2_e + ei[l]);
        wl_stg_at(x, 0x50, m, 4, a, q, v);
        WL_SH_ST(x, m, float, s->in2[p * s->in2_e + ei[l]]);
        WL_GEN_YIELD(&ws->g);
    }
    gms_emit_bar(&x->e, 0x58);
    WL_GEN_YIELD_ALWAYS(&ws->g);
    for (g->t = 0;; g->t++) {                                     /* ROTATION */
        m = 0;
        WL_TLANES(x, x->live, l, t) if ((ei[l] = t + NT * g->t) < s->in_e) m |= 1u << l;
        wl_bra_at(x, 0x60, x->live, g->ri);
        if (!m) break;
        uint8_t q = wl_int_at(x, 0x68, m, g->ri, GMS_REG_NONE);
        WL_TLANES(x, m, l, t) a[l] = s->d_T + 4 * (p * s->in_e + s->in_e - 1 - ei[l]);
        uint8_t v = wl_ldg_at(x, 0x70, m, 4, a, q);
        WL_SH_LD(x, m, float, s->T[p * s->in_e + s->in_e - 1 - ei[l]]);
        WL_TLANES(x, m, l, t) a[l] = 4 * ei[l];
        wl_sts_at(x, 0x78, m, 4, a, GMS_REG_NONE, v);
        WL_GEN_YIELD(&ws->g);
    }
    gms_emit_bar(&x->e, 0x80);
    WL_GEN_YIELD_ALWAYS(&ws->g);
    for (g->t = 0;; g->t++) {                                     /* ACTUAL CONVOLUTION */
        m = 0;
        uint32_t cs = 0;
        g->jlo = INT64_MAX;
        g->jhi = -1;
        WL_TLANES(x, x->live, l, t) if ((ei[l] = t + NT * g->t) < s->cv_e) {
            int64_t ja1, ja2, ia1, ia2;
            conv_bounds(s, ei[l], &ja1, &ja2, &ia1, &ia2);
            m |= 1u << l;
            if (ja1 < g->jlo) g->jlo = ja1;
            if (ja2 > g->jhi) g->jhi = ja2;
            g->ja1[l] = (int32_t)ja1; g->ja2[l] = (int32_t)ja2; g->ia1[l] = (int32_t)ia1; g->ia2[l] = (int32_t)ia2;
            g->ic[l] = (int32_t)(ei[l] % s->cv_r); g->jc[l] = (int32_t)(ei[l] / s->cv_r);
            g->off[l] = (int64_t)s->in2_r * g->jc[l] + g->ic[l];
            if (g->ic[l] == 0) cs |= 1u << l;
        }
        wl_bra_at(x, 0x88, x->live, g->ri);
        if (!m) break;
        g->m = m;
        g->cstart = cs;
        wl_int_at(x, 0x90, m, g->ri, GMS_REG_NONE);                  /* ic, jc, ja1, ja2, ia1, ia2 */
        wl_int_at(x, 0x98, m, g->ri, GMS_REG_NONE);
        g->acc = wl_int_at(x, 0xa0, m, GMS_REG_NONE, GMS_REG_NONE);  /* s = 0 */
        for (g->ja = g->jlo; g->ja <= g->jhi; g->ja++) {
            uint32_t mj = 0;
            int64_t ilo = INT64_MAX, ihi = -1;
            WL_TLANES(x, g->m, l, t) {
                if (g->ja < g->ja1[l] || g->ja > g->ja2[l]) continue;
                mj |= 1u << l;
                if (g->ia1[l] < ilo) ilo = g->ia1[l];
                if (g->ia2[l] > ihi) ihi = g->ia2[l];
            }
            uint8_t jb = wl_int_at(x, 0xa8, g->m, g->ri, GMS_REG_NONE);   /* jb = jp1 - ja; loop test */
            wl_bra_at(x, 0xb0, g->m, jb);
            const uint64_t b2 = s->d_in2 + 4 * p * s->in2_e;
            const float *in2p = s->in2 + p * s->in2_e;
            /* host speed: lane l of mj takes part for ia in [ia1[l], ia2[l]], so the lanes of
             * row ia are kept as a running mask: lane l joins at ia1[l] and leaves after
             * ia2[l] (join[i] / leave[i] at index ia - ilo) */
            uint32_t join[HW_MAX_IN_R + 1], leave[HW_MAX_IN_R + 1], mi = 0;
            int64_t off[32];
            memcpy(off, g->off, sizeof off);
            if (mj) {
                memset(join, 0, sizeof(uint32_t) * (size_t)(ihi - ilo + 2));
                memset(leave, 0, sizeof(uint32_t) * (size_t)(ihi - ilo + 2));
                for (uint32_t mm = mj; mm; mm &= mm - 1) {
                    int l = __builtin_ctz(mm);
                    join[g->ia1[l] - ilo] |= 1u << l;
                    leave[g->ia2[l] + 1 - ilo] |= 1u << l;
                }
            }
            for (int64_t ia = ilo; ia <= ihi; ia++) {
                /* the lanes of mj whose row range holds ia, and their in2 addresses (only the
                 * active lanes' are read) */
                const int64_t n2 = (int64_t)s->in2_r, g0 = n2 * g->ja + ia;
                mi = (mi | join[ia - ilo]) & ~leave[ia - ilo];
                /* the lanes' in2 elements (for the shadow memory) and their addresses; host
                 * speed: a stretch of lanes of mi in one column of conv at a time, whose
                 * elements are consecutive (off[l] = off[l0] + l - l0) */
                float vals[32];
                for (uint32_t mm = mi; mm;) {
                    const int l0 = __builtin_ctz(mm);
                    const uint32_t stop = (~mm | g->cstart) & ~((2u << l0) - 1);   /* lanes above l0 */
                    const int l1 = stop ? __builtin_ctz(stop) : 32;
                    const int64_t e0 = off[l0] - g0 - l0;
                    for (int l = l0; l < l1; l++) {
                        a[l] = b2 + 4 * (uint64_t)(e0 + l);
                        vals[l] = in2p[e0 + l];
                    }
                    mm = l1 < 32 ? mm & ~0u << l1 : 0;
                }
                uint8_t u = ld_bcast(x, 0xb8, mi, GMS_MEM_LD_SHARED, 4 * (uint64_t)((int64_t)s->in_r * g->ja + ia), jb);
                uint8_t v = wl_ldg_at(x, 0xc0, mi, 4, a, jb);
                if (x->sh) wl_sh_last(x->sh, x->e.w, 0, vals, sizeof(float));   /* WL_SH_LD: the in2 elements */
                g->acc = wl_fp_at(x, 0xc8, mi, u, v, g->acc);
                uint8_t q = wl_int_at(x, 0xd0, mj, jb, GMS_REG_NONE);  /* ia++, ib = ip1 - ia */
                wl_bra_at(x, 0xd8, mj, q);
            }
            WL_GEN_YIELD(&ws->g);
        }
        WL_TLANES(x, g->m, l, t) a[l] = s->d_conv + 4 * (p * s->cv_e + t + NT * g->t);
        wl_stg_at(x, 0xe0, g->m, 4, a, g->ri, g->acc);
        WL_SH_ST(x, g->m, float, s->conv[(a[l] - s->d_conv) / 4]);
    }
    gms_emit_bar(&x->e, 0xe8);
    WL_GEN_YIELD_ALWAYS(&ws->g);
    /* search: thread c < sub scans column c of the valid region */
    m = 0;
    WL_TLANES(x, x->live, l, t) if (t < s->sub) m |= 1u << l;
    wl_bra_at(x, 0xf0, x->live, g->ri);
    if (m) {
        uint8_t best = wl_int_at(x, 0xf8, m, GMS_REG_NONE, GMS_REG_NONE), coo = wl_int_at(x, 0x100, m, GMS_REG_NONE, GMS_REG_NONE);
        for (uint64_t r = 0; r < s->sub; r++) {
            WL_TLANES(x, m, l, t) a[l] = s->d_conv + 4 * (p * s->cv_e + (t + s->in_r - 1) * s->cv_r + r + s->in_r - 1);
            uint8_t v = wl_ldg_at(x, 0x108, m, 4, a, g->ri);
            WL_SH_LD(x, m, float, s->conv[(a[l] - s->d_conv) / 4]);
            wl_fp_at(x, 0x110, m, v, best, GMS_REG_NONE);               /* FSETP.GT */
            best = wl_fp_at(x, 0x118, m, v, best, GMS_REG_NONE);        /* FSEL */
            coo = wl_int_at(x, 0x120, m, coo, GMS_REG_NONE);            /* SEL */
            wl_bra_at(x, 0x128, m, g->ri);
        }
        WL_TLANES(x, m, l, t) a[l] = SH_PAR(s) + 4 * (uint64_t)t;
        wl_sts_at(x, 0x130, m, 4, a, GMS_REG_NONE, best);
        WL_TLANES(x, m, l, t) a[l] = SH_PAR(s) + 4 * (s->sub + (uint64_t)t);
        wl_sts_at(x, 0x138, m, 4, a, GMS_REG_NONE, coo);
    }
    gms_emit_bar(&x->e, 0x140);
    WL_GEN_YIELD_ALWAYS(&ws->g);
    if (ws->w.warp == 0) {                                          /* thread 0: the largest, the move */
        uint8_t best = wl_int_at(x, 0x148, 1u, GMS_REG_NONE, GMS_REG_NONE), coo = best;
        for (uint64_t c = 0; c < s->sub; c++) {
            a[0] = SH_PAR(s) + 4 * c;
            uint8_t v = wl_lds_at(x, 0x150, 1u, 4, a, GMS_REG_NONE);
            a[0] = SH_PAR(s) + 4 * (s->sub + c);
            uint8_t w = wl_lds_at(x, 0x158, 1u, 4, a, GMS_REG_NONE);
            wl_fp_at(x, 0x160, 1u, v, best, GMS_REG_NONE);
            best = wl_fp_at(x, 0x168, 1u, v, best, GMS_REG_NONE);
            coo = wl_int_at(x, 0x170, 1u, w, coo);
            wl_bra_at(x, 0x178, 1u, g->ri);
        }
        uint8_t nr = wl_int_at(x, 0x180, 1u, coo, g->rr), nc = wl_int_at(x, 0x188, 1u, coo, g->rc);
        nr = wl_int_at(x, 0x190, 1u, nr, GMS_REG_NONE);                 /* kept inside the frame */
        nc = wl_int_at(x, 0x198, 1u, nc, GMS_REG_NONE);
        const uint64_t st[4] = { s->d_row + 4 * p, s->d_col + 4 * p, s->d_trow + 4 * (p * s->frames + f),
                                 s->d_tcol + 4 * (p * s->frames + f) };
        for (int i = 0; i < 4; i++) {
            a[0] = st[i];
            wl_stg_at(x, 0x1a0 + 8 * (uint32_t)i, 1u, 4, a, g->ri, i % 2 ? nc : nr);
            WL_SH_ST(x, 1u, int32_t, i % 2 ? s->col[p] : s->row[p]);
        }
    }
    wl_exit_at(x, WL_PC_END, x->live);
done:;
    WL_GEN_END(&ws->g);
}

static void reset(hw *s)
{
    memcpy(s->row, s->row0, 4 * s->np);
    memcpy(s->col, s->col0, 4 * s->np);
}

static int next(void *st, gms_program *p, gms_error *err)
{
    hw *s = st;
    if (s->rep == s->repeat) return 0;
    s->sh = p->shadow;
    uint64_t fb = 4 * s->rows * s->cols;
    if (s->rep == 0 && s->f == 0) {
        s->d_frame = gms_prog_alloc(p, fb, "d_frame");
        s->d_row = gms_prog_alloc(p, 4 * s->np, "d_Row");
        s->d_col = gms_prog_alloc(p, 4 * s->np, "d_Col");
        s->d_trow = gms_prog_alloc(p, 4 * s->np * s->frames, "d_tRowLoc");
        s->d_tcol = gms_prog_alloc(p, 4 * s->np * s->frames, "d_tColLoc");
        s->d_T = gms_prog_alloc(p, 4 * s->np * s->in_e, "d_T");
        s->d_in2 = gms_prog_alloc(p, 4 * s->np * s->in2_e, "d_in2");
        s->d_conv = gms_prog_alloc(p, 4 * s->np * s->cv_e, "d_conv");
    }
    if (s->f == 0) {   /* the points' initial locations */
        reset(s);
        gms_prog_copy_h2d(p, s->d_row, 4 * s->np);
        wl_sh_init(p, s->d_row, s->row, 4 * s->np);
        gms_prog_copy_h2d(p, s->d_col, 4 * s->np);
        wl_sh_init(p, s->d_col, s->col, 4 * s->np);
    }
    /* one frame per call: the shadow memory's frame is this one while its kernel runs */
    const float *fr = s->video + s->f * s->rows * s->cols;
    gms_prog_copy_h2d(p, s->d_frame, fb);
    wl_sh_init(p, s->d_frame, fr, fb);
    wl_kernel k = {.st = s, .step = hw_step, .wsize = sizeof(hw_warp), .begin = hw_begin,
                   .grid = {(uint32_t)s->np, 1, 1}, .block = {NT, 1, 1}};
    k.arg[0] = (int64_t)s->f;
    wl_launch_k(p, "_Z6kernelv", &k, 40, (uint32_t)(SH_PAR(s) + 8 * s->sub + 16));
    if (++s->f == s->frames) {
        gms_prog_sync(p);
        gms_prog_copy_d2h(p, s->d_trow, 4 * s->np * s->frames);
        gms_prog_copy_d2h(p, s->d_tcol, 4 * s->np * s->frames);
        s->f = 0;
        s->rep++;
    }
    (void)err;
    return 1;
}

/* plain CPU tracking: the template of frame 0, then per frame the largest element of the
 * convolution's valid region (column by column, first largest kept) */
static int verify(void *st, gms_error *err)
{
    hw *s = st;
    uint64_t R = s->rows, F = s->frames, n = s->np * F;
    int32_t *wr = wl_calloc(n, 4), *wc = wl_calloc(n, 4);
    float *T = wl_malloc(s->in_e, 4);
    int64_t ts = (int64_t)s->ts, ss = (int64_t)s->ss, nr = (int64_t)s->in_r, n2 = (int64_t)s->in2_r;
    for (uint64_t p = 0; p < s->np; p++) {
        int64_t r0 = s->row0[p], c0 = s->col0[p];
        for (int64_t c = 0; c < nr; c++)
            for (int64_t r = 0; r < nr; r++) T[c * nr + r] = s->video[(uint64_t)(c0 - ts + c) * R + (uint64_t)(r0 - ts + r)];
        wr[p * F] = (int32_t)r0;
        wc[p * F] = (int32_t)c0;
        for (uint64_t f = 1; f < F; f++) {
            const float *fr = s->video + f * R * s->cols;
            float best = 0;
            int64_t br = 0, bc = 0;
            int first = 1;
            /* conv(i, j) = sum over template (a, b) of rot(a, b) * win(i - a, j - b), with
             * rot(a, b) = T(nr-1-a, nr-1-b) and win(u, v) = frame(r0 - ss + u, c0 - ss + v) */
            for (int64_t j = nr - 1; j < n2; j++)
                for (int64_t i = nr - 1; i < n2; i++) {
                    float sum = 0;
                    for (int64_t b = 0; b < nr; b++)
                        for (int64_t a = 0; a < nr; a++)
                            sum = sum + T[(nr - 1 - b) * nr + (nr - 1 - a)] *
                                            fr[(uint64_t)(c0 - ss + j - b) * R + (uint64_t)(r0 - ss + i - a)];
                    if (first || sum > best) { best = sum; br = i - (nr - 1); bc = j - (nr - 1); first = 0; }
                }
            r0 = clampi(r0 + br - (ss - ts), ss, (int64_t)(R - 1) - ss);
            c0 = clampi(c0 + bc - (ss - ts), ss, (int64_t)(s->cols - 1) - ss);
            wr[p * F + f] = (int32_t)r0;
            wc[p * F + f] = (int32_t)c0;
        }
    }
    void *o1, *o2;
    const int32_t *gr = wl_result(s->sh, s->d_trow, s->trow, n, 4, &o1);
    const int32_t *gc = wl_result(s->sh, s->d_tcol, s->tcol, n, 4, &o2);
    int rc = wl_check_i32("heartwall", "tRowLoc", gr, wr, n, err) || wl_check_i32("heartwall", "tColLoc", gc, wc, n, err);
    free(o1); free(o2); free(wr); free(wc); free(T);
    return rc ? -1 : 0;
}

static void destroy(void *st)
{
    hw *s = st;
    if (!s) return;
    free(s->video); free(s->row0); free(s->col0); free(s->row); free(s->col); free(s->orow); free(s->ocol);
    free(s->trow); free(s->tcol); free(s->T); free(s->in2); free(s->conv); free(s->pad);
    free(s);
}

const gms_workload_ops gms_wl_heartwall = {
    .name = "heartwall", .suite = "rodinia", .domain = "medical imaging", .ri = "-",
    .summary = "heart wall tracking: per frame and point, template convolution over a search window (HWL)",
    .params = params, .create = create, .next = next, .verify = verify, .destroy = destroy,
    .footprint = footprint,
};
