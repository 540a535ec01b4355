/* BFS (bfs-cuda, UVMBench): breadth-first search from vertex `start`, run three ways as in
 * the suite's main: simple (simpleBfs until nothing changes), queue (queueBfs with atomics)
 * and scan (nextLayer, countDegrees, scanDegrees, assignVerticesNextQueue); 6 kernels, 1024
 * threads per block. The graph is random (`vertices`, `edges` undirected pairs, fixed seed)
 * or read from `graph=FILE` in the Rodinia text format (or the suite's "n m" + edge pairs). */
#include "workloads/wl_buf.h"
#include "workloads/wl_clamp.h"
#include "util/rng.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TPB 1024

enum { ADJ, OFF, SIZE, DIST, PAR, Q0, Q1, DEG, CHANGED, NQS, INCR, NBUF };
static const char *const bufname[NBUF] = {"u_adjacencyList", "u_edgesOffset", "u_edgesSize", "u_distance",
                                          "u_parent", "u_currentQueue", "u_nextQueue", "u_degrees",
                                          "changed", "nextQueueSize", "incrDegrees"};

typedef struct bfs {
    uint64_t nv, ne;
    int32_t start;
    int phase, level;
    uint64_t repeat, rep;  /* repetitions of the three versions asked for; the one running */
    int cur;               /* which of Q0/Q1 is the current queue */
    int32_t qsize, nqsize;
    wl_buf b[NBUF];
    int32_t *ref;          /* CPU distances */
    char bad[512];         /* first mismatch found after a version finished */
    wl_shadow *sh;         /* functional verify runs: the host reads the distances, the
                              changed flag, the queue size and the block sums from it */
} bfs;

static const gms_wl_param params[] = {
    {"vertices", "16777216", "vertices of the random graph (the suite's graph16M)"},
    {"edges", "50331648", "random undirected edges (each stored in both directions)"},
    {"start", "5", "start vertex (the suite's first argument)"},
    {"graph", "", "read the graph from FILE (Rodinia text format) instead of generating it"},
    {"scale", "1", "multiplies vertices and edges"},
    {"repeat", "1", "run the three searches N times from the same start (distances reset each time)"},
    {NULL, NULL, NULL},
};

#define D(s, k) ((s)->b[k].d)
#define I(s, k) WL_I((s)->b[k])

/* CSR from an edge list */
static void build_csr(bfs *s, const int32_t *eu, const int32_t *ev, uint64_t m)
{
    wl_buf_new(&s->b[OFF], 4 * s->nv);
    wl_buf_new(&s->b[SIZE], 4 * s->nv);
    wl_buf_new(&s->b[ADJ], 4 * (m ? m : 1));
    s->b[ADJ].bytes = 4 * m;
    int32_t *off = I(s, OFF), *sz = I(s, SIZE), *adj = I(s, ADJ);
    for (uint64_t i = 0; i < m; i++) sz[eu[i]]++;
    int64_t o = 0;
    for (uint64_t v = 0; v < s->nv; v++) { off[v] = (int32_t)o; o += sz[v]; }
    int32_t *fill = gms_xcalloc(s->nv, 4);
    for (uint64_t i = 0; i < m; i++) adj[off[eu[i]] + fill[eu[i]]++] = ev[i];
    free(fill);
    s->ne = m;
}

static int read_graph(bfs *s, const char *path, gms_error *err)
{
    FILE *f = fopen(path, "r");
    if (!f) return gms_err(err, "workload bfs: cannot open graph=%s", path);
    char line[512];
    int ln = 0, rc = -1;
    int32_t *eu = NULL, *ev = NULL;
    uint64_t m = 0;
    long long x, y;
    int n;
    /* first line: "N" (Rodinia) or "N M" (bfs-cuda edge list) */
    if (!fgets(line, sizeof line, f)) { gms_err_at(err, path, 1, "empty graph file"); goto out; }
    ln = 1;
    n = sscanf(line, "%lld %lld", &x, &y);
    if (n < 1 || x <= 0 || x > INT32_MAX) { gms_err_at(err, path, ln, "expected the vertex count"); goto out; }
    s->nv = (uint64_t)x;
    if (n == 2) {
        if (y < 0 || y > INT32_MAX) { gms_err_at(err, path, ln, "bad edge count %lld", y); goto out; }
        m = (uint64_t)y;
        eu = gms_xmalloc(4 * (m + 1));
        ev = gms_xmalloc(4 * (m + 1));
        for (uint64_t i = 0; i < m; i++) {
            long long u, v;
            if (!fgets(line, sizeof line, f)) { gms_err_at(err, path, ln + 1, "missing edge %llu of %llu", (unsigned long long)i + 1, (unsigned long long)m); goto out; }
            ln++;
            if (sscanf(line, "%lld %lld", &u, &v) != 2 || u < 0 || v < 0 || u >= x || v >= x) {
                gms_err_at(err, path, ln, "expected an edge \"u v\" with vertices below %lld", x);
                goto out;
            }
            eu[i] = (int32_t)u;
            ev[i] = (int32_t)v;
        }
    } else {
        /* Rodinia: N lines "start degree", then the source, the edge count, E lines "dest cost" */
        int64_t *st = gms_xmalloc(8 * s->nv), *dg = gms_xmalloc(8 * s->nv);
        int ok = 1;
        for (uint64_t v = 0; v < s->nv && ok; v++) {
            if (!fgets(line, sizeof line, f)) { gms_err_at(err, path, ln + 1, "missing node %llu", (unsigned long long)v); ok = 0; break; }
            ln++;
            long long a, d;
            if (sscanf(line, "%lld %lld", &a, &d) != 2 || a < 0 || d < 0) { gms_err_at(err, path, ln, "expected \"start degree\""); ok = 0; break; }
            st[v] = a;
            dg[v] = d;
        }
        long long src = 0, ecount = 0;
        while (ok) {   /* source (skip blank lines) */
            if (!fgets(line, sizeof line, f)) { gms_err_at(err, path, ln + 1, "missing source vertex"); ok = 0; break; }
            ln++;
            if (sscanf(line, "%lld", &src) == 1) break;
            if (line[strspn(line, " \t\r\n")]) { gms_err_at(err, path, ln, "expected the source vertex"); ok = 0; }
        }
        while (ok) {
            if (!fgets(line, sizeof line, f)) { gms_err_at(err, path, ln + 1, "missing edge count"); ok = 0; break; }
            ln++;
            if (sscanf(line, "%lld", &ecount) == 1) break;
            if (line[strspn(line, " \t\r\n")]) { gms_err_at(err, path, ln, "expected the edge count"); ok = 0; }
        }
        if (ok && (ecount < 0 || ecount > INT32_MAX)) { gms_err_at(err, path, ln, "bad edge count %lld", ecount); ok = 0; }
        int32_t *dst = ok ? gms_xmalloc(4 * ((uint64_t)ecount + 1)) : NULL;
        for (long long i = 0; ok && i < ecount; i++) {
            long long d, c;
            if (!fgets(line, sizeof line, f)) { gms_err_at(err, path, ln + 1, "missing edge %lld of %lld", i + 1, ecount); ok = 0; break; }
            ln++;
            int k = sscanf(line, "%lld %lld", &d, &c);
            if (k < 1) {
                if (!line[strspn(line, " \t\r\n")]) { i--; continue; }
                gms_err_at(err, path, ln, "expected \"dest cost\""); ok = 0; break;
            }
            if (d < 0 || d >= x) { gms_err_at(err, path, ln, "edge destination %lld out of range [0, %lld)", d, x); ok = 0; break; }
            dst[i] = (int32_t)d;
        }
        for (uint64_t v = 0; ok && v < s->nv; v++)
            if (st[v] + dg[v] > ecount) {
                gms_err(err, "%s: node %llu: edges [%lld, %lld) beyond the edge count %lld", path,
                        (unsigned long long)v, (long long)st[v], (long long)(st[v] + dg[v]), ecount);
                ok = 0;
            }
        if (ok) {
            m = 0;
            for (uint64_t v = 0; v < s->nv; v++) m += (uint64_t)dg[v];
            eu = gms_xmalloc(4 * (m + 1));
            ev = gms_xmalloc(4 * (m + 1));
            uint64_t k = 0;
            for (uint64_t v = 0; v < s->nv; v++)
                for (int64_t e = 0; e < dg[v]; e++) { eu[k] = (int32_t)v; ev[k] = dst[st[v] + e]; k++; }
            if (src >= 0 && src < x && s->start == -1) s->start = (int32_t)src;
        }
        free(st);
        free(dg);
        free(dst);
        if (!ok) goto out;
    }
    build_csr(s, eu, ev, m);
    rc = 0;
out:
    free(eu);
    free(ev);
    fclose(f);
    return rc;
}

static int gen_sizes(const gms_wl_args *a, uint64_t *nv, uint64_t *ne, gms_error *err)
{
    if (wl_clamp_scaled(a, "bfs", "vertices", 1, 0, INT32_MAX / 2, nv, err) ||
        wl_clamp_scaled(a, "bfs", "edges", 1, 0, INT32_MAX / 2, ne, err))
        return -1;
    return 0;
}

static uint64_t footprint(const gms_wl_args *a)
{
    gms_error e;
    uint64_t nv = 0, ne = 0;
    if (*gms_wl_str(a, "graph")) {
        bfs s;
        memset(&s, 0, sizeof s);
        if (read_graph(&s, gms_wl_str(a, "graph"), &e)) return 0;
        nv = s.nv;
        ne = s.ne;
        for (int k = 0; k < NBUF; k++) wl_buf_free(&s.b[k]);
        return 4 * (ne + 8 * nv + 2);
    }
    if (gen_sizes(a, &nv, &ne, &e)) return 0;
    return 4 * (2 * ne + 8 * nv + 2);
}

static void cpu_bfs(const bfs *s, int32_t *dist)
{
    const int32_t *off = I(s, OFF), *sz = I(s, SIZE), *adj = I(s, ADJ);
    for (uint64_t v = 0; v < s->nv; v++) dist[v] = INT_MAX;
    int32_t *q = gms_xmalloc(4 * s->nv);
    uint64_t h = 0, t = 0;
    dist[s->start] = 0;
    q[t++] = s->start;
    while (h < t) {
        int32_t u = q[h++];
        for (int32_t i = off[u]; i < off[u] + sz[u]; i++)
            if (dist[adj[i]] == INT_MAX) { dist[adj[i]] = dist[u] + 1; q[t++] = adj[i]; }
    }
    free(q);
}

static int create(const gms_wl_args *a, void **out, gms_error *err)
{
    bfs *s = gms_xcalloc(1, sizeof *s);
    const char *g = gms_wl_str(a, "graph");
    s->start = -1;
    /* checked before the graph is built (seconds at the default size) */
    if (wl_param(a, "repeat", 1, 1000000, &s->repeat, err)) goto fail;
    if (*g) {
        if (read_graph(s, g, err)) goto fail;
    } else {
        uint64_t ne;
        if (gen_sizes(a, &s->nv, &ne, err)) goto fail;
        int32_t *eu = gms_xmalloc(8 * ne), *ev = gms_xmalloc(8 * ne);
        gms_rng r;
        gms_rng_seed(&r, gms_wl_seed(a));
        for (uint64_t i = 0; i < ne; i++) {
            int32_t u = (int32_t)gms_rng_below(&r, s->nv), v = (int32_t)gms_rng_below(&r, s->nv);
            eu[2 * i] = u; ev[2 * i] = v;
            eu[2 * i + 1] = v; ev[2 * i + 1] = u;
        }
        build_csr(s, eu, ev, 2 * ne);
        free(eu);
        free(ev);
    }
    uint64_t st = gms_wl_u64(a, "start");
    if (strcmp(gms_wl_str(a, "start"), "5") || s->start < 0) {
        if (st >= s->nv) {
            gms_err(err, "workload bfs: start=%llu is not a vertex (the graph has %llu)", (unsigned long long)st,
                    (unsigned long long)s->nv);
            goto fail;
        }
        s->start = (int32_t)st;
    }
    for (int k = DIST; k < NBUF; k++)
        wl_buf_new(&s->b[k], k == CHANGED || k == NQS ? 4 : 4 * (s->nv + 2));
    s->ref = gms_xmalloc(4 * s->nv);
    cpu_bfs(s, s->ref);
    *out = s;
    return 0;
fail:
    for (int k = 0; k < NBUF; k++) wl_buf_free(&s->b[k]);
    free(s);
    return -1;
}

/* the edge loop of thread lanes: returns the per-lane [begin, end) edge ranges */
typedef struct lanes { uint32_t m; int32_t u[32], beg[32], end[32]; } lanes;

/* The edge ranges [beg, end) of the vertices L->u of lanes mact; a, a2 get the addresses of
 * their offset and size. Returns the largest degree (the warp's number of edge iterations). */
static int32_t edge_ranges(const bfs *s, const wl_warp *x, uint32_t mact, lanes *L, uint64_t a[32], uint64_t a2[32])
{
    const int32_t *off = I(s, OFF), *sz = I(s, SIZE);
    int32_t maxn = 0;
    WL_TLANES(x, mact, l, t) {
        a[l] = D(s, OFF) + 4 * (uint64_t)L->u[l];
        a2[l] = D(s, SIZE) + 4 * (uint64_t)L->u[l];
        L->beg[l] = off[L->u[l]];
        L->end[l] = off[L->u[l]] + sz[L->u[l]];
        if (sz[L->u[l]] > maxn) maxn = sz[L->u[l]];
    }
    return maxn;
}

/* Edge iteration `it` of lanes mact: the lanes that still have an edge, with a = &adj[edge],
 * v = its other end, a2 = &arr[v] (the array the kernel checks v in). */
static uint32_t edge_lanes(const bfs *s, const wl_warp *x, uint32_t mact, const lanes *L, int32_t it, int arr,
                           uint64_t a[32], int32_t v[32], uint64_t a2[32])
{
    const int32_t *adj = I(s, ADJ);
    uint32_t m = 0;
    WL_TLANES(x, mact, l, t) {
        if (L->beg[l] + it < L->end[l]) {
            m |= 1u << l;
            a[l] = D(s, ADJ) + 4 * (uint64_t)(L->beg[l] + it);
            v[l] = adj[L->beg[l] + it];
            a2[l] = D(s, arr) + 4 * (uint64_t)v[l];
        }
    }
    return m;
}

/* i: 0 kernel-specific scalar (level / queueSize), 1 current queue, 2 queueSize */
static int k_simple(const wl_kernel *k, uint64_t b, gms_block_trace *out, gms_error *err)
{
    bfs *s = k->st;
    wl_warp W[WL_MAXW];
    uint32_t nw = wl_block_begin(out, TPB, W);
    wl_warps_sh(W, nw, k);
    int32_t level = (int32_t)k->arg[0];
    int32_t *dist = I(s, DIST), *par = I(s, PAR);
    uint64_t a[32], a2[32];
    for (uint32_t w = 0; w < nw; w++) {
        wl_warp *x = &W[w];
        uint8_t ri, c;
        uint32_t min = wl_guard_1d(x, b * TPB, s->nv, &ri, &c), mact = 0;
        lanes L = {0};
        WL_TLANES(x, min, l, t) a[l] = D(s, DIST) + 4 * (b * TPB + t);
        uint8_t dv = wl_ldg_at(x, 0x28, min, 4, a, ri);
        WL_SH_LD(x, min, int32_t, dist[b * TPB + x->t0 + (uint64_t)l]);
        WL_TLANES(x, min, l, t) {
            uint64_t th = b * TPB + t;
            if (dist[th] == level) { mact |= 1u << l; L.u[l] = (int32_t)th; }
        }
        uint8_t p = wl_int_at(x, 0x30, min, dv, GMS_REG_NONE);
        wl_bra_at(x, 0x38, min, p);
        int32_t maxn = edge_ranges(s, x, mact, &L, a, a2);
        uint8_t ro = wl_ldg_at(x, 0x40, mact, 4, a, ri);
        WL_SH_LD(x, mact, int32_t, I(s, OFF)[L.u[l]]);
        uint8_t rs = wl_ldg_at(x, 0x48, mact, 4, a2, ri);
        WL_SH_LD(x, mact, int32_t, I(s, SIZE)[L.u[l]]);
        uint8_t re = wl_int_at(x, 0x50, mact, ro, rs);
        uint32_t mchg = 0;
        for (int32_t it = 0; it < maxn; it++) {
            uint32_t mw = 0;
            int32_t v[32];
            uint32_t m = edge_lanes(s, x, mact, &L, it, DIST, a, v, a2);
            uint8_t ii = wl_int_at(x, 0x58, m, ro, re);
            uint8_t rv = wl_ldg_at(x, 0x60, m, 4, a, ii);
            WL_SH_LD(x, m, int32_t, v[l]);
            uint8_t addr = wl_int_at(x, 0x68, m, rv, GMS_REG_NONE);
            uint8_t rd = wl_ldg_at(x, 0x70, m, 4, a2, addr);
            WL_SH_LD(x, m, int32_t, dist[v[l]]);
            uint8_t cmp = wl_int_at(x, 0x78, m, rd, GMS_REG_NONE);
            wl_bra_at(x, 0x80, m, cmp);
            WL_TLANES(x, m, l, t) {
                if (level + 1 < dist[v[l]]) {
                    mw |= 1u << l;
                    a[l] = D(s, PAR) + 4 * (uint64_t)v[l];
                }
            }
            /* lanes write in lane order; the last writer of a shared v wins, as on hardware */
            WL_TLANES(x, mw, l, t) { dist[v[l]] = level + 1; par[v[l]] = L.beg[l] + it; }
            wl_stg_at(x, 0x88, mw, 4, a2, addr, cmp);
            WL_SH_ST(x, mw, int32_t, level + 1);
            wl_stg_at(x, 0x90, mw, 4, a, addr, ii);
            WL_SH_ST(x, mw, int32_t, L.beg[l] + it);
            mchg |= mw;
            wl_bra_at(x, 0x98, m, ii);
        }
        if (mchg) {
            uint64_t ca[32];
            for (int l = 0; l < 32; l++) ca[l] = D(s, CHANGED);
            wl_stg_at(x, 0xa0, mchg, 4, ca, GMS_REG_NONE, GMS_REG_NONE);
            WL_SH_ST(x, mchg, int32_t, 1);
            I(s, CHANGED)[0] = 1;
        }
        wl_exit_at(x, WL_PC_END, x->live);
    }
    (void)err;
    return 0;
}

/* queueBfs (mode 0), nextLayer (1), countDegrees (2), assignVerticesNextQueue (3) share the
 * shape "u = currentQueue[thid]; for each edge i of u ..." */
static int k_queue(const wl_kernel *k, uint64_t b, gms_block_trace *out, gms_error *err)
{
    bfs *s = k->st;
    int mode = (int)k->arg[3];
    wl_warp W[WL_MAXW];
    uint32_t nw = wl_block_begin(out, TPB, W);
    wl_warps_sh(W, nw, k);
    int32_t level = (int32_t)k->arg[0], qs = (int32_t)k->arg[2];
    int cq = (int)k->arg[1];
    int nq = cq == Q0 ? Q1 : Q0;
    int32_t *dist = I(s, DIST), *par = I(s, PAR);
    int32_t *q = I(s, cq), *nxt = I(s, nq), *deg = I(s, DEG);
    uint64_t a[32], a2[32], a3[32];
    int32_t shared_incr = 0;
    if (mode == 3) {
        /* if (!threadIdx.x) sharedIncrement = incrDegrees[thid >> 10]; __syncthreads() */
        for (uint32_t w = 0; w < nw; w++) {
            wl_warp *x = &W[w];
            uint8_t ri = wl_prologue_idx(x, x->live);
            uint32_t m = 0;
            WL_TLANES(x, x->live, l, t) {
                uint64_t th = b * TPB + t;
                if (th < (uint64_t)qs && t == 0) { m |= 1u; a[l] = D(s, INCR) + 4 * (th >> 10); }
            }
            if (b * TPB + w * 32 < (uint64_t)qs) {
                uint8_t c = wl_int_at(x, 0x18, x->live, ri, GMS_REG_NONE);
                wl_bra_at(x, 0x20, x->live, c);
                uint64_t z[32] = {0};
                uint8_t v = wl_ldg_at(x, 0x28, m, 4, a, ri);
                WL_SH_LD(x, m, int32_t, I(s, INCR)[b]);
                wl_sts_at(x, 0x30, m, 4, z, GMS_REG_NONE, v);
                gms_emit_bar(&x->e, 0x38);
            }
        }
        shared_incr = I(s, INCR)[b];
    }
    for (uint32_t w = 0; w < nw; w++) {
        wl_warp *x = &W[w];
        uint8_t ri = mode == 3 ? wl_int_at(x, 0x40, x->live, GMS_REG_NONE, GMS_REG_NONE) : wl_prologue_idx(x, x->live);
        uint32_t mact = 0;
        lanes L = {0};
        int32_t sum[32] = {0}, counter[32] = {0}, degree[32] = {0};
        WL_TLANES(x, x->live, l, t) {
            uint64_t th = b * TPB + t;
            if (th < (uint64_t)qs) { mact |= 1u << l; a[l] = D(s, cq) + 4 * th; L.u[l] = q[th]; }
        }
        uint8_t c = wl_int_at(x, 0x48, x->live, ri, GMS_REG_NONE);
        wl_bra_at(x, 0x50, x->live, c);
        if (!mact) { wl_exit_at(x, WL_PC_END, x->live); continue; }
        if (mode == 3) {
            uint32_t ms = 0;
            WL_TLANES(x, mact, l, t) if (t) { ms |= 1u << l; a2[l] = D(s, DEG) + 4 * (b * TPB + t - 1); sum[l] = deg[b * TPB + t - 1]; }
            wl_ldg_at(x, 0x58, ms, 4, a2, ri);
            WL_SH_LD(x, ms, int32_t, sum[l]);
            uint64_t z[32] = {0};
            wl_lds_at(x, 0x60, mact, 4, z, GMS_REG_NONE);
        }
        uint8_t ru = wl_ldg_at(x, 0x68, mact, 4, a, ri);
        WL_SH_LD(x, mact, int32_t, L.u[l]);
        int32_t maxn = edge_ranges(s, x, mact, &L, a, a2);
        uint8_t au = wl_int_at(x, 0x70, mact, ru, GMS_REG_NONE);
        uint8_t ro = wl_ldg_at(x, 0x78, mact, 4, a, au);
        WL_SH_LD(x, mact, int32_t, I(s, OFF)[L.u[l]]);
        uint8_t rs = wl_ldg_at(x, 0x80, mact, 4, a2, au);
        WL_SH_LD(x, mact, int32_t, I(s, SIZE)[L.u[l]]);
        uint8_t re = wl_int_at(x, 0x88, mact, ro, rs);
        for (int32_t it = 0; it < maxn; it++) {
            uint32_t mw = 0;
            int32_t v[32];
            uint32_t m = edge_lanes(s, x, mact, &L, it, mode == 0 || mode == 1 ? DIST : PAR, a, v, a2);
            uint8_t ii = wl_int_at(x, 0x90, m, ro, re);
            uint8_t rv = wl_ldg_at(x, 0x98, m, 4, a, ii);
            WL_SH_LD(x, m, int32_t, v[l]);
            uint8_t addr = wl_int_at(x, 0xa0, m, rv, GMS_REG_NONE);
            uint8_t rd = wl_ldg_at(x, 0xa8, m, 4, a2, addr);
            WL_SH_LD(x, m, int32_t, mode == 0 || mode == 1 ? dist[v[l]] : par[v[l]]);
            uint8_t cmp = wl_int_at(x, 0xb0, m, rd, ii);
            wl_bra_at(x, 0xb8, m, cmp);
            if (mode == 0) {
                /* d_distance[v] == INT_MAX && atomicMin(&d_distance[v], level + 1) == INT_MAX */
                uint32_t mt = 0;
                WL_TLANES(x, m, l, t) if (dist[v[l]] == INT_MAX) mt |= 1u << l;
                uint8_t old = wl_atomg_at(x, 0xc0, mt, 4, a2, addr, GMS_REG_NONE);
                /* the shadow does not model atomics: it takes the value they leave, level + 1
                 * (atomicMin on INT_MAX), as stored by each lane */
                WL_SH_ST(x, mt, int32_t, level + 1);
                WL_TLANES(x, mt, l, t) {
                    if (dist[v[l]] == INT_MAX) mw |= 1u << l;
                    if (dist[v[l]] > level + 1) dist[v[l]] = level + 1;
                }
                uint8_t c2 = wl_int_at(x, 0xc8, mt, old, GMS_REG_NONE);
                wl_bra_at(x, 0xd0, mt, c2);
                uint64_t pa[32], na[32];
                int32_t *nqs = I(s, NQS), after[32];
                WL_TLANES(x, mw, l, t) {
                    pa[l] = D(s, PAR) + 4 * (uint64_t)v[l];
                    par[v[l]] = L.beg[l] + it;
                    a3[l] = D(s, NQS);
                    int32_t pos = (*nqs)++;
                    after[l] = pos + 1;
                    nxt[pos] = v[l];
                    na[l] = D(s, nq) + 4 * (uint64_t)pos;
                }
                wl_stg_at(x, 0xd8, mw, 4, pa, addr, ii);
                WL_SH_ST(x, mw, int32_t, L.beg[l] + it);
                uint8_t pos = wl_atomg_at(x, 0xe0, mw, 4, a3, GMS_REG_NONE, GMS_REG_NONE);
                /* atomicAdd(nextQueueSize, 1) in lane order: lane l leaves its position + 1,
                 * the highest lane (written last) the new size */
                WL_SH_ST(x, mw, int32_t, after[l]);
                uint8_t np = wl_int_at(x, 0xe8, mw, pos, GMS_REG_NONE);
                wl_stg_at(x, 0xf0, mw, 4, na, np, rv);
                WL_SH_ST(x, mw, int32_t, v[l]);
            } else if (mode == 1) {
                WL_TLANES(x, m, l, t) if (level + 1 < dist[v[l]]) { mw |= 1u << l; a3[l] = D(s, PAR) + 4 * (uint64_t)v[l]; }
                WL_TLANES(x, mw, l, t) { dist[v[l]] = level + 1; par[v[l]] = L.beg[l] + it; }
                wl_stg_at(x, 0xc0, mw, 4, a2, addr, cmp);
                WL_SH_ST(x, mw, int32_t, level + 1);
                wl_stg_at(x, 0xc8, mw, 4, a3, addr, ii);
                WL_SH_ST(x, mw, int32_t, L.beg[l] + it);
            } else {
                WL_TLANES(x, m, l, t) if (par[v[l]] == L.beg[l] + it && v[l] != L.u[l]) mw |= 1u << l;
                if (mode == 2) {
                    WL_TLANES(x, mw, l, t) degree[l]++;
                    wl_int_at(x, 0xc0, mw, cmp, GMS_REG_NONE);
                } else {
                    uint64_t na[32];
                    WL_TLANES(x, mw, l, t) {
                        int32_t place = shared_incr + sum[l] + counter[l];
                        nxt[place] = v[l];
                        na[l] = D(s, nq) + 4 * (uint64_t)place;
                        counter[l]++;
                    }
                    uint8_t pl = wl_int_at(x, 0xc0, mw, cmp, GMS_REG_NONE);
                    wl_stg_at(x, 0xc8, mw, 4, na, pl, rv);
                    WL_SH_ST(x, mw, int32_t, v[l]);
                }
            }
            wl_bra_at(x, 0xf8, m, ii);
        }
        if (mode == 2) {
            WL_TLANES(x, mact, l, t) { deg[b * TPB + t] = degree[l]; a[l] = D(s, DEG) + 4 * (b * TPB + t); }
            wl_stg_at(x, 0x100, mact, 4, a, ri, GMS_REG_NONE);
            WL_SH_ST(x, mact, int32_t, degree[l]);
        }
        wl_exit_at(x, WL_PC_END, x->live);
    }
    (void)err;
    return 0;
}

/* One warp's part of a scan sweep step of stride ns: the lanes whose thread t is a multiple
 * of ns and whose partner t + ns/2 is in range (sa, sb: the two shared addresses) branch in
 * (IADD at pc, BRA) and load both elements (v). Returns those lanes. */
static uint32_t sweep_pairs(wl_warp *x, uint32_t act, uint64_t b, uint64_t size, int ns, uint32_t pc,
                            uint64_t sa[32], uint64_t sb[32], uint8_t v[2])
{
    uint32_t m = 0;
    WL_TLANES(x, act, l, t) {
        if ((t & (uint32_t)(ns - 1)) == 0 && b * TPB + t + (uint32_t)(ns >> 1) < size) {
            m |= 1u << l;
            sa[l] = 4 * t;
            sb[l] = 4 * (t + (uint32_t)(ns >> 1));
        }
    }
    uint8_t c = wl_int_at(x, pc, act, GMS_REG_NONE, GMS_REG_NONE);
    wl_bra_at(x, pc + 0x8, act, c);
    v[0] = wl_lds_at(x, pc + 0x10, m, 4, sa, GMS_REG_NONE);
    v[1] = wl_lds_at(x, pc + 0x18, m, 4, sb, GMS_REG_NONE);
    return m;
}

/* scanDegrees: block-wide up/down sweep in shared memory; i[2] = size */
static int k_scan(const wl_kernel *k, uint64_t b, gms_block_trace *out, gms_error *err)
{
    bfs *s = k->st;
    wl_warp W[WL_MAXW];
    uint32_t nw = wl_block_begin(out, TPB, W);
    wl_warps_sh(W, nw, k);
    uint64_t size = (uint64_t)k->arg[2];
    int32_t *deg = I(s, DEG), ps[TPB];
    uint64_t a[32], sa[32], sb[32];
    uint32_t act[WL_MAXW];
    uint8_t ri[WL_MAXW];
    uint32_t nact = 0;
    for (uint32_t w = 0; w < nw; w++) {
        wl_warp *x = &W[w];
        uint8_t c;
        act[w] = wl_guard_1d(x, b * TPB, size, &ri[w], &c);
        WL_TLANES(x, act[w], l, t) {
            uint64_t th = b * TPB + t;
            a[l] = D(s, DEG) + 4 * th;
            sa[l] = 4 * t;
            ps[t] = deg[th];
        }
        if (!act[w]) { wl_exit_at(x, WL_PC_END, x->live); continue; }
        nact = w + 1;
        uint8_t v = wl_ldg_at(x, 0x28, act[w], 4, a, ri[w]);
        WL_SH_LD(x, act[w], int32_t, ps[x->t0 + (uint32_t)l]);
        wl_sts_at(x, 0x30, act[w], 4, sa, GMS_REG_NONE, v);
        gms_emit_bar(&x->e, 0x38);
    }
    for (int ns = 2; ns <= TPB; ns <<= 1) {
        for (uint32_t w = 0; w < nact; w++) {
            wl_warp *x = &W[w];
            uint8_t v[2];
            uint32_t m = sweep_pairs(x, act[w], b, size, ns, 0x40, sa, sb, v);
            uint8_t sum = wl_int_at(x, 0x60, m, v[0], v[1]);
            wl_sts_at(x, 0x68, m, 4, sa, GMS_REG_NONE, sum);
            gms_emit_bar(&x->e, 0x70);
        }
        for (uint32_t t = 0; t < TPB; t += (uint32_t)ns)
            if (b * TPB + t + (uint32_t)(ns >> 1) < size) ps[t] += ps[t + (uint32_t)(ns >> 1)];
    }
    /* if (modulo == 0) incrDegrees[block + 1] = prefixSum[0] */
    {
        wl_warp *x = &W[0];
        uint64_t z[32] = {0};
        a[0] = D(s, INCR) + 4 * (b + 1);
        uint8_t v = wl_lds_at(x, 0x78, 1u, 4, z, GMS_REG_NONE);
        wl_stg_at(x, 0x80, 1u, 4, a, ri[0], v);
        WL_SH_ST(x, 1u, int32_t, ps[0]);
        I(s, INCR)[b + 1] = ps[0];
    }
    for (int ns = TPB; ns > 1; ns >>= 1) {
        for (uint32_t w = 0; w < nact; w++) {
            wl_warp *x = &W[w];
            uint8_t v[2];
            uint32_t m = sweep_pairs(x, act[w], b, size, ns, 0x88, sa, sb, v);
            uint8_t d = wl_int_at(x, 0xa8, m, v[0], v[1]);
            wl_sts_at(x, 0xb0, m, 4, sa, GMS_REG_NONE, d);
            wl_sts_at(x, 0xb8, m, 4, sb, GMS_REG_NONE, v[0]);
            gms_emit_bar(&x->e, 0xc0);
        }
        for (uint32_t t = 0; t < TPB; t += (uint32_t)ns)
            if (b * TPB + t + (uint32_t)(ns >> 1) < size) {
                int32_t tmp = ps[t];
                ps[t] -= ps[t + (uint32_t)(ns >> 1)];
                ps[t + (uint32_t)(ns >> 1)] = tmp;
            }
    }
    for (uint32_t w = 0; w < nact; w++) {
        wl_warp *x = &W[w];
        WL_TLANES(x, act[w], l, t) {
            sa[l] = 4 * t;
            a[l] = D(s, DEG) + 4 * (b * TPB + t);
            deg[b * TPB + t] = ps[t];
        }
        uint8_t v = wl_lds_at(x, 0xc8, act[w], 4, sa, GMS_REG_NONE);
        wl_stg_at(x, 0xd0, act[w], 4, a, ri[w], v);
        WL_SH_ST(x, act[w], int32_t, ps[x->t0 + (uint32_t)l]);
        wl_exit_at(x, WL_PC_END, x->live);
    }
    (void)err;
    return 0;
}

/* The host's accesses to device and pinned memory: in a functional verify run, through the
 * shadow (what the kernels left there; what the kernels will find) */
static void host_read(bfs *s, int k, uint64_t bytes)
{
    if (wl_shadow_active(s->sh)) wl_shadow_read(s->sh, D(s, k), s->b[k].h, bytes);
}

static void host_write(gms_program *p, bfs *s, int k, uint64_t bytes)
{
    wl_sh_init(p, D(s, k), s->b[k].h, bytes);
}

static void init_bfs(bfs *s, gms_program *p)
{
    for (uint64_t v = 0; v < s->nv; v++) I(s, DIST)[v] = I(s, PAR)[v] = INT_MAX;
    I(s, DIST)[s->start] = 0;
    I(s, PAR)[s->start] = 0;
    I(s, Q0)[0] = s->start;
    s->cur = Q0;
    s->level = 0;
    gms_prog_copy_h2d(p, D(s, DIST), 4 * s->nv);
    gms_prog_copy_h2d(p, D(s, PAR), 4 * s->nv);
    gms_prog_copy_h2d(p, D(s, Q0), 4);
    host_write(p, s, DIST, 4 * s->nv);
    host_write(p, s, PAR, 4 * s->nv);
    host_write(p, s, Q0, 4);
}

static void check(bfs *s, const char *version)
{
    if (s->bad[0]) return;
    host_read(s, DIST, 4 * s->nv);   /* the D2H copy */
    for (uint64_t v = 0; v < s->nv; v++)
        if (I(s, DIST)[v] != s->ref[v]) {
            snprintf(s->bad, sizeof s->bad, "workload bfs (%s): distance[%llu] = %d, reference %d", version,
                     (unsigned long long)v, I(s, DIST)[v], s->ref[v]);
            return;
        }
}

static uint32_t nblk(int64_t n) { return (uint32_t)(n / TPB + 1); }

static int next(void *st, gms_program *p, gms_error *err)
{
    bfs *s = st;
    wl_kernel k = {.st = s, .block = {TPB, 1, 1}};
    s->sh = p->shadow;
    switch (s->phase) {
    case 0:
        for (int i = 0; i < NBUF; i++) {
            if (i == CHANGED || i == NQS || i == INCR)   /* cudaMallocHost: pinned host memory */
                s->b[i].d = gms_prog_alloc_kind(p, s->b[i].bytes, 0, bufname[i]);
            else
                wl_buf_alloc(p, &s->b[i], bufname[i], i <= SIZE);
        }
        init_bfs(s, p);
        I(s, CHANGED)[0] = 1;
        host_write(p, s, CHANGED, 4);
        s->phase = 1;
        /* fall through */
    case 1:   /* simple: while (*changed) */
        host_read(s, CHANGED, 4);
        if (I(s, CHANGED)[0]) {
            I(s, CHANGED)[0] = 0;
            host_write(p, s, CHANGED, 4);
            k.fill = k_simple;
            k.grid = (gms_dim3){nblk((int64_t)s->nv), 1, 1};
            k.arg[0] = s->level++;
            wl_launch_k(p, "simpleBfs", &k, 32, 0);
            gms_prog_sync(p);
            return 1;
        }
        gms_prog_copy_d2h(p, D(s, DIST), 4 * s->nv);
        gms_prog_copy_d2h(p, D(s, PAR), 4 * s->nv);
        check(s, "simple");
        init_bfs(s, p);
        s->qsize = 1;
        I(s, NQS)[0] = 0;
        host_write(p, s, NQS, 4);
        s->phase = 2;
        /* fall through */
    case 2:   /* queue: while (queueSize) */
        if (s->qsize) {
            k.fill = k_queue;
            k.grid = (gms_dim3){nblk(s->qsize), 1, 1};
            k.arg[0] = s->level;
            k.arg[1] = s->cur;
            k.arg[2] = s->qsize;
            k.arg[3] = 0;
            wl_launch_k(p, "queueBfs", &k, 32, 0);
            gms_prog_sync(p);
            s->phase = 3;
            return 1;
        }
        gms_prog_copy_d2h(p, D(s, DIST), 4 * s->nv);
        check(s, "queue");
        init_bfs(s, p);
        s->qsize = 1;
        s->phase = 4;
        return next(st, p, err);
    case 3:
        s->level++;
        host_read(s, NQS, 4);
        s->qsize = I(s, NQS)[0];
        I(s, NQS)[0] = 0;
        host_write(p, s, NQS, 4);
        s->cur = s->cur == Q0 ? Q1 : Q0;
        s->phase = 2;
        return next(st, p, err);
    case 4:   /* scan: while (queueSize) { nextLayer; countDegrees; scanDegrees } */
        if (!s->qsize) {
            gms_prog_copy_d2h(p, D(s, DIST), 4 * s->nv);
            check(s, "scan");
            s->phase = 6;
            if (s->rep + 1 < s->repeat) {
                /* the next repetition starts over with the simple version, from the same
                 * host-side initialisation as the first */
                s->rep++;
                init_bfs(s, p);
                I(s, CHANGED)[0] = 1;
                host_write(p, s, CHANGED, 4);
                s->phase = 1;
            }
            return 1;
        }
        k.grid = (gms_dim3){nblk(s->qsize), 1, 1};
        k.arg[0] = s->level;
        k.arg[1] = s->cur;
        k.arg[2] = s->qsize;
        k.fill = k_queue;
        k.arg[3] = 1;
        wl_launch_k(p, "nextLayer", &k, 32, 0);
        gms_prog_sync(p);
        k.arg[3] = 2;
        wl_launch_k(p, "countDegrees", &k, 32, 0);
        gms_prog_sync(p);
        k.fill = k_scan;
        wl_launch_k(p, "scanDegrees", &k, 32, 4 * TPB);
        gms_prog_sync(p);
        s->phase = 5;
        return 1;
    case 5: {  /* host prefix over block sums, then assignVerticesNextQueue */
        int32_t *incr = I(s, INCR);
        host_read(s, INCR, s->b[INCR].bytes);   /* scanDegrees' block sums */
        incr[0] = 0;
        for (int64_t i = TPB; i < (int64_t)s->qsize + TPB; i += TPB) incr[i / TPB] += incr[i / TPB - 1];
        host_write(p, s, INCR, s->b[INCR].bytes);
        s->nqsize = incr[(s->qsize - 1) / TPB + 1];
        k.grid = (gms_dim3){nblk(s->qsize), 1, 1};
        k.arg[0] = s->level;
        k.arg[1] = s->cur;
        k.arg[2] = s->qsize;
        k.arg[3] = 3;
        k.fill = k_queue;
        wl_launch_k(p, "assignVerticesNextQueue", &k, 32, 4);
        gms_prog_sync(p);
        s->level++;
        s->qsize = s->nqsize;
        s->cur = s->cur == Q0 ? Q1 : Q0;
        s->phase = 4;
        return 1;
    }
    default:
        return 0;
    }
}

static int verify(void *st, gms_error *err)
{
    bfs *s = st;
    if (s->bad[0]) return gms_err(err, "%s", s->bad);
    if (s->phase != 6) return gms_err(err, "workload bfs: the program did not finish");
    return 0;
}

static void destroy(void *st)
{
    bfs *s = st;
    if (!s) return;
    for (int k = 0; k < NBUF; k++) wl_buf_free(&s->b[k]);
    free(s->ref);
    free(s);
}

const gms_workload_ops gms_wl_bfs = {
    .name = "bfs", .suite = "rodinia", .domain = "graph theory", .ri = "I",
    .summary = "BFS: simple, queue and scan breadth-first search on a random or given graph (6 kernels)",
    .params = params, .create = create, .next = next, .verify = verify, .destroy = destroy,
    .footprint = footprint,
};
