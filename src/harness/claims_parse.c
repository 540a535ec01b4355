/* Reads a claims file (format in docs/repro.md). One statement per line, `#` comments, a line
 * ending in `\` continues. Top level: `title`, `source`, `figure`, `claim ID`; after a claim:
 * `says`, `paper`, `metric [NAME =] EXPR`, `holds CHAIN`, `needs`, `note`. Every error is
 * file:line with what was expected. */
#include "harness/claims.h"
#include "harness/util.h"
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void free_claim(gms_claim *c)
{
    free(c->id); free(c->says); free(c->paper); free(c->needs); free(c->note); free(c->holds_text);
    for (size_t i = 0; i < c->nmetrics; i++) {
        free(c->metrics[i].name); free(c->metrics[i].text); gms_cexpr_free(c->metrics[i].expr);
    }
    free(c->metrics);
    for (size_t h = 0; h < c->nholds; h++) {
        for (size_t i = 0; i < c->holds[h].n; i++) gms_cexpr_free(c->holds[h].e[i]);
        free(c->holds[h].e); free(c->holds[h].cmps);
    }
    free(c->holds);
}

void gms_claims_free(gms_claims *c)
{
    if (!c) return;
    for (size_t i = 0; i < c->n; i++) free_claim(&c->claims[i]);
    free(c->claims);
    for (size_t i = 0; i < c->nfigs; i++) {
        free(c->figs[i].stat); free(c->figs[i].baseline); free(c->figs[i].x); free(c->figs[i].title);
        free(c->figs[i].variants);
    }
    free(c->figs);
    free(c->path); free(c->title); free(c->source);
    free(c);
}

/* the rest of a line as a string value: "quoted" (no escapes but \") or bare */
static char *str_value(const char *v, const char *path, int line, const char *kw, gms_error *err)
{
    while (*v == ' ' || *v == '\t') v++;
    size_t n = strlen(v);
    while (n && (v[n - 1] == ' ' || v[n - 1] == '\t')) n--;
    if (!n) { gms_err_at(err, path, line, "'%s' needs a value", kw); return NULL; }
    if (v[0] == '"') {
        if (n < 2 || v[n - 1] != '"') { gms_err_at(err, path, line, "'%s': unterminated quote", kw); return NULL; }
        v++; n -= 2;
    }
    char *s = gms_xcalloc(1, n + 1);
    memcpy(s, v, n);
    return s;
}

static int parse_cmp(const char **p, gms_cmp *out)
{
    const char *s = *p;
    while (*s == ' ' || *s == '\t') s++;
    if (s[0] == '<' && s[1] == '=') { *out = GMS_CMP_LE; *p = s + 2; return 1; }
    if (s[0] == '>' && s[1] == '=') { *out = GMS_CMP_GE; *p = s + 2; return 1; }
    if (s[0] == '<') { *out = GMS_CMP_LT; *p = s + 1; return 1; }
    if (s[0] == '>') { *out = GMS_CMP_GT; *p = s + 1; return 1; }
    return 0;
}

static int add_metric(gms_claim *c, const char *v, const char *path, int line, gms_error *err)
{
    while (*v == ' ' || *v == '\t') v++;
    /* NAME = EXPR, or EXPR alone (named "m") */
    const char *q = v;
    char name[64] = "m";
    if (isalpha((unsigned char)*q) || *q == '_') {
        while (isalnum((unsigned char)*q) || *q == '_') q++;
        const char *r = q;
        while (*r == ' ' || *r == '\t') r++;
        if (*r == '=' && r[1] != '=') {
            if ((size_t)(q - v) >= sizeof name) return gms_err_at(err, path, line, "metric name too long");
            snprintf(name, sizeof name, "%.*s", (int)(q - v), v);
            v = r + 1;
        }
    }
    for (size_t i = 0; i < c->nmetrics; i++)
        if (!strcmp(c->metrics[i].name, name))
            return gms_err_at(err, path, line, "claim %s: metric '%s' defined twice%s", c->id, name,
                              !strcmp(name, "m") ? " (name the metrics: metric NAME = EXPR)" : "");
    char msg[256] = "";
    gms_cexpr *e = gms_cexpr_parse(v, NULL, msg, sizeof msg);
    if (!e) return gms_err_at(err, path, line, "metric: %s", msg);
    const char *names[64], *bad = NULL;
    for (size_t i = 0; i < c->nmetrics && i < 64; i++) names[i] = c->metrics[i].name;
    if (gms_cexpr_check_names(e, names, c->nmetrics < 64 ? c->nmetrics : 64, &bad)) {
        gms_err_at(err, path, line, "metric: '%s' is not a metric defined before it in claim %s", bad, c->id);
        gms_cexpr_free(e);
        return -1;
    }
    c->metrics = gms_xrealloc(c->metrics, (c->nmetrics + 1) * sizeof *c->metrics);
    gms_claim_metric *m = &c->metrics[c->nmetrics++];
    m->name = gms_xstrdup(name);
    while (*v == ' ' || *v == '\t') v++;
    m->text = gms_xstrdup(v);
    m->expr = e;
    return 0;
}

static int parse_holds(gms_claim *c, const char *v, const char *path, int line, gms_error *err)
{
    if (!c->nmetrics) return gms_err_at(err, path, line, "claim %s: 'holds' before any 'metric'", c->id);
    while (*v == ' ' || *v == '\t') v++;
    gms_sbuf t = {0};
    if (c->holds_text) { gms_sbuf_add(&t, c->holds_text); gms_sbuf_add(&t, "; "); free(c->holds_text); }
    gms_sbuf_add(&t, v);
    c->holds_text = gms_xstrdup(t.s);
    gms_sbuf_free(&t);
    c->holds = gms_xrealloc(c->holds, (c->nholds + 1) * sizeof *c->holds);
    gms_claim_chain *ch = &c->holds[c->nholds++];
    memset(ch, 0, sizeof *ch);
    const char *p = v;
    gms_cmp cmp;
    const char *names[64];
    size_t nn = c->nmetrics < 64 ? c->nmetrics : 64;
    for (size_t i = 0; i < nn; i++) names[i] = c->metrics[i].name;
    if (parse_cmp(&p, &cmp)) {
        /* "> 1" compares the claim's first metric */
        char msg[64];
        ch->e = gms_xcalloc(1, sizeof *ch->e);
        ch->e[0] = gms_cexpr_parse(c->metrics[0].name, NULL, msg, sizeof msg);
        ch->n = 1;
        p = v;
    }
    for (;;) {
        if (ch->n) {
            if (!parse_cmp(&p, &cmp)) {
                while (*p == ' ' || *p == '\t') p++;
                if (!*p) break;
                return gms_err_at(err, path, line, "holds: expected <, <=, > or >= at '%s'", p);
            }
            ch->cmps = gms_xrealloc(ch->cmps, ch->n * sizeof *ch->cmps);
            ch->cmps[ch->n - 1] = cmp;
        }
        char msg[256] = "";
        const char *end;
        gms_cexpr *e = gms_cexpr_parse(p, &end, msg, sizeof msg);
        if (!e) return gms_err_at(err, path, line, "holds: %s", msg);
        const char *bad = NULL;
        if (gms_cexpr_check_names(e, names, nn, &bad)) {
            gms_err_at(err, path, line, "holds: '%s' is not a metric of claim %s", bad, c->id);
            gms_cexpr_free(e);
            return -1;
        }
        ch->e = gms_xrealloc(ch->e, (ch->n + 1) * sizeof *ch->e);
        ch->e[ch->n++] = e;
        p = end;
    }
    if (ch->n < 2) return gms_err_at(err, path, line, "holds: needs a comparison (e.g. 'holds > 1', 'holds a > b > 1', 'holds 1.2 <= m <= 2')");
    return 0;
}

static int parse_figure(gms_claims *cl, const char *v, const char *path, int line, gms_error *err)
{
    /* figure bars STAT [baseline=V] [absolute] [variants=A,B,...] [title="..."] |
     * figure lines STAT x=SETTING [baseline=V] [title="..."] |
     * figure lines STAT x=variant variants=A,B,... [baseline=V] [absolute] [title="..."] */
    gms_claim_figure f = { .line = line };
    char kind[16] = "", stat[128] = "";
    int used = 0;
    if (sscanf(v, " %15s %127s %n", kind, stat, &used) < 2)
        return gms_err_at(err, path, line, "figure: expected 'figure bars STAT [baseline=V] [absolute]' or 'figure lines STAT x=SETTING'");
    if (!strcmp(kind, "bars")) f.kind = GMS_FIG_BARS;
    else if (!strcmp(kind, "lines")) f.kind = GMS_FIG_LINES;
    else return gms_err_at(err, path, line, "figure: unknown kind '%s' (bars or lines)", kind);
    f.stat = gms_xstrdup(stat);
    const char *p = v + used;
    while (*p) {
        while (*p == ' ' || *p == '\t') p++;
        if (!*p) break;
        const char *a = p;
        int quoted = 0;
        while (*p && (quoted || (*p != ' ' && *p != '\t'))) { if (*p == '"') quoted = !quoted; p++; }
        char word[512];
        snprintf(word, sizeof word, "%.*s", (int)(p - a), a);
        char *eq = strchr(word, '=');
        char *val = eq ? eq + 1 : NULL;
        if (eq) *eq = 0;
        if (val && val[0] == '"') { val++; size_t n = strlen(val); if (n && val[n - 1] == '"') val[n - 1] = 0; }
        if (!strcmp(word, "absolute") && !val) f.absolute = 1;
        else if (!strcmp(word, "baseline") && val) { free(f.baseline); f.baseline = gms_xstrdup(val); }
        else if (!strcmp(word, "x") && val && f.kind == GMS_FIG_LINES) { free(f.x); f.x = gms_xstrdup(val); }
        else if (!strcmp(word, "title") && val) { free(f.title); f.title = gms_xstrdup(val); }
        else if (!strcmp(word, "variants") && val && *val) { free(f.variants); f.variants = gms_xstrdup(val); }
        else {
            free(f.stat); free(f.baseline); free(f.x); free(f.title); free(f.variants);
            return gms_err_at(err, path, line, "figure %s: unexpected '%s'", kind, word);
        }
    }
    const char *why = NULL;
    if (f.kind == GMS_FIG_LINES && !f.x) why = "figure lines: needs x=SETTING (the swept option or parameter) or x=variant";
    else if (f.kind == GMS_FIG_LINES && !strcmp(f.x, "variant") && (!f.variants || !strchr(f.variants, ',')))
        why = "figure lines x=variant: needs variants=A,B,... (two or more: the x axis, in order)";
    else if (f.kind == GMS_FIG_LINES && strcmp(f.x, "variant") && f.variants)
        why = "figure lines: variants= goes with x=variant (a setting's lines take every point that sets it)";
    if (why) {
        free(f.stat); free(f.title); free(f.baseline); free(f.x); free(f.variants);
        return gms_err_at(err, path, line, "%s", why);
    }
    cl->figs = gms_xrealloc(cl->figs, (cl->nfigs + 1) * sizeof *cl->figs);
    cl->figs[cl->nfigs++] = f;
    return 0;
}

static int finish_claim(const gms_claim *c, const char *path, gms_error *err)
{
    if (!c->says) return gms_err_at(err, path, c->line, "claim %s: needs 'says' (the seed's statement)", c->id);
    if (c->needs) return 0;
    if (!c->nmetrics) return gms_err_at(err, path, c->line, "claim %s: needs a 'metric' (or 'needs' if it cannot run yet)", c->id);
    if (!c->nholds) return gms_err_at(err, path, c->line, "claim %s: needs 'holds' (what the metric must satisfy)", c->id);
    return 0;
}

static int parse_line(gms_claims *cl, char *s, const char *path, int line, gms_error *err)
{
    while (*s == ' ' || *s == '\t') s++;
    if (!*s || *s == '#') return 0;
    char *v = s;
    while (*v && *v != ' ' && *v != '\t') v++;
    if (*v) *v++ = 0;
    gms_claim *c = cl->n ? &cl->claims[cl->n - 1] : NULL;
    if (!strcmp(s, "title") || !strcmp(s, "source")) {
        char **dst = !strcmp(s, "title") ? &cl->title : &cl->source;
        if (*dst) return gms_err_at(err, path, line, "'%s' given twice", s);
        return (*dst = str_value(v, path, line, s, err)) ? 0 : -1;
    }
    if (!strcmp(s, "figure")) return parse_figure(cl, v, path, line, err);
    if (!strcmp(s, "claim")) {
        if (c && finish_claim(c, path, err)) return -1;
        char id[64];
        while (*v == ' ' || *v == '\t') v++;
        size_t idn = strcspn(v, " \t");
        if (!idn) return gms_err_at(err, path, line, "claim: needs an id (as in ../shared/spec, e.g. C3.9)");
        if (idn >= sizeof id) return gms_err_at(err, path, line, "claim: the id '%.20s...' is longer than %zu characters", v, sizeof id - 1);
        memcpy(id, v, idn);
        id[idn] = 0;
        const char *rest = v + idn;
        while (*rest == ' ' || *rest == '\t') rest++;
        if (*rest && *rest != '#') return gms_err_at(err, path, line, "claim %s: unexpected '%s' after the id (the statement goes on a 'says' line)", id, rest);
        for (size_t i = 0; i < cl->n; i++)
            if (!strcmp(cl->claims[i].id, id)) return gms_err_at(err, path, line, "claim %s: defined twice (first at line %d)", id, cl->claims[i].line);
        cl->claims = gms_xrealloc(cl->claims, (cl->n + 1) * sizeof *cl->claims);
        c = &cl->claims[cl->n++];
        memset(c, 0, sizeof *c);
        c->id = gms_xstrdup(id);
        c->line = line;
        return 0;
    }
    static const char *const claim_kw[] = { "says", "paper", "metric", "holds", "needs", "note", NULL };
    int is_claim_kw = 0;
    for (int i = 0; claim_kw[i]; i++) is_claim_kw |= !strcmp(s, claim_kw[i]);
    if (!is_claim_kw)
        return gms_err_at(err, path, line, "unknown statement '%s' (title, source, figure, claim; in a claim: says, paper, metric, holds, needs, note)", s);
    if (!c) return gms_err_at(err, path, line, "'%s' before the first 'claim'", s);
    if (!strcmp(s, "metric")) return add_metric(c, v, path, line, err);
    if (!strcmp(s, "holds")) return parse_holds(c, v, path, line, err);
    char **dst = !strcmp(s, "says") ? &c->says : !strcmp(s, "paper") ? &c->paper : !strcmp(s, "needs") ? &c->needs : &c->note;
    if (*dst) return gms_err_at(err, path, line, "claim %s: '%s' given twice", c->id, s);
    return (*dst = str_value(v, path, line, s, err)) ? 0 : -1;
}

int gms_claims_parse_text(const char *path, const char *text, gms_claims **out, gms_error *err)
{
    gms_claims *cl = gms_xcalloc(1, sizeof *cl);
    cl->path = gms_xstrdup(path);
    gms_sbuf cur = {0};
    int line = 0, first = 0, rc = 0;
    const char *p = text;
    while (*p && !rc) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        line++;
        if (!cur.n) first = line;
        if (n && p[n - 1] == '\r') n--;
        if (memchr(p, 0, n)) { rc = gms_err_at(err, path, line, "NUL byte"); break; }
        if (n && p[n - 1] == '\\') { gms_sbuf_addn(&cur, p, n - 1); gms_sbuf_add(&cur, " "); }
        else {
            gms_sbuf_addn(&cur, p, n);
            char *s = gms_xstrdup(gms_sbuf_str(&cur));
            rc = parse_line(cl, s, path, first, err);
            free(s);
            cur.n = 0;
            if (cur.s) cur.s[0] = 0;
        }
        p = nl ? nl + 1 : p + n;
    }
    if (!rc && cur.n) rc = gms_err_at(err, path, first, "the file ends in a continued line");
    if (!rc && cl->n) rc = finish_claim(&cl->claims[cl->n - 1], path, err);
    if (!rc && !cl->n) rc = gms_err_at(err, path, 0, "no claims");
    gms_sbuf_free(&cur);
    if (rc) { gms_claims_free(cl); return -1; }
    *out = cl;
    return 0;
}

int gms_claims_parse(const char *path, gms_claims **out, gms_error *err)
{
    size_t len;
    char *text = gms_read_file(path, &len, err);
    if (!text) return -1;
    if (strlen(text) != len) { free(text); return gms_err(err, "%s: NUL byte", path); }
    int rc = gms_claims_parse_text(path, text, out, err);
    free(text);
    return rc;
}
