/* decompress.c keeps one idle xz decoder per thread and re-initialises it for the next .xz
 * file (its buffers are reused: peak memory of many-kernel traces, bench/trace_memory.sh).
 * A decoder left mid-stream, one that stopped on an error, and one made for another
 * dictionary size must each read the next file exactly. */
#include "test.h"
#include "frontend/decompress.h"
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LEN 300000

static int write_xz(const char *path, const unsigned char *data, size_t n, uint32_t preset, int cut)
{
    size_t cap = n + n / 2 + 4096, on = 0;
    uint8_t *out = malloc(cap);
    if (lzma_easy_buffer_encode(preset, LZMA_CHECK_CRC64, NULL, data, n, out, &on, cap) != LZMA_OK) { free(out); return -1; }
    FILE *f = fopen(path, "wb");
    int rc = f && fwrite(out, 1, cut ? on / 2 : on, f) == (cut ? on / 2 : on) ? 0 : -1;
    if (f) fclose(f);
    free(out);
    return rc;
}

/* reads the whole file; 1 if it equals want, 0 if not, -1 on a read error */
static int read_all_equal(const char *path, const unsigned char *want, size_t n, gms_error *err)
{
    gms_instream *s = gms_instream_open(path, err);
    if (!s) return -1;
    unsigned char *got = malloc(n + 1);
    size_t have = 0;
    long r;
    while ((r = gms_instream_read(s, got + have, n + 1 - have, err)) > 0) have += (size_t)r;
    gms_instream_close(s);
    int same = r == 0 && have == n && !memcmp(got, want, n);
    free(got);
    return r < 0 ? -1 : same;
}

TEST(xz_decoder_reused_across_files)
{
    char dir[] = "/tmp/gms_xz_XXXXXX";
    REQUIRE(mkdtemp(dir));
    unsigned char *a = malloc(LEN), *b = malloc(LEN);
    uint32_t x = 12345;
    for (size_t i = 0; i < LEN; i++) {   /* a: compressible text-like bytes; b: noisier */
        x = x * 1103515245u + 12345u;
        a[i] = (unsigned char)("0123456789abcdef \n"[(x >> 16) % 18]);
        b[i] = (unsigned char)(x >> 24);
    }
    char pa[64], pb[64], pc[64];
    snprintf(pa, sizeof pa, "%s/a.xz", dir);
    snprintf(pb, sizeof pb, "%s/b.xz", dir);
    snprintf(pc, sizeof pc, "%s/c.xz", dir);
    REQUIRE(write_xz(pa, a, LEN, 6, 0) == 0);   /* 8 MiB dictionary */
    REQUIRE(write_xz(pb, b, LEN, 1, 0) == 0);   /* 1 MiB */
    REQUIRE(write_xz(pc, a, LEN, 6, 1) == 0);   /* cut in half */
    gms_error err = {0};
    /* a, abandoned after its first 1000 bytes: its decoder is parked mid-stream */
    gms_instream *s = gms_instream_open(pa, &err);
    REQUIRE(s);
    unsigned char buf[1000];
    CHECK_EQ(gms_instream_read(s, buf, sizeof buf, &err), 1000);
    CHECK(!memcmp(buf, a, sizeof buf));
    gms_instream_close(s);
    CHECK_EQ(read_all_equal(pb, b, LEN, &err), 1);   /* another dictionary size */
    CHECK_EQ(read_all_equal(pa, a, LEN, &err), 1);
    CHECK_EQ(read_all_equal(pc, a, LEN, &err), -1);   /* truncated: an error ... */
    CHECK_CONTAINS(err.msg, "truncated");
    CHECK_EQ(read_all_equal(pa, a, LEN, &err), 1);    /* ... and the next file reads */
    /* two open at once: the second gets a fresh decoder */
    gms_instream *s1 = gms_instream_open(pa, &err), *s2 = gms_instream_open(pb, &err);
    REQUIRE(s1 && s2);
    unsigned char b1[500], b2[500];
    CHECK_EQ(gms_instream_read(s1, b1, sizeof b1, &err), 500);
    CHECK_EQ(gms_instream_read(s2, b2, sizeof b2, &err), 500);
    CHECK(!memcmp(b1, a, 500) && !memcmp(b2, b, 500));
    gms_instream_close(s1);
    gms_instream_close(s2);
    unlink(pa); unlink(pb); unlink(pc);
    rmdir(dir);
    free(a);
    free(b);
}
