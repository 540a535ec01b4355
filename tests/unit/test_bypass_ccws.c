/* CCWS (ccws.h): the cutoff rule by hand, and a run under it doing the same work. */
#include "test.h"
#include "core/ccws.h"
#include "cache_test_util.h"
#include "core/gpu.h"
#include "stats/stats.h"

/* base 100, 4 warps: cutoff 400. No lost locality: all four fit (400). Warp 0 at 64: sorted
 * 164, 100, 100 (= 364) then 464 > 400: the youngest, warp 3, waits. Warp 1 at 300: 400 alone
 * fills the cutoff, only it may issue loads. */
TEST(ccws_cutoff_rule)
{
    uint8_t ok[4];
    uint32_t s0[4] = { 0, 0, 0, 0 };
    gms_ccws_allowed(s0, 4, 100, ok);
    CHECK(ok[0] && ok[1] && ok[2] && ok[3]);
    uint32_t s1[4] = { 64, 0, 0, 0 };
    gms_ccws_allowed(s1, 4, 100, ok);
    CHECK(ok[0] && ok[1] && ok[2] && !ok[3]);
    uint32_t s2[4] = { 0, 300, 0, 0 };
    gms_ccws_allowed(s2, 4, 100, ok);
    CHECK(!ok[0] && ok[1] && !ok[2] && !ok[3]);
    uint32_t s3[1] = { 5000 };
    gms_ccws_allowed(s3, 1, 100, ok);
    CHECK(ok[0]);   /* one warp always may */
}

static int run(const char *ccws, double *insts, double *hits)
{
    gms_error err = {0};
    gms_params *p = gms_params_new();
    int bad = gms_params_set(p, "gms_ccws", ccws, &err);
    bad |= gms_params_set(p, "gms_watchdog_cycles", "200000", &err);
    if (bad || gms_params_finalize(p, &err)) { printf("    %s\n", err.msg); gms_params_free(p); return -1; }
    const char *kv[] = { "blocks=32", NULL };
    gms_workload_spec w = { "reduce", NULL, kv, 1, NULL };
    gms_sim *s = gms_sim_new(p, &w, &err);
    int rc = s ? gms_sim_run(s, &err) : -1;
    if (rc) printf("    %s\n", err.msg);
    if (!rc) {
        const gms_stat *st = gms_stats_find(&gms_sim_stats(s)->total, "gpgpu_n_tot_w_icount");
        *insts = st ? st->value : -1;
        st = gms_stats_find(&gms_sim_stats(s)->total, "gms_ccws_vta_hits");
        *hits = st ? st->value : -1;
    }
    if (s) gms_sim_free(s);
    gms_params_free(p);
    return rc;
}

TEST(ccws_run_does_the_same_work)
{
    double i0, h0, i1, h1;
    REQUIRE(!run("0", &i0, &h0));
    REQUIRE(!run("1", &i1, &h1));
    CHECK_EQ(i1, i0);
    CHECK_EQ(h0, -1);    /* not reported when off */
    CHECK(h1 >= 0);
}

/* eviction tracking in the L1D itself (what CCWS's victim tag arrays hear): one set of 2 ways;
 * A by warp 5, B by warp 7, then C by warp 9 evicts A (the LRU line): the callback hears
 * (A, 5); B hit by warp 9 stays warp 7's; D evicts C (now LRU): (C, 9). A flush evicts
 * nothing. */
typedef struct { uint64_t blk[8]; uint32_t owner[8]; int n; } evicted_log;
static void log_evict(void *ctx, uint64_t blk, uint32_t owner)
{
    evicted_log *l = ctx;
    if (l->n < 8) { l->blk[l->n] = blk; l->owner[l->n] = owner; }
    l->n++;
}

static void owned_read(gms_cache *c, gms_mreq_pool *pool, uint64_t addr, uint32_t warp, uint64_t now)
{
    gms_cache_set_alloc_owner(c, warp);
    tu_read_line(c, pool, addr, now);
}

TEST(ccws_l1d_evictions_name_the_warp_that_brought_the_line)
{
    gms_mreq_pool pool;
    gms_mreq_pool_init(&pool);
    gms_cache *c = tu_l1_one_set(&pool, 2);
    REQUIRE(c);
    evicted_log log = { {0}, {0}, 0 };
    gms_cache_track_evictions(c, log_evict, &log);
    owned_read(c, &pool, 0x000, 5, 1);
    owned_read(c, &pool, 0x080, 7, 2);
    CHECK_EQ(log.n, 0);
    owned_read(c, &pool, 0x100, 9, 3);
    REQUIRE(log.n == 1);
    CHECK_EQ(log.blk[0], 0x000);
    CHECK_EQ(log.owner[0], 5);
    owned_read(c, &pool, 0x080, 9, 4);   /* a hit: B stays warp 7's */
    owned_read(c, &pool, 0x180, 2, 5);   /* evicts C (LRU) */
    REQUIRE(log.n == 2);
    CHECK_EQ(log.blk[1], 0x100);
    CHECK_EQ(log.owner[1], 9);
    owned_read(c, &pool, 0x200, 2, 6);   /* evicts B: still warp 7's */
    REQUIRE(log.n == 3);
    CHECK_EQ(log.blk[2], 0x080);
    CHECK_EQ(log.owner[2], 7);
    gms_cache_flush(c);
    CHECK_EQ(log.n, 3);
    gms_cache_free(c);
    gms_mreq_pool_free(&pool);
}
