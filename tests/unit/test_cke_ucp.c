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
