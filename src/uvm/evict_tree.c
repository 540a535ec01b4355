/* Tree-based eviction (TE, -eviction_policy 1; spec 000b 1.6): evict the least recently used
 * 64 KiB leaf, subtract it on its path, then visit the region's tree children-before-parent
 * and, at every non-leaf node with 0 < valid < size/2, evict every remaining resident page of
 * its subtree. Pages in flight stay (not evictable) but still count as valid. */
#include <stdlib.h>
#include <string.h>
#include "uvm/evict_lru.h"

typedef struct te { gms_lru lru; uint32_t *scratch; uint32_t cap; } te;

static void *create(gms_uvm *u, gms_error *err)
{
    (void)err;
    te *s = gms_xcalloc(1, sizeof *s);
    gms_lru_init(&s->lru, u, GMS_LRU_BLOCK);
    gms_lru_set_region_first(&s->lru);
    return s;
}
static void destroy(void *st) { te *s = st; gms_lru_free(&s->lru); free(s->scratch); free(s); }
static void grow(void *st, gms_uvm *u) { (void)u; gms_lru_grow(&((te *)st)->lru); }
static void resident(void *st, uint32_t page, uint64_t now) { (void)now; gms_lru_resident(&((te *)st)->lru, page); }
static void removed(void *st, uint32_t page) { gms_lru_removed(&((te *)st)->lru, page); }
static void access_hook(void *st, uint32_t page, uint64_t now) { (void)now; gms_lru_access(&((te *)st)->lru, page); }
static void walk_hook(void *st, uint32_t page, uint64_t now) { (void)now; gms_lru_walk(&((te *)st)->lru, page); }

static void take_leaf(te *s, gms_uvm *u, const gms_uvm_region *r, uint32_t leaf, gms_uvm_vec *out)
{
    size_t before = out->n;
    gms_lru_unit_pages(&s->lru, r->first_block + leaf, out);
    uint32_t k = (uint32_t)(out->n - before);
    (void)u;
    for (uint32_t idx = r->nleaves + leaf; idx >= 1; idx >>= 1) s->scratch[idx] -= k;
}

static void report(void *st, gms_uvm *u, gms_stats *out) { (void)u; gms_lru_report(&((te *)st)->lru, out); }

static void select_te(void *st, gms_uvm *u, uint64_t now, gms_uvm_vec *out)
{
    (void)now;
    te *s = st;
    uint32_t b = gms_lru_victim(&s->lru);
    if (b == GMS_UVM_NONE) return;
    uint32_t region = u->block_region[b];
    const gms_uvm_region *r = &u->regions[region];
    if (2 * r->nleaves > s->cap) {
        s->cap = 2 * r->nleaves;
        s->scratch = gms_xrealloc(s->scratch, s->cap * sizeof *s->scratch);
    }
    memcpy(s->scratch, r->valid, 2 * (size_t)r->nleaves * sizeof *s->scratch);
    uint64_t taken = 0;   /* leaves already taken (a region has at most 32 leaves of 64 KiB) */
    uint32_t leaf0 = b - r->first_block;
    take_leaf(s, u, r, leaf0, out);
    if (leaf0 < 64) taken |= 1ULL << leaf0;
    for (uint32_t idx = r->nleaves - 1; idx >= 1; idx--) {
        uint32_t level = 31u - (uint32_t)__builtin_clz(idx);
        uint32_t span = 1u << (r->depth - level);
        uint64_t size = (uint64_t)span * r->leaf_pages;
        uint64_t v = s->scratch[idx];
        if (v > 0 && 2 * v < size) {
            uint32_t first_leaf = (idx << (r->depth - level)) - r->nleaves;
            for (uint32_t l = first_leaf; l < first_leaf + span; l++) {
                if (l < 64 && (taken >> l & 1)) continue;
                /* UVMSmart's remove_lp_tree takes only leaves that pass is_block_evictable */
                if (s->lru.wait && !gms_lru_unit_whole(&s->lru, r->first_block + l)) continue;
                take_leaf(s, u, r, l, out);
                if (l < 64) taken |= 1ULL << l;
            }
        }
    }
}

const gms_uvm_evict_ops gms_uvm_evict_tree = {
    .name = "tree", .uvmsmart_id = 1, .knobs = GMS_KNOBS("uvm_lru_on_access", "uvm_evict_whole", "uvm_lru_region_first"), .help = "tree-based eviction: LRU 64 KiB leaf, then subtrees under 50% valid",
    .create = create, .destroy = destroy, .grow = grow, .resident = resident, .removed = removed,
    .access = access_hook, .walk_hit = walk_hook, .fault = walk_hook, .select = select_te, .report = report,
};
