/* Address decoder: a physical byte address -> memory sub-partition, DRAM channel, bank, row,
 * column (GPGPU-Sim's addrdec.cc / linear_to_raw_address_translation), plus the
 * partition-local address the L2 slice indexes its sets with.
 *
 * Two stages:
 *  1. Channel selection, a family of policies (gms_chanmap_ops, registry in
 *     addrdec_registry.c, chosen by -gms_partition_mapping):
 *       gpgpusim  GPGPU-Sim's "dramid@S;<64-char mask>" (channel bits inserted at bit S, or
 *                 a quotient/remainder split when the channel count is not a power of two)
 *       modulo    chunk c = addr / chunk; channel = c mod N          (spec 001 §3.5)
 *       xor       channel = (c mod N) ^ ((c / N) >> (8 - log2 N)) mod N, i.e. addr[11:8] ^
 *                 addr[19:16] for N = 16 and 256 B chunks                (spec 001 §3.5)
 *     Each member returns the raw channel, the channel-local address (channel bits removed)
 *     and the "high bits" GPGPU-Sim's hashes fold in.
 *  2. Common to all members: bank/row/column/burst are the mask-string fields of the
 *     channel-local address (equivalent to GPGPU-Sim shifting the masks above the chip
 *     bits); sub-partition = channel * nsp + (bank & (nsp-1)); the sub-partition index is
 *     then hashed by -gpgpu_memory_partition_indexing (0 none, 1 XOR, 2 IPOLY); the DRAM
 *     bank is hashed by -dram_bnk_indexing_policy (0 none, 1 XOR with row, 2 IPOLY).
 *
 * Decoding is pure (no state changes) and cheap: a few pext-like bit gathers. */
#ifndef GMS_MEM_ADDRDEC_H
#define GMS_MEM_ADDRDEC_H
#include <stdint.h>
#include <stddef.h>
#include "util/err.h"
#include "util/registry.h"

enum { GMS_AD_CHIP = 0, GMS_AD_BK, GMS_AD_ROW, GMS_AD_COL, GMS_AD_BURST, GMS_AD_NFIELD };

/* -gpgpu_memory_partition_indexing values */
enum { GMS_PIDX_NONE = 0, GMS_PIDX_XOR = 1, GMS_PIDX_IPOLY = 2, GMS_PIDX_RANDOM = 4, GMS_PIDX_CUSTOM = 5,
       GMS_PIDX_IPOLY_MODULO = 6 };
/* -dram_bnk_indexing_policy values */
enum { GMS_BKIDX_LINEAR = 0, GMS_BKIDX_XOR = 1, GMS_BKIDX_IPOLY = 2 };

/* Decoded mapping configuration: plain data, lives in gms_memsys_params. */
typedef struct gms_addrdec_config {
    char member[32];             /* channel-selection policy name */
    uint32_t n_channel, n_sub;   /* channels, sub-partitions per channel (power of two) */
    int chip_start;              /* gpgpusim: channel bits start at this bit (dramid@S) */
    uint32_t chunk;              /* modulo/xor/prime...: interleave granularity in bytes (power of two) */
    uint32_t prime;              /* prime/aprime/dprime: p; ipoly: polynomial bits; 0 = the member's default */
    uint64_t mask[GMS_AD_NFIELD];/* field masks on the channel-local address (CHIP unused) */
    uint64_t sp_mask;            /* the bank bits that pick the sub-partition */
    uint32_t pindex;             /* GMS_PIDX_* */
    uint32_t bk_index;           /* GMS_BKIDX_* */
    uint32_t nbk;                /* DRAM banks per channel (for bank hashing) */
} gms_addrdec_config;

/* Result of decoding one address. */
typedef struct gms_addrdec_out {
    uint32_t chan, sub;          /* channel, global sub-partition id */
    uint32_t bank, row, col, burst;
    uint32_t bank_raw;           /* bank before -dram_bnk_indexing_policy */
} gms_addrdec_out;

/* A channel mapping that is a bit split: channel = addr[cshift + cbits - 1 : cshift], the
 * channel-local address closes the gap, high bits = local >> hshift. */
typedef struct gms_chanmap_split { unsigned cshift, cbits, hshift; } gms_chanmap_split;

/* One channel-selection policy. */
typedef struct gms_chanmap_ops {
    const char *name;
    const char *summary;
    const char *const *knobs;     /* its own options' name prefixes, NULL-ended (registry.h knobs_off); may be NULL */
    /* addr -> raw channel (before partition hashing) and channel-local address */
    void (*map)(const gms_addrdec_config *c, uint64_t addr, uint32_t *chan, uint64_t *local);
    /* bits folded in by the XOR / IPOLY partition hashes, from the channel-local address */
    uint64_t (*high_bits)(const gms_addrdec_config *c, uint64_t local);
    /* check the geometry (n_channel, chunk, chip_start); NULL = always fine */
    int (*check)(const gms_addrdec_config *c, gms_error *err);
    /* optional: 1 if, for this config, the mapping is a plain bit split (see gms_chanmap_split),
     * which the decoder then inlines instead of calling map/high_bits */
    int (*split)(const gms_addrdec_config *c, struct gms_chanmap_split *out);
    /* optional: the config dump's sentence for this mapping (after "Partition mapping: ");
     * NULL = "<name> over <chunk>-byte chunks" */
    void (*describe)(const gms_addrdec_config *c, char *buf, size_t n);
} gms_chanmap_ops;

/* registry (addrdec_registry.c) */
extern const gms_chanmap_ops *const gms_chanmap_registry[];
extern const size_t gms_chanmap_nregistry;
const gms_chanmap_ops *gms_chanmap_find(const char *name);
extern const gms_registry gms_chanmap_reg;   /* names, help, error lists */

/* Parse a GPGPU-Sim mapping string ("dramid@8;0000...RRRR.BBBC...SSSSS", 64 bit characters
 * after the ';', '.', ' ' and '|' ignored) into c->mask / c->chip_start. Errors name
 * `optname` and the offending character or count. Fields may not overlap (each character
 * is one field) and D bits are refused together with dramid@. */
int gms_addrdec_parse_mapping(const char *str, const char *optname, gms_addrdec_config *c, gms_error *err);
/* GPGPU-Sim's built-in masks for -gpgpu_mem_address_mask 0..3 (used when no string). */
int gms_addrdec_default_masks(int address_mask, gms_addrdec_config *c, gms_error *err);
/* After masks, member, n_channel, n_sub, pindex, bk_index, nbk are set: derive sp_mask and
 * check everything. Errors name the option at fault. */
int gms_addrdec_finalize(gms_addrdec_config *c, gms_error *err);

uint64_t gms_bits_gather(uint64_t mask, uint64_t val);            /* pext */

/* A mask precompiled into its contiguous runs, so a gather is a few shift-and-mask steps
 * (portable; PEXT is microcoded and slow on the AMD parts this often runs on). Masks with
 * more than GMS_BITRUNS_MAX runs fall back to the bit loop. */
#define GMS_BITRUNS_MAX 12
typedef struct gms_bitruns {
    uint64_t mask;                       /* the original mask (fallback) */
    uint32_t n;                          /* runs; GMS_BITRUNS_MAX + 1 = use the fallback */
    uint8_t shift[GMS_BITRUNS_MAX], out[GMS_BITRUNS_MAX];
    uint64_t ones[GMS_BITRUNS_MAX];
} gms_bitruns;
void gms_bitruns_init(gms_bitruns *r, uint64_t mask);
static inline uint64_t gms_bitruns_gather(const gms_bitruns *r, uint64_t v)
{
    if (r->n > GMS_BITRUNS_MAX) return gms_bits_gather(r->mask, v);
    uint64_t x = 0;
    for (uint32_t i = 0; i < r->n; i++) x |= ((v >> r->shift[i]) & r->ones[i]) << r->out[i];
    return x;
}

/* IPOLY hash as three byte-indexed tables: the parity masks only reach bit 18, so
 * hash(high) = T0[high byte 0] ^ T1[byte 1] ^ T2[byte 2], then xor the index in. */
typedef struct gms_ipoly_tab { uint8_t t[3][256]; uint32_t bits; } gms_ipoly_tab;
void gms_ipoly_tab_init(gms_ipoly_tab *t, uint32_t n);   /* n = 16, 32 or 64 */
static inline uint32_t gms_ipoly_tab_hash(const gms_ipoly_tab *t, uint64_t high, uint32_t index)
{
    return (uint32_t)(t->t[0][high & 255] ^ t->t[1][(high >> 8) & 255] ^ t->t[2][(high >> 16) & 255]) ^
           (index & ((1u << t->bits) - 1));
}

/* The runtime decoder: the config plus the resolved member and the precompiled masks. */
typedef struct gms_addrdec {
    gms_addrdec_config cfg;
    const gms_chanmap_ops *ops;
    uint32_t log2_sub;
    gms_bitruns field[GMS_AD_NFIELD];    /* BK, ROW, COL, BURST on the channel-local address */
    gms_bitruns keep_part;               /* the complement of sp_mask: partition address */
    uint32_t n_pipoly;                   /* IPOLY partition hash size (next_pow2(chan) * nsp; IPOLY-Modulo: the group) */
    uint32_t rand_shift;                 /* random partition indexing: the unit is addr >> this */
    gms_ipoly_tab pidx, bkidx;           /* IPOLY tables for partition and bank hashing */
    int is_split;                        /* ops->split said yes: use `split` inline */
    gms_chanmap_split split;
    /* Host speed: byte tables for the two hot questions (build_tables in addrdec.c), used
     * when has_tab: the result is the XOR of one entry per address byte below tab_hi /
     * sub_hi. tab entries pack row (bits 0-31), col (32-47), bank (48-55), chan (56-63). */
    int has_tab;
    uint32_t tab_hi, sub_hi;
    /* Host speed: bit split and sub-partition bits one run [part_lo, part_hi) (or none):
     * the partition address is two gap closings */
    int part_fast;
    uint32_t part_lo, part_hi, part_cs, part_cs_hi;
    uint64_t part_cmask, part_lmask;
    uint64_t tab[8][256];
    uint8_t tab_sub[8][256];
} gms_addrdec;

/* the DRAM coordinates of an address (what the L2 slice sends down with a request) */
typedef struct gms_addrdec_dram { uint32_t chan, bank, row, col; } gms_addrdec_dram;

int gms_addrdec_init(gms_addrdec *d, const gms_addrdec_config *cfg, gms_error *err);
void gms_addrdec_decode(const gms_addrdec *d, uint64_t addr, gms_addrdec_out *out);
/* the chan, bank, row and col fields of gms_addrdec_decode */
void gms_addrdec_dram_of(const gms_addrdec *d, uint64_t addr, gms_addrdec_dram *out);
/* sub-partition of an address (the interconnect's destination) */
uint32_t gms_addrdec_subpart(const gms_addrdec *d, uint64_t addr);
/* GPGPU-Sim's partition_address: the address with channel and sub-partition bits removed,
 * which the L2 slice uses for its set index. */
uint64_t gms_addrdec_partition_addr(const gms_addrdec *d, uint64_t addr);

/* members modulo and xor: chunk must be a power of two >= 32 B */
int gms_chanmap_check_chunk(const gms_addrdec_config *c, gms_error *err);

/* helpers shared by members and tests */
uint64_t gms_bits_remove(uint64_t mask, uint64_t val);            /* drop the mask bits, close gap */
uint32_t gms_ipoly_hash(uint64_t high, uint32_t index, uint32_t n); /* hashing.cc, n = 16/32/64 */
uint32_t gms_log2u(uint64_t v);                                    /* floor(log2 v), 0 for 0 */
uint32_t gms_next_pow2(uint32_t v);
/* "dramid@8; ...RRRR.BBBC..." back from masks (for the dump), buf >= 80 */
void gms_addrdec_describe(const gms_addrdec_config *c, char *buf, size_t n);

#endif
