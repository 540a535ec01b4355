/* Cache set-index functions (spec 001 section 3.2, GPGPU-Sim hash_function / hashing.cc).
 * Each function is a gms_index_ops in its own file, listed once in index.c's registry and
 * selected by the set-index letter of the cache string. Adding a function = one new file +
 * one registry line (its kind is GMS_IDX_CUSTOM unless a test needs to name it). */
#ifndef GMS_MEM_INDEX_H
#define GMS_MEM_INDEX_H
#include <stdint.h>
#include "mem/cache.h"
#include "util/registry.h"

/* Precomputed per-cache state, filled by init from the config. */
typedef struct gms_index_state {
    uint32_t nsets, mask;        /* mask = nsets - 1 (power-of-two functions) */
    uint32_t line_log2, nset_log2;
    uint32_t p;                  /* PMOD / A-prime modulus, D-prime multiplier */
    uint32_t t_shift;            /* BXOR: lowest address bit of t (b + k unless bxor_t_shift) */
    uint32_t ipoly_bits;         /* I-Poly: number of set-index bits k (0: not set up) */
    uint64_t ipoly_mask[12];     /* I-Poly: set bit b = parity of (block address & mask[b]) */
} gms_index_state;

typedef struct gms_index_ops {
    char letter;                 /* set-index field of the cache string */
    gms_set_index_kind kind;
    const char *name;            /* "BXOR", used in descriptions */
    const char *summary;         /* one line, for `gpumemsim list policies` */
    int pow2_sets;               /* requires a power-of-two number of sets */
    /* extra constraints (NULL = none); error names optname */
    int (*check)(const gms_cache_config *c, const char *optname, gms_error *err);
    void (*init)(gms_index_state *s, const gms_cache_config *c);   /* NULL = common part only */
    uint32_t (*index)(const gms_index_state *s, uint64_t addr);   /* byte address -> set */
} gms_index_ops;

const gms_index_ops *gms_index_find(char letter);
const gms_index_ops *gms_index_by_kind(gms_set_index_kind kind);
/* fills the common fields then calls ops->init */
void gms_index_init(const gms_index_ops *ops, gms_index_state *s, const gms_cache_config *c);
extern const gms_registry gms_index_reg;   /* keyed by letter: "L (linear (BMOD)), X (BXOR), ..." */

/* helpers shared by the index files */
int gms_is_prime(uint32_t n);
uint32_t gms_ilog2(uint64_t v);   /* floor(log2 v), v > 0 */
uint32_t gms_pmod_default_prime(const gms_cache_config *c); /* the p a config uses for M/A/D */
/* c->bxor_t_shift (0 = default) must put t wholly above x and inside 64 bits; `what` names
 * the option in the error (e.g. "-gms_l1d_bxor_t_shift") */
int gms_index_bxor_shift_check(const gms_cache_config *c, const char *what, gms_error *err);

#endif
