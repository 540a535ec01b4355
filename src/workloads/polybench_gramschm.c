/* GRAMSCHM (UVMBench polybench/GRAMSCHM, gramschmidt.cu): Gram-Schmidt QR of an M x N
 * matrix; for each column k three kernels (256-thread blocks): kernel1 (one block, thread 0
 * only) computes the column norm into R[k][k]; kernel2 (a thread per row i < M, grid
 * ceil(N/256) as in the source) writes Q[.][k] = A[.][k] / R[k][k]; kernel3 (a thread per
 * column j > k) computes R[k][j] = Q[.][k].A[.][j] and A[.][j] -= Q[.][k]*R[k][j], both
 * accumulated in memory. The suite's matrix ((i+1)(j+1)/(M+1)) has rank 1, so columns after
 * the first are rounding noise: the CPU reference therefore uses the same fused multiply-adds
 * as the kernels (fmaf) and matches them bit for bit. */
#include "workloads/wl_util_poly.h"

enum { A_, R_, Q_ };
enum { M, N };

static const gms_wl_param params[] = {
    { "M", "2048", "rows" },
    { "N", "2048", "columns (3 kernel launches each)" },
    { "scale", "1", "multiply every size by this factor" },
    { "repeat", "1", "run the whole factorisation this many times (on the updated A)" },
    { NULL, NULL, NULL },
};

static uint64_t elems(const uint64_t *d, int k) { (void)k; return d[M] * d[N]; }

static void init(const pb_state *s, float **a)
{
    uint64_t m = s->dim[M], n = s->dim[N];
    for (uint64_t i = 0; i < m; i++)
        for (uint64_t j = 0; j < n; j++) a[A_][i * n + j] = ((float)(i + 1) * (float)(j + 1)) / (float)(m + 1);
}

static int fill_k1(const wl_kernel *kr, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    pb_state *s = kr->st;
    int64_t m = (int64_t)s->dim[M], n = (int64_t)s->dim[N], k = kr->arg[0];
    float *A = s->h[A_], *R = s->h[R_];
    for (uint32_t wi = 0; wi < wl_nwarps(kr); wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, kr, block, wi);
        uint32_t in = 0;
        WL_LANES(w.live, l) if (wl_gx(&w, l) == 0) in |= 1u << l;
        uint8_t r[2];
        uint32_t mk = wl_guard(&w, 1, 1, in, r);
        if (!mk) continue;
        uint64_t a[32];
        float nrm = 0.0f;
        uint8_t rn = wl_int(&w, mk, GMS_REG_NONE, GMS_REG_NONE);     /* MOV nrm = 0 */
        wl_loop L;
        wl_loop_begin(&L, &w, mk, (uint64_t)m, 4, 1, r[0]);
        for (int64_t i = 0; i < m; i++) {
            wl_loop_top(&L, &w);
            WL_FADDR(a, mk, s->d[A_], i * n + k);
            uint8_t v = wl_ldg(&w, mk, a, L.ptr[0]);
            WL_SH_LD(&w, mk, float, A[i * n + k]);
            rn = wl_fp(&w, mk, v, v, rn);                              /* FFMA */
            nrm = fmaf(A[i * n + k], A[i * n + k], nrm);
            wl_loop_end(&L, &w, mk, i + 1 < m ? mk : 0);
        }
        rn = wl_fsqrt(&w, mk, rn);
        uint8_t four = wl_int(&w, mk, GMS_REG_NONE, GMS_REG_NONE);
        uint8_t pr = wl_int(&w, mk, GMS_REG_NONE, four);
        WL_FADDR(a, mk, s->d[R_], k * n + k);
        wl_stg(&w, mk, a, pr, rn);
        R[k * n + k] = sqrtf(nrm);
        WL_SH_ST(&w, mk, float, R[k * n + k]);
        wl_exit(&w, mk);
    }
    return 0;
}

static int fill_k2(const wl_kernel *kr, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    pb_state *s = kr->st;
    int64_t m = (int64_t)s->dim[M], n = (int64_t)s->dim[N], k = kr->arg[0];
    float *A = s->h[A_], *R = s->h[R_], *Q = s->h[Q_];
    for (uint32_t wi = 0; wi < wl_nwarps(kr); wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, kr, block, wi);
        int64_t i[32];
        uint8_t r[2];
        uint32_t mk = wl_guard_span(&w, 0, 0, m, 1, i, r);
        if (!mk) continue;
        uint64_t a[32], q[32];
        uint8_t idx = wl_int(&w, mk, r[0], GMS_REG_NONE);             /* IMAD i*N+k */
        uint8_t four = wl_int(&w, mk, GMS_REG_NONE, GMS_REG_NONE);
        uint8_t pa = wl_int(&w, mk, idx, four);
        uint8_t pr = wl_int(&w, mk, GMS_REG_NONE, four);
        WL_FADDR(a, mk, s->d[A_], i[l] * n + k);
        uint8_t va = wl_ldg(&w, mk, a, pa);
        WL_SH_LD(&w, mk, float, A[i[l] * n + k]);
        uint8_t vr = wl_ldg_bcast(&w, mk, pb_addr(s, R_, (uint64_t)(k * n + k)), pr);
        WL_SH_LD(&w, mk, float, R[k * n + k]);
        uint8_t vq = wl_fdiv(&w, mk, va, vr);
        uint8_t pq = wl_int(&w, mk, idx, four);
        WL_FADDR(q, mk, s->d[Q_], i[l] * n + k);
        wl_stg(&w, mk, q, pq, vq);
        WL_LANES(mk, l) Q[i[l] * n + k] = A[i[l] * n + k] / R[k * n + k];
        WL_SH_ST(&w, mk, float, Q[i[l] * n + k]);
        wl_exit(&w, mk);
    }
    return 0;
}

static int fill_k3(const wl_kernel *kr, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    pb_state *s = kr->st;
    int64_t m = (int64_t)s->dim[M], n = (int64_t)s->dim[N], k = kr->arg[0];
    float *A = s->h[A_], *R = s->h[R_], *Q = s->h[Q_];
    for (uint32_t wi = 0; wi < wl_nwarps(kr); wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, kr, block, wi);
        int64_t j[32];
        uint8_t r[2];
        uint32_t mk = wl_guard_span(&w, 0, k + 1, n, 2, j, r);
        if (!mk) continue;
        uint64_t ra[32], qa[32], aa[32];
        float acc[32];
        WL_FADDR(ra, mk, s->d[R_], k * n + j[l]);
        uint8_t four = wl_int(&w, mk, GMS_REG_NONE, GMS_REG_NONE);
        uint8_t pr = wl_int(&w, mk, r[0], four);
        uint8_t rr = wl_int(&w, mk, GMS_REG_NONE, GMS_REG_NONE);
        wl_stg(&w, mk, ra, pr, rr);                                    /* r[k][j] = 0 */
        WL_LANES(mk, l) acc[l] = 0.0f;
        WL_SH_ST(&w, mk, float, 0.0f);
        wl_loop L;
        wl_loop_begin(&L, &w, mk, (uint64_t)m, 4, 2, r[0]);
        for (int64_t i = 0; i < m; i++) {
            wl_loop_top(&L, &w);
            WL_FADDR(qa, mk, s->d[Q_], i * n + k);
            WL_FADDR(aa, mk, s->d[A_], i * n + j[l]);
            uint8_t vq = wl_ldg(&w, mk, qa, L.ptr[0]);
            WL_SH_LD(&w, mk, float, Q[i * n + k]);
            uint8_t va = wl_ldg(&w, mk, aa, L.ptr[1]);
            WL_SH_LD(&w, mk, float, A[i * n + j[l]]);
            rr = wl_fp(&w, mk, vq, va, rr);
            wl_stg(&w, mk, ra, pr, rr);
            WL_LANES(mk, l) acc[l] = fmaf(Q[i * n + k], A[i * n + j[l]], acc[l]);
            WL_SH_ST(&w, mk, float, acc[l]);
            wl_loop_end(&L, &w, mk, i + 1 < m ? mk : 0);
        }
        WL_LANES(mk, l) R[k * n + j[l]] = acc[l];
        wl_loop L2;
        wl_loop_begin(&L2, &w, mk, (uint64_t)m, 4, 2, r[0]);
        for (int64_t i = 0; i < m; i++) {
            wl_loop_top(&L2, &w);
            WL_FADDR(qa, mk, s->d[Q_], i * n + k);
            WL_FADDR(aa, mk, s->d[A_], i * n + j[l]);
            uint8_t va = wl_ldg(&w, mk, aa, L2.ptr[1]);
            WL_SH_LD(&w, mk, float, A[i * n + j[l]]);
            uint8_t vq = wl_ldg(&w, mk, qa, L2.ptr[0]);
            WL_SH_LD(&w, mk, float, Q[i * n + k]);
            uint8_t vr = wl_ldg(&w, mk, ra, pr);                     /* r reloaded: the a store may alias */
            WL_SH_LD(&w, mk, float, R[k * n + j[l]]);
            va = wl_fp(&w, mk, vq, vr, va);                            /* FFMA a - q*r */
            wl_stg(&w, mk, aa, L2.ptr[1], va);
            WL_LANES(mk, l) A[i * n + j[l]] = fmaf(-Q[i * n + k], R[k * n + j[l]], A[i * n + j[l]]);
            WL_SH_ST(&w, mk, float, A[i * n + j[l]]);
            wl_loop_end(&L2, &w, mk, i + 1 < m ? mk : 0);
        }
        wl_exit(&w, mk);
    }
    return 0;
}

static void launch(pb_state *s, gms_program *p)
{
    uint64_t n = s->dim[N];
    gms_dim3 b = wl_dim3(256, 1, 1), g = wl_dim3(wl_cdiv(n, 256), 1, 1);
    for (uint64_t k = 0; k < n; k++) {
        int64_t a[1] = { (int64_t)k };
        pb_launch(s, p, "_Z19gramschmidt_kernel1PfS_S_i", wl_dim3(1, 1, 1), b, 16, fill_k1, a, 1);
        pb_launch(s, p, "_Z19gramschmidt_kernel2PfS_S_i", g, b, 16, fill_k2, a, 1);
        pb_launch(s, p, "_Z19gramschmidt_kernel3PfS_S_i", g, b, 24, fill_k3, a, 1);
    }
}

static void cpu(const pb_state *s, float **a)
{
    int64_t m = (int64_t)s->dim[M], n = (int64_t)s->dim[N];
    int64_t rows = (int64_t)wl_cdiv((uint64_t)n, 256) * 256;   /* kernel2 covers i < min(M, its grid) */
    float *A = a[A_], *R = a[R_], *Q = a[Q_];
    for (int64_t k = 0; k < n; k++) {
        float nrm = 0;
        for (int64_t i = 0; i < m; i++) nrm = fmaf(A[i * n + k], A[i * n + k], nrm);
        R[k * n + k] = sqrtf(nrm);
        for (int64_t i = 0; i < m && i < rows; i++) Q[i * n + k] = A[i * n + k] / R[k * n + k];
        for (int64_t j = k + 1; j < n; j++) {
            float r = 0;
            for (int64_t i = 0; i < m; i++) r = fmaf(Q[i * n + k], A[i * n + j], r);
            R[k * n + j] = r;
            for (int64_t i = 0; i < m; i++) A[i * n + j] = fmaf(-Q[i * n + k], r, A[i * n + j]);
        }
    }
}

static const pb_def def = {
    .name = "gramschm",
    .dims = { "M", "N" },
    .dim_scaled = { 1, 1 },
    .arrs = { { "A", 1, 1, 1 }, { "R", 0, 0, 1 }, { "Q", 0, 0, 1 } },
    .elems = elems, .init = init, .launch = launch, .cpu = cpu,
    .rtol = 1e-6, .atol = 0,
};

PB_WORKLOAD(gramschm, "gramschm", def, params, "linear algebra", "I",
            "Gram-Schmidt QR decomposition: per column a norm, a scaling and a projection kernel");
