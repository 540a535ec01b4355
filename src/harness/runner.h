/* Sweep runners: local (fork/exec, N at a time) and Slurm (an sbatch job array whose tasks
 * call `gpumemsim sweep run-point`), plus the status of a sweep. */
#ifndef GMS_HARNESS_RUNNER_H
#define GMS_HARNESS_RUNNER_H
#include <stdio.h>
#include "harness/spec.h"

typedef struct gms_run_opts {
    const char *bin;         /* the gpumemsim that runs each point (absolute path) */
    int jobs;                /* local: points at a time */
    int skip_failed;         /* leave points whose last attempt failed alone */
    int force;               /* run done points again too */
    /* slurm */
    const char *partition, *time, *mem, *account;
    int chunk, max_parallel;
    int wait;                /* --wait: poll until the array is done, then collect */
    double poll_s;           /* squeue poll interval */
    int dry_run;             /* write the script, do not submit */
    int no_check;            /* array tasks skip the simulator check of the spec too */
    /* what the runners tell the user to run next (NULL: the `sweep` commands on s->path):
     * again resumes an interrupted run, then follows a Slurm submission without --wait */
    const char *again, *then;
} gms_run_opts;

/* runner_local.c: 0 = every point run ok, 1 = some failed, 130 = interrupted, -1 = error */
int gms_sweep_run_local(const gms_sweep_spec *s, const gms_sweep_plan *plan, const gms_run_opts *o,
                        gms_error *err);

/* runner_slurm.c */
int gms_sweep_run_slurm(const gms_sweep_spec *s, const gms_sweep_plan *plan, const gms_run_opts *o,
                        gms_error *err);
/* one array task: runs points [index*chunk, index*chunk+chunk) of a list file of point ids
 * (or of the plan when list is NULL), skipping points already done unless force */
int gms_sweep_run_point(const gms_sweep_spec *s, const gms_sweep_plan *plan, const char *list,
                        long index, int chunk, const char *bin, int force, gms_error *err);
/* how many points of the plan are queued in Slurm jobs this sweep submitted (by id) */
size_t gms_slurm_queued(const gms_sweep_spec *s, const gms_sweep_plan *plan, unsigned char *queued);

/* status.c: prints done / running / failed / pending (verbose: each point not done) */
int gms_sweep_status(const gms_sweep_spec *s, const gms_sweep_plan *plan, int verbose, FILE *out,
                     gms_error *err);

#endif
