/* The multiprogram driver (spec 001 section 4.1): the simulator's side of the workload `cke`.
 * Hooks called by core/gpu.c when g->cke is set. */
#ifndef GMS_CKE_DRIVER_H
#define GMS_CKE_DRIVER_H
#include "core/gpu.h"
#include "workloads/workload.h"

typedef struct gms_cke gms_cke;

/* set up the applications, run the isolated and profile runs the schemes need, plan the block
 * partition and give every SM its CKE state (g->cke). 0, or -1 with err. */
int gms_cke_attach(gms_gpu *g, const gms_wl_args *args, gms_error *err);
void gms_cke_free(gms_cke *c);
/* the applications' host commands (gpu_tick); the number taken, or -1 with g->err set */
int gms_cke_commands(gms_cke *c);
/* a kernel of the run finished (before it is released) */
void gms_cke_kernel_done(gms_cke *c, const gms_kernel *k);
/* has the window ended at core cycle now? */
int gms_cke_window_over(const gms_cke *c, uint64_t now);
/* per application and combined metrics (STP, ANTT, fairness) into st */
void gms_cke_report(const gms_cke *c, gms_stats *st);

#endif
