/* Bad input: one clear error naming file, line and field; never a crash. */
#include "test.h"
#include "test_trace_util.h"
#include "frontend/trace.h"
#include <lzma.h>
#include <stdlib.h>

#define HDR "-kernel name = k\n-kernel id = 1\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-shmem = 0\n" \
            "-nregs = 8\n-binary version = 70\n-cuda stream id = 0\n-accelsim tracer version = 4\n\n" \
            "#traces format = ...\n\n"
#define TB(body) "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\n" body "#END_TB\n"

/* writes kernelslist.g + kernel-1.traceg (kernel text) in a fresh dir, reads it, returns the
 * error message (static buffer) or NULL when reading succeeded */
static const char *read_error(const char *list, const char *kernel)
{
    static char msg[1100];
    char dir[256], p[512];
    make_tmpdir(dir, sizeof dir);
    snprintf(p, sizeof p, "%s/kernelslist.g", dir);
    write_file(p, list ? list : "kernel-1.traceg\n");
    if (kernel) {
        char k[512];
        snprintf(k, sizeof k, "%s/kernel-1.traceg", dir);
        write_file(k, kernel);
    }
    gms_trace_stats st;
    gms_error err = {0};
    if (gms_trace_stat(p, &st, &err) == 0) return NULL;
    snprintf(msg, sizeof msg, "%s", err.msg);
    return msg;
}

#define EXPECT_ERR(list, kernel, s1, s2)                                       \
    do {                                                                       \
        const char *m_ = read_error(list, kernel);                             \
        CHECK(m_ != NULL);                                                     \
        if (m_) { CHECK_CONTAINS(m_, s1); CHECK_CONTAINS(m_, s2); }            \
    } while (0)

TEST(trace_error_good_baseline)
{
    CHECK(read_error(NULL, HDR TB("insts = 1\n0000 ffffffff 0 EXIT 0 0 0\n")) == NULL);
}

TEST(trace_error_truncated)
{
    /* file ends inside a warp's instruction lines */
    EXPECT_ERR(NULL, HDR "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 3\n0000 ffffffff 0 EXIT 0 0 0\n",
               "kernel-1.traceg:17:", "truncated");
    /* cut in the middle of a line: the line has too few fields */
    EXPECT_ERR(NULL, HDR "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n0000 ffffffff 1 R2 LDG.E 1 R4 4 1 0x7f00",
               ":17:", "field 'stride'");
    /* no #END_TB */
    EXPECT_ERR(NULL, HDR "#BEGIN_TB\nthread block = 0,0,0\n", "kernel-1.traceg", "no #END_TB");
    /* fewer blocks than the grid */
    EXPECT_ERR(NULL, "-grid dim = (2,1,1)\n-block dim = (32,1,1)\n-binary version = 70\n"
                     "-accelsim tracer version = 4\n#traces format\n" TB("insts = 0\n"),
               "kernel-1.traceg", "has 1 thread blocks, the grid (2,1,1) has 2");
}

TEST(trace_error_field_counts)
{
    EXPECT_ERR(NULL, HDR TB("insts = 1\n0000 ffffffff 1 R1 MOV 0\n"), ":17:", "before field 'mem_width'");
    EXPECT_ERR(NULL, HDR TB("insts = 1\n0000 ffffffff 1 R1 MOV 0 0 0 7\n"), ":17:", "too many fields");
    EXPECT_ERR(NULL, HDR TB("insts = 1\n0000 ffffffff 2 R1\n"), ":17:", "field 'dst register'");
    EXPECT_ERR(NULL, HDR TB("insts = 1\n0000 zzzzffff 0 EXIT 0 0 0\n"), ":17:", "field 'mask'");
    EXPECT_ERR(NULL, HDR TB("insts = 1\n0000 ffffffff 0 EXIT 9 0 0\n"), ":17:", "field 'src count'");
    EXPECT_ERR(NULL, HDR TB("insts = 1\n0000 ffffffff 1 R300 MOV 0 0 0\n"), ":17:", "R0..R255");
    /* list format with fewer addresses than active lanes */
    EXPECT_ERR(NULL, HDR TB("insts = 1\n0000 00000007 1 R2 LDG.E 1 R4 4 0 0x10 0x20\n"), ":17:", "field 'address'");
    /* more instruction lines than insts = N; fewer */
    EXPECT_ERR(NULL, HDR TB("insts = 1\n0000 ffffffff 0 EXIT 0 0 0\n0010 ffffffff 0 EXIT 0 0 0\n"), ":18:",
               "outside a warp");
    EXPECT_ERR(NULL, HDR TB("insts = 2\n0000 ffffffff 0 EXIT 0 0 0\n"), ":18:", "insts = 2 but only 1");
}

TEST(trace_error_address_format)
{
    EXPECT_ERR(NULL, HDR TB("insts = 1\n0000 ffffffff 1 R2 LDG.E 1 R4 4 3 0x7f00 4 0\n"), ":17:",
               "field 'address format': 3 does not exist");
    EXPECT_ERR(NULL, HDR TB("insts = 1\n0000 ffffffff 1 R2 LDG.E 1 R4 4 1 0x7f00 x4 0\n"), ":17:", "field 'stride'");
    EXPECT_ERR(NULL, HDR TB("insts = 1\n0000 00000003 1 R2 LDG.E 1 R4 4 2 0x7f00\n"), ":17:", "field 'delta'");
    EXPECT_ERR(NULL, HDR TB("insts = 1\n0000 ffffffff 1 R2 LDG.E 1 R4 0 0\n"), ":17:", "mem_width is 0");
}

TEST(trace_error_opcode)
{
    EXPECT_ERR(NULL, HDR TB("insts = 1\n0000 ffffffff 0 FROB.X 0 0 0\n"), ":17:",
               "'FROB.X' is not in the Volta opcode table");
    /* XMAD is Pascal-only: unknown to Volta */
    EXPECT_ERR(NULL, HDR TB("insts = 1\n0000 ffffffff 1 R1 XMAD 0 0 0\n"), ":17:", "field 'opcode'");
    EXPECT_ERR(NULL, HDR TB("insts = 1\n0000 ffffffff 1 R1 LDG.E.U4 1 R2 4 1 0x10 4 0\n"), ":17:",
               "access width");
    EXPECT_ERR(NULL, "-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-binary version = 99\n#\n", "kernel-1.traceg",
               "-binary version = 99");
}

TEST(trace_error_header_and_blocks)
{
    EXPECT_ERR(NULL, "-grid dim = (1,1)\n", ":1:", "-grid dim");
    EXPECT_ERR(NULL, "-block dim = (32,1,1)\n-binary version = 70\n#\n", "kernel-1.traceg", "no '-grid dim'");
    EXPECT_ERR(NULL, "-grid dim = (1,1,1)\n-block dim = (2048,1,1)\n-binary version = 70\n#\n", "", "1 to 1024");
    EXPECT_ERR(NULL, "hello\n", ":1:", "header line");
    EXPECT_ERR(NULL, HDR "#BEGIN_TB\nthread block = 0,0,0\nwarp = 1\ninsts = 0\n#END_TB\n", ":15:",
               "warp 1 does not exist");
    EXPECT_ERR(NULL, HDR "#BEGIN_TB\nthread block = 5,0,0\n#END_TB\n", ":14:", "outside the grid");
    EXPECT_ERR(NULL, HDR "garbage\n", ":13:", "expected '#BEGIN_TB'");
}

TEST(trace_error_kernelslist)
{
    EXPECT_ERR("kernel-9.traceg\n", NULL, "kernelslist.g:1:", "not found");
    EXPECT_ERR("# comment\nMemcpyHtoD,0x10\n", NULL, "kernelslist.g:2:", "3 comma-separated fields");
    EXPECT_ERR("MemcpyHtoD,0xzz,12\n", NULL, "kernelslist.g:1:", "field 2 (address)");
    EXPECT_ERR("MemcpyHtoD,0x10,1x2\n", NULL, "kernelslist.g:1:", "field 3 (bytes)");
    EXPECT_ERR("kernel-1.traceg, extra\n", NULL, "kernelslist.g:1:", "not a kernel trace file name");
    gms_trace_stats st;
    gms_error err = {0};
    CHECK(gms_trace_stat("/nonexistent/kernelslist.g", &st, &err) != 0);
    CHECK_CONTAINS(err.msg, "cannot open");
}

TEST(trace_error_truncated_xz)
{
    char dir[256], p[512];
    make_tmpdir(dir, sizeof dir);
    const char *text = HDR TB("insts = 1\n0000 ffffffff 0 EXIT 0 0 0\n");
    size_t n = strlen(text), cap = n + 1024, on = 0;
    uint8_t *out = malloc(cap);
    REQUIRE(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, NULL, (const uint8_t *)text, n, out, &on, cap) == LZMA_OK);
    snprintf(p, sizeof p, "%s/kernel-1.traceg.xz", dir);
    FILE *f = fopen(p, "wb");
    REQUIRE(f);
    fwrite(out, 1, on / 2, f);   /* cut the compressed stream in half */
    fclose(f);
    free(out);
    snprintf(p, sizeof p, "%s/kernelslist.g", dir);
    write_file(p, "kernel-1.traceg.xz\n");
    gms_trace_stats st;
    gms_error err = {0};
    CHECK(gms_trace_stat(p, &st, &err) != 0);
    CHECK_CONTAINS(err.msg, "kernel-1.traceg.xz");
    CHECK_CONTAINS(err.msg, "xz");
}
