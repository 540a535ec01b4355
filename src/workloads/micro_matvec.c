/* matvec: row-per-thread matrix-vector product over the first `cols` columns, the
 * reference `matvec_row` kernel (A reads: one N*4-byte-strided line per lane; x: broadcast)
 *   __global__ void mv_row(const float* A, const float* x, float* y, int N)
 *   { int i = blockIdx.x*blockDim.x + threadIdx.x; if (i >= N) return; float s = 0.f;
 *     for (int j = 0; j < 64; ++j) s += A[i*N + j] * x[j];
 *     y[i] = s; }
 * The j loop is unrolled 4 times as nvcc does: per 4 iterations 8 LDG (A, x alternating),
 * 5 IADD3 (counter, two 64-bit pointer bumps), 4 FFMA, ISETP, BRA. 13-instruction prologue,
 * IMAD.WIDE STG EXIT epilogue: 320 instructions per warp with the reference sizes. */
#include "workloads/wl_util.h"
#include "workloads/wl_clamp.h"
#include <math.h>
#include <stdlib.h>

typedef struct matvec_st {
    uint64_t N, cols, repeat;
    uint32_t block;
    float *A, *x, *y;
    uint64_t dA, dx, dy;
    wl_shadow *sh;
    int done;
} matvec_st;

static const gms_wl_param matvec_params[] = {
    { "N", "2048", "matrix side (rows = threads)" },
    { "cols", "64", "columns each thread multiplies (the reference uses 64; N for a full product)" },
    { "block", "256", "threads per block" },
    { "repeat", "1", "launch the kernel this many times" },
    { "scale", "1", "multiplies N and cols (a size it takes to zero clamps to the smallest valid problem)" },
    { NULL, NULL, NULL },
};

static int matvec_sizes(const gms_wl_args *a, uint64_t *N, uint64_t *cols, uint64_t *Abytes, gms_error *err)
{
    if (wl_clamp_size(a, "matvec", "N", 1, 1ULL << 24, N, err)) return -1;
    if (wl_clamp_size(a, "matvec", "cols", 1, *N, cols, err)) return -1;
    return wl_bytes("matvec", "matrix A", *N, *N, 1, 4, WL_MAX_ARRAY_BYTES, Abytes, err);
}

static int matvec_create(const gms_wl_args *a, void **state, gms_error *err)
{
    uint64_t N, cols, ab;
    if (matvec_sizes(a, &N, &cols, &ab, err)) return -1;
    if (gms_wl_check_range(a, "block", 1, 1024, err)) return -1;
    if (gms_wl_check_range(a, "repeat", 1, 1000000, err)) return -1;
    matvec_st *s = gms_xcalloc(1, sizeof *s);
    s->N = N;
    s->cols = cols;
    s->block = (uint32_t)gms_wl_u64(a, "block");
    s->repeat = gms_wl_u64(a, "repeat");
    s->A = wl_calloc(N * N, sizeof(float));
    s->x = wl_calloc(N, sizeof(float));
    s->y = wl_calloc(N, sizeof(float));
    gms_rng r;
    gms_rng_seed(&r, gms_wl_seed(a));
    for (uint64_t i = 0; i < N * N; i++) s->A[i] = wl_randf(&r);
    for (uint64_t i = 0; i < N; i++) s->x[i] = wl_randf(&r);
    *state = s;
    return 0;
}

static int matvec_fill(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    matvec_st *s = k->st;
    uint64_t N = s->N;
    for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, k, block, wi);
        uint64_t i[32], A[32];
        float acc[32] = { 0 };
        uint8_t ri;
        uint32_t m = wl_prologue_1d(&w, N, i, &ri);
        if (!m) continue;
        uint8_t r4 = wl_int(&w, m, GMS_REG_NONE, GMS_REG_NONE);   /* MOV R7, 0x4 */
        uint8_t row = wl_int(&w, m, ri, GMS_REG_NONE);            /* IMAD i*N */
        uint8_t pa = wl_int(&w, m, row, r4);                      /* IMAD.WIDE A+i*N */
        uint8_t px = wl_int(&w, m, GMS_REG_NONE, GMS_REG_NONE);   /* MOV R4 (x lo) */
        uint8_t px2 = wl_int(&w, m, GMS_REG_NONE, GMS_REG_NONE);  /* MOV R5 (x hi) */
        uint8_t rs = wl_int(&w, m, GMS_REG_NONE, GMS_REG_NONE);   /* MOV s = 0 */
        uint8_t rc = wl_int(&w, m, GMS_REG_NONE, GMS_REG_NONE);   /* MOV j = 0 */
        (void)px2;
        uint64_t main_iters = s->cols / 4, j = 0;
        uint32_t loop = w.pc;
        for (uint64_t it = 0; it < main_iters; it++) {
            w.pc = loop;
            uint8_t va[4], vx[4];
            for (int u = 0; u < 4; u++, j++) {
                WL_LANES(m, l) A[l] = s->dA + (i[l] * N + j) * 4;
                va[u] = wl_ldg(&w, m, A, pa);
                WL_SH_LD(&w, m, float, s->A[i[l] * N + j]);
                vx[u] = wl_ldg_bcast(&w, m, s->dx + j * 4, px);
                WL_SH_LD(&w, m, float, s->x[j]);
            }
            rc = wl_int(&w, m, rc, GMS_REG_NONE);                 /* IADD3 j += 4 */
            pa = wl_int(&w, m, pa, GMS_REG_NONE);                 /* IADD3 A ptr lo */
            wl_int(&w, m, pa, GMS_REG_NONE);                      /* IADD3.X A ptr hi */
            px = wl_int(&w, m, px, GMS_REG_NONE);                 /* IADD3 x ptr lo */
            wl_int(&w, m, px, GMS_REG_NONE);                      /* IADD3.X x ptr hi */
            for (int u = 0; u < 4; u++) {
                rs = wl_fp(&w, m, va[u], vx[u], rs);              /* FFMA */
                uint64_t jj = j - 4 + (uint64_t)u;
                WL_LANES(m, l) acc[l] = fmaf(s->A[i[l] * N + jj], s->x[jj], acc[l]);
            }
            wl_pred(&w, m, rc, GMS_REG_NONE);                     /* ISETP.NE */
            wl_bra(&w, (it + 1 < main_iters || s->cols % 4) ? m : 0);
        }
        /* remainder iterations (cols not a multiple of 4) */
        uint32_t rloop = w.pc;
        for (; j < s->cols; j++) {
            w.pc = rloop;
            WL_LANES(m, l) A[l] = s->dA + (i[l] * N + j) * 4;
            uint8_t va = wl_ldg(&w, m, A, pa);
            WL_SH_LD(&w, m, float, s->A[i[l] * N + j]);
            uint8_t vx = wl_ldg_bcast(&w, m, s->dx + j * 4, px);
            WL_SH_LD(&w, m, float, s->x[j]);
            rc = wl_int(&w, m, rc, GMS_REG_NONE);                 /* IADD3 j++ */
            pa = wl_int(&w, m, pa, GMS_REG_NONE);                 /* IADD3 A ptr */
            px = wl_int(&w, m, px, GMS_REG_NONE);                 /* IADD3 x ptr */
            rs = wl_fp(&w, m, va, vx, rs);                        /* FFMA */
            WL_LANES(m, l) acc[l] = fmaf(s->A[i[l] * N + j], s->x[j], acc[l]);
            wl_pred(&w, m, rc, GMS_REG_NONE);
            wl_bra(&w, j + 1 < s->cols ? m : 0);
        }
        uint8_t py = wl_int(&w, m, ri, r4);                       /* IMAD.WIDE y+i */
        WL_LANES(m, l) {
            A[l] = s->dy + i[l] * 4;
            s->y[i[l]] = acc[l];
        }
        wl_stg(&w, m, A, py, rs);
        WL_SH_ST(&w, m, float, acc[l]);
        wl_exit(&w, m);
    }
    return 0;
}

static int matvec_next(void *state, gms_program *p, gms_error *err)
{
    matvec_st *s = state;
    if (!wl_once(&s->done)) return 0;
    s->dA = gms_prog_alloc(p, s->N * s->N * 4, "A");
    s->dx = gms_prog_alloc(p, s->N * 4, "x");
    s->dy = gms_prog_alloc(p, s->N * 4, "y");
    gms_prog_copy_h2d(p, s->dA, s->N * s->N * 4);
    gms_prog_copy_h2d(p, s->dx, s->N * 4);
    s->sh = p->shadow;
    wl_sh_init(p, s->dA, s->A, s->N * s->N * 4);
    wl_sh_init(p, s->dx, s->x, s->N * 4);
    for (uint64_t r = 0; r < s->repeat; r++)
        wl_launch(p, "_Z6mv_rowPKfS0_Pfi", wl_dim3(wl_cdiv(s->N, s->block), 1, 1), wl_dim3(s->block, 1, 1), 24, 0,
                  matvec_fill, s, NULL, 0);
    gms_prog_copy_d2h(p, s->dy, s->N * 4);
    gms_prog_sync(p);
    return 1;
}

static int matvec_verify(void *state, gms_error *err)
{
    matvec_st *s = state;
    float *ref = wl_calloc(s->N, sizeof(float));
    for (uint64_t i = 0; i < s->N; i++) {
        double acc = 0;
        for (uint64_t j = 0; j < s->cols; j++) acc += (double)s->A[i * s->N + j] * s->x[j];
        ref[i] = (float)acc;
    }
    void *own;
    const float *y = wl_result(s->sh, s->dy, s->y, s->N, sizeof(float), &own);
    int rc = wl_check_f32("matvec", "y", y, ref, s->N, 1e-5, 1e-6, err);
    free(ref);
    free(own);
    return rc;
}

static void matvec_destroy(void *state)
{
    matvec_st *s = state;
    if (!s) return;
    free(s->A);
    free(s->x);
    free(s->y);
    free(s);
}

static uint64_t matvec_footprint(const gms_wl_args *a)
{
    gms_error e;
    uint64_t N = 0, cols = 0, ab = 0;
    if (matvec_sizes(a, &N, &cols, &ab, &e)) return 0;
    return ab + 2 * N * 4;
}

const gms_workload_ops gms_wl_matvec = {
    .name = "matvec",
    .suite = "micro",
    .domain = "microbenchmark",
    .ri = "I",
    .summary = "row-per-thread y = A x over the first cols columns (reference kernel matvec_row): strided lanes",
    .params = matvec_params,
    .create = matvec_create,
    .next = matvec_next,
    .verify = matvec_verify,
    .destroy = matvec_destroy,
    .footprint = matvec_footprint,
};
