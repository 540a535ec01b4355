/* LR (UVMBench logistic-regression, LogisticRegression_CuBLAS.cu): batch gradient descent of
 * a logistic-regression classifier on a document/word-count matrix (the suite reads the first
 * `features` word counts of the aclImdb training reviews; here counts are drawn from the seed,
 * the first half of the instances labelled P, the rest N, with a per-class bias so the model
 * learns something). ArffImporter's preprocessing is reproduced: a bias column X0 = 1, every
 * other feature normalised to (x - mean) / (max - min), the matrix stored transposed
 * (column-major, one instance per row) as cuBLAS prefers.
 *
 * Per iteration (MAX_ITER = `iter` times):
 *   cublasSgemv(N)  cost = X * w               gemv2N_kernel: 128 threads, one row each
 *   ComputeCost     cost = sigmoid(cost) - y   the suite's kernel: 128 threads, one instance each
 *   cublasSgemv(T)  grad = X^T * cost          gemv2T_kernel: one 128-thread block per feature,
 *                                              strided partial sums + shared-memory tree
 *   cublasSaxpy     w += -lr/m * grad          axpy_kernel: 128 threads, one feature each
 * Table 5.1 counts only ComputeCost (the one kernel the suite writes); the three cuBLAS calls
 * are modelled as the plain kernels above (cuBLAS's own kernels are closed source). */
#include "workloads/wl_buf.h"
#include "workloads/wl_clamp.h"
#include "util/rng.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TPB 128
#define LEARNING_RATE 10.0f

typedef struct lr {
    uint64_t m, n, iters;   /* instances, features including X0, gradient-descent iterations */
    uint64_t repeat, rep;   /* repetitions asked for, pushed so far */
    wl_buf X, w, cost, cls, grad;
    float *x0;              /* a copy of the input matrix (verify) */
    wl_shadow *sh;          /* functional verify runs: verify reads the weights and costs from it */
} lr;

static const gms_wl_param params[] = {
    {"instances", "25000", "training documents (rows; the aclImdb training set has 25000)"},
    {"features", "1000", "word-count features per document (train-first1000.arff); X0 is added"},
    {"iter", "1000", "gradient-descent iterations (MAX_ITER)"},
    {"scale", "1", "multiplies instances and features"},
    {"repeat", "1", "run the whole training N times from the same (zero) initial weights"},
    {NULL, NULL, NULL},
};

/* `scale` multiplies features as well as instances: every iteration's work is instances x
 * features (both gemvs), so scaling instances alone left scale=0.01 at 1000 features x 1000
 * iterations (over two minutes) */
static int sizes(const gms_wl_args *a, uint64_t *m, uint64_t *n, gms_error *err)
{
    if (wl_clamp_scaled(a, "lr", "instances", 1, 1, 1ULL << 30, m, err)) return -1;
    if (wl_param(a, "features", 1, 1ULL << 20, n, err) || wl_clamp_scaled(a, "lr", "features", 1, 1, 1ULL << 20, n, err))
        return -1;
    *n += 1;
    if (*m * *n > (1ULL << 36))
        return gms_err(err, "workload lr: instances x features = %llu x %llu is too large",
                       (unsigned long long)*m, (unsigned long long)*n);
    return 0;
}

static uint64_t footprint(const gms_wl_args *a)
{
    gms_error e;
    uint64_t m = 0, n = 0;
    if (sizes(a, &m, &n, &e)) return 0;
    return 4 * m * n + 4 * n + 4 * m + 2 * m + 4 * n;
}

static int create(const gms_wl_args *a, void **out, gms_error *err)
{
    uint64_t m, n, it, rep;
    if (sizes(a, &m, &n, err) || wl_param(a, "iter", 1, 1000000, &it, err) ||
        wl_param(a, "repeat", 1, 1000000, &rep, err))
        return -1;
    lr *s = gms_xcalloc(1, sizeof *s);
    s->m = m; s->n = n; s->iters = it; s->repeat = rep;
    wl_buf_new(&s->X, 4 * m * n);
    wl_buf_new(&s->w, 4 * n);
    wl_buf_new(&s->cost, 4 * m);
    wl_buf_new(&s->cls, 2 * m);
    wl_buf_new(&s->grad, 4 * n);
    gms_rng r;
    gms_rng_seed(&r, gms_wl_seed(a));
    /* featureMat (row-major, with X0) as ArffImporter builds it, then normalise, transpose */
    uint64_t nf = n - 1;
    float *fm = gms_xmalloc(4 * m * n);
    float *mn = gms_xcalloc(nf ? nf : 1, 4), *mx = gms_xcalloc(nf ? nf : 1, 4), *sum = gms_xcalloc(nf ? nf : 1, 4);
    uint16_t *cls = s->cls.h;
    for (uint64_t i = 0; i < m; i++) {
        cls[i] = i < (m + 1) / 2 ? 0 : 1;   /* classVec {P, N}: P = 0 */
        fm[i * n] = 1.0f;
        for (uint64_t j = 0; j < nf; j++) {
            /* word counts: frequent words first (Zipf-like), class-dependent shift */
            double lam = 12.0 / (double)(1 + j / 4) * (cls[i] ? 0.8 + 0.4 * (double)(j % 3) / 2 : 1.0);
            float v = (float)floor(-log(1.0 - gms_rng_double(&r)) * lam);
            if (v < mn[j]) mn[j] = v;       /* min/max start at 0 as in the importer */
            if (v > mx[j]) mx[j] = v;
            sum[j] += v;
            fm[i * n + 1 + j] = v;
        }
    }
    for (uint64_t j = 0; j < nf; j++) {
        float mean = sum[j] / (float)m, range = mx[j] - mn[j];
        if (range == 0.0f) continue;
        for (uint64_t i = 0; i < m; i++) fm[i * n + 1 + j] = (fm[i * n + 1 + j] - mean) / range;
    }
    float *X = WL_F(s->X);
    for (uint64_t i = 0; i < m; i++)
        for (uint64_t j = 0; j < n; j++) X[j * m + i] = fm[i * n + j];
    s->x0 = fm;
    memcpy(s->x0, X, 4 * m * n);
    free(mn); free(mx); free(sum);
    *out = s;
    return 0;
}

/* y[i] = sum_j A[j*m + i] * x[j] (alpha 1, beta 0) */
static int k_gemvN(const wl_kernel *k, uint64_t b, gms_block_trace *out, gms_error *err)
{
    lr *s = k->st;
    wl_warp W[WL_MAXW];
    uint32_t nw = wl_block_begin(out, (uint32_t)k->block.x, W);
    wl_warps_sh(W, nw, k);
    const float *X = WL_F(s->X), *w = WL_F(s->w);
    float *y = WL_F(s->cost);
    uint64_t m = s->m, n = s->n, a[32], xb[32];
    for (uint32_t wi = 0; wi < nw; wi++) {
        wl_warp *x = &W[wi];
        uint8_t ri, c;
        uint32_t act = wl_guard_1d(x, b * k->block.x, m, &ri, &c);
        if (!act) { wl_exit_at(x, WL_PC_END, x->live); continue; }
        float acc[32];
        WL_TLANES(x, act, l, t) acc[l] = 0;
        uint8_t r = wl_int_at(x, 0x28, act, GMS_REG_NONE, GMS_REG_NONE);
        for (uint64_t j = 0; j < n; j++) {
            WL_TLANES(x, act, l, t) {
                uint64_t i = b * k->block.x + t;
                a[l] = s->X.d + 4 * (j * m + i);
                xb[l] = s->w.d + 4 * j;
                acc[l] += X[j * m + i] * w[j];
            }
            uint8_t va = wl_ldg_at(x, 0x30, act, 4, a, c);
            WL_SH_LD(x, act, float, X[j * m + b * k->block.x + x->t0 + (uint64_t)l]);
            uint8_t vx = wl_ldg_at(x, 0x38, act, 4, xb, c);
            WL_SH_LD(x, act, float, w[j]);
            r = wl_fp_at(x, 0x40, act, va, vx, r);
            if (j % 4 == 3 || j + 1 == n) {
                uint8_t q = wl_int_at(x, 0x48, act, c, GMS_REG_NONE);
                wl_bra_at(x, 0x50, act, q);
            }
        }
        WL_TLANES(x, act, l, t) {
            uint64_t i = b * k->block.x + t;
            a[l] = s->cost.d + 4 * i;
            y[i] = acc[l];
        }
        wl_stg_at(x, 0x58, act, 4, a, c, r);
        WL_SH_ST(x, act, float, acc[l]);
        wl_exit_at(x, WL_PC_END, x->live);
    }
    (void)err;
    return 0;
}

/* ComputeCost: cost = 1/(1+expf(-cost)) - class */
static int k_cost(const wl_kernel *k, uint64_t b, gms_block_trace *out, gms_error *err)
{
    lr *s = k->st;
    wl_warp W[WL_MAXW];
    uint32_t nw = wl_block_begin(out, (uint32_t)k->block.x, W);
    wl_warps_sh(W, nw, k);
    float *cost = WL_F(s->cost);
    const uint16_t *cls = s->cls.h;
    uint64_t a[32], ac[32];
    float in[32], o[32];   /* each lane's cost before and after, for the shadow memory */
    for (uint32_t wi = 0; wi < nw; wi++) {
        wl_warp *x = &W[wi];
        uint8_t ri, c;
        uint32_t act = wl_guard_1d(x, b * k->block.x, s->m, &ri, &c);
        WL_TLANES(x, act, l, t) {
            uint64_t i = b * k->block.x + t;
            a[l] = s->cost.d + 4 * i;
            ac[l] = s->cls.d + 2 * i;
            in[l] = cost[i];
            cost[i] = o[l] = 1.0f / (1.0f + expf(-cost[i])) - (float)cls[i];
        }
        if (act) {
            uint8_t v = wl_ldg_at(x, 0x28, act, 4, a, c);
            WL_SH_LD(x, act, float, in[l]);
            uint8_t y = gms_emit_load(&x->e, 0x30, act, GMS_MEM_LD_GLOBAL, 2, ac, c);
            WL_SH_LD(x, act, uint16_t, cls[b * k->block.x + x->t0 + (uint64_t)l]);
            uint8_t e = wl_fp_at(x, 0x38, act, v, GMS_REG_NONE, GMS_REG_NONE);    /* FMUL by -log2(e) */
            e = wl_sfu_at(x, 0x40, act, e);                                      /* MUFU.EX2 */
            e = wl_fp_at(x, 0x48, act, e, GMS_REG_NONE, GMS_REG_NONE);           /* FADD 1 */
            e = wl_sfu_at(x, 0x50, act, e);                                      /* MUFU.RCP */
            e = wl_fp_at(x, 0x58, act, e, e, GMS_REG_NONE);                      /* refinement FFMA */
            uint8_t f = wl_sfu_at(x, 0x60, act, y);                              /* I2F.U16 */
            e = wl_fp_at(x, 0x68, act, e, f, GMS_REG_NONE);
            wl_stg_at(x, 0x70, act, 4, a, c, e);
            WL_SH_ST(x, act, float, o[l]);
        }
        wl_exit_at(x, WL_PC_END, x->live);
    }
    (void)err;
    return 0;
}

/* grad[j] = sum_i A[j*m + i] * cost[i]: block j, thread t sums i = t, t+128, ..., then a
 * shared-memory tree over the 128 partial sums */
static void gemvT_partials(const float *X, const float *c, uint64_t m, uint64_t j, float p[TPB])
{
    for (uint32_t t = 0; t < TPB; t++) {
        float acc = 0;
        for (uint64_t i = t; i < m; i += TPB) acc += X[j * m + i] * c[i];
        p[t] = acc;
    }
    for (uint32_t h = TPB / 2; h > 0; h /= 2)
        for (uint32_t t = 0; t < h; t++) p[t] += p[t + h];
}

static int k_gemvT(const wl_kernel *k, uint64_t b, gms_block_trace *out, gms_error *err)
{
    lr *s = k->st;
    wl_warp W[WL_MAXW];
    uint32_t nw = wl_block_begin(out, TPB, W);
    wl_warps_sh(W, nw, k);
    uint64_t m = s->m, j = b, a[32], ab[32], sa[32], sb[32];
    float p[TPB];
    gemvT_partials(WL_F(s->X), WL_F(s->cost), m, j, p);
    uint8_t acc[WL_MAXW], ri[WL_MAXW];
    for (uint32_t wi = 0; wi < nw; wi++) {
        wl_warp *x = &W[wi];
        ri[wi] = wl_prologue_idx(x, x->live);
        acc[wi] = wl_int_at(x, 0x18, x->live, GMS_REG_NONE, GMS_REG_NONE);
        for (uint64_t base = 0; base < m; base += TPB) {
            uint32_t act = 0;
            WL_TLANES(x, x->live, l, t) {
                uint64_t i = base + t;
                if (i >= m) continue;
                act |= 1u << l;
                a[l] = s->X.d + 4 * (j * m + i);
                ab[l] = s->cost.d + 4 * i;
            }
            uint8_t q = wl_int_at(x, 0x20, x->live, ri[wi], GMS_REG_NONE);
            wl_bra_at(x, 0x28, x->live, q);
            if (!act) break;
            uint8_t va = wl_ldg_at(x, 0x30, act, 4, a, ri[wi]);
            WL_SH_LD(x, act, float, WL_F(s->X)[j * m + base + x->t0 + (uint64_t)l]);
            uint8_t vc = wl_ldg_at(x, 0x38, act, 4, ab, ri[wi]);
            WL_SH_LD(x, act, float, WL_F(s->cost)[base + x->t0 + (uint64_t)l]);
            acc[wi] = wl_fp_at(x, 0x40, act, va, vc, acc[wi]);
        }
        WL_TLANES(x, x->live, l, t) sa[l] = 4 * (uint64_t)t;
        wl_sts_at(x, 0x48, x->live, 4, sa, GMS_REG_NONE, acc[wi]);
    }
    wl_bar_all(W, nw, 0x50);
    for (uint32_t h = TPB / 2; h > 0; h /= 2) {
        for (uint32_t wi = 0; wi < nw; wi++) {
            wl_warp *x = &W[wi];
            uint32_t act = 0;
            WL_TLANES(x, x->live, l, t) if (t < h) {
                act |= 1u << l;
                sa[l] = 4 * (uint64_t)t;
                sb[l] = 4 * (uint64_t)(t + h);
            }
            uint8_t q = wl_int_at(x, 0x58, x->live, ri[wi], GMS_REG_NONE);
            wl_bra_at(x, 0x60, x->live, q);
            if (act) {
                uint8_t v1 = wl_lds_at(x, 0x68, act, 4, sa, GMS_REG_NONE);
                uint8_t v2 = wl_lds_at(x, 0x70, act, 4, sb, GMS_REG_NONE);
                uint8_t v = wl_fp_at(x, 0x78, act, v1, v2, GMS_REG_NONE);
                wl_sts_at(x, 0x80, act, 4, sa, GMS_REG_NONE, v);
            }
        }
        wl_bar_all(W, nw, 0x88);
    }
    WL_F(s->grad)[j] = p[0];
    for (uint32_t wi = 0; wi < nw; wi++) {
        wl_warp *x = &W[wi];
        if (wi == 0) {
            uint64_t z[32] = {0};
            a[0] = s->grad.d + 4 * j;
            uint8_t v = wl_lds_at(x, 0x90, 1u, 4, z, GMS_REG_NONE);
            wl_stg_at(x, 0x98, 1u, 4, a, ri[wi], v);
            WL_SH_ST(x, 1u, float, p[0]);
        }
        wl_exit_at(x, WL_PC_END, x->live);
    }
    (void)err;
    return 0;
}

/* w[i] += alpha * grad[i] */
static int k_axpy(const wl_kernel *k, uint64_t b, gms_block_trace *out, gms_error *err)
{
    lr *s = k->st;
    wl_warp W[WL_MAXW];
    uint32_t nw = wl_block_begin(out, (uint32_t)k->block.x, W);
    wl_warps_sh(W, nw, k);
    float alpha = (float)k->farg[0], *w = WL_F(s->w);
    const float *g = WL_F(s->grad);
    uint64_t a[32], ag[32];
    float in[32];   /* each lane's weight before the update, for the shadow memory */
    for (uint32_t wi = 0; wi < nw; wi++) {
        wl_warp *x = &W[wi];
        uint8_t ri, c;
        uint32_t act = wl_guard_1d(x, b * k->block.x, s->n, &ri, &c);
        WL_TLANES(x, act, l, t) {
            uint64_t i = b * k->block.x + t;
            a[l] = s->w.d + 4 * i;
            ag[l] = s->grad.d + 4 * i;
            in[l] = w[i];
            w[i] += alpha * g[i];
        }
        if (act) {
            uint64_t i0 = b * k->block.x + x->t0;   /* lane l's feature is i0 + l */
            uint8_t vg = wl_ldg_at(x, 0x28, act, 4, ag, c);
            WL_SH_LD(x, act, float, g[i0 + (uint64_t)l]);
            uint8_t vw = wl_ldg_at(x, 0x30, act, 4, a, c);
            WL_SH_LD(x, act, float, in[l]);
            uint8_t v = wl_fp_at(x, 0x38, act, vg, vw, GMS_REG_NONE);
            wl_stg_at(x, 0x40, act, 4, a, c, v);
            WL_SH_ST(x, act, float, w[i0 + (uint64_t)l]);
        }
        wl_exit_at(x, WL_PC_END, x->live);
    }
    (void)err;
    return 0;
}

static int next(void *st, gms_program *p, gms_error *err)
{
    lr *s = st;
    if (s->rep == s->repeat) return 0;
    s->sh = p->shadow;
    if (s->rep == 0) {
        /* non-UVM order: dFeatureMatTrans, dWeightArr, dCostArr, dClassArr, dFeaCostProdArr */
        wl_buf_alloc(p, &s->X, "dFeatureMatTrans", 0);
        wl_buf_alloc(p, &s->w, "dWeightArr", 0);
        wl_buf_alloc(p, &s->cost, "dCostArr", 0);
        wl_buf_alloc(p, &s->cls, "dClassArr", 0);
        wl_buf_alloc(p, &s->grad, "dFeaCostProdArr", 0);
        wl_buf_upload(p, &s->X);
        wl_buf_upload(p, &s->w);
        wl_buf_upload(p, &s->cls);
    } else {
        /* a later repetition: the weights start from zero again (the previous repetition's
         * kernels have run by now, since next() is called only then) */
        memset(s->w.h, 0, s->w.bytes);
        wl_buf_upload(p, &s->w);
    }
    /* ComputeCost: 128 threads when numInstances > 128, else one block of numInstances */
    uint32_t cb = s->m > TPB ? TPB : (uint32_t)s->m, cg = s->m > TPB ? (uint32_t)((s->m + TPB - 1) / TPB) : 1;
    wl_kernel kn = {.st = s, .fill = k_gemvN, .grid = {(uint32_t)((s->m + TPB - 1) / TPB), 1, 1}, .block = {TPB, 1, 1}};
    wl_kernel kc = {.st = s, .fill = k_cost, .grid = {cg, 1, 1}, .block = {cb, 1, 1}};
    wl_kernel kt = {.st = s, .fill = k_gemvT, .grid = {(uint32_t)s->n, 1, 1}, .block = {TPB, 1, 1}};
    wl_kernel ka = {.st = s, .fill = k_axpy, .grid = {(uint32_t)((s->n + TPB - 1) / TPB), 1, 1}, .block = {TPB, 1, 1}};
    ka.farg[0] = -LEARNING_RATE / (float)s->m;
    for (uint64_t it = 0; it < s->iters; it++) {
        wl_launch_k(p, "gemv2N_kernel", &kn, 32, 0);
        wl_launch_k(p, "ComputeCost", &kc, 16, 0);
        wl_launch_k(p, "gemv2T_kernel_val", &kt, 32, 4 * TPB);
        wl_launch_k(p, "axpy_kernel_val", &ka, 16, 0);
    }
    gms_prog_sync(p);
    gms_prog_copy_d2h(p, s->w.d, s->w.bytes);
    s->rep++;
    (void)err;
    return 1;
}

static int verify(void *st, gms_error *err)
{
    lr *s = st;
    uint64_t m = s->m, n = s->n;
    const float *X = s->x0;
    const uint16_t *cls = s->cls.h;
    float *w = gms_xcalloc(n, 4), *c = gms_xmalloc(4 * m), p[TPB];
    float alpha = -LEARNING_RATE / (float)m;
    for (uint64_t it = 0; it < s->iters; it++) {
        for (uint64_t i = 0; i < m; i++) {
            float acc = 0;
            for (uint64_t j = 0; j < n; j++) acc += X[j * m + i] * w[j];
            c[i] = 1.0f / (1.0f + expf(-acc)) - (float)cls[i];
        }
        for (uint64_t j = 0; j < n; j++) {
            gemvT_partials(X, c, m, j, p);
            w[j] += alpha * p[0];
        }
    }
    void *ow, *oc;   /* the results as the kernels left them at their device addresses */
    int rc = wl_check_f32_tol("lr", "dWeightArr", wl_result(s->sh, s->w.d, s->w.h, n, 4, &ow), w, n, 1e-5, err);
    if (!rc) rc = wl_check_f32_tol("lr", "dCostArr", wl_result(s->sh, s->cost.d, s->cost.h, m, 4, &oc), c, m, 1e-5, err);
    else oc = NULL;
    free(ow);
    free(oc);
    free(w);
    free(c);
    return rc ? -1 : 0;
}

static void destroy(void *st)
{
    lr *s = st;
    if (!s) return;
    wl_buf_free(&s->X);
    wl_buf_free(&s->w);
    wl_buf_free(&s->cost);
    wl_buf_free(&s->cls);
    wl_buf_free(&s->grad);
    free(s->x0);
    free(s);
}

const gms_workload_ops gms_wl_lr = {
    .name = "lr", .suite = "ml", .domain = "machine learning", .ri = "R",
    .summary = "Logistic regression: batch gradient descent (gemv, ComputeCost, gemv^T, axpy per iteration, 128 threads)",
    .params = params, .create = create, .next = next, .verify = verify, .destroy = destroy,
    .footprint = footprint,
};
