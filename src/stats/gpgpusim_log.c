/* The lines of a GPGPU-Sim / Accel-Sim log that scripts parse but whose names or layout differ
 * from our "name = value" counters (spec interop.md 1.4; Accel-Sim's
 * util/job_launching/stats/example_stats.yml matches them with regexes such as
 * '\s+L2_cache_stats_breakdown\[GLOBAL_ACC_R\]\[HIT\]\s*=\s*(.*)', 'L2_BW\s*=\s*(.*)+GB\/Sec',
 * 'total dram reads\s*=\s*(.*)' and 'gpgpu_simulation_time\s*=.*\(([0-9]+) sec\).*'), written
 * from the counters already in a kernel's set, in GPGPU-Sim's layout (gpu-sim.cc
 * gpu_print_stat, cache_stats::print_stats / print_fail_stats): a tab before each breakdown
 * line, every access type and outcome including zeros, TOTAL_ACCESS and fail reasons only when
 * non-zero. Our breakdowns are the L1D's (GPGPU-Sim's Total_core_cache_stats also sums the
 * instruction, constant and texture caches, which are not modelled: their rows are 0). */
#include "stats/stats.h"
#include <math.h>
#include <string.h>

static const char *const acc_types[] = { "GLOBAL_ACC_R", "LOCAL_ACC_R", "CONST_ACC_R", "TEXTURE_ACC_R",
                                         "GLOBAL_ACC_W", "LOCAL_ACC_W", "L1_WRBK_ACC", "L2_WRBK_ACC",
                                         "INST_ACC_R", "L1_WR_ALLOC_R", "L2_WR_ALLOC_R" };
static const char *const outcomes[] = { "HIT", "HIT_RESERVED", "MISS", "RESERVATION_FAIL", "SECTOR_MISS", "MSHR_HIT" };
static const char *const fails[] = { "LINE_ALLOC_FAIL", "MISS_QUEUE_FULL", "MSHR_ENRTY_FAIL", "MSHR_MERGE_ENRTY_FAIL",
                                     "MSHR_RW_PENDING" };
#define N(a) (sizeof a / sizeof a[0])

static double val(const gms_stats *s, const char *name)
{
    const gms_stat *x = s ? gms_stats_find(s, name) : NULL;
    return x ? x->value : 0;
}

static double valf(const gms_stats *s, const char *ours, const char *t, const char *o)
{
    char name[128];
    snprintf(name, sizeof name, "%s[%s][%s]", ours, t, o);
    return val(s, name);
}

/* ours: L1D or L2; theirs: GPGPU-Sim's breakdown name; fail_theirs: its fail breakdown */
static void breakdown(const gms_stats *s, const char *ours, const char *theirs, const char *fail_header,
                      const char *fail_theirs, FILE *out)
{
    char b[64], f[64];
    snprintf(b, sizeof b, "%s_breakdown", ours);
    snprintf(f, sizeof f, "%s_fail_breakdown", ours);
    for (size_t t = 0; t < N(acc_types); t++)
        for (size_t o = 0; o < N(outcomes); o++)
            fprintf(out, "\t%s[%s][%s] = %.0f\n", theirs, acc_types[t], outcomes[o], valf(s, b, acc_types[t], outcomes[o]));
    for (size_t t = 0; t < N(acc_types); t++) {
        double v = valf(s, b, acc_types[t], "TOTAL_ACCESS");
        if (v > 0) fprintf(out, "\t%s[%s][TOTAL_ACCESS] = %.0f\n", theirs, acc_types[t], v);
    }
    if (!strcmp(ours, "L1D")) fputc('\n', out);
    fprintf(out, "%s\n", fail_header);
    for (size_t t = 0; t < N(acc_types); t++)
        for (size_t r = 0; r < N(fails); r++) {
            double v = valf(s, f, acc_types[t], fails[r]);
            if (v > 0) fprintf(out, "\t%s[%s][%s] = %.0f\n", fail_theirs, acc_types[t], fails[r], v);
        }
}

void gms_stats_write_gpgpusim_kernel(const gms_stats *s, const gms_stats *prev, FILE *out)
{
    /* L2_BW is this kernel's: GPGPU-Sim's replies x 32 B over this kernel's cycles; ours is the
     * cumulative L2_BW_total, so this kernel's bytes are the difference of two of them */
    double t = val(s, "gpu_tot_sim_cycle"), c = val(s, "gpu_sim_cycle");
    double tp = prev ? val(prev, "gpu_tot_sim_cycle") : 0;
    double bw = c > 0 ? (val(s, "L2_BW_total") * t - (prev ? val(prev, "L2_BW_total") * tp : 0)) / c : 0;
    fprintf(out, "L2_BW  = %12.4f GB/Sec\n", isfinite(bw) && bw > 0 ? bw : 0.0);
    fprintf(out, "total dram reads = %.0f\n", val(s, "dram_reads"));
    fprintf(out, "total dram writes = %.0f\n", val(s, "dram_writes"));
    fprintf(out, "Total_core_cache_stats:\n");
    breakdown(s, "L1D", "Total_core_cache_stats_breakdown", "Total_core_cache_fail_stats:",
              "Total_core_cache_fail_stats_breakdown", out);
    fprintf(out, "L2_total_cache_breakdown:\n");
    breakdown(s, "L2", "L2_cache_stats_breakdown", "L2_total_cache_reservation_fail_breakdown:",
              "L2_cache_stats_fail_breakdown", out);
}

void gms_stats_write_gpgpusim_end(const gms_run_stats *r, FILE *out)
{
    const gms_stat *w = gms_stats_find(&r->host, "gms_wall_seconds");
    if (!w) return;
    double secs = w->value;
    unsigned long long whole = (unsigned long long)secs;
    fprintf(out, "gpgpu_simulation_time = %llu days, %llu hrs, %llu min, %llu sec (%llu sec)\n", whole / 86400,
            whole / 3600 % 24, whole / 60 % 60, whole % 60, whole);
    /* GPGPU-Sim divides by whole seconds (at least 1); ours by the measured time */
    double d = secs > 0 ? secs : 1;
    fprintf(out, "gpgpu_simulation_rate = %.0f (inst/sec)\n", val(&r->total, "gpu_tot_sim_insn") / d);
    fprintf(out, "gpgpu_simulation_rate = %.0f (cycle/sec)\n", val(&r->total, "gpu_tot_sim_cycle") / d);
}
