/* MSHR design registry: one line per member. */
#include "mem/mshr.h"

extern const gms_mshr_ops gms_mshr_conventional;

static const gms_mshr_ops *const registry[] = { &gms_mshr_conventional };

GMS_REGISTRY_DEFINE(gms_mshr_reg, "MSHR design", "gms_l1d_mshr", gms_mshr_ops, registry, name, summary, NULL);

const gms_mshr_ops *gms_mshr_find(const char *name) { return gms_reg_find(&gms_mshr_reg, name); }
