/* Normalised metric tables with geometric means (see report.h). */
#include "harness/report.h"
#include "harness/util.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static size_t intern(char ***v, size_t *n, const char *s)
{
    for (size_t i = 0; i < *n; i++)
        if (!strcmp((*v)[i], s)) return i;
    *v = gms_xrealloc(*v, (*n + 1) * sizeof **v);
    (*v)[*n] = gms_xstrdup(s);
    return (*n)++;
}

static int metric_exists(gms_store *st, const char *metric, gms_error *err)
{
    sqlite3_stmt *q;
    int any = 0, have = 0;
    /* EXISTS stops at the first row: a count(*) read the whole table (gigabytes for a
     * study whose workloads launch thousands of kernels) once per figure */
    if (sqlite3_prepare_v2(st->db, "SELECT EXISTS(SELECT 1 FROM stats WHERE kernel = 0),"
                           " EXISTS(SELECT 1 FROM stats WHERE kernel = 0 AND name = ?)", -1, &q, NULL) != SQLITE_OK)
        return gms_err(err, "%s: %s", st->path, sqlite3_errmsg(st->db));
    sqlite3_bind_text(q, 1, metric, -1, SQLITE_STATIC);
    if (sqlite3_step(q) == SQLITE_ROW) { any = sqlite3_column_int(q, 0); have = sqlite3_column_int(q, 1); }
    sqlite3_finalize(q);
    if (have || !any) return 0;   /* no stats at all: an empty table of "-" and "failed" */
    gms_sbuf names = {0};
    if (sqlite3_prepare_v2(st->db, "SELECT DISTINCT name FROM stats WHERE kernel = 0 ORDER BY"
                           " (instr(lower(name), lower(?)) > 0) DESC, name LIMIT 12", -1, &q, NULL) == SQLITE_OK) {
        sqlite3_bind_text(q, 1, metric, -1, SQLITE_STATIC);
        while (sqlite3_step(q) == SQLITE_ROW) {
            if (names.n) gms_sbuf_add(&names, ", ");
            gms_sbuf_add(&names, (const char *)sqlite3_column_text(q, 0));
        }
        sqlite3_finalize(q);
    }
    gms_err(err, "%s: no run has a total stat named '%s' (some that exist: %s, ...)", st->path, metric, gms_sbuf_str(&names));
    gms_sbuf_free(&names);
    return -1;
}

static void gm_add(gms_report_gm *g, const gms_report_cell *c, int absolute, double *acc)
{
    g->n_total++;
    gms_cell_state s = absolute ? c->state : c->nstate;
    double v = absolute ? c->value : c->norm;
    if (s != GMS_CELL_OK || !(v > 0)) return;
    g->n_used++;
    *acc += log(v);
}

int gms_report_build(gms_store *st, const char *metric, const char *baseline, gms_report **out, gms_error *err)
{
    if (metric_exists(st, metric, err)) return -1;
    gms_report *r = gms_xcalloc(1, sizeof *r);
    r->metric = gms_xstrdup(metric);
    char *bl = baseline ? gms_xstrdup(baseline) : gms_store_meta(st, "baseline");
    r->baseline = bl;
    char *study = gms_store_meta(st, "name");
    r->study = study ? study : gms_xstrdup(st->path);
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(st->db,
            "SELECT p.variant, p.workload, p.wl_group, r.status, s.value, r.id"
            " FROM points p LEFT JOIN best_runs b ON b.point_id = p.id LEFT JOIN runs r ON r.id = b.run_id"
            " LEFT JOIN stats s ON s.run_id = r.id AND s.kernel = 0 AND s.name = ?"
            " WHERE p.in_plan = 1 ORDER BY p.plan_index", -1, &q, NULL) != SQLITE_OK) {
        gms_err(err, "%s: %s", st->path, sqlite3_errmsg(st->db));
        gms_report_free(r);
        return -1;
    }
    sqlite3_bind_text(q, 1, metric, -1, SQLITE_STATIC);
    /* first pass: collect rows */
    typedef struct row { size_t v, w; int status; int has; double val; } row;  /* status: 0 none, 1 ok, 2 failed */
    row *rows = NULL;
    size_t nrows = 0;
    while (sqlite3_step(q) == SQLITE_ROW) {
        rows = gms_xrealloc(rows, (nrows + 1) * sizeof *rows);
        row *x = &rows[nrows++];
        x->v = intern(&r->variants, &r->nvariants, (const char *)sqlite3_column_text(q, 0));
        size_t before = r->nworkloads;
        x->w = intern(&r->workloads, &r->nworkloads, (const char *)sqlite3_column_text(q, 1));
        if (r->nworkloads > before) {
            const char *g = (const char *)sqlite3_column_text(q, 2);
            r->wl_group = gms_xrealloc(r->wl_group, r->nworkloads * sizeof *r->wl_group);
            r->wl_group[x->w] = intern(&r->groups, &r->ngroups, g ? g : "");
        }
        const char *stt = (const char *)sqlite3_column_text(q, 3);
        x->status = !stt ? 0 : !strcmp(stt, "ok") ? 1 : 2;
        x->has = sqlite3_column_type(q, 4) != SQLITE_NULL;
        x->val = x->has ? sqlite3_column_double(q, 4) : 0;
    }
    sqlite3_finalize(q);
    if (!r->nvariants) {
        free(rows);
        gms_err(err, "%s: the store holds no points (run `gpumemsim sweep collect SPEC`)", st->path);
        gms_report_free(r);
        return -1;
    }
    size_t b = 0;
    if (!r->baseline) r->baseline = gms_xstrdup(r->variants[0]);
    while (b < r->nvariants && strcmp(r->variants[b], r->baseline)) b++;
    /* the store's own baseline is one of its spec's variants (checked when the spec was read):
     * absent from the plan, it was left out by --only, even from a store that never held it */
    if (b == r->nvariants && (!baseline || gms_store_variant_left_out(st, r->baseline))) {
        b = GMS_REPORT_NO_BASELINE;   /* left out of this part (--only): the absolute values stand */
    } else if (b == r->nvariants) {
        gms_sbuf names = {0};
        for (size_t i = 0; i < r->nvariants; i++) { if (i) gms_sbuf_add(&names, ", "); gms_sbuf_add(&names, r->variants[i]); }
        gms_err(err, "%s: baseline '%s' is not a variant of this study (variants: %s)", st->path, r->baseline, names.s);
        gms_sbuf_free(&names);
        free(rows);
        gms_report_free(r);
        return -1;
    }
    r->baseline_idx = b;
    size_t nv = r->nvariants, nw = r->nworkloads;
    r->cells = gms_xcalloc(nv * nw, sizeof *r->cells);
    double *sum = gms_xcalloc(nv * nw, sizeof *sum);
    int *nna = gms_xcalloc(nv * nw, sizeof *nna);
    for (size_t i = 0; i < nrows; i++) {
        size_t k = rows[i].w * nv + rows[i].v;
        gms_report_cell *c = &r->cells[k];
        c->n_points++;
        if (rows[i].status == 2) c->n_failed++;
        if (rows[i].status == 1) { c->n_ok++; if (rows[i].has) sum[k] += rows[i].val; else nna[k]++; }
    }
    free(rows);
    for (size_t k = 0; k < nv * nw; k++) {
        gms_report_cell *c = &r->cells[k];
        if (!c->n_points) c->state = GMS_CELL_MISSING;        /* excluded from the plan */
        else if (c->n_failed) c->state = GMS_CELL_FAILED;
        else if (c->n_ok < c->n_points) c->state = GMS_CELL_MISSING;
        else if (nna[k]) c->state = GMS_CELL_NA;
        else { c->state = GMS_CELL_OK; c->value = sum[k] / c->n_ok; }
    }
    free(sum);
    free(nna);
    for (size_t w = 0; w < nw; w++) {
        const gms_report_cell *base = b == GMS_REPORT_NO_BASELINE ? NULL : &r->cells[w * nv + b];
        for (size_t v = 0; v < nv; v++) {
            gms_report_cell *c = &r->cells[w * nv + v];
            if (!base) c->nstate = GMS_CELL_MISSING;
            else if (c->state != GMS_CELL_OK) c->nstate = c->state;
            else if (base->state == GMS_CELL_OK && base->value != 0) { c->nstate = GMS_CELL_OK; c->norm = c->value / base->value; }
            else c->nstate = base->state == GMS_CELL_OK || base->state == GMS_CELL_NA ? GMS_CELL_NA : GMS_CELL_MISSING;
        }
    }
    size_t ng = r->ngroups + 1;
    r->gm_norm = gms_xcalloc(ng * nv, sizeof *r->gm_norm);
    r->gm_abs = gms_xcalloc(ng * nv, sizeof *r->gm_abs);
    for (size_t g = 0; g < ng; g++)
        for (size_t v = 0; v < nv; v++) {
            double an = 0, aa = 0;
            gms_report_gm *gn = &r->gm_norm[g * nv + v], *ga = &r->gm_abs[g * nv + v];
            for (size_t w = 0; w < nw; w++) {
                if (g < r->ngroups && r->wl_group[w] != g) continue;
                gm_add(gn, &r->cells[w * nv + v], 0, &an);
                gm_add(ga, &r->cells[w * nv + v], 1, &aa);
            }
            gn->value = gn->n_used ? exp(an / gn->n_used) : NAN;
            ga->value = ga->n_used ? exp(aa / ga->n_used) : NAN;
        }
    *out = r;
    return 0;
}

void gms_report_free(gms_report *r)
{
    if (!r) return;
    for (size_t i = 0; i < r->nvariants; i++) free(r->variants[i]);
    for (size_t i = 0; i < r->nworkloads; i++) free(r->workloads[i]);
    for (size_t i = 0; i < r->ngroups; i++) free(r->groups[i]);
    free(r->variants); free(r->workloads); free(r->groups); free(r->wl_group);
    free(r->cells); free(r->gm_norm); free(r->gm_abs);
    free(r->metric); free(r->baseline); free(r->study);
    free(r);
}

void gms_report_cell_text(const gms_report_cell *c, int absolute, char *buf, size_t n)
{
    gms_cell_state s = absolute ? c->state : c->nstate;
    switch (s) {
    case GMS_CELL_OK: snprintf(buf, n, absolute ? "%.6g" : "%.4f", absolute ? c->value : c->norm); break;
    case GMS_CELL_FAILED: snprintf(buf, n, "failed"); break;
    case GMS_CELL_MISSING: snprintf(buf, n, "-"); break;
    case GMS_CELL_NA: snprintf(buf, n, "n/a"); break;
    }
}

static void gm_text(const gms_report_gm *g, int absolute, int with_count, char *buf, size_t n)
{
    if (!g->n_used) { snprintf(buf, n, "-"); return; }
    int k = snprintf(buf, n, absolute ? "%.6g" : "%.4f", g->value);
    if (with_count && g->n_used < g->n_total && k > 0 && (size_t)k < n)
        snprintf(buf + k, n - (size_t)k, " (%d/%d)", g->n_used, g->n_total);
}

/* rows of geometric means: one per group when there are groups, then all */
static int has_groups(const gms_report *r) { return r->ngroups > 1 || (r->ngroups == 1 && r->groups[0][0]); }

void gms_report_write_md(const gms_report *r, int absolute, FILE *out)
{
    size_t nv = r->nvariants;
    int grp = has_groups(r);
    if (!absolute && r->baseline_idx == GMS_REPORT_NO_BASELINE) {
        fprintf(out, "The baseline '%s' is not in this part of the study (--only): the values are absolute.\n\n", r->baseline);
        absolute = 1;
    }
    if (absolute) fprintf(out, "## %s: %s\n\n", r->study, r->metric);
    else fprintf(out, "## %s: %s normalised to %s\n\n", r->study, r->metric, r->baseline);
    fprintf(out, "| workload |%s", grp ? " group |" : "");
    if (!absolute) fprintf(out, " %s (%s) |", r->baseline, r->metric);
    for (size_t v = 0; v < nv; v++) fprintf(out, " %s |", r->variants[v]);
    fprintf(out, "\n|---|%s%s", grp ? "---|" : "", absolute ? "" : "---:|");
    for (size_t v = 0; v < nv; v++) fprintf(out, "---:|");
    fprintf(out, "\n");
    char buf[64];
    int incomplete = 0;
    for (size_t w = 0; w < r->nworkloads; w++) {
        fprintf(out, "| %s |", r->workloads[w]);
        if (grp) fprintf(out, " %s |", r->groups[r->wl_group[w]]);
        if (!absolute) { gms_report_cell_text(&r->cells[w * nv + r->baseline_idx], 1, buf, sizeof buf); fprintf(out, " %s |", buf); }
        for (size_t v = 0; v < nv; v++) { gms_report_cell_text(&r->cells[w * nv + v], absolute, buf, sizeof buf); fprintf(out, " %s |", buf); }
        fprintf(out, "\n");
    }
    const gms_report_gm *gm = absolute ? r->gm_abs : r->gm_norm;
    for (size_t g = grp ? 0 : r->ngroups; g <= r->ngroups; g++) {
        if (g < r->ngroups) fprintf(out, "| **geomean %s** |", r->groups[g][0] ? r->groups[g] : "(no group)");
        else fprintf(out, "| **geomean** |");
        if (grp) fprintf(out, " %s |", g < r->ngroups ? r->groups[g] : "all");
        if (!absolute) { gm_text(&r->gm_abs[g * nv + r->baseline_idx], 1, 1, buf, sizeof buf); fprintf(out, " %s |", buf); }
        for (size_t v = 0; v < nv; v++) {
            const gms_report_gm *x = &gm[g * nv + v];
            if (x->n_used && x->n_used < x->n_total) incomplete = 1;
            gm_text(x, absolute, 1, buf, sizeof buf);
            fprintf(out, " **%s** |", buf);
        }
        fprintf(out, "\n");
    }
    fprintf(out, "\nEach value is the mean over the seeds of a point. failed: a seed failed (`gpumemsim sweep status -v`); "
                 "-: not run yet%s; n/a: the metric is missing%s.\n",
            absolute ? "" : " or no baseline value", absolute ? "" : " or the baseline value is 0");
    if (incomplete) fprintf(out, "(k/n): geometric mean over the k of n workloads that have a value.\n");
}

static void csv_field(FILE *out, const char *s)
{
    if (!strpbrk(s, ",\"\n")) { fputs(s, out); return; }
    fputc('"', out);
    for (; *s; s++) { if (*s == '"') fputc('"', out); fputc(*s, out); }
    fputc('"', out);
}

void gms_report_write_csv(const gms_report *r, int absolute, FILE *out)
{
    size_t nv = r->nvariants;
    char buf[64];
    fprintf(out, "workload,group");
    for (size_t v = 0; v < nv; v++) { fputc(',', out); csv_field(out, r->variants[v]); }
    fputc('\n', out);
    for (size_t w = 0; w < r->nworkloads; w++) {
        csv_field(out, r->workloads[w]);
        fputc(',', out);
        csv_field(out, r->groups[r->wl_group[w]]);
        for (size_t v = 0; v < nv; v++) {
            const gms_report_cell *c = &r->cells[w * nv + v];
            gms_cell_state s = absolute ? c->state : c->nstate;
            if (s == GMS_CELL_OK) fprintf(out, ",%.9g", absolute ? c->value : c->norm);
            else { gms_report_cell_text(c, absolute, buf, sizeof buf); fprintf(out, ",%s", buf); }
        }
        fputc('\n', out);
    }
    const gms_report_gm *gm = absolute ? r->gm_abs : r->gm_norm;
    for (size_t g = has_groups(r) ? 0 : r->ngroups; g <= r->ngroups; g++) {
        fprintf(out, "geomean,");
        csv_field(out, g < r->ngroups ? r->groups[g] : "all");
        for (size_t v = 0; v < nv; v++) {
            if (gm[g * nv + v].n_used) fprintf(out, ",%.9g", gm[g * nv + v].value);
            else fprintf(out, ",-");
        }
        fputc('\n', out);
    }
}
