/* Resumable (chunked) warp streams: a long warp generated a chunk at a time gives exactly
 * the instructions of a whole-stream generation, holds at most about a chunk at once, and
 * the functional drain resumes warps in an order that respects barriers. */
#include "test.h"
#include "frontend/emit.h"
#include "frontend/warp_refill.h"
#include "workloads/workload.h"
#include <stdlib.h>
#include <string.h>

static int frun(const char *name, const char *const *kv, gms_functional_result *r)
{
    gms_error e = {0};
    int rc = gms_workload_run_functional(gms_workload_find(name), kv, 1, r, &e);
    if (rc) printf("    %s: %s\n", name, e.msg);
    return rc;
}

/* run `name` with its small parameters, unchunked and with chunk=7: same counts, verified,
 * and the chunked run buffers less; when every kernel of the program is resumable
 * (`all` = 1), never more than 7 + one loop body per warp (-1: the longest warp is in a
 * kernel that is not resumable) */
static void same_counts(int all, const char *name, const char *p1, const char *p2, const char *p3)
{
    const char *whole[] = { p1, p2, p3, "chunk=4294967295", NULL };
    const char *chunked[] = { p1, p2, p3, "chunk=7", NULL };
    gms_functional_result a, b;
    REQUIRE(frun(name, whole, &a) == 0);
    REQUIRE(frun(name, chunked, &b) == 0);
    CHECK_EQ(a.blocks, b.blocks);
    CHECK_EQ(a.warp_insts, b.warp_insts);
    CHECK_EQ(a.thread_insts, b.thread_insts);
    CHECK_EQ(a.mem_insts, b.mem_insts);
    CHECK(a.max_warp_buffer > 100);          /* the warps are long ... */
    if (all >= 0) CHECK(b.max_warp_buffer < a.max_warp_buffer);   /* ... but come in chunks */
    if (all > 0) CHECK(b.max_warp_buffer <= 7 + 60);
}

TEST(wl_chunked_counts_polybench)
{
    same_counts(1, "gemm", "NI=40", "NJ=24", "NK=50");
    same_counts(1, "2mm", "NI=40", "NJ=24", "NK=50");
    same_counts(1, "atax", "NX=64", "NY=100", "uvm=1");
    same_counts(1, "syrk", "N=40", "M=50", "uvm=0");
    same_counts(1, "syr2k", "N=40", "M=50", "uvm=0");
    same_counts(0, "corr", "M=256", "N=16", "uvm=0");
    same_counts(0, "covar", "M=256", "N=32", "uvm=0");
}

TEST(wl_chunked_counts_ml)
{
    same_counts(0, "bn", "nodes=6", "data=40", "iter=2");
    same_counts(1, "svm", "train=200", "test=64", "M=64");
    same_counts(1, "svm", "train=160", "test=16", "M=70");   /* a partial last warp */
    same_counts(1, "kmeans", "points=3000", "reps=2", "k=3");
    same_counts(0, "kmeans", "points=2000", "reps=1", "k=40");  /* regroup loops over k */
}

/* instruction by instruction: block 0 of gemm's kernel, whole vs chunks of 5 appended */
static gms_kernel_src first_launch(gms_program *prog, gms_program_src *src, void **st, uint32_t chunk)
{
    const gms_workload_ops *ops = gms_workload_find("gemm");
    const char *kv[] = { "NI=16", "NJ=32", "NK=40", NULL };
    gms_wl_args *a = NULL;
    gms_error e = {0};
    gms_kernel_src none;
    memset(&none, 0, sizeof none);
    if (gms_wl_args_parse(ops, kv, 1, &a, &e)) return none;
    gms_program_init(prog);
    prog->chunk = chunk;
    if (gms_workload_program(ops, a, src, st, &e)) { gms_wl_args_free(a); return none; }
    gms_wl_args_free(a);
    while (src->next(src->self, prog, &e) > 0) {}
    gms_cmd *c;
    while ((c = gms_prog_pop(prog)))
        if (c->kind == GMS_CMD_LAUNCH) return c->kernel;
    return none;
}

TEST(wl_chunked_same_instructions)
{
    gms_program pa, pb;
    gms_program_src sa, sb;
    void *sta = NULL, *stb = NULL;
    gms_kernel_src ka = first_launch(&pa, &sa, &sta, UINT32_MAX), kb = first_launch(&pb, &sb, &stb, 5);
    REQUIRE(ka.fill_block && kb.fill_block);
    gms_block_trace ba = {0}, bb = {0};
    gms_error e = {0};
    uint32_t nw = (uint32_t)((gms_dim3_count(ka.block) + 31) / 32);
    gms_block_trace_reset(&ba, nw);
    gms_block_trace_reset(&bb, nw);
    REQUIRE(ka.fill_block(ka.self, 0, &ba, &e) == 0);
    for (uint32_t w = 0; w < nw; w++) CHECK(!ba.warps[w].more);     /* whole streams */
    REQUIRE(kb.fill_block(kb.self, 0, &bb, &e) == 0);
    CHECK(bb.warps[0].more && bb.warps[0].n < 40);                  /* first chunk only */
    gms_block_trace_reset(&bb, nw);
    REQUIRE(gms_block_fill_all(&kb, 0, &bb, &e) == 0);
    for (uint32_t w = 0; w < nw; w++) {
        CHECK_EQ(ba.warps[w].n, bb.warps[w].n);
        CHECK_EQ(ba.warps[w].naddr, bb.warps[w].naddr);
        CHECK(ba.warps[w].n > 200);
        CHECK(!memcmp(ba.warps[w].insts, bb.warps[w].insts, sizeof(gms_inst) * ba.warps[w].n));
        CHECK(!ba.warps[w].naddr || !memcmp(ba.warps[w].addrs, bb.warps[w].addrs, 8 * ba.warps[w].naddr));
    }
    gms_block_trace_free(&ba);
    gms_block_trace_free(&bb);
    ka.release(ka.self);
    kb.release(kb.self);
    sa.destroy(sa.self);
    sb.destroy(sb.self);
    gms_workload_find("gemm")->destroy(sta);
    gms_workload_find("gemm")->destroy(stb);
    gms_program_free(&pa);
    gms_program_free(&pb);
}

/* ---------------------------------------------------------------- barrier order */
/* A hand-written source: warp 0's pieces are [INT BAR] [INT EXIT]; warp 1's are
 * [INT INT] [INT BAR] [EXIT]. Warp 0 must not resume before warp 1 reached the BAR. */
static const char *const pieces[2][3] = { { "IB", "IE", NULL }, { "II", "IB", "E" } };

typedef struct toy { int next[2]; } toy;

static void emit_piece(gms_warp_trace *wt, const char *p)
{
    gms_emit e;
    gms_emit_begin(&e, wt);
    for (; *p; p++) {
        if (*p == 'I') gms_emit_alu(&e, 0, 1, GMS_OP_INT, GMS_REG_NONE, GMS_REG_NONE, GMS_REG_NONE);
        if (*p == 'B') gms_emit_bar(&e, 0);
        if (*p == 'E') gms_emit_exit(&e, 0, 1);
    }
}

static int toy_more(void *self, uint64_t block, uint32_t warp, gms_warp_trace *wt, gms_error *err)
{
    toy *t = self;
    emit_piece(wt, pieces[warp][t->next[warp]++]);
    return t->next[warp] < 3 && pieces[warp][t->next[warp]] != NULL;
}

static int toy_fill(void *self, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    for (uint32_t w = 0; w < 2; w++) {
        bt->warps[w].more = 1;
        toy_more(self, block, w, &bt->warps[w], err);
    }
    return 0;
}

typedef struct order { char log[64]; int n; } order;

static int log_chunk(void *ud, uint32_t warp, const gms_warp_trace *wt)
{
    order *o = ud;
    o->n += snprintf(o->log + o->n, sizeof o->log - (size_t)o->n, "%u:%u ", warp, wt->n);
    return 0;
}

TEST(warp_refill_drain_respects_barriers)
{
    toy t = { { 0, 0 } };
    gms_kernel_src k;
    memset(&k, 0, sizeof k);
    k.grid = (gms_dim3){ 1, 1, 1 };
    k.block = (gms_dim3){ 64, 1, 1 };
    k.fill_block = toy_fill;
    k.fill_warp_more = toy_more;
    k.self = &t;
    gms_block_trace bt = {0};
    gms_error e = {0};
    gms_block_trace_reset(&bt, 2);
    REQUIRE(k.fill_block(k.self, 0, &bt, &e) == 0);
    order o = { "", 0 };
    REQUIRE(gms_block_drain(&k, &bt, log_chunk, &o, &e) == 0);
    /* w0 [IB], w1 [II]; w0 waits at the BAR while w1 gets [IB]; then both resume */
    CHECK_STR(o.log, "0:2 1:2 1:2 0:2 1:1 ");
    CHECK(!bt.warps[0].more && !bt.warps[1].more);
    gms_block_trace_free(&bt);
}

/* ---------------------------------------------------------------- whole programs */
/* Every warp stream of a whole program, as one FNV-1a hash per warp (launch, block, warp
 * order). Blocks of the kernel named `whole` are generated with gms_block_fill_all and hashed
 * byte by byte (instructions with their addrs indexes, and addrs); the other kernels are
 * drained chunk by chunk and hashed in a buffer-independent form (LIST instructions by their
 * lane addresses). Also checks that, when chunked, a resumable warp of `whole` starts with at
 * most chunk + 60 instructions. */
typedef struct hashes {
    uint64_t *h;
    size_t n, cap, base;          /* base: this block's first hash */
    uint64_t whole_insts;         /* instructions of the `whole` kernel's warps */
    int whole_resumed;            /* some warp of `whole` was left unfinished by fill_block */
} hashes;

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++) h = (h ^ c[i]) * 1099511628211ull;
    return h;
}

static int hash_chunk(void *ud, uint32_t warp, const gms_warp_trace *wt)
{
    hashes *hs = ud;
    uint64_t *h = &hs->h[hs->base + warp];
    for (uint32_t i = 0; i < wt->n; i++) {
        gms_inst in = wt->insts[i];
        if (in.addr_mode == GMS_ADDR_LIST) {
            uint64_t a[32];
            gms_inst_lane_addrs(wt, &in, a);
            *h = fnv(*h, a, sizeof a);
            in.base = 0;
        }
        *h = fnv(*h, &in, sizeof in);
    }
    return 0;
}

static int program_hashes(const char *name, const char *const *kv, const char *whole, hashes *hs)
{
    const gms_workload_ops *ops = gms_workload_find(name);
    gms_wl_args *a = NULL;
    gms_error e = {0};
    memset(hs, 0, sizeof *hs);
    if (gms_wl_args_parse(ops, kv, 1, &a, &e)) return -1;
    gms_program prog;
    gms_program_src src;
    void *st = NULL;
    gms_program_init(&prog);
    prog.chunk = gms_wl_chunk(a);
    int rc = gms_workload_program(ops, a, &src, &st, &e);
    gms_wl_args_free(a);
    if (rc) { gms_program_free(&prog); return -1; }
    gms_block_trace bt = {0};
    for (int r = 1; r > 0 && rc == 0;) {
        r = src.next(src.self, &prog, &e);
        if (r < 0) rc = -1;
        gms_cmd *c;
        while (rc == 0 && (c = gms_prog_pop(&prog))) {
            if (c->kind != GMS_CMD_LAUNCH) continue;
            gms_kernel_src *k = &c->kernel;
            uint32_t nw = (uint32_t)((gms_dim3_count(k->block) + 31) / 32);
            int is_whole = whole && !strcmp(k->name, whole);
            for (uint64_t b = 0; b < gms_dim3_count(k->grid) && rc == 0; b++) {
                gms_block_trace_reset(&bt, nw);
                bt.x = (uint32_t)(b % k->grid.x);
                bt.y = (uint32_t)(b / k->grid.x % k->grid.y);
                bt.z = (uint32_t)(b / ((uint64_t)k->grid.x * k->grid.y));
                if (hs->n + nw > hs->cap) {
                    hs->cap = 2 * (hs->n + nw);
                    hs->h = realloc(hs->h, hs->cap * sizeof *hs->h);
                }
                hs->base = hs->n;
                for (uint32_t w = 0; w < nw; w++) hs->h[hs->n++] = 1469598103934665603ull;
                if (!is_whole) {
                    if (k->fill_block(k->self, b, &bt, &e) || gms_block_drain(k, &bt, hash_chunk, hs, &e)) rc = -1;
                    continue;
                }
                if (k->fill_block(k->self, b, &bt, &e)) { rc = -1; continue; }
                for (uint32_t w = 0; w < nw; w++)
                    if (bt.warps[w].more) {
                        hs->whole_resumed = 1;
                        if (bt.warps[w].n > prog.chunk + 60) rc = -1;
                    }
                if (rc == 0 && gms_block_append_rest(k, b, &bt, &e)) rc = -1;
                for (uint32_t w = 0; w < nw && rc == 0; w++) {
                    const gms_warp_trace *wt = &bt.warps[w];
                    hs->whole_insts += wt->n;
                    hs->h[hs->base + w] = fnv(fnv(hs->h[hs->base + w], wt->insts, sizeof(gms_inst) * wt->n),
                                              wt->addrs, 8 * (size_t)wt->naddr);
                }
            }
            if (k->release) k->release(k->self);
        }
        if (r == 0) break;
    }
    gms_block_trace_free(&bt);
    if (rc) printf("    %s: %s\n", name, e.msg);
    src.destroy(src.self);
    ops->destroy(st);
    gms_program_free(&prog);
    return rc;
}

/* the program's streams with whole generation and with chunks of `chunk`: identical hashes */
static void same_program(const char *name, const char *p1, const char *p2, const char *p3, const char *whole,
                         const char *chunk)
{
    const char *kw[] = { p1, p2, p3, "chunk=4294967295", NULL };
    const char *kc[] = { p1, p2, p3, chunk, NULL };
    hashes a, b;
    REQUIRE(program_hashes(name, kw, whole, &a) == 0);
    REQUIRE(program_hashes(name, kc, whole, &b) == 0);
    CHECK(!a.whole_resumed);            /* whole streams ... */
    CHECK(b.whole_resumed);             /* ... and chunked ones */
    CHECK(a.whole_insts > 1000);
    CHECK_EQ(a.whole_insts, b.whole_insts);
    CHECK_EQ(a.n, b.n);
    CHECK(a.n == b.n && !memcmp(a.h, b.h, a.n * sizeof *a.h));
    free(a.h);
    free(b.h);
}

/* svm's kernel_minibatch: one block whose warps exchange values at every step's barrier;
 * the chunked warps give byte for byte the whole-stream instructions of every launch */
TEST(wl_chunked_same_instructions_svm)
{
    same_program("svm", "train=160", "test=16", "M=70", "kernel_minibatch", "chunk=5");
    same_program("svm", "train=200", "test=16", "M=64", "kernel_minibatch", "chunk=1");
}

/* kmeans' recenter_step1: one block of k threads, each walking every point */
TEST(wl_chunked_same_instructions_kmeans)
{
    same_program("kmeans", "points=3000", "reps=2", "k=3", "recenter_step1", "chunk=5");
    same_program("kmeans", "points=1000", "reps=1", "k=40", "recenter_step1", "chunk=1");
}
