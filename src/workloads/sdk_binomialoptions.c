/* binomialoptions (SDK binomialOptions, seed BO): European call prices of opt_n options on
 * num_steps-step binomial trees, cuda-samples binomialOptions_kernel.cu (float, 128 threads,
 * ELEMS_PER_THREAD = num_steps/128 tree nodes per thread in registers):
 *   binomialOptionsKernel<<<optN, 128>>>()
 *   { S, X, vDt, puByDf, pdByDf = d_OptionData[blockIdx.x] (constant memory);
 *     call[i] = max(S*exp(vDt*(2*(tid*E + i) - NUM_STEPS)) - X, 0) for i < E;
 *     if (tid == 0) call_exchange[128] = expiryCallValue(..., NUM_STEPS);
 *     for (i = NUM_STEPS; i > 0; --i) {
 *       call_exchange[tid] = call[0]; sync; call[E] = call_exchange[tid + 1]; sync;
 *       if (i > max(0, tid*E - 1)) for (j < E) call[j] = puByDf*call[j+1] + pdByDf*call[j]; }
 *     if (tid == 0) d_CallValue[blockIdx.x] = call[0]; }
 * Compute-bound: num_steps x (STS, 2 BAR, LDS, 2E FP32) per thread, one global store per
 * block; generated resumably (a chunk of steps at a time). The values in shared memory
 * are computed on the host as one backward induction per option (the same FP32 operations per
 * tree node). Inputs as the sample: S in [5, 30], X in [1, 100], T in [0.25, 10], R = 0.06,
 * V = 0.10; the CPU reference is binomialOptionsCPU (double). */
#include "workloads/sdk_util.h"
#include <math.h>
#include <stdlib.h>

#define BO_THREADS 128u

typedef struct bo_opt { float S, X, vDt, pu, pd; double dS, dX, dvDt, dpu, dpd; } bo_opt;

typedef struct bo_st {
    uint64_t n, steps, repeat;
    bo_opt *opt;
    float *call;
    uint64_t dcall;
    wl_shadow *sh;
    int done;
} bo_st;

static const gms_wl_param bo_params[] = {
    { "opt_n", "1024", "options (MAX_OPTIONS; one block each)" },
    { "num_steps", "2048", "tree steps (NUM_STEPS; a multiple of 128)" },
    { "scale", "1", "multiplies opt_n" },
    { "repeat", "1", "run the kernel this many times" },
    { NULL, NULL, NULL },
};

static int bo_sizes(const gms_wl_args *a, uint64_t *n, uint64_t *steps, gms_error *err)
{
    if (wl_clamp_size(a, "binomialoptions", "opt_n", 1, 0x7fffffffULL, n, err)) return -1;
    *steps = gms_wl_u64(a, "num_steps");
    if (*steps < BO_THREADS || *steps % BO_THREADS || *steps > 65536)
        return gms_err(err, "workload binomialoptions: num_steps=%llu must be a multiple of 128 in [128, 65536]",
                       (unsigned long long)*steps);
    return 0;
}

static float rnd(gms_rng *r, float lo, float hi) { return lo + (hi - lo) * wl_randf(r); }

static int bo_create(const gms_wl_args *a, void **state, gms_error *err)
{
    uint64_t n, steps, rep;
    if (bo_sizes(a, &n, &steps, err) || sdk_repeat(a, &rep, err)) return -1;
    bo_st *s = gms_xcalloc(1, sizeof *s);
    s->n = n;
    s->steps = steps;
    s->repeat = rep;
    s->opt = wl_malloc(n, sizeof(bo_opt));
    s->call = wl_calloc(n, 4);
    gms_rng r;
    gms_rng_seed(&r, gms_wl_seed(a));
    for (uint64_t i = 0; i < n; i++) {   /* the host preparation of binomialOptionsGPU */
        bo_opt *o = &s->opt[i];
        float S = rnd(&r, 5.0f, 30.0f), X = rnd(&r, 1.0f, 100.0f), T = rnd(&r, 0.25f, 10.0f);
        const double R = 0.06f, V = 0.10f;
        double dt = T / (double)steps, vDt = V * sqrt(dt), rDt = R * dt;
        double If = exp(rDt), Df = exp(-rDt), u = exp(vDt), d = exp(-vDt);
        double pu = (If - d) / (u - d), pd = 1.0 - pu;
        o->dS = S;
        o->dX = X;
        o->dvDt = vDt;
        o->dpu = pu * Df;
        o->dpd = pd * Df;
        o->S = S;
        o->X = X;
        o->vDt = (float)vDt;
        o->pu = (float)(pu * Df);
        o->pd = (float)(pd * Df);
    }
    *state = s;
    return 0;
}

/* the block's result: the tree in FP32 as the threads compute it (each node j at step i:
 * puByDf*call[j+1] + pdByDf*call[j]); nodes past the active range do not reach call[0] */
static float bo_price(const bo_opt *o, uint64_t steps)
{
    float *c = wl_malloc(steps + 1, 4);
    for (uint64_t i = 0; i <= steps; i++) {
        float d = o->S * expf(o->vDt * (2.0f * (float)i - (float)steps)) - o->X;
        c[i] = d > 0.0f ? d : 0.0f;
    }
    for (uint64_t i = steps; i > 0; i--)
        for (uint64_t j = 0; j < i; j++) c[j] = o->pu * c[j + 1] + o->pd * c[j];
    float r = c[0];
    free(c);
    return r;
}

typedef struct bo_warp {
    wl_wgen ws;
    uint64_t i;
    uint32_t m;
    uint8_t rc[2];
} bo_warp;

static int bo_step(const wl_kernel *k, wl_wgen *ws, gms_error *err)
{
    bo_warp *g = (bo_warp *)ws;
    wl_warp *w = &ws->w;
    bo_st *s = k->st;
    uint32_t E = (uint32_t)(s->steps / BO_THREADS);
    WL_GEN_BEGIN(&ws->g)
    g->m = w->live;
    {
        uint8_t ri = sdk_prologue(w, g->m);
        uint64_t C[32];
        uint8_t c[5];
        for (int j = 0; j < 5; j++) {   /* d_OptionData[blockIdx.x]: S X vDt puByDf pdByDf */
            WL_LANES(g->m, l) C[l] = ((uint64_t)w->bx * 5 + (uint64_t)j) * 4;
            c[j] = wl_ld(w, g->m, GMS_MEM_LD_CONST, 4, C, ri);
        }
        /* expiryCallValue for E nodes: I2F, FFMA, FMUL, MUFU.EX2, FFMA, FMNMX */
        for (uint32_t i = 0; i < E; i++) {
            uint8_t x = wl_fp(w, g->m, wl_sfu(w, g->m, ri), c[2], GMS_REG_NONE);
            x = wl_sfu(w, g->m, wl_fp(w, g->m, x, GMS_REG_NONE, GMS_REG_NONE));
            x = wl_fp(w, g->m, c[0], x, c[1]);
            g->rc[i & 1] = wl_fp(w, g->m, x, GMS_REG_NONE, GMS_REG_NONE);
        }
        uint32_t t0 = w->warp == 0 ? 1u : 0u;   /* tid 0: call_exchange[128] */
        wl_pred(w, g->m, ri, GMS_REG_NONE);
        if (t0) {
            uint64_t X[32];
            X[0] = BO_THREADS * 4;
            uint8_t x = wl_sfu(w, 1, wl_fp(w, 1, c[2], GMS_REG_NONE, GMS_REG_NONE));
            sdk_sts(w, 1, 4, X, GMS_REG_NONE, wl_fp(w, 1, c[0], x, c[1]));
        }
    }
    for (g->i = s->steps; g->i > 0; g->i--) {
        uint64_t A[32], B[32];
        uint32_t act = 0;
        WL_LANES(g->m, l) {
            uint32_t tid = w->tx[l];
            uint64_t fin = tid * E >= 1 ? tid * E - 1 : 0;
            if (g->i > fin) act |= 1u << l;
            A[l] = tid * 4;
            B[l] = (tid + 1) * 4;
        }
        sdk_sts(w, g->m, 4, A, GMS_REG_NONE, g->rc[0]);
        wl_bar(w);
        uint8_t nb = sdk_lds(w, g->m, 4, B, GMS_REG_NONE);
        wl_bar(w);
        wl_pred(w, g->m, GMS_REG_NONE, GMS_REG_NONE);                       /* i > final_it */
        if (act) {
            uint8_t r = nb;
            for (uint32_t j = 0; j < E; j++)
                r = wl_fp(w, act, wl_fp(w, act, r, GMS_REG_NONE, GMS_REG_NONE), g->rc[j & 1], GMS_REG_NONE);
            g->rc[0] = r;
        }
        if ((g->i & 15) == 1) {   /* #pragma unroll 16: the loop test every 16 steps */
            wl_int(w, g->m, GMS_REG_NONE, GMS_REG_NONE);
            wl_pred(w, g->m, GMS_REG_NONE, GMS_REG_NONE);
            wl_bra(w, g->i > 16 ? g->m : 0);
        }
        WL_GEN_YIELD(&ws->g);
    }
    if (w->warp == 0) {   /* tid 0 stores the price */
        uint64_t O[32];
        float v = bo_price(&s->opt[w->bx], s->steps);
        s->call[w->bx] = v;
        wl_pred(w, g->m, GMS_REG_NONE, GMS_REG_NONE);
        O[0] = s->dcall + (uint64_t)w->bx * 4;
        wl_stg(w, 1, O, GMS_REG_NONE, g->rc[0]);
        WL_SH_ST(w, 1u, float, v);
    }
    wl_exit(w, g->m);
    WL_GEN_END(&ws->g);
}

static int bo_next(void *state, gms_program *p, gms_error *err)
{
    bo_st *s = state;
    if (!wl_once(&s->done)) return 0;
    s->sh = p->shadow;
    /* d_OptionData is a __constant__ array (cudaMemcpyToSymbol): not device memory here */
    s->dcall = sdk_alloc(p, NULL, s->n * 4, "d_CallValue");
    for (uint64_t r = 0; r < s->repeat; r++)
        wl_launch_gen(p, "_Z21binomialOptionsKernelv", wl_dim3((uint32_t)s->n, 1, 1), wl_dim3(BO_THREADS, 1, 1), 48,
                      (BO_THREADS + 1) * 4, bo_step, sizeof(bo_warp), s, NULL, 0);
    gms_prog_copy_d2h(p, s->dcall, s->n * 4);
    gms_prog_sync(p);
    return 1;
}

static int bo_verify(void *state, gms_error *err)
{
    bo_st *s = state;
    float *want = wl_malloc(s->n, 4);
    double *c = wl_malloc(s->steps + 1, 8);
    for (uint64_t o = 0; o < s->n; o++) {   /* binomialOptionsCPU */
        const bo_opt *p = &s->opt[o];
        for (uint64_t i = 0; i <= s->steps; i++) {
            double d = p->dS * exp(p->dvDt * (2.0 * (double)i - (double)s->steps)) - p->dX;
            c[i] = d > 0 ? d : 0;
        }
        for (uint64_t i = s->steps; i > 0; i--)
            for (uint64_t j = 0; j < i; j++) c[j] = p->dpu * c[j + 1] + p->dpd * c[j];
        want[o] = (float)c[0];
    }
    void *own;
    const float *got = wl_result(s->sh, s->dcall, s->call, s->n, 4, &own);
    int rc = wl_check_f32("binomialoptions", "d_CallValue", got, want, s->n, 1e-3, 1e-3, err);
    free(own);
    free(want);
    free(c);
    return rc ? -1 : 0;
}

static void bo_destroy(void *state)
{
    bo_st *s = state;
    if (!s) return;
    free(s->opt);
    free(s->call);
    free(s);
}

static uint64_t bo_footprint(const gms_wl_args *a)
{
    gms_error e;
    uint64_t n, steps;
    return bo_sizes(a, &n, &steps, &e) ? 0 : n * 4;
}

const gms_workload_ops gms_wl_sdk_binomialoptions = {
    .name = "binomialoptions",
    .suite = "sdk",
    .domain = "finance",
    .ri = "-",
    .summary = "BO: binomial-tree option prices, one 128-thread block per option, 2048 steps through shared memory",
    .params = bo_params,
    .create = bo_create,
    .next = bo_next,
    .verify = bo_verify,
    .destroy = bo_destroy,
    .footprint = bo_footprint,
};
