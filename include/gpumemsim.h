/* libgpumemsim public API: a cycle-level simulator of the GPU memory system and of unified
 * virtual memory. A simulation is an object; several can live in one process. */
#ifndef GPUMEMSIM_H
#define GPUMEMSIM_H
#include <stdint.h>
#include <stdio.h>

#define GPUMEMSIM_VERSION "0.1.0"

typedef struct gms_error { char msg[1024]; int set; } gms_error;

typedef struct gms_params gms_params;     /* every option, decoded */
typedef struct gms_run_stats gms_run_stats; /* per-kernel and total counters */
typedef struct gms_sim gms_sim;

/* ---- configuration ---- */
gms_params *gms_params_new(void);                 /* all defaults */
void gms_params_free(gms_params *p);
/* a GPGPU-Sim style file: "-name value" lines, '#' comments, "-config other" includes */
int gms_params_load_file(gms_params *p, const char *path, gms_error *err);
int gms_params_set(gms_params *p, const char *name, const char *value, gms_error *err);
/* 1 if `name` (with or without leading '-') is an option gpumemsim knows */
int gms_params_has_option(const char *name);
/* ... or an option of GPGPU-Sim / Accel-Sim / UVMSmart that it accepts without modelling it */
int gms_params_accepts_option(const char *name);
/* after loading: decode packed strings, check geometry */
int gms_params_finalize(gms_params *p, gms_error *err);
void gms_params_dump(const gms_params *p, FILE *out);
/* GPGPU-Sim options gpumemsim does not model are recorded as ignored; with ignore_unknown set,
 * every other unknown option is too instead of failing */
void gms_params_set_ignore_unknown(gms_params *p, int on);
size_t gms_params_n_ignored(const gms_params *p);
const char *gms_params_ignored(const gms_params *p, size_t i);
const char *gms_params_ignored_name(const gms_params *p, size_t i);   /* "-name" alone */

/* ---- simulation ---- */
typedef struct gms_workload_spec {
    const char *workload;     /* built-in workload name, or NULL with trace set */
    const char *trace;        /* path to kernelslist.g, or NULL */
    const char *const *wl_params; /* "name=value" strings for the workload, NULL-terminated */
    uint64_t seed;
    /* internal: a host program built by the caller (struct gms_program_src *), for tests */
    const struct gms_program_src *program;
} gms_workload_spec;

gms_sim *gms_sim_new(const gms_params *p, const gms_workload_spec *w, gms_error *err);
/* runs to completion; returns 0, or non-zero with err set (bad input, watchdog) */
int gms_sim_run(gms_sim *s, gms_error *err);
const gms_run_stats *gms_sim_stats(const gms_sim *s);
/* whether the run allocated managed memory (a UVM run), so that its UVM options could act */
int gms_sim_used_managed(const gms_sim *s);
void gms_sim_free(gms_sim *s);
/* progress callback (called every ~N host ms), for the CLI progress line */
typedef void (*gms_progress_fn)(void *ud, const char *kernel, uint64_t cycles, uint64_t warp_insts);
void gms_sim_set_progress(gms_sim *s, gms_progress_fn fn, void *ud);
/* observers: fn gets the lane addresses and active mask of every global load/store in issue
 * order, alloc_fn every allocation (page logs) */
void gms_sim_set_observer(gms_sim *s, void (*fn)(void *ud, const uint64_t addrs[32], uint32_t mask),
                          void (*alloc_fn)(void *ud, uint64_t addr, uint64_t bytes, const char *name), void *ud);

/* ---- stats output ---- */
void gms_stats_write_text(const gms_run_stats *r, FILE *out);
void gms_stats_write_json(const gms_run_stats *r, FILE *out);
void gms_stats_write_csv(const gms_run_stats *r, FILE *out);
/* look up a total counter by name; returns 0 if found */
int gms_stats_total(const gms_run_stats *r, const char *name, double *value);

#endif
