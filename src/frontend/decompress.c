#include "frontend/decompress.h"
#include <errno.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#define RAW_CHUNK (1u << 16)

struct gms_instream {
    FILE *f;
    char *path;
    gms_stream_kind kind;
    int raw_eof;          /* the compressed file has been read to its end */
    int done;             /* decoder reported the end of the data */
    uint64_t raw_pos;
    /* compressed input buffer */
    unsigned char *raw;
    size_t raw_n, raw_off;
    /* decoders */
    lzma_stream xz;
    ZSTD_DStream *zs;
    size_t zs_last;       /* last ZSTD_decompressStream hint: 0 = a frame just ended */
};

/* One idle xz decoder kept for the next .xz file this thread opens. liblzma reinitialised on
 * a used lzma_stream keeps its buffers when the next stream needs the same sizes (the 8 MiB
 * dictionary of the reference traces) instead of allocating them afresh per file; a trace of
 * many kernels opens each kernel file twice (header, then body), and the freed 8 MiB buffers
 * left holes the heap did not reuse: peak memory grew with the number of kernels. */
static _Thread_local lzma_stream idle_xz;
static _Thread_local int have_idle_xz;

static const unsigned char XZ_MAGIC[6] = {0xFD, '7', 'z', 'X', 'Z', 0x00};
static const unsigned char ZSTD_MAGIC[4] = {0x28, 0xB5, 0x2F, 0xFD};

const char *gms_stream_kind_name(gms_stream_kind k)
{
    return k == GMS_STREAM_XZ ? "xz" : k == GMS_STREAM_ZSTD ? "zstd" : "plain";
}

static int fill_raw(gms_instream *s, gms_error *err)
{
    if (s->raw_off < s->raw_n || s->raw_eof) return 0;
    size_t n = fread(s->raw, 1, RAW_CHUNK, s->f);
    if (n == 0 && ferror(s->f))
        return gms_err(err, "%s: read error: %s", s->path, strerror(errno));
    if (n < RAW_CHUNK) s->raw_eof = feof(s->f) || n == 0;
    s->raw_n = n;
    s->raw_off = 0;
    s->raw_pos += n;
    return 0;
}

gms_instream *gms_instream_open(const char *path, gms_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        gms_err(err, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    gms_instream *s = gms_xcalloc(1, sizeof *s);
    s->f = f;
    s->path = gms_xstrdup(path);
    s->raw = gms_xmalloc(RAW_CHUNK);
    if (fill_raw(s, err)) { gms_instream_close(s); return NULL; }
    if (s->raw_n >= sizeof XZ_MAGIC && !memcmp(s->raw, XZ_MAGIC, sizeof XZ_MAGIC)) {
        s->kind = GMS_STREAM_XZ;
        lzma_stream init = LZMA_STREAM_INIT;
        s->xz = have_idle_xz ? idle_xz : init;
        have_idle_xz = 0;
        if (lzma_stream_decoder(&s->xz, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK) {
            gms_err(err, "%s: cannot start the xz decoder", path);
            gms_instream_close(s);
            return NULL;
        }
    } else if (s->raw_n >= sizeof ZSTD_MAGIC && !memcmp(s->raw, ZSTD_MAGIC, sizeof ZSTD_MAGIC)) {
        s->kind = GMS_STREAM_ZSTD;
        s->zs = ZSTD_createDStream();
        if (!s->zs || ZSTD_isError(ZSTD_initDStream(s->zs))) {
            gms_err(err, "%s: cannot start the zstd decoder", path);
            gms_instream_close(s);
            return NULL;
        }
        s->zs_last = 1;
    } else {
        s->kind = GMS_STREAM_PLAIN;
    }
    return s;
}

static long read_plain(gms_instream *s, unsigned char *buf, size_t n, gms_error *err)
{
    size_t got = 0;
    if (s->raw_off < s->raw_n) {   /* bytes read while sniffing the magic */
        size_t k = s->raw_n - s->raw_off;
        if (k > n) k = n;
        memcpy(buf, s->raw + s->raw_off, k);
        s->raw_off += k;
        got = k;
    }
    if (got < n && !s->raw_eof) {
        size_t k = fread(buf + got, 1, n - got, s->f);
        if (k == 0 && ferror(s->f))
            return gms_err(err, "%s: read error: %s", s->path, strerror(errno));
        if (k < n - got) s->raw_eof = 1;
        s->raw_pos += k;
        got += k;
    }
    return (long)got;
}

static long read_xz(gms_instream *s, unsigned char *buf, size_t n, gms_error *err)
{
    s->xz.next_out = buf;
    s->xz.avail_out = n;
    int stuck = 0;
    while (s->xz.avail_out > 0 && !s->done) {
        if (fill_raw(s, err)) return -1;
        s->xz.next_in = s->raw + s->raw_off;
        s->xz.avail_in = s->raw_n - s->raw_off;
        lzma_action act = (s->raw_eof && s->xz.avail_in == 0) ? LZMA_FINISH : LZMA_RUN;
        size_t before = s->xz.avail_in, out_before = s->xz.avail_out;
        lzma_ret r = lzma_code(&s->xz, act);
        s->raw_off += before - s->xz.avail_in;
        if (r == LZMA_STREAM_END) { s->done = 1; break; }
        if (r == LZMA_OK) {
            /* no progress at the end of the input: the stream is cut short */
            if (act == LZMA_FINISH && s->xz.avail_out == out_before && ++stuck > 2)
                return gms_err(err, "%s: truncated xz data (the file ends inside the compressed stream)",
                               s->path);
            continue;
        }
        if (r == LZMA_BUF_ERROR)
            return gms_err(err, "%s: truncated xz data (the file ends inside the compressed stream)", s->path);
        if (r == LZMA_MEM_ERROR) return gms_err(err, "%s: out of memory in the xz decoder", s->path);
        return gms_err(err, "%s: corrupt xz data (liblzma error %d)", s->path, (int)r);
    }
    return (long)(n - s->xz.avail_out);
}

static long read_zstd(gms_instream *s, unsigned char *buf, size_t n, gms_error *err)
{
    ZSTD_outBuffer out = {buf, n, 0};
    while (out.pos < out.size) {
        if (fill_raw(s, err)) return -1;
        if (s->raw_off == s->raw_n && s->raw_eof) {
            if (s->zs_last != 0) {
                /* the decoder may still hold decoded bytes: flush with empty input */
                ZSTD_inBuffer in0 = {s->raw, 0, 0};
                size_t before = out.pos;
                size_t r = ZSTD_decompressStream(s->zs, &out, &in0);
                if (ZSTD_isError(r))
                    return gms_err(err, "%s: corrupt zstd data: %s", s->path, ZSTD_getErrorName(r));
                s->zs_last = r;
                if (out.pos > before) continue;
                if (r != 0) {
                    if (out.pos > 0) break;   /* return what we have; report on the next call */
                    return gms_err(err, "%s: truncated zstd data (the file ends inside a frame)", s->path);
                }
            }
            s->done = 1;
            break;
        }
        ZSTD_inBuffer in = {s->raw + s->raw_off, s->raw_n - s->raw_off, 0};
        size_t r = ZSTD_decompressStream(s->zs, &out, &in);
        if (ZSTD_isError(r))
            return gms_err(err, "%s: corrupt zstd data: %s", s->path, ZSTD_getErrorName(r));
        s->raw_off += in.pos;
        s->zs_last = r;
    }
    return (long)out.pos;
}

long gms_instream_read(gms_instream *s, void *buf, size_t n, gms_error *err)
{
    if (n == 0) return 0;
    switch (s->kind) {
    case GMS_STREAM_XZ: return s->done ? 0 : read_xz(s, buf, n, err);
    case GMS_STREAM_ZSTD: return s->done ? 0 : read_zstd(s, buf, n, err);
    default: return read_plain(s, buf, n, err);
    }
}

gms_stream_kind gms_instream_kind(const gms_instream *s) { return s->kind; }
uint64_t gms_instream_raw_pos(const gms_instream *s) { return s->raw_pos; }

void gms_instream_close(gms_instream *s)
{
    if (!s) return;
    if (s->kind == GMS_STREAM_XZ) {
        if (have_idle_xz) lzma_end(&s->xz);
        else { idle_xz = s->xz; have_idle_xz = 1; }
    }
    if (s->zs) ZSTD_freeDStream(s->zs);
    if (s->f) fclose(s->f);
    free(s->raw);
    free(s->path);
    free(s);
}
