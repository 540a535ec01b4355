/* HPE's page-set chain: see hpe_chain.h. */
#include <stdlib.h>
#include "uvm/uvm_internal.h"
#include "uvm/hpe_chain.h"

void hpe_chain_init(hpe_chain *c, uint32_t set_pages, uint32_t saturation)
{
    *c = (hpe_chain){ 0 };
    c->S = set_pages;
    c->shift = (uint32_t)__builtin_ctz(set_pages);
    c->sat = saturation;
    c->free_head = GMS_UVM_NONE;
    for (int p = 0; p < 3; p++) c->head[p] = c->tail[p] = GMS_UVM_NONE;
    gms_u64map_init(&c->map, 1024);
    gms_u64map_init(&c->hist, 64);
}

void hpe_chain_free(hpe_chain *c)
{
    free(c->v);
    gms_u64map_free(&c->map);
    gms_u64map_free(&c->hist);
}

static void unlink_set(hpe_chain *c, uint32_t s)
{
    hpe_set *e = &c->v[s];
    if (e->prev != GMS_UVM_NONE) c->v[e->prev].next = e->next; else c->head[e->part] = e->next;
    if (e->next != GMS_UVM_NONE) c->v[e->next].prev = e->prev; else c->tail[e->part] = e->prev;
    c->count[e->part]--;
}

static void append(hpe_chain *c, uint32_t s, int part)
{
    hpe_set *e = &c->v[s];
    e->part = (uint8_t)part;
    e->next = GMS_UVM_NONE;
    e->prev = c->tail[part];
    if (c->tail[part] != GMS_UVM_NONE) c->v[c->tail[part]].next = s; else c->head[part] = s;
    c->tail[part] = s;
    c->count[part]++;
}

uint64_t hpe_chain_route(const hpe_chain *c, uint64_t vpn)
{
    uint64_t t = vpn >> c->shift, bit = 1ULL << (vpn & (c->S - 1));
    const uint64_t *v = gms_u64map_get(&c->map, t);
    if (v) {
        const hpe_set *e = &c->v[*v];
        return e->divided && !(e->division & bit) ? t | HPE_SECONDARY : t;
    }
    const uint64_t *h = gms_u64map_get(&c->hist, t);
    return h && !(*h & bit) ? t | HPE_SECONDARY : t;
}

uint32_t hpe_chain_find(const hpe_chain *c, uint64_t vpn)
{
    const uint64_t *v = gms_u64map_get(&c->map, hpe_chain_route(c, vpn));
    return v ? (uint32_t)*v : GMS_UVM_NONE;
}

static uint32_t create(hpe_chain *c, uint64_t tag)
{
    uint32_t s;
    if (c->free_head != GMS_UVM_NONE) {
        s = c->free_head;
        c->free_head = c->v[s].next;
    } else {
        if (c->n == c->cap) {
            c->cap = c->cap ? 2 * c->cap : 256;
            c->v = gms_xrealloc(c->v, c->cap * sizeof *c->v);
        }
        s = c->n++;
    }
    c->v[s] = (hpe_set){ .tag = tag, .prev = GMS_UVM_NONE, .next = GMS_UVM_NONE, .in_use = 1 };
    if (!(tag & HPE_SECONDARY)) {       /* a primary that was divided before keeps that division */
        const uint64_t *h = gms_u64map_get(&c->hist, tag);
        if (h) { c->v[s].divided = 1; c->v[s].division = *h; }
    }
    gms_u64map_put(&c->map, tag, s);
    append(c, s, HPE_NEW);
    c->creations++;
    return s;
}

uint32_t hpe_chain_touch(hpe_chain *c, uint64_t vpn, uint32_t count, int is_fault)
{
    uint64_t tag = hpe_chain_route(c, vpn);
    const uint64_t *v = gms_u64map_get(&c->map, tag);
    uint32_t s = v ? (uint32_t)*v : create(c, tag);
    if (!count) return s;
    hpe_set *e = &c->v[s];
    uint32_t before = e->counter;
    e->counter = before + count > c->sat ? c->sat : before + count;
    if (is_fault) e->bits |= 1ULL << (vpn & (c->S - 1));
    uint64_t all = c->S == 64 ? ~0ULL : (1ULL << c->S) - 1;
    if (before < c->sat && e->counter >= c->sat && !(tag & HPE_SECONDARY) && !e->divided && (e->bits & all) != all) {
        e->divided = 1;
        e->division = e->bits;
        c->divisions++;
    }
    if (e->part != HPE_NEW) {
        unlink_set(c, s);
        append(c, s, HPE_NEW);
        c->moves++;
    }
    return s;
}

void hpe_chain_interval(hpe_chain *c)
{
    for (uint32_t s = c->head[HPE_MIDDLE]; s != GMS_UVM_NONE; s = c->v[s].next) c->v[s].part = HPE_OLD;
    if (c->head[HPE_MIDDLE] != GMS_UVM_NONE) {     /* old += middle (middle is more recent) */
        if (c->tail[HPE_OLD] != GMS_UVM_NONE) {
            c->v[c->tail[HPE_OLD]].next = c->head[HPE_MIDDLE];
            c->v[c->head[HPE_MIDDLE]].prev = c->tail[HPE_OLD];
        } else {
            c->head[HPE_OLD] = c->head[HPE_MIDDLE];
        }
        c->tail[HPE_OLD] = c->tail[HPE_MIDDLE];
        c->count[HPE_OLD] += c->count[HPE_MIDDLE];
    }
    for (uint32_t s = c->head[HPE_NEW]; s != GMS_UVM_NONE; s = c->v[s].next) c->v[s].part = HPE_MIDDLE;
    c->head[HPE_MIDDLE] = c->head[HPE_NEW];
    c->tail[HPE_MIDDLE] = c->tail[HPE_NEW];
    c->count[HPE_MIDDLE] = c->count[HPE_NEW];
    c->head[HPE_NEW] = c->tail[HPE_NEW] = GMS_UVM_NONE;
    c->count[HPE_NEW] = 0;
}

void hpe_chain_remove(hpe_chain *c, uint32_t s)
{
    hpe_set *e = &c->v[s];
    unlink_set(c, s);
    gms_u64map_del(&c->map, e->tag);
    if (e->divided && !(e->tag & HPE_SECONDARY)) {
        int created;
        uint64_t *h = gms_u64map_upsert(&c->hist, e->tag, &created);
        if (created) *h = e->division;
    }
    e->in_use = 0;
    e->next = c->free_head;
    c->free_head = s;
}

static double ratio(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : a ? 1e300 : 0; }

int hpe_chain_classify(const hpe_chain *c, double t1, double t2, double *ratio1, double *ratio2)
{
    uint64_t reg = 0, irr = 0, small = 0, large = 0;
    for (int p = 0; p < 3; p++)
        for (uint32_t s = c->head[p]; s != GMS_UVM_NONE; s = c->v[s].next) {
            uint32_t k = c->v[s].counter;
            /* counter 0: a set made by a page that arrived without a fault (a prefetch, a
             * bulk copy) and not walked since has no fault history to classify: in neither
             * ratio (0 is divisible by S, but not "regular" in Table III's sense) */
            if (!k) continue;
            if (k % c->S) { irr++; continue; }
            reg++;
            if (k == c->S || k == 2 * c->S) small++;
            else if (k >= 3 * c->S) large++;
        }
    double r1 = ratio(irr, reg), r2 = ratio(large, small);
    if (ratio1) *ratio1 = r1;
    if (ratio2) *ratio2 = r2;
    return r1 > t1 ? HPE_IRREGULAR2 : r2 >= t2 ? HPE_IRREGULAR1 : HPE_REGULAR;
}

static uint32_t lru_end(const hpe_chain *c, int part, hpe_usable_fn usable, void *ud)
{
    for (uint32_t x = c->head[part]; x != GMS_UVM_NONE; x = c->v[x].next)
        if (usable(ud, x)) return x;
    return GMS_UVM_NONE;
}

static uint32_t mruc_scan(const hpe_chain *c, uint64_t jump, hpe_usable_fn usable, void *ud, uint64_t *comparisons)
{
    uint64_t skip = jump;
    if (c->count[HPE_OLD] && skip >= c->count[HPE_OLD]) skip = c->count[HPE_OLD] - 1;
    uint32_t best = GMS_UVM_NONE;
    for (uint32_t x = c->tail[HPE_OLD]; x != GMS_UVM_NONE; x = c->v[x].prev) {
        if (skip) { skip--; continue; }
        if (!usable(ud, x)) continue;
        ++*comparisons;
        if (c->v[x].counter == c->S) return x;
        if (best == GMS_UVM_NONE || c->v[x].counter < c->v[best].counter) best = x;
    }
    return best;
}

uint32_t hpe_chain_victim(const hpe_chain *c, int mruc, uint64_t jump, hpe_usable_fn usable, void *ud, int *part,
                          int *by_lru, uint64_t *comparisons)
{
    uint32_t x = GMS_UVM_NONE;
    *by_lru = !mruc;
    *part = HPE_OLD;
    if (mruc && c->count[HPE_OLD]) x = mruc_scan(c, jump, usable, ud, comparisons);
    /* LRU's choice, or MRU-C's when its scan found nothing: old is not empty of victims while
     * a skipped set has one, so it still goes before middle and new (spec 003 5.7) */
    if (x == GMS_UVM_NONE) {
        *by_lru = 1;
        for (int p = HPE_OLD; p <= HPE_NEW && x == GMS_UVM_NONE; p++) {
            x = lru_end(c, p, usable, ud);
            *part = p;
        }
    }
    return x;
}
