/* The timing-free Belady bound (-gms_uvm_opt_bound 1): the exact number of page faults the
 * offline optimum (Belady's MIN: on a fault with memory full, evict the resident page whose
 * next reference is farthest away) takes on the program's page-reference string at the run's
 * capacity, with demand paging (one page brought in per fault, no prefetch).
 *
 * The strings come from functional walks before the timed run (core/opt_prepass.h), in two
 * orders, each a schedule a GPU could run: serial (one block at a time, each warp up to its
 * next barrier) and resident (blocks resident per SM as the config allows, warps interleaved
 * one access at a time, a warp waiting on a far fault while others go on). MIN is counted on
 * both and the bound is the fewer: no one order is close to every timed run's (warp after warp
 * a loop over more pages than fit thrashes; all blocks at once the live data can exceed what a
 * block-at-a-time order needs). Neither depends on timing, so unlike the belady eviction
 * policy (which replays an order recorded from a timed LRU run and drifts when the runs
 * interleave differently) the bound cannot move with the configuration. It is a bound on
 * the strings, not on the timed runs: their interleavings are other strings
 * (docs/uvm-policies.md). */
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

/* the two orders (core/opt_prepass.h) */
enum { GMS_OPT_SERIAL, GMS_OPT_RESIDENT, GMS_OPT_ORDERS };

/* hand u the strings of both orders (u owns them from then on; freed with u); the counts are
 * taken at report time with the capacity the run had (gms_uvm_capacity_pages) and reported as
 * gms_uvm_opt_* (the order with fewer faults) and gms_uvm_opt_faults_serial / _resident */
void gms_uvm_set_opt_refs(gms_uvm *u, uint32_t *refs[GMS_OPT_ORDERS], const size_t n[GMS_OPT_ORDERS], uint32_t npages);

/* uvm_stats.c: the gms_uvm_opt_* statistics when a string was given; uvm.c frees it */
typedef struct gms_uvm_opt gms_uvm_opt;
void gms_uvm_opt_report(gms_uvm *u, gms_stats *out);
void gms_uvm_opt_free(gms_uvm_opt *o);

#endif
