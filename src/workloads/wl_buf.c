#include "workloads/wl_buf.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void wl_buf_new(wl_buf *b, uint64_t bytes)
{
    b->h = gms_xcalloc(1, bytes ? bytes : 1);
    b->bytes = bytes;
    b->d = 0;
}

void wl_buf_free(wl_buf *b)
{
    free(b->h);
    b->h = NULL;
}

void wl_buf_alloc(gms_program *p, wl_buf *b, const char *name, int upload)
{
    b->d = gms_prog_alloc(p, b->bytes, name);
    if (upload) wl_buf_upload(p, b);
}

void wl_buf_upload(gms_program *p, const wl_buf *b)
{
    gms_prog_copy_h2d(p, b->d, b->bytes);
    wl_sh_init(p, b->d, b->h, b->bytes);
}

void wl_pool_restart(wl_pool *pool)
{
    for (size_t i = 0; i < pool->n; i++) pool->e[i].used = 0;
}

int wl_rerun(void *owner, uint64_t *rep, uint64_t repeat, wl_pool *pool,
             int (*drive)(void *owner, gms_program *p, gms_error *err), void (*rebuild)(void *owner),
             gms_program *p, gms_error *err)
{
    for (;;) {
        int rc = drive(owner, p, err);
        if (rc || *rep + 1 >= repeat) return rc;
        rebuild(owner);
        wl_pool_restart(pool);
        (*rep)++;
    }
}

void wl_pool_free(wl_pool *pool)
{
    free(pool->e);
    memset(pool, 0, sizeof *pool);
}

void wl_buf_alloc_in(gms_program *p, wl_pool *pool, wl_buf *b, const char *name, int upload)
{
    if (!pool) {
        wl_buf_alloc(p, b, name, upload);
        return;
    }
    /* first free fit in allocation order: a repetition that allocates like the previous ones
     * (the same names, sizes and order) gets exactly their allocations back */
    for (size_t i = 0; i < pool->n; i++) {
        wl_pool_ent *e = &pool->e[i];
        if (e->used || e->bytes < b->bytes || strncmp(e->name, name, sizeof e->name - 1)) continue;
        e->used = 1;
        b->d = e->d;
        if (upload) wl_buf_upload(p, b);
        return;
    }
    wl_buf_alloc(p, b, name, upload);
    if (pool->n == pool->cap) {
        pool->cap = pool->cap ? 2 * pool->cap : 16;
        pool->e = gms_xrealloc(pool->e, pool->cap * sizeof *pool->e);
    }
    wl_pool_ent *e = &pool->e[pool->n++];
    memset(e, 0, sizeof *e);
    snprintf(e->name, sizeof e->name, "%s", name);
    e->d = b->d;
    e->bytes = b->bytes;
    e->used = 1;
}
