/* A timing-free functional walk of one kernel in the order the GPU would run it: blocks
 * resident as the dispatcher places them, warps interleaved one step at a time.
 *
 * Each SM holds up to `blocks_per_sm` blocks (the kernel's occupancy). Blocks are placed as
 * gpu.c's dispatcher does with every SM free: one per SM in turn, SM i taking blocks i,
 * i + n_sm, ...; a block's slot is refilled with the next block (SMs in turn from after the
 * one served last) once the block has finished. The walk goes in rounds: SMs in order, each
 * SM's resident blocks in slot order, each block's warps in order, and each warp not waiting
 * at a barrier takes one step: its instructions are handed to `fn` up to and including the
 * first that `fn` counts as a step. A BAR makes the warp wait until every warp of its block
 * that has not finished waits at one (sm.c's rule); a warp's buffer is refilled
 * (fill_warp_more) when it has consumed it and is not waiting, so resumable sources see the
 * order frontend/warp_refill.h promises. fill_block is called once per block, in increasing
 * order. A callback may leave an instruction pending (on a far fault, say) until it wakes it,
 * and the warp waits for it; when every resident warp that has not finished waits, the idle
 * callback wakes some. Deterministic: no timing, no randomness. */
#ifndef GMS_CORE_RESIDENT_WALK_H
#define GMS_CORE_RESIDENT_WALK_H
#include "frontend/program.h"

/* a warp of a resident block, as handed to the callbacks: valid while the warp waits */
typedef struct gms_walk_warp { void *slot; uint32_t warp; } gms_walk_warp;

/* called for every instruction a warp executes, in walk order: 1 = that was the warp's step
 * (its turn in this round ends), 0 = go on with its next instruction, -1 = stop (error).
 * It may leave the instruction pending (gms_walk_pend): the warp then waits for it. */
typedef int (*gms_walk_inst_fn)(void *ud, gms_walk_warp h, const gms_warp_trace *wt, const gms_inst *in);
/* called, again and again, while no warp can run and some wait: 1 = did something toward
 * waking one (gms_walk_wake), 0 = nothing left to do (the walk is stuck: an error), -1 = stop */
typedef int (*gms_walk_idle_fn)(void *ud);

/* the instruction fn was called for completes after n calls of gms_walk_wake(h); the warp
 * takes no step until then. (Loads do not block a real warp until their result is used; a
 * scoreboard-level walk, tried, let warps run ahead further and its string took MIN above
 * LRU's timed faults on hybridsort at 50%: the warp waits at once.) */
void gms_walk_pend(gms_walk_warp h, uint32_t n);
void gms_walk_wake(gms_walk_warp h);

/* walk every block of k (n_sm and blocks_per_sm are raised to 1 if 0). idle may be NULL if
 * fn never makes a warp wait. 0, or -1 (err set by the source or the walk, or a callback's -1
 * passed on with err untouched) */
int gms_walk_resident(const gms_kernel_src *k, uint32_t n_sm, uint32_t blocks_per_sm, gms_walk_inst_fn fn,
                      gms_walk_idle_fn idle, void *ud, gms_error *err);

#endif
