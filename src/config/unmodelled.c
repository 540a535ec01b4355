/* Options gpumemsim accepts (and checks) but does not model, gms_option.unmodelled: which of
 * them a configuration sets to something other than the default, so that a run says so
 * instead of silently simulating something else. */
#include "config/params.h"
#include "config/option_value.h"

size_t gms_params_unmodelled(const gms_params *p, const char **names, size_t cap)
{
    size_t n = 0;
    for (size_t m = 0; m < gms_config_nmodules; m++) {
        const gms_config_module *mod = gms_config_modules[m];
        for (size_t i = 0; i < mod->noptions; i++) {
            const gms_option *o = &mod->options[i];
            if (!o->unmodelled || gms_option_is_default(o, (const char *)p + o->offset)) continue;
            if (n < cap) names[n] = o->name;
            n++;
        }
    }
    return n;
}

void gms_params_warn_unmodelled(const gms_params *p, FILE *out)
{
    const char *names[64];
    size_t n = gms_params_unmodelled(p, names, 64);
    if (!n) return;
    fprintf(out, "gpumemsim: warning: set but not modelled (no effect on the results):");
    for (size_t i = 0; i < n && i < 64; i++) fprintf(out, "%s -%s", i ? "," : "", names[i]);
    fprintf(out, " (gpumemsim config --dump says what is simulated instead)\n");
}
