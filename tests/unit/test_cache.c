/* Generic cache behaviour (GPGPU-Sim data_cache semantics), hand-computed sequences. */
#include "test.h"
#include "mem/cache.h"
#include "mem/mshr.h"
#include "stats/stats.h"
#include <stdlib.h>

typedef struct fx {
    gms_mreq_pool pool;
    gms_cache_config cfg;
    gms_cache *c;
} fx;

static int fx_init(fx *f, const char *str, const char *name)
{
    gms_error err = { 0 };
    gms_mreq_pool_init(&f->pool);
    if (gms_cache_config_parse(str, "test", &f->cfg, &err)) {
        printf("    parse error: %s\n", err.msg);
        return -1;
    }
    /* the fixtures label their L2 caches "L2..." */
    f->c = gms_cache_new(&f->cfg, &f->pool, name, strncmp(name, "L2", 2) ? GMS_CACHE_L1 : GMS_CACHE_L2);
    return f->c ? 0 : -1;
}

static void fx_free(fx *f)
{
    gms_cache_free(f->c);
    gms_mreq_pool_free(&f->pool);
}

static gms_mreq *mk(fx *f, uint64_t addr, int kind, int access)
{
    gms_mreq *r = gms_mreq_alloc(&f->pool);
    r->addr = addr;
    r->bytes = f->cfg.type == 'S' ? 32 : f->cfg.line;
    r->sector_mask = (uint8_t)(f->cfg.type == 'S' ? 1u << ((addr >> 5) & 3) : 0xF);
    r->kind = (uint8_t)kind;
    r->access = (uint8_t)access;
    return r;
}

static int rd(fx *f, uint64_t addr, uint64_t now, gms_rf_cause *cause, gms_mreq **out)
{
    gms_mreq *r = mk(f, addr, GMS_MREQ_READ, GMS_ACC_GLOBAL_R);
    int ret = gms_cache_access(f->c, r, now, cause);
    if (out) *out = r;
    return ret;
}

static int wr(fx *f, uint64_t addr, uint64_t now, gms_rf_cause *cause, gms_mreq **out)
{
    gms_mreq *r = mk(f, addr, GMS_MREQ_WRITE, GMS_ACC_GLOBAL_W);
    int ret = gms_cache_access(f->c, r, now, cause);
    if (out) *out = r;
    return ret;
}

/* answer one read: fill its line and release every request the fill returns (count) */
static uint64_t fill_release(fx *f, gms_mreq *q, uint64_t now)
{
    uint64_t n = 0;
    for (gms_mreq *w = gms_cache_fill(f->c, q, now), *nx; w; w = nx) {
        nx = w->next;
        n++;
        gms_mreq_release(&f->pool, w);
    }
    return n;
}

/* pop the next miss-queue entry and check it is a write-back of `bytes` at `addr` */
static gms_mreq *pop_writeback(fx *f, int access, uint64_t addr, uint32_t bytes)
{
    gms_mreq *wb = gms_cache_mq_pop(f->c);
    CHECK(wb != NULL);
    if (!wb) return NULL;
    CHECK_EQ(wb->access, access);
    CHECK_EQ(wb->kind, GMS_MREQ_WRITE);
    CHECK_EQ(wb->addr, addr);
    CHECK_EQ(wb->bytes, bytes);
    return wb;
}

/* pop every miss-queue entry and answer the reads immediately; return chain length total */
static int drain_and_fill(fx *f, uint64_t now)
{
    int n = 0;
    gms_mreq *q;
    while ((q = gms_cache_mq_pop(f->c))) {
        if (q->kind != GMS_MREQ_READ) continue;
        for (gms_mreq *w = gms_cache_fill(f->c, q, now), *nx; w; w = nx) { nx = w->next; n++; }
    }
    return n;
}

#define OUT(r) GMS_CACHE_OUTCOME(r)

/* One set of two ways: A and B miss and fill, A hits, C misses and evicts one of them; then
 * `then[0]` and `then[1]` are read, expecting want[0] and want[1]. */
static void repl_sequence(const char *cfg, const uint64_t then[2], const int want[2])
{
    fx f;
    REQUIRE(!fx_init(&f, cfg, "L1D"));
    gms_rf_cause rc;
    CHECK_EQ(OUT(rd(&f, 0x000, 1, &rc, NULL)), GMS_CACHE_MISS);
    CHECK_EQ(OUT(rd(&f, 0x080, 2, &rc, NULL)), GMS_CACHE_MISS);
    drain_and_fill(&f, 3);
    CHECK_EQ(OUT(rd(&f, 0x000, 4, &rc, NULL)), GMS_CACHE_HIT);
    CHECK_EQ(OUT(rd(&f, 0x100, 5, &rc, NULL)), GMS_CACHE_MISS);
    drain_and_fill(&f, 6);
    CHECK_EQ(OUT(rd(&f, then[0], 7, &rc, NULL)), want[0]);
    CHECK_EQ(OUT(rd(&f, then[1], 8, &rc, NULL)), want[1]);
    fx_free(&f);
}

TEST(cache_lru_sequence)
{
    /* C evicts B (LRU): then A hits and B misses */
    repl_sequence("N:1:128:2,L:T:m:N:L,A:8:4,8", (const uint64_t[2]){ 0x000, 0x080 },
                  (const int[2]){ GMS_CACHE_HIT, GMS_CACHE_MISS });
}

TEST(cache_fifo_sequence)
{
    /* FIFO: the hit on A does not protect it; C evicts A (allocated first); then B hits and
     * A misses */
    repl_sequence("N:1:128:2,F:T:m:N:L,A:8:4,8", (const uint64_t[2]){ 0x080, 0x000 },
                  (const int[2]){ GMS_CACHE_HIT, GMS_CACHE_MISS });
}

/* spec 001 section 3.3: on-miss evicts the victim when the miss happens, on-fill when the data
 * returns. Two ways hold A (older) and X; B misses; before B's data returns A is read again. */
static int on_fill_vs_on_miss(const char *str)
{
    fx f;
    if (fx_init(&f, str, "L1D")) return -1;
    gms_rf_cause rc;
    rd(&f, 0x000, 1, &rc, NULL);   /* A */
    rd(&f, 0x080, 2, &rc, NULL);   /* X */
    drain_and_fill(&f, 3);
    rd(&f, 0x100, 4, &rc, NULL);   /* B: miss, its data is still on the way */
    int r = OUT(rd(&f, 0x000, 5, &rc, NULL));
    fx_free(&f);
    return r;
}

TEST(cache_alloc_on_fill_vs_on_miss)
{
    CHECK_EQ(on_fill_vs_on_miss("N:1:128:2,L:E:f:N:L,A:8:4,8"), GMS_CACHE_HIT);
    CHECK_EQ(on_fill_vs_on_miss("N:1:128:2,L:E:m:N:L,A:8:4,8"), GMS_CACHE_MISS);
}

TEST(cache_mshr_merge_then_merge_fail)
{
    fx f;
    REQUIRE(!fx_init(&f, "N:4:128:4,L:T:m:N:L,A:4:3,8", "L1D"));
    gms_rf_cause rc = GMS_RF__COUNT;
    gms_mreq *p, *s1, *s2, *s3;
    int r = rd(&f, 0x1000, 1, &rc, &p);
    CHECK_EQ(OUT(r), GMS_CACHE_MISS);
    CHECK(r & GMS_CACHE_SENT);
    CHECK(r & GMS_CACHE_WAIT);
    r = rd(&f, 0x1000, 2, &rc, &s1);
    CHECK_EQ(OUT(r), GMS_CACHE_HIT_RESERVED);
    CHECK(r & GMS_CACHE_WAIT);
    CHECK(!(r & GMS_CACHE_SENT));
    CHECK_EQ(OUT(rd(&f, 0x1000, 3, &rc, &s2)), GMS_CACHE_HIT_RESERVED);
    /* 3 merge slots (primary included) are used: the 4th request fails */
    r = rd(&f, 0x1000, 4, &rc, &s3);
    CHECK_EQ(r, GMS_CACHE_RESERVATION_FAIL);
    CHECK_EQ(rc, GMS_RF_MSHR_MERGE);
    const gms_cache_stats *st = gms_cache_get_stats(f.c);
    CHECK_EQ(st->acc[GMS_ACC_GLOBAL_R][GMS_CACHE_HIT_RESERVED], 2);
    CHECK_EQ(st->acc[GMS_ACC_GLOBAL_R][GMS_CACHE_MSHR_HIT], 2);
    CHECK_EQ(st->acc[GMS_ACC_GLOBAL_R][GMS_CACHE_RESERVATION_FAIL], 1);
    CHECK_EQ(st->fail[GMS_ACC_GLOBAL_R][GMS_RF_MSHR_MERGE], 1);
    CHECK_EQ(st->total_access[GMS_ACC_GLOBAL_R], 3);
    CHECK_EQ(gms_cache_mshr_used(f.c), 1);
    CHECK_EQ(gms_cache_mq_size(f.c), 1);
    /* fill returns every waiter, primary first, and frees the entry */
    gms_mreq *q = gms_cache_mq_pop(f.c);
    CHECK(q == p);
    gms_mreq *w = gms_cache_fill(f.c, q, 10);
    CHECK(w == p);
    CHECK(w && w->next == s1);
    CHECK(w && w->next && w->next->next == s2);
    CHECK(w && w->next && w->next->next && w->next->next->next == NULL);
    CHECK_EQ(gms_cache_mshr_used(f.c), 0);
    /* the retried request now hits */
    CHECK_EQ(gms_cache_access(f.c, s3, 11, &rc), GMS_CACHE_HIT);
    fx_free(&f);
}

TEST(cache_mshr_table_full)
{
    fx f;
    REQUIRE(!fx_init(&f, "N:4:128:4,L:T:m:N:L,A:2:8,8", "L1D"));
    gms_rf_cause rc = GMS_RF__COUNT;
    CHECK_EQ(OUT(rd(&f, 0x0000, 1, &rc, NULL)), GMS_CACHE_MISS);
    CHECK_EQ(OUT(rd(&f, 0x1000, 2, &rc, NULL)), GMS_CACHE_MISS);
    CHECK_EQ(rd(&f, 0x2000, 3, &rc, NULL), GMS_CACHE_RESERVATION_FAIL);
    CHECK_EQ(rc, GMS_RF_MSHR_ENTRY);
    CHECK_EQ(gms_cache_get_stats(f.c)->fail[GMS_ACC_GLOBAL_R][GMS_RF_MSHR_ENTRY], 1);
    /* a merge into an existing entry still works */
    CHECK_EQ(OUT(rd(&f, 0x0000, 4, &rc, NULL)), GMS_CACHE_HIT_RESERVED);
    fx_free(&f);
}

/* GPGPU-Sim's fill protocol (mark_ready / next_access): 2 MSHR entries. A (0x0000, with a
 * merged A') and B (0x1000) miss. A's fill marks its entry ready, but the entry still counts:
 * C (0x2000) fails with MSHR_ENRTY_FAIL. next_access hands out A, then A' (which frees the
 * entry); now C misses. A's line is valid from the fill on: a read of A hits meanwhile. */
TEST(cache_mshr_freed_by_last_next_access)
{
    fx f;
    REQUIRE(!fx_init(&f, "N:4:128:4,L:T:m:N:L,A:2:8,8", "L1D"));
    gms_rf_cause rc = GMS_RF__COUNT;
    gms_mreq *a, *a2, *c;
    CHECK_EQ(OUT(rd(&f, 0x0000, 1, &rc, &a)), GMS_CACHE_MISS);
    CHECK_EQ(OUT(rd(&f, 0x0000, 2, &rc, &a2)), GMS_CACHE_HIT_RESERVED);
    CHECK_EQ(OUT(rd(&f, 0x1000, 3, &rc, NULL)), GMS_CACHE_MISS);
    gms_mreq *q = gms_cache_mq_pop(f.c);
    REQUIRE(q == a);
    CHECK(!gms_cache_access_ready(f.c));
    CHECK_EQ(gms_cache_fill_ready(f.c, q, 4), 1);
    CHECK(gms_cache_access_ready(f.c));
    CHECK_EQ(gms_cache_mshr_used(f.c), 2);
    CHECK_EQ(rd(&f, 0x2000, 5, &rc, &c), GMS_CACHE_RESERVATION_FAIL);
    CHECK_EQ(rc, GMS_RF_MSHR_ENTRY);
    CHECK_EQ(OUT(rd(&f, 0x0000, 5, &rc, NULL)), GMS_CACHE_HIT);
    CHECK(gms_cache_next_access(f.c, 0) == a);
    CHECK_EQ(gms_cache_mshr_used(f.c), 2);
    CHECK(gms_cache_next_access(f.c, 0) == a2);
    CHECK_EQ(gms_cache_mshr_used(f.c), 1);
    CHECK(!gms_cache_access_ready(f.c));
    CHECK(gms_cache_next_access(f.c, 0) == NULL);
    CHECK_EQ(OUT(gms_cache_access(f.c, c, 6, &rc)), GMS_CACHE_MISS);
    fx_free(&f);
}

/* Issue 19. One set, 2 ways. A's entry is filled but still hands out its waiters when A's
 * line is evicted (by C); a read of A then misses in the tag array and merges into the
 * filled entry (MISS + MSHR_HIT, handed out with the entry, nothing sent). It must not
 * reserve a line: no fill is coming for it. Before the fix it took B's way (the LRU
 * victim): B's next read failed (both ways reserved, C's and the orphan), and after
 * everything drained the orphan was still reserved (left by the flush, a pending hit for A);
 * enough of them and every miss to the set failed for ever. */
TEST(cache_merge_into_filled_entry_reserves_nothing)
{
    fx f;
    REQUIRE(!fx_init(&f, "N:1:128:2,L:T:m:N:L,A:8:8,8", "L1D"));
    gms_rf_cause rc = GMS_RF__COUNT;
    gms_mreq *a, *a2, *a3, *b, *c;
    CHECK_EQ(OUT(rd(&f, 0x000, 1, &rc, &a)), GMS_CACHE_MISS);            /* way 1 (last invalid) */
    CHECK_EQ(OUT(rd(&f, 0x000, 1, &rc, &a2)), GMS_CACHE_HIT_RESERVED);
    CHECK_EQ(OUT(rd(&f, 0x080, 2, &rc, &b)), GMS_CACHE_MISS);            /* way 0 */
    REQUIRE(gms_cache_mq_pop(f.c) == a);
    REQUIRE(gms_cache_mq_pop(f.c) == b);
    CHECK_EQ(gms_cache_fill_ready(f.c, a, 3), 1);
    CHECK_EQ(gms_cache_fill_ready(f.c, b, 3), 1);
    CHECK(gms_cache_next_access(f.c, 0) == a);                              /* a2 still waits */
    CHECK_EQ(gms_cache_mshr_used(f.c), 2);
    /* C evicts A (LRU key 1; B's is 2) and reserves its way */
    CHECK_EQ(OUT(rd(&f, 0x100, 4, &rc, &c)), GMS_CACHE_MISS);
    REQUIRE(gms_cache_mq_pop(f.c) == c);
    int ret = rd(&f, 0x000, 5, &rc, &a3);
    CHECK_EQ(OUT(ret), GMS_CACHE_MISS);
    CHECK_EQ(ret & (GMS_CACHE_WAIT | GMS_CACHE_SENT), GMS_CACHE_WAIT);   /* rides along, not sent */
    CHECK_EQ(gms_cache_mq_size(f.c), 0);
    CHECK_EQ(gms_cache_mshr_used(f.c), 3);
    CHECK_EQ(OUT(rd(&f, 0x080, 6, &rc, NULL)), GMS_CACHE_HIT);           /* B kept its way */
    CHECK(gms_cache_next_access(f.c, 0) == a2);
    CHECK(gms_cache_next_access(f.c, 0) == a3);
    CHECK_EQ(gms_cache_mshr_used(f.c), 2);                               /* A's entry freed */
    CHECK(gms_cache_next_access(f.c, 0) == b);
    CHECK(!gms_cache_access_ready(f.c));
    CHECK_EQ(gms_cache_fill_ready(f.c, c, 7), 1);
    CHECK(gms_cache_next_access(f.c, 0) == c);
    CHECK_EQ(gms_cache_mshr_used(f.c), 0);
    CHECK_EQ(gms_cache_get_stats(f.c)->acc[GMS_ACC_GLOBAL_R][GMS_CACHE_MSHR_HIT], 2);   /* a2, a3 */
    CHECK_EQ(gms_cache_flush(f.c), 2);                                   /* B and C */
    CHECK_EQ(gms_cache_valid_lines(f.c), 0);                             /* nothing reserved */
    ret = rd(&f, 0x000, 8, &rc, NULL);                                   /* A is fetched again */
    CHECK_EQ(OUT(ret), GMS_CACHE_MISS);
    CHECK(ret & GMS_CACHE_SENT);
    fx_free(&f);
}

TEST(cache_line_alloc_fail)
{
    fx f;
    REQUIRE(!fx_init(&f, "N:1:128:2,L:T:m:N:L,A:8:8,8", "L1D"));
    gms_rf_cause rc = GMS_RF__COUNT;
    rd(&f, 0x000, 1, &rc, NULL);
    rd(&f, 0x080, 2, &rc, NULL);
    /* both ways are reserved by pending misses */
    CHECK_EQ(rd(&f, 0x100, 3, &rc, NULL), GMS_CACHE_RESERVATION_FAIL);
    CHECK_EQ(rc, GMS_RF_LINE_ALLOC);
    CHECK_EQ(gms_cache_get_stats(f.c)->fail[GMS_ACC_GLOBAL_R][GMS_RF_LINE_ALLOC], 1);
    /* a write with no write-allocate does not need a line: it is sent */
    int r = wr(&f, 0x100, 4, &rc, NULL);
    CHECK_EQ(OUT(r), GMS_CACHE_MISS);
    CHECK(r & GMS_CACHE_SENT);
    fx_free(&f);
}

TEST(cache_miss_queue_full)
{
    fx f;
    REQUIRE(!fx_init(&f, "N:4:128:4,L:T:m:N:L,A:8:8,3", "L1D"));
    gms_rf_cause rc = GMS_RF__COUNT;
    /* miss queue 3: a read miss needs size + 1 < 3, a write size < 3 */
    CHECK_EQ(OUT(rd(&f, 0x0000, 1, &rc, NULL)), GMS_CACHE_MISS);
    CHECK_EQ(OUT(rd(&f, 0x1000, 2, &rc, NULL)), GMS_CACHE_MISS);
    CHECK_EQ(rd(&f, 0x2000, 3, &rc, NULL), GMS_CACHE_RESERVATION_FAIL);
    CHECK_EQ(rc, GMS_RF_MISS_QUEUE_FULL);
    /* even a merge needs the miss-queue room (GPGPU-Sim rd_miss_base checks first) */
    CHECK_EQ(rd(&f, 0x0000, 4, &rc, NULL), GMS_CACHE_RESERVATION_FAIL);
    CHECK_EQ(rc, GMS_RF_MISS_QUEUE_FULL);
    CHECK_EQ(OUT(wr(&f, 0x3000, 5, &rc, NULL)), GMS_CACHE_MISS);
    CHECK_EQ(wr(&f, 0x3000, 6, &rc, NULL), GMS_CACHE_RESERVATION_FAIL);
    CHECK_EQ(rc, GMS_RF_MISS_QUEUE_FULL);
    const gms_cache_stats *st = gms_cache_get_stats(f.c);
    CHECK_EQ(st->fail[GMS_ACC_GLOBAL_R][GMS_RF_MISS_QUEUE_FULL], 2);
    CHECK_EQ(st->fail[GMS_ACC_GLOBAL_W][GMS_RF_MISS_QUEUE_FULL], 1);
    /* draining makes room again: one free entry is not enough for a read, two are */
    gms_cache_mq_pop(f.c);
    CHECK_EQ(rd(&f, 0x2000, 7, &rc, NULL), GMS_CACHE_RESERVATION_FAIL);
    gms_cache_mq_pop(f.c);
    CHECK_EQ(OUT(rd(&f, 0x2000, 8, &rc, NULL)), GMS_CACHE_MISS);
    fx_free(&f);
}

TEST(cache_sector_miss)
{
    fx f;
    REQUIRE(!fx_init(&f, "S:4:128:4,L:T:m:L:L,A:8:8,8", "L1D"));
    gms_rf_cause rc;
    gms_mreq *r0, *r1;
    /* vecadd pattern: first sector of the line MISS, the others SECTOR_MISS, one MSHR each */
    CHECK_EQ(OUT(rd(&f, 0x1000, 1, &rc, &r0)), GMS_CACHE_MISS);
    CHECK_EQ(OUT(rd(&f, 0x1020, 1, &rc, &r1)), GMS_CACHE_SECTOR_MISS);
    CHECK_EQ(OUT(rd(&f, 0x1040, 1, &rc, NULL)), GMS_CACHE_SECTOR_MISS);
    CHECK_EQ(gms_cache_mshr_used(f.c), 3);
    CHECK_EQ(r1->addr, 0x1020);
    CHECK_EQ(r1->bytes, 32);
    gms_mreq *q = gms_cache_mq_pop(f.c);
    CHECK(q == r0);
    CHECK(gms_cache_fill(f.c, q, 5) == r0);
    CHECK_EQ(OUT(rd(&f, 0x1000, 6, &rc, NULL)), GMS_CACHE_HIT);
    CHECK_EQ(OUT(rd(&f, 0x1020, 6, &rc, NULL)), GMS_CACHE_HIT_RESERVED);
    CHECK_EQ(OUT(rd(&f, 0x1060, 6, &rc, NULL)), GMS_CACHE_SECTOR_MISS);
    const gms_cache_stats *st = gms_cache_get_stats(f.c);
    CHECK_EQ(st->acc[GMS_ACC_GLOBAL_R][GMS_CACHE_MISS], 1);
    CHECK_EQ(st->acc[GMS_ACC_GLOBAL_R][GMS_CACHE_SECTOR_MISS], 3);
    fx_free(&f);
}

TEST(cache_write_through_no_allocate)
{
    fx f;
    REQUIRE(!fx_init(&f, "N:4:128:4,L:T:m:N:L,A:8:8,8", "L1D"));
    gms_rf_cause rc;
    gms_mreq *w;
    int r = wr(&f, 0x2000, 1, &rc, &w);
    CHECK_EQ(OUT(r), GMS_CACHE_MISS);
    CHECK(r & GMS_CACHE_SENT);
    CHECK(!(r & GMS_CACHE_WAIT));
    CHECK_EQ(gms_cache_valid_lines(f.c), 0);      /* no allocation */
    CHECK(gms_cache_mq_pop(f.c) == w);
    CHECK_EQ(gms_cache_mshr_used(f.c), 0);
    /* read, fill, then a write hit: sent too, the line stays */
    rd(&f, 0x2000, 2, &rc, NULL);
    drain_and_fill(&f, 3);
    r = wr(&f, 0x2000, 4, &rc, NULL);
    CHECK_EQ(OUT(r), GMS_CACHE_HIT);
    CHECK(r & GMS_CACHE_SENT);
    CHECK_EQ(OUT(rd(&f, 0x2000, 5, &rc, NULL)), GMS_CACHE_HIT);
    fx_free(&f);
}

TEST(cache_write_evict)
{
    fx f;
    REQUIRE(!fx_init(&f, "N:4:128:4,L:E:m:N:L,A:8:8,8", "L1D"));
    gms_rf_cause rc;
    rd(&f, 0x2000, 1, &rc, NULL);
    drain_and_fill(&f, 2);
    CHECK_EQ(gms_cache_valid_lines(f.c), 1);
    int r = wr(&f, 0x2000, 3, &rc, NULL);
    CHECK_EQ(OUT(r), GMS_CACHE_HIT);
    CHECK(r & GMS_CACHE_SENT);
    CHECK_EQ(gms_cache_valid_lines(f.c), 0);      /* the hit line was invalidated */
    CHECK_EQ(OUT(rd(&f, 0x2000, 4, &rc, NULL)), GMS_CACHE_MISS);
    fx_free(&f);
}

TEST(cache_local_wb_global_we)
{
    fx f;
    REQUIRE(!fx_init(&f, "N:1:128:1,L:L:m:N:L,A:8:8,8", "L1D"));
    gms_rf_cause rc;
    gms_mreq *r0 = mk(&f, 0x000, GMS_MREQ_READ, GMS_ACC_LOCAL_R);
    gms_cache_access(f.c, r0, 1, &rc);
    drain_and_fill(&f, 2);
    /* a local write hit is written back later (line becomes dirty, nothing sent) */
    gms_mreq *w = mk(&f, 0x000, GMS_MREQ_WRITE, GMS_ACC_LOCAL_W);
    CHECK_EQ(gms_cache_access(f.c, w, 3, &rc), GMS_CACHE_HIT);
    CHECK_EQ(gms_cache_mq_size(f.c), 0);
    /* evicting it produces an L1 write-back after the read miss */
    gms_mreq *r1;
    rd(&f, 0x080, 4, &rc, &r1);
    CHECK_EQ(gms_cache_mq_size(f.c), 2);
    CHECK(gms_cache_mq_pop(f.c) == r1);
    pop_writeback(&f, GMS_ACC_L1_WRBK, 0x000, 128);
    fx_free(&f);
}

TEST(cache_write_back_eviction_l2)
{
    fx f;
    /* QV100-like L2 slice: sector, write-back, lazy fetch-on-read; 1 set x 1 way */
    REQUIRE(!fx_init(&f, "S:1:128:1,L:B:m:L:L,A:8:4,8:0,32", "L2_slice0"));
    gms_rf_cause rc;
    gms_mreq *w = mk(&f, 0x1020, GMS_MREQ_WRITE, GMS_ACC_GLOBAL_W);
    w->subpart = 5;
    int r = gms_cache_access(f.c, w, 1, &rc);
    /* write miss absorbed: line allocated, sector dirty, nothing sent, nothing waits */
    CHECK_EQ(OUT(r), GMS_CACHE_MISS);
    CHECK(!(r & (GMS_CACHE_SENT | GMS_CACHE_WAIT)));
    CHECK_EQ(gms_cache_mq_size(f.c), 0);
    /* a full-sector write makes the sector readable: a read hits */
    CHECK_EQ(OUT(rd(&f, 0x1020, 2, &rc, NULL)), GMS_CACHE_HIT);
    /* another block in the only way: read miss evicts the dirty line -> L2_WRBK_ACC */
    gms_mreq *r2 = mk(&f, 0x5000, GMS_MREQ_READ, GMS_ACC_GLOBAL_R);
    r2->subpart = 5;    /* GPGPU-Sim sends the write-back to the evicting request's slice */
    r = gms_cache_access(f.c, r2, 3, &rc);
    CHECK_EQ(OUT(r), GMS_CACHE_MISS);
    CHECK_EQ(gms_cache_mq_size(f.c), 2);
    CHECK(gms_cache_mq_pop(f.c) == r2);
    gms_mreq *wb = pop_writeback(&f, GMS_ACC_L2_WRBK, 0x1000, 32);   /* one modified sector */
    REQUIRE(wb != NULL);
    CHECK_EQ(wb->sector_mask, 0x2);
    CHECK_EQ(wb->sm, UINT16_MAX);
    CHECK_EQ(wb->subpart, 5);
    CHECK_EQ(f.pool.live, 4);         /* w, read, r2, wb */
    fx_free(&f);
}

TEST(cache_lazy_partial_write_then_read)
{
    fx f;
    /* QV100 L1D policies on a small geometry */
    REQUIRE(!fx_init(&f, "S:1:128:4,L:T:m:L:L,A:8:8,8:0,32", "L1D"));
    gms_rf_cause rc;
    gms_mreq *w = mk(&f, 0x1000, GMS_MREQ_WRITE, GMS_ACC_GLOBAL_W);
    w->bytes = 4;                      /* one 4-byte store: the sector is not fully known */
    int r = gms_cache_access(f.c, w, 1, &rc);
    CHECK_EQ(OUT(r), GMS_CACHE_MISS);
    CHECK(r & GMS_CACHE_SENT);        /* write-through */
    CHECK_EQ(gms_cache_valid_lines(f.c), 1);
    /* another write to the sector hits (MODIFIED) */
    gms_mreq *w2 = mk(&f, 0x1000, GMS_MREQ_WRITE, GMS_ACC_GLOBAL_W);
    w2->bytes = 4;
    CHECK_EQ(OUT(gms_cache_access(f.c, w2, 2, &rc)), GMS_CACHE_HIT);
    /* a read of the partially written sector must fetch it: SECTOR_MISS */
    gms_mreq *r1;
    CHECK_EQ(OUT(rd(&f, 0x1000, 3, &rc, &r1)), GMS_CACHE_SECTOR_MISS);
    while (gms_cache_mq_size(f.c) > 1) gms_cache_mq_pop(f.c);   /* the two writes */
    gms_mreq *q = gms_cache_mq_pop(f.c);
    CHECK(q == r1);
    CHECK(gms_cache_fill(f.c, q, 4) == r1);
    /* filled sector keeps the written data: MODIFIED; it reads as a hit now */
    CHECK_EQ(OUT(rd(&f, 0x1000, 5, &rc, NULL)), GMS_CACHE_HIT);
    fx_free(&f);
}

TEST(cache_naive_write_allocate)
{
    fx f;
    /* sound-baseline L2 policies: write-back, on-miss, 'W' write + fetch */
    REQUIRE(!fx_init(&f, "N:4:128:4,L:B:m:W:X,A:8:8,8:0,32", "L2"));
    gms_rf_cause rc;
    gms_mreq *w;
    int r = wr(&f, 0x3000, 1, &rc, &w);
    CHECK_EQ(OUT(r), GMS_CACHE_MISS);
    CHECK(r & GMS_CACHE_SENT);
    CHECK(!(r & GMS_CACHE_WAIT));
    CHECK_EQ(gms_cache_mq_size(f.c), 2);
    CHECK(gms_cache_mq_pop(f.c) == w);
    gms_mreq *a = gms_cache_mq_pop(f.c);
    REQUIRE(a != NULL);
    CHECK_EQ(a->access, GMS_ACC_L2_WR_ALLOC_R);
    CHECK_EQ(a->kind, GMS_MREQ_READ);
    /* a read merges behind the fetch and is the only request returned by the fill */
    gms_mreq *r1;
    CHECK_EQ(OUT(rd(&f, 0x3000, 2, &rc, &r1)), GMS_CACHE_HIT_RESERVED);
    uint64_t live = f.pool.live;
    gms_mreq *chain = gms_cache_fill(f.c, a, 3);
    CHECK(chain == r1);
    CHECK(chain && chain->next == NULL);
    CHECK_EQ(f.pool.live, live - 1);   /* the internal fetch went back to the pool */
    fx_free(&f);
}

TEST(cache_fetch_on_write_rw_pending)
{
    fx f;
    REQUIRE(!fx_init(&f, "S:4:128:4,L:B:m:F:L,A:8:8,8", "L2"));
    gms_rf_cause rc = GMS_RF__COUNT;
    gms_mreq *w = mk(&f, 0x1000, GMS_MREQ_WRITE, GMS_ACC_GLOBAL_W);
    w->bytes = 8;                      /* partial: fetch the sector */
    int r = gms_cache_access(f.c, w, 1, &rc);
    CHECK_EQ(OUT(r), GMS_CACHE_MISS);
    CHECK(r & GMS_CACHE_WAIT);
    CHECK(!(r & GMS_CACHE_SENT));
    gms_mreq *rr;
    CHECK_EQ(OUT(rd(&f, 0x1000, 2, &rc, &rr)), GMS_CACHE_HIT_RESERVED);
    /* write - read queued: a second partial write is taken too, as in GPGPU-Sim, whose MSHR
     * holds only the allocate reads (is_read_after_write_pending never finds a write there;
     * until 2026-12-05 it was refused here with MSHR_RW_PENDING) */
    gms_mreq *w2 = mk(&f, 0x1000, GMS_MREQ_WRITE, GMS_ACC_GLOBAL_W);
    w2->bytes = 8;
    int r2 = gms_cache_access(f.c, w2, 3, &rc);
    CHECK_EQ(OUT(r2), GMS_CACHE_HIT_RESERVED);   /* its sector's fetch is pending: it waits for it */
    CHECK(r2 & GMS_CACHE_WAIT);
    gms_mreq *fetch = gms_cache_mq_pop(f.c);
    REQUIRE(fetch != NULL);
    CHECK_EQ(fetch->access, GMS_ACC_L2_WR_ALLOC_R);
    CHECK(gms_cache_mq_pop(f.c) == NULL);   /* one fetch for the sector */
    gms_mreq *chain = gms_cache_fill(f.c, fetch, 4);
    CHECK(chain == w);                 /* the write, the read, the second write */
    CHECK(chain && chain->next == rr);
    CHECK(chain && chain->next && chain->next->next == w2);
    fx_free(&f);
}

TEST(cache_flush_and_report)
{
    fx f;
    REQUIRE(!fx_init(&f, "S:4:128:4,L:T:m:L:L,A:8:8,2", "L1D"));
    gms_rf_cause rc;
    rd(&f, 0x1000, 1, &rc, NULL);                                   /* MISS */
    CHECK_EQ(rd(&f, 0x1020, 1, &rc, NULL), GMS_CACHE_RESERVATION_FAIL); /* queue 1+1 >= 2 */
    drain_and_fill(&f, 2);
    rd(&f, 0x1020, 3, &rc, NULL);                                   /* SECTOR_MISS */
    drain_and_fill(&f, 4);
    rd(&f, 0x1000, 5, &rc, NULL);                                   /* HIT */
    gms_cache *cs[2] = { f.c, NULL };
    gms_stats out;
    gms_stats_init(&out);
    gms_cache_report(cs, 2, "L1D", &out);
    const gms_stat *s;
    s = gms_stats_find(&out, "L1D_total_cache_accesses"); CHECK(s && s->value == 3);
    s = gms_stats_find(&out, "L1D_total_cache_misses"); CHECK(s && s->value == 2);
    s = gms_stats_find(&out, "L1D_total_cache_reservation_fails"); CHECK(s && s->value == 1);
    s = gms_stats_find(&out, "L1D_total_cache_pending_hits"); CHECK(s && s->value == 0);
    s = gms_stats_find(&out, "L1D_total_cache_miss_rate"); CHECK(s && s->value > 0.66 && s->value < 0.67);
    s = gms_stats_find(&out, "L1D_breakdown[GLOBAL_ACC_R][SECTOR_MISS]"); CHECK(s && s->value == 1);
    s = gms_stats_find(&out, "L1D_breakdown[GLOBAL_ACC_R][TOTAL_ACCESS]"); CHECK(s && s->value == 3);
    s = gms_stats_find(&out, "L1D_fail_breakdown[GLOBAL_ACC_R][MISS_QUEUE_FULL]"); CHECK(s && s->value == 1);
    CHECK(gms_stats_find(&out, "L1D_breakdown[GLOBAL_ACC_W][HIT]") == NULL);
    gms_stats_free(&out);
    CHECK_EQ(gms_cache_flush(f.c), 1);
    CHECK_EQ(gms_cache_valid_lines(f.c), 0);
    CHECK_EQ(OUT(rd(&f, 0x1000, 6, &rc, NULL)), GMS_CACHE_MISS);
    fx_free(&f);
}

TEST(cache_set_index_xform)
{
    fx f;
    REQUIRE(!fx_init(&f, "N:4:128:1,L:B:m:N:L,A:8:8,8", "L2"));
    gms_rf_cause rc;
    /* without the transform 0x000 and 0x200 share set 0 (1 way, reserved by the first)... */
    rd(&f, 0x000, 1, &rc, NULL);
    CHECK_EQ(rd(&f, 0x200, 2, &rc, NULL), GMS_CACHE_RESERVATION_FAIL);
    CHECK_EQ(rc, GMS_RF_LINE_ALLOC);
    fx_free(&f);
    REQUIRE(!fx_init(&f, "N:4:128:1,L:B:m:N:L,A:8:8,8", "L2"));
    /* ...with addr >> 2 they land in sets 0 and 1 (0x200 >> 2 = 0x80 -> set 1) */
    extern uint64_t test_cache_shift2(void *ctx, uint64_t a);
    gms_cache_set_index_xform(f.c, test_cache_shift2, NULL);
    rd(&f, 0x000, 1, &rc, NULL);
    rd(&f, 0x200, 2, &rc, NULL);
    CHECK_EQ(gms_cache_mshr_used(f.c), 2);
    drain_and_fill(&f, 3);
    CHECK_EQ(OUT(rd(&f, 0x000, 4, &rc, NULL)), GMS_CACHE_HIT);
    CHECK_EQ(OUT(rd(&f, 0x200, 4, &rc, NULL)), GMS_CACHE_HIT);
    fx_free(&f);
}

uint64_t test_cache_shift2(void *ctx, uint64_t a);
uint64_t test_cache_shift2(void *ctx, uint64_t a) { (void)ctx; return a >> 2; }

/* random mix on several policy combinations: every request is answered exactly once, the
 * MSHRs drain, and no request leaks (pool live count returns to 0) */
static void stress(const char *str, const char *name)
{
    fx f;
    REQUIRE(!fx_init(&f, str, name));
    uint64_t s = 0x243F6A8885A308D3ull;
    gms_mreq *inflight[64];
    int nin = 0;
    uint64_t done = 0, issued = 0;
    for (uint64_t now = 1; now < (gms_test_quick() ? 4000 : 20000); now++) {
        s ^= s << 13; s ^= s >> 7; s ^= s << 17;
        int kind = (s >> 50) % 4 == 0 ? GMS_MREQ_WRITE : GMS_MREQ_READ;
        gms_mreq *r = mk(&f, (s % 8192) & ~31ull, kind, kind == GMS_MREQ_WRITE ? GMS_ACC_GLOBAL_W : GMS_ACC_GLOBAL_R);
        if ((s >> 40) % 3 == 0) r->bytes = 4;
        gms_rf_cause rc;
        int ret = gms_cache_access(f.c, r, now, &rc);
        if (ret == GMS_CACHE_RESERVATION_FAIL) { gms_mreq_release(&f.pool, r); }
        else {
            issued++;
            /* finished here; otherwise answered when it leaves the queue (writes) or by a fill */
            if (!(ret & (GMS_CACHE_SENT | GMS_CACHE_WAIT))) { done++; gms_mreq_release(&f.pool, r); }
        }
        /* the next level: take one request per cycle, answer reads a few cycles later */
        gms_mreq *q = gms_cache_mq_pop(f.c);
        if (q) {
            if (q->kind == GMS_MREQ_READ) {
                REQUIRE(nin < 64);     /* bounded by the MSHR entries */
                inflight[nin++] = q;
            } else {
                if (q->access == GMS_ACC_GLOBAL_W) done++;
                gms_mreq_release(&f.pool, q);
            }
        }
        if (nin && (s >> 20) % 2) {
            gms_mreq *rep = inflight[0];
            memmove(inflight, inflight + 1, (size_t)(nin - 1) * sizeof *inflight);
            nin--;
            done += fill_release(&f, rep, now);
        }
    }
    /* drain */
    for (int guard = 0; guard < 100000 && (nin || gms_cache_mq_size(f.c)); guard++) {
        gms_mreq *q = gms_cache_mq_pop(f.c);
        if (q && q->kind == GMS_MREQ_READ) { REQUIRE(nin < 64); inflight[nin++] = q; }
        else if (q) { if (q->access == GMS_ACC_GLOBAL_W) done++; gms_mreq_release(&f.pool, q); }
        if (nin) {
            gms_mreq *rep = inflight[--nin];
            done += fill_release(&f, rep, 0);
        }
    }
    CHECK_EQ(gms_cache_mshr_used(f.c), 0);
    CHECK_EQ(done, issued);
    CHECK_EQ(f.pool.live, 0);
    const gms_cache_stats *st = gms_cache_get_stats(f.c);
    uint64_t tot = st->total_access[GMS_ACC_GLOBAL_R] + st->total_access[GMS_ACC_GLOBAL_W];
    CHECK_EQ(tot, issued);
    fx_free(&f);
}

TEST(cache_stress_conservation)
{
    stress("S:4:128:4,L:T:m:L:L,A:8:4,8:0,32", "L1D");     /* QV100 L1D policies */
    stress("S:4:128:4,L:B:m:L:P,A:8:4,8:0,32", "L2");      /* QV100 L2 policies */
    stress("N:8:128:2,L:E:f:N:X,A:4:8,6", "L1D");          /* sound-baseline L1D style */
    stress("N:4:128:4,L:B:m:W:X,A:8:8,8:0,32", "L2");      /* sound-baseline L2 */
    stress("S:4:128:2,F:B:m:F:M,A:8:4,8", "L2");           /* fetch-on-write, FIFO, PMOD */
}

/* Wide sets (33 ways or more) keep their ways in a list sorted by (key, way) instead of
 * scanning every way for the victim. One 40-way set, hand-computed: ties go to the lowest way
 * (not to the way touched first), a reserved way with the smallest key is skipped, a hit moves
 * a way to the end. Allocation fills invalid ways from the top: block k lands in way 39 - k. */
TEST(cache_wide_set_lru_order)
{
    fx f;
    REQUIRE(!fx_init(&f, "N:1:128:40,L:T:m:N:L,A:64:4,64", "L1D"));
    gms_rf_cause rc;
    for (uint64_t k = 0; k < 40; k++) CHECK_EQ(OUT(rd(&f, k * 128, 1, &rc, NULL)), GMS_CACHE_MISS);
    drain_and_fill(&f, 2);                                             /* every key is 1 */
    CHECK_EQ(OUT(rd(&f, 39 * 128, 3, &rc, NULL)), GMS_CACHE_HIT);      /* way 0: key 3 */
    CHECK_EQ(OUT(rd(&f, 40 * 128, 4, &rc, NULL)), GMS_CACHE_MISS);     /* evicts way 1 (block 38) */
    drain_and_fill(&f, 5);
    CHECK_EQ(OUT(rd(&f, 50 * 128, 10, &rc, NULL)), GMS_CACHE_MISS);    /* evicts way 2 (block 37), stays reserved */
    /* touch ways 39..3 first, then way 1, then way 0: all get key 11 */
    for (uint64_t k = 0; k <= 36; k++) CHECK_EQ(OUT(rd(&f, k * 128, 11, &rc, NULL)), GMS_CACHE_HIT);
    CHECK_EQ(OUT(rd(&f, 40 * 128, 11, &rc, NULL)), GMS_CACHE_HIT);
    CHECK_EQ(OUT(rd(&f, 39 * 128, 11, &rc, NULL)), GMS_CACHE_HIT);
    /* way 2 (key 10) is reserved: the victim is the lowest way of key 11, way 0 (block 39) */
    CHECK_EQ(OUT(rd(&f, 60 * 128, 12, &rc, NULL)), GMS_CACHE_MISS);
    drain_and_fill(&f, 13);
    CHECK_EQ(OUT(rd(&f, 0 * 128, 14, &rc, NULL)), GMS_CACHE_HIT);
    CHECK_EQ(OUT(rd(&f, 40 * 128, 14, &rc, NULL)), GMS_CACHE_HIT);
    CHECK_EQ(OUT(rd(&f, 50 * 128, 14, &rc, NULL)), GMS_CACHE_HIT);
    CHECK_EQ(OUT(rd(&f, 38 * 128, 15, &rc, NULL)), GMS_CACHE_MISS);
    CHECK_EQ(OUT(rd(&f, 37 * 128, 15, &rc, NULL)), GMS_CACHE_MISS);
    CHECK_EQ(OUT(rd(&f, 39 * 128, 15, &rc, NULL)), GMS_CACHE_MISS);
    fx_free(&f);
}

/* The conventional MSHR's mark_ready hint (host speed): the index add() returned finds the
 * entry directly; a wrong, stale or out-of-range hint falls back to the key lookup, so every
 * hint gives the same primary and the same ready order; a key with no entry gives NULL. */
TEST(mshr_mark_ready_hint_is_only_a_hint)
{
    gms_cache_config cfg = { 0 };
    cfg.mshr_entries = 4;
    cfg.mshr_max_merge = 2;
    const gms_mshr_ops *mo = gms_mshr_find("conventional");
    REQUIRE(mo);
    void *m = mo->create(&cfg);
    gms_mreq r[3] = { { 0 } };
    gms_mshr_info info = { 0 };
    uint32_t i0 = mo->add(m, 0x100, &r[0], 1, &info);
    uint32_t i1 = mo->add(m, 0x200, &r[1], 1, &info);
    CHECK(i0 != i1 && i0 < 4 && i1 < 4);
    CHECK_EQ(mo->add(m, 0x200, &r[2], 1, NULL), i1);          /* a merge names the same entry */
    CHECK(mo->mark_ready(m, 0x300, i0, &info) == NULL);          /* no entry: the hint is not trusted */
    CHECK(mo->mark_ready(m, 0x200, i0, &info) == &r[1]);         /* wrong hint (another key's entry) */
    CHECK(mo->mark_ready(m, 0x100, 9999, &info) == &r[0]);       /* out of range */
    CHECK(mo->next_ready(m) == &r[1]);                           /* ready in fill order, primary first */
    CHECK(mo->next_ready(m) == &r[2]);
    CHECK(mo->next_ready(m) == &r[0]);
    CHECK_EQ(mo->used(m), 0);
    /* the freed entry is reused for a new key: the old key's hint no longer matches it */
    uint32_t i2 = mo->add(m, 0x400, &r[0], 1, &info);
    CHECK(mo->mark_ready(m, 0x100, i2, &info) == NULL);
    CHECK(mo->mark_ready(m, 0x400, i2, &info) == &r[0]);
    mo->destroy(m);
}

/* The MSHR table's occupancy integral runs on the cache's clock, which the hand-out
 * (next_access) moves too. 2 entries x 8 slots: A misses at cycle 0 (one slot), its fill comes
 * at 10, the write-back stage hands A out at 20, and an unrelated hit at 30 is the last event.
 * Occupied slot-cycles: 1 x 20 = 20 (not 10, as when the hand-out kept the fill's clock);
 * capacity 16 slots x 30 cycles = 480. */
TEST(cache_mshr_occupancy_runs_to_the_hand_out)
{
    fx f;
    REQUIRE(!fx_init(&f, "N:4:128:4,L:T:m:N:L,A:2:8,8", "L1D"));
    gms_rf_cause rc = GMS_RF__COUNT;
    gms_mreq *a;
    CHECK_EQ(OUT(rd(&f, 0x0000, 0, &rc, &a)), GMS_CACHE_MISS);
    REQUIRE(gms_cache_mq_pop(f.c) == a);
    CHECK_EQ(gms_cache_fill_ready(f.c, a, 10), 1);
    CHECK(gms_cache_next_access(f.c, 20) == a);
    CHECK_EQ(gms_cache_mshr_used(f.c), 0);
    CHECK_EQ(OUT(rd(&f, 0x0000, 30, &rc, NULL)), GMS_CACHE_HIT);
    gms_mshr_stats s;
    memset(&s, 0, sizeof s);
    gms_cache_mshr_stats(f.c, &s);
    CHECK_EQ(s.slot_cycles, 20);
    CHECK_EQ(s.unit_cycles, 20);
    CHECK_EQ(s.slot_cap_cycles, 480);
    fx_free(&f);
}

/* -gpgpu_perf_sim_memcpy's tag_array::fill (gms_cache_force_fill) on a 1-set x 2-way sector
 * L2, hand-worked: a fill makes its sector readable without a request; a second sector of
 * the line is a sector miss; the next line takes the invalid way; with both ways valid the
 * fill's victim is the way with the smaller replacement key, the fill's `time` becoming the
 * new line's key; a modified victim is dropped (no write-back; counted); a reserved way
 * (a miss in flight) is left alone. */
TEST(cache_force_fill_as_tag_array_fill)
{
    fx f;
    REQUIRE(!fx_init(&f, "S:1:128:2,L:B:m:L:L,A:8:4,8:0,32", "L2_slice0"));
    gms_rf_cause rc;
    CHECK_EQ(gms_cache_force_fill(f.c, 0x000, 0x1, 10), GMS_CACHE_MISS);
    CHECK_EQ(OUT(rd(&f, 0x000, 20, &rc, NULL)), GMS_CACHE_HIT);            /* A: key 20 */
    CHECK_EQ(gms_cache_force_fill(f.c, 0x020, 0x2, 11), GMS_CACHE_SECTOR_MISS);
    CHECK_EQ(OUT(rd(&f, 0x020, 21, &rc, NULL)), GMS_CACHE_HIT);            /* A: key 21 */
    CHECK_EQ(gms_cache_force_fill(f.c, 0x080, 0x1, 12), GMS_CACHE_MISS);  /* B: the invalid way */
    CHECK_EQ(gms_cache_force_fill(f.c, 0x080, 0x1, 13), GMS_CACHE_HIT);   /* already there */
    CHECK_EQ(OUT(rd(&f, 0x080, 30, &rc, NULL)), GMS_CACHE_HIT);            /* B: key 30 */
    /* A (21) is older than B (30): the fill of C evicts A, C's key 25 */
    CHECK_EQ(gms_cache_force_fill(f.c, 0x100, 0x1, 25), GMS_CACHE_MISS);
    CHECK_EQ(OUT(rd(&f, 0x080, 40, &rc, NULL)), GMS_CACHE_HIT);
    CHECK_EQ(OUT(rd(&f, 0x100, 41, &rc, NULL)), GMS_CACHE_HIT);            /* C: key 41 */
    CHECK_EQ(gms_cache_mq_size(f.c), 0);
    /* B written (write-back: modified, key 50), C read again (60): B is the LRU way now */
    CHECK_EQ(OUT(wr(&f, 0x080, 50, &rc, NULL)), GMS_CACHE_HIT);
    CHECK_EQ(OUT(rd(&f, 0x100, 60, &rc, NULL)), GMS_CACHE_HIT);
    CHECK_EQ(gms_cache_memcpy_dirty_dropped(f.c), 0);
    CHECK_EQ(gms_cache_force_fill(f.c, 0x180, 0x1, 61), GMS_CACHE_MISS);  /* D evicts modified B */
    CHECK_EQ(gms_cache_memcpy_dirty_dropped(f.c), 1);
    CHECK_EQ(gms_cache_mq_size(f.c), 0);                                   /* no write-back */
    /* a read miss on E reserves the LRU way (C, 60); a fill of E's sector finds it reserved */
    gms_mreq *e = NULL;
    CHECK_EQ(OUT(rd(&f, 0x200, 70, &rc, &e)), GMS_CACHE_MISS);
    CHECK_EQ(gms_cache_force_fill(f.c, 0x200, 0x1, 71), GMS_CACHE_HIT_RESERVED);
    CHECK_EQ(OUT(rd(&f, 0x180, 72, &rc, NULL)), GMS_CACHE_HIT);            /* D still there */
    fx_free(&f);
}

/* the fill of several sectors in one call (the i-th with key time + i) leaves the cache as one
 * call per sector in ascending order does: the same random fills and reads on two caches */
TEST(cache_force_fill_batched_as_per_sector)
{
    fx a, b;
    REQUIRE(!fx_init(&a, "S:4:128:4,L:B:m:L:L,A:8:4,8:0,32", "L2_a"));
    REQUIRE(!fx_init(&b, "S:4:128:4,L:B:m:L:L,A:8:4,8:0,32", "L2_b"));
    uint64_t x = 12345, t = 1;
    gms_rf_cause rc;
    int differ = 0;
    for (int i = 0; i < 4000; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        uint64_t line = ((x >> 33) % 64) * 128;
        if ((x >> 20) % 3) {
            uint8_t sm = (uint8_t)((x >> 40) % 15 + 1);
            uint64_t t0 = t;
            for (uint8_t m = sm; m; m &= (uint8_t)(m - 1)) gms_cache_force_fill(a.c, line, (uint8_t)(m & -m), t++);
            gms_cache_force_fill(b.c, line, sm, t0);
        } else {
            uint64_t ad = line + 32 * ((x >> 45) % 4);
            gms_mreq *ra = NULL, *rb = NULL;
            int oa = OUT(rd(&a, ad, t, &rc, &ra)), ob = OUT(rd(&b, ad, t, &rc, &rb));
            t++;
            if (oa != ob) differ++;
            /* answer a miss at once (no way stays reserved); drop write-backs */
            fx *fs[2] = { &a, &b };
            gms_mreq *rs[2] = { ra, rb };
            int missed = oa == GMS_CACHE_MISS || oa == GMS_CACHE_SECTOR_MISS;
            for (int k = 0; k < 2; k++) {
                while (gms_cache_mq_size(fs[k]->c)) {
                    gms_mreq *q = gms_cache_mq_pop(fs[k]->c);
                    if (q == rs[k]) fill_release(fs[k], q, t);
                    else gms_mreq_release(&fs[k]->pool, q);
                }
                if (!missed) gms_mreq_release(&fs[k]->pool, rs[k]);
            }
            t++;
        }
    }
    CHECK_EQ(differ, 0);
    CHECK_EQ(gms_cache_memcpy_dirty_dropped(a.c), gms_cache_memcpy_dirty_dropped(b.c));
    fx_free(&a);
    fx_free(&b);
}
