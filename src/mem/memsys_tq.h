/* Timed FIFO: requests with the core cycle from which they may leave (GPGPU-Sim's ROP
 * queue, an unbounded std::queue there; the DRAM latency queue holds copies instead, see
 * memsys_impl.h). A ring that doubles when full: it grows during warm-up only, never per
 * request in steady state. */
#ifndef GMS_MEM_MEMSYS_TQ_H
#define GMS_MEM_MEMSYS_TQ_H
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "mem/mreq.h"
#include "util/err.h"

typedef struct gms_tq_ent { gms_mreq *r; uint64_t ready; } gms_tq_ent;
typedef struct gms_tq { gms_tq_ent *v; uint32_t cap, head, n; } gms_tq;

static inline void gms_tq_free(gms_tq *q) { free(q->v); memset(q, 0, sizeof *q); }

/* a full power-of-two ring of n entries of esz bytes from `head`: its entries, in order from
 * slot 0, in a ring twice the size (64 when empty); returns the new array */
static inline void *gms_ring_grow(void *v, uint32_t *cap, uint32_t *head, uint32_t n, size_t esz)
{
    uint32_t nc = *cap ? *cap * 2 : 64;
    char *nv = gms_xmalloc(nc * esz);
    for (uint32_t i = 0; i < n; i++) memcpy(nv + i * esz, (char *)v + ((*head + i) & (*cap - 1)) * esz, esz);
    free(v);
    *cap = nc;
    *head = 0;
    return nv;
}

static inline void gms_tq_push(gms_tq *q, gms_mreq *r, uint64_t ready)
{
    if (q->n == q->cap) q->v = gms_ring_grow(q->v, &q->cap, &q->head, q->n, sizeof *q->v);
    q->v[(q->head + q->n) & (q->cap - 1)] = (gms_tq_ent){ r, ready };
    q->n++;
}

/* the head if it may leave at `now`, else NULL */
static inline gms_mreq *gms_tq_ready(const gms_tq *q, uint64_t now)
{
    return q->n && q->v[q->head].ready <= now ? q->v[q->head].r : NULL;
}
static inline uint64_t gms_tq_head_time(const gms_tq *q) { return q->n ? q->v[q->head].ready : UINT64_MAX; }
static inline gms_mreq *gms_tq_pop(gms_tq *q)
{
    gms_mreq *r = q->v[q->head].r;
    q->head = (q->head + 1) & (q->cap - 1);
    q->n--;
    if (q->n) __builtin_prefetch(q->v[q->head].r);   /* the next head: host speed, see mreq.h */
    return r;
}

#endif
