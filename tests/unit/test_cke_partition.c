/* The per-kernel L1D MSHR / miss-queue partition (-gms_cke_mshr_partition, docs/cke.md): the
 * cache's per-owner caps on a hand-computed sequence (the SM's shares in real runs:
 * test_cke_run.c). */
#include "test.h"
#include "mem/cache.h"

/* 4 sets x 4 ways of 128 B, write-through, 8 MSHRs x 4 merges, miss queue 8 */
static gms_cache *small_l1(gms_mreq_pool *pool)
{
    gms_cache_config cfg;
    gms_error err = { 0 };
    if (gms_cache_config_parse("N:4:128:4,L:T:m:N:L,A:8:4,8", "test", &cfg, &err)) return NULL;
    return gms_cache_new(&cfg, pool, "L1D", GMS_CACHE_L1);
}

/* a read of one line by `owner`: its outcome; *cause the reservation-fail cause */
static int read_as(gms_cache *c, gms_mreq_pool *pool, uint32_t owner, uint32_t mshr_max, uint32_t mq_max,
                   uint64_t addr, uint64_t now, gms_rf_cause *cause)
{
    gms_mreq *r = gms_mreq_alloc(pool);
    r->addr = addr; r->bytes = 128; r->sector_mask = 0xF;
    r->kind = GMS_MREQ_READ; r->access = GMS_ACC_GLOBAL_R;
    gms_cache_set_owner(c, owner, mshr_max, mq_max);
    int o = GMS_CACHE_OUTCOME(gms_cache_access(c, r, now, cause));
    if (o == GMS_CACHE_RESERVATION_FAIL) gms_mreq_release(pool, r);
    return o;
}

static uint32_t held_mshr(const gms_cache *c, uint32_t owner)
{
    uint32_t m, q;
    gms_cache_owner_held(c, owner, &m, &q);
    return m;
}
static uint32_t held_mq(const gms_cache *c, uint32_t owner)
{
    uint32_t m, q;
    gms_cache_owner_held(c, owner, &m, &q);
    return q;
}

TEST(cke_partition_mshr_share_per_owner)
{
    gms_mreq_pool pool;
    gms_mreq_pool_init(&pool);
    gms_cache *c = small_l1(&pool);
    REQUIRE(c);
    gms_rf_cause cause = 0;
    /* owner 0 may hold 2 entries: A and B are sent, C is refused for want of an entry */
    CHECK_EQ(read_as(c, &pool, 0, 2, 8, 0x000, 1, &cause), GMS_CACHE_MISS);
    CHECK_EQ(read_as(c, &pool, 0, 2, 8, 0x080, 2, &cause), GMS_CACHE_MISS);
    CHECK_EQ(held_mshr(c, 0), 2);
    CHECK_EQ(held_mq(c, 0), 2);
    CHECK_EQ(read_as(c, &pool, 0, 2, 8, 0x100, 3, &cause), GMS_CACHE_RESERVATION_FAIL);
    CHECK_EQ(cause, GMS_RF_MSHR_ENTRY);
    /* merging into its own entry costs no entry */
    CHECK_EQ(read_as(c, &pool, 0, 2, 8, 0x000, 4, &cause), GMS_CACHE_HIT_RESERVED);
    CHECK_EQ(held_mshr(c, 0), 2);
    /* owner 1 has its own share: C is sent */
    CHECK_EQ(read_as(c, &pool, 1, 2, 8, 0x100, 5, &cause), GMS_CACHE_MISS);
    CHECK_EQ(held_mshr(c, 1), 1);
    /* a request of no owner is not counted (and only the whole table limits it) */
    CHECK_EQ(read_as(c, &pool, GMS_CACHE_NO_OWNER, 0, 0, 0x180, 6, &cause), GMS_CACHE_MISS);
    CHECK_EQ(held_mshr(c, 0) + held_mshr(c, 1), 3);
    /* A leaves the miss queue (owner 0 keeps the entry) and its fill frees the entry */
    gms_mreq *a = gms_cache_mq_pop(c);
    REQUIRE(a);
    CHECK_EQ(held_mq(c, 0), 1);
    CHECK_EQ(held_mshr(c, 0), 2);
    for (gms_mreq *w = gms_cache_fill(c, a, 10), *nx; w; w = nx) { nx = w->next; gms_mreq_release(&pool, w); }
    CHECK_EQ(held_mshr(c, 0), 1);
    CHECK_EQ(read_as(c, &pool, 0, 2, 8, 0x200, 11, &cause), GMS_CACHE_MISS);
    CHECK_EQ(held_mshr(c, 0), 2);
    for (gms_mreq *q; (q = gms_cache_mq_pop(c));)
        for (gms_mreq *w = gms_cache_fill(c, q, 20), *nx; w; w = nx) { nx = w->next; gms_mreq_release(&pool, w); }
    CHECK_EQ(held_mshr(c, 0), 0);
    CHECK_EQ(held_mq(c, 0), 0);
    CHECK_EQ(held_mshr(c, 1), 0);
    gms_cache_free(c);
    gms_mreq_pool_free(&pool);
}

TEST(cke_partition_miss_queue_share_keeps_gpgpusim_margin)
{
    gms_mreq_pool pool;
    gms_mreq_pool_init(&pool);
    gms_cache *c = small_l1(&pool);
    REQUIRE(c);
    gms_rf_cause cause = 0;
    /* a read miss needs size + 1 < cap (GPGPU-Sim): with a share of 2, one read miss in the
     * owner's queue already refuses the next, whatever the whole queue holds (1 of 8) */
    CHECK_EQ(read_as(c, &pool, 0, 8, 2, 0x000, 1, &cause), GMS_CACHE_MISS);
    CHECK_EQ(read_as(c, &pool, 0, 8, 2, 0x080, 2, &cause), GMS_CACHE_RESERVATION_FAIL);
    CHECK_EQ(cause, GMS_RF_MISS_QUEUE_FULL);
    CHECK_EQ(read_as(c, &pool, 1, 8, 2, 0x080, 3, &cause), GMS_CACHE_MISS);
    for (gms_mreq *q; (q = gms_cache_mq_pop(c));)
        for (gms_mreq *w = gms_cache_fill(c, q, 20), *nx; w; w = nx) { nx = w->next; gms_mreq_release(&pool, w); }
    CHECK_EQ(read_as(c, &pool, 0, 8, 2, 0x100, 21, &cause), GMS_CACHE_MISS);
    for (gms_mreq *q; (q = gms_cache_mq_pop(c));)
        for (gms_mreq *w = gms_cache_fill(c, q, 30), *nx; w; w = nx) { nx = w->next; gms_mreq_release(&pool, w); }
    gms_cache_free(c);
    gms_mreq_pool_free(&pool);
}
