/* -gms_host_threads: the active SMs of a core edge tick on several host threads, and every
 * statistic (totals and per kernel, engine counters included) is identical to one thread.
 * Built-in workloads on the qv100 and gtx480 presets at small sizes; the parallel path must
 * actually have been taken. Also: the serial fallback (UVM) and the option's range. */
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

/* runs `wl` with its parameters kv on preset cfg and `threads` host threads; the statistics
 * go to out (total and kernels), the parallel edges to *par. 0 or -1. */
static int run(const char *cfg, const char *wl, const char *const *kv, const char *threads, gms_run_stats *out,
               uint64_t *par)
{
    gms_params *p = gms_params_new();
    gms_error err = {0};
    char path[128];
    snprintf(path, sizeof path, "configs/%s.config", cfg);
    if (gms_params_load_file(p, path, &err) || gms_params_set(p, "gms_host_threads", threads, &err) ||
        gms_params_finalize(p, &err)) {
        printf("    %s\n", err.msg);
        gms_params_free(p);
        return -1;
    }
    gms_workload_spec w = { wl, NULL, kv, 1, NULL };
    gms_sim *s = gms_sim_new(p, &w, &err);
    int rc = s ? gms_sim_run(s, &err) : -1;
    if (rc) printf("    %s %s threads %s: %s\n", cfg, wl, threads, err.msg);
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
    }
    gms_sim_free(s);
    gms_params_free(p);
    return rc;
}

static void compare(const char *cfg, const char *wl, const char *const *kv, int expect_parallel)
{
    gms_run_stats a, b;
    uint64_t pa = 0, pb = 0;
    if (run(cfg, wl, kv, "1", &a, &pa)) { CHECK(0); return; }
    /* every edge that may tick in parallel does (no timing governor): the most coverage */
    setenv("GMS_HOST_THREADS_ALWAYS", "1", 1);
    int rc = run(cfg, wl, kv, "2", &b, &pb);
    unsetenv("GMS_HOST_THREADS_ALWAYS");
    if (rc) { CHECK(0); gms_run_stats_free(&a); return; }
    printf("    %s %s: %llu core edge(s) ticked on 2 threads\n", cfg, wl, (unsigned long long)pb);
    CHECK(same_run(&a, &b));
    CHECK_EQ(pa, 0);
    if (expect_parallel) CHECK(pb > 0);
    else CHECK_EQ(pb, 0);
    const gms_stat *w = gms_stats_find(&a.total, "gpgpu_n_tot_w_icount");
    CHECK(w && w->value > 0);
    gms_run_stats_free(&a);
    gms_run_stats_free(&b);
}

static const char *const stream_kv[] = { "n=65536", NULL };
static const char *const gather_kv[] = { "n=16384", NULL };
static const char *const transpose_kv[] = { "N=256", NULL };
static const char *const reduce_kv[] = { NULL };

TEST(host_threads_identical_qv100)
{
    compare("qv100", "stream", stream_kv, 1);
    compare("qv100", "gather", gather_kv, 1);
    compare("qv100", "transpose", transpose_kv, 1);
    if (!gms_test_quick()) compare("qv100", "reduce", reduce_kv, 1);
}

TEST(host_threads_identical_gtx480)
{
    compare("gtx480", "stream", stream_kv, 1);
    compare("gtx480", "gather", gather_kv, 1);
    compare("gtx480", "transpose", transpose_kv, 1);
    if (!gms_test_quick()) compare("gtx480", "reduce", reduce_kv, 1);
}

/* UVM translations go through the shared GMMU: such a run stays serial, identical results */
TEST(host_threads_uvm_stays_serial)
{
    static const char *const kv[] = { "n=16384", "uvm=1", NULL };
    compare("qv100", "stream", kv, 0);
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
