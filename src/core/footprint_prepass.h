/* The managed footprint -uvm_oversub_ratio is applied to: the program's whole footprint, not
 * the part allocated by the first kernel launch (when the capacity is fixed). A program may
 * allocate after its first kernel (backprop allocates its delta and previous-weight arrays
 * after the forward kernel), and with the launch-time footprint it ran about twice as
 * oversubscribed as asked. For a built-in workload the program is run once functionally first
 * (every command, every block filled, so host decisions that depend on kernel results see
 * them, as in the timed run), summing its managed allocations; gms_uvm_plan_footprint hands the
 * sum over. Traces and embedders' programs keep the launch-time footprint. */
#ifndef GMS_CORE_FOOTPRINT_PREPASS_H
#define GMS_CORE_FOOTPRINT_PREPASS_H
#include "gpumemsim.h"
#include "uvm/uvm.h"

/* when u's capacity comes from -uvm_oversub_ratio and w is a built-in workload, plan the
 * footprint as above; else nothing. 0, or -1 with err */
int gms_footprint_prepass(gms_uvm *u, const gms_params *p, const gms_workload_spec *w, gms_error *err);

#endif
