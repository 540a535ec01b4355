/* The reference strings of the timing-free Belady bound (-gms_uvm_opt_bound 1, uvm/opt_bound.h):
 * the program (built-in workload or trace) is walked functionally before the timed run, twice,
 * every command in order: serially (one block at a time, each warp up to its next barrier) and
 * resident (core/resident_walk.h: each kernel's blocks resident up to its occupancy per SM, a
 * round giving every runnable warp one translated access; a warp touching a page not resident
 * waits for it, core/walk_faults.h). The accesses are the global, local or atomic ones (what
 * the timed run translates; not shared, constant or texture); each adds the managed pages its
 * active lanes touch (a lane's first and last byte), in the order they are first touched
 * within the instruction. Pages are numbered densely over the managed allocations; the page
 * size is -page_size. */
#ifndef GMS_CORE_OPT_PREPASS_H
#define GMS_CORE_OPT_PREPASS_H
#include "frontend/program.h"
#include "gpumemsim.h"
#include "uvm/uvm.h"

/* when -gms_uvm_opt_bound 1: build the strings as above and hand them to u
 * (gms_uvm_set_opt_refs); else nothing. A program source handed in by an embedder cannot be
 * walked twice: an error. 0, or -1 with err */
int gms_opt_prepass(gms_uvm *u, const gms_params *p, const gms_workload_spec *w, gms_error *err);

/* one walk alone (tests): the string of src's program (run to its end through prog) in `order`
 * (GMS_OPT_SERIAL or GMS_OPT_RESIDENT) with p's GPU and, for which warps wait on far faults,
 * the capacity u will fix, or without u `cap` frames (0 = unlimited); *refs is the caller's
 * to free, *npages the managed pages. 0, or -1 with err */
int gms_opt_walk(gms_program_src *src, gms_program *prog, const gms_params *p, int order, const gms_uvm *u,
                 uint64_t cap, uint32_t **refs, size_t *n, uint32_t *npages, gms_error *err);

#endif
