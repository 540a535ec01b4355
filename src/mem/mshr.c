/* MSHR design registry: one line per member. */
#include "mem/mshr.h"
#include "config/params.h"

extern const gms_mshr_ops gms_mshr_conventional;

static const gms_mshr_ops *const registry[] = { &gms_mshr_conventional };

static long chosen(const struct gms_params *p);
GMS_REGISTRY_DEFINE(gms_mshr_reg, "MSHR design", "gms_l1d_mshr", gms_mshr_ops, registry, name, summary, NULL, chosen);
static long chosen(const struct gms_params *p) { return gms_reg_index(&gms_mshr_reg, p->l1d.mshr_design); }

const gms_mshr_ops *gms_mshr_find(const char *name) { return gms_reg_find(&gms_mshr_reg, name); }
