/* Seed studies as data (repro.h): finding them, loading a mode's sweep with its store moved to
 * the output directory, and the claim-by-claim report. */
#include "harness/repro.h"
#include "harness/report.h"
#include "harness/util.h"
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int is_dir(const char *p) { struct stat st; return p && stat(p, &st) == 0 && S_ISDIR(st.st_mode); }
static int is_file(const char *p) { struct stat st; return p && stat(p, &st) == 0 && S_ISREG(st.st_mode); }

char *gms_repro_dir(const char *given)
{
    if (given) return is_dir(given) ? gms_path_abs(given) : NULL;
    const char *env = getenv("GMS_REPRO_DIR");
    if (env && *env) return is_dir(env) ? gms_path_abs(env) : NULL;
    char buf[4096];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n > 0) {
        buf[n] = 0;
        char *bindir = gms_path_dir(buf);
        char *up = gms_path_join(bindir, "../repro");
        free(bindir);
        if (is_dir(up)) { char *a = gms_path_abs(up); free(up); return a; }
        free(up);
    }
    return is_dir("repro") ? gms_path_abs("repro") : NULL;
}

void gms_repro_study_free(gms_repro_study *s)
{
    free(s->name); free(s->dir); free(s->spec); free(s->claims_path); free(s->db); free(s->results);
    free(s->report_md); free(s->out_dir); free(s->mode); free(s->part);
    memset(s, 0, sizeof *s);
}

static int valid_name(const char *n)
{
    if (!*n || *n == '.') return 0;
    for (const char *p = n; *p; p++)
        if (!(( *p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '-' || *p == '_')) return 0;
    return 1;
}

static void list_names(const char *repro_dir, gms_sbuf *b)
{
    DIR *d = opendir(repro_dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char *dir = gms_path_join(repro_dir, e->d_name), *cl = gms_path_join(dir, "claims");
        if (is_file(cl)) { if (b->n) gms_sbuf_add(b, ", "); gms_sbuf_add(b, e->d_name); }
        free(dir); free(cl);
    }
    closedir(d);
}

int gms_repro_study_open(const char *repro_dir, const char *name, const char *mode, const char *out_dir,
                         gms_repro_study *s, gms_error *err)
{
    memset(s, 0, sizeof *s);
    if (!valid_name(name)) return gms_err(err, "'%s' is not a study name (letters, digits, - and _)", name);
    s->name = gms_xstrdup(name);
    s->mode = gms_xstrdup(mode);
    s->dir = gms_path_join(repro_dir, name);
    s->claims_path = gms_path_join(s->dir, "claims");
    if (!is_file(s->claims_path)) {
        gms_sbuf known = {0};
        list_names(repro_dir, &known);
        gms_err(err, "no study '%s' in %s (studies: %s)", name, repro_dir, known.n ? known.s : "none");
        gms_sbuf_free(&known);
        gms_repro_study_free(s);
        return -1;
    }
    char fn[64];
    snprintf(fn, sizeof fn, "%s.sweep", mode);
    s->spec = gms_path_join(s->dir, fn);
    s->out_dir = gms_path_abs(out_dir);
    char stem[256];
    snprintf(stem, sizeof stem, "%s-%s.db", name, mode);
    s->db = gms_path_join(s->out_dir, stem);
    snprintf(stem, sizeof stem, "%s-%s.results", name, mode);
    s->results = gms_path_join(s->out_dir, stem);
    snprintf(stem, sizeof stem, "%s-%s.md", name, mode);
    s->report_md = gms_path_join(s->out_dir, stem);
    return 0;
}

int gms_repro_load_spec(const gms_repro_study *s, int check, gms_sweep_spec **out, gms_error *err)
{
    if (!is_file(s->spec)) return gms_err(err, "study %s has no %s form (%s is missing)", s->name, s->mode, s->spec);
    gms_sweep_spec *sp;
    if (gms_sweep_spec_load(s->spec, check, &sp, err)) return -1;
    free(sp->db); sp->db = gms_xstrdup(s->db);
    free(sp->results); sp->results = gms_xstrdup(s->results);
    free(sp->name);
    char nm[256];
    snprintf(nm, sizeof nm, "%s-%s", s->name, s->mode);
    sp->name = gms_xstrdup(nm);
    *out = sp;
    return 0;
}

int gms_repro_check_claims(const gms_repro_study *s, gms_error *err)
{
    gms_claims *cl;
    if (gms_claims_parse(s->claims_path, &cl, err)) return -1;
    gms_sweep_spec *mine = NULL, *other = NULL;
    if (!is_file(s->spec)) {
        gms_claims_free(cl);
        return gms_err(err, "study %s has no %s form (%s is missing)", s->name, s->mode, s->spec);
    }
    int rc = gms_sweep_spec_load(s->spec, 0, &mine, err);
    char *op = gms_path_join(s->dir, strcmp(s->mode, "quick") ? "quick.sweep" : "full.sweep");
    gms_error e2 = {0};
    if (!rc && is_file(op) && gms_sweep_spec_load(op, 0, &other, &e2)) other = NULL;   /* its own errors: its own plan */
    if (!rc) rc = gms_claims_check_names(cl, mine, other, err);
    free(op);
    gms_sweep_spec_free(mine);
    gms_sweep_spec_free(other);
    gms_claims_free(cl);
    return rc;
}

int gms_repro_list(const char *repro_dir, FILE *out, gms_error *err)
{
    DIR *d = opendir(repro_dir);
    if (!d) return gms_err(err, "%s: %s", repro_dir, strerror(errno));
    char **names = NULL;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        names = gms_xrealloc(names, (n + 1) * sizeof *names);
        names[n++] = gms_xstrdup(e->d_name);
    }
    closedir(d);
    for (size_t i = 1; i < n; i++)          /* sorted, for a stable listing */
        for (size_t j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) { char *t = names[j]; names[j] = names[j - 1]; names[j - 1] = t; }
    fprintf(out, "%-16s %6s %9s %6s %6s  %s\n", "study", "claims", "runnable", "quick", "full", "title");
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        char *dir = gms_path_join(repro_dir, names[i]), *cp = gms_path_join(dir, "claims");
        char *q = gms_path_join(dir, "quick.sweep"), *f = gms_path_join(dir, "full.sweep");
        if (is_file(cp)) {
            gms_claims *cl;
            gms_error e2 = {0};
            if (gms_claims_parse(cp, &cl, &e2)) { fprintf(out, "%-16s  (claims file error: %s)\n", names[i], e2.msg); rc = -1; }
            else {
                size_t runnable = 0;
                for (size_t k = 0; k < cl->n; k++) runnable += !cl->claims[k].needs;
                fprintf(out, "%-16s %6zu %9zu %6s %6s  %s\n", names[i], cl->n, runnable, is_file(q) ? "yes" : "-",
                        is_file(f) ? "yes" : "-", cl->title ? cl->title : "");
                gms_claims_free(cl);
            }
        }
        free(dir); free(cp); free(q); free(f); free(names[i]);
    }
    free(names);
    if (rc) gms_err(err, "some claims files have errors");
    return rc;
}

/* ---------------------------------------------------------------- the report */

static void md_cell(FILE *md, const char *s)
{
    for (; s && *s; s++) {
        if (*s == '|') fputs("\\|", md);
        else if (*s == '\n') fputc(' ', md);
        else fputc(*s, md);
    }
}

static void fmt_value(double v, char *buf, size_t n)
{
    if (isnan(v)) snprintf(buf, n, "-");
    else if (fabs(v) >= 1e5 || (fabs(v) < 1e-3 && v != 0)) snprintf(buf, n, "%.4g", v);
    else snprintf(buf, n, "%.3f", v);
}

int gms_repro_write_md(const gms_claims *cl, const gms_claim_result *res, const char *study, const char *mode,
                       const char *const *figs, const char *const *fig_errs, FILE *md)
{
    int hold = 0, notrun = 0, fails = 0, nodata = 0;
    for (size_t i = 0; i < cl->n; i++) {
        hold += res[i].verdict == GMS_VERDICT_HOLDS;
        notrun += res[i].verdict == GMS_VERDICT_NOT_RUNNABLE;
        fails += res[i].verdict == GMS_VERDICT_FAILS;
        nodata += res[i].verdict == GMS_VERDICT_NO_DATA;
    }
    fprintf(md, "# %s (%s)\n\n", cl->title ? cl->title : study, mode);
    if (cl->source) fprintf(md, "Source: %s\n\n", cl->source);
    fprintf(md, "**%d of %zu claims hold**, %d do not, %d have no data, %d not yet runnable.\n\n", hold, cl->n,
            fails, nodata, notrun);
    fprintf(md, "| claim | the seed says | seed's number | ours | holds when | verdict |\n|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < cl->n; i++) {
        const gms_claim *c = &cl->claims[i];
        const gms_claim_result *r = &res[i];
        fprintf(md, "| %s | ", c->id);
        md_cell(md, c->says);
        fputs(" | ", md);
        md_cell(md, c->paper ? c->paper : "");
        fputs(" | ", md);
        for (size_t k = 0; k < c->nmetrics; k++) {
            char v[32];
            fmt_value(r->values[k], v, sizeof v);
            fprintf(md, "%s%s = %s", k ? ", " : "", c->metrics[k].name, v);
        }
        fputs(" | ", md);
        md_cell(md, c->holds_text ? c->holds_text : "");
        fprintf(md, " | %s", gms_verdict_name(r->verdict));
        if (r->why[0]) { fputs(": ", md); md_cell(md, r->why); }
        fputs(" |\n", md);
    }
    int any_note = 0;
    for (size_t i = 0; i < cl->n; i++) any_note |= cl->claims[i].note != NULL;
    if (any_note) {
        fprintf(md, "\n## Why ours differ\n\n");
        for (size_t i = 0; i < cl->n; i++)
            if (cl->claims[i].note) fprintf(md, "- **%s**: %s\n", cl->claims[i].id, cl->claims[i].note);
    }
    fprintf(md, "\n## Metrics\n\n");
    for (size_t i = 0; i < cl->n; i++) {
        const gms_claim *c = &cl->claims[i];
        for (size_t k = 0; k < c->nmetrics; k++) fprintf(md, "- %s `%s = %s`\n", c->id, c->metrics[k].name, c->metrics[k].text);
    }
    if (cl->nfigs) fprintf(md, "\n## Figures\n\n");
    for (size_t i = 0; i < cl->nfigs; i++) {
        const gms_claim_figure *f = &cl->figs[i];
        const char *t = f->title ? f->title : f->stat;
        if (figs && figs[i]) fprintf(md, "![%s](%s)\n\n", t, figs[i]);
        else fprintf(md, "- %s: not drawn (%s)\n\n", t, fig_errs && fig_errs[i] ? fig_errs[i] : "no data");
    }
    fprintf(md, "\n%s: %d of %zu claims hold, %d not yet runnable\n", study, hold, cl->n, notrun);
    return 0;
}

/* a normalised figure of a part (--only) that left its baseline out: not drawn, and why */
static int no_baseline(const gms_report *r, int absolute, gms_error *err)
{
    if (absolute || r->baseline_idx != GMS_REPORT_NO_BASELINE) return 0;
    return gms_err(err, "its baseline '%s' is not in this part of the study (--only)", r->baseline);
}

int gms_repro_report(const gms_repro_study *s, FILE *out, int *n_hold, int *n_total, int *n_not_runnable,
                     gms_error *err)
{
    gms_claims *cl;
    if (gms_claims_parse(s->claims_path, &cl, err)) return -1;
    if (!is_file(s->db)) {
        gms_claims_free(cl);
        return gms_err(err, "%s: no results yet (run `gpumemsim repro run %s --%s` first)", s->db, s->name, s->mode);
    }
    gms_store *st;
    if (gms_store_open(s->db, 0, &st, err)) { gms_claims_free(cl); return -1; }
    gms_claim_result *res;
    int rc = gms_claims_eval(cl, st, &res, err);
    if (rc) { gms_store_close(st); gms_claims_free(cl); return -1; }
    char **figs = gms_xcalloc(cl->nfigs + 1, sizeof *figs), **ferr = gms_xcalloc(cl->nfigs + 1, sizeof *ferr);
    for (size_t i = 0; i < cl->nfigs; i++) {
        const gms_claim_figure *f = &cl->figs[i];
        char fn[256];
        snprintf(fn, sizeof fn, "%s-%s-fig%zu.png", s->name, s->mode, i + 1);
        char *path = gms_path_join(s->out_dir, fn);
        gms_error e2 = {0};
        int frc;
        if (f->kind == GMS_FIG_BARS) {
            gms_report *r;
            frc = gms_report_build(st, f->stat, f->baseline, &r, &e2);
            if (!frc) {
                frc = no_baseline(r, f->absolute, &e2) || gms_plot_bars_opts(r, f->absolute, f->title, f->variants, path, &e2);
                gms_report_free(r);
            }
        } else if (!strcmp(f->x, "variant")) {
            /* a sweep over variants (the swept value inside a cache string, say) */
            gms_report *r;
            gms_series_set *ss = NULL;
            frc = gms_report_build(st, f->stat, f->baseline, &r, &e2);
            if (!frc) {
                frc = no_baseline(r, f->absolute, &e2) || gms_series_from_report(r, f->variants, f->absolute, &ss, &e2);
                gms_report_free(r);
            }
            if (!frc) frc = gms_plot_lines_titled(ss, f->title, path, &e2);
            gms_series_free(ss);
        } else {
            gms_series_set *ss = NULL;
            frc = gms_series_build(st, f->stat, f->x, &ss, &e2);
            if (!frc && f->baseline) frc = gms_series_normalise(st, ss, f->baseline, &e2);
            if (!frc) frc = gms_plot_lines_titled(ss, f->title, path, &e2);
            gms_series_free(ss);
        }
        if (frc) ferr[i] = gms_xstrdup(e2.msg);
        else figs[i] = gms_xstrdup(fn);   /* relative: the report sits beside its figures */
        free(path);
    }
    FILE *md = fopen(s->report_md, "w");
    if (!md) rc = gms_err(err, "%s: cannot create: %s", s->report_md, strerror(errno));
    else {
        /* a part's report says so in its title, so it is not read as the whole study's */
        gms_sbuf mode = {0};
        gms_sbuf_printf(&mode, "%s%s%s", s->mode, s->part ? ", part: " : "", s->part ? s->part : "");
        gms_repro_write_md(cl, res, s->name, mode.s, (const char *const *)figs, (const char *const *)ferr, md);
        gms_sbuf_free(&mode);
        if (fclose(md)) rc = gms_err(err, "%s: write error", s->report_md);
    }
    int hold = 0, notrun = 0;
    if (!rc) {
        for (size_t i = 0; i < cl->n; i++) {
            const gms_claim_result *r = &res[i];
            char vals[256] = "";
            size_t off = 0;
            for (size_t k = 0; k < cl->claims[i].nmetrics && off < sizeof vals; k++) {
                char v[32];
                fmt_value(r->values[k], v, sizeof v);
                off += (size_t)snprintf(vals + off, sizeof vals - off, "%s%s=%s", k ? " " : "", cl->claims[i].metrics[k].name, v);
            }
            /* ours, then why (no data, not runnable), then the seed's number to compare with */
            fprintf(out, "  %-8s %-16s %s%s%s", cl->claims[i].id, gms_verdict_name(r->verdict), vals,
                    r->why[0] ? (vals[0] ? "  " : "") : "", r->why);
            if (cl->claims[i].paper) fprintf(out, "  (seed: %s)", cl->claims[i].paper);
            fputc('\n', out);
            hold += r->verdict == GMS_VERDICT_HOLDS;
            notrun += r->verdict == GMS_VERDICT_NOT_RUNNABLE;
        }
        for (size_t i = 0; i < cl->nfigs; i++)
            if (ferr[i]) fprintf(out, "  figure %zu not drawn: %s\n", i + 1, ferr[i]);
        if (s->part) fprintf(out, "part of the study: %s\n", s->part);
        fprintf(out, "report: %s\n", s->report_md);
        fprintf(out, "%s: %d of %zu claims hold, %d not yet runnable\n", s->name, hold, cl->n, notrun);
    }
    if (n_hold) *n_hold = hold;
    if (n_total) *n_total = (int)cl->n;
    if (n_not_runnable) *n_not_runnable = notrun;
    for (size_t i = 0; i < cl->nfigs; i++) { free(figs[i]); free(ferr[i]); }
    free(figs); free(ferr);
    gms_claim_results_free(res, cl->n);
    gms_store_close(st);
    gms_claims_free(cl);
    return rc;
}
