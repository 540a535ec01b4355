/* SVM (UVMBench SVM, Qin Yu's MNIST 1-vs-1 SVM; the suite's run is `svm 5 1024 93`): trains
 * the one SVM of classes 0 vs 1 (class1_limit = class2_limit = 2) with an RBF kernel and a
 * decomposition (working-set) algorithm, then computes the test kernel matrix.
 *   kernel_kernel_matrix     32x32 threads, K[i*L+j] = expf(-0.015 * sum_k B[X[i][k]*256 + X[j][k]])
 *                            over the 785 byte features (B = the (a-b)^2 fraction table)
 *   kernel_minibatch         one block of number_of_sv (<= 1024) threads, per KKT round: sweeps
 *                            of coordinate ascent over the working set (one thread updates
 *                            alpha[i] and the shared delta, BAR, every thread updates sigma[j])
 *                            until every |delta alpha| < 1e-4 (__syncthreads_and)
 *   kernel_kernel_matrix_ts  32x32 threads, test x train kernel matrix
 * The host part (KKT monitor, full sigma update, support-vector pruning, KKT violators, at most
 * 100 rounds, predictions) is reproduced. The images are synthetic (MNIST is not shipped):
 * noisy "0" rings and "1" bars of 28x28 bytes plus a 785th feature of 1.
 * Differences: the shared delta of kernel_minibatch is read by every warp before the next
 * writer (the source relies on lock-step timing, without a second barrier); std::sort of the
 * violators breaks ties by index; the per-round mini_* arrays are allocated once at size M;
 * more than 1024 working-set points (the cooperative kernel_minibatch_g) is an error. */
#include "workloads/wl_buf.h"
#include "workloads/wl_clamp.h"
#include "util/rng.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NF 785
#define KKT_MAX 100
#define SWEEP_MAX 1000000

enum { V_KM, V_KM_POST, V_ROUND, V_MB_POST, V_TEST, V_TEST_POST, V_DONE };

typedef struct sv {
    int64_t C, M, L, Lts;
    wl_pool *pool;         /* the wrapper's allocations across repetitions */
    float acc;
    int cpu;
    int state;
    uint8_t *Xtr, *Xts;
    int32_t *y;
    /* device arrays */
    wl_buf B, K, X, iters, my, ma, ms, mK, Kts, X1, X2;
    /* host training state */
    float *alpha, *sigma;
    uint32_t *svi;
    int64_t nsv, kkt_counter, remaining;
    int64_t sweeps_total;
    int64_t mb_sweeps;     /* sweeps of the current kernel_minibatch (mb_solve) */
    int32_t *yhat;
    /* functional verify runs (shadow memory): the host reads K, the minibatch results and K_ts
     * from it; mb_solve keeps the initial alpha and sigma and every step's delta, from which
     * each kernel_minibatch warp replays its own lanes' values as it emits their accesses */
    wl_shadow *sh;
    float *mb_a0, *mb_s0, *mb_delta;   /* mb_delta: per sweep and step, delta and alpha[i] after */
    uint64_t mb_dcap;
} sv;

static const gms_wl_param params[] = {
    {"C", "5", "box constraint C (argv[1])"},
    {"M", "1024", "initial working-set size (argv[2]); at most 1024"},
    {"accuracy", "93", "KKT violation tolerance ACCURACY (argv[3])"},
    {"train", "12665", "training points of classes 0 and 1 (MNIST has 5923 + 6742)"},
    {"test", "10000", "test points (the MNIST test set)"},
    {"scale", "1", "multiplies train and test"},
    {"repeat", "1", "run the whole training and test N times from the same input"},
    {NULL, NULL, NULL},
};

static int sizes(const gms_wl_args *a, int64_t *L, int64_t *Lt, gms_error *err)
{
    uint64_t l, t;
    if (wl_clamp_scaled(a, "svm", "train", 1, 1, 1ULL << 20, &l, err) || wl_clamp_scaled(a, "svm", "test", 1, 1, 1ULL << 20, &t, err))
        return -1;
    *L = (int64_t)l;
    *Lt = (int64_t)t;
    return 0;
}

/* The working set (M points) is drawn from the training set. When `scale` leaves fewer
 * training points than M, the working set is clamped to the whole training set: raising the
 * training set to M instead would make scale=0.01 cost as much as scale=0.08. */
static uint64_t working_set(const gms_wl_args *a, int64_t L)
{
    uint64_t M = gms_wl_u64(a, "M");
    if ((int64_t)M > L && gms_wl_u64(a, "train") >= M) {
        gms_wl_note_size(a, "M", (uint64_t)L, M);
        return (uint64_t)L;
    }
    return M;
}

static uint64_t footprint(const gms_wl_args *a)
{
    gms_error e;
    int64_t L, T;
    if (sizes(a, &L, &T, &e)) return 0;
    uint64_t M = working_set(a, L), l = (uint64_t)L, t = (uint64_t)T;
    return 4 * 65536 + 4 * l * l + NF * l + 4 + 4 * 3 * M + 4 * M * M + 4 * t * l + NF * t + NF * l;
}

/* synthetic 28x28 digit: a ring (class 0) or a vertical bar (class 1), shifted, with noise */
static void make_image(gms_rng *r, int cls, uint8_t *px)
{
    int dx = (int)gms_rng_below(r, 5) - 2, dy = (int)gms_rng_below(r, 5) - 2;
    double rad = 7 + gms_rng_double(r) * 3, th = 1.5 + gms_rng_double(r) * 1.5;
    for (int yy = 0; yy < 28; yy++)
        for (int xx = 0; xx < 28; xx++) {
            double u = xx - 13.5 - dx, v = yy - 13.5 - dy, d;
            if (cls == 0) d = fabs(sqrt(u * u + v * v * 0.7) - rad);
            else d = fabs(u + 0.15 * v);
            double val = d < th ? 255.0 * (1.0 - d / (th + 1)) : 0.0;
            if (gms_rng_below(r, 50) == 0) val = (double)gms_rng_below(r, 256);
            px[yy * 28 + xx] = (uint8_t)(val < 0 ? 0 : val > 255 ? 255 : val);
        }
    px[784] = 1;
}

static sv *sv_new(int64_t C, int64_t M, float acc, int64_t L, int64_t Lt, uint64_t seed, int cpu)
{
    sv *s = gms_xcalloc(1, sizeof *s);
    s->C = C; s->M = M; s->acc = acc; s->L = L; s->Lts = Lt; s->cpu = cpu;
    s->Xtr = gms_xmalloc((uint64_t)(L * NF));
    s->Xts = gms_xmalloc((uint64_t)(Lt * NF));
    s->y = gms_xmalloc(4 * (uint64_t)L);
    gms_rng r;
    gms_rng_seed(&r, seed);
    for (int64_t i = 0; i < L; i++) {
        int cls = gms_rng_below(&r, 12665) < 5923 ? 0 : 1;
        s->y[i] = cls == 0 ? 1 : -1;
        make_image(&r, cls, s->Xtr + i * NF);
    }
    for (int64_t i = 0; i < Lt; i++) make_image(&r, (int)gms_rng_below(&r, 2), s->Xts + i * NF);
    wl_buf_new(&s->B, 4 * 65536);
    for (int i = 0; i < 256; i++)
        for (int j = 0; j < 256; j++) WL_F(s->B)[i * 256 + j] = (float)pow(i / 255.0f - j / 255.0f, 2);
    wl_buf_new(&s->K, 4 * (uint64_t)(L * L));
    wl_buf_new(&s->X, (uint64_t)(L * NF));
    memcpy(s->X.h, s->Xtr, (uint64_t)(L * NF));
    wl_buf_new(&s->iters, 4);
    wl_buf_new(&s->my, 4 * (uint64_t)M);
    wl_buf_new(&s->ma, 4 * (uint64_t)M);
    wl_buf_new(&s->ms, 4 * (uint64_t)M);
    wl_buf_new(&s->mK, 4 * (uint64_t)(M * M));
    wl_buf_new(&s->Kts, 4 * (uint64_t)(Lt * L));
    wl_buf_new(&s->X1, (uint64_t)(Lt * NF));
    wl_buf_new(&s->X2, (uint64_t)(L * NF));
    memcpy(s->X1.h, s->Xts, (uint64_t)(Lt * NF));
    memcpy(s->X2.h, s->Xtr, (uint64_t)(L * NF));
    s->alpha = gms_xcalloc((uint64_t)L, 4);
    s->sigma = gms_xcalloc((uint64_t)L, 4);
    s->svi = gms_xcalloc((uint64_t)(L > M ? L : M), 4);
    for (int64_t i = 0; i < M; i++) s->svi[i] = (uint32_t)i;
    s->nsv = M;
    s->yhat = gms_xcalloc((uint64_t)Lt, 4);
    return s;
}

static void sv_free(sv *s)
{
    if (!s) return;
    free(s->Xtr); free(s->Xts); free(s->y);
    wl_buf *b[] = {&s->B, &s->K, &s->X, &s->iters, &s->my, &s->ma, &s->ms, &s->mK, &s->Kts, &s->X1, &s->X2};
    for (size_t i = 0; i < sizeof b / sizeof b[0]; i++) wl_buf_free(b[i]);
    free(s->alpha); free(s->sigma); free(s->svi); free(s->yhat);
    free(s->mb_a0); free(s->mb_s0); free(s->mb_delta);
    free(s);
}

/* ---------------------------------------------------------------- kernel matrices */
static float kval(const float *B, const uint8_t *a, const uint8_t *b)
{
    float d = 0;
    for (int k = 0; k < NF; k++) d += B[a[k] * 256 + b[k]];
    return expf(-0.015f * d);
}

/* k->arg[0]: 0 = training matrix (X, X, K), 1 = test (X1, X2, Kts) */
/* one warp, resumable (wl_gen.h): each thread loops over the NF features */
typedef struct km_warp {
    wl_wgen ws;
    int64_t I[32], J[32];
    float d[32];
    uint32_t m;
    uint8_t ri, acc;
    int kk;
} km_warp;

static int k_matrix(const wl_kernel *k, wl_wgen *ws, gms_error *err)
{
    km_warp *g = (km_warp *)ws;
    wl_warp *x = &ws->w;
    sv *s = k->st;
    int ts = (int)k->arg[0];
    const wl_buf *X1 = ts ? &s->X1 : &s->X, *X2 = ts ? &s->X2 : &s->X, *Kb = ts ? &s->Kts : &s->K;
    int64_t l1 = ts ? s->Lts : s->L, l2 = s->L;
    const uint8_t *x1 = X1->h, *x2 = X2->h;
    const float *B = WL_F(s->B);
    float *K = WL_F(*Kb);
    int64_t bx = (int64_t)(ws->block % k->grid.x), by = (int64_t)(ws->block / k->grid.x);
    uint64_t a1[32], a2[32], a3[32];
    uint8_t uv[2][32];   /* the bytes each lane loads, for the shadow memory */
    float bv[32];
    WL_GEN_BEGIN(&ws->g)
    g->ri = wl_prologue_idx(x, x->live);
    g->m = 0;
    WL_TLANES(x, x->live, l, t) {
        g->I[l] = bx * 32 + t % 32;
        g->J[l] = by * 32 + t / 32;
        if (g->I[l] < l1 && g->J[l] < l2) { g->m |= 1u << l; g->d[l] = 0; }
    }
    uint8_t q = wl_int_at(x, 0x18, x->live, g->ri, GMS_REG_NONE);
    wl_bra_at(x, 0x20, x->live, q);
    if (!g->m) { wl_exit_at(x, WL_PC_END, x->live); return 0; }
    g->acc = wl_int_at(x, 0x28, g->m, GMS_REG_NONE, GMS_REG_NONE);
    for (g->kk = 0; g->kk < NF; g->kk++) {
        int kk = g->kk;
        uint32_t m = g->m;
        WL_TLANES(x, m, l, t) {
            uint8_t u = x1[g->I[l] * NF + kk], v = x2[g->J[l] * NF + kk];
            a1[l] = X1->d + (uint64_t)(g->I[l] * NF + kk);
            a2[l] = X2->d + (uint64_t)(g->J[l] * NF + kk);
            a3[l] = s->B.d + 4 * (uint64_t)(u * 256 + v);
            g->d[l] += B[u * 256 + v];
            uv[0][l] = u; uv[1][l] = v; bv[l] = B[u * 256 + v];
        }
        uint8_t u = gms_emit_load(&x->e, 0x30, m, GMS_MEM_LD_GLOBAL, 1, a1, g->ri);
        WL_SH_LD(x, m, uint8_t, uv[0][l]);
        uint8_t v = gms_emit_load(&x->e, 0x38, m, GMS_MEM_LD_GLOBAL, 1, a2, g->ri);
        WL_SH_LD(x, m, uint8_t, uv[1][l]);
        uint8_t ix = wl_int_at(x, 0x40, m, u, v);
        uint8_t b = wl_ldg_at(x, 0x48, m, 4, a3, ix);
        WL_SH_LD(x, m, float, bv[l]);
        g->acc = wl_fp_at(x, 0x50, m, g->acc, b, GMS_REG_NONE);
        if (kk % 4 == 3 || kk + 1 == NF) {
            uint8_t c = wl_int_at(x, 0x58, m, g->ri, GMS_REG_NONE);
            wl_bra_at(x, 0x60, m, c);
        }
        WL_GEN_YIELD(&ws->g);
    }
    WL_TLANES(x, g->m, l, t) {
        a1[l] = Kb->d + 4 * (uint64_t)(g->I[l] * l2 + g->J[l]);
        K[g->I[l] * l2 + g->J[l]] = expf(-0.015f * g->d[l]);
    }
    uint8_t e = wl_fp_at(x, 0x68, g->m, g->acc, GMS_REG_NONE, GMS_REG_NONE);
    e = wl_sfu_at(x, 0x70, g->m, e);
    wl_stg_at(x, 0x78, g->m, 4, a1, g->ri, e);
    WL_SH_ST(x, g->m, float, K[g->I[l] * l2 + g->J[l]]);
    wl_exit_at(x, WL_PC_END, x->live);
    WL_GEN_END(&ws->g);
}

static void cpu_matrix(sv *s, int ts)
{
    int64_t l1 = ts ? s->Lts : s->L, l2 = s->L;
    const uint8_t *x1 = ts ? s->Xts : s->Xtr;
    float *K = WL_F(ts ? s->Kts : s->K);
    for (int64_t i = 0; i < l1; i++)
        for (int64_t j = 0; j < l2; j++) K[i * l2 + j] = kval(WL_F(s->B), x1 + i * NF, s->Xtr + j * NF);
}

/* ---------------------------------------------------------------- kernel_minibatch */
/* one thread's update of alpha[i] (the shared delta); returns delta */
static float mb_update(float *alpha, const float *sigma, const float *K, const int32_t *y, int64_t l, int64_t i, int64_t C)
{
    float last = alpha[i];
    float delta = 1 / K[i * l + i] * (1 - y[i] * sigma[i]);
    alpha[i] += delta;
    if (alpha[i] < 0) { alpha[i] = 0; delta = 0 - last; }
    if (alpha[i] > C) { alpha[i] = (float)C; delta = (float)C - last; }
    return delta;
}

/* kernel_minibatch is resumable although its warps exchange values every step (the shared
 * delta, sigma[i] written by one warp and read by the next step's updating thread, the
 * __syncthreads_and vote): the emitted instructions and addresses depend on the values only
 * through the number of sweeps, so mb_solve (wl_kernel.begin) runs the whole block's
 * computation at dispatch, in the block's thread order (warps, then lanes), exactly as the
 * whole-stream generation did, and keeps the sweep count; each warp's step then emits its
 * own instructions for that many sweeps, a chunk at a time, reading nothing from the other
 * warps (so its chunks need not end at barriers). */
static int mb_solve(const wl_kernel *k, uint64_t blk, gms_error *err)
{
    sv *s = k->st;
    int64_t l = k->arg[0], C = s->C;
    float *alpha = WL_F(s->ma), *sigma = WL_F(s->ms);
    const float *K = WL_F(s->mK);
    const int32_t *y = WL_I(s->my);
    float *lastj = gms_xmalloc(4 * (uint64_t)l);
    int64_t counter = 0;
    if (k->sh) {   /* the initial state the warps replay from */
        s->mb_a0 = gms_xrealloc(s->mb_a0, 4 * (uint64_t)l);
        s->mb_s0 = gms_xrealloc(s->mb_s0, 4 * (uint64_t)l);
        memcpy(s->mb_a0, alpha, 4 * (uint64_t)l);
        memcpy(s->mb_s0, sigma, 4 * (uint64_t)l);
    }
    for (;;) {
        counter++;
        if (counter > SWEEP_MAX) {
            free(lastj);
            return gms_err(err, "workload svm: kernel_minibatch did not converge in %d sweeps", SWEEP_MAX);
        }
        for (int64_t t = 0; t < l; t++) lastj[t] = alpha[t];
        for (int64_t i = 0; i < l; i++) {
            float delta = mb_update(alpha, sigma, K, y, l, i, C);   /* thread i, before the BAR */
            if (k->sh) {
                uint64_t at = 2 * ((uint64_t)(counter - 1) * (uint64_t)l + (uint64_t)i);
                if (at + 1 >= s->mb_dcap) {
                    s->mb_dcap = 2 * at + 1024;
                    s->mb_delta = gms_xrealloc(s->mb_delta, 4 * s->mb_dcap);
                }
                s->mb_delta[at] = delta;
                s->mb_delta[at + 1] = alpha[i];   /* after the clamp */
            }
            for (int64_t t = 0; t < l; t++) sigma[t] += delta * y[i] * K[i * l + t];   /* every thread, after */
        }
        int all = 1;
        for (int64_t t = 0; t < l; t++) {
            float dd = alpha[t] - lastj[t];
            if (!(-0.0001f < dd && dd < 0.0001f)) all = 0;
        }
        if (all) break;
    }
    if (l > 1) WL_I(s->iters)[0] = (int32_t)counter;
    s->sweeps_total += counter;
    s->mb_sweeps = counter;
    free(lastj);
    (void)blk;
    return 0;
}

/* one warp of kernel_minibatch: mb_solve's sweep count of sweeps (each: l steps with a BAR
 * each, the convergence vote and its BAR), then thread 1's store of the count */
typedef struct mb_warp {
    wl_wgen ws;
    int64_t sweeps, c, i;   /* sweeps: copied at the warp's start, right after mb_solve */
    uint8_t ri;
    float ra[32], rs[32];   /* shadow memory: the lanes' alpha and sigma, replayed */
} mb_warp;

static int k_minibatch(const wl_kernel *k, wl_wgen *ws, gms_error *err)
{
    mb_warp *g = (mb_warp *)ws;
    wl_warp *x = &ws->w;
    sv *s = k->st;
    int64_t nl = k->arg[0];   /* threads (l in the suite); l is the lane below */
    uint32_t w = ws->w.warp;
    uint64_t a1[32], a2[32], a3[32], z[32] = {0};
    WL_GEN_BEGIN(&ws->g)
    g->sweeps = s->mb_sweeps;
    if (x->sh) WL_TLANES(x, x->live, ln, t) { g->ra[ln] = s->mb_a0[t]; g->rs[ln] = s->mb_s0[t]; }
    g->ri = wl_prologue_idx(x, x->live);
    for (g->c = 0; g->c < g->sweeps; g->c++) {
        WL_TLANES(x, x->live, ln, t) a1[ln] = s->ma.d + 4 * (uint64_t)t;
        wl_ldg_at(x, 0x18, x->live, 4, a1, g->ri);
        WL_SH_LD(x, x->live, float, g->ra[l]);
        for (g->i = 0; g->i < nl; g->i++) {
            int64_t i = g->i;
            uint8_t ri = g->ri;
            uint8_t q = wl_int_at(x, 0x20, x->live, ri, GMS_REG_NONE);
            wl_bra_at(x, 0x28, x->live, q);
            if (w == (uint32_t)(i / 32)) {   /* thread i updates alpha[i] and the shared delta */
                uint32_t ol = (uint32_t)(i % 32), m = 1u << ol;
                a1[ol] = s->ma.d + 4 * (uint64_t)i;
                a2[ol] = s->mK.d + 4 * (uint64_t)(i * nl + i);
                a3[ol] = s->my.d + 4 * (uint64_t)i;
                const float *st = x->sh ? &s->mb_delta[2 * ((uint64_t)g->c * (uint64_t)nl + (uint64_t)i)] : NULL;
                uint8_t va = wl_ldg_at(x, 0x30, m, 4, a1, ri);
                WL_SH_LD(x, m, float, g->ra[l]);
                uint8_t vk = wl_ldg_at(x, 0x38, m, 4, a2, ri);
                WL_SH_LD(x, m, float, WL_F(s->mK)[i * nl + i]);
                uint8_t vy = wl_ldg_at(x, 0x40, m, 4, a3, ri);
                WL_SH_LD(x, m, int32_t, WL_I(s->my)[i]);
                a3[ol] = s->ms.d + 4 * (uint64_t)i;
                uint8_t vs = wl_ldg_at(x, 0x48, m, 4, a3, ri);
                WL_SH_LD(x, m, float, g->rs[l]);
                if (st) g->ra[ol] = st[1];
                uint8_t f = wl_sfu_at(x, 0x50, m, vy);
                uint8_t rc = wl_sfu_at(x, 0x58, m, vk);
                uint8_t d = wl_fp_at(x, 0x60, m, f, vs, GMS_REG_NONE);
                d = wl_fp_at(x, 0x68, m, rc, d, GMS_REG_NONE);
                wl_sts_at(x, 0x70, m, 4, z, GMS_REG_NONE, d);
                uint8_t na = wl_fp_at(x, 0x78, m, va, d, GMS_REG_NONE);
                wl_stg_at(x, 0x80, m, 4, a1, ri, na);
                WL_SH_ST(x, m, float, g->ra[l]);
                uint8_t p = wl_fp_at(x, 0x88, m, na, GMS_REG_NONE, GMS_REG_NONE);
                wl_bra_at(x, 0x90, m, p);
                uint8_t p2 = wl_fp_at(x, 0x98, m, na, GMS_REG_NONE, GMS_REG_NONE);
                wl_bra_at(x, 0xa0, m, p2);
            }
            gms_emit_bar(&x->e, 0xa8);
            WL_TLANES(x, x->live, ln, t) {   /* sigma[t] += delta * y[i] * K[i][t] */
                a1[ln] = s->my.d + 4 * (uint64_t)i;
                a2[ln] = s->mK.d + 4 * (uint64_t)(i * nl + t);
                a3[ln] = s->ms.d + 4 * (uint64_t)t;
            }
            uint8_t d = wl_lds_at(x, 0xb0, x->live, 4, z, GMS_REG_NONE);
            uint8_t vy = wl_ldg_at(x, 0xb8, x->live, 4, a1, ri);
            WL_SH_LD(x, x->live, int32_t, WL_I(s->my)[i]);
            uint8_t vk = wl_ldg_at(x, 0xc0, x->live, 4, a2, ri);
            WL_SH_LD(x, x->live, float, WL_F(s->mK)[i * nl + (int64_t)x->t0 + l]);
            uint8_t vs = wl_ldg_at(x, 0xc8, x->live, 4, a3, ri);
            WL_SH_LD(x, x->live, float, g->rs[l]);
            uint8_t f = wl_sfu_at(x, 0xd0, x->live, vy);
            f = wl_fp_at(x, 0xd8, x->live, d, f, GMS_REG_NONE);
            f = wl_fp_at(x, 0xe0, x->live, f, vk, vs);
            wl_stg_at(x, 0xe8, x->live, 4, a3, ri, f);
            if (x->sh) {   /* mb_solve's sigma[t] += delta * y[i] * K[i * l + t], replayed */
                float dl = s->mb_delta[2 * ((uint64_t)g->c * (uint64_t)nl + (uint64_t)i)];
                WL_TLANES(x, x->live, ln, t) g->rs[ln] += dl * WL_I(s->my)[i] * WL_F(s->mK)[i * nl + (int64_t)t];
            }
            WL_SH_ST(x, x->live, float, g->rs[l]);
            WL_GEN_YIELD(&ws->g);
        }
        WL_TLANES(x, x->live, ln, t) a1[ln] = s->ma.d + 4 * (uint64_t)t;   /* |alpha - last| < 1e-4 */
        uint8_t v = wl_ldg_at(x, 0xf0, x->live, 4, a1, g->ri);
        WL_SH_LD(x, x->live, float, g->ra[l]);
        uint8_t d = wl_fp_at(x, 0xf8, x->live, v, GMS_REG_NONE, GMS_REG_NONE);
        wl_fp_at(x, 0x100, x->live, d, GMS_REG_NONE, GMS_REG_NONE);
        gms_emit_bar(&x->e, 0x108);   /* __syncthreads_and(can_stop) */
        wl_bra_at(x, 0x110, x->live, g->ri);
        WL_GEN_YIELD(&ws->g);
    }
    if (nl > 1 && w == 0) {
        a1[1] = s->iters.d;
        wl_stg_at(x, 0x118, 2u, 4, a1, g->ri, GMS_REG_NONE);
        WL_SH_ST(x, 2u, int32_t, WL_I(s->iters)[0]);
    }
    wl_exit_at(x, WL_PC_END, x->live);
    WL_GEN_END(&ws->g);
}

static int cpu_minibatch(sv *s, int64_t l, gms_error *err)
{
    float *alpha = WL_F(s->ma), *sigma = WL_F(s->ms), *last = gms_xmalloc(4 * (uint64_t)l);
    const float *K = WL_F(s->mK);
    const int32_t *y = WL_I(s->my);
    int64_t counter = 0;
    for (;;) {
        if (++counter > SWEEP_MAX) { free(last); return gms_err(err, "workload svm: no convergence"); }
        memcpy(last, alpha, 4 * (uint64_t)l);
        for (int64_t i = 0; i < l; i++) {
            float delta = mb_update(alpha, sigma, K, y, l, i, s->C);
            for (int64_t j = 0; j < l; j++) sigma[j] += delta * y[i] * K[i * l + j];
        }
        int all = 1;
        for (int64_t j = 0; j < l; j++) {
            float dd = alpha[j] - last[j];
            if (!(-0.0001f < dd && dd < 0.0001f)) all = 0;
        }
        if (all) break;
    }
    if (l > 1) WL_I(s->iters)[0] = (int32_t)counter;
    s->sweeps_total += counter;
    free(last);
    return 0;
}

/* ---------------------------------------------------------------- host training loop */
static int kkt_ok(const sv *s)
{
    for (int64_t i = 0; i < s->L; i++) {
        float yfx = (float)s->y[i] * s->sigma[i], a = s->alpha[i];
        if (a == 0 && yfx < 0.99) return 0;
        if (a == (float)s->C && yfx > 1.01) return 0;
        if (0 < a && a < (float)s->C && !(fabsf(yfx - 1) < 0.01)) return 0;
    }
    return 1;
}

typedef struct vpair { float v; uint32_t i; } vpair;
static int vcmp(const void *a, const void *b)
{
    const vpair *x = a, *y = b;
    if (x->v < y->v) return -1;
    if (x->v > y->v) return 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

/* after a minibatch: gradient update, pruning, new violators */
static void round_post(sv *s)
{
    int64_t L = s->L, n = s->nsv;
    const float *ma = WL_F(s->ma);
    for (int64_t i = 0; i < n; i++) s->alpha[s->svi[i]] = ma[i];
    const float *K = WL_F(s->K);
    int64_t nz = 0;
    uint32_t *nzi = gms_xmalloc(4 * (uint64_t)L);
    for (int64_t j = 0; j < L; j++) if (s->alpha[j] != 0) nzi[nz++] = (uint32_t)j;
    /* sigma[i] = sum_j alpha[j]*y[j]*K[i*L+j]; zero alphas add +-0 and are skipped */
    for (int64_t i = 0; i < L; i++) {
        float sg = 0;
        for (int64_t q = 0; q < nz; q++) {
            uint32_t j = nzi[q];
            sg += s->alpha[j] * (float)s->y[j] * K[i * L + j];
        }
        s->sigma[i] = sg;
    }
    free(nzi);
    uint32_t *rem = gms_xmalloc(4 * (uint64_t)(n ? n : 1));
    int64_t nr = 0;
    for (int64_t i = 0; i < n; i++) if (ma[i] != 0) rem[nr++] = s->svi[i];
    float kkt1 = 1 - s->acc, kkt2 = 1 + s->acc, kkt3 = 0.01f;
    vpair *vp = gms_xmalloc(sizeof *vp * (uint64_t)L);
    int64_t nv = 0;
    for (int64_t i = 0; i < L; i++) {
        float yfx = (float)s->y[i] * s->sigma[i], a = s->alpha[i];
        if ((a == 0 && yfx < kkt1) || (a == (float)s->C && yfx > kkt2) ||
            (0 < a && a < (float)s->C && !(fabsf(yfx - 1) < kkt3))) {
            vp[nv].v = yfx;
            vp[nv].i = (uint32_t)i;
            nv++;
        }
    }
    qsort(vp, (size_t)nv, sizeof *vp, vcmp);
    uint8_t *in_rem = gms_xcalloc((uint64_t)L, 1);
    for (int64_t i = 0; i < nr; i++) in_rem[rem[i]] = 1;
    int64_t nn = nr;
    for (int64_t i = 0; i < nr; i++) s->svi[i] = rem[i];
    for (int64_t i = 0; i < nv; i++) {
        if (in_rem[vp[i].i]) continue;
        s->svi[nn++] = vp[i].i;
    }
    s->remaining = nr;
    s->nsv = nn;
    free(rem); free(vp); free(in_rem);
}

static int drive(sv *s, gms_program *p, gms_error *err)
{
    for (;;) {
        switch (s->state) {
        case V_KM: {
            if (s->cpu) { cpu_matrix(s, 0); s->state = V_KM_POST; break; }
            s->sh = p->shadow;
            wl_buf_alloc_in(p, s->pool, &s->K, "K", 0);
            wl_buf_alloc_in(p, s->pool, &s->B, "B", 1);
            wl_buf_alloc_in(p, s->pool, &s->X, "dev_X", 1);
            uint32_t g = (uint32_t)((s->L - 1) / 32 + 1);
            wl_kernel k = {.st = s, .step = k_matrix, .wsize = sizeof(km_warp), .grid = {g, g, 1}, .block = {32, 32, 1}};
            wl_launch_k(p, "kernel_kernel_matrix", &k, 32, 0);
            gms_prog_sync(p);
            gms_prog_copy_d2h(p, s->K.d, s->K.bytes);
            wl_buf_alloc_in(p, s->pool, &s->iters, "iters", 0);
            s->state = V_KM_POST;
            return 1;
        }
        case V_KM_POST:
            /* the D2H copy of K: in a functional verify run, what the kernel left there */
            if (!s->cpu && wl_shadow_active(s->sh)) wl_shadow_read(s->sh, s->K.d, s->K.h, s->K.bytes);
            s->state = V_ROUND;
            break;
        case V_ROUND: {
            if (kkt_ok(s) || s->kkt_counter >= KKT_MAX) { s->state = V_TEST; break; }
            s->kkt_counter++;
            int64_t n = s->nsv, L = s->L;
            if (n < 1 || n > 1024)
                return gms_err(err, "workload svm: working set of %lld points%s", (long long)n,
                               n < 1 ? " is empty (the suite's launch fails)"
                                     : ": needs the cooperative kernel_minibatch_g (grid sync), which is not modelled");
            if (n > s->M) {
                /* the mini arrays were sized for M; grow them */
                wl_buf_free(&s->my); wl_buf_free(&s->ma); wl_buf_free(&s->ms); wl_buf_free(&s->mK);
                wl_buf_new(&s->my, 4 * (uint64_t)n); wl_buf_new(&s->ma, 4 * (uint64_t)n);
                wl_buf_new(&s->ms, 4 * (uint64_t)n); wl_buf_new(&s->mK, 4 * (uint64_t)(n * n));
                s->M = n;
                s->my.d = 0;
            }
            const float *K = WL_F(s->K);
            for (int64_t i = 0; i < n; i++) {
                uint32_t a = s->svi[i];
                WL_I(s->my)[i] = s->y[a];
                WL_F(s->ma)[i] = s->alpha[a];
                WL_F(s->ms)[i] = s->sigma[a];
                for (int64_t j = 0; j < n; j++) WL_F(s->mK)[i * n + j] = K[(int64_t)a * L + s->svi[j]];
            }
            if (s->cpu) {
                if (cpu_minibatch(s, n, err)) return -1;
                s->state = V_MB_POST;
                break;
            }
            if (!s->my.d) {
                wl_buf_alloc_in(p, s->pool, &s->my, "mini_y", 0);
                wl_buf_alloc_in(p, s->pool, &s->ma, "mini_a", 0);
                wl_buf_alloc_in(p, s->pool, &s->ms, "mini_s", 0);
                wl_buf_alloc_in(p, s->pool, &s->mK, "mini_K", 0);
            }
            gms_prog_copy_h2d(p, s->my.d, 4 * (uint64_t)n);
            gms_prog_copy_h2d(p, s->ma.d, 4 * (uint64_t)n);
            gms_prog_copy_h2d(p, s->ms.d, 4 * (uint64_t)n);
            gms_prog_copy_h2d(p, s->mK.d, 4 * (uint64_t)(n * n));
            wl_sh_init(p, s->my.d, s->my.h, 4 * (uint64_t)n);
            wl_sh_init(p, s->ma.d, s->ma.h, 4 * (uint64_t)n);
            wl_sh_init(p, s->ms.d, s->ms.h, 4 * (uint64_t)n);
            wl_sh_init(p, s->mK.d, s->mK.h, 4 * (uint64_t)(n * n));
            wl_kernel k = {.st = s, .step = k_minibatch, .wsize = sizeof(mb_warp), .begin = mb_solve, .grid = {1, 1, 1}, .block = {(uint32_t)n, 1, 1}};
            k.arg[0] = n;
            wl_launch_k(p, "kernel_minibatch", &k, 32, 8);
            gms_prog_sync(p);
            gms_prog_copy_d2h(p, s->ma.d, 4 * (uint64_t)n);
            gms_prog_copy_d2h(p, s->ms.d, 4 * (uint64_t)n);
            gms_prog_copy_d2h(p, s->iters.d, 4);
            s->state = V_MB_POST;
            return 1;
        }
        case V_MB_POST:
            if (!s->cpu && wl_shadow_active(s->sh)) {   /* the D2H copies of mini_a, mini_s, iters */
                wl_shadow_read(s->sh, s->ma.d, s->ma.h, 4 * (uint64_t)s->nsv);
                wl_shadow_read(s->sh, s->ms.d, s->ms.h, 4 * (uint64_t)s->nsv);
                wl_shadow_read(s->sh, s->iters.d, s->iters.h, 4);
            }
            round_post(s);
            s->state = V_ROUND;
            break;
        case V_TEST: {
            if (s->cpu) { cpu_matrix(s, 1); s->state = V_TEST_POST; break; }
            wl_buf_alloc_in(p, s->pool, &s->Kts, "K_ts", 0);
            wl_buf_alloc_in(p, s->pool, &s->X1, "dev_X1", 1);
            wl_buf_alloc_in(p, s->pool, &s->X2, "dev_X2", 1);
            uint32_t gx = (uint32_t)((s->Lts - 1) / 32 + 1), gy = (uint32_t)((s->L - 1) / 32 + 1);
            wl_kernel k = {.st = s, .step = k_matrix, .wsize = sizeof(km_warp), .grid = {gx, gy, 1}, .block = {32, 32, 1}};
            k.arg[0] = 1;
            wl_launch_k(p, "kernel_kernel_matrix_ts", &k, 32, 0);
            gms_prog_sync(p);
            gms_prog_copy_d2h(p, s->Kts.d, s->Kts.bytes);
            s->state = V_TEST_POST;
            return 1;
        }
        case V_TEST_POST: {
            int64_t L = s->L;
            if (!s->cpu && wl_shadow_active(s->sh)) wl_shadow_read(s->sh, s->Kts.d, s->Kts.h, s->Kts.bytes);
            float *ay = gms_xmalloc(4 * (uint64_t)L);
            for (int64_t i = 0; i < L; i++) ay[i] = s->alpha[i] * (float)s->y[i];
            for (int64_t i = 0; i < s->Lts; i++) {
                float ts = 0;
                const float *row = WL_F(s->Kts) + i * L;
                for (int64_t j = 0; j < L; j++) ts += row[j] * ay[j];
                int pos = (0.0f < ts) - (ts < 0.0f);
                s->yhat[i] = pos > 0 ? 0 : 1;
            }
            free(ay);
            s->state = V_DONE;
            return 0;
        }
        default:
            return 0;
        }
    }
}

typedef struct svw {
    sv *run;
    int64_t C, M, L, Lt;
    float acc;
    uint64_t seed;
    uint64_t repeat, rep;  /* repetitions asked for; the one running (from 0) */
    wl_pool pool;
} svw;

static int create(const gms_wl_args *a, void **out, gms_error *err)
{
    uint64_t C, M, rep;
    int64_t L, Lt;
    if (sizes(a, &L, &Lt, err) || wl_param(a, "C", 1, 1000000, &C, err) || wl_param(a, "M", 1, 1024, &M, err) ||
        wl_param(a, "repeat", 1, 1000000, &rep, err))
        return -1;
    M = working_set(a, L);
    double acc = gms_wl_f64(a, "accuracy");
    if (!isfinite(acc)) return gms_err(err, "workload svm: accuracy must be a number");
    if ((int64_t)M > L)
        return gms_err(err, "workload svm: M=%llu exceeds the %lld training points", (unsigned long long)M, (long long)L);
    if ((uint64_t)L * (uint64_t)L > (1ULL << 34) || (uint64_t)L * (uint64_t)Lt > (1ULL << 34))
        return gms_err(err, "workload svm: train=%lld / test=%lld give a kernel matrix that is too large", (long long)L,
                       (long long)Lt);
    svw *w = gms_xcalloc(1, sizeof *w);
    w->C = (int64_t)C; w->M = (int64_t)M; w->L = L; w->Lt = Lt; w->acc = (float)acc; w->seed = gms_wl_seed(a);
    w->repeat = rep;
    w->run = sv_new(w->C, w->M, w->acc, L, Lt, w->seed, 0);
    w->run->pool = &w->pool;
    *out = w;
    return 0;
}

static int drive_owner(void *o, gms_program *p, gms_error *err)
{
    return drive(((svw *)o)->run, p, err);
}

static void rebuild(void *o)
{
    svw *w = o;
    sv_free(w->run);
    w->run = sv_new(w->C, w->M, w->acc, w->L, w->Lt, w->seed, 0);
    w->run->pool = &w->pool;
}

static int next(void *st, gms_program *p, gms_error *err)
{
    svw *w = st;
    return wl_rerun(w, &w->rep, w->repeat, &w->pool, drive_owner, rebuild, p, err);
}

static int verify(void *st, gms_error *err)
{
    svw *w = st;
    sv *g = w->run;
    if (g->state != V_DONE) return gms_err(err, "workload svm: the program did not finish");
    sv *r = sv_new(w->C, w->M, w->acc, w->L, w->Lt, w->seed, 1);
    r->state = V_KM;
    int rc = drive(r, NULL, err) < 0 ? -1 : 0;
    if (!rc) rc = wl_check_f32_tol("svm", "K", WL_F(g->K), WL_F(r->K), (uint64_t)(w->L * w->L), 1e-6, err);
    if (!rc && (g->kkt_counter != r->kkt_counter || g->sweeps_total != r->sweeps_total))
        rc = gms_err(err, "workload svm: %lld KKT rounds / %lld sweeps, reference %lld / %lld", (long long)g->kkt_counter,
                     (long long)g->sweeps_total, (long long)r->kkt_counter, (long long)r->sweeps_total);
    if (!rc) rc = wl_check_f32_tol("svm", "alpha", g->alpha, r->alpha, (uint64_t)w->L, 1e-6, err);
    if (!rc) rc = wl_check_f32_tol("svm", "sigma", g->sigma, r->sigma, (uint64_t)w->L, 1e-5, err);
    if (!rc) rc = wl_check_f32_tol("svm", "K_ts", WL_F(g->Kts), WL_F(r->Kts), (uint64_t)(w->Lt * w->L), 1e-6, err);
    if (!rc) rc = wl_check_i32("svm", "y_hat", g->yhat, r->yhat, (uint64_t)w->Lt, err);
    sv_free(r);
    return rc ? -1 : 0;
}

static void destroy(void *st)
{
    svw *w = st;
    if (!w) return;
    sv_free(w->run);
    wl_pool_free(&w->pool);
    free(w);
}

const gms_workload_ops gms_wl_svm = {
    .name = "svm", .suite = "ml", .domain = "machine learning", .ri = "I",
    .summary = "SVM (MNIST 0 vs 1, RBF): kernel matrix (32x32 threads), working-set SMO in one block, test kernel matrix",
    .params = params, .create = create, .next = next, .verify = verify, .destroy = destroy,
    .footprint = footprint,
};
