/* CLOCK-Pro (Jiang, Chen, Zhang, USENIX ATC'05) over pages, as spec 003 section 4 uses it:
 * m_c = -uvm_clockpro_cold (128) frames for resident cold pages, fixed unless
 * -uvm_clockpro_adaptive 1 (the original's +1 on a test-period hit, -1 on a test-period
 * expiry; a hit is a cold page re-referenced in its test period, found by HAND_cold while
 * resident or faulting back after its eviction). One circular list holds resident hot pages, resident cold pages and non-resident
 * cold pages still in their test period; a reference sets a page's bit (walk-level references
 * by default, evict_refs.h). New pages go to the list head (just behind HAND_hot).
 *  - HAND_cold (victim search) stops at resident cold pages: bit 0 -> the victim (it stays in
 *    the list as non-resident while in its test period); bit 1 in its test period -> promoted
 *    to hot and moved to the head; bit 1 otherwise -> bit cleared, new test period, moved to the
 *    head.
 *  - HAND_hot runs while hot pages exceed m - m_c: a hot page with bit 1 has it cleared, with
 *    bit 0 is demoted to cold; it ends the test periods it passes (non-resident ones leave).
 *  - HAND_test keeps the non-resident pages at most m (the capacity) by ending the oldest
 *    test periods.
 * A page that faults while non-resident in its test period comes back hot. m is the capacity
 * in frames (fixed at the first kernel launch). */
#include <stdlib.h>
#include "uvm/evict_refs.h"

enum { CP_OUT = 0, CP_HOT = 1, CP_COLD = 2, CP_NONRES = 3 };   /* kinds; CP_OUT = not in the list */

typedef struct cp {
    gms_uvm *u;
    uint32_t *prev, *next; uint8_t *kind, *ref, *test; uint32_t cap;
    uint32_t hand_hot, hand_cold, hand_test;   /* GMS_UVM_NONE when the list is empty */
    uint64_t n_hot, n_cold, n_nonres, mc;
    uint64_t promotions, demotions, test_hits;
} cp;

static void grow(void *st, gms_uvm *u)
{
    cp *s = st;
    if (u->npages <= s->cap) return;
    uint32_t cap = s->cap ? s->cap : 64;
    while (cap < u->npages) cap *= 2;
    s->prev = gms_xrealloc(s->prev, cap * sizeof *s->prev);
    s->next = gms_xrealloc(s->next, cap * sizeof *s->next);
    s->kind = gms_xrealloc(s->kind, cap);
    s->ref = gms_xrealloc(s->ref, cap);
    s->test = gms_xrealloc(s->test, cap);
    for (uint32_t i = s->cap; i < cap; i++) s->kind[i] = s->ref[i] = s->test[i] = 0;
    s->cap = cap;
}

static void *create(gms_uvm *u, gms_error *err)
{
    (void)err;
    cp *s = gms_xcalloc(1, sizeof *s);
    s->u = u;
    s->hand_hot = s->hand_cold = s->hand_test = GMS_UVM_NONE;
    s->mc = u->prm->pol.clockpro_cold;
    grow(s, u);
    return s;
}
static void destroy(void *st) { cp *s = st; free(s->prev); free(s->next); free(s->kind); free(s->ref); free(s->test); free(s); }

static uint64_t mem(const cp *s) { return s->u->cap_limited ? s->u->cap_frames : UINT64_MAX; }
static uint64_t mc_eff(const cp *s)
{
    uint64_t m = mem(s);
    if (m == UINT64_MAX) return s->mc ? s->mc : 1;
    uint64_t c = s->mc < 1 ? 1 : s->mc;
    return m > 1 && c > m - 1 ? m - 1 : c;
}

/* ---- the list ---- */
static void unlink_page(cp *s, uint32_t p)
{
    uint32_t nx = s->next[p];
    if (nx == p) {
        s->hand_hot = s->hand_cold = s->hand_test = GMS_UVM_NONE;
    } else {
        s->next[s->prev[p]] = nx;
        s->prev[nx] = s->prev[p];
        if (s->hand_hot == p) s->hand_hot = nx;
        if (s->hand_cold == p) s->hand_cold = nx;
        if (s->hand_test == p) s->hand_test = nx;
    }
}

static void insert_head(cp *s, uint32_t p)
{
    if (s->hand_hot == GMS_UVM_NONE) {
        s->next[p] = s->prev[p] = p;
        s->hand_hot = s->hand_cold = s->hand_test = p;
        return;
    }
    uint32_t h = s->hand_hot, pv = s->prev[h];   /* just behind HAND_hot: the last it reaches */
    s->prev[p] = pv; s->next[p] = h;
    s->next[pv] = p; s->prev[h] = p;
}

static void drop(cp *s, uint32_t p)
{
    unlink_page(s, p);
    s->kind[p] = CP_OUT;
    s->ref[p] = s->test[p] = 0;
}

static void end_test(cp *s, uint32_t p)
{
    if (!s->test[p]) return;
    s->test[p] = 0;
    if (s->u->prm->pol.clockpro_adaptive && s->mc > 1) s->mc--;
    if (s->kind[p] == CP_NONRES) { s->n_nonres--; drop(s, p); }
}

static void run_hand_test(cp *s)
{
    uint64_t limit = mem(s), guard = 2 * (s->n_hot + s->n_cold + s->n_nonres) + 2;
    while (s->n_nonres > limit && s->hand_test != GMS_UVM_NONE && guard--) {
        uint32_t p = s->hand_test;
        s->hand_test = s->next[p];
        if (s->kind[p] != CP_HOT) end_test(s, p);
    }
}

static void run_hand_hot(cp *s)
{
    uint64_t guard = 3 * (s->n_hot + s->n_cold + s->n_nonres) + 2;
    uint64_t mh = mem(s) == UINT64_MAX ? UINT64_MAX : mem(s) - mc_eff(s);
    while (s->n_hot > mh && s->hand_hot != GMS_UVM_NONE && guard--) {
        uint32_t p = s->hand_hot;
        s->hand_hot = s->next[p];
        if (s->kind[p] == CP_HOT) {
            if (s->ref[p]) { s->ref[p] = 0; continue; }
            s->kind[p] = CP_COLD;
            s->n_hot--; s->n_cold++;
            s->demotions++;
        } else {
            end_test(s, p);
        }
    }
}

/* ---- hooks ---- */
static void resident(void *st, uint32_t page, uint64_t now)
{
    (void)now;
    cp *s = st;
    if (s->kind[page] == CP_NONRES) {             /* back within its test period: hot */
        s->test_hits++;
        if (s->u->prm->pol.clockpro_adaptive) s->mc++;
        s->n_nonres--;
        drop(s, page);
        s->kind[page] = CP_HOT;
        s->n_hot++;
        insert_head(s, page);
        run_hand_hot(s);
        return;
    }
    if (s->kind[page] != CP_OUT) drop(s, page);   /* (not expected) */
    s->kind[page] = CP_COLD;
    s->test[page] = 1;
    s->ref[page] = 0;
    s->n_cold++;
    insert_head(s, page);
}

static void removed(void *st, uint32_t page)
{
    cp *s = st;
    if (s->kind[page] == CP_HOT) { s->n_hot--; drop(s, page); return; }
    if (s->kind[page] != CP_COLD) return;
    s->n_cold--;
    s->ref[page] = 0;
    if (s->test[page]) {
        s->kind[page] = CP_NONRES;
        s->n_nonres++;
        run_hand_test(s);
    } else {
        drop(s, page);
    }
}

static void ref(void *st, uint32_t page, uint64_t now)
{
    (void)now;
    cp *s = st;
    if (s->kind[page] == CP_HOT || s->kind[page] == CP_COLD) s->ref[page] = 1;
}
GMS_EVICT_REFS_HOOKS(cp, ref, ((cp *)st)->u)

static void select_cp(void *st, gms_uvm *u, uint64_t now, gms_uvm_vec *out)
{
    (void)u; (void)now;
    cp *s = st;
    if (!s->n_cold && s->n_hot) {                 /* every resident page is hot: demote one */
        uint64_t keep = s->n_hot - 1, guard = 3 * (s->n_hot + s->n_nonres) + 2;
        while (s->n_hot > keep && guard--) {
            uint32_t p = s->hand_hot;
            s->hand_hot = s->next[p];
            if (s->kind[p] != CP_HOT) continue;
            if (s->ref[p]) { s->ref[p] = 0; continue; }
            s->kind[p] = CP_COLD; s->n_hot--; s->n_cold++; s->demotions++;
        }
    }
    uint64_t guard = 3 * (s->n_hot + s->n_cold + s->n_nonres) + 2;
    while (s->n_cold && guard--) {
        uint32_t p = s->hand_cold;
        s->hand_cold = s->next[p];
        if (s->kind[p] != CP_COLD || s->u->pages[p].state != GMS_PG_RESIDENT) continue;
        if (!s->ref[p]) { gms_uvm_vec_push(out, p); return; }
        s->ref[p] = 0;
        unlink_page(s, p);
        if (s->test[p]) {                         /* re-referenced in its test period: hot */
            s->kind[p] = CP_HOT; s->test[p] = 0;
            s->n_cold--; s->n_hot++;
            s->promotions++;
            if (s->u->prm->pol.clockpro_adaptive) s->mc++;   /* a test-period hit, resident or not */
            insert_head(s, p);
            run_hand_hot(s);
        } else {
            s->test[p] = 1;
            insert_head(s, p);
        }
    }
    /* nothing cold found within the guard: any resident page at HAND_hot */
    for (uint32_t p = s->hand_hot, k = 0; p != GMS_UVM_NONE && k < s->n_hot + s->n_cold + s->n_nonres; p = s->next[p], k++)
        if ((s->kind[p] == CP_HOT || s->kind[p] == CP_COLD) && s->u->pages[p].state == GMS_PG_RESIDENT) {
            gms_uvm_vec_push(out, p);
            return;
        }
}

static void report(void *st, gms_uvm *u, gms_stats *out)
{
    (void)u;
    cp *s = st;
    gms_stat_u64(out, "Uvm_clockpro_promotions", s->promotions);
    gms_stat_u64(out, "Uvm_clockpro_demotions", s->demotions);
    gms_stat_u64(out, "Uvm_clockpro_test_hits", s->test_hits);
    gms_stat_u64(out, "Uvm_clockpro_cold_target", s->mc);
}

const gms_uvm_evict_ops gms_uvm_evict_clockpro = {
    .name = "clockpro", .uvmsmart_id = -1, .knobs = GMS_KNOBS("uvm_clockpro_", "uvm_policy_refs"), .help = "CLOCK-Pro over pages (m_c = -uvm_clockpro_cold, fixed by default)",
    .create = create, .destroy = destroy, .grow = grow, .resident = resident, .removed = removed,
    .access = cp_access, .walk_hit = cp_walk_hit, .select = select_cp, .report = report,
};
