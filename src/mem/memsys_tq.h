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

static inline void gms_tq_push(gms_tq *q, gms_mreq *r, uint64_t ready)
{
    if (q->n == q->cap) {
        uint32_t nc = q->cap ? q->cap * 2 : 64;
        gms_tq_ent *nv = gms_xmalloc(nc * sizeof *nv);
        for (uint32_t i = 0; i < q->n; i++) nv[i] = q->v[(q->head + i) & (q->cap - 1)];
        free(q->v);
        q->v = nv;
        q->cap = nc;
        q->head = 0;
    }
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
    return r;
}

#endif
