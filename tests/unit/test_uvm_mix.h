/* The oversubscription stress harness (test_uvm_mix.c). */
#ifndef GMS_TEST_UVM_MIX_H
#define GMS_TEST_UVM_MIX_H
#include "test_uvm_util.h"

/* One UVM instance built from opts (name, value, ..., NULL) over a managed allocation of
 * `footprint` bytes; `naccess` accesses from 64 warp slots, random (pattern 0) or streaming
 * (1). 0 when every request was delivered, nothing deadlocked and the frames balance when
 * idle; else -1 with the reason in why. */
int uvm_run_mix(const char *const *opts, uint64_t footprint, int naccess, int pattern, char *why, size_t nwhy);

#endif
