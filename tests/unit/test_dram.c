/* DRAM channel: device timing (hand-computed command cycles), schedulers (request order),
 * bandwidth. Timing used unless a test says otherwise, GDDR5 of spec 001 §1.4 without bank
 * groups: tCCD=2 tRRD=6 tRCD=12 tRAS=28 tRP=12 tRC=40 CL=12 WL=4 CDLR=5 WR=12, BL=8 at QDR
 * (burst = BL/ratio = 2 command cycles), 4 B x 2 chips (64 B per column command). */
#include "test.h"
#include "mem/dram.h"
#include "mem/addrdec.h"
#include <stdlib.h>

typedef struct tcmd { uint64_t cycle; gms_dram_cmd cmd; uint32_t bank, row; } tcmd;
typedef struct tlog { tcmd v[256]; int n; } tlog;

static void rec(void *ud, uint64_t cycle, gms_dram_cmd cmd, uint32_t bank, uint32_t row)
{
    tlog *l = ud;
    if (l->n < 256) l->v[l->n++] = (tcmd){ cycle, cmd, bank, row };
}

/* cycle of the k-th (0-based) command `cmd` in the log, or 0 */
static uint64_t at(const tlog *l, gms_dram_cmd cmd, int k)
{
    for (int i = 0; i < l->n; i++)
        if (l->v[i].cmd == cmd && k-- == 0) return l->v[i].cycle;
    return 0;
}

static gms_dram_timing gddr5(const char *extra)
{
    gms_dram_timing t;
    memset(&t, 0, sizeof t);
    char s[256];
    snprintf(s, sizeof s, "nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12%s", extra ? extra : "");
    gms_error e = { 0 };
    if (gms_dram_timing_parse(s, "-gpgpu_dram_timing_opt", &t, &e)) printf("    parse: %s\n", e.msg);
    t.BL = 8; t.busW = 4; t.n_per_ctrlr = 2; t.ratio = 4;
    if (gms_dram_timing_derive(&t, &e)) printf("    derive: %s\n", e.msg);
    return t;
}

static gms_dram_chan *chan(const gms_dram_timing *t, const char *sched, uint32_t qsize, tlog *log)
{
    gms_dram_sched_env env = { .nbk = t->nbk, .queue_size = qsize };
    gms_dram_chan *c = gms_dram_chan_new(0, t, gms_dram_sched_find(sched), &env, 0);
    if (log) gms_dram_chan_set_trace(c, rec, log);
    return c;
}

static gms_mreq *mk(gms_mreq_pool *p, int write)
{
    gms_mreq *m = gms_mreq_alloc(p);
    m->bytes = 64;
    m->kind = write ? GMS_MREQ_WRITE : GMS_MREQ_READ;
    m->access = write ? GMS_ACC_L2_WRBK : GMS_ACC_GLOBAL_R;
    return m;
}

/* push m to (bank, row), column 0 */
static void push_at(gms_dram_chan *c, gms_mreq *m, uint32_t bank, uint32_t row, uint64_t now)
{
    gms_addrdec_dram at = { .bank = bank, .row = row };
    gms_dram_chan_push(c, m, &at, now);
}

/* run until n requests finished (replies + write-backs); returns the last cycle */
static uint64_t run(gms_dram_chan *c, gms_mreq_pool *p, uint64_t from, int n, uint64_t *done_at, gms_mreq **order)
{
    int got = 0;
    uint64_t now = from;
    while (got < n && now < from + 100000) {
        gms_dram_chan_cycle(c, ++now);
        gms_mreq *m;
        while ((m = gms_dram_chan_return_pop(c)) || (m = gms_dram_chan_done_pop(c))) {
            if (done_at) done_at[got] = now;
            if (order) order[got] = m;
            got++;
            if (!order) gms_mreq_release(p, m);
        }
    }
    return now;
}

/* one channel with its request pool and command log */
typedef struct dfx {
    gms_mreq_pool p;
    tlog log;
    gms_dram_timing t;
    gms_dram_chan *c;
} dfx;

/* a channel of timing t, scheduler sched, queue qsize; with_log: record its commands */
static void dfx_init(dfx *f, gms_dram_timing t, const char *sched, uint32_t qsize, int with_log)
{
    gms_mreq_pool_init(&f->p);
    f->log.n = 0;
    f->t = t;
    f->c = chan(&f->t, sched, qsize, with_log ? &f->log : NULL);
}

/* check_live: every request must be back in the pool */
static void dfx_free(dfx *f, int check_live)
{
    gms_dram_chan_free(f->c);
    if (check_live) CHECK_EQ(f->p.live, 0);
    gms_mreq_pool_free(&f->p);
}

static void push(dfx *f, uint32_t bank, uint32_t row, int write, uint64_t now)
{
    push_at(f->c, mk(&f->p, write), bank, row, now);
}

TEST(dram_timing_parse_named_and_derived)
{
    gms_dram_timing t = gddr5(":nbkgrp=4:CCDL=3:RTPL=2");
    CHECK_EQ(t.nbk, 16);
    CHECK_EQ(t.nbkgrp, 4);
    CHECK_EQ(t.tCCDL, 3);
    CHECK_EQ(t.burst_cycles, 2);
    CHECK_EQ(t.atom, 64);                 /* 8 x 4 B x 2 chips */
    CHECK_EQ(t.tRTW, 12 + 2 + 2 - 4);     /* CL + BL/ratio + 2 - WL */
    CHECK_EQ(t.tWTR, 4 + 2 + 5);          /* WL + BL/ratio + CDLR */
    CHECK_EQ(t.tWTP, 4 + 2 + 12);         /* WL + BL/ratio + WR */
    CHECK_EQ(t.tRCDWR, 12 - 5);           /* RCD - (WL + 1) */
    CHECK_EQ(t.bk_tag_length, 2);         /* 4 banks per group */
}

TEST(dram_timing_multiline_and_legacy)
{
    gms_dram_timing t;
    gms_error e = { 0 };
    REQUIRE(!gms_dram_timing_parse("\"nbk=16:CCD=1:RRD=3:RCD=12:RAS=28:RP=12:RC=40:\n                        "
                                   "CL=12:WL=2:CDLR=3:WR=10:nbkgrp=4:CCDL=2:RTPL=3\"", "-x", &t, &e));
    CHECK_EQ(t.CL, 12);
    CHECK_EQ(t.tRTPL, 3);
    REQUIRE(!gms_dram_timing_parse("4:2:8:12:21:13:34:9:4:5:13:1:0:0", "-x", &t, &e));
    CHECK_EQ(t.nbk, 4);
    CHECK_EQ(t.tRRD, 8);
    CHECK_EQ(t.tWR, 13);
}

TEST(dram_timing_errors_name_field)
{
    gms_dram_timing t;
    memset(&t, 0, sizeof t);
    gms_error e = { 0 };
    CHECK(gms_dram_timing_parse("nbk=16:CCD=2:RRD=6:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12",
                                "-gpgpu_dram_timing_opt", &t, &e));
    CHECK_CONTAINS(e.msg, "-gpgpu_dram_timing_opt");
    CHECK_CONTAINS(e.msg, "missing required field RCD");
    CHECK(gms_dram_timing_parse("nbk=16:CCD=x", "-gpgpu_dram_timing_opt", &t, &e));
    CHECK_CONTAINS(e.msg, "field CCD");
    CHECK(gms_dram_timing_parse("nbk=16:FOO=1", "-gpgpu_dram_timing_opt", &t, &e));
    CHECK_CONTAINS(e.msg, "unknown field \"FOO\"");
    REQUIRE(!gms_dram_timing_parse("nbk=0:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12",
                                   "-gpgpu_dram_timing_opt", &t, &e));
    t.BL = 8; t.busW = 4; t.n_per_ctrlr = 1; t.ratio = 4;
    CHECK(gms_dram_timing_derive(&t, &e));
    CHECK_CONTAINS(e.msg, "nbk");
}

/* ACT at 1 (the request arrives before cycle 1, is given to its bank and activates), RD at
 * 1 + tRCD, data out at RD + CL + BL/ratio: 1 + 12 + 12 + 2 = 27 */
TEST(dram_idle_bank_read_latency)
{
    dfx f;
    dfx_init(&f, gddr5(NULL), "frfcfs", 16, 1);
    push(&f, 3, 7, 0, 0);
    uint64_t done;
    run(f.c, &f.p, 0, 1, &done, NULL);
    CHECK_EQ(at(&f.log, GMS_DRAM_ACT, 0), 1);
    CHECK_EQ(at(&f.log, GMS_DRAM_RD, 0), 1 + 12);
    CHECK_EQ(done, 1 + f.t.tRCD + f.t.CL);   /* GPGPU-Sim's rwq: CL stages after the RD, no burst term */
    CHECK_EQ(done, 25u);                       /* GDDR5 preset: ACT at 1, RD at 13, data at 13 + CL 12 */
    CHECK_EQ(gms_dram_chan_stats(f.c)->n_act, 1);
    CHECK_EQ(gms_dram_chan_stats(f.c)->n_rd, 1);
    CHECK(gms_dram_chan_idle(f.c));
    dfx_free(&f, 1);
}

/* two reads to one row: one ACT, the second read is a row hit tCCD after the first */
TEST(dram_row_hit_spacing_tccd)
{
    dfx f;
    dfx_init(&f, gddr5(NULL), "frfcfs", 16, 1);
    push(&f, 0, 5, 0, 0);
    push(&f, 0, 5, 0, 0);
    uint64_t done[2];
    run(f.c, &f.p, 0, 2, done, NULL);
    CHECK_EQ(at(&f.log, GMS_DRAM_ACT, 1), 0);            /* no second ACT */
    CHECK_EQ(at(&f.log, GMS_DRAM_RD, 1) - at(&f.log, GMS_DRAM_RD, 0), f.t.tCCD);
    CHECK_EQ(done[1] - done[0], f.t.tCCD);
    const gms_dram_stats *s = gms_dram_chan_stats(f.c);
    CHECK_EQ(s->access_num, 2);
    CHECK_EQ(s->hits_num, 1);                            /* the first opened the row */
    dfx_free(&f, 0);
}

/* another row of the same bank: PRE once tRAS (from the ACT) and the read-to-precharge time
 * have passed, ACT tRP later, RD tRCD after that */
TEST(dram_row_conflict_pays_trp_trcd)
{
    dfx f;
    dfx_init(&f, gddr5(NULL), "frfcfs", 16, 1);
    push(&f, 0, 5, 0, 0);
    push(&f, 0, 9, 0, 0);
    uint64_t done[2];
    run(f.c, &f.p, 0, 2, done, NULL);
    uint64_t act0 = at(&f.log, GMS_DRAM_ACT, 0), pre = at(&f.log, GMS_DRAM_PRE, 0);
    uint64_t act1 = at(&f.log, GMS_DRAM_ACT, 1), rd1 = at(&f.log, GMS_DRAM_RD, 1);
    CHECK_EQ(act0, 1);
    CHECK_EQ(pre, act0 + f.t.tRAS);                      /* 29: tRAS dominates RD+burst (15) */
    CHECK_EQ(act1, pre + f.t.tRP);                       /* 41 = also ACT0 + tRC */
    CHECK_EQ(rd1 - pre, f.t.tRP + f.t.tRCD);
    CHECK_EQ(done[1], rd1 + f.t.CL);
    CHECK_EQ(gms_dram_chan_stats(f.c)->n_pre, 1);
    CHECK_EQ(gms_dram_chan_stats(f.c)->hits_num, 0);
    dfx_free(&f, 0);
}

/* bank 0 has row 5 open and busy; then an older miss (row 9) and a younger hit (row 5)
 * arrive. FR-FCFS reads row 5 first; FCFS keeps arrival order. */
static void order_test(const char *sched, uint32_t first_row)
{
    dfx f;
    dfx_init(&f, gddr5(NULL), sched, 16, 1);
    push(&f, 0, 5, 0, 0);
    gms_dram_chan_cycle(f.c, 1);                         /* row 5 given to bank 0, ACT */
    push(&f, 0, 9, 0, 1);                                /* older: row miss */
    push(&f, 0, 5, 0, 2);                                /* younger: row hit */
    run(f.c, &f.p, 1, 3, NULL, NULL);
    int k = 0;
    uint32_t rows[3] = { 0 };
    for (int i = 0; i < f.log.n; i++)
        if (f.log.v[i].cmd == GMS_DRAM_RD && k < 3) rows[k++] = f.log.v[i].row;
    CHECK_EQ(k, 3);
    CHECK_EQ(rows[0], 5);
    CHECK_EQ(rows[1], first_row);
    dfx_free(&f, 0);
}

TEST(dram_frfcfs_row_hit_first) { order_test("frfcfs", 5); }
TEST(dram_fcfs_keeps_order) { order_test("fcfs", 9); }

/* five ACTs to five banks on a dual command bus (column commands do not steal the row
 * slot): tRRD apart; with tFAW=40 the fifth waits until the first ACT + tFAW */
static uint64_t fifth_act(uint32_t tfaw)
{
    gms_dram_timing t = gddr5(NULL);
    t.dual_bus = 1;
    t.tFAW = tfaw;
    dfx f;
    dfx_init(&f, t, "frfcfs", 16, 1);
    for (uint32_t b = 0; b < 5; b++) push(&f, b, 100 + b, 0, 0);
    run(f.c, &f.p, 0, 5, NULL, NULL);
    for (int k = 1; k < 4; k++) CHECK_EQ(at(&f.log, GMS_DRAM_ACT, k) - at(&f.log, GMS_DRAM_ACT, k - 1), f.t.tRRD);
    uint64_t r = at(&f.log, GMS_DRAM_ACT, 4);
    dfx_free(&f, 0);
    return r;
}

TEST(dram_trrd_and_tfaw)
{
    CHECK_EQ(fifth_act(0), 1 + 4 * 6);                   /* 25: tRRD only (GPGPU-Sim) */
    CHECK_EQ(fifth_act(40), 1 + 40);                     /* 41: four-activate window */
}

/* write then read on another (open) bank: the read waits tWTR = WL + BL/ratio + CDLR after
 * the write command. Timing with short tRCD so only the turnaround matters. */
TEST(dram_write_to_read_turnaround)
{
    gms_dram_timing t;
    gms_error e = { 0 };
    REQUIRE(!gms_dram_timing_parse("nbk=4:CCD=1:RRD=1:RCD=2:RAS=8:RP=2:RC=10:CL=6:WL=4:CDLR=5:WR=4", "-x", &t, &e));
    t.BL = 8; t.busW = 4; t.n_per_ctrlr = 2; t.ratio = 4;
    REQUIRE(!gms_dram_timing_derive(&t, &e));
    dfx f;
    dfx_init(&f, t, "frfcfs", 16, 1);
    push(&f, 0, 5, 1, 0);
    push(&f, 1, 5, 0, 0);
    run(f.c, &f.p, 0, 2, NULL, NULL);
    uint64_t wr = at(&f.log, GMS_DRAM_WR, 0), rd = at(&f.log, GMS_DRAM_RD, 0);
    REQUIRE(wr && rd);
    CHECK_EQ(f.t.tWTR, 4 + 2 + 5);
    CHECK_EQ(rd - wr, f.t.tWTR);
    CHECK_EQ(gms_dram_chan_stats(f.c)->n_wr_WB, 1);
    dfx_free(&f, 0);
}

/* streaming 32 B sector reads through the QV100 mapping on one HBM channel (tCCD=1, burst
 * 1 cycle, 4 bank groups, tCCDL=2), the FR-FCFS queue kept full: the data bus is busy at
 * least 90% of the cycles (peak = 1 burst per command cycle) */
TEST(dram_streaming_bandwidth)
{
    gms_mreq_pool p;
    gms_mreq_pool_init(&p);
    gms_dram_timing t;
    gms_error e = { 0 };
    REQUIRE(!gms_dram_timing_parse("nbk=16:CCD=1:RRD=3:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=2:CDLR=3:WR=10:"
                                   "nbkgrp=4:CCDL=2:RTPL=3", "-x", &t, &e));
    t.BL = 2; t.busW = 16; t.n_per_ctrlr = 1; t.ratio = 2;
    t.dual_bus = 1;
    t.bnkgrp_lower_bits = 1;
    REQUIRE(!gms_dram_timing_derive(&t, &e));
    gms_addrdec_config ac;
    memset(&ac, 0, sizeof ac);
    REQUIRE(!gms_addrdec_parse_mapping("dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCB."
                                       "CCCSSSSS", "-m", &ac, &e));
    snprintf(ac.member, sizeof ac.member, "gpgpusim");
    ac.n_channel = 1; ac.n_sub = 1; ac.nbk = 16;
    REQUIRE(!gms_addrdec_finalize(&ac, &e));
    gms_addrdec d;
    REQUIRE(!gms_addrdec_init(&d, &ac, &e));
    gms_dram_chan *c = chan(&t, "frfcfs", 64, NULL);
    uint32_t n = gms_test_quick() ? 4096 : 32768, pushed = 0, got = 0;
    uint64_t now = 0;
    while (got < n && now < 10u * n) {
        gms_dram_chan_cycle(c, ++now);
        gms_mreq *m;
        while ((m = gms_dram_chan_return_pop(c))) { gms_mreq_release(&p, m); got++; }
        if (pushed < n && !gms_dram_chan_full(c, 0)) {
            gms_addrdec_out o;
            gms_addrdec_decode(&d, (uint64_t)pushed * 32, &o);
            gms_mreq *r = mk(&p, 0);
            r->bytes = 32;
            push_at(c, r, o.bank, o.row, now);
            pushed++;
        }
    }
    REQUIRE(got == n);
    const gms_dram_stats *s = gms_dram_chan_stats(c);
    double util = (double)s->bwutil / (double)s->n_cmd;
    printf("    streaming: %u reads in %llu cycles, bw_util %.3f, row locality %.3f\n", n,
           (unsigned long long)s->n_cmd, util, (double)s->hits_num / (double)s->access_num);
    CHECK(util >= 0.9);
    CHECK(util <= 1.0);
    gms_dram_chan_free(c);
    gms_mreq_pool_free(&p);
}

/* idle gaps are accounted without cycling: n_cmd counts every DRAM cycle */
TEST(dram_idle_gap_accounting)
{
    dfx f;
    dfx_init(&f, gddr5(NULL), "frfcfs", 16, 0);
    push(&f, 0, 5, 0, 0);
    uint64_t end = run(f.c, &f.p, 0, 1, NULL, NULL);
    push(&f, 0, 5, 0, 1000);
    run(f.c, &f.p, 999, 1, NULL, NULL);
    gms_dram_chan_sync(f.c, 5000);
    const gms_dram_stats *s = gms_dram_chan_stats(f.c);
    CHECK_EQ(s->n_cmd, 5000);
    CHECK_EQ(s->n_rd, 2);
    CHECK_EQ(s->hits_num, 1);                            /* the row stayed open over the gap */
    CHECK(end < 100);
    dfx_free(&f, 0);
}

/* refresh (ours, off by default): one REF per tREFI, counted even across idle gaps */
TEST(dram_refresh_counts)
{
    gms_dram_timing t = gddr5(NULL);
    t.tREFI = 1000;
    t.tRFC = 100;
    dfx f;
    dfx_init(&f, t, "frfcfs", 16, 0);
    push(&f, 0, 5, 0, 0);
    run(f.c, &f.p, 0, 1, NULL, NULL);
    push(&f, 0, 5, 0, 3500);
    uint64_t done;
    run(f.c, &f.p, 3500, 1, &done, NULL);
    CHECK_EQ(gms_dram_chan_stats(f.c)->n_ref, 3);          /* at 1000, 2000, 3000 */
    CHECK_EQ(gms_dram_chan_stats(f.c)->n_act, 2);          /* refresh closed the row */
    dfx_free(&f, 0);
}

/* The channel asks the scheduler only for the banks it would serve (ready_banks, host speed).
 * Same traffic through frfcfs with and without that hook: identical commands and counters.
 * Random banks/rows, reads and writes, a separate write queue (its mode switch is part of
 * what the hook must reproduce), both command-bus modes. */
static void ready_banks_run_x(const gms_dram_sched_ops *ops, int dual_bus, int plain, int refresh, tlog *log,
                              gms_dram_stats *st)
{
    gms_mreq_pool p;
    gms_mreq_pool_init(&p);
    gms_dram_timing t = gddr5(NULL);
    t.dual_bus = dual_bus;
    gms_dram_sched_env env = { .nbk = t.nbk, .queue_size = 16, .sep_write = 1, .wq_size = 16, .wq_high = 8, .wq_low = 4 };
    if (refresh) { t.tREFI = 3000; t.tRFC = 120; }
    gms_dram_chan *c = gms_dram_chan_new(0, &t, ops, &env, 0);
    gms_dram_chan_set_trace(c, rec, log);
    gms_dram_chan_set_plain_loop(c, plain);
    uint64_t x = 12345, now = 0;
    uint32_t pushed = 0, got = 0, n = 600;
    while (got < n && now < 200000) {
        gms_dram_chan_cycle(c, ++now);
        gms_mreq *m;
        while ((m = gms_dram_chan_return_pop(c)) || (m = gms_dram_chan_done_pop(c))) { gms_mreq_release(&p, m); got++; }
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        int w = (x >> 60) < 5;
        if (pushed < n && (x >> 33) % 3 && !gms_dram_chan_full(c, w)) {
            push_at(c, mk(&p, w), (uint32_t)(x >> 40) % t.nbk, (uint32_t)(x >> 50) % 4, now);
            pushed++;
        }
    }
    *st = *gms_dram_chan_stats(c);
    gms_dram_chan_free(c);
    gms_mreq_pool_free(&p);
}

static void ready_banks_run(const gms_dram_sched_ops *ops, int dual_bus, tlog *log, gms_dram_stats *st)
{
    ready_banks_run_x(ops, dual_bus, 0, 0, log, st);
}

/* Single command bus: the host-speed loop over the banks holding a request (candidates from
 * masks, a column command ending the loop) issues the commands GPGPU-Sim's loop over every
 * bank issues, in the same cycles, with the same counters (n_nop, n_activity included);
 * with and without refresh, whose pending state changes which ACTs may go */
TEST(dram_single_bus_mask_loop_matches_plain_loop)
{
    const gms_dram_sched_ops *fr = gms_dram_sched_find("frfcfs");
    REQUIRE(fr);
    for (int refresh = 0; refresh < 2; refresh++) {
        static tlog la, lb;
        gms_dram_stats sa, sb;
        memset(&la, 0, sizeof la);
        memset(&lb, 0, sizeof lb);
        ready_banks_run_x(fr, 0, 0, refresh, &la, &sa);
        ready_banks_run_x(fr, 0, 1, refresh, &lb, &sb);
        CHECK(sa.n_req == 600);
        CHECK(sa.n_act > 50 && sa.n_pre > 50);   /* row misses: ACT/PRE move prio inside the loop */
        CHECK(!refresh || sa.n_ref > 0);
        CHECK(!memcmp(&sa, &sb, sizeof sa));
        CHECK(la.n == lb.n && !memcmp(la.v, lb.v, sizeof la.v));
    }
}

TEST(dram_ready_banks_hook_changes_nothing)
{
    const gms_dram_sched_ops *fr = gms_dram_sched_find("frfcfs");
    REQUIRE(fr && fr->ready_banks);
    gms_dram_sched_ops plain = *fr;
    plain.ready_banks = NULL;
    for (int dual = 0; dual < 2; dual++) {
        static tlog la, lb;
        gms_dram_stats sa, sb;
        memset(&la, 0, sizeof la);
        memset(&lb, 0, sizeof lb);
        ready_banks_run(fr, dual, &la, &sa);
        ready_banks_run(&plain, dual, &lb, &sb);
        CHECK(sa.n_req == 600);
        CHECK(sa.n_wr_WB > 0 && sa.n_rd > 0);
        CHECK(!memcmp(&sa, &sb, sizeof sa));
        CHECK(la.n == lb.n && !memcmp(la.v, lb.v, sizeof la.v));
    }
}

/* A request entered as a copy (gms_dram_in_of, then gms_dram_chan_enter: memsys_chan.c's
 * -dram_latency path) is not read again by the channel: scribbling over the request's size,
 * kind and access type after the copy changes no command, statistic or completion. */
static void copy_run(int scribble, tlog *log, gms_dram_stats *st, int *n_done)
{
    gms_mreq_pool p;
    gms_mreq_pool_init(&p);
    gms_dram_timing t = gddr5(NULL);
    gms_dram_chan *c = chan(&t, "frfcfs", 16, log);
    for (uint32_t i = 0; i < 12; i++) {
        gms_mreq *m = mk(&p, i % 4 == 1);
        m->bytes = i % 2 ? 128 : 64;
        if (i == 7) m->access = GMS_ACC_L2_WR_ALLOC_R;
        gms_addrdec_dram at = { .bank = i % 3, .row = i / 5 };
        gms_dram_in in = gms_dram_in_of(m, &at);
        if (scribble) {
            m->bytes = 32;
            m->kind = m->kind == GMS_MREQ_WRITE ? GMS_MREQ_READ : GMS_MREQ_WRITE;
            m->access = m->access == GMS_ACC_L2_WRBK ? GMS_ACC_GLOBAL_R : GMS_ACC_L2_WRBK;
        }
        gms_dram_chan_enter(c, &in, i);
    }
    *n_done = 0;
    for (uint64_t now = 12; now < 2000; now++) {
        gms_dram_chan_cycle(c, now);
        gms_mreq *m;
        while ((m = gms_dram_chan_return_pop(c))) { (*n_done)++; gms_mreq_release(&p, m); }
        while ((m = gms_dram_chan_done_pop(c))) { *n_done += 100; gms_mreq_release(&p, m); }
    }
    *st = *gms_dram_chan_stats(c);
    gms_dram_chan_free(c);
    gms_mreq_pool_free(&p);
}

TEST(dram_entered_copy_not_read_again)
{
    static tlog la, lb;
    gms_dram_stats sa, sb;
    int da, db;
    memset(&la, 0, sizeof la);
    memset(&lb, 0, sizeof lb);
    copy_run(0, &la, &sa, &da);
    copy_run(1, &lb, &sb, &db);
    CHECK_EQ(da, 9 + 3 * 100);   /* 9 replies, 3 write-backs */
    CHECK_EQ(sa.n_rd_L2_A, 2);   /* request 7: 128 B, two column commands */
    CHECK(sa.n_wr_WB > 0);
    CHECK_EQ(db, da);
    CHECK(!memcmp(&sa, &sb, sizeof sa));
    CHECK(la.n == lb.n && !memcmp(la.v, lb.v, sizeof la.v));
}

/* The separate write queue (frfcfs, high watermark 8, low 4) serves writes only in write
 * mode: writes below the high watermark with no read waiting stay (GPGPU-Sim the same), and
 * the channel reports them as stranded (gpu.c then ends the run without them). */
TEST(dram_stranded_writes_below_watermark)
{
    gms_mreq_pool p;
    gms_mreq_pool_init(&p);
    gms_dram_timing t = gddr5(NULL);
    gms_dram_sched_env env = { .nbk = t.nbk, .queue_size = 16, .sep_write = 1, .wq_size = 16, .wq_high = 8, .wq_low = 4 };
    gms_dram_chan *c = gms_dram_chan_new(0, &t, gms_dram_sched_find("frfcfs"), &env, 0);
    uint64_t now = 0;
    for (uint32_t i = 0; i < 3; i++) push_at(c, mk(&p, 1), i, 1, now);
    for (int k = 0; k < 2000; k++) gms_dram_chan_cycle(c, ++now);
    CHECK_EQ(gms_dram_chan_pending(c), 3);             /* never served */
    CHECK_EQ(gms_dram_chan_stranded(c), 3);
    push_at(c, mk(&p, 0), 5, 2, now);                  /* a read waits: nothing is stranded */
    CHECK_EQ(gms_dram_chan_stranded(c), 0);
    now = run(c, &p, now, 1, NULL, NULL);              /* the read alone finishes */
    CHECK_EQ(gms_dram_chan_pending(c), 3);
    CHECK_EQ(gms_dram_chan_stranded(c), 3);
    for (uint32_t i = 0; i < 5; i++) push_at(c, mk(&p, 1), i, 3, now);   /* 8 = high */
    CHECK_EQ(gms_dram_chan_stranded(c), 0);
    /* write mode serves writes until fewer than the low watermark (4) wait: 8 - 3 = 5 */
    now = run(c, &p, now, 5, NULL, NULL);
    for (int k = 0; k < 2000; k++) gms_dram_chan_cycle(c, ++now);
    CHECK_EQ(gms_dram_chan_stats(c)->n_wr_WB, 5);
    CHECK_EQ(gms_dram_chan_pending(c), 3);
    CHECK_EQ(gms_dram_chan_stranded(c), 3);
    /* fcfs has no separate write queue: nothing is ever stranded */
    gms_dram_chan *f = gms_dram_chan_new(1, &t, gms_dram_sched_find("fcfs"), &env, 0);
    push_at(f, mk(&p, 1), 0, 1, 0);
    CHECK_EQ(gms_dram_chan_stranded(f), 0);
    run(f, &p, 0, 1, NULL, NULL);
    gms_dram_chan_free(f);
    gms_dram_chan_free(c);
    gms_mreq_pool_free(&p);
}
