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

typedef struct { double insts, hits, cycles, verified; } ccws_out;

/* a run of `wl` with `kv` under -gms_ccws `ccws`, on the maxwell-sound-baseline preset if
 * `preset` (the chapter-2 machine CCWS is evaluated on) */
static int run(const char *ccws, int preset, const char *wl, const char *const *kv, ccws_out *o)
{
    gms_error err = {0};
    gms_params *p = gms_params_new();
    int bad = preset && gms_params_load_file(p, "configs/maxwell-sound-baseline.config", &err);
    bad |= gms_params_set(p, "gms_ccws", ccws, &err);
    bad |= gms_params_set(p, "gms_watchdog_cycles", "200000", &err);
    if (bad || gms_params_finalize(p, &err)) { printf("    %s\n", err.msg); gms_params_free(p); return -1; }
    gms_workload_spec w = { wl, NULL, kv, 1, NULL };
    gms_sim *s = gms_sim_new(p, &w, &err);
    int rc = s ? gms_sim_run(s, &err) : -1;
    if (rc) printf("    %s\n", err.msg);
    if (!rc) {
        const char *names[] = { "gpgpu_n_tot_w_icount", "gms_ccws_vta_hits", "gpu_tot_sim_cycle", "gms_workload_verified" };
        double *dst[] = { &o->insts, &o->hits, &o->cycles, &o->verified };
        for (int i = 0; i < 4; i++) {
            const gms_stat *st = gms_stats_find(&gms_sim_stats(s)->total, names[i]);
            *dst[i] = st ? st->value : -1;
        }
    }
    if (s) gms_sim_free(s);
    gms_params_free(p);
    return rc;
}

/* reduce streams its input once: no lost locality, so CCWS never throttles and the run is the
 * same; bfs re-reads its graph: the victim tag arrays hear lost locality (VTA hits), CCWS
 * throttles, the timing changes and the work does not */
TEST(ccws_run_does_the_same_work)
{
    ccws_out a, b;
    const char *kv[] = { "blocks=32", NULL };
    REQUIRE(!run("0", 0, "reduce", kv, &a));
    REQUIRE(!run("1", 0, "reduce", kv, &b));
    CHECK_EQ(b.insts, a.insts);
    CHECK_EQ(a.hits, -1);    /* not reported when off */
    CHECK_EQ(b.hits, 0);     /* a stream loses no locality */
    CHECK_EQ(b.cycles, a.cycles);
    const char *kb[] = { "scale=0.0005", NULL };
    REQUIRE(!run("0", 1, "bfs", kb, &a));
    REQUIRE(!run("1", 1, "bfs", kb, &b));
    printf("    bfs: %.0f VTA hits; cycles %.0f without CCWS, %.0f with\n", b.hits, a.cycles, b.cycles);
    CHECK(b.hits > 0);
    CHECK_EQ(b.insts, a.insts);
    CHECK_EQ(a.verified, 1);
    CHECK_EQ(b.verified, 1);
    CHECK(b.cycles != a.cycles);
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
