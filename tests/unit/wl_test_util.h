/* Shared by the workload tests: run a built-in workload functionally (its verify() compares
 * the result with the CPU reference) and fail the calling test with the workload's error. */
#ifndef GMS_WL_TEST_UTIL_H
#define GMS_WL_TEST_UTIL_H
#include <stdint.h>

void wl_test_run(const char *file, int line, const char *name, const char *const *kv, uint64_t seed);
/* the same, then again with uvm=1 prefetch=1 appended */
void wl_test_run_both(const char *file, int line, const char *name, const char *const *kv, uint64_t seed);

/* UVMBench's data-reuse extra: `name` with kv plus repeat=1 and with repeat=n, each with
 * uvm=0 and with uvm=1 prefetch=1. Both verify, and the repeat=n run launches exactly n times
 * the kernels, blocks and warp instructions of the repeat=1 run, on the same allocations (no
 * more ALLOC commands). kv holds at most 12 entries. */
void wl_test_repeat(const char *file, int line, const char *name, const char *const *kv, unsigned n, uint64_t seed);

#define WL_RUN(name, kv, seed) wl_test_run(__FILE__, __LINE__, name, kv, seed)
#define WL_RUN_BOTH(name, kv, seed) wl_test_run_both(__FILE__, __LINE__, name, kv, seed)
#define WL_REPEAT(name, kv, n, seed) wl_test_repeat(__FILE__, __LINE__, name, kv, n, seed)

#endif
