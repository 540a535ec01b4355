/* Channel selections "prime", "aprime", "dprime" and "ipoly" (spec 001 §3.5: "implementations
 * similar to cache set indexing functions"; the concrete forms are the spec's inferred ones),
 * on the chunk index c = addr / chunk (256 B by default) and N channels:
 *   prime   channel = c mod p                    p = -gms_partition_prime, default the largest
 *                                                prime <= N (13 for 16: channels p..N-1 idle)
 *   aprime  channel = (c mod p) mod N            p default the largest prime < 2N (31 for 16)
 *   dprime  channel = (q * p + r) mod N          q = c / N, r = c mod N; p default 11
 *   ipoly   channel = c(x) mod P(x) over GF(2)   P = p as a bit pattern (19 = x^4+x+1 for 16);
 *                                                default a primitive polynomial of degree log2 N
 * ipoly with N not a power of two (GTX1080Ti's 11 channels): k = ceil(log2 N) and
 * channel = (r + (q(x) x^k mod P(x))) mod N, the folded residue added instead of xor-ed, as the
 * xor mapping does for such N (for a power of two, r xor that residue is c(x) mod P(x)).
 * The channel-local chunk index must be unique within a channel (or two addresses would alias
 * in the L2 slice and the DRAM rows): prime keeps c / p; aprime (c / p) * ceil(p / N) +
 * (c mod p) / N; dprime and ipoly are bijective in r for a fixed q, so they keep q, as modulo
 * does. */
#include "mem/addrdec.h"

static int is_prime(uint64_t x)
{
    if (x < 2) return 0;
    for (uint64_t d = 2; d * d <= x; d++) if (!(x % d)) return 0;
    return 1;
}

static uint64_t prime_le(uint64_t x) { while (x > 2 && !is_prime(x)) x--; return x; }

/* primitive polynomials of degree 1..10 over GF(2), as bit patterns (x^4+x+1 = 0x13 = 19) */
static const uint32_t prim_poly[11] = { 0, 0x3, 0x7, 0xb, 0x13, 0x25, 0x43, 0x83, 0x11d, 0x211, 0x409 };

static unsigned ceil_log2(uint64_t n) { unsigned k = 0; while ((1ull << k) < n) k++; return k; }

static uint64_t prime_of(const gms_addrdec_config *c, char kind)
{
    if (c->prime) return c->prime;
    switch (kind) {
    case 'p': return prime_le(c->n_channel);
    case 'a': return prime_le(2ull * c->n_channel - 1);
    case 'd': return 11;
    default: {
        unsigned k = ceil_log2(c->n_channel);
        return k < 11 ? prim_poly[k] : 0;
    }
    }
}

static uint64_t chunk_of(const gms_addrdec_config *c, uint64_t addr) { return addr >> gms_log2u(c->chunk); }
static uint64_t local_of(const gms_addrdec_config *c, uint64_t idx, uint64_t addr)
{
    return (idx << gms_log2u(c->chunk)) | (addr & (c->chunk - 1));
}

static void prime_map(const gms_addrdec_config *c, uint64_t addr, uint32_t *chan, uint64_t *local)
{
    uint64_t ch = chunk_of(c, addr), p = prime_of(c, 'p');
    *chan = (uint32_t)(ch % p);
    *local = local_of(c, ch / p, addr);
}

static void aprime_map(const gms_addrdec_config *c, uint64_t addr, uint32_t *chan, uint64_t *local)
{
    uint64_t ch = chunk_of(c, addr), p = prime_of(c, 'a'), n = c->n_channel, r = ch % p;
    uint64_t per = (p + n - 1) / n;         /* residues that share a channel, at most */
    *chan = (uint32_t)(r % n);
    *local = local_of(c, (ch / p) * per + r / n, addr);
}

static void dprime_map(const gms_addrdec_config *c, uint64_t addr, uint32_t *chan, uint64_t *local)
{
    uint64_t ch = chunk_of(c, addr), n = c->n_channel, q = ch / n;
    *chan = (uint32_t)((q % n * (prime_of(c, 'd') % n) + ch % n) % n);
    *local = local_of(c, q, addr);
}

/* c(x) mod P(x) over GF(2), P of degree k: fold from the top bit down */
static uint32_t gf2_mod(uint64_t x, uint64_t poly, unsigned k)
{
    for (int b = 63; b >= (int)k; b--)
        if (x >> b & 1) x ^= poly << (b - (int)k);
    return (uint32_t)x;
}

static void ipoly_map(const gms_addrdec_config *c, uint64_t addr, uint32_t *chan, uint64_t *local)
{
    uint64_t ch = chunk_of(c, addr), n = c->n_channel, poly = prime_of(c, 'i');
    unsigned k = ceil_log2(n);
    if (!(n & (n - 1))) {
        *chan = gf2_mod(ch, poly, k);
        *local = local_of(c, ch >> k, addr);
    } else {
        uint64_t q = ch / n;
        *chan = (uint32_t)((ch % n + gf2_mod(q << k, poly, k)) % n);
        *local = local_of(c, q, addr);
    }
}

static uint64_t chunk_high(const gms_addrdec_config *c, uint64_t local) { return local >> gms_log2u(c->chunk); }

static int check_common(const gms_addrdec_config *c, char kind, gms_error *err)
{
    if (gms_chanmap_check_chunk(c, err)) return -1;
    uint64_t n = c->n_channel, p = prime_of(c, kind);
    switch (kind) {
    case 'p':
        if (!is_prime(p) || p > n)
            return gms_err(err, "-gms_partition_prime: prime mapping needs a prime <= %llu channels, got %llu",
                           (unsigned long long)n, (unsigned long long)p);
        return 0;
    case 'a':
        if (!is_prime(p) || p <= n)
            return gms_err(err, "-gms_partition_prime: aprime mapping needs a prime > %llu channels, got %llu",
                           (unsigned long long)n, (unsigned long long)p);
        return 0;
    case 'd':
        if (!is_prime(p)) return gms_err(err, "-gms_partition_prime: %llu is not prime", (unsigned long long)p);
        return 0;
    default: {
        if (n < 2 || n > 1024)
            return gms_err(err, "-gms_partition_mapping ipoly: needs 2-1024 channels, got %llu", (unsigned long long)n);
        unsigned k = ceil_log2(n);
        if (p >> k != 1)
            return gms_err(err, "-gms_partition_prime: ipoly needs a polynomial of degree %u (a bit pattern in [%llu, %llu]), got %llu",
                           k, 1ull << k, (2ull << k) - 1, (unsigned long long)p);
        return 0;
    }
    }
}

static int prime_check(const gms_addrdec_config *c, gms_error *err) { return check_common(c, 'p', err); }
static int aprime_check(const gms_addrdec_config *c, gms_error *err) { return check_common(c, 'a', err); }
static int dprime_check(const gms_addrdec_config *c, gms_error *err) { return check_common(c, 'd', err); }
static int ipoly_check(const gms_addrdec_config *c, gms_error *err) { return check_common(c, 'i', err); }

static void describe(const gms_addrdec_config *c, char kind, const char *what, char *buf, size_t n)
{
    snprintf(buf, n, "%s with %s %llu over %u-byte chunks", c->member, what, (unsigned long long)prime_of(c, kind), c->chunk);
}
static void prime_desc(const gms_addrdec_config *c, char *b, size_t n) { describe(c, 'p', "p =", b, n); }
static void aprime_desc(const gms_addrdec_config *c, char *b, size_t n) { describe(c, 'a', "p =", b, n); }
static void dprime_desc(const gms_addrdec_config *c, char *b, size_t n) { describe(c, 'd', "p =", b, n); }
static void ipoly_desc(const gms_addrdec_config *c, char *b, size_t n) { describe(c, 'i', "polynomial", b, n); }

const gms_chanmap_ops gms_chanmap_prime = {
    .name = "prime", .knobs = GMS_KNOBS("gms_partition_chunk", "gms_partition_prime"),
    .summary = "channel = chunk index mod p, p prime <= N (spec 001 3.5 Prime(13))",
    .map = prime_map, .high_bits = chunk_high, .check = prime_check, .describe = prime_desc,
};
const gms_chanmap_ops gms_chanmap_aprime = {
    .name = "aprime", .knobs = GMS_KNOBS("gms_partition_chunk", "gms_partition_prime"),
    .summary = "channel = (chunk index mod p) mod N, p prime > N (spec 001 3.5 A_Prime(31))",
    .map = aprime_map, .high_bits = chunk_high, .check = aprime_check, .describe = aprime_desc,
};
const gms_chanmap_ops gms_chanmap_dprime = {
    .name = "dprime", .knobs = GMS_KNOBS("gms_partition_chunk", "gms_partition_prime"),
    .summary = "channel = (q * p + r) mod N, q = chunk / N, r = chunk mod N (spec 001 3.5 D_Prime(11))",
    .map = dprime_map, .high_bits = chunk_high, .check = dprime_check, .describe = dprime_desc,
};
const gms_chanmap_ops gms_chanmap_ipoly = {
    .name = "ipoly", .knobs = GMS_KNOBS("gms_partition_chunk", "gms_partition_prime"),
    .summary = "channel = chunk index mod P(x) over GF(2) (spec 001 3.5 I-Poly(19) = x^4+x+1)",
    .map = ipoly_map, .high_bits = chunk_high, .check = ipoly_check, .describe = ipoly_desc,
};
