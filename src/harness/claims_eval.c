/* Evaluates claims against a result store: each metric in order, then every holds line (each a comparison chain). The
 * per-workload values come from the store's report tables (report.h: the mean over a point's
 * seeds, "failed" / "not run" cells are missing values), one table per stat, kept for the
 * whole evaluation. */
#include "harness/claims.h"
#include "harness/report.h"
#include "harness/util.h"
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct vec_cache {
    gms_store *st;
    gms_report **reps; char **stats; const char ***groups; size_t n;   /* groups: each workload's, per report */
    double *buf;
} vec_cache;

static int cache_vec(void *ctx, const char *stat, const char *variant, gms_cvec *out, char *msg, size_t msgn)
{
    vec_cache *c = ctx;
    gms_report *r = NULL;
    for (size_t i = 0; i < c->n; i++) if (!strcmp(c->stats[i], stat)) r = c->reps[i];
    if (!r) {
        gms_error err = {0};
        if (gms_report_build(c->st, stat, NULL, &r, &err)) { snprintf(msg, msgn, "%s", err.msg); return -1; }
        c->reps = gms_xrealloc(c->reps, (c->n + 1) * sizeof *c->reps);
        c->stats = gms_xrealloc(c->stats, (c->n + 1) * sizeof *c->stats);
        c->groups = gms_xrealloc(c->groups, (c->n + 1) * sizeof *c->groups);
        c->groups[c->n] = gms_xcalloc(r->nworkloads ? r->nworkloads : 1, sizeof **c->groups);
        for (size_t w = 0; w < r->nworkloads; w++) c->groups[c->n][w] = r->groups[r->wl_group[w]];
        c->reps[c->n] = r;
        c->stats[c->n++] = gms_xstrdup(stat);
    }
    size_t ri = 0;
    while (c->reps[ri] != r) ri++;
    size_t v = 0;
    while (v < r->nvariants && strcmp(r->variants[v], variant)) v++;
    if (v == r->nvariants) {
        /* a `repro report --only` part keeps the left-out points in the store, out of the plan */
        if (gms_store_variant_left_out(c->st, variant))
            snprintf(msg, msgn, "variant '%s' is not in this part of the study (--only)", variant);
        else snprintf(msg, msgn, "no variant '%s' in the study", variant);
        return -1;
    }
    /* valid until the next call: callers copy it */
    free(c->buf);
    c->buf = gms_xcalloc(r->nworkloads ? r->nworkloads : 1, sizeof *c->buf);
    for (size_t w = 0; w < r->nworkloads; w++) {
        const gms_report_cell *cell = &r->cells[w * r->nvariants + v];
        c->buf[w] = cell->state == GMS_CELL_OK ? cell->value : NAN;
    }
    out->n = r->nworkloads;
    out->v = c->buf;
    out->workloads = (const char *const *)r->workloads;
    out->groups = c->groups[ri];
    return 0;
}

/* the first line of the error of a failed point's best run ("timed out after 600 s", ...) */
static void failed_why(gms_store *st, const char *variant, const char *workload, char *buf, size_t n)
{
    sqlite3_stmt *q;
    snprintf(buf, n, "the point failed");
    if (sqlite3_prepare_v2(st->db,
            "SELECT r.error FROM points p JOIN best_runs b ON b.point_id = p.id JOIN runs r ON r.id = b.run_id"
            " WHERE p.in_plan = 1 AND p.variant = ? AND p.workload = ? AND r.status != 'ok' LIMIT 1",
            -1, &q, NULL) != SQLITE_OK) return;
    sqlite3_bind_text(q, 1, variant, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(q, 2, workload, -1, SQLITE_TRANSIENT);
    if (sqlite3_step(q) == SQLITE_ROW && sqlite3_column_type(q, 0) == SQLITE_TEXT) {
        const char *e = (const char *)sqlite3_column_text(q, 0);
        int len = (int)strcspn(e, "\n");
        snprintf(buf, n, "the point failed: %.*s%s", len > 120 ? 120 : len, e, len > 120 ? "..." : "");
    }
    sqlite3_finalize(q);
}

/* gms_cenv.why: the first component of STAT (X, X+Y, X/Y) without a value, and why */
static void cache_why(void *ctx, const char *stat, const char *variant, const char *workload, char *buf, size_t n)
{
    vec_cache *c = ctx;
    buf[0] = 0;
    for (const char *p = stat; *p;) {
        size_t k = strcspn(p, "+/");
        char one[256];
        snprintf(one, sizeof one, "%.*s", (int)k, p);
        p += k + (p[k] != 0);
        gms_cvec vec;
        char msg[256] = "";
        if (cache_vec(c, one, variant, &vec, msg, sizeof msg)) continue;
        gms_report *r = NULL;
        for (size_t i = 0; i < c->n; i++) if (!strcmp(c->stats[i], one)) r = c->reps[i];
        size_t v = 0, w = 0;
        while (v < r->nvariants && strcmp(r->variants[v], variant)) v++;
        while (w < r->nworkloads && strcmp(r->workloads[w], workload)) w++;
        if (v == r->nvariants || w == r->nworkloads) continue;
        const gms_report_cell *cell = &r->cells[w * r->nvariants + v];
        switch (cell->state) {
        case GMS_CELL_OK: continue;
        case GMS_CELL_FAILED: failed_why(c->st, variant, workload, buf, n); return;
        case GMS_CELL_MISSING: snprintf(buf, n, "%s", cell->n_points ? "not run yet" : "not in the plan"); return;
        case GMS_CELL_NA: snprintf(buf, n, "its run has no statistic %s", one); return;   /* others have it */
        }
    }
}

static int cmp_holds(double a, gms_cmp op, double b)
{
    switch (op) {
    case GMS_CMP_LT: return a < b;
    case GMS_CMP_LE: return a <= b;
    case GMS_CMP_GT: return a > b;
    case GMS_CMP_GE: return a >= b;
    }
    return 0;
}

const char *gms_verdict_name(gms_verdict v)
{
    switch (v) {
    case GMS_VERDICT_HOLDS: return "holds";
    case GMS_VERDICT_FAILS: return "does not hold";
    case GMS_VERDICT_NO_DATA: return "no data";
    case GMS_VERDICT_NOT_RUNNABLE: return "not yet runnable";
    }
    return "?";
}

static void eval_one(const gms_claim *c, const gms_cenv *base, gms_claim_result *res)
{
    res->values = gms_xcalloc(c->nmetrics ? c->nmetrics : 1, sizeof *res->values);
    if (c->needs) {
        res->verdict = GMS_VERDICT_NOT_RUNNABLE;
        snprintf(res->why, sizeof res->why, "%s", c->needs);
        for (size_t i = 0; i < c->nmetrics; i++) res->values[i] = NAN;
        return;
    }
    const char **names = gms_xcalloc(c->nmetrics, sizeof *names);
    gms_cenv env = *base;
    env.names = names;
    env.vals = res->values;
    for (size_t i = 0; i < c->nmetrics; i++) {
        env.nnames = i;
        res->values[i] = gms_cexpr_eval(c->metrics[i].expr, &env, res->why, sizeof res->why);
        names[i] = c->metrics[i].name;
    }
    env.nnames = c->nmetrics;
    int ok = 1, missing = 0;
    for (size_t h = 0; h < c->nholds; h++) {
        const gms_claim_chain *ch = &c->holds[h];
        double prev = gms_cexpr_eval(ch->e[0], &env, res->why, sizeof res->why);
        missing |= isnan(prev);
        for (size_t i = 1; i < ch->n; i++) {
            double x = gms_cexpr_eval(ch->e[i], &env, res->why, sizeof res->why);
            missing |= isnan(x);
            if (!missing && !cmp_holds(prev, ch->cmps[i - 1], x)) ok = 0;
            prev = x;
        }
    }
    res->verdict = missing ? GMS_VERDICT_NO_DATA : ok ? GMS_VERDICT_HOLDS : GMS_VERDICT_FAILS;
    if (!missing) res->why[0] = 0;
    free(names);
}

int gms_claims_eval(const gms_claims *cl, gms_store *st, gms_claim_result **out, gms_error *err)
{
    (void)err;
    vec_cache cache = { .st = st };
    gms_cenv env = { .vec = cache_vec, .why = cache_why, .ctx = &cache };
    gms_claim_result *res = gms_xcalloc(cl->n ? cl->n : 1, sizeof *res);
    for (size_t i = 0; i < cl->n; i++) eval_one(&cl->claims[i], &env, &res[i]);
    for (size_t i = 0; i < cache.n; i++) { gms_report_free(cache.reps[i]); free(cache.stats[i]); free(cache.groups[i]); }
    free(cache.reps); free(cache.stats); free(cache.buf); free(cache.groups);
    *out = res;
    return 0;
}

void gms_claim_results_free(gms_claim_result *res, size_t n)
{
    if (!res) return;
    for (size_t i = 0; i < n; i++) free(res[i].values);
    free(res);
}
