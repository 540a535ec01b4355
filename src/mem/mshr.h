/* MSHR designs. The cache talks to its MSHR table only through gms_mshr_ops, so a new design
 * (DL-MSHR) is one new mshr_*.c file plus one line in mshr.c's registry; the cache does not
 * change. Keys are MSHR addresses (GPGPU-Sim mshr_addr: the 32 B sector for sector caches,
 * the line otherwise). Lookups are O(1). */
#ifndef GMS_MEM_MSHR_H
#define GMS_MEM_MSHR_H
#include <stdint.h>
#include <stdio.h>
#include "mem/cache.h"
#include "mem/hw_cost.h"
#include "util/registry.h"

/* what the cache needs back at fill time; stored with the entry when it is created */
typedef struct gms_mshr_info {
    uint64_t orig_addr;        /* primary's address and size before it was sent */
    uint32_t orig_bytes;
    uint32_t line_idx;         /* allocate-on-miss: the reserved line */
    uint8_t has_atomic;        /* an atomic was merged: the filled sector becomes MODIFIED */
} gms_mshr_info;

/* statistics every design keeps (docs/counters.md, "MSHR designs"); summed over tables */
#define GMS_MSHR_CHAIN_BINS 17     /* chain lengths 1..16 sets, the last bin >= 17 */
typedef struct gms_mshr_stats {
    uint64_t rf_entry, rf_merge;   /* check() refusals: no entry / no slot (each attempt) */
    uint64_t slot_cycles;          /* sum over cycles of occupied slots (a time integral) */
    uint64_t unit_cycles;          /* sum over cycles of entries (conventional) / sets (DL) in use */
    uint64_t cycles;               /* cycles the integrals cover (to the table's clock), summed */
    uint64_t slot_cap_cycles;      /* sum over tables of cycles x the table's slots */
    uint64_t alloc_cap_cycles;     /* sum over cycles of the slots of the entries / sets in use
                                    * (unit_cycles x slots per entry or set) */
    uint64_t released;             /* entries released */
    uint64_t chain_hist[GMS_MSHR_CHAIN_BINS];   /* released entries by sets in their chain (DL) */
    uint64_t links;                /* DL: sets linked after a full tail */
    uint64_t link_stalls;          /* DL: secondaries refused at a full tail (no free linkable set) */
    uint64_t tail_hops;            /* DL without the tail pointer: sets walked to find the tail */
    uint64_t max_units;            /* largest entries / sets in use at once (max over tables) */
    /* hardware cost inputs (docs/dlmshr.md "Area and energy"; turned into mm2 / mW / nJ by
     * l2q_energy.c with the -gms_energy table). Structure: one table's (all tables of a level
     * are alike), `tables` summed. Events: summed over tables. */
    uint64_t tables;
    uint64_t hw_cmp;               /* block-address comparators (CAM rows) */
    uint64_t hw_slots;             /* request slots (SRAM rows of slot_bits) */
    uint64_t hw_ff;                /* control bits kept in flip-flops (valid, H/L/S_free/S_full, counters) */
    uint64_t hw_ptr;               /* pointer and count bits kept in SRAM (P, tail, per-entry counts) */
    uint64_t hw_key_shift;         /* log2 of the key's granularity: tag bits = address bits - this */
    uint64_t searches;             /* table searches (every check, the cache's replayed refusals too) */
    uint64_t compares;             /* comparators enabled, summed over the searches */
    uint64_t slot_ops;             /* slot writes (add) and reads (hand-out, take) */
    uint64_t ctrl_ops;             /* control / pointer bits written */
} gms_mshr_stats;

/* what one table access adds to the per-attempt events (host speed: the SM's blocked-tick
 * shortcut replays a refused access's share, gms_cache_replay_mshr_events). 32 bits: a
 * difference of two readings' low halves is exact for any access */
typedef struct gms_mshr_ev {
    uint32_t searches, compares, link_stalls, tail_hops;
} gms_mshr_ev;
static inline gms_mshr_ev gms_mshr_ev_read(const gms_mshr_stats *s)
{
    return (gms_mshr_ev){ (uint32_t)s->searches, (uint32_t)s->compares, (uint32_t)s->link_stalls, (uint32_t)s->tail_hops };
}
static inline gms_mshr_ev gms_mshr_ev_since(const gms_mshr_stats *s, gms_mshr_ev before)
{
    gms_mshr_ev now = gms_mshr_ev_read(s);
    return (gms_mshr_ev){ now.searches - before.searches, now.compares - before.compares,
                          now.link_stalls - before.link_stalls, now.tail_hops - before.tail_hops };
}

typedef struct gms_mshr_ops {
    const char *name;          /* as the cache string's MSHR design field and -gms_l1d_mshr spell it */
    const char *summary;       /* one line, for `gpumemsim list policies` */
    const char *const *knobs;     /* its own options' name prefixes, NULL-ended (registry.h knobs_off); may be NULL */
    void *(*create)(const gms_cache_config *cfg);
    void (*destroy)(void *m);
    /* can a request for key be accepted? 0 = yes, else the cause GMS_RF_MSHR_ENTRY (no entry
     * and table full) or GMS_RF_MSHR_MERGE (entry full). *hit: 0 no entry, 1 an entry waits
     * for its fill, 2 an entry already filled (mark_ready) whose requests are being handed
     * out: a request merged there gets no fill of its own (the cache must not reserve a line
     * for it) */
    int (*check)(void *m, uint64_t key, int *hit);
    /* the entry for key holds a read queued after a write (GPGPU-Sim MSHR_RW_PENDING) */
    int (*rw_pending)(void *m, uint64_t key);
    /* add r: creates the entry (r = primary, info stored) or merges. counted = 0: r rides
     * along without using a merge slot (the write behind a fetch-on-write read). Must only be
     * called after check() returned 0. r->next is not used for the primary (it is on the
     * miss queue). Returns the entry's index (a hint for mark_ready) */
    uint32_t (*add)(void *m, uint64_t key, gms_mreq *r, int counted, const gms_mshr_info *info);
    /* remove key's entry; returns its requests linked by ->next, primary first; NULL if none */
    gms_mreq *(*take)(void *m, uint64_t key, gms_mshr_info *info);
    /* GPGPU-Sim mshr_table::mark_ready: the fill for key arrived. The entry stays (it still
     * counts as used) and joins the ready list; returns its primary (NULL if no entry).
     * hint: the index add() returned for the entry, if known; any value is safe (checked) */
    gms_mreq *(*mark_ready)(void *m, uint64_t key, uint32_t hint, gms_mshr_info *info);
    /* mshr_table::access_ready / next_access: one request of the oldest ready entry, primary
     * first; the entry is released with its last request */
    int (*any_ready)(const void *m);
    gms_mreq *(*next_ready)(void *m);
    uint32_t (*used)(const void *m);       /* entries in use */
    /* host speed only, no effect on the table: start loading the host cache lines that a
     * coming operation will touch: the entry at hint (a fill, hint from add()), or, with
     * hint UINT32_MAX, what check()/add() for key read first */
    void (*prefetch)(const void *m, uint64_t key, uint32_t hint);
    /* host speed only: the array that add()'s hints index, fixed for the table's life (entry
     * `hint` at base + hint * stride, hint < n); the cache prefetches a fill's entry from it
     * without reading the table's own struct. NULL: no such array (prefetch() is used). */
    void (*hint_array)(const void *m, const char **base, uint32_t *n, uint32_t *stride);
    /* the cache's clock (its latest `now`, updated at every access and fill), read when the
     * occupancy changes to integrate the utilisation; set once after create */
    void (*set_clock)(void *m, const uint64_t *now);
    /* add this table's statistics to *acc (the integrals brought up to *clock) */
    void (*stats)(const void *m, gms_mshr_stats *acc);
    /* optional: the table's own event counts, which stats() reports (the fields gms_mshr_ev
     * names: what one check() adds); fixed for the table's life. The cache reads them before
     * its check and adds a refused access's share again for each attempt the SM's
     * blocked-tick shortcut replays without calling the table (gms_cache_replay_mshr_events) */
    gms_mshr_stats *(*events)(void *m);
    /* optional: a debug dump of the table's state (DL-MSHR: every set's bits and FSM state) */
    void (*dump)(const void *m, FILE *out);
} gms_mshr_ops;

const gms_mshr_ops *gms_mshr_find(const char *name);
/* the design of a cache config in words for the config dump ("dlmshr: 128 sets x 2 slots, ...");
 * name is used when the cache is disabled */
const char *gms_mshr_describe(const gms_cache_config *c, const char *name);
/* the access cycles of a design (mshr_params.latency, or the design's own when 0) */
uint32_t gms_mshr_latency(const gms_cache_config *c);
/* mshr_dl.c: the options' check that a DL-MSHR split keeps the cache string's entries x merges
 * slots (sets of S slots that divide them, a reserve of at least one set); dl_str as given */
int gms_dlmshr_geometry_check(const gms_cache_config *c, const char *cache_opt, const char *dl_opt, const char *dl_str,
                              gms_error *err);
/* gms_<prefix>_mshr_* statistics of the caches' tables, summed (docs/counters.md) */
void gms_mshr_report(const gms_mshr_stats *s, const char *prefix, gms_stats *out);
extern const gms_registry gms_mshr_reg;    /* names, help, error lists */

#endif
