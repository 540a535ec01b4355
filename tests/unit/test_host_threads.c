/* -gms_host_threads: the active SMs of a core edge tick on several host threads, and every
 * statistic (totals and per kernel, engine counters included) is identical to one thread.
 * -gms_host_pipeline: the memory side runs ahead on a second host thread, and every
 * statistic is identical to the serial run. Built-in workloads on the qv100 and gtx480
 * presets at small sizes; the parallel (pipelined) path must actually have been taken.
 * Also: the serial fallbacks (UVM, a cycle limit) and the option's range. */
#include "test.h"
#include "config/params.h"
#include "core/gpu.h"
#include <stdlib.h>

static int host_field(const char *n)
{
    size_t l = strlen(n);
    return !strncmp(n, "gms_wall", 8) || (l > 11 && !strcmp(n + l - 11, "_per_second"));
}

static int same_stats(const char *what, const gms_stats *a, const gms_stats *b)
{
    int ok = a->n == b->n;
    if (!ok) printf("    %s: %zu vs %zu statistics\n", what, a->n, b->n);
    for (size_t i = 0; i < a->n; i++) {
        const char *n = a->v[i].name;
        if (host_field(n)) continue;
        const gms_stat *o = gms_stats_find(b, n);
        if (!o || memcmp(&o->value, &a->v[i].value, sizeof o->value)) {
            printf("    %s: %s differs: %.17g vs %.17g\n", what, n, a->v[i].value, o ? o->value : -1.0);
            ok = 0;
        }
    }
    return ok;
}

static int same_run(const gms_run_stats *a, const gms_run_stats *b)
{
    int ok = same_stats("total", &a->total, &b->total);
    if (a->nkernels != b->nkernels) { printf("    %zu vs %zu kernels\n", a->nkernels, b->nkernels); return 0; }
    for (size_t k = 0; k < a->nkernels; k++) {
        ok &= !strcmp(a->kernels[k].name, b->kernels[k].name);
        ok &= same_stats(a->kernels[k].name, &a->kernels[k].st, &b->kernels[k].st);
    }
    return ok;
}

/* runs `wl` with its parameters kv on preset cfg with options opt = val and (if opt2) opt2 =
 * val2; the statistics go to out (total and kernels), the parallel and pipelined edges to
 * *par and *pipe. 0 or -1. */
/* options both runs of a comparison take (name, value pairs; NULL: none) */
static const char *const *extra_opts;

static int run2(const char *cfg, const char *wl, const char *const *kv, const char *opt, const char *val,
                const char *opt2, const char *val2, gms_run_stats *out, uint64_t *par, uint64_t *pipe)
{
    gms_params *p = gms_params_new();
    gms_error err = {0};
    char path[128];
    snprintf(path, sizeof path, "configs/%s.config", cfg);
    int bad = gms_params_load_file(p, path, &err);
    for (int i = 0; extra_opts && extra_opts[i] && !bad; i += 2) bad = gms_params_set(p, extra_opts[i], extra_opts[i + 1], &err);
    if (bad || gms_params_set(p, opt, val, &err) ||
        (opt2 && gms_params_set(p, opt2, val2, &err)) || gms_params_finalize(p, &err)) {
        printf("    %s\n", err.msg);
        gms_params_free(p);
        return -1;
    }
    gms_workload_spec w = { wl, NULL, kv, 1, NULL };
    gms_sim *s = gms_sim_new(p, &w, &err);
    int rc = s ? gms_sim_run(s, &err) : -1;
    if (rc) printf("    %s %s %s %s: %s\n", cfg, wl, opt, val, err.msg);
    if (s && !rc) {
        const gms_run_stats *r = gms_sim_stats(s);
        gms_run_stats_init(out);
        gms_stats_copy(&out->total, &r->total);
        for (size_t k = 0; k < r->nkernels; k++) {
            gms_kernel_stats *ks = gms_run_stats_add_kernel(out, r->kernels[k].name, r->kernels[k].uid,
                                                            r->kernels[k].stream);
            gms_stats_copy(&ks->st, &r->kernels[k].st);
        }
        *par = gms_sim_parallel_edges(s);
        *pipe = gms_sim_pipelined_edges(s);
    }
    gms_sim_free(s);
    gms_params_free(p);
    return rc;
}

static int run(const char *cfg, const char *wl, const char *const *kv, const char *opt, const char *val,
               gms_run_stats *out, uint64_t *par, uint64_t *pipe)
{
    return run2(cfg, wl, kv, opt, val, NULL, NULL, out, par, pipe);
}

/* the serial run (opt = off) against opt = on with every edge that may go parallel doing so
 * (no timing governor: the most coverage); expect: that path was taken */
static void compare_opt(const char *cfg, const char *wl, const char *const *kv, const char *opt, const char *on,
                        int expect)
{
    gms_run_stats a, b;
    uint64_t pa = 0, pb = 0, qa = 0, qb = 0;
    /* the reference: fully serial */
    if (run(cfg, wl, kv, "gms_host_pipeline", "0", &a, &pa, &qa)) { CHECK(0); return; }
    setenv("GMS_HOST_THREADS_ALWAYS", "1", 1);
    int rc = run(cfg, wl, kv, opt, on, &b, &pb, &qb);
    unsetenv("GMS_HOST_THREADS_ALWAYS");
    if (rc) { CHECK(0); gms_run_stats_free(&a); return; }
    int threads = !strcmp(opt, "gms_host_threads");
    uint64_t got = threads ? pb : qb;
    printf("    %s %s %s=%s: %llu core edge(s) %s\n", cfg, wl, opt, on, (unsigned long long)got,
           threads ? "ticked on several threads" : "with the memory side ahead");
    CHECK(same_run(&a, &b));
    CHECK_EQ(pa, 0);
    CHECK_EQ(qa, 0);
    if (expect) CHECK(got > 0);
    else CHECK_EQ(got, 0);
    const gms_stat *w = gms_stats_find(&a.total, "gpgpu_n_tot_w_icount");
    CHECK(w && w->value > 0);
    gms_run_stats_free(&a);
    gms_run_stats_free(&b);
}

static void compare(const char *cfg, const char *wl, const char *const *kv, int expect_parallel)
{
    compare_opt(cfg, wl, kv, "gms_host_threads", "2", expect_parallel);
}

static void compare_pipe(const char *cfg, const char *wl, const char *const *kv, int expect)
{
    compare_opt(cfg, wl, kv, "gms_host_pipeline", "1", expect);
}

static const char *const stream_kv[] = { "n=65536", NULL };
static const char *const gather_kv[] = { "n=16384", NULL };
static const char *const transpose_kv[] = { "N=256", NULL };
static const char *const reduce_kv[] = { NULL };

/* stream, gather, transpose (and reduce unless quick) on preset cfg, serial against opt = on */
static void four_workloads(const char *cfg, const char *opt, const char *on)
{
    compare_opt(cfg, "stream", stream_kv, opt, on, 1);
    compare_opt(cfg, "gather", gather_kv, opt, on, 1);
    compare_opt(cfg, "transpose", transpose_kv, opt, on, 1);
    if (!gms_test_quick()) compare_opt(cfg, "reduce", reduce_kv, opt, on, 1);
}

TEST(host_threads_identical_qv100) { four_workloads("qv100", "gms_host_threads", "2"); }

/* the first 2 warps (block slots) of each SM use the L1D, the rest bypass it: a cycle may send
 * an L1 miss and a bypassed access, and the LSU checks the interconnect's room after the
 * miss, whose injection a parallel phase defers (sm.c bypass_icnt_room) */
TEST(host_threads_identical_with_bypass)
{
    static const char *const byp[] = { "gms_l1d_bypass", "static", "gms_bypass_l", "2", NULL };
    extra_opts = byp;
    compare_opt("gtx480", "transpose", transpose_kv, "gms_host_threads", "2", 1);
    compare_opt("gtx480", "gather", gather_kv, "gms_host_threads", "2", 1);
    extra_opts = NULL;
}
/* MDB-global: the monitored SM's decision is read by every SM. Serially the SMs ticked after
 * the monitor would see it in the deciding cycle, on threads none would (the write is
 * deferred): a decision is in force from the next cycle for all (bypass_mdb.c publish) */
TEST(host_threads_identical_with_mdb_global)
{
    static const char *const mdb[] = { "gms_l1d_bypass", "mdb-global", "gms_mdb_period", "200",
                                       "gms_mdb_start", "bypass", NULL };
    extra_opts = mdb;
    compare_opt("gtx480", "gather", gather_kv, "gms_host_threads", "2", 1);
    compare_opt("gtx480", "transpose", transpose_kv, "gms_host_threads", "2", 1);
    extra_opts = NULL;
}
TEST(host_threads_identical_gtx480) { four_workloads("gtx480", "gms_host_threads", "2"); }

/* UVM translations go through the shared GMMU: such a run stays serial, identical results */
TEST(host_threads_uvm_stays_serial)
{
    static const char *const kv[] = { "n=16384", "uvm=1", NULL };
    compare("qv100", "stream", kv, 0);
}

TEST(host_pipeline_identical_qv100) { four_workloads("qv100", "gms_host_pipeline", "1"); }
TEST(host_pipeline_identical_gtx480) { four_workloads("gtx480", "gms_host_pipeline", "1"); }

/* other presets: a 28-SM Fermi with DL-MSHR geometry, the Maxwell baseline (different clock
 * ratios and partition counts) */
TEST(host_pipeline_identical_other_presets)
{
    compare_pipe("dlmshr-28sm", "gather", gather_kv, 1);
    compare_pipe("maxwell-sound-baseline", "stream", stream_kv, 1);
}

/* the UVM's GMMU migrates pages through the memory side: such a run stays serial */
TEST(host_pipeline_uvm_stays_serial)
{
    static const char *const kv[] = { "n=16384", "uvm=1", NULL };
    compare_pipe("qv100", "stream", kv, 0);
}

/* -gpgpu_max_cycle is checked between instants, which the worker runs ahead of: such a run
 * stays serial */
TEST(host_pipeline_cycle_limit_stays_serial)
{
    gms_run_stats a, b;
    uint64_t pa = 0, pb = 0, qa = 0, qb = 0;
    static const char *const kv[] = { "n=65536", NULL };
    CHECK_EQ(run2("qv100", "stream", kv, "gpgpu_max_cycle", "2000", "gms_host_pipeline", "0", &a, &pa, &qa), 0);
    setenv("GMS_HOST_THREADS_ALWAYS", "1", 1);
    CHECK_EQ(run2("qv100", "stream", kv, "gpgpu_max_cycle", "2000", "gms_host_pipeline", "1", &b, &pb, &qb), 0);
    unsetenv("GMS_HOST_THREADS_ALWAYS");
    CHECK(same_run(&a, &b));
    CHECK_EQ(qb, 0);
    gms_run_stats_free(&a);
    gms_run_stats_free(&b);
}

TEST(host_threads_option_range)
{
    gms_error err = {0};
    gms_params *p = gms_params_new();
    gms_params_set(p, "gms_host_threads", "9", &err);
    CHECK(gms_params_finalize(p, &err) != 0);
    CHECK_CONTAINS(err.msg, "gms_host_threads");
    gms_params_free(p);
    p = gms_params_new();
    err.msg[0] = 0;
    gms_params_set(p, "gms_host_threads", "0", &err);
    CHECK(gms_params_finalize(p, &err) != 0);
    gms_params_free(p);
}

/* Host memory: a short grid launched again and again lands on other SMs each time; the block
 * instruction buffers of the slots a finished kernel left idle are pooled and taken by the
 * next kernel's slots, so a run holds about as many as its blocks resident at once, not one
 * per slot any launch ever used (bench/trace_memory.sh: peak RSS against trace length) */
TEST(block_buffers_pooled_across_kernels)
{
    gms_params *p = gms_params_new();
    gms_error err = {0};
    REQUIRE(gms_params_load_file(p, "configs/qv100.config", &err) == 0 && gms_params_finalize(p, &err) == 0);
    const char *kv[] = { "n=512", "repeat=12", NULL };   /* 2 blocks of 256 threads, 12 launches */
    gms_workload_spec w = { "stream", NULL, kv, 1, NULL };
    gms_sim *s = gms_sim_new(p, &w, &err);
    REQUIRE(s != NULL);
    REQUIRE(gms_sim_run(s, &err) == 0);
    CHECK(gms_sim_block_buffers(s) >= 2);
    CHECK(gms_sim_block_buffers(s) <= 4);
    CHECK_EQ(gms_sim_stats(s)->nkernels, 12);
    gms_sim_free(s);
    gms_params_free(p);
}
