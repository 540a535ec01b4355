/* gpumemsim config: load, check and dump a configuration. */
#include "cli/cli.h"
#include "cli/cli_config.h"
#include "util/registry.h"
#include <stdio.h>

int gms_cmd_config(int argc, char **argv)
{
    gms_cli_opts o;
    if (gms_cli_parse(argc, argv, &o, "config")) return 2;
    if (!o.help && o.dump && o.check) {
        fprintf(stderr, "gpumemsim config: --dump and --check together: give one (--dump checks the configuration too)\n");
        return 2;
    }
    if (!o.help && !o.dump && !o.check) {
        fprintf(stderr, "gpumemsim config: nothing to do: give --dump or --check (gpumemsim config --help for usage)\n");
        return 2;
    }
    if (o.help) {
        printf("usage: gpumemsim config [--config FILE]... [--set NAME=VALUE]... [--ignore-unknown] (--dump | --check)\n"
               "  --dump   print every option decoded in plain words, then every raw value\n"
               "  --check  only validate (exit 0 if the configuration loads)\n");
        return 0;
    }
    o.trace = "-";   /* every --set is a config option here */
    gms_params *p = gms_cli_params(&o);
    if (!p) return 1;
    if (o.dump) {
        gms_params_dump(p, stdout);
        /* the member each policy family runs, in its registry's words */
        printf("\nPolicies (gpumemsim list policies):\n");
        for (size_t i = 0; i < gms_nregistries; i++) gms_reg_print_chosen(gms_registries[i], p, stdout);
    }
    else if (gms_params_n_ignored(p)) {
        printf("ignored %zu option(s):\n", gms_params_n_ignored(p));
        for (size_t i = 0; i < gms_params_n_ignored(p); i++) printf("  %s\n", gms_params_ignored(p, i));
    }
    gms_params_free(p);
    return 0;
}
