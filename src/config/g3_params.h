/* GPGPU-Sim 3.x options that UVMSmart's configs set (configs/GeForceGTX1080Ti/gpgpusim.config
 * and its siblings) and that gpumemsim accepts without --ignore-unknown: the functional
 * simulator's, the 3.x operand collector's, instruction/texture/constant caches, statistics,
 * power and visualizer switches. None is modelled (g3_options.c says what happens instead),
 * except -gmem_skip_L1D, 3.x's name of -gpgpu_gmem_skip_L1D. */
#ifndef GMS_CONFIG_G3_PARAMS_H
#define GMS_CONFIG_G3_PARAMS_H
#include <stdint.h>
#include "config/option.h"

typedef struct gms_g3_params {
    int ptx_instruction_classification;
    int ptx_sim_mode;
    uint32_t ptx_force_max_capability;
    int ptx_convert_to_ptxplus;
    int ptx_save_converted_ptxplus;
    int simd_model;
    char il1[GMS_OPT_STRLEN];
    char tex_l1[GMS_OPT_STRLEN];
    char const_l1[GMS_OPT_STRLEN];
    int dl2_texture_only;
    uint32_t oc_out_mem;
    int shmem_limited_broadcast;
    uint32_t shmem_warp_parts;
    uint32_t memlatency_stat;
    char runtime_stat[GMS_OPT_STRLEN];
    int ptx_file_line_stats;
    int visualizer_enabled;
    int power_simulation_enabled;
    char gpuwattch_xml_file[GMS_OPT_STRLEN];
    int deadlock_detect;
} gms_g3_params;

#endif
