/* KCORE (GraphBIG gpu_kCore, kcore.cu; after Alvarez-Hamelin et al.): k-core decomposition,
 * topology-driven, thread-centric. initialize: vplist[v] = degree (degreelist), rmlist =
 * flaglist = false. kernel (a thread per vertex): a flagged vertex walks its edges,
 * atomicSub(&vplist[dest], 1) for each neighbour not yet removed, and clears its flag.
 * kernel2: a vertex not removed whose vplist is below k is removed and flagged,
 * atomicAdd(rm_cnt, 1), and `over` is cleared. The host repeats both while `over` is cleared.
 * The result: vplist (remaining degrees) and the removed count. */
#include "workloads/graphbig_util.h"
#include <stdlib.h>
#include <string.h>

enum { VPL = GB_FIRST, RML, FLAG, RMCNT, OVER };
static const char *const names[] = {"vproplist", "rmlist", "flaglist", "remove_cnt", "over"};

typedef struct kc_x { uint32_t *ref; uint32_t cnt; uint64_t k; } kc_x;

static uint64_t bytes(int i, uint64_t nv, uint64_t ne, const gms_wl_args *a)
{
    (void)ne;
    (void)a;
    static const int per[] = {4, 1, 1};
    return i < 3 ? per[i] * nv : i == 3 ? 4 : 1;
}

static int setup(gb *s, const gms_wl_args *a, gms_error *err)
{
    kc_x *x = gms_xcalloc(1, sizeof *x);
    s->x = x;
    if (wl_param(a, "k", 1, 1u << 30, &x->k, err)) return -1;
    uint64_t n = s->g.nv;
    uint32_t *vpl = gms_xmalloc(4 * n);
    uint8_t *rml = gms_xcalloc(n ? n : 1, 1), *flag = gms_xcalloc(n ? n : 1, 1);
    for (uint64_t v = 0; v < n; v++) vpl[v] = (uint32_t)(s->g.off[v + 1] - s->g.off[v]);
    for (int over = 0; !over;) {
        for (uint64_t v = 0; v < n; v++) {
            if (!flag[v]) continue;
            for (uint64_t e = s->g.off[v]; e < s->g.off[v + 1]; e++)
                if (!rml[s->g.adj[e]]) vpl[s->g.adj[e]]--;
            flag[v] = 0;
        }
        over = 1;
        for (uint64_t v = 0; v < n; v++)
            if (!rml[v] && vpl[v] < x->k) { rml[v] = flag[v] = 1; x->cnt++; over = 0; }
    }
    free(rml);
    free(flag);
    x->ref = vpl;
    return 0;
}

/* initialize: vplist[v] = get_vertex_degree(v), rmlist[v] = flaglist[v] = false */
static int k_init(const wl_kernel *k, wl_wgen *ws, gms_error *err)
{
    gb *s = GB_S(k);
    gb_w *w = (gb_w *)ws;
    wl_warp *x = &ws->w;
    uint64_t val[32];
    WL_GEN_BEGIN(&ws->g)
    uint32_t m = gb_tid(w, s->tpb, s->g.nv);
    uint8_t d = gb_ld(s, w, 0x30, m, GB_DL, 8, w->v, w->ri);
    WL_TLANES(x, m, l, t) val[l] = GB_U64(s, GB_DL)[w->v[l]];
    gb_st(s, w, 0x38, m, VPL, 4, w->v, val, w->ri, d);
    WL_TLANES(x, m, l, t) val[l] = 0;
    gb_st(s, w, 0x40, m, RML, 1, w->v, val, w->ri, GMS_REG_NONE);
    gb_st(s, w, 0x48, m, FLAG, 1, w->v, val, w->ri, GMS_REG_NONE);
    wl_exit_at(x, WL_PC_END, x->live);
    WL_GEN_END(&ws->g);
    (void)err;
}

static int k_1(const wl_kernel *k, wl_wgen *ws, gms_error *err)
{
    gb *s = GB_S(k);
    gb_w *w = (gb_w *)ws;
    wl_warp *x = &ws->w;
    uint32_t *vpl = GB_U32(s, VPL);
    uint8_t *rml = GB_U8(s, RML);
    uint64_t dst[32], val[32];
    WL_GEN_BEGIN(&ws->g)
    {
        w->act = gb_tid_flag(s, w, FLAG);
        w->maxn = gb_ranges(s, w, 0x48, w->act);
    }
    for (w->it = 0; w->it < w->maxn; w->it++) {
        uint32_t me = gb_edge(s, w, 0x58, w->act, dst), mw = 0;
        uint8_t rv = gb_ld(s, w, 0x70, me, RML, 1, dst, w->r3);
        WL_TLANES(x, me, l, t) if (!rml[dst[l]]) mw |= 1u << l;
        uint8_t c = wl_int_at(x, 0x78, me, rv, GMS_REG_NONE);
        wl_bra_at(x, 0x80, me, c);
        WL_TLANES(x, mw, l, t) vpl[dst[l]]--;
        gb_atom(s, w, 0x88, mw, VPL, dst, w->r3, GMS_REG_NONE);
        wl_bra_at(x, 0x90, w->act, w->r3);
        WL_GEN_YIELD(&ws->g);
    }
    WL_TLANES(x, w->act, l, t) val[l] = 0;
    gb_st(s, w, 0x98, w->act, FLAG, 1, w->v, val, w->ri, GMS_REG_NONE);
    wl_exit_at(x, WL_PC_END, x->live);
    WL_GEN_END(&ws->g);
    (void)err;
}

static int k_2(const wl_kernel *k, wl_wgen *ws, gms_error *err)
{
    gb *s = GB_S(k);
    gb_w *w = (gb_w *)ws;
    wl_warp *x = &ws->w;
    kc_x *kx = s->x;
    uint64_t val[32], z[32] = {0};
    WL_GEN_BEGIN(&ws->g)
    uint32_t m = gb_tid_ld(s, w, RML, 1), mk = 0, mr = 0;
    WL_TLANES(x, m, l, t) if (!GB_U8(s, RML)[w->v[l]]) mk |= 1u << l;
    uint8_t d = gb_ld(s, w, 0x48, mk, VPL, 4, w->v, w->ri);
    wl_bra_at(x, 0x58, mk, wl_int_at(x, 0x50, mk, d, GMS_REG_NONE));
    WL_TLANES(x, mk, l, t) if (GB_U32(s, VPL)[w->v[l]] < kx->k) { mr |= 1u << l; val[l] = 1; }
    gb_st(s, w, 0x60, mr, RML, 1, w->v, val, w->ri, GMS_REG_NONE);
    gb_st(s, w, 0x68, mr, FLAG, 1, w->v, val, w->ri, GMS_REG_NONE);
    WL_TLANES(x, mr, l, t) GB_U32(s, RMCNT)[0]++;
    gb_atom(s, w, 0x70, mr, RMCNT, z, GMS_REG_NONE, GMS_REG_NONE);
    gb_st1(s, w, 0x78, mr, OVER, 1, 0, 0, GMS_REG_NONE);
    wl_exit_at(x, WL_PC_END, x->live);
    WL_GEN_END(&ws->g);
    (void)err;
}

static int run(gb *s, gms_program *p, gms_error *err)
{
    (void)err;
    if (s->phase == 0) {
        GB_U32(s, RMCNT)[0] = 0;
        gb_h2d(p, s, RMCNT, 0, 4);
        gb_flag_set(p, s, OVER, 1);
        gb_launch(p, s, "initialize", k_init, gb_blocks(s, s->g.nv), NULL, 0);
        s->phase = 1;
    } else if (gb_flag_read(s, OVER)) {
        gb_d2h(p, s, RMCNT, 0, 4);
        gb_d2h(p, s, VPL, 0, 4 * s->g.nv);
        return 0;
    }
    gb_flag_set(p, s, OVER, 1);
    gb_launch(p, s, "kernel", k_1, gb_blocks(s, s->g.nv), NULL, 0);
    gb_launch(p, s, "kernel2", k_2, gb_blocks(s, s->g.nv), NULL, 0);
    gb_d2h(p, s, OVER, 0, 1);
    gms_prog_sync(p);
    return 1;
}

static void check(gb *s)
{
    kc_x *x = s->x;
    gb_check_u32(s, VPL, "vproplist", x->ref);
    gb_host_read(s, RMCNT, 0, 4);
    if (GB_U32(s, RMCNT)[0] != x->cnt) gb_mismatch(s, "remove_cnt", 0, GB_U32(s, RMCNT)[0], x->cnt);
}

static void fin(gb *s)
{
    kc_x *x = s->x;
    if (x) free(x->ref);
    free(x);
}

static const gb_algo algo = {"kcore", 5, names, bytes, setup, run, check, fin};
static const gms_wl_param params[] = {GB_PARAMS, {"k", "3", "the core number: vertices of remaining degree below k are removed"},
                                      {NULL, NULL, NULL}};
GB_WORKLOAD(gms_wl_gb_kcore, "kcore", algo, params,
            "GraphBIG k-core decomposition, topology-driven thread-centric with atomicSub/atomicAdd");
