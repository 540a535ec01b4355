#include "mem/mreq.h"
#include "util/err.h"
#include <stdlib.h>
#include <string.h>

const char *const gms_access_type_name[GMS_ACC__COUNT] = {
    "GLOBAL_ACC_R", "GLOBAL_ACC_W", "LOCAL_ACC_R", "LOCAL_ACC_W", "CONST_ACC_R",
    "TEXTURE_ACC_R", "INST_ACC_R", "L1_WRBK_ACC", "L2_WRBK_ACC", "L1_WR_ALLOC_R", "L2_WR_ALLOC_R",
};

#define SLAB 1024

void gms_mreq_pool_init(gms_mreq_pool *p) { memset(p, 0, sizeof *p); }

void gms_mreq_pool_free(gms_mreq_pool *p)
{
    for (size_t i = 0; i < p->nslabs; i++) free(p->slabs[i]);
    free(p->slabs);
    memset(p, 0, sizeof *p);
}

gms_mreq *gms_mreq_alloc(gms_mreq_pool *p)
{
    if (!p->free_list) {
        gms_mreq *s = gms_xmalloc(SLAB * sizeof *s);
        if (p->nslabs == p->cap_slabs) {
            p->cap_slabs = p->cap_slabs ? p->cap_slabs * 2 : 16;
            p->slabs = gms_xrealloc(p->slabs, p->cap_slabs * sizeof *p->slabs);
        }
        p->slabs[p->nslabs++] = s;
        for (int i = SLAB - 1; i >= 0; i--) {
            s[i].next = p->free_list;
            p->free_list = &s[i];
        }
    }
    gms_mreq *r = p->free_list;
    p->free_list = r->next;
    memset(r, 0, sizeof *r);
    r->id = ++p->next_id;
    p->live++;
    p->allocated_total++;
    return r;
}

void gms_mreq_release(gms_mreq_pool *p, gms_mreq *r)
{
    r->next = p->free_list;
    p->free_list = r;
    p->live--;
}
