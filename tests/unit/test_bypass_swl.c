/* SWL (-gms_swl K): 8 warps of one block, each a chain of 20 dependent ALU instructions, a
 * barrier, and 20 more. K = 1 per scheduler lets only one warp of each scheduler issue, so the
 * run is longer than without a limit; warps waiting at the barrier give their place up (with
 * K = 1 the first warps would otherwise wait there for warps that may never issue). */
#include "test.h"
#include "sim_test_util.h"
#include "frontend/emit.h"

static int sfill(void *self, uint64_t b, gms_block_trace *out, gms_error *err)
{
    (void)self; (void)b; (void)err;
    for (uint32_t wi = 0; wi < out->nwarps; wi++) {
        gms_emit e;
        gms_emit_begin(&e, &out->warps[wi]);
        uint8_t r = GMS_REG_NONE;
        uint32_t pc = 0;
        for (int i = 0; i < 20; i++, pc += 16) r = gms_emit_alu(&e, pc, 0xffffffffu, GMS_OP_INT, r, GMS_REG_NONE, GMS_REG_NONE);
        gms_emit_bar(&e, pc);
        pc += 16;
        for (int i = 0; i < 20; i++, pc += 16) r = gms_emit_alu(&e, pc, 0xffffffffu, GMS_OP_INT, r, GMS_REG_NONE, GMS_REG_NONE);
        gms_emit_exit(&e, pc, 0xffffffffu);
    }
    return 0;
}

static int run(const char *k, double *cycles, double *insts)
{
    const char *opts[] = {"gpgpu_num_sched_per_core", "2", "gpgpu_perfect_mem", "1", "gms_watchdog_cycles", "20000",
                          "gms_swl", k, NULL};
    simt_run r;
    int rc = simt_run1(&r, "swl", 256, sfill, opts);
    if (!rc) {
        *cycles = simt_stat(&r, "gpu_tot_sim_cycle");
        *insts = simt_stat(&r, "gpgpu_n_tot_w_icount");
    }
    simt_free(&r);
    return rc;
}

TEST(swl_limits_issue_and_passes_barriers)
{
    double c0, i0, c1, i1, c4, i4;
    REQUIRE(!run("0", &c0, &i0));
    REQUIRE(!run("1", &c1, &i1));     /* finishes: barrier warps give their place up */
    REQUIRE(!run("4", &c4, &i4));     /* 4 per scheduler = all 8 warps: no limit */
    CHECK_EQ(i0, 8 * 42);
    CHECK_EQ(i1, i0);
    CHECK(c1 > c0);                   /* fewer warps interleave the dependent chains */
    CHECK_EQ(c4, c0);
}
