/* `gpumemsim repro`: a seed study as data (docs/repro.md). A study is a directory
 * repro/NAME/ with quick.sweep (reduced inputs), full.sweep (the seed's inputs and
 * configuration) and claims (claims.h). Running one is running its sweep with the store and
 * results moved to an output directory; reporting evaluates the claims against that store and
 * writes NAME-MODE.md with gnuplot figures beside it. */
#ifndef GMS_HARNESS_REPRO_H
#define GMS_HARNESS_REPRO_H
#include <stdio.h>
#include "harness/claims.h"
#include "harness/runner.h"

/* where the studies are: $GMS_REPRO_DIR, else repro/ beside the binary's directory
 * (build/gpumemsim -> repro/), else ./repro; malloc'd, NULL when none exists */
char *gms_repro_dir(const char *given);

typedef struct gms_repro_study {
    char *name, *dir;        /* repro/NAME */
    char *spec;              /* the mode's .sweep */
    char *claims_path;
    char *db, *results;      /* in the output directory */
    char *report_md;         /* OUT/NAME-MODE.md */
    char *out_dir, *mode;
    char *part;              /* the --only restrictions as text when a part is reported, else NULL */
} gms_repro_study;

int gms_repro_study_open(const char *repro_dir, const char *name, const char *mode, const char *out_dir,
                         gms_repro_study *s, gms_error *err);
void gms_repro_study_free(gms_repro_study *s);

/* prints one line per study: name, claims, runnable ones, title */
int gms_repro_list(const char *repro_dir, FILE *out, gms_error *err);

/* the claims file parses and names only variants, groups and workloads the study's quick or
 * full sweep has (claims_check.c): before anything runs */
int gms_repro_check_claims(const gms_repro_study *s, gms_error *err);
/* loads the mode's sweep spec with db/results redirected to the output directory */
int gms_repro_load_spec(const gms_repro_study *s, int check, gms_sweep_spec **out, gms_error *err);

/* evaluates the claims against the study's store, writes the Markdown report and figures;
 * prints the summary line "NAME: H of N claims hold, R not yet runnable" last on out.
 * *n_hold etc. may be NULL. */
int gms_repro_report(const gms_repro_study *s, FILE *out, int *n_hold, int *n_total, int *n_not_runnable,
                     gms_error *err);

/* the report of a claims file over an open store (used by gms_repro_report and the tests) */
int gms_repro_write_md(const gms_claims *cl, const gms_claim_result *res, const char *study, const char *mode,
                       const char *const *figs, const char *const *fig_errs, FILE *md);

#endif
