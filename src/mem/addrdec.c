/* Address decoder: mapping-string parsing, defaults, checks, and the member-independent
 * part of decoding (fields, sub-partition, partition hashing, bank hashing). See addrdec.h.
 *
 * Choices where GPGPU-Sim is silent or asserts:
 *  - errors instead of asserts: wrong bit count, bad character, D bits with dramid@, field
 *    bits pushed past bit 63 by the inserted channel bits, fewer bank bits than
 *    sub-partition bits, more bank bits than -gpgpu_dram_timing_opt nbk banks;
 *  - the D-bit form (no dramid@): the masks are rewritten on the channel-local address
 *    (D bits removed), so the rest of the decoder is shared; its "high bits" for XOR/IPOLY
 *    hashing start above the lowest D bit (GPGPU-Sim computes a shift of -1 there). */
#include "mem/addrdec.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char field_letter[GMS_AD_NFIELD] = { 'D', 'B', 'R', 'C', 'S' };

int gms_addrdec_parse_mapping(const char *str, const char *optname, gms_addrdec_config *c, gms_error *err)
{
    const char *s = str;
    while (isspace((unsigned char)*s)) s++;
    int dramid = -1;
    if (!strncmp(s, "dramid@", 7)) {
        char *end;
        long v = strtol(s + 7, &end, 10);
        if (end == s + 7 || v < 0 || v > 63)
            return gms_err(err, "%s: \"dramid@\" needs a bit position 0..63 in \"%s\"", optname, str);
        dramid = (int)v;
        s = end;
    }
    const char *semi = strchr(s, ';');
    if (semi) s = semi + 1;
    else if (dramid >= 0)
        return gms_err(err, "%s: expected ';' after dramid@%d in \"%s\"", optname, dramid, str);
    uint64_t m[GMS_AD_NFIELD] = { 0 };
    int ofs = 63, nbits = 0;
    for (const char *p = s; *p; p++) {
        int f = -1;
        switch (*p) {
        case 'D': case 'd': f = GMS_AD_CHIP; break;
        case 'B': case 'b': f = GMS_AD_BK; break;
        case 'R': case 'r': f = GMS_AD_ROW; break;
        case 'C': case 'c': f = GMS_AD_COL; break;
        case 'S': case 's': f = GMS_AD_BURST; break;
        case '0': break;
        case '.': case ' ': case '|': case '\t': case '\n': case '\r': continue;
        default:
            return gms_err(err, "%s: invalid character '%c' at position %d of the mask \"%s\" "
                           "(allowed: D B R C S 0, and . | space as separators)", optname, *p,
                           (int)(p - s) + 1, s);
        }
        nbits++;
        if (ofs >= 0) {
            if (f == GMS_AD_CHIP && dramid >= 0)
                return gms_err(err, "%s: D (channel) bits are not allowed together with dramid@%d",
                               optname, dramid);
            if (f >= 0) m[f] |= 1ULL << ofs;
            if (f == GMS_AD_BURST) m[GMS_AD_COL] |= 1ULL << ofs;   /* S counts as column too */
        }
        ofs--;
    }
    if (nbits != 64)
        return gms_err(err, "%s: the mask has %d bit characters, it needs exactly 64 (one per address "
                       "bit, most significant first)", optname, nbits);
    if (dramid < 0 && !m[GMS_AD_CHIP])
        return gms_err(err, "%s: no channel bits: give dramid@<bit>; or D bits in the mask", optname);
    if (dramid < 0) {
        /* D-bit form: move the other fields to the channel-local address */
        for (int f = GMS_AD_BK; f < GMS_AD_NFIELD; f++) m[f] = gms_bits_remove(m[GMS_AD_CHIP], m[f]);
    }
    memcpy(c->mask, m, sizeof m);
    c->chip_start = dramid;
    return 0;
}

int gms_addrdec_default_masks(int address_mask, gms_addrdec_config *c, gms_error *err)
{
    memset(c->mask, 0, sizeof c->mask);
    switch (address_mask) {   /* GPGPU-Sim linear_to_raw_address_translation::init */
    case 0:
        c->chip_start = 10;
        c->mask[GMS_AD_BK] = 0x300; c->mask[GMS_AD_ROW] = 0x7FFE000; c->mask[GMS_AD_COL] = 0x1CFF;
        break;
    case 1:
        c->chip_start = 13;
        c->mask[GMS_AD_BK] = 0x1800; c->mask[GMS_AD_ROW] = 0x7FFE000; c->mask[GMS_AD_COL] = 0x7FF;
        break;
    case 2:
        c->chip_start = 11;
        c->mask[GMS_AD_BK] = 0x1800; c->mask[GMS_AD_ROW] = 0x7FFE000; c->mask[GMS_AD_COL] = 0x7FF;
        break;
    case 3:
        c->chip_start = 11;
        c->mask[GMS_AD_BK] = 0x1800; c->mask[GMS_AD_ROW] = 0xFFFE000; c->mask[GMS_AD_COL] = 0x7FF;
        break;
    default:
        return gms_err(err, "-gpgpu_mem_address_mask: %d is not supported without -gpgpu_mem_addr_mapping "
                       "(0, 1, 2 or 3)", address_mask);
    }
    return 0;
}

static int is_pow2(uint64_t v) { return v && !(v & (v - 1)); }

int gms_addrdec_finalize(gms_addrdec_config *c, gms_error *err)
{
    if (!c->n_channel) return gms_err(err, "-gpgpu_n_mem: must be at least 1");
    if (!is_pow2(c->n_sub))
        return gms_err(err, "-gpgpu_n_sub_partition_per_mchannel: must be a power of two, got %u", c->n_sub);
    const gms_chanmap_ops *ops = gms_chanmap_find(c->member);
    if (!ops) return gms_reg_unknown(&gms_chanmap_reg, c->member, err);
    if (ops->check && ops->check(c, err)) return -1;
    uint64_t all = 0;
    for (int f = GMS_AD_BK; f < GMS_AD_NFIELD; f++) {
        uint64_t m = c->mask[f];
        if (f != GMS_AD_BURST && f != GMS_AD_COL && (all & m))
            return gms_err(err, "-gpgpu_mem_addr_mapping: field %c overlaps another field", field_letter[f]);
        if (f != GMS_AD_BURST) all |= m;
    }
    uint32_t bkbits = (uint32_t)__builtin_popcountll(c->mask[GMS_AD_BK]);
    uint32_t spbits = gms_log2u(c->n_sub);
    if (bkbits < spbits)
        return gms_err(err, "-gpgpu_mem_addr_mapping: %u bank (B) bits cannot select %u sub-partitions "
                       "(-gpgpu_n_sub_partition_per_mchannel)", bkbits, c->n_sub);
    if (c->nbk && (1ULL << bkbits) > c->nbk)
        return gms_err(err, "-gpgpu_mem_addr_mapping: %u bank (B) bits address %llu banks but "
                       "-gpgpu_dram_timing_opt has nbk=%u", bkbits, 1ULL << bkbits, c->nbk);
    if (c->nbk && c->nbk % c->n_sub)
        return gms_err(err, "-gpgpu_dram_timing_opt: nbk=%u must be a multiple of the %u sub-partitions "
                       "per channel", c->nbk, c->n_sub);
    /* sub-partition bits: the lowest log2(n_sub) bank bits (addrdec.cc sub_partition_id_mask) */
    c->sp_mask = 0;
    uint64_t bk = c->mask[GMS_AD_BK];
    for (uint32_t i = 0; i < spbits; i++) {
        uint64_t low = bk & -bk;
        c->sp_mask |= low;
        bk &= ~low;
    }
    uint32_t p2 = gms_next_pow2(c->n_channel);
    switch (c->pindex) {
    case GMS_PIDX_NONE: break;
    case GMS_PIDX_XOR:
        if (!is_pow2(c->n_channel))
            return gms_err(err, "-gpgpu_memory_partition_indexing 1 (XOR) needs a power-of-two -gpgpu_n_mem, got %u",
                           c->n_channel);
        break;
    case GMS_PIDX_IPOLY:
        if (p2 * c->n_sub != 16 && p2 * c->n_sub != 32 && p2 * c->n_sub != 64)
            return gms_err(err, "-gpgpu_memory_partition_indexing 2 (IPOLY) needs 16, 32 or 64 sub-partitions "
                           "(rounded-up channels x sub-partitions), got %u", p2 * c->n_sub);
        break;
    case GMS_PIDX_RANDOM: case GMS_PIDX_CUSTOM: break;
    case GMS_PIDX_IPOLY_MODULO: {
        uint32_t total = c->n_channel * c->n_sub, p2f = total & -total;
        if (p2f != 16 && p2f != 32 && p2f != 64)
            return gms_err(err, "-gpgpu_memory_partition_indexing 6 (IPOLY-Modulo) hashes within groups of the "
                           "largest power of two dividing the %u sub-partitions (%u); it needs 16, 32 or 64",
                           total, p2f);
        break;
    }
    default:
        return gms_err(err, "-gpgpu_memory_partition_indexing: %u is not supported (0 none, 1 XOR, 2 IPOLY, "
                       "4 random, 5 custom = none, 6 IPOLY-Modulo; GPGPU-Sim has no 3)", c->pindex);
    }
    switch (c->bk_index) {
    case GMS_BKIDX_LINEAR: break;
    case GMS_BKIDX_XOR:
        if (!is_pow2(c->nbk))
            return gms_err(err, "-dram_bnk_indexing_policy 1 (XOR) needs a power-of-two nbk, got %u", c->nbk);
        break;
    case GMS_BKIDX_IPOLY:
        if (c->nbk != 16 && c->nbk != 32 && c->nbk != 64)
            return gms_err(err, "-dram_bnk_indexing_policy 2 (IPOLY) needs nbk 16, 32 or 64, got %u", c->nbk);
        break;
    default:
        return gms_err(err, "-dram_bnk_indexing_policy: %u is not supported (0 linear, 1 XOR, 2 IPOLY)",
                       c->bk_index);
    }
    return 0;
}

static void build_tables(gms_addrdec *d);

int gms_addrdec_init(gms_addrdec *d, const gms_addrdec_config *cfg, gms_error *err)
{
    memset(d, 0, sizeof *d);
    d->cfg = *cfg;
    d->ops = gms_chanmap_find(cfg->member);
    if (!d->ops) return gms_err(err, "-gms_partition_mapping: unknown mapping \"%s\"", cfg->member);
    d->log2_sub = gms_log2u(cfg->n_sub);
    for (int f = 0; f < GMS_AD_NFIELD; f++) gms_bitruns_init(&d->field[f], cfg->mask[f]);
    gms_bitruns_init(&d->keep_part, ~cfg->sp_mask);
    d->n_pipoly = gms_next_pow2(cfg->n_channel) * cfg->n_sub;
    if (cfg->pindex == GMS_PIDX_IPOLY_MODULO) {
        uint32_t total = cfg->n_channel * cfg->n_sub;
        d->n_pipoly = total & -total;   /* IPOLY within groups of this many */
    }
    if (cfg->pindex == GMS_PIDX_IPOLY || cfg->pindex == GMS_PIDX_IPOLY_MODULO) gms_ipoly_tab_init(&d->pidx, d->n_pipoly);
    /* random: GPGPU-Sim's unit is addr >> (ADDR_CHIP_S - log2 sub-partitions); with D bits
     * (no dramid@) the lowest D bit stands for ADDR_CHIP_S */
    {
        int cs = cfg->chip_start >= 0 ? cfg->chip_start
                 : cfg->mask[GMS_AD_CHIP] ? __builtin_ctzll(cfg->mask[GMS_AD_CHIP]) : 0;
        int sh = cs - (int)d->log2_sub;
        d->rand_shift = sh > 0 ? (uint32_t)sh : 0;
    }
    if (cfg->bk_index == GMS_BKIDX_IPOLY) gms_ipoly_tab_init(&d->bkidx, cfg->nbk);
    d->is_split = d->ops->split && d->ops->split(cfg, &d->split);
    build_tables(d);
    uint64_t sp = cfg->sp_mask;
    d->part_lo = sp ? (uint32_t)__builtin_ctzll(sp) : 0;
    d->part_hi = d->part_lo + (uint32_t)__builtin_popcountll(sp);
    d->part_fast = d->is_split && d->part_hi < 64 && (!sp || sp == ((1ULL << d->part_hi) - 1) - ((1ULL << d->part_lo) - 1));
    d->part_cs = d->split.cshift;
    d->part_cs_hi = d->split.cshift + d->split.cbits;
    d->part_cmask = (1ULL << d->split.cshift) - 1;
    d->part_lmask = (1ULL << d->part_lo) - 1;
    return 0;
}

/* the member's map, inlined when it is a plain bit split */
static inline void map_addr(const gms_addrdec *d, uint64_t addr, uint32_t *chan, uint64_t *local)
{
    if (d->is_split) {
        const gms_chanmap_split *sp = &d->split;
        uint64_t low = addr & ((1ULL << sp->cshift) - 1);
        *chan = (uint32_t)((addr >> sp->cshift) & ((1ULL << sp->cbits) - 1));
        *local = ((addr >> (sp->cshift + sp->cbits)) << sp->cshift) | low;
        return;
    }
    d->ops->map(&d->cfg, addr, chan, local);
}

static inline uint64_t high_bits(const gms_addrdec *d, uint64_t local)
{
    return d->is_split ? local >> d->split.hshift : d->ops->high_bits(&d->cfg, local);
}

/* -gpgpu_memory_partition_indexing 4: GPGPU-Sim gives each unit of addr >> (ADDR_CHIP_S -
 * log2 sub-partitions) a sub-partition drawn by rand() at its first decode (a hash map kept
 * for the run). Here the draw is a fixed 64-bit mix of the unit (splitmix64's finaliser):
 * uniform and independent per unit as there, the same in every run and thread, but not
 * GPGPU-Sim's draw (which depends on the order units are first touched). */
static uint32_t random_sub(const gms_addrdec *d, uint64_t addr)
{
    uint64_t z = (addr >> d->rand_shift) + 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return (uint32_t)(z % ((uint64_t)d->cfg.n_channel * d->cfg.n_sub));
}

static uint32_t hash_sub(const gms_addrdec *d, uint32_t chan_raw, uint32_t sp_raw, uint64_t local, uint64_t addr)
{
    const gms_addrdec_config *c = &d->cfg;
    switch (c->pindex) {
    case GMS_PIDX_RANDOM:
        return random_sub(d, addr);
    case GMS_PIDX_IPOLY_MODULO: {
        /* inferred (GPGPU-Sim's ipolymodulo_hash_function is not public here; its comment:
         * the sub-partitions are split into groups, and within a group the index is IPOLY
         * hashed with the degree of the power-of-two factor): total = m x 2^k; the
         * consecutive sub-partition's group (s / 2^k) stays, its place in the group is
         * IPOLY(2^k) of the high bits. Documented in docs/memory-partitions.md. */
        uint32_t s = (chan_raw << d->log2_sub) | sp_raw, g = d->n_pipoly;
        return s / g * g + gms_ipoly_tab_hash(&d->pidx, high_bits(d, local), s % g);
    }
    case GMS_PIDX_XOR: {
        uint64_t high = high_bits(d, local);
        return ((chan_raw ^ (uint32_t)(high & (c->n_channel - 1))) << d->log2_sub) | sp_raw;
    }
    case GMS_PIDX_IPOLY: {
        uint64_t high = high_bits(d, local);
        uint32_t n = d->n_pipoly;
        uint32_t s = gms_ipoly_tab_hash(&d->pidx, high, (chan_raw << d->log2_sub) | sp_raw);
        if (n != c->n_channel * c->n_sub) s %= c->n_channel * c->n_sub;   /* gap: modulo */
        return s;
    }
    default:
        return (chan_raw << d->log2_sub) | sp_raw;
    }
}

void gms_addrdec_decode(const gms_addrdec *d, uint64_t addr, gms_addrdec_out *o)
{
    const gms_addrdec_config *c = &d->cfg;
    uint32_t chan_raw;
    uint64_t local;
    map_addr(d, addr, &chan_raw, &local);
    o->bank_raw = (uint32_t)gms_bitruns_gather(&d->field[GMS_AD_BK], local);
    o->row = (uint32_t)gms_bitruns_gather(&d->field[GMS_AD_ROW], local);
    o->col = (uint32_t)gms_bitruns_gather(&d->field[GMS_AD_COL], local);
    o->burst = (uint32_t)gms_bitruns_gather(&d->field[GMS_AD_BURST], local);
    o->sub = hash_sub(d, chan_raw, o->bank_raw & (c->n_sub - 1), local, addr);
    o->chan = o->sub >> d->log2_sub;
    switch (c->bk_index) {
    case GMS_BKIDX_XOR: o->bank = o->bank_raw ^ (o->row & (c->nbk - 1)); break;
    case GMS_BKIDX_IPOLY: o->bank = gms_ipoly_tab_hash(&d->bkidx, o->row, o->bank_raw); break;
    default: o->bank = o->bank_raw; break;
    }
}

/* Host speed: byte tables for gms_addrdec_subpart and gms_addrdec_dram_of. With a bit-split
 * channel map and no modulo after the IPOLY partition hash, the sub-partition and the DRAM
 * chan, bank, row and col are XOR-linear in the address bits (the split and the field
 * gathers move bits, the XOR and IPOLY hashes are parities, the channel is the sub-partition
 * shifted right, and all are 0 for address 0). So the decode of an address is the XOR of
 * the decodes of its bytes alone, each the XOR of the decodes of its bits: tabulated here
 * from gms_addrdec_decode. A config whose values do not fit the packed fields keeps the
 * reference path (XORs of values that fit also fit). */
static uint64_t pack_dram(const gms_addrdec_out *o)
{
    return (uint64_t)o->row | (uint64_t)o->col << 32 | (uint64_t)o->bank << 48 | (uint64_t)o->chan << 56;
}

static void build_tables(gms_addrdec *d)
{
    const gms_addrdec_config *c = &d->cfg;
    d->has_tab = 0;
    /* random and IPOLY-Modulo are not XOR-linear in the address: no tables */
    if (!d->is_split || (c->pindex == GMS_PIDX_IPOLY && d->n_pipoly != c->n_channel * c->n_sub) ||
        c->pindex == GMS_PIDX_RANDOM || c->pindex == GMS_PIDX_IPOLY_MODULO) return;
    uint64_t bit[64];
    uint8_t bsub[64];
    gms_addrdec_out o;
    for (uint32_t i = 0; i < 64; i++) {
        gms_addrdec_decode(d, 1ULL << i, &o);
        if (o.sub > 255 || o.chan > 255 || o.bank > 255 || o.col > 0xFFFF) return;
        bit[i] = pack_dram(&o);
        bsub[i] = (uint8_t)o.sub;
    }
    gms_addrdec_decode(d, 0, &o);
    if (o.sub || pack_dram(&o)) return;
    d->tab_hi = d->sub_hi = 0;
    for (uint32_t k = 0; k < 8; k++) {
        d->tab[k][0] = 0;
        d->tab_sub[k][0] = 0;
        for (uint32_t v = 1; v < 256; v++) {
            uint32_t j = 8 * k + (uint32_t)__builtin_ctz(v);
            d->tab[k][v] = d->tab[k][v & (v - 1)] ^ bit[j];
            d->tab_sub[k][v] = d->tab_sub[k][v & (v - 1)] ^ bsub[j];
            if (bit[j]) d->tab_hi = k + 1;
            if (bsub[j]) d->sub_hi = k + 1;
        }
    }
    d->has_tab = 1;
}

/* XOR of t[k][byte k of a] for k < hi (unrolled; the bytes at or above hi add nothing) */
#define TAB_XOR(x, t, hi, a)                          \
    switch (hi) {                                     \
    case 8: x ^= t[7][(a) >> 56]; /* fall through */  \
    case 7: x ^= t[6][((a) >> 48) & 255]; /* fall through */ \
    case 6: x ^= t[5][((a) >> 40) & 255]; /* fall through */ \
    case 5: x ^= t[4][((a) >> 32) & 255]; /* fall through */ \
    case 4: x ^= t[3][((a) >> 24) & 255]; /* fall through */ \
    case 3: x ^= t[2][((a) >> 16) & 255]; /* fall through */ \
    case 2: x ^= t[1][((a) >> 8) & 255]; /* fall through */  \
    case 1: x ^= t[0][(a) & 255]; /* fall through */         \
    default: break;                                   \
    }

void gms_addrdec_dram_of(const gms_addrdec *d, uint64_t addr, gms_addrdec_dram *out)
{
    if (d->has_tab) {
        uint64_t x = 0;
        TAB_XOR(x, d->tab, d->tab_hi, addr)
        *out = (gms_addrdec_dram){ (uint32_t)(x >> 56), (uint32_t)(x >> 48) & 255, (uint32_t)x,
                                   (uint32_t)(x >> 32) & 0xFFFF };
        return;
    }
    gms_addrdec_out o;
    gms_addrdec_decode(d, addr, &o);
    *out = (gms_addrdec_dram){ o.chan, o.bank, o.row, o.col };
}

/* the two cheap questions, without a full decode */
uint32_t gms_addrdec_subpart(const gms_addrdec *d, uint64_t addr)
{
    if (d->has_tab) {
        uint32_t s = 0;
        TAB_XOR(s, d->tab_sub, d->sub_hi, addr)
        return s;
    }
    uint32_t chan_raw;
    uint64_t local;
    map_addr(d, addr, &chan_raw, &local);
    uint32_t bk = (uint32_t)gms_bitruns_gather(&d->field[GMS_AD_BK], local);
    return hash_sub(d, chan_raw, bk & (d->cfg.n_sub - 1), local, addr);
}

uint64_t gms_addrdec_partition_addr(const gms_addrdec *d, uint64_t addr)
{
    if (d->part_fast) {   /* the split of map_addr, then the gather of keep_part below */
        uint64_t local = ((addr >> d->part_cs_hi) << d->part_cs) | (addr & d->part_cmask);
        return ((local >> d->part_hi) << d->part_lo) | (local & d->part_lmask);
    }
    uint32_t chan_raw;
    uint64_t local;
    map_addr(d, addr, &chan_raw, &local);
    return gms_bitruns_gather(&d->keep_part, local);   /* = gms_bits_remove(sp_mask, local) */
}

void gms_addrdec_describe(const gms_addrdec_config *c, char *buf, size_t n)
{
    char m[80];
    size_t k = 0;
    for (int b = 63; b >= 0; b--) {
        char ch = '0';
        uint64_t bit = 1ULL << b;
        if (c->mask[GMS_AD_BURST] & bit) ch = 'S';
        else if (c->mask[GMS_AD_COL] & bit) ch = 'C';
        else if (c->mask[GMS_AD_ROW] & bit) ch = 'R';
        else if (c->mask[GMS_AD_BK] & bit) ch = 'B';
        m[k++] = ch;
        if (b && b % 8 == 0) m[k++] = '.';
    }
    m[k] = 0;
    snprintf(buf, n, "%s", m);
}
