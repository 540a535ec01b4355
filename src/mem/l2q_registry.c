/* L2 input queue policies: one line per member. */
#include "mem/l2q.h"
#include "config/params.h"

extern const gms_l2q_ops gms_l2q_fifo, gms_l2q_p1, gms_l2q_p2, gms_l2q_cart;

const gms_l2q_ops *const gms_l2q_registry[] = {
    &gms_l2q_fifo, &gms_l2q_p1, &gms_l2q_p2, &gms_l2q_cart,
};
const size_t gms_l2q_nregistry = sizeof gms_l2q_registry / sizeof gms_l2q_registry[0];

static long chosen(const struct gms_params *p);
GMS_REGISTRY_DEFINE_KNOBS(gms_l2q_reg, "L2 input queue policy", "gms_l2_input_queue", gms_l2q_ops, gms_l2q_registry, name, summary, knobs, NULL, chosen, NULL);
static long chosen(const struct gms_params *p) { return gms_reg_index(&gms_l2q_reg, p->mem.l2q); }

const gms_l2q_ops *gms_l2q_find(const char *name) { return gms_reg_find(&gms_l2q_reg, name); }
