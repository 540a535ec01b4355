/* CFD (Rodinia 3.1 cfd, euler3d.cu, single precision): a finite-volume solver of the 3D Euler
 * equations on an unstructured mesh of `elements` tetrahedra, padded to nelr (a multiple of
 * 192). Kernels, 192 threads per block, nelr/192 blocks, one thread per element:
 *   cuda_initialize_variables  x3 (variables, old_variables, fluxes = the far-field state)
 *   per iteration: old_variables = variables (cudaMemcpy device to device), then
 *   cuda_compute_step_factor, and RK = 3 times cuda_compute_flux + cuda_time_step
 * Arrays are structure-of-arrays: variable v of element i at [i + v*nelr]. compute_flux reads
 * its own 5 variables, then per face j (4) the neighbour index, the face normal (3 floats) and
 * the neighbour's 5 variables: a gather whose locality is the mesh numbering's.
 *
 * Input: fvcorr.domn.097K (97046 elements) is replaced by a generated mesh with the same
 * element count and four faces per element: neighbours i+1, i-1, i+L, i-L with L = n^(2/3)
 * (a layer-by-layer numbering), matching normals on both sides of each face, faces leaving the
 * mesh far-field boundaries (-2), 2% of the face pairs walls (-1, the wing; on faces nearly
 * parallel to the flow, so that it stays finite over the 2000 iterations: see create); volumes ("areas")
 * uniform in [0.75, 1.25). The padding elements copy the last element's neighbours; their
 * normals are 0 (the suite's padding loop assigns the last element's normals to themselves and
 * leaves the padding's uninitialised).
 *
 * `scale` multiplies the iterations too (scale=0.01: 970 elements, 20 iterations), so a small
 * run stays small.
 *
 * Differences: the device-to-device cudaMemcpy is a copy kernel (8 bytes per thread, 256
 * threads per block) since the program model has no copy engine; the cudaMemset of
 * step_factors (overwritten before any read) is left out. */
#include "workloads/wl_util.h"
#include "workloads/wl_kernel_1d.h"
#include "workloads/wl_clamp.h"
#include <math.h>
#ifdef __SSE2__
#include <xmmintrin.h>
#endif
#include <stdlib.h>
#include <string.h>

#define BS 192
#define NNB 4
#define NDIM 3
#define NVAR 5
#define RK 3
#define GAMMA 1.4f
#define VD 0
#define VM 1
#define VE 4

typedef struct cfd {
    uint64_t nel, nelr, iters, repeat;
    uint64_t it, rep;          /* iterations and repetitions pushed so far */
    float *areas, *normals, *var, *old, *flux, *sf;
    int32_t *nb;
    float ff[NVAR], ffx[3], ffy[3], ffz[3], ffe[3];   /* far field and its flux contributions */
    uint64_t d_areas, d_nb, d_normals, d_var, d_old, d_flux, d_sf;
    wl_shadow *sh;
    struct cfd_st *st;         /* every element's state of `var` (compute_flux's lanes read it) */
    uint64_t var_ver, st_ver;  /* writes of var by the model so far; the count st was computed at */
} cfd;

/* what compute_flux uses of an element's state: state() and flux_contribution() of its
 * variables, computed once per element and flux pass instead of once per element and again
 * for each of its (up to 4) neighbours; the same expressions, so the same values */
typedef struct cfd_st {
    float d, m[3], de, speed, p, c;
    float fx[3], fy[3], fz[3], fe[3];
} cfd_st;

static const gms_wl_param params[] = {
    {"elements", "97046", "mesh elements (fvcorr.domn.097K)"},
    {"iterations", "2000", "solver iterations (each: step factor, then 3 Runge-Kutta flux + time steps)"},
    {"scale", "1", "multiplies elements and iterations (at least 1 iteration)"},
    {"repeat", "1", "run all iterations N times from the far-field state"},
    {NULL, NULL, NULL},
};

static int sizes(const gms_wl_args *a, uint64_t *nel, gms_error *err)
{
    return wl_clamp_size(a, "cfd", "elements", 1, 1ULL << 28, nel, err);
}

static uint64_t padded(uint64_t nel) { return (nel + BS - 1) / BS * BS; }

static uint64_t footprint(const gms_wl_args *a)
{
    gms_error e;
    uint64_t nel;
    if (sizes(a, &nel, &e)) return 0;
    uint64_t r = padded(nel);
    /* areas, neighbours, normals, variables, old_variables, fluxes, step_factors */
    return 4 * r * (1 + NNB + NDIM * NNB + 3 * NVAR + 1);
}

static void flux_contribution(float d, const float m[3], float de, float p, const float v[3], float fx[3],
                              float fy[3], float fz[3], float fe[3])
{
    (void)d;
    fx[0] = v[0] * m[0] + p;
    fx[1] = v[0] * m[1];
    fx[2] = v[0] * m[2];
    fy[0] = fx[1];
    fy[1] = v[1] * m[1] + p;
    fy[2] = v[1] * m[2];
    fz[0] = fx[2];
    fz[1] = fy[2];
    fz[2] = v[2] * m[2] + p;
    float de_p = de + p;
    fe[0] = v[0] * de_p;
    fe[1] = v[1] * de_p;
    fe[2] = v[2] * de_p;
}

static float pressure_of(float d, float de, float ssq) { return (GAMMA - 1.0f) * (de - 0.5f * d * ssq); }
static float sos_of(float d, float p) { return sqrtf(GAMMA * p / d); }

static void state(const float *var, uint64_t nelr, uint64_t i, float *d, float m[3], float *de, float v[3],
                  float *ssq, float *p, float *c)
{
    *d = var[i + VD * nelr];
    for (int k = 0; k < 3; k++) m[k] = var[i + (VM + k) * nelr];
    *de = var[i + VE * nelr];
    for (int k = 0; k < 3; k++) v[k] = m[k] / *d;
    *ssq = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    *p = pressure_of(*d, *de, *ssq);
    *c = sos_of(*d, *p);
}

static float step_factor(const cfd *s, const float *var, uint64_t i)
{
    float d, m[3], de, v[3], ssq, p, c;
    state(var, s->nelr, i, &d, m, &de, v, &ssq, &p, &c);
    return 0.5f / (sqrtf(s->areas[i]) * (sqrtf(ssq) + c));
}

#ifdef __SSE2__
/* Host speed: state() and flux_contribution() of 4 elements per operation (SSE: divisions
 * and square roots are IEEE-exact there as in the scalar code, every element the scalar
 * code's operations in its order, no contraction in this ISO C build), so the same bits */
typedef float cf_v4 __attribute__((vector_size(16)));
static inline cf_v4 cf_sqrt(cf_v4 x) { return (cf_v4)_mm_sqrt_ps((__m128)x); }
static inline cf_v4 cf_ld(const float *p) { cf_v4 v; memcpy(&v, p, sizeof v); return v; }

static uint64_t state_all4(const float *var, uint64_t nelr, uint64_t n, cfd_st *st)
{
    uint64_t i = 0;
    for (; i + 4 <= n; i += 4) {
        const cf_v4 d = cf_ld(var + i + VD * nelr), m0 = cf_ld(var + i + VM * nelr),
                    m1 = cf_ld(var + i + (VM + 1) * nelr), m2 = cf_ld(var + i + (VM + 2) * nelr),
                    de = cf_ld(var + i + VE * nelr);
        const cf_v4 v0 = m0 / d, v1 = m1 / d, v2 = m2 / d;
        const cf_v4 ssq = v0 * v0 + v1 * v1 + v2 * v2;
        const cf_v4 p = (GAMMA - 1.0f) * (de - 0.5f * d * ssq);
        const cf_v4 c = cf_sqrt(GAMMA * p / d), speed = cf_sqrt(ssq);
        const cf_v4 fx0 = v0 * m0 + p, fx1 = v0 * m1, fx2 = v0 * m2, fy1 = v1 * m1 + p, fy2 = v1 * m2,
                    fz2 = v2 * m2 + p, dep = de + p, fe0 = v0 * dep, fe1 = v1 * dep, fe2 = v2 * dep;
        for (int k = 0; k < 4; k++) {
            cfd_st *e = &st[i + (uint64_t)k];
            e->d = d[k], e->m[0] = m0[k], e->m[1] = m1[k], e->m[2] = m2[k], e->de = de[k];
            e->speed = speed[k], e->p = p[k], e->c = c[k];
            e->fx[0] = fx0[k], e->fx[1] = fx1[k], e->fx[2] = fx2[k];
            e->fy[0] = fx1[k], e->fy[1] = fy1[k], e->fy[2] = fy2[k];
            e->fz[0] = fx2[k], e->fz[1] = fy2[k], e->fz[2] = fz2[k];
            e->fe[0] = fe0[k], e->fe[1] = fe1[k], e->fe[2] = fe2[k];
        }
    }
    return i;
}
#endif

/* the state of elements [0, n) of var */
static void state_all(const float *var, uint64_t nelr, uint64_t n, cfd_st *st)
{
    uint64_t i0 = 0;
#ifdef __SSE2__
    i0 = state_all4(var, nelr, n, st);
#endif
    for (uint64_t i = i0; i < n; i++) {
        cfd_st *e = &st[i];
        float v[3], ssq;
        state(var, nelr, i, &e->d, e->m, &e->de, v, &ssq, &e->p, &e->c);
        e->speed = sqrtf(ssq);
        flux_contribution(e->d, e->m, e->de, e->p, v, e->fx, e->fy, e->fz, e->fe);
    }
}

/* cuda_compute_flux for element i: out[5] in variable order (st: state_all of the variables) */
static void flux_elem(const cfd *s, const cfd_st *st, uint64_t i, float out[NVAR])
{
    const float smooth = 0.2f;
    uint64_t nelr = s->nelr;
    const cfd_st *E = &st[i];
    const float di = E->d, *mi = E->m, dei = E->de, pi = E->p, ci = E->c, speed_i = E->speed;
    const float *fxi = E->fx, *fyi = E->fy, *fzi = E->fz, *fei = E->fe;
    float fd = 0.0f, fm[3] = {0.0f, 0.0f, 0.0f}, fde = 0.0f;
    for (int j = 0; j < NNB; j++) {
        int32_t nb = s->nb[i + (uint64_t)j * nelr];
        float n[3];
        for (int k = 0; k < 3; k++) n[k] = s->normals[i + (uint64_t)(j + k * NNB) * nelr];
        float nlen = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        if (nb >= 0) {
            const cfd_st *N = &st[nb];
            const float dn = N->d, *mn = N->m, den = N->de, cn = N->c;
            const float *fxn = N->fx, *fyn = N->fy, *fzn = N->fz, *fen = N->fe;
            float factor = -nlen * smooth * 0.5f * (speed_i + N->speed + ci + cn);
            fd += factor * (di - dn);
            fde += factor * (dei - den);
            for (int k = 0; k < 3; k++) fm[k] += factor * (mi[k] - mn[k]);
            for (int k = 0; k < 3; k++) {
                factor = 0.5f * n[k];
                fd += factor * (mn[k] + mi[k]);
                fde += factor * (fen[k] + fei[k]);
                fm[0] += factor * (fxn[k] + fxi[k]);
                fm[1] += factor * (fyn[k] + fyi[k]);
                fm[2] += factor * (fzn[k] + fzi[k]);
            }
        } else if (nb == -1) {
            for (int k = 0; k < 3; k++) fm[k] += n[k] * pi;
        } else if (nb == -2) {
            for (int k = 0; k < 3; k++) {
                float factor = 0.5f * n[k];
                fd += factor * (s->ff[VM + k] + mi[k]);
                fde += factor * (s->ffe[k] + fei[k]);
                fm[0] += factor * (s->ffx[k] + fxi[k]);
                fm[1] += factor * (s->ffy[k] + fyi[k]);
                fm[2] += factor * (s->ffz[k] + fzi[k]);
            }
        }
    }
    out[VD] = fd;
    for (int k = 0; k < 3; k++) out[VM + k] = fm[k];
    out[VE] = fde;
}

static void far_field(cfd *s)
{
    s->ff[VD] = 1.4f;
    float ffp = 1.0f, ffc = sqrtf(GAMMA * ffp / s->ff[VD]), ffs = 1.2f * ffc;
    float v[3] = {ffs * cosf(0.0f), ffs * sinf(0.0f), 0.0f};
    for (int k = 0; k < 3; k++) s->ff[VM + k] = s->ff[VD] * v[k];
    s->ff[VE] = s->ff[VD] * (0.5f * (ffs * ffs)) + (ffp / (GAMMA - 1.0f));
    flux_contribution(s->ff[VD], s->ff + VM, s->ff[VE], ffp, v, s->ffx, s->ffy, s->ffz, s->ffe);
}

static int create(const gms_wl_args *a, void **out, gms_error *err)
{
    uint64_t nel;
    uint64_t iters;
    if (sizes(a, &nel, err) || gms_wl_check_range(a, "iterations", 1, 100000000, err) ||
        gms_wl_check_range(a, "repeat", 1, 1000000, err) ||
        wl_clamp_size(a, "cfd", "iterations", 1, 100000000, &iters, err))
        return -1;
    cfd *s = gms_xcalloc(1, sizeof *s);
    s->nel = nel;
    s->nelr = padded(nel);
    s->iters = iters;
    s->repeat = gms_wl_u64(a, "repeat");
    uint64_t r = s->nelr;
    s->areas = wl_malloc(r, 4);
    s->nb = wl_malloc(r * NNB, 4);
    s->normals = wl_calloc(r * NNB * NDIM, 4);
    s->var = wl_malloc(r * NVAR, 4);
    s->old = wl_malloc(r * NVAR, 4);
    s->flux = wl_malloc(r * NVAR, 4);
    s->sf = wl_calloc(r, 4);
    s->st = wl_malloc(r, sizeof(cfd_st));
    s->var_ver = 1;
    far_field(s);
    gms_rng g;
    gms_rng_seed(&g, gms_wl_seed(a));
    /* faces come in pairs (i, i+1) and (i, i+L): the two sides see each other with opposite
     * normals, so every cell is closed and the uniform far-field flow is a steady state that
     * only the walls disturb (a mesh whose faces did not match would not conserve and blows
     * up within the 2000 iterations) */
    int64_t L = (int64_t)lround(cbrt((double)nel) * cbrt((double)nel));
    if (L < 2) L = 2;
    /* the i+L faces lean 3 degrees into the flow (x component ny tan 3deg): walls there turn
     * a little of it, which keeps the values varied (a uniform field would verify whatever
     * address a load used) without the pile-up described below */
    const float nx = 0.1f, ny = 0.08f, nz = 0.05f, nxl = 0.0042f;
    for (uint64_t i = 0; i < nel; i++) s->areas[i] = 0.75f + 0.5f * wl_randf(&g);
    for (uint64_t i = 0; i < nel; i++) {
        const int64_t d[NNB] = {1, -1, L, -L};
        for (int j = 0; j < NNB; j++) {
            int64_t k2 = (int64_t)i + d[j];
            s->nb[i + (uint64_t)j * r] = k2 < 0 || k2 >= (int64_t)nel ? -2 : (int32_t)k2;
            float sg = j % 2 ? 1.0f : -1.0f;   /* inward normals, as the suite negates the file's */
            float n3[3] = {j < 2 ? nx : nxl, j < 2 ? ny * 0.2f : ny, j < 2 ? 0.0f : nz};
            for (int c = 0; c < 3; c++) s->normals[i + (uint64_t)(j + c * NNB) * r] = sg * n3[c];
        }
    }
    /* walls: 2% of the face pairs (one in 25 of the i+L pairs), both sides. Only faces nearly
     * parallel to the far-field flow (the i+L faces, normal (nxl, ny, nz), the flow along x)
     * become walls, so each blocks a sliver of the flow. Walls across the flow (on the i+1
     * faces, as before 2026-11-28) piled mass up in front of them with no way around in this
     * numbering: at the default 97046 elements the flow went non-finite within 100 iterations.
     * Now the density stays within 1.29-1.51 (far field 1.4) over the 2000 iterations. */
    for (uint64_t i = 0; i < nel; i++) {
        const int j = 2;
        int32_t k2 = s->nb[i + (uint64_t)j * r];
        if (k2 >= 0 && gms_rng_below(&g, 25) == 0) {
            s->nb[i + (uint64_t)j * r] = -1;
            s->nb[(uint64_t)k2 + (uint64_t)(j + 1) * r] = -1;
        }
    }
    for (uint64_t i = nel; i < r; i++) {
        s->areas[i] = s->areas[nel - 1];
        for (int j = 0; j < NNB; j++) s->nb[i + (uint64_t)j * r] = s->nb[nel - 1 + (uint64_t)j * r];
    }
    *out = s;
    return 0;
}

#define VA(base, i, v) ((base) + 4 * ((i) + (uint64_t)(v) * s->nelr))

/* the kernels' prologue: S2R tid, S2R ctaid, IMAD i (no bounds check: nelr is a multiple
 * of the block); gid[l] = i of lane l */
static uint8_t prologue(wl_warp *w, uint64_t gid[32])
{
    uint64_t b0 = (uint64_t)w->bx * w->bdim.x;
    for (int l = 0; l < 32; l++) gid[l] = b0 + w->tx[l];
    uint8_t t = wl_int(w, w->live, GMS_REG_NONE, GMS_REG_NONE);
    uint8_t c = wl_int(w, w->live, GMS_REG_NONE, GMS_REG_NONE);
    return wl_int(w, w->live, t, c);
}

/* cuda_initialize_variables: arg 0 = which array (0 variables, 1 old_variables, 2 fluxes) */
static int k_init(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    cfd *s = k->st;
    float *arr = k->arg[0] == 0 ? s->var : k->arg[0] == 1 ? s->old : s->flux;
    if (arr == s->var) s->var_ver++;
    uint64_t dev = k->arg[0] == 0 ? s->d_var : k->arg[0] == 1 ? s->d_old : s->d_flux;
    for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, k, block, wi);
        uint64_t gid[32], a[32];
        uint32_t m = w.live;
        uint8_t ri = prologue(&w, gid);
        for (int j = 0; j < NVAR; j++) {
            WL_LANES(m, l) { a[l] = VA(dev, gid[l], j); arr[gid[l] + (uint64_t)j * s->nelr] = s->ff[j]; }
            wl_stg(&w, m, a, ri, GMS_REG_NONE);   /* STG of c[0x3][4j] */
            WL_SH_ST(&w, m, float, s->ff[j]);
        }
        wl_exit(&w, m);
    }
    (void)err;
    return 0;
}

/* old_variables = variables: the device-to-device copy, 8 bytes per thread */
static uint64_t pack2(const float *p) { uint64_t v; memcpy(&v, p, 8); return v; }

/* one warp past the guard (wl_fill_1d): LDG 8 bytes, STG them */
static uint32_t copy_body(const wl_kernel *k, wl_warp *w, uint32_t m, uint64_t gid[32], uint8_t ri)
{
    cfd *s = k->st;
    uint8_t v = wl_ld_idx(w, m, GMS_MEM_LD_GLOBAL, 8, s->d_var, gid, 8, ri);
    WL_SH_LD(w, m, uint64_t, pack2(s->var + 2 * gid[l]));
    WL_LANES(m, l) memcpy(s->old + 2 * gid[l], s->var + 2 * gid[l], 8);
    wl_st_idx(w, m, GMS_MEM_ST_GLOBAL, 8, s->d_old, gid, 8, ri, v);
    WL_SH_ST(w, m, uint64_t, pack2(s->old + 2 * gid[l]));
    return m;
}

static int k_copy(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    (void)err;
    return wl_fill_1d(k, block, bt, ((const cfd *)k->st)->nelr * NVAR / 2, copy_body);
}

/* Host speed: lane loops without the per-lane mask test where every lane's index is valid
 * (`all`: a full warp's gid, as every warp is full, nelr being a multiple of the block; the
 * neighbour indices, which non-interior lanes hold as 0); the emitters and the shadow
 * memory read only the lanes of m. addrs4: a[l] = base + 4 (idx[l] + off). */
static inline void addrs4(uint64_t a[32], uint64_t base, const uint64_t idx[32], uint64_t off, uint32_t m, int all)
{
    if (all)
        for (int l = 0; l < 32; l++) a[l] = base + 4 * (idx[l] + off);
    else
        WL_LANES(m, l) a[l] = base + 4 * (idx[l] + off);
}

/* WL_SH_LD of the 4-byte elements (float or int32, as bytes) arr[idx[l] + off] */
static inline void sh_ld4(wl_warp *w, uint32_t m, const void *arr, const uint64_t idx[32], uint64_t off, int all)
{
    if (!w->sh) return;
    uint32_t v[32];
    const unsigned char *b = arr;
    if (all)
        for (int l = 0; l < 32; l++) memcpy(&v[l], b + 4 * (idx[l] + off), 4);
    else
        WL_LANES(m, l) memcpy(&v[l], b + 4 * (idx[l] + off), 4);
    wl_sh_last(w->sh, w->e.w, 0, v, 4);
}

/* the 5 loads of element idx[l]'s variables (lanes m); returns the last register */
static uint8_t load_state(cfd *s, wl_warp *w, uint32_t m, const uint64_t idx[32], uint8_t ri, uint8_t r[NVAR], int all)
{
    uint64_t a[32];
    for (int v = 0; v < NVAR; v++) {
        addrs4(a, s->d_var, idx, (uint64_t)v * s->nelr, m, all);
        r[v] = wl_ldg(w, m, a, ri);
        sh_ld4(w, m, s->var, idx, (uint64_t)v * s->nelr, all);
    }
    return r[NVAR - 1];
}

/* the ALU work of state() + flux_contribution(): 3 divisions (MUFU.RCP + FMUL), speed,
 * pressure, sqrt, 9 products */
static uint8_t state_alu(wl_warp *w, uint32_t m, const uint8_t r[NVAR])
{
    uint8_t rc = wl_sfu(w, m, r[VD]);
    uint8_t v0 = wl_fp(w, m, r[VM], rc, GMS_REG_NONE), v1 = wl_fp(w, m, r[VM + 1], rc, GMS_REG_NONE);
    uint8_t v2 = wl_fp(w, m, r[VM + 2], rc, GMS_REG_NONE);
    uint8_t q = wl_fp(w, m, v0, v0, GMS_REG_NONE);
    q = wl_fp(w, m, v1, v1, q);
    q = wl_fp(w, m, v2, v2, q);
    uint8_t p = wl_fp(w, m, r[VD], q, r[VE]);
    p = wl_fp(w, m, p, GMS_REG_NONE, GMS_REG_NONE);
    uint8_t c = wl_fp(w, m, p, rc, GMS_REG_NONE);
    c = wl_sfu(w, m, c);
    for (int k = 0; k < 9; k++) c = wl_fp(w, m, k % 2 ? v0 : v1, p, c);
    return c;
}

static int k_step(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    cfd *s = k->st;
    for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, k, block, wi);
        uint64_t gid[32], a[32];
        uint32_t m = w.live;
        uint8_t ri = prologue(&w, gid), r[NVAR];
        const int all = m == 0xffffffffu;
        load_state(s, &w, m, gid, ri, r, all);
        addrs4(a, s->d_areas, gid, 0, m, all);
        uint8_t ar = wl_ldg(&w, m, a, ri);
        sh_ld4(&w, m, s->areas, gid, 0, all);
        uint8_t c = state_alu(&w, m, r);
        uint8_t q = wl_sfu(&w, m, ar);
        q = wl_fp(&w, m, q, c, GMS_REG_NONE);
        q = wl_sfu(&w, m, q);
        WL_LANES(m, l) { a[l] = s->d_sf + 4 * gid[l]; s->sf[gid[l]] = step_factor(s, s->var, gid[l]); }
        wl_stg(&w, m, a, ri, q);
        WL_SH_ST(&w, m, float, s->sf[gid[l]]);
        wl_exit(&w, m);
    }
    (void)err;
    return 0;
}

static int k_flux(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    cfd *s = k->st;
    uint64_t nelr = s->nelr;
    for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, k, block, wi);
        uint64_t gid[32], a[32], nbi[32] = {0};
        uint32_t m = w.live;
        uint8_t ri = prologue(&w, gid), r[NVAR], rn[NVAR];
        const int all = m == 0xffffffffu;
        load_state(s, &w, m, gid, ri, r, all);
        uint8_t acc = state_alu(&w, m, r);
        for (int j = 0; j < NNB; j++) {
            addrs4(a, s->d_nb, gid, (uint64_t)j * nelr, m, all);
            uint8_t rnb = wl_ldg(&w, m, a, ri);
            sh_ld4(&w, m, s->nb, gid, (uint64_t)j * nelr, all);
            uint8_t n[3];
            for (int c = 0; c < 3; c++) {
                addrs4(a, s->d_normals, gid, (uint64_t)(j + c * NNB) * nelr, m, all);
                n[c] = wl_ldg(&w, m, a, ri);
                sh_ld4(&w, m, s->normals, gid, (uint64_t)(j + c * NNB) * nelr, all);
            }
            uint8_t len = wl_fp(&w, m, n[0], n[0], GMS_REG_NONE);
            len = wl_fp(&w, m, n[1], n[1], len);
            len = wl_fp(&w, m, n[2], n[2], len);
            len = wl_sfu(&w, m, len);
            uint32_t mi = 0, mw = 0, mf = 0;
            WL_LANES(m, l) {
                int32_t v = s->nb[gid[l] + (uint64_t)j * nelr];
                nbi[l] = v >= 0 ? (uint64_t)v : 0;
                if (v >= 0) mi |= 1u << l;
                else if (v == -1) mw |= 1u << l;
                else if (v == -2) mf |= 1u << l;
            }
            wl_pred(&w, m, rnb, GMS_REG_NONE);
            wl_bra(&w, m);
            /* interior face: the neighbour's state, viscosity and the 15 flux sums */
            uint32_t pc = w.pc;
            if (mi) {
                uint8_t p = wl_int(&w, mi, rnb, GMS_REG_NONE);
                load_state(s, &w, mi, nbi, p, rn, all);
                uint8_t c = state_alu(&w, mi, rn);
                uint8_t f = wl_sfu(&w, mi, c);
                f = wl_fp(&w, mi, f, len, c);
                for (int q = 0; q < 5; q++) acc = wl_fp(&w, mi, f, rn[q], acc);
                for (int q = 0; q < 15; q++) acc = wl_fp(&w, mi, n[q % 3], c, acc);
            }
            w.pc = pc + 29 * 16;
            wl_bra(&w, m);
            pc = w.pc;
            if (mw)
                for (int q = 0; q < 3; q++) acc = wl_fp(&w, mw, n[q], acc, GMS_REG_NONE);
            w.pc = pc + 3 * 16;
            wl_bra(&w, m);
            pc = w.pc;
            if (mf)   /* the far-field constants are c[0x3][...] operands */
                for (int q = 0; q < 18; q++) acc = wl_fp(&w, mf, n[q % 3], acc, GMS_REG_NONE);
            w.pc = pc + 18 * 16;
        }
        float res[32][NVAR];
        if (s->st_ver != s->var_ver) {   /* the first block since var changed */
            state_all(s->var, nelr, nelr, s->st);
            s->st_ver = s->var_ver;
        }
        WL_LANES(m, l) {
            flux_elem(s, s->st, gid[l], res[l]);
            for (int v = 0; v < NVAR; v++) s->flux[gid[l] + (uint64_t)v * nelr] = res[l][v];
        }
        static const int order[NVAR] = {VD, VM, VM + 1, VM + 2, VE};
        for (int q = 0; q < NVAR; q++) {
            int v = order[q];
            WL_LANES(m, l) a[l] = VA(s->d_flux, gid[l], v);
            wl_stg(&w, m, a, ri, acc);
            WL_SH_ST(&w, m, float, res[l][v]);
        }
        wl_exit(&w, m);
    }
    (void)err;
    return 0;
}

/* cuda_time_step, arg 0 = j */
static int k_time(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    cfd *s = k->st;
    int j = (int)k->arg[0];
    uint64_t nelr = s->nelr;
    s->var_ver++;
    for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, k, block, wi);
        uint64_t gid[32], a[32];
        uint32_t m = w.live;
        uint8_t ri = prologue(&w, gid);
        const int all = m == 0xffffffffu;
        addrs4(a, s->d_sf, gid, 0, m, all);
        uint8_t f = wl_ldg(&w, m, a, ri);
        sh_ld4(&w, m, s->sf, gid, 0, all);
        f = wl_sfu(&w, m, f);
        static const int order[NVAR] = {VD, VE, VM, VM + 1, VM + 2};
        for (int q = 0; q < NVAR; q++) {
            uint64_t v = (uint64_t)order[q];
            addrs4(a, s->d_old, gid, v * nelr, m, all);
            uint8_t o = wl_ldg(&w, m, a, ri);
            sh_ld4(&w, m, s->old, gid, v * nelr, all);
            addrs4(a, s->d_flux, gid, v * nelr, m, all);
            uint8_t x = wl_ldg(&w, m, a, ri);
            sh_ld4(&w, m, s->flux, gid, v * nelr, all);
            uint8_t y = wl_fp(&w, m, f, x, o);
            WL_LANES(m, l) {
                uint64_t i = gid[l];
                float factor = s->sf[i] / (float)(RK + 1 - j);
                s->var[i + v * nelr] = s->old[i + v * nelr] + factor * s->flux[i + v * nelr];
                a[l] = VA(s->d_var, i, v);
            }
            wl_stg(&w, m, a, ri, y);
            WL_SH_ST(&w, m, float, s->var[gid[l] + v * nelr]);
        }
        wl_exit(&w, m);
    }
    (void)err;
    return 0;
}

static uint64_t up(gms_program *p, const void *h, uint64_t bytes, const char *name)
{
    uint64_t d = gms_prog_alloc(p, bytes, name);
    gms_prog_copy_h2d(p, d, bytes);
    wl_sh_init(p, d, h, bytes);
    return d;
}

/* One iteration per call (the first call also uploads the mesh and initializes): the copy
 * kernel and the step factor read what the previous iteration's kernels wrote. */
static int next(void *st, gms_program *p, gms_error *err)
{
    cfd *s = st;
    if (s->rep == s->repeat) return 0;
    s->sh = p->shadow;
    uint64_t r = s->nelr;
    gms_dim3 grid = wl_dim3((uint32_t)(r / BS), 1, 1), blk = wl_dim3(BS, 1, 1);
    if (s->it == 0) {
        if (s->rep == 0) {
            s->d_areas = up(p, s->areas, 4 * r, "areas");
            s->d_nb = up(p, s->nb, 4 * r * NNB, "elements_surrounding_elements");
            s->d_normals = up(p, s->normals, 4 * r * NNB * NDIM, "normals");
            s->d_var = gms_prog_alloc(p, 4 * r * NVAR, "variables");
            s->d_old = gms_prog_alloc(p, 4 * r * NVAR, "old_variables");
            s->d_flux = gms_prog_alloc(p, 4 * r * NVAR, "fluxes");
            s->d_sf = gms_prog_alloc(p, 4 * r, "step_factors");
        }
        for (int64_t a = 0; a < 3; a++)
            wl_launch(p, "_Z25cuda_initialize_variablesiPf", grid, blk, 16, 0, k_init, s, &a, 1);
        gms_prog_sync(p);
    }
    uint64_t n2 = r * NVAR / 2;
    wl_launch(p, "cudaMemcpyDeviceToDevice", wl_dim3(wl_cdiv(n2, 256), 1, 1), wl_dim3(256, 1, 1), 8, 0, k_copy, s,
              NULL, 0);
    wl_launch(p, "_Z24cuda_compute_step_factoriPfS_S_", grid, blk, 24, 0, k_step, s, NULL, 0);
    for (int64_t j = 0; j < RK; j++) {
        wl_launch(p, "_Z17cuda_compute_fluxiPiPfS0_S0_", grid, blk, 64, 0, k_flux, s, NULL, 0);
        wl_launch(p, "_Z14cuda_time_stepiiPfS_S_S_", grid, blk, 24, 0, k_time, s, &j, 1);
    }
    gms_prog_sync(p);
    if (++s->it == s->iters) {
        gms_prog_copy_d2h(p, s->d_var, 4 * r * NVAR);
        s->it = 0;
        s->rep++;
    }
    (void)err;
    return 1;
}

static int verify(void *st, gms_error *err)
{
    cfd *s = st;
    uint64_t r = s->nelr, n = r * NVAR;
    float *var = wl_malloc(n, 4), *old = wl_malloc(n, 4), *flux = wl_malloc(n, 4), *sf = wl_malloc(r, 4);
    cfd_st *cst = wl_malloc(r, sizeof *cst);
    for (uint64_t i = 0; i < r; i++)
        for (int v = 0; v < NVAR; v++) var[i + (uint64_t)v * r] = s->ff[v];
    for (uint64_t it = 0; it < s->iters; it++) {
        memcpy(old, var, 4 * n);
        for (uint64_t i = 0; i < r; i++) sf[i] = step_factor(s, var, i);
        for (int j = 0; j < RK; j++) {
            state_all(var, r, r, cst);
            for (uint64_t i = 0; i < r; i++) {
                float f[NVAR];
                flux_elem(s, cst, i, f);
                for (int v = 0; v < NVAR; v++) flux[i + (uint64_t)v * r] = f[v];
            }
            for (uint64_t i = 0; i < r; i++) {
                float factor = sf[i] / (float)(RK + 1 - j);
                for (int v = 0; v < NVAR; v++)
                    var[i + (uint64_t)v * r] = old[i + (uint64_t)v * r] + factor * flux[i + (uint64_t)v * r];
            }
        }
    }
    /* the generated mesh must keep the flow finite (a NaN would match a NaN) */
    for (uint64_t i = 0; i < n; i++)
        if (!isfinite(var[i])) {
            free(var); free(old); free(flux); free(sf); free(cst);
            return gms_err(err, "workload cfd: the CPU reference diverged at variable %llu", (unsigned long long)i);
        }
    void *own;
    const float *got = wl_result(s->sh, s->d_var, s->var, n, 4, &own);
    int rc = wl_check_f32("cfd", "variables", got, var, n, 1e-5, 1e-6, err);
    free(own); free(var); free(old); free(flux); free(sf); free(cst);
    return rc;
}

static void destroy(void *st)
{
    cfd *s = st;
    if (!s) return;
    free(s->areas); free(s->nb); free(s->normals); free(s->var); free(s->old); free(s->flux); free(s->sf);
    free(s->st);
    free(s);
}

const gms_workload_ops gms_wl_cfd = {
    .name = "cfd", .suite = "rodinia", .domain = "fluid dynamics", .ri = "-",
    .summary = "CFD euler3d: unstructured-mesh finite volumes, neighbour gathers in compute_flux (CFD)",
    .params = params, .create = create, .next = next, .verify = verify, .destroy = destroy,
    .footprint = footprint,
};
