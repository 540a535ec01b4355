/* MDB inside a run: one block of 2 warps, each loading 1,500 distinct lines (one transaction
 * per load). With -gms_mdb_period 1000 the SM decides after its 1,000th, 2,000th and 3,000th
 * transaction: 3 decisions. One block is resident: warp level, N = 2 warps. No line is ever
 * reused, so every calculator has 0 hits; the L1D's reservation failures make L = 1 the best
 * (Adjusted_Hits(1) = -RF/8 * 0.5/8 > Adjusted_Hits(2) = -RF * 0.5/8) unless there were none,
 * in which case the tie goes to L = 2 = N (nothing bypasses). */
#include "test.h"
#include "core/gpu.h"
#include "frontend/emit.h"
#include "frontend/program.h"
#include "stats/stats.h"

#define LOADS 1500

static int mfill(void *self, uint64_t b, gms_block_trace *out, gms_error *err)
{
    (void)self; (void)b; (void)err;
    uint64_t a[32];
    for (uint32_t wi = 0; wi < out->nwarps; wi++) {
        gms_emit e;
        gms_emit_begin(&e, &out->warps[wi]);
        uint32_t pc = 0;
        for (int i = 0; i < LOADS; i++, pc += 16) {
            uint64_t line = 0x100000 + ((uint64_t)wi * LOADS + (uint64_t)i) * 128;
            for (int l = 0; l < 32; l++) a[l] = line + 4u * (uint64_t)l;
            gms_emit_load(&e, pc, 0xffffffffu, GMS_MEM_LD_GLOBAL, 4, a, GMS_REG_NONE);
        }
        gms_emit_exit(&e, pc, 0xffffffffu);
    }
    return 0;
}

typedef struct mprog { int launched; } mprog;
static int mnext(void *self, gms_program *prog, gms_error *err)
{
    mprog *c = self;
    (void)err;
    if (c->launched) return 0;
    c->launched = 1;
    gms_kernel_src k = {0};
    snprintf(k.name, sizeof k.name, "mdb");
    k.grid = (gms_dim3){ 1, 1, 1 };
    k.block = (gms_dim3){ 64, 1, 1 };
    k.regs_per_thread = 16;
    k.fill_block = mfill;
    k.self = c;
    gms_prog_launch(prog, &k);
    return 1;
}
static void mdestroy(void *self) { (void)self; }

static double stat(const gms_run_stats *rs, const char *name)
{
    const gms_stat *st = gms_stats_find(&rs->total, name);
    return st ? st->value : -1;
}

TEST(mdb_decides_every_period_at_warp_level)
{
    gms_error err = {0};
    gms_params *p = gms_params_new();
    int bad = gms_params_set(p, "gpgpu_n_clusters", "1", &err);
    bad |= gms_params_set(p, "gpgpu_n_cores_per_cluster", "1", &err);
    bad |= gms_params_set(p, "gpgpu_perfect_mem", "1", &err);
    bad |= gms_params_set(p, "gpgpu_cache:dl1", "N:32:128:4,L:L:m:N:X,A:4:8,4", &err);
    bad |= gms_params_set(p, "gms_l1d_bypass", "mdb-local", &err);
    if (bad || gms_params_finalize(p, &err)) { printf("    %s\n", err.msg); gms_params_free(p); REQUIRE(0); }
    mprog c = { 0 };
    gms_program_src src = { mnext, mdestroy, &c };
    gms_workload_spec w = {0};
    w.program = &src;
    w.seed = 1;
    gms_sim *s = gms_sim_new(p, &w, &err);
    int rc = s ? gms_sim_run(s, &err) : -1;
    if (rc) printf("    %s\n", err.msg);
    if (!rc) {
        const gms_run_stats *rs = gms_sim_stats(s);
        double rf = stat(rs, "L1D_total_cache_reservation_fails");
        CHECK_EQ(stat(rs, "gms_mdb_decisions"), 3);
        CHECK_EQ(stat(rs, "gms_mdb_series[sm0][0]_N"), 2);
        if (rf > 0) {   /* 4 MSHRs for 64 outstanding lines: it fails */
            CHECK_EQ(stat(rs, "gms_mdb_series[sm0][0]_L"), 1);
            CHECK(stat(rs, "gms_bpr_reads") > 0);   /* warp 1 bypassed after the first decision */
        }
        CHECK(rf > 0);
    }
    if (s) gms_sim_free(s);
    gms_params_free(p);
    REQUIRE(rc == 0);
}
