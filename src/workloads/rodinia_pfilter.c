/* PFILTER (Rodinia particlefilter, naive version as in UVMBench: `-x 128 -y 128 -z 10
 * -np 1000`): tracks a moving disk through a synthetic noisy video with a particle filter.
 * The host part (video generation with the suite's LCG and Box-Muller noise, motion model,
 * likelihoods, weights, CDF, the systematic-resampling offsets u) is reproduced exactly; per
 * frame the GPU runs
 *   kernel  128 threads, one particle each: linear search of the first CDF[x] >= u[i]
 *           (the warp loops in lock-step until its last lane has found its index), then
 *           xj[i] = arrayX[index], yj[i] = arrayY[index] (doubles)
 * with the copies of the non-UVM version (6 arrays H2D, xj/yj D2H per frame).
 * The suite seeds its LCG with time(0)*i; here seed[i] = seed*i (the run's seed). */
#include "workloads/wl_buf.h"
#include "workloads/wl_clamp.h"
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TPB 128
#define PI 3.1415926535897932

typedef struct pf {
    int64_t X, Y, Nfr, N;
    wl_pool *pool;         /* the wrapper's allocations across repetitions */
    int cpu;
    int64_t k;                   /* next frame */
    int32_t *seed, *I;
    double *objxy, *weights, *likelihood;
    int32_t *ind;
    int countOnes;
    double xe, ye;
    wl_buf ax, ay, xj, yj, cdf, u;
    int allocated, pending;
    wl_shadow *sh;         /* functional verify runs: xj, yj come back from it */
} pf;

static const gms_wl_param params[] = {
    {"x", "128", "frame width IszX (-x)"},
    {"y", "128", "frame height IszY (-y)"},
    {"z", "10", "number of frames Nfr (-z); one kernel per frame after the first"},
    {"np", "1000", "number of particles (-np)"},
    {"scale", "1", "multiplies np"},
    {"repeat", "1", "run the whole tracking N times from the same input"},
    {NULL, NULL, NULL},
};

/* ---------------------------------------------------------------- the suite's host code */
static double randu(int32_t *seed, int64_t index)
{
    int32_t num = (int32_t)(1103515245u * (uint32_t)seed[index] + 12345u);
    seed[index] = (int32_t)((long)num % (long)INT_MAX);
    return fabs(seed[index] / ((double)INT_MAX));
}

static double randn(int32_t *seed, int64_t index)
{
    double u = randu(seed, index), v = randu(seed, index);
    double cosine = cos(2 * PI * v), rt = -2 * log(u);
    return sqrt(rt) * cosine;
}

static double roundDouble(double v) { return (double)(int)v; }   /* `return newValue++` truncates */

static void dilate(int32_t *m, int posX, int posY, int posZ, int dimX, int dimY, int dimZ, int error)
{
    int sx = posX - error, sy = posY - error, ex = posX + error, ey = posY + error;
    if (sx < 0) sx = 0;
    if (sy < 0) sy = 0;
    if (ex > dimX) ex = dimX;
    if (ey > dimY) ey = dimY;
    for (int x = sx; x < ex; x++)
        for (int y = sy; y < ey; y++) {
            double d = sqrt(pow((double)(x - posX), 2) + pow((double)(y - posY), 2));
            if (d < error) m[(int64_t)x * dimY * dimZ + (int64_t)y * dimZ + posZ] = 1;
        }
}

static void video(pf *s)
{
    int X = (int)s->X, Y = (int)s->Y, Z = (int)s->Nfr;
    int64_t max = (int64_t)X * Y * Z;
    int32_t *I = s->I;
    int x0 = (int)roundDouble(Y / 2.0), y0 = (int)roundDouble(X / 2.0);
    I[(int64_t)x0 * Y * Z + (int64_t)y0 * Z] = 1;
    for (int k = 1; k < Z; k++) {
        int xk = abs(x0 + (k - 1)), yk = abs(y0 - 2 * (k - 1));
        int64_t pos = (int64_t)yk * Y * Z + (int64_t)xk * Z + k;
        if (pos >= max) pos = 0;
        I[pos] = 1;
    }
    int32_t *nm = gms_xcalloc((uint64_t)max, 4);
    for (int z = 0; z < Z; z++)
        for (int x = 0; x < X; x++)
            for (int y = 0; y < Y; y++)
                if (I[(int64_t)x * Y * Z + (int64_t)y * Z + z] == 1) dilate(nm, x, y, z, X, Y, Z, 5);
    memcpy(I, nm, 4 * (uint64_t)max);
    free(nm);
    for (int64_t i = 0; i < max; i++) I[i] = I[i] == 0 ? 100 : I[i];
    for (int64_t i = 0; i < max; i++) I[i] = I[i] == 1 ? 228 : I[i];
    for (int64_t i = 0; i < max; i++) I[i] = I[i] + (int)(5 * randn(s->seed, 0));
}

static pf *pf_new(int64_t X, int64_t Y, int64_t Z, int64_t N, uint64_t seedval, int cpu)
{
    pf *s = gms_xcalloc(1, sizeof *s);
    s->X = X; s->Y = Y; s->Nfr = Z; s->N = N; s->cpu = cpu;
    s->seed = gms_xmalloc(4 * (uint64_t)N);
    for (int64_t i = 0; i < N; i++) s->seed[i] = (int32_t)((uint32_t)seedval * (uint32_t)i);
    s->I = gms_xcalloc((uint64_t)(X * Y * Z), 4);
    video(s);
    /* strelDisk(radius 5) and getneighbors */
    int radius = 5, diameter = radius * 2 - 1;
    int disk[81] = {0};
    for (int x = 0; x < diameter; x++)
        for (int y = 0; y < diameter; y++) {
            double d = sqrt(pow((double)(x - radius + 1), 2) + pow((double)(y - radius + 1), 2));
            if (d < radius) disk[x * diameter + y] = 1;
        }
    for (int i = 0; i < diameter * diameter; i++) s->countOnes += disk[i] == 1;
    s->objxy = gms_xmalloc(sizeof(double) * 2 * (uint64_t)s->countOnes);
    int n = 0, center = radius - 1;
    for (int x = 0; x < diameter; x++)
        for (int y = 0; y < diameter; y++)
            if (disk[x * diameter + y]) {
                s->objxy[n * 2] = (int)(y - center);
                s->objxy[n * 2 + 1] = (int)(x - center);
                n++;
            }
    s->weights = gms_xmalloc(8 * (uint64_t)N);
    for (int64_t x = 0; x < N; x++) s->weights[x] = 1 / ((double)N);
    s->likelihood = gms_xmalloc(8 * (uint64_t)N);
    s->ind = gms_xmalloc(4 * (uint64_t)s->countOnes);
    wl_buf *b[] = {&s->ax, &s->ay, &s->xj, &s->yj, &s->cdf, &s->u};
    for (int i = 0; i < 6; i++) wl_buf_new(b[i], 8 * (uint64_t)N);
    s->xe = roundDouble(Y / 2.0);
    s->ye = roundDouble(X / 2.0);
    double *ax = s->ax.h, *ay = s->ay.h;
    for (int64_t x = 0; x < N; x++) { ax[x] = s->xe; ay[x] = s->ye; }
    s->k = 1;
    return s;
}

static void pf_free(pf *s)
{
    if (!s) return;
    free(s->seed); free(s->I); free(s->objxy); free(s->weights); free(s->likelihood); free(s->ind);
    wl_buf *b[] = {&s->ax, &s->ay, &s->xj, &s->yj, &s->cdf, &s->u};
    for (int i = 0; i < 6; i++) wl_buf_free(b[i]);
    free(s);
}

/* frame k up to the kernel: motion, likelihood, weights, CDF, u */
static void frame_pre(pf *s)
{
    int64_t N = s->N, k = s->k, max = s->X * s->Y * s->Nfr, Y = s->Y, Nfr = s->Nfr;
    double *ax = s->ax.h, *ay = s->ay.h, *cdf = s->cdf.h, *u = s->u.h, *w = s->weights;
    for (int64_t x = 0; x < N; x++) {
        ax[x] = ax[x] + 1.0 + 5.0 * randn(s->seed, x);
        ay[x] = ay[x] - 2.0 + 2.0 * randn(s->seed, x);
    }
    for (int64_t x = 0; x < N; x++) {
        for (int y = 0; y < s->countOnes; y++) {
            int indX = (int)(roundDouble(ax[x]) + s->objxy[y * 2 + 1]);
            int indY = (int)(roundDouble(ay[x]) + s->objxy[y * 2]);
            s->ind[y] = (int32_t)fabs((double)(indX * (int)Y * (int)Nfr + indY * (int)Nfr + (int)k));
            if (s->ind[y] >= max) s->ind[y] = 0;
        }
        double sum = 0.0;
        for (int y = 0; y < s->countOnes; y++)
            sum += (pow((double)(s->I[s->ind[y]] - 100), 2) - pow((double)(s->I[s->ind[y]] - 228), 2)) / 50.0;
        s->likelihood[x] = sum / s->countOnes;
    }
    for (int64_t x = 0; x < N; x++) w[x] = w[x] * exp(s->likelihood[x]);
    double sw = 0;
    for (int64_t x = 0; x < N; x++) sw += w[x];
    for (int64_t x = 0; x < N; x++) w[x] = w[x] / sw;
    s->xe = 0;
    s->ye = 0;
    for (int64_t x = 0; x < N; x++) { s->xe += ax[x] * w[x]; s->ye += ay[x] * w[x]; }
    cdf[0] = w[0];
    for (int64_t x = 1; x < N; x++) cdf[x] = w[x] + cdf[x - 1];
    double u1 = (1 / ((double)N)) * randu(s->seed, 0);
    for (int64_t x = 0; x < N; x++) u[x] = u1 + x / ((double)N);
}

static void frame_post(pf *s)
{
    double *ax = s->ax.h, *ay = s->ay.h, *xj = s->xj.h, *yj = s->yj.h;
    for (int64_t x = 0; x < s->N; x++) {
        ax[x] = xj[x];
        ay[x] = yj[x];
        s->weights[x] = 1 / ((double)s->N);
    }
    s->k++;
}

static void cpu_kernel(pf *s)
{
    const double *cdf = s->cdf.h, *u = s->u.h, *ax = s->ax.h, *ay = s->ay.h;
    double *xj = s->xj.h, *yj = s->yj.h;
    for (int64_t i = 0; i < s->N; i++) {
        int64_t index = -1;
        for (int64_t x = 0; x < s->N; x++)
            if (cdf[x] >= u[i]) { index = x; break; }
        if (index == -1) index = s->N - 1;
        xj[i] = ax[index];
        yj[i] = ay[index];
    }
}

static int k_find(const wl_kernel *k, uint64_t blk, gms_block_trace *out, gms_error *err)
{
    pf *s = k->st;
    wl_warp W[WL_MAXW];
    uint32_t nw = wl_block_begin(out, TPB, W);
    wl_warps_sh(W, nw, k);
    int64_t N = s->N;
    const double *cdf = s->cdf.h, *u = s->u.h, *ax = s->ax.h, *ay = s->ay.h;
    double *xj = s->xj.h, *yj = s->yj.h;
    uint64_t a[32];
    for (uint32_t w = 0; w < nw; w++) {
        wl_warp *x = &W[w];
        uint8_t ri, q;
        uint32_t m = wl_guard_1d(x, (uint64_t)blk * TPB, (uint64_t)N, &ri, &q);
        if (!m) { wl_exit_at(x, WL_PC_END, x->live); continue; }
        int64_t I[32], index[32];
        WL_TLANES(x, m, l, t) {
            I[l] = (int64_t)blk * TPB + t;
            index[l] = -1;
        }
        WL_TLANES(x, m, l, t) a[l] = s->u.d + 8 * (uint64_t)I[l];
        uint8_t vu = gms_emit_load(&x->e, 0x28, m, GMS_MEM_LD_GLOBAL, 8, a, ri);
        WL_SH_LD(x, m, double, u[I[l]]);
        uint32_t search = m;
        for (int64_t xx = 0; xx < N && search; xx++) {
            uint32_t found = 0;
            WL_TLANES(x, search, l, t) {
                a[l] = s->cdf.d + 8 * (uint64_t)xx;
                if (cdf[xx] >= u[I[l]]) { index[l] = xx; found |= 1u << l; }
            }
            uint8_t vc = gms_emit_load(&x->e, 0x30, search, GMS_MEM_LD_GLOBAL, 8, a, ri);
            WL_SH_LD(x, search, double, cdf[xx]);
            uint8_t p = gms_emit_alu(&x->e, 0x38, search, GMS_OP_DP, vc, vu, GMS_REG_NONE);   /* DSETP */
            wl_bra_at(x, 0x40, search, p);
            search &= ~found;
            uint8_t c = wl_int_at(x, 0x48, search, ri, GMS_REG_NONE);
            wl_bra_at(x, 0x50, search, c);
        }
        WL_TLANES(x, m, l, t) if (index[l] == -1) index[l] = N - 1;
        uint8_t r = wl_int_at(x, 0x58, m, ri, GMS_REG_NONE);
        for (int c = 0; c < 2; c++) {
            const wl_buf *src = c ? &s->ay : &s->ax, *dst = c ? &s->yj : &s->xj;
            WL_TLANES(x, m, l, t) {
                a[l] = src->d + 8 * (uint64_t)index[l];
                if (c) yj[I[l]] = ay[index[l]]; else xj[I[l]] = ax[index[l]];
            }
            uint8_t v = gms_emit_load(&x->e, 0x60 + 16 * (uint32_t)c, m, GMS_MEM_LD_GLOBAL, 8, a, r);
            WL_SH_LD(x, m, double, c ? ay[index[l]] : ax[index[l]]);
            WL_TLANES(x, m, l, t) a[l] = dst->d + 8 * (uint64_t)I[l];
            gms_emit_store(&x->e, 0x68 + 16 * (uint32_t)c, m, GMS_MEM_ST_GLOBAL, 8, a, ri, v);
            WL_SH_ST(x, m, double, c ? yj[I[l]] : xj[I[l]]);
        }
        wl_exit_at(x, WL_PC_END, x->live);
    }
    (void)err;
    return 0;
}

/* one frame per call: pushes its commands (1) or runs it on the CPU; 0 when all are done */
static int drive(pf *s, gms_program *p)
{
    if (s->pending) {   /* results of the previous frame's kernel */
        if (p && wl_shadow_active(s->sh)) {
            /* the D2H copies of xj, yj: in a functional verify run, what the kernel left at
             * their device addresses */
            wl_shadow_read(s->sh, s->xj.d, s->xj.h, s->xj.bytes);
            wl_shadow_read(s->sh, s->yj.d, s->yj.h, s->yj.bytes);
        }
        frame_post(s);
        s->pending = 0;
    }
    if (s->k >= s->Nfr) return 0;
    frame_pre(s);
    s->pending = 1;
    if (s->cpu) { cpu_kernel(s); return 1; }
    wl_buf *b[] = {&s->ax, &s->ay, &s->xj, &s->yj, &s->cdf, &s->u};
    static const char *const nm[] = {"arrayX_GPU", "arrayY_GPU", "xj_GPU", "yj_GPU", "CDF_GPU", "u_GPU"};
    if (!s->allocated) {
        for (int i = 0; i < 6; i++) wl_buf_alloc_in(p, s->pool, b[i], nm[i], 0);
        s->allocated = 1;
    }
    s->sh = p->shadow;
    for (int i = 0; i < 6; i++) wl_buf_upload(p, b[i]);
    wl_kernel k = {.st = s, .fill = k_find, .grid = {(uint32_t)((s->N + TPB - 1) / TPB), 1, 1}, .block = {TPB, 1, 1}};
    wl_launch_k(p, "kernel", &k, 24, 0);
    gms_prog_sync(p);
    gms_prog_copy_d2h(p, s->yj.d, s->yj.bytes);
    gms_prog_copy_d2h(p, s->xj.d, s->xj.bytes);
    return 1;
}

typedef struct pfw {
    pf *run;
    int64_t X, Y, Z, N;
    uint64_t seed;
    uint64_t repeat, rep;  /* repetitions asked for; the one running (from 0) */
    wl_pool pool;
} pfw;

static int sizes(const gms_wl_args *a, pfw *w, gms_error *err)
{
    uint64_t X, Y, Z, N;
    if (wl_param(a, "x", 1, 1 << 16, &X, err) || wl_param(a, "y", 1, 1 << 16, &Y, err) ||
        wl_param(a, "z", 1, 1 << 16, &Z, err) || wl_clamp_scaled(a, "pfilter", "np", 1, 0, 1ULL << 26, &N, err))
        return -1;
    if (X * Y * Z > (1ULL << 31) - 1)
        return gms_err(err, "workload pfilter: x*y*z = %llu overflows the suite's int indices",
                       (unsigned long long)(X * Y * Z));
    if (w) { w->X = (int64_t)X; w->Y = (int64_t)Y; w->Z = (int64_t)Z; w->N = (int64_t)N; }
    return 0;
}

static uint64_t footprint(const gms_wl_args *a)
{
    gms_error e;
    pfw w = {0};
    if (sizes(a, &w, &e)) return 0;
    return 6 * 8 * (uint64_t)w.N;
}

static int create(const gms_wl_args *a, void **out, gms_error *err)
{
    pfw t = {0};   /* repeat, rep and pool start zeroed */
    if (sizes(a, &t, err)) return -1;
    pfw *w = gms_xcalloc(1, sizeof *w);
    *w = t;
    w->seed = gms_wl_seed(a);
    if (wl_param(a, "repeat", 1, 1000000, &w->repeat, err)) {
        free(w);
        return -1;
    }
    w->run = pf_new(w->X, w->Y, w->Z, w->N, w->seed, 0);
    w->run->pool = &w->pool;
    *out = w;
    return 0;
}

static int drive_owner(void *o, gms_program *p, gms_error *err)
{
    (void)err;
    return drive(((pfw *)o)->run, p);
}

static void rebuild(void *o)
{
    pfw *w = o;
    pf_free(w->run);
    w->run = pf_new(w->X, w->Y, w->Z, w->N, w->seed, 0);
    w->run->pool = &w->pool;
}

static int next(void *st, gms_program *p, gms_error *err)
{
    pfw *w = st;
    return wl_rerun(w, &w->rep, w->repeat, &w->pool, drive_owner, rebuild, p, err);
}

static int verify(void *st, gms_error *err)
{
    pfw *w = st;
    pf *g = w->run, *r = pf_new(w->X, w->Y, w->Z, w->N, w->seed, 1);
    while (drive(r, NULL)) {}
    int rc = 0;
    if (g->k != r->k) rc = gms_err(err, "workload pfilter: %lld frames, reference %lld", (long long)g->k, (long long)r->k);
    const double *gx = g->ax.h, *gy = g->ay.h, *rx = r->ax.h, *ry = r->ay.h;
    for (int64_t i = 0; !rc && i < w->N; i++)
        if (gx[i] != rx[i] || gy[i] != ry[i])
            rc = gms_err(err, "workload pfilter: particle %lld at (%.17g, %.17g), reference (%.17g, %.17g)",
                         (long long)i, gx[i], gy[i], rx[i], ry[i]);
    if (!rc && (g->xe != r->xe || g->ye != r->ye))
        rc = gms_err(err, "workload pfilter: estimate (%g, %g), reference (%g, %g)", g->xe, g->ye, r->xe, r->ye);
    pf_free(r);
    return rc ? -1 : 0;
}

static void destroy(void *st)
{
    pfw *w = st;
    if (!w) return;
    pf_free(w->run);
    wl_pool_free(&w->pool);
    free(w);
}

const gms_workload_ops gms_wl_pfilter = {
    .name = "pfilter", .suite = "rodinia", .domain = "medical imaging", .ri = "R",
    .summary = "Particle filter (naive): per frame one kernel (128 threads) searching the CDF for each particle",
    .params = params, .create = create, .next = next, .verify = verify, .destroy = destroy,
    .footprint = footprint,
};
