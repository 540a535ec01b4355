/* BFS-TTC (GraphBIG gpu_BFS, bfs_topo_thread_centric.cu): topology-driven, thread-centric
 * BFS. Every level launches a thread per vertex; a thread whose vertex is at the current
 * level walks its edges and gives each unvisited neighbour level + 1 (no atomics: racing
 * writers store the same value) and sets `changed`. The host repeats until nothing changes. */
#include "workloads/graphbig_util.h"
#include <stdlib.h>

enum { VPL = GB_FIRST, CHG };
static const char *const names[] = {"vproplist", "changed"};

static uint64_t bytes(int i, uint64_t nv, uint64_t ne, const gms_wl_args *a)
{
    (void)ne;
    (void)a;
    return i == 0 ? 4 * nv : 1;
}

static int setup(gb *s, const gms_wl_args *a, gms_error *err)
{
    (void)a;
    (void)err;
    s->x = gms_xmalloc(4 * s->g.nv);
    gb_ref_bfs(&s->g, s->root, s->x);
    return 0;
}

static int k_bfs(const rw_kernel *k, rw_wgen *ws, gms_error *err)
{
    gb *s = GB_S(k);
    gb_w *w = (gb_w *)ws;
    rw_warp *x = &ws->x;
    uint32_t curr = (uint32_t)k->i[0], *vpl = GB_U32(s, VPL);
    uint64_t dst[32], val[32];
    WL_GEN_BEGIN(&ws->g)
    {
        uint32_t m = gb_tid(w, s->tpb, s->g.nv);
        uint8_t r = gb_ld(s, w, 0x30, m, VPL, 4, w->v, w->ri);
        rw_bra(x, 0x40, m, rw_int(x, 0x38, m, r, GMS_REG_NONE));
        w->act = 0;
        RW_LANES(x, m, l, t) if (vpl[w->v[l]] == curr) w->act |= 1u << l;
        w->maxn = gb_ranges(s, w, 0x48, w->act);
    }
    for (w->it = 0; w->it < w->maxn; w->it++) {
        uint32_t me = gb_edge(s, w, 0x58, w->act, dst), mw = 0;
        uint8_t rv = gb_ld(s, w, 0x70, me, VPL, 4, dst, w->r3);
        RW_LANES(x, me, l, t) if (vpl[dst[l]] == GB_INF) { mw |= 1u << l; val[l] = curr + 1; }
        uint8_t c = rw_int(x, 0x78, me, rv, GMS_REG_NONE);
        rw_bra(x, 0x80, me, c);
        gb_st1(s, w, 0x88, mw, CHG, 1, 0, 1, GMS_REG_NONE);   /* *changed = true; vplist[vid] = curr + 1 */
        gb_st(s, w, 0x90, mw, VPL, 4, dst, val, w->r3, c);
        rw_bra(x, 0x98, w->act, w->r3);
        WL_GEN_YIELD(&ws->g);
    }
    rw_exit(x, x->mask);
    WL_GEN_END(&ws->g);
    (void)err;
}

static int run(gb *s, gms_program *p, gms_error *err)
{
    (void)err;
    if (s->phase == 0) {
        int bufs[1] = {VPL};
        int64_t vals[1] = {GB_INF};
        gb_init_kernel(p, s, 1, bufs, vals);
        gms_prog_sync(p);
        s->phase = 1;
        return 1;
    }
    if (s->phase == 1) {   /* after initialize has run: the root's entry (cudaMemcpy) */
        GB_U32(s, VPL)[s->root] = 0;
        gb_h2d(p, s, VPL, 4 * s->root, 4);
        s->it = 0;
        s->phase = 2;
    } else if (!gb_flag_read(s, CHG)) {
        gb_d2h(p, s, VPL, 0, 4 * s->g.nv);
        return 0;
    }
    gb_flag_set(p, s, CHG, 0);
    int64_t i[1] = {s->it++};
    gb_launch(p, s, "kernel", k_bfs, gb_blocks(s, s->g.nv), i, 1);
    gb_d2h(p, s, CHG, 0, 1);
    gms_prog_sync(p);
    return 1;
}

static void check(gb *s) { gb_check_u32(s, VPL, "vproplist", s->x); }
static void fin(gb *s) { free(s->x); }

static const gb_algo algo = {"bfs-ttc", 2, names, bytes, setup, run, check, fin};
static const gms_wl_param params[] = {GB_PARAMS, {NULL, NULL, NULL}};
static int create(const gms_wl_args *a, void **st, gms_error *err) { return gb_create(&algo, a, st, err); }
static uint64_t footprint(const gms_wl_args *a) { return gb_footprint(&algo, a); }

const gms_workload_ops gms_wl_gb_bfs_ttc = {
    .name = "bfs-ttc", .suite = "graphbig", .domain = "graph", .ri = "I",
    .summary = "GraphBIG BFS, topology-driven thread-centric (a thread per vertex, every level)",
    .params = params, .create = create, .next = gb_next, .verify = gb_verify, .destroy = gb_destroy,
    .footprint = footprint,
};
