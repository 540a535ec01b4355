/* Open-addressing hash map from uint64 keys to uint64 values (linear probing, tombstone-free
 * deletion by backward shift). O(1) lookups for structures that are associative in hardware:
 * MSHRs, TLBs, page tables. Key UINT64_MAX is reserved. */
#ifndef GMS_UTIL_HASHMAP_H
#define GMS_UTIL_HASHMAP_H
#include <stdint.h>
#include <stddef.h>

/* key and value side by side: a lookup touches one host cache line, not two (the maps of
 * 80 SMs' caches and MSHRs do not fit in the host's caches, so this is most of their cost) */
typedef struct gms_u64slot { uint64_t key, val; } gms_u64slot;
typedef struct gms_u64map {
    gms_u64slot *slot;
    size_t cap;   /* power of two */
    size_t n;
} gms_u64map;

void gms_u64map_init(gms_u64map *m, size_t expected);

void gms_u64map_free(gms_u64map *m);
/* returns pointer to value or NULL */
uint64_t *gms_u64map_get(const gms_u64map *m, uint64_t key);
/* inserts or overwrites */
void gms_u64map_put(gms_u64map *m, uint64_t key, uint64_t val);
/* returns 1 if removed */
int gms_u64map_del(gms_u64map *m, uint64_t key);
/* Host speed: one probe where get-then-put / get-then-del would make two.
 * upsert: the value slot of key, inserted (value 0, *created = 1) if absent; the pointer is
 * valid until the next put/upsert/del. del_if: removes key only if its value is val; 1 if
 * removed. */
uint64_t *gms_u64map_upsert(gms_u64map *m, uint64_t key, int *created);
int gms_u64map_del_if(gms_u64map *m, uint64_t key, uint64_t val);
void gms_u64map_clear(gms_u64map *m);
/* Host speed only: start loading the host cache line of key's home slot, for a get/put/del
 * that comes later (the maps of 80 SMs' caches do not stay in the host's caches). No effect
 * on the map's contents. */
static inline size_t gms_u64map_home(const gms_u64map *m, uint64_t key)
{
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdULL;
    key ^= key >> 33;
    return (size_t)key & (m->cap - 1);
}
/* always_inline: GCC takes a function whose only effect is a prefetch for a const
 * function and deletes its calls */
static inline __attribute__((always_inline)) void gms_u64map_prefetch(const gms_u64map *m, uint64_t key)
{
    size_t i = gms_u64map_home(m, key);
    __builtin_prefetch(m->slot + i, 1, 3);
}

#endif
