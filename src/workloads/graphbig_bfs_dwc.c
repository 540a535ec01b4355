/* BFS-DWC (GraphBIG gpu_BFS, bfs_data_warp_centric.cu; after Nasre et al. and Merrill et
 * al.): data-driven, warp-centric BFS on a global worklist. Each warp takes 32 consecutive
 * in-worklist items (vertices); for each, its lanes split the edges, give unvisited
 * neighbours level + 1 and collect them in a per-thread local list (LOCAL_SIZE = 128, pushed
 * to the out-worklist when full); at the end every lane pushes its list: atomicAdd(end, n)
 * then the n items. The host swaps the lists, reads the new size, clears the other and sizes
 * the next grid by the size (num_block_chunked), until a level pushes nothing. A vertex found
 * by two lanes at once is pushed twice, as on the GPU. The local list is kept in registers
 * here (the simulator models no local memory for it): its pushes emit an IADD each, its
 * reads before the STG of an item an IADD. GraphBIG allocates WORKLIST_SIZE = 16777216 items
 * a list; here a list holds edge entries + 1, which no level exceeds. */
#include "workloads/graphbig_util.h"
#include <stdlib.h>
#include <string.h>

enum { VPL = GB_FIRST, W1, W1E, W2, W2E };
static const char *const names[] = {"vproplist", "worklist1", "worklist1_end", "worklist2", "worklist2_end"};
#define LOCAL_SIZE 128

static uint64_t bytes(int i, uint64_t nv, uint64_t ne, const gms_wl_args *a)
{
    (void)a;
    if (i == 0) return 4 * nv;
    return i == 1 || i == 3 ? 8 * (ne + 1) : 4;
}

typedef struct dwc_w {
    gb_w w;
    uint32_t n[32];          /* work_size per lane */
    uint64_t *loc;           /* [32][LOCAL_SIZE] local lists, allocated at the first push */
} dwc_w;

/* outworklist.pushRange(local, n) by the lanes of m, in lane order */
static void push_range(gb *s, dwc_w *d, uint32_t m, int OUT, uint32_t pc)
{
    gb_w *w = &d->w;
    wl_warp *x = &w->ws.w;
    uint32_t *end = GB_U32(s, OUT + 1), maxn = 0;
    uint64_t ea[32] = {0}, old[32], pos[32], val[32];
    WL_TLANES(x, m, l, t) {
        old[l] = end[0];
        end[0] += d->n[l];
        if (d->n[l] > maxn) maxn = d->n[l];
    }
    uint8_t r = gb_atom(s, w, pc, m, OUT + 1, ea, GMS_REG_NONE, GMS_REG_NONE);
    for (uint32_t i = 0; i < maxn; i++) {
        uint32_t mi = 0;
        WL_TLANES(x, m, l, t) if (i < d->n[l]) { mi |= 1u << l; pos[l] = old[l] + i; val[l] = d->loc[l * LOCAL_SIZE + i]; }
        uint8_t v = wl_int_at(x, pc + 8, mi, r, GMS_REG_NONE);   /* local_worklist[i] */
        gb_st(s, w, pc + 16, mi, OUT, 8, pos, val, r, v);
        wl_bra_at(x, pc + 24, m, r);
    }
    WL_TLANES(x, m, l, t) d->n[l] = 0;
}

/* i[0] = curr_level, i[1] = in list, i[2] = out list */
static int k_bfs(const wl_kernel *k, wl_wgen *ws, gms_error *err)
{
    gb *s = GB_S(k);
    dwc_w *d = (dwc_w *)ws;
    gb_w *w = &d->w;
    wl_warp *x = &ws->w;
    uint32_t curr = (uint32_t)k->arg[0], *vpl = GB_U32(s, VPL);
    int IN = (int)k->arg[1], OUT = (int)k->arg[2];
    uint64_t dst[32], val[32];
    WL_GEN_BEGIN(&ws->g)
    {
        uint32_t n = GB_U32(s, IN + 1)[0];
        gb_warp_chunk(w, n, k->block.x);   /* task_start .. task_end */
        gb_ld1(s, w, 0x100, x->live, IN + 1, 4, 0, w->ri);   /* get_item_num() */
    }
    if (w->vi < w->vend) {
        for (; w->vi < w->vend; w->vi++) {
            {
                uint8_t r = gb_ld1(s, w, 0x30, x->live, IN, 8, w->vi, w->ri);   /* v = get_item(id) */
                uint64_t v = GB_U64(s, IN)[w->vi];
                for (int l = 0; l < 32; l++) w->v[l] = v;
                w->ri = r;
                gb_ranges(s, w, 0x38, x->live);
                w->maxn = (w->end[0] - w->beg[0] + 31) / 32;
            }
            for (w->it = 0; w->it < w->maxn; w->it++) {
                uint32_t me = gb_wedge(s, w, 0x48, x->live, dst), mw = 0, mf = 0;
                uint8_t rv = gb_ld(s, w, 0x60, me, VPL, 4, dst, w->r3);
                WL_TLANES(x, me, l, t) if (vpl[dst[l]] == GB_INF) { mw |= 1u << l; val[l] = curr + 1; }
                uint8_t c = wl_int_at(x, 0x68, me, rv, GMS_REG_NONE);
                wl_bra_at(x, 0x70, me, c);
                gb_st(s, w, 0x78, mw, VPL, 4, dst, val, w->r3, c);
                if (mw && !d->loc) d->loc = gms_xmalloc(8 * 32 * LOCAL_SIZE);
                WL_TLANES(x, mw, l, t) {
                    d->loc[l * LOCAL_SIZE + d->n[l]++] = dst[l];
                    if (d->n[l] == LOCAL_SIZE) mf |= 1u << l;
                }
                wl_int_at(x, 0x80, mw, w->r3, GMS_REG_NONE);   /* local_worklist[work_size++] = vid */
                wl_bra_at(x, 0x88, mw, c);
                if (mf) push_range(s, d, mf, OUT, 0x90);
                wl_bra_at(x, 0xb0, x->live, w->r3);
                WL_GEN_YIELD(&ws->g);
            }
            wl_bra_at(x, 0xb8, x->live, w->ri);
        }
        push_range(s, d, x->live, OUT, 0xc0);
    }
    free(d->loc);
    d->loc = NULL;
    wl_exit_at(x, WL_PC_END, x->live);
    WL_GEN_END(&ws->g);
    (void)err;
}

static int run(gb *s, gms_program *p, gms_error *err)
{
    (void)err;
    int in = s->it % 2 ? W2 : W1, out = s->it % 2 ? W1 : W2;
    uint32_t n;
    if (s->phase == 0) {
        gb_init_inf(p, s, VPL);
        GB_U32(s, W2E)[0] = 0;   /* init() clears both */
        gb_h2d(p, s, W2E, 0, 4);
        GB_U32(s, W1E)[0] = 1;   /* in_worklist->host_initPush(&root, 1) */
        gb_h2d(p, s, W1E, 0, 4);
        GB_U64(s, W1)[0] = s->root;
        gb_h2d(p, s, W1, 0, 8);
        gms_prog_sync(p);
        s->it = 0;
        s->phase = 1;
        return 1;
    }
    if (s->phase == 1) {   /* after initialize: the root's level */
        GB_U32(s, VPL)[s->root] = 0;
        gb_h2d(p, s, VPL, 4 * s->root, 4);
        n = 1;
        in = W1;
        out = W2;
        s->phase = 2;
    } else if (!(n = gb_worklist_turn(p, s, in, out))) {
        return 0;
    }
    uint32_t tpb = gb_worklist_tpb(n), nb = (n + tpb - 1) / tpb;
    wl_kernel k = {.st = s, .step = k_bfs, .wsize = sizeof(dwc_w), .grid = {(nb + 31) / 32 * 32, 1, 1},
                   .block = {tpb, 1, 1}};
    k.arg[0] = s->it++;
    k.arg[1] = in;
    k.arg[2] = out;
    wl_launch_k(p, "kernel", &k, 32, 0);
    gb_d2h(p, s, out + 1, 0, 4);
    gms_prog_sync(p);
    return 1;
}

static const gb_algo algo = {"bfs-dwc", 5, names, bytes, gb_bfs_setup, run, gb_bfs_check, gb_free_x};
static const gms_wl_param params[] = {GB_PARAMS, {NULL, NULL, NULL}};
GB_WORKLOAD(gms_wl_gb_bfs_dwc, "bfs-dwc", algo, params,
            "GraphBIG BFS, data-driven warp-centric (global worklist, a warp per 32 items)");
