/* The timing-free Belady bound (-gms_uvm_opt_bound 1): the exact number of page faults the
 * offline optimum (Belady's MIN: on a fault with memory full, evict the resident page whose
 * next reference is farthest away) takes on the program's page-reference string at the run's
 * capacity, with demand paging (one page brought in per fault, no prefetch).
 *
 * The string comes from a functional walk before the timed run (core/opt_prepass.h): kernels,
 * blocks and warps in program order, and within each memory instruction the pages its active
 * lanes touch in the order they are first touched. It does not depend on timing, so unlike the
 * belady eviction policy (which replays an order recorded from a timed LRU run and drifts when
 * the runs interleave differently) it cannot move with the configuration. It is a bound on the
 * string, not on the timed runs: their interleavings are other strings (docs/uvm-policies.md). */
#ifndef GMS_UVM_OPT_BOUND_H
#define GMS_UVM_OPT_BOUND_H
#include <stddef.h>
#include <stdint.h>
#include "uvm/uvm.h"

typedef struct gms_opt_result {
    uint64_t refs;        /* references after folding consecutive repeats */
    uint64_t distinct;    /* distinct pages referenced (the cold faults) */
    uint64_t faults;      /* MIN's faults (cold ones included) */
    uint64_t evictions;   /* MIN's evictions: faults with memory full */
} gms_opt_result;

/* MIN on refs[0..n) (page ids below npages; consecutive repeats allowed) with `capacity`
 * frames (0 = unlimited: only cold faults). O(n log capacity) time, O(n + npages) memory. */
void gms_opt_count(const uint32_t *refs, size_t n, uint32_t npages, uint64_t capacity, gms_opt_result *out);

/* hand u the string (u owns refs from then on; freed with u); the count is taken at report
 * time with the capacity the run had (gms_uvm_capacity_pages) and reported as gms_uvm_opt_* */
void gms_uvm_set_opt_refs(gms_uvm *u, uint32_t *refs, size_t n, uint32_t npages);

/* uvm_stats.c: the gms_uvm_opt_* statistics when a string was given; uvm.c frees it */
typedef struct gms_uvm_opt gms_uvm_opt;
void gms_uvm_opt_report(gms_uvm *u, gms_stats *out);
void gms_uvm_opt_free(gms_uvm_opt *o);

#endif
