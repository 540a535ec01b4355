/* Optional observers of a run: the page-access log (--page-log) and the access-pattern
 * classifier (--classify), both fed by the simulator's global-access observer. */
#ifndef GMS_CLI_RUN_EXTRAS_H
#define GMS_CLI_RUN_EXTRAS_H
#include "gpumemsim.h"
#include <stdio.h>

typedef struct gms_run_extras {
    FILE *log;
    uint64_t n;
    void *classifier;
} gms_run_extras;

void gms_run_extras_attach(gms_run_extras *x, gms_sim *s, FILE *log, int classify);
void gms_run_extras_finish(gms_run_extras *x, gms_sim *s);

#endif
