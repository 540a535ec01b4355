/* -gms_l1d_index_latency (spec 001 3.2: a hashed set index may cost cycles; "make it a
 * parameter"): one pipeline stage more in front of the L1D's tag lookup, so every access to
 * the L1D takes that many cycles more. One warp: load a line, use it, load it again (a hit),
 * use it, exit: two accesses on the dependent chain, so N cycles of index latency make the
 * run exactly 2N cycles longer. */
#include "test.h"
#include "config/params.h"
#include "frontend/emit.h"
#include "frontend/program.h"
#include <stdio.h>

typedef struct lprog { int launched; } lprog;

static int lfill(void *self, uint64_t b, gms_block_trace *out, gms_error *err)
{
    (void)self; (void)b; (void)err;
    gms_emit e;
    uint64_t a[32];
    for (int l = 0; l < 32; l++) a[l] = 0x7f0000000000ULL + 4u * (uint64_t)l;
    gms_emit_begin(&e, &out->warps[0]);
    uint8_t v = gms_emit_load(&e, 0x10, 0xffffffffu, GMS_MEM_LD_GLOBAL, 4, a, GMS_REG_NONE);
    uint8_t r = gms_emit_alu(&e, 0x20, 0xffffffffu, GMS_OP_INT, v, GMS_REG_NONE, GMS_REG_NONE);
    uint8_t w = gms_emit_load(&e, 0x30, 0xffffffffu, GMS_MEM_LD_GLOBAL, 4, a, r);
    gms_emit_alu(&e, 0x40, 0xffffffffu, GMS_OP_INT, w, GMS_REG_NONE, GMS_REG_NONE);
    gms_emit_exit(&e, 0x50, 0xffffffffu);
    return 0;
}

static int lnext(void *self, gms_program *prog, gms_error *err)
{
    lprog *p = self;
    (void)err;
    if (p->launched) return 0;
    p->launched = 1;
    gms_prog_alloc_kind(prog, 4096, 0, "a");
    gms_kernel_src k = {0};
    snprintf(k.name, sizeof k.name, "index_latency");
    k.grid = (gms_dim3){ 1, 1, 1 };
    k.block = (gms_dim3){ 32, 1, 1 };
    k.regs_per_thread = 16;
    k.fill_block = lfill;
    k.self = p;
    gms_prog_launch(prog, &k);
    return 1;
}

static void lnodestroy(void *self) { (void)self; }

static double lcycles(const char *index_latency, double *hits)
{
    gms_params *pp = gms_params_new();
    gms_error err = {0};
    int bad = 0;
    bad |= gms_params_set(pp, "gpgpu_n_clusters", "1", &err);
    bad |= gms_params_set(pp, "gpgpu_n_cores_per_cluster", "1", &err);
    bad |= gms_params_set(pp, "gpgpu_clock_domains", "1000:1000:1000:1000", &err);
    bad |= gms_params_set(pp, "gms_l1d_index_latency", index_latency, &err);
    if (bad || gms_params_finalize(pp, &err)) { printf("    %s\n", err.msg); gms_params_free(pp); return -1; }
    lprog p = { 0 };
    gms_program_src src = { lnext, lnodestroy, &p };
    gms_workload_spec w = { 0 };
    w.program = &src;
    w.seed = 1;
    double cyc = -1;
    gms_sim *s = gms_sim_new(pp, &w, &err);
    if (s && !gms_sim_run(s, &err)) {
        gms_stats_total(gms_sim_stats(s), "gpu_tot_sim_cycle", &cyc);
        double acc = -1, miss = -1;
        gms_stats_total(gms_sim_stats(s), "L1D_total_cache_accesses", &acc);
        gms_stats_total(gms_sim_stats(s), "L1D_total_cache_misses", &miss);
        *hits = acc - miss;
    } else {
        printf("    %s\n", err.msg);
    }
    if (s) gms_sim_free(s);
    gms_params_free(pp);
    return cyc;
}

TEST(l1d_index_latency_adds_to_every_access)
{
    double h0 = -1, h5 = -1;
    double c0 = lcycles("0", &h0), c5 = lcycles("5", &h5);
    printf("    %.0f -> %.0f cycles, hits %.0f / %.0f\n", c0, c5, h0, h5);
    CHECK(c0 > 0);
    CHECK_EQ(h0, 1);   /* the second load hits */
    CHECK_EQ(h5, 1);
    CHECK_EQ((long long)(c5 - c0), 10);
}
