/* Options that belong to one member of a policy family (-uvm_hpe_* to HPE, -gms_l2q_cart* to
 * CART, ...), declared by the member itself (its ops table's `knobs`, util/registry.h). Set to
 * something other than the default while no member that claims them is in use, they would be
 * accepted and never read: the run names them instead of silently simulating something else. */
#include <string.h>
#include "config/params.h"
#include "config/option_value.h"
#include "util/registry.h"
#include "mem/mshr.h"

static int claims(const gms_registry *r, size_t m, const char *opt)
{
    const char *const *k = gms_reg_knobs(r, m);
    for (; k && *k; k++)
        if (!strncmp(opt, *k, strlen(*k))) return 1;
    return 0;
}

static int in_use(const gms_registry *r, const gms_params *p, size_t m, const char *opt)
{
    if (r->knob_used) return r->knob_used(p, m, opt);
    return r->chosen && r->chosen(p) == (long)m;
}

/* the option that chooses the member a knob belongs to, and the member this run chose (-1:
 * none): the family's own, except for a family chosen in two roles (registry.h, knob_used),
 * whose second role's knobs belong to that role's option (the L2's MSHR design) */
static long role(const gms_registry *r, const gms_params *p, const char *opt, const char **option)
{
    if (r == &gms_mshr_reg && !strncmp(opt, "gms_l2_", 7)) {
        *option = "gms_l2_mshr";
        return gms_reg_index(r, p->mem.l2_mshr_design);
    }
    *option = r->option;
    return r->chosen ? r->chosen(p) : -1;
}

size_t gms_params_unused_knobs(const gms_params *p, gms_unused_knob *out, size_t cap)
{
    size_t n = 0;
    for (size_t m = 0; m < gms_config_nmodules; m++) {
        const gms_config_module *mod = gms_config_modules[m];
        for (size_t i = 0; i < mod->noptions; i++) {
            const gms_option *o = &mod->options[i];
            /* a value no one gave (a default a module's finalize derived, e.g. the prefetch block
             * raised to a 2 MB page) is not the user's knob */
            if (gms_option_is_default(o, (const char *)p + o->offset) || !gms_params_is_set(p, o->name)) continue;
            /* a knob two families claim (-gms_cke_profile_window: Warped-Slicer's profiles and
             * SMK-W's rates) is unused only when neither's chosen member reads it */
            const gms_registry *first = NULL;
            int used = 0;
            for (size_t f = 0; f < gms_nregistries && !used; f++) {
                const gms_registry *r = gms_registries[f];
                if (r->knobs_off == GMS_REG_NO_KNOBS) continue;
                int claimed = 0;
                for (size_t k = 0; k < r->n && !used; k++)
                    if (claims(r, k, o->name)) { claimed = 1; used = in_use(r, p, k, o->name); }
                if (claimed && !first) first = r;
            }
            if (!first || used) continue;
            if (n < cap) out[n] = (gms_unused_knob){ o->name, first };
            n++;
        }
    }
    return n;
}

void gms_params_warn_unused_knobs(const gms_params *p, FILE *out)
{
    gms_unused_knob u[32];
    size_t n = gms_params_unused_knobs(p, u, 32);
    for (size_t i = 0; i < n && i < 32; i++) {
        fprintf(out, "gpumemsim: warning: -%s is set, but it has no effect unless", u[i].option);
        int families = 0;
        for (size_t f = 0; f < gms_nregistries; f++) {   /* every family that claims it */
            const gms_registry *r = gms_registries[f];
            if (r->knobs_off == GMS_REG_NO_KNOBS) continue;
            size_t claimants = 0;
            for (size_t k = 0; k < r->n; k++) claimants += (size_t)claims(r, k, u[i].option);
            if (!claimants) continue;
            const char *option;
            long c = role(r, p, u[i].option, &option);
            fprintf(out, "%s -%s is", families++ ? ", or" : "", option);
            size_t said = 0;
            for (size_t k = 0; k < r->n; k++) {
                if (!claims(r, k, u[i].option)) continue;
                said++;
                fprintf(out, "%s %s", said == 1 ? "" : said == claimants ? " or" : ",", gms_reg_name(r, k));
            }
            if (c >= 0) fprintf(out, " (this run: %s)", gms_reg_name(r, (size_t)c));
        }
        fputc('\n', out);
    }
    if (n > 32) fprintf(out, "gpumemsim: warning: and %zu more unused policy option(s)\n", n - 32);
}
