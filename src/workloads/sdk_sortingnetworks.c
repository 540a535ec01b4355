/* sortingnetworks (SDK sortingNetworks, seed SN): bitonic sort of N/arrayLength arrays of
 * (key, value) uint pairs, cuda-samples bitonicSort.cu (SHARED_SIZE_LIMIT 1024, 512 threads):
 *   arrayLength <= 1024: bitonicSortShared<<<N/1024, 512>>>: each thread loads 2 keys and 2
 *     values (d_Src[0], d_Src[512]) into s_key/s_val, the whole network in shared memory
 *     (per step: sync, pos = 2*tid - (tid & (stride-1)), Comparator(pos, pos+stride)), stores
 *   else bitonicSortShared1 (sorts 1024-element chunks, alternate directions), then for each
 *     size 2048..arrayLength the strides >= 1024 as bitonicMergeGlobal<<<N/512, 256>>> (one
 *     comparator per thread, straight from global memory: loads/stores `stride` apart) and the
 *     rest as one bitonicMergeShared<<<N/1024, 512>>>.
 * The sample sorts every length from 64 to N = 1048576 in turn; here one length per run
 * (array_length, default N: the largest, the one with global merges). Keys rand() % 65536,
 * values their index, dir = 0 (the sample's DIR: descending); verify() checks what the sample's
 * validateSortedKeys / validateValues check: keys equal the CPU-sorted keys, each value is the
 * index of an input element with that key, and the values are a permutation. */
#include "workloads/sdk_util.h"
#include <stdlib.h>
#include "util/sort.h"

#define SSL 1024u   /* SHARED_SIZE_LIMIT */

typedef struct sn_st {
    uint64_t N, len, repeat;
    uint32_t dir;
    uint32_t *ikey, *ival, *okey, *oval;
    uint64_t dik, div, dok, dov;
    wl_shadow *sh;
    int done;
} sn_st;

static const gms_wl_param sn_params[] = {
    { "N", "1048576", "keys in all (a multiple of 1024 and of array_length; a power of two when array_length=0)" },
    { "array_length", "0", "keys per array (a power of two >= 2; 0: N, one array)" },
    { "dir", "0", "1 ascending, 0 descending (the sample's DIR)" },
    { "scale", "1", "multiplies N" },
    { "repeat", "1", "run the sort this many times" },
    { NULL, NULL, NULL },
};

static int sn_sizes(const gms_wl_args *a, uint64_t *N, uint64_t *len, gms_error *err)
{
    *len = gms_wl_u64(a, "array_length");
    if (*len && (*len < 2 || (*len & (*len - 1))))
        return gms_err(err, "workload sortingnetworks: array_length=%llu must be a power of two >= 2 (or 0: N)",
                       (unsigned long long)*len);
    uint64_t mult = *len > SSL ? *len : SSL;
    if (wl_clamp_scaled(a, "sortingnetworks", "N", mult, mult, 1ULL << 31, N, err)) return -1;
    if (*len) return 0;
    /* one array of N: N must be a power of two; a scaled N is rounded down to one */
    uint64_t p = SSL;
    while (p * 2 <= *N) p *= 2;
    if (p != *N && gms_wl_f64(a, "scale") == 1.0)
        return gms_err(err, "workload sortingnetworks: N=%llu must be a power of two with array_length=0",
                       (unsigned long long)*N);
    *N = *len = p;
    return 0;
}

static int sn_create(const gms_wl_args *a, void **state, gms_error *err)
{
    uint64_t N, len, rep;
    if (sn_sizes(a, &N, &len, err) || sdk_repeat(a, &rep, err)) return -1;
    if (gms_wl_check_range(a, "dir", 0, 1, err)) return -1;
    sn_st *s = gms_xcalloc(1, sizeof *s);
    s->N = N;
    s->len = len;
    s->dir = (uint32_t)gms_wl_u64(a, "dir");
    s->repeat = rep;
    s->ikey = wl_malloc(N, 4);
    s->ival = wl_malloc(N, 4);
    s->okey = wl_calloc(N, 4);
    s->oval = wl_calloc(N, 4);
    gms_rng r;
    gms_rng_seed(&r, gms_wl_seed(a));
    for (uint64_t i = 0; i < N; i++) {
        s->ikey[i] = (uint32_t)(gms_rng_next(&r) % 65536);
        s->ival[i] = (uint32_t)i;
    }
    *state = s;
    return 0;
}

static void comparator(uint32_t *ka, uint32_t *va, uint32_t *kb, uint32_t *vb, uint32_t dir)
{
    if ((*ka > *kb) == (dir != 0)) {
        uint32_t t = *ka;
        *ka = *kb;
        *kb = t;
        t = *va;
        *va = *vb;
        *vb = t;
    }
}

/* the Comparator's instructions on shared offsets pos, pos+stride (keys at 0, values at 4096) */
static void comp_emit(wl_warp *w, uint32_t m, uint32_t stride)
{
    uint64_t A[32], B[32], C[32], D[32];
    WL_LANES(m, l) {
        uint32_t t = w->tx[l], pos = 2 * t - (t & (stride - 1));
        A[l] = pos * 4;
        B[l] = (pos + stride) * 4;
        C[l] = SSL * 4 + pos * 4;
        D[l] = SSL * 4 + (pos + stride) * 4;
    }
    wl_bar(w);
    uint8_t p = sdk_ints(w, m, 3, GMS_REG_NONE);                  /* pos = 2*tid - (tid & (stride-1)) */
    uint8_t ka = sdk_lds(w, m, 4, A, p), kb = sdk_lds(w, m, 4, B, p);
    uint8_t va = sdk_lds(w, m, 4, C, p), vb = sdk_lds(w, m, 4, D, p);
    wl_pred(w, m, ka, kb);                                         /* (keyA > keyB) == dir */
    sdk_sts(w, m, 4, A, p, wl_int(w, m, ka, kb));                  /* SEL + STS x4 */
    sdk_sts(w, m, 4, B, p, wl_int(w, m, kb, ka));
    sdk_sts(w, m, 4, C, p, wl_int(w, m, va, vb));
    sdk_sts(w, m, 4, D, p, wl_int(w, m, vb, va));
}

/* arg 0: kernel (0 bitonicSortShared, 1 Shared1, 2 MergeShared, 3 MergeGlobal), 1 size,
 * 2 stride; kernels after the first sort d_Dst in place */
static int sn_fill(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    sn_st *s = k->st;
    int kind = (int)k->arg[0];
    uint32_t size = (uint32_t)k->arg[1], gstride = (uint32_t)k->arg[2], len = (uint32_t)s->len;
    int first = kind <= 1;
    const uint32_t *sk = first ? s->ikey : s->okey, *sv = first ? s->ival : s->oval;
    uint64_t dsk = first ? s->dik : s->dok, dsv = first ? s->div : s->dov;
    if (kind == 3) {
        for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
            wl_warp w;
            wl_warp_begin(&w, bt, k, block, wi);
            uint32_t m = w.live;
            uint64_t P[32], Q[32];
            uint32_t gk[32];
            uint8_t ri = sdk_prologue(&w, m);
            sdk_ints(&w, m, 4, ri);                                        /* comparatorI, ddd, pos */
            WL_LANES(m, l) {
                uint32_t g = (uint32_t)(block * k->block.x + w.tx[l]);
                gk[l] = g;
                P[l] = 2 * (uint64_t)g - (g & (gstride - 1));
                Q[l] = P[l] + gstride;
            }
            uint64_t A[32];
            uint8_t v[4];
            uint64_t base[4] = { dsk, dsv, dsk, dsv };
            const uint32_t *host[4] = { sk, sv, sk, sv };
            for (int j = 0; j < 4; j++) {
                const uint64_t *ix = j < 2 ? P : Q;
                WL_LANES(m, l) A[l] = base[j] + ix[l] * 4;
                v[j] = wl_ldg(&w, m, A, ri);
                WL_SH_LD(&w, m, uint32_t, host[j][ix[l]]);
            }
            wl_pred(&w, m, v[0], v[2]);
            uint32_t ok[4][32];
            WL_LANES(m, l) {
                uint32_t ci = gk[l] & (len / 2 - 1), ddd = s->dir ^ ((ci & (size / 2)) != 0);
                uint32_t ka = sk[P[l]], va = sv[P[l]], kb = sk[Q[l]], vb = sv[Q[l]];
                comparator(&ka, &va, &kb, &vb, ddd);
                ok[0][l] = ka;
                ok[1][l] = va;
                ok[2][l] = kb;
                ok[3][l] = vb;
            }
            uint64_t obase[4] = { s->dok, s->dov, s->dok, s->dov };
            uint32_t *oh[4] = { s->okey, s->oval, s->okey, s->oval };
            for (int j = 0; j < 4; j++) {
                const uint64_t *ix = j < 2 ? P : Q;
                WL_LANES(m, l) {
                    A[l] = obase[j] + ix[l] * 4;
                    oh[j][ix[l]] = ok[j][l];
                }
                wl_stg(&w, m, A, ri, wl_int(&w, m, v[j], v[j ^ 2]));
                WL_SH_ST(&w, m, uint32_t, ok[j][l]);
            }
            wl_exit(&w, m);
        }
        return 0;
    }
    /* shared-memory kernels: the block's 1024 pairs, sorted on the host first (the steps'
     * comparators are disjoint, so their order within a step does not matter) */
    uint32_t key[SSL], val[SSL], k0[SSL], v0[SSL];
    uint64_t off = block * SSL;
    for (uint32_t i = 0; i < SSL; i++) {
        key[i] = k0[i] = sk[off + i];
        val[i] = v0[i] = sv[off + i];
    }
    /* the network: (size, stride, ddd rule) steps */
    uint32_t nthr = SSL / 2;
#define SN_STEP(sz, st, DDD)                                                                      \
    for (uint32_t t = 0; t < nthr; t++) {                                                         \
        uint32_t pos = 2 * t - (t & ((st) - 1));                                                  \
        comparator(&key[pos], &val[pos], &key[pos + (st)], &val[pos + (st)], (DDD));             \
    }
    if (kind == 0) {
        uint32_t L = len < SSL ? len : SSL;
        for (uint32_t sz = 2; sz < L; sz <<= 1)
            for (uint32_t st = sz / 2; st > 0; st >>= 1) SN_STEP(sz, st, s->dir ^ ((t & (sz / 2)) != 0))
        for (uint32_t st = L / 2; st > 0; st >>= 1) SN_STEP(L, st, s->dir)
    } else if (kind == 1) {
        for (uint32_t sz = 2; sz < SSL; sz <<= 1)
            for (uint32_t st = sz / 2; st > 0; st >>= 1) SN_STEP(sz, st, (t & (sz / 2)) != 0)
        for (uint32_t st = SSL / 2; st > 0; st >>= 1) SN_STEP(SSL, st, (uint32_t)(block & 1))
    } else {
        for (uint32_t st = SSL / 2; st > 0; st >>= 1)
            SN_STEP(size, st, s->dir ^ ((((uint32_t)(block * nthr + t) & (len / 2 - 1)) & (size / 2)) != 0))
    }
#undef SN_STEP
    for (uint32_t i = 0; i < SSL; i++) {
        s->okey[off + i] = key[i];
        s->oval[off + i] = val[i];
    }
    for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, k, block, wi);
        uint32_t m = w.live;
        uint64_t A[32], S[32];
        uint8_t ri = sdk_prologue(&w, m);
        uint8_t v[4];
        for (int j = 0; j < 4; j++) {   /* key[tid], val[tid], key[tid+512], val[tid+512] */
            uint32_t h = j >= 2 ? nthr : 0;
            const uint32_t *src = j & 1 ? v0 : k0;
            WL_LANES(m, l) A[l] = (j & 1 ? dsv : dsk) + (off + w.tx[l] + h) * 4;
            v[j] = wl_ldg(&w, m, A, ri);
            WL_SH_LD(&w, m, uint32_t, src[w.tx[l] + h]);
            WL_LANES(m, l) S[l] = ((j & 1 ? SSL : 0) + w.tx[l] + h) * 4;
            sdk_sts(&w, m, 4, S, GMS_REG_NONE, v[j]);
        }
        if (kind == 0) {
            uint32_t L = len < SSL ? len : SSL;
            for (uint32_t sz = 2; sz < L; sz <<= 1)
                for (uint32_t st = sz / 2; st > 0; st >>= 1) comp_emit(&w, m, st);
            for (uint32_t st = L / 2; st > 0; st >>= 1) comp_emit(&w, m, st);
        } else if (kind == 1) {
            for (uint32_t sz = 2; sz < SSL; sz <<= 1)
                for (uint32_t st = sz / 2; st > 0; st >>= 1) comp_emit(&w, m, st);
            for (uint32_t st = SSL / 2; st > 0; st >>= 1) comp_emit(&w, m, st);
        } else {
            for (uint32_t st = SSL / 2; st > 0; st >>= 1) comp_emit(&w, m, st);
        }
        wl_bar(&w);
        for (int j = 0; j < 4; j++) {
            uint32_t h = j >= 2 ? nthr : 0;
            const uint32_t *res = j & 1 ? val : key;
            WL_LANES(m, l) S[l] = ((j & 1 ? SSL : 0) + w.tx[l] + h) * 4;
            uint8_t r = sdk_lds(&w, m, 4, S, GMS_REG_NONE);
            WL_LANES(m, l) A[l] = (j & 1 ? s->dov : s->dok) + (off + w.tx[l] + h) * 4;
            wl_stg(&w, m, A, ri, r);
            WL_SH_ST(&w, m, uint32_t, res[w.tx[l] + h]);
        }
        wl_exit(&w, m);
    }
    return 0;
}

static int sn_next(void *state, gms_program *p, gms_error *err)
{
    sn_st *s = state;
    if (!wl_once(&s->done)) return 0;
    uint64_t b = s->N * 4;
    s->sh = p->shadow;
    s->dik = sdk_alloc(p, s->ikey, b, "d_InputKey");
    s->div = sdk_alloc(p, s->ival, b, "d_InputVal");
    s->dok = sdk_alloc(p, NULL, b, "d_OutputKey");
    s->dov = sdk_alloc(p, NULL, b, "d_OutputVal");
    uint32_t blocks = (uint32_t)(s->N / SSL);
    gms_dim3 g = wl_dim3(blocks, 1, 1), t = wl_dim3(SSL / 2, 1, 1);
    uint32_t shm = 2 * SSL * 4;
    for (uint64_t r = 0; r < s->repeat; r++) {
        if (s->len <= SSL) {
            int64_t a[3] = { 0, 0, 0 };
            wl_launch(p, "_Z17bitonicSortSharedPjS_S_S_jj", g, t, 16, shm, sn_fill, s, a, 3);
            continue;
        }
        int64_t a1[3] = { 1, 0, 0 };
        wl_launch(p, "_Z18bitonicSortShared1PjS_S_S_", g, t, 16, shm, sn_fill, s, a1, 3);
        for (uint64_t size = 2 * SSL; size <= s->len; size <<= 1)
            for (uint64_t stride = size / 2; stride > 0; stride >>= 1) {
                if (stride >= SSL) {
                    int64_t a3[3] = { 3, (int64_t)size, (int64_t)stride };
                    wl_launch(p, "_Z18bitonicMergeGlobalPjS_S_S_jjjj", wl_dim3((uint32_t)(s->N / 512), 1, 1),
                              wl_dim3(256, 1, 1), 16, 0, sn_fill, s, a3, 3);
                } else {
                    int64_t a2[3] = { 2, (int64_t)size, 0 };
                    wl_launch(p, "_Z18bitonicMergeSharedPjS_S_S_jjj", g, t, 16, shm, sn_fill, s, a2, 3);
                    break;
                }
            }
    }
    gms_prog_copy_d2h(p, s->dok, b);
    gms_prog_copy_d2h(p, s->dov, b);
    gms_prog_sync(p);
    return 1;
}

static int sn_verify(void *state, gms_error *err)
{
    sn_st *s = state;
    void *o1, *o2;
    const uint32_t *key = wl_result(s->sh, s->dok, s->okey, s->N, 4, &o1);
    const uint32_t *val = wl_result(s->sh, s->dov, s->oval, s->N, 4, &o2);
    uint32_t *want = wl_malloc(s->N, 4);
    uint8_t *seen = wl_calloc(s->N, 1);
    int rc = 0;
    for (uint64_t a = 0; a < s->N && !rc; a += s->len) {
        memcpy(want + a, s->ikey + a, s->len * 4);
        qsort(want + a, s->len, 4, gms_cmp_u32);
        if (!s->dir)
            for (uint64_t i = 0; i < s->len / 2; i++) {
                uint32_t t = want[a + i];
                want[a + i] = want[a + s->len - 1 - i];
                want[a + s->len - 1 - i] = t;
            }
    }
    rc = wl_check_u32("sortingnetworks", "keys", key, want, s->N, err);
    for (uint64_t i = 0; i < s->N && !rc; i++) {
        uint32_t v = val[i];
        if (v >= s->N || seen[v] || s->ikey[v] != key[i] || v / s->len != i / s->len)
            rc = gms_err(err, "workload sortingnetworks: value[%llu] = %u is not the index of an unused input "
                              "element of key %u in its array", (unsigned long long)i, v, key[i]);
        else
            seen[v] = 1;
    }
    free(o1);
    free(o2);
    free(want);
    free(seen);
    return rc ? -1 : 0;
}

static void sn_destroy(void *state)
{
    sn_st *s = state;
    if (!s) return;
    free(s->ikey);
    free(s->ival);
    free(s->okey);
    free(s->oval);
    free(s);
}

static uint64_t sn_footprint(const gms_wl_args *a)
{
    gms_error e;
    uint64_t N, len;
    return sn_sizes(a, &N, &len, &e) ? 0 : 4 * N * 4;
}

const gms_workload_ops gms_wl_sdk_sortingnetworks = {
    .name = "sortingnetworks",
    .suite = "sdk",
    .domain = "sorting",
    .ri = "-",
    .summary = "SN: bitonic sort of key/value pairs: 1024-element networks in shared memory, global merge steps",
    .params = sn_params,
    .create = sn_create,
    .next = sn_next,
    .verify = sn_verify,
    .destroy = sn_destroy,
    .footprint = sn_footprint,
};
