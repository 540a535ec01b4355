/* Options gpumemsim accepts (and checks) but does not model, gms_option.unmodelled: which of
 * them a configuration sets to something other than the default, so that a run says so
 * instead of silently simulating something else. An option modelled in part
 * (gms_option.unmodelled_in_use, e.g. -specialized_unit_N) counts when its value puts the
 * part that is not modelled to use. */
#include "config/params.h"
#include "config/option_value.h"

static int in_use(const gms_params *p, const gms_option *o)
{
    const void *field = (const char *)p + o->offset;
    if (o->unmodelled_in_use) return o->unmodelled_in_use(p, field) != 0;
    return !gms_option_is_default(o, field);
}

/* the options in use, in registry order, into opts or names (either may be NULL); returns
 * how many, stores at most cap */
static size_t collect(const gms_params *p, const gms_option **opts, const char **names, size_t cap)
{
    size_t n = 0;
    for (size_t m = 0; m < gms_config_nmodules; m++) {
        const gms_config_module *mod = gms_config_modules[m];
        for (size_t i = 0; i < mod->noptions; i++) {
            const gms_option *o = &mod->options[i];
            if (!o->unmodelled || !in_use(p, o)) continue;
            if (n < cap && opts) opts[n] = o;
            if (n < cap && names) names[n] = o->name;
            n++;
        }
    }
    return n;
}

size_t gms_params_unmodelled(const gms_params *p, const char **names, size_t cap)
{
    return collect(p, NULL, names, cap);
}

void gms_params_warn_unmodelled(const gms_params *p, FILE *out)
{
    const gms_option *opts[64];
    size_t n = collect(p, opts, NULL, 64);
    if (n > 64) n = 64;
    if (!n) return;
    /* the options not modelled at all, then the ones modelled in part */
    const char *head = "gpumemsim: warning: ";
    for (int partly = 0; partly < 2; partly++) {
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            if ((opts[i]->unmodelled_in_use != NULL) != partly) continue;
            if (!k++)
                fprintf(out, "%s%s", head, partly ? "set but only partly modelled:" : "set but not modelled (no effect on the results):");
            fprintf(out, "%s -%s", k > 1 ? "," : "", opts[i]->name);
        }
        if (k) head = "; ";
    }
    fprintf(out, " (gpumemsim config --dump says what is simulated instead)\n");
}
