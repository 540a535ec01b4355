#include "config/params.h"
/* memory partition options (stub: the memory-partition module fills this in) */
static const gms_option opts[] = {
    GMS_OPT("gpgpu_n_mem", GMS_OPT_U32, mem.n_mem, "8", "number of memory channels (partitions)"),
    GMS_OPT("gpgpu_n_sub_partition_per_mchannel", GMS_OPT_U32, mem.n_sub_partition_per_mchannel, "1", "L2 sub-partitions (slices) per channel"),
};
static int fin(gms_params *p, gms_error *err)
{
    if (p->mem.n_mem == 0) return gms_err(err, "-gpgpu_n_mem: must be at least 1");
    if (p->mem.n_sub_partition_per_mchannel == 0) return gms_err(err, "-gpgpu_n_sub_partition_per_mchannel: must be at least 1");
    return 0;
}
const gms_config_module gms_config_module_memsys = { "memsys", opts, sizeof opts / sizeof opts[0], fin, NULL };
