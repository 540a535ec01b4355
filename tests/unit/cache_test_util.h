/* Small-cache helpers for tests that drive an L1D by hand (PDP, CCWS eviction tracking) or
 * check set-index functions on hand-computed addresses. */
#ifndef GMS_TEST_CACHE_TEST_UTIL_H
#define GMS_TEST_CACHE_TEST_UTIL_H
#include "mem/cache.h"
#include <stdio.h>
#include <string.h>

/* a cache geometry for the set-index functions: nsets sets of 4 x 128 B lines (b = 7), set
 * index function idx (GPGPU-Sim's letter) */
static inline gms_cache_config tu_index_cfg(uint32_t nsets, char idx)
{
    gms_cache_config c;
    memset(&c, 0, sizeof c);
    c.enabled = 1; c.type = 'N'; c.nsets = nsets; c.line = 128; c.assoc = 4;
    c.set_index = idx;
    return c;
}

/* one set of `ways` 128 B lines, LRU, write-through, allocate-on-miss, 8 MSHRs; NULL if the
 * string does not parse */
static inline gms_cache *tu_l1_one_set(gms_mreq_pool *pool, unsigned ways)
{
    char str[64];
    snprintf(str, sizeof str, "N:1:128:%u,L:T:m:N:L,A:8:4,8", ways);
    gms_cache_config cfg;
    gms_error err = { 0 };
    if (gms_cache_config_parse(str, "test", &cfg, &err)) return NULL;
    return gms_cache_new(&cfg, pool, "L1D", GMS_CACHE_L1);
}

/* one global read of a whole line at `now`, its miss (if any) filled at once; a PDP bypass is
 * completed as the SM does (gms_cache_pdp_bypassed). Returns gms_cache_access's result. */
static inline int tu_read_line(gms_cache *c, gms_mreq_pool *pool, uint64_t addr, uint64_t now)
{
    gms_rf_cause cause;
    gms_mreq *r = gms_mreq_alloc(pool);
    r->addr = addr; r->bytes = 128; r->sector_mask = 0xF;
    r->kind = GMS_MREQ_READ; r->access = GMS_ACC_GLOBAL_R;
    int rc = gms_cache_access(c, r, now, &cause);
    if (rc & GMS_CACHE_BYPASS) {
        gms_cache_pdp_bypassed(c, addr);
        gms_mreq_release(pool, r);
    } else if (GMS_CACHE_OUTCOME(rc) == GMS_CACHE_HIT) {
        gms_mreq_release(pool, r);
    }
    for (gms_mreq *q; (q = gms_cache_mq_pop(c));)
        for (gms_mreq *w = gms_cache_fill(c, q, now), *nx; w; w = nx) { nx = w->next; gms_mreq_release(pool, w); }
    return rc;
}

#endif
