/* Read a whole trace (or any program source) without timing: every command, every block in
 * order, counting what was read. Used by `gpumemsim trace stat`, tests and the parse bench. */
#ifndef GMS_FRONTEND_TRACE_STAT_H
#define GMS_FRONTEND_TRACE_STAT_H
#include <stdint.h>
#include "frontend/program.h"

typedef struct gms_trace_stats {
    uint64_t kernels, copies, copy_bytes, blocks, warp_insts, thread_insts, mem_insts;
    uint64_t streams_max;       /* highest stream index seen + 1 */
} gms_trace_stats;

/* Optional per-block callback (e.g. to compare records); non-zero stops with that code. */
typedef int (*gms_block_fn)(void *ud, const gms_kernel_src *k, uint64_t block, const gms_block_trace *b);

int gms_program_walk(gms_program_src *src, gms_trace_stats *st, gms_block_fn fn, void *ud, gms_error *err);
/* gms_trace_program + gms_program_walk */
int gms_trace_stat(const char *kernelslist, gms_trace_stats *st, gms_error *err);

#endif
