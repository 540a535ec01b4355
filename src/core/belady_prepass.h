/* Belady's future for a run that names no -uvm_belady_trace: the same program (built-in
 * workload or trace) is run once first, under LRU over 4 KiB units, recording its managed-page
 * reference sequence (-uvm_page_trace_out into a temporary file); the Belady run then follows
 * that recording (evict_belady.c matches each reference with the recording's next occurrence
 * of the page). A functional walk (no timing) was tried first and is not enough: the order in
 * which pages are referenced depends on timing (which SM reaches a page first, which warps wait
 * on migrations); following the walk's order Belady faulted 3.4x as often as LRU (2mm
 * scale=0.0625, uvm_oversub_ratio=2, no prefetch: 271 vs 80 faults; the recorded timing run's
 * order gives 80). The price is a second timing run. */
#ifndef GMS_CORE_BELADY_PREPASS_H
#define GMS_CORE_BELADY_PREPASS_H
#include "gpumemsim.h"
#include "uvm/uvm.h"

/* when u's policy wants a future and none is given (gms_uvm_wants_future), record it as
 * above and hand it over (gms_uvm_set_future); else nothing. 0, or -1 with err */
int gms_belady_prepass(gms_uvm *u, const gms_params *p, const gms_workload_spec *w, gms_error *err);

#endif
