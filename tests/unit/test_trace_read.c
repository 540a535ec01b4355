/* Reading hand-written traces (tests/data/traces/mixed): tracer versions 3, 4 and 5, the
 * three address formats, R255, immediates, lineinfo, generic LD, MemcpyHtoD lines, two
 * streams, Volta/Pascal/Ampere tables; plain, .xz and .zst giving identical records. */
#include "test.h"
#include "test_trace_util.h"
#include "frontend/trace.h"
#include "frontend/trace_write.h"
#include <lzma.h>
#include <stdlib.h>
#include <zstd.h>

#define MIXED "tests/data/traces/mixed/kernelslist.g"
#define A(x) 0x7f0000##x##ULL

TEST(trace_read_mixed_records)
{
    char p[512];
    recorder r;
    gms_error err = {0};
    int rc = rec_collect(data_path(MIXED, p, sizeof p), &r, &err);
    if (rc) printf("    %s\n", err.msg);
    REQUIRE(rc == 0);
    CHECK_EQ(r.st.kernels, 3);
    CHECK_EQ(r.st.copies, 2);
    CHECK_EQ(r.st.copy_bytes, 4096 + 256);
    CHECK_EQ(r.st.blocks, 4);
    REQUIRE(r.n == 22);
    REQUIRE(r.nk == 3);
    /* kernel-level fields */
    CHECK_STR(r.k[0].name, "_Z4testPfS_");
    CHECK_EQ(r.k[0].grid.x, 2);
    CHECK_EQ(r.k[0].block.x, 64);
    CHECK_EQ(r.k[0].shmem, 1024);
    CHECK_EQ(r.k[0].regs, 24);
    CHECK_EQ(r.k[0].stream, 0);
    CHECK_EQ(r.k[1].stream, 1);   /* -cuda stream id = 94251234567: a second stream */
    CHECK_EQ(r.k[2].stream, 0);
    CHECK_EQ(r.st.streams_max, 2);

    const rec_inst *v = r.v;
    CHECK_EQ(v[0].in.op, GMS_OP_INT);
    CHECK_EQ(v[0].in.dst[0], 1);
    CHECK_EQ(v[0].in.mask, 0xffffffffu);
    CHECK_EQ(v[0].in.addr_mode, GMS_ADDR_NONE);
    CHECK_EQ(v[1].in.dst[0], 2);   /* a two-destination line: R2 R3 */
    CHECK_EQ(v[1].in.dst[1], 3);
    CHECK_EQ(v[1].in.src[0], 0);
    CHECK_EQ(v[1].in.src[1], GMS_REG_NONE);   /* R255 = RZ */
    CHECK_EQ(v[1].in.pc, 0x10);
    /* base+stride, .64 width */
    CHECK_EQ(v[2].in.op, GMS_OP_MEM);
    CHECK_EQ(v[2].in.mem, GMS_MEM_LD_GLOBAL);
    CHECK_EQ(v[2].in.width, 8);
    CHECK_EQ(v[2].in.addr_mode, GMS_ADDR_STRIDE);
    CHECK_EQ(v[2].lanes[0], A(000000));
    CHECK_EQ(v[2].lanes[31], A(000000) + 31 * 8);
    CHECK_EQ(v[2].in.flags, 0);
    /* list, .U8 width, 4 active lanes */
    CHECK_EQ(v[3].in.mem, GMS_MEM_ST_GLOBAL);
    CHECK_EQ(v[3].in.width, 1);
    CHECK_EQ(v[3].in.mask, 0xfu);
    CHECK_EQ(v[3].in.dst[0], GMS_REG_NONE);
    CHECK_EQ(v[3].in.src[0], 2);
    CHECK_EQ(v[3].in.src[1], 4);
    CHECK_EQ(v[3].lanes[0], A(200000));
    CHECK_EQ(v[3].lanes[1], A(200010));
    CHECK_EQ(v[3].lanes[2], A(200005));
    CHECK_EQ(v[3].lanes[3], A(200100));
    CHECK_EQ(v[3].lanes[4], 0);
    /* base+delta with popcount-1 deltas, STRONG.GPU bypass */
    CHECK_EQ(v[4].in.flags, GMS_INST_BYPASS_L1);
    CHECK_EQ(v[4].in.width, 4);
    CHECK_EQ(v[4].lanes[3], 0);
    CHECK_EQ(v[4].lanes[4], A(300000));
    CHECK_EQ(v[4].lanes[5], A(300004));
    CHECK_EQ(v[4].lanes[6], A(2ffffc));
    CHECK_EQ(v[4].lanes[7], A(300060));
    /* atomics at L2 (memory kind), broadcast stride 0 */
    CHECK_EQ(v[5].in.mem, GMS_MEM_ATOM_GLOBAL);
    CHECK_EQ(v[5].lanes[17], A(400000));
    CHECK_EQ(v[6].in.op, GMS_OP_BAR);
    /* generic LD inside the shared window */
    CHECK_EQ(v[7].in.mem, GMS_MEM_LD_SHARED);
    CHECK_EQ(v[8].in.op, GMS_OP_BRA);
    CHECK_EQ(v[8].in.spec_unit, 1);
    /* mask 00000000 memory instruction: counted, no addresses */
    CHECK_EQ(v[9].in.op, GMS_OP_MEM);
    CHECK_EQ(v[9].in.mask, 0);
    CHECK_EQ(v[9].in.addr_mode, GMS_ADDR_NONE);
    CHECK_EQ(v[10].in.op, GMS_OP_EXIT);
    /* warp 1: LDS.U.128 on the upper 16 lanes */
    CHECK_EQ(v[11].warp, 1);
    CHECK_EQ(v[11].in.mem, GMS_MEM_LD_SHARED);
    CHECK_EQ(v[11].in.width, 16);
    CHECK_EQ(v[11].lanes[15], 0);
    CHECK_EQ(v[11].lanes[16], 0x7ff000000000ULL);
    CHECK_EQ(v[11].lanes[31], 0x7ff000000000ULL + 15 * 16);
    CHECK_EQ(v[13].block, 1);
    CHECK_EQ(v[13].bx, 1);
    /* kernel 2: tracer version 3 (no immediates), Pascal table */
    CHECK_EQ(v[14].kernel, 1);
    CHECK_EQ(v[14].in.op, GMS_OP_INT);   /* XMAD */
    CHECK_EQ(v[15].lanes[0], A(001000));
    CHECK_EQ(v[15].lanes[31], A(002000));
    CHECK_EQ(v[16].in.op, GMS_OP_INT);   /* Pascal BRA: BRANCH_OP, Accel-Sim's INT latency and pipe */
    CHECK_EQ(v[16].in.spec_unit, 0);     /* not a specialised unit */
    /* kernel 3: tracer version 5 with line numbers, Ampere table */
    CHECK_EQ(v[18].in.mem, GMS_MEM_LDGSTS);
    CHECK_EQ(v[18].in.width, 16);
    CHECK_EQ(v[18].lanes[1], A(000010));
    CHECK_EQ(v[19].in.op, GMS_OP_TENSOR);
    CHECK_EQ(v[19].in.spec_unit, 3);
    CHECK_EQ(v[19].in.src[2], 8);
    CHECK_EQ(v[20].in.op, GMS_OP_UDP);   /* UIADD3: uniform datapath, a pipe of its own */
    CHECK_EQ(v[20].in.spec_unit, 4);
    CHECK_EQ(v[21].in.op, GMS_OP_EXIT);
    CHECK_EQ(r.st.warp_insts, 22);
    rec_free(&r);
}

static int copy_compressed(const char *src, const char *dst, int zstd)
{
    FILE *f = fopen(src, "rb");
    if (!f) return -1;
    static char in[1 << 16];
    size_t n = fread(in, 1, sizeof in, f);
    fclose(f);
    size_t cap = n * 2 + 1024, out_n = 0;
    unsigned char *out = malloc(cap);
    if (zstd) {
        out_n = ZSTD_compress(out, cap, in, n, 3);
        if (ZSTD_isError(out_n)) { free(out); return -1; }
    } else if (lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, NULL, (const uint8_t *)in, n, out, &out_n, cap) != LZMA_OK) {
        free(out);
        return -1;
    }
    FILE *g = fopen(dst, "wb");
    int rc = g && fwrite(out, 1, out_n, g) == out_n ? 0 : -1;
    if (g) fclose(g);
    free(out);
    return rc;
}

TEST(trace_read_compressed_identical)
{
    char dir[256], p[512], q[600];
    make_tmpdir(dir, sizeof dir);
    REQUIRE(dir[0]);
    /* kernel-1 as .xz (listed under its compressed name), kernel-2 as .zst (listed under the
     * plain name: found by trying the extension), kernel-3 as .xz */
    static const char *const names[3] = {"kernel-1.traceg", "kernel-2.traceg", "kernel-3.traceg"};
    static const char *const ext[3] = {".xz", ".zst", ".xz"};
    for (int i = 0; i < 3; i++) {
        snprintf(p, sizeof p, "tests/data/traces/mixed/%s", names[i]);
        snprintf(q, sizeof q, "%s/%s%s", dir, names[i], ext[i]);
        char dp[512];
        REQUIRE(copy_compressed(data_path(p, dp, sizeof dp), q, i == 1) == 0);
    }
    snprintf(q, sizeof q, "%s/kernelslist.g", dir);
    REQUIRE(write_file(q, "MemcpyHtoD,0x00007f0000000000,4096\nkernel-1.traceg.xz\nkernel-2.traceg\n"
                          "MemcpyHtoD,0x00007f0000200000,256\nkernel-3.traceg.xz\n") == 0);
    recorder a, b;
    gms_error err = {0};
    REQUIRE(rec_collect(data_path(MIXED, p, sizeof p), &a, &err) == 0);
    int rc = rec_collect(q, &b, &err);
    if (rc) printf("    %s\n", err.msg);
    CHECK_EQ(rc, 0);
    CHECK_EQ(rec_compare(&a, &b, 0), 0);
    CHECK_EQ(b.st.copies, 2);
    rec_free(&a);
    rec_free(&b);
}

/* Re-writing a read trace (trace convert) and reading it again gives the same records,
 * opcode ids included: texts outside the canonical set come back through the resolver. */
TEST(trace_read_convert_roundtrip)
{
    char dir[256], p[512], q[600];
    make_tmpdir(dir, sizeof dir);
    REQUIRE(dir[0]);
    gms_program_src src;
    gms_error err = {0};
    REQUIRE(gms_trace_program(data_path(MIXED, p, sizeof p), &src, &err) == 0);
    int rc = gms_trace_write_program(&src, dir, 5, 0, 0, 1, &err);
    src.destroy(src.self);
    if (rc) printf("    %s\n", err.msg);
    REQUIRE(rc == 0);
    recorder a, b;
    snprintf(q, sizeof q, "%s/kernelslist.g", dir);
    REQUIRE(rec_collect(p, &a, &err) == 0);
    rc = rec_collect(q, &b, &err);
    if (rc) printf("    %s\n", err.msg);
    CHECK_EQ(rc, 0);
    CHECK_EQ(rec_compare(&a, &b, 0), 0);
    CHECK_EQ(b.st.copies, 2);
    CHECK_EQ(b.k[1].stream, 1);
    rec_free(&a);
    rec_free(&b);
}
