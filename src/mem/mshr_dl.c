/* DL-MSHR, dynamically linked MSHRs (spec 000a section 3, spec 002; ICS'19). The string's
 * entries x max_merge slots become a pool of slot sets of slots_per_set slots each. A free set
 * becomes a head (a primary miss: the only sets whose address is compared, Opt 2) or is linked
 * after the full tail of a head's chain (a secondary miss); a head and its linked sets form a
 * super-entry, released whole when its last request has been handed out. The first
 * reserve_pct % of the sets are reserved as heads (Opt 4); links take only the others.
 * Per set: the H/L/P/S_free/S_full bits, the head's tail pointer (Opt 3) and a behavioural
 * copy of the per-set FSM S0..S10 (Fig. 3.8) kept for the debug dump and the tests. Choices
 * the specs leave open: docs/dlmshr.md. */
#include "mem/mshr.h"
#include "mem/mshr_dl.h"
#include "util/idxmap.h"
#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

typedef struct dlset {
    uint32_t P;                /* next set, valid when L */
    uint32_t tail;             /* head only (Opt 3): the chain's tail set */
    uint32_t head;             /* model bookkeeping: the chain's head (NONE when free) */
    uint8_t H, L, S_free, S_full, reserved, nused, state;
} dlset;

/* per head set: what a conventional entry holds (requests in arrival order, the fill info) */
typedef struct super {
    uint64_t key;
    gms_mreq *primary;
    gms_mreq *head, *tail;     /* secondaries and riders, linked by ->next */
    uint64_t orig_addr;
    uint32_t orig_bytes, line_idx;
    uint32_t ready_next, nsets;
    uint8_t seen_write, raw, live, has_atomic;
} super;

typedef struct dl {
    dlset *s;
    super *e;                  /* indexed by head set */
    uint32_t n, spp, nres;     /* sets, slots per set, reserved (ids 0..nres-1) */
    /* host memory: sets are set up when first taken (take_set). The DAU takes the lowest free
     * set of a range, so the sets ever taken are a prefix of each range: [0, hw_res) of the
     * reserved ones, [nres, hw_link) of the others; the rest are in the initial free state
     * and their pages untouched (gms_xcalloc_lazy) */
    uint32_t hw_res, hw_link;
    uint32_t nfree_res, nfree_link;   /* nFreeSet = nfree_res + nfree_link */
    uint64_t *free_bits;       /* bit i: set i is free (S_free) */
    uint32_t heads;            /* super-entries in use */
    uint32_t ready_head, ready_tail;
    uint8_t tail_ptr, heads_anywhere;
    uint32_t key_shift;        /* log2 of the key granularity (hardware cost) */
    gms_idxmap map;            /* key -> head set: the head sets' comparators */
    const uint64_t *clock;
    uint64_t t_last, occ;      /* last occupancy change; occupied (counted) slots */
    gms_mshr_stats st;
} dl;

static const uint64_t zero_clock;

static inline void integrate(dl *m)
{
    uint64_t now = *m->clock, dt = now - m->t_last;
    m->st.slot_cycles += m->occ * dt;
    m->st.unit_cycles += (uint64_t)(m->n - m->nfree_res - m->nfree_link) * dt;
    m->t_last = now;
}

/* The options' check (l1d_options.c, memsys_options.c; mshr.h): the table create() builds is the one configured only if S divides the cache string's
 * entries x max_merge slots (else it would round the sets down, or up to one set of S) and a
 * reserve R > 0 comes to at least one set. `dl_str` is the S:R:T:A option as given. */
int gms_dlmshr_geometry_check(const gms_cache_config *c, const char *cache_opt, const char *dl_opt, const char *dl_str,
                              gms_error *err)
{
    const gms_mshr_params *p = &c->mshr_params;
    uint64_t slots = (uint64_t)c->mshr_entries * c->mshr_max_merge;
    uint32_t spp = p->slots_per_set;
    if (!spp) return 0;   /* not parsed: create() takes the paper's design */
    if (spp > slots || slots % spp)
        return gms_err(err, "%s %s: %u slots per set %s the %llu MSHR slots of %s (%u entries x %u merges); DL-MSHR "
                       "splits those slots into sets of equal size", dl_opt, dl_str, spp,
                       spp > slots ? "is more than" : "does not divide", (unsigned long long)slots, cache_opt,
                       c->mshr_entries, c->mshr_max_merge);
    uint64_t sets = slots / spp;
    if (p->reserve_pct && sets * p->reserve_pct / 100 == 0)
        return gms_err(err, "%s %s: %u%% of the %llu set%s (%s: %llu MSHR slots / %u per set) is no set to reserve as "
                       "heads; give more MSHR slots, or 0%% with heads_anywhere 1", dl_opt, dl_str, p->reserve_pct, (unsigned long long)sets,
                       sets == 1 ? "" : "s", cache_opt, (unsigned long long)slots, spp);
    return 0;
}

static void *create(const gms_cache_config *cfg)
{
    dl *m = gms_xcalloc(1, sizeof *m);
    gms_mshr_params p = cfg->mshr_params;
    if (!p.slots_per_set) {   /* a config made without the options (tests): the paper's design */
        p.slots_per_set = 2; p.reserve_pct = 50; p.tail_ptr = 1; p.heads_anywhere = 1;
    }
    uint64_t slots = (uint64_t)cfg->mshr_entries * cfg->mshr_max_merge;
    m->spp = p.slots_per_set;
    m->n = (uint32_t)(slots / m->spp ? slots / m->spp : 1);
    m->nres = (uint32_t)((uint64_t)m->n * p.reserve_pct / 100);
    if (!p.heads_anywhere && !m->nres) m->nres = 1;   /* validated against; keep a head possible */
    m->tail_ptr = p.tail_ptr;
    m->heads_anywhere = p.heads_anywhere;
    m->s = gms_xcalloc_lazy(m->n, sizeof *m->s);
    m->e = gms_xcalloc_lazy(m->n, sizeof *m->e);
    uint32_t nw = (m->n + 63) / 64;
    m->free_bits = gms_xcalloc(nw, sizeof *m->free_bits);
    for (uint32_t w = 0; w < nw; w++) m->free_bits[w] = ~0ull;   /* every set free */
    if (m->n % 64) m->free_bits[nw - 1] = (1ull << (m->n % 64)) - 1;
    m->hw_res = 0;
    m->hw_link = m->nres;
    m->nfree_res = m->nres;
    m->nfree_link = m->n - m->nres;
    m->ready_head = m->ready_tail = NONE;
    m->clock = &zero_clock;
    unsigned shift = cfg->type == 'S' || cfg->line < 32 ? 5 : (unsigned)__builtin_ctz(cfg->line);
    /* sized for what is in flight, not for every set (it grows as needed) */
    gms_idxmap_init(&m->map, m->n < 1024 ? m->n : 1024, m->n, shift);
    m->key_shift = shift;
    return m;
}

static void destroy(void *p)
{
    dl *m = p;
    if (!m) return;
    gms_idxmap_free(&m->map);
    gms_free_lazy(m->s, m->n, sizeof *m->s);
    gms_free_lazy(m->e, m->n, sizeof *m->e);
    free(m->free_bits);
    free(m);
}

/* the DAU's choice: the lowest free set in [lo, hi) (a priority encoder); NONE if none */
static uint32_t pick(const dl *m, uint32_t lo, uint32_t hi)
{
    for (uint32_t w = lo / 64; w * 64 < hi; w++) {
        uint64_t b = m->free_bits[w];
        if (w == lo / 64) b &= ~0ull << (lo % 64);
        if (!b) continue;
        uint32_t i = w * 64 + (uint32_t)__builtin_ctzll(b);
        return i < hi ? i : NONE;
    }
    return NONE;
}

/* a set's initial state: free, in S0, a head set if reserved (Opt 4) */
static dlset initial_set(const dl *m, uint32_t i)
{
    dlset s = { 0 };
    s.reserved = i < m->nres;
    s.H = s.reserved;
    s.S_free = 1;
    s.head = NONE;
    s.state = GMS_DL_S0;
    return s;
}

/* set i as it is (a set never taken is in its initial state, its memory untouched) */
static dlset set_state(const dl *m, uint32_t i)
{
    return i < (i < m->nres ? m->hw_res : m->hw_link) ? m->s[i] : initial_set(m, i);
}

static void take_set(dl *m, uint32_t i)
{
    uint32_t *hw = i < m->nres ? &m->hw_res : &m->hw_link;
    while (*hw <= i) { m->s[*hw] = initial_set(m, *hw); (*hw)++; }   /* (i == *hw when new) */
    m->free_bits[i / 64] &= ~(1ull << (i % 64));
    if (m->s[i].reserved) m->nfree_res--; else m->nfree_link--;
    m->s[i].S_free = 0;
}

/* the tail of head h's chain: the tail pointer (Opt 3), else a walk along L/P */
static uint32_t tail_of(dl *m, uint32_t h, int count)
{
    if (m->tail_ptr) return m->s[h].tail;
    uint32_t t = h;
    while (m->s[t].L) { t = m->s[t].P; m->st.tail_hops += (uint64_t)count; }
    return t;
}

static int can_head(const dl *m) { return m->nfree_res || (m->heads_anywhere && m->nfree_link); }

static int check(void *p, uint64_t key, int *hit)
{
    dl *m = p;
    uint32_t h = gms_idxmap_get(&m->map, key);
    m->st.searches++;
    /* Opt 2: only sets with H set compare; a reserved set's H is forced to 1 (Opt 4), so the
     * free reserved sets compare too (every in-use reserved set is a head) */
    m->st.compares += m->heads + m->nfree_res;
    if (h != GMS_IDX_NONE) {
        *hit = m->e[h].live;
        /* the walk is counted where the slot is taken (take_slot), not in this check too */
        uint32_t t = tail_of(m, h, 0);
        if (m->s[t].nused < m->spp || m->nfree_link) return 0;
        /* case (c): tail full and no linkable set free: RF; the tail's FSM shows it (S4/S9) */
        m->st.rf_merge++;
        m->st.link_stalls++;
        if (m->s[t].state == GMS_DL_S2) m->s[t].state = GMS_DL_S4;
        else if (m->s[t].state == GMS_DL_S7) m->s[t].state = GMS_DL_S9;
        return GMS_RF_MSHR_MERGE;
    }
    *hit = 0;
    if (can_head(m)) return 0;
    m->st.rf_entry++;   /* nFreeSet == 0 (or only linkable sets left and they may not be heads) */
    return GMS_RF_MSHR_ENTRY;
}

static int rw_pending(void *p, uint64_t key)
{
    dl *m = p;
    uint32_t h = gms_idxmap_get(&m->map, key);
    return h != GMS_IDX_NONE ? m->e[h].raw : 0;
}

/* a request takes a slot in the chain of head h: the tail's next slot, or a newly linked set */
static void take_slot(dl *m, uint32_t h)
{
    uint32_t t = tail_of(m, h, 1);
    dlset *ts = &m->s[t];
    if (ts->nused < m->spp) {   /* case (a) */
        ts->nused++;
        if (ts->nused == m->spp) {
            ts->S_full = 1;
            if (ts->state == GMS_DL_S1) ts->state = GMS_DL_S2;
            else if (ts->state == GMS_DL_S6) ts->state = GMS_DL_S7;
        }
        return;
    }
    /* case (b): link a free non-reserved set (check() saw one) */
    uint32_t i = pick(m, m->nres, m->n);
    if (i == NONE) abort();   /* check() must have been called first */
    take_set(m, i);
    dlset *ns = &m->s[i];
    ts->L = 1;
    ts->P = i;
    /* from S2/S4 or S7/S9; a chain whose data has returned (S5/S10) stays there */
    if (m->e[h].live != 2) ts->state = ts->H ? GMS_DL_S3 : GMS_DL_S8;
    ns->H = 0;
    ns->nused = 1;
    ns->S_full = m->spp == 1;
    ns->head = h;
    ns->state = ns->S_full ? GMS_DL_S7 : GMS_DL_S6;
    if (m->e[h].live == 2) ns->state = GMS_DL_S10;   /* joins a chain whose data has returned */
    m->s[h].tail = i;
    m->e[h].nsets++;
    m->st.links++;
}

static uint32_t add(void *p, uint64_t key, gms_mreq *r, int counted, const gms_mshr_info *info)
{
    dl *m = p;
    uint32_t h = gms_idxmap_get(&m->map, key);
    integrate(m);
    if (h == GMS_IDX_NONE) {
        /* primary: a reserved set first, else a linkable one (heads_anywhere) */
        h = pick(m, 0, m->nres);
        if (h == NONE && m->heads_anywhere) h = pick(m, m->nres, m->n);
        if (h == NONE) abort();   /* check() must have been called first */
        take_set(m, h);
        dlset *s = &m->s[h];
        s->H = 1;
        s->L = 0;
        s->head = h;
        s->tail = h;
        s->nused = counted ? 1 : 0;
        s->S_full = s->nused == m->spp;
        s->state = s->S_full ? GMS_DL_S2 : GMS_DL_S1;
        super *e = &m->e[h];
        e->key = key;
        e->primary = r;
        e->head = e->tail = NULL;
        e->live = 1;
        e->nsets = 1;
        e->seen_write = e->raw = e->has_atomic = 0;
        if (info) { e->orig_addr = info->orig_addr; e->orig_bytes = info->orig_bytes; e->line_idx = info->line_idx; }
        gms_idxmap_put(&m->map, key, h);
        m->heads++;
        uint64_t inuse = m->n - m->nfree_res - m->nfree_link;
        if (inuse > m->st.max_units) m->st.max_units = inuse;
    } else {
        super *e = &m->e[h];
        r->next = NULL;
        if (e->tail) e->tail->next = r; else e->head = r;
        e->tail = r;
        if (counted) take_slot(m, h);   /* a rider (counted 0) takes no slot, as conventional */
        uint64_t inuse = m->n - m->nfree_res - m->nfree_link;
        if (inuse > m->st.max_units) m->st.max_units = inuse;
    }
    if (counted) { m->occ++; m->st.slot_ops++; }
    super *e = &m->e[h];
    /* GPGPU-Sim's is_read_after_write_pending looks for a write in the entry's list, which
     * holds reads only there (fetch-on-write adds its allocate read, not the write): the
     * write that rides here behind its allocate read (counted 0) is not such a write */
    if (r->kind == GMS_MREQ_WRITE) { if (counted) e->seen_write = 1; }
    else if (e->seen_write) e->raw = 1;
    if (r->kind == GMS_MREQ_ATOMIC) e->has_atomic = 1;
    return h;
}

/* deallocation: every set of h's chain back to S0, S_free, nFreeSet += chain length */
static void release(dl *m, uint32_t h)
{
    integrate(m);
    super *e = &m->e[h];
    gms_idxmap_del(&m->map, e->key);
    uint32_t len = 0;
    for (uint32_t i = h, more = 1; more; len++) {
        dlset *s = &m->s[i];
        uint32_t nx = s->P;
        more = s->L;
        m->occ -= s->nused;
        *s = initial_set(m, i);   /* back to S0, S_free */
        m->free_bits[i / 64] |= 1ull << (i % 64);
        if (s->reserved) m->nfree_res++; else m->nfree_link++;
        i = nx;
    }
    e->live = 0;
    e->primary = e->head = e->tail = NULL;
    m->heads--;
    m->st.released++;
    m->st.chain_hist[len < GMS_MSHR_CHAIN_BINS ? len - 1 : GMS_MSHR_CHAIN_BINS - 1]++;
}

static void get_info(const super *e, gms_mshr_info *info)
{
    if (info) *info = (gms_mshr_info){ .orig_addr = e->orig_addr, .orig_bytes = e->orig_bytes,
                                       .line_idx = e->line_idx, .has_atomic = e->has_atomic };
}

static gms_mreq *take(void *p, uint64_t key, gms_mshr_info *info)
{
    dl *m = p;
    uint32_t h = gms_idxmap_get(&m->map, key);
    if (h == GMS_IDX_NONE) return NULL;
    super *e = &m->e[h];
    gms_mreq *chain = e->primary;
    chain->next = e->head;
    get_info(e, info);
    release(m, h);
    return chain;
}

/* RET: the data returned; the chain's sets go to S5 (head) / S10 (attached) */
static gms_mreq *mark_ready(void *p, uint64_t key, uint32_t hint, gms_mshr_info *info)
{
    dl *m = p;
    uint32_t h = hint;
    if (h >= m->n || m->e[h].live != 1 || m->s[h].head != h || m->e[h].key != key) {
        h = gms_idxmap_get(&m->map, key);
        if (h == GMS_IDX_NONE) return NULL;
    }
    super *e = &m->e[h];
    e->live = 2;
    get_info(e, info);
    for (uint32_t i = h, more = 1; more; i = m->s[i].P) {
        more = m->s[i].L;
        m->s[i].state = i == h ? GMS_DL_S5 : GMS_DL_S10;
    }
    e->ready_next = NONE;
    if (m->ready_tail == NONE) m->ready_head = h; else m->e[m->ready_tail].ready_next = h;
    m->ready_tail = h;
    return e->primary;
}

static int any_ready(const void *p) { return ((const dl *)p)->ready_head != NONE; }

static gms_mreq *next_ready(void *p)
{
    dl *m = p;
    if (m->ready_head == NONE) return NULL;
    uint32_t h = m->ready_head;
    super *e = &m->e[h];
    gms_mreq *r = e->primary;
    if (r) e->primary = NULL;
    else if ((r = e->head)) { e->head = r->next; if (!e->head) e->tail = NULL; }
    if (r) r->next = NULL;
    if (!e->primary && !e->head) {   /* its last request: release the super-entry */
        m->ready_head = e->ready_next;
        if (m->ready_head == NONE) m->ready_tail = NONE;
        release(m, h);
    }
    return r;
}

static uint32_t used(const void *p) { return ((const dl *)p)->heads; }

static void prefetch(const void *p, uint64_t key, uint32_t hint)
{
    const dl *m = p;
    if (hint < m->n) __builtin_prefetch(&m->e[hint], 1);
    else gms_idxmap_prefetch(&m->map, key);
}

static void set_clock(void *p, const uint64_t *now) { ((dl *)p)->clock = now; }

static void stats(const void *p, gms_mshr_stats *acc)
{
    const dl *m = p;
    uint64_t now = *m->clock, dt = now - m->t_last;
    const gms_mshr_stats *s = &m->st;
    acc->rf_entry += s->rf_entry;
    acc->rf_merge += s->rf_merge;
    acc->slot_cycles += s->slot_cycles + m->occ * dt;
    uint64_t units = s->unit_cycles + (uint64_t)(m->n - m->nfree_res - m->nfree_link) * dt;
    acc->unit_cycles += units;
    acc->alloc_cap_cycles += units * m->spp;
    acc->cycles += now;
    acc->slot_cap_cycles += now * (uint64_t)m->n * m->spp;
    acc->released += s->released;
    for (int i = 0; i < GMS_MSHR_CHAIN_BINS; i++) acc->chain_hist[i] += s->chain_hist[i];
    acc->links += s->links;
    acc->link_stalls += s->link_stalls;
    acc->tail_hops += s->tail_hops;
    if (s->max_units > acc->max_units) acc->max_units = s->max_units;
    /* hardware cost (docs/dlmshr.md "Area and energy"): a comparator on every set that may
     * be a head (all with heads_anywhere, else the reserved ones); per set H, L, S_free,
     * S_full in flip-flops (they drive the comparator enables and the free-set encoders),
     * P and the slot count in SRAM, the tail pointer in the sets that may be heads; the two
     * nFreeSet counters in flip-flops. Events: a primary sets H, S_free, its count and the
     * tail pointer; a merge its count; a link L, P, the new set's H/S_free/count and the
     * tail pointer; a release clears four bits per set; a tail walk reads P per hop. */
    uint64_t pb = gms_hw_bits_for(m->n - 1), cb = gms_hw_bits_for(m->spp);
    uint64_t cmp = m->heads_anywhere ? m->n : m->nres, prim = s->released + m->heads;
    uint64_t tp = m->tail_ptr ? pb : 0;
    acc->tables++;
    acc->hw_cmp = cmp;
    acc->hw_slots = (uint64_t)m->n * m->spp;
    acc->hw_ff = 4ull * m->n + 2 * gms_hw_bits_for(m->n);
    acc->hw_ptr = (uint64_t)m->n * (pb + cb) + cmp * tp;
    acc->hw_key_shift = m->key_shift;
    acc->searches += s->searches;
    acc->compares += s->compares;
    acc->slot_ops += 2 * s->slot_ops;
    acc->ctrl_ops += prim * (2 + cb + tp) + (s->slot_ops > prim ? s->slot_ops - prim : 0) * cb +
                     s->links * (3 + pb + cb + tp) + (prim + s->links) * 4 + s->tail_hops * pb;
}

static void dump(const void *p, FILE *out)
{
    const dl *m = p;
    fprintf(out, "DL-MSHR: %u sets x %u slots, %u reserved; nFreeSet %u (%u reserved, %u linkable); %u super-entries\n",
            m->n, m->spp, m->nres, m->nfree_res + m->nfree_link, m->nfree_res, m->nfree_link, m->heads);
    for (uint32_t i = 0; i < m->n; i++) {
        const dlset sv = set_state(m, i), *s = &sv;
        if (s->S_free) continue;
        fprintf(out, "  set %u: S%u H%u L%u P%u S_free%u S_full%u slots %u/%u%s", i, s->state, s->H, s->L, s->P,
                s->S_free, s->S_full, s->nused, m->spp, s->reserved ? " reserved" : "");
        if (s->head == i) fprintf(out, " head key 0x%llx tail %u sets %u", (unsigned long long)m->e[i].key, s->tail, m->e[i].nsets);
        else fprintf(out, " attached to %u", s->head);
        fputc('\n', out);
    }
}

/* ---------------------------------------------------------------- tests and debug */

uint32_t gms_dl_nsets(const void *p) { return ((const dl *)p)->n; }
uint32_t gms_dl_nfree(const void *p) { const dl *m = p; return m->nfree_res + m->nfree_link; }

gms_dl_set_view gms_dl_set(const void *p, uint32_t i)
{
    const dlset sv = set_state(p, i), *s = &sv;
    return (gms_dl_set_view){ s->H, s->L, s->S_free, s->S_full, s->reserved, s->nused, s->state, s->P, s->tail, s->head };
}

#define BAD(...) do { snprintf(why, nwhy, __VA_ARGS__); return -1; } while (0)

int gms_dl_check(const void *p, char *why, size_t nwhy)
{
    const dl *m = p;
    uint32_t nfree = 0, inchains = 0;
    uint64_t occ = 0;
    for (uint32_t i = 0; i < m->n; i++) {
        const dlset sv = set_state(m, i), *s = &sv;
        int bit = (int)(m->free_bits[i / 64] >> (i % 64) & 1);
        if (bit != s->S_free) BAD("set %u: free bit %d but S_free %u", i, bit, s->S_free);
        if (s->S_free) {
            nfree++;
            if (s->L || s->nused || s->S_full || s->state != GMS_DL_S0 || s->head != NONE)
                BAD("set %u: free but L%u nused %u S_full%u S%u", i, s->L, s->nused, s->S_full, s->state);
            continue;
        }
        occ += s->nused;
        if (s->S_full != (s->nused == m->spp)) BAD("set %u: S_full %u with %u of %u slots", i, s->S_full, s->nused, m->spp);
        if (s->reserved && !s->H) BAD("set %u: a reserved set attached", i);
        if (s->head == i) {
            /* walk the chain: one head, every set in it full but the tail, L=0 only at the tail */
            uint32_t len = 0, t = i;
            for (uint32_t j = i;; j = m->s[j].P) {
                const dlset *c = &m->s[j];
                if (++len > m->n) BAD("chain of %u loops", i);
                if (c->S_free || c->head != i) BAD("chain of %u reaches set %u (free %u, head %u)", i, j, c->S_free, c->head);
                if (j != i && c->H) BAD("chain of %u: set %u is a second head", i, j);
                if (!c->L) { t = j; break; }
                if (c->nused != m->spp) BAD("chain of %u: non-tail set %u holds %u of %u slots", i, j, c->nused, m->spp);
            }
            inchains += len;
            if (len != m->e[i].nsets) BAD("chain of %u: %u sets, counted %u", i, len, m->e[i].nsets);
            if (m->s[i].tail != t) BAD("head %u: tail pointer %u, tail %u", i, m->s[i].tail, t);
            if (gms_idxmap_get(&m->map, m->e[i].key) != i) BAD("head %u: its key is not mapped to it", i);
            if (!m->e[i].live) BAD("head %u: not live", i);
        } else if (s->H) {
            BAD("set %u: H set but the chain's head is %u", i, s->head);
        }
    }
    if (nfree != m->nfree_res + m->nfree_link) BAD("nFreeSet %u, %u sets have S_free", m->nfree_res + m->nfree_link, nfree);
    if (inchains + nfree != m->n) BAD("%u sets in chains + %u free != %u sets", inchains, nfree, m->n);
    if (occ != m->occ) BAD("occupied slots %llu, counted %llu", (unsigned long long)occ, (unsigned long long)m->occ);
    return 0;
}

static gms_mshr_stats *events(void *p) { return &((dl *)p)->st; }

const gms_mshr_ops gms_mshr_dlmshr = {
    .name = "dlmshr", .knobs = GMS_KNOBS("gms_l1d_dlmshr", "gms_l2_dlmshr"),
    .summary = "DL-MSHR (ICS'19): the same slots as 2-slot sets linked into super-entries on demand",
    .create = create, .destroy = destroy, .check = check, .rw_pending = rw_pending, .add = add,
    .take = take, .mark_ready = mark_ready, .any_ready = any_ready, .next_ready = next_ready,
    .used = used, .prefetch = prefetch, .hint_array = NULL, .set_clock = set_clock, .stats = stats, .events = events,
    .dump = dump,
};
