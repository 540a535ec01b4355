/* GPGPU-Sim 3.x options found in UVMSmart's configs, accepted so that its config files load
 * unchanged (no --ignore-unknown). Defaults are GPGPU-Sim 3.x's registered ones; every option
 * but -gmem_skip_L1D and -gpgpu_runtime_stat (its period) is unmodelled and says what
 * gpumemsim does instead, so a config that sets one to another value gets the usual "set but
 * not modelled" warning (unmodelled.c). */
#include "config/params.h"

#define U(name, type, field, def, help, instead) GMS_OPT_X(name, type, g3.field, def, help, GMS_SYN_PLAIN, instead)
static const char FUNC[] = "no functional PTX simulator: built-in workloads and traces give the instructions";
static const char OC3[] = "memory instructions past ID_OC_MEM (collector units + OC_EX_MEM) reach the LSU oldest "
                          "first once their operands are read; the memory units' dispatch is not modelled port by port";
static const char STATS[] = "statistics are the ones gpumemsim writes (docs/counters.md)";

static const gms_option opts[] = {
    U("gpgpu_ptx_instruction_classification", GMS_OPT_INT, ptx_instruction_classification, "0",
      "3.x: PTX instruction classification statistics", STATS),
    U("gpgpu_ptx_sim_mode", GMS_OPT_INT, ptx_sim_mode, "0", "3.x: 0 performance, 1 functional-only simulation",
      "always performance simulation; --no-timing is the functional-only run"),
    U("gpgpu_ptx_force_max_capability", GMS_OPT_U32, ptx_force_max_capability, "0",
      "3.x: highest PTX/SASS compute capability taken from the binary", FUNC),
    U("gpgpu_ptx_convert_to_ptxplus", GMS_OPT_BOOL, ptx_convert_to_ptxplus, "0", "3.x: run SASS converted to PTXPlus", FUNC),
    U("gpgpu_ptx_save_converted_ptxplus", GMS_OPT_BOOL, ptx_save_converted_ptxplus, "0", "3.x: keep the PTXPlus files", FUNC),
    U("gpgpu_simd_model", GMS_OPT_INT, simd_model, "1", "3.x: 1 = post-dominator reconvergence (the only model)",
      "warps follow the workload's own per-lane control flow"),
    U("gpgpu_cache:il1", GMS_OPT_STRING, il1, "4:256:4,L:R:f:N,A:2:32,4", "3.x: instruction cache geometry",
      "instruction fetch always hits (no instruction cache)"),
    U("gpgpu_tex_cache:l1", GMS_OPT_STRING, tex_l1, "8:128:5,L:R:m:N,F:128:4,128:2", "3.x: texture cache geometry",
      "texture reads go through the L1D path"),
    U("gpgpu_const_cache:l1", GMS_OPT_STRING, const_l1, "64:64:2,L:R:f:N,A:2:32,4", "3.x: constant cache geometry",
      "constant reads always hit"),
    U("gpgpu_cache:dl2_texture_only", GMS_OPT_BOOL, dl2_texture_only, "1", "3.x: L2 caches texture data only",
      "every global access goes through the L2 as -gpgpu_cache:dl2 describes"),
    U("gpgpu_operand_collector_num_out_ports_mem", GMS_OPT_U32, oc_out_mem, "1", "3.x: MEM collector output ports", OC3),
    U("gpgpu_shmem_limited_broadcast", GMS_OPT_BOOL, shmem_limited_broadcast, "1",
      "3.x: shared memory broadcasts only one word per conflict-free access",
      "shared memory conflicts follow -gpgpu_shmem_num_banks with full broadcast"),
    U("gpgpu_shmem_warp_parts", GMS_OPT_U32, shmem_warp_parts, "2", "3.x: shared memory and global coalescing per warp in parts (2 = half warps)",
      "a warp's shared memory access is one request and its global access is coalesced whole (as with 1, UVMSmart's GTX1080Ti value)"),
    U("gpgpu_memlatency_stat", GMS_OPT_U32, memlatency_stat, "0", "3.x: memory latency statistics mask", STATS),
    /* modelled in part: the period (cycles) folds averagemflatency's latency windows
     * (stats/memlat.h); the flags only choose GPGPU-Sim's periodic printouts */
    GMS_OPT("gpgpu_runtime_stat", GMS_OPT_STRING, g3.runtime_stat, "10000:0",
            "periodic statistics (cycles:flags): every `cycles` kernel cycles GPGPU-Sim folds its memory "
            "latency window into averagemflatency and avg_icnt2mem_latency (modelled); the flags' periodic "
            "printouts are not (the progress line and final statistics replace them)"),
    U("enable_ptx_file_line_stats", GMS_OPT_BOOL, ptx_file_line_stats, "1", "3.x: per-PTX-line statistics", STATS),
    U("visualizer_enabled", GMS_OPT_BOOL, visualizer_enabled, "1", "3.x: AerialVision log",
      "no AerialVision log (gpumemsim plot draws its own)"),
    U("power_simulation_enabled", GMS_OPT_BOOL, power_simulation_enabled, "0", "3.x: GPUWattch power model", "no power model"),
    U("gpuwattch_xml_file", GMS_OPT_STRING, gpuwattch_xml_file, "gpuwattch.xml", "3.x: GPUWattch configuration", "no power model"),
    U("gpgpu_deadlock_detect", GMS_OPT_BOOL, deadlock_detect, "1", "3.x: stop when nothing retires for a long time",
      "-gms_watchdog_cycles does this"),
    /* 3.x's name of the option 4.x calls -gpgpu_gmem_skip_L1D: the same field, modelled */
    GMS_OPT("gmem_skip_L1D", GMS_OPT_BOOL, core.gmem_skip_l1d, "0", "3.x name of -gpgpu_gmem_skip_L1D (global loads and stores bypass the L1D)"),
};
#undef U

const gms_config_module gms_config_module_g3 = { "gpgpusim3", opts, sizeof opts / sizeof opts[0], NULL, NULL };
