/* Slurm client helpers for the sweep harness (slurm_cmd.c). */
#ifndef GMS_HARNESS_SLURM_H
#define GMS_HARNESS_SLURM_H
#include <stddef.h>
#include "harness/spec.h"

/* runs argv (PATH search), stdout+stderr captured into *out (malloc'd), exit code in *status */
int gms_capture(char *const argv[], char **out, int *status, gms_error *err);
/* <results>/slurm/jobs */
char *gms_slurm_jobs_file(const gms_sweep_spec *s);

typedef struct gms_slurm_task { size_t job; long task; char state[32]; } gms_slurm_task;
/* array tasks of the given jobs that squeue still lists (pending, running, completing, ...) */
int gms_slurm_active(const char *const *jobids, size_t njobs, gms_slurm_task **tasks, size_t *ntasks, gms_error *err);

/* non-empty lines of a file (NULL if unreadable) */
char **gms_read_lines(const char *path, size_t *n);
void gms_lines_free(char **v, size_t n);

#endif
