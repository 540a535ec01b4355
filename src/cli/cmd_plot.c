/* `gpumemsim plot`: a sweep's metric against one swept setting (a config option or workload
 * parameter), one line per workload, drawn with gnuplot to .png or .svg.
 * `gpumemsim plot pages ...` is forwarded to the UVM page plot (src/workloads/plot_pages.c);
 * `gpumemsim plot series RUN.txt --y PATTERN` draws a series inside one run's output. */
#include "cli/cli.h"
#include "harness/report.h"
#include "harness/spec.h"
#include "harness/util.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/pagelog.h"   /* gms_plot_pages */

static void usage(FILE *out)
{
    fprintf(out,
        "usage: gpumemsim plot DB|SPEC --x SETTING [--metric NAME] [--baseline VARIANT] --out FILE.png|FILE.svg\n"
        "       gpumemsim plot pages ...   (UVM pages against time: gpumemsim plot pages --help)\n"
        "       gpumemsim plot series RUN.txt --y PATTERN [--x PATTERN] --out FILE.png|FILE.svg\n\n"
        "  --x SETTING     a config option or workload parameter the sweep varies (e.g. gpgpu_n_mem, n)\n"
        "  --metric NAME   total stat on the y axis (default gpu_tot_ipc)\n"
        "  --baseline V    divide each workload's values by its value under variant V (x: a config option)\n"
        "  --out FILE      output image; the extension picks PNG or SVG\n"
        "One line per workload (and per combination of other differing settings); y is the mean over\n"
        "seeds; failed or missing points are gaps labelled \"failed\" or \"-\".\n\n"
        "plot series: RUN.txt is what gpumemsim run printed (or wrote with --stats-text); PATTERN names\n"
        "statistics that differ in their indices, '*' for each: one '*' is the point of a single line,\n"
        "two are the line then the point, e.g. --y 'gms_mdb_series[sm*][*]_L' --x 'gms_mdb_series[sm*][*]_cycle'\n"
        "(MDB's chosen L per SM against the cycle) or --y 'gms_cke_req_ratio_t[*]'. Without --x, x is the\n"
        "point's index. A name printed several times (per kernel, then the totals) counts with its last value.\n");
}

static int plot_series(int argc, char **argv)
{
    const char *in = NULL, *y = NULL, *x = NULL, *outp = NULL;
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        const char **dst = !strcmp(s, "--y") ? &y : !strcmp(s, "--x") ? &x : (!strcmp(s, "--out") || !strcmp(s, "-o")) ? &outp : NULL;
        if (dst) {
            if (i + 1 >= argc) { fprintf(stderr, "gpumemsim plot series: %s needs a value\n", s); return 2; }
            if (*dst) {
                fprintf(stderr, "gpumemsim plot series: %s given twice ('%s', then '%s')\n",
                        dst == &outp ? "--out" : s, *dst, argv[i + 1]);
                return 2;
            }
            *dst = argv[++i];
        } else if (!strcmp(s, "-h") || !strcmp(s, "--help")) { usage(stdout); return 0; }
        else if (s[0] == '-') { fprintf(stderr, "gpumemsim plot series: unknown option '%s' (gpumemsim plot --help for usage)\n", s); return 2; }
        else if (!in) in = s;
        else { fprintf(stderr, "gpumemsim plot series: unexpected argument '%s'\n", s); return 2; }
    }
    if (!in || !y || !outp) {
        const char *what[3];
        int n = 0;
        if (!in) what[n++] = "RUN.txt (the run's text output)";
        if (!y) what[n++] = "--y PATTERN";
        if (!outp) what[n++] = "--out FILE";
        fprintf(stderr, "gpumemsim plot series: missing ");
        for (int k = 0; k < n; k++) fprintf(stderr, "%s%s", k ? (k == n - 1 ? " and " : ", ") : "", what[k]);
        fprintf(stderr, "\n");
        usage(stderr);
        return 2;
    }
    gms_error err = {0};
    gms_series_set *ss = NULL;
    int rc = gms_series_from_run(in, y, x, &ss, &err) || gms_plot_lines(ss, outp, &err);
    if (rc) fprintf(stderr, "gpumemsim plot series: %s\n", err.msg);
    else {
        size_t pts = 0;
        for (size_t i = 0; i < ss->n; i++) pts += ss->s[i].n;
        fprintf(stderr, "wrote %s: %zu line(s), %zu point(s)\n", outp, ss->n, pts);
    }
    gms_series_free(ss);
    return rc ? 1 : 0;
}

int gms_cmd_plot(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "pages")) {
        return gms_plot_pages(argc - 1, argv + 1);
    }
    if (argc >= 2 && !strcmp(argv[1], "series")) return plot_series(argc - 1, argv + 1);
    const char *in = NULL, *metric = "gpu_tot_ipc", *x = NULL, *outp = NULL, *base = NULL;
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        const char **dst = !strcmp(s, "--metric") ? &metric : !strcmp(s, "--x") ? &x : !strcmp(s, "--baseline") ? &base
                         : (!strcmp(s, "--out") || !strcmp(s, "-o")) ? &outp : NULL;
        if (dst) {
            if (i + 1 >= argc) { fprintf(stderr, "gpumemsim plot: %s needs a value\n", s); return 2; }
            *dst = argv[++i];
        } else if (!strcmp(s, "-h") || !strcmp(s, "--help")) { usage(stdout); return 0; }
        else if (s[0] == '-') { fprintf(stderr, "gpumemsim plot: unknown option '%s' (gpumemsim plot --help for usage)\n", s); return 2; }
        else if (!in) in = s;
        else { fprintf(stderr, "gpumemsim plot: unexpected argument '%s'\n", s); return 2; }
    }
    if (!in || !x || !outp) {
        const char *what[3];
        int n = 0;
        if (!in) what[n++] = "DB|SPEC (the sweep's store or spec)";
        if (!x) what[n++] = "--x SETTING";
        if (!outp) what[n++] = "--out FILE";
        fprintf(stderr, "gpumemsim plot: missing ");
        for (int k = 0; k < n; k++) fprintf(stderr, "%s%s", k ? (k == n - 1 ? " and " : ", ") : "", what[k]);
        fprintf(stderr, " (gpumemsim plot --help for usage)\n");
        return 2;
    }
    gms_error err = {0};
    char *db = gms_store_path_of(in, &err);
    if (!db) { fprintf(stderr, "gpumemsim plot: %s\n", err.msg); return 1; }
    gms_store *st = NULL;
    gms_series_set *ss = NULL;
    int rc = gms_store_open(db, 0, &st, &err) || gms_series_build(st, metric, x, &ss, &err) ||
             (base && gms_series_normalise(st, ss, base, &err)) || gms_plot_lines(ss, outp, &err);
    if (rc) fprintf(stderr, "gpumemsim plot: %s\n", err.msg);
    else {
        size_t pts = 0;
        for (size_t i = 0; i < ss->n; i++) pts += ss->s[i].n;
        fprintf(stderr, "wrote %s: %zu line(s), %zu point(s)", outp, ss->n, pts);
        if (ss->skipped) fprintf(stderr, "; %zu sweep point(s) that do not set %s left out", ss->skipped, x);
        fprintf(stderr, "\n");
    }
    gms_series_free(ss);
    gms_store_close(st);
    free(db);
    return rc ? 1 : 0;
}
