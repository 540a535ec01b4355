/* The reference string of the timing-free Belady bound (-gms_uvm_opt_bound 1, uvm/opt_bound.h):
 * the program (built-in workload or trace) is walked once functionally before the timed run,
 * every command and every block in order (kernels in launch order, blocks in linear order,
 * each block's warps in gms_block_drain's barrier-respecting order), and each global, local
 * or atomic access (what the timed run translates; not shared, constant or texture) adds the managed pages its active lanes touch (a lane's
 * first and last byte), in the order they are first touched within the instruction. Pages
 * are numbered densely over the managed allocations; the page size is -page_size. */
#ifndef GMS_CORE_OPT_PREPASS_H
#define GMS_CORE_OPT_PREPASS_H
#include "gpumemsim.h"
#include "uvm/uvm.h"

/* when -gms_uvm_opt_bound 1: build the string as above and hand it to u
 * (gms_uvm_set_opt_refs); else nothing. A program source handed in by an embedder cannot be
 * walked twice: an error. 0, or -1 with err */
int gms_opt_prepass(gms_uvm *u, const gms_params *p, const gms_workload_spec *w, gms_error *err);

#endif
