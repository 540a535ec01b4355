/* MDB inside a run: one block of 2 warps, each loading 1,500 distinct lines (one transaction
 * per load). With -gms_mdb_period 1000 the SM decides after its 1,000th, 2,000th and 3,000th
 * transaction: 3 decisions. One block is resident: warp level, N = 2 warps. No line is ever
 * reused, so every calculator has 0 hits; the L1D's reservation failures make L = 1 the best
 * (Adjusted_Hits(1) = -RF/8 * 0.5/8 > Adjusted_Hits(2) = -RF * 0.5/8) unless there were none,
 * in which case the tie goes to L = 2 = N (nothing bypasses). */
#include "test.h"
#include "sim_test_util.h"
#include "frontend/emit.h"

#define LOADS 1500

static int mfill(void *self, uint64_t b, gms_block_trace *out, gms_error *err)
{
    (void)self; (void)b; (void)err;
    uint64_t a[32];
    for (uint32_t wi = 0; wi < out->nwarps; wi++) {
        gms_emit e;
        gms_emit_begin(&e, &out->warps[wi]);
        uint32_t pc = 0;
        for (int i = 0; i < LOADS; i++, pc += 16) {
            uint64_t line = 0x100000 + ((uint64_t)wi * LOADS + (uint64_t)i) * 128;
            for (int l = 0; l < 32; l++) a[l] = line + 4u * (uint64_t)l;
            gms_emit_load(&e, pc, 0xffffffffu, GMS_MEM_LD_GLOBAL, 4, a, GMS_REG_NONE);
        }
        gms_emit_exit(&e, pc, 0xffffffffu);
    }
    return 0;
}

TEST(mdb_decides_every_period_at_warp_level)
{
    const char *opts[] = {"gpgpu_perfect_mem", "1", "gpgpu_cache:dl1", "N:32:128:4,L:L:m:N:X,A:4:8,4",
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
