/* The timing-free Belady bound (-gms_uvm_opt_bound, uvm/opt_bound.h, core/opt_prepass.h):
 * MIN's fault count on classic reference strings, the order the functional walk puts hand-made
 * kernels' accesses in (warps interleaved, barriers, resident blocks, far-fault stalls), and the
 * string it builds for a small built-in workload, all counted by hand. */
#include "test.h"
#include "config/params.h"
#include "core/opt_prepass.h"
#include "frontend/program.h"
#include "uvm/opt_bound.h"
#include <stdlib.h>

static gms_opt_result count(const uint32_t *r, size_t n, uint32_t npages, uint64_t cap)
{
    gms_opt_result o;
    gms_opt_count(r, n, npages, cap, &o);
    return o;
}

TEST(uvm_opt_textbook_string)
{
    /* Silberschatz's string, 3 frames: OPT faults on 7 0 1 (cold) 2 (evicts 7) 3 (evicts 1)
     * 4 (evicts 0) 0 (evicts 4) 1 (evicts 3) 7 (evicts 2, never again): 9 faults, 6 evictions.
     * 4 frames: 7 0 1 2 cold, 3 (evicts 7), 4 (evicts 3... 1 is used at 13, 2 at 8, 0 at 10:
     * evicts 1), 1 (evicts 4), 7 (evicts any of the never-again pages): 8 faults */
    static const uint32_t s[] = { 7, 0, 1, 2, 0, 3, 0, 4, 2, 3, 0, 3, 2, 1, 2, 0, 1, 7, 0, 1 };
    gms_opt_result o = count(s, 20, 8, 3);
    CHECK_EQ(o.refs, 20);
    CHECK_EQ(o.distinct, 6);
    CHECK_EQ(o.faults, 9);
    CHECK_EQ(o.evictions, 6);
    o = count(s, 20, 8, 4);
    CHECK_EQ(o.faults, 8);
    CHECK_EQ(o.evictions, 4);
}

TEST(uvm_opt_belady_anomaly_string)
{
    /* 1 2 3 4 1 2 5 1 2 3 4 5 (FIFO's anomaly string): OPT 7 faults with 3 frames (1 2 3
     * cold, 4 evicts 3, 5 evicts 4, 3 evicts 1 or 2, 4 evicts one not used again), 6 with 4
     * (1 2 3 4 cold, 5 evicts 4, 4 evicts one of 1 2 3) */
    static const uint32_t s[] = { 1, 2, 3, 4, 1, 2, 5, 1, 2, 3, 4, 5 };
    CHECK_EQ(count(s, 12, 6, 3).faults, 7);
    CHECK_EQ(count(s, 12, 6, 4).faults, 6);
    CHECK_EQ(count(s, 12, 6, 5).faults, 5);   /* everything fits: cold faults only */
    CHECK_EQ(count(s, 12, 6, 5).evictions, 0);
    CHECK_EQ(count(s, 12, 6, 0).faults, 5);   /* 0 = unlimited */
}

TEST(uvm_opt_cyclic_over_capacity_plus_one)
{
    /* 0 1 2 3 repeated 100 times, 3 frames: 4 cold faults, then one fault every 3
     * references (MIN keeps the 2 pages needed soonest): 4 + 396 / 3 = 136 (LRU: 400) */
    uint32_t s[400];
    for (int i = 0; i < 400; i++) s[i] = (uint32_t)(i % 4);
    gms_opt_result o = count(s, 400, 4, 3);
    CHECK_EQ(o.faults, 136);
    CHECK_EQ(o.evictions, 133);
}

TEST(uvm_opt_consecutive_repeats_fold)
{
    static const uint32_t s[] = { 0, 0, 0, 1, 1, 0, 2, 2, 1 };
    gms_opt_result o = count(s, 9, 3, 2);
    CHECK_EQ(o.refs, 5);     /* folded: 0 1 0 2 1 */
    CHECK_EQ(o.faults, 3);   /* 0 1 cold, 2 evicts 0 (never again) */
    o = count(s, 0, 3, 2);
    CHECK_EQ(o.refs, 0);
    CHECK_EQ(o.faults, 0);
}

/* stream n=4096 (a, b, c: 4 pages of 1024 floats each), block=256 (8 warps), repeat=2: blocks
 * 4p..4p+3 (32 warps) touch page p of a, b, c; each warp loads a, loads b, stores c.
 * Serial order: (a_p b_p c_p) x 32 for p = 0..3, twice: 768 references, 12 pages.
 * Resident order: the 16 blocks are all resident on the gtx1080ti's 28 SMs; every warp asks
 * for its a page and waits; a_0 arrives and wakes blocks 0-3, which ask for b_0 ... so each
 * launch adds a_0..a_3 b_0..b_3 c_0..c_3 (repeats folded): 24 references.
 * Ratio 2: 49152 / 2 / 4096 = 6 frames. MIN, serial: 12 cold faults in the first launch; the
 * second can hit at most the 6 pages resident when it starts, and does (the first launch keeps
 * group 0 and evicts the later ones): 6 more, 18. Resident: 12 cold, the first launch ends
 * with a_0..a_3, b_0 and c_3 kept (needed soonest), the second faults on b_1..b_3, c_0..c_2:
 * 18 too. On a tie the bound reports the serial string. */
static int run_stream(const char *ratio, const char *ev, gms_opt_result *o, double *lru_faults, double by_order[2])
{
    gms_params *p = gms_params_new();
    gms_error err = {0};
    int rc = gms_params_load_file(p, "configs/gtx1080ti.config", &err) ||
             gms_params_set(p, "uvm_oversub_ratio", ratio, &err) || gms_params_set(p, "hardware_prefetch", "0", &err) ||
             gms_params_set(p, "hwprefetch_oversub", "0", &err) || gms_params_set(p, "uvm_eviction", ev, &err) ||
             gms_params_set(p, "gms_uvm_opt_bound", "1", &err) || gms_params_finalize(p, &err);
    const char *kv[] = { "n=4096", "block=256", "repeat=2", "uvm=1", NULL };
    gms_workload_spec w = { "stream", NULL, kv, 1, NULL };
    gms_sim *s = rc ? NULL : gms_sim_new(p, &w, &err);
    rc = s ? gms_sim_run(s, &err) : -1;
    if (rc) printf("    stream: %s\n", err.msg);
    else {
        const gms_run_stats *r = gms_sim_stats(s);
        double refs = 0, pages = 0, faults = 0, ev_n = 0, cap = 0;
        rc = gms_stats_total(r, "gms_uvm_opt_refs", &refs) || gms_stats_total(r, "gms_uvm_opt_pages", &pages) ||
             gms_stats_total(r, "gms_uvm_opt_faults", &faults) || gms_stats_total(r, "gms_uvm_opt_evictions", &ev_n) ||
             gms_stats_total(r, "gms_uvm_opt_capacity_pages", &cap) || gms_stats_total(r, "Page_tot_fault", lru_faults) ||
             gms_stats_total(r, "gms_uvm_opt_faults_serial", &by_order[0]) ||
             gms_stats_total(r, "gms_uvm_opt_faults_resident", &by_order[1]);
        *o = (gms_opt_result){ (uint64_t)refs, (uint64_t)pages, (uint64_t)faults, (uint64_t)ev_n };
        if (cap != (strcmp(ratio, "0") ? 6 : 0)) rc = -1;
    }
    gms_sim_free(s);
    gms_params_free(p);
    return rc;
}

TEST(uvm_opt_bound_of_a_built_in_workload)
{
    gms_opt_result o;
    double faults = 0, by[2] = {0};
    REQUIRE(run_stream("2", "lru4k", &o, &faults, by) == 0);
    CHECK_EQ(by[0], 18);
    CHECK_EQ(by[1], 18);
    CHECK_EQ(o.refs, 768);
    CHECK_EQ(o.distinct, 12);
    CHECK_EQ(o.faults, 18);
    CHECK_EQ(o.evictions, 12);
    CHECK(faults >= 18);   /* the timed LRU run: 12 cold, and at least 6 more in the second launch */
    REQUIRE(run_stream("0", "lru4k", &o, &faults, by) == 0);
    CHECK_EQ(o.faults, 12);    /* unlimited: cold faults only */
    CHECK_EQ(o.evictions, 0);
}

TEST(uvm_opt_bound_refuses_a_program_source)
{
    gms_params *p = gms_params_new();
    gms_error err = {0};
    int rc = gms_params_set(p, "gms_uvm_opt_bound", "1", &err) || gms_params_finalize(p, &err);
    REQUIRE(rc == 0);
    gms_program_src src = {0};
    gms_workload_spec w = { NULL, NULL, NULL, 1, &src };
    gms_sim *s = gms_sim_new(p, &w, &err);
    CHECK(s == NULL);
    CHECK_CONTAINS(err.msg, "gms_uvm_opt_bound");
    gms_sim_free(s);
    gms_params_free(p);
}

/* ---- the walk's order, on hand-made kernels: one managed allocation of 16 pages; op[b][w]
 * lists what warp w of block b does: a page number (a one-lane 4-byte load from it) or BAR */
#define BAR_OP (-1)
#define END_OP (-2)
typedef struct hand_kernel { uint32_t blocks, warps; const int (*ops)[2][8]; uint64_t base; int launched; } hand_kernel;

static int hand_fill(void *self, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    hand_kernel *h = self;
    (void)err;
    for (uint32_t w = 0; w < bt->nwarps; w++)
        for (const int *o = h->ops[block][w]; *o != END_OP; o++) {
            gms_inst *in = gms_warp_push(&bt->warps[w]);
            if (*o == BAR_OP) { in->op = GMS_OP_BAR; continue; }
            in->op = GMS_OP_MEM;
            in->mem = GMS_MEM_LD_GLOBAL;
            in->mask = 1;
            in->width = 4;
            in->addr_mode = GMS_ADDR_STRIDE;
            in->base = h->base + 4096u * (uint64_t)*o;
        }
    return 0;
}

static int hand_next(void *self, gms_program *prog, gms_error *err)
{
    hand_kernel *h = self;
    (void)err;
    if (h->launched) return 0;
    h->launched = 1;
    h->base = gms_prog_alloc_kind(prog, 16 * 4096, 1, "hand");
    gms_kernel_src k = { .grid = { h->blocks, 1, 1 }, .block = { 32 * h->warps, 1, 1 }, .fill_block = hand_fill, .self = h };
    snprintf(k.name, sizeof k.name, "hand");
    gms_prog_launch(prog, &k);
    return 1;
}

static void hand_destroy(void *self) { (void)self; }

/* the string of the hand kernel in `order` on n_sm SMs of one block each, cap frames (0 = unlimited) */
static size_t hand_walk(hand_kernel *h, int order, const char *n_sm, uint64_t cap, uint32_t *out, size_t max)
{
    gms_params *p = gms_params_new();
    gms_error err = {0};
    int rc = gms_params_set(p, "gpgpu_n_clusters", n_sm, &err) || gms_params_set(p, "gpgpu_n_cores_per_cluster", "1", &err) ||
             gms_params_set(p, "gpgpu_shader_cta", "1", &err) || gms_params_finalize(p, &err);
    gms_program prog;
    gms_program_init(&prog);
    gms_program_src src = { hand_next, hand_destroy, h };
    uint32_t *refs = NULL, npages = 0;
    size_t n = 0;
    if (rc == 0) rc = gms_opt_walk(&src, &prog, p, order, NULL, cap, &refs, &n, &npages, &err);
    if (rc) printf("    hand walk: %s\n", err.msg);
    CHECK_EQ(npages, 16);
    size_t k = rc ? 0 : n < max ? n : max;
    for (size_t i = 0; i < k; i++) out[i] = refs[i];
    free(refs);
    gms_program_free(&prog);
    gms_params_free(p);
    return rc ? 0 : n;
}

TEST(uvm_opt_walk_interleaves_warps)
{
    /* one block, two warps each streaming its own pages: each load faults, the warp waits and
     * the other goes on, so the string alternates 0 4 1 5 2 6 3 7 (warp after warp, as the
     * walk was: 0 1 2 3 4 5 6 7). MIN at 2 frames: 8 faults either way, all cold */
    static const int ops[1][2][8] = { { { 0, 1, 2, 3, END_OP }, { 4, 5, 6, 7, END_OP } } };
    hand_kernel h = { 1, 2, ops, 0, 0 };
    uint32_t r[16];
    REQUIRE(hand_walk(&h, GMS_OPT_RESIDENT, "1", 0, r, 16) == 8);
    static const uint32_t want[] = { 0, 4, 1, 5, 2, 6, 3, 7 };
    for (int i = 0; i < 8; i++) CHECK_EQ(r[i], want[i]);
    CHECK_EQ(count(r, 8, 16, 2).faults, 8);
    hand_kernel hs = { 1, 2, ops, 0, 0 };
    REQUIRE(hand_walk(&hs, GMS_OPT_SERIAL, "1", 0, r, 16) == 8);
    for (uint32_t i = 0; i < 8; i++) CHECK_EQ(r[i], i);
}

TEST(uvm_opt_walk_warps_share_a_loop)
{
    /* two warps each loop twice over pages 0 1 2 (hybridsort's pattern), 2 frames: the warps
     * ask for each page together, so the string is 0 1 2 0 1 2 (the second warp's references
     * fold into the first's). MIN: 0 1 cold, 2 evicts 1 (0 is needed sooner), 0 hits, 1 evicts
     * 0 (never again), 2 hits: 4 faults. Warp after warp the string was 0 1 2 x4 and MIN took
     * 7: 0 1, 2 (evicts 1), 1 (evicts 0), 0 (evicts 2), 2 (evicts 1), 1 (evicts 0) */
    static const int ops[1][2][8] = { { { 0, 1, 2, 0, 1, 2, END_OP }, { 0, 1, 2, 0, 1, 2, END_OP } } };
    hand_kernel h = { 1, 2, ops, 0, 0 };
    uint32_t r[16];
    REQUIRE(hand_walk(&h, GMS_OPT_RESIDENT, "1", 2, r, 16) == 6);
    static const uint32_t want[] = { 0, 1, 2, 0, 1, 2 };
    for (int i = 0; i < 6; i++) CHECK_EQ(r[i], want[i]);
    gms_opt_result o = count(r, 6, 16, 2);
    CHECK_EQ(o.faults, 4);
    CHECK_EQ(o.evictions, 2);
    hand_kernel hs = { 1, 2, ops, 0, 0 };
    REQUIRE(hand_walk(&hs, GMS_OPT_SERIAL, "1", 2, r, 16) == 12);
    for (uint32_t i = 0; i < 12; i++) CHECK_EQ(r[i], i % 3);
    CHECK_EQ(count(r, 12, 16, 2).faults, 7);
}

TEST(uvm_opt_walk_respects_barriers)
{
    /* warp 0: 0 BAR 1; warp 1: 2 3 BAR 4. 0 and 2 asked; 0 arrives, warp 0 reaches the BAR
     * and waits; 2 arrives, warp 1 asks for 3, then reaches the BAR: both released, 1 and 4.
     * String 0 2 3 1 4 (page 1 never before 3) */
    static const int ops[1][2][8] = { { { 0, BAR_OP, 1, END_OP }, { 2, 3, BAR_OP, 4, END_OP } } };
    hand_kernel h = { 1, 2, ops, 0, 0 };
    uint32_t r[16];
    REQUIRE(hand_walk(&h, GMS_OPT_RESIDENT, "1", 0, r, 16) == 5);
    static const uint32_t want[] = { 0, 2, 3, 1, 4 };
    for (int i = 0; i < 5; i++) CHECK_EQ(r[i], want[i]);
    /* serially: warp 0 to the BAR (0), warp 1 to it (2 3), then 1, 4: the same string */
    hand_kernel hs = { 1, 2, ops, 0, 0 };
    REQUIRE(hand_walk(&hs, GMS_OPT_SERIAL, "1", 0, r, 16) == 5);
    for (int i = 0; i < 5; i++) CHECK_EQ(r[i], want[i]);
}

TEST(uvm_opt_walk_blocks_resident_per_sm)
{
    /* 2 SMs of one block each, 3 one-warp blocks, block b loads 2b then 2b+1: blocks 0 and 1
     * start together (0 2), the pages arrive in the order asked (0: block 0 asks 1; 2: block 1
     * asks 3; 1: block 0 ends and block 2 takes SM 0, asking 4; 3; 4: 5): 0 2 1 3 4 5 */
    static const int ops[3][2][8] = { { { 0, 1, END_OP } }, { { 2, 3, END_OP } }, { { 4, 5, END_OP } } };
    hand_kernel h = { 3, 1, ops, 0, 0 };
    uint32_t r[16];
    REQUIRE(hand_walk(&h, GMS_OPT_RESIDENT, "2", 0, r, 16) == 6);
    static const uint32_t want[] = { 0, 2, 1, 3, 4, 5 };
    for (int i = 0; i < 6; i++) CHECK_EQ(r[i], want[i]);
    /* one SM, or the serial order: block after block, 0 1 2 3 4 5 */
    hand_kernel h1 = { 3, 1, ops, 0, 0 };
    REQUIRE(hand_walk(&h1, GMS_OPT_RESIDENT, "1", 0, r, 16) == 6);
    for (uint32_t i = 0; i < 6; i++) CHECK_EQ(r[i], i);
    hand_kernel h2 = { 3, 1, ops, 0, 0 };
    REQUIRE(hand_walk(&h2, GMS_OPT_SERIAL, "2", 0, r, 16) == 6);
    for (uint32_t i = 0; i < 6; i++) CHECK_EQ(r[i], i);
}
