/* Graphs for the graph workloads (GraphBIG, graphbig_*.c): a CSR built from an edge list, a
 * generator (R-MAT / Kronecker and uniform random) and readers for edge lists, Matrix Market
 * and GraphBIG's CSV vertex/edge files (graph_io.c).
 *
 * The CSR is GraphBIG's cudaGraph layout: vertex v's out-edges are adj[off[v] .. off[v+1]),
 * 8-byte indices (GraphBIG's uint64_t vertexlist/edgelist); wt[] holds one positive integer
 * weight per edge entry (SSSP's edge property). */
#ifndef GMS_WORKLOADS_GRAPH_CSR_H
#define GMS_WORKLOADS_GRAPH_CSR_H
#include <stdint.h>
#include "util/err.h"

typedef struct gms_graph {
    uint64_t nv;          /* vertices */
    uint64_t ne;          /* edge entries (an undirected edge is two) */
    uint64_t *off;        /* nv + 1 */
    uint64_t *adj;        /* ne */
    uint32_t *wt;         /* ne */
} gms_graph;

/* an edge list while it is being read or generated */
typedef struct gms_edges {
    uint64_t n, cap, nv;  /* edges, capacity, vertices (ids are below nv) */
    uint64_t *u, *v;
    uint32_t *w;
} gms_edges;
void gms_edges_push(gms_edges *e, uint64_t u, uint64_t v, uint32_t w);
void gms_edges_free(gms_edges *e);

/* CSR of the edges (consumed: e is freed). undirected: each edge is also stored reversed.
 * Within a vertex the edges keep their order in e (reversed copies after the others'
 * positions in the list order), so the CSR is deterministic. */
void gms_graph_from_edges(gms_graph *g, gms_edges *e, int undirected);
void gms_graph_free(gms_graph *g);
/* the vertex with the most out-edges (the lowest such id) */
uint64_t gms_graph_max_degree_vertex(const gms_graph *g);

/* Generators. R-MAT (Chakrabarti et al.; Graph500's Kronecker generator and GraphBIG's
 * synthetic graphs) with a = 0.57, b = c = 0.19, d = 0.05 on 2^ceil(log2 nv) ids folded into
 * [0, nv), vertex ids then randomly permuted (as Graph500 does, so hubs are not the lowest
 * ids); uniform: both ends uniform in [0, nv). `edges` undirected edges, each stored both
 * ways (2*edges entries); self loops and repeated edges are kept, as Graph500's edge list
 * has them. Weights uniform in [1, 255] (`maxw`). */
enum { GMS_GRAPH_RMAT = 0, GMS_GRAPH_UNIFORM = 1 };
void gms_graph_generate(gms_graph *g, int kind, uint64_t nv, uint64_t edges, uint64_t seed);
#define GMS_GRAPH_RMAT_A 0.57
#define GMS_GRAPH_RMAT_B 0.19
#define GMS_GRAPH_RMAT_C 0.19
#define GMS_GRAPH_MAXW 255u

/* Read a graph file (graph_io.c). Format by name: a directory or a path ending in
 * "vertex.csv"/"edge.csv": GraphBIG's CSV dataset (DIR/vertex.csv + DIR/edge.csv; first
 * line a header, '|' or ',' separated, first column the vertex id; edges "src|dest");
 * ".mtx": Matrix Market coordinate (1-based; "symmetric" entries mirrored when not
 * `undirected`, which stores them both ways anyway); anything else: an edge
 * list "u v [w]" (0-based, '#' and '%' comment lines). Weights: an edge list's third column
 * or a Matrix Market integer value (1 when absent). A malformed line: "file:line: what was
 * expected" and -1. */
int gms_graph_read(gms_graph *g, const char *path, int undirected, gms_error *err);

#endif
