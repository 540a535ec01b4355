#include "cli/cli.h"
#include <stdio.h>
/* placeholder until the plot subcommand lands */
int gms_cmd_plot(int argc, char **argv) { (void)argc; (void)argv; fprintf(stderr, "gpumemsim plot: not built yet\n"); return 2; }
