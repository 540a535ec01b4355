/* The SM's L1D bypass path (spec 001 section 3.6): a read that bypasses the L1D goes to the L2
 * through one of the SM's bypass slots (#_BpR, -gms_l1d_bypass_slots, 0 = unlimited). A slot
 * holds what the reply needs (warp, destination registers: the request's inflight record) and
 * is freed when the reply comes back. A bypassed read that finds every slot busy is a BpR
 * reservation failure: it stays where it is and retries next cycle.
 *
 * Statistics (docs/counters.md): gms_bpr_reads, gms_bpr_rsfail, gms_bpr_rsfail_rate (BpR
 * reservation failures per bypassed read), gms_bpr_inflight_avg (average over the cycles with
 * at least one bypassed read in flight, as the author's repo averages), gms_bpr_inflight_max. */
#ifndef GMS_CORE_BYPASS_PATH_H
#define GMS_CORE_BYPASS_PATH_H
#include <stdint.h>
#include "mem/mreq.h"
#include "stats/stats.h"

struct gms_sm;
struct gms_params;

/* per-SM bookkeeping of the bypass path */
typedef struct gms_bypass_sm {
    uint64_t reads;      /* reads that took a slot */
    uint64_t rsfail;     /* attempts refused: no slot free */
    uint64_t area;       /* sum over cycles of the reads in flight (event-driven, see bp_change) */
    uint64_t busy;       /* cycles with at least one in flight */
    uint64_t since;      /* cycle of the last change of the in-flight count */
    uint32_t max;        /* most in flight at once */
} gms_bypass_sm;

/* ---- for other components (MRPB's "bypass a stalled request", RACB, bypass policies) ----
 *
 * gms_sm_bypass_read: send read r of SM s down the bypass path at core cycle `now`.
 *   r: a read transaction built by the SM's LSU (r->kind GMS_MREQ_READ, r->warp, r->inst set),
 *      not in any queue (e.g. just popped from an L1 bank queue after the L1D refused it).
 *   Returns 1: r took a bypass slot and waits for the interconnect; from now on it belongs to
 *      the bypass path and completes like any bypassed read (its reply frees the slot, writes
 *      the warp's registers back; the caller must not touch it again).
 *   Returns 0: every slot is busy. One BpR reservation failure is counted (gms_bpr_rsfail and
 *      the L1D's BYPASS_SLOT_FAIL breakdown); r is untouched and stays the caller's, which
 *      retries later (the memory pipeline stalls as on an L1D reservation failure).
 * gms_sm_bypass_slot_free: would gms_sm_bypass_read accept a read now (no side effect)? */
int gms_sm_bypass_read(struct gms_sm *s, gms_mreq *r, uint64_t now);
int gms_sm_bypass_slot_free(const struct gms_sm *s);

/* ---- for sm.c ---- */
/* a read takes a slot / a bypassed read's reply frees it (nfl: the count before) */
void gms_bypass_take(gms_bypass_sm *b, uint32_t nfl, uint64_t now);
void gms_bypass_release(gms_bypass_sm *b, uint32_t nfl, uint64_t now);
/* are the gms_bpr_* statistics reported? Only when something may bypass by design (a limited
 * number of slots, a bypass policy, RACB at the L1D), so that other runs' statistics stay as
 * they were. */
int gms_bypass_stats_on(const struct gms_params *p);
/* the SMs' totals into out; `now` is the current core cycle */
void gms_bypass_report(const gms_bypass_sm *const *b, uint32_t n, uint64_t now, const uint32_t *nfl,
                       gms_stats *out);

#endif
