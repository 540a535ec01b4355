/* One sweep point as a process and as a file.
 *
 * A point runs as its own `gpumemsim run` process:
 *   <bin> run --config <base> [--set opt=value]... --workload <w> [--set param=value]...
 *             --seed <n> --stats-json <tmp> --quiet
 * with stdout discarded and stderr captured. When it ends, its result (the run's stats JSON
 * embedded whole, exit status, error text from stderr, wall time, host, versions, digests)
 * is written to <results>/<id>.json by write-then-rename, so a killed or repeated attempt
 * never leaves a torn or half result: the file is either absent or complete, and a second
 * attempt replaces the first whole. While a point runs, <results>/<id>.running names the
 * host and pid running it. Temporary files live in <results>/tmp/<host>.<pid>/. */
#ifndef GMS_HARNESS_POINT_H
#define GMS_HARNESS_POINT_H
#include <sys/types.h>
#include "harness/spec.h"
#include "harness/json.h"

#define GMS_POINT_FORMAT "gpumemsim-sweep-point 1"

typedef enum { GMS_PT_PENDING, GMS_PT_RUNNING, GMS_PT_DONE, GMS_PT_FAILED } gms_pt_state;
const char *gms_pt_state_name(gms_pt_state s);

/* point_file.c */
char *gms_point_result_path(const gms_sweep_spec *s, const char *id);
char *gms_point_marker_path(const gms_sweep_spec *s, const char *id);
/* state from the files: a result file gives done/failed (its error text, if any, is copied
 * to why); else a marker naming a live process (or another host) gives running */
gms_pt_state gms_point_state(const gms_sweep_spec *s, const char *id, char *why, size_t nwhy);
/* reads and parses a result file; NULL with err set if absent or unreadable */
gms_json *gms_point_result_read(const char *path, gms_error *err);
/* writes text to dst through a temporary file in tmpdir, fsync and rename */
int gms_write_atomic(const char *tmpdir, const char *dst, const char *text, size_t len, gms_error *err);
/* creates <results> and <results>/tmp/<host>.<pid>, this process's temporary directory */
int gms_results_dirs(const gms_sweep_spec *s, gms_error *err);
char *gms_results_tmpdir(const gms_sweep_spec *s);
/* removes the temporary directories of dead processes of this host (a killed runner's
 * leftovers), and with remove_own this process's own directory if it is empty */
void gms_results_clean_tmp(const gms_sweep_spec *s, int remove_own);
/* removes running markers of this host's processes that are gone */
void gms_results_clean_markers(const gms_sweep_spec *s, const gms_sweep_plan *plan);

/* point_exec.c */
typedef struct gms_point_proc {
    const gms_sweep_point *pt;
    pid_t pid;
    double t0;               /* start, seconds since the epoch */
    char *stats_tmp, *err_tmp, *marker;
    char *command;           /* the command line, shell-quoted, for the record */
    char attempt[320];       /* host:pid:start-ns, unique per attempt */
    int timed_out;
} gms_point_proc;

/* the run command for a point (NULL-terminated, malloc'd strings; free with gms_argv_free) */
char **gms_point_argv(const gms_sweep_point *pt, const char *bin, const char *stats_json);
void gms_argv_free(char **argv);
/* forks and execs the run; the child dies with its parent (PR_SET_PDEATHSIG) */
int gms_point_start(const gms_sweep_spec *s, const gms_sweep_point *pt, const char *bin,
                    gms_point_proc *pp, gms_error *err);
/* after waitpid: writes the result file; *ok = 1 if the run succeeded. Frees pp's strings. */
int gms_point_finish(const gms_sweep_spec *s, gms_point_proc *pp, int wstatus, int *ok, gms_error *err);
/* drops an interrupted attempt: removes its temporary files and marker, writes no result */
void gms_point_abandon(gms_point_proc *pp);
/* runs one point to the end in this process (run-point); returns 0 when a result was recorded */
int gms_point_run_blocking(const gms_sweep_spec *s, const gms_sweep_point *pt, const char *bin,
                           int *ok, gms_error *err);

#endif
