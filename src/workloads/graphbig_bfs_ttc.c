/* BFS-TTC (GraphBIG gpu_BFS, bfs_topo_thread_centric.cu): topology-driven, thread-centric
 * BFS. Every level launches a thread per vertex; a thread whose vertex is at the current
 * level walks its edges and gives each unvisited neighbour level + 1 (no atomics: racing
 * writers store the same value) and sets `changed`. The host repeats until nothing changes. */
#include "workloads/graphbig_util.h"

enum { VPL = GB_FIRST, CHG };
static const char *const names[] = {"vproplist", "changed"};

static int k_bfs(const wl_kernel *k, wl_wgen *ws, gms_error *err)
{
    gb *s = GB_S(k);
    gb_w *w = (gb_w *)ws;
    wl_warp *x = &ws->w;
    uint32_t curr = (uint32_t)k->arg[0], *vpl = GB_U32(s, VPL);
    uint64_t dst[32], val[32];
    WL_GEN_BEGIN(&ws->g)
    {
        uint32_t m = gb_tid_ld(s, w, VPL, 4);
        w->act = 0;
        WL_TLANES(x, m, l, t) if (vpl[w->v[l]] == curr) w->act |= 1u << l;
        w->maxn = gb_ranges(s, w, 0x48, w->act);
    }
    for (w->it = 0; w->it < w->maxn; w->it++) {
        uint32_t me = gb_edge(s, w, 0x58, w->act, dst), mw = 0;
        uint8_t rv = gb_ld(s, w, 0x70, me, VPL, 4, dst, w->r3);
        WL_TLANES(x, me, l, t) if (vpl[dst[l]] == GB_INF) { mw |= 1u << l; val[l] = curr + 1; }
        uint8_t c = wl_int_at(x, 0x78, me, rv, GMS_REG_NONE);
        wl_bra_at(x, 0x80, me, c);
        gb_st1(s, w, 0x88, mw, CHG, 1, 0, 1, GMS_REG_NONE);   /* *changed = true; vplist[vid] = curr + 1 */
        gb_st(s, w, 0x90, mw, VPL, 4, dst, val, w->r3, c);
        wl_bra_at(x, 0x98, w->act, w->r3);
        WL_GEN_YIELD(&ws->g);
    }
    wl_exit_at(x, WL_PC_END, x->live);
    WL_GEN_END(&ws->g);
    (void)err;
}

static int run(gb *s, gms_program *p, gms_error *err)
{
    (void)err;
    return gb_bfs_changed_run(s, p, k_bfs, gb_blocks(s, s->g.nv));
}

static const gb_algo algo = {"bfs-ttc", 2, names, gb_bfs_bytes, gb_bfs_setup, run, gb_bfs_check, gb_free_x};
static const gms_wl_param params[] = {GB_PARAMS, {NULL, NULL, NULL}};
GB_WORKLOAD(gms_wl_gb_bfs_ttc, "bfs-ttc", algo, params,
            "GraphBIG BFS, topology-driven thread-centric (a thread per vertex, every level)");
