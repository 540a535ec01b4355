/* MDB inside a run: one block of 2 warps, each loading 1,500 distinct lines (one transaction
 * per load). With -gms_mdb_period 1000 the SM decides after its 1,000th, 2,000th and 3,000th
 * transaction: 3 decisions. One block is resident: warp level, N = 2 warps. No line is ever
 * reused, so every calculator has 0 hits; the L1D's reservation failures make L = 1 the best
 * (Adjusted_Hits(1) = -RF/8 * 0.5/8 > Adjusted_Hits(2) = -RF * 0.5/8) unless there were none,
 * in which case the tie goes to L = 2 = N (nothing bypasses). The runs' counts are worked out
 * with every warp's next instruction always there to issue (-gms_inst_fetch none). */
#include "test.h"
#include "sim_test_util.h"
#include "frontend/emit.h"

#define LOADS 1500

static int mfill(void *self, uint64_t b, gms_block_trace *out, gms_error *err)
{
    (void)self; (void)err;
    uint64_t a[32];
    for (uint32_t wi = 0; wi < out->nwarps; wi++) {
        gms_emit e;
        gms_emit_begin(&e, &out->warps[wi]);
        uint32_t pc = 0;
        for (int i = 0; i < LOADS; i++, pc += 16) {
            uint64_t line = 0x100000 + (((uint64_t)b * out->nwarps + wi) * LOADS + (uint64_t)i) * 128;
            for (int l = 0; l < 32; l++) a[l] = line + 4u * (uint64_t)l;
            gms_emit_load(&e, pc, 0xffffffffu, GMS_MEM_LD_GLOBAL, 4, a, GMS_REG_NONE);
        }
        gms_emit_exit(&e, pc, 0xffffffffu);
    }
    return 0;
}

TEST(mdb_decides_every_period_at_warp_level)
{
    const char *opts[] = {"gms_inst_fetch", "none", "gpgpu_perfect_mem", "1", "gpgpu_cache:dl1", "N:32:128:4,L:L:m:N:X,A:4:8,4",
                          "gms_l1d_bypass", "mdb-local", NULL};
    simt_run r;
    int rc = simt_run1(&r, "mdb", 64, mfill, opts);
    if (!rc) {
        double rf = simt_stat(&r, "L1D_total_cache_reservation_fails");
        CHECK_EQ(simt_stat(&r, "gms_mdb_decisions"), 3);
        CHECK_EQ(simt_stat(&r, "gms_mdb_series[sm0][0]_N"), 2);
        if (rf > 0) {   /* 4 MSHRs for 64 outstanding lines: it fails */
            CHECK_EQ(simt_stat(&r, "gms_mdb_series[sm0][0]_L"), 1);
            CHECK(simt_stat(&r, "gms_bpr_reads") > 0);   /* warp 1 bypassed after the first decision */
        }
        CHECK(rf > 0);
    }
    simt_free(&r);
    REQUIRE(rc == 0);
}

/* MDB-global where the SMs' residency differs: three blocks of 4 warps on two SMs, so SM 0
 * holds blocks 0 and 2 (block level, its own reading) and the monitored SM 1 holds block 1
 * alone (warp level, N = 4). SM 1's generator sees no reuse and reservation failures, so it
 * picks L = 1: warps 1-3 of its block bypass. Read at SM 0's own level, L = 1 means block
 * slot 1 bypasses: 4 of its 8 warps. Read at the monitor's level (-gms_mdb_global_level
 * monitor), it means warps 1-3 of each block: 6 of 8. With 4 MSHRs the first decision comes
 * while the first loads are still failing and retrying (each retry asks again), so at the
 * monitor's level every load of those 9 warps bypasses: 9 x 1,500 = 13,500. At SM 0's own
 * level the monitor's 3 warps (4,500 loads) and fewer of SM 0's. */
static double global_bypassed(const char *level, double *decisions, double *l0)
{
    const char *opts[] = {"gms_inst_fetch", "none", "gpgpu_perfect_mem", "1", "gpgpu_cache:dl1", "N:32:128:4,L:L:m:N:X,A:4:8,4",
                          "gpgpu_n_clusters", "2", "gms_l1d_bypass", "mdb-global", "gms_mdb_monitor", "1",
                          "gms_mdb_global_level", level, NULL};
    simt_run r;
    int rc = simt_run_grid(&r, "mdbg", 3, 128, mfill, opts);
    double v = rc ? -1 : simt_stat(&r, "gms_bpr_reads");
    *decisions = rc ? -1 : simt_stat(&r, "gms_mdb_decisions");
    *l0 = rc ? -1 : simt_stat(&r, "gms_mdb_series[sm1][0]_L");
    if (!rc) CHECK_EQ(simt_stat(&r, "gms_mdb_series[sm1][0]_N"), 4);   /* warp level on the monitor */
    simt_free(&r);
    return v;
}

TEST(mdb_global_level_own_or_monitor)
{
    double d_own, d_mon, l_own, l_mon;
    double own = global_bypassed("own", &d_own, &l_own), mon = global_bypassed("monitor", &d_mon, &l_mon);
    REQUIRE(own > 0 && mon > 0);
    CHECK_EQ(l_own, 1);
    CHECK_EQ(l_mon, 1);
    CHECK_EQ(d_own, 6);   /* 4 warps x 1,500 transactions on the monitor: a decision per 1,000 */
    CHECK_EQ(d_mon, 6);
    /* the monitor bypasses 3 warps either way; SM 0 bypasses 4 warps (own) or 6 (monitor) */
    CHECK_EQ(mon, 9 * LOADS);
    CHECK(own >= 3 * LOADS);
    CHECK(own < 7 * LOADS);
}

TEST(mdb_global_level_needs_mdb_global)
{
    const char *opts[] = {"gms_l1d_bypass", "mdb-local", "gms_mdb_global_level", "monitor", NULL};
    simt_run r;
    CHECK_EQ(simt_run1(&r, "x", 32, mfill, opts), -1);
    simt_free(&r);
    const char *bad[] = {"gms_l1d_bypass", "mdb-global", "gms_mdb_global_level", "warp", NULL};
    CHECK_EQ(simt_run1(&r, "x", 32, mfill, bad), -1);
    simt_free(&r);
}

/* -gms_mdb_level: two blocks of 4 warps on one SM. The spec's reading counts block slots
 * (N = 2 resident blocks); the repo's counts the SM's warp slots (N = 8, slots 0-7), and with
 * no reuse and reservation failures keeps one warp in the L1D: L = 1, slots 1-7 bypass. */
static int level_run(const char *level, double *n0, double *l0, double *bypassed)
{
    const char *opts[] = {"gms_inst_fetch", "none", "gpgpu_perfect_mem", "1", "gpgpu_cache:dl1", "N:32:128:4,L:L:m:N:X,A:4:8,4",
                          "gpgpu_n_clusters", "1", "gms_l1d_bypass", "mdb-local", "gms_mdb_level", level, NULL};
    simt_run r;
    int rc = simt_run_grid(&r, "mdbl", 2, 128, mfill, opts);
    *n0 = rc ? -1 : simt_stat(&r, "gms_mdb_series[sm0][0]_N");
    *l0 = rc ? -1 : simt_stat(&r, "gms_mdb_series[sm0][0]_L");
    *bypassed = rc ? -1 : simt_stat(&r, "gms_bpr_reads");
    simt_free(&r);
    return rc;
}

TEST(mdb_level_block_or_sm_warp)
{
    double n, l, b;
    REQUIRE(level_run("block-or-warp", &n, &l, &b) == 0);
    CHECK_EQ(n, 2);
    CHECK_EQ(l, 1);   /* block slot 1 bypasses */
    REQUIRE(level_run("sm-warp", &n, &l, &b) == 0);
    CHECK_EQ(n, 8);
    CHECK_EQ(l, 1);
    /* after the first decision (1,000 transactions of 12,000) warps 1-7 bypass */
    CHECK(b > 7 * LOADS - 1000);
    CHECK(b <= 7 * LOADS);
    simt_run r;
    const char *bad[] = {"gms_l1d_bypass", "mdb-local", "gms_mdb_level", "warp", NULL};
    CHECK_EQ(simt_run1(&r, "x", 32, mfill, bad), -1);
    simt_free(&r);
    /* -gms_mdb_global_level means nothing at SM warp level: refused, not ignored */
    const char *moot[] = {"gms_l1d_bypass", "mdb-global", "gms_mdb_level", "sm-warp", "gms_mdb_global_level", "monitor", NULL};
    CHECK_EQ(simt_run1(&r, "x", 32, mfill, moot), -1);
    simt_free(&r);
}

/* -gms_mdb_kernel_start: the kernel above launched twice in a row on one SM (MDB-local, the
 * start-up state l1d). The first kernel decides L = 1 at its first decision, which comes while
 * warp 1's first load still retries (warp 0's loads hold the 4 MSHRs): warp 1 bypasses all
 * 1,500 loads. With keep, the second kernel starts with L = 1 in force: its warp 1 bypasses
 * every load, 1,500 more. With restart the second kernel starts undecided: warp 1's first loads
 * use the L1D until the kernel's own first decision (the L1D holds the first kernel's lines,
 * so the two warps interleave differently and some of warp 1's loads get in first). */
static double kernels_bypassed(int kernels, const char *start, double *decisions)
{
    const char *opts[] = {"gms_inst_fetch", "none", "gpgpu_perfect_mem", "1", "gpgpu_cache:dl1", "N:32:128:4,L:L:m:N:X,A:4:8,4",
                          "gms_l1d_bypass", "mdb-local", "gms_mdb_kernel_start", start, NULL};
    simt_run r;
    int rc = simt_run_kernels(&r, "mdbk", kernels, 1, 64, mfill, opts);
    double v = rc ? -1 : simt_stat(&r, "gms_bpr_reads");
    *decisions = rc ? -1 : simt_stat(&r, "gms_mdb_decisions");
    simt_free(&r);
    return v;
}

TEST(mdb_kernel_start_keep_or_restart)
{
    double d1, dk, dr;
    double one = kernels_bypassed(1, "keep", &d1);
    double keep = kernels_bypassed(2, "keep", &dk), restart = kernels_bypassed(2, "restart", &dr);
    REQUIRE(one > 0 && keep > 0 && restart > 0);
    CHECK_EQ(d1, 3);
    CHECK_EQ(dk, 6);
    CHECK_EQ(dr, 6);
    CHECK_EQ(one, LOADS);
    CHECK_EQ(keep - one, LOADS);        /* the second kernel's warp 1 bypassed every load */
    CHECK(restart - one < LOADS);       /* ... or only after the kernel's own first decision */
    CHECK(restart - one > 0);
    simt_run r;
    const char *bad[] = {"gms_l1d_bypass", "mdb-local", "gms_mdb_kernel_start", "reset", NULL};
    CHECK_EQ(simt_run1(&r, "x", 32, mfill, bad), -1);
    simt_free(&r);
    const char *moot[] = {"gms_l1d_bypass", "pdp", "gms_mdb_kernel_start", "restart", NULL};
    CHECK_EQ(simt_run1(&r, "x", 32, mfill, moot), -1);
    simt_free(&r);
    /* set with no bypass policy at all: named as the generators' option, not PDP's */
    gms_error err = {0};
    gms_params *p = gms_params_new();
    REQUIRE(gms_params_set(p, "gms_mdb_kernel_start", "restart", &err) == 0);
    CHECK(gms_params_finalize(p, &err) != 0);
    CHECK_CONTAINS(err.msg, "-gms_mdb_kernel_start");
    CHECK_CONTAINS(err.msg, "mdb-local or mdb-global (pdp uses only");
    gms_params_free(p);
}
