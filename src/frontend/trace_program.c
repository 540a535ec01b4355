/* gms_trace_program: a kernelslist.g replayed as a program. The list is read and checked up
 * front (every line understood, every kernel file present); kernel headers are read when
 * their launch is pushed, blocks when they are dispatched. Launches are pushed in batches;
 * the GPU starts a traced kernel when no other runs unless -gpgpu_concurrent_kernel_sm, as
 * Accel-Sim's trace driver (src/core/gpu.c run_commands). */
#include "frontend/trace.h"
#include "frontend/trace_kernel.h"
#include "frontend/trace_lines.h"
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#define LAUNCH_BATCH 64

typedef enum { TC_H2D, TC_D2H, TC_KERNEL } tc_kind;
typedef struct { tc_kind kind; uint64_t addr, bytes; char *path; int line; } tcmd;

typedef struct trace_prog {
    char *list;
    tcmd *cmds;
    size_t n, cap, next;
    uint64_t *streams;    /* raw stream ids in order of first appearance -> index */
    size_t nstreams;
} trace_prog;

static void prog_free(trace_prog *t)
{
    for (size_t i = 0; i < t->n; i++) free(t->cmds[i].path);
    free(t->cmds);
    free(t->streams);
    free(t->list);
    free(t);
}

static void destroy(void *self) { prog_free(self); }

static int stream_index(trace_prog *t, uint64_t raw)
{
    for (size_t i = 0; i < t->nstreams; i++)
        if (t->streams[i] == raw) return (int)i;
    t->streams = gms_xrealloc(t->streams, (t->nstreams + 1) * sizeof *t->streams);
    t->streams[t->nstreams] = raw;
    return (int)t->nstreams++;
}

static int next(void *self, gms_program *prog, gms_error *err)
{
    trace_prog *t = self;
    if (t->next == t->n) return 0;
    int launches = 0;
    while (t->next < t->n && launches < LAUNCH_BATCH) {
        tcmd *c = &t->cmds[t->next++];
        if (c->kind == TC_H2D) { gms_prog_copy_h2d(prog, c->addr, c->bytes); continue; }
        if (c->kind == TC_D2H) { gms_prog_copy_d2h(prog, c->addr, c->bytes); continue; }
        gms_trace_kernel *k = gms_trace_kernel_open(c->path, err);
        if (!k) return -1;
        gms_kernel_src ks;
        gms_trace_kernel_src(k, stream_index(t, gms_trace_kernel_hdr(k)->stream), &ks);
        gms_prog_launch(prog, &ks);
        launches++;
    }
    return 1;
}

static int file_exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t') s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t')) s[--n] = 0;
    return s;
}

/* 0, -1 (not a number) or -2 (more than 64 bits) */
static int parse_hex(const char *s, uint64_t *v)
{
    char *end;
    if (!*s || *s == '-' || *s == '+' || *s == ' ') return -1;
    errno = 0;
    *v = strtoull(s, &end, 16);
    return *end ? -1 : errno == ERANGE ? -2 : 0;
}

static int parse_dec(const char *s, uint64_t *v)
{
    char *end;
    if (!*s || *s < '0' || *s > '9') return -1;
    errno = 0;
    *v = strtoull(s, &end, 10);
    return *end ? -1 : errno == ERANGE ? -2 : 0;
}

/* a copy larger than any device memory is a damaged line, not a copy to simulate */
#define MAX_COPY_BYTES (1ULL << 40)

static tcmd *add(trace_prog *t, tc_kind kind, int line)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 16;
        t->cmds = gms_xrealloc(t->cmds, t->cap * sizeof *t->cmds);
    }
    tcmd *c = &t->cmds[t->n++];
    memset(c, 0, sizeof *c);
    c->kind = kind;
    c->line = line;
    return c;
}

static int parse_memcpy(trace_prog *t, char *s, int line, gms_error *err)
{
    char *f[4];
    int nf = 0;
    for (char *p = s; nf < 4; ) {
        f[nf++] = p;
        char *c = strchr(p, ',');
        if (!c) break;
        *c = 0;
        p = c + 1;
    }
    if (nf != 3)
        return gms_err_at(err, t->list, line, "%s: expected 3 comma-separated fields "
                          "(%s,<hex device address>,<bytes>), got %d", f[0], f[0], nf);
    uint64_t a, b;
    int ra = parse_hex(trim(f[1]), &a), rb = parse_dec(trim(f[2]), &b);
    if (ra)
        return gms_err_at(err, t->list, line, "%s: field 2 (address) '%s' is %s", f[0], f[1],
                          ra == -2 ? "more than 64 bits" : "not a hex address");
    if (rb)
        return gms_err_at(err, t->list, line, "%s: field 3 (bytes) '%s' is %s", f[0], f[2],
                          rb == -2 ? "more than 64 bits" : "not a decimal count");
    if (b > MAX_COPY_BYTES)
        return gms_err_at(err, t->list, line, "%s: field 3 (bytes) %llu is more than 1 TiB", f[0], (unsigned long long)b);
    if (b > UINT64_MAX - a)
        return gms_err_at(err, t->list, line, "%s: 0x%llx + %llu bytes runs past the end of the address space", f[0],
                          (unsigned long long)a, (unsigned long long)b);
    tcmd *c = add(t, !strcmp(f[0], "MemcpyHtoD") ? TC_H2D : TC_D2H, line);
    c->addr = a;
    c->bytes = b;
    return 0;
}

static int add_kernel(trace_prog *t, const char *dir, const char *name, int line, gms_error *err)
{
    size_t need = strlen(dir) + strlen(name) + 8;
    char *path = gms_xmalloc(need);
    if (name[0] == '/' || !dir[0]) snprintf(path, need, "%s", name);
    else snprintf(path, need, "%s/%s", dir, name);
    if (!file_exists(path)) {
        /* a kernel file compressed after the list was written, or decompressed (or
         * recompressed) after a list that names it compressed: the same stem with .xz, .zst
         * or no suffix */
        static const char *const ext[3] = {".xz", ".zst", ""};
        size_t stem = strlen(path);
        for (int i = 0; i < 2; i++) {
            size_t el = strlen(ext[i]);
            if (stem > el && !strcmp(path + stem - el, ext[i])) { stem -= el; break; }
        }
        int found = 0;
        for (int i = 0; i < 3 && !found; i++) {
            char *alt = gms_xmalloc(stem + 5);
            snprintf(alt, stem + 5, "%.*s%s", (int)stem, path, ext[i]);
            if (strcmp(alt, path) && file_exists(alt)) { free(path); path = alt; found = 1; }
            else free(alt);
        }
        struct stat st;
        if (!found && stat(path, &st) == 0) {   /* there, but not a regular file (a directory, a FIFO) */
            gms_err_at(err, t->list, line, "kernel trace file '%s' is not a regular file", path);
            free(path);
            return -1;
        }
        if (!found) {
            gms_err_at(err, t->list, line, "kernel trace file '%s' not found (also tried it with .xz, .zst or no compression suffix)", path);
            free(path);
            return -1;
        }
    }
    add(t, TC_KERNEL, line)->path = path;
    return 0;
}

int gms_trace_program(const char *kernelslist, gms_program_src *out, gms_error *err)
{
    gms_linereader lr;
    if (gms_lr_open(&lr, kernelslist, err)) return -1;
    trace_prog *t = gms_xcalloc(1, sizeof *t);
    t->list = gms_xstrdup(kernelslist);
    char *dir = gms_xstrdup(kernelslist);
    char *slash = strrchr(dir, '/');
    if (slash) *slash = 0; else dir[0] = 0;
    char *line;
    size_t len;
    int r = 0, rc = 0;
    /* lines Accel-Sim skips: the first one's number and text, and how many */
    int skip_ln = 0;
    size_t nskip = 0;
    char skip_txt[64] = "";
    while (rc == 0 && (r = gms_lr_next(&lr, &line, &len, err)) == 1) {
        char *s = trim(line);
        int ln = gms_lr_line(&lr);
        if (!*s || s[0] == '#') continue;
        if (!strncmp(s, "MemcpyHtoD", 10) || !strncmp(s, "MemcpyDtoH", 10)) {
            if (s[10] != ',')
                rc = gms_err_at(err, kernelslist, ln, "expected %.10s,<hex address>,<bytes>, got '%.60s'", s, s);
            else rc = parse_memcpy(t, s, ln, err);
        } else if (strncmp(s, "kernel", 6) && s[0] != '/') {
            /* Accel-Sim's trace_parser::parse_commandlist_file launches the lines that start
             * with "kernel" and copies those with "MemcpyHtoD"; it skips every other line (its
             * MemcpyDtoH too, which we count or time, docs/traces.md). So do we, and say so;
             * an absolute path is ours to run (Accel-Sim would run nothing for it). */
            if (!nskip++) {
                skip_ln = ln;
                snprintf(skip_txt, sizeof skip_txt, "%.60s", s);
            }
        } else if (strchr(s, ',') || strchr(s, ' ')) {
            rc = gms_err_at(err, kernelslist, ln, "not a kernel trace file name nor a MemcpyHtoD line: '%.60s'", s);
        } else {
            rc = add_kernel(t, dir, s, ln, err);
        }
    }
    if (rc == 0 && r < 0) rc = -1;
    if (rc == 0 && nskip) {
        char more[48] = "";
        if (nskip > 1) snprintf(more, sizeof more, " and %zu more line%s", nskip - 1, nskip > 2 ? "s" : "");
        fprintf(stderr, "gpumemsim: warning: %s:%d: skipped '%s'%s: Accel-Sim runs only the lines that start with "
                "'kernel' (a trace file, relative to the list's directory) or 'MemcpyHtoD' and skips the others "
                "(gpumemsim also runs absolute paths)\n",
                kernelslist, skip_ln, skip_txt, more);
    }
    /* a list without a kernel or copy (an empty file, the wrong file) would "run" in 0 cycles */
    if (rc == 0 && t->n == 0)
        rc = gms_err(err, "%s: no kernel trace file and no MemcpyHtoD line (an empty kernelslist?)", kernelslist);
    gms_lr_close(&lr);
    free(dir);
    if (rc) { prog_free(t); return -1; }
    out->next = next;
    out->destroy = destroy;
    out->self = t;
    return 0;
}
