/* HPE's HIR cache: see hpe_hir.h. */
#include <stdlib.h>
#include <string.h>
#include "uvm/uvm_internal.h"
#include "uvm/hpe_hir.h"

void hpe_hir_init(hpe_hir *h, uint32_t entries, uint32_t ways, uint32_t set_pages, uint32_t counter_bits)
{
    *h = (hpe_hir){ 0 };
    h->ways = ways;
    h->sets = entries / ways;
    h->S = set_pages;
    h->shift = (uint32_t)__builtin_ctz(set_pages);
    h->cmax = (1u << counter_bits) - 1;
    h->tag = gms_xcalloc(entries, sizeof *h->tag);
    h->valid = gms_xcalloc(entries, 1);
    h->cnt = gms_xcalloc((size_t)entries * set_pages, sizeof *h->cnt);
    h->order = gms_xcalloc(entries, sizeof *h->order);
}

void hpe_hir_free(hpe_hir *h) { free(h->tag); free(h->valid); free(h->cnt); free(h->order); }

void hpe_hir_hit(hpe_hir *h, uint64_t vpn)
{
    uint64_t t = vpn >> h->shift;
    uint32_t set = (uint32_t)(t % h->sets), w, fr = GMS_UVM_NONE;
    h->hits++;
    for (w = 0; w < h->ways; w++) {
        uint32_t i = set * h->ways + w;
        if (h->valid[i] && h->tag[i] == t) break;
        if (!h->valid[i] && fr == GMS_UVM_NONE) fr = i;
    }
    uint32_t i;
    if (w < h->ways) {
        i = set * h->ways + w;
    } else if (fr != GMS_UVM_NONE) {
        i = fr;
        h->valid[i] = 1;
        h->tag[i] = t;
        h->order[h->norder++] = i;
    } else {
        h->conflicts++;
        return;
    }
    uint16_t *c = &h->cnt[(size_t)i * h->S + (vpn & (h->S - 1))];
    if (*c < h->cmax) (*c)++;
}

size_t hpe_hir_drain(hpe_hir *h, void (*fn)(void *ud, uint64_t vpn, uint32_t hits), void *ud)
{
    size_t n = h->norder;
    for (uint32_t k = 0; k < h->norder; k++) {
        uint32_t i = h->order[k];
        uint16_t *c = &h->cnt[(size_t)i * h->S];
        for (uint32_t off = 0; off < h->S; off++)
            if (c[off]) fn(ud, (h->tag[i] << h->shift) | off, c[off]);
        memset(c, 0, h->S * sizeof *c);
        h->valid[i] = 0;
    }
    h->norder = 0;
    return n;
}
