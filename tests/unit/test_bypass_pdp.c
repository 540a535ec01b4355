/* PDP (pdp.h), hand-computed: the protection distance that maximises the hit-rate estimate,
 * and the protection rule (only RPD-0 lines may go; a miss finding none bypasses). */
#include "test.h"
#include "core/pdp.h"

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

/* 2 ways, PD 3: A and B fill the set (RPD 3 each, then A 2); C finds A at 1 and B at 2, both
 * protected: it bypasses; C again: A has reached 0 and gives way; then A (a miss: B has
 * reached 0) replaces B, and C hits */
TEST(pdp_protection_rule)
{
    uint64_t tags[2] = {0};
    uint16_t rpd[2] = {0};
    CHECK_EQ(gms_pdp_access(tags, rpd, 2, 100, 3), 0);    /* A -> way 0 */
    CHECK_EQ(gms_pdp_access(tags, rpd, 2, 200, 3), 0);    /* B -> way 1 */
    CHECK_EQ(rpd[0], 2);
    CHECK_EQ(gms_pdp_access(tags, rpd, 2, 300, 3), -1);   /* C: all protected, bypass */
    CHECK_EQ(tags[0], 101);
    CHECK_EQ(tags[1], 201);
    CHECK_EQ(gms_pdp_access(tags, rpd, 2, 300, 3), 0);    /* C replaces A (RPD 0) */
    CHECK_EQ(tags[0], 301);
    CHECK_EQ(gms_pdp_access(tags, rpd, 2, 100, 3), 0);    /* A replaces B (RPD 0) */
    CHECK_EQ(tags[1], 101);
    CHECK_EQ(gms_pdp_access(tags, rpd, 2, 300, 3), 1);    /* C hits */
    CHECK_EQ(rpd[0], 3);
    /* PD 0 protects nothing: plain replacement of the lowest way */
    uint64_t t2[2] = { 11, 21 };
    uint16_t r2[2] = { 0, 0 };
    CHECK_EQ(gms_pdp_access(t2, r2, 2, 50, 0), 0);
    CHECK_EQ(t2[0], 51);
}
