/* The decoded-trace cache: see trace_cache.h. File layout (inside one zstd frame, native byte
 * order, checked by the header's order mark):
 *   header: "GMSTRC1\n", u32 0x01020304, u32 FORMAT, u64 source size, i64 mtime s, i64 mtime
 *           ns, u32 nwarps, u64 nblocks, u32 path length, path bytes (the source's real path)
 *   block:  u32 TAG_BLOCK, u32 new opcode texts k, k x (u32 len, bytes), u32 x, y, z, nwarps,
 *           per warp u32 n, u32 naddr, n packed records (INST_BYTES each), naddr u64
 *   end:    u32 TAG_END, u64 blocks written */
#include "frontend/trace_cache.h"
#include "frontend/decompress.h"
#include "util/fnv.h"
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#define FORMAT 7u   /* 2 (2026-12-05): records carry GMS_INST_HALF_II for paired FP16; 3: Accel-Sim's
                       * classes for Kepler/Pascal branches (INT), uniform-datapath ops (UDP), Kepler's
                       * no-space loads/stores (MEM); 4: GMS_INST_MEMBAR; 5: GMS_INST_SRC_RZ; 6: MEMBAR
                       * is a MEM instruction with no space (the LDST unit's); 7 (2026-12-06): LDGSTS
                       * with .STRONG.GPU carries GMS_INST_BYPASS_L1 */
#define ORDER_MARK 0x01020304u
#define TAG_BLOCK 0x4b4c4231u   /* "1BLK" */
#define TAG_END 0x21444e45u     /* "END!" */
#define INST_BYTES 38u
#define RBUF (1u << 20)
#define MAX_TEXT 4096u
#define MAX_WARP_INSTS (1u << 28)

struct gms_tcache {
    char *path;              /* the published file */
    char *tmp;               /* writing: the file being written */
    int reading, failed, committed;
    uint32_t nwarps;
    uint64_t nblocks, blocks;
    /* reading */
    gms_instream *in;
    unsigned char *rb;
    size_t rb_n, rb_off;
    /* writing */
    FILE *out;
    ZSTD_CCtx *cz;
    unsigned char *wb, *zb;  /* staged block, compressed output */
    size_t wb_n, wb_cap, zb_cap;
    uint32_t ndyn_written;
};

/* one warning per process for a directory that cannot be used: a trace of a thousand kernel
 * files would otherwise say the same thing a thousand times */
static int warned_dir;

const char *gms_tcache_dir(void)
{
    const char *d = getenv("GMS_TRACE_CACHE");
    return d && *d ? d : NULL;
}

/* the identity of a source file: its real path, size and modification time */
typedef struct src_id {
    char path[4096];
    uint64_t size;
    int64_t mt_s, mt_ns;
} src_id;

static int source_id(const char *trace_path, src_id *id)
{
    struct stat st;
    if (stat(trace_path, &st)) return -1;
    if (!realpath(trace_path, id->path)) snprintf(id->path, sizeof id->path, "%s", trace_path);
    id->size = (uint64_t)st.st_size;
    id->mt_s = (int64_t)st.st_mtim.tv_sec;
    id->mt_ns = (int64_t)st.st_mtim.tv_nsec;
    return 0;
}

/* ---- writing ---- */

static void stage(gms_tcache *c, const void *p, size_t n)
{
    if (c->wb_n + n > c->wb_cap) {
        size_t cap = c->wb_cap ? c->wb_cap : (1u << 16);
        while (cap < c->wb_n + n) cap *= 2;
        c->wb = gms_xrealloc(c->wb, cap);
        c->wb_cap = cap;
    }
    memcpy(c->wb + c->wb_n, p, n);
    c->wb_n += n;
}
static void stage_u32(gms_tcache *c, uint32_t v) { stage(c, &v, 4); }
static void stage_u64(gms_tcache *c, uint64_t v) { stage(c, &v, 8); }

static void write_fail(gms_tcache *c, const char *what)
{
    if (!c->failed)
        fprintf(stderr, "gpumemsim: warning: trace cache %s: %s (%s); this kernel file is not cached\n", c->tmp,
                what, strerror(errno));
    c->failed = 1;
}

/* compress the staged bytes (mode ZSTD_e_end: and close the frame) to the file */
static void flush_stage(gms_tcache *c, ZSTD_EndDirective mode)
{
    if (c->failed) { c->wb_n = 0; return; }
    ZSTD_inBuffer in = {c->wb, c->wb_n, 0};
    for (;;) {
        ZSTD_outBuffer o = {c->zb, c->zb_cap, 0};
        size_t left = ZSTD_compressStream2(c->cz, &o, &in, mode);
        if (ZSTD_isError(left)) { errno = EIO; write_fail(c, ZSTD_getErrorName(left)); break; }
        if (o.pos && fwrite(c->zb, 1, o.pos, c->out) != o.pos) { write_fail(c, "write failed"); break; }
        if (mode == ZSTD_e_continue ? in.pos == in.size : left == 0) break;
    }
    c->wb_n = 0;
}

static int open_writer(gms_tcache *c, const src_id *id)
{
    static unsigned serial;
    size_t n = strlen(c->path) + 64;
    c->tmp = gms_xmalloc(n);
    snprintf(c->tmp, n, "%s.tmp.%ld.%u", c->path, (long)getpid(), serial++);
    c->out = fopen(c->tmp, "wb");
    if (!c->out) {
        if (!warned_dir++)
            fprintf(stderr, "gpumemsim: warning: trace cache: cannot create %s (%s); the trace is read without it\n",
                    c->tmp, strerror(errno));
        return -1;
    }
    c->cz = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(c->cz, ZSTD_c_compressionLevel, 1);
    ZSTD_CCtx_setParameter(c->cz, ZSTD_c_checksumFlag, 1);
    c->zb_cap = ZSTD_CStreamOutSize();
    c->zb = gms_xmalloc(c->zb_cap);
    stage(c, "GMSTRC1\n", 8);
    stage_u32(c, ORDER_MARK);
    stage_u32(c, FORMAT);
    stage_u64(c, id->size);
    stage_u64(c, (uint64_t)id->mt_s);
    stage_u64(c, (uint64_t)id->mt_ns);
    stage_u32(c, c->nwarps);
    stage_u64(c, c->nblocks);
    uint32_t plen = (uint32_t)strlen(id->path);
    stage_u32(c, plen);
    stage(c, id->path, plen);
    flush_stage(c, ZSTD_e_continue);
    return 0;
}

static void pack_inst(unsigned char *p, const gms_inst *in)
{
    memcpy(p, &in->pc, 4);
    memcpy(p + 4, &in->mask, 4);
    p[8] = in->op;
    p[9] = in->mem;
    p[10] = in->width;
    p[11] = in->flags;
    memcpy(p + 12, in->dst, GMS_MAX_DST);
    memcpy(p + 14, in->src, GMS_MAX_SRC);
    p[18] = in->addr_mode;
    p[19] = in->spec_unit;
    memcpy(p + 20, &in->opcode_id, 2);
    memcpy(p + 22, &in->base, 8);
    memcpy(p + 30, &in->stride, 8);
}

static void unpack_inst(const unsigned char *p, gms_inst *in)
{
    memcpy(&in->pc, p, 4);
    memcpy(&in->mask, p + 4, 4);
    in->op = p[8];
    in->mem = p[9];
    in->width = p[10];
    in->flags = p[11];
    memcpy(in->dst, p + 12, GMS_MAX_DST);
    memcpy(in->src, p + 14, GMS_MAX_SRC);
    in->addr_mode = p[18];
    in->spec_unit = p[19];
    memcpy(&in->opcode_id, p + 20, 2);
    memcpy(&in->base, p + 22, 8);
    memcpy(&in->stride, p + 30, 8);
}

void gms_tcache_write_block(gms_tcache *c, const gms_opcache *oc, const gms_block_trace *b)
{
    if (!c || c->reading || c->failed) return;
    stage_u32(c, TAG_BLOCK);
    stage_u32(c, oc->ndyn - c->ndyn_written);
    for (; c->ndyn_written < oc->ndyn; c->ndyn_written++) {
        const char *t = oc->dyn[c->ndyn_written];
        uint32_t len = (uint32_t)strlen(t);
        stage_u32(c, len);
        stage(c, t, len);
    }
    stage_u32(c, b->x);
    stage_u32(c, b->y);
    stage_u32(c, b->z);
    stage_u32(c, b->nwarps);
    for (uint32_t w = 0; w < b->nwarps; w++) {
        const gms_warp_trace *wt = &b->warps[w];
        stage_u32(c, wt->n);
        stage_u32(c, wt->naddr);
        unsigned char rec[INST_BYTES];
        for (uint32_t i = 0; i < wt->n; i++) {
            pack_inst(rec, &wt->insts[i]);
            stage(c, rec, INST_BYTES);
        }
        if (wt->naddr) stage(c, wt->addrs, (size_t)wt->naddr * 8);
    }
    c->blocks++;
    if (c->wb_n >= (1u << 20)) flush_stage(c, ZSTD_e_continue);
}

void gms_tcache_commit(gms_tcache *c)
{
    if (!c || c->reading || c->failed || c->committed) return;
    stage_u32(c, TAG_END);
    stage_u64(c, c->blocks);
    flush_stage(c, ZSTD_e_end);
    if (c->failed) return;
    if (fclose(c->out)) { c->out = NULL; write_fail(c, "close failed"); return; }
    c->out = NULL;
    if (rename(c->tmp, c->path)) { write_fail(c, "rename failed"); return; }
    c->committed = 1;
}

/* ---- reading ---- */

static int rd(gms_tcache *c, void *p, size_t n, gms_error *err)
{
    unsigned char *d = p;
    while (n) {
        if (c->rb_off == c->rb_n) {
            long got = gms_instream_read(c->in, c->rb, RBUF, err);
            if (got < 0) return -1;
            if (got == 0) return gms_err(err, "%s: the file ends early", c->path);
            c->rb_n = (size_t)got;
            c->rb_off = 0;
        }
        size_t k = c->rb_n - c->rb_off < n ? c->rb_n - c->rb_off : n;
        memcpy(d, c->rb + c->rb_off, k);
        c->rb_off += k;
        d += k;
        n -= k;
    }
    return 0;
}
static int rd_u32(gms_tcache *c, uint32_t *v, gms_error *err) { return rd(c, v, 4, err); }
static int rd_u64(gms_tcache *c, uint64_t *v, gms_error *err) { return rd(c, v, 8, err); }

/* 1 if the published file is of this source (its header read), 0 if not or unreadable */
static int open_reader(gms_tcache *c, const src_id *id)
{
    gms_error e = {0};
    if (access(c->path, R_OK)) return 0;
    c->in = gms_instream_open(c->path, &e);
    if (!c->in) return 0;
    c->rb = gms_xmalloc(RBUF);
    char magic[8];
    uint32_t mark, fmt, nw, plen;
    uint64_t size, s, ns, nb;
    char path[4096];
    if (gms_instream_kind(c->in) != GMS_STREAM_ZSTD || rd(c, magic, 8, &e) || memcmp(magic, "GMSTRC1\n", 8) ||
        rd_u32(c, &mark, &e) || mark != ORDER_MARK || rd_u32(c, &fmt, &e) || fmt != FORMAT ||
        rd_u64(c, &size, &e) || rd_u64(c, &s, &e) || rd_u64(c, &ns, &e) || rd_u32(c, &nw, &e) ||
        rd_u64(c, &nb, &e) || rd_u32(c, &plen, &e) || plen >= sizeof path || rd(c, path, plen, &e))
        return 0;
    path[plen] = 0;
    return size == id->size && (int64_t)s == id->mt_s && (int64_t)ns == id->mt_ns && nw == c->nwarps &&
           nb == c->nblocks && !strcmp(path, id->path);
}

/* -1 with err: the cache file is damaged (why: what was wrong) */
static int damaged(const gms_tcache *c, gms_error *err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int damaged(const gms_tcache *c, gms_error *err, const char *fmt, ...)
{
    char why[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    return gms_err(err, "trace cache %s is damaged (%s); delete it and run again", c->path, why);
}
#define DAMAGED(...) damaged(c, err, __VA_ARGS__)

int gms_tcache_read_block(gms_tcache *c, gms_opcache *oc, gms_block_trace *out, gms_error *err)
{
    uint32_t tag, k, xyz[3], nw;
    if (rd_u32(c, &tag, err) || rd_u32(c, &k, err)) return DAMAGED("%s", err->msg);
    if (tag != TAG_BLOCK) return DAMAGED("block %llu: bad record tag", (unsigned long long)c->blocks);
    for (uint32_t i = 0; i < k; i++) {
        uint32_t len;
        char text[MAX_TEXT + 1];
        if (rd_u32(c, &len, err)) return DAMAGED("%s", err->msg);
        if (len > MAX_TEXT) return DAMAGED("an opcode text of %u bytes", len);
        if (rd(c, text, len, err)) return DAMAGED("%s", err->msg);
        text[len] = 0;
        gms_opcache_push_dyn(oc, text);
    }
    if (rd(c, xyz, sizeof xyz, err) || rd_u32(c, &nw, err)) return DAMAGED("%s", err->msg);
    if (nw != c->nwarps) return DAMAGED("block %llu has %u warps, not %u", (unsigned long long)c->blocks, nw, c->nwarps);
    gms_block_trace_reset(out, nw);
    out->x = xyz[0];
    out->y = xyz[1];
    out->z = xyz[2];
    unsigned char rec[INST_BYTES];
    for (uint32_t w = 0; w < nw; w++) {
        gms_warp_trace *wt = &out->warps[w];
        uint32_t n, naddr;
        if (rd_u32(c, &n, err) || rd_u32(c, &naddr, err)) return DAMAGED("%s", err->msg);
        if (n > MAX_WARP_INSTS || (uint64_t)naddr > (uint64_t)n * 32)
            return DAMAGED("warp %u: %u records, %u addresses", w, n, naddr);
        if (n > wt->cap) {
            wt->insts = gms_xrealloc(wt->insts, (size_t)n * sizeof *wt->insts);
            wt->cap = n;
        }
        for (uint32_t i = 0; i < n;) {
            /* host speed: the records whole in the read buffer are unpacked in place */
            size_t whole = (c->rb_n - c->rb_off) / INST_BYTES;
            if (whole) {
                if (whole > n - i) whole = n - i;
                for (const unsigned char *q = c->rb + c->rb_off, *e = q + whole * INST_BYTES; q < e; q += INST_BYTES)
                    unpack_inst(q, &wt->insts[i++]);
                c->rb_off += whole * INST_BYTES;
                continue;
            }
            if (rd(c, rec, INST_BYTES, err)) return DAMAGED("%s", err->msg);
            unpack_inst(rec, &wt->insts[i++]);
        }
        wt->n = n;
        if (naddr) {
            if (rd(c, gms_warp_addrs_reserve(wt, naddr), (size_t)naddr * 8, err)) return DAMAGED("%s", err->msg);
            wt->naddr = naddr;
        }
    }
    c->blocks++;
    if (c->blocks == c->nblocks) {
        uint64_t nb;
        char extra;
        if (rd_u32(c, &tag, err) || tag != TAG_END || rd_u64(c, &nb, err) || nb != c->nblocks)
            return DAMAGED("no end record after the last block");
        gms_error e2 = {0};
        if (gms_instream_read(c->in, &extra, 1, &e2) != 0 || c->rb_off != c->rb_n)
            return DAMAGED("data after the end record");
    }
    return 1;
}

/* ---- open / close ---- */

gms_tcache *gms_tcache_open(const char *dir, const char *trace_path, uint32_t nwarps, uint64_t nblocks)
{
    src_id *id = gms_xcalloc(1, sizeof *id);
    if (source_id(trace_path, id)) { free(id); return NULL; }
    struct stat st;
    if (stat(dir, &st) && mkdir(dir, 0777) && errno != EEXIST) {
        if (!warned_dir++)
            fprintf(stderr, "gpumemsim: warning: trace cache: cannot create the directory %s (%s); the trace is "
                "read without it\n", dir, strerror(errno));
        free(id);
        return NULL;
    }
    gms_tcache *c = gms_xcalloc(1, sizeof *c);
    c->nwarps = nwarps;
    c->nblocks = nblocks;
    uint64_t h = GMS_FNV_OFFSET;
    uint32_t fmt = FORMAT;
    h = gms_fnv1a(h, &fmt, sizeof fmt);
    h = gms_fnv1a(h, id->path, strlen(id->path));
    h = gms_fnv1a(h, &id->size, sizeof id->size);
    h = gms_fnv1a(h, &id->mt_s, sizeof id->mt_s);
    h = gms_fnv1a(h, &id->mt_ns, sizeof id->mt_ns);
    size_t n = strlen(dir) + 40;
    c->path = gms_xmalloc(n);
    snprintf(c->path, n, "%s/%016llx.gmstc", dir, (unsigned long long)h);
    if (open_reader(c, id)) {
        c->reading = 1;
        free(id);
        return c;
    }
    if (c->in) gms_instream_close(c->in);
    c->in = NULL;
    c->rb_n = c->rb_off = 0;
    int rc = open_writer(c, id);
    free(id);
    if (rc) { gms_tcache_close(c); return NULL; }
    return c;
}

int gms_tcache_reading(const gms_tcache *c) { return c && c->reading; }
const char *gms_tcache_path(const gms_tcache *c) { return c ? c->path : NULL; }

void gms_tcache_close(gms_tcache *c)
{
    if (!c) return;
    if (c->in) gms_instream_close(c->in);
    if (c->out) fclose(c->out);
    if (c->tmp && !c->committed) unlink(c->tmp);
    ZSTD_freeCCtx(c->cz);
    free(c->rb);
    free(c->wb);
    free(c->zb);
    free(c->tmp);
    free(c->path);
    free(c);
}
