/* 2DCONV (UVMBench polybench/2DCONV, 2DConvolution.cu): 3x3 convolution of an NI x NJ
 * image, one kernel, 32x8 blocks, one thread per interior pixel: 9 loads (three 3-float
 * runs of neighbouring rows), FMUL + 8 FFMA, one store. A = rand()/RAND_MAX in the source:
 * here a seeded generator. The source sizes the grid (ceil(NI/32), ceil(NJ/8)) although x
 * indexes columns j < NJ-1; this is kept. */
#include "workloads/wl_util_poly.h"

enum { A_, B_ };
enum { NI, NJ };

static const float C11 = 0.2f, C21 = 0.5f, C31 = -0.8f, C12 = -0.3f, C22 = 0.6f, C32 = -0.9f, C13 = 0.4f,
                   C23 = 0.7f, C33 = 0.10f;

static const gms_wl_param params[] = {
    { "NI", "4096", "image rows" },
    { "NJ", "4096", "image columns" },
    { "scale", "1", "multiply every size by this factor" },
    { "repeat", "1", "run the kernel this many times" },
    { NULL, NULL, NULL },
};

static uint64_t elems(const uint64_t *d, int k) { (void)k; return d[NI] * d[NJ]; }

static void init(const pb_state *s, float **a)
{
    gms_rng r;
    gms_rng_seed(&r, s->seed);
    for (uint64_t i = 0; i < s->n[A_]; i++) a[A_][i] = wl_randf(&r);
}

/* the convolution of one pixel, in the kernel's order */
static float conv(const float *A, int64_t nj, int64_t i, int64_t j)
{
    const float *u = A + (i - 1) * nj + j, *c = A + i * nj + j, *d = A + (i + 1) * nj + j;
    float s = C11 * u[-1];
    s = fmaf(C21, u[0], s);
    s = fmaf(C31, u[1], s);
    s = fmaf(C12, c[-1], s);
    s = fmaf(C22, c[0], s);
    s = fmaf(C32, c[1], s);
    s = fmaf(C13, d[-1], s);
    s = fmaf(C23, d[0], s);
    return fmaf(C33, d[1], s);
}

static int fill(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    pb_state *s = k->st;
    int64_t ni = (int64_t)s->dim[NI], nj = (int64_t)s->dim[NJ];
    for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, k, block, wi);
        int64_t i[32], j[32];
        uint32_t in = 0;
        WL_LANES(w.live, l) {
            j[l] = wl_gx(&w, l);
            i[l] = wl_gy(&w, l);
            if (i[l] < ni - 1 && j[l] < nj - 1 && i[l] > 0 && j[l] > 0) in |= 1u << l;
        }
        uint8_t r[2];
        uint32_t m = wl_guard(&w, 2, 4, in, r);
        if (!m) continue;
        uint8_t idx = wl_int(&w, m, r[1], r[0]);                    /* IMAD i*NJ+j */
        uint8_t four = wl_int(&w, m, GMS_REG_NONE, GMS_REG_NONE);
        uint8_t pa = wl_int(&w, m, idx, four);                      /* IMAD.WIDE &A[i*NJ+j] */
        uint64_t ad[32];
        uint8_t v[9];
        for (int t = 0; t < 9; t++) {
            int64_t di = t / 3 - 1, dj = t % 3 - 1;
            WL_FADDR(ad, m, s->d[A_], (i[l] + di) * nj + j[l] + dj);
            v[t] = wl_ldg(&w, m, ad, pa);
            WL_SH_LD(&w, m, float, s->h[A_][(i[l] + di) * nj + j[l] + dj]);
        }
        uint8_t acc = wl_fp(&w, m, v[0], GMS_REG_NONE, GMS_REG_NONE);     /* FMUL */
        for (int t = 1; t < 9; t++) acc = wl_fp(&w, m, v[t], acc, GMS_REG_NONE); /* FFMA */
        uint8_t pb = wl_int(&w, m, idx, four);                      /* IMAD.WIDE &B[..] */
        WL_FADDR(ad, m, s->d[B_], i[l] * nj + j[l]);
        wl_stg(&w, m, ad, pb, acc);
        WL_LANES(m, l) s->h[B_][i[l] * nj + j[l]] = conv(s->h[A_], nj, i[l], j[l]);
        WL_SH_ST(&w, m, float, s->h[B_][i[l] * nj + j[l]]);
        wl_exit(&w, m);
    }
    return 0;
}

static void launch(pb_state *s, gms_program *p)
{
    pb_launch(s, p, "_Z20Convolution2D_kernelPfS_", wl_dim3(wl_cdiv(s->dim[NI], 32), wl_cdiv(s->dim[NJ], 8), 1),
              wl_dim3(32, 8, 1), 16, fill, NULL, 0);
}

static void cpu(const pb_state *s, float **a)
{
    int64_t ni = (int64_t)s->dim[NI], nj = (int64_t)s->dim[NJ];
    int64_t jmax = (int64_t)wl_cdiv(s->dim[NI], 32) * 32, imax = (int64_t)wl_cdiv(s->dim[NJ], 8) * 8;
    for (int64_t i = 1; i < ni - 1 && i < imax; i++)
        for (int64_t j = 1; j < nj - 1 && j < jmax; j++) {
            const float *A = a[A_];
            a[B_][i * nj + j] = C11 * A[(i - 1) * nj + (j - 1)] + C21 * A[(i - 1) * nj + j] +
                                C31 * A[(i - 1) * nj + (j + 1)] + C12 * A[i * nj + (j - 1)] + C22 * A[i * nj + j] +
                                C32 * A[i * nj + (j + 1)] + C13 * A[(i + 1) * nj + (j - 1)] +
                                C23 * A[(i + 1) * nj + j] + C33 * A[(i + 1) * nj + (j + 1)];
        }
}

static const pb_def def = {
    .name = "2dconv",
    .dims = { "NI", "NJ" },
    .dim_scaled = { 1, 1 },
    .arrs = { { "A", 1, 0, 0 }, { "B", 0, 1, 1 } },
    .elems = elems, .init = init, .launch = launch, .cpu = cpu,
    .rtol = 1e-4, .atol = 1e-5,
};

PB_WORKLOAD(2dconv, "2dconv", def, params, "machine learning", "R",
            "3x3 convolution of an image, one thread per pixel (three 3-float runs per thread)");
