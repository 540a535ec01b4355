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

/* PD maximising the PDP paper's hit-rate estimate
 *     E(d) = sum_{i<=d} n[i] / (sum_{i<=d} i*n[i] + (nt - sum_{i<=d} n[i]) * (d + de))
 * over d in 1..dmax (n[i]: accesses whose reuse distance was i; nt: all sampled accesses;
 * de: the associativity, the distance an unprotected line is assumed to live). 0 when
 * nothing was reused (no protection). Ties to the smaller d. */
uint32_t gms_pdp_best_pd(const uint64_t *n, uint32_t dmax, uint64_t nt, uint32_t de);

#endif
