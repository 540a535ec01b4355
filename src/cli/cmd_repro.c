/* `gpumemsim repro`: list the seed studies, run one (its sweep, locally or on Slurm, into an
 * output directory), and report it claim by claim (docs/repro.md). The work is in
 * src/harness/repro.c and claims_*.c; this file parses arguments. */
#include "cli/cli.h"
#include "harness/repro.h"
#include "harness/store.h"
#include "harness/util.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *out)
{
    fprintf(out,
        "usage: gpumemsim repro list\n"
        "       gpumemsim repro run NAME [--quick|--full] [-j N | --slurm [--wait|--dry-run]] [--out DIR]\n"
        "                               [--only KEY=GLOB[,GLOB...]]... [--timeout SECONDS]\n"
        "       gpumemsim repro report NAME [--quick|--full] [--out DIR] [--only KEY=GLOB[,GLOB...]]...\n"
        "       gpumemsim repro plan NAME [--quick|--full] [-v] [--only KEY=GLOB[,GLOB...]]...\n\n"
        "A study is repro/NAME/: quick.sweep (reduced inputs, minutes on 2 cores), full.sweep (the\n"
        "seed's inputs and configuration) and claims (the seed's claims, each a metric over the\n"
        "stored statistics and what \"holds\" means). `run` runs the sweep (resumable: running again\n"
        "runs only what is missing) and then reports; `report` writes DIR/NAME-MODE.md and its\n"
        "figures and ends with the line \"NAME: H of N claims hold, R not yet runnable\".\n\n"
        "  --quick | --full    which form (default --quick)\n"
        "  --out DIR           where the store, results and report go (default repro-results)\n"
        "  -j N                local processes at a time (default: the CPUs this process may\n"
        "                      use, as `nproc` counts them; -j 1 runs one point at a time)\n"
        "  --slurm [--wait]    submit as a Slurm job array (as `sweep run --slurm`); with --wait,\n"
        "                      collect and report when it is done (else `repro report` collects)\n"
        "  --dry-run           with --slurm: write the sbatch script, do not submit it\n"
        "  --repro-dir DIR     where the studies are (default: $GMS_REPRO_DIR, else the repro/\n"
        "                      beside the binary's directory, else ./repro)\n"
        "  --bin PATH          gpumemsim binary that runs the points (default: this one)\n"
        "  --only KEY=GLOBS    run / plan / report only the points whose variant, workload or\n"
        "                      group (KEY) matches one of the comma-separated globs; repeat for\n"
        "                      more keys (all apply). Point ids do not change, so a subset run\n"
        "                      fills the same store as the whole study; report with the same\n"
        "                      --only to read the subset alone (a claim over what it left out\n"
        "                      shows \"no data\")\n"
        "  --timeout SECONDS   per-point limit of a local run instead of the study's `timeout`\n");
}

typedef struct args {
    const char *sub, *name, *mode, *out, *repro_dir, *bin;
    int jobs, jobs_given, slurm, wait, verbose, dry_run;
    const char *only[GMS_SWEEP_MAX_ONLY];
    int nonly;
    double timeout;          /* > 0: overrides the spec's */
} args;

static int need(int argc, char **argv, int i)
{
    if (i + 1 < argc) return 0;
    fprintf(stderr, "gpumemsim repro: %s needs a value\n", argv[i]);
    return -1;
}

static int parse(int argc, char **argv, args *a)
{
    memset(a, 0, sizeof *a);
    a->mode = "quick";
    a->out = "repro-results";
    /* a study is one command: by default its points use every CPU the host gives us (the quick
     * forms' 15-minute budget is for a 2-core machine at -j 2); each run then gets one CPU
     * (runner_local.c's GMS_HOST_CPUS share), so the statistics are those of -j 1 */
    a->jobs = gms_usable_cpus();
    a->sub = argv[1];
    for (int i = 2; i < argc; i++) {
        const char *s = argv[i];
        if (!strcmp(s, "--quick")) a->mode = "quick";
        else if (!strcmp(s, "--full")) a->mode = "full";
        else if (!strcmp(s, "--slurm")) a->slurm = 1;
        else if (!strcmp(s, "--wait")) a->wait = 1;
        else if (!strcmp(s, "--dry-run")) a->dry_run = 1;
        else if (!strcmp(s, "-v")) a->verbose = 1;
        else if (!strcmp(s, "-h") || !strcmp(s, "--help")) { usage(stdout); return 1; }
        else if (!strcmp(s, "--out") || !strcmp(s, "--repro-dir") || !strcmp(s, "--bin") || !strcmp(s, "-j") || !strcmp(s, "--jobs") ||
                 !strcmp(s, "--only") || !strcmp(s, "--timeout")) {
            if (need(argc, argv, i)) return -1;
            const char *v = argv[++i];
            if (!strcmp(s, "--only")) {
                if (a->nonly == GMS_SWEEP_MAX_ONLY) { fprintf(stderr, "gpumemsim repro: more than %d --only options\n", GMS_SWEEP_MAX_ONLY); return -1; }
                a->only[a->nonly++] = v;
            } else if (!strcmp(s, "--timeout")) {
                char *end;
                errno = 0;
                double t = strtod(v, &end);
                if (errno || *end || end == v || !(t > 0) || t > 1e9) {
                    fprintf(stderr, "gpumemsim repro: --timeout: '%s' is not a number of seconds in (0, 1e9]\n", v);
                    return -1;
                }
                a->timeout = t;
            } else if (!strcmp(s, "--out")) a->out = v;
            else if (!strcmp(s, "--repro-dir")) a->repro_dir = v;
            else if (!strcmp(s, "--bin")) a->bin = v;
            else {
                char *end;
                errno = 0;
                long j = strtol(v, &end, 10);
                if (errno || *end || end == v || j < 1 || j > 4096) {
                    fprintf(stderr, "gpumemsim repro: %s: '%s' is not an integer in [1, 4096]\n", s, v);
                    return -1;
                }
                a->jobs = (int)j;
                a->jobs_given = 1;
            }
        } else if (!strncmp(s, "-j", 2) && s[2]) {
            char *end;
            long j = strtol(s + 2, &end, 10);
            if (*end || j < 1 || j > 4096) { fprintf(stderr, "gpumemsim repro: -j: '%s' is not an integer in [1, 4096]\n", s + 2); return -1; }
            a->jobs = (int)j;
            a->jobs_given = 1;
        } else if (s[0] == '-') { fprintf(stderr, "gpumemsim repro %s: unknown option '%s'\n", a->sub, s); return -1; }
        else if (!a->name) a->name = s;
        else { fprintf(stderr, "gpumemsim repro %s: unexpected argument '%s'\n", a->sub, s); return -1; }
    }
    if (a->wait && !a->slurm) { fprintf(stderr, "gpumemsim repro: --wait goes with --slurm\n"); return -1; }
    if (a->dry_run && !a->slurm) { fprintf(stderr, "gpumemsim repro: --dry-run goes with --slurm\n"); return -1; }
    if (a->dry_run && a->wait) { fprintf(stderr, "gpumemsim repro: --dry-run submits nothing to --wait for\n"); return -1; }
    if (a->jobs_given && a->slurm) { fprintf(stderr, "gpumemsim repro: -j is for local runs (on Slurm the study's `slurm` line shapes the array)\n"); return -1; }
    /* array tasks read the study's own spec, so a limit given here would not reach them */
    if (a->timeout > 0 && a->slurm) { fprintf(stderr, "gpumemsim repro: --timeout is for local runs (on Slurm the study's `slurm time=` limits a task)\n"); return -1; }
    if (a->timeout > 0 && strcmp(a->sub, "run")) { fprintf(stderr, "gpumemsim repro %s: --timeout goes with run\n", a->sub); return -1; }
    return 0;
}

/* the mode's spec with the command line's --only restrictions and --timeout applied */
static int load_spec(const args *a, const gms_repro_study *st, int check, gms_sweep_spec **out, gms_error *err)
{
    gms_sweep_spec *s;
    if (gms_repro_load_spec(st, check, &s, err)) return -1;
    if (gms_sweep_spec_restrict(s, a->only, a->nonly, err)) { gms_sweep_spec_free(s); return -1; }
    if (a->timeout > 0) s->timeout = a->timeout;
    *out = s;
    return 0;
}

static char *self_bin(const char *given)
{
    if (given) return gms_path_abs(given);
    char buf[4096];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) return NULL;
    buf[n] = 0;
    return gms_xstrdup(buf);
}

/* `gpumemsim repro report NAME ...` for the same study, output and part */
static char *report_command(const args *a, const gms_repro_study *st, const char *repro_dir)
{
    gms_sbuf b = {0};
    gms_sbuf_printf(&b, "gpumemsim repro report %s --%s --out ", st->name, st->mode);
    gms_shell_quote(&b, st->out_dir);
    if (a->repro_dir) { gms_sbuf_add(&b, " --repro-dir "); gms_shell_quote(&b, repro_dir); }
    for (int i = 0; i < a->nonly; i++) { gms_sbuf_add(&b, " --only "); gms_shell_quote(&b, a->only[i]); }
    return b.s;
}

static int run_study(const args *a, const gms_repro_study *st, const char *again, const char *then, gms_error *err)
{
    gms_sweep_spec *s;
    if (load_spec(a, st, 1, &s, err)) return -1;
    if (gms_mkdirs(st->out_dir, err)) { gms_sweep_spec_free(s); return -1; }
    gms_sweep_plan plan;
    if (gms_sweep_plan_build(s, &plan, err)) { gms_sweep_spec_free(s); return -1; }
    char *bin = self_bin(a->bin);
    int rc;
    if (!bin) rc = gms_err(err, "cannot find this gpumemsim's own path: give --bin");
    else {
        printf("repro %s (%s): %zu points, results in %s\n", st->name, st->mode, plan.n, st->db);
        fflush(stdout);
        gms_run_opts o = {
            .bin = bin, .jobs = a->jobs,
            .partition = s->slurm.partition, .time = s->slurm.time, .mem = s->slurm.mem,
            .account = s->slurm.account, .chunk = s->slurm.chunk, .max_parallel = s->slurm.max_parallel,
            .wait = a->wait, .poll_s = 1, .dry_run = a->dry_run, .again = again, .then = then,
        };
        rc = a->slurm ? gms_sweep_run_slurm(s, &plan, &o, err) : gms_sweep_run_local(s, &plan, &o, err);
    }
    free(bin);
    gms_sweep_plan_free(&plan);
    gms_sweep_spec_free(s);
    return rc;
}

/* ingests finished result files (a Slurm array's, or a run interrupted before it stored them) */
static int collect_study(const args *a, const gms_repro_study *st, gms_error *err)
{
    gms_sweep_spec *s;
    if (load_spec(a, st, 0, &s, err)) return -1;
    gms_sweep_plan plan;
    int rc = gms_sweep_plan_build(s, &plan, err);
    if (!rc) {
        gms_store *db;
        gms_collect_summary sum;
        rc = gms_store_open(s->db, 1, &db, err);
        if (!rc) { rc = gms_sweep_collect(s, &plan, db, &sum, err); gms_store_close(db); }
        gms_sweep_plan_free(&plan);
    }
    gms_sweep_spec_free(s);
    return rc;
}

int gms_cmd_repro(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    args a;
    int pr = parse(argc, argv, &a);
    if (pr) return pr > 0 ? 0 : 2;
    static const char *const subs[] = { "list", "run", "report", "plan", NULL };
    int known = 0;
    for (int i = 0; subs[i]; i++) known |= !strcmp(a.sub, subs[i]);
    if (!known) { fprintf(stderr, "gpumemsim repro: unknown command '%s'\n\n", a.sub); usage(stderr); return 2; }
    gms_error err = {0};
    char *dir = gms_repro_dir(a.repro_dir);
    if (!dir) {
        fprintf(stderr, "gpumemsim repro: %s\n", a.repro_dir ? "--repro-dir: not a directory"
                : "cannot find the studies (repro/ beside the binary's directory or in the current one); give --repro-dir or GMS_REPRO_DIR");
        return 1;
    }
    int rc = 0;
    if (!strcmp(a.sub, "list")) {
        rc = gms_repro_list(dir, stdout, &err);
        free(dir);
        if (rc) fprintf(stderr, "gpumemsim repro: %s\n", err.msg);
        return rc ? 1 : 0;
    }
    if (!a.name) { fprintf(stderr, "gpumemsim repro %s: which study? (gpumemsim repro list)\n", a.sub); free(dir); return 2; }
    gms_repro_study st;
    if (gms_repro_study_open(dir, a.name, a.mode, a.out, &st, &err)) {
        fprintf(stderr, "gpumemsim repro: %s\n", err.msg);
        free(dir);
        return 1;
    }
    char *then = report_command(&a, &st, dir);
    free(dir);
    gms_sbuf again = {0};
    gms_sbuf_add(&again, "gpumemsim");
    for (int i = 0; i < argc; i++) { gms_sbuf_add(&again, " "); gms_shell_quote(&again, argv[i]); }
    if (a.nonly) {
        gms_sbuf part = {0};
        for (int i = 0; i < a.nonly; i++) gms_sbuf_printf(&part, "%s%s", i ? "; " : "", a.only[i]);
        st.part = part.s;
    }
    if (!strcmp(a.sub, "plan")) {
        gms_sweep_spec *s;
        gms_sweep_plan plan;
        rc = load_spec(&a, &st, 1, &s, &err);
        if (!rc) {
            rc = gms_sweep_plan_build(s, &plan, &err);
            if (!rc) {
                for (size_t i = 0; i < plan.n && a.verbose; i++)
                    printf("%-5zu %s  %-24s %-20s %llu\n", i, plan.points[i].id, plan.points[i].variant->name,
                           plan.points[i].workload->label, (unsigned long long)plan.points[i].seed);
                printf("%s (%s): %zu points (%zu variants x %zu workloads x %zu seeds", st.name, st.mode, plan.n,
                       s->nvariants, s->nworkloads, s->nseeds);
                if (plan.excluded) printf(", %zu excluded", plan.excluded);
                if (a.nonly) printf(", %zu left out by --only", plan.left_out);
                printf(")\n");
                gms_sweep_plan_free(&plan);
            }
            gms_sweep_spec_free(s);
        }
        /* the claims must parse and name what the study has */
        if (!rc) rc = gms_repro_check_claims(&st, &err);
    } else if (!strcmp(a.sub, "run")) {
        rc = gms_repro_check_claims(&st, &err);     /* a broken claims file fails before hours of runs */
        if (!rc) {
            rc = run_study(&a, &st, again.s, then, &err);
            /* interrupted (130): nothing to report yet; running the same command again resumes */
            if (rc >= 0 && rc != 130 && (!a.slurm || a.wait)) {
                if (rc > 0) fprintf(stderr, "gpumemsim repro: some points failed; their claims show as \"no data\"\n");
                int rc2 = gms_repro_report(&st, stdout, NULL, NULL, NULL, &err);
                if (rc2) rc = rc2;
            }
        }
    } else {
        /* with --only, the store's plan is set to the subset even when no result file is new */
        if (access(st.results, F_OK) == 0 || (a.nonly && access(st.db, F_OK) == 0)) rc = collect_study(&a, &st, &err);
        if (!rc) rc = gms_repro_report(&st, stdout, NULL, NULL, NULL, &err);
    }
    if (rc < 0) fprintf(stderr, "gpumemsim repro: %s\n", err.msg);
    gms_sbuf_free(&again);
    free(then);
    gms_repro_study_free(&st);
    return rc < 0 ? 1 : rc;
}
