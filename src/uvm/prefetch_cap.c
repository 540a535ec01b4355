/* CAP, the capacity-aware prefetcher of CAPTURE (spec 000b 2.2, 2.4). On each far fault the
 * granularity register of the fault's allocation is set from Eq. 4.1,
 *     G = Mavail x Mreq / (Magg x c)
 * (Mavail = free device frames now, minus the pages this fault group has already taken;
 * Mreq = the allocation's size; Magg = all managed allocations), rounded down to a candidate
 * (64 KiB .. 1 MiB), capped by the allocation's own size, and forced to 512 KiB once memory is
 * oversubscribed. The G-aligned window holding the fault (clipped to the allocation) is then
 * checked one 64 KiB chunk at a time through the chunk's first page only: a chunk whose first
 * page is on the host (neither resident, in flight nor being written back) is migrated whole;
 * the faulted page's chunk always is. The first-page check is exact when eviction also works
 * in 64 KiB granules (TURE); under a page-level eviction it may skip a partly evicted chunk,
 * as the hardware would. The page walks of the checks are not charged: the seed finds the
 * walk latency immaterial (claim O1); their number is reported. With unlimited capacity Mavail
 * is unbounded, so G is the cap. */
#include <stdlib.h>
#include "uvm/uvm_internal.h"
#include "uvm/prefetch_cap.h"

typedef struct cap {
    uint64_t *gran; size_t ngran;      /* per allocation: the granularity register (bytes) */
    uint64_t faults, gran_sum, checks, chunks;
} cap;

uint64_t gms_cap_granularity(uint64_t avail, uint64_t req, uint64_t agg, double c, uint64_t gmin, uint64_t gmax)
{
    double g = agg ? (double)avail * ((double)req / ((double)agg * c)) : (double)gmax;
    uint64_t lim = gmin;                   /* largest candidate <= req (small-allocation cap) */
    while (lim < gmax && lim * 2 <= req) lim *= 2;
    uint64_t r = gmin;
    while (r < lim && (double)(r * 2) <= g) r *= 2;
    return r;
}

static void *create(gms_uvm *u, gms_error *err) { (void)u; (void)err; return gms_xcalloc(1, sizeof(cap)); }
static void destroy(void *st) { cap *s = st; free(s->gran); free(s); }

static void plan_cap(void *st, gms_uvm *u, const uint32_t *faults, size_t n)
{
    cap *s = st;
    const gms_uvm_policy_params *pp = &u->prm->pol;
    if (s->ngran < u->nallocs) {
        s->gran = gms_xrealloc(s->gran, u->nallocs * sizeof *s->gran);
        for (size_t i = s->ngran; i < u->nallocs; i++) s->gran[i] = 0;
        s->ngran = u->nallocs;
    }
    uint64_t chunk = u->page_size > GMS_UVM_BB_SIZE ? u->page_size : GMS_UVM_BB_SIZE;
    for (size_t i = 0; i < n; i++) {
        const gms_uvm_page *pg = &u->pages[faults[i]];
        const gms_uvm_alloc_rec *a = &u->allocs[pg->alloc];
        uint64_t g;
        if (u->over_sub) {
            g = pp->cap_oversub;
        } else {
            uint64_t fr = gms_uvm_free_frames(u), avail;
            if (fr == UINT64_MAX) avail = UINT64_MAX >> 12;
            else avail = (fr > u->plan.n ? fr - u->plan.n : 0) << u->page_shift;
            g = gms_cap_granularity(avail, a->bytes, u->footprint, pp->cap_c, pp->cap_min, pp->cap_max);
        }
        s->gran[pg->alloc] = g;
        s->faults++;
        s->gran_sum += g;
        uint64_t addr = pg->vpn << u->page_shift, end_a = a->base + a->bytes;
        uint64_t lo = addr - addr % g, hi = lo + g;
        if (lo < a->base) lo = a->base;
        if (hi > end_a) hi = end_a;
        for (uint64_t c0 = lo - lo % chunk; c0 < hi; c0 += chunk) {
            uint64_t p0 = c0 < lo ? lo : c0, p1 = c0 + chunk < hi ? c0 + chunk : hi;
            uint32_t first = a->first_page + (uint32_t)((p0 - a->base) >> u->page_shift);
            uint32_t np = (uint32_t)((p1 - p0 + u->page_size - 1) >> u->page_shift);
            int own = addr >= c0 && addr < c0 + chunk;
            s->checks += !own;
            if (own || u->pages[first].state == GMS_PG_HOST) {
                gms_uvm_pf_take_range(u, first, np);
                s->chunks++;
            }
        }
    }
}

static void report(void *st, gms_uvm *u, gms_stats *out)
{
    (void)u;
    cap *s = st;
    gms_stat_u64(out, "Uvm_cap_faults", s->faults);
    gms_stat_f64(out, "Uvm_cap_avg_granularity", s->faults ? (double)s->gran_sum / (double)s->faults : 0);
    gms_stat_u64(out, "Uvm_cap_presence_checks", s->checks);
    gms_stat_u64(out, "Uvm_cap_chunks_migrated", s->chunks);
}

const gms_uvm_prefetch_ops gms_uvm_prefetch_cap = {
    .name = "cap", .uvmsmart_id = -1, .knobs = GMS_KNOBS("uvm_cap_"), .help = "CAP: capacity-aware granularity (Eq. 4.1, 64 KiB-1 MiB; 512 KiB oversubscribed)",
    .plan = plan_cap, .create = create, .destroy = destroy, .report = report,
};
