/* MRPB in the SM (-gms_mrpb 1, docs/mrpb.md): the bypass of a read the L1D refuses. One warp
 * loads lines A, B and C (one 128 B line each) without waiting, into an L1D of one set and one
 * way, allocate-on-miss, 4 MSHR entries: A reserves the only line, so B and C are refused for
 * want of a line (LINE_ALLOC) until A's fill. With MRPB's bypass they go around the L1D at
 * once, as long as a bypass slot is free; with the bypass off they wait and retry. With a
 * 1-entry MSHR the refusal is MSHR_ENTRY: -gms_mrpb_bypass line does not bypass it, any does. */
#include "test.h"
#include "core/gpu.h"
#include "frontend/emit.h"
#include "frontend/program.h"
#include "stats/stats.h"

static int mfill(void *self, uint64_t b, gms_block_trace *out, gms_error *err)
{
    (void)self; (void)b; (void)err;
    gms_emit e;
    uint64_t a[32];
    gms_emit_begin(&e, &out->warps[0]);
    uint8_t r = gms_emit_alu(&e, 0, 0xffffffffu, GMS_OP_INT, GMS_REG_NONE, GMS_REG_NONE, GMS_REG_NONE);
    for (uint64_t k = 0; k < 3; k++) {
        for (int l = 0; l < 32; l++) a[l] = 0x10000 * (k + 1) + 4u * (uint64_t)l;
        gms_emit_load(&e, 0x10 * (k + 1), 0xffffffffu, GMS_MEM_LD_GLOBAL, 4, a, r);
    }
    gms_emit_exit(&e, 0x40, 0xffffffffu);
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
    snprintf(k.name, sizeof k.name, "mrpb");
    k.grid = (gms_dim3){ 1, 1, 1 };
    k.block = (gms_dim3){ 32, 1, 1 };
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

typedef struct mres { double bypassed, mrpb_bypassed, mrpb_reqs, rf, line_rf, entry_rf; } mres;

static int run(const char *dl1, const char *mrpb, const char *how, const char *slots, mres *o)
{
    gms_error err = {0};
    gms_params *p = gms_params_new();
    int bad = gms_params_set(p, "gpgpu_n_clusters", "1", &err);
    bad |= gms_params_set(p, "gpgpu_n_cores_per_cluster", "1", &err);
    bad |= gms_params_set(p, "gpgpu_perfect_mem", "1", &err);
    bad |= gms_params_set(p, "gpgpu_cache:dl1", dl1, &err);
    bad |= gms_params_set(p, "gms_mrpb", mrpb, &err);
    bad |= gms_params_set(p, "gms_mrpb_bypass", how, &err);
    bad |= gms_params_set(p, "gms_l1d_bypass_slots", slots, &err);
    if (bad || gms_params_finalize(p, &err)) { printf("    %s\n", err.msg); gms_params_free(p); return -1; }
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
        o->bypassed = stat(rs, "gms_bypassed_reads");
        o->mrpb_bypassed = stat(rs, "gms_mrpb_bypassed");
        o->mrpb_reqs = stat(rs, "gms_mrpb_requests");
        o->rf = stat(rs, "L1D_total_cache_reservation_fails");
        o->line_rf = stat(rs, "L1D_fail_breakdown[GLOBAL_ACC_R][LINE_ALLOC_FAIL]");
        o->entry_rf = stat(rs, "L1D_fail_breakdown[GLOBAL_ACC_R][MSHR_ENRTY_FAIL]");
    }
    if (s) gms_sim_free(s);
    gms_params_free(p);
    return rc;
}

#define ONE_WAY "N:1:128:1,L:L:m:N:L,A:4:8,8"
#define ONE_MSHR "N:32:128:4,L:L:m:N:L,A:1:8,8"

TEST(mrpb_bypasses_reads_refused_for_want_of_a_line)
{
    mres o;
    REQUIRE(!run(ONE_WAY, "0", "any", "0", &o));
    CHECK_EQ(o.bypassed, 0);
    CHECK_EQ(o.mrpb_reqs, -1);           /* no MRPB statistics when it is off */
    CHECK(o.line_rf >= 2);               /* B and C retried until lines were free */
    REQUIRE(!run(ONE_WAY, "1", "none", "0", &o));
    CHECK_EQ(o.mrpb_reqs, 3);            /* A, B, C went through the buffer */
    CHECK_EQ(o.bypassed, 0);
    CHECK(o.line_rf >= 2);
    REQUIRE(!run(ONE_WAY, "1", "line", "0", &o));
    CHECK_EQ(o.bypassed, 2);             /* B and C around the L1D */
    CHECK_EQ(o.mrpb_bypassed, 2);
    CHECK_EQ(o.rf, 2);                   /* each refused once */
    CHECK_EQ(o.line_rf, 2);
    /* one bypass slot: B takes it; C is refused until B's reply frees it, then bypasses or
     * (A's fill having freed the line) goes into the L1D */
    REQUIRE(!run(ONE_WAY, "1", "line", "1", &o));
    CHECK(o.bypassed >= 1);
    CHECK(o.rf > 2);
}

TEST(mrpb_bypass_line_ignores_a_full_mshr_and_any_does_not)
{
    mres o;
    REQUIRE(!run(ONE_MSHR, "1", "line", "0", &o));
    CHECK_EQ(o.bypassed, 0);             /* B and C wait for A's MSHR entry */
    CHECK(o.entry_rf >= 2);
    REQUIRE(!run(ONE_MSHR, "1", "any", "0", &o));
    CHECK_EQ(o.bypassed, 2);
    CHECK_EQ(o.entry_rf, 2);
}
