/* transpose: naive matrix transpose with 16x16 thread blocks, the reference `transpose`
 *   __global__ void transpose(const float* in, float* out, int N)
 *   { int x = blockIdx.x*16 + threadIdx.x, y = blockIdx.y*16 + threadIdx.y;
 *     if (x < N && y < N) out[x*N + y] = in[y*N + x]; }
 * A warp covers two 16-thread rows: its reads are two 64-byte runs, its writes touch 16
 * lines. 18 warp instructions per full warp, as in the trace: MOV S2R S2R S2R S2R LEA LEA
 * ISETP.GE.AND ISETP.GE.OR @P0EXIT MOV IMAD IMAD.WIDE LDG IMAD IMAD.WIDE STG EXIT. */
#include "workloads/wl_util.h"
#include "workloads/wl_clamp.h"
#include <stdlib.h>

typedef struct transpose_st {
    uint64_t N, repeat;
    float *in, *out;
    uint64_t din, dout;
    wl_shadow *sh;
    int done;
} transpose_st;

static const gms_wl_param transpose_params[] = {
    { "N", "1024", "matrix side (floats); the reference trace uses 1024" },
    { "repeat", "1", "launch the kernel this many times" },
    { "scale", "1", "multiplies N (a size it takes to zero clamps to the smallest valid problem)" },
    { NULL, NULL, NULL },
};

static int transpose_sizes(const gms_wl_args *a, uint64_t *N, uint64_t *bytes, gms_error *err)
{
    if (wl_clamp_size(a, "transpose", "N", 1, 1ULL << 20, N, err)) return -1;
    return wl_bytes("transpose", "matrix", *N, *N, 1, 4, WL_MAX_ARRAY_BYTES, bytes, err);
}

static int transpose_create(const gms_wl_args *a, void **state, gms_error *err)
{
    uint64_t N, bytes;
    if (transpose_sizes(a, &N, &bytes, err)) return -1;
    if (gms_wl_check_range(a, "repeat", 1, 1000000, err)) return -1;
    transpose_st *s = gms_xcalloc(1, sizeof *s);
    s->N = N;
    s->repeat = gms_wl_u64(a, "repeat");
    s->in = wl_malloc(N * N, sizeof(float));   /* written in full just below */
    s->out = wl_calloc(N * N, sizeof(float));
    gms_rng r;
    gms_rng_seed(&r, gms_wl_seed(a));
    for (uint64_t i = 0; i < N * N; i++) s->in[i] = wl_randf(&r);
    *state = s;
    return 0;
}

static int transpose_fill(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    transpose_st *s = k->st;
    uint64_t N = s->N;
    for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, k, block, wi);
        uint64_t x[32], y[32], I[32], O[32];
        uint32_t live = w.live, m = 0;
        WL_LANES(live, l) {
            x[l] = (uint64_t)w.bx * 16 + w.tx[l];
            y[l] = (uint64_t)w.by * 16 + w.ty[l];
            if (x[l] < N && y[l] < N) m |= 1u << l;
        }
        wl_int(&w, live, GMS_REG_NONE, GMS_REG_NONE);             /* MOV R1 */
        uint8_t cx = wl_int(&w, live, GMS_REG_NONE, GMS_REG_NONE);/* S2R ctaid.x */
        uint8_t tx = wl_int(&w, live, GMS_REG_NONE, GMS_REG_NONE);/* S2R tid.x */
        uint8_t cy = wl_int(&w, live, GMS_REG_NONE, GMS_REG_NONE);/* S2R ctaid.y */
        uint8_t ty = wl_int(&w, live, GMS_REG_NONE, GMS_REG_NONE);/* S2R tid.y */
        uint8_t rx = wl_int(&w, live, cx, tx);                    /* LEA x */
        uint8_t ry = wl_int(&w, live, cy, ty);                    /* LEA y */
        wl_pred(&w, live, rx, GMS_REG_NONE);                      /* ISETP.GE.AND */
        wl_pred(&w, live, ry, GMS_REG_NONE);                      /* ISETP.GE.OR */
        wl_exit(&w, live & ~m);                                   /* @P0 EXIT */
        if (!m) continue;
        uint8_t r4 = wl_int(&w, m, GMS_REG_NONE, GMS_REG_NONE);   /* MOV R7, 0x4 */
        uint8_t ii = wl_int(&w, m, ry, rx);                       /* IMAD y*N+x */
        uint8_t pi = wl_int(&w, m, ii, r4);                       /* IMAD.WIDE */
        /* the element copy (out = in transposed) with the addresses: one pass, the same values */
        WL_LANES(m, l) {
            uint64_t src = y[l] * N + x[l], dst = x[l] * N + y[l];
            I[l] = s->din + src * 4;
            O[l] = s->dout + dst * 4;
            s->out[dst] = s->in[src];
        }
        uint8_t v = wl_ldg(&w, m, I, pi);
        WL_SH_LD(&w, m, float, s->in[y[l] * N + x[l]]);
        uint8_t oi = wl_int(&w, m, rx, ry);                       /* IMAD x*N+y */
        uint8_t po = wl_int(&w, m, oi, r4);                       /* IMAD.WIDE */
        wl_stg(&w, m, O, po, v);
        WL_SH_ST(&w, m, float, s->in[y[l] * N + x[l]]);
        wl_exit(&w, m);
    }
    return 0;
}

static int transpose_next(void *state, gms_program *p, gms_error *err)
{
    transpose_st *s = state;
    if (!wl_once(&s->done)) return 0;
    uint64_t bytes = s->N * s->N * 4;
    s->din = gms_prog_alloc(p, bytes, "in");
    s->dout = gms_prog_alloc(p, bytes, "out");
    gms_prog_copy_h2d(p, s->din, bytes);
    s->sh = p->shadow;
    wl_sh_init(p, s->din, s->in, bytes);
    uint32_t g = wl_cdiv(s->N, 16);
    for (uint64_t r = 0; r < s->repeat; r++)
        wl_launch(p, "_Z9transposePKfPfi", wl_dim3(g, g, 1), wl_dim3(16, 16, 1), 10, 0, transpose_fill, s, NULL, 0);
    gms_prog_copy_d2h(p, s->dout, bytes);
    gms_prog_sync(p);
    return 1;
}

static int transpose_verify(void *state, gms_error *err)
{
    transpose_st *s = state;
    uint64_t N = s->N;
    void *own;
    const float *out = wl_result(s->sh, s->dout, s->out, N * N, sizeof(float), &own);
    int rc = 0;
    for (uint64_t y = 0; y < N && !rc; y++)
        for (uint64_t x = 0; x < N && !rc; x++)
            if (out[x * N + y] != s->in[y * N + x])
                rc = gms_err(err, "workload transpose: out[%llu][%llu] = %.9g, CPU reference %.9g",
                             (unsigned long long)x, (unsigned long long)y, (double)out[x * N + y],
                             (double)s->in[y * N + x]);
    free(own);
    return rc;
}

static void transpose_destroy(void *state)
{
    transpose_st *s = state;
    if (!s) return;
    free(s->in);
    free(s->out);
    free(s);
}

static uint64_t transpose_footprint(const gms_wl_args *a)
{
    gms_error e;
    uint64_t N = 0, bytes = 0;
    if (transpose_sizes(a, &N, &bytes, &e)) return 0;
    return 2 * bytes;
}

const gms_workload_ops gms_wl_transpose = {
    .name = "transpose",
    .suite = "micro",
    .domain = "microbenchmark",
    .ri = "R",
    .summary = "naive N x N transpose, 16x16 blocks (reference kernel transpose): coalesced reads, 16-line writes",
    .params = transpose_params,
    .create = transpose_create,
    .next = transpose_next,
    .verify = transpose_verify,
    .destroy = transpose_destroy,
    .footprint = transpose_footprint,
};
