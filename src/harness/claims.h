/* A study's claims file (docs/repro.md): the seed's checkable claims, each with the metric
 * that measures it as an expression over a sweep's stored statistics and what "holds" means
 * (a direction, an ordering or a range, written as a comparison chain). Parsing checks the
 * whole file (file:line errors); evaluation reads a result store (report.h) and gives each
 * claim a verdict. A claim that names what is missing (`needs`) is "not yet runnable". */
#ifndef GMS_HARNESS_CLAIMS_H
#define GMS_HARNESS_CLAIMS_H
#include <stdio.h>
#include "harness/store.h"

typedef struct gms_cexpr gms_cexpr;   /* an arithmetic expression (claims_expr.c) */

typedef struct gms_claim_metric {
    char *name;              /* "m" when the claim's only metric is unnamed */
    char *text;              /* the expression as written */
    gms_cexpr *expr;
} gms_claim_metric;

typedef enum { GMS_CMP_LT, GMS_CMP_LE, GMS_CMP_GT, GMS_CMP_GE } gms_cmp;

/* one `holds` line: e[0] cmps[0] e[1] cmps[1] e[2] ... (every adjacent pair must compare true) */
typedef struct gms_claim_chain { gms_cexpr **e; gms_cmp *cmps; size_t n; } gms_claim_chain;

typedef struct gms_claim {
    char *id;                /* as in ../shared/spec, e.g. C3.9 */
    char *says;              /* the seed's statement */
    char *paper;             /* the seed's number(s), as text */
    char *needs;             /* non-NULL: not yet runnable, and what is missing */
    char *note;              /* why ours may differ */
    char *holds_text;        /* the holds lines as written, joined by "; " */
    gms_claim_metric *metrics; size_t nmetrics;
    gms_claim_chain *holds; size_t nholds;   /* the claim holds when every line holds */
    int line;
} gms_claim;

typedef enum { GMS_FIG_BARS, GMS_FIG_LINES } gms_fig_kind;
typedef struct gms_claim_figure {
    gms_fig_kind kind;
    char *stat, *baseline, *x, *title;   /* baseline: bars (NULL = the study's); x: lines */
    char *variants;          /* bars: the comma-separated variants drawn, in order (NULL = all) */
    int absolute;
    int line;
} gms_claim_figure;

typedef struct gms_claims {
    char *path;
    char *title, *source;
    gms_claim *claims; size_t n;
    gms_claim_figure *figs; size_t nfigs;
} gms_claims;

int gms_claims_parse_text(const char *path, const char *text, gms_claims **out, gms_error *err);
int gms_claims_parse(const char *path, gms_claims **out, gms_error *err);
void gms_claims_free(gms_claims *c);

typedef enum { GMS_VERDICT_HOLDS, GMS_VERDICT_FAILS, GMS_VERDICT_NO_DATA, GMS_VERDICT_NOT_RUNNABLE } gms_verdict;

typedef struct gms_claim_result {
    gms_verdict verdict;
    double *values;          /* one per metric (NAN = no value) */
    char why[512];           /* no data: what is missing; not runnable: the claim's needs */
} gms_claim_result;

/* evaluates every claim against the store; res has c->n entries (free with
 * gms_claim_results_free). Errors only for a store that cannot be read. */
int gms_claims_eval(const gms_claims *c, gms_store *st, gms_claim_result **res, gms_error *err);
void gms_claim_results_free(gms_claim_result *res, size_t n);
const char *gms_verdict_name(gms_verdict v);

/* claims_expr.c: parse one expression; names are metric names or numbers at the top level,
 * and calls f(arg, ...) whose arguments are words (stat, variant, workload, group names). */
gms_cexpr *gms_cexpr_parse(const char *text, const char **end, char *msg, size_t msgn);
void gms_cexpr_free(gms_cexpr *e);
/* -1 with *bad set when the expression names a metric not among names */
int gms_cexpr_check_names(const gms_cexpr *e, const char *const *names, size_t n, const char **bad);

/* what an expression needs from outside: per-workload values of a stat under a variant */
typedef struct gms_cvec {
    size_t n;                /* workloads of the study, in plan order */
    double *v;               /* NAN = no value */
    const char *const *workloads;
    const char *const *groups;   /* each workload's group ("" = none) */
} gms_cvec;
typedef struct gms_cenv {
    /* fills *out (borrowed until the next call) or returns -1 with a reason in msg */
    int (*vec)(void *ctx, const char *stat, const char *variant, gms_cvec *out, char *msg, size_t msgn);
    void *ctx;
    const char *const *names; const double *vals; size_t nnames;   /* earlier metrics */
    /* optional: why STAT (X, X/Y, X+Y) has no value for WORKLOAD under VARIANT ("the point
     * failed: ...", "not run yet", "no run has a statistic ..."), written to buf */
    void (*why)(void *ctx, const char *stat, const char *variant, const char *workload, char *buf, size_t n);
} gms_cenv;
/* the study names an expression uses (variants, groups, workloads), each to cb with its kind
 * ("variant", "group", "workload", "group or workload"); stops at cb's first nonzero return */
typedef int (*gms_cexpr_name_fn)(void *ud, const char *kind, const char *name);
int gms_cexpr_names(const gms_cexpr *e, gms_cexpr_name_fn cb, void *ud);
/* claims_check.c: every name a claims file uses is a variant, group or workload of the study
 * (s: this form's sweep spec, brace-expanded; other: the other form's, or NULL; a name of
 * either passes), and every figure's baseline a variant */
struct gms_sweep_spec;
int gms_claims_check_names(const gms_claims *cl, const struct gms_sweep_spec *s, const struct gms_sweep_spec *other,
                           gms_error *err);
/* NAN with msg set when a value is missing */
double gms_cexpr_eval(const gms_cexpr *e, const gms_cenv *env, char *msg, size_t msgn);

#endif
