/* Engine pipelining (-gms_host_pipeline, engine_pipe.c): the DRAM and L2 edges up to the
 * next interconnect or core edge run on a worker thread during a core edge. A toy system
 * whose four domains talk only through the interconnect must tick at the same cycles, see
 * the same cycles and count the same edges as the serial engine; a core edge that reaches
 * into the memory side is an internal error, not a silent difference. */
#include "test.h"
#include "engine/engine.h"
#include <stdlib.h>

#define TOKENS 200

typedef struct toysys {
    gms_engine *e;
    gms_component *core, *icnt, *l2, *dram;
    /* queues between the domains; each is written and read only on edges that the serial
     * order separates by an interconnect edge */
    int req, at_l2, at_dram, dram_done, rep, at_core;
    int sent, received;
    /* per domain: ticks and a checksum of the cycles they saw */
    uint64_t n[GMS_NDOM], sum[GMS_NDOM];
    uint64_t l2_core_view;   /* sum of the core cycle the L2 ticks saw */
    uint64_t worker_ticks;   /* L2 and DRAM ticks that ran on the worker */
    int reach;               /* the core reaches into the L2 (the hazard test) */
    _Atomic uint64_t windows;   /* the worker's windows (its enter hook) */
} toysys;

static void seen(toysys *s, gms_domain d, uint64_t cycle)
{
    s->n[d]++;
    s->sum[d] += cycle * s->n[d];
}

static int core_tick(void *self, uint64_t cycle)
{
    toysys *s = self;
    seen(s, GMS_DOM_CORE, cycle);
    if (s->reach) gms_engine_activate(s->e, s->l2);
    s->received += s->at_core;
    s->at_core = 0;
    if (s->sent < TOKENS && cycle % 3 == 0) {
        s->req++;
        s->sent++;
        gms_engine_progress(s->e);
        gms_engine_activate(s->e, s->icnt);
    }
    return s->sent < TOKENS || s->received < TOKENS;
}

static int icnt_tick(void *self, uint64_t cycle)
{
    toysys *s = self;
    seen(s, GMS_DOM_ICNT, cycle);
    if (s->req) { s->at_l2 += s->req; s->req = 0; gms_engine_activate(s->e, s->l2); }
    if (s->rep) { s->at_core += s->rep; s->rep = 0; gms_engine_activate(s->e, s->core); }
    return 0;
}

static int l2_tick(void *self, uint64_t cycle)
{
    toysys *s = self;
    seen(s, GMS_DOM_L2, cycle);
    s->l2_core_view += gms_engine_cycle(s->e, GMS_DOM_CORE);
    s->worker_ticks += (uint64_t)gms_engine_on_pipe_worker();
    if (s->at_l2) { s->at_l2--; s->at_dram++; gms_engine_activate(s->e, s->dram); }
    if (s->dram_done) { s->dram_done--; s->rep++; gms_engine_activate(s->e, s->icnt); }
    if (s->at_l2 || s->dram_done) return 1;
    return 0;
}

static int dram_tick(void *self, uint64_t cycle)
{
    toysys *s = self;
    seen(s, GMS_DOM_DRAM, cycle);
    s->worker_ticks += (uint64_t)gms_engine_on_pipe_worker();
    if (!s->at_dram) return 0;
    /* a request takes 7 DRAM cycles: sleep until then */
    if (cycle % 7) { gms_engine_wake_at(s->e, s->dram, cycle + 7 - cycle % 7); return 0; }
    s->at_dram--;
    s->dram_done++;
    gms_engine_activate(s->e, s->l2);
    return s->at_dram > 0;
}

static int toy_restart;   /* toy_run: start the pipeline's worker twice */

static int toy_done(void *ud) { toysys *s = ud; return s->received == TOKENS; }
/* as gpu.c's gate: not on an edge after which the run may be over (the serial loop stops
 * there, and the worker must not have run ahead) */
static int gate(void *ud, uint64_t cycle)
{
    const toysys *s = ud;
    (void)cycle;
    return s->received + s->at_core < TOKENS;
}
static void nothing(void *ud) { (void)ud; }
static void enter(void *ud) { toysys *s = ud; s->windows++; }

/* one run; pipelined: with the worker on every edge that can (no governor) */
static int toy_run(toysys *s, const double mhz[GMS_NDOM], int skip, int pipelined, int reach, gms_error *err,
                   uint64_t *edges, uint64_t *ticks, uint64_t *pipe_edges)
{
    memset(s, 0, sizeof *s);
    s->reach = reach;
    s->e = gms_engine_new(mhz, skip);
    s->core = gms_engine_add(s->e, GMS_DOM_CORE, "core", core_tick, NULL, s);
    s->icnt = gms_engine_add(s->e, GMS_DOM_ICNT, "icnt", icnt_tick, NULL, s);
    s->l2 = gms_engine_add(s->e, GMS_DOM_L2, "l2", l2_tick, NULL, s);
    s->dram = gms_engine_add(s->e, GMS_DOM_DRAM, "dram", dram_tick, NULL, s);
    if (pipelined) {
        gms_pipe_hooks h = { .gate = gate, .enter = enter, .merge = nothing, .hand_over = nothing, .ud = s, .min_active = 1 };
        setenv("GMS_HOST_THREADS_ALWAYS", "1", 1);
        int rc = gms_engine_set_pipeline(s->e, &h);
        if (!rc && toy_restart) {   /* stop the worker and start a new one */
            gms_engine_set_pipeline(s->e, NULL);
            rc = gms_engine_set_pipeline(s->e, &h);
        }
        unsetenv("GMS_HOST_THREADS_ALWAYS");
        if (rc) { gms_engine_free(s->e); return 1; }   /* one CPU only: nothing to compare */
    }
    gms_engine_activate(s->e, s->core);
    int rc = gms_engine_run(s->e, toy_done, s, 100000, NULL, err);
    *edges = gms_engine_edges_visited(s->e);
    *ticks = gms_engine_ticks(s->e);
    *pipe_edges = gms_engine_pipelined_edges(s->e);
    gms_engine_free(s->e);
    return rc;
}

TEST(engine_pipe_same_ticks_as_serial)
{
    /* equal clocks (every L2 edge shares an instant with a core edge), and mixed ones */
    static const double clocks[][GMS_NDOM] = { { 1000, 1000, 1000, 850 }, { 700, 700, 700, 924 }, { 1200, 900, 1000, 600 } };
    for (size_t c = 0; c < sizeof clocks / sizeof clocks[0]; c++)
        for (int skip = 0; skip <= 1; skip++) {
            toysys a, b;
            gms_error err = {0};
            uint64_t ea, ta, pa, eb, tb, pb;
            CHECK_EQ(toy_run(&a, clocks[c], skip, 0, 0, &err, &ea, &ta, &pa), 0);
            int rc = toy_run(&b, clocks[c], skip, 1, 0, &err, &eb, &tb, &pb);
            if (rc == 1) SKIP("one CPU: no worker thread");
            CHECK_EQ(rc, 0);
            CHECK_EQ(a.received, TOKENS);
            CHECK_EQ(b.received, TOKENS);
            for (int d = 0; d < GMS_NDOM; d++) {
                CHECK_EQ(a.n[d], b.n[d]);
                CHECK_EQ(a.sum[d], b.sum[d]);
            }
            CHECK_EQ(a.l2_core_view, b.l2_core_view);
            CHECK_EQ(ea, eb);
            CHECK_EQ(ta, tb);
            CHECK_EQ(pa, 0);
            CHECK(pb > 0);
            CHECK_EQ(a.worker_ticks, 0);
            CHECK(b.worker_ticks > 0);
        }
}

TEST(engine_pipe_core_reaching_into_memory_side_is_an_error)
{
    static const double mhz[GMS_NDOM] = { 1000, 1000, 1000, 1000 };
    toysys s;
    gms_error err = {0};
    uint64_t e, t, p;
    int rc = toy_run(&s, mhz, 1, 1, 1, &err, &e, &t, &p);
    if (rc == 1) SKIP("one CPU: no worker thread");
    CHECK_EQ(rc, -1);
    CHECK_CONTAINS(err.msg, "internal: a core edge changed the memory side");
    /* serially the same system runs to the end */
    CHECK_EQ(toy_run(&s, mhz, 1, 0, 1, &err, &e, &t, &p), 0);
}

/* a pipeline set up again (its worker stopped and a new one started) runs as the first */
TEST(engine_pipe_restarted_worker_same_ticks)
{
    static const double mhz[GMS_NDOM] = { 1000, 1000, 1000, 850 };
    toysys a, b;
    gms_error err = {0};
    uint64_t ea, ta, pa, eb, tb, pb;
    CHECK_EQ(toy_run(&a, mhz, 1, 0, 0, &err, &ea, &ta, &pa), 0);
    toy_restart = 1;
    int rc = toy_run(&b, mhz, 1, 1, 0, &err, &eb, &tb, &pb);
    toy_restart = 0;
    if (rc == 1) SKIP("one CPU: no worker thread");
    CHECK_EQ(rc, 0);
    for (int d = 0; d < GMS_NDOM; d++) CHECK_EQ(a.sum[d], b.sum[d]);
    CHECK_EQ(ea, eb);
    CHECK_EQ(ta, tb);
    CHECK(pb > 0);
    CHECK_EQ(b.windows, pb);   /* the new worker ran no window of the old one's */
}

/* GMS_HOST_CPUS (set by the sweep runners for runs that share the host): with one CPU to
 * count on there is no worker; with two there is, and the ticks are the serial ones */
TEST(engine_pipe_host_cpus_one_means_no_worker)
{
    static const double mhz[GMS_NDOM] = { 1000, 1000, 1000, 850 };
    toysys a, b;
    gms_error err = {0};
    uint64_t ea, ta, pa, eb, tb, pb;
    setenv("GMS_HOST_CPUS", "1", 1);
    int rc = toy_run(&a, mhz, 1, 1, 0, &err, &ea, &ta, &pa);
    setenv("GMS_HOST_CPUS", "2", 1);
    int rc2 = toy_run(&b, mhz, 1, 1, 0, &err, &eb, &tb, &pb);
    unsetenv("GMS_HOST_CPUS");
    CHECK_EQ(rc, 1);   /* refused: toy_run reports "no worker" */
    if (rc2 == 1) SKIP("one CPU: no worker thread");
    CHECK_EQ(rc2, 0);
    CHECK(pb > 0);
}
