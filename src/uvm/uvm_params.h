/* Unified-memory options (UVMSmart names where they exist, ours prefixed uvm_). Owner: src/uvm.
 * Options in src/uvm/uvm_options.c; every option is described in docs/uvm.md. */
#ifndef GMS_UVM_PARAMS_H
#define GMS_UVM_PARAMS_H
#include <stdint.h>
#include "config/option.h"
#include "uvm/uvm_policy_params.h"

/* -uvm_lru_on_access: when an LRU order is refreshed besides a migration in */
enum { GMS_LRU_ON_MIGRATION = 0, GMS_LRU_ON_ACCESS = 1, GMS_LRU_ON_WALK = 2 };

typedef struct gms_uvm_params {
    uint64_t gddr_size;        /* -gddr_size (bytes); 0 = unlimited */
    /* ---- raw options ---- */
    uint64_t page_size;        /* -page_size: 4KB (default), 64KB or 2MB */
    double oversub_ratio;      /* -uvm_oversub_ratio: footprint / capacity (1.25 = 125%); 0 = off */
    char oversub_basis_str[GMS_OPT_STRLEN]; /* -uvm_oversub_basis: footprint | working-set */
    int oversub_ws;            /* derived: 1 = the ratio divides the pages the kernels touch */
    char oversub_flag_str[GMS_OPT_STRLEN]; /* -gms_uvm_oversub_flag: fault | any-eviction */
    int oversub_any_eviction;  /* derived: 1 = any page leaving the GPU sets the sticky flag */
    uint64_t reserved_bytes;   /* -uvm_reserved_bytes: device memory not usable for managed pages */
    double free_page_buffer_pct;   /* -percentage_of_free_page_buffer: percent (UVMSmart's float, e.g. 2.5) */
    int invalidate_clean;      /* -invalidate_clean: 1 = clean pages are dropped, not written back */

    /* translation */
    uint32_t tlb_size;         /* -tlb_size: L1 TLB entries per SM */
    uint32_t tlb_assoc;        /* -uvm_tlb_assoc: 0 = fully associative */
    uint32_t tlb_hit_latency;  /* -uvm_tlb_hit_latency: extra core cycles on an L1 TLB hit (0: in the LSU cycle) */
    uint32_t l2_tlb_size;      /* -uvm_l2_tlb_size: shared L2 TLB entries, 0 = none */
    uint32_t l2_tlb_assoc;     /* -uvm_l2_tlb_assoc */
    uint32_t l2_tlb_latency;   /* -uvm_l2_tlb_latency (core cycles) */
    uint32_t ptw_latency;      /* -page_table_walk_latency (core cycles) */
    uint32_t max_walks;        /* -uvm_max_concurrent_walks: 0 = unlimited (UVMSmart) */
    char gmmu_intake_str[GMS_OPT_STRLEN];  /* -gms_uvm_gmmu_intake: auto | 0 | N */
    uint32_t gmmu_intake;      /* decoded: TLB misses a cluster hands the GMMU per core cycle, 0 = unlimited */

    /* fault runtime */
    char runtime_str[GMS_OPT_STRLEN];   /* -uvm_runtime: uvmsmart | batch */
    char split_at_fault_str[GMS_OPT_STRLEN]; /* -uvm_split_at_fault: auto | 0 | 1 */
    int split_at_fault;                 /* decoded: -1 = the runtime's own, 0 = one run, 1 = cut after each faulted page */
    uint64_t page_fault_latency;        /* -page_fault_latency (core cycles), UVMSmart runtime */
    char fault_frames_str[GMS_OPT_STRLEN]; /* -gms_uvm_fault_frames: data | data-counted | fault */
    int fault_frames_at_fault;          /* decoded: 1 = a transfer's frames are checked and taken before its fault time */
    int fault_item_counted;             /* decoded: 1 = a queued fault time counts as one page in the eviction trigger */
    char evict_wb_count_str[GMS_OPT_STRLEN]; /* -gms_uvm_evict_wb_count: auto | twice | once */
    int evict_wb_twice;                 /* decoded: 1 = the running write-back's pages count as pending too (UVMSmart) */
    double fault_handling_us;           /* -uvm_fault_handling_us: batch runtime, per batch */
    uint64_t fault_handling_per_fault;  /* -uvm_fault_handling_per_fault: extra cycles per fault */
    uint32_t fault_buffer_size;         /* -uvm_fault_buffer_size */
    char batch_csv[GMS_OPT_STRLEN];     /* -uvm_batch_csv: per-batch records, "" = none */

    /* PCIe */
    double pcie_bandwidth;              /* -pcie_bandwidth (GB/s): 16, 32 or 64 for the atan model */
    double pcie_d2h_bandwidth;          /* -uvm_pcie_d2h_bandwidth: 0 = same as -pcie_bandwidth */
    char pcie_model_str[GMS_OPT_STRLEN];/* -uvm_pcie_model: atan | linear */
    int memcpy_half_speed;              /* -uvm_memcpy_half_speed: atan model, explicit copies >= 2 MiB at half speed */
    uint64_t pcie_latency;              /* -uvm_pcie_latency: fixed cycles per transfer (linear) */

    /* prefetchers */
    int hardware_prefetch;              /* -hardware_prefetch: 0 off, 1 tree, 2 seq-local, 3 random */
    int hwprefetch_oversub;             /* -hwprefetch_oversub: same numbering */
    char prefetch_str[GMS_OPT_STRLEN];  /* -uvm_prefetcher: name; overrides -hardware_prefetch */
    char prefetch_oversub_str[GMS_OPT_STRLEN]; /* -uvm_prefetcher_oversub */
    uint64_t prefetch_size;             /* -uvm_prefetch_size: sequential-local block */
    char tree_fill_str[GMS_OPT_STRLEN]; /* -uvm_tree_fill: exact | uvmsmart */
    int tree_fill_uvmsmart;             /* decoded: the tree prefetcher reads UVMSmart's leaf sizes (docs/uvm.md Differences 13) */

    /* eviction */
    int eviction_policy;                /* -eviction_policy: UVMSmart numbering */
    char eviction_str[GMS_OPT_STRLEN];  /* -uvm_eviction: name; overrides -eviction_policy */
    char lru_on_access_str[GMS_OPT_STRLEN]; /* -uvm_lru_on_access: 1 | 0 | walk */
    int lru_on_access;                  /* decoded: GMS_LRU_ON_ACCESS (UVMSmart), _ON_MIGRATION (driver's age-based), _ON_WALK */
    int evict_whole;                    /* -uvm_evict_whole: LRU units with a page not resident are skipped (UVMSmart) */
    int evict_whole_wait;               /* -uvm_evict_whole_wait: none whole: wait for the migration on the link */
    int lru_region_first;               /* -uvm_lru_region_first: block LRUs ordered by region recency first (UVMSmart) */
    int evict_rescue;                   /* -uvm_evict_rescue: a walk to a page whose write-back waits cancels that eviction (UVMSmart) */
    int evict_tlb_keep;                 /* -uvm_evict_tlb_keep: victims stay in the TLBs until their write-back starts */
    char evict_invalid_at_str[GMS_OPT_STRLEN]; /* -uvm_evict_invalid_at: end | start */
    int evict_invalid_at_start;         /* decoded: a victim is absent from its write-back's start (UVMSmart) */
    char belady_trace[GMS_OPT_STRLEN];  /* -uvm_belady_trace: page sequence for belady */
    char page_trace_out[GMS_OPT_STRLEN];/* -uvm_page_trace_out: record the page sequence */
    int belady_progress;                /* -gms_uvm_belady_progress: match references by progress, not k-th */
    int opt_bound;                      /* -gms_uvm_opt_bound: MIN's faults on the functional string */

    /* UVMSmart options (its gpu-sim.cc registry), accepted with its defaults */
    int accurate_simulation;            /* -enable_accurate_simulation: 1 = fault latency on the critical path */
    double reserve_accessed_page_pct;   /* -reserve_accessed_page_percent: not modelled */
    int enable_dma;                     /* -enable_dma 0..3: not modelled (0 = off) */
    int migrate_threshold;              /* -migrate_threshold: DMA access-counter threshold, not modelled */
    int multiply_dma_penalty;           /* -multiply_dma_penalty: adaptive DMA, not modelled */
    int smart_runtime;                  /* -enable_smart_runtime: not modelled */
    int sim_prof;                       /* -sim_prof_enable: per-event profile, not written */
    int alloc_round;                    /* -uvm_alloc_round: 1 = managed sizes rounded as UVMSmart's cudaMallocManaged */
    int sync_writeback;                 /* -uvm_sync_writeback: 1 = UVMSmart's cudaDeviceSynchronize (dirty pages back, invalidated) */

    gms_uvm_policy_params pol;          /* the seeds' policies (uvm_policy_params.h) */

    /* batch-aware UVM (spec 004, docs/batch-aware.md) */
    int ue;                             /* -gms_uvm_ue: unobtrusive eviction (batch runtime) */
    int evict_serial;                   /* -gms_uvm_evict_serial: the paper's serialised evict -> migrate baseline */
    int evict_instant;                  /* -gms_uvm_evict_instant: ideal eviction (frames free at once, no D2H copy) */
    double pcie_compress;               /* -gms_pcie_compress: link bytes = bytes / F (1 = off) */
    int ba_stats;                       /* -gms_uvm_batch_stats: batch-aware statistics (on with any option above) */
    /* thread oversubscription (the SM side: src/core/thread_oversub.c) */
    int to;                             /* -gms_uvm_to: extra inactive blocks per SM, swapped in on far-fault stalls */
    uint32_t to_factor;                 /* -gms_uvm_to_factor: runnable blocks at most F x the hardware limit */
    uint32_t to_extra_blocks;           /* -gms_uvm_to_extra_blocks: extra blocks per SM at most (0: (F - 1) x the kernel's limit) */
    int to_dynamic;                     /* -gms_uvm_to_dynamic: 1 start at +1 and adapt on page lifetime; 0 fixed at F x */
    uint64_t ctx_switch_cycles;         /* -gms_uvm_ctx_switch_cycles: cycles to save (or restore) one block context */
    uint64_t to_epoch;                  /* -gms_uvm_to_epoch: cycles between lifetime checks */
    double to_drop;                     /* -gms_uvm_to_drop: lifetime drop (fraction) that throttles */
    int to_on_mem;                      /* -gms_uvm_to_on_mem: switch on any memory stall (VT, Fig. 5), not far faults only */
    int to_cumulative;                  /* -gms_uvm_to_cumulative: lifetime average over all evictions (1) or the epoch's (0) */
    char to_reference_str[GMS_OPT_STRLEN]; /* -gms_uvm_to_reference: prev | best */
    int to_ref_best;                    /* decoded: compare with the best average so far, not the previous epoch's */
    char to_freeze_str[GMS_OPT_STRLEN]; /* -gms_uvm_to_freeze: permanent | until-no-drop */
    int to_freeze_lifts;                /* decoded: an epoch without a drop lifts the freeze */
    /* ETC, the comparison point (src/uvm/etc.c) and the core-count working-set sweep (Fig. 1) */
    int etc;                            /* -gms_uvm_etc: memory-aware throttling + capacity compression (PE off) */
    int etc_mt;                         /* -gms_uvm_etc_mt: memory-aware throttling part */
    double etc_cc;                      /* -gms_uvm_etc_cc: capacity compression ratio (1 = off) */
    uint64_t etc_detect, etc_exec;      /* -gms_uvm_etc_detect / _exec: MT's epoch lengths (cycles) */
    uint32_t active_sms;                /* -gms_uvm_active_sms: only the first N SMs take blocks (0 = all) */
    uint64_t ws_window;                 /* -gms_uvm_ws_window: working-set window in cycles (0 = off) */

    /* ---- decoded by finalize ---- */
    uint32_t page_shift;
    int runtime_id;                     /* index into the runtime registry */
    int prefetch_id, prefetch_oversub_id; /* index into the prefetcher registry */
    int evict_id;                       /* index into the eviction registry */
    int pcie_linear;                    /* 1 = latency + size / bandwidth */
} gms_uvm_params;

#endif
