/* Shared by the workload tests: run a built-in workload functionally (its verify() compares
 * the result with the CPU reference) and fail the calling test with the workload's error. */
#ifndef GMS_WL_TEST_UTIL_H
#define GMS_WL_TEST_UTIL_H
#include "workloads/workload.h"
#include <stdint.h>

void wl_test_run(const char *file, int line, const char *name, const char *const *kv, uint64_t seed);
/* the same, then again with uvm=1 prefetch=1 appended */
void wl_test_run_both(const char *file, int line, const char *name, const char *const *kv, uint64_t seed);

/* UVMBench's data-reuse extra: `name` with kv plus repeat=1 and with repeat=n, each with
 * uvm=0 and with uvm=1 prefetch=1. Both verify, and the repeat=n run launches exactly n times
 * the kernels, blocks and warp instructions of the repeat=1 run, on the same allocations (no
 * more ALLOC commands). kv holds at most 12 entries. */
void wl_test_repeat(const char *file, int line, const char *name, const char *const *kv, unsigned n, uint64_t seed);

/* a functional run with the shadow memory; store nst / load nld (counted from 1, 0: none)
   moved by 4 bytes. Returns the run's status; e holds its error */
int wl_test_prun(const char *name, const char *const *kv, uint64_t nst, uint64_t nld, gms_functional_result *r,
                 gms_error *e);
/* the shadow run verifies with loads and stores checked; moving the store sback before the
   last or the load lback before the last makes it fail verification */
void wl_test_shadow(const char *file, int line, const char *name, const char *const *kv, uint64_t sback,
                    uint64_t lback);
/* through the timing model (configs/gtx1080ti.config): the run finishes, executes instructions
   and verifies; returns the managed bytes allocated (Uvm_footprint_bytes), -1 if none */
double wl_test_timing(const char *file, int line, const char *name, const char *const *kv);

#define WL_RUN(name, kv, seed) wl_test_run(__FILE__, __LINE__, name, kv, seed)
#define WL_RUN_BOTH(name, kv, seed) wl_test_run_both(__FILE__, __LINE__, name, kv, seed)
#define WL_REPEAT(name, kv, n, seed) wl_test_repeat(__FILE__, __LINE__, name, kv, n, seed)

#define WL_SHADOW(name, kv, sback, lback) wl_test_shadow(__FILE__, __LINE__, name, kv, sback, lback)
/* kv may be a compound literal (its commas pass through __VA_ARGS__) */
#define WL_TIMING(name, ...) wl_test_timing(__FILE__, __LINE__, name, __VA_ARGS__)

#endif
