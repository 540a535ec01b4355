/* Conventional (explicitly addressed, Farkas & Jouppi) MSHR table = GPGPU-Sim mshr_table:
 * `entries` entries, each one block address and up to `max_merge` requests (the primary
 * counts). full(a) = entry(a) ? n(a) >= max_merge : used >= entries (spec 000a section 1.2).
 * Entries live in a fixed array with a free list; a hash map gives O(1) key -> entry. */
#include "mem/mshr.h"
#include "util/idxmap.h"
#include <stdlib.h>
#include <string.h>

/* Host speed: one entry is one 64 B host cache line (the array is 64-aligned), so a fill
 * that finds its entry through the hint touches a single line; gms_mshr_info's fields are
 * kept inline for that (the struct with its padding would make the entry 72 B). */
typedef struct entry {
    uint64_t key;
    gms_mreq *primary;
    gms_mreq *head, *tail;     /* secondaries, linked by ->next */
    uint64_t orig_addr;        /* gms_mshr_info */
    uint32_t orig_bytes, line_idx;
    uint32_t count;            /* requests using merge slots */
    uint32_t next_free;
    uint32_t ready_next;       /* next entry on the ready list */
    uint8_t seen_write, raw;   /* a write was queued; a read was queued after a write */
    uint8_t live;              /* 0 free, 1 waiting for its fill, 2 filled (on the ready list) */
    uint8_t has_atomic;
} entry;
_Static_assert(sizeof(entry) == 64, "an MSHR entry is one host cache line");

static inline void get_info(const entry *e, gms_mshr_info *info)
{
    *info = (gms_mshr_info){ .orig_addr = e->orig_addr, .orig_bytes = e->orig_bytes,
                             .line_idx = e->line_idx, .has_atomic = e->has_atomic };
}

#define NONE UINT32_MAX

typedef struct conv {
    entry *e;
    uint32_t n, max_merge, used, free_head;
    uint32_t key_shift;                /* log2 of the key granularity (hardware cost) */
    uint32_t ready_head, ready_tail;   /* filled entries whose requests are being handed out */
    gms_idxmap map;   /* key -> entry */
    /* statistics (gms_mshr_stats): occupancy integrals brought up to *clock at every change */
    const uint64_t *clock;
    uint64_t t_last, occ;             /* time of the last change; occupied (counted) slots */
    gms_mshr_stats st;
} conv;

static const uint64_t zero_clock;

/* occupancy is about to change: add the time since the last change at the old occupancy */
static inline void integrate(conv *m)
{
    uint64_t now = *m->clock, dt = now - m->t_last;
    m->st.slot_cycles += m->occ * dt;
    m->st.unit_cycles += (uint64_t)m->used * dt;
    m->t_last = now;
}

static void *create(const gms_cache_config *cfg)
{
    conv *m = gms_xcalloc(1, sizeof *m);
    m->n = cfg->mshr_entries;
    m->max_merge = cfg->mshr_max_merge;
    size_t bytes = (m->n ? m->n : 1) * sizeof *m->e;
    m->e = gms_xaligned(64, bytes);   /* 64 B entries on host cache line boundaries */
    memset(m->e, 0, bytes);
    for (uint32_t i = 0; i < m->n; i++) m->e[i].next_free = i + 1;
    m->free_head = 0;
    m->ready_head = m->ready_tail = NONE;
    m->clock = &zero_clock;
    /* keys are sectors (32 B) of sectored caches, else lines: multiples of 32 or the line */
    unsigned shift = cfg->type == 'S' || cfg->line < 32 ? 5 : (unsigned)__builtin_ctz(cfg->line);
    /* room for every entry at load <= 1/2 (the map never grows): 1024 slots for 512 MSHRs */
    gms_idxmap_init(&m->map, m->n ? m->n : 1, m->n, shift);
    m->key_shift = shift;
    return m;
}

static void destroy(void *p)
{
    conv *m = p;
    if (!m) return;
    gms_idxmap_free(&m->map);
    free(m->e);
    free(m);
}

static int check(void *p, uint64_t key, int *hit)
{
    conv *m = p;
    uint32_t v = gms_idxmap_get(&m->map, key);
    m->st.searches++;   /* every entry's comparator takes part (no enable, unlike DL-MSHR's Opt 2) */
    if (v != GMS_IDX_NONE) {
        *hit = m->e[v].live;   /* 1 pending, 2 filled */
        if (m->e[v].count < m->max_merge) return 0;
        m->st.rf_merge++;
        return GMS_RF_MSHR_MERGE;
    }
    *hit = 0;
    if (m->used < m->n) return 0;
    m->st.rf_entry++;
    return GMS_RF_MSHR_ENTRY;
}

static int rw_pending(void *p, uint64_t key)
{
    conv *m = p;
    uint32_t v = gms_idxmap_get(&m->map, key);
    return v != GMS_IDX_NONE ? m->e[v].raw : 0;
}

static uint32_t add(void *p, uint64_t key, gms_mreq *r, int counted, const gms_mshr_info *info)
{
    conv *m = p;
    int created;
    /* one probe for get + put; a new key gets the free list's head */
    uint32_t i = gms_idxmap_get_or_put(&m->map, key, m->free_head, &created);
    entry *e;
    if (created || counted) integrate(m);
    if (created) {
        e = &m->e[i];
        e->live = 1;
        m->free_head = e->next_free;
        if (m->free_head != NONE) __builtin_prefetch(&m->e[m->free_head], 1);   /* host speed: the next add's entry */
        m->used++;
        if (m->used > m->st.max_units) m->st.max_units = m->used;
        e->key = key;
        e->primary = r;
        e->head = e->tail = NULL;
        e->count = 0;
        e->seen_write = e->raw = 0;
        if (info) {
            e->orig_addr = info->orig_addr;
            e->orig_bytes = info->orig_bytes;
            e->line_idx = info->line_idx;
        }
        e->has_atomic = 0;
    } else {
        e = &m->e[i];
        r->next = NULL;
        if (e->tail) e->tail->next = r; else e->head = r;
        e->tail = r;
    }
    if (counted) { e->count++; m->occ++; m->st.slot_ops++; }
    /* GPGPU-Sim's is_read_after_write_pending looks for a write in the entry's list, which
     * holds reads only there (fetch-on-write adds its allocate read, not the write): the
     * write that rides here behind its allocate read (counted 0) is not such a write */
    if (r->kind == GMS_MREQ_WRITE) { if (counted) e->seen_write = 1; }
    else if (e->seen_write) e->raw = 1;
    if (r->kind == GMS_MREQ_ATOMIC) e->has_atomic = 1;
    return i;
}

/* before an entry is released (used-- follows) */
static inline void release_stats(conv *m, const entry *e)
{
    integrate(m);
    m->occ -= e->count;
    m->st.released++;
    m->st.chain_hist[0]++;   /* a conventional entry is one "set" */
}

static gms_mreq *take(void *p, uint64_t key, gms_mshr_info *info)
{
    conv *m = p;
    uint32_t i = gms_idxmap_get(&m->map, key);
    if (i == GMS_IDX_NONE) return NULL;
    entry *e = &m->e[i];
    release_stats(m, e);
    gms_idxmap_del(&m->map, key);
    gms_mreq *chain = e->primary;
    chain->next = e->head;
    if (info) get_info(e, info);
    e->primary = e->head = e->tail = NULL;
    e->live = 0;
    e->next_free = m->free_head;
    m->free_head = i;
    m->used--;
    return chain;
}

static gms_mreq *mark_ready(void *p, uint64_t key, uint32_t hint, gms_mshr_info *info)
{
    conv *m = p;
    uint32_t i = hint;
    /* keys are unique among live entries, so a live entry with this key is the map's answer */
    if (i >= m->n || !m->e[i].live || m->e[i].key != key) {
        i = gms_idxmap_get(&m->map, key);
        if (i == GMS_IDX_NONE) return NULL;
    }
    entry *e = &m->e[i];
    e->live = 2;
    if (info) get_info(e, info);
    /* host speed: next_ready deletes the key from the map once the entry's requests have been
     * handed out, a cycle or more from now; the hint made this fill skip the map, so its slot
     * is not in the host cache: start loading it now */
    gms_idxmap_prefetch(&m->map, key);
    e->ready_next = NONE;
    if (m->ready_tail == NONE) m->ready_head = i; else m->e[m->ready_tail].ready_next = i;
    m->ready_tail = i;
    return e->primary;
}

/* host speed only (see gms_mshr_ops.prefetch) */
static void prefetch(const void *p, uint64_t key, uint32_t hint)
{
    const conv *m = p;
    if (hint < m->n) __builtin_prefetch(&m->e[hint], 1);
    else gms_idxmap_prefetch(&m->map, key);
}

static void hint_array(const void *p, const char **base, uint32_t *n, uint32_t *stride)
{
    const conv *m = p;
    *base = (const char *)m->e;
    *n = m->n;
    *stride = sizeof *m->e;
}

static int any_ready(const void *p) { return ((const conv *)p)->ready_head != NONE; }

static gms_mreq *next_ready(void *p)
{
    conv *m = p;
    if (m->ready_head == NONE) return NULL;
    uint32_t i = m->ready_head;
    entry *e = &m->e[i];
    gms_mreq *r = e->primary;
    if (r) e->primary = NULL;
    else if ((r = e->head)) { e->head = r->next; if (!e->head) e->tail = NULL; else __builtin_prefetch(e->head); }
    if (r) {
        r->next = NULL;
        /* GPGPU-Sim's next_access pops the entry's list, so full() sees the room come back:
         * a handed-out request gives back its merge slot (the reads counted; the write that
         * rides behind a fetch-on-write's read took none, cache.c) */
        if (r->kind != GMS_MREQ_WRITE && e->count) { integrate(m); e->count--; m->occ--; }
    }
    if (!e->primary && !e->head) {   /* its last request: release the entry */
        release_stats(m, e);
        gms_idxmap_del(&m->map, e->key);
        e->live = 0;
        m->ready_head = e->ready_next;
        if (m->ready_head == NONE) m->ready_tail = NONE;
        e->next_free = m->free_head;
        m->free_head = i;
        m->used--;
    }
    return r;
}

static uint32_t used(const void *p) { return ((const conv *)p)->used; }

static void set_clock(void *p, const uint64_t *now) { ((conv *)p)->clock = now; }

static void stats(const void *p, gms_mshr_stats *acc)
{
    const conv *m = p;
    uint64_t now = *m->clock, dt = now - m->t_last;
    const gms_mshr_stats *s = &m->st;
    acc->rf_entry += s->rf_entry;
    acc->rf_merge += s->rf_merge;
    acc->slot_cycles += s->slot_cycles + m->occ * dt;
    uint64_t units = s->unit_cycles + (uint64_t)m->used * dt;
    acc->unit_cycles += units;
    acc->alloc_cap_cycles += units * m->max_merge;
    acc->cycles += now;
    acc->slot_cap_cycles += now * (uint64_t)m->n * m->max_merge;
    acc->released += s->released;
    for (int i = 0; i < GMS_MSHR_CHAIN_BINS; i++) acc->chain_hist[i] += s->chain_hist[i];
    if (m->st.max_units > acc->max_units) acc->max_units = m->st.max_units;
    /* hardware cost: per entry one comparator, max_merge slots, valid and ready flip-flops and
     * a merge count; each request's slot is written once and read once (slot_ops counted the
     * writes); the count is rewritten at each merge, valid set and cleared per entry */
    uint32_t cnt = gms_hw_bits_for(m->max_merge);
    acc->tables++;
    acc->hw_cmp = m->n;
    acc->hw_slots = (uint64_t)m->n * m->max_merge;
    acc->hw_ff = 2ull * m->n;
    acc->hw_ptr = (uint64_t)m->n * cnt;
    acc->hw_key_shift = m->key_shift;
    acc->searches += s->searches;
    acc->compares += s->searches * m->n;
    acc->slot_ops += 2 * s->slot_ops;
    acc->ctrl_ops += s->slot_ops * cnt + 2 * (s->released + m->used);
}

static gms_mshr_stats *events(void *p) { return &((conv *)p)->st; }

const gms_mshr_ops gms_mshr_conventional = {
    .name = "conventional",
    .summary = "GPGPU-Sim mshr_table: entries x merges per entry, explicitly addressed",
    .create = create, .destroy = destroy, .check = check, .rw_pending = rw_pending, .add = add,
    .take = take, .mark_ready = mark_ready, .any_ready = any_ready, .next_ready = next_ready,
    .used = used, .prefetch = prefetch, .hint_array = hint_array, .set_clock = set_clock, .stats = stats, .events = events,
};
