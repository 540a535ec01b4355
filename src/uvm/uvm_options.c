#include "config/params.h"
/* UVM options (stub: the UVM module fills this in) */
static const gms_option opts[] = {
    GMS_OPT("gddr_size", GMS_OPT_U64, uvm.gddr_size, "0", "device memory size for managed memory (e.g. 1GB); 0 = unlimited"),
};
const gms_config_module gms_config_module_uvm = { "uvm", opts, sizeof opts / sizeof opts[0], NULL, NULL };
