/* The timing-free Belady bound (-gms_uvm_opt_bound, uvm/opt_bound.h, core/opt_prepass.h):
 * MIN's fault count on classic reference strings, and the string the functional walk builds
 * for a small built-in workload, both counted by hand. */
#include "test.h"
#include "config/params.h"
#include "frontend/program.h"
#include "uvm/opt_bound.h"

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

/* stream n=4096 (a, b, c: 4 pages of 1024 floats each), block=256 (8 warps), repeat=2:
 * blocks 4p..4p+3 (32 warps) touch page p of a, b, c; each warp loads a, loads b, stores c,
 * so the walk's string is (a_p b_p c_p) x 32 for p = 0..3, twice: 768 references, 12 pages.
 * Ratio 2: 49152 / 2 / 4096 = 6 frames, two of the four page groups. MIN: 12 cold faults in
 * the first launch; the second can hit at most the 6 pages resident when it starts, and does
 * (the first launch keeps group 0 and evicts the later ones): 6 more, 18. */
static int run_stream(const char *ratio, const char *ev, gms_opt_result *o, double *lru_faults)
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
             gms_stats_total(r, "gms_uvm_opt_capacity_pages", &cap) || gms_stats_total(r, "Page_tot_fault", lru_faults);
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
    double faults = 0;
    REQUIRE(run_stream("2", "lru4k", &o, &faults) == 0);
    CHECK_EQ(o.refs, 768);
    CHECK_EQ(o.distinct, 12);
    CHECK_EQ(o.faults, 18);
    CHECK_EQ(o.evictions, 12);
    CHECK(faults >= 18);   /* the timed LRU run: 12 cold, and at least 6 more in the second launch */
    REQUIRE(run_stream("0", "lru4k", &o, &faults) == 0);
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
