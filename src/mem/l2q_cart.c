/* L2 input queue "cart": the Cache Access Reordering Tree (spec 000a chapter 2, docs/cart.md).
 *
 * A FIFO incoming buffer (the icnt->L2 queue, its capacity) feeds the tree one request per
 * L2 cycle (tick: the fill of 2.4); the slice drains one request per cycle from the tree
 * (peek/pop: the drain of 2.5). The tree has one branch per DRAM bank of the channel; a
 * branch has nR row groups {row}, each owning nC leaf queues tagged (row, col) of nE
 * entries. Leaf queues are intrusive lists through the request's `next` link.
 *
 * Choices the spec leaves open (2.7, 11.2), documented in docs/cart.md:
 *  - a queue is assigned while it holds a request; a group while any of its queues does
 *    (so both are released as soon as they empty; the tag stays, for a putback);
 *  - two queues with one tag: the fill merges into the newer one, and only the older one may
 *    drain, so the order within a line (bank, row, col) is the arrival order;
 *  - a reservation fail puts the request back at its queue's head; last_q is kept and the
 *    next cycle rotates on to the next non-empty bank;
 *  - a drain that is not popped (the slice's L2->icnt queue full, the data port busy)
 *    changes nothing: the same pick is made next cycle;
 *  - fill and drain each take one L2 cycle (the fill runs after the access in the slice's
 *    cycle, so a request spends at least one more cycle than in the FIFO);
 *  - the optional age cap (spec 2.7, -gms_l2q_cart_age, off by default): in the branch the
 *    rotation visits, an eligible queue whose head has waited more than the cap since it
 *    became the head is drained first (the oldest such). */
#include "mem/l2q_cart.h"
#include "mem/addrdec.h"
#include "mem/hw_cost.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct leafq {
    gms_mreq *head, *tail;
    uint32_t n, row, col, gen;   /* gen: bumped when the queue is (re)assigned */
    uint64_t seq;                /* assignment order, for the same-tag rule */
    uint64_t t_head;             /* core cycle its head became the head (age cap) */
} leafq;

typedef struct rgroup { uint32_t row, n; } rgroup;   /* n requests in the group's queues */

typedef struct branch {
    uint32_t n;
    int32_t last_q;              /* leaf index within the branch, -1 none */
    uint32_t last_gen, last_row;
    int has_row;
} branch;

enum { PICK_SAME_Q, PICK_SAME_ROW, PICK_LONGEST, PICK_OTHER, PICK_AGED };

typedef struct cart {
    gms_mreq_fifo in;
    const gms_addrdec *dec;
    uint32_t nb, nr, nc, ne, per_b, drain, age_cap;
    uint64_t now, out_thead;     /* the last peek's or tick's cycle; the popped head's t_head */
    leafq *q;                    /* nb * nr * nc, branch-major, then group, then slot */
    rgroup *g;                   /* nb * nr */
    branch *b;
    uint64_t nonempty;           /* bit i: branch i holds a request */
    uint32_t cur_bank, rr_pos, held;
    uint64_t seq;
    int32_t sel, out;            /* global leaf index of the last peek / pop */
    int sel_kind, out_kind;      /* the last peek's pick kind; the popped request's */
    int hand_placed;             /* the golden test went over nE */
    /* host speed: a fill that stalled cannot succeed before a drain changes the tree, so it
     * is not retried until then; the head's coordinates are decoded once */
    int fill_blocked;
    const gms_mreq *coord_of;
    gms_cart_coord head_coord;
    gms_l2q_stats st;
} cart;

gms_cart_coord gms_l2q_cart_coord(const void *self, uint64_t addr)
{
    const cart *c = self;
    uint64_t line = addr >> 7;
    if (!c->dec)
        return (gms_cart_coord){ (uint32_t)((line >> 5) & 15) % c->nb, (uint32_t)(line >> 9), (uint32_t)(line & 31) };
    /* the column of the line-aligned address: the column bits inside the line are zero, so
     * the requests of one line share a column and different lines of a row do not */
    gms_addrdec_dram d;
    gms_addrdec_dram_of(c->dec, line << 7, &d);
    return (gms_cart_coord){ d.bank % c->nb, d.row, d.col };
}

static void *cart_create(const gms_l2q_env *env)
{
    cart *c = gms_xcalloc(1, sizeof *c);
    c->in.cap = env->capacity;
    c->dec = env->dec;
    gms_l2q_params prm = env->prm;
    if (!prm.cart_rows) gms_l2q_params_default(&prm);
    c->nr = prm.cart_rows;
    c->nc = prm.cart_cols;
    c->ne = prm.cart_entries;
    c->drain = prm.cart_drain;
    c->age_cap = prm.cart_age_cap;
    c->nb = 16;
    if (c->dec) {
        uint32_t bits = (uint32_t)__builtin_popcountll(c->dec->cfg.mask[GMS_AD_BK]);
        c->nb = c->dec->cfg.nbk > (1u << bits) ? c->dec->cfg.nbk : 1u << bits;
        if (c->nb > 64) c->nb = 64;   /* the non-empty mask: more banks share branches */
        if (!c->nb) c->nb = 1;
    }
    c->per_b = c->nr * c->nc;
    c->q = gms_xcalloc((size_t)c->nb * c->per_b, sizeof *c->q);
    c->g = gms_xcalloc((size_t)c->nb * c->nr, sizeof *c->g);
    c->b = gms_xcalloc(c->nb, sizeof *c->b);
    for (uint32_t i = 0; i < c->nb; i++) c->b[i].last_q = -1;
    c->cur_bank = c->nb - 1;     /* the first drain looks at bank 0 first */
    c->rr_pos = c->nb * c->per_b - 1;
    c->sel = c->out = -1;
    return c;
}

static void cart_destroy(void *self)
{
    cart *c = self;
    free(c->q);
    free(c->g);
    free(c->b);
    free(c);
}

static uint32_t cart_space(const void *self)
{
    const cart *c = self;
    if (!c->in.cap) return UINT32_MAX;
    return c->in.n >= c->in.cap ? 0 : c->in.cap - c->in.n;
}
static void cart_push(void *self, gms_mreq *r, uint64_t now) { gms_fifo_push(&((cart *)self)->in, r); }
static uint32_t cart_len(const void *self) { const cart *c = self; return c->in.n + c->held; }

/* append r to leaf qi (branch bi, group gi), assigning the queue if it is empty */
static void leaf_push(cart *c, uint32_t bi, uint32_t gi, uint32_t qi, uint32_t row, uint32_t col, gms_mreq *r)
{
    leafq *q = &c->q[qi];
    if (!q->n) {
        q->row = row;
        q->col = col;
        q->gen++;
        q->seq = ++c->seq;
        q->t_head = c->now;
    }
    r->next = NULL;
    if (q->tail) q->tail->next = r; else q->head = r;
    q->tail = r;
    q->n++;
    c->g[gi].row = row;
    c->g[gi].n++;
    c->b[bi].n++;
    c->nonempty |= 1ULL << bi;
    c->held++;
}

/* spec 000a 2.4; 0 = filed, -1 = stall (the request stays at the head of the buffer) */
static int fill(cart *c, gms_mreq *r)
{
    if (c->coord_of != r) {
        c->head_coord = gms_l2q_cart_coord(c, r->addr);
        c->coord_of = r;
    }
    gms_cart_coord k = c->head_coord;
    uint32_t g0 = k.bank * c->nr, free_g = UINT32_MAX;
    for (uint32_t g = g0; g < g0 + c->nr; g++) {
        if (!c->g[g].n) {
            if (free_g == UINT32_MAX) free_g = g;
            continue;
        }
        if (c->g[g].row != k.row) continue;
        uint32_t q0 = g * c->nc, newest = UINT32_MAX, empty = UINT32_MAX;
        for (uint32_t q = q0; q < q0 + c->nc; q++) {
            if (!c->q[q].n) {
                if (empty == UINT32_MAX) empty = q;
            } else if (c->q[q].col == k.col && (newest == UINT32_MAX || c->q[q].seq > c->q[newest].seq)) {
                newest = q;
            }
        }
        if (newest != UINT32_MAX && c->q[newest].n < c->ne) {
            leaf_push(c, k.bank, g, newest, k.row, k.col, r);
            return 0;
        }
        if (empty != UINT32_MAX) {
            leaf_push(c, k.bank, g, empty, k.row, k.col, r);
            return 0;
        }
        return -1;   /* the row's queues are all in use: it may not take another row's */
    }
    if (free_g == UINT32_MAX) return -1;
    leaf_push(c, k.bank, free_g, free_g * c->nc, k.row, k.col, r);
    return 0;
}

static int cart_tick(void *self, uint64_t now)
{
    cart *c = self;
    c->now = now;
    gms_mreq *r = c->in.head;
    if (!r) return 0;
    if (c->fill_blocked) {
        c->st.fill_stalls++;
        return 0;
    }
    gms_mreq *nx = r->next;  /* fill relinks r */
    if (fill(c, r)) {
        c->st.fill_stalls++;
        c->fill_blocked = 1;
        return 0;            /* only a drain makes room */
    }
    c->coord_of = NULL;      /* r may come back as another request: decode afresh */
    c->in.head = nx;
    if (!nx) c->in.tail = NULL;
    c->in.n--;
    c->st.fills++;
    return c->in.n > 0;
}

/* slept n cycles: each tick would have found the head blocked (a stall) or nothing to fill */
static void cart_idle(void *self, uint64_t n)
{
    cart *c = self;
    if (c->in.head && c->fill_blocked) c->st.fill_stalls += n;
}

/* may leaf qi drain? not if an older queue of its group carries the same tag */
static int eligible(const cart *c, uint32_t qi)
{
    const leafq *q = &c->q[qi];
    if (!q->n) return 0;
    uint32_t q0 = qi - qi % c->nc;
    for (uint32_t o = q0; o < q0 + c->nc; o++)
        if (o != qi && c->q[o].n && c->q[o].col == q->col && c->q[o].seq < q->seq) return 0;
    return 1;
}

/* longest eligible leaf of branch bi (ties: lowest index); only row `row` if want_row */
static int32_t longest_in(const cart *c, uint32_t bi, int want_row, uint32_t row)
{
    int32_t best = -1;
    uint32_t bestn = 0;
    for (uint32_t g = bi * c->nr; g < (bi + 1) * c->nr; g++) {
        if (!c->g[g].n || (want_row && c->g[g].row != row)) continue;
        for (uint32_t qi = g * c->nc; qi < (g + 1) * c->nc; qi++)
            if (c->q[qi].n > bestn && eligible(c, qi)) {
                best = (int32_t)qi;
                bestn = c->q[qi].n;
            }
    }
    return best;
}

static int32_t pick_rotate(cart *c)
{
    /* next non-empty branch after cur_bank, cyclically (cur_bank itself last) */
    uint32_t s = (c->cur_bank + 1) % c->nb;
    uint64_t m = c->nonempty;
    uint64_t hi = s ? m >> s : m;
    uint32_t bi = hi ? s + (uint32_t)__builtin_ctzll(hi) : (uint32_t)__builtin_ctzll(m);
    const branch *br = &c->b[bi];
    uint32_t base = bi * c->per_b;
    if (c->age_cap) {        /* spec 2.7's optional cap: the oldest head past it goes first */
        int32_t old = -1;
        for (uint32_t qi = base; qi < base + c->per_b; qi++)
            if (c->q[qi].n && c->now > c->q[qi].t_head + c->age_cap && eligible(c, qi) &&
                (old < 0 || c->q[qi].t_head < c->q[old].t_head))
                old = (int32_t)qi;
        if (old >= 0) {
            c->sel_kind = PICK_AGED;
            return old;
        }
    }
    if (br->last_q >= 0) {
        uint32_t lq = base + (uint32_t)br->last_q;
        if (c->q[lq].n && c->q[lq].gen == br->last_gen && eligible(c, lq)) {
            c->sel_kind = PICK_SAME_Q;
            return (int32_t)lq;
        }
    }
    if (br->has_row) {
        int32_t q = longest_in(c, bi, 1, br->last_row);
        if (q >= 0) {
            c->sel_kind = PICK_SAME_ROW;
            return q;
        }
    }
    c->sel_kind = PICK_LONGEST;
    return longest_in(c, bi, 0, 0);
}

static int32_t pick_longest(cart *c)
{
    int32_t best = -1;
    uint32_t bestn = 0;
    for (uint64_t m = c->nonempty; m; m &= m - 1) {
        uint32_t bi = (uint32_t)__builtin_ctzll(m);
        int32_t q = longest_in(c, bi, 0, 0);
        if (q >= 0 && c->q[q].n > bestn) {
            best = q;
            bestn = c->q[q].n;
        }
    }
    c->sel_kind = PICK_OTHER;
    return best;
}

static int32_t pick_rr(cart *c)
{
    uint32_t nq = c->nb * c->per_b;
    c->sel_kind = PICK_OTHER;
    for (uint32_t k = 1; k <= nq; k++) {
        uint32_t qi = (c->rr_pos + k) % nq;
        if (c->q[qi].n && eligible(c, qi)) return (int32_t)qi;
    }
    return -1;
}

static gms_mreq *cart_peek(void *self, uint64_t now)
{
    cart *c = self;
    c->now = now;
    if (!c->held) return NULL;
    c->sel = c->drain == GMS_CART_DRAIN_LONGEST ? pick_longest(c)
           : c->drain == GMS_CART_DRAIN_RR    ? pick_rr(c)
                                              : pick_rotate(c);
    return c->sel >= 0 ? c->q[c->sel].head : NULL;
}

/* the drain-choice counter of a pick kind: a request counts once it is drained (a pop the
 * slice puts back, refused, is taken off again: the counters count requests, not tries) */
static uint64_t *pick_counter(cart *c, int kind)
{
    uint64_t *k[] = { &c->st.pick_same_queue, &c->st.pick_same_row, &c->st.pick_longest, &c->st.pick_other,
                      &c->st.pick_aged };
    return k[kind];
}

static void cart_pop(void *self, gms_mreq *r)
{
    cart *c = self;
    uint32_t qi = (uint32_t)c->sel, bi = qi / c->per_b, gi = qi / c->nc;
    leafq *q = &c->q[qi];
    q->head = r->next;
    if (!q->head) q->tail = NULL;
    r->next = NULL;
    q->n--;
    c->out_thead = q->t_head;
    q->t_head = c->now;      /* the next request is the head from now */
    c->g[gi].n--;
    if (!--c->b[bi].n) c->nonempty &= ~(1ULL << bi);
    c->held--;
    branch *br = &c->b[bi];
    br->last_q = (int32_t)(qi - bi * c->per_b);
    br->last_gen = q->gen;
    br->last_row = q->row;
    br->has_row = 1;
    c->cur_bank = bi;
    c->rr_pos = qi;
    c->out = c->sel;
    c->sel = -1;
    c->fill_blocked = 0;
    c->out_kind = c->sel_kind;
    (*pick_counter(c, c->sel_kind))++;
}

static void cart_putback(void *self, gms_mreq *r, uint64_t now, int cause)
{
    cart *c = self;
    uint32_t qi = (uint32_t)c->out, bi = qi / c->per_b, gi = qi / c->nc;
    leafq *q = &c->q[qi];
    r->next = q->head;
    q->head = r;
    if (!q->tail) q->tail = r;
    q->n++;                  /* tag, gen and seq were kept: the queue is what it was */
    q->t_head = c->out_thead;
    c->g[gi].n++;
    c->b[bi].n++;
    c->nonempty |= 1ULL << bi;
    c->held++;
    (*pick_counter(c, c->out_kind))--;
}

static void cart_stats(const void *self, gms_l2q_stats *acc)
{
    const cart *c = self;
    acc->fills += c->st.fills;
    acc->fill_stalls += c->st.fill_stalls;
    acc->pick_same_queue += c->st.pick_same_queue;
    acc->pick_same_row += c->st.pick_same_row;
    acc->pick_longest += c->st.pick_longest;
    acc->pick_other += c->st.pick_other;
    acc->pick_aged += c->st.pick_aged;
    /* hardware cost (spec 000a 2.8: SRAM leaf FIFOs, nR x nC tag comparators per branch, the
     * selector): per leaf queue a (row, column) tag, valid and count flip-flops and head /
     * tail pointers; per row group a valid bit; per branch the last-drained queue; one
     * rotation pointer. The selector and the address extractor's logic are not counted. */
    uint64_t nq = (uint64_t)c->nb * c->nr * c->nc;
    uint32_t tag = 13 + 4;   /* without a decoder: a 13-bit row and 4 line columns per 2 KB row */
    if (c->dec) {
        uint32_t col = (uint32_t)__builtin_popcountll(c->dec->cfg.mask[GMS_AD_COL]);
        tag = (uint32_t)__builtin_popcountll(c->dec->cfg.mask[GMS_AD_ROW]) + (col > 7 ? col - 7 : 0);
    }
    acc->trees++;
    acc->hw_entries = nq * c->ne;
    acc->hw_cmp = nq;
    acc->hw_tag_bits = tag;
    acc->hw_ff = nq * (1 + gms_hw_bits_for(c->ne)) + (uint64_t)c->nb * c->nr +
                 (uint64_t)c->nb * gms_hw_bits_for((uint64_t)c->nr * c->nc - 1) + gms_hw_bits_for(c->nb - 1);
    acc->hw_ptr = nq * 2 * gms_hw_bits_for(c->ne - 1);
}

void gms_l2q_cart_place(void *self, uint32_t bank, uint32_t group, uint32_t slot, uint32_t row, uint32_t col,
                        gms_mreq *r)
{
    cart *c = self;
    uint32_t gi = bank * c->nr + group, qi = gi * c->nc + slot;
    c->hand_placed = 1;
    leaf_push(c, bank, gi, qi, row, col, r);
}

#define BAD(...) do { snprintf(why, n, __VA_ARGS__); return -1; } while (0)
int gms_l2q_cart_check(const void *self, char *why, size_t n)
{
    const cart *c = self;
    uint32_t total = 0;
    for (uint32_t bi = 0; bi < c->nb; bi++) {
        uint32_t bn = 0;
        for (uint32_t g = bi * c->nr; g < (bi + 1) * c->nr; g++) {
            uint32_t gn = 0;
            for (uint32_t qi = g * c->nc; qi < (g + 1) * c->nc; qi++) {
                const leafq *q = &c->q[qi];
                uint32_t k = 0;
                for (const gms_mreq *r = q->head; r; r = r->next, k++) {
                    if (k > q->n) BAD("leaf %u: list longer than its count %u", qi, q->n);
                    if (!r->next && r != q->tail) BAD("leaf %u: tail is not the last request", qi);
                    gms_cart_coord x = gms_l2q_cart_coord(c, r->addr);
                    if (!c->hand_placed && (x.bank != bi || x.row != q->row || x.col != q->col))
                        BAD("leaf %u (bank %u row %u col %u) holds addr 0x%llx of bank %u row %u col %u", qi, bi,
                            q->row, q->col, (unsigned long long)r->addr, x.bank, x.row, x.col);
                }
                if (k != q->n) BAD("leaf %u: count %u, list %u", qi, q->n, k);
                if (!q->n && (q->head || q->tail)) BAD("leaf %u: empty with a list", qi);
                if (q->n > c->ne && !c->hand_placed) BAD("leaf %u: %u entries > nE %u", qi, q->n, c->ne);
                if (q->n && q->row != c->g[g].row) BAD("leaf %u: row %u in group of row %u", qi, q->row, c->g[g].row);
                gn += q->n;
            }
            if (gn != c->g[g].n) BAD("group %u: count %u, queues %u", g, c->g[g].n, gn);
            for (uint32_t h = g + 1; gn && h < (bi + 1) * c->nr; h++)
                if (c->g[h].n && c->g[h].row == c->g[g].row) BAD("branch %u: row %u in two groups", bi, c->g[g].row);
            bn += gn;
        }
        if (bn != c->b[bi].n) BAD("branch %u: count %u, groups %u", bi, c->b[bi].n, bn);
        if (!!bn != !!(c->nonempty >> bi & 1)) BAD("branch %u: non-empty bit wrong", bi);
        total += bn;
    }
    if (total != c->held) BAD("tree holds %u, counted %u", total, c->held);
    return 0;
}

const gms_l2q_ops gms_l2q_cart = {
    .name = "cart", .knobs = GMS_KNOBS("gms_l2q_cart"), .summary = "cache access reordering tree: per-bank row groups of (row, col) queues (-gms_l2q_cart)",
    .create = cart_create, .destroy = cart_destroy, .space = cart_space, .push = cart_push,
    .peek = cart_peek, .pop = cart_pop, .putback = cart_putback, .len = cart_len,
    .tick = cart_tick, .idle = cart_idle, .stats = cart_stats,
    .reorders = 1,
};
