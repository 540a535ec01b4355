/* The built-in workload `cke`: two or three applications sharing the GPU (spec 001 section
 * 4.1), apps=A+B[+C] by the spec's abbreviations (hs pf bp sv 3m ks ax) or built-in names.
 * In a timed run the simulator hands it to the multiprogram driver (cke_driver.c), which runs
 * the applications side by side for -gms_cke_window cycles. Functionally (--no-timing, page
 * logs, tests) it is the applications' programs one after the other, each result checked. */
#include "cke/cke_apps.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const gms_wl_param params[] = {
    { "apps", "", "the applications, A+B[+C]: hs pf bp sv 3m ks ax (spec 001 4.1) or built-in names (default bp+ks)" },
    { "pair", "", "the same as apps= (the name a sweep of pairs or triples varies: pair={bp+ks|sv+ks})" },
    { "scale", "1", "passed to every application as scale=" },
    { "args", "", "more parameters per application: ks:points=4096,reps=2;bp:input=8192" },
    { "alone", "0", "1: one application alone on the GPU (the isolated runs of a multiprogrammed run)" },
    { "cap", "0", "at most this many blocks per SM (Warped-Slicer's profile runs; 0 = occupancy)" },
    { "window", "0", "core cycles of the run (0: -gms_cke_window)" },
    { NULL, NULL, NULL },
};

/* spec 001 section 4.1 abbreviations (docs/cke.md): sv is Parboil's SpMV (spmv), ks Rodinia's
 * kmeans (kmeans-rodinia: 17 requests per memory instruction, as Table 6). The third column
 * holds parameters an application gets before scale= and args=: sv's matrix is a 2D mesh
 * (structure=mesh), as Dubcova3 is a 2D FEM matrix: the uniform band model issues 9.2
 * requests per memory instruction against Table 6's 3, the mesh 1.4 (docs/cke.md, "sv's
 * matrix"). The first quick study ran with the stand-ins gather and strided stride=17. */
static const char *const abbrevs[][3] = {
    { "hs", "hotspot", NULL }, { "pf", "pathfinder", NULL }, { "bp", "backprop", NULL }, { "sv", "spmv", "structure=mesh" },
    { "3m", "3mm", NULL }, { "ks", "kmeans-rodinia", NULL }, { "ax", "atax", NULL },
};

static int abbrev_at(const char *abbrev)
{
    for (size_t i = 0; i < sizeof abbrevs / sizeof abbrevs[0]; i++)
        if (!strcmp(abbrevs[i][0], abbrev)) return (int)i;
    return -1;
}

const char *gms_cke_app_name(const char *abbrev)
{
    int i = abbrev_at(abbrev);
    return i < 0 ? abbrev : abbrevs[i][1];
}

void gms_cke_apps_free(gms_cke_apps *x)
{
    for (uint32_t k = 0; k < GMS_CKE_MAX_APPS; k++)
        for (int i = 0; x->a[k].kv[i]; i++) { free(x->a[k].kv[i]); x->a[k].kv[i] = NULL; }
    x->n = 0;
}

static int add_kv(gms_cke_app_spec *s, const char *kv, gms_error *err)
{
    int i = 0;
    while (s->kv[i]) i++;
    if (i >= 15) return gms_err(err, "workload cke: too many parameters for %s", s->abbrev);
    s->kv[i] = gms_xstrdup(kv);
    return 0;
}

/* an application name that is not one; a list written with another separator says so */
static int no_app(const char *apps, const char *t, gms_error *err)
{
    if (strpbrk(t, ",;: "))
        return gms_err(err, "workload cke: apps=%s: applications are separated by '+' (e.g. apps=bp+ks), not '%c'", apps,
                       *strpbrk(t, ",;: "));
    return gms_err(err, "workload cke: apps=%s: '%s' is no built-in workload (hs pf bp sv 3m ks ax, or a name)", apps, t);
}

int gms_cke_apps_parse(const gms_wl_args *a, gms_cke_apps *x, gms_error *err)
{
    memset(x, 0, sizeof *x);
    /* uvm= and prefetch= are every workload's parameters; the multiprogram driver runs none of
     * its applications on managed memory (cke_driver.c), so they are refused here too rather
     * than accepted and not used */
    if (gms_wl_uvm(a)) return gms_err(err, "workload cke: uvm=1 is not supported in multiprogrammed runs");
    if (gms_wl_prefetch(a)) return gms_err(err, "workload cke: prefetch=1 is not supported in multiprogrammed runs");
    const char *apps = gms_wl_str(a, "apps"), *pair = gms_wl_str(a, "pair");
    if (*apps && *pair && strcmp(apps, pair))
        return gms_err(err, "workload cke: apps=%s and pair=%s name different applications (give one)", apps, pair);
    if (!*apps) apps = pair;
    if (!*apps) apps = "bp+ks";
    x->alone = (int)gms_wl_u64(a, "alone");
    x->cap = (uint32_t)gms_wl_u64(a, "cap");
    x->window = gms_wl_u64(a, "window");
    char buf[256];
    if (strlen(apps) >= sizeof buf) return gms_err(err, "workload cke: apps=%.40s...: longer than %zu characters", apps, sizeof buf - 1);
    if (strlen(gms_wl_str(a, "args")) >= sizeof buf)
        return gms_err(err, "workload cke: args=%.40s...: longer than %zu characters", gms_wl_str(a, "args"), sizeof buf - 1);
    if (strlen(gms_wl_str(a, "scale")) > 40) return gms_err(err, "workload cke: scale=%.40s...: too long", gms_wl_str(a, "scale"));
    snprintf(buf, sizeof buf, "%s", apps);
    for (char *save = NULL, *t = strtok_r(buf, "+", &save); t; t = strtok_r(NULL, "+", &save)) {
        if (x->n == GMS_CKE_MAX_APPS) { gms_cke_apps_free(x); return gms_err(err, "workload cke: apps=%s: at most %d applications", apps, GMS_CKE_MAX_APPS); }
        gms_cke_app_spec *s = &x->a[x->n++];
        if (strlen(t) >= sizeof s->abbrev) {
            gms_cke_apps_free(x);
            return no_app(apps, t, err);
        }
        snprintf(s->abbrev, sizeof s->abbrev, "%s", t);
        /* trace0..trace2: an Accel-Sim trace (cke_trace_app.c), its path among its args */
        int is_trace = !strncmp(t, "trace", 5) && t[5] >= '0' && t[5] <= '2' && !t[6];
        s->ops = is_trace ? &gms_cke_trace_app : gms_workload_find(gms_cke_app_name(t));
        if (!s->ops || !strcmp(s->ops->name, "cke")) {
            gms_cke_apps_free(x);
            return no_app(apps, t, err);
        }
        int ai = abbrev_at(t);
        if (ai >= 0 && abbrevs[ai][2] && add_kv(s, abbrevs[ai][2], err)) { gms_cke_apps_free(x); return -1; }
        char kv[64];
        snprintf(kv, sizeof kv, "scale=%s", gms_wl_str(a, "scale"));
        if (add_kv(s, kv, err)) { gms_cke_apps_free(x); return -1; }
    }
    if (x->n == 0 || (x->alone && x->n != 1) || (!x->alone && x->n < 2)) {
        gms_cke_apps_free(x);
        return gms_err(err, "workload cke: apps=%s: give 2 or 3 applications (1 with alone=1)", apps);
    }
    /* args=ks:points=4096,reps=2;bp:input=8192 */
    snprintf(buf, sizeof buf, "%s", gms_wl_str(a, "args"));
    for (char *s1 = NULL, *grp = strtok_r(buf, ";", &s1); grp; grp = strtok_r(NULL, ";", &s1)) {
        char *colon = strchr(grp, ':');
        if (!colon) { gms_cke_apps_free(x); return gms_err(err, "workload cke: args: '%s' is not APP:name=value,...", grp); }
        *colon = 0;
        int hit = 0;
        for (uint32_t k = 0; k < x->n; k++) {
            if (strcmp(x->a[k].abbrev, grp)) continue;
            hit = 1;
            char list[256];
            snprintf(list, sizeof list, "%s", colon + 1);
            for (char *s2 = NULL, *kv = strtok_r(list, ",", &s2); kv; kv = strtok_r(NULL, ",", &s2))
                if (add_kv(&x->a[k], kv, err)) { gms_cke_apps_free(x); return -1; }
        }
        if (!hit) { gms_cke_apps_free(x); return gms_err(err, "workload cke: args: '%s' is not one of apps=%s", grp, apps); }
    }
    /* every application's parameters must be valid */
    for (uint32_t k = 0; k < x->n; k++) {
        gms_wl_args *wa;
        if (gms_wl_args_parse(x->a[k].ops, (const char *const *)x->a[k].kv, 1, &wa, err)) { gms_cke_apps_free(x); return -1; }
        gms_wl_args_free(wa);
    }
    return 0;
}

/* ---------------------------------------------------------------- functional: one after another */

typedef struct cke_fstate {
    gms_cke_apps apps;
    gms_wl_args *args[GMS_CKE_MAX_APPS];
    void *state[GMS_CKE_MAX_APPS];
    uint32_t cur;
} cke_fstate;

static void fdestroy(void *st)
{
    cke_fstate *f = st;
    for (uint32_t k = 0; k < f->apps.n; k++) {
        if (f->state[k]) f->apps.a[k].ops->destroy(f->state[k]);
        gms_wl_args_free(f->args[k]);
    }
    gms_cke_apps_free(&f->apps);
    free(f);
}

static int fcreate(const gms_wl_args *a, void **out, gms_error *err)
{
    cke_fstate *f = gms_xcalloc(1, sizeof *f);
    if (gms_cke_apps_parse(a, &f->apps, err)) { free(f); return -1; }
    for (uint32_t k = 0; k < f->apps.n; k++) {
        const gms_cke_app_spec *s = &f->apps.a[k];
        if (gms_wl_args_parse(s->ops, (const char *const *)s->kv, gms_wl_seed(a), &f->args[k], err) ||
            s->ops->create(f->args[k], &f->state[k], err) || gms_wl_args_check(f->args[k], err)) {
            fdestroy(f);
            return -1;
        }
    }
    *out = f;
    return 0;
}

static int fnext(void *st, gms_program *prog, gms_error *err)
{
    cke_fstate *f = st;
    while (f->cur < f->apps.n) {
        int r = f->apps.a[f->cur].ops->next(f->state[f->cur], prog, err);
        if (r != 0) return r;
        f->cur++;
    }
    return 0;
}

static int fverify(void *st, gms_error *err)
{
    cke_fstate *f = st;
    for (uint32_t k = 0; k < f->apps.n; k++)
        if (f->apps.a[k].ops->verify && f->apps.a[k].ops->verify(f->state[k], err)) return -1;
    return 0;
}

static uint64_t ffootprint(const gms_wl_args *a)
{
    gms_cke_apps x;
    gms_error e = {0};
    uint64_t sum = 0;
    if (gms_cke_apps_parse(a, &x, &e)) return 0;
    for (uint32_t k = 0; k < x.n; k++) {
        gms_wl_args *wa;
        if (x.a[k].ops->footprint && !gms_wl_args_parse(x.a[k].ops, (const char *const *)x.a[k].kv, 1, &wa, &e)) {
            sum += x.a[k].ops->footprint(wa);
            gms_wl_args_free(wa);
        }
    }
    gms_cke_apps_free(&x);
    return sum;
}

const gms_workload_ops gms_wl_cke = {
    .name = "cke", .suite = "cke", .domain = "multiprogramming", .ri = "-",
    .summary = "2-3 applications sharing the GPU for a window (concurrent kernels, spec 001 ch. 4; docs/cke.md)",
    .params = params, .create = fcreate, .next = fnext, .verify = fverify, .destroy = fdestroy, .footprint = ffootprint,
};

const gms_workload_ops *const gms_workloads_cke[] = { &gms_wl_cke, NULL };
