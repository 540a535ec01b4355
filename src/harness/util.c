/* Helpers for the sweep harness (see util.h). */
#include "harness/util.h"
#include "util/fnv.h"
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void gms_sbuf_addn(gms_sbuf *b, const char *s, size_t n)
{
    if (n > SIZE_MAX / 4 - b->n) {   /* the doubling below would overflow */
        fprintf(stderr, "gpumemsim: string buffer of %zu + %zu bytes\n", b->n, n);
        abort();
    }
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 64;
        while (cap < b->n + n + 1) cap *= 2;
        b->s = gms_xrealloc(b->s, cap);
        b->cap = cap;
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = 0;
}

void gms_sbuf_add(gms_sbuf *b, const char *s) { gms_sbuf_addn(b, s, strlen(s)); }

void gms_sbuf_printf(gms_sbuf *b, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n < sizeof tmp) { gms_sbuf_addn(b, tmp, (size_t)n); return; }
    char *big = gms_xmalloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    gms_sbuf_addn(b, big, (size_t)n);
    free(big);
}

void gms_sbuf_free(gms_sbuf *b) { free(b->s); b->s = NULL; b->n = b->cap = 0; }
const char *gms_sbuf_str(const gms_sbuf *b) { return b->s ? b->s : ""; }

char *gms_read_file(const char *path, size_t *len, gms_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) { gms_err(err, "%s: cannot open: %s", path, strerror(errno)); return NULL; }
    gms_sbuf b = {0};
    char buf[65536];
    size_t r;
    while ((r = fread(buf, 1, sizeof buf, f)) > 0) gms_sbuf_addn(&b, buf, r);
    int bad = ferror(f);
    fclose(f);
    if (bad) { gms_sbuf_free(&b); gms_err(err, "%s: read error", path); return NULL; }
    if (!b.s) gms_sbuf_addn(&b, "", 0);
    if (len) *len = b.n;
    return b.s;
}

int gms_mkdirs(const char *path, gms_error *err)
{
    char *p = gms_xstrdup(path);
    for (char *c = p + 1; ; c++) {
        if (*c == '/' || !*c) {
            char save = *c;
            *c = 0;
            if (mkdir(p, 0777) && errno != EEXIST) {
                gms_err(err, "%s: cannot create directory: %s", p, strerror(errno));
                free(p);
                return -1;
            }
            *c = save;
            if (!save) break;
        }
    }
    free(p);
    struct stat st;
    if (stat(path, &st) || !S_ISDIR(st.st_mode)) return gms_err(err, "%s: not a directory", path);
    return 0;
}

char *gms_path_join(const char *dir, const char *name)
{
    if (name[0] == '/' || !dir || !*dir || !strcmp(dir, ".")) return gms_xstrdup(name);
    size_t n = strlen(dir) + strlen(name) + 2;
    char *s = gms_xmalloc(n);
    snprintf(s, n, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", name);
    return s;
}

char *gms_path_dir(const char *path)
{
    const char *sl = strrchr(path, '/');
    if (!sl) return gms_xstrdup(".");
    if (sl == path) return gms_xstrdup("/");
    char *d = gms_xmalloc((size_t)(sl - path) + 1);
    memcpy(d, path, (size_t)(sl - path));
    d[sl - path] = 0;
    return d;
}

char *gms_path_stem(const char *path)
{
    const char *sl = strrchr(path, '/');
    const char *base = sl ? sl + 1 : path;
    char *s = gms_xstrdup(base);
    char *dot = strrchr(s, '.');
    if (dot && dot != s) *dot = 0;
    return s;
}

char *gms_path_abs(const char *path)
{
    if (path[0] == '/') return gms_xstrdup(path);
    char cwd[4096];
    if (!getcwd(cwd, sizeof cwd)) return gms_xstrdup(path);
    const char *p = path;
    while (p[0] == '.' && p[1] == '/') p += 2;
    if (!strcmp(p, ".")) return gms_xstrdup(cwd);
    return gms_path_join(cwd, p);
}

char *gms_which(const char *prog)
{
    if (strchr(prog, '/')) return access(prog, X_OK) ? NULL : gms_xstrdup(prog);
    const char *path = getenv("PATH");
    if (!path) path = "/usr/bin:/bin";
    while (*path) {
        const char *e = strchr(path, ':');
        size_t n = e ? (size_t)(e - path) : strlen(path);
        gms_sbuf b = {0};
        gms_sbuf_addn(&b, n ? path : ".", n ? n : 1);
        gms_sbuf_add(&b, "/");
        gms_sbuf_add(&b, prog);
        struct stat st;
        if (!stat(b.s, &st) && S_ISREG(st.st_mode) && !access(b.s, X_OK)) return b.s;
        gms_sbuf_free(&b);
        if (!e) break;
        path = e + 1;
    }
    return NULL;
}

uint64_t gms_hash_bytes(uint64_t h, const void *p, size_t n)
{
    return gms_fnv1a(h, p, n);
}

uint64_t gms_hash_final(uint64_t h)
{
    h ^= h >> 33; h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33; h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

void gms_hostname(char *buf, size_t n)
{
    if (gethostname(buf, n)) snprintf(buf, n, "unknown");
    buf[n - 1] = 0;
}

double gms_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

void gms_iso_time(double t, char *buf, size_t n)
{
    time_t s = (time_t)t;
    struct tm tm;
    gmtime_r(&s, &tm);
    strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void gms_shell_quote(gms_sbuf *b, const char *s)
{
    int plain = *s != 0;
    for (const char *c = s; *c && plain; c++)
        plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=./:,@%", *c) != NULL;
    if (plain) { gms_sbuf_add(b, s); return; }
    gms_sbuf_add(b, "'");
    for (; *s; s++) {
        if (*s == '\'') gms_sbuf_add(b, "'\\''");
        else gms_sbuf_addn(b, s, 1);
    }
    gms_sbuf_add(b, "'");
}

void gms_fmt_duration(double s, char *buf, size_t n)
{
    if (s < 0 || s != s) s = 0;
    long t = (long)(s + 0.5);
    if (t >= 3600) snprintf(buf, n, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else snprintf(buf, n, "%ld:%02ld", t / 60, t % 60);
}

int gms_usable_cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    cpu_set_t cs;
    if (sched_getaffinity(0, sizeof cs, &cs) == 0) n = CPU_COUNT(&cs);
    return n < 1 ? 1 : n > 4096 ? 4096 : (int)n;
}
