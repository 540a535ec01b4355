/* DRAM channel asleep on its timing (host speed, memsys_chan.c): gms_dram_chan_next_event
 * gives the first cycle at which a cycle may do more than count, for hand-computed bank states;
 * and a channel cycled only at those cycles (and at arrivals), its skipped cycles accounted
 * when it is next cycled, issues the same commands in the same cycles with the same counters
 * as one cycled every cycle. Timing as test_dram.c: GDDR5, tCCD=2 tRRD=6 tRCD=12 tRAS=28
 * tRP=12 tRC=40 CL=12 WL=4 CDLR=5 WR=12, BL=8 at QDR (2 command cycles per burst). */
#include "test.h"
#include "mem/dram.h"
#include "mem/addrdec.h"
#include <stdlib.h>

static gms_dram_timing gddr5_t(const char *extra)
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

static gms_mreq *mk_req(gms_mreq_pool *p, int write)
{
    gms_mreq *m = gms_mreq_alloc(p);
    m->bytes = 64;
    m->kind = write ? GMS_MREQ_WRITE : GMS_MREQ_READ;
    m->access = write ? GMS_ACC_L2_WRBK : GMS_ACC_GLOBAL_R;
    return m;
}

static void put(gms_dram_chan *c, gms_mreq_pool *p, uint32_t bank, uint32_t row, int write, uint64_t now)
{
    gms_addrdec_dram at = { .bank = bank, .row = row };
    gms_dram_chan_push(c, mk_req(p, write), &at, now);
}

/* pops and frees what finished; returns how many */
static int drain(gms_dram_chan *c, gms_mreq_pool *p)
{
    int n = 0;
    gms_mreq *m;
    while ((m = gms_dram_chan_return_pop(c)) || (m = gms_dram_chan_done_pop(c))) { gms_mreq_release(p, m); n++; }
    return n;
}

/* One read to a closed bank: ACT at 1, RD legal at 1 + tRCD = 13, its data leaves the
 * pipeline at 13 + CL = 25; a second read to another row of the bank, given to the bank at 14,
 * may precharge at ACT + tRAS = 29 (the RD's tRTP, 13 + 2, is earlier) */
TEST(dram_next_event_hand_computed)
{
    gms_mreq_pool p;
    gms_mreq_pool_init(&p);
    gms_dram_timing t = gddr5_t(NULL);
    gms_dram_sched_env env = { .nbk = t.nbk, .queue_size = 16 };
    gms_dram_chan *c = gms_dram_chan_new(0, &t, gms_dram_sched_find("frfcfs"), &env, 0);
    put(c, &p, 0, 1, 0, 0);
    put(c, &p, 0, 2, 0, 0);
    gms_dram_chan_cycle(c, 1);                            /* bank 0 takes row 1's read, ACT */
    /* the row-2 read waits for bank 0, which is busy: only the RD's tRCD matters */
    CHECK_EQ(gms_dram_chan_next_event(c, 1), 13);
    for (uint64_t n = 2; n <= 13; n++) gms_dram_chan_cycle(c, n);   /* RD at 13 frees bank 0 */
    /* bank 0 free and a request waiting for it: the scheduler serves it next cycle */
    CHECK_EQ(gms_dram_chan_next_event(c, 13), 14);
    gms_dram_chan_cycle(c, 14);                           /* bank 0 takes the row-2 read */
    CHECK_EQ(gms_dram_chan_next_event(c, 14), 25);        /* the burst leaves before the PRE */
    for (uint64_t n = 15; n <= 25; n++) gms_dram_chan_cycle(c, n);
    CHECK_EQ(gms_dram_chan_next_event(c, 25), 26);        /* a reply waits to be popped */
    CHECK_EQ(drain(c, &p), 1);
    CHECK_EQ(gms_dram_chan_next_event(c, 25), 29);        /* PRE at ACT + tRAS */
    /* sleeping from 14 to 29 counts what cycling would have: compare with a channel cycled
     * every cycle through the same requests */
    gms_dram_chan *d = gms_dram_chan_new(1, &t, gms_dram_sched_find("frfcfs"), &env, 0);
    put(d, &p, 0, 1, 0, 0);
    put(d, &p, 0, 2, 0, 0);
    gms_dram_chan_cycle(d, 1);
    gms_dram_chan_cycle(d, 13);                           /* 2..12 slept through (next event 13) */
    gms_dram_chan_cycle(d, 14);
    gms_dram_chan_cycle(d, 25);
    CHECK_EQ(drain(d, &p), 1);
    gms_dram_chan_cycle(d, 29);                           /* PRE */
    gms_dram_chan_cycle(c, 26); gms_dram_chan_cycle(c, 27); gms_dram_chan_cycle(c, 28); gms_dram_chan_cycle(c, 29);
    CHECK_EQ(gms_dram_chan_stats(c)->n_pre, 1);
    CHECK_EQ(gms_dram_chan_next_event(c, 29), 29 + 12);   /* ACT at PRE + tRP (tRC: 1 + 40 = 41 too) */
    CHECK(!memcmp(gms_dram_chan_stats(c), gms_dram_chan_stats(d), sizeof(gms_dram_stats)));
    CHECK_EQ(gms_dram_chan_stats(d)->n_cmd, 29);
    CHECK_EQ(gms_dram_chan_stats(d)->ave_mrqs, 13);       /* row 2's read waited in 1..13 */
    CHECK_EQ(gms_dram_chan_stats(d)->banks_1time, 29);   /* bank 0 holds a request at every count */
    gms_dram_chan_free(c);
    gms_dram_chan_free(d);
    gms_mreq_pool_free(&p);
}

/* the command trace as a hash (every command, where test_dram.c keeps the first 256) */
typedef struct hlog { uint64_t h, n; } hlog;
static void hrec(void *ud, uint64_t cycle, gms_dram_cmd cmd, uint32_t bank, uint32_t row)
{
    hlog *l = ud;
    uint64_t v[4] = { cycle, cmd, bank, row };
    for (int i = 0; i < 4; i++) l->h = (l->h ^ v[i]) * 1099511628211ULL;
    l->n++;
}

typedef struct sleep_cfg {
    const char *sched;
    int dual_bus, sep_write, refresh, faw, bankgrp, rq;   /* rq: return queue size */
    uint32_t rows;
} sleep_cfg;

/* Random traffic in bursts with gaps, reads and writes; the per-cycle counters switched off
 * and on in the middle (kernel time). sleep: cycle only at next_event's answer or an arrival,
 * as memsys_chan.c does; the replies are popped some cycles late at random (the L2's queue
 * full; a small return queue fills). Returns the cycles the channel was cycled. */
static uint64_t sleep_run(const sleep_cfg *k, int sleep, hlog *log, gms_dram_stats *st)
{
    gms_mreq_pool p;
    gms_mreq_pool_init(&p);
    gms_dram_timing t = gddr5_t(k->bankgrp ? ":nbkgrp=4:CCDL=3:RTPL=2" : NULL);
    t.dual_bus = k->dual_bus;
    if (k->refresh) { t.tREFI = 1500; t.tRFC = 120; }
    if (k->faw) t.tFAW = 30;
    gms_dram_sched_env env = { .nbk = t.nbk, .queue_size = 16, .sep_write = k->sep_write, .wq_size = 16,
                               .wq_high = 8, .wq_low = 4 };
    gms_dram_chan *c = gms_dram_chan_new(0, &t, gms_dram_sched_find(k->sched), &env, (uint32_t)k->rq);
    gms_dram_chan_set_trace(c, hrec, log);
    uint64_t x = 777, y = 99, now = 0, wake = 1, cycled = 0, pop_at = 0;
    uint32_t pushed = 0, n = 1500;
    /* to the end of the traffic (writes a separate write queue strands stay) */
    while ((pushed < n || !(gms_dram_chan_idle(c) || gms_dram_chan_stranded(c))) && now < 400000) {
        now++;
        if (now == 3000) gms_dram_chan_count_cycles(c, 0, now - 1);
        if (now == 5000) gms_dram_chan_count_cycles(c, 1, now - 1);
        /* arrivals: this cycle's draw, the same in both runs */
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        int phase = (int)((now / 700) & 1);   /* busy and quiet stretches */
        int arrive = pushed < n && (phase ? (x >> 33) % 2 : (x >> 33) % 23 == 0);
        int w = (x >> 60) < 6;
        /* the owner pops replies from a cycle on (late at random), as the L2 takes them */
        if (now >= pop_at) {
            y = y * 6364136223846793005ULL + 1442695040888963407ULL;
            if (gms_dram_chan_return_top(c) && (y >> 61) == 0) pop_at = now + 1 + (y >> 40) % 9;
            else drain(c, &p);
        }
        if (!sleep || now >= wake || arrive) {
            gms_dram_chan_cycle(c, now);
            cycled++;
        }
        if (arrive && !gms_dram_chan_full(c, w)) {
            put(c, &p, (uint32_t)(x >> 40) % t.nbk, (uint32_t)(x >> 50) % k->rows, w, now);
            pushed++;
        }
        if (now >= wake || arrive) {
            /* (a reply waiting to be popped: next_event says now + 1) */
            wake = gms_dram_chan_idle(c) ? now + 1 : gms_dram_chan_next_event(c, now);
            if (wake == UINT64_MAX) wake = now + 1;
        }
    }
    gms_dram_chan_settle(c, now);
    *st = *gms_dram_chan_stats(c);
    gms_dram_chan_free(c);
    gms_mreq_pool_free(&p);
    return cycled;
}

TEST(dram_sleep_on_timing_matches_every_cycle)
{
    static const sleep_cfg cfgs[] = {
        { "frfcfs", 0, 0, 0, 0, 0, 0, 4 },
        { "frfcfs", 0, 1, 0, 0, 0, 0, 4 },
        { "frfcfs", 1, 1, 1, 1, 0, 0, 8 },
        { "frfcfs", 0, 0, 1, 0, 1, 4, 2 },
        { "frfcfs", 1, 0, 0, 1, 1, 2, 16 },
        { "fcfs", 0, 0, 0, 0, 0, 0, 4 },
        { "fcfs", 1, 0, 1, 1, 1, 3, 4 },
    };
    for (size_t i = 0; i < sizeof cfgs / sizeof cfgs[0]; i++) {
        hlog la = { 14695981039346656037ULL, 0 }, lb = la;
        gms_dram_stats sa, sb;
        uint64_t ca = sleep_run(&cfgs[i], 0, &la, &sa);
        uint64_t cb = sleep_run(&cfgs[i], 1, &lb, &sb);
        CHECK(sa.n_req > 1000);
        CHECK(!cfgs[i].refresh || sa.n_ref > 0);
        CHECK_EQ(la.n, lb.n);
        CHECK_EQ(la.h, lb.h);
        CHECK_EQ(sa.n_cmd, sb.n_cmd);
        CHECK_EQ(sa.n_activity, sb.n_activity);
        CHECK_EQ(sa.ave_mrqs, sb.ave_mrqs);
        CHECK_EQ(sa.banks_1time, sb.banks_1time);
        CHECK(!memcmp(&sa, &sb, sizeof sa));
        CHECK(ca < 400000);
        CHECK(cb * 10 < ca * 8);   /* it did sleep (arrivals every other cycle in half the time) */
        if (memcmp(&sa, &sb, sizeof sa) || la.h != lb.h) printf("    config %zu differs\n", i);
    }
}
