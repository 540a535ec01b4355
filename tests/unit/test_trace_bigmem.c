/* Bounded memory: a 200+ MB plain trace read block by block keeps the peak RSS growth far
 * below the file size. Also prints the parse throughput. Skipped under GMS_QUICK=1. */
#include "test.h"
#include "test_trace_util.h"
#include "frontend/trace_stat.h"
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static long peak_kb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* one warp's instructions: ALU, loads in the three address formats, a store, exit */
static size_t warp_text(char *o, uint64_t tid0)
{
    size_t n = 0;
    for (int r = 0; r < 6; r++) {
        n += (size_t)sprintf(o + n, "%04x ffffffff 1 R%d IMAD.WIDE 2 R0 R%d 0 0\n", r * 0x40, 2 + r, 3 + r);
        n += (size_t)sprintf(o + n, "%04x ffffffff 1 R%d LDG.E 1 R2 4 1 0x%llx 4 0\n", r * 0x40 + 0x10, 10 + r,
                             0x7f0000000000ULL + (tid0 + (uint64_t)r * 1048576) * 4);
        n += (size_t)sprintf(o + n, "%04x 0000ffff 1 R%d LDG.E.64 1 R2 8 2 0x%llx 8 8 8 -64 8 8 8 8 8 8 8 8 8 8 8 8 0\n",
                             r * 0x40 + 0x20, 20 + r, 0x7f0001000000ULL + tid0 * 8);
        n += (size_t)sprintf(o + n, "%04x ffffffff 1 R%d FFMA 3 R%d R%d R%d 0 0\n", r * 0x40 + 0x30, 30 + r,
                             10 + r, 20 + r, 30 + r);
    }
    n += (size_t)sprintf(o + n, "0200 ffffffff 0 STG.E 2 R2 R30 4 1 0x%llx 4 0\n", 0x7f0002000000ULL + tid0 * 4);
    n += (size_t)sprintf(o + n, "0210 ffffffff 0 EXIT 0 0 0\n");
    return n;
}

TEST(trace_bounded_memory_large_file)
{
    if (gms_test_quick()) SKIP("GMS_QUICK=1");
    char dir[256], path[512];
    make_tmpdir(dir, sizeof dir);
    REQUIRE(dir[0]);
    const uint32_t nblocks = 18000, nwarps = 8;
    snprintf(path, sizeof path, "%s/kernel-1.traceg", dir);
    FILE *f = fopen(path, "w");
    REQUIRE(f);
    fprintf(f, "-kernel name = big\n-kernel id = 1\n-grid dim = (%u,1,1)\n-block dim = (256,1,1)\n-shmem = 0\n"
               "-nregs = 32\n-binary version = 70\n-cuda stream id = 0\n-accelsim tracer version = 4\n"
               "-enable lineinfo = 0\n\n#traces format = ...\n\n", nblocks);
    char *buf = malloc(1 << 20);
    uint64_t bytes = 0;
    for (uint32_t b = 0; b < nblocks; b++) {
        size_t n = (size_t)sprintf(buf, "#BEGIN_TB\n\nthread block = %u,0,0\n\n", b);
        for (uint32_t w = 0; w < nwarps; w++) {
            n += (size_t)sprintf(buf + n, "warp = %u\ninsts = 26\n", w);
            n += warp_text(buf + n, (uint64_t)b * 256 + w * 32);
            buf[n++] = '\n';
        }
        n += (size_t)sprintf(buf + n, "#END_TB\n\n");
        fwrite(buf, 1, n, f);
        bytes += n;
    }
    free(buf);
    REQUIRE(fclose(f) == 0);
    CHECK(bytes > 200u << 20);
    snprintf(path, sizeof path, "%s/kernelslist.g", dir);
    write_file(path, "kernel-1.traceg\n");

    long before = peak_kb();
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    gms_trace_stats st;
    gms_error err = {0};
    int rc = gms_trace_stat(path, &st, &err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    long after = peak_kb();
    if (rc) printf("    %s\n", err.msg);
    CHECK_EQ(rc, 0);
    CHECK_EQ(st.blocks, nblocks);
    CHECK_EQ(st.warp_insts, (uint64_t)nblocks * nwarps * 26);
    double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    printf("    %.0f MB plain trace: %.2f s, %.0f MB/s, peak RSS growth %ld KB\n", (double)bytes / 1e6, s,
           (double)bytes / 1e6 / s, after - before);
    CHECK(after - before < 48 * 1024);   /* a 1 MiB line buffer and one block, not the file */
    snprintf(path, sizeof path, "%s/kernel-1.traceg", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/kernelslist.g", dir);
    unlink(path);
    rmdir(dir);
}
