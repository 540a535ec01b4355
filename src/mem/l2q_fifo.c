/* L2 input queue "fifo": arrival order, head-of-line blocking (GPGPU-Sim's icnt->L2
 * fifo_pipeline). Intrusive: uses the request's `next` link. */
#include "mem/l2q.h"
#include "util/err.h"
#include <stdlib.h>

static void *fifo_create(const gms_l2q_env *env)
{
    gms_mreq_fifo *f = gms_xcalloc(1, sizeof *f);
    f->cap = env->capacity;
    return f;
}
static void fifo_destroy(void *self) { free(self); }
static uint32_t fifo_space(const void *self)
{
    const gms_mreq_fifo *f = self;
    if (!f->cap) return UINT32_MAX;
    return f->n >= f->cap ? 0 : f->cap - f->n;
}
static void fifo_push(void *self, gms_mreq *r, uint64_t now) { gms_fifo_push(self, r); }
static gms_mreq *fifo_peek(void *self, uint64_t now) { return ((gms_mreq_fifo *)self)->head; }
static void fifo_pop(void *self, gms_mreq *r) { gms_fifo_pop(self); }
static void fifo_putback(void *self, gms_mreq *r, uint64_t now, int cause)
{
    gms_fifo_push_front(self, r);
}
static uint32_t fifo_len(const void *self) { return ((const gms_mreq_fifo *)self)->n; }

const gms_l2q_ops gms_l2q_fifo = {
    .name = "fifo", .summary = "first in, first out (GPGPU-Sim)",
    .create = fifo_create, .destroy = fifo_destroy, .space = fifo_space, .push = fifo_push,
    .peek = fifo_peek, .pop = fifo_pop, .putback = fifo_putback, .len = fifo_len,
};
