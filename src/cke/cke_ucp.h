/* UCP, utility-based cache partitioning (Qureshi & Patt, MICRO 2006) of the L1D among
 * concurrent kernels (spec 001 section 4.3, "WS-L1D Partition"; docs/cke.md):
 *  - a utility monitor (UMON) per kernel per SM: shadow tags of every GMS_UCP_SAMPLE-th set of
 *    the L1D, an LRU stack of `assoc` blocks per sampled set, and a hit counter per stack
 *    position. A hit at position p means the kernel would have hit with p + 1 or more ways;
 *  - every `period` L1D accesses of the SM the lookahead algorithm shares the ways out and
 *    the counters are halved (the paper's ageing);
 *  - the partition is kept by UCP's replacement with quotas (gms_cache_set_quota: a kernel
 *    under its share of a set's lines evicts another kernel's, one at or over it its own), or
 *    (`ways`, -gms_cke_ucp_enforce) kernel k's misses choose their victim among its own ways
 *    only, the contiguous range [lo_k, lo_k + ways_k) (gms_cache_set_way_range); either way
 *    a tag match anywhere still hits. */
#ifndef GMS_CKE_UCP_H
#define GMS_CKE_UCP_H
#include <stdint.h>
#include "cke/cke_params.h"

#define GMS_UCP_SAMPLE 8   /* one set in 8 has shadow tags (the paper samples 32 of 2048) */

typedef struct gms_ucp_umon {
    uint32_t assoc, nsample;
    uint64_t *tags;    /* nsample x assoc, each set's stack MRU first; 0 = empty, else block + 1 */
    uint64_t *hits;    /* assoc: hits at each stack position */
} gms_ucp_umon;

struct gms_cache_config;
typedef struct gms_ucp {
    const struct gms_cache_config *l1;   /* the L1D's geometry (set index, line) */
    uint32_t napps, assoc, nsets, period, count;
    int by_ways;                          /* enforcement: 1 contiguous way ranges, 0 quotas */
    gms_ucp_umon mon[GMS_CKE_MAX_APPS];
    uint32_t ways[GMS_CKE_MAX_APPS], lo[GMS_CKE_MAX_APPS];
    uint64_t repartitions;
    uint64_t way_sum[GMS_CKE_MAX_APPS];   /* ways after each repartition, summed (the mean) */
} gms_ucp;

/* assoc ways, nsets sets; period: accesses between repartitions. Starts with the ways shared
 * out evenly (the remainder to the first kernels). 0, or -1 when out of memory. */
int gms_ucp_init(gms_ucp *u, uint32_t napps, uint32_t assoc, uint32_t nsets, uint32_t period);
void gms_ucp_free(gms_ucp *u);
/* an L1D access of kernel app to block blk (address / line) in set `set` (not a reservation
 * fail): its UMON sees it; every `period` accesses the ways are shared out again */
void gms_ucp_access(gms_ucp *u, uint32_t app, uint32_t set, uint64_t blk);
/* the lookahead algorithm: hits[k][p] = kernel k's UMON hits at stack position p (p < assoc);
 * every kernel gets at least one way; repeatedly the kernel with the largest marginal utility
 * per way, max over j of (U_k(w_k + j) - U_k(w_k)) / j for j up to the ways left, gets its
 * best j ways (ties: the lower kernel, then the fewer ways). U_k(w) = hits[k][0..w-1]. */
void gms_ucp_lookahead(const uint64_t *const *hits, uint32_t napps, uint32_t assoc, uint32_t *ways);
/* the contiguous range of each kernel from ways[] (kernel 0 the lowest ways) */
void gms_ucp_ranges(gms_ucp *u);

#endif
