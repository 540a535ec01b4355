/* Running one point as a `gpumemsim run` child process and recording its result (see
 * point.h for the contract). */
#include "harness/point.h"
#include "harness/util.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ERR_TAIL 4000   /* bytes of the run's stderr kept as its error text */

static char *xdup(const char *s) { return gms_xstrdup(s); }

static char *kv_arg(const gms_kv *kv)
{
    gms_sbuf b = {0};
    const char *k = kv->key;
    while (*k == '-') k++;
    gms_sbuf_printf(&b, "%s=%s", k, kv->val);
    return b.s;
}

char **gms_point_argv(const gms_sweep_point *pt, const char *bin, const char *stats_json)
{
    const gms_sweep_variant *v = pt->variant;
    const gms_sweep_workload *w = pt->workload;
    size_t n = 0, cap = 16 + 2 * (v->sets.n + w->params.n);
    char **a = gms_xcalloc(cap, sizeof *a);
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)pt->seed);
    a[n++] = xdup(bin);
    a[n++] = xdup("run");
    a[n++] = xdup("--config");
    a[n++] = xdup(v->config);
    for (size_t i = 0; i < v->sets.n; i++) {
        if (gms_sweep_is_param_key(v->sets.v[i].key)) continue;
        a[n++] = xdup("--set"); a[n++] = kv_arg(&v->sets.v[i]);
    }
    a[n++] = xdup(w->trace ? "--trace" : "--workload");
    a[n++] = xdup(w->trace ? w->trace : w->name);
    for (size_t i = 0; i < w->params.n; i++) { a[n++] = xdup("--set"); a[n++] = kv_arg(&w->params.v[i]); }
    /* a variant's workload parameters (param.NAME=V) come last: they override the workload's */
    for (size_t i = 0; i < v->sets.n; i++) {
        if (!gms_sweep_is_param_key(v->sets.v[i].key)) continue;
        gms_kv kv = { v->sets.v[i].key + 6, v->sets.v[i].val };
        a[n++] = xdup("--set"); a[n++] = kv_arg(&kv);
    }
    a[n++] = xdup("--seed");
    a[n++] = xdup(seed);
    a[n++] = xdup("--stats-json");
    a[n++] = xdup(stats_json);
    a[n++] = xdup("--quiet");
    a[n] = NULL;
    return a;
}

void gms_argv_free(char **argv)
{
    if (!argv) return;
    for (char **p = argv; *p; p++) free(*p);
    free(argv);
}

static void proc_free(gms_point_proc *pp)
{
    free(pp->stats_tmp); free(pp->err_tmp); free(pp->marker); free(pp->command);
    pp->stats_tmp = pp->err_tmp = pp->marker = pp->command = NULL;
}

int gms_point_start(const gms_sweep_spec *s, const gms_sweep_point *pt, const char *bin,
                    gms_point_proc *pp, gms_error *err)
{
    memset(pp, 0, sizeof *pp);
    pp->pt = pt;
    char host[256];
    gms_hostname(host, sizeof host);
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    snprintf(pp->attempt, sizeof pp->attempt, "%s:%ld:%lld%09ld", host, (long)getpid(),
             (long long)ts.tv_sec, (long)ts.tv_nsec);
    char *tmpdir = gms_results_tmpdir(s);
    gms_sbuf b = {0};
    gms_sbuf_printf(&b, "%s/%s.stats.json", tmpdir, pt->id);
    pp->stats_tmp = b.s;
    b = (gms_sbuf){0};
    gms_sbuf_printf(&b, "%s/%s.stderr", tmpdir, pt->id);
    pp->err_tmp = b.s;
    pp->marker = gms_point_marker_path(s, pt->id);
    unlink(pp->stats_tmp);
    char **argv = gms_point_argv(pt, bin, pp->stats_tmp);
    b = (gms_sbuf){0};
    for (char **a = argv; *a; a++) { if (a != argv) gms_sbuf_add(&b, " "); gms_shell_quote(&b, *a); }
    pp->command = b.s;
    int efd = open(pp->err_tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (efd < 0) {
        gms_err(err, "%s: cannot create: %s", pp->err_tmp, strerror(errno));
        gms_argv_free(argv);
        proc_free(pp);
        free(tmpdir);
        return -1;
    }
    /* a trace point reads its kernel files through the decoded-trace cache kept with the
     * results (docs/sweeps.md), unless the user chose a cache, or none, with GMS_TRACE_CACHE */
    char *tcache = NULL;
    if (pt->workload->trace && !getenv("GMS_TRACE_CACHE")) {
        char *res = gms_path_abs(s->results);
        tcache = gms_path_join(res, "trace-cache");
        free(res);
    }
    /* a multiprogrammed point (workload cke) looks its isolated and profile runs up in the memo
     * kept with the results (docs/sweeps.md): every scheme of one pair runs the same ones */
    char *memo = NULL;
    if (!strcmp(pt->workload->name, "cke") && !getenv("GMS_CKE_MEMO")) {
        char *res = gms_path_abs(s->results);
        memo = gms_path_join(res, "cke-memo");
        free(res);
    }
    pid_t parent = getpid();
    pp->t0 = gms_now();
    pid_t pid = fork();
    if (pid < 0) {
        gms_err(err, "fork failed: %s", strerror(errno));
        free(tcache);
        free(memo);
        close(efd);
        gms_argv_free(argv);
        proc_free(pp);
        free(tmpdir);
        return -1;
    }
    if (pid == 0) {
        /* child: die with the runner, so a killed runner leaves no orphan writing files */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(127);
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        int nul = open("/dev/null", O_RDWR);
        if (nul >= 0) { dup2(nul, 0); dup2(nul, 1); }
        dup2(efd, 2);
        if (tcache) setenv("GMS_TRACE_CACHE", tcache, 1);
        if (memo) setenv("GMS_CKE_MEMO", memo, 1);
        execv(argv[0], argv);
        dprintf(2, "gpumemsim sweep: cannot execute %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    free(tcache);
    free(memo);
    close(efd);
    gms_argv_free(argv);
    pp->pid = pid;
    /* the marker: which host and process run this point now */
    b = (gms_sbuf){0};
    const char *job = getenv("SLURM_JOB_ID");
    gms_sbuf_printf(&b, "%s %ld %s\n", host, (long)pid, job ? job : "-");
    gms_error e = {0};
    gms_write_atomic(tmpdir, pp->marker, b.s, b.n, &e);  /* best effort: only for `status` */
    free(tmpdir);
    gms_sbuf_free(&b);
    return 0;
}

/* last lines of the run's stderr, trimmed, for the error column */
static char *err_tail(const char *path)
{
    size_t len = 0;
    char *t = gms_read_file(path, &len, NULL);
    if (!t) return xdup("");
    size_t start = len > ERR_TAIL ? len - ERR_TAIL : 0;
    while (len > start && (t[len - 1] == '\n' || t[len - 1] == ' ' || t[len - 1] == '\r')) len--;
    if (start) { while (start < len && t[start] != '\n') start++; }
    while (start < len && (t[start] == '\n' || t[start] == ' ')) start++;
    char *r = gms_xmalloc(len - start + 1);
    memcpy(r, t + start, len - start);
    r[len - start] = 0;
    free(t);
    return r;
}

/* 'kernel_stats totals': every member but the per-kernel "stats" objects (kernels[i].stats,
 * depth 2); the kernels' names, uids and streams stay */
static int keep_totals(const char *key, int depth) { return !(depth == 2 && !strcmp(key, "stats")); }

int gms_point_finish(const gms_sweep_spec *s, gms_point_proc *pp, int wstatus, int *ok, gms_error *err)
{
    const gms_sweep_point *pt = pp->pt;
    double t1 = gms_now();
    int code = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1;
    int sig = WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : 0;
    size_t slen = 0;
    char *stats = gms_read_file(pp->stats_tmp, &slen, NULL);
    char *tail = err_tail(pp->err_tmp);
    gms_sbuf why = {0};
    gms_json *sj = NULL;
    if (pp->timed_out) gms_sbuf_printf(&why, "timed out after %g s", s->timeout);
    else if (sig) gms_sbuf_printf(&why, "killed by signal %d (%s)", sig, strsignal(sig));
    else if (code) gms_sbuf_printf(&why, "exit status %d", code);
    if (stats) {
        gms_error je = {0};
        sj = gms_json_parse(stats, slen, "stats JSON", &je);
        if (!sj && !why.n) gms_sbuf_printf(&why, "the run exited 0 but its stats are unreadable: %s", je.msg);
        if (sj && (!gms_json_get(sj, "total") || gms_json_get(sj, "total")->type != GMS_JSON_OBJ)) {
            if (!why.n) gms_sbuf_add(&why, "the run exited 0 but its stats JSON has no \"total\" object");
            gms_json_free(sj);
            sj = NULL;
        }
    } else if (!why.n) {
        gms_sbuf_add(&why, "the run exited 0 but wrote no stats JSON");
    }
    if (why.n && *tail) { gms_sbuf_add(&why, ": "); gms_sbuf_add(&why, tail); }
    *ok = !why.n;

    char host[256], t0s[32], t1s[32];
    gms_hostname(host, sizeof host);
    gms_iso_time(pp->t0, t0s, sizeof t0s);
    gms_iso_time(t1, t1s, sizeof t1s);
    gms_sbuf o = {0};
    gms_sbuf_add(&o, "{\n  \"format\": ");          gms_json_quote(&o, GMS_POINT_FORMAT);
    gms_sbuf_add(&o, ",\n  \"point_id\": ");        gms_json_quote(&o, pt->id);
    gms_sbuf_add(&o, ",\n  \"attempt\": ");         gms_json_quote(&o, pp->attempt);
    gms_sbuf_add(&o, ",\n  \"status\": ");          gms_json_quote(&o, *ok ? "ok" : "failed");
    gms_sbuf_add(&o, ",\n  \"variant\": ");         gms_json_quote(&o, pt->variant->name);
    gms_sbuf_add(&o, ",\n  \"workload\": ");        gms_json_quote(&o, pt->workload->label);
    gms_sbuf_add(&o, ",\n  \"workload_name\": ");   gms_json_quote(&o, pt->workload->name);
    gms_sbuf_printf(&o, ",\n  \"seed\": %llu", (unsigned long long)pt->seed);
    gms_sbuf_add(&o, ",\n  \"config\": ");          gms_json_quote(&o, pt->variant->config);
    gms_sbuf_add(&o, ",\n  \"config_file_digest\": "); gms_json_quote(&o, pt->variant->digest);
    gms_sbuf_add(&o, ",\n  \"config_digest\": ");   gms_json_quote(&o, gms_json_get_str(sj, "config_digest", ""));
    gms_sbuf_add(&o, ",\n  \"version\": ");         gms_json_quote(&o, gms_json_get_str(sj, "gpumemsim_version", ""));
    gms_sbuf_printf(&o, ",\n  \"exit_code\": %d,\n  \"signal\": %d", code, sig);
    gms_sbuf_add(&o, ",\n  \"error\": ");           gms_json_quote(&o, gms_sbuf_str(&why));
    gms_sbuf_printf(&o, ",\n  \"wall_s\": %.3f", t1 - pp->t0);
    gms_sbuf_add(&o, ",\n  \"host\": ");            gms_json_quote(&o, host);
    gms_sbuf_add(&o, ",\n  \"started\": ");         gms_json_quote(&o, t0s);
    gms_sbuf_add(&o, ",\n  \"finished\": ");        gms_json_quote(&o, t1s);
    gms_sbuf_add(&o, ",\n  \"command\": ");         gms_json_quote(&o, pp->command);
    gms_sbuf_add(&o, ",\n  \"stats\": ");
    if (sj && s->kernel_totals_only) {
        gms_json_write(&o, sj, keep_totals);
    } else if (sj) {
        size_t a = 0, e = slen;
        while (a < e && (stats[a] == ' ' || stats[a] == '\n' || stats[a] == '\t' || stats[a] == '\r')) a++;
        while (e > a && (stats[e - 1] == ' ' || stats[e - 1] == '\n' || stats[e - 1] == '\t' || stats[e - 1] == '\r')) e--;
        gms_sbuf_addn(&o, stats + a, e - a);
    } else {
        gms_sbuf_add(&o, "null");
    }
    gms_sbuf_add(&o, "\n}\n");
    gms_json_free(sj);
    free(stats);
    free(tail);
    gms_sbuf_free(&why);

    char *dst = gms_point_result_path(s, pt->id);
    char *tmpdir = gms_results_tmpdir(s);
    int rc = gms_write_atomic(tmpdir, dst, o.s, o.n, err);
    free(tmpdir);
    free(dst);
    gms_sbuf_free(&o);
    unlink(pp->stats_tmp);
    unlink(pp->err_tmp);
    unlink(pp->marker);
    proc_free(pp);
    return rc;
}

void gms_point_abandon(gms_point_proc *pp)
{
    if (pp->stats_tmp) unlink(pp->stats_tmp);
    if (pp->err_tmp) unlink(pp->err_tmp);
    if (pp->marker) unlink(pp->marker);
    proc_free(pp);
}

int gms_point_run_blocking(const gms_sweep_spec *s, const gms_sweep_point *pt, const char *bin,
                           int *ok, gms_error *err)
{
    gms_point_proc pp;
    if (gms_point_start(s, pt, bin, &pp, err)) return -1;
    int st = 0;
    for (;;) {
        pid_t r = waitpid(pp.pid, &st, WNOHANG);
        if (r == pp.pid) break;
        if (r < 0 && errno != EINTR) { gms_point_abandon(&pp); return gms_err(err, "waitpid: %s", strerror(errno)); }
        if (s->timeout > 0 && !pp.timed_out && gms_now() - pp.t0 > s->timeout) {
            pp.timed_out = 1;
            kill(pp.pid, SIGKILL);
        }
        struct timespec d = { 0, 20 * 1000 * 1000 };
        nanosleep(&d, NULL);
    }
    return gms_point_finish(s, &pp, st, ok, err);
}
