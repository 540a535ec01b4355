/* blackscholes (SDK BlackScholes, seed BS): European call and put prices of opt_n options,
 * cuda-samples BlackScholes_kernel.cuh:
 *   BlackScholesGPU<<<DIV_UP(optN/2, 128), 128>>>(float2 *Call, float2 *Put, float2 *S,
 *       float2 *X, float2 *T, float R, float V, int optN)
 *   { opt = blockDim.x*blockIdx.x + threadIdx.x;
 *     if (opt < optN/2) { two BlackScholesBodyGPU (the .x and .y options);
 *                         Call[opt] = (c1, c2); Put[opt] = (p1, p2); } }
 * launched NUM_ITERATIONS (512) times on the same inputs. Every thread loads three float2
 * (LDG.E.64) and stores two: a streaming, primary-miss kernel. The body's arithmetic (rsqrt,
 * log, two CNDs with exp, exp(-RT)) is emitted as its count of FP32 and MUFU instructions
 * (about 37 and 12 per option), not instruction for instruction. Inputs as the sample: S in
 * [5, 30], X in [1, 100], T in [0.25, 10], R = 0.02, V = 0.30; the CPU reference is the
 * sample's BlackScholesCPU (double). */
#include "workloads/sdk_util.h"
#include <math.h>
#include <stdlib.h>

#define RISKFREE 0.02f
#define VOLATILITY 0.30f

typedef struct bs_st {
    uint64_t n, iters, repeat;
    float *S, *X, *T, *call, *put;
    uint64_t dS, dX, dT, dC, dP;
    wl_shadow *sh;
    int done;
} bs_st;

static const gms_wl_param bs_params[] = {
    { "opt_n", "4000000", "options (OPT_N; even: two per thread)" },
    { "iterations", "512", "kernel launches (NUM_ITERATIONS)" },
    { "scale", "1", "multiplies opt_n" },
    { "repeat", "1", "run the whole launch sequence this many times" },
    { NULL, NULL, NULL },
};

static int bs_sizes(const gms_wl_args *a, uint64_t *n, gms_error *err)
{
    return wl_clamp_scaled(a, "blackscholes", "opt_n", 2, 2, 1ULL << 31, n, err);
}

static float rnd(gms_rng *r, float lo, float hi) { return lo + (hi - lo) * wl_randf(r); }

static int bs_create(const gms_wl_args *a, void **state, gms_error *err)
{
    uint64_t n, rep;
    if (bs_sizes(a, &n, err) || sdk_repeat(a, &rep, err)) return -1;
    if (gms_wl_check_range(a, "iterations", 1, 100000, err)) return -1;
    bs_st *s = gms_xcalloc(1, sizeof *s);
    s->n = n;
    s->iters = gms_wl_u64(a, "iterations");
    s->repeat = rep;
    s->S = wl_malloc(n, 4);
    s->X = wl_malloc(n, 4);
    s->T = wl_malloc(n, 4);
    s->call = wl_calloc(n, 4);
    s->put = wl_malloc(n, 4);
    gms_rng r;
    gms_rng_seed(&r, gms_wl_seed(a));
    for (uint64_t i = 0; i < n; i++) {
        s->S[i] = rnd(&r, 5.0f, 30.0f);
        s->X[i] = rnd(&r, 1.0f, 100.0f);
        s->T[i] = rnd(&r, 0.25f, 10.0f);
        s->put[i] = -1.0f;
    }
    *state = s;
    return 0;
}

static float cnd_gpu(float d)
{
    const float A1 = 0.31938153f, A2 = -0.356563782f, A3 = 1.781477937f, A4 = -1.821255978f, A5 = 1.330274429f;
    const float RSQRT2PI = 0.39894228040143267793994605993438f;
    float K = 1.0f / (1.0f + 0.2316419f * fabsf(d));
    float c = RSQRT2PI * expf(-0.5f * d * d) * (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));
    return d > 0 ? 1.0f - c : c;
}

static void body_gpu(float *call, float *put, float S, float X, float T, float R, float V)
{
    float sqrtT = sqrtf(T);
    float d1 = (logf(S / X) + (R + 0.5f * V * V) * T) / (V * sqrtT);
    float d2 = d1 - V * sqrtT;
    float c1 = cnd_gpu(d1), c2 = cnd_gpu(d2);
    float expRT = expf(-R * T);
    *call = S * c1 - X * expRT * c2;
    *put = X * expRT * (1.0f - c2) - S * (1.0f - c1);
}

/* the arithmetic of one option on the three loaded values: 12 MUFU, 37 FP32 */
static uint8_t body_emit(wl_warp *w, uint32_t m, uint8_t s, uint8_t x, uint8_t t)
{
    uint8_t sq = wl_sfu(w, m, wl_sfu(w, m, t));                   /* 1/rsqrt(T) */
    uint8_t q = wl_fp(w, m, s, wl_sfu(w, m, x), GMS_REG_NONE);    /* S/X */
    uint8_t lg = wl_fp(w, m, wl_sfu(w, m, q), GMS_REG_NONE, GMS_REG_NONE);
    uint8_t num = wl_fp(w, m, lg, t, GMS_REG_NONE);
    uint8_t den = wl_fp(w, m, sq, GMS_REG_NONE, GMS_REG_NONE);
    uint8_t d1 = wl_fp(w, m, num, wl_sfu(w, m, den), GMS_REG_NONE);
    uint8_t d2 = wl_fp(w, m, d1, den, GMS_REG_NONE);
    uint8_t c[2];
    for (int i = 0; i < 2; i++) {                                 /* cndGPU: 3 MUFU, 12 FP */
        uint8_t d = i ? d2 : d1;
        uint8_t k = wl_sfu(w, m, wl_fp(w, m, d, GMS_REG_NONE, GMS_REG_NONE));
        uint8_t e = wl_sfu(w, m, wl_sfu(w, m, wl_fp(w, m, wl_fp(w, m, d, d, GMS_REG_NONE), GMS_REG_NONE, GMS_REG_NONE)));
        uint8_t p = sdk_fps(w, m, 5, k);
        p = wl_fp(w, m, p, k, e);
        p = wl_fp(w, m, p, GMS_REG_NONE, GMS_REG_NONE);
        c[i] = wl_fp(w, m, wl_fp(w, m, p, d, GMS_REG_NONE), GMS_REG_NONE, GMS_REG_NONE);
        c[i] = wl_fp(w, m, c[i], GMS_REG_NONE, GMS_REG_NONE);
    }
    uint8_t er = wl_sfu(w, m, wl_sfu(w, m, wl_fp(w, m, t, GMS_REG_NONE, GMS_REG_NONE)));   /* exp(-RT) */
    uint8_t xe = wl_fp(w, m, x, er, GMS_REG_NONE);
    uint8_t call = wl_fp(w, m, wl_fp(w, m, xe, c[1], GMS_REG_NONE), s, c[0]);
    uint8_t put = wl_fp(w, m, wl_fp(w, m, c[1], GMS_REG_NONE, GMS_REG_NONE), xe, GMS_REG_NONE);
    put = wl_fp(w, m, put, wl_fp(w, m, c[0], GMS_REG_NONE, GMS_REG_NONE), s);
    put = sdk_fps(w, m, 2, put);
    return wl_fp(w, m, call, put, GMS_REG_NONE);
}

static int bs_fill(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    bs_st *s = k->st;
    uint64_t half = s->n / 2;
    for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, k, block, wi);
        uint64_t opt[32], A[32];
        uint8_t ri;
        uint32_t m = wl_prologue_1d(&w, half, opt, &ri);
        if (!m) continue;
        uint8_t pw = wl_int(&w, m, ri, GMS_REG_NONE);                       /* IMAD.WIDE */
        WL_LANES(m, l) A[l] = s->dS + opt[l] * 8;
        uint8_t vs = wl_ld(&w, m, GMS_MEM_LD_GLOBAL, 8, A, pw);
        WL_SH_LD(&w, m, uint64_t, sdk_f2(s->S[2 * opt[l]], s->S[2 * opt[l] + 1]));
        WL_LANES(m, l) A[l] = s->dX + opt[l] * 8;
        uint8_t vx = wl_ld(&w, m, GMS_MEM_LD_GLOBAL, 8, A, pw);
        WL_SH_LD(&w, m, uint64_t, sdk_f2(s->X[2 * opt[l]], s->X[2 * opt[l] + 1]));
        WL_LANES(m, l) A[l] = s->dT + opt[l] * 8;
        uint8_t vt = wl_ld(&w, m, GMS_MEM_LD_GLOBAL, 8, A, pw);
        WL_SH_LD(&w, m, uint64_t, sdk_f2(s->T[2 * opt[l]], s->T[2 * opt[l] + 1]));
        uint8_t r1 = body_emit(&w, m, vs, vx, vt);
        uint8_t r2 = body_emit(&w, m, vs, vx, vt);
        WL_LANES(m, l) for (int j = 0; j < 2; j++) {
            uint64_t i = 2 * opt[l] + (uint64_t)j;
            body_gpu(&s->call[i], &s->put[i], s->S[i], s->X[i], s->T[i], RISKFREE, VOLATILITY);
        }
        WL_LANES(m, l) A[l] = s->dC + opt[l] * 8;
        wl_st(&w, m, GMS_MEM_ST_GLOBAL, 8, A, pw, r1);
        WL_SH_ST(&w, m, uint64_t, sdk_f2(s->call[2 * opt[l]], s->call[2 * opt[l] + 1]));
        WL_LANES(m, l) A[l] = s->dP + opt[l] * 8;
        wl_st(&w, m, GMS_MEM_ST_GLOBAL, 8, A, pw, r2);
        WL_SH_ST(&w, m, uint64_t, sdk_f2(s->put[2 * opt[l]], s->put[2 * opt[l] + 1]));
        wl_exit(&w, m);
    }
    return 0;
}

static int bs_next(void *state, gms_program *p, gms_error *err)
{
    bs_st *s = state;
    if (!wl_once(&s->done)) return 0;
    uint64_t b = s->n * 4;
    s->sh = p->shadow;
    s->dC = sdk_alloc(p, NULL, b, "d_CallResult");
    s->dP = sdk_alloc(p, NULL, b, "d_PutResult");
    s->dS = sdk_alloc(p, s->S, b, "d_StockPrice");
    s->dX = sdk_alloc(p, s->X, b, "d_OptionStrike");
    s->dT = sdk_alloc(p, s->T, b, "d_OptionYears");
    uint32_t g = wl_cdiv(s->n / 2, 128);
    for (uint64_t r = 0; r < s->repeat; r++)
        for (uint64_t i = 0; i < s->iters; i++)
            wl_launch(p, "_Z15BlackScholesGPUP6float2S0_S0_S0_S0_ffi", wl_dim3(g, 1, 1), wl_dim3(128, 1, 1), 30, 0,
                      bs_fill, s, NULL, 0);
    gms_prog_copy_d2h(p, s->dC, b);
    gms_prog_copy_d2h(p, s->dP, b);
    gms_prog_sync(p);
    return 1;
}

static double cnd_cpu(double d)
{
    const double A1 = 0.31938153, A2 = -0.356563782, A3 = 1.781477937, A4 = -1.821255978, A5 = 1.330274429;
    const double RSQRT2PI = 0.39894228040143267793994605993438;
    double K = 1.0 / (1.0 + 0.2316419 * fabs(d));
    double c = RSQRT2PI * exp(-0.5 * d * d) * (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));
    return d > 0 ? 1.0 - c : c;
}

static int bs_verify(void *state, gms_error *err)
{
    bs_st *s = state;
    float *wc = wl_malloc(s->n, 4), *wp = wl_malloc(s->n, 4);
    for (uint64_t i = 0; i < s->n; i++) {   /* BlackScholesCPU */
        double S = s->S[i], X = s->X[i], T = s->T[i], R = RISKFREE, V = VOLATILITY;
        double sqrtT = sqrt(T);
        double d1 = (log(S / X) + (R + 0.5 * V * V) * T) / (V * sqrtT), d2 = d1 - V * sqrtT;
        double c1 = cnd_cpu(d1), c2 = cnd_cpu(d2), expRT = exp(-R * T);
        wc[i] = (float)(S * c1 - X * expRT * c2);
        wp[i] = (float)(X * expRT * (1.0 - c2) - S * (1.0 - c1));
    }
    void *o1, *o2;
    const float *call = wl_result(s->sh, s->dC, s->call, s->n, 4, &o1);
    const float *put = wl_result(s->sh, s->dP, s->put, s->n, 4, &o2);
    int rc = wl_check_f32("blackscholes", "CallResult", call, wc, s->n, 1e-4, 1e-4, err) ||
             wl_check_f32("blackscholes", "PutResult", put, wp, s->n, 1e-4, 1e-4, err);
    free(o1);
    free(o2);
    free(wc);
    free(wp);
    return rc ? -1 : 0;
}

static void bs_destroy(void *state)
{
    bs_st *s = state;
    if (!s) return;
    free(s->S);
    free(s->X);
    free(s->T);
    free(s->call);
    free(s->put);
    free(s);
}

static uint64_t bs_footprint(const gms_wl_args *a)
{
    gms_error e;
    uint64_t n;
    return bs_sizes(a, &n, &e) ? 0 : 5 * n * 4;
}

const gms_workload_ops gms_wl_sdk_blackscholes = {
    .name = "blackscholes",
    .suite = "sdk",
    .domain = "finance",
    .ri = "-",
    .summary = "BS: Black-Scholes call/put of opt_n options, two per thread (float2), 512 launches",
    .params = bs_params,
    .create = bs_create,
    .next = bs_next,
    .verify = bs_verify,
    .destroy = bs_destroy,
    .footprint = bs_footprint,
};
