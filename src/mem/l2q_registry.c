/* L2 input queue policies: one line per member. */
#include "mem/l2q.h"
#include <string.h>

extern const gms_l2q_ops gms_l2q_fifo;

const gms_l2q_ops *const gms_l2q_registry[] = {
    &gms_l2q_fifo,
};
const size_t gms_l2q_nregistry = sizeof gms_l2q_registry / sizeof gms_l2q_registry[0];

const gms_l2q_ops *gms_l2q_find(const char *name)
{
    for (size_t i = 0; i < gms_l2q_nregistry; i++)
        if (!strcmp(gms_l2q_registry[i]->name, name)) return gms_l2q_registry[i];
    return NULL;
}

const char *gms_l2q_names(void) { return "fifo"; }
