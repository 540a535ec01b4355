/* L1D bypass policies (-gms_l1d_bypass): one line per member. */
#include "core/bypass_policy.h"
#include "config/params.h"

extern const gms_bypass_ops gms_bypass_none, gms_bypass_mdb_local, gms_bypass_mdb_global, gms_bypass_static,
    gms_bypass_pdp;
static const gms_bypass_ops *const all[] = { &gms_bypass_none, &gms_bypass_mdb_local, &gms_bypass_mdb_global,
                                             &gms_bypass_static, &gms_bypass_pdp };

static long chosen(const struct gms_params *p) { return gms_reg_index(&gms_l1d_bypass_reg, p->core.l1d_bypass); }
GMS_REGISTRY_DEFINE(gms_l1d_bypass_reg, "L1D bypass policy", "gms_l1d_bypass", gms_bypass_ops, all, name, summary,
                    NULL, chosen);

const gms_bypass_ops *gms_bypass_find(const char *name) { return gms_reg_find(&gms_l1d_bypass_reg, name); }

/* every global load uses the L1D (the baseline; the SM does not even ask) */
const gms_bypass_ops gms_bypass_none = { .name = "none", .summary = "no bypassing: every global load uses the L1D" };
