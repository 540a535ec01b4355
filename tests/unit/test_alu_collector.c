/* GPGPU-Sim 3.x's ALU operand collector without sub-cores (src/core/alu_collector.c,
 * -gms_alu_collector gpgpusim): the collector's timing hand-worked cycle by cycle, then whole
 * runs whose dependent chains take latency + 5 + sources cycles per instruction. */
#include "test.h"
#include "sim_test_util.h"
#include "core/alu_collector.h"
#include "core/memq.h"
#include "frontend/emit.h"
#include <math.h>
#include <string.h>

typedef struct { uint32_t n; uint16_t warp[16]; uint64_t at[16], wb[16]; uint64_t now; } issued_log;

static void log_issued(void *ctx, const gms_aluc_ent *e, uint64_t wb)
{
    issued_log *l = ctx;
    if (l->n < 16) { l->warp[l->n] = e->warp; l->at[l->n] = l->now; l->wb[l->n] = wb; }
    l->n++;
}

static void run_to(gms_aluc *a, issued_log *l, uint64_t from, uint64_t to)
{
    for (uint64_t c = from; c <= to; c++) { l->now = c; gms_aluc_cycle(a, c, log_issued, l); }
}

static gms_inst alu(uint8_t op, int nsrc)
{
    gms_inst in;
    memset(&in, 0, sizeof in);
    in.op = op;
    for (int i = 0; i < GMS_MAX_SRC; i++) in.src[i] = i < nsrc ? (uint8_t)(10 + i) : GMS_REG_NONE;
    in.dst[0] = 20;
    for (int i = 1; i < GMS_MAX_DST; i++) in.dst[i] = GMS_REG_NONE;
    return in;
}

static void shape1(gms_aluc *a, uint32_t w_id, uint32_t ncu, uint32_t nfu)
{
    gms_aluc_shape s[GMS_ALUC_PIPES] = { { w_id, 1, ncu, 1, 1, nfu }, { 1, 1, 1, 1, 1, 1 } };
    gms_aluc_init(a, s, 8);
}

/* issued at 10 with 2 sources: allocated to a unit at 11 (the collector steps after issue's
 * cycle), operands read at 12 and 13, dispatched to OC_EX_SP at 14, taken by the SP unit at 15
 * (the units run before the collector), written back at 15 + 4 + 2 = 21 = 10 + 4 + 5 + 2 */
TEST(aluc_two_sources_written_back_latency_plus_7_after_issue)
{
    static gms_aluc a;
    issued_log l = { 0 };
    shape1(&a, 1, 2, 1);
    CHECK(gms_aluc_idoc_free(&a, GMS_ALUC_SP));
    gms_inst in = alu(GMS_OP_SP, 2);
    gms_aluc_push(&a, GMS_ALUC_SP, 3, &in, 4, 1);
    CHECK(!gms_aluc_idoc_free(&a, GMS_ALUC_SP));   /* ID_OC_SP is 1 wide */
    CHECK(gms_aluc_idoc_free(&a, GMS_ALUC_SFU));
    run_to(&a, &l, 11, 11);
    CHECK(gms_aluc_idoc_free(&a, GMS_ALUC_SP));    /* it went to a unit */
    run_to(&a, &l, 12, 14);
    CHECK_EQ(l.n, 0u);
    CHECK_EQ(a.p[GMS_ALUC_SP].n_ex, 1u);
    run_to(&a, &l, 15, 30);
    REQUIRE(l.n == 1);
    CHECK_EQ(l.warp[0], 3);
    CHECK_EQ(l.at[0], 15u);
    CHECK_EQ(l.wb[0], 21u);
    CHECK_EQ(a.pending, 0u);
}

/* no sources: allocated at 11, dispatched at 12, taken at 13 */
TEST(aluc_no_source_dispatches_the_step_after_allocation)
{
    static gms_aluc a;
    issued_log l = { 0 };
    shape1(&a, 1, 1, 1);
    gms_inst in = alu(GMS_OP_SP, 0);
    gms_aluc_push(&a, GMS_ALUC_SP, 0, &in, 4, 1);
    run_to(&a, &l, 11, 20);
    REQUIRE(l.n == 1);
    CHECK_EQ(l.at[0], 13u);
    CHECK_EQ(l.wb[0], 19u);
}

/* one SFU unit with initiation interval 4: its dispatch register holds each instruction 4
 * cycles, so three independent ones (one collector unit each, one dispatch a cycle) are
 * taken at 13, 17, 21; the oldest first */
TEST(aluc_function_unit_holds_its_dispatch_register_the_initiation_interval)
{
    static gms_aluc a;
    issued_log l = { 0 };
    gms_aluc_shape s[GMS_ALUC_PIPES] = { { 1, 1, 1, 1, 1, 1 }, { 3, 1, 4, 3, 1, 1 } };
    gms_aluc_init(&a, s, 8);
    gms_inst in = alu(GMS_OP_SFU, 0);
    REQUIRE(gms_aluc_pipe_of(GMS_OP_SFU) == GMS_ALUC_SFU);
    CHECK_EQ(gms_aluc_pipe_of(GMS_OP_DP), GMS_ALUC_SP);   /* 3.x: no DP pipe */
    for (uint16_t w = 0; w < 3; w++) gms_aluc_push(&a, GMS_ALUC_SFU, w, &in, 20, 4);
    CHECK(!gms_aluc_idoc_free(&a, GMS_ALUC_SFU));
    run_to(&a, &l, 11, 40);
    REQUIRE(l.n == 3);
    CHECK_EQ(l.warp[0], 0); CHECK_EQ(l.at[0], 13u); CHECK_EQ(l.wb[0], 35u);
    CHECK_EQ(l.warp[1], 1); CHECK_EQ(l.at[1], 17u);
    CHECK_EQ(l.warp[2], 2); CHECK_EQ(l.at[2], 21u);
}

/* one collector unit, one input port: the oldest instruction in ID_OC goes first, the next
 * only when the unit has dispatched (the step that frees it allocates it again) */
TEST(aluc_oldest_first_and_one_unit_serialises_collection)
{
    static gms_aluc a;
    issued_log l = { 0 };
    shape1(&a, 2, 1, 2);
    gms_inst two = alu(GMS_OP_SP, 2), one = alu(GMS_OP_SP, 1);
    gms_aluc_push(&a, GMS_ALUC_SP, 7, &two, 4, 1);
    gms_aluc_push(&a, GMS_ALUC_SP, 8, &one, 4, 1);
    run_to(&a, &l, 11, 30);
    REQUIRE(l.n == 2);
    /* warp 7: unit at 11, ready 14, dispatched 14, taken 15; warp 8: unit at 14 (after the
     * dispatch), read at 15, dispatched 16, taken 17 */
    CHECK_EQ(l.warp[0], 7); CHECK_EQ(l.at[0], 15u);
    CHECK_EQ(l.warp[1], 8); CHECK_EQ(l.at[1], 17u);
}

/* the result buses (EX_WB width): two SP units, two independent instructions of latency 4
 * in OC_EX_SP at 12 and an SFU one of latency 8. With one bus the second SP unit may not take
 * the second (its result would come out with the first's, at 17), so it goes at 14; with two
 * all three go at 13. Two more SP instructions issued at 14 reach the units at 17, due at 21
 * with the SFU's result: two buses let one of them go, one bus neither. */
static void bus_case(uint32_t nbus, issued_log *l)
{
    static gms_aluc a;
    gms_aluc_shape s[GMS_ALUC_PIPES] = { { 2, 2, 2, 2, 2, 2 }, { 1, 1, 1, 1, 1, 1 } };
    gms_aluc_init(&a, s, nbus);
    gms_inst sp = alu(GMS_OP_SP, 0), sfu = alu(GMS_OP_SFU, 0);
    gms_aluc_push(&a, GMS_ALUC_SP, 0, &sp, 4, 1);
    gms_aluc_push(&a, GMS_ALUC_SP, 1, &sp, 4, 1);
    gms_aluc_push(&a, GMS_ALUC_SFU, 2, &sfu, 8, 1);
    run_to(&a, l, 11, 14);
    gms_aluc_push(&a, GMS_ALUC_SP, 3, &sp, 4, 1);
    gms_aluc_push(&a, GMS_ALUC_SP, 4, &sp, 4, 1);
    run_to(&a, l, 15, 40);
}

TEST(aluc_result_buses_limit_results_per_cycle)
{
    issued_log one = { 0 }, two = { 0 };
    bus_case(1, &one);
    bus_case(2, &two);
    REQUIRE(one.n == 5 && two.n == 5);
    /* two buses: SP 0, SP 1 (due 17) and the SFU (due 21) at 13; SP 3 at 17 (due 21, the second
     * result then), SP 4 at 18 */
    CHECK_EQ(two.warp[0], 0); CHECK_EQ(two.at[0], 13u);
    CHECK_EQ(two.warp[1], 1); CHECK_EQ(two.at[1], 13u);
    CHECK_EQ(two.warp[2], 2); CHECK_EQ(two.at[2], 13u);
    CHECK_EQ(two.warp[3], 3); CHECK_EQ(two.at[3], 17u);
    CHECK_EQ(two.warp[4], 4); CHECK_EQ(two.at[4], 18u);
    /* one bus: SP 0 and the SFU at 13, SP 1 at 14; SP 3 at 18 (21 is the SFU's), SP 4 at 19 */
    CHECK_EQ(one.warp[0], 0); CHECK_EQ(one.at[0], 13u);
    CHECK_EQ(one.warp[1], 2); CHECK_EQ(one.at[1], 13u);
    CHECK_EQ(one.warp[2], 1); CHECK_EQ(one.at[2], 14u);
    CHECK_EQ(one.warp[3], 3); CHECK_EQ(one.at[3], 18u);
    CHECK_EQ(one.warp[4], 4); CHECK_EQ(one.at[4], 19u);
}

/* memory instructions: with src_reads, one cycle more per source operand before the LSU */
TEST(aluc_memq_collection_reads_one_operand_a_cycle)
{
    static gms_memq q;
    memset(&q, 0, sizeof q);
    q.shared_w = 1;
    gms_inst ld = alu(GMS_OP_MEM, 1), st = alu(GMS_OP_MEM, 2);
    gms_memq_push(&q, 0, 0, &ld);
    CHECK_EQ(gms_memq_collect_shared(&q, 4, 1, 11), 1u);   /* collected at 10: ready 10 + 1 */
    CHECK_EQ(q.e[0].ready_at, 11u);
    q.src_reads = 1;
    gms_memq_push(&q, 1, 0, &st);
    CHECK_EQ(gms_memq_collect_shared(&q, 4, 1, 11), 1u);
    CHECK_EQ(q.e[1].ready_at, 13u);   /* address and data: 2 reads */
    const gms_memq_ent *e = gms_memq_take(&q, 12);
    REQUIRE(e);
    CHECK_EQ(e->warp, 0);
    CHECK(gms_memq_take(&q, 12) == NULL);
    CHECK(gms_memq_take(&q, 13) != NULL);
}

/* ------------------------------------------------------------------ whole runs */

#define CHAIN 200
static int chain_nsrc;

/* one warp: CHAIN dependent SP instructions, each reading the previous result and
 * chain_nsrc - 1 other registers */
static int chain_fill(void *self, uint64_t b, gms_block_trace *out, gms_error *err)
{
    (void)self; (void)b; (void)err;
    gms_emit e;
    gms_emit_begin(&e, &out->warps[0]);
    uint8_t r = gms_emit_alu(&e, 0, 0xffffffffu, GMS_OP_SP, GMS_REG_NONE, GMS_REG_NONE, GMS_REG_NONE);
    uint32_t pc = 16;
    for (int i = 0; i < CHAIN; i++, pc += 16)
        r = gms_emit_alu(&e, pc, 0xffffffffu, GMS_OP_SP, r, chain_nsrc > 1 ? 2 : GMS_REG_NONE,
                         chain_nsrc > 2 ? 3 : GMS_REG_NONE);
    gms_emit_exit(&e, pc, 0xffffffffu);
    return 0;
}

static double chain_cycles(const char *mode, int nsrc)
{
    const char *opts[] = { "gms_alu_collector", mode, "trace_opcode_latency_initiation_sp", "4,1", NULL };
    chain_nsrc = nsrc;
    simt_run r;
    double c = simt_run1(&r, "chain", 32, chain_fill, opts) ? -1 : simt_stat(&r, "gpu_tot_sim_cycle");
    if (c > 0) CHECK_EQ(simt_stat(&r, "gpu_tot_sim_insn"), 32.0 * (CHAIN + 2));
    simt_free(&r);
    return c;
}

/* a dependent chain: none issues every latency (4) cycles; GPGPU-Sim 3.x every
 * latency + 5 + sources cycles (alu_collector.h): 2 sources 11, 3 sources 12 */
TEST(aluc_dependent_chain_takes_latency_plus_5_plus_sources_per_instruction)
{
    double none = chain_cycles("none", 2), two = chain_cycles("gpgpusim", 2), three = chain_cycles("gpgpusim", 3);
    REQUIRE(none > 0 && two > 0 && three > 0);
    printf("    cycles: none %.0f, 3.x collector with 2 sources %.0f, 3 sources %.0f\n", none, two, three);
    /* the per-instruction gaps; the ends (the first instruction, the exit) differ by a few */
    CHECK(fabs((two - none) - 7.0 * CHAIN) <= 10);
    CHECK(fabs((three - two) - 1.0 * CHAIN) <= 3);
}

/* register banks (-gms_reg_banks gpgpusim): two SP instructions with one source each, issued
 * together into two units (2 ports, 2 function units). A register's bank is (register + warp
 * id) modulo the banks: with 8 banks r10 of warp 0 and r17 of warp 1 share bank 2:
 * both reads are queued at 11, the first unit's is granted at 12 (dispatched 13, taken 14,
 * written back 14 + 4 + 2 = 20), the second unit's at 13 (dispatched 14, taken 15, written
 * back 21): one unit-step without a read. r10 of warp 0 and r11 of warp 1 (banks 2 and 4) are
 * both read at 12. */
static void bank_pair(uint8_t r0, uint8_t r1, uint32_t nbanks, issued_log *l, uint64_t *conflicts)
{
    static gms_aluc a;
    gms_aluc_shape s[GMS_ALUC_PIPES] = { { 2, 2, 2, 2, 2, 2 }, { 1, 1, 1, 1, 1, 1 } };
    gms_aluc_init(&a, s, 8);
    if (nbanks) gms_aluc_banks(&a, nbanks, 2);
    gms_inst x = alu(GMS_OP_SP, 1), y = alu(GMS_OP_SP, 1);
    x.src[0] = r0;
    y.src[0] = r1;
    y.dst[0] = 21;
    gms_aluc_push(&a, GMS_ALUC_SP, 0, &x, 4, 1);
    gms_aluc_push(&a, GMS_ALUC_SP, 1, &y, 4, 1);
    memset(l, 0, sizeof *l);
    run_to(&a, l, 11, 30);
    *conflicts = a.bank_conflicts;
    CHECK_EQ(a.pending, 0u);
    CHECK_EQ(a.reading, 0u);
    CHECK_EQ(a.nonempty, 0u);
    gms_aluc_free(&a);
}

TEST(aluc_register_bank_conflict_delays_the_second_unit_a_cycle)
{
    issued_log l;
    uint64_t nc;
    bank_pair(10, 17, 8, &l, &nc);
    REQUIRE(l.n == 2);
    CHECK_EQ(l.warp[0], 0);
    CHECK_EQ(l.wb[0], 20u);
    CHECK_EQ(l.warp[1], 1);
    CHECK_EQ(l.wb[1], 21u);
    CHECK_EQ(nc, 1u);
    /* the second unit's write-back (20: no conflict, 21: one) and the unit-steps lost */
    static const struct { uint8_t r0, r1; uint32_t nbanks; uint64_t wb1, nc; } cases[] = {
        { 10, 11, 8, 20, 0 },    /* banks 2 and 4 */
        { 10, 17, 0, 20, 0 },    /* no banks modelled */
        { 10, 10, 8, 20, 0 },    /* the warp id puts r10 of warps 0 and 1 in banks 2 and 3 */
        { 10, 9, 8, 21, 1 },     /* r10 of warp 0 and r9 of warp 1: bank 2 both */
        { 10, 17, 16, 20, 0 },   /* 16 banks: banks 10 and 2 */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        bank_pair(cases[k].r0, cases[k].r1, cases[k].nbanks, &l, &nc);
        REQUIRE(l.n == 2);
        CHECK_EQ(l.wb[0], 20u);
        CHECK_EQ(l.wb[1], cases[k].wb1);
        CHECK_EQ(nc, cases[k].nc);
    }
}

/* one unit whose two sources share a bank reads them in two steps, as it would anyway (one
 * read per unit a step): the two-source timing of the first test (written back at 21) */
TEST(aluc_register_banks_one_unit_same_bank_as_one_read_a_cycle)
{
    static gms_aluc a;
    issued_log l = { 0 };
    shape1(&a, 1, 2, 1);
    gms_aluc_banks(&a, 8, 2);
    gms_inst in = alu(GMS_OP_SP, 2);
    in.src[1] = 18;   /* r10 and r18 of warp 3: bank 5 both */
    gms_aluc_push(&a, GMS_ALUC_SP, 3, &in, 4, 1);
    run_to(&a, &l, 11, 30);
    REQUIRE(l.n == 1);
    CHECK_EQ(l.at[0], 15u);
    CHECK_EQ(l.wb[0], 21u);
    CHECK_EQ(a.bank_conflicts, 0u);
    gms_aluc_free(&a);
}

/* a write-back takes its bank for the cycle's reads: the SP instruction (no sources, dst r20 =
 * bank 4) is taken at 13 and written back at 19; the SFU one of warp 1 (src r11: bank 4), pushed after
 * cycle 17, is allocated at 18, its read refused at 19 and granted at 20: dispatched 21,
 * taken 22, written back 22 + 4 + 2 = 28 (27 without banks) */
/* one unit, port and function unit per pipe, 8 result buses; nbanks register banks (0: none) */
static void unit_pipes(gms_aluc *a, uint32_t nbanks)
{
    gms_aluc_shape s[GMS_ALUC_PIPES] = { { 1, 1, 1, 1, 1, 1 }, { 1, 1, 1, 1, 1, 1 } };
    gms_aluc_init(a, s, 8);
    if (nbanks) gms_aluc_banks(a, nbanks, 2);
}

/* the SFU instruction of the write-back cases (warp 1): reads r11, writes r30 */
static gms_inst sfu_r11(void)
{
    gms_inst y = alu(GMS_OP_SFU, 1);
    y.src[0] = 11;
    y.dst[0] = 30;
    return y;
}

static uint64_t writeback_case(uint32_t nbanks)
{
    static gms_aluc a;
    issued_log l = { 0 };
    unit_pipes(&a, nbanks);
    gms_inst x = alu(GMS_OP_SP, 0), y = sfu_r11();
    gms_aluc_push(&a, GMS_ALUC_SP, 0, &x, 4, 1);
    run_to(&a, &l, 11, 17);
    gms_aluc_push(&a, GMS_ALUC_SFU, 1, &y, 4, 1);
    run_to(&a, &l, 18, 40);
    CHECK_EQ(l.n, 2u);
    CHECK_EQ(l.wb[0], 19u);
    uint64_t wb = l.wb[1];
    if (nbanks) CHECK_EQ(a.bank_conflicts, 1u);
    gms_aluc_free(&a);
    return wb;
}

TEST(aluc_register_bank_written_back_is_not_read_that_cycle)
{
    CHECK_EQ(writeback_case(8), 28u);
    CHECK_EQ(writeback_case(0), 27u);
}

/* a load's write-back from the LSU (gms_aluc_lsu_write) in the cycle an ALU result is written
 * back: the SP instruction of writeback_case (dst r20, bank 4 of 8) is written back at 19, so
 * at 19 the LSU may not write warp 0's r12 or r28 (bank 4) and retries, may write r13 (bank 5), and may
 * write r12 at 20; with 16 banks r12 is bank 12 and r28 bank 12: no conflict with r20. Two
 * registers of the load on one bank (r12, r28 with 8 banks) do not refuse each other. */
TEST(aluc_lsu_write_waits_for_an_alu_write_back_on_its_bank)
{
    for (uint32_t nbanks = 8; nbanks <= 16; nbanks += 8) {
        static gms_aluc a;
        issued_log l = { 0 };
        shape1(&a, 1, 1, 1);
        gms_aluc_banks(&a, nbanks, 2);
        gms_inst x = alu(GMS_OP_SP, 0);
        gms_aluc_push(&a, GMS_ALUC_SP, 0, &x, 4, 1);
        run_to(&a, &l, 11, 18);
        REQUIRE(l.n == 1);
        CHECK_EQ(l.wb[0], 19u);
        uint8_t d12[GMS_MAX_DST], d13[GMS_MAX_DST], d12_28[GMS_MAX_DST];
        memset(d12, GMS_REG_NONE, sizeof d12);
        memcpy(d13, d12, sizeof d12);
        memcpy(d12_28, d12, sizeof d12);
        d12[0] = 12;
        d13[0] = 13;
        d12_28[0] = 12;
        d12_28[1] = 28;
        CHECK_EQ(gms_aluc_lsu_write(&a, 19, 0, d12), nbanks == 16);
        CHECK_EQ(gms_aluc_lsu_write(&a, 19, 0, d13), 1);
        CHECK_EQ(a.lsu_wb_conflicts, nbanks == 8 ? 1u : 0u);
        CHECK_EQ(gms_aluc_lsu_write(&a, 20, 0, d12_28), 1);   /* bank 4 (8) or 12 (16) twice */
        CHECK_EQ(gms_aluc_lsu_write(&a, 20, 0, d12), 0);      /* the bank is the load's now */
        gms_aluc_free(&a);
    }
}

/* the LSU's write takes its bank for the collector's step of that cycle: the SFU instruction of
 * writeback_case alone (warp 1's r11, bank 4 of 8) is allocated at 18; an LSU write of warp 0's r20 (bank 4)
 * at 19 refuses its read then, so it is written back at 28, not 27; a write of r21 (bank 5)
 * leaves it at 27 */
static uint64_t lsu_write_case(uint8_t reg)
{
    static gms_aluc a;
    issued_log l = { 0 };
    unit_pipes(&a, 8);
    gms_inst y = sfu_r11();
    gms_aluc_push(&a, GMS_ALUC_SFU, 1, &y, 4, 1);
    run_to(&a, &l, 18, 18);
    uint8_t d[GMS_MAX_DST];
    memset(d, GMS_REG_NONE, sizeof d);
    d[0] = reg;
    CHECK_EQ(gms_aluc_lsu_write(&a, 19, 0, d), 1);
    run_to(&a, &l, 19, 40);
    CHECK_EQ(l.n, 1u);
    uint64_t wb = l.wb[0];
    gms_aluc_free(&a);
    return wb;
}

TEST(aluc_lsu_write_takes_its_bank_from_the_reads)
{
    CHECK_EQ(lsu_write_case(20), 28u);
    CHECK_EQ(lsu_write_case(21), 27u);
}

/* the memory units' reads (gms_aluc_mem_reads): an SP instruction reading r10 is allocated at
 * 11 and its read queued on bank 2 (8 banks); a memory instruction allocated after that step
 * of warp 1 reading r17 (bank 2 too) queues behind it: the SP read is granted at 12, the memory unit's at
 * 13 (gms_aluc_mem_done then, one unit-step without a read); reading r18 (bank 3) it is granted
 * at 12. The SP instruction is written back at 20 either way. A memory instruction without
 * registers to read holds no unit; with one unit reading, a second finds none. */
static uint64_t mem_read_case(uint8_t reg, uint64_t *conflicts)
{
    static gms_aluc a;
    issued_log l = { 0 };
    shape1(&a, 1, 1, 1);
    gms_aluc_banks(&a, 8, 1);
    gms_aluc_mem_reads(&a, 1);
    gms_inst x = alu(GMS_OP_SP, 1);
    gms_aluc_push(&a, GMS_ALUC_SP, 0, &x, 4, 1);
    run_to(&a, &l, 11, 11);
    gms_inst src = alu(GMS_OP_MEM, 1), none = alu(GMS_OP_MEM, 0);
    src.src[0] = reg;
    CHECK_EQ(gms_aluc_mem_alloc(&a, 1, &src), 0);
    CHECK_EQ(gms_aluc_mem_alloc(&a, 1, &none), GMS_ALUC_NO_READS);
    CHECK_EQ(gms_aluc_mem_alloc(&a, 1, &src), -1);   /* its one unit is reading */
    uint64_t done_at = 0;
    for (uint64_t c = 12; c <= 30; c++) {
        l.now = c;
        gms_aluc_cycle(&a, c, log_issued, &l);
        if (gms_aluc_mem_done(&a) & 1u) { CHECK_EQ(done_at, 0u); done_at = c; }
    }
    CHECK_EQ(l.n, 1u);
    CHECK_EQ(l.wb[0], 20u);
    CHECK_EQ(a.reading, 0u);
    CHECK_EQ(a.mem_busy, 0u);
    CHECK(gms_aluc_mem_alloc(&a, 1, &src) == 0);   /* free again */
    *conflicts = a.bank_conflicts;
    gms_aluc_free(&a);
    return done_at;
}

TEST(aluc_memory_unit_reads_share_the_banks)
{
    uint64_t conf = 0;
    CHECK_EQ(mem_read_case(17, &conf), 13u);
    CHECK_EQ(conf, 1u);
    CHECK_EQ(mem_read_case(18, &conf), 12u);
    CHECK_EQ(conf, 0u);
}

/* memq with rd_alloc: an instruction whose reads were queued waits for gms_memq_reads_done; one
 * refused a unit stays in ID_OC_MEM */
static int rd_alloc_stub(void *ctx, gms_memq_ent *e)
{
    int *free_units = ctx;
    if (!gms_inst_nsrc(&e->in)) return 0;
    if (!*free_units) return -1;
    e->cu = (uint8_t)(--*free_units);
    return 1;
}

TEST(memq_rd_alloc_holds_until_reads_done)
{
    static gms_memq q;
    memset(&q, 0, sizeof q);
    q.shared_w = 4;
    q.src_reads = 1;
    int free_units = 1;
    q.rd_alloc = rd_alloc_stub;
    q.rd_ctx = &free_units;
    gms_inst ld = alu(GMS_OP_MEM, 1);
    gms_memq_push(&q, 0, 0, &ld);
    gms_memq_push(&q, 1, 0, &ld);
    CHECK_EQ(gms_memq_collect_shared(&q, 4, 2, 11), 1u);   /* the second finds no unit */
    CHECK_EQ(q.e[0].ready_at, UINT64_MAX);
    CHECK_EQ(q.e[0].cu, 0);
    CHECK(gms_memq_take(&q, 100) == NULL);
    gms_memq_reads_done(&q, 1u, 14);
    CHECK_EQ(q.e[0].ready_at, 14u);
    CHECK(gms_memq_take(&q, 13) == NULL);
    const gms_memq_ent *e = gms_memq_take(&q, 14);
    REQUIRE(e);
    CHECK_EQ(e->warp, 0);
    free_units = 1;
    CHECK_EQ(gms_memq_collect_shared(&q, 4, 2, 15), 1u);
    CHECK_EQ(q.e[0].warp, 1);
    CHECK_EQ(q.e[0].ready_at, UINT64_MAX);
}

/* a whole run: 8 warps, each 48 loads of its own lines (L1D misses, written back one per cycle
 * through ldst_unit::writeback) between ALU instructions without sources. With 8 banks warp w's
 * loads write r10/r26/r42/r58 - w + 8 and its ALU results r18/r34/r50 - w + 8 (bank 2 all, as
 * a register's bank adds the warp id): some loads' writes meet an ALU result's and wait
 * (gms_regfile_lsu_wb_conflicts); with the loads one register up (bank 3) none does. Both runs
 * complete every instruction. */
static uint8_t lsu_wb_first;

static int lsu_wb_fill(void *self, uint64_t b, gms_block_trace *out, gms_error *err)
{
    (void)self; (void)err;
    for (uint32_t w = 0; w < 8; w++) {
        gms_emit e;
        gms_emit_begin(&e, &out->warps[w]);
        uint32_t pc = 0;
        for (uint32_t i = 0; i < 48; i++) {
            uint64_t addrs[32];
            for (int l = 0; l < 32; l++) addrs[l] = 0x10000000ull + ((b * 8 + w) * 48 + i) * 128 + 4u * (uint32_t)l;
            (void)gms_emit_load(&e, pc, 0xffffffffu, GMS_MEM_LD_GLOBAL, 4, addrs, GMS_REG_NONE);
            gms_inst *ld = &out->warps[w].insts[out->warps[w].n - 1];
            ld->dst[0] = (uint8_t)(lsu_wb_first + 16 * (i % 4) + 8 - w);
            pc += 16;
            for (int k = 0; k < 3; k++, pc += 16) {
                gms_inst *in = gms_emit_put(&e, pc, 0xffffffffu, GMS_OP_SP);
                in->dst[0] = (uint8_t)(18 + 16 * k + 8 - w);
            }
        }
        gms_emit_exit(&e, pc, 0xffffffffu);
    }
    return 0;
}

static double lsu_wb_run(uint8_t first, double *insn)
{
    const char *opts[] = { "gms_alu_collector", "gpgpusim", "gms_reg_banks", "gpgpusim", "gpgpu_num_reg_banks", "8",
                           "gpgpu_reg_bank_use_warp_id", "0", NULL };
    lsu_wb_first = first;
    simt_run r;
    double c = -1;
    if (!simt_run1(&r, "lsu_wb", 256, lsu_wb_fill, opts)) {
        c = simt_stat(&r, "gms_regfile_lsu_wb_conflicts");
        *insn = simt_stat(&r, "gpu_tot_sim_insn");
    }
    simt_free(&r);
    return c;
}

TEST(aluc_lsu_write_back_conflicts_in_a_run)
{
    double insn_same = 0, insn_other = 0;
    double same = lsu_wb_run(10, &insn_same), other = lsu_wb_run(11, &insn_other);
    printf("    load write-backs that waited: same bank %.0f, other bank %.0f\n", same, other);
    CHECK(same > 0);
    CHECK_EQ(other, 0.0);
    CHECK_EQ(insn_same, 32.0 * 8 * (48 * 4 + 1));
    CHECK_EQ(insn_other, insn_same);
}

/* invariants on random streams (1-16 banks): every instruction
 * is taken once, and no read or reading unit is left when the streams end */
TEST(aluc_register_banks_random_streams_drain)
{
    uint64_t seed = 7;
    for (int round = 0; round < 50; round++) {
        static gms_aluc a;
        gms_aluc_shape s[GMS_ALUC_PIPES] = { { 4, 4, 6, 2, 2, 2 }, { 1, 1, 4, 1, 1, 1 } };
        gms_aluc_init(&a, s, 2);
        gms_aluc_banks(&a, 1 + (uint32_t)(round % 16), 2);
        issued_log l = { 0 };
        uint32_t pushed = 0;
        for (uint64_t c = 1; c < 3000; c++) {
            for (int p = 0; p < GMS_ALUC_PIPES && c < 2000; p++) {
                seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
                if (!gms_aluc_idoc_free(&a, p) || (seed >> 60) < 6) continue;
                gms_inst in = alu(p == GMS_ALUC_SP ? GMS_OP_SP : GMS_OP_SFU, (int)(seed >> 33) % 4);
                for (int k = 0; k < GMS_MAX_SRC; k++)
                    if (in.src[k] != GMS_REG_NONE) in.src[k] = (uint8_t)(seed >> (8 * k) & 0x7f);
                gms_aluc_push(&a, p, (uint16_t)(seed >> 20 & 31), &in, 1 + (uint32_t)(seed >> 40 & 15), 1 + (uint32_t)(seed >> 50 & 3));
                pushed++;
            }
            l.now = c;
            gms_aluc_cycle(&a, c, log_issued, &l);
        }
        CHECK_EQ(l.n, pushed);
        CHECK_EQ(a.pending, 0u);
        CHECK_EQ(a.reading, 0u);
        CHECK_EQ(a.nonempty, 0u);
        gms_aluc_free(&a);
    }
}
