/* Random eviction (-eviction_policy 3): one uniformly random resident page. */
#include <stdlib.h>
#include "uvm/uvm_internal.h"

typedef struct re { gms_uvm *u; uint32_t *res, *pos; uint32_t n, cap; } re;

static void *create(gms_uvm *u, gms_error *err)
{
    (void)err;
    re *s = gms_xcalloc(1, sizeof *s);
    s->u = u;
    return s;
}
static void destroy(void *st) { re *s = st; free(s->res); free(s->pos); free(s); }
static void grow(void *st, gms_uvm *u)
{
    re *s = st;
    if (u->npages <= s->cap) return;
    uint32_t cap = s->cap ? s->cap : 64;
    while (cap < u->npages) cap *= 2;
    s->res = gms_xrealloc(s->res, cap * sizeof *s->res);
    s->pos = gms_xrealloc(s->pos, cap * sizeof *s->pos);
    s->cap = cap;
}
static void resident(void *st, uint32_t page, uint64_t now)
{
    (void)now;
    re *s = st;
    s->pos[page] = s->n;
    s->res[s->n++] = page;
}
static void removed(void *st, uint32_t page)
{
    re *s = st;
    uint32_t i = s->pos[page], last = s->res[--s->n];
    s->res[i] = last;
    s->pos[last] = i;
}
static void select_random(void *st, gms_uvm *u, uint64_t now, gms_uvm_vec *out)
{
    (void)now;
    re *s = st;
    if (s->n) gms_uvm_vec_push(out, s->res[gms_rng_below(&u->rng, s->n)]);
}

const gms_uvm_evict_ops gms_uvm_evict_random = {
    .name = "random", .uvmsmart_id = 3, .help = "a uniformly random resident page",
    .create = create, .destroy = destroy, .grow = grow, .resident = resident, .removed = removed,
    .select = select_random,
};
