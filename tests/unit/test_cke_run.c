/* Multiprogrammed runs end to end (workload cke, src/cke): the window, the spatial split of
 * the SMs, the metrics' arithmetic, and SMIL's in-flight limits as the SMs see them. Small
 * inputs and short windows (the cke repro study runs the real ones). */
#include "test.h"
#include "run_test_util.h"
#include "config/params.h"
#include "stats/stats.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* run apps under the Maxwell preset with the given cke options; 0, or -1 after printing the error */
static int run_cke(wl_sim *r, const char *const *opts, const char *apps, const char *window)
{
    char a[64], w[64];
    snprintf(a, sizeof a, "apps=%s", apps);
    snprintf(w, sizeof w, "window=%s", window);
    const char *kv[] = { a, w, "scale=0.25", NULL };
    return wl_sim_run(r, "configs/maxwell-sound-baseline.config", opts, "cke", kv, 1);
}

TEST(cke_spatial_window_and_metrics)
{
    const char *opts[] = { "gms_cke_tb", "spatial", NULL };
    wl_sim sim;
    REQUIRE(run_cke(&sim, opts, "bp+ks", "20000") == 0);
    /* 16 SMs: 8 each */
    CHECK_EQ(wl_sim_stat(&sim, "gms_cke_app0_sms"), 8);
    CHECK_EQ(wl_sim_stat(&sim, "gms_cke_app1_sms"), 8);
    /* the run ends with its window */
    CHECK_NEAR(wl_sim_stat(&sim, "gms_elapsed_core_cycles"), 20000, 1);
    CHECK_EQ(wl_sim_stat(&sim, "gms_completed"), 0);
    /* IPC = thread instructions / window; normalised by the isolated IPC; STP their sum,
     * ANTT the mean of the inverses, fairness min / max */
    double i0 = wl_sim_stat(&sim, "gms_cke_app0_ipc"), i1 = wl_sim_stat(&sim, "gms_cke_app1_ipc");
    CHECK_NEAR(i0, wl_sim_stat(&sim, "gms_cke_app0_thread_insts") / 20000.0, 1e-9);
    double n0 = i0 / wl_sim_stat(&sim, "gms_cke_app0_alone_ipc"), n1 = i1 / wl_sim_stat(&sim, "gms_cke_app1_alone_ipc");
    CHECK(n0 > 0 && n1 > 0);
    CHECK_NEAR(wl_sim_stat(&sim, "gms_cke_stp"), n0 + n1, 1e-9);
    CHECK_NEAR(wl_sim_stat(&sim, "gms_cke_antt"), (1 / n0 + 1 / n1) / 2, 1e-9);
    CHECK_NEAR(wl_sim_stat(&sim, "gms_cke_fairness"), (n0 < n1 ? n0 / n1 : n1 / n0), 1e-9);
    /* half the SMs each: neither kernel runs as fast as alone on all of them */
    CHECK(n0 < 1 && n1 < 1);
    wl_sim_free(&sim);
}

TEST(cke_smil_limits_inflight_memory_instructions)
{
    /* without a limit both kernels have several memory instructions in flight on an SM ... */
    const char *none[] = { "gms_cke_isolated", "0", NULL };
    wl_sim sim;
    REQUIRE(run_cke(&sim, none, "bp+ks", "10000") == 0);
    CHECK(wl_sim_stat(&sim, "gms_cke_app0_peak_inflight") > 2);
    CHECK(wl_sim_stat(&sim, "gms_cke_app1_peak_inflight") > 1);
    wl_sim_free(&sim);
    /* ... SMIL (2, 1) holds them there */
    const char *smil[] = { "gms_cke_isolated", "0", "gms_cke_mi", "smil:2,1", NULL };
    REQUIRE(run_cke(&sim, smil, "bp+ks", "10000") == 0);
    CHECK_EQ(wl_sim_stat(&sim, "gms_cke_app0_peak_inflight"), 2);
    CHECK_EQ(wl_sim_stat(&sim, "gms_cke_app1_peak_inflight"), 1);
    CHECK(wl_sim_stat(&sim, "gms_cke_app1_gate_denied") > 0);
    wl_sim_free(&sim);
}

/* bp+ks under SMK-(P+W) with its shares from a profile run of `pw` cycles: the shares, STP */
static int smkw_profile_run(const char *pw, double *w0, double *w1, double *stp)
{
    const char *opts[] = { "gms_cke_tb", "smk", "gms_cke_mi", "smkw", "gms_cke_smkw_rate", "profile",
                           "gms_cke_profile_window", pw, NULL };
    wl_sim sim;
    if (run_cke(&sim, opts, "bp+ks", "10000")) return -1;
    *w0 = wl_sim_stat(&sim, "gms_cke_app0_wq_share");
    *w1 = wl_sim_stat(&sim, "gms_cke_app1_wq_share");
    *stp = wl_sim_stat(&sim, "gms_cke_stp");
    wl_sim_free(&sim);
    return 0;
}

TEST(cke_smkw_rate_readings)
{
    /* SMK-W's quota shares: from the isolated runs of the whole window (default) ... */
    const char *iso[] = { "gms_cke_tb", "smk", "gms_cke_mi", "smkw", NULL };
    wl_sim sim;
    REQUIRE(run_cke(&sim, iso, "bp+ks", "10000") == 0);
    double a0 = wl_sim_stat(&sim, "gms_cke_app0_alone_warp_ipc"), a1 = wl_sim_stat(&sim, "gms_cke_app1_alone_warp_ipc");
    double w0 = wl_sim_stat(&sim, "gms_cke_app0_wq_share"), w1 = wl_sim_stat(&sim, "gms_cke_app1_wq_share");
    /* 1000 warp instructions per epoch shared as the alone warp-instruction rates */
    CHECK_NEAR(w0 + w1, 1000, 1);
    CHECK_NEAR(w0 / 1000.0, a0 / (a0 + a1), 0.002);
    double stp_iso = wl_sim_stat(&sim, "gms_cke_stp");
    wl_sim_free(&sim);
    /* ... or from a profiling run: over the same window it is the same run, the same shares */
    double p0, p1, stp;
    REQUIRE(smkw_profile_run("10000", &p0, &p1, &stp) == 0);
    CHECK_EQ(p0, w0);
    CHECK_NEAR(stp, stp_iso, 1e-12);
    /* over a 1,000-cycle profile (the kernels' start) the rates, and so the shares, differ */
    REQUIRE(smkw_profile_run("1000", &p0, &p1, &stp) == 0);
    CHECK(p0 != w0);
    CHECK_NEAR(p0 + p1, 1000, 1);
    /* a wrong word is one clear error */
    gms_params *p = gms_params_new();
    gms_error err = {0};
    CHECK(gms_params_set(p, "gms_cke_smkw_rate", "profiled", &err) || gms_params_finalize(p, &err));
    CHECK(strstr(err.msg, "gms_cke_smkw_rate") && strstr(err.msg, "profiled"));
    gms_params_free(p);
}

TEST(cke_bad_apps_are_one_clear_error)
{
    gms_params *p = wl_sim_params("configs/maxwell-sound-baseline.config", NULL);
    REQUIRE(p);
    gms_error err = {0};
    const char *kv[] = { "apps=bp+nosuch", NULL };
    gms_workload_spec ws = { "cke", NULL, kv, 1, NULL };
    gms_sim *s = gms_sim_new(p, &ws, &err);
    CHECK(s == NULL);
    CHECK_CONTAINS(err.msg, "'nosuch' is no built-in workload");
    const char *kv1[] = { "apps=bp", NULL };
    gms_workload_spec ws1 = { "cke", NULL, kv1, 1, NULL };
    s = gms_sim_new(p, &ws1, &err);
    CHECK(s == NULL);
    CHECK_CONTAINS(err.msg, "give 2 or 3 applications");
    gms_sim_free(s);
    gms_params_free(p);
    /* a scheme's numbers are checked with the option */
    p = gms_params_new();
    CHECK(gms_params_set(p, "gms_cke_mi", "smil:3,x", &err) || gms_params_finalize(p, &err));
    CHECK_CONTAINS(err.msg, "-gms_cke_mi");
    gms_params_free(p);
}

/* the value of "name = value" in a text statistics dump; -1 if absent */
static double text_value(const char *text, const char *name)
{
    size_t n = strlen(name);
    for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
        if (!strncmp(l, name, n) && !strncmp(l + n, " = ", 3)) return strtod(l + n + 3, NULL);
    return -1;
}

/* What a program reads with gms_stats_total is what `gpumemsim run` prints and what a sweep
 * stores (the stats JSON): the shared run's statistics, untouched by the isolated and profile
 * runs the driver makes first (each its own simulation). Checked on Warped-Slicer, which makes
 * both kinds: every gms_cke_ total equals its text line; the per-application counts are the same
 * without the isolated runs; an application's alone IPC is what a run of it alone reports. */
TEST(cke_totals_are_the_shared_runs_whatever_runs_before)
{
    const char *ws[] = { "gms_cke_tb", "ws", "gms_cke_profile_window", "800", NULL };
    wl_sim sim;
    REQUIRE(run_cke(&sim, ws, "bp+ks", "3000") == 0);
    const gms_run_stats *r = gms_sim_stats(sim.s);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    REQUIRE(f);
    gms_stats_write_text(r, f);
    fclose(f);
    int seen = 0;
    for (size_t i = 0; i < r->total.n; i++) {
        const gms_stat *st = &r->total.v[i];
        if (strncmp(st->name, "gms_cke_", 8)) continue;
        double v = -1;
        CHECK(gms_stats_total(r, st->name, &v) == 0);
        CHECK_REL(text_value(text, st->name), v, 1e-5);   /* the text prints 6 digits */
        seen++;
    }
    free(text);
    CHECK(seen > 20);
    /* both applications ran in the shared window: neither IPC is 0 */
    double i0 = wl_sim_stat(&sim, "gms_cke_app0_ipc"), i1 = wl_sim_stat(&sim, "gms_cke_app1_ipc");
    double t0 = wl_sim_stat(&sim, "gms_cke_app0_thread_insts"), t1 = wl_sim_stat(&sim, "gms_cke_app1_thread_insts");
    double a1 = wl_sim_stat(&sim, "gms_cke_app1_alone_ipc");
    CHECK(i0 > 0 && i1 > 0);
    CHECK_NEAR(i1, t1 / 3000.0, 1e-9);
    wl_sim_free(&sim);
    /* the same shared run without the isolated runs */
    const char *ws0[] = { "gms_cke_tb", "ws", "gms_cke_profile_window", "800", "gms_cke_isolated", "0", NULL };
    REQUIRE(run_cke(&sim, ws0, "bp+ks", "3000") == 0);
    CHECK_EQ(wl_sim_stat(&sim, "gms_cke_app0_thread_insts"), t0);
    CHECK_EQ(wl_sim_stat(&sim, "gms_cke_app1_thread_insts"), t1);
    wl_sim_free(&sim);
    /* ks alone for the window: the alone IPC the pair run normalised by */
    const char *kv[] = { "apps=ks", "alone=1", "window=3000", "scale=0.25", NULL };
    REQUIRE(wl_sim_run(&sim, "configs/maxwell-sound-baseline.config", NULL, "cke", kv, 1) == 0);
    CHECK_EQ(wl_sim_stat(&sim, "gms_cke_app0_ipc"), a1);
    wl_sim_free(&sim);
}

/* -gms_cke_mshr_partition (the cache's side: test_cke_partition.c) */
static double stat0(const wl_sim *r, const char *name)
{
    double v = 0;
    gms_stats_total(gms_sim_stats(r->s), name, &v);   /* absent: none counted */
    return v;
}

/* bp+sv with block partition tb and L1D MSHR design mshr, without and with
 * -gms_cke_mshr_partition 1: the four statistics of part_keys into off[] and on[]; 0 if a run
 * failed */
static const char *const part_keys[] = { "gpu_tot_sim_insn", "L1D_total_cache_reservation_fails",
                                         "L1D_fail_breakdown[GLOBAL_ACC_R][MSHR_ENRTY_FAIL]", "gms_cke_app0_thread_insts" };
static int partition_on_off(const char *tb, const char *mshr, double *off, double *on)
{
    for (int p = 0; p < 2; p++) {
        const char *o[] = { "gms_cke_tb", tb, "gms_cke_isolated", "0", "gms_l1d_mshr", mshr,
                            "gms_cke_mshr_partition", p ? "1" : "0", NULL };
        wl_sim sim;
        if (run_cke(&sim, o, "bp+sv", "20000")) return 0;
        for (int i = 0; i < 4; i++) (p ? on : off)[i] = stat0(&sim, part_keys[i]);
        wl_sim_free(&sim);
    }
    return 1;
}

TEST(cke_partition_alone_on_an_sm_changes_nothing_shared_does)
{
    /* spatial: each SM holds one kernel, whose share is the whole L1D: the run is the same */
    double off[4], on[4];
    REQUIRE(partition_on_off("spatial", "conventional", off, on));
    for (int i = 0; i < 4; i++) CHECK_EQ(on[i], off[i]);
    CHECK(off[0] > 0);
    /* the same under DL-MSHR, whose table takes more primaries than the configured entries:
     * a kernel alone gets no cap at all (a cap of the 128 entries cut its primaries) */
    REQUIRE(partition_on_off("spatial", "dlmshr", off, on));
    for (int i = 0; i < 4; i++) CHECK_EQ(on[i], off[i]);
    /* a manual split puts both kernels on every SM: each gets half the 128 entries, and sv's
     * misses now find their share full */
    REQUIRE(partition_on_off("manual:4,4", "conventional", off, on));
    CHECK(on[2] > off[2]);
}

/* bp+ks under QBMI, both kernels on every SM (manual:4,4), with -gms_cke_bmi_demand gate and
 * parked: app0 thread instructions, app1's gate denials, app0's into r[0..2] */
static int demand_run(const char *tb, const char *demand, double r[3])
{
    const char *o[] = { "gms_cke_tb", tb, "gms_cke_isolated", "0", "gms_cke_mi", "qbmi", "gms_cke_bmi_demand", demand, NULL };
    wl_sim sim;
    if (run_cke(&sim, o, "bp+ks", "20000")) return 0;
    r[0] = stat0(&sim, "gms_cke_app0_thread_insts");
    r[1] = stat0(&sim, "gms_cke_app1_gate_denied");
    r[2] = stat0(&sim, "gms_cke_app1_thread_insts");
    wl_sim_free(&sim);
    return 1;
}

/* spec 001 4.4: QBMI arbitrates among the warps with a ready memory instruction. ks's
 * 17-request loads fill every scheduler's memory slot, so bp's ready loads wait parked before
 * the issue gate; counted as demand (parked), they hold ks at the gate (bp has the larger
 * quota) and bp progresses; not counted (gate), ks is hardly ever denied. With one kernel per
 * SM (spatial) there is nobody to arbitrate against: the two readings run the same. */
TEST(cke_qbmi_demand_includes_warps_parked_on_a_full_memory_slot)
{
    double g[3], p[3];
    REQUIRE(demand_run("manual:4,4", "gate", g));
    REQUIRE(demand_run("manual:4,4", "parked", p));
    CHECK(p[1] > 2 * g[1]);          /* ks held at the gate for bp's parked loads */
    CHECK(p[0] > 1.5 * g[0]);        /* and bp gets on */
    CHECK(g[0] > 0 && g[2] > 0 && p[2] > 0);
    REQUIRE(demand_run("spatial", "gate", g));
    REQUIRE(demand_run("spatial", "parked", p));
    for (int i = 0; i < 3; i++) CHECK_EQ(p[i], g[i]);
}
