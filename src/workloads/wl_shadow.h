/* Shadow memory: the functional model's device memory, keyed by device address, so that a
 * workload's verification checks the ADDRESSES its instructions emit, not only the values it
 * computes on its host arrays.
 *
 * A built-in workload computes on host copies of its arrays and emits each lane's address
 * separately; an address bug in the emitted stream would leave the host result right. With
 * a shadow (functional verify runs only: gms_workload_run_functional; the timing simulator and
 * trace export run without one, so they pay one NULL test per memory instruction):
 *   - next() mirrors each array's initial host contents at its device address (wl_sh_init),
 *   - each emitted global store writes the lanes' values at the lane addresses of the emitted
 *     record (after its base+stride / list compression, so exactly what the timing model sees),
 *   - each emitted global load compares, lane by lane, the value the lane uses with the bytes
 *     at its emitted address (the first mismatch is kept and fails the run),
 *   - verify() reads the result arrays back from the shadow at their device addresses
 *     (wl_result), so a store to a wrong address leaves the right element unwritten.
 * Shared memory (a per-block space) and atomics are not tracked.
 *
 * Sparse and page-granular (4 KiB pages in an open-addressing hash), so a strided array with
 * one element in use per page costs one page per element, not the whole allocation. Bounded:
 * past `max_bytes` of pages the shadow gives up (frees its pages, stops checking, verify falls
 * back to the host arrays) and says so in wl_shadow_overflowed(). Bytes never written read 0. */
#ifndef GMS_WORKLOADS_WL_SHADOW_H
#define GMS_WORKLOADS_WL_SHADOW_H
#include <stddef.h>
#include <stdint.h>
#include "frontend/inst.h"
#include "util/err.h"

typedef struct wl_shadow wl_shadow;

#define WL_SHADOW_PAGE 4096u
#define WL_SHADOW_MAX_BYTES (4ULL << 30)   /* default bound of the functional runner */

wl_shadow *wl_shadow_new(uint64_t max_bytes);
void wl_shadow_free(wl_shadow *sh);
/* 1 while the shadow tracks memory (not NULL, not overflowed) */
int wl_shadow_active(const wl_shadow *sh);
int wl_shadow_overflowed(const wl_shadow *sh);

/* host-side access (initial contents, results): n bytes at device address addr */
void wl_shadow_write(wl_shadow *sh, uint64_t addr, const void *src, uint64_t n);
void wl_shadow_read(const wl_shadow *sh, uint64_t addr, void *dst, uint64_t n);

/* Host speed: wl_shadow_write of an input array the program only reads, remembering where its
 * host copy is. A load whose lanes are consecutive elements of that array and whose values are
 * read from the host copy at the same place (want == host + (address - dev)) then passes
 * without comparing bytes: the lane uses exactly the element at its emitted address. This
 * holds while the host copy keeps the contents it had here, which wl_shadow_status checks at
 * the end (a changed host copy is an error), and while nothing stores to the array (a store
 * to it is an error). host must stay valid until wl_shadow_status. At most 16 arrays; more
 * are written as plain wl_shadow_write. */
void wl_shadow_write_ro(wl_shadow *sh, uint64_t dev, const void *host, uint64_t n);
/* The same for an array the kernels have written and now only read (a result of one kernel,
 * input of the next): from here its contents are the shadow's as they are, host its host copy
 * (checked against them by wl_shadow_ro_end or at the end); wl_shadow_ro_end(dev), before
 * the array is written again, checks the host copy and ends the promise. */
void wl_shadow_ro_begin(wl_shadow *sh, uint64_t dev, const void *host, uint64_t n);
void wl_shadow_ro_end(wl_shadow *sh, uint64_t dev);

/* An emitted memory instruction `in` of warp buffer `w` (its last record): lane l's value is
 * vals + l*size (size = in->width; lanes outside in->mask are not read). */
void wl_shadow_store(wl_shadow *sh, gms_warp_trace *w, gms_inst *in, const void *vals, size_t size);
void wl_shadow_load(wl_shadow *sh, gms_warp_trace *w, gms_inst *in, const void *want, size_t size);

/* A digest of the device memory's contents (every page held with a non-zero byte: its address
 * and bytes; independent of the order pages were created): two runs whose stores left the
 * same values have the same digest (tests: a host-speed path must not change a value) */
uint64_t wl_shadow_digest(const wl_shadow *sh);

/* 0, or -1 with the first mismatch (or misuse) seen, naming workload `wl` */
int wl_shadow_status(const wl_shadow *sh, const char *wl, gms_error *err);
/* loads checked and stores applied so far, instructions with no active lane not counted
 * (tests: a converted workload uses the shadow) */
uint64_t wl_shadow_loads(const wl_shadow *sh);
uint64_t wl_shadow_stores(const wl_shadow *sh);

/* Test hook: add `delta` bytes to the first active lane's address of the nth store (1-based;
 * 0 = none) and of the nth load the shadow sees (counted as wl_shadow_loads/stores), IN THE EMITTED RECORD itself, as an address
 * bug in a workload would. Verification must then fail. */
void wl_shadow_perturb(wl_shadow *sh, uint64_t nth_store, uint64_t nth_load, int64_t delta);

#endif
