/* 3DCONV (UVMBench polybench/3DCONV, 3DConvolution.cu): 3D stencil over an NI x NJ x NK
 * volume; the kernel is launched NI-2 times (one i-plane each, i = 1..NI-2), 32x8 blocks over
 * (k, j). The source's 15-term formula (which reads some neighbours twice) is kept; the
 * compiler loads each distinct address once: 11 loads, FMUL + 14 FFMA, one store. */
#include "workloads/wl_util_poly.h"

enum { A_, B_ };
enum { NI, NJ, NK };

static const gms_wl_param params[] = {
    { "NI", "256", "planes (the kernel is launched NI-2 times)" },
    { "NJ", "256", "rows per plane" },
    { "NK", "256", "columns per row" },
    { "scale", "1", "multiply every size by this factor" },
    { "repeat", "1", "run the kernel sequence this many times" },
    { NULL, NULL, NULL },
};

/* the 15 terms: coefficient and (di, dj, dk), in the source's order */
static const struct { float c; int di, dj, dk; } T[15] = {
    { 2, -1, -1, -1 }, { 4, 1, -1, -1 }, { 5, -1, -1, -1 }, { 7, 1, -1, -1 }, { -8, -1, -1, -1 },
    { 10, 1, -1, -1 }, { -3, 0, -1, 0 }, { 6, 0, 0, 0 },    { -9, 0, 1, 0 },  { 2, -1, -1, 1 },
    { 4, 1, -1, 1 },   { 5, -1, 0, 1 },  { 7, 1, 0, 1 },     { -8, -1, 1, 1 }, { 10, 1, 1, 1 },
};

static uint64_t elems(const uint64_t *d, int k) { (void)k; return d[NI] * d[NJ] * d[NK]; }

static void init(const pb_state *s, float **a)
{
    const uint64_t *d = s->dim;
    for (uint64_t i = 0; i < d[NI]; i++)
        for (uint64_t j = 0; j < d[NJ]; j++)
            for (uint64_t k = 0; k < d[NK]; k++)
                a[A_][(i * d[NJ] + j) * d[NK] + k] = (float)(i % 12 + 2 * (j % 7) + 3 * (k % 13));
}

static int fill(const wl_kernel *kr, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    pb_state *s = kr->st;
    int64_t ni = (int64_t)s->dim[NI], nj = (int64_t)s->dim[NJ], nk = (int64_t)s->dim[NK];
    int64_t i = kr->arg[0];
    const float *A = s->h[A_];
    for (uint32_t wi = 0; wi < wl_nwarps(kr); wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, kr, block, wi);
        int64_t j[32], k[32];
        uint32_t in = 0;
        WL_LANES(w.live, l) {
            k[l] = wl_gx(&w, l);
            j[l] = wl_gy(&w, l);
            if (i < ni - 1 && j[l] < nj - 1 && k[l] < nk - 1 && i > 0 && j[l] > 0 && k[l] > 0) in |= 1u << l;
        }
        uint8_t r[2];
        uint32_t m = wl_guard(&w, 2, 6, in, r);
        if (!m) continue;
        uint8_t idx = wl_int3(&w, m, r[1], r[0], GMS_REG_NONE);    /* IMAD i*NJ*NK + j*NK + k */
        uint8_t four = wl_int(&w, m, GMS_REG_NONE, GMS_REG_NONE);
        uint8_t pa = wl_int(&w, m, idx, four);                      /* IMAD.WIDE */
        uint64_t ad[32];
        uint8_t reg[15];
        for (int t = 0; t < 15; t++) {
            int dup = -1;
            for (int u = 0; u < t; u++)
                if (T[u].di == T[t].di && T[u].dj == T[t].dj && T[u].dk == T[t].dk) { dup = u; break; }
            if (dup >= 0) { reg[t] = reg[dup]; continue; }
            WL_FADDR(ad, m, s->d[A_], ((i + T[t].di) * nj + j[l] + T[t].dj) * nk + k[l] + T[t].dk);
            reg[t] = wl_ldg(&w, m, ad, pa);
            WL_SH_LD(&w, m, float, A[((i + T[t].di) * nj + j[l] + T[t].dj) * nk + k[l] + T[t].dk]);
        }
        uint8_t acc = wl_fp(&w, m, reg[0], GMS_REG_NONE, GMS_REG_NONE);
        for (int t = 1; t < 15; t++) acc = wl_fp(&w, m, reg[t], acc, GMS_REG_NONE);
        uint8_t pb = wl_int(&w, m, idx, four);
        WL_FADDR(ad, m, s->d[B_], (i * nj + j[l]) * nk + k[l]);
        wl_stg(&w, m, ad, pb, acc);
        WL_LANES(m, l) {
            float v = 0;
            for (int t = 0; t < 15; t++) {
                float x = A[((i + T[t].di) * nj + j[l] + T[t].dj) * nk + k[l] + T[t].dk];
                v = t == 0 ? T[t].c * x : fmaf(T[t].c, x, v);
            }
            s->h[B_][(i * nj + j[l]) * nk + k[l]] = v;
        }
        WL_SH_ST(&w, m, float, s->h[B_][(i * nj + j[l]) * nk + k[l]]);
        wl_exit(&w, m);
    }
    return 0;
}

static void launch(pb_state *s, gms_program *p)
{
    const uint64_t *d = s->dim;
    for (uint64_t i = 1; i + 1 < d[NI]; i++) {
        int64_t a[1] = { (int64_t)i };
        pb_launch(s, p, "_Z20convolution3D_kernelPfS_i", wl_dim3(wl_cdiv(d[NK], 32), wl_cdiv(d[NJ], 8), 1),
                  wl_dim3(32, 8, 1), 24, fill, a, 1);
    }
}

static void cpu(const pb_state *s, float **a)
{
    int64_t ni = (int64_t)s->dim[NI], nj = (int64_t)s->dim[NJ], nk = (int64_t)s->dim[NK];
    for (int64_t i = 1; i < ni - 1; i++)
        for (int64_t j = 1; j < nj - 1; j++)
            for (int64_t k = 1; k < nk - 1; k++) {
                float v = 0;
                for (int t = 0; t < 15; t++)
                    v += T[t].c * a[A_][((i + T[t].di) * nj + j + T[t].dj) * nk + k + T[t].dk];
                a[B_][(i * nj + j) * nk + k] = v;
            }
}

static const pb_def def = {
    .name = "3dconv",
    .dims = { "NI", "NJ", "NK" },
    .dim_scaled = { 1, 1, 1 },
    .arrs = { { "A", 1, 0, 0 }, { "B", 1, 1, 1 } },
    .elems = elems, .init = init, .launch = launch, .cpu = cpu,
    .rtol = 1e-5, .atol = 1e-3,
};

PB_WORKLOAD(3dconv, "3dconv", def, params, "machine learning", "R",
            "3D convolution stencil, one kernel launch per plane, one thread per voxel");
