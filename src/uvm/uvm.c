/* The UVM object: creation, program commands, and the event loop that makes it an engine
 * component. Every timed thing (TLB latency, walk, fault latency, PCIe transfer) is an event in
 * a min-heap; the component ticks only at event times and sleeps in between (wake_at), so the
 * cost of a 45 us fault latency does not depend on its length. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config/params.h"
#include "uvm/uvm_internal.h"
#include "uvm/opt_bound.h"
#include "uvm/etc_internal.h"

/* ---------------- event heap ---------------- */
static int ev_less(const gms_uvm_ev *a, const gms_uvm_ev *b)
{
    return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

void gms_uvm_schedule(gms_uvm *u, uint64_t t, uint32_t kind, uint32_t a, void *p)
{
    if (!u->in_tick && t <= u->now) t = u->now + 1;  /* outside a tick: the next cycle at the earliest */
    if (u->nheap == u->cap_heap) {
        u->cap_heap = u->cap_heap ? 2 * u->cap_heap : 256;
        u->heap = gms_xrealloc(u->heap, u->cap_heap * sizeof *u->heap);
    }
    gms_uvm_ev ev = { t, u->ev_seq++, p, kind, a };
    uint32_t i = u->nheap++;
    while (i > 0) {
        uint32_t par = (i - 1) / 2;
        if (!ev_less(&ev, &u->heap[par])) break;
        u->heap[i] = u->heap[par];
        i = par;
    }
    u->heap[i] = ev;
    if (!u->in_tick && t < u->wake) {
        u->wake = t;
        gms_engine_wake_at(u->e, u->comp, t);
    }
}

static gms_uvm_ev heap_pop(gms_uvm *u)
{
    gms_uvm_ev top = u->heap[0], last = u->heap[--u->nheap];
    uint32_t i = 0, n = u->nheap;
    for (;;) {
        uint32_t l = 2 * i + 1, r = l + 1, m = i;
        const gms_uvm_ev *mv = &last;
        if (l < n && ev_less(&u->heap[l], mv)) { m = l; mv = &u->heap[l]; }
        if (r < n && ev_less(&u->heap[r], mv)) m = r;
        if (m == i) break;
        u->heap[i] = u->heap[m];
        i = m;
    }
    if (n) u->heap[i] = last;
    return top;
}

static void handle(gms_uvm *u, const gms_uvm_ev *ev, uint64_t now)
{
    switch (ev->kind) {
    case GMS_UEV_DELIVER: gms_uvm_deliver_req(u, ev->p, now); break;
    case GMS_UEV_L2TLB: gms_uvm_l2tlb_done(u, ev->p, now); break;
    case GMS_UEV_WALK_DONE: gms_uvm_walk_done(u, ev->a, now); break;
    case GMS_UEV_LANE_DONE: gms_uvm_lane_done(u, (int)ev->a, now); break;
    case GMS_UEV_RT_TIMER: if (u->rt->timer) u->rt->timer(u->rt_st, now, ev->a); break;
    case GMS_UEV_BULK_DONE: gms_uvm_bulk_finish_one(u, ev->a); break;
    case GMS_UEV_INTAKE: gms_uvm_gmmu_take(u, ev->p, now); break;
    case GMS_UEV_REFAULT: gms_uvm_refault(u, ev->a, now); break;
    }
}

static int tick(void *self, uint64_t cycle)
{
    gms_uvm *u = self;
    u->now = cycle;
    u->in_tick = 1;
    u->wake = UINT64_MAX;
    while (u->nheap && u->heap[0].t <= cycle) {
        gms_uvm_ev ev = heap_pop(u);
        handle(u, &ev, cycle);
    }
    if (u->rt->end_of_cycle) u->rt->end_of_cycle(u->rt_st, cycle);
    /* the runtime may have queued zero-delay work (transfers start inside, events >= cycle+1) */
    while (u->nheap && u->heap[0].t <= cycle) {
        gms_uvm_ev ev = heap_pop(u);
        handle(u, &ev, cycle);
    }
    u->in_tick = 0;
    if (u->nheap) {
        u->wake = u->heap[0].t;
        gms_engine_wake_at(u->e, u->comp, u->wake);
    }
    return 0;
}

static void report_stuck(void *self, FILE *out)
{
    gms_uvm *u = self;
    uint32_t faulted = 0, walking = 0;
    for (uint32_t i = 0; i < u->npend; i++) {
        if (!u->pend[i].in_use) continue;
        if (u->pend[i].state == GMS_PEND_FAULT) faulted++; else walking++;
    }
    fprintf(out, "    uvm: %u pending walks, %u far-faulted pages with waiters, %u events (next at cycle %llu), "
            "H2D lane %s, D2H lane %s, frames %llu/%llu held, %llu pages queued to read\n",
            walking, faulted, u->nheap, u->nheap ? (unsigned long long)u->heap[0].t : 0ULL,
            u->lane[0].cur ? "busy" : "idle", u->lane[1].cur ? "busy" : "idle", (unsigned long long)u->frames_held,
            (unsigned long long)u->cap_frames, (unsigned long long)u->queued_read);
}

/* ---------------- creation ---------------- */
int gms_uvm_create(gms_uvm **out, const struct gms_params *p, gms_engine *e, uint32_t n_sm,
                   gms_uvm_deliver_fn deliver, void *deliver_ud, gms_error *err)
{
    *out = NULL;
    const gms_uvm_params *prm = &p->uvm;
    if (!n_sm) return gms_err(err, "uvm: no SMs");
    if (prm->page_size != 4096 && prm->page_size != 65536 && prm->page_size != 2097152)
        return gms_err(err, "-page_size: %llu bytes is not supported (4KB, 64KB or 2MB)", (unsigned long long)prm->page_size);
    if (prm->gddr_size && prm->gddr_size < prm->page_size)
        return gms_err(err, "-gddr_size: %llu bytes is below one page", (unsigned long long)prm->gddr_size);
    if (prm->oversub_ratio != 0 && !(prm->oversub_ratio >= 1.0))
        return gms_err(err, "-uvm_oversub_ratio: %g is below 1.0", prm->oversub_ratio);
    if ((size_t)prm->runtime_id >= gms_uvm_nruntimes || (size_t)prm->prefetch_id >= gms_uvm_nprefetchers ||
        (size_t)prm->prefetch_oversub_id >= gms_uvm_nprefetchers || (size_t)prm->evict_id >= gms_uvm_nevictors)
        return gms_err(err, "uvm: options were not finalized");
    gms_uvm *u = gms_xcalloc(1, sizeof *u);
    u->prm = prm;
    u->e = e;
    u->n_sm = n_sm;
    u->deliver = deliver;
    u->deliver_ud = deliver_ud;
    u->core_mhz = gms_engine_mhz(e, GMS_DOM_CORE);
    u->page_size = prm->page_size;
    u->page_shift = (uint32_t)__builtin_ctzll(prm->page_size);
    gms_rng_seed(&u->rng, p->sim.seed ^ 0x75766dULL);
    gms_u64map_init(&u->pt, 1024);
    gms_u64map_init(&u->pend_map, 256);
    gms_u64map_init(&u->tlb_hist, 1024);
    u->cores_per_cluster = p->core.n_cores_per_cluster ? p->core.n_cores_per_cluster : 1;
    uint32_t nclu = (n_sm + u->cores_per_cluster - 1) / u->cores_per_cluster;
    u->intake_at = gms_xcalloc(nclu, sizeof *u->intake_at);
    u->intake_n = gms_xcalloc(nclu, sizeof *u->intake_n);
    u->tlb = gms_xcalloc(n_sm, sizeof *u->tlb);
    for (uint32_t i = 0; i < n_sm; i++) gms_tlb_init(&u->tlb[i], prm->tlb_size, prm->tlb_assoc);
    if (prm->l2_tlb_size) {
        u->has_l2tlb = 1;
        gms_tlb_init(&u->l2tlb, prm->l2_tlb_size, prm->l2_tlb_assoc);
    }
    u->pend_free = GMS_UVM_NONE;
    u->walkq_head = u->walkq_tail = GMS_UVM_NONE;
    u->last_access_page = GMS_UVM_NONE;
    u->warps_per_sm = prm->to ? 512 : 64;   /* TO: extra blocks' warps have slots past 64 */
    u->warp_waits = gms_xcalloc((size_t)n_sm * u->warps_per_sm * 2, sizeof *u->warp_waits);
    u->warp_trans = gms_xcalloc((size_t)n_sm * u->warps_per_sm, sizeof *u->warp_trans);
    u->wake = UINT64_MAX;
    u->cur_batch = GMS_UVM_NONE;
    u->bulk_free = GMS_UVM_NONE;
    u->lane[GMS_LANE_H2D].gbps = prm->pcie_bandwidth;
    u->lane[GMS_LANE_D2H].gbps = prm->pcie_d2h_bandwidth > 0 ? prm->pcie_d2h_bandwidth : prm->pcie_bandwidth;
    u->rt = gms_uvm_runtimes[prm->runtime_id];
    gms_uvm_ba_init(u);
    u->pf = gms_uvm_prefetchers[prm->prefetch_id];
    u->pf_oversub = gms_uvm_prefetchers[prm->prefetch_oversub_id];
    u->ev = gms_uvm_evictors[prm->evict_id];
    if (prm->batch_csv[0]) {
        u->batch_csv = fopen(prm->batch_csv, "w");
        if (!u->batch_csv) {
            gms_err(err, "-uvm_batch_csv: cannot write '%s'", prm->batch_csv);
            gms_uvm_free(u);
            return -1;
        }
        fprintf(u->batch_csv, "batch,start,first_transfer,end,demand_faults,prefetched_pages,pages,evictions\n");
    }
    if (prm->page_trace_out[0]) {
        u->seq_out = fopen(prm->page_trace_out, "wb");
        if (!u->seq_out) {
            gms_err(err, "-uvm_page_trace_out: cannot write '%s'", prm->page_trace_out);
            gms_uvm_free(u);
            return -1;
        }
        uint64_t hdr[2];
        memcpy(hdr, "GMSUVMPS", 8);
        hdr[1] = u->page_size;
        fwrite(hdr, sizeof hdr, 1, u->seq_out);
    }
    if (!(u->rt_st = u->rt->create(u, err)) || !(u->ev_st = u->ev->create(u, err))) {
        gms_uvm_free(u);
        return -1;
    }
    /* prefetchers' states: one per role, shared when both roles are the same prefetcher */
    if ((u->pf->create && !(u->pf_st = u->pf->create(u, err))) ||
        (u->pf_oversub != u->pf && u->pf_oversub->create && !(u->pf_oversub_st = u->pf_oversub->create(u, err)))) {
        gms_uvm_free(u);
        return -1;
    }
    if (u->pf_oversub == u->pf) u->pf_oversub_st = u->pf_st;
    u->comp = gms_engine_add(e, GMS_DOM_CORE, "uvm", tick, report_stuck, u);
    *out = u;
    return 0;
}

void gms_uvm_free(gms_uvm *u)
{
    if (!u) return;
    if (u->rt_st && u->rt->destroy) u->rt->destroy(u->rt_st);
    if (u->ev_st && u->ev->destroy) u->ev->destroy(u->ev_st);
    if (u->pf_st && u->pf->destroy) u->pf->destroy(u->pf_st);
    if (u->pf_oversub_st && u->pf_oversub_st != u->pf_st && u->pf_oversub->destroy) u->pf_oversub->destroy(u->pf_oversub_st);
    if (u->batch_csv) fclose(u->batch_csv);
    if (u->seq_out) fclose(u->seq_out);
    gms_uvm_opt_free(u->opt);
    gms_uvm_etc_free(u);
    for (uint32_t i = 0; i < u->n_sm; i++) gms_tlb_free(&u->tlb[i]);
    free(u->tlb);
    if (u->has_l2tlb) gms_tlb_free(&u->l2tlb);
    gms_uvm_gmmu_free(u);
    gms_uvm_pcie_free(u);
    gms_uvm_pt_free(u);
    free(u->warp_waits);
    free(u->warp_trans);
    free(u->heap);
    free(u->bulk);
    free(u->batches);
    free(u->scratch.v);
    free(u->victims.v);
    free(u->plan.v);
    free(u);
}

/* ---------------- program commands ---------------- */
int gms_uvm_alloc(gms_uvm *u, uint64_t addr, uint64_t bytes, int managed, const char *name, gms_error *err)
{
    if (gms_uvm_pt_add(u, addr, bytes, managed, name, err)) return -1;
    if (managed && u->ev->grow) u->ev->grow(u->ev_st, u);
    return 0;
}

int gms_uvm_enabled(const gms_uvm *u) { return u->enabled; }

void gms_uvm_plan_footprint(gms_uvm *u, uint64_t bytes) { u->planned_footprint = bytes; }

void gms_uvm_plan_working_set(gms_uvm *u, uint64_t bytes)
{
    u->planned_footprint = bytes;
    u->planned_ws = 1;
}

/* the frames gms_uvm_fix_capacity gives managed pages for a managed footprint and device
 * allocations (bytes, device ones whole pages) so far; *limited = 0: unlimited */
static uint64_t frames_for(const gms_uvm *u, uint64_t footprint, uint64_t device_bytes, uint64_t *cap_footprint,
                           int *limited)
{
    const gms_uvm_params *prm = u->prm;
    uint64_t frames = 0;
    *limited = 0;
    if (prm->gddr_size) {
        uint64_t total = prm->gddr_size >> u->page_shift;
        uint64_t taken = (device_bytes >> u->page_shift) + ((prm->reserved_bytes + u->page_size - 1) >> u->page_shift);
        frames = total > taken ? total - taken : 0;
        *limited = 1;
    } else if (prm->oversub_ratio > 0) {
        /* the whole program's footprint when known: one allocating after its first kernel
         * would otherwise run more oversubscribed than asked */
        *cap_footprint = u->planned_ws || u->planned_footprint > footprint ? u->planned_footprint : footprint;
        /* the nearest whole number of pages, at least one (floor made 12 MiB at 1.1 with 2 MiB
         * pages 5 pages, a ratio of 1.2); gms_uvm_fix_capacity says when it is off by over 1% */
        double f = (double)*cap_footprint / prm->oversub_ratio / (double)u->page_size;
        frames = (uint64_t)llround(f);
        if (*cap_footprint && frames < 1) frames = 1;
        uint64_t res = (prm->reserved_bytes + u->page_size - 1) >> u->page_shift;
        frames = frames > res ? frames - res : 0;
        *limited = 1;
    }
    return frames;
}

uint64_t gms_uvm_capacity_preview(const gms_uvm *u, uint64_t footprint, uint64_t device_bytes)
{
    uint64_t cf = 0;
    int limited;
    uint64_t frames = frames_for(u, footprint, device_bytes, &cf, &limited);
    if (!limited) return 0;
    frames = gms_uvm_etc_frames(u, frames);
    return frames ? frames : 1;
}

void gms_uvm_fix_capacity(gms_uvm *u)
{
    if (u->capacity_fixed) return;
    u->capacity_fixed = 1;
    const gms_uvm_params *prm = u->prm;
    uint64_t frames = frames_for(u, u->footprint, u->device_bytes, &u->cap_footprint, &u->cap_limited);
    u->cap_frames = gms_uvm_etc_frames(u, frames);   /* ETC's capacity compression */
    if (u->cap_limited && frames < 1 && !prm->gddr_size && !u->cap_footprint) {
        /* -uvm_oversub_ratio with no managed memory (yet): nothing to divide; fixed again when
         * managed memory meets a kernel, and named at the end if it never does (gms_uvm_report) */
        u->capacity_fixed = 0;
        u->cap_limited = 0;
        u->cap_frames = 0;
        return;
    }
    if (u->cap_limited && !prm->gddr_size && u->cap_footprint) {
        /* the ratio the run gets: footprint / the pages the ratio gave (before the reserve and
         * ETC's compression, which are asked for separately) */
        uint64_t res = (prm->reserved_bytes + u->page_size - 1) >> u->page_shift;
        u->oversub_effective = (double)u->cap_footprint / ((double)(frames + res) * (double)u->page_size);
        if (fabs(u->oversub_effective - prm->oversub_ratio) > 0.01 * prm->oversub_ratio && !u->warned_ratio) {
            u->warned_ratio = 1;
            fprintf(stderr, "gpumemsim: warning: -uvm_oversub_ratio %g gives %llu pages of %llu KiB for a footprint of "
                    "%llu bytes, an oversubscription ratio of %.4g (whole pages; gms_uvm_oversub_ratio_effective)\n",
                    prm->oversub_ratio, (unsigned long long)(frames + res), (unsigned long long)(u->page_size >> 10),
                    (unsigned long long)u->cap_footprint, u->oversub_effective);
        }
    }
    if (u->cap_limited && frames < 1) {
        char msg[256];
        snprintf(msg, sizeof msg, "uvm: device capacity for managed pages is below one page (footprint %llu bytes, "
                 "-gddr_size %llu, -uvm_oversub_ratio %g, %llu bytes of device allocations and reserve)",
                 (unsigned long long)u->footprint, (unsigned long long)prm->gddr_size, prm->oversub_ratio,
                 (unsigned long long)(u->device_bytes + prm->reserved_bytes));
        gms_engine_abort(u->e, msg);
        u->cap_frames = 1;
    }
}

uint32_t gms_uvm_bulk_new(gms_uvm *u, gms_uvm_done_fn done, void *ud, int kind, uint64_t now)
{
    uint32_t b;
    if (u->bulk_free != GMS_UVM_NONE) {
        b = u->bulk_free;
        u->bulk_free = u->bulk[b].next_free;
    } else {
        if (u->nbulk == u->cap_bulk) {
            u->cap_bulk = u->cap_bulk ? 2 * u->cap_bulk : 16;
            u->bulk = gms_xrealloc(u->bulk, u->cap_bulk * sizeof *u->bulk);
        }
        b = u->nbulk++;
    }
    u->bulk[b].done = done;
    u->bulk[b].ud = ud;
    u->bulk[b].outstanding = 1;   /* held until the operation is fully queued */
    u->bulk[b].kind = kind;
    u->bulk[b].t_start = now;
    u->bulk[b].last_arrival = now;
    u->bulk[b].next_free = GMS_UVM_NONE;
    return b;
}

void gms_uvm_bulk_finish_one(gms_uvm *u, uint32_t b)
{
    if (--u->bulk[b].outstanding) return;
    /* UVMSmart's Tot_prefetch_time / Tot_memcpy_*_time: issue to completion */
    uint64_t dt = u->now - u->bulk[b].t_start;
    if (u->bulk[b].kind == GMS_BULK_PREFETCH) u->c.prefetch_time += dt;
    else if (u->bulk[b].kind == GMS_BULK_H2D) u->c.memcpy_h2d_time += dt;
    else if (u->bulk[b].kind == GMS_BULK_SYNC) u->c.devsync_time += dt;
    else u->c.memcpy_d2h_time += dt;
    gms_uvm_done_fn done = u->bulk[b].done;
    void *ud = u->bulk[b].ud;
    u->bulk[b].next_free = u->bulk_free;
    u->bulk_free = b;
    gms_engine_progress(u->e);
    if (done) done(ud);
}

static uint64_t cur_cycle(gms_uvm *u)
{
    uint64_t c = gms_engine_cycle(u->e, GMS_DOM_CORE);
    if (c > u->now) u->now = c;
    return u->now;
}

uint64_t gms_uvm_now(gms_uvm *u) { return cur_cycle(u); }

void gms_uvm_prefetch(gms_uvm *u, uint64_t addr, uint64_t bytes, gms_uvm_done_fn done, void *ud)
{
    uint64_t now = cur_cycle(u);
    gms_uvm_fix_capacity(u);
    uint32_t b = gms_uvm_bulk_new(u, done, ud, GMS_BULK_PREFETCH, now);
    gms_uvm_bulk_prefetch(u, addr, bytes, b, now);
    gms_uvm_lanes_kick(u, now);
    /* release the hold through an event, so done() never runs inside this call */
    gms_uvm_schedule(u, now + 1, GMS_UEV_BULK_DONE, b, NULL);
}

void gms_uvm_memcpy(gms_uvm *u, uint64_t addr, uint64_t bytes, int host_to_device, gms_uvm_done_fn done, void *ud)
{
    uint64_t now = cur_cycle(u);
    uint32_t b = gms_uvm_bulk_new(u, done, ud, host_to_device ? GMS_BULK_H2D : GMS_BULK_D2H, now);
    if (bytes) {
        gms_uvm_xfer *x = gms_uvm_xfer_new(u);
        x->kind = GMS_XF_MEMCPY;
        x->lane = host_to_device ? GMS_LANE_H2D : GMS_LANE_D2H;
        x->bytes = bytes;
        x->first_page = (uint32_t)(addr >> u->page_shift); /* informational */
        x->bulk = b;
        x->t_queued = now;
        u->bulk[b].outstanding++;
        u->c.memcpy_bytes += bytes;
        gms_uvm_lane_push(u, x);
        gms_uvm_lanes_kick(u, now);
    }
    gms_uvm_schedule(u, now + 1, GMS_UEV_BULK_DONE, b, NULL);
}

void gms_uvm_kernel_begin(gms_uvm *u, uint64_t now)
{
    if (now > u->now) u->now = now;
    gms_uvm_fix_capacity(u);
    u->last_access_page = GMS_UVM_NONE;
    /* the page sequence marks each kernel's start, where a replay of it can re-anchor */
    if (u->seq_out) { uint64_t m = GMS_UVM_KERNEL_MARK; fwrite(&m, sizeof m, 1, u->seq_out); }
    if (u->ev->kernel_begin) u->ev->kernel_begin(u->ev_st);
    /* Tot_kernel_exec_time = sum over kernels of end - begin, kept as two sums */
    u->c.kernel_begin_sum += now;
    u->c.kernels_active++;
}

void gms_uvm_kernel_end(gms_uvm *u, uint64_t now)
{
    if (now > u->now) u->now = now;
    if (u->c.kernels_active) {
        u->c.kernels_active--;
        u->c.kernel_end_sum += now;
    }
    if (u->batch_csv) fflush(u->batch_csv);
    if (u->seq_out) fflush(u->seq_out);
}

int gms_uvm_busy(const gms_uvm *u)
{
    return u->nheap || gms_uvm_pcie_busy(u) || u->pend_map.n || (u->rt->busy && u->rt->busy(u->rt_st));
}

void gms_uvm_report(gms_uvm *u, gms_stats *out)
{
    if (u->prm->oversub_ratio > 0 && !u->prm->gddr_size && !u->footprint && !u->planned_footprint && !u->warned_no_managed) {
        u->warned_no_managed = 1;
        fprintf(stderr, "gpumemsim: warning: -uvm_oversub_ratio %g has no effect: the run allocated no managed memory "
                "(a built-in workload's uvm=1 manages its arrays)\n", u->prm->oversub_ratio);
    }
    gms_uvm_stats_report(u, out);
}

void gms_uvm_set_future(gms_uvm *u, const uint64_t *addrs, size_t n)
{
    if (!u->ev->set_future) return;
    uint64_t *v = gms_xmalloc((n + 1) * sizeof *v);
    for (size_t i = 0; i < n; i++) v[i] = addrs[i] == GMS_UVM_KERNEL_MARK ? GMS_UVM_KERNEL_MARK : addrs[i] >> u->page_shift;
    u->ev->set_future(u->ev_st, v, n);
    free(v);
}

uint64_t gms_uvm_capacity_pages(const gms_uvm *u) { return u->cap_limited ? u->cap_frames : 0; }
