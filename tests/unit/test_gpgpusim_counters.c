/* GPGPU-Sim-named counters that follow GPGPU-Sim's own bookkeeping (docs/counters.md):
 * averagemflatency / avg_icnt2mem_latency over the latency windows folded every
 * -gpgpu_runtime_stat core cycles of gpu_sim_cycle and at each kernel's end after its
 * statistics (mem_latency_stat.cc memlatstat_lat_pw, gpu-sim.cc gpgpu_sim::cycle and
 * update_stats); gpu_sim_cycle / gpu_sim_insn counted from the previous kernel's end
 * (update_stats); icnt_total_pkts_simt_to_mem with a store's data at its coalesced
 * segment's size (mem_fetch::get_num_flits). */
#include "test.h"
#include "core/gpu.h"
#include "frontend/emit.h"
#include "frontend/program.h"
#include "stats/memlat.h"
#include "stats/stats.h"

static int has(const gms_stats *st, const char *name) { return gms_stats_find(st, name) != NULL; }
static double val(const gms_stats *st, const char *name)
{
    const gms_stat *x = gms_stats_find(st, name);
    if (!x) printf("    no counter %s\n", name);
    return x ? x->value : -1;
}

/* ---------------------------------------------------------------- the windows alone */

/* period 3: replies of latency 10, 20, 30 in gpu_sim_cycles 1, 2, 3, then 40 and 50 in 4 and
 * 5; the window ending at 3 folds the first three (mean 20), the one ending at 6 all five
 * (mean 30); update_stats folds what came since and restarts at 3 */
TEST(memlat_windows_fold_by_hand)
{
    gms_memlat m;
    gms_memlat_init(&m, 3);
    uint64_t sum = 0, n = 0;
    static const uint64_t lat[] = { 10, 20, 30, 40, 50 };
    for (uint64_t c = 1; c <= 5; c++) {
        sum += lat[c - 1];
        n++;
        CHECK_EQ(gms_memlat_cycle(&m, c, sum, n), c == 3);
    }
    CHECK_EQ(m.n, 3);
    CHECK_EQ(m.lat_sum, 60);
    gms_stats st;
    gms_stats_init(&st);
    gms_memlat_report(&m, 100, &st);   /* icnt2mem: every arrival so far (100) over the folded 3 */
    CHECK_EQ(val(&st, "averagemflatency"), 20);
    CHECK_EQ(val(&st, "avg_icnt2mem_latency"), 33);
    gms_stats_free(&st);
    CHECK_EQ(gms_memlat_cycle(&m, 6, sum, n), 1);
    CHECK_EQ(m.lat_sum, 150);
    CHECK_EQ(m.n, 5);
    CHECK_EQ(m.next, 9);
    /* a reply of 70 in cycle 7, the kernel ends (update_stats): folded, windows from 0 again */
    gms_memlat_update(&m, sum + 70, n + 1);
    CHECK_EQ(m.n, 6);
    CHECK_EQ(m.lat_sum, 220);
    CHECK_EQ(m.next, 3);
    CHECK_EQ(gms_memlat_cycle(&m, 2, 1000, 7), 0);   /* the next kernel's cycle 2: no window end */
    CHECK_EQ(m.n, 6);
}

/* nothing folded: no line at all (memlatstat_print's "if (num_mfs)") */
TEST(memlat_report_nothing_before_a_fold)
{
    gms_memlat m;
    gms_memlat_init(&m, 10000);
    CHECK_EQ(gms_memlat_cycle(&m, 9999, 500, 5), 0);
    gms_stats st;
    gms_stats_init(&st);
    gms_memlat_report(&m, 80, &st);
    CHECK(!has(&st, "averagemflatency"));
    CHECK(!has(&st, "avg_icnt2mem_latency"));
    gms_stats_free(&st);
}

/* -gpgpu_runtime_stat as gpgpu_sim_config::init reads it: sscanf "%d:%x", 10000 if it does not
 * parse; a period below 1 is refused (0 is a division by zero in gpgpu_sim::cycle) */
TEST(memlat_runtime_stat_period)
{
    CHECK_EQ(gms_memlat_parse_freq("500"), 500);
    CHECK_EQ(gms_memlat_parse_freq("500:0x2"), 500);
    CHECK_EQ(gms_memlat_parse_freq("10000:0"), 10000);
    CHECK_EQ(gms_memlat_parse_freq("7:ff"), 7);
    CHECK_EQ(gms_memlat_parse_freq("x"), 0);
    CHECK_EQ(gms_memlat_parse_freq(""), 0);
    CHECK_EQ(gms_memlat_parse_freq("500x"), 0);
    CHECK_EQ(gms_memlat_parse_freq("500:"), 0);
    CHECK_EQ(gms_memlat_parse_freq("500:g"), 0);
    CHECK_EQ(gms_memlat_parse_freq("4294967296"), 0);
    CHECK_EQ(gms_memlat_parse_freq("0"), 0);
    CHECK_EQ(gms_memlat_parse_freq("-5"), 0);
}

/* ---------------------------------------------------------------- small programs */

typedef int (*fill_fn)(void *self, uint64_t b, gms_block_trace *out, gms_error *err);

/* LDG of `lanes` lanes, 4 B each, unit stride from `base` (lanes x 4 / 32 sectors), then EXIT */
static void emit_load_exit(gms_block_trace *out, uint32_t lanes, uint64_t base)
{
    gms_emit e;
    uint64_t a[32];
    gms_emit_begin(&e, &out->warps[0]);
    uint8_t r = gms_emit_alu(&e, 0, 0xffffffffu, GMS_OP_INT, GMS_REG_NONE, GMS_REG_NONE, GMS_REG_NONE);
    for (int l = 0; l < 32; l++) a[l] = base + 4u * (uint64_t)l;
    gms_emit_load(&e, 0x10, lanes == 32 ? 0xffffffffu : (1u << lanes) - 1u, GMS_MEM_LD_GLOBAL, 4, a, r);
    gms_emit_exit(&e, 0x20, 0xffffffffu);
}

static int fill_ld4(void *self, uint64_t b, gms_block_trace *out, gms_error *err)
{
    (void)self; (void)b; (void)err;
    emit_load_exit(out, 32, 0x10000);   /* 4 sectors */
    return 0;
}

static int fill_ld2(void *self, uint64_t b, gms_block_trace *out, gms_error *err)
{
    (void)self; (void)b; (void)err;
    emit_load_exit(out, 16, 0x20000);   /* 2 sectors */
    return 0;
}

/* n dependent integer instructions, then EXIT: 32 x (n + 1) thread instructions */
static void emit_alu_chain(gms_block_trace *out, int n)
{
    gms_emit e;
    gms_emit_begin(&e, &out->warps[0]);
    uint8_t r = gms_emit_alu(&e, 0, 0xffffffffu, GMS_OP_INT, GMS_REG_NONE, GMS_REG_NONE, GMS_REG_NONE);
    for (int i = 1; i < n; i++) r = gms_emit_alu(&e, 0x10u * (uint32_t)i, 0xffffffffu, GMS_OP_INT, r, GMS_REG_NONE, GMS_REG_NONE);
    gms_emit_exit(&e, 0x10u * (uint32_t)n, 0xffffffffu);
}

static int fill_alu200(void *self, uint64_t b, gms_block_trace *out, gms_error *err)
{
    (void)self; (void)b; (void)err;
    emit_alu_chain(out, 200);
    return 0;
}

static int fill_alu20(void *self, uint64_t b, gms_block_trace *out, gms_error *err)
{
    (void)self; (void)b; (void)err;
    emit_alu_chain(out, 20);
    return 0;
}

/* one-warp kernels, launched together (each on its stream) */
typedef struct kspec { fill_fn fill; int stream; } kspec;
typedef struct kprog { const kspec *k; int nk, launched; } kprog;

static int knext(void *self, gms_program *prog, gms_error *err)
{
    kprog *c = self;
    (void)err;
    if (c->launched) return 0;
    c->launched = 1;
    for (int i = 0; i < c->nk; i++) {
        gms_kernel_src k = {0};
        snprintf(k.name, sizeof k.name, "k%d", i);
        k.grid = (gms_dim3){ 1, 1, 1 };
        k.block = (gms_dim3){ 32, 1, 1 };
        k.regs_per_thread = 16;
        k.stream = c->k[i].stream;
        k.fill_block = c->k[i].fill;
        k.self = c;
        gms_prog_launch(prog, &k);
    }
    return 1;
}

static void knodestroy(void *self) { (void)self; }

typedef struct krun { gms_params *p; gms_sim *s; kprog prog; } krun;

/* two SMs, no L1 (every load bypasses it: one request a cycle), the fixed-latency memory (100
 * cycles), then the options given as name/value pairs */
static int krun_go(krun *r, const kspec *k, int nk, const char *const *opts)
{
    gms_error err = {0};
    r->s = NULL;
    r->p = gms_params_new();
    static const char *const base[] = { "gpgpu_n_clusters", "2", "gpgpu_n_cores_per_cluster", "1",
        "gpgpu_perfect_mem", "1", "gpgpu_cache:dl1", "none", "gpgpu_coalesce_arch", "70", NULL };
    int bad = 0;
    for (int i = 0; base[i]; i += 2) bad |= gms_params_set(r->p, base[i], base[i + 1], &err);
    for (int i = 0; opts && opts[i]; i += 2) bad |= gms_params_set(r->p, opts[i], opts[i + 1], &err);
    if (bad || gms_params_finalize(r->p, &err)) { printf("    %s\n", err.msg); return -1; }
    r->prog = (kprog){ k, nk, 0 };
    gms_program_src src = { knext, knodestroy, &r->prog };
    gms_workload_spec w = {0};
    w.program = &src;
    w.seed = 1;
    r->s = gms_sim_new(r->p, &w, &err);
    int rc = r->s ? gms_sim_run(r->s, &err) : -1;
    if (rc) printf("    %s\n", err.msg);
    return rc;
}

static void krun_free(krun *r)
{
    if (r->s) gms_sim_free(r->s);
    gms_params_free(r->p);
}

static const gms_stats *kst(const krun *r, size_t i) { return &gms_sim_stats(r->s)->kernels[i].st; }
static const gms_stats *tot(const krun *r) { return &gms_sim_stats(r->s)->total; }

static int run_ld4(krun *r, const char *period)
{
    static const kspec k[] = { { fill_ld4, 0 } };
    const char *opts[] = { "gpgpu_runtime_stat", period, NULL };
    return krun_go(r, k, 1, opts);
}

/* One kernel, 4 replies (a 32-lane 4 B load: 4 sectors). With a period of 1 every cycle's
 * window is folded, the kernel's last one before its statistics: averagemflatency is the
 * exact mean of the 4 (rounded down); with a period longer than the kernel nothing is folded
 * before its statistics (no line), and the run's total (after the last update_stats) has all 4.
 * A period of exactly the kernel's gpu_sim_cycle ends a window in its last cycle (all 4 in it);
 * one cycle more, none. */
TEST(averagemflatency_waits_for_a_window)
{
    krun a;
    REQUIRE(run_ld4(&a, "1") == 0);
    const gms_stats *k = kst(&a, 0);
    CHECK_EQ(val(k, "gms_mem_latency_replies"), 4);
    CHECK_EQ(val(k, "gms_averagemflatency_replies"), 4);
    double mean = val(k, "gms_mem_latency_mean");
    CHECK(mean > 100);   /* the fixed memory's 100 cycles and the way there and back */
    CHECK_EQ(val(k, "averagemflatency"), (double)(uint64_t)mean);
    double icnt = val(k, "gms_icnt2mem_latency_mean");   /* 4 arrivals: the same divisor */
    CHECK_EQ(val(k, "avg_icnt2mem_latency"), (double)(uint64_t)(icnt + 1e-9));
    uint64_t K = (uint64_t)val(k, "gpu_sim_cycle");
    CHECK(K > 100);
    krun_free(&a);

    krun b;
    REQUIRE(run_ld4(&b, "1000000:0") == 0);
    k = kst(&b, 0);
    CHECK_EQ(val(k, "gpu_sim_cycle"), K);   /* the period changes no timing */
    CHECK(!has(k, "averagemflatency"));
    CHECK(!has(k, "avg_icnt2mem_latency"));
    CHECK_EQ(val(k, "gms_averagemflatency_replies"), 0);
    CHECK_EQ(val(k, "gms_mem_latency_mean"), mean);
    CHECK_EQ(val(tot(&b), "gms_averagemflatency_replies"), 4);
    CHECK_EQ(val(tot(&b), "averagemflatency"), (double)(uint64_t)mean);
    krun_free(&b);

    char p[32];
    snprintf(p, sizeof p, "%llu", (unsigned long long)K);
    krun c;
    REQUIRE(run_ld4(&c, p) == 0);
    CHECK_EQ(val(kst(&c, 0), "gms_averagemflatency_replies"), 4);
    CHECK_EQ(val(kst(&c, 0), "averagemflatency"), (double)(uint64_t)mean);
    krun_free(&c);
    snprintf(p, sizeof p, "%llu", (unsigned long long)K + 1);
    krun d;
    REQUIRE(run_ld4(&d, p) == 0);
    CHECK_EQ(val(kst(&d, 0), "gms_averagemflatency_replies"), 0);
    CHECK(!has(kst(&d, 0), "averagemflatency"));
    krun_free(&d);
}

/* A window ends at every multiple of the period P. The LSU sends the load's 4 bypassed
 * requests one a cycle and each takes the same way (the fixed memory's 100 cycles), so the
 * replies come in 4 consecutive cycles c0 + 1 .. c0 + 4 with one latency: for K / 2 < P <= K
 * the only window end is P itself, and it folds min(max(P - c0, 0), 4) replies, the cycle P's
 * own included, all of the same latency (averagemflatency = that latency); a period P / 2
 * ends its second window in the same cycle and folds the same */
TEST(averagemflatency_window_ends_at_multiples)
{
    krun a;
    REQUIRE(run_ld4(&a, "1") == 0);
    uint64_t K = (uint64_t)val(kst(&a, 0), "gpu_sim_cycle");
    double lat = val(kst(&a, 0), "gms_mem_latency_mean");
    krun_free(&a);
    CHECK_EQ(lat, (double)(uint64_t)lat);   /* one latency for the 4 */
    int64_t c0 = -1;
    uint64_t from = gms_test_quick() ? K - 12 : K / 2 + 1;
    for (uint64_t P = from; P <= K; P++) {
        char p[32];
        snprintf(p, sizeof p, "%llu", (unsigned long long)P);
        krun r;
        REQUIRE(run_ld4(&r, p) == 0);
        const gms_stats *k = kst(&r, 0);
        double n = val(k, "gms_averagemflatency_replies");
        if (c0 < 0 && n > 0) c0 = (int64_t)P - 1;   /* the first reply's cycle is P */
        int64_t want = c0 < 0 ? 0 : (int64_t)P - c0;
        CHECK_EQ(n, (double)(want > 4 ? 4 : want));
        if (n > 0) CHECK_EQ(val(k, "averagemflatency"), lat);
        else CHECK(!has(k, "averagemflatency"));
        if (P % 2 == 0 && K / (P / 2) == 2) {
            snprintf(p, sizeof p, "%llu", (unsigned long long)(P / 2));
            krun h;
            REQUIRE(run_ld4(&h, p) == 0);
            CHECK_EQ(val(kst(&h, 0), "gms_averagemflatency_replies"), n);
            krun_free(&h);
        }
        krun_free(&r);
    }
    CHECK(c0 > 0 && (uint64_t)c0 + 4 <= K);   /* all 4 replies before the kernel ends */
}

/* Two kernels one after the other (one stream), 4 and 2 replies, a period longer than both:
 * the first's statistics have no average; update_stats at its end folds its 4 replies, so the
 * second's averagemflatency is the first's mean, and its avg_icnt2mem_latency every arrival
 * so far (6) over those 4. gpu_sim_cycle is each kernel's own time (none overlaps), and the
 * two add up to gpu_tot_sim_cycle. */
TEST(latency_windows_restart_after_each_kernel)
{
    static const kspec k[] = { { fill_ld4, 0 }, { fill_ld2, 0 } };
    static const char *const opts[] = { "gpgpu_runtime_stat", "1000000", NULL };
    krun r;
    REQUIRE(krun_go(&r, k, 2, opts) == 0);
    REQUIRE(gms_sim_stats(r.s)->nkernels == 2);
    const gms_stats *k1 = kst(&r, 0), *k2 = kst(&r, 1);
    CHECK(!has(k1, "averagemflatency"));
    CHECK_EQ(val(k1, "gms_mem_latency_replies"), 4);
    CHECK_EQ(val(k2, "gms_mem_latency_replies"), 6);
    CHECK_EQ(val(k2, "gms_averagemflatency_replies"), 4);
    CHECK_EQ(val(k2, "averagemflatency"), (double)(uint64_t)val(k1, "gms_mem_latency_mean"));
    double icnt_sum = val(k2, "gms_icnt2mem_latency_mean") * 6;
    CHECK_EQ(val(k2, "avg_icnt2mem_latency"), (double)(uint64_t)(icnt_sum / 4 + 1e-9));
    CHECK_EQ(val(tot(&r), "gms_averagemflatency_replies"), 6);
    CHECK_EQ(val(k1, "gpu_sim_cycle"), val(k1, "gms_kernel_cycles"));
    CHECK_EQ(val(k2, "gpu_sim_cycle"), val(k2, "gms_kernel_cycles"));
    CHECK_EQ(val(k1, "gpu_sim_cycle") + val(k2, "gpu_sim_cycle"), val(k2, "gpu_tot_sim_cycle"));
    krun_free(&r);
}

/* Two kernels launched in the same cycle on two streams (one block each, on the two SMs): A
 * 200 dependent instructions, B 20; B ends first. GPGPU-Sim resets gpu_sim_cycle and
 * gpu_sim_insn at B's end (update_stats), so A's count from there: A's gpu_sim_cycle is its
 * own cycles less B's, the two add up to gpu_tot_sim_cycle, and the two gpu_sim_insn to every
 * thread instruction, 32 x (201 + 21) = 7,104, B's including what A ran beside it. */
TEST(overlapping_kernels_count_from_the_previous_end)
{
    static const kspec k[] = { { fill_alu200, 0 }, { fill_alu20, 1 } };
    krun r;
    REQUIRE(krun_go(&r, k, 2, NULL) == 0);
    REQUIRE(gms_sim_stats(r.s)->nkernels == 2);
    const gms_stats *b = kst(&r, 0), *a = kst(&r, 1);   /* in the order they ended */
    CHECK(!strcmp(gms_sim_stats(r.s)->kernels[0].name, "k1"));
    double ka = val(a, "gms_kernel_cycles"), kb = val(b, "gms_kernel_cycles");
    CHECK(kb < ka);
    CHECK_EQ(val(b, "gpu_sim_cycle"), kb);
    CHECK_EQ(val(a, "gpu_sim_cycle"), ka - kb);
    CHECK_EQ(val(a, "gpu_sim_cycle") + val(b, "gpu_sim_cycle"), val(a, "gpu_tot_sim_cycle"));
    CHECK_EQ(val(a, "gpu_tot_sim_cycle"), ka);
    CHECK_EQ(val(a, "gpu_sim_insn") + val(b, "gpu_sim_insn"), 32 * (201 + 21));
    CHECK_EQ(val(a, "gpu_tot_sim_insn"), 32 * (201 + 21));
    CHECK(val(b, "gpu_sim_insn") > 32 * 21);   /* A's instructions beside B's */
    CHECK_EQ(val(a, "gpu_sim_warp_insn") + val(b, "gpu_sim_warp_insn"), 201 + 21);
    CHECK_NEAR(val(a, "gpu_ipc"), val(a, "gpu_sim_insn") / val(a, "gpu_sim_cycle"), 1e-9);
    krun_free(&r);
}

/* -gpgpu_runtime_stat 0 would divide by zero in gpgpu_sim::cycle: refused */
TEST(runtime_stat_period_zero_refused)
{
    static const kspec k[] = { { fill_ld4, 0 } };
    static const char *const opts[] = { "gpgpu_runtime_stat", "0:0", NULL };
    krun r;
    CHECK(krun_go(&r, k, 1, opts) != 0);
    CHECK(r.s == NULL);
    krun_free(&r);
}

/* ---------------------------------------------------------------- request flits */

/* Fermi-style coalescing (arch 20, 128 B segments through an L1 that writes global stores
 * through): STG of one lane at 0x20040 (chunk 2: reduced to 32 B) and STG of two lanes at
 * 0x30000 and 0x30040 (chunks 0 and 2: both halves, the whole 128 B segment). 32 B flits:
 * GPGPU-Sim's packets are 8 + 32 = 40 B (2 flits) and 8 + 128 = 136 B (5 flits), 7 flits;
 * the network here carries the bytes written: 8 + 4 and 8 + 8, one flit each */
static int fill_st(void *self, uint64_t b, gms_block_trace *out, gms_error *err)
{
    (void)self; (void)b; (void)err;
    gms_emit e;
    uint64_t a[32];
    gms_emit_begin(&e, &out->warps[0]);
    uint8_t r = gms_emit_alu(&e, 0, 0xffffffffu, GMS_OP_INT, GMS_REG_NONE, GMS_REG_NONE, GMS_REG_NONE);
    for (int l = 0; l < 32; l++) a[l] = 0x20040;
    gms_emit_store(&e, 0x10, 0x1u, GMS_MEM_ST_GLOBAL, 4, a, r, r);
    a[0] = 0x30000;
    a[1] = 0x30040;
    gms_emit_store(&e, 0x20, 0x3u, GMS_MEM_ST_GLOBAL, 4, a, r, r);
    gms_emit_exit(&e, 0x30, 0xffffffffu);
    return 0;
}

TEST(store_request_flits_at_segment_size)
{
    static const kspec k[] = { { fill_st, 0 } };
    static const char *const opts[] = { "gpgpu_coalesce_arch", "20", "gpgpu_cache:dl1", "N:32:128:4,L:L:m:N:H,A:32:8,8",
        "icnt_flit_size", "32", NULL };
    krun r;
    REQUIRE(krun_go(&r, k, 1, opts) == 0);
    const gms_stats *t = tot(&r);
    CHECK_EQ(val(t, "gpgpu_n_mem_write_global"), 2);
    CHECK_EQ(val(t, "gms_icnt_packets_simt_to_mem"), 2);
    CHECK_EQ(val(t, "icnt_total_pkts_simt_to_mem"), 2 + 5);
    CHECK_EQ(val(t, "gms_icnt_flits_simt_to_mem"), 1 + 1);
    krun_free(&r);
    /* sectored (arch 70): 32 B each, the two-lane store two sectors: 3 x 40 B = 3 x 2 flits */
    static const char *const sec[] = { "icnt_flit_size", "32", NULL };
    REQUIRE(krun_go(&r, k, 1, sec) == 0);
    t = tot(&r);
    CHECK_EQ(val(t, "gms_icnt_packets_simt_to_mem"), 3);
    CHECK_EQ(val(t, "icnt_total_pkts_simt_to_mem"), 3 * 2);
    CHECK_EQ(val(t, "gms_icnt_flits_simt_to_mem"), 3 * 1);
    krun_free(&r);
}

/* The windows' wake-ups stop after -gms_watchdog_cycles (10^6 when it is off) without any
 * activity, so that a run where nothing happens any more still ends as a deadlock, and start
 * again with the next reply. A load waiting 2.5 x 10^6 cycles for the fixed memory (nothing
 * happens meanwhile): with the watchdog off they stop and start again, with a watchdog of 10^7
 * they never stop; the same replies are folded either way, for periods whose last window
 * ends before, between and after the 4 replies */
TEST(latency_windows_survive_a_long_quiet_spell)
{
    static const kspec k[] = { { fill_ld4, 0 } };
    int seen[5] = { 0 };
    for (int P = 7; P <= (gms_test_quick() ? 12 : 40); P++) {
        char p[16];
        snprintf(p, sizeof p, "%d", P);
        const char *off[] = { "gms_fixed_mem_latency", "2500000", "gms_watchdog_cycles", "0", "gpgpu_runtime_stat", p, NULL };
        const char *on[] = { "gms_fixed_mem_latency", "2500000", "gms_watchdog_cycles", "10000000",
                             "gpgpu_runtime_stat", p, NULL };
        krun a, b;
        REQUIRE(krun_go(&a, k, 1, off) == 0);
        REQUIRE(krun_go(&b, k, 1, on) == 0);
        const gms_stats *ka = kst(&a, 0), *kb = kst(&b, 0);
        CHECK(val(ka, "gpu_sim_cycle") > 2500000);
        CHECK_EQ(val(ka, "gpu_sim_cycle"), val(kb, "gpu_sim_cycle"));
        double n = val(ka, "gms_averagemflatency_replies");
        CHECK_EQ(n, val(kb, "gms_averagemflatency_replies"));
        CHECK_EQ(has(ka, "averagemflatency"), has(kb, "averagemflatency"));
        if (has(kb, "averagemflatency")) CHECK_EQ(val(ka, "averagemflatency"), val(kb, "averagemflatency"));
        if (n >= 0 && n <= 4) seen[(int)n] = 1;
        krun_free(&a);
        krun_free(&b);
    }
    if (!gms_test_quick()) CHECK(seen[0] && seen[4] && (seen[1] || seen[2] || seen[3]));
}
