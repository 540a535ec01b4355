/* SYR2K (UVMBench polybench/SYR2K, syr2k.cu): C = beta*C + alpha*(A*B^T + B*A^T), one
 * kernel, 32x8 blocks, one thread per element of C, four loads per iteration. */
#include "workloads/wl_util_poly.h"

#define ALPHA 12435.0f
#define BETA 4546.0f

enum { A_, B_, C_ };
enum { N, M };

static const gms_wl_param params[] = {
    { "N", "2048", "order of C, rows of A and B" },
    { "M", "2048", "columns of A and B" },
    { "scale", "1", "multiply every size by this factor" },
    { "repeat", "1", "run the kernel this many times (C accumulates)" },
    { NULL, NULL, NULL },
};

static uint64_t elems(const uint64_t *d, int k) { return k == C_ ? d[N] * d[N] : d[N] * d[M]; }

static void init(const pb_state *s, float **a)
{
    uint64_t n = s->dim[N], m = s->dim[M];
    for (uint64_t i = 0; i < n; i++) {
        for (uint64_t j = 0; j < n; j++) a[C_][i * n + j] = ((float)i * (float)j + 2) / (float)n;
        for (uint64_t j = 0; j < m; j++) {
            a[A_][i * m + j] = ((float)i * (float)j) / (float)n;
            a[B_][i * m + j] = ((float)i * (float)j + 1) / (float)n;
        }
    }
}

/* one warp, resumable (wl_gen.h): the matrix-multiply kernel's prologue and epilogue
 * (pb_mm_begin / pb_mm_end) around a loop of four loads */
static int step(const wl_kernel *k, wl_wgen *ws, gms_error *err)
{
    pb_mm_warp *g = (pb_mm_warp *)ws;
    wl_warp *w = &ws->w;
    pb_state *s = k->st;
    uint64_t n = s->dim[N], mm = s->dim[M];
    float *A = s->h[A_], *B = s->h[B_], *C = s->h[C_];
    WL_GEN_BEGIN(&ws->g)
    uint8_t r[2];
    if (!pb_mm_begin(g, s, C_, n, n, 1, BETA, r)) return 0;
    wl_loop_begin(&g->L, w, g->m, mm, 4, 4, r[1]);
    for (g->kk = 0; g->kk < mm; g->kk++) {
        uint32_t mk = g->m;
        uint64_t kk = g->kk, x1[32], x2[32], x3[32], x4[32];
        const int64_t *i = g->i, *j = g->j;
        wl_loop_top(&g->L, w);
        int64_t K = (int64_t)kk, Mi = (int64_t)mm;
        WL_FADDR(x1, mk, s->d[A_], i[l] * Mi + K);
        WL_FADDR(x2, mk, s->d[B_], j[l] * Mi + K);
        WL_FADDR(x3, mk, s->d[B_], i[l] * Mi + K);
        WL_FADDR(x4, mk, s->d[A_], j[l] * Mi + K);
        uint8_t v1 = wl_ldg(w, mk, x1, g->L.ptr[0]);
        WL_SH_LD(w, mk, float, A[i[l] * Mi + K]);
        uint8_t v2 = wl_ldg(w, mk, x2, g->L.ptr[1]);
        WL_SH_LD(w, mk, float, B[j[l] * Mi + K]);
        uint8_t v3 = wl_ldg(w, mk, x3, g->L.ptr[2]);
        WL_SH_LD(w, mk, float, B[i[l] * Mi + K]);
        uint8_t v4 = wl_ldg(w, mk, x4, g->L.ptr[3]);
        WL_SH_LD(w, mk, float, A[j[l] * Mi + K]);
        uint8_t f1 = wl_fp(w, mk, v1, GMS_REG_NONE, GMS_REG_NONE);   /* FMUL alpha*a_ik */
        uint8_t f3 = wl_fp(w, mk, v3, GMS_REG_NONE, GMS_REG_NONE);   /* FMUL alpha*b_ik */
        uint8_t t2 = wl_fp(w, mk, f3, v4, GMS_REG_NONE);             /* FMUL (alpha*b_ik)*a_jk */
        uint8_t t = wl_fp(w, mk, f1, v2, t2);                        /* FFMA */
        g->rc = wl_fp(w, mk, g->rc, t, GMS_REG_NONE);                /* FADD */
        wl_stg(w, mk, g->ca, g->pc, g->rc);
        WL_LANES(mk, l) {
            float p2 = (ALPHA * B[i[l] * Mi + K]) * A[j[l] * Mi + K];
            g->c[l] = g->c[l] + fmaf(ALPHA * A[i[l] * Mi + K], B[j[l] * Mi + K], p2);
        }
        WL_SH_ST(w, mk, float, g->c[l]);
        wl_loop_end(&g->L, w, mk, kk + 1 < mm ? mk : 0);
        WL_GEN_YIELD(&ws->g);
    }
    pb_mm_end(g, C, n);
    WL_GEN_END(&ws->g);
}

static void launch(pb_state *s, gms_program *p)
{
    uint64_t n = s->dim[N];
    pb_launch_gen(s, p, "_Z12syr2k_kernelPfS_S_", wl_dim3(wl_cdiv(n, 32), wl_cdiv(n, 8), 1), wl_dim3(32, 8, 1), 24,
                  step, pb_mm_wsize(), NULL, 0);
}

static void cpu(const pb_state *s, float **a)
{
    uint64_t n = s->dim[N], m = s->dim[M];
    for (uint64_t i = 0; i < n; i++)
        for (uint64_t j = 0; j < n; j++) {
            float c = a[C_][i * n + j] * BETA;
            for (uint64_t k = 0; k < m; k++)
                c += ALPHA * a[A_][i * m + k] * a[B_][j * m + k] + ALPHA * a[B_][i * m + k] * a[A_][j * m + k];
            a[C_][i * n + j] = c;
        }
}

static const pb_def def = {
    .name = "syr2k",
    .dims = { "N", "M" },
    .dim_scaled = { 1, 1 },
    .arrs = { { "A", 1, 0, 0 }, { "B", 1, 0, 0 }, { "C", 1, 1, 1 } },
    .elems = elems, .init = init, .launch = launch, .cpu = cpu,
    .rtol = 1e-3, .atol = 1e-1,
};

PB_WORKLOAD(syr2k, "syr2k", def, params, "linear algebra", "I",
            "symmetric rank-2k update C = alpha*(A*B^T + B*A^T) + beta*C, one thread per element of C");
