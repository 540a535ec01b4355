/* SWL (-gms_swl K): 8 warps of one block, each a chain of 20 dependent ALU instructions, a
 * barrier, and 20 more. K = 1 per scheduler lets only one warp of each scheduler issue, so the
 * run is longer than without a limit; warps waiting at the barrier give their place up (with
 * K = 1 the first warps would otherwise wait there for warps that may never issue). */
#include "test.h"
#include "core/gpu.h"
#include "frontend/emit.h"
#include "frontend/program.h"
#include "stats/stats.h"

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

typedef struct sprog { int launched; } sprog;
static int snext(void *self, gms_program *prog, gms_error *err)
{
    sprog *c = self;
    (void)err;
    if (c->launched) return 0;
    c->launched = 1;
    gms_kernel_src k = {0};
    snprintf(k.name, sizeof k.name, "swl");
    k.grid = (gms_dim3){ 1, 1, 1 };
    k.block = (gms_dim3){ 256, 1, 1 };
    k.regs_per_thread = 16;
    k.fill_block = sfill;
    k.self = c;
    gms_prog_launch(prog, &k);
    return 1;
}
static void sdestroy(void *self) { (void)self; }

static int run(const char *k, double *cycles, double *insts)
{
    gms_error err = {0};
    gms_params *p = gms_params_new();
    int bad = gms_params_set(p, "gpgpu_n_clusters", "1", &err);
    bad |= gms_params_set(p, "gpgpu_n_cores_per_cluster", "1", &err);
    bad |= gms_params_set(p, "gpgpu_num_sched_per_core", "2", &err);
    bad |= gms_params_set(p, "gpgpu_perfect_mem", "1", &err);
    bad |= gms_params_set(p, "gms_watchdog_cycles", "20000", &err);
    bad |= gms_params_set(p, "gms_swl", k, &err);
    if (bad || gms_params_finalize(p, &err)) { printf("    %s\n", err.msg); gms_params_free(p); return -1; }
    sprog c = { 0 };
    gms_program_src src = { snext, sdestroy, &c };
    gms_workload_spec w = {0};
    w.program = &src;
    w.seed = 1;
    gms_sim *s = gms_sim_new(p, &w, &err);
    int rc = s ? gms_sim_run(s, &err) : -1;
    if (rc) printf("    %s\n", err.msg);
    if (!rc) {
        const gms_stat *st = gms_stats_find(&gms_sim_stats(s)->total, "gpu_tot_sim_cycle");
        *cycles = st ? st->value : -1;
        st = gms_stats_find(&gms_sim_stats(s)->total, "gpgpu_n_tot_w_icount");
        *insts = st ? st->value : -1;
    }
    if (s) gms_sim_free(s);
    gms_params_free(p);
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
