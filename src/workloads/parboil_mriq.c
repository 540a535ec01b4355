/* mri-q (Parboil, src/cuda/computeQ.cu): the Q matrix of non-Cartesian MRI reconstruction.
 * ComputePhiMag_GPU (512 threads, one per k-space sample): phiMag = phiR^2 + phiI^2. The host
 * builds kValues {Kx, Ky, Kz, PhiMag}, copies them to constant memory 1024 at a time
 * (cudaMemcpyToSymbol) and runs ComputeQ_GPU (256 threads, one per voxel, no bound check:
 * numX is a multiple of 256) once per tile:
 *   sX = x[i]; ... sQr = Qr[i]; sQi = Qi[i];
 *   for (k over the tile, two at a time) { arg = 2pi*(ck[k].Kx*sX + ck[k].Ky*sY + ck[k].Kz*sZ);
 *     sQr += ck[k].PhiMag*cos(arg); sQi += ck[k].PhiMag*sin(arg); }
 *   Qr[i] = sQr; Qi[i] = sQi;
 * (numK must be even: the source's odd-count path reads past the tile.) Defaults: the large
 * dataset, 262144 voxels (64^3) and 2048 samples; the input file becomes uniform random
 * coordinates (k-space in [-0.5, 0.5), voxels in [-32, 32)) and phases in [0, 1). Each thread
 * loops over 1024 samples: resumable (wl_gen.h). */
#include "workloads/parboil_util.h"
#include "workloads/wl_simd.h"
#include <math.h>
#include <string.h>

enum { PHIR, PHII, PHIMAG, X_, Y_, Z_, QR, QI, KX, KY, KZ };
enum { NUMX, NUMK };
#define TILE 1024

static const gms_wl_param params[] = {
    { "numX", "262144", "voxels (multiple of 256; large dataset 262144 = 64^3)" },
    { "numK", "2048", "k-space samples (even; large dataset 2048)" },
    { "scale", "1", "multiplies numX and numK" },
    { "repeat", "1", "run the kernels this many times (Q accumulates)" },
    { NULL, NULL, NULL },
};

static int sizes(const gms_wl_args *a, uint64_t *d, gms_error *err)
{
    return wl_clamp_scaled(a, "mri-q", "numX", 256, 256, 1u << 28, &d[NUMX], err) ||
           wl_clamp_scaled(a, "mri-q", "numK", 2, 2, 1u << 26, &d[NUMK], err);
}

static uint64_t elems(const uint64_t *d, int k) { return k <= PHIMAG || k >= KX ? d[NUMK] : d[NUMX]; }

static void init(const pbl_state *s, void **h)
{
    gms_rng r;
    gms_rng_seed(&r, s->seed);
    for (int k = PHIR; k <= PHII; k++)
        for (uint64_t i = 0; i < s->dim[NUMK]; i++) ((float *)h[k])[i] = wl_randf(&r);
    for (int k = KX; k <= KZ; k++)
        for (uint64_t i = 0; i < s->dim[NUMK]; i++) ((float *)h[k])[i] = wl_randf(&r) - 0.5f;
    for (int k = X_; k <= Z_; k++)
        for (uint64_t i = 0; i < s->dim[NUMX]; i++) ((float *)h[k])[i] = 64.0f * wl_randf(&r) - 32.0f;
}

static int fill_phimag(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    pbl_state *s = k->st;
    const float *pr = PBL_F(s, PHIR), *pi = PBL_F(s, PHII);
    float *pm = PBL_F(s, PHIMAG);
    for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, k, block, wi);
        uint64_t i[32];
        uint8_t ri;
        uint32_t m = wl_prologue_1d(&w, s->dim[NUMK], i, &ri);
        if (!m) continue;
        uint8_t p0 = wl_int(&w, m, ri, GMS_REG_NONE), p1 = wl_int(&w, m, ri, GMS_REG_NONE);
        uint8_t re = wl_ldg_idx(&w, m, s->d[PHIR], i, p0);
        WL_SH_LD(&w, m, float, pr[i[l]]);
        uint8_t im = wl_ldg_idx(&w, m, s->d[PHII], i, p1);
        WL_SH_LD(&w, m, float, pi[i[l]]);
        uint8_t t = wl_fp(&w, m, im, im, GMS_REG_NONE);                 /* FMUL imag*imag */
        t = wl_fp(&w, m, re, re, t);                                    /* FFMA real*real + */
        uint8_t p2 = wl_int(&w, m, ri, GMS_REG_NONE);
        WL_LANES(m, l) pm[i[l]] = PBL_MAD(pr[i[l]], pr[i[l]], pi[i[l]] * pi[i[l]]);
        wl_stg_idx(&w, m, s->d[PHIMAG], i, p2, t);
        WL_SH_ST(&w, m, float, pm[i[l]]);
        wl_exit(&w, m);
    }
    return 0;
}

/* Host speed: 4, 8 or 16 voxels per operation (wl_simd.h: SSE2, AVX, AVX-512F; scalar code
 * off x86), each vector lane its own voxel with the same operations in the same order as
 * scalar code (-std=c11: no contraction, no FMA in the wider copies), so the model's lanes and
 * the CPU reference agree bit for bit, on any host. */
typedef float q_v4 __attribute__((vector_size(16)));
static inline q_v4 q_bc(float x) { return (q_v4){ x, x, x, x }; }

/* sin and cos of 2pi*t, t in turns (|t| < 2^22), instead of libm's sinf/cosf of 2pi*t (which
 * were 60% of the front end). The GPU's MUFU.SIN/COS take the argument in turns too (FMUL
 * 1/2pi, RRO; CUDA's fast sinf/cosf are not libm's either). t is reduced exactly,
 * r = t - rint(t) in [-1/2, 1/2] (rint by the 1.5*2^23 trick, round to nearest), then
 * s = sin(pi r), c = cos(pi r) by polynomials in r^2 (near-minimax on [0, 1/4], degree 9 and
 * 10 in r) and the double angle: sin 2pi r = 2sc, cos 2pi r = (c-s)(c+s). Error against
 * sin/cos(2pi t) in double, measured over the floats |t| < 64 (this input has |t| <= 48):
 * at most 3.0e-7 (sin) and 4.5e-7 (cos), under 4 ulp of 1, about MUFU's 2^-21.4; libm's
 * sinf(2pi*t) is up to 2.6e-5 away there, from rounding 2pi*t to float.
 * A macro over any vector width (GCC broadcasts the float constants). */
#define Q_SINCOS2PI(T, SN, CS)                                                                 \
    do {                                                                                       \
        __typeof__(T) r_ = (T) - (((T) + 12582912.0f) - 12582912.0f), z_ = r_ * r_;            \
        __typeof__(T) s_ = z_ * 0.0776559123f + -0.598290411f;                                 \
        s_ = s_ * z_ + 2.55007739f;                                                            \
        s_ = s_ * z_ + -5.16771008f;                                                           \
        s_ = s_ * z_ + 3.14159264f;                                                            \
        s_ = s_ * r_;                                                                          \
        __typeof__(T) c_ = z_ * -0.0243959321f + 0.234937069f;                                 \
        c_ = c_ * z_ + -1.33521195f;                                                           \
        c_ = c_ * z_ + 4.05870915f;                                                            \
        c_ = c_ * z_ + -4.93480214f;                                                           \
        c_ = c_ * z_ + 1.0f;                                                                   \
        (SN) = (s_ + s_) * c_;                                                                 \
        (CS) = (c_ - s_) * (c_ + s_);                                                          \
    } while (0)

/* one sample's contribution to a vector of voxels (the kernel's float operations, for the
 * model and the reference): the FMUL and two FFMAs of the argument in turns, sin/cos, two
 * FFMAs */
#define Q_TERM(KX, KY, KZ, PM, X, Y, Z, QR, QI)                                                \
    do {                                                                                       \
        __typeof__(X) t_ = (X) * (KX), sn_, cs_;                                               \
        t_ = PBL_MAD((Y), (KY), t_);                                                           \
        t_ = PBL_MAD((Z), (KZ), t_);                                                           \
        Q_SINCOS2PI(t_, sn_, cs_);                                                             \
        (QR) = PBL_MAD(cs_, (PM), (QR));                                                       \
        (QI) = PBL_MAD(sn_, (PM), (QI));                                                       \
    } while (0)

/* samples k0..k1-1 (in that order) added to n voxels (n a multiple of 2W; two vectors at a
 * time: independent chains for the out-of-order core), W floats to a vector V */
#define Q_VOXELS_BODY(V, W)                                                                    \
    const float *kx = h[KX], *ky = h[KY], *kz = h[KZ], *pm = h[PHIMAG];                        \
    for (uint64_t i = 0; i < n; i += 2 * (W)) {                                                \
        V vx, vy, vz, vr, vi, wx, wy, wz, wr, wi;                                              \
        memcpy(&vx, x + i, sizeof vx), memcpy(&vy, y + i, sizeof vy);                          \
        memcpy(&vz, z + i, sizeof vz), memcpy(&vr, qr + i, sizeof vr);                         \
        memcpy(&vi, qi + i, sizeof vi), memcpy(&wx, x + i + (W), sizeof wx);                   \
        memcpy(&wy, y + i + (W), sizeof wy), memcpy(&wz, z + i + (W), sizeof wz);              \
        memcpy(&wr, qr + i + (W), sizeof wr), memcpy(&wi, qi + i + (W), sizeof wi);            \
        for (uint64_t k = k0; k < k1; k++) {                                                   \
            Q_TERM(kx[k], ky[k], kz[k], pm[k], vx, vy, vz, vr, vi);                            \
            Q_TERM(kx[k], ky[k], kz[k], pm[k], wx, wy, wz, wr, wi);                            \
        }                                                                                      \
        memcpy(qr + i, &vr, sizeof vr), memcpy(qi + i, &vi, sizeof vi);                        \
        memcpy(qr + i + (W), &wr, sizeof wr), memcpy(qi + i + (W), &wi, sizeof wi);            \
    }

static void q_voxels4(void *const *h, uint64_t k0, uint64_t k1, const float *x, const float *y,
                      const float *z, float *qr, float *qi, uint64_t n)
{
    Q_VOXELS_BODY(q_v4, 4)
}

#ifdef WL_HAVE_X86_SIMD
typedef float q_v8 __attribute__((vector_size(32)));
typedef float q_v16 __attribute__((vector_size(64)));
WL_TARGET_AVX static void q_voxels8(void *const *h, uint64_t k0, uint64_t k1, const float *x, const float *y,
                                    const float *z, float *qr, float *qi, uint64_t n)
{
    Q_VOXELS_BODY(q_v8, 8)
}
WL_TARGET_AVX512 static void q_voxels16(void *const *h, uint64_t k0, uint64_t k1, const float *x, const float *y,
                                        const float *z, float *qr, float *qi, uint64_t n)
{
    Q_VOXELS_BODY(q_v16, 16)
}
#endif

/* n a multiple of 8 (of 32 for the widest copy) */
static void q_voxels(void *const *h, uint64_t k0, uint64_t k1, const float *x, const float *y,
                     const float *z, float *qr, float *qi, uint64_t n)
{
#ifdef WL_HAVE_X86_SIMD
    const int vf = wl_host_vec_floats();
    if (vf == 16 && n % 32 == 0) { q_voxels16(h, k0, k1, x, y, z, qr, qi, n); return; }
    if (vf >= 8 && n % 16 == 0) { q_voxels8(h, k0, k1, x, y, z, qr, qi, n); return; }
#endif
    q_voxels4(h, k0, k1, x, y, z, qr, qi, n);
}

typedef struct q_warp {
    wl_wgen ws;
    uint64_t k;                       /* index in the tile */
    float sx[32], sy[32], sz[32], qr[32], qi[32];
    uint8_t rx, ry, rz, rqr, rqi, rk, pqr, pqi;
} q_warp;

static int step_q(const wl_kernel *k, wl_wgen *ws, gms_error *err)
{
    q_warp *g = (q_warp *)ws;
    wl_warp *w = &ws->w;
    pbl_state *s = k->st;
    const uint64_t base = (uint64_t)k->arg[0], n = s->dim[NUMK] - base < TILE ? s->dim[NUMK] - base : TILE;
    const uint64_t x0 = (uint64_t)w->bx * 256 + (uint64_t)w->warp * 32;
    uint64_t id[32];
    for (int l = 0; l < 32; l++) id[l] = x0 + (uint64_t)l;
    WL_GEN_BEGIN(&ws->g)
    {
        const uint32_t m = w->live;
        uint8_t c = wl_int(w, m, GMS_REG_NONE, GMS_REG_NONE), t = wl_int(w, m, GMS_REG_NONE, GMS_REG_NONE);
        uint8_t ri = wl_int(w, m, c, t);                                 /* IMAD xIndex */
        uint8_t *regs[5] = { &g->rx, &g->ry, &g->rz, &g->rqr, &g->rqi };
        float *vals[5] = { g->sx, g->sy, g->sz, g->qr, g->qi };
        for (int a = 0; a < 5; a++) {
            uint8_t p = wl_int(w, m, ri, GMS_REG_NONE);                  /* IMAD.WIDE */
            if (a == 3) g->pqr = p;
            if (a == 4) g->pqi = p;
            *regs[a] = wl_ldg_idx(w, m, s->d[X_ + a], id, p);
            const float *src = PBL_F(s, X_ + a);
            WL_SH_LD(w, m, float, src[id[l]]);
            WL_LANES(m, ll) vals[a][ll] = src[id[ll]];
        }
        /* the 32 lanes' values over the whole tile at once, as the loop below would add them
         * a pair at a time (all lanes live: numX is a multiple of 256); only the final
         * stores read them */
        q_voxels(s->h, base, base + n, g->sx, g->sy, g->sz, g->qr, g->qi, 32);
        g->rk = wl_int(w, m, GMS_REG_NONE, GMS_REG_NONE);               /* MOV kIndex */
        wl_pred(w, m, GMS_REG_NONE, GMS_REG_NONE);                      /* numK % 2 */
        wl_bra(w, m);                                                   /* even: skip the odd one */
    }
    for (g->k = 0; g->k < n; g->k += 2) {
        w->pc = 0x200;
        for (uint64_t q = g->k; q < g->k + 2; q++) {
            const uint32_t m = w->live;
            uint8_t kv = wl_ld_bcast(w, m, GMS_MEM_LD_CONST, 16, 16 * q, g->rk);   /* ck[k] */
            uint8_t t = wl_fp(w, m, kv, g->rx, GMS_REG_NONE);             /* FMUL Kx*sX */
            t = wl_fp(w, m, kv, g->ry, t);                                /* FFMA */
            t = wl_fp(w, m, kv, g->rz, t);                                /* FFMA */
            t = wl_fp(w, m, t, GMS_REG_NONE, GMS_REG_NONE);               /* FMUL 2pi */
            uint8_t rr = wl_fp(w, m, t, GMS_REG_NONE, GMS_REG_NONE);      /* FMUL 1/2pi (range) */
            rr = wl_sfu(w, m, rr);                                        /* RRO */
            uint8_t co = wl_sfu(w, m, rr), si = wl_sfu(w, m, rr);         /* MUFU.COS, MUFU.SIN */
            g->rqr = wl_fp(w, m, kv, co, g->rqr);                         /* FFMA sQr */
            g->rqi = wl_fp(w, m, kv, si, g->rqi);                         /* FFMA sQi */
        }
        pbl_loop_back(w, w->live, g->k + 2 < n ? w->live : 0, g->rk);
        WL_GEN_YIELD(&ws->g);
    }
    {
        const uint32_t m = w->live;
        float *qr = PBL_F(s, QR), *qi = PBL_F(s, QI);
        for (int l = 0; l < 32; l++) { qr[id[l]] = g->qr[l]; qi[id[l]] = g->qi[l]; }
        wl_stg_idx(w, m, s->d[QR], id, g->pqr, g->rqr);
        WL_SH_ST(w, m, float, g->qr[l]);
        wl_stg_idx(w, m, s->d[QI], id, g->pqi, g->rqi);
        WL_SH_ST(w, m, float, g->qi[l]);
        wl_exit(w, m);
    }
    WL_GEN_END(&ws->g);
}

static void launch(pbl_state *s, gms_program *p, uint64_t rep)
{
    wl_launch(p, "_Z17ComputePhiMag_GPUPfS_S_i", wl_dim3(wl_cdiv(s->dim[NUMK], 512), 1, 1), wl_dim3(512, 1, 1), 8, 0,
              fill_phimag, s, NULL, 0);
    for (uint64_t b = 0; b < s->dim[NUMK]; b += TILE) {
        int64_t base = (int64_t)b;
        wl_launch_gen(p, "_Z12ComputeQ_GPUiiPfS_S_S_S_", wl_dim3((uint32_t)(s->dim[NUMX] / 256), 1, 1),
                      wl_dim3(256, 1, 1), 24, 0, step_q, sizeof(q_warp), s, &base, 1);
    }
}

/* the fast sin/cos against libm in double on voxel 0's arguments (the model and the
 * reference share Q_SINCOS2PI, so the reference must check it on its own): 0 when within
 * 1e-6 for every sample */
static int q_sincos_bad(void *const *h, uint64_t nk)
{
    const float *kx = h[KX], *ky = h[KY], *kz = h[KZ], *x = h[X_], *y = h[Y_], *z = h[Z_];
    for (uint64_t k = 0; k < nk; k++) {
        float t = PBL_MAD(kz[k], z[0], PBL_MAD(ky[k], y[0], kx[k] * x[0]));
        q_v4 sn, cs;
        Q_SINCOS2PI(q_bc(t), sn, cs);
        double a = 6.283185307179586 * t;
        if (!(fabs(sn[0] - sin(a)) <= 1e-6 && fabs(cs[0] - cos(a)) <= 1e-6)) return 1;
    }
    return 0;
}

static void cpu(const pbl_state *s, void **h, uint64_t rep)
{
    const float *pr = h[PHIR], *pi = h[PHII];
    float *pm = h[PHIMAG], *qr = h[QR], *qi = h[QI];
    for (uint64_t k = 0; k < s->dim[NUMK]; k++) pm[k] = PBL_MAD(pr[k], pr[k], pi[k] * pi[k]);
    /* voxel by voxel (4 at a time), every sample; the model goes tile by tile, two samples
     * at a time, lane by lane */
    q_voxels(h, 0, s->dim[NUMK], h[X_], h[Y_], h[Z_], qr, qi, s->dim[NUMX]);
    if (q_sincos_bad(h, s->dim[NUMK])) qr[0] = NAN;   /* fails verify */
}

static const pbl_def def = {
    .name = "mri-q",
    .arrs = { { "phiR", 1, 0, 0, PBL_F32 }, { "phiI", 1, 0, 0, PBL_F32 }, { "phiMag", 0, 1, 1, PBL_F32 },
              { "x", 1, 0, 0, PBL_F32 }, { "y", 1, 0, 0, PBL_F32 }, { "z", 1, 0, 0, PBL_F32 },
              { "Qr", 0, 1, 1, PBL_F32 }, { "Qi", 0, 1, 1, PBL_F32 },
              { "kx", 0, 0, 0, PBL_F32, 1 }, { "ky", 0, 0, 0, PBL_F32, 1 }, { "kz", 0, 0, 0, PBL_F32, 1 } },
    .sizes = sizes, .elems = elems, .init = init, .launch = launch, .cpu = cpu,
    .rtol = 0, .atol = 0,
};

PBL_WORKLOAD(mriq, "mri-q", def, params, "medical imaging", "R",
             "MRI Q matrix: per voxel, a sum over k-space samples held in constant memory (sin/cos), 1024 per launch");
