#include "util/hashmap.h"
#include "util/err.h"
#include <stdlib.h>
#include <string.h>

#define EMPTY UINT64_MAX

static inline size_t hash64(uint64_t k)
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
    m->keys = gms_xmalloc(cap * sizeof *m->keys);
    m->vals = gms_xmalloc(cap * sizeof *m->vals);
    memset(m->keys, 0xff, cap * sizeof *m->keys);
}

void gms_u64map_free(gms_u64map *m)
{
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

void gms_u64map_clear(gms_u64map *m)
{
    memset(m->keys, 0xff, m->cap * sizeof *m->keys);
    m->n = 0;
}

uint64_t *gms_u64map_get(const gms_u64map *m, uint64_t key)
{
    size_t mask = m->cap - 1, i = hash64(key) & mask;
    while (m->keys[i] != EMPTY) {
        if (m->keys[i] == key) return &m->vals[i];
        i = (i + 1) & mask;
    }
    return NULL;
}

static void grow(gms_u64map *m)
{
    gms_u64map nm;
    gms_u64map_init(&nm, m->cap);
    for (size_t i = 0; i < m->cap; i++)
        if (m->keys[i] != EMPTY) gms_u64map_put(&nm, m->keys[i], m->vals[i]);
    gms_u64map_free(m);
    *m = nm;
}

void gms_u64map_put(gms_u64map *m, uint64_t key, uint64_t val)
{
    if ((m->n + 1) * 4 > m->cap * 3) grow(m);
    size_t mask = m->cap - 1, i = hash64(key) & mask;
    while (m->keys[i] != EMPTY) {
        if (m->keys[i] == key) { m->vals[i] = val; return; }
        i = (i + 1) & mask;
    }
    m->keys[i] = key;
    m->vals[i] = val;
    m->n++;
}

int gms_u64map_del(gms_u64map *m, uint64_t key)
{
    size_t mask = m->cap - 1, i = hash64(key) & mask;
    while (m->keys[i] != key) {
        if (m->keys[i] == EMPTY) return 0;
        i = (i + 1) & mask;
    }
    /* backward-shift deletion keeps probe chains intact without tombstones */
    size_t j = i;
    for (;;) {
        j = (j + 1) & mask;
        if (m->keys[j] == EMPTY) break;
        size_t h = hash64(m->keys[j]) & mask;
        int move = (i <= j) ? (h <= i || h > j) : (h <= i && h > j);
        if (move) {
            m->keys[i] = m->keys[j];
            m->vals[i] = m->vals[j];
            i = j;
        }
    }
    m->keys[i] = EMPTY;
    m->n--;
    return 1;
}
