/* BFS-TA (GraphBIG gpu_BFS, bfs_topo_atomic.cu, after LonestarGPU's bfs_ls): topology-
 * driven, thread-centric, atomic. Every launch runs a thread per vertex, each walking all its
 * edges: newlevel = vplist[v] + 1 (reloaded per edge); if newlevel < vplist[dest],
 * atomicMin(&vplist[dest], newlevel), and a lowered level sets `changed` at the end. No
 * frontier: levels settle in any order (chaotic relaxation); the host repeats until a launch
 * changes nothing. */
#include "workloads/graphbig_util.h"

enum { VPL = GB_FIRST, CHG };
static const char *const names[] = {"vproplist", "changed"};

static int k_bfs(const wl_kernel *k, wl_wgen *ws, gms_error *err)
{
    gb *s = GB_S(k);
    gb_w *w = (gb_w *)ws;
    wl_warp *x = &ws->w;
    uint32_t *vpl = GB_U32(s, VPL);
    uint64_t dst[32], val[32];
    WL_GEN_BEGIN(&ws->g)
    w->act = gb_tid(w, s->tpb, s->g.nv);
    w->maxn = gb_ranges(s, w, 0x30, w->act);
    w->flag = 0;
    for (w->it = 0; w->it < w->maxn; w->it++) {
        uint32_t me = gb_edge(s, w, 0x40, w->act, dst), mw = 0;
        uint8_t rs = gb_ld(s, w, 0x58, me, VPL, 4, w->v, w->ri);   /* vplist[vid] + 1 */
        uint8_t rd = gb_ld(s, w, 0x60, me, VPL, 4, dst, w->r3);
        WL_TLANES(x, me, l, t) if (vpl[w->v[l]] + 1 < vpl[dst[l]]) mw |= 1u << l;
        uint8_t c = wl_int_at(x, 0x68, me, rs, rd);
        wl_bra_at(x, 0x70, me, c);
        /* atomicMin in lane order: a lane that lowers the level it finds counts as changed */
        WL_TLANES(x, mw, l, t) {
            uint32_t nl = vpl[w->v[l]] + 1;
            if (nl < vpl[dst[l]]) { vpl[dst[l]] = nl; w->flag |= 1u << l; }
        }
        gb_atom(s, w, 0x78, mw, VPL, dst, w->r3, c);
        wl_bra_at(x, 0x80, w->act, w->r3);
        WL_GEN_YIELD(&ws->g);
    }
    (void)val;
    gb_st1(s, w, 0x88, w->flag, CHG, 1, 0, 1, GMS_REG_NONE);
    wl_exit_at(x, WL_PC_END, x->live);
    WL_GEN_END(&ws->g);
    (void)err;
}

static int run(gb *s, gms_program *p, gms_error *err)
{
    (void)err;
    return gb_bfs_changed_run(s, p, k_bfs, gb_blocks(s, s->g.nv));
}

static const gb_algo algo = {"bfs-ta", 2, names, gb_bfs_bytes, gb_bfs_setup, run, gb_bfs_check, gb_free_x};
static const gms_wl_param params[] = {GB_PARAMS, {NULL, NULL, NULL}};
GB_WORKLOAD(gms_wl_gb_bfs_ta, "bfs-ta", algo, params,
            "GraphBIG BFS, topology-driven atomic (a thread per vertex, atomicMin relaxation)");
