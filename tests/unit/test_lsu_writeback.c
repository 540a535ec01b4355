/* The LDST unit's write-back clients (-gms_lsu_writeback gpgpusim): the shared-memory pipeline
 * (lsu_shpipe.h) by hand, and whole runs in which shared-memory loads, bypassed replies and
 * L1D hand-outs share the write-back slot (sm.c writeback). */
#include "test.h"
#include "sim_test_util.h"
#include "core/lsu_shpipe.h"
#include "frontend/emit.h"
#include "config/params.h"
#include <math.h>
#include <string.h>

static gms_shp_ent ent(uint16_t warp, uint8_t reg)
{
    gms_shp_ent e = { 0, warp, { reg, GMS_REG_NONE }, 0 };
    return e;
}

/* L = 3: a load leaving the dispatch register at the end of cycle 10 is in stage 2 after 10,
 * stage 1 after 11's shift, stage 0 after 12's: the write-back takes it at 13 (it runs before
 * the shift) and writes its register at 14 = 10 + L + 1 */
TEST(shpipe_unheld_entry_reaches_the_write_back_slot_at_e_plus_L)
{
    gms_shpipe p;
    gms_shpipe_init(&p, 3);
    CHECK_EQ(gms_shpipe_ready_at(&p), UINT64_MAX);
    gms_shp_ent a = ent(5, 20);
    gms_shpipe_enter(&p, 10, &a);
    CHECK_EQ(gms_shpipe_ready_at(&p), 13u);
    gms_shp_ent x = gms_shpipe_take(&p, 13);
    CHECK_EQ(x.warp, 5u);
    CHECK_EQ(x.dst[0], 20u);
    CHECK_EQ(p.n, 0u);
    gms_shpipe_free(&p);
}

/* L = 3, entries leaving the dispatch register after 10 and 11. Unheld: ready at 13 and 14.
 * The head held at stage 0 until 16 (the slot busy): the second, behind it in stage 1 since
 * 12, moves to stage 0 in 16's shift and is taken at 17 at the earliest. A third entering
 * after 20 is not held by those gone before: ready at 23. */
TEST(shpipe_held_head_delays_the_entries_behind)
{
    gms_shpipe p;
    gms_shpipe_init(&p, 3);
    gms_shp_ent a = ent(1, 8), b = ent(2, 9), c = ent(3, 10);
    gms_shpipe_enter(&p, 10, &a);
    gms_shpipe_enter(&p, 11, &b);
    CHECK_EQ(gms_shpipe_ready_at(&p), 13u);
    (void)gms_shpipe_take(&p, 16);
    CHECK_EQ(gms_shpipe_ready_at(&p), 17u);
    gms_shp_ent x = gms_shpipe_take(&p, 17);
    CHECK_EQ(x.warp, 2u);
    gms_shpipe_enter(&p, 20, &c);
    CHECK_EQ(gms_shpipe_ready_at(&p), 23u);
    /* unheld, the second would have been taken at 14: a held-up head costs the next ones */
    gms_shpipe q;
    gms_shpipe_init(&q, 3);
    gms_shpipe_enter(&q, 10, &a);
    gms_shpipe_enter(&q, 11, &b);
    (void)gms_shpipe_take(&q, 13);
    CHECK_EQ(gms_shpipe_ready_at(&q), 14u);
    gms_shpipe_free(&p);
    gms_shpipe_free(&q);
}

/* stage L-1 is taken only with L entries in the pipeline (all held): then a new load waits in
 * the dispatch register (sm.c sh_enter) */
TEST(shpipe_full_with_L_entries)
{
    gms_shpipe p;
    gms_shpipe_init(&p, 2);
    gms_shp_ent a = ent(0, 8);
    gms_shpipe_enter(&p, 10, &a);
    CHECK(!gms_shpipe_full(&p));
    gms_shpipe_enter(&p, 11, &a);
    CHECK(gms_shpipe_full(&p));
    (void)gms_shpipe_take(&p, 12);
    CHECK(!gms_shpipe_full(&p));
    CHECK_EQ(gms_shpipe_ready_at(&p), 13u);   /* entered after 11: stage 0 after 12's shift */
    gms_shpipe_free(&p);
}

/* ------------------------------------------------------------------ whole runs */

/* one warp: a chain of 64 shared loads, each addressed by the previous one's result */
static int chain_fill(void *self, uint64_t b, gms_block_trace *out, gms_error *err)
{
    (void)self; (void)b; (void)err;
    gms_emit e;
    gms_emit_begin(&e, &out->warps[0]);
    uint64_t a[32];
    for (int l = 0; l < 32; l++) a[l] = 4u * (uint64_t)l;
    uint8_t r = GMS_REG_NONE;
    uint32_t pc = 0;
    for (int i = 0; i < 64; i++, pc += 16) r = gms_emit_load(&e, pc, 0xffffffffu, GMS_MEM_LD_SHARED, 4, a, r);
    gms_emit_exit(&e, pc, 0xffffffffu);
    return 0;
}

static double last_insn;
static double run_cycles(simt_fill_fn fill, uint32_t threads, const char *mode, double *waits, const char *extra_k,
                         const char *extra_v)
{
    const char *opts[] = { "gms_lsu_writeback", mode, extra_k, extra_v, NULL };
    simt_run r;
    double c = -1;
    if (!simt_run1(&r, "lsu_wb", threads, fill, opts)) {
        c = simt_stat(&r, "gpu_tot_sim_cycle");
        last_insn = simt_stat(&r, "gpgpu_n_tot_w_icount");
        if (waits) *waits = simt_stat(&r, "gms_lsu_wb_client_waits");
    }
    simt_free(&r);
    return c;
}

/* alone, a shared load takes the write-back slot the cycle it reaches stage 0 and writes back
 * the next: the same latency as the fixed-latency model, cycle for cycle */
TEST(lsu_wb_unheld_shared_chain_takes_the_fixed_latency)
{
    double wn = 0, wg = 0;
    double none = run_cycles(chain_fill, 32, "none", &wn, NULL, NULL);
    double gs = run_cycles(chain_fill, 32, "gpgpusim", &wg, NULL, NULL);
    REQUIRE(none > 0 && gs > 0);
    printf("    64 dependent shared loads: %.0f cycles (fixed latency) vs %.0f (pipeline)\n", none, gs);
    CHECK_EQ(gs, none);
    CHECK_EQ(wg, 0.0);
    CHECK_EQ(wn, -1.0);   /* the statistic exists only with the pipeline */
    /* and with Volta's 20 stages (the default is GPGPU-Sim 3.x's 3) */
    double n20 = run_cycles(chain_fill, 32, "none", NULL, "gpgpu_smem_latency", "20");
    CHECK_EQ(run_cycles(chain_fill, 32, "gpgpusim", NULL, "gpgpu_smem_latency", "20"), n20);
    CHECK(fabs(n20 - none - 64 * 17.0) <= 4);   /* 17 more cycles per link */
}

/* 16 warps, each: 24 x (a global load missing the L1D, two independent shared loads); the
 * fills' hand-outs and the shared loads want the write-back slot in the same cycles */
static int mix_bypass;        /* 1: every other global load bypasses the L1D, 2: every one */
static int mix_no_global, mix_no_shared;
static int mix_fill(void *self, uint64_t b, gms_block_trace *out, gms_error *err)
{
    (void)self; (void)b; (void)err;
    for (uint32_t w = 0; w < 16; w++) {
        gms_emit e;
        gms_emit_begin(&e, &out->warps[w]);
        uint32_t pc = 0;
        for (uint32_t i = 0; i < 24; i++) {
            uint64_t a[32];
            for (int l = 0; l < 32; l++) a[l] = 0x10000000ull + ((uint64_t)w * 24 + i) * 128 + 4u * (uint32_t)l;
            if (!mix_no_global) {
                (void)gms_emit_load(&e, pc, 0xffffffffu, GMS_MEM_LD_GLOBAL, 4, a, GMS_REG_NONE);
                if (mix_bypass == 2 || (mix_bypass && (i & 1)))
                    out->warps[w].insts[out->warps[w].n - 1].flags |= GMS_INST_BYPASS_L1;
            }
            pc += 16;
            for (int k = 0; k < 2 && !mix_no_shared; k++, pc += 16) {
                for (int l = 0; l < 32; l++) a[l] = 4u * (uint64_t)l + 128u * (uint64_t)k;
                (void)gms_emit_load(&e, pc, 0xffffffffu, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE);
            }
        }
        gms_emit_exit(&e, pc, 0xffffffffu);
    }
    return 0;
}

TEST(lsu_wb_shared_loads_and_l1d_hand_outs_share_the_slot)
{
    mix_bypass = 0;
    double wn = 0, wg = 0;
    double none = run_cycles(mix_fill, 512, "none", &wn, NULL, NULL);
    double gs = run_cycles(mix_fill, 512, "gpgpusim", &wg, NULL, NULL);
    REQUIRE(none > 0 && gs > 0);
    printf("    cycles: fixed latency %.0f, shared write-back slot %.0f (%.0f client-cycles waited)\n", none, gs, wg);
    CHECK(wg > 0);
    CHECK_EQ(last_insn, 16.0 * (24 * 3 + 1));   /* every instruction completed */
}

/* half the global loads bypass the L1D: their replies wait in m_next_global for the slot too */
TEST(lsu_wb_bypassed_replies_take_the_slot)
{
    mix_bypass = 1;
    double wg = 0, wn = 0;
    double gs = run_cycles(mix_fill, 512, "gpgpusim", &wg, NULL, NULL);
    double none = run_cycles(mix_fill, 512, "none", &wn, NULL, NULL);
    mix_bypass = 0;
    double wl1 = 0;
    (void)run_cycles(mix_fill, 512, "gpgpusim", &wl1, NULL, NULL);
    REQUIRE(gs > 0 && none > 0);
    printf("    with bypassed loads: %.0f cycles (%.0f waits), fixed %.0f; all through the L1D: %.0f waits\n", gs, wg,
           none, wl1);
    CHECK(wg > 0);
    CHECK_EQ(last_insn, 16.0 * (24 * 3 + 1));
    /* every global load bypasses: the replies and the shared loads are the slot's only
     * clients. Each kind alone waits what it waits behind its own kind; together they wait
     * more, since a reply in the slot holds the shared pipeline's head and the other way round
     * (bypassed replies that skipped the slot would leave the shared loads' waits alone) */
    mix_bypass = 2;
    double w_both = 0, w_rep = 0, w_sh = 0;
    REQUIRE(run_cycles(mix_fill, 512, "gpgpusim", &w_both, NULL, NULL) > 0);
    CHECK_EQ(last_insn, 16.0 * (24 * 3 + 1));
    mix_no_shared = 1;
    REQUIRE(run_cycles(mix_fill, 512, "gpgpusim", &w_rep, NULL, NULL) > 0);
    CHECK_EQ(last_insn, 16.0 * (24 + 1));
    mix_no_shared = 0;
    mix_no_global = 1;
    REQUIRE(run_cycles(mix_fill, 512, "gpgpusim", &w_sh, NULL, NULL) > 0);
    CHECK_EQ(last_insn, 16.0 * (24 * 2 + 1));
    mix_no_global = 0;
    mix_bypass = 0;
    printf("    all bypassed: %.0f waits together, %.0f replies alone, %.0f shared loads alone\n", w_both, w_rep, w_sh);
    CHECK(w_both > w_rep + w_sh);
}

static void finalize_error(const char *k, const char *v, const char *k2, const char *v2, const char *want)
{
    gms_params *p = gms_params_new();
    gms_error e = {0};
    REQUIRE(gms_params_set(p, k, v, &e) == 0);
    if (k2) REQUIRE(gms_params_set(p, k2, v2, &e) == 0);
    CHECK(gms_params_finalize(p, &e) != 0);
    CHECK_CONTAINS(e.msg, want);
    gms_params_free(p);
}

TEST(lsu_wb_options_checked)
{
    finalize_error("gms_lsu_writeback", "fifo", NULL, NULL, "-gms_lsu_writeback: 'fifo' is not gpgpusim or none");
    finalize_error("gpgpu_smem_latency", "1", NULL, NULL,
                   "-gpgpu_smem_latency 1: the LDST unit's shared-memory pipeline needs at least 2 stages");
    gms_params *p = gms_params_new();
    gms_error e = {0};
    REQUIRE(gms_params_set(p, "gpgpu_smem_latency", "1", &e) == 0);
    REQUIRE(gms_params_set(p, "gms_lsu_writeback", "none", &e) == 0);
    CHECK(gms_params_finalize(p, &e) == 0);
    gms_params_free(p);
}
