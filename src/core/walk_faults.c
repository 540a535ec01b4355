#include "core/walk_faults.h"
#include <stdlib.h>

#define NIL UINT32_MAX
enum { ABSENT, ASKED, IN };

typedef struct waiters { gms_walk_warp *v; uint32_t n, cap; } waiters;

struct gms_walk_faults {
    uint64_t cap, nres;
    uint32_t npg;              /* pages the arrays cover */
    uint8_t *st;
    uint32_t *prev, *next;     /* resident pages, least recently used first */
    uint32_t lru, mru;
    waiters *w;                /* per page: warps waiting for it */
    uint32_t *q; size_t qh, qn, qcap;   /* requested pages, oldest first */
};

gms_walk_faults *gms_walk_faults_new(uint64_t cap)
{
    gms_walk_faults *f = gms_xcalloc(1, sizeof *f);
    f->cap = cap;
    f->lru = f->mru = NIL;
    return f;
}

void gms_walk_faults_free(gms_walk_faults *f)
{
    if (!f) return;
    for (uint32_t p = 0; p < f->npg; p++) free(f->w[p].v);
    free(f->st); free(f->prev); free(f->next); free(f->w); free(f->q);
    free(f);
}

static void grow(gms_walk_faults *f, uint32_t p)
{
    if (p < f->npg) return;
    uint32_t n = f->npg ? f->npg : 1024;
    while (n <= p) n *= 2;
    f->st = gms_xrealloc(f->st, n * sizeof *f->st);
    f->prev = gms_xrealloc(f->prev, n * sizeof *f->prev);
    f->next = gms_xrealloc(f->next, n * sizeof *f->next);
    f->w = gms_xrealloc(f->w, n * sizeof *f->w);
    for (uint32_t i = f->npg; i < n; i++) {
        f->st[i] = ABSENT;
        f->w[i] = (waiters){0};
    }
    f->npg = n;
}

static void unlink_page(gms_walk_faults *f, uint32_t p)
{
    if (f->prev[p] != NIL) f->next[f->prev[p]] = f->next[p]; else f->lru = f->next[p];
    if (f->next[p] != NIL) f->prev[f->next[p]] = f->prev[p]; else f->mru = f->prev[p];
}

static void link_mru(gms_walk_faults *f, uint32_t p)
{
    f->prev[p] = f->mru;
    f->next[p] = NIL;
    if (f->mru != NIL) f->next[f->mru] = p; else f->lru = p;
    f->mru = p;
}

static void add_waiter(gms_walk_faults *f, uint32_t p, gms_walk_warp h)
{
    waiters *w = &f->w[p];
    if (w->n == w->cap) w->v = gms_xrealloc(w->v, (w->cap = w->cap ? 2 * w->cap : 4) * sizeof *w->v);
    w->v[w->n++] = h;
}

void gms_walk_faults_access(gms_walk_faults *f, gms_walk_warp h, const uint32_t *p, uint32_t n)
{
    uint32_t missing = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t pg = p[i];
        grow(f, pg);
        if (f->st[pg] == IN) {
            unlink_page(f, pg);
            link_mru(f, pg);
            continue;
        }
        if (f->st[pg] == ABSENT) {
            f->st[pg] = ASKED;
            if (f->qn == f->qcap) f->q = gms_xrealloc(f->q, (f->qcap = f->qcap ? 2 * f->qcap : 256) * sizeof *f->q);
            f->q[f->qn++] = pg;
        }
        add_waiter(f, pg, h);
        missing++;
    }
    if (missing) gms_walk_pend(h, missing);
}

int gms_walk_faults_service(gms_walk_faults *f)
{
    if (f->qh == f->qn) return 0;
    uint32_t p = f->q[f->qh++];
    if (f->qh == f->qn) f->qh = f->qn = 0;
    if (f->cap && f->nres >= f->cap) {
        uint32_t v = f->lru;
        unlink_page(f, v);
        f->st[v] = ABSENT;
        f->nres--;
    }
    link_mru(f, p);
    f->st[p] = IN;
    f->nres++;
    waiters *w = &f->w[p];
    for (uint32_t i = 0; i < w->n; i++) gms_walk_wake(w->v[i]);
    w->n = 0;
    return 1;
}
