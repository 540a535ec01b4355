/* Access-pattern classifier (spec 000b section 6.5, UVMBench's regular/irregular rule): fed
 * with the page number of each global memory access in access order, it slides a window of
 * the last `window` accesses and averages the number of distinct pages in it. A workload is
 * irregular when that mean exceeds `threshold` (many unique pages at a point in time),
 * regular otherwise (few pages at a time: streaming). docs/workloads-classify.md gives the
 * defaults and their agreement with Table 5.1. */
#ifndef GMS_WORKLOADS_CLASSIFY_H
#define GMS_WORKLOADS_CLASSIFY_H
#include <stdint.h>
#include "stats/stats.h"

#define GMS_CLASSIFY_WINDOW 1024      /* accesses (distinct pages of one warp instruction each) */
#define GMS_CLASSIFY_THRESHOLD 50.0   /* mean unique pages per window above which: irregular */
#define GMS_CLASSIFY_PAGE_SHIFT 12    /* 4 KiB pages when the caller feeds addresses */

typedef struct gms_classifier gms_classifier;

gms_classifier *gms_classifier_new(uint32_t window, double threshold);
void gms_classifier_free(gms_classifier *c);
/* one access to page `page` */
void gms_classifier_observe(gms_classifier *c, uint64_t page);
/* the distinct pages of one warp instruction's active lanes (addresses), in lane order */
void gms_classifier_observe_lanes(gms_classifier *c, const uint64_t addrs[32], uint32_t mask, int page_shift);
/* the same for a warp whose lanes touch the contiguous bytes [lo, hi] in ascending order */
void gms_classifier_observe_range(gms_classifier *c, uint64_t lo, uint64_t hi, int page_shift);
uint64_t gms_classifier_accesses(const gms_classifier *c);
/* mean number of unique pages per window (every full window position counts; with fewer
 * accesses than one window, the unique pages seen so far) */
double gms_classifier_mean_unique(const gms_classifier *c);
int gms_classifier_irregular(const gms_classifier *c);
/* adds access_pattern_unique_pages_per_window, access_pattern_irregular,
 * access_pattern_window, access_pattern_threshold, access_pattern_accesses */
void gms_classifier_report(const gms_classifier *c, gms_stats *st);

#endif
