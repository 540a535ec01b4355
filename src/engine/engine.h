/* The engine: clock domains (core, interconnect, L2, DRAM) advanced edge by edge, each
 * ticking only the components that are active. A component that has nothing to do until
 * cycle T goes idle and asks to be woken at T (gms_engine_wake_at); another component that
 * hands it work calls gms_engine_activate. When no component is active anywhere the engine
 * jumps straight to the earliest wake-up (idle skipping). With skipping off every edge is
 * visited, and since idle components do nothing on an edge, results are identical.
 *
 * Order within one instant when several domains have an edge: DRAM, L2, ICNT, CORE
 * (replies flow up before requests flow down, as in GPGPU-Sim's gpgpu_sim::cycle).
 * Within a domain, active components tick in the order they were added. */
#ifndef GMS_ENGINE_ENGINE_H
#define GMS_ENGINE_ENGINE_H
#include <stdint.h>
#include <stdio.h>
#include "util/err.h"

typedef enum { GMS_DOM_CORE = 0, GMS_DOM_ICNT, GMS_DOM_L2, GMS_DOM_DRAM, GMS_NDOM } gms_domain;

typedef struct gms_engine gms_engine;
typedef struct gms_component gms_component;

/* tick: do one cycle of work; return 1 to stay active, 0 to go idle (after optionally
 * calling gms_engine_wake_at). report_stuck: describe what is waiting, for the watchdog. */
typedef int (*gms_tick_fn)(void *self, uint64_t cycle);
typedef void (*gms_report_fn)(void *self, FILE *out);

gms_engine *gms_engine_new(const double mhz[GMS_NDOM], int skip_idle);
void gms_engine_free(gms_engine *e);
gms_component *gms_engine_add(gms_engine *e, gms_domain d, const char *name,
                              gms_tick_fn tick, gms_report_fn report, void *self);
void gms_engine_activate(gms_engine *e, gms_component *c);
/* Host speed only: while the component before it ticks, the engine prefetches the first
 * 256 bytes at `hot` (default: the component's self), the state its tick reads first. A
 * component whose self is a small wrapper names the real state here. */
void gms_engine_set_hot(gms_engine *e, gms_component *c, const void *hot);
/* wake the component at cycle `cycle` of its own domain (>= the current cycle + 1) */
void gms_engine_wake_at(gms_engine *e, gms_component *c, uint64_t cycle);
/* drop the component's pending wake-up, if any. Only outside parallel and pipelined phases
 * (elsewhere it does nothing): for a component whose extra ticks are not idempotent */
void gms_engine_cancel_wake(gms_engine *e, gms_component *c);
/* current cycle count of a domain (number of edges that domain has passed) */
uint64_t gms_engine_cycle(const gms_engine *e, gms_domain d);
uint64_t gms_engine_time_fs(const gms_engine *e);
/* the first cycle of its domain at which component c would tick if it were active now: the
 * current edge's cycle while the serial edge loop has not reached c, else the next one (for
 * a component that sleeps through cycles whose ticks it accounts for later) */
/* the count components from `first` on (added one after another to its domain) tick in groups
 * of `group` consecutive ones, and at edge c a group's order starts at its member c % group
 * (GPGPU-Sim's simt_core_cluster::core_cycle with -gpgpu_simt_core_sim_order 1 moves the first
 * core to the end after each cycle); count a multiple of group. Serial edges only. */
void gms_engine_set_rotation(gms_engine *e, const gms_component *first, uint32_t count, uint32_t group);
uint64_t gms_engine_next_tick_cycle(const gms_engine *e, const gms_component *c);
double gms_engine_mhz(const gms_engine *e, gms_domain d);
/* call whenever forward progress happens (an instruction retires, a request completes) */
void gms_engine_progress(gms_engine *e);

/* Run until done(ud) returns 1. Returns 0, or -1 with err set when the watchdog fires:
 * no progress for `watchdog_core_cycles` core cycles while work is pending, or nothing
 * active and nothing scheduled while not done (a deadlock). The report of every stuck
 * component is written to `report` (e.g. stderr). */
int gms_engine_run(gms_engine *e, int (*done)(void *ud), void *ud, uint64_t watchdog_core_cycles,
                   FILE *report, gms_error *err);
/* Components that sleep through cycles they would tick with the host shortcuts off (the SMs'
 * -gms_sleep_blocked) are busy to the watchdog: probe(ud), asked at an instant at which no
 * component is active, says whether one sleeps so (then the time counts as stalled, as it
 * would with every such component ticked). Its state must be the core domain's (main thread). */
void gms_engine_set_sleep_probe(gms_engine *e, int (*probe)(void *ud), void *ud);
/* set by a component to stop the run early (e.g. a bad trace line read at dispatch) */
void gms_engine_abort(gms_engine *e, const char *msg);

/* ---- parallel ticking of one domain's components (-gms_host_threads) ----
 * Components marked with gms_engine_mark_parallel (the SMs) must be contiguous in their
 * domain with no other component before them. On an edge of that domain where the gate says
 * yes and enough components are active, the active marked components are split into
 * contiguous chunks that `nthreads` host threads (the caller's among them) take in turn.
 * During that phase every engine call from a tick (activate, wake_at, progress) and every
 * gms_engine_defer is logged per thread and replayed after the join on the main thread in
 * component order, so the outcome is that of the serial order. The components after the
 * marked ones (in the same domain) then tick serially with the serial loop's semantics. */
typedef void (*gms_defer_fn)(void *p, uint64_t a, uint64_t b);
typedef struct gms_par_hooks {
    int (*gate)(void *ud, uint64_t cycle);      /* may this edge tick in parallel? (main thread) */
    void (*enter)(void *ud, unsigned tid);      /* on each thread before its range */
    void (*leave)(void *ud, unsigned tid);      /* on each thread after its chunks */
    /* main thread, after the join, before the replay */
    void (*merge)(void *ud, unsigned nthreads);
    void *ud;
    uint32_t min_active;                        /* fewer active components: tick serially */
} gms_par_hooks;
/* nthreads 1: serial (at most 8). Returns 0, or -1 if the threads could not be created (stays serial). */
int gms_engine_set_parallel(gms_engine *e, gms_domain d, unsigned nthreads, const gms_par_hooks *h);
void gms_engine_mark_parallel(gms_component *c);
struct gms_par_thread;
extern _Thread_local struct gms_par_thread *gms_par_self;
/* inside a parallel phase: side effects on shared state must go through gms_engine_defer */
static inline int gms_engine_deferring(void) { return gms_par_self != NULL; }
/* call fn(p, a, b) now, or, inside a parallel phase, at the replay in component order */
void gms_engine_defer(gms_defer_fn fn, void *p, uint64_t a, uint64_t b);
/* during the replay of a parallel phase (e.g. to check that something cannot happen there) */
int gms_engine_replaying(const gms_engine *e);
/* edges of `d` ticked in parallel so far */
uint64_t gms_engine_parallel_edges(const gms_engine *e);

/* ---- pipelining (-gms_host_pipeline) ----
 * On a core edge where the gate says yes, a worker thread ticks the DRAM and L2 edges of the
 * instants up to the next interconnect or core edge while this thread ticks the core edge:
 * in the serial order those come after it, and neither reads what the other writes (the
 * interconnect, which carries everything between them, ticks between the windows). During
 * the window the worker's calls into the core and interconnect domains are logged and
 * replayed at the join; the core edge must not touch the memory side (an internal error).
 * gms_engine_cycle() gives each thread its own instant. */
typedef struct gms_pipe_hooks {
    int (*gate)(void *ud, uint64_t core_cycle);   /* main thread: may this edge be pipelined? */
    void (*enter)(void *ud);                      /* worker, before its window */
    void (*leave)(void *ud);                      /* worker, after it */
    void (*merge)(void *ud);                      /* main thread, after the join */
    /* main thread, after an instant whose core edge did not run pipelined (enter does it
     * otherwise): hand what the interconnect staged over to the memory side */
    void (*hand_over)(void *ud);
    void *ud;
    uint32_t min_active;                          /* fewer active core components: serial (not with
                                                   * GMS_HOST_THREADS_ALWAYS=1) */
} gms_pipe_hooks;
/* h NULL: off. Returns 0, or -1 if the thread could not be created (stays serial). */
int gms_engine_set_pipeline(gms_engine *e, const gms_pipe_hooks *h);
uint64_t gms_engine_pipelined_edges(const gms_engine *e);
/* is this the pipeline's worker, inside its window? */
int gms_engine_on_pipe_worker(void);

/* statistics about the engine itself */
uint64_t gms_engine_edges_visited(const gms_engine *e);
uint64_t gms_engine_ticks(const gms_engine *e);

#endif
