/* GPGPU-Sim's segment rule for loads and stores that are not sectored (coalesce_arch 13, and
 * Fermi/Kepler when L1-cached): lanes group by segment, 32 B for 1-byte accesses, 64 B for
 * 2-byte ones, 128 B for 4-, 8- and 16-byte ones, and each segment's transaction shrinks to
 * the half or 32 B chunk its lanes use (memory_coalescing_arch_13_reduce_and_send). Every
 * expectation below is worked out by hand from those two rules. */
#include "test.h"
#include "core/sm.h"
#include "sim_test_util.h"
#include "frontend/emit.h"

static void lanes(uint64_t a[32], uint64_t base, uint64_t stride)
{
    for (int l = 0; l < 32; l++) a[l] = base + stride * (uint64_t)l;
}

TEST(coalesce_segment_sizes_by_width)
{
    CHECK_EQ(gms_coalesce_segment(1, 0), 32);
    CHECK_EQ(gms_coalesce_segment(2, 0), 64);
    CHECK_EQ(gms_coalesce_segment(4, 0), 128);
    CHECK_EQ(gms_coalesce_segment(16, 0), 128);
    CHECK_EQ(gms_coalesce_segment(2, 1), 32);   /* sectored: always 32 B */
    CHECK_EQ(gms_coalesce_segment(8, 1), 32);
}

/* 1-byte lanes 4 B apart span 0x1000-0x107c: 4 chunks, so 4 transactions of 32 B, 8 bytes
 * each (a 128 B segment would have made one) */
TEST(coalesce_rule13_bytes_make_32B_segments)
{
    uint64_t a[32];
    gms_txn t[128];
    lanes(a, 0x1000, 4);
    int n = gms_coalesce(a, 0xffffffffu, 1, 0, t);
    REQUIRE(n == 4);
    for (int i = 0; i < 4; i++) {
        CHECK_EQ(t[i].addr, 0x1000 + 32u * (uint64_t)i);
        CHECK_EQ(t[i].nbytes_sectors, 1);
        CHECK_EQ(t[i].sector_mask, 1u << i);
        CHECK_EQ(t[i].bytes, 8);
    }
    /* 32 contiguous bytes: one chunk, one transaction */
    lanes(a, 0x2020, 1);
    n = gms_coalesce(a, 0xffffffffu, 1, 0, t);
    REQUIRE(n == 1);
    CHECK_EQ(t[0].addr, 0x2020);
    CHECK_EQ(t[0].bytes, 32);
}

/* 2-byte lanes: contiguous (64 B) is one 64 B transaction; 4 B apart (128 B) is two 64 B ones
 * of 32 bytes each; lanes only in chunk 1 make a 64 B segment that shrinks to 32 B at 0x1020 */
TEST(coalesce_rule13_shorts_make_64B_segments)
{
    uint64_t a[32];
    gms_txn t[128];
    lanes(a, 0x1000, 2);
    int n = gms_coalesce(a, 0xffffffffu, 2, 0, t);
    REQUIRE(n == 1);
    CHECK_EQ(t[0].addr, 0x1000);
    CHECK_EQ(t[0].nbytes_sectors, 2);
    CHECK_EQ(t[0].sector_mask, 0x3);
    CHECK_EQ(t[0].bytes, 64);
    lanes(a, 0x1000, 4);
    n = gms_coalesce(a, 0xffffffffu, 2, 0, t);
    REQUIRE(n == 2);
    CHECK_EQ(t[0].addr, 0x1000);
    CHECK_EQ(t[1].addr, 0x1040);
    CHECK_EQ(t[0].nbytes_sectors, 2);
    CHECK_EQ(t[1].sector_mask, 0xc);
    CHECK_EQ(t[1].bytes, 32);
    lanes(a, 0x1020, 0);   /* every lane on one short in chunk 1 */
    n = gms_coalesce(a, 0xffffffffu, 2, 0, t);
    REQUIRE(n == 1);
    CHECK_EQ(t[0].addr, 0x1020);
    CHECK_EQ(t[0].nbytes_sectors, 1);
    CHECK_EQ(t[0].bytes, 2);
}

/* 4-byte lanes keep one 128 B segment per line, reduced: the whole line stays 128 B; only the
 * upper half (0x1040-0x107f) is 64 B at 0x1040; only chunk 3 is 32 B at 0x1060 */
TEST(coalesce_rule13_words_reduce_to_half_or_chunk)
{
    uint64_t a[32];
    gms_txn t[128];
    lanes(a, 0x1000, 4);
    REQUIRE(gms_coalesce(a, 0xffffffffu, 4, 0, t) == 1);
    CHECK_EQ(t[0].addr, 0x1000);
    CHECK_EQ(t[0].nbytes_sectors, 4);
    CHECK_EQ(t[0].bytes, 128);
    REQUIRE(gms_coalesce(a, 0xffff0000u, 4, 0, t) == 1);
    CHECK_EQ(t[0].addr, 0x1040);
    CHECK_EQ(t[0].nbytes_sectors, 2);
    CHECK_EQ(t[0].sector_mask, 0xc);
    CHECK_EQ(t[0].bytes, 64);
    REQUIRE(gms_coalesce(a, 0xff000000u, 4, 0, t) == 1);
    CHECK_EQ(t[0].addr, 0x1060);
    CHECK_EQ(t[0].nbytes_sectors, 1);
    /* chunks 0 and 2: both halves used, 128 B */
    REQUIRE(gms_coalesce(a, 0x00ff00ffu, 4, 0, t) == 1);
    CHECK_EQ(t[0].addr, 0x1000);
    CHECK_EQ(t[0].nbytes_sectors, 4);
    /* the unit-stride path agrees */
    REQUIRE(gms_coalesce_range(0x1040, 0x107f, 4, 0, t) == 1);
    CHECK_EQ(t[0].addr, 0x1040);
    CHECK_EQ(t[0].nbytes_sectors, 2);
    REQUIRE(gms_coalesce_range(0x1000, 0x107f, 1, 0, t) == 4);
}

/* one warp loads 32 bytes 4 B apart (0x10000-0x1007c) once: on one SM with rule 13 and global
 * loads skipping L1 (UVMSmart's GTX1080Ti), 4 requests leave the SM; 128 B wide loads, 1 */
static int fill_width;
static int fill_strided_load(void *self, uint64_t b, gms_block_trace *out, gms_error *err)
{
    (void)self; (void)b; (void)err;
    gms_emit e;
    uint64_t a[32];
    gms_emit_begin(&e, &out->warps[0]);
    uint8_t r = gms_emit_alu(&e, 0, 0xffffffffu, GMS_OP_INT, GMS_REG_NONE, GMS_REG_NONE, GMS_REG_NONE);
    lanes(a, 0x10000, 4);
    gms_emit_load(&e, 0x10, 0xffffffffu, GMS_MEM_LD_GLOBAL, (uint32_t)fill_width, a, r);
    gms_emit_exit(&e, 0x20, 0xffffffffu);
    return 0;
}

TEST(coalesce_rule13_requests_leave_the_sm)
{
    static const char *const opts[] = { "gpgpu_coalesce_arch", "13", "gpgpu_gmem_skip_L1D", "1",
                                        "gpgpu_cache:dl1", "N:64:128:6,L:L:m:N:H,A:128:8,8", NULL };
    simt_run r;
    fill_width = 1;
    REQUIRE(simt_run1(&r, "bytes", 32, fill_strided_load, opts) == 0);
    CHECK_EQ(simt_stat(&r, "gpgpu_n_mem_read_global"), 4);
    simt_free(&r);
    fill_width = 4;
    REQUIRE(simt_run1(&r, "words", 32, fill_strided_load, opts) == 0);
    CHECK_EQ(simt_stat(&r, "gpgpu_n_mem_read_global"), 1);
    simt_free(&r);
}
