/* CSR construction and the R-MAT / uniform generators (graph_csr.h) */
#include "workloads/graph_csr.h"
#include "util/rng.h"
#include <stdlib.h>
#include <string.h>

void gms_edges_push(gms_edges *e, uint64_t u, uint64_t v, uint32_t w)
{
    if (e->n == e->cap) {
        e->cap = e->cap ? 2 * e->cap : 1024;
        e->u = gms_xrealloc(e->u, 8 * e->cap);
        e->v = gms_xrealloc(e->v, 8 * e->cap);
        e->w = gms_xrealloc(e->w, 4 * e->cap);
    }
    e->u[e->n] = u;
    e->v[e->n] = v;
    e->w[e->n] = w;
    e->n++;
}

void gms_edges_free(gms_edges *e)
{
    free(e->u);
    free(e->v);
    free(e->w);
    memset(e, 0, sizeof *e);
}

void gms_graph_from_edges(gms_graph *g, gms_edges *e, int undirected)
{
    memset(g, 0, sizeof *g);
    g->nv = e->nv;
    g->ne = e->n * (undirected ? 2 : 1);
    g->off = gms_xcalloc(g->nv + 1, 8);
    g->adj = gms_xmalloc(8 * (g->ne ? g->ne : 1));
    g->wt = gms_xmalloc(4 * (g->ne ? g->ne : 1));
    for (uint64_t i = 0; i < e->n; i++) {
        g->off[e->u[i] + 1]++;
        if (undirected) g->off[e->v[i] + 1]++;
    }
    for (uint64_t v = 0; v < g->nv; v++) g->off[v + 1] += g->off[v];
    uint64_t *fill = gms_xmalloc(8 * (g->nv ? g->nv : 1));
    memcpy(fill, g->off, 8 * g->nv);
    for (uint64_t i = 0; i < e->n; i++) {
        uint64_t p = fill[e->u[i]]++;
        g->adj[p] = e->v[i];
        g->wt[p] = e->w[i];
        if (undirected) {
            p = fill[e->v[i]]++;
            g->adj[p] = e->u[i];
            g->wt[p] = e->w[i];
        }
    }
    free(fill);
    gms_edges_free(e);
}

void gms_graph_free(gms_graph *g)
{
    free(g->off);
    free(g->adj);
    free(g->wt);
    memset(g, 0, sizeof *g);
}

uint64_t gms_graph_max_degree_vertex(const gms_graph *g)
{
    uint64_t best = 0, bd = 0;
    for (uint64_t v = 0; v < g->nv; v++)
        if (g->off[v + 1] - g->off[v] > bd) { bd = g->off[v + 1] - g->off[v]; best = v; }
    return best;
}

/* one R-MAT edge on 2^levels ids: at each level pick a quadrant with probabilities a, b, c, d */
static void rmat_edge(gms_rng *r, int levels, uint64_t *u, uint64_t *v)
{
    uint64_t x = 0, y = 0;
    for (int l = 0; l < levels; l++) {
        double p = gms_rng_double(r);
        x <<= 1;
        y <<= 1;
        if (p < GMS_GRAPH_RMAT_A) {
        } else if (p < GMS_GRAPH_RMAT_A + GMS_GRAPH_RMAT_B) {
            y |= 1;
        } else if (p < GMS_GRAPH_RMAT_A + GMS_GRAPH_RMAT_B + GMS_GRAPH_RMAT_C) {
            x |= 1;
        } else {
            x |= 1;
            y |= 1;
        }
    }
    *u = x;
    *v = y;
}

void gms_graph_generate(gms_graph *g, int kind, uint64_t nv, uint64_t edges, uint64_t seed)
{
    gms_rng r;
    gms_rng_seed(&r, seed);
    gms_edges e = {0};
    e.nv = nv;
    e.cap = edges ? edges : 1;
    e.u = gms_xmalloc(8 * e.cap);
    e.v = gms_xmalloc(8 * e.cap);
    e.w = gms_xmalloc(4 * e.cap);
    int levels = 0;
    while ((1ULL << levels) < nv) levels++;
    /* Graph500's vertex permutation (Fisher-Yates), so R-MAT's hubs get scattered ids */
    uint64_t *perm = gms_xmalloc(8 * nv);
    for (uint64_t i = 0; i < nv; i++) perm[i] = i;
    for (uint64_t i = nv; i > 1; i--) {
        uint64_t j = gms_rng_below(&r, i), t = perm[i - 1];
        perm[i - 1] = perm[j];
        perm[j] = t;
    }
    for (uint64_t i = 0; i < edges; i++) {
        uint64_t u, v;
        if (kind == GMS_GRAPH_RMAT) {
            rmat_edge(&r, levels, &u, &v);
            /* ids past nv (nv not a power of two) fold back into range */
            u = perm[u % nv];
            v = perm[v % nv];
        } else {
            u = gms_rng_below(&r, nv);
            v = gms_rng_below(&r, nv);
        }
        e.u[i] = u;
        e.v[i] = v;
        e.w[i] = 1 + (uint32_t)gms_rng_below(&r, GMS_GRAPH_MAXW);
    }
    e.n = edges;
    free(perm);
    gms_graph_from_edges(g, &e, 1);
}
