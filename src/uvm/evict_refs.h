/* Which references the page-level baselines of spec 003 (RRIP, CLOCK-Pro) see:
 * -uvm_policy_refs 0 (default): walk-level references, i.e. page-walk hits and far faults, the
 * "ideal model" of spec 003 2.2 (every walk-level reference in exact order, no transfer cost);
 * 1: every reference (TLB hits too). A policy declares its reference function with
 * GMS_EVICT_REFS_HOOKS(name, fn) and sets .access = name_access, .walk_hit = name_walk_hit. */
#ifndef GMS_UVM_EVICT_REFS_H
#define GMS_UVM_EVICT_REFS_H
#include "uvm/uvm_internal.h"

#define GMS_EVICT_REFS_HOOKS(prefix, fn, uptr)                                                       \
    static void prefix##_access(void *st, uint32_t page, uint64_t now)                              \
    {                                                                                                \
        if ((uptr)->prm->pol.refs_all) fn(st, page, now);                                            \
    }                                                                                                \
    static void prefix##_walk_hit(void *st, uint32_t page, uint64_t now)                            \
    {                                                                                                \
        if (!(uptr)->prm->pol.refs_all) fn(st, page, now);                                           \
    }

#endif
