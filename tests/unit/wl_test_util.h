/* Shared by the workload tests: run a built-in workload functionally (its verify() compares
 * the result with the CPU reference) and fail the calling test with the workload's error. */
#ifndef GMS_WL_TEST_UTIL_H
#define GMS_WL_TEST_UTIL_H
#include <stdint.h>

void wl_test_run(const char *file, int line, const char *name, const char *const *kv, uint64_t seed);
/* the same, then again with uvm=1 prefetch=1 appended */
void wl_test_run_both(const char *file, int line, const char *name, const char *const *kv, uint64_t seed);

#define WL_RUN(name, kv, seed) wl_test_run(__FILE__, __LINE__, name, kv, seed)
#define WL_RUN_BOTH(name, kv, seed) wl_test_run_both(__FILE__, __LINE__, name, kv, seed)

#endif
