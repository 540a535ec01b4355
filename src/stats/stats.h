/* Counter sink. Components report into a gms_stats (an ordered list of name -> value);
 * a run keeps one per kernel (snapshot at kernel end) and one total. Names follow
 * GPGPU-Sim / UVMSmart where the meaning matches. */
#ifndef GMS_STATS_STATS_H
#define GMS_STATS_STATS_H
#include <stdint.h>
#include <stdio.h>
#include "gpumemsim.h"

typedef struct gms_stat {
    char *name;
    double value;
    int is_int;
} gms_stat;

typedef struct gms_stats {
    gms_stat *v;
    size_t n, cap;
    /* host speed: name -> index + 1 (0: empty slot), open addressing, built once a set has
     * more than a few names (a run's sets have hundreds, and each name is looked up on add) */
    uint32_t *hix;
    size_t hcap;
} gms_stats;

void gms_stats_init(gms_stats *s);
void gms_stats_free(gms_stats *s);
void gms_stats_copy(gms_stats *dst, const gms_stats *src);
void gms_stat_u64(gms_stats *s, const char *name, uint64_t v);
void gms_stat_f64(gms_stats *s, const char *name, double v);
void gms_stat_u64f(gms_stats *s, uint64_t v, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void gms_stat_f64f(gms_stats *s, double v, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
const gms_stat *gms_stats_find(const gms_stats *s, const char *name);

typedef struct gms_kernel_stats {
    char name[256];
    uint32_t uid;
    int stream;
    gms_stats st;
} gms_kernel_stats;

struct gms_run_stats {
    char workload[256];
    char config_digest[32];
    double core_mhz;         /* the core clock (UVMSmart's time lines in us) */
    gms_kernel_stats *kernels;
    size_t nkernels, capk;
    gms_stats total;
    gms_stats host;          /* wall time and rates: not simulated, differ between runs */
    char **unmodelled;       /* gms_unmodelled_options: options set but not modelled, by name */
    size_t nunmodelled;
    char *error;             /* a failed run's error (its statistics are partial), else NULL */
};

void gms_run_stats_init(gms_run_stats *r);
void gms_run_stats_free(gms_run_stats *r);
gms_kernel_stats *gms_run_stats_add_kernel(gms_run_stats *r, const char *name, uint32_t uid, int stream);
/* gpgpusim_log.c: the GPGPU-Sim log lines Accel-Sim's scripts parse (breakdowns under
 * GPGPU-Sim's names, L2_BW in GB/Sec, total dram reads/writes) for one kernel's block (prev:
 * the block before it, or NULL), and the closing gpgpu_simulation_time / _rate lines */
void gms_stats_write_gpgpusim_kernel(const gms_stats *s, const gms_stats *prev, FILE *out);
void gms_stats_write_gpgpusim_end(const gms_run_stats *r, FILE *out);
/* UVMSmart's end-of-run UVM lines in its formats (runs with managed memory only) */
void gms_stats_write_uvmsmart(const gms_run_stats *r, FILE *out);
/* replaces the gms_unmodelled_options list (names are copied) */
void gms_run_stats_set_unmodelled(gms_run_stats *r, const char *const *names, size_t n);

#endif
