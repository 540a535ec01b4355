/* L2 slice, standalone (no engine, no DRAM): write-back of a dirty victim, the miss/fill
 * round trip, hits replying after the ROP delay, sector splitting, input-queue registry. */
#include "test.h"
#include "mem/l2_slice.h"
#include "mem/l2q.h"

typedef struct replies { gms_mreq *v[64]; int n; int refuse; } replies;

static int on_reply(void *ud, uint32_t subpart, gms_mreq *r)
{
    replies *rp = ud;
    if (rp->refuse) return 0;
    if (rp->n < 64) rp->v[rp->n++] = r;
    return 1;
}

static gms_l2_slice *mkslice(gms_cache_config *cc, const char *str, uint32_t rop, replies *rp, gms_mreq_pool *pool)
{
    gms_error e = { 0 };
    if (gms_cache_config_parse(str, "-gpgpu_cache:dl2", cc, &e)) { printf("    %s\n", e.msg); return NULL; }
    gms_l2_slice_cfg cfg = {
        .id = 0, .cache = cc, .rop_latency = rop, .q_icnt_l2 = 8, .q_l2_dram = 8, .q_dram_l2 = 8, .q_l2_icnt = 8,
        .inq = gms_l2q_find("fifo"), .dec = NULL, .reply = on_reply, .reply_ud = rp,
    };
    return gms_l2_slice_new(&cfg, pool);
}

static gms_mreq *req(gms_mreq_pool *p, uint64_t addr, int write, uint32_t bytes, uint8_t smask)
{
    gms_mreq *r = gms_mreq_alloc(p);
    r->addr = addr;
    r->bytes = bytes;
    r->sector_mask = smask;
    r->kind = write ? GMS_MREQ_WRITE : GMS_MREQ_READ;
    r->access = write ? GMS_ACC_GLOBAL_W : GMS_ACC_GLOBAL_R;
    return r;
}

/* runs cycles; DRAM replies come back `lat` cycles after leaving (reads only) */
typedef struct fake_dram { gms_mreq *v[64]; uint64_t at[64]; int n; int writes; uint64_t wb_addr[16]; int nwb; } fake_dram;

static void step(gms_l2_slice *s, uint64_t now, fake_dram *d, uint64_t lat, gms_mreq_pool *p)
{
    gms_l2_slice_cycle(s, now);
    gms_mreq *m;
    while ((m = gms_l2_slice_to_dram_top(s))) {
        gms_l2_slice_to_dram_pop(s);
        if (m->access == GMS_ACC_L2_WRBK) {
            if (d->nwb < 16) d->wb_addr[d->nwb++] = m->addr;
            gms_mreq_release(p, m);
            continue;
        }
        if (m->kind == GMS_MREQ_WRITE) d->writes++;
        d->v[d->n] = m;
        d->at[d->n++] = now + lat;
    }
    for (int i = 0; i < d->n; i++) {
        if (d->v[i] && d->at[i] <= now && !gms_l2_slice_from_dram_full(s)) {
            gms_l2_slice_from_dram_push(s, d->v[i]);
            d->v[i] = NULL;
        }
    }
}

/* one slice with its request pool, reply sink and fake DRAM */
typedef struct l2fx {
    gms_mreq_pool p;
    replies rp;
    fake_dram d;
    gms_cache_config cc;
    gms_l2_slice *s;
    uint64_t now;
} l2fx;

static int l2fx_init(l2fx *f, const char *cfg, uint32_t rop, int refuse)
{
    memset(f, 0, sizeof *f);
    gms_mreq_pool_init(&f->p);
    f->rp.refuse = refuse;
    f->s = mkslice(&f->cc, cfg, rop, &f->rp, &f->p);
    return f->s ? 0 : -1;
}

/* check_live: every request must be back in the pool */
static void l2fx_free(l2fx *f, int check_live)
{
    gms_l2_slice_free(f->s);
    if (check_live) CHECK_EQ(f->p.live, 0);
    gms_mreq_pool_free(&f->p);
}

/* run n cycles, DRAM latency lat */
static void run(l2fx *f, int n, uint64_t lat)
{
    for (int i = 0; i < n; i++) step(f->s, ++f->now, &f->d, lat, &f->p);
}

/* run until `n` replies came back (at most until cycle 500) */
static void run_until_replies(l2fx *f, int n, uint64_t lat)
{
    while (f->rp.n < n && f->now < 500) step(f->s, ++f->now, &f->d, lat, &f->p);
}

/* 1 set x 2 ways, write-back, lazy fetch-on-read: writes A, B fill the set dirty; C evicts
 * the LRU line A, which goes to DRAM as an L2 write-back of A's block; every write is acked
 * at once (GPGPU-Sim: a write-back L2 acks absorbed writes) */
TEST(l2_writeback_of_dirty_victim)
{
    l2fx f;
    REQUIRE(!l2fx_init(&f, "N:1:128:2,L:B:m:L:L,A:4:4,4", 0, 0));
    uint64_t A = 0x1000, B = 0x2000, C = 0x3000;
    gms_l2_slice_push(f.s, req(&f.p, A, 1, 128, 0xf), f.now);
    run(&f, 5, 10);
    gms_l2_slice_push(f.s, req(&f.p, B, 1, 128, 0xf), f.now);
    run(&f, 5, 10);
    CHECK_EQ(f.d.nwb, 0);
    gms_l2_slice_push(f.s, req(&f.p, C, 1, 128, 0xf), f.now);
    run(&f, 5, 10);
    CHECK_EQ(f.d.nwb, 1);
    CHECK_EQ(f.d.wb_addr[0], A);
    CHECK_EQ(f.d.writes, 0);               /* the writes themselves stay in the L2 */
    CHECK_EQ(f.rp.n, 3);                   /* three write acks */
    const gms_cache_stats *st = gms_cache_get_stats(gms_l2_slice_cache(f.s));
    CHECK_EQ(st->acc[GMS_ACC_GLOBAL_W][GMS_CACHE_MISS], 3);
    for (int i = 0; i < f.rp.n; i++) gms_mreq_release(&f.p, f.rp.v[i]);
    l2fx_free(&f, 1);
}

/* read miss: one DRAM read, the fill replies; a second read of the line hits and replies
 * rop_latency (+ the queue hop) after its push */
TEST(l2_read_miss_fill_then_hit)
{
    l2fx f;
    REQUIRE(!l2fx_init(&f, "N:4:128:4,L:B:m:L:L,A:8:4,8", 20, 0));
    gms_mreq *r1 = req(&f.p, 0x4000, 0, 128, 0xf);
    gms_l2_slice_push(f.s, r1, f.now);
    run_until_replies(&f, 1, 50);
    CHECK_EQ(f.d.n, 1);
    REQUIRE(f.rp.n == 1);
    CHECK(f.rp.v[0] == r1);
    CHECK(r1->is_reply);
    CHECK_EQ(r1->addr, 0x4000);
    /* ROP 20 + input queue hop + DRAM 50 + fill + reply stages */
    CHECK(f.now >= 70 && f.now <= 80);
    uint64_t t0 = f.now;
    gms_mreq *r2 = req(&f.p, 0x4000, 0, 128, 0xf);
    gms_l2_slice_push(f.s, r2, t0);
    run_until_replies(&f, 2, 50);
    REQUIRE(f.rp.n == 2);
    CHECK(f.rp.v[1] == r2);
    /* ready at t0+20; moved to the input queue at t0+20, accessed at t0+21 (hit, to the
     * L2->icnt queue), replied at t0+22 */
    CHECK_EQ(f.now - t0, 22);
    CHECK_EQ(f.d.n, 1);
    gms_mreq_release(&f.p, r1);
    gms_mreq_release(&f.p, r2);
    l2fx_free(&f, 1);
}

/* a sector L2 splits a 4-sector read into 4 sector accesses (4 DRAM reads); the original
 * request comes back once, when all four are filled */
TEST(l2_sector_split_and_rejoin)
{
    l2fx f;
    REQUIRE(!l2fx_init(&f, "S:4:128:4,L:B:m:L:L,A:16:4,8:0,32", 0, 0));
    gms_mreq *r = req(&f.p, 0x8000, 0, 128, 0xf);
    gms_l2_slice_push(f.s, r, f.now);
    run_until_replies(&f, 1, 30);
    REQUIRE(f.rp.n == 1);
    CHECK(f.rp.v[0] == r);
    CHECK_EQ(f.d.n, 4);
    const gms_cache_stats *st = gms_cache_get_stats(gms_l2_slice_cache(f.s));
    CHECK_EQ(st->acc[GMS_ACC_GLOBAL_R][GMS_CACHE_MISS], 1);
    CHECK_EQ(st->acc[GMS_ACC_GLOBAL_R][GMS_CACHE_SECTOR_MISS], 3);
    CHECK_EQ(gms_l2_slice_replies(f.s), 4);   /* 4 x 32 B for L2_BW */
    gms_mreq_release(&f.p, r);
    l2fx_free(&f, 1);
}

/* a refused reply stays at the head and is retried */
TEST(l2_reply_refused_is_retried)
{
    l2fx f;
    REQUIRE(!l2fx_init(&f, "N:4:128:4,L:B:m:L:L,A:8:4,8", 0, 1));
    gms_l2_slice_push(f.s, req(&f.p, 0x100, 1, 128, 0xf), f.now);
    run(&f, 20, 5);
    CHECK_EQ(f.rp.n, 0);
    CHECK_EQ(gms_l2_slice_next(f.s), 0);      /* still busy: holds the reply */
    f.rp.refuse = 0;
    run(&f, 1, 5);
    CHECK_EQ(f.rp.n, 1);
    CHECK_EQ(gms_l2_slice_next(f.s), UINT64_MAX);
    gms_mreq_release(&f.p, f.rp.v[0]);
    l2fx_free(&f, 0);
}

/* every L2 input queue policy: push, peek, pop, putback, space; two requests to one line
 * leave in arrival order from every member (spec 000a 8.3: order within a line is kept) */
TEST(l2q_registry_contract)
{
    gms_mreq_pool p;
    gms_mreq_pool_init(&p);
    for (size_t i = 0; i < gms_l2q_nregistry; i++) {
        const gms_l2q_ops *o = gms_l2q_registry[i];
        CHECK(gms_l2q_find(o->name) == o);
        gms_l2q_env env = { .capacity = 2 };
        void *q = o->create(&env);
        CHECK_EQ(o->space(q), 2);
        gms_mreq *a = gms_mreq_alloc(&p), *b = gms_mreq_alloc(&p);
        o->push(q, a, 0);
        o->push(q, b, 1);
        CHECK_EQ(o->space(q), 0);
        CHECK_EQ(o->len(q), 2);
        for (uint64_t t = 1; o->tick && t <= 2; t++) o->tick(q, t);   /* CART, P2: fill */
        gms_mreq *h = o->peek(q, 2);
        REQUIRE(h);
        CHECK(h == a);   /* two requests to one line: every member keeps their order */
        o->pop(q, h);
        CHECK_EQ(o->len(q), 1);
        o->putback(q, h, 3, 0);                 /* refused: first again */
        CHECK(o->peek(q, 3) == h);
        CHECK_EQ(o->len(q), 2);
        o->pop(q, h);
        gms_mreq *h2 = o->peek(q, 3);
        CHECK(h2 == b);
        o->pop(q, h2);
        CHECK(o->peek(q, 4) == NULL);
        o->destroy(q);
        gms_mreq_release(&p, a);
        gms_mreq_release(&p, b);
    }
    CHECK(gms_l2q_find("nosuch") == NULL);
    gms_mreq_pool_free(&p);
}
