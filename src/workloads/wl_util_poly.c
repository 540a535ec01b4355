#include "workloads/wl_util_poly.h"
#include "workloads/wl_clamp.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int pb_sizes(const pb_def *def, const gms_wl_args *a, uint64_t *dim, uint64_t *n, int *narr,
                    gms_error *err)
{
    for (int d = 0; d < PB_MAX_DIMS && def->dims[d]; d++) {
        uint64_t v = def->dim_scaled[d] ? wl_scaled(a, def->dims[d]) : gms_wl_u64(a, def->dims[d]);
        uint64_t mx = def->dim_max[d] ? def->dim_max[d] : (1ULL << 20);
        if (wl_need_size(def->name, a, def->dims[d], v, mx, err)) return -1;
        dim[d] = v;
    }
    int k = 0;
    for (; k < PB_MAX_ARRS && def->arrs[k].name; k++) {
        uint64_t bytes;
        n[k] = def->elems(dim, k);
        char what[96];
        snprintf(what, sizeof what, "array %s", def->arrs[k].name);
        if (wl_bytes(def->name, what, n[k], 1, 1, 4, WL_MAX_ARRAY_BYTES, &bytes, err)) return -1;
    }
    *narr = k;
    return 0;
}

/* a copy of `a` with the sizes that `scale` took below def->dim_min clamped (wl_clamp_args),
 * or NULL when the workload declares no minimum */
static gms_wl_args *pb_clamped(const pb_def *def, const gms_wl_args *a)
{
    const char *names[PB_MAX_DIMS + 1] = { NULL };
    uint64_t mins[PB_MAX_DIMS] = { 0 };
    int n = 0;
    for (int d = 0; d < PB_MAX_DIMS && def->dims[d]; d++)
        if (def->dim_min[d]) { names[n] = def->dims[d]; mins[n++] = def->dim_min[d]; }
    return n ? wl_clamp_args(a, names, mins) : NULL;
}

static int pb_create_args(const pb_def *def, const gms_wl_args *a, void **state, gms_error *err);

int pb_create(const pb_def *def, const gms_wl_args *a, void **state, gms_error *err)
{
    gms_wl_args *c = pb_clamped(def, a);
    int rc = pb_create_args(def, c ? c : a, state, err);
    if (c) gms_wl_args_free(c);
    return rc;
}

static int pb_create_args(const pb_def *def, const gms_wl_args *a, void **state, gms_error *err)
{
    pb_state tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.def = def;
    if (pb_sizes(def, a, tmp.dim, tmp.n, &tmp.narr, err)) return -1;
    if (gms_wl_check_range(a, "repeat", 1, 1000000, err)) return -1;
    tmp.repeat = gms_wl_u64(a, "repeat");
    tmp.seed = gms_wl_seed(a);
    if (def->check && def->check(&tmp, err)) return -1;
    pb_state *s = gms_xcalloc(1, sizeof *s);
    *s = tmp;
    for (int k = 0; k < s->narr; k++) s->h[k] = wl_calloc(s->n[k], sizeof(float));
    def->init(s, s->h);
    *state = s;
    return 0;
}

int pb_next(void *state, gms_program *p, gms_error *err)
{
    pb_state *s = state;
    if (!wl_once(&s->done)) return 0;
    const pb_def *def = s->def;
    for (int k = 0; k < s->narr; k++) s->d[k] = gms_prog_alloc(p, s->n[k] * 4, def->arrs[k].name);
    /* device memory starts as the host model's arrays (inputs copied, the others as the
     * model has them: the kernels may read them) */
    s->sh = p->shadow;
    for (int k = 0; k < s->narr; k++) wl_sh_init(p, s->d[k], s->h[k], s->n[k] * 4);
    for (int k = 0; k < s->narr; k++)
        if (def->arrs[k].copy_in) gms_prog_copy_h2d(p, s->d[k], s->n[k] * 4);
    for (uint64_t r = 0; r < s->repeat; r++) def->launch(s, p);
    if (def->post) def->post(s, p);
    for (int k = 0; k < s->narr; k++)
        if (def->arrs[k].copy_out) gms_prog_copy_d2h(p, s->d[k], s->n[k] * 4);
    gms_prog_sync(p);
    return 1;
}

int pb_verify(void *state, gms_error *err)
{
    pb_state *s = state;
    const pb_def *def = s->def;
    float *ref[PB_MAX_ARRS] = { 0 };
    for (int k = 0; k < s->narr; k++) ref[k] = wl_calloc(s->n[k], sizeof(float));
    def->init(s, ref);
    for (uint64_t r = 0; r < s->repeat; r++) def->cpu(s, ref);
    int rc = 0;
    for (int k = 0; k < s->narr && !rc; k++)
        if (def->arrs[k].check) {
            void *own;
            const float *got = wl_result(s->sh, s->d[k], s->h[k], s->n[k], sizeof(float), &own);
            rc = wl_check_f32(def->name, def->arrs[k].name, got, ref[k], s->n[k], def->rtol, def->atol, err);
            free(own);
        }
    for (int k = 0; k < s->narr; k++) free(ref[k]);
    return rc;
}

void pb_destroy(void *state)
{
    pb_state *s = state;
    if (!s) return;
    for (int k = 0; k < s->narr; k++) free(s->h[k]);
    free(s);
}

uint64_t pb_footprint(const pb_def *def, const gms_wl_args *a)
{
    uint64_t dim[PB_MAX_DIMS] = { 0 }, n[PB_MAX_ARRS] = { 0 }, total = 0;
    int narr = 0;
    gms_error e;
    gms_wl_args *c = pb_clamped(def, a);
    int rc = pb_sizes(def, c ? c : a, dim, n, &narr, &e);
    if (c) gms_wl_args_free(c);
    if (rc) return 0;
    for (int k = 0; k < narr; k++) total += n[k] * 4;
    return total;
}

int pb_need_grid(const pb_state *s, const char *kernel, uint64_t gx, uint64_t gy, gms_error *err)
{
    if (gx == 0 || gy == 0 || gx > 0x7fffffffULL || gy > 65535)
        return gms_err(err, "workload %s: these sizes give kernel %s a grid of %llu x %llu blocks (the source's "
                            "grid formula), which cannot be launched", s->def->name, kernel,
                       (unsigned long long)gx, (unsigned long long)gy);
    return 0;
}

void pb_init_ratio(float *a, uint64_t rows, uint64_t cols, uint64_t add, uint64_t div)
{
    for (uint64_t i = 0; i < rows; i++)
        for (uint64_t j = 0; j < cols; j++) a[i * cols + j] = ((float)i * (float)(j + add)) / (float)div;
}

/* ---------------------------------------------------------------- emission */
uint32_t wl_guard(wl_warp *w, int ndims, int npred, uint32_t in, uint8_t r[2])
{
    uint32_t live = w->live;
    in &= live;
    wl_int(w, live, GMS_REG_NONE, GMS_REG_NONE);                         /* MOV R1 */
    for (int d = 0; d < ndims && d < 2; d++) {
        uint8_t c = wl_int(w, live, GMS_REG_NONE, GMS_REG_NONE);         /* S2R ctaid */
        uint8_t t = wl_int(w, live, GMS_REG_NONE, GMS_REG_NONE);         /* S2R tid */
        r[d] = wl_int(w, live, c, t);                                    /* IMAD */
    }
    for (int p = 0; p < npred; p++) wl_pred(w, live, r[p % (ndims > 0 ? ndims : 1)], GMS_REG_NONE);
    wl_exit(w, live & ~in);                                              /* @P0 EXIT */
    return in;
}

uint32_t wl_guard_span(wl_warp *w, int64_t first, int64_t lo, int64_t hi, int npred, int64_t idx[32], uint8_t r[2])
{
    uint32_t in = 0;
    WL_LANES(w->live, l) {
        idx[l] = wl_gx(w, l) + first;
        if (idx[l] >= lo && idx[l] < hi) in |= 1u << l;
    }
    return wl_guard(w, 1, npred, in, r);
}

void wl_loop_begin(wl_loop *L, wl_warp *w, uint32_t mask, uint64_t n, int unroll, int nptr, uint8_t base)
{
    memset(L, 0, sizeof *L);
    L->n = n;
    L->unroll = unroll < 1 ? 1 : unroll;
    L->nptr = nptr > 4 ? 4 : nptr;
    uint8_t four = wl_int(w, mask, GMS_REG_NONE, GMS_REG_NONE);          /* MOV R, 0x4 */
    for (int p = 0; p < L->nptr && p < 4; p++) L->ptr[p] = wl_int(w, mask, base, four);  /* IMAD.WIDE */
    L->ctr = wl_int(w, mask, GMS_REG_NONE, GMS_REG_NONE);                /* MOV counter */
    L->top = w->pc;
}

void wl_loop_end(wl_loop *L, wl_warp *w, uint32_t mask, uint32_t more)
{
    L->t++;
    if (L->t % (uint64_t)L->unroll != 0 && L->t < L->n && more) return;
    L->ctr = wl_int(w, mask, L->ctr, GMS_REG_NONE);                      /* IADD3 counter */
    for (int p = 0; p < L->nptr && p < 4; p++) {   /* (nptr <= 4; said again for gcc's -O2 -fprofile-use) */
        L->ptr[p] = wl_int(w, mask, L->ptr[p], GMS_REG_NONE);            /* IADD3 */
        wl_int(w, mask, L->ptr[p], GMS_REG_NONE);                        /* IADD3.X */
    }
    wl_pred(w, mask, L->ctr, GMS_REG_NONE);                              /* ISETP */
    wl_bra(w, more);                                                     /* BRA */
}

uint8_t wl_fdiv(wl_warp *w, uint32_t mask, uint8_t num, uint8_t den)
{
    uint8_t r = wl_sfu(w, mask, den);                  /* MUFU.RCP */
    uint8_t t = wl_fp(w, mask, num, r, GMS_REG_NONE);  /* FFMA q0 = num*r */
    uint8_t e = wl_fp(w, mask, t, den, num);           /* FFMA e = num - q0*den */
    return wl_fp(w, mask, e, r, t);                    /* FFMA q = q0 + e*r */
}

uint8_t wl_fsqrt(wl_warp *w, uint32_t mask, uint8_t x)
{
    uint8_t r = wl_sfu(w, mask, x);                    /* MUFU.RSQ */
    uint8_t s = wl_fp(w, mask, x, r, GMS_REG_NONE);    /* FMUL */
    return wl_fp(w, mask, s, r, x);                    /* FFMA correction */
}

/* ---------------------------------------------------------------- shared kernels */
static float bits_f(uint32_t u)
{
    union { uint32_t u; float f; } x = { u };
    return x.f;
}

size_t pb_mm_wsize(void) { return sizeof(pb_mm_warp); }

uint32_t pb_mm_begin(pb_mm_warp *g, const pb_state *s, int ci, uint64_t ni, uint64_t nj, int scaled, float beta,
                     uint8_t r[2])
{
    wl_warp *w = &g->ws.w;
    const float *C = s->h[ci];
    uint32_t in = 0;
    WL_LANES(w->live, l) {
        g->j[l] = wl_gx(w, l);
        g->i[l] = wl_gy(w, l);
        if ((uint64_t)g->i[l] < ni && (uint64_t)g->j[l] < nj) in |= 1u << l;
    }
    g->m = wl_guard(w, 2, 2, in, r);
    if (!g->m) return 0;
    uint32_t m = g->m;
    WL_FADDR(g->ca, m, s->d[ci], g->i[l] * (int64_t)nj + g->j[l]);
    uint8_t ic = wl_int(w, m, r[1], r[0]);                  /* IMAD i*nj+j */
    uint8_t four = wl_int(w, m, GMS_REG_NONE, GMS_REG_NONE);
    g->pc = wl_int(w, m, ic, four);                         /* IMAD.WIDE &C[..] */
    g->rc = wl_ldg(w, m, g->ca, g->pc);
    WL_LANES(m, l) g->c[l] = C[g->i[l] * (int64_t)nj + g->j[l]];
    WL_SH_LD(w, m, float, g->c[l]);
    if (scaled) {
        g->rc = wl_fp(w, m, g->rc, GMS_REG_NONE, GMS_REG_NONE);  /* FMUL *beta */
        wl_stg(w, m, g->ca, g->pc, g->rc);
        WL_LANES(m, l) g->c[l] *= beta;
        WL_SH_ST(w, m, float, g->c[l]);
    }
    return m;
}

void pb_mm_end(pb_mm_warp *g, float *C, uint64_t nj)
{
    WL_LANES(g->m, l) C[g->i[l] * (int64_t)nj + g->j[l]] = g->c[l];
    wl_exit(&g->ws.w, g->m);
}

int pb_step_mm(const wl_kernel *k, wl_wgen *ws, gms_error *err)
{
    pb_mm_warp *g = (pb_mm_warp *)ws;
    wl_warp *w = &ws->w;
    pb_state *s = k->st;
    int ai = (int)k->arg[0], bi = (int)k->arg[1], ci = (int)k->arg[2];
    uint64_t ni = (uint64_t)k->arg[3], nj = (uint64_t)k->arg[4], nk = (uint64_t)k->arg[5];
    int scaled = (int)(k->arg[6] & PB_MM_SCALED), bt = (int)(k->arg[6] & PB_MM_BT);
    float alpha = bits_f((uint32_t)k->arg[7]), beta = bits_f((uint32_t)((uint64_t)k->arg[7] >> 32));
    float *A = s->h[ai], *B = s->h[bi];
    /* element k of B's column j: B[k*nj+j], or B[j*nk+k] when B is read transposed */
    int64_t bs_k = bt ? 1 : (int64_t)nj, bs_j = bt ? (int64_t)nk : 1;
    WL_GEN_BEGIN(&ws->g)
    uint8_t r[2];
    if (!pb_mm_begin(g, s, ci, ni, nj, scaled, beta, r)) return 0;
    wl_loop_begin(&g->L, w, g->m, nk, 4, 2, r[1]);
    for (g->kk = 0; g->kk < nk; g->kk++) {
        uint32_t mk = g->m;
        uint64_t kk = g->kk, aa[32], ba[32];
        wl_loop_top(&g->L, w);
        WL_FADDR(aa, mk, s->d[ai], g->i[l] * (int64_t)nk + (int64_t)kk);
        WL_FADDR(ba, mk, s->d[bi], (int64_t)kk * bs_k + g->j[l] * bs_j);
        uint8_t va = wl_ldg(w, mk, aa, g->L.ptr[0]);
        WL_SH_LD(w, mk, float, A[g->i[l] * (int64_t)nk + (int64_t)kk]);
        uint8_t vb = wl_ldg(w, mk, ba, g->L.ptr[1]);
        WL_SH_LD(w, mk, float, B[(int64_t)kk * bs_k + g->j[l] * bs_j]);
        if (scaled) va = wl_fp(w, mk, va, GMS_REG_NONE, GMS_REG_NONE);   /* FMUL alpha*a */
        g->rc = wl_fp(w, mk, va, vb, g->rc);                               /* FFMA */
        wl_stg(w, mk, g->ca, g->pc, g->rc);
        WL_LANES(mk, l) {
            float a = A[g->i[l] * (int64_t)nk + (int64_t)kk];
            if (scaled) a = alpha * a;
            g->c[l] = fmaf(a, B[(int64_t)kk * bs_k + g->j[l] * bs_j], g->c[l]);
        }
        WL_SH_ST(w, mk, float, g->c[l]);
        wl_loop_end(&g->L, w, mk, kk + 1 < nk ? mk : 0);
        WL_GEN_YIELD(&ws->g);
    }
    pb_mm_end(g, s->h[ci], nj);
    WL_GEN_END(&ws->g);
}

void pb_cpu_mm(const float *A, const float *B, float *C, uint64_t ni, uint64_t nj, uint64_t nk, int flags,
               float alpha, float beta)
{
    int scaled = flags & PB_MM_SCALED;
    uint64_t bs_k = flags & PB_MM_BT ? 1 : nj, bs_j = flags & PB_MM_BT ? nk : 1;
    for (uint64_t i = 0; i < ni; i++)
        for (uint64_t j = 0; j < nj; j++) {
            float c = C[i * nj + j];
            if (scaled) c *= beta;
            for (uint64_t k = 0; k < nk; k++)
                c += (scaled ? alpha * A[i * nk + k] : A[i * nk + k]) * B[k * bs_k + j * bs_j];
            C[i * nj + j] = c;
        }
}

typedef struct dot_warp {
    wl_wgen ws;
    int64_t t[32];
    uint32_t m;
    uint8_t po, ro;
    uint64_t oa[32], kk;
    float acc[32];
    wl_loop L;
} dot_warp;

size_t pb_dot_wsize(void) { return sizeof(dot_warp); }

int pb_step_dot(const wl_kernel *k, wl_wgen *ws, gms_error *err)
{
    dot_warp *g = (dot_warp *)ws;
    wl_warp *w = &ws->w;
    pb_state *s = k->st;
    int xi = (int)k->arg[0], yi = (int)k->arg[1], oi = (int)k->arg[2];
    uint64_t nt = (uint64_t)k->arg[3], n = (uint64_t)k->arg[4];
    int64_t xs_t = k->arg[5], xs_k = k->arg[6];
    int zero = (int)k->arg[7];
    const float *X = s->h[xi], *Y = s->h[yi];
    float *O = s->h[oi];
    WL_GEN_BEGIN(&ws->g)
    uint8_t r[2];
    g->m = wl_guard_span(w, 0, 0, (int64_t)nt, 1, g->t, r);
    if (!g->m) return 0;
    uint32_t m = g->m;
    WL_FADDR(g->oa, m, s->d[oi], g->t[l]);
    uint8_t four = wl_int(w, m, GMS_REG_NONE, GMS_REG_NONE);
    g->po = wl_int(w, m, r[0], four);                  /* IMAD.WIDE &out[t] */
    if (zero) {
        g->ro = wl_int(w, m, GMS_REG_NONE, GMS_REG_NONE);     /* MOV RZ */
        wl_stg(w, m, g->oa, g->po, g->ro);
        WL_LANES(m, l) g->acc[l] = 0.0f;
        WL_SH_ST(w, m, float, 0.0f);
    } else {
        g->ro = wl_ldg(w, m, g->oa, g->po);
        WL_LANES(m, l) g->acc[l] = O[g->t[l]];
        WL_SH_LD(w, m, float, g->acc[l]);
    }
    wl_loop_begin(&g->L, w, m, n, 4, 2, r[0]);
    for (g->kk = 0; g->kk < n; g->kk++) {
        uint32_t mk = g->m;
        uint64_t kk = g->kk, xa[32], ya[32];
        wl_loop_top(&g->L, w);
        WL_FADDR(xa, mk, s->d[xi], g->t[l] * xs_t + (int64_t)kk * xs_k);
        WL_FADDR(ya, mk, s->d[yi], (int64_t)kk);
        uint8_t vx = wl_ldg(w, mk, xa, g->L.ptr[0]);
        WL_SH_LD(w, mk, float, X[g->t[l] * xs_t + (int64_t)kk * xs_k]);
        uint8_t vy = wl_ldg(w, mk, ya, g->L.ptr[1]);
        WL_SH_LD(w, mk, float, Y[kk]);
        g->ro = wl_fp(w, mk, vx, vy, g->ro);                       /* FFMA */
        wl_stg(w, mk, g->oa, g->po, g->ro);
        WL_LANES(mk, l) g->acc[l] = fmaf(X[g->t[l] * xs_t + (int64_t)kk * xs_k], Y[kk], g->acc[l]);
        WL_SH_ST(w, mk, float, g->acc[l]);
        wl_loop_end(&g->L, w, mk, kk + 1 < n ? mk : 0);
        WL_GEN_YIELD(&ws->g);
    }
    WL_LANES(g->m, l) O[g->t[l]] = g->acc[l];
    wl_exit(w, g->m);
    WL_GEN_END(&ws->g);
}

void pb_cpu_dot(const float *X, const float *Y, float *out, uint64_t nt, uint64_t n, uint64_t xs_t, uint64_t xs_k,
                int zero_first)
{
    for (uint64_t t = 0; t < nt; t++) {
        float acc = zero_first ? 0.0f : out[t];
        for (uint64_t k = 0; k < n; k++) acc += X[t * xs_t + k * xs_k] * Y[k];
        out[t] = acc;
    }
}
