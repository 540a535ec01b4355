/* Memory partition options: partition mapping, L2 slices, DRAM. Owner: src/mem (memsys,
 * l2, dram, addrdec). Options in src/mem/memsys_options.c; raw strings are decoded by its
 * finalize into the fields marked "decoded". */
#ifndef GMS_MEM_MEMSYS_PARAMS_H
#define GMS_MEM_MEMSYS_PARAMS_H
#include <stdint.h>
#include "config/option.h"
#include "mem/addrdec.h"
#include "mem/cache.h"
#include "mem/dram_timing.h"
#include "mem/l2q.h"

typedef struct gms_memsys_params {
    uint32_t n_mem;                        /* -gpgpu_n_mem: memory channels */
    uint32_t n_sub_partition_per_mchannel; /* -gpgpu_n_sub_partition_per_mchannel */

    /* L2 slice (one per sub-partition) */
    char dl2_str[GMS_OPT_STRLEN];          /* -gpgpu_cache:dl2 (size is per slice) */
    gms_cache_config dl2;                  /* decoded */
    int dl2_texture_only;                  /* -gpgpu_cache:dl2_texture_only (accepted; no texture path) */
    uint32_t rop_latency;                  /* -gpgpu_l2_rop_latency (alias -rop_latency), core cycles */
    char partition_queues_str[GMS_OPT_STRLEN]; /* -gpgpu_dram_partition_queues i2$:$2d:d2$:$2i */
    uint32_t q_icnt_l2, q_l2_dram, q_dram_l2, q_l2_icnt;   /* decoded (0 = unbounded) */
    char l2_mshr_design[32];               /* -gms_l2_mshr: the L2 slices' MSHR design (mshr.h) */
    uint32_t l2_bxor_t_shift;              /* -gms_l2_bxor_t_shift: BXOR's t at addr[s+k-1:s] (0 = b + k) */
    char l2_dlmshr_str[GMS_OPT_STRLEN];    /* -gms_l2_dlmshr: DL-MSHR parameters (mshr_params.h) */
    uint32_t l2_mshr_latency;              /* -gms_l2_mshr_latency: access cycles, 0 = the design's */
    char l2q[32];                          /* -gms_l2_input_queue: fifo, p1, p2, cart (l2q.h) */
    char l2q_cart_str[GMS_OPT_STRLEN];     /* -gms_l2q_cart nR:nC:nE[:drain] */
    char l2q_p2_str[GMS_OPT_STRLEN];       /* -gms_l2q_p2 B:depth */
    uint32_t l2q_cart_age;                 /* -gms_l2q_cart_age (core cycles, 0 = off) */
    gms_l2q_params l2qp;                   /* decoded */
    uint32_t racb;                         /* -gms_racb: bypass on a reservation fail, 1 L1D, 2 L2, 3 both */
    char l2q_dram_gate[16];                /* -gms_l2q_dram_gate: auto | block | miss */
    int l2_gate_block;                     /* decoded: no L2 access while L2->DRAM is full */
    char energy_str[GMS_OPT_STRLEN];       /* -gms_energy: per-event energies */
    gms_energy_params energy;              /* decoded */
    int perf_sim_memcpy;                   /* -gpgpu_perf_sim_memcpy: a host-to-device copy fills the L2 */
    char perf_memcpy_addr[16];             /* -gms_perf_memcpy_addr: gpgpusim | full */
    int perf_memcpy_low32;                 /* derived: 1 for gpgpusim */

    /* partition mapping */
    char mapping_str[GMS_OPT_STRLEN];      /* -gpgpu_mem_addr_mapping */
    int address_mask;                      /* -gpgpu_mem_address_mask (masks used without a mapping string) */
    uint32_t partition_indexing;           /* -gpgpu_memory_partition_indexing 0 none, 1 XOR, 2 IPOLY */
    char partition_mapping[32];            /* -gms_partition_mapping gpgpusim | modulo | xor */
    uint32_t partition_chunk;              /* -gms_partition_chunk (bytes, modulo/xor) */
    uint32_t partition_prime;              /* -gms_partition_prime (prime/aprime/dprime p, ipoly polynomial; 0 = default) */
    gms_addrdec_config addrdec;            /* decoded */

    /* DRAM */
    char timing_str[GMS_OPT_STRLEN];       /* -gpgpu_dram_timing_opt */
    gms_dram_timing timing;                /* decoded, with the bus options below */
    uint32_t buswidth, burst_length, n_mem_per_ctrlr, data_command_freq_ratio;
    uint32_t dram_latency;                 /* -dram_latency, core cycles before the scheduler queue */
    uint32_t dram_scheduler;               /* -gpgpu_dram_scheduler 0 FIFO, 1 FR-FCFS */
    char dram_sched_name[32];              /* -gms_dram_scheduler: by name, overrides the number */
    uint32_t frfcfs_queue;                 /* -gpgpu_frfcfs_dram_sched_queue_size, 0 = unlimited */
    uint32_t return_queue;                 /* -gpgpu_dram_return_queue_size, 0 = 1024 */
    uint32_t bnk_indexing, bnkgrp_indexing;/* -dram_bnk_indexing_policy, -dram_bnkgrp_indexing_policy */
    int dual_bus;                          /* -dram_dual_bus_interface */
    int elim_rw_turnaround;                /* -dram_elimnate_rw_turnaround */
    int sep_write_queue;                   /* -dram_seperate_write_queue_enable */
    char write_queue_str[GMS_OPT_STRLEN];  /* -dram_write_queue_size size:high:low */
    uint32_t wq_size, wq_high, wq_low;     /* decoded */
    uint32_t tfaw, trefi, trfc;            /* -gms_dram_tfaw/-gms_dram_trefi/-gms_dram_trfc, 0 = off */
} gms_memsys_params;

#endif
