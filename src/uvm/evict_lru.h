/* LRU list over eviction units (4 KiB page, 64 KiB block or 2 MiB region), shared by the LRU
 * policies and the tree-based policy. A unit is in the list while it has a resident page. */
#ifndef GMS_UVM_EVICT_LRU_H
#define GMS_UVM_EVICT_LRU_H
#include "uvm/uvm_internal.h"

enum { GMS_LRU_PAGE = 0, GMS_LRU_BLOCK, GMS_LRU_REGION };

typedef struct gms_lru {
    gms_uvm *u;
    int unit;
    int on_access;            /* -uvm_lru_on_access: GMS_LRU_ON_ACCESS, _ON_MIGRATION or _ON_WALK */
    int whole;                /* -uvm_evict_whole: the victim is the least recently used whole unit */
    int wait;                 /* -uvm_evict_whole_wait: none whole and a migration on the link: no victim */
    uint64_t waits, fallbacks;   /* none whole: waited; took the least recently used unit */
    uint32_t *prev, *next, *cnt;
    uint32_t cap;
    uint32_t head, tail;      /* head = least recently used */
    /* -uvm_lru_region_first (block units only): besides the list above, each region's listed
     * blocks in their own order (bprev/bnext, rbhead/rbtail) and the regions with a listed
     * block ordered by their most recently used one (rprev/rnext, rhead = oldest) */
    int region_first;
    uint32_t *bprev, *bnext, *rbhead, *rbtail, *rprev, *rnext;
    uint32_t rcap;
    uint32_t rhead, rtail;
} gms_lru;

void gms_lru_init(gms_lru *l, gms_uvm *u, int unit);
/* right after gms_lru_init, before any page: a block LRU ordered by region first under
 * -uvm_lru_region_first (SE and TE, UVMSmart's sort_valid_pages); no effect otherwise */
void gms_lru_set_region_first(gms_lru *l);
void gms_lru_free(gms_lru *l);
void gms_lru_grow(gms_lru *l);
uint32_t gms_lru_unit_of(const gms_lru *l, uint32_t page);
void gms_lru_resident(gms_lru *l, uint32_t page);
void gms_lru_removed(gms_lru *l, uint32_t page);
void gms_lru_access(gms_lru *l, uint32_t page);
/* -uvm_lru_on_access walk: a walk found the page resident, or a far fault on it */
void gms_lru_walk(gms_lru *l, uint32_t page);
/* the unit to evict: the least recently used one, or under -uvm_evict_whole the least recently
 * used one whose pages are all resident (if none is: GMS_UVM_NONE under -uvm_evict_whole_wait
 * while a migration is on the link, else the least recently used one); GMS_UVM_NONE when the
 * list is empty */
uint32_t gms_lru_victim(gms_lru *l);
/* the eviction order gms_lru_victim searches: the first unit, the one after x (GMS_UVM_NONE
 * at the end); under -uvm_lru_region_first region by region, else the list's order */
uint32_t gms_lru_first(const gms_lru *l);
uint32_t gms_lru_after(const gms_lru *l, uint32_t x);
/* under -uvm_evict_whole, whether all of unit x's pages are resident */
int gms_lru_unit_whole(const gms_lru *l, uint32_t x);
/* -uvm_evict_whole's counters (Uvm_evict_whole_waits, _fallbacks) */
void gms_lru_report(const gms_lru *l, gms_stats *out);
/* append the resident pages of a unit to out */
void gms_lru_unit_pages(const gms_lru *l, uint32_t unit, gms_uvm_vec *out);

#endif
