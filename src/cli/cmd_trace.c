/* gpumemsim trace: Accel-Sim trace tools.
 *   trace export --workload NAME [--set k=v ...] [--seed N] --out DIR [--version 4|5]
 *   trace stat KERNELSLIST          read a whole trace, print counts and read speed
 *   trace convert KERNELSLIST --out DIR [--version 4|5]   re-write (decompress, re-version) */
#include "cli/cli.h"
#include "frontend/trace.h"
#include "frontend/trace_stat.h"
#include "frontend/trace_write.h"
#include "util/err.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libgen.h>
#include <limits.h>
#include <time.h>

#define MAX_SETS 64

static void usage(FILE *f)
{
    fprintf(f,
            "usage: gpumemsim trace export --workload NAME [--set k=v ...] [--seed N] --out DIR [--version 4|5]\n"
            "       gpumemsim trace stat KERNELSLIST\n"
            "       gpumemsim trace convert KERNELSLIST --out DIR [--version 4|5]\n"
            "export writes a built-in workload as an Accel-Sim trace directory (kernelslist.g +\n"
            "kernel-N.traceg, Volta opcodes, -binary version = 70); stat reads a trace and prints\n"
            "its counts; convert re-writes a trace (e.g. .xz -> plain, tracer version 3 -> 5).\n");
}

static int parse_num(const char *s, uint64_t *v)
{
    char *end;
    if (!s || !*s || *s == '-') return -1;
    *v = strtoull(s, &end, 0);
    return *end ? -1 : 0;
}

static int fail(const gms_error *e)
{
    fprintf(stderr, "gpumemsim: %s\n", e->msg);
    return 1;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmd_export(int argc, char **argv)
{
    const char *wl = NULL, *out = NULL, *sets[MAX_SETS + 1];
    int nsets = 0, version = 5;
    uint64_t seed = 1, v;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) { usage(stdout); return 0; }
        if (!val) { fprintf(stderr, "gpumemsim trace export: %s needs a value\n", a); return 2; }
        if (!strcmp(a, "--workload")) wl = val;
        else if (!strcmp(a, "--out")) out = val;
        else if (!strcmp(a, "--set")) {
            if (nsets == MAX_SETS) { fprintf(stderr, "gpumemsim trace export: too many --set\n"); return 2; }
            sets[nsets++] = val;
        } else if (!strcmp(a, "--seed")) {
            if (parse_num(val, &seed)) { fprintf(stderr, "gpumemsim trace export: --seed '%s' is not a number\n", val); return 2; }
        } else if (!strcmp(a, "--version")) {
            if (parse_num(val, &v) || (v != 4 && v != 5)) {
                fprintf(stderr, "gpumemsim trace export: --version must be 4 or 5, got '%s'\n", val);
                return 2;
            }
            version = (int)v;
        } else {
            fprintf(stderr, "gpumemsim trace export: unknown option '%s'\n", a);
            usage(stderr);
            return 2;
        }
        i++;
    }
    sets[nsets] = NULL;
    if (!wl || !out) { fprintf(stderr, "gpumemsim trace export: --workload and --out are required\n"); usage(stderr); return 2; }
    gms_error err = {0};
    if (gms_trace_export(wl, sets, seed, out, version, &err)) return fail(&err);
    printf("wrote %s/kernelslist.g (tracer version %d)\n", out, version);
    return 0;
}

static int cmd_stat(int argc, char **argv)
{
    if (argc != 1) { usage(stderr); return 2; }
    gms_trace_stats s;
    gms_error err = {0};
    double t0 = now();
    if (gms_trace_stat(argv[0], &s, &err)) return fail(&err);
    double dt = now() - t0;
    printf("kernels       %llu\nstreams       %llu\ncopies        %llu (%llu bytes)\nblocks        %llu\n"
           "warp_insts    %llu\nthread_insts  %llu\nmem_insts     %llu\nseconds       %.3f\n"
           "warp_insts/s  %.0f\n",
           (unsigned long long)s.kernels, (unsigned long long)s.streams_max, (unsigned long long)s.copies,
           (unsigned long long)s.copy_bytes, (unsigned long long)s.blocks, (unsigned long long)s.warp_insts,
           (unsigned long long)s.thread_insts, (unsigned long long)s.mem_insts, dt,
           dt > 0 ? (double)s.warp_insts / dt : 0.0);
    return 0;
}

static int cmd_convert(int argc, char **argv)
{
    const char *in = NULL, *out = NULL;
    int version = 5;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--out") && i + 1 < argc) out = argv[++i];
        else if (!strcmp(argv[i], "--version") && i + 1 < argc) {
            uint64_t v;
            if (parse_num(argv[++i], &v) || (v != 4 && v != 5)) {
                fprintf(stderr, "gpumemsim trace convert: --version must be 4 or 5\n");
                return 2;
            }
            version = (int)v;
        } else if (argv[i][0] != '-' && !in) in = argv[i];
        else { fprintf(stderr, "gpumemsim trace convert: unexpected argument '%s'\n", argv[i]); return 2; }
    }
    if (!in || !out) { usage(stderr); return 2; }
    /* the kernel files are read while the output is written: into the input's own directory
     * that would truncate them first (and lose the trace) */
    char *in_copy = gms_xstrdup(in), *in_dir = realpath(dirname(in_copy), NULL), *out_dir = realpath(out, NULL);
    int same = in_dir && out_dir && !strcmp(in_dir, out_dir);
    free(in_copy); free(in_dir); free(out_dir);
    if (same) {
        fprintf(stderr, "gpumemsim trace convert: --out %s is the input trace's own directory: its files would be "
                "overwritten while they are read (give another directory)\n", out);
        return 1;
    }
    gms_error err = {0};
    gms_program_src src;
    if (gms_trace_program(in, &src, &err)) return fail(&err);
    int rc = gms_trace_write_program(&src, out, version, 0, 0, 1, &err);   /* the input's copies, both ways */
    src.destroy(src.self);
    if (rc) return fail(&err);
    printf("wrote %s/kernelslist.g (tracer version %d)\n", out, version);
    return 0;
}

int gms_cmd_trace(int argc, char **argv)
{
    /* argv[0] is "trace" or the first argument after it: accept both */
    if (argc > 0 && !strcmp(argv[0], "trace")) { argc--; argv++; }
    if (argc < 1 || !strcmp(argv[0], "-h") || !strcmp(argv[0], "--help")) {
        usage(argc < 1 ? stderr : stdout);
        return argc < 1 ? 2 : 0;
    }
    if (!strcmp(argv[0], "export")) return cmd_export(argc - 1, argv + 1);
    if (!strcmp(argv[0], "stat")) return cmd_stat(argc - 1, argv + 1);
    if (!strcmp(argv[0], "convert")) return cmd_convert(argc - 1, argv + 1);
    fprintf(stderr, "gpumemsim trace: unknown subcommand '%s'\n", argv[0]);
    usage(stderr);
    return 2;
}
