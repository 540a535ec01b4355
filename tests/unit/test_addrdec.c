/* Address decoder: GPGPU-Sim mapping strings on known addresses, partition hashing, the
 * modulo/xor channel policies (partition camping), and bad input.
 * Expected values: GPGPU-Sim's algorithm (masks shifted above dramid@S, addrdec_packbits,
 * hashing.cc) applied by hand / by an independent script, not by this decoder. */
#include "test.h"
#include "mem/addrdec.h"

#define QV100_MAP "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCB.CCCSSSSS"
#define GTX480_MAP "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS"

static int mkdec(gms_addrdec *d, const char *map, const char *member, uint32_t nch, uint32_t nsp, uint32_t pidx,
                 gms_error *e)
{
    gms_addrdec_config c;
    memset(&c, 0, sizeof c);
    if (map && gms_addrdec_parse_mapping(map, "-gpgpu_mem_addr_mapping", &c, e)) return -1;
    if (!map && gms_addrdec_default_masks(1, &c, e)) return -1;
    snprintf(c.member, sizeof c.member, "%s", member);
    c.n_channel = nch;
    c.n_sub = nsp;
    c.pindex = pidx;
    c.chunk = 256;
    c.nbk = 16;
    if (gms_addrdec_finalize(&c, e)) return -1;
    return gms_addrdec_init(d, &c, e);
}

/* an address and its expected fields; ANY: a field the case does not check */
#define ANY UINT32_MAX
typedef struct known {
    uint64_t a;
    uint32_t chan, sub, bank, row, col, burst;
} known;

static void check_known(const gms_addrdec *d, const known *k, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        gms_addrdec_out o;
        gms_addrdec_decode(d, k[i].a, &o);
        const uint32_t got[6] = { o.chan, o.sub, o.bank, o.row, o.col, o.burst };
        const uint32_t want[6] = { k[i].chan, k[i].sub, k[i].bank, k[i].row, k[i].col, k[i].burst };
        for (int f = 0; f < 6; f++) {
            if (want[f] == ANY || got[f] == want[f]) continue;
            char m[160];
            snprintf(m, sizeof m, "address 0x%" PRIx64 " field %d (chan, sub, bank, row, col, burst): %u != %u",
                     k[i].a, f, got[f], want[f]);
            gms_test_fail(__FILE__, __LINE__, m);
        }
    }
}

TEST(addrdec_qv100_known_addresses)
{
    gms_addrdec d;
    gms_error e = { 0 };
    REQUIRE(!mkdec(&d, QV100_MAP, "gpgpusim", 32, 2, 0, &e));
    static const known k[] = {
        /* 0x12345678: channel = addr[12:8] = 0x16 = 22; bank bits (raw 19,18,17,13) = 0,1,0,0
         * -> 4; sub-partition = 22*2 + (4 & 1) = 44; row = addr[32:20] = 0x123 = 291;
         * column = raw bits 16..14, 7..0 -> 376 */
        { 0x12345678, 22, 44, 4, 291, 376, 0x78 & 31 },
        /* bit 13 is the lowest bank bit: it picks the sub-partition */
        { 0x2000, 0, 1, 1, ANY, ANY, ANY },
        { 0x7f0000012345, 3, 7, 1, 0, 1093, ANY },
        { 0x7f00001fffe0, 31, 63, 15, 1, 2016, ANY },
    };
    check_known(&d, k, sizeof k / sizeof k[0]);
    CHECK_EQ(gms_addrdec_subpart(&d, 0x12345678), 44);
    /* partition address: bits 13..8 (channel + sub-partition) removed */
    CHECK_EQ(gms_addrdec_partition_addr(&d, 0x12345678), ((0x12345678ull >> 14) << 8) | 0x78);
}

TEST(addrdec_ipoly_partition_indexing)
{
    gms_addrdec d;
    gms_error e = { 0 };
    REQUIRE(!mkdec(&d, QV100_MAP, "gpgpusim", 32, 2, GMS_PIDX_IPOLY, &e));
    /* IPOLY(67) over 64 sub-partitions of (addr >> 14, raw sub-partition index) */
    static const struct { uint64_t a; uint32_t sub; } v[] = {
        { 0x7f0000012345ull, 11 }, { 0x12345678ull, 10 }, { 0x7f00001fffe0ull, 56 }, { 0x2000, 1 },
        { 0x7f0000400000ull, 20 },
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        gms_addrdec_out o;
        gms_addrdec_decode(&d, v[i].a, &o);
        CHECK_EQ(o.sub, v[i].sub);
        CHECK_EQ(o.chan, v[i].sub / 2);
    }
    /* a 2^n stride spreads over every sub-partition (IPOLY's purpose) */
    uint32_t hist[64] = { 0 };
    for (uint64_t i = 0; i < 64 * 64; i++) hist[gms_addrdec_subpart(&d, 0x7f0000000000ull + i * 8192)]++;
    for (int s = 0; s < 64; s++) CHECK_EQ(hist[s], 64);
}

TEST(addrdec_gtx480_six_channels_gap)
{
    gms_addrdec d;
    gms_error e = { 0 };
    REQUIRE(!mkdec(&d, GTX480_MAP, "gpgpusim", 6, 2, 0, &e));
    /* 6 channels: chip = (addr >> 8) % 6, rest = ((addr >> 8) / 6) << 8 | addr[7:0] */
    static const known k[] = {
        { 0x12345678, 0, 1, 11, 776, 3192, ANY },
        { 0x7f0000012345, 1, 3, 13, 2730, 3397, ANY },
    };
    check_known(&d, k, sizeof k / sizeof k[0]);
    /* consecutive 256 B chunks visit the 6 channels in turn */
    for (uint64_t i = 0; i < 12; i++) CHECK_EQ(gms_addrdec_subpart(&d, i * 256) / 2, i % 6);
}

TEST(addrdec_xor_bank_indexing)
{
    gms_addrdec_config c;
    memset(&c, 0, sizeof c);
    gms_error e = { 0 };
    REQUIRE(!gms_addrdec_parse_mapping(QV100_MAP, "-m", &c, &e));
    snprintf(c.member, sizeof c.member, "gpgpusim");
    c.n_channel = 32; c.n_sub = 2; c.nbk = 16; c.bk_index = GMS_BKIDX_XOR;
    REQUIRE(!gms_addrdec_finalize(&c, &e));
    gms_addrdec d;
    REQUIRE(!gms_addrdec_init(&d, &c, &e));
    gms_addrdec_out o;
    gms_addrdec_decode(&d, 0x12345678, &o);
    CHECK_EQ(o.bank_raw, 4);
    CHECK_EQ(o.bank, 4 ^ (291 & 15));      /* bank ^ low row bits */
    CHECK_EQ(o.sub, 44);                    /* the sub-partition uses the raw bank */
}

/* partition camping (spec 001 §3.5): a stride of N x 256 B lands on one partition with
 * modulo mapping, on all of them evenly with xor mapping */
TEST(addrdec_partition_camping_modulo_vs_xor)
{
    gms_addrdec mod, xr;
    gms_error e = { 0 };
    REQUIRE(!mkdec(&mod, NULL, "modulo", 16, 1, 0, &e));
    REQUIRE(!mkdec(&xr, NULL, "xor", 16, 1, 0, &e));
    uint32_t hm[16] = { 0 }, hx[16] = { 0 };
    for (uint64_t i = 0; i < 1024; i++) {
        uint64_t a = 0x10000000ull + i * 16 * 256;
        hm[gms_addrdec_subpart(&mod, a)]++;
        hx[gms_addrdec_subpart(&xr, a)]++;
    }
    CHECK_EQ(hm[0], 1024);
    for (int p = 0; p < 16; p++) CHECK_EQ(hx[p], 64);
    /* xor = addr[11:8] ^ addr[19:16] */
    CHECK_EQ(gms_addrdec_subpart(&xr, 0x00030500), 3 ^ 5);
    CHECK_EQ(gms_addrdec_subpart(&mod, 0x00030500), 5);
    /* unit stride: both interleave 256 B chunks round robin */
    for (uint64_t i = 0; i < 16; i++) CHECK_EQ(gms_addrdec_subpart(&mod, i * 256), i);
}

TEST(addrdec_xor_non_power_of_two)
{
    gms_addrdec xr;
    gms_error e = { 0 };
    REQUIRE(!mkdec(&xr, NULL, "xor", 12, 1, 0, &e));
    uint32_t h[12] = { 0 };
    for (uint64_t i = 0; i < 12 * 64; i++) h[gms_addrdec_subpart(&xr, i * 12 * 256)]++;
    uint32_t lo = 1u << 30, hi = 0;
    for (int p = 0; p < 12; p++) { if (h[p] < lo) lo = h[p]; if (h[p] > hi) hi = h[p]; }
    CHECK(lo > 0);
    CHECK(hi <= 2 * lo);
}

TEST(addrdec_bad_mapping_strings)
{
    gms_addrdec_config c;
    gms_error e = { 0 };
    memset(&c, 0, sizeof c);
    CHECK(gms_addrdec_parse_mapping("dramid@8;0000RRRR.RRRRRRRR.RBBBCCCB.CCCSSSSS", "-gpgpu_mem_addr_mapping", &c, &e));
    CHECK_CONTAINS(e.msg, "-gpgpu_mem_addr_mapping");
    CHECK_CONTAINS(e.msg, "has 32 bit characters");
    CHECK(gms_addrdec_parse_mapping("dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBXCCCB.CCCSSSSS",
                                    "-gpgpu_mem_addr_mapping", &c, &e));
    CHECK_CONTAINS(e.msg, "invalid character 'X'");
    CHECK(gms_addrdec_parse_mapping("dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBDCCCB.CCCSSSSS",
                                    "-gpgpu_mem_addr_mapping", &c, &e));
    CHECK_CONTAINS(e.msg, "D (channel) bits are not allowed");
    /* 5 bank bits but 16 banks */
    gms_addrdec d;
    CHECK(mkdec(&d, "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBBCCCB.CCCSSSSS", "gpgpusim",
                32, 2, 0, &e));
    CHECK_CONTAINS(e.msg, "nbk=16");
    /* channel bits pushed past bit 63 */
    CHECK(mkdec(&d, "dramid@8;RRRRRRRR.RRRRRRRR.RRRRRRRR.RRRRRRRR.RRRRRRRR.RRRRRRRR.RBBBCCCB.CCCSSSSS", "gpgpusim",
                32, 2, 0, &e));
    CHECK_CONTAINS(e.msg, "past bit 63");
    CHECK(mkdec(&d, QV100_MAP, "gpgpusim", 6, 2, GMS_PIDX_XOR, &e));
    CHECK_CONTAINS(e.msg, "-gpgpu_memory_partition_indexing 1");
    CHECK(mkdec(&d, QV100_MAP, "gpgpusim", 8, 1, GMS_PIDX_IPOLY, &e));
    CHECK_CONTAINS(e.msg, "IPOLY");
    CHECK(mkdec(&d, QV100_MAP, "nosuch", 8, 1, 0, &e));
    CHECK_CONTAINS(e.msg, "known: gpgpusim, modulo, xor");
    CHECK(mkdec(&d, QV100_MAP, "gpgpusim", 8, 3, 0, &e));
    CHECK_CONTAINS(e.msg, "-gpgpu_n_sub_partition_per_mchannel");
}

TEST(addrdec_explicit_d_bits)
{
    gms_addrdec d;
    gms_error e = { 0 };
    /* 4 channels picked by address bits 7..6 (the D characters) */
    REQUIRE(!mkdec(&d, "00000000.00000000.00000000.00000000.00RRRRRR.RRRRRRRR.RBBBCCCB.DDCSSSSS", "gpgpusim", 4, 1, 0,
                   &e));
    gms_addrdec_out o;
    gms_addrdec_decode(&d, 0xC0 | 0x1f, &o);
    CHECK_EQ(o.chan, 3);
    CHECK_EQ(o.burst, 0x1f);
    CHECK(mkdec(&d, "00000000.00000000.00000000.00000000.00RRRRRR.RRRRRRRR.RBBBCCCB.DDCSSSSS", "gpgpusim", 8, 1, 0,
                &e));
    CHECK_CONTAINS(e.msg, "2 D bits");
}

/* The precompiled fast paths (run tables, IPOLY byte tables) against the plain bit loops on
 * many masks and values: they must agree bit for bit. */
TEST(addrdec_fast_paths_match_bit_loops)
{
    uint64_t x = 0x9e3779b97f4a7c15ULL;
    for (int i = 0; i < 20000; i++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        uint64_t mask = x, v = x * 0xbf58476d1ce4e5b9ULL;
        if (i % 3 == 0) mask &= 0x0000ffffff00ULL;      /* address-like masks, few runs */
        gms_bitruns r;
        gms_bitruns_init(&r, mask);
        CHECK_EQ(gms_bitruns_gather(&r, v), gms_bits_gather(mask, v));
        gms_bitruns_init(&r, ~mask);
        CHECK_EQ(gms_bitruns_gather(&r, v), gms_bits_remove(mask, v));
        static const uint32_t ns[3] = { 16, 32, 64 };
        for (int k = 0; k < 3; k++) {
            gms_ipoly_tab t;
            gms_ipoly_tab_init(&t, ns[k]);
            uint32_t idx = (uint32_t)(v >> 40) & (ns[k] - 1);
            CHECK_EQ(gms_ipoly_tab_hash(&t, v & 0xffffff, idx), gms_ipoly_hash(v & 0xffffff, idx, ns[k]));
            CHECK_EQ(gms_ipoly_tab_hash(&t, v, idx), gms_ipoly_hash(v, idx, ns[k]));
        }
    }
    /* the alternating mask has 32 runs: the fallback */
    gms_bitruns r;
    gms_bitruns_init(&r, 0x5555555555555555ULL);
    CHECK_EQ(gms_bitruns_gather(&r, ~0ULL), 0xffffffffULL);
}

/* the inlined bit-split mapping decodes exactly like the member's own map/high_bits */
TEST(addrdec_split_matches_member_map)
{
    static const struct { const char *map, *member; uint32_t nch, nsp, pidx; } cfgs[] = {
        { QV100_MAP, "gpgpusim", 32, 2, 2 }, { QV100_MAP, "gpgpusim", 32, 2, 0 },
        { GTX480_MAP, "gpgpusim", 16, 2, 1 }, { NULL, "modulo", 16, 2, 0 }, { NULL, "modulo", 8, 1, 1 },
    };
    for (size_t k = 0; k < sizeof cfgs / sizeof cfgs[0]; k++) {
        gms_addrdec d, ref;
        gms_error e = { 0 };
        REQUIRE(!mkdec(&d, cfgs[k].map, cfgs[k].member, cfgs[k].nch, cfgs[k].nsp, cfgs[k].pidx, &e));
        CHECK(d.is_split);
        ref = d;
        ref.is_split = 0;
        uint64_t x = 0x243f6a8885a308d3ULL + k;
        for (int i = 0; i < 5000; i++) {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            uint64_t a = x & 0x7fffffffffffULL;
            gms_addrdec_out o1, o2;
            gms_addrdec_decode(&d, a, &o1);
            gms_addrdec_decode(&ref, a, &o2);
            CHECK_EQ(o1.chan, o2.chan);
            CHECK_EQ(o1.sub, o2.sub);
            CHECK_EQ(o1.bank, o2.bank);
            CHECK_EQ(o1.row, o2.row);
            CHECK_EQ(o1.col, o2.col);
            CHECK_EQ(gms_addrdec_subpart(&d, a), gms_addrdec_subpart(&ref, a));
            CHECK_EQ(gms_addrdec_partition_addr(&d, a), gms_addrdec_partition_addr(&ref, a));
        }
    }
}

TEST(addrdec_custom_indexing_is_none)
{
    /* GPGPU-Sim's CUSTOM (5) has no function of its own: the consecutive sub-partition */
    gms_addrdec a, b;
    gms_error e = { 0 };
    REQUIRE(!mkdec(&a, QV100_MAP, "gpgpusim", 32, 2, GMS_PIDX_NONE, &e));
    REQUIRE(!mkdec(&b, QV100_MAP, "gpgpusim", 32, 2, GMS_PIDX_CUSTOM, &e));
    for (uint64_t i = 0; i < 4096; i++) {
        uint64_t addr = 0x7f0000000000ull + i * 0x1234567ull;
        CHECK_EQ(gms_addrdec_subpart(&b, addr), gms_addrdec_subpart(&a, addr));
    }
}

TEST(addrdec_random_indexing_per_unit)
{
    /* random (4): one sub-partition per unit of addr >> (dramid 8 - log2 2 sub-partitions) =
     * 128 B; the same unit always the same, every sub-partition used, about evenly */
    gms_addrdec d;
    gms_error e = { 0 };
    REQUIRE(!mkdec(&d, QV100_MAP, "gpgpusim", 32, 2, GMS_PIDX_RANDOM, &e));
    uint32_t hist[64] = { 0 };
    for (uint64_t u = 0; u < 64 * 256; u++) {
        uint64_t base = 0x7f0000000000ull + u * 128;
        uint32_t s = gms_addrdec_subpart(&d, base);
        CHECK(s < 64);
        if (s >= 64) break;
        hist[s]++;
        CHECK_EQ(gms_addrdec_subpart(&d, base + 127), s);
        gms_addrdec_out o;
        gms_addrdec_decode(&d, base + 64, &o);
        CHECK_EQ(o.sub, s);
        CHECK_EQ(o.chan, s / 2);
    }
    for (int s = 0; s < 64; s++) { CHECK(hist[s] > 256 * 3 / 4); CHECK(hist[s] < 256 * 5 / 4); }
    /* consecutive units are not consecutive sub-partitions (that would be indexing 0) */
    uint32_t same = 0;
    for (uint64_t u = 0; u < 64; u++)
        same += gms_addrdec_subpart(&d, u * 128) == (uint32_t)(u % 64);
    CHECK(same < 8);
}

TEST(addrdec_ipoly_modulo_indexing)
{
    gms_addrdec d, ip;
    gms_error e = { 0 };
    /* a power-of-two total (32 x 2 = 64 = 1 x 64): one group, the same as IPOLY */
    REQUIRE(!mkdec(&d, QV100_MAP, "gpgpusim", 32, 2, GMS_PIDX_IPOLY_MODULO, &e));
    REQUIRE(!mkdec(&ip, QV100_MAP, "gpgpusim", 32, 2, GMS_PIDX_IPOLY, &e));
    for (uint64_t i = 0; i < 4096; i++) {
        uint64_t addr = 0x7f0000000000ull + i * 0x10203ull;
        CHECK_EQ(gms_addrdec_subpart(&d, addr), gms_addrdec_subpart(&ip, addr));
    }
    /* H100's 40 channels x 2 = 80 = 5 x 16: the channel comes from (addr >> 8) mod 40 (the gap
     * path), the group of 16 stays, the place in it is IPOLY(16) of the high bits */
    gms_addrdec m, none;
    REQUIRE(!mkdec(&m, GTX480_MAP, "gpgpusim", 40, 2, GMS_PIDX_IPOLY_MODULO, &e));
    REQUIRE(!mkdec(&none, GTX480_MAP, "gpgpusim", 40, 2, GMS_PIDX_NONE, &e));
    uint32_t hist[80] = { 0 };
    for (uint64_t i = 0; i < 80 * 64; i++) {
        uint64_t addr = 0x7f0000000000ull + i * 8192;   /* a 2^n stride */
        uint32_t s = gms_addrdec_subpart(&m, addr), s0 = gms_addrdec_subpart(&none, addr);
        CHECK(s < 80);
        if (s >= 80) break;
        CHECK_EQ(s / 16, s0 / 16);
        hist[s]++;
    }
    for (int s = 0; s < 80; s++) CHECK(hist[s] > 0);
    /* the totals the groups cannot take, and the value GPGPU-Sim does not have */
    gms_addrdec_config c;
    memset(&c, 0, sizeof c);
    REQUIRE(!gms_addrdec_parse_mapping(GTX480_MAP, "-gpgpu_mem_addr_mapping", &c, &e));
    snprintf(c.member, sizeof c.member, "gpgpusim");
    c.n_channel = 12; c.n_sub = 2; c.chunk = 256; c.nbk = 16; c.pindex = GMS_PIDX_IPOLY_MODULO;
    CHECK(gms_addrdec_finalize(&c, &e) != 0);
    CHECK(strstr(e.msg, "needs 16, 32 or 64") != NULL);
    c.pindex = 3;
    CHECK(gms_addrdec_finalize(&c, &e) != 0);
    CHECK(strstr(e.msg, "3 is not supported") != NULL);
}
