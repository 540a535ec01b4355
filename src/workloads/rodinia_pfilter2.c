/* PFILTER-RODINIA (Rodinia 3.1 particlefilter_float.cu, the second program of the suite's run
 * `particlefilter_float -x 128 -y 128 -z 10 -np 1000`; UVMBench's `pfilter` is the naive
 * one): the same synthetic video and tracking, but the whole particle filter on the GPU. Per
 * frame k = 1 .. z-1, ceil(np / 512) blocks of 512 threads each:
 *   likelihood_kernel   particle i: arrayX/Y = xj/yj, weight 1/np, motion with the device
 *                       LCG (d_randn: seed[i] read and written 4 times), the 69 disk offsets
 *                       -> ind[i*69 + y] (strided stores), the likelihood from I[ind] (byte
 *                       gathers), weight *= exp(likelihood), then a shared-memory tree sum of
 *                       the block's weights -> partial_sums[block]
 *   sum_kernel          thread 0 of the grid sums the partial sums into partial_sums[0]
 *   normalize_weights   weights[i] /= partial_sums[0]; thread 0 of block 0 computes the whole
 *                       CDF (a serial loop over np) and u[0]; every block then u[i] = u[0] + i/np
 *   find_index_kernel   particle i: linear search of the first CDF[x] >= u[i] (the warp loops
 *                       until its last lane has found it), xj/yj[i] = arrayX/Y[index]
 * normalize_weights races across blocks in the suite (block 0's CDF reads the weights other
 * blocks normalize concurrently, and their u[0]); here blocks run in launch order, so block 0
 * sees the later blocks' weights unnormalized and every block sees block 0's u[0]; the CPU
 * reference does the same. Host part (video, disk, seeds) as in the suite; the seeds are
 * seed*i (the run's seed) instead of time(0)*i; the video's unwritten bytes are 0 (the suite
 * mallocs them). Verified: arrayX, arrayY and weights against the CPU reference. */
#include "workloads/wl_util.h"
#include "workloads/wl_clamp.h"
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TPB 512
#define PI_H 3.1415926535897932
#define PI_D 3.14159265358979323846

enum { AX, AY, XJ, YJ, CDF, U, LIK, WT, PS, NDB };
static const char *const dnames[NDB] = {"arrayX_GPU", "arrayY_GPU", "xj_GPU", "yj_GPU", "CDF_GPU", "u_GPU",
                                        "likelihood_GPU", "weights_GPU", "partial_sums"};

typedef struct pf2 {
    int64_t X, Y, Nfr, N, nb, ones, maxs;
    uint64_t repeat, rep;
    uint8_t *I;
    int32_t objxy[2 * 81];
    int32_t *seed0, *seed, *ind;
    double *d[NDB];                 /* the device arrays as the kernels leave them */
    uint64_t dd[NDB], d_I, d_obj, d_ind, d_seed;
    wl_shadow *sh;
} pf2;

static const gms_wl_param params[] = {
    {"x", "128", "frame width IszX (-x)"},
    {"y", "128", "frame height IszY (-y)"},
    {"z", "10", "frames Nfr (-z); four kernels per frame after the first"},
    {"np", "1000", "particles (-np)"},
    {"scale", "1", "multiplies np"},
    {"repeat", "1", "run the whole tracking N times from the same input"},
    {NULL, NULL, NULL},
};

static int sizes(const gms_wl_args *a, int64_t v[4], gms_error *err)
{
    uint64_t np;
    if (wl_clamp_size(a, "pfilter-rodinia", "np", 1, 1ULL << 24, &np, err)) return -1;
    if (gms_wl_check_range(a, "x", 1, 4096, err) || gms_wl_check_range(a, "y", 1, 4096, err) ||
        gms_wl_check_range(a, "z", 1, 4096, err))
        return -1;
    v[0] = (int64_t)gms_wl_u64(a, "x");
    v[1] = (int64_t)gms_wl_u64(a, "y");
    v[2] = (int64_t)gms_wl_u64(a, "z");
    v[3] = (int64_t)np;
    if (v[0] * v[1] * v[2] > INT_MAX) return gms_err(err, "workload pfilter-rodinia: x*y*z exceeds INT_MAX");
    return 0;
}

static uint64_t footprint(const gms_wl_args *a)
{
    gms_error e;
    int64_t v[4];
    if (sizes(a, v, &e)) return 0;
    uint64_t n = (uint64_t)v[3];
    return 8 * n * NDB + (uint64_t)(v[0] * v[1] * v[2]) + 4 * 2 * 69 + 4 * 69 * n + 4 * n;
}

static double randu_h(int32_t *seed, int64_t i)
{
    int32_t num = (int32_t)(1103515245u * (uint32_t)seed[i] + 12345u);
    seed[i] = (int32_t)(num % INT_MAX);
    return fabs(seed[i] / ((double)INT_MAX));
}
static double randn_h(int32_t *seed, int64_t i, double pi)
{
    double u = randu_h(seed, i), v = randu_h(seed, i);
    return sqrt(-2 * log(u)) * cos(2 * pi * v);
}
static double trunc_d(double v) { return (double)(int)v; }   /* roundDouble: `return newValue++` */

static void video(pf2 *s)
{
    int X = (int)s->X, Y = (int)s->Y, Z = (int)s->Nfr;
    int64_t max = (int64_t)X * Y * Z;
    uint8_t *I = s->I, *nm = wl_calloc((uint64_t)max, 1);
    int x0 = (int)trunc_d(Y / 2.0), y0 = (int)trunc_d(X / 2.0);
    I[(int64_t)x0 * Y * Z + (int64_t)y0 * Z] = 1;
    for (int k = 1; k < Z; k++) {
        int xk = abs(x0 + (k - 1)), yk = abs(y0 - 2 * (k - 1));
        int64_t pos = (int64_t)yk * Y * Z + (int64_t)xk * Z + k;
        if (pos >= max) pos = 0;
        I[pos] = 1;
    }
    for (int z = 0; z < Z; z++)
        for (int x = 0; x < X; x++)
            for (int y = 0; y < Y; y++)
                if (I[(int64_t)x * Y * Z + (int64_t)y * Z + z] == 1) {
                    int sx = x - 5 < 0 ? 0 : x - 5, sy = y - 5 < 0 ? 0 : y - 5;
                    int ex = x + 5 > X ? X : x + 5, ey = y + 5 > Y ? Y : y + 5;
                    for (int i = sx; i < ex; i++)
                        for (int j = sy; j < ey; j++)
                            if (sqrt(pow((double)(i - x), 2) + pow((double)(j - y), 2)) < 5)
                                nm[(int64_t)i * Y * Z + (int64_t)j * Z + z] = 1;
                }
    memcpy(I, nm, (uint64_t)max);
    free(nm);
    for (int64_t i = 0; i < max; i++) I[i] = I[i] == 0 ? 100 : I[i] == 1 ? 228 : I[i];
    for (int64_t i = 0; i < max; i++) I[i] = (uint8_t)(I[i] + (uint8_t)(int)(5 * randn_h(s->seed0, 0, PI_H)));
}

static int create(const gms_wl_args *a, void **out, gms_error *err)
{
    int64_t v[4];
    if (sizes(a, v, err) || gms_wl_check_range(a, "repeat", 1, 1000000, err)) return -1;
    pf2 *s = gms_xcalloc(1, sizeof *s);
    s->X = v[0]; s->Y = v[1]; s->Nfr = v[2]; s->N = v[3];
    s->nb = (s->N + TPB - 1) / TPB;
    s->maxs = s->X * s->Y * s->Nfr;
    s->repeat = gms_wl_u64(a, "repeat");
    s->seed0 = wl_malloc((uint64_t)s->N, 4);
    s->seed = wl_malloc((uint64_t)s->N, 4);
    uint64_t sv = gms_wl_seed(a);
    for (int64_t i = 0; i < s->N; i++) s->seed0[i] = (int32_t)((uint32_t)sv * (uint32_t)i);
    s->I = wl_calloc((uint64_t)s->maxs, 1);
    video(s);   /* advances seed0[0] as the suite's videoSequence does */
    int radius = 5, diam = 9, center = radius - 1;
    for (int x = 0; x < diam; x++)
        for (int y = 0; y < diam; y++)
            if (sqrt(pow((double)(x - radius + 1), 2) + pow((double)(y - radius + 1), 2)) < radius) {
                s->objxy[s->ones * 2] = y - center;
                s->objxy[s->ones * 2 + 1] = x - center;
                s->ones++;
            }
    for (int i = 0; i < NDB; i++) s->d[i] = wl_calloc((uint64_t)s->N, 8);
    s->ind = wl_calloc((uint64_t)(s->N * s->ones), 4);
    *out = s;
    return 0;
}

#define DA(k_, i_) (s->dd[k_] + 8 * (uint64_t)(i_))

/* the per-thread prologue: S2R, S2R, IMAD, ISETP i < np; returns the lanes with i < np */
static uint32_t pro(wl_warp *w, uint64_t block, int64_t n, int64_t i[32], uint8_t *ri)
{
    uint32_t m = 0;
    WL_LANES(w->live, l) { i[l] = (int64_t)(block * TPB + w->tx[l]); if (i[l] < n) m |= 1u << l; }
    uint8_t t = wl_int(w, w->live, GMS_REG_NONE, GMS_REG_NONE);
    uint8_t c = wl_int(w, w->live, GMS_REG_NONE, GMS_REG_NONE);
    *ri = wl_int(w, w->live, t, c);
    wl_pred(w, w->live, *ri, GMS_REG_NONE);
    return m;
}

static uint8_t dp(wl_warp *w, uint32_t m, uint8_t a, uint8_t b)
{
    return gms_emit_alu(&w->e, wl_next_pc(w), m, GMS_OP_DP, a, b, GMS_REG_NONE);
}

/* one d_randu on lanes m: seed[i] load and store */
static uint8_t emit_randu(pf2 *s, wl_warp *w, uint32_t m, const int64_t i[32], uint8_t ri, int32_t before[32])
{
    uint64_t a[32];
    WL_LANES(m, l) { a[l] = s->d_seed + 4 * (uint64_t)i[l]; before[l] = s->seed[i[l]]; }
    uint8_t v = wl_ldg(w, m, a, ri);
    WL_SH_LD(w, m, int32_t, before[l]);
    v = wl_int(w, m, v, GMS_REG_NONE);
    WL_LANES(m, l) randu_h(s->seed, i[l]);
    wl_stg(w, m, a, ri, v);
    WL_SH_ST(w, m, int32_t, s->seed[i[l]]);
    v = wl_sfu(w, m, v);
    return dp(w, m, v, GMS_REG_NONE);
}

static int k_like(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    pf2 *s = k->st;
    int64_t kf = k->arg[0], N = s->N;
    double buffer[TPB];
    wl_warp W[TPB / 32];
    uint8_t ri[TPB / 32];
    uint32_t mk[TPB / 32];
    uint64_t a[32];
    int64_t ii[TPB / 32][32];
    int32_t bf[32];
    for (uint32_t wi = 0; wi < TPB / 32; wi++) {
        wl_warp *w = &W[wi];
        wl_warp_begin(w, bt, k, block, wi);
        int64_t *i = ii[wi];
        uint32_t m = mk[wi] = pro(w, block, N, i, &ri[wi]);
        wl_bra(w, w->live);
        if (!m) { w->pc += 24 * 16; wl_bar(w); continue; }
        /* arrayX[i] = xj[i]; arrayY[i] = yj[i]; weights[i] = 1/N */
        for (int q = 0; q < 2; q++) {
            int src = q ? YJ : XJ, dst = q ? AY : AX;
            WL_LANES(m, l) a[l] = DA(src, i[l]);
            uint8_t v = wl_ld(w, m, GMS_MEM_LD_GLOBAL, 8, a, ri[wi]);
            WL_SH_LD(w, m, double, s->d[src][i[l]]);
            WL_LANES(m, l) { a[l] = DA(dst, i[l]); s->d[dst][i[l]] = s->d[src][i[l]]; }
            wl_st(w, m, GMS_MEM_ST_GLOBAL, 8, a, ri[wi], v);
            WL_SH_ST(w, m, double, s->d[dst][i[l]]);
        }
        WL_LANES(m, l) { a[l] = DA(WT, i[l]); s->d[WT][i[l]] = 1 / ((double)N); }
        wl_st(w, m, GMS_MEM_ST_GLOBAL, 8, a, ri[wi], GMS_REG_NONE);
        WL_SH_ST(w, m, double, 1 / ((double)N));
        /* arrayX += 1 + 5*randn; arrayY += -2 + 2*randn (each randn: two randu) */
        for (int q = 0; q < 2; q++) {
            int dst = q ? AY : AX;
            double old[32];
            WL_LANES(m, l) { a[l] = DA(dst, i[l]); old[l] = s->d[dst][i[l]]; }
            uint8_t v = wl_ld(w, m, GMS_MEM_LD_GLOBAL, 8, a, ri[wi]);
            WL_SH_LD(w, m, double, old[l]);
            int32_t seeds[32];
            WL_LANES(m, l) seeds[l] = s->seed[i[l]];
            /* compute with a copy of the seeds, then emit the four seed accesses */
            double rn[32];
            WL_LANES(m, l) {
                int32_t sd[1] = {seeds[l]};
                rn[l] = randn_h(sd, 0, PI_D);
            }
            uint8_t r1 = emit_randu(s, w, m, i, ri[wi], bf);
            uint8_t r2 = emit_randu(s, w, m, i, ri[wi], bf);
            uint8_t r = dp(w, m, r1, r2);
            r = wl_sfu(w, m, r);
            r = dp(w, m, r, v);
            WL_LANES(m, l) s->d[dst][i[l]] = q ? old[l] - 2.0 + 2.0 * rn[l] : old[l] + 1.0 + 5.0 * rn[l];
            wl_st(w, m, GMS_MEM_ST_GLOBAL, 8, a, ri[wi], r);
            WL_SH_ST(w, m, double, s->d[dst][i[l]]);
        }
        wl_bar(w);
    }
    for (uint32_t wi = 0; wi < TPB / 32; wi++) {
        wl_warp *w = &W[wi];
        uint32_t m = mk[wi];
        int64_t *i = ii[wi];
        if (m) {
            WL_LANES(m, l) a[l] = DA(AX, i[l]);
            uint8_t x = wl_ld(w, m, GMS_MEM_LD_GLOBAL, 8, a, ri[wi]);
            WL_SH_LD(w, m, double, s->d[AX][i[l]]);
            WL_LANES(m, l) a[l] = DA(AY, i[l]);
            uint8_t y = wl_ld(w, m, GMS_MEM_LD_GLOBAL, 8, a, ri[wi]);
            WL_SH_LD(w, m, double, s->d[AY][i[l]]);
            uint32_t pc = w->pc;
            for (int64_t yy = 0; yy < s->ones; yy++) {
                w->pc = pc;
                WL_LANES(m, l) a[l] = s->d_obj + 4 * (uint64_t)(yy * 2 + 1);
                uint8_t o1 = wl_ldg(w, m, a, ri[wi]);
                WL_SH_LD(w, m, int32_t, s->objxy[yy * 2 + 1]);
                WL_LANES(m, l) a[l] = s->d_obj + 4 * (uint64_t)(yy * 2);
                uint8_t o2 = wl_ldg(w, m, a, ri[wi]);
                WL_SH_LD(w, m, int32_t, s->objxy[yy * 2]);
                uint8_t c = wl_int3(w, m, x, o1, GMS_REG_NONE);
                c = wl_int3(w, m, y, o2, c);
                int32_t v[32];
                WL_LANES(m, l) {
                    int indX = (int)trunc_d(s->d[AX][i[l]]) + s->objxy[yy * 2 + 1];
                    int indY = (int)trunc_d(s->d[AY][i[l]]) + s->objxy[yy * 2];
                    v[l] = abs((int)((uint32_t)indX * (uint32_t)s->Y * (uint32_t)s->Nfr + (uint32_t)indY * (uint32_t)s->Nfr + (uint32_t)kf));
                    a[l] = s->d_ind + 4 * (uint64_t)(i[l] * s->ones + yy);
                }
                wl_stg(w, m, a, ri[wi], c);
                WL_SH_ST(w, m, int32_t, v[l]);
                uint32_t big = 0;
                WL_LANES(m, l) if (v[l] >= s->maxs) big |= 1u << l;
                wl_pred(w, m, c, GMS_REG_NONE);
                if (big) {
                    wl_stg(w, big, a, ri[wi], GMS_REG_NONE);
                    WL_SH_ST(w, big, int32_t, 0);
                } else w->pc += 16;
                WL_LANES(m, l) s->ind[i[l] * s->ones + yy] = v[l] >= s->maxs ? 0 : v[l];
                wl_bra(w, m);
            }
            /* calcLikelihoodSum: ind[i*ones + x], I[ind] */
            uint8_t sum = GMS_REG_NONE;
            pc = w->pc;
            double lk[32];
            WL_LANES(m, l) lk[l] = 0.0;
            for (int64_t xx = 0; xx < s->ones; xx++) {
                w->pc = pc;
                WL_LANES(m, l) a[l] = s->d_ind + 4 * (uint64_t)(i[l] * s->ones + xx);
                uint8_t id = wl_ldg(w, m, a, ri[wi]);
                WL_SH_LD(w, m, int32_t, s->ind[i[l] * s->ones + xx]);
                WL_LANES(m, l) {
                    int32_t p = s->ind[i[l] * s->ones + xx];
                    a[l] = s->d_I + (uint64_t)p;
                    lk[l] += (pow((double)(s->I[p] - 100), 2) - pow((double)(s->I[p] - 228), 2)) / 50.0;
                }
                uint8_t b = wl_ld(w, m, GMS_MEM_LD_GLOBAL, 1, a, id);
                WL_SH_LD(w, m, uint8_t, s->I[s->ind[i[l] * s->ones + xx]]);
                b = wl_sfu(w, m, b);
                b = dp(w, m, b, b);
                sum = dp(w, m, b, sum);
                wl_bra(w, m);
            }
            WL_LANES(m, l) { a[l] = DA(LIK, i[l]); s->d[LIK][i[l]] = lk[l]; }
            wl_st(w, m, GMS_MEM_ST_GLOBAL, 8, a, ri[wi], sum);
            WL_SH_ST(w, m, double, lk[l]);
            uint8_t v = wl_ld(w, m, GMS_MEM_LD_GLOBAL, 8, a, ri[wi]);
            WL_SH_LD(w, m, double, lk[l]);
            v = dp(w, m, v, GMS_REG_NONE);
            WL_LANES(m, l) s->d[LIK][i[l]] = lk[l] / s->ones;
            wl_st(w, m, GMS_MEM_ST_GLOBAL, 8, a, ri[wi], v);
            WL_SH_ST(w, m, double, s->d[LIK][i[l]]);
            uint8_t e = wl_ld(w, m, GMS_MEM_LD_GLOBAL, 8, a, ri[wi]);
            WL_SH_LD(w, m, double, s->d[LIK][i[l]]);
            WL_LANES(m, l) a[l] = DA(WT, i[l]);
            uint8_t wt = wl_ld(w, m, GMS_MEM_LD_GLOBAL, 8, a, ri[wi]);
            WL_SH_LD(w, m, double, s->d[WT][i[l]]);
            e = wl_sfu(w, m, e);
            WL_LANES(m, l) s->d[WT][i[l]] = s->d[WT][i[l]] * exp(s->d[LIK][i[l]]);
            wl_st(w, m, GMS_MEM_ST_GLOBAL, 8, a, ri[wi], dp(w, m, wt, e));
            WL_SH_ST(w, m, double, s->d[WT][i[l]]);
        }
        /* buffer[tid] = 0; bar; buffer[tid] = weights[i]; bar */
        WL_LANES(w->live, l) a[l] = 8 * (uint64_t)w->tx[l];
        wl_st(w, w->live, GMS_MEM_ST_SHARED, 8, a, GMS_REG_NONE, GMS_REG_NONE);
        wl_bar(w);
        if (m) {
            WL_LANES(m, l) a[l] = DA(WT, i[l]);
            uint8_t v = wl_ld(w, m, GMS_MEM_LD_GLOBAL, 8, a, ri[wi]);
            WL_SH_LD(w, m, double, s->d[WT][i[l]]);
            WL_LANES(m, l) a[l] = 8 * (uint64_t)w->tx[l];
            wl_st(w, m, GMS_MEM_ST_SHARED, 8, a, GMS_REG_NONE, v);
        } else w->pc += 2 * 16;
        wl_bar(w);
    }
    for (int t = 0; t < TPB; t++) {
        int64_t i = (int64_t)block * TPB + t;
        buffer[t] = i < N ? s->d[WT][i] : 0.0;
    }
    for (uint32_t st = TPB / 2; st > 0; st >>= 1) {
        for (uint32_t wi = 0; wi < TPB / 32; wi++) {
            wl_warp *w = &W[wi];
            uint32_t m = 0;
            WL_LANES(w->live, l) if (w->tx[l] < st) m |= 1u << l;
            wl_pred(w, w->live, GMS_REG_NONE, GMS_REG_NONE);
            if (m) {
                WL_LANES(m, l) a[l] = 8 * (uint64_t)w->tx[l];
                uint8_t x = wl_ld(w, m, GMS_MEM_LD_SHARED, 8, a, GMS_REG_NONE);
                WL_LANES(m, l) a[l] = 8 * (uint64_t)(w->tx[l] + st);
                uint8_t y = wl_ld(w, m, GMS_MEM_LD_SHARED, 8, a, GMS_REG_NONE);
                WL_LANES(m, l) a[l] = 8 * (uint64_t)w->tx[l];
                wl_st(w, m, GMS_MEM_ST_SHARED, 8, a, GMS_REG_NONE, dp(w, m, x, y));
            } else w->pc += 4 * 16;
            wl_bar(w);
        }
        for (uint32_t t = 0; t < st; t++) buffer[t] += buffer[t + st];
    }
    for (uint32_t wi = 0; wi < TPB / 32; wi++) {
        wl_warp *w = &W[wi];
        if (wi == 0) {
            a[0] = 0;
            uint8_t v = wl_ld(w, 1u, GMS_MEM_LD_SHARED, 8, a, GMS_REG_NONE);
            a[0] = DA(PS, block);
            s->d[PS][block] = buffer[0];
            wl_st(w, 1u, GMS_MEM_ST_GLOBAL, 8, a, ri[0], v);
            WL_SH_ST(w, 1u, double, buffer[0]);
        } else w->pc += 2 * 16;
        wl_bar(w);
        wl_exit(w, w->live);
    }
    (void)err;
    return 0;
}

static int k_sum(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    pf2 *s = k->st;
    uint64_t a[32];
    for (uint32_t wi = 0; wi < TPB / 32; wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, k, block, wi);
        int64_t i[32];
        uint8_t ri;
        pro(&w, block, s->N, i, &ri);
        if (block == 0 && wi == 0) {
            double sum = 0.0;
            uint8_t r = wl_int(&w, 1u, GMS_REG_NONE, GMS_REG_NONE);
            uint32_t pc = w.pc;
            for (int64_t x = 0; x < s->nb; x++) {
                w.pc = pc;
                a[0] = DA(PS, x);
                uint8_t v = wl_ld(&w, 1u, GMS_MEM_LD_GLOBAL, 8, a, ri);
                WL_SH_LD(&w, 1u, double, s->d[PS][x]);
                sum += s->d[PS][x];
                r = dp(&w, 1u, v, r);
                wl_bra(&w, 1u);
            }
            w.pc = pc + 3 * 16;
            a[0] = DA(PS, 0);
            s->d[PS][0] = sum;
            wl_st(&w, 1u, GMS_MEM_ST_GLOBAL, 8, a, ri, r);
            WL_SH_ST(&w, 1u, double, sum);
        }
        wl_exit(&w, w.live);
    }
    (void)err;
    return 0;
}

static int k_norm(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    pf2 *s = k->st;
    int64_t N = s->N;
    uint64_t a[32];
    wl_warp W[TPB / 32];
    uint8_t ri[TPB / 32];
    uint32_t mk[TPB / 32];
    int64_t ii[TPB / 32][32];
    double sw = s->d[PS][0];
    for (uint32_t wi = 0; wi < TPB / 32; wi++) {
        wl_warp *w = &W[wi];
        wl_warp_begin(w, bt, k, block, wi);
        mk[wi] = pro(w, block, N, ii[wi], &ri[wi]);
        if (wi == 0) {
            a[0] = DA(PS, 0);
            uint8_t v = wl_ld(w, 1u, GMS_MEM_LD_GLOBAL, 8, a, ri[0]);
            WL_SH_LD(w, 1u, double, sw);
            a[0] = 0;
            wl_st(w, 1u, GMS_MEM_ST_SHARED, 8, a, GMS_REG_NONE, v);
        } else w->pc += 2 * 16;
        wl_bar(w);
    }
    for (uint32_t wi = 0; wi < TPB / 32; wi++) {
        wl_warp *w = &W[wi];
        uint32_t m = mk[wi];
        int64_t *i = ii[wi];
        if (m) {
            WL_LANES(m, l) a[l] = DA(WT, i[l]);
            uint8_t v = wl_ld(w, m, GMS_MEM_LD_GLOBAL, 8, a, ri[wi]);
            WL_SH_LD(w, m, double, s->d[WT][i[l]]);
            uint64_t z[32] = {0};
            uint8_t q = wl_ld(w, m, GMS_MEM_LD_SHARED, 8, z, GMS_REG_NONE);
            WL_LANES(m, l) s->d[WT][i[l]] = s->d[WT][i[l]] / sw;
            wl_st(w, m, GMS_MEM_ST_GLOBAL, 8, a, ri[wi], dp(w, m, v, q));
            WL_SH_ST(w, m, double, s->d[WT][i[l]]);
        } else w->pc += 4 * 16;
        wl_bar(w);
    }
    /* thread 0 of block 0: the CDF over every particle, then u[0] */
    {
        wl_warp *w = &W[0];
        if (block == 0) {
            double *cdf = s->d[CDF], *wt = s->d[WT];
            uint32_t pc = w->pc;
            for (int64_t x = 0; x < N; x++) {
                w->pc = pc;
                a[0] = DA(WT, x);
                uint8_t v = wl_ld(w, 1u, GMS_MEM_LD_GLOBAL, 8, a, ri[0]);
                WL_SH_LD(w, 1u, double, wt[x]);
                uint8_t c = GMS_REG_NONE;
                if (x) {
                    a[0] = DA(CDF, x - 1);
                    c = wl_ld(w, 1u, GMS_MEM_LD_GLOBAL, 8, a, ri[0]);
                    WL_SH_LD(w, 1u, double, cdf[x - 1]);
                } else w->pc += 16;
                cdf[x] = x ? wt[x] + cdf[x - 1] : wt[0];
                a[0] = DA(CDF, x);
                wl_st(w, 1u, GMS_MEM_ST_GLOBAL, 8, a, ri[0], dp(w, 1u, v, c));
                WL_SH_ST(w, 1u, double, cdf[x]);
                wl_bra(w, 1u);
            }
            w->pc = pc + 6 * 16;
            int32_t before[32];
            int64_t zero[32] = {0};
            double r = 0;
            {
                int32_t sd[1] = {s->seed[0]};
                r = randu_h(sd, 0);
            }
            uint8_t v = emit_randu(s, w, 1u, zero, ri[0], before);
            s->d[U][0] = (1 / ((double)N)) * r;
            a[0] = DA(U, 0);
            wl_st(w, 1u, GMS_MEM_ST_GLOBAL, 8, a, ri[0], v);
            WL_SH_ST(w, 1u, double, s->d[U][0]);
        }
    }
    double u1 = s->d[U][0];
    for (uint32_t wi = 0; wi < TPB / 32; wi++) {
        wl_warp *w = &W[wi];
        w->pc = 0x200;
        wl_bar(w);
        if (wi == 0) {
            a[0] = DA(U, 0);
            uint8_t v = wl_ld(w, 1u, GMS_MEM_LD_GLOBAL, 8, a, ri[0]);
            WL_SH_LD(w, 1u, double, u1);
            a[0] = 8;
            wl_st(w, 1u, GMS_MEM_ST_SHARED, 8, a, GMS_REG_NONE, v);
        } else w->pc += 2 * 16;
        wl_bar(w);
    }
    for (uint32_t wi = 0; wi < TPB / 32; wi++) {
        wl_warp *w = &W[wi];
        uint32_t m = mk[wi];
        int64_t *i = ii[wi];
        if (m) {
            uint64_t e8[32];
            for (int l = 0; l < 32; l++) e8[l] = 8;
            uint8_t v = wl_ld(w, m, GMS_MEM_LD_SHARED, 8, e8, GMS_REG_NONE);
            WL_LANES(m, l) { a[l] = DA(U, i[l]); s->d[U][i[l]] = u1 + i[l] / ((double)N); }
            wl_st(w, m, GMS_MEM_ST_GLOBAL, 8, a, ri[wi], dp(w, m, v, ri[wi]));
            WL_SH_ST(w, m, double, s->d[U][i[l]]);
        }
        wl_exit(w, w->live);
    }
    (void)err;
    return 0;
}

static int k_find(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    pf2 *s = k->st;
    int64_t N = s->N;
    uint64_t a[32];
    const double *cdf = s->d[CDF], *u = s->d[U];
    for (uint32_t wi = 0; wi < TPB / 32; wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, k, block, wi);
        int64_t i[32], idx[32];
        uint8_t ri;
        uint32_t m = pro(&w, block, N, i, &ri);
        wl_bra(&w, w.live);
        if (m) {
            WL_LANES(m, l) a[l] = DA(U, i[l]);
            uint8_t vu = wl_ld(&w, m, GMS_MEM_LD_GLOBAL, 8, a, ri);
            WL_SH_LD(&w, m, double, u[i[l]]);
            uint32_t search = m;
            WL_LANES(m, l) idx[l] = -1;
            uint32_t pc = w.pc;
            for (int64_t x = 0; x < N && search; x++) {
                w.pc = pc;
                WL_LANES(search, l) a[l] = DA(CDF, x);
                uint8_t c = wl_ld(&w, search, GMS_MEM_LD_GLOBAL, 8, a, ri);
                WL_SH_LD(&w, search, double, cdf[x]);
                gms_emit_alu(&w.e, wl_next_pc(&w), search, GMS_OP_DP, c, vu, GMS_REG_NONE);   /* DSETP */
                wl_bra(&w, search);
                WL_LANES(search, l) if (cdf[x] >= u[i[l]]) { idx[l] = x; search &= ~(1u << l); }
            }
            w.pc = pc + 3 * 16;
            WL_LANES(m, l) if (idx[l] == -1) idx[l] = N - 1;
            for (int q = 0; q < 2; q++) {
                int src = q ? AY : AX, dst = q ? YJ : XJ;
                WL_LANES(m, l) a[l] = DA(src, idx[l]);
                uint8_t v = wl_ld(&w, m, GMS_MEM_LD_GLOBAL, 8, a, ri);
                WL_SH_LD(&w, m, double, s->d[src][idx[l]]);
                WL_LANES(m, l) { a[l] = DA(dst, i[l]); s->d[dst][i[l]] = s->d[src][idx[l]]; }
                wl_st(&w, m, GMS_MEM_ST_GLOBAL, 8, a, ri, v);
                WL_SH_ST(&w, m, double, s->d[dst][i[l]]);
            }
        }
        w.pc = 0x100;
        wl_bar(&w);
        wl_exit(&w, w.live);
    }
    (void)err;
    return 0;
}

static uint64_t up(gms_program *p, const void *h, uint64_t bytes, const char *name, uint64_t d)
{
    if (!d) d = gms_prog_alloc(p, bytes, name);
    gms_prog_copy_h2d(p, d, bytes);
    wl_sh_init(p, d, h, bytes);
    return d;
}

static void init_state(pf2 *s)
{
    memcpy(s->seed, s->seed0, 4 * (uint64_t)s->N);
    double xe = trunc_d(s->Y / 2.0), ye = trunc_d(s->X / 2.0);
    for (int i = 0; i < NDB; i++) memset(s->d[i], 0, 8 * (uint64_t)s->N);
    for (int64_t x = 0; x < s->N; x++) {
        s->d[WT][x] = 1 / ((double)s->N);
        s->d[XJ][x] = xe;
        s->d[YJ][x] = ye;
    }
}

static int next(void *st, gms_program *p, gms_error *err)
{
    pf2 *s = st;
    if (s->rep == s->repeat) return 0;
    s->sh = p->shadow;
    uint64_t nb8 = 8 * (uint64_t)s->N;
    init_state(s);
    if (s->rep == 0) {
        for (int i = 0; i < NDB; i++) s->dd[i] = gms_prog_alloc(p, nb8, dnames[i]);
        s->d_I = gms_prog_alloc(p, (uint64_t)s->maxs, "I_GPU");
        s->d_obj = gms_prog_alloc(p, 8 * (uint64_t)s->ones, "objxy_GPU");
        s->d_ind = gms_prog_alloc(p, 4 * (uint64_t)(s->ones * s->N), "ind_GPU");
        s->d_seed = gms_prog_alloc(p, 4 * (uint64_t)s->N, "seed_GPU");
        wl_sh_init(p, s->dd[LIK], s->d[LIK], nb8);   /* the cudaMemset */
    }
    up(p, s->I, (uint64_t)s->maxs, "I_GPU", s->d_I);
    up(p, s->objxy, 8 * (uint64_t)s->ones, "objxy_GPU", s->d_obj);
    up(p, s->d[WT], nb8, "weights_GPU", s->dd[WT]);
    up(p, s->d[XJ], nb8, "xj_GPU", s->dd[XJ]);
    up(p, s->d[YJ], nb8, "yj_GPU", s->dd[YJ]);
    up(p, s->seed, 4 * (uint64_t)s->N, "seed_GPU", s->d_seed);
    gms_dim3 g = wl_dim3((uint32_t)s->nb, 1, 1), b = wl_dim3(TPB, 1, 1);
    for (int64_t k = 1; k < s->Nfr; k++) {
        wl_launch(p, "_Z17likelihood_kernelPdS_S_S_S_PiS0_S_PhS_S_iiiiiiS0_S_", g, b, 40, 8 * TPB, k_like, s, &k, 1);
        wl_launch(p, "_Z10sum_kernelPdi", g, b, 16, 0, k_sum, s, NULL, 0);
        wl_launch(p, "_Z24normalize_weights_kernelPdiS_S_S_Pi", g, b, 24, 16, k_norm, s, NULL, 0);
        wl_launch(p, "_Z17find_index_kernelPdS_S_S_S_S_S_i", g, b, 24, 0, k_find, s, NULL, 0);
    }
    gms_prog_sync(p);
    gms_prog_copy_d2h(p, s->dd[AX], nb8);
    gms_prog_copy_d2h(p, s->dd[AY], nb8);
    gms_prog_copy_d2h(p, s->dd[WT], nb8);
    s->rep++;
    (void)err;
    return 1;
}

/* the CPU reference: the four kernels' work in order, blocks in launch order */
static int verify(void *st, gms_error *err)
{
    pf2 *s = st;
    int64_t N = s->N, nb = s->nb;
    double *ax = wl_calloc((uint64_t)N, 8), *ay = wl_calloc((uint64_t)N, 8), *xj = wl_malloc((uint64_t)N, 8);
    double *yj = wl_malloc((uint64_t)N, 8), *w = wl_malloc((uint64_t)N, 8), *cdf = wl_calloc((uint64_t)N, 8);
    double *u = wl_calloc((uint64_t)N, 8), *ps = wl_calloc((uint64_t)N, 8);
    int32_t *seed = wl_malloc((uint64_t)N, 4);
    memcpy(seed, s->seed0, 4 * (uint64_t)N);
    double xe = trunc_d(s->Y / 2.0), ye = trunc_d(s->X / 2.0);
    for (int64_t x = 0; x < N; x++) { xj[x] = xe; yj[x] = ye; w[x] = 1 / ((double)N); }
    for (int64_t k = 1; k < s->Nfr; k++) {
        for (int64_t i = 0; i < N; i++) {
            ax[i] = xj[i] + 1.0 + 5.0 * randn_h(seed, i, PI_D);
            ay[i] = yj[i] - 2.0 + 2.0 * randn_h(seed, i, PI_D);
            double lk = 0;
            for (int y = 0; y < s->ones; y++) {
                int indX = (int)trunc_d(ax[i]) + s->objxy[y * 2 + 1], indY = (int)trunc_d(ay[i]) + s->objxy[y * 2];
                int32_t v = abs((int)((uint32_t)indX * (uint32_t)s->Y * (uint32_t)s->Nfr + (uint32_t)indY * (uint32_t)s->Nfr + (uint32_t)k));
                if (v >= s->maxs) v = 0;
                lk += (pow((double)(s->I[v] - 100), 2) - pow((double)(s->I[v] - 228), 2)) / 50.0;
            }
            w[i] = (1 / ((double)N)) * exp(lk / s->ones);
        }
        for (int64_t b = 0; b < nb; b++) {
            double buf[TPB];
            for (int t = 0; t < TPB; t++) buf[t] = b * TPB + t < N ? w[b * TPB + t] : 0.0;
            for (int st2 = TPB / 2; st2 > 0; st2 >>= 1)
                for (int t = 0; t < st2; t++) buf[t] += buf[t + st2];
            ps[b] = buf[0];
        }
        double sum = 0.0;
        for (int64_t b = 0; b < nb; b++) sum += ps[b];
        ps[0] = sum;
        for (int64_t b = 0; b < nb; b++) {
            for (int64_t i = b * TPB; i < N && i < (b + 1) * TPB; i++) w[i] = w[i] / sum;
            if (b == 0) {
                cdf[0] = w[0];
                for (int64_t x = 1; x < N; x++) cdf[x] = w[x] + cdf[x - 1];
                u[0] = (1 / ((double)N)) * randu_h(seed, 0);
            }
            for (int64_t i = b * TPB; i < N && i < (b + 1) * TPB; i++) u[i] = u[0] + i / ((double)N);
        }
        for (int64_t i = 0; i < N; i++) {
            int64_t index = -1;
            for (int64_t x = 0; x < N; x++)
                if (cdf[x] >= u[i]) { index = x; break; }
            if (index == -1) index = N - 1;
            xj[i] = ax[index];
            yj[i] = ay[index];
        }
    }
    int rc = 0;
    const double *want[3] = {ax, ay, w};
    const int which[3] = {AX, AY, WT};
    const char *nm[3] = {"arrayX", "arrayY", "weights"};
    for (int q = 0; q < 3 && !rc; q++) {
        void *own;
        const double *got = wl_result(s->sh, s->dd[which[q]], s->d[which[q]], (uint64_t)N, 8, &own);
        for (int64_t i = 0; i < N && !rc; i++)
            if (!(fabs(got[i] - want[q][i]) <= 1e-9 + 1e-9 * fabs(want[q][i])))
                rc = gms_err(err, "workload pfilter-rodinia: %s[%lld] = %.17g, CPU reference %.17g", nm[q], (long long)i,
                             got[i], want[q][i]);
        free(own);
    }
    free(ax); free(ay); free(xj); free(yj); free(w); free(cdf); free(u); free(ps); free(seed);
    return rc;
}

static void destroy(void *st)
{
    pf2 *s = st;
    if (!s) return;
    for (int i = 0; i < NDB; i++) free(s->d[i]);
    free(s->I); free(s->seed0); free(s->seed); free(s->ind); free(s);
}

const gms_workload_ops gms_wl_pfilter_rodinia = {
    .name = "pfilter-rodinia", .suite = "rodinia", .domain = "medical imaging", .ri = "-",
    .summary = "Rodinia particlefilter_float: likelihood, sum, normalize and find-index kernels per frame (PTF)",
    .params = params, .create = create, .next = next, .verify = verify, .destroy = destroy,
    .footprint = footprint,
};
