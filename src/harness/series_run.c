/* A statistic's series inside one run's output (gpumemsim plot series): the lines `name = value`
 * that `gpumemsim run` prints (or writes with --stats-text), of names that differ only in
 * their indices, e.g. MDB's chosen L per SM over time, gms_mdb_series[smS][k]_L, or the
 * concurrent kernels' request ratio per sample period, gms_cke_req_ratio_t[k]. A pattern has
 * one or two '*': with two, the first is the line (gms_mdb_series[sm*][*]_L: one line per SM)
 * and the second the point; with one, the point of a single line. A name printed more than
 * once (each kernel's block, then the totals) counts with its last value, the run's total. */
#include "harness/report.h"
#include "harness/util.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct pt { char *line; long idx; double v; } pt;
typedef struct pts { pt *p; size_t n, cap; } pts;

/* does name match pat ('*' = a run of characters other than ']' and '['); the stars' text
 * into st[0..1] */
static int match(const char *pat, const char *name, char st[2][64])
{
    int k = 0;
    while (*pat) {
        if (*pat == '*') {
            size_t n = 0;
            while (name[n] && name[n] != ']' && name[n] != '[' && name[n] != pat[1]) n++;
            if (n == 0 || n >= 64 || k >= 2) return 0;
            memcpy(st[k], name, n);
            st[k][n] = 0;
            k++;
            name += n;
            pat++;
            continue;
        }
        if (*pat != *name) return 0;
        pat++;
        name++;
    }
    return *name == 0;
}

static int stars(const char *p)
{
    int n = 0;
    for (; *p; p++) n += *p == '*';
    return n;
}

/* an index: the star's digits (a prefix such as "sm" is part of the pattern, not the star) */
static int index_of(const char *s, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end || errno || v < 0) return -1;
    *out = v;
    return 0;
}

static void put(pts *a, const char *line, long idx, double v)
{
    for (size_t i = 0; i < a->n; i++)
        if (a->p[i].idx == idx && !strcmp(a->p[i].line, line)) { a->p[i].v = v; return; }   /* the last value */
    if (a->n == a->cap) {
        a->cap = a->cap ? 2 * a->cap : 64;
        a->p = gms_xrealloc(a->p, a->cap * sizeof *a->p);
    }
    a->p[a->n++] = (pt){ gms_xstrdup(line), idx, v };
}

static void pts_free(pts *a)
{
    for (size_t i = 0; i < a->n; i++) free(a->p[i].line);
    free(a->p);
}

static int by_line_idx(const void *x, const void *y)
{
    const pt *a = x, *b = y;
    long la = 0, lb = 0;
    /* lines by their number when both are numbers, else by name */
    int na = index_of(a->line, &la) == 0, nb = index_of(b->line, &lb) == 0;
    int c = na && nb ? (la > lb) - (la < lb) : strcmp(a->line, b->line);
    if (c) return c;
    return (a->idx > b->idx) - (a->idx < b->idx);
}

/* the values of pattern pat in the file, as (line, point, value) */
static int collect(const char *path, const char *pat, pts *out, gms_error *err)
{
    FILE *f = fopen(path, "r");
    if (!f) return gms_err(err, "%s: %s", path, strerror(errno));
    int ns = stars(pat);
    char buf[1024];
    unsigned long lineno = 0;
    while (fgets(buf, sizeof buf, f)) {
        lineno++;
        char *eq = strstr(buf, " = ");
        if (!eq) continue;
        *eq = 0;
        char st[2][64];
        if (!match(pat, buf, st)) continue;
        char *end;
        errno = 0;
        double v = strtod(eq + 3, &end);
        while (*end == '\n' || *end == '\r' || *end == ' ') end++;
        if (end == eq + 3 || *end || errno) {
            fclose(f);
            return gms_err(err, "%s:%lu: %s: '%s' is not a number", path, lineno, buf, eq + 3);
        }
        long idx;
        const char *line = ns == 2 ? st[0] : "";
        if (index_of(st[ns - 1], &idx)) {
            fclose(f);
            return gms_err(err, "%s:%lu: %s: the point's index '%s' is not a number", path, lineno, buf, st[ns - 1]);
        }
        put(out, line, idx, v);
    }
    fclose(f);
    return 0;
}

int gms_series_from_run(const char *path, const char *ypat, const char *xpat, gms_series_set **out, gms_error *err)
{
    *out = NULL;
    int ny = stars(ypat);
    if (ny < 1 || ny > 2)
        return gms_err(err, "--y %s: a pattern has one '*' (the point) or two (the line, then the point)", ypat);
    if (xpat && stars(xpat) != ny)
        return gms_err(err, "--x %s: it must have as many '*' as --y %s (%d)", xpat, ypat, ny);
    pts ys = { 0 }, xs = { 0 };
    if (collect(path, ypat, &ys, err) || (xpat && collect(path, xpat, &xs, err))) {
        pts_free(&ys);
        pts_free(&xs);
        return -1;
    }
    if (!ys.n) {
        pts_free(&ys);
        pts_free(&xs);
        return gms_err(err, "%s: no statistic matches %s (gpumemsim run's output or --stats-text)", path, ypat);
    }
    qsort(ys.p, ys.n, sizeof *ys.p, by_line_idx);
    gms_series_set *ss = gms_xcalloc(1, sizeof *ss);
    ss->metric = gms_xstrdup(ypat);
    ss->xname = gms_xstrdup(xpat ? xpat : "point");
    for (size_t i = 0; i < ys.n;) {
        size_t j = i;
        while (j < ys.n && !strcmp(ys.p[j].line, ys.p[i].line)) j++;
        ss->s = gms_xrealloc(ss->s, (ss->n + 1) * sizeof *ss->s);
        gms_series *se = &ss->s[ss->n++];
        memset(se, 0, sizeof *se);
        se->name = gms_xstrdup(ny == 2 ? ys.p[i].line : ypat);
        se->n = j - i;
        se->x = gms_xcalloc(se->n, sizeof *se->x);
        se->y = gms_xcalloc(se->n, sizeof *se->y);
        se->ystate = gms_xcalloc(se->n, sizeof *se->ystate);
        for (size_t k = 0; k < se->n; k++) {
            const pt *p = &ys.p[i + k];
            se->y[k] = p->v;
            se->ystate[k] = GMS_CELL_OK;
            se->x[k] = (double)p->idx;
            if (xpat) {
                size_t q = 0;
                while (q < xs.n && !(xs.p[q].idx == p->idx && !strcmp(xs.p[q].line, p->line))) q++;
                if (q == xs.n) { se->y[k] = NAN; se->ystate[k] = GMS_CELL_MISSING; }
                else se->x[k] = xs.p[q].v;
            }
        }
        i = j;
    }
    pts_free(&ys);
    pts_free(&xs);
    *out = ss;
    return 0;
}
