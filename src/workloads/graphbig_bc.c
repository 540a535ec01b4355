/* BC (GraphBIG gpu_BetweennessCentr, betweenness.cu; after Sariyuce et al.): betweenness
 * centrality, topology-driven, thread-centric (Brandes). For each source root: kernel_init
 * (dist = INF, sigma = delta = 0; the root 0 and 1); kernel_forward_phase per level (a
 * thread per vertex at level curr: unvisited neighbours get curr + 1 and `over` is cleared;
 * neighbours at curr + 1 get atomicAdd(&sigma[w], sigma[u])); kernel_backward_phase from the
 * deepest level up (a vertex at curr - 1 sums sigma[u] / sigma[w] * (1 + delta[w]) over its
 * neighbours at curr, in double, into a float); kernel_backsum_phase: BC[v] += delta[v].
 * GraphBIG takes every vertex as a root (root = 0 .. vertex_cnt-1); here `sources` = N takes
 * the N vertices from `root` on (root, root+1, ... modulo the vertex count; root defaults to
 * the vertex with the most edges, so one source already traverses the graph's main part). */
#include "workloads/graphbig_util.h"
#include <stdlib.h>
#include <string.h>

enum { BCV = GB_FIRST, DELTA, DIST, SIGMA, OVER };
static const char *const names[] = {"BC", "delta", "dist", "sigma", "over"};

typedef struct bc_x { float *ref; uint64_t sources; } bc_x;

static uint64_t bytes(int i, uint64_t nv, uint64_t ne, const gms_wl_args *a)
{
    (void)ne;
    (void)a;
    return i < 4 ? 4 * nv : 1;
}

static int setup(gb *s, const gms_wl_args *a, gms_error *err)
{
    bc_x *x = gms_xcalloc(1, sizeof *x);
    s->x = x;
    if (wl_param(a, "sources", 1, 1u << 30, &x->sources, err)) return -1;
    if (x->sources > s->g.nv)
        return gms_err(err, "workload gb-bc: sources=%llu is more than the graph's %llu vertices",
                       (unsigned long long)x->sources, (unsigned long long)s->g.nv);
    const gms_graph *g = &s->g;
    uint64_t n = g->nv;
    float *bc = gms_xcalloc(n ? n : 1, 4), *delta = gms_xmalloc(4 * n);
    uint32_t *dist = gms_xmalloc(4 * n), *sigma = gms_xmalloc(4 * n);
    for (uint64_t src = 0; src < x->sources; src++) {
        uint64_t root = (s->root + src) % n;
        gb_ref_bfs(g, root, dist);
        uint32_t maxl = 0;
        for (uint64_t v = 0; v < n; v++) {
            sigma[v] = v == root;
            delta[v] = 0;
            if (dist[v] != GB_INF && dist[v] > maxl) maxl = dist[v];
        }
        /* sigma level by level, each u's edges in order (the atomicAdds commute) */
        for (uint32_t c = 0; c < maxl; c++)
            for (uint64_t u = 0; u < n; u++)
                if (dist[u] == c)
                    for (uint64_t e = g->off[u]; e < g->off[u + 1]; e++)
                        if (dist[g->adj[e]] == c + 1) sigma[g->adj[e]] += sigma[u];
        for (uint32_t c = maxl; c >= 1; c--)
            for (uint64_t u = 0; u < n; u++) {
                if (dist[u] != c - 1) continue;
                float sum = 0;
                for (uint64_t e = g->off[u]; e < g->off[u + 1]; e++) {
                    uint64_t w = g->adj[e];
                    if (dist[w] == c) sum += 1.0 * sigma[u] / sigma[w] * (1.0 + delta[w]);
                }
                delta[u] += sum;
            }
        for (uint64_t v = 0; v < n; v++)
            if (v != root && dist[v] != GB_INF) bc[v] += delta[v];
    }
    free(delta);
    free(dist);
    free(sigma);
    x->ref = bc;
    return 0;
}

/* kernel_init: i[0] = root */
static int k_init(const wl_kernel *k, wl_wgen *ws, gms_error *err)
{
    gb *s = GB_S(k);
    gb_w *w = (gb_w *)ws;
    wl_warp *x = &ws->w;
    uint64_t val[32], root = (uint64_t)k->arg[0];
    WL_GEN_BEGIN(&ws->g)
    uint32_t m = gb_tid(w, s->tpb, s->g.nv), mr = 0;
    WL_TLANES(x, m, l, t) { val[l] = GB_INF; if (w->v[l] == root) mr |= 1u << l; }
    gb_st(s, w, 0x30, m, DIST, 4, w->v, val, w->ri, GMS_REG_NONE);
    WL_TLANES(x, m, l, t) val[l] = 0;
    gb_st(s, w, 0x38, m, SIGMA, 4, w->v, val, w->ri, GMS_REG_NONE);
    gb_st(s, w, 0x40, m, DELTA, 4, w->v, val, w->ri, GMS_REG_NONE);
    wl_bra_at(x, 0x48, m, wl_int_at(x, 0x44, m, w->ri, GMS_REG_NONE));
    gb_st1(s, w, 0x50, mr, DIST, 4, root, 0, w->ri);
    gb_st1(s, w, 0x58, mr, SIGMA, 4, root, 1, w->ri);
    wl_exit_at(x, WL_PC_END, x->live);
    WL_GEN_END(&ws->g);
    (void)err;
}

/* the lanes whose vertex's dist is `lev` (LDG dist[tid], ISETP, BRA) */
static uint32_t at_level(gb *s, gb_w *w, uint32_t m, uint32_t lev)
{
    wl_warp *x = &w->ws.w;
    uint32_t r = 0;
    uint8_t d = gb_ld(s, w, 0x30, m, DIST, 4, w->v, w->ri);
    wl_bra_at(x, 0x40, m, wl_int_at(x, 0x38, m, d, GMS_REG_NONE));
    WL_TLANES(x, m, l, t) if (GB_U32(s, DIST)[w->v[l]] == lev) r |= 1u << l;
    return r;
}

/* kernel_forward_phase: i[0] = curr */
static int k_fwd(const wl_kernel *k, wl_wgen *ws, gms_error *err)
{
    gb *s = GB_S(k);
    gb_w *w = (gb_w *)ws;
    wl_warp *x = &ws->w;
    uint32_t curr = (uint32_t)k->arg[0], *dist = GB_U32(s, DIST), *sig = GB_U32(s, SIGMA);
    uint64_t dst[32], val[32];
    WL_GEN_BEGIN(&ws->g)
    w->act = at_level(s, w, gb_tid(w, s->tpb, s->g.nv), curr);
    w->maxn = gb_ranges(s, w, 0x48, w->act);
    for (w->it = 0; w->it < w->maxn; w->it++) {
        uint32_t me = gb_edge(s, w, 0x58, w->act, dst), mi = 0, mc = 0;
        uint8_t rd = gb_ld(s, w, 0x70, me, DIST, 4, dst, w->r3);
        WL_TLANES(x, me, l, t) if (dist[dst[l]] == GB_INF) { mi |= 1u << l; val[l] = curr + 1; }
        wl_bra_at(x, 0x80, me, wl_int_at(x, 0x78, me, rd, GMS_REG_NONE));
        gb_st(s, w, 0x88, mi, DIST, 4, dst, val, w->r3, GMS_REG_NONE);
        gb_st1(s, w, 0x90, mi, OVER, 1, 0, 0, GMS_REG_NONE);
        uint8_t r2 = gb_ld(s, w, 0x98, me, DIST, 4, dst, w->r3);
        WL_TLANES(x, me, l, t) if (dist[dst[l]] == curr + 1) mc |= 1u << l;
        wl_bra_at(x, 0xa8, me, wl_int_at(x, 0xa0, me, r2, GMS_REG_NONE));
        uint8_t su = gb_ld(s, w, 0xb0, mc, SIGMA, 4, w->v, w->ri);
        WL_TLANES(x, mc, l, t) sig[dst[l]] += sig[w->v[l]];
        gb_atom(s, w, 0xb8, mc, SIGMA, dst, w->r3, su);
        wl_bra_at(x, 0xc0, w->act, w->r3);
        WL_GEN_YIELD(&ws->g);
    }
    wl_exit_at(x, WL_PC_END, x->live);
    WL_GEN_END(&ws->g);
    (void)err;
}

/* kernel_backward_phase: i[0] = curr */
static int k_bwd(const wl_kernel *k, wl_wgen *ws, gms_error *err)
{
    gb *s = GB_S(k);
    gb_w *w = (gb_w *)ws;
    wl_warp *x = &ws->w;
    uint32_t curr = (uint32_t)k->arg[0], *dist = GB_U32(s, DIST), *sig = GB_U32(s, SIGMA);
    float *delta = GB_F32(s, DELTA);
    uint64_t dst[32], val[32];
    WL_GEN_BEGIN(&ws->g)
    w->act = at_level(s, w, gb_tid(w, s->tpb, s->g.nv), curr - 1);
    w->maxn = gb_ranges(s, w, 0x48, w->act);
    w->r1 = gb_ld(s, w, 0x58, w->act, SIGMA, 4, w->v, w->ri);   /* sigma[u], hoisted */
    WL_TLANES(x, w->act, l, t) w->f[l] = 0;
    for (w->it = 0; w->it < w->maxn; w->it++) {
        uint32_t me = gb_edge(s, w, 0x60, w->act, dst), mc = 0;
        uint8_t rd = gb_ld(s, w, 0x78, me, DIST, 4, dst, w->r3);
        WL_TLANES(x, me, l, t) if (dist[dst[l]] == curr) mc |= 1u << l;
        wl_bra_at(x, 0x88, me, wl_int_at(x, 0x80, me, rd, GMS_REG_NONE));
        uint8_t sw = gb_ld(s, w, 0x90, mc, SIGMA, 4, dst, w->r3);
        uint8_t dw = gb_ld(s, w, 0x98, mc, DELTA, 4, dst, w->r3);
        /* I2F.F64 x2, DADD, DMUL (MUFU.RCP64 + refinement for the division), F2F */
        uint8_t q = wl_sfu_at(x, 0xa0, mc, wl_fp_at(x, 0xa8, mc, sw, w->r1, GMS_REG_NONE));
        wl_fp_at(x, 0xb0, mc, q, dw, GMS_REG_NONE);
        WL_TLANES(x, mc, l, t) {
            float sum = (float)w->f[l];
            sum += 1.0 * sig[w->v[l]] / sig[dst[l]] * (1.0 + delta[dst[l]]);
            w->f[l] = sum;
        }
        wl_bra_at(x, 0xb8, w->act, w->r3);
        WL_GEN_YIELD(&ws->g);
    }
    {
        uint8_t d = gb_ld(s, w, 0xc0, w->act, DELTA, 4, w->v, w->ri);
        WL_TLANES(x, w->act, l, t) {
            float nd = delta[w->v[l]] + (float)w->f[l];
            uint32_t b;
            memcpy(&b, &nd, 4);
            val[l] = b;
        }
        gb_st(s, w, 0xc8, w->act, DELTA, 4, w->v, val, w->ri, wl_fp_at(x, 0xd0, w->act, d, GMS_REG_NONE, GMS_REG_NONE));
    }
    wl_exit_at(x, WL_PC_END, x->live);
    WL_GEN_END(&ws->g);
    (void)err;
}

/* kernel_backsum_phase: i[0] = root */
static int k_sum(const wl_kernel *k, wl_wgen *ws, gms_error *err)
{
    gb *s = GB_S(k);
    gb_w *w = (gb_w *)ws;
    wl_warp *x = &ws->w;
    uint64_t root = (uint64_t)k->arg[0], val[32];
    WL_GEN_BEGIN(&ws->g)
    uint32_t m = gb_tid(w, s->tpb, s->g.nv), mr = 0, ma = 0;
    WL_TLANES(x, m, l, t) if (w->v[l] != root) mr |= 1u << l;
    wl_bra_at(x, 0x28, m, wl_int_at(x, 0x24, m, w->ri, GMS_REG_NONE));
    uint8_t d = gb_ld(s, w, 0x30, mr, DIST, 4, w->v, w->ri);
    wl_bra_at(x, 0x40, mr, wl_int_at(x, 0x38, mr, d, GMS_REG_NONE));
    WL_TLANES(x, mr, l, t) if (GB_U32(s, DIST)[w->v[l]] != GB_INF) ma |= 1u << l;
    uint8_t b = gb_ld(s, w, 0x48, ma, BCV, 4, w->v, w->ri);
    uint8_t dl = gb_ld(s, w, 0x50, ma, DELTA, 4, w->v, w->ri);
    WL_TLANES(x, ma, l, t) {
        float nb = GB_F32(s, BCV)[w->v[l]] + GB_F32(s, DELTA)[w->v[l]];
        uint32_t bits;
        memcpy(&bits, &nb, 4);
        val[l] = bits;
    }
    gb_st(s, w, 0x60, ma, BCV, 4, w->v, val, w->ri, wl_fp_at(x, 0x58, ma, b, dl, GMS_REG_NONE));
    wl_exit_at(x, WL_PC_END, x->live);
    WL_GEN_END(&ws->g);
    (void)err;
}

/* phases: 0 BC = 0; 1 the next root (or the result); 2 forward levels; 3 done */
static int run(gb *s, gms_program *p, gms_error *err)
{
    bc_x *x = s->x;
    uint32_t nb = gb_blocks(s, s->g.nv);
    (void)err;
    switch (s->phase) {
    case 0:   /* cudaMemset(device_BC, 0): here an H2D of zeros */
        memset(s->b[BCV].h, 0, 4 * s->g.nv);
        gb_h2d(p, s, BCV, 0, 4 * s->g.nv);
        s->it2 = 0;   /* the root */
        /* fall through */
    case 1: {
        if ((uint64_t)s->it2 == x->sources) {
            gb_d2h(p, s, BCV, 0, 4 * s->g.nv);
            gms_prog_sync(p);
            s->phase = 3;
            return 1;
        }
        int64_t r[1] = {(int64_t)((s->root + (uint64_t)s->it2) % s->g.nv)};
        gb_launch(p, s, "kernel_init", k_init, nb, r, 1);
        s->it = 0;
        break;
    }
    case 2:
        if (!gb_flag_read(s, OVER)) break;   /* a level was found: go on */
        /* forward over after s->it launches: backward from the deepest level up */
        for (int64_t c = s->it; c > 1;) {
            c--;
            int64_t i[1] = {c};
            gb_launch(p, s, "kernel_backward_phase", k_bwd, nb, i, 1);
        }
        {
            int64_t r[1] = {(int64_t)((s->root + (uint64_t)s->it2) % s->g.nv)};
            gb_launch(p, s, "kernel_backsum_phase", k_sum, nb, r, 1);
        }
        gms_prog_sync(p);
        s->it2++;
        s->phase = 1;
        return 1;
    default:
        return 0;
    }
    gb_flag_set(p, s, OVER, 1);   /* stop = true */
    int64_t i[1] = {s->it++};
    gb_launch(p, s, "kernel_forward_phase", k_fwd, nb, i, 1);
    gb_d2h(p, s, OVER, 0, 1);
    gms_prog_sync(p);
    s->phase = 2;
    return 1;
}

static void check(gb *s)
{
    bc_x *x = s->x;
    if (s->bad[0]) return;
    gb_host_read(s, BCV, 0, 4 * s->g.nv);
    for (uint64_t v = 0; v < s->g.nv; v++) {
        float got = GB_F32(s, BCV)[v], want = x->ref[v];
        if (!(got == want)) { gb_mismatch(s, "BC", v, got, want); return; }
    }
}

static void fin(gb *s)
{
    bc_x *x = s->x;
    if (x) free(x->ref);
    free(x);
}

static const gb_algo algo = {"gb-bc", 5, names, bytes, setup, run, check, fin};
static const gms_wl_param params[] = {GB_PARAMS, {"sources", "1", "roots: N vertices from root on (GraphBIG: every vertex)"},
                                      {NULL, NULL, NULL}};
GB_WORKLOAD(gms_wl_gb_bc, "gb-bc", algo, params,
            "GraphBIG betweenness centrality (Brandes), topology-driven thread-centric, forward + backward");
