/* sgemm (Parboil, src/cuda/sgemm_kernel.cu): C = alpha * A * B^T + beta * C, register-tiled
 * (Volkov): block 16 x 8 threads, grid (M/128, N/16); each thread owns 16 elements of C
 * (one row m of a 128 x 16 tile), stages an 8 x 16 tile of B in shared memory per step:
 *   m = blockIdx.x*128 + threadIdx.y*16 + threadIdx.x;  n = blockIdx.y*16 + threadIdx.x;
 *   for (i = 0; i < k; i += 8) {
 *     b_s[ty][tx] = B[n + (i+ty)*ldb];  __syncthreads();
 *     for (j < 8) { a = A[m + (i+j)*lda]; for (kk < 16) c[kk] += a * b_s[j][kk]; }
 *     __syncthreads(); }
 *   for (i < 16) C[t + i*ldc] = C[t + i*ldc]*beta + alpha*c[i];   (t = ldc*blockIdx.y*16 + m)
 * main.cc calls regtileSgemm('N', 'T', M, N, K, 1, A, M, B, N, 0, C, M): A is M x K and B
 * N x K, both column-major (lda = M, ldb = N), C M x N column-major. The medium dataset:
 * M = 1024, N = 1056, K = 992 (matrix1.txt, matrix2t.txt); the input files become uniform
 * random floats in [0, 1). M must be a multiple of 128, N of 16, and K of 8 (the kernel's
 * tile loop reads B rows up to the next multiple of 8). Resumable: a thread runs K/8 steps. */
#include "workloads/parboil_util.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "util/err.h"

enum { A_, B_, C_ };
enum { M_, N_, K_ };

static const gms_wl_param params[] = {
    { "M", "1024", "rows of A and C (multiple of 128; medium dataset 1024)" },
    { "N", "1056", "columns of C, rows of B (multiple of 16; medium 1056)" },
    { "K", "992", "columns of A and B (multiple of 8; medium 992)" },
    { "scale", "1", "multiply every size by this factor (rounded down to the tile multiples)" },
    { "repeat", "1", "run the kernel this many times (beta = 0: C is recomputed)" },
    { NULL, NULL, NULL },
};

static int sizes(const gms_wl_args *a, uint64_t *d, gms_error *err)
{
    return wl_clamp_scaled(a, "sgemm", "M", 128, 128, 1u << 20, &d[M_], err) ||
           wl_clamp_scaled(a, "sgemm", "N", 16, 16, 1u << 20, &d[N_], err) ||
           wl_clamp_scaled(a, "sgemm", "K", 8, 8, 1u << 20, &d[K_], err);
}

static uint64_t elems(const uint64_t *d, int k)
{
    return k == A_ ? d[M_] * d[K_] : k == B_ ? d[N_] * d[K_] : d[M_] * d[N_];
}

static void init(const pbl_state *s, void **h)
{
    gms_rng r;
    gms_rng_seed(&r, s->seed);
    float *A = h[A_], *B = h[B_];
    for (uint64_t i = 0; i < s->n[A_]; i++) A[i] = wl_randf(&r);
    for (uint64_t i = 0; i < s->n[B_]; i++) B[i] = wl_randf(&r);
}

#define ALPHA 1.0f
#define BETA 0.0f

typedef struct sg_warp {
    wl_wgen ws;
    uint64_t i;              /* tile step */
    uint8_t ra, rb, rctr;    /* pointer and counter registers */
    uint8_t rc[16];          /* accumulators */
    float c[16][32];         /* lane l's c[kk] */
} sg_warp;

/* Host speed: 4 floats per operation (GCC's generic vectors: SSE on x86-64, scalar code
 * elsewhere). Each lane of a vector is its own element, with the same multiply and add in
 * the same order as the scalar code, so the results are bit-identical (no contraction:
 * -std=c11 compiles a*b + c as a multiply and an add). */
typedef float sg_v4 __attribute__((vector_size(16)));
static inline sg_v4 sg_ld(const float *p) { sg_v4 v; memcpy(&v, p, sizeof v); return v; }
static inline void sg_st(float *p, sg_v4 v) { memcpy(p, &v, sizeof v); }
static inline sg_v4 sg_bc(float x) { return (sg_v4){ x, x, x, x }; }

/* one tile step of the lanes' accumulators: c[kk][l] = A(m0+l, k) B(n0+kk, k) + c[kk][l] for
 * k = i .. i+7 in that order; a = &A(m0, i), b = &B(n0, i) (column-major, leading dimensions
 * lda and ldb) */
static void sg_lanes(sg_warp *g, uint32_t live, const float *a, uint64_t lda, const float *b, uint64_t ldb)
{
    if (live != 0xffffffffu) {
        for (uint64_t j = 0; j < 8; j++)
            for (int kk = 0; kk < 16; kk++)
                WL_LANES(live, l) g->c[kk][l] = PBL_MAD(a[(uint64_t)l + j * lda], b[(uint64_t)kk + j * ldb], g->c[kk][l]);
        return;
    }
    /* the 32 lanes of one c[kk] in 8 vectors, in registers: 8 independent chains of
     * multiply-adds */
    for (int kk = 0; kk < 16; kk++) {
        float *ck = g->c[kk];
        sg_v4 c0 = sg_ld(ck), c1 = sg_ld(ck + 4), c2 = sg_ld(ck + 8), c3 = sg_ld(ck + 12);
        sg_v4 c4 = sg_ld(ck + 16), c5 = sg_ld(ck + 20), c6 = sg_ld(ck + 24), c7 = sg_ld(ck + 28);
        for (uint64_t j = 0; j < 8; j++) {
            const sg_v4 bv = sg_bc(b[(uint64_t)kk + j * ldb]);
            const float *aj = a + j * lda;
            c0 = PBL_MAD(sg_ld(aj), bv, c0);
            c1 = PBL_MAD(sg_ld(aj + 4), bv, c1);
            c2 = PBL_MAD(sg_ld(aj + 8), bv, c2);
            c3 = PBL_MAD(sg_ld(aj + 12), bv, c3);
            c4 = PBL_MAD(sg_ld(aj + 16), bv, c4);
            c5 = PBL_MAD(sg_ld(aj + 20), bv, c5);
            c6 = PBL_MAD(sg_ld(aj + 24), bv, c6);
            c7 = PBL_MAD(sg_ld(aj + 28), bv, c7);
        }
        sg_st(ck, c0), sg_st(ck + 4, c1), sg_st(ck + 8, c2), sg_st(ck + 12, c3);
        sg_st(ck + 16, c4), sg_st(ck + 20, c5), sg_st(ck + 24, c6), sg_st(ck + 28, c7);
    }
}

/* lane l's index l, and 0 for every lane: lane addresses base + elem*idx[l] as wl_ld_idx takes
 * them (the records wl_ld makes of the built addresses; host speed) */
static const uint64_t lane_id[32] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
                                      16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31 };
static const uint64_t lane_zero[32];

static int step(const wl_kernel *k, wl_wgen *ws, gms_error *err)
{
    sg_warp *g = (sg_warp *)ws;
    wl_warp *w = &ws->w;
    pbl_state *s = k->st;
    const uint64_t M = s->dim[M_], N = s->dim[N_], K = s->dim[K_];
    const float *A = PBL_F(s, A_), *B = PBL_F(s, B_);
    /* 16 x 8 block: lane l of warp wi is mid = 32*wi + l, tx = l % 16, ty = 2*wi + l / 16 */
    const uint64_t m0 = (uint64_t)w->bx * 128 + (uint64_t)w->warp * 32, n0 = (uint64_t)w->by * 16;
    uint64_t ad[32];
    WL_GEN_BEGIN(&ws->g)
    {
        uint8_t tx = wl_int(w, w->live, GMS_REG_NONE, GMS_REG_NONE);    /* S2R tid.x */
        uint8_t ty = wl_int(w, w->live, GMS_REG_NONE, GMS_REG_NONE);    /* S2R tid.y */
        uint8_t bx = wl_int(w, w->live, GMS_REG_NONE, GMS_REG_NONE);    /* S2R ctaid.x */
        uint8_t by = wl_int(w, w->live, GMS_REG_NONE, GMS_REG_NONE);    /* S2R ctaid.y */
        uint8_t mid = wl_int(w, w->live, ty, tx);                       /* IMAD mid */
        g->ra = wl_int(w, w->live, bx, mid);                            /* LEA m */
        g->rb = wl_int(w, w->live, by, tx);                             /* LEA n */
        for (int kk = 0; kk < 16; kk++) {
            g->rc[kk] = GMS_REG_NONE;                                   /* c[kk] = 0 (RZ) */
            for (int l = 0; l < 32; l++) g->c[kk][l] = 0.0f;
        }
        wl_pred(w, w->live, GMS_REG_NONE, GMS_REG_NONE);                /* ISETP k < 1 */
        g->rctr = wl_int(w, w->live, GMS_REG_NONE, GMS_REG_NONE);       /* MOV i = 0 */
    }
    for (g->i = 0; g->i < K; g->i += 8) {
        w->pc = 0x100;
        {
            uint64_t i = g->i;
            uint8_t ib = wl_int(w, w->live, g->rctr, g->rb);            /* IMAD n + (i+ty)*ldb */
            uint8_t pb = wl_int(w, w->live, ib, GMS_REG_NONE);          /* IMAD.WIDE &B[..] */
            WL_LANES(w->live, l) ad[l] = pbl_addr(s, B_, n0 + (l & 15) + (i + w->warp * 2 + (uint64_t)(l >> 4)) * N);
            uint8_t vb = wl_ldg(w, w->live, ad, pb);
            WL_SH_LD(w, w->live, float, B[n0 + (l & 15) + (i + w->warp * 2 + (uint64_t)(l >> 4)) * N]);
            WL_LANES(w->live, l) ad[l] = (uint64_t)(w->warp * 32 + (uint32_t)l) * 4;   /* b_s[ty][tx] */
            wl_st(w, w->live, GMS_MEM_ST_SHARED, 4, ad, GMS_REG_NONE, vb);
            wl_bar(w);
            for (uint64_t j = 0; j < 8; j++) {
                uint8_t pa = wl_int(w, w->live, g->ra, g->rctr);        /* IMAD.WIDE &A[m + (i+j)*lda] */
                /* lane l: &A[m0 + l + (i+j)*M], 4-byte elements */
                uint8_t va = wl_ld_idx(w, w->live, GMS_MEM_LD_GLOBAL, 4, pbl_addr(s, A_, m0 + (i + j) * M), lane_id, 4, pa);
                if (w->sh) wl_sh_last(w->sh, w->e.w, 0, A + m0 + (i + j) * M, sizeof(float));   /* WL_SH_LD of A[..] */
                for (int q = 0; q < 4; q++) {
                    /* LDS.128 b_s[j][4q..4q+3]: the same address in every lane */
                    uint8_t vs = wl_ld_idx(w, w->live, GMS_MEM_LD_SHARED, 16, j * 64 + (uint64_t)q * 16, lane_zero, 16,
                                           GMS_REG_NONE);
                    for (int kk = 4 * q; kk < 4 * q + 4; kk++)
                        g->rc[kk] = wl_fp(w, w->live, va, vs, g->rc[kk]);   /* FFMA */
                }
            }
            /* the lanes' c[kk] += A(m, i+j) * B(n0+kk, i+j) for j = 0..7 in that order (the
             * values do not steer the emission, so they are computed after it) */
            sg_lanes(g, w->live, A + m0 + i * M, M, B + n0 + i * N, N);
            wl_bar(w);
            pbl_loop_back(w, w->live, i + 8 < K ? w->live : 0, g->rctr);
        }
        WL_GEN_YIELD(&ws->g);
    }
    {
        float *C = PBL_F(s, C_);
        /* t = ldc*blockIdx.y*16 + m: C[t + i*ldc] is element (m, n0 + i) */
        uint8_t t = wl_int(w, w->live, g->ra, g->rb);                   /* IMAD t */
        for (uint64_t i = 0; i < 16; i++) {
            uint8_t pc = wl_int(w, w->live, t, GMS_REG_NONE);           /* IMAD.WIDE &C[t + i*ldc] */
            WL_LANES(w->live, l) ad[l] = pbl_addr(s, C_, m0 + (uint64_t)l + (n0 + i) * M);
            uint8_t vc = wl_ldg(w, w->live, ad, pc);
            WL_SH_LD(w, w->live, float, C[m0 + (uint64_t)l + (n0 + i) * M]);
            uint8_t ac = wl_fp(w, w->live, g->rc[i], GMS_REG_NONE, GMS_REG_NONE);   /* FMUL alpha*c */
            uint8_t r = wl_fp(w, w->live, vc, ac, GMS_REG_NONE);                     /* FFMA C*beta + .. */
            WL_LANES(w->live, l) {
                uint64_t e = m0 + (uint64_t)l + (n0 + i) * M;
                C[e] = PBL_MAD(C[e], BETA, ALPHA * g->c[i][l]);
            }
            wl_stg(w, w->live, ad, pc, r);
            WL_SH_ST(w, w->live, float, C[m0 + (uint64_t)l + (n0 + i) * M]);
        }
        wl_exit(w, w->live);
    }
    WL_GEN_END(&ws->g);
}

static void launch(pbl_state *s, gms_program *p, uint64_t rep)
{
    wl_launch_gen(p, "_Z9mysgemmNTPKfiS0_iPfiiff", wl_dim3((uint32_t)(s->dim[M_] / 128), (uint32_t)(s->dim[N_] / 16), 1),
                  wl_dim3(16, 8, 1), 40, 8 * 16 * 4, step, sizeof(sg_warp), s, NULL, 0);
}

/* Parboil's reference: c(m, n) = sum over k = 0, 1, .. of A(m, k) B(n, k), then C = C beta +
 * alpha c. Each sum is accumulated in that order, one multiply-add at a time as the source
 * does, so the result is bit-identical to the plain triple loop (here 32 sums at a time,
 * each in its own vector lane, k innermost). */
static void cpu(const pbl_state *s, void **h, uint64_t rep)
{
    const uint64_t M = s->dim[M_], N = s->dim[N_], K = s->dim[K_];
    const float *A = h[A_], *B = h[B_];
    float *C = h[C_];
    /* host speed: a tile of 8 m x 4 n sums in registers (M is a multiple of 128, N of 16),
     * 4 sums per vector operation (sg_v4); the tile's A column slice stays in the L1 over
     * the n loop */
    for (uint64_t m = 0; m < M; m += 8)
        for (uint64_t n = 0; n < N; n += 4) {
            sg_v4 c[4][2] = { { sg_bc(0.0f), sg_bc(0.0f) }, { sg_bc(0.0f), sg_bc(0.0f) },
                              { sg_bc(0.0f), sg_bc(0.0f) }, { sg_bc(0.0f), sg_bc(0.0f) } };
            for (uint64_t k = 0; k < K; k++) {
                const float *a = A + m + k * M, *b = B + n + k * N;
                const sg_v4 a0 = sg_ld(a), a1 = sg_ld(a + 4);
                for (int q = 0; q < 4; q++) {
                    const sg_v4 bq = sg_bc(b[q]);
                    c[q][0] = PBL_MAD(a0, bq, c[q][0]);
                    c[q][1] = PBL_MAD(a1, bq, c[q][1]);
                }
            }
            for (int q = 0; q < 4; q++) {
                float r[8];
                sg_st(r, c[q][0]);
                sg_st(r + 4, c[q][1]);
                for (uint64_t x = 0; x < 8; x++) {
                    float *e = &C[m + x + (n + (uint64_t)q) * M];
                    *e = PBL_MAD(*e, BETA, ALPHA * r[x]);
                }
            }
        }
}

static const pbl_def def = {
    .name = "sgemm",
    .arrs = { { "A", 1, 0, 0, PBL_F32 }, { "B", 1, 0, 0, PBL_F32 }, { "C", 1, 1, 1, PBL_F32 } },
    .sizes = sizes, .elems = elems, .init = init, .launch = launch, .cpu = cpu,
    .rtol = 0, .atol = 0,
};

PBL_WORKLOAD(sgemm, "sgemm", def, params, "linear algebra", "R",
             "register-tiled dense matrix multiply C = A*B^T (16x8 blocks, 128x16 tile, B tile in shared memory)");
