/* UVM counters: UVMSmart's labels where the meaning matches (interop.md 3.4), ours prefixed
 * Uvm_. Every counter is described in docs/uvm.md. */
#include "uvm/uvm_internal.h"

static double ratio(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }

void gms_uvm_stats_report(gms_uvm *u, gms_stats *out)
{
    const gms_uvm_counters *c = &u->c;
    uint64_t tlb_evict = 0;
    for (uint32_t i = 0; i < u->n_sm; i++) tlb_evict += u->tlb[i].evictions;
    /* UVMSmart names */
    gms_stat_u64(out, "Tlb_tot_access", c->tlb_access);
    gms_stat_u64(out, "Tlb_tot_hit", c->tlb_hit);
    gms_stat_u64(out, "Tlb_tot_miss", c->tlb_miss);
    gms_stat_f64(out, "Tlb_tot_hit_rate", ratio(c->tlb_hit, c->tlb_access));
    gms_stat_u64(out, "Tlb_tot_valiate", c->tlb_fill);
    gms_stat_u64(out, "Tlb_invalidate", c->tlb_invalidate);
    gms_stat_u64(out, "Tlb_tot_evict", tlb_evict);
    gms_stat_u64(out, "Page_table_tot_access", c->walks);
    gms_stat_u64(out, "Page_tot_hit", c->walk_hit);
    gms_stat_u64(out, "Page_tot_miss", c->walk_miss);
    gms_stat_f64(out, "Page_tot_hit_rate", ratio(c->walk_hit, c->walk_hit + c->walk_miss));
    gms_stat_u64(out, "Page_tot_fault", c->far_faults);
    gms_stat_u64(out, "Page_tot_pending", c->fault_merged);
    gms_stat_u64(out, "Page_validate", c->pages_in);
    gms_stat_u64(out, "Page_evict_dirty", c->evict_dirty);
    gms_stat_u64(out, "Page_evict_not_dirty", c->evict_clean);
    gms_stat_u64(out, "Page_tot_thrash", c->remigrations);
    gms_stat_f64(out, "Avg_page_latency", ratio(c->page_latency_sum, c->page_latency_n));
    gms_stat_f64(out, "Avg_prefetch_size", c->pf_groups ? (double)(c->pf_group_pages << u->page_shift) / (double)c->pf_groups : 0);
    gms_stat_f64(out, "Pcie_read_utilization", u->lane[0].transfers ? u->lane[0].util_sum / (double)u->lane[0].transfers : 0);
    gms_stat_f64(out, "Pcie_write_utilization", u->lane[1].transfers ? u->lane[1].util_sum / (double)u->lane[1].transfers : 0);
    /* ours */
    gms_stat_u64(out, "Uvm_far_faults", c->far_faults);
    gms_stat_u64(out, "Uvm_faults_merged", c->fault_merged);
    gms_stat_u64(out, "Uvm_faults_on_writeback", c->faults_on_writeback);
    gms_stat_u64(out, "Uvm_walks_merged", c->walk_merged);
    gms_stat_u64(out, "Uvm_walks_queued", c->walk_queued);
    gms_stat_u64(out, "Uvm_l2_tlb_access", c->l2tlb_access);
    gms_stat_u64(out, "Uvm_l2_tlb_hit", c->l2tlb_hit);
    gms_stat_u64(out, "Uvm_pages_migrated_in", c->pages_in);
    gms_stat_u64(out, "Uvm_pages_demand_in", c->pages_demand_in);
    gms_stat_u64(out, "Uvm_pages_prefetched", c->pages_pf_in);
    gms_stat_u64(out, "Uvm_prefetched_used", c->pf_used);
    gms_stat_u64(out, "Uvm_prefetched_evicted_unused", c->pf_evicted_unused);
    gms_stat_u64(out, "Uvm_pages_bulk_prefetched", c->pages_bulk_in);
    gms_stat_u64(out, "Uvm_pages_written_back", c->pages_written_back);
    gms_stat_u64(out, "Uvm_pages_thrashed", c->pages_thrashed);
    gms_stat_u64(out, "Uvm_evictions", c->evict_dirty + c->evict_clean);
    gms_stat_u64(out, "Uvm_pcie_h2d_bytes", u->lane[0].bytes);
    gms_stat_u64(out, "Uvm_pcie_d2h_bytes", u->lane[1].bytes);
    gms_stat_u64(out, "Uvm_pcie_h2d_busy_cycles", u->lane[0].busy_cycles);
    gms_stat_u64(out, "Uvm_pcie_d2h_busy_cycles", u->lane[1].busy_cycles);
    gms_stat_u64(out, "Uvm_pcie_h2d_transfers", u->lane[0].transfers);
    gms_stat_u64(out, "Uvm_pcie_d2h_transfers", u->lane[1].transfers);
    gms_stat_u64(out, "Uvm_memcpy_bytes", c->memcpy_bytes);
    gms_stat_u64(out, "Uvm_fault_stall_warp_cycles", c->warp_stall_cycles);
    gms_stat_u64(out, "Uvm_fault_stall_req_cycles", c->req_fault_wait_sum);
    gms_stat_u64(out, "Uvm_fault_time_posthoc", c->far_faults * u->prm->page_fault_latency);
    gms_stat_u64(out, "Uvm_footprint_bytes", u->footprint);
    gms_stat_u64(out, "Uvm_capacity_pages", u->cap_limited ? u->cap_frames : 0);
    gms_stat_u64(out, "Uvm_oversubscribed", (uint64_t)u->over_sub);
    gms_uvm_batch_report(u, out);
    if (u->rt->report) u->rt->report(u->rt_st, out);
}
