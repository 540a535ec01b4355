/* The bypass path (spec 001 3.6) under a bypass policy: one warp loads two lines without
 * waiting; MDB with -gms_mdb_start bypass bypasses everything before its first decision (none
 * comes: the period is longer than the run). With unlimited slots both reads are in flight at
 * once; with one slot the second is refused (BpR reservation failures) until the first's reply
 * frees it, so exactly one is ever in flight. */
#include "test.h"
#include "core/gpu.h"
#include "frontend/emit.h"
#include "frontend/program.h"
#include "stats/stats.h"

static int bfill(void *self, uint64_t b, gms_block_trace *out, gms_error *err)
{
    (void)self; (void)b; (void)err;
    gms_emit e;
    uint64_t a[32];
    gms_emit_begin(&e, &out->warps[0]);
    uint8_t r = gms_emit_alu(&e, 0, 0xffffffffu, GMS_OP_INT, GMS_REG_NONE, GMS_REG_NONE, GMS_REG_NONE);
    for (int l = 0; l < 32; l++) a[l] = 0x10000 + 4u * (uint64_t)l;
    gms_emit_load(&e, 0x10, 0xffffffffu, GMS_MEM_LD_GLOBAL, 4, a, r);
    for (int l = 0; l < 32; l++) a[l] = 0x20000 + 4u * (uint64_t)l;
    gms_emit_load(&e, 0x20, 0xffffffffu, GMS_MEM_LD_GLOBAL, 4, a, r);
    gms_emit_exit(&e, 0x30, 0xffffffffu);
    return 0;
}

typedef struct bprog { int launched; } bprog;
static int bnext(void *self, gms_program *prog, gms_error *err)
{
    bprog *c = self;
    (void)err;
    if (c->launched) return 0;
    c->launched = 1;
    gms_kernel_src k = {0};
    snprintf(k.name, sizeof k.name, "bypass");
    k.grid = (gms_dim3){ 1, 1, 1 };
    k.block = (gms_dim3){ 32, 1, 1 };
    k.regs_per_thread = 16;
    k.fill_block = bfill;
    k.self = c;
    gms_prog_launch(prog, &k);
    return 1;
}
static void bdestroy(void *self) { (void)self; }

static double stat(const gms_run_stats *rs, const char *name)
{
    const gms_stat *st = gms_stats_find(&rs->total, name);
    return st ? st->value : -1;
}

typedef struct bres { double reads, rsfail, avg, max, l1acc; } bres;

static int run(const char *policy, const char *slots, bres *o)
{
    gms_error err = {0};
    gms_params *p = gms_params_new();
    int bad = gms_params_set(p, "gpgpu_n_clusters", "1", &err);
    bad |= gms_params_set(p, "gpgpu_n_cores_per_cluster", "1", &err);
    bad |= gms_params_set(p, "gpgpu_perfect_mem", "1", &err);
    bad |= gms_params_set(p, "gpgpu_cache:dl1", "N:32:128:4,L:L:m:N:L,A:32:8,8", &err);
    bad |= gms_params_set(p, "gms_l1d_bypass", policy, &err);
    bad |= gms_params_set(p, "gms_mdb_start", "bypass", &err);
    bad |= gms_params_set(p, "gms_l1d_bypass_slots", slots, &err);
    if (bad || gms_params_finalize(p, &err)) { printf("    %s\n", err.msg); gms_params_free(p); return -1; }
    bprog c = { 0 };
    gms_program_src src = { bnext, bdestroy, &c };
    gms_workload_spec w = {0};
    w.program = &src;
    w.seed = 1;
    gms_sim *s = gms_sim_new(p, &w, &err);
    int rc = s ? gms_sim_run(s, &err) : -1;
    if (rc) printf("    %s\n", err.msg);
    if (!rc) {
        const gms_run_stats *rs = gms_sim_stats(s);
        o->reads = stat(rs, "gms_bpr_reads");
        o->rsfail = stat(rs, "gms_bpr_rsfail");
        o->avg = stat(rs, "gms_bpr_inflight_avg");
        o->max = stat(rs, "gms_bpr_inflight_max");
        o->l1acc = stat(rs, "L1D_total_cache_accesses");
    }
    if (s) gms_sim_free(s);
    gms_params_free(p);
    return rc;
}

TEST(bypass_policy_sends_loads_around_the_l1d)
{
    bres r;
    REQUIRE(!run("mdb-local", "0", &r));
    CHECK_EQ(r.reads, 2);        /* both lines bypassed */
    CHECK(r.l1acc <= 0);         /* the L1D saw neither (absent or 0) */
    CHECK_EQ(r.rsfail, 0);
    CHECK_EQ(r.max, 2);          /* unlimited: both in flight together */
    CHECK(r.avg > 1 && r.avg <= 2);
}

TEST(bypass_slots_refuse_and_count)
{
    bres r;
    REQUIRE(!run("mdb-local", "1", &r));
    CHECK_EQ(r.reads, 2);
    CHECK(r.rsfail >= 1);        /* the second waited for the first's slot */
    CHECK_EQ(r.max, 1);
    CHECK_NEAR(r.avg, 1.0, 1e-9);
}

TEST(bypass_policy_bad_name)
{
    gms_error err = {0};
    gms_params *p = gms_params_new();
    int bad = gms_params_set(p, "gms_l1d_bypass", "mdb-locl", &err);
    CHECK(bad || gms_params_finalize(p, &err));
    CHECK_CONTAINS(err.msg, "mdb-locl");
    CHECK_CONTAINS(err.msg, "mdb-global");
    gms_params_free(p);
}

/* -gms_l1d_bypass_slots: -1 and 0 are unlimited (BpR_inf), N >= 1 a limit, below -1 an error */
TEST(bypass_slots_option)
{
    const char *val[] = { "-1", "0", "32" };
    const uint32_t want[] = { 0, 0, 32 };
    for (int i = 0; i < 3; i++) {
        gms_error err = {0};
        gms_params *p = gms_params_new();
        int rc = gms_params_set(p, "gms_l1d_bypass_slots", val[i], &err) || gms_params_finalize(p, &err);
        CHECK_EQ(rc, 0);
        CHECK_EQ(p->l1d.bypass_slots, want[i]);
        gms_params_free(p);
    }
    gms_error err = {0};
    gms_params *p = gms_params_new();
    int rc = gms_params_set(p, "gms_l1d_bypass_slots", "-2", &err) || gms_params_finalize(p, &err);
    CHECK(rc != 0);
    CHECK_CONTAINS(err.msg, "-gms_l1d_bypass_slots: -2");
    gms_params_free(p);
}
