/* The coalescers at the end of the 64-bit address space (bad input: no GPU has such
 * addresses, but a trace can name them). An access running past 2^64 keeps its bytes up to
 * the last address; before 2026-12-05 a load whose only bytes wrapped made no transaction (its
 * warp waited on the scoreboard for ever: a watchdog deadlock) and an atomic ending at the last
 * address looped for ever. Found by fuzz/trace_sweep.sh. Expectations by hand. */
#include "test.h"
#include "core/sm.h"

/* one 16-byte lane at 2^64 - 8: 8 bytes in the last sector (0x...e0, chunk 3) */
TEST(coalesce_lane_past_the_end_keeps_its_bytes)
{
    uint64_t a[32] = {0};
    gms_txn t[128];
    a[0] = 0xfffffffffffffff8ULL;
    int n = gms_coalesce(a, 1u, 16, 1, t);
    REQUIRE(n == 1);
    CHECK_EQ(t[0].addr, 0xffffffffffffffe0ULL);
    CHECK_EQ(t[0].sector_mask, 8u);
    CHECK_EQ(t[0].bytes, 8);
    /* the same unsectored (128 B segments): one 32 B transaction, the chunk it touches */
    n = gms_coalesce(a, 1u, 16, 0, t);
    REQUIRE(n == 1);
    CHECK_EQ(t[0].addr, 0xffffffffffffffe0ULL);
    CHECK_EQ(t[0].nbytes_sectors, 1);
    CHECK_EQ(t[0].bytes, 8);
}

/* a lane over two sectors whose end is clamped to the last address: the byte-by-sector walk
 * stops there (it used to step past 2^64 to 0 and go on) */
TEST(coalesce_multi_sector_lane_stops_at_the_last_address)
{
    uint64_t a[32] = {0};
    gms_txn t[128];
    a[0] = 0xffffffffffffffd8ULL;   /* 64 bytes: 0x...d8-0x...ff kept (40), the rest wraps */
    int n = gms_coalesce(a, 1u, 64, 1, t);
    REQUIRE(n == 2);
    gms_txn_issue_order(t, n);   /* highest address first */
    CHECK_EQ(t[0].addr, 0xffffffffffffffe0ULL);
    CHECK_EQ(t[0].bytes, 32);
    CHECK_EQ(t[1].addr, 0xffffffffffffffc0ULL);
    CHECK_EQ(t[1].sector_mask, 4u);
    CHECK_EQ(t[1].bytes, 8);
}

/* lanes 4 B apart from 2^64 - 16 wrap to 0: each lane is whole, 4 lanes in the last sector and
 * 28 in the first (0x0-0x6f: sectors 0-3 of line 0, 32+32+32+16 bytes) */
TEST(coalesce_lanes_wrapping_to_address_zero)
{
    uint64_t a[32];
    gms_txn t[128];
    for (int l = 0; l < 32; l++) a[l] = 0xfffffffffffffff0ULL + 4u * (uint64_t)l;
    int n = gms_coalesce(a, 0xffffffffu, 4, 1, t);
    REQUIRE(n == 5);
    uint32_t total = 0;
    for (int i = 0; i < n; i++) total += t[i].bytes;
    CHECK_EQ(total, 128u);
}

/* atomics: one ending at the last address (it looped for ever) and one running past it */
TEST(coalesce_atomic_at_the_end_of_the_address_space)
{
    uint64_t a[32] = {0};
    gms_txn t[128];
    a[0] = 0xfffffffffffffffcULL;
    REQUIRE(gms_coalesce_atomic(a, 1u, 4, 32, t) == 1);
    CHECK_EQ(t[0].addr, 0xffffffffffffffe0ULL);
    CHECK_EQ(t[0].bytes, 4);
    a[0] = 0xfffffffffffffffeULL;
    REQUIRE(gms_coalesce_atomic(a, 1u, 4, 32, t) == 1);
    CHECK_EQ(t[0].bytes, 2);
    /* two lanes on the last word: two requests (overlapping bytes never share one) */
    a[0] = a[1] = 0xfffffffffffffffcULL;
    CHECK_EQ(gms_coalesce_atomic(a, 3u, 4, 32, t), 2);
}
