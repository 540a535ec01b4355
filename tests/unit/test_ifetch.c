/* GPGPU-Sim 3.x's front end without sub-cores (src/core/sm_ifetch.c, -gms_inst_fetch gpgpusim):
 * whole runs of independent instructions whose issue rate follows from fetch (one warp per SM
 * per cycle, 2 instructions), decode (the next cycle) and the instruction buffer, worked by hand
 * against the model without a front end. */
#include "test.h"
#include "sim_test_util.h"
#include "frontend/emit.h"
#include "config/params.h"
#include "stats/stats.h"
#include <math.h>
#include <string.h>

#define NIND 240
static uint32_t ind_step;   /* bytes between consecutive instructions' pcs */
static uint32_t ind_warps;

/* every warp: NIND independent SP instructions (no sources, a fresh register each), then exit */
static int ind_fill(void *self, uint64_t b, gms_block_trace *out, gms_error *err)
{
    (void)self; (void)b; (void)err;
    for (uint32_t w = 0; w < ind_warps; w++) {
        gms_emit e;
        gms_emit_begin(&e, &out->warps[w]);
        uint32_t pc = 0;
        for (int i = 0; i < NIND; i++, pc += ind_step)
            (void)gms_emit_alu(&e, pc, 0xffffffffu, GMS_OP_SP, GMS_REG_NONE, GMS_REG_NONE, GMS_REG_NONE);
        gms_emit_exit(&e, pc, 0xffffffffu);
    }
    return 0;
}

static double ind_cycles(const char *fetch, const char *dual, uint32_t step, uint32_t warps, const char *sched)
{
    const char *opts[] = { "gpgpu_sub_core_model", "0", "gms_alu_collector", "none", "gms_inst_fetch", fetch,
                           "gpgpu_max_insn_issue_per_warp", dual, "gpgpu_num_sp_units", "8",
                           "trace_opcode_latency_initiation_sp", "4,1", "gpgpu_num_sched_per_core", sched, NULL };
    ind_step = step;
    ind_warps = warps;
    simt_run r;
    double c = simt_run1(&r, "ind", 32 * warps, ind_fill, opts) ? -1 : simt_stat(&r, "gpu_tot_sim_cycle");
    if (c > 0) CHECK_EQ(simt_stat(&r, "gpu_tot_sim_insn"), 32.0 * warps * (NIND + 1));
    simt_free(&r);
    return c;
}

/* the same stream without a front end, and with 3.x's single and dual issue; 0 if a run failed */
typedef struct { double none, single, dual; } three_runs;
static int three(three_runs *t, uint32_t step, uint32_t warps, const char *sched)
{
    t->none = ind_cycles("none", "1", step, warps, sched);
    t->single = ind_cycles("gpgpusim", "1", step, warps, sched);
    t->dual = ind_cycles("gpgpusim", "2", step, warps, sched);
    printf("    cycles: none %.0f, 3.x single issue %.0f, dual issue %.0f\n", t->none, t->single, t->dual);
    return t->none > 0 && t->single > 0 && t->dual > 0;
}

/* one warp, sequential pcs. Without a front end: one instruction a cycle. 3.x, one issue per
 * warp: fetched at c, decoded c + 1, issued c + 2 and c + 3, fetched again at c + 3 (fetch runs
 * after issue), so 2 instructions every 3 cycles. Dual issue: both at c + 2, fetched again at
 * c + 2: 2 every 2 cycles, as without a front end. */
TEST(ifetch_one_warp_issues_two_in_three_cycles_or_two_in_two_with_dual_issue)
{
    three_runs t;
    REQUIRE(three(&t, 16, 1, "1"));
    double none = t.none, single = t.single, dual = t.dual;
    CHECK(fabs((single - none) - 0.5 * NIND) <= 4);
    CHECK(fabs(dual - none) <= 4);
}

/* every instruction followed by a jump (pcs 32 apart): decode's second entry is on the wrong
 * path. One issue: issued at c + 2, flushed when the scheduler reaches it at c + 3, fetched
 * then, decoded c + 4, next issue c + 5: 3 cycles an instruction. Dual issue: the flush comes
 * in the issue's own cycle: 2 cycles an instruction. */
TEST(ifetch_taken_branch_flushes_the_second_entry)
{
    three_runs t;
    REQUIRE(three(&t, 32, 1, "1"));
    double none = t.none, single = t.single, dual = t.dual;
    CHECK(fabs((single - none) - 2.0 * NIND) <= 4);
    CHECK(fabs((dual - none) - 1.0 * NIND) <= 4);
    /* a stream without pcs (all 0) is sequential */
    double nopc = ind_cycles("gpgpusim", "1", 0, 1, "1");
    CHECK(fabs((nopc - none) - 0.5 * NIND) <= 4);
}

/* 8 warps, 4 schedulers, 8 SP units: without a front end the 4 schedulers issue 4 a cycle
 * (8 x NIND / 4 cycles); with 3.x's one fetch per SM per cycle of 2 instructions, at most 2 a
 * cycle reach the buffers (8 x NIND / 2 cycles), with or without dual issue */
TEST(ifetch_one_fetch_per_sm_per_cycle_bounds_issue_at_two)
{
    three_runs t;
    REQUIRE(three(&t, 16, 8, "4"));
    double none = t.none, single = t.single, dual = t.dual;
    double span = 8.0 * NIND;
    CHECK(fabs(none - span / 4) <= 0.03 * span / 4 + 30);
    CHECK(fabs(single - span / 2) <= 0.03 * span / 2 + 30);
    CHECK(fabs(dual - span / 2) <= 0.03 * span / 2 + 30);
}

/* the options: 1 or 2; -gms_inst_fetch none with sub-cores turns the sub-core front end off; at least
 * one decode/fetch pair a cycle */
TEST(ifetch_options_checked)
{
    gms_error err = {0};
    gms_params *p = gms_params_new();
    CHECK_EQ(gms_params_set(p, "gpgpu_max_insn_issue_per_warp", "3", &err), 0);
    CHECK(gms_params_finalize(p, &err) != 0);
    CHECK(strstr(err.msg, "gpgpu_max_insn_issue_per_warp") != NULL);
    gms_params_free(p);
    p = gms_params_new();
    memset(&err, 0, sizeof err);
    CHECK_EQ(gms_params_set(p, "gms_inst_fetch", "ideal", &err), 0);
    CHECK(gms_params_finalize(p, &err) != 0);
    CHECK(strstr(err.msg, "gms_inst_fetch") != NULL);
    gms_params_free(p);
    p = gms_params_new();
    memset(&err, 0, sizeof err);
    CHECK_EQ(gms_params_set(p, "gpgpu_sub_core_model", "1", &err), 0);
    CHECK_EQ(gms_params_set(p, "gms_inst_fetch", "none", &err), 0);   /* the sub-core front end off */
    CHECK_EQ(gms_params_finalize(p, &err), 0);
    CHECK(!p->core.ifetch);
    gms_params_free(p);
    p = gms_params_new();
    memset(&err, 0, sizeof err);
    CHECK_EQ(gms_params_set(p, "gpgpu_inst_fetch_throughput", "0", &err), 0);
    CHECK(gms_params_finalize(p, &err) != 0);
    CHECK(strstr(err.msg, "gpgpu_inst_fetch_throughput") != NULL);
    gms_params_free(p);
    p = gms_params_new();
    memset(&err, 0, sizeof err);
    CHECK_EQ(gms_params_finalize(p, &err), 0);
    CHECK(p->core.ifetch);
    CHECK_EQ(p->core.max_insn_issue_per_warp, 2u);
    gms_params_free(p);
}

/* pathfinder's blocks wait at a barrier every iteration. A warp fetched while it waits and
 * released before its decode was fetched a second time (cand_on sent it to the fetch unit
 * again), its buffer refilled while it waited parked on a memory slot, and the park count went
 * wrong until the SM stopped with warps neither candidates nor parked (the watchdog, in the
 * uvm-prefetch study). The run completes, with every instruction issued. */
static double pathfinder_insts(const char *fetch, double *cycles)
{
    gms_params *p = gms_params_new();
    gms_error err = {0};
    int ok = !gms_params_load_file(p, "configs/gtx1080ti.config", &err);
    static const char *const set[] = { "uvm_alloc_round", "0", "invalidate_clean", "0", "uvm_evict_whole", "1",
                                       "uvm_evict_whole_wait", "1", "uvm_evict_rescue", "1", "uvm_evict_tlb_keep", "1",
                                       "uvm_prefetcher", "cap", NULL };
    for (size_t i = 0; ok && set[i]; i += 2) ok = !gms_params_set(p, set[i], set[i + 1], &err);
    ok = ok && !gms_params_set(p, "gms_inst_fetch", fetch, &err) && !gms_params_finalize(p, &err);
    static const char *const kv[] = { "uvm=1", "scale=0.1", NULL };
    gms_workload_spec w = { "pathfinder", NULL, kv, 1, NULL };
    gms_sim *s = ok ? gms_sim_new(p, &w, &err) : NULL;
    double insts = -1;
    if (s && !gms_sim_run(s, &err)) {
        const gms_stat *st = gms_stats_find(&gms_sim_stats(s)->total, "gpu_tot_sim_insn");
        const gms_stat *cy = gms_stats_find(&gms_sim_stats(s)->total, "gpu_tot_sim_cycle");
        insts = st ? st->value : -1;
        *cycles = cy ? cy->value : -1;
    } else {
        printf("    %s\n", err.msg);
    }
    if (s) gms_sim_free(s);
    gms_params_free(p);
    return insts;
}

TEST(ifetch_barrier_release_before_decode_is_not_fetched_twice)
{
    double c_none = 0, c_fe = 0;
    double none = pathfinder_insts("none", &c_none), fe = pathfinder_insts("gpgpusim", &c_fe);
    REQUIRE(none > 0);
    CHECK_EQ(fe, none);
    printf("    cycles: none %.0f, 3.x front end %.0f\n", c_none, c_fe);
}
