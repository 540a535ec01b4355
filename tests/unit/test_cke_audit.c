/* Audit fixes of the CKE schemes (docs/cke.md): QBMI's integer Req/Minst when a kernel makes
 * fewer requests than it issues balanced instructions, the Table 6 statistics whatever
 * -gms_cke_bmi_insts says, and the block partitions' error when the kernels cannot co-reside.
 * Expectations computed by hand in the comments. */
#include "test.h"
#include "run_test_util.h"
#include "cke/cke.h"
#include "config/params.h"
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------- QBMI's Req/Minst */

TEST(cke_qbmi_rpm_scales_ratios_below_one)
{
    uint32_t rpm[3];
    int64_t q[3];
    /* bp 370 requests / 1000 instructions (0.37: shared-memory instructions counted) beside ks
     * 17100 / 1000 (17.1). Smallest 0.37: k = round(1000 / 370 = 2.7) = 3; bp (1110 + 500) / 1000 = 1,
     * ks (51300 + 500) / 1000 = 51; LCM 51: quotas 51 and 1, a round of 51 x 0.37 = 18.9
     * requests of bp against 17.1 of ks (plain rounding: 0 -> 1 and 17, quotas 17 and 1, 6.3
     * requests of bp against 17.1) */
    uint64_t r2[] = { 370, 17100 }, m2[] = { 1000, 1000 };
    gms_qbmi_rpm(r2, m2, 2, rpm);
    CHECK_EQ(rpm[0], 1u);
    CHECK_EQ(rpm[1], 51u);
    gms_qbmi_quotas(rpm, 2, q);
    CHECK_EQ(q[0], 51);
    CHECK_EQ(q[1], 1);
    /* every ratio >= 1: plain rounding, as before (Table 6's hs 2.8 and pf 1.92: 3 and 2) */
    uint64_t r1[] = { 2800, 1920 }, m1[] = { 1000, 1000 };
    gms_qbmi_rpm(r1, m1, 2, rpm);
    CHECK_EQ(rpm[0], 3u);
    CHECK_EQ(rpm[1], 2u);
    /* three kernels: hs 0.40, pf 0.30, ks 17.1: k = round(3.33) = 3 -> (1200 + 500) / 1000 = 1,
     * (900 + 500) / 1000 = 1, (51300 + 500) / 1000 = 51; LCM 51: 51, 51, 1 (requests per
     * round 20.4, 15.3, 17.1) */
    uint64_t r3[] = { 400, 300, 17100 }, m3[] = { 1000, 1000, 1000 };
    gms_qbmi_rpm(r3, m3, 3, rpm);
    CHECK_EQ(rpm[0], 1u);
    CHECK_EQ(rpm[1], 1u);
    CHECK_EQ(rpm[2], 51u);
    gms_qbmi_quotas(rpm, 3, q);
    CHECK_EQ(q[0], 51);
    CHECK_EQ(q[1], 51);
    CHECK_EQ(q[2], 1);
    /* the nearest factor, not the ceiling: bp 0.48, ks 17.19: k = round(2.08) = 2 -> 1 and
     * (34380 + 500) / 1000 = 34, quotas 34 and 1: 16.3 requests of bp per 17.2 of ks (k = 3
     * would give 52 and 1: 25.0 per 17.2) */
    uint64_t r7[] = { 480, 17190 }, m7[] = { 1000, 1000 };
    gms_qbmi_rpm(r7, m7, 2, rpm);
    CHECK_EQ(rpm[0], 1u);
    CHECK_EQ(rpm[1], 34u);
    /* the cap of 32 requests per instruction comes before the scaling: 40 -> 32, x 3 = 96 */
    uint64_t r4[] = { 370, 40000 }, m4[] = { 1000, 1000 };
    gms_qbmi_rpm(r4, m4, 2, rpm);
    CHECK_EQ(rpm[0], 1u);
    CHECK_EQ(rpm[1], 96u);
    /* just under 1 (global accesses, some issued at the end of the interval with their
     * requests in the next): 1020 / 1024 beside 1.32: k = round(1.004) = 1, the plain rounding
     * 1 and 1 (k = 2 would give 2 and 3) */
    uint64_t r5[] = { 1020, 1320 }, m5[] = { 1024, 1000 };
    gms_qbmi_rpm(r5, m5, 2, rpm);
    CHECK_EQ(rpm[0], 1u);
    CHECK_EQ(rpm[1], 1u);
    /* the factor is at most GMS_QBMI_MAX_SCALE (1024): 1 / 5000 x 1024 rounds to 0 -> 1,
     * 17 x 1024 = 17408 */
    uint64_t r6[] = { 1, 17 }, m6[] = { 5000, 1 };
    gms_qbmi_rpm(r6, m6, 2, rpm);
    CHECK_EQ(rpm[0], 1u);
    CHECK_EQ(rpm[1], 17408u);
}

static gms_cke_params qbmi_params(void)
{
    gms_cke_params c;
    memset(&c, 0, sizeof c);
    c.interval = 1024;
    c.rf_bits = 12;
    c.mi_idx = gms_reg_index(&gms_cke_mi_reg, "qbmi");
    return c;
}

/* the SM's hooks: the quotas a refill adds come from the kernels' measured intervals */
TEST(cke_qbmi_refill_uses_scaled_ratios)
{
    gms_cke_params c = qbmi_params();
    REQUIRE(c.mi_idx >= 0);
    gms_cke_sm cs;
    gms_cke_sm_init(&cs, &c, 2, gms_cke_mi_at(c.mi_idx), NULL);
    /* kernel 0 (bp): 2768 instructions QBMI balances, then 1024 requests: 0.370 per
     * instruction; kernel 1 (ks): 60 global ones, then 1026 requests: 17.1 */
    for (int i = 0; i < 2768; i++) gms_cke_issued(&cs, 0, GMS_CKE_BMI, 32, 10);
    gms_cke_requests(&cs, 0, 1024, 11);
    for (int i = 0; i < 60; i++) gms_cke_issued(&cs, 1, GMS_CKE_BMI | GMS_CKE_MIL, 32, 12);
    gms_cke_requests(&cs, 1, 1026, 13);
    CHECK_EQ(cs.a[0].rpm, 1u);     /* each rounded alone: 0 -> 1 ... */
    CHECK_EQ(cs.a[1].rpm, 17u);    /* ... and 17 */
    /* k = round(2768 / 1024 = 2.7) = 3: bp (3072 + 1384) / 2768 = 1, ks (3078 + 30) / 60 = 51: ks's
     * last quota spent adds 51 to bp's and 1 to its own (plain rounding: 17 and 1) */
    cs.a[0].quota = 5;
    cs.a[1].quota = 1;
    gms_cke_issued(&cs, 1, GMS_CKE_BMI | GMS_CKE_MIL, 32, 14);
    CHECK_EQ(cs.a[0].quota, 56);
    CHECK_EQ(cs.a[1].quota, 1);
}

/* ------------------------------------------------------------- Table 6's statistics */

/* what each instruction kind counts in: LSU instructions (alu_util, Cinst), global ones
 * (Req/Minst), the balanced ones (QBMI's quota) */
TEST(cke_issued_counts_lsu_global_and_balanced_apart)
{
    gms_cke_params c = qbmi_params();
    REQUIRE(c.mi_idx >= 0);
    gms_cke_sm cs;
    gms_cke_sm_init(&cs, &c, 2, gms_cke_mi_at(c.mi_idx), NULL);
    int64_t q0 = cs.a[0].quota;
    gms_cke_issued(&cs, 0, GMS_CKE_LSU, 32, 1);   /* shared, -gms_cke_bmi_insts global */
    CHECK_EQ(cs.a[0].linst, 1u);
    CHECK_EQ(cs.a[0].minst, 0u);
    CHECK_EQ(cs.a[0].ginst, 0u);
    CHECK_EQ(cs.a[0].quota, q0);                  /* no quota spent */
    gms_cke_issued(&cs, 0, GMS_CKE_BMI, 32, 2);   /* shared, lsu (sm.c adds GMS_CKE_LSU; counted once) */
    gms_cke_issued(&cs, 0, GMS_CKE_BMI | GMS_CKE_LSU, 32, 2);
    CHECK_EQ(cs.a[0].linst, 3u);
    CHECK_EQ(cs.a[0].minst, 2u);
    CHECK_EQ(cs.a[0].ginst, 0u);
    gms_cke_issued(&cs, 0, GMS_CKE_BMI | GMS_CKE_MIL, 32, 3);   /* global */
    CHECK_EQ(cs.a[0].linst, 4u);
    CHECK_EQ(cs.a[0].minst, 3u);
    CHECK_EQ(cs.a[0].ginst, 1u);
    gms_cke_issued(&cs, 0, GMS_CKE_SFU, 32, 4);   /* not a memory instruction */
    CHECK_EQ(cs.a[0].linst, 4u);
    CHECK_EQ(cs.a[0].winst, 5u);
}

/* hotspot alone (no scheme acts) under -gms_cke_bmi_insts `insts`; 0, or -1 after printing the error */
static int run_hs_alone(wl_sim *r, const char *insts)
{
    const char *opts[] = { "gms_cke_bmi_insts", insts, NULL };
    const char *kv[] = { "apps=hs", "alone=1", "window=20000", "scale=0.25", NULL };
    return wl_sim_run(r, "configs/maxwell-sound-baseline.config", opts, "cke", kv, 1);
}

/* Table 6's Req/Minst (requests per global memory instruction) and Minst do not follow the
 * QBMI knob: hotspot alone runs the same cycles under both (no scheme), and its shared-memory
 * instructions count only in what QBMI balances under lsu */
TEST(cke_table6_stats_independent_of_bmi_insts)
{
    wl_sim sim;
    REQUIRE(run_hs_alone(&sim, "lsu") == 0);
    double ipc = wl_sim_stat(&sim, "gms_cke_app0_ipc"), mi = wl_sim_stat(&sim, "gms_cke_app0_mem_insts");
    double rpm = wl_sim_stat(&sim, "gms_cke_app0_req_per_minst"), req = wl_sim_stat(&sim, "gms_cke_app0_requests");
    double lsu = wl_sim_stat(&sim, "gms_cke_app0_lsu_insts"), bmi = wl_sim_stat(&sim, "gms_cke_app0_bmi_insts");
    double alu = wl_sim_stat(&sim, "gms_cke_app0_alu_util"), cpm = wl_sim_stat(&sim, "gms_cke_app0_cinst_per_minst");
    wl_sim_free(&sim);
    REQUIRE(run_hs_alone(&sim, "global") == 0);
    CHECK_EQ(wl_sim_stat(&sim, "gms_cke_app0_ipc"), ipc);
    CHECK_EQ(wl_sim_stat(&sim, "gms_cke_app0_mem_insts"), mi);
    CHECK_EQ(wl_sim_stat(&sim, "gms_cke_app0_req_per_minst"), rpm);
    CHECK_EQ(wl_sim_stat(&sim, "gms_cke_app0_bmi_insts"), mi);   /* global: the balanced ones are the global ones */
    CHECK_EQ(wl_sim_stat(&sim, "gms_cke_app0_lsu_insts"), lsu);  /* the SM marks LSU instructions apart */
    CHECK_EQ(wl_sim_stat(&sim, "gms_cke_app0_alu_util"), alu);
    CHECK_EQ(wl_sim_stat(&sim, "gms_cke_app0_cinst_per_minst"), cpm);
    wl_sim_free(&sim);
    /* requests per global instruction (hotspot: 2 to 3), not per LSU instruction (below 1) */
    CHECK(mi > 0);
    CHECK_NEAR(rpm, req / mi, 1e-9);
    CHECK(rpm > 2);
    /* lsu: every LSU instruction with a request is balanced (the LSU also takes MEMBARs and
     * fully predicated-off memory instructions, which request nothing) */
    CHECK(bmi <= lsu && bmi > 3 * mi);
}

/* ------------------------------------------------------------- kernels that cannot co-reside */

static int profiled;
static int fake_profile(void *ud, uint32_t app, uint32_t t, double *ipc, gms_error *err)
{
    (void)ud; (void)app; (void)err;
    profiled++;
    *ipc = t;
    return 0;
}

TEST(cke_partition_refuses_kernels_that_cannot_coreside)
{
    /* an SM of 2048 threads, 64K registers, 96 KB shared memory, 32 block slots; hs blocks of
     * 1024 threads and 40 KB, bp of 1536 threads and 60 KB: each fits alone (occupancy 2 and
     * 1), one of each needs 2560 threads and 100 KB */
    gms_cke_plan_ctx x;
    memset(&x, 0, sizeof x);
    x.napps = 2;
    x.n_sm = 16;
    x.name[0] = "hs";
    x.name[1] = "bp";
    x.shape[0] = (gms_cke_shape){ 1024, 16384, 40960, 2 };
    x.shape[1] = (gms_cke_shape){ 1536, 24576, 61440, 1 };
    x.lim = (gms_cke_sm_limits){ 2048, 65536, 98304, 32 };
    x.profile = fake_profile;
    CHECK_EQ(gms_cke_one_each_over(x.shape, 2, &x.lim), (uint32_t)(GMS_CKE_RES_THREADS | GMS_CKE_RES_SHMEM));
    /* the sweet point: no feasible combination, -1 and no blocks (was 0 and one block each) */
    double a[2] = { 1, 2 }, b[1] = { 1 };
    const double *perf[2] = { a, b };
    uint32_t t[2] = { 9, 9 };
    CHECK_EQ(gms_ws_sweet_point(x.shape, 2, &x.lim, perf, t), -1.0);
    CHECK_EQ(t[0], 0u);
    CHECK_EQ(t[1], 0u);
    /* Warped-Slicer and SMK-P: one clear error naming the kernels and the resources, before any
     * profile run */
    const char *schemes[] = { "ws", "ws-ucp", "smk" };
    for (int i = 0; i < 3; i++) {
        long idx = gms_reg_index(&gms_cke_tb_reg, schemes[i]);
        REQUIRE(idx >= 0);
        gms_cke_params c;
        memset(&c, 0, sizeof c);
        snprintf(c.tb, sizeof c.tb, "%s", schemes[i]);
        x.c = &c;
        gms_cke_plan o;
        gms_error err = {0};
        profiled = 0;
        CHECK(gms_cke_tb_at(idx)->plan(&x, &o, &err) != 0);
        x.c = NULL;
        CHECK_CONTAINS(err.msg, schemes[i]);
        CHECK_CONTAINS(err.msg, "hs+bp cannot share an SM");
        CHECK_CONTAINS(err.msg, "2560 threads (an SM has 2048)");
        CHECK_CONTAINS(err.msg, "102400 bytes of shared memory (an SM has 98304)");
        CHECK(!strstr(err.msg, "registers"));
        CHECK_EQ(profiled, 0);
    }
    /* a third of the threads each: they fit, Warped-Slicer profiles and plans */
    x.shape[0] = (gms_cke_shape){ 512, 8192, 0, 4 };
    x.shape[1] = (gms_cke_shape){ 512, 8192, 0, 4 };
    CHECK_EQ(gms_cke_one_each_over(x.shape, 2, &x.lim), 0u);
    gms_cke_plan o;
    gms_error err = {0};
    profiled = 0;
    CHECK_EQ(gms_cke_tb_at(gms_reg_index(&gms_cke_tb_reg, "ws"))->plan(&x, &o, &err), 0);
    CHECK_EQ(profiled, 8);
    CHECK_EQ(o.cap[0] + o.cap[1], 4u);
}
