/* The prime, aprime, dprime and ipoly partition mappings (src/mem/addrdec_prime.c, spec 001
 * §3.5) on hand-computed chunk indices (16 channels, 256 B chunks), their one-to-one
 * channel-local addresses, and bad parameters. */
#include "test.h"
#include "mem/addrdec.h"

static gms_addrdec_config cfg(const char *member, uint32_t nch, uint32_t prime)
{
    gms_addrdec_config c;
    memset(&c, 0, sizeof c);
    snprintf(c.member, sizeof c.member, "%s", member);
    c.n_channel = nch;
    c.n_sub = 1;
    c.chunk = 256;
    c.prime = prime;
    return c;
}

static uint32_t chan_of(const char *member, uint64_t chunk_index, uint64_t *local)
{
    gms_addrdec_config c = cfg(member, 16, 0);
    const gms_chanmap_ops *ops = gms_chanmap_find(member);
    uint32_t ch = UINT32_MAX;
    uint64_t l = 0;
    if (ops) ops->map(&c, chunk_index * 256 + 7, &ch, &l);
    if (local) *local = l;
    return ch;
}

TEST(addrdec_prime_hand_computed_channels)
{
    uint64_t l;
    /* prime: c mod 13; local chunk c / 13 */
    CHECK_EQ(chan_of("prime", 13, &l), 0);  CHECK_EQ(l, 256 + 7);
    CHECK_EQ(chan_of("prime", 20, &l), 7);  CHECK_EQ(l, 256 + 7);
    CHECK_EQ(chan_of("prime", 12, &l), 12); CHECK_EQ(l, 7);
    /* aprime: (c mod 31) mod 16; local (c / 31) * 2 + (c mod 31) / 16 */
    CHECK_EQ(chan_of("aprime", 47, &l), 0);  CHECK_EQ(l, 3 * 256 + 7);   /* 47 mod 31 = 16 */
    CHECK_EQ(chan_of("aprime", 15, &l), 15); CHECK_EQ(l, 7);
    CHECK_EQ(chan_of("aprime", 46, &l), 15); CHECK_EQ(l, 2 * 256 + 7);   /* 46 mod 31 = 15 */
    CHECK_EQ(chan_of("aprime", 30, &l), 14); CHECK_EQ(l, 1 * 256 + 7);
    /* dprime: ((c >> 4) * 11 + (c & 15)) mod 16; local c >> 4 */
    CHECK_EQ(chan_of("dprime", 0x35, &l), 6);  CHECK_EQ(l, 3 * 256 + 7);  /* 33 + 5 = 38 */
    CHECK_EQ(chan_of("dprime", 0x0f, &l), 15); CHECK_EQ(l, 7);
    /* ipoly: c(x) mod x^4+x+1 over GF(2); local c >> 4 */
    CHECK_EQ(chan_of("ipoly", 0x10, &l), 3);   CHECK_EQ(l, 256 + 7);      /* x^4 = x + 1 */
    CHECK_EQ(chan_of("ipoly", 0x35, NULL), 0); /* x^5+x^4+x^2+1 = (x^2+x)+(x+1)+x^2+1 = 0 */
    CHECK_EQ(chan_of("ipoly", 0x20, NULL), 6); /* x^5 = x^2 + x */
    CHECK_EQ(chan_of("ipoly", 0x9, NULL), 9);  /* below degree 4: itself */
}

/* no two chunks may share a (channel, local chunk) pair: they would alias in the L2 slice;
 * 16 channels and GTX1080Ti's 11 */
TEST(addrdec_prime_one_to_one)
{
    static const char *const members[] = { "prime", "aprime", "dprime", "ipoly" };
    enum { N = 4096 };
    for (size_t m = 0; m < 8; m++) {
        uint32_t nch = m < 4 ? 16 : 11;
        gms_addrdec_config c = cfg(members[m % 4], nch, 0);
        const gms_chanmap_ops *ops = gms_chanmap_find(members[m % 4]);
        REQUIRE(ops != NULL);
        gms_error e = {0};
        CHECK_EQ(ops->check(&c, &e), 0);
        static uint8_t seen[16][N];
        memset(seen, 0, sizeof seen);
        uint32_t used[16] = {0};
        int dup = 0, far = 0;
        for (uint64_t i = 0; i < N; i++) {
            uint32_t ch;
            uint64_t local;
            ops->map(&c, i * 256, &ch, &local);
            REQUIRE(ch < nch);
            uint64_t li = local / 256;
            if (li >= N) { far++; continue; }
            dup += seen[ch][li];
            seen[ch][li] = 1;
            used[ch]++;
        }
        CHECK_EQ(dup, 0);
        CHECK_EQ(far, 0);
        /* prime leaves channels p..N-1 idle (13-15 of 16; none of 11, p = 11); the others use all */
        int idle = 0;
        for (uint32_t ch = 0; ch < nch; ch++) idle += used[ch] == 0;
        CHECK_EQ(idle, m == 0 ? 3 : 0);
    }
}

TEST(addrdec_prime_bad_parameters)
{
    gms_error e = {0};
    gms_addrdec_config c = cfg("prime", 16, 12);
    CHECK(gms_chanmap_find("prime")->check(&c, &e) != 0);
    CHECK_CONTAINS(e.msg, "needs a prime <= 16 channels, got 12");
    c = cfg("aprime", 16, 13);
    CHECK(gms_chanmap_find("aprime")->check(&c, &e) != 0);
    CHECK_CONTAINS(e.msg, "needs a prime > 16 channels, got 13");
    c = cfg("dprime", 16, 15);
    CHECK(gms_chanmap_find("dprime")->check(&c, &e) != 0);
    CHECK_CONTAINS(e.msg, "15 is not prime");
    c = cfg("ipoly", 16, 37);
    CHECK(gms_chanmap_find("ipoly")->check(&c, &e) != 0);
    CHECK_CONTAINS(e.msg, "polynomial of degree 4");
    /* defaults for 8 channels: prime 7, aprime 13, ipoly x^3+x+1 */
    c = cfg("ipoly", 8, 0);
    CHECK_EQ(gms_chanmap_find("ipoly")->check(&c, &e), 0);
    uint32_t ch;
    uint64_t l;
    gms_chanmap_find("ipoly")->map(&c, 8 * 256, &ch, &l);
    CHECK_EQ(ch, 3);                                 /* x^3 = x + 1 */
    c = cfg("prime", 8, 0);
    gms_chanmap_find("prime")->map(&c, 7 * 256, &ch, &l);
    CHECK_EQ(ch, 0);
    c = cfg("aprime", 8, 0);
    gms_chanmap_find("aprime")->map(&c, 12 * 256, &ch, &l);
    CHECK_EQ(ch, 4);                                 /* 12 mod 13 mod 8 */
    /* ipoly on 11 channels: k = 4; c = 11 * 3 + 2: (2 + (x+1)*x^4 mod x^4+x+1) mod 11;
     * (x+1)(x+1) = x^2+1 = 5, so channel (2 + 5) mod 11 = 7, local chunk 3 */
    c = cfg("ipoly", 11, 0);
    CHECK_EQ(gms_chanmap_find("ipoly")->check(&c, &e), 0);
    gms_chanmap_find("ipoly")->map(&c, 35 * 256, &ch, &l);
    CHECK_EQ(ch, 7);
    CHECK_EQ(l, 3 * 256);
    /* dprime on 11: c = 11 * 3 + 2: (3 * 11 + 2) mod 11 = 2 */
    c = cfg("dprime", 11, 0);
    gms_chanmap_find("dprime")->map(&c, 35 * 256, &ch, &l);
    CHECK_EQ(ch, 2);
}
