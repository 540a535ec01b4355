/* Generic cache used by the L1D (per SM) and the L2 slices (per memory sub-partition).
 * Geometry, sectors, replacement, write and allocation policies, set-index function and
 * MSHRs come from a GPGPU-Sim cache string (interop.md 1.2), decoded by
 * gms_cache_config_parse. The cache owns its tag array, its MSHR table (a pluggable
 * gms_mshr_ops: conventional entries x merge slots now, DL-MSHR later), and its miss queue.
 *
 * Protocol (GPGPU-Sim data_cache semantics):
 *  - gms_cache_access(c, req, now, &cause) for one transaction (one sector for sector
 *    caches, one line otherwise) returns an outcome:
 *      HIT            data present; the caller completes req after its hit latency
 *                     (a write hit: the caller still sends req down if write-through; see
 *                     GMS_CACHE_SENT flag below)
 *      HIT_RESERVED   block pending in an MSHR: req merged as a waiter (returned by fill)
 *      MISS / SECTOR_MISS  read: resources reserved; req is a waiter and, as the primary
 *                     miss, was pushed onto the miss queue. write: depends on the policies
 *                     (sent, absorbed, or waiting behind a fetch): see the flags below
 *      RESERVATION_FAIL nothing changed; *cause says why; the caller retries later
 *    The return value has GMS_CACHE_SENT or'ed in when req itself was put on the miss
 *    queue (write-through writes, primary misses).
 *  - The owner drains the miss queue (gms_cache_mq_head/pop) into the next level when it
 *    has room. Write-backs of dirty victims are new requests allocated from the pool and
 *    appear on the miss queue too (access L1_WRBK_ACC / L2_WRBK_ACC).
 *  - When a reply for a primary miss comes back, gms_cache_fill(c, reply, now) fills the
 *    block (allocate-on-fill chooses the victim now) and returns the chain of waiting
 *    requests (linked by ->next), the primary first. The caller completes each.
 */
#ifndef GMS_MEM_CACHE_H
#define GMS_MEM_CACHE_H
#include "mem/mshr_params.h"
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include "mem/mreq.h"
#include "stats/stats.h"
#include "util/err.h"

typedef enum { GMS_IDX_LINEAR = 0, GMS_IDX_BXOR, GMS_IDX_IPOLY, GMS_IDX_FERMI_HASH,
               GMS_IDX_PMOD, GMS_IDX_CUSTOM, GMS_IDX_APRIME, GMS_IDX_DPRIME,
               GMS_IDX__COUNT } gms_set_index_kind;

typedef struct gms_cache_config {
    int enabled;                 /* 0 for "none" */
    char type;                   /* 'N' normal, 'S' sector */
    uint32_t nsets, line, assoc;
    char repl;                   /* 'L' LRU, 'F' FIFO */
    char write_policy;           /* 'R','B','T','E','L' */
    char alloc_policy;           /* 'm' on-miss, 'f' on-fill, 's' streaming */
    char write_alloc;            /* 'N','W','F','L' */
    char set_index;              /* 'L','X','P','H' (GPGPU-Sim), ours 'M' PMOD, 'A' A-prime,
                                    'D' D-prime; 'C' (custom) is rejected; the sound-baseline
                                    fork's 'P'/'I' (no type letter) are read as 'M'/'P'. See docs/cache.md */
    gms_set_index_kind index_kind;
    char mshr_type;              /* 'A','S','F','T' */
    uint32_t mshr_entries, mshr_max_merge;
    uint32_t miss_queue, result_fifo, data_port_width;
    /* ours (set by options, not the string) */
    uint32_t pmod_prime;         /* PMOD: prime number of sets (0 = largest prime <= nsets) */
    uint32_t bxor_t_shift;       /* BXOR: lowest address bit of t (0 = b + k, the bits right above x) */
    char mshr_design[32];        /* "conventional" (default) | "dlmshr" */
    gms_mshr_params mshr_params; /* the design's own parameters (mshr_params.h) */
} gms_cache_config;

/* Parse a GPGPU-Sim cache string; `optname` is used in error messages. Sets pmod_prime 0
 * and mshr_design "conventional", then validates (gms_cache_config_validate). */
int gms_cache_config_parse(const char *str, const char *optname, gms_cache_config *c, gms_error *err);
/* Re-check a decoded config after changing the option-set fields (pmod_prime, bxor_t_shift, mshr_design):
 * geometry, index-function constraints, policy combinations, MSHR design name. */
int gms_cache_config_validate(const gms_cache_config *c, const char *optname, gms_error *err);
/* Plain-words description: "16 KiB, 32 sets x 4 ways x 128 B, BXOR indexing, LRU,
 * write-through, allocate-on-miss, no write-allocate, 32 MSHRs x 8 merges, miss queue 8" */
void gms_cache_config_describe(const gms_cache_config *c, char *buf, size_t n);
uint64_t gms_cache_config_bytes(const gms_cache_config *c);
/* the same in two parts, "16 KiB" and ", 32 sets x 4 ways ...", so a caller can insert
 * words such as "per SM" after the size */
void gms_cache_config_describe_parts(const gms_cache_config *c, char *size, size_t ns, char *rest, size_t nr);

/* Set index of a block address (addr >> log2(line) already NOT applied: pass the byte
 * address). Exposed for tests. */
uint32_t gms_cache_set_index(const gms_cache_config *c, uint64_t addr);

typedef enum {
    GMS_CACHE_HIT = 0, GMS_CACHE_HIT_RESERVED, GMS_CACHE_MISS, GMS_CACHE_RESERVATION_FAIL,
    GMS_CACHE_SECTOR_MISS, GMS_CACHE_MSHR_HIT, GMS_CACHE__NOUTCOME
} gms_cache_outcome;
#define GMS_CACHE_SENT 0x100   /* or'ed into the return of gms_cache_access */
#define GMS_CACHE_WAIT 0x200   /* or'ed in when req waits in an MSHR: gms_cache_fill returns it */
#define GMS_CACHE_BYPASS 0x400 /* or'ed into MISS: PDP protects the set, req did not enter (below) */
#define GMS_CACHE_OUTCOME(r) ((gms_cache_outcome)((r) & 0xff))
/* A non-RESERVATION_FAIL return without GMS_CACHE_WAIT means req is finished at this level
 * (hit, or a write absorbed/sent): the caller completes it (after the hit latency). If
 * GMS_CACHE_SENT is set the cache has put req itself on the miss queue: the caller must not
 * complete it until it comes back (write ack / reply), or must drop its own reference. */
extern const char *const gms_cache_outcome_name[GMS_CACHE__NOUTCOME];  /* "HIT", ... */

typedef enum {
    GMS_RF_LINE_ALLOC = 0, GMS_RF_MISS_QUEUE_FULL, GMS_RF_MSHR_ENTRY, GMS_RF_MSHR_MERGE,
    GMS_RF_MSHR_RW_PENDING, GMS_RF_BYPASS_SLOT, GMS_RF__COUNT
} gms_rf_cause;
/* GPGPU-Sim spellings: LINE_ALLOC_FAIL MISS_QUEUE_FULL MSHR_ENRTY_FAIL MSHR_MERGE_ENRTY_FAIL
 * MSHR_RW_PENDING, and ours BYPASS_SLOT_FAIL */
extern const char *const gms_rf_cause_name[GMS_RF__COUNT];

typedef struct gms_cache_stats {
    uint64_t acc[GMS_ACC__COUNT][GMS_CACHE__NOUTCOME];
    uint64_t fail[GMS_ACC__COUNT][GMS_RF__COUNT];
    uint64_t total_access[GMS_ACC__COUNT];   /* accesses that were not reservation fails */
    uint64_t rf_requests;    /* requests refused at least once (each counted at its first refusal) */
} gms_cache_stats;

typedef struct gms_cache gms_cache;

/* Which level a cache is: an L2's write-backs are L2_WRBK_ACC and its write-allocate reads
 * L2_WR_ALLOC_R, an L1's L1_* (GPGPU-Sim decides this from the name containing "L2"; here the
 * owner says it, so a name is only a label). */
typedef enum { GMS_CACHE_L1 = 1, GMS_CACHE_L2 = 2 } gms_cache_level;

/* name: a label for messages ("L1D[3]", "L2_bank_004"). Returns NULL for a disabled ("none")
 * config. */
gms_cache *gms_cache_new(const gms_cache_config *cfg, gms_mreq_pool *pool, const char *name, gms_cache_level level);
/* Optional: compute the set index on fn(ctx, addr) instead of addr (the L2 removes the
 * partition bits first, GPGPU-Sim's l2_cache_config::set_index). The tag stays the block
 * address. */
void gms_cache_set_index_xform(gms_cache *c, uint64_t (*fn)(void *ctx, uint64_t addr), void *ctx);
void gms_cache_free(gms_cache *c);
int gms_cache_access(gms_cache *c, gms_mreq *req, uint64_t now, gms_rf_cause *cause);
gms_mreq *gms_cache_mq_head(gms_cache *c);
/* the head if it may leave at `now` (the MSHR access latency, -gms_*_mshr_latency, holds a
 * primary miss back; without one, the head) */
gms_mreq *gms_cache_mq_ready(gms_cache *c, uint64_t now);
gms_mreq *gms_cache_mq_pop(gms_cache *c);
uint32_t gms_cache_mq_size(const gms_cache *c);
gms_mreq *gms_cache_fill(gms_cache *c, gms_mreq *reply, uint64_t now);
/* -gpgpu_perf_sim_memcpy: the sectors of smask of addr's line made VALID in ascending order, the
 * i-th with replacement key time + i, as GPGPU-Sim's tag_array::fill for a copy (see cache.c);
 * returns the first sector's probe status */
int gms_cache_force_fill(gms_cache *c, uint64_t addr, uint8_t smask, uint64_t time);
/* GPGPU-Sim's L2 sub-partition adds its memcpy cycle offset (one per sector a timed copy
 * filled) to the time of every tag access and fill after it, so the replacement keys of the
 * copy and of the kernels' accesses stay in that order: the offset added to every key set */
void gms_cache_set_key_offset(gms_cache *c, uint64_t off);
uint64_t gms_cache_memcpy_dirty_dropped(const gms_cache *c);   /* modified victims the fills dropped */
/* GPGPU-Sim's own protocol (baseline_cache::fill, access_ready, next_access): the fill
 * updates the tags and marks the MSHR entry ready; the owner then takes the waiting requests
 * one at a time with gms_cache_next_access, and the entry stays in use (counted by the MSHR
 * table) until its last request has been taken. gms_cache_fill_ready returns 0 when no
 * entry waits for the reply. gms_cache_next_access returns NULL, having used the turn, for
 * the cache's own write-allocate reads. */
int gms_cache_fill_ready(gms_cache *c, gms_mreq *reply, uint64_t now);
int gms_cache_access_ready(const gms_cache *c);
/* Host speed only, no effect on the simulation: prefetch the host memory that a later
 * gms_cache_access(c, req) / gms_cache_fill_ready(c, reply) will touch (tags, lines, MSHR
 * table). Call as early as the request is known (e.g. when it enters the queue in front). */
void gms_cache_prefetch_access(const gms_cache *c, const gms_mreq *req);
void gms_cache_prefetch_fill(const gms_cache *c, const gms_mreq *reply);
gms_mreq *gms_cache_next_access(gms_cache *c, uint64_t now);
/* invalidate everything (L1 flush at kernel end); dirty lines are written back via the miss
 * queue when write-back; returns number of lines invalidated */
uint32_t gms_cache_flush(gms_cache *c);
/* GPGPU-Sim's tag_array::flush (-gpgpu_flush_l2_cache): every line with a modified sector is
 * invalidated and its data dropped, not written back (GPGPU-Sim: "TODO: write the flushed data
 * to the main memory"); clean lines stay. Returns the lines dropped. */
uint32_t gms_cache_drop_modified(gms_cache *c);
/* change the associativity of an idle cache (adaptive L1 carve-out); -1 if busy */
int gms_cache_set_assoc(gms_cache *c, uint32_t assoc);
/* allocate on miss (1) or on fill (0) from now on: a streaming (`s`) L1 under the adaptive
 * carve-out, set per kernel as GPGPU-Sim's max_cta; -1 if busy (entries in flight) */
int gms_cache_set_on_miss(gms_cache *c, int on_miss);
/* number of MSHR entries in use (for the watchdog and tests) */
uint32_t gms_cache_mshr_used(const gms_cache *c);
/* the MSHR table's statistics added to *acc, and its debug dump (mshr.h) */
struct gms_mshr_stats;
struct gms_mshr_ev;
void gms_cache_mshr_stats(const gms_cache *c, struct gms_mshr_stats *acc);
/* Host speed (the SM's blocked-tick shortcut): track what each refused access adds to the
 * MSHR table's own event counts (gms_mshr_ops.events; nothing if the design keeps none).
 * gms_cache_refusal_events, right after an access that failed: what it added (its check's
 * search, comparators, link stall, tail hops; zero if it made none) */
void gms_cache_track_refusals(gms_cache *c);
struct gms_mshr_ev gms_cache_refusal_events(const gms_cache *c);
/* n more refused accesses, each adding `one` (a gms_cache_refusal_events of the same access,
 * the table unchanged since) to the table's events: the shortcut replays them without calling
 * the table (needs gms_cache_track_refusals) */
void gms_cache_replay_mshr_events(gms_cache *c, const struct gms_mshr_ev *one, uint64_t n);
void gms_cache_mshr_dump(const gms_cache *c, FILE *out);
const gms_cache_stats *gms_cache_get_stats(const gms_cache *c);
/* record a reservation failure that happened outside the cache (e.g. bypass slot). It goes
 * to the fail breakdown only, not to RESERVATION_FAIL / _reservation_fails (not an access). */
void gms_cache_count_fail(gms_cache *c, gms_access_type t, gms_rf_cause cause);
/* what gms_cache_access counts for an access of req that fails with `cause` (the access's
 * RESERVATION_FAIL outcome and the fail breakdown): a failed access changes nothing else (see
 * the protocol above), so an owner that knows an access would fail again the same way (its
 * cache unchanged since) may count it instead of making it (host speed: the SM's blocked
 * ticks) */
void gms_cache_count_reservation_fail(gms_cache *c, gms_mreq *req, gms_rf_cause cause);
/* the two above, n times over (an SM that slept through n blocked ticks) */
void gms_cache_count_fails(gms_cache *c, gms_access_type t, gms_rf_cause cause, uint64_t n);
void gms_cache_count_reservation_fails(gms_cache *c, gms_mreq *req, gms_rf_cause cause, uint64_t n);
/* the cache's clock (its latest access, fill or hand-out: the MSHR table's clock) moved on
 * to `now` if it is behind: an access replayed without being made (a blocked SM's retries) */
void gms_cache_clock_to(gms_cache *c, uint64_t now);
/* add the counters of several caches into GPGPU-Sim style totals:
 * "<prefix>_total_cache_accesses", "_misses", "_miss_rate", "_pending_hits",
 * "_reservation_fails", and breakdowns "<prefix>_breakdown[GLOBAL_ACC_R][HIT]" and
 * "<prefix>_fail_breakdown[GLOBAL_ACC_R][MISS_QUEUE_FULL]" (non-zero entries only). */
void gms_cache_report(gms_cache *const *caches, size_t n, const char *prefix, gms_stats *out);
/* the same from stats blocks (e.g. per-kernel deltas kept by the caller) */
void gms_cache_report_stats(const gms_cache_stats *const *st, size_t n, const char *prefix, gms_stats *out);
/* UCP way partitioning (src/cke/cke_ucp.c): the following accesses (and allocate-on-fill
 * fills) choose their victim among ways [lo, hi) of the set only; a tag match anywhere in the
 * set still hits. hi 0 (the default): every way, as before. The owner sets the range of the
 * requester before each access. */
void gms_cache_set_way_range(gms_cache *c, uint32_t lo, uint32_t hi);
/* UCP's own enforcement, by quotas (Qureshi & Patt, MICRO 2006): the following accesses are
 * app's (< napps <= GMS_CACHE_QUOTA_APPS), and each line remembers the app that allocated it.
 * A miss of an app holding fewer of the set's lines than quota[app] evicts the LRU line (not
 * reserved) of an app over its quota, else of any other app, else its own; an app holding its
 * quota or more evicts its own LRU line, or the access fails (no line). A tag match anywhere
 * still hits. Takes precedence over a way range; napps 0 turns it off. The owner sets it
 * before each access of the requester. */
#define GMS_CACHE_QUOTA_APPS 4
void gms_cache_set_quota(gms_cache *c, uint32_t app, const uint32_t *quota, uint32_t napps);
/* PDP, protection-distance prediction (Duong et al., MICRO 2012; CBWT's bypassing, spec 001
 * 2.4, docs/mdb.md) in the cache's own replacement. Once enabled, every line has a remaining
 * protection distance (RPD): set to PD when the line is inserted or hit, lowered by one at
 * every access to its set that is not a reservation fail (a bypass included). Victims are
 * chosen only among lines with RPD 0 (the usual rule among them). A read the owner lets bypass
 * (gms_cache_pdp_may_bypass before the access) that misses while every non-reserved line of
 * its set is protected returns GMS_CACHE_MISS | GMS_CACHE_BYPASS, having changed nothing and
 * counted nothing: the owner sends it around the cache and calls gms_cache_pdp_bypassed (or,
 * unable to, retries it later). Any other access that finds only protected lines evicts the
 * plain rule's victim ("forced"). PD (0: nothing protected) is the owner's to set. */
void gms_cache_pdp_enable(gms_cache *c);
void gms_cache_pdp_set_pd(gms_cache *c, uint32_t pd);
void gms_cache_pdp_may_bypass(gms_cache *c, int yes);
void gms_cache_pdp_bypassed(gms_cache *c, uint64_t addr);
void gms_cache_pdp_counts(const gms_cache *c, uint64_t *bypassed, uint64_t *forced);
/* Eviction tracking (CCWS's victim tag arrays, src/core/ccws.c): every line remembers the owner
 * set with gms_cache_set_alloc_owner before the access that allocated it (allocate-on-fill:
 * the warp of the fill's first request, GMS_CACHE_NO_LINE_OWNER for a request of no warp), and
 * when a line holding data is replaced, fn(ctx, line address, its owner) is called. A flush
 * or a line that was only reserved is not an eviction. */
#define GMS_CACHE_NO_LINE_OWNER UINT32_MAX
void gms_cache_track_evictions(gms_cache *c, void (*fn)(void *ctx, uint64_t blk, uint32_t owner), void *ctx);
void gms_cache_set_alloc_owner(gms_cache *c, uint32_t owner);
/* Per-owner MSHR / miss-queue partition (concurrent kernels, -gms_cke_mshr_partition): from
 * the first call on, the following accesses belong to `owner` (0 .. GMS_CACHE_NO_OWNER - 1;
 * GMS_CACHE_NO_OWNER: not counted, e.g. a request of no warp), which may hold at most mshr_max
 * MSHR entries (a new entry beyond them is an MSHR_ENTRY reservation fail; merging into any
 * entry is free) and mq_max miss-queue entries (beyond them, MISS_QUEUE_FULL, with GPGPU-Sim's
 * read-miss margin). An entry is its owner's until its fill arrives, a queue slot until popped.
 * The owner sets this before each access, as the way range. */
#define GMS_CACHE_NO_OWNER 3u
void gms_cache_set_owner(gms_cache *c, uint32_t owner, uint32_t mshr_max, uint32_t mq_max);
/* what an owner holds now (tests, checks) */
void gms_cache_owner_held(const gms_cache *c, uint32_t owner, uint32_t *mshr, uint32_t *mq);
/* number of valid (not INVALID) lines, for tests and the watchdog */
uint32_t gms_cache_valid_lines(const gms_cache *c);

#endif
