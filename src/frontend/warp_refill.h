/* Consuming resumable warp streams (gms_kernel_src.fill_warp_more) outside the SM.
 *
 * A source may hand out a long warp's instructions a chunk at a time, so the memory held
 * per warp is bounded by the chunk, not by how long the thread loops. The SM refills a warp
 * when it has issued its last buffered instruction; the functional consumers below do the
 * same, in an order that respects barriers: a warp whose buffer ends with a BAR is resumed
 * only when every other unfinished warp of the block has also reached a BAR. */
#ifndef GMS_FRONTEND_WARP_REFILL_H
#define GMS_FRONTEND_WARP_REFILL_H
#include "frontend/program.h"

/* linear block index of bt (x fastest, then y, z) in k's grid */
static inline uint64_t gms_block_linear(const gms_kernel_src *k, const gms_block_trace *bt)
{
    return bt->x + (uint64_t)k->grid.x * (bt->y + (uint64_t)k->grid.y * bt->z);
}

/* Empty wt and ask the source for the next instructions of warp `warp` of block `block`.
 * 1: wt holds instructions again (wt->more says whether still more follow); 0: the stream
 * was over (wt empty, more = 0); -1: error. */
int gms_warp_refill(const gms_kernel_src *k, uint64_t block, uint32_t warp, gms_warp_trace *wt, gms_error *err);

/* Called by gms_block_drain for every buffered piece of every warp, in a barrier-respecting
 * order; returns 0 to continue or -1 to stop with an error. */
typedef int (*gms_chunk_fn)(void *ud, uint32_t warp, const gms_warp_trace *wt);

/* After fill_block: visit every warp's buffer, refill, visit again ... until every stream is
 * over. Memory stays bounded by the chunk size. */
int gms_block_drain(const gms_kernel_src *k, gms_block_trace *bt, gms_chunk_fn fn, void *ud, gms_error *err);

/* fill_block, then resume every unfinished warp (in the same barrier-respecting order),
 * appending to its buffer, so each warp holds its whole stream (for consumers that need a
 * warp's instructions all at once, such as the trace writer). Unbounded, like before. */
int gms_block_fill_all(const gms_kernel_src *k, uint64_t block, gms_block_trace *bt, gms_error *err);
/* the second half of gms_block_fill_all: after fill_block, append the rest of every stream */
int gms_block_append_rest(const gms_kernel_src *k, uint64_t block, gms_block_trace *bt, gms_error *err);

#endif
