/* Resumable warp generators for built-in kernels whose threads loop long.
 *
 * A kernel written with these is generated one warp at a time, a chunk at a time: its step
 * function emits a warp's instructions (computing the lanes' real results as usual) and, at
 * each WL_GEN_YIELD, returns to the simulator once the warp's buffer holds `chunk`
 * instructions; the next call continues right after the yield. So the buffered
 * instructions per warp stay below chunk + one loop body, however long the loop.
 *
 * The step function is a protothread: WL_GEN_BEGIN / WL_GEN_END wrap its body, which is
 * a switch on the resume point; everything that must survive a yield (loop indices, lane
 * values, registers, the emitter) lives in the per-warp state struct, not in locals
 * (a local declared before a yield is uninitialised after resuming). The body must contain
 * no switch statement of its own.
 *
 * Barriers: the consumer resumes a warp whose buffer ends with a BAR only when the barrier
 * is released (see frontend/warp_refill.h), so a step that reads shared results of other
 * warps after a BAR must yield right after emitting it (WL_GEN_YIELD_ALWAYS). */
#ifndef GMS_WORKLOADS_WL_GEN_H
#define GMS_WORKLOADS_WL_GEN_H
#include "frontend/emit.h"
#include "frontend/program.h"

typedef struct wl_gen {
    uint32_t resume;   /* 0: start; else the source line of the yield to continue after */
    uint32_t chunk;    /* yield once the warp's buffer holds this many instructions */
    gms_emit *e;       /* the warp's emitter (inside the kernel's per-warp state) */
} wl_gen;

/* chunk size of a launch in program p (gms_program.chunk, 0 = the default) */
static inline uint32_t wl_gen_chunk(const gms_program *p) { return p->chunk ? p->chunk : GMS_WARP_CHUNK; }

#define WL_GEN_BEGIN(g) switch ((g)->resume) { case 0:;
#define WL_GEN_YIELD(g) \
    do { if ((g)->e->w->n >= (g)->chunk) { (g)->resume = __LINE__; return 1; case __LINE__:; } } while (0)
#define WL_GEN_YIELD_ALWAYS(g) \
    do { (g)->resume = __LINE__; return 1; case __LINE__:; } while (0)
#define WL_GEN_END(g) } (g)->resume = 0; return 0

#endif
