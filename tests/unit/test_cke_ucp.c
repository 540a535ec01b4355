/* UCP (src/cke/cke_ucp.c): lookahead allocation on hand-made utility curves, the UMON's stack
 * positions, and the L1D's victim restricted to a kernel's way range. */
#include "test.h"
#include "cke/cke_ucp.h"
#include "cache_test_util.h"
#include <stdlib.h>

TEST(ucp_lookahead_concave)
{
    /* 4 ways, both start with 1 (2 left). A gains nothing beyond its first way; B's next ways
     * give 4 then 3 hits: B takes one (4/1), then the other (3/1 > 0): (1, 3) */
    const uint64_t a[4] = { 10, 0, 0, 0 }, b[4] = { 5, 4, 3, 0 };
    const uint64_t *h[2] = { a, b };
    uint32_t w[2];
    gms_ucp_lookahead(h, 2, 4, w);
    CHECK_EQ(w[0], 1);
    CHECK_EQ(w[1], 3);
}

TEST(ucp_lookahead_sees_past_a_plateau)
{
    /* 8 ways, (1, 1) and 6 left. A: ways 2..6 give 1+0+0+0+11 = 12 hits for 5 ways (2.4 per
     * way, its best); B's best is its next way, 2 hits. A greedy one-way-at-a-time split would
     * feed B (2 > 1) forever; lookahead gives A 5 ways -> (6, 1), then the last way to B (2 > 0):
     * (6, 2) */
    const uint64_t a[8] = { 1, 1, 0, 0, 0, 11, 0, 0 }, b[8] = { 5, 2, 2, 2, 2, 2, 2, 2 };
    const uint64_t *h[2] = { a, b };
    uint32_t w[2];
    gms_ucp_lookahead(h, 2, 8, w);
    CHECK_EQ(w[0], 6);
    CHECK_EQ(w[1], 2);
    /* three kernels, 4 ways: (1,1,1), one left; gains 3, 5, 5: the tie goes to the lower kernel */
    const uint64_t c[4] = { 9, 3, 0, 0 }, d[4] = { 1, 5, 0, 0 }, e[4] = { 1, 5, 5, 0 };
    const uint64_t *h3[3] = { c, d, e };
    uint32_t w3[3];
    gms_ucp_lookahead(h3, 3, 4, w3);
    CHECK_EQ(w3[0], 1);
    CHECK_EQ(w3[1], 2);
    CHECK_EQ(w3[2], 1);
}

TEST(ucp_umon_stack_positions_and_repartition)
{
    /* 2 ways, 16 sets: sets 0 and 8 are sampled. Kernel 0 in set 0: a, b, a (hit at position
     * 1), a (position 0), c (miss, drops b), b (miss). Set 3 is not sampled. */
    gms_ucp u;
    REQUIRE(!gms_ucp_init(&u, 2, 2, 16, 1000));
    CHECK_EQ(u.ways[0], 1);
    CHECK_EQ(u.lo[1], 1);
    const uint64_t seq[] = { 100, 200, 100, 100, 300, 200 };
    for (int i = 0; i < 6; i++) gms_ucp_access(&u, 0, 0, seq[i]);
    for (int i = 0; i < 4; i++) gms_ucp_access(&u, 0, 3, 100);
    CHECK_EQ(u.mon[0].hits[0], 1);
    CHECK_EQ(u.mon[0].hits[1], 1);
    CHECK_EQ(u.mon[1].hits[0], 0);
    gms_ucp_free(&u);
    /* 4 ways, period 8: kernel 1 cycles through 3 blocks of set 0 (after 3 cold misses every
     * access hits at position 2); kernel 0 re-reads one block (position 0). After 8 accesses
     * (k1: 6 with 3 hits at position 2; k0: 2 with 1 hit at 0) the lookahead gives
     * (1, 1) + kernel 1's 2 ways for 3 hits: (1, 3), ranges [0,1) and [1,4); counters halved */
    REQUIRE(!gms_ucp_init(&u, 2, 4, 8, 8));
    const uint64_t k1[] = { 1, 2, 3, 1, 2, 3 };
    for (int i = 0; i < 6; i++) gms_ucp_access(&u, 1, 0, k1[i]);
    gms_ucp_access(&u, 0, 0, 9);
    CHECK_EQ(u.repartitions, 0);
    gms_ucp_access(&u, 0, 0, 9);
    CHECK_EQ(u.repartitions, 1);
    CHECK_EQ(u.ways[0], 1);
    CHECK_EQ(u.ways[1], 3);
    CHECK_EQ(u.lo[1], 1);
    CHECK_EQ(u.mon[1].hits[2], 1);   /* 3 halved */
    gms_ucp_free(&u);
}

/* one set of 4 ways: A, B, C, D fill ways 3, 2, 1, 0 (the highest invalid way first) */
static gms_cache *four_lines(gms_mreq_pool *pool, int range_lo, int range_hi)
{
    gms_cache *c = tu_l1_one_set(pool, 4);
    if (!c) return NULL;
    for (uint64_t i = 0; i < 4; i++) tu_read_line(c, pool, i * 128, 1 + i);
    if (range_hi) gms_cache_set_way_range(c, (uint32_t)range_lo, (uint32_t)range_hi);
    return c;
}

static int read_at(gms_cache *c, gms_mreq_pool *pool, uint64_t addr, uint64_t now)
{
    return GMS_CACHE_OUTCOME(tu_read_line(c, pool, addr, now));
}

TEST(ucp_cache_way_range_respected)
{
    gms_mreq_pool pool;
    gms_mreq_pool_init(&pool);
    /* no range: E (0x200) evicts A, the LRU line (way 3) */
    gms_cache *c = four_lines(&pool, 0, 0);
    REQUIRE(c);
    CHECK_EQ(read_at(c, &pool, 0x200, 20), GMS_CACHE_MISS);
    CHECK_EQ(read_at(c, &pool, 0x000, 21), GMS_CACHE_MISS);
    gms_cache_free(c);
    /* ways [0, 2) (C in way 1, D in way 0): E evicts C, the older of the two; A (way 3,
     * outside the range) still hits, C misses */
    c = four_lines(&pool, 0, 2);
    REQUIRE(c);
    CHECK_EQ(read_at(c, &pool, 0x200, 20), GMS_CACHE_MISS);
    gms_cache_set_way_range(c, 0, 0);
    CHECK_EQ(read_at(c, &pool, 0x000, 21), GMS_CACHE_HIT);
    CHECK_EQ(read_at(c, &pool, 0x080, 22), GMS_CACHE_HIT);
    CHECK_EQ(read_at(c, &pool, 0x180, 23), GMS_CACHE_HIT);
    CHECK_EQ(read_at(c, &pool, 0x100, 24), GMS_CACHE_MISS);
    gms_cache_free(c);
    gms_mreq_pool_free(&pool);
}

/* a read of app `app` under quotas q (two apps), filled at once (tu_read_line) */
static int read_as(gms_cache *c, gms_mreq_pool *pool, uint32_t app, const uint32_t *q, uint64_t addr, uint64_t now)
{
    gms_cache_set_quota(c, app, q, 2);
    return read_at(c, pool, addr, now);
}

/* the same, its miss left in flight (the line stays reserved); the request is returned */
static int read_as_unfilled(gms_cache *c, gms_mreq_pool *pool, uint32_t app, const uint32_t *q, uint64_t addr,
                            uint64_t now)
{
    gms_cache_set_quota(c, app, q, 2);
    gms_rf_cause cause;
    gms_mreq *r = gms_mreq_alloc(pool);
    r->addr = addr; r->bytes = 128; r->sector_mask = 0xF;
    r->kind = GMS_MREQ_READ; r->access = GMS_ACC_GLOBAL_R;
    int rc = GMS_CACHE_OUTCOME(gms_cache_access(c, r, now, &cause));
    if (rc == GMS_CACHE_RESERVATION_FAIL) gms_mreq_release(pool, r);
    return rc;
}

/* UCP's replacement with quotas (Qureshi & Patt) on one 4-way set, victims by hand */
TEST(ucp_cache_quota_enforcement)
{
    gms_mreq_pool pool;
    gms_mreq_pool_init(&pool);
    gms_cache *c = tu_l1_one_set(&pool, 4);
    REQUIRE(c);
    const uint32_t q13[2] = { 1, 3 }, q31[2] = { 3, 1 };
    const uint64_t A = 0x000, B = 0x080, C = 0x100, D = 0x180, E = 0x200, F = 0x280, G = 0x300, H = 0x380;
    /* B (app 1) way 3, A (app 0) way 2, C and D (app 1) ways 1 and 0 */
    CHECK_EQ(read_as(c, &pool, 1, q13, B, 1), GMS_CACHE_MISS);
    CHECK_EQ(read_as(c, &pool, 0, q13, A, 2), GMS_CACHE_MISS);
    CHECK_EQ(read_as(c, &pool, 1, q13, C, 3), GMS_CACHE_MISS);
    CHECK_EQ(read_as(c, &pool, 1, q13, D, 4), GMS_CACHE_MISS);
    /* app 0 holds its quota of 1: E evicts its own A, not B, the set's LRU line */
    CHECK_EQ(read_as(c, &pool, 0, q13, E, 5), GMS_CACHE_MISS);
    CHECK_EQ(read_as(c, &pool, 1, q13, B, 6), GMS_CACHE_HIT);
    CHECK_EQ(read_as(c, &pool, 0, q13, A, 7), GMS_CACHE_MISS);   /* evicts E, app 0's only line */
    /* quotas 3 / 1: app 0 (1 line) takes app 1's LRU lines while app 1 is over its quota:
     * F evicts C (key 3), G evicts D (4); then app 0 holds 3 and H evicts its own LRU, A (7) */
    CHECK_EQ(read_as(c, &pool, 0, q31, F, 8), GMS_CACHE_MISS);
    CHECK_EQ(read_as(c, &pool, 0, q31, G, 9), GMS_CACHE_MISS);
    CHECK_EQ(read_as(c, &pool, 0, q31, H, 10), GMS_CACHE_MISS);
    CHECK_EQ(read_as(c, &pool, 1, q31, B, 11), GMS_CACHE_HIT);   /* app 1's one line kept */
    CHECK_EQ(read_as(c, &pool, 0, q31, A, 12), GMS_CACHE_MISS);  /* A was evicted; evicts F (8) */
    CHECK_EQ(read_as(c, &pool, 1, q31, D, 13), GMS_CACHE_MISS);  /* app 1 at its quota: evicts B */
    CHECK_EQ(read_as(c, &pool, 1, q31, B, 14), GMS_CACHE_MISS);  /* ... and D */
    CHECK_EQ(read_as(c, &pool, 0, q31, G, 15), GMS_CACHE_HIT);
    CHECK_EQ(read_as(c, &pool, 0, q31, H, 16), GMS_CACHE_HIT);
    CHECK_EQ(read_as(c, &pool, 0, q31, A, 17), GMS_CACHE_HIT);
    gms_cache_free(c);

    /* allocate-on-miss: app 0 at its quota with its one line reserved fails, although app 1
     * has replaceable lines (without quotas the access would take B) */
    c = tu_l1_one_set(&pool, 4);
    REQUIRE(c);
    CHECK_EQ(read_as(c, &pool, 1, q13, B, 1), GMS_CACHE_MISS);
    CHECK_EQ(read_as(c, &pool, 1, q13, C, 2), GMS_CACHE_MISS);
    CHECK_EQ(read_as(c, &pool, 1, q13, D, 3), GMS_CACHE_MISS);
    CHECK_EQ(read_as(c, &pool, 0, q13, A, 4), GMS_CACHE_MISS);
    CHECK_EQ(read_as_unfilled(c, &pool, 0, q13, E, 5), GMS_CACHE_MISS);   /* evicts A, reserved */
    CHECK_EQ(read_as_unfilled(c, &pool, 0, q13, F, 6), GMS_CACHE_RESERVATION_FAIL);
    gms_cache_set_quota(c, 0, NULL, 0);   /* quotas off: the plain rule takes B */
    CHECK_EQ(read_as_unfilled(c, &pool, 0, q13, F, 7), GMS_CACHE_MISS);
    gms_cache_free(c);

    /* lines allocated before quotas belong to no app and count as over any quota */
    c = tu_l1_one_set(&pool, 4);
    REQUIRE(c);
    for (uint64_t i = 0; i < 4; i++) CHECK_EQ(read_at(c, &pool, i * 128, 1 + i), GMS_CACHE_MISS);
    const uint32_t q22[2] = { 2, 2 };
    CHECK_EQ(read_as(c, &pool, 1, q22, E, 10), GMS_CACHE_MISS);   /* evicts A (key 1) */
    CHECK_EQ(read_as(c, &pool, 1, q22, F, 11), GMS_CACHE_MISS);   /* evicts B (2) */
    CHECK_EQ(read_as(c, &pool, 1, q22, G, 12), GMS_CACHE_MISS);   /* at its quota: evicts E */
    CHECK_EQ(read_as(c, &pool, 1, q22, C, 13), GMS_CACHE_HIT);
    CHECK_EQ(read_as(c, &pool, 1, q22, D, 14), GMS_CACHE_HIT);
    CHECK_EQ(read_as(c, &pool, 1, q22, F, 15), GMS_CACHE_HIT);
    CHECK_EQ(read_as(c, &pool, 1, q22, E, 16), GMS_CACHE_MISS);
    gms_cache_free(c);
    gms_mreq_pool_free(&pool);
}
