#include "cli/cli.h"
#include <stdio.h>
/* placeholder until the trace subcommand lands */
int gms_cmd_trace(int argc, char **argv) { (void)argc; (void)argv; fprintf(stderr, "gpumemsim trace: not built yet\n"); return 2; }
