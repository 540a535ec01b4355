#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include "config/params.h"
#include "uvm/uvm_internal.h"
/* UVM options: UVMSmart's names where the option is UVMSmart's (interop.md 3.2), ours with the
 * uvm_ prefix. Every option is described in docs/uvm.md. */
static const gms_option opts[] = {
    GMS_OPT_X("gddr_size", GMS_OPT_U64, uvm.gddr_size, "0", "device memory size for managed memory (e.g. 1GB); 0 = unlimited", GMS_SYN_BYTES, NULL),
    GMS_OPT_X("page_size", GMS_OPT_U64, uvm.page_size, "4KB", "UVM page size: 4KB, 64KB or 2MB", GMS_SYN_BYTES, NULL),
    GMS_OPT("uvm_oversub_ratio", GMS_OPT_DOUBLE, uvm.oversub_ratio, "0", "capacity = managed footprint / ratio (1.25 = 125% oversubscription); 0 = off"),
    GMS_OPT("gms_uvm_oversub_flag", GMS_OPT_STRING, uvm.oversub_flag_str, "fault", "what sets the sticky oversubscription flag (prefetcher switches to -hwprefetch_oversub): fault (UVMSmart: a fault's migration finds memory full) or any-eviction (also a policy's own eviction before memory is full, e.g. TURE's table-full trigger, and a full memory on a bulk copy)"),
    GMS_OPT("uvm_oversub_basis", GMS_OPT_STRING, uvm.oversub_basis_str, "footprint", "what -uvm_oversub_ratio divides: footprint (managed bytes allocated) or working-set (managed pages the kernels touch; built-in workloads)"),
    GMS_OPT_X("uvm_reserved_bytes", GMS_OPT_U64, uvm.reserved_bytes, "0", "device memory reserved (not usable by managed pages)", GMS_SYN_BYTES, NULL),
    GMS_OPT("percentage_of_free_page_buffer", GMS_OPT_DOUBLE, uvm.free_page_buffer_pct, "0.0", "evict when the projected occupancy exceeds capacity x (1 - N / 100) frames; N a percent in [0, 100), fractions allowed (UVMSmart's float)"),
    GMS_OPT("invalidate_clean", GMS_OPT_BOOL, uvm.invalidate_clean, "1", "1: evicted clean pages are dropped; 0: every evicted page is written back (UVMSmart config)"),
    GMS_OPT("tlb_size", GMS_OPT_U32, uvm.tlb_size, "4096", "L1 TLB entries per SM"),
    GMS_OPT("uvm_tlb_assoc", GMS_OPT_U32, uvm.tlb_assoc, "0", "L1 TLB associativity; 0 = fully associative"),
    GMS_OPT("uvm_tlb_hit_latency", GMS_OPT_U32, uvm.tlb_hit_latency, "0", "extra core cycles of an L1 TLB hit (0: the lookup fits in the LSU cycle)"),
    GMS_OPT("uvm_l2_tlb_size", GMS_OPT_U32, uvm.l2_tlb_size, "0", "shared L2 TLB entries; 0 = no L2 TLB"),
    GMS_OPT("uvm_l2_tlb_assoc", GMS_OPT_U32, uvm.l2_tlb_assoc, "32", "L2 TLB associativity; 0 = fully associative"),
    GMS_OPT("uvm_l2_tlb_latency", GMS_OPT_U32, uvm.l2_tlb_latency, "10", "L2 TLB lookup latency (core cycles)"),
    GMS_OPT("page_table_walk_latency", GMS_OPT_U32, uvm.ptw_latency, "100", "page-table walk latency (core cycles)"),
    GMS_OPT("uvm_max_concurrent_walks", GMS_OPT_U32, uvm.max_walks, "0", "page walks in flight at once; 0 = unlimited (UVMSmart)"),
    GMS_OPT("gms_uvm_gmmu_intake", GMS_OPT_STRING, uvm.gmmu_intake_str, "auto",
            "TLB-missed accesses an SM cluster hands the GMMU per core cycle, in arrival order, 1-64 (UVMSmart's "
            "cu_gmmu_queue: 1); 0 = every miss starts its walk at once (gpumemsim before 2026-12); auto = the runtime's "
            "own (uvmsmart 1, batch 0)"),
    GMS_OPT("uvm_runtime", GMS_OPT_STRING, uvm.runtime_str, "uvmsmart", "fault runtime (gpumemsim list policies)"),
    GMS_OPT("uvm_split_at_fault", GMS_OPT_STRING, uvm.split_at_fault_str, "auto", "a migration's contiguous pages go as one transfer (0) or are cut just after each faulted page so its warp replays early (1); auto = the runtime's own (uvmsmart 1, batch 0)"),
    GMS_OPT("page_fault_latency", GMS_OPT_U64, uvm.page_fault_latency, "66645", "uvmsmart runtime: fault handling latency per far fault (core cycles)"),
    GMS_OPT("gms_uvm_fault_frames", GMS_OPT_STRING, uvm.fault_frames_str, "data",
            "uvmsmart runtime, -enable_accurate_simulation 1: data (UVMSmart's PAGE_FAULT item: the fault time holds "
            "the H2D lane once one frame is free and takes none; the transfer's frames are checked and taken when its "
            "data starts), data-counted (data, and a fault time not yet started counts as one more page to read in "
            "the eviction trigger, as UVMSmart's 1-page item in its read stage queue) or fault (gpumemsim before "
            "2026-12: frames for the whole transfer are checked and taken before the fault time)"),
    GMS_OPT("gms_uvm_evict_wb_count", GMS_OPT_STRING, uvm.evict_wb_count_str, "auto",
            "eviction trigger: twice (UVMSmart's gmmu_t::cycle: the write-back on the D2H lane counts as pending "
            "although its frames are already free, so no new eviction until it ends), once (it counts only as "
            "freed); auto = the runtime's own (uvmsmart twice, batch once)"),
    GMS_OPT_X("uvm_fault_handling_us", GMS_OPT_DOUBLE, uvm.fault_handling_us, "20", "batch runtime: GPU runtime fault handling time per batch (us)", GMS_SYN_USEC, NULL),
    GMS_OPT("uvm_fault_handling_per_fault", GMS_OPT_U64, uvm.fault_handling_per_fault, "0", "batch runtime: extra handling cycles per fault of a batch"),
    GMS_OPT("uvm_fault_buffer_size", GMS_OPT_U32, uvm.fault_buffer_size, "1024", "batch runtime: fault buffer entries"),
    GMS_OPT("uvm_batch_csv", GMS_OPT_STRING, uvm.batch_csv, "", "write per-batch records to this CSV file"),
    GMS_OPT_X("pcie_bandwidth", GMS_OPT_DOUBLE, uvm.pcie_bandwidth, "16.0GB/s", "PCIe bandwidth (GB/s); the atan model takes 16, 32 or 64", GMS_SYN_GBPS, NULL),
    GMS_OPT_X("uvm_pcie_d2h_bandwidth", GMS_OPT_DOUBLE, uvm.pcie_d2h_bandwidth, "0", "device-to-host bandwidth (GB/s); 0 = -pcie_bandwidth", GMS_SYN_GBPS, NULL),
    GMS_OPT("uvm_memcpy_half_speed", GMS_OPT_BOOL, uvm.memcpy_half_speed, "1", "atan model: an explicit copy of 2 MiB or more runs at half the curve's speed (UVMSmart's calculate_transfer_time: pageable host memory); 0 = at the curve's speed (pinned memory)"),
    GMS_OPT("uvm_pcie_model", GMS_OPT_STRING, uvm.pcie_model_str, "atan", "atan: UVMSmart's size-dependent curve; linear: latency + size / bandwidth"),
    GMS_OPT("uvm_pcie_latency", GMS_OPT_U64, uvm.pcie_latency, "0", "linear model: fixed cycles per transfer"),
    GMS_OPT("hardware_prefetch", GMS_OPT_INT, uvm.hardware_prefetch, "1", "UVMSmart prefetcher: 0 none, 1 tree (TBNp), 2 sequential-local, 3 random"),
    GMS_OPT("hwprefetch_oversub", GMS_OPT_INT, uvm.hwprefetch_oversub, "1", "prefetcher once memory is oversubscribed (same numbering)"),
    GMS_OPT("uvm_prefetcher", GMS_OPT_STRING, uvm.prefetch_str, "", "prefetcher by name (gpumemsim list policies); overrides -hardware_prefetch"),
    GMS_OPT("uvm_prefetcher_oversub", GMS_OPT_STRING, uvm.prefetch_oversub_str, "", "prefetcher by name once oversubscribed; overrides -hwprefetch_oversub"),
    GMS_OPT_X("uvm_prefetch_size", GMS_OPT_U64, uvm.prefetch_size, "64KB", "sequential-local prefetch block (multiple of the page size; 512KB = Zheng et al.)", GMS_SYN_BYTES, NULL),
    GMS_OPT("uvm_tree_fill", GMS_OPT_STRING, uvm.tree_fill_str, "exact",
            "tree prefetcher's counts: exact (every node counts its pages resident or in flight, and a node over half "
            "valid fetches every missing page under it: spec 000b 1.5) or uvmsmart (UVMSmart's code: a leaf's size "
            "grows by a whole 64 KiB leaf per faulted page unless it is full, by a page per page of the none and "
            "random prefetchers and per rescued page, falls by a page per evicted page, and a node over half valid "
            "fills only its leaves of size 0; docs/uvm.md Differences 13)"),
    GMS_OPT("eviction_policy", GMS_OPT_INT, uvm.eviction_policy, "0", "UVMSmart eviction: 0 LRU 2MB, 1 tree, 2 LRU 64KB, 3 random 4KB, 5 LRU 4KB"),
    GMS_OPT("uvm_eviction", GMS_OPT_STRING, uvm.eviction_str, "", "eviction by name (gpumemsim list policies); overrides -eviction_policy"),
    GMS_OPT("uvm_lru_on_access", GMS_OPT_STRING, uvm.lru_on_access_str, "1", "LRU order, besides a migration in: 1 refreshed on every access (UVMSmart), 0 on migration only (driver's age-based), walk on a page-table walk that finds the page resident and on a far fault (HPE's LRU, spec 003 section 4)"),
    GMS_OPT("uvm_evict_whole", GMS_OPT_BOOL, uvm.evict_whole, "0",
            "LRU evictions (lru64k, lru2m, tree's first leaf): 1 skips a unit with a page that is not resident (absent, "
            "migrating in or being written back), as UVMSmart's is_block_evictable, and takes the least recently used "
            "whole unit (the least recently used one if none is whole); 0 takes the least recently used unit's resident pages"),
    GMS_OPT("uvm_lru_region_first", GMS_OPT_BOOL, uvm.lru_region_first, "0",
            "64 KiB-block LRU evictions (lru64k = SE, tree = TE's first leaf): 1 orders the blocks as UVMSmart's "
            "sort_valid_pages, 2 MiB regions by their most recently used block (oldest region first), then the blocks "
            "of a region by their own recency; 0 orders the blocks by their own recency alone"),
    GMS_OPT("uvm_evict_whole_wait", GMS_OPT_BOOL, uvm.evict_whole_wait, "0",
            "with -uvm_evict_whole 1, when no unit is wholly resident: 1 evicts nothing while a migration is on the "
            "link (its end checks again; UVMSmart's reads wait for a unit to become whole), and the tree policy's "
            "extra leaves must be wholly resident too; 0 takes the least recently used unit's resident pages"),
    GMS_OPT("uvm_evict_rescue", GMS_OPT_BOOL, uvm.evict_rescue, "0",
            "1: a translation or a cudaMemPrefetchAsync of an evicted page whose write-back is still queued (not "
            "started) cancels that write-back (the hardware prefetchers skip such a page), and its pages stay resident (UVMSmart, spec 000b 1.3); 0: the page re-faults "
            "when its write-back starts or ends (-uvm_evict_invalid_at). uvmsmart runtime only"),
    GMS_OPT("uvm_evict_tlb_keep", GMS_OPT_BOOL, uvm.evict_tlb_keep, "0",
            "1: a victim written back keeps its TLB entries until its write-back starts, and a TLB hit on it while "
            "the write-back is queued cancels that write-back (UVMSmart's check_write_stage_queue); 0: victims leave "
            "the TLBs when chosen. Needs -uvm_evict_rescue 1"),
    GMS_OPT("uvm_evict_invalid_at", GMS_OPT_STRING, uvm.evict_invalid_at_str, "auto",
            "when a victim written back becomes absent to the GPU: end (when its write-back ends; a fault on it waits "
            "for that, Uvm_faults_on_writeback: the driver, which holds the block while it evicts) or start "
            "(UVMSmart's gmmu_t::cycle invalidates the pages when the write-back starts: from then a touch faults "
            "and the page may migrate in again, or be prefetched, while the write-back goes on; needs the uvmsmart "
            "runtime, which frees the frames at the start); auto = start with the uvmsmart runtime, end with batch"),
    GMS_OPT("uvm_belady_trace", GMS_OPT_STRING, uvm.belady_trace, "", "belady: page sequence recorded by -uvm_page_trace_out in an earlier run"),
    GMS_OPT("gms_uvm_belady_progress", GMS_OPT_BOOL, uvm.belady_progress, "1",
            "belady: match this run's reference to the page's recorded occurrence nearest to the run's progress, re-anchored at each kernel's start (1), or "
            "its k-th reference to its k-th occurrence (0), which drifts when the interleaving differs (docs/uvm.md)"),
    GMS_OPT("uvm_page_trace_out", GMS_OPT_STRING, uvm.page_trace_out, "", "record the managed-page reference sequence (for belady)"),
    GMS_OPT("gms_uvm_opt_bound", GMS_OPT_BOOL, uvm.opt_bound, "0", "report gms_uvm_opt_faults: Belady's MIN on the program's page-reference string from a functional walk, at the run's capacity (timing-free bound)"),
    /* the seeds' policies: CAP, TURE, HPE, RRIP, CLOCK-Pro (docs/uvm-policies.md) */
    GMS_OPT("uvm_policy", GMS_OPT_STRING, uvm.pol.preset, "", "prefetcher + eviction preset: rpre, spse, tpte, tpne, capture, or <np|rp|sp|tp|cap><re|se|te|ne|lru|ture|hpe|rrip|clockpro>; overrides both"),
    GMS_OPT("uvm_cap_c", GMS_OPT_DOUBLE, uvm.pol.cap_c, "1.1", "CAP: c of Eq. 4.1, G = free x requested / (aggregate x c)"),
    GMS_OPT_X("uvm_cap_min", GMS_OPT_U64, uvm.pol.cap_min, "64KB", "CAP: smallest granularity (a power of two, at least 64 KiB)", GMS_SYN_BYTES, NULL),
    GMS_OPT_X("uvm_cap_max", GMS_OPT_U64, uvm.pol.cap_max, "1MB", "CAP: largest granularity (a power of two, at most 2 MiB)", GMS_SYN_BYTES, NULL),
    GMS_OPT_X("uvm_cap_oversub_size", GMS_OPT_U64, uvm.pol.cap_oversub, "512KB", "CAP: granularity once oversubscribed", GMS_SYN_BYTES, NULL),
    GMS_OPT("uvm_ture_window", GMS_OPT_U32, uvm.pol.ture_window, "1000", "TURE: sampler active cycles per period"),
    GMS_OPT("uvm_ture_period", GMS_OPT_U32, uvm.pol.ture_period, "6000", "TURE: sampling period (core cycles)"),
    GMS_OPT("uvm_ture_sampler_entries", GMS_OPT_U32, uvm.pol.ture_sampler, "16", "TURE: sampling buffer entries (one 64 KiB block each)"),
    GMS_OPT("uvm_ture_group_cap", GMS_OPT_BOOL, uvm.pol.ture_group_cap, "0", "TURE: a page group (allocation) holds at most max(1, round(entries x its size / all managed bytes)) sampler entries; 0 = first come (the seed's text)"),
    GMS_OPT("uvm_ture_lease", GMS_OPT_STRING, uvm.pol.ture_lease_str, "countdown", "TURE: countdown (a page's lease is its remaining references, the seed's) or renew (ablation: a logical-clock lease, each reference to the page renews it for L references of the whole stream)"),
    GMS_OPT("uvm_ture_table_entries", GMS_OPT_U32, uvm.pol.ture_table, "256", "TURE: eviction coalescing table entries (64 KiB granules)"),
    GMS_OPT("uvm_ture_evict_blocks", GMS_OPT_U32, uvm.pol.ture_evict_blocks, "4", "TURE: granules evicted per memory-full eviction"),
    GMS_OPT("uvm_random_pick", GMS_OPT_STRING, uvm.pol.random_pick_str, "page",
            "random eviction: page (a uniformly random resident 4 KiB page, the spec's reading) or region (UVMSmart's "
            "code: a random 2 MiB region entry in age order, walked forward to the first wholly resident one; its first "
            "4 KiB page goes and the entry leaves the list until a page of the region is touched or arrives)"),
    GMS_OPT("uvm_ture_pressure", GMS_OPT_STRING, uvm.pol.ture_pressure_str, "table", "TURE: granules a memory-full eviction takes: table (the least recently updated coalescing entries first, then the LRU 64 KiB blocks; inferred) or lru (the LRU 64 KiB blocks only, the seed's 'four blocks based on the LRU policy' read literally)"),
    GMS_OPT("uvm_ture_count_faulted", GMS_OPT_BOOL, uvm.pol.ture_count_faulted, "1", "TURE: a reference that finds its page absent (it faults, or merges into the fault, and is replayed on arrival) counts down the lease the page gets when it arrives, as the sampler counted it (the seed: every request reaching translation, TLB hit or miss); 0 = only references to a resident page count down"),
    GMS_OPT("uvm_ture_rescue_recall", GMS_OPT_BOOL, uvm.pol.ture_rescue_recall, "1", "TURE with -uvm_evict_rescue 1: a page whose queued write-back a touch cancels is a recalled page (touched while expired and awaiting eviction): an expired one gets half its initial lease, one not expired keeps the lease it had left; 0 = it comes back as if migrated in (the group's full lease)"),
    GMS_OPT("uvm_ture_max_lease", GMS_OPT_U32, uvm.pol.ture_max_lease, "1023", "TURE: largest lease (10-bit PTE field)"),
    GMS_OPT("uvm_ture_weight", GMS_OPT_DOUBLE, uvm.pol.ture_weight, "0.5", "TURE: lease = w x old lease + (1 - w) x sampled frequency"),
    GMS_OPT("uvm_ture_scale", GMS_OPT_DOUBLE, uvm.pol.ture_scale, "1", "TURE: lease = scale x sampled accesses per page per window"),
    GMS_OPT("uvm_hpe_set_pages", GMS_OPT_U32, uvm.pol.hpe_set, "16", "HPE: pages per page set (power of two, at most 64)"),
    GMS_OPT("uvm_hpe_interval", GMS_OPT_U32, uvm.pol.hpe_interval, "64", "HPE: page faults per interval"),
    GMS_OPT("uvm_hpe_transfer", GMS_OPT_U32, uvm.pol.hpe_transfer, "16", "HPE: the HIR goes to the driver every N page faults"),
    GMS_OPT("uvm_hpe_hir_entries", GMS_OPT_U32, uvm.pol.hpe_hir_entries, "1024", "HPE: HIR entries; 0 = ideal (walk hits reach the chain at once, no transfer)"),
    GMS_OPT("uvm_hpe_hir_ways", GMS_OPT_U32, uvm.pol.hpe_hir_ways, "8", "HPE: HIR associativity"),
    GMS_OPT("uvm_hpe_hir_counter_bits", GMS_OPT_U32, uvm.pol.hpe_hir_bits, "2", "HPE: bits of each HIR hit counter (saturating)"),
    GMS_OPT("uvm_hpe_counter_max", GMS_OPT_U32, uvm.pol.hpe_sat, "64", "HPE: page-set touch counter saturation (division trigger)"),
    GMS_OPT("uvm_hpe_ratio1", GMS_OPT_DOUBLE, uvm.pol.hpe_ratio1, "0.3", "HPE: ratio_1 threshold (irregular / regular counters)"),
    GMS_OPT("uvm_hpe_ratio2", GMS_OPT_DOUBLE, uvm.pol.hpe_ratio2, "2", "HPE: ratio_2 threshold (large / small regular counters)"),
    GMS_OPT("uvm_hpe_fifo", GMS_OPT_U32, uvm.pol.hpe_fifo, "128", "HPE: evicted-page FIFO depth per strategy"),
    GMS_OPT("uvm_hpe_wrong", GMS_OPT_U32, uvm.pol.hpe_wrong, "16", "HPE: wrong evictions in an interval that trigger an adjustment"),
    GMS_OPT("uvm_hpe_jump", GMS_OPT_U32, uvm.pol.hpe_jump, "16", "HPE: MRU-C search-point jump (page sets)"),
    GMS_OPT("uvm_hpe_adjust", GMS_OPT_BOOL, uvm.pol.hpe_adjust, "1", "HPE: Algorithm 1's dynamic adjustment"),
    GMS_OPT("uvm_rrip_bits", GMS_OPT_U32, uvm.pol.rrip_bits, "2", "RRIP: bits of the re-reference prediction value"),
    GMS_OPT("uvm_rrip_insert", GMS_OPT_BOOL, uvm.pol.rrip_distant, "0", "RRIP: 0 insert at long (2^M-2), 1 at distant (2^M-1; spec 003's type II)"),
    GMS_OPT("uvm_rrip_delay", GMS_OPT_U32, uvm.pol.rrip_delay, "0", "RRIP: a page is not evicted until this many faults after its insertion (128 for type II)"),
    GMS_OPT("uvm_clockpro_cold", GMS_OPT_U32, uvm.pol.clockpro_cold, "128", "CLOCK-Pro: m_c, frames for resident cold pages"),
    GMS_OPT("uvm_clockpro_adaptive", GMS_OPT_BOOL, uvm.pol.clockpro_adaptive, "0", "CLOCK-Pro: adapt m_c (+1 on a test-period hit, -1 on expiry) as the original"),
    GMS_OPT("uvm_policy_refs", GMS_OPT_BOOL, uvm.pol.refs_all, "0", "RRIP, CLOCK-Pro, HPE's ideal mode: 0 walk-level references (walk hits and faults, spec 003), 1 every reference"),
    /* batch-aware UVM (spec 004, docs/batch-aware.md) */
    GMS_OPT("gms_uvm_ue", GMS_OPT_BOOL, uvm.ue, "0", "batch runtime: unobtrusive eviction (one eviction ahead at batch start, each migration paired with an eviction)"),
    GMS_OPT("gms_uvm_evict_serial", GMS_OPT_BOOL, uvm.evict_serial, "0", "batch runtime: the driver's serialised eviction (a write-back and a migration never overlap)"),
    GMS_OPT("gms_uvm_evict_instant", GMS_OPT_BOOL, uvm.evict_instant, "0", "ideal eviction: a victim's frame is free at once, nothing is copied back"),
    GMS_OPT("gms_pcie_compress", GMS_OPT_DOUBLE, uvm.pcie_compress, "1", "PCIe compression: a transfer of S bytes takes the time of S / F bytes (1 = off)"),
    GMS_OPT("gms_uvm_batch_stats", GMS_OPT_BOOL, uvm.ba_stats, "0", "batch-aware statistics (premature evictions, page lifetime, batch-size histogram); on with any gms_uvm_ option"),
    GMS_OPT("gms_uvm_to", GMS_OPT_BOOL, uvm.to, "0", "thread oversubscription: extra inactive blocks per SM, context-switched in when every warp of an active block waits on far faults"),
    GMS_OPT("gms_uvm_to_factor", GMS_OPT_U32, uvm.to_factor, "2", "thread oversubscription: runnable blocks per SM at most F x the hardware limit (2..8; the paper uses 2 and 3)"),
    GMS_OPT("gms_uvm_to_extra_blocks", GMS_OPT_U32, uvm.to_extra_blocks, "0", "thread oversubscription: extra (inactive) blocks per SM at most N, and never more than (F - 1) x the kernel's blocks per SM; 0 = that bound (the paper's Fig. 5: 1)"),
    GMS_OPT("gms_uvm_to_dynamic", GMS_OPT_BOOL, uvm.to_dynamic, "1", "thread oversubscription: 1 = one extra block, +1 per epoch, -1 and frozen on a page-lifetime drop; 0 = F x from the start"),
    GMS_OPT("gms_uvm_ctx_switch_cycles", GMS_OPT_U64, uvm.ctx_switch_cycles, "680", "thread oversubscription: cycles to save or restore one block context (85 KB at 1024 bit/cycle = 680)"),
    GMS_OPT("gms_uvm_to_epoch", GMS_OPT_U64, uvm.to_epoch, "100000", "thread oversubscription: cycles between page-lifetime checks"),
    GMS_OPT("gms_uvm_to_drop", GMS_OPT_DOUBLE, uvm.to_drop, "0.2", "thread oversubscription: running-average page-lifetime drop that throttles (0.2 = 20%)"),
    GMS_OPT("gms_uvm_to_on_mem", GMS_OPT_BOOL, uvm.to_on_mem, "0", "thread oversubscription: switch a block out when every warp waits on memory, not only on far faults (the paper's Fig. 5 VT case)"),
    GMS_OPT("gms_uvm_to_reference", GMS_OPT_STRING, uvm.to_reference_str, "prev", "thread oversubscription: what a lifetime drop is measured against: prev (the previous epoch's average) or best (the highest average so far)"),
    GMS_OPT("gms_uvm_to_freeze", GMS_OPT_STRING, uvm.to_freeze_str, "permanent", "thread oversubscription: after a drop the degree stops growing for good (permanent) or until an epoch without a drop (until-no-drop)"),
    GMS_OPT("gms_uvm_to_cumulative", GMS_OPT_BOOL, uvm.to_cumulative, "0", "thread oversubscription: 1 = the running average of every evicted page's lifetime so far, 0 = of the epoch's evictions only"),
    GMS_OPT("gms_uvm_etc", GMS_OPT_BOOL, uvm.etc, "0", "ETC (Li et al. ASPLOS'19) for irregular workloads: memory-aware throttling and capacity compression, proactive eviction off (batch runtime)"),
    GMS_OPT("gms_uvm_etc_mt", GMS_OPT_BOOL, uvm.etc_mt, "1", "ETC: memory-aware throttling (half the SMs take no new block from the first eviction, then +-1 SM per detection epoch on re-faults)"),
    GMS_OPT("gms_uvm_etc_cc", GMS_OPT_DOUBLE, uvm.etc_cc, "1.5", "ETC: capacity compression ratio, the device holds F x its frames in pages (1 = off)"),
    GMS_OPT("gms_uvm_etc_detect", GMS_OPT_U64, uvm.etc_detect, "100000", "ETC: memory-aware throttling's detection epoch (cycles)"),
    GMS_OPT("gms_uvm_etc_exec", GMS_OPT_U64, uvm.etc_exec, "400000", "ETC: memory-aware throttling's execution epoch (cycles)"),
    GMS_OPT("gms_uvm_active_sms", GMS_OPT_U32, uvm.active_sms, "0", "only the first N SMs take thread blocks (core throttling fixed; 0 = all)"),
    GMS_OPT("gms_uvm_ws_window", GMS_OPT_U64, uvm.ws_window, "0", "report the working set: distinct managed pages touched per window of this many cycles (0 = off)"),
    /* The rest of UVMSmart's registry (gpu-sim.cc), with its types. Defaults are UVMSmart's
     * registered ones except -enable_accurate_simulation: spec 000b asks for the far-fault
     * latency on the critical path (UVMSmart's 1), so 0 is the one to ask for. */
    GMS_OPT("enable_accurate_simulation", GMS_OPT_BOOL, uvm.accurate_simulation, "1",
            "uvmsmart runtime: 1 = each far fault holds the H2D lane -page_fault_latency cycles before its transfer; "
            "0 = UVMSmart's default, faults cost nothing in the run and are added after it (Tot_kernel_exec_time_and_fault_time)"),
    GMS_OPT_X("reserve_accessed_page_percent", GMS_OPT_DOUBLE, uvm.reserve_accessed_page_pct, "0.0",
              "UVMSmart: % of the least recently used accessed units skipped by eviction", GMS_SYN_PLAIN,
              "eviction may take any resident unit; nothing is reserved"),
    GMS_OPT_X("enable_dma", GMS_OPT_INT, uvm.enable_dma, "0",
              "UVMSmart remote (zero-copy) access: 0 off, 1 adaptive, 2 always, 3 after oversubscription", GMS_SYN_PLAIN,
              "no remote access: every far fault migrates its page (dma_read stays 0)"),
    GMS_OPT_X("migrate_threshold", GMS_OPT_INT, uvm.migrate_threshold, "10",
              "UVMSmart: access-counter threshold before a remotely read block is migrated (with -enable_dma)", GMS_SYN_PLAIN,
              "only used by -enable_dma, which is not modelled"),
    GMS_OPT_X("multiply_dma_penalty", GMS_OPT_INT, uvm.multiply_dma_penalty, "0",
              "UVMSmart: threshold multiplier of adaptive DMA once oversubscribed (with -enable_dma 1)", GMS_SYN_PLAIN,
              "only used by -enable_dma, which is not modelled"),
    GMS_OPT_X("enable_smart_runtime", GMS_OPT_BOOL, uvm.smart_runtime, "0",
              "UVMSmart (DATE'21): access-pattern detection switching eviction and DMA at the first oversubscription",
              GMS_SYN_PLAIN, "the policies given stay in force for the whole run"),
    GMS_OPT("uvm_alloc_round", GMS_OPT_BOOL, uvm.alloc_round, "0",
            "1: a managed allocation spans UVMSmart's rounded size (full 2 MiB regions + the rest rounded up to a power "
            "of two >= 64 KiB), whose pages past the program's end the prefetcher may migrate (configs/gtx1080ti.config)"),
    GMS_OPT("uvm_sync_writeback", GMS_OPT_BOOL, uvm.sync_writeback, "0",
            "1: at each device synchronisation every resident dirty managed page is copied back to the host in "
            "UVMSmart's device-sync pieces on the D2H lane and invalidated (its cudaDeviceSynchronize; configs/gtx1080ti.config)"),
    GMS_OPT_X("sim_prof_enable", GMS_OPT_BOOL, uvm.sim_prof, "0",
              "UVMSmart's GMMU event profiler", GMS_SYN_PLAIN,
              "the per-event profile is not written; the Tot_* times are always in the statistics"),
};

static int fin(gms_params *p, gms_error *err)
{
    gms_uvm_params *u = &p->uvm;
    if (gms_param_at_most(u->tlb_size, 1u << 24, "tlb_size", "L1 TLB entries per SM", err)) return -1;
    if (u->page_size != 4096 && u->page_size != 65536 && u->page_size != 2097152)
        return gms_err(err, "-page_size: %llu bytes is not supported (4KB, 64KB or 2MB)", (unsigned long long)u->page_size);
    u->page_shift = (uint32_t)__builtin_ctzll(u->page_size);
    if (u->gddr_size && u->gddr_size < u->page_size)
        return gms_err(err, "-gddr_size: %llu bytes is below one page (%llu bytes)", (unsigned long long)u->gddr_size,
                       (unsigned long long)u->page_size);
    if (u->oversub_ratio != 0 && !(u->oversub_ratio >= 1.0))
        return gms_err(err, "-uvm_oversub_ratio: %g is below 1.0 (ratio = footprint / capacity; 0 turns it off)", u->oversub_ratio);
    if (u->oversub_ratio != 0 && u->gddr_size)
        return gms_err(err, "-uvm_oversub_ratio and -gddr_size are both set; give one of them");
    if (!strcmp(u->oversub_basis_str, "footprint")) u->oversub_ws = 0;
    else if (!strcmp(u->oversub_basis_str, "working-set")) u->oversub_ws = 1;
    else return gms_err(err, "-uvm_oversub_basis: '%s' is not a basis (footprint or working-set)", u->oversub_basis_str);
    static const char *const basis_knob[] = { "uvm_oversub_basis", NULL };
    if (!strcmp(u->oversub_flag_str, "fault")) u->oversub_any_eviction = 0;
    else if (!strcmp(u->oversub_flag_str, "any-eviction")) u->oversub_any_eviction = 1;
    else return gms_err(err, "-gms_uvm_oversub_flag: '%s' is not one of fault, any-eviction", u->oversub_flag_str);
    if (gms_params_require(p, basis_knob, u->oversub_ratio > 0, "-uvm_oversub_ratio is set", err)) return -1;
    if (u->enable_dma < 0 || u->enable_dma > 3)
        return gms_err(err, "-enable_dma: %d is not a mode (0 off, 1 adaptive, 2 always, 3 after oversubscription)", u->enable_dma);
    if (!(u->reserve_accessed_page_pct >= 0 && u->reserve_accessed_page_pct < 100))
        return gms_err(err, "-reserve_accessed_page_percent: %g must be in [0, 100)", u->reserve_accessed_page_pct);
    if (!(u->free_page_buffer_pct >= 0 && u->free_page_buffer_pct < 100))
        return gms_err(err, "-percentage_of_free_page_buffer: %g must be in [0, 100) (a percent of the frames)",
                       u->free_page_buffer_pct);
    if (u->tlb_size == 0) return gms_err(err, "-tlb_size: must be at least 1");
    if (u->tlb_assoc && u->tlb_size % u->tlb_assoc)
        return gms_err(err, "-uvm_tlb_assoc: %u does not divide -tlb_size %u", u->tlb_assoc, u->tlb_size);
    if (u->l2_tlb_size && u->l2_tlb_assoc && u->l2_tlb_size % u->l2_tlb_assoc)
        return gms_err(err, "-uvm_l2_tlb_assoc: %u does not divide -uvm_l2_tlb_size %u", u->l2_tlb_assoc, u->l2_tlb_size);
    if (u->ptw_latency == 0) return gms_err(err, "-page_table_walk_latency: must be at least 1 cycle");
    if (!strcmp(u->split_at_fault_str, "auto")) u->split_at_fault = -1;
    else if (!strcmp(u->split_at_fault_str, "0") || !strcmp(u->split_at_fault_str, "1"))
        u->split_at_fault = u->split_at_fault_str[0] - '0';
    else return gms_err(err, "-uvm_split_at_fault: '%s' is not one of auto, 0, 1", u->split_at_fault_str);
    if ((u->runtime_id = gms_uvm_runtime_find(u->runtime_str)) < 0)
        return gms_reg_unknown(&gms_uvm_runtime_reg, u->runtime_str, err);
    u->fault_frames_at_fault = !strcmp(u->fault_frames_str, "fault");
    u->fault_item_counted = !strcmp(u->fault_frames_str, "data-counted");
    if (!u->fault_frames_at_fault && !u->fault_item_counted && strcmp(u->fault_frames_str, "data"))
        return gms_err(err, "-gms_uvm_fault_frames: '%s' is not one of data, data-counted, fault", u->fault_frames_str);
    static const char *const ff_knob[] = { "gms_uvm_fault_frames", NULL };
    if (gms_params_require(p, ff_knob, !strcmp(u->runtime_str, "uvmsmart") && u->accurate_simulation,
                           "the fault runtime is uvmsmart with -enable_accurate_simulation 1 (a fault time on the lane)", err))
        return -1;
    if (!strcmp(u->evict_wb_count_str, "auto")) u->evict_wb_twice = !strcmp(u->runtime_str, "uvmsmart");
    else if (!strcmp(u->evict_wb_count_str, "twice")) u->evict_wb_twice = 1;
    else if (!strcmp(u->evict_wb_count_str, "once")) u->evict_wb_twice = 0;
    else return gms_err(err, "-gms_uvm_evict_wb_count: '%s' is not one of auto, twice, once", u->evict_wb_count_str);
    if (!strcmp(u->gmmu_intake_str, "auto")) {
        u->gmmu_intake = !strcmp(u->runtime_str, "uvmsmart");
    } else {
        char *end;
        unsigned long v = strtoul(u->gmmu_intake_str, &end, 10);
        if (!*u->gmmu_intake_str || *end || u->gmmu_intake_str[0] == '-' || v > 64)
            return gms_err(err, "-gms_uvm_gmmu_intake: '%s' is not auto or a number 0-64", u->gmmu_intake_str);
        u->gmmu_intake = (uint32_t)v;
    }
    if (u->fault_buffer_size == 0) return gms_err(err, "-uvm_fault_buffer_size: must be at least 1");
    if (!(u->fault_handling_us >= 0)) return gms_err(err, "-uvm_fault_handling_us: must not be negative");
    /* real drivers take tens of microseconds a batch; a second (1e6 us, billions of cycles per
     * batch) is far beyond any study and keeps cycle counts far from overflow */
    if (u->fault_handling_us > 1e6)
        return gms_err(err, "-uvm_fault_handling_us: %g us is more than 1e6 (one second per batch)", u->fault_handling_us);
    if (!strcmp(u->pcie_model_str, "atan")) u->pcie_linear = 0;
    else if (!strcmp(u->pcie_model_str, "linear")) u->pcie_linear = 1;
    else return gms_err(err, "-uvm_pcie_model: unknown model '%s' (atan, linear)", u->pcie_model_str);
    if (u->pcie_linear && !u->memcpy_half_speed)
        return gms_err(err, "-uvm_memcpy_half_speed 0: has no effect with -uvm_pcie_model linear (the rule is the atan model's)");
    if (!(u->pcie_bandwidth > 0)) return gms_err(err, "-pcie_bandwidth: must be positive");
    if (!u->pcie_linear && u->pcie_bandwidth != 16 && u->pcie_bandwidth != 32 && u->pcie_bandwidth != 64)
        return gms_err(err, "-pcie_bandwidth: %g GB/s; UVMSmart's atan model has curves for 16, 32 and 64 GB/s only "
                       "(use -uvm_pcie_model linear for other values)", u->pcie_bandwidth);
    if (u->pcie_d2h_bandwidth < 0) return gms_err(err, "-uvm_pcie_d2h_bandwidth: must not be negative");
    if (!u->pcie_linear && u->pcie_d2h_bandwidth != 0 && u->pcie_d2h_bandwidth != 16 && u->pcie_d2h_bandwidth != 32 &&
        u->pcie_d2h_bandwidth != 64)
        return gms_err(err, "-uvm_pcie_d2h_bandwidth: %g GB/s; the atan model takes 16, 32 or 64", u->pcie_d2h_bandwidth);
    /* the default block (64 KB) with larger pages (-page_size 2MB): one page, as a block cannot
     * be smaller than the unit it moves; a size the user gave is checked as given */
    if (!gms_params_is_set(p, "uvm_prefetch_size") && u->prefetch_size < u->page_size) u->prefetch_size = u->page_size;
    if (u->prefetch_size == 0 || u->prefetch_size % u->page_size)
        return gms_err(err, "-uvm_prefetch_size: %llu bytes is not a multiple of the page size (%llu bytes)",
                       (unsigned long long)u->prefetch_size, (unsigned long long)u->page_size);
    if (u->prefetch_size > GMS_UVM_LP_SIZE && u->prefetch_size > u->page_size)
        return gms_err(err, "-uvm_prefetch_size: %llu bytes is larger than a 2 MiB region", (unsigned long long)u->prefetch_size);
    char pf_ids[256], ev_ids[256];   /* the members' UVMSmart numbers, for errors */
    gms_uvm_prefetch_ids(pf_ids, sizeof pf_ids);
    gms_uvm_evict_ids(ev_ids, sizeof ev_ids);
    if (u->prefetch_str[0]) {
        if ((u->prefetch_id = gms_uvm_prefetch_find(u->prefetch_str)) < 0)
            return gms_reg_unknown(&gms_uvm_prefetch_reg, u->prefetch_str, err);
    } else if ((u->prefetch_id = gms_uvm_prefetch_find_id(u->hardware_prefetch)) < 0)
        return gms_err(err, "-hardware_prefetch: unknown prefetcher %d; known: %s", u->hardware_prefetch,
                       pf_ids);
    char known[256];
    gms_reg_known(&gms_uvm_prefetch_reg, known, sizeof known);
    if (u->prefetch_oversub_str[0]) {
        if ((u->prefetch_oversub_id = gms_uvm_prefetch_find(u->prefetch_oversub_str)) < 0)
            return gms_err(err, "-uvm_prefetcher_oversub: unknown prefetcher '%s'; known: %s", u->prefetch_oversub_str,
                           known);
    } else if ((u->prefetch_oversub_id = gms_uvm_prefetch_find_id(u->hwprefetch_oversub)) < 0)
        return gms_err(err, "-hwprefetch_oversub: unknown prefetcher %d; known: %s", u->hwprefetch_oversub,
                       pf_ids);
    if (u->eviction_str[0]) {
        if ((u->evict_id = gms_uvm_evict_find(u->eviction_str)) < 0)
            return gms_reg_unknown(&gms_uvm_evict_reg, u->eviction_str, err);
    } else if ((u->evict_id = gms_uvm_evict_find_id(u->eviction_policy)) < 0) {
        if (u->eviction_policy == 4)
            return gms_err(err, "-eviction_policy: 4 (UVMSmart's LFU 2MB) is not implemented; known: %s",
                           ev_ids);
        return gms_err(err, "-eviction_policy: unknown policy %d; known: %s", u->eviction_policy,
                       ev_ids);
    }
    if (!strcmp(u->evict_invalid_at_str, "auto")) u->evict_invalid_at_start = !strcmp(gms_uvm_runtimes[u->runtime_id]->name, "uvmsmart");
    else if (!strcmp(u->evict_invalid_at_str, "end")) u->evict_invalid_at_start = 0;
    else if (!strcmp(u->evict_invalid_at_str, "start")) u->evict_invalid_at_start = 1;
    else return gms_err(err, "-uvm_evict_invalid_at: '%s' is not one of auto, end, start", u->evict_invalid_at_str);
    if (!strcmp(u->tree_fill_str, "exact")) u->tree_fill_uvmsmart = 0;
    else if (!strcmp(u->tree_fill_str, "uvmsmart")) u->tree_fill_uvmsmart = 1;
    else return gms_err(err, "-uvm_tree_fill: '%s' is not one of exact, uvmsmart", u->tree_fill_str);
    const char *oa = u->lru_on_access_str;
    if (!strcmp(oa, "1") || !strcmp(oa, "true")) u->lru_on_access = GMS_LRU_ON_ACCESS;
    else if (!strcmp(oa, "0") || !strcmp(oa, "false")) u->lru_on_access = GMS_LRU_ON_MIGRATION;
    else if (!strcmp(oa, "walk")) u->lru_on_access = GMS_LRU_ON_WALK;
    else return gms_err(err, "-uvm_lru_on_access: '%s' is not one of 1, 0, walk", oa);
    if (gms_uvm_ba_finalize(p, err)) return -1;   /* batch-aware options (ue.c) */
    /* as UE with instant eviction (ue.c): nothing is written back, so there is no write-back
     * for a migration to wait on */
    if (u->evict_serial && u->evict_instant)
        return gms_err(err, "-gms_uvm_evict_serial and -gms_uvm_evict_instant are both 1: with instant eviction nothing "
                       "is written back, so there is nothing to serialise; give one of them");
    /* core is finalized first: the GPU's SMs are known (0 when this module is finalized alone) */
    if (p->core.n_sm && u->active_sms > p->core.n_sm)
        return gms_err(err, "-gms_uvm_active_sms: %u is more than the GPU's %u SMs (1..%u, or 0 for all)", u->active_sms,
                       p->core.n_sm, p->core.n_sm);
    if (gms_uvm_policy_finalize(u, err)) return -1;   /* the seeds' policies: checks and -uvm_policy */
    if (u->pol.refs_all && u->pol.hpe_hir_entries > 0 && !strcmp(gms_uvm_evictors[u->evict_id]->name, "hpe"))
        return gms_err(err, "-uvm_policy_refs 1 with HPE needs the ideal model (-uvm_hpe_hir_entries 0): the HIR sees "
                       "page walks only");
    if (u->pol.ture_renew && gms_params_is_set(p, "uvm_ture_count_faulted"))
        return gms_err(err, "-uvm_ture_count_faulted: counts down a countdown lease; under -uvm_ture_lease renew a "
                       "reference renews the lease and there is nothing to count down");
    /* after the presets (they set the eviction): only a limited memory, or TURE's table-full
     * trigger, ever evicts, so the flag's reading matters nowhere else */
    static const char *const flag_knob[] = { "gms_uvm_oversub_flag", NULL };
    int can_evict = u->oversub_ratio > 0 || u->gddr_size || !strcmp(gms_uvm_evictors[u->evict_id]->name, "ture");
    if (gms_params_require(p, flag_knob, can_evict,
                           "device memory is limited (-uvm_oversub_ratio, -gddr_size) or the eviction is TURE", err))
        return -1;
    return 0;
}

static void dump(const gms_params *p, FILE *out)
{
    const gms_uvm_params *u = &p->uvm;
    fprintf(out, "UVM page: %llu KiB pages, 64 KiB basic blocks, 2 MiB regions\n", (unsigned long long)(u->page_size >> 10));
    if (u->gddr_size) fprintf(out, "UVM capacity: %llu MiB of device memory\n", (unsigned long long)(u->gddr_size >> 20));
    else if (u->oversub_ratio > 0 && u->oversub_ws)
        fprintf(out, "UVM capacity: working set / %g (%.0f%% oversubscription); the working set is the managed pages the\n"
                "  program's kernels touch (a built-in workload is walked once first)\n",
                u->oversub_ratio, u->oversub_ratio * 100);
    else if (u->oversub_ratio > 0)
        fprintf(out, "UVM capacity: managed footprint / %g (%.0f%% oversubscription); the footprint is the program's whole\n"
                "  managed footprint (a built-in workload is walked once first), else the sum at the first kernel launch\n",
                u->oversub_ratio, u->oversub_ratio * 100);
    else fprintf(out, "UVM capacity: unlimited\n");
    fprintf(out, "UVM TLB: %u entries per SM, %s, +%u cycles on a hit; L2 TLB: ", u->tlb_size,
            u->tlb_assoc ? "set-associative" : "fully associative", u->tlb_hit_latency);
    if (u->l2_tlb_size) fprintf(out, "%u entries, %u-way, %u cycles\n", u->l2_tlb_size, u->l2_tlb_assoc, u->l2_tlb_latency);
    else fprintf(out, "none\n");
    fprintf(out, "UVM page walk: %u cycles, %s\n", u->ptw_latency, u->max_walks ? "bounded concurrency" : "unbounded concurrency");
    if (u->gmmu_intake)
        fprintf(out, "UVM GMMU intake: %u TLB-missed access(es) per SM cluster per core cycle, in order\n", u->gmmu_intake);
    else
        fprintf(out, "UVM GMMU intake: unlimited (-gms_uvm_gmmu_intake 0)\n");
    const gms_uvm_runtime_ops *rt = gms_uvm_runtimes[u->runtime_id];
    char costs[256] = "";
    if (rt->describe) rt->describe(u, costs, sizeof costs);
    fprintf(out, "UVM fault runtime: %s%s%s\n", rt->name, costs[0] ? " " : "", costs);
    fprintf(out, "UVM migration transfers: %s%s\n",
            gms_uvm_cuts_after_fault(u) ? "cut just after each faulted page" : "one per contiguous run of pages",
            u->split_at_fault < 0 ? " (the runtime's own)" : "");
    fprintf(out, "UVM PCIe: %s model, %g GB/s host-to-device, %g GB/s device-to-host\n", u->pcie_linear ? "linear" : "atan",
            u->pcie_bandwidth, u->pcie_d2h_bandwidth > 0 ? u->pcie_d2h_bandwidth : u->pcie_bandwidth);
    fprintf(out, "UVM prefetcher: %s, then %s once oversubscribed (%s)\n", gms_uvm_prefetchers[u->prefetch_id]->name,
            gms_uvm_prefetchers[u->prefetch_oversub_id]->name,
            u->oversub_any_eviction ? "from the first page evicted" : "from the first fault that finds memory full");
    fprintf(out, "UVM eviction trigger: projected occupancy above %g%% of the frames; a write-back on the D2H lane "
            "counts %s\n", 100 - u->free_page_buffer_pct,
            u->evict_wb_twice ? "as pending until it ends, its frames freed already (UVMSmart's count)" : "only as freed");
    fprintf(out, "UVM eviction: %s (%s LRU), clean pages %s\n", gms_uvm_evictors[u->evict_id]->name,
            u->lru_on_access == GMS_LRU_ON_ACCESS ? "access-based"
            : u->lru_on_access == GMS_LRU_ON_WALK ? "walk-based" : "age-based", u->invalidate_clean ? "dropped" : "written back");
    /* UVMSmart's eviction details (docs/uvm.md "Differences" 3-4c): only when asked for */
    if (u->pol.random_region && !strcmp(gms_uvm_evictors[u->evict_id]->name, "random"))
        fprintf(out, "UVM random eviction: a random wholly resident 2 MiB region's first page, the region then out of "
                "the list until touched (UVMSmart's code)\n");
    const char *evn = gms_uvm_evictors[u->evict_id]->name;
    if (u->evict_whole && (!strcmp(evn, "lru64k") || !strcmp(evn, "lru2m") || !strcmp(evn, "tree")))
        fprintf(out, "UVM LRU/tree units: wholly resident ones only; when none is, %s\n",
                u->evict_whole_wait ? "wait while a migration is on the link, else the least recently used"
                                    : "the least recently used");
    if (u->lru_region_first && (!strcmp(evn, "lru64k") || !strcmp(evn, "tree")))
        fprintf(out, "UVM 64 KiB-block LRU order: 2 MiB regions by their most recently used block, oldest first, "
                "then blocks by recency (UVMSmart's sort_valid_pages)\n");
    fprintf(out, "UVM victims written back: %s\n",
            u->evict_invalid_at_start ? "absent from the write-back's start (UVMSmart: they may fault and migrate in "
                                        "again while it goes on)"
                                      : "absent when the write-back ends (a fault on one waits for the end)");
    if (u->tree_fill_uvmsmart)
        fprintf(out, "UVM tree prefetcher: UVMSmart's leaf sizes (a whole leaf per faulted page, fills only empty leaves)\n");
    if (u->evict_rescue)
        fprintf(out, "UVM write-back rescue: a %s or a cudaMemPrefetchAsync of a victim whose write-back waits cancels it; victims "
                "leave the TLBs %s\n", u->evict_tlb_keep ? "TLB hit, a walk" : "walk",
                u->evict_tlb_keep ? "when their write-back starts" : "when chosen");
    if (!strcmp(gms_uvm_evictors[u->evict_id]->name, "ture")) {
        const gms_uvm_policy_params *pp = &u->pol;
        fprintf(out, "UVM TURE: sampler %u entries (%s), active %u of every %u cycles; lease %s; coalescing table %u "
                "granules; %u granules per memory-full eviction (%s)\n", pp->ture_sampler,
                pp->ture_group_cap ? "capped per group" : "first come", pp->ture_window, pp->ture_period,
                pp->ture_renew ? "renewed on each reference (logical clock)"
                                : pp->ture_count_faulted ? "counts down the page's references, faulted ones on arrival"
                                                         : "counts down the page's references while resident",
                pp->ture_table, pp->ture_evict_blocks,
                pp->ture_pressure_lru ? "least recently used blocks" : "least recently updated table entries first");
    }
    /* batch-aware (docs/batch-aware.md): only when asked for, so the default dump is unchanged */
    if (u->ue || u->evict_serial || u->evict_instant)
        fprintf(out, "UVM eviction schedule: %s\n", u->ue ? "unobtrusive (one eviction ahead, then paired with migrations)"
                : u->evict_serial ? "serialised (evict, then migrate, page by page)" : "instant (frames free at once, nothing copied)");
    if (u->pcie_compress != 1.0) fprintf(out, "UVM PCIe compression: %gx fewer bytes on the link\n", u->pcie_compress);
    if (u->to)
        fprintf(out, "UVM thread oversubscription: up to %ux the hardware's blocks per SM, %s, %llu cycles per context "
                "saved or restored, switch on %s\n", u->to_factor,
                u->to_dynamic ? (u->to_cumulative ? "degree controlled by the running-average page lifetime"
                                 : "degree controlled by each epoch's page lifetime") : "fixed", (unsigned long long)u->ctx_switch_cycles,
                u->to_on_mem ? "any full memory stall" : "full far-fault stalls");
    if (u->to && u->to_dynamic)
        fprintf(out, "UVM thread oversubscription degree: a %g%% lifetime drop against %s takes a block and stops growth %s\n",
                u->to_drop * 100, u->to_ref_best ? "the best average so far" : "the previous epoch's average",
                u->to_freeze_lifts ? "until an epoch without a drop" : "for good");
    if (u->etc)
        fprintf(out, "UVM ETC: memory-aware throttling %s (detection %llu, execution %llu cycles), capacity compression %gx, "
                "proactive eviction off\n", u->etc_mt ? "on" : "off", (unsigned long long)u->etc_detect,
                (unsigned long long)u->etc_exec, u->etc_cc);
    if (u->active_sms) fprintf(out, "UVM active SMs: the first %u take blocks\n", u->active_sms);
    if (u->ws_window) fprintf(out, "UVM working set: distinct pages per %llu cycles\n", (unsigned long long)u->ws_window);
}

/* A run that allocated no managed memory: the UVM policies' options it was given had nothing to
 * act on (a forgotten uvm=1 is the usual cause), so they are named. Not named: what acts on
 * explicit copies or on every run (device size, page and TLB geometry, PCIe, the active SMs),
 * what the presets set for every run (allocation rounding, the sync write-back), and
 * -uvm_oversub_ratio, which says so itself (gms_uvm_report). */
static int acts_anyway(const char *name)
{
    static const char *const keep[] = {
        "gddr_size", "page_size", "uvm_reserved_bytes", "tlb_size", "uvm_tlb_", "uvm_l2_tlb_", "page_table_walk_latency",
        "uvm_max_concurrent_walks", "gms_uvm_gmmu_intake", "pcie_bandwidth", "uvm_pcie_", "uvm_memcpy_half_speed",
        "gms_pcie_compress", "gms_uvm_active_sms", "gms_uvm_ws_window", "uvm_oversub_ratio", "uvm_alloc_round",
        "uvm_sync_writeback", "sim_prof_enable", "uvm_batch_csv", "gms_uvm_batch_stats", "uvm_page_trace_out", NULL };
    for (int k = 0; keep[k]; k++) {
        size_t L = strlen(keep[k]);
        if (keep[k][L - 1] == '_' ? !strncmp(name, keep[k], L) : !strcmp(name, keep[k])) return 1;
    }
    return 0;
}

void gms_uvm_warn_unmanaged(const gms_params *p, FILE *out)
{
    size_t n = 0;
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++) n += !acts_anyway(opts[i].name) && gms_params_is_set(p, opts[i].name);
    if (!n) return;
    fprintf(out, "gpumemsim: warning: set, but the run allocated no managed memory, so they had no effect:");
    for (size_t i = 0, k = 0; i < sizeof opts / sizeof opts[0]; i++)
        if (!acts_anyway(opts[i].name) && gms_params_is_set(p, opts[i].name)) fprintf(out, "%s -%s", k++ ? "," : "", opts[i].name);
    fprintf(out, " (a built-in workload's uvm=1 manages its arrays; traces have none)\n");
}

const gms_config_module gms_config_module_uvm = { "uvm", opts, sizeof opts / sizeof opts[0], fin, dump };
