/* DL-MSHR (src/mem/mshr_dl.c): spec 000a Fig. 3.7, every FSM transition of Fig. 3.8, the
 * invariants of spec 000a 8.3 after every operation of random sequences, and the L2 hook
 * (-gms_l2_mshr). Expectations are hand-computed from the specs. */
#include "test.h"
#include "mem/cache.h"
#include "mem/mshr.h"
#include "mem/mshr_dl.h"
#include "config/params.h"
#include "stats/stats.h"
#include <stdlib.h>
#include <string.h>

#define LINE 128u

typedef struct dfx {
    gms_cache_config cfg;
    const gms_mshr_ops *o;
    void *m;
    gms_mreq req[512];
    uint32_t nreq;
} dfx;

/* entries x merges of the string = the slots; p: "spp:reserve:tail:anywhere" */
static void dfx_init(dfx *f, uint32_t entries, uint32_t merges, const char *p)
{
    memset(f, 0, sizeof *f);
    char str[96];
    snprintf(str, sizeof str, "N:32:128:4,L:L:m:N:L,A:%u:%u,8", entries, merges);
    gms_error e = { 0 };
    if (gms_cache_config_parse(str, "test", &f->cfg, &e)) abort();
    snprintf(f->cfg.mshr_design, sizeof f->cfg.mshr_design, "dlmshr");
    if (gms_mshr_params_parse(p, "test", &f->cfg.mshr_params, &e)) abort();
    f->o = gms_mshr_find("dlmshr");
    f->m = f->o->create(&f->cfg);
}

static void dfx_free(dfx *f) { f->o->destroy(f->m); }

static void inv(dfx *f)
{
    char why[256];
    int rc = gms_dl_check(f->m, why, sizeof why);
    if (rc) gms_test_fail(__FILE__, __LINE__, why);
}

/* one miss of line `line`: check then add; returns check()'s answer */
static int miss(dfx *f, uint64_t line)
{
    int hit;
    int rc = f->o->check(f->m, line * LINE, &hit);
    if (rc) return rc;
    gms_mreq *r = &f->req[f->nreq++ % 512];
    memset(r, 0, sizeof *r);
    r->kind = GMS_MREQ_READ;
    r->addr = line * LINE;
    gms_mshr_info info = { line * LINE, LINE, 0, 0 };
    f->o->add(f->m, line * LINE, r, 1, hit ? NULL : &info);
    inv(f);
    return 0;
}

/* the fill of `line` and the hand-out of all its requests; returns how many */
static int fill(dfx *f, uint64_t line)
{
    if (!f->o->mark_ready(f->m, line * LINE, UINT32_MAX, NULL)) return 0;
    inv(f);
    int n = 0;
    while (f->o->any_ready(f->m)) { if (f->o->next_ready(f->m)) n++; inv(f); }
    return n;
}

static int state(dfx *f, uint32_t i) { return gms_dl_set(f->m, i).state; }

TEST(dlmshr_fig37_eight_primaries)
{
    /* Fig. 3.7: the 4 x 4 conventional array's 16 slots as 8 sets x 2; all sets may be heads
     * and linked (no reservation): 8 concurrent primaries, the 9th is entry-full */
    dfx f;
    dfx_init(&f, 4, 4, "2:0:1:1");
    CHECK_EQ(gms_dl_nsets(f.m), 8);
    for (uint64_t l = 0; l < 8; l++) CHECK_EQ(miss(&f, l), 0);
    CHECK_EQ(gms_dl_nfree(f.m), 0);
    CHECK_EQ(f.o->used(f.m), 8);
    CHECK_EQ(miss(&f, 8), GMS_RF_MSHR_ENTRY);
    /* a secondary to a head with a free slot still merges (the set's slot 1) */
    CHECK_EQ(miss(&f, 3), 0);
    CHECK_EQ(miss(&f, 3), GMS_RF_MSHR_MERGE);   /* full tail, nFreeSet 0 */
    CHECK_EQ(fill(&f, 3), 2);
    CHECK_EQ(gms_dl_nfree(f.m), 1);
    CHECK_EQ(miss(&f, 8), 0);
    dfx_free(&f);

    /* the conventional 4 x 4 array: the 5th primary fails */
    gms_cache_config c = f.cfg;
    snprintf(c.mshr_design, sizeof c.mshr_design, "conventional");
    const gms_mshr_ops *o = gms_mshr_find("conventional");
    void *m = o->create(&c);
    gms_mreq r[5];
    memset(r, 0, sizeof r);
    int hit;
    for (int i = 0; i < 4; i++) { CHECK_EQ(o->check(m, (uint64_t)i * LINE, &hit), 0); o->add(m, (uint64_t)i * LINE, &r[i], 1, NULL); }
    CHECK_EQ(o->check(m, 4 * LINE, &hit), GMS_RF_MSHR_ENTRY);
    o->destroy(m);
}

TEST(dlmshr_fig37_fifteen_secondaries)
{
    /* one primary, then 15 secondaries fill all 8 sets of one chain; the 16th is merge-full */
    dfx f;
    dfx_init(&f, 4, 4, "2:0:1:1");
    CHECK_EQ(miss(&f, 7), 0);
    for (int i = 0; i < 15; i++) CHECK_EQ(miss(&f, 7), 0);
    CHECK_EQ(gms_dl_nfree(f.m), 0);
    CHECK_EQ(f.o->used(f.m), 1);
    CHECK_EQ(miss(&f, 7), GMS_RF_MSHR_MERGE);
    CHECK_EQ(miss(&f, 9), GMS_RF_MSHR_ENTRY);
    /* the chain: set 0 head, then 1..7 in order (lowest free first), tail 7 */
    for (uint32_t i = 0; i < 8; i++) {
        gms_dl_set_view v = gms_dl_set(f.m, i);
        CHECK_EQ(v.H, i == 0);
        CHECK_EQ(v.L, i < 7);
        if (i < 7) CHECK_EQ(v.P, i + 1);
        CHECK_EQ(v.nused, 2);
        CHECK_EQ(v.head, 0);
    }
    CHECK_EQ(gms_dl_set(f.m, 0).tail, 7);
    CHECK_EQ(fill(&f, 7), 16);
    CHECK_EQ(gms_dl_nfree(f.m), 8);
    gms_mshr_stats st;
    memset(&st, 0, sizeof st);
    f.o->stats(f.m, &st);
    CHECK_EQ(st.links, 7);
    CHECK_EQ(st.chain_hist[7], 1);   /* one chain of 8 sets */
    CHECK_EQ(st.rf_merge, 1);
    CHECK_EQ(st.rf_entry, 1);
    dfx_free(&f);

    /* with half the sets reserved (Opt 4): the chain may take the 4 linkable sets only:
     * head 2 slots + 4 x 2 = 10 requests = 1 primary + 9 secondaries */
    dfx_init(&f, 4, 4, "2:50:1:1");
    CHECK_EQ(miss(&f, 7), 0);
    CHECK_EQ(gms_dl_set(f.m, 0).reserved, 1);
    for (int i = 0; i < 9; i++) CHECK_EQ(miss(&f, 7), 0);
    CHECK_EQ(miss(&f, 7), GMS_RF_MSHR_MERGE);
    CHECK_EQ(gms_dl_nfree(f.m), 3);   /* reserved sets 1..3 stay for primaries */
    for (uint64_t l = 20; l < 23; l++) CHECK_EQ(miss(&f, l), 0);
    CHECK_EQ(miss(&f, 23), GMS_RF_MSHR_ENTRY);
    dfx_free(&f);
}

TEST(dlmshr_fsm_transitions)
{
    /* 3 sets x 2 slots, set 0 reserved (33%), sets 1-2 linkable; heads only on reserved */
    dfx f;
    dfx_init(&f, 3, 2, "2:34:1:0");
    CHECK_EQ(gms_dl_nsets(f.m), 3);
    CHECK_EQ(state(&f, 0), GMS_DL_S0);
    CHECK_EQ(miss(&f, 1), 0);                       /* S0 --ReqH--> S1 */
    CHECK_EQ(state(&f, 0), GMS_DL_S1);
    CHECK_EQ(gms_dl_set(f.m, 0).S_free, 0);
    CHECK_EQ(gms_dl_set(f.m, 0).S_full, 0);
    CHECK_EQ(miss(&f, 1), 0);                       /* S1 --ReqH--> S2, S_full */
    CHECK_EQ(state(&f, 0), GMS_DL_S2);
    CHECK_EQ(gms_dl_set(f.m, 0).S_full, 1);
    CHECK_EQ(miss(&f, 1), 0);                       /* S2 --nFreeSet>0--> S3; set 1 S0 --ReqA--> S6 */
    CHECK_EQ(state(&f, 0), GMS_DL_S3);
    CHECK_EQ(state(&f, 1), GMS_DL_S6);
    CHECK_EQ(gms_dl_set(f.m, 0).P, 1);
    CHECK_EQ(miss(&f, 1), 0);                       /* S6 --> S7 */
    CHECK_EQ(state(&f, 1), GMS_DL_S7);
    CHECK_EQ(miss(&f, 1), 0);                       /* S7 --nFreeSet>0--> S8; set 2 --> S6 */
    CHECK_EQ(state(&f, 1), GMS_DL_S8);
    CHECK_EQ(state(&f, 2), GMS_DL_S6);
    CHECK_EQ(miss(&f, 1), 0);
    CHECK_EQ(state(&f, 2), GMS_DL_S7);
    CHECK_EQ(miss(&f, 1), GMS_RF_MSHR_MERGE);       /* S7 --nFreeSet=0--> S9 (RF) */
    CHECK_EQ(state(&f, 2), GMS_DL_S9);
    CHECK_EQ(miss(&f, 5), GMS_RF_MSHR_ENTRY);       /* no reserved set free, linkable may not head */
    CHECK(f.o->mark_ready(f.m, 1 * LINE, UINT32_MAX, NULL) != NULL);   /* RET: S3->S5, S8/S9->S10 */
    inv(&f);
    CHECK_EQ(state(&f, 0), GMS_DL_S5);
    CHECK_EQ(state(&f, 1), GMS_DL_S10);
    CHECK_EQ(state(&f, 2), GMS_DL_S10);
    int n = 0;
    while (f.o->any_ready(f.m)) { if (f.o->next_ready(f.m)) n++; inv(&f); }
    CHECK_EQ(n, 6);
    for (uint32_t i = 0; i < 3; i++) CHECK_EQ(state(&f, i), GMS_DL_S0);   /* S5/S10 --> S0 */
    CHECK_EQ(gms_dl_nfree(f.m), 3);

    /* head path S2 --nFreeSet=0--> S4 --nFreeSet>0--> S3, and S1 --RET--> S5 */
    dfx_free(&f);
    dfx_init(&f, 2, 2, "2:50:1:1");                  /* set 0 reserved, set 1 linkable */
    CHECK_EQ(miss(&f, 1), 0);
    CHECK_EQ(miss(&f, 2), 0);                       /* a head on linkable set 1 */
    CHECK_EQ(gms_dl_set(f.m, 1).H, 1);
    CHECK_EQ(miss(&f, 1), 0);
    CHECK_EQ(miss(&f, 1), GMS_RF_MSHR_MERGE);       /* S2 -> S4 */
    CHECK_EQ(state(&f, 0), GMS_DL_S4);
    CHECK(f.o->mark_ready(f.m, 2 * LINE, UINT32_MAX, NULL) != NULL);
    CHECK_EQ(state(&f, 1), GMS_DL_S5);              /* S1 --RET--> S5 */
    CHECK(f.o->next_ready(f.m) != NULL);            /* its one request: released */
    CHECK_EQ(state(&f, 1), GMS_DL_S0);
    inv(&f);
    CHECK_EQ(miss(&f, 1), 0);                       /* S4 --nFreeSet>0--> S3 */
    CHECK_EQ(state(&f, 0), GMS_DL_S3);
    CHECK_EQ(state(&f, 1), GMS_DL_S6);
    /* take(): the whole chain at once */
    gms_mreq *c = f.o->take(f.m, 1 * LINE, NULL);
    int k = 0;
    for (; c; c = c->next) k++;
    CHECK_EQ(k, 3);
    CHECK_EQ(gms_dl_nfree(f.m), 2);
    inv(&f);
    dfx_free(&f);
}

TEST(dlmshr_tail_walk_without_pointer)
{
    /* Opt 3 off: the tail is found by walking L/P; same allocation, hops counted */
    dfx f;
    dfx_init(&f, 4, 4, "2:0:0:1");
    for (int i = 0; i < 7; i++) CHECK_EQ(miss(&f, 3), 0);   /* 4 sets: head + 3 linked */
    gms_mshr_stats st;
    memset(&st, 0, sizeof st);
    f.o->stats(f.m, &st);
    /* secondaries 1..6 walk 0,0,1,1,2,2 hops to the tail where their slot is taken (the
     * check before each finds the same tail and is not counted again): 6 */
    CHECK_EQ(st.tail_hops, 6);
    CHECK_EQ(st.links, 3);
    dfx_free(&f);
}

TEST(dlmshr_random_invariants)
{
    /* random primaries, secondaries, fills and hand-outs on several shapes; the invariants
     * after every operation; at the end everything drains and no slot or set is left */
    static const char *const shapes[] = { "2:50:1:1", "2:0:1:1", "2:50:0:0", "1:25:1:1", "4:50:1:1", "2:100:1:1" };
    uint64_t seed = 12345;
    for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
        dfx f;
        dfx_init(&f, 8, 4, shapes[si]);   /* 32 slots */
        int pending[16] = { 0 };          /* requests per line (0 = no entry) */
        int accepted = 0, served = 0;
        for (int step = 0; step < 4000; step++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            uint32_t x = (uint32_t)(seed >> 33);
            uint64_t line = x % 16;
            if (x % 7 < 5 && f.nreq - (uint32_t)served < 500) {
                if (miss(&f, line) == 0) { pending[line]++; accepted++; }
            } else if (pending[line]) {
                /* conventional protocol (mark_ready + hand-out) or take(), at random */
                if (x & 1024) { served += fill(&f, line); }
                else {
                    gms_mreq *c = f.o->take(f.m, line * LINE, NULL);
                    for (; c; c = c->next) served++;
                    inv(&f);
                }
                pending[line] = 0;
            }
        }
        for (uint64_t l = 0; l < 16; l++) if (pending[l]) served += fill(&f, l);
        CHECK_EQ(served, accepted);
        CHECK_EQ(gms_dl_nfree(f.m), gms_dl_nsets(f.m));
        CHECK_EQ(f.o->used(f.m), 0);
        gms_mshr_stats st;
        memset(&st, 0, sizeof st);
        f.o->stats(f.m, &st);
        CHECK(st.links > 0 || !strcmp(shapes[si], "2:100:1:1"));
        dfx_free(&f);
    }
}

/* A pool sized for the worst case (GPGPU-Sim's gtx1080ti L2: 1024 entries x 1024 merges,
 * 524,288 two-slot sets) is set up as the DAU takes its sets (host memory: the pages of sets
 * never taken are never touched): sets never taken read as free, in S0, heads when reserved;
 * primaries take the lowest reserved sets, links the lowest linkable ones; the invariants
 * hold over the whole pool, and everything drains back. */
TEST(dlmshr_huge_pool_sets_taken_lazily)
{
    dfx f;
    dfx_init(&f, 1024, 1024, "2:50:1:1");
    uint32_t n = gms_dl_nsets(f.m), nres = n / 2;
    CHECK_EQ(n, 524288);
    gms_dl_set_view last = gms_dl_set(f.m, n - 1), res = gms_dl_set(f.m, nres - 1);
    CHECK(last.S_free && !last.reserved && !last.H && last.state == GMS_DL_S0 && last.head == UINT32_MAX);
    CHECK(res.S_free && res.reserved && res.H);
    for (uint64_t l = 0; l < 8; l++) CHECK_EQ(miss(&f, l), 0);        /* primaries: sets 0..7 */
    for (int k = 0; k < 5; k++) CHECK_EQ(miss(&f, 3), 0);             /* line 3: 6 requests, 3 sets */
    CHECK_EQ(gms_dl_set(f.m, 7).head, 7);
    CHECK_EQ(gms_dl_set(f.m, nres).head, 3);                          /* the first link */
    CHECK_EQ(gms_dl_set(f.m, nres + 1).head, 3);
    CHECK(gms_dl_set(f.m, nres + 2).S_free);
    CHECK_EQ(gms_dl_nfree(f.m), n - 10);
    int served = 0;
    for (uint64_t l = 0; l < 8; l++) served += fill(&f, l);
    CHECK_EQ(served, 13);
    CHECK_EQ(gms_dl_nfree(f.m), n);
    CHECK(gms_dl_set(f.m, 3).H && gms_dl_set(f.m, 3).state == GMS_DL_S0);
    CHECK(!gms_dl_set(f.m, nres).H && gms_dl_set(f.m, nres).head == UINT32_MAX);
    dfx_free(&f);
}

extern const gms_config_module gms_config_module_memsys;

TEST(dlmshr_l2_option)
{
    /* -gms_l2_mshr reaches the L2 config (and a bad name or parameter string is an error) */
    gms_params *p = gms_params_new();
    gms_error e = { 0 };
    snprintf(p->mem.l2_mshr_design, sizeof p->mem.l2_mshr_design, "dlmshr");
    snprintf(p->mem.l2_dlmshr_str, sizeof p->mem.l2_dlmshr_str, "2:25:0:1");
    CHECK_EQ(gms_config_module_memsys.finalize(p, &e), 0);
    CHECK_STR(p->mem.dl2.mshr_design, "dlmshr");
    CHECK_EQ(p->mem.dl2.mshr_params.reserve_pct, 25);
    CHECK_EQ(p->mem.dl2.mshr_params.tail_ptr, 0);
    CHECK_EQ(gms_mshr_latency(&p->mem.dl2), 2);
    CHECK_CONTAINS(gms_mshr_describe(&p->mem.dl2, "dlmshr"), "dlmshr: 32 sets x 2 slots (the string's 16 x 4), 8 reserved");
    snprintf(p->mem.l2_mshr_design, sizeof p->mem.l2_mshr_design, "magic");
    CHECK(gms_config_module_memsys.finalize(p, &e) != 0);
    CHECK_CONTAINS(e.msg, "-gms_l2_mshr: unknown MSHR design 'magic'; known: conventional, dlmshr");
    snprintf(p->mem.l2_mshr_design, sizeof p->mem.l2_mshr_design, "conventional");
    snprintf(p->mem.l2_dlmshr_str, sizeof p->mem.l2_dlmshr_str, "2:150:1:1");
    CHECK(gms_config_module_memsys.finalize(p, &e) != 0);
    CHECK_CONTAINS(e.msg, "-gms_l2_dlmshr \"2:150:1:1\": reserved percent 150 is above 100");
    snprintf(p->mem.l2_dlmshr_str, sizeof p->mem.l2_dlmshr_str, "2:0:1:0");
    CHECK(gms_config_module_memsys.finalize(p, &e) != 0);
    CHECK_CONTAINS(e.msg, "no set could ever be a head");
    gms_params_free(p);
}

/* The MSHR access latency (docs/dlmshr.md, "Timing"): a primary miss at cycle t leaves the
 * miss queue at t + latency - 1, so the design defaults give conventional t (GPGPU-Sim's
 * single-cycle access, unchanged) and dlmshr t + 1; -gms_*_mshr_latency overrides either. A
 * merge sends nothing; a write behind the delayed miss waits in the FIFO behind it. */
static uint64_t first_ready(gms_cache *c, uint64_t from)
{
    for (uint64_t t = from; t < from + 16; t++)
        if (gms_cache_mq_ready(c, t)) return t;
    return UINT64_MAX;
}

TEST(mshr_access_latency)
{
    static const struct { const char *design; uint32_t lat; uint64_t leaves; } k[] = {
        { "conventional", 0, 100 }, { "dlmshr", 0, 101 }, { "conventional", 3, 102 }, { "dlmshr", 1, 100 },
        { "dlmshr", 4, 103 },
    };
    for (unsigned i = 0; i < sizeof k / sizeof k[0]; i++) {
        gms_mreq_pool pool;
        gms_mreq_pool_init(&pool);
        gms_cache_config cfg;
        gms_error e = { 0 };
        /* write-through no-allocate: a write miss goes to the miss queue as it is */
        if (gms_cache_config_parse("N:32:128:4,L:T:m:N:L,A:32:8,8", "test", &cfg, &e)) abort();
        snprintf(cfg.mshr_design, sizeof cfg.mshr_design, "%s", k[i].design);
        if (gms_mshr_params_parse(GMS_DLMSHR_DEFAULT, "test", &cfg.mshr_params, &e)) abort();
        cfg.mshr_params.latency = k[i].lat;
        gms_cache *c = gms_cache_new(&cfg, &pool, "L1D", GMS_CACHE_L1);
        gms_rf_cause cause;
        gms_mreq *r = gms_mreq_alloc(&pool), *m = gms_mreq_alloc(&pool), *w = gms_mreq_alloc(&pool);
        r->addr = m->addr = 0x1000;
        w->addr = 0x8000;
        r->bytes = m->bytes = w->bytes = 128;
        r->sector_mask = m->sector_mask = w->sector_mask = 0xF;
        r->kind = m->kind = GMS_MREQ_READ;
        r->access = m->access = GMS_ACC_GLOBAL_R;
        w->kind = GMS_MREQ_WRITE;
        w->access = GMS_ACC_GLOBAL_W;
        CHECK_EQ(gms_cache_access(c, r, 99, &cause) & 0xff, GMS_CACHE_MISS);
        CHECK_EQ(gms_cache_access(c, m, 99, &cause) & 0xff, GMS_CACHE_HIT_RESERVED);   /* merges: not queued */
        gms_cache_access(c, w, 99, &cause);
        CHECK_EQ(gms_cache_mq_size(c), 2);
        /* the owner drains the queue the cycle after the access at the earliest */
        CHECK_EQ(first_ready(c, 100), k[i].leaves);
        CHECK(gms_cache_mq_pop(c) == r);
        CHECK(gms_cache_mq_ready(c, k[i].leaves) == w);   /* not delayed itself, only queued behind */
        gms_cache_mq_pop(c);
        gms_cache_free(c);
        gms_mreq_pool_free(&pool);
    }
}

/* the cost model's inputs (mshr.c gms_*_mshr_hw_*): structure of the L1D 32 x 8 string as a
 * conventional table and as DL-MSHR 2:50:1:1, and the comparators a search enables */
TEST(mshr_hw_cost_inputs)
{
    dfx f;
    dfx_init(&f, 32, 8, GMS_DLMSHR_DEFAULT);
    /* a primary, a merge and another primary: every search enables the 64 reserved sets'
     * comparators (their H is forced to 1, Opt 4) and the linkable sets that are heads (none) */
    CHECK_EQ(miss(&f, 1), 0);
    CHECK_EQ(miss(&f, 1), 0);
    CHECK_EQ(miss(&f, 2), 0);
    gms_mshr_stats s;
    memset(&s, 0, sizeof s);
    f.o->stats(f.m, &s);
    CHECK_EQ(s.tables, 1);
    CHECK_EQ(s.hw_cmp, 128);          /* 256 slots / 2 sets, every set may be a head */
    CHECK_EQ(s.hw_slots, 256);
    CHECK_EQ(s.hw_ff, 4 * 128 + 2 * 8);            /* H, L, S_free, S_full; two 8-bit nFreeSet */
    CHECK_EQ(s.hw_ptr, 128 * (7 + 2) + 128 * 7);   /* P and count per set; tail pointer per head-capable set */
    CHECK_EQ(s.hw_key_shift, 7);
    CHECK_EQ(s.searches, 3);
    CHECK_EQ(s.compares, 64 + 64 + 64);
    CHECK_EQ(s.slot_ops, 2 * 3);      /* each slot written once and read once */
    dfx_free(&f);
    /* reserved heads only: comparators on the 64 reserved sets */
    dfx_init(&f, 32, 8, "2:50:1:0");
    memset(&s, 0, sizeof s);
    f.o->stats(f.m, &s);
    CHECK_EQ(s.hw_cmp, 64);
    dfx_free(&f);
    /* the conventional table: 32 comparators all searched, valid + ready, a 4-bit count */
    const gms_mshr_ops *o = gms_mshr_find("conventional");
    void *m = o->create(&f.cfg);
    int hit;
    gms_mreq r[2];
    memset(r, 0, sizeof r);
    gms_mshr_info info = { 0, 128, 0, 0 };
    CHECK_EQ(o->check(m, 128, &hit), 0);
    o->add(m, 128, &r[0], 1, &info);
    CHECK_EQ(o->check(m, 128, &hit), 0);
    o->add(m, 128, &r[1], 1, NULL);
    memset(&s, 0, sizeof s);
    o->stats(m, &s);
    CHECK_EQ(s.hw_cmp, 32);
    CHECK_EQ(s.hw_slots, 256);
    CHECK_EQ(s.hw_ff, 64);
    CHECK_EQ(s.hw_ptr, 32 * 4);
    CHECK_EQ(s.searches, 2);
    CHECK_EQ(s.compares, 64);
    CHECK_EQ(s.slot_ops, 4);
    o->destroy(m);
}

/* the two utilisation readings (docs/counters.md): occupied slots over all slots, and over the
 * slots of the entries / sets in use. 4 x 4 string: a primary of line 1 at cycle 0, then at
 * cycle 10 a secondary of line 1 and a primary of line 2, read at cycle 20. Occupied-slot
 * cycles 1 x 10 + 3 x 10 = 40 under both designs. Conventional: entries in use 1 x 10 + 2 x 10
 * = 30, 4 slots each: 40 / 120; all 16 slots: 40 / 320. DL-MSHR (8 sets of 2): line 1's two
 * requests fit its head set, so sets in use are the same 30 cycles, 2 slots each: 40 / 60. */
TEST(mshr_alloc_utilisation_both_designs)
{
    for (int d = 0; d < 2; d++) {
        dfx f;
        dfx_init(&f, 4, 4, GMS_DLMSHR_DEFAULT);
        if (!d) {
            f.o->destroy(f.m);
            f.o = gms_mshr_find("conventional");
            f.m = f.o->create(&f.cfg);
        }
        uint64_t now = 0;
        f.o->set_clock(f.m, &now);
        int hit;
        gms_mreq r[3];
        memset(r, 0, sizeof r);
        gms_mshr_info info = { 0, 128, 0, 0 };
        CHECK_EQ(f.o->check(f.m, 128, &hit), 0);
        f.o->add(f.m, 128, &r[0], 1, &info);
        now = 10;
        CHECK_EQ(f.o->check(f.m, 128, &hit), 0);
        f.o->add(f.m, 128, &r[1], 1, NULL);
        CHECK_EQ(f.o->check(f.m, 256, &hit), 0);
        f.o->add(f.m, 256, &r[2], 1, &info);
        now = 20;
        gms_mshr_stats s;
        memset(&s, 0, sizeof s);
        f.o->stats(f.m, &s);
        CHECK_EQ(s.slot_cycles, 40);
        CHECK_EQ(s.unit_cycles, 30);
        CHECK_EQ(s.slot_cap_cycles, 320);
        CHECK_EQ(s.alloc_cap_cycles, (d ? 60 : 120));
        gms_stats out;
        gms_stats_init(&out);
        gms_mshr_report(&s, "L1D", &out);
        const gms_stat *u = gms_stats_find(&out, "gms_L1D_mshr_alloc_utilisation");
        CHECK(u != NULL);
        if (u) CHECK(u->value > (d ? 0.6666 : 0.3333) && u->value < (d ? 0.6667 : 0.3334));
        gms_stats_free(&out);
        f.o->destroy(f.m);
    }
}

/* The conventional table gives a merge slot back as each filled request is handed out, as
 * GPGPU-Sim's mshr_table (next_access pops the list full() reads): 2 slots per entry, a read
 * and a merged read fill it (a third merge fails), the fill marks it ready, one hand-out
 * leaves room for a read that arrives now (a line evicted while its entry still hands out),
 * which is handed out after the one left. Before 2026-12-05 the entry stayed full until
 * released. The occupied-slot integral follows: 2 slots for 10 cycles, then 1, then 2. */
TEST(mshr_conv_hand_out_gives_back_a_merge_slot)
{
    dfx f;
    dfx_init(&f, 4, 2, GMS_DLMSHR_DEFAULT);
    f.o->destroy(f.m);
    const gms_mshr_ops *o = gms_mshr_find("conventional");
    void *m = o->create(&f.cfg);
    uint64_t now = 0;
    o->set_clock(m, &now);
    gms_mreq r[3];
    memset(r, 0, sizeof r);
    for (int i = 0; i < 3; i++) r[i].kind = GMS_MREQ_READ;
    gms_mshr_info info = { 0, 128, 0, 0 };
    int hit;
    CHECK_EQ(o->check(m, 128, &hit), 0);
    uint32_t h = o->add(m, 128, &r[0], 1, &info);
    CHECK_EQ(o->check(m, 128, &hit), 0);
    CHECK_EQ(hit, 1);
    o->add(m, 128, &r[1], 1, NULL);
    CHECK_EQ(o->check(m, 128, &hit), GMS_RF_MSHR_MERGE);
    now = 10;
    gms_mshr_info got;
    CHECK(o->mark_ready(m, 128, h, &got) == &r[0]);
    CHECK(o->next_ready(m) == &r[0]);
    CHECK_EQ(o->check(m, 128, &hit), 0);   /* room again */
    CHECK_EQ(hit, 2);                      /* in a filled entry */
    now = 15;
    o->add(m, 128, &r[2], 1, NULL);
    CHECK_EQ(o->check(m, 128, &hit), GMS_RF_MSHR_MERGE);
    now = 20;
    CHECK(o->next_ready(m) == &r[1]);
    CHECK(o->next_ready(m) == &r[2]);
    CHECK(o->next_ready(m) == NULL);
    CHECK_EQ(o->used(m), 0);
    gms_mshr_stats s;
    memset(&s, 0, sizeof s);
    o->stats(m, &s);
    CHECK_EQ(s.slot_cycles, 2 * 10 + 1 * 5 + 2 * 5);
    o->destroy(m);
}

TEST(dlmshr_fsm_rf_states_leave_by_link_and_by_return)
{
    /* S9 --nFreeSet>0--> S8: 4 sets x 2 slots, set 0 reserved, sets 1-3 linkable (may head).
     * Line 1's head takes set 0; line 2's head the lowest linkable set, 1; line 1's chain then
     * links sets 2 and 3 and its next secondary is refused at set 3 (S9). Line 2's return frees
     * set 1, and line 1's next secondary links it: set 3 S9 -> S8, set 1 S0 -> S6. */
    dfx f;
    dfx_init(&f, 4, 2, "2:25:1:1");
    CHECK_EQ(gms_dl_nsets(f.m), 4);
    CHECK_EQ(miss(&f, 1), 0);
    CHECK_EQ(state(&f, 0), GMS_DL_S1);
    CHECK_EQ(miss(&f, 2), 0);
    CHECK_EQ(state(&f, 1), GMS_DL_S1);
    for (int i = 0; i < 5; i++) CHECK_EQ(miss(&f, 1), 0);   /* slots: set 0 x 2, set 2 x 2, set 3 x 2 */
    CHECK_EQ(state(&f, 2), GMS_DL_S8);
    CHECK_EQ(state(&f, 3), GMS_DL_S7);
    CHECK_EQ(miss(&f, 1), GMS_RF_MSHR_MERGE);                 /* S7 --nFreeSet=0--> S9 */
    CHECK_EQ(state(&f, 3), GMS_DL_S9);
    CHECK(f.o->mark_ready(f.m, 2 * LINE, UINT32_MAX, NULL) != NULL);
    CHECK_EQ(state(&f, 1), GMS_DL_S5);
    while (f.o->any_ready(f.m)) { CHECK(f.o->next_ready(f.m) != NULL); inv(&f); }
    CHECK_EQ(state(&f, 1), GMS_DL_S0);
    CHECK_EQ(miss(&f, 1), 0);                                 /* S9 --nFreeSet>0--> S8 */
    CHECK_EQ(state(&f, 3), GMS_DL_S8);
    CHECK_EQ(state(&f, 1), GMS_DL_S6);
    CHECK_EQ(gms_dl_set(f.m, 3).P, 1);
    inv(&f);
    dfx_free(&f);

    /* S4 --RET--> S5: a head refused for want of a free set (S4) takes its data */
    dfx_init(&f, 2, 2, "2:50:1:1");                  /* set 0 reserved, set 1 linkable */
    CHECK_EQ(miss(&f, 1), 0);
    CHECK_EQ(miss(&f, 2), 0);                       /* line 2's head on set 1 */
    CHECK_EQ(miss(&f, 1), 0);
    CHECK_EQ(miss(&f, 1), GMS_RF_MSHR_MERGE);       /* S2 -> S4 */
    CHECK_EQ(state(&f, 0), GMS_DL_S4);
    CHECK(f.o->mark_ready(f.m, 1 * LINE, UINT32_MAX, NULL) != NULL);
    CHECK_EQ(state(&f, 0), GMS_DL_S5);              /* S4 --RET--> S5 */
    int n = 0;
    while (f.o->any_ready(f.m)) { if (f.o->next_ready(f.m)) n++; inv(&f); }
    CHECK_EQ(n, 2);                                  /* line 1's two requests */
    CHECK_EQ(state(&f, 0), GMS_DL_S0);
    CHECK_EQ(state(&f, 1), GMS_DL_S1);              /* line 2 still waits */
    inv(&f);
    dfx_free(&f);

    /* a set linked to a chain whose data has returned: the old tail stays in S5 (RET is past;
     * it was put back to S3, a state that waits for the data) and the new set joins in S10 */
    dfx_init(&f, 2, 2, "2:50:1:1");                  /* set 0 reserved, set 1 linkable */
    CHECK_EQ(miss(&f, 1), 0);
    CHECK_EQ(miss(&f, 1), 0);                       /* S1 -> S2, full */
    CHECK(f.o->mark_ready(f.m, 1 * LINE, UINT32_MAX, NULL) != NULL);
    CHECK_EQ(state(&f, 0), GMS_DL_S5);
    CHECK_EQ(miss(&f, 1), 0);                       /* a secondary: links set 1 */
    CHECK_EQ(gms_dl_set(f.m, 0).P, 1);
    CHECK_EQ(state(&f, 0), GMS_DL_S5);
    CHECK_EQ(state(&f, 1), GMS_DL_S10);
    inv(&f);
    n = 0;
    while (f.o->any_ready(f.m)) { if (f.o->next_ready(f.m)) n++; inv(&f); }
    CHECK_EQ(n, 3);
    CHECK_EQ(state(&f, 0), GMS_DL_S0);
    CHECK_EQ(state(&f, 1), GMS_DL_S0);
    dfx_free(&f);
}
