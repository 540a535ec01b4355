/* PR (GraphBIG's PageRank): topology-driven, thread-centric pull PageRank. GraphBIG's GPU
 * suite of the version read (gpu_bench/) has no PageRank kernel; this follows the thread-
 * per-vertex style of its other topological kernels and the CPU benchmark's update: every
 * iteration, thread v sums rank[u] / degree[u] over its edges (u = edgelist[i], the degree
 * from degreelist) and writes rank_new[v] = (1 - d) / N + d * sum, d = 0.85; the two rank
 * arrays swap roles each iteration (no copy). `iterations` launches. */
#include "workloads/graphbig_util.h"
#include <stdlib.h>
#include <string.h>

enum { R0 = GB_FIRST, R1 };
static const char *const names[] = {"rank", "rank_new"};
#define DAMP 0.85f

typedef struct pr_x { float *ref; uint64_t iters; } pr_x;

static uint64_t bytes(int i, uint64_t nv, uint64_t ne, const gms_wl_args *a)
{
    (void)i;
    (void)ne;
    (void)a;
    return 4 * nv;
}

/* one iteration on the host, in the kernel's order of operations */
static void pr_step(const gms_graph *g, const float *in, float *out)
{
    float base = (1.0f - DAMP) / (float)g->nv;
    for (uint64_t v = 0; v < g->nv; v++) {
        float sum = 0;
        for (uint64_t e = g->off[v]; e < g->off[v + 1]; e++) {
            uint64_t u = g->adj[e];
            sum += in[u] / (float)(g->off[u + 1] - g->off[u]);
        }
        out[v] = base + DAMP * sum;
    }
}

static int setup(gb *s, const gms_wl_args *a, gms_error *err)
{
    pr_x *x = gms_xcalloc(1, sizeof *x);
    s->x = x;
    if (wl_param(a, "iterations", 1, 100000, &x->iters, err)) return -1;
    float *cur = gms_xmalloc(4 * s->g.nv), *nx = gms_xmalloc(4 * s->g.nv);
    for (uint64_t v = 0; v < s->g.nv; v++) cur[v] = 1.0f / (float)s->g.nv;
    for (uint64_t i = 0; i < x->iters; i++) {
        pr_step(&s->g, cur, nx);
        float *t = cur; cur = nx; nx = t;
    }
    free(nx);
    x->ref = cur;
    return 0;
}

/* i[0]: source array, i[1]: destination */
static int k_pr(const wl_kernel *k, wl_wgen *ws, gms_error *err)
{
    gb *s = GB_S(k);
    gb_w *w = (gb_w *)ws;
    wl_warp *x = &ws->w;
    int src = (int)k->arg[0], dstb = (int)k->arg[1];
    const float *in = GB_F32(s, src);
    const uint64_t *deg = GB_U64(s, GB_DL);
    uint64_t u[32];
    WL_GEN_BEGIN(&ws->g)
    w->act = gb_tid(w, s->tpb, s->g.nv);
    w->maxn = gb_ranges(s, w, 0x30, w->act);
    WL_TLANES(x, w->act, l, t) w->f[l] = 0;
    for (w->it = 0; w->it < w->maxn; w->it++) {
        uint32_t me = gb_edge(s, w, 0x40, w->act, u);
        uint8_t rr = gb_ld(s, w, 0x58, me, src, 4, u, w->r3);
        uint8_t rd = gb_ld(s, w, 0x60, me, GB_DL, 8, u, w->r3);
        uint8_t q = wl_sfu_at(x, 0x68, me, wl_fp_at(x, 0x70, me, rd, GMS_REG_NONE, GMS_REG_NONE));   /* I2F, RCP */
        w->r1 = wl_fp_at(x, 0x78, me, rr, q, w->r1);   /* FFMA into sum */
        WL_TLANES(x, me, l, t) w->f[l] = (float)w->f[l] + in[u[l]] / (float)deg[u[l]];
        wl_bra_at(x, 0x80, w->act, w->r3);
        WL_GEN_YIELD(&ws->g);
    }
    {
        uint64_t val[32];
        float base = (1.0f - DAMP) / (float)s->g.nv;
        WL_TLANES(x, w->act, l, t) {
            float r = base + DAMP * (float)w->f[l];
            uint32_t b;
            memcpy(&b, &r, 4);
            val[l] = b;
        }
        uint8_t f = wl_fp_at(x, 0x88, w->act, w->r1, GMS_REG_NONE, GMS_REG_NONE);
        gb_st(s, w, 0x90, w->act, dstb, 4, w->v, val, w->ri, f);
    }
    wl_exit_at(x, WL_PC_END, x->live);
    WL_GEN_END(&ws->g);
    (void)err;
}

static int run(gb *s, gms_program *p, gms_error *err)
{
    pr_x *x = s->x;
    (void)err;
    if (s->phase == 0) {
        for (uint64_t v = 0; v < s->g.nv; v++) GB_F32(s, R0)[v] = 1.0f / (float)s->g.nv;
        gb_h2d(p, s, R0, 0, 4 * s->g.nv);
        s->it = 0;
        s->phase = 1;
    }
    if ((uint64_t)s->it == x->iters) return 0;
    int64_t i[2] = {s->it % 2 ? R1 : R0, s->it % 2 ? R0 : R1};
    gb_launch(p, s, "pagerank_kernel", k_pr, gb_blocks(s, s->g.nv), i, 2);
    s->it++;
    if ((uint64_t)s->it == x->iters) gb_d2h(p, s, (int)i[1], 0, 4 * s->g.nv);
    gms_prog_sync(p);
    return 1;
}

static void check(gb *s)
{
    pr_x *x = s->x;
    int k = x->iters % 2 ? R1 : R0;
    if (s->bad[0]) return;
    gb_host_read(s, k, 0, 4 * s->g.nv);
    for (uint64_t v = 0; v < s->g.nv; v++) {
        float got = GB_F32(s, k)[v], want = x->ref[v];
        if (!(got == want)) { gb_mismatch(s, "rank", v, got, want); return; }
    }
}

static void fin(gb *s)
{
    pr_x *x = s->x;
    if (x) free(x->ref);
    free(x);
}

static const gb_algo algo = {"pr", 2, names, bytes, setup, run, check, fin};
static const gms_wl_param params[] = {GB_PARAMS, {"iterations", "10", "PageRank iterations"}, {NULL, NULL, NULL}};
GB_WORKLOAD(gms_wl_gb_pr, "pr", algo, params,
            "GraphBIG PageRank, topology-driven thread-centric pull (a thread per vertex)");
