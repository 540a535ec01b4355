/* Pyramid kernels: Rodinia's hotspot and pathfinder stage a block's tile in shared memory and
 * advance it `iter` time steps per launch; each step the valid part shrinks by one cell per
 * side, so a block of bs threads (per dimension) yields bs - 2*iter cells and neighbouring
 * tiles overlap. Warps set up by wl_block_begin (wl_util.h). */
#ifndef GMS_WORKLOADS_WL_PYRAMID_H
#define GMS_WORKLOADS_WL_PYRAMID_H
#include <stdint.h>
#include "workloads/wl_util.h"

static inline int wl_in_range(int x, int lo, int hi) { return x >= lo && x <= hi; }
/* One dimension of block b: its thread 0 stands at cell *blk = (bs - 2*iter)*b - border;
 * threads *vmin..*vmax stand at cells inside 0..n-1. */
static inline void wl_pyramid_span(int bs, int iter, int b, int border, int n, int *blk, int *vmin, int *vmax)
{
    int lo = (bs - iter * 2) * b - border, hi = lo + bs - 1;
    *blk = lo;
    *vmin = lo < 0 ? -lo : 0;
    *vmax = hi > n - 1 ? bs - 1 - (hi - n + 1) : bs - 1;
}
/* The emission of a pyramid step's end: every thread t with computed[t] copies its result
 * from shared byte offset from + 4t to to + 4t (BRA at pc, LDS, STS), then BAR. */
void wl_pyramid_copy(wl_warp *W, uint32_t nw, const int *computed, uint32_t pc, uint64_t from, uint64_t to);
/* The kernel's end: every thread t with computed[t] stores its result from shared byte offset
 * from + 4t to global address gaddr[t] (BRA at pc, LDS, STG on the prologue's register
 * ri[warp]), then every warp EXITs; vals (may be NULL): the 4 bytes thread t stores, for the
 * shadow memory (wl_shadow.h). */
void wl_pyramid_store(wl_warp *W, uint32_t nw, const int *computed, uint32_t pc, uint64_t from,
                      const uint64_t *gaddr, const uint8_t *ri, const uint32_t *vals);
/* The host's time loop: one launch of k per `pyramid` of the `steps` steps, ping-ponging
 * buffers 0 and 1 (0 holds the input): k->arg[0] = steps in this launch, arg[1] = source,
 * arg[2] = destination, arg[3] = first step. sync_each: synchronize after every launch (else
 * the caller synchronizes). Returns the buffer that holds the result. */
int wl_pyramid_launches(gms_program *p, wl_kernel *k, const char *name, uint64_t steps, uint64_t pyramid,
                        uint32_t regs, uint32_t shmem, int sync_each);

#endif
