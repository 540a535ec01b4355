#include "workloads/workload.h"
#include "frontend/warp_refill.h"
#include "workloads/wl_shadow.h"
#include "stats/stats.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#define MAX_ARGS 64
#define MAX_NOTES 16

typedef struct wl_note { char name[48]; uint64_t used, asked; } wl_note;
/* bad: the first integer parameter given a fraction (gms_wl_u64), reported after create */
typedef struct wl_notes { wl_note v[MAX_NOTES]; int n; char bad[160]; } wl_notes;

struct gms_wl_args {
    const gms_workload_ops *ops;
    int n;
    char *names[MAX_ARGS];
    char *vals[MAX_ARGS];
    int uvm, prefetch;
    uint32_t chunk;          /* chunk=N: gms_program.chunk */
    uint64_t seed;
    int quiet;               /* gms_wl_args_quiet */
    wl_notes *notes;         /* size notes: written through const args by create() */
};

extern const gms_workload_ops *const gms_workloads_micro[];
extern const gms_workload_ops *const gms_workloads_polybench[];
extern const gms_workload_ops *const gms_workloads_rodinia[];
extern const gms_workload_ops *const gms_workloads_parboil[];
extern const gms_workload_ops *const gms_workloads_lonestar[];
extern const gms_workload_ops *const gms_workloads_sdk[];
extern const gms_workload_ops *const gms_workloads_graphbig[];
extern const gms_workload_ops *const gms_workloads_cke[];   /* src/cke/cke_workload.c */
extern const gms_workload_ops *const gms_workloads_um[];    /* UVMSmart's Managed set */

static const gms_workload_ops *const *const lists[] = {
    gms_workloads_micro, gms_workloads_polybench, gms_workloads_rodinia,
    gms_workloads_parboil, gms_workloads_lonestar, gms_workloads_sdk, gms_workloads_graphbig,
    gms_workloads_cke, gms_workloads_um,
};

size_t gms_workload_count(void)
{
    size_t n = 0;
    for (size_t l = 0; l < sizeof lists / sizeof lists[0]; l++)
        for (const gms_workload_ops *const *p = lists[l]; *p; p++) n++;
    return n;
}

const gms_workload_ops *gms_workload_at(size_t i)
{
    for (size_t l = 0; l < sizeof lists / sizeof lists[0]; l++)
        for (const gms_workload_ops *const *p = lists[l]; *p; p++)
            if (i-- == 0) return *p;
    return NULL;
}

const gms_workload_ops *gms_workload_find(const char *name)
{
    for (size_t i = 0, n = gms_workload_count(); i < n; i++) {
        const gms_workload_ops *o = gms_workload_at(i);
        if (!strcasecmp(o->name, name)) return o;
    }
    return NULL;
}

static const gms_wl_param *find_param(const gms_workload_ops *ops, const char *name)
{
    for (const gms_wl_param *p = ops->params; p && p->name; p++)
        if (!strcmp(p->name, name)) return p;
    return NULL;
}

static int parse_u64(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    if (!*s || *s == '-') return -1;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno) return -1;
    uint64_t mul = 1;
    if (*end == 'K' || *end == 'k') { mul = 1024ULL; end++; }
    else if (*end == 'M' || *end == 'm') { mul = 1024ULL * 1024; end++; }
    else if (*end == 'G' || *end == 'g') { mul = 1024ULL * 1024 * 1024; end++; }
    if (*end == 'B' || *end == 'b') end++;
    if (*end) return -1;
    if (mul > 1 && v > UINT64_MAX / mul) return -1;
    *out = v * mul;
    return 0;
}

int gms_wl_args_parse(const gms_workload_ops *ops, const char *const *kv, uint64_t seed,
                      gms_wl_args **out, gms_error *err)
{
    gms_wl_args *a = gms_xcalloc(1, sizeof *a);
    a->ops = ops;
    a->seed = seed;
    a->notes = gms_xcalloc(1, sizeof *a->notes);
    for (size_t i = 0; kv && kv[i]; i++) {
        const char *eq = strchr(kv[i], '=');
        if (!eq || eq == kv[i]) {
            gms_wl_args_free(a);
            return gms_err(err, "workload %s: parameter '%s' is not of the form name=value", ops->name, kv[i]);
        }
        size_t nl = (size_t)(eq - kv[i]);
        char name[128];
        if (nl >= sizeof name) nl = sizeof name - 1;
        memcpy(name, kv[i], nl);
        name[nl] = 0;
        const char *val = eq + 1;
        uint64_t v;
        if (!strcmp(name, "uvm") || !strcmp(name, "prefetch")) {
            if (parse_u64(val, &v) || v > 1) {
                gms_wl_args_free(a);
                return gms_err(err, "workload %s: parameter %s=%s must be 0 or 1", ops->name, name, val);
            }
            if (name[0] == 'u') a->uvm = (int)v; else a->prefetch = (int)v;
            continue;
        }
        if (!strcmp(name, "chunk")) {
            if (parse_u64(val, &v) || v > UINT32_MAX) {
                gms_wl_args_free(a);
                return gms_err(err, "workload %s: parameter chunk=%s must be in [0, %u]", ops->name, val, UINT32_MAX);
            }
            a->chunk = (uint32_t)v;
            continue;
        }
        if (!strcmp(name, "seed")) {
            if (parse_u64(val, &v)) {
                gms_wl_args_free(a);
                return gms_err(err, "workload %s: parameter seed=%s is not a number", ops->name, val);
            }
            a->seed = v;
            continue;
        }
        const gms_wl_param *p = find_param(ops, name);
        if (!p) {
            char known[1024] = "uvm prefetch seed chunk";
            for (const gms_wl_param *q = ops->params; q && q->name; q++) {
                strncat(known, " ", sizeof known - strlen(known) - 1);
                strncat(known, q->name, sizeof known - strlen(known) - 1);
            }
            gms_wl_args_free(a);
            return gms_err(err, "workload %s: unknown parameter '%s' (known: %s)", ops->name, name, known);
        }
        /* numeric defaults imply a numeric parameter: check the value now */
        if (p->defval && *p->defval) {
            char *end;
            if (val[0] == '-') {
                gms_wl_args_free(a);
                return gms_err(err, "workload %s: parameter %s=%s must not be negative", ops->name, name, val);
            }
            double d = 0;
            if (parse_u64(val, &v) && (d = strtod(val, &end), *end || end == val)) {
                gms_wl_args_free(a);
                return gms_err(err, "workload %s: parameter %s=%s is not a number", ops->name, name, val);
            }
            /* 1e30, inf, nan: no parameter's value, and no integer could hold it */
            if (parse_u64(val, &v) && !(d < 18446744073709551616.0)) {
                gms_wl_args_free(a);
                return gms_err(err, "workload %s: parameter %s=%s is out of range (at most %llu)", ops->name, name,
                               val, (unsigned long long)UINT64_MAX);
            }
        }
        if (a->n == MAX_ARGS) {
            gms_wl_args_free(a);
            return gms_err(err, "workload %s: too many parameters", ops->name);
        }
        a->names[a->n] = gms_xstrdup(name);
        a->vals[a->n] = gms_xstrdup(val);
        a->n++;
    }
    *out = a;
    return 0;
}

int gms_wl_args_check(const gms_wl_args *a, gms_error *err)
{
    if (!a->notes->bad[0]) return 0;
    return gms_err(err, "workload %s: %s", a->ops->name, a->notes->bad);
}

void gms_wl_args_free(gms_wl_args *a)
{
    if (!a) return;
    for (int i = 0; i < a->n; i++) { free(a->names[i]); free(a->vals[i]); }
    free(a->notes);
    free(a);
}

const char *gms_wl_str(const gms_wl_args *a, const char *name)
{
    for (int i = a->n - 1; i >= 0; i--)
        if (!strcmp(a->names[i], name)) return a->vals[i];
    const gms_wl_param *p = find_param(a->ops, name);
    return p && p->defval ? p->defval : "";
}

uint64_t gms_wl_u64(const gms_wl_args *a, const char *name)
{
    uint64_t v = 0;
    const char *s = gms_wl_str(a, name);
    if (parse_u64(s, &v)) {   /* "1e6" is fine; anything not a whole number below 2^64 is said */
        char *end;
        double d = strtod(s, &end);
        v = d >= 18446744073709551615.0 ? UINT64_MAX : d > 0 ? (uint64_t)d : 0;
        /* numeric parameters were checked when parsed (a word, a sign, 2^64); one without a
         * numeric default (graphbig's root) is checked here. Said after create
         * (gms_wl_args_check), never cut down or defaulted silently. */
        const char *why = end == s || *end ? "is not a number" : d < 0 ? "must not be negative"
                        : !(d < 18446744073709551616.0) ? "is out of range" : d != (double)v ? "is not a whole number" : NULL;
        if (why && !a->notes->bad[0]) snprintf(a->notes->bad, sizeof a->notes->bad, "parameter %s=%s %s", name, s, why);
    }
    return v;
}

double gms_wl_f64(const gms_wl_args *a, const char *name)
{
    uint64_t v;
    const char *s = gms_wl_str(a, name);
    if (!parse_u64(s, &v)) return (double)v;
    return strtod(s, NULL);
}

int gms_wl_uvm(const gms_wl_args *a) { return a->uvm; }
int gms_wl_prefetch(const gms_wl_args *a) { return a->prefetch; }
uint32_t gms_wl_chunk(const gms_wl_args *a) { return a->chunk; }
uint64_t gms_wl_seed(const gms_wl_args *a) { return a->seed; }

int gms_wl_check_range(const gms_wl_args *a, const char *name, uint64_t lo, uint64_t hi, gms_error *err)
{
    uint64_t v = gms_wl_u64(a, name);
    if (v < lo || v > hi)
        return gms_err(err, "workload %s: parameter %s=%s must be in [%llu, %llu]", a->ops->name, name,
                       gms_wl_str(a, name), (unsigned long long)lo, (unsigned long long)hi);
    return 0;
}

void gms_wl_note_size(const gms_wl_args *a, const char *name, uint64_t used, uint64_t asked)
{
    wl_notes *ns = a->notes;
    int i = 0;
    while (i < ns->n && strcmp(ns->v[i].name, name)) i++;
    if (i == MAX_NOTES) return;
    if (i == ns->n) snprintf(ns->v[ns->n++].name, sizeof ns->v[i].name, "%s", name);
    ns->v[i].used = used;
    ns->v[i].asked = asked;
}

int gms_wl_clamped(const gms_wl_args *a)
{
    int k = 0;
    for (int i = 0; i < a->notes->n; i++) k += a->notes->v[i].used != a->notes->v[i].asked;
    return k;
}

void gms_wl_report(const gms_wl_args *a, gms_stats *st)
{
    gms_stat_u64(st, "gms_workload_clamped", (uint64_t)gms_wl_clamped(a));
    for (int i = 0; i < a->notes->n; i++) gms_stat_u64f(st, a->notes->v[i].used, "gms_workload_size_%s", a->notes->v[i].name);
}

gms_wl_args *gms_wl_args_with(const gms_wl_args *a, const char *const *kv)
{
    gms_wl_args *c = gms_xcalloc(1, sizeof *c);
    *c = *a;
    c->notes = gms_xcalloc(1, sizeof *c->notes);
    c->n = 0;
    for (int i = 0; i < a->n; i++) {
        c->names[c->n] = gms_xstrdup(a->names[i]);
        c->vals[c->n++] = gms_xstrdup(a->vals[i]);
    }
    for (size_t i = 0; kv[i] && c->n < MAX_ARGS; i++) {
        const char *eq = strchr(kv[i], '=');
        if (!eq) continue;
        c->names[c->n] = gms_xstrdup(kv[i]);
        c->names[c->n][eq - kv[i]] = 0;
        c->vals[c->n++] = gms_xstrdup(eq + 1);
    }
    return c;
}

void gms_wl_args_quiet(gms_wl_args *a) { a->quiet = 1; }

static _Thread_local int clamp_quiet;
void gms_wl_clamp_messages(int on) { clamp_quiet = !on; }

/* the one line naming what was clamped: "... clamped P=USED (instead of ASKED), ..." */
static void say_clamped(const gms_wl_args *a)
{
    if (a->quiet || clamp_quiet || !gms_wl_clamped(a)) return;
    char line[1024];
    size_t n = (size_t)snprintf(line, sizeof line, "gpumemsim: workload %s: scale=%s is below the smallest valid problem; "
                                "clamped", a->ops->name, gms_wl_str(a, "scale"));
    const char *sep = " ";
    for (int i = 0; i < a->notes->n && n < sizeof line; i++) {
        const wl_note *v = &a->notes->v[i];
        if (v->used == v->asked) continue;
        n += (size_t)snprintf(line + n, sizeof line - n, "%s%s=%llu (instead of %llu)", sep, v->name,
                              (unsigned long long)v->used, (unsigned long long)v->asked);
        sep = ", ";
    }
    fprintf(stderr, "%s\n", line);
}

typedef struct wl_prog { const gms_workload_ops *ops; void *state; } wl_prog;

static int wl_next(void *self, gms_program *prog, gms_error *err)
{
    wl_prog *w = self;
    return w->ops->next(w->state, prog, err);
}

static void wl_destroy(void *self) { free(self); }

int gms_workload_program(const gms_workload_ops *ops, const gms_wl_args *a, gms_program_src *out,
                         void **state, gms_error *err)
{
    void *st = NULL;
    if (ops->create(a, &st, err)) return -1;
    if (gms_wl_args_check(a, err)) {
        ops->destroy(st);
        return -1;
    }
    say_clamped(a);
    wl_prog *w = gms_xcalloc(1, sizeof *w);
    w->ops = ops;
    w->state = st;
    out->next = wl_next;
    out->destroy = wl_destroy;
    out->self = w;
    *state = st;
    return 0;
}

/* functional run: count a warp's buffered instructions (called chunk by chunk) */
static int count_chunk(void *ud, uint32_t warp, const gms_warp_trace *wt)
{
    gms_functional_result *res = ud;
    /* host speed: sums in locals (the counters in *res could alias the records, so the
     * compiler would load and store them every instruction) */
    uint64_t thr = 0, mem = 0;
    const gms_inst *in = wt->insts;
    for (uint32_t i = 0; i < wt->n; i++) {
        thr += (uint64_t)__builtin_popcount(in[i].mask);
        mem += in[i].op == GMS_OP_MEM;
    }
    res->warp_insts += wt->n;
    res->thread_insts += thr;
    res->mem_insts += mem;
    if (wt->n > res->max_warp_buffer) res->max_warp_buffer = wt->n;
    return 0;
}

int gms_workload_run_functional(const gms_workload_ops *ops, const char *const *kv, uint64_t seed,
                                gms_functional_result *res, gms_error *err)
{
    gms_functional_opts o = { .shadow = 1 };
    return gms_workload_run_functional_opts(ops, kv, seed, &o, res, err);
}

int gms_workload_run_functional_opts(const gms_workload_ops *ops, const char *const *kv, uint64_t seed,
                                     const gms_functional_opts *opts, gms_functional_result *res, gms_error *err)
{
    memset(res, 0, sizeof *res);
    gms_wl_args *a = NULL;
    if (gms_wl_args_parse(ops, kv, seed, &a, err)) return -1;
    gms_program prog;
    gms_program_init(&prog);
    prog.uvm = a->uvm;
    prog.prefetch = a->prefetch;
    prog.chunk = a->chunk;
    /* the shadow memory: stores land at, loads are checked against, the emitted addresses */
    wl_shadow *sh = opts->shadow ? wl_shadow_new(opts->shadow_max_bytes ? opts->shadow_max_bytes
                                                                        : WL_SHADOW_MAX_BYTES) : NULL;
    if (sh) wl_shadow_perturb(sh, opts->perturb_store, opts->perturb_load, opts->perturb_delta);
    prog.shadow = sh;
    gms_program_src src;
    void *st = NULL;
    int rc = -1;
    if (gms_workload_program(ops, a, &src, &st, err)) goto out_args;
    gms_block_trace bt = {0};
    for (;;) {
        int r = src.next(src.self, &prog, err);
        if (r < 0) goto out;
        if (r == 0 && prog.head == prog.n) break;
        gms_cmd *c;
        while ((c = gms_prog_pop(&prog))) {
            if (c->kind == GMS_CMD_ALLOC) res->allocs++;
            if (c->kind != GMS_CMD_LAUNCH) continue;
            gms_kernel_src *k = &c->kernel;
            uint64_t nb = gms_dim3_count(k->grid);
            uint32_t tpb = (uint32_t)gms_dim3_count(k->block);
            uint32_t nw = (tpb + 31) / 32;
            res->kernels++;
            for (uint64_t b = 0; b < nb; b++) {
                gms_block_trace_reset(&bt, nw);
                bt.x = (uint32_t)(b % k->grid.x);
                bt.y = (uint32_t)(b / k->grid.x % k->grid.y);
                bt.z = (uint32_t)(b / ((uint64_t)k->grid.x * k->grid.y));
                if (k->fill_block(k->self, b, &bt, err) || gms_block_drain(k, &bt, count_chunk, res, err)) {
                    if (k->release) k->release(k->self);
                    gms_block_trace_free(&bt);
                    goto out;
                }
                res->blocks++;
            }
            if (k->release) k->release(k->self);
        }
        if (r == 0) break;
    }
    gms_block_trace_free(&bt);
    res->shadow_loads = wl_shadow_loads(sh);
    res->shadow_stores = wl_shadow_stores(sh);
    res->shadow_overflow = wl_shadow_overflowed(sh);
    if (opts->digest) res->shadow_digest = wl_shadow_digest(sh);
    rc = wl_shadow_status(sh, ops->name, err) ? -1 : ops->verify ? ops->verify(st, err) : 0;
out:
    src.destroy(src.self);
    ops->destroy(st);
out_args:
    wl_shadow_free(sh);
    gms_program_free(&prog);
    gms_wl_args_free(a);
    return rc;
}
