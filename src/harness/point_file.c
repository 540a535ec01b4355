/* Per-point files in the results directory: result paths, atomic writes, the running
 * marker and the state of a point as seen from the files (see point.h). */
#include "harness/point.h"
#include "harness/util.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *gms_pt_state_name(gms_pt_state s)
{
    switch (s) {
    case GMS_PT_PENDING: return "pending";
    case GMS_PT_RUNNING: return "running";
    case GMS_PT_DONE: return "done";
    case GMS_PT_FAILED: return "failed";
    }
    return "?";
}

static char *results_file(const gms_sweep_spec *s, const char *id, const char *ext)
{
    gms_sbuf b = {0};
    gms_sbuf_printf(&b, "%s/%s%s", s->results, id, ext);
    return b.s;
}

char *gms_point_result_path(const gms_sweep_spec *s, const char *id) { return results_file(s, id, ".json"); }
char *gms_point_marker_path(const gms_sweep_spec *s, const char *id) { return results_file(s, id, ".running"); }

char *gms_results_tmpdir(const gms_sweep_spec *s)
{
    char host[256];
    gms_hostname(host, sizeof host);
    gms_sbuf b = {0};
    gms_sbuf_printf(&b, "%s/tmp/%s.%ld", s->results, host, (long)getpid());
    return b.s;
}

int gms_results_dirs(const gms_sweep_spec *s, gms_error *err)
{
    char *tmp = gms_results_tmpdir(s);
    int rc = gms_mkdirs(tmp, err);
    free(tmp);
    return rc;
}

static void rm_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char *f = gms_path_join(dir, e->d_name);
        unlink(f);
        free(f);
    }
    closedir(d);
    rmdir(dir);
}

void gms_results_clean_tmp(const gms_sweep_spec *s, int remove_own)
{
    char me[256];
    gms_hostname(me, sizeof me);
    char *tmp = gms_path_join(s->results, "tmp");
    DIR *d = opendir(tmp);
    if (!d) { free(tmp); return; }
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *dot = strrchr(e->d_name, '.');
        if (!dot || dot == e->d_name) continue;
        char *end;
        long pid = strtol(dot + 1, &end, 10);
        if (*end || pid <= 0) continue;
        if ((size_t)(dot - e->d_name) != strlen(me) || strncmp(e->d_name, me, strlen(me))) continue;
        int mine = pid == (long)getpid();
        if (mine && !remove_own) continue;
        if (!mine && (kill((pid_t)pid, 0) == 0 || errno == EPERM)) continue;
        char *dir = gms_path_join(tmp, e->d_name);
        if (mine) rmdir(dir);   /* only when empty */
        else rm_dir(dir);
        free(dir);
    }
    closedir(d);
    free(tmp);
}

gms_json *gms_point_result_read(const char *path, gms_error *err)
{
    size_t len;
    char *text = gms_read_file(path, &len, err);
    if (!text) return NULL;
    gms_json *j = gms_json_parse(text, len, path, err);
    free(text);
    if (j && strcmp(gms_json_get_str(j, "format", ""), GMS_POINT_FORMAT)) {
        gms_err(err, "%s: not a gpumemsim sweep point result (format \"%s\" expected)", path, GMS_POINT_FORMAT);
        gms_json_free(j);
        return NULL;
    }
    if (!j) return NULL;
    /* a result is "ok" (with stats that have a total object, as the runner writes it) or
     * "failed"; anything else is a damaged file, not a result */
    const char *status = gms_json_get_str(j, "status", NULL);
    const gms_json *stats = gms_json_get(j, "stats");
    const gms_json *total = stats && stats->type == GMS_JSON_OBJ ? gms_json_get(stats, "total") : NULL;
    if (!status || (strcmp(status, "ok") && strcmp(status, "failed"))) {
        gms_err(err, "%s: field \"status\" is %s%s%s, not \"ok\" or \"failed\"", path, status ? "\"" : "",
                status ? status : "missing or not a string", status ? "\"" : "");
        gms_json_free(j);
        return NULL;
    }
    if (!strcmp(status, "ok") && (!total || total->type != GMS_JSON_OBJ)) {
        gms_err(err, "%s: status \"ok\" but no \"stats\" object with a \"total\" object", path);
        gms_json_free(j);
        return NULL;
    }
    return j;
}

/* is pid a live process (not a zombie) whose command line mentions id? Without /proc,
 * whether the pid exists at all. A killed runner's children may linger as zombies when
 * PID 1 does not reap them, and pids get reused: both checks matter. */
static int pid_runs_point(long pid, const char *id)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    char *st = gms_read_file(path, NULL, NULL);
    if (!st) {
        if (access("/proc/self/stat", F_OK)) return kill((pid_t)pid, 0) == 0 || errno == EPERM;
        return 0;
    }
    const char *rp = strrchr(st, ')');
    int zombie = rp && (rp[1] == ' ') && (rp[2] == 'Z' || rp[2] == 'X');
    free(st);
    if (zombie) return 0;
    snprintf(path, sizeof path, "/proc/%ld/cmdline", pid);
    size_t len = 0;
    char *cmd = gms_read_file(path, &len, NULL);
    if (!cmd) return 0;
    int found = 0;
    for (size_t i = 0; i < len && !found; i += strlen(cmd + i) + 1) found = strstr(cmd + i, id) != NULL;
    free(cmd);
    return found;
}

/* a marker "host pid" names a live process on this host, or any process on another one */
static int marker_live(const char *path, const char *id)
{
    char *text = gms_read_file(path, NULL, NULL);
    if (!text) return 0;
    char host[256] = "", me[256];
    long pid = 0;
    int n = sscanf(text, "%255s %ld", host, &pid);
    free(text);
    if (n != 2 || pid <= 0) return 0;
    gms_hostname(me, sizeof me);
    if (strcmp(host, me)) return 1;
    return pid_runs_point(pid, id);
}

void gms_results_clean_markers(const gms_sweep_spec *s, const gms_sweep_plan *plan)
{
    for (size_t i = 0; i < plan->n; i++) {
        char *mp = gms_point_marker_path(s, plan->points[i].id);
        if (!access(mp, F_OK) && !marker_live(mp, plan->points[i].id)) unlink(mp);
        free(mp);
    }
}

gms_pt_state gms_point_state(const gms_sweep_spec *s, const char *id, char *why, size_t nwhy)
{
    if (why && nwhy) why[0] = 0;
    char *rp = gms_point_result_path(s, id);
    gms_pt_state st = GMS_PT_PENDING;
    if (!access(rp, F_OK)) {
        gms_error e = {0};
        gms_json *j = gms_point_result_read(rp, &e);
        if (!j) {
            st = GMS_PT_FAILED;
            if (why) snprintf(why, nwhy, "%s", e.msg);
        } else {
            if (strcmp(gms_json_get_str(j, "point_id", ""), id)) {
                /* not this point's result (collect does not store it either) */
                st = GMS_PT_FAILED;
                if (why) snprintf(why, nwhy, "%s: the file holds point %s, not %s", rp, gms_json_get_str(j, "point_id", "?"), id);
            } else {
                st = !strcmp(gms_json_get_str(j, "status", ""), "ok") ? GMS_PT_DONE : GMS_PT_FAILED;
                if (why && st == GMS_PT_FAILED) snprintf(why, nwhy, "%s", gms_json_get_str(j, "error", ""));
            }
            gms_json_free(j);
        }
    }
    free(rp);
    /* a point being re-run (e.g. a failed one) is running, whatever its old result says */
    char *mp = gms_point_marker_path(s, id);
    if (marker_live(mp, id)) st = GMS_PT_RUNNING;
    free(mp);
    return st;
}

int gms_write_atomic(const char *tmpdir, const char *dst, const char *text, size_t len, gms_error *err)
{
    const char *base = strrchr(dst, '/');
    base = base ? base + 1 : dst;
    gms_sbuf tmp = {0};
    gms_sbuf_printf(&tmp, "%s/%s.part", tmpdir, base);
    int fd = open(tmp.s, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) {
        gms_err(err, "%s: cannot create: %s", tmp.s, strerror(errno));
        gms_sbuf_free(&tmp);
        return -1;
    }
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(fd, text + off, len - off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            gms_err(err, "%s: write failed: %s", tmp.s, strerror(errno));
            close(fd);
            unlink(tmp.s);
            gms_sbuf_free(&tmp);
            return -1;
        }
        off += (size_t)w;
    }
    if (fsync(fd) || close(fd)) {
        gms_err(err, "%s: cannot write: %s", tmp.s, strerror(errno));
        unlink(tmp.s);
        gms_sbuf_free(&tmp);
        return -1;
    }
    if (rename(tmp.s, dst)) {
        gms_err(err, "cannot rename %s to %s: %s", tmp.s, dst, strerror(errno));
        unlink(tmp.s);
        gms_sbuf_free(&tmp);
        return -1;
    }
    gms_sbuf_free(&tmp);
    /* make the rename itself durable */
    char *dir = gms_path_dir(dst);
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) { (void)fsync(dfd); close(dfd); }
    free(dir);
    return 0;
}
