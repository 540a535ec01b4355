/* Global atomics as GPGPU-Sim coalesces them (memory_coalescing_arch_atomic): lanes whose
 * bytes overlap never share a request. Every expectation below is counted by hand from the
 * lane pattern: a segment costs as many requests as the most lanes on any one of its bytes. */
#include "test.h"
#include "core/sm.h"

/* lane i at base + (i % period) * step */
static void pattern(uint64_t a[32], uint64_t base, uint32_t period, uint32_t step)
{
    for (uint32_t i = 0; i < 32; i++) a[i] = base + (uint64_t)(i % period) * step;
}

/* every request of t[0..n) is one 32 B sector at `addr`, chunk bit `mask`, `bytes` bytes */
static int all_sector(const gms_txn *t, int n, uint64_t addr, uint8_t mask, uint16_t bytes)
{
    for (int i = 0; i < n; i++)
        if (t[i].addr != addr || t[i].sector_mask != mask || t[i].nbytes_sectors != 1 || t[i].bytes != bytes) {
            printf("    request %d: addr %#llx mask %#x sectors %u bytes %u\n", i, (unsigned long long)t[i].addr,
                   t[i].sector_mask, t[i].nbytes_sectors, t[i].bytes);
            return 0;
        }
    return 1;
}

TEST(atomic_segment_sizes_follow_gpgpusim)
{
    CHECK_EQ(gms_atomic_segment(70, 4), 32);    /* Volta: sectors */
    CHECK_EQ(gms_atomic_segment(70, 8), 32);
    CHECK_EQ(gms_atomic_segment(70, 2), 32);
    CHECK_EQ(gms_atomic_segment(30, 4), 32);    /* Kepler: atomics are CACHE_GLOBAL -> sectors */
    CHECK_EQ(gms_atomic_segment(39, 4), 128);   /* the gap in GPGPU-Sim's ranges */
    CHECK_EQ(gms_atomic_segment(13, 4), 128);   /* GT200 */
    CHECK_EQ(gms_atomic_segment(13, 16), 128);
    CHECK_EQ(gms_atomic_segment(13, 2), 64);
    CHECK_EQ(gms_atomic_segment(13, 1), 32);
}

/* 32 lanes on one word: 32 one-lane requests (a load would be one) */
TEST(atomic_all_lanes_one_address)
{
    uint64_t a[32];
    gms_txn t[128];
    pattern(a, 0x1000, 1, 0);
    CHECK_EQ(gms_coalesce_atomic(a, 0xffffffffu, 4, 32, t), 32);
    CHECK(all_sector(t, 32, 0x1000, 0x1, 4));
    CHECK_EQ(gms_coalesce(a, 0xffffffffu, 4, 1, t), 1);
    pattern(a, 0x1000, 1, 0);                 /* 3 active lanes: 3 requests */
    CHECK_EQ(gms_coalesce_atomic(a, 0x80000101u, 4, 32, t), 3);
    CHECK_EQ(gms_coalesce_atomic(a, 0u, 4, 32, t), 0);
}

/* atomic_reduce's pattern: 4 words of one sector (the third, chunk bit 0x4), 8 lanes each:
 * 8 requests of 4 lanes = 16 bytes */
TEST(atomic_eight_lanes_per_address)
{
    uint64_t a[32];
    gms_txn t[128];
    pattern(a, 0x2040, 4, 4);
    CHECK_EQ(gms_coalesce_atomic(a, 0xffffffffu, 4, 32, t), 8);
    CHECK(all_sector(t, 8, 0x2040, 0x4, 16));
    /* only even lanes: lanes 0,4,8.. on word 0 and 2,6,10.. on word 2: 8 of each -> 8 requests
     * of 2 lanes */
    CHECK_EQ(gms_coalesce_atomic(a, 0x55555555u, 4, 32, t), 8);
    CHECK(all_sector(t, 8, 0x2040, 0x4, 8));
}

/* every lane its own word: one request per sector, as for a load */
TEST(atomic_distinct_words_share_a_request)
{
    uint64_t a[32];
    gms_txn t[128];
    pattern(a, 0x3000, 8, 4);                 /* lanes 0..7 on the 8 words of one sector, x4 */
    CHECK_EQ(gms_coalesce_atomic(a, 0x000000ffu, 4, 32, t), 1);
    CHECK(all_sector(t, 1, 0x3000, 0x1, 32));
    CHECK_EQ(gms_coalesce_atomic(a, 0xffffffffu, 4, 32, t), 4);   /* each word 4 lanes */
    CHECK(all_sector(t, 4, 0x3000, 0x1, 32));
    pattern(a, 0x3000, 32, 4);                /* 128 B unit stride: 4 sectors, 1 request each */
    CHECK_EQ(gms_coalesce_atomic(a, 0xffffffffu, 4, 32, t), 4);
    for (int i = 0; i < 4; i++) {
        CHECK_EQ(t[i].addr, 0x3000 + 32u * (uint32_t)i);     /* ascending (access-queue order) */
        CHECK_EQ(t[i].sector_mask, 1u << i);
        CHECK_EQ(t[i].bytes, 32);
    }
}

/* the width decides what overlaps: the same 32 addresses at 2, 4 and 8 bytes */
TEST(atomic_width_decides_overlap)
{
    uint64_t a[32];
    gms_txn t[128];
    pattern(a, 0x4000, 16, 2);                /* 16 halfwords of one sector, 2 lanes each */
    CHECK_EQ(gms_coalesce_atomic(a, 0xffffffffu, 2, 32, t), 2);
    CHECK(all_sector(t, 2, 0x4000, 0x1, 32));
    /* the same addresses as 4-byte atomics (without offset 30, whose word would leave the
     * sector): each word overlaps its neighbours 2 B away, so offsets 0,4,..,28 (8 lanes,
     * 32 B) share one request and 2,6,..,26 (7 lanes, 28 B) another; lanes 16..30 repeat
     * the offsets of lanes 0..14 and need two more */
    CHECK_EQ(gms_coalesce_atomic(a, 0x7fff7fffu, 4, 32, t), 4);
    CHECK(all_sector(t, 1, 0x4000, 0x1, 32));
    CHECK(all_sector(t + 1, 1, 0x4000, 0x1, 28));
    CHECK(all_sector(t + 2, 1, 0x4000, 0x1, 32));
    CHECK(all_sector(t + 3, 1, 0x4000, 0x1, 28));
    pattern(a, 0x5000, 4, 8);                 /* 4 doublewords of one sector, 8 lanes each */
    CHECK_EQ(gms_coalesce_atomic(a, 0xffffffffu, 8, 32, t), 8);
    CHECK(all_sector(t, 8, 0x5000, 0x1, 32));
    pattern(a, 0x6000, 32, 8);                /* 256 B unit stride: 8 sectors in 2 lines */
    CHECK_EQ(gms_coalesce_atomic(a, 0xffffffffu, 8, 32, t), 8);
    CHECK_EQ(t[0].addr, 0x6000);
    CHECK_EQ(t[7].addr, 0x60e0);
    CHECK_EQ(t[7].sector_mask, 0x8);
}

/* requests come in access-queue order: ascending segment, then the order they were opened */
TEST(atomic_request_order)
{
    uint64_t a[32];
    gms_txn t[128];
    for (int i = 0; i < 32; i++) a[i] = (i & 1) ? 0x9000 : 0x9020;   /* odd lanes the lower sector */
    CHECK_EQ(gms_coalesce_atomic(a, 0xffffffffu, 4, 32, t), 32);
    CHECK(all_sector(t, 16, 0x9000, 0x1, 4));
    CHECK(all_sector(t + 16, 16, 0x9020, 0x2, 4));
}

/* 128 B segments (GT200 rule): a request shrinks to the half or the chunk it uses */
TEST(atomic_line_segments_shrink)
{
    uint64_t a[32];
    gms_txn t[128];
    pattern(a, 0x8000, 32, 4);                /* the whole line: one 128 B request */
    CHECK_EQ(gms_coalesce_atomic(a, 0xffffffffu, 4, 128, t), 1);
    CHECK_EQ(t[0].addr, 0x8000);
    CHECK_EQ(t[0].sector_mask, 0xf);
    CHECK_EQ(t[0].nbytes_sectors, 4);
    CHECK_EQ(t[0].bytes, 128);
    pattern(a, 0x8040, 16, 4);                /* upper half, 2 lanes a word: 2 x 64 B */
    CHECK_EQ(gms_coalesce_atomic(a, 0xffffffffu, 4, 128, t), 2);
    for (int i = 0; i < 2; i++) {
        CHECK_EQ(t[i].addr, 0x8040);
        CHECK_EQ(t[i].sector_mask, 0xc);
        CHECK_EQ(t[i].nbytes_sectors, 2);
        CHECK_EQ(t[i].bytes, 64);
    }
    pattern(a, 0x8060, 8, 4);                 /* the last chunk, 4 lanes a word: 4 x 32 B */
    CHECK_EQ(gms_coalesce_atomic(a, 0xffffffffu, 4, 128, t), 4);
    for (int i = 0; i < 4; i++) {
        CHECK_EQ(t[i].addr, 0x8060);
        CHECK_EQ(t[i].sector_mask, 0x8);
        CHECK_EQ(t[i].nbytes_sectors, 1);
    }
    a[0] = 0x8000;                            /* chunks 0 and 3: both halves, stays 128 B */
    a[1] = 0x8060;
    CHECK_EQ(gms_coalesce_atomic(a, 0x3u, 4, 128, t), 1);
    CHECK_EQ(t[0].addr, 0x8000);
    CHECK_EQ(t[0].sector_mask, 0x9);
    CHECK_EQ(t[0].nbytes_sectors, 4);
    CHECK_EQ(t[0].bytes, 8);
}

/* GPGPU-Sim asserts that an atomic stays in one segment; a misaligned one (not seen in real
 * traces) is split here at the segment boundary, each piece placed by the same rule */
TEST(atomic_misaligned_lane_split_at_segment)
{
    uint64_t a[32];
    gms_txn t[128];
    a[0] = 0xa01c;                            /* 8 B: bytes 28..31 of one sector, 0..3 of the next */
    a[1] = 0xa020;                            /* 4 B at the next sector's start: overlaps lane 0 */
    CHECK_EQ(gms_coalesce_atomic(a, 0x1u, 8, 32, t), 2);
    CHECK(all_sector(t, 1, 0xa000, 0x1, 4));
    CHECK(all_sector(t + 1, 1, 0xa020, 0x2, 4));
    CHECK_EQ(gms_coalesce_atomic(a, 0x3u, 8, 32, t), 3);   /* lane 1's 8 B overlap lane 0's piece */
    CHECK(all_sector(t, 1, 0xa000, 0x1, 4));
    CHECK(all_sector(t + 1, 1, 0xa020, 0x2, 4));
    CHECK(all_sector(t + 2, 1, 0xa020, 0x2, 8));
}
