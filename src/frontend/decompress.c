#include "frontend/decompress.h"
#include <errno.h>
#include <lzma.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zstd.h>

#define RAW_CHUNK (1u << 16)

/* Read-ahead (host speed): a compressed stream is decoded on a thread of its own into a ring
 * of AHEAD_N chunks while the reader consumes earlier ones. Decoding an xz trace is about a
 * fifth of a trace-driven run's host instructions (bench/README.md), and it is strictly
 * sequential, so it overlaps with everything else. The bytes delivered are the same bytes
 * in the same order: results cannot depend on it. Started at the second read of a stream (a
 * kernel file opened only for its header is read once), and only when the run may use a
 * second CPU (gms_instream_readahead_allowed). */
#define AHEAD_CHUNK (1u << 18)
#define AHEAD_N 8

typedef struct ahead {
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t filled, freed;
    unsigned char *buf[AHEAD_N];
    long len[AHEAD_N];        /* bytes in the slot; 0 = the end of the data, -1 = err */
    gms_error err;            /* the decoder's error (the slot with len -1) */
    uint64_t raw_pos;         /* compressed bytes consumed when the last slot was filled */
    uint32_t head, n;         /* slots [head, head + n) are filled, in order */
    uint32_t off;             /* bytes of slot head already read */
    int stop;
} ahead;

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
    /* between two xz streams or zstd frames (next_member) */
    int xz_between;       /* the xz decoder reported the end of a stream */
    uint64_t pad;         /* xz: zero bytes (stream padding) after it so far */
    unsigned char hdr[6]; /* the bytes read so far of what follows: the next one's magic */
    uint32_t hdr_n;
    uint32_t nreads;      /* gms_instream_read calls (the read-ahead starts at the second) */
    int may_ahead;        /* a read-ahead thread may be started for this stream */
    ahead *ah;            /* the read-ahead, once started: it alone touches the decoder */
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
        /* one stream at a time (no LZMA_CONCATENATED): read_xz starts the next one itself, so
         * that bytes after the last stream are reported as such, not as a truncated stream */
        if (lzma_stream_decoder(&s->xz, UINT64_MAX, 0) != LZMA_OK) {
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
    s->may_ahead = s->kind != GMS_STREAM_PLAIN && gms_instream_readahead_allowed();
    return s;
}

int gms_instream_readahead_allowed(void)
{
    const char *v = getenv("GMS_TRACE_READAHEAD");
    if (v && *v) return *v != '0';
    /* as the memory side's worker (engine_pipe.c): a second thread needs a second CPU, and a
     * sweep runner that shares the host out (GMS_HOST_CPUS < 2) leaves none */
    cpu_set_t cs;
    if (sched_getaffinity(0, sizeof cs, &cs) == 0 && CPU_COUNT(&cs) < 2) return 0;
    const char *cpus = getenv("GMS_HOST_CPUS");
    if (cpus && *cpus && atoi(cpus) < 2) return 0;
    return 1;
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

/* file offset of the next compressed byte not yet given to a decoder */
static uint64_t raw_tell(const gms_instream *s)
{
    return s->raw_pos - (s->raw_n - s->raw_off);
}

/* is hdr[0..n) the start of an xz stream (its magic) or of a zstd frame (a zstd frame's or a
 * skippable frame's magic number, 0xFD2FB528 or 0x184D2A50..5F little-endian)? */
static int magic_prefix(gms_stream_kind k, const unsigned char *hdr, uint32_t n)
{
    static const unsigned char SKIP[4] = {0x50, 0x2A, 0x4D, 0x18};
    if (k == GMS_STREAM_XZ) return !memcmp(hdr, XZ_MAGIC, n);
    if (!memcmp(hdr, ZSTD_MAGIC, n)) return 1;
    return (hdr[0] & 0xF0) == SKIP[0] && !memcmp(hdr + 1, SKIP + 1, n - 1);
}

/* "trailing data after ... at byte offset AT (N bytes that are not another ...)"; N when the
 * file's size is known; `zeros`: the N bytes are zero bytes that are not xz stream padding */
static int trailing_err(gms_instream *s, uint64_t at, int zeros, gms_error *err)
{
    const char *after = s->kind == GMS_STREAM_XZ ? "the xz stream" : "the last zstd frame";
    const char *why = zeros ? "zero bytes, and xz stream padding is a multiple of 4 bytes"
                    : s->kind == GMS_STREAM_XZ ? "bytes that are not another xz stream"
                                               : "bytes that are not another zstd frame";
    struct stat st;
    if (fstat(fileno(s->f), &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size > at)
        return gms_err(err, "%s: trailing data after %s at byte offset %llu (%llu %s)", s->path, after,
                       (unsigned long long)at, (unsigned long long)((uint64_t)st.st_size - at), why);
    return gms_err(err, "%s: trailing data after %s at byte offset %llu (%s)", s->path, after,
                   (unsigned long long)at, why);
}

/* After the end of an xz stream or a zstd frame comes another one (xz allows stream padding
 * before it: zero bytes, a multiple of 4) or the end of the file; anything else is trailing
 * data, an error that says so (it was reported as truncated or corrupt data). Returns 1 when
 * the next one's magic number has been read into s->hdr (s->hdr_n bytes: the caller gives
 * them to its decoder first), 0 at the end of the file, -1 on error. At an error nothing
 * more is consumed: a second call reports the same. */
static int next_member(gms_instream *s, gms_error *err)
{
    uint32_t magic_n = s->kind == GMS_STREAM_XZ ? sizeof XZ_MAGIC : sizeof ZSTD_MAGIC;
    for (;;) {
        if (fill_raw(s, err)) return -1;
        uint64_t at = raw_tell(s);
        if (s->raw_off == s->raw_n) {   /* the end of the file */
            if (s->hdr_n) return trailing_err(s, at - s->hdr_n, 0, err);
            if (s->pad % 4) return trailing_err(s, at - s->pad, 1, err);
            return 0;
        }
        unsigned char c = s->raw[s->raw_off];
        if (s->kind == GMS_STREAM_XZ && !s->hdr_n && c == 0) {
            s->pad++;
            s->raw_off++;
            continue;
        }
        if (s->pad % 4) return trailing_err(s, at - s->pad, 0, err);
        s->hdr[s->hdr_n] = c;
        if (!magic_prefix(s->kind, s->hdr, s->hdr_n + 1)) return trailing_err(s, at - s->hdr_n, 0, err);
        s->raw_off++;
        if (++s->hdr_n == magic_n) return 1;
    }
}

static long read_xz(gms_instream *s, unsigned char *buf, size_t n, gms_error *err)
{
    s->xz.next_out = buf;
    s->xz.avail_out = n;
    int stuck = 0;
    while (s->xz.avail_out > 0 && !s->done) {
        if (s->xz_between) {
            int k = next_member(s, err);
            if (k < 0) {
                if (s->xz.avail_out < n) break;   /* return what we have; report on the next call */
                return -1;
            }
            if (k == 0) { s->done = 1; break; }
            /* the next stream: a fresh decoder (its buffers kept), given the magic read */
            uint8_t *out = s->xz.next_out;
            size_t avail = s->xz.avail_out;
            if (lzma_stream_decoder(&s->xz, UINT64_MAX, 0) != LZMA_OK)
                return gms_err(err, "%s: cannot start the xz decoder", s->path);
            s->xz.next_out = out;
            s->xz.avail_out = avail;
            s->xz.next_in = s->hdr;
            s->xz.avail_in = s->hdr_n;
            lzma_ret r = lzma_code(&s->xz, LZMA_RUN);
            if (r != LZMA_OK || s->xz.avail_in)
                return gms_err(err, "%s: corrupt xz data (liblzma error %d)", s->path, (int)r);
            s->xz_between = 0;
            s->hdr_n = 0;
            s->pad = 0;
            stuck = 0;
            continue;
        }
        if (fill_raw(s, err)) return -1;
        s->xz.next_in = s->raw + s->raw_off;
        s->xz.avail_in = s->raw_n - s->raw_off;
        lzma_action act = (s->raw_eof && s->xz.avail_in == 0) ? LZMA_FINISH : LZMA_RUN;
        size_t before = s->xz.avail_in, out_before = s->xz.avail_out;
        lzma_ret r = lzma_code(&s->xz, act);
        s->raw_off += before - s->xz.avail_in;
        if (r == LZMA_STREAM_END) { s->xz_between = 1; continue; }
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
        if (s->zs_last == 0) {   /* a frame ended: another one, or the end of the file */
            int k = next_member(s, err);
            if (k < 0) {
                if (out.pos > 0) break;   /* return what we have; report on the next call */
                return -1;
            }
            if (k == 0) { s->done = 1; break; }
            ZSTD_inBuffer in = {s->hdr, s->hdr_n, 0};   /* its magic number, read */
            size_t r = ZSTD_decompressStream(s->zs, &out, &in);
            if (ZSTD_isError(r))
                return gms_err(err, "%s: corrupt zstd data: %s", s->path, ZSTD_getErrorName(r));
            s->zs_last = r ? r : 1;
            s->hdr_n = 0;
            continue;
        }
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

static long read_direct(gms_instream *s, void *buf, size_t n, gms_error *err)
{
    switch (s->kind) {
    case GMS_STREAM_XZ: return s->done ? 0 : read_xz(s, buf, n, err);
    case GMS_STREAM_ZSTD: return s->done ? 0 : read_zstd(s, buf, n, err);
    default: return read_plain(s, buf, n, err);
    }
}

/* the read-ahead thread: fills free slots in order until the end of the data or an error */
static void *ahead_main(void *arg)
{
    gms_instream *s = arg;
    ahead *a = s->ah;
    for (;;) {
        pthread_mutex_lock(&a->mu);
        while (a->n == AHEAD_N && !a->stop) pthread_cond_wait(&a->freed, &a->mu);
        uint32_t slot = (a->head + a->n) % AHEAD_N;   /* free: the reader only reads filled ones */
        int stop = a->stop;
        pthread_mutex_unlock(&a->mu);
        if (stop) break;
        gms_error e = {0};
        long k = read_direct(s, a->buf[slot], AHEAD_CHUNK, &e);
        pthread_mutex_lock(&a->mu);
        a->len[slot] = k;
        if (k < 0) a->err = e;
        a->raw_pos = s->raw_pos;
        a->n++;
        pthread_cond_signal(&a->filled);
        pthread_mutex_unlock(&a->mu);
        if (k <= 0) break;
    }
    return NULL;
}

static void ahead_start(gms_instream *s)
{
    ahead *a = gms_xcalloc(1, sizeof *a);
    pthread_mutex_init(&a->mu, NULL);
    pthread_cond_init(&a->filled, NULL);
    pthread_cond_init(&a->freed, NULL);
    for (int i = 0; i < AHEAD_N; i++) a->buf[i] = gms_xmalloc(AHEAD_CHUNK);
    a->raw_pos = s->raw_pos;
    s->ah = a;
    if (pthread_create(&a->th, NULL, ahead_main, s)) {   /* no thread: read directly */
        s->ah = NULL;
        for (int i = 0; i < AHEAD_N; i++) free(a->buf[i]);
        pthread_cond_destroy(&a->filled);
        pthread_cond_destroy(&a->freed);
        pthread_mutex_destroy(&a->mu);
        free(a);
    }
}

static void ahead_stop(gms_instream *s)
{
    ahead *a = s->ah;
    pthread_mutex_lock(&a->mu);
    a->stop = 1;
    pthread_cond_signal(&a->freed);
    pthread_mutex_unlock(&a->mu);
    pthread_join(a->th, NULL);
    for (int i = 0; i < AHEAD_N; i++) free(a->buf[i]);
    pthread_cond_destroy(&a->filled);
    pthread_cond_destroy(&a->freed);
    pthread_mutex_destroy(&a->mu);
    free(a);
    s->ah = NULL;
}

/* Bytes from the filled slots. An error or the end is returned where the direct read would
 * meet it, after the bytes before it, and again on every later call. */
static long read_ahead(gms_instream *s, unsigned char *buf, size_t n, gms_error *err)
{
    ahead *a = s->ah;
    size_t got = 0;
    while (got < n) {
        pthread_mutex_lock(&a->mu);
        while (!a->n) pthread_cond_wait(&a->filled, &a->mu);
        long k = a->len[a->head];
        pthread_mutex_unlock(&a->mu);
        if (k < 0) {
            if (got) break;
            if (err) *err = a->err;
            return -1;
        }
        if (k == 0) break;
        size_t m = (size_t)k - a->off;
        if (m > n - got) m = n - got;
        memcpy(buf + got, a->buf[a->head] + a->off, m);   /* the slot is the reader's until freed */
        got += m;
        a->off += (uint32_t)m;
        if (a->off == (uint32_t)k) {
            pthread_mutex_lock(&a->mu);
            a->head = (a->head + 1) % AHEAD_N;
            a->n--;
            a->off = 0;
            pthread_cond_signal(&a->freed);
            pthread_mutex_unlock(&a->mu);
        }
    }
    return (long)got;
}

long gms_instream_read(gms_instream *s, void *buf, size_t n, gms_error *err)
{
    if (n == 0) return 0;
    if (s->ah) return read_ahead(s, buf, n, err);
    long k = read_direct(s, buf, n, err);
    /* the second read of a compressed stream starts the read-ahead after it: the first is
     * often the only one (a kernel file opened for its header) */
    if (++s->nreads == 2 && s->may_ahead && k > 0 && !s->done) ahead_start(s);
    return k;
}

gms_stream_kind gms_instream_kind(const gms_instream *s) { return s->kind; }

uint64_t gms_instream_raw_pos(const gms_instream *s)
{
    if (!s->ah) return s->raw_pos;
    pthread_mutex_lock(&s->ah->mu);
    uint64_t p = s->ah->raw_pos;
    pthread_mutex_unlock(&s->ah->mu);
    return p;
}

void gms_instream_close(gms_instream *s)
{
    if (!s) return;
    if (s->ah) ahead_stop(s);
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
