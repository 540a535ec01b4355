/* Hash map from uint64 keys (block or sector addresses) to small indices (a line of a cache,
 * an MSHR entry): the block map of the high-associativity caches and the MSHR table's map.
 *
 * Why not gms_u64map: these maps are probed at random by every access of 80 SMs' L1s and of
 * the L2 slices, and together they do not fit in the host's caches. A compact slot is 8 B
 * (the key's bits above `shift` in the high 48 bits, the index in the low 16), half of
 * gms_u64map's, so a map touches half as many host lines for the same keys.
 *
 * A map starts compact when every index it may hold is below 0xFFFF. A key with a bit below
 * `shift`, or too wide for 48 bits above it, cannot be stored compactly: the first such put
 * moves the map, for good, to a gms_u64map ("wide"), so every key still works, only with
 * 16 B slots. Lookups of such a key in a compact map find nothing (none was stored). */
#ifndef GMS_UTIL_IDXMAP_H
#define GMS_UTIL_IDXMAP_H
#include "util/hashmap.h"
#include <stdint.h>
#include <stddef.h>

#define GMS_IDX_NONE UINT32_MAX

typedef struct gms_idxmap {
    uint64_t *slot;      /* compact: (key >> shift) << 16 | index; IDXMAP_EMPTY if free */
    size_t cap, n;       /* compact: capacity (a power of two) and keys held */
    gms_u64map wide;     /* the map once is_wide */
    uint8_t shift, is_wide;
    uint8_t hshift;      /* 64 - log2(cap): gms_idxmap_home's shift */
} gms_idxmap;

#define GMS_IDXMAP_EMPTY UINT64_MAX

/* room for `expected` keys; indices < max_index; keys are multiples of 1 << shift as a rule */
void gms_idxmap_init(gms_idxmap *m, size_t expected, uint32_t max_index, unsigned shift);
void gms_idxmap_free(gms_idxmap *m);
void gms_idxmap_clear(gms_idxmap *m);
/* the index stored for key, inserted as `index` (and *created = 1) if absent */
uint32_t gms_idxmap_get_or_put(gms_idxmap *m, uint64_t key, uint32_t index, int *created);
/* inserts or overwrites */
void gms_idxmap_put(gms_idxmap *m, uint64_t key, uint32_t index);
/* removes key: always (del), or only if it maps to index (del_if). 1 if removed */
int gms_idxmap_del(gms_idxmap *m, uint64_t key);
int gms_idxmap_del_if(gms_idxmap *m, uint64_t key, uint32_t index);
uint32_t gms_idxmap_get_wide(const gms_idxmap *m, uint64_t key);

/* the home slot of a compact key part (a block or sector number): Fibonacci hashing, the
 * product's top log2(cap) bits, which every key bit reaches (host speed: a multiply and a
 * shift where gms_u64map's finaliser takes five instructions and a mask; nothing reads a map
 * in slot order, so the choice of slot changes no result) */
static inline size_t gms_idxmap_home(const gms_idxmap *m, uint64_t k)
{
    return (size_t)((k * 0x9E3779B97F4A7C15ULL) >> m->hshift);
}

/* the compact key part of key, or GMS_IDXMAP_EMPTY if key cannot be stored compactly */
static inline uint64_t gms_idxmap_part(const gms_idxmap *m, uint64_t key)
{
    uint64_t p = key >> m->shift;
    if ((p << m->shift) != key || p >= (1ULL << 48) - 1) return GMS_IDXMAP_EMPTY;
    return p;
}

/* the index stored for key, or GMS_IDX_NONE. Inline: the cache probes call it on every
 * access. */
static inline uint32_t gms_idxmap_get(const gms_idxmap *m, uint64_t key)
{
    if (m->is_wide) return gms_idxmap_get_wide(m, key);
    uint64_t p = gms_idxmap_part(m, key);
    if (p == GMS_IDXMAP_EMPTY) return GMS_IDX_NONE;
    size_t mask = m->cap - 1, i = gms_idxmap_home(m, p);
    for (;;) {
        uint64_t s = m->slot[i];
        if (s >> 16 == p) return (uint32_t)(s & 0xFFFF);
        if (s == GMS_IDXMAP_EMPTY) return GMS_IDX_NONE;
        i = (i + 1) & mask;
    }
}

/* Host speed only: start loading the host line of key's home slot (no effect on contents).
 * always_inline: GCC takes a function whose only effect is a prefetch for a const function
 * and deletes its calls. */
static inline __attribute__((always_inline)) void gms_idxmap_prefetch(const gms_idxmap *m, uint64_t key)
{
    if (m->is_wide) { gms_u64map_prefetch(&m->wide, key); return; }
    uint64_t p = gms_idxmap_part(m, key);
    if (p != GMS_IDXMAP_EMPTY) __builtin_prefetch(m->slot + gms_idxmap_home(m, p), 1, 3);
}

#endif
