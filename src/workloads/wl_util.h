/* Shared helpers for built-in workload authors (micro, polybench, rodinia, ...).
 *
 * The model: a workload's state holds host copies of every device array; kernels run
 * lazily, one thread block per fill_block() call, and each warp computes its lanes' real
 * results (writing the state arrays exactly as the CUDA kernel writes device memory) while
 * it emits its SASS-like instruction stream with each lane's exact addresses.
 *
 *   wl_launch()       launch a kernel whose blocks are filled by a wl_fill_fn, with up to
 *                     WL_KARGS per-launch scalar arguments (time step, loop index, ...);
 *                     wl_launch_gen() the same warp by warp (wl_gen.h); wl_launch_k() a
 *                     kernel record the caller filled (integer and float arguments, a
 *                     block-wide begin hook for resumable kernels)
 *   wl_warp_begin()   per warp: thread / block indices of every lane, PC cursor, emitter;
 *                     wl_block_begin() every warp of a block whose kernel indexes its
 *                     threads linearly (t0 + lane, WL_TLANES)
 *   wl_*()            emit one instruction at the PC cursor (advanced by 16 each time);
 *                     set w->pc to a saved value to re-emit a loop body
 *   wl_*_at()         the same at an explicit PC (kernels written against the SASS listing)
 *   wl_prologue_1d()  the usual "i = blockIdx.x*blockDim.x + threadIdx.x; if (i >= n) return"
 *   wl_size_*()       parameter scaling and overflow-checked sizes for create()
 *   wl_check_f32()    compare results with a CPU reference (relative + absolute tolerance)
 *   WL_SH_LD/ST()     after a global load/store: the value each lane uses/stores, for the
 *                     shadow memory of functional verify runs (wl_shadow.h); wl_sh_init() in
 *                     next() and wl_result() in verify() complete it
 *
 * Device arrays with host copies (wl_buf), allocation pools for repeated programs and
 * wl_rerun are in wl_buf.h; the shared-memory pyramid kernels' helpers in wl_pyramid.h.
 *
 * No global mutable state; everything is reentrant. */
#ifndef GMS_WORKLOADS_WL_UTIL_H
#define GMS_WORKLOADS_WL_UTIL_H
#include <stddef.h>
#include <stdint.h>
#include "workloads/workload.h"
#include "util/err.h"
#include "util/rng.h"
#include "workloads/wl_gen.h"
#include "workloads/wl_shadow.h"

#define WL_KARGS 8

/* ---------------------------------------------------------------- kernels */
typedef struct wl_kernel wl_kernel;
/* fill one block: `block` is the launch-order linear index (x fastest, then y, then z) */
typedef int (*wl_fill_fn)(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err);

typedef struct wl_wgen wl_wgen;
/* one resumable warp (see wl_gen.h): 1 = yielded (more follows), 0 = done, -1 = error */
typedef int (*wl_step_fn)(const wl_kernel *k, wl_wgen *ws, gms_error *err);
/* block-wide work of a resumable kernel, before any of the block's warps is stepped */
typedef int (*wl_begin_fn)(const wl_kernel *k, uint64_t block, gms_error *err);

struct wl_kernel {
    void *st;                /* the workload state */
    int64_t arg[WL_KARGS];   /* per-launch scalar arguments */
    double farg[4];          /* per-launch floating-point arguments (wl_launch_k) */
    gms_dim3 grid, block;
    wl_fill_fn fill;         /* fills a whole block, or: */
    wl_step_fn step;         /* resumable kernels: per-warp step, state size (zeroed bytes */
    size_t wsize;            /* beginning with a wl_wgen) */
    wl_begin_fn begin;       /* optional, with step: called once per block at dispatch, first.
                                For kernels whose threads exchange values (barriers, shared
                                memory): it computes the block's results for all its warps, so
                                the steps only emit (see ml_svm.c, kernel_minibatch) */
    uint32_t chunk;          /* set at launch */
    wl_shadow *sh;           /* the program's shadow memory (NULL: not a verify run) */
};

/* Launch a copy of `k` (st, grid, block, fill or step/wsize/begin, arg, farg set by the
 * caller; chunk and sh are set here) as kernel `name`. Also adds the prefetches when the
 * program asks for them (gms_prog_launch). */
void wl_launch_k(gms_program *p, const char *name, const wl_kernel *k, uint32_t regs, uint32_t shmem);

/* Launch `fill` as kernel `name` (use the mangled CUDA name when known) on grid x block
 * threads. `args` (may be NULL) are copied. The launch owns a small heap record freed at
 * release. Also adds the prefetches when the program asks for them (gms_prog_launch). */
void wl_launch(gms_program *p, const char *name, gms_dim3 grid, gms_dim3 block, uint32_t regs,
               uint32_t shmem, wl_fill_fn fill, void *st, const int64_t *args, int nargs);

/* The same for a kernel generated warp by warp, a chunk at a time (wl_gen.h): `step` runs
 * one warp whose state is a zeroed struct of `wsize` bytes beginning with a wl_wgen. */
void wl_launch_gen(gms_program *p, const char *name, gms_dim3 grid, gms_dim3 block, uint32_t regs,
                   uint32_t shmem, wl_step_fn step, size_t wsize, void *st, const int64_t *args, int nargs);

static inline gms_dim3 wl_dim3(uint32_t x, uint32_t y, uint32_t z) { gms_dim3 d = { x, y, z }; return d; }
/* ceil(a / b) as uint32 (callers check sizes in create so this does not overflow) */
static inline uint32_t wl_cdiv(uint64_t a, uint64_t b) { return (uint32_t)((a + b - 1) / b); }

/* ---------------------------------------------------------------- warps */
typedef struct wl_warp {
    gms_emit e;
    uint32_t pc;             /* PC of the next emitted instruction */
    uint32_t warp;           /* warp index in the block */
    uint32_t t0;             /* linear thread index (in the block) of lane 0: 32 * warp */
    uint32_t live;           /* lanes that are threads of the block (last warp may be partial) */
    int row;                 /* all 32 lanes live and in one x-row: tx[l] = tx[0] + l, ty/tz equal */
    uint32_t tx[32], ty[32], tz[32];  /* threadIdx of each lane */
    uint32_t bx, by, bz;     /* blockIdx */
    gms_dim3 bdim, gdim;     /* blockDim, gridDim */
    wl_shadow *sh;           /* shadow memory of a functional verify run, else NULL (WL_SH_*) */
} wl_warp;

/* first member of a resumable kernel's per-warp state: its warp (set up by wl_warp_begin),
 * block index and resume point */
struct wl_wgen {
    wl_gen g;
    wl_warp w;
    uint64_t block;
};

/* Number of warps of a block of the kernel */
static inline uint32_t wl_nwarps(const wl_kernel *k) { return (uint32_t)((gms_dim3_count(k->block) + 31) / 32); }
/* Set up warp `warp` of block `block` (bt must already be reset to wl_nwarps(k) warps,
 * which the simulator and functional runner do before calling fill_block). */
void wl_warp_begin(wl_warp *w, gms_block_trace *bt, const wl_kernel *k, uint64_t block, uint32_t warp);

/* Warps of a kernel that indexes its threads linearly (a 1D block of `tpb` threads): reset
 * `bt` to the block's warps and set up w[0..nwarps-1] (emitter, pc 0, warp, t0, live; no
 * shadow: wl_warps_sh; tx/ty/tz and the block indices are not set, use WL_TLANES); returns
 * the number of warps, at most WL_MAXW */
#define WL_MAXW 32
uint32_t wl_block_begin(gms_block_trace *bt, uint32_t tpb, wl_warp *w);
/* a kernel converted to the shadow memory: its warps' loads and stores go through k's shadow */
static inline void wl_warps_sh(wl_warp *w, uint32_t nw, const wl_kernel *k)
{
    for (uint32_t i = 0; i < nw; i++) w[i].sh = k->sh;
}

/* iterate over the lanes of a mask */
#define WL_LANES(mask, l) for (int l = 0; l < 32; l++) if ((mask) >> l & 1u)
/* the same with `t`, the lane's linear thread index in the block (w->t0 + l) */
#define WL_TLANES(w, m, l, t) \
    for (int l = 0; l < 32; l++) \
        if (((m) >> l & 1u)) \
            for (uint32_t t __attribute__((unused)) = (w)->t0 + (uint32_t)l, t##_once = 1; t##_once; t##_once = 0)

/* Instruction emitters. Each emits at w->pc and advances it by 16; they return the
 * destination register (pass it as a source to create the dependency). */
/* (host speed: the ALU ones are inline, they are most of the generated instructions) */
static inline uint32_t wl_next_pc(wl_warp *w)
{
    uint32_t pc = w->pc;
    w->pc += 16;
    return pc;
}
/* IMAD/IADD3/LEA/MOV/S2R/SHF */
static inline uint8_t wl_int(wl_warp *w, uint32_t mask, uint8_t s0, uint8_t s1)
{
    return gms_emit_alu(&w->e, wl_next_pc(w), mask, GMS_OP_INT, s0, s1, GMS_REG_NONE);
}
static inline uint8_t wl_int3(wl_warp *w, uint32_t mask, uint8_t s0, uint8_t s1, uint8_t s2)
{
    return gms_emit_alu(&w->e, wl_next_pc(w), mask, GMS_OP_INT, s0, s1, s2);
}
/* ISETP: predicate, no register (a register number is still used up, as for any INT) */
static inline void wl_pred(wl_warp *w, uint32_t mask, uint8_t s0, uint8_t s1)
{
    gms_emit_alu(&w->e, wl_next_pc(w), mask, GMS_OP_INT, s0, s1, GMS_REG_NONE);
    w->e.w->insts[w->e.w->n - 1].dst[0] = GMS_REG_NONE;
}
/* FADD/FMUL/FFMA */
static inline uint8_t wl_fp(wl_warp *w, uint32_t mask, uint8_t s0, uint8_t s1, uint8_t s2)
{
    return gms_emit_alu(&w->e, wl_next_pc(w), mask, GMS_OP_SP, s0, s1, s2);
}
/* MUFU (sqrt, rcp), I2F... */
static inline uint8_t wl_sfu(wl_warp *w, uint32_t mask, uint8_t s0)
{
    return gms_emit_alu(&w->e, wl_next_pc(w), mask, GMS_OP_SFU, s0, GMS_REG_NONE, GMS_REG_NONE);
}
static inline void wl_bra(wl_warp *w, uint32_t mask)
{
    gms_emit_alu(&w->e, wl_next_pc(w), mask, GMS_OP_BRA, GMS_REG_NONE, GMS_REG_NONE, GMS_REG_NONE);
}
static inline void wl_bar(wl_warp *w) { gms_emit_bar(&w->e, wl_next_pc(w)); }
static inline void wl_exit(wl_warp *w, uint32_t mask) { gms_emit_exit(&w->e, wl_next_pc(w), mask); }
/* global memory, 4-byte lanes (LDG.E / STG.E) and any width */
uint8_t wl_ldg(wl_warp *w, uint32_t mask, const uint64_t addrs[32], uint8_t areg);
void wl_stg(wl_warp *w, uint32_t mask, const uint64_t addrs[32], uint8_t areg, uint8_t dreg);
uint8_t wl_ld(wl_warp *w, uint32_t mask, gms_mem_kind kind, uint8_t width, const uint64_t addrs[32], uint8_t areg);
void wl_st(wl_warp *w, uint32_t mask, gms_mem_kind kind, uint8_t width, const uint64_t addrs[32], uint8_t areg,
           uint8_t dreg);
uint8_t wl_atom(wl_warp *w, uint32_t mask, gms_mem_kind kind, uint8_t width, const uint64_t addrs[32],
                uint8_t areg, uint8_t dreg);
/* Indexed arrays: lane l accesses base + idx[l]*elem (the wl_addrs address, without the
 * array; host speed: consecutive indices, e.g. wl_prologue_1d's, need no address array) */
uint8_t wl_ld_idx(wl_warp *w, uint32_t mask, gms_mem_kind kind, uint8_t width, uint64_t base,
                  const uint64_t idx[32], uint32_t elem, uint8_t areg);
void wl_st_idx(wl_warp *w, uint32_t mask, gms_mem_kind kind, uint8_t width, uint64_t base,
               const uint64_t idx[32], uint32_t elem, uint8_t areg, uint8_t dreg);
/* 4-byte global elements: LDG.E / STG.E of base[idx[l]] */
uint8_t wl_ldg_idx(wl_warp *w, uint32_t mask, uint64_t base, const uint64_t idx[32], uint8_t areg);
void wl_stg_idx(wl_warp *w, uint32_t mask, uint64_t base, const uint64_t idx[32], uint8_t areg, uint8_t dreg);
/* The same address for every lane (a broadcast, e.g. x[j] in a matvec; a constant-memory
 * element): any kind and width, and the 4-byte global form. Recorded without building 32
 * addresses (gms_emit_load_prog). */
static inline uint8_t wl_ld_bcast(wl_warp *w, uint32_t mask, gms_mem_kind kind, uint8_t width, uint64_t addr,
                                  uint8_t areg)
{
    return gms_emit_load_prog(&w->e, wl_next_pc(w), mask, kind, width, addr, 0, areg);
}
/* Lane l at base + l*step (a progression: consecutive elements, a row), any kind and width;
 * the record wl_ld makes of those addresses, without building them */
static inline uint8_t wl_ld_prog(wl_warp *w, uint32_t mask, gms_mem_kind kind, uint8_t width, uint64_t base,
                                 uint64_t step, uint8_t areg)
{
    return gms_emit_load_prog(&w->e, wl_next_pc(w), mask, kind, width, base, step, areg);
}
static inline uint8_t wl_ldg_bcast(wl_warp *w, uint32_t mask, uint64_t addr, uint8_t areg)
{
    return wl_ld_bcast(w, mask, GMS_MEM_LD_GLOBAL, 4, addr, areg);
}

/* At an explicit PC (the cursor is neither read nor moved); `width` in bytes. */
static inline uint8_t wl_int_at(wl_warp *w, uint32_t pc, uint32_t m, uint8_t s0, uint8_t s1)
{
    return gms_emit_alu(&w->e, pc, m, GMS_OP_INT, s0, s1, GMS_REG_NONE);
}
static inline uint8_t wl_fp_at(wl_warp *w, uint32_t pc, uint32_t m, uint8_t s0, uint8_t s1, uint8_t s2)
{
    return gms_emit_alu(&w->e, pc, m, GMS_OP_SP, s0, s1, s2);
}
static inline uint8_t wl_sfu_at(wl_warp *w, uint32_t pc, uint32_t m, uint8_t s0)
{
    return gms_emit_alu(&w->e, pc, m, GMS_OP_SFU, s0, GMS_REG_NONE, GMS_REG_NONE);
}
static inline void wl_bra_at(wl_warp *w, uint32_t pc, uint32_t m, uint8_t s0)
{
    gms_emit_alu(&w->e, pc, m, GMS_OP_BRA, s0, GMS_REG_NONE, GMS_REG_NONE);
}
static inline uint8_t wl_ldg_at(wl_warp *w, uint32_t pc, uint32_t m, uint8_t width, const uint64_t a[32], uint8_t r)
{
    return gms_emit_load(&w->e, pc, m, GMS_MEM_LD_GLOBAL, width, a, r);
}
static inline void wl_stg_at(wl_warp *w, uint32_t pc, uint32_t m, uint8_t width, const uint64_t a[32], uint8_t r,
                             uint8_t d)
{
    gms_emit_store(&w->e, pc, m, GMS_MEM_ST_GLOBAL, width, a, r, d);
}
static inline uint8_t wl_lds_at(wl_warp *w, uint32_t pc, uint32_t m, uint8_t width, const uint64_t a[32], uint8_t r)
{
    return gms_emit_load(&w->e, pc, m, GMS_MEM_LD_SHARED, width, a, r);
}
static inline void wl_sts_at(wl_warp *w, uint32_t pc, uint32_t m, uint8_t width, const uint64_t a[32], uint8_t r,
                             uint8_t d)
{
    gms_emit_store(&w->e, pc, m, GMS_MEM_ST_SHARED, width, a, r, d);
}
static inline uint8_t wl_atomg_at(wl_warp *w, uint32_t pc, uint32_t m, uint8_t width, const uint64_t a[32],
                                  uint8_t r, uint8_t d)
{
    return gms_emit_atomic(&w->e, pc, m, GMS_MEM_ATOM_GLOBAL, width, a, r, d);
}
/* the PC the explicit-PC kernels put their final EXIT at */
#define WL_PC_END 0xfff0u
static inline void wl_exit_at(wl_warp *w, uint32_t pc, uint32_t m) { gms_emit_exit(&w->e, pc, m); }
/* BAR at `pc` in each of the nw warps of a block */
void wl_bar_all(wl_warp *w, uint32_t nw, uint32_t pc);
/* thread-index prologue at PCs 0x0-0x10: S2R tid, S2R ctaid, IMAD; returns the index register */
uint8_t wl_prologue_idx(wl_warp *w, uint32_t m);
/* The guard of a 1D kernel, "i = blockIdx.x*blockDim.x + threadIdx.x; if (i < n) ...", as
 * nvcc emits it: wl_prologue_idx, then ISETP at 0x18 and BRA at 0x20 over the whole warp.
 * Returns the lanes whose i = first + (thread index) is below n; *ri = the index register,
 * *c = the ISETP's. (wl_prologue_1d is the cursor form, with EXIT for the lanes out.) */
uint32_t wl_guard_1d(wl_warp *w, uint64_t first, uint64_t n, uint8_t *ri, uint8_t *c);

/* Standard 1D prologue, as nvcc emits it for
 *   int i = blockIdx.x*blockDim.x + threadIdx.x; if (i >= n) return;
 * MOV R1 (stack), S2R ctaid, S2R tid, IMAD, ISETP.GE, @P0 EXIT (mask = lanes out of range).
 * Fills gid[lane] for live lanes; returns the mask of lanes still running (0: warp done);
 * *ireg = the register holding i. */
uint32_t wl_prologue_1d(wl_warp *w, uint64_t n, uint64_t gid[32], uint8_t *ireg);

/* ---------------------------------------------------------------- addresses */
/* out[l] = base + idx[l]*elem for lanes in mask */
static inline void wl_addrs(uint64_t out[32], uint32_t mask, uint64_t base, const uint64_t idx[32], uint32_t elem)
{
    /* Host speed: a full warp without the per-lane mask test (each lane reads only its own
     * idx, so in-place use stays correct) */
    if (mask == 0xffffffffu)
        for (int l = 0; l < 32; l++) out[l] = base + idx[l] * elem;
    else
        WL_LANES(mask, l) out[l] = base + idx[l] * elem;
}

/* ---------------------------------------------------------------- shadow memory */
/* Right after emitting a global load (store) on warp w: `expr` (of type T, may use the lane
 * l) is the value lane l computes with (stores), for each lane of `mask` (the instruction's
 * mask). In a functional verify run (w->sh set) a store's values land at the emitted lane
 * addresses and a load's are compared with what is there (wl_shadow.h); otherwise nothing is
 * evaluated. T's size must be the instruction's width. */
#define WL_SH_(wp, mask, T, expr, store)                                           \
    do {                                                                           \
        if ((wp)->sh) {                                                            \
            T wl_v_[32];                                                           \
            WL_LANES(mask, l) wl_v_[l] = (T)(expr);                                \
            wl_sh_last((wp)->sh, (wp)->e.w, store, wl_v_, sizeof(T));              \
        }                                                                          \
    } while (0)
#define WL_SH_LD(w, mask, T, expr) WL_SH_(w, mask, T, expr, 0)
#define WL_SH_ST(w, mask, T, expr) WL_SH_(w, mask, T, expr, 1)
/* the same for the last record of warp buffer t, the lane values in vals[l] (`size` bytes) */
void wl_sh_last(wl_shadow *sh, gms_warp_trace *t, int store, const void *vals, size_t size);
/* next(): `bytes` of host data are the initial contents of device memory at dev (the H2D
 * copy, or the host's writes to managed memory); no-op without a shadow */
void wl_sh_init(const gms_program *p, uint64_t dev, const void *host, uint64_t bytes);
/* the same for an input array the kernels only read, whose host copy stays unchanged until the
 * run ends: loads of consecutive elements read from that copy pass at their place
 * (wl_shadow_write_ro) */
void wl_sh_init_ro(const gms_program *p, uint64_t dev, const void *host, uint64_t bytes);
/* verify(): the n elements of `elem` bytes at device address dev as the kernels left them:
 * read from the shadow memory into a buffer (*owned, to free) when the run has an active
 * one, else `host` itself (*owned = NULL) */
const void *wl_result(const wl_shadow *sh, uint64_t dev, const void *host, uint64_t n, size_t elem, void **owned);

/* ---------------------------------------------------------------- sizes and parameters */
/* A size parameter multiplied by the double parameter `scale` (if the workload has one; 1
 * otherwise), rounded to nearest. Returns 0 on zero/overflow (checked by wl_need_*). */
uint64_t wl_scaled(const gms_wl_args *a, const char *name);
/* error "workload W: parameter P=V (scale S) gives size 0" when v == 0, and
 * "... is too large (max M)" when v > max */
int wl_need_size(const char *wl, const gms_wl_args *a, const char *name, uint64_t v, uint64_t max,
                 gms_error *err);
/* *out = x*y*z (elements) * elem (bytes); error naming `what` if it overflows `limit` bytes */
int wl_bytes(const char *wl, const char *what, uint64_t x, uint64_t y, uint64_t z, uint64_t elem,
             uint64_t limit, uint64_t *out, gms_error *err);
/* An ordinary parameter in [lo, hi]: *out = its value, else an error naming it */
int wl_param(const gms_wl_args *a, const char *name, uint64_t lo, uint64_t hi, uint64_t *out, gms_error *err);
/* device allocations are rounded up to 2 MiB by the program allocator: footprint helpers
 * report the requested bytes (what cudaMalloc is asked for). Limit for one array: */
#define WL_MAX_ARRAY_BYTES (1ULL << 40)

/* zeroed host array with overflow check (out of memory: one error line and exit 1, as gms_xcalloc) */
void *wl_calloc(uint64_t n, uint64_t elem);
/* the same without the zeroing, for an array the caller writes in full before any read
 * (host speed: input data generated right away need not be cleared first) */
void *wl_malloc(uint64_t n, uint64_t elem);

/* ---------------------------------------------------------------- verification */
/* |got-want| <= atol + rtol*|want| for every element, else an error naming the first
 * mismatching index. Also fails on NaN/Inf in got where want is finite. */
int wl_check_f32(const char *wl, const char *what, const float *got, const float *want, uint64_t n,
                 double rtol, double atol, gms_error *err);
/* the same for elements first .. first+n-1 of an array checked in pieces (got and want point
 * at element `first`; the error names the array's index) */
int wl_check_f32_from(const char *wl, const char *what, const float *got, const float *want, uint64_t n,
                      uint64_t first, double rtol, double atol, gms_error *err);
int wl_check_u32(const char *wl, const char *what, const uint32_t *got, const uint32_t *want, uint64_t n,
                 gms_error *err);
int wl_check_i32(const char *wl, const char *what, const int32_t *got, const int32_t *want, uint64_t n,
                 gms_error *err);
/* |got-want| <= tol * max(1, |want|): one tolerance, relative above 1 and absolute below
 * (the CUDA samples' and Rodinia's own checks); NaN anywhere fails */
int wl_check_f32_tol(const char *wl, const char *what, const float *got, const float *want, uint64_t n,
                     double tol, gms_error *err);

/* ---------------------------------------------------------------- data */
/* uniform float in [0,1) from the rng */
static inline float wl_randf(gms_rng *r) { return (float)(gms_rng_next(r) >> 40) * (1.0f / 16777216.0f); }
/* first `k` entries of a uniform random permutation of 0..n-1 (partial Fisher-Yates); k <= n */
void wl_perm_prefix(gms_rng *r, uint32_t n, uint32_t k, uint32_t *out);
/* a single random cycle over 0..n-1 (Sattolo): next[i] is i's successor */
void wl_random_cycle(gms_rng *r, uint32_t n, uint32_t *next);

/* ---------------------------------------------------------------- simple command scripts */
/* Most workloads push their whole program in one next() call. wl_once() returns 1 the
 * first time (push now) and 0 afterwards; keep an int in the state. */
static inline int wl_once(int *done) { if (*done) return 0; *done = 1; return 1; }

#endif
