/* Engine: clock domains, idle skipping, wake-ups, watchdog. */
#include "test.h"
#include "engine/engine.h"
#include <stdlib.h>

typedef struct toy {
    gms_engine *e;
    gms_component *c;
    uint64_t ticks_at[64];
    int nticks;
    int work;          /* ticks of work left */
    uint64_t sleep_to; /* after the work, sleep until this cycle */
    int progress;
} toy;

static int toy_tick(void *self, uint64_t cycle)
{
    toy *t = self;
    if (t->nticks < 64) t->ticks_at[t->nticks] = cycle;
    t->nticks++;
    if (t->progress) gms_engine_progress(t->e);
    if (--t->work > 0) return 1;
    if (t->sleep_to) { gms_engine_wake_at(t->e, t->c, t->sleep_to); t->sleep_to = 0; t->work = 1; }
    return 0;
}

static int toy_done(void *ud) { toy *t = ud; return t->work <= 0 && !t->sleep_to && t->nticks > 0; }

TEST(engine_idle_skip_jumps_to_wakeup)
{
    double mhz[GMS_NDOM] = { 1000, 1000, 1000, 1000 };
    for (int skip = 0; skip <= 1; skip++) {
        gms_engine *e = gms_engine_new(mhz, skip);
        toy t = { .e = e, .work = 3, .sleep_to = 1000, .progress = 1 };
        t.c = gms_engine_add(e, GMS_DOM_CORE, "toy", toy_tick, NULL, &t);
        gms_engine_activate(e, t.c);
        gms_error err = {0};
        CHECK_EQ(gms_engine_run(e, toy_done, &t, 100000, NULL, &err), 0);
        /* ticks at cycles 1,2,3 then the wake-up at 1000: with or without skipping */
        CHECK_EQ(t.nticks, 4);
        CHECK_EQ(t.ticks_at[0], 1);
        CHECK_EQ(t.ticks_at[2], 3);
        CHECK_EQ(t.ticks_at[3], 1000);
        CHECK_EQ(gms_engine_cycle(e, GMS_DOM_CORE), 1000);
        /* skipping visits a handful of edges; no skipping visits every edge of 4 domains */
        if (skip) CHECK(gms_engine_edges_visited(e) < 50);
        else CHECK(gms_engine_edges_visited(e) >= 4000);
        gms_engine_free(e);
    }
}

TEST(engine_clock_ratio)
{
    /* core 1000 MHz, DRAM 500 MHz: after 100 core cycles the DRAM domain has seen 50 edges */
    double mhz[GMS_NDOM] = { 1000, 1000, 1000, 500 };
    gms_engine *e = gms_engine_new(mhz, 0);
    toy t = { .e = e, .work = 100, .progress = 1 };
    t.c = gms_engine_add(e, GMS_DOM_CORE, "toy", toy_tick, NULL, &t);
    gms_engine_activate(e, t.c);
    gms_error err = {0};
    CHECK_EQ(gms_engine_run(e, toy_done, &t, 0, NULL, &err), 0);
    CHECK_EQ(gms_engine_cycle(e, GMS_DOM_CORE), 100);
    CHECK_EQ(gms_engine_cycle(e, GMS_DOM_DRAM), 50);
    gms_engine_free(e);
}

static int never_done(void *ud) { (void)ud; return 0; }
static int spin_tick(void *self, uint64_t cycle) { (void)self; (void)cycle; return 1; }
static void spin_report(void *self, FILE *out) { (void)self; fprintf(out, "    spinner: holding request 42\n"); }

/* an engine whose only component spins (always active, no progress) in domain d */
static gms_engine *spinner_engine(const double mhz[GMS_NDOM], gms_domain d)
{
    gms_engine *e = gms_engine_new(mhz, 1);
    gms_engine_activate(e, gms_engine_add(e, d, "spinner", spin_tick, spin_report, NULL));
    return e;
}

TEST(engine_watchdog_fires_on_stall)
{
    double mhz[GMS_NDOM] = { 1000, 1000, 1000, 1000 };
    gms_engine *e = spinner_engine(mhz, GMS_DOM_CORE);
    gms_error err = {0};
    FILE *rep = tmpfile();
    CHECK(gms_engine_run(e, never_done, NULL, 500, rep, &err) != 0);
    CHECK_CONTAINS(err.msg, "no progress for 500 core cycles");
    rewind(rep);
    char buf[2048] = {0};
    size_t n = fread(buf, 1, sizeof buf - 1, rep);
    buf[n] = 0;
    CHECK_CONTAINS(buf, "holding request 42");
    fclose(rep);
    gms_engine_free(e);
}

/* a component spinning in the DRAM domain while no core component is active is a stall too
 * (core edges are not visited then): the watchdog counts core cycles of time */
TEST(engine_watchdog_fires_on_stall_outside_the_core_domain)
{
    double mhz[GMS_NDOM] = { 1447, 1000, 1000, 850 };
    gms_engine *e = spinner_engine(mhz, GMS_DOM_DRAM);
    gms_error err = {0};
    CHECK(gms_engine_run(e, never_done, NULL, 500, NULL, &err) != 0);
    CHECK_CONTAINS(err.msg, "no progress for 500 core cycles");
    /* just over 500 core cycles (1447 MHz) of DRAM edges (850 MHz): 500 * 850 / 1447 = 293.7,
     * the first edge's interval not counted, and the check at the edge after */
    CHECK(gms_engine_cycle(e, GMS_DOM_DRAM) >= 294);
    CHECK(gms_engine_cycle(e, GMS_DOM_DRAM) <= 297);
    gms_engine_free(e);
}

TEST(engine_deadlock_is_reported)
{
    double mhz[GMS_NDOM] = { 1000, 1000, 1000, 1000 };
    gms_engine *e = gms_engine_new(mhz, 1);
    gms_error err = {0};
    CHECK(gms_engine_run(e, never_done, NULL, 500, NULL, &err) != 0);
    CHECK_CONTAINS(err.msg, "deadlock");
    gms_engine_free(e);
}

/* gms_engine_next_tick_cycle: inside an edge, a component the loop has not reached yet would
 * tick in this edge, one it has passed (or itself) in the next; outside an edge, the next.
 * Three components; the middle one asks at cycle 5 about all three. */
typedef struct probe {
    gms_engine *e;
    gms_component *c[3];
    uint64_t seen[3];
    int ticks;
} probe;

static int probe_tick(void *self, uint64_t cycle)
{
    probe *p = self;
    if (cycle == 5)
        for (int i = 0; i < 3; i++) p->seen[i] = gms_engine_next_tick_cycle(p->e, p->c[i]);
    return ++p->ticks < 5;
}
static int quiet_tick(void *self, uint64_t cycle) { (void)self; return cycle < 5; }
static int probe_done(void *ud) { probe *p = ud; return p->ticks >= 5; }

TEST(engine_next_tick_cycle_inside_and_outside_an_edge)
{
    double mhz[GMS_NDOM] = { 1000, 1000, 1000, 1000 };
    gms_engine *e = gms_engine_new(mhz, 1);
    probe p = { .e = e };
    p.c[0] = gms_engine_add(e, GMS_DOM_CORE, "before", quiet_tick, NULL, NULL);
    p.c[1] = gms_engine_add(e, GMS_DOM_CORE, "probe", probe_tick, NULL, &p);
    p.c[2] = gms_engine_add(e, GMS_DOM_CORE, "after", quiet_tick, NULL, NULL);
    for (int i = 0; i < 3; i++) gms_engine_activate(e, p.c[i]);
    gms_error err = {0};
    CHECK_EQ(gms_engine_run(e, probe_done, &p, 100000, NULL, &err), 0);
    CHECK_EQ(p.seen[0], 6);   /* ticked at 5 already */
    CHECK_EQ(p.seen[1], 6);   /* itself */
    CHECK_EQ(p.seen[2], 5);   /* still to tick at 5 */
    CHECK_EQ(gms_engine_cycle(e, GMS_DOM_CORE), 5);
    CHECK_EQ(gms_engine_next_tick_cycle(e, p.c[2]), 6);   /* the edge is over */
    gms_engine_free(e);
}

/* gms_engine_set_rotation (a cluster's cores under -gpgpu_simt_core_sim_order 1): components
 * 1-4 in groups of two, each group's order rotated by one every edge; 0 and 5 in place */
typedef struct { int id; int *log; int *n; gms_engine *e; gms_component **c; uint64_t seen[2]; } rot_toy;
static int rot_tick(void *self, uint64_t cycle)
{
    rot_toy *t = self;
    if (*t->n < 64) t->log[*t->n] = t->id;
    (*t->n)++;
    /* on edge 2 component 2 ticks before 1: 1 is still to tick at this cycle, 3 (after it in
     * the next group) too, 0 is done (gms_engine_next_tick_cycle by the edge's order) */
    if (t->id == 2 && cycle == 2) {
        t->seen[0] = gms_engine_next_tick_cycle(t->e, t->c[1]);
        t->seen[1] = gms_engine_next_tick_cycle(t->e, t->c[0]);
    }
    gms_engine_progress(t->e);
    return 1;
}
static int rot_done(void *ud) { return *(const int *)ud >= 18; }

TEST(engine_rotation_orders_each_group_by_edge)
{
    double mhz[GMS_NDOM] = { 1000, 1000, 1000, 1000 };
    gms_engine *e = gms_engine_new(mhz, 0);
    int log[64], n = 0;
    rot_toy t[6];
    gms_component *c[6];
    for (int i = 0; i < 6; i++) {
        t[i] = (rot_toy){ i, log, &n, e, c, { 0, 0 } };
        c[i] = gms_engine_add(e, GMS_DOM_CORE, "rot", rot_tick, NULL, &t[i]);
        gms_engine_activate(e, c[i]);
    }
    gms_engine_set_rotation(e, c[1], 4, 2);
    gms_error err = {0};
    CHECK_EQ(gms_engine_run(e, rot_done, &n, 1000, NULL, &err), 0);   /* three core edges */
    static const int want[18] = { 0, 1, 2, 3, 4, 5,    /* edge 1: index order */
                                  0, 2, 1, 4, 3, 5,    /* edge 2: each pair's second first */
                                  0, 1, 2, 3, 4, 5 };
    CHECK_EQ(n, 18);
    for (int i = 0; i < 18 && i < n; i++) CHECK_EQ(log[i], want[i]);
    CHECK_EQ(t[2].seen[0], 2);   /* component 1 ticks later in edge 2 */
    CHECK_EQ(t[2].seen[1], 3);   /* component 0 has ticked: next at edge 3 */
    gms_engine_free(e);
}
