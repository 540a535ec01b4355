/* GPGPU-Sim 4.x's register banks in the sub-core operand collector (src/core/subcore_banks.c,
 * -gms_subcore_reg_banks gpgpusim): the arbiter hand-worked step by step, then whole runs on
 * one SM whose timings differ from the conflict-free ones by the steps computed by hand. */
#include "test.h"
#include "sim_test_util.h"
#include "core/subcore_banks.h"
#include "frontend/emit.h"
#include "config/params.h"
#include <string.h>

static void srcs(uint8_t s[GMS_MAX_SRC], int a, int b, int c, int d)
{
    s[0] = (uint8_t)a, s[1] = (uint8_t)b, s[2] = (uint8_t)c, s[3] = (uint8_t)d;
}
#define N GMS_REG_NONE

/* register_bank: (register + 1 + warp) modulo the 4 banks per scheduler, in the scheduler's
 * share of the 16; RZ (R255) is register 256 there */
TEST(scb_bank_is_register_plus_one_plus_warp_in_the_schedulers_share)
{
    static gms_scb b;
    gms_scb_init(&b, 16, 4);
    CHECK_EQ(b.per_sched, 4u);
    CHECK_EQ(gms_scb_bank(&b, 0, 0, 3), 0u);            /* R3 of warp 0: 4 % 4 */
    CHECK_EQ(gms_scb_bank(&b, 1, 2, 5), 4u + 0u);       /* 8 % 4 in scheduler 1's banks 4..7 */
    CHECK_EQ(gms_scb_bank(&b, 3, 1, 0), 12u + 2u);
    CHECK_EQ(gms_scb_bank(&b, 0, 0, N), 0u);            /* RZ: 256 % 4 */
    CHECK_EQ(gms_scb_bank(&b, 2, 3, N), 8u + 3u);
}

/* every bank with a queued read grants its front one each step (no one-read-per-unit limit,
 * 4.x): unit 0 reads R3, R7 (both bank 0) and R4 (bank 1); unit 1 R11 (bank 0), queued after.
 * Step 1: bank 0 gives R3 to unit 0, bank 1 R4 to unit 0; step 2: R7 (unit 0 done); step 3:
 * R11 (unit 1 done, FIFO behind unit 0's reads). Units left with reads after a step: 2, 1, 0. */
TEST(scb_front_read_of_every_bank_each_step_fifo_per_bank)
{
    static gms_scb b;
    gms_scb_init(&b, 16, 4);
    uint8_t s[GMS_MAX_SRC];
    srcs(s, 3, 7, 4, N);
    CHECK_EQ(gms_scb_queue(&b, 0, 0, 0, s, 0), 3u);
    srcs(s, 11, N, N, N);
    CHECK_EQ(gms_scb_queue(&b, 0, 1, 0, s, 0), 1u);
    uint8_t done[GMS_SCB_MAX_SCHED] = { 0 };
    gms_scb_reads(&b, 100, 1, done);
    CHECK_EQ(done[0], 0u);
    CHECK_EQ(b.wait_steps, 2u);
    gms_scb_reads(&b, 100, 0, done);
    CHECK_EQ(done[0], 1u);       /* unit 0 */
    CHECK_EQ(b.wait_steps, 3u);
    memset(done, 0, sizeof done);
    gms_scb_reads(&b, 101, 1, done);
    CHECK_EQ(done[0], 2u);       /* unit 1 */
    CHECK_EQ(b.wait_steps, 3u);
    CHECK_EQ(b.nonempty, 0u);
    CHECK_EQ(b.reading, 0u);
}

/* RZ reads: a flagged empty slot before the last register was RZ; with none, one RZ after
 * them; duplicates are separate reads */
TEST(scb_rz_and_duplicate_sources_are_reads)
{
    static gms_scb b;
    gms_scb_init(&b, 16, 4);
    uint8_t s[GMS_MAX_SRC];
    srcs(s, N, 5, N, N);
    CHECK_EQ(gms_scb_queue(&b, 0, 0, 0, s, 1), 2u);     /* RZ, R5 */
    srcs(s, 5, N, N, N);
    CHECK_EQ(gms_scb_queue(&b, 0, 1, 0, s, 1), 2u);     /* R5, RZ */
    srcs(s, N, N, N, N);
    CHECK_EQ(gms_scb_queue(&b, 1, 0, 0, s, 1), 1u);     /* RZ alone */
    srcs(s, 6, 6, N, N);
    CHECK_EQ(gms_scb_queue(&b, 1, 1, 0, s, 0), 2u);     /* R6 twice */
    srcs(s, N, N, N, N);
    CHECK_EQ(gms_scb_queue(&b, 2, 0, 0, s, 0), 0u);     /* nothing to read */
    CHECK_EQ(b.reading, 4u);
}

/* writes: an ALU result at cycle 12 (marked at 10) takes R3's bank (0); the cycle's first step
 * reads nothing from it, its second does. The LDST unit's write of R7 (bank 0) at 12 is
 * refused (retried at 13), of R4 (bank 1) taken; an ALU result's later destinations keep their
 * banks free once one is refused (writeback returns at the first taken bank); a write-back's
 * destinations written before a refusal are not written again. */
TEST(scb_writes_block_the_first_step_and_refuse_lsu_writes)
{
    static gms_scb b;
    gms_scb_init(&b, 16, 4);
    uint8_t dst[GMS_MAX_DST] = { 3, N };
    gms_scb_alu_write(&b, 10, 12, 0, 0, dst);
    uint8_t s[GMS_MAX_SRC];
    srcs(s, 7, N, N, N);
    gms_scb_queue(&b, 0, 0, 0, s, 0);
    uint8_t done[GMS_SCB_MAX_SCHED] = { 0 };
    gms_scb_reads(&b, 12, 1, done);
    CHECK_EQ(done[0], 0u);
    gms_scb_reads(&b, 12, 0, done);
    CHECK_EQ(done[0], 1u);
    uint8_t d7[GMS_MAX_DST] = { 7, N }, d4[GMS_MAX_DST] = { 4, N }, wr = 0;
    CHECK_EQ(gms_scb_lsu_write(&b, 12, 0, 0, d7, &wr), 0);
    CHECK_EQ(b.lsu_wb_conflicts, 1u);
    CHECK_EQ(wr, 0u);
    CHECK_EQ(gms_scb_lsu_write(&b, 13, 0, 0, d7, &wr), 1);   /* the next cycle: free */
    wr = 0;
    CHECK_EQ(gms_scb_lsu_write(&b, 12, 0, 0, d4, &wr), 1);
    uint8_t d_3_5[GMS_MAX_DST] = { 11, 5 };             /* banks 0 (taken at 12) and 2 */
    gms_scb_alu_write(&b, 11, 12, 0, 0, d_3_5);
    uint8_t d5[GMS_MAX_DST] = { 5, N };
    wr = 0;
    CHECK_EQ(gms_scb_lsu_write(&b, 12, 0, 0, d5, &wr), 1);   /* bank 2 was left free */
    /* a sub-core's writes never touch another's banks: scheduler 1's R3 is bank 4 */
    wr = 0;
    CHECK_EQ(gms_scb_lsu_write(&b, 12, 1, 0, dst, &wr), 1);
    /* two destinations on one bank (R6, R10: bank 3): the first written at 20, the second
     * refused then and written at 21 alone */
    uint8_t d_6_10[GMS_MAX_DST] = { 6, 10 };
    wr = 0;
    CHECK_EQ(gms_scb_lsu_write(&b, 20, 0, 0, d_6_10, &wr), 0);
    CHECK_EQ(wr, 1u);
    CHECK_EQ(gms_scb_lsu_write(&b, 21, 0, 0, d_6_10, &wr), 1);
    CHECK_EQ(wr, 3u);
}

/* ------------------------------------------------------------------ whole runs */

/* the program of the runs below (one warp, or two with two_warps); each variant is a list of
 * INT ops with explicit registers, then EXIT */
typedef struct { uint8_t op, dst, s0, s1, s2; } prog_op;
static const prog_op *g_ops;
static uint32_t g_nops;

static int fill_ops(void *self, uint64_t b, gms_block_trace *out, gms_error *err)
{
    (void)self, (void)b, (void)err;
    for (uint32_t w = 0; w < out->nwarps; w++) {
        gms_emit e;
        gms_emit_begin(&e, &out->warps[w]);
        for (uint32_t i = 0; i < g_nops; i++) {
            gms_inst *in = gms_emit_put(&e, i * 16, 0xffffffffu, g_ops[i].op);
            in->dst[0] = g_ops[i].dst;
            in->src[0] = g_ops[i].s0, in->src[1] = g_ops[i].s1, in->src[2] = g_ops[i].s2;
        }
        gms_emit_exit(&e, 0x1000, 0xffffffffu);
    }
    return 0;
}

/* cycles of the program on one SM: sub-cores, 8 generic units, `banks` register banks per
 * `sched` schedulers, an INT and an SP unit per scheduler (INT ops on a pipe of their own),
 * both latency 4 interval 1, perfect memory, no front end, one instruction per warp a cycle,
 * `steps` collector steps a cycle; *waits: the bank-wait statistic */
static double run_ops(const prog_op *ops, uint32_t n, uint32_t threads, const char *sched, const char *banks,
                      const char *steps, const char *mode, double *waits)
{
    g_ops = ops;
    g_nops = n;
    const char *opts[] = { "gpgpu_clock_domains", "1000:1000:1000:1000", "gpgpu_perfect_mem", "1",
                           "gpgpu_sub_core_model", "1", "gpgpu_operand_collector_num_units_gen", "8",
                           "gpgpu_operand_collector_num_in_ports_gen", "8", "gms_inst_fetch", "none",
                           "gpgpu_max_insn_issue_per_warp", "1", "trace_opcode_latency_initiation_int", "4,1",
                           "trace_opcode_latency_initiation_sp", "4,1", "gpgpu_num_sched_per_core", sched,
                           "gpgpu_num_int_units", sched,
                           "gpgpu_num_reg_banks", banks, "gpgpu_reg_file_port_throughput", steps,
                           "gms_subcore_reg_banks", mode, NULL };
    simt_run r;
    double cyc = -1;
    if (!simt_run1(&r, "scb", threads, fill_ops, opts)) {
        cyc = simt_stat(&r, "gpu_tot_sim_cycle");
        if (waits) *waits = simt_stat(&r, "gms_subcore_bank_wait_steps");
    }
    simt_free(&r);
    return cyc;
}

/* A dependent chain of 10 INT ops (each writes R3 and reads R3 and two registers never
 * written), one warp (slot 0), 4 banks (one scheduler): bank = (register + 1) % 4. With the
 * sources R3, R7, R11 (all bank 0) a unit's three reads take three steps, with R3, R4, R5
 * (banks 0, 1, 2) one: 2 steps more per op. With one collector step a cycle that is 2
 * cycles an op, 20 for the chain (each op waits for the last one's write-back); with two
 * steps a cycle 1 cycle an op, 10. The write-back of R3 (bank 0) comes before the next op's
 * issue, so it never blocks a read here. The units wait 2 steps an op: 20 unit-steps. */
TEST(subcore_banks_dependent_chain_sources_on_one_bank)
{
    prog_op same[10], spread[10];
    for (int i = 0; i < 10; i++) {
        same[i] = (prog_op){ GMS_OP_INT, 3, 3, 7, 11 };
        spread[i] = (prog_op){ GMS_OP_INT, 3, 3, 4, 5 };
    }
    double w1 = -1, w2 = -1;
    double s1 = run_ops(same, 10, 32, "1", "4", "1", "gpgpusim", &w1), d1 = run_ops(spread, 10, 32, "1", "4", "1", "gpgpusim", &w2);
    CHECK(s1 > 0 && d1 > 0);
    CHECK_EQ((long long)(s1 - d1), 20);
    CHECK_EQ((long long)w1, 20);
    CHECK_EQ((long long)w2, 0);
    double s2 = run_ops(same, 10, 32, "1", "4", "2", "gpgpusim", NULL), d2 = run_ops(spread, 10, 32, "1", "4", "2", "gpgpusim", NULL);
    CHECK(s2 > 0 && d2 > 0);
    CHECK_EQ((long long)(s2 - d2), 10);
    /* without the banks the registers do not matter */
    double n1 = run_ops(same, 10, 32, "1", "4", "1", "none", NULL), n2 = run_ops(spread, 10, 32, "1", "4", "1", "none", NULL);
    CHECK_EQ(n1, n2);
    CHECK_EQ(n1, d1);
}

/* A write-back blocks the first step's read of its bank. One collector step a cycle: an op
 * issued at t gets a unit at t + 1, reads at t + 2, dispatches at t + 3, the function unit
 * takes it at t + 4 and it is written back at t + 4 + 2 + 4 = t + 10. Op A (issued at T,
 * reading R2) writes R3 (bank 0) at T + 10; seven independent ops without sources (writing
 * R0, R4, ..., R24: bank 1) issue at T + 1 .. T + 7, op B at T + 8, reading R7 (bank 0) in the
 * step of T + 10: refused, read at T + 11, so B (an SP op) is written back a cycle later than
 * when it reads R5 (bank 2), and op C reading B's result issues a cycle later. */
TEST(subcore_banks_write_back_blocks_the_first_steps_read)
{
    prog_op ops[10];
    ops[0] = (prog_op){ GMS_OP_INT, 3, 2, N, N };
    for (int i = 1; i <= 7; i++) ops[i] = (prog_op){ GMS_OP_INT, (uint8_t)(4 * (i - 1)), N, N, N };
    ops[8] = (prog_op){ GMS_OP_SP, 9, 7, N, N };
    ops[9] = (prog_op){ GMS_OP_INT, 10, 9, N, N };
    double blocked = run_ops(ops, 10, 32, "1", "4", "1", "gpgpusim", NULL);
    ops[8].s0 = 5;
    double free_ = run_ops(ops, 10, 32, "1", "4", "1", "gpgpusim", NULL);
    double none = run_ops(ops, 10, 32, "1", "4", "1", "none", NULL);
    CHECK(blocked > 0 && free_ > 0 && none > 0);
    CHECK_EQ((long long)(blocked - free_), 1);
    CHECK_EQ(none, free_);
}

/* Two units of one sub-core on one bank, in FIFO order: X (issued at t) reads R3 and R7 (bank
 * 0), Y (issued at t + 1, an SP op) reads R11 (bank 0). X's reads are queued at t + 1, granted
 * at t + 2 and t + 3; Y's is queued at t + 2 behind X's second and granted at t + 4 (on a bank
 * of its own, R4: t + 3): Y is written back a cycle later, and so the op Z reading its result
 * (the run's end follows Z's issue, not the last write-back of an op the EXIT does not wait
 * for) issues a cycle later. */
TEST(subcore_banks_two_units_one_bank_fifo)
{
    prog_op ops[3] = { { GMS_OP_INT, 8, 3, 7, N }, { GMS_OP_SP, 9, 11, N, N }, { GMS_OP_INT, 10, 9, N, N } };
    double shared = run_ops(ops, 3, 32, "1", "4", "1", "gpgpusim", NULL);
    ops[1].s0 = 4;
    double own = run_ops(ops, 3, 32, "1", "4", "1", "gpgpusim", NULL);
    CHECK(shared > 0 && own > 0);
    CHECK_EQ((long long)(shared - own), 1);
}

/* Sub-cores never contend: two warps on two schedulers (8 banks, 4 each) running the chain of
 * the first test take as long as one warp alone, with twice its bank waits (each warp's own),
 * while the chain is slower than without banks */
TEST(subcore_banks_schedulers_never_contend)
{
    prog_op same[10];
    for (int i = 0; i < 10; i++) same[i] = (prog_op){ GMS_OP_INT, 3, 3, 7, 11 };
    double w1 = -1, w2 = -1;
    double one = run_ops(same, 10, 32, "2", "8", "1", "gpgpusim", &w1);
    double two = run_ops(same, 10, 64, "2", "8", "1", "gpgpusim", &w2);
    double none = run_ops(same, 10, 32, "2", "8", "1", "none", NULL);
    CHECK(one > 0 && two > 0 && none > 0);
    CHECK_EQ(one, two);
    CHECK_EQ((long long)w1, 20);
    CHECK_EQ((long long)w2, 40);
    CHECK_EQ((long long)(one - none), 20);
}

/* the banks must divide among the schedulers (GPGPU-Sim asserts it) */
TEST(subcore_banks_must_divide_among_schedulers)
{
    prog_op op = { GMS_OP_INT, 3, 3, N, N };
    CHECK_EQ(run_ops(&op, 1, 32, "4", "6", "1", "gpgpusim", NULL), -1);
    CHECK(run_ops(&op, 1, 32, "4", "6", "1", "none", NULL) > 0);
}

/* -gpgpu_num_reg_banks is modelled on the sub-core pipeline with the banks on (not named as
 * partly modelled), and named with -gms_subcore_reg_banks none */
TEST(subcore_banks_num_reg_banks_modelled_only_with_the_banks)
{
    static const char *const modes[2] = { "gpgpusim", "none" };
    for (int i = 0; i < 2; i++) {
        gms_params *p = gms_params_new();
        gms_error err = {0};
        const char *names[16];
        int bad = gms_params_set(p, "gpgpu_sub_core_model", "1", &err);
        bad |= gms_params_set(p, "gpgpu_num_sched_per_core", "4", &err);
        bad |= gms_params_set(p, "gpgpu_operand_collector_num_units_gen", "8", &err);
        bad |= gms_params_set(p, "gpgpu_num_reg_banks", "16", &err);
        bad |= gms_params_set(p, "gms_subcore_reg_banks", modes[i], &err);
        REQUIRE(!bad && gms_params_finalize(p, &err) == 0);
        uint32_t n = gms_params_unmodelled(p, names, 16), named = 0;
        for (uint32_t k = 0; k < n && k < 16; k++) named += !strcmp(names[k], "gpgpu_num_reg_banks");
        CHECK_EQ(named, (uint32_t)i);
        gms_params_free(p);
    }
}
