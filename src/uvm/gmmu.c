/* Translation path: per-SM L1 TLB -> optional shared L2 TLB -> GMMU page-table walker (fixed
 * latency, optional bound on concurrent walks) -> far fault. A pending translation (keyed by
 * page) is the TLB MSHR of the walk; when the walk finds the page absent the same entry becomes
 * the far-fault MSHR: later misses to the page join it, and all waiters are replayed (deliver)
 * when the page arrives. */
#include <stdlib.h>
#include "uvm/uvm_internal.h"
#include "uvm/etc_internal.h"

static int is_write(const gms_mreq *r) { return r->kind == GMS_MREQ_WRITE || r->kind == GMS_MREQ_ATOMIC; }

static void touch(gms_uvm *u, uint32_t page, const gms_mreq *r)
{
    gms_uvm_page *pg = &u->pages[page];
    pg->accessed = 1;
    if (!pg->touched) { pg->touched = 1; u->c.pages_touched++; }
    if (is_write(r)) pg->dirty = 1;
    if (pg->pf_unused) {
        pg->pf_unused = 0;
        u->c.pf_used++;
    }
}

static void note_access(gms_uvm *u, uint32_t page, uint64_t now)
{
    if (page == u->last_access_page) return;
    u->last_access_page = page;
    if (u->seq_out) fwrite(&u->pages[page].vpn, sizeof(uint64_t), 1, u->seq_out);
    if (u->ev->access) u->ev->access(u->ev_st, page, now);
    if (u->ba.etc) gms_uvm_ws_note(u, page, now);   /* -gms_uvm_ws_window (etc_ws.c) */
}

/* ---------------- warps stalled on far faults ---------------- */
static uint64_t *warp_slot(gms_uvm *u, const gms_mreq *r)
{
    uint32_t sm = r->sm < u->n_sm ? r->sm : 0;
    return &u->warp_waits[2 * ((size_t)sm * u->warps_per_sm + (r->warp % u->warps_per_sm))];
}
static void wait_begin(gms_uvm *u, const gms_mreq *r, uint64_t now)
{
    uint64_t *w = warp_slot(u, r);
    if (w[0]++ == 0) {
        w[1] = now;
        if (u->ba.fault_hook) u->ba.fault_hook(u->ba.fault_hook_ud, r->sm, r->warp);   /* TO: a stall to look at */
    }
}
static void wait_end(gms_uvm *u, const gms_mreq *r, uint64_t now)
{
    uint64_t *w = warp_slot(u, r);
    if (w[0] && --w[0] == 0) u->c.warp_stall_cycles += now - w[1];
}

/* ---------------- warps waiting on translation (any request not yet delivered) ---------------- */
static uint32_t *trans_slot(gms_uvm *u, const gms_mreq *r)
{
    uint32_t sm = r->sm < u->n_sm ? r->sm : 0;
    return &u->warp_trans[(size_t)sm * u->warps_per_sm + (r->warp % u->warps_per_sm)];
}

/* ---------------- pending translations ---------------- */
static uint32_t pend_alloc(gms_uvm *u, uint64_t vpn)
{
    uint32_t i;
    if (u->pend_free != GMS_UVM_NONE) {
        i = u->pend_free;
        u->pend_free = u->pend[i].next;
    } else {
        if (u->npend == u->cap_pend) {
            u->cap_pend = u->cap_pend ? 2 * u->cap_pend : 256;
            u->pend = gms_xrealloc(u->pend, u->cap_pend * sizeof *u->pend);
        }
        i = u->npend++;
    }
    gms_uvm_pend *pe = &u->pend[i];
    pe->vpn = vpn;
    pe->head = pe->tail = NULL;
    pe->nwait = 0;
    pe->page = gms_uvm_page_of(u, vpn);
    pe->next = GMS_UVM_NONE;
    pe->state = GMS_PEND_WALK_WAIT;
    pe->in_use = 1;
    gms_u64map_put(&u->pend_map, vpn, i);
    return i;
}

static void pend_release(gms_uvm *u, uint32_t i)
{
    gms_uvm_pend *pe = &u->pend[i];
    gms_u64map_del(&u->pend_map, pe->vpn);
    pe->in_use = 0;
    pe->next = u->pend_free;
    u->pend_free = i;
}

static void pend_add_waiter(gms_uvm_pend *pe, gms_mreq *r, uint64_t now)
{
    r->next = NULL;
    r->t_ready = now;
    if (pe->tail) pe->tail->next = r; else pe->head = r;
    pe->tail = r;
    pe->nwait++;
}

void gms_uvm_deliver_req(gms_uvm *u, gms_mreq *r, uint64_t now)
{
    (void)now;
    gms_engine_progress(u->e);
    uint32_t *t = trans_slot(u, r);
    if (*t) --*t;
    u->deliver(u->deliver_ud, r->sm, r);
}

/* An SM's TLB takes a translation. UVMSmart's per-SM counters (refresh_tlb) see managed pages
 * only: a fill when the page was not there (Tlb_tot_valiate), a capacity victim (Tlb_tot_evict),
 * and per SM and page the history fill, evict, fill that Tlb_tot_thrash counts. */
static void tlb_fill_sm(gms_uvm *u, uint32_t sm, uint64_t vpn, uint32_t page)
{
    uint64_t vv;
    uint32_t vp = GMS_UVM_NONE;
    if (!gms_tlb_fill(&u->tlb[sm], vpn, page, &vv, &vp)) return;
    /* device-memory entries are ours (UVMSmart's TLB holds managed pages only): a victim of one
     * is not a UVMSmart eviction */
    if (vv != UINT64_MAX && vp != GMS_UVM_NONE && page != GMS_UVM_NONE) {
        u->c.us_tlb_evict++;
        uint64_t *h = gms_u64map_get(&u->tlb_hist, vv * u->n_sm + sm);
        if (h && *h == 1) *h = 2;
    }
    if (page == GMS_UVM_NONE) return;
    u->c.us_tlb_fill++;
    uint64_t key = vpn * u->n_sm + sm;
    uint64_t *h = gms_u64map_get(&u->tlb_hist, key);
    if (!h) { gms_u64map_put(&u->tlb_hist, key, 1); return; }
    if (*h == 2) u->c.us_tlb_thrash++;
    *h = 1;
}

static uint64_t count_waiters(const gms_uvm_pend *pe)
{
    uint64_t n = 0;
    for (const gms_mreq *r = pe->head; r; r = r->next) n++;
    return n;
}

static void deliver_all(gms_uvm *u, uint32_t pi, int faulted, uint64_t now)
{
    gms_uvm_pend *pe = &u->pend[pi];
    gms_mreq *r = pe->head;
    uint64_t vpn = pe->vpn;
    uint32_t page = pe->page;
    if (page != GMS_UVM_NONE) u->pages[page].pend = GMS_UVM_NONE;
    pend_release(u, pi);   /* before delivering: deliver may translate again */
    if (u->has_l2tlb) gms_tlb_fill(&u->l2tlb, vpn, page, NULL, NULL);
    while (r) {
        gms_mreq *nx = r->next;
        r->next = NULL;
        tlb_fill_sm(u, r->sm, vpn, page);
        u->c.tlb_fill++;
        if (page != GMS_UVM_NONE) touch(u, page, r);
        if (faulted) {
            u->c.req_fault_wait_sum += now - r->t_ready;
            u->c.req_fault_waits++;
            wait_end(u, r, now);
        }
        gms_uvm_deliver_req(u, r, now);
        r = nx;
    }
}

static void walk_begin(gms_uvm *u, uint32_t pi, uint64_t now)
{
    u->walks_active++;
    u->pend[pi].state = GMS_PEND_WALKING;
    gms_uvm_schedule(u, now + u->prm->ptw_latency, GMS_UEV_WALK_DONE, pi, NULL);
}

void gms_uvm_start_walk(gms_uvm *u, gms_mreq *r, uint64_t now)
{
    uint64_t vpn = r->addr >> u->page_shift;
    const uint64_t *v = gms_u64map_get(&u->pend_map, vpn);
    if (v) {
        gms_uvm_pend *pe = &u->pend[*v];
        pend_add_waiter(pe, r, now);
        if (pe->state == GMS_PEND_FAULT) {
            u->c.fault_merged++;
            /* UVMSmart walks this miss too and finds the page pending */
            if (pe->page != GMS_UVM_NONE) { u->c.us_pt_miss++; u->c.us_pt_pending++; }
            wait_begin(u, r, now);
        } else {
            u->c.walk_merged++;
        }
        return;
    }
    uint32_t pi = pend_alloc(u, vpn);
    pend_add_waiter(&u->pend[pi], r, now);
    u->c.walks++;
    if (!u->prm->max_walks || u->walks_active < u->prm->max_walks) {
        walk_begin(u, pi, now);
    } else {
        u->c.walk_queued++;
        if (u->walkq_tail != GMS_UVM_NONE) u->pend[u->walkq_tail].next = pi; else u->walkq_head = pi;
        u->walkq_tail = pi;
        u->walkq_n++;
    }
}

void gms_uvm_walk_done(gms_uvm *u, uint32_t pi, uint64_t now)
{
    u->walks_active--;
    while (u->walkq_head != GMS_UVM_NONE && (!u->prm->max_walks || u->walks_active < u->prm->max_walks)) {
        uint32_t q = u->walkq_head;
        u->walkq_head = u->pend[q].next;
        if (u->walkq_head == GMS_UVM_NONE) u->walkq_tail = GMS_UVM_NONE;
        u->pend[q].next = GMS_UVM_NONE;
        u->walkq_n--;
        walk_begin(u, q, now);
    }
    gms_uvm_pend *pe = &u->pend[pi];
    uint32_t page = pe->page;
    /* UVMSmart walks every TLB miss of a managed page (no walk merging): each waiter counts */
    uint64_t nw = page == GMS_UVM_NONE ? 0 : count_waiters(pe);
    /* -uvm_evict_rescue: a write-back still queued is cancelled; the page may be chosen again
     * at once (the state below is what the policy left) */
    if (page != GMS_UVM_NONE && u->prm->evict_rescue && u->pages[page].state == GMS_PG_WRITING)
        gms_uvm_evict_rescue(u, page, now);
    if (page == GMS_UVM_NONE || u->pages[page].state == GMS_PG_RESIDENT) {
        u->c.walk_hit++;
        u->c.us_pt_hit += nw;
        if (page != GMS_UVM_NONE && u->ev->walk_hit) u->ev->walk_hit(u->ev_st, page, now);
        deliver_all(u, pi, 0, now);
        return;
    }
    u->c.walk_miss++;
    u->c.us_pt_miss += nw;
    gms_uvm_page *pg = &u->pages[page];
    /* Page_tot_pending: misses that find the page already faulted or on its way; the first
     * miss of a page on the host (or being written back, re-faulted later) is its fault */
    u->c.us_pt_pending += pg->state == GMS_PG_INFLIGHT ? nw : nw - 1;
    pe->state = GMS_PEND_FAULT;
    pg->pend = pi;
    for (gms_mreq *r = pe->head; r; r = r->next) wait_begin(u, r, now);
    if (pg->state == GMS_PG_HOST) {
        u->c.far_faults++;
        pg->t_fault = now;
        if (u->ev->fault) u->ev->fault(u->ev_st, page, now);
        u->rt->fault(u->rt_st, page, now);
    } else if (pg->state == GMS_PG_INFLIGHT) {
        u->c.fault_merged++;          /* already on its way (prefetched or faulted earlier) */
    } else {
        u->c.faults_on_writeback++;   /* re-faulted when its write-back completes */
    }
}

void gms_uvm_l2tlb_done(gms_uvm *u, gms_mreq *r, uint64_t now)
{
    uint64_t vpn = r->addr >> u->page_shift;
    uint32_t page;
    if (!gms_tlb_lookup(&u->l2tlb, vpn, &page)) {
        gms_uvm_start_walk(u, r, now);
        return;
    }
    u->c.l2tlb_hit++;
    if (page != GMS_UVM_NONE && u->pages[page].state == GMS_PG_WRITING) gms_uvm_evict_rescue(u, page, now);
    tlb_fill_sm(u, r->sm, vpn, page);
    u->c.tlb_fill++;
    if (page != GMS_UVM_NONE) touch(u, page, r);
    gms_uvm_deliver_req(u, r, now);
}

void gms_uvm_release_waiters(gms_uvm *u, uint32_t page, uint64_t now)
{
    uint32_t pi = u->pages[page].pend;
    if (pi == GMS_UVM_NONE || u->pend[pi].state != GMS_PEND_FAULT) return;
    deliver_all(u, pi, 1, now);
}

void gms_uvm_shootdown(gms_uvm *u, uint64_t vpn)
{
    for (uint32_t i = 0; i < u->n_sm; i++) u->c.tlb_invalidate += (uint64_t)gms_tlb_invalidate(&u->tlb[i], vpn);
    u->c.us_tlb_shootdown = u->c.tlb_invalidate;   /* shootdowns only hit managed pages */
    if (u->has_l2tlb) gms_tlb_invalidate(&u->l2tlb, vpn);
}

/* UVMSmart's cu_gmmu_queue (gmmu_t::cycle): each core cycle the GMMU takes the front TLB-missed
 * access of every SM cluster's queue (-gms_uvm_gmmu_intake of them; 1 in UVMSmart) and starts
 * its walk. The cycle at which this miss is taken: its cluster's misses leave in arrival order,
 * that many a cycle, the first of a cycle with nothing queued at once (the GMMU ticks after the
 * cores). */
static uint64_t intake_slot(gms_uvm *u, uint32_t sm, uint64_t now)
{
    uint32_t k = u->prm->gmmu_intake;
    if (!k) return now;
    uint32_t c = sm / u->cores_per_cluster;
    if (u->intake_at[c] < now) { u->intake_at[c] = now; u->intake_n[c] = 0; }
    else if (u->intake_n[c] >= k) { u->intake_at[c]++; u->intake_n[c] = 0; }
    u->intake_n[c]++;
    return u->intake_at[c];
}

int gms_uvm_translate(gms_uvm *u, uint32_t sm, gms_mreq *req, uint64_t now)
{
    if (!u->enabled) return 1;
    if (now > u->now) u->now = now;
    if (sm >= u->n_sm) sm = 0;
    req->sm = (uint16_t)sm;
    uint64_t vpn = req->addr >> u->page_shift;
    uint32_t page;
    u->c.tlb_access++;
    int hit = gms_tlb_lookup(&u->tlb[sm], vpn, &page);
    if (!hit) page = gms_uvm_page_of(u, vpn);
    if (page != GMS_UVM_NONE) {
        note_access(u, page, now);
        /* the eviction policy's hook may have evicted this very page (TURE: a page arriving
         * with its lease used up takes the full table's last entry, whose granule holds it)
         * and shot its translations down: then this access misses and faults */
        if (hit && u->pages[page].state != GMS_PG_RESIDENT) hit = gms_tlb_lookup(&u->tlb[sm], vpn, &page);
        u->c.us_tlb_access++;   /* UVMSmart's TLB counters see managed pages only */
        u->c.us_tlb_hit += (uint64_t)hit;
    }
    if (hit) {
        u->c.tlb_hit++;
        if (page != GMS_UVM_NONE) {
            /* -uvm_evict_tlb_keep: a victim keeps its entries while its write-back is queued */
            if (u->pages[page].state == GMS_PG_WRITING) gms_uvm_evict_rescue(u, page, now);
            touch(u, page, req);
        }
        if (!u->prm->tlb_hit_latency) return 1;
        ++*trans_slot(u, req);
        gms_uvm_schedule(u, now + u->prm->tlb_hit_latency, GMS_UEV_DELIVER, 0, req);
        return 0;
    }
    u->c.tlb_miss++;
    ++*trans_slot(u, req);   /* delivered (gms_uvm_deliver_req) once translated */
    uint64_t at = intake_slot(u, sm, now);
    if (at > now) {
        u->c.intake_waited++;
        u->c.intake_wait_cycles += at - now;
        gms_uvm_schedule(u, at, GMS_UEV_INTAKE, 0, req);
        return 0;
    }
    gms_uvm_gmmu_take(u, req, now);
    return 0;
}

/* the GMMU has taken a TLB-missed access: the L2 TLB if there is one, else the walk */
void gms_uvm_gmmu_take(gms_uvm *u, gms_mreq *r, uint64_t now)
{
    if (u->has_l2tlb) {
        u->c.l2tlb_access++;
        gms_uvm_schedule(u, now + u->prm->l2_tlb_latency, GMS_UEV_L2TLB, 0, r);
        return;
    }
    gms_uvm_start_walk(u, r, now);
}

void gms_uvm_gmmu_free(gms_uvm *u)
{
    free(u->intake_at);
    free(u->intake_n);
    free(u->pend);
    gms_u64map_free(&u->pend_map);
    gms_u64map_free(&u->tlb_hist);
}
