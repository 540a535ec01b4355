/* CART (spec 000a chapter 2) and its precursors P1, P2 as L2 input queue members:
 * the golden drain orders of Fig. 2.6, the fill policy of 2.4 and randomised invariants. */
#include "test.h"
#include "mem/addrdec.h"
#include "mem/cache.h"
#include "mem/l2q_cart.h"
#include <stdlib.h>

extern const gms_l2q_ops gms_l2q_cart, gms_l2q_p1, gms_l2q_p2;

static void *mk(const gms_l2q_ops *o, const char *cart, uint32_t cap)
{
    gms_l2q_env env = { .capacity = cap };
    gms_error e;
    if (gms_l2q_params_parse(cart, "4:2", &env.prm, &e)) return NULL;
    return o->create(&env);
}

/* Fig. 2.6: queue id, bank, group, slot, row, col, and its requests head first */
typedef struct figq { uint32_t bank, group, slot, row, col, n; uint32_t mr[5]; } figq;
static const figq fig26[] = {
    { 1, 0, 0, 1, 0, 3, { 2, 1, 0 } },             /* Q0 B1/R1/C0 */
    { 1, 0, 1, 1, 1, 5, { 7, 6, 5, 4, 3 } },       /* Q1 B1/R1/C1 */
    { 1, 1, 0, 2, 2, 4, { 11, 10, 9, 8 } },        /* Q2 B1/R2/C2 */
    { 2, 0, 0, 1, 1, 2, { 13, 12 } },              /* Q3 B2/R1/C1 */
    { 2, 0, 1, 1, 1, 2, { 15, 14 } },              /* Q4 B2/R1/C1, same tag, filled after Q3 */
    { 3, 0, 0, 3, 1, 3, { 18, 17, 16 } },          /* Q5 B3/R3/C1 */
};

/* drain the Fig. 2.6 tree with `drain`; the MR numbers in order into got; returns picks */
static int drain_fig(const char *sizes, uint32_t *got, int max)
{
    gms_mreq_pool p;
    gms_mreq_pool_init(&p);
    void *c = mk(&gms_l2q_cart, sizes, 0);
    if (!c) return -1;
    for (size_t i = 0; i < sizeof fig26 / sizeof fig26[0]; i++)
        for (uint32_t k = 0; k < fig26[i].n; k++) {
            gms_mreq *r = gms_mreq_alloc(&p);
            r->warp = (uint16_t)fig26[i].mr[k];
            gms_l2q_cart_place(c, fig26[i].bank, fig26[i].group, fig26[i].slot, fig26[i].row, fig26[i].col, r);
        }
    int n = 0;
    char why[200];
    gms_mreq *r;
    while (n < max && (r = gms_l2q_cart.peek(c, (uint64_t)n))) {
        gms_l2q_cart.pop(c, r);
        got[n++] = r->warp;
        gms_mreq_release(&p, r);
        if (gms_l2q_cart_check(c, why, sizeof why)) {
            gms_test_fail(__FILE__, __LINE__, why);
            break;
        }
    }
    gms_l2q_cart.destroy(c);
    gms_mreq_pool_free(&p);
    return n;
}

/* spec 000a 2.6: CART "rotating banks and same-or-longest row", starting at bank 1 */
TEST(cart_golden_fig26_rotate)
{
    static const uint32_t want[] = { 7, 13, 18, 6, 12, 17, 5, 15, 16, 4, 14, 3, 2, 1, 0, 11, 10, 9, 8 };
    uint32_t got[32];
    int n = drain_fig("4:2:8:rotate", got, 32);
    CHECK_EQ(n, 19);
    for (int i = 0; i < 19 && i < n; i++) CHECK_EQ(got[i], want[i]);
}

/* spec 000a 2.6: global longest-first, first six picks (banks 2 and 3 idle) */
TEST(cart_golden_fig26_longest)
{
    static const uint32_t want[] = { 7, 6, 11, 2, 5, 10 };
    uint32_t got[32];
    int n = drain_fig("4:2:8:longest", got, 6);
    CHECK_EQ(n, 6);
    for (int i = 0; i < 6 && i < n; i++) CHECK_EQ(got[i], want[i]);
}

/* round-robin over the leaf queues (hand-computed): Q0 Q1 Q2 Q3 Q5, Q4 waits for the older
 * queue of its tag (Q3), then joins once Q3 is empty */
TEST(cart_golden_fig26_rr)
{
    static const uint32_t want[] = { 2, 7, 11, 13, 18, 1, 6, 10, 12, 15, 17, 0, 5, 9, 14, 16, 4, 8, 3 };
    uint32_t got[32];
    int n = drain_fig("4:2:8:rr", got, 32);
    CHECK_EQ(n, 19);
    for (int i = 0; i < 19 && i < n; i++) CHECK_EQ(got[i], want[i]);
}

/* the fallback coordinates (no decoder): line = row << 9 | bank << 5 | col */
static uint64_t at(uint32_t bank, uint32_t row, uint32_t col) { return (((uint64_t)row << 9) | bank << 5 | col) << 7; }

TEST(cart_fill_policy)
{
    gms_mreq_pool p;
    gms_mreq_pool_init(&p);
    void *c = mk(&gms_l2q_cart, "4:2:2", 0);
    REQUIRE(c);
    gms_cart_coord k = gms_l2q_cart_coord(c, at(5, 77, 9) + 0x7F);   /* any byte of the line */
    CHECK_EQ(k.bank, 5);
    CHECK_EQ(k.row, 77);
    CHECK_EQ(k.col, 9);
    /* bank 3: five requests of one line (2 queues x 2 entries, the fifth waits), then a new
     * column of that row (its 2 queues are taken: waits behind it) */
    gms_mreq *r[8];
    for (int i = 0; i < 6; i++) {
        r[i] = gms_mreq_alloc(&p);
        r[i]->addr = i < 5 ? at(3, 1, 1) : at(3, 1, 2);
        r[i]->warp = (uint16_t)i;
        gms_l2q_cart.push(c, r[i], 0);
    }
    CHECK_EQ(gms_l2q_cart.space(c), UINT32_MAX);
    CHECK_EQ(gms_l2q_cart.peek(c, 0) == NULL, 1);      /* nothing filled yet */
    for (uint64_t t = 1; t <= 6; t++) gms_l2q_cart.tick(c, t);
    gms_l2q_stats st = { 0 };
    gms_l2q_cart.stats(c, &st);
    CHECK_EQ(st.fills, 4);
    CHECK_EQ(st.fill_stalls, 2);
    CHECK_EQ(gms_l2q_cart.len(c), 6);
    char why[200];
    CHECK_EQ(gms_l2q_cart_check(c, why, sizeof why), 0);
    /* the head of the buffer (request 4) blocks request 5 behind it: a FIFO incoming buffer */
    gms_mreq *first = gms_l2q_cart.peek(c, 7);
    REQUIRE(first);
    CHECK_EQ(first->warp, 0);
    gms_l2q_cart.pop(c, first);
    gms_l2q_cart.tick(c, 7);        /* request 4 still waits: queue 1 is not empty, queue 2 is full */
    CHECK_EQ(gms_l2q_cart_check(c, why, sizeof why), 0);
    /* drain in order 1, 2, 3, 4 within the line (FIFO per tag), then 5 */
    uint32_t order[8], n = 0;
    gms_mreq *x;
    for (uint64_t t = 8; t < 40 && (x = gms_l2q_cart.peek(c, t)); t++) {
        gms_l2q_cart.pop(c, x);
        order[n++] = x->warp;
        gms_l2q_cart.tick(c, t);
    }
    CHECK_EQ(n, 5);
    for (uint32_t i = 0; i < n; i++) CHECK_EQ(order[i], i + 1);
    for (int i = 0; i < 6; i++) gms_mreq_release(&p, r[i]);
    gms_l2q_cart.destroy(c);

    /* rows: four distinct rows of one bank fit, the fifth waits */
    c = mk(&gms_l2q_cart, "4:2:2", 0);
    for (int i = 0; i < 5; i++) {
        r[i] = gms_mreq_alloc(&p);
        r[i]->addr = at(0, 10 + (uint32_t)i, 0);
        gms_l2q_cart.push(c, r[i], 0);
    }
    for (uint64_t t = 1; t <= 5; t++) gms_l2q_cart.tick(c, t);
    memset(&st, 0, sizeof st);
    gms_l2q_cart.stats(c, &st);
    CHECK_EQ(st.fills, 4);
    CHECK_EQ(st.fill_stalls, 1);
    /* a drain empties row 10's group (the longest, ties to the lowest): the fifth row takes it */
    x = gms_l2q_cart.peek(c, 6);
    REQUIRE(x);
    gms_l2q_cart.pop(c, x);
    gms_l2q_cart.tick(c, 6);
    memset(&st, 0, sizeof st);
    gms_l2q_cart.stats(c, &st);
    CHECK_EQ(st.fills, 5);
    while ((x = gms_l2q_cart.peek(c, 7))) gms_l2q_cart.pop(c, x);
    CHECK_EQ(gms_l2q_cart.len(c), 0);
    for (int i = 0; i < 5; i++) gms_mreq_release(&p, r[i]);
    gms_l2q_cart.destroy(c);
    gms_mreq_pool_free(&p);
}

/* A reservation fail leaves the request at its queue head and keeps last_q; the next drain
 * rotates on to the next non-empty bank, and coming back the same queue is served first */
TEST(cart_putback_rotates)
{
    gms_mreq_pool p;
    gms_mreq_pool_init(&p);
    void *c = mk(&gms_l2q_cart, "4:2:2", 0);
    gms_mreq *a = gms_mreq_alloc(&p), *b = gms_mreq_alloc(&p), *d = gms_mreq_alloc(&p);
    a->addr = at(1, 5, 0);
    b->addr = at(1, 5, 0);
    d->addr = at(2, 7, 3);
    gms_l2q_cart.push(c, a, 0);
    gms_l2q_cart.push(c, b, 0);
    gms_l2q_cart.push(c, d, 0);
    for (uint64_t t = 1; t <= 3; t++) gms_l2q_cart.tick(c, t);
    CHECK(gms_l2q_cart.peek(c, 4) == a);
    gms_l2q_cart.pop(c, a);
    gms_l2q_cart.putback(c, a, 4, GMS_RF_MSHR_MERGE);
    CHECK(gms_l2q_cart.peek(c, 5) == d);                 /* bank 2 now */
    gms_l2q_cart.pop(c, d);
    CHECK(gms_l2q_cart.peek(c, 6) == a);                 /* back at bank 1: a first again */
    gms_l2q_cart.pop(c, a);
    CHECK(gms_l2q_cart.peek(c, 7) == b);
    gms_l2q_cart.pop(c, b);
    CHECK_EQ(gms_l2q_cart.len(c), 0);
    gms_mreq_release(&p, a);
    gms_mreq_release(&p, b);
    gms_mreq_release(&p, d);
    gms_l2q_cart.destroy(c);
    gms_mreq_pool_free(&p);
}

/* P2: B queues by bank mod B, round-robin drain */
TEST(p2_bank_queues_round_robin)
{
    gms_mreq_pool p;
    gms_mreq_pool_init(&p);
    gms_l2q_env env = { .capacity = 8 };
    gms_error e;
    REQUIRE(!gms_l2q_params_parse("4:2:2", "4:2", &env.prm, &e));
    void *q = gms_l2q_p2.create(&env);
    /* banks 1, 1, 5 (= 1 mod 4: the same queue), 2 */
    static const uint32_t bank[] = { 1, 1, 5, 2 };
    gms_mreq *r[4];
    for (int i = 0; i < 4; i++) {
        r[i] = gms_mreq_alloc(&p);
        r[i]->addr = at(bank[i], 0, (uint32_t)i);
        r[i]->warp = (uint16_t)i;
        gms_l2q_p2.push(q, r[i], 0);
    }
    CHECK_EQ(gms_l2q_p2.space(q), 4);
    for (uint64_t t = 1; t <= 4; t++) gms_l2q_p2.tick(q, t);
    gms_l2q_stats st = { 0 };
    gms_l2q_p2.stats(q, &st);
    CHECK_EQ(st.fills, 2);                               /* the third waits: queue 1 holds 2 */
    CHECK_EQ(st.fill_stalls, 2);
    gms_mreq *x = gms_l2q_p2.peek(q, 5);
    CHECK(x == r[0]);
    gms_l2q_p2.pop(q, x);
    gms_l2q_p2.tick(q, 5);                               /* r2 into queue 1, r3 still behind */
    gms_l2q_p2.tick(q, 6);                               /* r3 into queue 2 */
    uint32_t order[4], n = 0;
    while ((x = gms_l2q_p2.peek(q, 7))) {
        gms_l2q_p2.pop(q, x);
        order[n++] = x->warp;
    }
    CHECK_EQ(n, 3);                                      /* after queue 1: queue 2, then 1 again */
    CHECK_EQ(order[0], 3);
    CHECK_EQ(order[1], 1);
    CHECK_EQ(order[2], 2);
    for (int i = 0; i < 4; i++) gms_mreq_release(&p, r[i]);
    gms_l2q_p2.destroy(q);
    gms_mreq_pool_free(&p);
}

/* P1: after a merge-full fail, later requests of that line wait and another line goes */
TEST(p1_skips_the_stalled_resource)
{
    gms_mreq_pool p;
    gms_mreq_pool_init(&p);
    void *q = mk(&gms_l2q_p1, "4:2:2", 8);
    gms_mreq *a = gms_mreq_alloc(&p), *b = gms_mreq_alloc(&p), *d = gms_mreq_alloc(&p);
    a->addr = 0x1000;
    b->addr = 0x1020;                                    /* same line as a */
    d->addr = 0x2000;
    gms_l2q_p1.push(q, a, 0);
    gms_l2q_p1.push(q, b, 0);
    gms_l2q_p1.push(q, d, 0);
    CHECK(gms_l2q_p1.peek(q, 1) == a);
    gms_l2q_p1.pop(q, a);
    gms_l2q_p1.putback(q, a, 1, GMS_RF_MSHR_MERGE);
    CHECK(gms_l2q_p1.peek(q, 2) == d);                   /* b is the same resource */
    gms_l2q_p1.pop(q, d);
    CHECK(gms_l2q_p1.peek(q, 3) == a);                   /* nothing else qualifies: oldest again */
    gms_l2q_p1.pop(q, a);
    CHECK(gms_l2q_p1.peek(q, 4) == b);
    gms_l2q_p1.pop(q, b);
    CHECK_EQ(gms_l2q_p1.len(q), 0);
    gms_l2q_stats st = { 0 };
    gms_l2q_p1.stats(q, &st);
    CHECK_EQ(st.skipped, 1);
    gms_mreq_release(&p, a);
    gms_mreq_release(&p, b);
    gms_mreq_release(&p, d);
    gms_l2q_p1.destroy(q);
    gms_mreq_pool_free(&p);
}

/* Randomised: pushes, fills, drains and reservation fails interleaved; no request lost or
 * duplicated, and within each line (bank, row, col) requests leave in arrival order. Also
 * the tree's invariants after every step (CART). */
static void random_run(const gms_l2q_ops *o, const char *sizes, uint32_t seed, const gms_addrdec *dec)
{
    enum { N = 3000 };
    gms_mreq_pool p;
    gms_mreq_pool_init(&p);
    gms_l2q_env env = { .capacity = 8, .dec = dec };
    gms_error e;
    if (gms_l2q_params_parse(sizes, "8:2", &env.prm, &e)) { gms_test_fail(__FILE__, __LINE__, e.msg); return; }
    void *q = o->create(&env);
    static uint32_t next_seq[1 << 12], want_seq[1 << 12];
    memset(next_seq, 0, sizeof next_seq);
    memset(want_seq, 0, sizeof want_seq);
    static uint8_t seen[N];
    memset(seen, 0, sizeof seen);
    gms_mreq *all[N];
    uint32_t pushed = 0, done = 0;
    uint64_t t = 0;
    srand(seed);
    char why[200];
    while (done < N && t < 200000) {
        t++;
        gms_mreq *r = o->peek(q, t);
        if (r && rand() % 4) {
            o->pop(q, r);
            uint32_t id = r->warp | (uint32_t)r->sm << 16;
            uint32_t key = (uint32_t)(r->addr >> 7) & 0xFFF;
            if (r->t_ready != want_seq[key]) {
                gms_test_fail(__FILE__, __LINE__, "a line's requests left out of order");
                break;
            }
            if (rand() % 3 == 0) {
                o->putback(q, r, t, rand() % 2 ? GMS_RF_MSHR_MERGE : GMS_RF_MSHR_ENTRY);
            } else {
                want_seq[key]++;
                if (seen[id]++) gms_test_fail(__FILE__, __LINE__, "a request left twice");
                done++;
            }
        }
        if (o->tick) o->tick(q, t);
        if (pushed < N && o->space(q) && rand() % 2) {
            gms_mreq *n = all[pushed] = gms_mreq_alloc(&p);
            /* a few banks, rows and columns so that queues collide; some lines repeat */
            uint32_t bank = (uint32_t)rand() % 4, row = (uint32_t)rand() % 6, col = (uint32_t)rand() % 3;
            n->addr = at(bank, row, col) + 32 * (uint32_t)(rand() % 4);
            n->warp = (uint16_t)(pushed & 0xFFFF);
            n->sm = (uint16_t)(pushed >> 16);
            n->t_ready = next_seq[(n->addr >> 7) & 0xFFF]++;
            o->push(q, n, t);
            pushed++;
        }
        if (o == &gms_l2q_cart && gms_l2q_cart_check(q, why, sizeof why)) {
            gms_test_fail(__FILE__, __LINE__, why);
            break;
        }
    }
    CHECK_EQ(done, N);
    CHECK_EQ(o->len(q), 0);
    for (uint32_t i = 0; i < pushed; i++) gms_mreq_release(&p, all[i]);
    o->destroy(q);
    gms_mreq_pool_free(&p);
}

TEST(cart_random_invariants)
{
    static const char *const sizes[] = { "1:1:1", "4:2:2", "2:1:4:longest", "4:2:2:rr", "8:8:8", "32:32:64" };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        for (uint32_t seed = 1; seed <= 3; seed++) random_run(&gms_l2q_cart, sizes[i], seed, NULL);
}

TEST(p1_p2_random_invariants)
{
    for (uint32_t seed = 1; seed <= 3; seed++) {
        random_run(&gms_l2q_p1, "4:2:2", seed, NULL);
        random_run(&gms_l2q_p2, "4:2:2", seed, NULL);
    }
}

/* with the GTX480 mapping (spec 000a 2.2): the bank, row and line-column the memory
 * controller decodes; two sectors of a line share them, the next line of the row differs
 * in the column only */
TEST(cart_decodes_like_the_controller)
{
    gms_addrdec_config cfg;
    memset(&cfg, 0, sizeof cfg);
    gms_error e;
    REQUIRE(!gms_addrdec_parse_mapping("dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS",
                                       "-m", &cfg, &e));
    snprintf(cfg.member, sizeof cfg.member, "gpgpusim");
    cfg.n_channel = 8;
    cfg.n_sub = 1;
    cfg.chunk = 256;
    cfg.nbk = 16;
    REQUIRE(!gms_addrdec_finalize(&cfg, &e));
    static gms_addrdec dec;
    REQUIRE(!gms_addrdec_init(&dec, &cfg, &e));
    gms_l2q_env env = { .capacity = 8, .dec = &dec };
    void *c = gms_l2q_cart.create(&env);
    uint64_t a = 0x12345600ULL;
    gms_cart_coord x = gms_l2q_cart_coord(c, a), y = gms_l2q_cart_coord(c, a + 96);
    gms_addrdec_dram d;
    gms_addrdec_dram_of(&dec, a & ~127ULL, &d);
    CHECK_EQ(x.bank, d.bank);
    CHECK_EQ(x.row, d.row);
    CHECK_EQ(x.col, d.col);
    CHECK(x.bank == y.bank && x.row == y.row && x.col == y.col);
    gms_l2q_cart.destroy(c);
    for (uint32_t seed = 1; seed <= 2; seed++) random_run(&gms_l2q_cart, "4:2:2", seed, &dec);
}

TEST(cart_params_errors)
{
    gms_l2q_params prm;
    gms_error e;
    CHECK_EQ(gms_l2q_params_parse("4:2:2", "16:4", &prm, &e), 0);
    CHECK_EQ(prm.cart_rows * prm.cart_cols * prm.cart_entries, 16);
    CHECK_EQ(prm.cart_drain, GMS_CART_DRAIN_ROTATE);
    CHECK_EQ(gms_l2q_params_parse("8:8:8:longest", "16:4", &prm, &e), 0);
    CHECK_EQ(prm.cart_drain, GMS_CART_DRAIN_LONGEST);
    CHECK_EQ(gms_l2q_params_parse("0:2:2", "16:4", &prm, &e), -1);
    CHECK(strstr(e.msg, "-gms_l2q_cart") && strstr(e.msg, "nR"));
    CHECK_EQ(gms_l2q_params_parse("4:2", "16:4", &prm, &e), -1);
    CHECK_EQ(gms_l2q_params_parse("4:2:2:fastest", "16:4", &prm, &e), -1);
    CHECK(strstr(e.msg, "fastest") != NULL);
    CHECK_EQ(gms_l2q_params_parse("4:2:2", "16", &prm, &e), -1);
    CHECK(strstr(e.msg, "-gms_l2q_p2") != NULL);
    CHECK_EQ(gms_l2q_params_parse("4:2:2", "65:4", &prm, &e), -1);
}

/* The age cap (spec 2.7): one bank, a hot queue of 10 requests and another row's queue of
 * one. Without the cap "same queue" serves all 10 first (the other is the 11th); with a cap of
 * 3 cycles the other's head, waiting since cycle 0, goes at the first drain after cycle 3. */
static int aged_position(uint32_t cap)
{
    gms_mreq_pool p;
    gms_mreq_pool_init(&p);
    gms_l2q_env env = { .capacity = 0 };
    gms_error e;
    if (gms_l2q_params_parse("4:2:16", "4:2", &env.prm, &e)) return -1;
    env.prm.cart_age_cap = cap;
    void *c = gms_l2q_cart.create(&env);
    for (int i = 0; i < 10; i++) {
        gms_mreq *r = gms_mreq_alloc(&p);
        r->warp = 1;
        gms_l2q_cart_place(c, 0, 0, 0, 1, 0, r);
    }
    gms_mreq *o = gms_mreq_alloc(&p);
    o->warp = 2;
    gms_l2q_cart_place(c, 0, 1, 0, 2, 0, o);
    int pos = -1;
    gms_mreq *r;
    for (uint64_t t = 1; (r = gms_l2q_cart.peek(c, t)); t++) {
        gms_l2q_cart.pop(c, r);
        if (r->warp == 2) pos = (int)t;
        gms_mreq_release(&p, r);
    }
    gms_l2q_stats st = { 0 };
    gms_l2q_cart.stats(c, &st);
    if (cap && st.pick_aged != 1) pos = -2;
    gms_l2q_cart.destroy(c);
    gms_mreq_pool_free(&p);
    return pos;
}

TEST(cart_age_cap)
{
    CHECK_EQ(aged_position(0), 11);
    CHECK_EQ(aged_position(3), 4);
}
