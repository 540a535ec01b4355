/* Helpers for array-program workloads (Polybench/UVMBench style): a declarative table of
 * sizes and arrays, a generic create/next/verify/destroy/footprint, and the emission pieces
 * every such kernel uses (guarded prologue, nvcc-like unrolled loops, float division).
 *
 * A workload fills a pb_def: its size parameters (scaled by `scale`), its arrays in
 * cudaMalloc order (element counts from the sizes, copied in / out or not), an init function
 * (the suite's own formulas), a launch function (one repetition of the kernel sequence), and
 * a CPU reference (one repetition). The generic code:
 *   create:   parse sizes, reject zero/overflowing sizes, allocate and init host arrays
 *   next:     cudaMalloc every array, H2D the inputs, `repeat` x launch(), post(), D2H outputs;
 *             every array's initial host contents go to the shadow memory (wl_shadow.h)
 *   verify:   re-init fresh arrays, run cpu() `repeat` times, compare the outputs (read from
 *             the shadow memory at their device addresses in functional verify runs)
 * Kernels give each global load's and store's lane values with WL_SH_LD / WL_SH_ST.
 * PB_WORKLOAD(x, ...) defines `const gms_workload_ops gms_wl_pb_x`. */
#ifndef GMS_WORKLOADS_WL_UTIL_POLY_H
#define GMS_WORKLOADS_WL_UTIL_POLY_H
#include <math.h>
#include "workloads/wl_util.h"

#define PB_MAX_DIMS 6
#define PB_MAX_ARRS 8

typedef struct pb_state pb_state;

typedef struct pb_arr_def {
    const char *name;
    int copy_in, copy_out;     /* cudaMemcpy H2D before the kernels / D2H after */
    int check;                 /* compared with the CPU reference by verify */
} pb_arr_def;

typedef struct pb_def {
    const char *name;
    const char *dims[PB_MAX_DIMS];     /* size parameter names, NULL-terminated */
    uint64_t dim_max[PB_MAX_DIMS];     /* largest accepted value of each (0: 1<<20) */
    int dim_scaled[PB_MAX_DIMS];       /* 1: multiplied by `scale` */
    uint64_t dim_min[PB_MAX_DIMS];     /* smallest valid value: a `scale` below it clamps (wl_clamp.h); 0 = none */
    pb_arr_def arrs[PB_MAX_ARRS];      /* cudaMalloc order, {NULL}-terminated */
    uint64_t (*elems)(const uint64_t *dim, int arr);   /* floats in array `arr` */
    int (*check)(const pb_state *s, gms_error *err);  /* extra size checks (may be NULL) */
    void (*init)(const pb_state *s, float **a);        /* the suite's init formulas */
    void (*launch)(pb_state *s, gms_program *p);       /* one repetition of the kernels */
    void (*post)(pb_state *s, gms_program *p);         /* after all repetitions (may be NULL) */
    void (*cpu)(const pb_state *s, float **a);         /* CPU reference: one repetition */
    double rtol, atol;                                 /* verify tolerance */
} pb_def;

struct pb_state {
    const pb_def *def;
    uint64_t dim[PB_MAX_DIMS];
    uint64_t repeat, seed;
    int narr;
    uint64_t n[PB_MAX_ARRS];     /* floats per array */
    float *h[PB_MAX_ARRS];       /* host copy = device contents (kernels update it) */
    uint64_t d[PB_MAX_ARRS];     /* device address */
    wl_shadow *sh;               /* the run's shadow memory (verify reads it), or NULL */
    int done;
};

int pb_create(const pb_def *def, const gms_wl_args *a, void **state, gms_error *err);
int pb_next(void *state, gms_program *p, gms_error *err);
int pb_verify(void *state, gms_error *err);
void pb_destroy(void *state);
uint64_t pb_footprint(const pb_def *def, const gms_wl_args *a);

/* launch helper: kernel over grid x block with the state and up to WL_KARGS arguments */
static inline void pb_launch(pb_state *s, gms_program *p, const char *name, gms_dim3 grid, gms_dim3 block,
                             uint32_t regs, wl_fill_fn fill, const int64_t *args, int nargs)
{
    wl_launch(p, name, grid, block, regs, 0, fill, s, args, nargs);
}

static inline void pb_launch_gen(pb_state *s, gms_program *p, const char *name, gms_dim3 grid, gms_dim3 block,
                                 uint32_t regs, wl_step_fn step, size_t wsize, const int64_t *args, int nargs)
{
    wl_launch_gen(p, name, grid, block, regs, 0, step, wsize, s, args, nargs);
}

/* device address of element e of array k */
static inline uint64_t pb_addr(const pb_state *s, int k, uint64_t e) { return s->d[k] + e * 4; }

/* error when a grid computed like the source (which may truncate) is empty */
int pb_need_grid(const pb_state *s, const char *kernel, uint64_t gx, uint64_t gy, gms_error *err);

/* The Polybench matrix init a[i*cols+j] = (i * (j + add)) / div for i < rows, j < cols */
void pb_init_ratio(float *a, uint64_t rows, uint64_t cols, uint64_t add, uint64_t div);

/* ---------------------------------------------------------------- emission pieces */
/* Guarded prologue: MOV R1; per dimension S2R ctaid, S2R tid, IMAD (index); `npred`
 * ISETPs; @P0 EXIT for the live lanes not in `in`. Returns `in` (0: the warp is done).
 * r[d] receives the index register of dimension d (x first). */
uint32_t wl_guard(wl_warp *w, int ndims, int npred, uint32_t in, uint8_t r[2]);
/* wl_guard for a 1D index: idx[l] = the lane's global x index + `first`; the lanes with
 * lo <= idx < hi run on (`npred` ISETPs). */
uint32_t wl_guard_span(wl_warp *w, int64_t first, int64_t lo, int64_t hi, int npred, int64_t idx[32], uint8_t r[2]);

/* global index of a lane (blockIdx*blockDim + threadIdx) */
static inline int64_t wl_gx(const wl_warp *w, int l) { return (int64_t)w->bx * w->bdim.x + w->tx[l]; }
static inline int64_t wl_gy(const wl_warp *w, int l) { return (int64_t)w->by * w->bdim.y + w->ty[l]; }

/* per-lane float addresses: out[l] = base + (expr)*4 for lanes in mask; expr may use l */
#define WL_FADDR(out, mask, base, expr) WL_LANES(mask, l) (out)[l] = (base) + (uint64_t)(int64_t)(expr) * 4u

/* A counted loop as nvcc emits it, unrolled `unroll` times: before it MOV (counter) and one
 * IMAD.WIDE per pointer; after each group of `unroll` iterations (or the last) IADD3 on the
 * counter, IADD3 + IADD3.X per pointer, ISETP, BRA (mask 0 when the loop exits). Call
 * wl_loop_top() before each iteration's body and wl_loop_end() after it. `mask` may shrink
 * between iterations (lanes whose own loop ended). */
typedef struct wl_loop {
    uint32_t top;
    uint64_t n, t;
    int unroll, nptr;
    uint8_t ctr, ptr[4];
} wl_loop;
void wl_loop_begin(wl_loop *L, wl_warp *w, uint32_t mask, uint64_t n, int unroll, int nptr, uint8_t base);
static inline void wl_loop_top(wl_loop *L, wl_warp *w) { if (L->t % (uint64_t)L->unroll == 0) w->pc = L->top; }
/* `mask`: lanes executing this iteration; `more`: lanes that run another iteration */
void wl_loop_end(wl_loop *L, wl_warp *w, uint32_t mask, uint32_t more);

/* IEEE float division as nvcc emits it (MUFU.RCP + 3 FFMA): returns the quotient register */
uint8_t wl_fdiv(wl_warp *w, uint32_t mask, uint8_t num, uint8_t den);
/* sqrtf (MUFU.RSQ + FMUL + FFMA) */
uint8_t wl_fsqrt(wl_warp *w, uint32_t mask, uint8_t x);

/* ---------------------------------------------------------------- ops boilerplate */
#define PB_WORKLOAD(sym, wname, DEF, PARAMS, DOMAIN, RI, SUMMARY)                                \
    static int pb_##sym##_create(const gms_wl_args *a, void **st, gms_error *e) { return pb_create(&DEF, a, st, e); } \
    static uint64_t pb_##sym##_footprint(const gms_wl_args *a) { return pb_footprint(&DEF, a); } \
    const gms_workload_ops gms_wl_pb_##sym = {                                                 \
        .name = wname, .suite = "polybench", .domain = DOMAIN, .ri = RI, .summary = SUMMARY,   \
        .params = PARAMS, .create = pb_##sym##_create, .next = pb_next, .verify = pb_verify,   \
        .destroy = pb_destroy, .footprint = pb_##sym##_footprint,                              \
    }

#endif

/* ---------------------------------------------------------------- shared kernels */
/* Polybench's matrix-multiply kernels (2MM, 3MM, GEMM, SYRK): block 32x8,
 *   j = blockIdx.x*32 + threadIdx.x; i = blockIdx.y*8 + threadIdx.y;
 *   if (i < ni && j < nj) { [C[i*nj+j] *= beta;] for (k < nk) C[i*nj+j] += [alpha*] A[i*nk+k] * B[k*nj+j]; }
 * The accumulator lives in memory (C may alias A and B), so every iteration stores C.
 * With PB_MM_BT, B is read transposed: B[j*nk+k] (SYRK: A*A^T).
 * Launch with args { A, B, C (array indices), ni, nj, nk, flags (PB_MM_*), alpha/beta bits } via
 * pb_launch_gen with pb_step_mm, pb_mm_wsize(). */
enum { PB_MM_SCALED = 1, PB_MM_BT = 2 };
int pb_step_mm(const wl_kernel *k, wl_wgen *ws, gms_error *err);   /* resumable (wl_gen.h) */
size_t pb_mm_wsize(void);                                             /* its per-warp state */
static inline int64_t pb_ab_bits(float alpha, float beta)
{
    union { float f; uint32_t u; } x = { alpha }, y = { beta };
    return (int64_t)(((uint64_t)y.u << 32) | x.u);
}
/* CPU reference of the same: C[i*nj+j] (= beta*C) + sum_k (alpha*) A*B, for i < ni, j < nj */
void pb_cpu_mm(const float *A, const float *B, float *C, uint64_t ni, uint64_t nj, uint64_t nk, int flags,
               float alpha, float beta);

/* The part of pb_step_mm around its k loop, for kernels of the same shape with another loop
 * body (SYR2K). pb_mm_begin emits the guarded prologue for i < ni, j < nj (r: index
 * registers, r[1] = i) and the load of C[i*nj+j] (times beta when scaled, stored back), and
 * returns the running lanes (0: the warp is done). pb_mm_end stores the accumulators in the
 * host C and emits EXIT. The per-warp state must begin with a pb_mm_warp. */
typedef struct pb_mm_warp {
    wl_wgen ws;
    int64_t i[32], j[32];
    uint32_t m;
    uint8_t pc, rc;          /* &C[i*nj+j] and the accumulator's registers */
    uint64_t ca[32], kk;
    float c[32];
    wl_loop L;
} pb_mm_warp;
uint32_t pb_mm_begin(pb_mm_warp *g, const pb_state *s, int ci, uint64_t ni, uint64_t nj, int scaled, float beta,
                     uint8_t r[2]);
void pb_mm_end(pb_mm_warp *g, float *C, uint64_t nj);

/* Polybench's matrix-vector kernels (ATAX, BICG, MVT): 1D blocks, thread t < nt:
 *   [out[t] = 0;] for (k < n) out[t] += X[t*xs_t + k*xs_k] * Y[k];
 * with the accumulator in memory (stored every iteration). Launch with args
 * { X, Y, out (array indices), nt, n, xs_t, xs_k, zero_first (0|1) }. */
int pb_step_dot(const wl_kernel *k, wl_wgen *ws, gms_error *err);
size_t pb_dot_wsize(void);
void pb_cpu_dot(const float *X, const float *Y, float *out, uint64_t nt, uint64_t n, uint64_t xs_t, uint64_t xs_k,
                int zero_first);
