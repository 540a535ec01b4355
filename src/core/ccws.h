/* Cache-conscious wavefront scheduling (CCWS, Rogers et al., MICRO 2012; spec 001 section 2.4,
 * "for reference"): -gms_ccws 1. A victim tag array (VTA) per warp remembers the lines the L1D
 * evicted that the warp had brought in (gms_cache_track_evictions); a miss of a warp that hits in its own
 * VTA is lost intra-warp locality and raises the warp's lost-locality score by
 * -gms_ccws_kthrottle. Scores fall by one per L1D-eligible access of the SM. Warps are sorted
 * by base + score (-gms_ccws_base each), highest first; the warps whose running sum stays
 * within base x (active warps) may issue global loads, the rest wait (at least one may).
 */
#ifndef GMS_CORE_CCWS_H
#define GMS_CORE_CCWS_H
#include <stdint.h>
#include "stats/stats.h"

struct gms_sm;
typedef struct gms_ccws gms_ccws;

gms_ccws *gms_ccws_new(struct gms_sm *s);
void gms_ccws_free(gms_ccws *c);
/* an L1D access (not a reservation fail) of a global load's read of warp wi at addr; miss:
 * it missed (a MISS or SECTOR_MISS) */
void gms_ccws_access(struct gms_sm *s, uint32_t wi, uint64_t addr, int miss);
/* recompute which warps may issue loads (s->ccws_barred): the warps of
 * gms_ccws_age_order ranked by gms_ccws_allowed */
void gms_ccws_update(struct gms_sm *s);
/* the warps CCWS ranks (active, and allowed by SWL) into idx, oldest first across the SM's
 * schedulers (launch order: the block's, then the warp's place in its block); returns how many */
uint32_t gms_ccws_age_order(const struct gms_sm *s, uint32_t *idx);
void gms_ccws_report(struct gms_sm *const *sms, uint32_t n, gms_stats *out);

/* The cutoff rule on plain numbers (for tests): scores[i] of n active warps in age order
 * (oldest first); sets allowed[i]. Order: base + score, highest first, ties to the older. */
void gms_ccws_allowed(const uint32_t *scores, uint32_t n, uint32_t base, uint8_t *allowed);

#endif
