/* Prime-modulo family (spec 001 section 3.2): PMOD [29], A-prime [38], D-prime [29].
 * A = addr >> b (block address), k = log2(nsets), x = A mod 2^k, T = A >> k.
 * The modulus/multiplier p is -gms_l1d_pmod_prime (cfg.pmod_prime) or the default below. */
#include "mem/index.h"
#include <stdio.h>

/* PMOD: A mod p, p = largest prime <= nsets (31 for 32 sets, 61 for 64); sets p..nsets-1 unused.
 * The only function that accepts a non-power-of-two number of sets. */
static uint32_t pmod_index(const gms_index_state *s, uint64_t addr)
{
    return (uint32_t)((addr >> s->line_log2) % s->p);
}

/* A-prime: (A mod p) mod 2^k, p = smallest prime > nsets (37 for 32 sets, 67 for 64) */
static uint32_t aprime_index(const gms_index_state *s, uint64_t addr)
{
    return (uint32_t)((addr >> s->line_log2) % s->p) & s->mask;
}

/* D-prime (prime displacement): (T*p + x) mod 2^k, p = 11. Wrap-around of T*p in 64 bits does
 * not change the result mod 2^k. */
static uint32_t dprime_index(const gms_index_state *s, uint64_t addr)
{
    uint64_t a = addr >> s->line_log2;
    uint64_t t = a >> s->nset_log2;
    return (uint32_t)(t * s->p + (a & s->mask)) & s->mask;
}

static int check_prime(const gms_cache_config *c, const char *optname, gms_error *err)
{
    uint32_t p = gms_pmod_default_prime(c);
    if (c->pmod_prime && !gms_is_prime(c->pmod_prime))
        return gms_err(err, "%s: -gms_l1d_pmod_prime %u is not a prime", optname, c->pmod_prime);
    /* (A mod p) mod 2^k with p <= sets is PMOD: A-prime's prime must exceed the sets */
    if (c->set_index == 'A' && p <= c->nsets)
        return gms_err(err, "%s: -gms_l1d_pmod_prime %u must be larger than the number of sets (%u) for A-prime ('A'): "
                       "with p <= sets, (A mod p) mod sets is PMOD ('M')", optname, p, c->nsets);
    if (c->set_index == 'M' && p > c->nsets)
        return gms_err(err, "%s: PMOD prime %u is larger than the number of sets (%u)", optname, p, c->nsets);
    if (c->set_index == 'M' && c->nsets < 2)
        return gms_err(err, "%s: PMOD indexing needs at least 2 sets", optname);
    return 0;
}

const gms_index_ops gms_index_pmod = { 'M', GMS_IDX_PMOD, "PMOD",
    "line address mod a prime p <= sets (the sets above p unused)", 0, check_prime, NULL, pmod_index };
const gms_index_ops gms_index_aprime = { 'A', GMS_IDX_APRIME, "A-prime",
    "(line address mod a prime p > sets) mod sets", 1, check_prime, NULL, aprime_index };
const gms_index_ops gms_index_dprime = { 'D', GMS_IDX_DPRIME, "D-prime",
    "prime displacement: (tag x 11 + set bits) mod sets", 1, check_prime, NULL, dprime_index };
