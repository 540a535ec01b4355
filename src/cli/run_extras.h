/* The page-access log of a run (--page-log FILE), fed by the simulator's observers; drawn
 * by `gpumemsim plot pages --log FILE`. */
#ifndef GMS_CLI_RUN_EXTRAS_H
#define GMS_CLI_RUN_EXTRAS_H
#include "gpumemsim.h"

struct gms_pagelog;
typedef struct gms_run_extras { struct gms_pagelog *log; } gms_run_extras;

/* returns 0, or -1 with err (cannot create the file) */
int gms_run_extras_attach(gms_run_extras *x, gms_sim *s, const char *page_log, gms_error *err);
int gms_run_extras_finish(gms_run_extras *x, gms_error *err);
/* --page-log with --no-timing: there is no timed run to observe, so the log comes from a
 * functional walk of the workload (gms_workload_walk: warps of resident blocks interleaved
 * round-robin, as `gpumemsim plot pages --workload` draws). *accesses = records written.
 * 0, or -1 with err (file, or the workload's own error) */
int gms_run_extras_walk(const char *page_log, const char *workload, const char *const *kv, uint64_t seed,
                        uint64_t *accesses, gms_error *err);

#endif
