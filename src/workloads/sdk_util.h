/* Shared helpers of the CUDA SDK workloads (sdk_*.c, docs/workloads-sdk.md).
 *
 * The SDK kernels that stage data in shared memory and meet at __syncthreads are filled a
 * whole block at a time (wl_launch): fill_block sets up every warp of the block first
 * (sdk_warps) and then emits the kernel phase by phase, each warp in turn, so a phase reads
 * the shared-memory values the previous phase of every warp wrote (host arrays standing in
 * for the block's shared memory). Shared-memory addresses are byte offsets in the block's
 * shared space, as the SASS computes them. */
#ifndef GMS_WORKLOADS_SDK_UTIL_H
#define GMS_WORKLOADS_SDK_UTIL_H
#include "workloads/wl_util.h"
#include "workloads/wl_clamp.h"
#include <string.h>

#define SDK_MAX_WARPS 32   /* 1024 threads */

/* set up every warp of the block (fill_block) */
static inline uint32_t sdk_warps(wl_warp *w, gms_block_trace *bt, const wl_kernel *k, uint64_t block)
{
    uint32_t nw = wl_nwarps(k);
    for (uint32_t i = 0; i < nw; i++) wl_warp_begin(&w[i], bt, k, block, i);
    return nw;
}

/* linear thread index in the block of lane l */
static inline uint32_t sdk_tid(const wl_warp *w, int l)
{
    return w->tx[l] + w->ty[l] * w->bdim.x + w->tz[l] * w->bdim.x * w->bdim.y;
}

/* two floats as the 8 bytes of a float2 lane (LDG.64 / STG.64 values for the shadow) */
static inline uint64_t sdk_f2(float lo, float hi)
{
    uint32_t a, b;
    memcpy(&a, &lo, 4);
    memcpy(&b, &hi, 4);
    return (uint64_t)b << 32 | a;
}

/* shared-memory load/store of `width` bytes at byte offsets off[l] */
static inline uint8_t sdk_lds(wl_warp *w, uint32_t m, uint8_t width, const uint64_t off[32], uint8_t areg)
{
    return wl_ld(w, m, GMS_MEM_LD_SHARED, width, off, areg);
}
static inline void sdk_sts(wl_warp *w, uint32_t m, uint8_t width, const uint64_t off[32], uint8_t areg, uint8_t dreg)
{
    wl_st(w, m, GMS_MEM_ST_SHARED, width, off, areg, dreg);
}

/* `n` dependent INT / FP instructions on register r (address arithmetic, the arithmetic of
 * a formula whose exact SASS is not modelled instruction by instruction); returns the last */
static inline uint8_t sdk_ints(wl_warp *w, uint32_t m, int n, uint8_t r)
{
    for (int i = 0; i < n; i++) r = wl_int(w, m, r, GMS_REG_NONE);
    return r;
}
static inline uint8_t sdk_fps(wl_warp *w, uint32_t m, int n, uint8_t r)
{
    for (int i = 0; i < n; i++) r = wl_fp(w, m, r, GMS_REG_NONE, GMS_REG_NONE);
    return r;
}

/* the usual prologue: MOV R1, S2R tid, S2R ctaid, IMAD (i = blockIdx.x*blockDim.x + tid);
 * returns the register of i */
static inline uint8_t sdk_prologue(wl_warp *w, uint32_t m)
{
    wl_int(w, m, GMS_REG_NONE, GMS_REG_NONE);
    uint8_t t = wl_int(w, m, GMS_REG_NONE, GMS_REG_NONE);
    uint8_t c = wl_int(w, m, GMS_REG_NONE, GMS_REG_NONE);
    return wl_int(w, m, c, t);
}

/* next(): allocate `bytes` named `name`; with host data, copy it to the device (H2D, dropped
 * under uvm=1 by the program) and mirror it in the shadow memory */
static inline uint64_t sdk_alloc(gms_program *p, const void *host, uint64_t bytes, const char *name)
{
    uint64_t d = gms_prog_alloc(p, bytes, name);
    if (host) {
        gms_prog_copy_h2d(p, d, bytes);
        wl_sh_init(p, d, host, bytes);
    }
    return d;
}

/* create(): repeat=N in [1, 1000000] */
static inline int sdk_repeat(const gms_wl_args *a, uint64_t *repeat, gms_error *err)
{
    *repeat = 0;   /* written on every path */
    if (gms_wl_check_range(a, "repeat", 1, 1000000, err)) return -1;
    *repeat = gms_wl_u64(a, "repeat");
    return 0;
}

#endif
