/* Issued memory instructions on their way to the LSU: see memq.h. */
#include "core/memq.h"

gms_memq_ent *gms_memq_push(gms_memq *q, uint32_t warp, uint32_t sched, const gms_inst *in)
{
    gms_memq_ent *e = &q->e[(q->head + q->n) % GMS_MEMQ_CAP];
    q->n++;
    q->idoc |= 1u << sched;
    e->in = *in;
    e->warp = (uint16_t)warp;
    e->sched = (uint8_t)sched;
    e->collected = 0;
    e->has_addrs = 0;
    return e;
}

uint32_t gms_memq_collect(gms_memq *q, uint32_t max_collected)
{
    uint32_t freed = 0;
    for (uint32_t k = q->collected; k < q->n && q->collected < max_collected; k++) {
        gms_memq_ent *e = &q->e[(q->head + k) % GMS_MEMQ_CAP];
        e->collected = 1;
        q->collected++;
        freed |= 1u << e->sched;
    }
    q->idoc &= ~freed;
    return freed;
}

const gms_memq_ent *gms_memq_take(gms_memq *q)
{
    if (!q->collected) return 0;
    const gms_memq_ent *e = &q->e[q->head];
    q->head = (q->head + 1) % GMS_MEMQ_CAP;
    q->n--;
    q->collected--;
    return e;
}
