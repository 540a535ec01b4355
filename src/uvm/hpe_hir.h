/* HPE's hit information record (spec 003 5.3): a set-associative cache beside the page-table
 * walker. Each entry is a page set's tag and one saturating hit counter per page; a walk hit
 * increments its page's counter, allocating an entry on a miss; with no free way the hit is
 * lost (a way conflict, counted). A first-touch order vector remembers in which order entries
 * were allocated; drain hands the records over in that order and flushes the cache. */
#ifndef GMS_UVM_HPE_HIR_H
#define GMS_UVM_HPE_HIR_H
#include <stdint.h>
#include <stddef.h>

typedef struct hpe_hir {
    uint32_t sets, ways, S, shift, cmax;
    uint64_t *tag; uint8_t *valid; uint16_t *cnt;   /* per way; cnt: S per way */
    uint32_t *order; uint32_t norder;
    uint64_t hits, conflicts;
} hpe_hir;

void hpe_hir_init(hpe_hir *h, uint32_t entries, uint32_t ways, uint32_t set_pages, uint32_t counter_bits);
void hpe_hir_free(hpe_hir *h);
void hpe_hir_hit(hpe_hir *h, uint64_t vpn);
/* each recorded page (vpn, hits) in first-touch order of the entries, then flush; returns the
 * number of populated entries transferred */
size_t hpe_hir_drain(hpe_hir *h, void (*fn)(void *ud, uint64_t vpn, uint32_t hits), void *ud);

#endif
