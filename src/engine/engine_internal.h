/* The engine's internals, shared by engine.c (components, edges, the run loop, parallel SM
 * ticks) and engine_pipe.c (the memory side ahead on a second host thread). Not for other
 * modules: they see engine.h only. */
#ifndef GMS_ENGINE_ENGINE_INTERNAL_H
#define GMS_ENGINE_ENGINE_INTERNAL_H
#include "engine/engine.h"
#include <stdatomic.h>
#include <stdint.h>
#include <pthread.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <time.h>

struct gms_component {
    const char *name;
    gms_tick_fn tick;
    gms_report_fn report;
    void *self;
    uint8_t dom;
    uint8_t active;
    uint8_t par;             /* may tick on a worker thread (gms_engine_mark_parallel) */
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
    /* host speed: what the edge loop needs of component i, in dense arrays (the component
     * structs themselves are one more host line per tick) */
    gms_tick_fn *tick;
    void **self;
    const void **hot;        /* what is prefetched before the tick (default: self) */
    uint32_t ncomps, capcomps;
    uint64_t *active_bits;
    uint32_t nwords;
    uint32_t nactive;
    uint32_t pos;            /* the component ticking in the serial edge loop (its rank in the
                              * edge's order), or UINT32_MAX outside it (gms_engine_next_tick_cycle) */
    /* gms_engine_set_rotation: components [rot_first, rot_first + rot_count) tick in groups of
     * rot_group, each group's order rotated by one every edge (rot_group 0: index order) */
    uint32_t rot_first, rot_count, rot_group;
    uint64_t *rot_snap;      /* the active bits at the start of a rotating edge */
    uint32_t rot_snap_words;
    timer *heap;
    uint32_t nheap, capheap;
} domain;

/* one entry of a thread's log during a parallel phase */
enum { PE_ACT, PE_WAKE, PE_CALL };
typedef struct par_entry {
    uint8_t kind;
    uint32_t src;            /* index of the component whose tick made the call */
    gms_component *c;
    gms_defer_fn fn;
    void *p;
    uint64_t a, b;
} par_entry;

/* the log of one chunk (a contiguous range of the edge's job list) */
struct gms_par_thread {
    uint32_t cur_src;
    par_entry *log;
    uint32_t n, cap;
    uint64_t progress;
    uint32_t lo, hi;
};

typedef struct par_worker { struct gms_engine *e; unsigned tid; pthread_t th; } par_worker;

#define PAR_MAX_CHUNKS 32

/* the pipeline's state (engine_pipe.c) */
typedef struct gms_eng_pipe {
    int on;
    gms_pipe_hooks hooks;
    pthread_t th;
    _Atomic uint32_t go, done, sleeping, main_sleeps;
    _Atomic int stop;
    uint64_t to_fs;                  /* the window: (this instant, to_fs] */
    uint64_t last_fs;                /* the last instant the worker visited */
    uint64_t force_fs;               /* the main loop's next instant (0: none) */
    int this_instant;                /* this instant's core edge ran pipelined */
    uint64_t view[GMS_NDOM];         /* the worker's now_cycle ... */
    uint64_t view_fs;                /* ... and now_fs */
    uint64_t edges, ticks, progress; /* the worker's counts, added at the join */
    par_entry *log;                  /* the worker's calls into the core and interconnect domains */
    uint32_t nlog, caplog;
    int hazard;                      /* the core edge touched a memory-side domain (a bug) */
    int aborted;
    char abort_msg[512];
    uint64_t windows;                /* core edges pipelined */
    /* governor (see pipe_gov) */
    int gov_off, gov_phase;          /* phase 0 probing, 1 pipelined (watched), 2 serial */
    uint32_t gov_n, gov_left, gov_window;
    uint64_t gov_t0;                 /* the last edge's start */
    uint64_t gov_ns[2];              /* probing: time per kind (0 serial); pipelined: edge
                                      * time and wait time since the last look */
} gms_eng_pipe;

struct gms_engine {
    domain d[GMS_NDOM];
    uint64_t now_fs;
    uint64_t now_cycle[GMS_NDOM];   /* now_fs / period_fs, computed once per instant: components
                                       ask for it millions of times, and a 64-bit division is slow */
    int skip_idle;
    uint64_t progress;
    uint64_t edges, ticks;
    int (*sleep_probe)(void *ud);    /* gms_engine_set_sleep_probe */
    void *sleep_ud;
    int aborted;
    char abort_msg[512];
    /* parallel ticking (one domain) */
    int par_dom;                     /* -1: off */
    unsigned nthreads;
    gms_par_hooks hooks;
    par_worker *thr;                 /* [nthreads], [0] is the main thread */
    struct gms_par_thread chunk[PAR_MAX_CHUNKS];
    uint32_t nchunks;
    int par_layout;                  /* 0 unchecked, 1 ok, -1 unusable (stay serial) */
    uint32_t par_lo, par_hi;         /* marked components: indices [par_lo, par_hi) */
    gms_component **job;             /* this edge's active marked components */
    uint8_t *job_ret;
    uint32_t njob, capjob;
    uint64_t *act_early;             /* activated in the replay by a component of an earlier word */
    uint64_t *start_bits;
    int replaying;
    uint32_t replay_src;
    uint64_t par_edges;
    /* governor: the threads only help when the host gives them cores; eligible edges are
     * timed per component tick, parallel and serial in turn (PAR_PROBE edges each), and the
     * faster way is used for the next PAR_EXPLOIT edges (results are the same either way) */
    int gov_off;                     /* GMS_HOST_THREADS_ALWAYS=1: every eligible edge in parallel */
    int gov_phase;                   /* 0 probe serial, 1 probe parallel, 2 exploit */
    uint32_t gov_left;
    uint32_t gov_window;             /* serial exploit length: doubles while the threads lose */
    int gov_par;                     /* in exploit: parallel? */
    int gov_time_serial;             /* this edge is a timed serial probe */
    uint64_t gov_ns[2], gov_ticks[2];  /* [0] serial, [1] parallel */
    _Atomic uint32_t go_seq, done_cnt, sleepers, main_sleeps;
    _Atomic uint64_t grab;           /* epoch << 32 | nchunks << 16 | next chunk */
    _Atomic int stop;
    /* pipelining (-gms_host_pipeline, engine_pipe.c) */
    gms_eng_pipe pipe;
    /* components come from slabs: one domain's components, added one after the other, lie
     * side by side, so the edge loop reads them in address order (host speed) */
    gms_component **slabs;
    uint32_t nslabs, slab_used;
};
#define COMP_SLAB 64

/* one edge of domain d: its timers, then its active components in order; the edge and tick
 * counts go to *edges and *ticks (the worker keeps its own until the join) */
void gms_eng_process_edge(gms_engine *e, domain *d, uint64_t *edges, uint64_t *ticks);

/* the earliest instant at which domain d can do something: its next edge if it has active
 * components (or idle skipping is off), else its earliest wake-up; UINT64_MAX if neither */
static inline uint64_t gms_eng_next_instant(const gms_engine *e, const domain *d)
{
    if (d->nactive || !e->skip_idle) return d->next_edge_fs;
    return d->nheap ? d->heap[0].cycle * d->period_fs : UINT64_MAX;
}
/* at instant t, a domain whose edges before t were skipped (idle) catches up */
static inline void gms_eng_catch_up(domain *d, uint64_t t)
{
    if (d->next_edge_fs < t) {
        d->cycle = (t - 1) / d->period_fs;
        d->next_edge_fs = (d->cycle + 1) * d->period_fs;
    }
}
void gms_eng_deactivate(domain *d, gms_component *c);

/* pipelining (engine_pipe.c). The role says which domains this thread may change now:
 * PIPE_MAIN (during a window, the main thread: core and interconnect), PIPE_MEM (the
 * worker: DRAM and L2); PIPE_OFF: no window, everything. */
enum { PIPE_OFF = 0, PIPE_MAIN, PIPE_MEM };
extern _Thread_local int gms_eng_pipe_role;
extern _Thread_local const uint64_t *gms_eng_now_view;   /* the worker's cycles, else NULL */
static inline int gms_eng_pipe_owns(int role, unsigned dom)
{
    return role == PIPE_MAIN ? (dom == GMS_DOM_CORE || dom == GMS_DOM_ICNT) : (dom == GMS_DOM_DRAM || dom == GMS_DOM_L2);
}
/* a call into a domain the thread does not own: the worker's are replayed at the join */
void gms_eng_pipe_log(gms_engine *e, par_entry en);
/* core edge d at instant t with the memory side's next edges on the worker: 0 if it should
 * be done serially instead (nothing has happened then) */
int gms_eng_pipe_edge(gms_engine *e, domain *d, uint64_t t);
void gms_eng_pipe_stop(gms_engine *e);

static inline long gms_eng_futex(_Atomic uint32_t *addr, int op, uint32_t val)
{
    return syscall(SYS_futex, (uint32_t *)addr, op, val, NULL, NULL, 0);
}
static inline void gms_eng_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}
static inline uint64_t gms_eng_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#endif
