/* SM-side and simulator options: GPGPU-Sim names and defaults, decoded by finalize. */
#include "config/params.h"
#include "config/option_value.h"
#include "frontend/inst.h"
#include "core/warp_sched.h"
#include "core/bypass_policy.h"
#include "core/mdb.h"
#include "core/alu_collector.h"
#include "core/subcore_banks.h"
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define C(name, type, field, def, help) GMS_OPT(name, type, core.field, def, help)

/* -specialized_unit_N <enabled>,...: the unit's own model is in use when enabled */
static int spec_unit_enabled(const gms_params *p, const void *field)
{
    (void)p;
    unsigned en;
    return sscanf((const char *)field, "%u", &en) == 1 && en != 0;
}

/* -gpgpu_pipeline_widths: only the memory stages are modelled; the others are put to use (and
 * ignored) by any value but the default */
#define WIDTHS_DEFAULT "1,1,1,1,1,1,1,1,1,1,1,1,1"
static int widths_set(const gms_params *p, const void *field)
{
    (void)p;
    return strcmp((const char *)field, WIDTHS_DEFAULT) != 0;
}

/* the SP and SFU collector sets are modelled by -gms_alu_collector gpgpusim (no sub-cores);
 * otherwise a value other than the default is named as not modelled */
static int aluc_off_4(const gms_params *p, const void *field) { return !p->core.aluc && *(const uint32_t *)field != 4; }
static int aluc_off_1(const gms_params *p, const void *field) { return !p->core.aluc && *(const uint32_t *)field != 1; }
/* dual issue is modelled by -gms_inst_fetch gpgpusim (no sub-cores) and by the sub-core
 * pipeline (generic collector units); otherwise a warp issues one instruction a cycle, and a
 * value other than 1 is named */
static int dual_off(const gms_params *p, const void *field)
{
    /* (read from the options, not the decoded c->ifetch: also asked before finalize) */
    int fetch = !p->core.sub_core_model && !strcmp(p->core.inst_fetch, "gpgpusim");
    int sub = p->core.sub_core_model && p->core.oc_units_gen;
    return !fetch && !sub && *(const uint32_t *)field != 1;
}
/* register banks are modelled by -gms_reg_banks gpgpusim inside the 3.x ALU collector */
static int banks_3x(const gms_params *p)
{
    return !p->core.sub_core_model && !strcmp(p->core.alu_collector, "gpgpusim") && !strcmp(p->core.reg_banks, "gpgpusim");
}
/* ... and by -gms_subcore_reg_banks gpgpusim in the sub-core collector (generic units) */
static int banks_subcore(const gms_params *p)
{
    return p->core.sub_core_model && p->core.oc_units_gen && !strcmp(p->core.subcore_reg_banks, "gpgpusim");
}
static int banks_off(const gms_params *p, const void *field)
{
    return !banks_3x(p) && !banks_subcore(p) && *(const uint32_t *)field != 8;
}
/* fewer generic dispatch units than generic collector units: GPGPU-Sim holds ready units back
 * (opndcoll_rfu_t::dispatch_ready_cu), ours dispatch every ready one */
static int out_ports_short(const gms_params *p, const void *field)
{
    return p->core.oc_units_gen && *(const uint32_t *)field < p->core.oc_units_gen;
}
/* the collector units GPGPU-Sim builds against ours: with sub-cores the generic ones only (0),
 * without them 3.x's per-pipe units (-gms_alu_collector gpgpusim; 1) */
static int specialized_oc_other(const gms_params *p, const void *field)
{
    int on = *(const int *)field != 0;
    return p->core.sub_core_model ? on : (!on && p->core.aluc);
}
/* GPGPU-Sim registers -gpgpu_reg_bank_use_warp_id and reads it nowhere: a value other than
 * its default is named, as it changes nothing there either */
static int bank_wid_set(const gms_params *p, const void *field)
{
    (void)p;
    return *(const int *)field != 0;
}
#define ALUC(name, field, def, help, in_use) GMS_OPT_PARTLY("" name, GMS_OPT_U32, core.field, def, help, \
    "used only by -gms_alu_collector gpgpusim (-gpgpu_sub_core_model 0): with sub-cores the collector has the " \
    "generic units only", in_use)

/* what an enabled -specialized_unit_N does and does not do (core_finalize, sm.c) */
#define SPEC_NOT_BUILT "an enabled unit (<enabled> not 0) is not built: its <num_units>, <max_latency>, " \
    "<ID_OC_SPEC> and <OC_EX_SPEC> are not used (but for a <num_units> of 0); a trace opcode of a unit the config " \
    "does not have (unit N exists when units 1..N are all enabled, as GPGPU-Sim keeps them) runs on its pipe with " \
    "a warning (Accel-Sim aborts there); one it has with 0 units is an error (GPGPU-Sim never issues it); "
#define SPEC_RUN(n, ops, pipes) "the trace's " ops " run on the " pipes " with " \
    "-trace_opcode_latency_initiation_spec_op_" #n "'s latency and initiation; "
#define SPEC_NONE "no trace opcode belongs to it (Accel-Sim's opcode tables use units 1-4); "
#define SPEC_NAME(n) "enabled and named BRA or TEX, its -trace_opcode_latency_initiation_spec_op_" #n \
    " is also the latency of the other branch or texture instructions"
#define SPEC_TXT_1 SPEC_NOT_BUILT \
    SPEC_RUN(1, "Volta+ branch opcodes (SPECIALIZED_UNIT_1_OP: BRA, BSSY, ...)", "branch pipelines") SPEC_NAME(1)
#define SPEC_TXT_2 SPEC_NOT_BUILT \
    SPEC_RUN(2, "texture opcodes without addresses (SPECIALIZED_UNIT_2_OP: TEX, TLD, ...)", "texture pipeline") SPEC_NAME(2)
#define SPEC_TXT_3 SPEC_NOT_BUILT \
    SPEC_RUN(3, "tensor opcodes (SPECIALIZED_UNIT_3_OP: HMMA, IMMA, DMMA, ...)", "tensor pipelines") SPEC_NAME(3)
#define SPEC_TXT_4 SPEC_NOT_BUILT \
    SPEC_RUN(4, "Turing+ uniform-datapath opcodes (SPECIALIZED_UNIT_4_OP)", "uniform-datapath pipelines (one per scheduler)") SPEC_NAME(4)
#define SPEC_TXT_5 SPEC_NOT_BUILT SPEC_NONE SPEC_NAME(5)
#define SPEC_TXT_6 SPEC_NOT_BUILT SPEC_NONE SPEC_NAME(6)
#define SPEC_TXT_7 SPEC_NOT_BUILT SPEC_NONE SPEC_NAME(7)
#define SPEC_TXT_8 SPEC_NOT_BUILT SPEC_NONE SPEC_NAME(8)

static const gms_option core_opts[] = {
    C("gpgpu_n_clusters", GMS_OPT_U32, n_clusters, "10", "number of SIMT core clusters"),
    C("gpgpu_n_cores_per_cluster", GMS_OPT_U32, n_cores_per_cluster, "3", "SMs per cluster"),
    C("gpgpu_simt_core_sim_order", GMS_OPT_U32, simt_core_sim_order, "1",
      "order of a cluster's cores in a cycle: 1 rotates it by one each cycle (GPGPU-Sim's simt_core_cluster::core_cycle), "
      "other values keep core order; with several SMs a cluster it decides which finds room first in the cluster's "
      "interconnect input"),
    C("gpgpu_n_cluster_ejection_buffer_size", GMS_OPT_U32, ejection_buf, "8",
      "replies the cluster's response FIFO holds (simt_core_cluster::icnt_cycle pops the interconnect only below it)"),
    C("gpgpu_n_ldst_response_buffer_size", GMS_OPT_U32, ldst_resp_buf, "2",
      "replies the LDST unit's response FIFO holds (the cluster hands it its FIFO's head only below it)"),
    C("gpgpu_clock_domains", GMS_OPT_STRING, clock_domains, "500.0:2000.0:2000.0:2000.0",
      "clock domain frequencies in MHz <core>:<interconnect>:<L2>:<DRAM>"),
    C("gpgpu_shader_core_pipeline", GMS_OPT_STRING, shader_core_pipeline, "1024:32",
      "<max threads per SM>:<warp size>"),
    C("gpgpu_shader_cta", GMS_OPT_U32, shader_cta, "8", "max thread blocks per SM"),
    C("gpgpu_shader_registers", GMS_OPT_U32, shader_registers, "8192", "registers per SM"),
    C("gpgpu_shmem_size", GMS_OPT_U32, shmem_size, "16384", "shared memory bytes per SM"),
    C("gpgpu_shmem_num_banks", GMS_OPT_U32, shmem_num_banks, "16", "shared memory banks"),
    C("gpgpu_smem_latency", GMS_OPT_U32, smem_latency, "3", "shared memory latency (core cycles)"),
    C("gpgpu_num_sched_per_core", GMS_OPT_U32, num_sched_per_core, "1", "warp schedulers per SM"),
    C("gpgpu_scheduler", GMS_OPT_STRING, scheduler, "gto", "warp scheduler (gpumemsim list policies); two_level_active:<active warps>:..."),
    GMS_OPT_PARTLY_X("gpgpu_pipeline_widths", GMS_OPT_STRING, core.pipeline_widths, WIDTHS_DEFAULT,
      "pipeline register widths ID_OC_SP,ID_OC_DP,ID_OC_INT,ID_OC_SFU,ID_OC_MEM,OC_EX_SP,OC_EX_DP,OC_EX_INT,OC_EX_SFU,OC_EX_MEM,EX_WB,ID_OC_TENSOR,OC_EX_TENSOR",
      GMS_SYN_INT_LIST, "one instruction per scheduler per cycle; only the ID_OC and OC_EX widths of the SP, SFU "
      "and memory pipes and EX_WB's are used, without sub-cores (-gms_id_oc_mem, -gms_alu_collector): the DP, INT and "
      "tensor stages are not", widths_set),
    C("gpgpu_num_sp_units", GMS_OPT_U32, num_sp_units, "1", "SP pipelines per SM"),
    C("gpgpu_num_sfu_units", GMS_OPT_U32, num_sfu_units, "1", "SFU pipelines per SM"),
    C("gpgpu_num_dp_units", GMS_OPT_U32, num_dp_units, "0", "DP pipelines per SM (0 = DP runs on the SFU pipe with the sub-core model, GPGPU-Sim 4.x; on the SP pipe otherwise)"),
    C("gpgpu_num_int_units", GMS_OPT_U32, num_int_units, "0", "INT pipelines per SM (0 = INT and ALU ops share the SP pipe)"),
    C("gpgpu_num_tensor_core_units", GMS_OPT_U32, num_tensor_units, "0", "tensor pipelines per SM"),
    C("ptx_opcode_latency_int", GMS_OPT_STRING, ptx_lat_int, "4,13,4,5,145,21", "PTX int latencies ADD,MAX,MUL,MAD,DIV,SHFL (MAD used)"),
    C("ptx_opcode_latency_fp", GMS_OPT_STRING, ptx_lat_fp, "4,13,4,5,39", "PTX fp latencies ADD,MAX,MUL,MAD,DIV (MAD used)"),
    C("ptx_opcode_latency_dp", GMS_OPT_STRING, ptx_lat_dp, "8,19,8,8,330", "PTX dp latencies ADD,MAX,MUL,MAD,DIV (MAD used)"),
    C("ptx_opcode_latency_sfu", GMS_OPT_STRING, ptx_lat_sfu, "8", "PTX SFU latency"),
    C("ptx_opcode_latency_tesnor", GMS_OPT_STRING, ptx_lat_tensor, "64", "PTX tensor latency (GPGPU-Sim spelling)"),
    C("ptx_opcode_initiation_int", GMS_OPT_STRING, ptx_ii_int, "1,2,2,2,8", "PTX int initiation intervals"),
    C("ptx_opcode_initiation_fp", GMS_OPT_STRING, ptx_ii_fp, "1,2,1,1,4", "PTX fp initiation intervals"),
    C("ptx_opcode_initiation_dp", GMS_OPT_STRING, ptx_ii_dp, "8,16,8,8,130", "PTX dp initiation intervals"),
    C("ptx_opcode_initiation_sfu", GMS_OPT_STRING, ptx_ii_sfu, "8", "PTX SFU initiation interval"),
    C("ptx_opcode_initiation_tensor", GMS_OPT_STRING, ptx_ii_tensor, "64", "PTX tensor initiation interval"),
    C("trace_opcode_latency_initiation_int", GMS_OPT_STRING, trace_lat_int, "4,1", "trace-mode int <latency>,<initiation>"),
    C("trace_opcode_latency_initiation_sp", GMS_OPT_STRING, trace_lat_sp, "4,1", "trace-mode sp <latency>,<initiation>"),
    C("trace_opcode_latency_initiation_dp", GMS_OPT_STRING, trace_lat_dp, "4,1", "trace-mode dp <latency>,<initiation>"),
    C("trace_opcode_latency_initiation_sfu", GMS_OPT_STRING, trace_lat_sfu, "4,1", "trace-mode sfu <latency>,<initiation>"),
    C("trace_opcode_latency_initiation_tensor", GMS_OPT_STRING, trace_lat_tensor, "4,1", "trace-mode tensor <latency>,<initiation>"),
#define SPEC(n) GMS_OPT_PARTLY("specialized_unit_" #n, GMS_OPT_STRING, core.spec_unit[n - 1], "0,4,4,4,4,BRA", \
      "specialised unit " #n ": <enabled>,<num_units>,<max_latency>,<ID_OC_SPEC>,<OC_EX_SPEC>,<NAME>", \
      SPEC_TXT_ ## n, spec_unit_enabled), \
    C("trace_opcode_latency_initiation_spec_op_" #n, GMS_OPT_STRING, trace_lat_spec[n - 1], "4,4", \
      "trace-mode specialised unit " #n " <latency>,<initiation>")
    SPEC(1), SPEC(2), SPEC(3), SPEC(4), SPEC(5), SPEC(6), SPEC(7), SPEC(8),
#undef SPEC
    C("gpgpu_coalesce_arch", GMS_OPT_U32, coalesce_arch, "13", "coalescing rules: 13 GT200, 20-39 Fermi/Kepler, >= 40 Maxwell+ (32 B sectors)"),
    C("gpgpu_gmem_skip_L1D", GMS_OPT_BOOL, gmem_skip_l1d, "0", "global loads and stores bypass the L1D (GPGPU-Sim's memory_cycle; loads as with -dlcm=cg)"),
    C("gpgpu_local_mem_map", GMS_OPT_BOOL, local_mem_map, "1",
      "local memory's place in the GPU's address space: 1 each block's threads' words side by side, blocks of successive SMs next (GPGPU-Sim's default), 0 the legacy map by SM and hardware thread"),
    C("gpgpu_clock_gated_lanes", GMS_OPT_BOOL, clock_gated_lanes, "0",
      "gpgpu_n_tot_thrd_icount counts a warp instruction's active lanes (1) or the whole warp (0), as GPGPU-Sim's warp_inst_complete; gpu_tot_sim_insn counts active lanes either way"),
    C("gms_l1d_bypass", GMS_OPT_STRING, l1d_bypass, "none",
      "L1D bypass policy: which warps/blocks' global loads go around the L1D (gpumemsim list policies; docs/mdb.md)"),
    C("gms_bypass_l", GMS_OPT_U32, bypass_l, "8", "-gms_l1d_bypass static: the first L warps (one block resident) or blocks of each SM use the L1D"),
    C("gms_ccws", GMS_OPT_BOOL, ccws, "0", "CCWS: warps whose lost-locality scores fall below the cutoff may not issue global loads (docs/mdb.md)"),
    C("gms_ccws_vta", GMS_OPT_U32, ccws_vta, "8", "CCWS: victim tag array entries per warp"),
    C("gms_ccws_kthrottle", GMS_OPT_U32, ccws_k, "32", "CCWS: score added at a victim-tag hit (lost intra-warp locality)"),
    C("gms_ccws_base", GMS_OPT_U32, ccws_base, "100", "CCWS: each warp's base score; the cutoff is base x active warps"),
    C("gms_swl", GMS_OPT_U32, swl, "0", "static warp limiting: each scheduler issues from its K oldest warps only; 0 = no limit"),
    C("gms_mdb_period", GMS_OPT_U32, mdb_period, "1000", "MDB: L1D-eligible accesses between two decisions"),
    C("gms_mdb_e", GMS_OPT_DOUBLE, mdb_e, "0.5", "MDB: E, the weight of a reservation failure against a hit"),
    C("gms_mdb_sample", GMS_OPT_U32, mdb_sample, "8", "MDB: the shadow tags sample 1 of N L1D sets (1 = every set)"),
    C("gms_mdb_calculators", GMS_OPT_U32, mdb_calcs, "8", "MDB: Adjusted-Hits calculators (largest L modelled)"),
    C("gms_mdb_start", GMS_OPT_STRING, mdb_start, "l1d", "MDB before the first decision: l1d (nothing bypasses) or bypass (everything does)"),
    C("gms_mdb_kernel_start", GMS_OPT_STRING, mdb_kernel_start, "keep",
      "MDB at a kernel launched on an idle GPU: keep (the generators go on with the decision, counters and shadow "
      "tags they have) or restart (every generator returns to its start-up state: no decision, -gms_mdb_start "
      "applies, counters cleared; the shadow tags, which mirror the L1D, are kept)"),
    C("gms_mdb_level", GMS_OPT_STRING, mdb_level, "block-or-warp",
      "MDB: what L counts: block-or-warp (block slots while more than one block is resident on the SM, else the "
      "warps of its block; spec 001 2.3's reading of the text) or sm-warp (the SM's warp slots, whatever the blocks: "
      "the author's repository; give it as many calculators as the SM's warps to model them all)"),
    C("gms_mdb_monitor", GMS_OPT_U32, mdb_monitor, "3", "MDB-global: the SM whose generator decides for all"),
    C("gms_mdb_global_level", GMS_OPT_STRING, mdb_global_level, "own",
      "MDB-global: the level at which an SM applies the broadcast L: own (its own: block slots with more than one "
      "block resident, else warps of its block) or monitor (the monitored SM's level at its decision)"),
    C("gms_mdb_rf_scale", GMS_OPT_BOOL, mdb_rf_scale, "1", "MDB: divide the RF term by the sampling ratio (hits come from 1 of N sets)"),
    C("gms_mdb_hit_bits", GMS_OPT_U32, mdb_hit_bits, "10", "MDB: width of each calculator's hit counter, saturating (spec: 10 bits); 0 = 64"),
    C("gms_mdb_rf_bits", GMS_OPT_U32, mdb_rf_bits, "12", "MDB: width of the SM's reservation-fail counter, saturating (spec: 12 bits); 0 = 64"),
    C("gpgpu_flush_l1_cache", GMS_OPT_BOOL, flush_l1_cache, "0", "invalidate the L1D at the end of every kernel"),
    C("gpgpu_flush_l2_cache", GMS_OPT_BOOL, flush_l2_cache, "0",
      "when no block is running and no kernel is (a kernel's end), every L2 slice drops its modified lines without "
      "writing them back, as GPGPU-Sim's flushL2 (tag_array::flush); clean lines stay"),
    C("gpgpu_max_concurrent_kernel", GMS_OPT_U32, max_concurrent_kernel, "8", "kernels that may run at once (different streams)"),
    C("gpgpu_concurrent_kernel_sm", GMS_OPT_BOOL, concurrent_kernel_sm, "0", "kernels may share an SM"),
    C("gpgpu_kernel_launch_latency", GMS_OPT_U32, kernel_launch_latency, "0", "core cycles between a launch and its first block"),
    C("gpgpu_TB_launch_latency", GMS_OPT_U32, tb_launch_latency, "0",
      "core cycles per block of the grid added to -gpgpu_kernel_launch_latency before a kernel's first block (GPGPU-Sim's "
      "m_kernel_TB_latency: the launch latency + blocks x this, counted down before any block is handed out)"),
    C("gpgpu_mem_unit_ports", GMS_OPT_U32, mem_unit_ports, "1", "memory instructions the LSU accepts per cycle"),
    C("gpgpu_sub_core_model", GMS_OPT_BOOL, sub_core_model, "0",
      "Volta sub-cores: each scheduler has its own share of the collector units and its own OC_EX_MEM slot"),
    C("gpgpu_operand_collector_num_units_gen", GMS_OPT_U32, oc_units_gen, "0",
      "generic operand collector units (memory instructions use these when non-zero)"),
    C("gpgpu_operand_collector_num_units_mem", GMS_OPT_U32, oc_units_mem, "2",
      "memory operand collector units (used when there are no generic ones)"),
    C("gpgpu_operand_collector_num_in_ports_gen", GMS_OPT_U32, oc_in_ports_gen, "1",
      "generic collector input ports: each takes one instruction of each type per step"),
    GMS_OPT_PARTLY("gpgpu_operand_collector_num_out_ports_gen", GMS_OPT_U32, core.oc_out_ports_gen, "0",
      "generic collector dispatch units: each dispatches one ready unit per step",
      "every ready generic unit dispatches in a step (as GPGPU-Sim with at least as many dispatch units as generic "
      "units, every tested config); fewer dispatch units than units, which would hold ready ones back, are not "
      "modelled", out_ports_short),
    GMS_OPT_PARTLY("gpgpu_enable_specialized_operand_collector", GMS_OPT_BOOL, core.specialized_oc, "1",
      "GPGPU-Sim 4.x: collector units of their own per pipe (SP, DP, SFU, INT, tensor, memory) beside the generic ones",
      "with sub-cores only the generic units are built (its 0, every tested config); without sub-cores the "
      "ALU instructions take GPGPU-Sim 3.x's SP and SFU units (-gms_alu_collector gpgpusim), its 1", specialized_oc_other),
    C("gpgpu_tensor_core_avail", GMS_OPT_BOOL, tensor_core_avail, "0",
      "GPGPU-Sim 4.x: adds the tensor-core pipe's collector port for TENSOR_CORE_OP instructions; no instruction "
      "here is one (a trace's tensor opcodes are specialised unit 3, whose port comes after INT), so the port "
      "stays empty, as in Accel-Sim's trace mode"),
    C("gpgpu_operand_collector_num_in_ports_mem", GMS_OPT_U32, oc_in_ports_mem, "1",
      "memory collector input ports (no generic units, no sub-cores): instructions leaving ID_OC_MEM per step"),
    C("gms_sched_issue_order", GMS_OPT_STRING, issue_order, "rotate",
      "the order an SM's schedulers issue in each cycle: rotate (GPGPU-Sim 4.x's Issue_Prio: the first moves on "
      "with every cycle the SM holds blocks) or fixed (3.x: scheduler 0 first, every cycle)"),
    C("gms_id_oc_mem", GMS_OPT_STRING, id_oc_mem, "gpgpusim",
      "without sub-cores, gpgpusim: one ID_OC_MEM set (-gpgpu_pipeline_widths) and one pool of collector "
      "units for all schedulers, as GPGPU-Sim; per-scheduler: each scheduler has its own slot and pool "
      "(gpumemsim before 2026-12)"),
    C("gms_alu_collector", GMS_OPT_STRING, alu_collector, "gpgpusim",
      "without sub-cores, gpgpusim: GPGPU-Sim 3.x's operand collector for ALU instructions (ID_OC/OC_EX sets of "
      "-gpgpu_pipeline_widths, SP and SFU collector units reading one operand a cycle, written back latency + 2 "
      "after the function unit takes it) and memory instructions reaching the LSU one cycle later per source "
      "operand; none: registers released after the latency, memory instructions 2 cycles after issue (gpumemsim "
      "before 2026-12)"),
    C("gms_inst_fetch", GMS_OPT_STRING, inst_fetch, "gpgpusim",
      "gpgpusim: GPGPU-Sim's front end (shader_core_ctx::fetch and ::decode, after the schedulers: a fetch takes "
      "the next warp, round robin over the SM's warp slots, whose 2-entry instruction buffer is empty; decode fills "
      "it, in the next pair of the cycle or in the next cycle; -gpgpu_inst_fetch_throughput pairs a cycle; a taken "
      "branch flushes the second entry, except in a trace; a perfect instruction cache); without sub-cores also "
      "GPGPU-Sim 3.x's dual issue; none: every warp's next instruction is always there to issue (gpumemsim before "
      "2026-12; on the sub-core pipeline before 2026-12-05)"),
    C("gpgpu_inst_fetch_throughput", GMS_OPT_U32, inst_fetch_throughput, "1",
      "decode/fetch pairs per SM per cycle (GPGPU-Sim 4.x's shader_core_ctx::cycle loop; used by -gms_inst_fetch "
      "gpgpusim; GPGPU-Sim 3.x has one)"),
    GMS_OPT_PARTLY("gpgpu_max_insn_issue_per_warp", GMS_OPT_U32, core.max_insn_issue_per_warp, "2",
      "instructions a warp may issue per cycle from its instruction buffer, 1 or 2 (GPGPU-Sim's default 2)",
      "used by -gms_inst_fetch gpgpusim (-gpgpu_sub_core_model 0) and by the sub-core pipeline (generic collector "
      "units): otherwise a warp issues one instruction a cycle", dual_off),
    C("gpgpu_dual_issue_diff_exec_units", GMS_OPT_BOOL, dual_issue_diff_exec_units, "1",
      "sub-core pipeline with -gpgpu_max_insn_issue_per_warp 2: a warp's second instruction in a cycle issues only to "
      "another kind of unit than its first (GPGPU-Sim 4.x's previous_issued_inst_exec_type: SP, SFU, MEM, DP, INT, "
      "tensor, specialised); the 3.x front end's dual issue (no sub-cores) keeps GPGPU-Sim 3.x's rule, which has no such check"),
    C("gms_reg_banks", GMS_OPT_STRING, reg_banks, "gpgpusim",
      "with -gms_alu_collector gpgpusim, gpgpusim: the SP and SFU collector units' operand reads go through GPGPU-Sim "
      "3.x's register-bank arbiter (one read per bank and per unit a cycle, a bank written back that cycle not "
      "read); none: a unit reads one operand a cycle whatever its bank (gpumemsim before 2026-12)"),
    C("gms_reg_banks_mem", GMS_OPT_STRING, reg_banks_mem, "gpgpusim",
      "with -gms_reg_banks gpgpusim and no generic collector units, gpgpusim: the memory collector units' operand "
      "reads go through the same arbiter (GPGPU-Sim 3.x); none: a memory instruction reads one operand a cycle "
      "whatever its bank (gpumemsim before 2026-12-04)"),
    C("gms_lsu_writeback", GMS_OPT_STRING, lsu_writeback, "gpgpusim",
      "gpgpusim: the LDST unit's write-back clients (the -gpgpu_smem_latency-stage shared-memory pipeline, replies "
      "of loads that bypass the L1D, the L1D's hand-outs) share one write-back slot a cycle, round robin, as "
      "GPGPU-Sim's ldst_unit::writeback; none: shared-memory loads write back after a fixed latency and bypassed "
      "replies at once, beside the L1D's (gpumemsim before 2026-12-04)"),
    C("gms_subcore_reg_banks", GMS_OPT_STRING, subcore_reg_banks, "gpgpusim",
      "with -gpgpu_sub_core_model 1 and generic collector units, gpgpusim: GPGPU-Sim 4.x's register banks (each "
      "scheduler its -gpgpu_num_reg_banks / schedulers banks, a register's bank (register + 1 + warp) modulo those; "
      "every bank with a queued read grants its oldest each collector step, so a unit may read several operands a "
      "step from different banks; a bank written that cycle is not read in its first step; the LDST unit's "
      "write-back waits a cycle for a bank an ALU result takes); none: a unit reads all its operands in one step "
      "(gpumemsim before 2026-12-05)"),
    GMS_OPT_PARTLY("gpgpu_num_reg_banks", GMS_OPT_U32, core.num_reg_banks, "8", "register file banks (1-64)",
      "used only by -gms_reg_banks gpgpusim with -gms_alu_collector gpgpusim (-gpgpu_sub_core_model 0) and by "
      "-gms_subcore_reg_banks gpgpusim (-gpgpu_sub_core_model 1, generic units): otherwise no register-bank "
      "conflicts are modelled", banks_off),
    GMS_OPT_PARTLY("gpgpu_reg_bank_use_warp_id", GMS_OPT_BOOL, core.reg_bank_use_warp_id, "0",
      "registered by GPGPU-Sim, which reads it nowhere",
      "no effect, as in GPGPU-Sim: a register's bank is always (register + warp id) modulo the banks "
      "(its opndcoll_rfu_t sets m_bank_warp_shift to log2 of the warp size)", bank_wid_set),
    ALUC("gpgpu_operand_collector_num_units_sp", oc_units_sp, "4", "SP operand collector units", aluc_off_4),
    ALUC("gpgpu_operand_collector_num_units_sfu", oc_units_sfu, "4", "SFU operand collector units", aluc_off_4),
    ALUC("gpgpu_operand_collector_num_in_ports_sp", oc_in_sp, "1", "SP collector input ports: instructions leaving ID_OC_SP per cycle", aluc_off_1),
    ALUC("gpgpu_operand_collector_num_out_ports_sp", oc_out_sp, "1", "SP collector dispatch units: instructions reaching OC_EX_SP per cycle", aluc_off_1),
    ALUC("gpgpu_operand_collector_num_in_ports_sfu", oc_in_sfu, "1", "SFU collector input ports: instructions leaving ID_OC_SFU per cycle", aluc_off_1),
    ALUC("gpgpu_operand_collector_num_out_ports_sfu", oc_out_sfu, "1", "SFU collector dispatch units: instructions reaching OC_EX_SFU per cycle", aluc_off_1),
    C("gpgpu_reg_file_port_throughput", GMS_OPT_U32, reg_file_port_throughput, "1",
      "operand collector steps per cycle (2: a unit reads and dispatches in one cycle)"),
    C("gpgpu_adaptive_cache_config", GMS_OPT_BOOL, adaptive_cache_config, "0",
      "at each launch, the L1D takes the unified L1/shared storage the kernel's shared memory leaves"),
    C("gpgpu_unified_l1d_size", GMS_OPT_U32, unified_l1d_size, "0", "unified L1D + shared memory per SM, KB"),
    C("gpgpu_shmem_option", GMS_OPT_STRING, shmem_option, "0", "shared-memory carve-out choices, KB, comma separated"),
};
#undef C

#define S(name, type, field, def, help) GMS_OPT(name, type, sim.field, def, help)
static const gms_option sim_opts[] = {
    S("gms_seed", GMS_OPT_U64, seed, "1", "seed of every random choice in the simulation (--seed)"),
    S("gms_skip_idle", GMS_OPT_BOOL, skip_idle, "1", "jump over cycles in which no component has work (results are identical)"),
    S("gms_sleep_blocked", GMS_OPT_BOOL, sleep_blocked, "1",
      "components sleep through cycles in which they cannot act: an SM whose only work is inside its L1 pipeline, "
      "an L2 slice waiting for room towards DRAM, the interconnect while its packets are on the wires; an SM that can only retry counts its retries without redoing "
      "them (results are identical)"),
    S("gms_host_threads", GMS_OPT_U32, host_threads, "1",
      "host threads ticking the active SMs of a core cycle (1..8; results are identical; serial where the run "
      "needs it: UVM, page observer, refilled warp streams, fixed-latency memory, a kernel's last cycles)"),
    S("gms_host_pipeline", GMS_OPT_BOOL, host_pipeline, "1",
      "a second host thread ticks the memory side (L2, DRAM) ahead while the SMs tick (results are identical; "
      "serial where the run needs it: UVM, page observer, copies, a kernel's last cycles, -gpgpu_max_cycle/insn; "
      "and in cycles with fewer than 32 active SMs, with one CPU, or when a timing governor finds it slower)"),
    S("gms_trace_memcpy", GMS_OPT_STRING, trace_memcpy, "instant",
      "an Accel-Sim trace's MemcpyHtoD lines: instant (Accel-Sim's trace driver: no simulated time, the next "
      "kernel starts as if there were no copy; -gpgpu_perf_sim_memcpy 1 fills the L2; MemcpyDtoH lines ignored) "
      "| pcie (timed over the PCIe lanes as a built-in workload's cudaMemcpy, UVMSmart's model)"),
    S("gms_watchdog_cycles", GMS_OPT_U64, watchdog_cycles, "1000000", "report and stop when nothing retires for this many busy core cycles (0 = off)"),
    S("gpgpu_perfect_mem", GMS_OPT_BOOL, perfect_mem, "0", "replace the memory partitions by a fixed-latency memory"),
    S("gms_fixed_mem_latency", GMS_OPT_U32, perfect_mem_latency, "100", "latency of the fixed-latency memory (core cycles)"),
    S("gpgpu_max_cycle", GMS_OPT_U64, max_cycles, "0",
      "stop once this many kernel cycles (gpu_tot_sim_cycle: core cycles with a kernel running; copies do not "
      "count) have run (0 = run to completion)"),
    S("gpgpu_max_insn", GMS_OPT_U64, max_insn, "0",
      "stop once this many thread instructions (gpu_tot_sim_insn) have run (0 = run to completion)"),
    S("gpgpu_max_cta", GMS_OPT_U64, max_cta, "0",
      "hand out no more than this many thread blocks over the run, and stop once they are done (GPGPU-Sim's "
      "hit_max_cta_count; 0 = no limit)"),
    S("gpgpu_max_completed_cta", GMS_OPT_U64, max_completed_cta, "0",
      "stop once this many thread blocks have completed (0 = no limit)"),
    S("gms_mshr_dump_at", GMS_OPT_U64, mshr_dump_at, "0",
      "debug: at this core cycle (gms_elapsed_core_cycles) print every MSHR table in use (SMs' L1Ds, L2 slices) "
      "to standard error, DL-MSHR's sets with their bits and FSM states; the run is then serial (0 = no dump)"),
};
#undef S

static int parse_lat_ii(const char *s, const char *opt, gms_lat_ii *out, gms_error *err)
{
    char *end;
    unsigned long lat = strtoul(s, &end, 10);
    if (end == s) return gms_err(err, "-%s: '%s' must be <latency>,<initiation interval>", opt, s);
    /* both numbers, as Accel-Sim's configs give them (its sscanf("%u,%u") would leave a
     * missing interval at whatever it held: no default to copy) */
    if (*end != ',') return gms_err(err, "-%s: '%s': initiation interval missing (<latency>,<initiation interval>)", opt, s);
    const char *q = end + 1;
    unsigned long ii = strtoul(q, &end, 10);
    if (end == q) return gms_err(err, "-%s: '%s': initiation interval missing", opt, s);
    if (*end) return gms_err(err, "-%s: '%s' must be <latency>,<initiation interval>", opt, s);
    if (lat == 0 || lat > 100000 || ii > 100000)
        return gms_err(err, "-%s: '%s': latency must be in 1..100000 and initiation interval in 0..100000", opt, s);
    out->lat = (uint32_t)lat;
    /* an interval of 0 (an older Accel-Sim trace.config's tensor line) is 1 there:
     * warp_inst_t::dispatch_delay counts `cycles` down only while it is above 0, so 0 and 1
     * both let the next instruction in on the next cycle */
    out->ii = ii ? (uint32_t)ii : 1;
    return 0;
}

/* a PTX latency or initiation list: comma-separated positive numbers */
static int check_number_list(const char *s, const char *opt, gms_error *err)
{
    uint32_t v[32];
    size_t n;
    int bad = gms_parse_u32_list(s, ',', v, 32, &n);
    for (size_t i = 0; !bad && i < n; i++) bad = v[i] == 0;
    return bad ? gms_err(err, "-%s: '%s' is not a list of positive numbers", opt, s) : 0;
}

/* -gpgpu_pipeline_widths: GPGPU-Sim 3.x lists 7 stages (ID_OC_SP, ID_OC_SFU, ID_OC_MEM,
 * OC_EX_SP, OC_EX_SFU, OC_EX_MEM, EX_WB), 4.x 11 (with DP and INT) or 13 (and the tensor
 * stages): ID_OC_SFU is the 4th, ID_OC_MEM the 5th, OC_EX_SP the 6th, OC_EX_SFU the 9th,
 * OC_EX_MEM the 10th and EX_WB the 11th. Needed (and checked) only without sub-cores, by the shared ID_OC_MEM set
 * and the ALU collector: the sub-core model gives each scheduler one of each. Also the memory
 * instructions' collector units and moves per cycle, for every model. */
static int decode_widths(gms_core_params *c, gms_error *err)
{
    uint32_t v[32];
    size_t n = 0;
    c->idoc_mem_w = c->ocex_mem_w = 1;
    c->idoc_w[0] = c->idoc_w[1] = c->ocex_w[0] = c->ocex_w[1] = c->exwb_w = 1;
    c->oc_mem_units = c->oc_units_gen ? c->oc_units_gen : c->oc_units_mem;
    c->oc_mem_moves = (c->oc_units_gen ? c->oc_in_ports_gen : c->oc_in_ports_mem) * c->reg_file_port_throughput;
    if (!c->id_oc_mem_shared && !c->aluc) return 0;
    if (gms_parse_u32_list(c->pipeline_widths, ',', v, 32, &n) || (n != 7 && n != 11 && n != 13))
        return gms_err(err, "-gpgpu_pipeline_widths: '%s' must list 7 (GPGPU-Sim 3.x), 11 or 13 (4.x) stage widths",
                       c->pipeline_widths);
    c->idoc_w[0] = v[0];
    c->idoc_w[1] = n == 7 ? v[1] : v[3];
    c->ocex_w[0] = n == 7 ? v[3] : v[5];
    c->ocex_w[1] = n == 7 ? v[4] : v[8];
    c->exwb_w = n == 7 ? v[6] : v[10];
    if (c->aluc) {
        if (c->exwb_w == 0 || c->exwb_w > 255)
            return gms_err(err, "-gpgpu_pipeline_widths: '%s' gives EX_WB %u: must be 1..255 (the result buses)",
                           c->pipeline_widths, c->exwb_w);
        static const char *const stage[2][2] = { { "ID_OC_SP", "ID_OC_SFU" }, { "OC_EX_SP", "OC_EX_SFU" } };
        for (int i = 0; i < 2; i++) {
            if (c->idoc_w[i] == 0 || c->idoc_w[i] > 32)
                return gms_err(err, "-gpgpu_pipeline_widths: '%s' gives %s %u: must be 1..32", c->pipeline_widths,
                               stage[0][i], c->idoc_w[i]);
            if (c->ocex_w[i] == 0 || c->ocex_w[i] > 32)
                return gms_err(err, "-gpgpu_pipeline_widths: '%s' gives %s %u: must be 1..32", c->pipeline_widths,
                               stage[1][i], c->ocex_w[i]);
        }
    }
    if (!c->id_oc_mem_shared) return 0;
    c->idoc_mem_w = n == 7 ? v[2] : v[4];
    c->ocex_mem_w = n == 7 ? v[5] : v[9];
    uint32_t units = c->oc_mem_units;
    /* the memq holds at most 32 instructions: ID_OC_MEM's plus those past it */
    if (c->idoc_mem_w == 0 || c->ocex_mem_w == 0 || c->idoc_mem_w + units + c->ocex_mem_w > 32)
        return gms_err(err, "-gpgpu_pipeline_widths: '%s' gives ID_OC_MEM %u and OC_EX_MEM %u: each must be at least 1, "
                       "and with %u memory collector units at most 32 in all", c->pipeline_widths, c->idoc_mem_w,
                       c->ocex_mem_w, units);
    if (c->oc_mem_moves == 0)
        return gms_err(err, "-gpgpu_operand_collector_num_in_ports_%s: must be at least 1", c->oc_units_gen ? "gen" : "mem");
    return 0;
}

/* the ALU collector's units, ports and function units (alu_collector.h's limits) */
/* -gms_subcore_reg_banks: decoded into c->scbanks; GPGPU-Sim asserts that the banks divide
 * among the schedulers (opndcoll_rfu_t::init), and our masks hold 64 */
static int check_subcore_banks(gms_core_params *c, gms_error *err)
{
    if (strcmp(c->subcore_reg_banks, "gpgpusim") && strcmp(c->subcore_reg_banks, "none"))
        return gms_err(err, "-gms_subcore_reg_banks: '%s' is not gpgpusim or none", c->subcore_reg_banks);
    c->scbanks = c->sub_core_model && c->oc_units_gen && !strcmp(c->subcore_reg_banks, "gpgpusim");
    if (!c->scbanks) return 0;
    if (c->num_reg_banks < 1 || c->num_reg_banks > GMS_SCB_MAX_BANKS || c->num_reg_banks % c->num_sched_per_core)
        return gms_err(err, "-gpgpu_num_reg_banks %u: with -gms_subcore_reg_banks gpgpusim it must be 1..%u and a "
                       "multiple of the %u schedulers (GPGPU-Sim asserts it); -gms_subcore_reg_banks none takes any",
                       c->num_reg_banks, (unsigned)GMS_SCB_MAX_BANKS, c->num_sched_per_core);
    return 0;
}

static int check_alu_collector(const gms_core_params *c, gms_error *err)
{
    static const struct { const char *opt; size_t off; uint32_t max; } v[] = {
        { "gpgpu_operand_collector_num_units_sp", offsetof(gms_core_params, oc_units_sp), 64 },
        { "gpgpu_operand_collector_num_units_sfu", offsetof(gms_core_params, oc_units_sfu), 64 },
        { "gpgpu_operand_collector_num_in_ports_sp", offsetof(gms_core_params, oc_in_sp), 32 },
        { "gpgpu_operand_collector_num_out_ports_sp", offsetof(gms_core_params, oc_out_sp), 32 },
        { "gpgpu_operand_collector_num_in_ports_sfu", offsetof(gms_core_params, oc_in_sfu), 32 },
        { "gpgpu_operand_collector_num_out_ports_sfu", offsetof(gms_core_params, oc_out_sfu), 32 },
        { "gpgpu_num_sp_units", offsetof(gms_core_params, num_sp_units), 64 },
        { "gpgpu_num_sfu_units", offsetof(gms_core_params, num_sfu_units), 64 },
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        uint32_t x;
        memcpy(&x, (const char *)c + v[i].off, sizeof x);
        if (x == 0 || x > v[i].max)
            return gms_err(err, "-%s %u: with -gms_alu_collector gpgpusim it must be 1..%u", v[i].opt, x, v[i].max);
    }
    return 0;
}

static int core_finalize(gms_params *p, gms_error *err)
{
    gms_core_params *c = &p->core;
    double f[4];
    char tail;
    if (sscanf(c->clock_domains, "%lf:%lf:%lf:%lf%c", &f[0], &f[1], &f[2], &f[3], &tail) != 4)
        return gms_err(err, "-gpgpu_clock_domains: '%s' must be <core>:<icnt>:<l2>:<dram> in MHz", c->clock_domains);
    /* 1 MHz .. 1 THz: the engine's time unit is the femtosecond, a period must be a whole
     * number of them well inside 64 bits (and no GPU clock lies outside) */
    static const char *const dom[4] = { "core", "interconnect", "L2", "DRAM" };
    for (int i = 0; i < 4; i++)
        if (!(f[i] >= 1 && f[i] < 1e6))
            return gms_err(err, "-gpgpu_clock_domains: '%s': the %s clock %g MHz is outside 1 .. 1e6 MHz", c->clock_domains,
                           dom[i], f[i]);
    c->mhz_core = f[0]; c->mhz_icnt = f[1]; c->mhz_l2 = f[2]; c->mhz_dram = f[3];
    uint32_t tw[2];
    size_t ntw;
    if (gms_parse_u32_list(c->shader_core_pipeline, ':', tw, 2, &ntw) || ntw != 2)
        return gms_err(err, "-gpgpu_shader_core_pipeline: '%s' must be <threads per SM>:<warp size>", c->shader_core_pipeline);
    uint32_t th = tw[0], ws = tw[1];
    if (ws != 32) return gms_err(err, "-gpgpu_shader_core_pipeline: warp size %u: only 32 is supported", ws);
    if (th == 0 || th % ws) return gms_err(err, "-gpgpu_shader_core_pipeline: %u threads is not a positive multiple of the warp size", th);
    if (th / ws > 64 * 8) return gms_err(err, "-gpgpu_shader_core_pipeline: %u threads per SM is more than 512 warps", th);
    c->max_threads_per_sm = th;
    c->warp_size = ws;
    c->max_warps_per_sm = th / ws;
    if (c->n_clusters == 0 || c->n_cores_per_cluster == 0)
        return gms_err(err, "-gpgpu_n_clusters / -gpgpu_n_cores_per_cluster: must be at least 1");
    c->n_sm = c->n_clusters * c->n_cores_per_cluster;
    if (c->n_sm > 4096) return gms_err(err, "-gpgpu_n_clusters x -gpgpu_n_cores_per_cluster = %u SMs: too many", c->n_sm);
    /* 0 would never pop a reply (GPGPU-Sim hangs): refused, as is a size no run could fill */
    if (c->ejection_buf == 0 || c->ejection_buf > 65536)
        return gms_err(err, "-gpgpu_n_cluster_ejection_buffer_size %u: must be 1..65536", c->ejection_buf);
    if (c->ldst_resp_buf == 0 || c->ldst_resp_buf > 65536)
        return gms_err(err, "-gpgpu_n_ldst_response_buffer_size %u: must be 1..65536", c->ldst_resp_buf);
    /* the default monitor (SM 3) on a smaller GPU is its last SM (bypass_mdb.c); one given is
     * an SM of this GPU */
    if (c->mdb_monitor >= c->n_sm && gms_params_is_set(p, "gms_mdb_monitor"))
        return gms_err(err, "-gms_mdb_monitor: SM %u, but the GPU has %u SMs (0..%u)", c->mdb_monitor, c->n_sm, c->n_sm - 1);
    if (c->shader_cta == 0) return gms_err(err, "-gpgpu_shader_cta: must be at least 1");
    if (c->max_concurrent_kernel == 0)   /* no kernel could ever start: a deadlock, not a run */
        return gms_err(err, "-gpgpu_max_concurrent_kernel: must be at least 1");
    if (c->num_sched_per_core == 0 || c->num_sched_per_core > 16)
        return gms_err(err, "-gpgpu_num_sched_per_core: %u: must be 1..16", c->num_sched_per_core);
    if (c->shader_registers == 0) return gms_err(err, "-gpgpu_shader_registers: must be positive");
    if (c->shmem_num_banks == 0) return gms_err(err, "-gpgpu_shmem_num_banks: must be positive");
    if (c->num_sp_units == 0) return gms_err(err, "-gpgpu_num_sp_units: must be at least 1");
    /* bounds far above any GPU's, so that a typo is an error and not an allocation of
     * gigabytes per SM */
    static const char units_why[] = "execution units per SM";
    if (gms_param_at_most(c->num_sp_units, 1024, "gpgpu_num_sp_units", units_why, err) ||
        gms_param_at_most(c->num_sfu_units, 1024, "gpgpu_num_sfu_units", units_why, err) ||
        gms_param_at_most(c->num_dp_units, 1024, "gpgpu_num_dp_units", units_why, err) ||
        gms_param_at_most(c->num_int_units, 1024, "gpgpu_num_int_units", units_why, err) ||
        gms_param_at_most(c->num_tensor_units, 1024, "gpgpu_num_tensor_core_units", units_why, err) ||
        gms_param_at_most(c->mem_unit_ports, 1024, "gpgpu_mem_unit_ports", "LSU ports per SM", err) ||
        gms_param_at_most(c->shader_cta, 65536, "gpgpu_shader_cta", "thread blocks per SM", err) ||
        gms_param_at_most(c->unified_l1d_size, 1u << 20, "gpgpu_unified_l1d_size", "KB of L1D and shared memory per SM",
                          err))
        return -1;
    if (c->mem_unit_ports == 0) return gms_err(err, "-gpgpu_mem_unit_ports: must be at least 1");
    if (c->reg_file_port_throughput == 0) return gms_err(err, "-gpgpu_reg_file_port_throughput: must be at least 1");
    if (!c->oc_units_gen && !c->oc_units_mem)
        return gms_err(err, "-gpgpu_operand_collector_num_units_gen / _mem: one of them must be at least 1");
    if (strcmp(c->id_oc_mem, "gpgpusim") && strcmp(c->id_oc_mem, "per-scheduler"))
        return gms_err(err, "-gms_id_oc_mem: '%s' is not gpgpusim or per-scheduler", c->id_oc_mem);
    c->id_oc_mem_shared = !c->sub_core_model && !strcmp(c->id_oc_mem, "gpgpusim");
    if (strcmp(c->issue_order, "rotate") && strcmp(c->issue_order, "fixed"))
        return gms_err(err, "-gms_sched_issue_order: '%s' is not rotate or fixed", c->issue_order);
    c->issue_fixed = !strcmp(c->issue_order, "fixed");
    if (strcmp(c->alu_collector, "gpgpusim") && strcmp(c->alu_collector, "none"))
        return gms_err(err, "-gms_alu_collector: '%s' is not gpgpusim or none", c->alu_collector);
    c->aluc = !c->sub_core_model && !strcmp(c->alu_collector, "gpgpusim");
    if (c->aluc && check_alu_collector(c, err)) return -1;
    if (strcmp(c->reg_banks, "gpgpusim") && strcmp(c->reg_banks, "none"))
        return gms_err(err, "-gms_reg_banks: '%s' is not gpgpusim or none", c->reg_banks);
    c->regbanks = c->aluc && !strcmp(c->reg_banks, "gpgpusim");
    if (c->regbanks && (c->num_reg_banks < 1 || c->num_reg_banks > GMS_ALUC_MAX_BANKS))
        return gms_err(err, "-gpgpu_num_reg_banks %u: with -gms_reg_banks gpgpusim it must be 1..%u", c->num_reg_banks,
                       (unsigned)GMS_ALUC_MAX_BANKS);
    if (strcmp(c->reg_banks_mem, "gpgpusim") && strcmp(c->reg_banks_mem, "none"))
        return gms_err(err, "-gms_reg_banks_mem: '%s' is not gpgpusim or none", c->reg_banks_mem);
    if (c->regbanks && !c->oc_units_gen && !strcmp(c->reg_banks_mem, "gpgpusim") && c->oc_units_mem > GMS_ALUC_MAX_CU)
        return gms_err(err, "-gpgpu_operand_collector_num_units_mem %u: with -gms_reg_banks_mem gpgpusim it must be at most %u",
                       c->oc_units_mem, (unsigned)GMS_ALUC_MAX_CU);
    if (strcmp(c->lsu_writeback, "gpgpusim") && strcmp(c->lsu_writeback, "none"))
        return gms_err(err, "-gms_lsu_writeback: '%s' is not gpgpusim or none", c->lsu_writeback);
    c->lsu_wb = !strcmp(c->lsu_writeback, "gpgpusim");
    /* bounded as every wait: the shared-memory pipeline has a stage per cycle of it */
    if (gms_param_wait_at_most(c->smem_latency, "gpgpu_smem_latency", err)) return -1;
    if (c->lsu_wb && c->smem_latency < 2)
        return gms_err(err, "-gpgpu_smem_latency %u: the LDST unit's shared-memory pipeline needs at least 2 stages "
                       "(GPGPU-Sim asserts smem_latency > 1); -gms_lsu_writeback none takes any latency",
                       c->smem_latency);
    if (strcmp(c->inst_fetch, "gpgpusim") && strcmp(c->inst_fetch, "none"))
        return gms_err(err, "-gms_inst_fetch: '%s' is not gpgpusim or none", c->inst_fetch);
    c->ifetch = !strcmp(c->inst_fetch, "gpgpusim");
    if (c->inst_fetch_throughput < 1)
        return gms_err(err, "-gpgpu_inst_fetch_throughput 0: no instruction would ever be fetched (at least 1)");
    /* GPGPU-Sim's scheduler loop would take any count, but a warp's instruction buffer holds 2 */
    if (c->max_insn_issue_per_warp < 1 || c->max_insn_issue_per_warp > 2)
        return gms_err(err, "-gpgpu_max_insn_issue_per_warp %u: must be 1 or 2 (a warp's instruction buffer holds 2)",
                       c->max_insn_issue_per_warp);
    if (decode_widths(c, err)) return -1;
    /* with sub-cores every scheduler has its own slot (so the two -gms_id_oc_mem readings are
     * one); the memory port's count is used only by the shared set's collection, and only when
     * memory instructions take the memory units (no generic ones) */
    static const char *const idoc_knob[] = { "gms_id_oc_mem", NULL };
    static const char *const mem_port_knob[] = { "gpgpu_operand_collector_num_in_ports_mem", NULL };
    static const char *const aluc_knob[] = { "gms_alu_collector", NULL };
    static const char *const banks_knob[] = { "gms_reg_banks", NULL };
    static const char *const banks_mem_knob[] = { "gms_reg_banks_mem", NULL };
    static const char *const scb_knob[] = { "gms_subcore_reg_banks", NULL };
    if (gms_params_require(p, idoc_knob, !c->sub_core_model, "-gpgpu_sub_core_model is 0", err) ||
        gms_params_require(p, aluc_knob, !c->sub_core_model, "-gpgpu_sub_core_model is 0", err) ||
        gms_params_require(p, banks_knob, c->aluc, "-gms_alu_collector is gpgpusim and -gpgpu_sub_core_model 0", err) ||
        gms_params_require(p, scb_knob, c->sub_core_model && c->oc_units_gen,
                           "-gpgpu_sub_core_model is 1 with generic collector units", err) ||
        gms_params_require(p, banks_mem_knob, c->regbanks && !c->oc_units_gen,
                           "-gms_reg_banks is gpgpusim (with -gms_alu_collector gpgpusim, -gpgpu_sub_core_model 0) and "
                           "-gpgpu_operand_collector_num_units_gen is 0", err) ||
        gms_params_require(p, mem_port_knob, c->id_oc_mem_shared && !c->oc_units_gen,
                           "the schedulers share ID_OC_MEM (-gms_id_oc_mem gpgpusim, -gpgpu_sub_core_model 0) and "
                           "-gpgpu_operand_collector_num_units_gen is 0", err))
        return -1;
    if (c->sub_core_model && c->oc_units_gen) {
        /* each scheduler gets units_gen / schedulers units (sm.c memq_init; at most 8) */
        uint32_t per = c->oc_units_gen / c->num_sched_per_core;
        if (c->oc_units_gen % c->num_sched_per_core || per > 8)
            return gms_err(err, "-gpgpu_operand_collector_num_units_gen %u: with -gpgpu_sub_core_model 1 it must be "
                           "1 to 8 units per scheduler (%u schedulers)", c->oc_units_gen, c->num_sched_per_core);
        if (c->oc_in_ports_gen == 0)
            return gms_err(err, "-gpgpu_operand_collector_num_in_ports_gen: must be at least 1 with generic units");
    }
    if (check_subcore_banks(c, err)) return -1;
    size_t nso = 0;
    if (c->shmem_option[0] && gms_parse_u32_list(c->shmem_option, ',', c->shmem_opts, 16, &nso))
        return gms_err(err, "-gpgpu_shmem_option: '%s' must be a comma-separated list of up to 16 KB values",
                       c->shmem_option);
    c->n_shmem_opts = (uint32_t)nso;
    if (c->adaptive_cache_config && c->unified_l1d_size == 0)
        return gms_err(err, "-gpgpu_adaptive_cache_config 1 needs -gpgpu_unified_l1d_size (KB)");

    const gms_warp_sched_ops *so = gms_warp_sched_find(c->scheduler);
    if (!so) return gms_reg_unknown(&gms_warp_sched_reg, c->scheduler, err);
    c->two_level_active = 6;
    /* the parameters after the name are the member's ("two_level_active:6:0:1") */
    const char *args = c->scheduler + strcspn(c->scheduler, ":");
    if (so->configure && so->configure(c, *args ? args + 1 : args, err)) return -1;

    if (!gms_bypass_find(c->l1d_bypass)) return gms_reg_unknown(&gms_l1d_bypass_reg, c->l1d_bypass, err);
    if (c->ccws && c->ccws_vta == 0) return gms_err(err, "-gms_ccws_vta: must be at least 1");
    /* knobs of a policy that is not chosen would be accepted and never used */
    static const char *const mdb_knobs[] = { "gms_mdb_", NULL }, *const static_knobs[] = { "gms_bypass_l", NULL },
                             *const ccws_knobs[] = { "gms_ccws_", NULL };
    /* PDP uses MDB's period and set sampling only; the rest are MDB's generator's */
    static const char *const mdb_only_knobs[] = { "gms_mdb_e", "gms_mdb_calculators", "gms_mdb_start", "gms_mdb_kernel_start", "gms_mdb_level", "gms_mdb_monitor",
                                                  "gms_mdb_rf_scale", "gms_mdb_hit_bits", "gms_mdb_rf_bits", NULL };
    int mdb_like = !strncmp(c->l1d_bypass, "mdb", 3) || !strcmp(c->l1d_bypass, "pdp");
    /* the generator's own knobs first, so that one set without any policy is not said to serve PDP */
    if (gms_params_require(p, mdb_only_knobs, !strncmp(c->l1d_bypass, "mdb", 3),
                           "-gms_l1d_bypass is mdb-local or mdb-global (pdp uses only -gms_mdb_period and -gms_mdb_sample)", err) ||
        gms_params_require(p, mdb_knobs, mdb_like, "-gms_l1d_bypass is mdb-local, mdb-global or pdp", err) ||
        gms_params_require(p, static_knobs, !strcmp(c->l1d_bypass, "static"), "-gms_l1d_bypass static", err) ||
        gms_params_require(p, ccws_knobs, c->ccws, "-gms_ccws 1", err))
        return -1;
    if (c->mdb_period == 0) return gms_err(err, "-gms_mdb_period: must be at least 1");
    if (c->mdb_sample == 0) return gms_err(err, "-gms_mdb_sample: must be at least 1");
    if (c->mdb_calcs == 0 || c->mdb_calcs > GMS_MDB_MAX_CALC)
        return gms_err(err, "-gms_mdb_calculators: %u is not in 1..%d", c->mdb_calcs, GMS_MDB_MAX_CALC);
    if (!(c->mdb_e >= 0)) return gms_err(err, "-gms_mdb_e: must be a number >= 0");
    if (c->mdb_hit_bits > 63) return gms_err(err, "-gms_mdb_hit_bits: %u is not in 0..63 (0 = 64 bits)", c->mdb_hit_bits);
    if (c->mdb_rf_bits > 63) return gms_err(err, "-gms_mdb_rf_bits: %u is not in 0..63 (0 = 64 bits)", c->mdb_rf_bits);
    if (strcmp(c->mdb_start, "l1d") && strcmp(c->mdb_start, "bypass"))
        return gms_err(err, "-gms_mdb_start: '%s' is not l1d or bypass", c->mdb_start);
    if (strcmp(c->mdb_kernel_start, "keep") && strcmp(c->mdb_kernel_start, "restart"))
        return gms_err(err, "-gms_mdb_kernel_start: '%s' is not keep or restart", c->mdb_kernel_start);
    if (!strcmp(c->mdb_level, "block-or-warp")) c->mdb_sm_warp = 0;
    else if (!strcmp(c->mdb_level, "sm-warp")) c->mdb_sm_warp = 1;
    else return gms_err(err, "-gms_mdb_level: '%s' is not block-or-warp or sm-warp", c->mdb_level);
    if (strcmp(c->mdb_global_level, "own") && strcmp(c->mdb_global_level, "monitor"))
        return gms_err(err, "-gms_mdb_global_level: '%s' is not own or monitor", c->mdb_global_level);
    /* at SM warp level every SM counts the same warp slots: the two readings are one */
    if (c->mdb_sm_warp && gms_params_is_set(p, "gms_mdb_global_level"))
        return gms_err(err, "-gms_mdb_global_level: has no effect with -gms_mdb_level sm-warp (every SM counts its warp "
                       "slots, whatever the monitor's blocks); leave it unset");
    /* the monitored SM and the level it broadcasts at are the global generator's; mdb-local
     * has one per SM */
    static const char *const global_knobs[] = { "gms_mdb_global_level", "gms_mdb_monitor", NULL };
    if (gms_params_require(p, global_knobs, !strcmp(c->l1d_bypass, "mdb-global"), "-gms_l1d_bypass mdb-global", err))
        return -1;

    /* latencies: trace-mode values (what SASS traces and built-in workloads use) */
    struct { const char *opt; const char *val; int op; } tl[] = {
        { "trace_opcode_latency_initiation_int", c->trace_lat_int, GMS_OP_INT },
        { "trace_opcode_latency_initiation_sp", c->trace_lat_sp, GMS_OP_SP },
        { "trace_opcode_latency_initiation_dp", c->trace_lat_dp, GMS_OP_DP },
        { "trace_opcode_latency_initiation_sfu", c->trace_lat_sfu, GMS_OP_SFU },
        { "trace_opcode_latency_initiation_tensor", c->trace_lat_tensor, GMS_OP_TENSOR },
    };
    for (size_t i = 0; i < sizeof tl / sizeof tl[0]; i++)
        if (parse_lat_ii(tl[i].val, tl[i].opt, &c->lat[tl[i].op], err)) return -1;
    /* the PTX lists are not used (latencies come from the trace-mode options above) but a
     * typo must not pass silently */
    struct { const char *opt, *val; } pl[] = {
        { "ptx_opcode_latency_int", c->ptx_lat_int }, { "ptx_opcode_latency_fp", c->ptx_lat_fp },
        { "ptx_opcode_latency_dp", c->ptx_lat_dp }, { "ptx_opcode_latency_sfu", c->ptx_lat_sfu },
        { "ptx_opcode_latency_tesnor", c->ptx_lat_tensor }, { "ptx_opcode_initiation_int", c->ptx_ii_int },
        { "ptx_opcode_initiation_fp", c->ptx_ii_fp }, { "ptx_opcode_initiation_dp", c->ptx_ii_dp },
        { "ptx_opcode_initiation_sfu", c->ptx_ii_sfu }, { "ptx_opcode_initiation_tensor", c->ptx_ii_tensor },
    };
    for (size_t i = 0; i < sizeof pl / sizeof pl[0]; i++)
        if (check_number_list(pl[i].val, pl[i].opt, err)) return -1;
    c->lat[GMS_OP_BRA] = (gms_lat_ii){ 4, 1 };
    c->lat[GMS_OP_NOP] = (gms_lat_ii){ 1, 1 };
    c->lat[GMS_OP_BAR] = (gms_lat_ii){ 1, 1 };
    c->lat[GMS_OP_EXIT] = (gms_lat_ii){ 1, 1 };
    c->lat[GMS_OP_TEX] = (gms_lat_ii){ 200, 4 };
    c->lat[GMS_OP_MEM] = (gms_lat_ii){ 1, 1 };
    c->spec_on = 0;
    int spec_gap = 0;
    for (int n = 0; n < GMS_MAX_SPEC_UNITS; n++) {
        char opt[64];
        snprintf(opt, sizeof opt, "trace_opcode_latency_initiation_spec_op_%d", n + 1);
        if (parse_lat_ii(c->trace_lat_spec[n], opt, &c->spec_lat[n + 1], err)) return -1;
        unsigned en, nu, ml, a, b;
        char name[64];
        if (sscanf(c->spec_unit[n], "%u,%u,%u,%u,%u,%63s", &en, &nu, &ml, &a, &b, name) != 6)
            return gms_err(err, "-specialized_unit_%d: '%s' must be <enabled>,<num_units>,<max_latency>,<ID_OC>,<OC_EX>,<NAME>",
                           n + 1, c->spec_unit[n]);
        c->spec_nunits[n + 1] = nu;
        if (!en) spec_gap = 1;
        else if (!spec_gap) c->spec_on = (uint32_t)n + 1;
        if (en && !strcmp(name, "BRA")) c->lat[GMS_OP_BRA] = c->spec_lat[n + 1];
        if (en && !strcmp(name, "TEX")) c->lat[GMS_OP_TEX] = c->spec_lat[n + 1];
    }
    for (int i = 0; i < 16; i++) c->units[i] = 1;
    c->units[GMS_OP_SP] = c->num_sp_units;
    c->units[GMS_OP_SFU] = c->num_sfu_units ? c->num_sfu_units : 1;
    c->units[GMS_OP_DP] = c->num_dp_units ? c->num_dp_units : c->num_sp_units;
    c->units[GMS_OP_INT] = c->num_int_units ? c->num_int_units : c->num_sp_units;
    c->units[GMS_OP_TENSOR] = c->num_tensor_units ? c->num_tensor_units : 1;
    c->units[GMS_OP_BRA] = c->num_sched_per_core;
    c->units[GMS_OP_UDP] = c->num_sched_per_core;
    c->lat[GMS_OP_UDP] = c->spec_lat[4];
    c->units[GMS_OP_MEM] = c->mem_unit_ports;
    c->units[GMS_OP_BAR] = c->units[GMS_OP_EXIT] = c->units[GMS_OP_NOP] = c->num_sched_per_core;
    c->units[GMS_OP_TEX] = 1;
    return 0;
}

static void core_dump(const gms_params *p, FILE *out)
{
    const gms_core_params *c = &p->core;
    fprintf(out, "GPU: %u SMs (%u clusters x %u), core %.1f MHz, interconnect %.1f MHz, L2 %.1f MHz, DRAM %.1f MHz\n",
            c->n_sm, c->n_clusters, c->n_cores_per_cluster, c->mhz_core, c->mhz_icnt, c->mhz_l2, c->mhz_dram);
    fprintf(out, "Clusters: one interconnect node each (its SMs share the request input and the reply port); %u + %u "
            "replies in the response FIFOs%s\n", c->ejection_buf, c->ldst_resp_buf,
            c->n_cores_per_cluster < 2 ? "" : c->simt_core_sim_order == 1 ? "; a cluster's SMs tick in an order rotated "
            "each cycle" : "; a cluster's SMs tick in SM order");
    fprintf(out, "SM: up to %u threads (%u warps), %u thread blocks, %u registers, %u KiB shared memory in %u banks (%u-cycle latency)\n",
            c->max_threads_per_sm, c->max_warps_per_sm, c->shader_cta, c->shader_registers, c->shmem_size / 1024,
            c->shmem_num_banks, c->smem_latency);
    const gms_warp_sched_ops *so = gms_warp_sched_find(c->scheduler);
    fprintf(out, "Schedulers: %u per SM (%s), %s", c->num_sched_per_core,
            c->issue_fixed ? "scheduler 0 issues first every cycle" : "the first to issue rotates every cycle",
            so ? so->summary : c->scheduler);
    if (so && so->describe) {
        char words[128];
        so->describe(c, words, sizeof words);
        fprintf(out, " %s", words);
    }
    /* where an op class without units of its own runs (sm_life.c memq_init: the sub-core
     * pipeline follows GPGPU-Sim 4.x, the 3.x collector 3.x: everything but SFU on the SP pipe) */
    char dp[48], in[48];
    if (c->num_dp_units && !c->aluc) snprintf(dp, sizeof dp, "%u DP", c->num_dp_units);
    else snprintf(dp, sizeof dp, "DP on the %s pipe", c->sub_core_model && c->oc_units_gen ? "SFU" : "SP");
    if (c->num_int_units && !c->aluc) snprintf(in, sizeof in, "%u INT", c->num_int_units);
    else snprintf(in, sizeof in, "INT on the SP pipe");
    fprintf(out, "\nPipelines: %u SP, %u SFU, %s, %s, %u tensor; LSU accepts %u instruction(s)/cycle\n",
            c->units[GMS_OP_SP], c->units[GMS_OP_SFU], dp, in, c->units[GMS_OP_TENSOR], c->mem_unit_ports);
    if (c->lsu_wb)
        fprintf(out, "LDST write-back: one slot a cycle, round robin among the %u-stage shared-memory pipeline, bypassed "
                "replies and the L1D's MSHR waiters (GPGPU-Sim's ldst_unit::writeback)\n", c->smem_latency);
    else
        fprintf(out, "LDST write-back: shared-memory loads after a fixed %u cycles, bypassed replies at once, the L1D's "
                "waiters one a cycle (-gms_lsu_writeback none)\n", c->smem_latency);
    if (c->sub_core_model)
        fprintf(out, "Memory instructions to the LSU: per scheduler, an ID_OC_MEM slot and %u collector unit(s) + OC_EX_MEM\n",
                c->oc_mem_units / (c->num_sched_per_core ? c->num_sched_per_core : 1));
    else if (c->id_oc_mem_shared)
        fprintf(out, "Memory instructions to the LSU: one ID_OC_MEM set of %u for all schedulers, then %u collector unit(s) "
                "+ OC_EX_MEM of %u shared, %u leaving ID_OC_MEM per cycle\n", c->idoc_mem_w, c->oc_mem_units, c->ocex_mem_w,
                c->oc_mem_moves);
    else
        fprintf(out, "Memory instructions to the LSU: per scheduler, an ID_OC_MEM slot and %u collector unit(s) + 1 "
                "(-gms_id_oc_mem per-scheduler)\n", c->oc_mem_units);
    if (c->aluc)
        fprintf(out, "ALU instructions: GPGPU-Sim 3.x's operand collector, one source operand read a cycle: SP pipe "
                "ID_OC %u, %u collector unit(s) (%u in, %u out port(s)), OC_EX %u, %u unit(s); SFU pipe ID_OC %u, %u "
                "collector unit(s) (%u in, %u out), OC_EX %u, %u unit(s); %u result bus(es); written back latency + 2 "
                "after a unit takes one\n",
                c->idoc_w[0], c->oc_units_sp, c->oc_in_sp, c->oc_out_sp, c->ocex_w[0], c->num_sp_units, c->idoc_w[1],
                c->oc_units_sfu, c->oc_in_sfu, c->oc_out_sfu, c->ocex_w[1], c->units[GMS_OP_SFU], c->exwb_w);
    if (c->regbanks)
        fprintf(out, "Register banks: %u, a register's bank is its number + the warp id modulo %u; the SP and SFU%s units' reads "
                "arbitrated as GPGPU-Sim 3.x (one per bank and unit a cycle, written-back banks first); the LDST unit's "
                "write-backs wait a cycle for a bank an ALU result takes\n", c->num_reg_banks, c->num_reg_banks,
                !c->oc_units_gen && !strcmp(c->reg_banks_mem, "gpgpusim") ? " and memory" : "");
    else if (c->aluc)
        fprintf(out, "Register banks: no conflicts (-gms_reg_banks none)\n");
    else if (c->scbanks)
        fprintf(out, "Register banks: %u, %u per scheduler, a register's bank (register + 1 + warp id) modulo %u within "
                "its scheduler's; each collector step every bank with a queued read grants its oldest (GPGPU-Sim 4.x: a "
                "unit may read several operands a step), a bank written that cycle is not read in its first step; the "
                "LDST unit's write-backs wait a cycle for a bank an ALU result takes\n", c->num_reg_banks,
                c->num_reg_banks / c->num_sched_per_core, c->num_reg_banks / c->num_sched_per_core);
    else if (c->sub_core_model && c->oc_units_gen)
        fprintf(out, "Register banks: no conflicts, a collector unit reads all its operands in one step "
                "(-gms_subcore_reg_banks none)\n");
    else if (!c->sub_core_model)
        fprintf(out, "ALU instructions: registers released the latency after issue (-gms_alu_collector none)\n");
    if (c->ifetch)
        fprintf(out, "Instruction fetch: GPGPU-Sim's front end, %u decode/fetch pair(s) per SM per cycle, a warp a fetch, "
                "into its 2-entry instruction buffer (perfect instruction cache); up to %u instruction(s) per warp per "
                "cycle%s\n", c->inst_fetch_throughput, c->max_insn_issue_per_warp,
                c->sub_core_model && c->max_insn_issue_per_warp >= 2 && c->dual_issue_diff_exec_units
                    ? ", the second to another kind of unit" : "");
    else {
        fprintf(out, "Instruction fetch: not modelled, a warp's next instruction is always ready (-gms_inst_fetch none)\n");
        if (c->sub_core_model && c->oc_units_gen && c->max_insn_issue_per_warp >= 2)
            fprintf(out, "Dual issue: a warp's second instruction in the same cycle%s (instruction buffer taken as full)\n",
                    c->dual_issue_diff_exec_units ? ", to another kind of unit" : "");
    }
    fprintf(out, "Latencies (latency/initiation, core cycles): int %u/%u, sp %u/%u, dp %u/%u, sfu %u/%u, tensor %u/%u, branch %u/%u\n",
            c->lat[GMS_OP_INT].lat, c->lat[GMS_OP_INT].ii, c->lat[GMS_OP_SP].lat, c->lat[GMS_OP_SP].ii,
            c->lat[GMS_OP_DP].lat, c->lat[GMS_OP_DP].ii, c->lat[GMS_OP_SFU].lat, c->lat[GMS_OP_SFU].ii,
            c->lat[GMS_OP_TENSOR].lat, c->lat[GMS_OP_TENSOR].ii, c->lat[GMS_OP_BRA].lat, c->lat[GMS_OP_BRA].ii);
    fprintf(out, "Coalescing: %s; global loads %s the L1D; L1D %s at kernel end\n",
            c->coalesce_arch >= 40 ? "32 B sectors (Maxwell+)" : "128 B lines",
            c->gmem_skip_l1d ? "bypass" : "go through", c->flush_l1_cache ? "flushed" : "kept");
    if (strcmp(c->l1d_bypass, "none")) {
        const gms_bypass_ops *bo = gms_bypass_find(c->l1d_bypass);
        fprintf(out, "L1D bypass policy: %s", bo ? bo->summary : c->l1d_bypass);
        if (!strcmp(c->l1d_bypass, "static")) fprintf(out, "; L = %u", c->bypass_l);
        if (!strncmp(c->l1d_bypass, "mdb", 3))
            fprintf(out, "; decision every %u accesses, E %g, %u calculators, shadow tags on 1 of %u sets, "
                    "RF term %s, start %s, L counts %s", c->mdb_period, c->mdb_e, c->mdb_calcs, c->mdb_sample,
                    c->mdb_rf_scale ? "scaled to the sampled sets" : "unscaled",
                    c->mdb_start[0] == 'b' ? "all bypass" : "all L1D",
                    c->mdb_sm_warp ? "the SM's warp slots" : "block slots (one block resident: its warps)");
        if (!strncmp(c->l1d_bypass, "mdb", 3))
            fprintf(out, ", counters of %u (hits) and %u (RF) bits, saturating", c->mdb_hit_bits ? c->mdb_hit_bits : 64,
                    c->mdb_rf_bits ? c->mdb_rf_bits : 64);
        if (!strcmp(c->l1d_bypass, "mdb-global"))
            fprintf(out, "; SM %u decides, every SM applies L at %s", c->mdb_monitor < c->n_sm ? c->mdb_monitor : c->n_sm - 1,
                    c->mdb_global_level[0] == 'm' ? "the monitored SM's level" : "its own level");
        fprintf(out, "\n");
    }
    if (c->ccws)
        fprintf(out, "CCWS: %u victim tags per warp, +%u per lost-locality hit, base score %u\n", c->ccws_vta, c->ccws_k,
                c->ccws_base);
    if (c->swl) fprintf(out, "Static warp limiting: each scheduler issues from its %u oldest warps\n", c->swl);
    if (c->adaptive_cache_config)
        fprintf(out, "L1D/shared carve-out: adaptive, %u KiB unified per SM; at each launch the L1D gets the unified "
                "size minus the smallest shared-memory option (%s KiB) covering the kernel's shared memory\n",
                c->unified_l1d_size, c->shmem_option);
    fprintf(out, "Kernels: up to %u concurrent (%s), launch latency %u cycles", c->max_concurrent_kernel,
            c->concurrent_kernel_sm ? "may share SMs" : "one kernel per SM", c->kernel_launch_latency);
    if (c->tb_launch_latency) fprintf(out, " + %u per block of the grid", c->tb_launch_latency);
    fputc('\n', out);
}

static int sim_finalize(gms_params *p, gms_error *err)
{
    if (p->sim.host_threads < 1 || p->sim.host_threads > 8)
        return gms_err(err, "-gms_host_threads: %u is not in 1..8", p->sim.host_threads);
    if (p->sim.perfect_mem && p->sim.perfect_mem_latency == 0)
        return gms_err(err, "-gms_fixed_mem_latency: must be at least 1 cycle");
    if (strcmp(p->sim.trace_memcpy, "instant") && strcmp(p->sim.trace_memcpy, "pcie"))
        return gms_err(err, "-gms_trace_memcpy: '%s' is not instant or pcie", p->sim.trace_memcpy);
    p->sim.trace_memcpy_pcie = p->sim.trace_memcpy[0] == 'p';
    return 0;
}

static void sim_dump(const gms_params *p, FILE *out)
{
    fprintf(out, "Simulation: seed %llu, idle skipping %s, watchdog %llu cycles%s\n",
            (unsigned long long)p->sim.seed, p->sim.skip_idle ? "on" : "off",
            (unsigned long long)p->sim.watchdog_cycles, p->sim.watchdog_cycles ? "" : " (off)");
    if (p->sim.perfect_mem)
        fprintf(out, "Memory: FIXED-LATENCY stand-in (-gpgpu_perfect_mem 1), %u core cycles, no L2/DRAM model\n",
                p->sim.perfect_mem_latency);
}

const gms_config_module gms_config_module_core = { "core", core_opts, sizeof core_opts / sizeof core_opts[0], core_finalize, core_dump };
const gms_config_module gms_config_module_sim = { "sim", sim_opts, sizeof sim_opts / sizeof sim_opts[0], sim_finalize, sim_dump };
