/* The LDST unit's shared-memory pipeline: see lsu_shpipe.h. */
#include "core/lsu_shpipe.h"
#include "util/err.h"
#include <stdlib.h>

void gms_shpipe_init(gms_shpipe *p, uint32_t stages)
{
    p->cap = stages ? stages : 1;
    p->e = gms_xcalloc(p->cap, sizeof *p->e);
    p->head = p->n = 0;
    p->last_out = 0;
}

void gms_shpipe_free(gms_shpipe *p)
{
    free(p->e);
    p->e = NULL;
    p->cap = p->n = 0;
}

void gms_shpipe_enter(gms_shpipe *p, uint64_t e, const gms_shp_ent *ent)
{
    gms_shp_ent *x = &p->e[(p->head + p->n) % p->cap];
    *x = *ent;
    x->arrive = e + p->cap - 1;
    p->n++;
}

gms_shp_ent gms_shpipe_take(gms_shpipe *p, uint64_t now)
{
    gms_shp_ent x = p->e[p->head];
    p->head = (p->head + 1) % p->cap;
    p->n--;
    p->last_out = now;
    return x;
}
