/* BFS-TWC (GraphBIG gpu_BFS, bfs_topo_warp_centric.cu): topology-driven, warp-centric BFS.
 * Every level launches a kernel over all vertices in which each warp owns CHUNK_SZ = 32
 * consecutive vertices; for each one at the current level the warp's lanes split its edges
 * (lane i takes edges i, i+32, ...) and give unvisited neighbours level + 1. The grid is
 * GraphBIG's num_block_chunked = ceil(num_block / 32) * 32 blocks, most of whose warps have no
 * vertex when the graph is small. The host repeats "changed = false; kernel; read changed". */
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
    if (gb_warp_chunk(w, s->g.nv, s->tpb)) {
        for (; w->vi < w->vend; w->vi++) {
            /* if (vplist[v] == curr): every lane loads the same word */
            uint8_t r = gb_ld1(s, w, 0x30, x->live, VPL, 4, w->vi, w->ri);
            wl_bra_at(x, 0x40, x->live, wl_int_at(x, 0x38, x->live, r, GMS_REG_NONE));
            if (vpl[w->vi] == curr) {
                for (int l = 0; l < 32; l++) w->v[l] = w->vi;
                gb_ranges(s, w, 0x48, x->live);
                w->maxn = (w->end[0] - w->beg[0] + 31) / 32;
                for (w->it = 0; w->it < w->maxn; w->it++) {
                    uint32_t me = gb_wedge(s, w, 0x58, x->live, dst), mw = 0;
                    uint8_t rv = gb_ld(s, w, 0x70, me, VPL, 4, dst, w->r3);
                    WL_TLANES(x, me, l, t) if (vpl[dst[l]] == GB_INF) { mw |= 1u << l; val[l] = curr + 1; }
                    uint8_t c = wl_int_at(x, 0x78, me, rv, GMS_REG_NONE);
                    wl_bra_at(x, 0x80, me, c);
                    gb_st(s, w, 0x88, mw, VPL, 4, dst, val, w->r3, c);
                    gb_st1(s, w, 0x90, mw, CHG, 1, 0, 1, GMS_REG_NONE);
                    wl_bra_at(x, 0x98, x->live, w->r3);
                    WL_GEN_YIELD(&ws->g);
                }
            }
            wl_bra_at(x, 0xa0, x->live, w->ri);
            WL_GEN_YIELD(&ws->g);
        }
    }
    wl_exit_at(x, WL_PC_END, x->live);
    WL_GEN_END(&ws->g);
    (void)err;
}

static int run(gb *s, gms_program *p, gms_error *err)
{
    (void)err;
    return gb_bfs_changed_run(s, p, k_bfs, (gb_blocks(s, s->g.nv) + 31) / 32 * 32);
}

static const gb_algo algo = {"bfs-twc", 2, names, gb_bfs_bytes, gb_bfs_setup, run, gb_bfs_check, gb_free_x};
static const gms_wl_param params[] = {GB_PARAMS, {NULL, NULL, NULL}};
GB_WORKLOAD(gms_wl_gb_bfs_twc, "bfs-twc", algo, params,
            "GraphBIG BFS, topology-driven warp-centric (a warp per 32 vertices, a lane per edge)");
