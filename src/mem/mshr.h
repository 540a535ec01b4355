/* MSHR designs. The cache talks to its MSHR table only through gms_mshr_ops, so a new design
 * (DL-MSHR) is one new mshr_*.c file plus one line in mshr.c's registry; the cache does not
 * change. Keys are MSHR addresses (GPGPU-Sim mshr_addr: the 32 B sector for sector caches,
 * the line otherwise). Lookups are O(1). */
#ifndef GMS_MEM_MSHR_H
#define GMS_MEM_MSHR_H
#include <stdint.h>
#include "mem/cache.h"
#include "util/registry.h"

/* what the cache needs back at fill time; stored with the entry when it is created */
typedef struct gms_mshr_info {
    uint64_t orig_addr;        /* primary's address and size before it was sent */
    uint32_t orig_bytes;
    uint32_t line_idx;         /* allocate-on-miss: the reserved line */
    uint8_t has_atomic;        /* an atomic was merged: the filled sector becomes MODIFIED */
} gms_mshr_info;

typedef struct gms_mshr_ops {
    const char *name;          /* as the cache string's MSHR design field and -gms_l1d_mshr spell it */
    const char *summary;       /* one line, for `gpumemsim list policies` */
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
} gms_mshr_ops;

const gms_mshr_ops *gms_mshr_find(const char *name);
extern const gms_registry gms_mshr_reg;    /* names, help, error lists */

#endif
