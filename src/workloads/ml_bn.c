/* BN (UVMBench BN: the SJTU order-graph Bayesian-network structure learner, ordergraph.cu with
 * data45.cu: 45 binary nodes, 600 samples, ITER 100). Two kernels, 256 threads:
 *   genScoreKernel  once: one thread per candidate parent set (up to 4 parents out of
 *                   nodes-1, sizepernode of them) computes, for every node, the local score
 *                   sum over parent states of log-gamma terms of the counts Nij, scanning all
 *                   data rows (D_data[t1*NODE_N + ...])
 *   computeKernel   per iteration and node: one thread per parent set consistent with the
 *                   current order reads its local score (D_localscore[index]); shared-memory
 *                   tree (BAR per step) picks the block's best; thread 0 writes D_Score[bid],
 *                   the winning thread its parents into D_resP
 * The host MCMC over orders (genOrders swaps, findBestGraph, ConCore acceptance, the three best
 * graphs) is reproduced with a seeded generator in place of rand(); the data set is synthetic
 * (the suite's data45.cu is synthesized too) with the same shape. The suite's quirks are kept
 * (computeKernel enumerates combinations of posN+1 indices; D_findindex of the empty set reads
 * arr[-1], taken as 0 here). Loops over per-thread arrays (pre, parent, state, Nij) are kept in
 * registers (no local-memory traffic is emitted).
 * genScoreKernel is long: a warp holds about nodes x 16 x data x 6 instructions (45 x 600: ~2.6M,
 * ~100 MB); for timing runs use nodes <= 20 and data <= 200. */
#include "util/fnv.h"
#include "workloads/wl_buf.h"
#include "workloads/wl_clamp.h"
#include "util/rng.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define HIGHEST 3
#define STATE_N 2
#define TPB 256
#define MAXN 64

typedef struct bn {
    int N, D, iters, cpu;
    wl_pool *pool;         /* the wrapper's allocations across repetitions */
    int sizepernode;
    gms_rng rng;
    int32_t *data0;
    wl_buf udata, ls, lg, scores, parent, resp;
    uint8_t *orders, *preOrders, *preGraph, *graph, *bestGraph;   /* N*N; bestGraph HIGHEST*N*N */
    float preScore, score, maxScore[HIGHEST];
    int c;
    /* progress */
    int phase, it, node, allocated;
    float fscore;
    int total, blocknum, posN;
    int64_t launches;
    wl_shadow *sh;         /* functional verify runs: the host reads scores and resP from it */
    uint64_t out_hash;     /* FNV-1a of every computeKernel's scores and resP: verify compares
                              the kernel's outputs themselves (node_post uses only the best
                              block's, and a different parent set may not change a score) */
} bn;

static int Cnk(int n, int a)   /* D_C / C */
{
    int res = 1, at = a;
    for (int i = 0; i < at; i++) { res *= n; n--; }
    for (int i = 0; i < at; i++) { res /= a; a--; }
    return res;
}

static void findComb(int *comb, int l, int n)
{
    const int len = 4;
    if (l == 0) {
        for (int i = 0; i < len; i++) comb[i] = -1;
        return;
    }
    int sum = 0, k = 1;
    while (sum < l) sum += Cnk(n, k++);
    l -= sum - Cnk(n, --k);
    int low = 0, pos = 0;
    while (k > 1) {
        sum = 0;
        int s = 1;
        while (sum < l) sum += Cnk(n - s++, k - 1);
        l -= sum - Cnk(n - (--s), --k);
        low += s;
        comb[pos++] = low;
        n -= s;
    }
    comb[pos] = low + l;
    for (int i = pos + 1; i < 4; i++) comb[i] = -1;
}

static int findindex(const int *arr, int size, int N)
{
    int index = 0;
    for (int i = 1; i < size; i++) index += Cnk(N - 1, i);
    for (int i = 1; i <= size - 1; i++)
        for (int j = arr[i - 1] + 1; j <= arr[i] - 1; j++) index += Cnk(N - 1 - j, size - i);
    index += arr[size] - (size >= 1 ? arr[size - 1] : 0);
    return index;
}

static int brand(bn *s) { return (int)(gms_rng_next(&s->rng) >> 33); }

/* ---------------------------------------------------------------- genScoreKernel */
/* local score of parent set `id` for `node` */
static float local_score(const bn *s, const int32_t *data, const float *LG, const int *parent, int parN, int node)
{
    int N = s->N, pre[MAXN + 1] = {0}, state[5] = {0};
    int j = 1;
    for (int i = 0; i < N; i++) if (i != node) pre[j++] = i;
    float total = 0;
    int nstates = 1;
    for (int i = 0; i < parN; i++) nstates *= STATE_N;
    for (int t = 0; t < nstates; t++) {
        /* state t: binary digits of t (DincrS/Dincr counting) */
        for (int i = 0; i < parN; i++) state[i] = (t >> i) & 1;
        int Nij[STATE_N] = {0};
        for (int t1 = 0; t1 < s->D; t1++) {
            int flag = 1;
            for (int t2 = 0; t2 < parN; t2++)
                if (data[t1 * N + pre[parent[t2]]] != state[t2]) { flag = 0; break; }
            if (flag) Nij[data[t1 * N + node]]++;
        }
        float ls = 0;
        int tmp = STATE_N - 1;
        for (int t1 = 0; t1 < STATE_N; t1++) { ls += LG[Nij[t1]]; tmp += Nij[t1]; }
        ls -= LG[tmp];
        ls += LG[STATE_N - 1];
        total += ls;   /* D_localscore[index] += ls, starting from 0 */
    }
    return total;
}

/* genScoreKernel's warp, resumable (wl_gen.h): a thread loops over nodes x 2^parents x data */
typedef struct gs_warp {
    wl_wgen ws;
    int id[32], par[32][4], parN[32], pre[32][MAXN + 1], Nij[32][STATE_N];
    int node, maxst, st, t1;
    uint32_t m, ms;
    uint8_t ri;
    float acc[32];
} gs_warp;

static int k_genscore(const wl_kernel *k, wl_wgen *ws, gms_error *err)
{
    gs_warp *g = (gs_warp *)ws;
    wl_warp *x = &ws->w;
    bn *s = k->st;
    int N = s->N, D = s->D, spn = s->sizepernode;
    const int32_t *data = WL_I(s->udata);
    const float *LG = WL_F(s->lg);
    float *LS = WL_F(s->ls);
    WL_GEN_BEGIN(&ws->g)
    g->ri = wl_prologue_idx(x, x->live);
    g->m = 0;
    WL_TLANES(x, x->live, l, t) {
        g->id[l] = (int)(ws->block * TPB + t);
        if (g->id[l] >= spn) continue;
        g->m |= 1u << l;
        findComb(g->par[l], g->id[l], N - 1);
        g->parN[l] = 0;
        for (int i = 0; i < 4; i++) if (g->par[l][i] > 0) g->parN[l]++;
    }
    uint8_t q = wl_int_at(x, 0x18, x->live, g->ri, GMS_REG_NONE);
    wl_bra_at(x, 0x20, x->live, q);
    if (!g->m) { wl_exit_at(x, WL_PC_END, x->live); return 0; }
    for (int i = 0; i < 12; i++) wl_int_at(x, 0x28, g->m, g->ri, GMS_REG_NONE);   /* D_findComb */
    for (g->node = 0; g->node < N; g->node++) {
        WL_TLANES(x, g->m, l, t) {
            int j = 1;
            for (int i = 0; i < N; i++) if (i != g->node) g->pre[l][j++] = i;
        }
        wl_int_at(x, 0x30, g->m, g->ri, GMS_REG_NONE);
        wl_int_at(x, 0x38, g->m, g->ri, GMS_REG_NONE);
        WL_TLANES(x, g->m, l, t) g->acc[l] = LS[(int64_t)spn * g->node + g->id[l]];
        g->maxst = 1;
        WL_TLANES(x, g->m, l, t) if ((1 << g->parN[l]) > g->maxst) g->maxst = 1 << g->parN[l];
        for (g->st = 0; g->st < g->maxst; g->st++) {
            g->ms = 0;
            WL_TLANES(x, g->m, l, t) if (g->st < (1 << g->parN[l])) g->ms |= 1u << l;
            uint8_t c = wl_int_at(x, 0x40, g->m, g->ri, GMS_REG_NONE);
            wl_bra_at(x, 0x48, g->m, c);
            WL_TLANES(x, g->ms, l, t) for (int i = 0; i < STATE_N; i++) g->Nij[l][i] = 0;
            for (g->t1 = 0; g->t1 < D; g->t1++) {
                int t1 = g->t1, st = g->st, node = g->node;
                uint32_t ms = g->ms, match = ms;
                uint64_t a[32];
                for (int t2 = 0; t2 < 4 && match; t2++) {
                    uint32_t ld = 0, miss = 0;
                    int32_t dv[32];   /* the datum each lane loads, for the shadow memory */
                    WL_TLANES(x, match, l, t) {
                        if (t2 >= g->parN[l]) continue;
                        ld |= 1u << l;
                        int col = g->pre[l][g->par[l][t2]];
                        a[l] = s->udata.d + 4 * (uint64_t)(t1 * N + col);
                        dv[l] = data[t1 * N + col];
                        if (data[t1 * N + col] != ((st >> t2) & 1)) miss |= 1u << l;
                    }
                    if (!ld) break;
                    uint8_t v = wl_ldg_at(x, 0x50, ld, 4, a, g->ri);
                    WL_SH_LD(x, ld, int32_t, dv[l]);
                    wl_int_at(x, 0x58, ld, v, GMS_REG_NONE);
                    wl_bra_at(x, 0x60, ld, v);
                    match &= ~miss;
                }
                if (match) {
                    WL_TLANES(x, match, l, t) {
                        a[l] = s->udata.d + 4 * (uint64_t)(t1 * N + node);
                        g->Nij[l][data[t1 * N + node]]++;
                    }
                    uint8_t v = wl_ldg_at(x, 0x68, match, 4, a, g->ri);
                    WL_SH_LD(x, match, int32_t, data[t1 * N + node]);
                    wl_int_at(x, 0x70, match, v, GMS_REG_NONE);
                }
                uint8_t cc = wl_int_at(x, 0x78, ms, g->ri, GMS_REG_NONE);
                wl_bra_at(x, 0x80, ms, cc);
                WL_GEN_YIELD(&ws->g);
            }
            /* ls from LG; D_localscore[index] += ls */
            float ls[32];
            int tmp[32];
            uint64_t a[32], b[32];
            uint32_t ms = g->ms;
            WL_TLANES(x, ms, l, t) { ls[l] = 0; tmp[l] = STATE_N - 1; }
            for (int t1 = 0; t1 < STATE_N; t1++) {
                WL_TLANES(x, ms, l, t) {
                    a[l] = s->lg.d + 4 * (uint64_t)g->Nij[l][t1];
                    ls[l] += LG[g->Nij[l][t1]];
                    tmp[l] += g->Nij[l][t1];
                }
                uint8_t v = wl_ldg_at(x, 0x88, ms, 4, a, g->ri);
                WL_SH_LD(x, ms, float, LG[g->Nij[l][t1]]);
                wl_fp_at(x, 0x90, ms, v, GMS_REG_NONE, GMS_REG_NONE);
            }
            WL_TLANES(x, ms, l, t) {
                a[l] = s->lg.d + 4 * (uint64_t)tmp[l];
                b[l] = s->lg.d + 4 * (STATE_N - 1);
                ls[l] -= LG[tmp[l]];
                ls[l] += LG[STATE_N - 1];
            }
            uint8_t v1 = wl_ldg_at(x, 0x98, ms, 4, a, g->ri);
            WL_SH_LD(x, ms, float, LG[tmp[l]]);
            uint8_t v2 = wl_ldg_at(x, 0xa0, ms, 4, b, g->ri);
            WL_SH_LD(x, ms, float, LG[STATE_N - 1]);
            uint8_t f = wl_fp_at(x, 0xa8, ms, v1, v2, GMS_REG_NONE);
            float old[32];   /* D_localscore[index] before the +=, for the shadow memory */
            WL_TLANES(x, ms, l, t) {
                int64_t idx = (int64_t)spn * g->node + g->id[l];
                a[l] = s->ls.d + 4 * (uint64_t)idx;
                old[l] = g->acc[l];
                g->acc[l] += ls[l];
                LS[idx] = g->acc[l];
            }
            uint8_t o = wl_ldg_at(x, 0xb0, ms, 4, a, g->ri);
            WL_SH_LD(x, ms, float, old[l]);
            f = wl_fp_at(x, 0xb8, ms, o, f, GMS_REG_NONE);
            wl_stg_at(x, 0xc0, ms, 4, a, g->ri, f);
            WL_SH_ST(x, ms, float, g->acc[l]);
        }
    }
    wl_exit_at(x, WL_PC_END, x->live);
    WL_GEN_END(&ws->g);
}

/* ---------------------------------------------------------------- computeKernel */
/* per-thread part: best local score over the thread's parent sets (taskperthr = 1) */
static float ck_thread(const bn *s, const int *pre, int posN, int node, int total, unsigned id, int bestparent[4],
                       int64_t *index_out)
{
    int parent[5] = {-1, 0, 0, 0, 0};
    float bestls = -999999999999999.0f;
    for (int i = 0; i < 4; i++) bestparent[i] = 0;
    *index_out = -1;
    for (int i = 0; i < 1 && ((int)id + i) < total; i++) {
        findComb(parent, (int)id + i, posN);
        int parN;
        for (parN = 0; parN < 4; parN++) {
            if (parent[parN] < 0) break;
            if (pre[parent[parN]] > node) parent[parN] = pre[parent[parN]];
            else parent[parN] = pre[parent[parN]] + 1;
        }
        for (int tmp = parN; tmp > 0; tmp--) parent[tmp] = parent[tmp - 1];
        parent[0] = 0;
        int64_t index = findindex(parent, parN, s->N) + (int64_t)s->sizepernode * node;
        *index_out = index;
        if (index < 0 || index >= (int64_t)s->sizepernode * s->N) return bestls;   /* caller reports it */
        float ls = WL_F(s->ls)[index];
        if (ls > bestls) {
            bestls = ls;
            for (int tmp = 0; tmp < 4; tmp++) bestparent[tmp] = parent[tmp + 1];
        }
    }
    return bestls;
}

/* the block's reduction (one step), thread tid < i */
static void ck_step(float *lsb, unsigned tid, unsigned i)
{
    if (lsb[tid + i] > lsb[tid] && lsb[tid + i] < 0) {
        lsb[tid] = lsb[tid + i];
        lsb[tid + i] = (float)(tid + i);
    } else if (lsb[tid + i] < lsb[tid] && lsb[tid] < 0) {
        lsb[tid + i] = (float)tid;
    } else if (lsb[tid] > 0 && lsb[tid + i] < 0) {
        lsb[tid] = lsb[tid + i];
        lsb[tid + i] = (float)(tid + i);
    } else if (lsb[tid] < 0 && lsb[tid + i] > 0) {
        lsb[tid + i] = (float)tid;
    }
}

static int ck_chain(float *lsb)
{
    int t = 0;
    for (int i = 0; i < 7 && t < 128 && t >= 0; i++) t = (int)lsb[(int)powf(2.0f, (float)i) + t];
    return t;
}

static int ck_index_ok(const bn *s, int64_t index, gms_error *err)
{
    if (index < 0 || index >= (int64_t)s->sizepernode * s->N)
        return gms_err(err, "workload bn: local-score index %lld out of range", (long long)index);
    return 0;
}

static int ck_pre(const bn *s, int *pre)
{
    const uint8_t *par = s->parent.h;
    int posN = 1;
    for (int i = 0; i <= MAXN; i++) pre[i] = 0;
    for (int i = 0; i < s->N; i++) if (par[i] == 1) pre[posN++] = i;
    return posN;
}

static int k_compute(const wl_kernel *k, uint64_t blk, gms_block_trace *out, gms_error *err)
{
    bn *s = k->st;
    wl_warp W[WL_MAXW];
    uint32_t nw = wl_block_begin(out, TPB, W);
    wl_warps_sh(W, nw, k);
    int node = (int)k->arg[0], total = (int)k->arg[1], pre[MAXN + 1];
    int posN = ck_pre(s, pre);
    float lsb[TPB];
    int bp[TPB][4];
    uint64_t a[32], b[32];
    uint8_t ri[WL_MAXW];
    for (uint32_t w = 0; w < nw; w++) {
        wl_warp *x = &W[w];
        ri[w] = wl_prologue_idx(x, x->live);
        for (int i = 0; i < s->N; i++) {                  /* D_parent[i] == 1 */
            WL_TLANES(x, x->live, l, t) a[l] = s->parent.d + (uint64_t)i;
            uint8_t v = gms_emit_load(&x->e, 0x18, x->live, GMS_MEM_LD_GLOBAL, 1, a, ri[w]);
            WL_SH_LD(x, x->live, uint8_t, ((const uint8_t *)s->parent.h)[i]);
            wl_int_at(x, 0x20, x->live, v, GMS_REG_NONE);
        }
        uint32_t m = 0;
        int64_t ix[32];   /* each lane's local-score index, for the shadow memory */
        WL_TLANES(x, x->live, l, t) {
            unsigned id = (unsigned)(blk * TPB + t);
            int64_t index;
            lsb[t] = ck_thread(s, pre, posN, node, total, id, bp[t], &index);
            if (index >= 0) {
                if (ck_index_ok(s, index, err)) return -1;
                m |= 1u << l;
                ix[l] = index;
                a[l] = s->ls.d + 4 * (uint64_t)index;
            }
        }
        uint8_t q = wl_int_at(x, 0x28, x->live, ri[w], GMS_REG_NONE);
        wl_bra_at(x, 0x30, x->live, q);
        uint8_t v = GMS_REG_NONE;
        if (m) {
            for (int i = 0; i < 16; i++) wl_int_at(x, 0x38, m, ri[w], GMS_REG_NONE);   /* findComb, findindex */
            v = wl_ldg_at(x, 0x40, m, 4, a, ri[w]);
            WL_SH_LD(x, m, float, WL_F(s->ls)[ix[l]]);
            wl_fp_at(x, 0x48, m, v, GMS_REG_NONE, GMS_REG_NONE);
        }
        WL_TLANES(x, x->live, l, t) a[l] = 4 * (uint64_t)t;
        wl_sts_at(x, 0x50, x->live, 4, a, GMS_REG_NONE, v);
    }
    wl_bar_all(W, nw, 0x58);
    for (unsigned i = 128; i >= 1; i /= 2) {
        for (uint32_t w = 0; w < nw; w++) {
            wl_warp *x = &W[w];
            uint32_t m = 0;
            WL_TLANES(x, x->live, l, t) if (t < i) { m |= 1u << l; a[l] = 4 * (uint64_t)t; b[l] = 4 * (uint64_t)(t + i); }
            uint8_t q = wl_int_at(x, 0x60, x->live, ri[w], GMS_REG_NONE);
            wl_bra_at(x, 0x68, x->live, q);
            if (!m) continue;
            uint8_t v1 = wl_lds_at(x, 0x70, m, 4, b, GMS_REG_NONE);
            uint8_t v2 = wl_lds_at(x, 0x78, m, 4, a, GMS_REG_NONE);
            uint8_t p = wl_fp_at(x, 0x80, m, v1, v2, GMS_REG_NONE);
            wl_bra_at(x, 0x88, m, p);
            wl_sts_at(x, 0x90, m, 4, a, GMS_REG_NONE, v1);
            wl_sts_at(x, 0x98, m, 4, b, GMS_REG_NONE, v2);
        }
        for (unsigned t = 0; t < i; t++) ck_step(lsb, t, i);
        wl_bar_all(W, nw, 0xa0);
    }
    wl_bar_all(W, nw, 0xa8);
    float score = lsb[0];
    int t0 = ck_chain(lsb);
    lsb[0] = (float)t0;
    WL_F(s->scores)[blk] = score;
    {
        wl_warp *x = &W[0];
        a[0] = s->scores.d + 4 * blk;
        uint64_t z[32] = {0};
        uint8_t v = wl_lds_at(x, 0xb0, 1u, 4, z, GMS_REG_NONE);
        wl_stg_at(x, 0xb8, 1u, 4, a, ri[0], v);
        WL_SH_ST(x, 1u, float, score);
        for (int i = 0; i < 7; i++) {
            z[0] = 4;
            v = wl_lds_at(x, 0xc0, 1u, 4, z, v);
        }
        wl_sts_at(x, 0xc8, 1u, 4, z, GMS_REG_NONE, v);
    }
    wl_bar_all(W, nw, 0xd0);
    int win = (int)lsb[0];
    for (uint32_t w = 0; w < nw; w++) {
        wl_warp *x = &W[w];
        uint64_t z[32] = {0};
        uint8_t v = wl_lds_at(x, 0xd8, x->live, 4, z, GMS_REG_NONE);
        wl_int_at(x, 0xe0, x->live, v, GMS_REG_NONE);
        wl_bra_at(x, 0xe8, x->live, v);
        if (win >= 0 && (uint32_t)win / 32 == w && (uint32_t)win < TPB) {
            uint32_t ln = (uint32_t)win % 32;
            for (int i = 0; i < 4; i++) {
                WL_I(s->resp)[blk * 4 + (uint64_t)i] = bp[win][i];
                a[ln] = s->resp.d + 4 * (blk * 4 + (uint64_t)i);
                wl_stg_at(x, 0xf0, 1u << ln, 4, a, ri[w], GMS_REG_NONE);
                WL_SH_ST(x, 1u << ln, int32_t, bp[win][i]);
            }
        }
        wl_exit_at(x, WL_PC_END, x->live);
    }
    return 0;
}

/* plain CPU version of one computeKernel block */
static int cpu_compute_block(bn *s, int node, int total, unsigned bid, gms_error *err)
{
    int pre[MAXN + 1], posN = ck_pre(s, pre);
    float lsb[TPB];
    int bp[TPB][4];
    for (unsigned t = 0; t < TPB; t++) {
        int64_t index;
        lsb[t] = ck_thread(s, pre, posN, node, total, bid * TPB + t, bp[t], &index);
        if (index >= 0 && ck_index_ok(s, index, err)) return -1;
    }
    for (unsigned i = 128; i >= 1; i /= 2)
        for (unsigned t = 0; t < i; t++) ck_step(lsb, t, i);
    WL_F(s->scores)[bid] = lsb[0];
    int t0 = ck_chain(lsb);
    if (t0 >= 0 && t0 < TPB)
        for (int i = 0; i < 4; i++) WL_I(s->resp)[bid * 4 + (unsigned)i] = bp[t0][i];
    return 0;
}

/* ---------------------------------------------------------------- host program */
static void gen_orders(bn *s)
{
    int N = s->N, a = brand(s) % N, b = brand(s) % N;
    uint8_t *o = s->orders;
    for (int j = 0; j < N; j++) { uint8_t t = o[a * N + j]; o[a * N + j] = o[b * N + j]; o[b * N + j] = t; }
    for (int j = 0; j < N; j++) { uint8_t t = o[j * N + a]; o[j * N + a] = o[j * N + b]; o[j * N + b] = t; }
}

static void swapg(bn *s, int a, int b)
{
    int NN = s->N * s->N;
    for (int i = 0; i < NN; i++) {
        uint8_t t = s->bestGraph[a * NN + i];
        s->bestGraph[a * NN + i] = s->bestGraph[b * NN + i];
        s->bestGraph[b * NN + i] = t;
    }
}

static void iteration_end(bn *s)
{
    int N = s->N, NN = N * N;
    s->score = s->fscore;
    /* ConCore */
    float tmp = (float)log((brand(s) % 100000) / 100000.0);
    if (tmp < (s->score - s->preScore)) {
        memcpy(s->preOrders, s->orders, (size_t)NN);
        memcpy(s->preGraph, s->graph, (size_t)NN);
        s->preScore = s->score;
    }
    if (s->c < HIGHEST) {
        int fresh = 1;
        for (int j = 0; j < s->c; j++) if (s->maxScore[j] == s->preScore) fresh = 0;
        if (fresh) {
            s->maxScore[s->c] = s->preScore;
            memcpy(s->bestGraph + s->c * NN, s->preGraph, (size_t)NN);
            s->c++;
        }
    } else if (s->c == HIGHEST) {
        for (int j = 0; j < HIGHEST - 1; j++) {
            float mx = s->maxScore[j];
            int mi = j;
            for (int i = j + 1; i < HIGHEST; i++) if (s->maxScore[i] > mx) { mx = s->maxScore[i]; mi = i; }
            swapg(s, j, mi);
            float t = s->maxScore[j];
            s->maxScore[j] = mx;
            s->maxScore[mi] = t;
        }
        s->c++;
    } else {
        int fresh = 1;
        for (int j = 0; j < HIGHEST; j++) if (s->maxScore[j] == s->preScore) { fresh = 0; break; }
        if (fresh && s->preScore > s->maxScore[HIGHEST - 1]) {
            s->maxScore[HIGHEST - 1] = s->preScore;
            memcpy(s->bestGraph + (HIGHEST - 1) * NN, s->preGraph, (size_t)NN);
            int b = HIGHEST - 1;
            for (int a = HIGHEST - 2; a >= 0; a--)
                if (s->maxScore[b] > s->maxScore[a]) {
                    swapg(s, a, b);
                    float t = s->maxScore[a];
                    s->maxScore[a] = s->maxScore[b];
                    s->maxScore[b] = t;
                    b = a;
                }
        }
    }
}

/* start node s->node of findBestGraph: parent flags, sizes */
static void node_pre(bn *s)
{
    int N = s->N, posN = 0;
    for (int i = 0; i < N; i++) if (s->orders[s->node * N + i] == 1) posN++;
    s->posN = posN;
    s->total = Cnk(posN, 4) + Cnk(posN, 3) + Cnk(posN, 2) + posN + 1;
    s->blocknum = s->total / TPB + 1;
    uint8_t *par = s->parent.h;
    for (int j = 0; j < N; j++) par[j] = s->orders[s->node * N + j];
}


static void node_post(bn *s)
{
    s->out_hash = gms_fnv1a(gms_fnv1a(s->out_hash, s->scores.h, 4 * (uint64_t)s->blocknum), s->resp.h, 16 * (uint64_t)s->blocknum);
    int N = s->N, node = s->node, bestparent[5] = {0}, bestpN = 0;
    float bestls = -99999999.0f;
    const float *sc = WL_F(s->scores);
    const int32_t *rp = WL_I(s->resp);
    for (int i = 0; i < s->blocknum; i++) {
        if (sc[i] > bestls) {
            bestls = sc[i];
            int parN = 0;
            for (int tmp = 0; tmp < 4; tmp++) {
                if (rp[i * 4 + tmp] < 0) break;
                bestparent[tmp] = rp[i * 4 + tmp];
                parN++;
            }
            bestpN = parN;
        }
    }
    if (bestls > -99999999.0f) {
        for (int i = 0; i < bestpN; i++) {
            /* graph[node][bestparent-1]: the suite writes graph[node][-1] (= graph[node-1][N-1])
             * for a parent index 0; the flat index below does the same */
            int64_t col = bestparent[i] < node ? bestparent[i] - 1 : bestparent[i];
            int64_t at = (int64_t)node * N + col;
            if (at >= 0 && at < (int64_t)N * N) s->graph[at] = 1;
        }
        s->fscore += bestls;
    }
}

static void iteration_start(bn *s)
{
    int N = s->N;
    memcpy(s->orders, s->preOrders, (size_t)(N * N));
    int tmp = brand(s) % 6;
    for (int j = 0; j < tmp; j++) gen_orders(s);
    memset(s->graph, 0, (size_t)(N * N));
    s->fscore = 0;
    s->node = 0;
}

static void cpu_genscore(bn *s)
{
    const int32_t *data = WL_I(s->udata);
    const float *LG = WL_F(s->lg);
    float *LS = WL_F(s->ls);
    for (int id = 0; id < s->sizepernode; id++) {
        int parent[5] = {0}, parN = 0;
        findComb(parent, id, s->N - 1);
        for (int i = 0; i < 4; i++) if (parent[i] > 0) parN++;
        for (int node = 0; node < s->N; node++)
            LS[(int64_t)s->sizepernode * node + id] = local_score(s, data, LG, parent, parN, node);
    }
}

/* 1: commands pushed (or a CPU step done), 0: finished, -1: error */
static int drive(bn *s, gms_program *p, gms_error *err)
{
    if (s->phase == 0) {
        if (!s->cpu) {
            wl_buf_alloc_in(p, s->pool, &s->udata, "U_data", 1);
            wl_buf_alloc_in(p, s->pool, &s->ls, "U_localscore", 0);
            wl_buf_alloc_in(p, s->pool, &s->lg, "U_LG", 1);
            /* the model's fresh arrays are zeros, also when a repetition reuses the first one's
             * allocations: so is the shadow (genScoreKernel adds to U_localscore; a block with
             * no winner leaves its U_resP entries) */
            s->sh = p->shadow;
            wl_sh_init(p, s->ls.d, s->ls.h, s->ls.bytes);
            wl_kernel k = {.st = s, .step = k_genscore, .wsize = sizeof(gs_warp), .grid = {(uint32_t)(s->sizepernode / TPB + 1), 1, 1},
                           .block = {TPB, 1, 1}};
            wl_launch_k(p, "genScoreKernel", &k, 48, 0);
            gms_prog_sync(p);
            wl_buf_alloc_in(p, s->pool, &s->scores, "U_scores", 0);
            wl_buf_alloc_in(p, s->pool, &s->parent, "U_parent", 0);
            wl_buf_alloc_in(p, s->pool, &s->resp, "U_resP", 0);
            wl_sh_init(p, s->scores.d, s->scores.h, s->scores.bytes);
            wl_sh_init(p, s->resp.d, s->resp.h, s->resp.bytes);
        } else {
            cpu_genscore(s);
        }
        s->phase = 1;
        s->it = 0;
        iteration_start(s);
        node_pre(s);
    } else {
        if (!s->cpu && wl_shadow_active(s->sh)) {
            /* the D2H copies of the scores and resP: in a functional verify run, what the
             * kernel left at their device addresses */
            wl_shadow_read(s->sh, s->scores.d, s->scores.h, 4 * (uint64_t)s->blocknum);
            wl_shadow_read(s->sh, s->resp.d, s->resp.h, 16 * (uint64_t)s->blocknum);
        }
        node_post(s);
        s->node++;
        if (s->node == s->N) {
            iteration_end(s);
            s->it++;
            if (s->it == s->iters) { s->phase = 2; return 0; }
            iteration_start(s);
        }
        node_pre(s);
    }
    s->launches++;
    if (s->cpu) {
        for (int b = 0; b < s->blocknum; b++)
            if (cpu_compute_block(s, s->node, s->total, (unsigned)b, err)) return -1;
        return 1;
    }
    gms_prog_copy_h2d(p, s->parent.d, (uint64_t)s->N);
    wl_sh_init(p, s->parent.d, s->parent.h, (uint64_t)s->N);
    wl_kernel k = {.st = s, .fill = k_compute, .grid = {(uint32_t)s->blocknum, 1, 1}, .block = {TPB, 1, 1}};
    k.arg[0] = s->node;
    k.arg[1] = s->total;
    wl_launch_k(p, "computeKernel", &k, 40, TPB * 4);
    gms_prog_sync(p);
    gms_prog_copy_d2h(p, s->scores.d, 4 * (uint64_t)s->blocknum);
    gms_prog_copy_d2h(p, s->resp.d, 16 * (uint64_t)s->blocknum);
    return 1;
}

static bn *bn_new(int N, int D, int iters, uint64_t seed, int cpu)
{
    bn *s = gms_xcalloc(1, sizeof *s);
    s->N = N; s->D = D; s->iters = iters; s->cpu = cpu;
    gms_rng_seed(&s->rng, seed);
    /* synthetic binary data: each node copies an earlier one with probability 0.7, else random */
    wl_buf_new(&s->udata, 4 * (uint64_t)(N * D));
    int32_t *d = WL_I(s->udata);
    for (int r = 0; r < D; r++)
        for (int j = 0; j < N; j++) {
            int v = (int)(gms_rng_next(&s->rng) >> 63);
            if (j > 0 && gms_rng_below(&s->rng, 10) < 7) v = d[r * N + (int)gms_rng_below(&s->rng, (uint64_t)j)];
            d[r * N + j] = v;
        }
    int spn = 1;
    for (int i = 1; i <= 4; i++) spn += Cnk(N - 1, i);
    s->sizepernode = spn;
    wl_buf_new(&s->ls, 4 * (uint64_t)spn * (uint64_t)N);
    wl_buf_new(&s->lg, 4 * (uint64_t)(D + 2));
    float *LG = WL_F(s->lg);
    LG[1] = (float)log(1.0);
    for (float i = 2; i <= D + 1; i++) LG[(int)i] = (float)(LG[(int)i - 1] + log((float)i));
    wl_buf_new(&s->scores, 4 * (uint64_t)(spn / TPB + 1));
    wl_buf_new(&s->parent, (uint64_t)N);
    wl_buf_new(&s->resp, 16 * (uint64_t)(spn / TPB + 1));
    s->orders = gms_xcalloc((uint64_t)(N * N), 1);
    s->preOrders = gms_xcalloc((uint64_t)(N * N), 1);
    s->preGraph = gms_xcalloc((uint64_t)(N * N), 1);
    s->graph = gms_xcalloc((uint64_t)(N * N), 1);
    s->bestGraph = gms_xcalloc((uint64_t)(HIGHEST * N * N), 1);
    s->preScore = -99999999999.0f;
    s->maxScore[0] = -999999999.0f;
    /* initial(): lower-triangular order, then r random row/column swaps */
    for (int i = 0; i < N; i++)
        for (int j = 0; j < i; j++) s->orders[i * N + j] = 1;
    int r = brand(s) % 10000;
    for (int i = 0; i < r; i++) gen_orders(s);
    memcpy(s->preOrders, s->orders, (size_t)(N * N));
    return s;
}

static void bn_free(bn *s)
{
    if (!s) return;
    wl_buf *b[] = {&s->udata, &s->ls, &s->lg, &s->scores, &s->parent, &s->resp};
    for (size_t i = 0; i < sizeof b / sizeof b[0]; i++) wl_buf_free(b[i]);
    free(s->orders); free(s->preOrders); free(s->preGraph); free(s->graph); free(s->bestGraph);
    free(s);
}

static const gms_wl_param params[] = {
    {"nodes", "45", "network nodes NODE_N (data45.cu); 5..64"},
    {"data", "600", "data samples DATA_N"},
    {"iter", "100", "order-MCMC iterations ITER (nodes computeKernel launches each)"},
    {"scale", "1", "multiplies nodes and data (nodes at least 5)"},
    {"repeat", "1", "run the whole structure search N times from the same input"},
    {NULL, NULL, NULL},
};

typedef struct bnw {
    bn *run;
    int N, D, it;
    uint64_t seed;
    uint64_t repeat, rep;  /* repetitions asked for; the one running (from 0) */
    wl_pool pool;
} bnw;

/* `scale` multiplies nodes as well as data: the work grows with the parent sets, C(nodes-1, <=4)
 * threads each scanning every node's data (~nodes^5 x data), so scaling data alone left
 * scale=0.01 at 45 nodes generating ~3e8 warp instructions (minutes). Nodes below 5 (the
 * kernels' four parents plus the node) are clamped to 5. */
static int sizes(const gms_wl_args *a, bnw *w, gms_error *err)
{
    uint64_t N, D, it;
    if (wl_param(a, "nodes", 5, MAXN, &N, err) || wl_clamp_scaled(a, "bn", "nodes", 1, 5, MAXN, &N, err) ||
        wl_clamp_scaled(a, "bn", "data", 1, 1, 1 << 20, &D, err) || wl_param(a, "iter", 1, 1000000, &it, err))
        return -1;
    if (w) { w->N = (int)N; w->D = (int)D; w->it = (int)it; }
    return 0;
}

static uint64_t footprint(const gms_wl_args *a)
{
    gms_error e;
    bnw w;
    if (sizes(a, &w, &e)) return 0;
    uint64_t spn = 1;
    for (int i = 1; i <= 4; i++) spn += (uint64_t)Cnk(w.N - 1, i);
    return 4 * (uint64_t)w.N * (uint64_t)w.D + 4 * spn * (uint64_t)w.N + 4 * ((uint64_t)w.D + 2) +
           20 * (spn / TPB + 1) + (uint64_t)w.N;
}

static int create(const gms_wl_args *a, void **out, gms_error *err)
{
    bnw t = {0};   /* repeat, rep and pool start zeroed */
    if (sizes(a, &t, err)) return -1;
    bnw *w = gms_xcalloc(1, sizeof *w);
    *w = t;
    w->seed = gms_wl_seed(a);
    if (wl_param(a, "repeat", 1, 1000000, &w->repeat, err)) {
        free(w);
        return -1;
    }
    w->run = bn_new(w->N, w->D, w->it, w->seed, 0);
    w->run->pool = &w->pool;
    *out = w;
    return 0;
}

static int drive_owner(void *o, gms_program *p, gms_error *err)
{
    return drive(((bnw *)o)->run, p, err);
}

static void rebuild(void *o)
{
    bnw *w = o;
    bn_free(w->run);
    w->run = bn_new(w->N, w->D, w->it, w->seed, 0);
    w->run->pool = &w->pool;
}

static int next(void *st, gms_program *p, gms_error *err)
{
    bnw *w = st;
    return wl_rerun(w, &w->rep, w->repeat, &w->pool, drive_owner, rebuild, p, err);
}

static int verify(void *st, gms_error *err)
{
    bnw *w = st;
    bn *g = w->run;
    if (g->phase != 2) return gms_err(err, "workload bn: the program did not finish");
    /* local scores against a plain CPU computation */
    bn *r = bn_new(w->N, w->D, w->it, w->seed, 1);
    cpu_genscore(r);
    void *own;   /* the local scores as genScoreKernel left them at their device address */
    uint64_t nls = (uint64_t)g->sizepernode * (uint64_t)g->N;
    int rc = wl_check_f32_tol("bn", "U_localscore", wl_result(g->sh, g->ls.d, g->ls.h, nls, 4, &own), WL_F(r->ls), nls, 1e-5, err);
    free(own);
    bn_free(r);
    if (rc) return -1;
    /* the whole search with the CPU computeKernel */
    r = bn_new(w->N, w->D, w->it, w->seed, 1);
    int d;
    while ((d = drive(r, NULL, err)) == 1) {}
    if (d < 0) rc = -1;
    if (!rc && (r->launches != g->launches || r->preScore != g->preScore || r->c != g->c))
        rc = gms_err(err, "workload bn: %lld launches, preScore %.9g, %d kept; reference %lld, %.9g, %d",
                     (long long)g->launches, g->preScore, g->c, (long long)r->launches, r->preScore, r->c);
    if (!rc && r->out_hash != g->out_hash)
        rc = gms_err(err, "workload bn: the U_scores or U_resP a computeKernel left differ from the reference's "
                          "(hash over all %lld launches)", (long long)g->launches);
    for (int i = 0; !rc && i < HIGHEST; i++)
        if (r->maxScore[i] != g->maxScore[i])
            rc = gms_err(err, "workload bn: maxScore[%d] = %.9g, reference %.9g", i, g->maxScore[i], r->maxScore[i]);
    if (!rc && memcmp(r->bestGraph, g->bestGraph, (size_t)(HIGHEST * w->N * w->N)))
        rc = gms_err(err, "workload bn: the best graphs differ from the reference");
    bn_free(r);
    return rc ? -1 : 0;
}

static void destroy(void *st)
{
    bnw *w = st;
    if (!w) return;
    bn_free(w->run);
    wl_pool_free(&w->pool);
    free(w);
}

const gms_workload_ops gms_wl_bn = {
    .name = "bn", .suite = "ml", .domain = "machine learning", .ri = "R",
    .summary = "Bayesian network structure learning (order MCMC): genScoreKernel once, computeKernel per node (256 threads)",
    .params = params, .create = create, .next = next, .verify = verify, .destroy = destroy,
    .footprint = footprint,
};
