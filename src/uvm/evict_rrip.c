/* RRIP as spec 003 section 4 uses it: page-level SRRIP with frequency-priority promotion and a
 * per-page delay field. M-bit RRPV (-uvm_rrip_bits, 2); a page arrives at long (2^M - 2) or,
 * with -uvm_rrip_insert 1, distant (2^M - 1); each walk-level reference (evict_refs.h)
 * decrements it by one (FP; HP would set 0). The delay field holds the global fault number at
 * insertion; a victim must be distant AND at least -uvm_rrip_delay faults old (spec 003: 128
 * with distant insertion for type II, 0 with long insertion for the others). Victim search:
 * scan the resident pages from a rotating hand for the first qualified page; if none, age
 * every page by the distance of the oldest prediction to distant and scan again; if distant
 * pages exist but none passes the delay check (spec 003 8.8 leaves this open), the distant
 * page inserted longest ago goes. */
#include <stdlib.h>
#include "uvm/evict_refs.h"

typedef struct rrip {
    gms_uvm *u;
    uint8_t *rrpv; uint64_t *ins;      /* per page */
    uint32_t *res, *pos; uint32_t n, cap, hand;
    uint8_t max;
    uint64_t faults, searches, scanned, fallbacks;
} rrip;

static void grow(void *st, gms_uvm *u)
{
    rrip *s = st;
    if (u->npages <= s->cap) return;
    uint32_t cap = s->cap ? s->cap : 64;
    while (cap < u->npages) cap *= 2;
    s->rrpv = gms_xrealloc(s->rrpv, cap * sizeof *s->rrpv);
    s->ins = gms_xrealloc(s->ins, cap * sizeof *s->ins);
    s->res = gms_xrealloc(s->res, cap * sizeof *s->res);
    s->pos = gms_xrealloc(s->pos, cap * sizeof *s->pos);
    s->cap = cap;
}

static void *create(gms_uvm *u, gms_error *err)
{
    (void)err;
    rrip *s = gms_xcalloc(1, sizeof *s);
    s->u = u;
    s->max = (uint8_t)((1u << u->prm->pol.rrip_bits) - 1);
    grow(s, u);
    return s;
}
static void destroy(void *st) { rrip *s = st; free(s->rrpv); free(s->ins); free(s->res); free(s->pos); free(s); }

static void resident(void *st, uint32_t page, uint64_t now)
{
    (void)now;
    rrip *s = st;
    s->rrpv[page] = s->u->prm->pol.rrip_distant ? s->max : (uint8_t)(s->max - 1);
    s->ins[page] = s->faults;
    s->pos[page] = s->n;
    s->res[s->n++] = page;
}

static void removed(void *st, uint32_t page)
{
    rrip *s = st;
    uint32_t i = s->pos[page], last = s->res[--s->n];
    s->res[i] = last;
    s->pos[last] = i;
}

static void ref(void *st, uint32_t page, uint64_t now)
{
    (void)now;
    rrip *s = st;
    if (s->u->pages[page].state == GMS_PG_RESIDENT && s->rrpv[page]) s->rrpv[page]--;
}
GMS_EVICT_REFS_HOOKS(rrip, ref, ((rrip *)st)->u)

static void fault(void *st, uint32_t page, uint64_t now) { (void)page; (void)now; ((rrip *)st)->faults++; }

static void select_rrip(void *st, gms_uvm *u, uint64_t now, gms_uvm_vec *out)
{
    (void)u; (void)now;
    rrip *s = st;
    if (!s->n) return;
    uint64_t delay = s->u->prm->pol.rrip_delay;
    s->searches++;
    for (uint32_t round = 0; round <= s->max; round++) {
        uint8_t top = 0;
        for (uint32_t k = 0; k < s->n; k++) {
            uint32_t i = (s->hand + k) % s->n, p = s->res[i];
            s->scanned++;
            if (s->rrpv[p] > top) top = s->rrpv[p];
            if (s->rrpv[p] == s->max && s->faults - s->ins[p] >= delay) {
                s->hand = i;   /* the page at i leaves; its slot takes the last page */
                gms_uvm_vec_push(out, p);
                return;
            }
        }
        if (top == s->max) break;   /* distant pages exist, none passes the delay check */
        for (uint32_t k = 0; k < s->n; k++) s->rrpv[s->res[k]] += (uint8_t)(s->max - top);
    }
    uint32_t best = GMS_UVM_NONE;
    for (uint32_t k = 0; k < s->n; k++) {
        uint32_t p = s->res[k];
        if (s->rrpv[p] == s->max && (best == GMS_UVM_NONE || s->ins[p] < s->ins[best])) best = p;
    }
    if (best == GMS_UVM_NONE) best = s->res[s->hand % s->n];
    s->fallbacks++;
    gms_uvm_vec_push(out, best);
}

static void report(void *st, gms_uvm *u, gms_stats *out)
{
    (void)u;
    rrip *s = st;
    gms_stat_u64(out, "Uvm_rrip_searches", s->searches);
    gms_stat_f64(out, "Uvm_rrip_comparisons_per_search", s->searches ? (double)s->scanned / (double)s->searches : 0);
    gms_stat_u64(out, "Uvm_rrip_delay_fallbacks", s->fallbacks);
}

const gms_uvm_evict_ops gms_uvm_evict_rrip = {
    .name = "rrip", .uvmsmart_id = -1, .knobs = GMS_KNOBS("uvm_rrip_", "uvm_policy_refs"), .help = "RRIP (FP) over pages with spec 003's delay field (-uvm_rrip_*)",
    .create = create, .destroy = destroy, .grow = grow, .resident = resident, .removed = removed,
    .access = rrip_access, .walk_hit = rrip_walk_hit, .fault = fault, .select = select_rrip, .report = report,
};
