/* Export then import: a tiny workload defined here (two kernels on two streams, a copy,
 * every memory kind the writer knows, widths 1..16, all three address formats, partial and
 * empty masks, L1 bypass, atomics with and without a result) written as a trace and read
 * back gives the same records; re-writing the read trace gives byte-identical files. */
#include "test.h"
#include "test_trace_util.h"
#include "frontend/emit.h"
#include "frontend/opcodes.h"
#include "frontend/trace.h"
#include "frontend/trace_write.h"
#include "workloads/workload.h"
#include <stdlib.h>

typedef struct tiny { int step; uint64_t a, b; } tiny;

static int tiny_create(const gms_wl_args *a, void **state, gms_error *err)
{
    *state = calloc(1, sizeof(tiny));
    return 0;
}
static void tiny_destroy(void *s) { free(s); }
static int tiny_verify(void *s, gms_error *err) { return 0; }

static void fill_k1_warp(gms_warp_trace *w, uint64_t blk, uint32_t wi, uint64_t a, uint64_t b)
{
    gms_emit e;
    uint64_t ad[32];
    gms_emit_begin(&e, w);
    uint8_t r0 = gms_emit_alu(&e, 0x00, 0xffffffffu, GMS_OP_INT, GMS_REG_NONE, GMS_REG_NONE, GMS_REG_NONE);
    uint8_t r1 = gms_emit_alu(&e, 0x10, 0xffffffffu, GMS_OP_INT, r0, GMS_REG_NONE, r0);
    uint64_t tid0 = blk * 64 + wi * 32;
    for (int l = 0; l < 32; l++) ad[l] = a + (tid0 + (uint64_t)l) * 4;
    uint8_t x = gms_emit_load(&e, 0x20, 0xffffffffu, GMS_MEM_LD_GLOBAL, 4, ad, r1);
    for (int l = 0; l < 32; l++) ad[l] = b + (uint64_t)l * 4096;
    uint8_t y = gms_emit_load(&e, 0x30, 0xffffffffu, GMS_MEM_LD_GLOBAL, 8, ad, r1);
    w->insts[w->n - 1].flags |= GMS_INST_BYPASS_L1;
    for (int l = 0; l < 32; l++) ad[l] = a + ((uint64_t)l << 33);   /* stride beyond 32 bits: list */
    gms_emit_load(&e, 0x40, 0x0000ffffu, GMS_MEM_LD_GLOBAL, 4, ad, r1);
    for (int l = 0; l < 32; l++) ad[l] = b + ((uint64_t)l * 2654435761u % 65536) * 16;   /* scattered */
    gms_emit_load(&e, 0x50, 0x0f0f0f0fu, GMS_MEM_LD_GLOBAL, 16, ad, r1);
    gms_emit_load(&e, 0x60, 1u << 5, GMS_MEM_LD_GLOBAL, 2, ad, r1);       /* one lane */
    gms_emit_load(&e, 0x70, 0, GMS_MEM_LD_GLOBAL, 4, ad, r1);             /* no lane */
    uint8_t s = gms_emit_alu(&e, 0x80, 0xffffffffu, GMS_OP_SP, x, y, GMS_REG_NONE);
    gms_emit_alu(&e, 0x90, 0xffffffffu, GMS_OP_DP, s, s, s);
    gms_emit_alu(&e, 0xa0, 0xffffffffu, GMS_OP_SFU, s, GMS_REG_NONE, GMS_REG_NONE);
    gms_emit_alu(&e, 0xb0, 0xffffffffu, GMS_OP_TENSOR, s, s, s);
    for (int l = 0; l < 32; l++) ad[l] = b + 0x100000 + (uint64_t)(31 - l) * 8;   /* descending */
    gms_emit_store(&e, 0xc0, 0xffffffffu, GMS_MEM_ST_GLOBAL, 1, ad, r1, s);
    gms_emit_store(&e, 0xd0, 0xfffffff0u, GMS_MEM_ST_GLOBAL, 8, ad, r1, s);
    for (int l = 0; l < 32; l++) ad[l] = b + 0x200000 + (uint64_t)(l % 4) * 4;
    gms_emit_atomic(&e, 0xe0, 0xffffffffu, GMS_MEM_ATOM_GLOBAL, 4, ad, r1, s);
    gms_emit_atomic(&e, 0xf0, 0xffffffffu, GMS_MEM_ATOM_GLOBAL, 8, ad, r1, s);
    w->insts[w->n - 1].dst[0] = GMS_REG_NONE;   /* RED: no result */
    for (int l = 0; l < 32; l++) ad[l] = 0x7ff000000000ULL + (uint64_t)l * 4;
    uint8_t sh = gms_emit_load(&e, 0x100, 0xffffffffu, GMS_MEM_LD_SHARED, 4, ad, r1);
    gms_emit_store(&e, 0x110, 0xffffffffu, GMS_MEM_ST_SHARED, 16, ad, r1, sh);
    gms_emit_atomic(&e, 0x120, 0xffffffffu, GMS_MEM_ATOM_SHARED, 4, ad, r1, sh);
    for (int l = 0; l < 32; l++) ad[l] = 0x7ff100000000ULL + (uint64_t)l * 4;
    gms_emit_store(&e, 0x130, 0xffffffffu, GMS_MEM_ST_LOCAL, 4, ad, r1, sh);
    gms_emit_load(&e, 0x140, 0xffffffffu, GMS_MEM_LD_LOCAL, 4, ad, r1);
    gms_emit_load(&e, 0x150, 0xffffffffu, GMS_MEM_LD_CONST, 4, ad, r1);
    gms_emit_bar(&e, 0x160);
    gms_emit_alu(&e, 0x170, 0x0000ffffu, GMS_OP_BRA, r1, GMS_REG_NONE, GMS_REG_NONE);
    gms_emit_exit(&e, 0x180, 0xffffffffu);
}

static int k1_fill(void *self, uint64_t blk, gms_block_trace *out, gms_error *err)
{
    const tiny *t = self;
    for (uint32_t w = 0; w < out->nwarps; w++) fill_k1_warp(&out->warps[w], blk, w, t->a, t->b);
    return 0;
}

static int k2_fill(void *self, uint64_t blk, gms_block_trace *out, gms_error *err)
{
    const tiny *t = self;
    for (uint32_t w = 0; w < out->nwarps; w++) {
        gms_emit e;
        uint64_t ad[32];
        uint32_t mask = w == 1 ? 0xffffu : 0xffffffffu;   /* 48 threads: second warp half full */
        gms_emit_begin(&e, &out->warps[w]);
        for (int l = 0; l < 32; l++) ad[l] = t->a + (blk * 48 + w * 32 + (uint64_t)l) * 4;
        uint8_t v = gms_emit_load(&e, 0, mask, GMS_MEM_LD_GLOBAL, 4, ad, GMS_REG_NONE);
        gms_emit_store(&e, 0x10, mask, GMS_MEM_ST_GLOBAL, 4, ad, GMS_REG_NONE, v);
        gms_emit_exit(&e, 0x20, mask);
    }
    return 0;
}

static int tiny_next(void *state, gms_program *prog, gms_error *err)
{
    tiny *t = state;
    if (t->step++) return 0;
    t->a = gms_prog_alloc(prog, 1 << 20, "a");
    t->b = gms_prog_alloc(prog, 4 << 20, "b");
    gms_prog_copy_h2d(prog, t->a, 1 << 20);
    gms_kernel_src k = {0};
    snprintf(k.name, sizeof k.name, "tiny_k1");
    k.grid = (gms_dim3){4, 1, 1};
    k.block = (gms_dim3){64, 1, 1};
    k.shmem_bytes = 512;
    k.regs_per_thread = 32;
    k.fill_block = k1_fill;
    k.self = t;
    gms_prog_launch(prog, &k);
    snprintf(k.name, sizeof k.name, "tiny_k2");
    k.grid = (gms_dim3){2, 2, 1};
    k.block = (gms_dim3){48, 1, 1};
    k.stream = 1;
    k.fill_block = k2_fill;
    gms_prog_launch(prog, &k);
    gms_prog_sync(prog);
    return 1;
}

static const gms_wl_param tiny_params[] = {{NULL, NULL, NULL}};
static const gms_workload_ops tiny_ops = {
    .name = "tiny_rt", .suite = "test", .domain = "-", .ri = "-", .summary = "trace round trip",
    .params = tiny_params, .create = tiny_create, .next = tiny_next, .verify = tiny_verify,
    .destroy = tiny_destroy,
};

static int collect_original(recorder *r, gms_error *err)
{
    gms_wl_args *a = NULL;
    if (gms_wl_args_parse(&tiny_ops, NULL, 1, &a, err)) return -1;
    gms_program_src src;
    void *st = NULL;
    int rc = gms_workload_program(&tiny_ops, a, &src, &st, err);
    if (rc == 0) {
        rc = rec_collect_src(&src, r, err);
        src.destroy(src.self);
        tiny_ops.destroy(st);
    }
    gms_wl_args_free(a);
    return rc;
}

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *p = malloc((size_t)len + 1);
    *n = fread(p, 1, (size_t)len, f);
    p[*n] = 0;
    fclose(f);
    return p;
}

TEST(trace_export_import_roundtrip)
{
    char dir[256], dir2[256], list[512];
    gms_error err = {0};
    recorder orig, back;
    REQUIRE(collect_original(&orig, &err) == 0);
    REQUIRE(orig.n > 0);
    /* what the writer turns each record into: its Volta opcode, Accel-Sim's unit for it */
    for (size_t i = 0; i < orig.n; i++) {
        gms_inst *in = &orig.v[i].in;
        in->opcode_id = gms_opcode_choose(in);
        in->spec_unit = in->op == GMS_OP_BRA ? 1 : in->op == GMS_OP_TEX ? 2 : in->op == GMS_OP_TENSOR ? 3 : 0;
    }
    for (int version = 4; version <= 5; version++) {
        make_tmpdir(dir, sizeof dir);
        REQUIRE(dir[0]);
        int rc = gms_trace_export_ops(&tiny_ops, NULL, 1, dir, version, &err);
        if (rc) printf("    %s\n", err.msg);
        REQUIRE(rc == 0);
        snprintf(list, sizeof list, "%s/kernelslist.g", dir);
        rc = rec_collect(list, &back, &err);
        if (rc) printf("    %s\n", err.msg);
        REQUIRE(rc == 0);
        CHECK_EQ(rec_compare(&orig, &back, 0), 0);
        CHECK_EQ(back.st.copies, 1);
        CHECK_EQ(back.st.copy_bytes, 1 << 20);
        CHECK_EQ(back.nk, 2);
        CHECK_STR(back.k[0].name, "tiny_k1");
        CHECK_EQ(back.k[0].shmem, 512);
        CHECK_EQ(back.k[0].regs, 32);
        CHECK_EQ(back.k[1].stream, 1);
        CHECK_EQ(back.k[1].grid.y, 2);
        rec_free(&back);

        size_t n1, n2;
        char *t1 = slurp(list, &n1);
        REQUIRE(t1);
        CHECK_CONTAINS(t1, "MemcpyHtoD,0x00007f0000000000,1048576\nkernel-1.traceg\nkernel-2.traceg\n");
        free(t1);
        char kpath[600];
        snprintf(kpath, sizeof kpath, "%s/kernel-1.traceg", dir);
        t1 = slurp(kpath, &n1);
        REQUIRE(t1);
        char want[64];
        snprintf(want, sizeof want, "-accelsim tracer version = %d\n", version);
        CHECK_CONTAINS(t1, want);
        CHECK_CONTAINS(t1, "-binary version = 70\n");
        CHECK_CONTAINS(t1, " LDG.E.64.STRONG.GPU 1 R");
        CHECK_CONTAINS(t1, " 2 0x");     /* a base+delta line */
        CHECK_CONTAINS(t1, " 0 0x0000"); /* a list line */
        CHECK_CONTAINS(t1, " RED.E.ADD.64.STRONG.GPU ");

        /* import + write again: byte-identical files */
        make_tmpdir(dir2, sizeof dir2);
        gms_program_src src;
        REQUIRE(gms_trace_program(list, &src, &err) == 0);
        rc = gms_trace_write_program(&src, dir2, version, 0, 0, 1, &err);
        src.destroy(src.self);
        REQUIRE(rc == 0);
        static const char *const files[3] = {"kernelslist.g", "kernel-1.traceg", "kernel-2.traceg"};
        for (int f = 0; f < 3; f++) {
            char p1[600], p2[600];
            snprintf(p1, sizeof p1, "%s/%s", dir, files[f]);
            snprintf(p2, sizeof p2, "%s/%s", dir2, files[f]);
            char *a = slurp(p1, &n1), *b = slurp(p2, &n2);
            CHECK(a && b && n1 == n2 && !memcmp(a, b, n1));
            free(a);
            free(b);
        }
        free(t1);
    }
    rec_free(&orig);
}

TEST(trace_export_errors)
{
    gms_error err = {0};
    CHECK(gms_trace_export("no_such_workload", NULL, 1, "/tmp", 5, &err) != 0);
    CHECK_CONTAINS(err.msg, "unknown workload 'no_such_workload'");
    CHECK(gms_trace_export_ops(&tiny_ops, NULL, 1, "/tmp/gms_x", 3, &err) != 0);
    CHECK_CONTAINS(err.msg, "--version must be 4 or 5");
    const char *bad[] = {"nosuch=1", NULL};
    CHECK(gms_trace_export_ops(&tiny_ops, bad, 1, "/tmp/gms_x", 5, &err) != 0);
    CHECK_CONTAINS(err.msg, "unknown parameter");
    CHECK(gms_trace_export_ops(&tiny_ops, NULL, 1, "/dev/null/out", 5, &err) != 0);
    CHECK_CONTAINS(err.msg, "cannot create");
}
