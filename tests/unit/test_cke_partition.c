/* The per-kernel L1D MSHR / miss-queue partition (-gms_cke_mshr_partition, docs/cke.md): the
 * cache's per-owner caps on a hand-computed sequence, and the SM's shares in real runs. */
#include "test.h"
#include "config/params.h"
#include "mem/cache.h"
#include "stats/stats.h"
#include <stdio.h>

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

/* ------------------------------------------------------------- in a multiprogrammed run */

static gms_params *cur_p;

static gms_sim *run_cke(const char *tb, const char *part)
{
    gms_params *p = cur_p = gms_params_new();
    gms_error err = {0};
    int rc = gms_params_load_file(p, "configs/maxwell-sound-baseline.config", &err);
    rc = rc || gms_params_set(p, "gms_cke_tb", tb, &err);
    rc = rc || gms_params_set(p, "gms_cke_mshr_partition", part, &err);
    rc = rc || gms_params_set(p, "gms_cke_isolated", "0", &err);
    rc = rc || gms_params_finalize(p, &err);
    const char *kv[] = { "apps=bp+sv", "window=20000", "scale=0.25", NULL };
    gms_workload_spec ws = { "cke", NULL, kv, 1, NULL };
    gms_sim *s = rc ? NULL : gms_sim_new(p, &ws, &err);
    if (s) rc = gms_sim_run(s, &err);
    if (rc) printf("    %s\n", err.msg);
    if (rc) { gms_sim_free(s); s = NULL; }
    return s;
}

static void done(gms_sim *s)
{
    gms_sim_free(s);
    gms_params_free(cur_p);
    cur_p = NULL;
}

static double stat0(const gms_sim *s, const char *name)
{
    double v = 0;
    gms_stats_total(gms_sim_stats(s), name, &v);   /* absent: none counted */
    return v;
}

TEST(cke_partition_alone_on_an_sm_changes_nothing_shared_does)
{
    /* spatial: each SM holds one kernel, whose share is the whole L1D: the run is the same */
    const char *keys[] = { "gpu_tot_sim_insn", "L1D_total_cache_reservation_fails",
                           "L1D_fail_breakdown[GLOBAL_ACC_R][MSHR_ENRTY_FAIL]", "gms_cke_app0_thread_insts" };
    double off[4], on[4];
    gms_sim *s = run_cke("spatial", "0");
    REQUIRE(s);
    for (int i = 0; i < 4; i++) off[i] = stat0(s, keys[i]);
    done(s);
    s = run_cke("spatial", "1");
    REQUIRE(s);
    for (int i = 0; i < 4; i++) on[i] = stat0(s, keys[i]);
    done(s);
    for (int i = 0; i < 4; i++) CHECK_EQ(on[i], off[i]);
    CHECK(off[0] > 0);
    /* a manual split puts both kernels on every SM: each gets half the 128 entries, and sv's
     * misses now find their share full */
    s = run_cke("manual:4,4", "0");
    REQUIRE(s);
    double ws_off = stat0(s, keys[2]);
    done(s);
    s = run_cke("manual:4,4", "1");
    REQUIRE(s);
    double ws_on = stat0(s, keys[2]);
    done(s);
    CHECK(ws_on > ws_off);
}
