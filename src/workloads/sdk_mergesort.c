/* mergesort (SDK mergeSort, seed MS): stable ascending sort of N (key, value) uint pairs,
 * cuda-samples mergeSort.cu (SHARED_SIZE_LIMIT 1024, SAMPLE_STRIDE 128, sortDir 1):
 *   mergeSortSharedKernel<<<N/1024, 512>>>: 1024-element chunks merge-sorted in shared memory
 *     (per stride 1..512: sync, each thread ranks its two elements in the other half by
 *     binary search, sync, scatters them)
 *   then for stride = 1024, 2048, ... < N, on ping-pong buffers:
 *     generateSampleRanksKernel<<<N/256/256, 256>>>: the rank of every 128th key of each
 *       run in the other run (binary search straight in global memory: data-dependent loads)
 *     mergeRanksAndIndicesKernel<<<N/256/256, 256>>> twice (A and B): the sample ranks
 *       merged into interval limits
 *     mergeElementaryIntervalsKernel<<<N/128, 128>>>: thread 0 reads the block's limits, each
 *       block merges two <= 128-element intervals in shared memory (binary searches) and
 *       stores them at their final places
 * N is a power of two here (the sample's default, 4194304 = SAMPLE_STRIDE * MAX_SAMPLE_COUNT,
 * is), so every merge segment is full and the sample's pass-through copy of a last odd
 * segment never happens. Keys rand() % 65536, values their index; the sort is stable, so
 * verify() compares with the CPU's sort by (key, index) exactly. */
#include "workloads/sdk_util.h"
#include <stdlib.h>

#define SSL 1024u
#define SSTR 128u
#define MAX_SAMPLES 32768u
/* probes of one binary search: a search over a stride of up to N / 2 = 2^21 takes 22 (was 16,
 * which overran the probe arrays on the stack at the default N) */
#define MS_MAXIT 22
_Static_assert((1ull << (MS_MAXIT - 1)) >= (uint64_t)SSTR * MAX_SAMPLES / 2, "MS_MAXIT below log2(N / 2) + 1");

typedef struct ms_st {
    uint64_t N, repeat;
    uint32_t *key0, *val0;          /* the inputs */
    uint32_t *k[2], *v[2];          /* 0: d_DstKey/Val, 1: d_BufKey/Val */
    uint32_t *ranks[2], *limits[2]; /* A, B */
    uint64_t dk0, dv0, dk[2], dv[2], dranks[2], dlimits[2];
    int final;
    wl_shadow *sh;
    int done;
} ms_st;

static const gms_wl_param ms_params[] = {
    { "N", "4194304", "pairs to sort (a power of two, 1024..4194304)" },
    { "scale", "1", "multiplies N (rounded down to a power of two)" },
    { "repeat", "1", "sort this many times (from the same input)" },
    { NULL, NULL, NULL },
};

static int ms_sizes(const gms_wl_args *a, uint64_t *N, gms_error *err)
{
    uint64_t n;
    if (wl_clamp_scaled(a, "mergesort", "N", 1, SSL, (uint64_t)SSTR * MAX_SAMPLES, &n, err)) return -1;
    if (n < SSL) return gms_err(err, "workload mergesort: N=%llu must be at least 1024", (unsigned long long)n);
    uint64_t p = SSL;
    while (p * 2 <= n) p *= 2;
    if (p != n && gms_wl_f64(a, "scale") == 1.0)   /* a scaled N is rounded down instead */
        return gms_err(err, "workload mergesort: N=%llu must be a power of two", (unsigned long long)n);
    *N = p;
    return 0;
}

static int ms_create(const gms_wl_args *a, void **state, gms_error *err)
{
    uint64_t N = 0, rep = 0;   /* set by ms_sizes/sdk_repeat; initialised for the LTO build */
    if (ms_sizes(a, &N, err) || sdk_repeat(a, &rep, err)) return -1;
    ms_st *s = gms_xcalloc(1, sizeof *s);
    s->N = N;
    s->repeat = rep;
    s->key0 = wl_malloc(N, 4);
    s->val0 = wl_malloc(N, 4);
    for (int i = 0; i < 2; i++) {
        s->k[i] = wl_calloc(N, 4);
        s->v[i] = wl_calloc(N, 4);
        s->ranks[i] = wl_calloc(MAX_SAMPLES, 4);
        s->limits[i] = wl_calloc(MAX_SAMPLES, 4);
    }
    gms_rng r;
    gms_rng_seed(&r, gms_wl_seed(a));
    for (uint64_t i = 0; i < N; i++) {
        s->key0[i] = (uint32_t)(gms_rng_next(&r) % 65536);
        s->val0[i] = (uint32_t)i;
    }
    *state = s;
    return 0;
}

/* binarySearchInclusive / Exclusive<1> over data[0..L) with the power-of-two `stride`; the
 * indices read go to probe[] (*np of them) */
static uint32_t bsearch_rec(uint32_t v, const uint32_t *data, uint32_t L, uint32_t stride, int incl, uint32_t *probe,
                            int *np)
{
    *np = 0;
    if (L == 0) return 0;
    uint32_t pos = 0;
    for (; stride > 0; stride >>= 1) {
        uint32_t nx = pos + stride < L ? pos + stride : L;
        probe[(*np)++] = nx - 1;
        if (incl ? data[nx - 1] <= v : data[nx - 1] < v) pos = nx;
    }
    return pos;
}

static uint32_t next_pow2(uint32_t x)
{
    uint32_t p = 1;
    while (p < x) p <<= 1;
    return p;
}

/* emit one lane-parallel binary search: per step IMNMX, the load of data[probe], ISETP, SEL.
 * kind GMS_MEM_LD_SHARED (base = byte offset) or global (base = device address; host holds
 * the values for the shadow). Returns the register of pos. */
static uint8_t search_emit(wl_warp *w, uint32_t m, uint32_t probe[32][MS_MAXIT], const int np[32], gms_mem_kind kind,
                           uint64_t base, const uint32_t *host, uint8_t key)
{
    int n = 0;
    WL_LANES(m, l) if (np[l] > n) n = np[l];
    uint8_t pos = wl_int(w, m, GMS_REG_NONE, GMS_REG_NONE);
    for (int it = 0; it < n; it++) {
        uint32_t mi = 0;
        uint64_t A[32];
        WL_LANES(m, l) if (np[l] > it) {
            mi |= 1u << l;
            A[l] = base + (uint64_t)probe[l][it] * 4;
        }
        uint8_t nx = wl_int(w, m, pos, GMS_REG_NONE);                   /* IMNMX */
        uint8_t d = wl_ld(w, mi, kind, 4, A, nx);
        if (kind == GMS_MEM_LD_GLOBAL) WL_SH_LD(w, mi, uint32_t, host[probe[l][it]]);
        wl_pred(w, m, d, key);
        pos = wl_int(w, m, pos, nx);                                    /* SEL */
    }
    return pos;
}

/* ---------------------------------------------------------------- mergeSortSharedKernel */
static int ms_shared_fill(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    ms_st *s = k->st;
    int o = (int)k->arg[0];   /* output buffer */
    uint64_t off = block * SSL;
    uint32_t key[SSL], val[SSL];
    memcpy(key, s->key0 + off, SSL * 4);
    memcpy(val, s->val0 + off, SSL * 4);
    wl_warp W[SDK_MAX_WARPS];
    uint32_t nw = sdk_warps(W, bt, k, block);
    uint8_t ri[SDK_MAX_WARPS];
    for (uint32_t wi = 0; wi < nw; wi++) {
        wl_warp *w = &W[wi];
        uint32_t m = w->live;
        uint64_t A[32], S[32];
        ri[wi] = sdk_prologue(w, m);
        for (int j = 0; j < 4; j++) {   /* key[tid], val[tid], key[tid+512], val[tid+512] */
            uint32_t h = j >= 2 ? SSL / 2 : 0;
            WL_LANES(m, l) {
                A[l] = (j & 1 ? s->dv0 : s->dk0) + (off + w->tx[l] + h) * 4;
                S[l] = ((j & 1 ? SSL : 0) + w->tx[l] + h) * 4;
            }
            uint8_t v = wl_ldg(w, m, A, ri[wi]);
            WL_SH_LD(w, m, uint32_t, (j & 1 ? val : key)[w->tx[l] + h]);
            sdk_sts(w, m, 4, S, GMS_REG_NONE, v);
        }
    }
    uint32_t probe[32][MS_MAXIT];
    for (uint32_t stride = 1; stride < SSL; stride <<= 1) {
        uint32_t nk[SSL], nv[SSL], dst[SSL];
        for (uint32_t wi = 0; wi < nw; wi++) {
            wl_warp *w = &W[wi];
            uint32_t m = w->live;
            uint64_t A[32], B[32], C[32], D[32];
            uint32_t pa[32], pb[32];
            int np[32];
            wl_bar(w);
            uint8_t r = sdk_ints(w, m, 3, ri[wi]);                      /* lPos, base */
            WL_LANES(m, l) {
                uint32_t t = w->tx[l], lp = t & (stride - 1), b = 2 * (t - lp);
                A[l] = (b + lp) * 4;
                B[l] = (b + lp + stride) * 4;
                C[l] = (SSL + b + lp) * 4;
                D[l] = (SSL + b + lp + stride) * 4;
            }
            uint8_t ka = sdk_lds(w, m, 4, A, r), va = sdk_lds(w, m, 4, C, r);
            uint8_t kb = sdk_lds(w, m, 4, B, r), vb = sdk_lds(w, m, 4, D, r);
            WL_LANES(m, l) {
                uint32_t t = w->tx[l], lp = t & (stride - 1), b = 2 * (t - lp);
                pa[l] = bsearch_rec(key[b + lp], key + b + stride, stride, stride, 0, probe[l], &np[l]) + lp;
                for (int i = 0; i < np[l]; i++) probe[l][i] += b + stride;
            }
            uint8_t qa = wl_int(w, m, search_emit(w, m, probe, np, GMS_MEM_LD_SHARED, 0, NULL, ka), GMS_REG_NONE);
            WL_LANES(m, l) {
                uint32_t t = w->tx[l], lp = t & (stride - 1), b = 2 * (t - lp);
                pb[l] = bsearch_rec(key[b + lp + stride], key + b, stride, stride, 1, probe[l], &np[l]) + lp;
                for (int i = 0; i < np[l]; i++) probe[l][i] += b;
                nk[b + pa[l]] = key[b + lp];
                nv[b + pa[l]] = val[b + lp];
                nk[b + pb[l]] = key[b + lp + stride];
                nv[b + pb[l]] = val[b + lp + stride];
                dst[2 * t] = b + pa[l];
                dst[2 * t + 1] = b + pb[l];
            }
            uint8_t qb = wl_int(w, m, search_emit(w, m, probe, np, GMS_MEM_LD_SHARED, 0, NULL, kb), GMS_REG_NONE);
            wl_bar(w);
            WL_LANES(m, l) {
                uint32_t t = w->tx[l];
                A[l] = dst[2 * t] * 4;
                B[l] = dst[2 * t + 1] * 4;
                C[l] = (SSL + dst[2 * t]) * 4;
                D[l] = (SSL + dst[2 * t + 1]) * 4;
            }
            sdk_sts(w, m, 4, A, qa, ka);
            sdk_sts(w, m, 4, C, qa, va);
            sdk_sts(w, m, 4, B, qb, kb);
            sdk_sts(w, m, 4, D, qb, vb);
        }
        memcpy(key, nk, sizeof key);
        memcpy(val, nv, sizeof val);
    }
    for (uint32_t i = 0; i < SSL; i++) {
        s->k[o][off + i] = key[i];
        s->v[o][off + i] = val[i];
    }
    for (uint32_t wi = 0; wi < nw; wi++) {
        wl_warp *w = &W[wi];
        uint32_t m = w->live;
        uint64_t A[32], S[32];
        wl_bar(w);
        for (int j = 0; j < 4; j++) {
            uint32_t h = j >= 2 ? SSL / 2 : 0;
            WL_LANES(m, l) {
                A[l] = (j & 1 ? s->dv[o] : s->dk[o]) + (off + w->tx[l] + h) * 4;
                S[l] = ((j & 1 ? SSL : 0) + w->tx[l] + h) * 4;
            }
            uint8_t v = sdk_lds(w, m, 4, S, GMS_REG_NONE);
            wl_stg(w, m, A, ri[wi], v);
            WL_SH_ST(w, m, uint32_t, (j & 1 ? val : key)[w->tx[l] + h]);
        }
        wl_exit(w, m);
    }
    return 0;
}

/* ---------------------------------------------------------------- generateSampleRanksKernel */
/* args: 0 input buffer, 1 stride */
static int ms_ranks_fill(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    ms_st *s = k->st;
    int in = (int)k->arg[0];
    uint32_t stride = (uint32_t)k->arg[1], S = stride / SSTR, tc = (uint32_t)(s->N / (2 * SSTR));
    const uint32_t *src = s->k[in];
    uint64_t dsrc = s->dk[in];
    uint32_t probe[32][MS_MAXIT];
    for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, k, block, wi);
        uint32_t m0 = w.live, m = 0;
        uint8_t ri = sdk_prologue(&w, m0);
        uint32_t pos[32], i[32], sb[32];
        WL_LANES(m0, l) {
            pos[l] = (uint32_t)(block * k->block.x + w.tx[l]);
            if (pos[l] < tc) m |= 1u << l;
        }
        wl_pred(&w, m0, ri, GMS_REG_NONE);
        wl_exit(&w, m0 & ~m);
        if (!m) continue;
        WL_LANES(m, l) {
            i[l] = pos[l] & (S - 1);
            sb[l] = (pos[l] - i[l]) * 2 * SSTR;
        }
        uint8_t r = sdk_ints(&w, m, 6, ri);                                /* i, segmentBase, counts */
        for (int half = 0; half < 2; half++) {
            /* half 0: A's sample ranked in B; half 1: B's sample ranked in A */
            uint64_t A[32], O[32];
            uint32_t rank[32], key[32];
            int np[32];
            WL_LANES(m, l) {
                uint32_t e = sb[l] + (half ? stride : 0) + i[l] * SSTR;
                A[l] = dsrc + (uint64_t)e * 4;
                key[l] = src[e];
            }
            wl_pred(&w, m, r, GMS_REG_NONE);                               /* i < segmentSamples */
            /* d_Ranks{A,B}[i] = i * SAMPLE_STRIDE (own side) */
            uint32_t *own = s->ranks[half], *oth = s->ranks[!half];
            uint64_t down = s->dranks[half], doth = s->dranks[!half];
            WL_LANES(m, l) {
                uint32_t idx = sb[l] / SSTR + (half ? S : 0) + i[l];
                O[l] = down + (uint64_t)idx * 4;
                own[idx] = i[l] * SSTR;
            }
            wl_stg(&w, m, O, r, wl_int(&w, m, r, GMS_REG_NONE));
            WL_SH_ST(&w, m, uint32_t, i[l] * SSTR);
            uint8_t kv = wl_ldg(&w, m, A, r);
            WL_SH_LD(&w, m, uint32_t, key[l]);
            WL_LANES(m, l) {
                uint32_t base = sb[l] + (half ? 0 : stride);
                rank[l] = bsearch_rec(key[l], src + base, stride, next_pow2(stride), half, probe[l], &np[l]);
                for (int j = 0; j < np[l]; j++) probe[l][j] += base;
            }
            uint8_t pr = search_emit(&w, m, probe, np, GMS_MEM_LD_GLOBAL, dsrc, src, kv);
            WL_LANES(m, l) {
                uint32_t idx = sb[l] / SSTR + (half ? S : 0) + i[l];
                O[l] = doth + (uint64_t)idx * 4;
                oth[idx] = rank[l];
            }
            wl_stg(&w, m, O, r, pr);
            WL_SH_ST(&w, m, uint32_t, rank[l]);
        }
        wl_exit(&w, m);
    }
    return 0;
}

/* ---------------------------------------------------------------- mergeRanksAndIndicesKernel */
/* args: 0 which (0 A, 1 B), 1 stride */
static int ms_limits_fill(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    ms_st *s = k->st;
    int x = (int)k->arg[0];
    uint32_t stride = (uint32_t)k->arg[1], S = stride / SSTR, tc = (uint32_t)(s->N / (2 * SSTR));
    const uint32_t *rk = s->ranks[x];
    uint32_t *lim = s->limits[x];
    uint32_t probe[32][MS_MAXIT];
    for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, k, block, wi);
        uint32_t m0 = w.live, m = 0;
        uint8_t ri = sdk_prologue(&w, m0);
        uint32_t pos[32], i[32], seg[32];
        WL_LANES(m0, l) {
            pos[l] = (uint32_t)(block * k->block.x + w.tx[l]);
            if (pos[l] < tc) m |= 1u << l;
        }
        wl_pred(&w, m0, ri, GMS_REG_NONE);
        wl_exit(&w, m0 & ~m);
        if (!m) continue;
        WL_LANES(m, l) {
            i[l] = pos[l] & (S - 1);
            seg[l] = (pos[l] - i[l]) * 2;   /* offset of the segment's ranks and limits */
        }
        uint8_t r = sdk_ints(&w, m, 6, ri);
        for (int half = 0; half < 2; half++) {
            uint64_t A[32], O[32];
            uint32_t v[32], d[32];
            int np[32];
            wl_pred(&w, m, r, GMS_REG_NONE);
            WL_LANES(m, l) {
                uint32_t e = seg[l] + (half ? S : 0) + i[l];
                A[l] = s->dranks[x] + (uint64_t)e * 4;
                v[l] = rk[e];
            }
            uint8_t kv = wl_ldg(&w, m, A, r);
            WL_SH_LD(&w, m, uint32_t, v[l]);
            WL_LANES(m, l) {
                uint32_t base = seg[l] + (half ? 0 : S);
                d[l] = bsearch_rec(v[l], rk + base, S, next_pow2(S), half, probe[l], &np[l]) + i[l];
                for (int j = 0; j < np[l]; j++) probe[l][j] += base;
            }
            uint8_t pr = search_emit(&w, m, probe, np, GMS_MEM_LD_GLOBAL, s->dranks[x], rk, kv);
            WL_LANES(m, l) {
                O[l] = s->dlimits[x] + (uint64_t)(seg[l] + d[l]) * 4;
                lim[seg[l] + d[l]] = v[l];
            }
            wl_stg(&w, m, O, wl_int(&w, m, pr, GMS_REG_NONE), kv);
            WL_SH_ST(&w, m, uint32_t, v[l]);
        }
        wl_exit(&w, m);
    }
    return 0;
}

/* ---------------------------------------------------------------- mergeElementaryIntervalsKernel */
/* args: 0 input buffer, 1 stride (output: the other buffer) */
static int ms_merge_fill(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    ms_st *s = k->st;
    int in = (int)k->arg[0], out = !in;
    uint32_t stride = (uint32_t)k->arg[1], S = stride / SSTR;
    uint32_t b = (uint32_t)block, iv = b & (2 * S - 1), sb = (b - iv) * SSTR;
    uint32_t sA = s->limits[0][b], sB = s->limits[1][b];
    uint32_t eA = iv + 1 < 2 * S ? s->limits[0][b + 1] : stride, eB = iv + 1 < 2 * S ? s->limits[1][b + 1] : stride;
    uint32_t lenA = eA - sA, lenB = eB - sB, dA = sA + sB, dB = dA + lenA;
    const uint32_t *sk = s->k[in] + sb, *sv = s->v[in] + sb;
    uint32_t key[2 * SSTR], val[2 * SSTR], nk[2 * SSTR], nv[2 * SSTR];
    uint32_t probe[32][MS_MAXIT];
    for (uint32_t t = 0; t < lenA; t++) {
        key[t] = sk[sA + t];
        val[t] = sv[sA + t];
    }
    for (uint32_t t = 0; t < lenB; t++) {
        key[SSTR + t] = sk[stride + sB + t];
        val[SSTR + t] = sv[stride + sB + t];
    }
    wl_warp W[SDK_MAX_WARPS];
    uint32_t nw = sdk_warps(W, bt, k, block);
    uint8_t ri[SDK_MAX_WARPS];
    for (uint32_t wi = 0; wi < nw; wi++) {   /* thread 0: the limits; everyone: the loads */
        wl_warp *w = &W[wi];
        uint32_t m = w->live;
        ri[wi] = sdk_prologue(w, m);
        wl_pred(w, m, ri[wi], GMS_REG_NONE);
        if (wi == 0) {
            uint64_t A[32], Z[32] = { 0 };
            uint32_t vals[4] = { sA, sB, eA, eB };
            for (int j = 0; j < 4; j++) {
                if (j >= 2 && iv + 1 >= 2 * S) break;
                A[0] = s->dlimits[j & 1] + (uint64_t)(b + (j >= 2)) * 4;
                wl_ldg(w, 1, A, ri[wi]);
                WL_SH_LD(w, 1u, uint32_t, vals[j]);
            }
            for (int j = 0; j < 6; j++) {
                Z[0] = (uint64_t)(4 * SSTR + j) * 4;
                sdk_sts(w, 1, 4, Z, GMS_REG_NONE, GMS_REG_NONE);
            }
        }
        wl_bar(w);
        uint64_t P[32], A[32], S2[32];
        for (int j = 0; j < 6; j++) {   /* the block-wide parameters */
            WL_LANES(m, l) P[l] = (uint64_t)(4 * SSTR + j) * 4;
            sdk_lds(w, m, 4, P, GMS_REG_NONE);
        }
        for (int half = 0; half < 2; half++) {
            uint32_t len = half ? lenB : lenA, mk = 0;
            WL_LANES(m, l) if (w->tx[l] < len) mk |= 1u << l;
            wl_pred(w, m, ri[wi], GMS_REG_NONE);
            if (!mk) continue;
            for (int kv = 0; kv < 2; kv++) {
                WL_LANES(mk, l) {
                    uint32_t e = sb + (half ? stride + sB : sA) + w->tx[l];
                    A[l] = (kv ? s->dv[in] : s->dk[in]) + (uint64_t)e * 4;
                    S2[l] = ((kv ? 2 * SSTR : 0) + (half ? SSTR : 0) + w->tx[l]) * 4;
                }
                uint8_t v = wl_ldg(w, mk, A, ri[wi]);
                WL_SH_LD(w, mk, uint32_t, (kv ? val : key)[(half ? SSTR : 0) + w->tx[l]]);
                sdk_sts(w, mk, 4, S2, GMS_REG_NONE, v);
            }
        }
    }
    uint32_t dst[2 * SSTR];
    for (uint32_t wi = 0; wi < nw; wi++) {   /* merge(): rank in the other interval, scatter */
        wl_warp *w = &W[wi];
        uint32_t m = w->live;
        wl_bar(w);
        uint8_t rk[2] = { GMS_REG_NONE, GMS_REG_NONE }, rp[2] = { GMS_REG_NONE, GMS_REG_NONE };
        uint32_t mh[2] = { 0, 0 };
        for (int half = 0; half < 2; half++) {
            uint32_t len = half ? lenB : lenA, olen = half ? lenA : lenB;
            int np[32];
            uint64_t A[32];
            WL_LANES(m, l) if (w->tx[l] < len) mh[half] |= 1u << l;
            wl_pred(w, m, ri[wi], GMS_REG_NONE);
            if (!mh[half]) continue;
            WL_LANES(mh[half], l) A[l] = ((half ? SSTR : 0) + w->tx[l]) * 4;
            rk[half] = sdk_lds(w, mh[half], 4, A, GMS_REG_NONE);
            WL_LANES(mh[half], l) A[l] += 2 * SSTR * 4;
            sdk_lds(w, mh[half], 4, A, GMS_REG_NONE);
            WL_LANES(mh[half], l) {
                uint32_t t = w->tx[l], base = half ? 0 : SSTR;
                uint32_t p = bsearch_rec(key[(half ? SSTR : 0) + t], key + base, olen, SSTR, half, probe[l], &np[l]) + t;
                for (int j = 0; j < np[l]; j++) probe[l][j] += base;
                dst[(half ? SSTR : 0) + t] = p;
                nk[p] = key[(half ? SSTR : 0) + t];
                nv[p] = val[(half ? SSTR : 0) + t];
            }
            rp[half] = wl_int(w, mh[half], search_emit(w, mh[half], probe, np, GMS_MEM_LD_SHARED, 0, NULL, rk[half]),
                              GMS_REG_NONE);
        }
        wl_bar(w);
        for (int half = 0; half < 2; half++) {
            uint64_t A[32];
            wl_pred(w, m, ri[wi], GMS_REG_NONE);
            if (!mh[half]) continue;
            WL_LANES(mh[half], l) A[l] = dst[(half ? SSTR : 0) + w->tx[l]] * 4;
            sdk_sts(w, mh[half], 4, A, rp[half], rk[half]);
            WL_LANES(mh[half], l) A[l] += 2 * SSTR * 4;
            sdk_sts(w, mh[half], 4, A, rp[half], GMS_REG_NONE);
        }
    }
    for (uint32_t t = 0; t < lenA + lenB; t++) {
        s->k[out][sb + dA + t] = nk[t];   /* dB = dA + lenA: the two stores are contiguous */
        s->v[out][sb + dA + t] = nv[t];
    }
    for (uint32_t wi = 0; wi < nw; wi++) {
        wl_warp *w = &W[wi];
        uint32_t m = w->live;
        wl_bar(w);
        for (int half = 0; half < 2; half++) {
            uint32_t len = half ? lenB : lenA, mk = 0, so = half ? lenA : 0, d0 = half ? dB : dA;
            WL_LANES(m, l) if (w->tx[l] < len) mk |= 1u << l;
            wl_pred(w, m, ri[wi], GMS_REG_NONE);
            if (!mk) continue;
            for (int kv = 0; kv < 2; kv++) {
                uint64_t A[32], S2[32];
                WL_LANES(mk, l) {
                    S2[l] = ((kv ? 2 * SSTR : 0) + so + w->tx[l]) * 4;
                    A[l] = (kv ? s->dv[out] : s->dk[out]) + (uint64_t)(sb + d0 + w->tx[l]) * 4;
                }
                uint8_t v = sdk_lds(w, mk, 4, S2, GMS_REG_NONE);
                wl_stg(w, mk, A, ri[wi], v);
                WL_SH_ST(w, mk, uint32_t, (kv ? nv : nk)[so + w->tx[l]]);
            }
        }
        wl_exit(w, m);
    }
    return 0;
}

static int ms_next(void *state, gms_program *p, gms_error *err)
{
    ms_st *s = state;
    if (!wl_once(&s->done)) return 0;
    uint64_t b = s->N * 4;
    s->sh = p->shadow;
    s->dk[0] = sdk_alloc(p, NULL, b, "d_DstKey");
    s->dv[0] = sdk_alloc(p, NULL, b, "d_DstVal");
    s->dk[1] = sdk_alloc(p, NULL, b, "d_BufKey");
    s->dv[1] = sdk_alloc(p, NULL, b, "d_BufVal");
    s->dk0 = sdk_alloc(p, s->key0, b, "d_SrcKey");
    s->dv0 = sdk_alloc(p, s->val0, b, "d_SrcVal");
    s->dranks[0] = sdk_alloc(p, NULL, MAX_SAMPLES * 4, "d_RanksA");
    s->dranks[1] = sdk_alloc(p, NULL, MAX_SAMPLES * 4, "d_RanksB");
    s->dlimits[0] = sdk_alloc(p, NULL, MAX_SAMPLES * 4, "d_LimitsA");
    s->dlimits[1] = sdk_alloc(p, NULL, MAX_SAMPLES * 4, "d_LimitsB");
    unsigned stages = 0;
    for (uint64_t st = SSL; st < s->N; st <<= 1) stages++;
    /* the sample's buffer choice: the last merge writes d_Dst */
    int in = stages & 1 ? 1 : 0;
    uint32_t tc = (uint32_t)(s->N / (2 * SSTR));
    for (uint64_t r = 0; r < s->repeat; r++) {
        int64_t a0 = in;
        int cur = in;
        wl_launch(p, "_Z21mergeSortSharedKernelILj1EEvPjS0_S0_S0_j", wl_dim3((uint32_t)(s->N / SSL), 1, 1),
                  wl_dim3(SSL / 2, 1, 1), 24, 2 * SSL * 4, ms_shared_fill, s, &a0, 1);
        for (uint64_t st = SSL; st < s->N; st <<= 1) {
            int64_t ar[2] = { cur, (int64_t)st }, la[2] = { 0, (int64_t)st }, lb[2] = { 1, (int64_t)st };
            wl_launch(p, "_Z25generateSampleRanksKernelILj1EEvPjS0_S0_jjj", wl_dim3(wl_cdiv(tc, 256), 1, 1),
                      wl_dim3(256, 1, 1), 24, 0, ms_ranks_fill, s, ar, 2);
            wl_launch(p, "_Z26mergeRanksAndIndicesKernelPjS_jjj", wl_dim3(wl_cdiv(tc, 256), 1, 1), wl_dim3(256, 1, 1),
                      20, 0, ms_limits_fill, s, la, 2);
            wl_launch(p, "_Z26mergeRanksAndIndicesKernelPjS_jjj", wl_dim3(wl_cdiv(tc, 256), 1, 1), wl_dim3(256, 1, 1),
                      20, 0, ms_limits_fill, s, lb, 2);
            wl_launch(p, "_Z30mergeElementaryIntervalsKernelILj1EEvPjS0_S0_S0_S0_S0_jj",
                      wl_dim3((uint32_t)(s->N / SSTR), 1, 1), wl_dim3(SSTR, 1, 1), 24, (4 * SSTR + 6) * 4, ms_merge_fill,
                      s, ar, 2);
            cur = !cur;
        }
        s->final = cur;
    }
    gms_prog_copy_d2h(p, s->dk[s->final], b);
    gms_prog_copy_d2h(p, s->dv[s->final], b);
    gms_prog_sync(p);
    return 1;
}

static int ms_verify(void *state, gms_error *err)
{
    ms_st *s = state;
    /* stable ascending: sorted by (key, index); values are indices, so a counting sort */
    uint32_t *want_k = wl_malloc(s->N, 4), *want_v = wl_malloc(s->N, 4);
    uint64_t *cnt = wl_calloc(65537, 8);
    for (uint64_t i = 0; i < s->N; i++) cnt[s->key0[i] + 1]++;
    for (int i = 0; i < 65536; i++) cnt[i + 1] += cnt[i];
    for (uint64_t i = 0; i < s->N; i++) {
        uint64_t d = cnt[s->key0[i]]++;
        want_k[d] = s->key0[i];
        want_v[d] = (uint32_t)i;
    }
    void *o1, *o2;
    const uint32_t *k = wl_result(s->sh, s->dk[s->final], s->k[s->final], s->N, 4, &o1);
    const uint32_t *v = wl_result(s->sh, s->dv[s->final], s->v[s->final], s->N, 4, &o2);
    int rc = wl_check_u32("mergesort", "keys", k, want_k, s->N, err) ||
             wl_check_u32("mergesort", "values", v, want_v, s->N, err);
    free(o1);
    free(o2);
    free(want_k);
    free(want_v);
    free(cnt);
    return rc ? -1 : 0;
}

static void ms_destroy(void *state)
{
    ms_st *s = state;
    if (!s) return;
    free(s->key0);
    free(s->val0);
    for (int i = 0; i < 2; i++) {
        free(s->k[i]);
        free(s->v[i]);
        free(s->ranks[i]);
        free(s->limits[i]);
    }
    free(s);
}

static uint64_t ms_footprint(const gms_wl_args *a)
{
    gms_error e;
    uint64_t N = 0;   /* set by ms_sizes(); initialised for the LTO build */
    return ms_sizes(a, &N, &e) ? 0 : 6 * N * 4 + 4 * MAX_SAMPLES * 4;
}

const gms_workload_ops gms_wl_sdk_mergesort = {
    .name = "mergesort",
    .suite = "sdk",
    .domain = "sorting",
    .ri = "-",
    .summary = "MS: stable merge sort of key/value pairs: shared-memory chunk sorts, sample ranks by global binary "
               "search, interval merges",
    .params = ms_params,
    .create = ms_create,
    .next = ms_next,
    .verify = ms_verify,
    .destroy = ms_destroy,
    .footprint = ms_footprint,
};
