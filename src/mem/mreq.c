#include "mem/mreq.h"
#include "util/err.h"
#include <stdlib.h>
#include <string.h>

const char *const gms_access_type_name[GMS_ACC__COUNT] = {
    "GLOBAL_ACC_R", "GLOBAL_ACC_W", "LOCAL_ACC_R", "LOCAL_ACC_W", "CONST_ACC_R",
    "TEXTURE_ACC_R", "INST_ACC_R", "L1_WRBK_ACC", "L2_WRBK_ACC", "L1_WR_ALLOC_R", "L2_WR_ALLOC_R",
};

#define SLAB 1024
#define SHARD_LOW 2048       /* free requests a shard starts a phase with, at least */
#define SHARD_HIGH 8192      /* ... and keeps after it, at most */

_Thread_local gms_mreq_shard *gms_mreq_tls;

void gms_mreq_pool_init(gms_mreq_pool *p) { memset(p, 0, sizeof *p); }

void gms_mreq_pool_free(gms_mreq_pool *p)
{
    for (size_t i = 0; i < p->nslabs; i++) free(p->slabs[i]);
    free(p->slabs);
    for (unsigned t = 0; t < p->nshards; t++) {
        gms_mreq_shard *sh = &p->shards[t];
        for (size_t i = 0; i < sh->nslabs; i++) free(sh->slabs[i]);
        free(sh->slabs);
    }
    free(p->shards);
    memset(p, 0, sizeof *p);
}

static gms_mreq *new_slab(void)
{
    /* requests on host cache line boundaries (gms_mreq is one aligned 64 B line) */
    gms_mreq *s = gms_xaligned(64, SLAB * sizeof *s);
    for (int i = 0; i < SLAB - 1; i++) s[i].next = &s[i + 1];
    s[SLAB - 1].next = NULL;
    return s;
}

/* a free request of the pool (not initialised) */
static gms_mreq *pool_take(gms_mreq_pool *p)
{
    if (!p->free_list) {
        gms_mreq *s = new_slab();
        if (p->nslabs == p->cap_slabs) {
            p->cap_slabs = p->cap_slabs ? p->cap_slabs * 2 : 16;
            p->slabs = gms_xrealloc(p->slabs, p->cap_slabs * sizeof *p->slabs);
        }
        p->slabs[p->nslabs++] = s;
        p->free_list = s;
    }
    gms_mreq *r = p->free_list;
    p->free_list = r->next;
    return r;
}

static gms_mreq *shard_alloc(gms_mreq_shard *sh)
{
    if (!sh->free_list) {   /* ran dry inside a phase: a slab of its own */
        gms_mreq *s = new_slab();
        sh->slabs = gms_xrealloc(sh->slabs, (sh->nslabs + 1) * sizeof *sh->slabs);
        sh->slabs[sh->nslabs++] = s;
        sh->free_list = s;
        sh->nfree += SLAB;
    }
    gms_mreq *r = sh->free_list;
    sh->free_list = r->next;
    sh->nfree--;
    memset(r, 0, sizeof *r);
    sh->live++;
    return r;
}

gms_mreq *gms_mreq_alloc(gms_mreq_pool *p)
{
    if (gms_mreq_tls) return shard_alloc(gms_mreq_tls);
    gms_mreq *r = pool_take(p);
    memset(r, 0, sizeof *r);
    p->live++;
    return r;
}

void gms_mreq_release(gms_mreq_pool *p, gms_mreq *r)
{
    gms_mreq_shard *sh = gms_mreq_tls;
    if (sh) {
        r->next = sh->free_list;
        sh->free_list = r;
        sh->nfree++;
        sh->live--;
        return;
    }
    r->next = p->free_list;
    p->free_list = r;
    p->live--;
}

void gms_mreq_pool_shards(gms_mreq_pool *p, unsigned n)
{
    p->shards = gms_xcalloc(n, sizeof *p->shards);
    p->nshards = n;
}

void gms_mreq_shards_fill(gms_mreq_pool *p)
{
    for (unsigned t = 0; t < p->nshards; t++) {
        gms_mreq_shard *sh = &p->shards[t];
        while (sh->nfree < SHARD_LOW) {
            gms_mreq *r = pool_take(p);
            r->next = sh->free_list;
            sh->free_list = r;
            sh->nfree++;
        }
    }
}

void gms_mreq_shards_merge(gms_mreq_pool *p)
{
    for (unsigned t = 0; t < p->nshards; t++) {
        gms_mreq_shard *sh = &p->shards[t];
        p->live = (uint64_t)((int64_t)p->live + sh->live);
        sh->live = 0;
        while (sh->nfree > SHARD_HIGH) {
            gms_mreq *r = sh->free_list;
            sh->free_list = r->next;
            sh->nfree--;
            r->next = p->free_list;
            p->free_list = r;
        }
    }
}

/* For the conservation report: print up to `max` requests that are neither free nor answered
 * (named by their place in the pool's slabs). */
void gms_mreq_pool_dump_live(const gms_mreq_pool *p, FILE *out, int max)
{
    size_t nsl = p->nslabs;
    for (unsigned t = 0; t < p->nshards; t++) nsl += p->shards[t].nslabs;
    const gms_mreq **sl = calloc(nsl ? nsl : 1, sizeof *sl);
    if (!sl) return;
    size_t k = 0;
    for (size_t i = 0; i < p->nslabs; i++) sl[k++] = p->slabs[i];
    for (unsigned t = 0; t < p->nshards; t++)
        for (size_t i = 0; i < p->shards[t].nslabs; i++) sl[k++] = p->shards[t].slabs[i];
    size_t total = nsl * SLAB;
    unsigned char *is_free = calloc(total ? total : 1, 1);
    if (!is_free) { free(sl); return; }
    for (unsigned t = 0; t <= p->nshards; t++) {
        const gms_mreq *head = t == p->nshards ? p->free_list : p->shards[t].free_list;
        for (const gms_mreq *r = head; r; r = r->next)
            for (size_t s = 0; s < nsl; s++)
                if (r >= sl[s] && r < sl[s] + SLAB) { is_free[s * SLAB + (size_t)(r - sl[s])] = 1; break; }
    }
    int shown = 0;
    for (size_t i = 0; i < total && shown < max; i++) {
        if (is_free[i]) continue;
        const gms_mreq *r = &sl[i / SLAB][i % SLAB];
        fprintf(out, "  request #%zu: %s %s addr 0x%llx, %u B, SM %u warp %u, subpart %u, %s, issued at core cycle %llu\n",
                i, r->kind == GMS_MREQ_WRITE ? "write" : r->kind == GMS_MREQ_ATOMIC ? "atomic" : "read",
                gms_access_type_name[r->access < GMS_ACC__COUNT ? r->access : 0], (unsigned long long)r->addr, r->bytes,
                r->sm, r->warp, r->subpart, r->is_reply ? "reply" : "request", (unsigned long long)r->t_issue);
        shown++;
    }
    free(is_free);
    free(sl);
}
