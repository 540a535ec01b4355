/* HPE, hierarchical page eviction (spec 003 section 5). Walk hits go to the HIR (hpe_hir.c),
 * which reaches the driver's page-set chain (hpe_chain.c) every -uvm_hpe_transfer faults, in
 * first-touch order, with a D2H transfer of 10 B per populated entry charged on the PCIe lane
 * (-uvm_hpe_hir_entries 0: the ideal model, hits reach the chain at once and nothing is
 * charged). Far faults touch the chain directly (counter, fault bit, move to new). Every
 * -uvm_hpe_interval faults the partitions move (old += middle, middle = new).
 * The first time memory is full the chain is classified once (Table III): regular uses MRU-C,
 * irregular #1 and #2 LRU. One page is evicted per call, the lowest-address resident page of
 * the victim set, chosen in the old partition (MRU-C: from the old partition's MRU end, past
 * the search-point jump, the first set whose counter is S, else the set with the smallest
 * counter, nearest the MRU end on ties; when the search point's jump skipped every set
 * with a resident page, the old partition's LRU end; LRU: the old partition's LRU end); with
 * the old partition empty, the LRU end of middle, then of new (hpe_chain_victim). A set
 * leaves the chain when its last resident page does and none of its faulted pages is still on
 * the way (spec 003 5.6: "once all pages in a page set have been evicted": a page migrating in
 * is not evicted, and the set keeps the counter and fault bits its fault just gave it).
 * -uvm_policy_refs 1 (the ideal model only, no HIR): every reference reaches the chain, TLB
 * hits too; 0: walk hits and faults, as the GMMU sees them.
 * Algorithm 1 (-uvm_hpe_adjust): each strategy's FIFO holds its last -uvm_hpe_fifo evicted
 * pages; a fault on a page in a FIFO is a wrong eviction of that strategy (counters reset every
 * interval). At -uvm_hpe_wrong wrong evictions of the current strategy: regular with a large
 * footprint (old partition >= 4S sets when classified) jumps the MRU-C search point 16 sets
 * further (cumulative, clamped to the old partition); irregular #2 switches strategy: the
 * first time to MRU-C, later to the strategy that has lasted more intervals (ties: the other);
 * irregular #1 and small regular footprints never adjust. Spec 003 section 8's open points and
 * the choices made are in docs/uvm-policies.md. */
#include <stdlib.h>
#include "uvm/uvm_internal.h"
#include "uvm/hpe_chain.h"
#include "uvm/hpe_hir.h"

enum { S_LRU = 0, S_MRUC = 1 };

typedef struct fifo { uint64_t *v; uint32_t n, head, cap; } fifo;

typedef struct hpe {
    gms_uvm *u;
    const gms_uvm_policy_params *pp;
    hpe_chain c;
    hpe_hir hir;
    int use_hir;
    uint32_t *page_set; uint32_t pcap;      /* per page: the set it is counted in */
    uint32_t *pending_set;                  /* per page: the set its fault counted it in, until it arrives */
    fifo f[2];
    uint32_t wrong[2];
    uint64_t tenure[2];
    int strategy, classified, category, large, switched;
    int jumped;                              /* the search point jumped in this interval */
    double ratio1, ratio2;
    uint64_t jump;
    uint64_t nfault;
    /* statistics */
    uint64_t searches, comparisons, evict_by[2], fallback_evictions, old_lru_fallbacks, adjust_jumps, adjust_switches;
    uint64_t transfers, hir_entries, hir_bytes, wrong_total, stale_records;
} hpe;

static int fifo_has(const fifo *f, uint64_t vpn)
{
    for (uint32_t i = 0; i < f->n; i++)
        if (f->v[i] == vpn) return 1;
    return 0;
}
static void fifo_push(fifo *f, uint64_t vpn)
{
    if (f->n < f->cap) f->v[f->n++] = vpn;
    else { f->v[f->head] = vpn; f->head = (f->head + 1) % f->cap; }
}

static void grow(void *st, gms_uvm *u)
{
    hpe *s = st;
    if (u->npages <= s->pcap) return;
    uint32_t cap = s->pcap ? s->pcap : 64;
    while (cap < u->npages) cap *= 2;
    s->page_set = gms_xrealloc(s->page_set, cap * sizeof *s->page_set);
    s->pending_set = gms_xrealloc(s->pending_set, cap * sizeof *s->pending_set);
    for (uint32_t i = s->pcap; i < cap; i++) s->page_set[i] = s->pending_set[i] = GMS_UVM_NONE;
    s->pcap = cap;
}

static void *create(gms_uvm *u, gms_error *err)
{
    (void)err;   /* -uvm_policy_refs 1 with the HIR is refused by the options (uvm_options.c) */
    hpe *s = gms_xcalloc(1, sizeof *s);
    s->u = u;
    s->pp = &u->prm->pol;
    hpe_chain_init(&s->c, s->pp->hpe_set, s->pp->hpe_sat);
    s->use_hir = s->pp->hpe_hir_entries > 0;
    if (s->use_hir) hpe_hir_init(&s->hir, s->pp->hpe_hir_entries, s->pp->hpe_hir_ways, s->pp->hpe_set, s->pp->hpe_hir_bits);
    for (int k = 0; k < 2; k++) {
        s->f[k].cap = s->pp->hpe_fifo;
        s->f[k].v = gms_xcalloc(s->pp->hpe_fifo, sizeof *s->f[k].v);
    }
    grow(s, u);
    return s;
}

static void destroy(void *st)
{
    hpe *s = st;
    hpe_chain_free(&s->c);
    if (s->use_hir) hpe_hir_free(&s->hir);
    free(s->f[0].v); free(s->f[1].v); free(s->page_set); free(s->pending_set); free(s);
}

/* a record of a page whose set has left the chain since (all its pages evicted) is dropped:
 * a set exists only while it has resident or arriving pages */
static void chain_hits(void *ud, uint64_t vpn, uint32_t hits)
{
    hpe *s = ud;
    if (hpe_chain_find(&s->c, vpn) == GMS_UVM_NONE) { s->stale_records++; return; }
    hpe_chain_touch(&s->c, vpn, hits, 0);
}

/* the HIR's records go to the driver: the chain is updated, and the bytes cross PCIe (D2H) */
static void transfer(hpe *s, uint64_t now)
{
    size_t n = hpe_hir_drain(&s->hir, chain_hits, s);
    s->transfers++;
    if (!n) return;
    uint64_t bytes = n * ((48 + (uint64_t)s->pp->hpe_set * s->pp->hpe_hir_bits + 7) / 8);
    s->hir_entries += n;
    s->hir_bytes += bytes;
    gms_uvm *u = s->u;
    gms_uvm_xfer *x = gms_uvm_xfer_new(u);
    x->kind = GMS_XF_MEMCPY;
    x->lane = GMS_LANE_D2H;
    x->bytes = bytes;
    x->first_page = 0;
    x->npages = 0;
    x->batch = x->bulk = GMS_UVM_NONE;
    x->t_queued = now;
    gms_uvm_lane_push(u, x);
    gms_uvm_lanes_kick(u, now);
}

static void adjust(hpe *s)
{
    if (!s->pp->hpe_adjust || !s->classified) return;
    uint32_t thr = s->pp->hpe_wrong;
    if (s->category == HPE_REGULAR) {
        /* Algorithm 1 line 4, "if wrong_eviction = page set size": once per interval, when the
         * count reaches S (it is reset only at the interval's end, spec 003 5.8) */
        if (!s->large || s->jumped || s->wrong[S_MRUC] < thr) return;
        s->jump += s->pp->hpe_jump;
        s->jumped = 1;
        s->adjust_jumps++;
    } else if (s->category == HPE_IRREGULAR2) {
        if (s->wrong[s->strategy] < thr) return;
        int other = 1 - s->strategy;
        int next = !s->switched ? S_MRUC : s->tenure[s->strategy] > s->tenure[other] ? s->strategy : other;
        s->wrong[s->strategy] = 0;
        s->switched = 1;
        if (next != s->strategy) { s->strategy = next; s->adjust_switches++; }
    }
}

static void fault(void *st, uint32_t page, uint64_t now)
{
    hpe *s = st;
    uint64_t vpn = s->u->pages[page].vpn;
    s->nfault++;
    for (int k = 0; k < 2; k++)
        if (fifo_has(&s->f[k], vpn)) { s->wrong[k]++; s->wrong_total++; }
    uint32_t set = hpe_chain_touch(&s->c, vpn, 1, 1);
    if (s->pending_set[page] == GMS_UVM_NONE && s->page_set[page] == GMS_UVM_NONE) {
        s->pending_set[page] = set;
        s->c.v[set].pending++;
    }
    if (s->use_hir && s->nfault % s->pp->hpe_transfer == 0) transfer(s, now);
    if (s->nfault % s->pp->hpe_interval == 0) {
        hpe_chain_interval(&s->c);
        s->wrong[0] = s->wrong[1] = 0;
        s->jumped = 0;
        /* intervals a strategy lasted (Algorithm 1's "used for a longer time"): only from the
         * classification on; before memory first fills no strategy has chosen a victim */
        if (s->classified) s->tenure[s->strategy]++;
    }
    adjust(s);
}

static void walk_hit(void *st, uint32_t page, uint64_t now)
{
    (void)now;
    hpe *s = st;
    uint64_t vpn = s->u->pages[page].vpn;
    if (s->use_hir) hpe_hir_hit(&s->hir, vpn);
    else if (!s->u->prm->pol.refs_all) hpe_chain_touch(&s->c, vpn, 1, 0);
}

/* every reference to a resident page (-uvm_policy_refs 1, ideal model) */
static void access_hook(void *st, uint32_t page, uint64_t now)
{
    (void)now;
    hpe *s = st;
    if (s->u->prm->pol.refs_all) hpe_chain_touch(&s->c, s->u->pages[page].vpn, 1, 0);
}

static void drop_if_empty(hpe *s, uint32_t set)
{
    if (!s->c.v[set].resident && !s->c.v[set].pending) hpe_chain_remove(&s->c, set);
}

static void resident(void *st, uint32_t page, uint64_t now)
{
    (void)now;
    hpe *s = st;
    uint32_t set = hpe_chain_touch(&s->c, s->u->pages[page].vpn, 0, 0);
    s->page_set[page] = set;
    s->c.v[set].resident++;
    uint32_t ps = s->pending_set[page];
    if (ps != GMS_UVM_NONE) {
        s->pending_set[page] = GMS_UVM_NONE;
        s->c.v[ps].pending--;
        if (ps != set) drop_if_empty(s, ps);   /* it was divided on the way */
    }
}

static void removed(void *st, uint32_t page)
{
    hpe *s = st;
    uint32_t set = s->page_set[page];
    s->page_set[page] = GMS_UVM_NONE;
    if (set == GMS_UVM_NONE) return;
    s->c.v[set].resident--;
    drop_if_empty(s, set);
}

/* the lowest-address resident page counted in the set */
static uint32_t set_page(hpe *s, uint32_t set)
{
    uint64_t v0 = hpe_set_vpn0(&s->c, set);
    for (uint32_t off = 0; off < s->c.S; off++) {
        uint32_t p = gms_uvm_page_of(s->u, v0 + off);
        if (p != GMS_UVM_NONE && s->page_set[p] == set && s->u->pages[p].state == GMS_PG_RESIDENT) return p;
    }
    return GMS_UVM_NONE;
}

static int usable(void *ud, uint32_t set)
{
    hpe *s = ud;
    return s->c.v[set].resident && set_page(s, set) != GMS_UVM_NONE;
}

static void select_hpe(void *st, gms_uvm *u, uint64_t now, gms_uvm_vec *out)
{
    (void)now;
    hpe *s = st;
    if (!s->classified) {
        s->classified = 1;
        s->category = hpe_chain_classify(&s->c, s->pp->hpe_ratio1, s->pp->hpe_ratio2, &s->ratio1, &s->ratio2);
        s->strategy = s->category == HPE_REGULAR ? S_MRUC : S_LRU;
        s->large = s->c.count[HPE_OLD] >= 4ULL * s->c.S;
    }
    int mr = s->strategy == S_MRUC, part, by_lru;
    if (mr && s->c.count[HPE_OLD]) s->searches++;
    uint32_t set = hpe_chain_victim(&s->c, mr, s->jump, usable, s, &part, &by_lru, &s->comparisons);
    int by = by_lru ? S_LRU : S_MRUC;
    if (set != GMS_UVM_NONE && part != HPE_OLD) s->fallback_evictions++;
    else if (set != GMS_UVM_NONE && mr && by_lru) s->old_lru_fallbacks++;
    if (set == GMS_UVM_NONE) return;
    uint32_t p = set_page(s, set);
    s->evict_by[by]++;
    fifo_push(&s->f[by], u->pages[p].vpn);
    gms_uvm_vec_push(out, p);
}

static void report(void *st, gms_uvm *u, gms_stats *out)
{
    (void)u;
    hpe *s = st;
    gms_stat_u64(out, "Uvm_hpe_classified", (uint64_t)s->classified);
    gms_stat_u64(out, "Uvm_hpe_category", (uint64_t)s->category);   /* 0 regular, 1 irregular#1, 2 irregular#2 */
    gms_stat_f64(out, "Uvm_hpe_ratio1", s->ratio1 > 1e299 ? -1 : s->ratio1);
    gms_stat_f64(out, "Uvm_hpe_ratio2", s->ratio2 > 1e299 ? -1 : s->ratio2);
    gms_stat_u64(out, "Uvm_hpe_large_footprint", (uint64_t)s->large);
    gms_stat_u64(out, "Uvm_hpe_final_strategy_mruc", (uint64_t)(s->strategy == S_MRUC));
    gms_stat_u64(out, "Uvm_hpe_evictions_lru", s->evict_by[S_LRU]);
    gms_stat_u64(out, "Uvm_hpe_evictions_mruc", s->evict_by[S_MRUC]);
    gms_stat_u64(out, "Uvm_hpe_evictions_outside_old", s->fallback_evictions);
    gms_stat_u64(out, "gms_uvm_hpe_mruc_old_lru_fallbacks", s->old_lru_fallbacks);
    gms_stat_u64(out, "Uvm_hpe_mruc_searches", s->searches);
    gms_stat_f64(out, "Uvm_hpe_comparisons_per_search", s->searches ? (double)s->comparisons / (double)s->searches : 0);
    gms_stat_u64(out, "Uvm_hpe_wrong_evictions", s->wrong_total);
    gms_stat_u64(out, "Uvm_hpe_search_point_jumps", s->adjust_jumps);
    gms_stat_u64(out, "Uvm_hpe_strategy_switches", s->adjust_switches);
    gms_stat_u64(out, "Uvm_hpe_intervals_lru", s->tenure[S_LRU]);
    gms_stat_u64(out, "Uvm_hpe_intervals_mruc", s->tenure[S_MRUC]);
    gms_stat_u64(out, "Uvm_hpe_divisions", s->c.divisions);
    gms_stat_u64(out, "Uvm_hpe_chain_moves", s->c.moves);
    gms_stat_u64(out, "Uvm_hpe_set_creations", s->c.creations);
    gms_stat_u64(out, "Uvm_hpe_hir_transfers", s->transfers);
    gms_stat_f64(out, "Uvm_hpe_hir_entries_per_transfer", s->transfers ? (double)s->hir_entries / (double)s->transfers : 0);
    gms_stat_u64(out, "Uvm_hpe_hir_bytes", s->hir_bytes);
    gms_stat_u64(out, "Uvm_hpe_hir_way_conflicts", s->use_hir ? s->hir.conflicts : 0);
    gms_stat_u64(out, "Uvm_hpe_hir_stale_records", s->stale_records);
}

const gms_uvm_evict_ops gms_uvm_evict_hpe = {
    .name = "hpe", .uvmsmart_id = -1, .knobs = GMS_KNOBS("uvm_hpe_", "uvm_policy_refs"), .help = "HPE: page-set chain (old/middle/new), MRU-C or LRU by classification, HIR (-uvm_hpe_*)",
    .create = create, .destroy = destroy, .grow = grow, .resident = resident, .removed = removed,
    .access = access_hook, .walk_hit = walk_hit, .fault = fault, .select = select_hpe, .report = report,
};
