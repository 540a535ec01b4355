/* TLB: sets of `assoc` slots with per-set LRU lists; a hash map from the page number to the slot
 * makes every lookup O(1) whatever the associativity (fully associative = one set). */
#include <stdlib.h>
#include <string.h>
#include "uvm/uvm_internal.h"

static void tlb_reset_sets(gms_tlb *t);

void gms_tlb_init(gms_tlb *t, uint32_t entries, uint32_t assoc)
{
    if (!assoc || assoc > entries) assoc = entries;
    memset(t, 0, sizeof *t);
    t->assoc = assoc;
    t->nsets = entries / assoc;
    t->last_vpn = UINT64_MAX;
}

/* the arrays, at the first fill (an empty TLB: every lookup misses, nothing to invalidate) */
static void tlb_make(gms_tlb *t)
{
    uint32_t n = t->nsets * t->assoc;
    t->ready = 1;
    gms_u64map_init(&t->map, n);
    t->vpn = gms_xmalloc(n * sizeof *t->vpn);
    t->page = gms_xmalloc(n * sizeof *t->page);
    t->prev = gms_xmalloc(n * sizeof *t->prev);
    t->next = gms_xmalloc(n * sizeof *t->next);
    t->head = gms_xmalloc(t->nsets * sizeof *t->head);
    t->tail = gms_xmalloc(t->nsets * sizeof *t->tail);
    t->used = gms_xmalloc(t->nsets * sizeof *t->used);
    t->free_head = gms_xmalloc(t->nsets * sizeof *t->free_head);
    t->evictions = 0;
    tlb_reset_sets(t);   /* the map is empty already */
}

void gms_tlb_flush(gms_tlb *t)
{
    if (!t->ready) return;
    gms_u64map_clear(&t->map);
    t->last_vpn = UINT64_MAX;
    tlb_reset_sets(t);
}

static void tlb_reset_sets(gms_tlb *t)
{
    for (uint32_t s = 0; s < t->nsets; s++) {
        t->head[s] = t->tail[s] = GMS_UVM_NONE;
        t->used[s] = 0;
        t->free_head[s] = s * t->assoc;
        for (uint32_t w = 0; w < t->assoc; w++) {
            uint32_t i = s * t->assoc + w;
            t->next[i] = w + 1 < t->assoc ? i + 1 : GMS_UVM_NONE;
        }
    }
}

void gms_tlb_free(gms_tlb *t)
{
    if (!t->ready) return;
    gms_u64map_free(&t->map);
    free(t->vpn); free(t->page); free(t->prev); free(t->next);
    free(t->head); free(t->tail); free(t->used); free(t->free_head);
}

static void unlink_slot(gms_tlb *t, uint32_t s, uint32_t i)
{
    if (t->prev[i] != GMS_UVM_NONE) t->next[t->prev[i]] = t->next[i]; else t->head[s] = t->next[i];
    if (t->next[i] != GMS_UVM_NONE) t->prev[t->next[i]] = t->prev[i]; else t->tail[s] = t->prev[i];
}

static void push_mru(gms_tlb *t, uint32_t s, uint32_t i)
{
    t->prev[i] = GMS_UVM_NONE;
    t->next[i] = t->head[s];
    if (t->head[s] != GMS_UVM_NONE) t->prev[t->head[s]] = i; else t->tail[s] = i;
    t->head[s] = i;
}

int gms_tlb_lookup(gms_tlb *t, uint64_t vpn, uint32_t *page)
{
    if (!t->ready) return 0;
    uint32_t i;
    if (vpn == t->last_vpn) {
        i = t->last_i;
    } else {
        const uint64_t *v = gms_u64map_get(&t->map, vpn);
        if (!v) return 0;
        i = (uint32_t)*v;
        t->last_vpn = vpn;
        t->last_i = i;
    }
    uint32_t s = i / t->assoc;
    if (t->head[s] != i) { unlink_slot(t, s, i); push_mru(t, s, i); }
    *page = t->page[i];
    return 1;
}

int gms_tlb_fill(gms_tlb *t, uint64_t vpn, uint32_t page, uint64_t *victim_vpn, uint32_t *victim_page)
{
    if (!t->ready) tlb_make(t);
    const uint64_t *v = gms_u64map_get(&t->map, vpn);
    uint32_t s = (uint32_t)(vpn % t->nsets), i;
    if (victim_vpn) *victim_vpn = UINT64_MAX;
    if (v) {
        i = (uint32_t)*v;
        t->page[i] = page;
        if (t->head[s] != i) { unlink_slot(t, s, i); push_mru(t, s, i); }
        return 0;
    }
    if (t->free_head[s] != GMS_UVM_NONE) {
        i = t->free_head[s];
        t->free_head[s] = t->next[i];
        t->used[s]++;
    } else {
        i = t->tail[s];
        unlink_slot(t, s, i);
        gms_u64map_del(&t->map, t->vpn[i]);
        if (t->last_vpn == t->vpn[i]) t->last_vpn = UINT64_MAX;
        t->evictions++;
        if (victim_vpn) *victim_vpn = t->vpn[i];
        if (victim_page) *victim_page = t->page[i];
    }
    t->vpn[i] = vpn;
    t->page[i] = page;
    push_mru(t, s, i);
    gms_u64map_put(&t->map, vpn, i);
    return 1;
}

int gms_tlb_invalidate(gms_tlb *t, uint64_t vpn)
{
    if (!t->ready) return 0;
    const uint64_t *v = gms_u64map_get(&t->map, vpn);
    if (!v) return 0;
    uint32_t i = (uint32_t)*v, s = i / t->assoc;
    gms_u64map_del(&t->map, vpn);
    if (t->last_vpn == vpn) t->last_vpn = UINT64_MAX;
    unlink_slot(t, s, i);
    t->next[i] = t->free_head[s];
    t->free_head[s] = i;
    t->used[s]--;
    return 1;
}
