/* HPE's page-set chain (spec 003 5.4-5.6): page sets of S contiguous pages, one ordered chain
 * in three partitions, old (referenced before the last interval), middle (last interval) and
 * new (this interval), each kept LRU (head) to MRU (tail). A touch moves a set from old or
 * middle to the MRU end of new; within an interval a set already in new does not move. The
 * interval end makes old += middle, middle = new, new = {}. A primary set whose counter
 * reaches the saturation value with some of its pages never faulted is divided: its faulted
 * pages stay (primary), the others go to a secondary set (another tag) when touched later. A
 * divided primary leaves its division in the history buffer when it leaves the chain, and a
 * set that comes back is divided the same way again (the first division is kept). */
#ifndef GMS_UVM_HPE_CHAIN_H
#define GMS_UVM_HPE_CHAIN_H
#include <stdint.h>
#include "util/hashmap.h"

#define HPE_SECONDARY (1ULL << 63)     /* tag bit of a secondary set */
enum { HPE_OLD = 0, HPE_MIDDLE = 1, HPE_NEW = 2 };

typedef struct hpe_set {
    uint64_t tag;            /* vpn >> log2(S), | HPE_SECONDARY */
    uint64_t bits;           /* pages touched by faults (bit = page offset) */
    uint64_t division;       /* divided primary: its own pages */
    uint32_t counter;        /* touches (faults + walk hits), saturating */
    uint32_t resident;       /* resident pages counted in this set */
    uint32_t pending;        /* its faulted pages still on their way (evict_hpe.c) */
    uint32_t prev, next;     /* partition list */
    uint8_t part, divided, in_use;
} hpe_set;

typedef struct hpe_chain {
    uint32_t S, shift, sat;
    hpe_set *v; uint32_t n, cap, free_head;
    gms_u64map map;          /* tag -> set */
    gms_u64map hist;         /* primary tag -> division (the history buffer) */
    uint32_t head[3], tail[3], count[3];
    uint64_t divisions, moves, creations;
} hpe_chain;

void hpe_chain_init(hpe_chain *c, uint32_t set_pages, uint32_t saturation);
void hpe_chain_free(hpe_chain *c);
/* the tag a page belongs to now (primary, or secondary by its set's or the history's division) */
uint64_t hpe_chain_route(const hpe_chain *c, uint64_t vpn);
/* the set of the page (NONE = 0xffffffff when not in the chain) */
uint32_t hpe_chain_find(const hpe_chain *c, uint64_t vpn);
/* a touch (a fault, or `count` walk hits): counter, fault bit, division, move to new's MRU end;
 * creates the set when absent (count 0: only make sure it exists, no counting, no move) */
uint32_t hpe_chain_touch(hpe_chain *c, uint64_t vpn, uint32_t count, int is_fault);
void hpe_chain_interval(hpe_chain *c);
void hpe_chain_remove(hpe_chain *c, uint32_t set);
/* Table III, once at the first full memory: over every set of the chain, counters divisible by
 * S are regular (S, 2S small; 3S and up large), the others irregular, counter 0 (no fault or
 * walk yet: a prefetched or copied page's set) neither; ratio_1 = irregular /
 * regular, ratio_2 = large / small (x / 0 = infinity for x > 0, else 0). Returns HPE_REGULAR
 * (ratio_1 <= t1, ratio_2 < t2), HPE_IRREGULAR1 (ratio_1 <= t1, ratio_2 >= t2) or HPE_IRREGULAR2. */
enum { HPE_REGULAR = 0, HPE_IRREGULAR1 = 1, HPE_IRREGULAR2 = 2 };
/* whether a set can give a victim page now (it has a resident page) */
typedef int (*hpe_usable_fn)(void *ud, uint32_t set);
/* spec 003 5.7's victim set among the usable ones: the old partition first; MRU-C (mruc):
 * from old's MRU end past `jump` sets (clamped to keep its LRU end), the first set whose counter
 * is S, else the smallest counter, nearest the MRU end on ties; when that scan finds none (the
 * usable sets are among the skipped ones), old's LRU end; LRU: old's LRU end. Old giving
 * none: the LRU end of middle, then of new. *part: the partition it came from; *by_lru: chosen
 * in LRU order; *comparisons counts the sets MRU-C compared. GMS_UVM_NONE when none is usable. */
uint32_t hpe_chain_victim(const hpe_chain *c, int mruc, uint64_t jump, hpe_usable_fn usable, void *ud, int *part,
                          int *by_lru, uint64_t *comparisons);
int hpe_chain_classify(const hpe_chain *c, double t1, double t2, double *ratio1, double *ratio2);
/* first vpn of a set's pages */
static inline uint64_t hpe_set_vpn0(const hpe_chain *c, uint32_t s) { return (c->v[s].tag & ~HPE_SECONDARY) << c->shift; }

#endif
