/* Reports over a result store: per-workload values of one metric (the run totals), each the
 * mean over the point's seeds, normalised to the baseline variant; geometric means per
 * variant over all workloads and over each workload group. A cell whose seeds are not all
 * done is never a number: "failed" if a seed failed, "-" if not run yet (or the baseline
 * cell is not available), "n/a" if the metric is absent or the baseline value is 0. */
#ifndef GMS_HARNESS_REPORT_H
#define GMS_HARNESS_REPORT_H
#include <stdio.h>
#include "harness/store.h"

typedef enum { GMS_CELL_OK, GMS_CELL_FAILED, GMS_CELL_MISSING, GMS_CELL_NA } gms_cell_state;

typedef struct gms_report_cell {
    gms_cell_state state;    /* of the absolute value */
    double value;            /* mean over seeds (state OK) */
    gms_cell_state nstate;   /* of the normalised value (also needs the baseline cell) */
    double norm;             /* value / baseline value (nstate OK) */
    int n_points, n_ok, n_failed;
} gms_report_cell;

typedef struct gms_report_gm {
    double value;            /* geometric mean over the workloads that have a value */
    int n_used, n_total;
} gms_report_gm;

typedef struct gms_report {
    char *metric, *baseline, *study;
    size_t nvariants, nworkloads, ngroups;
    char **variants;         /* plan order */
    char **workloads;        /* plan order */
    size_t *wl_group;        /* workload -> group index */
    char **groups;           /* "" = no group */
    size_t baseline_idx;     /* GMS_REPORT_NO_BASELINE: left out of this part of the study (--only);
                              * every normalised cell is then missing */
    gms_report_cell *cells;  /* [w * nvariants + v] */
    gms_report_gm *gm_norm;  /* [g * nvariants + v], g == ngroups: all workloads */
    gms_report_gm *gm_abs;
} gms_report;

#define GMS_REPORT_NO_BASELINE ((size_t)-1)

/* baseline NULL: the store's (the spec's) baseline. The spec's baseline, or another variant of
 * the store, that is not in its last plan (left out by --only) gives a report without
 * normalised values; a baseline that is no variant of the store is an error */
int gms_report_build(gms_store *st, const char *metric, const char *baseline, gms_report **out, gms_error *err);
void gms_report_free(gms_report *r);
/* absolute: values instead of normalised values */
void gms_report_write_md(const gms_report *r, int absolute, FILE *out);
void gms_report_write_csv(const gms_report *r, int absolute, FILE *out);
/* "1.234", "failed", "-", "n/a" */
void gms_report_cell_text(const gms_report_cell *c, int absolute, char *buf, size_t n);

/* series.c: a metric against a swept setting, for line plots */
typedef struct gms_series {
    char *name;              /* workload label, plus other differing settings */
    char *workload;          /* the workload label (NULL when x is a workload parameter) */
    size_t n;
    double *x, *y;           /* y NAN = no value; ystate says why */
    gms_cell_state *ystate;
} gms_series;
typedef struct gms_series_set {
    char *metric, *xname;
    int x_categorical;       /* x values are not numbers: xlabels[i] at x = i */
    char **xlabels; size_t nxlabels;
    gms_series *s; size_t n;
    size_t skipped;          /* points that do not set xname */
    char *normalised_to;     /* gms_series_normalise's baseline variant, else NULL */
} gms_series_set;
int gms_series_build(gms_store *st, const char *metric, const char *xname, gms_series_set **out, gms_error *err);
/* divide each series' values by its workload's value under variant `baseline` (mean over its
 * seeds); a point whose workload has no baseline value, or 0, becomes "n/a". x must be a
 * config setting (the series are then per workload). */
int gms_series_normalise(gms_store *st, gms_series_set *ss, const char *baseline, gms_error *err);
/* series_variants.c: STAT against the comma-separated variants (two or more, the x axis in that
 * order), one series per workload of the report and its geometric mean; normalised to the
 * report's baseline unless absolute */
int gms_series_from_report(const gms_report *r, const char *variants, int absolute, gms_series_set **out, gms_error *err);
void gms_series_free(gms_series_set *ss);
/* series_run.c: a statistic's series inside one run's text output (`name = value` lines, the last
 * value of a name counts): ypat with one '*' (the point) or two (the line, then the point), e.g.
 * gms_mdb_series[sm*][*]_L; x from xpat (the same stars) or, NULL, the point's index */
int gms_series_from_run(const char *path, const char *ypat, const char *xpat, gms_series_set **out, gms_error *err);

/* plot.c: gnuplot to .png or .svg (by extension) */
int gms_plot_bars(const gms_report *r, int absolute, const char *out_path, gms_error *err);
int gms_plot_lines(const gms_series_set *ss, const char *out_path, gms_error *err);
/* with the figure's own title (NULL: metric and baseline) and, for bars, only the variants of a
 * comma-separated list, in its order (NULL: all) */
int gms_plot_bars_opts(const gms_report *r, int absolute, const char *title, const char *variants,
                       const char *out_path, gms_error *err);
int gms_plot_lines_titled(const gms_series_set *ss, const char *title, const char *out_path, gms_error *err);

#endif
