/* Claims against their study before anything runs (gms_claims_check_names): a variant, group
 * or workload a metric names that the sweep does not have would otherwise show only after
 * every point ran, as "no data" (hours of a --full or Slurm study). */
#include "harness/claims.h"
#include "harness/spec.h"
#include <stdio.h>
#include <string.h>

typedef struct chk { const gms_sweep_spec *s, *other; char bad_kind[32]; char bad[256]; } chk;

static int has_variant(const gms_sweep_spec *s, const char *n)
{
    for (size_t i = 0; i < s->nvariants; i++) if (!strcmp(s->variants[i].name, n)) return 1;
    return 0;
}
static int has_group(const gms_sweep_spec *s, const char *n)
{
    for (size_t i = 0; i < s->nworkloads; i++) if (s->workloads[i].group && !strcmp(s->workloads[i].group, n)) return 1;
    return 0;
}
static int has_workload(const gms_sweep_spec *s, const char *n)
{
    for (size_t i = 0; i < s->nworkloads; i++) if (!strcmp(s->workloads[i].label, n)) return 1;
    return 0;
}

static int has(const gms_sweep_spec *s, const char *kind, const char *name)
{
    if (!s) return 0;
    return !strcmp(kind, "variant") ? has_variant(s, name)
         : !strcmp(kind, "group") ? has_group(s, name)
         : !strcmp(kind, "workload") ? has_workload(s, name)
         : has_group(s, name) || has_workload(s, name);
}

/* a name of the other form only (a workload the quick sweep leaves out, say) is no error:
 * that claim shows "no data" in this form, as before */
static int one(void *ud, const char *kind, const char *name)
{
    chk *c = ud;
    if (has(c->s, kind, name) || has(c->other, kind, name)) return 0;
    snprintf(c->bad_kind, sizeof c->bad_kind, "%s", kind);
    snprintf(c->bad, sizeof c->bad, "%s", name);
    return 1;
}

int gms_claims_check_names(const gms_claims *cl, const gms_sweep_spec *s, const gms_sweep_spec *other, gms_error *err)
{
    chk c = { .s = s, .other = other };
    for (size_t i = 0; i < cl->n; i++) {
        const gms_claim *k = &cl->claims[i];
        if (k->needs) continue;   /* not yet runnable: it may name what is still to come */
        for (size_t m = 0; m < k->nmetrics; m++)
            if (gms_cexpr_names(k->metrics[m].expr, one, &c))
                return gms_err_at(err, cl->path, k->line, "claim %s: metric %s names %s '%s', which neither form of the study has (%s)",
                                  k->id, k->metrics[m].name, c.bad_kind, c.bad, s->path);
        for (size_t h = 0; h < k->nholds; h++)
            for (size_t j = 0; j < k->holds[h].n; j++)
                if (gms_cexpr_names(k->holds[h].e[j], one, &c))
                    return gms_err_at(err, cl->path, k->line, "claim %s: a holds line names %s '%s', which neither form of "
                                      "the study has (%s)", k->id, c.bad_kind, c.bad, s->path);
    }
    for (size_t f = 0; f < cl->nfigs; f++)
        if (cl->figs[f].baseline && !has_variant(s, cl->figs[f].baseline) && !(other && has_variant(other, cl->figs[f].baseline)))
            return gms_err_at(err, cl->path, cl->figs[f].line, "figure: baseline '%s' is not a variant of the study (%s)",
                              cl->figs[f].baseline, s->path);
    for (size_t f = 0; f < cl->nfigs; f++)
        for (const char *p = cl->figs[f].variants; p && *p;) {
            size_t k = strcspn(p, ",");
            char v[256];
            snprintf(v, sizeof v, "%.*s", (int)k, p);
            if (!has_variant(s, v) && !(other && has_variant(other, v)))
                return gms_err_at(err, cl->path, cl->figs[f].line, "figure: variants= names '%s', not a variant of the study (%s)",
                                  v, s->path);
            p += k + (p[k] == ',');
        }
    return 0;
}
