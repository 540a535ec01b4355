/* Talking to Slurm's client commands: running a command and capturing its output, and
 * which array tasks of the jobs a sweep submitted are still queued or running (squeue;
 * accounting/sacct may be absent on small clusters, so it is not used). A sweep records its
 * submissions in <results>/slurm/jobs, one "JOBID CHUNK LISTFILE" line each. */
#include "harness/slurm.h"
#include "harness/util.h"
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int gms_capture(char *const argv[], char **out, int *status, gms_error *err)
{
    int fds[2];
    if (pipe(fds)) return gms_err(err, "pipe: %s", strerror(errno));
    pid_t pid = fork();
    if (pid < 0) { close(fds[0]); close(fds[1]); return gms_err(err, "fork: %s", strerror(errno)); }
    if (pid == 0) {
        int nul = open("/dev/null", O_RDONLY);
        if (nul >= 0) dup2(nul, 0);
        dup2(fds[1], 1);
        dup2(fds[1], 2);
        close(fds[0]);
        close(fds[1]);
        execvp(argv[0], argv);
        dprintf(1, "cannot execute %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(fds[1]);
    gms_sbuf b = {0};
    char buf[4096];
    for (;;) {
        ssize_t r = read(fds[0], buf, sizeof buf);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        gms_sbuf_addn(&b, buf, (size_t)r);
    }
    close(fds[0]);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
    *status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    if (!b.s) gms_sbuf_add(&b, "");
    *out = b.s;
    return 0;
}

char *gms_slurm_jobs_file(const gms_sweep_spec *s)
{
    gms_sbuf b = {0};
    gms_sbuf_printf(&b, "%s/slurm/jobs", s->results);
    return b.s;
}

int gms_slurm_active(const char *const *jobids, size_t njobs, gms_slurm_task **tasks, size_t *ntasks, gms_error *err)
{
    *tasks = NULL;
    *ntasks = 0;
    char *squeue = gms_which("squeue");
    if (!squeue) return gms_err(err, "squeue not found in PATH: Slurm's client commands are not installed here");
    char *argv[] = { squeue, (char *)"-h", (char *)"-r", (char *)"-o", (char *)"%i %t", NULL };
    char *out = NULL;
    int status = 0;
    int rc = gms_capture(argv, &out, &status, err);
    free(squeue);
    if (rc) return -1;
    if (status) {
        char *nl = strchr(out, '\n');
        if (nl) *nl = 0;
        gms_err(err, "squeue failed (exit %d): %s", status, out);
        free(out);
        return -1;
    }
    size_t cap = 0;
    for (char *line = out; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = 0;
        char id[128], state[32];
        if (sscanf(line, "%127s %31s", id, state) == 2) {
            char *us = strchr(id, '_');
            if (us) {
                *us = 0;
                for (size_t j = 0; j < njobs; j++) {
                    if (strcmp(id, jobids[j])) continue;
                    char *end;
                    long task = strtol(us + 1, &end, 10);
                    if (*end) break;          /* an unexpanded range: cannot happen with -r */
                    if (*ntasks == cap) { cap = cap ? 2 * cap : 64; *tasks = gms_xrealloc(*tasks, cap * sizeof **tasks); }
                    (*tasks)[*ntasks].job = j;
                    (*tasks)[*ntasks].task = task;
                    snprintf((*tasks)[*ntasks].state, sizeof (*tasks)[*ntasks].state, "%s", state);
                    (*ntasks)++;
                }
            }
        }
        line = nl ? nl + 1 : NULL;
    }
    free(out);
    return 0;
}

/* reads the jobs file: ids, chunks and list files */
static size_t read_jobs(const gms_sweep_spec *s, char ***ids, int **chunks, char ***lists)
{
    char *jf = gms_slurm_jobs_file(s);
    char *text = gms_read_file(jf, NULL, NULL);
    free(jf);
    *ids = NULL; *chunks = NULL; *lists = NULL;
    if (!text) return 0;
    size_t n = 0;
    for (char *line = text; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = 0;
        char id[64], list[4096];
        int chunk;
        if (sscanf(line, "%63s %d %4095s", id, &chunk, list) == 3 && chunk > 0) {
            *ids = gms_xrealloc(*ids, (n + 1) * sizeof **ids);
            *chunks = gms_xrealloc(*chunks, (n + 1) * sizeof **chunks);
            *lists = gms_xrealloc(*lists, (n + 1) * sizeof **lists);
            (*ids)[n] = gms_xstrdup(id);
            (*chunks)[n] = chunk;
            (*lists)[n] = gms_xstrdup(list);
            n++;
        }
        line = nl ? nl + 1 : NULL;
    }
    free(text);
    return n;
}

char **gms_read_lines(const char *path, size_t *n)
{
    *n = 0;
    char *text = gms_read_file(path, NULL, NULL);
    if (!text) return NULL;
    char **v = NULL;
    for (char *line = text; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = 0;
        if (*line) { v = gms_xrealloc(v, (*n + 1) * sizeof *v); v[(*n)++] = gms_xstrdup(line); }
        line = nl ? nl + 1 : NULL;
    }
    free(text);
    return v;
}

void gms_lines_free(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++) free(v[i]);
    free(v);
}

size_t gms_slurm_queued(const gms_sweep_spec *s, const gms_sweep_plan *plan, unsigned char *queued)
{
    char **ids, **lists;
    int *chunks;
    size_t nj = read_jobs(s, &ids, &chunks, &lists), count = 0;
    gms_slurm_task *tasks = NULL;
    size_t nt = 0;
    gms_error e = {0};
    if (nj && !gms_slurm_active((const char *const *)ids, nj, &tasks, &nt, &e)) {
        for (size_t j = 0; j < nj; j++) {
            size_t nl = 0;
            char **lines = NULL;
            for (size_t t = 0; t < nt; t++) {
                if (tasks[t].job != j) continue;
                if (!lines) lines = gms_read_lines(lists[j], &nl);
                for (size_t k = (size_t)tasks[t].task * (size_t)chunks[j]; k < nl && k < (size_t)(tasks[t].task + 1) * (size_t)chunks[j]; k++) {
                    const gms_sweep_point *pt = gms_sweep_plan_find(plan, lines[k]);
                    if (pt && !queued[pt->index]) { queued[pt->index] = 1; count++; }
                }
            }
            gms_lines_free(lines, nl);
        }
    }
    free(tasks);
    for (size_t j = 0; j < nj; j++) { free(ids[j]); free(lists[j]); }
    free(ids); free(chunks); free(lists);
    return count;
}
