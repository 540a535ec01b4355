/* A sweep study: the parsed spec (config variants, workloads, seeds, baseline, exclusions,
 * paths, Slurm defaults) and its plan (the cartesian product minus exclusions), where every
 * point has a stable id derived from what it runs. The text format is in docs/sweeps.md. */
#ifndef GMS_HARNESS_SPEC_H
#define GMS_HARNESS_SPEC_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "util/err.h"

typedef struct gms_kv { char *key, *val; } gms_kv;
typedef struct gms_kvlist { gms_kv *v; size_t n; } gms_kvlist;

void gms_kvlist_add(gms_kvlist *l, const char *key, const char *val);
/* replaces the value of an existing key, else appends */
void gms_kvlist_set(gms_kvlist *l, const char *key, const char *val);
void gms_kvlist_free(gms_kvlist *l);
const char *gms_kvlist_get(const gms_kvlist *l, const char *key);
/* a variant override "param.NAME=V" sets workload parameter NAME of every workload of the
 * study (e.g. uvm=1 against uvm=0), not a config option */
static inline int gms_sweep_is_param_key(const char *key) { return !strncmp(key, "param.", 6) && key[6]; }

typedef struct gms_sweep_variant {
    char *name;
    char *config;            /* base config file, resolved against the spec's directory */
    gms_kvlist sets;         /* effective overrides: the spec's `set` lines, then the variant's own */
    int line;                /* where it was defined */
    char digest[17];         /* content hash of the config file and its -config includes */
} gms_sweep_variant;

typedef struct gms_sweep_workload {
    char *label;             /* unique name in the study ("stream", "stream-big", ...) */
    char *name;              /* built-in workload name ("trace" for a trace) */
    char *trace;             /* an Accel-Sim kernelslist.g, resolved (trace lines), else NULL */
    char *trace_as_written;  /* the path as the spec gives it (in the point id) */
    char *group;             /* workload group for geometric means ("" = none) */
    gms_kvlist params;       /* workload parameters */
    int line;
} gms_sweep_workload;

typedef struct gms_sweep_exclude {
    char *variant, *workload; /* fnmatch patterns, NULL = any */
    int has_seed;
    uint64_t seed;
    int line;
} gms_sweep_exclude;

/* a command-line restriction (`--only KEY=GLOB[,GLOB...]`): the plan keeps only the points
 * whose variant name, workload label or workload group matches one of the globs */
typedef struct gms_sweep_only {
    char key;                /* 'v' variant, 'w' workload, 'g' group */
    char **globs; size_t n;
} gms_sweep_only;
#define GMS_SWEEP_MAX_ONLY 16   /* --only options a command line may give */

typedef struct gms_sweep_slurm {
    char *partition, *time, *mem, *account;
    int chunk;               /* points per array task (default 1) */
    int max_parallel;        /* array throttle %N (0 = none) */
} gms_sweep_slurm;

typedef struct gms_sweep_spec {
    char *path;              /* as given */
    char *dir;               /* its directory: relative paths in the spec start here */
    char *name;              /* file stem, names the study */
    char *db;                /* result store */
    char *results;           /* per-point result files */
    char *baseline;
    int baseline_line;
    double timeout;          /* seconds per point, 0 = none */
    int kernel_totals_only;  /* 'kernel_stats totals': result files keep each kernel's name, not its stats */
    gms_sweep_variant *variants; size_t nvariants;
    gms_sweep_workload *workloads; size_t nworkloads;
    uint64_t *seeds; size_t nseeds;
    gms_sweep_exclude *excludes; size_t nexcludes;
    gms_sweep_only *only; size_t nonly;
    gms_sweep_slurm slurm;
} gms_sweep_spec;

typedef struct gms_sweep_point {
    size_t index;            /* position in the plan */
    char id[17];             /* 16 hex digits */
    const gms_sweep_variant *variant;
    const gms_sweep_workload *workload;
    uint64_t seed;
} gms_sweep_point;

typedef struct gms_sweep_plan {
    gms_sweep_point *points;
    size_t n;
    size_t excluded;         /* product points removed by exclude lines */
    size_t left_out;         /* product points not excluded but outside the --only restrictions */
} gms_sweep_plan;

/* spec_parse.c: reads and checks the syntax; names in errors are file:line */
int gms_sweep_spec_parse(const char *path, gms_sweep_spec **out, gms_error *err);
/* parses text as if read from path (tests) */
int gms_sweep_spec_parse_text(const char *path, const char *text, gms_sweep_spec **out, gms_error *err);
void gms_sweep_spec_free(gms_sweep_spec *s);

/* spec_check.c: fills each variant's config digest; with ask_simulator, also checks that the
 * config files load, option names and values are known to the simulator linked into this
 * binary, and workloads and their parameters exist */
int gms_sweep_spec_check(gms_sweep_spec *s, int ask_simulator, gms_error *err);

/* parse + check */
int gms_sweep_spec_load(const char *path, int ask_simulator, gms_sweep_spec **out, gms_error *err);

/* plan.c */
/* adds a restriction "KEY=GLOB[,GLOB...]" (KEY variant, workload or group); every glob must
 * match a name the spec has (a typo is an error, not an empty plan). Restrictions with
 * different keys all apply; the globs of one restriction are alternatives. Exclude lines
 * are checked against the whole product, so a restriction never makes one "match no point". */
int gms_sweep_spec_add_only(gms_sweep_spec *s, const char *text, gms_error *err);
/* adds n of them (a command line's --only options), stopping at the first error */
int gms_sweep_spec_restrict(gms_sweep_spec *s, const char *const *only, int n, gms_error *err);
int gms_sweep_plan_build(const gms_sweep_spec *s, gms_sweep_plan *plan, gms_error *err);
void gms_sweep_plan_free(gms_sweep_plan *plan);
const gms_sweep_point *gms_sweep_plan_find(const gms_sweep_plan *plan, const char *id);
/* "variant / workload / seed N" for messages */
void gms_sweep_point_desc(const gms_sweep_point *pt, char *buf, size_t n);
/* canonical text that the point id hashes (exposed for tests and `sweep plan -v`) */
char *gms_sweep_point_canonical(const gms_sweep_point *pt);

#endif
