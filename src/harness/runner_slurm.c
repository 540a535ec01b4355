/* The Slurm runner. `sweep run --slurm` writes the ids of the points to run to
 * <results>/slurm/<stamp>.list and an sbatch script whose array task i runs
 *   gpumemsim sweep run-point SPEC --list LIST --chunk C --index i
 * i.e. points [i*C, i*C+C) of the list, each as its own `gpumemsim run` process, writing
 * its result file by write-then-rename (a requeued or repeated task never leaves a torn or
 * double result; a point already done is skipped). Tasks never touch the SQLite store:
 * `sweep collect` (or `--wait`, which polls squeue until the array has left the queue)
 * ingests the result files. Logs: <results>/slurm/logs/<stamp>_<task>.log. */
#include "harness/runner.h"
#include "harness/point.h"
#include "harness/slurm.h"
#include "harness/store.h"
#include "harness/util.h"
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char *self_exe(void)
{
    char buf[4096];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) return NULL;
    buf[n] = 0;
    return gms_xstrdup(buf);
}

static void sbatch_opt(gms_sbuf *b, const char *name, const char *v)
{
    if (v && *v) gms_sbuf_printf(b, "#SBATCH --%s=%s\n", name, v);
}

static int write_script(const gms_sweep_spec *s, const gms_run_opts *o, const char *path, const char *list,
                        const char *logdir, const char *stamp, size_t ntasks, int chunk, gms_error *err)
{
    char *exe = self_exe();
    if (!exe) return gms_err(err, "cannot find this gpumemsim's own path (/proc/self/exe)");
    char *spec = gms_path_abs(s->path);
    gms_sbuf b = {0};
    gms_sbuf_add(&b, "#!/bin/sh\n");
    gms_sbuf_printf(&b, "# gpumemsim sweep %s: %zu array tasks, %d point(s) each (written by `gpumemsim sweep run --slurm`)\n",
                    s->name, ntasks, chunk);
    gms_sbuf_printf(&b, "#SBATCH --job-name=gms-%s\n", s->name);
    if (o->max_parallel > 0) gms_sbuf_printf(&b, "#SBATCH --array=0-%zu%%%d\n", ntasks - 1, o->max_parallel);
    else gms_sbuf_printf(&b, "#SBATCH --array=0-%zu\n", ntasks - 1);
    gms_sbuf_printf(&b, "#SBATCH --output=%s/%s_%%a.log\n", logdir, stamp);
    gms_sbuf_add(&b, "#SBATCH --open-mode=append\n#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n");
    sbatch_opt(&b, "partition", o->partition);
    sbatch_opt(&b, "time", o->time);
    sbatch_opt(&b, "mem", o->mem);
    sbatch_opt(&b, "account", o->account);
    gms_sbuf_add(&b, "exec ");
    gms_shell_quote(&b, exe);
    gms_sbuf_add(&b, " sweep run-point ");
    gms_shell_quote(&b, spec);
    gms_sbuf_add(&b, " --list ");
    gms_shell_quote(&b, list);
    gms_sbuf_printf(&b, " --chunk %d --index \"$SLURM_ARRAY_TASK_ID\" --bin ", chunk);
    gms_shell_quote(&b, o->bin);
    /* the results directory this submission collects from, which need not be the spec's own
     * (`repro run --out DIR` moves a study's store and results) */
    char *res = gms_path_abs(s->results);
    gms_sbuf_add(&b, " --results ");
    gms_shell_quote(&b, res);
    free(res);
    if (o->no_check) gms_sbuf_add(&b, " --no-check");
    gms_sbuf_add(&b, "\n");
    free(exe);
    free(spec);
    char *dir = gms_results_tmpdir(s);
    int rc = gms_write_atomic(dir, path, b.s, b.n, err);
    free(dir);
    gms_sbuf_free(&b);
    return rc;
}

/* a point a finished array task left without a result (killed by its time or memory
 * limit, cancelled, node failure) is recorded as failed, naming the task's log */
static void record_lost(const gms_sweep_spec *s, const gms_sweep_point *pt, const char *log)
{
    gms_point_proc pp;
    memset(&pp, 0, sizeof pp);
    pp.pt = pt;
    pp.t0 = gms_now();
    char host[256];
    gms_hostname(host, sizeof host);
    snprintf(pp.attempt, sizeof pp.attempt, "%s:%ld:lost:%s", host, (long)getpid(), pt->id);
    gms_sbuf b = {0};
    char *tmp = gms_results_tmpdir(s);
    gms_sbuf_printf(&b, "%s/%s.lost.stats.json", tmp, pt->id);
    pp.stats_tmp = b.s;
    b = (gms_sbuf){0};
    gms_sbuf_printf(&b, "%s/%s.lost.stderr", tmp, pt->id);
    pp.err_tmp = b.s;
    free(tmp);
    pp.marker = gms_xstrdup("/nonexistent/marker");
    gms_sbuf m = {0};
    gms_sbuf_printf(&m, "the Slurm array task ended without writing a result (time or memory limit, "
                        "cancelled or node failure?); see %s", log);
    FILE *f = fopen(pp.err_tmp, "w");
    if (f) { fputs(m.s, f); fclose(f); }
    gms_sbuf_free(&m);
    pp.command = gms_xstrdup("(slurm array task)");
    int ok;
    gms_error e = {0};
    /* exit status 255: not a real process status, marks "no result" */
    if (gms_point_finish(s, &pp, 255 << 8, &ok, &e)) fprintf(stderr, "gpumemsim sweep: %s\n", e.msg);
}

static int wait_for(const gms_sweep_spec *s, const gms_sweep_plan *plan, const char *jobid, const char *list,
                    const char *logdir, const char *stamp, int chunk, double poll, gms_error *err)
{
    size_t n = 0;
    char **ids = gms_read_lines(list, &n);
    int tty = isatty(2), warned = 0;
    double t0 = gms_now();
    const char *jobs[1] = { jobid };
    for (;;) {
        gms_slurm_task *tasks = NULL;
        size_t nt = 0;
        gms_error e = {0};
        int qrc = gms_slurm_active(jobs, 1, &tasks, &nt, &e);
        free(tasks);
        size_t done = 0, failed = 0;
        for (size_t i = 0; i < n; i++) {
            gms_pt_state st = gms_point_state(s, ids[i], NULL, 0);
            if (st == GMS_PT_DONE) done++;
            else if (st == GMS_PT_FAILED) failed++;
        }
        char el[32];
        gms_fmt_duration(gms_now() - t0, el, sizeof el);
        if (qrc) {
            /* the controller may be restarting: squeue blocks ~10 s then fails; keep waiting */
            if (!warned++) fprintf(stderr, "gpumemsim sweep: warning: %s (still waiting)\n", e.msg);
        } else {
            warned = 0;
            if (tty) fprintf(stderr, "\r\033[Kjob %s: %zu/%zu points done, %zu failed, %zu tasks in the queue | %s",
                             jobid, done, n, failed, nt, el);
            if (!nt) break;
        }
        struct timespec d = { (time_t)poll, (long)((poll - (double)(time_t)poll) * 1e9) };
        nanosleep(&d, NULL);
    }
    if (tty) fprintf(stderr, "\r\033[K");
    size_t lost = 0;
    for (size_t i = 0; i < n; i++) {
        const gms_sweep_point *pt = gms_sweep_plan_find(plan, ids[i]);
        if (!pt || gms_point_state(s, ids[i], NULL, 0) != GMS_PT_PENDING) continue;
        gms_sbuf log = {0};
        gms_sbuf_printf(&log, "%s/%s_%zu.log", logdir, stamp, i / (size_t)chunk);
        record_lost(s, pt, log.s);
        gms_sbuf_free(&log);
        lost++;
    }
    if (lost) fprintf(stderr, "gpumemsim sweep: %zu point(s) of job %s ended without a result: recorded as failed\n", lost, jobid);
    gms_lines_free(ids, n);
    (void)err;
    return 0;
}

int gms_sweep_run_slurm(const gms_sweep_spec *s, const gms_sweep_plan *plan, const gms_run_opts *o,
                        gms_error *err)
{
    char *sbatch = gms_which("sbatch");
    if (!sbatch)
        return gms_err(err, "sbatch not found in PATH: Slurm's client commands are not installed on this machine "
                       "(without --slurm the points run locally)");
    if (gms_results_dirs(s, err)) { free(sbatch); return -1; }
    gms_results_clean_tmp(s, 0);
    gms_results_clean_markers(s, plan);
    gms_store *st;
    gms_collect_summary sum;
    if (gms_store_open(s->db, 1, &st, err)) { free(sbatch); return -1; }
    if (gms_sweep_collect(s, plan, st, &sum, err)) { gms_store_close(st); free(sbatch); return -1; }

    unsigned char *queued = gms_xcalloc(plan->n + 1, 1);
    size_t nq = gms_slurm_queued(s, plan, queued);
    gms_sbuf ids = {0};
    size_t ntodo = 0, done = 0, running = 0;
    for (size_t i = 0; i < plan->n; i++) {
        gms_pt_state stt = gms_point_state(s, plan->points[i].id, NULL, 0);
        if (queued[i] || stt == GMS_PT_RUNNING) { running++; continue; }
        if (stt == GMS_PT_DONE && !o->force) { done++; continue; }
        if (stt == GMS_PT_FAILED && o->skip_failed && !o->force) continue;
        gms_sbuf_printf(&ids, "%s\n", plan->points[i].id);
        ntodo++;
    }
    free(queued);
    fprintf(stderr, "sweep %s: %zu points: %zu done, %zu queued or running, %zu to submit\n", s->name, plan->n, done,
            running, ntodo);
    (void)nq;
    int rc = 0;
    char jobid[64] = "";
    char stamp[64], tbuf[32];
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    strftime(tbuf, sizeof tbuf, "%Y%m%d-%H%M%S", &tm);
    snprintf(stamp, sizeof stamp, "%s-%ld", tbuf, (long)getpid());
    gms_sbuf dirb = {0}, listb = {0}, scriptb = {0}, logb = {0};
    char *resabs = gms_path_abs(s->results);
    gms_sbuf_printf(&dirb, "%s/slurm", resabs);
    gms_sbuf_printf(&logb, "%s/slurm/logs", resabs);
    gms_sbuf_printf(&listb, "%s/%s.list", dirb.s, stamp);
    gms_sbuf_printf(&scriptb, "%s/%s.sh", dirb.s, stamp);
    free(resabs);
    int chunk = o->chunk > 0 ? o->chunk : 1;
    if (ntodo) {
        char *tmp = gms_results_tmpdir(s);
        rc = gms_mkdirs(logb.s, err);
        if (!rc) rc = gms_write_atomic(tmp, listb.s, ids.s, ids.n, err);
        free(tmp);
        size_t ntasks = (ntodo + (size_t)chunk - 1) / (size_t)chunk;
        if (!rc) rc = write_script(s, o, scriptb.s, listb.s, logb.s, stamp, ntasks, chunk, err);
        if (!rc && o->dry_run) {
            fprintf(stderr, "dry run: would submit %s (%zu tasks)\n", scriptb.s, ntasks);
        } else if (!rc) {
            char *argv[] = { sbatch, (char *)"--parsable", scriptb.s, NULL };
            char *out = NULL;
            int status = 0;
            rc = gms_capture(argv, &out, &status, err);
            if (!rc) {
                char *end = out;
                while (*end >= '0' && *end <= '9') end++;
                if (status || end == out || (*end && *end != ';' && *end != '\n')) {
                    size_t L = strlen(out);
                    while (L && out[L - 1] == '\n') out[--L] = 0;
                    rc = gms_err(err, "sbatch failed (exit %d) submitting %s: %s", status, scriptb.s, out);
                } else {
                    snprintf(jobid, sizeof jobid, "%.*s", (int)(end - out), out);
                    gms_sbuf line = {0};
                    gms_sbuf_printf(&line, "%s %d %s\n", jobid, chunk, listb.s);
                    char *jf = gms_slurm_jobs_file(s);
                    FILE *f = fopen(jf, "a");
                    if (!f || fputs(line.s, f) < 0 || fclose(f)) rc = gms_err(err, "%s: cannot record the job: %s", jf, strerror(errno));
                    free(jf);
                    gms_sbuf_free(&line);
                    fprintf(stderr, "submitted Slurm job array %s: %zu task(s) for %zu point(s); logs in %s\n", jobid,
                            ntasks, ntodo, logb.s);
                    if (!o->wait && o->then) fprintf(stderr, "then: %s\n", o->then);
                    else if (!o->wait)
                        fprintf(stderr, "then: gpumemsim sweep status %s; gpumemsim sweep collect %s\n", s->path, s->path);
                }
            }
            free(out);
        }
    }
    if (!rc && o->wait && jobid[0]) {
        rc = wait_for(s, plan, jobid, listb.s, logb.s, stamp, chunk, o->poll_s > 0 ? o->poll_s : 1.0, err);
        if (!rc) rc = gms_sweep_collect(s, plan, st, &sum, err);
        if (!rc) {
            fprintf(stderr, "collected: %zu new ok, %zu new failed; store %s\n", sum.added_ok, sum.added_failed, s->db);
            if (sum.added_failed) rc = 1;
        }
    }
    gms_sbuf_free(&ids);
    gms_sbuf_free(&dirb);
    gms_sbuf_free(&listb);
    gms_sbuf_free(&scriptb);
    gms_sbuf_free(&logb);
    gms_store_close(st);
    gms_results_clean_tmp(s, 1);
    free(sbatch);
    return rc;
}

int gms_sweep_run_point(const gms_sweep_spec *s, const gms_sweep_plan *plan, const char *list,
                        long index, int chunk, const char *bin, int force, gms_error *err)
{
    if (chunk < 1) chunk = 1;
    if (index < 0) return gms_err(err, "--index must be >= 0");
    char **ids = NULL;
    size_t n = 0;
    if (list) {
        ids = gms_read_lines(list, &n);
        if (!ids) return gms_err(err, "%s: cannot read the point list", list);
    } else {
        n = plan->n;
    }
    size_t a = (size_t)index * (size_t)chunk, b = a + (size_t)chunk;
    if (a >= n) { gms_lines_free(ids, list ? n : 0); return gms_err(err, "--index %ld is past the end (%zu points, %d per task)", index, n, chunk); }
    if (b > n) b = n;
    int rc = gms_results_dirs(s, err), any_failed = 0;
    for (size_t k = a; k < b && !rc; k++) {
        const gms_sweep_point *pt = list ? gms_sweep_plan_find(plan, ids[k]) : &plan->points[k];
        if (!pt) { rc = gms_err(err, "%s: point %s is no longer in %s (was the spec edited after submitting?)", list, ids[k], s->path); break; }
        char desc[600];
        gms_sweep_point_desc(pt, desc, sizeof desc);
        if (!force && gms_point_state(s, pt->id, NULL, 0) == GMS_PT_DONE) {
            printf("point %s (%s): already done, skipped\n", pt->id, desc);
            continue;
        }
        int ok = 0;
        double t0 = gms_now();
        rc = gms_point_run_blocking(s, pt, bin, &ok, err);
        if (rc) break;
        char why[700] = "";
        if (!ok) gms_point_state(s, pt->id, why, sizeof why);
        printf("point %s (%s): %s in %.1f s%s%s\n", pt->id, desc, ok ? "ok" : "FAILED", gms_now() - t0, ok ? "" : ": ", why);
        fflush(stdout);
        if (!ok) any_failed = 1;
    }
    gms_lines_free(ids, list ? n : 0);
    gms_results_clean_tmp(s, 1);
    if (rc) return -1;
    return any_failed;
}
