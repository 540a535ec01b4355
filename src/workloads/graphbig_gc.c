/* Graph coloring shared by GC-TTC and GC-DTC (GraphBIG gpu_GraphColoring; after Grosset et
 * al.): Jones-Plassmann rounds. In round `color` an uncoloured vertex takes the colour when
 * no neighbour that is uncoloured or coloured this round (vplist[dest] >= color) has a larger
 * random number (ties: the lower id wins); a thread leaves its edge loop at the first such
 * neighbour. The random numbers are rand()-like 31-bit values from the run's seed. */
#include "workloads/graphbig_util.h"
#include "util/rng.h"
#include <stdlib.h>
#include "util/sort.h"

int gb_gc_setup(gb *s, const gms_wl_args *a, gms_error *err)
{
    const int rand_buf = GB_FIRST + 1;
    (void)a;
    (void)err;
    gms_rng r;
    gms_rng_seed(&r, 123 ^ (uint64_t)s->g.nv);
    uint32_t *rnd = GB_U32(s, rand_buf), *col = gms_xmalloc(4 * s->g.nv);
    for (uint64_t v = 0; v < s->g.nv; v++) rnd[v] = (uint32_t)(gms_rng_next(&r) >> 33);
    /* The reference. The rounds' outcome in closed form: a vertex wins in the first round in
     * which every neighbour that outranks it (larger random number, ties to the lower id) is
     * coloured, and such a neighbour is coloured in round col[d], so col[v] = 1 + the largest
     * col[d] over those neighbours (0 when none outranks it). Computed in rank order, highest
     * first: O(V log V + E) where replaying the rounds costs O(rounds x (V + E)). */
    uint64_t *ord = gms_xmalloc(8 * (s->g.nv ? s->g.nv : 1));
    for (uint64_t v = 0; v < s->g.nv; v++) ord[v] = (uint64_t)(0x7fffffffu - rnd[v]) << 32 | v;
    qsort(ord, s->g.nv, sizeof *ord, gms_cmp_u64);   /* random number descending, then id (ids < 2^31: graphbig_util.c, graph_io.c) */
    for (uint64_t i = 0; i < s->g.nv; i++) {
        uint64_t v = ord[i] & 0xffffffffu;
        uint32_t c = 0;
        for (uint64_t e = s->g.off[v]; e < s->g.off[v + 1]; e++) {
            uint64_t d = s->g.adj[e];
            if ((rnd[d] > rnd[v] || (rnd[d] == rnd[v] && d < v)) && col[d] + 1 > c) c = col[d] + 1;
        }
        col[v] = c;
    }
    free(ord);
    s->x = col;
    return 0;
}

void gb_gc_check(gb *s) { gb_check_u32(s, GB_FIRST, "vproplist (colour)", s->x); }

/* i[0] = color; i[1] = mode: 0 topological (a thread per vertex, `over` = false when a
 * vertex waits), 1 data-driven (thread tid takes in-worklist item tid; a waiting vertex is
 * pushed to the out-worklist with atomicAdd). b[] = the workload's arrays: vplist, randlist,
 * over; i[5], i[6]: the in- and out-worklist's items (8 bytes each), each followed by its end
 * counter */
int gb_gc_step(const wl_kernel *k, wl_wgen *ws, gms_error *err)
{
    gb *s = GB_S(k);
    gb_w *w = (gb_w *)ws;
    wl_warp *x = &ws->w;
    uint32_t color = (uint32_t)k->arg[0];
    int mode = (int)k->arg[1], VPL = (int)k->arg[2], RND = (int)k->arg[3], OVER = (int)k->arg[4];
    int IN = (int)k->arg[5], OUT = (int)k->arg[6];
    uint32_t *vpl = GB_U32(s, VPL), *rnd = GB_U32(s, RND);
    uint64_t dst[32], val[32];
    WL_GEN_BEGIN(&ws->g)
    {
        uint32_t m;
        if (mode == 0) {
            m = gb_tid(w, s->tpb, s->g.nv);
        } else {
            uint32_t n = GB_U32(s, IN + 1)[0];
            uint64_t tid[32];
            m = gb_tid(w, k->block.x, n);   /* tid < inworklist.get_item_num() */
            uint8_t rn = gb_ld1(s, w, 0x100, x->live, IN + 1, 4, 0, GMS_REG_NONE);
            wl_bra_at(x, 0x110, x->live, wl_int_at(x, 0x108, x->live, rn, w->ri));
            WL_TLANES(x, m, l, t) tid[l] = w->v[l];
            w->ri = gb_ld(s, w, 0x118, m, IN, 8, tid, w->ri);
            WL_TLANES(x, m, l, t) w->v[l] = GB_U64(s, IN)[tid[l]];
        }
        uint8_t r = gb_ld(s, w, 0x30, m, VPL, 4, w->v, w->ri);
        wl_bra_at(x, 0x40, m, wl_int_at(x, 0x38, m, r, GMS_REG_NONE));
        w->act = 0;
        WL_TLANES(x, m, l, t) if (vpl[w->v[l]] == GB_INF) w->act |= 1u << l;
        w->maxn = gb_ranges(s, w, 0x48, w->act);
        gb_ld(s, w, 0x58, w->act, RND, 4, w->v, w->ri);   /* local_rand */
        w->m2 = w->act;   /* lanes still in the edge loop */
        w->flag = 0;      /* found_larger */
    }
    for (w->it = 0; w->it < w->maxn && w->m2; w->it++) {
        uint32_t me = gb_edge(s, w, 0x60, w->m2, dst), mc = 0, mf = 0;
        uint8_t rv = gb_ld(s, w, 0x78, me, VPL, 4, dst, w->r3);
        WL_TLANES(x, me, l, t) if (!(vpl[dst[l]] < color)) mc |= 1u << l;
        wl_bra_at(x, 0x88, me, wl_int_at(x, 0x80, me, rv, GMS_REG_NONE));   /* continue */
        uint8_t rr = gb_ld(s, w, 0x90, mc, RND, 4, dst, w->r3);
        WL_TLANES(x, mc, l, t)
            if (rnd[dst[l]] > rnd[w->v[l]] || (rnd[dst[l]] == rnd[w->v[l]] && dst[l] < w->v[l])) mf |= 1u << l;
        wl_bra_at(x, 0xa0, mc, wl_int_at(x, 0x98, mc, rr, GMS_REG_NONE));   /* break */
        w->flag |= mf;
        /* lanes leave at a break or when their edges run out */
        w->m2 &= ~mf;
        WL_TLANES(x, w->m2, l, t) if (w->beg[l] + w->it + 1 >= w->end[l]) w->m2 &= ~(1u << l);
        wl_bra_at(x, 0xa8, me, w->r3);
        WL_GEN_YIELD(&ws->g);
    }
    {
        uint32_t mw = w->act & ~w->flag;
        WL_TLANES(x, mw, l, t) val[l] = color;
        gb_st(s, w, 0xb0, mw, VPL, 4, w->v, val, w->ri, GMS_REG_NONE);
        if (mode == 0) {
            gb_st1(s, w, 0xb8, w->flag, OVER, 1, 0, 0, GMS_REG_NONE);   /* *device_over = false */
        } else if (w->flag) {
            /* outworklist.pushRange(&vid, 1): atomicAdd(end, 1) in lane order, then the item */
            uint64_t pos[32], ea[32];
            uint32_t *end = GB_U32(s, OUT + 1);
            WL_TLANES(x, w->flag, l, t) { ea[l] = 0; pos[l] = end[0]++; }
            uint8_t p = gb_atom(s, w, 0xc0, w->flag, OUT + 1, ea, GMS_REG_NONE, GMS_REG_NONE);
            WL_TLANES(x, w->flag, l, t) val[l] = w->v[l];
            gb_st(s, w, 0xc8, w->flag, OUT, 8, pos, val, p, w->ri);
        }
    }
    wl_exit_at(x, WL_PC_END, x->live);
    WL_GEN_END(&ws->g);
    (void)err;
}
