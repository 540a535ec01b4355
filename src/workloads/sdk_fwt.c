/* fwt (SDK fastWalshTransform, seed FWT): dyadic convolution of 2^log2Data floats with a
 * 2^log2Kernel-float kernel by Walsh-Hadamard transforms, cuda-samples fastWalshTransform:
 *   fwtBatchGPU(d, log2N): while log2N > 11: fwtBatch2Kernel<<<(N/1024, 1), 256>>>(d, d,
 *     stride = N/4) (one radix-4 butterfly per thread straight from global memory: 4 loads
 *     and 4 stores `stride` apart), log2N -= 2; then fwtBatch1Kernel<<<M, N/4, N*4>>>: each
 *     block transforms its 2^log2N (<= 2048) floats in shared memory (radix-4 stages with a
 *     sync each, a radix-2 stage for an odd power)
 *   fwt(d_Data); fwt(d_Kernel); modulateKernel<<<128, 256>>>(d_Data, d_Kernel, N)
 *     (grid-stride d_A[pos] *= d_B[pos] / N: long, generated resumably); fwt(d_Data)
 * Data and kernel are rand()/RAND_MAX; the kernel buffer is dataN floats, zero past kernelN
 * (the sample's cudaMemset then a kernelN copy: here one copy of the padded buffer). The CPU
 * reference is the sample's dyadicConvolutionCPU (double sums of data[i^j]*kernel[j]). */
#include "workloads/sdk_util.h"
#include <stdlib.h>

#define ELEM_LOG2 11

typedef struct fwt_st {
    uint64_t n, kn, repeat;
    unsigned log2n;
    float *data0, *kern0;   /* the inputs (kept for the reference) */
    float *data, *kern;     /* the device arrays */
    uint64_t dd, dk;
    wl_shadow *sh;
    int done;
} fwt_st;

static const gms_wl_param fwt_params[] = {
    { "log2Data", "23", "log2 of the data length" },
    { "log2Kernel", "7", "log2 of the convolution kernel length (<= log2Data)" },
    { "scale", "1", "multiplies the data length (rounded down to a power of two)" },
    { "repeat", "1", "run the whole convolution this many times (on the same inputs)" },
    { NULL, NULL, NULL },
};

static int fwt_sizes(const gms_wl_args *a, unsigned *l2n, unsigned *l2k, gms_error *err)
{
    if (gms_wl_check_range(a, "log2Data", 1, 30, err) || gms_wl_check_range(a, "log2Kernel", 1, 30, err)) return -1;
    unsigned ld = (unsigned)gms_wl_u64(a, "log2Data"), lk = (unsigned)gms_wl_u64(a, "log2Kernel");
    if (lk > ld)
        return gms_err(err, "workload fwt: log2Kernel=%u must be at most log2Data=%u", lk, ld);
    double v = (double)(1ULL << ld) * gms_wl_f64(a, "scale");
    if (!(v > 0)) return gms_err(err, "workload fwt: scale=%g must be a positive number", gms_wl_f64(a, "scale"));
    if (v >= (double)(1ULL << 31))   /* refused, not cut down to the largest length */
        return gms_err(err, "workload fwt: log2Data=%u with scale=%g gives %.3g elements, more than the maximum 2^30",
                       ld, gms_wl_f64(a, "scale"), v);
    unsigned l = 0;
    while (l < 30 && (double)(2ULL << l) <= v) l++;
    *l2n = (unsigned)wl_clamp_min(a, "log2Data", l, lk);
    *l2k = lk;
    return 0;
}

static int fwt_create(const gms_wl_args *a, void **state, gms_error *err)
{
    unsigned l2n, l2k;
    uint64_t rep;
    if (fwt_sizes(a, &l2n, &l2k, err) || sdk_repeat(a, &rep, err)) return -1;
    fwt_st *s = gms_xcalloc(1, sizeof *s);
    s->log2n = l2n;
    s->n = 1ULL << l2n;
    s->kn = 1ULL << l2k;
    s->repeat = rep;
    s->data0 = wl_malloc(s->n, 4);
    s->kern0 = wl_calloc(s->n, 4);
    s->data = wl_malloc(s->n, 4);
    s->kern = wl_malloc(s->n, 4);
    gms_rng r;
    gms_rng_seed(&r, gms_wl_seed(a));
    for (uint64_t i = 0; i < s->kn; i++) s->kern0[i] = wl_randf(&r);
    for (uint64_t i = 0; i < s->n; i++) s->data0[i] = wl_randf(&r);
    *state = s;
    return 0;
}

/* args: 0 kernel (2 batch2, 1 batch1), 1 array (0 data, 1 kernel), 2 stride / log2N, 3 first
 * launch of a repetition after the first: the arrays start from the inputs again (the H2D
 * copies in the program; here, when block 0 is generated, the host arrays and the shadow) */
static int fwt_fill(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    fwt_st *s = k->st;
    int kind = (int)k->arg[0];
    if (k->arg[3] && block == 0) {
        memcpy(s->data, s->data0, s->n * 4);
        memcpy(s->kern, s->kern0, s->n * 4);
        if (wl_shadow_active(k->sh)) {
            wl_shadow_write(k->sh, s->dd, s->data0, s->n * 4);
            wl_shadow_write(k->sh, s->dk, s->kern0, s->n * 4);
        }
    }
    float *d = k->arg[1] ? s->kern : s->data;
    uint64_t dev = k->arg[1] ? s->dk : s->dd;
    if (kind == 2) {
        uint64_t stride = (uint64_t)k->arg[2];
        for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
            wl_warp w;
            wl_warp_begin(&w, bt, k, block, wi);
            uint32_t m = w.live;
            uint64_t I[4][32], A[32];
            float D[4][32];
            uint8_t ri = sdk_ints(&w, m, 4, sdk_prologue(&w, m));              /* lo, i0 */
            WL_LANES(m, l) {
                uint64_t pos = block * k->block.x + w.tx[l], lo = pos & (stride - 1);
                I[0][l] = ((pos - lo) << 2) + lo;
                for (int j = 1; j < 4; j++) I[j][l] = I[j - 1][l] + stride;
                for (int j = 0; j < 4; j++) D[j][l] = d[I[j][l]];
            }
            uint8_t v[4];
            for (int j = 0; j < 4; j++) {
                WL_LANES(m, l) A[l] = dev + I[j][l] * 4;
                v[j] = wl_ldg(&w, m, A, ri);
                WL_SH_LD(&w, m, float, D[j][l]);
            }
            WL_LANES(m, l) {
                float d0 = D[0][l] + D[2][l], d2 = D[0][l] - D[2][l], d1 = D[1][l] + D[3][l], d3 = D[1][l] - D[3][l];
                D[0][l] = d0 + d1;
                D[1][l] = d0 - d1;
                D[2][l] = d2 + d3;
                D[3][l] = d2 - d3;
                for (int j = 0; j < 4; j++) d[I[j][l]] = D[j][l];
            }
            uint8_t a = wl_fp(&w, m, v[0], v[2], GMS_REG_NONE), b = wl_fp(&w, m, v[0], v[2], GMS_REG_NONE);
            uint8_t c = wl_fp(&w, m, v[1], v[3], GMS_REG_NONE), e = wl_fp(&w, m, v[1], v[3], GMS_REG_NONE);
            uint8_t o[4] = { wl_fp(&w, m, a, c, GMS_REG_NONE), wl_fp(&w, m, a, c, GMS_REG_NONE),
                             wl_fp(&w, m, b, e, GMS_REG_NONE), wl_fp(&w, m, b, e, GMS_REG_NONE) };
            for (int j = 0; j < 4; j++) {
                WL_LANES(m, l) A[l] = dev + I[j][l] * 4;
                wl_stg(&w, m, A, ri, o[j]);
                WL_SH_ST(&w, m, float, D[j][l]);
            }
            wl_exit(&w, m);
        }
        return 0;
    }
    /* fwtBatch1Kernel: the block's 2^log2N floats, transformed on the host first */
    unsigned l2 = (unsigned)k->arg[2];
    uint32_t N = 1u << l2, nt = k->block.x;
    uint64_t base = block << l2;
    float *sd = wl_malloc(N, 4), *orig = wl_malloc(N, 4);
    memcpy(sd, d + base, N * 4);
    memcpy(orig, sd, N * 4);
    for (uint32_t stride = N >> 2; stride > 0; stride >>= 2)
        for (uint32_t pos = 0; pos < nt; pos++) {
            uint32_t lo = pos & (stride - 1), i0 = ((pos - lo) << 2) + lo, i1 = i0 + stride, i2 = i1 + stride,
                     i3 = i2 + stride;
            float D0 = sd[i0], D1 = sd[i1], D2 = sd[i2], D3 = sd[i3], T;
            T = D0; D0 = D0 + D2; D2 = T - D2;
            T = D1; D1 = D1 + D3; D3 = T - D3;
            sd[i0] = D0 + D1; sd[i1] = D0 - D1;
            sd[i2] = D2 + D3; sd[i3] = D2 - D3;
        }
    if (l2 & 1)
        for (uint32_t pos = 0; pos < N / 2; pos++) {
            float D0 = sd[2 * pos], D1 = sd[2 * pos + 1];
            sd[2 * pos] = D0 + D1;
            sd[2 * pos + 1] = D0 - D1;
        }
    memcpy(d + base, sd, N * 4);
    for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, k, block, wi);
        uint32_t m = w.live;
        uint64_t A[32], S[32];
        uint8_t ri = sdk_prologue(&w, m);
        for (uint32_t p0 = 0; p0 < N; p0 += nt) {   /* s_data[pos] = d_Src[pos] */
            uint32_t mk = 0;
            WL_LANES(m, l) if (p0 + w.tx[l] < N) mk |= 1u << l;
            wl_pred(&w, m, ri, GMS_REG_NONE);
            if (!mk) break;
            WL_LANES(mk, l) {
                A[l] = dev + (base + p0 + w.tx[l]) * 4;
                S[l] = (p0 + w.tx[l]) * 4;
            }
            uint8_t v = wl_ldg(&w, mk, A, ri);
            WL_SH_LD(&w, mk, float, orig[p0 + w.tx[l]]);
            sdk_sts(&w, mk, 4, S, GMS_REG_NONE, v);
            wl_bra(&w, mk);
        }
        for (uint32_t stride = N >> 2; stride > 0; stride >>= 2) {
            uint64_t I[4][32];
            WL_LANES(m, l) {
                uint32_t pos = w.tx[l], lo = pos & (stride - 1);
                I[0][l] = (((pos - lo) << 2) + lo) * 4;
                for (int j = 1; j < 4; j++) I[j][l] = I[j - 1][l] + stride * 4;
            }
            uint8_t r = sdk_ints(&w, m, 3, ri);
            wl_bar(&w);
            uint8_t v[4];
            for (int j = 0; j < 4; j++) v[j] = sdk_lds(&w, m, 4, I[j], r);
            uint8_t a = wl_fp(&w, m, v[0], v[2], GMS_REG_NONE), b = wl_fp(&w, m, v[0], v[2], GMS_REG_NONE);
            uint8_t c = wl_fp(&w, m, v[1], v[3], GMS_REG_NONE), e = wl_fp(&w, m, v[1], v[3], GMS_REG_NONE);
            sdk_sts(&w, m, 4, I[0], r, wl_fp(&w, m, a, c, GMS_REG_NONE));
            sdk_sts(&w, m, 4, I[1], r, wl_fp(&w, m, a, c, GMS_REG_NONE));
            sdk_sts(&w, m, 4, I[2], r, wl_fp(&w, m, b, e, GMS_REG_NONE));
            sdk_sts(&w, m, 4, I[3], r, wl_fp(&w, m, b, e, GMS_REG_NONE));
        }
        if (l2 & 1) {
            wl_bar(&w);
            for (uint32_t p0 = 0; p0 < N / 2; p0 += nt) {
                uint32_t mk = 0;
                uint64_t P[32], Q[32];
                WL_LANES(m, l) if (p0 + w.tx[l] < N / 2) mk |= 1u << l;
                wl_pred(&w, m, ri, GMS_REG_NONE);
                if (!mk) break;
                WL_LANES(mk, l) {
                    P[l] = (p0 + w.tx[l]) * 8;
                    Q[l] = P[l] + 4;
                }
                uint8_t x = sdk_lds(&w, mk, 4, P, ri), y = sdk_lds(&w, mk, 4, Q, ri);
                sdk_sts(&w, mk, 4, P, ri, wl_fp(&w, mk, x, y, GMS_REG_NONE));
                sdk_sts(&w, mk, 4, Q, ri, wl_fp(&w, mk, x, y, GMS_REG_NONE));
                wl_bra(&w, mk);
            }
        }
        wl_bar(&w);
        for (uint32_t p0 = 0; p0 < N; p0 += nt) {   /* d_Dst[pos] = s_data[pos] */
            uint32_t mk = 0;
            WL_LANES(m, l) if (p0 + w.tx[l] < N) mk |= 1u << l;
            wl_pred(&w, m, ri, GMS_REG_NONE);
            if (!mk) break;
            WL_LANES(mk, l) {
                A[l] = dev + (base + p0 + w.tx[l]) * 4;
                S[l] = (p0 + w.tx[l]) * 4;
            }
            uint8_t v = sdk_lds(&w, mk, 4, S, GMS_REG_NONE);
            wl_stg(&w, mk, A, ri, v);
            WL_SH_ST(&w, mk, float, sd[p0 + w.tx[l]]);
            wl_bra(&w, mk);
        }
        wl_exit(&w, m);
    }
    free(sd);
    free(orig);
    return 0;
}

typedef struct mod_warp {
    wl_wgen ws;
    uint64_t pos[32];
    uint32_t m;
    uint8_t rp;
} mod_warp;

/* modulateKernel: for (pos = tid; pos < N; pos += numThreads) d_A[pos] *= d_B[pos] * rcpN */
static int mod_step(const wl_kernel *k, wl_wgen *ws, gms_error *err)
{
    mod_warp *g = (mod_warp *)ws;
    wl_warp *w = &ws->w;
    fwt_st *s = k->st;
    uint64_t n = s->n, tn = (uint64_t)k->block.x * k->grid.x;
    float rcp = 1.0f / (float)n;
    WL_GEN_BEGIN(&ws->g)
    g->m = w->live;
    g->rp = sdk_prologue(w, g->m);
    wl_sfu(w, g->m, GMS_REG_NONE);                                          /* rcpN */
    WL_LANES(g->m, l) g->pos[l] = (uint64_t)w->bx * k->block.x + w->tx[l];
    for (;;) {
        uint32_t mk = 0;
        WL_LANES(g->m, l) if (g->pos[l] < n) mk |= 1u << l;
        wl_pred(w, g->m, g->rp, GMS_REG_NONE);
        wl_bra(w, g->m & ~mk);
        if (!mk) break;
        uint64_t A[32], B[32];
        WL_LANES(mk, l) {
            A[l] = s->dd + g->pos[l] * 4;
            B[l] = s->dk + g->pos[l] * 4;
        }
        uint8_t pa = wl_int(w, mk, g->rp, GMS_REG_NONE);
        uint8_t b = wl_ldg(w, mk, B, wl_int(w, mk, g->rp, GMS_REG_NONE));
        WL_SH_LD(w, mk, float, s->kern[g->pos[l]]);
        uint8_t a = wl_ldg(w, mk, A, pa);
        WL_SH_LD(w, mk, float, s->data[g->pos[l]]);
        WL_LANES(mk, l) s->data[g->pos[l]] *= s->kern[g->pos[l]] * rcp;
        wl_stg(w, mk, A, pa, wl_fp(w, mk, a, wl_fp(w, mk, b, GMS_REG_NONE, GMS_REG_NONE), GMS_REG_NONE));
        WL_SH_ST(w, mk, float, s->data[g->pos[l]]);
        g->rp = wl_int(w, mk, g->rp, GMS_REG_NONE);
        WL_LANES(mk, l) g->pos[l] += tn;
        wl_bra(w, mk);
        WL_GEN_YIELD(&ws->g);
    }
    wl_exit(w, g->m);
    WL_GEN_END(&ws->g);
}

static void fwt_gpu(fwt_st *s, gms_program *p, int64_t arr, int64_t reset)
{
    unsigned l2 = s->log2n;
    uint64_t N = s->n, M = 1;
    /* the grid is sized once, from the full length (as fwtBatchGPU does) */
    gms_dim3 g2 = wl_dim3(N >= 1024 ? (uint32_t)(N / 1024) : 1, 1, 1);
    for (; l2 > ELEM_LOG2; l2 -= 2, N >>= 2, M <<= 2) {
        int64_t a[4] = { 2, arr, (int64_t)(N / 4), reset };
        wl_launch(p, "_Z15fwtBatch2KernelPfS_i", g2, wl_dim3(256, 1, 1), 16, 0, fwt_fill, s, a, 4);
        reset = 0;
    }
    int64_t a[4] = { 1, arr, (int64_t)l2, reset };
    wl_launch(p, "_Z15fwtBatch1KernelPfS_i", wl_dim3((uint32_t)M, 1, 1), wl_dim3((uint32_t)(N / 4 ? N / 4 : 1), 1, 1), 16,
              (uint32_t)(N * 4), fwt_fill, s, a, 4);
}

static int fwt_next(void *state, gms_program *p, gms_error *err)
{
    fwt_st *s = state;
    if (!wl_once(&s->done)) return 0;
    uint64_t b = s->n * 4;
    s->sh = p->shadow;
    memcpy(s->data, s->data0, b);
    memcpy(s->kern, s->kern0, b);
    s->dk = sdk_alloc(p, s->kern0, b, "d_Kernel");
    s->dd = sdk_alloc(p, s->data0, b, "d_Data");
    for (uint64_t r = 0; r < s->repeat; r++) {
        if (r) {   /* the next repetition starts from the inputs again */
            gms_prog_copy_h2d(p, s->dk, b);
            gms_prog_copy_h2d(p, s->dd, b);
        }
        fwt_gpu(s, p, 0, r > 0);
        fwt_gpu(s, p, 1, 0);
        wl_launch_gen(p, "_Z14modulateKernelPfS_i", wl_dim3(128, 1, 1), wl_dim3(256, 1, 1), 12, 0, mod_step,
                      sizeof(mod_warp), s, NULL, 0);
        fwt_gpu(s, p, 0, 0);
    }
    gms_prog_copy_d2h(p, s->dd, b);
    gms_prog_sync(p);
    return 1;
}

static int fwt_verify(void *state, gms_error *err)
{
    fwt_st *s = state;
    float *want = wl_malloc(s->n, 4);
    for (uint64_t i = 0; i < s->n; i++) {   /* dyadicConvolutionCPU */
        double sum = 0;
        for (uint64_t j = 0; j < s->kn; j++) sum += (double)s->data0[i ^ j] * s->kern0[j];
        want[i] = (float)sum;
    }
    void *own;
    const float *got = wl_result(s->sh, s->dd, s->data, s->n, 4, &own);
    int rc = wl_check_f32("fwt", "d_Data", got, want, s->n, 1e-4, 1e-3, err);
    free(own);
    free(want);
    return rc ? -1 : 0;
}

static void fwt_destroy(void *state)
{
    fwt_st *s = state;
    if (!s) return;
    free(s->data0);
    free(s->kern0);
    free(s->data);
    free(s->kern);
    free(s);
}

static uint64_t fwt_footprint(const gms_wl_args *a)
{
    gms_error e;
    unsigned l2n, l2k;
    return fwt_sizes(a, &l2n, &l2k, &e) ? 0 : 2 * (4ULL << l2n);
}

const gms_workload_ops gms_wl_sdk_fwt = {
    .name = "fwt",
    .suite = "sdk",
    .domain = "signal processing",
    .ri = "-",
    .summary = "FWT: dyadic convolution by fast Walsh transforms: global radix-4 passes, 2048-point shared-memory blocks",
    .params = fwt_params,
    .create = fwt_create,
    .next = fwt_next,
    .verify = fwt_verify,
    .destroy = fwt_destroy,
    .footprint = fwt_footprint,
};
