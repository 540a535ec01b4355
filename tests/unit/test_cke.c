/* Concurrent kernel execution (src/cke, docs/cke.md): the schemes' arithmetic on hand-computed
 * cases (QBMI quotas, DMIL's limit update, SMK-P's DRF partition, Warped-Slicer's sweet point)
 * and the per-SM gates (QBMI priority, DMIL and SMIL limits, SMK-W quotas). */
#include "test.h"
#include "cke/cke.h"
#include "config/params.h"
#include <string.h>

/* a global access, to the schemes (cke.h) */
#define GMEM (GMS_CKE_BMI | GMS_CKE_MIL)

TEST(cke_qbmi_quotas_lcm)
{
    /* bp (2 requests per memory instruction) + ks (17): LCM 34 -> 17 and 2, so that a round
     * sends 34 requests of each */
    uint32_t r2[] = { 2, 17 };
    int64_t q[3];
    gms_qbmi_quotas(r2, 2, q);
    CHECK_EQ(q[0], 17);
    CHECK_EQ(q[1], 2);
    /* 2, 4, 3: LCM 12 -> 6, 3, 4 */
    uint32_t r3[] = { 2, 4, 3 };
    gms_qbmi_quotas(r3, 3, q);
    CHECK_EQ(q[0], 6);
    CHECK_EQ(q[1], 3);
    CHECK_EQ(q[2], 4);
    /* equal coalescing: one each */
    uint32_t r1[] = { 3, 3 };
    gms_qbmi_quotas(r1, 2, q);
    CHECK_EQ(q[0], 1);
    CHECK_EQ(q[1], 1);
}

TEST(cke_dmil_limit_update)
{
    /* 3077 fails in 1024 requests: 3 per request; 24 in flight at most -> 24 / 3 = 8 */
    CHECK_EQ(gms_dmil_limit(24, 3077, 12, 10), 8u);
    /* the 12-bit counter saturates at 4095: 8000 fails still read as 3 per request ... */
    CHECK_EQ(gms_dmil_limit(24, 8000, 12, 10), 8u);
    /* ... a 16-bit one sees 7: 24 / 7 = 3 */
    CHECK_EQ(gms_dmil_limit(24, 8000, 16, 10), 3u);
    /* under one fail per request: the goal is met, no limit */
    CHECK_EQ(gms_dmil_limit(24, 1000, 12, 10), 0u);
    /* never below 1 */
    CHECK_EQ(gms_dmil_limit(2, 4095, 12, 10), 1u);
}

/* an SM of 2048 threads, 64K registers, 96 KB shared memory, 32 block slots */
static const gms_cke_sm_limits lim = { 2048, 65536, 98304, 32 };

TEST(cke_drf_partition)
{
    /* A: 256 threads x 32 registers, no shared memory (0.125 of threads and registers per
     * block); B: 128 threads x 16 registers, 12 KB shared memory (0.125 of shared memory per
     * block). Equal dominant shares: alternate, A first, up to (5,5); A's sixth block needs
     * 2176 threads: A stops; B's sixth fits (2048 threads), its seventh does not: (5, 6). */
    gms_cke_shape sh[2] = { { 256, 8192, 0, 8 }, { 128, 2048, 12288, 8 } };
    uint32_t t[2];
    gms_drf_partition(sh, 2, &lim, t);
    CHECK_EQ(t[0], 5u);
    CHECK_EQ(t[1], 6u);
    CHECK(gms_cke_fits(sh, 2, &lim, t));
    /* a kernel whose blocks are small in every resource gets more of them: A (1024 threads,
     * half the SM per block) against C (64 threads): A 1 (share 0.5), C up to 1024 threads
     * left = 16 blocks, but C's share passes A's after 16 and A's second does not fit */
    gms_cke_shape sh2[2] = { { 1024, 4096, 0, 2 }, { 64, 256, 0, 32 } };
    gms_drf_partition(sh2, 2, &lim, t);
    CHECK_EQ(t[0], 1u);
    CHECK_EQ(t[1], 16u);
}

TEST(cke_ws_sweet_point)
{
    /* two kernels of 512 threads (at most 4 blocks per SM together), A saturating, B linear:
     * normalised A .4 .72 .96 1, B .25 .5 .75 1. Feasible with both >= 1: (1,1) .25, (1,2) .4,
     * (1,3) .4, (2,1) .25, (2,2) .5, (3,1) .25 -> (2,2), predicted STP .72 + .5 = 1.22 */
    gms_cke_shape sh[2] = { { 512, 0, 0, 4 }, { 512, 0, 0, 4 } };
    double a[4] = { 1, 1.8, 2.4, 2.5 }, b[4] = { 1, 2, 3, 4 };
    const double *perf[2] = { a, b };
    uint32_t t[2];
    double stp = gms_ws_sweet_point(sh, 2, &lim, perf, t);
    CHECK_EQ(t[0], 2u);
    CHECK_EQ(t[1], 2u);
    CHECK_NEAR(stp, 1.22, 1e-9);
}

static gms_cke_params cke_params(const char *mi)
{
    gms_cke_params c;
    memset(&c, 0, sizeof c);
    c.interval = 1024;
    c.rf_bits = 12;
    c.smkw_idle = 256;   /* the option's default */
    c.mi_idx = gms_reg_index(&gms_cke_mi_reg, mi);
    return c;
}

/* an SM of bp (kernel 0) and ks (kernel 1) after they measured 2 and 17 requests per memory
 * instruction: quotas 17 and 2 */
static void bp_ks_sm(gms_cke_sm *cs, const gms_cke_params *c)
{
    gms_cke_sm_init(cs, c, 2, gms_cke_mi_at(c->mi_idx), NULL);
    cs->a[0].rpm = 2;
    cs->a[1].rpm = 17;
    cs->a[0].quota = 17;
    cs->a[1].quota = 2;
}

TEST(cke_qbmi_gate_priority)
{
    gms_cke_params c = cke_params("qbmi");
    REQUIRE(c.mi_idx >= 0);
    gms_cke_sm cs;
    bp_ks_sm(&cs, &c);
    CHECK(gms_cke_gate(&cs, 0, GMEM, 100));     /* bp: the larger quota */
    CHECK(!gms_cke_gate(&cs, 1, GMEM, 100));    /* ks waits while bp has one ready ... */
    CHECK(gms_cke_gate(&cs, 1, 0, 100));     /* ... but its other instructions do not */
    CHECK(!gms_cke_gate(&cs, 1, GMEM, 101));    /* (demand lasts this cycle and the next) */
    CHECK(gms_cke_gate(&cs, 1, GMEM, 102));     /* bp had nothing ready in cycles 101-102 */
    gms_cke_waiting(&cs, 0, 102);            /* a bp instruction ready for the LSU */
    CHECK(!gms_cke_gate(&cs, 1, GMEM, 103));    /* is demand too */
    /* bp issues 15: 2 left, a tie: both go */
    for (int i = 0; i < 15; i++) gms_cke_issued(&cs, 0, GMEM, 32, 103);
    CHECK_EQ(cs.a[0].quota, 2);
    CHECK(gms_cke_gate(&cs, 0, GMEM, 104));
    CHECK(gms_cke_gate(&cs, 1, GMEM, 104));
    /* ks issues 2: its quota reaches 0 and a fresh set (17, 2) is added to both */
    gms_cke_issued(&cs, 1, GMEM, 32, 104);
    gms_cke_issued(&cs, 1, GMEM, 32, 104);
    CHECK_EQ(cs.a[0].quota, 19);
    CHECK_EQ(cs.a[1].quota, 2);
}

/* -gms_cke_bmi_insts lsu: a shared-memory instruction is GMS_CKE_BMI only. Under QBMI+DMIL it
 * spends a quota (and counts in Req/Minst's denominator) but is never in flight, so DMIL's
 * limit neither holds it nor counts it */
TEST(cke_bmi_only_instruction_spends_quota_not_inflight)
{
    gms_cke_params c = cke_params("qbmi+dmil");
    REQUIRE(c.mi_idx >= 0);
    gms_cke_sm cs;
    bp_ks_sm(&cs, &c);
    cs.a[0].limit = 1;
    gms_cke_issued(&cs, 0, GMS_CKE_BMI, 32, 5);
    CHECK_EQ(cs.a[0].quota, 16);
    CHECK_EQ(cs.a[0].inflight, 0u);
    CHECK_EQ(cs.a[0].minst, 1u);
    CHECK(gms_cke_gate(&cs, 0, GMEM, 6));             /* 0 in flight: under the limit of 1 */
    CHECK(gms_cke_gate(&cs, 0, GMS_CKE_BMI, 6));
    gms_cke_issued(&cs, 0, GMEM, 32, 6);
    CHECK_EQ(cs.a[0].inflight, 1u);
    CHECK(!gms_cke_gate(&cs, 0, GMEM, 7));            /* at the limit */
    CHECK(gms_cke_gate(&cs, 0, GMS_CKE_BMI, 7));      /* not a limited one */
    /* and as demand it holds the other kernel's memory instructions, as a global one does */
    gms_cke_waiting(&cs, 0, 7);
    CHECK(!gms_cke_gate(&cs, 1, GMEM, 8));
}

TEST(cke_dmil_gate_limits_inflight)
{
    gms_cke_params c = cke_params("dmil");
    REQUIRE(c.mi_idx >= 0);
    gms_cke_sm cs;
    gms_cke_sm_init(&cs, &c, 2, gms_cke_mi_at(c.mi_idx), NULL);
    for (int i = 0; i < 24; i++) { CHECK(gms_cke_gate(&cs, 1, GMEM, 10)); gms_cke_issued(&cs, 1, GMEM, 32, 10); }
    for (int i = 0; i < 3077; i++) gms_cke_l1(&cs, 1, 2);
    gms_cke_requests(&cs, 1, 1024, 20);          /* the interval ends: 24 / (3077 >> 10) = 8 */
    CHECK_EQ(cs.a[1].limit, 8u);
    CHECK(!gms_cke_gate(&cs, 1, GMEM, 11));     /* 24 in flight */
    CHECK(gms_cke_gate(&cs, 1, 0, 11));      /* compute instructions go on */
    CHECK(gms_cke_gate(&cs, 0, GMEM, 11));      /* the other kernel has no limit */
    for (int i = 0; i < 17; i++) gms_cke_mem_done(&cs, 1);
    CHECK(gms_cke_gate(&cs, 1, GMEM, 12));      /* 7 in flight */
    /* an interval under one fail per request lifts the limit */
    gms_cke_requests(&cs, 1, 1024, 20);
    CHECK_EQ(cs.a[1].limit, 0u);

    /* -gms_cke_dmil_met keep: the goal met, the limit stays; the next interval over it lowers it */
    c.dmil_keep = 1;
    gms_cke_sm_init(&cs, &c, 2, gms_cke_mi_at(c.mi_idx), NULL);
    for (int i = 0; i < 24; i++) gms_cke_issued(&cs, 1, GMEM, 32, 10);
    for (int i = 0; i < 3077; i++) gms_cke_l1(&cs, 1, 2);
    gms_cke_requests(&cs, 1, 1024, 20);          /* 24 / 3 = 8 */
    CHECK_EQ(cs.a[1].limit, 8u);
    for (int i = 0; i < 24; i++) gms_cke_mem_done(&cs, 1);
    gms_cke_requests(&cs, 1, 1024, 21);          /* no fails: 8 kept */
    CHECK_EQ(cs.a[1].limit, 8u);
    for (int i = 0; i < 8; i++) { CHECK(gms_cke_gate(&cs, 1, GMEM, 22)); gms_cke_issued(&cs, 1, GMEM, 32, 22); }
    CHECK(!gms_cke_gate(&cs, 1, GMEM, 22));        /* at 8 */
    for (int i = 0; i < 2100; i++) gms_cke_l1(&cs, 1, 2);
    gms_cke_requests(&cs, 1, 1024, 23);          /* 8 / 2 = 4 */
    CHECK_EQ(cs.a[1].limit, 4u);
}

TEST(cke_smil_and_smkw_gates)
{
    gms_cke_params c = cke_params("smil");
    c.mi_args[0] = 3;
    c.mi_args[1] = 1;
    c.nmi_args = 2;
    gms_cke_sm cs;
    gms_cke_sm_init(&cs, &c, 2, gms_cke_mi_at(c.mi_idx), NULL);
    gms_cke_issued(&cs, 1, GMEM, 32, 1);
    CHECK(!gms_cke_gate(&cs, 1, GMEM, 2));      /* limit 1 */
    gms_cke_issued(&cs, 0, GMEM, 32, 1);
    gms_cke_issued(&cs, 0, GMEM, 32, 1);
    CHECK(gms_cke_gate(&cs, 0, GMEM, 2));       /* 2 of 3 */
    gms_cke_issued(&cs, 0, GMEM, 32, 2);
    CHECK(!gms_cke_gate(&cs, 0, GMEM, 3));

    /* SMK-W: quotas 3 and 1 per epoch */
    gms_cke_params w = cke_params("smkw");
    uint32_t share[2] = { 3, 1 };
    gms_cke_sm_init(&cs, &w, 2, gms_cke_mi_at(w.mi_idx), share);
    gms_cke_issued(&cs, 1, 0, 32, 5);
    CHECK(!gms_cke_gate(&cs, 1, 0, 6));      /* used up while kernel 0 has 3 left */
    for (int i = 0; i < 3; i++) { CHECK(gms_cke_gate(&cs, 0, 0, 6)); gms_cke_issued(&cs, 0, 0, 32, 6); }
    CHECK(gms_cke_gate(&cs, 1, 0, 7));       /* all used up: new quotas */
    CHECK_EQ(cs.a[0].wquota, 3);
    CHECK_EQ(cs.a[1].wquota, 1);
}

/* SMK-W's two readings of a kernel that holds quota but does not issue (-gms_cke_smkw_idle) */
TEST(cke_smkw_idle_readings)
{
    gms_cke_params w = cke_params("smkw");
    uint32_t share[2] = { 4, 1 };
    gms_cke_sm cs;
    /* idle 256 (default): kernel 0 keeps 4 of quota but last issued at cycle 10; kernel 1 has
     * used its 1 and waits until kernel 0 has been idle for 256 cycles */
    CHECK_EQ(w.smkw_idle, 256u);
    gms_cke_sm_init(&cs, &w, 2, gms_cke_mi_at(w.mi_idx), share);
    cs.a[0].blocks_here = cs.a[1].blocks_here = 1;
    gms_cke_issued(&cs, 0, 0, 32, 10);
    gms_cke_issued(&cs, 1, 0, 32, 10);
    CHECK(!gms_cke_gate(&cs, 1, 0, 265));    /* 10 + 256 > 265: kernel 0 still holds */
    CHECK(gms_cke_gate(&cs, 1, 0, 266));     /* idle 256 cycles: used up, new quotas */
    CHECK_EQ(cs.a[0].wquota, 3 + 4);         /* its 3 left and a new 4 */
    CHECK_EQ(cs.a[1].wquota, 1);
    /* idle 0: a stalled kernel with blocks here holds the others however long it waits ... */
    w.smkw_idle = 0;
    gms_cke_sm_init(&cs, &w, 2, gms_cke_mi_at(w.mi_idx), share);
    cs.a[0].blocks_here = cs.a[1].blocks_here = 1;
    gms_cke_issued(&cs, 0, 0, 32, 10);
    gms_cke_issued(&cs, 1, 0, 32, 10);
    CHECK(!gms_cke_gate(&cs, 1, 0, 100000));
    /* ... until it has no block on the SM */
    cs.a[0].blocks_here = 0;
    CHECK(gms_cke_gate(&cs, 1, 0, 100001));
    CHECK_EQ(cs.a[1].wquota, 1);
}

TEST(cke_lsu_priority_qbmi_rbmi)
{
    /* QBMI: the LSU takes the kernel with the larger quota first; waiting there is demand */
    gms_cke_params c = cke_params("qbmi");
    gms_cke_sm cs;
    gms_cke_sm_init(&cs, &c, 2, gms_cke_mi_at(c.mi_idx), NULL);
    cs.a[0].quota = 17;
    cs.a[1].quota = 2;
    CHECK(gms_cke_take_prio(&cs, 0) > gms_cke_take_prio(&cs, 1));
    gms_cke_waiting(&cs, 0, 50);            /* kernel 0 still waits at the LSU after the take */
    CHECK(!gms_cke_gate(&cs, 1, GMEM, 51));    /* kernel 1 may not issue */
    /* RBMI: the kernel whose turn it is, then the next */
    gms_cke_params r = cke_params("rbmi");
    gms_cke_sm_init(&cs, &r, 3, gms_cke_mi_at(r.mi_idx), NULL);
    gms_cke_issued(&cs, 0, GMEM, 32, 1);       /* kernel 0 issued: kernel 1's turn */
    CHECK(gms_cke_take_prio(&cs, 1) > gms_cke_take_prio(&cs, 2));
    CHECK(gms_cke_take_prio(&cs, 2) > gms_cke_take_prio(&cs, 0));
    CHECK(gms_cke_gate(&cs, 2, GMEM, 3));      /* kernel 1, whose turn it is, has no demand */
    gms_cke_waiting(&cs, 1, 3);
    CHECK(!gms_cke_gate(&cs, 2, GMEM, 4));     /* now it has: the others wait */
    CHECK(gms_cke_gate(&cs, 1, GMEM, 4));
    /* no priority: every kernel ties (the oldest goes) */
    gms_cke_params d = cke_params("dmil");
    gms_cke_sm_init(&cs, &d, 2, gms_cke_mi_at(d.mi_idx), NULL);
    CHECK_EQ(gms_cke_take_prio(&cs, 0), gms_cke_take_prio(&cs, 1));
}
