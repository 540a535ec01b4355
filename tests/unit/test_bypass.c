/* The bypass path (spec 001 3.6) under a bypass policy: one warp loads two lines without
 * waiting; MDB with -gms_mdb_start bypass bypasses everything before its first decision (none
 * comes: the period is longer than the run). With unlimited slots both reads are in flight at
 * once; with one slot the second is refused (BpR reservation failures) until the first's reply
 * frees it, so exactly one is ever in flight. */
#include "test.h"
#include "sim_test_util.h"
#include "frontend/emit.h"

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

/* -gpgpu_gmem_skip_L1D 1 takes every global access around the L1D, stores too (GPGPU-Sim's
 * ldst_unit::memory_cycle tests inst.space.is_global()): one warp loads one line and stores
 * another. Without the option both go through the L1D (a read miss and a write-through store);
 * with it the L1D sees neither, and both still reach the L2 as one request each. */
static int skip_fill(void *self, uint64_t b, gms_block_trace *out, gms_error *err)
{
    (void)self; (void)b; (void)err;
    gms_emit e;
    uint64_t a[32];
    gms_emit_begin(&e, &out->warps[0]);
    for (int l = 0; l < 32; l++) a[l] = 0x10000 + 4u * (uint64_t)l;
    uint8_t r = gms_emit_load(&e, 0x10, 0xffffffffu, GMS_MEM_LD_GLOBAL, 4, a, GMS_REG_NONE);
    for (int l = 0; l < 32; l++) a[l] = 0x20000 + 4u * (uint64_t)l;
    gms_emit_store(&e, 0x20, 0xffffffffu, GMS_MEM_ST_GLOBAL, 4, a, GMS_REG_NONE, r);
    gms_emit_exit(&e, 0x30, 0xffffffffu);
    return 0;
}

static int skip_run(const char *skip, double *l1_r, double *l1_w, double *l2)
{
    const char *opts[] = {"gpgpu_cache:dl1", "N:32:128:4,L:L:m:N:L,A:32:8,8", "gpgpu_gmem_skip_L1D", skip, NULL};
    simt_run r;
    int rc = simt_run1(&r, "skip", 32, skip_fill, opts);
    if (!rc) {
        *l1_r = simt_stat(&r, "L1D_breakdown[GLOBAL_ACC_R][TOTAL_ACCESS]");
        *l1_w = simt_stat(&r, "L1D_breakdown[GLOBAL_ACC_W][TOTAL_ACCESS]");
        *l2 = simt_stat(&r, "L2_total_cache_accesses");
    }
    simt_free(&r);
    return rc;
}

TEST(gmem_skip_l1d_takes_loads_and_stores_around_the_l1d)
{
    double r, w, l2;
    REQUIRE(!skip_run("0", &r, &w, &l2));
    CHECK_EQ(r, 1);
    CHECK_EQ(w, 1);
    CHECK_EQ(l2, 2);
    REQUIRE(!skip_run("1", &r, &w, &l2));
    CHECK(r <= 0);   /* absent or 0 */
    CHECK(w <= 0);
    CHECK_EQ(l2, 2);
}
