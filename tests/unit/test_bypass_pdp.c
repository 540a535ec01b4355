/* PDP (pdp.h), hand-computed: the protection distance that maximises the hit-rate estimate,
 * and the protection rule (only RPD-0 lines may go; a miss finding none bypasses). */
#include "test.h"
#include "core/pdp.h"
#include "cache_test_util.h"

/* 40 sampled accesses, 10 reused at distance 2 and 10 at distance 8, 4 ways (de = 4):
 * E(2) = 10 / (20 + 30*6) = 0.050, E(3..7) smaller, E(8) = 20 / (100 + 20*12) = 0.0588 -> 8.
 * With 5 at distance 8: E(8) = 15 / (60 + 25*12) = 0.0417 < E(2) -> 2. Nothing reused: 0. */
TEST(pdp_best_protection_distance)
{
    uint64_t n[9] = {0};
    n[2] = 10;
    n[8] = 10;
    CHECK_EQ(gms_pdp_best_pd(n, 8, 40, 4), 8);
    n[8] = 5;
    CHECK_EQ(gms_pdp_best_pd(n, 8, 40, 4), 2);
    uint64_t z[9] = {0};
    CHECK_EQ(gms_pdp_best_pd(z, 8, 40, 4), 0);
}


static uint64_t accesses(const gms_cache *c) { return gms_cache_get_stats(c)->total_access[GMS_ACC_GLOBAL_R]; }

/* The L1D's own lines, one set of 2 ways, PD 3 (A = 0x000, B = 0x080, C = 0x100, D = 0x180):
 * A takes way 1 (the highest invalid), B way 0; each access lowers the set's RPDs by one and
 * protects the line it touches: after B, A 2 and B 3. C finds both protected: it bypasses,
 * changing nothing but the RPDs (A 1, B 2; no access counted); again (A 0, B 1); the third C
 * evicts A (RPD 0), not B, and is protected (C 3, B 0). B hits (B 3, C 2); A bypasses twice
 * (B 1, C 0) and then evicts C (A 3, B 0). B hits (A 2, B 3). With bypassing not allowed (as
 * for a non-global access) D finds both protected and evicts the LRU line, A (forced); A then
 * misses again (and, allowed, bypasses). PD 0 protects nothing. */
TEST(pdp_protection_rule_in_the_l1d)
{
    gms_mreq_pool pool;
    gms_mreq_pool_init(&pool);
    gms_cache *c = tu_l1_one_set(&pool, 2);
    REQUIRE(c);
    gms_cache_pdp_enable(c);
    gms_cache_pdp_set_pd(c, 3);
    gms_cache_pdp_may_bypass(c, 1);
    CHECK_EQ(GMS_CACHE_OUTCOME(tu_read_line(c, &pool, 0x000, 1)), GMS_CACHE_MISS);
    CHECK_EQ(GMS_CACHE_OUTCOME(tu_read_line(c, &pool, 0x080, 2)), GMS_CACHE_MISS);
    uint64_t n = accesses(c);
    CHECK_EQ(tu_read_line(c, &pool, 0x100, 3), GMS_CACHE_MISS | GMS_CACHE_BYPASS);
    CHECK_EQ(tu_read_line(c, &pool, 0x100, 4), GMS_CACHE_MISS | GMS_CACHE_BYPASS);
    CHECK_EQ(accesses(c), n);
    CHECK_EQ(tu_read_line(c, &pool, 0x100, 5) & GMS_CACHE_BYPASS, 0);                /* evicts A */
    CHECK_EQ(GMS_CACHE_OUTCOME(tu_read_line(c, &pool, 0x080, 6)), GMS_CACHE_HIT);    /* B stayed */
    CHECK_EQ(tu_read_line(c, &pool, 0x000, 7), GMS_CACHE_MISS | GMS_CACHE_BYPASS);
    CHECK_EQ(tu_read_line(c, &pool, 0x000, 8), GMS_CACHE_MISS | GMS_CACHE_BYPASS);
    CHECK_EQ(tu_read_line(c, &pool, 0x000, 9) & GMS_CACHE_BYPASS, 0);                /* evicts C */
    CHECK_EQ(GMS_CACHE_OUTCOME(tu_read_line(c, &pool, 0x080, 10)), GMS_CACHE_HIT);
    uint64_t byp, forced;
    gms_cache_pdp_counts(c, &byp, &forced);
    CHECK_EQ(byp, 4);
    CHECK_EQ(forced, 0);
    gms_cache_pdp_may_bypass(c, 0);
    CHECK_EQ(GMS_CACHE_OUTCOME(tu_read_line(c, &pool, 0x180, 11)), GMS_CACHE_MISS);   /* evicts A */
    gms_cache_pdp_counts(c, &byp, &forced);
    CHECK_EQ(forced, 1);
    CHECK_EQ(GMS_CACHE_OUTCOME(tu_read_line(c, &pool, 0x080, 12)), GMS_CACHE_HIT);
    gms_cache_pdp_may_bypass(c, 1);
    CHECK_EQ(tu_read_line(c, &pool, 0x000, 13), GMS_CACHE_MISS | GMS_CACHE_BYPASS);
    /* PD 0: nothing protected, plain LRU and no bypass */
    gms_cache_pdp_set_pd(c, 0);
    gms_cache_pdp_may_bypass(c, 1);
    for (int i = 0; i < 8; i++) tu_read_line(c, &pool, 0x180, 14 + (uint64_t)i);   /* run RPDs down */
    CHECK_EQ(GMS_CACHE_OUTCOME(tu_read_line(c, &pool, 0x200, 30)), GMS_CACHE_MISS);
    gms_cache_pdp_counts(c, &byp, &forced);
    CHECK_EQ(byp, 5);
    CHECK_EQ(forced, 1);
    gms_cache_free(c);
    gms_mreq_pool_free(&pool);
}
