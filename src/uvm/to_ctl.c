/* Thread oversubscription's degree control (spec 004 2.4), kept in the runtime as the paper
 * does: the runtime tracks when pages arrive and leave and sets the runnable-block limit.
 * Every -gms_uvm_to_epoch cycles (100k) it compares the mean lifetime (t_evict - t_arrival) of
 * the pages evicted in that epoch with the previous epoch's; a drop by -gms_uvm_to_drop (20%)
 * takes one extra block away and freezes the degree (premature evictions: the extra blocks
 * thrash; each later drop takes one more), otherwise one more extra block is allowed, up to the SMs' cap ((F - 1) x hardware
 * blocks). Inferred (the paper leaves them open; spec 004 2.4 asks for both as a flag): the
 * average is over the epoch's evictions (default) or, with -gms_uvm_to_cumulative 1, over every
 * page evicted so far (which rarely drops 20% once many pages are in it, so it seldom throttles);
 * an epoch without evictions counts as "no drop"; the freeze is permanent. The two other open
 * choices spec 004 2.4 names are options: the reference is the previous epoch's average or,
 * with -gms_uvm_to_reference best, the highest so far; with -gms_uvm_to_freeze until-no-drop
 * an epoch without a drop lifts the freeze (growth resumes the epoch after). Epochs are run
 * lazily (at an eviction, before its lifetime is added, or when an SM asks): the average at a
 * past boundary is the one in force then, since only evictions change it. */
#include "uvm/uvm_internal.h"

void gms_uvm_to_epochs(gms_uvm *u, uint64_t now)
{
    gms_uvm_ba *b = &u->ba;
    const gms_uvm_params *p = u->prm;
    while (now >= b->to_next_epoch) {
        b->to_epochs++;
        int drop = 0;
        /* -gms_uvm_to_cumulative 1: the running average over every page evicted so far (the
         * paper's "running average of the lifetime of pages"); 0: this epoch's evictions only */
        uint64_t sum = p->to_cumulative ? b->lifetime_sum : b->to_win_sum;
        uint64_t n = p->to_cumulative ? b->lifetime_n : b->to_win_n;
        if (n) {
            double avg = (double)sum / (double)n;
            double ref = p->to_ref_best ? b->to_best_avg : b->to_prev_avg;
            drop = ref > 0 && avg <= (1.0 - p->to_drop) * ref;
            b->to_prev_avg = avg;
            if (avg > b->to_best_avg) b->to_best_avg = avg;
            b->to_win_sum = b->to_win_n = 0;
        }
        if (drop) {
            if (b->to_extra) b->to_extra--;
            b->to_frozen = 1;
            b->to_throttles++;
        } else if (b->to_frozen && p->to_freeze_lifts) {
            b->to_frozen = 0;
        } else if (!b->to_frozen && b->to_extra < b->to_cap) {
            b->to_extra++;
        }
        b->to_next_epoch += p->to_epoch;
    }
}

uint32_t gms_uvm_to_extra(gms_uvm *u, uint64_t now, uint32_t cap)
{
    if (!u->prm->to_dynamic) return cap;
    if (cap > u->ba.to_cap) u->ba.to_cap = cap;
    gms_uvm_to_epochs(u, now);
    return u->ba.to_extra < cap ? u->ba.to_extra : cap;
}

void gms_uvm_set_fault_hook(gms_uvm *u, gms_uvm_fault_hook_fn fn, void *ud)
{
    u->ba.fault_hook = fn;
    u->ba.fault_hook_ud = ud;
}
