/* BARNES-HUT: LonestarGPU's bh (Burtscher & Pingali, CUDA BarnesHut v1.1): `timesteps` steps
 * of an n-body simulation of `nbodies` bodies, each step six kernels on grids of factor x SMs
 * blocks (the source's THREADSn / FACTORn, lonestar_bh.h):
 *   BoundingBoxKernel       grid-stride min/max of the positions, a shared tree, per-block
 *                           results, atomicInc on blkcnt; the last block combines them and
 *                           creates the root cell
 *   TreeBuildingKernel      each thread inserts its bodies: walk to a leaf slot, lock it with
 *                           atomicCAS(-2), insert, or split with new cells from atomicSub on
 *                           bottom, __threadfence, release; __syncthreads each round
 *   SummarizationKernel     cells bottom-up: centre of mass and body count, spinning on
 *                           children not yet ready (mass < 0); children moved to the front
 *   SortKernel              cells top-down: start offsets, bodies in tree order (spins on start)
 *   ForceCalculationKernel  per warp one traversal stack in shared memory, lane 0 fetches each
 *                           node, __all decides opening; velocity half-step from step 1 on
 *   IntegrationKernel       leapfrog update of positions and velocities
 * plus InitializationKernel <<<1, 1>>> before the steps. Input: the source's Plummer model
 * generator (its LCG, seed `seed`; the suite seeds it with 7). Inter-thread waits are emitted
 * in one serial order (docs/workloads-lonestar.md); every step is checked against a CPU
 * reference (lonestar_bh_ref.c) and the last integration in verify(). */
#include "workloads/lonestar_bh.h"
#include "workloads/wl_clamp.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const gms_wl_param params[] = {
    {"nbodies", "300000", "bodies (LonestarGPU 2.0's run: bh 300000 10 0)"},
    {"timesteps", "10", "time steps"},
    {"sms", "15", "SMs the grids are sized for (blocks = FACTORn x sms; 15: GTX 480)"},
    {"scale", "1", "multiplies nbodies"},
    {"repeat", "1", "run InitializationKernel and the time steps N times"},
    {NULL, NULL, NULL},
};

static int sizes(const gms_wl_args *a, uint32_t *nb, uint32_t *nn, uint32_t *sms, gms_error *err)
{
    uint64_t v;
    /* 224: the arrays aliased into the child array (7 x nbodies rounded to 32) must end below
     * the first cell's children (8 x (nbodies + 1)), as the source requires */
    if (wl_clamp_size(a, "barnes-hut", "nbodies", 224, 1u << 26, &v, err)) return -1;
    if (v < 224)
        return gms_err(err, "workload barnes-hut: nbodies=%llu must be at least 224 (the arrays aliased into childl)",
                       (unsigned long long)v);
    if (gms_wl_check_range(a, "sms", 1, 1024, err)) return -1;
    *nb = (uint32_t)v;
    *sms = (uint32_t)gms_wl_u64(a, "sms");
    uint64_t n = 2 * v;
    if (n < 1024ull * *sms) n = 1024ull * *sms;
    n = (n + 31) & ~31ull;
    *nn = (uint32_t)(n - 1);
    return 0;
}

static uint64_t footprint(const gms_wl_args *a)
{
    gms_error e;
    uint32_t nb = 0, nn = 0, sms = 0;
    if (sizes(a, &nb, &nn, &sms, &e)) return 0;
    uint64_t n1 = (uint64_t)nn + 1;
    return 4 * (8 * n1 + 6 * n1 + 6ull * BH_F1 * sms) + BH_G_BYTES;
}

/* the source's drnd(): an LCG on 31 bits */
typedef struct bh_rnd { uint32_t a, b, x; } bh_rnd;
static void rnd_set(bh_rnd *r, uint32_t seed)
{
    r->a = 1;
    r->b = 0;
    r->x = (r->a * seed + r->b) & 0x7FFFFFFFu;
    r->a = (1103515245u * r->a) & 0x7FFFFFFFu;
    r->b = (1103515245u * r->b + 12345u) & 0x7FFFFFFFu;
}
static double rnd(bh_rnd *r)
{
    uint32_t last = r->x;
    r->x = (r->a * r->x + r->b) & 0x7FFFFFFFu;
    return (double)last / 2147483648.0;
}

static void plummer(bh *s, uint32_t seed)
{
    bh_rnd g;
    rnd_set(&g, seed);
    const double rsc = (3 * M_PI) / 16, vsc = sqrt(1.0 / rsc);
    for (uint32_t i = 0; i < s->nb; i++) {
        double x, y, z, sq, sc;
        s->mass[i] = (float)(1.0 / s->nb);
        double r = 1.0 / sqrt(pow(rnd(&g) * 0.999, -2.0 / 3.0) - 1);
        do {
            x = rnd(&g) * 2.0 - 1.0; y = rnd(&g) * 2.0 - 1.0; z = rnd(&g) * 2.0 - 1.0;
            sq = x * x + y * y + z * z;
        } while (sq > 1.0 || sq == 0.0);
        sc = rsc * r / sqrt(sq);
        s->px[i] = (float)(x * sc); s->py[i] = (float)(y * sc); s->pz[i] = (float)(z * sc);
        do {
            x = rnd(&g);
            y = rnd(&g) * 0.1;
        } while (y > x * x * pow(1 - x * x, 3.5));
        double v = x * sqrt(2.0 / sqrt(1 + r * r));
        do {
            x = rnd(&g) * 2.0 - 1.0; y = rnd(&g) * 2.0 - 1.0; z = rnd(&g) * 2.0 - 1.0;
            sq = x * x + y * y + z * z;
        } while (sq > 1.0 || sq == 0.0);
        sc = vsc * v / sqrt(sq);
        s->vx[i] = (float)(x * sc); s->vy[i] = (float)(y * sc); s->vz[i] = (float)(z * sc);
    }
}

static int create(const gms_wl_args *a, void **out, gms_error *err)
{
    uint32_t nb = 0, nn = 0, sms = 0;
    if (sizes(a, &nb, &nn, &sms, err) || gms_wl_check_range(a, "timesteps", 1, 100000, err) ||
        gms_wl_check_range(a, "repeat", 1, 10000, err))
        return -1;
    bh *s = gms_xcalloc(1, sizeof *s);
    s->nb = nb; s->nn = nn; s->sms = sms;
    s->steps = (uint32_t)gms_wl_u64(a, "timesteps");
    s->repeat = (uint32_t)gms_wl_u64(a, "repeat");
    s->inc = (nb + 31) & ~31u;
    s->dtime = 0.025f;
    s->dthf = s->dtime * 0.5f;
    s->epssq = (float)(0.05 * 0.05);
    s->itolsq = (float)(1.0f / (0.5 * 0.5));
    uint64_t n1 = (uint64_t)nn + 1;
    s->mass = wl_calloc(n1, 4); s->px = wl_calloc(n1, 4); s->py = wl_calloc(n1, 4); s->pz = wl_calloc(n1, 4);
    s->child = wl_calloc(8 * n1, 4); s->count = wl_calloc(n1, 4); s->start = wl_calloc(n1, 4);
    float **nbarr[] = {&s->vx, &s->vy, &s->vz, &s->ax, &s->ay, &s->az, &s->spx, &s->spy, &s->spz,
                       &s->ipx, &s->ipy, &s->ipz, &s->ivx, &s->ivy, &s->ivz, &s->iax, &s->iay, &s->iaz};
    for (size_t i = 0; i < sizeof nbarr / sizeof nbarr[0]; i++) *nbarr[i] = wl_calloc(nb, 4);
    s->sort = wl_calloc(nb, 4);
    for (int d = 0; d < 3; d++) { s->bmin[d] = wl_calloc((uint64_t)BH_F1 * sms, 4); s->bmax[d] = wl_calloc((uint64_t)BH_F1 * sms, 4); }
    s->seed = (uint32_t)(gms_wl_seed(a) & 0x7FFFFFFFu);
    plummer(s, s->seed);
    *out = s;
    return 0;
}

static float *posv(bh *s, int d) { return d == 0 ? s->px : d == 1 ? s->py : s->pz; }
static uint64_t d_pos(const bh *s, int d) { return d == 0 ? s->d_px : d == 1 ? s->d_py : s->d_pz; }

/* InitializationKernel <<<1, 1>>>: errd = 0, stepd = -1, maxdepthd = 1, blkcntd = 0 */
static int k_init(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    bh *s = k->st;
    wl_warp w;
    wl_warp_begin(&w, bt, k, block, 0);
    uint64_t a[32];
    uint8_t r = wl_int(&w, 1u, GMS_REG_NONE, GMS_REG_NONE);
    static const uint32_t off[4] = {BH_G_ERR, BH_G_STEP, BH_G_MAXDEPTH, BH_G_BLKCNT};
    const int32_t val[4] = {0, -1, 1, 0};
    for (int i = 0; i < 4; i++) {
        a[0] = s->d_glob + off[i];
        wl_stg(&w, 1u, a, r, GMS_REG_NONE);
        WL_SH_ST(&w, 1u, int32_t, val[i]);
    }
    s->err = 0; s->step = -1; s->maxdepth = 1; s->blkcnt = 0;
    wl_exit(&w, 1u);
    (void)err;
    return 0;
}

/* BoundingBoxKernel: THREADS1 threads per block; grid-stride scan, shared reduction */
static int k_bbox(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    bh *s = k->st;
    enum { NW = BH_T1 / 32 };
    wl_warp W[NW];
    uint64_t a[32];
    uint8_t ri[NW];
    float mn[3][BH_T1], mx[3][BH_T1];
    uint32_t grid = k->grid.x, inc = BH_T1 * grid;
    if (block == 0) {   /* the step's positions, for its check (lonestar_bh_ref.c) */
        memcpy(s->spx, s->px, 4ull * s->nb); memcpy(s->spy, s->py, 4ull * s->nb); memcpy(s->spz, s->pz, 4ull * s->nb);
    }
    for (uint32_t wi = 0; wi < NW; wi++) {
        wl_warp *w = &W[wi];
        wl_warp_begin(w, bt, k, block, wi);
        ri[wi] = wl_int(w, w->live, GMS_REG_NONE, GMS_REG_NONE);
        if (wi == 0) {   /* thread 0: minx[0] = posxd[0], ... */
            for (int d = 0; d < 3; d++) {
                a[0] = d_pos(s, d);
                uint8_t v = wl_ldg(w, 1u, a, ri[0]);
                WL_SH_LD(w, 1u, float, posv(s, d)[0]);
                a[0] = 4ull * (uint64_t)d * BH_T1;
                wl_st(w, 1u, GMS_MEM_ST_SHARED, 4, a, GMS_REG_NONE, v);
            }
        }
        wl_bar(w);
    }
    /* every thread starts from body 0, then scans its bodies */
    for (uint32_t wi = 0; wi < NW; wi++) {
        wl_warp *w = &W[wi];
        uint32_t m = w->live;
        for (int d = 0; d < 3; d++) {
            WL_LANES(m, l) a[l] = 4ull * (uint64_t)d * BH_T1;
            uint8_t v = wl_ld(w, m, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE);
            WL_LANES(m, l) { a[l] = 4ull * ((uint64_t)d * BH_T1 + wi * 32 + (uint64_t)l); mn[d][wi * 32 + l] = mx[d][wi * 32 + l] = posv(s, d)[0]; }
            wl_st(w, m, GMS_MEM_ST_SHARED, 4, a, GMS_REG_NONE, v);
            WL_LANES(m, l) a[l] += 4ull * 3 * BH_T1;
            wl_st(w, m, GMS_MEM_ST_SHARED, 4, a, GMS_REG_NONE, v);
        }
        uint32_t pc = w->pc;
        for (uint64_t j0 = wi * 32 + block * BH_T1; j0 < s->nb; j0 += inc) {
            w->pc = pc;
            uint32_t mm = 0;
            WL_LANES(m, l) if (j0 + (uint64_t)l < s->nb) mm |= 1u << l;
            for (int d = 0; d < 3; d++) {
                WL_LANES(mm, l) a[l] = d_pos(s, d) + 4 * (j0 + (uint64_t)l);
                uint8_t v = wl_ldg(w, mm, a, ri[wi]);
                WL_SH_LD(w, mm, float, posv(s, d)[j0 + (uint64_t)l]);
                WL_LANES(mm, l) {
                    float t = posv(s, d)[j0 + (uint64_t)l];
                    uint32_t i = wi * 32 + (uint32_t)l;
                    if (t < mn[d][i]) mn[d][i] = t;
                    if (t > mx[d][i]) mx[d][i] = t;
                }
                for (int h = 0; h < 2; h++) {   /* minx[i] = min(minx[i], tmp); maxx[i] likewise */
                    WL_LANES(mm, l) a[l] = 4ull * ((uint64_t)(d + 3 * h) * BH_T1 + wi * 32 + (uint64_t)l);
                    uint8_t o = wl_ld(w, mm, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE);
                    wl_st(w, mm, GMS_MEM_ST_SHARED, 4, a, GMS_REG_NONE, wl_fp(w, mm, o, v, GMS_REG_NONE));
                }
            }
            wl_int(w, m, ri[wi], GMS_REG_NONE);
            wl_bra(w, m);
        }
        w->pc = pc + 22 * 16;
    }
    /* reduction in shared memory */
    uint32_t rpc = W[0].pc > W[NW - 1].pc ? W[0].pc : W[NW - 1].pc;
    for (uint32_t j = BH_T1 / 2; j > 0; j >>= 1) {
        for (uint32_t wi = 0; wi < NW; wi++) {
            wl_warp *w = &W[wi];
            w->pc = rpc;
            wl_bar(w);
            uint32_t m = 0;
            WL_LANES(w->live, l) if (wi * 32 + (uint32_t)l < j) m |= 1u << l;
            if (m) {
                for (int d = 0; d < 6; d++) {
                    WL_LANES(m, l) a[l] = 4ull * ((uint64_t)d * BH_T1 + wi * 32 + (uint64_t)l + j);
                    uint8_t x = wl_ld(w, m, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE);
                    WL_LANES(m, l) a[l] -= 4ull * j;
                    uint8_t y = wl_ld(w, m, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE);
                    wl_st(w, m, GMS_MEM_ST_SHARED, 4, a, GMS_REG_NONE, wl_fp(w, m, x, y, GMS_REG_NONE));
                }
            }
            w->pc = rpc + 26 * 16;
            wl_bra(w, w->live);
        }
        for (uint32_t i = 0; i < j; i++)
            for (int d = 0; d < 3; d++) {
                if (mn[d][i + j] < mn[d][i]) mn[d][i] = mn[d][i + j];
                if (mx[d][i + j] > mx[d][i]) mx[d][i] = mx[d][i + j];
            }
    }
    /* thread 0: the block's result, then atomicInc; the last block combines */
    wl_warp *w = &W[0];
    w->pc = rpc + 28 * 16;
    uint8_t r0 = ri[0];
    for (int d = 0; d < 6; d++) {
        float v = d < 3 ? mn[d][0] : mx[d - 3][0];
        (d < 3 ? s->bmin[d] : s->bmax[d - 3])[block] = v;
        a[0] = (d < 3 ? s->d_bmin[d] : s->d_bmax[d - 3]) + 4 * block;
        wl_stg(w, 1u, a, r0, GMS_REG_NONE);
        WL_SH_ST(w, 1u, float, v);
    }
    wl_int(w, 1u, GMS_REG_NONE, GMS_REG_NONE);   /* __threadfence */
    uint32_t last = grid - 1, old = s->blkcnt;
    s->blkcnt = old >= last ? 0 : old + 1;
    a[0] = s->d_glob + BH_G_BLKCNT;
    uint8_t o = wl_atom(w, 1u, GMS_MEM_ATOM_GLOBAL, 4, a, r0, GMS_REG_NONE);
    WL_SH_ST(w, 1u, uint32_t, s->blkcnt);
    wl_pred(w, 1u, o, GMS_REG_NONE);
    if (old == last) {
        float cmin[3], cmax[3];
        for (int d = 0; d < 3; d++) { cmin[d] = mn[d][0]; cmax[d] = mx[d][0]; }
        uint32_t pc = w->pc;
        for (uint32_t j = 0; j <= last; j++) {
            w->pc = pc;
            for (int d = 0; d < 6; d++) {
                a[0] = (d < 3 ? s->d_bmin[d] : s->d_bmax[d - 3]) + 4ull * j;
                float v = (d < 3 ? s->bmin[d] : s->bmax[d - 3])[j];
                uint8_t x = wl_ldg(w, 1u, a, r0);
                WL_SH_LD(w, 1u, float, v);
                wl_fp(w, 1u, x, GMS_REG_NONE, GMS_REG_NONE);
                if (d < 3 && v < cmin[d]) cmin[d] = v;
                if (d >= 3 && v > cmax[d - 3]) cmax[d - 3] = v;
            }
            wl_bra(w, 1u);
        }
        w->pc = pc + 13 * 16;
        float t = fmaxf(cmax[0] - cmin[0], cmax[1] - cmin[1]);
        s->radius = fmaxf(t, cmax[2] - cmin[2]) * 0.5f;
        uint8_t rr = wl_fp(w, 1u, GMS_REG_NONE, GMS_REG_NONE, GMS_REG_NONE);
        a[0] = s->d_glob + BH_G_RADIUS;
        wl_stg(w, 1u, a, r0, rr);
        WL_SH_ST(w, 1u, float, s->radius);
        uint32_t n = s->nn;
        s->mass[n] = -1.0f; s->start[n] = 0;
        a[0] = s->d_mass + 4ull * n;
        wl_stg(w, 1u, a, r0, GMS_REG_NONE);
        WL_SH_ST(w, 1u, float, -1.0f);
        a[0] = s->d_start + 4ull * n;
        wl_stg(w, 1u, a, r0, GMS_REG_NONE);
        WL_SH_ST(w, 1u, int32_t, 0);
        for (int d = 0; d < 3; d++) {
            posv(s, d)[n] = (cmin[d] + cmax[d]) * 0.5f;
            a[0] = d_pos(s, d) + 4ull * n;
            wl_stg(w, 1u, a, r0, wl_fp(w, 1u, GMS_REG_NONE, GMS_REG_NONE, GMS_REG_NONE));
            WL_SH_ST(w, 1u, float, posv(s, d)[n]);
        }
        for (int i = 0; i < 8; i++) {
            s->child[8ull * n + (uint64_t)i] = -1;
            a[0] = s->d_child + 4ull * (8ull * n + (uint64_t)i);
            wl_stg(w, 1u, a, r0, GMS_REG_NONE);
            WL_SH_ST(w, 1u, int32_t, -1);
        }
        s->bottom = (int32_t)n;
        a[0] = s->d_glob + BH_G_BOTTOM;
        wl_stg(w, 1u, a, r0, GMS_REG_NONE);
        WL_SH_ST(w, 1u, int32_t, s->bottom);
        a[0] = s->d_glob + BH_G_STEP;
        uint8_t st = wl_ldg(w, 1u, a, r0);
        WL_SH_LD(w, 1u, int32_t, s->step);
        s->step++;
        wl_stg(w, 1u, a, r0, wl_int(w, 1u, st, GMS_REG_NONE));
        WL_SH_ST(w, 1u, int32_t, s->step);
    }
    for (uint32_t wi = 0; wi < NW; wi++) wl_exit(&W[wi], W[wi].live);
    (void)err;
    return 0;
}

/* IntegrationKernel: THREADS6 threads, grid-stride leapfrog */
static int k_integrate(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    bh *s = k->st;
    if (block == 0) {
        /* the force kernel is done: check this step, keep the inputs of this integration */
        bh_ref_check_step(s);
        size_t b = 4ull * s->nb;
        memcpy(s->ipx, s->px, b); memcpy(s->ipy, s->py, b); memcpy(s->ipz, s->pz, b);
        memcpy(s->ivx, s->vx, b); memcpy(s->ivy, s->vy, b); memcpy(s->ivz, s->vz, b);
        memcpy(s->iax, s->ax, b); memcpy(s->iay, s->ay, b); memcpy(s->iaz, s->az, b);
    }
    float *pos[3] = {s->px, s->py, s->pz}, *vel[3] = {s->vx, s->vy, s->vz}, *acc[3] = {s->ax, s->ay, s->az};
    uint64_t inc = (uint64_t)BH_T6 * k->grid.x, a[32];
    for (uint32_t wi = 0; wi < BH_T6 / 32; wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, k, block, wi);
        uint32_t m = w.live;
        uint8_t ri = wl_int(&w, m, GMS_REG_NONE, GMS_REG_NONE);
        uint32_t pc = w.pc;
        for (uint64_t i0 = block * BH_T6 + wi * 32; i0 < s->nb; i0 += inc) {
            w.pc = pc;
            uint32_t mm = 0;
            WL_LANES(m, l) if (i0 + (uint64_t)l < s->nb) mm |= 1u << l;
            uint8_t dv[3], vh[3];
            float fdv[3][32], fvh[3][32];
            for (int d = 0; d < 3; d++) {
                WL_LANES(mm, l) a[l] = bh_d_alias(s, BH_AX + d) + 4 * (i0 + (uint64_t)l);
                uint8_t x = wl_ldg(&w, mm, a, ri);
                WL_SH_LD(&w, mm, float, acc[d][i0 + (uint64_t)l]);
                dv[d] = wl_fp(&w, mm, x, GMS_REG_NONE, GMS_REG_NONE);
                WL_LANES(mm, l) fdv[d][l] = acc[d][i0 + (uint64_t)l] * s->dthf;
            }
            for (int d = 0; d < 3; d++) {
                WL_LANES(mm, l) a[l] = bh_d_alias(s, BH_VX + d) + 4 * (i0 + (uint64_t)l);
                uint8_t x = wl_ldg(&w, mm, a, ri);
                WL_SH_LD(&w, mm, float, vel[d][i0 + (uint64_t)l]);
                vh[d] = wl_fp(&w, mm, x, dv[d], GMS_REG_NONE);
                WL_LANES(mm, l) fvh[d][l] = vel[d][i0 + (uint64_t)l] + fdv[d][l];
            }
            for (int d = 0; d < 3; d++) {
                WL_LANES(mm, l) a[l] = d_pos(s, d) + 4 * (i0 + (uint64_t)l);
                uint8_t x = wl_ldg(&w, mm, a, ri);
                WL_SH_LD(&w, mm, float, pos[d][i0 + (uint64_t)l]);
                WL_LANES(mm, l) pos[d][i0 + (uint64_t)l] += fvh[d][l] * s->dtime;
                wl_stg(&w, mm, a, ri, wl_fp(&w, mm, vh[d], x, GMS_REG_NONE));
                WL_SH_ST(&w, mm, float, pos[d][i0 + (uint64_t)l]);
            }
            for (int d = 0; d < 3; d++) {
                WL_LANES(mm, l) { a[l] = bh_d_alias(s, BH_VX + d) + 4 * (i0 + (uint64_t)l); vel[d][i0 + (uint64_t)l] = fvh[d][l] + fdv[d][l]; }
                wl_stg(&w, mm, a, ri, wl_fp(&w, mm, vh[d], dv[d], GMS_REG_NONE));
                WL_SH_ST(&w, mm, float, vel[d][i0 + (uint64_t)l]);
            }
            wl_int(&w, m, ri, GMS_REG_NONE);
            wl_bra(&w, m);
        }
        w.pc = pc + 30 * 16;
        wl_exit(&w, m);
    }
    (void)err;
    return 0;
}

static void launch(gms_program *p, bh *s, const char *name, uint32_t factor, uint32_t threads, uint32_t regs,
                   uint32_t shmem, wl_fill_fn fn)
{
    wl_launch(p, name, wl_dim3(factor * s->sms, 1, 1), wl_dim3(threads, 1, 1), regs, shmem, fn, s, NULL, 0);
}

static int next(void *st, gms_program *p, gms_error *err)
{
    bh *s = st;
    if (s->rep == s->repeat) return 0;
    s->sh = p->shadow;
    uint64_t n1 = (uint64_t)s->nn + 1, nb4 = 4ull * s->nb;
    if (s->rep == 0 && s->st == 0) {
        s->d_child = gms_prog_alloc(p, 4 * 8 * n1, "childl");
        s->d_mass = gms_prog_alloc(p, 4 * n1, "massl");
        s->d_px = gms_prog_alloc(p, 4 * n1, "posxl");
        s->d_py = gms_prog_alloc(p, 4 * n1, "posyl");
        s->d_pz = gms_prog_alloc(p, 4 * n1, "poszl");
        s->d_count = gms_prog_alloc(p, 4 * n1, "countl");
        s->d_start = gms_prog_alloc(p, 4 * n1, "startl");
        static const char *const nmin[3] = {"minxl", "minyl", "minzl"}, *const nmax[3] = {"maxxl", "maxyl", "maxzl"};
        for (int d = 0; d < 3; d++) {
            s->d_bmax[d] = gms_prog_alloc(p, 4ull * BH_F1 * s->sms, nmax[d]);
            s->d_bmin[d] = gms_prog_alloc(p, 4ull * BH_F1 * s->sms, nmin[d]);
        }
        s->d_glob = gms_prog_alloc(p, BH_G_BYTES, "globals (errd, stepd, bottomd, maxdepthd, blkcntd, radiusd)");
    }
    if (s->st == 0) {
        /* each repetition runs from the same input, uploaded again, on the same allocations */
        if (s->rep > 0) plummer(s, s->seed);
        const float *up[7] = {s->mass, s->px, s->py, s->pz, s->vx, s->vy, s->vz};
        const uint64_t dst[7] = {s->d_mass, s->d_px, s->d_py, s->d_pz, bh_d_alias(s, BH_VX), bh_d_alias(s, BH_VY),
                                 bh_d_alias(s, BH_VZ)};
        for (int i = 0; i < 7; i++) {
            gms_prog_copy_h2d(p, dst[i], nb4);
            wl_sh_init(p, dst[i], up[i], nb4);
        }
    }
    if (s->st == 0) {
        wl_launch(p, "_Z20InitializationKernelv", wl_dim3(1, 1, 1), wl_dim3(1, 1, 1), 8, 0, k_init, s, NULL, 0);
    }
    launch(p, s, "_Z17BoundingBoxKernelv", BH_F1, BH_T1, 24, 6 * 4 * BH_T1, k_bbox);
    launch(p, s, "_Z18TreeBuildingKernelv", BH_F2, BH_T2, 32, 16, bh_k_tree);
    launch(p, s, "_Z19SummarizationKernelv", BH_F3, BH_T3, 28, 4 + 4 * 8 * BH_T3, bh_k_summarize);
    launch(p, s, "_Z10SortKernelv", BH_F4, BH_T4, 16, 4, bh_k_sort);
    wl_launch_gen(p, "_Z22ForceCalculationKernelv", wl_dim3(BH_F5 * s->sms, 1, 1), wl_dim3(BH_T5, 1, 1), 40,
                  8 + 4 * (BH_T5 / 32) * (1 + 3 * BH_MAXDEPTH + 4), bh_step_force, bh_force_wsize(), s, NULL, 0);
    launch(p, s, "_Z17IntegrationKernelv", BH_F6, BH_T6, 20, 0, k_integrate);
    gms_prog_sync(p);
    if (++s->st == s->steps) {
        s->st = 0;
        if (++s->rep == s->repeat) {
            gms_prog_copy_d2h(p, s->d_px, nb4);
            gms_prog_copy_d2h(p, s->d_py, nb4);
            gms_prog_copy_d2h(p, s->d_pz, nb4);
            gms_prog_copy_d2h(p, bh_d_alias(s, BH_VX), nb4);
            gms_prog_copy_d2h(p, bh_d_alias(s, BH_VY), nb4);
            gms_prog_copy_d2h(p, bh_d_alias(s, BH_VZ), nb4);
        }
    }
    (void)err;
    return 1;
}

/* the last integration against the CPU's, from the same inputs; every step's tree, summaries,
 * sort and forces were checked when its integration began */
static int verify(void *st, gms_error *err)
{
    bh *s = st;
    if (s->failed) return gms_err(err, "workload barnes-hut: %s", s->fail);
    if (s->checked != (uint64_t)s->steps * s->repeat)
        return gms_err(err, "workload barnes-hut: %llu of %llu time steps checked", (unsigned long long)s->checked,
                       (unsigned long long)s->steps * s->repeat);
    const float *ip[3] = {s->ipx, s->ipy, s->ipz}, *iv[3] = {s->ivx, s->ivy, s->ivz}, *ia[3] = {s->iax, s->iay, s->iaz};
    const float *hp[3] = {s->px, s->py, s->pz}, *hv[3] = {s->vx, s->vy, s->vz};
    float *wp = wl_malloc(s->nb, 4), *wv = wl_malloc(s->nb, 4);
    static const char *const np[3] = {"posx", "posy", "posz"}, *const nv[3] = {"velx", "vely", "velz"};
    int rc = 0;
    for (int d = 0; d < 3 && !rc; d++) {
        for (uint32_t i = 0; i < s->nb; i++) {
            float dv = ia[d][i] * s->dthf, vh = iv[d][i] + dv;
            wp[i] = ip[d][i] + vh * s->dtime;
            wv[i] = vh + dv;
        }
        void *own;
        const float *got = wl_result(s->sh, d_pos(s, d), hp[d], s->nb, 4, &own);
        rc = wl_check_f32("barnes-hut", np[d], got, wp, s->nb, 1e-6, 1e-6, err);
        free(own);
        if (rc) break;
        got = wl_result(s->sh, bh_d_alias(s, BH_VX + d), hv[d], s->nb, 4, &own);
        rc = wl_check_f32("barnes-hut", nv[d], got, wv, s->nb, 1e-6, 1e-6, err);
        free(own);
    }
    free(wp);
    free(wv);
    return rc;
}

static void destroy(void *st)
{
    bh *s = st;
    if (!s) return;
    void *arr[] = {s->mass, s->px, s->py, s->pz, s->child, s->count, s->start, s->sumpre, s->parent, s->vx, s->vy, s->vz,
                   s->ax, s->ay, s->az, s->spx, s->spy, s->spz, s->ipx, s->ipy, s->ipz, s->ivx, s->ivy, s->ivz,
                   s->iax, s->iay, s->iaz, s->sort};
    for (size_t i = 0; i < sizeof arr / sizeof arr[0]; i++) free(arr[i]);
    for (int d = 0; d < 3; d++) { free(s->bmin[d]); free(s->bmax[d]); }
    free(s);
}

const gms_workload_ops gms_wl_barnes_hut = {
    .name = "barnes-hut", .suite = "lonestar", .domain = "n-body simulation", .ri = "I",
    .summary = "LonestarGPU BH: octree build, summarization, sort, force and integration per time step (BH)",
    .params = params, .create = create, .next = next, .verify = verify, .destroy = destroy,
    .footprint = footprint,
};
