/* A metric against one swept setting (a config option or a workload parameter), one line
 * per workload (and per combination of the other settings that differ), for `gpumemsim
 * plot`. Each y is the mean over seeds; a failed or missing seed makes it a gap, never 0. */
#include "harness/report.h"
#include "harness/util.h"
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct pt_row {
    char *key_base;          /* workload label (config x) or workload name (param x) */
    char *wl;                /* workload label (config x), else NULL */
    char **parts; size_t nparts;   /* other settings "name=value" */
    char *xtext;
    int status;              /* 0 none, 1 ok, 2 failed */
    int has; double val;
} pt_row;

/* number with an optional K/M/G (1024-based) or KB/MB/GB suffix */
static int parse_x(const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s) return -1;
    while (isspace((unsigned char)*end)) end++;
    double mul = 1;
    if (*end == 'K' || *end == 'k') { mul = 1024; end++; }
    else if (*end == 'M' || *end == 'm') { mul = 1024.0 * 1024; end++; }
    else if (*end == 'G' || *end == 'g') { mul = 1024.0 * 1024 * 1024; end++; }
    if (mul > 1 && (*end == 'B' || *end == 'b')) end++;
    if (*end) return -1;
    *out = v * mul;
    return 0;
}

static int dcmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int gms_series_build(gms_store *st, const char *metric, const char *xname, gms_series_set **out, gms_error *err)
{
    while (*xname == '-') xname++;
    sqlite3_stmt *q, *qs;
    if (sqlite3_prepare_v2(st->db,
            "SELECT p.id, p.workload, p.workload_name, r.status, s.value, x.value, x.kind"
            " FROM points p LEFT JOIN best_runs b ON b.point_id = p.id LEFT JOIN runs r ON r.id = b.run_id"
            " LEFT JOIN stats s ON s.run_id = r.id AND s.kernel = 0 AND s.name = ?1"
            " LEFT JOIN point_settings x ON x.point_id = p.id AND x.name = ?2"
            " WHERE p.in_plan = 1 ORDER BY p.plan_index", -1, &q, NULL) != SQLITE_OK)
        return gms_err(err, "%s: %s", st->path, sqlite3_errmsg(st->db));
    if (sqlite3_prepare_v2(st->db, "SELECT kind, name, value FROM point_settings WHERE point_id = ? ORDER BY kind, name",
                           -1, &qs, NULL) != SQLITE_OK) {
        sqlite3_finalize(q);
        return gms_err(err, "%s: %s", st->path, sqlite3_errmsg(st->db));
    }
    sqlite3_bind_text(q, 1, metric, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 2, xname, -1, SQLITE_STATIC);
    gms_series_set *ss = gms_xcalloc(1, sizeof *ss);
    ss->metric = gms_xstrdup(metric);
    ss->xname = gms_xstrdup(xname);
    pt_row *rows = NULL;
    size_t nrows = 0, with_metric = 0;
    while (sqlite3_step(q) == SQLITE_ROW) {
        if (sqlite3_column_type(q, 5) == SQLITE_NULL) { ss->skipped++; continue; }
        rows = gms_xrealloc(rows, (nrows + 1) * sizeof *rows);
        pt_row *r = &rows[nrows++];
        memset(r, 0, sizeof *r);
        const char *kind = (const char *)sqlite3_column_text(q, 6);
        int xparam = kind && !strcmp(kind, "param");
        r->key_base = gms_xstrdup((const char *)sqlite3_column_text(q, xparam ? 2 : 1));
        r->wl = xparam ? NULL : gms_xstrdup((const char *)sqlite3_column_text(q, 1));
        r->xtext = gms_xstrdup((const char *)sqlite3_column_text(q, 5));
        const char *stt = (const char *)sqlite3_column_text(q, 3);
        r->status = !stt ? 0 : !strcmp(stt, "ok") ? 1 : 2;
        r->has = sqlite3_column_type(q, 4) != SQLITE_NULL;
        r->val = sqlite3_column_double(q, 4);
        with_metric += r->has;
        sqlite3_bind_text(qs, 1, (const char *)sqlite3_column_text(q, 0), -1, SQLITE_TRANSIENT);
        while (sqlite3_step(qs) == SQLITE_ROW) {
            const char *k = (const char *)sqlite3_column_text(qs, 0), *n = (const char *)sqlite3_column_text(qs, 1);
            if (!strcmp(n, xname)) continue;
            if (!xparam && !strcmp(k, "param")) continue;    /* already in the workload label */
            gms_sbuf b = {0};
            gms_sbuf_printf(&b, "%s=%s", n, (const char *)sqlite3_column_text(qs, 2));
            r->parts = gms_xrealloc(r->parts, (r->nparts + 1) * sizeof *r->parts);
            r->parts[r->nparts++] = b.s;
        }
        sqlite3_reset(qs);
    }
    sqlite3_finalize(q);
    sqlite3_finalize(qs);
    int rc = 0;
    if (!nrows) rc = gms_err(err, "%s: no point of this study sets '%s' (a config option or workload parameter "
                             "given in the spec)", st->path, xname);
    else if (!with_metric && nrows) {
        /* either nothing is done yet, or the metric name is wrong: check the latter */
        sqlite3_stmt *c;
        if (sqlite3_prepare_v2(st->db, "SELECT EXISTS(SELECT 1 FROM stats WHERE kernel = 0 AND name = ?),"
                               " EXISTS(SELECT 1 FROM stats WHERE kernel = 0)", -1, &c, NULL) == SQLITE_OK) {
            sqlite3_bind_text(c, 1, metric, -1, SQLITE_STATIC);
            if (sqlite3_step(c) == SQLITE_ROW && sqlite3_column_int(c, 1) > 0 && sqlite3_column_int(c, 0) == 0)
                rc = gms_err(err, "%s: no run has a total stat named '%s'", st->path, metric);
            sqlite3_finalize(c);
        }
    }
    /* settings shared by every row say nothing: drop them from the series names */
    for (size_t i = 0; i < nrows && !rc; i++) {
        pt_row *r = &rows[i];
        gms_sbuf name = {0};
        gms_sbuf_add(&name, r->key_base);
        int first = 1;
        for (size_t k = 0; k < r->nparts; k++) {
            size_t cnt = 0;
            for (size_t j = 0; j < nrows; j++)
                for (size_t m = 0; m < rows[j].nparts; m++)
                    if (!strcmp(rows[j].parts[m], r->parts[k])) { cnt++; break; }
            if (cnt == nrows) continue;
            gms_sbuf_add(&name, first ? " (" : ", ");
            gms_sbuf_add(&name, r->parts[k]);
            first = 0;
        }
        if (!first) gms_sbuf_add(&name, ")");
        free(r->key_base);
        r->key_base = name.s;
    }
    /* x values: numeric unless one is not */
    double *xv = gms_xcalloc(nrows + 1, sizeof *xv);
    for (size_t i = 0; i < nrows && !rc; i++)
        if (parse_x(rows[i].xtext, &xv[i])) ss->x_categorical = 1;
    if (ss->x_categorical)
        for (size_t i = 0; i < nrows; i++) {
            size_t k = 0;
            while (k < ss->nxlabels && strcmp(ss->xlabels[k], rows[i].xtext)) k++;
            if (k == ss->nxlabels) {
                ss->xlabels = gms_xrealloc(ss->xlabels, (k + 1) * sizeof *ss->xlabels);
                ss->xlabels[ss->nxlabels++] = gms_xstrdup(rows[i].xtext);
            }
            xv[i] = (double)k;
        }
    /* group rows by (series, x) */
    for (size_t i = 0; i < nrows && !rc; i++) {
        size_t s = 0;
        while (s < ss->n && strcmp(ss->s[s].name, rows[i].key_base)) s++;
        if (s == ss->n) {
            ss->s = gms_xrealloc(ss->s, (s + 1) * sizeof *ss->s);
            memset(&ss->s[s], 0, sizeof ss->s[s]);
            ss->s[s].name = gms_xstrdup(rows[i].key_base);
            ss->s[s].workload = rows[i].wl ? gms_xstrdup(rows[i].wl) : NULL;
            ss->n++;
        }
        gms_series *se = &ss->s[s];
        size_t k = 0;
        while (k < se->n && se->x[k] != xv[i]) k++;
        if (k < se->n) continue;   /* aggregated below */
        /* aggregate all rows of this (series, x) */
        double sum = 0;
        int n = 0, nok = 0, nfail = 0, nna = 0;
        for (size_t j = i; j < nrows; j++) {
            if (xv[j] != xv[i] || strcmp(rows[j].key_base, rows[i].key_base)) continue;
            n++;
            if (rows[j].status == 2) nfail++;
            if (rows[j].status == 1) { nok++; if (rows[j].has) sum += rows[j].val; else nna++; }
        }
        se->x = gms_xrealloc(se->x, (se->n + 1) * sizeof *se->x);
        se->y = gms_xrealloc(se->y, (se->n + 1) * sizeof *se->y);
        se->ystate = gms_xrealloc(se->ystate, (se->n + 1) * sizeof *se->ystate);
        se->x[se->n] = xv[i];
        se->y[se->n] = NAN;
        se->ystate[se->n] = nfail ? GMS_CELL_FAILED : nok < n ? GMS_CELL_MISSING : nna ? GMS_CELL_NA : GMS_CELL_OK;
        if (se->ystate[se->n] == GMS_CELL_OK) se->y[se->n] = sum / nok;
        se->n++;
    }
    /* sort each series by x */
    for (size_t s = 0; s < ss->n && !rc; s++) {
        gms_series *se = &ss->s[s];
        double *tmp = gms_xmalloc((se->n + 1) * 3 * sizeof *tmp);
        for (size_t k = 0; k < se->n; k++) { tmp[3 * k] = se->x[k]; tmp[3 * k + 1] = se->y[k]; tmp[3 * k + 2] = se->ystate[k]; }
        qsort(tmp, se->n, 3 * sizeof *tmp, dcmp);
        for (size_t k = 0; k < se->n; k++) { se->x[k] = tmp[3 * k]; se->y[k] = tmp[3 * k + 1]; se->ystate[k] = (gms_cell_state)(int)tmp[3 * k + 2]; }
        free(tmp);
    }
    free(xv);
    for (size_t i = 0; i < nrows; i++) {
        free(rows[i].key_base);
        free(rows[i].wl);
        free(rows[i].xtext);
        for (size_t k = 0; k < rows[i].nparts; k++) free(rows[i].parts[k]);
        free(rows[i].parts);
    }
    free(rows);
    if (rc) { gms_series_free(ss); return -1; }
    *out = ss;
    return 0;
}

void gms_series_free(gms_series_set *ss)
{
    if (!ss) return;
    for (size_t i = 0; i < ss->n; i++) {
        free(ss->s[i].name); free(ss->s[i].workload); free(ss->s[i].x); free(ss->s[i].y); free(ss->s[i].ystate);
    }
    free(ss->normalised_to);
    free(ss->s);
    for (size_t i = 0; i < ss->nxlabels; i++) free(ss->xlabels[i]);
    free(ss->xlabels);
    free(ss->metric);
    free(ss->xname);
    free(ss);
}

int gms_series_normalise(gms_store *st, gms_series_set *ss, const char *baseline, gms_error *err)
{
    sqlite3_stmt *q;
    /* the baseline must leave x alone: a baseline that sets it normalises each point to
     * itself (or to a value of x that is not on the line) */
    if (sqlite3_prepare_v2(st->db,
            "SELECT x.value FROM points p JOIN point_settings x ON x.point_id = p.id AND x.kind = 'config' AND x.name = ?1"
            " WHERE p.in_plan = 1 AND p.variant = ?2 LIMIT 1", -1, &q, NULL) != SQLITE_OK)
        return gms_err(err, "%s: %s", st->path, sqlite3_errmsg(st->db));
    sqlite3_bind_text(q, 1, ss->xname, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 2, baseline, -1, SQLITE_STATIC);
    if (sqlite3_step(q) == SQLITE_ROW) {
        gms_err(err, "--baseline %s sets %s=%s itself: the baseline must be a variant that leaves the x setting alone",
                baseline, ss->xname, (const char *)sqlite3_column_text(q, 0));
        sqlite3_finalize(q);
        return -1;
    }
    sqlite3_finalize(q);
    if (sqlite3_prepare_v2(st->db,
            "SELECT p.workload, r.status, s.value"
            " FROM points p LEFT JOIN best_runs b ON b.point_id = p.id LEFT JOIN runs r ON r.id = b.run_id"
            " LEFT JOIN stats s ON s.run_id = r.id AND s.kernel = 0 AND s.name = ?1"
            " WHERE p.in_plan = 1 AND p.variant = ?2", -1, &q, NULL) != SQLITE_OK)
        return gms_err(err, "%s: %s", st->path, sqlite3_errmsg(st->db));
    sqlite3_bind_text(q, 1, ss->metric, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 2, baseline, -1, SQLITE_STATIC);
    /* per workload label: sum and count of the baseline's ok values; bad = a seed without one */
    typedef struct { char *wl; double sum; int n, bad; } base_t;
    base_t *bv = NULL;
    size_t nb = 0;
    while (sqlite3_step(q) == SQLITE_ROW) {
        const char *wl = (const char *)sqlite3_column_text(q, 0), *stt = (const char *)sqlite3_column_text(q, 1);
        size_t k = 0;
        while (k < nb && strcmp(bv[k].wl, wl)) k++;
        if (k == nb) {
            bv = gms_xrealloc(bv, (nb + 1) * sizeof *bv);
            bv[nb++] = (base_t){ .wl = gms_xstrdup(wl) };
        }
        if (stt && !strcmp(stt, "ok") && sqlite3_column_type(q, 2) != SQLITE_NULL) { bv[k].sum += sqlite3_column_double(q, 2); bv[k].n++; }
        else bv[k].bad = 1;
    }
    sqlite3_finalize(q);
    int rc = 0;
    if (!nb) rc = gms_err(err, "%s: baseline '%s' is not a variant of this study, or of this part of it (--only)", st->path, baseline);
    for (size_t i = 0; i < ss->n && !rc; i++) {
        gms_series *se = &ss->s[i];
        if (!se->workload) { rc = gms_err(err, "lines normalised to a baseline need x to be a config setting, not the "
                                          "workload parameter '%s'", ss->xname); break; }
        size_t k = 0;
        while (k < nb && strcmp(bv[k].wl, se->workload)) k++;
        double base = k < nb && !bv[k].bad && bv[k].n ? bv[k].sum / bv[k].n : NAN;
        for (size_t j = 0; j < se->n; j++) {
            if (se->ystate[j] != GMS_CELL_OK) continue;
            if (!(base != 0) || isnan(base)) { se->ystate[j] = GMS_CELL_NA; se->y[j] = NAN; }
            else se->y[j] /= base;
        }
    }
    for (size_t k = 0; k < nb; k++) free(bv[k].wl);
    free(bv);
    if (!rc) { free(ss->normalised_to); ss->normalised_to = gms_xstrdup(baseline); }
    return rc ? -1 : 0;
}
