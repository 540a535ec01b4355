/* Protection-distance prediction (PDP, Duong et al., MICRO 2012), as CBWT uses it (spec 001
 * section 2.4): every line has a remaining protection distance (RPD), set to the protection
 * distance PD when the line is inserted or hit and decremented at every access to its set;
 * only a line with RPD 0 may be evicted, and a miss that finds none bypasses the cache. PD is
 * recomputed periodically from a sampled reuse-distance histogram. The protection is the L1D's
 * (gms_cache_pdp_*, mem/cache.h); the predictor is src/core/bypass_pdp.c. */
#ifndef GMS_CORE_PDP_H
#define GMS_CORE_PDP_H
#include <stdint.h>

#define GMS_PDP_DMAX 64   /* reuse distances counted: 1..DMAX set accesses (more: "far") */
#define GMS_PDP_HIST 64   /* blocks a sampled set remembers */

/* The reuse-distance sampler of one sampled set: its last GMS_PDP_HIST blocks, each with the
 * set's access count at its last access. The accesses are those that lower the set's RPDs
 * (spec 001 2.4: RPD "decremented on each access to its set", PD from "a sampled reuse-distance
 * distribution": one unit), i.e. every L1D access to the set that is not a reservation fail
 * (loads, stores, local accesses) and every PDP bypass (gms_pdp_set_touched). */
typedef struct gms_pdp_set {
    uint64_t blk[GMS_PDP_HIST];   /* block + 1 (0: empty) */
    uint32_t at[GMS_PDP_HIST];
    uint32_t pos, n;              /* next slot to replace (FIFO); the set's accesses */
} gms_pdp_set;

/* an access of block `block` to the sampled set: its reuse distance (the set's accesses since
 * the block's last one, this one included: 1 = the set's previous access was to it too), or 0
 * if the block is not remembered (a first access, or forgotten) */
uint32_t gms_pdp_set_access(gms_pdp_set *set, uint64_t block);

/* PDP's sampler hears an access to the L1D set of addr on SM s (sm.c: an L1D access that was
 * not a reservation fail, or a PDP bypass) */
struct gms_sm;
void gms_pdp_set_touched(struct gms_sm *s, uint64_t addr);

/* PD maximising the PDP paper's hit-rate estimate
 *     E(d) = sum_{i<=d} n[i] / (sum_{i<=d} i*n[i] + (nt - sum_{i<=d} n[i]) * (d + de))
 * over d in 1..dmax (n[i]: accesses whose reuse distance was i; nt: all sampled accesses;
 * de: the associativity, the distance an unprotected line is assumed to live). 0 when
 * nothing was reused (no protection). Ties to the smaller d. */
uint32_t gms_pdp_best_pd(const uint64_t *n, uint32_t dmax, uint64_t nt, uint32_t de);

#endif
