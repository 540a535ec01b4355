/* A metric against a list of variants, one line per workload plus their geometric mean, for a
 * study's `figure lines STAT x=variant variants=A,B,..`: the seeds' sweep figures where the swept
 * value is not a setting of its own (an MSHR count inside a cache string, a bypass-slot count
 * beside another option), read off a report (report.h), so each point is the mean over its
 * seeds, normalised to the report's baseline unless absolute. */
#include "harness/report.h"
#include "harness/util.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

int gms_series_from_report(const gms_report *r, const char *variants, int absolute, gms_series_set **out, gms_error *err)
{
    size_t nv = 0, cap = 8, *vi = gms_xmalloc(cap * sizeof *vi);
    for (const char *p = variants; p && *p;) {
        size_t k = strcspn(p, ","), v = 0;
        while (v < r->nvariants && (strlen(r->variants[v]) != k || strncmp(r->variants[v], p, k))) v++;
        if (v == r->nvariants) {
            free(vi);
            return gms_err(err, "x=variant: '%.*s' is not among the variants reported", (int)k, p);
        }
        if (nv == cap) vi = gms_xrealloc(vi, (cap *= 2) * sizeof *vi);
        vi[nv++] = v;
        p += k + (p[k] == ',');
    }
    if (nv < 2) { free(vi); return gms_err(err, "x=variant: needs variants=A,B,... (two or more) for its x axis"); }
    /* a workload with no value under any listed variant (not in those points) gets no line;
     * the geometric mean is over the workloads with a value under every one, so each x
     * averages the same workloads */
    size_t nw = r->nworkloads, nl = 0, ncomplete = 0;
    unsigned char *drawn = gms_xcalloc(nw + 1, 1), *complete = gms_xcalloc(nw + 1, 1);
    for (size_t w = 0; w < nw; w++) {
        size_t ok = 0;
        for (size_t j = 0; j < nv; j++) {
            const gms_report_cell *c = &r->cells[w * r->nvariants + vi[j]];
            ok += (absolute ? c->state : c->nstate) == GMS_CELL_OK;
        }
        drawn[w] = ok > 0;
        complete[w] = ok == nv;
        nl += drawn[w];
        ncomplete += complete[w];
    }
    gms_series_set *ss = gms_xcalloc(1, sizeof *ss);
    ss->metric = gms_xstrdup(r->metric);
    ss->xname = gms_xstrdup("variant");
    ss->x_categorical = 1;
    ss->nxlabels = nv;
    ss->xlabels = gms_xcalloc(nv, sizeof *ss->xlabels);
    for (size_t j = 0; j < nv; j++) ss->xlabels[j] = gms_xstrdup(r->variants[vi[j]]);
    if (!absolute) ss->normalised_to = gms_xstrdup(r->baseline);
    ss->s = gms_xcalloc(nl + 1, sizeof *ss->s);
    for (size_t w = 0; w <= nw; w++) {
        if (w < nw ? !drawn[w] : ncomplete < 2) continue;   /* a mean of one is that workload's line */
        gms_series *se = &ss->s[ss->n++];
        se->name = gms_xstrdup(w < nw ? r->workloads[w] : "geomean");
        se->workload = w < nw ? gms_xstrdup(r->workloads[w]) : NULL;
        se->n = nv;
        se->x = gms_xcalloc(nv, sizeof *se->x);
        se->y = gms_xcalloc(nv, sizeof *se->y);
        se->ystate = gms_xcalloc(nv, sizeof *se->ystate);
        for (size_t j = 0; j < nv; j++) {
            se->x[j] = (double)j;
            se->y[j] = NAN;
            if (w < nw) {
                const gms_report_cell *c = &r->cells[w * r->nvariants + vi[j]];
                se->ystate[j] = absolute ? c->state : c->nstate;
                if (se->ystate[j] == GMS_CELL_OK) se->y[j] = absolute ? c->value : c->norm;
                continue;
            }
            double lsum = 0;
            int pos = 1;
            for (size_t k = 0; k < nw; k++) {
                if (!complete[k]) continue;
                const gms_report_cell *c = &r->cells[k * r->nvariants + vi[j]];
                double y = absolute ? c->value : c->norm;
                if (!(y > 0)) pos = 0;
                else lsum += log(y);
            }
            se->ystate[j] = pos ? GMS_CELL_OK : GMS_CELL_NA;   /* a 0 has no geometric mean */
            if (pos) se->y[j] = exp(lsum / (double)ncomplete);
        }
    }
    free(drawn);
    free(complete);
    free(vi);
    *out = ss;
    return 0;
}
