/* Shared option handling of run and config: config files, --set, -name value overrides. */
#ifndef GMS_CLI_CLI_CONFIG_H
#define GMS_CLI_CLI_CONFIG_H
#include "gpumemsim.h"
#include <stddef.h>

#define GMS_CLI_MAX 256

typedef struct gms_cli_opts {
    const char *configs[GMS_CLI_MAX];  size_t nconfigs;
    const char *sets[GMS_CLI_MAX];     size_t nsets;     /* "name=value" */
    const char *wl_params[GMS_CLI_MAX + 1]; size_t nwl;  /* resolved workload params */
    const char *workload, *trace;
    const char *stats_json, *stats_csv, *stats_text, *page_log;
    uint64_t seed;
    int have_seed, quiet, ignore_unknown, dump, check, help, no_timing;
    char setbuf[GMS_CLI_MAX][512];     /* storage for -name value given on the command line */
    unsigned char dash[GMS_CLI_MAX];   /* sets[i] was given as -name value (errors name it so) */
} gms_cli_opts;

/* parse argv (argv[0] = the command name); returns 0, or prints an error and returns 2 */
int gms_cli_parse(int argc, char **argv, gms_cli_opts *o, const char *cmd);
/* build the parameters: files in order, then config overrides; workload params are split
 * out into o->wl_params. Prints the error and returns NULL on failure. */
gms_params *gms_cli_params(gms_cli_opts *o);

#endif
