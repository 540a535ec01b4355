/* Channel selection "gpgpusim": GPGPU-Sim's -gpgpu_mem_addr_mapping (addrdec.cc addrdec_tlx).
 *  - dramid@S, power-of-two channels: channel = addr[S+log2N-1 : S]; the channel-local
 *    address closes the gap (GPGPU-Sim instead shifts the masks up; same fields).
 *  - dramid@S, other channel counts ("gap"): channel = (addr >> S) mod N, local address =
 *    ((addr >> S) / N) << S | addr[S-1:0].
 *  - explicit D bits: channel = the D bits gathered, local = the D bits removed.
 * High bits for XOR/IPOLY partition hashing = addr >> (S + log2 N + log2 nsp) (no gap) or
 * (addr >> S) / N (gap), both expressed on the local address. */
#include "mem/addrdec.h"
#include <stdio.h>

static int is_pow2(uint64_t v) { return v && !(v & (v - 1)); }

static void gs_map(const gms_addrdec_config *c, uint64_t addr, uint32_t *chan, uint64_t *local)
{
    if (c->chip_start < 0) {
        *chan = (uint32_t)gms_bits_gather(c->mask[GMS_AD_CHIP], addr);
        *local = gms_bits_remove(c->mask[GMS_AD_CHIP], addr);
        return;
    }
    unsigned s = (unsigned)c->chip_start;
    uint64_t low = s ? addr & ((1ULL << s) - 1) : 0, hi = addr >> s;
    if (is_pow2(c->n_channel)) {
        unsigned nb = gms_log2u(c->n_channel);
        *chan = (uint32_t)(hi & (c->n_channel - 1));
        *local = ((hi >> nb) << s) | low;
    } else {
        *chan = (uint32_t)(hi % c->n_channel);
        *local = ((hi / c->n_channel) << s) | low;
    }
}

static uint64_t gs_high(const gms_addrdec_config *c, uint64_t local)
{
    unsigned sp = gms_log2u(c->n_sub);
    if (c->chip_start < 0) {
        unsigned lo = c->mask[GMS_AD_CHIP] ? (unsigned)__builtin_ctzll(c->mask[GMS_AD_CHIP]) : 0;
        return local >> (lo + sp);
    }
    if (is_pow2(c->n_channel)) return local >> ((unsigned)c->chip_start + sp);
    return local >> (unsigned)c->chip_start;
}

static int gs_check(const gms_addrdec_config *c, gms_error *err)
{
    if (c->chip_start < 0) {
        unsigned nd = (unsigned)__builtin_popcountll(c->mask[GMS_AD_CHIP]);
        if (!is_pow2(c->n_channel) || (1ULL << nd) != c->n_channel)
            return gms_err(err, "-gpgpu_mem_addr_mapping: %u D bits select %llu channels but -gpgpu_n_mem is %u "
                           "(with D bits the channel count must be 2^#D)", nd, 1ULL << nd, c->n_channel);
        return 0;
    }
    if (is_pow2(c->n_channel)) {
        unsigned nb = gms_log2u(c->n_channel);
        if (nb && (unsigned)c->chip_start + nb > 63)
            return gms_err(err, "-gpgpu_mem_addr_mapping: dramid@%d leaves no room for %u channel bits",
                           c->chip_start, nb);
        uint64_t lost = nb ? ~0ULL << (64 - nb) : 0;   /* local bits pushed past bit 63 */
        for (int f = GMS_AD_BK; f < GMS_AD_NFIELD; f++)
            if (c->mask[f] & lost & (~0ULL << c->chip_start))
                return gms_err(err, "-gpgpu_mem_addr_mapping: the %u channel bits inserted at bit %d push "
                               "field bits past bit 63 (use fewer R bits)", nb, c->chip_start);
    }
    return 0;
}

static int gs_split(const gms_addrdec_config *c, gms_chanmap_split *out)
{
    if (c->chip_start < 0 || !is_pow2(c->n_channel)) return 0;
    out->cshift = (unsigned)c->chip_start;
    out->cbits = gms_log2u(c->n_channel);
    out->hshift = (unsigned)c->chip_start + gms_log2u(c->n_sub);   /* = gs_high */
    return out->cshift + out->cbits < 64;
}

static void gs_describe(const gms_addrdec_config *c, char *buf, size_t n)
{
    char fields[512];
    gms_addrdec_describe(c, fields, sizeof fields);
    if (c->chip_start >= 0)
        snprintf(buf, n, "channel bits from address bit %d (%s); bank/row/column mask on the channel-local address %s",
                 c->chip_start, is_pow2(c->n_channel) ? "channel bits removed" : "remainder of addr >> bit / channels",
                 fields);
    else snprintf(buf, n, "D bits of the mask pick the channel; fields %s", fields);
}

const gms_chanmap_ops gms_chanmap_gpgpusim = {
    .name = "gpgpusim",
    .summary = "GPGPU-Sim mapping string (dramid@S;mask) with -gpgpu_memory_partition_indexing",
    .map = gs_map, .high_bits = gs_high, .check = gs_check, .split = gs_split, .describe = gs_describe,
};
