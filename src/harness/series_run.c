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
#include <sys/stat.h>

typedef struct pt { char *line; long idx; double v; } pt;
typedef struct pts { pt *p; size_t n, cap; } pts;

/* does name match pat ('*' = a run of characters other than ']' and '['); the stars' text
 * into st[0..1], each with room for strlen(name) + 1 */
static int match(const char *pat, const char *name, char *st[2])
{
    int k = 0;
    while (*pat) {
        if (*pat == '*') {
            size_t n = 0;
            while (name[n] && name[n] != ']' && name[n] != '[' && name[n] != pat[1]) n++;
            if (n == 0 || k >= 2) return 0;
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

/* a value or name quoted in an error, its start only when long (a line has no length limit) */
#define QUOTE_MAX 200
#define QUOTED(s) (int)(strlen(s) > QUOTE_MAX ? QUOTE_MAX : strlen(s)), (s), (strlen(s) > QUOTE_MAX ? "..." : "")

/* the values of pattern pat in the file, as (line, point, value) */
static int collect(const char *path, const char *pat, pts *out, gms_error *err)
{
    FILE *f = fopen(path, "r");
    if (!f) return gms_err(err, "%s: %s", path, strerror(errno));
    struct stat sb;
    if (fstat(fileno(f), &sb) == 0 && S_ISDIR(sb.st_mode)) {
        fclose(f);
        return gms_err(err, "%s: is a directory, not a run's text output", path);
    }
    int ns = stars(pat);
    char *buf = NULL, *st[2] = { NULL, NULL };
    size_t cap = 0, stcap = 0;
    ssize_t len;
    unsigned long lineno = 0;
    int rc = 0;
    while (!rc && (len = getline(&buf, &cap, f)) != -1) {
        lineno++;
        while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r')) buf[--len] = 0;
        /* `name = value`, or `name =` with nothing after it (an empty value) */
        char *eq = strstr(buf, " = ");
        if (!eq && len >= 2 && !strcmp(buf + len - 2, " =")) eq = buf + len - 2;
        if (!eq) continue;
        const char *val = eq[2] ? eq + 3 : eq + 2;
        *eq = 0;
        if ((size_t)len + 1 > stcap) {
            stcap = (size_t)len + 1;
            st[0] = gms_xrealloc(st[0], stcap);
            st[1] = gms_xrealloc(st[1], stcap);
        }
        if (!match(pat, buf, st)) continue;
        char *end;
        errno = 0;
        double v = strtod(val, &end);
        int range = errno == ERANGE && (isinf(v) || v == 0);   /* a subnormal is still its value */
        while (*end == ' ' || *end == '\t') end++;
        long idx;
        if (end == val || *end || (!range && !isfinite(v)))
            rc = gms_err(err, "%s:%lu: %.*s%s: '%.*s%s' is not a number", path, lineno, QUOTED(buf), QUOTED(val));
        else if (range)
            rc = gms_err(err, "%s:%lu: %.*s%s: '%.*s%s' is out of range for a double", path, lineno, QUOTED(buf), QUOTED(val));
        else if (index_of(st[ns - 1], &idx))
            rc = gms_err(err, "%s:%lu: %.*s%s: the point's index '%.*s%s' is not a number", path, lineno, QUOTED(buf), QUOTED(st[ns - 1]));
        else
            put(out, ns == 2 ? st[0] : "", idx, v);
    }
    if (!rc && ferror(f)) rc = gms_err(err, "%s:%lu: %s", path, lineno + 1, strerror(errno));
    free(buf);
    free(st[0]);
    free(st[1]);
    fclose(f);
    return rc;
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
    if (xpat && !xs.n) {
        pts_free(&ys);
        return gms_err(err, "--x %s matches no statistic of %s", xpat, path);
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
    if (xpat) {
        size_t with_x = 0;
        for (size_t i = 0; i < ss->n; i++)
            for (size_t k = 0; k < ss->s[i].n; k++) with_x += ss->s[i].ystate[k] == GMS_CELL_OK;
        if (!with_x) {
            gms_series_free(ss);
            return gms_err(err, "--x %s matches statistics of %s, but none of the same line and point as --y %s", xpat, path, ypat);
        }
    }
    *out = ss;
    return 0;
}
