#include "config/params.h"
/* L1D options (stub: the cache module fills this in) */
static const gms_option opts[] = {
    GMS_OPT("gpgpu_cache:dl1", GMS_OPT_STRING, l1d.dl1_str, "N:32:128:4,L:L:m:N:H,A:32:8,8", "L1 data cache config (GPGPU-Sim cache string)"),
    GMS_OPT("gpgpu_l1_latency", GMS_OPT_U32, l1d.l1_latency, "1", "L1D hit latency (core cycles)"),
    GMS_OPT("gpgpu_l1_banks", GMS_OPT_U32, l1d.l1_banks, "1", "L1D banks: requests accepted per cycle"),
};
static int fin(gms_params *p, gms_error *err)
{
    return gms_cache_config_parse(p->l1d.dl1_str, "-gpgpu_cache:dl1", &p->l1d.dl1, err);
}
const gms_config_module gms_config_module_l1d = { "l1d", opts, sizeof opts / sizeof opts[0], fin, NULL };
