/* Belady's MIN over a page-reference string, counted exactly (see opt_bound.h). The resident
 * pages sit in an indexed max-heap on the position of their next reference; a hit moves the
 * page's key later (a sift up), a fault with memory full takes the root. Ties (several pages
 * never referenced again) do not change the count. */
#include <stdlib.h>
#include "uvm/opt_bound.h"
#include "uvm/uvm_internal.h"

#define NEVER UINT64_MAX
#define NOWHERE UINT32_MAX

typedef struct heap {
    uint32_t *h, *pos;   /* heap of page ids; page -> heap index or NOWHERE */
    uint64_t *key;       /* page -> position of its next reference */
    uint32_t n;
} heap;

static void put(heap *s, uint32_t i, uint32_t p) { s->h[i] = p; s->pos[p] = i; }

static void sift_up(heap *s, uint32_t i)
{
    uint32_t p = s->h[i];
    while (i > 0) {
        uint32_t par = (i - 1) / 2;
        if (s->key[s->h[par]] >= s->key[p]) break;
        put(s, i, s->h[par]);
        i = par;
    }
    put(s, i, p);
}

static void sift_down(heap *s, uint32_t i)
{
    uint32_t p = s->h[i];
    for (;;) {
        uint32_t l = 2 * i + 1, r = l + 1, m = i;
        uint64_t best = s->key[p];
        if (l < s->n && s->key[s->h[l]] > best) { m = l; best = s->key[s->h[l]]; }
        if (r < s->n && s->key[s->h[r]] > best) m = r;
        if (m == i) break;
        put(s, i, s->h[m]);
        i = m;
    }
    put(s, i, p);
}

void gms_opt_count(const uint32_t *refs, size_t n, uint32_t npages, uint64_t capacity, gms_opt_result *out)
{
    *out = (gms_opt_result){0};
    /* fold consecutive repeats: a repeat always hits and moves nothing */
    uint32_t *f = gms_xmalloc((n + 1) * sizeof *f);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (!m || f[m - 1] != refs[i]) f[m++] = refs[i];
    out->refs = m;
    uint64_t *next = gms_xmalloc((m + 1) * sizeof *next);
    heap s = { gms_xmalloc(((size_t)npages + 1) * sizeof *s.h), gms_xmalloc(((size_t)npages + 1) * sizeof *s.pos),
               gms_xmalloc(((size_t)npages + 1) * sizeof *s.key), 0 };
    for (uint32_t p = 0; p < npages; p++) { s.key[p] = NEVER; s.pos[p] = NOWHERE; }
    for (size_t i = m; i-- > 0;) {   /* s.key holds each page's last-seen position here */
        next[i] = s.key[f[i]];
        out->distinct += next[i] == NEVER;   /* a page's last reference: one per page */
        s.key[f[i]] = i;
    }
    for (uint32_t p = 0; p < npages; p++) s.key[p] = NEVER;
    for (size_t i = 0; i < m; i++) {
        uint32_t p = f[i];
        s.key[p] = next[i];   /* only ever later: a resident page moves up */
        if (s.pos[p] != NOWHERE) { sift_up(&s, s.pos[p]); continue; }
        out->faults++;
        if (capacity && s.n >= capacity) {
            uint32_t v = s.h[0];
            s.pos[v] = NOWHERE;
            out->evictions++;
            if (--s.n) { put(&s, 0, s.h[s.n]); sift_down(&s, 0); }
        }
        put(&s, s.n++, p);
        sift_up(&s, s.n - 1);
    }
    free(f); free(next); free(s.h); free(s.pos); free(s.key);
}

struct gms_uvm_opt {
    uint32_t *refs[GMS_OPT_ORDERS]; size_t n[GMS_OPT_ORDERS]; uint32_t npages;
    int counted; gms_opt_result r[GMS_OPT_ORDERS]; uint64_t cap;   /* once the capacity is fixed, counted once */
};

void gms_uvm_set_opt_refs(gms_uvm *u, uint32_t *refs[GMS_OPT_ORDERS], const size_t n[GMS_OPT_ORDERS], uint32_t npages)
{
    gms_uvm_opt_free(u->opt);
    u->opt = gms_xcalloc(1, sizeof *u->opt);
    for (int i = 0; i < GMS_OPT_ORDERS; i++) {
        u->opt->refs[i] = refs[i];
        u->opt->n[i] = n[i];
    }
    u->opt->npages = npages;
}

static void free_refs(gms_uvm_opt *o)
{
    for (int i = 0; i < GMS_OPT_ORDERS; i++) { free(o->refs[i]); o->refs[i] = NULL; }
}

void gms_uvm_opt_free(gms_uvm_opt *o)
{
    if (!o) return;
    free_refs(o);
    free(o);
}

void gms_uvm_opt_report(gms_uvm *u, gms_stats *out)
{
    gms_uvm_opt *o = u->opt;
    if (!o) return;
    if (!o->counted) {
        o->cap = gms_uvm_capacity_pages(u);
        for (int i = 0; i < GMS_OPT_ORDERS; i++) gms_opt_count(o->refs[i], o->n[i], o->npages, o->cap, &o->r[i]);
        /* the strings are the whole program's: with the capacity fixed the count is final
         * (statistics are reported after every kernel) */
        if (u->capacity_fixed) { o->counted = 1; free_refs(o); }
    }
    /* the bound: the fewer faults of the two orders (each a schedule the GPU could run) */
    const gms_opt_result *b = &o->r[o->r[GMS_OPT_RESIDENT].faults < o->r[GMS_OPT_SERIAL].faults];
    gms_stat_u64(out, "gms_uvm_opt_refs", b->refs);
    gms_stat_u64(out, "gms_uvm_opt_pages", b->distinct);
    gms_stat_u64(out, "gms_uvm_opt_capacity_pages", o->cap);
    gms_stat_u64(out, "gms_uvm_opt_faults", b->faults);
    gms_stat_u64(out, "gms_uvm_opt_evictions", b->evictions);
    gms_stat_u64(out, "gms_uvm_opt_faults_serial", o->r[GMS_OPT_SERIAL].faults);
    gms_stat_u64(out, "gms_uvm_opt_faults_resident", o->r[GMS_OPT_RESIDENT].faults);
}
