/* Batch-aware UVM, the runtime side (spec 004 section 3): unobtrusive eviction (UE) and the
 * comparison points around it, all on the batch runtime.
 *  - UE: when a batch starts with device memory full, one page (the eviction policy's first
 *    victim) is evicted at once, inside the fault handling time; the batch's later evictions
 *    run on the D2H lane while its migrations run on the H2D lane, each migration using the
 *    frame an earlier eviction freed (the lanes and frame accounting of pcie.c / migrate.c do
 *    the pairing; transfers are one page each so a migration waits for one eviction, not a run).
 *  - serialised eviction (the paper's BASELINE, Fig. 4): a write-back and a migration never
 *    overlap, so a page costs t_evict + t_migrate (pcie.c's lane kick).
 *  - instant eviction (Fig. 8's ideal): migrate.c frees the victim's frame with no copy.
 *  - PCIe compression: pcie.c divides the bytes on the link by -gms_pcie_compress.
 * Option checks are here too (gms_uvm_ba_finalize). */
#include <string.h>
#include "config/params.h"
#include "uvm/uvm_internal.h"
#include "uvm/etc_internal.h"

int gms_uvm_ba_finalize(gms_params *p, gms_error *err)
{
    gms_uvm_params *u = &p->uvm;
    int batch = !strcmp(gms_uvm_runtimes[u->runtime_id]->name, "batch");
    if (u->evict_rescue && batch)
        return gms_err(err, "-uvm_evict_rescue 1 needs -uvm_runtime uvmsmart (the batch runtime frees frames at a "
                       "write-back's end and has no write stage queue to cancel from)");
    if (u->ue && !batch) return gms_err(err, "-gms_uvm_ue 1 needs -uvm_runtime batch (UE works on fault batches)");
    if (u->evict_serial && !batch)
        return gms_err(err, "-gms_uvm_evict_serial 1 needs -uvm_runtime batch (the driver's eviction)");
    if (u->ue && u->evict_serial)
        return gms_err(err, "-gms_uvm_ue and -gms_uvm_evict_serial are both 1: UE overlaps what the serialised "
                       "baseline serialises; give one of them");
    if (u->ue && u->evict_instant)
        return gms_err(err, "-gms_uvm_ue and -gms_uvm_evict_instant are both 1: with instant eviction there is "
                       "nothing for UE to hide; give one of them");
    if (u->evict_whole_wait && !u->evict_whole)
        return gms_err(err, "-uvm_evict_whole_wait 1 needs -uvm_evict_whole 1 (it says what to do when no unit is whole)");
    if (u->evict_tlb_keep && !u->evict_rescue)
        return gms_err(err, "-uvm_evict_tlb_keep 1 needs -uvm_evict_rescue 1 (a TLB hit on a victim whose write-back "
                       "waits is what cancels it)");
    if (u->evict_invalid_at_start && batch)
        return gms_err(err, "-uvm_evict_invalid_at start needs -uvm_runtime uvmsmart (the batch runtime frees a "
                       "victim's frames at its write-back's end, so the page cannot come back before)");
    if (!strcmp(u->evict_invalid_at_str, "start") && u->evict_instant)
        return gms_err(err, "-uvm_evict_invalid_at start and -gms_uvm_evict_instant 1: with instant eviction nothing "
                       "is written back, so no victim waits for a write-back; give one of them");
    if (u->evict_rescue && u->evict_instant)
        return gms_err(err, "-uvm_evict_rescue and -gms_uvm_evict_instant are both 1: with instant eviction no "
                       "write-back waits to be cancelled; give one of them");
    if (!(u->pcie_compress >= 1.0))
        return gms_err(err, "-gms_pcie_compress: %g must be at least 1 (compression ratio; 1 = off)", u->pcie_compress);
    static const char *const to_knobs[] = { "gms_uvm_to_", "gms_uvm_ctx_switch_cycles", NULL };
    if (gms_params_require(p, to_knobs, u->to, "-gms_uvm_to 1 (thread oversubscription)", err)) return -1;
    static const char *const degree_knobs[] = { "gms_uvm_to_reference", "gms_uvm_to_freeze", NULL };
    if (gms_params_require(p, degree_knobs, u->to_dynamic, "-gms_uvm_to_dynamic 1 (the degree control)", err)) return -1;
    static const char *const etc_knobs[] = { "gms_uvm_etc_", NULL };
    if (gms_params_require(p, etc_knobs, u->etc, "-gms_uvm_etc 1 (ETC)", err)) return -1;
    if (u->etc) {
        if (!batch) return gms_err(err, "-gms_uvm_etc 1 needs -uvm_runtime batch (ETC is compared on fault batches)");
        if (!(u->etc_cc >= 1.0))
            return gms_err(err, "-gms_uvm_etc_cc: %g must be at least 1 (capacity compression ratio; 1 = off)", u->etc_cc);
        if (!u->etc_detect || !u->etc_exec)
            return gms_err(err, "-gms_uvm_etc_detect / -gms_uvm_etc_exec: epochs must be at least 1 cycle");
        if (u->to) return gms_err(err, "-gms_uvm_etc and -gms_uvm_to are both 1: ETC throttles what TO oversubscribes; give one");
    }
    if (u->to) {
        if (u->to_factor < 2 || u->to_factor > 8)
            return gms_err(err, "-gms_uvm_to_factor: %u must be in 2..8 (runnable blocks = F x the hardware limit)",
                           u->to_factor);
        if (!u->to_epoch) return gms_err(err, "-gms_uvm_to_epoch: must be at least 1 cycle");
        if (!(u->to_drop > 0 && u->to_drop < 1))
            return gms_err(err, "-gms_uvm_to_drop: %g must be in (0, 1) (0.2 = a 20%% lifetime drop)", u->to_drop);
    }
    if (!strcmp(u->to_reference_str, "prev") || !strcmp(u->to_reference_str, "best"))
        u->to_ref_best = u->to_reference_str[0] == 'b';
    else
        return gms_err(err, "-gms_uvm_to_reference: '%s' is not one of prev, best", u->to_reference_str);
    if (!strcmp(u->to_freeze_str, "permanent") || !strcmp(u->to_freeze_str, "until-no-drop"))
        u->to_freeze_lifts = u->to_freeze_str[0] == 'u';
    else
        return gms_err(err, "-gms_uvm_to_freeze: '%s' is not one of permanent, until-no-drop", u->to_freeze_str);
    return 0;
}

void gms_uvm_ba_init(gms_uvm *u)
{
    const gms_uvm_params *p = u->prm;
    u->ba.on = p->ba_stats || p->ue || p->evict_serial || p->evict_instant || p->pcie_compress != 1.0 || p->to || p->etc;
    /* transfers page by page (each page's warps wake when it lands, spec 004 6) in every
     * eviction model the study compares, the ideal one included, so that they differ only in
     * the eviction's cost */
    u->ba.per_page = p->ue || p->evict_serial || p->evict_instant;
    u->ba.h2d_wait_since = UINT64_MAX;
    u->ba.to_extra = 1;   /* TO starts with one extra block per SM */
    u->ba.to_next_epoch = p->to_epoch;
    gms_uvm_etc_init(u);   /* ETC, -gms_uvm_active_sms, -gms_uvm_ws_window (NULL when all off) */
}

void gms_uvm_ue_batch_start(gms_uvm *u, uint64_t now)
{
    if (!u->prm->ue || !u->cap_limited) return;
    /* the memory status tracker: full when no frame is free once the queued and started reads
     * and the evictions already under way are counted (the evict_check rule) */
    uint64_t used = u->frames_held + u->queued_read;
    if (used < u->pending_free || (double)(used - u->pending_free) < gms_uvm_evict_limit(u)) return;
    u->victims.n = 0;
    u->ev->select(u->ev_st, u, now, &u->victims);
    if (!u->victims.n) return;
    /* exactly one page: the policy's first choice (LRU order for the LRU policies) */
    uint32_t v = u->victims.v[0];
    uint32_t saved = u->cur_batch;
    u->cur_batch = GMS_UVM_NONE;   /* charged to no batch: it belongs to the interrupt */
    gms_uvm_evict_pages(u, &v, 1, now);
    u->cur_batch = saved;
    u->ba.ue_preemptive++;
    gms_uvm_lanes_kick(u, now);
}
