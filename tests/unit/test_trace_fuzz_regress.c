/* Fuzz regressions: every file of fuzz/corpus/ and a set of hostile inputs read without a
 * crash (under ASan/UBSan in `make test-asan`): each either reads or fails with a message.
 * Crashes found by fuzz/run.sh get a case here (none found so far: the cases below are the
 * shapes that exercised the fixed code paths while developing the reader). */
#include "test.h"
#include "test_trace_util.h"
#include "frontend/trace_stat.h"
#include <dirent.h>
#include <stdlib.h>
#include <zstd.h>

#define HDR "-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-binary version = 70\n-accelsim tracer version = 4\n#\n"

/* 0 = read fine, 1 = clean error; crashes are caught by the sanitizers */
static int read_bytes(const char *dir, const void *data, size_t n)
{
    char k[512], l[512];
    snprintf(k, sizeof k, "%s/kernel-1.traceg", dir);
    snprintf(l, sizeof l, "%s/kernelslist.g", dir);
    FILE *f = fopen(k, "wb");
    if (!f) return -1;
    fwrite(data, 1, n, f);
    fclose(f);
    write_file(l, "kernel-1.traceg\n");
    gms_trace_stats st;
    gms_error err = {0};
    if (gms_trace_stat(l, &st, &err) == 0) return 0;
    return err.msg[0] ? 1 : -1;   /* an error must say what is wrong */
}

TEST(trace_fuzz_hostile_inputs)
{
    char dir[256];
    make_tmpdir(dir, sizeof dir);
    REQUIRE(dir[0]);
    static const char *const cases[] = {
        "",
        "\n\n\n",
        HDR,                                                              /* header only: no block */
        HDR "#BEGIN_TB\n",
        HDR "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 99999999999\n#END_TB\n",
        HDR "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 4294967295\n0000 ffffffff 0 EXIT 0 0 0\n",
        HDR "#BEGIN_TB\nthread block = 0,0,0\nwarp = 99999999999999999999\n",
        HDR "#BEGIN_TB\nthread block = 4294967296,0,0\n",
        HDR "#BEGIN_TB\nthread block = 0,0\n",
        HDR "#BEGIN_TB\ninsts = 1\n",
        HDR "#BEGIN_TB\r\nthread block = 0,0,0\r\nwarp = 0\r\ninsts = 1\r\n0000 ffffffff 0 EXIT 0 0 0\r\n#END_TB\r\n",
        HDR "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n0000 00000000 1 R1 LDG.E 1 R2 4 2 0x10 0\n#END_TB\n",
        HDR "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n0000 ffffffff 1 R1 LDG.E 1 R2 4 2 0xffffffffffffffff "
            "-9223372036854775808 9223372036854775807 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 0\n#END_TB\n",
        HDR "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n0000 ffffffff 1 R1 LDG.E 1 R2 4 1 0x10000000000000000 4 0\n",
        HDR "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n0000 ffffffff 1 R1 .... 0 0 0\n",
        HDR "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n0000 ffffffff 1 R1 LDG.E.99999999999999 1 R2 4 1 0x1 4 0\n",
        HDR "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n0000 ffffffff 1 R1 LD.E 1 R2 4 1 0x1 4 0\n#END_TB\n",
        "-grid dim = (4294967295,65535,65535)\n-block dim = (1024,1,1)\n-binary version = 75\n#\n#BEGIN_TB\n"
            "thread block = 0,0,0\nwarp = 31\ninsts = 0\n#END_TB\n",
        "-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-binary version = 70\n-enable lineinfo = 1\n"
            "-accelsim tracer version = 2\n#\n#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
            "1 2 3 4 5 0000 ffffffff 0 EXIT 0 0 0\n#END_TB\n",
        "-kernel name = \n-grid dim = ( 1 , 1 , 1 )\n-block dim = (32,1,1)\n-binary version = 70\n-nregs =\n#\n",
        "\xfd" "7zXZ\x00garbage-after-the-magic",
        "\x28\xb5\x2f\xfd garbage-after-the-magic",
    };
    /* what each case must give: 1 a clean error (no block; an instruction count past the
     * lines or past 32 bits; a warp, block index or grid past its range; a truncated block; a
     * bad opcode or address; damaged compressed data), 0 a read (CRLF line ends, an empty mask
     * with an address, extreme but valid addresses, a plain LD, a warp of no instructions,
     * tracer 2 with line info) */
    static const int want[] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 1, 1, 0, 1, 0, 1, 1, 1 };
    _Static_assert(sizeof want / sizeof want[0] == sizeof cases / sizeof cases[0], "one outcome per case");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int r = read_bytes(dir, cases[i], strlen(cases[i]));
        if (r != want[i]) printf("    case %zu: %s, expected %s\n", i, r < 0 ? "failed without a message" : r ? "an error" : "read", want[i] ? "an error" : "a read");
        CHECK_EQ(r, want[i]);
    }
    /* embedded NUL bytes */
    static const char nul[] = HDR "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n0000 ff\0ffff 0 EXIT 0 0 0\n#END_TB\n";
    CHECK(read_bytes(dir, nul, sizeof nul - 1) == 1);
    /* a 600 KB line (fields separated by runs of blanks): the line buffer grows */
    size_t big = 600 * 1024;
    char *p = malloc(big + 512);
    size_t n = (size_t)sprintf(p, HDR "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n0000 ffffffff 0");
    memset(p + n, ' ', big);
    n += big;
    n += (size_t)sprintf(p + n, "EXIT 0 0 0\n#END_TB\n");
    CHECK(read_bytes(dir, p, n) == 0);
    free(p);
    /* a valid zstd frame followed by garbage */
    char z[256];
    size_t zn = ZSTD_compress(z, sizeof z, HDR, strlen(HDR), 1);
    REQUIRE(!ZSTD_isError(zn));
    memcpy(z + zn, "junkjunk", 8);
    CHECK(read_bytes(dir, z, zn + 8) == 1);
}

TEST(trace_fuzz_corpus_replay)
{
    char dir[256], path[1024];
    const char *corpus = data_path("fuzz/corpus", path, sizeof path);
    DIR *d = opendir(corpus);
    if (!d) SKIP_OR_FAIL_IN_CI("%s not found (the tests run from the project root)", corpus);
    make_tmpdir(dir, sizeof dir);
    REQUIRE(dir[0]);
    struct dirent *e;
    int files = 0;
    char *buf = malloc(1 << 20);
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char fp[1400];
        snprintf(fp, sizeof fp, "%s/%s", corpus, e->d_name);
        FILE *f = fopen(fp, "rb");
        if (!f) continue;
        size_t n = fread(buf, 1, 1 << 20, f);
        fclose(f);
        int r = read_bytes(dir, buf, n);
        if (r < 0) printf("    %s: failed without a message\n", e->d_name);
        CHECK(r >= 0);
        files++;
    }
    closedir(d);
    free(buf);
    CHECK(files > 0);
}
