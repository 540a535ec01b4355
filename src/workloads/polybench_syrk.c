/* SYRK (UVMBench polybench/SYRK, syrk.cu): C = beta*C + alpha*A*A^T, one kernel, 32x8
 * blocks, one thread per element of C; both A reads of an iteration are row reads
 * (a[i*M+k]: warp broadcast, a[j*M+k]: lanes M*4 bytes apart). */
#include "workloads/wl_util_poly.h"

#define ALPHA 12435.0f
#define BETA 4546.0f

enum { A_, C_ };
enum { N, M };

static const gms_wl_param params[] = {
    { "N", "1024", "order of C, rows of A" },
    { "M", "1024", "columns of A" },
    { "scale", "1", "multiply every size by this factor" },
    { "repeat", "1", "run the kernel this many times (C accumulates)" },
    { NULL, NULL, NULL },
};

static uint64_t elems(const uint64_t *d, int k) { return k == A_ ? d[N] * d[M] : d[N] * d[N]; }

static void init(const pb_state *s, float **a)
{
    uint64_t n = s->dim[N], m = s->dim[M];
    for (uint64_t i = 0; i < n; i++) {
        for (uint64_t j = 0; j < m; j++) a[A_][i * m + j] = ((float)i * (float)j) / (float)n;
        for (uint64_t j = 0; j < n; j++) a[C_][i * n + j] = ((float)i * (float)j + 2) / (float)n;
    }
}

/* one warp, resumable (wl_gen.h): what lives across a yield */
typedef struct syrk_warp {
    wl_wgen ws;
    int64_t i[32], j[32];
    uint32_t m;
    uint8_t pc, rc;
    uint64_t ca[32], kk;
    float c[32];
    wl_loop L;
} syrk_warp;

static int step(const wl_kernel *k, wl_wgen *ws, gms_error *err)
{
    syrk_warp *g = (syrk_warp *)ws;
    wl_warp *w = &ws->w;
    pb_state *s = k->st;
    uint64_t n = s->dim[N], mm = s->dim[M];
    float *A = s->h[A_], *C = s->h[C_];
    WL_GEN_BEGIN(&ws->g)
    uint32_t in = 0;
    WL_LANES(w->live, l) {
        g->j[l] = wl_gx(w, l);
        g->i[l] = wl_gy(w, l);
        if ((uint64_t)g->i[l] < n && (uint64_t)g->j[l] < n) in |= 1u << l;
    }
    uint8_t r[2];
    g->m = wl_guard(w, 2, 2, in, r);
    if (!g->m) return 0;
    uint32_t m = g->m;
    WL_FADDR(g->ca, m, s->d[C_], g->i[l] * (int64_t)n + g->j[l]);
    uint8_t ic = wl_int(w, m, r[1], r[0]);
    uint8_t four = wl_int(w, m, GMS_REG_NONE, GMS_REG_NONE);
    g->pc = wl_int(w, m, ic, four);
    g->rc = wl_ldg(w, m, g->ca, g->pc);
    g->rc = wl_fp(w, m, g->rc, GMS_REG_NONE, GMS_REG_NONE);           /* FMUL beta */
    wl_stg(w, m, g->ca, g->pc, g->rc);
    WL_LANES(m, l) g->c[l] = C[g->i[l] * (int64_t)n + g->j[l]] * BETA;
    wl_loop_begin(&g->L, w, m, mm, 4, 2, r[1]);
    for (g->kk = 0; g->kk < mm; g->kk++) {
        uint32_t mk = g->m;
        uint64_t kk = g->kk, a1[32], a2[32];
        wl_loop_top(&g->L, w);
        WL_FADDR(a1, mk, s->d[A_], g->i[l] * (int64_t)mm + (int64_t)kk);
        WL_FADDR(a2, mk, s->d[A_], g->j[l] * (int64_t)mm + (int64_t)kk);
        uint8_t v1 = wl_ldg(w, mk, a1, g->L.ptr[0]);
        uint8_t v2 = wl_ldg(w, mk, a2, g->L.ptr[1]);
        v1 = wl_fp(w, mk, v1, GMS_REG_NONE, GMS_REG_NONE);      /* FMUL alpha*a */
        g->rc = wl_fp(w, mk, v1, v2, g->rc);                     /* FFMA */
        wl_stg(w, mk, g->ca, g->pc, g->rc);
        WL_LANES(mk, l)
            g->c[l] = fmaf(ALPHA * A[g->i[l] * (int64_t)mm + (int64_t)kk], A[g->j[l] * (int64_t)mm + (int64_t)kk], g->c[l]);
        wl_loop_end(&g->L, w, mk, kk + 1 < mm ? mk : 0);
        WL_GEN_YIELD(&ws->g);
    }
    WL_LANES(g->m, l) C[g->i[l] * (int64_t)n + g->j[l]] = g->c[l];
    wl_exit(w, g->m);
    WL_GEN_END(&ws->g);
}

static void launch(pb_state *s, gms_program *p)
{
    uint64_t n = s->dim[N];
    pb_launch_gen(s, p, "_Z11syrk_kernelffPfS_", wl_dim3(wl_cdiv(n, 32), wl_cdiv(n, 8), 1), wl_dim3(32, 8, 1), 20, step,
                  sizeof(syrk_warp), NULL, 0);
}

static void cpu(const pb_state *s, float **a)
{
    uint64_t n = s->dim[N], m = s->dim[M];
    for (uint64_t i = 0; i < n; i++)
        for (uint64_t j = 0; j < n; j++) {
            float c = a[C_][i * n + j] * BETA;
            for (uint64_t k = 0; k < m; k++) c += ALPHA * a[A_][i * m + k] * a[A_][j * m + k];
            a[C_][i * n + j] = c;
        }
}

static const pb_def def = {
    .name = "syrk",
    .dims = { "N", "M" },
    .dim_scaled = { 1, 1 },
    .arrs = { { "A", 1, 0, 0 }, { "C", 1, 1, 1 } },
    .elems = elems, .init = init, .launch = launch, .cpu = cpu,
    .rtol = 1e-3, .atol = 1e-1,
};

PB_WORKLOAD(syrk, "syrk", def, params, "linear algebra", "R",
            "symmetric rank-k update C = alpha*A*A^T + beta*C, one thread per element of C");
