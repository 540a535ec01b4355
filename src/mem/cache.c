/* Generic cache (GPGPU-Sim 4.x data_cache / tag_array / mshr_table semantics). See cache.h
 * for the protocol and docs/cache.md for every choice made. Hot path: no allocation except
 * pool requests for write-backs and write-allocate reads; the hit check scans the set's tags
 * (contiguous); the MSHR lookup is O(1). */
#include "mem/cache.h"
#include "mem/cache_line.h"
#include "mem/index.h"
#include "mem/mshr.h"
#include "util/idxmap.h"
#include <stdlib.h>
#include <string.h>

const char *const gms_cache_outcome_name[GMS_CACHE__NOUTCOME] = {
    "HIT", "HIT_RESERVED", "MISS", "RESERVATION_FAIL", "SECTOR_MISS", "MSHR_HIT",
};
const char *const gms_rf_cause_name[GMS_RF__COUNT] = {
    "LINE_ALLOC_FAIL", "MISS_QUEUE_FULL", "MSHR_ENRTY_FAIL", "MSHR_MERGE_ENRTY_FAIL",
    "MSHR_RW_PENDING", "BYPASS_SLOT_FAIL",
};

#define NOWAY UINT32_MAX
#define LRU_NIL 0xFFFFu
#define RF_NONE (-1)

/* Host speed: the fields every access, fill and readiness test reads come first, so that they
 * share two host cache lines (the struct is 64-aligned); the 80 L1s' structs are out of the
 * host's first-level cache by the time their SM ticks again. The rest (configuration, name,
 * statistics, the policies' side arrays) follows. */
struct gms_cache {
    const gms_mshr_ops *mo;
    void *mshr;
    uint64_t *tags;              /* nsets x assoc block addresses */
    gms_line *lines;
    const gms_index_ops *idx;
    uint64_t (*xform)(void *, uint64_t);
    void *xctx;
    struct set_memo *smemo;      /* set_of's memo (NULL: the set is computed every time) */
    const gms_repl_ops *repl;
    uint64_t line_mask;          /* line - 1 */
    uint32_t assoc, atom, line;
    uint32_t mq_cap;             /* cfg.miss_queue */
    uint32_t nlines;             /* nsets x assoc */
    int sector, on_miss;
    int use_map;                 /* MAP_MIN_ASSOC ways or more: match through `where`; else scan */
    char wp, wa;
    uint8_t wrbk_type, wr_alloc_type, is_l2;
    uint8_t part_on;             /* a per-owner MSHR / miss-queue partition (gms_cache_set_owner) */
    uint8_t ev_chk;              /* the current access called the MSHR's check (mshr_check) */
    uint32_t home_subpart;   /* of the last access: destination of flush write-backs */
    /* mo->any_ready(mshr), kept here after every MSHR call that can change it (mark_ready,
     * next_ready, take): the SM and the slice ask every cycle, and the MSHR table's own
     * struct is one more host line */
    int mshr_ready;
    /* the MSHR table's hint array (mo->hint_array; n 0 if none): a fill's entry is prefetched
     * from here, without a look at the table's struct */
    const char *mshr_hint_base;
    uint32_t mshr_hint_n, mshr_hint_stride;
    uint64_t now;                /* latest access, fill or hand-out time: the MSHR table's clock (set_clock) */
    uint64_t key_offset;         /* added to every replacement key (gms_cache_set_key_offset) */
    /* MSHR access cycles beyond the first (gms_mshr_latency - 1; 0 for the conventional
     * table's default 1, which GPGPU-Sim's single-cycle access already is): a primary miss
     * leaves the miss queue that many cycles later (docs/dlmshr.md, "Timing") */
    uint32_t mshr_extra;
    gms_mreq_fifo mq;            /* unbounded list; the capacity checks are GPGPU-Sim's */
    gms_index_state ist;
    gms_idxmap where;            /* block address -> line index of its latest allocation: O(1) tag match */
    uint32_t *set_used;          /* lines per set that are not INVALID (skips the invalid scan) */
    uint32_t *inv_top;           /* per set: every way at or above this index is non-INVALID */
    uint16_t *last_way;          /* narrow sets: the way last allocated or matched, tried first */
    /* wide sets (use_map): each set's ways in a list sorted by (key, way), so the victim is
     * the first non-reserved way from the head instead of a scan of every way (4 KB of lines
     * per allocation in the 256-way L1). NULL for narrow sets. */
    uint16_t *lru_prev, *lru_next;   /* per line: way index within its set, LRU_NIL at the ends */
    uint16_t *lru_head, *lru_tail;   /* per set */
    gms_mreq_pool *pool;
    gms_cache_config cfg;
    char name[48];
    gms_cache_stats st;
    /* UCP (src/cke/cke_ucp.c): victims only among ways [way_lo, way_hi); way_hi 0: any way */
    uint32_t way_lo, way_hi;
    /* UCP's quota enforcement (gms_cache_set_quota): each line's allocating app (NULL: off),
     * the current access's app and every app's quota in ways */
    uint8_t *q_own;
    uint32_t q_app, q_napps;
    uint32_t q_ways[GMS_CACHE_QUOTA_APPS];
    /* the partition (part_on): the current access's owner, its caps, and what each owner holds */
    uint32_t part_owner, part_mshr_max, part_mq_max;
    uint32_t own_mshr[GMS_CACHE_NO_OWNER], own_mq[GMS_CACHE_NO_OWNER];
    /* gms_cache_track_refusals: the MSHR's own event counts (NULL: not tracked), read before
     * the current access's check */
    gms_mshr_stats *mev;
    gms_mshr_ev ev0;
    /* PDP (gms_cache_pdp_enable; docs/mdb.md): each line's remaining protection distance, NULL
     * when off. Victims only among unprotected lines; a read the owner lets bypass that finds
     * none bypasses the cache (GMS_CACHE_BYPASS) */
    uint16_t *rpd;
    uint16_t pdp_pd;
    uint8_t pdp_may_bypass;      /* the current access may bypass (the owner says, per access) */
    uint8_t pdp_blocked;         /* the last victim search found only protected lines */
    uint8_t slow_victim;         /* a way range or PDP: probe's victim comes from victim_slow */
    uint8_t pdp_wrap;            /* gms_cache_access goes through pdp_access (PDP on, not inside it) */
    uint64_t pdp_bypassed, pdp_forced;
    uint64_t memcpy_dirty_dropped;   /* gms_cache_force_fill: modified victims dropped */
    /* eviction tracking (gms_cache_track_evictions): each line's owner, told of replacements */
    void (*evict_fn)(void *ctx, uint64_t blk, uint32_t owner);
    void *evict_ctx;
    uint32_t *line_owner;
    uint32_t cur_owner;          /* of the access (or fill) now allocating */
};

typedef struct evict {
    int wb;
    uint64_t addr;
    uint8_t smask;
    uint32_t bytes;
} evict;

/* ---------------------------------------------------------------- tag array */

/* From this associativity up, the tag match goes through the `where` map (the adaptive L1's
 * 256-way sets); below it, a scan of the set's contiguous tags (a few host cache lines) is
 * cheaper than a probe into a large hash table that, over 80 SMs and 64 L2 slices, does not
 * stay in the host's caches. */
#define MAP_MIN_ASSOC 33

/* after an MSHR call that can change which entries are ready (take, mark_ready, next_ready) */
static inline void mshr_ready_refresh(gms_cache *c) { c->mshr_ready = c->mo->any_ready(c->mshr); }

/* the block map: line-aligned keys, line indices < nl (empty below MAP_MIN_ASSOC ways) */
static void where_init(gms_cache *c, size_t nl)
{
    gms_idxmap_init(&c->where, c->use_map ? nl : 0, nl < UINT32_MAX ? (uint32_t)nl : UINT32_MAX,
                    (unsigned)__builtin_ctz(c->line));
}

static inline uint32_t set_of_raw(const gms_cache *c, uint64_t addr)
{
    if (c->xform) addr = c->xform(c->xctx, addr);
    return c->idx->index(&c->ist, addr);
}

/* set_of's memo (host speed): the L2 computes a request's set at its prefetch
 * (gms_cache_prefetch_access, as it enters the input queue) and again at its access; through
 * the partition-address transform and the I-Poly hash that is two indirect calls and about 80
 * host instructions. A direct-mapped table keyed by the whole address gives it back; each
 * entry always holds a true (address, set) pair, so a hit is exact whatever the functions
 * (pure ones of the address). Only for caches with a transform or a hashed index: a linear
 * index costs less than the lookup. */
#define SET_MEMO_LOG2 6
typedef struct set_memo { uint64_t addr; uint32_t set; } set_memo;

static inline uint32_t set_memo_slot(uint64_t addr)
{
    return (uint32_t)(((addr >> 5) * 0x9E3779B97F4A7C15ULL) >> (64 - SET_MEMO_LOG2));
}

static inline uint32_t set_of(const gms_cache *c, uint64_t addr)
{
    if (!c->smemo) return c->idx->index(&c->ist, addr);   /* no transform (set_memo_reset) */
    set_memo *e = &c->smemo[set_memo_slot(addr)];
    if (e->addr == addr) return e->set;
    uint32_t set = set_of_raw(c, addr);
    e->addr = addr;
    e->set = set;
    return set;
}

/* after the index or its transform is set: every entry a true pair (address 0 and its set) */
static void set_memo_reset(gms_cache *c)
{
    free(c->smemo);
    c->smemo = NULL;
    if (!c->xform && c->idx->kind == GMS_IDX_LINEAR) return;
    c->smemo = gms_xmalloc(sizeof *c->smemo << SET_MEMO_LOG2);
    uint32_t set0 = set_of_raw(c, 0);
    for (uint32_t i = 0; i < 1u << SET_MEMO_LOG2; i++) c->smemo[i] = (set_memo){ 0, set0 };
}

static inline uint8_t smask_of(const gms_cache *c, const gms_mreq *r)
{
    if (!c->sector) return 1;
    unsigned m = r->sector_mask & 0xFu;
    if (__builtin_popcount(m) == 1) return (uint8_t)m;   /* one sector (popcnt: one instruction) */
    return (uint8_t)(1u << ((r->addr >> 5) & 3));
}

static inline uint64_t mshr_key(const gms_cache *c, uint64_t blk, uint8_t sm)
{
    return c->sector ? blk + 32u * (uint32_t)__builtin_ctz(sm) : blk;
}

/* the victim of probe below when a way range is set (gms_cache_set_way_range) or PDP is on:
 * the same rule, the highest invalid way, else the non-reserved way with the smallest key,
 * ties to the lowest, among the range's ways only, and with PDP among the unprotected ones
 * (RPD 0). With PDP, if every non-reserved way is protected, the victim is the one the plain
 * rule picks and pdp_blocked is set (a read allowed to bypass does so; any other access
 * evicts it: docs/mdb.md). A plain scan: the set's invalid-way and LRU-list shortcuts
 * describe the whole set. */
static int victim_quota(gms_cache *c, const gms_line *ln, uint32_t base, uint32_t *idx);
static int victim_slow(gms_cache *c, const gms_line *ln, uint32_t base, uint32_t *idx)
{
    if (c->q_own) return victim_quota(c, ln, base, idx);
    uint32_t lo = c->way_lo, hi = c->way_hi && c->way_hi < c->assoc ? c->way_hi : c->assoc;
    c->pdp_blocked = 0;
    for (uint32_t w = hi; w-- > lo;)
        if (!(ln[w].valid | ln[w].reserved | ln[w].modified)) { *idx = base + w; return GMS_CACHE_MISS; }
    uint32_t vic = NOWAY, vic_open = NOWAY;
    uint64_t best = UINT64_MAX, best_open = UINT64_MAX;
    for (uint32_t w = lo; w < hi; w++) {
        if (ln[w].reserved) continue;
        if (ln[w].key < best) { best = ln[w].key; vic = w; }
        if (c->rpd && !c->rpd[base + w] && ln[w].key < best_open) { best_open = ln[w].key; vic_open = w; }
    }
    if (vic == NOWAY) return GMS_CACHE_RESERVATION_FAIL;
    if (c->rpd) {
        if (vic_open != NOWAY) vic = vic_open;
        else c->pdp_blocked = 1;
    }
    *idx = base + vic;
    return GMS_CACHE_MISS;
}

/* UCP's enforcement by quotas (Qureshi & Patt, MICRO 2006; gms_cache_set_quota): an invalid
 * way first (the highest, as the plain rule); else the app of the access, holding n of the
 * set's lines, evicts
 *  - with n below its quota: the LRU replaceable (non-reserved) line of an app holding more
 *    than its quota (a line allocated with quotas off counts as such), else of any other app,
 *    else its own;
 *  - with n at or above its quota: its own LRU replaceable line, or fails (with allocate-on-miss
 *    a kernel given few ways has that many line slots for its outstanding misses: spec 001 4.3).
 * Keys as the plain rule: the smallest, ties to the lowest way. PDP's protection is not
 * consulted here. */
static int victim_quota(gms_cache *c, const gms_line *ln, uint32_t base, uint32_t *idx)
{
    const uint8_t *own = c->q_own + base;
    uint32_t n = c->assoc, na = c->q_napps, a = c->q_app;
    for (uint32_t w = n; w-- > 0;)
        if (!(ln[w].valid | ln[w].reserved | ln[w].modified)) { *idx = base + w; return GMS_CACHE_MISS; }
    uint32_t cnt[GMS_CACHE_QUOTA_APPS + 1] = { 0 };
    for (uint32_t w = 0; w < n; w++) cnt[own[w] < na ? own[w] : na]++;
    /* pass 0: others over quota; 1: any other; 2: own (below quota); only 2 at or above it */
    for (int pass = cnt[a] < c->q_ways[a] ? 0 : 2; pass < 3; pass++) {
        uint32_t vic = NOWAY;
        uint64_t best = UINT64_MAX;
        for (uint32_t w = 0; w < n; w++) {
            if (ln[w].reserved || ln[w].key >= best) continue;
            uint32_t o = own[w] < na ? own[w] : na;
            int ok = pass == 2 ? o == a : o != a && (pass == 1 || o == na || cnt[o] > c->q_ways[o]);
            if (ok) { best = ln[w].key; vic = w; }
        }
        if (vic != NOWAY) { *idx = base + vic; return GMS_CACHE_MISS; }
    }
    return GMS_CACHE_RESERVATION_FAIL;
}

/* tag_array::probe. HIT / HIT_RESERVED / SECTOR_MISS on a tag match; else MISS with *idx the
 * victim (an invalid way, else the smallest key among non-reserved ways), or
 * RESERVATION_FAIL when every way is reserved. */
/* (always_inline, host speed: two callers, and the access path calls it on every attempt) */
static inline __attribute__((always_inline)) int probe(gms_cache *c, uint32_t set, uint64_t blk, uint8_t sm, int wr, uint32_t *idx, int need_victim)
{
    uint32_t base = set * c->assoc;
    const gms_line *ln = c->lines + base;
    uint32_t w = 0;
    /* tag match through the block map; equivalent to scanning the set: a block has at most one
     * non-INVALID way, and it is the one allocated last */
    uint64_t found = UINT64_MAX;
    if (c->use_map) {
        uint32_t at = gms_idxmap_get(&c->where, blk);
        if (at >= base && at < base + c->assoc) found = at;
    } else {   /* small sets: scanning the contiguous tags beats a hash probe into host memory */
        const uint64_t *tg = c->tags + base;
        /* Host speed: a valid way holding blk is the only one (see above), so when the way
         * last allocated or matched in this set holds it, the scan would find that way too
         * (the sectors of a line are often accessed one after another) */
        uint32_t h = c->last_way[set];
        if (tg[h] == blk && gms_line_is_valid(&ln[h])) found = base + h;
        else {
            /* Host speed: skip groups of 4 ways without a matching tag with one branch; the
             * way-by-way loop then finds the first valid match exactly as before */
            for (w = 0; w + 4 <= c->assoc; w += 4)
                if ((tg[w] == blk) | (tg[w + 1] == blk) | (tg[w + 2] == blk) | (tg[w + 3] == blk)) break;
            for (; w < c->assoc; w++)
                if (tg[w] == blk && gms_line_is_valid(&ln[w])) {
                    found = base + w;
                    c->last_way[set] = (uint16_t)w;
                    break;
                }
        }
    }
    if (found != UINT64_MAX) {
        const uint64_t *at = &found;
        const gms_line *l = &c->lines[*at];
        if (l->reserved & sm) { *idx = (uint32_t)*at; return GMS_CACHE_HIT_RESERVED; }
        if (l->valid & sm) { *idx = (uint32_t)*at; return GMS_CACHE_HIT; }
        if (l->modified & sm) {
            *idx = (uint32_t)*at;
            return (wr || !(l->unreadable & sm)) ? GMS_CACHE_HIT : GMS_CACHE_SECTOR_MISS;
        }
        if (gms_line_is_valid(l)) { *idx = (uint32_t)*at; return GMS_CACHE_SECTOR_MISS; }
    }
    if (__builtin_expect(c->slow_victim, 0)) return victim_slow(c, ln, base, idx);
    /* victim: GPGPU-Sim keeps the LAST invalid way, so scan from the top for it */
    if (c->set_used[set] < c->assoc) for (w = c->inv_top[set]; w-- > 0;) {
        if (!(ln[w].valid | ln[w].reserved | ln[w].modified)) {
            c->inv_top[set] = w + 1;   /* ways above w are in use: the next scan starts here */
            *idx = base + w;
            return GMS_CACHE_MISS;
        }
    }
    /* all ways hold data: the non-reserved one with the smallest key, ties to the lowest way */
    if (!need_victim) {   /* host speed: only MISS vs RESERVATION_FAIL matters (see the caller) */
        for (w = 0; w < c->assoc; w++)
            if (!ln[w].reserved) { *idx = base + w; return GMS_CACHE_MISS; }
        return GMS_CACHE_RESERVATION_FAIL;
    }
    if (c->lru_next) {   /* the list is sorted by (key, way): its first non-reserved way */
        for (uint32_t v = c->lru_head[set]; v != LRU_NIL; v = c->lru_next[base + v])
            if (!ln[v].reserved) { *idx = base + v; return GMS_CACHE_MISS; }
        return GMS_CACHE_RESERVATION_FAIL;
    }
    uint32_t vic = NOWAY;
    uint64_t best = UINT64_MAX;
    /* keys are cycles, never UINT64_MAX. Key test first: most ways are not a new minimum,
     * so most iterations are one load and one compare (the 256-way L1 scans every way) */
    for (w = 0; w < c->assoc; w++)
        if (ln[w].key < best && !ln[w].reserved) { best = ln[w].key; vic = w; }
    if (vic == NOWAY) return GMS_CACHE_RESERVATION_FAIL;
    *idx = base + vic;
    return GMS_CACHE_MISS;
}

/* a line became INVALID: count it and let the invalid-way scan see it again */
static void line_freed(gms_cache *c, uint32_t idx)
{
    uint32_t set = idx / c->assoc, w = idx % c->assoc;
    c->set_used[set]--;
    if (w + 1 > c->inv_top[set]) c->inv_top[set] = w + 1;
}

/* (re)build every set's list: ways sorted by (key, way); keys are all 0 on a new array */
static void lru_init(gms_cache *c)
{
    free(c->lru_prev); free(c->lru_next); free(c->lru_head); free(c->lru_tail);
    c->lru_prev = c->lru_next = c->lru_head = c->lru_tail = NULL;
    if (!c->use_map || c->assoc >= LRU_NIL) return;
    size_t nl = (size_t)c->cfg.nsets * c->assoc;
    c->lru_prev = gms_xmalloc(nl * sizeof *c->lru_prev);
    c->lru_next = gms_xmalloc(nl * sizeof *c->lru_next);
    c->lru_head = gms_xmalloc(c->cfg.nsets * sizeof *c->lru_head);
    c->lru_tail = gms_xmalloc(c->cfg.nsets * sizeof *c->lru_tail);
    for (uint32_t set = 0; set < c->cfg.nsets; set++) {
        uint32_t base = set * c->assoc;
        for (uint32_t w = 0; w < c->assoc; w++) {
            c->lru_prev[base + w] = (uint16_t)(w ? w - 1 : LRU_NIL);
            c->lru_next[base + w] = (uint16_t)(w + 1 < c->assoc ? w + 1 : LRU_NIL);
        }
        c->lru_head[set] = 0;
        c->lru_tail[set] = (uint16_t)(c->assoc - 1);
    }
}

/* line idx has a new key: move it to its place, searching from the tail (a new key is the
 * current cycle, the largest, so the search normally stops at once) */
static void lru_move(gms_cache *c, uint32_t idx)
{
    uint32_t set = idx / c->assoc, base = set * c->assoc, w = idx - base;
    uint16_t *pv = c->lru_prev + base, *nx = c->lru_next + base;
    const gms_line *ln = c->lines + base;
    if (pv[w] != LRU_NIL) nx[pv[w]] = nx[w]; else c->lru_head[set] = nx[w];
    if (nx[w] != LRU_NIL) pv[nx[w]] = pv[w]; else c->lru_tail[set] = pv[w];
    uint64_t k = ln[w].key;
    uint32_t p = c->lru_tail[set];
    while (p != LRU_NIL && (ln[p].key > k || (ln[p].key == k && p > w))) p = pv[p];
    pv[w] = (uint16_t)p;
    if (p == LRU_NIL) {
        nx[w] = c->lru_head[set];
        c->lru_head[set] = (uint16_t)w;
    } else {
        nx[w] = nx[p];
        nx[p] = (uint16_t)w;
    }
    if (nx[w] != LRU_NIL) pv[nx[w]] = (uint16_t)w; else c->lru_tail[set] = (uint16_t)w;
}

/* every change of a line's replacement key goes through these two */
static inline void repl_alloc(gms_cache *c, gms_line *l, uint64_t now)
{
    uint64_t old = l->key;
    c->repl->on_alloc(l, now + c->key_offset);
    if (c->lru_next && l->key != old) lru_move(c, (uint32_t)(l - c->lines));
}
static inline void repl_access(gms_cache *c, gms_line *l, uint64_t now)
{
    uint64_t old = l->key;
    c->repl->on_access(l, now + c->key_offset);
    if (c->lru_next && l->key != old) lru_move(c, (uint32_t)(l - c->lines));
}

/* a valid line is replaced: its owner hears of it (cold: only with eviction tracking) */
static __attribute__((cold, noinline)) void track_alloc(gms_cache *c, uint32_t idx)
{
    if (c->lines[idx].valid | c->lines[idx].modified)
        c->evict_fn(c->evict_ctx, c->tags[idx], c->line_owner[idx]);
    c->line_owner[idx] = c->cur_owner;
}

static void alloc_line(gms_cache *c, uint32_t idx, uint64_t blk, uint8_t sm, uint64_t now)
{
    gms_line *l = &c->lines[idx];
    if (__builtin_expect(c->evict_fn != NULL, 0)) track_alloc(c, idx);
    if (__builtin_expect(c->q_own != NULL, 0)) c->q_own[idx] = (uint8_t)c->q_app;
    if (!gms_line_is_valid(l)) c->set_used[idx / c->assoc]++;
    if (c->use_map) {
        gms_idxmap_del_if(&c->where, c->tags[idx], idx);   /* its old block, if still here */
        gms_idxmap_put(&c->where, blk, idx);
    } else {
        c->last_way[idx / c->assoc] = (uint16_t)(idx % c->assoc);
    }
    c->tags[idx] = blk;
    l->valid = l->modified = 0;
    l->reserved = sm;
    l->unreadable = l->mod_on_fill = l->readable_on_fill = 0;
    if (__builtin_expect(c->rpd != NULL, 0)) {   /* PDP: inserted, protected */
        c->rpd[idx] = c->pdp_pd;
        if (c->pdp_blocked) { c->pdp_forced++; c->pdp_blocked = 0; }   /* it evicted a protected line */
    }
    repl_alloc(c, l, now);
}

/* (always_inline: host speed, a few instructions on the miss path) */
static inline __attribute__((always_inline)) void alloc_sector(gms_cache *c, gms_line *l, uint8_t sm, uint64_t now)
{
    if (l->modified & sm) l->mod_on_fill |= sm; else l->mod_on_fill &= (uint8_t)~sm;
    l->readable_on_fill &= (uint8_t)~sm;
    l->valid &= (uint8_t)~sm;
    l->modified &= (uint8_t)~sm;
    l->unreadable &= (uint8_t)~sm;
    l->reserved |= sm;
    repl_access(c, l, now);
}

static inline __attribute__((always_inline)) void fill_sector(gms_line *l, uint8_t sm)
{
    l->reserved &= (uint8_t)~sm;
    if (l->mod_on_fill & sm) { l->modified |= sm; l->valid &= (uint8_t)~sm; }
    else { l->valid |= sm; l->modified &= (uint8_t)~sm; }
    if (l->readable_on_fill & sm) {
        l->unreadable &= (uint8_t)~sm;
        l->readable_on_fill &= (uint8_t)~sm;
    }
}

static inline void set_modified(gms_line *l, uint8_t sm)
{
    l->valid &= (uint8_t)~sm;
    l->reserved &= (uint8_t)~sm;
    l->modified |= sm;
}

static inline void note_evict(const gms_cache *c, uint32_t idx, evict *ev)
{
    const gms_line *l = &c->lines[idx];
    if (!l->modified) return;
    ev->wb = 1;
    ev->addr = c->tags[idx];
    ev->smask = c->sector ? l->modified : 0xF;
    ev->bytes = c->sector ? 32u * (uint32_t)__builtin_popcount(l->modified) : c->line;
}

/* tag_array::access after a probe that returned `status` at idx */
/* (always_inline: host speed, each caller knows some of the arguments) */
static inline __attribute__((always_inline)) void tag_access(gms_cache *c, int status, uint32_t idx, uint64_t blk, uint8_t sm,
                       uint64_t now, evict *ev)
{
    gms_line *l = &c->lines[idx];
    switch (status) {
    case GMS_CACHE_HIT_RESERVED:
    case GMS_CACHE_HIT:
        repl_access(c, l, now);
        break;
    case GMS_CACHE_MISS:
        if (c->on_miss) {
            note_evict(c, idx, ev);
            alloc_line(c, idx, blk, sm, now);
        }
        break;
    case GMS_CACHE_SECTOR_MISS:
        if (c->on_miss) alloc_sector(c, l, sm, now);
        break;
    default:
        break;
    }
}

/* ---------------------------------------------------------------- requests */

/* the partition's miss-queue test: the owner's entries against its cap, with GPGPU-Sim's
 * `extra` as for the whole queue */
static int part_mq_full(const gms_cache *c, uint32_t extra)
{
    return c->part_owner < GMS_CACHE_NO_OWNER && c->own_mq[c->part_owner] + extra >= c->part_mq_max;
}

static inline int mq_full(const gms_cache *c, uint32_t extra)
{
    if (__builtin_expect(c->part_on, 0) && part_mq_full(c, extra)) return 1;
    return c->mq.n + extra >= c->mq_cap;
}

/* with an MSHR latency, t_ready is when r may leave (gms_cache_mq_ready); only the primary
 * misses of send_read wait longer */
static inline void mq_push(gms_cache *c, gms_mreq *r)
{
    if (c->mshr_extra) r->t_ready = c->now;
    if (__builtin_expect(c->part_on, 0) && c->part_owner < GMS_CACHE_NO_OWNER) {
        r->part = (uint8_t)(c->part_owner | 8u);
        c->own_mq[c->part_owner]++;
    }
    gms_fifo_push(&c->mq, r);
}

static void send_wrbk(gms_cache *c, const gms_mreq *cause, const evict *ev, uint64_t now)
{
    gms_mreq *w = gms_mreq_alloc(c->pool);
    w->addr = ev->addr;
    w->bytes = ev->bytes;
    w->sector_mask = ev->smask;
    w->kind = GMS_MREQ_WRITE;
    w->access = c->wrbk_type;
    w->sm = c->is_l2 ? UINT16_MAX : cause->sm;
    w->warp = UINT16_MAX;
    /* same slice as the request that evicted it (GPGPU-Sim copies chip and partition) */
    w->subpart = cause->subpart;
    w->t_issue = now;
    mq_push(c, w);
}

static gms_mreq *new_alloc_read(gms_cache *c, const gms_mreq *r, uint64_t now)
{
    gms_mreq *n = gms_mreq_alloc(c->pool);
    n->addr = r->addr;
    n->bytes = c->atom;
    n->sector_mask = r->sector_mask;
    n->kind = GMS_MREQ_READ;
    n->access = c->wr_alloc_type;
    n->sm = r->sm;
    n->warp = r->warp;
    n->subpart = r->subpart;
    n->t_issue = now;
    return n;
}

/* the MSHR's check, with its events marked for gms_cache_refusal_events when tracked */
static inline int mshr_check(gms_cache *c, uint64_t key, int *hit)
{
    if (__builtin_expect(c->mev != NULL, 0)) {
        c->ev0 = gms_mshr_ev_read(c->mev);
        c->ev_chk = 1;
    }
    return c->mo->check(c->mshr, key, hit);
}

static inline unsigned acc_type(const gms_mreq *r)
{
    return r->access < GMS_ACC__COUNT ? r->access : 0;
}

/* baseline_cache::send_read_request: merge into the MSHR, or allocate an entry and put r on
 * the miss queue. Sets *do_miss, or *cause. flags gets SENT/WAIT for r. send_read checks the
 * MSHR itself; send_read_checked takes the result (rc, hit) of a check of key made just before
 * (a write-allocate miss checks once, in wa_check: a check is one search of the table, counted
 * in gms_X_mshr_searches, and DL-MSHR's counts a link stall when it refuses a merge).
 * (always_inline: host speed, the read miss path) */
static inline __attribute__((always_inline)) void send_read_checked(gms_cache *c, gms_mreq *r, int status, uint32_t idx,
                      uint64_t blk, uint8_t sm, uint64_t key, int rc, int hit, uint64_t now, int *do_miss,
                      evict *ev, int *cause, int *flags)
{
    /* a partition: a new entry only within the owner's share (merging is free) */
    if (__builtin_expect(c->part_on, 0) && rc == 0 && !hit && c->part_owner < GMS_CACHE_NO_OWNER &&
        c->own_mshr[c->part_owner] >= c->part_mshr_max)
        rc = GMS_RF_MSHR_ENTRY;
    if (rc == 0 && hit) {
        /* An entry already filled (hit 2: its waiters are being handed out, one a cycle)
         * gets no other fill: the line (sector) the tag array would reserve for r now, its
         * first line evicted since the fill, would stay reserved for ever, and once every way
         * of a set is such a line each miss to the set fails (issue 19; GPGPU-Sim reserves it,
         * docs/cache.md). r just rides along and is handed out with the entry, as GPGPU-Sim;
         * the tag array is left alone. */
        if (hit == 1) tag_access(c, status, idx, blk, sm, now, ev);
        c->mo->add(c->mshr, key, r, 1, NULL);
        c->st.acc[acc_type(r)][GMS_CACHE_MSHR_HIT]++;
        *do_miss = 1;
        *flags |= GMS_CACHE_WAIT;
    } else if (rc == 0 && !mq_full(c, 0)) {
        tag_access(c, status, idx, blk, sm, now, ev);
        gms_mshr_info info = { r->addr, r->bytes, idx, 0 };
        r->mshr_hint[c->is_l2 ? 1 : 0] = (uint16_t)c->mo->add(c->mshr, key, r, 1, &info);
        r->line_hint[c->is_l2 ? 1 : 0] = (uint16_t)idx;
        r->addr = key;
        r->bytes = c->atom;
        mq_push(c, r);
        if (__builtin_expect(c->part_on, 0) && c->part_owner < GMS_CACHE_NO_OWNER) {
            r->part |= 4u;
            c->own_mshr[c->part_owner]++;
        }
        /* the owner drains it at now + 1 at the earliest (before that cycle's accesses) */
        if (c->mshr_extra) r->t_ready = now + 1 + c->mshr_extra;
        *do_miss = 1;
        *flags |= GMS_CACHE_WAIT | GMS_CACHE_SENT;
    } else {
        *cause = rc ? rc : GMS_RF_MISS_QUEUE_FULL;
    }
}

static inline __attribute__((always_inline)) void send_read(gms_cache *c, gms_mreq *r, int status, uint32_t idx, uint64_t blk,
                      uint8_t sm, uint64_t now, int *do_miss, evict *ev, int *cause, int *flags)
{
    uint64_t key = mshr_key(c, blk, sm);
    int hit = 0;
    int rc = mshr_check(c, key, &hit);
    send_read_checked(c, r, status, idx, blk, sm, key, rc, hit, now, do_miss, ev, cause, flags);
}

/* whether a write fills its whole sector (line) with data. gms_mreq has no byte mask: we take
 * `bytes` as the bytes written (see docs/cache.md) */
static inline int write_covers(const gms_cache *c, const gms_mreq *r)
{
    return r->bytes >= c->atom;
}

/* ---------------------------------------------------------------- policies */

static int rd_hit(gms_cache *c, gms_mreq *r, uint32_t idx, uint8_t sm, uint64_t now)
{
    gms_line *l = &c->lines[idx];
    repl_access(c, l, now);
    if (r->kind == GMS_MREQ_ATOMIC) set_modified(l, sm);
    return GMS_CACHE_HIT;
}

static int rd_miss(gms_cache *c, gms_mreq *r, int status, uint32_t idx, uint64_t blk, uint8_t sm,
                   uint64_t now, int *cause, int *flags)
{
    if (mq_full(c, 1)) { *cause = GMS_RF_MISS_QUEUE_FULL; return GMS_CACHE_RESERVATION_FAIL; }
    int do_miss = 0;
    evict ev = { 0 };
    send_read(c, r, status, idx, blk, sm, now, &do_miss, &ev, cause, flags);
    if (!do_miss) return GMS_CACHE_RESERVATION_FAIL;
    if (ev.wb && c->wp != 'T') send_wrbk(c, r, &ev, now);
    return GMS_CACHE_MISS;
}

static int wr_hit_wb(gms_cache *c, gms_mreq *r, uint32_t idx, uint8_t sm, uint64_t now)
{
    gms_line *l = &c->lines[idx];
    repl_access(c, l, now);
    set_modified(l, sm);
    if (write_covers(c, r)) l->unreadable &= (uint8_t)~sm;
    return GMS_CACHE_HIT;
}

static int wr_hit_wt(gms_cache *c, gms_mreq *r, uint32_t idx, uint8_t sm, uint64_t now,
                     int *cause, int *flags)
{
    if (mq_full(c, 0)) { *cause = GMS_RF_MISS_QUEUE_FULL; return GMS_CACHE_RESERVATION_FAIL; }
    wr_hit_wb(c, r, idx, sm, now);
    mq_push(c, r);
    *flags |= GMS_CACHE_SENT;
    return GMS_CACHE_HIT;
}

static int wr_hit_we(gms_cache *c, gms_mreq *r, uint32_t idx, uint8_t sm, int *cause, int *flags)
{
    if (mq_full(c, 0)) { *cause = GMS_RF_MISS_QUEUE_FULL; return GMS_CACHE_RESERVATION_FAIL; }
    gms_line *l = &c->lines[idx];
    mq_push(c, r);
    *flags |= GMS_CACHE_SENT;
    l->valid &= (uint8_t)~sm;
    l->modified &= (uint8_t)~sm;
    l->reserved &= (uint8_t)~sm;
    if (!gms_line_is_valid(l)) line_freed(c, idx);
    return GMS_CACHE_HIT;
}

static int wr_hit(gms_cache *c, gms_mreq *r, uint32_t idx, uint8_t sm, uint64_t now, int *cause, int *flags)
{
    switch (c->wp) {
    case 'B': return wr_hit_wb(c, r, idx, sm, now);
    case 'T': return wr_hit_wt(c, r, idx, sm, now, cause, flags);
    case 'L':
        if (r->access == GMS_ACC_GLOBAL_W) return wr_hit_we(c, r, idx, sm, cause, flags);
        return wr_hit_wb(c, r, idx, sm, now);
    default:  /* 'E', and 'R' (a write to a read-only cache: evict and send) */
        return wr_hit_we(c, r, idx, sm, cause, flags);
    }
}

static int wr_miss_no_wa(gms_cache *c, gms_mreq *r, int *cause, int *flags)
{
    if (mq_full(c, 0)) { *cause = GMS_RF_MISS_QUEUE_FULL; return GMS_CACHE_RESERVATION_FAIL; }
    mq_push(c, r);
    *flags |= GMS_CACHE_SENT;
    return GMS_CACHE_MISS;
}

/* mshr availability check shared by the write-allocate variants (GPGPU-Sim order: miss queue,
 * then merge, then entry). The MSHR is consulted only once the miss queue has room: GPGPU-Sim's
 * probe and full() have no side effect, but DL-MSHR's check counts a refused merge as a link
 * stall (and moves the tail's FSM to S4/S9), which an attempt recorded as MISS_QUEUE_FULL
 * never reached. On success *hit is the check's, for send_read_checked. */
static int wa_check(gms_cache *c, uint64_t key, uint32_t mq_extra, int *hit, int *cause)
{
    if (mq_full(c, mq_extra)) { *cause = GMS_RF_MISS_QUEUE_FULL; return -1; }
    int rc = mshr_check(c, key, hit);
    if (rc) { *cause = rc; return -1; }
    if (!*hit && c->mq.n >= c->mq_cap) { *cause = GMS_RF_MISS_QUEUE_FULL; return -1; }
    return 0;
}

/* 'W': send the write and a read for the block (GPGPU-Sim 3.x write-allocate) */
static int wr_miss_naive(gms_cache *c, gms_mreq *r, int status, uint32_t idx, uint64_t blk,
                         uint8_t sm, uint64_t now, int *cause, int *flags)
{
    int hit;
    uint64_t key = mshr_key(c, blk, sm);
    if (wa_check(c, key, 2, &hit, cause)) return GMS_CACHE_RESERVATION_FAIL;
    mq_push(c, r);
    *flags |= GMS_CACHE_SENT;
    gms_mreq *n = new_alloc_read(c, r, now);
    int do_miss = 0, nflags = 0, ncause = RF_NONE;
    evict ev = { 0 };
    send_read_checked(c, n, status, idx, blk, sm, key, 0, hit, now, &do_miss, &ev, &ncause, &nflags);
    if (!do_miss) { gms_mreq_release(c->pool, n); return GMS_CACHE_MISS; }  /* unreachable */
    if (ev.wb && c->wp != 'T') send_wrbk(c, r, &ev, now);
    return GMS_CACHE_MISS;
}

/* 'F' without a fetch: the sector is written now and becomes MODIFIED */
static int fow_write_now(gms_cache *c, gms_mreq *r, int status, uint32_t idx, uint64_t blk,
                         uint8_t sm, uint64_t now)
{
    evict ev = { 0 };
    tag_access(c, status, idx, blk, sm, now, &ev);
    gms_line *l = &c->lines[idx];
    set_modified(l, sm);
    /* a fill still coming for the sector must leave it MODIFIED (GPGPU-Sim's ignore_on_fill;
     * else the fill would turn the written sector back to VALID and the write-back be lost) */
    if (status == GMS_CACHE_HIT_RESERVED) l->mod_on_fill |= sm;
    if (ev.wb && c->wp != 'T') send_wrbk(c, r, &ev, now);
    return GMS_CACHE_MISS;
}

/* 'F': fetch-on-write */
static int wr_miss_fow(gms_cache *c, gms_mreq *r, int status, uint32_t idx, uint64_t blk,
                       uint8_t sm, uint64_t now, int *cause, int *flags)
{
    evict ev = { 0 };
    if (write_covers(c, r)) {
        /* whole sector written: no fetch, no MSHR */
        if (mq_full(c, 0)) { *cause = GMS_RF_MISS_QUEUE_FULL; return GMS_CACHE_RESERVATION_FAIL; }
        return fow_write_now(c, r, status, idx, blk, sm, now);
    }
    uint64_t key = mshr_key(c, blk, sm);
    int hit;
    if (wa_check(c, key, 1, &hit, cause)) return GMS_CACHE_RESERVATION_FAIL;
    if (hit && c->mo->rw_pending(c->mshr, key)) { *cause = GMS_RF_MSHR_RW_PENDING; return GMS_CACHE_RESERVATION_FAIL; }
    /* the sector's fetch has already come back (its entry is handing out its waiters): the
     * bytes the write lacks are here, so it is written now like a whole-sector write; waiting
     * behind that entry would mark a line modified-on-fill that no fill reaches (send_read) */
    if (hit == 2) return fow_write_now(c, r, status, idx, blk, sm, now);
    gms_mreq *n = new_alloc_read(c, r, now);
    int do_miss = 0, nflags = 0, ncause = RF_NONE;
    send_read_checked(c, n, status, idx, blk, sm, key, 0, hit, now, &do_miss, &ev, &ncause, &nflags);
    /* (not reached: wa_check has seen to what send_read needs; a failed access must change
     * nothing but the statistics, gms_cache_count_reservation_fail) */
    if (!do_miss) { gms_mreq_release(c->pool, n); *cause = ncause; return GMS_CACHE_RESERVATION_FAIL; }
    c->lines[idx].mod_on_fill |= sm;
    /* the write waits behind the fetch (GPGPU-Sim replies to it when the fetch fills) */
    c->mo->add(c->mshr, key, r, 0, NULL);
    *flags |= GMS_CACHE_WAIT;
    if (ev.wb && c->wp != 'T') send_wrbk(c, r, &ev, now);
    return GMS_CACHE_MISS;
}

/* 'L': lazy fetch-on-read: allocate and write now, fetch only if a read needs the rest */
static int wr_miss_lazy(gms_cache *c, gms_mreq *r, int status, uint32_t idx, uint64_t blk,
                        uint8_t sm, uint64_t now, int *cause, int *flags)
{
    if (mq_full(c, 0)) { *cause = GMS_RF_MISS_QUEUE_FULL; return GMS_CACHE_RESERVATION_FAIL; }
    if (c->wp == 'T') { mq_push(c, r); *flags |= GMS_CACHE_SENT; }
    evict ev = { 0 };
    tag_access(c, status, idx, blk, sm, now, &ev);
    gms_line *l = &c->lines[idx];
    set_modified(l, sm);
    if (status == GMS_CACHE_HIT_RESERVED) l->mod_on_fill |= sm;
    if (write_covers(c, r)) l->unreadable &= (uint8_t)~sm;
    else {
        l->unreadable |= sm;
        if (status == GMS_CACHE_HIT_RESERVED) l->readable_on_fill |= sm;
    }
    if (ev.wb && c->wp != 'T') send_wrbk(c, r, &ev, now);
    return GMS_CACHE_MISS;
}

static int wr_miss(gms_cache *c, gms_mreq *r, int status, uint32_t idx, uint64_t blk, uint8_t sm,
                   uint64_t now, int *cause, int *flags)
{
    switch (c->wa) {
    case 'W': return wr_miss_naive(c, r, status, idx, blk, sm, now, cause, flags);
    case 'F': return wr_miss_fow(c, r, status, idx, blk, sm, now, cause, flags);
    case 'L': return wr_miss_lazy(c, r, status, idx, blk, sm, now, cause, flags);
    default: return wr_miss_no_wa(c, r, cause, flags);
    }
}

/* read_only_cache::access (write policy 'R') for reads */
static int ro_read(gms_cache *c, gms_mreq *r, int status, uint32_t idx, uint64_t blk, uint8_t sm,
                   uint64_t now, int *cause, int *flags)
{
    if (status == GMS_CACHE_HIT) {
        repl_access(c, &c->lines[idx], now);
        return GMS_CACHE_HIT;
    }
    if (status == GMS_CACHE_RESERVATION_FAIL) { *cause = GMS_RF_LINE_ALLOC; return status; }
    if (mq_full(c, 0)) { *cause = GMS_RF_MISS_QUEUE_FULL; return GMS_CACHE_RESERVATION_FAIL; }
    int do_miss = 0;
    evict ev = { 0 };
    send_read(c, r, status, idx, blk, sm, now, &do_miss, &ev, cause, flags);
    return do_miss ? GMS_CACHE_MISS : GMS_CACHE_RESERVATION_FAIL;
}

/* ---------------------------------------------------------------- public */

static inline __attribute__((always_inline)) int access_body(gms_cache *c, gms_mreq *req, uint64_t now,
                                                            gms_rf_cause *cause_out)
{
    c->now = now;
    c->ev_chk = 0;
    int wr = req->kind == GMS_MREQ_WRITE;
    c->home_subpart = req->subpart;
    uint64_t blk = req->addr & ~c->line_mask;
    uint8_t sm = smask_of(c, req);
    uint32_t idx = 0;
    /* Host speed: with the miss queue full, every miss path below fails with MISS_QUEUE_FULL
     * before it uses the victim (rd_miss, ro_read and each wr_miss variant test mq_full(c, k),
     * k >= 0, first), so the probe need not search the set for the LRU victim; a retried
     * access (counted per attempt) would otherwise scan all 256 ways of the adaptive L1 every
     * cycle. Keep this true if a miss path changes. */
    int status = probe(c, set_of(c, req->addr), blk, sm, wr, &idx, !mq_full(c, 0));
    int st = status, cause = RF_NONE, flags = 0;
    if (wr) {
        if (status == GMS_CACHE_HIT) st = wr_hit(c, req, idx, sm, now, &cause, &flags);
        else if (status != GMS_CACHE_RESERVATION_FAIL || c->wa == 'N')
            st = wr_miss(c, req, status, idx, blk, sm, now, &cause, &flags);
        else cause = GMS_RF_LINE_ALLOC;
    } else if (c->wp == 'R') {
        st = ro_read(c, req, status, idx, blk, sm, now, &cause, &flags);
    } else {
        if (status == GMS_CACHE_HIT) st = rd_hit(c, req, idx, sm, now);
        else if (status != GMS_CACHE_RESERVATION_FAIL)
            st = rd_miss(c, req, status, idx, blk, sm, now, &cause, &flags);
        else cause = GMS_RF_LINE_ALLOC;
    }
    /* cache_stats::select_stats_status */
    int rec = st;
    if (status == GMS_CACHE_HIT_RESERVED && st != GMS_CACHE_RESERVATION_FAIL) rec = status;
    else if (status == GMS_CACHE_SECTOR_MISS && st == GMS_CACHE_MISS) rec = status;
    if (st == GMS_CACHE_RESERVATION_FAIL) {
        if (cause == RF_NONE) cause = GMS_RF_LINE_ALLOC;
        gms_cache_count_reservation_fail(c, req, (gms_rf_cause)cause);
        if (cause_out) *cause_out = (gms_rf_cause)cause;
        return st;
    }
    unsigned t = acc_type(req);
    c->st.acc[t][rec]++;
    c->st.total_access[t]++;
    return rec | flags;
}

/* PDP: an access to the set (not a reservation fail) lowers every line's RPD by one; the line
 * now holding the block (hit, or allocated by this access) is protected anew */
static void pdp_touch(gms_cache *c, uint32_t set, uint64_t blk)
{
    uint32_t base = set * c->assoc;
    for (uint32_t w = 0; w < c->assoc; w++)
        if (c->rpd[base + w]) c->rpd[base + w]--;
    for (uint32_t w = 0; w < c->assoc; w++)
        if (c->tags[base + w] == blk && gms_line_is_valid(&c->lines[base + w])) {
            c->rpd[base + w] = c->pdp_pd;
            break;
        }
}

/* PDP around an access (cold: one test on every other cache's path; kept out of the access
 * itself so that the access's miss and write paths stay inlined in one copy). Before: a read
 * the owner lets bypass, missing with every non-reserved line of its set protected, is a
 * bypass (1), and nothing is changed or counted. */
static __attribute__((cold, noinline)) int pdp_bypasses(gms_cache *c, const gms_mreq *req)
{
    c->pdp_blocked = 0;
    if (!c->pdp_may_bypass || req->kind != GMS_MREQ_READ) return 0;
    uint32_t idx;
    int st = probe(c, set_of(c, req->addr), req->addr & ~c->line_mask, smask_of(c, req), 0, &idx, 1);
    int byp = st == GMS_CACHE_MISS && c->pdp_blocked;
    c->pdp_blocked = 0;
    return byp;
}

/* after: an access that was not a reservation fail touches the set (pdp_touch) */
static __attribute__((cold, noinline)) void pdp_after(gms_cache *c, uint64_t addr, int rc)
{
    c->pdp_blocked = 0;
    if (GMS_CACHE_OUTCOME(rc) != GMS_CACHE_RESERVATION_FAIL) pdp_touch(c, set_of(c, addr), addr & ~c->line_mask);
}

/* the access with PDP on: the bypass test, the access itself (through gms_cache_access with
 * pdp_wrap cleared, so that the access's body exists in one inlined copy: a second copy made
 * GCC take its miss and write paths out of line, +1% host instructions on a trace), the touch */
static __attribute__((cold, noinline)) int pdp_access(gms_cache *c, gms_mreq *req, uint64_t now, gms_rf_cause *cause_out)
{
    if (pdp_bypasses(c, req)) return GMS_CACHE_MISS | GMS_CACHE_BYPASS;
    uint64_t addr = req->addr;   /* the access may rewrite it (a primary miss carries the MSHR key) */
    c->pdp_wrap = 0;
    int rc = gms_cache_access(c, req, now, cause_out);
    c->pdp_wrap = 1;
    pdp_after(c, addr, rc);
    return rc;
}

int gms_cache_access(gms_cache *c, gms_mreq *req, uint64_t now, gms_rf_cause *cause_out)
{
    if (__builtin_expect(c->pdp_wrap, 0)) return pdp_access(c, req, now, cause_out);
    return access_body(c, req, now, cause_out);
}

void gms_cache_pdp_enable(gms_cache *c)
{
    if (!c->rpd) c->rpd = gms_xcalloc(c->nlines, sizeof *c->rpd);
    c->slow_victim = 1;
    c->pdp_wrap = 1;
}

void gms_cache_pdp_set_pd(gms_cache *c, uint32_t pd) { c->pdp_pd = (uint16_t)(pd < UINT16_MAX ? pd : UINT16_MAX); }

void gms_cache_pdp_may_bypass(gms_cache *c, int yes) { c->pdp_may_bypass = (uint8_t)(yes != 0); }

void gms_cache_pdp_bypassed(gms_cache *c, uint64_t addr)
{
    if (!c->rpd) return;
    c->pdp_bypassed++;
    pdp_touch(c, set_of(c, addr), UINT64_MAX);   /* a bypass is an access to the set too */
}

void gms_cache_track_evictions(gms_cache *c, void (*fn)(void *ctx, uint64_t blk, uint32_t owner), void *ctx)
{
    c->evict_fn = fn;
    c->evict_ctx = ctx;
    free(c->line_owner);
    c->line_owner = gms_xmalloc((size_t)c->nlines * sizeof *c->line_owner);
    for (uint32_t i = 0; i < c->nlines; i++) c->line_owner[i] = GMS_CACHE_NO_LINE_OWNER;
    c->cur_owner = GMS_CACHE_NO_LINE_OWNER;
}

void gms_cache_set_alloc_owner(gms_cache *c, uint32_t owner) { c->cur_owner = owner; }

void gms_cache_pdp_counts(const gms_cache *c, uint64_t *bypassed, uint64_t *forced)
{
    *bypassed = c->pdp_bypassed;
    *forced = c->pdp_forced;
}

/* the tag-array side of a fill (baseline_cache::fill): primary is the entry's first request */
static void fill_tags(gms_cache *c, gms_mreq *primary, const gms_mshr_info *info, uint64_t key, uint8_t sm,
                      uint64_t now)
{
    uint64_t blk = key & ~c->line_mask;
    uint32_t idx = info->line_idx;
    if (c->on_miss) {
        /* The line reserved at the miss, while it still holds the block. A write can have
         * made it replaceable meanwhile (lazy or fetch-on-write: MODIFIED, modified-on-fill);
         * if it was then evicted, the line now holding the block, if the sector waits there
         * (a read merged into this entry after the eviction reserved it), takes the fill;
         * a line of another block is never touched. GPGPU-Sim fills the index blindly: it
         * validates the other block's sector early and leaves the new reservation unfilled
         * for ever (docs/cache.md, issue 19). */
        if (c->tags[idx] != blk || !gms_line_is_valid(&c->lines[idx])) {
            uint32_t at;
            if (probe(c, set_of(c, blk), blk, sm, 0, &at, 0) != GMS_CACHE_HIT_RESERVED) return;
            idx = at;
        }
        fill_sector(&c->lines[idx], sm);
    } else {
        int status = probe(c, set_of(c, blk), blk, sm, primary->kind == GMS_MREQ_WRITE, &idx, 1);
        if (status != GMS_CACHE_RESERVATION_FAIL) {
            gms_line *l = &c->lines[idx];
            if (status == GMS_CACHE_MISS) {
                evict ev = { 0 };
                if (c->evict_fn) c->cur_owner = primary->warp_txn ? primary->warp : GMS_CACHE_NO_LINE_OWNER;
                note_evict(c, idx, &ev);
                if (ev.wb && c->wp != 'T') send_wrbk(c, primary, &ev, now);   /* see docs */
                alloc_line(c, idx, blk, sm, now);
            } else if (status == GMS_CACHE_SECTOR_MISS) {
                alloc_sector(c, l, sm, now);
            }
            fill_sector(l, sm);
        }
    }
    if (info->has_atomic && c->on_miss) set_modified(&c->lines[idx], sm);
}

static inline uint8_t reply_smask(const gms_cache *c, const gms_mreq *reply)
{
    return c->sector ? (uint8_t)(1u << ((reply->addr >> 5) & 3)) : 1;
}
static inline uint64_t reply_key(const gms_cache *c, const gms_mreq *reply)
{
    return c->sector ? (reply->addr & ~(uint64_t)31) : (reply->addr & ~c->line_mask);
}

/* a partition's MSHR entry is its owner's until the fill arrives (its waiters then leave
 * one a cycle, GPGPU-Sim's pace, and the entry takes no new merge: docs/cke.md) */
static inline void part_fill(gms_cache *c, gms_mreq *reply)
{
    if (__builtin_expect(c->part_on, 0) && (reply->part & 4u)) {
        c->own_mshr[reply->part & 3u]--;
        reply->part &= (uint8_t)~4u;
    }
}

gms_mreq *gms_cache_fill(gms_cache *c, gms_mreq *reply, uint64_t now)
{
    c->now = now;
    part_fill(c, reply);
    uint8_t sm = reply_smask(c, reply);
    uint64_t key = reply_key(c, reply);
    gms_mshr_info info;
    gms_mreq *chain = c->mo->take(c->mshr, key, &info);
    mshr_ready_refresh(c);
    if (!chain) return NULL;
    chain->addr = info.orig_addr;
    chain->bytes = info.orig_bytes;
    fill_tags(c, chain, &info, key, sm, now);
    /* drop our own write-allocate reads: nobody above waits for them */
    gms_mreq *head = NULL, **tail = &head;
    for (gms_mreq *r = chain, *nx; r; r = nx) {
        nx = r->next;
        if (r->access == c->wr_alloc_type) { gms_mreq_release(c->pool, r); continue; }
        *tail = r;
        tail = &r->next;
    }
    *tail = NULL;
    return head;
}

int gms_cache_fill_ready(gms_cache *c, gms_mreq *reply, uint64_t now)
{
    c->now = now;
    part_fill(c, reply);
    uint8_t sm = reply_smask(c, reply);
    uint64_t key = reply_key(c, reply);
    gms_mshr_info info;
    gms_mreq *primary = c->mo->mark_ready(c->mshr, key, reply->mshr_hint[c->is_l2 ? 1 : 0], &info);
    mshr_ready_refresh(c);
    if (!primary) return 0;
    primary->addr = info.orig_addr;
    primary->bytes = info.orig_bytes;
    fill_tags(c, primary, &info, key, sm, now);
    return 1;
}

/* tag_array::fill(addr, time, mask, .., is_write = true) as gpgpu_sim::perf_memcpy_to_gpu
 * drives it (memory_sub_partition::force_l2_tag_update), once per sector of smask in
 * ascending order, the i-th with replacement key time + i: no request, no MSHR, no
 * statistic. A miss takes the probe's victim (a modified victim is dropped, not written back:
 * the fill path has no write-back), a sector miss its sector, and the sector becomes VALID
 * with its time as the line's key; a hit leaves the line as it is. A way that is reserved (a
 * miss in flight) is left alone, as is a set whose every way is reserved. Returns the first
 * sector's status. */
int gms_cache_force_fill(gms_cache *c, uint64_t addr, uint8_t smask, uint64_t time)
{
    uint64_t blk = addr & ~c->line_mask;
    uint32_t set = set_of(c, addr);
    int first = -1;
    uint8_t todo = c->sector ? (uint8_t)(smask & 0xFu) : (smask ? 1 : 0);
    for (; todo; todo &= (uint8_t)(todo - 1), time++) {
        uint8_t sm = c->sector ? (uint8_t)(todo & -todo) : 1;
        uint32_t idx = 0;   /* probe sets it on every status but RESERVATION_FAIL */
        int st = probe(c, set, blk, sm, 1, &idx, 1);
        if (first < 0) first = st;
        if (st == GMS_CACHE_MISS) {
            gms_line *l = &c->lines[idx];
            if (l->modified) c->memcpy_dirty_dropped++;
            alloc_line(c, idx, blk, sm, time);
            fill_sector(l, sm);
        } else if (st == GMS_CACHE_SECTOR_MISS) {
            gms_line *l = &c->lines[idx];
            alloc_sector(c, l, sm, time);
            fill_sector(l, sm);
        }   /* HIT, HIT_RESERVED, RESERVATION_FAIL: nothing to fill */
    }
    return first < 0 ? GMS_CACHE_RESERVATION_FAIL : first;
}

/* Host speed only (nothing here changes state): start loading the host cache lines that a
 * coming gms_cache_access(c, req) or gms_cache_fill_ready(c, reply) will touch, so that the
 * misses of the tag array and MSHR table (80 SMs' L1s and 64 L2 slices do not fit in the
 * host's caches) overlap other work. Call them as early as the request is known. */
/* (only prefetches: LTO would take such functions for const ones and delete their calls,
 * so they are kept out of that analysis with noipa) */
__attribute__((noipa)) void gms_cache_prefetch_access(const gms_cache *c, const gms_mreq *req)
{
    uint64_t blk = req->addr & ~c->line_mask;
    if (c->use_map) {
        gms_idxmap_prefetch(&c->where, blk);
    } else {
        uint32_t base = set_of(c, req->addr) * c->assoc;
        const char *t = (const char *)(c->tags + base), *te = (const char *)(c->tags + base + c->assoc);
        for (; t < te; t += 64) __builtin_prefetch(t);
        __builtin_prefetch(te - 1);
        const char *l = (const char *)(c->lines + base), *le = (const char *)(c->lines + base + c->assoc);
        for (; l < le; l += 64) __builtin_prefetch(l, 1);
        __builtin_prefetch(le - 1, 1);
    }
    c->mo->prefetch(c->mshr, mshr_key(c, blk, smask_of(c, req)), UINT32_MAX);
}

__attribute__((noipa)) void gms_cache_prefetch_fill(const gms_cache *c, const gms_mreq *reply)
{
    int lv = c->is_l2 ? 1 : 0;
    uint32_t h = reply->mshr_hint[lv];
    if (h < c->mshr_hint_n) {
        __builtin_prefetch(c->mshr_hint_base + (size_t)h * c->mshr_hint_stride, 1);
        __builtin_prefetch(c->mshr, 1);   /* the table's struct: mark_ready links the entry there */
    } else {
        c->mo->prefetch(c->mshr, reply_key(c, reply), h);
    }
    if (c->on_miss && reply->line_hint[lv] < c->nlines) __builtin_prefetch(&c->lines[reply->line_hint[lv]], 1);
}

int gms_cache_access_ready(const gms_cache *c) { return c->mshr_ready; }
void gms_cache_clock_to(gms_cache *c, uint64_t now) { if (now > c->now) c->now = now; }

void gms_cache_set_key_offset(gms_cache *c, uint64_t off) { c->key_offset = off; }
uint64_t gms_cache_memcpy_dirty_dropped(const gms_cache *c) { return c->memcpy_dirty_dropped; }

gms_mreq *gms_cache_next_access(gms_cache *c, uint64_t now)
{
    /* the hand-out frees slots: the MSHR table's occupancy integrals run to now, not to the
     * last access or fill (which may be cycles earlier) */
    gms_cache_clock_to(c, now);
    gms_mreq *r = c->mo->next_ready(c->mshr);
    mshr_ready_refresh(c);
    if (r && r->access == c->wr_alloc_type) {   /* our own write-allocate read: nobody waits */
        gms_mreq_release(c->pool, r);
        return NULL;
    }
    return r;
}

gms_cache *gms_cache_new(const gms_cache_config *cfg, gms_mreq_pool *pool, const char *name, gms_cache_level level)
{
    if (!cfg || !cfg->enabled) return NULL;
    gms_cache *c = gms_xaligned(64, sizeof *c);   /* the hot fields' lines (see the struct) */
    memset(c, 0, sizeof *c);
    c->cfg = *cfg;
    snprintf(c->name, sizeof c->name, "%s", name ? name : "cache");
    c->pool = pool;
    c->idx = gms_index_find(cfg->set_index);
    if (!c->idx) c->idx = gms_index_find('L');
    gms_index_init(c->idx, &c->ist, cfg);
    c->repl = gms_repl_find(cfg->repl);
    if (!c->repl) c->repl = gms_repl_find('L');
    c->mo = gms_mshr_find(cfg->mshr_design[0] ? cfg->mshr_design : "conventional");
    if (!c->mo) c->mo = gms_mshr_find("conventional");
    c->mshr = c->mo->create(cfg);
    if (c->mo->hint_array) c->mo->hint_array(c->mshr, &c->mshr_hint_base, &c->mshr_hint_n, &c->mshr_hint_stride);
    if (c->mo->set_clock) c->mo->set_clock(c->mshr, &c->now);
    c->mshr_extra = gms_mshr_latency(cfg) - 1;
    c->assoc = cfg->assoc;
    c->use_map = c->assoc >= MAP_MIN_ASSOC;
    c->line = cfg->line;
    c->line_mask = (uint64_t)cfg->line - 1;
    c->sector = cfg->type == 'S';
    c->atom = c->sector ? 32 : cfg->line;
    c->on_miss = cfg->alloc_policy == 'm';
    c->wp = cfg->write_policy;
    c->wa = cfg->write_alloc;
    c->is_l2 = level == GMS_CACHE_L2;
    c->wrbk_type = c->is_l2 ? GMS_ACC_L2_WRBK : GMS_ACC_L1_WRBK;
    c->wr_alloc_type = c->is_l2 ? GMS_ACC_L2_WR_ALLOC_R : GMS_ACC_L1_WR_ALLOC_R;
    size_t nl = (size_t)cfg->nsets * cfg->assoc;
    c->nlines = (uint32_t)nl;
    c->mq_cap = cfg->miss_queue;
    c->tags = gms_xmalloc(nl * sizeof *c->tags);
    for (size_t i = 0; i < nl; i++) c->tags[i] = UINT64_MAX;   /* no block matches */
    c->lines = gms_xcalloc(nl, sizeof *c->lines);
    c->set_used = gms_xcalloc(cfg->nsets, sizeof *c->set_used);
    c->inv_top = gms_xmalloc(cfg->nsets * sizeof *c->inv_top);
    for (uint32_t i = 0; i < cfg->nsets; i++) c->inv_top[i] = cfg->assoc;
    c->last_way = gms_xcalloc(cfg->nsets, sizeof *c->last_way);
    where_init(c, nl);
    lru_init(c);
    set_memo_reset(c);
    return c;
}

void gms_cache_set_index_xform(gms_cache *c, uint64_t (*fn)(void *ctx, uint64_t addr), void *ctx)
{
    c->xform = fn;
    c->xctx = ctx;
    set_memo_reset(c);
}

void gms_cache_free(gms_cache *c)
{
    if (!c) return;
    /* requests still queued are owned by the pool; only our structures go */
    c->mo->destroy(c->mshr);
    free(c->tags);
    free(c->lines);
    free(c->set_used);
    free(c->inv_top);
    free(c->last_way);
    free(c->smemo);
    free(c->lru_prev); free(c->lru_next); free(c->lru_head); free(c->lru_tail);
    free(c->rpd);
    free(c->q_own);
    free(c->line_owner);
    gms_idxmap_free(&c->where);
    free(c);
}

gms_mreq *gms_cache_mq_head(gms_cache *c) { return c->mq.head; }
gms_mreq *gms_cache_mq_ready(gms_cache *c, uint64_t now)
{
    gms_mreq *h = c->mq.head;
    return h && c->mshr_extra && h->t_ready > now ? NULL : h;
}
gms_mreq *gms_cache_mq_pop(gms_cache *c)
{
    gms_mreq *r = gms_fifo_pop(&c->mq);
    if (r && (r->part & 8u)) {
        c->own_mq[r->part & 3u]--;
        r->part &= (uint8_t)~8u;
    }
    return r;
}

void gms_cache_set_owner(gms_cache *c, uint32_t owner, uint32_t mshr_max, uint32_t mq_max)
{
    c->part_on = 1;
    c->part_owner = owner < GMS_CACHE_NO_OWNER ? owner : GMS_CACHE_NO_OWNER;
    c->part_mshr_max = mshr_max;
    c->part_mq_max = mq_max;
}

void gms_cache_owner_held(const gms_cache *c, uint32_t owner, uint32_t *mshr, uint32_t *mq)
{
    *mshr = owner < GMS_CACHE_NO_OWNER ? c->own_mshr[owner] : 0;
    *mq = owner < GMS_CACHE_NO_OWNER ? c->own_mq[owner] : 0;
}
uint32_t gms_cache_mq_size(const gms_cache *c) { return c->mq.n; }
uint32_t gms_cache_mshr_used(const gms_cache *c) { return c->mo->used(c->mshr); }
/* the member's statistics; the refusals by cause from the cache's own counts, which include
 * the attempts the SM's blocked-tick shortcut replays without calling the MSHR and the
 * partition's refusals (send_read), which the member does not see. The replayed attempts'
 * searches and comparisons are the member's own (gms_cache_replay_mshr_events) */
void gms_cache_mshr_stats(const gms_cache *c, gms_mshr_stats *acc)
{
    uint64_t entry = acc->rf_entry, merge = acc->rf_merge;
    if (c->mo->stats) c->mo->stats(c->mshr, acc);
    acc->rf_entry = entry;
    acc->rf_merge = merge;
    for (unsigned t = 0; t < GMS_ACC__COUNT; t++) {
        acc->rf_entry += c->st.fail[t][GMS_RF_MSHR_ENTRY];
        acc->rf_merge += c->st.fail[t][GMS_RF_MSHR_MERGE];
    }
}
void gms_cache_track_refusals(gms_cache *c)
{
    c->mev = c->mo->events ? c->mo->events(c->mshr) : NULL;
}
gms_mshr_ev gms_cache_refusal_events(const gms_cache *c)
{
    if (!c->mev || !c->ev_chk) return (gms_mshr_ev){ 0, 0, 0, 0 };
    return gms_mshr_ev_since(c->mev, c->ev0);
}
void gms_cache_replay_mshr_events(gms_cache *c, const gms_mshr_ev *one, uint64_t n)
{
    gms_mshr_stats *e = c->mev;
    if (!e) return;
    e->searches += one->searches * n;
    e->compares += one->compares * n;
    e->link_stalls += one->link_stalls * n;
    e->tail_hops += one->tail_hops * n;
}
void gms_cache_mshr_dump(const gms_cache *c, FILE *out) { if (c->mo->dump) c->mo->dump(c->mshr, out); }
const gms_cache_stats *gms_cache_get_stats(const gms_cache *c) { return &c->st; }

void gms_cache_count_reservation_fail(gms_cache *c, gms_mreq *req, gms_rf_cause cause)
{
    gms_cache_count_reservation_fails(c, req, cause, 1);
}

void gms_cache_count_reservation_fails(gms_cache *c, gms_mreq *req, gms_rf_cause cause, uint64_t n)
{
    unsigned t = acc_type(req);
    c->st.acc[t][GMS_CACHE_RESERVATION_FAIL] += n;
    c->st.fail[t][cause] += n;
    /* spec 000a 11.5's other reading of a reservation fail: per request, not per attempt (a
     * replayed refusal, sm_sleep.c, is the same request and is not counted again) */
    if (c->is_l2 ? !req->rf_seen_l2 : !req->rf_seen_l1) {
        if (c->is_l2) req->rf_seen_l2 = 1; else req->rf_seen_l1 = 1;
        c->st.rf_requests++;
    }
}

void gms_cache_count_fail(gms_cache *c, gms_access_type t, gms_rf_cause cause)
{
    gms_cache_count_fails(c, t, cause, 1);
}

void gms_cache_count_fails(gms_cache *c, gms_access_type t, gms_rf_cause cause, uint64_t n)
{
    if ((unsigned)t >= GMS_ACC__COUNT || (unsigned)cause >= GMS_RF__COUNT) return;
    c->st.fail[t][cause] += n;
}

uint32_t gms_cache_flush(gms_cache *c)
{
    size_t nl = (size_t)c->cfg.nsets * c->assoc;
    uint32_t n = 0;
    int wb = c->wp == 'B' || c->wp == 'L';
    for (size_t i = 0; i < nl; i++) {
        gms_line *l = &c->lines[i];
        if (!(l->valid | l->modified)) continue;
        if (wb && l->modified) {
            gms_mreq w = { 0 };
            w.sm = UINT16_MAX;
            w.subpart = c->home_subpart;
            evict ev = { 0 };
            note_evict(c, (uint32_t)i, &ev);
            send_wrbk(c, &w, &ev, 0);
        }
        /* reserved sectors stay reserved: their fills are still coming */
        l->valid = l->modified = l->unreadable = 0;
        if (!l->reserved) line_freed(c, (uint32_t)i);
        n++;
    }
    return n;
}

uint32_t gms_cache_drop_modified(gms_cache *c)
{
    size_t nl = (size_t)c->cfg.nsets * c->assoc;
    uint32_t n = 0;
    for (size_t i = 0; i < nl; i++) {
        gms_line *l = &c->lines[i];
        if (!l->modified) continue;
        /* every sector of the line invalid, its data gone; a reserved sector stays reserved
         * for the fill still coming (as gms_cache_flush) */
        l->valid = l->modified = l->unreadable = 0;
        if (!l->reserved) line_freed(c, (uint32_t)i);
        n++;
    }
    return n;
}

uint32_t gms_cache_valid_lines(const gms_cache *c)
{
    size_t nl = (size_t)c->cfg.nsets * c->assoc;
    uint32_t n = 0;
    for (size_t i = 0; i < nl; i++) n += gms_line_is_valid(&c->lines[i]) != 0;
    return n;
}

/* GPGPU-Sim's adaptive L1/shared-memory carve-out changes the L1's associativity at a kernel
 * launch. Only an idle cache may change (no MSHR in use, nothing on the miss queue); its
 * contents are dropped (the L1 holds no dirty global data). Returns 0, or -1 if busy. */
int gms_cache_set_assoc(gms_cache *c, uint32_t assoc)
{
    if (assoc == c->assoc) return 0;
    if (gms_cache_mshr_used(c) || c->mq.n || assoc == 0) return -1;
    size_t nl = (size_t)c->cfg.nsets * assoc;
    c->nlines = (uint32_t)nl;
    free(c->tags);
    free(c->lines);
    c->tags = gms_xmalloc(nl * sizeof *c->tags);
    for (size_t i = 0; i < nl; i++) c->tags[i] = UINT64_MAX;
    c->lines = gms_xcalloc(nl, sizeof *c->lines);
    memset(c->set_used, 0, c->cfg.nsets * sizeof *c->set_used);
    c->assoc = assoc;
    c->use_map = assoc >= MAP_MIN_ASSOC;
    gms_idxmap_free(&c->where);
    where_init(c, nl);
    for (uint32_t i = 0; i < c->cfg.nsets; i++) c->inv_top[i] = assoc;
    memset(c->last_way, 0, c->cfg.nsets * sizeof *c->last_way);   /* ways < assoc */
    c->cfg.assoc = assoc;
    if (c->rpd) { free(c->rpd); c->rpd = gms_xcalloc(nl, sizeof *c->rpd); }
    if (c->q_own) { free(c->q_own); c->q_own = gms_xmalloc(nl); memset(c->q_own, GMS_CACHE_QUOTA_APPS, nl); }
    if (c->evict_fn) gms_cache_track_evictions(c, c->evict_fn, c->evict_ctx);
    lru_init(c);
    return 0;
}

int gms_cache_set_on_miss(gms_cache *c, int on_miss)
{
    if (!on_miss == !c->on_miss) return 0;
    /* a reservation made under one policy must be filled under it (fill_tags) */
    if (gms_cache_mshr_used(c) || c->mq.n) return -1;
    c->on_miss = on_miss != 0;
    return 0;
}

void gms_cache_set_way_range(gms_cache *c, uint32_t lo, uint32_t hi)
{
    c->way_lo = hi ? lo : 0;
    c->way_hi = hi;
    c->slow_victim = hi != 0 || c->rpd != NULL || c->q_own != NULL;
}

void gms_cache_set_quota(gms_cache *c, uint32_t app, const uint32_t *quota, uint32_t napps)
{
    if (!napps) {
        free(c->q_own);
        c->q_own = NULL;
        c->q_napps = 0;
        c->slow_victim = c->way_hi != 0 || c->rpd != NULL;
        return;
    }
    if (napps > GMS_CACHE_QUOTA_APPS) napps = GMS_CACHE_QUOTA_APPS;   /* (the header's limit) */
    if (!c->q_own) {   /* lines allocated before: no app's (over any quota) */
        c->q_own = gms_xmalloc(c->nlines);
        memset(c->q_own, GMS_CACHE_QUOTA_APPS, c->nlines);
    }
    c->q_napps = napps;
    c->q_app = app < napps ? app : napps;
    for (uint32_t k = 0; k < napps; k++) c->q_ways[k] = quota[k];
    c->slow_victim = 1;
}
