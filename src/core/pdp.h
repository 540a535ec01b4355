/* Protection-distance prediction (PDP, Duong et al., MICRO 2012), as CBWT uses it (spec 001
 * section 2.4): every line has a remaining protection distance (RPD), set to the protection
 * distance PD when the line is inserted or hit and decremented at every access to its set;
 * only a line with RPD 0 may be evicted, and a miss that finds none bypasses the cache. PD is
 * recomputed periodically from a sampled reuse-distance histogram. */
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

/* One access to a set of `assoc` ways (tags: block + 1, 0 = invalid; rpd: remaining
 * protection distances). Every way's RPD first drops by one (not below 0); then a hit sets
 * the line's RPD to pd and returns 1; a miss takes an invalid way, else the lowest way with
 * RPD 0, inserts the block with RPD pd and returns 0; with every line protected it changes
 * nothing more and returns -1 (the request bypasses). */
int gms_pdp_access(uint64_t *tags, uint16_t *rpd, uint32_t assoc, uint64_t block, uint32_t pd);

#endif
