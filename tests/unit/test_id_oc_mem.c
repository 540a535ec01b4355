/* The memory instructions' way to the LSU without sub-cores (-gms_id_oc_mem, sm.c memq_init):
 * GPGPU-Sim's schedulers share one ID_OC_MEM set of -gpgpu_pipeline_widths' width and one
 * pool of collector units + OC_EX_MEM; `per-scheduler` gives each scheduler a slot and a pool
 * of its own. The memq's own rules are hand-worked in test_sm.c (memq_shared_id_oc_mem_set). */
#include "test.h"
#include "sim_test_util.h"
#include "frontend/emit.h"
#include "config/params.h"

#define SH_LOADS 6
#define ALUS 300

static uint32_t tail_warps;   /* bit w: warp w has the ALU work after its loads */

/* every warp: SH_LOADS shared-memory loads, 31 lanes on one bank and lane 31 on the next (the
 * LSU is held 31 cycles each, an odd number, so under the rotating issue order a freed slot
 * comes on alternate schedulers' turns), then, in the warps of tail_warps, ALUS independent
 * ALU instructions. A warp issues in order, so its ALU work starts only once its last load has
 * found room on the way to the LSU: the fewer the places in front of the LSU, the later. */
static int conflict_fill(void *self, uint64_t b, gms_block_trace *out, gms_error *err)
{
    (void)self; (void)b; (void)err;
    uint64_t a[32];
    for (uint32_t wi = 0; wi < out->nwarps; wi++) {
        gms_emit e;
        gms_emit_begin(&e, &out->warps[wi]);
        uint32_t pc = 0;
        for (int i = 0; i < SH_LOADS; i++, pc += 16) {
            for (int l = 0; l < 32; l++) a[l] = (uint64_t)l * 128u + (uint64_t)i * 4u + (l == 31 ? 4u : 0u);
            gms_emit_load(&e, pc, 0xffffffffu, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE);
        }
        for (int i = 0; (tail_warps >> wi & 1) && i < ALUS; i++, pc += 16)
            gms_emit_alu(&e, pc, 0xffffffffu, GMS_OP_INT, GMS_REG_NONE, GMS_REG_NONE, GMS_REG_NONE);
        gms_emit_exit(&e, pc, 0xffffffffu);
    }
    return 0;
}

static double run_cycles(simt_fill_fn fill, const char *const *opts, double insts)
{
    simt_run r;
    double c = simt_run1(&r, "conflicts", 64, fill, opts) ? -1 : simt_stat(&r, "gpu_tot_sim_cycle");
    if (c > 0) CHECK_EQ(simt_stat(&r, "gpu_tot_sim_insn"), insts);
    simt_free(&r);
    return c;
}

static double cycles_with(const char *nsched, const char *mode, const char *widths)
{
    const char *opts[] = { "gpgpu_num_sched_per_core", nsched, "gms_id_oc_mem", mode, "gpgpu_pipeline_widths", widths,
                           "gpgpu_operand_collector_num_units_mem", "2", NULL };
    tail_warps = 3;
    return run_cycles(conflict_fill, opts, 2.0 * 32 * (SH_LOADS + ALUS + 1));
}

/* one scheduler: its own slot is the whole set either way (width 1, 2 units + 1 OC_EX_MEM
 * past it), so both rules give the same run. Two schedulers (warp 0 on one, warp 1 on the
 * other): per-scheduler gives each 1 + 3 places in front of the LSU, the shared set 1 + 3 for
 * both, so the warps wait longer to reach their ALU work and the run takes longer; with the
 * shared set 3 wide (3.x order: ID_OC_MEM is the third of 7 widths) it is shorter again. */
TEST(id_oc_mem_shared_set_holds_fewer_in_front_of_the_lsu)
{
    double one_shared = cycles_with("1", "gpgpusim", "1,1,1,1,1,1,1");
    double one_per = cycles_with("1", "per-scheduler", "1,1,1,1,1,1,1");
    REQUIRE(one_shared > 0 && one_per > 0);
    CHECK_EQ(one_shared, one_per);
    double two_shared = cycles_with("2", "gpgpusim", "1,1,1,1,1,1,1");
    double two_per = cycles_with("2", "per-scheduler", "1,1,1,1,1,1,1");
    double two_wide = cycles_with("2", "gpgpusim", "1,1,3,1,1,1,1");
    double two_wide13 = cycles_with("2", "gpgpusim", "1,1,1,1,3,1,1,1,1,1,1,1,1");
    printf("    cycles: 1 sched %.0f / %.0f; 2 scheds shared %.0f, per-scheduler %.0f, ID_OC_MEM 3 wide %.0f / %.0f\n",
           one_shared, one_per, two_shared, two_per, two_wide, two_wide13);
    CHECK(two_shared > two_per);
    CHECK(two_wide < two_shared);
    CHECK_EQ(two_wide, two_wide13);   /* the same stage in 3.x's 7 and 4.x's 13 */
}

/* -gms_sched_issue_order fixed (GPGPU-Sim 3.x): scheduler 0 runs first every cycle, so it
 * takes the shared ID_OC_MEM slot whenever its warp has a load ready. The slot frees every 31
 * cycles (the LSU's conflict time): under rotate the warps take turns (w0 w1 w0 w1 ...: warp
 * 0's last load gets in at about cycle 190), under fixed warp 0's six loads all go first (its
 * last at about 35) and its ALU tail overlaps warp 1's loads: a shorter run. (With
 * per-scheduler slots the order changes only which of two loads issued in the same cycle is
 * the older.) */
TEST(sched_issue_order_fixed_gives_scheduler_0_the_shared_slot)
{
    double c[2][2];
    for (int shared = 0; shared < 2; shared++)
        for (int fixed = 0; fixed < 2; fixed++) {
            const char *opts[] = { "gpgpu_num_sched_per_core", "2", "gms_id_oc_mem", shared ? "gpgpusim" : "per-scheduler",
                                   "gms_sched_issue_order", fixed ? "fixed" : "rotate",
                                   "gpgpu_operand_collector_num_units_mem", "2", NULL };
            tail_warps = 1;
            c[shared][fixed] = run_cycles(conflict_fill, opts, 32.0 * (2 * (SH_LOADS + 1) + ALUS));
        }
    printf("    cycles: per-scheduler %.0f rotate / %.0f fixed; shared %.0f rotate / %.0f fixed\n", c[0][0], c[0][1],
           c[1][0], c[1][1]);
    REQUIRE(c[0][0] > 0 && c[1][0] > 0);
    CHECK(c[1][1] < c[1][0]);
    CHECK(c[1][1] + 100 < c[1][0]);   /* warp 0's tail starts some 150 cycles earlier */
}

static void finalize_error(const char *name, const char *val, const char *expect)
{
    gms_params *p = gms_params_new();
    gms_error err = {0};
    REQUIRE(gms_params_set(p, name, val, &err) == 0);
    CHECK(gms_params_finalize(p, &err) != 0);
    CHECK_CONTAINS(err.msg, expect);
    gms_params_free(p);
}

/* the shared set needs ID_OC_MEM and OC_EX_MEM from -gpgpu_pipeline_widths: 7, 11 or 13
 * widths, neither 0; with the sub-core model (each scheduler has its own) the list is not
 * read, as before */
TEST(id_oc_mem_widths_checked_when_used)
{
    finalize_error("gms_id_oc_mem", "shared", "-gms_id_oc_mem: 'shared' is not gpgpusim or per-scheduler");
    finalize_error("gms_sched_issue_order", "lrr", "-gms_sched_issue_order: 'lrr' is not rotate or fixed");
    finalize_error("gpgpu_operand_collector_num_in_ports_mem", "0", "-gpgpu_operand_collector_num_in_ports_mem: must be at least 1");
    /* set where nothing reads them: with sub-cores, or the port count with per-scheduler slots */
    const char *const unused[][6] = {
        { "gpgpu_sub_core_model", "1", "gms_id_oc_mem", "per-scheduler", "-gms_id_oc_mem is set, but it has no effect" },
        { "gpgpu_sub_core_model", "1", "gpgpu_operand_collector_num_in_ports_mem", "2",
          "-gpgpu_operand_collector_num_in_ports_mem is set, but it has no effect" },
        { "gms_id_oc_mem", "per-scheduler", "gpgpu_operand_collector_num_in_ports_mem", "2",
          "-gpgpu_operand_collector_num_in_ports_mem is set, but it has no effect" },
    };
    for (size_t i = 0; i < sizeof unused / sizeof unused[0]; i++) {
        gms_params *q = gms_params_new();
        gms_error e = {0};
        REQUIRE(gms_params_set(q, unused[i][0], unused[i][1], &e) == 0);
        REQUIRE(gms_params_set(q, unused[i][2], unused[i][3], &e) == 0);
        CHECK(gms_params_finalize(q, &e) != 0);
        CHECK_CONTAINS(e.msg, unused[i][4]);
        gms_params_free(q);
    }
    finalize_error("gpgpu_pipeline_widths", "1,1,1,1,1", "must list 7 (GPGPU-Sim 3.x), 11 or 13 (4.x) stage widths");
    finalize_error("gpgpu_pipeline_widths", "1,1,0,1,1,1,1", "gives ID_OC_MEM 0 and OC_EX_MEM 1");
    finalize_error("gpgpu_pipeline_widths", "1,1,1,1,1,1,1,1,1,0,1", "gives ID_OC_MEM 1 and OC_EX_MEM 0");
    finalize_error("gpgpu_pipeline_widths", "1,1,40,1,1,1,1", "at most 32 in all");
    /* the ALU collector's (-gms_alu_collector gpgpusim, the default without sub-cores) */
    finalize_error("gpgpu_pipeline_widths", "0,1,1,1,1,1,1", "gives ID_OC_SP 0: must be 1..32");
    finalize_error("gpgpu_pipeline_widths", "1,1,1,1,33,1,1", "gives OC_EX_SFU 33: must be 1..32");
    finalize_error("gpgpu_pipeline_widths", "1,1,1,1,1,1,0", "gives EX_WB 0: must be 1..255");
    finalize_error("gpgpu_pipeline_widths", "1,1,1,1,1,1,1,1,1,1,0,1,1", "gives EX_WB 0");
    finalize_error("gms_alu_collector", "3x", "'3x' is not gpgpusim or none");
    finalize_error("gpgpu_operand_collector_num_units_sp", "0", "-gpgpu_operand_collector_num_units_sp 0: with -gms_alu_collector gpgpusim it must be 1..64");
    finalize_error("gpgpu_operand_collector_num_out_ports_sfu", "33", "must be 1..32");
    finalize_error("gpgpu_num_sp_units", "65", "-gpgpu_num_sp_units 65: with -gms_alu_collector gpgpusim it must be 1..64");
    /* register banks (-gms_reg_banks gpgpusim, the default with the ALU collector) */
    finalize_error("gms_reg_banks", "ideal", "-gms_reg_banks: 'ideal' is not gpgpusim or none");
    finalize_error("gpgpu_num_reg_banks", "0", "-gpgpu_num_reg_banks 0: with -gms_reg_banks gpgpusim it must be 1..64");
    finalize_error("gpgpu_num_reg_banks", "65", "must be 1..64");
    finalize_error("gms_reg_banks_mem", "yes", "-gms_reg_banks_mem: 'yes' is not gpgpusim or none");
    finalize_error("gpgpu_operand_collector_num_units_mem", "65", "with -gms_reg_banks_mem gpgpusim it must be at most 64");
    {
        gms_params *q = gms_params_new();
        gms_error e = {0};
        REQUIRE(gms_params_set(q, "gms_reg_banks", "none", &e) == 0);
        REQUIRE(gms_params_set(q, "gms_reg_banks_mem", "none", &e) == 0);
        CHECK(gms_params_finalize(q, &e) != 0);   /* no banks: nothing for the memory units to share */
        CHECK_CONTAINS(e.msg, "-gms_reg_banks_mem is set, but it has no effect");
        REQUIRE(gms_params_set(q, "gms_reg_banks", "gpgpusim", &e) == 0);
        REQUIRE(gms_params_finalize(q, &e) == 0);
        gms_params_free(q);
    }
    {
        gms_params *q = gms_params_new();
        gms_error e = {0};
        REQUIRE(gms_params_set(q, "gms_alu_collector", "none", &e) == 0);
        REQUIRE(gms_params_set(q, "gms_reg_banks", "none", &e) == 0);
        CHECK(gms_params_finalize(q, &e) != 0);   /* no collector: no banks to model */
        CHECK_CONTAINS(e.msg, "-gms_reg_banks is set, but it has no effect");
        REQUIRE(gms_params_set(q, "gms_alu_collector", "gpgpusim", &e) == 0);
        REQUIRE(gms_params_set(q, "gpgpu_num_reg_banks", "16", &e) == 0);
        REQUIRE(gms_params_finalize(q, &e) == 0);
        CHECK(!q->core.regbanks);
        REQUIRE(gms_params_set(q, "gms_reg_banks", "gpgpusim", &e) == 0);
        REQUIRE(gms_params_finalize(q, &e) == 0);
        CHECK(q->core.regbanks);
        CHECK_EQ(q->core.num_reg_banks, 16u);
        gms_params_free(q);
    }
    gms_params *p = gms_params_new();
    gms_error err = {0};
    REQUIRE(gms_params_set(p, "gpgpu_pipeline_widths", "1,1,1,1,1", &err) == 0);
    REQUIRE(gms_params_set(p, "gms_id_oc_mem", "per-scheduler", &err) == 0);
    CHECK(gms_params_finalize(p, &err) != 0);   /* the ALU collector reads the SP and SFU widths */
    REQUIRE(gms_params_set(p, "gms_alu_collector", "none", &err) == 0);
    CHECK(gms_params_finalize(p, &err) == 0);   /* no one reads them */
    REQUIRE(gms_params_set(p, "gms_id_oc_mem", "gpgpusim", &err) == 0);
    REQUIRE(gms_params_set(p, "gpgpu_sub_core_model", "1", &err) == 0);
    CHECK(gms_params_finalize(p, &err) != 0);   /* -gms_alu_collector: no effect with sub-cores */
    REQUIRE(gms_params_set(p, "gms_alu_collector", "gpgpusim", &err) == 0);
    CHECK(gms_params_finalize(p, &err) == 0);
    CHECK(!p->core.id_oc_mem_shared);
    CHECK(!p->core.aluc);
    REQUIRE(gms_params_set(p, "gpgpu_sub_core_model", "0", &err) == 0);
    REQUIRE(gms_params_set(p, "gpgpu_pipeline_widths", "4,2,2,4,2,2,4", &err) == 0);
    REQUIRE(gms_params_finalize(p, &err) == 0);
    CHECK(p->core.id_oc_mem_shared);
    CHECK_EQ(p->core.idoc_mem_w, 2u);
    CHECK_EQ(p->core.ocex_mem_w, 2u);
    CHECK(p->core.aluc);
    CHECK_EQ(p->core.idoc_w[0], 4u);
    CHECK_EQ(p->core.idoc_w[1], 2u);
    CHECK_EQ(p->core.ocex_w[0], 4u);
    CHECK_EQ(p->core.ocex_w[1], 2u);
    /* 4.x's 13: ID_OC_SP 1st, ID_OC_SFU 4th, OC_EX_SP 6th, OC_EX_SFU 9th */
    REQUIRE(gms_params_set(p, "gpgpu_pipeline_widths", "3,9,9,5,1,6,9,9,7,1,9,9,9", &err) == 0);
    REQUIRE(gms_params_finalize(p, &err) == 0);
    CHECK_EQ(p->core.idoc_w[0], 3u);
    CHECK_EQ(p->core.idoc_w[1], 5u);
    CHECK_EQ(p->core.ocex_w[0], 6u);
    CHECK_EQ(p->core.ocex_w[1], 7u);
    gms_params_free(p);
}
