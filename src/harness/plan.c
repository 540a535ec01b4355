/* The plan of a sweep: variants x workloads x seeds in that nesting order, minus excluded
 * points. A point's id hashes its canonical text: the variant's config digest (file
 * contents, not its path), its effective overrides and the workload's parameters (each
 * sorted by name), the workload name and the seed. Names and labels are not part of it, so
 * renaming a variant or reordering lines keeps finished points, while editing anything that
 * changes what runs gives a new id (and a new run). */
#include "harness/spec.h"
#include "harness/util.h"
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

static int kv_cmp(const void *a, const void *b)
{
    return strcmp(((const gms_kv *)a)->key, ((const gms_kv *)b)->key);
}

static void add_sorted(gms_sbuf *b, const char *tag, const gms_kvlist *l)
{
    gms_kv *c = gms_xmalloc((l->n + 1) * sizeof *c);
    if (l->n) memcpy(c, l->v, l->n * sizeof *c);
    qsort(c, l->n, sizeof *c, kv_cmp);
    for (size_t i = 0; i < l->n; i++) {
        const char *k = c[i].key;
        while (*k == '-') k++;   /* "-opt" and "opt" are the same option */
        gms_sbuf_printf(b, "%s %s=%s\n", tag, k, c[i].val);
    }
    free(c);
}

char *gms_sweep_point_canonical(const gms_sweep_point *pt)
{
    gms_sbuf b = {0};
    gms_sbuf_add(&b, "gpumemsim-point 1\n");
    gms_sbuf_printf(&b, "config %s\n", pt->variant->digest);
    add_sorted(&b, "set", &pt->variant->sets);
    if (pt->workload->trace)   /* the path as written, so a moved study keeps its ids */
        gms_sbuf_printf(&b, "trace %s\n", pt->workload->trace_as_written);
    else
        gms_sbuf_printf(&b, "workload %s\n", pt->workload->name);
    add_sorted(&b, "param", &pt->workload->params);
    gms_sbuf_printf(&b, "seed %llu\n", (unsigned long long)pt->seed);
    return b.s;
}

void gms_sweep_point_desc(const gms_sweep_point *pt, char *buf, size_t n)
{
    snprintf(buf, n, "%s / %s / seed %llu", pt->variant->name, pt->workload->label, (unsigned long long)pt->seed);
}

static int pt_cmp(const void *a, const void *b)
{
    const gms_sweep_point *x = *(const gms_sweep_point *const *)a, *y = *(const gms_sweep_point *const *)b;
    int c = strcmp(x->id, y->id);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

static int excluded(const gms_sweep_spec *s, const gms_sweep_variant *v, const gms_sweep_workload *w,
                    uint64_t seed, size_t *hits)
{
    int ex = 0;
    for (size_t i = 0; i < s->nexcludes; i++) {
        const gms_sweep_exclude *e = &s->excludes[i];
        if (e->variant && fnmatch(e->variant, v->name, 0)) continue;
        if (e->workload && fnmatch(e->workload, w->label, 0)) continue;
        if (e->has_seed && e->seed != seed) continue;
        hits[i]++;
        ex = 1;
    }
    return ex;
}

/* the names an --only key matches; v or w may be NULL when the key does not read it */
static const struct { char key; const char *word, *what; } ONLY_KEYS[] = {
    { 'v', "variant", "variant" }, { 'w', "workload", "workload" }, { 'g', "group", "workload group" },
};

static const char *only_name(char key, const gms_sweep_variant *v, const gms_sweep_workload *w)
{
    return key == 'v' ? v->name : key == 'w' ? w->label : w->group;
}

/* 1 when the point passes every --only restriction */
static int only_keeps(const gms_sweep_spec *s, const gms_sweep_variant *v, const gms_sweep_workload *w)
{
    for (size_t i = 0; i < s->nonly; i++) {
        const gms_sweep_only *o = &s->only[i];
        const char *name = only_name(o->key, v, w);
        int any = 0;
        for (size_t k = 0; k < o->n && !any; k++) any = !fnmatch(o->globs[k], name, 0);
        if (!any) return 0;
    }
    return 1;
}

/* 1 when glob g matches a name of the spec for key k */
static int only_names_something(const gms_sweep_spec *s, char k, const char *g)
{
    size_t n = k == 'v' ? s->nvariants : s->nworkloads;
    for (size_t i = 0; i < n; i++) {
        const char *name = k == 'v' ? only_name(k, &s->variants[i], NULL) : only_name(k, NULL, &s->workloads[i]);
        if (name && name[0] && !fnmatch(g, name, 0)) return 1;
    }
    return 0;
}

int gms_sweep_spec_add_only(gms_sweep_spec *s, const char *text, gms_error *err)
{
    const char *eq = strchr(text, '=');
    const size_t nk = sizeof ONLY_KEYS / sizeof ONLY_KEYS[0], kl = eq ? (size_t)(eq - text) : 0;
    size_t ki = nk;
    for (size_t i = 0; i < nk; i++)
        if (eq && strlen(ONLY_KEYS[i].word) == kl && !strncmp(text, ONLY_KEYS[i].word, kl)) ki = i;
    if (ki == nk)
        return gms_err(err, "--only '%s': expected variant=GLOB, workload=GLOB or group=GLOB (globs separated by commas)", text);
    gms_sweep_only o = { .key = ONLY_KEYS[ki].key };
    int rc = 0;
    for (const char *p = eq + 1; !rc;) {
        const char *c = strchr(p, ',');
        size_t n = c ? (size_t)(c - p) : strlen(p);
        if (!n) { rc = gms_err(err, "--only '%s': an empty glob", text); break; }
        char *g = gms_xmalloc(n + 1);
        memcpy(g, p, n);
        g[n] = 0;
        o.globs = gms_xrealloc(o.globs, (o.n + 1) * sizeof *o.globs);
        o.globs[o.n++] = g;
        if (!only_names_something(s, o.key, g))   /* a typo is an error, not an empty plan */
            rc = gms_err(err, "--only %s=%s: %s has no %s of that name", ONLY_KEYS[ki].word, g, s->path, ONLY_KEYS[ki].what);
        if (!c) break;
        p = c + 1;
    }
    if (rc) {
        for (size_t k = 0; k < o.n; k++) free(o.globs[k]);
        free(o.globs);
        return -1;
    }
    s->only = gms_xrealloc(s->only, (s->nonly + 1) * sizeof *s->only);
    s->only[s->nonly++] = o;
    return 0;
}

int gms_sweep_spec_restrict(gms_sweep_spec *s, const char *const *only, int n, gms_error *err)
{
    for (int i = 0; i < n; i++)
        if (gms_sweep_spec_add_only(s, only[i], err)) return -1;
    return 0;
}

int gms_sweep_plan_build(const gms_sweep_spec *s, gms_sweep_plan *plan, gms_error *err)
{
    memset(plan, 0, sizeof *plan);
    size_t total = s->nvariants * s->nworkloads * s->nseeds;
    if (total > 10000000) return gms_err_at(err, s->path, 0, "the sweep has %zu points (more than 10 million)", total);
    size_t *hits = gms_xcalloc(s->nexcludes + 1, sizeof *hits);
    plan->points = gms_xmalloc((total + 1) * sizeof *plan->points);
    for (size_t v = 0; v < s->nvariants; v++)
        for (size_t w = 0; w < s->nworkloads; w++)
            for (size_t k = 0; k < s->nseeds; k++) {
                /* exclude lines first, over the whole product (their "matches no point" check) */
                if (excluded(s, &s->variants[v], &s->workloads[w], s->seeds[k], hits)) { plan->excluded++; continue; }
                if (!only_keeps(s, &s->variants[v], &s->workloads[w])) { plan->left_out++; continue; }
                gms_sweep_point *pt = &plan->points[plan->n];
                pt->index = plan->n;
                pt->variant = &s->variants[v];
                pt->workload = &s->workloads[w];
                pt->seed = s->seeds[k];
                char *canon = gms_sweep_point_canonical(pt);
                snprintf(pt->id, sizeof pt->id, "%016llx",
                         (unsigned long long)gms_hash_final(gms_hash_bytes(GMS_HASH_INIT, canon, strlen(canon))));
                free(canon);
                plan->n++;
            }
    int rc = 0;
    for (size_t i = 0; i < s->nexcludes && !rc; i++)
        if (!hits[i]) rc = gms_err_at(err, s->path, s->excludes[i].line, "this exclude line matches no point");
    free(hits);
    if (!rc && !plan->n && plan->left_out)
        rc = gms_err_at(err, s->path, 0, "no point passes the --only restrictions together (%zu excluded, %zu left out)",
                        plan->excluded, plan->left_out);
    else if (!rc && !plan->n)
        rc = gms_err_at(err, s->path, 0, "the sweep has no points: all %zu are excluded", plan->excluded);
    /* identical points under two names are a mistake in the spec */
    if (!rc) {
        const gms_sweep_point **ps = gms_xmalloc(plan->n * sizeof *ps);
        for (size_t i = 0; i < plan->n; i++) ps[i] = &plan->points[i];
        qsort(ps, plan->n, sizeof *ps, pt_cmp);
        for (size_t i = 1; i < plan->n && !rc; i++)
            if (!strcmp(ps[i - 1]->id, ps[i]->id)) {
                const gms_sweep_point *x = ps[i - 1]->index < ps[i]->index ? ps[i - 1] : ps[i];
                const gms_sweep_point *y = x == ps[i] ? ps[i - 1] : ps[i];
                char a[512], b[512];
                gms_sweep_point_desc(x, a, sizeof a);
                gms_sweep_point_desc(y, b, sizeof b);
                rc = gms_err_at(err, s->path, x->variant != y->variant ? y->variant->line : y->workload->line,
                                "'%s' and '%s' run exactly the same simulation (same config, settings, workload, "
                                "parameters and seed)", a, b);
            }
        free(ps);
    }
    if (rc) gms_sweep_plan_free(plan);
    return rc;
}

void gms_sweep_plan_free(gms_sweep_plan *plan)
{
    free(plan->points);
    plan->points = NULL;
    plan->n = 0;
}

const gms_sweep_point *gms_sweep_plan_find(const gms_sweep_plan *plan, const char *id)
{
    for (size_t i = 0; i < plan->n; i++)
        if (!strcmp(plan->points[i].id, id)) return &plan->points[i];
    return NULL;
}
