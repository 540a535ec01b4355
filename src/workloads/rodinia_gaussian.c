/* GAUSSIAN (Rodinia gaussian, UVMBench): Gaussian elimination of a size x size system
 * (the suite's create_matrix coefficients, b = 1). Per step t: Fan1 (512 threads, the column
 * multipliers) then Fan2 (4x4 threads, the row updates); back substitution on the host. */
#include "workloads/wl_buf.h"
#include "workloads/wl_clamp.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAXBLOCK 512
#define BXY 4

typedef struct ga {
    uint64_t n, repeat;
    uint64_t rep;       /* repetitions pushed so far */
    wl_buf m, a, b;
    float *a0, *b0;
    wl_shadow *sh;      /* functional verify runs: verify reads m, a, b from it */
} ga;

static const gms_wl_param params[] = {
    {"size", "256", "matrix dimension (the suite's matrix256 / -s size)"},
    {"scale", "1", "multiplies size"},
    {"repeat", "1", "run the elimination N times from the same input"},
    {NULL, NULL, NULL},
};

static uint64_t footprint(const gms_wl_args *a)
{
    gms_error e;
    uint64_t n = 0;
    if (wl_clamp_scaled(a, "gaussian", "size", 1, 0, 1 << 15, &n, &e)) return 0;
    return 4 * (2 * n * n + n);
}

static void create_matrix(float *m, int64_t size)
{
    float lamda = -0.01f;
    float *coe = gms_xmalloc(sizeof(float) * (size_t)(2 * size - 1));
    for (int64_t i = 0; i < size; i++) {
        float c = 10 * expf(lamda * (float)i);
        coe[size - 1 + i] = c;
        coe[size - 1 - i] = c;
    }
    for (int64_t i = 0; i < size; i++)
        for (int64_t j = 0; j < size; j++) m[i * size + j] = coe[size - 1 - i + j];
    free(coe);
}

static int create(const gms_wl_args *a, void **out, gms_error *err)
{
    uint64_t n, rep;
    if (wl_clamp_scaled(a, "gaussian", "size", 1, 0, 1 << 15, &n, err) || wl_param(a, "repeat", 1, 1000000, &rep, err))
        return -1;
    if (n < 2) return gms_err(err, "workload gaussian: size must be at least 2");
    ga *s = gms_xcalloc(1, sizeof *s);
    s->n = n;
    s->repeat = rep;
    wl_buf_new(&s->m, 4 * n * n);
    wl_buf_new(&s->a, 4 * n * n);
    wl_buf_new(&s->b, 4 * n);
    s->a0 = gms_xmalloc(4 * n * n);
    s->b0 = gms_xmalloc(4 * n);
    create_matrix(s->a0, (int64_t)n);
    for (uint64_t i = 0; i < n; i++) s->b0[i] = 1.0f;
    *out = s;
    return 0;
}

/* Fan1: m[Size*(g+t+1)+t] = a[Size*(g+t+1)+t] / a[Size*t+t] for g < Size-1-t */
static int k_fan1(const wl_kernel *k, uint64_t blk, gms_block_trace *out, gms_error *err)
{
    ga *s = k->st;
    wl_warp W[WL_MAXW];
    uint32_t nw = wl_block_begin(out, MAXBLOCK, W);
    wl_warps_sh(W, nw, k);
    int64_t n = (int64_t)s->n, t = k->arg[0];
    float *m = WL_F(s->m), *a = WL_F(s->a);
    uint64_t am[32], aa[32], ap[32], ix[32];
    for (uint32_t w = 0; w < nw; w++) {
        wl_warp *x = &W[w];
        uint8_t ri, c;
        uint32_t act = wl_guard_1d(x, blk * MAXBLOCK, (uint64_t)(n - 1 - t), &ri, &c);   /* t < n - 1 */
        WL_TLANES(x, act, l, th) {
            int64_t g = (int64_t)(blk * MAXBLOCK + th);
            uint64_t idx = (uint64_t)(n * (g + t + 1) + t);
            ix[l] = idx;
            am[l] = s->m.d + 4 * idx;
            aa[l] = s->a.d + 4 * idx;
            ap[l] = s->a.d + 4 * (uint64_t)(n * t + t);
            m[idx] = a[idx] / a[n * t + t];
        }
        if (act) {
            uint8_t r = wl_int_at(x, 0x28, act, ri, GMS_REG_NONE);
            uint8_t v1 = wl_ldg_at(x, 0x30, act, 4, aa, r);
            WL_SH_LD(x, act, float, a[ix[l]]);
            uint8_t v2 = wl_ldg_at(x, 0x38, act, 4, ap, r);
            WL_SH_LD(x, act, float, a[n * t + t]);
            uint8_t q = wl_sfu_at(x, 0x40, act, v2);
            q = wl_fp_at(x, 0x48, act, v1, q, GMS_REG_NONE);
            wl_stg_at(x, 0x50, act, 4, am, r, q);
            WL_SH_ST(x, act, float, m[ix[l]]);
        }
        wl_exit_at(x, WL_PC_END, x->live);
    }
    (void)err;
    return 0;
}

/* Fan2: a[Size*(x+1+t)+(y+t)] -= m[Size*(x+1+t)+t] * a[Size*t+(y+t)]; y == 0 also updates b */
static int k_fan2(const wl_kernel *k, uint64_t blk, gms_block_trace *out, gms_error *err)
{
    ga *s = k->st;
    wl_warp W[WL_MAXW];
    wl_warps_sh(W, wl_block_begin(out, BXY * BXY, W), k);
    int64_t n = (int64_t)s->n, t = k->arg[0];
    uint64_t bx = blk % k->grid.x, by = blk / k->grid.x;
    float *m = WL_F(s->m), *a = WL_F(s->a), *b = WL_F(s->b);
    uint64_t aa[32], am[32], ap[32], ab[32], abt[32];
    /* what each lane loads (before its update) and stores, for the shadow memory */
    float vm_[32], vp_[32], va_[32], na_[32], vbt_[32], vb_[32], nb_[32];
    wl_warp *x = &W[0];
    uint8_t ri = wl_prologue_idx(x, x->live);
    uint32_t act = 0, mb = 0;
    WL_TLANES(x, x->live, l, th) {
        int64_t xi = (int64_t)(bx * BXY + th % BXY), yi = (int64_t)(by * BXY + th / BXY);
        if (xi >= n - 1 - t || yi >= n - t) continue;
        act |= 1u << l;
        uint64_t ia = (uint64_t)(n * (xi + 1 + t) + (yi + t)), im = (uint64_t)(n * (xi + 1 + t) + t);
        uint64_t ip = (uint64_t)(n * t + (yi + t));
        aa[l] = s->a.d + 4 * ia;
        am[l] = s->m.d + 4 * im;
        ap[l] = s->a.d + 4 * ip;
        vm_[l] = m[im];
        vp_[l] = a[ip];
        va_[l] = a[ia];
        a[ia] -= m[im] * a[ip];
        na_[l] = a[ia];
        if (yi == 0) {
            mb |= 1u << l;
            ab[l] = s->b.d + 4 * (uint64_t)(xi + 1 + t);
            abt[l] = s->b.d + 4 * (uint64_t)t;
            vbt_[l] = b[t];
            vb_[l] = b[xi + 1 + t];
            b[xi + 1 + t] -= m[im] * b[t];
            nb_[l] = b[xi + 1 + t];
        }
    }
    uint8_t c = wl_int_at(x, 0x18, x->live, ri, GMS_REG_NONE);
    wl_bra_at(x, 0x20, x->live, c);
    if (act) {
        uint8_t r = wl_int_at(x, 0x28, act, ri, GMS_REG_NONE);
        uint8_t vm = wl_ldg_at(x, 0x30, act, 4, am, r);
        WL_SH_LD(x, act, float, vm_[l]);
        uint8_t vp = wl_ldg_at(x, 0x38, act, 4, ap, r);
        WL_SH_LD(x, act, float, vp_[l]);
        uint8_t va = wl_ldg_at(x, 0x40, act, 4, aa, r);
        WL_SH_LD(x, act, float, va_[l]);
        uint8_t f = wl_fp_at(x, 0x48, act, vm, vp, va);
        wl_stg_at(x, 0x50, act, 4, aa, r, f);
        WL_SH_ST(x, act, float, na_[l]);
        uint8_t c2 = wl_int_at(x, 0x58, act, r, GMS_REG_NONE);
        wl_bra_at(x, 0x60, act, c2);
        if (mb) {
            uint8_t v1 = wl_ldg_at(x, 0x68, mb, 4, am, r);
            WL_SH_LD(x, mb, float, vm_[l]);
            uint8_t v2 = wl_ldg_at(x, 0x70, mb, 4, abt, r);
            WL_SH_LD(x, mb, float, vbt_[l]);
            uint8_t v3 = wl_ldg_at(x, 0x78, mb, 4, ab, r);
            WL_SH_LD(x, mb, float, vb_[l]);
            uint8_t g = wl_fp_at(x, 0x80, mb, v1, v2, v3);
            wl_stg_at(x, 0x88, mb, 4, ab, r, g);
            WL_SH_ST(x, mb, float, nb_[l]);
        }
    }
    wl_exit_at(x, WL_PC_END, x->live);
    (void)err;
    return 0;
}

/* One repetition per call: its reset of m, a and b (host copies + H2D) must happen only when
 * the previous repetition's kernels have run, which is when next() is called again. */
static int next(void *st, gms_program *p, gms_error *err)
{
    ga *s = st;
    if (s->rep == s->repeat) return 0;
    uint64_t n = s->n;
    if (s->rep == 0) {
        wl_buf_alloc(p, &s->m, "m_cuda", 0);
        wl_buf_alloc(p, &s->a, "a_cuda", 0);
        wl_buf_alloc(p, &s->b, "b_cuda", 0);
    }
    uint32_t g1 = (uint32_t)(n / MAXBLOCK + (n % MAXBLOCK ? 1 : 0));
    uint32_t g2 = (uint32_t)(n / BXY + (n % BXY ? 1 : 0));
    wl_kernel k1 = {.st = s, .fill = k_fan1, .grid = {g1, 1, 1}, .block = {MAXBLOCK, 1, 1}};
    wl_kernel k2 = {.st = s, .fill = k_fan2, .grid = {g2, g2, 1}, .block = {BXY, BXY, 1}};
    memcpy(s->a.h, s->a0, 4 * n * n);
    memcpy(s->b.h, s->b0, 4 * n);
    memset(s->m.h, 0, 4 * n * n);
    s->sh = p->shadow;
    wl_buf_upload(p, &s->m);
    wl_buf_upload(p, &s->a);
    wl_buf_upload(p, &s->b);
    for (uint64_t t = 0; t < n - 1; t++) {
        k1.arg[0] = k2.arg[0] = (int64_t)t;
        k2.arg[1] = (int64_t)(n - t);
        wl_launch_k(p, "Fan1", &k1, 16, 0);
        gms_prog_sync(p);
        wl_launch_k(p, "Fan2", &k2, 16, 0);
        gms_prog_sync(p);
    }
    gms_prog_copy_d2h(p, s->m.d, s->m.bytes);
    gms_prog_copy_d2h(p, s->a.d, s->a.bytes);
    gms_prog_copy_d2h(p, s->b.d, s->b.bytes);
    s->rep++;
    (void)err;
    return 1;
}

static int verify(void *st, gms_error *err)
{
    ga *s = st;
    int64_t n = (int64_t)s->n;
    float *a = gms_xmalloc(4 * s->n * s->n), *b = gms_xmalloc(4 * s->n), *m = gms_xcalloc(s->n * s->n, 4);
    memcpy(a, s->a0, 4 * s->n * s->n);
    memcpy(b, s->b0, 4 * s->n);
    for (int64_t t = 0; t < n - 1; t++) {
        for (int64_t i = t + 1; i < n; i++) m[i * n + t] = a[i * n + t] / a[t * n + t];
        for (int64_t i = t + 1; i < n; i++) {
            for (int64_t j = t; j < n; j++) a[i * n + j] -= m[i * n + t] * a[t * n + j];
            b[i] -= m[i * n + t] * b[t];
        }
    }
    void *oa, *ob, *om;   /* the results as the kernels left them at their device addresses */
    const float *ga_ = wl_result(s->sh, s->a.d, s->a.h, s->n * s->n, 4, &oa);
    const float *gb_ = wl_result(s->sh, s->b.d, s->b.h, s->n, 4, &ob);
    const float *gm_ = wl_result(s->sh, s->m.d, s->m.h, s->n * s->n, 4, &om);
    int rc = wl_check_f32_tol("gaussian", "a", ga_, a, s->n * s->n, 1e-4, err);
    if (!rc) rc = wl_check_f32_tol("gaussian", "b", gb_, b, s->n, 1e-4, err);
    if (!rc) rc = wl_check_f32_tol("gaussian", "m", gm_, m, s->n * s->n, 1e-4, err);
    free(a);
    free(b);
    free(m);
    free(oa);
    free(ob);
    free(om);
    return rc ? -1 : 0;
}

static void destroy(void *st)
{
    ga *s = st;
    if (!s) return;
    wl_buf_free(&s->m);
    wl_buf_free(&s->a);
    wl_buf_free(&s->b);
    free(s->a0);
    free(s->b0);
    free(s);
}

const gms_workload_ops gms_wl_gaussian = {
    .name = "gaussian", .suite = "rodinia", .domain = "linear algebra", .ri = "I",
    .summary = "Gaussian elimination: Fan1 (512 threads) and Fan2 (4x4 threads) per pivot step",
    .params = params, .create = create, .next = next, .verify = verify, .destroy = destroy,
    .footprint = footprint,
};
