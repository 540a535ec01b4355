/* UVM counters: UVMSmart's labels where the meaning matches (interop.md 3.4), ours prefixed
 * Uvm_. Every counter is described in docs/uvm.md. */
#include "uvm/uvm_internal.h"
#include "uvm/opt_bound.h"

static double ratio(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }

void gms_uvm_stats_report(gms_uvm *u, gms_stats *out)
{
    const gms_uvm_counters *c = &u->c;
    /* UVMSmart names, with what its gpgpu_new_stats counts (docs/uvm.md section 3) */
    gms_stat_u64(out, "Tlb_tot_access", c->us_tlb_access);
    gms_stat_u64(out, "Tlb_tot_hit", c->us_tlb_hit);
    gms_stat_u64(out, "Tlb_tot_miss", c->us_tlb_access - c->us_tlb_hit);
    gms_stat_f64(out, "Tlb_tot_hit_rate", ratio(c->us_tlb_hit, c->us_tlb_access));
    gms_stat_u64(out, "Tlb_tot_valiate", c->us_tlb_fill);
    gms_stat_u64(out, "Tlb_invalidate", c->us_tlb_evict + c->us_tlb_shootdown);
    gms_stat_u64(out, "Tlb_tot_evict", c->us_tlb_evict);
    gms_stat_u64(out, "Tlb_tot_evict_page", c->us_tlb_shootdown);
    gms_stat_u64(out, "Tlb_tot_thrash", c->us_tlb_thrash);
    gms_stat_u64(out, "Page_table_tot_access", c->us_pt_hit + c->us_pt_miss);
    gms_stat_u64(out, "Page_tot_hit", c->us_pt_hit);
    gms_stat_u64(out, "Page_tot_miss", c->us_pt_miss);
    gms_stat_f64(out, "Page_tot_hit_rate", ratio(c->us_pt_hit, c->us_pt_hit + c->us_pt_miss));
    gms_stat_u64(out, "Page_tot_fault", c->far_faults);
    gms_stat_u64(out, "Page_tot_pending", c->us_pt_pending);
    gms_stat_u64(out, "Total_memory_access_page_fault", c->page_latency_n);
    gms_stat_f64(out, "Average_latency", ratio(c->page_latency_sum, c->page_latency_n));
    gms_stat_u64(out, "Page_validate", c->pages_in);
    gms_stat_u64(out, "Page_evict_dirty", c->evict_dirty);
    gms_stat_u64(out, "Page_evict_not_dirty", c->evict_clean);
    gms_stat_u64(out, "Page_tot_thrash", c->remigrations);
    gms_stat_u64(out, "Tot_page_hit", c->bulk_pf_hit);
    gms_stat_u64(out, "Tot_page_miss", c->bulk_pf_miss);
    gms_stat_u64(out, "Tot_page_fault", c->bulk_chunks);
    gms_stat_f64(out, "Avg_page_latency", ratio(c->bulk_page_lat_sum, c->pages_bulk_in));
    gms_stat_f64(out, "Avg_prefetch_size", ratio(c->pages_bulk_in << u->page_shift, c->bulk_chunks));
    gms_stat_f64(out, "Avg_prefetch_latency", ratio(c->bulk_chunk_lat_sum, c->bulk_chunks));
    /* remote (zero-copy) access is not modelled (-enable_dma): UVMSmart's counts with it off */
    gms_stat_u64(out, "dma_read", 0);
    gms_stat_u64(out, "dma_migration_read", 0);
    gms_stat_u64(out, "dma_migration_write", 0);
    for (int li = 0; li < 2; li++) {
        const gms_uvm_lane *l = &u->lane[li];
        gms_stat_f64(out, li ? "Pcie_write_utilization" : "Pcie_read_utilization",
                     l->util_cycles ? l->util_weighted / (double)l->util_cycles : 0);
    }
    /* UVMSmart's Tot_* times (calculate_sim_prof), in core cycles. The kernel-plus-fault time is
     * the runtime its authors plot: with -enable_accurate_simulation 0 the kernels ran without
     * fault latency and faults x -page_fault_latency is added; with 1 it is already inside. */
    uint64_t ktime = c->kernel_end_sum + c->kernels_active * u->now - c->kernel_begin_sum;
    uint64_t ftime = u->prm->accurate_simulation ? 0 : c->far_faults * u->prm->page_fault_latency;
    gms_stat_u64(out, "Tot_prefetch_time", c->prefetch_time);
    gms_stat_u64(out, "Tot_kernel_exec_time", ktime);
    gms_stat_u64(out, "Tot_kernel_exec_time_and_fault_time", ktime + ftime);
    gms_stat_u64(out, "Tot_memcpy_h2d_time", c->memcpy_h2d_time);
    gms_stat_u64(out, "Tot_memcpy_d2h_time", c->memcpy_d2h_time);
    gms_stat_u64(out, "Tot_memcpy_time", c->memcpy_h2d_time + c->memcpy_d2h_time);
    gms_stat_u64(out, "Tot_dma_time", 0);
    if (gms_uvm_libcuda(u, u->prm->sync_writeback)) {
        /* UVMSmart's device-sync copy-back (devsync.c); its Tot_writeback_time (eviction
         * write-backs in its profiler) is not reported: Uvm_pcie_d2h_busy_cycles has them */
        gms_stat_u64(out, "Tot_devicesync_time", c->devsync_time);
        gms_stat_u64(out, "Tot_memcpy_d2h_sync_wb_time", c->devsync_time + c->memcpy_d2h_time);
        gms_stat_u64(out, "Uvm_devsync_pages", c->devsync_pages);
        gms_stat_u64(out, "Uvm_devsyncs", c->devsyncs);
    }
    /* ours */
    gms_stat_u64(out, "Uvm_tlb_lookups", c->tlb_access);
    gms_stat_u64(out, "Uvm_tlb_lookup_hits", c->tlb_hit);
    gms_stat_u64(out, "Uvm_walks", c->walks);
    gms_stat_u64(out, "Uvm_walk_hits", c->walk_hit);
    gms_stat_u64(out, "Uvm_walk_misses", c->walk_miss);
    gms_stat_f64(out, "Uvm_migration_group_bytes_mean",
                 c->pf_groups ? (double)(c->pf_group_pages << u->page_shift) / (double)c->pf_groups : 0);
    gms_stat_f64(out, "Uvm_demand_page_latency_mean", ratio(c->page_latency_sum, c->page_latency_n));
    gms_stat_u64(out, "Uvm_far_faults", c->far_faults);
    gms_stat_u64(out, "Uvm_faults_merged", c->fault_merged);
    gms_stat_u64(out, "Uvm_faults_on_writeback", c->faults_on_writeback);
    if (u->prm->evict_rescue) {
        gms_stat_u64(out, "Uvm_evict_rescues", c->evict_rescues);
        gms_stat_u64(out, "Uvm_evict_rescued_pages", c->evict_rescued);
    }
    gms_stat_u64(out, "Uvm_walks_merged", c->walk_merged);
    gms_stat_u64(out, "Uvm_walks_queued", c->walk_queued);
    if (u->prm->gmmu_intake) {
        gms_stat_u64(out, "Uvm_gmmu_intake_waits", c->intake_waited);
        gms_stat_u64(out, "Uvm_gmmu_intake_wait_cycles", c->intake_wait_cycles);
    }
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
    /* -uvm_oversub_ratio: the footprint it divided (the whole program's when known) */
    gms_stat_u64(out, "Uvm_capacity_footprint_bytes", u->cap_footprint);
    /* footprint / the capacity -uvm_oversub_ratio gave in whole pages (the ratio the run got) */
    if (u->prm->oversub_ratio > 0) gms_stat_f64(out, "gms_uvm_oversub_ratio_effective", u->oversub_effective);
    gms_stat_u64(out, "Uvm_oversubscribed", (uint64_t)u->over_sub);
    /* spec 000b 4 metrics: page touch rate (pages accessed at least once / managed pages), pages
     * prefetched before their access (prefetched pages used / pages accessed after arriving,
     * demand arrivals included), prefetched pages accessed (used / prefetched) */
    gms_stat_u64(out, "Uvm_pages_touched", c->pages_touched);
    /* "of all allocated pages" (spec 000b): the pages of the program's allocations, not the
     * padding -uvm_alloc_round adds past their ends (managed, never accessed) */
    uint64_t alloc_pages = 0;
    for (size_t i = 0; i < u->nallocs; i++)
        if (u->allocs[i].managed) alloc_pages += (u->allocs[i].bytes + u->page_size - 1) >> u->page_shift;
    gms_stat_f64(out, "Uvm_page_touch_rate", ratio(c->pages_touched, alloc_pages));
    gms_stat_f64(out, "Uvm_prefetched_before_access_rate", ratio(c->pf_used, c->pf_used + c->pages_demand_in));
    gms_stat_f64(out, "Uvm_prefetched_accessed_rate", ratio(c->pf_used, c->pages_pf_in));
    gms_uvm_batch_report(u, out);
    gms_uvm_ba_report(u, out);
    if (u->rt->report) u->rt->report(u->rt_st, out);
    if (u->pf->report) u->pf->report(u->pf_st, u, out);
    if (u->pf_oversub != u->pf && u->pf_oversub->report) u->pf_oversub->report(u->pf_oversub_st, u, out);
    if (u->ev->report) u->ev->report(u->ev_st, u, out);
    gms_uvm_opt_report(u, out);
}
