/* CCWS (ccws.h): the cutoff rule by hand, and a run under it doing the same work. */
#include "test.h"
#include "core/ccws.h"
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
