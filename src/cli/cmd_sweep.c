#include "cli/cli.h"
#include <stdio.h>
/* placeholder until the sweep subcommand lands */
int gms_cmd_sweep(int argc, char **argv) { (void)argc; (void)argv; fprintf(stderr, "gpumemsim sweep: not built yet\n"); return 2; }
