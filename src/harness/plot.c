/* Figures with gnuplot (Debian package gnuplot-nox): grouped bars for a report (one cluster
 * per workload plus the geometric mean, one bar per variant) and lines of a metric against a
 * swept setting. The terminal follows the output's extension: .png (pngcairo) or .svg.
 * Cells without a value get no bar and a "failed" or "-" label, never a zero bar. */
#include "harness/report.h"
#include "harness/slurm.h"
#include "harness/util.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* a gnuplot double-quoted string */
static void gq(gms_sbuf *b, const char *s)
{
    gms_sbuf_add(b, "\"");
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') gms_sbuf_add(b, "\\");
        if (*s == '\n') { gms_sbuf_add(b, " "); continue; }
        gms_sbuf_addn(b, s, 1);
    }
    gms_sbuf_add(b, "\"");
}

/* gnuplot draws into OUT.partPID, renamed to OUT once whole: two reports drawing the same
 * figure at once (two `repro report` runs on one store) each get a whole figure, where drawing
 * into OUT itself let one process's unlink delete the figure the other had just drawn. */
static int part_name(const char *out, char *buf, size_t n, gms_error *err)
{
    int k = snprintf(buf, n, "%s.part%ld", out, (long)getpid());
    if (k < 0 || (size_t)k >= n) return gms_err(err, "%s: the plot's file name is too long", out);
    return 0;
}

static int terminal(gms_sbuf *b, const char *out, int w, int h, gms_error *err)
{
    char part[4096];
    if (part_name(out, part, sizeof part, err)) return -1;
    const char *ext = strrchr(out, '.');
    if (ext && !strcasecmp(ext, ".png")) gms_sbuf_printf(b, "set terminal pngcairo size %d,%d noenhanced font \"sans,10\"\n", w, h);
    else if (ext && !strcasecmp(ext, ".svg")) gms_sbuf_printf(b, "set terminal svg size %d,%d noenhanced font \"sans,10\" background \"white\"\n", w, h);
    else return gms_err(err, "%s: the plot's file name must end in .png or .svg", out);
    gms_sbuf_add(b, "set output ");
    gq(b, part);
    gms_sbuf_add(b, "\n");
    return 0;
}

static int run_gnuplot(const char *script, const char *out, gms_error *err)
{
    char part[4096];
    if (part_name(out, part, sizeof part, err)) return -1;
    char *gp = gms_which("gnuplot");
    if (!gp) return gms_err(err, "gnuplot not found in PATH: install it (Debian: apt-get install gnuplot-nox) to draw %s", out);
    char tmpl[] = "/tmp/gpumemsim-plot-XXXXXX";
    int fd = mkstemp(tmpl);
    if (fd < 0) { free(gp); return gms_err(err, "cannot create a temporary file: %s", strerror(errno)); }
    size_t len = strlen(script);
    int bad = write(fd, script, len) != (ssize_t)len;
    close(fd);
    if (bad) { unlink(tmpl); free(gp); return gms_err(err, "cannot write %s", tmpl); }
    unlink(part);
    char *argv[] = { gp, tmpl, NULL };
    char *text = NULL;
    int status = 0;
    int rc = gms_capture(argv, &text, &status, err);
    unlink(tmpl);
    free(gp);
    if (rc) { unlink(part); return -1; }
    struct stat st;
    if (status || stat(part, &st) || st.st_size == 0) {
        /* gnuplot's own message is several lines (the script line, a caret, the error, naming
         * the deleted temporary script): keep its last non-empty line, the error itself */
        size_t L = strlen(text);
        while (L && (text[L - 1] == '\n' || text[L - 1] == ' ')) text[--L] = 0;
        const char *last = strrchr(text, '\n');
        last = last ? last + 1 : text;
        const char *q = strstr(last, "\" line ");   /* "/tmp/gpumemsim-plot-XXXXXX" line 20: ... */
        if (q && (q = strchr(q + 7, ':'))) last = q + 1 + (q[1] == ' ');
        rc = gms_err(err, "gnuplot failed to draw %s (exit %d): %s", out, status, *last ? last : "no output file");
        unlink(part);
        unlink(out);   /* no empty, partial or stale figure left behind */
    } else if (rename(part, out)) {
        rc = gms_err(err, "cannot rename %s to %s: %s", part, out, strerror(errno));
        unlink(part);
    }
    free(text);
    return rc;
}

static const char *missing_word(gms_cell_state s)
{
    return s == GMS_CELL_FAILED ? "failed" : s == GMS_CELL_NA ? "n/a" : "-";
}

int gms_plot_bars(const gms_report *r, int absolute, const char *out, gms_error *err)
{
    return gms_plot_bars_opts(r, absolute, NULL, NULL, out, err);
}

/* the report's variant indices named in the comma-separated list, in its order (all when NULL) */
static size_t *pick_variants(const gms_report *r, const char *list, size_t *n, gms_error *err)
{
    size_t *vi = gms_xcalloc(r->nvariants + 1, sizeof *vi);
    *n = 0;
    if (!list) {
        for (size_t v = 0; v < r->nvariants; v++) vi[(*n)++] = v;
        return vi;
    }
    for (const char *p = list; *p;) {
        size_t k = strcspn(p, ",");
        size_t v = 0;
        while (v < r->nvariants && (strlen(r->variants[v]) != k || strncmp(r->variants[v], p, k))) v++;
        if (v == r->nvariants) {
            gms_err(err, "variants=: '%.*s' is not among the variants reported", (int)k, p);
            free(vi);
            return NULL;
        }
        if (*n <= r->nvariants) vi[(*n)++] = v;
        p += k + (p[k] == ',');
    }
    return vi;
}

int gms_plot_bars_opts(const gms_report *r, int absolute, const char *title, const char *variants, const char *out,
                       gms_error *err)
{
    size_t nv, nw = r->nworkloads, ncl = nw + 1;   /* + geomean cluster */
    size_t *vi = pick_variants(r, variants, &nv, err);
    if (!vi) return -1;
    size_t drawable = 0;
    for (size_t j = 0; j < nv; j++)
        for (size_t c = 0; c < nw; c++) {
            const gms_report_cell *cell = &r->cells[c * r->nvariants + vi[j]];
            drawable += (absolute ? cell->state : cell->nstate) == GMS_CELL_OK;
        }
    if (!drawable) {
        free(vi);
        return gms_err(err, "no finished point with a value of %s%s yet: nothing to draw", r->metric,
                       absolute ? "" : " (and of its baseline)");
    }
    size_t stride = nv + 1;                                        /* a gap between clusters */
    int width = (int)(ncl * nv * 22 + 260);
    if (width < 640) width = 640;
    if (width > 4000) width = 4000;
    gms_sbuf b = {0};
    if (terminal(&b, out, width, 480, err)) { gms_sbuf_free(&b); free(vi); return -1; }
    gms_sbuf_add(&b, "set title ");
    gms_sbuf t = {0};
    if (title) gms_sbuf_add(&t, title);
    else if (absolute) gms_sbuf_printf(&t, "%s: %s", r->study, r->metric);
    else gms_sbuf_printf(&t, "%s: %s normalised to %s", r->study, r->metric, r->baseline);
    gq(&b, t.s);
    gms_sbuf_free(&t);
    gms_sbuf_add(&b, "\nset style fill solid 0.85 border -1\nset boxwidth 0.9\nset grid ytics\n"
                     "set key outside right top vertical\nset yrange [0:*]\nset xtics nomirror rotate by -30\n"
                     "set xrange [-1:");
    gms_sbuf_printf(&b, "%zu]\nset ylabel ", ncl * stride - 1);
    if (absolute || !title) gq(&b, absolute ? r->metric : "normalised");
    else {
        gms_sbuf yl = {0};
        gms_sbuf_printf(&yl, "%s / %s", r->metric, r->baseline);
        gq(&b, yl.s);
        gms_sbuf_free(&yl);
    }
    gms_sbuf_add(&b, "\nset xtics (");
    for (size_t c = 0; c < ncl; c++) {
        if (c) gms_sbuf_add(&b, ", ");
        gq(&b, c < nw ? r->workloads[c] : "geomean");
        gms_sbuf_printf(&b, " %g", (double)(c * stride) + (double)(nv - 1) / 2.0);
    }
    gms_sbuf_add(&b, ")\n");
    if (!absolute) gms_sbuf_add(&b, "set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb \"gray40\"\n");
    double ymax = 0;
    for (size_t j = 0; j < nv; j++) {
        size_t v = vi[j];
        gms_sbuf_printf(&b, "$v%zu << EOD\n", j);
        for (size_t c = 0; c < ncl; c++) {
            double x = (double)(c * stride + j), y = NAN;
            gms_cell_state s;
            if (c < nw) {
                const gms_report_cell *cell = &r->cells[c * r->nvariants + v];
                s = absolute ? cell->state : cell->nstate;
                if (s == GMS_CELL_OK) y = absolute ? cell->value : cell->norm;
            } else {
                const gms_report_gm *g = &(absolute ? r->gm_abs : r->gm_norm)[r->ngroups * r->nvariants + v];
                s = g->n_used ? GMS_CELL_OK : GMS_CELL_MISSING;
                y = g->n_used ? g->value : NAN;
            }
            if (s == GMS_CELL_OK) { gms_sbuf_printf(&b, "%g %.9g\n", x, y); if (y > ymax) ymax = y; }
        }
        gms_sbuf_add(&b, "EOD\n");
    }
    /* labels where a bar is missing */
    for (size_t j = 0; j < nv; j++)
        for (size_t c = 0; c < nw; c++) {
            const gms_report_cell *cell = &r->cells[c * r->nvariants + vi[j]];
            gms_cell_state s = absolute ? cell->state : cell->nstate;
            if (s == GMS_CELL_OK) continue;
            gms_sbuf_add(&b, "set label ");
            gq(&b, missing_word(s));
            gms_sbuf_printf(&b, " at %zu, graph 0.02 rotate by 90 left front font \",8\" tc rgb \"red\"\n", c * stride + j);
        }
    gms_sbuf_add(&b, "plot ");
    for (size_t j = 0; j < nv; j++) {
        if (j) gms_sbuf_add(&b, ", ");
        gms_sbuf_printf(&b, "$v%zu using 1:2 with boxes title ", j);
        gq(&b, r->variants[vi[j]]);
    }
    gms_sbuf_add(&b, "\n");
    (void)ymax;
    free(vi);
    int rc = run_gnuplot(b.s, out, err);
    gms_sbuf_free(&b);
    return rc;
}

int gms_plot_lines(const gms_series_set *ss, const char *out, gms_error *err)
{
    return gms_plot_lines_titled(ss, NULL, out, err);
}

int gms_plot_lines_titled(const gms_series_set *ss, const char *title, const char *out, gms_error *err)
{
    /* nothing finished yet (or no value): say so, rather than hand gnuplot an empty range */
    size_t drawable = 0;
    for (size_t i = 0; i < ss->n; i++)
        for (size_t k = 0; k < ss->s[i].n; k++) drawable += ss->s[i].ystate[k] == GMS_CELL_OK;
    if (!drawable)
        return gms_err(err, "no finished point with a value of %s sets %s yet: nothing to draw", ss->metric, ss->xname);
    gms_sbuf b = {0};
    if (terminal(&b, out, 900, 540, err)) { gms_sbuf_free(&b); return -1; }
    gms_sbuf t = {0};
    if (title) gms_sbuf_add(&t, title);
    else gms_sbuf_printf(&t, "%s against %s", ss->metric, ss->xname);
    if (!title && ss->normalised_to) gms_sbuf_printf(&t, ", normalised to %s", ss->normalised_to);
    gms_sbuf_add(&b, "set title ");
    gq(&b, t.s);
    gms_sbuf_free(&t);
    gms_sbuf_add(&b, "\nset grid\nset key outside right top vertical\nset xlabel ");
    gq(&b, ss->xname);
    gms_sbuf_add(&b, "\nset ylabel ");
    if (ss->normalised_to && title) {
        gms_sbuf yl = {0};
        gms_sbuf_printf(&yl, "%s / %s", ss->metric, ss->normalised_to);
        gq(&b, yl.s);
        gms_sbuf_free(&yl);
    } else gq(&b, ss->normalised_to ? "normalised" : ss->metric);
    gms_sbuf_add(&b, "\nset offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05\n");
    if (ss->x_categorical) {
        gms_sbuf_add(&b, "set xtics (");
        for (size_t i = 0; i < ss->nxlabels; i++) {
            if (i) gms_sbuf_add(&b, ", ");
            gq(&b, ss->xlabels[i]);
            gms_sbuf_printf(&b, " %zu", i);
        }
        gms_sbuf_add(&b, ")\n");
    }
    for (size_t s = 0; s < ss->n; s++) {
        const gms_series *se = &ss->s[s];
        gms_sbuf_printf(&b, "$s%zu << EOD\n", s);
        /* a blank line breaks the line at a missing value */
        for (size_t k = 0; k < se->n; k++) {
            if (se->ystate[k] == GMS_CELL_OK) gms_sbuf_printf(&b, "%.9g %.9g\n", se->x[k], se->y[k]);
            else gms_sbuf_add(&b, "\n");
        }
        gms_sbuf_add(&b, "EOD\n");
        for (size_t k = 0; k < se->n; k++) {
            if (se->ystate[k] == GMS_CELL_OK) continue;
            gms_sbuf_add(&b, "set label ");
            gq(&b, missing_word(se->ystate[k]));
            gms_sbuf_printf(&b, " at %.9g, graph 0.03 center front font \",8\" tc rgb \"red\"\n", se->x[k]);
        }
    }
    gms_sbuf_add(&b, "plot ");
    for (size_t s = 0; s < ss->n; s++) {
        if (s) gms_sbuf_add(&b, ", ");
        gms_sbuf_printf(&b, "$s%zu using 1:2 with linespoints pt 7 title ", s);
        gq(&b, ss->s[s].name);
    }
    gms_sbuf_add(&b, "\n");
    int rc = run_gnuplot(b.s, out, err);
    gms_sbuf_free(&b);
    return rc;
}
