#include "util/hashmap.h"
#include "util/err.h"
#include <stdlib.h>
#include <string.h>

#define EMPTY UINT64_MAX

/* the same function as gms_u64map_home (hashmap.h), which the prefetch uses */
static inline size_t scramble(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return (size_t)k;
}


void gms_u64map_init(gms_u64map *m, size_t expected)
{
    size_t cap = 16;
    while (cap < expected * 2) cap <<= 1;
    m->cap = cap;
    m->n = 0;
    m->slot = gms_xmalloc(cap * sizeof *m->slot);
    for (size_t i = 0; i < cap; i++) m->slot[i].key = EMPTY;
}

void gms_u64map_free(gms_u64map *m)
{
    free(m->slot);
    memset(m, 0, sizeof *m);
}

void gms_u64map_clear(gms_u64map *m)
{
    for (size_t i = 0; i < m->cap; i++) m->slot[i].key = EMPTY;
    m->n = 0;
}

/* the slot holding key, or SIZE_MAX (always for the reserved key, e.g. a never-used line's tag) */
static inline size_t find(const gms_u64map *m, uint64_t key)
{
    if (key == EMPTY) return SIZE_MAX;
    size_t mask = m->cap - 1, i = scramble(key) & mask;
    while (m->slot[i].key != key) {
        if (m->slot[i].key == EMPTY) return SIZE_MAX;
        i = (i + 1) & mask;
    }
    return i;
}

uint64_t *gms_u64map_get(const gms_u64map *m, uint64_t key)
{
    size_t i = find(m, key);
    return i == SIZE_MAX ? NULL : &m->slot[i].val;
}

static void grow(gms_u64map *m)
{
    gms_u64map nm;
    gms_u64map_init(&nm, m->cap);
    for (size_t i = 0; i < m->cap; i++)
        if (m->slot[i].key != EMPTY) gms_u64map_put(&nm, m->slot[i].key, m->slot[i].val);
    gms_u64map_free(m);
    *m = nm;
}

void gms_u64map_put(gms_u64map *m, uint64_t key, uint64_t val)
{
    if ((m->n + 1) * 4 > m->cap * 3) grow(m);
    size_t mask = m->cap - 1, i = scramble(key) & mask;
    while (m->slot[i].key != EMPTY) {
        if (m->slot[i].key == key) { m->slot[i].val = val; return; }
        i = (i + 1) & mask;
    }
    m->slot[i].key = key;
    m->slot[i].val = val;
    m->n++;
}

uint64_t *gms_u64map_upsert(gms_u64map *m, uint64_t key, int *created)
{
    if ((m->n + 1) * 4 > m->cap * 3) grow(m);   /* as put: the same layout afterwards */
    size_t mask = m->cap - 1, i = scramble(key) & mask;
    while (m->slot[i].key != EMPTY) {
        if (m->slot[i].key == key) { *created = 0; return &m->slot[i].val; }
        i = (i + 1) & mask;
    }
    m->slot[i].key = key;
    m->slot[i].val = 0;
    m->n++;
    *created = 1;
    return &m->slot[i].val;
}

/* backward-shift deletion of the occupied slot i: keeps probe chains intact without
 * tombstones */
static void remove_at(gms_u64map *m, size_t i)
{
    size_t mask = m->cap - 1, j = i;
    for (;;) {
        j = (j + 1) & mask;
        if (m->slot[j].key == EMPTY) break;
        size_t h = scramble(m->slot[j].key) & mask;
        int move = (i <= j) ? (h <= i || h > j) : (h <= i && h > j);
        if (move) {
            m->slot[i] = m->slot[j];
            i = j;
        }
    }
    m->slot[i].key = EMPTY;
    m->n--;
}

int gms_u64map_del_if(gms_u64map *m, uint64_t key, uint64_t val)
{
    size_t i = find(m, key);
    if (i == SIZE_MAX || m->slot[i].val != val) return 0;
    remove_at(m, i);
    return 1;
}

int gms_u64map_del(gms_u64map *m, uint64_t key)
{
    size_t i = find(m, key);
    if (i == SIZE_MAX) return 0;
    remove_at(m, i);
    return 1;
}
