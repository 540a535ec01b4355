#include "test.h"
#include "test_trace_util.h"
#include "frontend/trace.h"
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int on_block(void *ud, const gms_kernel_src *k, uint64_t block, const gms_block_trace *b)
{
    recorder *r = ud;
    if (block == 0 || k->self != r->last_self) {
        if (r->nk < 64) {
            rec_kernel *rk = &r->k[r->nk];
            snprintf(rk->name, sizeof rk->name, "%s", k->name);
            rk->grid = k->grid;
            rk->block = k->block;
            rk->shmem = k->shmem_bytes;
            rk->regs = k->regs_per_thread;
            rk->stream = k->stream;
        }
        r->nk++;
        r->last_self = k->self;
    }
    for (uint32_t w = 0; w < b->nwarps; w++)
        for (uint32_t i = 0; i < b->warps[w].n; i++) {
            if (r->n == r->cap) {
                r->cap = r->cap ? r->cap * 2 : 256;
                r->v = realloc(r->v, r->cap * sizeof *r->v);
            }
            rec_inst *ri = &r->v[r->n++];
            memset(ri, 0, sizeof *ri);
            ri->in = b->warps[w].insts[i];
            gms_inst_lane_addrs(&b->warps[w], &ri->in, ri->lanes);
            ri->kernel = (uint32_t)(r->nk - 1);
            ri->warp = w;
            ri->block = block;
            ri->bx = b->x;
            ri->by = b->y;
            ri->bz = b->z;
        }
    return 0;
}

int rec_collect_src(gms_program_src *src, recorder *r, gms_error *err)
{
    memset(r, 0, sizeof *r);
    return gms_program_walk(src, &r->st, on_block, r, err);
}

int rec_collect(const char *kernelslist, recorder *r, gms_error *err)
{
    gms_program_src src;
    memset(r, 0, sizeof *r);
    if (gms_trace_program(kernelslist, &src, err)) return -1;
    int rc = rec_collect_src(&src, r, err);
    src.destroy(src.self);
    return rc;
}

void rec_free(recorder *r)
{
    free(r->v);
    memset(r, 0, sizeof *r);
}

static void compact(const uint8_t *s, uint8_t *o)
{
    int k = 0;
    for (int i = 0; i < GMS_MAX_SRC; i++) o[i] = GMS_REG_NONE;
    for (int i = 0; i < GMS_MAX_SRC; i++)
        if (s[i] != GMS_REG_NONE) o[k++] = s[i];
}

int rec_compare(const recorder *a, const recorder *b, int ignore_opcode)
{
    if (a->n != b->n) { printf("    record counts differ: %zu vs %zu\n", a->n, b->n); return 1; }
    if (a->nk != b->nk) { printf("    kernel counts differ: %zu vs %zu\n", a->nk, b->nk); return 1; }
    for (size_t i = 0; i < a->n; i++) {
        const rec_inst *x = &a->v[i], *y = &b->v[i];
        const gms_inst *p = &x->in, *q = &y->in;
        uint8_t sx[GMS_MAX_SRC], sy[GMS_MAX_SRC];
        compact(p->src, sx);
        compact(q->src, sy);
        const char *what = NULL;
        if (x->kernel != y->kernel || x->block != y->block || x->warp != y->warp) what = "position";
        else if (x->bx != y->bx || x->by != y->by || x->bz != y->bz) what = "block index";
        else if (p->pc != q->pc) what = "pc";
        else if (p->mask != q->mask) what = "mask";
        else if (p->op != q->op) what = "op";
        else if (p->mem != q->mem) what = "mem";
        else if (p->width != q->width) what = "width";
        else if (p->flags != q->flags) what = "flags";
        else if (memcmp(p->dst, q->dst, sizeof p->dst)) what = "dst";   /* every destination */
        else if (memcmp(sx, sy, sizeof sx)) what = "src";
        else if (p->spec_unit != q->spec_unit) what = "spec_unit";
        else if (!ignore_opcode && p->opcode_id != q->opcode_id) what = "opcode_id";
        else if ((p->addr_mode == GMS_ADDR_NONE) != (q->addr_mode == GMS_ADDR_NONE)) what = "addr_mode";
        else if (memcmp(x->lanes, y->lanes, sizeof x->lanes)) what = "lane addresses";
        if (what) {
            printf("    record %zu (kernel %u block %llu warp %u pc %x): %s differs (op %u/%u mem %u/%u)\n", i,
                   x->kernel, (unsigned long long)x->block, x->warp, p->pc, what, p->op, q->op, p->mem, q->mem);
            return 1;
        }
    }
    return 0;
}

int write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fputs(text, f);
    return fclose(f);
}

int walk_one_kernel(const char *kernel_text, gms_block_fn fn, void *ud, char *msg, size_t cap)
{
    char dir[256], p[512], k[512];
    make_tmpdir(dir, sizeof dir);
    snprintf(p, sizeof p, "%s/kernelslist.g", dir);
    snprintf(k, sizeof k, "%s/kernel-1.traceg", dir);
    msg[0] = 0;
    if (write_file(p, "kernel-1.traceg\n") || write_file(k, kernel_text)) { snprintf(msg, cap, "cannot write %s", dir); return -1; }
    gms_program_src src;
    gms_error err = {0};
    if (gms_trace_program(p, &src, &err)) { snprintf(msg, cap, "%s", err.msg); return -1; }
    gms_trace_stats st;
    int rc = gms_program_walk(&src, &st, fn, ud, &err);
    src.destroy(src.self);
    if (rc) snprintf(msg, cap, "%s", err.msg);
    return rc ? -1 : 0;
}

/* every directory make_tmpdir made, removed with what is in it when the test binary exits
 * (also after a failed REQUIRE returned early from a test) */
static char **tmpdirs;
static size_t ntmpdirs;

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

void rm_tree(const char *dir)
{
    nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void rm_tmpdirs(void)
{
    for (size_t i = 0; i < ntmpdirs; i++) {
        rm_tree(tmpdirs[i]);   /* a test may have removed it already: nothing happens */
        free(tmpdirs[i]);
    }
    free(tmpdirs);
    tmpdirs = NULL;
    ntmpdirs = 0;
}

void make_tmpdir(char *buf, size_t n)
{
    snprintf(buf, n, "/tmp/gms_trace_test_XXXXXX");
    if (!mkdtemp(buf)) {
        buf[0] = 0;
        return;
    }
    char **t = realloc(tmpdirs, (ntmpdirs + 1) * sizeof *t);
    char *d = strdup(buf);
    if (!t || !d) {
        free(d);
        if (t) tmpdirs = t;
        return;   /* the directory stays behind; the test itself is unaffected */
    }
    static int registered;
    if (!registered) registered = !atexit(rm_tmpdirs);
    tmpdirs = t;
    tmpdirs[ntmpdirs++] = d;
}

const char *data_path(const char *rel, char *buf, size_t n)
{
    const char *root = getenv("GMS_SRC_DIR");
    snprintf(buf, n, "%s%s%s", root ? root : "", root ? "/" : "", rel);
    return buf;
}
