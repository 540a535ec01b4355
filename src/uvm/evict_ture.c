/* TURE, true-usage-reflected eviction of CAPTURE (spec 000b 2.3). Every value the seed leaves
 * open is an option (docs/uvm-policies.md).
 *  - Lease: a page migrated in gets its allocation's (page group's) lease L; every reference
 *    to it while resident counts it down (the policies' reference stream: consecutive repeats
 *    of one page folded); at 0 it expires and enters the coalescing table. Before a group's
 *    first estimate a page has no lease (never expires); it takes the group's lease at its
 *    first reference after one exists. A reference that finds its page absent (its request
 *    faults, or joins the fault, and is replayed when the page arrives: the sampler counted it)
 *    counts down the lease the page gets on arrival (-uvm_ture_count_faulted, on by default);
 *    a page whose waiting references use up its whole lease expires at the next reference
 *    anywhere (not inside the arrival, which may be in the middle of a transfer's end).
 *  - Sampler: active -uvm_ture_window of every -uvm_ture_period cycles, 16 entries, one per
 *    64 KiB block of a group: a 10-bit reference counter N and a page-diversity tag (one bit per
 *    page). A reference to an untracked block takes a free entry, or is ignored when none is.
 *    When the active part of a period is over (seen at the next reference), each group with
 *    entries gets F = mean(N_i / popcount(tag_i)) and L = F (first) or
 *    round(w L + (1 - w) F), times -uvm_ture_scale, clamped to [1, -uvm_ture_max_lease].
 *  - Coalescing table: 256 entries of 64 KiB granules with the mask of their expired pages
 *    and the time of their last update. Trigger 1, table full: a new granule evicts the least
 *    recently updated entry's whole granule at once (proactive: before memory is full).
 *    Trigger 2, memory full (select): -uvm_ture_evict_blocks granules, the least recently
 *    updated entries first, then the least recently used 64 KiB blocks (-uvm_ture_pressure
 *    table, inferred), or the least recently used blocks only (lru: the seed's "four blocks
 *    based on the LRU policy" read literally). A granule goes whole
 *    (all its resident pages, one write-back); pages of it still arriving are not waited
 *    for, so CAP's 64 KiB invariant can break there (docs/uvm-policies.md, CAP).
 *  - Recall: a reference to an expired page still resident revokes its entry; the entry's
 *    expired pages get half their initial lease (at least 1).
 *  - -uvm_ture_lease renew (the ablation spec 000b 2.3 names): a logical clock counts the
 *    references; a page's lease ends L references after its arrival or its last reference
 *    (each reference renews it). A wheel of 2^k >= max lease + 1 slots holds the pages by the
 *    clock value at which their lease ends; an entry whose page was renewed, evicted or
 *    expired since is stale and skipped. */
#include <stdlib.h>
#include <string.h>
#include "uvm/evict_lru.h"

typedef struct samp { uint32_t alloc, block, n; uint64_t tag; } samp;
typedef struct cent { uint32_t block; uint64_t mask, upd; } cent;

typedef struct ture {
    gms_uvm *u;
    const gms_uvm_policy_params *pp;
    gms_lru lru;                          /* 64 KiB block LRU (trigger 2's fallback) */
    uint16_t *left, *init; uint8_t *expired; uint32_t pcap;   /* per page */
    uint16_t *owed;                       /* per page: references while absent (-uvm_ture_count_faulted) */
    gms_uvm_vec due;                      /* arrived with their lease used up: expire at the next reference */
    uint32_t *bent; uint32_t bcap;        /* per block: table entry or NONE */
    uint32_t *lease; uint8_t *have; uint32_t acap;            /* per allocation */
    samp *s; uint32_t ns;                 /* sampler */
    uint64_t win;                         /* period whose samples are held */
    cent *t; uint32_t nt;                 /* coalescing table (used entries first nt) */
    uint64_t seq;                         /* update clock */
    /* -uvm_ture_lease renew */
    uint64_t clock;                       /* references seen */
    uint64_t *ends;                       /* per page: clock value at which its lease ends, 0 = none */
    gms_uvm_vec *wheel; uint32_t wmask;   /* pages by (end & wmask) */
    gms_uvm_vec tmp;
    /* statistics */
    uint64_t expired_n, recalls, table_evictions, table_evicted_pages, pressure_entries, pressure_lru;
    uint64_t windows, estimates, sampler_drops, sampler_cap_drops, lease_sum;
    uint64_t owed_refs, arrived_spent, rescue_recalls;
} ture;

static void grow(void *st, gms_uvm *u)
{
    ture *s = st;
    gms_lru_grow(&s->lru);
    if (u->npages > s->pcap) {
        uint32_t cap = s->pcap ? s->pcap : 64;
        while (cap < u->npages) cap *= 2;
        s->left = gms_xrealloc(s->left, cap * sizeof *s->left);
        s->init = gms_xrealloc(s->init, cap * sizeof *s->init);
        s->expired = gms_xrealloc(s->expired, cap * sizeof *s->expired);
        s->owed = gms_xrealloc(s->owed, cap * sizeof *s->owed);
        for (uint32_t i = s->pcap; i < cap; i++) { s->left[i] = s->init[i] = s->owed[i] = 0; s->expired[i] = 0; }
        if (s->wheel) {
            s->ends = gms_xrealloc(s->ends, cap * sizeof *s->ends);
            for (uint32_t i = s->pcap; i < cap; i++) s->ends[i] = 0;
        }
        s->pcap = cap;
    }
    if (u->nblocks > s->bcap) {
        uint32_t cap = s->bcap ? s->bcap : 64;
        while (cap < u->nblocks) cap *= 2;
        s->bent = gms_xrealloc(s->bent, cap * sizeof *s->bent);
        for (uint32_t i = s->bcap; i < cap; i++) s->bent[i] = GMS_UVM_NONE;
        s->bcap = cap;
    }
    if (u->nallocs > s->acap) {
        uint32_t cap = (uint32_t)u->nallocs + 8;
        s->lease = gms_xrealloc(s->lease, cap * sizeof *s->lease);
        s->have = gms_xrealloc(s->have, cap * sizeof *s->have);
        for (uint32_t i = s->acap; i < cap; i++) { s->lease[i] = 0; s->have[i] = 0; }
        s->acap = cap;
    }
}

static void *create(gms_uvm *u, gms_error *err)
{
    (void)err;
    ture *s = gms_xcalloc(1, sizeof *s);
    s->u = u;
    s->pp = &u->prm->pol;
    gms_lru_init(&s->lru, u, GMS_LRU_BLOCK);
    s->s = gms_xcalloc(s->pp->ture_sampler, sizeof *s->s);
    s->t = gms_xcalloc(s->pp->ture_table, sizeof *s->t);
    s->win = UINT64_MAX;
    if (s->pp->ture_renew) {
        uint32_t w = 1;
        while (w <= s->pp->ture_max_lease) w *= 2;
        s->wheel = gms_xcalloc(w, sizeof *s->wheel);
        s->wmask = w - 1;
    }
    grow(s, u);
    return s;
}

static void destroy(void *st)
{
    ture *s = st;
    gms_lru_free(&s->lru);
    free(s->left); free(s->init); free(s->expired); free(s->owed); free(s->due.v); free(s->bent); free(s->lease); free(s->have);
    if (s->wheel)
        for (uint32_t i = 0; i <= s->wmask; i++) free(s->wheel[i].v);
    free(s->wheel); free(s->ends);
    free(s->s); free(s->t); free(s->tmp.v); free(s);
}

/* ---- coalescing table ---- */
static void entry_free(ture *s, uint32_t e)
{
    s->bent[s->t[e].block] = GMS_UVM_NONE;
    if (e != --s->nt) {
        s->t[e] = s->t[s->nt];
        s->bent[s->t[e].block] = e;
    }
}

static uint32_t entry_lru(const ture *s)
{
    uint32_t best = GMS_UVM_NONE;
    for (uint32_t e = 0; e < s->nt; e++)
        if (best == GMS_UVM_NONE || s->t[e].upd < s->t[best].upd) best = e;
    return best;
}

/* resident pages of a block, ascending, appended to out */
static void block_pages(ture *s, uint32_t block, gms_uvm_vec *out) { gms_lru_unit_pages(&s->lru, block, out); }

static void expire(ture *s, uint32_t page, uint64_t now)
{
    gms_uvm *u = s->u;
    const gms_uvm_page *pg = &u->pages[page];
    s->expired[page] = 1;
    s->expired_n++;
    uint32_t e = s->bent[pg->block];
    if (e == GMS_UVM_NONE) {
        if (s->nt == s->pp->ture_table) {          /* trigger 1: table full */
            uint32_t v = entry_lru(s);
            uint32_t vb = s->t[v].block;
            entry_free(s, v);
            s->tmp.n = 0;
            block_pages(s, vb, &s->tmp);
            s->table_evictions++;
            s->table_evicted_pages += s->tmp.n;
            gms_uvm_evict_now(u, s->tmp.v, s->tmp.n, now);
        }
        e = s->nt++;
        s->t[e] = (cent){ pg->block, 0, 0 };
        s->bent[pg->block] = e;
    }
    const gms_uvm_region *r = &u->regions[pg->region];
    uint64_t off = (pg->vpn - (r->base >> u->page_shift)) % r->leaf_pages;
    s->t[e].mask |= 1ULL << (off & 63);
    s->t[e].upd = ++s->seq;
}

/* renew: the page's lease ends `lease` references from now */
static void renew(ture *s, uint32_t page, uint32_t lease)
{
    uint64_t end = s->clock + lease;
    s->ends[page] = end;
    gms_uvm_vec_push(&s->wheel[end & s->wmask], page);
}

/* renew: expire the pages whose lease ends at this reference. expire() may evict (table full),
 * which only clears ends[]; a page arriving meanwhile is filed at least one slot ahead */
static void expire_due(ture *s, uint64_t now)
{
    gms_uvm_vec *v = &s->wheel[s->clock & s->wmask];
    for (size_t i = 0; i < v->n; i++) {
        uint32_t p = v->v[i];
        if (s->ends[p] != s->clock) continue;
        s->ends[p] = 0;
        if (s->u->pages[p].state == GMS_PG_RESIDENT && !s->expired[p]) expire(s, p, now);
    }
    v->n = 0;
}

static void recall(ture *s, uint32_t page)
{
    gms_uvm *u = s->u;
    uint32_t e = s->bent[u->pages[page].block];
    s->recalls++;
    s->tmp.n = 0;
    block_pages(s, u->pages[page].block, &s->tmp);
    for (size_t i = 0; i < s->tmp.n; i++) {
        uint32_t p = s->tmp.v[i];
        if (!s->expired[p]) continue;
        s->expired[p] = 0;
        /* half the lease it was given at fill time (init stays that lease: a page recalled
         * again gets half of it again, not a quarter) */
        uint16_t h = (uint16_t)(s->init[p] / 2);
        s->left[p] = h ? h : 1;
        if (s->wheel) renew(s, p, s->left[p]);
    }
    if (e != GMS_UVM_NONE) entry_free(s, e);
}

/* ---- sampler ---- */
/* -uvm_ture_group_cap (spec 000b 2.3, [inferred] optional): whether group a may take one more
 * sampler entry, at most max(1, round(entries x size_a / Magg)) over the managed allocations,
 * so a large group cannot crowd the small ones out of the 16 entries */
static int group_has_room(const ture *s, uint32_t a)
{
    const gms_uvm *u = s->u;
    uint64_t magg = 0;
    for (size_t k = 0; k < u->nallocs; k++)
        if (u->allocs[k].managed) magg += u->allocs[k].bytes;
    double share = magg ? (double)s->pp->ture_sampler * (double)u->allocs[a].bytes / (double)magg : 0;
    uint32_t cap = (uint32_t)(share + 0.5);
    if (cap < 1) cap = 1;
    uint32_t held = 0;
    for (uint32_t i = 0; i < s->ns; i++) held += s->s[i].alloc == a;
    return held < cap;
}

static void end_window(ture *s)
{
    const gms_uvm_policy_params *pp = s->pp;
    s->windows++;
    for (uint32_t a = 0; a < s->acap; a++) {
        double sum = 0;
        uint32_t n = 0;
        for (uint32_t i = 0; i < s->ns; i++) {
            if (s->s[i].alloc != a) continue;
            sum += (double)s->s[i].n / (double)__builtin_popcountll(s->s[i].tag);
            n++;
        }
        if (!n) continue;
        double f = sum / n * pp->ture_scale;
        double l = s->have[a] ? pp->ture_weight * s->lease[a] + (1 - pp->ture_weight) * f : f;
        long v = (long)(l + 0.5);
        if (v < 1) v = 1;
        if (v > (long)pp->ture_max_lease) v = (long)pp->ture_max_lease;
        s->lease[a] = (uint32_t)v;
        s->have[a] = 1;
        s->estimates++;
        s->lease_sum += (uint64_t)v;
    }
    s->ns = 0;
}

static void sample(ture *s, uint32_t page, uint64_t now)
{
    const gms_uvm_policy_params *pp = s->pp;
    uint64_t w = now / pp->ture_period;
    int active = now % pp->ture_period < pp->ture_window;
    if (s->ns && (w != s->win || !active)) end_window(s);
    if (!active) return;
    s->win = w;
    gms_uvm *u = s->u;
    const gms_uvm_page *pg = &u->pages[page];
    const gms_uvm_region *r = &u->regions[pg->region];
    uint64_t off = (pg->vpn - (r->base >> u->page_shift)) % r->leaf_pages;
    uint32_t i = 0;
    while (i < s->ns && s->s[i].block != pg->block) i++;
    if (i == s->ns) {
        if (s->ns == pp->ture_sampler) { s->sampler_drops++; return; }
        if (pp->ture_group_cap && !group_has_room(s, pg->alloc)) { s->sampler_cap_drops++; return; }
        s->s[s->ns++] = (samp){ pg->alloc, pg->block, 0, 0 };
    }
    if (s->s[i].n < 1023) s->s[i].n++;   /* 10-bit counter */
    s->s[i].tag |= 1ULL << (off & 63);
}

/* ---- hooks ---- */
static void resident(void *st, uint32_t page, uint64_t now)
{
    (void)now;
    ture *s = st;
    gms_lru_resident(&s->lru, page);
    uint32_t a = s->u->pages[page].alloc;
    s->expired[page] = 0;
    s->init[page] = s->left[page] = s->have[a] ? (uint16_t)s->lease[a] : 0;
    uint16_t owed = s->owed[page];
    s->owed[page] = 0;
    if (owed && s->left[page]) {
        s->owed_refs += owed;
        if (owed < s->left[page]) s->left[page] = (uint16_t)(s->left[page] - owed);
        else { s->left[page] = 0; gms_uvm_vec_push(&s->due, page); s->arrived_spent++; }
    }
    if (s->wheel) {
        s->ends[page] = 0;
        if (s->init[page]) renew(s, page, s->init[page]);
    }
}

static void removed(void *st, uint32_t page)
{
    ture *s = st;
    gms_lru_removed(&s->lru, page);
    const gms_uvm_page *pg = &s->u->pages[page];
    uint32_t e = s->bent[pg->block];
    if (e != GMS_UVM_NONE && s->expired[page]) {
        const gms_uvm_region *r = &s->u->regions[pg->region];
        uint64_t off = (pg->vpn - (r->base >> s->u->page_shift)) % r->leaf_pages;
        s->t[e].mask &= ~(1ULL << (off & 63));
        if (!s->t[e].mask) entry_free(s, e);
    }
    /* expired, init and left stay as they were: a page whose write-back a touch cancels comes
     * back through rescued(), which needs them; a page that arrives anew gets fresh ones from
     * resident(), and no other hook reads them while the page is away */
    if (s->wheel) s->ends[page] = 0;
}

/* -uvm_evict_rescue: the write-back of a victim is cancelled before it started (a touch, or a
 * prefetch, found the page still valid). Under -uvm_ture_rescue_recall it is a recall: a page
 * that was expired (touched while expired and awaiting eviction) gets half its initial lease
 * (at least 1), the reference that rescued it not counted down, as recall() does; one not
 * expired (its granule went whole, or it came with the LRU blocks) keeps the lease it had left.
 * References made to it while it was away count down what it gets (-uvm_ture_count_faulted). */
static void rescued(void *st, uint32_t page, uint64_t now)
{
    ture *s = st;
    if (!s->pp->ture_rescue_recall) { resident(st, page, now); return; }
    gms_lru_resident(&s->lru, page);
    uint16_t owed = s->owed[page];
    s->owed[page] = 0;
    int was_expired = s->expired[page];
    if (was_expired) {
        s->expired[page] = 0;
        uint16_t h = (uint16_t)(s->init[page] / 2);
        s->left[page] = h ? h : 1;
        s->rescue_recalls++;
        if (owed) owed--;   /* the touch that rescued it is the recall's own reference */
    }
    if (s->wheel) {
        /* renew: the page's end was dropped on removal; a recalled page's lease is the half,
         * another's starts anew (the rescuing touch would have renewed it) */
        if (was_expired) renew(s, page, s->left[page]);
        else if (s->init[page]) renew(s, page, s->init[page]);
        return;
    }
    if (owed && s->left[page]) {
        s->owed_refs += owed;
        if (owed < s->left[page]) s->left[page] = (uint16_t)(s->left[page] - owed);
        else { s->left[page] = 0; gms_uvm_vec_push(&s->due, page); s->arrived_spent++; }
    }
}

/* the pages that arrived with their lease used up by the references waiting for them: they
 * expire now, unless they have left or their lease changed since (a recall, a new arrival) */
static void expire_arrived(ture *s, uint64_t now)
{
    for (size_t i = 0; i < s->due.n; i++) {
        uint32_t p = s->due.v[i];
        if (s->u->pages[p].state == GMS_PG_RESIDENT && s->init[p] && !s->left[p] && !s->expired[p]) expire(s, p, now);
    }
    s->due.n = 0;
}

static void access_hook(void *st, uint32_t page, uint64_t now)
{
    ture *s = st;
    gms_uvm *u = s->u;
    if (s->due.n) expire_arrived(s, now);
    sample(s, page, now);
    if (s->wheel) {
        /* renew: every reference ticks the clock; one to a resident page renews its lease
         * (with the group's current L) before the leases ending now expire */
        s->clock++;
        if (u->pages[page].state == GMS_PG_RESIDENT) {
            gms_lru_access(&s->lru, page);
            uint32_t a = u->pages[page].alloc;
            if (s->expired[page]) recall(s, page);
            else if (s->have[a]) {
                s->init[page] = (uint16_t)s->lease[a];
                renew(s, page, s->lease[a]);
            }
        }
        expire_due(s, now);
        return;
    }
    if (u->pages[page].state != GMS_PG_RESIDENT) {
        if (s->pp->ture_count_faulted && s->owed[page] < UINT16_MAX) s->owed[page]++;
        return;
    }
    gms_lru_access(&s->lru, page);
    if (s->expired[page]) { recall(s, page); return; }
    if (!s->init[page]) {
        uint32_t a = u->pages[page].alloc;
        if (!s->have[a]) return;
        s->init[page] = s->left[page] = (uint16_t)s->lease[a];
    }
    if (--s->left[page] == 0) expire(s, page, now);
}

/* -uvm_lru_on_access walk: the 64 KiB block LRU (trigger 2's fallback) moves on walks and faults */
static void walk_hook(void *st, uint32_t page, uint64_t now)
{
    (void)now;
    gms_lru_walk(&((ture *)st)->lru, page);
}

static int cmp_upd(const void *a, const void *b)
{
    const cent *x = a, *y = b;
    return x->upd < y->upd ? -1 : x->upd > y->upd;
}

static void select_ture(void *st, gms_uvm *u, uint64_t now, gms_uvm_vec *out)
{
    (void)u; (void)now;
    ture *s = st;
    uint32_t want = s->pp->ture_evict_blocks, got = 0;
    /* the least recently updated entries (-uvm_ture_pressure table), or none (lru) */
    if (s->nt && !s->pp->ture_pressure_lru) {
        qsort(s->t, s->nt, sizeof *s->t, cmp_upd);
        for (uint32_t e = 0; e < s->nt; e++) s->bent[s->t[e].block] = e;
    }
    uint32_t take = s->pp->ture_pressure_lru ? 0 : s->nt < want ? s->nt : want;
    for (uint32_t e = 0; e < take; e++) {
        block_pages(s, s->t[e].block, out);
        got++;
    }
    s->pressure_entries += take;
    /* then the least recently used blocks (entries stay until their pages leave: removed()) */
    for (uint32_t b = gms_lru_first(&s->lru); b != GMS_UVM_NONE && got < want; b = gms_lru_after(&s->lru, b)) {
        uint32_t e = s->bent[b];
        if (e != GMS_UVM_NONE && e < take) continue;
        size_t before = out->n;
        block_pages(s, b, out);
        if (out->n > before) { got++; s->pressure_lru++; }
    }
}

static void report(void *st, gms_uvm *u, gms_stats *out)
{
    (void)u;
    ture *s = st;
    gms_stat_u64(out, "Uvm_ture_expired_pages", s->expired_n);
    gms_stat_u64(out, "Uvm_ture_recalls", s->recalls);
    gms_stat_u64(out, "Uvm_ture_table_full_evictions", s->table_evictions);
    gms_stat_u64(out, "Uvm_ture_table_full_pages", s->table_evicted_pages);
    gms_stat_u64(out, "Uvm_ture_memory_full_table_granules", s->pressure_entries);
    gms_stat_u64(out, "Uvm_ture_memory_full_lru_granules", s->pressure_lru);
    if (s->pp->ture_count_faulted && !s->wheel) {
        gms_stat_u64(out, "Uvm_ture_faulted_references", s->owed_refs);
        gms_stat_u64(out, "Uvm_ture_arrived_expired", s->arrived_spent);
    }
    if (s->u->prm->evict_rescue && s->pp->ture_rescue_recall) gms_stat_u64(out, "Uvm_ture_rescue_recalls", s->rescue_recalls);
    gms_stat_u64(out, "Uvm_ture_sampling_windows", s->windows);
    gms_stat_u64(out, "Uvm_ture_sampler_drops", s->sampler_drops);
    if (s->pp->ture_group_cap) gms_stat_u64(out, "Uvm_ture_sampler_group_cap_drops", s->sampler_cap_drops);
    gms_stat_f64(out, "Uvm_ture_avg_lease", s->estimates ? (double)s->lease_sum / (double)s->estimates : 0);
}

const gms_uvm_evict_ops gms_uvm_evict_ture = {
    .name = "ture", .uvmsmart_id = -1, .knobs = GMS_KNOBS("uvm_ture_", "uvm_lru_on_access"), .help = "TURE: per-group leases from a sampler, 64 KiB coalescing table, 4 granules under pressure",
    .create = create, .destroy = destroy, .grow = grow, .resident = resident, .removed = removed,
    .rescued = rescued, .access = access_hook, .walk_hit = walk_hook, .fault = walk_hook,
    .select = select_ture, .report = report,
};
