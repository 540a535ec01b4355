/* A compressed file of several members: xz streams (with stream padding, zero bytes in a
 * multiple of 4, between them) and zstd frames (skippable ones too) read as one, the next
 * one's magic number straddling the reader's 64 KiB input chunks or not. Bytes after the last
 * member that do not start another are "trailing data" with their offset (they read as
 * truncated or corrupt data), read directly and through the read-ahead alike. */
#include "test.h"
#include "frontend/decompress.h"
#include <lzma.h>
#include <zstd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define A_LEN 20000
#define B_LEN 300000
#define CHUNK 65536   /* decompress.c RAW_CHUNK */

typedef struct { unsigned char *p; size_t n; } blob;

static void put(blob *f, const void *p, size_t n)
{
    f->p = realloc(f->p, f->n + n);
    memcpy(f->p + f->n, p, n);
    f->n += n;
}

static void put_zeros(blob *f, size_t n)
{
    f->p = realloc(f->p, f->n + n);
    memset(f->p + f->n, 0, n);
    f->n += n;
}

static blob compress(const unsigned char *data, size_t n, int zstd)
{
    size_t cap = n + n / 2 + 4096;
    blob b = { malloc(cap), 0 };
    if (zstd) b.n = ZSTD_compress(b.p, cap, data, n, 3);
    else if (lzma_easy_buffer_encode(1, LZMA_CHECK_CRC64, NULL, data, n, b.p, &b.n, cap) != LZMA_OK) b.n = 0;
    return b;
}

static int write_blob(const char *path, const blob *f)
{
    FILE *o = fopen(path, "wb");
    int rc = o && fwrite(f->p, 1, f->n, o) == f->n ? 0 : -1;
    if (o) fclose(o);
    return rc;
}

/* reads the whole file (read-ahead on or off) into got; returns the bytes read before the end
 * or the error; *rc = 0 at the end, -1 at an error (err) */
static size_t read_file(const char *path, int ahead, unsigned char *got, size_t cap, int *rc, gms_error *err)
{
    setenv("GMS_TRACE_READAHEAD", ahead ? "1" : "0", 1);
    *rc = -1;
    gms_instream *s = gms_instream_open(path, err);
    if (!s) return 0;
    size_t have = 0, k = 1;
    long r = 0;
    while (have < cap && (r = gms_instream_read(s, got + have, (k = k * 7 % 40009 + 1) < cap - have ? k : cap - have, err)) > 0)
        have += (size_t)r;
    if (have < cap) *rc = r < 0 ? -1 : 0;
    gms_instream_close(s);
    return have;
}

TEST(decompress_members_and_trailing_data)
{
    char dir[] = "/tmp/gms_members_XXXXXX";
    REQUIRE(mkdtemp(dir));
    unsigned char *data = malloc(A_LEN + B_LEN), *got = malloc(A_LEN + B_LEN + 1);
    uint32_t x = 4242;
    for (size_t i = 0; i < A_LEN + B_LEN; i++) {
        x = x * 1103515245u + 12345u;
        data[i] = (unsigned char)("0123456789abcdef \n"[(x >> 16) % 18]);
    }
    const char *old = getenv("GMS_TRACE_READAHEAD");
    char *saved = old ? strdup(old) : NULL;
    char path[64];
    for (int zstd = 0; zstd < 2; zstd++) {
        blob a = compress(data, A_LEN, zstd), b = compress(data + A_LEN, B_LEN, zstd);
        REQUIRE(a.n > 0 && a.n < CHUNK - 64 && b.n > 0);
        snprintf(path, sizeof path, "%s/f.%s", dir, zstd ? "zst" : "xz");
        /* xz: padding (a multiple of 4; xz streams are too) or zstd: a skippable frame puts the
         * second member's magic number at CHUNK - 4 (straddling the chunk boundary for xz's 6
         * bytes) or at CHUNK - 2 (zstd's 4 bytes) */
        for (int where = 0; where < 2; where++) {
            blob f = {0};
            put(&f, a.p, a.n);
            size_t at = where ? (zstd ? CHUNK - 2 : CHUNK - 4) : a.n + (zstd ? 8 : 4);
            if (zstd) {
                uint32_t skip = (uint32_t)(at - a.n - 8);
                unsigned char h[8] = {0x5A, 0x2A, 0x4D, 0x18, (unsigned char)skip, (unsigned char)(skip >> 8), 0, 0};
                put(&f, h, sizeof h);
                put_zeros(&f, skip);
            } else {
                put_zeros(&f, at - a.n);
            }
            REQUIRE(f.n == at);
            put(&f, b.p, b.n);
            size_t end = f.n;
            for (int ahead = 0; ahead < 2; ahead++) {
                int rc;
                gms_error err = {0};
                REQUIRE(write_blob(path, &f) == 0);
                CHECK_EQ(read_file(path, ahead, got, A_LEN + B_LEN + 1, &rc, &err), (size_t)(A_LEN + B_LEN));
                CHECK_EQ(rc, 0);
                CHECK(!memcmp(got, data, A_LEN + B_LEN));
                /* trailing garbage: everything before it, then the error with its offset */
                blob g = {0};
                put(&g, f.p, f.n);
                put(&g, "garbage", 7);
                REQUIRE(write_blob(path, &g) == 0);
                size_t n = read_file(path, ahead, got, A_LEN + B_LEN + 1, &rc, &err);
                CHECK_EQ(rc, -1);
                CHECK(n <= A_LEN + B_LEN && !memcmp(got, data, n));
                char want[160];
                snprintf(want, sizeof want, "trailing data after %s at byte offset %zu (7 bytes that are not another %s)",
                         zstd ? "the last zstd frame" : "the xz stream", end, zstd ? "zstd frame" : "xz stream");
                CHECK_CONTAINS(err.msg, want);
                CHECK_CONTAINS(err.msg, path);
                free(g.p);
            }
            free(f.p);
        }
        int rc;
        gms_error err = {0};
        /* the start of a magic number, then the end of the file: not another member */
        blob f = {0};
        put(&f, a.p, a.n);
        put(&f, zstd ? "\x28\xB5\x2F" : "\xFD" "7zX", zstd ? 3 : 4);
        REQUIRE(write_blob(path, &f) == 0);
        read_file(path, 0, got, A_LEN + B_LEN + 1, &rc, &err);
        CHECK_EQ(rc, -1);
        char want[96];
        snprintf(want, sizeof want, "at byte offset %zu (%d bytes that are not another", a.n, zstd ? 3 : 4);
        CHECK_CONTAINS(err.msg, want);
        free(f.p);
        if (!zstd) {
            /* xz stream padding: a multiple of 4 zero bytes at the end is fine, 3 are not */
            f = (blob){0};
            put(&f, a.p, a.n);
            put_zeros(&f, 8);
            REQUIRE(write_blob(path, &f) == 0);
            CHECK_EQ(read_file(path, 1, got, A_LEN + B_LEN + 1, &rc, &err), (size_t)A_LEN);
            CHECK_EQ(rc, 0);
            f.n -= 5;
            REQUIRE(write_blob(path, &f) == 0);
            read_file(path, 1, got, A_LEN + B_LEN + 1, &rc, &err);
            CHECK_EQ(rc, -1);
            snprintf(want, sizeof want, "at byte offset %zu (3 zero bytes, and xz stream padding is a multiple of 4 bytes)", a.n);
            CHECK_CONTAINS(err.msg, want);
            /* a cut second stream is still truncated data */
            f.n = a.n;
            put(&f, b.p, 40);
            REQUIRE(write_blob(path, &f) == 0);
            read_file(path, 0, got, A_LEN + B_LEN + 1, &rc, &err);
            CHECK_EQ(rc, -1);
            CHECK_CONTAINS(err.msg, "truncated xz data");
            free(f.p);
        }
        unlink(path);
        free(a.p);
        free(b.p);
    }
    if (saved) { setenv("GMS_TRACE_READAHEAD", saved, 1); free(saved); }
    else unsetenv("GMS_TRACE_READAHEAD");
    rmdir(dir);
    free(data);
    free(got);
}
