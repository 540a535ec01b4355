/* Set-index functions on hand-computed addresses (spec 001 section 3.2). Line 128 B (b = 7). */
#include "test.h"
#include "mem/cache.h"
#include "mem/index.h"
#include "cache_test_util.h"

TEST(cache_index_linear)
{
    gms_cache_config c = tu_index_cfg(32, 'L');
    /* 0x12345680 >> 7 = 0x2468AD; 0x2468AD & 31 = 0xD = 13 */
    CHECK_EQ(gms_cache_set_index(&c, 0x12345680), 13);
    /* same line, other byte: 0x123456FF >> 7 = 0x2468AD -> 13 */
    CHECK_EQ(gms_cache_set_index(&c, 0x123456FF), 13);
    /* 32 lines later wraps: (0x80 * 33) >> 7 = 33 -> 1 */
    CHECK_EQ(gms_cache_set_index(&c, 128 * 33), 1);
}

TEST(cache_index_bxor)
{
    gms_cache_config c = tu_index_cfg(32, 'X');
    /* 0x13080: x = addr[11:7] = (0x13080>>7)&31 = 0x261&31 = 1; t = addr[16:12] = 0x13 = 19;
     * 1 ^ 19 = 18 */
    CHECK_EQ(gms_cache_set_index(&c, 0x13080), 18);
    /* a 4 KB stride (32 sets x 128 B) moves t by one: 0x1000 -> x=0, t=1 -> 1; 0x2000 -> 2 */
    CHECK_EQ(gms_cache_set_index(&c, 0x1000), 1);
    CHECK_EQ(gms_cache_set_index(&c, 0x2000), 2);
    /* bits above addr[16] are ignored: 0x20000 -> x=0, t=(0x20000>>12)&31 = 32&31 = 0 -> 0 */
    CHECK_EQ(gms_cache_set_index(&c, 0x20000), 0);
}

TEST(cache_index_pmod_family)
{
    gms_cache_config c = tu_index_cfg(32, 'M');
    /* PMOD, p = largest prime <= 32 = 31: A = 100 -> 100 mod 31 = 7 */
    CHECK_EQ(gms_cache_set_index(&c, 100 * 128), 7);
    /* A = 31 -> 0; set 31 is never used */
    CHECK_EQ(gms_cache_set_index(&c, 31 * 128), 0);
    c.pmod_prime = 29;   /* A = 100 -> 100 mod 29 = 13 */
    CHECK_EQ(gms_cache_set_index(&c, 100 * 128), 13);
    c = tu_index_cfg(64, 'M');    /* p = 61: A = 100 -> 39 */
    CHECK_EQ(gms_cache_set_index(&c, 100 * 128), 39);
    c = tu_index_cfg(24, 'M');    /* non-power-of-two sets: p = 23; A = 100 -> 100 mod 23 = 8 */
    CHECK_EQ(gms_cache_set_index(&c, 100 * 128), 8);

    c = tu_index_cfg(32, 'A');
    /* A-prime, p = smallest prime > 32 = 37: A = 70 -> 70 mod 37 = 33 -> 33 mod 32 = 1 */
    CHECK_EQ(gms_cache_set_index(&c, 70 * 128), 1);
    /* A = 100 -> 100 mod 37 = 26 -> 26 */
    CHECK_EQ(gms_cache_set_index(&c, 100 * 128), 26);

    c = tu_index_cfg(32, 'D');
    /* D-prime, p = 11: A = 3*32 + 5 = 101 -> T = 3, x = 5 -> (3*11 + 5) mod 32 = 38 mod 32 = 6 */
    CHECK_EQ(gms_cache_set_index(&c, 101 * 128), 6);
    /* T = 0: index = x */
    CHECK_EQ(gms_cache_set_index(&c, 17 * 128), 17);
}

TEST(cache_index_fermi_hash)
{
    gms_cache_config c = tu_index_cfg(32, 'H');
    /* 0x2080: lower = addr[11:7] = 1; upper = {a19,a17,a15,a14,a13} = 00001 -> 1 ^ 1 = 0 */
    CHECK_EQ(gms_cache_set_index(&c, 0x2080), 0);
    /* 0xA0180: lower = 3; bits 17 and 19 set -> upper = 0b11000 = 24 -> 3 ^ 24 = 27 */
    CHECK_EQ(gms_cache_set_index(&c, 0xA0180), 27);
    /* bit 16 and bit 18 are not hashed: 0x50000 -> 0 */
    CHECK_EQ(gms_cache_set_index(&c, 0x50000), 0);
    c = tu_index_cfg(64, 'H');
    /* 64 sets: bit 12 becomes index bit 5: 0x1000 -> 32; 0x1000|0x2080 -> 32 | (1^1) = 32 */
    CHECK_EQ(gms_cache_set_index(&c, 0x1000), 32);
    CHECK_EQ(gms_cache_set_index(&c, 0x3080), 32);
    CHECK_EQ(gms_cache_set_index(&c, 0xA0180), 27);
}

/* GPGPU-Sim hashing.cc ipoly_hash_function, transcribed bit by bit, as the reference */
#define B(v, i) ((unsigned)(((v) >> (i)) & 1))
static unsigned gpgpusim_ipoly(uint64_t a, unsigned b, unsigned n)
{
    unsigned r[6] = { 0 };
    if (n == 16) {
        r[0] = B(a,11)^B(a,10)^B(a,9)^B(a,8)^B(a,6)^B(a,4)^B(a,3)^B(a,0)^B(b,0);
        r[1] = B(a,12)^B(a,8)^B(a,7)^B(a,6)^B(a,5)^B(a,3)^B(a,1)^B(a,0)^B(b,1);
        r[2] = B(a,9)^B(a,8)^B(a,7)^B(a,6)^B(a,4)^B(a,2)^B(a,1)^B(b,2);
        r[3] = B(a,10)^B(a,9)^B(a,8)^B(a,7)^B(a,5)^B(a,3)^B(a,2)^B(b,3);
        return r[0] | r[1] << 1 | r[2] << 2 | r[3] << 3;
    }
    if (n == 32) {
        r[0] = B(a,13)^B(a,12)^B(a,11)^B(a,10)^B(a,9)^B(a,6)^B(a,5)^B(a,3)^B(a,0)^B(b,0);
        r[1] = B(a,14)^B(a,13)^B(a,12)^B(a,11)^B(a,10)^B(a,7)^B(a,6)^B(a,4)^B(a,1)^B(b,1);
        r[2] = B(a,14)^B(a,10)^B(a,9)^B(a,8)^B(a,7)^B(a,6)^B(a,3)^B(a,2)^B(a,0)^B(b,2);
        r[3] = B(a,11)^B(a,10)^B(a,9)^B(a,8)^B(a,7)^B(a,4)^B(a,3)^B(a,1)^B(b,3);
        r[4] = B(a,12)^B(a,11)^B(a,10)^B(a,9)^B(a,8)^B(a,5)^B(a,4)^B(a,2)^B(b,4);
        return r[0] | r[1] << 1 | r[2] << 2 | r[3] << 3 | r[4] << 4;
    }
    r[0] = B(a,18)^B(a,17)^B(a,16)^B(a,15)^B(a,12)^B(a,10)^B(a,6)^B(a,5)^B(a,0)^B(b,0);
    r[1] = B(a,15)^B(a,13)^B(a,12)^B(a,11)^B(a,10)^B(a,7)^B(a,5)^B(a,1)^B(a,0)^B(b,1);
    r[2] = B(a,16)^B(a,14)^B(a,13)^B(a,12)^B(a,11)^B(a,8)^B(a,6)^B(a,2)^B(a,1)^B(b,2);
    r[3] = B(a,17)^B(a,15)^B(a,14)^B(a,13)^B(a,12)^B(a,9)^B(a,7)^B(a,3)^B(a,2)^B(b,3);
    r[4] = B(a,18)^B(a,16)^B(a,15)^B(a,14)^B(a,13)^B(a,10)^B(a,8)^B(a,4)^B(a,3)^B(b,4);
    r[5] = B(a,17)^B(a,16)^B(a,15)^B(a,14)^B(a,11)^B(a,9)^B(a,5)^B(a,4)^B(b,5);
    return r[0] | r[1] << 1 | r[2] << 2 | r[3] << 3 | r[4] << 4 | r[5] << 5;
}

TEST(cache_index_ipoly)
{
    gms_cache_config c = tu_index_cfg(32, 'P');
    /* A = 32 (addr 1<<12): x^5 mod (x^5 + x^2 + 1) = x^2 + 1 = 5 */
    CHECK_EQ(gms_cache_set_index(&c, 1u << 12), 5);
    /* A = 64: x^6 = x * x^5 = x^3 + x = 10 */
    CHECK_EQ(gms_cache_set_index(&c, 1u << 13), 10);
    /* A = 96 + 3: (x^6 + x^5) + x + 1 = (x^3 + x) ^ (x^2 + 1) ^ (x + 1) = x^3 + x^2 = 12 */
    CHECK_EQ(gms_cache_set_index(&c, 99u * 128), 12);
    /* 8 sets (not in GPGPU-Sim): P = x^3 + x + 1; A = 8 = x^3 -> x + 1 = 3 */
    c = tu_index_cfg(8, 'P');
    CHECK_EQ(gms_cache_set_index(&c, 8 * 128), 3);
    /* bit-exact against GPGPU-Sim's equations for 16, 32, 64 sets */
    uint64_t s = 0x9E3779B97F4A7C15ull;
    unsigned sets[3] = { 16, 32, 64 };
    for (int k = 0; k < 3; k++) {
        c = tu_index_cfg(sets[k], 'P');
        unsigned lg = k + 4, bad = 0;
        for (int i = 0; i < 20000; i++) {
            s ^= s << 13; s ^= s >> 7; s ^= s << 17;
            uint64_t addr = s & 0xFFFFFFFFFFull;
            uint64_t hi = addr >> (7 + lg);
            unsigned idx = (unsigned)(addr >> 7) & (sets[k] - 1);
            if (gms_cache_set_index(&c, addr) != gpgpusim_ipoly(hi, idx, sets[k])) bad++;
        }
        CHECK_EQ(bad, 0);
    }
}

TEST(cache_index_registry)
{
    const char *letters = "LXPHMAD";
    for (const char *p = letters; *p; p++) {
        const gms_index_ops *o = gms_index_find(*p);
        REQUIRE(o != NULL);
        CHECK(gms_index_by_kind(o->kind) == o);
    }
    CHECK(gms_index_find('C') == NULL);
}
