#include "cli/cli_config.h"
#include "workloads/workload.h"
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int need(int i, int argc, const char *opt)
{
    if (i + 1 >= argc) { fprintf(stderr, "gpumemsim: %s needs a value\n", opt); return 0; }
    return 1;
}

/* sets[i] as the user wrote it: "--set name=value" or "-name value" */
static void as_written(const gms_cli_opts *o, size_t i, char *out, size_t n)
{
    const char *kv = o->sets[i], *eq = strchr(kv, '=');
    if (o->dash[i]) snprintf(out, n, "-%.*s %s", (int)(eq - kv), kv, eq + 1);
    else snprintf(out, n, "--set %s", kv);
}

/* several applications side by side: the workload cke with apps=A+B[+C] (docs/cke.md); a trace
 * is application traceK (cke_trace_app.c) with its path and its address offset, (K + 1) x 2^44,
 * so that two traces recorded at the same CUDA addresses do not share lines.
 * The user's own settings beside them: apps= (or pair=) naming other applications than the
 * --workload / --trace options is refused (which ones would run is not clear; the same list is
 * accepted); a user's args= is merged: its groups of built-in applications as they are, and in
 * a group traceK of a --trace its parameters replace the command line's (offset= moves the
 * trace elsewhere), except path=, which is the --trace's (another path is refused). */
static int multiprogram(gms_cli_opts *o, const char *v0, int t0, const char *v1, int t1, const char *v2, int t2)
{
    const char *v[3] = { v0, v1, v2 };
    int tr[3] = { t0, t1, t2 }, n = v2 ? 3 : 2;
    if (o->nsets + 2 > GMS_CLI_MAX) { fprintf(stderr, "gpumemsim: too many options\n"); return 1; }
    char *apps = o->setbuf[o->nsets], *args = o->setbuf[o->nsets + 1];
    size_t la = (size_t)snprintf(apps, sizeof o->setbuf[0], "apps="), lg = 0;
    for (int k = 0; k < n; k++) {
        if (tr[k]) {
            if (strpbrk(v[k], ",;:+= ")) {
                fprintf(stderr, "gpumemsim: --trace %s: a trace beside another application needs a path without , ; : + = or spaces\n", v[k]);
                return 1;
            }
            la += (size_t)snprintf(apps + la, sizeof o->setbuf[0] - la, "%strace%d", k ? "+" : "", k);
            lg += (size_t)snprintf(args + lg, sizeof o->setbuf[0] - lg, "%s%strace%d:path=%s,offset=0x%llx", lg ? ";" : "",
                                   lg ? "" : "args=", k, v[k], (unsigned long long)((uint64_t)(k + 1) << 44));
        } else {
            la += (size_t)snprintf(apps + la, sizeof o->setbuf[0] - la, "%s%s", k ? "+" : "", v[k]);
        }
        if (la >= sizeof o->setbuf[0] || lg >= sizeof o->setbuf[0]) {
            fprintf(stderr, "gpumemsim: the applications' names and paths are too long (%zu characters at most)\n",
                    sizeof o->setbuf[0] - 1);
            return 1;
        }
    }
    char said[600];
    for (size_t i = 0; i < o->nsets; i++)
        if ((!strncmp(o->sets[i], "apps=", 5) || !strncmp(o->sets[i], "pair=", 5)) && strcmp(o->sets[i] + 5, apps + 5)) {
            as_written(o, i, said, sizeof said);
            fprintf(stderr, "gpumemsim: %s: the applications are the --workload and --trace options given (%s); "
                    "name them one way only\n", said, apps);
            return 1;
        }
    o->sets[o->nsets++] = apps;
    if (lg) {
        /* the user's own args=APP:k=v,... go after the traces' (the last value of a parameter
         * counts): a built-in application's parameters, or a trace's own offset= */
        size_t ua = o->nsets;
        for (size_t i = 0; i + 1 < o->nsets; i++)
            if (!strncmp(o->sets[i], "args=", 5)) ua = i;
        if (ua < o->nsets) {
            char mine[512];
            snprintf(mine, sizeof mine, "%s", args);
            if ((size_t)snprintf(args, sizeof o->setbuf[0], "%s;%s", mine, o->sets[ua] + 5) >= sizeof o->setbuf[0]) {
                fprintf(stderr, "gpumemsim: args= and the traces' paths are too long together (%zu characters at most)\n",
                        sizeof o->setbuf[0] - 1);
                return 1;
            }
            /* traceK:...,path=P,... of a --trace: P must be that trace */
            char ub[512], *s1 = NULL, *s2 = NULL;
            snprintf(ub, sizeof ub, "%s", o->sets[ua] + 5);   /* fits: it fit beside the traces' */
            for (char *g = strtok_r(ub, ";", &s1); g; g = strtok_r(NULL, ";", &s1)) {
                int k = !strncmp(g, "trace", 5) && g[5] >= '0' && g[5] <= '2' && g[6] == ':' ? g[5] - '0' : -1;
                if (k < 0 || k >= n || !tr[k]) continue;
                for (char *kv = strtok_r(g + 7, ",", &s2); kv; kv = strtok_r(NULL, ",", &s2)) {
                    if (strncmp(kv, "path=", 5) || !strcmp(kv + 5, v[k])) continue;
                    as_written(o, ua, said, sizeof said);
                    fprintf(stderr, "gpumemsim: %s: trace%d is --trace %s; its path is given there only\n", said, k, v[k]);
                    return 1;
                }
            }
            o->sets[ua] = args;
            o->dash[ua] = 0;
        } else {
            o->sets[o->nsets++] = args;
        }
    }
    o->workload = "cke";
    return 0;
}

int gms_cli_parse(int argc, char **argv, gms_cli_opts *o, const char *cmd)
{
    memset(o, 0, sizeof *o);
    struct { const char *v; int trace; } apps[3];   /* --workload / --trace, in order */
    int napps = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
#define VAL(dst) do { if (!need(i, argc, a)) return 2; dst = argv[++i]; } while (0)
        if (!strcmp(a, "--config") || !strcmp(a, "-config") || !strcmp(a, "-c")) {
            if (o->nconfigs == GMS_CLI_MAX) { fprintf(stderr, "gpumemsim: too many config files\n"); return 2; }
            VAL(o->configs[o->nconfigs]); o->nconfigs++;
        } else if (!strcmp(a, "--set")) {
            if (!need(i, argc, a)) return 2;
            const char *kv = argv[++i];
            if (!strchr(kv, '=') || kv[0] == '=') { fprintf(stderr, "gpumemsim: --set '%s': expected name=value\n", kv); return 2; }
            if (o->nsets == GMS_CLI_MAX) { fprintf(stderr, "gpumemsim: too many --set\n"); return 2; }
            o->sets[o->nsets++] = kv;
        } else if (!strcmp(a, "--workload") || !strcmp(a, "-w") || !strcmp(a, "--trace") || !strcmp(a, "-trace")) {
            /* applications in order; two or three share the GPU (the workload cke, below) */
            if (napps == 3) { fprintf(stderr, "gpumemsim: at most 3 applications share the GPU (%s %s)\n", a, i + 1 < argc ? argv[i + 1] : ""); return 2; }
            VAL(apps[napps].v);
            apps[napps++].trace = strstr(a, "trace") != NULL;
        }
        else if (!strcmp(a, "--stats-json")) VAL(o->stats_json);
        else if (!strcmp(a, "--stats-csv")) VAL(o->stats_csv);
        else if (!strcmp(a, "--stats-text")) VAL(o->stats_text);
        else if (!strcmp(a, "--page-log")) VAL(o->page_log);
        else if (!strcmp(a, "--seed")) {
            const char *v;
            VAL(v);
            char *end;
            /* as -gms_seed reads it: decimal or 0x hex, no sign, no wrap past 2^64 - 1 */
            errno = 0;
            o->seed = strtoull(v, &end, v[0] == '0' && (v[1] == 'x' || v[1] == 'X') ? 16 : 10);
            if (*end || end == v || errno || !isxdigit((unsigned char)v[0])) {
                fprintf(stderr, "gpumemsim: --seed '%s' is not an unsigned 64-bit integer\n", v);
                return 2;
            }
            o->have_seed = 1;
        } else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) o->quiet = 1;
        else if (!strcmp(a, "--ignore-unknown")) o->ignore_unknown = 1;
        else if (!strcmp(a, "--dump")) o->dump = 1;
        else if (!strcmp(a, "--check")) o->check = 1;
        else if (!strcmp(a, "--no-timing")) o->no_timing = 1;
        else if (!strcmp(a, "--help") || !strcmp(a, "-h")) o->help = 1;
        else if (a[0] == '-' && a[1] != '-' && a[1]) {
            /* GPGPU-Sim style override on the command line: -name value */
            if (!need(i, argc, a)) return 2;
            if (o->nsets == GMS_CLI_MAX) { fprintf(stderr, "gpumemsim: too many options\n"); return 2; }
            /* stored as name=value in a fixed buffer: what does not fit is refused, never cut */
            size_t len = (size_t)snprintf(o->setbuf[o->nsets], sizeof o->setbuf[0], "%s=%s", a + 1, argv[++i]);
            if (len >= sizeof o->setbuf[0]) {
                fprintf(stderr, "gpumemsim: %s: its name and value are %zu characters, more than the %zu a -NAME VALUE "
                        "option holds (--set NAME=VALUE takes any length)\n", a, len, sizeof o->setbuf[0] - 1);
                return 2;
            }
            o->sets[o->nsets] = o->setbuf[o->nsets];
            o->dash[o->nsets] = 1;
            o->nsets++;
        } else {
            fprintf(stderr, "gpumemsim %s: unknown argument '%s' (see gpumemsim %s --help)\n", cmd, a, cmd);
            return 2;
        }
#undef VAL
    }
    if (napps == 1) {
        if (apps[0].trace) o->trace = apps[0].v; else o->workload = apps[0].v;
    } else if (napps > 1 && multiprogram(o, apps[0].v, apps[0].trace, apps[1].v, apps[1].trace,
                                         napps > 2 ? apps[2].v : NULL, napps > 2 && apps[2].trace))
        return 2;
    return 0;
}

static int is_wl_param(const gms_workload_ops *ops, const char *name, size_t len)
{
    static const char *const common[] = { "uvm", "prefetch", "seed", "chunk" };
    for (size_t i = 0; i < sizeof common / sizeof common[0]; i++)
        if (strlen(common[i]) == len && !strncmp(common[i], name, len)) return 1;
    if (!ops) return 0;
    for (const gms_wl_param *p = ops->params; p && p->name; p++)
        if (strlen(p->name) == len && !strncmp(p->name, name, len)) return 1;
    return 0;
}

gms_params *gms_cli_params(gms_cli_opts *o)
{
    gms_error err = {0};
    gms_params *p = gms_params_new();
    gms_params_set_ignore_unknown(p, o->ignore_unknown);
    for (size_t i = 0; i < o->nconfigs; i++)
        if (gms_params_load_file(p, o->configs[i], &err)) goto fail;
    const gms_workload_ops *ops = (!o->trace) ? gms_workload_find(o->workload ? o->workload : "stream") : NULL;
    o->nwl = 0;
    for (size_t i = 0; i < o->nsets; i++) {
        const char *kv = o->sets[i], *eq = strchr(kv, '=');
        size_t len = (size_t)(eq - kv);
        if (!o->trace && is_wl_param(ops, kv, len)) {
            o->wl_params[o->nwl++] = kv;
            continue;
        }
        char name[256];
        if (len >= sizeof name) len = sizeof name - 1;
        memcpy(name, kv, len);
        name[len] = 0;
        if (ops && !o->ignore_unknown && !gms_params_accepts_option(name)) {
            /* neither a workload parameter nor an option: say both, with the workload's names */
            char known[1024] = "uvm prefetch seed chunk";
            for (const gms_wl_param *q = ops->params; q && q->name; q++) {
                strncat(known, " ", sizeof known - strlen(known) - 1);
                strncat(known, q->name, sizeof known - strlen(known) - 1);
            }
            gms_params_set(p, name, eq + 1, &err);   /* its message names the nearest option */
            fprintf(stderr, "gpumemsim: %s%s: not a parameter of workload %s (its parameters: %s), and %s\n",
                    o->dash[i] ? "-" : "--set ", name, ops->name, known, strstr(err.msg, "unknown option") ? strstr(err.msg, "unknown option") : err.msg);
            gms_params_free(p);
            return NULL;
        }
        if (gms_params_set(p, name, eq + 1, &err)) {
            /* its message says "--set -NAME"; given as -NAME VALUE, it is -NAME, as written */
            if (o->dash[i] && !strncmp(err.msg, "--set ", 6)) memmove(err.msg, err.msg + 6, strlen(err.msg + 6) + 1);
            goto fail;
        }
    }
    o->wl_params[o->nwl] = NULL;
    if (gms_params_finalize(p, &err)) goto fail;
    return p;
fail:
    fprintf(stderr, "gpumemsim: %s\n", err.msg);
    gms_params_free(p);
    return NULL;
}
