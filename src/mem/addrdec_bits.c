/* Bit helpers for the address decoder: gather (pext), remove, and the IPOLY hash of
 * GPGPU-Sim's hashing.cc (Rau, ISCA'91; equations from Khairy et al., TPDS'17), written as
 * one parity mask per output bit: out[i] = parity(high & M[i]) ^ index[i]. */
#include "mem/addrdec.h"

uint64_t gms_bits_gather(uint64_t mask, uint64_t val)
{
    /* one contiguous run of mask bits at a time (address masks have few runs) */
    uint64_t r = 0;
    unsigned k = 0;
    while (mask) {
        unsigned b = (unsigned)__builtin_ctzll(mask);
        uint64_t m = mask >> b;
        unsigned len = ~m ? (unsigned)__builtin_ctzll(~m) : 64u - b;
        uint64_t ones = len >= 64 ? ~0ULL : ((1ULL << len) - 1);
        r |= ((val >> b) & ones) << k;
        k += len;
        mask &= ~(ones << b);
    }
    return r;
}

void gms_bitruns_init(gms_bitruns *r, uint64_t mask)
{
    r->mask = mask;
    r->n = 0;
    unsigned k = 0;
    while (mask) {
        if (r->n == GMS_BITRUNS_MAX) { r->n = GMS_BITRUNS_MAX + 1; return; }
        unsigned b = (unsigned)__builtin_ctzll(mask);
        uint64_t m = mask >> b;
        unsigned len = ~m ? (unsigned)__builtin_ctzll(~m) : 64u - b;
        uint64_t ones = len >= 64 ? ~0ULL : ((1ULL << len) - 1);
        r->shift[r->n] = (uint8_t)b;
        r->out[r->n] = (uint8_t)k;
        r->ones[r->n] = ones;
        r->n++;
        k += len;
        mask &= ~(ones << b);
    }
}

uint64_t gms_bits_remove(uint64_t mask, uint64_t val)
{
    /* from the highest mask bit down, so lower positions stay valid */
    while (mask) {
        unsigned b = 63u - (unsigned)__builtin_clzll(mask);
        uint64_t low = b ? (val & ((1ULL << b) - 1)) : 0;
        val = (b == 63 ? 0 : (val >> (b + 1)) << b) | low;
        mask &= ~(1ULL << b);
    }
    return val;
}

uint32_t gms_log2u(uint64_t v) { return v ? 63u - (uint32_t)__builtin_clzll(v) : 0; }

uint32_t gms_next_pow2(uint32_t v)
{
    uint32_t p = 1;
    while (p < v) p <<= 1;
    return p;
}

#define B(i) (1ULL << (i))
static const uint64_t ipoly16[4] = {
    B(11) | B(10) | B(9) | B(8) | B(6) | B(4) | B(3) | B(0),
    B(12) | B(8) | B(7) | B(6) | B(5) | B(3) | B(1) | B(0),
    B(9) | B(8) | B(7) | B(6) | B(4) | B(2) | B(1),
    B(10) | B(9) | B(8) | B(7) | B(5) | B(3) | B(2),
};
static const uint64_t ipoly32[5] = {
    B(13) | B(12) | B(11) | B(10) | B(9) | B(6) | B(5) | B(3) | B(0),
    B(14) | B(13) | B(12) | B(11) | B(10) | B(7) | B(6) | B(4) | B(1),
    B(14) | B(10) | B(9) | B(8) | B(7) | B(6) | B(3) | B(2) | B(0),
    B(11) | B(10) | B(9) | B(8) | B(7) | B(4) | B(3) | B(1),
    B(12) | B(11) | B(10) | B(9) | B(8) | B(5) | B(4) | B(2),
};
static const uint64_t ipoly64[6] = {
    B(18) | B(17) | B(16) | B(15) | B(12) | B(10) | B(6) | B(5) | B(0),
    B(15) | B(13) | B(12) | B(11) | B(10) | B(7) | B(5) | B(1) | B(0),
    B(16) | B(14) | B(13) | B(12) | B(11) | B(8) | B(6) | B(2) | B(1),
    B(17) | B(15) | B(14) | B(13) | B(12) | B(9) | B(7) | B(3) | B(2),
    B(18) | B(16) | B(15) | B(14) | B(13) | B(10) | B(8) | B(4) | B(3),
    B(17) | B(16) | B(15) | B(14) | B(11) | B(9) | B(5) | B(4),
};
#undef B

static const uint64_t *ipoly_masks(uint32_t n, unsigned *bits)
{
    switch (n) {
    case 16: *bits = 4; return ipoly16;
    case 32: *bits = 5; return ipoly32;
    case 64: *bits = 6; return ipoly64;
    default: *bits = 0; return NULL;
    }
}

void gms_ipoly_tab_init(gms_ipoly_tab *t, uint32_t n)
{
    unsigned bits;
    const uint64_t *m = ipoly_masks(n, &bits);
    t->bits = bits;
    for (unsigned byte = 0; byte < 3; byte++)
        for (unsigned v = 0; v < 256; v++) {
            uint64_t high = (uint64_t)v << (8 * byte);
            uint32_t r = 0;
            for (unsigned i = 0; i < bits; i++) r |= (uint32_t)__builtin_parityll(high & m[i]) << i;
            t->t[byte][v] = (uint8_t)r;
        }
}

/* n must be 16, 32 or 64 (checked at finalize); any other n returns index unchanged */
uint32_t gms_ipoly_hash(uint64_t high, uint32_t index, uint32_t n)
{
    unsigned bits;
    const uint64_t *m = ipoly_masks(n, &bits);
    if (!m) return index;
    uint32_t r = 0;
    for (unsigned i = 0; i < bits; i++)
        r |= ((uint32_t)__builtin_parityll(high & m[i]) ^ ((index >> i) & 1u)) << i;
    return r;
}
