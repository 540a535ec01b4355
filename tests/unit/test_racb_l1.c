/* RACB at the L1D (-gms_racb 1, docs/cart.md): one warp loads line A, then line B without
 * waiting; the L1D has one MSHR entry, so B's miss is refused (entry full). With RACB it takes
 * the bypass path at once (one bypassed read); without, it waits for A's fill and retries. */
#include "test.h"
#include "sim_test_util.h"

/* the two-load warp on L1D dl1: bypassed reads and the L1D's fails of one cause */
static int run_cfg(const char *dl1, const char *racb, const char *cause_stat, double *bypassed, double *fails)
{
    const char *opts[] = {"gpgpu_perfect_mem", "1", "gpgpu_cache:dl1", dl1, "gms_racb", racb, NULL};
    simt_run r;
    int rc = simt_run1(&r, "racb", 32, simt_fill_two_loads, opts);
    if (!rc) {
        *bypassed = simt_stat(&r, "gms_bypassed_reads");
        *fails = simt_stat(&r, cause_stat);
    }
    simt_free(&r);
    return rc;
}

/* bypassed reads and L1D reservation fails of the two-load warp, one MSHR entry */
static int run(const char *racb, double *bypassed, double *l1rf)
{
    return run_cfg("N:32:128:4,L:L:m:N:L,A:1:8,8", racb, "L1D_total_cache_reservation_fails", bypassed, l1rf);
}

TEST(l1d_fails_per_attempt_and_per_request)
{
    /* without RACB B is refused on every attempt until A's entry is freed: each attempt is a
     * reservation fail (GPGPU-Sim's count), but one request (gms_L1D_rf_requests) */
    const char *opts[] = {"gpgpu_perfect_mem", "1", "gpgpu_cache:dl1", "N:32:128:4,L:L:m:N:L,A:1:8,8", NULL};
    simt_run r;
    REQUIRE(!simt_run1(&r, "rfreq", 32, simt_fill_two_loads, opts));
    double rf = simt_stat(&r, "L1D_total_cache_reservation_fails"), req = simt_stat(&r, "gms_L1D_rf_requests");
    CHECK(rf > 1);
    CHECK_EQ(req, 1);
    CHECK_EQ(simt_stat(&r, "gms_L2_rf_requests"), -1);   /* perfect memory: no L2 */
    simt_free(&r);
}

TEST(racb_l1d_bypasses_a_refused_read)
{
    double by, rf;
    REQUIRE(!run("0", &by, &rf));
    CHECK_EQ(by, 0);
    CHECK(rf >= 1);                      /* B retried until A's entry was freed */
    REQUIRE(!run("1", &by, &rf));
    CHECK_EQ(by, 1);                     /* B went around the L1D */
    CHECK_EQ(rf, 1);                     /* its one refused attempt */
}

TEST(racb_l1d_bypasses_a_line_allocation_fail)
{
    double by, rf;
    /* one way per set: A's miss reserves the only line of set 0, and B (same set) finds no
     * line to allocate (LINE_ALLOC_FAIL); RACB sends B around at its first refusal */
    const char *one_way = "N:32:128:1,L:L:m:N:L,A:8:8,8";
    const char *line = "L1D_fail_breakdown[GLOBAL_ACC_R][LINE_ALLOC_FAIL]";
    REQUIRE(!run_cfg(one_way, "0", line, &by, &rf));
    CHECK_EQ(by, 0);
    CHECK(rf >= 1);
    REQUIRE(!run_cfg(one_way, "1", line, &by, &rf));
    CHECK_EQ(by, 1);
    CHECK_EQ(rf, 1);
}
