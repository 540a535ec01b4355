/* barnes-hut: TreeBuildingKernel, SummarizationKernel and SortKernel (lonestar_bh.c has the
 * overview). Their threads wait for one another; the serial order the blocks are filled in
 * (blocks in launch order, a block's warps in order) decides what a thread finds:
 *   tree building: a block's warps take turns, one round (one pass of the source's while
 *     loop, ended by its __syncthreads) each; in a round the warp's lanes read the tree,
 *     their atomicCAS succeed in lane order (a lane whose slot an earlier lane locked fails
 *     and retries from the same cell next round), the winners insert or split together
 *     (atomicSub on bottom in lane order) and release;
 *   summarization / sort: a cell's results are computed for the whole kernel when block 0
 *     is filled (children before parents / parents before children: every result is then
 *     the source's, whatever the timing). A child (a parent's start) the thread reads is
 *     ready if the thread that writes it comes earlier in the fill order (an earlier warp,
 *     or the same warp in an earlier iteration); otherwise the thread's first read sees it
 *     not ready (mass -1 / start -1, as the tree build left it) and its poll, emitted once,
 *     finds it: that poll reads a value stored later in the fill order, so the shadow
 *     memory does not check it. A real GPU's number of failed polls is a race. */
#include "workloads/lonestar_bh.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static float *posv(bh *s, int d) { return d == 0 ? s->px : d == 1 ? s->py : s->pz; }
static uint64_t d_pos(const bh *s, int d) { return d == 0 ? s->d_px : d == 1 ? s->d_py : s->d_pz; }
static uint64_t d_ch(const bh *s, uint64_t slot) { return s->d_child + 4 * slot; }

/* ------------------------------------------------------------------ tree building */
typedef struct tb_thread {
    int64_t i;            /* current body */
    int skip;
    float p[3], r;
    int32_t n, j, depth, lmd;
} tb_thread;

/* thread 0 caches radius and the root's centre in shared memory; everyone reads them */
static void tb_prologue(bh *s, wl_warp *W, uint32_t nw, uint8_t *ri)
{
    uint64_t a[32];
    for (uint32_t wi = 0; wi < nw; wi++) {
        wl_warp *w = &W[wi];
        ri[wi] = wl_int(w, w->live, GMS_REG_NONE, GMS_REG_NONE);
        if (wi == 0) {
            a[0] = s->d_glob + BH_G_RADIUS;
            uint8_t v = wl_ldg(w, 1u, a, ri[0]);
            WL_SH_LD(w, 1u, float, s->radius);
            a[0] = 0;
            wl_st(w, 1u, GMS_MEM_ST_SHARED, 4, a, GMS_REG_NONE, v);
            for (int d = 0; d < 3; d++) {
                a[0] = d_pos(s, d) + 4ull * s->nn;
                v = wl_ldg(w, 1u, a, ri[0]);
                WL_SH_LD(w, 1u, float, posv(s, d)[s->nn]);
                a[0] = 4ull * (uint64_t)(d + 1);
                wl_st(w, 1u, GMS_MEM_ST_SHARED, 4, a, GMS_REG_NONE, v);
            }
        }
        wl_bar(w);
        for (int d = 0; d < 4; d++) {
            WL_LANES(w->live, l) a[l] = 4ull * (uint64_t)d;
            wl_ld(w, w->live, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE);
        }
    }
}

/* one split step of the lanes in `sm` (the do-while body), lane values computed first */
static int tb_split(bh *s, wl_warp *w, tb_thread *T, uint32_t sm, int32_t *ch, int32_t *patch, uint8_t ri,
                    gms_error *err)
{
    uint64_t a[32];
    int32_t cell[32], nold[32], jold[32], jc[32], after[32], nxt[32], chold[32];
    float pn[3][32], pc[3][32], pch[3][32];
    uint32_t pm = 0;   /* lanes whose patch != cell: link the new cell into its parent */
    WL_LANES(sm, l) {
        tb_thread *t = &T[l];
        t->depth++;
        cell[l] = --s->bottom;
        after[l] = s->bottom;
        if (cell[l] <= (int32_t)s->nb)
            return gms_err(err, "workload barnes-hut: the tree needs more than %u cells (errd = 1)", s->nn - s->nb);
        if (cell[l] > patch[l]) patch[l] = cell[l];
        float off[3] = {(float)(t->j & 1) * t->r, (float)((t->j >> 1) & 1) * t->r, (float)((t->j >> 2) & 1) * t->r};
        t->r *= 0.5f;
        nold[l] = t->n;
        jold[l] = t->j;
        int32_t c = cell[l];
        s->mass[c] = -1.0f;
        s->start[c] = -1;
        for (int d = 0; d < 3; d++) {
            pn[d][l] = posv(s, d)[t->n];
            pc[d][l] = posv(s, d)[c] = pn[d][l] - t->r + off[d];
        }
        for (int q = 0; q < 8; q++) s->child[8ll * c + q] = -1;
        if (patch[l] != c) { pm |= 1u << l; s->child[8ll * t->n + t->j] = c; }
        chold[l] = ch[l];
        for (int d = 0; d < 3; d++) pch[d][l] = posv(s, d)[ch[l]];
        jc[l] = bh_octant(pc[0][l], pc[1][l], pc[2][l], pch[0][l], pch[1][l], pch[2][l]);
        s->child[8ll * c + jc[l]] = ch[l];
        t->n = c;
        t->j = bh_octant(pc[0][l], pc[1][l], pc[2][l], t->p[0], t->p[1], t->p[2]);
        nxt[l] = s->child[8ll * c + t->j];
        ch[l] = nxt[l];
    }
    /* cell = atomicSub(&bottomd, 1) - 1 (lane order: the value each lane leaves) */
    WL_LANES(sm, l) a[l] = s->d_glob + BH_G_BOTTOM;
    uint8_t rc = wl_atom(w, sm, GMS_MEM_ATOM_GLOBAL, 4, a, ri, GMS_REG_NONE);
    WL_SH_ST(w, sm, int32_t, after[l]);
    wl_pred(w, sm, rc, GMS_REG_NONE);
    WL_LANES(sm, l) a[l] = s->d_mass + 4ull * (uint64_t)cell[l];
    wl_stg(w, sm, a, rc, GMS_REG_NONE);
    WL_SH_ST(w, sm, float, -1.0f);
    WL_LANES(sm, l) a[l] = s->d_start + 4ull * (uint64_t)cell[l];
    wl_stg(w, sm, a, rc, GMS_REG_NONE);
    WL_SH_ST(w, sm, int32_t, -1);
    for (int d = 0; d < 3; d++) {
        WL_LANES(sm, l) a[l] = d_pos(s, d) + 4ull * (uint64_t)nold[l];
        uint8_t v = wl_ldg(w, sm, a, ri);
        WL_SH_LD(w, sm, float, pn[d][l]);
        WL_LANES(sm, l) a[l] = d_pos(s, d) + 4ull * (uint64_t)cell[l];
        wl_stg(w, sm, a, rc, wl_fp(w, sm, v, GMS_REG_NONE, GMS_REG_NONE));
        WL_SH_ST(w, sm, float, pc[d][l]);
    }
    for (int q = 0; q < 8; q++) {
        WL_LANES(sm, l) a[l] = d_ch(s, 8ull * (uint64_t)cell[l] + (uint64_t)q);
        wl_stg(w, sm, a, rc, GMS_REG_NONE);
        WL_SH_ST(w, sm, int32_t, -1);
    }
    if (pm) {
        WL_LANES(pm, l) a[l] = d_ch(s, 8ull * (uint64_t)nold[l] + (uint64_t)jold[l]);
        wl_stg(w, pm, a, ri, rc);
        WL_SH_ST(w, pm, int32_t, cell[l]);
    }
    uint8_t j = GMS_REG_NONE;
    for (int d = 0; d < 3; d++) {
        WL_LANES(sm, l) a[l] = d_pos(s, d) + 4ull * (uint64_t)chold[l];
        uint8_t v = wl_ldg(w, sm, a, ri);
        WL_SH_LD(w, sm, float, pch[d][l]);
        j = wl_int(w, sm, v, j);
    }
    WL_LANES(sm, l) a[l] = d_ch(s, 8ull * (uint64_t)cell[l] + (uint64_t)jc[l]);
    wl_stg(w, sm, a, j, ri);
    WL_SH_ST(w, sm, int32_t, chold[l]);
    wl_int(w, sm, GMS_REG_NONE, GMS_REG_NONE);
    WL_LANES(sm, l) a[l] = d_ch(s, 8ull * (uint64_t)cell[l] + (uint64_t)T[l].j);
    wl_ldg(w, sm, a, rc);
    WL_SH_LD(w, sm, int32_t, nxt[l]);
    wl_bra(w, sm);
    return 0;
}

/* one round of warp w: walk, lock, insert or split, release */
static int tb_round(bh *s, wl_warp *w, tb_thread *T, uint32_t m, uint32_t inc, uint8_t ri, gms_error *err)
{
    uint64_t a[32];
    int32_t ch[32];
    const uint32_t top = 0x100;
    w->pc = top;
    uint32_t sk = 0;
    WL_LANES(m, l) if (T[l].skip) sk |= 1u << l;
    if (sk) {   /* new body: start at the root */
        for (int d = 0; d < 3; d++) {
            WL_LANES(sk, l) a[l] = d_pos(s, d) + 4ull * (uint64_t)T[l].i;
            wl_ldg(w, sk, a, ri);
            WL_SH_LD(w, sk, float, posv(s, d)[T[l].i]);
        }
        WL_LANES(sk, l) {
            tb_thread *t = &T[l];
            t->skip = 0;
            for (int d = 0; d < 3; d++) t->p[d] = posv(s, d)[t->i];
            t->n = (int32_t)s->nn;
            t->depth = 1;
            t->r = s->radius;
            t->j = bh_octant(s->px[s->nn], s->py[s->nn], s->pz[s->nn], t->p[0], t->p[1], t->p[2]);
        }
        wl_int(w, sk, GMS_REG_NONE, GMS_REG_NONE);
        wl_int(w, sk, GMS_REG_NONE, GMS_REG_NONE);
    }
    w->pc = top + 0x80;
    WL_LANES(m, l) { a[l] = d_ch(s, 8ull * (uint64_t)T[l].n + (uint64_t)T[l].j); ch[l] = s->child[8ll * T[l].n + T[l].j]; }
    uint8_t rch = wl_ldg(w, m, a, ri);
    WL_SH_LD(w, m, int32_t, ch[l]);
    /* follow the path to a leaf slot */
    const uint32_t fpc = w->pc;
    for (;;) {
        uint32_t fm = 0;
        WL_LANES(m, l) if (ch[l] >= (int32_t)s->nb) fm |= 1u << l;
        w->pc = fpc;
        wl_pred(w, m, rch, GMS_REG_NONE);
        wl_bra(w, m);
        if (!fm) break;
        WL_LANES(fm, l) { tb_thread *t = &T[l]; t->n = ch[l]; t->depth++; t->r *= 0.5f; }
        uint8_t j = GMS_REG_NONE;
        for (int d = 0; d < 3; d++) {
            WL_LANES(fm, l) a[l] = d_pos(s, d) + 4ull * (uint64_t)T[l].n;
            uint8_t v = wl_ldg(w, fm, a, rch);
            WL_SH_LD(w, fm, float, posv(s, d)[T[l].n]);
            j = wl_int(w, fm, v, j);
        }
        WL_LANES(fm, l) {
            tb_thread *t = &T[l];
            t->j = bh_octant(s->px[t->n], s->py[t->n], s->pz[t->n], t->p[0], t->p[1], t->p[2]);
            a[l] = d_ch(s, 8ull * (uint64_t)t->n + (uint64_t)t->j);
            ch[l] = s->child[8ll * t->n + t->j];
        }
        rch = wl_ldg(w, fm, a, wl_int(w, fm, j, GMS_REG_NONE));
        WL_SH_LD(w, fm, int32_t, ch[l]);
    }
    w->pc = top + 0x200;
    uint32_t cm = 0;   /* lanes whose slot is not locked: atomicCAS(&childd[locked], ch, -2) */
    WL_LANES(m, l) if (ch[l] != -2) cm |= 1u << l;
    uint32_t win = 0;
    if (cm) {
        int32_t left[32];
        WL_LANES(cm, l) {
            int64_t slot = 8ll * T[l].n + T[l].j;
            a[l] = d_ch(s, (uint64_t)slot);
            if (s->child[slot] == ch[l]) { win |= 1u << l; s->child[slot] = -2; }
            left[l] = s->child[slot];
        }
        uint8_t o = wl_atom(w, cm, GMS_MEM_ATOM_GLOBAL, 4, a, ri, rch);
        WL_SH_ST(w, cm, int32_t, left[l]);
        wl_pred(w, cm, o, rch);
        wl_bra(w, cm);
    }
    uint32_t ins = 0, spl = 0;
    WL_LANES(win, l) { if (ch[l] == -1) ins |= 1u << l; else spl |= 1u << l; }
    if (ins) {   /* childd[locked] = i */
        WL_LANES(ins, l) { int64_t slot = 8ll * T[l].n + T[l].j; a[l] = d_ch(s, (uint64_t)slot); s->child[slot] = (int32_t)T[l].i; }
        wl_stg(w, ins, a, ri, ri);
        WL_SH_ST(w, ins, int32_t, (int32_t)T[l].i);
    }
    if (spl) {
        int32_t patch[32], locked[32];
        WL_LANES(spl, l) { patch[l] = -1; locked[l] = 8 * T[l].n + T[l].j; }
        const uint32_t spc = top + 0x280;
        uint32_t sm = spl;
        while (sm) {
            w->pc = spc;
            if (tb_split(s, w, T, sm, ch, patch, ri, err)) return -1;
            uint32_t nm = 0;
            WL_LANES(sm, l) if (ch[l] >= 0) nm |= 1u << l;
            sm = nm;
        }
        w->pc = top + 0x500;
        WL_LANES(spl, l) { a[l] = d_ch(s, 8ull * (uint64_t)T[l].n + (uint64_t)T[l].j); s->child[8ll * T[l].n + T[l].j] = (int32_t)T[l].i; }
        wl_stg(w, spl, a, ri, ri);
        WL_SH_ST(w, spl, int32_t, (int32_t)T[l].i);
        wl_int(w, spl, GMS_REG_NONE, GMS_REG_NONE);   /* __threadfence */
        WL_LANES(spl, l) { a[l] = d_ch(s, (uint64_t)locked[l]); s->child[locked[l]] = patch[l]; }
        wl_stg(w, spl, a, ri, ri);
        WL_SH_ST(w, spl, int32_t, patch[l]);
    }
    w->pc = top + 0x540;
    WL_LANES(win, l) {
        tb_thread *t = &T[l];
        if (t->depth > t->lmd) t->lmd = t->depth;
        t->i += inc;
        t->skip = 1;
    }
    if (win) wl_int(w, win, ri, GMS_REG_NONE);
    wl_bar(w);   /* __syncthreads(): throttle */
    wl_bra(w, m);
    return 0;
}

int bh_k_tree(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    bh *s = k->st;
    enum { NW = BH_T2 / 32 };
    wl_warp W[NW];
    uint8_t ri[NW];
    tb_thread T[BH_T2];
    uint32_t inc = BH_T2 * k->grid.x;
    for (uint32_t wi = 0; wi < NW; wi++) wl_warp_begin(&W[wi], bt, k, block, wi);
    tb_prologue(s, W, NW, ri);
    for (uint32_t t = 0; t < BH_T2; t++) {
        memset(&T[t], 0, sizeof T[t]);
        T[t].i = (int64_t)block * BH_T2 + t;
        T[t].skip = 1;
        T[t].lmd = 1;
    }
    for (;;) {
        int any = 0;
        for (uint32_t wi = 0; wi < NW; wi++) {
            uint32_t m = 0;
            WL_LANES(W[wi].live, l) if (T[wi * 32 + (uint32_t)l].i < (int64_t)s->nb) m |= 1u << l;
            if (!m) continue;
            any = 1;
            if (tb_round(s, &W[wi], &T[wi * 32], m, inc, ri[wi], err)) return -1;
        }
        if (!any) break;
    }
    /* atomicMax(&maxdepthd, localmaxdepth) */
    for (uint32_t wi = 0; wi < NW; wi++) {
        wl_warp *w = &W[wi];
        uint64_t a[32];
        int32_t left[32];
        w->pc = 0x700;
        WL_LANES(w->live, l) {
            a[l] = s->d_glob + BH_G_MAXDEPTH;
            if (T[wi * 32 + (uint32_t)l].lmd > s->maxdepth) s->maxdepth = T[wi * 32 + (uint32_t)l].lmd;
            left[l] = s->maxdepth;
        }
        wl_atom(w, w->live, GMS_MEM_ATOM_GLOBAL, 4, a, ri[wi], GMS_REG_NONE);
        WL_SH_ST(w, w->live, int32_t, left[l]);
        wl_exit(w, w->live);
    }
    return 0;
}

/* ------------------------------------------------------------------ summarization */
/* position of cell c in the fill order of the summarization kernel: (warp, iteration) */
static uint64_t sum_key(const bh *s, uint32_t c, uint32_t inc)
{
    uint32_t base = (uint32_t)s->bottom & ~31u, off = c - base, g = off % inc, it = off / inc;
    if (base + g < (uint32_t)s->bottom) it--;   /* its first cell was k + inc: iteration 0 */
    return ((uint64_t)(g / 32) << 32) | it;
}

/* the whole kernel's results, children before parents (lower cell numbers first): the order
 * of the additions is the source's for the readiness the fill order gives */
static void sum_compute(bh *s, uint32_t inc)
{
    for (uint32_t c = (uint32_t)s->bottom; c <= s->nn; c++) {
        uint64_t kc = sum_key(s, c, inc);
        int32_t *cs = &s->child[8ull * c];
        int32_t miss[8];
        int nm = 0, j = 0, cnt = 0;
        float cm = 0, px = 0, py = 0, pz = 0;
        for (int i = 0; i < 8; i++) {
            int32_t ch = cs[i];
            if (ch < 0) continue;
            if (i != j) { cs[i] = -1; cs[j] = ch; }
            if (ch >= (int32_t)s->nb && sum_key(s, (uint32_t)ch, inc) >= kc) miss[nm++] = ch;
            else {
                float m = s->mass[ch];
                if (ch >= (int32_t)s->nb) cnt += s->count[ch] - 1;
                cm += m; px += s->px[ch] * m; py += s->py[ch] * m; pz += s->pz[ch] * m;
            }
            j++;
        }
        cnt += j;
        while (nm > 0) {
            int32_t ch = miss[--nm];
            float m = s->mass[ch];
            cnt += s->count[ch] - 1;
            cm += m; px += s->px[ch] * m; py += s->py[ch] * m; pz += s->pz[ch] * m;
        }
        s->count[c] = cnt;
        float r = 1.0f / cm;
        s->px[c] = px * r; s->py[c] = py * r; s->pz[c] = pz * r;
        s->mass[c] = cm;
    }
}

/* the values the kernel read before it wrote them, per cell: kept between block fills */
typedef struct sum_cell { int32_t child[8]; float gx, gy, gz; } sum_cell;

int bh_k_summarize(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    bh *s = k->st;
    enum { NW = BH_T3 / 32 };
    uint32_t inc = BH_T3 * k->grid.x;
    if (block == 0) {
        /* the child slots before compaction: what the first pass reads */
        free(s->sumpre);
        uint64_t ncell = (uint64_t)s->nn + 1 - (uint64_t)s->bottom;
        s->sumpre = wl_malloc(ncell * 8, 4);
        memcpy(s->sumpre, &s->child[8ull * (uint64_t)s->bottom], ncell * 8 * 4);
        sum_compute(s, inc);
    }
    wl_warp W[NW];
    uint64_t a[32];
    for (uint32_t wi = 0; wi < NW; wi++) {
        wl_warp *w = &W[wi];
        wl_warp_begin(w, bt, k, block, wi);
        uint8_t ri = wl_int(w, w->live, GMS_REG_NONE, GMS_REG_NONE);
        if (wi == 0) {   /* bottom = bottomd in shared memory */
            a[0] = s->d_glob + BH_G_BOTTOM;
            uint8_t v = wl_ldg(w, 1u, a, ri);
            WL_SH_LD(w, 1u, int32_t, s->bottom);
            a[0] = 0;
            wl_st(w, 1u, GMS_MEM_ST_SHARED, 4, a, GMS_REG_NONE, v);
        }
        wl_bar(w);
        WL_LANES(w->live, l) a[l] = 0;
        wl_ld(w, w->live, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE);
        uint32_t base = (uint32_t)s->bottom & ~31u;
        uint64_t k0[32];
        WL_LANES(w->live, l) {
            k0[l] = base + block * BH_T3 + wi * 32 + (uint64_t)l;
            if (k0[l] < (uint64_t)s->bottom) k0[l] += inc;
        }
        const uint32_t top = w->pc;
        for (uint64_t it = 0;; it++) {
            uint32_t m = 0;
            uint64_t kk[32];
            WL_LANES(w->live, l) { kk[l] = k0[l] + it * inc; if (kk[l] <= s->nn) m |= 1u << l; }
            if (!m) break;
            w->pc = top;
            uint8_t cmr = wl_int(w, m, GMS_REG_NONE, GMS_REG_NONE);
            int32_t jn[32], miss[32][8], nmiss[32];
            WL_LANES(m, l) { jn[l] = 0; nmiss[l] = 0; }
            for (int i = 0; i < 8; i++) {
                uint32_t cm = 0, mv = 0, rc = 0, nr = 0;
                int32_t chv[32];
                WL_LANES(m, l) {
                    a[l] = d_ch(s, 8 * kk[l] + (uint64_t)i);
                    chv[l] = s->sumpre[8 * (kk[l] - (uint64_t)s->bottom) + (uint64_t)i];
                    if (chv[l] >= 0) cm |= 1u << l;
                }
                uint8_t rch = wl_ldg(w, m, a, ri);
                WL_SH_LD(w, m, int32_t, chv[l]);
                wl_pred(w, m, rch, GMS_REG_NONE);
                if (!cm) continue;
                WL_LANES(cm, l) if (i != jn[l]) mv |= 1u << l;
                if (mv) {   /* move children to the front */
                    WL_LANES(mv, l) a[l] = d_ch(s, 8 * kk[l] + (uint64_t)i);
                    wl_stg(w, mv, a, ri, GMS_REG_NONE);
                    WL_SH_ST(w, mv, int32_t, -1);
                    WL_LANES(mv, l) a[l] = d_ch(s, 8 * kk[l] + (uint64_t)jn[l]);
                    wl_stg(w, mv, a, ri, rch);
                    WL_SH_ST(w, mv, int32_t, chv[l]);
                }
                WL_LANES(cm, l) a[l] = 4ull * ((uint64_t)nmiss[l] * BH_T3 + wi * 32 + (uint64_t)l);
                wl_st(w, cm, GMS_MEM_ST_SHARED, 4, a, GMS_REG_NONE, rch);
                uint64_t key = ((uint64_t)(block * NW + wi) << 32) | it;
                float mval[32];
                WL_LANES(cm, l) {
                    int32_t ch = chv[l];
                    a[l] = s->d_mass + 4ull * (uint64_t)ch;
                    int ready = ch < (int32_t)s->nb || sum_key(s, (uint32_t)ch, inc) < key;
                    if (ready) { rc |= 1u << l; if (ch >= (int32_t)s->nb) nr |= 1u << l; mval[l] = s->mass[ch]; }
                    else { mval[l] = -1.0f; miss[l][nmiss[l]++] = ch; }
                    jn[l]++;
                }
                uint8_t rm = wl_ldg(w, cm, a, rch);
                WL_SH_LD(w, cm, float, mval[l]);
                wl_pred(w, cm, rm, GMS_REG_NONE);
                if (nr) {
                    WL_LANES(nr, l) a[l] = s->d_count + 4ull * (uint64_t)chv[l];
                    uint8_t c = wl_ldg(w, nr, a, rch);
                    WL_SH_LD(w, nr, int32_t, s->count[chv[l]]);
                    wl_int(w, nr, c, GMS_REG_NONE);
                }
                if (rc) {
                    for (int d = 0; d < 3; d++) {
                        WL_LANES(rc, l) a[l] = d_pos(s, d) + 4ull * (uint64_t)chv[l];
                        uint8_t v = wl_ldg(w, rc, a, rch);
                        WL_SH_LD(w, rc, float, posv(s, d)[chv[l]]);
                        wl_fp(w, rc, v, rm, GMS_REG_NONE);
                    }
                    wl_fp(w, rc, rm, cmr, GMS_REG_NONE);
                }
            }
            /* poll the missing children, last first: each found ready at its poll (a value
             * stored later in the fill order: not checked by the shadow) */
            for (int q = 7; q >= 0; q--) {
                uint32_t pm = 0;
                WL_LANES(m, l) if (nmiss[l] > q) pm |= 1u << l;
                if (!pm) continue;
                WL_LANES(pm, l) a[l] = 4ull * ((uint64_t)q * BH_T3 + wi * 32 + (uint64_t)l);
                uint8_t c = wl_ld(w, pm, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE);
                WL_LANES(pm, l) a[l] = s->d_mass + 4ull * (uint64_t)miss[l][q];
                uint8_t rm = wl_ldg(w, pm, a, c);
                WL_LANES(pm, l) a[l] = s->d_count + 4ull * (uint64_t)miss[l][q];
                wl_ldg(w, pm, a, c);
                for (int d = 0; d < 3; d++) {
                    WL_LANES(pm, l) a[l] = d_pos(s, d) + 4ull * (uint64_t)miss[l][q];
                    wl_fp(w, pm, wl_ldg(w, pm, a, c), rm, GMS_REG_NONE);
                }
                wl_bra(w, pm);
            }
            /* countd[k], posxd[k].. , __threadfence, massd[k] */
            WL_LANES(m, l) a[l] = s->d_count + 4 * kk[l];
            wl_stg(w, m, a, ri, cmr);
            WL_SH_ST(w, m, int32_t, s->count[kk[l]]);
            uint8_t rcp = wl_sfu(w, m, cmr);
            for (int d = 0; d < 3; d++) {
                WL_LANES(m, l) a[l] = d_pos(s, d) + 4 * kk[l];
                wl_stg(w, m, a, ri, wl_fp(w, m, rcp, GMS_REG_NONE, GMS_REG_NONE));
                WL_SH_ST(w, m, float, posv(s, d)[kk[l]]);
            }
            wl_int(w, m, GMS_REG_NONE, GMS_REG_NONE);
            WL_LANES(m, l) a[l] = s->d_mass + 4 * kk[l];
            wl_stg(w, m, a, ri, cmr);
            WL_SH_ST(w, m, float, s->mass[kk[l]]);
            wl_bra(w, w->live);
        }
        wl_exit(w, w->live);
    }
    (void)err;
    return 0;
}

/* ------------------------------------------------------------------ sort */
/* position of cell c in the sort kernel's fill order: (warp, iteration) */
static uint64_t sort_key(const bh *s, uint32_t c, uint32_t dec)
{
    int64_t k0 = (int64_t)s->nn + 1 - dec;
    int64_t g = (((int64_t)c - k0) % dec + dec) % dec;
    int64_t it = (k0 + g - (int64_t)c) / dec;
    return ((uint64_t)(g / 32) << 32) | (uint64_t)it;
}

int bh_k_sort(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    bh *s = k->st;
    enum { NW = BH_T4 / 32 };
    uint32_t dec = BH_T4 * k->grid.x;
    if (block == 0) {
        /* the whole kernel's results, parents first; parent[] names the cell whose thread
         * sets each cell's start */
        free(s->parent);
        s->parent = wl_malloc((uint64_t)s->nn + 1, 4);
        for (uint32_t c = s->nn + 1; c-- > (uint32_t)s->bottom;) {
            int32_t start = s->start[c];
            for (int i = 0; i < 8; i++) {
                int32_t ch = s->child[8ull * c + (uint64_t)i];
                if (ch >= (int32_t)s->nb) { s->parent[ch] = (int32_t)c; s->start[ch] = start; start += s->count[ch]; }
                else if (ch >= 0) s->sort[start++] = ch;
            }
        }
        s->parent[s->nn] = -1;
    }
    uint64_t a[32];
    for (uint32_t wi = 0; wi < NW; wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, k, block, wi);
        uint8_t ri = wl_int(&w, w.live, GMS_REG_NONE, GMS_REG_NONE);
        if (wi == 0) {
            a[0] = s->d_glob + BH_G_BOTTOM;
            uint8_t v = wl_ldg(&w, 1u, a, ri);
            WL_SH_LD(&w, 1u, int32_t, s->bottom);
            a[0] = 0;
            wl_st(&w, 1u, GMS_MEM_ST_SHARED, 4, a, GMS_REG_NONE, v);
        }
        wl_bar(&w);
        WL_LANES(w.live, l) a[l] = 0;
        wl_ld(&w, w.live, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE);
        int64_t k0 = (int64_t)s->nn + 1 - dec + (int64_t)(block * BH_T4 + wi * 32);
        const uint32_t top = w.pc;
        for (int64_t it = 0;; it++) {
            uint32_t m = 0, nr = 0;
            int64_t kk[32];
            int32_t first[32];
            uint64_t key = ((uint64_t)(block * NW + wi) << 32) | (uint64_t)it;
            WL_LANES(w.live, l) {
                kk[l] = k0 + l - it * (int64_t)dec;
                if (kk[l] >= s->bottom) {
                    m |= 1u << l;
                    int32_t p = s->parent[kk[l]];
                    int ready = p < 0 || sort_key(s, (uint32_t)p, dec) < key;
                    first[l] = ready ? s->start[kk[l]] : -1;
                    if (!ready) nr |= 1u << l;
                }
            }
            if (!m) break;
            w.pc = top;
            WL_LANES(m, l) a[l] = s->d_start + 4ull * (uint64_t)kk[l];
            uint8_t st = wl_ldg(&w, m, a, ri);
            WL_SH_LD(&w, m, int32_t, first[l]);
            wl_pred(&w, m, st, GMS_REG_NONE);
            if (nr) {   /* not ready: the loop reads it again (a later store: not checked) */
                wl_bra(&w, nr);
                WL_LANES(nr, l) a[l] = s->d_start + 4ull * (uint64_t)kk[l];
                st = wl_ldg(&w, nr, a, ri);
                wl_pred(&w, nr, st, GMS_REG_NONE);
            }
            int32_t cur[32];
            WL_LANES(m, l) cur[l] = s->start[kk[l]];
            for (int i = 0; i < 8; i++) {
                uint32_t cc = 0, bb = 0;
                int32_t chv[32];
                WL_LANES(m, l) {
                    chv[l] = s->child[8ll * kk[l] + i];
                    a[l] = d_ch(s, 8ull * (uint64_t)kk[l] + (uint64_t)i);
                    if (chv[l] >= (int32_t)s->nb) cc |= 1u << l;
                    else if (chv[l] >= 0) bb |= 1u << l;
                }
                uint8_t rc = wl_ldg(&w, m, a, ri);
                WL_SH_LD(&w, m, int32_t, chv[l]);
                wl_pred(&w, m, rc, GMS_REG_NONE);
                if (cc) {   /* startd[ch] = start; start += countd[ch] */
                    WL_LANES(cc, l) a[l] = s->d_start + 4ull * (uint64_t)chv[l];
                    wl_stg(&w, cc, a, rc, st);
                    WL_SH_ST(&w, cc, int32_t, cur[l]);
                    WL_LANES(cc, l) a[l] = s->d_count + 4ull * (uint64_t)chv[l];
                    uint8_t c = wl_ldg(&w, cc, a, rc);
                    WL_SH_LD(&w, cc, int32_t, s->count[chv[l]]);
                    st = wl_int(&w, cc, st, c);
                    WL_LANES(cc, l) cur[l] += s->count[chv[l]];
                }
                if (bb) {   /* sortd[start++] = ch */
                    WL_LANES(bb, l) a[l] = bh_d_alias(s, BH_SORT) + 4ull * (uint64_t)cur[l];
                    wl_stg(&w, bb, a, st, rc);
                    WL_SH_ST(&w, bb, int32_t, chv[l]);
                    WL_LANES(bb, l) cur[l]++;
                    st = wl_int(&w, bb, st, GMS_REG_NONE);
                }
            }
            wl_int(&w, m, ri, GMS_REG_NONE);
            wl_bra(&w, m);
        }
        wl_exit(&w, w.live);
    }
    (void)err;
    return 0;
}
