/* Partition (channel) mapping policies: one line per member. */
#include "mem/addrdec.h"
#include "config/params.h"

extern const gms_chanmap_ops gms_chanmap_gpgpusim, gms_chanmap_modulo, gms_chanmap_xor;
extern const gms_chanmap_ops gms_chanmap_prime, gms_chanmap_aprime, gms_chanmap_dprime, gms_chanmap_ipoly;

const gms_chanmap_ops *const gms_chanmap_registry[] = {
    &gms_chanmap_gpgpusim,
    &gms_chanmap_modulo,
    &gms_chanmap_xor,
    &gms_chanmap_prime,
    &gms_chanmap_aprime,
    &gms_chanmap_dprime,
    &gms_chanmap_ipoly,
};
const size_t gms_chanmap_nregistry = sizeof gms_chanmap_registry / sizeof gms_chanmap_registry[0];

static long chosen(const struct gms_params *p);
GMS_REGISTRY_DEFINE_KNOBS(gms_chanmap_reg, "partition mapping", "gms_partition_mapping", gms_chanmap_ops, gms_chanmap_registry, name, summary, knobs, NULL, chosen, NULL);
static long chosen(const struct gms_params *p) { return gms_reg_index(&gms_chanmap_reg, p->mem.partition_mapping); }

const gms_chanmap_ops *gms_chanmap_find(const char *name) { return gms_reg_find(&gms_chanmap_reg, name); }
