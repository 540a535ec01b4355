/* UVMSmart's tree-based neighbourhood prefetcher (TBNp, -hardware_prefetch 1; spec 000b 1.5).
 * Each region is a full binary tree of 64 KiB leaves whose nodes count the pages that are
 * resident or scheduled. For the faults of a group, region by region: every faulted page
 * schedules its whole 64 KiB leaf; then the tree is visited children-before-parent and every
 * non-leaf node with valid != size and valid > size/2 has its whole subtree scheduled. Filling
 * updates the counts on the way up, so fills cascade in one pass (as UVMSmart's post-order
 * recomputation valid = left + right).
 * -uvm_tree_fill uvmsmart reads UVMSmart's leaf sizes instead (gms_uvm_region.lsize: a faulted
 * page's leaf counts whole, docs/uvm.md Differences 13): every non-leaf node's size is the sum of
 * its leaves' (traverse_and_fill_lp_tree recomputes it children first), and a node over half its
 * size but not exactly full fills only its leaves of size 0 (fill_lp_tree), which count whole;
 * a partly valid leaf under it stays partly valid. */
#include "uvm/uvm_internal.h"

static void take_leaf(gms_uvm *u, uint32_t region, uint32_t leaf)
{
    uint32_t first, n;
    gms_uvm_leaf_pages(u, region, leaf, &first, &n);
    gms_uvm_pf_take_range(u, first, n);
}

static void fill_tree(gms_uvm *u, uint32_t region)
{
    const gms_uvm_region *r = &u->regions[region];
    for (uint32_t idx = r->nleaves - 1; idx >= 1; idx--) {
        uint32_t level = 31u - (uint32_t)__builtin_clz(idx);
        uint32_t span = 1u << (r->depth - level);           /* leaves under the node */
        uint64_t size = (uint64_t)span * r->leaf_pages;
        uint64_t v = r->valid[idx];
        if (v != size && 2 * v > size) {
            uint32_t first_leaf = (idx << (r->depth - level)) - r->nleaves;
            for (uint32_t l = 0; l < span; l++) take_leaf(u, region, first_leaf + l);
        }
    }
}

static void fill_tree_uvmsmart(gms_uvm *u, uint32_t region)
{
    gms_uvm_region *r = &u->regions[region];
    for (uint32_t idx = r->nleaves - 1; idx >= 1; idx--) {
        uint32_t level = 31u - (uint32_t)__builtin_clz(idx);
        uint32_t span = 1u << (r->depth - level);
        uint64_t size = (uint64_t)span * r->leaf_pages;
        uint32_t first_leaf = (idx << (r->depth - level)) - r->nleaves;
        uint64_t v = 0;
        for (uint32_t l = first_leaf; l < first_leaf + span; l++) v += r->lsize[l];
        if (v == size || 2 * v <= size) continue;
        for (uint32_t l = first_leaf; l < first_leaf + span; l++) {
            if (r->lsize[l]) continue;
            r->lsize[l] = r->leaf_pages;
            take_leaf(u, region, l);
        }
    }
}

static void plan_tree(void *st, gms_uvm *u, const uint32_t *faults, size_t n)
{
    (void)st;
    size_t i = 0;
    while (i < n) {
        uint32_t region = u->pages[faults[i]].region;
        size_t j = i;
        for (; j < n && u->pages[faults[j]].region == region; j++) {
            const gms_uvm_page *pg = &u->pages[faults[j]];
            take_leaf(u, region, pg->block - u->regions[region].first_block);
        }
        if (u->prm->tree_fill_uvmsmart) fill_tree_uvmsmart(u, region);
        else fill_tree(u, region);
        i = j;
    }
}

const gms_uvm_prefetch_ops gms_uvm_prefetch_tree = { .name = "tree", .uvmsmart_id = 1, .knobs = GMS_KNOBS("uvm_tree_fill"), .help = "tree-based neighbourhood (64 KiB leaves, 2 MiB roots, >50% rule)", .plan = plan_tree };
