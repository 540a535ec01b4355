/* Every policy family's registry, for `gpumemsim list policies` and the registry contract test.
 * A new family adds its registry here; a new member of a family does not. */
#include "util/registry.h"

extern const gms_registry gms_warp_sched_reg, gms_index_reg, gms_repl_reg, gms_mshr_reg, gms_l2q_reg,
    gms_dram_sched_reg, gms_chanmap_reg, gms_uvm_prefetch_reg, gms_uvm_evict_reg, gms_uvm_runtime_reg,
    gms_l1d_bypass_reg, gms_cke_tb_reg, gms_cke_mi_reg;

const gms_registry *const gms_registries[] = {
    &gms_warp_sched_reg, &gms_index_reg, &gms_repl_reg, &gms_mshr_reg, &gms_l2q_reg,
    &gms_dram_sched_reg, &gms_chanmap_reg, &gms_uvm_prefetch_reg, &gms_uvm_evict_reg, &gms_uvm_runtime_reg,
    &gms_l1d_bypass_reg, &gms_cke_tb_reg, &gms_cke_mi_reg,
};
const size_t gms_nregistries = sizeof gms_registries / sizeof gms_registries[0];
