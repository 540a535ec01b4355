/* barnes-hut: ForceCalculationKernel (lonestar_bh.c has the overview). THREADS5 threads per
 * block; each warp walks the tree together for its 32 consecutive bodies of the sorted order,
 * with one stack (node, pos) per warp in shared memory: lane 0 loads the next child pointer
 * and the child's position and mass into shared memory, every lane reads them back, and a
 * cell is opened unless all the warp's lanes find it far enough (__all(dist^2 >= dq[depth])).
 * From time step 1 on the velocity gets the half step of the acceleration's change. */
#include "workloads/lonestar_bh.h"
#include <math.h>
#include <stdio.h>
#include "workloads/wl_gen.h"

/* shared memory layout (bytes): step, maxdepth, ch[NW], pos[], node[], dq[], nx, ny, nz, nm */
enum { NW5 = BH_T5 / 32 };
#define SH_CH (8u)
#define SH_POS (SH_CH + 4u * NW5)
#define SH_NODE (SH_POS + 4u * BH_MAXDEPTH * NW5)
#define SH_DQ (SH_NODE + 4u * BH_MAXDEPTH * NW5)
#define SH_NX (SH_DQ + 4u * BH_MAXDEPTH * NW5)

static uint64_t d_pos(const bh *s, int d) { return d == 0 ? s->d_px : d == 1 ? s->d_py : s->d_pz; }

static void lds_all(wl_warp *w, uint32_t m, uint32_t addr)
{
    uint64_t a[32];
    WL_LANES(m, l) a[l] = addr;
    wl_ld(w, m, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE);
}
static void sts_one(wl_warp *w, uint32_t addr, uint8_t v)
{
    uint64_t a[32];
    a[0] = addr;
    wl_st(w, 1u, GMS_MEM_ST_SHARED, 4, a, GMS_REG_NONE, v);
}

/* one resumable warp (wl_gen.h): the traversal is generated a node at a time */
typedef struct f_warp {
    wl_wgen ws;
    uint64_t k0;
    uint32_t m, top;
    int depth;
    int32_t node[BH_MAXDEPTH], pos[BH_MAXDEPTH];
    int32_t bi[32];
    float p[3][32], acc[3][32];
    float dq[BH_MAXDEPTH];
    uint8_t ri, ri2;
} f_warp;

/* the sorted bodies k0 .. k0+31 (mask m): load them, push the root */
static void body_begin(bh *s, wl_warp *w, f_warp *g)
{
    uint64_t a[32];
    uint32_t m = g->m, jb = w->warp * BH_MAXDEPTH;
    WL_LANES(m, l) { a[l] = bh_d_alias(s, BH_SORT) + 4 * (g->k0 + (uint64_t)l); g->bi[l] = s->sort[g->k0 + (uint64_t)l]; }
    g->ri2 = wl_ldg(w, m, a, g->ri);
    WL_SH_LD(w, m, int32_t, g->bi[l]);
    for (int d = 0; d < 3; d++) {
        WL_LANES(m, l) {
            a[l] = d_pos(s, d) + 4ull * (uint64_t)g->bi[l];
            g->p[d][l] = (d == 0 ? s->px : d == 1 ? s->py : s->pz)[g->bi[l]];
            g->acc[d][l] = 0.0f;
        }
        wl_ldg(w, m, a, g->ri2);
        WL_SH_LD(w, m, float, g->p[d][l]);
    }
    sts_one(w, SH_NODE + 4 * jb, g->ri);
    sts_one(w, SH_POS + 4 * jb, g->ri);
    g->depth = 0;
    g->node[0] = (int32_t)s->nn;
    g->pos[0] = 0;
    g->top = w->pc;
}

/* the next child of the node on top of the stack */
static void visit(bh *s, wl_warp *w, f_warp *g)
{
    uint64_t a[32];
    uint32_t m = g->m, wi = w->warp, jb = wi * BH_MAXDEPTH;
    int depth = g->depth;
    uint8_t ri = g->ri;
    w->pc = g->top;
    lds_all(w, m, SH_POS + 4 * (jb + (uint32_t)depth));
    /* lane 0: child pointer, then the child's data, cached in shared memory */
    lds_all(w, 1u, SH_NODE + 4 * (jb + (uint32_t)depth));
    int32_t n = s->child[8ll * g->node[depth] + g->pos[depth]];
    a[0] = s->d_child + 4 * (8ull * (uint64_t)g->node[depth] + (uint64_t)g->pos[depth]);
    uint8_t rn = wl_ldg(w, 1u, a, ri);
    WL_SH_LD(w, 1u, int32_t, n);
    g->pos[depth]++;
    sts_one(w, SH_POS + 4 * (jb + (uint32_t)depth), wl_int(w, 1u, ri, GMS_REG_NONE));
    sts_one(w, SH_CH + 4 * wi, rn);
    wl_pred(w, 1u, rn, GMS_REG_NONE);
    if (n >= 0) {
        const float *src[4] = {s->px, s->py, s->pz, s->mass};
        const uint64_t dst[4] = {s->d_px, s->d_py, s->d_pz, s->d_mass};
        for (int q = 0; q < 4; q++) {
            a[0] = dst[q] + 4ull * (uint64_t)n;
            uint8_t v = wl_ldg(w, 1u, a, rn);
            WL_SH_LD(w, 1u, float, src[q][n]);
            sts_one(w, SH_NX + 4 * (wi + (uint32_t)q * NW5), v);
        }
    }
    wl_int(w, m, GMS_REG_NONE, GMS_REG_NONE);   /* __threadfence_block */
    lds_all(w, m, SH_CH + 4 * wi);
    if (n < 0) {   /* the remaining children are null too */
        wl_int(w, m, GMS_REG_NONE, GMS_REG_NONE);
        wl_bra(w, m);
        g->depth = depth - 1 > 0 ? depth - 1 : 0;
        return;
    }
    uint8_t r[3];
    for (int d = 0; d < 3; d++) {
        lds_all(w, m, SH_NX + 4 * (wi + (uint32_t)d * NW5));
        r[d] = wl_fp(w, m, g->ri2, GMS_REG_NONE, GMS_REG_NONE);
    }
    uint8_t t = wl_fp(w, m, r[0], r[0], GMS_REG_NONE);
    t = wl_fp(w, m, r[1], r[1], t);
    t = wl_fp(w, m, r[2], r[2], t);
    float nx = s->px[n], ny = s->py[n], nz = s->pz[n], nm = s->mass[n];
    float dx[32], dy[32], dz[32], tmp[32];
    int all = 1;
    WL_LANES(m, l) {
        dx[l] = nx - g->p[0][l]; dy[l] = ny - g->p[1][l]; dz[l] = nz - g->p[2][l];
        tmp[l] = dx[l] * dx[l] + dy[l] * dy[l] + dz[l] * dz[l];
        if (!(tmp[l] >= g->dq[depth])) all = 0;
    }
    int far = n < (int32_t)s->nb;
    if (!far) {
        lds_all(w, m, SH_DQ + 4 * (jb + (uint32_t)depth));
        wl_pred(w, m, t, GMS_REG_NONE);   /* VOTE.ALL */
        far = all;
    }
    wl_bra(w, m);
    if (far) {
        uint32_t mm = 0;
        WL_LANES(m, l) if (n != g->bi[l]) mm |= 1u << l;
        if (mm) {
            uint8_t u = wl_sfu(w, mm, wl_fp(w, mm, t, GMS_REG_NONE, GMS_REG_NONE));
            lds_all(w, mm, SH_NX + 4 * (wi + 3u * NW5));
            u = wl_fp(w, mm, u, u, GMS_REG_NONE);
            u = wl_fp(w, mm, u, u, GMS_REG_NONE);
            for (int d = 0; d < 3; d++) wl_fp(w, mm, r[d], u, GMS_REG_NONE);
            WL_LANES(mm, l) {
                float v = 1.0f / sqrtf(tmp[l] + s->epssq);
                v = nm * v * v * v;
                g->acc[0][l] += dx[l] * v;
                g->acc[1][l] += dy[l] * v;
                g->acc[2][l] += dz[l] * v;
            }
        }
    } else {   /* push the cell */
        g->depth = ++depth;
        g->node[depth] = n;
        g->pos[depth] = 0;
        sts_one(w, SH_NODE + 4 * (jb + (uint32_t)depth), rn);
        sts_one(w, SH_POS + 4 * (jb + (uint32_t)depth), GMS_REG_NONE);
        wl_int(w, m, GMS_REG_NONE, GMS_REG_NONE);
    }
    wl_bra(w, m);
}

/* velocity half step (from step 1 on) and the acceleration */
static void body_end(bh *s, wl_warp *w, f_warp *g)
{
    uint64_t a[32];
    uint32_t m = g->m;
    w->pc = g->top + 60 * 16;
    float *accv[3] = {s->ax, s->ay, s->az}, *velv[3] = {s->vx, s->vy, s->vz};
    if (s->step > 0) {
        for (int d = 0; d < 3; d++) {
            WL_LANES(m, l) a[l] = bh_d_alias(s, BH_AX + d) + 4ull * (uint64_t)g->bi[l];
            uint8_t x = wl_ldg(w, m, a, g->ri2);
            WL_SH_LD(w, m, float, accv[d][g->bi[l]]);
            WL_LANES(m, l) a[l] = bh_d_alias(s, BH_VX + d) + 4ull * (uint64_t)g->bi[l];
            uint8_t v = wl_ldg(w, m, a, g->ri2);
            WL_SH_LD(w, m, float, velv[d][g->bi[l]]);
            WL_LANES(m, l) velv[d][g->bi[l]] += (g->acc[d][l] - accv[d][g->bi[l]]) * s->dthf;
            wl_stg(w, m, a, g->ri2, wl_fp(w, m, x, v, GMS_REG_NONE));
            WL_SH_ST(w, m, float, velv[d][g->bi[l]]);
        }
    }
    for (int d = 0; d < 3; d++) {
        WL_LANES(m, l) { a[l] = bh_d_alias(s, BH_AX + d) + 4ull * (uint64_t)g->bi[l]; accv[d][g->bi[l]] = g->acc[d][l]; }
        wl_stg(w, m, a, g->ri2, GMS_REG_NONE);
        WL_SH_ST(w, m, float, g->acc[d][l]);
    }
}

/* thread 0 of the block: step, maxdepth, dq per level into shared memory */
static void prologue(bh *s, wl_warp *w, uint8_t ri, int ok)
{
    uint64_t a[32];
    static const uint32_t off[3] = {BH_G_STEP, BH_G_MAXDEPTH, BH_G_RADIUS};
    for (int q = 0; q < 3; q++) {
        a[0] = s->d_glob + off[q];
        uint8_t v = wl_ldg(w, 1u, a, ri);
        if (q == 0) WL_SH_LD(w, 1u, int32_t, s->step);
        else if (q == 1) WL_SH_LD(w, 1u, int32_t, s->maxdepth);
        else WL_SH_LD(w, 1u, float, s->radius);
        if (q < 2) sts_one(w, 4u * (uint32_t)q, v);
    }
    uint32_t pc = w->pc;
    for (int32_t i = 0; i < s->maxdepth && i < BH_MAXDEPTH; i++) {
        w->pc = pc;
        sts_one(w, SH_DQ + 4u * (uint32_t)i, wl_fp(w, 1u, GMS_REG_NONE, GMS_REG_NONE, GMS_REG_NONE));
        wl_bra(w, 1u);
    }
    w->pc = pc + 3 * 16;
    if (!ok) {
        a[0] = s->d_glob + BH_G_ERR;
        wl_stg(w, 1u, a, ri, GMS_REG_NONE);
        WL_SH_ST(w, 1u, int32_t, s->maxdepth);
    }
}

int bh_step_force(const wl_kernel *k, wl_wgen *ws, gms_error *err)
{
    bh *s = k->st;
    f_warp *g = (f_warp *)ws;
    wl_warp *w = &ws->w;
    uint64_t a[32];
    const int ok = s->maxdepth <= BH_MAXDEPTH;
    WL_GEN_BEGIN(&ws->g)
    g->ri = wl_int(w, w->live, GMS_REG_NONE, GMS_REG_NONE);
    if (w->warp == 0) prologue(s, w, g->ri, ok);
    wl_bar(w);
    lds_all(w, w->live, 4);
    g->dq[0] = s->radius * s->radius * s->itolsq;
    for (int i = 1; i < BH_MAXDEPTH; i++) g->dq[i] = g->dq[i - 1] * 0.25f;
    if (!ok) {
        if (!s->failed) {
            s->failed = 1;
            snprintf(s->fail, sizeof s->fail, "the tree is %d levels deep, more than MAXDEPTH %d (errd)", (int)s->maxdepth,
                     BH_MAXDEPTH);
        }
        wl_exit(w, w->live);
        return 0;
    }
    {   /* this warp's copy of dq */
        uint32_t m = w->live & ((1u << BH_MAXDEPTH) - 1);
        WL_LANES(m, l) a[l] = SH_DQ + 4ull * (uint64_t)l;
        uint8_t v = wl_ld(w, m, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE);
        WL_LANES(m, l) a[l] = SH_DQ + 4ull * (w->warp * BH_MAXDEPTH + (uint64_t)l);
        wl_st(w, m, GMS_MEM_ST_SHARED, 4, a, GMS_REG_NONE, v);
        wl_bar(w);
    }
    for (g->k0 = (uint64_t)w->bx * BH_T5 + w->warp * 32; g->k0 < s->nb; g->k0 += (uint64_t)BH_T5 * k->grid.x) {
        g->m = 0;
        WL_LANES(w->live, l) if (g->k0 + (uint64_t)l < s->nb) g->m |= 1u << l;
        body_begin(s, w, g);
        while (g->depth >= 0) {
            while (g->pos[g->depth] < 8) {
                visit(s, w, g);
                WL_GEN_YIELD(&ws->g);
            }
            g->depth--;
        }
        body_end(s, w, g);
        wl_bra(w, w->live);
    }
    wl_exit(w, w->live);
    (void)err;
    WL_GEN_END(&ws->g);
}

size_t bh_force_wsize(void) { return sizeof(f_warp); }
