/* The decoded-trace cache (GMS_TRACE_CACHE, frontend/trace_cache.c): the records read back
 * are the parser's, field for field and opcode text for opcode text; a changed source is
 * parsed again; a damaged cache file is one clear error naming it; a kernel not read to its
 * end publishes nothing; an unusable directory only costs the cache. */
#include "test.h"
#include "test_trace_util.h"
#include "frontend/trace_cache.h"
#include "frontend/trace_kernel.h"
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#define MIXED "tests/data/traces/mixed/kernelslist.g"
#define K3 "tests/data/traces/mixed/kernel-3.traceg"

/* files in dir whose name ends with suffix */
static int count_files(const char *dir, const char *suffix)
{
    DIR *d = opendir(dir);
    if (!d) return -1;
    int n = 0;
    struct dirent *e;
    size_t sl = strlen(suffix);
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l >= sl && !strcmp(e->d_name + l - sl, suffix)) n++;
    }
    closedir(d);
    return n;
}

/* a fresh temporary directory tmp and its cache directory dir = tmp/cache (not created: the
 * cache makes it); tmp[0] == 0 if no temporary directory could be made */
static void cache_dirs(char *tmp, size_t nt, char *dir, size_t nd)
{
    make_tmpdir(tmp, nt);
    snprintf(dir, nd, "%s/cache", tmp);
}

/* GMS_TRACE_CACHE off, and tmp gone with the cache directory and what a test copied there */
static void cache_done(const char *tmp)
{
    unsetenv("GMS_TRACE_CACHE");
    rm_tree(tmp);
}

/* a copy of the mixed trace in a directory of its own (so its files can be touched) */
static void copy_mixed(const char *dst)
{
    const char *names[] = {"kernelslist.g", "kernel-1.traceg", "kernel-2.traceg", "kernel-3.traceg"};
    for (int i = 0; i < 4; i++) {
        char src[1024], rel[256], out[1024], buf[1 << 16];
        snprintf(rel, sizeof rel, "tests/data/traces/mixed/%s", names[i]);
        data_path(rel, src, sizeof src);
        snprintf(out, sizeof out, "%s/%s", dst, names[i]);
        FILE *f = fopen(src, "rb"), *g = fopen(out, "wb");
        if (f && g) {
            size_t n;
            while ((n = fread(buf, 1, sizeof buf, f))) fwrite(buf, 1, n, g);
        }
        if (f) fclose(f);
        if (g) fclose(g);
    }
}

static uint64_t dyn_seen;   /* records with a dynamic opcode id (a text no canonical table has) */

/* every record of one kernel file with its opcode text folded into a hash; -1 on error */
static int kernel_digest(const char *path, uint64_t *h, uint64_t *ninst, gms_error *err)
{
    gms_trace_kernel *k = gms_trace_kernel_open(path, err);
    if (!k) return -1;
    gms_kernel_src src;
    gms_trace_kernel_src(k, 0, &src);
    uint64_t nb = gms_dim3_count(src.grid);
    gms_block_trace b = {0};
    *h = 1469598103934665603ull;
    *ninst = 0;
    int rc = 0;
    for (uint64_t i = 0; i < nb && !rc; i++) {
        if (gms_trace_kernel_fill(k, i, &b, err)) { rc = -1; break; }
        for (uint32_t w = 0; w < b.nwarps; w++)
            for (uint32_t j = 0; j < b.warps[w].n; j++) {
                const gms_inst *in = &b.warps[w].insts[j];
                uint64_t lanes[32] = {0};
                gms_inst_lane_addrs(&b.warps[w], in, lanes);
                const char *t = gms_trace_kernel_opcode_text(k, in->opcode_id);
                uint64_t v[] = {b.x, b.y, b.z, w, in->pc, in->mask, in->op, in->mem, in->width, in->flags,
                                in->dst[0], in->dst[1], in->src[0], in->src[1], in->src[2], in->src[3],
                                in->addr_mode, in->spec_unit, in->opcode_id};
                for (size_t q = 0; q < sizeof v / sizeof v[0]; q++) *h = (*h ^ v[q]) * 1099511628211ull;
                for (int l = 0; l < 32; l++) *h = (*h ^ lanes[l]) * 1099511628211ull;
                for (; t && *t; t++) *h = (*h ^ (uint8_t)*t) * 1099511628211ull;
                ++*ninst;
                if (in->opcode_id >= GMS_OPCODE_DYN_BASE) dyn_seen++;
            }
    }
    gms_block_trace_free(&b);
    src.release(src.self);
    return rc;
}

TEST(trace_cache_reads_back_what_the_parser_made)
{
    char tmp[256], dir[300], p[512];
    cache_dirs(tmp, sizeof tmp, dir, sizeof dir);
    REQUIRE(tmp[0]);
    recorder plain, wrote, read;
    gms_error err = {0};
    unsetenv("GMS_TRACE_CACHE");
    REQUIRE(rec_collect(data_path(MIXED, p, sizeof p), &plain, &err) == 0);
    setenv("GMS_TRACE_CACHE", dir, 1);
    int rc = rec_collect(p, &wrote, &err);
    if (rc) printf("    %s\n", err.msg);
    REQUIRE(rc == 0);
    CHECK_EQ(count_files(dir, ".gmstc"), 3);   /* one per kernel file, nothing left half-written */
    CHECK_EQ(count_files(dir, "") - 2, 3);     /* (minus . and ..) */
    rc = rec_collect(p, &read, &err);
    if (rc) printf("    %s\n", err.msg);
    REQUIRE(rc == 0);
    CHECK_EQ(rec_compare(&plain, &wrote, 0), 0);
    CHECK_EQ(rec_compare(&plain, &read, 0), 0);
    CHECK_EQ(read.st.warp_insts, plain.st.warp_insts);
    CHECK_EQ(read.st.blocks, plain.st.blocks);
    /* the second run read the cache: a kernel file's cache opens for reading now */
    gms_tcache *c = gms_tcache_open(dir, data_path(K3, p, sizeof p), 99, 99);
    REQUIRE(c);
    /* (99 warps, 99 blocks is not this file's shape: a cache of another shape is not used) */
    CHECK_EQ(gms_tcache_reading(c), 0);
    gms_tcache_close(c);
    CHECK_EQ(count_files(dir, ".gmstc"), 3);
    rec_free(&plain);
    rec_free(&wrote);
    rec_free(&read);
    cache_done(tmp);
}

TEST(trace_cache_keeps_opcode_texts_and_lane_addresses)
{
    char tmp[256], dir[300], p[512];
    cache_dirs(tmp, sizeof tmp, dir, sizeof dir);
    REQUIRE(tmp[0]);
    const char *files[] = {"tests/data/traces/mixed/kernel-1.traceg", "tests/data/traces/mixed/kernel-2.traceg", K3};
    dyn_seen = 0;
    for (int i = 0; i < 3; i++) {
        uint64_t h0, h1, h2, n0, n1, n2;
        gms_error err = {0};
        unsetenv("GMS_TRACE_CACHE");
        REQUIRE(kernel_digest(data_path(files[i], p, sizeof p), &h0, &n0, &err) == 0);
        setenv("GMS_TRACE_CACHE", dir, 1);
        REQUIRE(kernel_digest(p, &h1, &n1, &err) == 0);   /* writes */
        int rc = kernel_digest(p, &h2, &n2, &err);        /* reads */
        if (rc) printf("    %s\n", err.msg);
        REQUIRE(rc == 0);
        CHECK(n0 > 0);
        CHECK_EQ(n1, n0);
        CHECK_EQ(n2, n0);
        CHECK_EQ(h1, h0);
        CHECK_EQ(h2, h0);
        /* the published file is this kernel file's and opens for reading */
        gms_trace_kernel *k = gms_trace_kernel_open(p, &err);
        REQUIRE(k);
        gms_kernel_src src;
        gms_trace_kernel_src(k, 0, &src);
        gms_tcache *c = gms_tcache_open(dir, p, (uint32_t)((gms_dim3_count(src.block) + 31) / 32),
                                        gms_dim3_count(src.grid));
        REQUIRE(c);
        CHECK_EQ(gms_tcache_reading(c), 1);
        gms_tcache_close(c);
        src.release(src.self);
    }
    CHECK(dyn_seen > 0);   /* the cache carried texts of dynamic ids too */
    cache_done(tmp);
}

TEST(trace_cache_parses_a_changed_source_again)
{
    char tmp[256], dir[300], list[400], k1[400];
    cache_dirs(tmp, sizeof tmp, dir, sizeof dir);
    REQUIRE(tmp[0]);
    copy_mixed(tmp);
    snprintf(list, sizeof list, "%s/kernelslist.g", tmp);
    snprintf(k1, sizeof k1, "%s/kernel-1.traceg", tmp);
    recorder a, b;
    gms_error err = {0};
    setenv("GMS_TRACE_CACHE", dir, 1);
    REQUIRE(rec_collect(list, &a, &err) == 0);
    CHECK_EQ(count_files(dir, ".gmstc"), 3);
    /* a new modification time: kernel-1's cache no longer matches, so it is parsed and cached anew */
    struct timespec ts[2] = {{0, UTIME_OMIT}, {1000000000, 5}};
    REQUIRE(utimensat(AT_FDCWD, k1, ts, 0) == 0);
    REQUIRE(rec_collect(list, &b, &err) == 0);
    CHECK_EQ(rec_compare(&a, &b, 0), 0);
    CHECK_EQ(count_files(dir, ".gmstc"), 4);
    rec_free(&a);
    rec_free(&b);
    cache_done(tmp);
}

/* the one published file in dir, or "" */
static void published(const char *dir, char *cf, size_t n)
{
    DIR *d = opendir(dir);
    cf[0] = 0;
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strstr(e->d_name, ".gmstc")) snprintf(cf, n, "%.150s/%.60s", dir, e->d_name);
    closedir(d);
}

TEST(trace_cache_damaged_file_is_one_clear_error)
{
    char tmp[128], dir[160], p[512], cf[256];
    cache_dirs(tmp, sizeof tmp, dir, sizeof dir);
    REQUIRE(tmp[0]);
    uint64_t h0, h, n;
    gms_error err = {0};
    setenv("GMS_TRACE_CACHE", dir, 1);
    REQUIRE(kernel_digest(data_path(K3, p, sizeof p), &h0, &n, &err) == 0);
    published(dir, cf, sizeof cf);
    REQUIRE(cf[0]);
    /* damage after the header: the first block's record tag, recompressed as a valid frame */
    FILE *f = fopen(cf, "rb");
    REQUIRE(f);
    static unsigned char zin[1 << 16], raw[1 << 20], zout[1 << 20];
    size_t zn = fread(zin, 1, sizeof zin, f);
    fclose(f);
    size_t rn = ZSTD_decompress(raw, sizeof raw, zin, zn);
    REQUIRE(!ZSTD_isError(rn));
    uint32_t plen;
    size_t at = 8 + 4 + 4 + 8 + 8 + 8 + 4 + 8;
    memcpy(&plen, raw + at, 4);
    at += 4 + plen;             /* the first block's tag */
    REQUIRE(at + 4 <= rn);
    raw[at] ^= 0x55;
    size_t on = ZSTD_compress(zout, sizeof zout, raw, rn, 1);
    REQUIRE(!ZSTD_isError(on));
    f = fopen(cf, "wb");
    REQUIRE(f);
    fwrite(zout, 1, on, f);
    fclose(f);
    int rc = kernel_digest(p, &h, &n, &err);
    CHECK_EQ(rc, -1);
    CHECK_CONTAINS(err.msg, "damaged");
    CHECK_CONTAINS(err.msg, cf);
    CHECK_CONTAINS(err.msg, "delete it");
    /* a file whose header cannot be read (cut short) is not this source's: parsed and cached anew */
    REQUIRE(truncate(cf, 20) == 0);
    err.msg[0] = 0;
    rc = kernel_digest(p, &h, &n, &err);
    if (rc) printf("    %s\n", err.msg);
    CHECK_EQ(rc, 0);
    CHECK_EQ(h, h0);
    struct stat st;
    CHECK(stat(cf, &st) == 0 && st.st_size > 20);
    REQUIRE(kernel_digest(p, &h, &n, &err) == 0);   /* and read back */
    CHECK_EQ(h, h0);
    cache_done(tmp);
}

TEST(trace_cache_kernel_not_read_to_its_end_publishes_nothing)
{
    char tmp[256], dir[300], p[512];
    cache_dirs(tmp, sizeof tmp, dir, sizeof dir);
    REQUIRE(tmp[0]);
    gms_error err = {0};
    setenv("GMS_TRACE_CACHE", dir, 1);
    /* kernel-1 has two blocks: read one, then stop (a run ended by -gpgpu_max_cycle) */
    gms_trace_kernel *k = gms_trace_kernel_open(data_path("tests/data/traces/mixed/kernel-1.traceg", p, sizeof p), &err);
    REQUIRE(k);
    gms_kernel_src src;
    gms_trace_kernel_src(k, 0, &src);
    REQUIRE(gms_dim3_count(src.grid) == 2);
    gms_block_trace b = {0};
    REQUIRE(gms_trace_kernel_fill(k, 0, &b, &err) == 0);
    CHECK_EQ(count_files(dir, "") - 2, 1);   /* the file being written */
    CHECK_EQ(count_files(dir, ".gmstc"), 0);
    src.release(src.self);
    gms_block_trace_free(&b);
    CHECK_EQ(count_files(dir, "") - 2, 0);   /* removed */
    cache_done(tmp);
}

TEST(trace_cache_unusable_directory_only_costs_the_cache)
{
    char p[512];
    recorder a, b;
    gms_error err = {0};
    unsetenv("GMS_TRACE_CACHE");
    REQUIRE(rec_collect(data_path(MIXED, p, sizeof p), &a, &err) == 0);
    /* a regular file where the directory should be */
    setenv("GMS_TRACE_CACHE", p, 1);
    int rc = rec_collect(p, &b, &err);
    if (rc) printf("    %s\n", err.msg);
    REQUIRE(rc == 0);
    CHECK_EQ(rec_compare(&a, &b, 0), 0);
    unsetenv("GMS_TRACE_CACHE");
    rec_free(&a);
    rec_free(&b);
}
