/* sobolqrng (SDK SobolQRNG, seed SQ): n_vectors Sobol points in n_dimensions, cuda-samples
 * sobol_gpu.cu, sobolGPU_kernel<<<(gx, n_dimensions), 64>>>(n_vectors, n_dimensions,
 * d_directions, d_output):
 *   v[32] in shared memory (threads < 32 load their dimension's direction numbers), sync;
 *   i0 = threadIdx.x + blockIdx.x*64, stride = gx*64; X for i0 from its Gray code
 *   (log2(stride) steps: X ^= -(g & 1) & v[k]); d_output[i0] = X * 2^-32;
 *   for (i = i0 + stride; i < n_vectors; i += stride)
 *     { X ^= v[log2(stride) - 1] ^ v[ffs(~((i - stride) | (stride - 1))) - 1]; d_output[i] = X * 2^-32; }
 * gx by the sample's rule: 4 x SMs when n_dimensions < 4 x SMs, else 1; at most
 * ceil(n_vectors / 64); rounded up to a power of two. The SM count is the parameter sm_count
 * (28, the dlmshr-28sm preset's: gx = 128 at the defaults; a 15-SM GTX480 gives gx = 1 and
 * 1563 steps per thread). Every dimension's points are one contiguous output row: each step
 * stores one 32-lane run per warp. The loop is generated resumably. The direction numbers:
 * dimension 0 van der Corput, the others from the first primitive polynomials over GF(2) with
 * initial m_k = 1 (the sample reads Joe and Kuo's table: the same 32 words per dimension, read
 * the same way; only the numbers differ). The CPU reference is the sample's sobolCPU. */
#include "workloads/sdk_util.h"
#include <stdlib.h>

#define NDIR 32u
#define SQ_THREADS 64u
#define K_2POWNEG32 2.3283064E-10F

typedef struct sq_st {
    uint64_t nv, nd, repeat;
    uint32_t gx;
    uint32_t *dirs;
    float *out;
    uint64_t ddir, dout;
    wl_shadow *sh;
    int done;
} sq_st;

static const gms_wl_param sq_params[] = {
    { "n_vectors", "100000", "points per dimension" },
    { "n_dimensions", "100", "dimensions (one row of blocks each)" },
    { "sm_count", "28", "SMs of the GPU the sample would size its grid for" },
    { "scale", "1", "multiplies n_vectors" },
    { "repeat", "1", "run the kernel this many times" },
    { NULL, NULL, NULL },
};

static int sq_sizes(const gms_wl_args *a, uint64_t *nv, uint64_t *nd, gms_error *err)
{
    if (wl_clamp_size(a, "sobolqrng", "n_vectors", 1, 1ULL << 31, nv, err)) return -1;
    if (gms_wl_check_range(a, "n_dimensions", 1, 65535, err)) return -1;
    *nd = gms_wl_u64(a, "n_dimensions");
    return 0;
}

/* primitive polynomials of degree s (bits: x^s ... 1): the order of x modulo p is 2^s - 1 */
static int primitive(uint32_t p, unsigned s)
{
    uint32_t x = 1, period = (1u << s) - 1;
    for (uint32_t i = 1; i <= period; i++) {
        x <<= 1;
        if (x >> s & 1) x ^= p;
        if (x == 1) return i == period;
    }
    return 0;
}

static void sq_directions(uint32_t *dirs, uint64_t nd)
{
    for (unsigned k = 0; k < NDIR; k++) dirs[k] = 1u << (31 - k);
    uint64_t d = 1;
    for (unsigned s = 1; d < nd && s < 31; s++)
        for (uint32_t p = (1u << s) | 1; p < (2u << s) && d < nd; p += 2) {
            if (!primitive(p, s)) continue;
            uint32_t m[NDIR + 1];
            for (unsigned k = 1; k <= NDIR; k++) {
                if (k <= s) m[k] = 1;
                else {
                    uint32_t v = m[k - s] ^ (m[k - s] << s);
                    for (unsigned j = 1; j < s; j++)
                        if (p >> (s - j) & 1) v ^= m[k - j] << j;
                    m[k] = v;
                }
                dirs[d * NDIR + k - 1] = m[k] << (NDIR - k);
            }
            d++;
        }
}

static int sq_create(const gms_wl_args *a, void **state, gms_error *err)
{
    uint64_t nv, nd, rep;
    if (sq_sizes(a, &nv, &nd, err) || sdk_repeat(a, &rep, err)) return -1;
    if (gms_wl_check_range(a, "sm_count", 1, 100000, err)) return -1;
    uint64_t sms = gms_wl_u64(a, "sm_count");
    sq_st *s = gms_xcalloc(1, sizeof *s);
    s->nv = nv;
    s->nd = nd;
    s->repeat = rep;
    uint64_t gx = nd < 4 * sms ? 4 * sms : 1;
    if (gx > nv / SQ_THREADS) gx = (nv + SQ_THREADS - 1) / SQ_THREADS;
    uint32_t g = 1;
    while (g < gx) g *= 2;
    s->gx = g;
    s->dirs = wl_calloc(nd * NDIR, 4);
    sq_directions(s->dirs, nd);
    s->out = wl_calloc(nd * nv, 4);
    *state = s;
    return 0;
}

typedef struct sq_warp {
    wl_wgen ws;
    uint64_t i[32];
    uint32_t X[32];
    uint32_t m;
    uint8_t rx, ri;
} sq_warp;

static unsigned ffs32(uint32_t x) { return x ? (unsigned)__builtin_ctz(x) + 1 : 0; }

static int sq_step(const wl_kernel *k, wl_wgen *ws, gms_error *err)
{
    sq_warp *g = (sq_warp *)ws;
    wl_warp *w = &ws->w;
    sq_st *s = k->st;
    uint32_t stride = s->gx * SQ_THREADS, lg = ffs32(stride) - 1;
    const uint32_t *v = s->dirs + (uint64_t)w->by * NDIR;
    uint64_t orow = s->dout + (uint64_t)w->by * s->nv * 4;
    float *out = s->out + (uint64_t)w->by * s->nv;
    WL_GEN_BEGIN(&ws->g)
    g->m = w->live;
    g->ri = sdk_prologue(w, g->m);
    {
        uint32_t m32 = 0;
        uint64_t A[32], S[32], B[32] = { 0 };
        WL_LANES(g->m, l) if (w->tx[l] < NDIR) m32 |= 1u << l;
        wl_pred(w, g->m, g->ri, GMS_REG_NONE);
        if (m32) {
            WL_LANES(m32, l) {
                A[l] = s->ddir + ((uint64_t)w->by * NDIR + w->tx[l]) * 4;
                S[l] = w->tx[l] * 4;
            }
            uint8_t d = wl_ldg(w, m32, A, g->ri);
            WL_SH_LD(w, m32, uint32_t, v[w->tx[l]]);
            sdk_sts(w, m32, 4, S, GMS_REG_NONE, d);
        }
        wl_bar(w);
        /* X from the Gray code of i0: log2(stride) steps (uniform v[k]: a broadcast LDS) */
        g->rx = wl_int(w, g->m, GMS_REG_NONE, GMS_REG_NONE);
        uint8_t gr = wl_int(w, g->m, g->ri, g->ri);
        WL_LANES(g->m, l) {
            g->i[l] = (uint64_t)w->tx[l] + (uint64_t)w->bx * SQ_THREADS;
            g->X[l] = 0;
        }
        for (uint32_t kk = 0; kk < lg; kk++) {
            WL_LANES(g->m, l) {
                B[l] = kk * 4;
                uint32_t gc = (uint32_t)(g->i[l] ^ (g->i[l] >> 1));
                if (gc >> kk & 1) g->X[l] ^= v[kk];
            }
            uint8_t mk = wl_int(w, g->m, gr, GMS_REG_NONE);                     /* -(g & 1) */
            uint8_t vk = sdk_lds(w, g->m, 4, B, GMS_REG_NONE);
            g->rx = wl_int3(w, g->m, g->rx, mk, vk);                            /* LOP3 */
            gr = wl_int(w, g->m, gr, GMS_REG_NONE);                             /* g >>= 1 */
        }
        uint32_t mo = 0;
        WL_LANES(g->m, l) if (g->i[l] < s->nv) mo |= 1u << l;
        wl_pred(w, g->m, g->ri, GMS_REG_NONE);
        if (mo) {
            WL_LANES(mo, l) {
                A[l] = orow + g->i[l] * 4;
                out[g->i[l]] = (float)g->X[l] * K_2POWNEG32;
            }
            uint8_t f = wl_fp(w, mo, wl_sfu(w, mo, g->rx), GMS_REG_NONE, GMS_REG_NONE);   /* I2F, FMUL */
            wl_stg(w, mo, A, g->ri, f);
            WL_SH_ST(w, mo, float, out[g->i[l]]);
        }
        WL_LANES(g->m, l) B[l] = (lg ? lg - 1 : 0) * 4;
        sdk_lds(w, g->m, 4, B, GMS_REG_NONE);                                   /* v_log2stridem1 */
    }
    for (;;) {
        uint32_t mk = 0;
        WL_LANES(g->m, l) {
            g->i[l] += stride;
            if (g->i[l] < s->nv) mk |= 1u << l;
        }
        wl_int(w, g->m, g->ri, GMS_REG_NONE);                                   /* i += stride */
        wl_pred(w, g->m, g->ri, GMS_REG_NONE);
        wl_bra(w, g->m & ~mk);
        if (!mk) break;
        uint64_t C[32], A[32];
        WL_LANES(mk, l) {
            uint32_t c = ffs32(~((uint32_t)(g->i[l] - stride) | (stride - 1))) - 1;
            C[l] = c * 4;
            g->X[l] ^= v[lg - 1] ^ v[c];
            out[g->i[l]] = (float)g->X[l] * K_2POWNEG32;
            A[l] = orow + g->i[l] * 4;
        }
        uint8_t c = wl_int(w, mk, wl_int(w, mk, wl_int(w, mk, g->ri, GMS_REG_NONE), GMS_REG_NONE), GMS_REG_NONE);  /* LOP, BREV, FLO */
        uint8_t vc = sdk_lds(w, mk, 4, C, c);
        g->rx = wl_int3(w, mk, g->rx, vc, GMS_REG_NONE);                        /* LOP3 */
        uint8_t f = wl_fp(w, mk, wl_sfu(w, mk, g->rx), GMS_REG_NONE, GMS_REG_NONE);
        wl_stg(w, mk, A, wl_int(w, mk, g->ri, GMS_REG_NONE), f);
        WL_SH_ST(w, mk, float, out[g->i[l]]);
        wl_bra(w, mk);
        WL_GEN_YIELD(&ws->g);
    }
    wl_exit(w, g->m);
    WL_GEN_END(&ws->g);
}

static int sq_next(void *state, gms_program *p, gms_error *err)
{
    sq_st *s = state;
    if (!wl_once(&s->done)) return 0;
    s->sh = p->shadow;
    s->ddir = sdk_alloc(p, s->dirs, s->nd * NDIR * 4, "d_directions");
    s->dout = sdk_alloc(p, NULL, s->nd * s->nv * 4, "d_output");
    for (uint64_t r = 0; r < s->repeat; r++)
        wl_launch_gen(p, "_Z15sobolGPU_kerneljjPjPf", wl_dim3(s->gx, (uint32_t)s->nd, 1), wl_dim3(SQ_THREADS, 1, 1), 16,
                      NDIR * 4, sq_step, sizeof(sq_warp), s, NULL, 0);
    gms_prog_copy_d2h(p, s->dout, s->nd * s->nv * 4);
    gms_prog_sync(p);
    return 1;
}

static int sq_verify(void *state, gms_error *err)
{
    sq_st *s = state;
    float *want = wl_malloc(s->nd * s->nv, 4);
    for (uint64_t d = 0; d < s->nd; d++) {   /* sobolCPU */
        const uint32_t *v = s->dirs + d * NDIR;
        uint32_t X = 0;
        want[s->nv * d] = 0.0f;
        for (uint64_t i = 1; i < s->nv; i++) {
            X ^= v[ffs32(~(uint32_t)(i - 1)) - 1];
            want[i + s->nv * d] = (float)X * K_2POWNEG32;
        }
    }
    void *own;
    const float *got = wl_result(s->sh, s->dout, s->out, s->nd * s->nv, 4, &own);
    int rc = wl_check_f32("sobolqrng", "d_output", got, want, s->nd * s->nv, 0, 0, err);
    free(own);
    free(want);
    return rc ? -1 : 0;
}

static void sq_destroy(void *state)
{
    sq_st *s = state;
    if (!s) return;
    free(s->dirs);
    free(s->out);
    free(s);
}

static uint64_t sq_footprint(const gms_wl_args *a)
{
    gms_error e;
    uint64_t nv, nd;
    return sq_sizes(a, &nv, &nd, &e) ? 0 : nd * NDIR * 4 + nd * nv * 4;
}

const gms_workload_ops gms_wl_sdk_sobolqrng = {
    .name = "sobolqrng",
    .suite = "sdk",
    .domain = "finance",
    .ri = "-",
    .summary = "SQ: Sobol points, one block row per dimension, 64 threads, grid-stride Gray-code updates",
    .params = sq_params,
    .create = sq_create,
    .next = sq_next,
    .verify = sq_verify,
    .destroy = sq_destroy,
    .footprint = sq_footprint,
};
