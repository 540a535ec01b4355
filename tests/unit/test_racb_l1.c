/* RACB at the L1D (-gms_racb 1, docs/cart.md): one warp loads line A, then line B without
 * waiting; the L1D has one MSHR entry, so B's miss is refused (entry full). With RACB it takes
 * the bypass path at once (one bypassed read); without, it waits for A's fill and retries. */
#include "test.h"
#include "core/gpu.h"
#include "frontend/emit.h"
#include "frontend/program.h"
#include "stats/stats.h"

static int rfill(void *self, uint64_t b, gms_block_trace *out, gms_error *err)
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

typedef struct rprog { int launched; } rprog;
static int rnext(void *self, gms_program *prog, gms_error *err)
{
    rprog *c = self;
    (void)err;
    if (c->launched) return 0;
    c->launched = 1;
    gms_kernel_src k = {0};
    snprintf(k.name, sizeof k.name, "racb");
    k.grid = (gms_dim3){ 1, 1, 1 };
    k.block = (gms_dim3){ 32, 1, 1 };
    k.regs_per_thread = 16;
    k.fill_block = rfill;
    k.self = c;
    gms_prog_launch(prog, &k);
    return 1;
}
static void rdestroy(void *self) { (void)self; }

static double stat(const gms_run_stats *rs, const char *name)
{
    const gms_stat *st = gms_stats_find(&rs->total, name);
    return st ? st->value : -1;
}

/* bypassed reads and L1D reservation fails of the two-load warp */
static int run(const char *racb, double *bypassed, double *l1rf)
{
    gms_error err = {0};
    gms_params *p = gms_params_new();
    int bad = gms_params_set(p, "gpgpu_n_clusters", "1", &err);
    bad |= gms_params_set(p, "gpgpu_n_cores_per_cluster", "1", &err);
    bad |= gms_params_set(p, "gpgpu_perfect_mem", "1", &err);
    bad |= gms_params_set(p, "gpgpu_cache:dl1", "N:32:128:4,L:L:m:N:L,A:1:8,8", &err);
    bad |= gms_params_set(p, "gms_racb", racb, &err);
    if (bad || gms_params_finalize(p, &err)) { printf("    %s\n", err.msg); gms_params_free(p); return -1; }
    rprog c = { 0 };
    gms_program_src src = { rnext, rdestroy, &c };
    gms_workload_spec w = {0};
    w.program = &src;
    w.seed = 1;
    gms_sim *s = gms_sim_new(p, &w, &err);
    int rc = s ? gms_sim_run(s, &err) : -1;
    if (rc) printf("    %s\n", err.msg);
    if (!rc) {
        *bypassed = stat(gms_sim_stats(s), "gms_bypassed_reads");
        *l1rf = stat(gms_sim_stats(s), "L1D_total_cache_reservation_fails");
    }
    if (s) gms_sim_free(s);
    gms_params_free(p);
    return rc;
}

TEST(racb_l1d_bypasses_a_refused_read)
{
    double by, rf;
    REQUIRE(!run("0", &by, &rf));
    CHECK_EQ(by, 0);
    CHECK(rf >= 1);                      /* B retried until A's entry was freed */
    REQUIRE(!run("1", &by, &rf));
    CHECK_EQ(by, 1);                     /* B went around the L1D */
    CHECK_EQ(rf, 1);                     /* its one refused attempt */
}
