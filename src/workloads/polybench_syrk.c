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

static int fill(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    pb_state *s = k->st;
    uint64_t n = s->dim[N], mm = s->dim[M];
    float *A = s->h[A_], *C = s->h[C_];
    for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, k, block, wi);
        int64_t i[32], j[32];
        uint32_t in = 0;
        WL_LANES(w.live, l) {
            j[l] = wl_gx(&w, l);
            i[l] = wl_gy(&w, l);
            if ((uint64_t)i[l] < n && (uint64_t)j[l] < n) in |= 1u << l;
        }
        uint8_t r[2];
        uint32_t m = wl_guard(&w, 2, 2, in, r);
        if (!m) continue;
        uint64_t ca[32], a1[32], a2[32];
        float c[32];
        WL_FADDR(ca, m, s->d[C_], i[l] * (int64_t)n + j[l]);
        uint8_t ic = wl_int(&w, m, r[1], r[0]);
        uint8_t four = wl_int(&w, m, GMS_REG_NONE, GMS_REG_NONE);
        uint8_t pc = wl_int(&w, m, ic, four);
        uint8_t rc = wl_ldg(&w, m, ca, pc);
        rc = wl_fp(&w, m, rc, GMS_REG_NONE, GMS_REG_NONE);           /* FMUL beta */
        wl_stg(&w, m, ca, pc, rc);
        WL_LANES(m, l) c[l] = C[i[l] * (int64_t)n + j[l]] * BETA;
        wl_loop L;
        wl_loop_begin(&L, &w, m, mm, 4, 2, r[1]);
        for (uint64_t kk = 0; kk < mm; kk++) {
            wl_loop_top(&L, &w);
            WL_FADDR(a1, m, s->d[A_], i[l] * (int64_t)mm + (int64_t)kk);
            WL_FADDR(a2, m, s->d[A_], j[l] * (int64_t)mm + (int64_t)kk);
            uint8_t v1 = wl_ldg(&w, m, a1, L.ptr[0]);
            uint8_t v2 = wl_ldg(&w, m, a2, L.ptr[1]);
            v1 = wl_fp(&w, m, v1, GMS_REG_NONE, GMS_REG_NONE);      /* FMUL alpha*a */
            rc = wl_fp(&w, m, v1, v2, rc);                           /* FFMA */
            wl_stg(&w, m, ca, pc, rc);
            WL_LANES(m, l) c[l] = fmaf(ALPHA * A[i[l] * (int64_t)mm + (int64_t)kk], A[j[l] * (int64_t)mm + (int64_t)kk], c[l]);
            wl_loop_end(&L, &w, m, kk + 1 < mm ? m : 0);
        }
        WL_LANES(m, l) C[i[l] * (int64_t)n + j[l]] = c[l];
        wl_exit(&w, m);
    }
    return 0;
}

static void launch(pb_state *s, gms_program *p)
{
    uint64_t n = s->dim[N];
    pb_launch(s, p, "_Z11syrk_kernelffPfS_", wl_dim3(wl_cdiv(n, 32), wl_cdiv(n, 8), 1), wl_dim3(32, 8, 1), 20, fill,
              NULL, 0);
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
