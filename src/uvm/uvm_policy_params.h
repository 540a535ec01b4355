/* Options of the seeds' UVM policies: CAP, TURE (spec 000b 2.2-2.4), HPE, RRIP, CLOCK-Pro
 * (spec 003 4-5), the combined preset names, and which references the page-level baselines
 * see. Options in src/uvm/uvm_options.c; every one is described in docs/uvm-policies.md. */
#ifndef GMS_UVM_POLICY_PARAMS_H
#define GMS_UVM_POLICY_PARAMS_H
#include <stdint.h>
#include "config/option.h"

typedef struct gms_uvm_policy_params {
    char preset[GMS_OPT_STRLEN];   /* -uvm_policy: rpre, spse, tpte, tpne, capture, ... ("" = none) */
    /* CAP */
    double cap_c;                  /* -uvm_cap_c: the c of Eq. 4.1 (1.1) */
    uint64_t cap_min, cap_max;     /* -uvm_cap_min / -uvm_cap_max: smallest and largest candidate */
    uint64_t cap_oversub;          /* -uvm_cap_oversub_size: granularity once oversubscribed (512 KiB) */
    /* TURE */
    uint32_t ture_window, ture_period;   /* -uvm_ture_window / -uvm_ture_period: sampler active D of every S cycles */
    uint32_t ture_sampler;         /* -uvm_ture_sampler_entries (16) */
    int ture_group_cap;            /* -uvm_ture_group_cap: at most max(1, round(entries x size_g / Magg)) per group */
    uint32_t ture_table;           /* -uvm_ture_table_entries (256) */
    uint32_t ture_evict_blocks;    /* -uvm_ture_evict_blocks: granules per memory-full eviction (4) */
    uint32_t ture_max_lease;       /* -uvm_ture_max_lease: 10-bit PTE field (1023) */
    double ture_weight;            /* -uvm_ture_weight: weight of the old lease in the smoothing (0.5) */
    double ture_scale;             /* -uvm_ture_scale: lease = scale x per-window accesses per page (1) */
    char ture_lease_str[GMS_OPT_STRLEN]; /* -uvm_ture_lease: countdown | renew */
    int ture_renew;                /* decoded: 1 = logical-clock lease renewed on each reference */
    char ture_pressure_str[GMS_OPT_STRLEN]; /* -uvm_ture_pressure: table | lru */
    int ture_pressure_lru;         /* decoded: 1 = memory-full evictions take the LRU blocks only */
    int ture_count_faulted;        /* -uvm_ture_count_faulted: references that found the page absent count down its lease on arrival */
    int ture_rescue_recall;        /* -uvm_ture_rescue_recall: a rescued write-back's pages are recalled, not migrated in */
    /* Random */
    char random_pick_str[GMS_OPT_STRLEN]; /* -uvm_random_pick: page | region */
    int random_region;             /* decoded: 1 = UVMSmart's code (a region's first page, the region dropped) */
    /* HPE */
    uint32_t hpe_set;              /* -uvm_hpe_set_pages: page set size S (16) */
    uint32_t hpe_interval;         /* -uvm_hpe_interval: faults per interval (64) */
    uint32_t hpe_transfer;         /* -uvm_hpe_transfer: HIR sent every N faults (16) */
    uint32_t hpe_hir_entries, hpe_hir_ways;  /* -uvm_hpe_hir_entries / _ways (1024, 8); 0 entries = ideal (no HIR) */
    uint32_t hpe_hir_bits;         /* -uvm_hpe_hir_counter_bits (2) */
    uint32_t hpe_sat;              /* -uvm_hpe_counter_max: page-set counter saturation (64) */
    double hpe_ratio1, hpe_ratio2; /* -uvm_hpe_ratio1 / -uvm_hpe_ratio2 thresholds (0.3, 2) */
    uint32_t hpe_fifo;             /* -uvm_hpe_fifo: wrong-eviction FIFO depth (128) */
    uint32_t hpe_wrong;            /* -uvm_hpe_wrong: wrong evictions that trigger an adjustment (16) */
    uint32_t hpe_jump;             /* -uvm_hpe_jump: MRU-C search-point jump in page sets (16) */
    int hpe_adjust;                /* -uvm_hpe_adjust: Algorithm 1 on/off */
    /* RRIP, CLOCK-Pro */
    uint32_t rrip_bits;            /* -uvm_rrip_bits: M (2) */
    int rrip_distant;              /* -uvm_rrip_insert: 0 long (2^M-2), 1 distant (2^M-1) */
    uint32_t rrip_delay;           /* -uvm_rrip_delay: faults a page is protected after insertion */
    uint32_t clockpro_cold;        /* -uvm_clockpro_cold: m_c, frames for cold pages (128) */
    int clockpro_adaptive;         /* -uvm_clockpro_adaptive: adapt m_c as the original */
    int refs_all;                  /* -uvm_policy_refs: 0 walk (walk hits + faults, spec 003's ideal model), 1 every reference */
} gms_uvm_policy_params;

#endif
