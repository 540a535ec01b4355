#include "util/idxmap.h"
#include "util/err.h"
#include <stdlib.h>
#include <string.h>

#define EMPTY GMS_IDXMAP_EMPTY
#define COMPACT_MAX_INDEX 0xFFFFu   /* an index below this fits the slot's low 16 bits */

static void slots_alloc(gms_idxmap *m, size_t cap)
{
    m->cap = cap;
    m->hshift = (uint8_t)(64 - __builtin_ctzll(cap));   /* cap: a power of two, at least 16 */
    m->n = 0;
    m->slot = gms_xmalloc(cap * sizeof *m->slot);
    for (size_t i = 0; i < cap; i++) m->slot[i] = EMPTY;
}

static size_t cap_for(size_t expected)
{
    size_t cap = 16;
    while (cap < expected * 2) cap <<= 1;   /* load <= 1/2 at the expected count */
    return cap;
}

void gms_idxmap_init(gms_idxmap *m, size_t expected, uint32_t max_index, unsigned shift)
{
    memset(m, 0, sizeof *m);
    m->shift = (uint8_t)(shift < 63 ? shift : 63);
    if (max_index > COMPACT_MAX_INDEX) {
        m->is_wide = 1;
        gms_u64map_init(&m->wide, expected);
        return;
    }
    slots_alloc(m, cap_for(expected));
}

void gms_idxmap_free(gms_idxmap *m)
{
    free(m->slot);
    gms_u64map_free(&m->wide);
    memset(m, 0, sizeof *m);
}

void gms_idxmap_clear(gms_idxmap *m)
{
    if (m->is_wide) { gms_u64map_clear(&m->wide); return; }
    for (size_t i = 0; i < m->cap; i++) m->slot[i] = EMPTY;
    m->n = 0;
}

static inline uint64_t key_of(const gms_idxmap *m, uint64_t s) { return (s >> 16) << m->shift; }

/* for good: every compact entry moves to a gms_u64map (a key that does not fit, or an index
 * that does not) */
static void go_wide(gms_idxmap *m)
{
    gms_u64map_init(&m->wide, m->n ? m->n : m->cap / 2);
    for (size_t i = 0; i < m->cap; i++)
        if (m->slot[i] != EMPTY) gms_u64map_put(&m->wide, key_of(m, m->slot[i]), m->slot[i] & 0xFFFF);
    free(m->slot);
    m->slot = NULL;
    m->cap = m->n = 0;
    m->is_wide = 1;
}

uint32_t gms_idxmap_get_wide(const gms_idxmap *m, uint64_t key)
{
    const uint64_t *v = gms_u64map_get(&m->wide, key);
    return v ? (uint32_t)*v : GMS_IDX_NONE;
}

static void grow(gms_idxmap *m)
{
    uint64_t *old = m->slot;
    size_t oc = m->cap;
    slots_alloc(m, oc * 2);
    size_t mask = m->cap - 1;
    for (size_t j = 0; j < oc; j++) {
        if (old[j] == EMPTY) continue;
        size_t i = gms_idxmap_home(m, old[j] >> 16);
        while (m->slot[i] != EMPTY) i = (i + 1) & mask;
        m->slot[i] = old[j];
        m->n++;
    }
    free(old);
}

/* the compact slot of key part p, or of the free slot where it would go (*found = 0) */
static size_t slot_of(const gms_idxmap *m, uint64_t p, int *found)
{
    size_t mask = m->cap - 1, i = gms_idxmap_home(m, p);
    for (;;) {
        uint64_t s = m->slot[i];
        if (s == EMPTY) { *found = 0; return i; }
        if (s >> 16 == p) { *found = 1; return i; }
        i = (i + 1) & mask;
    }
}

/* an insertion's slot for key in a compact map (*found: key is there), after growing it if
 * needed; SIZE_MAX if the map is, or now goes, wide (key or index does not fit).
 * (always_inline: host speed, every miss inserts; a call cost +0.7% instructions) */
static inline __attribute__((always_inline)) size_t insert_slot(gms_idxmap *m, uint64_t key, uint32_t index, uint64_t *part, int *found)
{
    if (m->is_wide) return SIZE_MAX;
    uint64_t p = gms_idxmap_part(m, key);
    if (p == EMPTY || index >= COMPACT_MAX_INDEX) { go_wide(m); return SIZE_MAX; }
    if ((m->n + 1) * 4 > m->cap * 3) grow(m);
    *part = p;
    return slot_of(m, p, found);
}

uint32_t gms_idxmap_get_or_put(gms_idxmap *m, uint64_t key, uint32_t index, int *created)
{
    uint64_t p;
    int found;
    size_t i = insert_slot(m, key, index, &p, &found);
    if (i == SIZE_MAX) {
        uint64_t *v = gms_u64map_upsert(&m->wide, key, created);
        if (*created) *v = index;
        return (uint32_t)*v;
    }
    *created = !found;
    if (found) return (uint32_t)(m->slot[i] & 0xFFFF);
    m->slot[i] = p << 16 | index;
    m->n++;
    return index;
}

void gms_idxmap_put(gms_idxmap *m, uint64_t key, uint32_t index)
{
    uint64_t p;
    int found;
    size_t i = insert_slot(m, key, index, &p, &found);
    if (i == SIZE_MAX) { gms_u64map_put(&m->wide, key, index); return; }
    if (!found) m->n++;
    m->slot[i] = p << 16 | index;
}

/* backward-shift deletion of the occupied slot i (as gms_u64map: no tombstones) */
static void remove_at(gms_idxmap *m, size_t i)
{
    size_t mask = m->cap - 1, j = i;
    for (;;) {
        j = (j + 1) & mask;
        if (m->slot[j] == EMPTY) break;
        size_t h = gms_idxmap_home(m, m->slot[j] >> 16);
        int move = (i <= j) ? (h <= i || h > j) : (h <= i && h > j);
        if (move) {
            m->slot[i] = m->slot[j];
            i = j;
        }
    }
    m->slot[i] = EMPTY;
    m->n--;
}

static int del_compact(gms_idxmap *m, uint64_t key, uint32_t index, int any)
{
    uint64_t p = gms_idxmap_part(m, key);
    if (p == EMPTY) return 0;   /* never stored */
    int found;
    size_t i = slot_of(m, p, &found);
    if (!found || (!any && (m->slot[i] & 0xFFFF) != index)) return 0;
    remove_at(m, i);
    return 1;
}

int gms_idxmap_del(gms_idxmap *m, uint64_t key)
{
    if (m->is_wide) return gms_u64map_del(&m->wide, key);
    return del_compact(m, key, 0, 1);
}

int gms_idxmap_del_if(gms_idxmap *m, uint64_t key, uint32_t index)
{
    if (m->is_wide) return gms_u64map_del_if(&m->wide, key, index);
    return del_compact(m, key, index, 0);
}
