/* The memory partition against GPGPU-Sim's memory_sub_partition / gpgpu_sim::cycle (the
 * audit items of docs/validation.md, "Audits against GPGPU-Sim's source"):
 *  - replies leave the L2->icnt queue once per interconnect cycle (gpgpu_sim::cycle pops every
 *    sub-partition's top() in its ICNT block), not once per L2 cycle;
 *  - a fetch-on-write L2 replies to the write on the turn that hands out its allocate read
 *    (cache_cycle pushes original_wr_mf), not a turn later;
 *  - a miss whose dirty victim is written back holds the data port while the victim is read
 *    out (baseline_cache::bandwidth_management::use_data_port). */
#include "test.h"
#include "config/params.h"
#include "engine/engine.h"
#include "mem/l2_slice.h"
#include "mem/l2q.h"
#include "mem/memsys.h"
#include <stdlib.h>

/* ---- (a) the L2->icnt pops follow the interconnect clock ---- */

#define NREQ 8

/* one sub-partition gets NREQ reads; the reply side refuses everything before core cycle
 * `open_at`, so the replies pile up in the slice's L2->icnt queue. A stand-in for the
 * interconnect (its own interconnect-domain component, added after the memory side as the GPU
 * adds its interconnect) takes each reply offered into its input and moves it on its next
 * tick, noting the interconnect cycle; it goes idle when empty, as the real one does */
typedef struct rsrc {
    gms_engine *eng;
    gms_memsys ms;
    gms_mreq_pool pool;
    gms_component *net;
    uint32_t sp, pushed, got, held;
    gms_mreq *in[NREQ];
    uint64_t open_at, icnt_period_fs;
    uint64_t at_icnt[NREQ];
} rsrc;

static int rs_reply(void *ud, uint32_t subpart, gms_mreq *r)
{
    (void)subpart;
    rsrc *s = ud;
    if (gms_engine_cycle(s->eng, GMS_DOM_CORE) < s->open_at || s->held == NREQ) return 0;
    s->in[s->held++] = r;
    gms_engine_activate(s->eng, s->net);
    return 1;
}

static int rs_net_tick(void *self, uint64_t cycle)
{
    (void)cycle;
    rsrc *s = self;
    for (uint32_t i = 0; i < s->held; i++) {
        /* from the time (the cycle count of a domain that was idle lags) */
        if (s->got < NREQ) s->at_icnt[s->got] = gms_engine_time_fs(s->eng) / s->icnt_period_fs;
        s->got++;
        gms_mreq_release(&s->pool, s->in[i]);
    }
    s->held = 0;
    return 0;
}

static int rs_tick(void *self, uint64_t cycle)
{
    rsrc *s = self;
    if (s->pushed < NREQ && s->ms.can_accept(s->ms.self, s->sp)) {
        gms_mreq *r = gms_mreq_alloc(&s->pool);
        r->addr = 0x7f0000000000ull + 4096ull * s->pushed * 64;
        r->bytes = 32;
        r->sector_mask = 1;
        r->kind = GMS_MREQ_READ;
        r->access = GMS_ACC_GLOBAL_R;
        r->t_issue = cycle;
        s->ms.push(s->ms.self, s->sp, r);
        s->pushed++;
    }
    return s->pushed < NREQ;
}

static int rs_done(void *ud) { return ((rsrc *)ud)->got == NREQ; }

/* the interconnect cycles at which the NREQ replies moved, with clocks "core:icnt:l2:dram" */
static int replies_by_icnt_cycle(const char *clocks, rsrc *s)
{
    gms_error e = { 0 };
    gms_params *p = gms_params_new();
    int rc = gms_params_set(p, "gpgpu_clock_domains", clocks, &e) || gms_params_set(p, "gpgpu_n_mem", "2", &e) ||
             gms_params_set(p, "gpgpu_n_sub_partition_per_mchannel", "2", &e) || gms_params_finalize(p, &e);
    if (rc) { printf("    %s\n", e.msg); gms_params_free(p); return -1; }
    memset(s, 0, sizeof *s);
    double mhz[GMS_NDOM] = { p->core.mhz_core, p->core.mhz_icnt, p->core.mhz_l2, p->core.mhz_dram };
    s->eng = gms_engine_new(mhz, 1);
    gms_mreq_pool_init(&s->pool);
    s->sp = 1;
    s->icnt_period_fs = (uint64_t)(1e9 / p->core.mhz_icnt + 0.5);
    s->open_at = 3000;   /* every read is back and waiting by then */
    rc = gms_memsys_create(&s->ms, p, s->eng, &s->pool, rs_reply, s, &e);
    if (!rc) {
        s->net = gms_engine_add(s->eng, GMS_DOM_ICNT, "net", rs_net_tick, NULL, s);
        s->ms.kernel_time(s->ms.self, 1);   /* the first kernel starts (after the network exists) */
        gms_component *c = gms_engine_add(s->eng, GMS_DOM_CORE, "source", rs_tick, NULL, s);
        gms_engine_activate(s->eng, c);
        rc = gms_engine_run(s->eng, rs_done, s, 100000, stderr, &e);
        s->ms.free(s->ms.self);
    }
    gms_engine_free(s->eng);
    gms_mreq_pool_free(&s->pool);
    gms_params_free(p);
    return rc;
}

/* the interconnect at twice the L2 clock (the GTX 1080 Ti's ratio): a backlog of replies
 * drains one per interconnect cycle, two per L2 cycle; it drained one per L2 cycle */
TEST(l2_replies_leave_once_per_icnt_cycle_with_a_faster_icnt)
{
    rsrc s;
    REQUIRE(!replies_by_icnt_cycle("1000.0:2000.0:1000.0:1000.0", &s));
    CHECK_EQ(s.got, NREQ);
    /* the first when the reply side opens (core cycle 3000: interconnect cycle 6000), then one
     * every interconnect cycle */
    CHECK_EQ(s.at_icnt[0], 6000);
    for (int i = 1; i < NREQ; i++) CHECK_EQ(s.at_icnt[i] - s.at_icnt[i - 1], 1);
}

/* the interconnect at half the L2 clock: one reply per interconnect cycle (every other L2
 * cycle); the L2's own cycle sent two per interconnect cycle */
TEST(l2_replies_wait_for_the_icnt_edge_with_a_slower_icnt)
{
    rsrc s;
    REQUIRE(!replies_by_icnt_cycle("1000.0:500.0:1000.0:1000.0", &s));
    CHECK_EQ(s.got, NREQ);
    CHECK_EQ(s.at_icnt[0], 1500);
    for (int i = 1; i < NREQ; i++) CHECK_EQ(s.at_icnt[i] - s.at_icnt[i - 1], 1);
}

/* equal clocks (every preset but the GTX 1080 Ti's): one per cycle, from the opening cycle */
TEST(l2_replies_once_per_cycle_with_equal_clocks)
{
    rsrc s;
    REQUIRE(!replies_by_icnt_cycle("1000.0:1000.0:1000.0:1000.0", &s));
    CHECK_EQ(s.got, NREQ);
    CHECK_EQ(s.at_icnt[0], 3000);
    for (int i = 1; i < NREQ; i++) CHECK_EQ(s.at_icnt[i] - s.at_icnt[i - 1], 1);
}

/* ---- (c) fetch-on-write replies on the allocate read's turn ---- */

typedef struct sink { gms_mreq *v[8]; uint64_t at[8]; int kind[8]; int n; uint64_t now; } sink;

static int on_reply(void *ud, uint32_t subpart, gms_mreq *r)
{
    (void)subpart;
    sink *k = ud;
    if (k->n < 8) { k->v[k->n] = r; k->at[k->n] = k->now; k->kind[k->n] = r->kind; }
    k->n++;
    return 1;
}

static gms_mreq *mk(gms_mreq_pool *p, uint64_t addr, int write, uint32_t bytes)
{
    gms_mreq *r = gms_mreq_alloc(p);
    r->addr = addr;
    r->bytes = bytes;
    r->sector_mask = (uint8_t)(1u << ((addr >> 5) & 3));
    r->kind = write ? GMS_MREQ_WRITE : GMS_MREQ_READ;
    r->access = write ? GMS_ACC_GLOBAL_W : GMS_ACC_GLOBAL_R;
    return r;
}

/* a sectored write-back L2 with fetch-on-write, no ROP delay; `first` arrives at cycle 0 and
 * `second` (if any) at cycle 1; DRAM answers a read `lat` cycles after it leaves the slice.
 * The reply cycles go to k. */
static void fow_run(gms_mreq *(*reqs)(gms_mreq_pool *, int), sink *k, int *live)
{
    *live = -1;   /* a config that does not parse: no run, the callers' checks fail */
    memset(k, 0, sizeof *k);
    gms_mreq_pool p;
    gms_mreq_pool_init(&p);
    gms_cache_config cc;
    gms_error e = { 0 };
    if (gms_cache_config_parse("S:4:128:4,L:B:m:F:L,A:8:4,8", "-gpgpu_cache:dl2", &cc, &e)) {
        printf("    %s\n", e.msg);
        gms_mreq_pool_free(&p);
        return;
    }
    gms_l2_slice_cfg cfg = {
        .id = 0, .cache = &cc, .rop_latency = 0, .q_icnt_l2 = 8, .q_l2_dram = 8, .q_dram_l2 = 8, .q_l2_icnt = 8,
        .inq = gms_l2q_find("fifo"), .gate_block = 1, .reply = on_reply, .reply_ud = k,
    };
    gms_l2_slice *s = gms_l2_slice_new(&cfg, &p);
    gms_mreq *dram = NULL;
    uint64_t back_at = 0;
    const uint64_t lat = 10;
    for (k->now = 0; k->now < 100; k->now++) {
        for (int i = 0; i < 2; i++)
            if (k->now == (uint64_t)i) {
                gms_mreq *r = reqs(&p, i);
                if (r) gms_l2_slice_push(s, r, k->now);
            }
        gms_l2_slice_cycle(s, k->now);
        gms_mreq *m = gms_l2_slice_to_dram_pop(s);
        if (m) { dram = m; back_at = k->now + lat; }
        if (dram && k->now == back_at) { gms_l2_slice_from_dram_push(s, dram); dram = NULL; }
    }
    for (int i = 0; i < k->n && i < 8; i++) gms_mreq_release(&p, k->v[i]);
    gms_l2_slice_free(s);
    *live = (int)p.live;
    gms_mreq_pool_free(&p);
}

static gms_mreq *read_only(gms_mreq_pool *p, int i) { return i == 0 ? mk(p, 0x4020, 0, 32) : NULL; }
static gms_mreq *write_only(gms_mreq_pool *p, int i) { return i == 0 ? mk(p, 0x4020, 1, 4) : NULL; }
static gms_mreq *write_then_read(gms_mreq_pool *p, int i) { return mk(p, 0x4020, i == 0, i == 0 ? 4 : 32); }

/* a partial write's fetch comes back like a read's: the write is acknowledged in the cycle a
 * read miss of the sector would be answered. Cycle by cycle (the slice's step 0 is the reply):
 * 0 the request enters the input queue (ROP 0), 1 it misses, 2 its fetch leaves (L2->DRAM),
 * 12 DRAM answers, 13 the fill, 14 the hand-out, 15 the reply. The write's allocate read took
 * a turn of its own before: 16. */
TEST(l2_fetch_on_write_acks_on_the_allocate_reads_turn)
{
    sink rd, wr;
    int live;
    fow_run(read_only, &rd, &live);
    CHECK_EQ(live, 0);
    fow_run(write_only, &wr, &live);
    CHECK_EQ(live, 0);
    REQUIRE(rd.n == 1 && wr.n == 1);
    CHECK_EQ(rd.at[0], 15);
    CHECK_EQ(wr.at[0], 15);
}

/* a read of the sector behind the partial write merges into its MSHR entry: GPGPU-Sim's entry
 * holds the allocate read (carrying the write) and the read, two turns: the write's ack at 15,
 * the read's reply at 16 (they were 16 and 17) */
TEST(l2_fetch_on_write_read_behind_the_write_one_turn_later)
{
    sink k;
    int live;
    fow_run(write_then_read, &k, &live);
    CHECK_EQ(live, 0);
    REQUIRE(k.n == 2);
    CHECK_EQ(k.kind[0], GMS_MREQ_WRITE);
    CHECK_EQ(k.at[0], 15);
    CHECK_EQ(k.at[1], 16);
}

/* ---- (d) a dirty victim's write-back holds the L2's data port ---- */

/* 2 sets x 1 way, write-back, lazy fetch-on-read, a 32 B data port: A (set 0) is written whole
 * (dirty) at cycle 0; at cycle 10 a read of B (set 0) and a whole-line write of C (set 1)
 * arrive. B enters the input queue at 10 and misses at 11, evicting A: reading A's 128 B out
 * for its write-back holds the data port 128 / 32 = 4 cycles (GPGPU-Sim's use_data_port), so
 * C, in the queue from 11, accesses at 15 (was 12: nothing charged) and its ack leaves at 16. */
TEST(l2_victim_writeback_holds_the_data_port)
{
    gms_mreq_pool p;
    gms_mreq_pool_init(&p);
    gms_cache_config cc;
    gms_error e = { 0 };
    REQUIRE(!gms_cache_config_parse("N:2:128:1,L:B:m:L:L,A:4:4,8:0,32", "-gpgpu_cache:dl2", &cc, &e));
    sink k;
    memset(&k, 0, sizeof k);
    gms_l2_slice_cfg cfg = {
        .id = 0, .cache = &cc, .rop_latency = 0, .q_icnt_l2 = 8, .q_l2_dram = 8, .q_dram_l2 = 8, .q_l2_icnt = 8,
        .inq = gms_l2q_find("fifo"), .gate_block = 1, .reply = on_reply, .reply_ud = &k,
    };
    gms_l2_slice *s = gms_l2_slice_new(&cfg, &p);
    uint64_t c_at = 0;
    int wbs = 0;
    for (k.now = 0; k.now < 40; k.now++) {
        if (k.now == 0) gms_l2_slice_push(s, mk(&p, 0x1000, 1, 128), k.now);
        if (k.now == 10) {
            gms_l2_slice_push(s, mk(&p, 0x2000, 0, 128), k.now);
            gms_l2_slice_push(s, mk(&p, 0x1080, 1, 128), k.now);
        }
        int before = k.n;
        gms_l2_slice_cycle(s, k.now);
        if (k.now > 10 && k.n > before && !c_at) c_at = k.now;
        gms_mreq *m;
        while ((m = gms_l2_slice_to_dram_pop(s))) {   /* DRAM never answers B: only C replies */
            wbs += m->access == GMS_ACC_L2_WRBK;
            gms_mreq_release(&p, m);
        }
    }
    CHECK_EQ(wbs, 1);
    CHECK_EQ(k.n, 2);          /* A's ack and C's */
    CHECK_EQ(c_at, 16);
    for (int i = 0; i < k.n && i < 8; i++) gms_mreq_release(&p, k.v[i]);
    gms_l2_slice_free(s);
    gms_mreq_pool_free(&p);
}
