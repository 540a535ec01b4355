/* `gpumemsim report`: a sweep's metric per workload and variant, normalised to the baseline,
 * with geometric means per variant and per workload group, as Markdown (default) or CSV,
 * optionally drawn as grouped bars (--plot fig.png|fig.svg). Reads the result store; a
 * .sweep file may be given instead of the store (its `db`). */
#include "cli/cli.h"
#include "harness/report.h"
#include "harness/spec.h"
#include "harness/util.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out,
        "usage: gpumemsim report DB|SPEC [--metric NAME] [--baseline VARIANT] [--csv] [--absolute]\n"
        "                        [--plot FILE.png|FILE.svg] [-o FILE]\n\n"
        "  --metric NAME      total stat to report (default gpu_tot_ipc)\n"
        "  --baseline V       variant to normalise to (default: the spec's baseline)\n"
        "  --csv              CSV instead of a Markdown table\n"
        "  --absolute         the metric's values, not normalised\n"
        "  --plot FILE        also draw grouped bars with gnuplot (.png or .svg)\n"
        "  -o FILE            write the table to FILE instead of stdout\n"
        "Cells: mean over seeds; failed = a seed failed, - = not run yet, n/a = no value.\n");
}

int gms_cmd_report(int argc, char **argv)
{
    const char *in = NULL, *metric = "gpu_tot_ipc", *baseline = NULL, *plot = NULL, *outp = NULL;
    int csv = 0, absolute = 0;
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        const char **dst = !strcmp(s, "--metric") ? &metric : !strcmp(s, "--baseline") ? &baseline
                         : !strcmp(s, "--plot") ? &plot : (!strcmp(s, "-o") || !strcmp(s, "--out")) ? &outp : NULL;
        if (dst) {
            if (i + 1 >= argc) { fprintf(stderr, "gpumemsim report: %s needs a value\n", s); return 2; }
            *dst = argv[++i];
        } else if (!strcmp(s, "--csv")) csv = 1;
        else if (!strcmp(s, "--absolute")) absolute = 1;
        else if (!strcmp(s, "-h") || !strcmp(s, "--help")) { usage(stdout); return 0; }
        else if (s[0] == '-') { fprintf(stderr, "gpumemsim report: unknown option '%s' (gpumemsim report --help for usage)\n", s); return 2; }
        else if (!in) in = s;
        else { fprintf(stderr, "gpumemsim report: unexpected argument '%s'\n", s); return 2; }
    }
    if (!in) { fprintf(stderr, "gpumemsim report: missing DB|SPEC (the sweep's store or spec; gpumemsim report --help for usage)\n"); return 2; }
    if (plot) {   /* before the table is written: a figure it cannot draw is a usage error */
        size_t n = strlen(plot);
        if (!(n > 4 && (!strcmp(plot + n - 4, ".png") || !strcmp(plot + n - 4, ".svg")))) {
            fprintf(stderr, "gpumemsim report: --plot %s: the figure must be a .png or .svg file\n", plot);
            return 2;
        }
    }
    gms_error err = {0};
    char *db = gms_store_path_of(in, &err);
    gms_store *st = NULL;
    gms_report *r = NULL;
    int rc = !db || gms_store_open(db, 0, &st, &err) || gms_report_build(st, metric, baseline, &r, &err);
    if (!rc) {
        FILE *out = outp ? fopen(outp, "w") : stdout;
        if (!out) rc = gms_err(&err, "%s: cannot create: %s", outp, strerror(errno));
        else {
            if (csv) gms_report_write_csv(r, absolute, out);
            else gms_report_write_md(r, absolute, out);
            if (outp && fclose(out)) rc = gms_err(&err, "%s: write error", outp);
        }
    }
    if (!rc && plot) {
        rc = gms_plot_bars(r, absolute, plot, &err);
        if (!rc) fprintf(stderr, "wrote %s\n", plot);
    }
    if (rc) fprintf(stderr, "gpumemsim report: %s\n", err.msg);
    gms_report_free(r);
    gms_store_close(st);
    free(db);
    return rc ? 1 : 0;
}
