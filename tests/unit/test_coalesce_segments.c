/* GPGPU-Sim's segment rule for loads and stores that are not sectored (coalesce_arch 13, and
 * Fermi/Kepler when L1-cached): lanes group by segment, 32 B for 1-byte accesses, 64 B for
 * 2-byte ones, 128 B for 4-, 8- and 16-byte ones, and each segment's transaction shrinks to
 * the half or 32 B chunk its lanes use (memory_coalescing_arch_13_reduce_and_send). Every
 * expectation below is worked out by hand from those two rules. */
#include "test.h"
#include "core/sm.h"
#include "sim_test_util.h"
#include "frontend/emit.h"
#include <string.h>

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


/* ---- the coalescer before its host-speed changes (line index by hash, 32 B segments without
 * the reduce step), kept here as the reference for the one in coalesce.c ---- */
/* the transactions of one 128 B line whose touched chunks are smask (bytes: each chunk's
 * touched bytes), cut into segments of `segment` bytes and reduced */
static int ref_line_txns(uint64_t line, uint8_t smask, const uint32_t bytes[4], uint32_t segment, gms_txn *out)
{
    int n = 0;
    uint32_t per = segment / 32;   /* chunks per segment: 1, 2 or 4 */
    uint8_t segmask = (uint8_t)((1u << per) - 1u);
    for (uint32_t c0 = 0; c0 < 4; c0 += per) {
        uint8_t q = (uint8_t)(smask & (segmask << c0));
        if (!q) continue;
        uint32_t nb = 0;
        for (uint32_t c = c0; c < c0 + per; c++) nb += (uint32_t)__builtin_popcount(bytes[c]);
        out[n++] = gms_segment_reduce((line << 7) + c0 * 32u, segment, q, nb);
    }
    return n;
}

/* the slot of `line` among the lines seen so far, added if new; -1 when 64 lines are full */
static inline int ref_line_slot(uint64_t lines[64], uint8_t smask[64], uint32_t bytes[64][4], int *nl, uint64_t line)
{
    int n = *nl, j;
    if (n && lines[n - 1] == line) return n - 1;   /* common: same line as the previous lane */
    for (j = 0; j < n; j++) if (lines[j] == line) return j;
    if (n == 64) return -1;
    lines[n] = line;
    smask[n] = 0;
    bytes[n][0] = bytes[n][1] = bytes[n][2] = bytes[n][3] = 0;
    *nl = n + 1;
    return n;
}

static int ref_coalesce(const uint64_t addrs[32], uint32_t mask, uint32_t width, int sector, gms_txn out[128])
{
    uint32_t segment = gms_coalesce_segment(width ? width : 4, sector);
    uint64_t lines[64];
    uint8_t smask[64];
    uint32_t bytes[64][4];   /* distinct bytes per sector: a 32-bit mask of each sector's bytes */
    int nl = 0;
    if (width == 0) width = 4;
    for (int lane = 0; lane < 32; lane++) {
        if (!(mask >> lane & 1u)) continue;
        uint64_t a = addrs[lane], end = a + width - 1;
        if ((a >> 5) == (end >> 5)) {   /* fast path: the lane's access stays in one sector */
            int j = ref_line_slot(lines, smask, bytes, &nl, a >> 7);
            if (j < 0) continue;
            uint32_t sct = (uint32_t)(a >> 5) & 3, l5 = (uint32_t)(a & 31);
            smask[j] |= (uint8_t)(1u << sct);
            bytes[j][sct] |= (width >= 32 ? 0xffffffffu : ((1u << width) - 1u)) << l5;
            continue;
        }
        for (uint64_t line = a >> 7; line <= end >> 7; line++) {
            uint64_t lo = line << 7 > a ? line << 7 : a;
            uint64_t hi = (line << 7) + 127 < end ? (line << 7) + 127 : end;
            int j = ref_line_slot(lines, smask, bytes, &nl, line);
            if (j < 0) continue;
            for (uint64_t b = lo; b <= hi;) {   /* one sector at a time */
                uint32_t sct = (uint32_t)(b >> 5) & 3;
                uint64_t se = (b | 31) < hi ? (b | 31) : hi;
                uint32_t l5 = (uint32_t)(b & 31), h5 = (uint32_t)(se & 31);
                uint32_t m = (h5 == 31 ? 0xffffffffu : ((1u << (h5 + 1)) - 1u)) & ~((1u << l5) - 1u);
                smask[j] |= (uint8_t)(1u << sct);
                bytes[j][sct] |= m;
                b = se + 1;
            }
        }
    }
    int n = 0;
    for (int j = 0; j < nl; j++) n += ref_line_txns(lines[j], smask[j], bytes[j], segment, out + n);
    return n;
}


/* the coalescer's transactions (count, order, every field) equal the reference's on random
 * warps: every width, sector and non-sector segments, lanes in and out of order, repeated
 * lines, accesses crossing sectors and lines, many distinct lines */
TEST(coalesce_matches_reference)
{
    static const uint32_t widths[] = {0, 1, 2, 4, 8, 16, 3, 12};
    uint64_t x = 0x2545f4914f6cdd1dULL;
    for (int it = 0; it < 20000; it++) {
        uint64_t a[32];
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        uint32_t width = widths[x % 8], mask = (uint32_t)(x >> 8);
        if (x % 5 == 0) mask = 0xffffffffu;
        int sector = (int)(x >> 40) & 1, pattern = (int)(x >> 44) % 5;
        uint64_t base = (x >> 20) & 0xffffff000ULL;
        for (int l = 0; l < 32; l++) {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            switch (pattern) {
            case 0: a[l] = base + (uint64_t)l * (width ? width : 4); break;           /* unit stride */
            case 1: a[l] = base + (uint64_t)(l % 16) * 4096 + (uint64_t)(l / 16) * 4; break;   /* transpose-like */
            case 2: a[l] = base + (x % 64) * 128 + (x >> 12) % 128; break;        /* random, crossing */
            case 3: a[l] = base + (x % 4096) * 128 + (x >> 16) % 8 * 4; break;   /* many lines */
            default: a[l] = base + (x % 3) * 128 + 120; break;                    /* few lines, crossing */
            }
        }
        gms_txn t1[128], t2[128];
        memset(t1, 0xa5, sizeof t1);
        memset(t2, 0xa5, sizeof t2);
        int n1 = gms_coalesce(a, mask, width, sector, t1), n2 = ref_coalesce(a, mask, width, sector, t2);
        REQUIRE(n1 == n2);
        for (int i = 0; i < n1; i++) {
            CHECK_EQ(t1[i].addr, t2[i].addr);
            CHECK_EQ(t1[i].sector_mask, t2[i].sector_mask);
            CHECK_EQ(t1[i].nbytes_sectors, t2[i].nbytes_sectors);
            CHECK_EQ(t1[i].bytes, t2[i].bytes);
        }
    }
}
