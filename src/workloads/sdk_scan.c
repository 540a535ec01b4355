/* scan (SDK scan, seed SCN): exclusive prefix sums of N/arrayLength arrays of arrayLength
 * uints, the sample's scanExclusiveLarge (cuda-samples scan.cu, THREADBLOCK_SIZE 256):
 *   scanExclusiveShared<<<N/1024, 256>>>(uint4 *d_Dst, uint4 *d_Src, 1024)
 *     each thread loads a uint4 (LDG.128), scans it, and the block scans the 256 sums:
 *     warp scans in s_Data[2*256] (zero padding, 5 offsets of LDS LDS IADD STS), sync, the
 *     8 warp totals scanned by warp 0, sync, added back; STG.128 of the exclusive results
 *   scanExclusiveShared2<<<ceil(N/1024/256), 256>>>(d_Buf, d_Dst, d_Src, N/1024, arrayLength/1024)
 *     each thread one block total (last element of its block in d_Dst + in d_Src: two
 *     1024-element-strided loads), scanned in segments of arrayLength/1024
 *   uniformUpdate<<<N/1024, 256>>>(uint4 *d_Data, d_Buf): thread 0 loads the block's offset
 *     into shared memory, sync, every thread adds it to its uint4 (LDG.128 + STG.128)
 * `iterations` (numIterations, 100) times. The sample also scans short arrays (4..1024
 * elements) and every large length from 2048 up; here one length (array_length) per run,
 * default the largest, 262144, on the sample's N = 13*1048576/2 (26 arrays). Inputs rand(),
 * sums wrapping mod 2^32 as the sample's uints; the CPU reference is scanExclusiveHost. */
#include "workloads/sdk_util.h"
#include <stdlib.h>

#define TB 256u
#define E4 (4 * TB)   /* elements per block of the first kernel */

typedef struct scn_st {
    uint64_t N, len, iters, repeat;
    uint32_t *src, *dst, *buf;
    uint64_t dsrc, ddst, dbuf;
    wl_shadow *sh;
    int done;
} scn_st;

static const gms_wl_param scn_params[] = {
    { "N", "6815744", "elements in all (N = 13*1048576/2; a multiple of array_length)" },
    { "array_length", "262144", "elements per array (a power of two, 2048..262144)" },
    { "iterations", "100", "times the three kernels run (numIterations)" },
    { "scale", "1", "multiplies N" },
    { "repeat", "1", "run the whole launch sequence this many times" },
    { NULL, NULL, NULL },
};

static int scn_sizes(const gms_wl_args *a, uint64_t *N, uint64_t *len, gms_error *err)
{
    *len = gms_wl_u64(a, "array_length");
    if (*len < 2048 || *len > 262144 || (*len & (*len - 1)))
        return gms_err(err, "workload scan: array_length=%llu must be a power of two in [2048, 262144]",
                       (unsigned long long)*len);
    return wl_clamp_scaled(a, "scan", "N", *len, *len, 1ULL << 32, N, err);
}

static int scn_create(const gms_wl_args *a, void **state, gms_error *err)
{
    uint64_t N, len, rep;
    if (scn_sizes(a, &N, &len, err) || sdk_repeat(a, &rep, err)) return -1;
    if (gms_wl_check_range(a, "iterations", 1, 100000, err)) return -1;
    scn_st *s = gms_xcalloc(1, sizeof *s);
    s->N = N;
    s->len = len;
    s->iters = gms_wl_u64(a, "iterations");
    s->repeat = rep;
    s->src = wl_malloc(N, 4);
    s->dst = wl_calloc(N, 4);
    s->buf = wl_calloc(N / E4, 4);
    gms_rng r;
    gms_rng_seed(&r, gms_wl_seed(a));
    for (uint64_t i = 0; i < N; i++) s->src[i] = (uint32_t)(gms_rng_next(&r) >> 33);   /* rand(): 31 bits */
    *state = s;
    return 0;
}

static unsigned __int128 u4(const uint32_t *p)
{
    return (unsigned __int128)p[3] << 96 | (unsigned __int128)p[2] << 64 | (unsigned __int128)p[1] << 32 | p[0];
}

/* warpScanInclusive(idata, s_Data, size) on the lanes m of warp w (tid = lane's threadIdx.x):
 * pos = 2*tid - (tid & (size-1)); s_Data[pos] = 0; pos += size; s_Data[pos] = idata;
 * offsets 1 .. size/2: s_Data[pos] += s_Data[pos - offset] */
static uint8_t warp_scan(wl_warp *w, uint32_t m, uint32_t size, uint8_t v)
{
    uint64_t P[32], Q[32];
    WL_LANES(m, l) P[l] = (2 * w->tx[l] - (w->tx[l] & (size - 1))) * 4;
    uint8_t rp = wl_int(w, m, GMS_REG_NONE, GMS_REG_NONE);
    sdk_sts(w, m, 4, P, rp, GMS_REG_NONE);
    WL_LANES(m, l) P[l] += size * 4;
    sdk_sts(w, m, 4, P, rp, v);
    for (uint32_t off = 1; off < size; off <<= 1) {
        WL_LANES(m, l) Q[l] = P[l] - off * 4;
        uint8_t a = sdk_lds(w, m, 4, P, rp), b = sdk_lds(w, m, 4, Q, rp);
        v = wl_int(w, m, a, b);
        sdk_sts(w, m, 4, P, rp, v);
    }
    return v;
}

/* scan1Inclusive's instructions for the block (values are computed on the host) */
static uint8_t scan1(wl_warp *w, uint32_t m, uint32_t size, uint8_t v)
{
    if (size <= 32) return warp_scan(w, m, size, v);
    uint8_t r = warp_scan(w, m, 32, v);
    wl_bar(w);
    uint32_t top = 0;
    WL_LANES(m, l) if ((w->tx[l] & 31) == 31) top |= 1u << l;
    uint64_t T[32], X[32];
    WL_LANES(top, l) T[l] = (w->tx[l] >> 5) * 4;
    wl_pred(w, m, GMS_REG_NONE, GMS_REG_NONE);
    if (top) sdk_sts(w, top, 4, T, GMS_REG_NONE, r);
    wl_bar(w);
    uint32_t lo = 0;
    WL_LANES(m, l) if (w->tx[l] < TB / 32) lo |= 1u << l;
    wl_pred(w, m, GMS_REG_NONE, GMS_REG_NONE);
    wl_bra(w, m & ~lo);
    if (lo) {
        WL_LANES(lo, l) X[l] = w->tx[l] * 4;
        uint8_t val = sdk_lds(w, lo, 4, X, GMS_REG_NONE);
        uint8_t e = wl_int(w, lo, warp_scan(w, lo, size >> 5, val), val);   /* exclusive */
        sdk_sts(w, lo, 4, X, GMS_REG_NONE, e);
    }
    wl_bar(w);
    WL_LANES(m, l) X[l] = (w->tx[l] >> 5) * 4;
    return wl_int(w, m, r, sdk_lds(w, m, 4, X, GMS_REG_NONE));
}

/* arg 0: kernel 1, 2 or 3 */
static int scn_fill(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    scn_st *s = k->st;
    int kind = (int)k->arg[0];
    for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, k, block, wi);
        uint32_t m = w.live;
        uint64_t pos[32], A[32], B[32];
        uint8_t ri = sdk_prologue(&w, m);
        WL_LANES(m, l) pos[l] = block * TB + w.tx[l];
        if (kind == 1) {
            WL_LANES(m, l) A[l] = s->dsrc + pos[l] * 16;
            uint8_t v = wl_ld(&w, m, GMS_MEM_LD_GLOBAL, 16, A, wl_int(&w, m, ri, GMS_REG_NONE));
            WL_SH_LD(&w, m, unsigned __int128, u4(&s->src[pos[l] * 4]));
            uint8_t t = sdk_ints(&w, m, 3, v);                                     /* y += x; z += y; w += z */
            uint8_t o = wl_int(&w, m, scan1(&w, m, TB, t), t);                    /* exclusive */
            uint8_t r = sdk_ints(&w, m, 4, o);
            /* host: the block's exclusive scan of its 1024 elements */
            if (wi == 0) {
                uint32_t acc = 0;
                for (uint64_t i = block * E4; i < (block + 1) * E4; i++) {
                    s->dst[i] = acc;
                    acc += s->src[i];
                }
            }
            WL_LANES(m, l) A[l] = s->ddst + pos[l] * 16;
            wl_st(&w, m, GMS_MEM_ST_GLOBAL, 16, A, ri, r);
            WL_SH_ST(&w, m, unsigned __int128, u4(&s->dst[pos[l] * 4]));
        } else if (kind == 2) {
            uint64_t n2 = s->N / E4, seg = s->len / E4;
            uint32_t mk = 0;
            WL_LANES(m, l) if (pos[l] < n2) mk |= 1u << l;
            wl_pred(&w, m, ri, GMS_REG_NONE);
            uint8_t v = wl_int(&w, m, GMS_REG_NONE, GMS_REG_NONE);                 /* idata = 0 */
            if (mk) {
                WL_LANES(mk, l) {
                    A[l] = s->ddst + (E4 - 1 + E4 * pos[l]) * 4;
                    B[l] = s->dsrc + (E4 - 1 + E4 * pos[l]) * 4;
                }
                uint8_t a = wl_ldg(&w, mk, A, ri);
                WL_SH_LD(&w, mk, uint32_t, s->dst[E4 - 1 + E4 * pos[l]]);
                uint8_t b = wl_ldg(&w, mk, B, ri);
                WL_SH_LD(&w, mk, uint32_t, s->src[E4 - 1 + E4 * pos[l]]);
                v = wl_int(&w, mk, a, b);
            }
            uint8_t o = wl_int(&w, m, scan1(&w, m, (uint32_t)seg, v), v);
            if (wi == 0) {   /* host: the exclusive scan of the block totals, per segment */
                for (uint64_t p = block * TB; p < (block + 1) * TB && p < n2; p++) {
                    uint32_t prev = p % seg ? s->buf[p - 1] + s->dst[E4 * p - 1] + s->src[E4 * p - 1] : 0;
                    s->buf[p] = prev;
                }
            }
            if (mk) {
                WL_LANES(mk, l) A[l] = s->dbuf + pos[l] * 4;
                wl_stg(&w, mk, A, ri, o);
                WL_SH_ST(&w, mk, uint32_t, s->buf[pos[l]]);
            }
        } else {
            uint64_t z[32] = { 0 };
            wl_pred(&w, m, GMS_REG_NONE, GMS_REG_NONE);                           /* threadIdx.x == 0 */
            if (wi == 0) {
                A[0] = s->dbuf + block * 4;
                uint8_t b = wl_ldg(&w, 1, A, ri);
                WL_SH_LD(&w, 1u, uint32_t, s->buf[block]);
                sdk_sts(&w, 1, 4, z, GMS_REG_NONE, b);
            }
            wl_bar(&w);
            uint8_t b = sdk_lds(&w, m, 4, z, GMS_REG_NONE);
            WL_LANES(m, l) A[l] = s->ddst + pos[l] * 16;
            uint8_t v = wl_ld(&w, m, GMS_MEM_LD_GLOBAL, 16, A, wl_int(&w, m, ri, GMS_REG_NONE));
            WL_SH_LD(&w, m, unsigned __int128, u4(&s->dst[pos[l] * 4]));
            WL_LANES(m, l) for (int j = 0; j < 4; j++) s->dst[pos[l] * 4 + (uint64_t)j] += s->buf[block];
            uint8_t r = wl_int(&w, m, v, b);
            r = sdk_ints(&w, m, 3, r);
            wl_st(&w, m, GMS_MEM_ST_GLOBAL, 16, A, ri, r);
            WL_SH_ST(&w, m, unsigned __int128, u4(&s->dst[pos[l] * 4]));
        }
        wl_exit(&w, m);
    }
    return 0;
}

static int scn_next(void *state, gms_program *p, gms_error *err)
{
    scn_st *s = state;
    if (!wl_once(&s->done)) return 0;
    uint64_t b = s->N * 4, nb = s->N / E4;
    s->sh = p->shadow;
    s->dsrc = sdk_alloc(p, s->src, b, "d_Input");
    s->ddst = sdk_alloc(p, NULL, b, "d_Output");
    /* the sample's d_Buf: MAX_BATCH_ELEMENTS / (4*256) = 65536 uints (more for a larger N) */
    s->dbuf = sdk_alloc(p, NULL, (nb > 65536 ? nb : 65536) * 4, "d_Buf");
    int64_t k1 = 1, k2 = 2, k3 = 3;
    for (uint64_t r = 0; r < s->repeat; r++)
        for (uint64_t i = 0; i < s->iters; i++) {
            wl_launch(p, "_Z19scanExclusiveSharedP5uint4S0_j", wl_dim3((uint32_t)nb, 1, 1), wl_dim3(TB, 1, 1), 16,
                      2 * TB * 4, scn_fill, s, &k1, 1);
            wl_launch(p, "_Z20scanExclusiveShared2PjS_S_jj", wl_dim3(wl_cdiv(nb, TB), 1, 1), wl_dim3(TB, 1, 1), 16,
                      2 * TB * 4, scn_fill, s, &k2, 1);
            wl_launch(p, "_Z13uniformUpdateP5uint4Pj", wl_dim3((uint32_t)nb, 1, 1), wl_dim3(TB, 1, 1), 12, 4, scn_fill,
                      s, &k3, 1);
        }
    gms_prog_copy_d2h(p, s->ddst, b);
    gms_prog_sync(p);
    return 1;
}

static int scn_verify(void *state, gms_error *err)
{
    scn_st *s = state;
    uint32_t *want = wl_malloc(s->N, 4);
    for (uint64_t a = 0; a < s->N; a += s->len) {   /* scanExclusiveHost */
        uint32_t acc = 0;
        for (uint64_t i = a; i < a + s->len; i++) {
            want[i] = acc;
            acc += s->src[i];
        }
    }
    void *own;
    const uint32_t *got = wl_result(s->sh, s->ddst, s->dst, s->N, 4, &own);
    int rc = wl_check_u32("scan", "d_Output", got, want, s->N, err);
    free(own);
    free(want);
    return rc ? -1 : 0;
}

static void scn_destroy(void *state)
{
    scn_st *s = state;
    if (!s) return;
    free(s->src);
    free(s->dst);
    free(s->buf);
    free(s);
}

static uint64_t scn_footprint(const gms_wl_args *a)
{
    gms_error e;
    uint64_t N, len;
    if (scn_sizes(a, &N, &len, &e)) return 0;
    uint64_t nb = N / E4;
    return 2 * N * 4 + (nb > 65536 ? nb : 65536) * 4;
}

const gms_workload_ops gms_wl_sdk_scan = {
    .name = "scan",
    .suite = "sdk",
    .domain = "parallel primitive",
    .ri = "-",
    .summary = "SCN: exclusive prefix sums of large arrays: block scans (uint4 + shared-memory warp scans), "
               "block totals, uniform update",
    .params = scn_params,
    .create = scn_create,
    .next = scn_next,
    .verify = scn_verify,
    .destroy = scn_destroy,
    .footprint = scn_footprint,
};
