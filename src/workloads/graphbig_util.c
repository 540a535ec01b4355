/* The GraphBIG workloads' shared driver and kernel helpers (graphbig_util.h) */
#include "workloads/graphbig_util.h"
#include "workloads/wl_clamp.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ graph and sizes */

/* generated graph: vertices, undirected edges (scaled, clamped); 0 = a file */
static int gen_sizes(const gms_wl_args *a, const char *wl, uint64_t *nv, uint64_t *ne, gms_error *err)
{
    if (wl_clamp_size(a, wl, "vertices", 2, 1ULL << 30, nv, err)) return -1;
    uint64_t deg = gms_wl_u64(a, "degree");
    if (deg) {
        if (deg > 1024) return gms_err(err, "workload %s: degree=%llu is above 1024", wl, (unsigned long long)deg);
        *ne = *nv * deg / 2;
        if (!*ne) *ne = 1;
        gms_wl_note_size(a, "edges", *ne, *ne);
        return 0;
    }
    return wl_clamp_size(a, wl, "edges", 1, 1ULL << 32, ne, err);
}

static int graph_kind(const gms_wl_args *a)
{
    const char *g = gms_wl_str(a, "graph");
    if (!*g || !strcmp(g, "rmat")) return GMS_GRAPH_RMAT;
    if (!strcmp(g, "uniform")) return GMS_GRAPH_UNIFORM;
    return -1;
}

static int build_graph(const char *wl, const gms_wl_args *a, gms_graph *g, gms_error *err)
{
    int kind = graph_kind(a);
    if (gms_wl_check_range(a, "undirected", 0, 1, err)) return -1;
    if (kind < 0) {
        if (gms_graph_read(g, gms_wl_str(a, "graph"), (int)gms_wl_u64(a, "undirected"), err)) return -1;
        return 0;
    }
    uint64_t nv, ne;
    if (gen_sizes(a, wl, &nv, &ne, err)) return -1;
    gms_graph_generate(g, kind, nv, ne, gms_wl_seed(a));
    return 0;
}

static uint64_t buf_bytes(const gb_algo *al, int k, uint64_t nv, uint64_t ne, const gms_wl_args *a)
{
    if (k == GB_VL) return 8 * (nv + 1);
    if (k == GB_DL) return 8 * nv;
    if (k == GB_EL) return 8 * ne;
    return al->bytes(k - GB_FIRST, nv, ne, a);
}

uint64_t gb_footprint(const gb_algo *al, const gms_wl_args *a)
{
    uint64_t nv, ne;
    gms_error e;
    if (graph_kind(a) < 0) {
        gms_graph g;
        if (gms_graph_read(&g, gms_wl_str(a, "graph"), (int)gms_wl_u64(a, "undirected"), &e)) return 0;
        nv = g.nv;
        ne = g.ne;
        gms_graph_free(&g);
    } else {
        if (gen_sizes(a, al->name, &nv, &ne, &e)) return 0;
        ne *= 2;
    }
    uint64_t t = 0;
    for (int k = 0; k < GB_FIRST + al->nbuf; k++) t += buf_bytes(al, k, nv, ne, a);
    return t;
}

int gb_create(const gb_algo *al, const gms_wl_args *a, void **out, gms_error *err)
{
    gb *s = gms_xcalloc(1, sizeof *s);
    s->al = al;
    if (build_graph(al->name, a, &s->g, err)) goto fail;
    if (s->g.ne >= (1ULL << 32)) {
        gms_err(err, "workload %s: the graph has %llu edge entries, above 2^32", al->name, (unsigned long long)s->g.ne);
        goto fail;
    }
    const char *r = gms_wl_str(a, "root");   /* empty: the busiest vertex */
    if (*r) {
        s->root = gms_wl_u64(a, "root");   /* not a whole number: gms_wl_args_check says so */
        if (s->root >= s->g.nv) {   /* a value that is no whole number has its own message */
            if (gms_wl_args_check(a, err) == 0)
                gms_err(err, "workload %s: root=%s is not a vertex (the graph has %llu)", al->name, r,
                        (unsigned long long)s->g.nv);
            goto fail;
        }
    } else {
        s->root = gms_graph_max_degree_vertex(&s->g);
    }
    if (wl_param(a, "repeat", 1, 1000000, &s->repeat, err)) goto fail;
    /* GraphBIG: min(vertex_cnt, maxThreadsPerBlock); rounded up to whole warps here, since
       the warp-centric kernels' warp_id = tid / 32 would otherwise split a hardware warp
       between two vertex chunks (only graphs under 1024 vertices are affected) */
    s->tpb = s->g.nv < 1024 ? (uint32_t)((s->g.nv + 31) / 32 * 32) : 1024;
    for (int k = 0; k < GB_FIRST + al->nbuf; k++) wl_buf_new(&s->b[k], buf_bytes(al, k, s->g.nv, s->g.ne, a));
    memcpy(s->b[GB_VL].h, s->g.off, 8 * (s->g.nv + 1));
    for (uint64_t v = 0; v < s->g.nv; v++) GB_U64(s, GB_DL)[v] = s->g.off[v + 1] - s->g.off[v];
    memcpy(s->b[GB_EL].h, s->g.adj, 8 * s->g.ne);
    if (al->setup(s, a, err)) goto fail;
    *out = s;
    return 0;
fail:
    gb_destroy(s);
    return -1;
}

int gb_next(void *st, gms_program *p, gms_error *err)
{
    gb *s = st;
    s->sh = p->shadow;
    if (s->done) return 0;
    if (!s->allocated) {
        static const char *const gname[GB_FIRST] = {"vertexlist", "degreelist", "edgelist"};
        for (int k = 0; k < GB_FIRST + s->al->nbuf; k++)
            wl_buf_alloc(p, &s->b[k], k < GB_FIRST ? gname[k] : s->al->bufname[k - GB_FIRST], k < GB_FIRST);
        s->allocated = 1;
        s->phase = 0;
    }
    int r = s->al->run(s, p, err);
    if (r < 0) return -1;
    if (r) return 1;
    s->al->check(s);
    s->rep++;
    s->phase = 0;
    if (s->rep == s->repeat) {
        s->done = 1;
        return 0;
    }
    return gb_next(st, p, err);
}

int gb_verify(void *st, gms_error *err)
{
    gb *s = st;
    if (s->bad[0]) return gms_err(err, "%s", s->bad);
    if (!s->done) return gms_err(err, "workload %s: the program did not finish", s->al->name);
    return 0;
}

void gb_destroy(void *st)
{
    gb *s = st;
    if (!s) return;
    if (s->al && s->al->destroy) s->al->destroy(s);
    for (int k = 0; k < GB_MAXBUF; k++) wl_buf_free(&s->b[k]);
    gms_graph_free(&s->g);
    free(s);
}

/* ------------------------------------------------------------ host side */

void gb_host_read(gb *s, int k, uint64_t off, uint64_t bytes)
{
    if (wl_shadow_active(s->sh)) wl_shadow_read(s->sh, s->b[k].d + off, (char *)s->b[k].h + off, bytes);
}

void gb_h2d(gms_program *p, gb *s, int k, uint64_t off, uint64_t bytes)
{
    gms_prog_copy_h2d(p, s->b[k].d + off, bytes);
    wl_sh_init(p, s->b[k].d + off, (char *)s->b[k].h + off, bytes);
}

void gb_d2h(gms_program *p, gb *s, int k, uint64_t off, uint64_t bytes)
{
    gms_prog_copy_d2h(p, s->b[k].d + off, bytes);
}

uint32_t gb_blocks(const gb *s, uint64_t n) { return (uint32_t)((n + s->tpb - 1) / s->tpb); }

void gb_launch(gms_program *p, gb *s, const char *name, wl_step_fn step, uint32_t blocks, const int64_t *i, int ni)
{
    gb_launch_tpb(p, s, name, step, blocks, s->tpb, i, ni);
}

void gb_launch_tpb(gms_program *p, gb *s, const char *name, wl_step_fn step, uint32_t blocks, uint32_t tpb,
                   const int64_t *i, int ni)
{
    wl_kernel k = {.st = s, .step = step, .wsize = sizeof(gb_w), .grid = {blocks ? blocks : 1, 1, 1},
                   .block = {tpb, 1, 1}};
    for (int j = 0; j < ni && j < 8; j++) k.arg[j] = i[j];
    wl_launch_k(p, name, &k, 32, 0);
}

void gb_mismatch(gb *s, const char *what, uint64_t i, double got, double want)
{
    if (!s->bad[0])
        snprintf(s->bad, sizeof s->bad, "workload %s: %s[%llu] = %.9g, reference %.9g", s->al->name, what,
                 (unsigned long long)i, got, want);
}

/* ------------------------------------------------------------ kernels */

uint32_t gb_tid(gb_w *w, uint32_t tpb, uint64_t n)
{
    wl_warp *x = &w->ws.w;
    uint8_t c;
    uint64_t first = w->ws.block * tpb;
    uint32_t m = wl_guard_1d(x, first, n, &w->ri, &c);
    WL_TLANES(x, m, l, t) w->v[l] = first + t;
    return m;
}

uint32_t gb_tid_ld(gb *s, gb_w *w, int k, int elem)
{
    wl_warp *x = &w->ws.w;
    uint32_t m = gb_tid(w, s->tpb, s->g.nv);
    uint8_t r = gb_ld(s, w, 0x30, m, k, elem, w->v, w->ri);
    wl_bra_at(x, 0x40, m, wl_int_at(x, 0x38, m, r, GMS_REG_NONE));
    return m;
}

uint32_t gb_tid_flag(gb *s, gb_w *w, int k)
{
    wl_warp *x = &w->ws.w;
    uint32_t m = gb_tid_ld(s, w, k, 1), f = 0;
    WL_TLANES(x, m, l, t) if (GB_U8(s, k)[w->v[l]]) f |= 1u << l;
    return f;
}

int gb_warp_chunk(gb_w *w, uint64_t n, uint32_t tpb)
{
    wl_warp *x = &w->ws.w;
    uint8_t c;
    /* warp_id = tid / 32 over the grid; v1 = warp_id * CHUNK_SZ */
    uint64_t warp = (w->ws.block * tpb + x->t0) / 32;
    w->ri = wl_prologue_idx(x, x->live);
    uint8_t r = wl_int_at(x, 0x18, x->live, w->ri, GMS_REG_NONE);   /* lane_id, warp_id, v1 */
    c = wl_int_at(x, 0x20, x->live, r, GMS_REG_NONE);                /* v1 + CHUNK_SZ > vertex_cnt ? */
    wl_bra_at(x, 0x28, x->live, c);
    w->vi = warp * 32;
    w->vend = w->vi + 32 < n ? w->vi + 32 : n;
    w->act = x->live;
    return w->vi < n;
}

static uint8_t ld_(gb *s, gb_w *w, uint32_t pc, uint32_t m, int k, int elem, const uint64_t idx[32], uint8_t areg)
{
    wl_warp *x = &w->ws.w;
    uint64_t a[32];
    if (!m) return GMS_REG_NONE;
    WL_TLANES(x, m, l, t) a[l] = s->b[k].d + (uint64_t)elem * idx[l];
    uint8_t r = wl_ldg_at(x, pc, m, (uint8_t)elem, a, areg);
    if (elem == 1) WL_SH_LD(x, m, uint8_t, ((uint8_t *)s->b[k].h)[idx[l]]);
    else if (elem == 4) WL_SH_LD(x, m, uint32_t, ((uint32_t *)s->b[k].h)[idx[l]]);
    else WL_SH_LD(x, m, uint64_t, ((uint64_t *)s->b[k].h)[idx[l]]);
    return r;
}

uint8_t gb_ld(gb *s, gb_w *w, uint32_t pc, uint32_t m, int k, int elem, const uint64_t idx[32], uint8_t areg)
{
    return ld_(s, w, pc, m, k, elem, idx, areg);
}

uint8_t gb_ld1(gb *s, gb_w *w, uint32_t pc, uint32_t m, int k, int elem, uint64_t idx, uint8_t areg)
{
    uint64_t ix[32];
    for (int l = 0; l < 32; l++) ix[l] = idx;
    return ld_(s, w, pc, m, k, elem, ix, areg);
}

static void put(gb *s, int k, int elem, uint64_t i, uint64_t v)
{
    if (elem == 1) ((uint8_t *)s->b[k].h)[i] = (uint8_t)v;
    else if (elem == 4) ((uint32_t *)s->b[k].h)[i] = (uint32_t)v;
    else ((uint64_t *)s->b[k].h)[i] = v;
}

void gb_st(gb *s, gb_w *w, uint32_t pc, uint32_t m, int k, int elem, const uint64_t idx[32], const uint64_t val[32],
           uint8_t areg, uint8_t dreg)
{
    wl_warp *x = &w->ws.w;
    uint64_t a[32];
    if (!m) return;
    WL_TLANES(x, m, l, t) {
        a[l] = s->b[k].d + (uint64_t)elem * idx[l];
        put(s, k, elem, idx[l], val[l]);
    }
    wl_stg_at(x, pc, m, (uint8_t)elem, a, areg, dreg);
    if (elem == 1) WL_SH_ST(x, m, uint8_t, val[l]);
    else if (elem == 4) WL_SH_ST(x, m, uint32_t, val[l]);
    else WL_SH_ST(x, m, uint64_t, val[l]);
}

void gb_st1(gb *s, gb_w *w, uint32_t pc, uint32_t m, int k, int elem, uint64_t idx, uint64_t val, uint8_t areg)
{
    uint64_t ix[32], v[32];
    for (int l = 0; l < 32; l++) { ix[l] = idx; v[l] = val; }
    gb_st(s, w, pc, m, k, elem, ix, v, areg, GMS_REG_NONE);
}

uint8_t gb_atom(gb *s, gb_w *w, uint32_t pc, uint32_t m, int k, const uint64_t idx[32], uint8_t areg, uint8_t dreg)
{
    wl_warp *x = &w->ws.w;
    uint64_t a[32];
    if (!m) return GMS_REG_NONE;
    WL_TLANES(x, m, l, t) a[l] = s->b[k].d + 4 * idx[l];
    uint8_t r = wl_atomg_at(x, pc, m, 4, a, areg, dreg);
    /* the shadow does not model atomics: every lane leaves the value the whole instruction
       leaves at its address (the caller applied all lanes' updates to the host copy) */
    WL_SH_ST(x, m, uint32_t, ((uint32_t *)s->b[k].h)[idx[l]]);
    return r;
}

uint64_t gb_ranges(gb *s, gb_w *w, uint32_t pc, uint32_t m)
{
    wl_warp *x = &w->ws.w;
    uint64_t i1[32], maxn = 0;
    const uint64_t *off = GB_U64(s, GB_VL);
    if (!m) return 0;
    WL_TLANES(x, m, l, t) {
        i1[l] = w->v[l] + 1;
        w->beg[l] = off[w->v[l]];
        w->end[l] = off[w->v[l] + 1];
        if (w->end[l] - w->beg[l] > maxn) maxn = w->end[l] - w->beg[l];
    }
    w->r1 = gb_ld(s, w, pc, m, GB_VL, 8, w->v, w->ri);
    w->r2 = gb_ld(s, w, pc + 8, m, GB_VL, 8, i1, w->ri);
    return maxn;
}

/* edge iteration w->it of lanes m: thread-centric, lane l takes edge beg[l] + it; warp-
   centric (warp = 1), edge beg[l] + it*32 + l */
static uint32_t edge_step(gb *s, gb_w *w, uint32_t pc, uint32_t m, uint64_t dst[32], int warp)
{
    wl_warp *x = &w->ws.w;
    uint64_t idx[32];
    uint32_t me = 0;
    WL_TLANES(x, m, l, t) {
        uint64_t e = warp ? w->beg[l] + w->it * 32 + (uint64_t)l : w->beg[l] + w->it;
        if (e < w->end[l]) {
            me |= 1u << l;
            idx[l] = e;
            dst[l] = GB_U64(s, GB_EL)[e];
        }
    }
    uint8_t c = wl_int_at(x, pc, m, w->r1, w->r2);   /* ISETP i < end */
    wl_bra_at(x, pc + 8, m, c);
    w->r3 = gb_ld(s, w, pc + 16, me, GB_EL, 8, idx, w->r1);
    return me;
}

uint32_t gb_edge(gb *s, gb_w *w, uint32_t pc, uint32_t m, uint64_t dst[32]) { return edge_step(s, w, pc, m, dst, 0); }

uint32_t gb_wedge(gb *s, gb_w *w, uint32_t pc, uint32_t m, uint64_t dst[32]) { return edge_step(s, w, pc, m, dst, 1); }

/* initialize: for tid < vertex_cnt, array j = value j for the i[0] arrays whose ids are the
   4-bit fields of i[1] and whose values are i[2 + j] (element size from the array's bytes
   per vertex) */
static int k_init(const wl_kernel *k, wl_wgen *ws, gms_error *err)
{
    gb *s = GB_S(k);
    gb_w *w = (gb_w *)ws;
    wl_warp *x = &ws->w;
    WL_GEN_BEGIN(&ws->g)
    uint32_t m = gb_tid(w, s->tpb, s->g.nv);
    for (int j = 0; j < k->arg[0]; j++) {
        int b = (int)(k->arg[1] >> (4 * j) & 15);
        uint64_t val[32];
        for (int l = 0; l < 32; l++) val[l] = (uint64_t)k->arg[2 + j];
        gb_st(s, w, 0x30 + 8 * (uint32_t)j, m, b, (int)(s->b[b].bytes / s->g.nv), w->v, val, w->ri, GMS_REG_NONE);
    }
    wl_exit_at(x, WL_PC_END, x->live);
    WL_GEN_END(&ws->g);
    (void)err;
}

void gb_init_kernel(gms_program *p, gb *s, int n, const int *bufs, const int64_t *vals)
{
    int64_t i[8] = {n};
    for (int j = 0; j < n && j < 6; j++) { i[1] |= (int64_t)bufs[j] << (4 * j); i[2 + j] = vals[j]; }
    gb_launch(p, s, "initialize", k_init, gb_blocks(s, s->g.nv), i, 8);
}

void gb_init_inf(gms_program *p, gb *s, int k)
{
    int bufs[1] = {k};
    int64_t vals[1] = {GB_INF};
    gb_init_kernel(p, s, 1, bufs, vals);
}

uint32_t gb_worklist_turn(gms_program *p, gb *s, int in, int out)
{
    gb_host_read(s, in + 1, 0, 4);   /* the D2H of the new in-list's end */
    uint32_t n = GB_U32(s, in + 1)[0];
    GB_U32(s, out + 1)[0] = 0;       /* out_worklist->clear() */
    gb_h2d(p, s, out + 1, 0, 4);
    if (!n) gb_d2h(p, s, GB_FIRST, 0, 4 * s->g.nv);
    return n;
}

uint32_t gb_worklist_tpb(uint32_t n) { return n < 1024 ? (n + 31) / 32 * 32 : 1024; }

void gb_ref_bfs(const gms_graph *g, uint64_t root, uint32_t *lev)
{
    uint64_t *q = gms_xmalloc(8 * g->nv), h = 0, t = 0;
    for (uint64_t v = 0; v < g->nv; v++) lev[v] = GB_INF;
    lev[root] = 0;
    q[t++] = root;
    while (h < t) {
        uint64_t u = q[h++];
        for (uint64_t e = g->off[u]; e < g->off[u + 1]; e++)
            if (lev[g->adj[e]] == GB_INF) { lev[g->adj[e]] = lev[u] + 1; q[t++] = g->adj[e]; }
    }
    free(q);
}

void gb_check_u32(gb *s, int k, const char *what, const uint32_t *ref)
{
    if (s->bad[0]) return;
    gb_host_read(s, k, 0, 4 * s->g.nv);
    const uint32_t *got = GB_U32(s, k);
    for (uint64_t v = 0; v < s->g.nv; v++)
        if (got[v] != ref[v]) { gb_mismatch(s, what, v, got[v], ref[v]); return; }
}

/* the "do { *changed = false; kernels; } while (*changed)" loop's flag: 1-byte array k */
int gb_flag_read(gb *s, int k)
{
    gb_host_read(s, k, 0, 1);
    return GB_U8(s, k)[0] != 0;
}

void gb_flag_set(gms_program *p, gb *s, int k, int v)
{
    GB_U8(s, k)[0] = (uint8_t)v;
    gb_h2d(p, s, k, 0, 1);
}
