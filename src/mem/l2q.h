/* L2 input queue family: the bounded queue between the ROP stage and the L2 slice
 * (GPGPU-Sim's icnt->L2 queue). FIFO now; CART, MRPB and RACB reorder here later without
 * touching the slice. Registry in l2q_registry.c, chosen by -gms_l2_input_queue.
 *
 * Hooks, called by the slice (l2_slice.c) only, never allocating after create:
 *   create(env)        capacity (0 = unbounded) and the slice id
 *   space(self)        free entries (UINT32_MAX if unbounded): the interconnect may push
 *                      while space >= 4 (GPGPU-Sim reserves a whole line's sectors)
 *   push(self, r, now) a request leaves the ROP delay (now: core cycle)
 *   peek(self, now)    the request the slice should try this cycle, or NULL
 *   pop(self, r)       remove r (the one just peeked) before the slice tries it: the cache
 *                      may link r into its own lists
 *   putback(self, r, now) the slice could not take r (reservation fail): take it back; a FIFO
 *                      puts it at its head again, a reordering policy may demote it
 *   len(self)          requests held */
#ifndef GMS_MEM_L2Q_H
#define GMS_MEM_L2Q_H
#include <stdint.h>
#include "mem/mreq.h"
#include "util/registry.h"

typedef struct gms_l2q_env { uint32_t capacity; uint32_t subpart; } gms_l2q_env;

typedef struct gms_l2q_ops {
    const char *name;
    const char *summary;
    void *(*create)(const gms_l2q_env *env);
    void (*destroy)(void *self);
    uint32_t (*space)(const void *self);
    void (*push)(void *self, gms_mreq *r, uint64_t now);
    gms_mreq *(*peek)(void *self, uint64_t now);
    void (*pop)(void *self, gms_mreq *r);
    void (*putback)(void *self, gms_mreq *r, uint64_t now);
    uint32_t (*len)(const void *self);
} gms_l2q_ops;

extern const gms_l2q_ops *const gms_l2q_registry[];
extern const size_t gms_l2q_nregistry;
const gms_l2q_ops *gms_l2q_find(const char *name);
extern const gms_registry gms_l2q_reg;   /* names, help, error lists */

#endif
