#include "cli/cli.h"
#include <stdio.h>
/* placeholder until the report subcommand lands */
int gms_cmd_report(int argc, char **argv) { (void)argc; (void)argv; fprintf(stderr, "gpumemsim report: not built yet\n"); return 2; }
