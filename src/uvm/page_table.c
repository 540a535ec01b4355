/* The page table: allocations, one record per managed page (indices contiguous per allocation),
 * and UVMSmart's regions: each managed allocation is cut into floor(size / 2 MiB) full 2 MiB
 * regions plus the remainder rounded up to a power of two of at least 64 KiB; every region is
 * a full binary tree whose leaves are 64 KiB basic blocks (spec 000b 1.3). Each tree node
 * counts the pages of its subtree that are resident or scheduled (in flight). */
#include <stdlib.h>
#include <string.h>
#include "uvm/uvm_internal.h"

static uint64_t pow2_at_least(uint64_t x)
{
    uint64_t p = 1;
    while (p < x) p <<= 1;
    return p;
}

const gms_uvm_alloc_rec *gms_uvm_alloc_of_page(const gms_uvm *u, uint32_t page)
{
    return page < u->npages ? &u->allocs[u->pages[page].alloc] : NULL;
}

static int overlaps(const gms_uvm *u, uint64_t addr, uint64_t bytes)
{
    for (size_t i = 0; i < u->nallocs; i++) {
        const gms_uvm_alloc_rec *a = &u->allocs[i];
        uint64_t ext = a->managed && gms_uvm_libcuda(u, u->prm->alloc_round) ? gms_uvm_round_alloc(a->bytes) : a->bytes;
        if (addr < a->base + ext && a->base < addr + bytes) return 1;
    }
    return 0;
}

uint64_t gms_uvm_round_alloc(uint64_t bytes)
{
    uint64_t full = bytes / GMS_UVM_LP_SIZE * GMS_UVM_LP_SIZE, rem = bytes - full;
    return full + (rem ? pow2_at_least(rem < GMS_UVM_BB_SIZE ? GMS_UVM_BB_SIZE : rem) : 0);
}

int gms_uvm_pt_add(gms_uvm *u, uint64_t addr, uint64_t bytes, int managed, const char *name, gms_error *err)
{
    if (!bytes) return gms_err(err, "uvm: allocation '%s' of 0 bytes", name ? name : "");
    if (addr + bytes < addr) return gms_err(err, "uvm: allocation '%s' wraps the address space", name ? name : "");
    if (overlaps(u, addr, managed && gms_uvm_libcuda(u, u->prm->alloc_round) ? gms_uvm_round_alloc(bytes) : bytes))
        return gms_err(err, "uvm: allocation '%s' at 0x%llx (%llu bytes) overlaps an earlier allocation", name ? name : "",
                       (unsigned long long)addr, (unsigned long long)bytes);
    if (managed && (addr & (u->page_size - 1)))
        return gms_err(err, "uvm: managed allocation '%s' at 0x%llx is not aligned to the %llu-byte page", name ? name : "",
                       (unsigned long long)addr, (unsigned long long)u->page_size);
    /* -uvm_alloc_round 1: UVMSmart's cudaMallocManaged rounds the size itself (full 2 MiB
     * regions + the remainder rounded up to a power of two >= 64 KiB) and makes every page of
     * the rounded size managed, so its tree prefetcher reaches past the program's last byte.
     * Allocations are 2 MiB apart (frontend/program.c), so the tail never overlaps the next. */
    uint64_t span = managed && gms_uvm_libcuda(u, u->prm->alloc_round) ? gms_uvm_round_alloc(bytes) : bytes;
    uint64_t npages64 = (span + u->page_size - 1) >> u->page_shift;
    if (managed && (uint64_t)u->npages + npages64 >= GMS_UVM_NONE)
        return gms_err(err, "uvm: too many managed pages (allocation '%s')", name ? name : "");
    if (u->nallocs == u->cap_allocs) {
        u->cap_allocs = u->cap_allocs ? 2 * u->cap_allocs : 16;
        u->allocs = gms_xrealloc(u->allocs, u->cap_allocs * sizeof *u->allocs);
    }
    gms_uvm_alloc_rec *a = &u->allocs[u->nallocs++];
    memset(a, 0, sizeof *a);
    a->base = addr;
    a->bytes = bytes;
    a->managed = managed;
    snprintf(a->name, sizeof a->name, "%s", name ? name : "");
    if (!managed) {
        u->device_bytes += npages64 << u->page_shift;
        return 0;
    }
    uint32_t npages = (uint32_t)npages64;
    a->first_page = u->npages;
    a->npages = npages;
    if (u->npages + npages > u->cap_pages) {
        while (u->npages + npages > u->cap_pages) u->cap_pages = u->cap_pages ? 2 * u->cap_pages : 1024;
        u->pages = gms_xrealloc(u->pages, (size_t)u->cap_pages * sizeof *u->pages);
    }
    /* regions */
    uint64_t leaf = GMS_UVM_BB_SIZE > u->page_size ? GMS_UVM_BB_SIZE : u->page_size;
    uint64_t full = span / GMS_UVM_LP_SIZE, rem = span % GMS_UVM_LP_SIZE;
    uint32_t nreg = (uint32_t)(full + (rem ? 1 : 0));
    a->first_region = u->nregions;
    a->nregions = nreg;
    if (u->nregions + nreg > u->cap_regions) {
        while (u->nregions + nreg > u->cap_regions) u->cap_regions = u->cap_regions ? 2 * u->cap_regions : 64;
        u->regions = gms_xrealloc(u->regions, (size_t)u->cap_regions * sizeof *u->regions);
    }
    for (uint32_t k = 0; k < nreg; k++) {
        gms_uvm_region *r = &u->regions[u->nregions + k];
        memset(r, 0, sizeof *r);
        r->base = addr + (uint64_t)k * GMS_UVM_LP_SIZE;
        uint64_t size = k < full ? GMS_UVM_LP_SIZE : pow2_at_least(rem < GMS_UVM_BB_SIZE ? GMS_UVM_BB_SIZE : rem);
        if (size < u->page_size) size = u->page_size;
        r->size = size;
        r->first_page = a->first_page + (uint32_t)(((uint64_t)k * GMS_UVM_LP_SIZE) >> u->page_shift);
        uint64_t left = span - (uint64_t)k * GMS_UVM_LP_SIZE;
        uint64_t in = left < size ? left : size;
        r->npages = (uint32_t)((in + u->page_size - 1) >> u->page_shift);
        if (r->first_page + r->npages > a->first_page + npages) r->npages = a->first_page + npages - r->first_page;
        r->nleaves = (uint32_t)(size / leaf);
        r->leaf_pages = (uint32_t)(leaf >> u->page_shift);
        r->depth = (uint32_t)__builtin_ctz(r->nleaves);
        r->valid = gms_xcalloc(2 * (size_t)r->nleaves, sizeof *r->valid);
        r->lsize = gms_xcalloc(r->nleaves, sizeof *r->lsize);
        r->first_block = u->nblocks;
        if (u->nblocks + r->nleaves > u->cap_blocks) {
            while (u->nblocks + r->nleaves > u->cap_blocks) u->cap_blocks = u->cap_blocks ? 2 * u->cap_blocks : 1024;
            u->block_region = gms_xrealloc(u->block_region, (size_t)u->cap_blocks * sizeof *u->block_region);
        }
        for (uint32_t l = 0; l < r->nleaves; l++) u->block_region[u->nblocks + l] = u->nregions + k;
        u->nblocks += r->nleaves;
    }
    /* pages */
    uint64_t vpn0 = addr >> u->page_shift;
    for (uint32_t i = 0; i < npages; i++) {
        gms_uvm_page *pg = &u->pages[a->first_page + i];
        memset(pg, 0, sizeof *pg);
        pg->vpn = vpn0 + i;
        pg->alloc = (uint32_t)(u->nallocs - 1);
        uint32_t k = (uint32_t)(((uint64_t)i << u->page_shift) / GMS_UVM_LP_SIZE);
        const gms_uvm_region *r = &u->regions[u->nregions + k];
        pg->region = u->nregions + k;
        pg->block = r->first_block + (a->first_page + i - r->first_page) / r->leaf_pages;
        pg->pend = GMS_UVM_NONE;
        pg->batch = GMS_UVM_NONE;
        pg->state = GMS_PG_HOST;      /* first touch on the host */
        gms_u64map_put(&u->pt, pg->vpn, a->first_page + i);
    }
    u->npages += npages;
    u->nregions += nreg;
    u->footprint += bytes;
    u->enabled = 1;
    return 0;
}

void gms_uvm_tree_update(gms_uvm *u, uint32_t page, int delta)
{
    const gms_uvm_page *pg = &u->pages[page];
    gms_uvm_region *r = &u->regions[pg->region];
    uint32_t idx = r->nleaves + (pg->block - r->first_block);
    for (; idx >= 1; idx >>= 1) r->valid[idx] = (uint32_t)((int64_t)r->valid[idx] + delta);
}

/* UVMSmart counts a leaf in bytes and adds a whole 64 KiB per faulted page (SL and TBN) while
 * the leaf is not exactly full, so a leaf left partly valid by 4 KiB evictions counts past its
 * size; it never goes below 0 here (UVMSmart's size_t would wrap when a 64 KiB eviction meets a
 * smaller count, a case only a bulk prefetch's pages, which it never counts, can make) */
static uint32_t *leaf_size(gms_uvm *u, uint32_t page)
{
    const gms_uvm_page *pg = &u->pages[page];
    gms_uvm_region *r = &u->regions[pg->region];
    return &r->lsize[pg->block - r->first_block];
}

void gms_uvm_leaf_size_grow(gms_uvm *u, uint32_t page, uint32_t pages)
{
    uint32_t *s = leaf_size(u, page);
    if (*s != u->regions[u->pages[page].region].leaf_pages) *s += pages;
}

void gms_uvm_leaf_size_shrink(gms_uvm *u, uint32_t page)
{
    uint32_t *s = leaf_size(u, page);
    if (*s) (*s)--;
}

void gms_uvm_leaf_size_clear(gms_uvm *u, uint32_t region)
{
    gms_uvm_region *r = &u->regions[region];
    memset(r->lsize, 0, r->nleaves * sizeof *r->lsize);
}

void gms_uvm_leaf_pages(const gms_uvm *u, uint32_t region, uint32_t leaf, uint32_t *first, uint32_t *n)
{
    const gms_uvm_region *r = &u->regions[region];
    uint32_t off = leaf * r->leaf_pages;
    *first = r->first_page + off;
    if (off >= r->npages) { *n = 0; return; }
    *n = r->npages - off < r->leaf_pages ? r->npages - off : r->leaf_pages;
}

void gms_uvm_pt_free(gms_uvm *u)
{
    for (uint32_t i = 0; i < u->nregions; i++) {
        free(u->regions[i].valid);
        free(u->regions[i].lsize);
    }
    free(u->regions);
    free(u->pages);
    free(u->allocs);
    free(u->block_region);
    gms_u64map_free(&u->pt);
}
