/* Thread oversubscription (spec 004 section 2) on hand-built programs: the swap decision and
 * its context-switch cost, fewer and larger batches, nothing new when off; and the runtime's
 * degree control on page lifetimes.
 *
 * Machine: 1 SM admitting one block at a time (-gpgpu_shader_cta 1), all clocks 1000 MHz,
 * perfect memory, 64 KiB pages, batch runtime with 20 us = 20000 cycles of fault handling, no
 * prefetcher, linear PCIe at 16 GB/s: a page = 65536 / 16 = 4096 cycles. Each block is one
 * warp that loads from its own 64 KiB page (a far fault), uses the value, and exits. */
#include "test.h"
#include "test_uvm_util.h"
#include "config/params.h"
#include "frontend/emit.h"
#include "frontend/program.h"
#include "uvm/uvm.h"
#include "uvm/uvm_internal.h"

#define TBASE 0x7f0000000000ULL
#define PG64 65536ULL

typedef struct prog { int launched, nblocks; uint64_t base; } prog;

static int fill(void *self, uint64_t b, gms_block_trace *out, gms_error *err)
{
    prog *p = self;
    (void)err;
    gms_emit e;
    gms_emit_begin(&e, &out->warps[0]);
    uint64_t a[32];
    for (int l = 0; l < 32; l++) a[l] = p->base + b * PG64 + (uint64_t)l * 4;
    uint8_t v = gms_emit_load(&e, 0x10, 0xffffffffu, GMS_MEM_LD_GLOBAL, 4, a, GMS_REG_NONE);
    gms_emit_alu(&e, 0x20, 0xffffffffu, GMS_OP_INT, v, GMS_REG_NONE, GMS_REG_NONE);
    gms_emit_exit(&e, 0x30, 0xffffffffu);
    return 0;
}

static int next(void *self, gms_program *pr, gms_error *err)
{
    prog *p = self;
    (void)err;
    if (p->launched) return 0;
    p->launched = 1;
    p->base = gms_prog_alloc_kind(pr, (uint64_t)p->nblocks * PG64, 1, "pages");
    gms_kernel_src k = { 0 };
    snprintf(k.name, sizeof k.name, "to_kernel");
    k.grid = (gms_dim3){ (uint32_t)p->nblocks, 1, 1 };
    k.block = (gms_dim3){ 32, 1, 1 };
    k.regs_per_thread = 16;
    k.fill_block = fill;
    k.self = p;
    gms_prog_launch(pr, &k);
    return 1;
}

static void nodestroy(void *self) { (void)self; }

/* runs nblocks blocks; the statistic totals asked for go to v[] (-1 when absent) */
static int run(int nblocks, const char *const *opts, const char *const *names, double *v)
{
    static const char *const base[] = {
        "gpgpu_n_clusters", "1", "gpgpu_n_cores_per_cluster", "1", "gpgpu_shader_cta", "1",
        "gpgpu_clock_domains", "1000:1000:1000:1000", "gpgpu_perfect_mem", "1",
        "uvm_runtime", "batch", "page_size", "64KB", "hardware_prefetch", "0", "hwprefetch_oversub", "0",
        "uvm_fault_handling_us", "20", "uvm_pcie_model", "linear", "pcie_bandwidth", "16", NULL };
    gms_params *pp = gms_params_new();
    gms_error err = { 0 };
    int bad = 0;
    for (const char *const *o = base; *o; o += 2) bad |= gms_params_set(pp, o[0], o[1], &err);
    for (const char *const *o = opts; o && *o; o += 2) bad |= gms_params_set(pp, o[0], o[1], &err);
    if (bad || gms_params_finalize(pp, &err)) { printf("    %s\n", err.msg); gms_params_free(pp); return -1; }
    prog p = { 0, nblocks, 0 };
    gms_program_src src = { next, nodestroy, &p };
    gms_workload_spec w = { 0 };
    w.program = &src;
    w.seed = 1;
    gms_sim *s = gms_sim_new(pp, &w, &err);
    int rc = s ? gms_sim_run(s, &err) : -1;
    if (rc) printf("    %s\n", err.msg);
    for (int i = 0; names[i]; i++) {
        v[i] = -1;
        if (!rc) gms_stats_total(gms_sim_stats(s), names[i], &v[i]);
    }
    if (s) gms_sim_free(s);
    gms_params_free(pp);
    return rc;
}

#define OPTS(...) (const char *const[]){ __VA_ARGS__, NULL }
static const char *const names[] = { "gpu_tot_sim_cycle", "Uvm_batches", "Uvm_batch_faults_mean",
                                     "gms_to_context_switches", "gms_to_switched_back_in", "gms_to_inactive_started",
                                     "gms_to_context_switch_cycles", "gms_to_warp_cycles[far_fault]",
                                     "gms_to_warp_cycles[translation]", NULL };
enum { CYC, BATCHES, FPB, CS, BACK, FRESH, CSCYC, FARW, TRANSW };

TEST(to_swaps_fully_stalled_blocks_and_merges_their_faults)
{
    /* without TO the three blocks run one after the other: three batches of one fault.
     * With TO (3x runnable, fixed): block 0 faults (batch 1 starts), every warp of it waits,
     * so it is switched out for block 1 (680 cycles: save, nothing to restore), which faults
     * and is switched out for block 2 (680); the faults of blocks 1 and 2 arrive during
     * batch 1 and form batch 2 (2 faults). When page 0 arrives block 2 (stalled) goes out and
     * block 0 comes back (680 + 680); blocks 1 and 2 come back (680 each) into the slot block
     * 0 leaves, as their pages arrive. Switches out 3, back in 3, never-run blocks started 2,
     * context cycles 680 x 6 = 4080. */
    double off[9], on[9];
    REQUIRE(run(3, NULL, names, off) == 0);
    REQUIRE(run(3, OPTS("gms_uvm_to", "1", "gms_uvm_to_factor", "3", "gms_uvm_to_dynamic", "0"), names, on) == 0);
    CHECK_EQ(off[BATCHES], 3);
    CHECK_EQ(off[FPB], 1);
    CHECK_EQ(off[CS], -1);   /* TO off: no TO statistics */
    CHECK_EQ(on[BATCHES], 2);
    CHECK_EQ(on[FPB], 1.5);
    CHECK_EQ(on[CS], 3);
    CHECK_EQ(on[BACK], 3);
    CHECK_EQ(on[FRESH], 2);
    CHECK_EQ(on[CSCYC], 4080);
    /* one batch's fault handling (20000) saved, minus the extra page and the switches */
    CHECK(on[CYC] < off[CYC] - 15000);
    CHECK(on[FARW] > 0);
    /* before each fault is known its request waits on the TLB miss and the walk: a translation
     * wait, a short one beside the far fault's */
    CHECK(on[TRANSW] > 0);
    CHECK(on[TRANSW] < on[FARW] / 10);
}

TEST(to_context_switch_cost_is_an_option)
{
    /* the same run with 1000-cycle switches: 6 contexts moved = 6000 cycles */
    double v[9];
    REQUIRE(run(3, OPTS("gms_uvm_to", "1", "gms_uvm_to_factor", "3", "gms_uvm_to_dynamic", "0",
                        "gms_uvm_ctx_switch_cycles", "1000"), names, v) == 0);
    CHECK_EQ(v[CS], 3);
    CHECK_EQ(v[CSCYC], 6000);
}

TEST(to_2x_keeps_one_extra_block)
{
    /* 2x runnable with one hardware block: one inactive context at a time. Block 0 faults and
     * is switched for block 1 (never run); block 2 can only be allocated when block 0 has
     * finished, directly into the free hardware slot, so it faults alone: three batches */
    double v[9];
    REQUIRE(run(3, OPTS("gms_uvm_to", "1", "gms_uvm_to_factor", "2", "gms_uvm_to_dynamic", "0"), names, v) == 0);
    CHECK_EQ(v[FRESH], 1);
    CHECK_EQ(v[BATCHES], 3);
    CHECK_EQ(v[FPB], 1);
}

TEST(to_degree_control_grows_then_throttles_on_a_lifetime_drop)
{
    /* runtime side, 1481 MHz harness, one 64 KiB frame, epochs of 10000 cycles, cap 4.
     * No eviction yet: +1 extra block per epoch from 1 up to the cap. Page 0 lives ~200k
     * cycles (idle), page 1 then lives one batch (~36k): its epoch's mean is far below 80% of
     * page 0's: one block less (3) and frozen */
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 1, (const char *const[]){ "uvm_runtime", "batch", "hardware_prefetch", "0",
                            "hwprefetch_oversub", "0", "page_size", "64KB", "gddr_size", "64KB", "uvm_eviction", "lru64k",
                            "gms_uvm_to", "1", "gms_uvm_to_epoch", "10000", "gms_uvm_to_cumulative", "0", NULL },
                        1 << 20) == 0);
    CHECK_EQ(gms_uvm_to_extra(h.u, 0, 4), 1);
    CHECK_EQ(gms_uvm_to_extra(h.u, 10000, 4), 2);
    CHECK_EQ(gms_uvm_to_extra(h.u, 25000, 4), 3);
    uvm_h_access_wait(&h, 0, UVM_BASE, GMS_MREQ_READ);
    CHECK_EQ(gms_uvm_to_extra(h.u, uvm_h_now(&h), 4), 4);
    uvm_h_run_until(&h, uvm_h_now(&h) + 200000);
    uvm_h_access_wait(&h, 0, UVM_BASE + PG64, GMS_MREQ_READ);       /* evicts page 0 */
    CHECK_EQ(gms_uvm_to_extra(h.u, uvm_h_now(&h), 4), 4);
    uvm_h_access_wait(&h, 0, UVM_BASE + 2 * PG64, GMS_MREQ_READ);   /* evicts page 1 */
    CHECK_EQ(gms_uvm_to_extra(h.u, uvm_h_now(&h) + 20000, 4), 3);
    CHECK_EQ(gms_uvm_to_extra(h.u, uvm_h_now(&h) + 500000, 4), 3);  /* frozen */
    CHECK_EQ(uvm_h_stat(&h, "Uvm_to_throttles"), 1);
    uvm_h_free(&h);
}

TEST(to_degree_control_running_average_against_epoch_average)
{
    /* the control law on hand-set lifetimes, epochs of 1000 cycles, cap 4: epoch 1 evicts two
     * pages of 100 and 100 cycles, epoch 2 one of 60. Running average: 100, then 260 / 3 =
     * 86.7 > 80 (no drop: +1 again); epoch average: 100, then 60 <= 80 (drop: -1, frozen). */
    static const char *const modes[2] = { "1", "0" };
    static const uint32_t expect[2] = { 4, 1 };
    for (int m = 0; m < 2; m++) {
        uvm_h h;
        REQUIRE(uvm_h_start(&h, 1, (const char *const[]){ "uvm_runtime", "batch", "gms_uvm_to", "1",
                                "gms_uvm_to_epoch", "1000", "gms_uvm_to_cumulative", modes[m], NULL }, 1 << 20) == 0);
        gms_uvm_ba *b = &h.u->ba;
        CHECK_EQ(gms_uvm_to_extra(h.u, 0, 4), 1);
        b->lifetime_sum = b->to_win_sum = 200;
        b->lifetime_n = b->to_win_n = 2;
        CHECK_EQ(gms_uvm_to_extra(h.u, 1000, 4), 2);   /* first average: no reference yet, +1 */
        b->lifetime_sum += 60; b->lifetime_n++;
        b->to_win_sum += 60; b->to_win_n++;
        CHECK_EQ(gms_uvm_to_extra(h.u, 2000, 4), m == 0 ? 3 : 1);
        CHECK_EQ(gms_uvm_to_extra(h.u, 5000, 4), expect[m]);
        uvm_h_free(&h);
    }
}

/* The same hand-set control law with the two open choices of spec 004 2.4 as options. */
static uint32_t to_after_epochs(const char *ref, const char *freeze, const uint64_t *sums, const uint64_t *ns, int nep)
{
    uvm_h h;
    if (uvm_h_start(&h, 1, (const char *const[]){ "uvm_runtime", "batch", "gms_uvm_to", "1", "gms_uvm_to_epoch", "1000",
                        "gms_uvm_to_reference", ref, "gms_uvm_to_freeze", freeze, NULL }, 1 << 20))
        return 99;
    gms_uvm_ba *b = &h.u->ba;
    uint32_t got = gms_uvm_to_extra(h.u, 0, 4);
    for (int e = 0; e < nep; e++) {
        b->to_win_sum += sums[e];
        b->to_win_n += ns[e];
        got = gms_uvm_to_extra(h.u, 1000 * (uint64_t)(e + 1), 4);
    }
    uvm_h_free(&h);
    return got;
}

TEST(to_degree_control_reference_and_freeze_options)
{
    /* epoch means 100, 85, 70 (cap 4, start 1). Against the previous epoch no mean drops 20%
     * (85 > 80, 70 > 68): +1, +1, +1 = 4. Against the best (100): 70 <= 80 drops: 1 + 2 - 1 = 2 */
    static const uint64_t s1[3] = { 100, 85, 70 }, n1[3] = { 1, 1, 1 };
    CHECK_EQ(to_after_epochs("prev", "permanent", s1, n1, 3), 4);
    CHECK_EQ(to_after_epochs("best", "permanent", s1, n1, 3), 2);
    /* epoch means 100, 60, then two epochs without evictions: the drop takes 2 -> 1 and
     * freezes; permanent stays at 1, until-no-drop lifts the freeze in epoch 3 and grows in 4 */
    static const uint64_t s2[4] = { 100, 60, 0, 0 }, n2[4] = { 1, 1, 0, 0 };
    CHECK_EQ(to_after_epochs("prev", "permanent", s2, n2, 4), 1);
    CHECK_EQ(to_after_epochs("prev", "until-no-drop", s2, n2, 4), 2);
    uvm_h_expect_error((const char *const[]){ "uvm_runtime", "batch", "gms_uvm_to", "1", "gms_uvm_to_freeze", "never", NULL },
                       "-gms_uvm_to_freeze: 'never' is not one of permanent, until-no-drop");
}

TEST(to_extra_blocks_caps_the_inactive_blocks)
{
    /* 3x runnable would allow two inactive blocks (to_swaps_fully_stalled...: two batches);
     * -gms_uvm_to_extra_blocks 1 keeps one, as the 2x run: block 0 is switched for block 1,
     * block 2 waits for block 0 to finish and faults alone: three batches of one fault */
    double v[9];
    REQUIRE(run(3, OPTS("gms_uvm_to", "1", "gms_uvm_to_factor", "3", "gms_uvm_to_dynamic", "0",
                        "gms_uvm_to_extra_blocks", "1"), names, v) == 0);
    CHECK_EQ(v[FRESH], 1);
    CHECK_EQ(v[BATCHES], 3);
    CHECK_EQ(v[FPB], 1);
}

TEST(to_throttled_degree_stops_context_switching)
{
    /* spec 004 2.4: a lifetime drop "does not allow any more context switching". Two frames,
     * 12 one-page blocks, 3x cap, epochs of 3000 cycles: the degree grows, then two drops take
     * it to 0 (the third batch's evictions live shorter than the first's). Blocks already
     * allocated as extras stay, but from then on come back only as active blocks finish:
     * 7 switches (9 when the switching went on after the drops; the 9- to 12-block runs switch
     * as often, so the blocks allocated after the drops are never switched either) */
    static const char *const nm[] = { "Uvm_to_throttles", "Uvm_to_extra_blocks", "gms_to_context_switches",
                                      "gms_to_switched_back_in", "Uvm_evictions", NULL };
    double v[5], v9[5];
    const char *const *o = OPTS("gms_uvm_to", "1", "gms_uvm_to_factor", "3", "gms_uvm_to_epoch", "3000",
                                "gddr_size", "128KB", "uvm_eviction", "lru64k");
    REQUIRE(run(12, o, nm, v) == 0);
    REQUIRE(run(9, o, nm, v9) == 0);
    CHECK_EQ(v[0], 2);
    CHECK_EQ(v[1], 0);
    CHECK_EQ(v[2], 7);
    CHECK_EQ(v[3], 7);
    CHECK_EQ(v[4], 10);
    CHECK_EQ(v9[2], 7);
}
