#include "workloads/classify.h"
#include "util/err.h"
#include "util/hashmap.h"
#include <stdlib.h>

struct gms_classifier {
    uint32_t window;
    double threshold;
    uint64_t *ring;        /* the last `window` pages */
    uint64_t n;            /* accesses observed */
    gms_u64map count;      /* page -> occurrences in the ring */
    double sum;            /* sum of unique counts over full-window positions */
    uint64_t samples;
};

gms_classifier *gms_classifier_new(uint32_t window, double threshold)
{
    gms_classifier *c = gms_xcalloc(1, sizeof *c);
    c->window = window ? window : GMS_CLASSIFY_WINDOW;
    c->threshold = threshold > 0 ? threshold : GMS_CLASSIFY_THRESHOLD;
    c->ring = gms_xmalloc(sizeof *c->ring * c->window);
    gms_u64map_init(&c->count, c->window);
    return c;
}

void gms_classifier_free(gms_classifier *c)
{
    if (!c) return;
    gms_u64map_free(&c->count);
    free(c->ring);
    free(c);
}

void gms_classifier_observe(gms_classifier *c, uint64_t page)
{
    if (page == UINT64_MAX) page--;   /* reserved key of the map */
    uint32_t slot = (uint32_t)(c->n % c->window);
    if (c->n >= c->window) {
        uint64_t old = c->ring[slot];
        uint64_t *k = gms_u64map_get(&c->count, old);
        if (k && --*k == 0) gms_u64map_del(&c->count, old);
    }
    c->ring[slot] = page;
    uint64_t *k = gms_u64map_get(&c->count, page);
    if (k) ++*k;
    else gms_u64map_put(&c->count, page, 1);
    c->n++;
    if (c->n >= c->window) {
        c->sum += (double)c->count.n;
        c->samples++;
    }
}

void gms_classifier_observe_lanes(gms_classifier *c, const uint64_t addrs[32], uint32_t mask, int page_shift)
{
    uint64_t seen[32];
    int ns = 0;
    for (int l = 0; l < 32; l++) {
        if (!(mask >> l & 1u)) continue;
        uint64_t p = addrs[l] >> page_shift;
        int dup = 0;
        for (int i = 0; i < ns && !dup; i++) dup = seen[i] == p;
        if (dup) continue;
        seen[ns++] = p;
        gms_classifier_observe(c, p);
    }
}

void gms_classifier_observe_range(gms_classifier *c, uint64_t lo, uint64_t hi, int page_shift)
{
    for (uint64_t p = lo >> page_shift; p <= hi >> page_shift; p++) gms_classifier_observe(c, p);
}

uint64_t gms_classifier_accesses(const gms_classifier *c) { return c->n; }

double gms_classifier_mean_unique(const gms_classifier *c)
{
    if (c->samples) return c->sum / (double)c->samples;
    return (double)c->count.n;
}

int gms_classifier_irregular(const gms_classifier *c) { return gms_classifier_mean_unique(c) > c->threshold; }

void gms_classifier_report(const gms_classifier *c, gms_stats *st)
{
    gms_stat_f64(st, "access_pattern_unique_pages_per_window", gms_classifier_mean_unique(c));
    gms_stat_u64(st, "access_pattern_irregular", (uint64_t)gms_classifier_irregular(c));
    gms_stat_u64(st, "access_pattern_window", c->window);
    gms_stat_f64(st, "access_pattern_threshold", c->threshold);
    gms_stat_u64(st, "access_pattern_accesses", c->n);
}
