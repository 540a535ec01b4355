/* Sweep spec reader: one statement per line, `#` comments, tokens split on blanks,
 * double quotes group blanks into a token (k="a b"), a trailing backslash continues a line.
 * Values of the form {a|b|c} expand a variant or workload into one per value (cartesian
 * over several braces), named NAME-a, NAME-b, ... Statements (docs/sweeps.md):
 *   db PATH | results PATH | config PATH | baseline NAME | timeout SECONDS | kernel_stats all|totals
 *   set OPT=VALUE...                       overrides for every variant
 *   seeds N|A..B ...
 *   variant NAME [config=PATH] [OPT=VALUE]...
 *   workload NAME [as LABEL] [group GROUP] [PARAM=VALUE]...
 *   exclude [variant=GLOB] [workload=GLOB] [seed=N]
 *   slurm [partition=P] [time=T] [mem=M] [account=A] [chunk=N] [parallel=N]
 * Only syntax and names are checked here; spec_check.c asks the simulator about options. */
#include "harness/spec.h"
#include "harness/util.h"
#include "util/hashmap.h"
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define GMS_SWEEP_MAX_TIMEOUT 1e9   /* seconds (about 31 years) */

void gms_kvlist_add(gms_kvlist *l, const char *key, const char *val)
{
    l->v = gms_xrealloc(l->v, (l->n + 1) * sizeof *l->v);
    l->v[l->n].key = gms_xstrdup(key);
    l->v[l->n].val = gms_xstrdup(val);
    l->n++;
}

void gms_kvlist_set(gms_kvlist *l, const char *key, const char *val)
{
    for (size_t i = 0; i < l->n; i++)
        if (!strcmp(l->v[i].key, key)) {
            free(l->v[i].val);
            l->v[i].val = gms_xstrdup(val);
            return;
        }
    gms_kvlist_add(l, key, val);
}

void gms_kvlist_free(gms_kvlist *l)
{
    for (size_t i = 0; i < l->n; i++) { free(l->v[i].key); free(l->v[i].val); }
    free(l->v);
    l->v = NULL;
    l->n = 0;
}

const char *gms_kvlist_get(const gms_kvlist *l, const char *key)
{
    for (size_t i = l->n; i-- > 0;)
        if (!strcmp(l->v[i].key, key)) return l->v[i].val;
    return NULL;
}

#define MAX_TOK 256

typedef struct line_toks { char *t[MAX_TOK]; int n; int line; } line_toks;

/* splits one logical line in place; returns -1 on an unterminated quote */
static int split(char *s, line_toks *lt)
{
    lt->n = 0;
    char *w = s;
    while (*s) {
        while (*s && isspace((unsigned char)*s)) s++;
        if (!*s || *s == '#') break;
        if (lt->n == MAX_TOK) return -2;
        char *start = w;
        int inq = 0;
        while (*s && (inq || !isspace((unsigned char)*s))) {
            if (*s == '"') { inq = !inq; s++; continue; }
            *w++ = *s++;
        }
        if (inq) return -1;
        if (*s) s++;
        *w++ = 0;
        lt->t[lt->n++] = start;
    }
    return 0;
}

static int is_name(const char *s)
{
    if (!*s) return 0;
    for (; *s; s++)
        if (isspace((unsigned char)*s) || *s == '=' || *s == '{' || *s == '}' || *s == '|' || *s == ',' || *s == '"')
            return 0;
    return 1;
}

/* "key=value" -> key, value (value may be empty); 0 if no '=' */
static int kv_split(const char *tok, char *key, size_t kn, const char **val)
{
    const char *eq = strchr(tok, '=');
    if (!eq || eq == tok || (size_t)(eq - tok) >= kn) return 0;
    memcpy(key, tok, (size_t)(eq - tok));
    key[eq - tok] = 0;
    *val = eq + 1;
    return 1;
}

static char *resolve(const gms_sweep_spec *s, const char *p)
{
    if (p[0] == '/') return gms_xstrdup(p);
    char *j = gms_path_join(s->dir, p);
    if (access(j, F_OK) && !access(p, F_OK)) { free(j); j = gms_xstrdup(p); }
    char *a = gms_path_abs(j);
    free(j);
    return a;
}

/* --- brace expansion: a list of (key, alternatives) --- */
typedef struct alt_kv { char key[128]; char *vals[64]; int nv; } alt_kv;

static void alt_free(alt_kv *a, int n)
{
    for (int i = 0; i < n; i++)
        for (int k = 0; k < a[i].nv; k++) free(a[i].vals[k]);
}

/* parses "value" or "{a|b|c}" into alternatives */
static int alt_parse(const char *file, int line, const char *key, const char *val, alt_kv *a, gms_error *err)
{
    snprintf(a->key, sizeof a->key, "%s", key);
    a->nv = 0;
    size_t L = strlen(val);
    if (L >= 2 && val[0] == '{' && val[L - 1] == '}') {
        const char *c = val + 1, *end = val + L - 1;
        while (c <= end) {
            const char *bar = memchr(c, '|', (size_t)(end - c));
            const char *e = bar ? bar : end;
            if (e == c) return gms_err_at(err, file, line, "%s: empty alternative in '%s'", key, val);
            if (a->nv == 64) return gms_err_at(err, file, line, "%s: more than 64 alternatives", key);
            char *v = gms_xmalloc((size_t)(e - c) + 1);
            memcpy(v, c, (size_t)(e - c));
            v[e - c] = 0;
            a->vals[a->nv++] = v;
            c = e + 1;
        }
    } else {
        a->vals[a->nv++] = gms_xstrdup(val);
    }
    return 0;
}

typedef struct parse_ctx {
    gms_sweep_spec *s;
    const char *file;
    gms_kvlist global_sets;
    int global_sets_line;
    char *global_config;
    int seeds_given;
    size_t cap_v, cap_w, cap_e, cap_s;
    /* the seeds so far, for the duplicate check: a scan per seed made "seeds 1..99999"
     * quadratic (seconds; the spec fuzzer's time-out). UINT64_MAX is the map's reserved key. */
    gms_u64map seen;
    int seen_max;
} parse_ctx;

static int dup_variant(parse_ctx *c, const char *name, int line, gms_error *err)
{
    for (size_t i = 0; i < c->s->nvariants; i++)
        if (!strcmp(c->s->variants[i].name, name))
            return gms_err_at(err, c->file, line, "duplicate variant name '%s' (first defined at line %d)",
                              name, c->s->variants[i].line);
    return 0;
}

static int dup_label(parse_ctx *c, const char *label, int line, gms_error *err)
{
    for (size_t i = 0; i < c->s->nworkloads; i++)
        if (!strcmp(c->s->workloads[i].label, label))
            return gms_err_at(err, c->file, line,
                              "duplicate workload '%s' (first at line %d; give one a label with 'as LABEL')",
                              label, c->s->workloads[i].line);
    return 0;
}

/* a new, zeroed workload at the end of the spec's list */
static gms_sweep_workload *add_workload(parse_ctx *c)
{
    gms_sweep_spec *s = c->s;
    if (s->nworkloads == c->cap_w) { c->cap_w = c->cap_w ? 2 * c->cap_w : 8; s->workloads = gms_xrealloc(s->workloads, c->cap_w * sizeof *s->workloads); }
    gms_sweep_workload *w = &s->workloads[s->nworkloads++];
    memset(w, 0, sizeof *w);
    return w;
}

/* emits the cartesian product of alternatives; kind 'v' = variant, 'w' = workload */
static int expand(parse_ctx *c, int kind, const char *name, const char *wl_name, const char *group,
                  const char *config, alt_kv *alts, int nalts, int line, gms_error *err)
{
    int idx[64] = {0};
    for (;;) {
        gms_sbuf nm = {0};
        gms_sbuf_add(&nm, name);
        gms_kvlist kv = {0};
        for (int i = 0; i < nalts; i++) {
            gms_kvlist_set(&kv, alts[i].key, alts[i].vals[idx[i]]);
            if (alts[i].nv > 1) { gms_sbuf_add(&nm, "-"); gms_sbuf_add(&nm, alts[i].vals[idx[i]]); }
        }
        int rc = kind == 'v' ? dup_variant(c, nm.s, line, err) : dup_label(c, nm.s, line, err);
        if (rc) { gms_sbuf_free(&nm); gms_kvlist_free(&kv); return -1; }
        gms_sweep_spec *s = c->s;
        if (kind == 'v') {
            if (s->nvariants == c->cap_v) { c->cap_v = c->cap_v ? 2 * c->cap_v : 8; s->variants = gms_xrealloc(s->variants, c->cap_v * sizeof *s->variants); }
            gms_sweep_variant *v = &s->variants[s->nvariants++];
            memset(v, 0, sizeof *v);
            v->name = nm.s;
            v->config = config ? resolve(s, config) : NULL;
            v->sets = kv;
            v->line = line;
        } else {
            gms_sweep_workload *w = add_workload(c);
            w->label = nm.s;
            w->name = gms_xstrdup(wl_name);
            w->group = gms_xstrdup(group ? group : "");
            w->params = kv;
            w->line = line;
        }
        int i = 0;
        for (; i < nalts; i++) {
            if (++idx[i] < alts[i].nv) break;
            idx[i] = 0;
        }
        if (i == nalts) return 0;
    }
}

static int parse_u64(const char *t, uint64_t *v)
{
    char *end;
    errno = 0;
    if (!isdigit((unsigned char)*t)) return -1;
    unsigned long long x = strtoull(t, &end, 10);
    if (errno || *end) return -1;
    *v = x;
    return 0;
}

static int add_seed(parse_ctx *c, uint64_t v, int line, gms_error *err)
{
    gms_sweep_spec *s = c->s;
    int created = 1;
    if (v == UINT64_MAX) { created = !c->seen_max; c->seen_max = 1; }
    else gms_u64map_upsert(&c->seen, v, &created);
    if (!created) return gms_err_at(err, c->file, line, "seed %llu listed twice", (unsigned long long)v);
    if (s->nseeds >= 100000) return gms_err_at(err, c->file, line, "more than 100000 seeds");
    if (s->nseeds == c->cap_s) {
        c->cap_s = c->cap_s ? 2 * c->cap_s : 16;
        s->seeds = gms_xrealloc(s->seeds, c->cap_s * sizeof *s->seeds);
    }
    s->seeds[s->nseeds++] = v;
    return 0;
}

static int set_path(parse_ctx *c, char **dst, line_toks *lt, gms_error *err)
{
    if (lt->n != 2) return gms_err_at(err, c->file, lt->line, "'%s' takes one value", lt->t[0]);
    if (*dst) return gms_err_at(err, c->file, lt->line, "'%s' given twice", lt->t[0]);
    *dst = gms_xstrdup(lt->t[1]);
    return 0;
}

static int stmt(parse_ctx *c, line_toks *lt, gms_error *err)
{
    const char *kw = lt->t[0], *F = c->file;
    int L = lt->line;
    gms_sweep_spec *s = c->s;
    char key[128];
    const char *val;
    if (!strcmp(kw, "db")) return set_path(c, &s->db, lt, err);
    if (!strcmp(kw, "results")) return set_path(c, &s->results, lt, err);
    if (!strcmp(kw, "config")) return set_path(c, &c->global_config, lt, err);
    if (!strcmp(kw, "baseline")) {
        if (lt->n != 2) return gms_err_at(err, F, L, "'baseline' takes one variant name");
        if (s->baseline) return gms_err_at(err, F, L, "'baseline' given twice");
        s->baseline = gms_xstrdup(lt->t[1]);
        s->baseline_line = L;
        return 0;
    }
    if (!strcmp(kw, "timeout")) {
        char *end;
        if (lt->n != 2) return gms_err_at(err, F, L, "'timeout' takes one value (seconds per point)");
        double t = strtod(lt->t[1], &end);
        if (*end || end == lt->t[1] || !(t >= 0)) return gms_err_at(err, F, L, "timeout '%s' is not a number of seconds", lt->t[1]);
        /* inf or an absurd value would read as a limit but never act as one: 0 is "no limit" */
        if (!(t <= GMS_SWEEP_MAX_TIMEOUT))
            return gms_err_at(err, F, L, "timeout '%s' is out of range (0 for no limit, else at most %.0f seconds)",
                              lt->t[1], GMS_SWEEP_MAX_TIMEOUT);
        s->timeout = t;
        return 0;
    }
    if (!strcmp(kw, "kernel_stats")) {
        if (lt->n != 2 || (strcmp(lt->t[1], "all") && strcmp(lt->t[1], "totals")))
            return gms_err_at(err, F, L, "'kernel_stats' takes 'all' (every kernel's statistics, the default) or 'totals'");
        s->kernel_totals_only = !strcmp(lt->t[1], "totals");
        return 0;
    }
    if (!strcmp(kw, "set")) {
        if (lt->n < 2) return gms_err_at(err, F, L, "'set' needs OPTION=VALUE");
        for (int i = 1; i < lt->n; i++) {
            if (!kv_split(lt->t[i], key, sizeof key, &val)) return gms_err_at(err, F, L, "'%s' is not OPTION=VALUE", lt->t[i]);
            if (strchr(val, '{')) return gms_err_at(err, F, L, "%s: alternatives {a|b} belong on a variant line, not on 'set'", key);
            gms_kvlist_set(&c->global_sets, key, val);
        }
        if (!c->global_sets_line) c->global_sets_line = L;
        return 0;
    }
    if (!strcmp(kw, "seeds")) {
        if (lt->n < 2) return gms_err_at(err, F, L, "'seeds' needs at least one seed");
        c->seeds_given = 1;
        for (int i = 1; i < lt->n; i++) {
            const char *dd = strstr(lt->t[i], "..");
            uint64_t a, b;
            if (dd) {
                char lo[64];
                size_t n = (size_t)(dd - lt->t[i]);
                if (n >= sizeof lo) n = sizeof lo - 1;
                memcpy(lo, lt->t[i], n);
                lo[n] = 0;
                if (parse_u64(lo, &a) || parse_u64(dd + 2, &b) || b < a)
                    return gms_err_at(err, F, L, "bad seed range '%s' (want A..B with A <= B)", lt->t[i]);
                if (b - a >= 100000) return gms_err_at(err, F, L, "seed range '%s' is too large", lt->t[i]);
                for (uint64_t v = a; ; v++) { if (add_seed(c, v, L, err)) return -1; if (v == b) break; }
            } else {
                if (parse_u64(lt->t[i], &a)) return gms_err_at(err, F, L, "seed '%s' is not a non-negative integer", lt->t[i]);
                if (add_seed(c, a, L, err)) return -1;
            }
        }
        return 0;
    }
    if (!strcmp(kw, "variant") || !strcmp(kw, "workload")) {
        int isv = kw[0] == 'v';
        if (lt->n < 2 || !is_name(lt->t[1]))
            return gms_err_at(err, F, L, "'%s' needs a name first (letters, digits, - _ . :)", kw);
        const char *name = lt->t[1], *label = NULL, *group = NULL, *config = NULL;
        alt_kv *alts = gms_xcalloc(MAX_TOK, sizeof *alts);
        int nalts = 0, rc = 0;
        for (int i = 2; i < lt->n && !rc; i++) {
            const char *t = lt->t[i];
            if (!isv && (!strcmp(t, "as") || !strcmp(t, "group"))) {
                if (i + 1 >= lt->n || !is_name(lt->t[i + 1])) { rc = gms_err_at(err, F, L, "'%s' needs a name after it", t); break; }
                if (t[0] == 'a') label = lt->t[++i]; else group = lt->t[++i];
                continue;
            }
            if (!kv_split(t, key, sizeof key, &val)) {
                rc = gms_err_at(err, F, L, "'%s' is not %s=VALUE", t, isv ? "OPTION" : "PARAM");
                break;
            }
            if (isv && !strcmp(key, "config")) { config = val; continue; }
            for (int k = 0; k < nalts; k++)
                if (!strcmp(alts[k].key, key)) { rc = gms_err_at(err, F, L, "%s given twice", key); break; }
            if (rc) break;
            if (nalts == 64) { rc = gms_err_at(err, F, L, "too many settings"); break; }
            rc = alt_parse(F, L, key, val, &alts[nalts], err);
            nalts++;
        }
        if (!rc) {
            size_t total = 1;
            for (int k = 0; k < nalts; k++) { total *= (size_t)alts[k].nv; if (total > 100000) break; }
            if (total > 100000) rc = gms_err_at(err, F, L, "alternatives expand to more than 100000 %ss", kw);
        }
        if (!rc) rc = expand(c, isv ? 'v' : 'w', isv ? name : (label ? label : name), name, group, config, alts, nalts, L, err);
        alt_free(alts, nalts);
        free(alts);
        return rc;
    }
    if (!strcmp(kw, "trace")) {
        /* trace LABEL PATH [group GROUP]: an Accel-Sim trace as a workload (run --trace PATH) */
        if (lt->n < 3 || !is_name(lt->t[1]))
            return gms_err_at(err, F, L, "'trace' needs a label and a kernelslist.g path (trace LABEL PATH [group GROUP])");
        const char *group = NULL;
        for (int i = 3; i < lt->n; i++) {
            if (!strcmp(lt->t[i], "group") && i + 1 < lt->n && is_name(lt->t[i + 1]) && !group) { group = lt->t[++i]; continue; }
            return gms_err_at(err, F, L, "trace '%s': unexpected '%s' (a trace takes no parameters; only 'group NAME' may "
                              "follow its path)", lt->t[1], lt->t[i]);
        }
        if (dup_label(c, lt->t[1], L, err)) return -1;
        gms_sweep_workload *w = add_workload(c);
        w->label = gms_xstrdup(lt->t[1]);
        w->name = gms_xstrdup("trace");
        w->trace = resolve(s, lt->t[2]);
        w->trace_as_written = gms_xstrdup(lt->t[2]);
        w->group = gms_xstrdup(group ? group : "");
        w->line = L;
        return 0;
    }
    if (!strcmp(kw, "exclude")) {
        if (lt->n < 2) return gms_err_at(err, F, L, "'exclude' needs variant=GLOB, workload=GLOB and/or seed=N");
        gms_sweep_exclude e = { .line = L };
        int rc = 0;
        for (int i = 1; i < lt->n && !rc; i++) {
            if (!kv_split(lt->t[i], key, sizeof key, &val)) rc = gms_err_at(err, F, L, "'%s' is not KEY=VALUE", lt->t[i]);
            else if (!strcmp(key, "variant") && !e.variant) e.variant = gms_xstrdup(val);
            else if (!strcmp(key, "workload") && !e.workload) e.workload = gms_xstrdup(val);
            else if (!strcmp(key, "seed") && !e.has_seed) {
                if (parse_u64(val, &e.seed)) rc = gms_err_at(err, F, L, "seed '%s' is not a non-negative integer", val);
                e.has_seed = 1;
            } else rc = gms_err_at(err, F, L, "exclude: unknown or repeated key '%s' (variant, workload, seed)", key);
        }
        if (rc) { free(e.variant); free(e.workload); return rc; }
        if (s->nexcludes == c->cap_e) { c->cap_e = c->cap_e ? 2 * c->cap_e : 4; s->excludes = gms_xrealloc(s->excludes, c->cap_e * sizeof *s->excludes); }
        s->excludes[s->nexcludes++] = e;
        return 0;
    }
    if (!strcmp(kw, "slurm")) {
        for (int i = 1; i < lt->n; i++) {
            if (!kv_split(lt->t[i], key, sizeof key, &val) || !*val) return gms_err_at(err, F, L, "'%s' is not KEY=VALUE", lt->t[i]);
            char **dst = !strcmp(key, "partition") ? &s->slurm.partition : !strcmp(key, "time") ? &s->slurm.time
                       : !strcmp(key, "mem") ? &s->slurm.mem : !strcmp(key, "account") ? &s->slurm.account : NULL;
            if (dst) { free(*dst); *dst = gms_xstrdup(val); continue; }
            uint64_t v;
            if (!strcmp(key, "chunk") || !strcmp(key, "parallel")) {
                if (parse_u64(val, &v) || v > 1000000 || (key[0] == 'c' && v == 0))
                    return gms_err_at(err, F, L, "slurm %s=%s is not a %s integer", key, val, key[0] == 'c' ? "positive" : "non-negative");
                if (key[0] == 'c') s->slurm.chunk = (int)v; else s->slurm.max_parallel = (int)v;
                continue;
            }
            return gms_err_at(err, F, L, "slurm: unknown key '%s' (partition, time, mem, account, chunk, parallel)", key);
        }
        return 0;
    }
    return gms_err_at(err, F, L, "unknown statement '%s' (expected db, results, config, set, baseline, seeds, "
                      "variant, workload, trace, exclude, slurm, timeout or kernel_stats)", kw);
}

static int finish(parse_ctx *c, gms_error *err)
{
    gms_sweep_spec *s = c->s;
    const char *F = c->file;
    if (!s->nvariants) return gms_err_at(err, F, 0, "no 'variant' lines: the sweep has no points");
    if (!s->nworkloads) return gms_err_at(err, F, 0, "no 'workload' or 'trace' lines: the sweep has no points");
    if (!c->seeds_given) add_seed(c, 1, 0, err);
    for (size_t i = 0; i < s->nvariants; i++) {
        gms_sweep_variant *v = &s->variants[i];
        if (!v->config) {
            if (!c->global_config)
                return gms_err_at(err, F, v->line, "variant '%s' has no config file (add a 'config FILE' line or config=FILE)", v->name);
            v->config = resolve(s, c->global_config);
        }
        /* effective overrides: global sets first, the variant's own win */
        gms_kvlist eff = {0};
        for (size_t k = 0; k < c->global_sets.n; k++) gms_kvlist_set(&eff, c->global_sets.v[k].key, c->global_sets.v[k].val);
        for (size_t k = 0; k < v->sets.n; k++) gms_kvlist_set(&eff, v->sets.v[k].key, v->sets.v[k].val);
        gms_kvlist_free(&v->sets);
        v->sets = eff;
    }
    if (s->baseline) {
        size_t i = 0;
        while (i < s->nvariants && strcmp(s->variants[i].name, s->baseline)) i++;
        if (i == s->nvariants) {
            gms_sbuf names = {0};
            for (size_t k = 0; k < s->nvariants && k < 20; k++) { if (k) gms_sbuf_add(&names, ", "); gms_sbuf_add(&names, s->variants[k].name); }
            if (s->nvariants > 20) gms_sbuf_add(&names, ", ...");
            gms_err_at(err, F, s->baseline_line, "baseline '%s' is not a variant of this sweep (variants: %s)", s->baseline, names.s);
            gms_sbuf_free(&names);
            return -1;
        }
    } else {
        s->baseline = gms_xstrdup(s->variants[0].name);
    }
    char *db = s->db, *res = s->results;
    gms_sbuf t = {0};
    if (!db) { gms_sbuf_printf(&t, "%s.db", s->name); db = t.s; }
    s->db = gms_path_join(s->dir, db);
    free(db);
    if (!res) { t = (gms_sbuf){0}; gms_sbuf_printf(&t, "%s.results", s->name); res = t.s; }
    s->results = gms_path_join(s->dir, res);
    free(res);
    if (!s->slurm.chunk) s->slurm.chunk = 1;
    return 0;
}

void gms_sweep_spec_free(gms_sweep_spec *s)
{
    if (!s) return;
    free(s->path); free(s->dir); free(s->name); free(s->db); free(s->results); free(s->baseline);
    for (size_t i = 0; i < s->nvariants; i++) { free(s->variants[i].name); free(s->variants[i].config); gms_kvlist_free(&s->variants[i].sets); }
    free(s->variants);
    for (size_t i = 0; i < s->nworkloads; i++) {
        free(s->workloads[i].label); free(s->workloads[i].name); free(s->workloads[i].group);
        free(s->workloads[i].trace); free(s->workloads[i].trace_as_written);
        gms_kvlist_free(&s->workloads[i].params);
    }
    free(s->workloads);
    free(s->seeds);
    for (size_t i = 0; i < s->nexcludes; i++) { free(s->excludes[i].variant); free(s->excludes[i].workload); }
    free(s->excludes);
    for (size_t i = 0; i < s->nonly; i++) {
        for (size_t k = 0; k < s->only[i].n; k++) free(s->only[i].globs[k]);
        free(s->only[i].globs);
    }
    free(s->only);
    free(s->slurm.partition); free(s->slurm.time); free(s->slurm.mem); free(s->slurm.account);
    free(s);
}

int gms_sweep_spec_parse_text(const char *path, const char *text, gms_sweep_spec **out, gms_error *err)
{
    gms_sweep_spec *s = gms_xcalloc(1, sizeof *s);
    s->path = gms_xstrdup(path);
    s->dir = gms_path_dir(path);
    s->name = gms_path_stem(path);
    parse_ctx c = { .s = s, .file = path };
    gms_u64map_init(&c.seen, 16);
    char *buf = gms_xstrdup(text);
    int rc = 0, line = 1;
    gms_sbuf logical = {0};
    int start_line = 1;
    line_toks *lt = gms_xmalloc(sizeof *lt);
    for (char *p = buf; *p && !rc; line++) {
        char *nl = strchr(p, '\n');
        if (nl) *nl = 0;
        size_t L = strlen(p);
        if (L && p[L - 1] == '\r') p[--L] = 0;
        if (!logical.n) start_line = line;
        int cont = L && p[L - 1] == '\\';
        if (cont) p[L - 1] = ' ';
        gms_sbuf_add(&logical, p);
        gms_sbuf_add(&logical, " ");
        p = nl ? nl + 1 : p + L;
        if (cont && *p) continue;
        int sr = split(logical.s, lt);
        lt->line = start_line;
        if (sr == -1) rc = gms_err_at(err, path, start_line, "unterminated double quote");
        else if (sr == -2) rc = gms_err_at(err, path, start_line, "more than %d words on one line", MAX_TOK);
        else if (lt->n) rc = stmt(&c, lt, err);
        logical.n = 0;
        logical.s[0] = 0;
    }
    free(lt);
    gms_sbuf_free(&logical);
    free(buf);
    if (!rc) rc = finish(&c, err);
    gms_kvlist_free(&c.global_sets);
    free(c.global_config);
    gms_u64map_free(&c.seen);
    if (rc) { gms_sweep_spec_free(s); return -1; }
    *out = s;
    return 0;
}

int gms_sweep_spec_parse(const char *path, gms_sweep_spec **out, gms_error *err)
{
    size_t len;
    char *text = gms_read_file(path, &len, err);
    if (!text) return -1;
    if (memchr(text, 0, len) != NULL) { free(text); return gms_err(err, "%s: not a text file (NUL byte)", path); }
    int rc = gms_sweep_spec_parse_text(path, text, out, err);
    free(text);
    return rc;
}

int gms_sweep_spec_load(const char *path, int ask_simulator, gms_sweep_spec **out, gms_error *err)
{
    if (gms_sweep_spec_parse(path, out, err)) return -1;
    if (gms_sweep_spec_check(*out, ask_simulator, err)) { gms_sweep_spec_free(*out); *out = NULL; return -1; }
    return 0;
}
