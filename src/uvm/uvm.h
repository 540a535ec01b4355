/* Unified virtual memory: managed allocations, per-SM TLBs, the GMMU page-table walker, far
 * faults (UVMSmart per-cycle runtime, or the driver's batches), PCIe transfers, prefetchers
 * and eviction policies under oversubscription.
 *
 * Contract with the SM side (src/core): every global-memory transaction of a kernel passes
 * gms_uvm_translate() before the L1D. Device (non-managed) memory is always resident; when
 * the program has no managed allocation the UVM is disabled and translate is never called.
 * translate returns 1 when the transaction may proceed at once (TLB hit with no extra
 * latency), or 0 when the UVM keeps it and will hand it back through deliver(ud, sm, req)
 * when its translation is complete (TLB latency, page walk, far fault + migration).
 * All UVM timing is in core cycles; the UVM is an engine component in the core domain, so a
 * warp waiting 45 us on a fault costs nothing while nothing else happens (idle skipping). */
#ifndef GMS_UVM_UVM_H
#define GMS_UVM_UVM_H
#include <stdint.h>
#include <stdio.h>
#include <stddef.h>
#include "mem/mreq.h"
#include "stats/stats.h"
#include "engine/engine.h"
#include "util/err.h"

struct gms_params;
typedef struct gms_uvm gms_uvm;
typedef void (*gms_uvm_deliver_fn)(void *ud, uint32_t sm, gms_mreq *req);
typedef void (*gms_uvm_done_fn)(void *ud);

int gms_uvm_create(gms_uvm **out, const struct gms_params *p, gms_engine *e, uint32_t n_sm,
                   gms_uvm_deliver_fn deliver, void *deliver_ud, gms_error *err);
void gms_uvm_free(gms_uvm *u);

/* program commands */
int gms_uvm_alloc(gms_uvm *u, uint64_t addr, uint64_t bytes, int managed, const char *name, gms_error *err);
/* asynchronous bulk operations over PCIe; done(ud) is called when complete */
void gms_uvm_prefetch(gms_uvm *u, uint64_t addr, uint64_t bytes, gms_uvm_done_fn done, void *ud);
void gms_uvm_memcpy(gms_uvm *u, uint64_t addr, uint64_t bytes, int host_to_device, gms_uvm_done_fn done, void *ud);
/* cudaDeviceSynchronize under -uvm_sync_writeback 1 (UVMSmart's libcuda): every resident dirty
 * managed page is copied back to the host and invalidated (it far-faults again on its next use);
 * the copy takes UVMSmart's device-sync transfer pieces one after another on the D2H lane.
 * done(ud) is called when the copy ends (at once, through an event, when nothing is dirty).
 * Returns 0 when the option is off: nothing is done and done is not called. */
int gms_uvm_device_sync(gms_uvm *u, gms_uvm_done_fn done, void *ud);
/* 1 when any managed allocation exists (translation needed) */
int gms_uvm_enabled(const gms_uvm *u);

int gms_uvm_translate(gms_uvm *u, uint32_t sm, gms_mreq *req, uint64_t now);

void gms_uvm_kernel_begin(gms_uvm *u, uint64_t now);
void gms_uvm_kernel_end(gms_uvm *u, uint64_t now);
/* uvm_options.c: after a run with no managed memory, one warning line naming the UVM policy
 * options it was given (they had nothing to act on) */
struct gms_params;
void gms_uvm_warn_unmanaged(const struct gms_params *p, FILE *out);
/* UVMSmart counter names (interop.md 3.4) plus ours */
void gms_uvm_report(gms_uvm *u, gms_stats *out);

/* ---- additions (UVM module) ---- */
/* 1 while anything is pending: walks, far faults, transfers, batches, timed events */
int gms_uvm_busy(const gms_uvm *u);
/* Belady (offline optimum): the future sequence of managed byte addresses referenced, in program
 * order (page granularity is derived; consecutive repeats are folded), with GMS_UVM_KERNEL_MARK
 * where each kernel begins (optional: the replay re-anchors there, docs/uvm.md "Belady").
 * Ignored by other policies. The two-pass alternative is -uvm_page_trace_out then
 * -uvm_belady_trace. */
#define GMS_UVM_KERNEL_MARK UINT64_MAX
void gms_uvm_set_future(gms_uvm *u, const uint64_t *addrs, size_t n);
/* 1 when the eviction policy needs a future and no file gives it: the caller records the
 * program's sequence and hands it to gms_uvm_set_future (gms_sim_new does) */
int gms_uvm_wants_future(const gms_uvm *u);
/* the managed bytes the program allocates over its whole run, known before it runs
 * (core/footprint_prepass.h): -uvm_oversub_ratio divides this, not the launch-time sum */
void gms_uvm_plan_footprint(gms_uvm *u, uint64_t bytes);
/* -uvm_oversub_basis working-set: the ratio divides `bytes` (the managed pages the program's
 * kernels touch, in bytes), even when less than what is allocated */
void gms_uvm_plan_working_set(gms_uvm *u, uint64_t bytes);
/* device frames usable by managed pages (0 = unlimited); fixed at the first kernel launch or
 * bulk prefetch */
uint64_t gms_uvm_capacity_pages(const gms_uvm *u);
/* the capacity gms_uvm_capacity_pages will have if fixed with this managed footprint and these
 * device allocations (bytes; device ones in whole pages): for the opt walk, before the run */
uint64_t gms_uvm_capacity_preview(const gms_uvm *u, uint64_t footprint, uint64_t device_bytes);

/* batch-aware (thread oversubscription, src/core/thread_oversub.c): far-faulted requests a warp
 * (slot index in its SM) waits on now; and the page lifetime so far (sum of t_evict - t_arrival
 * over evicted pages, and their count) */
uint32_t gms_uvm_warp_far_waits(const gms_uvm *u, uint32_t sm, uint32_t warp);
/* requests of (sm, warp) taken by the translation path and not yet delivered: a TLB hit's latency, a
 * TLB miss, its walk and any far fault (a far-faulted request counts in both) */
uint32_t gms_uvm_warp_trans_waits(const gms_uvm *u, uint32_t sm, uint32_t warp);
/* called when a warp starts waiting on a far fault (its first faulted request) */
typedef void (*gms_uvm_fault_hook_fn)(void *ud, uint32_t sm, uint32_t warp);
void gms_uvm_set_fault_hook(gms_uvm *u, gms_uvm_fault_hook_fn fn, void *ud);
/* TO's degree control (spec 004 2.4): extra runnable blocks per SM now, at most cap (an SM's
 * (F - 1) x hardware blocks); with -gms_uvm_to_dynamic 0 always cap */
uint32_t gms_uvm_to_extra(gms_uvm *u, uint64_t now, uint32_t cap);
void gms_uvm_page_lifetime(const gms_uvm *u, uint64_t *sum, uint64_t *n);

#endif
