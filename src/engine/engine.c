#include "engine/engine_internal.h"
#include <stdlib.h>
#include <string.h>
#include <limits.h>

_Thread_local struct gms_par_thread *gms_par_self;

/* edge processing order within one instant: replies flow up first */
static const gms_domain order[GMS_NDOM] = { GMS_DOM_DRAM, GMS_DOM_L2, GMS_DOM_ICNT, GMS_DOM_CORE };
static const char *const dom_name[GMS_NDOM] = { "core", "icnt", "l2", "dram" };

gms_engine *gms_engine_new(const double mhz[GMS_NDOM], int skip_idle)
{
    gms_engine *e = gms_xcalloc(1, sizeof *e);
    e->skip_idle = skip_idle;
    e->par_dom = -1;
    for (int i = 0; i < GMS_NDOM; i++) {
        double f = mhz[i] > 0 ? mhz[i] : 1000.0;
        e->d[i].mhz = f;
        e->d[i].period_fs = (uint64_t)(1e9 / f + 0.5);   /* 1 MHz = 1e9 fs period */
        e->d[i].next_edge_fs = e->d[i].period_fs;
        e->d[i].pos = UINT32_MAX;
    }
    return e;
}

static void par_stop(gms_engine *e);

void gms_engine_free(gms_engine *e)
{
    if (!e) return;
    par_stop(e);
    gms_eng_pipe_stop(e);
    for (int i = 0; i < GMS_NDOM; i++) {
        free(e->d[i].comps);
        free(e->d[i].tick);
        free(e->d[i].self);
        free(e->d[i].hot);
        free(e->d[i].active_bits);
        free(e->d[i].heap);
        free(e->d[i].rot_snap);
    }
    for (uint32_t k = 0; k < e->nslabs; k++) free(e->slabs[k]);
    free(e->slabs);
    free(e);
}

gms_component *gms_engine_add(gms_engine *e, gms_domain dn, const char *name,
                              gms_tick_fn tick, gms_report_fn report, void *self)
{
    domain *d = &e->d[dn];
    if (!e->nslabs || e->slab_used == COMP_SLAB) {
        e->slabs = gms_xrealloc(e->slabs, (e->nslabs + 1) * sizeof *e->slabs);
        e->slabs[e->nslabs++] = gms_xcalloc(COMP_SLAB, sizeof **e->slabs);
        e->slab_used = 0;
    }
    gms_component *c = &e->slabs[e->nslabs - 1][e->slab_used++];
    c->name = name;
    c->tick = tick;
    c->report = report;
    c->self = self;
    c->dom = (uint8_t)dn;
    c->wake_cycle = UINT64_MAX;
    if (d->ncomps == d->capcomps) {
        d->capcomps = d->capcomps ? d->capcomps * 2 : 16;
        d->comps = gms_xrealloc(d->comps, d->capcomps * sizeof *d->comps);
        d->tick = gms_xrealloc(d->tick, d->capcomps * sizeof *d->tick);
        d->self = gms_xrealloc(d->self, d->capcomps * sizeof *d->self);
        d->hot = gms_xrealloc(d->hot, d->capcomps * sizeof *d->hot);
    }
    d->tick[d->ncomps] = tick;
    d->self[d->ncomps] = self;
    d->hot[d->ncomps] = self;
    c->idx = d->ncomps;
    d->comps[d->ncomps++] = c;
    uint32_t words = (d->ncomps + 63) / 64;
    if (words > d->nwords) {
        d->active_bits = gms_xrealloc(d->active_bits, words * sizeof *d->active_bits);
        d->active_bits[words - 1] = 0;
        d->nwords = words;
    }
    return c;
}

static void par_log(struct gms_par_thread *t, par_entry en)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 256;
        t->log = gms_xrealloc(t->log, t->cap * sizeof *t->log);
    }
    en.src = t->cur_src;
    t->log[t->n++] = en;
}

void gms_engine_defer(gms_defer_fn fn, void *p, uint64_t a, uint64_t b)
{
    struct gms_par_thread *t = gms_par_self;
    if (!t) { fn(p, a, b); return; }
    par_log(t, (par_entry){ .kind = PE_CALL, .fn = fn, .p = p, .a = a, .b = b });
}

int gms_engine_replaying(const gms_engine *e) { return e->replaying; }
uint64_t gms_engine_parallel_edges(const gms_engine *e) { return e->par_edges; }

void gms_engine_set_hot(gms_engine *e, gms_component *c, const void *hot)
{
    e->d[c->dom].hot[c->idx] = hot;
}

void gms_engine_activate(gms_engine *e, gms_component *c)
{
    if (gms_par_self) { par_log(gms_par_self, (par_entry){ .kind = PE_ACT, .c = c }); return; }
    if (gms_eng_pipe_role && !gms_eng_pipe_owns(gms_eng_pipe_role, c->dom)) {
        gms_eng_pipe_log(e, (par_entry){ .kind = PE_ACT, .c = c });
        return;
    }
    if (c->active) return;
    domain *d = &e->d[c->dom];
    if (e->replaying && (int)c->dom == e->par_dom && (e->replay_src >> 6) < (c->idx >> 6))
        e->act_early[c->idx >> 6] |= 1ULL << (c->idx & 63);
    c->active = 1;
    d->active_bits[c->idx >> 6] |= 1ULL << (c->idx & 63);
    d->nactive++;
}

void gms_eng_deactivate(domain *d, gms_component *c)
{
    c->active = 0;
    d->active_bits[c->idx >> 6] &= ~(1ULL << (c->idx & 63));
    d->nactive--;
}

static void heap_push(domain *d, timer t)
{
    if (d->nheap == d->capheap) {
        d->capheap = d->capheap ? d->capheap * 2 : 64;
        d->heap = gms_xrealloc(d->heap, d->capheap * sizeof *d->heap);
    }
    uint32_t i = d->nheap++;
    while (i > 0) {
        uint32_t p = (i - 1) / 2;
        if (d->heap[p].cycle <= t.cycle) break;
        d->heap[i] = d->heap[p];
        i = p;
    }
    d->heap[i] = t;
}

static timer heap_pop(domain *d)
{
    timer top = d->heap[0], last = d->heap[--d->nheap];
    uint32_t i = 0, n = d->nheap;
    for (;;) {
        uint32_t l = 2 * i + 1, r = l + 1, m = i;
        timer mt = last;
        if (l < n && d->heap[l].cycle < mt.cycle) { m = l; mt = d->heap[l]; }
        if (r < n && d->heap[r].cycle < mt.cycle) { m = r; }
        if (m == i) break;
        d->heap[i] = d->heap[m];
        i = m;
    }
    if (n) d->heap[i] = last;
    return top;
}

void gms_engine_wake_at(gms_engine *e, gms_component *c, uint64_t cycle)
{
    if (gms_par_self) { par_log(gms_par_self, (par_entry){ .kind = PE_WAKE, .c = c, .a = cycle }); return; }
    if (gms_eng_pipe_role && !gms_eng_pipe_owns(gms_eng_pipe_role, c->dom)) {
        gms_eng_pipe_log(e, (par_entry){ .kind = PE_WAKE, .c = c, .a = cycle });
        return;
    }
    domain *d = &e->d[c->dom];
    if (cycle <= d->cycle) cycle = d->cycle + 1;
    if (cycle >= c->wake_cycle) return;   /* an earlier wake-up is pending */
    c->wake_cycle = cycle;
    heap_push(d, (timer){ cycle, c->idx });
}

void gms_engine_cancel_wake(gms_engine *e, gms_component *c)
{
    (void)e;
    if (gms_par_self || gms_eng_pipe_role) return;   /* serial callers only (engine.h) */
    c->wake_cycle = UINT64_MAX;   /* its heap entry is now stale: popped and skipped */
}

/* The edges of domain d up to the current instant, computed from time: a domain that has not
 * been visited yet at this instant (idle, or later in the DRAM, L2, ICNT, CORE order) still
 * reads the right cycle. */
uint64_t gms_engine_cycle(const gms_engine *e, gms_domain d)
{
    const uint64_t *v = gms_eng_now_view;
    return v ? v[d] : e->now_cycle[d];
}
/* the rotation of the domain's current edge: its first edge (cycle 1) in index order */
static inline uint32_t edge_rot(const domain *d) { return (uint32_t)((d->cycle + d->rot_group - 1) % d->rot_group); }
/* component i's place in the order of the domain's current edge (gms_engine_set_rotation) */
static inline uint32_t edge_rank(const domain *d, uint32_t i)
{
    if (d->rot_group < 2 || i < d->rot_first || i - d->rot_first >= d->rot_count) return i;
    uint32_t k = (i - d->rot_first) % d->rot_group, rot = edge_rot(d);
    return i - k + (k + d->rot_group - rot) % d->rot_group;
}
/* the component at place r of the edge's order (edge_rank's inverse) */
static inline uint32_t edge_at(const domain *d, uint32_t r)
{
    if (d->rot_group < 2 || r < d->rot_first || r - d->rot_first >= d->rot_count) return r;
    uint32_t k = (r - d->rot_first) % d->rot_group, rot = edge_rot(d);
    return r - k + (k + rot) % d->rot_group;
}

void gms_engine_set_rotation(gms_engine *e, const gms_component *first, uint32_t count, uint32_t group)
{
    domain *d = &e->d[first->dom];
    d->rot_first = first->idx;
    d->rot_count = count - count % (group ? group : 1);
    d->rot_group = group;
}

uint64_t gms_engine_next_tick_cycle(const gms_engine *e, const gms_component *c)
{
    const domain *d = &e->d[c->dom];
    return d->pos != UINT32_MAX && edge_rank(d, c->idx) > d->pos ? d->cycle : d->cycle + 1;
}
uint64_t gms_engine_time_fs(const gms_engine *e) { return gms_eng_now_view ? e->pipe.view_fs : e->now_fs; }
double gms_engine_mhz(const gms_engine *e, gms_domain d) { return e->d[d].mhz; }
void gms_engine_progress(gms_engine *e)
{
    if (gms_par_self) gms_par_self->progress++;
    else if (gms_eng_pipe_role == PIPE_MEM) e->pipe.progress++;
    else e->progress++;
}
uint64_t gms_engine_edges_visited(const gms_engine *e) { return e->edges; }
uint64_t gms_engine_ticks(const gms_engine *e) { return e->ticks; }

void gms_engine_abort(gms_engine *e, const char *msg)
{
    if (gms_eng_pipe_role == PIPE_MEM) {
        if (!e->pipe.aborted) snprintf(e->pipe.abort_msg, sizeof e->pipe.abort_msg, "%s", msg);
        e->pipe.aborted = 1;
        return;
    }
    if (e->aborted) return;
    e->aborted = 1;
    snprintf(e->abort_msg, sizeof e->abort_msg, "%s", msg);
}

/* ---------------------------------------------------------------- parallel ticking */

#define PAR_SPIN 4000
#define PAR_PROBE 64
#define PAR_CHECK 8
#define PAR_EXPLOIT 2048
#define PAR_EXPLOIT_MAX 65536

/* after the probes: the faster way for the next window; while the threads lose, the windows
 * between probes grow (a parallel probe on a host without a free core is slow) */
static void gov_decide(gms_engine *e)
{
    e->gov_par = e->gov_ticks[0] && e->gov_ticks[1] &&
                 (double)e->gov_ns[1] / (double)e->gov_ticks[1] < (double)e->gov_ns[0] / (double)e->gov_ticks[0];
    if (e->gov_par) e->gov_window = PAR_EXPLOIT;
    else e->gov_window = e->gov_window ? (e->gov_window * 2 > PAR_EXPLOIT_MAX ? PAR_EXPLOIT_MAX : e->gov_window * 2)
                                       : PAR_EXPLOIT;
    e->gov_phase = 2;
    e->gov_left = e->gov_par ? PAR_EXPLOIT : e->gov_window;
    e->gov_ns[1] = e->gov_ticks[1] = 0;
}

/* take chunks of epoch `epoch` until none is left (a thread that woke late finds none) */
static void par_take_chunks(gms_engine *e, unsigned tid, uint32_t epoch)
{
    const gms_par_hooks *h = &e->hooks;
    int entered = 0;
    for (;;) {
        uint64_t v = atomic_load_explicit(&e->grab, memory_order_acquire);
        uint32_t next = (uint32_t)(v & 0xffff), nch = (uint32_t)(v >> 16 & 0xffff);
        if ((uint32_t)(v >> 32) != epoch || next >= nch) break;
        if (!atomic_compare_exchange_weak_explicit(&e->grab, &v, v + 1, memory_order_acq_rel, memory_order_acquire))
            continue;
        /* only now is this edge's state ours to read: the main thread waits for the chunk */
        uint64_t cycle = e->d[e->par_dom].cycle;
        struct gms_par_thread *t = &e->chunk[next];
        if (!entered) { entered = 1; if (h->enter) h->enter(h->ud, tid); }
        gms_par_self = t;
        for (uint32_t i = t->lo; i < t->hi; i++) {
            gms_component *c = e->job[i];
            t->cur_src = c->idx;
            e->job_ret[i] = (uint8_t)(c->tick(c->self, cycle) != 0);
        }
        gms_par_self = NULL;
        atomic_fetch_add(&e->done_cnt, 1);
        if (atomic_load(&e->main_sleeps)) gms_eng_futex(&e->done_cnt, FUTEX_WAKE_PRIVATE, 1);
    }
    if (entered && h->leave) h->leave(h->ud, tid);
}

static void *par_worker_main(void *arg)
{
    par_worker *wk = arg;
    gms_engine *e = wk->e;
    uint32_t seen = 0;
    for (;;) {
        uint32_t s;
        int spins = 0;
        while ((s = atomic_load_explicit(&e->go_seq, memory_order_acquire)) == seen) {
            if (++spins < PAR_SPIN) { gms_eng_cpu_relax(); continue; }
            atomic_fetch_add(&e->sleepers, 1);
            if (atomic_load(&e->go_seq) == seen) gms_eng_futex(&e->go_seq, FUTEX_WAIT_PRIVATE, seen);
            atomic_fetch_sub(&e->sleepers, 1);
            spins = 0;
        }
        seen = s;
        if (atomic_load_explicit(&e->stop, memory_order_acquire)) break;
        par_take_chunks(e, wk->tid, s);
    }
    return NULL;
}

static void par_stop(gms_engine *e)
{
    if (!e->thr) return;
    atomic_store(&e->stop, 1);
    atomic_fetch_add(&e->go_seq, 1);
    gms_eng_futex(&e->go_seq, FUTEX_WAKE_PRIVATE, INT_MAX);
    for (unsigned i = 1; i < e->nthreads; i++) pthread_join(e->thr[i].th, NULL);
    for (unsigned i = 0; i < PAR_MAX_CHUNKS; i++) { free(e->chunk[i].log); e->chunk[i].log = NULL; e->chunk[i].cap = 0; }
    free(e->thr);
    e->thr = NULL;
    free(e->job);
    free(e->job_ret);
    free(e->act_early);
    free(e->start_bits);
    e->job = NULL;
    e->job_ret = NULL;
    e->act_early = e->start_bits = NULL;
    e->capjob = 0;
}

int gms_engine_set_parallel(gms_engine *e, gms_domain dn, unsigned nthreads, const gms_par_hooks *h)
{
    par_stop(e);
    e->par_dom = -1;
    if (nthreads <= 1) return 0;
    if (nthreads > PAR_MAX_CHUNKS / 4) nthreads = PAR_MAX_CHUNKS / 4;
    e->hooks = *h;
    e->nthreads = nthreads;
    e->thr = gms_xcalloc(nthreads, sizeof *e->thr);
    atomic_store(&e->stop, 0);
    for (unsigned i = 0; i < nthreads; i++) { e->thr[i].e = e; e->thr[i].tid = i; }
    for (unsigned i = 1; i < nthreads; i++)
        if (pthread_create(&e->thr[i].th, NULL, par_worker_main, &e->thr[i])) {
            e->nthreads = i;      /* the ones created stop with par_stop */
            par_stop(e);
            return -1;
        }
    e->par_dom = (int)dn;
    e->par_layout = 0;
    const char *always = getenv("GMS_HOST_THREADS_ALWAYS");
    e->gov_off = always && *always == '1';
    e->gov_phase = 0;                /* a serial probe first */
    e->gov_left = PAR_PROBE;
    return 0;
}

void gms_engine_mark_parallel(gms_component *c) { c->par = 1; }

/* the marked components are [par_lo, par_hi) with nothing unmarked before them */
static int par_check_layout(gms_engine *e, domain *d)
{
    uint32_t k = 0;
    while (k < d->ncomps && !d->comps[k]->par) k++;
    if (k != 0 || k == d->ncomps) return -1;
    while (k < d->ncomps && d->comps[k]->par) k++;
    e->par_lo = 0;
    e->par_hi = k;
    for (uint32_t j = k; j < d->ncomps; j++) if (d->comps[j]->par) return -1;
    e->act_early = gms_xcalloc(d->nwords, sizeof *e->act_early);
    e->start_bits = gms_xcalloc(d->nwords, sizeof *e->start_bits);
    return 1;
}

static void tick_one(gms_engine *e, domain *d, gms_component *c)
{
    e->ticks++;
    if (!c->tick(c->self, d->cycle)) gms_eng_deactivate(d, c);
}

/* one edge of the parallel domain, the marked components on the threads: returns 0 if the
 * edge should be done serially instead (nothing has happened then) */
static int process_edge_par(gms_engine *e, domain *d)
{
    if (e->par_layout == 0) e->par_layout = par_check_layout(e, d);
    if (e->par_layout < 0) return 0;
    if (d->nactive < e->hooks.min_active) return 0;
    /* the active marked components, in order */
    uint32_t hi = e->par_hi, n = 0;
    if (e->capjob < hi) {
        e->capjob = hi;
        e->job = gms_xrealloc(e->job, hi * sizeof *e->job);
        e->job_ret = gms_xrealloc(e->job_ret, hi);
    }
    for (uint32_t w = 0; w < d->nwords && w * 64 < hi; w++) {
        uint64_t bits = d->active_bits[w];
        if ((w + 1) * 64 > hi) bits &= (1ULL << (hi - w * 64)) - 1;
        while (bits) {
            int b = __builtin_ctzll(bits);
            bits &= bits - 1;
            e->job[n++] = d->comps[w * 64 + (uint32_t)b];
        }
    }
    if (n < e->hooks.min_active) return 0;
    if (!e->hooks.gate(e->hooks.ud, d->cycle)) return 0;
    /* governor */
    if (e->gov_off) e->gov_left = 1, e->gov_phase = 1;
    if (e->gov_left == 0) {
        if (e->gov_phase == 0) { e->gov_phase = 1; e->gov_left = PAR_PROBE; }
        else if (e->gov_phase == 1) gov_decide(e);
        else {
            e->gov_phase = 0;
            e->gov_left = PAR_PROBE;
            e->gov_ns[0] = e->gov_ns[1] = e->gov_ticks[0] = e->gov_ticks[1] = 0;
        }
    }
    e->gov_left--;
    if (e->gov_phase == 0 || (e->gov_phase == 2 && !e->gov_par)) {
        e->gov_time_serial = e->gov_phase == 0;
        if (e->gov_time_serial) e->gov_ticks[0] += n;
        return 0;
    }
    uint64_t t0 = gms_eng_now_ns();
    e->njob = n;
    e->par_edges++;
    memcpy(e->start_bits, d->active_bits, d->nwords * sizeof *d->active_bits);
    memset(e->act_early, 0, d->nwords * sizeof *e->act_early);
    unsigned nt = e->nthreads;
    /* chunks taken by whichever thread is free (a thread the host has descheduled holds up
     * only the chunk it took); logs per chunk, replayed in chunk order */
    uint32_t nch = 4 * nt;
    if (nch > n) nch = n;
    e->nchunks = nch;
    for (uint32_t c = 0; c < nch; c++) {
        e->chunk[c].lo = (uint32_t)((uint64_t)n * c / nch);
        e->chunk[c].hi = (uint32_t)((uint64_t)n * (c + 1) / nch);
        e->chunk[c].n = 0;
        e->chunk[c].progress = 0;
    }
    /* go */
    uint32_t epoch = atomic_load_explicit(&e->go_seq, memory_order_relaxed) + 1;
    atomic_store_explicit(&e->done_cnt, 0, memory_order_relaxed);
    atomic_store(&e->grab, (uint64_t)epoch << 32 | (uint64_t)nch << 16);
    atomic_store(&e->go_seq, epoch);
    if (atomic_load(&e->sleepers)) gms_eng_futex(&e->go_seq, FUTEX_WAKE_PRIVATE, INT_MAX);
    par_take_chunks(e, 0, epoch);
    uint32_t got;
    int spins = 0;
    while ((got = atomic_load(&e->done_cnt)) != nch) {
        if (++spins < PAR_SPIN) { gms_eng_cpu_relax(); continue; }
        atomic_store(&e->main_sleeps, 1);
        if ((got = atomic_load(&e->done_cnt)) != nch) gms_eng_futex(&e->done_cnt, FUTEX_WAIT_PRIVATE, got);
        atomic_store(&e->main_sleeps, 0);
        spins = 0;
    }
    /* join done: merge the threads' shards, then replay the logs in component order */
    if (e->hooks.merge) e->hooks.merge(e->hooks.ud, nt);
    e->ticks += n;
    e->replaying = 1;
    for (uint32_t c = 0; c < nch; c++) {
        struct gms_par_thread *th = &e->chunk[c];
        e->progress += th->progress;
        for (uint32_t i = 0; i < th->n; i++) {
            par_entry *en = &th->log[i];
            e->replay_src = en->src;
            switch (en->kind) {
            case PE_ACT: gms_engine_activate(e, en->c); break;
            case PE_WAKE: gms_engine_wake_at(e, en->c, en->a); break;
            default: en->fn(en->p, en->a, en->b); break;
            }
        }
    }
    e->replaying = 0;
    for (uint32_t i = 0; i < n; i++)
        if (!e->job_ret[i]) gms_eng_deactivate(d, e->job[i]);
    /* the components after the marked ones, as the serial loop would: the word holding the
     * last marked one was read before that word's marked components ticked (so it sees what
     * components of earlier words activated), later words after */
    uint32_t mixed = (hi - 1) >> 6;
    for (uint32_t w = mixed; w < d->nwords; w++) {
        uint64_t bits = w == mixed ? (e->start_bits[w] | e->act_early[w]) : d->active_bits[w];
        if (w == mixed) bits &= (hi & 63) ? ~((1ULL << (hi & 63)) - 1) : 0;
        while (bits) {
            int b = __builtin_ctzll(bits);
            bits &= bits - 1;
            gms_component *c = d->comps[w * 64 + (uint32_t)b];
            if (!c->active) continue;
            tick_one(e, d, c);
        }
    }
    e->gov_ns[1] += gms_eng_now_ns() - t0;
    e->gov_ticks[1] += n;
    /* probing or exploiting the threads: back to serial as soon as they turn out slower than
     * the serial probe (the host gave the other core to another job, say) */
    if (!e->gov_off && (e->gov_left & (PAR_CHECK - 1)) == 0 &&
        (double)e->gov_ns[1] / (double)e->gov_ticks[1] > (double)e->gov_ns[0] / (double)e->gov_ticks[0]) {
        if (e->gov_phase == 1) e->gov_left = 0;   /* decide at the next edge: serial */
        else e->gov_par = 0;
    }
    return 1;
}

void gms_eng_process_edge(gms_engine *e, domain *d, uint64_t *edges, uint64_t *ticks)
{
    d->cycle++;
    d->next_edge_fs += d->period_fs;
    (*edges)++;
    while (d->nheap && d->heap[0].cycle <= d->cycle) {
        timer t = heap_pop(d);
        gms_component *c = d->comps[t.idx];
        if (c->wake_cycle != t.cycle) continue;      /* stale entry */
        c->wake_cycle = UINT64_MAX;
        gms_engine_activate(e, c);
    }
    if (!d->nactive) return;
    uint64_t t0 = 0;
    if (e->par_dom == (int)(d - e->d)) {
        if (process_edge_par(e, d)) return;
        if (e->gov_time_serial) t0 = gms_eng_now_ns();
    }
    if (__builtin_expect(d->rot_group > 1, 0)) {
        /* rotating groups (not the hot path: configs with several SMs a cluster): the edge's
         * order, each component ticked if it is active when its turn comes and was at the
         * start of the edge (as the index-order loop below, which reads each word's bits once) */
        if (d->rot_snap_words < d->nwords) {
            d->rot_snap = gms_xrealloc(d->rot_snap, d->nwords * sizeof *d->rot_snap);
            d->rot_snap_words = d->nwords;
        }
        uint64_t *snap = d->rot_snap;
        memcpy(snap, d->active_bits, d->nwords * sizeof *snap);
        for (uint32_t r = 0; r < d->ncomps; r++) {
            uint32_t i = edge_at(d, r);
            if (!(snap[i >> 6] >> (i & 63) & 1) || !(d->active_bits[i >> 6] >> (i & 63) & 1)) continue;
            (*ticks)++;
            d->pos = r;
            if (!d->tick[i](d->self[i], d->cycle)) gms_eng_deactivate(d, d->comps[i]);
        }
        d->pos = UINT32_MAX;
        if (t0) { e->gov_ns[0] += gms_eng_now_ns() - t0; e->gov_time_serial = 0; }
        return;
    }
    for (uint32_t w = 0; w < d->nwords; w++) {
        uint64_t bits = d->active_bits[w];
        while (bits) {
            int b = __builtin_ctzll(bits);
            bits &= bits - 1;
            uint32_t i = w * 64 + (uint32_t)b;
            if (!(d->active_bits[w] >> b & 1)) continue;   /* (= its active flag) */
            if (bits) {
                /* host speed: the next component's first host lines (an SM keeps what every
                 * tick reads there) start loading while this one ticks */
                const char *p = d->hot[w * 64 + (uint32_t)__builtin_ctzll(bits)];
                __builtin_prefetch(p);
                __builtin_prefetch(p + 64);
                __builtin_prefetch(p + 128);
                __builtin_prefetch(p + 192);
            }
            (*ticks)++;
            d->pos = i;
            if (!d->tick[i](d->self[i], d->cycle)) gms_eng_deactivate(d, d->comps[i]);
        }
    }
    d->pos = UINT32_MAX;
    if (t0) { e->gov_ns[0] += gms_eng_now_ns() - t0; e->gov_time_serial = 0; }
}

static void report_all(gms_engine *e, FILE *out)
{
    if (!out) return;
    for (int i = 0; i < GMS_NDOM; i++) {
        domain *d = &e->d[i];
        fprintf(out, "  domain %s: cycle %llu, %u active component(s), %u timer(s)\n", dom_name[i],
                (unsigned long long)d->cycle, d->nactive, d->nheap);
        for (uint32_t k = 0; k < d->ncomps; k++) {
            gms_component *c = d->comps[k];
            if (c->report) c->report(c->self, out);
        }
    }
}

void gms_engine_set_sleep_probe(gms_engine *e, int (*probe)(void *ud), void *ud)
{
    e->sleep_probe = probe;
    e->sleep_ud = ud;
}

static int watchdog_stalled(gms_engine *e, uint64_t watchdog_core_cycles, FILE *report, gms_error *err)
{
    if (report) {
        fprintf(report, "gpumemsim: watchdog: no progress for %llu core cycles (now cycle %llu). "
                "What is waiting:\n", (unsigned long long)watchdog_core_cycles,
                (unsigned long long)e->d[GMS_DOM_CORE].cycle);
        report_all(e, report);
    }
    return gms_err(err, "watchdog: no progress for %llu core cycles at core cycle %llu",
                   (unsigned long long)watchdog_core_cycles, (unsigned long long)e->d[GMS_DOM_CORE].cycle);
}

int gms_engine_run(gms_engine *e, int (*done)(void *ud), void *ud, uint64_t watchdog_core_cycles,
                   FILE *report, gms_error *err)
{
    uint64_t last_progress = e->progress;
    /* time without progress while something was active, in fs: a component spinning in
     * another domain while the SMs sleep (e.g. a DRAM channel that never issues) is a stall
     * too, though no core edge is visited then */
    uint64_t stalled_fs = 0, prev_t = e->now_fs;
    int was_active = 0;
    /* host speed: the watchdog's limit in fs, once (floor(s / pc) > W is s >= (W + 1) pc),
     * where (W + 1) pc cannot overflow; the core period does not change during a run */
    const int wd_in_range = watchdog_core_cycles && watchdog_core_cycles < UINT64_MAX / e->d[GMS_DOM_CORE].period_fs - 1;
    const uint64_t wd_fs = wd_in_range ? (watchdog_core_cycles + 1) * e->d[GMS_DOM_CORE].period_fs : 0;
    while (!done(ud)) {
        if (e->aborted) return gms_err(err, "%s", e->abort_msg);
        /* earliest instant at which something can happen */
        uint64_t t = UINT64_MAX;
        for (int i = 0; i < GMS_NDOM; i++) {
            domain *d = &e->d[i];
            uint64_t cand = gms_eng_next_instant(e, d);
            if (cand < t) t = cand;
        }
        if (e->pipe.force_fs) {
            if (e->pipe.force_fs < t) t = e->pipe.force_fs;
            e->pipe.force_fs = 0;
        }
        /* busy (something active, or asleep where it would tick) since the last instant, and
         * stalled past the limit before the next one: the run with every such component
         * ticked fires at the first core edge past the limit (its ticks change nothing
         * meanwhile), so this one does too, at the same cycle */
        if (was_active && wd_in_range) {
            uint64_t pc = e->d[GMS_DOM_CORE].period_fs, lim = wd_fs;
            if (t == UINT64_MAX || stalled_fs + (t - prev_t) >= lim) {
                uint64_t te = (prev_t + (lim - stalled_fs) + pc - 1) / pc * pc;
                if (te < t) {
                    for (int i = 0; i < GMS_NDOM; i++) {   /* every domain as at instant te */
                        domain *d = &e->d[i];
                        gms_eng_catch_up(d, te);
                        if (d->next_edge_fs == te) { d->cycle = te / d->period_fs; d->next_edge_fs = te + d->period_fs; }
                    }
                    return watchdog_stalled(e, watchdog_core_cycles, report, err);
                }
            }
        }
        if (t == UINT64_MAX) {
            if (report) {
                fprintf(report, "gpumemsim: watchdog: deadlock at core cycle %llu: nothing is active and nothing "
                        "is scheduled, but the workload has not finished. What is waiting:\n",
                        (unsigned long long)e->d[GMS_DOM_CORE].cycle);
                report_all(e, report);
            }
            return gms_err(err, "watchdog: deadlock at core cycle %llu (nothing active, nothing scheduled)",
                           (unsigned long long)e->d[GMS_DOM_CORE].cycle);
        }
        e->now_fs = t;
        /* t / period_fs without a division for a domain at or before its next edge: its
         * last edge (cycle) was at an instant <= t, and next_edge_fs = (cycle + 1) * period_fs
         * (kept by process_edge, catch_up and the watchdog's stop) */
        for (int i = 0; i < GMS_NDOM; i++) {
            const domain *d = &e->d[i];
            e->now_cycle[i] = t < d->next_edge_fs ? d->cycle : t == d->next_edge_fs ? d->cycle + 1 : t / d->period_fs;
        }
        int any_active = 0;
        for (int k = 0; k < GMS_NDOM; k++) {
            domain *d = &e->d[order[k]];
            gms_eng_catch_up(d, t);
            if (d->next_edge_fs == t) {
                if (!d->nactive && (!d->nheap || d->heap[0].cycle > d->cycle + 1) &&
                    (order[k] != GMS_DOM_CORE || !e->pipe.on)) {
                    /* host speed: an edge with nothing active and no wake-up due, as
                     * gms_eng_process_edge would pass it (the pipelined core edge aside) */
                    d->cycle++;
                    d->next_edge_fs += d->period_fs;
                    e->edges++;
                    continue;
                }
                /* a core edge may run with the memory side ahead (engine_pipe.c) */
                if (order[k] != GMS_DOM_CORE || !e->pipe.on || !gms_eng_pipe_edge(e, d, t))
                    gms_eng_process_edge(e, d, &e->edges, &e->ticks);
                if (d->nactive) any_active = 1;
            }
        }
        /* requests the interconnect staged for the memory side: the worker took them if this
         * instant's core edge ran pipelined, else they go over now, before the next L2 edge */
        if (e->pipe.on && !e->pipe.this_instant) e->pipe.hooks.hand_over(e->pipe.hooks.ud);
        e->pipe.this_instant = 0;
        /* a component asleep where it would tick with the shortcuts off is busy too, so that
         * whether the watchdog fires does not depend on -gms_sleep_blocked */
        if (!any_active && watchdog_core_cycles && e->sleep_probe && e->sleep_probe(e->sleep_ud)) any_active = 1;
        if (was_active) stalled_fs += t - prev_t;
        prev_t = t;
        was_active = any_active;
        if (e->progress != last_progress) {
            last_progress = e->progress;
            stalled_fs = 0;
        } else if (any_active && watchdog_core_cycles) {
            if (wd_in_range ? stalled_fs >= wd_fs : stalled_fs / e->d[GMS_DOM_CORE].period_fs > watchdog_core_cycles)
                return watchdog_stalled(e, watchdog_core_cycles, report, err);
        }
    }
    if (e->aborted) return gms_err(err, "%s", e->abort_msg);
    return 0;
}
