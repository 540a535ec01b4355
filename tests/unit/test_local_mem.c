/* Local memory placement (core/local_mem.c) against GPGPU-Sim's translate_local_memaddr and
 * the word-by-word coalescing of memory_coalescing_arch, every address worked out by hand:
 * LOCAL_GENERIC_START = 0xC0000000 - 80 x 96 KiB - 80 x 2048 x 16 KiB = 0x1F880000; with
 * 256-thread blocks, 8 per SM and 80 SMs, N = 163,840 threads, so local word D of a thread
 * sits D x 655,360 bytes above its base. */
#include "test.h"
#include "core/local_mem.h"
#include "core/sm.h"

static const gms_local_map MAP = { 1, 0, 80, 256, 8, 2048 };

static void same(uint64_t a[32], uint64_t v)
{
    for (int l = 0; l < 32; l++) a[l] = v;
}

TEST(local_mem_generic_start_is_gpgpusim_4x)
{
    CHECK_EQ(GMS_LOCAL_GENERIC_START, 0x1F880000ULL);
}

/* 32 lanes at local address 0: 128 contiguous bytes, one line: 4 sectors sectored, one 128 B
 * segment otherwise (the raw addresses would have made one 4-byte request) */
TEST(local_mem_one_address_is_a_line_of_the_warps_words)
{
    uint64_t a[32], w[128];
    uint32_t aw = 0;
    same(a, 0);
    int n = gms_local_translate(&MAP, 0, a, 0xffffffffu, 4, w, &aw);
    REQUIRE(n == 32);
    CHECK_EQ(aw, 4);
    for (int l = 0; l < 32; l++) CHECK_EQ(w[l], 0x1F880000ULL + 4u * (uint64_t)l);
    gms_txn t[128];
    CHECK_EQ(gms_coalesce_words(w, n, aw, 4, 1, t), 4);
    n = gms_coalesce_words(w, n, aw, 4, 0, t);
    REQUIRE(n == 1);
    CHECK_EQ(t[0].addr, 0x1F880000ULL);
    CHECK_EQ(t[0].nbytes_sectors, 4);
    CHECK_EQ(t[0].bytes, 128);
}

/* LDL.64 at 0x10 (words 4 and 5): two lines 655,360 B apart, 8 sectors; LDL.128 16 */
TEST(local_mem_wide_access_splits_into_words)
{
    uint64_t a[32], w[128];
    uint32_t aw = 0;
    same(a, 0x10);
    int n = gms_local_translate(&MAP, 0, a, 0xffffffffu, 8, w, &aw);
    REQUIRE(n == 64);
    CHECK_EQ(aw, 4);
    CHECK_EQ(w[0], 0x1F880000ULL + 4 * 655360ULL);       /* lane 0, word 4 */
    CHECK_EQ(w[1], 0x1F880000ULL + 5 * 655360ULL);       /* lane 0, word 5 */
    CHECK_EQ(w[63], 0x1F880000ULL + 5 * 655360ULL + 124); /* lane 31, word 5 */
    gms_txn t[128];
    CHECK_EQ(gms_coalesce_words(w, n, aw, 8, 1, t), 8);
    CHECK_EQ(gms_coalesce_words(w, n, aw, 8, 0, t), 2);
    n = gms_local_translate(&MAP, 0, a, 0xffffffffu, 16, w, &aw);
    REQUIRE(n == 128);
    CHECK_EQ(gms_coalesce_words(w, n, aw, 16, 1, t), 16);
}

/* warp slot 9 of SM 3: hardware threads 288..319, block slot 1 on the SM, threads 32..63 of
 * it: thread_base = 4 x (256 x (3 + 80 x 1) + 32 + lane) = 85,120 + 4 x lane */
TEST(local_mem_block_slot_and_sm_place_the_base)
{
    gms_local_map m = MAP;
    m.sid = 3;
    uint64_t a[32], w[128];
    uint32_t aw = 0;
    same(a, 0);
    int n = gms_local_translate(&m, 9, a, 0x80000001u, 4, w, &aw);
    REQUIRE(n == 2);
    CHECK_EQ(w[0], 0x1F880000ULL + 85120);
    CHECK_EQ(w[1], 0x1F880000ULL + 85120 + 124);
}

/* a 1-byte access at 5: word 1, byte 1 of it, one access of 1 byte per lane; 32 lanes 4 B
 * apart span 128 B: four 32 B segments (the 1-byte segment rule) of 8 bytes each */
TEST(local_mem_sub_word_access_keeps_its_byte)
{
    uint64_t a[32], w[128];
    uint32_t aw = 0;
    same(a, 5);
    int n = gms_local_translate(&MAP, 0, a, 0xffffffffu, 1, w, &aw);
    REQUIRE(n == 32);
    CHECK_EQ(aw, 1);
    CHECK_EQ(w[0], 0x1F880000ULL + 655360 + 1);
    CHECK_EQ(w[31], 0x1F880000ULL + 655360 + 1 + 124);
    gms_txn t[128];
    n = gms_coalesce_words(w, n, aw, 1, 0, t);
    REQUIRE(n == 4);
    for (int i = 0; i < 4; i++) CHECK_EQ(t[i].bytes, 8);
}

/* -gpgpu_local_mem_map 0: thread_base = 4 x (2048 x sid + tid), N = 80 x 2048 threads:
 * SM 2, warp 1, lane 0, address 8 (word 2): 2 x 655,360 + 4 x (4096 + 32) */
TEST(local_mem_legacy_map)
{
    gms_local_map m = { 0, 2, 80, 256, 8, 2048 };
    uint64_t a[32], w[128];
    uint32_t aw = 0;
    same(a, 8);
    int n = gms_local_translate(&m, 1, a, 1u, 4, w, &aw);
    REQUIRE(n == 1);
    CHECK_EQ(w[0], 0x1F880000ULL + 2 * 655360ULL + 16512);
}

/* set_max_cta: the occupancy, or ceil(blocks / SMs) when the grid cannot fill every SM */
TEST(local_mem_max_cta_capped_by_the_grid)
{
    CHECK_EQ(gms_local_max_cta(8, 100, 80), 2);
    CHECK_EQ(gms_local_max_cta(8, 80, 80), 1);
    CHECK_EQ(gms_local_max_cta(8, 640, 80), 8);
    CHECK_EQ(gms_local_max_cta(8, 10000, 80), 8);
}

/* 32 lanes of LDL.128 at addresses 64 KiB apart: 128 words in 128 different lines, every one
 * kept (the global coalescer's 64-line table would have dropped half) */
TEST(local_mem_128_lines_all_kept)
{
    uint64_t a[32], w[128];
    uint32_t aw = 0;
    for (int l = 0; l < 32; l++) a[l] = 65536u * (uint64_t)l;
    int n = gms_local_translate(&MAP, 0, a, 0xffffffffu, 16, w, &aw);
    REQUIRE(n == 128);
    gms_txn t[128];
    CHECK_EQ(gms_coalesce_words(w, n, aw, 16, 1, t), 128);
}
