/* gpumemsim: the command line. */
#include "cli/cli.h"
#include "gpumemsim.h"
#include "util/hugepage.h"
#include "workloads/wl_simd.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out,
        "gpumemsim %s: a fast cycle-level simulator of the GPU memory system and unified memory\n\n"
        "usage: gpumemsim <command> [options]\n\n"
        "commands:\n"
        "  run       simulate a built-in workload or an Accel-Sim trace and print statistics\n"
        "  config    load a configuration and print every option decoded (--dump) or check it (--check)\n"
        "  list      list workloads | presets | options\n"
        "  trace     export a built-in workload as an Accel-Sim trace (trace export ...)\n"
        "  sweep     plan, run (locally or on Slurm), collect and show a design sweep\n"
        "  report    tabulate a sweep's result store, normalised to a baseline, with geometric means\n"
        "  plot      draw a metric against a swept parameter, or pages against time (plot pages)\n"
        "  repro     run a seed study and check its claims one by one (repro list | run | report)\n\n"
        "Run 'gpumemsim <command> --help' for a command's options. Documentation: docs/guide.md\n",
        GPUMEMSIM_VERSION);
}

/* the environment variables that change what the workloads compute with or what a run prints:
 * a value they do not take is an error, not ignored (empty = unset) */
static int env_ok(void)
{
    const char *v = getenv("GMS_WL_VEC_FLOATS");
    if (v && *v) {
        if (strcmp(v, "4") && strcmp(v, "8") && strcmp(v, "16")) {
            fprintf(stderr, "gpumemsim: GMS_WL_VEC_FLOATS=%s: expected 4, 8 or 16 (floats per host vector)\n", v);
            return 0;
        }
        if (atoi(v) > wl_host_vec_floats_max())
            fprintf(stderr, "gpumemsim: GMS_WL_VEC_FLOATS=%s: this host runs at most %d floats per vector; using %d\n", v,
                    wl_host_vec_floats_max(), wl_host_vec_floats_max());
    }
    v = getenv("GMS_SHADOW_DIGEST");
    if (v && *v && strcmp(v, "0") && strcmp(v, "1")) {
        fprintf(stderr, "gpumemsim: GMS_SHADOW_DIGEST=%s: expected 0 or 1\n", v);
        return 0;
    }
    return 1;
}

/* GNU style "--name=value" as "--name value" for every command: the argument is split at its
 * first '=' (a flag given a value then meets its value as an unknown argument) */
static char *long_option_eq(const char *a)
{
    return a[0] == '-' && a[1] == '-' && a[2] ? strchr(a, '=') : NULL;
}

static char **split_long_options(int *argc, char **argv)
{
    int n = *argc;
    for (int i = 1; i < *argc; i++) n += long_option_eq(argv[i]) != NULL;
    if (n == *argc) return argv;
    static char **out;   /* lives to the end of the run (a root for the leak checker) */
    out = malloc(((size_t)n + 1) * sizeof *out);
    if (!out) return argv;
    int k = 0;
    for (int i = 0; i < *argc; i++) {
        char *eq = i ? long_option_eq(argv[i]) : NULL;
        if (eq) {
            *eq = 0;   /* argv's strings are ours to change */
            out[k++] = argv[i];
            out[k++] = eq + 1;
        } else {
            out[k++] = argv[i];
        }
    }
    out[k] = NULL;
    *argc = k;
    return out;
}

int main(int argc, char **argv)
{
    argv = split_long_options(&argc, argv);
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (!strcmp(argv[1], "--version")) { printf("gpumemsim %s\n", GPUMEMSIM_VERSION); return 0; }
    const char *cmd = argv[1];
    if (!env_ok()) return 2;
    gms_host_hugepages_begin();
    if (!strcmp(cmd, "run")) return gms_cmd_run(argc - 1, argv + 1);
    if (!strcmp(cmd, "config")) return gms_cmd_config(argc - 1, argv + 1);
    if (!strcmp(cmd, "list")) return gms_cmd_list(argc - 1, argv + 1);
    if (!strcmp(cmd, "trace")) return gms_cmd_trace(argc - 1, argv + 1);
    if (!strcmp(cmd, "sweep")) return gms_cmd_sweep(argc - 1, argv + 1);
    if (!strcmp(cmd, "report")) return gms_cmd_report(argc - 1, argv + 1);
    if (!strcmp(cmd, "plot")) return gms_cmd_plot(argc - 1, argv + 1);
    if (!strcmp(cmd, "repro")) return gms_cmd_repro(argc - 1, argv + 1);
    /* Accel-Sim style: gpumemsim -trace kernelslist.g -config a -config b */
    if (cmd[0] == '-') return gms_cmd_run(argc, argv);
    fprintf(stderr, "gpumemsim: unknown command '%s'\n\n", cmd);
    usage(stderr);
    return 2;
}
