/* convtex (SDK convolutionTexture, seed CT): the 17-tap separable convolution of
 * convolutionSeparable with the source read through a 2D texture (point filtering, clamped
 * addressing), cuda-samples convolutionTexture.cu:
 *   convolutionRowsKernel<<<(ceil(W/16), ceil(H/12)), (16, 12)>>>(d_Dst, W, H, texSrc)
 *   { ix, iy; if (ix >= W || iy >= H) return;
 *     for (k = -8; k <= 8; k++) sum += tex2D(texSrc, ix + 0.5 + k, iy + 0.5) * c_Kernel[8 - k];
 *     d_Dst[iy*W + ix] = sum; }
 *   convolutionColumnsKernel: the same with (ix, iy + k)
 * `iterations` (10) row launches, then `iterations` column launches, as the sample times them.
 * Texture fetches: modelled as global loads (LDG through the L1D, which stands in for the
 * texture cache) of the clamped element of a row-major image. The simulator's LD_TEX kind is
 * a fixed-latency access without memory traffic, so it would hide the kernel's reads; the
 * cudaArray's block-linear layout and the texture cache are not modelled. The sample copies
 * the row pass's output into the texture's array (a device-to-device copy) before the column
 * pass; here the column pass reads the row output where it is (d_Output) and writes a_Src,
 * which the run copies back: the same two arrays, without the copy's traffic. Image and taps
 * are rand() % 16: every sum is exact, equal to the sample's CPU reference (clamped rows then
 * clamped columns). */
#include "workloads/sdk_util.h"
#include <stdlib.h>

#define KR 8
#define KL (2 * KR + 1)

typedef struct ct_st {
    uint64_t W, H, iters, repeat;
    float taps[KL];
    float *in0;          /* the input image (kept: a repetition starts from it) */
    float *src, *dst;    /* a_Src, d_Output */
    uint64_t dsrc, ddst;
    wl_shadow *sh;
    int done;
} ct_st;

static const gms_wl_param ct_params[] = {
    { "imageW", "3072", "image width" },
    { "imageH", "3072", "image height" },
    { "iterations", "10", "launches of each pass" },
    { "scale", "1", "multiplies imageW and imageH" },
    { "repeat", "1", "run both passes this many times (each from the input image)" },
    { NULL, NULL, NULL },
};

static int ct_sizes(const gms_wl_args *a, uint64_t *W, uint64_t *H, uint64_t *b, gms_error *err)
{
    if (wl_clamp_size(a, "convtex", "imageW", 1, 1ULL << 20, W, err)) return -1;
    if (wl_clamp_size(a, "convtex", "imageH", 1, 1ULL << 20, H, err)) return -1;
    return wl_bytes("convtex", "image", *W, *H, 1, 4, WL_MAX_ARRAY_BYTES, b, err);
}

static int ct_create(const gms_wl_args *a, void **state, gms_error *err)
{
    uint64_t W, H, b, rep;
    if (ct_sizes(a, &W, &H, &b, err) || sdk_repeat(a, &rep, err)) return -1;
    if (gms_wl_check_range(a, "iterations", 1, 100000, err)) return -1;
    ct_st *s = gms_xcalloc(1, sizeof *s);
    s->W = W;
    s->H = H;
    s->iters = gms_wl_u64(a, "iterations");
    s->repeat = rep;
    s->in0 = wl_malloc(W * H, 4);
    s->src = wl_malloc(W * H, 4);
    s->dst = wl_calloc(W * H, 4);
    gms_rng r;
    gms_rng_seed(&r, gms_wl_seed(a));
    for (int i = 0; i < KL; i++) s->taps[i] = (float)(gms_rng_next(&r) % 16);
    for (uint64_t i = 0; i < W * H; i++) s->in0[i] = (float)(gms_rng_next(&r) % 16);
    memcpy(s->src, s->in0, W * H * 4);
    *state = s;
    return 0;
}

static int64_t clampi(int64_t v, int64_t hi) { return v < 0 ? 0 : v > hi ? hi : v; }

/* args: 0 pass (0 rows: a_Src -> d_Output, 1 columns: d_Output -> a_Src), 1 reset (the first
 * row launch of a repetition after the first: a_Src holds the input again, H2D in the program;
 * here, when block 0 is generated, the host array and the shadow) */
static int ct_fill(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    ct_st *s = k->st;
    int cols = (int)k->arg[0];
    if (k->arg[1] && block == 0) {
        memcpy(s->src, s->in0, s->W * s->H * 4);
        if (wl_shadow_active(k->sh)) wl_shadow_write(k->sh, s->dsrc, s->in0, s->W * s->H * 4);
    }
    const float *in = cols ? s->dst : s->src;
    float *out = cols ? s->src : s->dst;
    uint64_t din = cols ? s->ddst : s->dsrc, dout = cols ? s->dsrc : s->ddst;
    int64_t W = (int64_t)s->W, H = (int64_t)s->H;
    for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, k, block, wi);
        uint32_t live = w.live, m = 0;
        int64_t ix[32], iy[32];
        WL_LANES(live, l) {
            ix[l] = (int64_t)w.bx * k->block.x + w.tx[l];
            iy[l] = (int64_t)w.by * k->block.y + w.ty[l];
            if (ix[l] < W && iy[l] < H) m |= 1u << l;
        }
        uint8_t r = sdk_ints(&w, live, 7, GMS_REG_NONE);                     /* MOV, S2R x4, IMAD x2 */
        uint8_t fx = wl_sfu(&w, live, r), fy = wl_sfu(&w, live, r);          /* I2F + 0.5 */
        wl_pred(&w, live, r, GMS_REG_NONE);
        wl_pred(&w, live, r, GMS_REG_NONE);
        wl_exit(&w, live & ~m);
        if (!m) continue;
        uint8_t acc = wl_int(&w, m, GMS_REG_NONE, GMS_REG_NONE);              /* sum = 0 */
        float sum[32] = { 0 };
        for (int kk = -KR; kk <= KR; kk++) {
            uint64_t A[32];
            float v[32];
            WL_LANES(m, l) {
                int64_t x = cols ? ix[l] : clampi(ix[l] + kk, W - 1), y = cols ? clampi(iy[l] + kk, H - 1) : iy[l];
                A[l] = din + (uint64_t)(y * W + x) * 4;
                v[l] = in[y * W + x];
                sum[l] += v[l] * s->taps[KR - kk];
            }
            uint8_t c = wl_fp(&w, m, cols ? fy : fx, GMS_REG_NONE, GMS_REG_NONE);   /* x + k */
            uint8_t t = wl_ldg(&w, m, A, c);                                          /* tex2D */
            WL_SH_LD(&w, m, float, v[l]);
            acc = wl_fp(&w, m, t, acc, GMS_REG_NONE);                                 /* FFMA c[8-k] */
        }
        uint64_t O[32];
        WL_LANES(m, l) {
            O[l] = dout + (uint64_t)(iy[l] * W + ix[l]) * 4;
            out[iy[l] * W + ix[l]] = sum[l];
        }
        wl_stg(&w, m, O, wl_int(&w, m, r, GMS_REG_NONE), acc);
        WL_SH_ST(&w, m, float, sum[l]);
        wl_exit(&w, m);
    }
    return 0;
}

static int ct_next(void *state, gms_program *p, gms_error *err)
{
    ct_st *s = state;
    if (!wl_once(&s->done)) return 0;
    uint64_t b = s->W * s->H * 4;
    s->sh = p->shadow;
    s->dsrc = sdk_alloc(p, s->in0, b, "a_Src");
    s->ddst = sdk_alloc(p, NULL, b, "d_Output");
    gms_dim3 g = wl_dim3(wl_cdiv(s->W, 16), wl_cdiv(s->H, 12), 1), t = wl_dim3(16, 12, 1);
    for (uint64_t r = 0; r < s->repeat; r++) {
        if (r) gms_prog_copy_h2d(p, s->dsrc, b);
        for (uint64_t i = 0; i < s->iters; i++) {
            int64_t a[2] = { 0, r > 0 && i == 0 };
            wl_launch(p, "_Z21convolutionRowsKernelPfiiy", g, t, 20, 0, ct_fill, s, a, 2);
        }
        for (uint64_t i = 0; i < s->iters; i++) {
            int64_t a[2] = { 1, 0 };
            wl_launch(p, "_Z24convolutionColumnsKernelPfiiy", g, t, 20, 0, ct_fill, s, a, 2);
        }
    }
    gms_prog_copy_d2h(p, s->dsrc, b);
    gms_prog_sync(p);
    return 1;
}

static int ct_verify(void *state, gms_error *err)
{
    ct_st *s = state;
    int64_t W = (int64_t)s->W, H = (int64_t)s->H;
    float *rows = wl_malloc(s->W * s->H, 4), *want = wl_malloc(s->W * s->H, 4);
    for (int64_t y = 0; y < H; y++)   /* convolutionRowsCPU (clamped) */
        for (int64_t x = 0; x < W; x++) {
            float sum = 0;
            for (int k = -KR; k <= KR; k++) sum += s->in0[y * W + clampi(x + k, W - 1)] * s->taps[KR - k];
            rows[y * W + x] = sum;
        }
    for (int64_t y = 0; y < H; y++)   /* convolutionColumnsCPU */
        for (int64_t x = 0; x < W; x++) {
            float sum = 0;
            for (int k = -KR; k <= KR; k++) sum += rows[clampi(y + k, H - 1) * W + x] * s->taps[KR - k];
            want[y * W + x] = sum;
        }
    void *own;
    const float *got = wl_result(s->sh, s->dsrc, s->src, s->W * s->H, 4, &own);
    int rc = wl_check_f32("convtex", "output", got, want, s->W * s->H, 0, 0, err);
    free(own);
    free(rows);
    free(want);
    return rc ? -1 : 0;
}

static void ct_destroy(void *state)
{
    ct_st *s = state;
    if (!s) return;
    free(s->in0);
    free(s->src);
    free(s->dst);
    free(s);
}

static uint64_t ct_footprint(const gms_wl_args *a)
{
    gms_error e;
    uint64_t W, H, b;
    return ct_sizes(a, &W, &H, &b, &e) ? 0 : 2 * b;
}

const gms_workload_ops gms_wl_sdk_convtex = {
    .name = "convtex",
    .suite = "sdk",
    .domain = "image processing",
    .ri = "-",
    .summary = "CT: separable 17-tap convolution with texture fetches (modelled as L1D loads), 16x12 blocks",
    .params = ct_params,
    .create = ct_create,
    .next = ct_next,
    .verify = ct_verify,
    .destroy = ct_destroy,
    .footprint = ct_footprint,
};
