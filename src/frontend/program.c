#include "frontend/program.h"
#include <stdlib.h>
#include <string.h>

#define GMS_ALLOC_BASE 0x7f0000000000ULL
#define GMS_ALLOC_ALIGN (2ULL << 20)

void gms_program_init(gms_program *p)
{
    memset(p, 0, sizeof *p);
    p->next_addr = GMS_ALLOC_BASE;
}

void gms_program_free(gms_program *p)
{
    for (size_t i = p->head; i < p->n; i++)
        if (p->q[i].kind == GMS_CMD_LAUNCH && p->q[i].kernel.release)
            p->q[i].kernel.release(p->q[i].kernel.self);
    free(p->q);
    free(p->allocs);
    memset(p, 0, sizeof *p);
}

static gms_cmd *push(gms_program *p, gms_cmd_kind k)
{
    if (p->head == p->n) p->head = p->n = 0;
    if (p->n == p->cap) {
        p->cap = p->cap ? p->cap * 2 : 16;
        p->q = gms_xrealloc(p->q, p->cap * sizeof *p->q);
    }
    gms_cmd *c = &p->q[p->n++];
    memset(c, 0, sizeof *c);
    c->kind = k;
    return c;
}

uint64_t gms_prog_alloc_kind(gms_program *p, uint64_t bytes, int managed, const char *name)
{
    uint64_t a = p->next_addr;
    uint64_t span = (bytes + GMS_ALLOC_ALIGN - 1) / GMS_ALLOC_ALIGN * GMS_ALLOC_ALIGN;
    if (span == 0) span = GMS_ALLOC_ALIGN;
    p->next_addr += span;
    gms_cmd *c = push(p, GMS_CMD_ALLOC);
    c->addr = a;
    c->bytes = bytes;
    c->managed = managed;
    snprintf(c->name, sizeof c->name, "%s", name ? name : "");
    if (p->nallocs == p->cap_allocs) {
        p->cap_allocs = p->cap_allocs ? p->cap_allocs * 2 : 8;
        p->allocs = gms_xrealloc(p->allocs, p->cap_allocs * sizeof *p->allocs);
    }
    gms_alloc_rec *r = &p->allocs[p->nallocs++];
    r->addr = a;
    r->bytes = bytes;
    r->managed = managed;
    snprintf(r->name, sizeof r->name, "%s", name ? name : "");
    return a;
}

uint64_t gms_prog_alloc(gms_program *p, uint64_t bytes, const char *name)
{
    return gms_prog_alloc_kind(p, bytes, p->uvm, name);
}

void gms_prog_copy_h2d(gms_program *p, uint64_t addr, uint64_t bytes)
{
    if (p->uvm) return;
    gms_cmd *c = push(p, GMS_CMD_COPY_H2D);
    c->addr = addr;
    c->bytes = bytes;
}

void gms_prog_copy_d2h(gms_program *p, uint64_t addr, uint64_t bytes)
{
    if (p->uvm) return;
    gms_cmd *c = push(p, GMS_CMD_COPY_D2H);
    c->addr = addr;
    c->bytes = bytes;
}

void gms_prog_prefetch(gms_program *p, uint64_t addr, uint64_t bytes)
{
    gms_cmd *c = push(p, GMS_CMD_PREFETCH);
    c->addr = addr;
    c->bytes = bytes;
}

void gms_prog_launch(gms_program *p, const gms_kernel_src *k)
{
    if (p->prefetch)
        for (size_t i = 0; i < p->nallocs; i++)
            if (p->allocs[i].managed) gms_prog_prefetch(p, p->allocs[i].addr, p->allocs[i].bytes);
    gms_cmd *c = push(p, GMS_CMD_LAUNCH);
    c->kernel = *k;
    c->stream = k->stream;
}

void gms_prog_sync(gms_program *p) { push(p, GMS_CMD_SYNC); }

gms_cmd *gms_prog_pop(gms_program *p)
{
    if (p->head == p->n) return NULL;
    return &p->q[p->head++];
}
