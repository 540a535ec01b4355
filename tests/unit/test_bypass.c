/* The bypass path (spec 001 3.6) under a bypass policy: one warp loads two lines without
 * waiting; MDB with -gms_mdb_start bypass bypasses everything before its first decision (none
 * comes: the period is longer than the run). With unlimited slots both reads are in flight at
 * once; with one slot the second is refused (BpR reservation failures) until the first's reply
 * frees it, so exactly one is ever in flight. */
#include "test.h"
#include "sim_test_util.h"

typedef struct bres { double reads, rsfail, avg, max, l1acc; } bres;

static int run(const char *policy, const char *slots, bres *o)
{
    const char *opts[] = {"gpgpu_perfect_mem", "1", "gpgpu_cache:dl1", "N:32:128:4,L:L:m:N:L,A:32:8,8",
                          "gms_l1d_bypass", policy, "gms_mdb_start", "bypass", "gms_l1d_bypass_slots", slots, NULL};
    simt_run r;
    int rc = simt_run1(&r, "bypass", 32, simt_fill_two_loads, opts);
    if (!rc) {
        o->reads = simt_stat(&r, "gms_bpr_reads");
        o->rsfail = simt_stat(&r, "gms_bpr_rsfail");
        o->avg = simt_stat(&r, "gms_bpr_inflight_avg");
        o->max = simt_stat(&r, "gms_bpr_inflight_max");
        o->l1acc = simt_stat(&r, "L1D_total_cache_accesses");
    }
    simt_free(&r);
    return rc;
}

TEST(bypass_policy_sends_loads_around_the_l1d)
{
    bres r;
    REQUIRE(!run("mdb-local", "0", &r));
    CHECK_EQ(r.reads, 2);        /* both lines bypassed */
    CHECK(r.l1acc <= 0);         /* the L1D saw neither (absent or 0) */
    CHECK_EQ(r.rsfail, 0);
    CHECK_EQ(r.max, 2);          /* unlimited: both in flight together */
    CHECK(r.avg > 1 && r.avg <= 2);
}

TEST(bypass_slots_refuse_and_count)
{
    bres r;
    REQUIRE(!run("mdb-local", "1", &r));
    CHECK_EQ(r.reads, 2);
    CHECK(r.rsfail >= 1);        /* the second waited for the first's slot */
    CHECK_EQ(r.max, 1);
    CHECK_NEAR(r.avg, 1.0, 1e-9);
}

TEST(bypass_policy_bad_name)
{
    gms_error err = {0};
    gms_params *p = gms_params_new();
    int bad = gms_params_set(p, "gms_l1d_bypass", "mdb-locl", &err);
    CHECK(bad || gms_params_finalize(p, &err));
    CHECK_CONTAINS(err.msg, "mdb-locl");
    CHECK_CONTAINS(err.msg, "mdb-global");
    gms_params_free(p);
}

/* -gms_l1d_bypass_slots: -1 and 0 are unlimited (BpR_inf), N >= 1 a limit, below -1 an error */
TEST(bypass_slots_option)
{
    const char *val[] = { "-1", "0", "32" };
    const uint32_t want[] = { 0, 0, 32 };
    for (int i = 0; i < 3; i++) {
        gms_error err = {0};
        gms_params *p = gms_params_new();
        int rc = gms_params_set(p, "gms_l1d_bypass_slots", val[i], &err) || gms_params_finalize(p, &err);
        CHECK_EQ(rc, 0);
        CHECK_EQ(p->l1d.bypass_slots, want[i]);
        gms_params_free(p);
    }
    gms_error err = {0};
    gms_params *p = gms_params_new();
    int rc = gms_params_set(p, "gms_l1d_bypass_slots", "-2", &err) || gms_params_finalize(p, &err);
    CHECK(rc != 0);
    CHECK_CONTAINS(err.msg, "-gms_l1d_bypass_slots: -2");
    gms_params_free(p);
}
