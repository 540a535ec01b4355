/* verify() of an iterative kernel that ping-pongs two device buffers (Rodinia's hotspot and
 * hotspot3d: each launch reads one temperature buffer and writes the other): the CPU
 * reference repeats the same sweeps on two host buffers, then the buffer the last launch
 * wrote is compared with its result. */
#ifndef GMS_WORKLOADS_WL_PINGPONG_H
#define GMS_WORKLOADS_WL_PINGPONG_H
#include <stdint.h>
#include "workloads/wl_buf.h"

/* one step of the CPU reference: out = the next state of in (n floats each), ctx the
 * workload's state */
typedef void (*wl_sweep_fn)(const void *ctx, const float *in, float *out);

/* `steps` sweeps from init (n floats), then `final` as the kernels left it (wl_result of sh)
 * checked against the last one with wl_check_f32_tol(wl, what, ..., tol). 0: it matches,
 * -1: err says where it does not. */
int wl_check_pingpong_f32(const char *wl, const char *what, const wl_shadow *sh, const wl_buf *final,
                          const float *init, uint64_t n, uint64_t steps, wl_sweep_fn sweep, const void *ctx,
                          double tol, gms_error *err);

#endif
