/* scalarprod (SDK scalarProd, seed SP): dot products of `vectors` pairs of `elements`-float
 * vectors, cuda-samples scalarProd_kernel.cuh, scalarProdGPU<<<128, 256>>>:
 *   __shared__ float accumResult[ACCUM_N = 1024];
 *   for (vec = blockIdx.x; vec < vectorN; vec += gridDim.x) {
 *     base = elementN*vec, end = base + elementN;
 *     for (iAccum = threadIdx.x; iAccum < ACCUM_N; iAccum += blockDim.x) {
 *       sum = 0; for (pos = base + iAccum; pos < end; pos += ACCUM_N) sum += A[pos]*B[pos];
 *       accumResult[iAccum] = sum; }
 *     for (stride = ACCUM_N/2; stride > 0; stride >>= 1) { sync;
 *       for (iAccum = threadIdx.x; iAccum < stride; iAccum += blockDim.x)
 *         accumResult[iAccum] += accumResult[stride + iAccum]; }
 *     sync; if (threadIdx.x == 0) C[vec] = accumResult[0]; }
 * Each warp reads 128-byte runs of both vectors (coalesced, each element once), then a
 * shared-memory tree. Inputs as the sample: uniform in [0, 1); the CPU reference is the
 * sample's scalarProdCPU (double). */
#include "workloads/sdk_util.h"
#include <stdlib.h>

#define ACCUM_N 1024u
#define SP_BLOCKS 128u
#define SP_THREADS 256u

typedef struct sp_st {
    uint64_t vecs, elems, repeat;
    float *A, *B, *C;
    uint64_t dA, dB, dC;
    wl_shadow *sh;
    int done;
} sp_st;

static const gms_wl_param sp_params[] = {
    { "vectors", "256", "vector pairs (VECTOR_N)" },
    { "elements", "4096", "floats per vector (ELEMENT_N)" },
    { "scale", "1", "multiplies vectors and elements" },
    { "repeat", "1", "run the kernel this many times" },
    { NULL, NULL, NULL },
};

static int sp_sizes(const gms_wl_args *a, uint64_t *v, uint64_t *e, uint64_t *bytes, gms_error *err)
{
    if (wl_clamp_size(a, "scalarprod", "vectors", 1, 1ULL << 24, v, err)) return -1;
    if (wl_clamp_size(a, "scalarprod", "elements", 1, 1ULL << 30, e, err)) return -1;
    return wl_bytes("scalarprod", "vectors", *v, *e, 1, 4, WL_MAX_ARRAY_BYTES, bytes, err);
}

static int sp_create(const gms_wl_args *a, void **state, gms_error *err)
{
    uint64_t v, e, b, rep;
    if (sp_sizes(a, &v, &e, &b, err) || sdk_repeat(a, &rep, err)) return -1;
    sp_st *s = gms_xcalloc(1, sizeof *s);
    s->vecs = v;
    s->elems = e;
    s->repeat = rep;
    s->A = wl_malloc(v * e, 4);
    s->B = wl_malloc(v * e, 4);
    s->C = wl_calloc(v, 4);
    gms_rng r;
    gms_rng_seed(&r, gms_wl_seed(a));
    for (uint64_t i = 0; i < v * e; i++) s->A[i] = wl_randf(&r);
    for (uint64_t i = 0; i < v * e; i++) s->B[i] = wl_randf(&r);
    *state = s;
    return 0;
}

static int sp_fill(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    sp_st *s = k->st;
    wl_warp W[SDK_MAX_WARPS];
    uint32_t nw = sdk_warps(W, bt, k, block);
    float acc[ACCUM_N];
    uint8_t rv[SDK_MAX_WARPS];
    for (uint32_t i = 0; i < nw; i++) {
        wl_warp *w = &W[i];
        rv[i] = sdk_prologue(w, w->live);
        wl_pred(w, w->live, rv[i], GMS_REG_NONE);      /* vec < vectorN */
        wl_bra(w, w->live);
    }
    for (uint64_t vec = block; vec < s->vecs; vec += SP_BLOCKS) {
        uint64_t base = s->elems * vec, end = base + s->elems;
        for (uint32_t i = 0; i < nw; i++) {
            wl_warp *w = &W[i];
            uint32_t m = w->live;
            uint8_t rb = wl_int(w, m, rv[i], GMS_REG_NONE);         /* IMAD base */
            for (uint32_t it = 0; it < ACCUM_N / SP_THREADS; it++) {
                uint64_t A[32], B[32], O[32];
                uint8_t sum = wl_int(w, m, GMS_REG_NONE, GMS_REG_NONE);   /* MOV sum = 0 */
                uint8_t pp = wl_int(w, m, rb, GMS_REG_NONE);              /* pos = base + iAccum */
                wl_pred(w, m, pp, GMS_REG_NONE);
                wl_bra(w, m);
                WL_LANES(m, l) acc[it * SP_THREADS + w->tx[l]] = 0;
                for (uint64_t p0 = base + it * SP_THREADS; p0 < end; p0 += ACCUM_N) {
                    uint32_t lm = 0;
                    WL_LANES(m, l) if (p0 + w->tx[l] < end) lm |= 1u << l;
                    if (!lm) break;
                    WL_LANES(lm, l) {
                        A[l] = s->dA + (p0 + w->tx[l]) * 4;
                        B[l] = s->dB + (p0 + w->tx[l]) * 4;
                    }
                    uint8_t pa = wl_int(w, lm, pp, GMS_REG_NONE);         /* IMAD.WIDE */
                    uint8_t va = wl_ldg(w, lm, A, pa);
                    WL_SH_LD(w, lm, float, s->A[p0 + w->tx[l]]);
                    uint8_t vb = wl_ldg(w, lm, B, wl_int(w, lm, pp, GMS_REG_NONE));
                    WL_SH_LD(w, lm, float, s->B[p0 + w->tx[l]]);
                    sum = wl_fp(w, lm, va, vb, sum);                       /* FFMA */
                    WL_LANES(lm, l) acc[it * SP_THREADS + w->tx[l]] += s->A[p0 + w->tx[l]] * s->B[p0 + w->tx[l]];
                    pp = wl_int(w, lm, pp, GMS_REG_NONE);                 /* pos += ACCUM_N */
                    wl_pred(w, lm, pp, GMS_REG_NONE);
                    wl_bra(w, lm);
                }
                WL_LANES(m, l) O[l] = (it * SP_THREADS + w->tx[l]) * 4;
                sdk_sts(w, m, 4, O, GMS_REG_NONE, sum);                    /* accumResult[iAccum] */
                wl_int(w, m, GMS_REG_NONE, GMS_REG_NONE);                  /* iAccum += blockDim */
                wl_pred(w, m, GMS_REG_NONE, GMS_REG_NONE);
                wl_bra(w, m);
            }
        }
        for (uint32_t stride = ACCUM_N / 2; stride > 0; stride >>= 1) {
            for (uint32_t i = 0; i < nw; i++) {
                wl_warp *w = &W[i];
                wl_bar(w);
                uint32_t m = 0;
                WL_LANES(w->live, l) if (w->tx[l] < stride) m |= 1u << l;
                /* iAccum < stride: every thread of the block adds at most
                 * ceil(stride / blockDim) pairs (2 for stride 512) */
                for (uint32_t it = 0; it * SP_THREADS < stride; it++) {
                    uint64_t a0[32], a1[32];
                    wl_pred(w, w->live, GMS_REG_NONE, GMS_REG_NONE);
                    wl_bra(w, w->live);
                    if (!m) continue;
                    WL_LANES(m, l) {
                        a0[l] = (it * SP_THREADS + w->tx[l]) * 4;
                        a1[l] = (stride + it * SP_THREADS + w->tx[l]) * 4;
                    }
                    uint8_t x = sdk_lds(w, m, 4, a0, GMS_REG_NONE);
                    uint8_t y = sdk_lds(w, m, 4, a1, GMS_REG_NONE);
                    sdk_sts(w, m, 4, a0, GMS_REG_NONE, wl_fp(w, m, x, y, GMS_REG_NONE));
                    wl_int(w, m, GMS_REG_NONE, GMS_REG_NONE);
                }
            }
            for (uint32_t t = 0; t < stride; t++) acc[t] += acc[stride + t];
        }
        s->C[vec] = acc[0];
        for (uint32_t i = 0; i < nw; i++) {
            wl_warp *w = &W[i];
            wl_bar(w);
            wl_pred(w, w->live, GMS_REG_NONE, GMS_REG_NONE);        /* threadIdx.x == 0 */
            uint32_t m0 = (i == 0) ? 1u : 0u;
            wl_bra(w, w->live & ~m0);
            if (m0) {
                uint64_t z[32] = { 0 }, C[32];
                C[0] = s->dC + vec * 4;
                uint8_t r = sdk_lds(w, 1, 4, z, GMS_REG_NONE);
                wl_stg(w, 1, C, wl_int(w, 1, rv[i], GMS_REG_NONE), r);
                WL_SH_ST(w, 1u, float, s->C[vec]);
            }
            rv[i] = wl_int(w, w->live, rv[i], GMS_REG_NONE);             /* vec += gridDim.x */
            wl_pred(w, w->live, rv[i], GMS_REG_NONE);
            wl_bra(w, w->live);
        }
    }
    for (uint32_t i = 0; i < nw; i++) wl_exit(&W[i], W[i].live);
    return 0;
}

static int sp_next(void *state, gms_program *p, gms_error *err)
{
    sp_st *s = state;
    if (!wl_once(&s->done)) return 0;
    uint64_t b = s->vecs * s->elems * 4;
    s->sh = p->shadow;
    s->dA = sdk_alloc(p, s->A, b, "d_A");
    s->dB = sdk_alloc(p, s->B, b, "d_B");
    s->dC = sdk_alloc(p, NULL, s->vecs * 4, "d_C");
    for (uint64_t r = 0; r < s->repeat; r++)
        wl_launch(p, "_Z13scalarProdGPUPfS_S_ii", wl_dim3(SP_BLOCKS, 1, 1), wl_dim3(SP_THREADS, 1, 1), 16,
                  ACCUM_N * 4, sp_fill, s, NULL, 0);
    gms_prog_copy_d2h(p, s->dC, s->vecs * 4);
    gms_prog_sync(p);
    return 1;
}

static int sp_verify(void *state, gms_error *err)
{
    sp_st *s = state;
    float *want = wl_malloc(s->vecs, 4);
    for (uint64_t v = 0; v < s->vecs; v++) {   /* scalarProdCPU */
        double sum = 0;
        for (uint64_t i = 0; i < s->elems; i++) sum += (double)s->A[v * s->elems + i] * s->B[v * s->elems + i];
        want[v] = (float)sum;
    }
    void *own;
    const float *got = wl_result(s->sh, s->dC, s->C, s->vecs, 4, &own);
    int rc = wl_check_f32("scalarprod", "C", got, want, s->vecs, 1e-5, 1e-5, err);
    free(own);
    free(want);
    return rc ? -1 : 0;
}

static void sp_destroy(void *state)
{
    sp_st *s = state;
    if (!s) return;
    free(s->A);
    free(s->B);
    free(s->C);
    free(s);
}

static uint64_t sp_footprint(const gms_wl_args *a)
{
    gms_error e;
    uint64_t v, el, b;
    return sp_sizes(a, &v, &el, &b, &e) ? 0 : 2 * b + v * 4;
}

const gms_workload_ops gms_wl_sdk_scalarprod = {
    .name = "scalarprod",
    .suite = "sdk",
    .domain = "linear algebra",
    .ri = "-",
    .summary = "SP: dot products of vector pairs, 128 blocks x 256, 1024 accumulators and a shared-memory tree",
    .params = sp_params,
    .create = sp_create,
    .next = sp_next,
    .verify = sp_verify,
    .destroy = sp_destroy,
    .footprint = sp_footprint,
};
