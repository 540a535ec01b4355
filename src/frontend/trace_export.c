/* gms_trace_export: run a built-in workload functionally (every block in order, like
 * gms_workload_run_functional) and write what it emits as an Accel-Sim trace directory. */
#include "frontend/warp_refill.h"
#include "frontend/trace.h"
#include "frontend/trace_kernel.h"
#include "frontend/trace_write.h"
#include "workloads/workload.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <dirent.h>
#include <unistd.h>

#define FLUSH_AT (4u << 20)

static const char *kernel_opcode_text(const void *ud, uint16_t id)
{
    return gms_trace_kernel_opcode_text(ud, id);
}

static int flush(gms_tw_buf *b, FILE *f, const char *path, gms_error *err)
{
    if (b->n && fwrite(b->p, 1, b->n, f) != b->n)
        return gms_err(err, "%s: write failed: %s", path, strerror(errno));
    b->n = 0;
    return 0;
}

static int write_kernel(gms_kernel_src *k, const char *path, int id, int version, gms_tw_buf *b,
                        gms_block_trace *bt, gms_error *err)
{
    FILE *f = fopen(path, "w");
    if (!f) return gms_err(err, "%s: cannot create: %s", path, strerror(errno));
    int traced = k->fill_block == gms_trace_kernel_fill;
    gms_opcode_resolver res = traced ? kernel_opcode_text : NULL;
    b->n = 0;
    gms_tw_header(b, k, id, version,
                  traced ? gms_trace_kernel_hdr(k->self)->binary_version : GMS_TRACE_BINARY_VERSION);
    uint64_t nb = gms_dim3_count(k->grid);
    uint32_t nw = (uint32_t)((gms_dim3_count(k->block) + 31) / 32);
    int rc = 0;
    for (uint64_t i = 0; i < nb && rc == 0; i++) {
        gms_block_trace_reset(bt, nw);
        bt->x = (uint32_t)(i % k->grid.x);
        bt->y = (uint32_t)(i / k->grid.x % k->grid.y);
        bt->z = (uint32_t)(i / ((uint64_t)k->grid.x * k->grid.y));
        rc = gms_block_fill_all(k, i, bt, err);
        if (rc == 0) rc = gms_tw_block(b, bt, res, k->self, err);
        if (rc == 0 && b->n >= FLUSH_AT) rc = flush(b, f, path, err);
    }
    if (rc == 0) rc = flush(b, f, path, err);
    if (fclose(f) && rc == 0) rc = gms_err(err, "%s: write failed: %s", path, strerror(errno));
    return rc;
}

/* mkdir -p */
static int make_dirs(const char *dir)
{
    char *p = gms_xstrdup(dir);
    int rc = 0;
    for (char *c = p + 1; *c && rc == 0; c++)
        if (*c == '/') {
            *c = 0;
            if (mkdir(p, 0777) && errno != EEXIST) rc = -1;
            *c = '/';
        }
    if (rc == 0 && mkdir(p, 0777) && errno != EEXIST) rc = -1;
    free(p);
    return rc;
}

/* Write `src` into `dir` (an empty directory of our own): kernelslist.g and kernel-N.traceg. */
static int write_program_into(gms_program_src *src, const char *dir, int uvm, int prefetch, int version,
                              int keep_d2h, gms_error *err)
{
    size_t plen = strlen(dir) + 32;
    char *path = gms_xmalloc(plen);
    snprintf(path, plen, "%s/kernelslist.g", dir);
    FILE *list = fopen(path, "w");
    if (!list) {
        gms_err(err, "%s: cannot create: %s", path, strerror(errno));
        free(path);
        return -1;
    }
    gms_program prog;
    gms_program_init(&prog);
    prog.uvm = uvm;
    prog.prefetch = prefetch;
    gms_block_trace bt = {0};
    gms_tw_buf b = {0};
    int rc = 0, kid = 0;
    for (;;) {
        int r = src->next(src->self, &prog, err);
        if (r < 0) { rc = -1; break; }
        gms_cmd *c;
        while (rc == 0 && (c = gms_prog_pop(&prog))) {
            if (c->kind == GMS_CMD_COPY_H2D || (c->kind == GMS_CMD_COPY_D2H && keep_d2h)) {
                fprintf(list, "%s,0x%016llx,%llu\n", c->kind == GMS_CMD_COPY_H2D ? "MemcpyHtoD" : "MemcpyDtoH",
                        (unsigned long long)c->addr, (unsigned long long)c->bytes);
                continue;
            }
            if (c->kind != GMS_CMD_LAUNCH) continue;   /* allocations, syncs: not in the format */
            kid++;
            snprintf(path, plen, "%s/kernel-%d.traceg", dir, kid);
            rc = write_kernel(&c->kernel, path, kid, version, &b, &bt, err);
            if (rc == 0) fprintf(list, "kernel-%d.traceg\n", kid);
            if (c->kernel.release) c->kernel.release(c->kernel.self);
            c->kernel.release = NULL;
        }
        if (rc || r == 0) break;
    }
    snprintf(path, plen, "%s/kernelslist.g", dir);
    if ((ferror(list) | fclose(list)) && rc == 0) rc = gms_err(err, "%s: write failed", path);
    gms_tw_buf_free(&b);
    gms_block_trace_free(&bt);
    gms_program_free(&prog);
    free(path);
    return rc;
}

/* A staged write: the trace goes into a fresh directory inside `outdir` (same file system, so
 * the final renames cannot fail for lack of room or cross a device) and moves into `outdir`
 * only when the whole of it was written; a failed write leaves `outdir` as it was (and
 * removes it again when this write created it). */
typedef struct stage { char *tmp; const char *out; int created; } stage;

static int stage_begin(stage *st, const char *outdir, gms_error *err)
{
    struct stat sb;
    memset(st, 0, sizeof *st);
    st->out = outdir;
    if (stat(outdir, &sb) == 0) {
        if (!S_ISDIR(sb.st_mode)) return gms_err(err, "%s: not a directory", outdir);
    } else {
        if (make_dirs(outdir)) return gms_err(err, "%s: cannot create directory: %s", outdir, strerror(errno));
        st->created = 1;
    }
    size_t n = strlen(outdir) + 32;
    st->tmp = gms_xmalloc(n);
    snprintf(st->tmp, n, "%s/.gms-partial-XXXXXX", outdir);
    if (!mkdtemp(st->tmp)) {
        int e = errno;
        free(st->tmp);
        st->tmp = NULL;
        if (st->created) rmdir(outdir);
        return gms_err(err, "%s: cannot create a temporary directory in it: %s", outdir, strerror(e));
    }
    return 0;
}

static void stage_discard(stage *st)
{
    if (st->tmp) {
        DIR *d = opendir(st->tmp);
        if (d) {
            struct dirent *e;
            size_t n = strlen(st->tmp) + 300;
            char *p = gms_xmalloc(n);
            while ((e = readdir(d)))
                if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
                    snprintf(p, n, "%s/%s", st->tmp, e->d_name);
                    unlink(p);
                }
            closedir(d);
            free(p);
        }
        rmdir(st->tmp);
        free(st->tmp);
        st->tmp = NULL;
    }
    if (st->created) rmdir(st->out);
}

/* kernel files first, kernelslist.g last: until the list moves, the old trace stays whole */
static int stage_commit(stage *st, gms_error *err)
{
    DIR *d = opendir(st->tmp);
    if (!d) { int e = errno; stage_discard(st); return gms_err(err, "%s: cannot read: %s", st->out, strerror(e)); }
    size_t n = strlen(st->tmp) + strlen(st->out) + 300;
    char *from = gms_xmalloc(n), *to = gms_xmalloc(n);
    int rc = 0;
    struct dirent *e;
    for (int pass = 0; pass < 2 && rc == 0; pass++) {
        rewinddir(d);
        while (rc == 0 && (e = readdir(d))) {
            int list = !strcmp(e->d_name, "kernelslist.g");
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") || list != (pass == 1)) continue;
            snprintf(from, n, "%s/%s", st->tmp, e->d_name);
            snprintf(to, n, "%s/%s", st->out, e->d_name);
            if (rename(from, to)) rc = gms_err(err, "%s: cannot move into place: %s", to, strerror(errno));
        }
    }
    closedir(d);
    free(from);
    free(to);
    if (rc) { st->created = 0; stage_discard(st); return rc; }
    rmdir(st->tmp);
    free(st->tmp);
    st->tmp = NULL;
    return 0;
}

/* write, check (`check`, when given, before anything moves into place), commit */
static int write_program_checked(gms_program_src *src, const char *outdir, int version, int uvm, int prefetch,
                                 int keep_d2h, int (*check)(void *, gms_error *), void *ud, gms_error *err)
{
    if (version != 4 && version != 5) return gms_err(err, "trace export: --version must be 4 or 5, got %d", version);
    stage st;
    if (stage_begin(&st, outdir, err)) return -1;
    int rc = write_program_into(src, st.tmp, uvm, prefetch, version, keep_d2h, err);
    if (rc == 0 && check) rc = check(ud, err);
    if (rc) { stage_discard(&st); return rc; }
    return stage_commit(&st, err);
}

int gms_trace_write_program(gms_program_src *src, const char *outdir, int version, int uvm, int prefetch,
                            int keep_d2h, gms_error *err)
{
    return write_program_checked(src, outdir, version, uvm, prefetch, keep_d2h, NULL, NULL, err);
}

typedef struct verify_ctx { const struct gms_workload_ops *ops; void *st; } verify_ctx;

static int verify_workload(void *ud, gms_error *err)
{
    verify_ctx *v = ud;
    /* the emitted addresses come from a computation that went wrong */
    return v->ops->verify ? v->ops->verify(v->st, err) : 0;
}

int gms_trace_export_ops(const struct gms_workload_ops *ops, const char *const *wl_params, uint64_t seed,
                         const char *outdir, int version, gms_error *err)
{
    gms_wl_args *a = NULL;
    if (gms_wl_args_parse(ops, wl_params, seed, &a, err)) return -1;
    gms_program_src src;
    void *st = NULL;
    if (gms_workload_program(ops, a, &src, &st, err)) { gms_wl_args_free(a); return -1; }
    /* no MemcpyDtoH lines: Accel-Sim's tracer writes none */
    verify_ctx v = { ops, st };
    int rc = write_program_checked(&src, outdir, version, gms_wl_uvm(a), gms_wl_prefetch(a), 0,
                                   verify_workload, &v, err);
    /* the format has no line for a managed allocation or a prefetch (docs/traces.md): the
     * trace is written (its kernels are the workload's), with one line naming what it lost */
    if (rc == 0 && (gms_wl_uvm(a) || gms_wl_prefetch(a)))
        fprintf(stderr, "gpumemsim: warning: trace export: %s: the Accel-Sim trace format has no line for %s; "
                "the trace has the kernels only and replays as device memory%s\n", outdir,
                gms_wl_prefetch(a) && gms_wl_uvm(a) ? "managed allocations (uvm=1) or prefetches (prefetch=1)"
                : gms_wl_uvm(a) ? "managed allocations (uvm=1)" : "prefetches (prefetch=1)",
                gms_wl_uvm(a) ? " without the copies uvm=1 left out" : "");
    src.destroy(src.self);
    ops->destroy(st);
    gms_wl_args_free(a);
    return rc;
}

int gms_trace_export(const char *workload, const char *const *wl_params, uint64_t seed,
                     const char *outdir, int version, gms_error *err)
{
    const gms_workload_ops *ops = gms_workload_find(workload);
    if (!ops) {
        char known[1024] = "";
        for (size_t i = 0, n = gms_workload_count(); i < n; i++) {
            strncat(known, i ? " " : "", sizeof known - strlen(known) - 1);
            strncat(known, gms_workload_at(i)->name, sizeof known - strlen(known) - 1);
        }
        return gms_err(err, "trace export: unknown workload '%s' (known: %s)", workload,
                       known[0] ? known : "none");
    }
    return gms_trace_export_ops(ops, wl_params, seed, outdir, version, err);
}
