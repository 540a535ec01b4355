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

/* For the conservation report: print up to `max` requests that are neither free nor answered. */
void gms_mreq_pool_dump_live(const gms_mreq_pool *p, FILE *out, int max)
{
    size_t total = p->nslabs * 1024;
    unsigned char *is_free = calloc(total ? total : 1, 1);
    if (!is_free) return;
    for (const gms_mreq *r = p->free_list; r; r = r->next)
        for (size_t s = 0; s < p->nslabs; s++) {
            const gms_mreq *base = p->slabs[s];
            if (r >= base && r < base + 1024) { is_free[s * 1024 + (size_t)(r - base)] = 1; break; }
        }
    int shown = 0;
    for (size_t i = 0; i < total && shown < max; i++) {
        if (is_free[i]) continue;
        const gms_mreq *r = &((const gms_mreq *)p->slabs[i / 1024])[i % 1024];
        fprintf(out, "  request %u: %s %s addr 0x%llx, %u B, SM %u warp %u, subpart %u, %s, issued at core cycle %llu\n",
                r->id, r->kind == GMS_MREQ_WRITE ? "write" : r->kind == GMS_MREQ_ATOMIC ? "atomic" : "read",
                gms_access_type_name[r->access < GMS_ACC__COUNT ? r->access : 0], (unsigned long long)r->addr, r->bytes,
                r->sm, r->warp, r->subpart, r->is_reply ? "reply" : "request", (unsigned long long)r->t_issue);
        shown++;
    }
    free(is_free);
}
