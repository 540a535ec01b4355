/* GPGPU-Sim's per-window memory latency average (mem_latency_stat.cc, memory_stats_t):
 * memlatstat_done adds every reply's latency to a window sum (mf_tot_lat_pw, mf_num_lat_pw);
 * memlatstat_lat_pw folds the window into the totals (mf_total_lat, num_mfs) that
 * averagemflatency = mf_total_lat / num_mfs and avg_icnt2mem_latency = tot_icnt2mem_latency /
 * num_mfs divide, and is called (gpu-sim.cc) in gpgpu_sim::cycle at the end of every core cycle
 * whose gpu_sim_cycle (kernel cycles since the last update_stats) is a multiple of
 * gpu_stat_sample_freq (the first field of -gpgpu_runtime_stat), and by update_stats, which
 * Accel-Sim's main loop calls after a kernel's print_stats and which sets gpu_sim_cycle back
 * to 0. memlatstat_print writes neither line while num_mfs is 0.
 *
 * Here the window is the difference of the running sums (the SMs' c->mem_lat_sum, ..._n) from
 * their values at the last fold, so a fold is a snapshot. */
#ifndef GMS_STATS_MEMLAT_H
#define GMS_STATS_MEMLAT_H
#include <stdint.h>
#include "stats/stats.h"

typedef struct gms_memlat {
    uint64_t freq;           /* gpu_stat_sample_freq (>= 1) */
    uint64_t next;           /* the next window end, in gpu_sim_cycle */
    uint64_t lat_sum, n;     /* folded: mf_total_lat, num_mfs (running sums at the last fold) */
} gms_memlat;

/* -gpgpu_runtime_stat's text ("FREQ[:FLAGS]", GPGPU-Sim's gpgpu_sim_config::init reads it
 * with sscanf "%d:%x"): FREQ, or 0 when the text is not a decimal FREQ from 1 to 2^31 - 1
 * with optional hex FLAGS (an error for the caller: GPGPU-Sim divides by FREQ) */
uint64_t gms_memlat_parse_freq(const char *runtime_stat);
void gms_memlat_init(gms_memlat *m, uint64_t freq);
/* the end of a core cycle whose gpu_sim_cycle is gsc, with the replies' running sums: folds
 * if gsc reached the next window end (a multiple of freq); 1 if it folded */
int gms_memlat_cycle(gms_memlat *m, uint64_t gsc, uint64_t lat_sum, uint64_t n);
/* update_stats: folds what is left and starts the windows again (gpu_sim_cycle = 0) */
void gms_memlat_update(gms_memlat *m, uint64_t lat_sum, uint64_t n);
/* averagemflatency and avg_icnt2mem_latency (icnt2mem_sum: every SM request's arrival at the
 * memory side so far, GPGPU-Sim's tot_icnt2mem_latency, which no window holds back), written
 * only when a window was folded, as memlatstat_print */
void gms_memlat_report(const gms_memlat *m, uint64_t icnt2mem_sum, gms_stats *out);

#endif
