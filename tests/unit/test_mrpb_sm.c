/* MRPB in the SM (-gms_mrpb 1, docs/mrpb.md): the bypass of a read the L1D refuses. One warp
 * loads lines A, B and C (one 128 B line each) without waiting, into an L1D of one set and one
 * way, allocate-on-miss, 4 MSHR entries: A reserves the only line, so B and C are refused for
 * want of a line (LINE_ALLOC) until A's fill. With MRPB's bypass they go around the L1D at
 * once, as long as a bypass slot is free; with the bypass off they wait and retry. With a
 * 1-entry MSHR the refusal is MSHR_ENTRY: -gms_mrpb_bypass line does not bypass it, any does. */
#include "test.h"
#include "sim_test_util.h"
#include "frontend/emit.h"

static int mfill(void *self, uint64_t b, gms_block_trace *out, gms_error *err)
{
    (void)self; (void)b; (void)err;
    gms_emit e;
    uint64_t a[32];
    gms_emit_begin(&e, &out->warps[0]);
    uint8_t r = gms_emit_alu(&e, 0, 0xffffffffu, GMS_OP_INT, GMS_REG_NONE, GMS_REG_NONE, GMS_REG_NONE);
    for (uint64_t k = 0; k < 3; k++) {
        for (int l = 0; l < 32; l++) a[l] = 0x10000 * (k + 1) + 4u * (uint64_t)l;
        gms_emit_load(&e, 0x10 * (k + 1), 0xffffffffu, GMS_MEM_LD_GLOBAL, 4, a, r);
    }
    gms_emit_exit(&e, 0x40, 0xffffffffu);
    return 0;
}

typedef struct mres { double bypassed, mrpb_bypassed, mrpb_reqs, rf, line_rf, entry_rf; } mres;

static int run(const char *dl1, const char *mrpb, const char *how, const char *slots, mres *o)
{
    const char *opts[] = {"gpgpu_perfect_mem", "1", "gpgpu_cache:dl1", dl1, "gms_mrpb", mrpb, "gms_mrpb_bypass", how,
                          "gms_l1d_bypass_slots", slots, NULL};
    simt_run r;
    int rc = simt_run1(&r, "mrpb", 32, mfill, opts);
    if (!rc) {
        o->bypassed = simt_stat(&r, "gms_bypassed_reads");
        o->mrpb_bypassed = simt_stat(&r, "gms_mrpb_bypassed");
        o->mrpb_reqs = simt_stat(&r, "gms_mrpb_requests");
        o->rf = simt_stat(&r, "L1D_total_cache_reservation_fails");
        o->line_rf = simt_stat(&r, "L1D_fail_breakdown[GLOBAL_ACC_R][LINE_ALLOC_FAIL]");
        o->entry_rf = simt_stat(&r, "L1D_fail_breakdown[GLOBAL_ACC_R][MSHR_ENRTY_FAIL]");
    }
    simt_free(&r);
    return rc;
}

#define ONE_WAY "N:1:128:1,L:L:m:N:L,A:4:8,8"
#define ONE_MSHR "N:32:128:4,L:L:m:N:L,A:1:8,8"

TEST(mrpb_bypasses_reads_refused_for_want_of_a_line)
{
    mres o;
    REQUIRE(!run(ONE_WAY, "0", "any", "0", &o));
    CHECK_EQ(o.bypassed, 0);
    CHECK_EQ(o.mrpb_reqs, -1);           /* no MRPB statistics when it is off */
    CHECK(o.line_rf >= 2);               /* B and C retried until lines were free */
    REQUIRE(!run(ONE_WAY, "1", "none", "0", &o));
    CHECK_EQ(o.mrpb_reqs, 3);            /* A, B, C went through the buffer */
    CHECK_EQ(o.bypassed, 0);
    CHECK(o.line_rf >= 2);
    REQUIRE(!run(ONE_WAY, "1", "line", "0", &o));
    CHECK_EQ(o.bypassed, 2);             /* B and C around the L1D */
    CHECK_EQ(o.mrpb_bypassed, 2);
    CHECK_EQ(o.rf, 2);                   /* each refused once */
    CHECK_EQ(o.line_rf, 2);
    /* one bypass slot: B takes it; C is refused until B's reply frees it, then bypasses or
     * (A's fill having freed the line) goes into the L1D */
    REQUIRE(!run(ONE_WAY, "1", "line", "1", &o));
    CHECK(o.bypassed >= 1);
    CHECK(o.rf > 2);
}

TEST(mrpb_bypass_line_ignores_a_full_mshr_and_any_does_not)
{
    mres o;
    REQUIRE(!run(ONE_MSHR, "1", "line", "0", &o));
    CHECK_EQ(o.bypassed, 0);             /* B and C wait for A's MSHR entry */
    CHECK(o.entry_rf >= 2);
    REQUIRE(!run(ONE_MSHR, "1", "any", "0", &o));
    CHECK_EQ(o.bypassed, 2);
    CHECK_EQ(o.entry_rf, 2);
}
