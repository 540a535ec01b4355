/* stencil (Parboil, src/cuda/kernel.cu, block2D_hybrid_coarsen_x): a 7-point Jacobi stencil
 * on an nx x ny x nz grid, `iters` launches ping-ponging A0 and Anext (main.cu uploads the
 * input to both, so the borders, never written, keep it). Block 32 x 4 threads, each thread
 * coarsened over two x columns i = blockIdx.x*64 + tx and i2 = i + 32; grid (ceil(nx/64),
 * ceil(ny/4)); shared memory holds the current xy plane of the block (64 x 4 floats) and the
 * threads march along z, keeping the planes below and above in registers:
 *   for (k = 1; k < nz-1; k++) { top = A0[i, j, k+1];
 *     if (interior) Anext[i, j, k] = (top + bottom + up + down + right + left)*c1 - centre*c0;
 *     (the same for i2); __syncthreads(); bottom = sh[me]; sh[me] = top; __syncthreads(); }
 * up / down come from global memory in the block's edge rows (ty = 3 / ty = 0), left of the
 * first column from global memory in lane 0 and right of the second in lane 31, the rest from
 * shared memory. c0 = 1/6, c1 = 1/36. Defaults: the default dataset, 512 x 512 x 64 and 100
 * iterations; its input file becomes uniform random floats in [0, 1). */
#include "workloads/parboil_util.h"
#include <math.h>

enum { A0_, A1_ };
enum { NX, NY, NZ, ITERS };
#define C0 (1.0f / 6.0f)
#define C1 (1.0f / 6.0f / 6.0f)

static const gms_wl_param params[] = {
    { "nx", "512", "grid x (default dataset 512)" },
    { "ny", "512", "grid y (512)" },
    { "nz", "64", "grid z (64)" },
    { "iters", "100", "iterations = kernel launches (100)" },
    { "scale", "1", "multiplies nx, ny, nz (not iters)" },
    { "repeat", "1", "run the iterations this many times (the Jacobi sweep continues)" },
    { NULL, NULL, NULL },
};

static int sizes(const gms_wl_args *a, uint64_t *d, gms_error *err)
{
    if (wl_clamp_scaled(a, "stencil", "nx", 1, 3, 1u << 20, &d[NX], err) ||
        wl_clamp_scaled(a, "stencil", "ny", 1, 3, 1u << 18, &d[NY], err) ||
        wl_clamp_scaled(a, "stencil", "nz", 1, 3, 1u << 20, &d[NZ], err) || gms_wl_check_range(a, "iters", 1, 1000000, err))
        return -1;
    d[ITERS] = gms_wl_u64(a, "iters");
    return 0;
}

static uint64_t elems(const uint64_t *d, int k) { (void)k; return d[NX] * d[NY] * d[NZ]; }

static void init(const pbl_state *s, void **h)
{
    gms_rng r;
    gms_rng_seed(&r, s->seed);
    float *a = h[A0_], *b = h[A1_];
    for (uint64_t i = 0; i < s->n[A0_]; i++) a[i] = b[i] = wl_randf(&r);
}

static inline uint64_t ix3(const uint64_t *d, int64_t i, int64_t j, int64_t k)
{
    return (uint64_t)(i + (int64_t)d[NX] * (j + (int64_t)d[NY] * k));
}

static inline float point(const uint64_t *d, const float *A, int64_t i, int64_t j, int64_t k)
{
    float sum = A[ix3(d, i, j, k + 1)] + A[ix3(d, i, j, k - 1)];
    sum += A[ix3(d, i, j + 1, k)];
    sum += A[ix3(d, i, j - 1, k)];
    sum += A[ix3(d, i + 1, j, k)];
    sum += A[ix3(d, i - 1, j, k)];
    return PBL_MAD(sum, C1, -(A[ix3(d, i, j, k)] * C0));
}

static int fill(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    pbl_state *s = k->st;
    const uint64_t *d = s->dim;
    const int src = (int)k->arg[0];
    const float *A = s->h[src];
    float *An = s->h[1 - src];
    const uint64_t dA = s->d[src], dN = s->d[1 - src];
    const int64_t nx = (int64_t)d[NX], ny = (int64_t)d[NY], nz = (int64_t)d[NZ];
    for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, k, block, wi);
        const int64_t j = (int64_t)w.by * 4 + wi, ty = wi;
        int64_t ii[2][32];
        uint32_t in[2] = { 0, 0 }, wr[2] = { 0, 0 };
        uint64_t ad[32];
        for (int h = 0; h < 2; h++)
            for (int l = 0; l < 32; l++) {
                ii[h][l] = (int64_t)w.bx * 64 + l + 32 * h;
                if (ii[h][l] < nx && j < ny) in[h] |= 1u << l;
                if ((h || ii[h][l] > 0) && j > 0 && ii[h][l] < nx - 1 && j < ny - 1) wr[h] |= 1u << l;
            }
        /* prologue: indices, sh[me] = sh[me2] = 0, BAR, the regions' predicates */
        for (int q = 0; q < 8; q++) wl_int(&w, w.live, GMS_REG_NONE, GMS_REG_NONE);
        uint8_t pa = wl_int(&w, w.live, GMS_REG_NONE, GMS_REG_NONE), pn = wl_int(&w, w.live, pa, GMS_REG_NONE);
        uint64_t sh[2][32];
        for (int h = 0; h < 2; h++) {
            WL_LANES(w.live, l) sh[h][l] = (uint64_t)(l + 32 * h + ty * 64) * 4;
            wl_st(&w, w.live, GMS_MEM_ST_SHARED, 4, sh[h], GMS_REG_NONE, GMS_REG_NONE);
        }
        wl_bar(&w);
        for (int q = 0; q < 6; q++) wl_pred(&w, w.live, GMS_REG_NONE, GMS_REG_NONE);
        uint8_t bot[2], cur[2];
        for (int h = 0; h < 2; h++) {
            WL_LANES(in[h], l) ad[l] = dA + 4 * ix3(d, ii[h][l], j, 0);
            bot[h] = wl_ldg(&w, in[h], ad, pa);
            WL_SH_LD(&w, in[h], float, A[ix3(d, ii[h][l], j, 0)]);
            WL_LANES(in[h], l) ad[l] = dA + 4 * ix3(d, ii[h][l], j, 1);
            cur[h] = wl_ldg(&w, in[h], ad, pa);
            WL_SH_LD(&w, in[h], float, A[ix3(d, ii[h][l], j, 1)]);
            wl_st(&w, in[h], GMS_MEM_ST_SHARED, 4, sh[h], GMS_REG_NONE, cur[h]);
        }
        wl_bar(&w);
        uint8_t ctr = wl_int(&w, w.live, GMS_REG_NONE, GMS_REG_NONE);
        uint32_t top = w.pc;
        for (int64_t kk = 1; kk < nz - 1; kk++) {
            w.pc = top;
            uint8_t tp[2] = { GMS_REG_NONE, GMS_REG_NONE };
            for (int h = 0; h < 2; h++) {
                WL_LANES(in[h], l) ad[l] = dA + 4 * ix3(d, ii[h][l], j, kk + 1);
                tp[h] = wl_ldg(&w, in[h], ad, pa);                                  /* top */
                WL_SH_LD(&w, in[h], float, A[ix3(d, ii[h][l], j, kk + 1)]);
                uint32_t m = wr[h];
                wl_pred(&w, w.live, GMS_REG_NONE, GMS_REG_NONE);                    /* w_region */
                wl_bra(&w, w.live & ~m);
                if (!m) continue;
                uint8_t v[4];
                /* up (global in the block's last row), down (global in its first row) */
                for (int q = 0; q < 2; q++) {
                    int64_t jj = q == 0 ? j + 1 : j - 1;
                    int glob = q == 0 ? ty == 3 : ty == 0;
                    if (glob) {
                        WL_LANES(m, l) ad[l] = dA + 4 * ix3(d, ii[h][l], jj, kk);
                        v[q] = wl_ldg(&w, m, ad, pa);
                        WL_SH_LD(&w, m, float, A[ix3(d, ii[h][l], jj, kk)]);
                    } else {
                        WL_LANES(m, l) ad[l] = sh[h][l] + (q == 0 ? 256u : (uint64_t)-256);
                        v[q] = wl_ld(&w, m, GMS_MEM_LD_SHARED, 4, ad, GMS_REG_NONE);
                    }
                }
                /* the outer x neighbour: global in lane 0 (first column's left) or lane 31
                 * (second column's right), shared memory in the others; the inner one shared */
                uint32_t edge = m & (h == 0 ? 1u : 1u << 31);
                int64_t ox = h == 0 ? -1 : 1;
                if (edge) {
                    WL_LANES(edge, l) ad[l] = dA + 4 * ix3(d, ii[h][l] + ox, j, kk);
                    wl_ldg(&w, edge, ad, pa);
                    WL_SH_LD(&w, edge, float, A[ix3(d, ii[h][l] + ox, j, kk)]);
                }
                WL_LANES(m & ~edge, l) ad[l] = sh[h][l] + (uint64_t)(ox * 4);
                if (m & ~edge) v[2] = wl_ld(&w, m & ~edge, GMS_MEM_LD_SHARED, 4, ad, GMS_REG_NONE);
                WL_LANES(m, l) ad[l] = sh[h][l] - (uint64_t)(ox * 4);
                v[3] = wl_ld(&w, m, GMS_MEM_LD_SHARED, 4, ad, GMS_REG_NONE);         /* inner */
                uint8_t c = wl_ld(&w, m, GMS_MEM_LD_SHARED, 4, sh[h], GMS_REG_NONE);  /* centre */
                uint8_t sum = wl_fp(&w, m, tp[h], bot[h], GMS_REG_NONE);
                for (int q = 0; q < 4; q++) sum = wl_fp(&w, m, sum, v[q], GMS_REG_NONE);
                uint8_t cc = wl_fp(&w, m, c, GMS_REG_NONE, GMS_REG_NONE);            /* centre*c0 */
                uint8_t r = wl_fp(&w, m, sum, cc, GMS_REG_NONE);                      /* FFMA */
                WL_LANES(m, l) {
                    ad[l] = dN + 4 * ix3(d, ii[h][l], j, kk);
                    An[ix3(d, ii[h][l], j, kk)] = point(d, A, ii[h][l], j, kk);
                }
                wl_stg(&w, m, ad, pn, r);
                WL_SH_ST(&w, m, float, An[ix3(d, ii[h][l], j, kk)]);
            }
            wl_bar(&w);
            for (int h = 0; h < 2; h++) {
                bot[h] = wl_ld(&w, w.live, GMS_MEM_LD_SHARED, 4, sh[h], GMS_REG_NONE);
                wl_st(&w, w.live, GMS_MEM_ST_SHARED, 4, sh[h], GMS_REG_NONE, tp[h]);
            }
            wl_bar(&w);
            pbl_loop_back(&w, w.live, kk + 2 < nz - 1 ? w.live : 0, ctr);
        }
        wl_exit(&w, w.live);
    }
    return 0;
}

static void launch(pbl_state *s, gms_program *p, uint64_t rep)
{
    for (uint64_t t = 0; t < s->dim[ITERS]; t++) {
        int64_t src = (int64_t)((rep * s->dim[ITERS] + t) & 1);
        wl_launch(p, "_Z24block2D_hybrid_coarsen_xffPfS_iii", wl_dim3(wl_cdiv(s->dim[NX], 64), wl_cdiv(s->dim[NY], 4), 1),
                  wl_dim3(32, 4, 1), 24, 64 * 4 * 4, fill, s, &src, 1);
    }
}

static void cpu(const pbl_state *s, void **h, uint64_t rep)
{
    const uint64_t *d = s->dim;
    for (uint64_t t = 0; t < d[ITERS]; t++) {
        int src = (int)((rep * d[ITERS] + t) & 1);
        const float *A = h[src];
        float *An = h[1 - src];
        for (int64_t k = 1; k < (int64_t)d[NZ] - 1; k++)
            for (int64_t j = 1; j < (int64_t)d[NY] - 1; j++)
                for (int64_t i = 1; i < (int64_t)d[NX] - 1; i++) An[ix3(d, i, j, k)] = point(d, A, i, j, k);
    }
}

static const pbl_def def = {
    .name = "stencil",
    .arrs = { { "A0", 1, 1, 1, PBL_F32 }, { "Anext", 1, 1, 1, PBL_F32 } },
    .sizes = sizes, .elems = elems, .init = init, .launch = launch, .cpu = cpu,
    .rtol = 0, .atol = 0,
};

PBL_WORKLOAD(stencil, "stencil", def, params, "PDE solver", "R",
             "7-point 3D Jacobi stencil, 2D blocks marching along z with the plane in shared memory (x100)");
