/* Random eviction (-eviction_policy 3).
 * -uvm_random_pick page (default): one uniformly random resident 4 KiB page (spec 000b: "a
 * uniformly random page from the resident list").
 * -uvm_random_pick region: what UVMSmart's code does (gpu-sim.cc, page_eviction_procedure; read
 * 2026-12-02, docs/uvm-policies.md). Its list holds one entry per 2 MiB region (the large-page
 * root: a region of ours), added when a page of it arrives or is touched. At an eviction it
 * sorts the list oldest use first, starts at a random index and walks forward (no wrap) to the
 * first entry whose pages are all resident (is_block_evictable), evicts that region's FIRST
 * 4 KiB page only and drops the whole entry. The region's other pages are then no candidates
 * until the region is touched again, and the region is not wholly resident again until its
 * first page has come back. UVMSmart retries every cycle with a new random index; the
 * distribution of where a retry lands is that of a start drawn below the last evictable
 * position, which is what this draws (the retries' few cycles are not modelled). When no
 * entry is evictable UVMSmart's reads wait for one; here too while a migration is on the link
 * (Uvm_random_region_waits: its end checks again). With none on the link no region can become
 * wholly resident without a frame for its evicted first page, and UVMSmart would wait for
 * ever (its deadlock detector): a uniformly random resident page goes instead, counted as
 * Uvm_random_region_none. Pins by accesses in flight (UVMSmart's reserve_pages_check) are
 * not tracked. */
#include <stdlib.h>
#include "uvm/uvm_internal.h"

typedef struct use_key { uint64_t use; uint32_t r; } use_key;   /* a region's entry and its last use */

typedef struct re {
    gms_uvm *u;
    int region_mode;
    uint32_t *res, *pos; uint32_t n, cap;   /* page mode: resident pages, each one's index */
    /* region mode, per region: resident pages, in UVMSmart's list, last use */
    uint32_t *rres; uint8_t *inlist; uint64_t *ruse; uint32_t rcap;
    use_key *keys;                           /* the list in age order, rebuilt at each selection */
    uint64_t none;                           /* selections that found no evictable region: a random page went */
    uint64_t waits;                          /* ... and waited for the migration on the link */
} re;

static void *create(gms_uvm *u, gms_error *err)
{
    (void)err;
    re *s = gms_xcalloc(1, sizeof *s);
    s->u = u;
    s->region_mode = u->prm->pol.random_region;
    return s;
}
static void destroy(void *st)
{
    re *s = st;
    free(s->res); free(s->pos);
    free(s->rres); free(s->inlist); free(s->ruse); free(s->keys);
    free(s);
}
static void grow(void *st, gms_uvm *u)
{
    re *s = st;
    if (u->npages > s->cap) {
        uint32_t cap = s->cap ? s->cap : 64;
        while (cap < u->npages) cap *= 2;
        s->res = gms_xrealloc(s->res, cap * sizeof *s->res);
        s->pos = gms_xrealloc(s->pos, cap * sizeof *s->pos);
        s->cap = cap;
    }
    if (s->region_mode && u->nregions > s->rcap) {
        uint32_t cap = s->rcap ? s->rcap : 16;
        while (cap < u->nregions) cap *= 2;
        s->rres = gms_xrealloc(s->rres, cap * sizeof *s->rres);
        s->inlist = gms_xrealloc(s->inlist, cap * sizeof *s->inlist);
        s->ruse = gms_xrealloc(s->ruse, cap * sizeof *s->ruse);
        s->keys = gms_xrealloc(s->keys, cap * sizeof *s->keys);
        for (uint32_t r = s->rcap; r < cap; r++) { s->rres[r] = 0; s->inlist[r] = 0; s->ruse[r] = 0; }
        s->rcap = cap;
    }
}
/* UVMSmart's refresh_valid_pages: the region's entry is added, or its use time updated */
static void region_touch(re *s, uint32_t r, uint64_t now)
{
    s->ruse[r] = now;
    s->inlist[r] = 1;
}
static void resident(void *st, uint32_t page, uint64_t now)
{
    re *s = st;
    s->pos[page] = s->n;
    s->res[s->n++] = page;
    if (s->region_mode) {
        uint32_t r = s->u->pages[page].region;
        s->rres[r]++;
        region_touch(s, r, now);
    }
}
static void removed(void *st, uint32_t page)
{
    re *s = st;
    uint32_t i = s->pos[page], last = s->res[--s->n];
    s->res[i] = last;
    s->pos[last] = i;
    if (s->region_mode) s->rres[s->u->pages[page].region]--;
}
static void access_hook(void *st, uint32_t page, uint64_t now)
{
    re *s = st;
    if (s->region_mode) region_touch(s, s->u->pages[page].region, now);
}

static int by_use(const void *a, const void *b)
{
    const use_key *x = a, *y = b;
    if (x->use != y->use) return x->use < y->use ? -1 : 1;
    return x->r < y->r ? -1 : x->r > y->r;
}
static int wholly_resident(const re *s, uint32_t r) { return s->rres[r] == s->u->regions[r].npages; }

static void select_region(re *s, gms_uvm *u, gms_uvm_vec *out)
{
    uint32_t n = 0;
    for (uint32_t r = 0; r < u->nregions; r++)
        if (s->inlist[r]) s->keys[n++] = (use_key){ s->ruse[r], r };
    qsort(s->keys, n, sizeof *s->keys, by_use);   /* oldest use first (sort_valid_pages) */
    uint32_t last = UINT32_MAX;
    for (uint32_t i = n; i-- > 0;)
        if (wholly_resident(s, s->keys[i].r)) { last = i; break; }
    if (last == UINT32_MAX) {
        /* UVMSmart's reads wait here for a region to become wholly resident. While a migration
         * is on the link they wait here too: its end runs the eviction check again (migrate.c;
         * a memcpy's end does not). With nothing on the link no region can become whole
         * without a frame for its first page, UVMSmart's wait for ever: a uniformly random
         * resident page goes instead, counted. */
        if (gms_uvm_migration_on_link(u)) { s->waits++; return; }
        s->none++;
        if (s->n) gms_uvm_vec_push(out, s->res[gms_rng_below(&u->rng, s->n)]);
        return;
    }
    uint32_t i = (uint32_t)gms_rng_below(&u->rng, (uint64_t)last + 1);
    while (!wholly_resident(s, s->keys[i].r)) i++;
    uint32_t r = s->keys[i].r;
    gms_uvm_vec_push(out, u->regions[r].first_page);
    s->inlist[r] = 0;
}

static void select_random(void *st, gms_uvm *u, uint64_t now, gms_uvm_vec *out)
{
    (void)now;
    re *s = st;
    if (s->region_mode) { select_region(s, u, out); return; }
    if (s->n) gms_uvm_vec_push(out, s->res[gms_rng_below(&u->rng, s->n)]);
}

static void report(void *st, gms_uvm *u, gms_stats *out)
{
    (void)u;
    re *s = st;
    if (!s->region_mode) return;
    gms_stat_u64(out, "Uvm_random_region_none", s->none);
    gms_stat_u64(out, "Uvm_random_region_waits", s->waits);
}

const gms_uvm_evict_ops gms_uvm_evict_random = {
    .name = "random", .uvmsmart_id = 3, .knobs = GMS_KNOBS("uvm_random_"),
    .help = "a uniformly random resident page (-uvm_random_pick region: UVMSmart's region-first-page reading)",
    .create = create, .destroy = destroy, .grow = grow, .resident = resident, .removed = removed,
    .access = access_hook, .select = select_random, .report = report,
};
