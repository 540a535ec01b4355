/* gpumemsim trace: Accel-Sim trace tools.
 *   trace export --workload NAME [--set k=v ...] [--seed N] --out DIR [--version 4|5]
 *   trace stat KERNELSLIST          read a whole trace, print counts and read speed
 *   trace convert KERNELSLIST --out DIR [--version 4|5]   re-write (decompress, re-version) */
#include "cli/cli.h"
#include "frontend/trace.h"
#include "frontend/trace_stat.h"
#include "frontend/trace_write.h"
#include "util/err.h"
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libgen.h>
#include <limits.h>
#include <time.h>

#define MAX_SETS 64

static const char U_EXPORT[] =
    "usage: gpumemsim trace export --workload NAME [--set k=v ...] [--seed N] --out DIR [--version 4|5]\n";
static const char U_STAT[] = "usage: gpumemsim trace stat KERNELSLIST\n";
static const char U_CONVERT[] = "usage: gpumemsim trace convert KERNELSLIST --out DIR [--version 4|5]\n";

static void usage(FILE *f)
{
    fprintf(f, "%s%s%s", U_EXPORT, U_STAT, U_CONVERT);
    fprintf(f,
            "export writes a built-in workload as an Accel-Sim trace directory (kernelslist.g +\n"
            "kernel-N.traceg, Volta opcodes, -binary version = 70); stat reads a trace and prints\n"
            "its counts; convert re-writes a trace (e.g. .xz -> plain, tracer version 3 -> 5).\n"
            "export and convert write DIR only when the whole trace was written: a failure leaves it as it was.\n");
}

/* one line naming the problem, then the subcommand's usage; exit status 2 */
static int arg_error(const char *sub, const char *usage_text, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int arg_error(const char *sub, const char *usage_text, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "gpumemsim trace %s: ", sub);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fputs(usage_text, stderr);
    return 2;
}

static int is_help(const char *a) { return !strcmp(a, "-h") || !strcmp(a, "--help"); }

/* any -h/--help among the arguments (values of options excepted): print the usage */
static int wants_help(int argc, char **argv, const char *const *valued)
{
    for (int i = 0; i < argc; i++) {
        if (is_help(argv[i])) return 1;
        for (const char *const *v = valued; v && *v; v++)
            if (!strcmp(argv[i], *v)) { i++; break; }
    }
    return 0;
}

/* decimal or 0x hex, no sign, no wrap past 2^64 - 1 (as run --seed reads it) */
static int parse_u64(const char *s, uint64_t *v)
{
    char *end;
    if (!s || !isxdigit((unsigned char)s[0])) return -1;
    errno = 0;
    *v = strtoull(s, &end, s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? 16 : 10);
    return *end || end == s || errno ? -1 : 0;
}

static int parse_version(const char *sub, const char *val, int *version)
{
    uint64_t v;
    if (parse_u64(val, &v) || (v != 4 && v != 5)) {
        fprintf(stderr, "gpumemsim trace %s: --version must be 4 or 5, got '%s'\n", sub, val);
        return 2;
    }
    *version = (int)v;
    return 0;
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
    static const char *const valued[] = { "--workload", "--out", "--set", "--seed", "--version", NULL };
    const char *wl = NULL, *out = NULL, *sets[MAX_SETS + 1];
    int nsets = 0, version = 5;
    uint64_t seed = 1;
    if (wants_help(argc, argv, valued)) { fputs(U_EXPORT, stdout); return 0; }
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        int known = 0;
        for (const char *const *v = valued; *v; v++) known |= !strcmp(a, *v);
        if (!known)
            return arg_error("export", U_EXPORT, "%s '%s'", a[0] == '-' ? "unknown option" : "unexpected argument", a);
        if (!val) return arg_error("export", U_EXPORT, "%s needs a value", a);
        if (!strcmp(a, "--workload")) wl = val;
        else if (!strcmp(a, "--out")) out = val;
        else if (!strcmp(a, "--set")) {
            if (nsets == MAX_SETS) { fprintf(stderr, "gpumemsim trace export: too many --set (at most %d)\n", MAX_SETS); return 2; }
            sets[nsets++] = val;
        } else if (!strcmp(a, "--seed")) {
            if (parse_u64(val, &seed)) {
                fprintf(stderr, "gpumemsim trace export: --seed '%s' is not an unsigned 64-bit integer\n", val);
                return 2;
            }
        } else if (parse_version("export", val, &version)) return 2;
        i++;
    }
    sets[nsets] = NULL;
    if (!wl) return arg_error("export", U_EXPORT, "%s is required", "--workload");
    if (!out) return arg_error("export", U_EXPORT, "%s is required", "--out");
    gms_error err = {0};
    if (gms_trace_export(wl, sets, seed, out, version, &err)) return fail(&err);
    printf("wrote %s/kernelslist.g (tracer version %d)\n", out, version);
    return 0;
}

static int cmd_stat(int argc, char **argv)
{
    if (wants_help(argc, argv, NULL)) { fputs(U_STAT, stdout); return 0; }
    for (int i = 0; i < argc; i++)
        if (argv[i][0] == '-' && argv[i][1]) return arg_error("stat", U_STAT, "unknown option '%s'", argv[i]);
    if (argc == 0) return arg_error("stat", U_STAT, "%s", "no KERNELSLIST given");
    if (argc > 1) return arg_error("stat", U_STAT, "unexpected argument '%s' (one KERNELSLIST)", argv[1]);
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
    static const char *const valued[] = { "--out", "--version", NULL };
    const char *in = NULL, *out = NULL;
    int version = 5;
    if (wants_help(argc, argv, valued)) { fputs(U_CONVERT, stdout); return 0; }
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--out") || !strcmp(a, "--version")) {
            if (i + 1 >= argc) return arg_error("convert", U_CONVERT, "%s needs a value", a);
            if (a[2] == 'o') out = argv[++i];
            else if (parse_version("convert", argv[++i], &version)) return 2;
        } else if (a[0] == '-' && a[1]) return arg_error("convert", U_CONVERT, "unknown option '%s'", a);
        else if (in) return arg_error("convert", U_CONVERT, "unexpected argument '%s' (one KERNELSLIST)", a);
        else in = a;
    }
    if (!in) return arg_error("convert", U_CONVERT, "%s", "no KERNELSLIST given");
    if (!out) return arg_error("convert", U_CONVERT, "%s is required", "--out");
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
    if (argc < 1) {
        fprintf(stderr, "gpumemsim trace: no subcommand given (export, stat or convert)\n");
        usage(stderr);
        return 2;
    }
    if (is_help(argv[0])) { usage(stdout); return 0; }
    if (!strcmp(argv[0], "export")) return cmd_export(argc - 1, argv + 1);
    if (!strcmp(argv[0], "stat")) return cmd_stat(argc - 1, argv + 1);
    if (!strcmp(argv[0], "convert")) return cmd_convert(argc - 1, argv + 1);
    fprintf(stderr, "gpumemsim trace: unknown subcommand '%s'\n", argv[0]);
    usage(stderr);
    return 2;
}
