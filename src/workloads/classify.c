#include "workloads/classify.h"
#include "util/err.h"
#include <stdlib.h>
#include <string.h>

/* Host speed: the page counts live in an open-addressing table of the classifier's own whose
 * entries are never deleted: a page whose count falls to 0 keeps its entry (revived when the
 * page comes back) and `live` counts the pages with a non-zero count, which is the number of
 * distinct pages in the window. The ring holds each access's table index, so an access that
 * leaves the window costs no lookup. When the table is half full (dead entries included) it
 * is rebuilt from the ring. `stamp` marks the pages of the warp instruction being observed
 * (observe_lanes: a page repeated in its lanes counts once). */
typedef struct cls_ent { uint64_t key; uint32_t count, stamp; } cls_ent;
#define CLS_EMPTY UINT64_MAX

struct gms_classifier {
    uint32_t window;
    double threshold;
    uint32_t *ring;        /* the table index of each of the last `window` accesses */
    uint64_t n;            /* accesses observed */
    uint32_t pos;          /* n % window: the ring slot of the next access */
    cls_ent *tab;
    uint32_t mask;         /* table size - 1 (a power of two, at least 4 x window) */
    uint32_t used;         /* entries in the table, dead ones included */
    uint32_t live;         /* pages with a non-zero count: the distinct pages in the window */
    uint32_t gen;          /* stamp of the current observe_lanes call */
    double sum;            /* sum of unique counts over full-window positions */
    uint64_t samples;
};

static inline uint32_t cls_home(const gms_classifier *c, uint64_t key)
{
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdULL;
    key ^= key >> 33;
    return (uint32_t)key & c->mask;
}

/* the index of key's entry, inserted with count 0 if absent */
static inline uint32_t cls_find(gms_classifier *c, uint64_t key)
{
    uint32_t i = cls_home(c, key);
    for (;;) {
        cls_ent *e = &c->tab[i];
        if (e->key == key) return i;
        if (e->key == CLS_EMPTY) {
            e->key = key;
            e->count = 0;
            e->stamp = 0;
            c->used++;
            return i;
        }
        i = (i + 1) & c->mask;
    }
}

static void cls_clear(cls_ent *t, uint32_t size)
{
    for (uint32_t i = 0; i < size; i++) t[i] = (cls_ent){ CLS_EMPTY, 0, 0 };
}

/* drop the dead entries: keep the pages of the window and those stamped by the current
 * observe_lanes call (a page can leave a small window within one call), then re-point the ring */
static __attribute__((noinline)) void cls_rebuild(gms_classifier *c)
{
    uint32_t size = c->mask + 1;
    cls_ent *old = c->tab;
    c->tab = gms_xmalloc(sizeof *c->tab * size);
    cls_clear(c->tab, size);
    c->used = 0;
    for (uint32_t k = 0; k < size; k++) {
        const cls_ent *o = &old[k];
        if (o->key == CLS_EMPTY || (!o->count && o->stamp != c->gen)) continue;
        uint32_t i = cls_find(c, o->key);
        c->tab[i].count = o->count;
        c->tab[i].stamp = o->stamp;
    }
    uint32_t in_ring = c->n < c->window ? (uint32_t)c->n : c->window;
    for (uint32_t s = 0; s < in_ring; s++) c->ring[s] = cls_find(c, old[c->ring[s]].key);
    free(old);
}

gms_classifier *gms_classifier_new(uint32_t window, double threshold)
{
    gms_classifier *c = gms_xcalloc(1, sizeof *c);
    c->window = window ? window : GMS_CLASSIFY_WINDOW;
    c->threshold = threshold > 0 ? threshold : GMS_CLASSIFY_THRESHOLD;
    c->ring = gms_xmalloc(sizeof *c->ring * c->window);
    uint32_t size = 64;
    while (size < 4 * (uint64_t)c->window) size <<= 1;
    c->mask = size - 1;
    c->tab = gms_xmalloc(sizeof *c->tab * size);
    cls_clear(c->tab, size);
    c->gen = 1;
    return c;
}

void gms_classifier_free(gms_classifier *c)
{
    if (!c) return;
    free(c->tab);
    free(c->ring);
    free(c);
}

/* one access to the page at table index i */
static inline void cls_observe_at(gms_classifier *c, uint32_t i)
{
    uint32_t slot = c->pos;
    if (c->n >= c->window && --c->tab[c->ring[slot]].count == 0) c->live--;
    if (c->tab[i].count++ == 0) c->live++;
    c->ring[slot] = i;
    c->pos = slot + 1 == c->window ? 0 : slot + 1;
    c->n++;
    if (c->n >= c->window) {
        c->sum += (double)c->live;
        c->samples++;
    }
    if (c->used > (c->mask + 1) / 2) cls_rebuild(c);
}

void gms_classifier_observe(gms_classifier *c, uint64_t page)
{
    if (page == UINT64_MAX) page--;   /* reserved key of the table */
    cls_observe_at(c, cls_find(c, page));
}

void gms_classifier_observe_lanes(gms_classifier *c, const uint64_t addrs[32], uint32_t mask, int page_shift)
{
    if (++c->gen == 0) {   /* the stamps wrapped: forget the old ones */
        for (uint32_t i = 0; i <= c->mask; i++) c->tab[i].stamp = 0;
        c->gen = 1;
    }
    uint32_t gen = c->gen;
    int seen_max = 0;
    uint64_t prev = CLS_EMPTY;
    for (uint32_t m = mask; m; m &= m - 1) {
        uint64_t p = addrs[__builtin_ctz(m)] >> page_shift;
        if (p == CLS_EMPTY) {      /* observed as page - 1 but distinct from it (as before) */
            if (!seen_max) { seen_max = 1; gms_classifier_observe(c, p); }
            continue;
        }
        if (p == prev) continue;   /* common: the previous lane's page (seen already) */
        prev = p;
        uint32_t i = cls_find(c, p);
        if (c->tab[i].stamp == gen) continue;
        c->tab[i].stamp = gen;
        cls_observe_at(c, i);
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
    return (double)c->live;
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
