/* Microbenchmark workloads: functional results against CPU references, instruction counts
 * against the Accel-Sim reference traces (README of ../shared/reference/accelsim). */
#include "test.h"
#include "workloads/workload.h"
#include "workloads/wl_util.h"
#include <stdlib.h>

static int run(const char *name, const char *const *kv, gms_functional_result *r, gms_error *e)
{
    const gms_workload_ops *ops = gms_workload_find(name);
    if (!ops) { snprintf(e->msg, sizeof e->msg, "no workload %s", name); return -1; }
    memset(e, 0, sizeof *e);
    return gms_workload_run_functional(ops, kv, 1, r, e);
}

#define RUN_OK(name, r, ...) do { const char *_kv[] = { __VA_ARGS__, NULL }; gms_error _e;     \
    int _rc = run(name, _kv, r, &_e); if (_rc) printf("    %s: %s\n", name, _e.msg); REQUIRE(_rc == 0); } while (0)

/* ---- stream ---- */
TEST(wl_stream_reference_counts)
{
    gms_functional_result r;
    RUN_OK("stream", &r, "n=262144");
    CHECK_EQ(r.kernels, 1);
    CHECK_EQ(r.blocks, 1024);
    CHECK_EQ(r.warp_insts, 122880);         /* vecadd trace */
    CHECK_EQ(r.thread_insts, 3670016);      /* 15 insts x 32 lanes, minus the @P0 EXIT (mask 0) */
    CHECK_EQ(r.mem_insts, 8192 * 3);
}

TEST(wl_stream_partial_warps)
{
    gms_functional_result r;
    /* n = 300, block 256: block 1 has 44 threads in range: warp 0 full, warp 1 12 lanes,
     * warps 2..7 exit at once (6 insts each) */
    RUN_OK("stream", &r, "n=300", "uvm=1");
    CHECK_EQ(r.blocks, 2);
    CHECK_EQ(r.warp_insts, 8 * 15 + 2 * 15 + 6 * 6);
    RUN_OK("stream", &r, "n=1000", "block=96", "repeat=3");
    CHECK_EQ(r.kernels, 3);
}

TEST(wl_stream_addresses)
{
    /* the instruction stream of block 0 warp 0 matches the trace: PCs, masks, addresses */
    const gms_workload_ops *ops = gms_workload_find("stream");
    REQUIRE(ops);
    const char *kv[] = { "n=262144", NULL };
    gms_wl_args *a = NULL;
    gms_error e;
    REQUIRE(gms_wl_args_parse(ops, kv, 1, &a, &e) == 0);
    void *st = NULL;
    REQUIRE(ops->create(a, &st, &e) == 0);
    gms_program p;
    gms_program_init(&p);
    REQUIRE(ops->next(st, &p, &e) == 1);
    gms_cmd *c, *launch = NULL;
    int nalloc = 0, ncopy = 0;
    while ((c = gms_prog_pop(&p))) {
        if (c->kind == GMS_CMD_ALLOC) nalloc++;
        if (c->kind == GMS_CMD_COPY_H2D) ncopy++;
        if (c->kind == GMS_CMD_LAUNCH && !launch) launch = c;
        if (launch) break;
    }
    CHECK_EQ(nalloc, 3);
    CHECK_EQ(ncopy, 2);
    REQUIRE(launch);
    CHECK_STR(launch->kernel.name, "_Z6vecAddPKfS0_Pfi");
    gms_block_trace bt = {0};
    gms_block_trace_reset(&bt, 8);
    REQUIRE(launch->kernel.fill_block(launch->kernel.self, 0, &bt, &e) == 0);
    gms_warp_trace *w = &bt.warps[0];
    REQUIRE(w->n == 15);
    for (uint32_t i = 0; i < 15; i++) CHECK_EQ(w->insts[i].pc, i * 16);
    CHECK_EQ(w->insts[5].op, GMS_OP_EXIT);
    CHECK_EQ(w->insts[5].mask, 0);
    CHECK_EQ(w->insts[9].mem, GMS_MEM_LD_GLOBAL);
    CHECK_EQ(w->insts[9].addr_mode, GMS_ADDR_STRIDE);
    CHECK_EQ(w->insts[9].base, 0x7f0000000000ULL);
    CHECK_EQ(w->insts[9].stride, 4);
    CHECK_EQ(w->insts[10].base, 0x7f0000200000ULL);
    CHECK_EQ(w->insts[13].mem, GMS_MEM_ST_GLOBAL);
    CHECK_EQ(w->insts[13].base, 0x7f0000400000ULL);
    CHECK_EQ(bt.warps[1].insts[9].base, 0x7f0000000080ULL);
    /* FADD depends on both loads */
    CHECK_EQ(w->insts[12].src[0], w->insts[9].dst[0]);
    CHECK_EQ(w->insts[12].src[1], w->insts[10].dst[0]);
    gms_block_trace_free(&bt);
    launch->kernel.release(launch->kernel.self);
    gms_program_free(&p);
    ops->destroy(st);
    gms_wl_args_free(a);
}

TEST(wl_stream_errors)
{
    gms_functional_result r;
    gms_error e;
    const char *kv1[] = { "n=0", NULL };
    CHECK(run("stream", kv1, &r, &e) != 0);
    CHECK_CONTAINS(e.msg, "n=0");
    const char *kv2[] = { "bogus=3", NULL };
    CHECK(run("stream", kv2, &r, &e) != 0);
    CHECK_CONTAINS(e.msg, "unknown parameter 'bogus'");
    const char *kv3[] = { "n=1G", "block=2000", NULL };
    CHECK(run("stream", kv3, &r, &e) != 0);
    CHECK_CONTAINS(e.msg, "block");
    const gms_workload_ops *ops = gms_workload_find("stream");
    REQUIRE(ops);
    gms_wl_args *a = NULL;
    const char *kv4[] = { "n=1000", NULL };
    REQUIRE(gms_wl_args_parse(ops, kv4, 1, &a, &e) == 0);
    CHECK_EQ(ops->footprint(a), 12000);
    gms_wl_args_free(a);
}

/* ---- the other reference kernels: warp and thread instruction counts of the traces ---- */
TEST(wl_strided_reference_counts)
{
    gms_functional_result r;
    RUN_OK("strided", &r, "n=131072");
    CHECK_EQ(r.blocks, 512);
    CHECK_EQ(r.warp_insts, 53248);          /* 4096 warps x 13 */
    CHECK_EQ(r.thread_insts, 1572864);
    CHECK_EQ(r.mem_insts, 4096 * 2);
    /* non-power-of-two stride (IMAD instead of SHF: same count), camping stride, tail warp */
    RUN_OK("strided", &r, "n=100", "stride=3");
    CHECK_EQ(r.warp_insts, 3 * 13 + 13 + 4 * 6);
    RUN_OK("strided", &r, "n=64", "stride=2048", "uvm=1", "prefetch=1");
    CHECK_EQ(r.warp_insts, 2 * 13 + 6 * 6);
}

TEST(wl_gather_reference_counts)
{
    gms_functional_result r;
    if (gms_test_quick()) {
        RUN_OK("gather", &r, "n=4096", "asize=65536");
        CHECK_EQ(r.warp_insts, 128 * 14);
        return;
    }
    RUN_OK("gather", &r, "n=131072");
    CHECK_EQ(r.warp_insts, 57344);          /* 4096 warps x 14 */
    CHECK_EQ(r.thread_insts, 1703936);
}

TEST(wl_gather_errors)
{
    gms_functional_result r;
    gms_error e;
    const char *kv[] = { "n=100", "asize=10", NULL };
    CHECK(run("gather", kv, &r, &e) != 0);
    CHECK_CONTAINS(e.msg, "asize");
    const char *kv2[] = { "asize=0", NULL };
    CHECK(run("gather", kv2, &r, &e) != 0);
    CHECK_CONTAINS(e.msg, "size of 0");
}

TEST(wl_transpose_reference_counts)
{
    gms_functional_result r;
    RUN_OK("transpose", &r, gms_test_quick() ? "N=256" : "N=1024");
    uint64_t g = gms_test_quick() ? 16 : 64;
    CHECK_EQ(r.blocks, g * g);
    CHECK_EQ(r.warp_insts, g * g * 8 * 18);     /* 589824 at N=1024 */
    CHECK_EQ(r.thread_insts, g * g * 8 * 17 * 32);
    /* N = 20: 2x2 blocks; blocks on the edge have lanes out of range */
    RUN_OK("transpose", &r, "N=20");
    CHECK_EQ(r.blocks, 4);
    /* block (0,0): 8 full warps. block (1,0): x = 16..31, 4 columns in range: every warp
     * runs (18). block (0,1): rows 16..31: warps 0,1 (rows 16..19) run, 2..7 exit (10 insts).
     * block (1,1): same. */
    CHECK_EQ(r.warp_insts, 8 * 18 + 8 * 18 + 2 * (2 * 18 + 6 * 10));
    gms_error e;
    const char *kv[] = { "N=0", NULL };
    CHECK(run("transpose", kv, &r, &e) != 0);
    CHECK_CONTAINS(e.msg, "N=0");
}

TEST(wl_reduce_reference_counts)
{
    gms_functional_result r;
    if (gms_test_quick()) {
        RUN_OK("reduce", &r, "blocks=16");
        CHECK_EQ(r.warp_insts, 16 * 8 * 300);
        return;
    }
    RUN_OK("reduce", &r, "blocks=512");
    CHECK_EQ(r.warp_insts, 1228800);        /* reuse trace */
    CHECK_EQ(r.thread_insts, 39190528);
    CHECK_EQ(r.mem_insts, 4096 * (8 * 16 + 1));
    RUN_OK("reduce", &r, "blocks=3", "block=40", "k=3", "passes=2");
    /* 2 warps per block (32 + 8 lanes): 8 + 2*(3+3+4) + 4 = 32 */
    CHECK_EQ(r.warp_insts, 3 * 2 * 32);
}

TEST(wl_matvec_reference_counts)
{
    gms_functional_result r;
    RUN_OK("matvec", &r, "N=2048");
    CHECK_EQ(r.blocks, 8);
    CHECK_EQ(r.warp_insts, 20480);          /* 64 warps x 320 */
    CHECK_EQ(r.thread_insts, 651264);
    /* remainder loop: cols = 6: 13 + 19 + 2*8 + 3 */
    RUN_OK("matvec", &r, "N=64", "cols=6", "block=64");
    CHECK_EQ(r.warp_insts, 2 * (13 + 19 + 2 * 8 + 3));
    RUN_OK("matvec", &r, "N=100", "cols=100", "repeat=2");
    CHECK_EQ(r.kernels, 2);
    gms_error e;
    const char *kv[] = { "N=10", "cols=11", NULL };
    CHECK(run("matvec", kv, &r, &e) != 0);
    CHECK_CONTAINS(e.msg, "cols");
}

TEST(wl_pointer_chase)
{
    gms_functional_result r;
    RUN_OK("pointer_chase", &r, "n=1000", "nodes=50000", "steps=10");
    /* 4 blocks; per running warp: 6 + 3 + 10*5 + 3 = 62; 1000 threads = 31 full warps + 8 lanes */
    CHECK_EQ(r.warp_insts, 32 * 62);
    CHECK_EQ(r.mem_insts, 32 * 11);
    RUN_OK("pointer_chase", &r, "n=64", "nodes=64", "steps=200", "spacing=128");
    gms_error e;
    const char *kv[] = { "spacing=6", NULL };
    CHECK(run("pointer_chase", kv, &r, &e) != 0);
    CHECK_CONTAINS(e.msg, "spacing");
    const char *kv2[] = { "steps=0", NULL };
    CHECK(run("pointer_chase", kv2, &r, &e) != 0);
}

TEST(wl_micro_registry)
{
    const char *names[] = { "stream", "strided", "gather", "pointer_chase", "transpose", "reduce", "matvec" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const gms_workload_ops *o = gms_workload_find(names[i]);
        CHECK(o != NULL);
        if (!o) continue;
        CHECK_STR(o->suite, "micro");
        CHECK(o->ri && o->summary && o->domain && o->footprint);
        gms_wl_args *a = NULL;
        gms_error e;
        REQUIRE(gms_wl_args_parse(o, NULL, 1, &a, &e) == 0);
        CHECK(o->footprint(a) > 0);
        gms_wl_args_free(a);
    }
}

TEST(wl_util_perm_and_cycle)
{
    gms_rng r;
    gms_rng_seed(&r, 7);
    uint32_t out[1000];
    wl_perm_prefix(&r, 1000, 1000, out);
    uint8_t seen[1000] = { 0 };
    for (int i = 0; i < 1000; i++) { REQUIRE(out[i] < 1000); CHECK(!seen[out[i]]); seen[out[i]] = 1; }
    uint32_t nx[777];
    wl_random_cycle(&r, 777, nx);
    uint32_t p = 0, len = 0;
    do { p = nx[p]; len++; } while (p != 0 && len < 1000);
    CHECK_EQ(len, 777);
}
