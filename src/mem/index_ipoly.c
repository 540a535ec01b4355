/* I-Poly 'P' (irreducible polynomial, Rau ISCA'91; spec 001 section 3.2): the set is the
 * residue of the block address A(x) modulo a degree-k irreducible polynomial P(x) over GF(2)
 * ("+" is XOR). R = sum over set bits j of A of (x^j mod P).
 *
 * GPGPU-Sim's ipoly_hash_function (16, 32, 64 sets) is exactly this residue with
 * P = x^4+x+1 (19), x^5+x^2+1 (37), x^6+x+1 (67) computed on the k index bits plus only the
 * low 13, 15, 19 bits above them (higher_bits a[0..12], a[0..14], a[0..18]); we use the same
 * truncation for those set counts so the sets match GPGPU-Sim bit for bit (a unit test
 * compares against its equations). Other power-of-two counts (2..4096) use the whole block
 * address and the polynomial from the table below. */
#include "mem/index.h"
#include <string.h>

/* irreducible polynomials by degree k (bit i = coefficient of x^i) */
static const uint32_t poly_by_degree[13] = {
    0, 0x3, 0x7, 0xB, 0x13, 0x25, 0x43, 0x83, 0x11D, 0x211, 0x409, 0x805, 0x1053,
};

static uint32_t xpow_mod(uint32_t j, uint32_t k, uint32_t poly)
{
    /* x^j mod P, P of degree k */
    uint32_t r = 1;
    for (uint32_t i = 0; i < j; i++) {
        r <<= 1;
        if (r & (1u << k)) r ^= poly;
    }
    return r;
}

static void ipoly_init(gms_index_state *s, const gms_cache_config *c)
{
    uint32_t k = s->nset_log2;
    if (k == 0 || k > 12) return;
    uint32_t poly = poly_by_degree[k];
    uint32_t hbits;   /* number of address bits above the index bits that are hashed */
    if (s->nsets == 16) hbits = 13;
    else if (s->nsets == 32) hbits = 15;
    else if (s->nsets == 64) hbits = 19;
    else hbits = 64 - s->line_log2 - k;
    if (hbits > 64) hbits = 64;
    /* The residue is linear over GF(2): bit b of R is the parity of the block address bits
     * whose x^j mod P has bit b set (j < k: x^j itself; j = k + i: the hashed higher bits).
     * Host speed: k parities instead of a table lookup per nibble of the higher bits. */
    memset(s->ipoly_mask, 0, sizeof s->ipoly_mask);
    for (uint32_t b = 0; b < k; b++) s->ipoly_mask[b] = 1ull << b;
    for (uint32_t i = 0; i < hbits && k + i < 64; i++) {
        uint32_t r = xpow_mod(k + i, k, poly);
        for (uint32_t b = 0; b < k; b++)
            if (r >> b & 1) s->ipoly_mask[b] |= 1ull << (k + i);
    }
    s->ipoly_bits = k;
}

static uint32_t ipoly_index(const gms_index_state *s, uint64_t addr)
{
    uint64_t a = addr >> s->line_log2;
    if (!s->ipoly_bits) return (uint32_t)a & s->mask;
    uint32_t r = 0;
    for (uint32_t b = 0; b < s->ipoly_bits; b++)
        r |= (uint32_t)__builtin_parityll(a & s->ipoly_mask[b]) << b;
    return r;
}

static int check(const gms_cache_config *c, const char *optname, gms_error *err)
{
    if (c->nsets > 4096)
        return gms_err(err, "%s: set index 'P' (I-Poly) supports up to 4096 sets, not %u", optname, c->nsets);
    return 0;
}

const gms_index_ops gms_index_ipoly = { 'P', GMS_IDX_IPOLY, "I-Poly",
    "irreducible-polynomial hash (GPGPU-Sim HASH_IPOLY_FUNCTION)", 1, check, ipoly_init, ipoly_index };
