/* The DRAM's per-cycle counters count kernel time only, as GPGPU-Sim's (its DRAM is clocked
 * only while a kernel runs; copies take no cycles there). The reference vecadd trace (QV100:
 * 32 HBM channels at 850 MHz, core 1132 MHz, BL 2 at a command ratio of 2: one data-bus cycle
 * per column command) alone, and with an 8 MB MemcpyHtoD before it and a MemcpyDtoH after:
 *  - n_cmd of each channel = the DRAM cycles of the kernel = gpu_tot_sim_cycle x 850/1132
 *    (to one cycle: the two clocks' edges do not line up);
 *  - bw_util x n_cmd (summed over the channels) = the column commands x 1 data-bus cycle;
 *  - with the copies, which take far longer than the kernel, bw_util stays that of the kernel
 *    (it was ~0.3 % before: the copy phases' idle cycles counted). */
#include "test.h"
#include "config/params.h"
#include "core/gpu.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static double stat(const gms_stats *s, const char *name)
{
    const gms_stat *v = gms_stats_find(s, name);
    if (!v) printf("    no statistic %s\n", name);
    return v ? v->value : -1.0;
}

/* runs the kernelslist `list` with the vecadd reference configs in `ref` and then the options
 * in `extra` (config text, may be NULL); total stats to out */
static int run_vecadd_with(const char *ref, const char *list, const char *extra, gms_stats *out)
{
    char c1[600], c2[600];
    snprintf(c1, sizeof c1, "%s/gpgpusim.config", ref);
    snprintf(c2, sizeof c2, "%s/trace.config", ref);
    gms_params *p = gms_params_new();
    gms_error err = {0};
    gms_params_set_ignore_unknown(p, 1);
    int rc = gms_params_load_file(p, c1, &err) || gms_params_load_file(p, c2, &err) ||
             (extra && gms_params_load_text(p, "extra.config", extra, strlen(extra), &err)) ||
             gms_params_finalize(p, &err);
    gms_sim *s = NULL;
    if (!rc) {
        gms_workload_spec w = { NULL, list, NULL, 1, NULL };
        s = gms_sim_new(p, &w, &err);
        rc = s ? gms_sim_run(s, &err) : -1;
    }
    if (rc) printf("    %s: %s\n", list, err.msg);
    else {
        gms_stats_init(out);
        gms_stats_copy(out, &gms_sim_stats(s)->total);
    }
    gms_sim_free(s);
    gms_params_free(p);
    return rc ? -1 : 0;
}

static int run_vecadd(const char *ref, const char *list, gms_stats *out) { return run_vecadd_with(ref, list, NULL, out); }

static void check_kernel_time(const gms_stats *st)
{
    double kc = stat(st, "gpu_tot_sim_cycle");
    for (int c = 0; c < 32; c++) {
        char n[32];
        snprintf(n, sizeof n, "DRAM[%d].n_cmd", c);
        CHECK_NEAR(stat(st, n), kc * 850.0 / 1132.0, 1.0);
    }
    double cols = stat(st, "n_rd") + stat(st, "n_rd_L2_A") + stat(st, "n_write") + stat(st, "n_wr_bk");
    CHECK(cols > 0);
    /* bw_util is the mean over channels of bwutil / n_cmd, and every channel counts the same
     * cycles: bw_util x (sum of n_cmd) = the data-bus cycles = the column commands */
    CHECK_NEAR(stat(st, "bw_util") * stat(st, "n_cmd"), cols, 1e-6 * cols);
}

TEST(dram_bw_util_over_kernel_cycles_not_copies)
{
    char ref[512], dir[] = "/tmp/gms_dram_kt_XXXXXX", trace[600], link[600], real[4096];
    snprintf(ref, sizeof ref, "%s/reference/accelsim/vecadd", gms_test_shared_dir());
    snprintf(trace, sizeof trace, "%s/kernel-1.traceg.xz", ref);
    if (!realpath(trace, real)) SKIP_OR_FAIL_IN_CI("no reference trace %s", trace);
    REQUIRE(mkdtemp(dir) != NULL);
    snprintf(link, sizeof link, "%s/kernel-1.traceg.xz", dir);
    REQUIRE(symlink(real, link) == 0);
    char plain[640], copies[640];
    snprintf(plain, sizeof plain, "%s/plain.g", dir);
    snprintf(copies, sizeof copies, "%s/copies.g", dir);
    FILE *f = fopen(plain, "w");
    REQUIRE(f != NULL);
    fprintf(f, "kernel-1.traceg.xz\n");
    fclose(f);
    f = fopen(copies, "w");
    REQUIRE(f != NULL);
    fprintf(f, "MemcpyHtoD,0x00007f0000000000,8388608\nkernel-1.traceg.xz\nMemcpyDtoH,0x00007f0000000000,8388608\n");
    fclose(f);

    gms_stats a, b;
    /* copies timed over PCIe (UVMSmart's cudaMemcpy; a trace's copies are instant by default) */
    int ra = run_vecadd(ref, plain, &a), rb = run_vecadd_with(ref, copies, "-gms_trace_memcpy pcie\n", &b);
    unlink(link);
    unlink(plain);
    unlink(copies);
    rmdir(dir);
    REQUIRE(ra == 0 && rb == 0);
    check_kernel_time(&a);
    check_kernel_time(&b);
    /* the copies took far longer than the kernel, and left its DRAM statistics alone */
    CHECK(stat(&b, "gms_elapsed_core_cycles") > 10 * stat(&b, "gpu_tot_sim_cycle"));
    CHECK_EQ(stat(&b, "n_rd"), stat(&a, "n_rd"));
    CHECK_REL(stat(&b, "bw_util"), stat(&a, "bw_util"), 0.01);
    CHECK(stat(&b, "bw_util") > 0.2);
    printf("    bw_util %.4f alone, %.4f with the copies (n_cmd %.0f, %.0f)\n", stat(&a, "bw_util"),
           stat(&b, "bw_util"), stat(&a, "n_cmd"), stat(&b, "n_cmd"));
    gms_stats_free(&a);
    gms_stats_free(&b);
}

/* a kernelslist with the given text beside a link to the reference vecadd trace: run with the
 * options `extra`; 0 and the total stats in out */
static int run_list(const char *ref, const char *text, const char *extra, gms_stats *out)
{
    char dir[] = "/tmp/gms_memcpy_XXXXXX", trace[600], link[600], real[4096], list[640];
    snprintf(trace, sizeof trace, "%s/kernel-1.traceg.xz", ref);
    if (!realpath(trace, real) || !mkdtemp(dir)) return -1;
    snprintf(link, sizeof link, "%s/kernel-1.traceg.xz", dir);
    snprintf(list, sizeof list, "%s/k.g", dir);
    FILE *f = symlink(real, link) == 0 ? fopen(list, "w") : NULL;
    int rc = -1;
    if (f) {
        fputs(text, f);
        fclose(f);
        rc = run_vecadd_with(ref, list, extra, out);
    }
    unlink(link);
    unlink(list);
    rmdir(dir);
    return rc;
}

/* the reference vecadd directory in ref; 1 if its trace is there */
static int vecadd_ref(char *ref, size_t cap)
{
    char trace[600], real[4096];
    snprintf(ref, cap, "%s/reference/accelsim/vecadd", gms_test_shared_dir());
    snprintf(trace, sizeof trace, "%s/kernel-1.traceg.xz", ref);
    return realpath(trace, real) != NULL;
}

/* Accel-Sim's trace driver applies a MemcpyHtoD at once (gpgpu_sim::perf_memcpy_to_gpu: no
 * cycle passes), so a trace's kernel runs exactly as without its copies: every statistic but
 * the copy counters equal. vecadd reads A (0x7f0000000000) and B (+2 MiB), 2 MiB each, and
 * writes C (+4 MiB). */
TEST(trace_copies_instant_as_accelsim)
{
    char ref[512];
    if (!vecadd_ref(ref, sizeof ref)) SKIP_OR_FAIL_IN_CI("no reference trace in %s", ref);
    gms_stats a, b;
    REQUIRE(run_list(ref, "kernel-1.traceg.xz\n", NULL, &a) == 0);
    REQUIRE(run_list(ref, "MemcpyHtoD,0x00007f0000000000,2097152\nMemcpyHtoD,0x00007f0000200000,2097152\n"
                          "kernel-1.traceg.xz\nMemcpyDtoH,0x00007f0000400000,2097152\n", NULL, &b) == 0);
    static const char *const same[] = { "gpu_tot_sim_cycle", "gms_elapsed_core_cycles", "L2_total_cache_misses",
                                        "L1D_total_cache_reservation_fails", "dram_reads", "n_cmd", "averagemflatency" };
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) CHECK_EQ(stat(&b, same[i]), stat(&a, same[i]));
    CHECK_EQ(stat(&a, "gms_copies_instant"), 0);
    CHECK_EQ(stat(&b, "gms_copies_instant"), 3);   /* the MemcpyDtoH too, ignored */
    CHECK_EQ(stat(&b, "Tot_memcpy_time"), 0);
    /* the preset's -gpgpu_perf_sim_memcpy 1 filled 2 x 2 MiB / 32 B sectors: at the addresses' low
     * 32 bits (GPGPU-Sim's `unsigned`), lines vecadd never touches */
    CHECK_EQ(stat(&b, "gms_memcpy_l2_sectors"), 131072);
    CHECK_EQ(stat(&a, "L2_total_cache_misses"), 98304);   /* 65,536 read + 32,768 write sectors */
    gms_stats_free(&a);
    gms_stats_free(&b);
}

/* -gms_perf_memcpy_addr full: the copied data's own sectors are filled, so every read of A and
 * B hits the L2 (4 MiB in the 6 MiB L2) and only C's 32,768 written sectors miss; no DRAM read */
TEST(perf_sim_memcpy_full_addresses_fill_the_l2)
{
    char ref[512];
    if (!vecadd_ref(ref, sizeof ref)) SKIP_OR_FAIL_IN_CI("no reference trace in %s", ref);
    gms_stats b, off;
    const char *list = "MemcpyHtoD,0x00007f0000000000,2097152\nMemcpyHtoD,0x00007f0000200000,2097152\nkernel-1.traceg.xz\n";
    REQUIRE(run_list(ref, list, "-gms_perf_memcpy_addr full\n", &b) == 0);
    REQUIRE(run_list(ref, list, "-gms_perf_memcpy_addr full\n-gpgpu_perf_sim_memcpy 0\n", &off) == 0);
    CHECK_EQ(stat(&b, "L2_total_cache_accesses"), 98304);
    CHECK_EQ(stat(&b, "L2_total_cache_misses"), 32768);
    CHECK_EQ(stat(&b, "dram_reads"), 0);
    CHECK(stat(&b, "gpu_tot_sim_cycle") < stat(&off, "gpu_tot_sim_cycle"));
    CHECK_EQ(stat(&off, "L2_total_cache_misses"), 98304);
    CHECK_EQ(stat(&off, "gms_memcpy_l2_sectors"), 0);
    gms_stats_free(&b);
    gms_stats_free(&off);
}
