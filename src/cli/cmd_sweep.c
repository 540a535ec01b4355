/* `gpumemsim sweep`: plan, run (locally or as a Slurm job array), collect and show the state
 * of a design sweep described by a .sweep file (docs/sweeps.md). The work is in
 * src/harness/; this file parses arguments. */
#include "cli/cli.h"
#include "harness/point.h"
#include "harness/runner.h"
#include "harness/spec.h"
#include "harness/store.h"
#include "harness/util.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void usage(FILE *out)
{
    fprintf(out,
        "usage: gpumemsim sweep <command> SPEC [options]\n\n"
        "  plan    SPEC [-v]               list the points (index, id, variant, workload, seed) and how many\n"
        "  run     SPEC [-j N]             run the points not done yet, N at a time, with progress; Ctrl-C stops\n"
        "                                  cleanly and running again resumes\n"
        "  run     SPEC --slurm [--wait]   submit the points not done as a Slurm job array (then `collect`);\n"
        "                                  --wait polls squeue until the array is done, then collects\n"
        "  collect SPEC                    ingest finished per-point results into the store (idempotent)\n"
        "  status  SPEC [-v]               done / running / failed / pending (-v: every point not done)\n"
        "  export  SPEC|DB [--runs] [-o FILE]  CSV of every stat of every point's best run\n"
        "                                  (--runs: one row per attempt, with its status and error)\n\n"
        "run options:\n"
        "  -j, --jobs N        local processes at a time (default 1)\n"
        "  --skip-failed       do not retry points whose last attempt failed\n"
        "  --force             run points that are already done again\n"
        "  --bin PATH          gpumemsim binary that runs the points (default: this one)\n"
        "  --no-check          do not check options and workloads against this binary's simulator\n"
        "  --only KEY=GLOBS    (plan, run, status, collect) only the points whose variant, workload\n"
        "                      or group (KEY) matches one of the comma-separated globs; repeat for\n"
        "                      more keys; point ids do not change (docs/sweeps.md)\n"
        "Slurm options (defaults from the spec's `slurm` line):\n"
        "  --partition P  --time T  --mem M  --account A\n"
        "  --chunk N           points per array task (default 1)\n"
        "  --parallel N        at most N array tasks at once (%%N)\n"
        "  --poll SECONDS      squeue poll interval with --wait (default 1)\n"
        "  --dry-run           write the sbatch script but do not submit it\n");
}

typedef struct args {
    const char *spec;
    int verbose, jobs, slurm, wait, skip_failed, force, no_check, dry_run, chunk, parallel, runs;
    const char *bin, *partition, *time, *mem, *account, *list, *out, *results;
    long index;
    double poll;
    const char *only[GMS_SWEEP_MAX_ONLY];   /* --only KEY=GLOBS restrictions (gms_sweep_spec_add_only) */
    int nonly;
} args;

/* "--name value" or "--name=value" */
static int optval(int argc, char **argv, int *i, const char *name, const char **val)
{
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n)) return 0;
    if (argv[*i][n] == '=') { *val = argv[*i] + n + 1; return 1; }
    if (argv[*i][n]) return 0;
    if (*i + 1 >= argc) { fprintf(stderr, "gpumemsim sweep: %s needs a value\n", name); *val = NULL; return 1; }
    *val = argv[++*i];
    return 1;
}

static int to_int(const char *name, const char *v, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long x = v ? strtol(v, &end, 10) : 0;
    if (!v || errno || *end || end == v || x < lo || x > hi) {
        fprintf(stderr, "gpumemsim sweep: %s: '%s' is not an integer in [%ld, %ld]\n", name, v ? v : "", lo, hi);
        return -1;
    }
    *out = x;
    return 0;
}

static int parse_args(int argc, char **argv, args *a)
{
    memset(a, 0, sizeof *a);
    a->jobs = 1;
    a->index = -1;
    for (int i = 2; i < argc; i++) {
        const char *v = NULL, *s = argv[i];
        long x;
        if (!strcmp(s, "-v") || !strcmp(s, "--verbose")) a->verbose = 1;
        else if (!strcmp(s, "--slurm")) a->slurm = 1;
        else if (!strcmp(s, "--wait")) a->wait = 1;
        else if (!strcmp(s, "--skip-failed")) a->skip_failed = 1;
        else if (!strcmp(s, "--force")) a->force = 1;
        else if (!strcmp(s, "--no-check")) a->no_check = 1;
        else if (!strcmp(s, "--dry-run")) a->dry_run = 1;
        else if (!strcmp(s, "--runs")) a->runs = 1;
        else if (!strcmp(s, "-h") || !strcmp(s, "--help")) { usage(stdout); return 1; }
        else if (!strncmp(s, "-j", 2) && s[2] && s[2] != '-') { if (to_int("-j", s + 2, 1, 4096, &x)) return -1; a->jobs = (int)x; }
        else if (optval(argc, argv, &i, "-j", &v) || optval(argc, argv, &i, "--jobs", &v)) { if (to_int("--jobs", v, 1, 4096, &x)) return -1; a->jobs = (int)x; }
        else if (optval(argc, argv, &i, "--chunk", &v)) { if (to_int("--chunk", v, 1, 1000000, &x)) return -1; a->chunk = (int)x; }
        else if (optval(argc, argv, &i, "--parallel", &v)) { if (to_int("--parallel", v, 0, 1000000, &x)) return -1; a->parallel = (int)x; }
        else if (optval(argc, argv, &i, "--index", &v)) { if (to_int("--index", v, 0, 100000000, &x)) return -1; a->index = x; }
        else if (optval(argc, argv, &i, "--poll", &v)) {
            char *end;
            a->poll = v ? strtod(v, &end) : 0;
            if (!v || *end || !(a->poll > 0)) { fprintf(stderr, "gpumemsim sweep: --poll needs a positive number of seconds\n"); return -1; }
        }
        else if (optval(argc, argv, &i, "--bin", &v)) { if (!v) return -1; a->bin = v; }
        else if (optval(argc, argv, &i, "--partition", &v)) { if (!v) return -1; a->partition = v; }
        else if (optval(argc, argv, &i, "--time", &v)) { if (!v) return -1; a->time = v; }
        else if (optval(argc, argv, &i, "--mem", &v)) { if (!v) return -1; a->mem = v; }
        else if (optval(argc, argv, &i, "--account", &v)) { if (!v) return -1; a->account = v; }
        else if (optval(argc, argv, &i, "--list", &v)) { if (!v) return -1; a->list = v; }
        else if (optval(argc, argv, &i, "--results", &v)) { if (!v) return -1; a->results = v; }
        else if (optval(argc, argv, &i, "--only", &v)) {
            if (!v) return -1;
            if (a->nonly == GMS_SWEEP_MAX_ONLY) { fprintf(stderr, "gpumemsim sweep: more than %d --only options\n", GMS_SWEEP_MAX_ONLY); return -1; }
            a->only[a->nonly++] = v;
        }
        else if (optval(argc, argv, &i, "-o", &v) || optval(argc, argv, &i, "--out", &v)) { if (!v) return -1; a->out = v; }
        else if (s[0] == '-' && s[1]) { fprintf(stderr, "gpumemsim sweep %s: unknown option '%s'\n", argv[1], s); return -1; }
        else if (!a->spec) a->spec = s;
        else { fprintf(stderr, "gpumemsim sweep %s: unexpected argument '%s'\n", argv[1], s); return -1; }
    }
    if (!a->spec) { fprintf(stderr, "gpumemsim sweep %s: which sweep spec? (gpumemsim sweep %s SPEC)\n", argv[1], argv[1]); return -1; }
    /* an array task's result directory, which the submitting command chose (runner_slurm.c) */
    if (a->results && strcmp(argv[1], "run-point")) { fprintf(stderr, "gpumemsim sweep %s: --results goes with run-point\n", argv[1]); return -1; }
    return 0;
}

static char *default_bin(const char *given)
{
    if (given) {
        if (!strchr(given, '/')) { char *w = gms_which(given); if (w) { char *a = gms_path_abs(w); free(w); return a; } }
        return gms_path_abs(given);
    }
    char buf[4096];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) return NULL;
    buf[n] = 0;
    return gms_xstrdup(buf);
}

static int cmd_plan(const gms_sweep_spec *s, const gms_sweep_plan *plan, int verbose)
{
    printf("%-6s %-16s  %-20s %-24s %s\n", "index", "id", "variant", "workload", "seed");
    for (size_t i = 0; i < plan->n; i++) {
        const gms_sweep_point *p = &plan->points[i];
        printf("%-6zu %-16s  %-20s %-24s %llu\n", p->index, p->id, p->variant->name, p->workload->label,
               (unsigned long long)p->seed);
        if (verbose) {
            char **argv = gms_point_argv(p, "gpumemsim", "STATS.json");
            gms_sbuf b = {0};
            for (char **x = argv; *x; x++) { if (x != argv) gms_sbuf_add(&b, " "); gms_shell_quote(&b, *x); }
            printf("       %s\n", b.s);
            gms_sbuf_free(&b);
            gms_argv_free(argv);
        }
    }
    printf("%zu points (%zu variants x %zu workloads x %zu seeds", plan->n, s->nvariants, s->nworkloads, s->nseeds);
    if (plan->excluded) printf(", %zu excluded", plan->excluded);
    if (s->nonly) printf(", %zu left out by --only", plan->left_out);
    printf("); baseline %s; store %s; results %s\n", s->baseline, s->db, s->results);
    return 0;
}

static const char *const export_stats_sql =
    "SELECT p.id, p.variant, p.workload, p.wl_group, p.seed, coalesce(r.status, 'pending'),"
    " coalesce(k.name, CASE WHEN s.kernel = 0 THEN 'total' END), s.kernel, s.name, s.value"
    " FROM points p LEFT JOIN best_runs b ON b.point_id = p.id LEFT JOIN runs r ON r.id = b.run_id"
    " LEFT JOIN stats s ON s.run_id = r.id LEFT JOIN kernels k ON k.run_id = r.id AND k.idx = s.kernel"
    " WHERE p.in_plan = 1 ORDER BY p.plan_index, s.kernel, s.name";
static const char *const export_stats_head = "point_id,variant,workload,group,seed,status,kernel_name,kernel,stat,value";
static const char *const export_runs_sql =
    "SELECT p.id, p.variant, p.workload, p.wl_group, p.seed, r.attempt, r.status, r.exit_code, r.wall_s, r.host,"
    " r.version, r.started, r.error FROM runs r JOIN points p ON p.id = r.point_id ORDER BY p.plan_index, r.id";
static const char *const export_runs_head = "point_id,variant,workload,group,seed,attempt,status,exit_code,wall_s,host,version,started,error";

/* CSV of every stat of every point's best run (all points, including failed and pending),
 * or with runs of every attempt */
static int cmd_export(const char *db, const char *outpath, int runs, gms_error *err)
{
    gms_store *st;
    if (gms_store_open(db, 0, &st, err)) return -1;
    FILE *out = outpath ? fopen(outpath, "w") : stdout;
    if (!out) { gms_store_close(st); return gms_err(err, "%s: cannot create: %s", outpath, strerror(errno)); }
    sqlite3_stmt *q;
    int rc = 0;
    if (sqlite3_prepare_v2(st->db, runs ? export_runs_sql : export_stats_sql, -1, &q, NULL) != SQLITE_OK) {
        rc = gms_err(err, "%s: %s", db, sqlite3_errmsg(st->db));
    } else {
        fprintf(out, "%s\n", runs ? export_runs_head : export_stats_head);
        int ncol = sqlite3_column_count(q);
        while (sqlite3_step(q) == SQLITE_ROW) {
            for (int c = 0; c < ncol; c++) {
                if (c) fputc(',', out);
                if (sqlite3_column_type(q, c) == SQLITE_FLOAT) { fprintf(out, runs ? "%.6g" : "%.17g", sqlite3_column_double(q, c)); continue; }
                const char *t = (const char *)sqlite3_column_text(q, c);
                if (!t) continue;
                if (strpbrk(t, ",\"\n")) {
                    fputc('"', out);
                    for (; *t; t++) { if (*t == '"') fputc('"', out); fputc(*t, out); }
                    fputc('"', out);
                } else fputs(t, out);
            }
            fputc('\n', out);
        }
        sqlite3_finalize(q);
    }
    if (outpath && fclose(out)) rc = gms_err(err, "%s: write error", outpath);
    gms_store_close(st);
    return rc;
}

int gms_cmd_sweep(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    const char *sub = argv[1];
    static const char *const subs[] = { "plan", "run", "run-point", "collect", "status", "export", NULL };
    int known = 0;
    for (int i = 0; subs[i]; i++) known |= !strcmp(sub, subs[i]);
    if (!known) { fprintf(stderr, "gpumemsim sweep: unknown command '%s' (gpumemsim sweep --help lists them)\n", sub); return 2; }
    args a;
    int pr = parse_args(argc, argv, &a);
    if (pr) return pr > 0 ? 0 : 2;
    gms_error err = {0};
    if (!strcmp(sub, "export")) {
        char *db = gms_store_path_of(a.spec, &err);
        if (!db) { fprintf(stderr, "gpumemsim sweep: %s\n", err.msg); return 1; }
        int rc = cmd_export(db, a.out, a.runs, &err);
        free(db);
        if (rc) { fprintf(stderr, "gpumemsim sweep: %s\n", err.msg); return 1; }
        return 0;
    }
    gms_sweep_spec *s;
    if (gms_sweep_spec_load(a.spec, !a.no_check, &s, &err)) { fprintf(stderr, "gpumemsim sweep: %s\n", err.msg); return 1; }
    if (gms_sweep_spec_restrict(s, a.only, a.nonly, &err)) {
        fprintf(stderr, "gpumemsim sweep: %s\n", err.msg);
        gms_sweep_spec_free(s);
        return 1;
    }
    if (a.results) { free(s->results); s->results = gms_path_abs(a.results); }
    gms_sweep_plan plan;
    if (gms_sweep_plan_build(s, &plan, &err)) {
        fprintf(stderr, "gpumemsim sweep: %s\n", err.msg);
        gms_sweep_spec_free(s);
        return 1;
    }
    char *bin = default_bin(a.bin);
    gms_run_opts o = {
        .bin = bin, .jobs = a.jobs, .skip_failed = a.skip_failed, .force = a.force,
        .partition = a.partition ? a.partition : s->slurm.partition,
        .time = a.time ? a.time : s->slurm.time,
        .mem = a.mem ? a.mem : s->slurm.mem,
        .account = a.account ? a.account : s->slurm.account,
        .chunk = a.chunk ? a.chunk : s->slurm.chunk,
        .max_parallel = a.parallel ? a.parallel : s->slurm.max_parallel,
        .wait = a.wait, .poll_s = a.poll, .dry_run = a.dry_run, .no_check = a.no_check,
    };
    /* the command as given resumes it (with its --only) */
    gms_sbuf again = {0};
    gms_sbuf_add(&again, "gpumemsim");
    for (int i = 0; i < argc; i++)
        if (strcmp(argv[i], "--force")) { gms_sbuf_add(&again, " "); gms_shell_quote(&again, argv[i]); }
    o.again = again.s;
    int rc = 0;
    struct stat bst;
    /* a --bin that cannot run would fail every point: say so once, run nothing */
    if (bin && a.bin && (!strcmp(sub, "run") || !strcmp(sub, "run-point"))
        && (stat(bin, &bst) || !S_ISREG(bst.st_mode) || access(bin, X_OK)))
        rc = gms_err(&err, "--bin %s: %s", a.bin, stat(bin, &bst) ? strerror(errno)
                     : !S_ISREG(bst.st_mode) ? "not a regular file" : "not executable");
    else if (!bin && strcmp(sub, "plan") && strcmp(sub, "status") && strcmp(sub, "collect"))
        rc = gms_err(&err, "cannot find this gpumemsim's own path: give --bin");
    else if (!strcmp(sub, "plan")) rc = cmd_plan(s, &plan, a.verbose);
    else if (!strcmp(sub, "status")) {
        /* a store that exists must be one (as run, collect and export check); none yet is fine */
        if (!access(s->db, F_OK)) {
            gms_store *st;
            rc = gms_store_open(s->db, 0, &st, &err);
            if (!rc) gms_store_close(st);
        }
        if (!rc) rc = gms_sweep_status(s, &plan, a.verbose, stdout, &err);
    }
    else if (!strcmp(sub, "collect")) {
        gms_store *st;
        gms_collect_summary sum;
        rc = gms_store_open(s->db, 1, &st, &err);
        if (!rc) {
            rc = gms_sweep_collect(s, &plan, st, &sum, &err);
            gms_store_close(st);
        }
        if (!rc)
            printf("collected into %s: %zu new ok, %zu new failed, %zu already stored, %zu without a result yet%s\n",
                   s->db, sum.added_ok, sum.added_failed, sum.known, sum.missing, sum.unreadable ? " (some unreadable: see warnings)" : "");
    } else if (!strcmp(sub, "run")) {
        if (a.wait && !a.slurm) rc = gms_err(&err, "--wait goes with --slurm");
        else rc = a.slurm ? gms_sweep_run_slurm(s, &plan, &o, &err) : gms_sweep_run_local(s, &plan, &o, &err);
    } else if (!strcmp(sub, "run-point")) {
        if (a.index < 0) rc = gms_err(&err, "run-point needs --index N (the Slurm array task id)");
        else rc = gms_sweep_run_point(s, &plan, a.list, a.index, a.chunk, bin, a.force, &err);
    }
    if (rc < 0) fprintf(stderr, "gpumemsim sweep: %s\n", err.msg);
    gms_sbuf_free(&again);
    free(bin);
    gms_sweep_plan_free(&plan);
    gms_sweep_spec_free(s);
    return rc < 0 ? 1 : rc;
}
