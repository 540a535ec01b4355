/* SM-side options (GPGPU-Sim names), decoded. Owner: src/core. */
#ifndef GMS_CORE_PARAMS_H
#define GMS_CORE_PARAMS_H
#include <stdint.h>
#include "config/option.h"

#define GMS_MAX_SPEC_UNITS 8

typedef struct gms_lat_ii { uint32_t lat, ii; } gms_lat_ii;

typedef struct gms_core_params {
    /* raw options */
    uint32_t n_clusters, n_cores_per_cluster;
    uint32_t simt_core_sim_order;   /* GPGPU-Sim's: 1 rotates a cluster's cores each cycle */
    uint32_t ejection_buf, ldst_resp_buf;   /* the cluster's and the LDST unit's response FIFOs */
    char clock_domains[GMS_OPT_STRLEN];      /* "core:icnt:l2:dram" MHz */
    char shader_core_pipeline[GMS_OPT_STRLEN]; /* "threads:warp_size" */
    uint32_t shader_cta, shader_registers, shmem_size, shmem_num_banks, smem_latency;
    uint32_t num_sched_per_core;
    char scheduler[GMS_OPT_STRLEN];          /* lrr | gto | two_level_active:N:... */
    char pipeline_widths[GMS_OPT_STRLEN];
    uint32_t num_sp_units, num_sfu_units, num_dp_units, num_int_units, num_tensor_units;
    char ptx_lat_int[GMS_OPT_STRLEN], ptx_lat_fp[GMS_OPT_STRLEN], ptx_lat_dp[GMS_OPT_STRLEN],
         ptx_lat_sfu[GMS_OPT_STRLEN], ptx_lat_tensor[GMS_OPT_STRLEN];
    char ptx_ii_int[GMS_OPT_STRLEN], ptx_ii_fp[GMS_OPT_STRLEN], ptx_ii_dp[GMS_OPT_STRLEN],
         ptx_ii_sfu[GMS_OPT_STRLEN], ptx_ii_tensor[GMS_OPT_STRLEN];
    char trace_lat_int[GMS_OPT_STRLEN], trace_lat_sp[GMS_OPT_STRLEN], trace_lat_dp[GMS_OPT_STRLEN],
         trace_lat_sfu[GMS_OPT_STRLEN], trace_lat_tensor[GMS_OPT_STRLEN];
    char spec_unit[GMS_MAX_SPEC_UNITS][GMS_OPT_STRLEN];
    char trace_lat_spec[GMS_MAX_SPEC_UNITS][GMS_OPT_STRLEN];
    uint32_t coalesce_arch;
    int gmem_skip_l1d;
    int local_mem_map;             /* gpgpu_local_mem_map: local words interleaved per block (local_mem.h) */
    int clock_gated_lanes;         /* gpgpu_clock_gated_lanes: thread instructions count active lanes only */
    int flush_l1_cache;
    int flush_l2_cache;   /* -gpgpu_flush_l2_cache: drop the L2's modified lines at a kernel's end */
    uint32_t max_concurrent_kernel;
    int concurrent_kernel_sm;
    uint32_t kernel_launch_latency;
    uint32_t tb_launch_latency;   /* -gpgpu_TB_launch_latency: per block of the grid, before the first */
    uint32_t mem_unit_ports;
    int sub_core_model;                        /* -gpgpu_sub_core_model */
    uint32_t oc_units_gen, oc_units_mem;       /* -gpgpu_operand_collector_num_units_gen/_mem */
    uint32_t oc_in_ports_gen;                  /* -gpgpu_operand_collector_num_in_ports_gen */
    uint32_t oc_out_ports_gen;                 /* -gpgpu_operand_collector_num_out_ports_gen (checked only) */
    int specialized_oc;                        /* -gpgpu_enable_specialized_operand_collector (checked only) */
    int tensor_core_avail;                     /* -gpgpu_tensor_core_avail (no effect: see core_options.c) */
    uint32_t oc_in_ports_mem;                  /* -gpgpu_operand_collector_num_in_ports_mem */
    char id_oc_mem[GMS_OPT_STRLEN];            /* -gms_id_oc_mem: gpgpusim | per-scheduler */
    char issue_order[GMS_OPT_STRLEN];          /* -gms_sched_issue_order: rotate | fixed */
    char alu_collector[GMS_OPT_STRLEN];        /* -gms_alu_collector: gpgpusim | none */
    char inst_fetch[GMS_OPT_STRLEN];           /* -gms_inst_fetch: gpgpusim | none */
    uint32_t inst_fetch_throughput;            /* -gpgpu_inst_fetch_throughput: decode/fetch pairs a cycle */
    char reg_banks[GMS_OPT_STRLEN];            /* -gms_reg_banks: gpgpusim | none */
    char reg_banks_mem[GMS_OPT_STRLEN];        /* -gms_reg_banks_mem: gpgpusim | none */
    char subcore_reg_banks[GMS_OPT_STRLEN];    /* -gms_subcore_reg_banks: gpgpusim | none */
    char lsu_writeback[GMS_OPT_STRLEN];        /* -gms_lsu_writeback: gpgpusim | none */
    int lsu_wb;                                /* derived: lsu_writeback is gpgpusim */
    uint32_t num_reg_banks;                    /* -gpgpu_num_reg_banks */
    int reg_bank_use_warp_id;                  /* -gpgpu_reg_bank_use_warp_id */
    uint32_t max_insn_issue_per_warp;          /* -gpgpu_max_insn_issue_per_warp (1 or 2) */
    int dual_issue_diff_exec_units;            /* -gpgpu_dual_issue_diff_exec_units (sub-core dual issue) */
    uint32_t oc_units_sp, oc_units_sfu;        /* -gpgpu_operand_collector_num_units_sp/_sfu */
    uint32_t oc_in_sp, oc_out_sp;              /* -gpgpu_operand_collector_num_in/out_ports_sp */
    uint32_t oc_in_sfu, oc_out_sfu;            /* -gpgpu_operand_collector_num_in/out_ports_sfu */
    int issue_fixed;                           /* decoded: fixed */
    uint32_t reg_file_port_throughput;         /* -gpgpu_reg_file_port_throughput */
    int adaptive_cache_config;                 /* -gpgpu_adaptive_cache_config */
    uint32_t unified_l1d_size;                 /* -gpgpu_unified_l1d_size, KB */
    char shmem_option[GMS_OPT_STRLEN];         /* -gpgpu_shmem_option, KB list */
    uint32_t shmem_opts[16], n_shmem_opts;     /* decoded */
    /* L1D bypass policies and warp limiting (src/core/bypass*.c, docs/mdb.md) */
    char l1d_bypass[GMS_OPT_STRLEN];           /* -gms_l1d_bypass: none | mdb-local | mdb-global | ... */
    uint32_t swl;                              /* -gms_swl: issuing warps per scheduler (SWL), 0 = no limit */
    uint32_t bypass_l;                         /* -gms_bypass_l: warps/blocks using the L1D under 'static' */
    int ccws;                                  /* -gms_ccws: cache-conscious wavefront scheduling */
    uint32_t ccws_vta, ccws_k, ccws_base;      /* -gms_ccws_vta, _kthrottle, _base */
    uint32_t mdb_period;                       /* -gms_mdb_period: L1D-eligible accesses between decisions */
    double mdb_e;                              /* -gms_mdb_e: weight of a reservation failure */
    uint32_t mdb_sample;                       /* -gms_mdb_sample: shadow tags sample 1 of N sets */
    uint32_t mdb_calcs;                        /* -gms_mdb_calculators */
    char mdb_start[GMS_OPT_STRLEN];            /* -gms_mdb_start: l1d | bypass (before the first decision) */
    char mdb_kernel_start[GMS_OPT_STRLEN];     /* -gms_mdb_kernel_start: keep | restart (the generator
                                                  at a kernel launched on an idle GPU) */
    char mdb_level[GMS_OPT_STRLEN];            /* -gms_mdb_level: block-or-warp | sm-warp (what L counts) */
    int mdb_sm_warp;                           /* decoded: -gms_mdb_level sm-warp */
    uint32_t mdb_monitor;                      /* -gms_mdb_monitor: the SM MDB-global watches */
    char mdb_global_level[GMS_OPT_STRLEN];     /* -gms_mdb_global_level: own | monitor (the level
                                                  an SM applies MDB-global's broadcast L at) */
    int mdb_rf_scale;                          /* -gms_mdb_rf_scale: RF term divided by the sampling ratio */
    uint32_t mdb_hit_bits, mdb_rf_bits;        /* -gms_mdb_hit_bits / _rf_bits: saturating counter widths, 0 = 64 */

    /* decoded by finalize */
    double mhz_core, mhz_icnt, mhz_l2, mhz_dram;
    uint32_t n_sm, max_threads_per_sm, warp_size, max_warps_per_sm;
    uint32_t two_level_active;
    gms_lat_ii lat[16];            /* by gms_op_class, for built-in workloads and traces */
    gms_lat_ii spec_lat[GMS_MAX_SPEC_UNITS + 1];
    /* GPGPU-Sim keeps the enabled -specialized_unit_N before the first disabled one
     * (shader_core_config::init: "we only accept continuous specialized_units"): units
     * 1..spec_on exist, spec_nunits[N] is unit N's <num_units> */
    uint32_t spec_on;
    uint32_t spec_nunits[GMS_MAX_SPEC_UNITS + 1];
    uint32_t units[16];            /* number of pipelines per op class */
    int id_oc_mem_shared;          /* one ID_OC_MEM set for all schedulers (no sub-cores, -gms_id_oc_mem gpgpusim) */
    uint32_t idoc_mem_w, ocex_mem_w; /* -gpgpu_pipeline_widths' ID_OC_MEM and OC_EX_MEM */
    uint32_t oc_mem_units;         /* the units memory instructions use: generic ones if any, else _mem */
    int aluc;                      /* without sub-cores: GPGPU-Sim 3.x's ALU collector (alu_collector.h) */
    uint32_t idoc_w[2], ocex_w[2]; /* -gpgpu_pipeline_widths' ID_OC and OC_EX widths of the SP and SFU pipes */
    uint32_t exwb_w;               /* ... and EX_WB's: the result buses */
    int regbanks;                  /* with aluc: register-bank conflicts of the operand reads
                                    * (-gms_reg_banks gpgpusim, alu_collector.h) */
    int scbanks;                   /* the sub-core collector (generic units): register-bank conflicts
                                    * (-gms_subcore_reg_banks gpgpusim, subcore_banks.h) */
    int ifetch;                    /* GPGPU-Sim's fetch, decode and instruction buffer
                                    * (-gms_inst_fetch gpgpusim, sm_ifetch.c) */
    uint32_t oc_mem_moves;         /* instructions leaving the shared ID_OC_MEM set per cycle: the
                                    * input ports (_gen or _mem) x -gpgpu_reg_file_port_throughput */
} gms_core_params;

/* Simulator-level options (our names). */
typedef struct gms_sim_params {
    uint64_t seed;
    int skip_idle;                 /* gms_skip_idle */
    int sleep_blocked;             /* gms_sleep_blocked (host speed only) */
    uint64_t watchdog_cycles;      /* gms_watchdog_cycles: no progress for N core cycles */
    int perfect_mem;               /* gpgpu_perfect_mem: fixed-latency far side, no partitions */
    uint32_t perfect_mem_latency;  /* gms_fixed_mem_latency (core cycles) */
    uint64_t max_cycles;           /* gpgpu_max_cycle: 0 = unlimited */
    uint64_t max_insn;             /* gpgpu_max_insn */
    uint64_t max_cta;              /* gpgpu_max_cta: blocks handed out, then run to their end */
    uint64_t max_completed_cta;    /* gpgpu_max_completed_cta: stop at this many blocks done */
    uint64_t mshr_dump_at;         /* gms_mshr_dump_at: core cycle of the MSHR tables' debug dump (0 = none) */
    uint32_t host_threads;         /* gms_host_threads (host speed only) */
    int host_pipeline;             /* gms_host_pipeline (host speed only) */
    char trace_memcpy[16];         /* gms_trace_memcpy: instant | pcie */
    int trace_memcpy_pcie;         /* derived: 1 for pcie */
} gms_sim_params;

#endif
