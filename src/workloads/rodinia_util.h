/* Helpers shared by the Rodinia / machine-learning UVMBench workloads (rodinia_*.c, ml_*.c).
 * A kernel launch carries a small rw_kernel (workload state + scalar arguments captured at
 * launch time); its fill_block calls the workload's block function, which computes the
 * block's real results thread by thread and emits each warp's instructions through rw_warp. */
#ifndef GMS_WORKLOADS_RODINIA_UTIL_H
#define GMS_WORKLOADS_RODINIA_UTIL_H
#include <stdint.h>
#include "workloads/workload.h"
#include "workloads/wl_gen.h"
#include "workloads/wl_util.h"

typedef struct rw_kernel rw_kernel;
typedef int (*rw_block_fn)(const rw_kernel *k, uint64_t block, gms_block_trace *out, gms_error *err);
typedef struct rw_wgen rw_wgen;
/* one resumable warp (wl_gen.h): 1 = yielded (more follows), 0 = done, -1 = error */
typedef int (*rw_step_fn)(const rw_kernel *k, rw_wgen *ws, gms_error *err);
/* block-wide work of a resumable kernel, before any of the block's warps is stepped */
typedef int (*rw_begin_fn)(const rw_kernel *k, uint64_t block, gms_error *err);

struct rw_kernel {
    void *st;              /* workload state */
    rw_block_fn fn;        /* fills a whole block, or: */
    rw_step_fn step;       /* runs one warp, resumable; its state is `wsize` zeroed bytes */
    size_t wsize;          /* beginning with an rw_wgen */
    rw_begin_fn begin;     /* optional, with step: called once per block at dispatch, first.
                              For kernels whose threads exchange values (barriers, shared
                              memory): it computes the block's results for all its warps, so
                              the steps only emit (see ml_svm.c, kernel_minibatch) */
    uint32_t chunk;        /* set by rw_launch */
    gms_dim3 grid, block;
    int64_t i[8];          /* integer arguments */
    double f[4];           /* floating-point arguments */
    wl_shadow *sh;         /* the program's shadow memory (set by rw_launch; NULL: timing) */
};

/* push a launch of k (copied) named `name` */
void rw_launch(gms_program *p, const char *name, const rw_kernel *k, uint32_t shmem, uint32_t regs);

/* a device array: host copy (the data the kernels compute on) + device address */
typedef struct rw_buf {
    void *h;
    uint64_t d;
    uint64_t bytes;
} rw_buf;
void rw_buf_new(rw_buf *b, uint64_t bytes);          /* zeroed host copy */
void rw_buf_free(rw_buf *b);
/* allocate on the device; copy host->device when `upload` (rw_buf_upload: the shadow memory
 * of a functional verify run gets the host copy too) */
void rw_buf_alloc(gms_program *p, rw_buf *b, const char *name, int upload);
/* cudaMemcpy of the whole host copy to the device, and to the shadow memory of a functional
 * verify run (wl_shadow.h): what a workload converted to the shadow uploads with */
void rw_buf_upload(gms_program *p, const rw_buf *b);
/* Device allocations kept across the repetitions (repeat=N) of a program that rebuilds its
 * host state for each repetition (the drive() state machines of pfilter, sc, svm, bn, cnn):
 * an allocation of a later repetition reuses a free one of the same name and at least its size
 * from the earlier repetitions, so every repetition runs on the first one's allocations, as a
 * program that launches its kernels N times would (UVMBench's data-reuse study). */
typedef struct rw_pool_ent { char name[64]; uint64_t d, bytes; int used; } rw_pool_ent;
typedef struct rw_pool { rw_pool_ent *e; size_t n, cap; } rw_pool;
/* a new repetition begins: every allocation of the pool may be reused again */
void rw_pool_restart(rw_pool *pool);
void rw_pool_free(rw_pool *pool);
/* next() of such a program: drive(owner) pushes commands until its repetition is done; then,
 * while repetitions remain, rebuild(owner) makes a fresh host state from the same seed (the
 * same input, uploaded again) and the pool is restarted, so the next repetition runs on the
 * first one's allocations. *rep counts the repetitions done. */
int rw_rerun(void *owner, uint64_t *rep, uint64_t repeat, rw_pool *pool,
             int (*drive)(void *owner, gms_program *p, gms_error *err), void (*rebuild)(void *owner),
             gms_program *p, gms_error *err);
/* rw_buf_alloc, through `pool` (NULL: plain rw_buf_alloc). The first repetition allocates
 * exactly as rw_buf_alloc does; a reused allocation is only uploaded (when `upload`). */
void rw_buf_alloc_in(gms_program *p, rw_pool *pool, rw_buf *b, const char *name, int upload);
#define RW_F(b) ((float *)(b).h)
#define RW_I(b) ((int32_t *)(b).h)

/* per-warp emission context */
typedef struct rw_warp {
    gms_emit e;
    uint32_t mask;   /* lanes that hold a thread */
    uint32_t t0;     /* linear thread index (in the block) of lane 0 */
    wl_shadow *sh;   /* shadow memory (WL_SH_LD / WL_SH_ST, wl_util.h): rw_warps_sh() */
} rw_warp;
#define RW_MAXW 32

/* first member of a resumable kernel's per-warp state */
struct rw_wgen {
    wl_gen g;
    rw_warp x;             /* set up like rw_block_begin's */
    uint64_t block;
    uint32_t warp;
};
/* reset `out` for a block of `tpb` threads and set up one rw_warp per warp; returns nwarps */
uint32_t rw_block_begin(gms_block_trace *out, uint32_t tpb, rw_warp *w);
/* a kernel converted to the shadow memory: its warps' loads and stores go through k's shadow */
static inline void rw_warps_sh(rw_warp *w, uint32_t nw, const rw_kernel *k)
{
    for (uint32_t i = 0; i < nw; i++) w[i].sh = k->sh;
}

/* emission shorthands; addresses are per lane, only lanes in m are read */
uint8_t rw_int(rw_warp *w, uint32_t pc, uint32_t m, uint8_t s0, uint8_t s1);
uint8_t rw_fp(rw_warp *w, uint32_t pc, uint32_t m, uint8_t s0, uint8_t s1, uint8_t s2);
uint8_t rw_sfu(rw_warp *w, uint32_t pc, uint32_t m, uint8_t s0);
void rw_bra(rw_warp *w, uint32_t pc, uint32_t m, uint8_t s0);
uint8_t rw_ldg(rw_warp *w, uint32_t pc, uint32_t m, uint8_t width, const uint64_t a[32], uint8_t r);
void rw_stg(rw_warp *w, uint32_t pc, uint32_t m, uint8_t width, const uint64_t a[32], uint8_t r, uint8_t d);
uint8_t rw_lds(rw_warp *w, uint32_t pc, uint32_t m, uint8_t width, const uint64_t a[32], uint8_t r);
void rw_sts(rw_warp *w, uint32_t pc, uint32_t m, uint8_t width, const uint64_t a[32], uint8_t r, uint8_t d);
uint8_t rw_atomg(rw_warp *w, uint32_t pc, uint32_t m, uint8_t width, const uint64_t a[32], uint8_t r, uint8_t d);
/* thread-index prologue: S2R tid, S2R ctaid, IMAD; returns the index register */
uint8_t rw_prologue(rw_warp *w, uint32_t m);
/* The guard of a 1D kernel, "i = blockIdx.x*blockDim.x + threadIdx.x; if (i < n) ...", as
 * nvcc emits it: rw_prologue, then ISETP at 0x18 and BRA at 0x20 over the whole warp. Returns
 * the lanes whose i = first + (thread index) is below n; *ri = the index register, *c = the
 * ISETP's. */
uint32_t rw_guard_1d(rw_warp *w, uint64_t first, uint64_t n, uint8_t *ri, uint8_t *c);
void rw_exit(rw_warp *w, uint32_t m);
/* BAR in every warp of the block */
void rw_bar(rw_warp *w, uint32_t nw, uint32_t pc);

/* lane loop over a warp: `l` lane, `t` thread index in the block */
#define RW_LANES(w, m, l, t) \
    for (int l = 0; l < 32; l++) \
        if (((m) >> l & 1u)) \
            for (uint32_t t __attribute__((unused)) = (w)->t0 + (uint32_t)l, t##_once = 1; t##_once; t##_once = 0)

/* ---------------------------------------------------------------- pyramid kernels
 * Rodinia's hotspot and pathfinder stage a block's tile in shared memory and advance it
 * `iter` time steps per launch; each step the valid part shrinks by one cell per side, so a
 * block of bs threads (per dimension) yields bs - 2*iter cells and neighbouring tiles overlap. */
static inline int rw_in_range(int x, int lo, int hi) { return x >= lo && x <= hi; }
/* One dimension of block b: its thread 0 stands at cell *blk = (bs - 2*iter)*b - border;
 * threads *vmin..*vmax stand at cells inside 0..n-1. */
static inline void rw_pyramid_span(int bs, int iter, int b, int border, int n, int *blk, int *vmin, int *vmax)
{
    int lo = (bs - iter * 2) * b - border, hi = lo + bs - 1;
    *blk = lo;
    *vmin = lo < 0 ? -lo : 0;
    *vmax = hi > n - 1 ? bs - 1 - (hi - n + 1) : bs - 1;
}
/* The emission of a pyramid step's end: every thread t with computed[t] copies its result
 * from shared byte offset from + 4t to to + 4t (BRA at pc, LDS, STS), then BAR. */
void rw_pyramid_copy(rw_warp *W, uint32_t nw, const int *computed, uint32_t pc, uint64_t from, uint64_t to);
/* The kernel's end: every thread t with computed[t] stores its result from shared byte offset
 * from + 4t to global address gaddr[t] (BRA at pc, LDS, STG on the prologue's register
 * ri[warp]), then every warp EXITs. */
void rw_pyramid_store(rw_warp *W, uint32_t nw, const int *computed, uint32_t pc, uint64_t from,
                      const uint64_t *gaddr, const uint8_t *ri);
/* the same, thread t storing the 4 bytes vals[t] (for the shadow memory, wl_shadow.h) */
void rw_pyramid_store_v(rw_warp *W, uint32_t nw, const int *computed, uint32_t pc, uint64_t from,
                        const uint64_t *gaddr, const uint8_t *ri, const uint32_t *vals);
/* The host's time loop: one launch of k per `pyramid` of the `steps` steps, ping-ponging
 * buffers 0 and 1 (0 holds the input): k->i[0] = steps in this launch, i[1] = source,
 * i[2] = destination, i[3] = first step. sync_each: synchronize after every launch (else the
 * caller synchronizes). Returns the buffer that holds the result. */
int rw_pyramid_launches(gms_program *p, rw_kernel *k, const char *name, uint64_t steps, uint64_t pyramid,
                        uint32_t shmem, uint32_t regs, int sync_each);

/* sizes: value of `name` multiplied by the workload's `scale` (rounded down to a multiple of
 * `mult`); error when it becomes zero or exceeds `max` */
int rw_scaled(const gms_wl_args *a, const char *wl, const char *name, uint64_t mult, uint64_t max,
              uint64_t *out, gms_error *err);
/* ordinary positive parameter in [lo, hi] */
int rw_param(const gms_wl_args *a, const char *name, uint64_t lo, uint64_t hi, uint64_t *out,
             gms_error *err);

/* floating-point comparison: relative-or-absolute tolerance; returns 0 when all equal, else
 * fills err with the first mismatch */
int rw_cmp_f(const char *wl, const char *what, const float *got, const float *ref, uint64_t n,
             double tol, gms_error *err);
int rw_cmp_i(const char *wl, const char *what, const int32_t *got, const int32_t *ref, uint64_t n,
             gms_error *err);

#endif
