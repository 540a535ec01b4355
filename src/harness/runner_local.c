/* The local runner: every point not yet done runs as its own `gpumemsim run` child, N at a
 * time. After each point its result file is written (write-then-rename) and ingested into
 * the store, so a runner killed at any moment loses at most the points in flight, and a
 * second `sweep run` resumes where it stopped. SIGINT/SIGTERM stop cleanly: children are
 * terminated, their temporary files removed, no result is written for them.
 * Progress: a redrawn status line on a terminal, one line per finished point otherwise. */
#include "harness/runner.h"
#include "harness/point.h"
#include "harness/store.h"
#include "harness/util.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t got_signal;   /* the only mutable global: set by the handler */

static void on_signal(int sig) { got_signal = sig; }

typedef struct progress {
    FILE *out;
    int tty;
    size_t total, done, failed, running, pending;
    size_t finished_here;    /* points finished by this run */
    double sum_wall;         /* their wall times */
    double t_start, last_draw;
    int jobs;
} progress;

static double eta(const progress *p, const gms_point_proc *procs, int nprocs)
{
    if (!p->finished_here) return -1;
    double avg = p->sum_wall / (double)p->finished_here, now = gms_now(), work = (double)p->pending * avg;
    for (int i = 0; i < nprocs; i++)
        if (procs[i].pid > 0) { double left = avg - (now - procs[i].t0); work += left > 0 ? left : 0; }
    return work / (p->jobs > 0 ? p->jobs : 1);
}

static void draw(progress *p, const gms_point_proc *procs, int nprocs, int force)
{
    if (!p->tty) return;
    double now = gms_now();
    if (!force && now - p->last_draw < 0.2) return;
    p->last_draw = now;
    char el[32], et[32] = "?";
    gms_fmt_duration(now - p->t_start, el, sizeof el);
    double e = eta(p, procs, nprocs);
    if (e >= 0) gms_fmt_duration(e, et, sizeof et);
    fprintf(p->out, "\r\033[K[%zu/%zu] done %zu, failed %zu, running %zu, pending %zu | elapsed %s | ETA %s",
            p->done + p->failed, p->total, p->done, p->failed, p->running, p->pending, el, et);
    fflush(p->out);
}

static void line(progress *p, const char *head, const char *word, const char *desc, double wall, const char *eta_s)
{
    if (p->tty) fprintf(p->out, "\r\033[K");
    fprintf(p->out, "%s %-6s %s (%.1f s, ETA %s)\n", head, word, desc, wall, eta_s);
    fflush(p->out);
}

static void stop_children(gms_point_proc *procs, int nprocs)
{
    for (int i = 0; i < nprocs; i++)
        if (procs[i].pid > 0) kill(procs[i].pid, SIGTERM);
    double t0 = gms_now();
    for (int i = 0; i < nprocs; i++) {
        if (procs[i].pid <= 0) continue;
        for (;;) {
            pid_t r = waitpid(procs[i].pid, NULL, WNOHANG);
            if (r == procs[i].pid || (r < 0 && errno != EINTR)) break;
            if (gms_now() - t0 > 3) { kill(procs[i].pid, SIGKILL); waitpid(procs[i].pid, NULL, 0); break; }
            struct timespec d = { 0, 10 * 1000 * 1000 };
            nanosleep(&d, NULL);
        }
        gms_point_abandon(&procs[i]);
        procs[i].pid = 0;
    }
}

/* Several runs at once share the host's CPUs: each child learns its share through
 * GMS_HOST_CPUS (inherited), and with fewer than two it runs without the memory side's
 * worker thread (engine_pipe.c), which would otherwise take a concurrent run's CPU; its
 * statistics are the same either way. A value set by the user is kept. */
static int share_cpus(int jobs)
{
    if (jobs < 2 || getenv("GMS_HOST_CPUS")) return 0;
    int n = gms_usable_cpus();
    char v[32];
    snprintf(v, sizeof v, "%d", n / jobs > 1 ? n / jobs : 1);
    setenv("GMS_HOST_CPUS", v, 1);
    return 1;
}

/* take point id for this runner: its marker created exclusively (the point's process
 * rewrites it with its own pid). 0 if another runner's marker is there: it runs the point. */
static int claim(const gms_sweep_spec *s, const char *id)
{
    char *mp = gms_point_marker_path(s, id);
    int fd = open(mp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    free(mp);
    if (fd < 0) return errno != EEXIST;   /* another error: gms_point_start will say it */
    char host[256], line[320];
    gms_hostname(host, sizeof host);
    int n = snprintf(line, sizeof line, "%s %ld -\n", host, (long)getpid());
    if (n > 0 && write(fd, line, (size_t)n) < 0) { /* best effort, as the marker itself */ }
    close(fd);
    return 1;
}

int gms_sweep_run_local(const gms_sweep_spec *s, const gms_sweep_plan *plan, const gms_run_opts *o,
                        gms_error *err)
{
    if (gms_results_dirs(s, err)) return -1;
    gms_results_clean_tmp(s, 0);
    gms_results_clean_markers(s, plan);
    gms_store *st;
    if (gms_store_open(s->db, 1, &st, err)) return -1;
    gms_collect_summary sum;
    if (gms_sweep_collect(s, plan, st, &sum, err)) { gms_store_close(st); return -1; }

    progress p = { .out = stderr, .tty = isatty(2), .total = plan->n, .jobs = o->jobs > 0 ? o->jobs : 1 };
    size_t *todo = gms_xmalloc((plan->n + 1) * sizeof *todo), ntodo = 0, elsewhere = 0, skipped_failed = 0;
    unsigned char *queued = gms_xcalloc(plan->n + 1, 1);
    gms_slurm_queued(s, plan, queued);
    for (size_t i = 0; i < plan->n; i++) {
        gms_pt_state stt = gms_point_state(s, plan->points[i].id, NULL, 0);
        if (stt == GMS_PT_RUNNING || queued[i]) { elsewhere++; p.running++; continue; }
        if (stt == GMS_PT_DONE && !o->force) { p.done++; continue; }
        if (stt == GMS_PT_FAILED && o->skip_failed && !o->force) { p.failed++; skipped_failed++; continue; }
        todo[ntodo++] = i;
    }
    free(queued);
    p.pending = ntodo;
    fprintf(p.out, "sweep %s: %zu points: %zu done, %zu to run%s", s->name, plan->n, p.done, ntodo,
            ntodo ? "" : "\n");
    if (ntodo) fprintf(p.out, ", %d at a time\n", p.jobs);
    if (elsewhere) fprintf(p.out, "  %zu running elsewhere (another runner, or queued or running in Slurm): not started here\n", elsewhere);
    if (skipped_failed) fprintf(p.out, "  %zu failed earlier: skipped (--skip-failed)\n", skipped_failed);
    p.running = 0;

    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    got_signal = 0;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);

    int nprocs = p.jobs;
    int shared = share_cpus(nprocs);   /* undone at the end: the runner may run in-process (tests) */
    gms_point_proc *procs = gms_xcalloc((size_t)nprocs, sizeof *procs);
    size_t next = 0, failed_here = 0;
    int rc = 0;
    p.t_start = gms_now();
    while (!rc && (next < ntodo || p.running)) {
        if (got_signal) break;
        /* fill free slots */
        for (int i = 0; i < nprocs && next < ntodo && !got_signal; i++) {
            if (procs[i].pid > 0) continue;
            /* another runner on the same spec may have started or finished a point since the
             * list was made: leave those alone (the list alone let two runners run all twice) */
            while (next < ntodo) {
                const char *id = plan->points[todo[next]].id;
                gms_pt_state now = gms_point_state(s, id, NULL, 0);
                if (now != GMS_PT_RUNNING && (now != GMS_PT_DONE || o->force) && claim(s, id)) break;
                next++;
                p.pending--;
            }
            if (next >= ntodo) break;
            if (gms_point_start(s, &plan->points[todo[next]], o->bin, &procs[i], err)) { rc = -1; break; }
            next++;
            p.pending--;
            p.running++;
        }
        if (rc) break;
        int status;
        pid_t r = waitpid(-1, &status, WNOHANG);
        if (r > 0) {
            int i = 0;
            while (i < nprocs && procs[i].pid != r) i++;
            if (i == nprocs) continue;            /* not one of ours */
            const gms_sweep_point *pt = procs[i].pt;
            double wall = gms_now() - procs[i].t0;
            int ok = 0;
            procs[i].pid = 0;
            p.running--;
            if (gms_point_finish(s, &procs[i], status, &ok, err) ||
                gms_sweep_collect_one(s, pt, st, err)) { rc = -1; break; }
            p.finished_here++;
            p.sum_wall += wall;
            if (ok) p.done++; else { p.failed++; failed_here++; }
            char desc[600], et[32] = "?";
            gms_sweep_point_desc(pt, desc, sizeof desc);
            double e = eta(&p, procs, nprocs);
            if (e >= 0) gms_fmt_duration(e, et, sizeof et);
            char head[64];
            snprintf(head, sizeof head, "[%zu/%zu]", p.done + p.failed, p.total);
            if (!ok) {
                char why[700];
                gms_pt_state stt = gms_point_state(s, pt->id, why, sizeof why);
                (void)stt;
                line(&p, head, "FAILED", desc, wall, et);
                fprintf(p.out, "    %s\n", why);
            } else if (!p.tty) {
                line(&p, head, "ok", desc, wall, et);
            }
            draw(&p, procs, nprocs, 1);
            continue;
        }
        if (r < 0 && errno != EINTR && errno != ECHILD) { rc = gms_err(err, "waitpid: %s", strerror(errno)); break; }
        /* per-point time limit */
        for (int i = 0; i < nprocs; i++)
            if (procs[i].pid > 0 && s->timeout > 0 && !procs[i].timed_out && gms_now() - procs[i].t0 > s->timeout) {
                procs[i].timed_out = 1;
                kill(procs[i].pid, SIGKILL);
            }
        draw(&p, procs, nprocs, 0);
        struct timespec d = { 0, 20 * 1000 * 1000 };
        nanosleep(&d, NULL);
    }
    int interrupted = got_signal != 0;
    if (interrupted || rc) stop_children(procs, nprocs);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    if (p.tty) fprintf(p.out, "\r\033[K");
    char el[32];
    gms_fmt_duration(gms_now() - p.t_start, el, sizeof el);
    if (interrupted && o->again)
        fprintf(p.out, "interrupted (%s): %zu finished here, %zu not run; `%s` resumes\n", strsignal(got_signal),
                p.finished_here, ntodo - p.finished_here, o->again);
    else if (interrupted)
        fprintf(p.out, "interrupted (%s): %zu finished here, %zu not run; `gpumemsim sweep run %s` resumes\n",
                strsignal(got_signal), p.finished_here, ntodo - p.finished_here, s->path);
    else if (!rc)
        fprintf(p.out, "sweep %s: %zu run in %s (%zu failed); %zu of %zu points done; store %s\n", s->name,
                p.finished_here, el, failed_here, p.done, plan->n, s->db);
    if (shared) unsetenv("GMS_HOST_CPUS");
    free(procs);
    free(todo);
    gms_store_close(st);
    gms_results_clean_tmp(s, 1);
    if (rc) return -1;
    if (interrupted) return 130;
    return failed_here ? 1 : 0;
}
