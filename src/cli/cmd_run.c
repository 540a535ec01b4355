/* gpumemsim run: simulate a workload or trace, print/write statistics. */
#include "cli/cli.h"
#include "cli/cli_config.h"
#include "config/params.h"
#include "cli/run_extras.h"
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "workloads/workload.h"
#include "uvm/uvm.h"
#include "cke/cke_apps.h"

static void run_help(void)
{
    printf("usage: gpumemsim run [--config FILE]... [--set NAME=VALUE]... [-NAME VALUE]...\n"
           "                     (--workload NAME | --trace DIR/kernelslist.g) [--seed N]\n"
           "                     [--stats-json FILE] [--stats-csv FILE] [--stats-text FILE] [--quiet]\n"
           "                     [--ignore-unknown] [--page-log FILE]\n\n"
           "  --config FILE      GPGPU-Sim style config (also -config); later files override earlier ones\n"
           "  --set NAME=VALUE   a config option, or a parameter of the workload (e.g. n=4194304, uvm=1)\n"
           "  -NAME VALUE        a config option, GPGPU-Sim style\n"
           "  --workload NAME    a built-in workload (gpumemsim list workloads); default stream. Given two or\n"
           "                     three times: those applications share the GPU (workload cke, docs/cke.md)\n"
           "  --trace FILE       an Accel-Sim kernelslist.g (also -trace). Traces and workloads given together, two or\n"
           "                     three in all, share the GPU as applications (docs/cke.md)\n"
           "  --stats-json/csv/text FILE  write statistics there (text goes to stdout otherwise)\n"
           "  --quiet            no progress line\n"
           "  --ignore-unknown   also load options that are neither gpumemsim's nor GPGPU-Sim's (listed and ignored;\n"
           "                     GPGPU-Sim's own options that gpumemsim does not model are always listed and ignored)\n"
           "  --page-log FILE    write every global access (index, page, address) for 'gpumemsim plot pages';\n"
           "                     with --no-timing from a functional walk (warps interleaved round-robin)\n"
           "  --no-timing        only generate the workload's instructions (functional run, result checked) and\n"
           "                     print the generation rate; no timing model\n"
           "environment: GMS_SHADOW_DIGEST=1 with --no-timing also prints gms_shadow_digest, a hash of device\n"
           "memory's final contents; GMS_WL_VEC_FLOATS=4|8|16 narrows the host vector width the workloads'\n"
           "CPU loops use (results are the same at every width); docs/guide.md\n");
}

typedef struct progress_state { double t0; int on; } progress_state;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void on_progress(void *ud, const char *kernel, uint64_t cycles, uint64_t winst)
{
    progress_state *ps = ud;
    double el = now_s() - ps->t0;
    fprintf(stderr, "\r%-32.32s cycle %12llu  warp insts %12llu  %8.0f kinst/s ", kernel,
            (unsigned long long)cycles, (unsigned long long)winst, el > 0 ? (double)winst / el / 1e3 : 0.0);
    fflush(stderr);
}

static int write_file(const char *path, void (*fn)(const gms_run_stats *, FILE *), const gms_run_stats *st)
{
    /* A path that exists and is not a regular file (/dev/null, /dev/stdout, a FIFO, a symlink)
     * is written in place: renaming a temporary file over it would replace the device or the
     * link itself (as root, /dev/null became a regular file). Regular files are replaced
     * whole, so a reader never sees half a file. */
    struct stat sb;
    if (lstat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
        FILE *f = fopen(path, "w");
        if (!f) { fprintf(stderr, "gpumemsim: cannot write %s\n", path); return -1; }
        fn(st, f);
        if (fclose(f)) { fprintf(stderr, "gpumemsim: cannot write %s\n", path); return -1; }
        return 0;
    }
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp%d", path, (int)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f) { fprintf(stderr, "gpumemsim: cannot write %s\n", path); return -1; }
    fn(st, f);
    if (fclose(f) || rename(tmp, path)) { fprintf(stderr, "gpumemsim: cannot write %s\n", path); return -1; }
    return 0;
}

/* a trace, or a multiprogrammed run with a trace among its applications (trace0..trace2 of
 * cke_trace_app.c, whichever way apps= came: --trace given with others, or --workload cke) */
static int has_trace_app(const gms_cli_opts *o)
{
    if (o->trace) return 1;
    const gms_workload_ops *ops = o->workload ? gms_workload_find(o->workload) : NULL;
    if (!ops || strcmp(ops->name, "cke")) return 0;
    gms_wl_args *a;
    gms_error e = {0};
    if (gms_wl_args_parse(ops, o->wl_params, 1, &a, &e)) return 0;   /* the run says what is wrong */
    gms_cke_apps x;
    int any = 0;
    if (!gms_cke_apps_parse(a, &x, &e)) {
        for (uint32_t k = 0; k < x.n; k++) any |= x.a[k].ops == &gms_cke_trace_app;
        gms_cke_apps_free(&x);
    }
    gms_wl_args_free(a);
    return any;
}

/* --no-timing: the workload's instruction generation alone (the generation-rate benchmark) */
static int run_functional(const gms_cli_opts *o, const gms_params *p)
{
    if (has_trace_app(o)) { fprintf(stderr, "gpumemsim run: --no-timing works with built-in workloads only\n"); return 2; }
    const char *name = o->workload ? o->workload : "stream";
    const gms_workload_ops *ops = gms_workload_find(name);
    if (!ops) { fprintf(stderr, "gpumemsim: unknown workload '%s'\n", name); return 1; }
    gms_functional_result fr;
    gms_error err = {0};
    double t0 = now_s();
    /* GMS_SHADOW_DIGEST=1: also print a digest of the device memory's final contents (the
     * values the program's stores left: compare two builds or host vector widths) */
    const char *dg = getenv("GMS_SHADOW_DIGEST");
    gms_functional_opts fo = { .shadow = 1, .digest = dg && !strcmp(dg, "1") };
    int rc = gms_workload_run_functional_opts(ops, o->wl_params, o->have_seed ? o->seed : p->sim.seed, &fo, &fr,
                                              &err);
    double wall = now_s() - t0;
    if (rc) { fprintf(stderr, "gpumemsim: %s\n", err.msg); return 1; }
    uint64_t logged = 0;
    if (o->page_log && gms_run_extras_walk(o->page_log, name, o->wl_params, o->have_seed ? o->seed : p->sim.seed,
                                           &logged, &err)) {
        fprintf(stderr, "gpumemsim: --page-log %s: %s\n", o->page_log, err.msg);
        return 1;
    }
    if (o->page_log)
        fprintf(stderr, "gpumemsim: --page-log %s: %llu accesses from a functional walk (--no-timing: warps of resident "
                "blocks interleaved round-robin, not the timed order)\n", o->page_log, (unsigned long long)logged);
    printf("workload = %s\nkernels = %llu\nthread_blocks = %llu\nwarp_insts = %llu\nthread_insts = %llu\n"
           "mem_insts = %llu\ngms_workload_verified = 1\ngms_wall_seconds = %.6f\ngms_generated_warp_insts_per_second = %.0f\n",
           ops->name, (unsigned long long)fr.kernels, (unsigned long long)fr.blocks, (unsigned long long)fr.warp_insts,
           (unsigned long long)fr.thread_insts, (unsigned long long)fr.mem_insts, wall,
           wall > 0 ? (double)fr.warp_insts / wall : 0.0);
    if (fo.digest) printf("gms_shadow_digest = %016llx\n", (unsigned long long)fr.shadow_digest);
    return 0;
}

/* The energy model prices every MSHR slot as hardware (docs/dlmshr.md "Area and energy"). A
 * cache string with GPGPU-Sim's "no limit" MSHR sizes (gtx1080ti's L2 A:1024:1024: a million
 * slots with a 128 B data buffer each, per table) then leaks more than the whole rest of the
 * GPU, and gms_energy_* say nothing about such a GPU: said next to the results, not silently.
 * The bar is half the static power: hardware-sized tables (qv100's, the DL-MSHR study's) leak
 * a few percent of it. */
static void warn_mshr_energy(const gms_run_stats *st, double static_w)
{
    double l1 = 0, l2 = 0;
    gms_stats_total(st, "gms_L1D_mshr_leakage_mw", &l1);
    gms_stats_total(st, "gms_L2_mshr_leakage_mw", &l2);
    if (static_w <= 0 || l1 + l2 <= 0.5 * static_w * 1e3) return;
    fprintf(stderr, "gpumemsim: warning: gms_energy_* do not describe a real GPU here: the energy model prices "
            "the cache strings' MSHR tables (GPGPU-Sim's 'no limit' sizes) at %.0f mW of leakage, %.1fx the %g W "
            "static power of the rest of the GPU\n", l1 + l2, (l1 + l2) / (static_w * 1e3), static_w);
}

int gms_cmd_run(int argc, char **argv)
{
    gms_cli_opts o;
    if (gms_cli_parse(argc, argv, &o, "run")) return 2;
    if (o.help) { run_help(); return 0; }
    if (o.workload && o.trace) { fprintf(stderr, "gpumemsim run: give --workload or --trace, not both\n"); return 2; }
    gms_params *p = gms_cli_params(&o);
    if (!p) return 1;
    /* -gms_cke_* only act in a multiprogrammed run; on one application they would be accepted
     * and never used. Checked here, not in the cke module's finalize, because the workload is a
     * command-line choice and the cke driver's own isolated and profile runs reuse its params. */
    static const char *const cke_knobs[] = { "gms_cke_", NULL };
    gms_error cerr = {0};
    if (gms_params_require(p, cke_knobs, o.workload && !strcmp(o.workload, "cke"),
                           "the run is multiprogrammed (--workload given two or three times, or --workload cke)",
                           &cerr)) {
        fprintf(stderr, "gpumemsim: %s\n", cerr.msg);
        gms_params_free(p);
        return 1;
    }
    /* a multiprogrammed run ends with its window and places blocks by its own schemes: a limit
     * on thread blocks would be accepted and not end it */
    static const char *const cta_limits[] = { "gpgpu_max_cta", "gpgpu_max_completed_cta", NULL };
    int one_app = !(o.workload && !strcmp(o.workload, "cke"));
    if (gms_params_require(p, cta_limits, one_app,
                           "the run is one application (a multiprogrammed run ends with its window)", &cerr)) {
        fprintf(stderr, "gpumemsim: %s\n", cerr.msg);
        gms_params_free(p);
        return 1;
    }
    /* the cycle and instruction limits likewise (by name: gms_params_require takes prefixes, and
     * -gpgpu_max_insn is one of -gpgpu_max_insn_issue_per_warp); the shared run would not stop
     * at them, yet its isolated runs would, and its STP change */
    if (!one_app && (p->sim.max_cycles || p->sim.max_insn)) {
        fprintf(stderr, "gpumemsim: -%s is set, but it has no effect unless the run is one application (a "
                "multiprogrammed run ends with its window: -gms_cke_window)\n",
                p->sim.max_cycles ? "gpgpu_max_cycle" : "gpgpu_max_insn");
        gms_params_free(p);
        return 1;
    }
    /* a policy's own knobs (-uvm_hpe_*, -gms_l2q_cart*, ...) set while another member of its
     * family is chosen: accepted (a sweep may set them for every point), and named as unused */
    gms_params_warn_unused_knobs(p, stderr);
    if (o.no_timing) {
        if (p->sim.mshr_dump_at && !has_trace_app(&o))   /* a timing model's debug dump: none here */
            fprintf(stderr, "gpumemsim: warning: -gms_mshr_dump_at %llu has no effect with --no-timing (no timed run, "
                    "no MSHR tables)\n", (unsigned long long)p->sim.mshr_dump_at);
        int rc = run_functional(&o, p);
        gms_params_free(p);
        return rc;
    }
    if (gms_params_n_ignored(p) && !o.quiet) {
        fprintf(stderr, "gpumemsim: ignored %zu option(s) gpumemsim does not model:\n", gms_params_n_ignored(p));
        for (size_t i = 0; i < gms_params_n_ignored(p); i++) fprintf(stderr, "  %s\n", gms_params_ignored(p, i));
    } else if (gms_params_n_ignored(p)) {
        /* --quiet drops the progress line, not what the run leaves out: one line of names */
        fprintf(stderr, "gpumemsim: warning: ignored %zu option(s) gpumemsim does not model:", gms_params_n_ignored(p));
        for (size_t i = 0; i < gms_params_n_ignored(p); i++)
            fprintf(stderr, "%s %s", i ? "," : "", gms_params_ignored_name(p, i));
        fputc('\n', stderr);
    }
    gms_workload_spec w = { o.workload, o.trace, o.wl_params, o.have_seed ? o.seed : p->sim.seed, NULL };
    gms_error err = {0};
    gms_sim *s = gms_sim_new(p, &w, &err);
    if (!s) {
        fprintf(stderr, "gpumemsim: %s\n", err.msg);
        gms_params_free(p);
        return 1;
    }
    gms_run_extras ex;
    if (gms_run_extras_attach(&ex, s, o.page_log, &err)) {
        fprintf(stderr, "gpumemsim: %s\n", err.msg);
        gms_sim_free(s);
        gms_params_free(p);
        return 1;
    }
    progress_state ps = { now_s(), !o.quiet && isatty(2) };
    if (ps.on) gms_sim_set_progress(s, on_progress, &ps);
    double t0 = now_s();
    int rc = gms_sim_run(s, &err);
    double wall = now_s() - t0;
    if (ps.on) fprintf(stderr, "\r%100s\r", "");
    gms_error xerr = {0};
    if (gms_run_extras_finish(&ex, &xerr)) fprintf(stderr, "gpumemsim: %s\n", xerr.msg);
    const gms_run_stats *st = gms_sim_stats(s);
    gms_run_stats *mst = (gms_run_stats *)st;
    double winst = 0, cyc = 0;
    gms_stats_total(st, "gpgpu_n_tot_w_icount", &winst);
    gms_stats_total(st, "gms_elapsed_core_cycles", &cyc);
    gms_stat_f64(&mst->host, "gms_wall_seconds", wall);
    gms_stat_f64(&mst->host, "gms_warp_insts_per_second", wall > 0 ? winst / wall : 0);
    gms_stat_f64(&mst->host, "gms_sim_cycles_per_second", wall > 0 ? cyc / wall : 0);
    const char *unmodelled[64];
    size_t nun = gms_params_unmodelled(p, unmodelled, 64);
    gms_run_stats_set_unmodelled(mst, unmodelled, nun < 64 ? nun : 64);
    if (rc) { free(mst->error); mst->error = gms_xstrdup(err.msg); }   /* the files say the numbers are partial */
    int wrc = 0;
    if (o.stats_json) wrc |= write_file(o.stats_json, gms_stats_write_json, st);
    if (o.stats_csv) wrc |= write_file(o.stats_csv, gms_stats_write_csv, st);
    if (o.stats_text) wrc |= write_file(o.stats_text, gms_stats_write_text, st);
    else gms_stats_write_text(st, stdout);
    /* next to the results it qualifies, and not silenced by --quiet; a failed run's error stays
     * its only line (a sweep shows the first line of a failed point's stderr) */
    fflush(stdout);   /* the results before the lines about them, when both go to one pipe */
    if (rc) fprintf(stderr, "gpumemsim: %s\n", err.msg);
    else {
        gms_params_warn_unmodelled(p, stderr);
        warn_mshr_energy(st, p->mem.energy.static_w);
        if (!gms_sim_used_managed(s)) gms_uvm_warn_unmanaged(p, stderr);
    }
    gms_sim_free(s);
    gms_params_free(p);
    return rc ? 1 : wrc ? 1 : 0;
}
