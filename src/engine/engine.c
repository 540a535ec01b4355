#include "engine/engine.h"
#include <stdlib.h>
#include <string.h>

struct gms_component {
    const char *name;
    gms_tick_fn tick;
    gms_report_fn report;
    void *self;
    uint8_t dom;
    uint8_t active;
    uint32_t idx;            /* index within its domain */
    uint64_t wake_cycle;     /* earliest pending wake-up, UINT64_MAX if none */
};

typedef struct timer { uint64_t cycle; uint32_t idx; } timer;

typedef struct domain {
    double mhz;
    uint64_t period_fs;
    uint64_t cycle;          /* edges passed */
    uint64_t next_edge_fs;   /* (cycle + 1) * period_fs */
    gms_component **comps;
    uint32_t ncomps, capcomps;
    uint64_t *active_bits;
    uint32_t nwords;
    uint32_t nactive;
    timer *heap;
    uint32_t nheap, capheap;
} domain;

struct gms_engine {
    domain d[GMS_NDOM];
    uint64_t now_fs;
    uint64_t now_cycle[GMS_NDOM];   /* now_fs / period_fs, computed once per instant: components
                                       ask for it millions of times, and a 64-bit division is slow */
    int skip_idle;
    uint64_t progress;
    uint64_t edges, ticks;
    int aborted;
    char abort_msg[512];
};

/* edge processing order within one instant: replies flow up first */
static const gms_domain order[GMS_NDOM] = { GMS_DOM_DRAM, GMS_DOM_L2, GMS_DOM_ICNT, GMS_DOM_CORE };
static const char *const dom_name[GMS_NDOM] = { "core", "icnt", "l2", "dram" };

gms_engine *gms_engine_new(const double mhz[GMS_NDOM], int skip_idle)
{
    gms_engine *e = gms_xcalloc(1, sizeof *e);
    e->skip_idle = skip_idle;
    for (int i = 0; i < GMS_NDOM; i++) {
        double f = mhz[i] > 0 ? mhz[i] : 1000.0;
        e->d[i].mhz = f;
        e->d[i].period_fs = (uint64_t)(1e9 / f + 0.5);   /* 1 MHz = 1e9 fs period */
        e->d[i].next_edge_fs = e->d[i].period_fs;
    }
    return e;
}

void gms_engine_free(gms_engine *e)
{
    if (!e) return;
    for (int i = 0; i < GMS_NDOM; i++) {
        for (uint32_t k = 0; k < e->d[i].ncomps; k++) free(e->d[i].comps[k]);
        free(e->d[i].comps);
        free(e->d[i].active_bits);
        free(e->d[i].heap);
    }
    free(e);
}

gms_component *gms_engine_add(gms_engine *e, gms_domain dn, const char *name,
                              gms_tick_fn tick, gms_report_fn report, void *self)
{
    domain *d = &e->d[dn];
    gms_component *c = gms_xcalloc(1, sizeof *c);
    c->name = name;
    c->tick = tick;
    c->report = report;
    c->self = self;
    c->dom = (uint8_t)dn;
    c->wake_cycle = UINT64_MAX;
    if (d->ncomps == d->capcomps) {
        d->capcomps = d->capcomps ? d->capcomps * 2 : 16;
        d->comps = gms_xrealloc(d->comps, d->capcomps * sizeof *d->comps);
    }
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

void gms_engine_activate(gms_engine *e, gms_component *c)
{
    if (c->active) return;
    domain *d = &e->d[c->dom];
    c->active = 1;
    d->active_bits[c->idx >> 6] |= 1ULL << (c->idx & 63);
    d->nactive++;
}

static void deactivate(domain *d, gms_component *c)
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
    domain *d = &e->d[c->dom];
    if (cycle <= d->cycle) cycle = d->cycle + 1;
    if (cycle >= c->wake_cycle) return;   /* an earlier wake-up is pending */
    c->wake_cycle = cycle;
    heap_push(d, (timer){ cycle, c->idx });
}

/* The edges of domain d up to the current instant, computed from time: a domain that has not
 * been visited yet at this instant (idle, or later in the DRAM, L2, ICNT, CORE order) still
 * reads the right cycle. */
uint64_t gms_engine_cycle(const gms_engine *e, gms_domain d) { return e->now_cycle[d]; }
uint64_t gms_engine_time_fs(const gms_engine *e) { return e->now_fs; }
double gms_engine_mhz(const gms_engine *e, gms_domain d) { return e->d[d].mhz; }
void gms_engine_progress(gms_engine *e) { e->progress++; }
uint64_t gms_engine_edges_visited(const gms_engine *e) { return e->edges; }
uint64_t gms_engine_ticks(const gms_engine *e) { return e->ticks; }

void gms_engine_abort(gms_engine *e, const char *msg)
{
    if (e->aborted) return;
    e->aborted = 1;
    snprintf(e->abort_msg, sizeof e->abort_msg, "%s", msg);
}

static void process_edge(gms_engine *e, domain *d)
{
    d->cycle++;
    d->next_edge_fs += d->period_fs;
    e->edges++;
    while (d->nheap && d->heap[0].cycle <= d->cycle) {
        timer t = heap_pop(d);
        gms_component *c = d->comps[t.idx];
        if (c->wake_cycle != t.cycle) continue;      /* stale entry */
        c->wake_cycle = UINT64_MAX;
        gms_engine_activate(e, c);
    }
    if (!d->nactive) return;
    for (uint32_t w = 0; w < d->nwords; w++) {
        uint64_t bits = d->active_bits[w];
        while (bits) {
            int b = __builtin_ctzll(bits);
            bits &= bits - 1;
            gms_component *c = d->comps[w * 64 + (uint32_t)b];
            if (!c->active) continue;
            e->ticks++;
            if (!c->tick(c->self, d->cycle)) deactivate(d, c);
        }
    }
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

int gms_engine_run(gms_engine *e, int (*done)(void *ud), void *ud, uint64_t watchdog_core_cycles,
                   FILE *report, gms_error *err)
{
    uint64_t last_progress = e->progress;
    uint64_t stalled_core_edges = 0;
    while (!done(ud)) {
        if (e->aborted) return gms_err(err, "%s", e->abort_msg);
        /* earliest instant at which something can happen */
        uint64_t t = UINT64_MAX;
        for (int i = 0; i < GMS_NDOM; i++) {
            domain *d = &e->d[i];
            uint64_t cand = UINT64_MAX;
            if (d->nactive || !e->skip_idle) cand = d->next_edge_fs;
            else if (d->nheap) cand = d->heap[0].cycle * d->period_fs;
            if (cand < t) t = cand;
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
        for (int i = 0; i < GMS_NDOM; i++) e->now_cycle[i] = t / e->d[i].period_fs;
        int any_active = 0;
        for (int k = 0; k < GMS_NDOM; k++) {
            domain *d = &e->d[order[k]];
            if (d->next_edge_fs < t) {                  /* skipped idle edges */
                d->cycle = (t - 1) / d->period_fs;
                d->next_edge_fs = (d->cycle + 1) * d->period_fs;
            }
            if (d->next_edge_fs == t) {
                process_edge(e, d);
                if (d->nactive) any_active = 1;
            }
        }
        if (e->progress != last_progress) {
            last_progress = e->progress;
            stalled_core_edges = 0;
        } else if (any_active && watchdog_core_cycles && e->d[GMS_DOM_CORE].next_edge_fs > t &&
                   e->d[GMS_DOM_CORE].next_edge_fs - e->d[GMS_DOM_CORE].period_fs == t) {
            if (++stalled_core_edges > watchdog_core_cycles) {
                if (report) {
                    fprintf(report, "gpumemsim: watchdog: no progress for %llu core cycles (now cycle %llu). "
                            "What is waiting:\n", (unsigned long long)watchdog_core_cycles,
                            (unsigned long long)e->d[GMS_DOM_CORE].cycle);
                    report_all(e, report);
                }
                return gms_err(err, "watchdog: no progress for %llu core cycles at core cycle %llu",
                               (unsigned long long)watchdog_core_cycles,
                               (unsigned long long)e->d[GMS_DOM_CORE].cycle);
            }
        }
    }
    if (e->aborted) return gms_err(err, "%s", e->abort_msg);
    return 0;
}
