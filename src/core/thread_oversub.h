/* Thread oversubscription (TO, spec 004 section 2), the SM side: an SM holds blocks beyond its
 * hardware limit as inactive contexts (their registers and block state in global memory).
 * Active blocks never exceed what the hardware admits (threads, registers, shared memory,
 * block slots); the allocated ones are at most that plus the runtime's extra count
 * (gms_uvm_to_extra). When every live warp of an active block waits on a far fault (finished
 * warps count as stalled; a warp at a barrier does not), the block is switched out for a ready
 * inactive one: a switched-out block whose far faults have all been served first, else one
 * that never ran. The switch costs -gms_uvm_ctx_switch_cycles to save the outgoing context
 * plus the same to restore the incoming one if it ran before; its warps issue after that.
 * A block that finishes frees its slot for a ready inactive block (restore cost only).
 * Hooks in sm.c (add_block / block_finished / the tick) and sm_life.c (can_take / the report / stuck). */
#ifndef GMS_CORE_THREAD_OVERSUB_H
#define GMS_CORE_THREAD_OVERSUB_H
#include <stdint.h>
#include <stdio.h>
#include "stats/stats.h"

struct gms_sm;
struct gms_kernel;

/* per-warp stall state (a statistic): warp-cycles in each */
enum { TO_WS_READY = 0, TO_WS_MEMORY, TO_WS_FAR_FAULT, TO_WS_OTHER, TO_WS_INACTIVE, TO_WS_TRANSLATION, TO_WS_N };

typedef struct gms_to_sm {
    uint8_t *st;              /* per block slot: TO_B_* */
    uint64_t *ready_at;       /* TO_B_IN: cycle its warps may issue */
    uint32_t hw_cta;          /* hardware block slots */
    uint32_t n_active;        /* blocks holding hardware resources (active or switching in) */
    uint32_t n_in;            /* blocks switching in */
    int admit_inactive;       /* can_take's decision for the next add_block */
    int dirty;                /* a far fault began: look for a switch */
    int hooked;
    uint64_t next_check, last_sample;
    uint32_t counts[TO_WS_N];
    /* statistics */
    uint64_t switches_out, switches_in, fresh_in, ctx_cycles, inactive_adds;
    uint64_t wakes;           /* blocks whose warps were let issue (not a statistic) */
    uint64_t ws_cycles[TO_WS_N];
} gms_to_sm;

void gms_to_init(struct gms_sm *s);
void gms_to_free(struct gms_sm *s);
int gms_to_can_take(const struct gms_sm *s, const struct gms_kernel *k);
/* after add_block has set the block up (and it did not finish at once) */
void gms_to_block_added(struct gms_sm *s, uint32_t bi);
/* after block_finished released the block's resources */
void gms_to_block_finished(struct gms_sm *s, uint32_t bi);
/* end of the SM's tick (r: the tick's result, 1 = stay active); returns the result to use */
int gms_to_tick(struct gms_sm *s, uint64_t cycle, int r);
/* the next cycle at which gms_to_tick would act on an SM that stays active as it is: its next
 * periodic look, or an incoming block's restore finishing (for an SM asleep meanwhile) */
uint64_t gms_to_next_look(const struct gms_sm *s);
void gms_to_report(struct gms_sm *const *sms, uint32_t n, gms_stats *out);

#endif
