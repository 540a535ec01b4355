/* lbm (Parboil, src/cuda/lbm_kernel.cu, performStreamCollide_kernel): a D3Q19 lattice-Boltzmann
 * time step, one thread per cell, block SIZE_X threads, grid (SIZE_Y, SIZE_Z); main.cu launches
 * it nTimeSteps times, swapping the two grids. Each thread reads its cell's 19 distributions
 * and its flags word (a "local" read: layout_config.h selects SCATTER), reflects them on an
 * obstacle cell or relaxes them toward equilibrium (OMEGA 1.95; an ACCEL cell's velocity is
 * forced to (0.005, 0.002, 0)), and writes each to the neighbour it streams to (x, y, z +- 1).
 * Layout: the CUDA version's structure of arrays, element e of cell (x, y, z) at
 * TOTAL_PADDED_CELLS*e + x + y*PADDED_X + z*PADDED_X*PADDED_Y, PADDED_X = SIZE_X + 8,
 * PADDED_Z = SIZE_Z + 4, each grid with a margin of two z-planes on both sides (the writes of
 * border cells land in the padding). Defaults: the 120 x 120 x 150 domain and the short
 * dataset's 100 steps; the obstacle file (120_120_150_ldc.of) becomes the lid-driven cavity
 * of LBM_initializeSpecialCellsForLDC (walls on every face, ACCEL on the z = 1 and SIZE_Z-2
 * planes' interior) plus random interior obstacle cells with probability `obstacles`. */
#include "workloads/parboil_util.h"
#include "workloads/wl_util_poly.h"
#include <stdlib.h>
#include <string.h>

enum { SRC, DST };
enum { SX, SY, SZ, STEPS, OBST_PPM };
enum { C = 0, N, S, E, W, T, B, NE, NW, SE, SW, NT, NB, ST, SB, ET, EB, WT, WB, FLAGS, NCELL };
enum { OBSTACLE = 1, ACCEL = 2 };
#define OMEGA 1.95f
#define DFL1 (1.0f / 3.0f)
#define DFL2 (1.0f / 18.0f)
#define DFL3 (1.0f / 36.0f)

static const int dx[19] = { 0, 0, 0, 1, -1, 0, 0, 1, -1, 1, -1, 0, 0, 0, 0, 1, 1, -1, -1 };
static const int dy[19] = { 0, 1, -1, 0, 0, 0, 0, 1, 1, -1, -1, 1, 1, -1, -1, 0, 0, 0, 0 };
static const int dz[19] = { 0, 0, 0, 0, 0, 1, -1, 0, 0, 0, 0, 1, -1, 1, -1, 1, -1, 1, -1 };

static const gms_wl_param params[] = {
    { "sx", "120", "cells in x (= threads per block, at most 1024; Parboil: 120)" },
    { "sy", "120", "cells in y (Parboil: 120)" },
    { "sz", "150", "cells in z (Parboil: 150)" },
    { "steps", "100", "time steps (short dataset 100, long 3000)" },
    { "obstacles", "20000", "interior obstacle cells per million (the obstacle file's shape becomes random cells)" },
    { "scale", "1", "multiplies sx, sy, sz (not steps)" },
    { "repeat", "1", "run the steps this many times (the simulation continues)" },
    { NULL, NULL, NULL },
};

static int sizes(const gms_wl_args *a, uint64_t *d, gms_error *err)
{
    if (wl_clamp_scaled(a, "lbm", "sx", 1, 3, 1024, &d[SX], err) || wl_clamp_scaled(a, "lbm", "sy", 1, 3, 65535, &d[SY], err) ||
        wl_clamp_scaled(a, "lbm", "sz", 1, 3, 65535, &d[SZ], err) || gms_wl_check_range(a, "steps", 1, 1000000, err) ||
        gms_wl_check_range(a, "obstacles", 0, 1000000, err))
        return -1;
    d[STEPS] = gms_wl_u64(a, "steps");
    d[OBST_PPM] = gms_wl_u64(a, "obstacles");
    return 0;
}

static uint64_t px(const uint64_t *d) { return d[SX] + 8; }
static uint64_t cells(const uint64_t *d) { return px(d) * d[SY] * (d[SZ] + 4); }   /* TOTAL_PADDED_CELLS */
static uint64_t margin(const uint64_t *d) { return 2 * px(d) * d[SY]; }            /* two z planes */
static uint64_t elems(const uint64_t *d, int k) { (void)k; return cells(d) * NCELL + 2 * margin(d); }

/* index (in floats, from the allocation's start) of element e of cell (x, y, z) */
static uint64_t idx(const uint64_t *d, int64_t x, int64_t y, int64_t z, int e)
{
    return (uint64_t)((int64_t)margin(d) + (int64_t)cells(d) * e + x + y * (int64_t)px(d) +
                      z * (int64_t)(px(d) * d[SY]));
}

static float bits_f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t f_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

static void init(const pbl_state *s, void **h)
{
    const uint64_t *d = s->dim;
    gms_rng r;
    gms_rng_seed(&r, s->seed);
    uint32_t *flag = wl_malloc(d[SX] * d[SY] * d[SZ], sizeof *flag);
    for (uint64_t z = 0; z < d[SZ]; z++)
        for (uint64_t y = 0; y < d[SY]; y++)
            for (uint64_t x = 0; x < d[SX]; x++) {
                uint32_t f = 0;
                if (x == 0 || x == d[SX] - 1 || y == 0 || y == d[SY] - 1 || z == 0 || z == d[SZ] - 1)
                    f = OBSTACLE;
                else if ((z == 1 || z == d[SZ] - 2) && x > 1 && x < d[SX] - 2 && y > 1 && y < d[SY] - 2)
                    f = ACCEL;
                else if (gms_rng_below(&r, 1000000) < d[OBST_PPM])
                    f = OBSTACLE;
                flag[(z * d[SY] + y) * d[SX] + x] = f;
            }
    /* LBM_initializeGrid (equilibrium at rest) and the flags, in both grids (element by
     * element: each element's plane is written in order) */
    for (int g = 0; g < 2; g++) {
        float *G = h[g];
        for (int e = 0; e <= FLAGS; e++) {
            float *P = G + idx(d, 0, 0, 0, e);
            const float v = e == C ? DFL1 : e <= B ? DFL2 : DFL3;
            for (uint64_t z = 0; z < d[SZ]; z++)
                for (uint64_t y = 0; y < d[SY]; y++) {
                    float *row = P + (y + z * d[SY]) * px(d);
                    const uint32_t *fr = flag + (z * d[SY] + y) * d[SX];
                    if (e == FLAGS)
                        for (uint64_t x = 0; x < d[SX]; x++) row[x] = bits_f(fr[x]);
                    else
                        for (uint64_t x = 0; x < d[SX]; x++) row[x] = v;
                }
        }
    }
    free(flag);
}

/* the kernel's arithmetic for one cell (shared by the emitting model and the reference) */
static void collide(float *f, uint32_t flags)
{
    float t;
    if (flags & OBSTACLE) {
        static const int sw[9][2] = { { N, S }, { E, W }, { T, B }, { NE, SW }, { NW, SE }, { NT, SB }, { NB, ST },
                                      { ET, WB }, { EB, WT } };
        for (int i = 0; i < 9; i++) { t = f[sw[i][0]]; f[sw[i][0]] = f[sw[i][1]]; f[sw[i][1]] = t; }
        return;
    }
    float rho = f[C] + f[N] + f[S] + f[E] + f[W] + f[T] + f[B] + f[NE] + f[NW] + f[SE] + f[SW] + f[NT] + f[NB] +
                f[ST] + f[SB] + f[ET] + f[EB] + f[WT] + f[WB];
    float ux = +f[E] - f[W] + f[NE] - f[NW] + f[SE] - f[SW] + f[ET] + f[EB] - f[WT] - f[WB];
    float uy = +f[N] - f[S] + f[NE] + f[NW] - f[SE] - f[SW] + f[NT] + f[NB] - f[ST] - f[SB];
    float uz = +f[T] - f[B] + f[NT] - f[NB] + f[ST] - f[SB] + f[ET] - f[EB] + f[WT] - f[WB];
    ux /= rho;
    uy /= rho;
    uz /= rho;
    if (flags & ACCEL) { ux = 0.005f; uy = 0.002f; uz = 0.000f; }
    float u2 = 1.5f * (ux * ux + uy * uy + uz * uz) - 1.0f;
    float base = OMEGA * rho, t2 = 1.0f - OMEGA, t1 = DFL1 * base;
    f[C] = t2 * f[C] + t1 * (-u2);
    t1 = DFL2 * base;
    f[N] = t2 * f[N] + t1 * (uy * (4.5f * uy + 3.0f) - u2);
    f[S] = t2 * f[S] + t1 * (uy * (4.5f * uy - 3.0f) - u2);
    f[T] = t2 * f[T] + t1 * (uz * (4.5f * uz + 3.0f) - u2);
    f[B] = t2 * f[B] + t1 * (uz * (4.5f * uz - 3.0f) - u2);
    f[E] = t2 * f[E] + t1 * (ux * (4.5f * ux + 3.0f) - u2);
    f[W] = t2 * f[W] + t1 * (ux * (4.5f * ux - 3.0f) - u2);
    t1 = DFL3 * base;
    f[NT] = t2 * f[NT] + t1 * ((+uy + uz) * (4.5f * (+uy + uz) + 3.0f) - u2);
    f[NB] = t2 * f[NB] + t1 * ((+uy - uz) * (4.5f * (+uy - uz) + 3.0f) - u2);
    f[ST] = t2 * f[ST] + t1 * ((-uy + uz) * (4.5f * (-uy + uz) + 3.0f) - u2);
    f[SB] = t2 * f[SB] + t1 * ((-uy - uz) * (4.5f * (-uy - uz) + 3.0f) - u2);
    f[NE] = t2 * f[NE] + t1 * ((+ux + uy) * (4.5f * (+ux + uy) + 3.0f) - u2);
    f[SE] = t2 * f[SE] + t1 * ((+ux - uy) * (4.5f * (+ux - uy) + 3.0f) - u2);
    f[ET] = t2 * f[ET] + t1 * ((+ux + uz) * (4.5f * (+ux + uz) + 3.0f) - u2);
    f[EB] = t2 * f[EB] + t1 * ((+ux - uz) * (4.5f * (+ux - uz) + 3.0f) - u2);
    f[NW] = t2 * f[NW] + t1 * ((-ux + uy) * (4.5f * (-ux + uy) + 3.0f) - u2);
    f[SW] = t2 * f[SW] + t1 * ((-ux - uy) * (4.5f * (-ux - uy) + 3.0f) - u2);
    f[WT] = t2 * f[WT] + t1 * ((-ux + uz) * (4.5f * (-ux + uz) + 3.0f) - u2);
    f[WB] = t2 * f[WB] + t1 * ((-ux - uz) * (4.5f * (-ux - uz) + 3.0f) - u2);
}

static int fill(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    pbl_state *s = k->st;
    const uint64_t *d = s->dim;
    const int src = (int)k->arg[0], dst = 1 - src;
    const float *G = s->h[src];
    float *D = s->h[dst];
    const int64_t y = (int64_t)(block % d[SY]), z = (int64_t)(block / d[SY]);
    const uint64_t cl = cells(d);
    const int64_t row = (int64_t)idx(d, 0, y, z, 0);
    int64_t doff[19];   /* element e's destination: idx(x + dx, y + dy, z + dz, e) = b + doff[e] */
    for (int e = 0; e < 19; e++) doff[e] = (int64_t)idx(d, dx[e], y + dy[e], z + dz[e], e) - row;
    for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, k, block, wi);
        uint32_t m = w.live;
        float f[32][19];
        uint32_t fl[32];
        uint64_t ad[32];
        uint8_t tx = wl_int(&w, m, GMS_REG_NONE, GMS_REG_NONE);        /* S2R tid.x */
        uint8_t by = wl_int(&w, m, GMS_REG_NONE, GMS_REG_NONE);        /* S2R ctaid.x */
        uint8_t bz = wl_int(&w, m, GMS_REG_NONE, GMS_REG_NONE);        /* S2R ctaid.y */
        uint8_t ci = wl_int3(&w, m, tx, by, bz);                        /* IMAD cell index */
        uint8_t ps = wl_int(&w, m, ci, GMS_REG_NONE);                   /* IMAD.WIDE src */
        uint8_t pd = wl_int(&w, m, ci, GMS_REG_NONE);                   /* IMAD.WIDE dst */
        uint8_t rf[19];
        uint64_t b[32];   /* each lane's cell: idx(x, y, z, e) = b + cells * e */
        WL_LANES(m, l) b[l] = (uint64_t)(row + (int64_t)w.tx[l]);
        for (int e = 0; e <= FLAGS; e++) {
            const uint64_t eo = cl * (uint64_t)e;
            WL_LANES(m, l) ad[l] = s->d[src] + 4 * (b[l] + eo);
            uint8_t r = wl_ldg(&w, m, ad, ps);
            if (e < FLAGS) {
                WL_LANES(m, l) f[l][e] = G[b[l] + eo];
                WL_SH_LD(&w, m, float, f[l][e]);
                rf[e] = r;
            } else {
                WL_LANES(m, l) fl[l] = f_bits(G[b[l] + eo]);
                WL_SH_LD(&w, m, float, bits_f(fl[l]));
                rf[0] = wl_int(&w, m, r, GMS_REG_NONE);                 /* LOP3 flags & OBSTACLE */
            }
        }
        uint32_t fluid = 0;
        WL_LANES(m, l) {
            if (!(fl[l] & OBSTACLE)) fluid |= 1u << l;
            collide(f[l], fl[l]);
        }
        wl_pred(&w, m, rf[0], GMS_REG_NONE);                            /* ISETP */
        wl_bra(&w, m & ~fluid);                                         /* obstacle lanes: swizzle */
        if (fluid) {
            uint8_t rho = rf[1], v[3] = { rf[3], rf[1], rf[5] };
            for (int i = 0; i < 18; i++) rho = wl_fp(&w, fluid, rho, rf[i % 19], GMS_REG_NONE);   /* rho */
            for (int c = 0; c < 3; c++) {
                for (int i = 0; i < 9; i++) v[c] = wl_fp(&w, fluid, v[c], rf[(i + c) % 19], GMS_REG_NONE);
                v[c] = wl_fdiv(&w, fluid, v[c], rho);                   /* u /= rho */
            }
            uint8_t a = wl_int(&w, fluid, rf[0], GMS_REG_NONE);         /* LOP3 & ACCEL */
            wl_pred(&w, fluid, a, GMS_REG_NONE);
            for (int c = 0; c < 3; c++) v[c] = wl_int(&w, fluid, v[c], GMS_REG_NONE);   /* FSEL */
            uint8_t u2 = wl_fp(&w, fluid, v[0], v[0], GMS_REG_NONE);
            u2 = wl_fp(&w, fluid, v[1], v[1], u2);
            u2 = wl_fp(&w, fluid, v[2], v[2], u2);
            u2 = wl_fp(&w, fluid, u2, GMS_REG_NONE, GMS_REG_NONE);      /* 1.5*x - 1 */
            uint8_t base = wl_fp(&w, fluid, rho, GMS_REG_NONE, GMS_REG_NONE);
            uint8_t t1 = wl_fp(&w, fluid, base, GMS_REG_NONE, GMS_REG_NONE);
            rf[C] = wl_fp(&w, fluid, rf[C], GMS_REG_NONE, GMS_REG_NONE);
            rf[C] = wl_fp(&w, fluid, t1, u2, rf[C]);
            for (int e = 1; e < 19; e++) {
                if (e == 1 || e == 7) t1 = wl_fp(&w, fluid, base, GMS_REG_NONE, GMS_REG_NONE);   /* DFL2/3*base */
                uint8_t u = e < 7 ? v[(e - 1) / 2 % 3] : wl_fp(&w, fluid, v[e % 3], v[(e + 1) % 3], GMS_REG_NONE);
                uint8_t q = wl_fp(&w, fluid, u, GMS_REG_NONE, GMS_REG_NONE);   /* 4.5u +- 3 */
                q = wl_fp(&w, fluid, u, q, u2);                                 /* u*q - u2 */
                uint8_t o = wl_fp(&w, fluid, rf[e], GMS_REG_NONE, GMS_REG_NONE); /* temp2*f */
                rf[e] = wl_fp(&w, fluid, t1, q, o);                             /* + temp1*q */
            }
        }
        for (int e = 0; e < 19; e++) {
            WL_LANES(m, l) ad[l] = s->d[dst] + 4 * (b[l] + (uint64_t)doff[e]);
            wl_stg(&w, m, ad, pd, rf[e]);
            WL_SH_ST(&w, m, float, f[l][e]);
        }
        WL_LANES(m, l) for (int e = 0; e < 19; e++) D[b[l] + (uint64_t)doff[e]] = f[l][e];
        wl_exit(&w, m);
    }
    return 0;
}

static void launch(pbl_state *s, gms_program *p, uint64_t rep)
{
    /* the grids swap every step; a repetition continues from where the last one left them */
    for (uint64_t t = 0; t < s->dim[STEPS]; t++) {
        int64_t src = (int64_t)((rep * s->dim[STEPS] + t) & 1);
        wl_launch(p, "_Z27performStreamCollide_kernelPfS_", wl_dim3((uint32_t)s->dim[SY], (uint32_t)s->dim[SZ], 1),
                  wl_dim3((uint32_t)s->dim[SX], 1, 1), 40, 0, fill, s, &src, 1);
    }
}

static void cpu(const pbl_state *s, void **h, uint64_t rep)
{
    const uint64_t *d = s->dim;
    float f[19];
    for (uint64_t t = 0; t < d[STEPS]; t++) {
        int src = (int)((rep * d[STEPS] + t) & 1);
        const float *G = h[src];
        float *D = h[1 - src];
        const uint64_t cl = cells(d);
        for (int64_t z = 0; z < (int64_t)d[SZ]; z++)
            for (int64_t y = 0; y < (int64_t)d[SY]; y++) {
                const int64_t row = (int64_t)idx(d, 0, y, z, 0);
                int64_t doff[19];
                for (int e = 0; e < 19; e++) doff[e] = (int64_t)idx(d, dx[e], y + dy[e], z + dz[e], e) - row;
                for (int64_t x = 0; x < (int64_t)d[SX]; x++) {
                    const uint64_t b = (uint64_t)(row + x);
                    for (int e = 0; e < 19; e++) f[e] = G[b + cl * (uint64_t)e];
                    collide(f, f_bits(G[b + cl * FLAGS]));
                    for (int e = 0; e < 19; e++) D[b + (uint64_t)doff[e]] = f[e];
                }
            }
    }
}

static const pbl_def def = {
    .name = "lbm",
    .arrs = { { "srcGrid", 1, 1, 1, PBL_F32 }, { "dstGrid", 1, 1, 1, PBL_F32 } },
    .sizes = sizes, .elems = elems, .init = init, .launch = launch, .cpu = cpu,
    .rtol = 0, .atol = 0,
};

PBL_WORKLOAD(lbm, "lbm", def, params, "fluid dynamics", "R",
             "D3Q19 lattice-Boltzmann stream-collide, one thread per cell, 20 reads and 19 neighbour writes per cell");
