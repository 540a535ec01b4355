#include "frontend/trace_kernel.h"
#include "frontend/trace_cache.h"
#include <stdlib.h>
#include <string.h>

struct gms_trace_kernel {
    char *path;
    gms_trace_dec dec;
    gms_linereader lr;
    int open, failed;
    uint64_t next_block, nblocks;
    gms_tcache *tc;          /* GMS_TRACE_CACHE: reading the decoded blocks, or writing them */
};

gms_trace_kernel *gms_trace_kernel_open(const char *path, gms_error *err)
{
    gms_trace_kernel *k = gms_xcalloc(1, sizeof *k);
    k->path = gms_xstrdup(path);
    if (gms_lr_open(&k->lr, path, err) || gms_trace_read_header(&k->lr, &k->dec.hdr, err)) {
        gms_trace_kernel_free(k);
        return NULL;
    }
    /* close until the first block is dispatched: many launches may be queued at once */
    gms_lr_close(&k->lr);
    k->dec.nwarps = (uint32_t)((gms_dim3_count(k->dec.hdr.block) + 31) / 32);
    k->nblocks = gms_dim3_count(k->dec.hdr.grid);
    return k;
}

const gms_trace_hdr *gms_trace_kernel_hdr(const gms_trace_kernel *k) { return &k->dec.hdr; }

const char *gms_trace_kernel_opcode_text(const gms_trace_kernel *k, uint16_t id)
{
    return gms_opcache_text(&k->dec.oc, id);
}

void gms_trace_kernel_free(gms_trace_kernel *k)
{
    if (!k) return;
    if (k->lr.in) gms_lr_close(&k->lr);
    gms_tcache_close(k->tc);
    gms_opcache_free(&k->dec.oc);
    free(k->dec.seen);
    free(k->path);
    free(k);
}

static void release(void *self) { gms_trace_kernel_free(self); }
static const char *opcode_text(void *self, uint16_t id) { return gms_trace_kernel_opcode_text(self, id); }

int gms_trace_kernel_fill(void *self, uint64_t b, gms_block_trace *out, gms_error *err)
{
    gms_trace_kernel *k = self;
    if (k->failed) return gms_err(err, "%s: unreadable after an earlier error", k->path);
    if (b < k->next_block || b >= k->nblocks) {
        k->failed = 1;
        return gms_err(err, "%s: thread block %llu requested out of order (next is %llu of %llu)", k->path,
                       (unsigned long long)b, (unsigned long long)k->next_block,
                       (unsigned long long)k->nblocks);
    }
    if (!k->open && gms_tcache_dir()) {
        k->tc = gms_tcache_open(gms_tcache_dir(), k->path, k->dec.nwarps, k->nblocks);
        k->open = gms_tcache_reading(k->tc);
    }
    if (!k->open) {
        gms_trace_hdr h2;
        if (gms_lr_open(&k->lr, k->path, err) || gms_trace_read_header(&k->lr, &h2, err)) {
            k->failed = 1;
            return -1;
        }
        k->open = 1;
    }
    if (gms_tcache_reading(k->tc)) {
        /* the blocks the parser made on an earlier run (the cache file checked its own end) */
        while (k->next_block <= b) {
            if (gms_tcache_read_block(k->tc, &k->dec.oc, out, err) < 0) {
                k->failed = 1;
                return -1;
            }
            k->next_block++;
        }
        if (k->next_block == k->nblocks) {
            gms_tcache_close(k->tc);
            k->tc = NULL;
        }
        return 0;
    }
    while (k->next_block <= b) {
        int r = gms_trace_read_block(&k->lr, &k->dec, out, err);
        if (r <= 0) {
            k->failed = 1;
            if (r == 0)
                return gms_err_at(err, k->path, gms_lr_line(&k->lr), "the file has %llu thread blocks, "
                                  "the grid (%u,%u,%u) has %llu (truncated file?)",
                                  (unsigned long long)k->next_block, k->dec.hdr.grid.x, k->dec.hdr.grid.y,
                                  k->dec.hdr.grid.z, (unsigned long long)k->nblocks);
            return -1;
        }
        gms_tcache_write_block(k->tc, &k->dec.oc, out);
        k->next_block++;
    }
    if (k->next_block == k->nblocks) {
        /* the grid's blocks are all read: anything but blank lines after them (another block, a
         * second header's worth of lines, garbage) means the file and its -grid dim disagree */
        char *line;
        size_t len;
        int r;
        while ((r = gms_lr_next(&k->lr, &line, &len, err)) == 1) {
            size_t i = 0;
            while (i < len && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) i++;
            if (i == len) continue;
            k->failed = 1;
            /* the message first: `line` lives in the reader's buffer, which close frees */
            gms_err_at(err, k->path, gms_lr_line(&k->lr), "more after the grid's last thread block (the grid "
                       "(%u,%u,%u) has %llu): '%.40s'", k->dec.hdr.grid.x, k->dec.hdr.grid.y, k->dec.hdr.grid.z,
                       (unsigned long long)k->nblocks, line);
            gms_lr_close(&k->lr);
            return -1;
        }
        gms_lr_close(&k->lr);   /* done: free the buffers early */
        if (r < 0) { k->failed = 1; return -1; }
        gms_tcache_commit(k->tc);   /* the whole file read without error: publish it */
        gms_tcache_close(k->tc);
        k->tc = NULL;
    }
    return 0;
}

void gms_trace_kernel_src(gms_trace_kernel *k, int stream, gms_kernel_src *out)
{
    const gms_trace_hdr *h = &k->dec.hdr;
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", h->name[0] ? h->name : k->path);
    out->grid = h->grid;
    out->block = h->block;
    out->shmem_bytes = h->shmem;
    out->regs_per_thread = h->nregs;
    out->stream = stream;
    out->traced = 1;
    out->fill_block = gms_trace_kernel_fill;
    out->release = release;
    out->opcode_text = opcode_text;
    out->self = k;
}
