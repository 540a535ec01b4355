/* Options that only mean something when their mechanism is on (-gms_mrpb_* without -gms_mrpb 1,
 * say). Set while the mechanism is off they would be accepted and never used; a module's
 * finalize refuses them with gms_params_require. */
#include <string.h>
#include "config/params.h"
#include "config/option_value.h"

int gms_param_at_most(uint64_t v, uint64_t max, const char *name, const char *why, gms_error *err)
{
    if (v <= max) return 0;
    return gms_err(err, "-%s: %llu is more than %llu (%s)", name, (unsigned long long)v, (unsigned long long)max, why);
}

int gms_param_wait_at_most(uint64_t cycles, const char *name, gms_error *err)
{
    return gms_param_at_most(cycles, 100000, name,
                             "cycles: longer than any memory latency, and a wait the watchdog would take for a deadlock",
                             err);
}

int gms_params_require(const gms_params *p, const char *const *prefixes, int enabled, const char *needs,
                       gms_error *err)
{
    if (enabled) return 0;
    for (size_t m = 0; m < gms_config_nmodules; m++) {
        const gms_config_module *mod = gms_config_modules[m];
        for (size_t i = 0; i < mod->noptions; i++) {
            const gms_option *o = &mod->options[i];
            for (const char *const *pre = prefixes; *pre; pre++) {
                if (strncmp(o->name, *pre, strlen(*pre))) continue;
                if (!gms_option_is_default(o, (const char *)p + o->offset))
                    return gms_err(err, "-%s is set, but it has no effect unless %s", o->name, needs);
                break;
            }
        }
    }
    return 0;
}
