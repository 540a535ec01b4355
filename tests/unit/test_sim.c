/* Whole-simulator behaviour on hand-built programs: scoreboard timing, determinism, and
 * idle skipping not changing results. */
#include <stdarg.h>
#include "test.h"
#include "config/params.h"
#include "frontend/emit.h"
#include "frontend/program.h"
#include "core/sm_internal.h"
#include <stdlib.h>
#include <string.h>

typedef struct prog {
    int kind;       /* 0 dependent ALU chain, 1 independent ALU ops, 2 memory + long-latency mix,
                     * 3 ending with a store, 4/5: 5 independent INT ops then one reading the
                     * 4th's (4) or the 5th's (5) result */
    int launched;
    int nblocks;
} prog;

static int fill(void *self, uint64_t b, gms_block_trace *out, gms_error *err)
{
    prog *p = self;
    gms_emit e;
    for (uint32_t w = 0; w < out->nwarps; w++) {
        gms_emit_begin(&e, &out->warps[w]);
        uint8_t r = gms_emit_alu(&e, 0, 0xffffffffu, GMS_OP_INT, GMS_REG_NONE, GMS_REG_NONE, GMS_REG_NONE);
        if (p->kind == 2) {
            uint64_t a[32];
            for (int l = 0; l < 32; l++) a[l] = 0x7f0000000000ULL + (b * out->nwarps + w) * 4096 + (uint64_t)l * 4;
            uint8_t v = gms_emit_load(&e, 0x10, 0xffffffffu, GMS_MEM_LD_GLOBAL, 4, a, r);
            uint8_t s = gms_emit_alu(&e, 0x20, 0xffffffffu, GMS_OP_SFU, v, GMS_REG_NONE, GMS_REG_NONE);
            gms_emit_store(&e, 0x30, 0xffffffffu, GMS_MEM_ST_GLOBAL, 4, a, r, s);
        } else if (p->kind == 4 || p->kind == 5) {
            uint8_t regs[5] = { r };
            for (int i = 1; i < 5; i++)
                regs[i] = gms_emit_alu(&e, (uint32_t)(i * 16), 0xffffffffu, GMS_OP_INT, GMS_REG_NONE, GMS_REG_NONE,
                                       GMS_REG_NONE);
            r = gms_emit_alu(&e, 0x50, 0xffffffffu, GMS_OP_INT, regs[p->kind == 4 ? 3 : 4], GMS_REG_NONE, GMS_REG_NONE);
        } else {
            for (int i = 1; i < 10; i++)
                r = gms_emit_alu(&e, (uint32_t)(i * 16), 0xffffffffu, GMS_OP_INT,
                                 p->kind == 0 ? r : GMS_REG_NONE, GMS_REG_NONE, GMS_REG_NONE);
        }
        if (p->kind == 3) {   /* a store as the warp's very last instruction, no EXIT */
            uint64_t a[32];
            for (int l = 0; l < 32; l++) a[l] = 0x7f0000000000ULL + (b * out->nwarps + w) * 4096 + (uint64_t)l * 128;
            gms_emit_store(&e, 0x30, 0xffffffffu, GMS_MEM_ST_GLOBAL, 4, a, r, r);
            continue;
        }
        gms_emit_exit(&e, 0x100, 0xffffffffu);
    }
    (void)err;
    return 0;
}

static int next(void *self, gms_program *prog_, gms_error *err)
{
    prog *p = self;
    (void)err;
    if (p->launched) return 0;
    p->launched = 1;
    gms_kernel_src k = {0};
    snprintf(k.name, sizeof k.name, "test_kernel_%d", p->kind);
    k.grid = (gms_dim3){ (uint32_t)p->nblocks, 1, 1 };
    k.block = (gms_dim3){ 32, 1, 1 };
    k.regs_per_thread = 16;
    k.fill_block = fill;
    k.self = p;
    gms_prog_launch(prog_, &k);
    return 1;
}

static void nodestroy(void *self) { (void)self; }

static gms_params *params2(const char *extra_name, const char *extra_val, const char *name2, const char *val2);
static gms_params *params(const char *extra_name, const char *extra_val) { return params2(extra_name, extra_val, NULL, NULL); }
static gms_params *params2(const char *extra_name, const char *extra_val, const char *name2, const char *val2)
{
    gms_params *p = gms_params_new();
    gms_error err = {0};
    gms_params_set(p, "gpgpu_n_clusters", "2", &err);
    gms_params_set(p, "gpgpu_n_cores_per_cluster", "1", &err);
    gms_params_set(p, "gpgpu_clock_domains", "1000:1000:1000:1000", &err);
    gms_params_set(p, "trace_opcode_latency_initiation_int", "4,1", &err);
    gms_params_set(p, "trace_opcode_latency_initiation_sfu", "300,8", &err);
    gms_params_set(p, "gpgpu_perfect_mem", "1", &err);
    if (extra_name) gms_params_set(p, extra_name, extra_val, &err);
    if (name2) gms_params_set(p, name2, val2, &err);
    if (gms_params_finalize(p, &err)) { printf("    %s\n", err.msg); gms_params_free(p); return NULL; }
    return p;
}

static double run_prog(gms_params *pp, int kind, int nblocks, gms_run_stats *copy_out)
{
    prog p = { kind, 0, nblocks };
    gms_program_src src = { next, nodestroy, &p };
    gms_workload_spec w = { 0 };
    w.program = &src;
    w.seed = 1;
    gms_error err = {0};
    gms_sim *s = gms_sim_new(pp, &w, &err);
    if (!s) { printf("    %s\n", err.msg); return -1; }
    if (gms_sim_run(s, &err)) { printf("    %s\n", err.msg); gms_sim_free(s); return -1; }
    double cyc = -1;
    gms_stats_total(gms_sim_stats(s), "gpu_tot_sim_cycle", &cyc);
    if (copy_out) {
        const gms_run_stats *r = gms_sim_stats(s);
        gms_run_stats_init(copy_out);
        gms_stats_copy(&copy_out->total, &r->total);
    }
    gms_sim_free(s);
    return cyc;
}

TEST(scoreboard_dependent_chain_waits_for_latency)
{
    /* (no front end: a warp's next instruction is always there; tests/unit/test_ifetch.c) */
    gms_params *p = params2("gms_alu_collector", "none", "gms_inst_fetch", "none");
    REQUIRE(p);
    double dep = run_prog(p, 0, 1, NULL), ind = run_prog(p, 1, 1, NULL);
    /* 10 INT ops, latency 4, initiation 1, registers released after the latency alone: a
     * dependent chain issues every 4 cycles, an independent sequence every cycle: 9 x (4 - 1)
     * = 27 cycles apart */
    CHECK(dep > 0 && ind > 0);
    CHECK_EQ((long long)(dep - ind), 27);
    gms_params_free(p);
    /* GPGPU-Sim 3.x's collector (the default without sub-cores): each dependent op (one
     * source) waits latency + 5 + 1 = 10 cycles, so 9 x (10 - 1) = 81 apart, and the chain's
     * last op (one source) is written back one cycle later than the independent one's (none) */
    p = params("gms_inst_fetch", "none");
    REQUIRE(p);
    dep = run_prog(p, 0, 1, NULL), ind = run_prog(p, 1, 1, NULL);
    CHECK(dep > 0 && ind > 0);
    CHECK_EQ((long long)(dep - ind), 82);
    gms_params_free(p);
}

/* Blocks whose warps end with a store (no EXIT) reuse their slots while the stores are in
 * flight: 64 one-warp blocks on 2 SMs, each ending with a 32-line store, run to the end with
 * every request returned (the pool check) and 64 x 11 warp instructions (10 ALU and the
 * store). The warp keeps its count until the LSU has fed the store (lsu_hold): before, it
 * could finish with the store still in the LSU, and the next block's warp in its slot got
 * the store's transactions (a deadlock on hotspot with the QV100 config). */
TEST(last_store_keeps_warp_until_fed)
{
    gms_params *p = params("gpgpu_perfect_mem", "0");
    REQUIRE(p);
    gms_run_stats r;
    double cyc = run_prog(p, 3, 64, &r);
    CHECK(cyc > 0);
    const gms_stat *wi = gms_stats_find(&r.total, "gpgpu_n_tot_w_icount");
    CHECK(wi && wi->value == 64 * 11);
    gms_run_stats_free(&r);
    gms_params_free(p);
}

/* Two 1-SM clusters with perfect memory and the sub-core operand collector (8 generic
 * units), no front end (a warp's next instruction always there), INT latency and initiation interval from int_ii, plus NULL-terminated name/value
 * pairs; NULL if any of it is rejected. */
static gms_params *oc_params(const char *int_ii, ...)
{
    gms_params *p = gms_params_new();
    gms_error err = {0};
    int bad = 0;
    bad |= gms_params_set(p, "gpgpu_n_clusters", "2", &err);
    bad |= gms_params_set(p, "gpgpu_n_cores_per_cluster", "1", &err);
    bad |= gms_params_set(p, "gpgpu_clock_domains", "1000:1000:1000:1000", &err);
    bad |= gms_params_set(p, "trace_opcode_latency_initiation_int", int_ii, &err);
    bad |= gms_params_set(p, "trace_opcode_latency_initiation_sfu", "300,8", &err);
    bad |= gms_params_set(p, "gpgpu_perfect_mem", "1", &err);
    bad |= gms_params_set(p, "gpgpu_sub_core_model", "1", &err);
    bad |= gms_params_set(p, "gpgpu_operand_collector_num_units_gen", "8", &err);
    bad |= gms_params_set(p, "gms_inst_fetch", "none", &err);   /* the counts below are the collector's */
    va_list ap;
    va_start(ap, int_ii);
    for (const char *n; (n = va_arg(ap, const char *));) bad |= gms_params_set(p, n, va_arg(ap, const char *), &err);
    va_end(ap);
    if (bad || gms_params_finalize(p, &err)) {
        gms_params_free(p);
        return NULL;
    }
    return p;
}

/* The sub-core operand collector (-gpgpu_sub_core_model 1 with generic units): an ALU
 * instruction issued at t gets a collector unit at t + 1 and writes back at
 * t + 1 + 5 + latency, so a dependent chain of 10 INT ops (latency 4) issues every 10 cycles;
 * independent ones still issue every cycle (the ID_OC slot frees when the unit is allocated):
 * 9 x (10 - 1) = 81 cycles apart. */
TEST(operand_collector_dependent_chain)
{
    gms_params *p = oc_params("4,1", (char *)NULL);
    REQUIRE(p);
    double dep = run_prog(p, 0, 1, NULL), ind = run_prog(p, 1, 1, NULL);
    CHECK(dep > 0 && ind > 0);
    CHECK_EQ((long long)(dep - ind), 81);
    gms_params_free(p);
}

/* The same with -gpgpu_reg_file_port_throughput 2 (opndcoll_rfu_t::step twice a cycle): the
 * unit allocated at t + 1 reads its operands in the second step and dispatches at t + 2, the
 * function unit takes it at t + 3 and it writes back at t + 1 + 4 + latency = t + 9: the
 * dependent chain issues every 9 cycles, 9 x (9 - 1) = 72 cycles behind the independent one. */
TEST(operand_collector_two_steps_per_cycle)
{
    gms_params *p = oc_params("4,1", "gpgpu_operand_collector_num_in_ports_gen", "8",
                              "gpgpu_reg_file_port_throughput", "2", (char *)NULL);
    REQUIRE(p);
    double dep = run_prog(p, 0, 1, NULL), ind = run_prog(p, 1, 1, NULL);
    CHECK(dep > 0 && ind > 0);
    CHECK_EQ((long long)(dep - ind), 72);
    gms_params_free(p);
}

/* With the sub-core collector, a scheduler's function unit of a type takes one instruction
 * per initiation interval (pipelined_simd_unit::cycle holds it in the dispatch register,
 * warp_inst_t::dispatch_delay), and a collector unit waits for the type's OC_EX slot. 10
 * independent INT ops with no source register (latency 4) and the EXIT, one scheduler with 8 units,
 * one collector step a cycle: a unit given an op at c is ready at once and dispatches at c + 1
 * (one with a register to read: c + 2), the function unit takes it at c + 2. With interval 1
 * op k is taken at T + k (T: op 0's), unit 0 serving every op. With interval 2 ops 0-5 are
 * taken at T + 2k; the later ops wait in the units, where the EXIT, in unit 0 (refilled
 * first), overtakes ops 6-9 in units 1-4 (lowest unit first) and is taken at T + 12 (its own
 * interval 1), ops 6-9 at T + 13, 15, 17, 19: the last op writes back 10 cycles later than
 * with interval 1 (T + 9). */
TEST(operand_collector_unit_initiation_interval)
{
    const char *ii[2] = { "4,1", "4,2" };
    double cyc[2];
    for (int i = 0; i < 2; i++) {
        gms_params *p = oc_params(ii[i], (char *)NULL);
        REQUIRE(p);
        cyc[i] = run_prog(p, 1, 1, NULL);
        gms_params_free(p);
    }
    CHECK(cyc[0] > 0 && cyc[1] > 0);
    CHECK_EQ((long long)(cyc[1] - cyc[0]), 10);
}

/* Collector units dispatch lowest-unit-first (opndcoll_rfu_t::dispatch_ready_cu,
 * dispatch_unit_t::find_ready scans a sub-core's units from its first), not oldest first.
 * One warp, INT latency 4 and interval 4, one collector step a cycle (a unit dispatches 2
 * cycles after its allocation), one scheduler with 2 units. Ops 0-4 independent, issued at
 * t .. t+4: op0 -> unit 0 at t+1, op1 -> unit 1 at t+2; op0 dispatched at t+3 (taken t+4),
 * op2 -> unit 0 at t+3; op1 dispatched t+4 (taken t+8), op3 -> unit 1 at t+4; op2 dispatched
 * t+8 (taken t+12), op4 -> unit 0 at t+8. At t+12 units 0 (op4) and 1 (op3, older) are both
 * ready: unit 0 goes, op4 is taken at t+16 and op3 at t+20 (oldest first: the other way
 * round). So an op 5 reading op3's result ends 4 cycles later than one reading op4's (with
 * oldest first, 4 cycles earlier); everything else is the same. */
TEST(operand_collector_lowest_unit_dispatches_first)
{
    gms_params *p = oc_params("4,4", "gpgpu_operand_collector_num_units_gen", "2", (char *)NULL);
    REQUIRE(p);
    double dep3 = run_prog(p, 4, 1, NULL), dep4 = run_prog(p, 5, 1, NULL);
    CHECK(dep3 > 0 && dep4 > 0);
    CHECK_EQ((long long)(dep3 - dep4), 4);
    gms_params_free(p);
}

static int same_except_host(const gms_stats *a, const gms_stats *b)
{
    int ok = 1;
    for (size_t i = 0; i < a->n; i++) {
        const char *n = a->v[i].name;
        if (!strncmp(n, "gms_engine", 10) || !strncmp(n, "gms_wall", 8)) continue;
        const gms_stat *o = gms_stats_find(b, n);
        if (!o || o->value != a->v[i].value) {
            printf("    differs: %s %.17g vs %.17g\n", n, a->v[i].value, o ? o->value : -1.0);
            ok = 0;
        }
    }
    return ok && a->n == b->n;
}

TEST(skip_on_and_off_give_identical_stats)
{
    gms_params *on = params("gms_skip_idle", "1"), *off = params("gms_skip_idle", "0");
    REQUIRE(on && off);
    gms_run_stats a, b;
    double c1 = run_prog(on, 2, 6, &a), c2 = run_prog(off, 2, 6, &b);
    CHECK(c1 > 300);          /* the SFU latency dominates */
    CHECK_EQ(c1, c2);
    CHECK(same_except_host(&a.total, &b.total));
    const gms_stat *e1 = gms_stats_find(&a.total, "gms_engine_edges"), *e2 = gms_stats_find(&b.total, "gms_engine_edges");
    CHECK(e1 && e2 && e1->value < e2->value);   /* skipping visited fewer edges */
    gms_run_stats_free(&a);
    gms_run_stats_free(&b);
    gms_params_free(on);
    gms_params_free(off);
}

/* -gms_sleep_blocked (host speed only): an SM whose only work is requests inside the L1
 * pipeline sleeps until the first one reaches its end; an L2 slice whose L2->DRAM queue is
 * full sleeps until the channel takes from it. The same statistics with it off, and fewer
 * component ticks with it on. A memory-bound workload through the real memory system. */
/* end of a test run: its total statistics into *out (if it succeeded), everything freed */
static int finish_run(gms_sim *s, gms_params *p, int rc, const gms_error *err, gms_run_stats *out)
{
    if (rc) printf("    %s\n", err->msg);
    if (s && !rc) {
        gms_run_stats_init(out);
        gms_stats_copy(&out->total, &gms_sim_stats(s)->total);
    }
    gms_sim_free(s);
    gms_params_free(p);
    return rc;
}

/* opts: NULL-ended name, value pairs set after the test's own */
static int run_stream_with(const char *sleep, const char *const *opts, gms_run_stats *out)
{
    gms_params *p = gms_params_new();
    gms_error err = {0};
    /* the qv100 memory system with fewer SMs and channels: its L2->DRAM queues fill up */
    if (gms_params_load_file(p, "configs/qv100.config", &err)) { printf("    %s\n", err.msg); gms_params_free(p); return -1; }
    gms_params_set(p, "gpgpu_n_clusters", "16", &err);
    gms_params_set(p, "gpgpu_n_mem", "8", &err);
    gms_params_set(p, "gms_sleep_blocked", sleep, &err);
    for (size_t i = 0; opts && opts[i]; i += 2)
        if (gms_params_set(p, opts[i], opts[i + 1], &err)) { printf("    %s\n", err.msg); gms_params_free(p); return -1; }
    if (gms_params_finalize(p, &err)) { printf("    %s\n", err.msg); gms_params_free(p); return -1; }
    const char *const kv[] = { "n=65536", NULL };
    gms_workload_spec w = { "stream", NULL, kv, 1, NULL };
    gms_sim *s = gms_sim_new(p, &w, &err);
    int rc = s ? gms_sim_run(s, &err) : -1;
    return finish_run(s, p, rc, &err, out);
}

static int run_stream(const char *sleep, gms_run_stats *out) { return run_stream_with(sleep, NULL, out); }

TEST(sleep_blocked_on_and_off_give_identical_stats)
{
    gms_run_stats a, b;
    REQUIRE(run_stream("1", &a) == 0);
    REQUIRE(run_stream("0", &b) == 0);
    CHECK(same_except_host(&a.total, &b.total));
    const gms_stat *t1 = gms_stats_find(&a.total, "gms_engine_ticks"), *t2 = gms_stats_find(&b.total, "gms_engine_ticks");
    CHECK(t1 && t2 && t1->value < t2->value);   /* the sleeping SMs were not ticked */
    const gms_stat *w = gms_stats_find(&a.total, "gpgpu_n_tot_w_icount");
    CHECK(w && w->value > 0);
    gms_run_stats_free(&a);
    gms_run_stats_free(&b);
}

/* The same with the reordering L2 input queues, whose own stage (CART's and P2's fill) moves
 * a request a cycle after the ROP stage pushed it: a slice must not fall asleep in between
 * (it did: the fill came late, and the drains and fill-stall counts changed), its skipped
 * cycles count the fill stalls they would have, and the queue occupancy is integrated up to
 * the report. Also stopped mid-run by -gpgpu_max_cycle, with slices asleep at the end. */
TEST(sleep_blocked_identical_with_reordering_l2_queues)
{
    static const char *const cases[][7] = {
        { "gms_l2_input_queue", "cart", NULL },
        { "gms_l2_input_queue", "cart", "gms_l2q_cart", "2:1:1:longest", "gpgpu_max_cycle", "6500", NULL },
        { "gms_l2_input_queue", "p2", NULL },
        { "gms_l2_input_queue", "p2", "gpgpu_max_cycle", "7000", NULL },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gms_run_stats a, b;
        REQUIRE(run_stream_with("1", cases[i], &a) == 0);
        REQUIRE(run_stream_with("0", cases[i], &b) == 0);
        printf("    case %zu\n", i);
        CHECK(same_except_host(&a.total, &b.total));
        const gms_stat *f = gms_stats_find(&a.total, "gms_l2q_fills");
        CHECK(f && f->value > 0);   /* the queue's own stage moved requests */
        gms_run_stats_free(&a);
        gms_run_stats_free(&b);
    }
}

/* -gpgpu_max_cycle stops a unified-memory run at the limit, not at the next event after it,
 * when every SM sleeps through far faults: bfs (a kernel per level, each launch's latency a
 * wake-up of the GPU's own component, which the engine keeps only the earliest of) under the
 * batch runtime, half its pages resident. It stopped up to 6,084 cycles late with SMs asleep. */
TEST(max_cycle_exact_while_sms_sleep_on_far_faults)
{
    for (int sleep = 1; sleep >= 0; sleep--) {
        gms_params *p = gms_params_new();
        gms_error err = {0};
        REQUIRE(gms_params_load_file(p, "configs/maxwell-sound-baseline.config", &err) == 0);
        static const char *const kv0[] = { "uvm_runtime", "batch", "uvm_oversub_ratio", "2", "gpgpu_max_cycle", "1000000", NULL };
        for (size_t i = 0; kv0[i]; i += 2) REQUIRE(gms_params_set(p, kv0[i], kv0[i + 1], &err) == 0);
        REQUIRE(gms_params_set(p, "gms_sleep_blocked", sleep ? "1" : "0", &err) == 0);
        REQUIRE(gms_params_finalize(p, &err) == 0);
        const char *const kv[] = { "scale=0.002", "uvm=1", NULL };
        gms_workload_spec w = { "bfs", NULL, kv, 1, NULL };
        gms_sim *s = gms_sim_new(p, &w, &err);
        gms_run_stats st;
        REQUIRE(s && finish_run(s, p, gms_sim_run(s, &err), &err, &st) == 0);
        const gms_stat *c = gms_stats_find(&st.total, "gpu_tot_sim_cycle");
        CHECK(c && c->value == 1000000.0);
        gms_run_stats_free(&st);
    }
}

/* The blocked-tick shortcut replays an L1D access the DL-MSHR refused without calling the
 * table again; each replay adds the refused access's own search, comparisons, link stall and
 * tail hops (a full tail with no linkable set: histo's bins on GTX480, two slots a set, no
 * tail pointer). Only the attempts that ran counted them (link stalls 464 against 1,528). */
static int run_histo_dlmshr(int sleep, const char *max_cycle, gms_run_stats *out)
{
    gms_params *p = gms_params_new();
    gms_error err = {0};
    static const char *const kv0[] = { "gms_l1d_mshr", "dlmshr", "gms_l1d_dlmshr", "2:0:0:1", NULL };
    int bad = gms_params_load_file(p, "configs/gtx480.config", &err);
    for (size_t i = 0; kv0[i] && !bad; i += 2) bad = gms_params_set(p, kv0[i], kv0[i + 1], &err);
    if (!bad) bad = gms_params_set(p, "gms_sleep_blocked", sleep ? "1" : "0", &err);
    if (!bad) bad = gms_params_set(p, "gpgpu_max_cycle", max_cycle, &err);
    if (bad || gms_params_finalize(p, &err)) { printf("    %s\n", err.msg); gms_params_free(p); return -1; }
    const char *const kv[] = { "scale=0.05", NULL };
    gms_workload_spec w = { "histo", NULL, kv, 1, NULL };
    gms_sim *s = gms_sim_new(p, &w, &err);
    return finish_run(s, p, s ? gms_sim_run(s, &err) : -1, &err, out);
}

TEST(sleep_blocked_identical_dlmshr_events)
{
    gms_run_stats st[2];
    for (int sleep = 1; sleep >= 0; sleep--) REQUIRE(run_histo_dlmshr(sleep, "0", &st[sleep]) == 0);
    CHECK(same_except_host(&st[0].total, &st[1].total));
    const gms_stat *ls = gms_stats_find(&st[1].total, "gms_L1D_mshr_link_stalls");
    const gms_stat *th = gms_stats_find(&st[1].total, "gms_L1D_mshr_tail_hops");
    const gms_stat *t1 = gms_stats_find(&st[1].total, "gms_engine_ticks"), *t0 = gms_stats_find(&st[0].total, "gms_engine_ticks");
    CHECK(ls && ls->value > 0 && th && th->value > 0);
    CHECK(t1 && t0 && t1->value < t0->value);   /* the shortcut did serve ticks */
    gms_run_stats_free(&st[0]);
    gms_run_stats_free(&st[1]);
}

/* The same run stopped by -gpgpu_max_cycle while SMs are blocked on refused L1D accesses:
 * the MSHR table's occupancy integrals (gms_L1D_mshr_slot_utilisation, _alloc_utilisation,
 * _units_in_use) run to the L1D's clock, which a retried access moves and a replayed one did
 * not, so a sleeping SM's table was read up to an earlier cycle (the stops at 35,000 and
 * 40,000 differed in those three; found by fuzz/combo_sweep.sh DIFF=1, seed 3851). */
TEST(sleep_blocked_identical_dlmshr_stopped_early)
{
    static const char *const stops[] = { "30000", "35000", "40000", "45000" };
    for (size_t i = 0; i < sizeof stops / sizeof stops[0]; i++) {
        gms_run_stats st[2];
        for (int sleep = 1; sleep >= 0; sleep--) REQUIRE(run_histo_dlmshr(sleep, stops[i], &st[sleep]) == 0);
        printf("    stop at %s\n", stops[i]);
        CHECK(same_except_host(&st[0].total, &st[1].total));
        const gms_stat *u = gms_stats_find(&st[1].total, "gms_L1D_mshr_units_in_use");
        CHECK(u && u->value > 0);
        gms_run_stats_free(&st[0]);
        gms_run_stats_free(&st[1]);
    }
}

/* The blocked-tick shortcut (sm.c, sm_blocked_tick; host speed only): an SM that can only
 * retry (L1 bank heads failing, the LSU stalled, the interconnect refusing its requests)
 * counts what the next ticks would count instead of running them. The same statistics with it
 * off (every SM's blk_on cleared), with the sub-core collector (QV100) and without (GTX480),
 * through a small interconnect input buffer so that the SMs block often; and it served ticks. */
static int run_blocked(const char *config, const char *wl, const char *kv0, int fast, gms_run_stats *out,
                       uint64_t *fast_ticks)
{
    gms_params *p = gms_params_new();
    gms_error err = {0};
    if (gms_params_load_file(p, config, &err)) { printf("    %s\n", err.msg); gms_params_free(p); return -1; }
    gms_params_set(p, "gpgpu_n_clusters", "8", &err);
    gms_params_set(p, "gpgpu_n_mem", "8", &err);
    gms_params_set(p, "icnt_in_buffer_limit", "8", &err);
    if (gms_params_finalize(p, &err)) { printf("    %s\n", err.msg); gms_params_free(p); return -1; }
    const char *const kv[] = { kv0, NULL };
    gms_workload_spec w = { wl, NULL, kv, 1, NULL };
    gms_sim *s = gms_sim_new(p, &w, &err);
    int rc = -1;
    if (s) {
        gms_gpu *g = (gms_gpu *)s;   /* the simulation object starts with its gms_gpu */
        for (uint32_t i = 0; i < g->n_sm; i++) g->sms[i]->blk_on = fast;
        rc = gms_sim_run(s, &err);
        *fast_ticks = 0;
        for (uint32_t i = 0; i < g->n_sm; i++) *fast_ticks += g->sms[i]->blk_ticks;
    }
    return finish_run(s, p, rc, &err, out);
}

TEST(blocked_sm_ticks_give_identical_stats)
{
    static const char *const runs[][3] = {
        { "configs/qv100.config", "stream", "n=262144" },
        { "configs/qv100.config", "gather", "n=16384" },
        { "configs/gtx480.config", "stream", "n=32768" },
        { "configs/gtx480.config", "gather", "n=16384" },
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        gms_run_stats a, b;
        uint64_t fa = 0, fb = 0;
        REQUIRE(run_blocked(runs[i][0], runs[i][1], runs[i][2], 1, &a, &fa) == 0);
        REQUIRE(run_blocked(runs[i][0], runs[i][1], runs[i][2], 0, &b, &fb) == 0);
        CHECK(same_except_host(&a.total, &b.total));
        if (!(fa > 0)) printf("    %s %s %s: no blocked tick\n", runs[i][0], runs[i][1], runs[i][2]);
        CHECK(fa > 0);      /* the shortcut was taken */
        CHECK_EQ(fb, 0);
        const gms_stat *st = gms_stats_find(&a.total, "gpgpu_n_stall_shd_mem");
        CHECK(st && st->value > 0);
        gms_run_stats_free(&a);
        gms_run_stats_free(&b);
    }
}

/* The blocked SM's sleep (sm.c, sm_may_sleep; host speed only): an SM refused bypass slots
 * while far faults are served sleeps through its blocked ticks, and counts them when it wakes
 * or when a kernel's statistics are taken (gms_sm_settle_all; another SM may still sleep
 * then). UVM on the gtx1080ti preset (every global load bypasses the L1D) with two bypass
 * slots, a one-kernel and a multi-kernel workload, a run that -gpgpu_max_cycle stops while
 * SMs sleep, one with SWL (the K oldest warps wait on far faults while the others stay
 * candidates that may not issue), and one with thread oversubscription (which looks at a
 * blocked SM every 16 cycles and swaps its blocks): the same statistics, total and per
 * kernel, as with the shortcut off, in a fraction of the SM ticks; the same with MRPB. */
static gms_sim *run_uvm_slots(gms_params *p, const char *wl, const char *const *kv, const char *const *opts, int fast,
                              uint64_t *served)
{
    gms_error err = {0};
    int ok = !gms_params_load_file(p, "configs/gtx1080ti.config", &err);
    /* two SMs, far faults of 5,000 cycles: the runs with the shortcut off tick every cycle */
    ok = ok && !gms_params_set(p, "gpgpu_n_clusters", "2", &err) && !gms_params_set(p, "gms_l1d_bypass_slots", "2", &err) &&
         !gms_params_set(p, "page_fault_latency", "5000", &err);
    for (size_t i = 0; opts && opts[i]; i += 2) ok = ok && !gms_params_set(p, opts[i], opts[i + 1], &err);
    ok = ok && !gms_params_finalize(p, &err);
    gms_workload_spec w = { wl, NULL, kv, 1, NULL };
    gms_sim *s = ok ? gms_sim_new(p, &w, &err) : NULL;
    if (s) {
        gms_gpu *g = (gms_gpu *)s;
        for (uint32_t i = 0; i < g->n_sm; i++) g->sms[i]->blk_on = fast;
        if (gms_sim_run(s, &err)) { gms_sim_free(s); s = NULL; }
        else for (uint32_t i = 0; i < g->n_sm; i++) *served += g->sms[i]->blk_ticks;
    }
    if (!s) printf("    %s\n", err.msg);
    return s;
}

TEST(blocked_sms_sleep_through_far_faults_identical_stats)
{
    static const char *const gather_kv[] = { "n=2048", "uvm=1", NULL };
    static const char *const mm_kv[] = { "scale=0.0625", "uvm=1", NULL };
    static const char *const max_cycle[] = { "gpgpu_max_cycle", "5000000", NULL };
    static const char *const swl[] = { "gms_swl", "2", NULL };
    static const char *const to[] = { "uvm_runtime", "batch", "gms_uvm_to", "1", "uvm_oversub_ratio", "1.25",
                                      "gpgpu_n_clusters", "1", "uvm_fault_handling_us", "2",
                                      "gpgpu_max_insn_issue_per_warp", "1", "gms_reg_banks", "none",
                                      "gms_lsu_writeback", "none", NULL };
    /* (whether TO switches a block out at all depends on the run's detail: with 3.x's ALU
     * collector, n = 8192 at a degree of 1.5 does not, n = 6144 at 1.25 does; with the
     * preset's dual issue none of n = 4096-12288 at 1.25 or 1.5 does, with single issue it does;
     * with register-bank conflicts n = 6144 does not either, nor with bypassed replies through the
     * LDST unit's write-back slot: the case pins the model it was found on) */
    static const char *const gather4k_kv[] = { "n=6144", "uvm=1", NULL };
    /* (an SM woken by an event before its sleep's wake-up must not also tick then: TO would
     * take an extra look and sample its warp states once more) */
    static const char *const to8[] = { "uvm_runtime", "batch", "gms_uvm_to", "1", "uvm_oversub_ratio", "1.25",
                                       "gpgpu_n_clusters", "8", "gms_l1d_bypass_slots", "8",
                                       "gms_uvm_ctx_switch_cycles", "100", NULL };
    static const char *const stream_kv[] = { "n=262144", "uvm=1", NULL };
    static const char *const mrpb[] = { "gms_mrpb", "1", NULL };   /* its buffer empty: loads bypass */
    const struct { const char *wl; const char *const *kv; const char *const *opts; } runs[] = {
        { "gather", gather_kv, NULL }, { "2mm", mm_kv, NULL }, { "gather", gather_kv, max_cycle },
        { "gather", gather_kv, swl }, { "gather", gather4k_kv, to },
        { "stream", stream_kv, to8 }, { "gather", gather_kv, mrpb } };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        uint64_t fa = 0, fb = 0;
        gms_params *pa = gms_params_new(), *pb = gms_params_new();
        gms_sim *a = run_uvm_slots(pa, runs[i].wl, runs[i].kv, runs[i].opts, 1, &fa);
        gms_sim *b = run_uvm_slots(pb, runs[i].wl, runs[i].kv, runs[i].opts, 0, &fb);
        REQUIRE(a && b);
        const gms_run_stats *ra = gms_sim_stats(a), *rb = gms_sim_stats(b);
        CHECK(same_except_host(&ra->total, &rb->total));
        REQUIRE(ra->nkernels == rb->nkernels);
        for (size_t k = 0; k < ra->nkernels; k++) CHECK(same_except_host(&ra->kernels[k].st, &rb->kernels[k].st));
        CHECK(fa > 0 && fb == 0);
        const gms_stat *rs = gms_stats_find(&ra->total, "gms_bpr_rsfail"), *fl = gms_stats_find(&ra->total, "Page_tot_fault");
        CHECK(rs && rs->value > 0 && fl && fl->value > 0);   /* slots were refused while pages faulted */
        const gms_stat *sw = gms_stats_find(&ra->total, "gms_to_context_switches");
        if (runs[i].opts == to || runs[i].opts == to8) CHECK(sw && sw->value > 0);   /* blocks were swapped */
        const gms_stat *t1 = gms_stats_find(&ra->total, "gms_engine_ticks"), *t2 = gms_stats_find(&rb->total, "gms_engine_ticks");
        if (t1 && t2) printf("    run %zu: %.0f vs %.0f ticks\n", i, (double)t1->value, (double)t2->value);
        CHECK(t1 && t2 && t1->value * 2 < t2->value);   /* asleep, not ticking (gather: 1/120, 2mm: 1/3) */
        gms_sim_free(a);
        gms_sim_free(b);
        gms_params_free(pa);
        gms_params_free(pb);
    }
}

TEST(deterministic_two_runs_identical)
{
    gms_params *p = params(NULL, NULL);
    REQUIRE(p);
    gms_run_stats a, b;
    /* 9 blocks of one warp: ALU, LDG, SFU (latency 300) on the load, STG, EXIT */
    double c1 = run_prog(p, 2, 9, &a);
    REQUIRE(c1 > 0);
    double c2 = run_prog(p, 2, 9, &b);
    if (c2 <= 0) gms_run_stats_free(&a);
    REQUIRE(c2 > 0);
    CHECK(c1 > 300);
    CHECK_EQ(c1, c2);
    const gms_stat *n = gms_stats_find(&a.total, "gpgpu_n_tot_w_icount");
    CHECK_EQ(n ? n->value : -1, 9 * 5);
    CHECK(same_except_host(&a.total, &b.total));
    gms_run_stats_free(&a);
    gms_run_stats_free(&b);
    gms_params_free(p);
}

/* Regression: a warp that finished before the rest of its block must keep its slot until the
 * block is done (a new block once took it over and the old block never completed). */
TEST(all_warps_of_many_blocks_complete)
{
    gms_params *p = params("gpgpu_n_clusters", "1");
    REQUIRE(p);
    gms_error err = {0};
    gms_params_set(p, "gpgpu_cache:dl1", "S:4:128:64,L:T:m:L:L,A:512:8,16:0,32", &err);
    gms_params_set(p, "gpgpu_shader_core_pipeline", "2048:32", &err);
    gms_params_set(p, "gpgpu_shader_cta", "32", &err);
    gms_params_set(p, "gpgpu_num_sched_per_core", "4", &err);
    gms_params_set(p, "gpgpu_shader_registers", "65536", &err);
    REQUIRE(gms_params_finalize(p, &err) == 0);
    const char *kv[] = { "n=16384", NULL };
    gms_workload_spec w = { "stream", NULL, kv, 1, NULL };
    gms_sim *s = gms_sim_new(p, &w, &err);
    REQUIRE(s);
    CHECK_EQ(gms_sim_run(s, &err), 0);
    double wi = 0, ok = 0;
    gms_stats_total(gms_sim_stats(s), "gpgpu_n_tot_w_icount", &wi);
    gms_stats_total(gms_sim_stats(s), "gms_workload_verified", &ok);
    CHECK_EQ(wi, 16384 / 32 * 15);    /* 15 instructions per warp, as in the vecadd trace */
    CHECK_EQ(ok, 1);
    gms_sim_free(s);
    gms_params_free(p);
}

/* every warp scheduler in the registry runs a multi-block program to completion with every
 * instruction issued once; an unknown name is rejected at finalize */
TEST(warp_schedulers_all_complete)
{
    const char *names[] = { "lrr", "gto", "two_level_active:2:0:1" };
    for (size_t i = 0; i < 3; i++) {
        gms_params *p = params("gpgpu_scheduler", names[i]);
        REQUIRE(p);
        gms_error err = {0};
        gms_params_set(p, "gpgpu_num_sched_per_core", "2", &err);
        REQUIRE(gms_params_finalize(p, &err) == 0);
        gms_run_stats r;
        double cyc = run_prog(p, 0, 12, &r);
        CHECK(cyc > 0);
        const gms_stat *wi = gms_stats_find(&r.total, "gpgpu_n_tot_w_icount");
        CHECK(wi && wi->value == 12 * 11);   /* 12 blocks x 1 warp x (10 ALU + EXIT) */
        gms_run_stats_free(&r);
        gms_params_free(p);
    }
    gms_params *p = gms_params_new();
    gms_error err = {0};
    gms_params_set(p, "gpgpu_scheduler", "fifo", &err);
    CHECK(gms_params_finalize(p, &err) != 0);
    CHECK_CONTAINS(err.msg, "lrr, gto, two_level_active");
    gms_params_free(p);
}

/* Block dispatch order: one block per SM per cycle, the round robin restarting after the SM
 * that took the last block (GPGPU-Sim's issue_block2core), so with every SM free SM i gets
 * blocks i, i + nSM, i + 2 nSM. The fill callback finds the SM by the block slot it fills. */
typedef struct where_prog { gms_gpu *g; int launched; int sm_of[8]; } where_prog;

static int where_fill(void *self, uint64_t b, gms_block_trace *out, gms_error *err)
{
    where_prog *p = self;
    for (uint32_t i = 0; i < p->g->n_sm; i++)
        for (uint32_t j = 0; j < p->g->sms[i]->nblock_slots; j++)
            if (&p->g->sms[i]->blocks[j].bt == out && b < 8) p->sm_of[b] = (int)i;
    gms_emit e;
    for (uint32_t w = 0; w < out->nwarps; w++) {
        gms_emit_begin(&e, &out->warps[w]);
        gms_emit_alu(&e, 0, 0xffffffffu, GMS_OP_INT, GMS_REG_NONE, GMS_REG_NONE, GMS_REG_NONE);
        gms_emit_exit(&e, 0x10, 0xffffffffu);
    }
    (void)err;
    return 0;
}

static int where_next(void *self, gms_program *prog_, gms_error *err)
{
    where_prog *p = self;
    (void)err;
    if (p->launched) return 0;
    p->launched = 1;
    gms_kernel_src k = {0};
    snprintf(k.name, sizeof k.name, "where");
    k.grid = (gms_dim3){ 7, 1, 1 };
    k.block = (gms_dim3){ 32, 1, 1 };
    k.regs_per_thread = 16;
    k.fill_block = where_fill;
    k.self = p;
    gms_prog_launch(prog_, &k);
    return 1;
}

TEST(block_dispatch_round_robin_like_gpgpusim)
{
    gms_params *pp = params("gpgpu_n_clusters", "3");
    REQUIRE(pp);
    where_prog p = { 0 };
    for (int i = 0; i < 8; i++) p.sm_of[i] = -1;
    gms_program_src src = { where_next, nodestroy, &p };
    gms_workload_spec w = { 0 };
    w.program = &src;
    w.seed = 1;
    gms_error err = {0};
    gms_sim *s = gms_sim_new(pp, &w, &err);
    REQUIRE(s);
    p.g = (gms_gpu *)s;   /* the simulation object starts with its gms_gpu */
    CHECK(!gms_sim_run(s, &err));
    static const int want[7] = { 0, 1, 2, 0, 1, 2, 0 };
    for (int b = 0; b < 7; b++) CHECK_EQ(p.sm_of[b], want[b]);
    gms_sim_free(s);
    gms_params_free(pp);
}

/* -gpgpu_n_cluster_ejection_buffer_size + -gpgpu_n_ldst_response_buffer_size: the replies an SM
 * holds (the cluster's FIFO and the LDST unit's) before it refuses the interconnect's next */
TEST(sm_reply_fifo_holds_ejection_plus_ldst_replies)
{
    static const char *const sizes[][2] = { { "3", "2" }, { "8", "2" } };
    for (int k = 0; k < 2; k++) {
        gms_params *p = gms_params_new();
        gms_error err = {0};
        REQUIRE(gms_params_load_file(p, "configs/gtx480.config", &err) == 0);
        REQUIRE(gms_params_set(p, "gpgpu_n_cluster_ejection_buffer_size", sizes[k][0], &err) == 0);
        REQUIRE(gms_params_set(p, "gpgpu_n_ldst_response_buffer_size", sizes[k][1], &err) == 0);
        REQUIRE(gms_params_finalize(p, &err) == 0);
        const char *const kv[] = { "n=1024", NULL };
        gms_workload_spec w = { "stream", NULL, kv, 1, NULL };
        gms_sim *s = gms_sim_new(p, &w, &err);
        REQUIRE(s != NULL);
        gms_sm *sm = ((gms_gpu *)s)->sms[0];
        gms_mreq r[12];
        memset(r, 0, sizeof r);
        uint32_t want = (uint32_t)(atoi(sizes[k][0]) + atoi(sizes[k][1])), took = 0;
        for (int i = 0; i < 12; i++) {
            r[i].kind = GMS_MREQ_WRITE;   /* an acknowledgement: no L1 line to prefetch */
            r[i].sm = 0;
            took += (uint32_t)gms_sm_accept_reply(sm, &r[i]);
        }
        CHECK_EQ(took, want);   /* 5, then 10: the rest refused (they stay in the network) */
        CHECK_EQ(sm->replies.n, want);
        sm->replies.head = sm->replies.tail = NULL;   /* not the pool's requests: not freed */
        sm->replies.n = 0;
        gms_sim_free(s);
        gms_params_free(p);
    }
}

/* with several SMs a cluster the cluster's FIFO is shared: its SMs together hold at most
 * ejection + (SMs x LDST) replies, each at most ejection + LDST (3 + 1: 4 an SM, 5 the cluster) */
TEST(cluster_reply_fifo_shared_by_its_sms)
{
    gms_params *p = gms_params_new();
    gms_error err = {0};
    REQUIRE(gms_params_load_file(p, "configs/gtx480.config", &err) == 0);
    REQUIRE(gms_params_set(p, "gpgpu_n_clusters", "2", &err) == 0);
    REQUIRE(gms_params_set(p, "gpgpu_n_cores_per_cluster", "2", &err) == 0);
    REQUIRE(gms_params_set(p, "gpgpu_n_cluster_ejection_buffer_size", "3", &err) == 0);
    REQUIRE(gms_params_set(p, "gpgpu_n_ldst_response_buffer_size", "1", &err) == 0);
    REQUIRE(gms_params_finalize(p, &err) == 0);
    const char *const kv[] = { "n=1024", NULL };
    gms_workload_spec w = { "stream", NULL, kv, 1, NULL };
    gms_sim *s = gms_sim_new(p, &w, &err);
    REQUIRE(s != NULL);
    gms_gpu *g = (gms_gpu *)s;
    gms_mreq r[16];
    memset(r, 0, sizeof r);
    int took[4] = { 0 };
    /* six for SM 0, then six for SM 1 (cluster 0), then two for SM 2 (cluster 1) */
    static const uint16_t to[14] = { 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2 };
    for (int i = 0; i < 14; i++) {
        r[i].kind = GMS_MREQ_WRITE;
        r[i].sm = to[i];
        took[to[i]] += g->icnt.ports.to_sm(g->icnt.ports.sm_ud, to[i] / 2u, &r[i]);
    }
    CHECK_EQ(took[0], 4);   /* its own limit */
    CHECK_EQ(took[1], 1);   /* the cluster's 5 */
    CHECK_EQ(took[2], 2);   /* another cluster */
    CHECK_EQ(g->cl_replies[0], 5);
    for (int i = 0; i < 3; i++) {
        g->sms[i]->replies.head = g->sms[i]->replies.tail = NULL;   /* not the pool's: not freed */
        g->sms[i]->replies.n = 0;
    }
    gms_sim_free(s);
    gms_params_free(p);
}
