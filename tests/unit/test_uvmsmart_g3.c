/* UVMSmart drop-in, GPGPU-Sim 3.x options: the option lines of UVMSmart's
 * configs/GeForceGTX1080Ti/gpgpusim.config that are GPGPU-Sim 3.x's (not UVM's) load without
 * --ignore-unknown (a trailing comment and the two-line quoted DRAM timing included); the ones
 * not modelled are listed as such; -gmem_skip_L1D is 3.x's name of -gpgpu_gmem_skip_L1D. */
#include "test.h"
#include <string.h>
#include "config/params.h"

static const char cfg[] =
    "-gpgpu_ptx_instruction_classification 0\n-gpgpu_ptx_sim_mode 0\n-gpgpu_ptx_force_max_capability 20 \n"
    "-gpgpu_ptx_convert_to_ptxplus 0\n-gpgpu_ptx_save_converted_ptxplus 0\n-gpgpu_simd_model 1 \n"
    "-gpgpu_pipeline_widths 4,1,1,4,1,1,6\n-ptx_opcode_latency_int 4,13,4,5,145\n"
    "-gpgpu_cache:dl1  64:128:6,L:L:m:N:H,A:128:8,8\n-gmem_skip_L1D 1\n"
    "-gpgpu_cache:dl2 64:128:16,L:B:m:W:L,A:1024:1024,4:0,32 # used to be 128:4\n"
    "-gpgpu_cache:dl2_texture_only 0 \n-gpgpu_cache:il1 8:128:4,L:R:f:N:L,A:2:48,4\n"
    "-gpgpu_tex_cache:l1 16:128:24,L:R:m:N:L,F:128:4,128:2\n-gpgpu_const_cache:l1 128:64:2,L:R:f:N:L,A:2:64,4\n"
    "-gpgpu_operand_collector_num_units_sp 20\n-gpgpu_operand_collector_num_units_sfu 4\n"
    "-gpgpu_operand_collector_num_units_mem 8\n-gpgpu_operand_collector_num_in_ports_sp 4\n"
    "-gpgpu_operand_collector_num_out_ports_sp 4\n-gpgpu_operand_collector_num_in_ports_sfu 1\n"
    "-gpgpu_operand_collector_num_out_ports_sfu 1\n-gpgpu_operand_collector_num_in_ports_mem 1\n"
    "-gpgpu_operand_collector_num_out_ports_mem 1\n-gpgpu_num_reg_banks 32\n-gpgpu_shmem_limited_broadcast 0\n"
    "-gpgpu_shmem_warp_parts 1\n-gpgpu_max_insn_issue_per_warp 2\n-network_mode 1 \n"
    "-gpgpu_dram_timing_opt \"nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:\n"
    "                        CL=12:WL=4:CDLR=5:WR=12:nbkgrp=1:CCDL=0:RTPL=0\"\n"
    "-gpgpu_memlatency_stat 14 \n-gpgpu_runtime_stat 500\n-enable_ptx_file_line_stats 1\n-visualizer_enabled 0\n"
    "-power_simulation_enabled 1\n-gpuwattch_xml_file gpuwattch_geforcegtx1080ti.xml\n-gpgpu_deadlock_detect 0\n";

TEST(uvmsmart_gpgpusim3_options_load_without_ignore_unknown)
{
    gms_params *p = gms_params_new();
    gms_error err = {0};
    int rc = gms_params_load_text(p, "gtx1080ti-uvmsmart.config", cfg, sizeof cfg - 1, &err);
    if (rc) printf("    %s\n", err.msg);
    REQUIRE(rc == 0);
    REQUIRE(gms_params_finalize(p, &err) == 0);
    CHECK_EQ(p->nignored, 0);
    CHECK_EQ(p->core.gmem_skip_l1d, 1);                  /* modelled, under its 3.x name */
    /* the SP/SFU collector sets are modelled (-gms_alu_collector gpgpusim, no sub-cores) */
    CHECK_EQ(p->core.oc_units_sp, 20);
    CHECK_EQ(p->core.oc_in_sp, 4);
    CHECK_EQ(p->core.oc_out_sp, 4);
    CHECK_EQ(p->core.aluc, 1);
    CHECK_EQ(p->core.idoc_w[0], 4);
    CHECK_EQ(p->core.idoc_w[1], 1);
    CHECK_EQ(p->core.ocex_w[0], 4);
    CHECK_EQ(p->core.ocex_w[1], 1);
    CHECK_STR(p->g3.il1, "8:128:4,L:R:f:N:L,A:2:48,4");
    /* the ones set away from GPGPU-Sim 3.x's defaults are reported; the ones at their default
     * (ptx_sim_mode 0, simd_model 1, file line stats 1, ...) are not. max_insn_issue_per_warp
     * 2 (dual issue) is modelled without sub-cores (-gms_inst_fetch gpgpusim) */
    const char *names[64];
    size_t n = gms_params_unmodelled(p, names, 64);
    int il1 = 0, power = 0, simd = 0, sim_mode = 0, skip = 0, dual = 0, ocsp = 0;
    for (size_t i = 0; i < n && i < 64; i++) {
        il1 += !strcmp(names[i], "gpgpu_cache:il1");
        power += !strcmp(names[i], "power_simulation_enabled");
        simd += !strcmp(names[i], "gpgpu_simd_model");
        sim_mode += !strcmp(names[i], "gpgpu_ptx_sim_mode");
        skip += !strcmp(names[i], "gmem_skip_L1D");
        dual += !strcmp(names[i], "gpgpu_max_insn_issue_per_warp");
        ocsp += !strncmp(names[i], "gpgpu_operand_collector_num_units_s", 35);
    }
    CHECK_EQ(ocsp, 0);
    CHECK_EQ(dual, 0);
    CHECK_EQ(p->core.ifetch, 1);
    CHECK_EQ(p->core.max_insn_issue_per_warp, 2);
    CHECK_EQ(il1, 1);
    CHECK_EQ(power, 1);
    CHECK_EQ(simd, 0);
    CHECK_EQ(sim_mode, 0);
    CHECK_EQ(skip, 0);
    gms_params_free(p);
}

TEST(uvmsmart_gpgpusim3_options_check_their_type)
{
    gms_params *p = gms_params_new();
    gms_error err = {0};
    CHECK(gms_params_set(p, "gpgpu_num_reg_banks", "many", &err) != 0);
    CHECK(strstr(err.msg, "gpgpu_num_reg_banks") != NULL);
    gms_params_free(p);
}
