#include "config/option.h"
/* Every option module, in dump order. One line per module. */
extern const gms_config_module gms_config_module_core;
extern const gms_config_module gms_config_module_sim;
extern const gms_config_module gms_config_module_icnt;
extern const gms_config_module gms_config_module_l1d;
extern const gms_config_module gms_config_module_memsys;
extern const gms_config_module gms_config_module_uvm;
extern const gms_config_module gms_config_module_cke;
extern const gms_config_module gms_config_module_g3;

const gms_config_module *const gms_config_modules[] = {
    &gms_config_module_sim,
    &gms_config_module_core,
    &gms_config_module_l1d,
    &gms_config_module_icnt,
    &gms_config_module_memsys,
    &gms_config_module_uvm,
    &gms_config_module_cke,
    &gms_config_module_g3,
};
const size_t gms_config_nmodules = sizeof gms_config_modules / sizeof gms_config_modules[0];
