/* Simple UVMSmart prefetchers (spec 000b 1.5):
 *  none   (-hardware_prefetch 0): migrate only the faulted page.
 *  seq    (2): sequential-local, the -uvm_prefetch_size-aligned block that contains the fault
 *              (64 KiB = UVMSmart's SL 64K; 512 KiB = Zheng et al.), bounded by its 2 MiB region.
 *  random (3): plus one uniformly random page of the fault's region (UVMSmart: rand() over the
 *              region's page slots; skipped when that page is resident, in flight or absent). */
#include "uvm/uvm_internal.h"

static void plan_none(void *st, gms_uvm *u, const uint32_t *faults, size_t n) { (void)st; (void)u; (void)faults; (void)n; }

static void plan_seq(void *st, gms_uvm *u, const uint32_t *faults, size_t n)
{
    (void)st;
    uint64_t blk = u->prm->prefetch_size >> u->page_shift;
    if (!blk) blk = 1;
    for (size_t i = 0; i < n; i++) {
        const gms_uvm_page *pg = &u->pages[faults[i]];
        const gms_uvm_region *r = &u->regions[pg->region];
        uint64_t rv0 = u->pages[r->first_page].vpn, rv1 = rv0 + r->npages;
        uint64_t lo = pg->vpn - pg->vpn % blk, hi = lo + blk;
        if (lo < rv0) lo = rv0;
        if (hi > rv1) hi = rv1;
        gms_uvm_pf_take_range(u, r->first_page + (uint32_t)(lo - rv0), (uint32_t)(hi - lo));
    }
}

static void plan_random(void *st, gms_uvm *u, const uint32_t *faults, size_t n)
{
    (void)st;
    for (size_t i = 0; i < n; i++) {
        const gms_uvm_region *r = &u->regions[u->pages[faults[i]].region];
        uint64_t slot = gms_rng_below(&u->rng, r->size >> u->page_shift);
        if (slot < r->npages) gms_uvm_pf_take(u, r->first_page + (uint32_t)slot);
    }
}

const gms_uvm_prefetch_ops gms_uvm_prefetch_none = { .name = "none", .uvmsmart_id = 0, .help = "on-demand only", .plan = plan_none };
const gms_uvm_prefetch_ops gms_uvm_prefetch_seq = { .name = "seq", .uvmsmart_id = 2, .knobs = GMS_KNOBS("uvm_prefetch_size"), .help = "sequential-local: the aligned -uvm_prefetch_size block of the fault", .plan = plan_seq };
const gms_uvm_prefetch_ops gms_uvm_prefetch_random = { .name = "random", .uvmsmart_id = 3, .help = "one random 4 KiB page of the fault's 2 MiB region", .plan = plan_random };
