/* Counters with GPGPU-Sim's names count what GPGPU-Sim's do (docs/counters.md), checked on a
 * one-warp program whose every count is worked out by hand below. */
#include "test.h"
#include "core/gpu.h"
#include "frontend/emit.h"
#include "frontend/program.h"
#include "stats/stats.h"

#define LANES20 0x000fffffu   /* lanes 0..19 */
#define LANES16 0x0000ffffu   /* lanes 0..15 */

/* One warp of 32 threads:
 *   LDG  20 lanes, 4 B at 0x10000 + 4*lane: 80 B = 3 sectors of one line
 *   STG  16 lanes, 4 B at 0x20000 + 4*lane: 64 B = 2 whole sectors
 *   ATOM 20 lanes on one word 0x30000: 20 one-lane requests (coalesce_atomic.c)
 *   LDS  20 lanes, 4 B at 8*lane: words 0,2,..,38; 32 banks: lanes 16..19 meet lanes 0..3
 *        in banks 0,2,4,6, so 2 cycles, 1 of them a bank-conflict stall
 *   EXIT */
static int cfill(void *self, uint64_t b, gms_block_trace *out, gms_error *err)
{
    (void)self; (void)b; (void)err;
    gms_emit e;
    uint64_t a[32];
    gms_emit_begin(&e, &out->warps[0]);
    uint8_t r = gms_emit_alu(&e, 0, 0xffffffffu, GMS_OP_INT, GMS_REG_NONE, GMS_REG_NONE, GMS_REG_NONE);
    for (int l = 0; l < 32; l++) a[l] = 0x10000 + 4u * (uint64_t)l;
    gms_emit_load(&e, 0x10, LANES20, GMS_MEM_LD_GLOBAL, 4, a, r);
    for (int l = 0; l < 32; l++) a[l] = 0x20000 + 4u * (uint64_t)l;
    gms_emit_store(&e, 0x20, LANES16, GMS_MEM_ST_GLOBAL, 4, a, r, r);
    for (int l = 0; l < 32; l++) a[l] = 0x30000;
    gms_emit_atomic(&e, 0x30, LANES20, GMS_MEM_ATOM_GLOBAL, 4, a, r, r);
    for (int l = 0; l < 32; l++) a[l] = 8u * (uint64_t)l;
    gms_emit_load(&e, 0x40, LANES20, GMS_MEM_LD_SHARED, 4, a, r);
    gms_emit_exit(&e, 0x50, 0xffffffffu);
    return 0;
}

typedef int (*fill_fn)(void *self, uint64_t b, gms_block_trace *out, gms_error *err);
typedef struct cprog { fill_fn fill; int launched; uint64_t copy_bytes; } cprog;   /* copy_bytes: a copy first */

static int cnext(void *self, gms_program *prog, gms_error *err)
{
    cprog *c = self;
    (void)err;
    if (c->launched) return 0;
    c->launched = 1;
    if (c->copy_bytes) gms_prog_copy_h2d(prog, gms_prog_alloc(prog, c->copy_bytes, "buf"), c->copy_bytes);
    gms_kernel_src k = {0};
    snprintf(k.name, sizeof k.name, "counters");
    k.grid = (gms_dim3){ 1, 1, 1 };
    k.block = (gms_dim3){ 32, 1, 1 };
    k.regs_per_thread = 16;
    k.shmem_bytes = 1024;
    k.fill_block = c->fill;
    k.self = c;
    gms_prog_launch(prog, &k);
    return 1;
}

static void cnodestroy(void *self) { (void)self; }

static double stat(const gms_run_stats *rs, const char *name)
{
    const gms_stat *st = gms_stats_find(&rs->total, name);
    if (!st) printf("    no counter %s\n", name);
    return st ? st->value : -1;
}

/* a one-warp kernel run on one SM with the fixed-latency memory and the options given as
 * name/value pairs (the parameters must outlive the simulation: both freed by run_free) */
typedef struct crun { gms_params *p; gms_sim *s; } crun;

static int run(crun *r, fill_fn fill, uint64_t copy_bytes, const char *const *opts)
{
    static cprog c;
    gms_error err = {0};
    r->s = NULL;
    r->p = gms_params_new();
    int bad = gms_params_set(r->p, "gpgpu_n_clusters", "1", &err);
    bad |= gms_params_set(r->p, "gpgpu_n_cores_per_cluster", "1", &err);
    bad |= gms_params_set(r->p, "gpgpu_perfect_mem", "1", &err);
    for (int i = 0; opts[i]; i += 2) bad |= gms_params_set(r->p, opts[i], opts[i + 1], &err);
    if (bad || gms_params_finalize(r->p, &err)) { printf("    %s\n", err.msg); return -1; }
    c = (cprog){ fill, 0, copy_bytes };
    gms_program_src src = { cnext, cnodestroy, &c };
    gms_workload_spec w = {0};
    w.program = &src;
    w.seed = 1;
    r->s = gms_sim_new(r->p, &w, &err);
    int rc = r->s ? gms_sim_run(r->s, &err) : -1;
    if (rc) printf("    %s\n", err.msg);
    return rc;
}

static void run_free(crun *r)
{
    if (r->s) gms_sim_free(r->s);
    gms_params_free(r->p);
}

/* No L1 (every global request bypasses it: one request a cycle, 32 B sectors), 8-byte flits
 * (a header is one flit, a header with 32 B of data five). */
TEST(gpgpusim_named_counters_hand_counted)
{
    static const char *const opts[] = { "gpgpu_cache:dl1", "none", "gpgpu_coalesce_arch", "70",
        "gpgpu_shmem_num_banks", "32", "icnt_flit_size", "8", NULL };
    crun r;
    int rc = run(&r, cfill, 0, opts);
    CHECK_EQ(rc, 0);
    if (!r.s) { run_free(&r); REQUIRE(r.s); }
    const gms_run_stats *rs = gms_sim_stats(r.s);
    /* active threads, as mem_instruction_stats; the atomic's 20 among the loads */
    CHECK_EQ(stat(rs, "gpgpu_n_load_insn"), 20 + 20);
    CHECK_EQ(stat(rs, "gpgpu_n_store_insn"), 16);
    CHECK_EQ(stat(rs, "gpgpu_n_shmem_insn"), 20);
    CHECK_EQ(stat(rs, "gms_n_atomic_insn"), 20);
    /* requests into the interconnect: 3 load sectors + 20 atomics; 2 store sectors */
    CHECK_EQ(stat(rs, "gpgpu_n_mem_read_global"), 3 + 20);
    CHECK_EQ(stat(rs, "gpgpu_n_mem_write_global"), 2);
    CHECK_EQ(stat(rs, "gpgpu_n_mem_read_local"), 0);
    /* LSU stalls: a bypassed instruction sends one request a cycle, so n requests leave n - 1
     * COAL_STALL cycles (load 2, store 1, atomic 19); the LDS 1 bank-conflict cycle */
    CHECK_EQ(stat(rs, "gpgpu_stall_shd_mem[gl_mem][coal_stall]"), 2 + 1 + 19);
    CHECK_EQ(stat(rs, "gpgpu_stall_shd_mem[gl_mem][resource_stall]"), 0);
    CHECK_EQ(stat(rs, "gpgpu_stall_shd_mem[s_mem][bk_conf]"), 1);
    CHECK_EQ(stat(rs, "gpgpu_n_stall_shd_mem"), 2 + 1 + 19 + 1);
    /* flits, as GPGPU-Sim's get_num_flits: requests: load header 1, store and atomic header +
     * 32 B = 5; replies: load and atomic 5, store acknowledgement 1 */
    CHECK_EQ(stat(rs, "icnt_total_pkts_simt_to_mem"), 3 * 1 + 2 * 5 + 20 * 5);
    CHECK_EQ(stat(rs, "icnt_total_pkts_mem_to_simt"), 3 * 5 + 2 * 1 + 20 * 5);
    CHECK_EQ(stat(rs, "gms_icnt_packets_simt_to_mem"), 25);
    CHECK_EQ(stat(rs, "gms_icnt_packets_mem_to_simt"), 25);
    /* one warp instruction per instruction, 32 threads for the ALU and EXIT, 20/16/20/20; the
     * thread count is the whole warp's unless -gpgpu_clock_gated_lanes (GPGPU-Sim's default 0) */
    CHECK_EQ(stat(rs, "gpgpu_n_tot_w_icount"), 6);
    CHECK_EQ(stat(rs, "gpu_tot_sim_insn"), 32 + 20 + 16 + 20 + 20 + 32);
    CHECK_EQ(stat(rs, "gpgpu_n_tot_thrd_icount"), 6 * 32);
    run_free(&r);
    static const char *const gated[] = { "gpgpu_cache:dl1", "none", "gpgpu_coalesce_arch", "70",
        "gpgpu_shmem_num_banks", "32", "icnt_flit_size", "8", "gpgpu_clock_gated_lanes", "1", NULL };
    REQUIRE(run(&r, cfill, 0, gated) == 0);
    CHECK_EQ(stat(gms_sim_stats(r.s), "gpgpu_n_tot_thrd_icount"), 32 + 20 + 16 + 20 + 20 + 32);
    run_free(&r);
}

/* The same program with the interconnect at a quarter of the core clock and its input buffer
 * held to 5 flits (one atomic or store packet of header + 32 B). A bypassed access that finds no room waits in the LSU: GPGPU-Sim's
 * ICNT_RC_FAIL (counted in gpgpu_n_stall_shd_mem, shown by us as gms_stall_shd_mem_icnt_rc_fail);
 * every other counter of the hand-counted run above stays. */
TEST(bypassed_access_waits_for_interconnect_room)
{
    static const char *const wide[] = { "gpgpu_cache:dl1", "none", "gpgpu_coalesce_arch", "70",
        "gpgpu_shmem_num_banks", "32", "icnt_flit_size", "8", "gpgpu_clock_domains", "1000:250:1000:1000", NULL };
    static const char *const narrow[] = { "gpgpu_cache:dl1", "none", "gpgpu_coalesce_arch", "70",
        "gpgpu_shmem_num_banks", "32", "icnt_flit_size", "8", "gpgpu_clock_domains", "1000:250:1000:1000",
        "icnt_in_buffer_limit", "5", NULL };
    crun a, b;
    int ra = run(&a, cfill, 0, wide);
    CHECK_EQ(ra, 0);
    CHECK_EQ(stat(gms_sim_stats(a.s), "gms_stall_shd_mem_icnt_rc_fail"), 0);   /* 64 flits: always room */
    int rb = run(&b, cfill, 0, narrow);
    CHECK_EQ(rb, 0);
    if (!a.s || !b.s) { run_free(&a); run_free(&b); REQUIRE(0); }
    const gms_run_stats *sa = gms_sim_stats(a.s), *sb = gms_sim_stats(b.s);
    double icnt = stat(sb, "gms_stall_shd_mem_icnt_rc_fail");
    printf("    ICNT_RC_FAIL cycles with a 5-flit input buffer: %.0f\n", icnt);
    CHECK(icnt > 0);
    CHECK_EQ(stat(sb, "gpgpu_n_stall_shd_mem"), 2 + 1 + 19 + 1 + icnt);
    static const char *const same[] = { "gpgpu_stall_shd_mem[gl_mem][coal_stall]", "gpgpu_n_mem_read_global",
        "gpgpu_n_mem_write_global", "icnt_total_pkts_simt_to_mem", "gpgpu_n_tot_thrd_icount", NULL };
    for (int i = 0; same[i]; i++) CHECK_EQ(stat(sb, same[i]), stat(sa, same[i]));
    /* the network moves a packet out of the input at each of its edges, every 4 core cycles:
     * the second store packet and each atomic after the first wait for the one before it to
     * leave, at most 3 core cycles each */
    CHECK(icnt <= 3 * (1 + 19));
    /* the network's rate bounds both runs: with room, the packets wait in its buffer instead */
    CHECK_EQ(stat(sb, "gpu_tot_sim_cycle"), stat(sa, "gpu_tot_sim_cycle"));
    run_free(&a);
    run_free(&b);
}

/* LDG 32 lanes, 4 B at 0x40000 + 4*lane (one line, 4 sectors), then the same load again,
 * addressed by the first one's result so that it waits for it: its 4 accesses hit in L1 */
static int lfill(void *self, uint64_t b, gms_block_trace *out, gms_error *err)
{
    (void)self; (void)b; (void)err;
    gms_emit e;
    uint64_t a[32];
    gms_emit_begin(&e, &out->warps[0]);
    uint8_t r = gms_emit_alu(&e, 0, 0xffffffffu, GMS_OP_INT, GMS_REG_NONE, GMS_REG_NONE, GMS_REG_NONE);
    for (int l = 0; l < 32; l++) a[l] = 0x40000 + 4u * (uint64_t)l;
    uint8_t d = gms_emit_load(&e, 0x10, 0xffffffffu, GMS_MEM_LD_GLOBAL, 4, a, r);
    gms_emit_load(&e, 0x20, 0xffffffffu, GMS_MEM_LD_GLOBAL, 4, a, d);
    gms_emit_exit(&e, 0x30, 0xffffffffu);
    return 0;
}

/* gpgpu_n_mem_read_global counts requests that leave for the interconnect (GPGPU-Sim's
 * icnt_inject_request_packet), not the accesses the L1 serves: 8 sector accesses, 4 misses,
 * 4 requests; the loads are 64 threads */
TEST(mem_read_global_counts_requests_past_the_l1)
{
    static const char *const opts[] = { "gpgpu_cache:dl1", "S:4:128:64,L:T:m:L:L,A:512:8,16:0,32",
        "gpgpu_coalesce_arch", "70", NULL };
    crun r;
    int rc = run(&r, lfill, 0, opts);
    CHECK_EQ(rc, 0);
    if (!r.s) { run_free(&r); REQUIRE(r.s); }
    const gms_run_stats *rs = gms_sim_stats(r.s);
    CHECK_EQ(stat(rs, "L1D_total_cache_accesses"), 8);
    CHECK_EQ(stat(rs, "L1D_total_cache_misses"), 4);
    CHECK_EQ(stat(rs, "gpgpu_n_mem_read_global"), 4);
    CHECK_EQ(stat(rs, "gpgpu_n_load_insn"), 64);
    CHECK_EQ(stat(rs, "icnt_total_pkts_simt_to_mem"), 4);   /* read requests: one flit each */
    run_free(&r);
}

/* L2_BW_total is GPGPU-Sim's replies x 32 B / (gpu_tot_sim_cycle x icnt period): over kernel
 * time, so a copy before the kernel leaves it alone. The first program with the memory
 * partitions and every clock at 1 GHz: 25 replies of one sector each (3 load sectors, 2 store
 * acknowledgements, 20 atomics) = 800 B in gpu_tot_sim_cycle ns. */
TEST(l2_bw_total_over_kernel_cycles)
{
    static const char *const opts[] = { "gpgpu_perfect_mem", "0", "gpgpu_cache:dl1", "none",
        "gpgpu_coalesce_arch", "70", "gpgpu_clock_domains", "1000:1000:1000:1000", NULL };
    for (int copy = 0; copy < 2; copy++) {
        crun r;
        int rc = run(&r, cfill, copy ? 8u << 20 : 0, opts);
        CHECK_EQ(rc, 0);
        if (!r.s) { run_free(&r); REQUIRE(r.s); }
        const gms_run_stats *rs = gms_sim_stats(r.s);
        double cyc = stat(rs, "gpu_tot_sim_cycle"), all = stat(rs, "gms_elapsed_core_cycles");
        printf("    copy %d: %.0f kernel cycles of %.0f, L2_BW_total %.4f GB/s\n", copy, cyc, all,
               stat(rs, "L2_BW_total"));
        if (copy) CHECK(all > 10 * cyc);   /* the copy took the time */
        CHECK(cyc > 0);
        CHECK_REL(stat(rs, "L2_BW_total"), 800.0 / cyc, 1e-9);
        run_free(&r);
    }
}

/* the stats set's name index (built past a few names, grown with them): order of first
 * appearance kept, a repeated name overwrites in place, every name found, copies equal */
TEST(stats_set_name_index)
{
    gms_stats st, cp;
    gms_stats_init(&st);
    char name[64];
    for (int i = 0; i < 1000; i++) {
        snprintf(name, sizeof name, "ctr_%d", i);
        gms_stat_u64(&st, name, (uint64_t)i);
        if (i % 7 == 0) gms_stat_f64(&st, "ctr_0", 0.5 * i);   /* overwrite, same slot */
    }
    CHECK_EQ(st.n, 1000);
    CHECK_STR(st.v[0].name, "ctr_0");
    CHECK(st.v[0].value == 0.5 * 994 && !st.v[0].is_int);
    for (int i = 1; i < 1000; i++) {
        snprintf(name, sizeof name, "ctr_%d", i);
        const gms_stat *s = gms_stats_find(&st, name);
        REQUIRE(s);
        CHECK(s == &st.v[i]);
        CHECK_EQ(s->value, i);
    }
    CHECK(gms_stats_find(&st, "ctr_1000") == NULL);
    CHECK(gms_stats_find(&st, "") == NULL);
    gms_stats_copy(&cp, &st);
    CHECK_EQ(cp.n, st.n);
    for (size_t i = 0; i < st.n; i++) {
        CHECK_STR(cp.v[i].name, st.v[i].name);
        CHECK(gms_stats_find(&cp, st.v[i].name) == &cp.v[i]);
        CHECK_EQ(cp.v[i].value, st.v[i].value);
        CHECK_EQ(cp.v[i].is_int, st.v[i].is_int);
    }
    CHECK(cp.v[0].value == 497.0 && !cp.v[0].is_int);   /* ctr_0's last overwrite, 0.5 x 994 */
    CHECK(cp.v[5].value == 5.0 && cp.v[5].is_int);
    gms_stats_free(&cp);
    gms_stats_free(&st);
    gms_stats_init(&st);   /* a small set: scanned, no index */
    gms_stat_u64(&st, "a", 1);
    gms_stat_u64(&st, "b", 2);
    gms_stat_u64(&st, "a", 3);
    CHECK_EQ(st.n, 2);
    CHECK_EQ(gms_stats_find(&st, "a")->value, 3);
    gms_stats_free(&st);
}
