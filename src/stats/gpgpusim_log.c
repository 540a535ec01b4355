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
    /* GPGPU-Sim's totalbankreads / totalbankwrites (memory_stats_t::memlatstat_dram_access,
     * called by dram_t::push for every request entering a DRAM scheduler): the request's
     * data size / dram_atom_size in integer division, reads (the L2's write-allocate reads
     * among them) and writes, counted by the channels as they take a request
     * (gms_dram_bank_reads / gms_dram_bank_writes; docs/counters.md) */
    fprintf(out, "total dram reads = %.0f\n", val(s, "gms_dram_bank_reads"));
    fprintf(out, "total dram writes = %.0f\n", val(s, "gms_dram_bank_writes"));
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
    /* how many times slower than the simulated GPU's core clock */
    double cps = val(&r->total, "gpu_tot_sim_cycle") / d;
    if (r->core_mhz > 0 && cps > 0) fprintf(out, "gpgpu_silicon_slowdown = %.0fx\n", r->core_mhz * 1e6 / cps);
}

/* UVMSmart's end-of-run lines (gpgpu_new_stats::print and the Tot_*_time lines of its
 * gpu-sim.cc), in its formats, from our counters of the same names (docs/uvm.md section 3a):
 * its scripts read e.g. '^Tot_kernel_exec_time_and_fault_time.*' between ', ' and '(us)',
 * 'Pcie_read_utilization.*' after ': ', '^Page_validate.*' by split()[3] and [5]. Written
 * when the run has managed memory. The per-shader and per-page lines are not. */
void gms_stats_write_uvmsmart(const gms_run_stats *r, FILE *out)
{
    const gms_stats *t = &r->total;
    if (!(val(t, "Uvm_footprint_bytes") > 0)) return;
    double mhz = r->core_mhz > 0 ? r->core_mhz : 1;
    fprintf(out, "========================================UVM statistics==============================\n");
    fprintf(out, "Tlb_tot_access: %.0f Tlb_tot_hit: %.0f, Tlb_tot_miss: %.0f, Tlb_tot_hit_rate: %f\n",
            val(t, "Tlb_tot_access"), val(t, "Tlb_tot_hit"), val(t, "Tlb_tot_miss"), val(t, "Tlb_tot_hit_rate"));
    fprintf(out, "Tlb_tot_valiate: %.0f Tlb_invalidate: %.0f, Tlb_tot_evict: %.0f, Tlb_tot_evict page: %.0f\n",
            val(t, "Tlb_tot_valiate"), val(t, "Tlb_invalidate"), val(t, "Tlb_tot_evict"), val(t, "Tlb_tot_evict_page"));
    fprintf(out, "Tlb_tot_thrash: %.0f\n", val(t, "Tlb_tot_thrash"));
    fprintf(out, "Page_table_tot_access: %.0f Page_tot_hit: %.0f, Page_tot_miss %.0f, Page_tot_hit_rate: %f "
            "Page_tot_fault: %.0f Page_tot_pending: %.0f\n", val(t, "Page_table_tot_access"), val(t, "Page_tot_hit"),
            val(t, "Page_tot_miss"), val(t, "Page_tot_hit_rate"), val(t, "Page_tot_fault"), val(t, "Page_tot_pending"));
    fprintf(out, "Total_memory_access_page_fault: %.0f, Average_latency: %f\n", val(t, "Total_memory_access_page_fault"),
            val(t, "Average_latency"));
    fprintf(out, "Page_validate: %.0f Page_evict_dirty: %.0f Page_evict_not_dirty: %.0f\n", val(t, "Page_validate"),
            val(t, "Page_evict_dirty"), val(t, "Page_evict_not_dirty"));
    fprintf(out, "Page_tot_thrash: %.0f\n", val(t, "Page_tot_thrash"));
    fprintf(out, "Tot_page_hit: %.0f, Tot_page_miss: %.0f, Tot_page_fault: %.0f\n", val(t, "Tot_page_hit"),
            val(t, "Tot_page_miss"), val(t, "Tot_page_fault"));
    fprintf(out, "Avg_page_latency: %f, Avg_prefetch_size: %f, Avg_prefetch_latency: %f\n", val(t, "Avg_page_latency"),
            val(t, "Avg_prefetch_size"), val(t, "Avg_prefetch_latency"));
    fprintf(out, "dma_read: %.0f\ndma_migration_read %.0f\ndma_migration_write %.0f\n", val(t, "dma_read"),
            val(t, "dma_migration_read"), val(t, "dma_migration_write"));
    fprintf(out, "Pcie_read_utilization: %f\nPcie_write_utilization: %f\n", val(t, "Pcie_read_utilization"),
            val(t, "Pcie_write_utilization"));
    static const char *const times[] = { "Tot_prefetch_time", "Tot_kernel_exec_time", "Tot_kernel_exec_time_and_fault_time",
                                         "Tot_memcpy_h2d_time", "Tot_memcpy_d2h_time", "Tot_memcpy_time", "Tot_dma_time" };
    for (size_t i = 0; i < N(times); i++) {
        const gms_stat *x = gms_stats_find(t, times[i]);
        if (x) fprintf(out, "%s: %.0f(cycle), %f(us)\n", times[i], x->value, x->value / mhz);
    }
}
