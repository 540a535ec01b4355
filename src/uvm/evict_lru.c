/* LRU eviction at 4 KiB (-eviction_policy 5, lru4k), 64 KiB (2, lru64k, UVMSmart's SE) and
 * 2 MiB (0, lru2m, NE: the driver's root-chunk LRU). The victim is every resident page of the
 * least recently used unit. Order is refreshed when a unit gets a migrated page and, with
 * -uvm_lru_on_access 1 (UVMSmart), on every reference, or with walk (spec 003 section 4's
 * LRU), on every page-table walk that finds the page resident and every far fault.
 * -uvm_lru_region_first orders 64 KiB blocks as UVMSmart's sort_valid_pages does for SE and TE
 * (gms_lru_set_region_first; TURE's LRU blocks keep their own recency, spec 000b 2.3's "global" LRU):
 * 2 MiB regions by the recency of their most recently used block, the oldest region first,
 * and a region's blocks by their own recency (spec 000b 1.6, SE's [E-UVMSmart] order). */
#include <stdlib.h>
#include "uvm/evict_lru.h"

void gms_lru_init(gms_lru *l, gms_uvm *u, int unit)
{
    *l = (gms_lru){ 0 };
    l->u = u;
    l->unit = unit;
    l->on_access = u->prm->lru_on_access;
    l->whole = u->prm->evict_whole;
    l->wait = u->prm->evict_whole_wait;
    l->head = l->tail = l->rhead = l->rtail = GMS_UVM_NONE;
    gms_lru_grow(l);
}

void gms_lru_free(gms_lru *l)
{
    free(l->prev); free(l->next); free(l->cnt);
    free(l->bprev); free(l->bnext); free(l->rbhead); free(l->rbtail); free(l->rprev); free(l->rnext);
}

static void grow_regions(gms_lru *l);

void gms_lru_set_region_first(gms_lru *l)
{
    if (l->unit != GMS_LRU_BLOCK || l->region_first || !l->u->prm->lru_region_first) return;
    l->region_first = 1;
    l->bprev = gms_xrealloc(l->bprev, l->cap * sizeof *l->bprev);
    l->bnext = gms_xrealloc(l->bnext, l->cap * sizeof *l->bnext);
    grow_regions(l);
}

/* -uvm_lru_region_first: room for every region's list head and links */
static void grow_regions(gms_lru *l)
{
    uint32_t need = l->u->nregions;
    if (need <= l->rcap) return;
    uint32_t cap = l->rcap ? l->rcap : 16;
    while (cap < need) cap *= 2;
    l->rbhead = gms_xrealloc(l->rbhead, cap * sizeof *l->rbhead);
    l->rbtail = gms_xrealloc(l->rbtail, cap * sizeof *l->rbtail);
    l->rprev = gms_xrealloc(l->rprev, cap * sizeof *l->rprev);
    l->rnext = gms_xrealloc(l->rnext, cap * sizeof *l->rnext);
    for (uint32_t i = l->rcap; i < cap; i++) l->rbhead[i] = l->rbtail[i] = GMS_UVM_NONE;
    l->rcap = cap;
}

void gms_lru_grow(gms_lru *l)
{
    const gms_uvm *u = l->u;
    uint32_t need = l->unit == GMS_LRU_PAGE ? u->npages : l->unit == GMS_LRU_BLOCK ? u->nblocks : u->nregions;
    if (l->region_first) grow_regions(l);
    if (need <= l->cap) return;
    uint32_t cap = l->cap ? l->cap : 64;
    while (cap < need) cap *= 2;
    l->prev = gms_xrealloc(l->prev, cap * sizeof *l->prev);
    l->next = gms_xrealloc(l->next, cap * sizeof *l->next);
    l->cnt = gms_xrealloc(l->cnt, cap * sizeof *l->cnt);
    if (l->region_first) {
        l->bprev = gms_xrealloc(l->bprev, cap * sizeof *l->bprev);
        l->bnext = gms_xrealloc(l->bnext, cap * sizeof *l->bnext);
    }
    for (uint32_t i = l->cap; i < cap; i++) l->cnt[i] = 0;
    l->cap = cap;
}

uint32_t gms_lru_unit_of(const gms_lru *l, uint32_t page)
{
    const gms_uvm_page *pg = &l->u->pages[page];
    return l->unit == GMS_LRU_PAGE ? page : l->unit == GMS_LRU_BLOCK ? pg->block : pg->region;
}

static void unlink_region(gms_lru *l, uint32_t r)
{
    if (l->rprev[r] != GMS_UVM_NONE) l->rnext[l->rprev[r]] = l->rnext[r]; else l->rhead = l->rnext[r];
    if (l->rnext[r] != GMS_UVM_NONE) l->rprev[l->rnext[r]] = l->rprev[r]; else l->rtail = l->rprev[r];
}

static void unlink_unit(gms_lru *l, uint32_t x)
{
    if (l->prev[x] != GMS_UVM_NONE) l->next[l->prev[x]] = l->next[x]; else l->head = l->next[x];
    if (l->next[x] != GMS_UVM_NONE) l->prev[l->next[x]] = l->prev[x]; else l->tail = l->prev[x];
    if (!l->region_first) return;
    uint32_t r = l->u->block_region[x];
    if (l->bprev[x] != GMS_UVM_NONE) l->bnext[l->bprev[x]] = l->bnext[x]; else l->rbhead[r] = l->bnext[x];
    if (l->bnext[x] != GMS_UVM_NONE) l->bprev[l->bnext[x]] = l->bprev[x]; else l->rbtail[r] = l->bprev[x];
    if (l->rbhead[r] == GMS_UVM_NONE) unlink_region(l, r);
}

static void push_mru(gms_lru *l, uint32_t x)
{
    l->next[x] = GMS_UVM_NONE;
    l->prev[x] = l->tail;
    if (l->tail != GMS_UVM_NONE) l->next[l->tail] = x; else l->head = x;
    l->tail = x;
    if (!l->region_first) return;
    /* the block goes last in its region, and the region, now the most recently used, last */
    uint32_t r = l->u->block_region[x];
    if (l->rbhead[r] != GMS_UVM_NONE) unlink_region(l, r);
    l->bnext[x] = GMS_UVM_NONE;
    l->bprev[x] = l->rbtail[r];
    if (l->rbtail[r] != GMS_UVM_NONE) l->bnext[l->rbtail[r]] = x; else l->rbhead[r] = x;
    l->rbtail[r] = x;
    l->rnext[r] = GMS_UVM_NONE;
    l->rprev[r] = l->rtail;
    if (l->rtail != GMS_UVM_NONE) l->rnext[l->rtail] = r; else l->rhead = r;
    l->rtail = r;
}

uint32_t gms_lru_first(const gms_lru *l)
{
    if (!l->region_first) return l->head;
    return l->rhead == GMS_UVM_NONE ? GMS_UVM_NONE : l->rbhead[l->rhead];
}

uint32_t gms_lru_after(const gms_lru *l, uint32_t x)
{
    if (!l->region_first) return l->next[x];
    if (l->bnext[x] != GMS_UVM_NONE) return l->bnext[x];
    uint32_t r = l->rnext[l->u->block_region[x]];
    return r == GMS_UVM_NONE ? GMS_UVM_NONE : l->rbhead[r];
}

void gms_lru_resident(gms_lru *l, uint32_t page)
{
    uint32_t x = gms_lru_unit_of(l, page);
    if (l->cnt[x]++) unlink_unit(l, x);
    push_mru(l, x);
}

void gms_lru_removed(gms_lru *l, uint32_t page)
{
    uint32_t x = gms_lru_unit_of(l, page);
    if (l->cnt[x] && --l->cnt[x] == 0) unlink_unit(l, x);
}

static void refresh(gms_lru *l, uint32_t page)
{
    uint32_t x = gms_lru_unit_of(l, page);
    if (!l->cnt[x] || l->tail == x) return;   /* the last block is last in the last region too */
    unlink_unit(l, x);
    push_mru(l, x);
}

void gms_lru_access(gms_lru *l, uint32_t page)
{
    if (l->on_access == GMS_LRU_ON_ACCESS) refresh(l, page);
}

/* a fault's page is not resident: its unit (64 KiB, 2 MiB) may hold others, which move */
void gms_lru_walk(gms_lru *l, uint32_t page)
{
    if (l->on_access == GMS_LRU_ON_WALK) refresh(l, page);
}

/* the pages of unit x: [*first, *first + *n) */
static void unit_span(const gms_lru *l, uint32_t x, uint32_t *first, uint32_t *n)
{
    const gms_uvm *u = l->u;
    if (l->unit == GMS_LRU_PAGE) {
        *first = x; *n = 1;
    } else if (l->unit == GMS_LRU_BLOCK) {
        uint32_t r = u->block_region[x];
        gms_uvm_leaf_pages(u, r, x - u->regions[r].first_block, first, n);
    } else {
        *first = u->regions[x].first_page; *n = u->regions[x].npages;
    }
}

void gms_lru_unit_pages(const gms_lru *l, uint32_t x, gms_uvm_vec *out)
{
    const gms_uvm *u = l->u;
    uint32_t first, n;
    unit_span(l, x, &first, &n);
    for (uint32_t i = 0; i < n; i++)
        if (u->pages[first + i].state == GMS_PG_RESIDENT) gms_uvm_vec_push(out, first + i);
}

/* UVMSmart's is_block_evictable: no page of the unit absent, migrating in or being written
 * back (its "pinned by an access in flight" has no counterpart here: a resident page's
 * pending accesses are not tracked) */
int gms_lru_unit_whole(const gms_lru *l, uint32_t x)
{
    uint32_t first, n;
    unit_span(l, x, &first, &n);
    for (uint32_t i = 0; i < n; i++)
        if (l->u->pages[first + i].state != GMS_PG_RESIDENT) return 0;
    return 1;
}

uint32_t gms_lru_victim(gms_lru *l)
{
    uint32_t first = gms_lru_first(l);
    if (!l->whole || l->unit == GMS_LRU_PAGE) return first;
    for (uint32_t x = first; x != GMS_UVM_NONE; x = gms_lru_after(l, x))
        if (gms_lru_unit_whole(l, x)) return x;
    if (first == GMS_UVM_NONE) return GMS_UVM_NONE;
    /* none whole. UVMSmart evicts nothing and its reads wait for a unit to become whole; so do
     * we under -uvm_evict_whole_wait while a migration is on the link (its end checks again).
     * With none there, nothing can arrive to make a unit whole (UVMSmart's hang): the least
     * recently used unit goes, so that eviction always progresses. */
    if (l->wait && gms_uvm_migration_on_link(l->u)) { l->waits++; return GMS_UVM_NONE; }
    l->fallbacks++;
    return first;
}

void gms_lru_report(const gms_lru *l, gms_stats *out)
{
    if (!l->whole || l->unit == GMS_LRU_PAGE) return;
    if (l->wait) gms_stat_u64(out, "Uvm_evict_whole_waits", l->waits);
    gms_stat_u64(out, "Uvm_evict_whole_fallbacks", l->fallbacks);
}

/* ---------------- the three policies ---------------- */
static void *create_unit(gms_uvm *u, int unit)
{
    gms_lru *l = gms_xmalloc(sizeof *l);
    gms_lru_init(l, u, unit);
    return l;
}
static void *create_4k(gms_uvm *u, gms_error *err) { (void)err; return create_unit(u, GMS_LRU_PAGE); }
static void *create_64k(gms_uvm *u, gms_error *err)
{
    (void)err;
    gms_lru *l = create_unit(u, GMS_LRU_BLOCK);
    gms_lru_set_region_first(l);
    return l;
}
static void *create_2m(gms_uvm *u, gms_error *err) { (void)err; return create_unit(u, GMS_LRU_REGION); }
static void destroy(void *st) { gms_lru_free(st); free(st); }
static void grow(void *st, gms_uvm *u) { (void)u; gms_lru_grow(st); }
static void resident(void *st, uint32_t page, uint64_t now) { (void)now; gms_lru_resident(st, page); }
static void removed(void *st, uint32_t page) { gms_lru_removed(st, page); }
static void access_hook(void *st, uint32_t page, uint64_t now) { (void)now; gms_lru_access(st, page); }
static void walk_hook(void *st, uint32_t page, uint64_t now) { (void)now; gms_lru_walk(st, page); }
static void report(void *st, gms_uvm *u, gms_stats *out) { (void)u; gms_lru_report(st, out); }
static void select_lru(void *st, gms_uvm *u, uint64_t now, gms_uvm_vec *out)
{
    (void)u; (void)now;
    gms_lru *l = st;
    uint32_t x = gms_lru_victim(l);
    if (x != GMS_UVM_NONE) gms_lru_unit_pages(l, x, out);
}

const gms_uvm_evict_ops gms_uvm_evict_lru4k = {
    .name = "lru4k", .uvmsmart_id = 5, .knobs = GMS_KNOBS("uvm_lru_on_access"), .help = "LRU over pages",
    .create = create_4k, .destroy = destroy, .grow = grow, .resident = resident, .removed = removed,
    .access = access_hook, .walk_hit = walk_hook, .fault = walk_hook, .select = select_lru, .report = report,
};
const gms_uvm_evict_ops gms_uvm_evict_lru64k = {
    .name = "lru64k", .uvmsmart_id = 2, .knobs = GMS_KNOBS("uvm_lru_on_access", "uvm_evict_whole", "uvm_lru_region_first"), .help = "LRU over 64 KiB basic blocks (sequential-local eviction, SE)",
    .create = create_64k, .destroy = destroy, .grow = grow, .resident = resident, .removed = removed,
    .access = access_hook, .walk_hit = walk_hook, .fault = walk_hook, .select = select_lru, .report = report,
};
const gms_uvm_evict_ops gms_uvm_evict_lru2m = {
    .name = "lru2m", .uvmsmart_id = 0, .knobs = GMS_KNOBS("uvm_lru_on_access", "uvm_evict_whole"), .help = "LRU over 2 MiB regions (NVIDIA's root chunks, NE)",
    .create = create_2m, .destroy = destroy, .grow = grow, .resident = resident, .removed = removed,
    .access = access_hook, .walk_hit = walk_hook, .fault = walk_hook, .select = select_lru, .report = report,
};
