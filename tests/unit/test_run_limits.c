/* -gpgpu_max_cycle and -gpgpu_max_insn with GPGPU-Sim's meaning (gpgpu_sim::active()): the
 * run stops once gpu_tot_sim_cycle (kernel cycles: copies and gaps between kernels do not
 * count) reaches the cycle limit, exactly, or once gpu_tot_sim_insn (thread instructions)
 * reaches the instruction limit, within the instructions of the cycle that crossed it. Also
 * when modelled copies come before and between the kernels, with the host pipeline on and
 * off, with host threads, and under the UVM, whose far faults leave every component idle
 * (idle skipping must not jump over the limit). */
#include "test.h"
#include "config/params.h"
#include "core/gpu.h"
#include <stdlib.h>

/* runs wl on qv100 with kv and the options opts (name, value pairs, NULL-ended); the total
 * statistics go to out. 0 or -1. */
static int run_lim(const char *wl, const char *const *kv, const char *const *opts, gms_stats *out)
{
    gms_params *p = gms_params_new();
    gms_error err = {0};
    int rc = gms_params_load_file(p, "configs/qv100.config", &err);
    for (size_t i = 0; !rc && opts[i]; i += 2) rc = gms_params_set(p, opts[i], opts[i + 1], &err);
    if (!rc) rc = gms_params_finalize(p, &err);
    gms_sim *s = NULL;
    if (!rc) {
        gms_workload_spec w = { wl, NULL, kv, 1, NULL };
        s = gms_sim_new(p, &w, &err);
        rc = s ? gms_sim_run(s, &err) : -1;
    }
    if (rc) printf("    %s: %s\n", wl, err.msg);
    else {
        gms_stats_init(out);
        gms_stats_copy(out, &gms_sim_stats(s)->total);
    }
    gms_sim_free(s);
    gms_params_free(p);
    return rc;
}

static double stat(const gms_stats *s, const char *name)
{
    const gms_stat *v = gms_stats_find(s, name);
    if (!v) printf("    no statistic %s\n", name);
    return v ? v->value : -1.0;
}

/* stream copies its two inputs in before its one kernel (9087 kernel cycles unlimited, some
 * 190 000 core cycles of copies first): a 5000-cycle window is 5000 kernel cycles */
TEST(max_cycle_counts_kernel_cycles_not_copies)
{
    static const char *const kv[] = { "n=262144", NULL };
    static const char *const variants[][8] = {
        { "gpgpu_max_cycle", "5000", "gms_host_pipeline", "0", NULL },
        { "gpgpu_max_cycle", "5000", "gms_host_pipeline", "1", NULL },
        { "gpgpu_max_cycle", "5000", "gms_host_threads", "2", "gms_host_pipeline", "0", NULL },
        { "gpgpu_max_cycle", "5000", "gms_skip_idle", "0", NULL },
    };
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
        gms_stats st;
        if (run_lim("stream", kv, variants[v], &st)) { CHECK(0); continue; }
        CHECK_EQ(stat(&st, "gpu_tot_sim_cycle"), 5000);
        CHECK_EQ(stat(&st, "gms_completed"), 0);
        /* the copies ran before the window: far more core cycles elapsed */
        CHECK(stat(&st, "gms_elapsed_core_cycles") > 100000);
        gms_stats_free(&st);
    }
}

/* backprop at scale 0.25: kernel 1 runs 9864 cycles, then copies, then kernel 2 (10053): a
 * 15000-cycle window ends 5136 cycles into kernel 2; a window of exactly kernel 1 ends there */
TEST(max_cycle_spans_kernels_and_copies_between)
{
    static const char *const kv[] = { "scale=0.25", NULL };
    static const char *const o1[] = { "gpgpu_max_cycle", "15000", NULL };
    static const char *const o2[] = { "gpgpu_max_cycle", "9864", NULL };
    static const char *const o0[] = { NULL };
    gms_stats st;
    REQUIRE(run_lim("backprop", kv, o0, &st) == 0);
    CHECK_EQ(stat(&st, "gpu_tot_sim_cycle"), 19917);   /* the unlimited run these numbers are from */
    gms_stats_free(&st);
    REQUIRE(run_lim("backprop", kv, o1, &st) == 0);
    CHECK_EQ(stat(&st, "gpu_tot_sim_cycle"), 15000);
    CHECK_EQ(stat(&st, "gms_completed"), 0);
    gms_stats_free(&st);
    REQUIRE(run_lim("backprop", kv, o2, &st) == 0);
    CHECK_EQ(stat(&st, "gpu_tot_sim_cycle"), 9864);
    CHECK_EQ(stat(&st, "gms_completed"), 0);
    gms_stats_free(&st);
}

/* UVM: the kernel waits on far faults (PCIe transfers of tens of microseconds) with every SM
 * idle, so the engine skips ahead; the limit still holds exactly, at several points */
TEST(max_cycle_exact_across_idle_skips)
{
    static const char *const kv[] = { "n=65536", "uvm=1", NULL };
    static const char *const lims[] = { "1000", "33333", "250001" };
    for (size_t i = 0; i < 3; i++) {
        const char *opts[] = { "gpgpu_max_cycle", lims[i], NULL };
        gms_stats st;
        if (run_lim("stream", kv, opts, &st)) { CHECK(0); continue; }
        CHECK_EQ(stat(&st, "gpu_tot_sim_cycle"), (double)strtoull(lims[i], NULL, 10));
        CHECK_EQ(stat(&st, "gms_completed"), 0);
        gms_stats_free(&st);
    }
}

/* thread instructions, as GPGPU-Sim's gpu_max_insn_opt compares gpu_tot_sim_insn: the run
 * stops after the first cycle that reaches the limit, so it overshoots by less than one
 * cycle's instructions (80 SMs x 4 schedulers x 32 threads) */
TEST(max_insn_counts_thread_instructions)
{
    static const char *const kv[] = { "n=262144", NULL };
    static const char *const opts[] = { "gpgpu_max_insn", "1000000", NULL };
    gms_stats st;
    REQUIRE(run_lim("stream", kv, opts, &st) == 0);
    double ti = stat(&st, "gpu_tot_sim_insn");
    CHECK(ti >= 1000000);
    CHECK(ti < 1000000 + 80 * 4 * 32);
    CHECK_EQ(stat(&st, "gms_completed"), 0);
    gms_stats_free(&st);
}
