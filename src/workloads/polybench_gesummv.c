/* GESUMMV (UVMBench polybench/GESUMMV, gesummv.cu): y = ALPHA*A x + BETA*B x, one kernel,
 * 256-thread blocks, a row per thread (lanes N*4 bytes apart), tmp and y accumulated in
 * memory. B is never initialised by the source (pinned host memory: zeros), nor are y, tmp. */
#include "workloads/wl_util_poly.h"

#define ALPHA 43532.0f
#define BETA 12313.0f

enum { A_, B_, X_, Y_, TMP_ };
enum { N };

static const gms_wl_param params[] = {
    { "N", "4096", "matrix side" },
    { "scale", "1", "multiply every size by this factor" },
    { "repeat", "1", "run the kernel this many times (y, tmp accumulate)" },
    { NULL, NULL, NULL },
};

static uint64_t elems(const uint64_t *d, int k) { return k <= B_ ? d[N] * d[N] : d[N]; }

static void init(const pb_state *s, float **a)
{
    uint64_t n = s->dim[N];
    for (uint64_t i = 0; i < n; i++) {
        a[X_][i] = (float)i / (float)n;
        for (uint64_t j = 0; j < n; j++) a[A_][i * n + j] = ((float)i * (float)j) / (float)n;
    }
}

static int fill(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    pb_state *s = k->st;
    uint64_t n = s->dim[N];
    float *A = s->h[A_], *B = s->h[B_], *x = s->h[X_], *y = s->h[Y_], *tmp = s->h[TMP_];
    for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, k, block, wi);
        int64_t i[32];
        uint8_t r[2];
        uint32_t m = wl_guard_span(&w, 0, 0, (int64_t)n, 1, i, r);
        if (!m) continue;
        uint64_t ta[32], ya[32], aa[32], ba[32], xa[32];
        float vt[32], vy[32];
        WL_FADDR(ta, m, s->d[TMP_], i[l]);
        WL_FADDR(ya, m, s->d[Y_], i[l]);
        uint8_t four = wl_int(&w, m, GMS_REG_NONE, GMS_REG_NONE);
        uint8_t pt = wl_int(&w, m, r[0], four);
        uint8_t py = wl_int(&w, m, r[0], four);
        uint8_t rt = GMS_REG_NONE, ry = GMS_REG_NONE;
        WL_LANES(m, l) { vt[l] = tmp[i[l]]; vy[l] = y[i[l]]; }
        wl_loop L;
        wl_loop_begin(&L, &w, m, n, 4, 3, r[0]);
        for (uint64_t j = 0; j < n; j++) {
            /* the two accumulators may alias each other and the inputs: every iteration
             * reloads tmp, a, x, then y, b, x */
            wl_loop_top(&L, &w);
            WL_FADDR(aa, m, s->d[A_], i[l] * (int64_t)n + (int64_t)j);
            WL_FADDR(ba, m, s->d[B_], i[l] * (int64_t)n + (int64_t)j);
            WL_FADDR(xa, m, s->d[X_], (int64_t)j);
            rt = wl_ldg(&w, m, ta, pt);
            WL_SH_LD(&w, m, float, vt[l]);
            uint8_t va = wl_ldg(&w, m, aa, L.ptr[0]);
            WL_SH_LD(&w, m, float, A[i[l] * (int64_t)n + (int64_t)j]);
            uint8_t vx = wl_ldg(&w, m, xa, L.ptr[2]);
            WL_SH_LD(&w, m, float, x[j]);
            rt = wl_fp(&w, m, va, vx, rt);                         /* tmp += a*x */
            wl_stg(&w, m, ta, pt, rt);
            WL_LANES(m, l) vt[l] = fmaf(A[i[l] * (int64_t)n + (int64_t)j], x[j], vt[l]);
            WL_SH_ST(&w, m, float, vt[l]);
            ry = wl_ldg(&w, m, ya, py);
            WL_SH_LD(&w, m, float, vy[l]);
            uint8_t vb = wl_ldg(&w, m, ba, L.ptr[1]);
            WL_SH_LD(&w, m, float, B[i[l] * (int64_t)n + (int64_t)j]);
            vx = wl_ldg(&w, m, xa, L.ptr[2]);
            WL_SH_LD(&w, m, float, x[j]);
            ry = wl_fp(&w, m, vb, vx, ry);                         /* y += b*x */
            wl_stg(&w, m, ya, py, ry);
            WL_LANES(m, l) vy[l] = fmaf(B[i[l] * (int64_t)n + (int64_t)j], x[j], vy[l]);
            WL_SH_ST(&w, m, float, vy[l]);
            wl_loop_end(&L, &w, m, j + 1 < n ? m : 0);
        }
        rt = wl_ldg(&w, m, ta, pt);                                  /* tmp reloaded (y may alias it) */
        WL_SH_LD(&w, m, float, vt[l]);
        uint8_t t1 = wl_fp(&w, m, ry, GMS_REG_NONE, GMS_REG_NONE);   /* FMUL BETA*y */
        uint8_t t2 = wl_fp(&w, m, rt, t1, GMS_REG_NONE);             /* FFMA ALPHA*tmp + . */
        wl_stg(&w, m, ya, py, t2);
        WL_LANES(m, l) {
            tmp[i[l]] = vt[l];
            y[i[l]] = fmaf(ALPHA, vt[l], BETA * vy[l]);
        }
        WL_SH_ST(&w, m, float, y[i[l]]);
        wl_exit(&w, m);
    }
    return 0;
}

static void launch(pb_state *s, gms_program *p)
{
    pb_launch(s, p, "_Z14gesummv_kernelPfS_S_S_S_", wl_dim3(wl_cdiv(s->dim[N], 256), 1, 1), wl_dim3(256, 1, 1), 16,
              fill, NULL, 0);
}

static void cpu(const pb_state *s, float **a)
{
    uint64_t n = s->dim[N];
    for (uint64_t i = 0; i < n; i++) {
        float t = a[TMP_][i], y = a[Y_][i];
        for (uint64_t j = 0; j < n; j++) {
            t = a[A_][i * n + j] * a[X_][j] + t;
            y = a[B_][i * n + j] * a[X_][j] + y;
        }
        a[TMP_][i] = t;
        a[Y_][i] = ALPHA * t + BETA * y;
    }
}

static const pb_def def = {
    .name = "gesummv",
    .dims = { "N" },
    .dim_scaled = { 1 },
    .arrs = { { "A", 1, 0, 0 }, { "B", 1, 0, 0 }, { "x", 1, 0, 0 }, { "y", 1, 1, 1 }, { "tmp", 1, 0, 1 } },
    .elems = elems, .init = init, .launch = launch, .cpu = cpu,
    .rtol = 1e-3, .atol = 1e-1,
};

PB_WORKLOAD(gesummv, "gesummv", def, params, "machine learning", "I",
            "scalar-vector-matrix y = alpha*A x + beta*B x, a row of both matrices per thread");
