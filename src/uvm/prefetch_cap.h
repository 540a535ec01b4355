/* CAP's granularity rule (spec 000b 2.2), exposed for tests. */
#ifndef GMS_UVM_PREFETCH_CAP_H
#define GMS_UVM_PREFETCH_CAP_H
#include <stdint.h>

/* Eq. 4.1: G = avail x req / (agg x c), rounded down to a candidate gmin x 2^k <= gmax (below
 * gmin: gmin), and at most the largest candidate <= req (req below gmin: gmin). Bytes. */
uint64_t gms_cap_granularity(uint64_t avail, uint64_t req, uint64_t agg, double c, uint64_t gmin, uint64_t gmax);

#endif
