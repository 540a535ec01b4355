/* Set-index registry and the two plain functions: linear (BMOD) and BXOR. */
#include "mem/index.h"
#include "config/params.h"
#include <stddef.h>
#include <stdio.h>
#include <string.h>

extern const gms_index_ops gms_index_linear, gms_index_bxor, gms_index_ipoly,
    gms_index_fermi, gms_index_pmod, gms_index_aprime, gms_index_dprime;

static const gms_index_ops *const registry[] = {
    &gms_index_linear, &gms_index_bxor, &gms_index_ipoly, &gms_index_fermi,
    &gms_index_pmod, &gms_index_aprime, &gms_index_dprime,
};
#define NREG (sizeof registry / sizeof registry[0])

static long chosen(const struct gms_params *p);
GMS_REGISTRY_DEFINE_EX(gms_index_reg, "set index function", "gpgpu_cache:dl1 (set-index letter)", gms_index_ops,
                       registry, name, summary, NULL, offsetof(gms_index_ops, letter), chosen);
static long chosen(const struct gms_params *p)
{
    return p->l1d.dl1.enabled ? gms_reg_index_n(&gms_index_reg, &p->l1d.dl1.set_index, 1) : -1;
}

const gms_index_ops *gms_index_find(char letter)
{
    long i = gms_reg_index_n(&gms_index_reg, &letter, 1);
    return i < 0 ? NULL : registry[i];
}

const gms_index_ops *gms_index_by_kind(gms_set_index_kind kind)
{
    for (size_t i = 0; i < NREG; i++)
        if (registry[i]->kind == kind) return registry[i];
    return NULL;
}

uint32_t gms_ilog2(uint64_t v)
{
    uint32_t r = 0;
    while (v >>= 1) r++;
    return r;
}

int gms_is_prime(uint32_t n)
{
    if (n < 2) return 0;
    if (n % 2 == 0) return n == 2;
    for (uint32_t d = 3; (uint64_t)d * d <= n; d += 2)
        if (n % d == 0) return 0;
    return 1;
}

uint32_t gms_pmod_default_prime(const gms_cache_config *c)
{
    if (c->pmod_prime) return c->pmod_prime;
    uint32_t p = 0;
    switch (c->set_index) {
    case 'M': /* largest prime <= nsets (31 for 32 sets, 61 for 64) */
        for (p = c->nsets; p >= 2 && !gms_is_prime(p); p--) {}
        return p >= 2 ? p : 1;
    case 'A': /* smallest prime > nsets (37 for 32 sets, 67 for 64) */
        for (p = c->nsets + 1; !gms_is_prime(p); p++) {}
        return p;
    case 'D': return 11;   /* [repo] constant */
    default: return 0;
    }
}

void gms_index_init(const gms_index_ops *ops, gms_index_state *s, const gms_cache_config *c)
{
    memset(s, 0, sizeof *s);
    s->nsets = c->nsets ? c->nsets : 1;
    s->mask = s->nsets - 1;
    s->line_log2 = gms_ilog2(c->line ? c->line : 1);
    s->nset_log2 = gms_ilog2(s->nsets);
    s->p = gms_pmod_default_prime(c);
    if (ops->init) ops->init(s, c);
}

/* BMOD: index = (addr >> b) mod 2^k */
static uint32_t linear_index(const gms_index_state *s, uint64_t addr)
{
    return (uint32_t)(addr >> s->line_log2) & s->mask;
}

/* BXOR: index = x ^ t, x = addr[b+k-1:b], t = addr[s+k-1:s]. By default s = b + k, the next
 * k bits (GPGPU-Sim bitwise_hash_function on higher_bits = addr >> (b+k), the spec's textbook
 * t); -gms_l1d_bxor_t_shift s sets it, e.g. 14 = 2b for the sound-baseline fork's
 * ((addr >> b) >> b) & (nset-1) with 128 B lines (spec 001 3.2) */
static void bxor_init(gms_index_state *s, const gms_cache_config *c)
{
    s->t_shift = c->bxor_t_shift ? c->bxor_t_shift : s->line_log2 + s->nset_log2;
}

static uint32_t bxor_index(const gms_index_state *s, uint64_t addr)
{
    uint32_t x = (uint32_t)(addr >> s->line_log2) & s->mask;
    uint32_t t = (uint32_t)(addr >> s->t_shift) & s->mask;
    return x ^ t;
}

int gms_index_bxor_shift_check(const gms_cache_config *c, const char *what, gms_error *err)
{
    uint32_t sh = c->bxor_t_shift;
    if (!sh || !c->nsets || !c->line) return 0;
    uint32_t b = gms_ilog2(c->line), k = gms_ilog2(c->nsets);
    if (sh < b + k || (uint64_t)sh + k > 64)
        return gms_err(err, "%s %u: t = addr[%u:%u] must lie above the set bits x = addr[%u:%u] and within 64 bits: "
                       "use %u to %u (0 = %u, the bits right above x)", what, sh, sh + k - 1, sh, b + k - 1, b,
                       b + k, 64 - k, b + k);
    return 0;
}

static int bxor_check(const gms_cache_config *c, const char *optname, gms_error *err)
{
    char what[96];
    snprintf(what, sizeof what, "%s: BXOR t shift", optname);
    return gms_index_bxor_shift_check(c, what, err);
}

const gms_index_ops gms_index_linear = { 'L', GMS_IDX_LINEAR, "linear (BMOD)",
    "set = line address mod sets (GPGPU-Sim LINEAR_SET_FUNCTION)", 1, NULL, NULL, linear_index };
const gms_index_ops gms_index_bxor = { 'X', GMS_IDX_BXOR, "BXOR",
    "set bits XOR the next set-width address bits (GPGPU-Sim BITWISE_XORING_FUNCTION)", 1, bxor_check, bxor_init, bxor_index };

uint32_t gms_cache_set_index(const gms_cache_config *c, uint64_t addr)
{
    const gms_index_ops *o = gms_index_find(c->set_index);
    if (!o) o = &gms_index_linear;
    gms_index_state s;
    gms_index_init(o, &s, c);
    return o->index(&s, addr);
}
