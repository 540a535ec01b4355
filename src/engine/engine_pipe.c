/* Pipelining (-gms_host_pipeline): the memory side (DRAM and L2 domains) of the instants up
 * to the next interconnect or core edge runs on a worker thread while the main thread ticks
 * the core edge.
 *
 * Why it is the serial order: within an instant the engine goes DRAM, L2, interconnect, core.
 * The core edge at t and the DRAM and L2 edges after it, up to and including the next
 * interconnect or core instant T, touch disjoint state: everything between the SMs and the
 * memory partitions crosses the interconnect, which ticks at T at the earliest, after both.
 * What would cross anyway is handed over:
 *   - engine calls: each thread changes only the domains it owns (the worker DRAM and L2,
 *     the main thread core and interconnect); the worker's other calls are logged and
 *     replayed at the join; a core edge that reached into the memory side is an internal
 *     error (it would have been seen by the worker's edges in the serial order);
 *   - the current cycles: gms_engine_cycle() answers each thread for its own instant;
 *   - counts (edges, ticks, progress) are the worker's own until the join;
 *   - the gate (gms_pipe_hooks) keeps serial the edges that read or change the memory side
 *     from the core (gpu.c: UVM, copies, the end of a kernel, ...), and the hooks hand the
 *     requests and replies over (memsys.c, icnt.c) so that each side's state stays in its
 *     own core's cache: on this project's 2-vCPU VM a line moving between the cores costs
 *     about 200 ns, and the first version without hand-overs was slower than serial.
 * The worker's edges are those the serial loop would visit: instants where the DRAM or L2
 * domain is active or has a timer, in the same order. If it visited T itself, the main loop
 * visits T next as well (the serial loop ticks the interconnect and core edges there). */
#include "engine/engine_internal.h"
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

_Thread_local int gms_eng_pipe_role;
_Thread_local const uint64_t *gms_eng_now_view;

/* how long a waiting thread spins before it sleeps on a futex */
#define PIPE_SPIN_NS 300000
/* governor (pipe_gov), in core edges: timed edges of each kind per probe, untimed ones
 * first; pipelined edges per look at the waits, and at most between probes; the serial
 * stretches */
#define PIPE_PROBE 128
#define PIPE_WARM 16
#define PIPE_WATCH 256
#define PIPE_RECHECK 65536
#define PIPE_SERIAL_FIRST 4096
#define PIPE_SERIAL_MAX 262144

void gms_eng_pipe_log(gms_engine *e, par_entry en)
{
    gms_eng_pipe *p = &e->pipe;
    if (gms_eng_pipe_role == PIPE_MAIN) { p->hazard = 1; return; }
    if (p->nlog == p->caplog) {
        p->caplog = p->caplog ? p->caplog * 2 : 256;
        p->log = gms_xrealloc(p->log, p->caplog * sizeof *p->log);
    }
    p->log[p->nlog++] = en;
}

/* the worker: the DRAM and L2 edges of the instants in (now, to_fs], as the serial loop
 * would visit them (the core and interconnect domains have no edge before to_fs, so only
 * these two domains decide which instants those are) */
static void pipe_window(gms_engine *e)
{
    static const gms_domain mem_order[2] = { GMS_DOM_DRAM, GMS_DOM_L2 };
    gms_eng_pipe *p = &e->pipe;
    uint64_t to = p->to_fs;
    for (;;) {
        uint64_t t = UINT64_MAX;
        for (int k = 0; k < 2; k++) {
            uint64_t cand = gms_eng_next_instant(e, &e->d[mem_order[k]]);
            if (cand < t) t = cand;
        }
        if (t > to) break;
        p->view_fs = t;
        p->last_fs = t;
        for (int i = 0; i < GMS_NDOM; i++) p->view[i] = t / e->d[i].period_fs;
        for (int k = 0; k < 2; k++) {
            domain *d = &e->d[mem_order[k]];
            gms_eng_catch_up(d, t);
            if (d->next_edge_fs == t) gms_eng_process_edge(e, d, &p->edges, &p->ticks);
        }
    }
}

/* wait until *a != v: spin for up to PIPE_SPIN_NS (a window or an interconnect edge lasts
 * microseconds; a futex wake-up on a VM can take far longer), then sleep on the futex
 * (the other thread wakes it when *sleeping is set) */
static void pipe_wait(_Atomic uint32_t *a, uint32_t v, _Atomic uint32_t *sleeping)
{
    uint64_t t0 = 0;
    for (uint32_t spins = 1;; spins++) {
        if (atomic_load_explicit(a, memory_order_acquire) != v) return;
        gms_eng_cpu_relax();
        if (spins & 255) continue;
        uint64_t now = gms_eng_now_ns();
        if (!t0) { t0 = now; continue; }
        if (now - t0 < PIPE_SPIN_NS) continue;
        atomic_store(sleeping, 1);
        if (atomic_load(a) == v) gms_eng_futex(a, FUTEX_WAIT_PRIVATE, v);
        atomic_store(sleeping, 0);
        t0 = 0;
    }
}

static void *pipe_worker_main(void *arg)
{
    gms_engine *e = arg;
    gms_eng_pipe *p = &e->pipe;
    uint32_t seen = 0;
    for (;;) {
        pipe_wait(&p->go, seen, &p->sleeping);
        uint32_t s = atomic_load_explicit(&p->go, memory_order_acquire);
        seen = s;
        if (atomic_load(&p->stop)) break;
        const gms_pipe_hooks *h = &p->hooks;
        if (h->enter) h->enter(h->ud);
        gms_eng_pipe_role = PIPE_MEM;
        gms_eng_now_view = p->view;
        pipe_window(e);
        gms_eng_now_view = NULL;
        gms_eng_pipe_role = PIPE_OFF;
        if (h->leave) h->leave(h->ud);
        atomic_store(&p->done, s);   /* seq_cst: as in gms_eng_pipe_edge */
        if (atomic_load(&p->main_sleeps)) gms_eng_futex(&p->done, FUTEX_WAKE_PRIVATE, 1);
    }
    return NULL;
}

void gms_eng_pipe_stop(gms_engine *e)
{
    gms_eng_pipe *p = &e->pipe;
    if (!p->on) return;
    atomic_store(&p->stop, 1);
    atomic_fetch_add(&p->go, 1);
    gms_eng_futex(&p->go, FUTEX_WAKE_PRIVATE, INT_MAX);
    pthread_join(p->th, NULL);
    p->on = 0;
    free(p->log);
    p->log = NULL;
    p->caplog = p->nlog = 0;
}

int gms_engine_set_pipeline(gms_engine *e, const gms_pipe_hooks *h)
{
    gms_eng_pipe *p = &e->pipe;
    gms_eng_pipe_stop(e);
    if (!h) return 0;
    /* a second thread needs a second CPU to run on */
    cpu_set_t cs;
    if (sched_getaffinity(0, sizeof cs, &cs) == 0 && CPU_COUNT(&cs) < 2) return -1;
    /* GMS_HOST_CPUS: the CPUs this run may count on, set by the sweep runners when several
     * runs share the host (runner_local.c); with one, a worker would take a concurrent run's */
    const char *cpus = getenv("GMS_HOST_CPUS");
    if (cpus && *cpus && atoi(cpus) < 2) return -1;
    p->hooks = *h;
    atomic_store(&p->stop, 0);
    /* a new worker starts at sequence 0 (a stopped one left go one past its last window) */
    atomic_store(&p->go, 0);
    atomic_store(&p->done, 0);
    if (pthread_create(&p->th, NULL, pipe_worker_main, e)) return -1;
    p->on = 1;
    const char *always = getenv("GMS_HOST_THREADS_ALWAYS");
    p->gov_off = always && *always == '1';
    p->gov_phase = 1;                /* pipelined first, watched */
    p->gov_n = 0;
    p->gov_t0 = 0;
    return 0;
}

uint64_t gms_engine_pipelined_edges(const gms_engine *e) { return e->pipe.windows; }
int gms_engine_on_pipe_worker(void) { return gms_eng_pipe_role == PIPE_MEM; }

/* The governor: the worker only helps when the host gives it a core of its own (on a busy
 * host the two threads wait for each other). It starts pipelined and watches how long the
 * main thread waits for the worker: while that stays under half the time of the edges, the
 * worker has a core. Else, and every PIPE_RECHECK edges anyway, a probe alternates serial
 * and pipelined edges, timing each from its start to the next one's (so the interconnect and
 * the memory side count too; alternating cancels the kernel's own phases), and the faster
 * way is used next: pipelined, watched again; or serial for a stretch that grows fourfold
 * from PIPE_SERIAL_FIRST up to PIPE_SERIAL_MAX while serial keeps winning. Probes are rare: each
 * switch moves the memory side's state between the two cores' caches. Results are the same
 * either way. Returns 1 to pipeline this edge; *timed: time the wait for the worker. */
static int pipe_gov(gms_eng_pipe *p, int *timed)
{
    *timed = 0;
    if (p->gov_off) return 1;
    if (p->gov_phase == 1) {                       /* running pipelined, watching the waits */
        uint64_t now = gms_eng_now_ns();
        if (p->gov_t0) p->gov_ns[0] += now - p->gov_t0;
        p->gov_t0 = now;
        if (++p->gov_n % PIPE_WATCH || (p->gov_ns[1] < p->gov_ns[0] / 2 && p->gov_n < PIPE_RECHECK)) {
            if (p->gov_n % PIPE_WATCH == 0) p->gov_ns[0] = p->gov_ns[1] = 0;
            *timed = 1;
            return 1;
        }
        p->gov_phase = 0;                          /* probe */
        p->gov_n = 0;
        p->gov_ns[0] = p->gov_ns[1] = 0;
    } else if (p->gov_phase == 2) {                /* serial stretch */
        if (--p->gov_left) return 0;
        p->gov_phase = 0;
        p->gov_n = 0;
        p->gov_ns[0] = p->gov_ns[1] = 0;
    }
    uint64_t now = gms_eng_now_ns();
    /* the edge before this one, unless it was one of the first PIPE_WARM (a worker that slept
     * must wake up first) */
    if (p->gov_n > PIPE_WARM) p->gov_ns[(p->gov_n - 1) & 1] += now - p->gov_t0;
    p->gov_t0 = now;
    p->gov_n++;
    /* a probe ends early when the pipelined edges are already far slower (a worker without a
     * core of its own waits for a time slice at every edge) */
    int lost = p->gov_n > PIPE_WARM + 16 && p->gov_ns[1] > 2 * p->gov_ns[0];
    if (p->gov_n <= PIPE_WARM + 2 * PIPE_PROBE && !lost) return (p->gov_n - 1) & 1;
    int par = !lost && p->gov_ns[1] < p->gov_ns[0];
    p->gov_n = 0;
    p->gov_ns[0] = p->gov_ns[1] = 0;
    if (par) {
        p->gov_phase = 1;
        p->gov_t0 = 0;
        p->gov_window = 0;
        return 1;
    }
    p->gov_window = p->gov_window ? (p->gov_window < PIPE_SERIAL_MAX / 4 ? p->gov_window * 4 : PIPE_SERIAL_MAX)
                                  : PIPE_SERIAL_FIRST;
    p->gov_phase = 2;
    p->gov_left = p->gov_window;
    return 0;
}

int gms_eng_pipe_edge(gms_engine *e, domain *d, uint64_t t)
{
    gms_eng_pipe *p = &e->pipe;
    const gms_pipe_hooks *h = &p->hooks;
    if (d->nactive < h->min_active && !p->gov_off) return 0;
    uint64_t to = t + d->period_fs, icnt_next = e->d[GMS_DOM_ICNT].next_edge_fs;
    if (icnt_next < to) to = icnt_next;
    /* anything for the worker to do before the window's end? */
    int work = 0;
    for (int k = GMS_DOM_L2; k <= GMS_DOM_DRAM; k++) {
        const domain *m = &e->d[k];
        if (gms_eng_next_instant(e, m) <= to) work = 1;
    }
    int timed;
    if (!work || !h->gate(h->ud, d->cycle + 1) || !pipe_gov(p, &timed)) return 0;
    p->to_fs = to;
    p->last_fs = 0;
    p->nlog = 0;
    p->this_instant = 1;
    p->windows++;
    uint32_t seq = atomic_load_explicit(&p->go, memory_order_relaxed) + 1;
    /* seq_cst (not release): the load of `sleeping` below must not pass this store, or a worker
     * going to sleep could miss it (pipe_wait) */
    atomic_store(&p->go, seq);
    if (atomic_load(&p->sleeping)) gms_eng_futex(&p->go, FUTEX_WAKE_PRIVATE, 1);
    gms_eng_pipe_role = PIPE_MAIN;
    gms_eng_process_edge(e, d, &e->edges, &e->ticks);
    gms_eng_pipe_role = PIPE_OFF;
    uint64_t w0 = timed ? gms_eng_now_ns() : 0;
    pipe_wait(&p->done, seq - 1, &p->main_sleeps);
    if (timed) p->gov_ns[1] += gms_eng_now_ns() - w0;
    /* join: the worker's counts, its calls into this thread's domains, its abort; if it
     * visited the window's last instant, so does this thread next */
    if (p->last_fs == to) p->force_fs = to;
    if (h->merge) h->merge(h->ud);
    e->edges += p->edges;
    e->ticks += p->ticks;
    e->progress += p->progress;
    p->edges = p->ticks = p->progress = 0;
    for (uint32_t i = 0; i < p->nlog; i++) {
        const par_entry *en = &p->log[i];
        if (en->kind == PE_ACT) gms_engine_activate(e, en->c);
        else gms_engine_wake_at(e, en->c, en->a);
    }
    if (p->aborted) { p->aborted = 0; gms_engine_abort(e, p->abort_msg); }
    if (p->hazard) gms_engine_abort(e, "internal: a core edge changed the memory side while it ran ahead (-gms_host_pipeline)");
    return 1;
}
