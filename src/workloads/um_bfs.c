/* um-bfs: UVMSmart's benchmarks/Managed/bfs (Rodinia bfs, Harish & Narayanan's HiPC'07
 * algorithm) at its input `bfs graph1M.txt`. Managed graph_nodes (Node {starting, no_of_edges},
 * 8 bytes), graph_mask, updating_graph_mask, graph_visited (1 byte each), graph_edges (4 bytes
 * per directed edge) and cost, all filled on the host; d_over is cudaMalloc device memory. Per
 * iteration: cudaMemcpy d_over = false, Kernel, Kernel2 (512 threads per block), cudaMemcpy
 * d_over back; until nothing changed; then one cudaDeviceSynchronize. No prefetch (its
 * cudaMemPrefetchAsync calls are under -DPREF only).
 *
 * The graph file is replaced by a generator with Rodinia graphgen's rule, which made
 * graph1M.txt: 2^20 nodes, each draws 2..4 (deg_min..deg_max) random neighbours, every such
 * edge stored in both directions (mean degree 6; graph1M.txt has 6,288,032 edges, this
 * generator ~6.29 M at the default seed); source node 0. Each node's list holds its edges in
 * the order they were drawn, as graphgen's vectors do. With uvm=0 the arrays are cudaMalloc'd
 * and copied (the Rodinia program). d_over is device memory in both: its 1-byte copies are
 * made under uvm=1 too. */
#include "workloads/wl_buf.h"
#include "workloads/wl_clamp.h"
#include "util/rng.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TPB 512

enum { NODES, MASK, UPD, VIS, EDGES, COST, NBUF };
static const char *const bufname[NBUF] = {"graph_nodes", "graph_mask", "updating_graph_mask", "graph_visited",
                                          "graph_edges", "cost"};

typedef struct umbfs {
    uint64_t nv, ne, repeat, rep, iter;
    int phase;
    uint8_t over;          /* *d_over as Kernel2 left it */
    uint64_t d_over;
    wl_buf b[NBUF];
    int32_t *ref;          /* CPU BFS costs */
    char bad[256];         /* first mismatch of a finished repetition */
} umbfs;

static const gms_wl_param params[] = {
    {"nodes", "1048576", "graph nodes (graph1M.txt: 2^20)"},
    {"deg_min", "2", "fewest neighbours a node draws (graphgen's MIN_EDGES)"},
    {"deg_max", "4", "most neighbours a node draws (graphgen's MAX_INIT_EDGES); each edge is stored both ways"},
    {"scale", "1", "multiplies nodes"},
    {"repeat", "1", "run the search N times from the same graph (costs reset each time)"},
    {NULL, NULL, NULL},
};

static int sizes(const gms_wl_args *a, uint64_t *nv, uint64_t *dmin, uint64_t *dmax, gms_error *e)
{
    if (wl_clamp_scaled(a, "um-bfs", "nodes", 1, 0, 1ULL << 28, nv, e) || wl_param(a, "deg_min", 1, 64, dmin, e) ||
        wl_param(a, "deg_max", 1, 64, dmax, e))
        return -1;
    if (*dmax < *dmin) {
        return gms_err(e, "workload um-bfs: deg_max (%llu) is below deg_min (%llu)", (unsigned long long)*dmax,
                    (unsigned long long)*dmin);
    }
    return 0;
}

/* graphgen: the directed edges (both directions of each drawn pair) in drawing order; with
 * eu == NULL only counts them. Returns the count. */
static uint64_t gen(uint64_t seed, uint64_t nv, uint64_t dmin, uint64_t dmax, int32_t *eu, int32_t *ev)
{
    gms_rng r;
    gms_rng_seed(&r, seed);
    uint64_t m = 0;
    for (uint64_t i = 0; i < nv; i++) {
        uint64_t d = dmin + gms_rng_below(&r, dmax - dmin + 1);
        for (uint64_t k = 0; k < d; k++) {
            uint64_t j = gms_rng_below(&r, nv);
            if (eu) {
                eu[m] = (int32_t)i; ev[m] = (int32_t)j;
                eu[m + 1] = (int32_t)j; ev[m + 1] = (int32_t)i;
            }
            m += 2;
        }
    }
    return m;
}

static uint64_t footprint(const gms_wl_args *a)
{
    gms_error e;
    uint64_t nv, dmin, dmax;
    if (sizes(a, &nv, &dmin, &dmax, &e)) return 0;
    return nv * (8 + 3 + 4) + 4 * gen(gms_wl_seed(a), nv, dmin, dmax, NULL, NULL);
}

#define D(s, k) ((s)->b[k].d)
#define I(s, k) WL_I((s)->b[k])
#define U8(s, k) ((uint8_t *)(s)->b[k].h)

/* a copy to or from device (cudaMalloc) memory, made in a managed run too (gms_prog_copy_*
 * drop explicit copies when p->uvm) */
static void dev_copy(gms_program *p, int d2h, uint64_t addr, uint64_t bytes)
{
    int u = p->uvm;
    p->uvm = 0;
    if (d2h) gms_prog_copy_d2h(p, addr, bytes);
    else gms_prog_copy_h2d(p, addr, bytes);
    p->uvm = u;
}

/* host state of a fresh search: only the source in the frontier */
static void reset(umbfs *s)
{
    memset(U8(s, MASK), 0, s->nv);
    memset(U8(s, UPD), 0, s->nv);
    memset(U8(s, VIS), 0, s->nv);
    for (uint64_t i = 0; i < s->nv; i++) I(s, COST)[i] = -1;
    U8(s, MASK)[0] = 1;
    U8(s, VIS)[0] = 1;
    I(s, COST)[0] = 0;
}

static int create(const gms_wl_args *a, void **out, gms_error *err)
{
    uint64_t nv, dmin, dmax, rep;
    if (sizes(a, &nv, &dmin, &dmax, err) || wl_param(a, "repeat", 1, 1000000, &rep, err)) return -1;
    uint64_t m = gen(gms_wl_seed(a), nv, dmin, dmax, NULL, NULL);
    int32_t *eu = gms_xmalloc(4 * m), *ev = gms_xmalloc(4 * m);
    gen(gms_wl_seed(a), nv, dmin, dmax, eu, ev);
    umbfs *s = gms_xcalloc(1, sizeof *s);
    s->nv = nv;
    s->ne = m;
    s->repeat = rep;
    wl_buf_new(&s->b[NODES], 8 * nv);
    wl_buf_new(&s->b[MASK], nv);
    wl_buf_new(&s->b[UPD], nv);
    wl_buf_new(&s->b[VIS], nv);
    wl_buf_new(&s->b[EDGES], 4 * m);
    wl_buf_new(&s->b[COST], 4 * nv);
    /* CSR: node i's edges in drawing order */
    int32_t *nd = I(s, NODES), *adj = I(s, EDGES);
    for (uint64_t k = 0; k < m; k++) nd[2 * eu[k] + 1]++;
    int64_t o = 0;
    for (uint64_t v = 0; v < nv; v++) { nd[2 * v] = (int32_t)o; o += nd[2 * v + 1]; }
    int32_t *fill = gms_xcalloc(nv, 4);
    for (uint64_t k = 0; k < m; k++) adj[nd[2 * eu[k]] + fill[eu[k]]++] = ev[k];
    free(fill);
    free(eu);
    free(ev);
    /* reference: level-synchronous BFS from node 0 */
    s->ref = gms_xmalloc(4 * nv);
    for (uint64_t i = 0; i < nv; i++) s->ref[i] = -1;
    int32_t *q = gms_xmalloc(4 * nv);
    uint64_t qh = 0, qt = 0;
    s->ref[0] = 0;
    q[qt++] = 0;
    while (qh < qt) {
        int32_t u = q[qh++];
        for (int32_t k = nd[2 * u]; k < nd[2 * u] + nd[2 * u + 1]; k++)
            if (s->ref[adj[k]] < 0) { s->ref[adj[k]] = s->ref[u] + 1; q[qt++] = adj[k]; }
    }
    free(q);
    reset(s);
    *out = s;
    return 0;
}

/* Kernel: a frontier node clears its mask bit and, for each edge to an unvisited node, sets
 * that node's cost to its own + 1 and its updating mask bit. Every frontier node has the same
 * cost (the level), so the lanes racing on one neighbour write the same value. */
static int k_expand(const wl_kernel *k, uint64_t b, gms_block_trace *out, gms_error *err)
{
    umbfs *s = k->st;
    wl_warp W[WL_MAXW];
    uint32_t nw = wl_block_begin(out, TPB, W);
    wl_warps_sh(W, nw, k);
    uint8_t *mask = U8(s, MASK), *vis = U8(s, VIS), *upd = U8(s, UPD);
    int32_t *nd = I(s, NODES), *adj = I(s, EDGES), *cost = I(s, COST);
    uint64_t a[32], a2[32];
    for (uint32_t w = 0; w < nw; w++) {
        wl_warp *x = &W[w];
        uint8_t ri, c;
        uint64_t t0 = b * TPB + x->t0;
        uint32_t min = wl_guard_1d(x, b * TPB, s->nv, &ri, &c), act = 0;
        WL_TLANES(x, min, l, t) a[l] = D(s, MASK) + t0 + (uint64_t)l;
        uint8_t rm = wl_ldg_at(x, 0x28, min, 1, a, ri);
        WL_SH_LD(x, min, uint8_t, mask[t0 + (uint64_t)l]);
        WL_TLANES(x, min, l, t) if (mask[t0 + (uint64_t)l]) act |= 1u << l;
        uint8_t p = wl_int_at(x, 0x30, min, rm, GMS_REG_NONE);
        wl_bra_at(x, 0x38, min, p);
        if (act) {
            wl_stg_at(x, 0x40, act, 1, a, ri, GMS_REG_NONE);
            WL_SH_ST(x, act, uint8_t, 0);
            int32_t beg[32] = {0}, deg[32] = {0}, maxd = 0;
            WL_TLANES(x, act, l, t) {
                uint64_t v = t0 + (uint64_t)l;
                mask[v] = 0;
                beg[l] = nd[2 * v];
                deg[l] = nd[2 * v + 1];
                if (deg[l] > maxd) maxd = deg[l];
                a2[l] = D(s, NODES) + 8 * v;
            }
            /* the Node struct in one 8-byte load: starting in the low word */
            uint8_t rn = wl_ldg_at(x, 0x48, act, 8, a2, ri);
            WL_SH_LD(x, act, uint64_t, (uint64_t)(uint32_t)beg[l] | (uint64_t)(uint32_t)deg[l] << 32);
            uint8_t re = wl_int_at(x, 0x50, act, rn, GMS_REG_NONE);
            uint8_t ci = wl_int_at(x, 0x58, act, rn, re);
            wl_bra_at(x, 0x60, act, ci);
            for (int32_t it = 0; it < maxd; it++) {
                uint32_t m = 0, mw = 0;
                int32_t id[32];
                WL_TLANES(x, act, l, t) if (it < deg[l]) {
                    m |= 1u << l;
                    id[l] = adj[beg[l] + it];
                    a[l] = D(s, EDGES) + 4 * (uint64_t)(beg[l] + it);
                    a2[l] = D(s, VIS) + (uint64_t)id[l];
                }
                uint8_t rv = wl_ldg_at(x, 0x68, m, 4, a, rn);
                WL_SH_LD(x, m, int32_t, id[l]);
                uint8_t rs = wl_ldg_at(x, 0x70, m, 1, a2, rv);
                WL_SH_LD(x, m, uint8_t, vis[id[l]]);
                uint8_t q = wl_int_at(x, 0x78, m, rs, GMS_REG_NONE);
                wl_bra_at(x, 0x80, m, q);
                int32_t own[32];
                WL_TLANES(x, m, l, t) if (!vis[id[l]]) {
                    mw |= 1u << l;
                    own[l] = cost[t0 + (uint64_t)l];
                    a[l] = D(s, COST) + 4 * (t0 + (uint64_t)l);
                    a2[l] = D(s, COST) + 4 * (uint64_t)id[l];
                }
                if (mw) {
                    uint8_t rc = wl_ldg_at(x, 0x88, mw, 4, a, ri);
                    WL_SH_LD(x, mw, int32_t, own[l]);
                    uint8_t inc = wl_int_at(x, 0x90, mw, rc, GMS_REG_NONE);
                    WL_TLANES(x, mw, l, t) { cost[id[l]] = own[l] + 1; upd[id[l]] = 1; }
                    wl_stg_at(x, 0x98, mw, 4, a2, rv, inc);
                    WL_SH_ST(x, mw, int32_t, own[l] + 1);
                    WL_TLANES(x, mw, l, t) a2[l] = D(s, UPD) + (uint64_t)id[l];
                    wl_stg_at(x, 0xa0, mw, 1, a2, rv, GMS_REG_NONE);
                    WL_SH_ST(x, mw, uint8_t, 1);
                }
                uint8_t ni = wl_int_at(x, 0xa8, m, rv, re);
                wl_bra_at(x, 0xb0, m, ni);
            }
        }
        wl_exit_at(x, WL_PC_END, x->live);
    }
    (void)err;
    return 0;
}

/* Kernel2: a node reached this level joins the frontier, is visited, and sets *over */
static int k_update(const wl_kernel *k, uint64_t b, gms_block_trace *out, gms_error *err)
{
    umbfs *s = k->st;
    wl_warp W[WL_MAXW];
    uint32_t nw = wl_block_begin(out, TPB, W);
    wl_warps_sh(W, nw, k);
    uint8_t *mask = U8(s, MASK), *vis = U8(s, VIS), *upd = U8(s, UPD);
    uint64_t a[32];
    for (uint32_t w = 0; w < nw; w++) {
        wl_warp *x = &W[w];
        uint8_t ri, c;
        uint64_t t0 = b * TPB + x->t0;
        uint32_t min = wl_guard_1d(x, b * TPB, s->nv, &ri, &c), act = 0;
        WL_TLANES(x, min, l, t) a[l] = D(s, UPD) + t0 + (uint64_t)l;
        uint8_t ru = wl_ldg_at(x, 0x28, min, 1, a, ri);
        WL_SH_LD(x, min, uint8_t, upd[t0 + (uint64_t)l]);
        WL_TLANES(x, min, l, t) if (upd[t0 + (uint64_t)l]) act |= 1u << l;
        uint8_t p = wl_int_at(x, 0x30, min, ru, GMS_REG_NONE);
        wl_bra_at(x, 0x38, min, p);
        if (act) {
            WL_TLANES(x, act, l, t) {
                uint64_t v = t0 + (uint64_t)l;
                mask[v] = 1; vis[v] = 1; upd[v] = 0;
                a[l] = D(s, MASK) + v;
            }
            wl_stg_at(x, 0x40, act, 1, a, ri, GMS_REG_NONE);
            WL_SH_ST(x, act, uint8_t, 1);
            WL_TLANES(x, act, l, t) a[l] = D(s, VIS) + t0 + (uint64_t)l;
            wl_stg_at(x, 0x48, act, 1, a, ri, GMS_REG_NONE);
            WL_SH_ST(x, act, uint8_t, 1);
            WL_TLANES(x, act, l, t) a[l] = s->d_over;
            wl_stg_at(x, 0x50, act, 1, a, GMS_REG_NONE, GMS_REG_NONE);
            WL_SH_ST(x, act, uint8_t, 1);
            s->over = 1;
            WL_TLANES(x, act, l, t) a[l] = D(s, UPD) + t0 + (uint64_t)l;
            wl_stg_at(x, 0x58, act, 1, a, ri, GMS_REG_NONE);
            WL_SH_ST(x, act, uint8_t, 0);
        }
        wl_exit_at(x, WL_PC_END, x->live);
    }
    (void)err;
    return 0;
}

/* a finished repetition: its costs (from the shadow memory in a functional verify run)
 * against the CPU search */
static void check(umbfs *s, const gms_program *p)
{
    void *own;
    const int32_t *c = wl_result(p->shadow, D(s, COST), I(s, COST), s->nv, 4, &own);
    for (uint64_t i = 0; i < s->nv && !s->bad[0]; i++)
        if (c[i] != s->ref[i])
            snprintf(s->bad, sizeof s->bad, "um-bfs: repetition %llu: cost[%llu] = %d, expected %d",
                     (unsigned long long)s->rep + 1, (unsigned long long)i, c[i], s->ref[i]);
    free(own);
}

static int next(void *st, gms_program *p, gms_error *err)
{
    umbfs *s = st;
    if (s->phase == 2) return 0;
    if (s->phase == 0) {
        for (int i = 0; i < NBUF; i++) wl_buf_alloc(p, &s->b[i], bufname[i], 1);
        s->d_over = gms_prog_alloc_kind(p, 1, 0, "d_over");
        s->phase = 1;
    } else if (!s->over) {
        /* the last iteration changed nothing: cudaDeviceSynchronize, the host reads cost */
        gms_prog_sync(p);
        gms_prog_copy_d2h(p, D(s, COST), 4 * s->nv);
        check(s, p);
        if (++s->rep == s->repeat) {
            s->phase = 2;
            return 1;
        }
        reset(s);
        for (int i = MASK; i <= COST; i++)
            if (i != EDGES) wl_buf_upload(p, &s->b[i]);
    }
    s->over = 0;
    dev_copy(p, 0, s->d_over, 1);
    if (p->shadow) { uint8_t z = 0; wl_sh_init(p, s->d_over, &z, 1); }
    wl_kernel k = {.st = s, .grid = {(uint32_t)((s->nv + TPB - 1) / TPB), 1, 1}, .block = {TPB, 1, 1}};
    k.fill = k_expand;
    wl_launch_k(p, "Kernel", &k, 16, 0);
    k.fill = k_update;
    wl_launch_k(p, "Kernel2", &k, 8, 0);
    dev_copy(p, 1, s->d_over, 1);
    s->iter++;
    (void)err;
    return 1;
}

static int verify(void *st, gms_error *err)
{
    umbfs *s = st;
    if (s->bad[0]) {
        gms_err(err, "%s", s->bad);
        return -1;
    }
    return 0;
}

static void destroy(void *st)
{
    umbfs *s = st;
    if (!s) return;
    for (int i = 0; i < NBUF; i++) wl_buf_free(&s->b[i]);
    free(s->ref);
    free(s);
}

const gms_workload_ops gms_wl_um_bfs = {
    .name = "um-bfs", .suite = "uvmsmart", .domain = "graph traversal", .ri = "I",
    .summary = "UVMSmart Managed bfs: Rodinia's two-kernel BFS on a graphgen-style 2^20-node graph (mean degree 6)",
    .params = params, .create = create, .next = next, .verify = verify, .destroy = destroy, .footprint = footprint,
};
