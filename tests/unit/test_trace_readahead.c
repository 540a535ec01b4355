/* decompress.c's read-ahead: a compressed stream decoded on a thread of its own (from its
 * second read on) must deliver exactly the bytes of the direct read, in reads of any size;
 * a truncated file must give bytes of the data and then the same "truncated" error as the
 * direct read, on every later call too; a stream closed while the thread is ahead
 * must stop it. GMS_TRACE_READAHEAD forces it on or off. */
#include "test.h"
#include "frontend/decompress.h"
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#define RA_LEN (5u << 18)   /* five of the thread's 256 KiB chunks */

static int ra_write(const char *path, const unsigned char *data, size_t n, int zstd, int cut)
{
    size_t cap = n + n / 2 + 4096, on = 0;
    uint8_t *out = malloc(cap);
    if (zstd) {
        on = ZSTD_compress(out, cap, data, n, 3);
        if (ZSTD_isError(on)) { free(out); return -1; }
    } else if (lzma_easy_buffer_encode(1, LZMA_CHECK_CRC64, NULL, data, n, out, &on, cap) != LZMA_OK) {
        free(out);
        return -1;
    }
    size_t w = cut ? on / 2 : on;
    FILE *f = fopen(path, "wb");
    int rc = f && fwrite(out, 1, w, f) == w ? 0 : -1;
    if (f) fclose(f);
    free(out);
    return rc;
}

/* reads the file in reads of `step` bytes (varied when 0); returns bytes read before the
 * end (*end = 0) or the error (*end = -1; the call after it is checked to fail too) */
static size_t ra_read(const char *path, unsigned char *got, size_t cap, size_t step, int *end, gms_error *err)
{
    gms_instream *s = gms_instream_open(path, err);
    *end = -2;
    if (!s) return 0;
    size_t have = 0, k = 1;
    long r;
    for (;;) {
        size_t want = step ? step : (k = k * 7 % 100003 + 1);
        if (want > cap - have) want = cap - have;
        r = gms_instream_read(s, got + have, want, err);
        if (r <= 0) break;
        have += (size_t)r;
    }
    *end = r < 0 ? -1 : 0;
    if (r < 0) {
        gms_error e2 = {0};
        if (gms_instream_read(s, got, 16, &e2) != -1 || !strstr(e2.msg, "truncated")) *end = -3;
    }
    gms_instream_close(s);
    return have;
}

TEST(trace_readahead_same_bytes_and_errors)
{
    char dir[] = "/tmp/gms_ra_XXXXXX";
    REQUIRE(mkdtemp(dir));
    unsigned char *a = malloc(RA_LEN), *got = malloc(RA_LEN + 1), *got0 = malloc(RA_LEN + 1);
    uint32_t x = 777;
    for (size_t i = 0; i < RA_LEN; i++) {   /* text-like bytes: compressible, not trivial */
        x = x * 1103515245u + 12345u;
        a[i] = (unsigned char)("0123456789abcdef \n"[(x >> 16) % 18]);
    }
    const char *old = getenv("GMS_TRACE_READAHEAD");
    char *saved = old ? strdup(old) : NULL;
    for (int zstd = 0; zstd < 2; zstd++) {
        char p[64], pc[64];
        snprintf(p, sizeof p, "%s/a.%s", dir, zstd ? "zst" : "xz");
        snprintf(pc, sizeof pc, "%s/cut.%s", dir, zstd ? "zst" : "xz");
        REQUIRE(ra_write(p, a, RA_LEN, zstd, 0) == 0);
        REQUIRE(ra_write(pc, a, RA_LEN, zstd, 1) == 0);
        static const size_t steps[] = {0, 1u << 18, RA_LEN + 1};
        for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
            gms_error err = {0};
            int end;
            setenv("GMS_TRACE_READAHEAD", "1", 1);
            size_t n = ra_read(p, got, RA_LEN + 1, steps[i], &end, &err);
            CHECK_EQ(end, 0);
            CHECK_EQ(n, RA_LEN);
            CHECK(!memcmp(got, a, RA_LEN));
            /* truncated: the same bytes as the direct read before the error, then the error */
            gms_error e0 = {0}, e1 = {0};
            int end0, end1;
            setenv("GMS_TRACE_READAHEAD", "0", 1);
            size_t n0 = ra_read(pc, got0, RA_LEN + 1, steps[i], &end0, &e0);
            setenv("GMS_TRACE_READAHEAD", "1", 1);
            size_t n1 = ra_read(pc, got, RA_LEN + 1, steps[i], &end1, &e1);
            if (!zstd) {   /* zstd reports a cut frame at its end; xz as soon as it meets it */
                CHECK_EQ(end0, -1);
                CHECK_EQ(end1, -1);
                CHECK_CONTAINS(e1.msg, "truncated");
                CHECK(!strcmp(e0.msg, e1.msg));
            }
            /* bytes before the error: a prefix of the data either way (the direct read drops
             * the bytes of the call that met the error, the read-ahead those of its chunk, so
             * how many come first depends on read sizes in both) */
            CHECK(n0 < RA_LEN && n1 < RA_LEN);
            CHECK(!memcmp(got, a, n1) && !memcmp(got0, a, n0));
        }
        /* closed after a few reads, the thread still decoding ahead */
        setenv("GMS_TRACE_READAHEAD", "1", 1);
        gms_error err = {0};
        gms_instream *s = gms_instream_open(p, &err);
        REQUIRE(s);
        for (int k = 0; k < 3; k++) CHECK_EQ(gms_instream_read(s, got, 1000, &err), 1000);
        CHECK(!memcmp(got, a + 2000, 1000));
        gms_instream_close(s);
        unlink(p);
        unlink(pc);
    }
    if (saved) { setenv("GMS_TRACE_READAHEAD", saved, 1); free(saved); }
    else unsetenv("GMS_TRACE_READAHEAD");
    rmdir(dir);
    free(a);
    free(got);
    free(got0);
}
