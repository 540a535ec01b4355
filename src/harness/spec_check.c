/* Checks a parsed sweep spec against the simulator linked into this binary: every variant's
 * config file loads, its overrides name known options with valid values and the result
 * passes the config's own geometry checks; every workload exists and accepts its
 * parameters. Also computes each variant's config digest (the bytes of the config file and
 * of the files it includes with -config), which is part of every point id. */
#include "harness/spec.h"
#include "harness/util.h"
#include "workloads/workload.h"
#include "gpumemsim.h"
#include "config/config_digest.h"
#include <ctype.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* hashes a config file and, recursively, its -config includes (resolved as the loader does) */
static int digest_file(const char *path, uint64_t *h, int depth, gms_error *err)
{
    if (depth > 8) return gms_err(err, "%s: -config nesting deeper than 8", path);
    size_t len;
    char *text = gms_read_file(path, &len, err);
    if (!text) return -1;
    *h = gms_hash_bytes(*h, text, len);
    *h = gms_hash_bytes(*h, "", 1);
    int rc = 0, want_inc = 0, in_comment = 0;
    for (char *c = text; *c && !rc;) {
        if (*c == '\n') { in_comment = 0; c++; continue; }
        if (in_comment || isspace((unsigned char)*c)) { c++; continue; }
        if (*c == '#') { in_comment = 1; c++; continue; }
        char *start = c;
        if (*c == '"') { start = ++c; while (*c && *c != '"' && *c != '\n') c++; }
        else while (*c && !isspace((unsigned char)*c)) c++;
        char save = *c;
        *c = 0;
        if (want_inc) {
            char *inc = gms_xstrdup(start);
            if (access(inc, F_OK) && inc[0] != '/') {
                char *d = gms_path_dir(path);
                free(inc);
                inc = gms_path_join(d, start);
                free(d);
            }
            rc = digest_file(inc, h, depth + 1, err);
            free(inc);
            want_inc = 0;
        } else {
            want_inc = !strcmp(start, "-config");
        }
        *c = save;
        if (*c == '"') c++;
    }
    free(text);
    return rc;
}

static int check_variant(const gms_sweep_spec *s, gms_sweep_variant *v, int ask, uint64_t *eff, gms_error *err)
{
    gms_error e = {0};
    uint64_t h = GMS_HASH_INIT;
    if (digest_file(v->config, &h, 0, &e))
        return gms_err_at(err, s->path, v->line, "variant '%s': %s", v->name, e.msg);
    snprintf(v->digest, sizeof v->digest, "%016llx", (unsigned long long)gms_hash_final(h));
    if (!ask) return 0;
    gms_params *p = gms_params_new();
    int rc = gms_params_load_file(p, v->config, &e);
    for (size_t i = 0; i < v->sets.n && !rc; i++)
        if (!gms_sweep_is_param_key(v->sets.v[i].key)) rc = gms_params_set(p, v->sets.v[i].key, v->sets.v[i].val, &e);
    if (!rc) rc = gms_params_finalize(p, &e);
    if (!rc) *eff = gms_config_digest_u64(p);   /* the decoded configuration the variant runs */
    gms_params_free(p);
    if (rc) return gms_err_at(err, s->path, v->line, "variant '%s': %s", v->name, e.msg);
    return 0;
}

/* 1 when exclude lines remove every point of variant v with workload w (any seed) */
static int pair_excluded(const gms_sweep_spec *s, const gms_sweep_variant *v, const gms_sweep_workload *w)
{
    for (size_t i = 0; i < s->nexcludes; i++) {
        const gms_sweep_exclude *e = &s->excludes[i];
        if (e->has_seed) continue;
        if (e->variant && fnmatch(e->variant, v->name, 0)) continue;
        if (e->workload && fnmatch(e->workload, w->label, 0)) continue;
        return 1;
    }
    return 0;
}

/* the workload's parameters, then those the variant v sets (param.NAME=V); v may be NULL */
static int check_workload(const gms_sweep_spec *s, const gms_sweep_workload *w, const gms_sweep_variant *v, gms_error *err)
{
    if (w->trace) {
        if (v) {
            if (pair_excluded(s, v, w)) return 0;
            for (size_t i = 0; i < v->sets.n; i++)
                if (gms_sweep_is_param_key(v->sets.v[i].key))
                    return gms_err_at(err, s->path, v->line, "variant '%s' sets workload parameter '%s', which trace '%s' "
                                      "does not take (a trace has no parameters; exclude the pair)", v->name,
                                      v->sets.v[i].key + 6, w->label);
            return 0;
        }
        FILE *f = fopen(w->trace, "r");
        if (!f) return gms_err_at(err, s->path, w->line, "trace '%s': cannot read '%s'", w->label, w->trace);
        fclose(f);
        return 0;
    }
    const gms_workload_ops *ops = gms_workload_find(w->name);
    if (!ops) {
        gms_sbuf known = {0};
        for (size_t i = 0, n = gms_workload_count(); i < n; i++) {
            if (i) gms_sbuf_add(&known, " ");
            gms_sbuf_add(&known, gms_workload_at(i)->name);
        }
        gms_err_at(err, s->path, w->line, "unknown workload '%s' (known: %s)", w->name,
                   known.n ? known.s : "none built in");
        gms_sbuf_free(&known);
        return -1;
    }
    size_t nv = v ? v->sets.n : 0, n = 0;
    const char **kv = gms_xcalloc(w->params.n + nv + 1, sizeof *kv);
    for (size_t i = 0; i < w->params.n; i++) {
        gms_sbuf b = {0};
        gms_sbuf_printf(&b, "%s=%s", w->params.v[i].key, w->params.v[i].val);
        kv[n++] = b.s;
    }
    for (size_t i = 0; i < nv; i++) {
        if (!gms_sweep_is_param_key(v->sets.v[i].key)) continue;
        gms_sbuf b = {0};
        gms_sbuf_printf(&b, "%s=%s", v->sets.v[i].key + 6, v->sets.v[i].val);
        kv[n++] = b.s;
    }
    gms_error e = {0};
    gms_wl_args *a = NULL;
    int rc = gms_wl_args_parse(ops, kv, s->seeds[0], &a, &e);
    if (!rc) gms_wl_args_free(a);
    for (size_t i = 0; i < n; i++) free((char *)kv[i]);
    free(kv);
    if (rc && n > w->params.n) return gms_err_at(err, s->path, v->line, "variant '%s' with workload '%s': %s", v->name, w->label, e.msg);
    if (rc) return gms_err_at(err, s->path, w->line, "%s", e.msg);
    return 0;
}

/* v and w set the same workload parameters to the same values (in any order) */
static int same_params(const gms_sweep_variant *v, const gms_sweep_variant *w)
{
    size_t nv = 0, nw = 0;
    for (size_t i = 0; i < v->sets.n; i++) {
        if (!gms_sweep_is_param_key(v->sets.v[i].key)) continue;
        nv++;
        int found = 0;
        for (size_t j = 0; j < w->sets.n && !found; j++)
            found = !strcmp(v->sets.v[i].key, w->sets.v[j].key) && !strcmp(v->sets.v[i].val, w->sets.v[j].val);
        if (!found) return 0;
    }
    for (size_t j = 0; j < w->sets.n; j++) nw += gms_sweep_is_param_key(w->sets.v[j].key) != 0;
    return nv == nw;
}

/* two variants whose decoded configurations are equal (a setting equal to the config's own
 * value, or to the default, changes nothing) and that set the same workload parameters run
 * the same simulation for every workload both are run with; their point ids differ (ids hash
 * the settings' text), so the plan's check of equal ids does not see it. A warning, not an
 * error: a swept range that includes the base's own value ({10|20|40} beside a base of 20) is
 * the usual way to write a sweep, and both points stay (scripts name them) */
static void warn_same_variants(const gms_sweep_spec *s, const uint64_t *eff)
{
    for (size_t j = 1; j < s->nvariants; j++)
        for (size_t i = 0; i < j; i++) {
            const gms_sweep_variant *a = &s->variants[i], *b = &s->variants[j];
            if (eff[i] != eff[j] || !same_params(a, b)) continue;
            for (size_t k = 0; k < s->nworkloads; k++) {
                const gms_sweep_workload *w = &s->workloads[k];
                if (pair_excluded(s, a, w) || pair_excluded(s, b, w)) continue;
                fprintf(stderr, "gpumemsim: warning: %s:%d: variants '%s' and '%s' run exactly the same simulation (their "
                        "settings decode to the same configuration: a value equal to the config's own or the default "
                        "changes nothing); both are run\n", s->path, b->line, a->name, b->name);
                break;
            }
        }
}

int gms_sweep_spec_check(gms_sweep_spec *s, int ask_simulator, gms_error *err)
{
    uint64_t *eff = gms_xcalloc(s->nvariants + 1, sizeof *eff);
    for (size_t i = 0; i < s->nvariants; i++)
        if (check_variant(s, &s->variants[i], ask_simulator, &eff[i], err)) { free(eff); return -1; }
    if (ask_simulator) warn_same_variants(s, eff);
    free(eff);
    for (size_t i = 0; ask_simulator && i < s->nworkloads; i++) {
        if (check_workload(s, &s->workloads[i], NULL, err)) return -1;
        for (size_t j = 0; j < s->nvariants; j++) {
            int has = 0;
            for (size_t k = 0; k < s->variants[j].sets.n; k++) has |= gms_sweep_is_param_key(s->variants[j].sets.v[k].key);
            if (has && check_workload(s, &s->workloads[i], &s->variants[j], err)) return -1;
        }
    }
    return 0;
}
