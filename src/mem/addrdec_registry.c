/* Partition (channel) mapping policies: one line per member. */
#include "mem/addrdec.h"
#include <string.h>

extern const gms_chanmap_ops gms_chanmap_gpgpusim, gms_chanmap_modulo, gms_chanmap_xor;

const gms_chanmap_ops *const gms_chanmap_registry[] = {
    &gms_chanmap_gpgpusim,
    &gms_chanmap_modulo,
    &gms_chanmap_xor,
};
const size_t gms_chanmap_nregistry = sizeof gms_chanmap_registry / sizeof gms_chanmap_registry[0];

const gms_chanmap_ops *gms_chanmap_find(const char *name)
{
    for (size_t i = 0; i < gms_chanmap_nregistry; i++)
        if (!strcmp(gms_chanmap_registry[i]->name, name)) return gms_chanmap_registry[i];
    return NULL;
}
