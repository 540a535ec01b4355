/* barnes-hut: ForceCalculationKernel (lonestar_bh.c has the overview). THREADS5 threads per
 * block; each warp walks the tree together for its 32 consecutive bodies of the sorted order,
 * with one stack (node, pos) per warp in shared memory: lane 0 loads the next child pointer
 * and the child's position and mass into shared memory, every lane reads them back, and a
 * cell is opened unless all the warp's lanes find it far enough (__all(dist^2 >= dq[depth])).
 * From time step 1 on the velocity gets the half step of the acceleration's change. */
#include "workloads/lonestar_bh.h"
#include <math.h>
#include <stdio.h>

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

/* one warp's traversal for the bodies sorted k0 .. k0+31 (mask m) */
static void force_warp(bh *s, wl_warp *w, uint32_t m, uint64_t k0, const float *dq, uint8_t ri)
{
    uint64_t a[32];
    uint32_t wi = w->warp, jb = wi * BH_MAXDEPTH;
    int32_t bi[32];
    float p[3][32], acc[3][32];
    WL_LANES(m, l) { a[l] = bh_d_alias(s, BH_SORT) + 4 * (k0 + (uint64_t)l); bi[l] = s->sort[k0 + (uint64_t)l]; }
    uint8_t ri2 = wl_ldg(w, m, a, ri);
    WL_SH_LD(w, m, int32_t, bi[l]);
    for (int d = 0; d < 3; d++) {
        WL_LANES(m, l) {
            a[l] = d_pos(s, d) + 4ull * (uint64_t)bi[l];
            p[d][l] = (d == 0 ? s->px : d == 1 ? s->py : s->pz)[bi[l]];
            acc[d][l] = 0.0f;
        }
        wl_ldg(w, m, a, ri2);
        WL_SH_LD(w, m, float, p[d][l]);
    }
    /* push the root */
    sts_one(w, SH_NODE + 4 * jb, ri);
    sts_one(w, SH_POS + 4 * jb, ri);
    int32_t node[BH_MAXDEPTH], pos[BH_MAXDEPTH];
    int depth = 0;
    node[0] = (int32_t)s->nn;
    pos[0] = 0;
    const uint32_t top = w->pc;
    while (depth >= 0) {
        while (pos[depth] < 8) {
            w->pc = top;
            lds_all(w, m, SH_POS + 4 * (jb + (uint32_t)depth));
            /* lane 0: child pointer, then the child's data, cached in shared memory */
            lds_all(w, 1u, SH_NODE + 4 * (jb + (uint32_t)depth));
            int32_t n = s->child[8ll * node[depth] + pos[depth]];
            a[0] = s->d_child + 4 * (8ull * (uint64_t)node[depth] + (uint64_t)pos[depth]);
            uint8_t rn = wl_ldg(w, 1u, a, ri);
            WL_SH_LD(w, 1u, int32_t, n);
            pos[depth]++;
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
                depth = depth - 1 > 0 ? depth - 1 : 0;
                continue;
            }
            uint8_t r[3];
            for (int d = 0; d < 3; d++) {
                lds_all(w, m, SH_NX + 4 * (wi + (uint32_t)d * NW5));
                r[d] = wl_fp(w, m, ri2, GMS_REG_NONE, GMS_REG_NONE);
            }
            uint8_t t = wl_fp(w, m, r[0], r[0], GMS_REG_NONE);
            t = wl_fp(w, m, r[1], r[1], t);
            t = wl_fp(w, m, r[2], r[2], t);
            float nx = s->px[n], ny = s->py[n], nz = s->pz[n], nm = s->mass[n];
            float dx[32], dy[32], dz[32], tmp[32];
            int all = 1;
            WL_LANES(m, l) {
                dx[l] = nx - p[0][l]; dy[l] = ny - p[1][l]; dz[l] = nz - p[2][l];
                tmp[l] = dx[l] * dx[l] + dy[l] * dy[l] + dz[l] * dz[l];
                if (!(tmp[l] >= dq[depth])) all = 0;
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
                WL_LANES(m, l) if (n != bi[l]) mm |= 1u << l;
                if (mm) {
                    uint8_t u = wl_sfu(w, mm, wl_fp(w, mm, t, GMS_REG_NONE, GMS_REG_NONE));
                    lds_all(w, mm, SH_NX + 4 * (wi + 3u * NW5));
                    u = wl_fp(w, mm, u, u, GMS_REG_NONE);
                    u = wl_fp(w, mm, u, u, GMS_REG_NONE);
                    for (int d = 0; d < 3; d++) wl_fp(w, mm, r[d], u, GMS_REG_NONE);
                    WL_LANES(mm, l) {
                        float v = 1.0f / sqrtf(tmp[l] + s->epssq);
                        v = nm * v * v * v;
                        acc[0][l] += dx[l] * v;
                        acc[1][l] += dy[l] * v;
                        acc[2][l] += dz[l] * v;
                    }
                }
            } else {   /* push the cell */
                depth++;
                node[depth] = n;
                pos[depth] = 0;
                sts_one(w, SH_NODE + 4 * (jb + (uint32_t)depth), rn);
                sts_one(w, SH_POS + 4 * (jb + (uint32_t)depth), GMS_REG_NONE);
                wl_int(w, m, GMS_REG_NONE, GMS_REG_NONE);
            }
            wl_bra(w, m);
        }
        depth--;
    }
    w->pc = top + 60 * 16;
    float *accv[3] = {s->ax, s->ay, s->az}, *velv[3] = {s->vx, s->vy, s->vz};
    if (s->step > 0) {
        for (int d = 0; d < 3; d++) {
            WL_LANES(m, l) a[l] = bh_d_alias(s, BH_AX + d) + 4ull * (uint64_t)bi[l];
            uint8_t x = wl_ldg(w, m, a, ri2);
            WL_SH_LD(w, m, float, accv[d][bi[l]]);
            WL_LANES(m, l) a[l] = bh_d_alias(s, BH_VX + d) + 4ull * (uint64_t)bi[l];
            uint8_t v = wl_ldg(w, m, a, ri2);
            WL_SH_LD(w, m, float, velv[d][bi[l]]);
            WL_LANES(m, l) velv[d][bi[l]] += (acc[d][l] - accv[d][bi[l]]) * s->dthf;
            wl_stg(w, m, a, ri2, wl_fp(w, m, x, v, GMS_REG_NONE));
            WL_SH_ST(w, m, float, velv[d][bi[l]]);
        }
    }
    for (int d = 0; d < 3; d++) {
        WL_LANES(m, l) { a[l] = bh_d_alias(s, BH_AX + d) + 4ull * (uint64_t)bi[l]; accv[d][bi[l]] = acc[d][l]; }
        wl_stg(w, m, a, ri2, GMS_REG_NONE);
        WL_SH_ST(w, m, float, acc[d][l]);
    }
}

int bh_k_force(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    bh *s = k->st;
    uint64_t a[32];
    wl_warp W[NW5];
    uint8_t ri[NW5];
    float dq[BH_MAXDEPTH];
    int ok = s->maxdepth <= BH_MAXDEPTH;
    for (uint32_t wi = 0; wi < NW5; wi++) {
        wl_warp *w = &W[wi];
        wl_warp_begin(w, bt, k, block, wi);
        ri[wi] = wl_int(w, w->live, GMS_REG_NONE, GMS_REG_NONE);
        if (wi == 0) {   /* thread 0: step, maxdepth, dq per level */
            static const uint32_t off[3] = {BH_G_STEP, BH_G_MAXDEPTH, BH_G_RADIUS};
            for (int q = 0; q < 3; q++) {
                a[0] = s->d_glob + off[q];
                uint8_t v = wl_ldg(w, 1u, a, ri[0]);
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
                wl_stg(w, 1u, a, ri[0], GMS_REG_NONE);
                WL_SH_ST(w, 1u, int32_t, s->maxdepth);
            }
        }
        wl_bar(w);
        lds_all(w, w->live, 4);
    }
    dq[0] = s->radius * s->radius * s->itolsq;
    for (int i = 1; i < BH_MAXDEPTH; i++) dq[i] = dq[i - 1] * 0.25f;
    if (!ok) {
        if (!s->failed) {
            s->failed = 1;
            snprintf(s->fail, sizeof s->fail, "the tree is %d levels deep, more than MAXDEPTH %d (errd)", (int)s->maxdepth,
                     BH_MAXDEPTH);
        }
        for (uint32_t wi = 0; wi < NW5; wi++) wl_exit(&W[wi], W[wi].live);
        (void)err;
        return 0;
    }
    for (uint32_t wi = 0; wi < NW5; wi++) {   /* copies of dq per warp */
        wl_warp *w = &W[wi];
        uint32_t m = w->live & ((1u << BH_MAXDEPTH) - 1);
        WL_LANES(m, l) a[l] = SH_DQ + 4ull * (uint64_t)l;
        uint8_t v = wl_ld(w, m, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE);
        WL_LANES(m, l) a[l] = SH_DQ + 4ull * (wi * BH_MAXDEPTH + (uint64_t)l);
        wl_st(w, m, GMS_MEM_ST_SHARED, 4, a, GMS_REG_NONE, v);
        wl_bar(w);
    }
    uint64_t stride = (uint64_t)BH_T5 * k->grid.x;
    for (uint32_t wi = 0; wi < NW5; wi++) {
        wl_warp *w = &W[wi];
        const uint32_t loop = w->pc;
        for (uint64_t k0 = block * BH_T5 + wi * 32; k0 < s->nb; k0 += stride) {
            w->pc = loop;
            uint32_t m = 0;
            WL_LANES(w->live, l) if (k0 + (uint64_t)l < s->nb) m |= 1u << l;
            force_warp(s, w, m, k0, dq, ri[wi]);
            wl_bra(w, w->live);
        }
        wl_exit(w, w->live);
    }
    (void)err;
    return 0;
}
