/* Claim metric expressions (claims.h): + - * / and parentheses over numbers, earlier metrics
 * by name, and functions over a study's per-workload values:
 *   val(STAT, V, W)                 STAT of workload W under variant V (mean over seeds)
 *   gm / am / sum / min / max(STAT, V [, GROUP])   over the workloads (of GROUP: a group, a
 *       workload's label, or a '+'-union of them)
 *   speedup(STAT, A, B [, GROUP])   geometric mean over workloads of STAT(A) / STAT(B)
 *   speedup_nz(STAT, A, B [, GROUP])   the same over the workloads where A or B is not 0
 *       (a count such as evictions that is 0 under both says nothing about the ratio)
 *   meanratio(STAT, A, B [, GROUP])  arithmetic mean over workloads of STAT(A) / STAT(B), leaving
 *       out those where STAT(B) is 0 (a count normalised to a baseline that has none: the
 *       seeds' "normalised counts, average" bars)
 *   minratio / maxratio(STAT, A, B [, GROUP])      smallest / largest of those ratios
 *   countratio(STAT, A, B, X [, GROUP])            how many of those ratios exceed X (the
 *       seeds' "over 10% on 9 apps")
 *   countval(STAT, V, X [, GROUP])                 how many workloads have STAT(V) above X (a
 *       class check: "instructions per L2 miss above 1500"; X = -1 counts a group's workloads)
 *   countany(A, B, STAT1 OP X1 | STAT2 OP X2 ... [, GROUP])   how many workloads have at least
 *       one of the ratios STATk(A) / STATk(B) passing its test (OP: < <= > >=): the seeds' "each
 *       benchmark improves in at least one of ..." (compare with countval(.., -1, GROUP))
 *   r2(STAT, V1+V2+.., BASE, PRED [, G1+G2+..])    coefficient of determination of a model:
 *       over every listed variant V and workload (of the listed groups or workloads, else all),
 *       y = STAT(V) / STAT(BASE) against the prediction PRED(V), a stat of the same point:
 *       1 - sum (y - PRED)^2 / sum (y - mean y)^2 (spec 001 C2.4's fit of the cubic RF model)
 * STAT is a stored total stat, X/Y (their ratio per point), or sums: X+Y, (X+Y)/Z written X+Y/Z. A variant written A|B|C is, per
 * workload, whichever of them has the highest gpu_tot_ipc (a "-best" scheme). A workload without a value makes
 * the function's value missing (NAN, with the reason), never a silently smaller mean. */
#include "harness/claims.h"
#include "harness/util.h"
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef enum { CE_NUM, CE_NAME, CE_CALL, CE_BIN, CE_NEG } ce_kind;

struct gms_cexpr {
    ce_kind kind;
    double num;
    char *name;              /* CE_NAME, CE_CALL */
    char **args; size_t nargs;
    char op;                 /* CE_BIN */
    gms_cexpr *l, *r;
};

typedef struct fn_info { const char *name; int min_args, max_args; } fn_info;
static const fn_info fns[] = {
    { "val", 3, 3 }, { "gm", 2, 3 }, { "am", 2, 3 }, { "sum", 2, 3 }, { "min", 2, 3 }, { "max", 2, 3 },
    { "speedup", 3, 4 }, { "speedup_nz", 3, 4 }, { "minratio", 3, 4 }, { "meanratio", 3, 4 }, { "maxratio", 3, 4 }, { "countratio", 4, 5 }, { "countval", 3, 4 }, { "countany", 3, 4 }, { "r2", 4, 5 },
};

/* countratio's threshold: a number, or a percentage (10% = 0.1) as in expressions; 0 if valid */
static int parse_threshold(const char *a, double *out)
{
    char *end;
    double x = strtod(a, &end);
    if (end == a) return -1;
    if (*end == '%') { x /= 100; end++; }
    if (*end) return -1;
    *out = x;
    return 0;
}

/* one test of countany: "STAT OP X" (OP < <= > >=); the stat is copied into stat[], 0 if valid */
typedef enum { T_LT, T_LE, T_GT, T_GE } test_op;
static int parse_test(const char *t, size_t len, char *stat, size_t statn, test_op *op, double *x)
{
    size_t i = 0;
    while (i < len && !strchr("<>", t[i])) i++;
    if (i == len) return -1;
    size_t a = 0, b = i;
    while (a < b && (t[a] == ' ' || t[a] == '\t')) a++;
    while (b > a && (t[b - 1] == ' ' || t[b - 1] == '\t')) b--;
    if (b == a || b - a >= statn) return -1;
    for (size_t k = a; k < b; k++)
        if (t[k] == ' ' || t[k] == '\t') return -1;
    memcpy(stat, t + a, b - a);
    stat[b - a] = 0;
    int eq = i + 1 < len && t[i + 1] == '=';
    *op = t[i] == '<' ? (eq ? T_LE : T_LT) : (eq ? T_GE : T_GT);
    char num[64];
    size_t s0 = i + 1 + (size_t)eq, e0 = len;
    while (s0 < e0 && (t[s0] == ' ' || t[s0] == '\t')) s0++;
    while (e0 > s0 && (t[e0 - 1] == ' ' || t[e0 - 1] == '\t')) e0--;
    if (e0 == s0 || e0 - s0 >= sizeof num) return -1;
    memcpy(num, t + s0, e0 - s0);
    num[e0 - s0] = 0;
    return parse_threshold(num, x);
}

/* calls cb on each '|'-separated test of a countany list; the first nonzero return stops */
typedef int (*test_fn)(void *ud, const char *stat, test_op op, double x);
static int each_test(const char *list, test_fn cb, void *ud, char *msg, size_t msgn)
{
    for (const char *p = list;;) {
        size_t k = strcspn(p, "|");
        char stat[256];
        test_op op;
        double x;
        if (parse_test(p, k, stat, sizeof stat, &op, &x)) {
            snprintf(msg, msgn, "countany(): '%.*s' is not a test STAT OP NUMBER (OP: < <= > >=)", (int)k, p);
            return -1;
        }
        int r = cb ? cb(ud, stat, op, x) : 0;
        if (r) return r;
        if (!p[k]) return 0;
        p += k + 1;
    }
}

/* where a (non-r2) call's arguments are: ratio functions take variants A and B, countratio a
 * threshold after them; the optional GROUP comes last (eval_call and gms_cexpr_names) */
typedef struct call_shape { int ratio, count, nz, mean, any; size_t group_arg, thr_arg; } call_shape;
static call_shape shape_of_call(const char *f)
{
    call_shape c = { 0 };
    int countval = !strcmp(f, "countval");
    c.count = countval || !strcmp(f, "countratio");
    c.nz = !strcmp(f, "speedup_nz");
    c.mean = !strcmp(f, "meanratio");
    c.ratio = (c.count && !countval) || c.nz || c.mean || !strcmp(f, "speedup") || !strcmp(f, "minratio") || !strcmp(f, "maxratio");
    c.any = !strcmp(f, "countany");
    c.group_arg = countval || c.any ? 3 : c.count ? 4 : c.ratio ? 3 : 2;
    c.thr_arg = countval ? 2 : 3;
    return c;
}

static const fn_info *find_fn(const char *name)
{
    for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++)
        if (!strcmp(fns[i].name, name)) return &fns[i];
    return NULL;
}

void gms_cexpr_free(gms_cexpr *e)
{
    if (!e) return;
    free(e->name);
    for (size_t i = 0; i < e->nargs; i++) free(e->args[i]);
    free(e->args);
    gms_cexpr_free(e->l);
    gms_cexpr_free(e->r);
    free(e);
}

typedef struct pstate { const char *p; char *msg; size_t msgn; int bad; int depth; } pstate;

/* nesting (parentheses, unary minus, chained operators) an expression may have: the parser,
 * the evaluator and gms_cexpr_free recurse once per level */
#define MAX_DEPTH 256
static int deeper(pstate *s)
{
    if (++s->depth <= MAX_DEPTH) return 0;
    if (!s->bad) { s->bad = 1; snprintf(s->msg, s->msgn, "the expression nests more than %d levels", MAX_DEPTH); }
    return -1;
}

static void perr(pstate *s, const char *fmt, ...)
{
    if (s->bad) return;
    s->bad = 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->msg, s->msgn, fmt, ap);
    va_end(ap);
}

static void skip_ws(pstate *s) { while (*s->p == ' ' || *s->p == '\t') s->p++; }
static int ident_start(char c) { return isalpha((unsigned char)c) || c == '_'; }
static int ident_char(char c) { return isalnum((unsigned char)c) || c == '_' || c == '.'; }

static gms_cexpr *node(ce_kind k) { gms_cexpr *e = gms_xcalloc(1, sizeof *e); e->kind = k; return e; }
static gms_cexpr *parse_sum(pstate *s);

static gms_cexpr *parse_call(pstate *s, char *name)
{
    const fn_info *f = find_fn(name);
    if (!f) { perr(s, "unknown function '%s' (known: val, gm, am, sum, min, max, speedup, speedup_nz, meanratio, minratio, maxratio, countratio, countval, countany, r2)", name); free(name); return NULL; }
    gms_cexpr *e = node(CE_CALL);
    e->name = name;
    s->p++;                                  /* '(' */
    for (;;) {
        skip_ws(s);
        const char *a = s->p;
        while (*s->p && *s->p != ',' && *s->p != ')' && *s->p != '(') s->p++;
        const char *b = s->p;
        while (b > a && (b[-1] == ' ' || b[-1] == '\t')) b--;
        if (b == a) { perr(s, "%s(): empty argument", name); gms_cexpr_free(e); return NULL; }
        e->args = gms_xrealloc(e->args, (e->nargs + 1) * sizeof *e->args);
        e->args[e->nargs] = gms_xcalloc(1, (size_t)(b - a) + 1);
        memcpy(e->args[e->nargs++], a, (size_t)(b - a));
        if (*s->p == ',') { s->p++; continue; }
        if (*s->p == ')') { s->p++; break; }
        perr(s, "missing ')' after the arguments of %s(", name);
        gms_cexpr_free(e);
        return NULL;
    }
    if ((int)e->nargs < f->min_args || (int)e->nargs > f->max_args) {
        if (f->min_args == f->max_args) perr(s, "%s() takes %d arguments, not %zu", name, f->min_args, e->nargs);
        else perr(s, "%s() takes %d or %d arguments, not %zu", name, f->min_args, f->max_args, e->nargs);
        gms_cexpr_free(e);
        return NULL;
    }
    if (!strcmp(name, "countany")) {   /* the tests, checked here */
        char m[300] = "";
        if (each_test(e->args[2], NULL, NULL, m, sizeof m)) { perr(s, "%s", m); gms_cexpr_free(e); return NULL; }
    }
    if (!strcmp(name, "countratio") || !strcmp(name, "countval")) {   /* the threshold is a number, checked here */
        double t;
        size_t ti = shape_of_call(name).thr_arg;
        if (parse_threshold(e->args[ti], &t)) {
            perr(s, "%s(): the threshold '%s' is not a number", name, e->args[ti]);
            gms_cexpr_free(e);
            return NULL;
        }
    }
    return e;
}

static gms_cexpr *parse_primary(pstate *s)
{
    skip_ws(s);
    if (*s->p == '(') {
        s->p++;
        if (deeper(s)) return NULL;
        gms_cexpr *e = parse_sum(s);
        s->depth--;
        if (!e) return NULL;
        skip_ws(s);
        if (*s->p != ')') { perr(s, "missing ')' at '%s'", s->p); gms_cexpr_free(e); return NULL; }
        s->p++;
        return e;
    }
    if (*s->p == '-') {
        s->p++;
        if (deeper(s)) return NULL;
        gms_cexpr *in = parse_primary(s);
        s->depth--;
        if (!in) return NULL;
        gms_cexpr *e = node(CE_NEG);
        e->l = in;
        return e;
    }
    if (isdigit((unsigned char)*s->p) || *s->p == '.') {
        char *end;
        double v = strtod(s->p, &end);
        if (end == s->p) { perr(s, "bad number at '%s'", s->p); return NULL; }
        s->p = end;
        if (*s->p == '%') { v /= 100; s->p++; }
        gms_cexpr *e = node(CE_NUM);
        e->num = v;
        return e;
    }
    if (ident_start(*s->p)) {
        const char *a = s->p;
        while (ident_char(*s->p)) s->p++;
        char *name = gms_xcalloc(1, (size_t)(s->p - a) + 1);
        memcpy(name, a, (size_t)(s->p - a));
        skip_ws(s);
        if (*s->p == '(') return parse_call(s, name);
        gms_cexpr *e = node(CE_NAME);
        e->name = name;
        return e;
    }
    perr(s, *s->p ? "expected a number, a metric name, a call or '(' at '%s'" : "expression ends early%s", s->p);
    return NULL;
}

static gms_cexpr *parse_prod(pstate *s)
{
    gms_cexpr *l = parse_primary(s);
    int d0 = s->depth;
    while (l) {
        skip_ws(s);
        if (*s->p != '*' && *s->p != '/') { s->depth = d0; return l; }
        char op = *s->p++;
        if (deeper(s)) { gms_cexpr_free(l); return NULL; }   /* a chain makes a left-deep tree */
        gms_cexpr *r = parse_primary(s);
        if (!r) { gms_cexpr_free(l); return NULL; }
        gms_cexpr *e = node(CE_BIN);
        e->op = op; e->l = l; e->r = r;
        l = e;
    }
    return NULL;
}

static gms_cexpr *parse_sum(pstate *s)
{
    gms_cexpr *l = parse_prod(s);
    int d0 = s->depth;
    while (l) {
        skip_ws(s);
        if (*s->p != '+' && *s->p != '-') { s->depth = d0; return l; }
        char op = *s->p++;
        if (deeper(s)) { gms_cexpr_free(l); return NULL; }
        gms_cexpr *r = parse_prod(s);
        if (!r) { gms_cexpr_free(l); return NULL; }
        gms_cexpr *e = node(CE_BIN);
        e->op = op; e->l = l; e->r = r;
        l = e;
    }
    return NULL;
}

gms_cexpr *gms_cexpr_parse(const char *text, const char **end, char *msg, size_t msgn)
{
    pstate s = { text, msg, msgn, 0, 0 };
    gms_cexpr *e = parse_sum(&s);
    skip_ws(&s);
    if (end) *end = s.p;
    else if (e && *s.p) { snprintf(msg, msgn, "unexpected '%s' after the expression", s.p); gms_cexpr_free(e); return NULL; }
    return e;
}

/* ---------------------------------------------------------------- evaluation */

static void emsg(char *msg, size_t msgn, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void emsg(char *msg, size_t msgn, const char *fmt, ...)
{
    if (msg[0]) return;      /* keep the first reason */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, msgn, fmt, ap);
    va_end(ap);
}

static double *stat_vec(const gms_cenv *env, const char *stat, const char *variant, gms_cvec *shape,
                        char *msg, size_t msgn);

/* "no value of STAT for WORKLOAD under VARIANT", with the store's reason when it has one */
static void no_value(const gms_cenv *env, char *msg, size_t msgn, const char *stat, const char *workload,
                     const char *variant)
{
    char why[300] = "";
    if (env->why && !strchr(variant, '|')) env->why(env->ctx, stat, variant, workload, why, sizeof why);
    emsg(msg, msgn, "no value of %s for %s under %s%s%s%s", stat, workload, variant, why[0] ? " (" : "", why,
         why[0] ? ")" : "");
}

/* V = "A|B|C": per workload, STAT under whichever of A, B, C has the highest gpu_tot_ipc for
 * it (the seeds' "-best" schemes: SWL-best keeps the best warp limit of each benchmark) */
static double *best_vec(const gms_cenv *env, const char *stat, const char *variants, gms_cvec *shape,
                        char *msg, size_t msgn)
{
    double *out = NULL, *best = NULL;
    char alt[256];
    for (const char *p = variants; *p;) {
        size_t n = strcspn(p, "|");
        snprintf(alt, sizeof alt, "%.*s", (int)n, p);
        p += n + (p[n] == '|');
        gms_cvec s;
        double *ipc = stat_vec(env, "gpu_tot_ipc", alt, &s, msg, msgn);
        double *v = ipc ? stat_vec(env, stat, alt, &s, msg, msgn) : NULL;
        if (!v) { free(ipc); free(out); free(best); return NULL; }
        if (!out) {
            *shape = s;
            out = v;
            best = ipc;
            continue;
        }
        for (size_t i = 0; i < s.n; i++)
            if (isnan(best[i]) || ipc[i] > best[i]) { best[i] = ipc[i]; out[i] = v[i]; }
        free(ipc);
        free(v);
    }
    free(best);
    return out;
}

/* per-workload sum of the '+'-separated stats in list[0, len) under V, into a malloc'd array */
static double *sum_vec(const gms_cenv *env, const char *list, size_t len, const char *variant, gms_cvec *shape,
                       char *msg, size_t msgn)
{
    double *v = NULL;
    for (size_t at = 0; at < len;) {
        size_t k = strcspn(list + at, "+");
        if (at + k > len) k = len - at;
        char one[256];
        snprintf(one, sizeof one, "%.*s", (int)k, list + at);
        at += k + 1;
        gms_cvec a;
        char why[256] = "";
        if (env->vec(env->ctx, one, variant, &a, why, sizeof why)) { emsg(msg, msgn, "%s", why); free(v); return NULL; }
        if (!v) {
            v = gms_xcalloc(a.n ? a.n : 1, sizeof *v);
            memcpy(v, a.v, a.n * sizeof *v);
            *shape = a;
        } else {
            for (size_t i = 0; i < a.n && i < shape->n; i++) v[i] += a.v[i];
        }
    }
    return v;
}

/* per-workload values of STAT (X, X/Y, X+Y, X+Y/Z) under V, into a malloc'd array */
static double *stat_vec(const gms_cenv *env, const char *stat, const char *variant, gms_cvec *shape,
                        char *msg, size_t msgn)
{
    if (strchr(variant, '|')) return best_vec(env, stat, variant, shape, msg, msgn);
    const char *slash = strchr(stat, '/');
    double *v = sum_vec(env, stat, slash ? (size_t)(slash - stat) : strlen(stat), variant, shape, msg, msgn);
    if (v && slash) {
        gms_cvec b;
        double *d = sum_vec(env, slash + 1, strlen(slash + 1), variant, &b, msg, msgn);
        if (!d) { free(v); return NULL; }
        for (size_t i = 0; i < shape->n; i++) v[i] = d[i] != 0 ? v[i] / d[i] : NAN;
        free(d);
    }
    return v;
}

/* is `name` one of the '+'-separated items of list? */
static int in_list(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        size_t k = strcspn(p, "+");
        if (k == n && !strncmp(p, name, n)) return 1;
        p += k + (p[k] == '+');
    }
    return 0;
}

/* GROUP is one group, G1+G2 (their union) or * (every workload); a workload's label in the
 * list stands for itself (streaming+addvect: a group and one workload of another group) */
static int in_group(const gms_cvec *s, size_t i, const char *group)
{
    return !group || !strcmp(group, "*") || in_list(group, s->groups[i]) || in_list(group, s->workloads[i]);
}

/* r2(STAT, V1+V2+.., BASE, PRED [, G1+G2+..]): see the top */
static double eval_r2(const gms_cexpr *e, const gms_cenv *env, char *msg, size_t msgn)
{
    const char *stat = e->args[0], *vars = e->args[1], *pred = e->args[3];
    const char *sel = e->nargs > 4 ? e->args[4] : "*";
    gms_cvec shape;
    double *base = stat_vec(env, stat, e->args[2], &shape, msg, msgn);
    if (!base) return NAN;
    double sy = 0, syy = 0, res = 0;
    size_t used = 0;
    char v[256];
    for (const char *p = vars; *p;) {
        size_t k = strcspn(p, "+");
        snprintf(v, sizeof v, "%.*s", (int)k, p);
        p += k + (p[k] == '+');
        gms_cvec s2;
        double *y = stat_vec(env, stat, v, &s2, msg, msgn);
        double *m = y ? stat_vec(env, pred, v, &s2, msg, msgn) : NULL;
        if (!m) { free(y); free(base); return NAN; }
        for (size_t i = 0; i < shape.n; i++) {
            if (strcmp(sel, "*") && !in_list(sel, shape.groups[i]) && !in_list(sel, shape.workloads[i])) continue;
            double r = base[i] != 0 ? y[i] / base[i] : NAN;
            if (isnan(r) || isnan(m[i])) {
                no_value(env, msg, msgn, isnan(m[i]) ? pred : stat, shape.workloads[i],
                         isnan(base[i]) || base[i] == 0 ? e->args[2] : v);
                free(y); free(m); free(base);
                return NAN;
            }
            sy += r; syy += r * r; res += (r - m[i]) * (r - m[i]);
            used++;
        }
        free(y);
        free(m);
    }
    free(base);
    if (!used) { emsg(msg, msgn, "r2(): no workload in '%s'", sel); return NAN; }
    double tot = syy - sy * sy / (double)used;
    if (!(tot > 1e-12 * (syy > 1 ? syy : 1))) { emsg(msg, msgn, "r2(): %s does not vary over the points", stat); return NAN; }
    return 1.0 - res / tot;
}

/* countany(A, B, TESTS [, GROUP]): see the top */
typedef struct any_state {
    const gms_cenv *env; const char *a, *b, *group;
    char *msg; size_t msgn;
    gms_cvec shape; int have_shape;
    unsigned char *pass;     /* per workload of shape: some test passed */
    int failed;
} any_state;

static int any_test(void *ud, const char *stat, test_op op, double x)
{
    any_state *st = ud;
    gms_cvec s1, s2;
    double *va = stat_vec(st->env, stat, st->a, &s1, st->msg, st->msgn);
    double *vb = va ? stat_vec(st->env, stat, st->b, &s2, st->msg, st->msgn) : NULL;
    if (!vb) { free(va); st->failed = 1; return -1; }
    if (!st->have_shape) {
        st->shape = s1;
        st->have_shape = 1;
        st->pass = gms_xcalloc(s1.n ? s1.n : 1, 1);
    }
    for (size_t i = 0; i < st->shape.n; i++) {
        if (!in_group(&st->shape, i, st->group)) continue;
        if (isnan(va[i]) || isnan(vb[i]) || vb[i] == 0) {
            if (!isnan(va[i]) && vb[i] == 0) emsg(st->msg, st->msgn, "%s is 0 for %s under %s (the ratio is undefined)", stat, st->shape.workloads[i], st->b);
            else no_value(st->env, st->msg, st->msgn, stat, st->shape.workloads[i], isnan(va[i]) ? st->a : st->b);
            free(va); free(vb);
            st->failed = 1;
            return -1;
        }
        double r = va[i] / vb[i];
        int ok = op == T_LT ? r < x : op == T_LE ? r <= x : op == T_GT ? r > x : r >= x;
        if (ok) st->pass[i] = 1;
    }
    free(va); free(vb);
    return 0;
}

static double eval_countany(const gms_cexpr *e, const gms_cenv *env, char *msg, size_t msgn)
{
    any_state st = { env, e->args[0], e->args[1], e->nargs > 3 ? e->args[3] : NULL, msg, msgn, { 0 }, 0, NULL, 0 };
    char perr_msg[300] = "";
    int rc = each_test(e->args[2], any_test, &st, perr_msg, sizeof perr_msg);
    if (rc || st.failed) {
        if (perr_msg[0]) emsg(msg, msgn, "%s", perr_msg);
        free(st.pass);
        return NAN;
    }
    size_t used = 0, n = 0;
    for (size_t i = 0; i < st.shape.n; i++) {
        if (!in_group(&st.shape, i, st.group)) continue;
        used++;
        n += st.pass[i];
    }
    free(st.pass);
    if (!used) { emsg(msg, msgn, "countany(): no workload in group '%s'", st.group ? st.group : "*"); return NAN; }
    return (double)n;
}

static double eval_call(const gms_cexpr *e, const gms_cenv *env, char *msg, size_t msgn)
{
    const char *f = e->name, *stat = e->args[0];
    if (!strcmp(f, "r2")) return eval_r2(e, env, msg, msgn);
    if (!strcmp(f, "countany")) return eval_countany(e, env, msg, msgn);
    const call_shape cs = shape_of_call(f);
    const int count = cs.count, nz = cs.nz, ratio = cs.ratio, mean = cs.mean;
    if (nz) f = "speedup";   /* speedup over the workloads left after the 0/0 ones */
    gms_cvec shape;
    double *a = stat_vec(env, stat, e->args[1], &shape, msg, msgn);
    if (!a) return NAN;
    double *b = NULL;
    if (ratio) {
        gms_cvec s2;
        b = stat_vec(env, stat, e->args[2], &s2, msg, msgn);
        if (!b) { free(a); return NAN; }
    }
    double out = NAN;
    if (!strcmp(f, "val")) {
        size_t i = 0;
        while (i < shape.n && strcmp(shape.workloads[i], e->args[2])) i++;
        /* the claims check found it in the study (repro plan/run), so the report's part left it out */
        if (i == shape.n) emsg(msg, msgn, "val(): workload '%s' is not among the points reported (left out by --only?)", e->args[2]);
        else if (isnan(a[i])) no_value(env, msg, msgn, stat, e->args[2], e->args[1]);
        else out = a[i];
        free(a);
        return out;
    }
    const size_t gi = cs.group_arg;
    const char *group = e->nargs > gi ? e->args[gi] : NULL;
    double thr = 0;
    if (count) parse_threshold(e->args[cs.thr_arg], &thr);   /* checked at parse time */
    double acc = 0, lo = INFINITY, hi = -INFINITY;
    size_t used = 0, above = 0;
    for (size_t i = 0; i < shape.n; i++) {
        if (!in_group(&shape, i, group)) continue;
        double x = a[i];
        if (ratio && nz && a[i] == 0 && b[i] == 0) continue;
        if (mean && b[i] == 0) continue;   /* nothing to normalise to */
        if (ratio) x = (b[i] != 0 && !isnan(b[i])) ? a[i] / b[i] : NAN;
        if (isnan(x)) {
            if (ratio && !isnan(a[i]) && b[i] == 0)
                emsg(msg, msgn, "%s is 0 for %s under %s (the ratio is undefined%s)", stat, shape.workloads[i], e->args[2],
                     nz || a[i] != 0 ? "" : "; speedup_nz leaves out workloads with 0 under both");
            else
                no_value(env, msg, msgn, stat, shape.workloads[i], ratio && !isnan(a[i]) ? e->args[2] : e->args[1]);
            free(a); free(b);
            return NAN;
        }
        used++;
        above += x > thr;
        if (x < lo) lo = x;
        if (x > hi) hi = x;
        if (!strcmp(f, "gm") || !strcmp(f, "speedup")) {
            if (!(x > 0)) { emsg(msg, msgn, "%s(): %s of %s is %g, not positive", f, stat, shape.workloads[i], x); free(a); free(b); return NAN; }
            acc += log(x);
        } else acc += x;
    }
    free(a); free(b);
    if (!used && mean) {
        emsg(msg, msgn, "meanratio(): no workload of group '%s' has a non-zero %s under %s", group ? group : "*", stat,
             e->args[2]);
        return NAN;
    }
    if (!used) {
        emsg(msg, msgn, nz ? "speedup_nz(): no workload of group '%s' has a non-zero %s" : "%s(): no workload in group '%s'",
             nz ? (group ? group : "*") : f, nz ? stat : (group ? group : "*"));
        return NAN;
    }
    if (count) return (double)above;
    if (!strcmp(f, "gm") || !strcmp(f, "speedup")) return exp(acc / (double)used);
    if (!strcmp(f, "am") || mean) return acc / (double)used;
    if (!strcmp(f, "sum")) return acc;
    if (!strcmp(f, "min") || !strcmp(f, "minratio")) return lo;
    return hi;
}

double gms_cexpr_eval(const gms_cexpr *e, const gms_cenv *env, char *msg, size_t msgn)
{
    switch (e->kind) {
    case CE_NUM: return e->num;
    case CE_NEG: return -gms_cexpr_eval(e->l, env, msg, msgn);
    case CE_NAME:
        for (size_t i = 0; i < env->nnames; i++)
            if (!strcmp(env->names[i], e->name)) {
                if (isnan(env->vals[i])) emsg(msg, msgn, "metric %s has no value", e->name);
                return env->vals[i];
            }
        emsg(msg, msgn, "unknown metric '%s' (metrics are defined before they are used)", e->name);
        return NAN;
    case CE_CALL: return eval_call(e, env, msg, msgn);
    case CE_BIN: {
        double l = gms_cexpr_eval(e->l, env, msg, msgn), r = gms_cexpr_eval(e->r, env, msg, msgn);
        switch (e->op) {
        case '+': return l + r;
        case '-': return l - r;
        case '*': return l * r;
        default:
            if (r == 0) { emsg(msg, msgn, "division by zero"); return NAN; }
            return l / r;
        }
    }
    }
    return NAN;
}

int gms_cexpr_check_names(const gms_cexpr *e, const char *const *names, size_t n, const char **bad)
{
    if (!e) return 0;
    if (e->kind == CE_NAME) {
        for (size_t i = 0; i < n; i++) if (!strcmp(names[i], e->name)) return 0;
        *bad = e->name;
        return -1;
    }
    return gms_cexpr_check_names(e->l, names, n, bad) || gms_cexpr_check_names(e->r, names, n, bad) ? -1 : 0;
}

/* each name a list argument holds ("a|b", "a+b"), to cb; the first nonzero return stops */
static int each_name(const char *list, const char *seps, const char *kind, gms_cexpr_name_fn cb, void *ud)
{
    char one[256];
    for (const char *p = list; *p;) {
        size_t k = strcspn(p, seps);
        snprintf(one, sizeof one, "%.*s", (int)k, p);
        p += k + (p[k] != 0);
        int r = one[0] ? cb(ud, kind, one) : 0;
        if (r) return r;
    }
    return 0;
}

int gms_cexpr_names(const gms_cexpr *e, gms_cexpr_name_fn cb, void *ud)
{
    if (!e) return 0;
    if (e->kind == CE_BIN) { int r = gms_cexpr_names(e->l, cb, ud); return r ? r : gms_cexpr_names(e->r, cb, ud); }
    if (e->kind == CE_NEG) return gms_cexpr_names(e->l, cb, ud);
    if (e->kind != CE_CALL) return 0;
    const char *f = e->name;
    int r = 0;
    if (!strcmp(f, "r2")) {
        r = each_name(e->args[1], "+", "variant", cb, ud);
        if (!r) r = each_name(e->args[2], "|", "variant", cb, ud);
        if (!r && e->nargs > 4 && strcmp(e->args[4], "*")) r = each_name(e->args[4], "+", "group or workload", cb, ud);
        return r;
    }
    if (!strcmp(f, "val")) {
        r = each_name(e->args[1], "|", "variant", cb, ud);
        return r ? r : cb(ud, "workload", e->args[2]);
    }
    const call_shape cs = shape_of_call(f);
    if (cs.any) {
        r = each_name(e->args[0], "|", "variant", cb, ud);
        if (!r) r = each_name(e->args[1], "|", "variant", cb, ud);
        if (!r && e->nargs > 3 && strcmp(e->args[3], "*")) r = each_name(e->args[3], "+", "group or workload", cb, ud);
        return r;
    }
    r = each_name(e->args[1], "|", "variant", cb, ud);
    if (!r && cs.ratio) r = each_name(e->args[2], "|", "variant", cb, ud);
    if (!r && e->nargs > cs.group_arg && strcmp(e->args[cs.group_arg], "*"))
        r = each_name(e->args[cs.group_arg], "+", "group or workload", cb, ud);
    return r;
}
