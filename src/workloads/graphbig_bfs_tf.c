/* BFS-TF (GraphBIG gpu_BFS, bfs_topo_frontier.cu, after Harish and Narayanan): topology-
 * driven with frontier flags, thread-centric, no atomics. BFS_kernel_1 (a thread per
 * vertex): a vertex in the frontier leaves it and gives each unvisited neighbour
 * vplist[v] + 1 and an `updating` flag; BFS_kernel_2: an updating vertex joins the frontier,
 * is marked visited and sets `over`. Flags are 1-byte bools. The host repeats both kernels
 * while `over` is set. */
#include "workloads/graphbig_util.h"

enum { VPL = GB_FIRST, FRONT, UPDF, VIS, OVER };
static const char *const names[] = {"vproplist", "graph_frontier", "updating_graph_frontier", "graph_visited",
                                    "over"};

static uint64_t bytes(int i, uint64_t nv, uint64_t ne, const gms_wl_args *a)
{
    (void)ne;
    (void)a;
    return i == 0 ? 4 * nv : i < 4 ? nv : 1;
}

static int k_1(const wl_kernel *k, wl_wgen *ws, gms_error *err)
{
    gb *s = GB_S(k);
    gb_w *w = (gb_w *)ws;
    wl_warp *x = &ws->w;
    uint32_t *vpl = GB_U32(s, VPL);
    uint8_t *vis = GB_U8(s, VIS);
    uint64_t dst[32], val[32];
    WL_GEN_BEGIN(&ws->g)
    {
        w->act = gb_tid_flag(s, w, FRONT);
        WL_TLANES(x, w->act, l, t) val[l] = 0;
        gb_st(s, w, 0x48, w->act, FRONT, 1, w->v, val, w->ri, GMS_REG_NONE);
        w->maxn = gb_ranges(s, w, 0x50, w->act);
    }
    for (w->it = 0; w->it < w->maxn; w->it++) {
        uint32_t me = gb_edge(s, w, 0x60, w->act, dst), mw = 0;
        uint8_t rv = gb_ld(s, w, 0x78, me, VIS, 1, dst, w->r3);
        WL_TLANES(x, me, l, t) if (!vis[dst[l]]) mw |= 1u << l;
        uint8_t c = wl_int_at(x, 0x80, me, rv, GMS_REG_NONE);
        wl_bra_at(x, 0x88, me, c);
        uint8_t rs = gb_ld(s, w, 0x90, mw, VPL, 4, w->v, w->ri);   /* device_vpl[tid] + 1 */
        WL_TLANES(x, mw, l, t) val[l] = vpl[w->v[l]] + 1;
        gb_st(s, w, 0x98, mw, VPL, 4, dst, val, w->r3, wl_int_at(x, 0xa0, mw, rs, GMS_REG_NONE));
        WL_TLANES(x, mw, l, t) val[l] = 1;
        gb_st(s, w, 0xa8, mw, UPDF, 1, dst, val, w->r3, GMS_REG_NONE);
        wl_bra_at(x, 0xb0, w->act, w->r3);
        WL_GEN_YIELD(&ws->g);
    }
    wl_exit_at(x, WL_PC_END, x->live);
    WL_GEN_END(&ws->g);
    (void)err;
}

static int k_2(const wl_kernel *k, wl_wgen *ws, gms_error *err)
{
    gb *s = GB_S(k);
    gb_w *w = (gb_w *)ws;
    wl_warp *x = &ws->w;
    uint64_t val[32];
    WL_GEN_BEGIN(&ws->g)
    uint32_t mu = gb_tid_flag(s, w, UPDF);
    WL_TLANES(x, mu, l, t) val[l] = 1;
    gb_st(s, w, 0x48, mu, FRONT, 1, w->v, val, w->ri, GMS_REG_NONE);
    gb_st(s, w, 0x50, mu, VIS, 1, w->v, val, w->ri, GMS_REG_NONE);
    WL_TLANES(x, mu, l, t) val[l] = 0;
    gb_st(s, w, 0x58, mu, UPDF, 1, w->v, val, w->ri, GMS_REG_NONE);
    gb_st1(s, w, 0x60, mu, OVER, 1, 0, 1, GMS_REG_NONE);
    wl_exit_at(x, WL_PC_END, x->live);
    WL_GEN_END(&ws->g);
    (void)err;
}

static int run(gb *s, gms_program *p, gms_error *err)
{
    (void)err;
    if (s->phase == 0) {
        int bufs[4] = {FRONT, UPDF, VIS, VPL};
        int64_t vals[4] = {0, 0, 0, GB_INF};
        gb_init_kernel(p, s, 4, bufs, vals);
        gms_prog_sync(p);
        s->phase = 1;
        return 1;
    }
    if (s->phase == 1) {   /* after initialize: the root is the frontier, visited, level 0 */
        GB_U8(s, FRONT)[s->root] = 1;
        gb_h2d(p, s, FRONT, s->root, 1);
        GB_U8(s, VIS)[s->root] = 1;
        gb_h2d(p, s, VIS, s->root, 1);
        GB_U32(s, VPL)[s->root] = 0;
        gb_h2d(p, s, VPL, 4 * s->root, 4);
        s->phase = 2;
    } else if (!gb_flag_read(s, OVER)) {
        gb_d2h(p, s, VPL, 0, 4 * s->g.nv);
        return 0;
    }
    gb_flag_set(p, s, OVER, 0);
    gb_launch(p, s, "BFS_kernel_1", k_1, gb_blocks(s, s->g.nv), NULL, 0);
    gb_launch(p, s, "BFS_kernel_2", k_2, gb_blocks(s, s->g.nv), NULL, 0);
    gb_d2h(p, s, OVER, 0, 1);
    gms_prog_sync(p);
    return 1;
}

static const gb_algo algo = {"bfs-tf", 5, names, bytes, gb_bfs_setup, run, gb_bfs_check, gb_free_x};
static const gms_wl_param params[] = {GB_PARAMS, {NULL, NULL, NULL}};
GB_WORKLOAD(gms_wl_gb_bfs_tf, "bfs-tf", algo, params,
            "GraphBIG BFS, topology-driven frontier flags (a thread per vertex, two kernels per level)");
