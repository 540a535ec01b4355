/* FDTD-2D (UVMBench polybench/FDTD-2D, fdtd2d.cu): 2D finite-difference time domain, tmax
 * time steps of three kernels (32x8 blocks, one thread per cell): step1 updates ey from hz
 * (row 0 from _fict_[t]), step2 ex from hz, step3 hz from ex and ey. ex is NX x (NY+1),
 * ey (NX+1) x NY; the source initialises ex and ey with row stride NY (kept). */
#include "workloads/wl_util_poly.h"

enum { FICT_, EX_, EY_, HZ_ };
enum { TMAX, NX, NY };

static const gms_wl_param params[] = {
    { "tmax", "500", "time steps (3 kernels each)" },
    { "NX", "2048", "rows" },
    { "NY", "2048", "columns" },
    { "scale", "1", "multiply NX and NY by this factor" },
    { "repeat", "1", "run the whole time loop this many times" },
    { NULL, NULL, NULL },
};

static uint64_t elems(const uint64_t *d, int k)
{
    switch (k) {
    case FICT_: return d[TMAX];
    case EX_: return d[NX] * (d[NY] + 1);
    case EY_: return (d[NX] + 1) * d[NY];
    default: return d[NX] * d[NY];
    }
}

static void init(const pb_state *s, float **a)
{
    uint64_t nx = s->dim[NX], ny = s->dim[NY];
    for (uint64_t i = 0; i < s->dim[TMAX]; i++) a[FICT_][i] = (float)i;
    for (uint64_t i = 0; i < nx; i++)
        for (uint64_t j = 0; j < ny; j++) {
            a[EX_][i * ny + j] = ((float)i * (float)(j + 1) + 1) / (float)nx;
            a[EY_][i * ny + j] = ((float)((int64_t)i - 1) * (float)(j + 2) + 2) / (float)nx;
            a[HZ_][i * ny + j] = ((float)((int64_t)i - 9) * (float)(j + 4) + 3) / (float)nx;
        }
}

/* common part: indices, guard, the cell's linear index register */
static uint32_t cell(wl_warp *w, const pb_state *s, int64_t i[32], int64_t j[32], int jpos, uint8_t r[2])
{
    int64_t nx = (int64_t)s->dim[NX], ny = (int64_t)s->dim[NY];
    uint32_t in = 0;
    WL_LANES(w->live, l) {
        j[l] = wl_gx(w, l);
        i[l] = wl_gy(w, l);
        if (i[l] < nx && j[l] < ny && (!jpos || j[l] > 0)) in |= 1u << l;
    }
    return wl_guard(w, 2, jpos ? 3 : 2, in, r);
}

/* The E-field update of steps 1 and 2: e[ie] = e[ie] - 0.5*(hz[ih] - hz[ih - back]) (one FFMA)
 * for the lanes of m, emitted as LDG e, LDG hz, LDG hz[-back], FADD, FFMA, STG e; pe and ph
 * are the address registers of e and hz */
static void e_update(wl_warp *w, pb_state *s, uint32_t m, int ek, const int64_t ie[32], const int64_t ih[32],
                     int64_t back, uint8_t pe, uint8_t ph)
{
    float *e = s->h[ek], *hz = s->h[HZ_];
    uint64_t a[32], b[32], c[32];
    WL_FADDR(a, m, s->d[ek], ie[l]);
    WL_FADDR(b, m, s->d[HZ_], ih[l]);
    WL_FADDR(c, m, s->d[HZ_], ih[l] - back);
    uint8_t ve = wl_ldg(w, m, a, pe);
    WL_SH_LD(w, m, float, e[ie[l]]);
    uint8_t h0 = wl_ldg(w, m, b, ph);
    WL_SH_LD(w, m, float, hz[ih[l]]);
    uint8_t h1 = wl_ldg(w, m, c, ph);
    WL_SH_LD(w, m, float, hz[ih[l] - back]);
    uint8_t d = wl_fp(w, m, h0, h1, GMS_REG_NONE);
    ve = wl_fp(w, m, d, ve, GMS_REG_NONE);                          /* FFMA -0.5*d + e */
    wl_stg(w, m, a, pe, ve);
    WL_LANES(m, l) e[ie[l]] = fmaf(-0.5f, hz[ih[l]] - hz[ih[l] - back], e[ie[l]]);
    WL_SH_ST(w, m, float, e[ie[l]]);
}

static int fill_step1(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    pb_state *s = k->st;
    int64_t ny = (int64_t)s->dim[NY], t = k->arg[0];
    float *ey = s->h[EY_];
    for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, k, block, wi);
        int64_t i[32], j[32];
        uint8_t r[2];
        uint32_t m = cell(&w, s, i, j, 0, r);
        if (!m) continue;
        uint32_t m0 = 0;
        WL_LANES(m, l) if (i[l] == 0) m0 |= 1u << l;
        uint32_t m1 = m & ~m0;
        uint64_t a[32];
        uint8_t idx = wl_int(&w, m, r[1], r[0]);
        uint8_t four = wl_int(&w, m, GMS_REG_NONE, GMS_REG_NONE);
        wl_pred(&w, m, r[1], GMS_REG_NONE);                         /* ISETP i != 0 */
        wl_bra(&w, m1);                                             /* to the else branch */
        if (m0) {
            uint8_t pf = wl_int(&w, m0, GMS_REG_NONE, four);
            uint8_t v = wl_ldg_bcast(&w, m0, pb_addr(s, FICT_, (uint64_t)t), pf);
            WL_SH_LD(&w, m0, float, s->h[FICT_][t]);
            uint8_t pe = wl_int(&w, m0, idx, four);
            WL_FADDR(a, m0, s->d[EY_], i[l] * ny + j[l]);
            wl_stg(&w, m0, a, pe, v);
            WL_LANES(m0, l) ey[i[l] * ny + j[l]] = s->h[FICT_][t];
            WL_SH_ST(&w, m0, float, s->h[FICT_][t]);
            wl_exit(&w, m0);
        }
        if (m1) {
            w.pc = 0x200;                                           /* the else branch */
            uint8_t pe = wl_int(&w, m1, idx, four);
            uint8_t ph = wl_int(&w, m1, idx, four);
            int64_t e[32];
            WL_LANES(m1, l) e[l] = i[l] * ny + j[l];
            e_update(&w, s, m1, EY_, e, e, ny, pe, ph);             /* ey -= 0.5*(hz - hz[i-1]) */
            wl_exit(&w, m1);
        }
    }
    return 0;
}

static int fill_step2(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    pb_state *s = k->st;
    int64_t ny = (int64_t)s->dim[NY];
    for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, k, block, wi);
        int64_t i[32], j[32];
        uint8_t r[2];
        uint32_t m = cell(&w, s, i, j, 1, r);
        if (!m) continue;
        uint8_t ix = wl_int(&w, m, r[1], r[0]);                     /* i*(NY+1)+j */
        uint8_t ih = wl_int(&w, m, r[1], r[0]);                     /* i*NY+j */
        uint8_t four = wl_int(&w, m, GMS_REG_NONE, GMS_REG_NONE);
        uint8_t px = wl_int(&w, m, ix, four);
        uint8_t ph = wl_int(&w, m, ih, four);
        int64_t ex[32], e[32];
        WL_LANES(m, l) {
            ex[l] = i[l] * (ny + 1) + j[l];
            e[l] = i[l] * ny + j[l];
        }
        e_update(&w, s, m, EX_, ex, e, 1, px, ph);                 /* ex -= 0.5*(hz - hz[j-1]) */
        wl_exit(&w, m);
    }
    return 0;
}

static int fill_step3(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    pb_state *s = k->st;
    int64_t ny = (int64_t)s->dim[NY];
    float *ex = s->h[EX_], *ey = s->h[EY_], *hz = s->h[HZ_];
    for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, k, block, wi);
        int64_t i[32], j[32];
        uint8_t r[2];
        uint32_t m = cell(&w, s, i, j, 0, r);
        if (!m) continue;
        uint64_t ah[32], ax1[32], ax0[32], ay1[32], ay0[32];
        uint8_t ih = wl_int(&w, m, r[1], r[0]);
        uint8_t ix = wl_int(&w, m, r[1], r[0]);
        uint8_t four = wl_int(&w, m, GMS_REG_NONE, GMS_REG_NONE);
        uint8_t ph = wl_int(&w, m, ih, four);
        uint8_t px = wl_int(&w, m, ix, four);
        uint8_t py = wl_int(&w, m, ih, four);
        WL_FADDR(ah, m, s->d[HZ_], i[l] * ny + j[l]);
        WL_FADDR(ax1, m, s->d[EX_], i[l] * (ny + 1) + j[l] + 1);
        WL_FADDR(ax0, m, s->d[EX_], i[l] * (ny + 1) + j[l]);
        WL_FADDR(ay1, m, s->d[EY_], (i[l] + 1) * ny + j[l]);
        WL_FADDR(ay0, m, s->d[EY_], i[l] * ny + j[l]);
        uint8_t vh = wl_ldg(&w, m, ah, ph);
        WL_SH_LD(&w, m, float, hz[i[l] * ny + j[l]]);
        uint8_t x1 = wl_ldg(&w, m, ax1, px);
        WL_SH_LD(&w, m, float, ex[i[l] * (ny + 1) + j[l] + 1]);
        uint8_t x0 = wl_ldg(&w, m, ax0, px);
        WL_SH_LD(&w, m, float, ex[i[l] * (ny + 1) + j[l]]);
        uint8_t y1 = wl_ldg(&w, m, ay1, py);
        WL_SH_LD(&w, m, float, ey[(i[l] + 1) * ny + j[l]]);
        uint8_t y0 = wl_ldg(&w, m, ay0, py);
        WL_SH_LD(&w, m, float, ey[i[l] * ny + j[l]]);
        uint8_t d = wl_fp(&w, m, x1, x0, GMS_REG_NONE);
        d = wl_fp(&w, m, d, y1, GMS_REG_NONE);
        d = wl_fp(&w, m, d, y0, GMS_REG_NONE);
        vh = wl_fp(&w, m, d, vh, GMS_REG_NONE);
        wl_stg(&w, m, ah, ph, vh);
        WL_LANES(m, l) {
            int64_t e = i[l] * ny + j[l], x = i[l] * (ny + 1) + j[l];
            hz[e] = fmaf(-0.7f, ex[x + 1] - ex[x] + ey[e + ny] - ey[e], hz[e]);
        }
        WL_SH_ST(&w, m, float, hz[i[l] * ny + j[l]]);
        wl_exit(&w, m);
    }
    return 0;
}

static void launch(pb_state *s, gms_program *p)
{
    gms_dim3 g = wl_dim3(wl_cdiv(s->dim[NY], 32), wl_cdiv(s->dim[NX], 8), 1), b = wl_dim3(32, 8, 1);
    for (uint64_t t = 0; t < s->dim[TMAX]; t++) {
        int64_t a[1] = { (int64_t)t };
        pb_launch(s, p, "_Z17fdtd_step1_kernelPfS_S_S_i", g, b, 16, fill_step1, a, 1);
        pb_launch(s, p, "_Z17fdtd_step2_kernelPfS_S_i", g, b, 16, fill_step2, a, 1);
        pb_launch(s, p, "_Z17fdtd_step3_kernelPfS_S_i", g, b, 16, fill_step3, a, 1);
    }
}

static void cpu(const pb_state *s, float **a)
{
    int64_t nx = (int64_t)s->dim[NX], ny = (int64_t)s->dim[NY];
    float *ex = a[EX_], *ey = a[EY_], *hz = a[HZ_];
    /* a - c * b is one FFMA in the kernels (fmaf above); the reference rounds the same way:
     * with separate multiply and subtract the two drift apart over the 500 default time
     * steps (by more than the check's tolerance at the default size) */
    for (uint64_t t = 0; t < s->dim[TMAX]; t++) {
        for (int64_t j = 0; j < ny; j++) ey[j] = a[FICT_][t];
        for (int64_t i = 1; i < nx; i++)
            for (int64_t j = 0; j < ny; j++)
                ey[i * ny + j] = fmaf(-0.5f, hz[i * ny + j] - hz[(i - 1) * ny + j], ey[i * ny + j]);
        for (int64_t i = 0; i < nx; i++)
            for (int64_t j = 1; j < ny; j++)
                ex[i * (ny + 1) + j] = fmaf(-0.5f, hz[i * ny + j] - hz[i * ny + j - 1], ex[i * (ny + 1) + j]);
        for (int64_t i = 0; i < nx; i++)
            for (int64_t j = 0; j < ny; j++)
                hz[i * ny + j] = fmaf(-0.7f, ex[i * (ny + 1) + j + 1] - ex[i * (ny + 1) + j] +
                                                 ey[(i + 1) * ny + j] - ey[i * ny + j], hz[i * ny + j]);
    }
}

static const pb_def def = {
    .name = "fdtd-2d",
    .dims = { "tmax", "NX", "NY" },
    .dim_max = { 1000000, 0, 0 },
    .dim_scaled = { 0, 1, 1 },
    .arrs = { { "_fict_", 1, 0, 0 }, { "ex", 1, 0, 1 }, { "ey", 1, 0, 1 }, { "hz", 1, 1, 1 } },
    .elems = elems, .init = init, .launch = launch, .cpu = cpu,
    .rtol = 1e-3, .atol = 1e-3,
};

PB_WORKLOAD(fdtd2d, "fdtd-2d", def, params, "electrodynamics", "I",
            "2D FDTD electromagnetic stencil: three field-update kernels per time step");
