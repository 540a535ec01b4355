/* reduce: per-thread reduction over the block's window, read `passes` times (first pass
 * misses, later passes hit in L1), the reference `reuse` kernel:
 *   __global__ void reuse(const float* a, float* out)
 *   { const float* w = a + blockIdx.x*4096 + threadIdx.x; float s = 0.f;
 *     for (int r = 0; r < 8; ++r) {
 *       #pragma unroll
 *       for (int k = 0; k < 16; ++k) s += w[k*256];
 *       __syncthreads(); }
 *     out[blockIdx.x*256 + threadIdx.x] = s; }
 * (window = k*block floats per block). Per full warp: 8-instruction prologue, per pass k
 * LDG, k FADD, BAR.SYNC, IADD3, ISETP, BRA (mask 0 on the last pass), then LEA IMAD.WIDE
 * STG EXIT: 300 instructions with the reference sizes. */
#include "workloads/wl_util.h"
#include "workloads/wl_clamp.h"
#include <stdlib.h>

typedef struct reduce_st {
    uint64_t blocks, k, passes, repeat;
    uint32_t block;
    float *a, *out;
    uint64_t da, dout;
    wl_shadow *sh;
    int done;
} reduce_st;

static const gms_wl_param reduce_params[] = {
    { "blocks", "512", "thread blocks (each owns a window of k*block floats)" },
    { "block", "256", "threads per block" },
    { "k", "16", "elements each thread adds per pass (unrolled loads)" },
    { "passes", "8", "times each window is read (L1 reuse)" },
    { "repeat", "1", "launch the kernel this many times" },
    { "scale", "1", "multiplies blocks (a size it takes to zero clamps to the smallest valid problem)" },
    { NULL, NULL, NULL },
};

static int reduce_sizes(const gms_wl_args *a, uint64_t v[4], uint64_t *abytes, gms_error *err)
{
    v[1] = gms_wl_u64(a, "block");
    v[2] = gms_wl_u64(a, "k");
    v[3] = gms_wl_u64(a, "passes");
    if (wl_clamp_size(a, "reduce", "blocks", 1, 0x7fffffffULL, &v[0], err)) return -1;
    if (gms_wl_check_range(a, "block", 1, 1024, err)) return -1;
    if (gms_wl_check_range(a, "k", 1, 200, err)) return -1;
    if (gms_wl_check_range(a, "passes", 1, 100000, err)) return -1;
    return wl_bytes("reduce", "array a (blocks*k*block floats)", v[0], v[1], v[2], 4, WL_MAX_ARRAY_BYTES, abytes,
                    err);
}

static int reduce_create(const gms_wl_args *a, void **state, gms_error *err)
{
    uint64_t v[4], ab;
    if (reduce_sizes(a, v, &ab, err)) return -1;
    if (gms_wl_check_range(a, "repeat", 1, 1000000, err)) return -1;
    reduce_st *s = gms_xcalloc(1, sizeof *s);
    s->blocks = v[0];
    s->block = (uint32_t)v[1];
    s->k = v[2];
    s->passes = v[3];
    s->repeat = gms_wl_u64(a, "repeat");
    s->a = wl_calloc(ab / 4, sizeof(float));
    s->out = wl_calloc(s->blocks * s->block, sizeof(float));
    gms_rng r;
    gms_rng_seed(&r, gms_wl_seed(a));
    for (uint64_t i = 0; i < ab / 4; i++) s->a[i] = wl_randf(&r);
    *state = s;
    return 0;
}

static int reduce_fill(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    reduce_st *s = k->st;
    uint64_t win = s->k * s->block;
    for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, k, block, wi);
        uint32_t m = w.live;
        uint64_t base[32], A[32], O[32];
        float acc[32] = { 0 };
        WL_LANES(m, l) base[l] = block * win + w.tx[l];
        wl_int(&w, m, GMS_REG_NONE, GMS_REG_NONE);                 /* MOV R1 */
        uint8_t cta = wl_int(&w, m, GMS_REG_NONE, GMS_REG_NONE);   /* S2R ctaid */
        uint8_t tid = wl_int(&w, m, GMS_REG_NONE, GMS_REG_NONE);   /* S2R tid */
        uint8_t r4 = wl_int(&w, m, GMS_REG_NONE, GMS_REG_NONE);    /* MOV R7, 0x4 */
        uint8_t iw = wl_int(&w, m, cta, tid);                      /* LEA */
        uint8_t pw = wl_int(&w, m, iw, r4);                        /* IMAD.WIDE w */
        uint8_t rs = wl_int(&w, m, GMS_REG_NONE, GMS_REG_NONE);    /* MOV s = 0 */
        uint8_t rc = wl_int(&w, m, GMS_REG_NONE, GMS_REG_NONE);    /* MOV r = 0 */
        uint32_t loop = w.pc;
        uint8_t vr[200];
        for (uint64_t r = 0; r < s->passes; r++) {
            w.pc = loop;
            for (uint64_t kk = 0; kk < s->k; kk++) {
                WL_LANES(m, l) A[l] = s->da + (base[l] + kk * s->block) * 4;
                vr[kk] = wl_ldg(&w, m, A, pw);
                WL_SH_LD(&w, m, float, s->a[base[l] + kk * s->block]);
            }
            for (uint64_t kk = 0; kk < s->k; kk++) {
                rs = wl_fp(&w, m, rs, vr[kk], GMS_REG_NONE);      /* FADD */
                WL_LANES(m, l) acc[l] += s->a[base[l] + kk * s->block];
            }
            wl_bar(&w);
            rc = wl_int(&w, m, rc, GMS_REG_NONE);                  /* IADD3 */
            wl_pred(&w, m, rc, GMS_REG_NONE);                      /* ISETP.NE */
            wl_bra(&w, r + 1 < s->passes ? m : 0);
        }
        uint8_t io = wl_int(&w, m, cta, tid);                      /* LEA */
        uint8_t po = wl_int(&w, m, io, r4);                        /* IMAD.WIDE */
        WL_LANES(m, l) {
            uint64_t o = block * s->block + w.tx[l];
            O[l] = s->dout + o * 4;
            s->out[o] = acc[l];
        }
        wl_stg(&w, m, O, po, rs);
        WL_SH_ST(&w, m, float, acc[l]);
        wl_exit(&w, m);
    }
    return 0;
}

static int reduce_next(void *state, gms_program *p, gms_error *err)
{
    reduce_st *s = state;
    if (!wl_once(&s->done)) return 0;
    uint64_t ab = s->blocks * s->k * s->block * 4, ob = s->blocks * s->block * 4;
    s->da = gms_prog_alloc(p, ab, "a");
    s->dout = gms_prog_alloc(p, ob, "out");
    gms_prog_copy_h2d(p, s->da, ab);
    s->sh = p->shadow;
    wl_sh_init(p, s->da, s->a, ab);
    for (uint64_t r = 0; r < s->repeat; r++)
        wl_launch(p, "_Z5reusePKfPf", wl_dim3((uint32_t)s->blocks, 1, 1), wl_dim3(s->block, 1, 1), 32, 0,
                  reduce_fill, s, NULL, 0);
    gms_prog_copy_d2h(p, s->dout, ob);
    gms_prog_sync(p);
    return 1;
}

static int reduce_verify(void *state, gms_error *err)
{
    reduce_st *s = state;
    void *own;
    const float *out = wl_result(s->sh, s->dout, s->out, s->blocks * s->block, sizeof(float), &own);
    int rc = 0;
    for (uint64_t b = 0; b < s->blocks && !rc; b++)
        for (uint64_t t = 0; t < s->block; t++) {
            const float *wp = s->a + b * s->k * s->block + t;
            float acc = 0.f;
            for (uint64_t r = 0; r < s->passes; r++)
                for (uint64_t kk = 0; kk < s->k; kk++) acc += wp[kk * s->block];
            float got = out[b * s->block + t];
            if (got != acc && !rc)
                rc = gms_err(err, "workload reduce: out[%llu] = %.9g, CPU reference %.9g",
                             (unsigned long long)(b * s->block + t), (double)got, (double)acc);
        }
    free(own);
    return rc;
}

static void reduce_destroy(void *state)
{
    reduce_st *s = state;
    if (!s) return;
    free(s->a);
    free(s->out);
    free(s);
}

static uint64_t reduce_footprint(const gms_wl_args *a)
{
    gms_error e;
    uint64_t v[4], ab;
    if (reduce_sizes(a, v, &ab, &e)) return 0;
    return ab + v[0] * v[1] * 4;
}

const gms_workload_ops gms_wl_reduce = {
    .name = "reduce",
    .suite = "micro",
    .domain = "microbenchmark",
    .ri = "R",
    .summary = "per-thread sums over each block's window read several times (reference kernel reuse): L1 reuse",
    .params = reduce_params,
    .create = reduce_create,
    .next = reduce_next,
    .verify = reduce_verify,
    .destroy = reduce_destroy,
    .footprint = reduce_footprint,
};
