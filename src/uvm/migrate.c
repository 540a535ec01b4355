/* Migration and eviction mechanics shared by every fault runtime: plan a group of demand faults
 * (+ the prefetcher's pages) into PCIe read transfers, keep the frame accounting, evict when
 * the projected occupancy exceeds the capacity (UVMSmart's should_evict_page rule, which is also
 * the driver's "evict before migrate when full"), write back dirty victims, and complete
 * transfers (validate pages, replay waiters). */
#include <stdlib.h>
#include "uvm/uvm_internal.h"
#include "util/sort.h"

static void mark_inflight(gms_uvm *u, uint32_t page, uint32_t batch, int is_pf)
{
    gms_uvm_page *pg = &u->pages[page];
    pg->state = GMS_PG_INFLIGHT;
    pg->batch = batch;
    pg->pf = (uint8_t)is_pf;
    pg->demand = (uint8_t)!is_pf;
    gms_uvm_tree_update(u, page, +1);
    gms_uvm_vec_push(&u->plan, page);
}

static int evict_cancel(gms_uvm *u, uint32_t page, uint64_t now);

/* -uvm_tree_fill uvmsmart: UVMSmart's sequential-local and tree prefetchers (do_hardware_prefetch's
 * block branch) count a whole 64 KiB leaf per faulted page and nothing per prefetched page; the
 * others (none, random, and ours: CAP) count each page they fetch */
static int counts_leaves(const gms_uvm *u)
{
    int id = (u->over_sub ? u->pf_oversub : u->pf)->uvmsmart_id;
    return id == 1 || id == 2;
}

void gms_uvm_pf_take(gms_uvm *u, uint32_t page)
{
    gms_uvm_page *pg = &u->pages[page];
    /* only a page on the host is taken. A victim whose write-back still waits is valid in
     * UVMSmart's page table, and its hardware prefetchers plan invalid pages only
     * (do_hardware_prefetch: get_faulty_pages; it never calls check_write_stage_queue): the
     * page is skipped and its write-back stays queued, under -uvm_evict_rescue too. A
     * cudaMemPrefetchAsync range does cancel it (gms_uvm_bulk_prefetch). */
    if (pg->state != GMS_PG_HOST) return;
    mark_inflight(u, page, u->cur_batch, 1);
    if (u->prm->tree_fill_uvmsmart && !counts_leaves(u)) gms_uvm_leaf_size_grow(u, page, 1);
}

void gms_uvm_pf_take_range(gms_uvm *u, uint32_t first, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) gms_uvm_pf_take(u, first + i);
}

/* cut sorted pages into transfers: at address gaps, region boundaries, the capacity, and (when
 * cut_after_fault) just after each demand page, so its warp can replay early (UVMSmart) */
static void queue_reads(gms_uvm *u, const uint32_t *p, size_t n, int kind, uint32_t batch, uint32_t bulk,
                        uint64_t pre_latency_per_fault, int cut_after_fault, uint64_t now)
{
    uint64_t maxpieces = u->cap_limited && u->cap_frames ? u->cap_frames : UINT64_MAX;
    if (u->ba.per_page) maxpieces = 1;   /* UE / serial eviction: one 64 KB DMA per page */
    size_t i = 0;
    while (i < n) {
        size_t j = i + 1;
        uint32_t nfault = u->pages[p[i]].demand;
        while (j < n && p[j] == p[j - 1] + 1 && u->pages[p[j]].region == u->pages[p[i]].region && j - i < maxpieces &&
               !(cut_after_fault && u->pages[p[j - 1]].demand)) {
            nfault += u->pages[p[j]].demand;
            j++;
        }
        gms_uvm_xfer *x = gms_uvm_xfer_new(u);
        x->kind = (uint8_t)kind;
        x->lane = GMS_LANE_H2D;
        x->first_page = p[i];
        x->npages = (uint32_t)(j - i);
        x->bytes = (uint64_t)x->npages << u->page_shift;
        x->nfault = nfault;
        x->pre_latency = pre_latency_per_fault * nfault;
        if (x->pre_latency && u->prm->fault_item_counted) u->queued_faults++;   /* its PAGE_FAULT item */
        x->batch = batch;
        x->bulk = bulk;
        x->t_queued = now;
        u->queued_read += x->npages;
        if (batch != GMS_UVM_NONE) u->batches[batch].outstanding++;
        if (bulk != GMS_UVM_NONE) u->bulk[bulk].outstanding++;
        gms_uvm_lane_push(u, x);
        i = j;
    }
}

uint32_t gms_uvm_migrate(gms_uvm *u, const uint32_t *faults, size_t n, uint32_t batch,
                         uint64_t pre_latency_per_fault, uint64_t now)
{
    u->plan.n = 0;
    u->cur_batch = batch;
    for (size_t i = 0; i < n; i++)
        if (u->pages[faults[i]].state == GMS_PG_HOST) mark_inflight(u, faults[i], batch, 0);
    size_t ndemand = u->plan.n;
    if (ndemand) {
        qsort(u->plan.v, ndemand, sizeof *u->plan.v, gms_cmp_u32);
        u->scratch.n = 0;
        for (size_t i = 0; i < ndemand; i++) gms_uvm_vec_push(&u->scratch, u->plan.v[i]);
        if (u->prm->tree_fill_uvmsmart) {
            int leaves = counts_leaves(u);
            for (size_t i = 0; i < ndemand; i++) {
                uint32_t p = u->plan.v[i];
                gms_uvm_leaf_size_grow(u, p, leaves ? u->regions[u->pages[p].region].leaf_pages : 1);
            }
        }
        const gms_uvm_prefetch_ops *pf = u->over_sub ? u->pf_oversub : u->pf;
        pf->plan(u->over_sub ? u->pf_oversub_st : u->pf_st, u, u->scratch.v, u->scratch.n);
        qsort(u->plan.v, u->plan.n, sizeof *u->plan.v, gms_cmp_u32);
        u->c.pf_groups++;
        u->c.pf_group_pages += u->plan.n;
    }
    uint32_t total = (uint32_t)u->plan.n;
    if (batch != GMS_UVM_NONE) {
        u->batches[batch].prefetched += total - (uint32_t)ndemand;
        u->batches[batch].pages += total;
    }
    queue_reads(u, u->plan.v, u->plan.n, GMS_XF_MIGRATE, batch, GMS_UVM_NONE, pre_latency_per_fault,
                gms_uvm_cuts_after_fault(u->prm), now);
    gms_uvm_evict_check(u, 1, now);
    gms_uvm_lanes_kick(u, now);
    u->cur_batch = GMS_UVM_NONE;
    return total;
}

void gms_uvm_bulk_prefetch(gms_uvm *u, uint64_t addr, uint64_t bytes, uint32_t bulk, uint64_t now)
{
    u->plan.n = 0;
    uint64_t end = addr + bytes;
    for (size_t k = 0; k < u->nallocs; k++) {
        const gms_uvm_alloc_rec *a = &u->allocs[k];
        if (!a->managed || end <= a->base || addr >= a->base + a->bytes) continue;
        uint64_t lo = addr > a->base ? addr : a->base, hi = end < a->base + a->bytes ? end : a->base + a->bytes;
        uint32_t p0 = a->first_page + (uint32_t)((lo - a->base) >> u->page_shift);
        uint32_t p1 = a->first_page + (uint32_t)((hi - a->base + u->page_size - 1) >> u->page_shift);
        for (uint32_t p = p0; p < p1; p++) {
            if (u->pages[p].state == GMS_PG_HOST) {
                mark_inflight(u, p, GMS_UVM_NONE, 0);
                continue;
            }
            /* -uvm_evict_rescue: a page whose write-back waits is still valid to UVMSmart,
             * and finding it so cancels the write-back (check_write_stage_queue) */
            if (u->pages[p].state == GMS_PG_WRITING && u->prm->evict_rescue) evict_cancel(u, p, now);
            u->c.bulk_pf_hit++;   /* UVMSmart's Tot_page_hit: already valid */
        }
    }
    for (size_t i = 0; i < u->plan.n; i++) u->pages[u->plan.v[i]].demand = 0;
    u->c.bulk_pf_miss += u->plan.n;
    queue_reads(u, u->plan.v, u->plan.n, GMS_XF_BULK, GMS_UVM_NONE, bulk, 0, 0, now);
    gms_uvm_evict_check(u, 0, now);
}

/* ---------------- eviction ---------------- */
static void queue_writeback(gms_uvm *u, uint32_t first, uint32_t n, uint64_t now)
{
    gms_uvm_xfer *x = gms_uvm_xfer_new(u);
    x->kind = GMS_XF_WRITEBACK;
    x->lane = GMS_LANE_D2H;
    /* a victim its batch chose: the batch's first transfer of either direction may be this
     * write-back (gms_uvm_batch_handling_any_xfer_mean; not the spec's fault handling time) */
    x->batch = u->cur_batch;
    x->first_page = first;
    x->npages = n;
    x->bytes = (uint64_t)n << u->page_shift;
    x->t_queued = now;
    gms_uvm_lane_push(u, x);
}

void gms_uvm_evict_pages(gms_uvm *u, const uint32_t *pages, size_t n, uint64_t now)
{
    uint32_t run0 = GMS_UVM_NONE, runn = 0;
    u->c.evict_ops++;
    for (size_t i = 0; i < n; i++) {
        uint32_t p = pages[i];
        gms_uvm_page *pg = &u->pages[p];
        if (pg->state != GMS_PG_RESIDENT) continue;
        /* -gms_uvm_oversub_flag any-eviction: a page leaving for any reason ends the
         * not-yet-oversubscribed phase, not only a fault meeting a full memory (UVMSmart's). */
        if (u->prm->oversub_any_eviction) u->over_sub = 1;
        int wb = (pg->dirty || !u->prm->invalidate_clean) && !u->prm->evict_instant;
        u->ev->removed(u->ev_st, p);
        gms_uvm_tree_update(u, p, -1);
        /* UVMSmart's LRU 2 MB clears the region's whole tree (evict_whole_tree); the others take
         * their victims' sizes off their leaves */
        if (u->prm->tree_fill_uvmsmart) {
            if (u->ev->uvmsmart_id == 0) gms_uvm_leaf_size_clear(u, pg->region);
            else gms_uvm_leaf_size_shrink(u, p);
        }
        /* -uvm_evict_tlb_keep: UVMSmart invalidates a victim's translations when its write-back
         * starts (gms_uvm_xfer_started), so until then a TLB hit finds it and cancels it */
        if (!(wb && u->prm->evict_tlb_keep)) gms_uvm_shootdown(u, pg->vpn);
        if (wb) {
            /* counted when its write-back starts (gms_uvm_xfer_started), not if it is cancelled */
            pg->wb_flags = (uint8_t)((pg->dirty ? GMS_WB_DIRTY : 0u) | (pg->pf_unused ? GMS_WB_PF_UNUSED : 0u));
        } else {
            if (pg->pf_unused) u->c.pf_evicted_unused++;
            if (pg->dirty) u->c.evict_dirty++; else u->c.evict_clean++;
            pg->evicted = 1;
        }
        pg->pf_unused = 0;
        if (u->cur_batch != GMS_UVM_NONE) u->batches[u->cur_batch].evictions++;
        gms_uvm_ba_evicted(u, p, now);
        pg->dirty = pg->accessed = 0;
        if (wb) {
            pg->state = GMS_PG_WRITING;
            u->pending_free++;
            if (run0 != GMS_UVM_NONE && p == run0 + runn && pg->region == u->pages[run0].region && !u->ba.per_page) {
                runn++;
            } else {
                if (run0 != GMS_UVM_NONE) queue_writeback(u, run0, runn, now);
                run0 = p;
                runn = 1;
            }
        } else {
            pg->state = GMS_PG_HOST;
            u->frames_held--;
        }
    }
    if (run0 != GMS_UVM_NONE) queue_writeback(u, run0, runn, now);
}

double gms_uvm_evict_limit(const gms_uvm *u)
{
    double n = (double)u->cap_frames;
    return n - n * u->prm->free_page_buffer_pct / 100.0;
}

/* UVMSmart's should_evict_page, evaluated by its gmmu_t::cycle with
 *     occupancy = frames allocated + pages in the read stage queue - pages in the write stage
 *                 queue and on the write lane,
 * the read stage queue holding, besides the data, a 1-page PAGE_FAULT item per faulted page
 * whose fault time has not started (counted with -gms_uvm_fault_frames data-counted), and the write-back on the lane
 * having freed its frames already (-gms_uvm_evict_wb_count twice: counted twice, so nothing more
 * is evicted until it ends) */
void gms_uvm_evict_check(gms_uvm *u, int from_fault, uint64_t now)
{
    if (!u->cap_limited) return;
    double limit = gms_uvm_evict_limit(u);
    const gms_uvm_xfer *w = u->lane[GMS_LANE_D2H].cur;
    uint64_t running = u->prm->evict_wb_twice && w && w->kind == GMS_XF_WRITEBACK ? w->npages : 0;
    for (;;) {
        uint64_t want = u->frames_held + u->queued_read + u->queued_faults, have = u->pending_free + running;
        if (!(want > have && (double)(want - have) > limit)) break;
        if (from_fault && !u->over_sub) u->over_sub = 1;
        u->victims.n = 0;
        u->ev->select(u->ev_st, u, now, &u->victims);
        if (!u->victims.n) break;
        qsort(u->victims.v, u->victims.n, sizeof *u->victims.v, gms_cmp_u32);
        uint64_t before = u->frames_held + u->queued_read - u->pending_free;
        gms_uvm_evict_pages(u, u->victims.v, u->victims.n, now);
        if (u->frames_held + u->queued_read - u->pending_free >= before) break;   /* nothing evictable */
    }
}

/* -uvm_evict_rescue (UVMSmart, spec 000b 1.3: a hit "cancels its pending eviction if its chunk
 * is still waiting in the write stage queue"). Victims leave the TLBs when chosen, so
 * the touch arrives as a walk, or, under -uvm_evict_tlb_keep (UVMSmart's order: translations
 * go when the write-back starts), as a TLB hit. Either finding its page in a write-back not
 * yet started takes that whole write-back out of the D2H queue and its pages back: resident, in the
 * eviction policy's order as if just migrated in (the touch refreshes them, as UVMSmart's
 * refresh_valid_pages), in the tree again, and dirty (UVMSmart's check_write_stage_queue
 * sets the dirty bit of every page of the cancelled entry, read or write). The memory is
 * then over its limit again, and the policy chooses anew. */
static int evict_cancel(gms_uvm *u, uint32_t page, uint64_t now)
{
    gms_uvm_lane *l = &u->lane[GMS_LANE_D2H];
    gms_uvm_xfer *prev = NULL;
    for (gms_uvm_xfer *x = l->head; x; prev = x, x = x->next) {
        if (x->kind != GMS_XF_WRITEBACK || page < x->first_page || page - x->first_page >= x->npages) continue;
        if (prev) prev->next = x->next; else l->head = x->next;
        if (l->tail == x) l->tail = prev;
        for (uint32_t i = 0; i < x->npages; i++) {
            uint32_t p = x->first_page + i;
            gms_uvm_page *pg = &u->pages[p];
            if (pg->state != GMS_PG_WRITING) continue;
            pg->state = GMS_PG_RESIDENT;
            pg->dirty = 1;
            pg->pf_unused = (uint8_t)!!(pg->wb_flags & GMS_WB_PF_UNUSED);   /* a prefetch's rescue touches nothing */
            pg->wb_flags = 0;
            u->pending_free--;
            gms_uvm_tree_update(u, p, +1);
            if (u->prm->tree_fill_uvmsmart) gms_uvm_leaf_size_grow(u, p, 1);   /* check_write_stage_queue */
            if (u->ev->rescued) u->ev->rescued(u->ev_st, p, now);
            else u->ev->resident(u->ev_st, p, now);
            u->c.evict_rescued++;
        }
        /* a page of it may have waiters from an earlier walk (it was written back from a
         * write-back that had started, came back, was chosen again into this one): they
         * were to re-fault at its end, which will not come; the page is here, so they go now */
        for (uint32_t i = 0; i < x->npages; i++)
            if (u->pages[x->first_page + i].state == GMS_PG_RESIDENT) gms_uvm_release_waiters(u, x->first_page + i, now);
        u->c.evict_rescues++;
        gms_uvm_xfer_release(u, x);
        return 1;
    }
    return 0;
}

int gms_uvm_evict_rescue(gms_uvm *u, uint32_t page, uint64_t now)
{
    if (!evict_cancel(u, page, now)) return 0;
    gms_uvm_evict_check(u, 0, now);
    gms_uvm_lanes_kick(u, now);
    return 1;
}

/* ---------------- transfer start / end ---------------- */
void gms_uvm_refault(gms_uvm *u, uint32_t p, uint64_t now)
{
    gms_uvm_page *pg = &u->pages[p];
    /* taken meanwhile (a prefetch, a bulk copy): its arrival releases the waiters */
    if (pg->state != GMS_PG_HOST || pg->pend == GMS_UVM_NONE) return;
    u->c.far_faults++;
    pg->t_fault = now;
    if (u->ev->fault) u->ev->fault(u->ev_st, p, now);
    u->rt->fault(u->rt_st, p, now);
}

/* a victim leaves for good: absent to the GPU; a walk that waited on it faults now. The fault
 * runtime groups faults at the end of a UVM tick: a write-back that starts outside one (a
 * transfer kicked by a TLB hit's rescue or a bulk copy, -uvm_evict_invalid_at start) has its
 * waiters fault at the next cycle's tick, not at whatever event would wake the GMMU next */
static void writeback_leaves(gms_uvm *u, uint32_t p, uint64_t now)
{
    u->pages[p].state = GMS_PG_HOST;
    if (u->pages[p].pend == GMS_UVM_NONE) return;
    if (u->in_tick) gms_uvm_refault(u, p, now);
    else gms_uvm_schedule(u, now, GMS_UEV_REFAULT, p, NULL);
}

void gms_uvm_xfer_started(gms_uvm *u, gms_uvm_xfer *x, uint64_t now)
{
    switch (x->kind) {
    case GMS_XF_MIGRATE:
    case GMS_XF_BULK:
        u->frames_held += x->npages;
        u->queued_read -= x->npages;
        if (x->batch != GMS_UVM_NONE) {
            gms_uvm_batch *b = &u->batches[x->batch];
            if (b->first_xfer == UINT64_MAX) b->first_xfer = now + x->pre_latency;
            if (b->first_any == UINT64_MAX) b->first_any = now + x->pre_latency;
        }
        break;
    case GMS_XF_WRITEBACK:
        /* a victim's write-back ends fault handling only in our own reading (first_any); spec
         * 004 1.4-1.5 end it at the first page transfer to the GPU (first_xfer) */
        if (x->batch != GMS_UVM_NONE && u->batches[x->batch].first_any == UINT64_MAX)
            u->batches[x->batch].first_any = now + x->pre_latency;
        for (uint32_t i = 0; i < x->npages; i++) {
            gms_uvm_page *pg = &u->pages[x->first_page + i];
            if (pg->state != GMS_PG_WRITING) continue;
            /* the eviction takes effect: counted now, as UVMSmart counts it */
            if (pg->wb_flags & GMS_WB_PF_UNUSED) u->c.pf_evicted_unused++;
            if (pg->wb_flags & GMS_WB_DIRTY) u->c.evict_dirty++; else u->c.evict_clean++;
            pg->wb_flags = 0;
            pg->evicted = 1;
            if (u->prm->evict_tlb_keep) gms_uvm_shootdown(u, pg->vpn);
        }
        if (!u->rt->free_at_wb_end) {
            u->frames_held -= x->npages;
            u->pending_free -= x->npages;
        }
        /* -uvm_evict_invalid_at start (UVMSmart invalidates the pages here): absent from now,
         * so the write-back's end changes nothing (a page may by then be back, or a victim of
         * a later write-back) */
        if (u->prm->evict_invalid_at_start)
            for (uint32_t i = 0; i < x->npages; i++)
                if (u->pages[x->first_page + i].state == GMS_PG_WRITING) writeback_leaves(u, x->first_page + i, now);
        break;
    default: break;
    }
}

void gms_uvm_xfer_finished(gms_uvm *u, gms_uvm_xfer *x, uint64_t now)
{
    switch (x->kind) {
    case GMS_XF_MIGRATE:
    case GMS_XF_BULK:
        for (uint32_t i = 0; i < x->npages; i++) {
            uint32_t p = x->first_page + i;
            gms_uvm_page *pg = &u->pages[p];
            pg->state = GMS_PG_RESIDENT;
            pg->batch = GMS_UVM_NONE;
            pg->t_in = now;
            if (++pg->n_in == 2) u->c.pages_thrashed++;
            if (pg->evicted) u->c.remigrations++;
            pg->evicted = 0;
            u->c.pages_in++;
            if (x->kind == GMS_XF_BULK) {
                u->c.pages_bulk_in++;
            } else if (pg->demand) {
                u->c.pages_demand_in++;
                u->c.page_latency_sum += now - pg->t_fault;
                u->c.page_latency_n++;
            } else {
                u->c.pages_pf_in++;
                pg->pf_unused = 1;
            }
            pg->demand = 0;
            u->ev->resident(u->ev_st, p, now);
            gms_uvm_release_waiters(u, p, now);
        }
        if (x->kind == GMS_XF_BULK && x->bulk != GMS_UVM_NONE) {
            /* UVMSmart sends a prefetch's chunks one after another: a chunk's latency runs from
             * the end of the one before it (or its queueing) to its arrival */
            gms_uvm_bulk *bk = &u->bulk[x->bulk];
            uint64_t from = bk->last_arrival > x->t_queued ? bk->last_arrival : x->t_queued;
            u->c.bulk_chunks++;
            u->c.bulk_chunk_lat_sum += now - from;
            u->c.bulk_page_lat_sum += (now - from) * x->npages;
            bk->last_arrival = now;
        }
        if (x->batch != GMS_UVM_NONE) gms_uvm_batch_xfer_done(u, x->batch, now);
        if (x->bulk != GMS_UVM_NONE) gms_uvm_bulk_finish_one(u, x->bulk);
        if (u->queued_read) gms_uvm_evict_check(u, 0, now);
        break;
    case GMS_XF_WRITEBACK:
        for (uint32_t i = 0; i < x->npages; i++) {
            uint32_t p = x->first_page + i;
            gms_uvm_page *pg = &u->pages[p];
            u->c.pages_written_back++;
            if (u->rt->free_at_wb_end) {
                u->frames_held--;
                u->pending_free--;
            }
            if (pg->state != GMS_PG_WRITING || u->prm->evict_invalid_at_start) continue;
            writeback_leaves(u, p, now);
        }
        /* -gms_uvm_evict_wb_count twice: its pages no longer count as pending, so the trigger
         * may hold again (UVMSmart evaluates it every cycle) */
        if (u->prm->evict_wb_twice) gms_uvm_evict_check(u, 0, now);
        break;
    case GMS_XF_MEMCPY:
        if (x->bulk != GMS_UVM_NONE) gms_uvm_bulk_finish_one(u, x->bulk);
        break;
    }
}
