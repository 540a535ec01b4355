/* MDB's pieces with hand-computed cases (spec 001 2.2-2.3): the cubic model's choice of L, the
 * decay by halving, the 4-of-32 set sampling and the shadow tags' LRU. */
#include "test.h"
#include "core/mdb.h"
#include "mem/cache.h"

/* N = 8 warps, RF = 800, E = 0.5, 1:8 sampling: the RF term is 800 (L/8)^3 0.5 / 8 = 50 L^3 / 512.
 * Adjusted hits: L=1 10 - 0.098 = 9.90, L=2 18 - 0.78 = 17.22, L=3 24 - 2.64 = 21.36,
 * L=4 27 - 6.25 = 20.75, L=5 29 - 12.21 = 16.79, ... -> L = 3 */
TEST(mdb_choose_cubic_model)
{
    uint64_t hits[8] = { 10, 18, 24, 27, 29, 30, 30, 30 };
    CHECK_EQ(gms_mdb_choose(hits, 8, 800, 8, 0.5, 8.0), 3);
    /* no reservation failures: the most hits, ties to the larger L (nothing bypasses) */
    CHECK_EQ(gms_mdb_choose(hits, 8, 0, 8, 0.5, 8.0), 8);
    /* unscaled RF term (400 L^3/512): L=1 9.22, L=2 11.75, L=3 2.9 -> L = 2 */
    CHECK_EQ(gms_mdb_choose(hits, 8, 800, 8, 0.5, 1.0), 2);
    /* E = 0: hits alone */
    CHECK_EQ(gms_mdb_choose(hits, 8, 800, 8, 0.0, 8.0), 8);
    /* only 4 blocks resident (lmax = N = 4): RF term 800 (L/4)^3 0.5 / 8 = 50 L^3 / 64;
     * L=3 24 - 21.1 = 2.9, L=2 18 - 6.25 = 11.75, L=1 10 - 0.78 = 9.2 -> L = 2 */
    CHECK_EQ(gms_mdb_choose(hits, 4, 800, 4, 0.5, 8.0), 2);
}

/* the decay: every counter halves (right shift) after a decision */
TEST(mdb_decay_halves)
{
    uint64_t hits[3] = { 7, 8, 1 }, rf = 5;
    gms_mdb_decay(hits, 3, &rf);
    CHECK_EQ(hits[0], 3);
    CHECK_EQ(hits[1], 4);
    CHECK_EQ(hits[2], 0);
    CHECK_EQ(rf, 2);
}

/* 1:8 sampling of a 32-set L1D keeps the sets 0, 8, 16, 24; with BXOR indexing the sampled
 * addresses are the ones whose index (addr[11:7] ^ addr[16:12]) is one of those */
/* the spec's counter widths: 10-bit hit counters saturate at 1023, the 12-bit RF counter at
 * 4095; 0 (or 64) bits is a plain 64-bit counter */
TEST(mdb_counter_widths)
{
    CHECK_EQ(gms_mdb_counter_max(10), 1023);
    CHECK_EQ(gms_mdb_counter_max(12), 4095);
    CHECK_EQ(gms_mdb_counter_max(1), 1);
    CHECK(gms_mdb_counter_max(0) == UINT64_MAX);
    CHECK(gms_mdb_counter_max(63) == (UINT64_C(1) << 63) - 1);
}

TEST(mdb_samples_4_of_32_sets)
{
    uint32_t n = 0, mask = 0;
    for (uint32_t s = 0; s < 32; s++)
        if (gms_mdb_sampled(s, 8)) { n++; mask |= 1u << s; }
    CHECK_EQ(n, 4);
    CHECK_EQ(mask, (1u << 0) | (1u << 8) | (1u << 16) | (1u << 24));
    gms_cache_config c;
    gms_error err = {0};
    REQUIRE(!gms_cache_config_parse("N:32:128:4,L:L:m:N:X,A:32:8,8", "t", &c, &err));
    /* line 8 (addr 0x400): index 8 ^ 0 = 8, sampled; 0x1400: 8 ^ 1 = 9, not */
    CHECK(gms_mdb_sampled(gms_cache_set_index(&c, 0x400), 8));
    CHECK(!gms_mdb_sampled(gms_cache_set_index(&c, 0x1400), 8));
    uint32_t sampled = 0;
    for (uint64_t line = 0; line < 1024; line++) sampled += gms_mdb_sampled(gms_cache_set_index(&c, line * 128), 8);
    CHECK_EQ(sampled, 128);   /* BXOR spreads 1024 lines evenly: 32 per set, 4 sets */
}

/* a 4-way LRU shadow set: A B C D fill it, A hits (now most recent), E evicts B (least
 * recent), B misses and evicts C, A and D still hit */
TEST(mdb_shadow_lru)
{
    uint64_t tags[4] = {0};
    uint32_t st[4] = {0}, clk = 0;
    CHECK_EQ(gms_mdb_shadow_access(tags, st, 4, &clk, 10), 0);
    CHECK_EQ(gms_mdb_shadow_access(tags, st, 4, &clk, 11), 0);
    CHECK_EQ(gms_mdb_shadow_access(tags, st, 4, &clk, 12), 0);
    CHECK_EQ(gms_mdb_shadow_access(tags, st, 4, &clk, 13), 0);
    CHECK_EQ(gms_mdb_shadow_access(tags, st, 4, &clk, 10), 1);
    CHECK_EQ(gms_mdb_shadow_access(tags, st, 4, &clk, 14), 0);
    CHECK_EQ(gms_mdb_shadow_access(tags, st, 4, &clk, 11), 0);
    CHECK_EQ(gms_mdb_shadow_access(tags, st, 4, &clk, 10), 1);
    CHECK_EQ(gms_mdb_shadow_access(tags, st, 4, &clk, 13), 1);
    CHECK_EQ(gms_mdb_shadow_access(tags, st, 4, &clk, 12), 0);
    /* block 0 is a valid tag (stored + 1) */
    uint64_t t1[1] = {0};
    uint32_t s1[1] = {0};
    CHECK_EQ(gms_mdb_shadow_access(t1, s1, 1, &clk, 0), 0);
    CHECK_EQ(gms_mdb_shadow_access(t1, s1, 1, &clk, 0), 1);
}

/* the static-L policy's record of the cubic model (C2.4's prediction): (min(L, N) / N)^3 */
TEST(mdb_static_rf_model)
{
    CHECK_NEAR(gms_static_rf_model(1, 2), 0.125, 1e-15);
    CHECK_NEAR(gms_static_rf_model(3, 6), 0.125, 1e-15);
    CHECK_NEAR(gms_static_rf_model(2, 8), 1.0 / 64.0, 1e-15);
    CHECK_NEAR(gms_static_rf_model(7, 6), 1.0, 1e-15);     /* L >= N: nothing bypasses */
    CHECK_NEAR(gms_static_rf_model(4, 0), 1.0, 1e-15);     /* no block */
}
