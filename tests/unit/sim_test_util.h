/* Shared by the tests that run a hand-written kernel on a small GPU (test_bypass*.c,
 * test_mdb_sim.c, test_mrpb_sm.c, test_racb_l1.c): one launch of one block on one SM, the
 * run's statistics read by name. */
#ifndef GMS_SIM_TEST_UTIL_H
#define GMS_SIM_TEST_UTIL_H
#include "core/gpu.h"
#include "frontend/program.h"

typedef int (*simt_fill_fn)(void *self, uint64_t b, gms_block_trace *out, gms_error *err);

typedef struct simt_run {
    gms_params *p;
    gms_sim *s;
    int launched;
    int launches;   /* kernels launched one after another (0 = 1); set it before the run */
    const char *name;
    uint32_t threads, blocks;
    simt_fill_fn fill;
} simt_run;

/* Runs kernel `name` (one block of `threads` threads, 16 registers/thread, its warps written
 * by fill) on one SM (gpgpu_n_clusters = gpgpu_n_cores_per_cluster = 1) with the options opts:
 * name, value, name, value, ..., NULL. Returns 0 when the run finished (read its statistics
 * with simt_stat), else -1 after printing the error. Either way simt_free(r) after. */
int simt_run1(simt_run *r, const char *name, uint32_t threads, simt_fill_fn fill, const char *const *opts);
/* the same with a grid of `blocks` blocks (opts may then give more SMs: gpgpu_n_clusters) */
int simt_run_grid(simt_run *r, const char *name, uint32_t blocks, uint32_t threads, simt_fill_fn fill,
                  const char *const *opts);
/* the same kernel launched `kernels` times in a row (one stream: each starts when the last ends) */
int simt_run_kernels(simt_run *r, const char *name, int kernels, uint32_t blocks, uint32_t threads,
                     simt_fill_fn fill, const char *const *opts);
/* statistic `name` of the run's totals, -1 when absent */
double simt_stat(const simt_run *r, const char *name);
void simt_free(simt_run *r);

/* a fill: warp 0 loads line 0x10000 and then line 0x20000 (32 lanes x 4 B each) without
   waiting for the first, then exits */
int simt_fill_two_loads(void *self, uint64_t b, gms_block_trace *out, gms_error *err);

#endif
