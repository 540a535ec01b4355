/* One-dimensional element-wise kernels over float arrays (micro stream, gather, strided;
 * UVMSmart AddVectors, StreamTriad): thread i = blockIdx.x*blockDim.x + threadIdx.x works on
 * element i once past the guard "if (i >= n) return". The warp loop of their fill(), the
 * operand loads of out[i] = f(x[i], y[i]) and the back edge of a grid-stride loop, as nvcc
 * emits them. */
#ifndef GMS_WORKLOADS_WL_KERNEL_1D_H
#define GMS_WORKLOADS_WL_KERNEL_1D_H
#include <stdint.h>
#include "workloads/wl_util.h"

/* The body of one warp past the guard: m = its lanes whose index i[l] is below n, ri the index
 * register, k->st the workload's state. Emits the body (i[] may be advanced, e.g. by a
 * grid-stride loop) and returns the mask of the closing EXIT. */
typedef uint32_t (*wl_body_1d_fn)(const wl_kernel *k, wl_warp *w, uint32_t m, uint64_t i[32], uint8_t ri);

/* fill() of such a kernel over n threads: every warp of the block emits wl_prologue_1d (a
 * warp with no lane below n ends at its EXIT), then body, then EXIT. */
int wl_fill_1d(const wl_kernel *k, uint64_t block, gms_block_trace *bt, uint64_t n, wl_body_1d_fn body);

/* The registers of the operand loads of out[i] = f(x[i], y[i]) */
typedef struct wl_xy_regs {
    uint8_t r4;       /* the element size 4, for the IMAD.WIDE of out + i */
    uint8_t px, py;   /* &x[i], &y[i] */
    uint8_t vx, vy;   /* x[i], y[i] */
} wl_xy_regs;
/* MOV 0x4, IMAD.WIDE x+i, IMAD.WIDE y+i, LDG x[i], LDG y[i] for the lanes m (ri: the index
 * register); dx, dy are the device arrays, hx, hy their host copies (the values the loads
 * return, for the shadow memory of a functional verify run) */
wl_xy_regs wl_ldg_xy(wl_warp *w, uint32_t m, const uint64_t i[32], uint8_t ri, uint64_t dx, const float *hx,
                     uint64_t dy, const float *hy);

/* The end of one pass of "for (i = index; i < n; i += stride)", stride = blockDim.x*gridDim.x
 * held in register rs: IADD i += stride (*ri becomes the new index register), ISETP.GE,
 * @!P0 BRA back to the body. Advances i[l] of the lanes m; returns those still below n (0: the
 * loop is over). */
uint32_t wl_grid_stride_next(wl_warp *w, uint32_t m, uint64_t i[32], uint8_t *ri, uint8_t rs, uint64_t n);

#endif
