#include "stats/stats.h"
#include "util/err.h"
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void gms_stats_init(gms_stats *s) { memset(s, 0, sizeof *s); }

void gms_stats_free(gms_stats *s)
{
    for (size_t i = 0; i < s->n; i++) free(s->v[i].name);
    free(s->v);
    free(s->hix);
    memset(s, 0, sizeof *s);
}

void gms_stats_copy(gms_stats *dst, const gms_stats *src)
{
    gms_stats_init(dst);
    for (size_t i = 0; i < src->n; i++) {
        if (src->v[i].is_int) gms_stat_u64(dst, src->v[i].name, (uint64_t)src->v[i].value);
        else gms_stat_f64(dst, src->v[i].name, src->v[i].value);
    }
}

#define HIX_MIN 16   /* names below which a set is scanned */

static uint32_t name_hash(const char *name)
{
    uint32_t h = 2166136261u;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) h = (h ^ *p) * 16777619u;
    return h;
}

static void hix_put(gms_stats *s, size_t i)
{
    size_t m = s->hcap - 1, j = name_hash(s->v[i].name) & m;
    while (s->hix[j]) j = (j + 1) & m;
    s->hix[j] = (uint32_t)(i + 1);
}

/* the index of name in s, or -1 */
static long find_index(const gms_stats *s, const char *name)
{
    if (!s->hix) {
        for (size_t i = 0; i < s->n; i++)
            if (!strcmp(s->v[i].name, name)) return (long)i;
        return -1;
    }
    size_t m = s->hcap - 1;
    for (size_t j = name_hash(name) & m; s->hix[j]; j = (j + 1) & m)
        if (!strcmp(s->v[s->hix[j] - 1].name, name)) return (long)(s->hix[j] - 1);
    return -1;
}

static void add(gms_stats *s, const char *name, double v, int is_int)
{
    /* a repeated name overwrites (components may report the same total twice) */
    long k = find_index(s, name);
    if (k >= 0) { s->v[k].value = v; s->v[k].is_int = is_int; return; }
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 64;
        s->v = gms_xrealloc(s->v, s->cap * sizeof *s->v);
    }
    s->v[s->n].name = gms_xstrdup(name);
    s->v[s->n].value = v;
    s->v[s->n].is_int = is_int;
    s->n++;
    if (s->n < HIX_MIN) return;
    if (s->n * 2 > s->hcap) {   /* (re)build at a load of at most one half */
        free(s->hix);
        s->hcap = s->hcap ? s->hcap * 2 : 64;
        while (s->n * 2 > s->hcap) s->hcap *= 2;
        s->hix = gms_xcalloc(s->hcap, sizeof *s->hix);
        for (size_t i = 0; i < s->n; i++) hix_put(s, i);
    } else {
        hix_put(s, s->n - 1);
    }
}

void gms_stat_u64(gms_stats *s, const char *name, uint64_t v) { add(s, name, (double)v, 1); }
void gms_stat_f64(gms_stats *s, const char *name, double v) { add(s, name, v, 0); }

void gms_stat_u64f(gms_stats *s, uint64_t v, const char *fmt, ...)
{
    char name[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(name, sizeof name, fmt, ap);
    va_end(ap);
    add(s, name, (double)v, 1);
}

void gms_stat_f64f(gms_stats *s, double v, const char *fmt, ...)
{
    char name[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(name, sizeof name, fmt, ap);
    va_end(ap);
    add(s, name, v, 0);
}

const gms_stat *gms_stats_find(const gms_stats *s, const char *name)
{
    long k = find_index(s, name);
    return k >= 0 ? &s->v[k] : NULL;
}

void gms_run_stats_init(gms_run_stats *r)
{
    memset(r, 0, sizeof *r);
    gms_stats_init(&r->total);
    gms_stats_init(&r->host);
}

void gms_run_stats_free(gms_run_stats *r)
{
    for (size_t i = 0; i < r->nkernels; i++) gms_stats_free(&r->kernels[i].st);
    free(r->kernels);
    gms_stats_free(&r->total);
    gms_stats_free(&r->host);
    gms_run_stats_set_unmodelled(r, NULL, 0);
    free(r->error);
    r->error = NULL;
    memset(r, 0, sizeof *r);
}

void gms_run_stats_set_unmodelled(gms_run_stats *r, const char *const *names, size_t n)
{
    for (size_t i = 0; i < r->nunmodelled; i++) free(r->unmodelled[i]);
    free(r->unmodelled);
    r->unmodelled = n ? gms_xmalloc(n * sizeof *r->unmodelled) : NULL;
    for (size_t i = 0; i < n; i++) r->unmodelled[i] = gms_xstrdup(names[i]);
    r->nunmodelled = n;
}

gms_kernel_stats *gms_run_stats_add_kernel(gms_run_stats *r, const char *name, uint32_t uid, int stream)
{
    if (r->nkernels == r->capk) {
        r->capk = r->capk ? r->capk * 2 : 8;
        r->kernels = gms_xrealloc(r->kernels, r->capk * sizeof *r->kernels);
    }
    gms_kernel_stats *k = &r->kernels[r->nkernels++];
    memset(k, 0, sizeof *k);
    snprintf(k->name, sizeof k->name, "%s", name);
    k->uid = uid;
    k->stream = stream;
    gms_stats_init(&k->st);
    return k;
}

int gms_stats_total(const gms_run_stats *r, const char *name, double *value)
{
    const gms_stat *s = gms_stats_find(&r->total, name);
    if (!s) return -1;
    *value = s->value;
    return 0;
}

static void print_val(FILE *out, const gms_stat *s)
{
    if (s->is_int) fprintf(out, "%.0f", s->value);
    else if (!isfinite(s->value)) fprintf(out, "0");
    else fprintf(out, "%.6g", s->value);
}

/* text: GPGPU-Sim style "name = value" lines, one block per kernel (with the GPGPU-Sim log
 * lines Accel-Sim's scripts parse, gpgpusim_log.c) then the totals */
void gms_stats_write_text(const gms_run_stats *r, FILE *out)
{
    for (size_t k = 0; k < r->nkernels; k++) {
        const gms_kernel_stats *ks = &r->kernels[k];
        fprintf(out, "kernel_name = %s\nkernel_launch_uid = %u\nkernel_stream = %d\n", ks->name, ks->uid, ks->stream);
        for (size_t i = 0; i < ks->st.n; i++) {
            fprintf(out, "%s = ", ks->st.v[i].name);
            print_val(out, &ks->st.v[i]);
            fputc('\n', out);
        }
        gms_stats_write_gpgpusim_kernel(&ks->st, k ? &r->kernels[k - 1].st : NULL, out);
        fputc('\n', out);
    }
    fprintf(out, "----- totals (%s)%s -----\n", r->workload, r->error ? ", partial: the run failed" : "");
    for (size_t i = 0; i < r->total.n; i++) {
        fprintf(out, "%s = ", r->total.v[i].name);
        print_val(out, &r->total.v[i]);
        fputc('\n', out);
    }
    /* a list of option names, not a number: "none" when every option is modelled */
    fprintf(out, "gms_unmodelled_options = ");
    for (size_t i = 0; i < r->nunmodelled; i++) fprintf(out, "%s%s", i ? "," : "", r->unmodelled[i]);
    fprintf(out, "%s\n", r->nunmodelled ? "" : "none");
    gms_stats_write_uvmsmart(r, out);
    if (r->host.n) fprintf(out, "----- host (not simulated) -----\n");
    for (size_t i = 0; i < r->host.n; i++) {
        fprintf(out, "%s = ", r->host.v[i].name);
        print_val(out, &r->host.v[i]);
        fputc('\n', out);
    }
    gms_stats_write_gpgpusim_end(r, out);
}

static void json_str(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(out, "\\%c", c);
        else if (c < 0x20) fprintf(out, "\\u%04x", c);
        else fputc(c, out);
    }
    fputc('"', out);
}

static void json_stats(FILE *out, const gms_stats *s, const char *indent)
{
    fputs("{", out);
    for (size_t i = 0; i < s->n; i++) {
        fprintf(out, "%s\n%s  ", i ? "," : "", indent);
        json_str(out, s->v[i].name);
        fputs(": ", out);
        if (s->v[i].is_int) fprintf(out, "%.0f", s->v[i].value);
        else if (!isfinite(s->v[i].value)) fputs("null", out);
        else fprintf(out, "%.17g", s->v[i].value);
    }
    fprintf(out, "\n%s}", indent);
}

void gms_stats_write_json(const gms_run_stats *r, FILE *out)
{
    fprintf(out, "{\n  \"gpumemsim_version\": \"%s\",\n  \"workload\": ", GPUMEMSIM_VERSION);
    json_str(out, r->workload);
    fprintf(out, ",\n  \"config_digest\": ");
    json_str(out, r->config_digest);
    if (r->error) {   /* only on a failed run: the statistics below stop where it stopped */
        fprintf(out, ",\n  \"error\": ");
        json_str(out, r->error);
    }
    fprintf(out, ",\n  \"gms_unmodelled_options\": [");
    for (size_t i = 0; i < r->nunmodelled; i++) {
        if (i) fputs(", ", out);
        json_str(out, r->unmodelled[i]);
    }
    fputc(']', out);
    fprintf(out, ",\n  \"total\": ");
    json_stats(out, &r->total, "  ");
    fprintf(out, ",\n  \"host\": ");
    json_stats(out, &r->host, "  ");
    fprintf(out, ",\n  \"kernels\": [");
    for (size_t k = 0; k < r->nkernels; k++) {
        const gms_kernel_stats *ks = &r->kernels[k];
        fprintf(out, "%s\n    {\"name\": ", k ? "," : "");
        json_str(out, ks->name);
        fprintf(out, ", \"uid\": %u, \"stream\": %d, \"stats\": ", ks->uid, ks->stream);
        json_stats(out, &ks->st, "    ");
        fputs("}", out);
    }
    fprintf(out, "%s]\n}\n", r->nkernels ? "\n  " : "");
}

/* csv: scope,kernel_uid,kernel_name,stat,value */
void gms_stats_write_csv(const gms_run_stats *r, FILE *out)
{
    fprintf(out, "scope,kernel_uid,kernel_name,stat,value\n");
    for (size_t k = 0; k < r->nkernels; k++) {
        const gms_kernel_stats *ks = &r->kernels[k];
        for (size_t i = 0; i < ks->st.n; i++) {
            fprintf(out, "kernel,%u,\"%s\",\"%s\",", ks->uid, ks->name, ks->st.v[i].name);
            print_val(out, &ks->st.v[i]);
            fputc('\n', out);
        }
    }
    for (size_t i = 0; i < r->total.n; i++) {
        fprintf(out, "total,,,\"%s\",", r->total.v[i].name);
        print_val(out, &r->total.v[i]);
        fputc('\n', out);
    }
    for (size_t i = 0; i < r->host.n; i++) {
        fprintf(out, "host,,,\"%s\",", r->host.v[i].name);
        print_val(out, &r->host.v[i]);
        fputc('\n', out);
    }
}
