/* convsep (SDK convolutionSeparable, seed CS): a 17-tap separable convolution of an imageW x
 * imageH float image, cuda-samples convolutionSeparable.cu (KERNEL_RADIUS 8, taps in constant
 * memory as operands of the FFMAs):
 *   convolutionRowsKernel<<<(W/(8*16), H/4), (16, 4)>>>(d_Buffer, d_Input, W, H, W)
 *     s_Data[4][(8 + 2)*16]: each thread loads 8 main elements and one halo element on each
 *     side (zero past the image edge), sync, then 8 outputs of 17 taps from shared memory
 *   convolutionColumnsKernel<<<(W/16, H/(8*8)), (16, 8)>>>(d_Output, d_Buffer, W, H, W)
 *     s_Data[16][(8 + 2)*8 + 1]: the same down the columns (loads W floats apart)
 * run as the sample does: one warm-up pair and `iterations` (16) pairs. Inputs as the sample:
 * image and taps are rand() % 16, so every sum is an exact integer in float and the result
 * equals the sample's CPU reference (convolutionRowCPU + convolutionColumnCPU) exactly. */
#include "workloads/sdk_util.h"
#include <stdlib.h>

#define KR 8
#define KL (2 * KR + 1)
#define STEPS 8u
#define HALO 1u

typedef struct cs_st {
    uint64_t W, H, iters, repeat;
    float taps[KL];
    float *in, *buf, *out;
    uint64_t din, dbuf, dout;
    wl_shadow *sh;
    int done;
} cs_st;

static const gms_wl_param cs_params[] = {
    { "imageW", "3072", "image width (a multiple of 128)" },
    { "imageH", "3072", "image height (a multiple of 64)" },
    { "iterations", "16", "timed row+column pairs after the warm-up pair" },
    { "scale", "1", "multiplies imageW and imageH" },
    { "repeat", "1", "run the whole launch sequence this many times" },
    { NULL, NULL, NULL },
};

static int cs_sizes(const gms_wl_args *a, uint64_t *W, uint64_t *H, uint64_t *b, gms_error *err)
{
    if (wl_clamp_scaled(a, "convsep", "imageW", 128, 128, 1ULL << 20, W, err)) return -1;
    if (wl_clamp_scaled(a, "convsep", "imageH", 64, 64, 1ULL << 20, H, err)) return -1;
    return wl_bytes("convsep", "image", *W, *H, 1, 4, WL_MAX_ARRAY_BYTES, b, err);
}

static int cs_create(const gms_wl_args *a, void **state, gms_error *err)
{
    uint64_t W, H, b, rep;
    if (cs_sizes(a, &W, &H, &b, err) || sdk_repeat(a, &rep, err)) return -1;
    if (gms_wl_check_range(a, "iterations", 0, 100000, err)) return -1;
    cs_st *s = gms_xcalloc(1, sizeof *s);
    s->W = W;
    s->H = H;
    s->iters = gms_wl_u64(a, "iterations");
    s->repeat = rep;
    s->in = wl_malloc(W * H, 4);
    s->buf = wl_calloc(W * H, 4);
    s->out = wl_calloc(W * H, 4);
    gms_rng r;
    gms_rng_seed(&r, gms_wl_seed(a));
    for (int i = 0; i < KL; i++) s->taps[i] = (float)(gms_rng_next(&r) % 16);
    for (uint64_t i = 0; i < W * H; i++) s->in[i] = (float)(gms_rng_next(&r) % 16);
    *state = s;
    return 0;
}

/* arg 0: 0 rows, 1 columns */
static int cs_fill(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    cs_st *s = k->st;
    int cols = (int)k->arg[0];
    const float *src = cols ? s->buf : s->in;
    float *dst = cols ? s->out : s->buf;
    uint64_t dsrc = cols ? s->dbuf : s->din, ddst = cols ? s->dout : s->dbuf;
    int64_t W = (int64_t)s->W, H = (int64_t)s->H;
    uint32_t bdx = k->block.x, bdy = k->block.y, bd = cols ? bdy : bdx;        /* step along the pass */
    uint32_t pitch = cols ? (STEPS + 2 * HALO) * bdy + 1 : (STEPS + 2 * HALO) * bdx;
    float sdata[16 * 81 > 4 * 160 ? 16 * 81 : 4 * 160];
    wl_warp Wp[SDK_MAX_WARPS];
    uint32_t nw = sdk_warps(Wp, bt, k, block);
    uint8_t rb[SDK_MAX_WARPS];
    /* lane l's element of step i: (x, y) and its shared-memory index */
#define CS_X(w, l, i) (cols ? (int64_t)(w)->bx * bdx + (w)->tx[l] \
                            : ((int64_t)(w)->bx * STEPS - HALO) * bdx + (w)->tx[l] + (int64_t)(i) * bdx)
#define CS_Y(w, l, i) (cols ? ((int64_t)(w)->by * STEPS - HALO) * bdy + (w)->ty[l] + (int64_t)(i) * bdy \
                            : (int64_t)(w)->by * bdy + (w)->ty[l])
#define CS_S(w, l, i) (cols ? (w)->tx[l] * pitch + (w)->ty[l] + (i) * bd : (w)->ty[l] * pitch + (w)->tx[l] + (i) * bd)
    for (uint32_t wi = 0; wi < nw; wi++) {
        wl_warp *w = &Wp[wi];
        uint32_t m = w->live;
        rb[wi] = wl_int(w, m, sdk_ints(w, m, 5, GMS_REG_NONE), GMS_REG_NONE);   /* MOV, S2R x4, base */
        uint8_t pw = wl_int(w, m, rb[wi], GMS_REG_NONE);                          /* IMAD.WIDE */
        /* main data, then the two halos (order of the source) */
        static const uint32_t order[STEPS + 2 * HALO] = { 1, 2, 3, 4, 5, 6, 7, 8, 0, 9 };
        for (uint32_t oi = 0; oi < STEPS + 2 * HALO; oi++) {
            uint32_t i = order[oi];
            uint64_t A[32], S[32];
            uint32_t mi = 0;
            WL_LANES(m, l) {
                int64_t x = CS_X(w, l, i), y = CS_Y(w, l, i);
                int in = x >= 0 && x < W && y >= 0 && y < H;
                if (in) {
                    mi |= 1u << l;
                    A[l] = dsrc + (uint64_t)(y * W + x) * 4;
                }
                S[l] = (uint64_t)CS_S(w, l, i) * 4;
                sdata[CS_S(w, l, i)] = in ? src[y * W + x] : 0.0f;
            }
            uint8_t v = GMS_REG_NONE;
            if (i == 0 || i == STEPS + 2 * HALO - 1) wl_pred(w, m, rb[wi], GMS_REG_NONE);   /* halo test */
            if (mi) {
                v = wl_ldg(w, mi, A, pw);
                WL_SH_LD(w, mi, float, src[CS_Y(w, l, i) * W + CS_X(w, l, i)]);
            }
            sdk_sts(w, m, 4, S, GMS_REG_NONE, v);
        }
        wl_bar(w);
    }
    for (uint32_t wi = 0; wi < nw; wi++) {
        wl_warp *w = &Wp[wi];
        uint32_t m = w->live;
        for (uint32_t i = HALO; i < HALO + STEPS; i++) {
            uint64_t S[32], O[32];
            float sum[32];
            uint8_t acc = wl_int(w, m, GMS_REG_NONE, GMS_REG_NONE);              /* sum = 0 */
            WL_LANES(m, l) sum[l] = 0;
            for (int j = -KR; j <= KR; j++) {
                WL_LANES(m, l) {
                    S[l] = ((uint64_t)CS_S(w, l, i) + (uint64_t)(int64_t)j) * 4;
                    sum[l] += s->taps[KR - j] * sdata[CS_S(w, l, i) + j];
                }
                uint8_t d = sdk_lds(w, m, 4, S, GMS_REG_NONE);
                acc = wl_fp(w, m, d, acc, GMS_REG_NONE);                          /* FFMA c[KR-j] */
            }
            WL_LANES(m, l) {
                int64_t x = CS_X(w, l, i), y = CS_Y(w, l, i);
                O[l] = ddst + (uint64_t)(y * W + x) * 4;
                dst[y * W + x] = sum[l];
            }
            wl_stg(w, m, O, rb[wi], acc);
            WL_SH_ST(w, m, float, sum[l]);
        }
        wl_exit(w, m);
    }
#undef CS_X
#undef CS_Y
#undef CS_S
    return 0;
}

static int cs_next(void *state, gms_program *p, gms_error *err)
{
    cs_st *s = state;
    if (!wl_once(&s->done)) return 0;
    uint64_t b = s->W * s->H * 4;
    s->sh = p->shadow;
    s->din = sdk_alloc(p, s->in, b, "d_Input");
    s->dbuf = sdk_alloc(p, NULL, b, "d_Buffer");
    s->dout = sdk_alloc(p, NULL, b, "d_Output");
    int64_t rows = 0, cols = 1;
    for (uint64_t r = 0; r < s->repeat; r++)
        for (uint64_t i = 0; i <= s->iters; i++) {
            wl_launch(p, "_Z21convolutionRowsKernelPfS_iii", wl_dim3((uint32_t)(s->W / (STEPS * 16)), (uint32_t)(s->H / 4), 1),
                      wl_dim3(16, 4, 1), 32, 4 * (STEPS + 2 * HALO) * 16 * 4, cs_fill, s, &rows, 1);
            wl_launch(p, "_Z24convolutionColumnsKernelPfS_iii", wl_dim3((uint32_t)(s->W / 16), (uint32_t)(s->H / (STEPS * 8)), 1),
                      wl_dim3(16, 8, 1), 32, 16 * ((STEPS + 2 * HALO) * 8 + 1) * 4, cs_fill, s, &cols, 1);
        }
    gms_prog_copy_d2h(p, s->dout, b);
    gms_prog_sync(p);
    return 1;
}

static int cs_verify(void *state, gms_error *err)
{
    cs_st *s = state;
    int64_t W = (int64_t)s->W, H = (int64_t)s->H;
    float *rows = wl_malloc(s->W * s->H, 4), *want = wl_malloc(s->W * s->H, 4);
    for (int64_t y = 0; y < H; y++)   /* convolutionRowCPU */
        for (int64_t x = 0; x < W; x++) {
            float sum = 0;
            for (int k = -KR; k <= KR; k++)
                if (x + k >= 0 && x + k < W) sum += s->in[y * W + x + k] * s->taps[KR - k];
            rows[y * W + x] = sum;
        }
    for (int64_t y = 0; y < H; y++)   /* convolutionColumnCPU */
        for (int64_t x = 0; x < W; x++) {
            float sum = 0;
            for (int k = -KR; k <= KR; k++)
                if (y + k >= 0 && y + k < H) sum += rows[(y + k) * W + x] * s->taps[KR - k];
            want[y * W + x] = sum;
        }
    void *own;
    const float *got = wl_result(s->sh, s->dout, s->out, s->W * s->H, 4, &own);
    int rc = wl_check_f32("convsep", "d_Output", got, want, s->W * s->H, 0, 0, err);
    free(own);
    free(rows);
    free(want);
    return rc ? -1 : 0;
}

static void cs_destroy(void *state)
{
    cs_st *s = state;
    if (!s) return;
    free(s->in);
    free(s->buf);
    free(s->out);
    free(s);
}

static uint64_t cs_footprint(const gms_wl_args *a)
{
    gms_error e;
    uint64_t W, H, b;
    return cs_sizes(a, &W, &H, &b, &e) ? 0 : 3 * b;
}

const gms_workload_ops gms_wl_sdk_convsep = {
    .name = "convsep",
    .suite = "sdk",
    .domain = "image processing",
    .ri = "-",
    .summary = "CS: separable 17-tap convolution, row pass (16x4 blocks) and column pass (16x8) through shared memory",
    .params = cs_params,
    .create = cs_create,
    .next = cs_next,
    .verify = cs_verify,
    .destroy = cs_destroy,
    .footprint = cs_footprint,
};
