/* CNN (UVMBench CNN: a LeNet-like MNIST network, layer.cu / main.cu): input 28x28, convolution
 * c1 (6 filters 5x5 -> 6x24x24), subsampling s1 (one 4x4 filter, stride 4 -> 6x6x6), fully
 * connected f (216 -> 10), sigmoid activations. Every kernel is launched <<<64, 64>>> and each
 * thread handles the contiguous slice [N*pos/4096, N*(pos+1)/4096) of the kernel's N items,
 * decoding the item index into array coordinates exactly as the source (atomicAdd where the
 * source uses it):
 *   forward: fp_preact_c1, fp_bias_c1, apply_step_function, fp_preact_s1, fp_bias_s1,
 *            apply_step_function, fp_preact_f, fp_bias_f, apply_step_function
 *   training step (learn()): makeError<<<10, 1>>>, then bp_weight_f, bp_bias_f, bp_output_s1,
 *            bp_preact_s1, bp_weight_s1, bp_bias_s1, bp_output_c1, bp_preact_c1, bp_weight_c1,
 *            bp_bias_c1 and three apply_grad
 * The suite's main runs test() on one image with learn() commented out: defaults train=0,
 * test=1. Images are synthetic 28x28 strokes in [0,1] (MNIST is not shipped); the weights are
 * 0.5 - rand()/RAND_MAX from a seeded generator. Layer::clear/bp_clear (cudaMemset) are done
 * on the host copies; cublasSnrm2 of the error is computed on the host (no kernel). The network
 * has fixed sizes: `scale` multiplies the image counts (train, test), a count it takes to zero
 * clamped to one image (wl_clamp.h). */
#include "workloads/wl_buf.h"
#include "workloads/wl_clamp.h"
#include "util/rng.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DT 1.0E-01f
#define GRID 64
#define TPB 64

enum { L_IN, L_C1, L_S1, L_F, NL };
enum { B_OUT, B_PRE, B_BIAS, B_W, B_DOUT, B_DPRE, B_DW, NB };

enum {
    K_FP_C1, K_FP_BIAS_C1, K_STEP, K_FP_S1, K_FP_BIAS_S1, K_FP_F, K_FP_BIAS_F, K_BP_WEIGHT_F, K_BP_BIAS_F,
    K_BP_OUTPUT_S1, K_BP_PREACT_S1, K_BP_WEIGHT_S1, K_BP_BIAS_S1, K_BP_OUTPUT_C1, K_BP_PREACT_C1, K_BP_WEIGHT_C1,
    K_BP_BIAS_C1, K_GRAD, K_ERR,
};

static const int LM[NL] = {0, 25, 16, 216}, LN[NL] = {0, 6, 1, 10}, LO[NL] = {784, 3456, 216, 10};

typedef struct cn {
    int ntrain, ntest, cpu;
    wl_pool *pool;         /* the wrapper's allocations across repetitions */
    gms_rng rng;
    wl_buf b[NL][NB];
    float *images;          /* (ntrain + ntest) x 784 */
    int *labels;
    int img, pending, done, allocated;
    float err_sum;
    int *pred;
    wl_shadow *sh;          /* functional verify runs: the host and verify read results from it */
} cn;

/* one item of a kernel: up to 2 loads, then a store or an atomic at `dst` */
typedef struct item {
    int nld;
    uint64_t ld[2];
    int atom;
    uint64_t dst;
    float lv[2], res;   /* for the shadow memory: the loaded values, the value left at dst */
} item;

static float stepf(float v) { return 1 / (1 + expf(-v)); }

#define F(buf) WL_F(*(buf))
#define AD(buf, i) ((buf)->d + 4 * (uint64_t)(i))

/* the host element of device address `a` in one of the kernel's arrays */
static float *hostp(uint64_t a, wl_buf *A, wl_buf *B, wl_buf *C)
{
    wl_buf *bs[3] = {A, B, C};
    for (int i = 0; i < 3; i++)
        if (bs[i] && a >= bs[i]->d && a < bs[i]->d + bs[i]->bytes) return F(bs[i]) + (a - bs[i]->d) / 4;
    return NULL;
}

/* the item's loaded values, before its update */
static void snap(item *o, wl_buf *A, wl_buf *B, wl_buf *C)
{
    for (int i = 0; i < o->nld; i++) o->lv[i] = *hostp(o->ld[i], A, B, C);
}

/* do item n of kernel kid on the host arrays and describe its memory accesses */
static void do_item(int kid, int n, wl_buf *A, wl_buf *B, wl_buf *C, int Y, item *o)
{
    int idx = n;
    o->nld = 0;
    o->atom = 0;
    switch (kid) {
    case K_FP_C1: {
        int i1 = (idx /= 1) % 5, i2 = (idx /= 5) % 5, i3 = (idx /= 5) % 6, i4 = (idx /= 6) % 24, i5 = (idx /= 24) % 24;
        int w = (i3 * 5 + i1) * 5 + i2, x = (i4 + i1) * 28 + i5 + i2, p = (i3 * 24 + i4) * 24 + i5;
        o->nld = 2; o->ld[0] = AD(C, w); o->ld[1] = AD(A, x); o->atom = 1; o->dst = AD(B, p);
        snap(o, A, B, C);
        F(B)[p] += F(C)[w] * F(A)[x];
        break;
    }
    case K_FP_BIAS_C1: {
        int i1 = (idx /= 1) % 6, i2 = (idx /= 6) % 24, i3 = (idx /= 24) % 24, p = (i1 * 24 + i2) * 24 + i3;
        o->nld = 2; o->ld[0] = AD(B, i1); o->ld[1] = AD(A, p); o->dst = AD(A, p);
        snap(o, A, B, C);
        F(A)[p] += F(B)[i1];
        break;
    }
    case K_STEP:
        o->nld = 1; o->ld[0] = AD(A, n); o->dst = AD(B, n);
        snap(o, A, B, C);
        F(B)[n] = stepf(F(A)[n]);
        break;
    case K_FP_S1: {
        int i1 = (idx /= 1) % 4, i2 = (idx /= 4) % 4, i3 = (idx /= 4) % 6, i4 = (idx /= 6) % 6, i5 = (idx /= 6) % 6;
        int w = i1 * 4 + i2, x = (i3 * 24 + i4 * 4 + i1) * 24 + i5 * 4 + i2, p = (i3 * 6 + i4) * 6 + i5;
        o->nld = 2; o->ld[0] = AD(C, w); o->ld[1] = AD(A, x); o->atom = 1; o->dst = AD(B, p);
        snap(o, A, B, C);
        F(B)[p] += F(C)[w] * F(A)[x];
        break;
    }
    case K_FP_BIAS_S1: {
        int i1 = (idx /= 1) % 6, i2 = (idx /= 6) % 6, i3 = (idx /= 6) % 6, p = (i1 * 6 + i2) * 6 + i3;
        o->nld = 2; o->ld[0] = AD(B, 0); o->ld[1] = AD(A, p); o->dst = AD(A, p);
        snap(o, A, B, C);
        F(A)[p] += F(B)[0];
        break;
    }
    case K_FP_F: {
        int i1 = (idx /= 1) % 10, i2 = (idx /= 10) % 6, i3 = (idx /= 6) % 6, i4 = (idx /= 6) % 6;
        int w = ((i1 * 6 + i2) * 6 + i3) * 6 + i4, x = (i2 * 6 + i3) * 6 + i4;
        o->nld = 2; o->ld[0] = AD(C, w); o->ld[1] = AD(A, x); o->atom = 1; o->dst = AD(B, i1);
        snap(o, A, B, C);
        F(B)[i1] += F(C)[w] * F(A)[x];
        break;
    }
    case K_FP_BIAS_F:
        o->nld = 2; o->ld[0] = AD(B, n); o->ld[1] = AD(A, n); o->dst = AD(A, n);
        snap(o, A, B, C);
        F(A)[n] += F(B)[n];
        break;
    case K_BP_WEIGHT_F: {
        int i1 = (idx /= 1) % 10, i2 = (idx /= 10) % 6, i3 = (idx /= 6) % 6, i4 = (idx /= 6) % 6;
        int w = ((i1 * 6 + i2) * 6 + i3) * 6 + i4, x = (i2 * 6 + i3) * 6 + i4;
        o->nld = 2; o->ld[0] = AD(B, i1); o->ld[1] = AD(C, x); o->dst = AD(A, w);
        snap(o, A, B, C);
        F(A)[w] = F(B)[i1] * F(C)[x];
        break;
    }
    case K_BP_BIAS_F:
        o->nld = 2; o->ld[0] = AD(A, n); o->ld[1] = AD(B, n); o->dst = AD(A, n);
        snap(o, A, B, C);
        F(A)[n] += DT * F(B)[n];
        break;
    case K_BP_OUTPUT_S1: {
        int i1 = (idx /= 1) % 10, i2 = (idx /= 10) % 6, i3 = (idx /= 6) % 6, i4 = (idx /= 6) % 6;
        int w = ((i1 * 6 + i2) * 6 + i3) * 6 + i4, x = (i2 * 6 + i3) * 6 + i4;
        o->nld = 2; o->ld[0] = AD(B, w); o->ld[1] = AD(C, i1); o->atom = 1; o->dst = AD(A, x);
        snap(o, A, B, C);
        F(A)[x] += F(B)[w] * F(C)[i1];
        break;
    }
    case K_BP_PREACT_S1:
    case K_BP_PREACT_C1: {
        int w = kid == K_BP_PREACT_S1 ? 6 : 24;
        int i1 = (idx /= 1) % 6, i2 = (idx /= 6) % w, i3 = (idx /= w) % w, p = (i1 * w + i2) * w + i3;
        o->nld = 2; o->ld[0] = AD(C, p); o->ld[1] = AD(B, p); o->dst = AD(A, p);
        snap(o, A, B, C);
        const float ov = stepf(F(C)[p]);
        F(A)[p] = F(B)[p] * ov * (1 - ov);
        break;
    }
    case K_BP_WEIGHT_S1:
    case K_BP_OUTPUT_C1: {
        /* i1 = (idx /= 1) % 1 is always 0 */
        int i2 = (idx /= 1) % 4, i3 = (idx /= 4) % 4;
        int i4 = (idx /= 4) % 6, i5 = (idx /= 6) % 6, i6 = (idx /= 6) % 6;
        int dp = (i4 * 6 + i5) * 6 + i6, x = (i4 * 24 + i5 * 4 + i2) * 24 + i6 * 4 + i3, w = i2 * 4 + i3;
        if (kid == K_BP_WEIGHT_S1) {
            o->nld = 2; o->ld[0] = AD(B, dp); o->ld[1] = AD(C, x); o->atom = 1; o->dst = AD(A, w);
            snap(o, A, B, C);
            F(A)[w] += F(B)[dp] * F(C)[x];
        } else {
            o->nld = 2; o->ld[0] = AD(B, w); o->ld[1] = AD(C, dp); o->atom = 1; o->dst = AD(A, x);
            snap(o, A, B, C);
            F(A)[x] += F(B)[w] * F(C)[dp];
        }
        break;
    }
    case K_BP_BIAS_S1: {
        int i1 = (idx /= 1) % 6, i2 = (idx /= 6) % 6, i3 = (idx /= 6) % 6, p = (i1 * 6 + i2) * 6 + i3;
        o->nld = 1; o->ld[0] = AD(B, p); o->atom = 1; o->dst = AD(A, 0);
        snap(o, A, B, C);
        F(A)[0] += DT * F(B)[p] / 216.0f;
        break;
    }
    case K_BP_WEIGHT_C1: {
        int i1 = (idx /= 1) % 6, i2 = (idx /= 6) % 5, i3 = (idx /= 5) % 5, i4 = (idx /= 5) % 24, i5 = (idx /= 24) % 24;
        int dp = (i1 * 24 + i4) * 24 + i5, x = (i4 + i2) * 28 + i5 + i3, w = (i1 * 5 + i2) * 5 + i3;
        o->nld = 2; o->ld[0] = AD(B, dp); o->ld[1] = AD(C, x); o->atom = 1; o->dst = AD(A, w);
        snap(o, A, B, C);
        F(A)[w] += F(B)[dp] * F(C)[x] / 576.0f;
        break;
    }
    case K_BP_BIAS_C1: {
        int i1 = (idx /= 1) % 6, i2 = (idx /= 6) % 24, i3 = (idx /= 24) % 24, p = (i1 * 24 + i2) * 24 + i3;
        o->nld = 1; o->ld[0] = AD(B, p); o->atom = 1; o->dst = AD(A, i1);
        snap(o, A, B, C);
        F(A)[i1] += DT * F(B)[p] / 576.0f;
        break;
    }
    case K_GRAD:
        o->nld = 2; o->ld[0] = AD(A, n); o->ld[1] = AD(B, n); o->dst = AD(A, n);
        snap(o, A, B, C);
        F(A)[n] += DT * F(B)[n];
        break;
    case K_ERR:
        o->nld = 1; o->ld[0] = AD(B, n); o->dst = AD(A, n);
        snap(o, A, B, C);
        F(A)[n] = ((Y == n ? 1.0f : 0.0f) - F(B)[n]);
        break;
    default:
        return;
    }
    o->res = *hostp(o->dst, A, B, C);   /* for an atomic: the sum up to this item */
}

static int k_layer(const wl_kernel *k, uint64_t blk, gms_block_trace *out, gms_error *err)
{
    int kid = (int)k->arg[0], N = (int)k->arg[1], Y = (int)k->arg[5];
    wl_buf *A = (wl_buf *)(intptr_t)k->arg[2], *B = (wl_buf *)(intptr_t)k->arg[3], *C = (wl_buf *)(intptr_t)k->arg[4];
    uint32_t tpb = k->block.x;
    int size = (int)(tpb * k->grid.x);
    wl_warp W[WL_MAXW];
    uint32_t nw = wl_block_begin(out, tpb, W);
    wl_warps_sh(W, nw, k);
    uint64_t a[2][32], d[32];
    for (uint32_t w = 0; w < nw; w++) {
        wl_warp *x = &W[w];
        uint8_t ri = wl_prologue_idx(x, x->live);
        int lo[32], hi[32], maxit = 0;
        WL_TLANES(x, x->live, l, t) {
            int pos = (int)(blk * tpb + t);
            lo[l] = (int)((int64_t)N * pos / size);
            hi[l] = (int)((int64_t)N * (pos + 1) / size);
            if (hi[l] - lo[l] > maxit) maxit = hi[l] - lo[l];
        }
        wl_int_at(x, 0x18, x->live, ri, GMS_REG_NONE);
        uint8_t q = wl_int_at(x, 0x20, x->live, ri, GMS_REG_NONE);
        wl_bra_at(x, 0x28, x->live, q);
        for (int j = 0; j < maxit; j++) {
            uint32_t m = 0;
            item it[32];
            WL_TLANES(x, x->live, l, t) {
                if (lo[l] + j >= hi[l]) continue;
                m |= 1u << l;
                do_item(kid, lo[l] + j, A, B, C, Y, &it[l]);
            }
            /* index decoding: IMAD.HI / SHF / IMAD per coordinate */
            uint8_t ix = wl_int_at(x, 0x30, m, ri, GMS_REG_NONE);
            for (int i = 0; i < 4; i++) ix = wl_int_at(x, 0x38, m, ix, GMS_REG_NONE);
            int nld = 0, atom = 0;
            WL_TLANES(x, m, l, t) {
                nld = it[l].nld;
                atom = it[l].atom;
                for (int i = 0; i < it[l].nld; i++) a[i][l] = it[l].ld[i];
                d[l] = it[l].dst;
            }
            uint8_t v[2] = {GMS_REG_NONE, GMS_REG_NONE};
            for (int i = 0; i < nld; i++) {
                v[i] = wl_ldg_at(x, 0x40 + 8 * (uint32_t)i, m, 4, a[i], ix);
                WL_SH_LD(x, m, float, it[l].lv[i]);
            }
            uint8_t f = wl_fp_at(x, 0x50, m, v[0], v[1], GMS_REG_NONE);
            if (kid == K_STEP || kid == K_BP_PREACT_S1 || kid == K_BP_PREACT_C1) {
                f = wl_sfu_at(x, 0x58, m, f);   /* MUFU.EX2 */
                f = wl_sfu_at(x, 0x60, m, f);   /* MUFU.RCP */
                f = wl_fp_at(x, 0x68, m, f, v[1], GMS_REG_NONE);
            }
            if (atom) gms_emit_atomic(&x->e, 0x70, m, GMS_MEM_ATOM_GLOBAL, 4, d, ix, f);
            else wl_stg_at(x, 0x70, m, 4, d, ix, f);
            /* the shadow does not model atomics: an atomicAdd is taken as each lane storing the
             * sum up to its item, in lane order (the host's order), so the last one stays */
            WL_SH_ST(x, m, float, it[l].res);
            uint8_t c = wl_int_at(x, 0x78, m, ix, GMS_REG_NONE);
            wl_bra_at(x, 0x80, m, c);
        }
        wl_exit_at(x, WL_PC_END, x->live);
    }
    (void)err;
    return 0;
}

static void cpu_kernel(int kid, int N, wl_buf *A, wl_buf *B, wl_buf *C, int Y)
{
    item it;
    for (int n = 0; n < N; n++) do_item(kid, n, A, B, C, Y, &it);
}

static void launch(cn *s, gms_program *p, const char *name, int kid, int N, wl_buf *A, wl_buf *B, wl_buf *C, int Y,
                   uint32_t grid, uint32_t tpb)
{
    if (s->cpu) { cpu_kernel(kid, N, A, B, C, Y); return; }
    wl_kernel k = {.st = s, .fill = k_layer, .grid = {grid, 1, 1}, .block = {tpb, 1, 1}};
    k.arg[0] = kid; k.arg[1] = N; k.arg[5] = Y;
    k.arg[2] = (int64_t)(intptr_t)A; k.arg[3] = (int64_t)(intptr_t)B; k.arg[4] = (int64_t)(intptr_t)C;
    wl_launch_k(p, name, &k, 24, 0);
}

#define LB(ly, bf) (&s->b[ly][bf])

static void forward(cn *s, gms_program *p, const float *img)
{
    for (int l = 0; l < NL; l++) {   /* clear() */
        memset(s->b[l][B_OUT].h, 0, s->b[l][B_OUT].bytes);
        memset(s->b[l][B_PRE].h, 0, s->b[l][B_PRE].bytes);
        if (!s->cpu) {   /* cudaMemset: in the shadow memory too */
            wl_sh_init(p, s->b[l][B_OUT].d, s->b[l][B_OUT].h, s->b[l][B_OUT].bytes);
            wl_sh_init(p, s->b[l][B_PRE].d, s->b[l][B_PRE].h, s->b[l][B_PRE].bytes);
        }
    }
    memcpy(s->b[L_IN][B_OUT].h, img, 4 * 784);   /* setOutput */
    if (!s->cpu) {
        gms_prog_copy_h2d(p, s->b[L_IN][B_OUT].d, 4 * 784);
        wl_sh_init(p, s->b[L_IN][B_OUT].d, s->b[L_IN][B_OUT].h, 4 * 784);
    }
    launch(s, p, "fp_preact_c1", K_FP_C1, 5 * 5 * 6 * 24 * 24, LB(L_IN, B_OUT), LB(L_C1, B_PRE), LB(L_C1, B_W), 0, GRID, TPB);
    launch(s, p, "fp_bias_c1", K_FP_BIAS_C1, 6 * 24 * 24, LB(L_C1, B_PRE), LB(L_C1, B_BIAS), NULL, 0, GRID, TPB);
    launch(s, p, "apply_step_function", K_STEP, LO[L_C1], LB(L_C1, B_PRE), LB(L_C1, B_OUT), NULL, 0, GRID, TPB);
    launch(s, p, "fp_preact_s1", K_FP_S1, 4 * 4 * 6 * 6 * 6, LB(L_C1, B_OUT), LB(L_S1, B_PRE), LB(L_S1, B_W), 0, GRID, TPB);
    launch(s, p, "fp_bias_s1", K_FP_BIAS_S1, 6 * 6 * 6, LB(L_S1, B_PRE), LB(L_S1, B_BIAS), NULL, 0, GRID, TPB);
    launch(s, p, "apply_step_function", K_STEP, LO[L_S1], LB(L_S1, B_PRE), LB(L_S1, B_OUT), NULL, 0, GRID, TPB);
    launch(s, p, "fp_preact_f", K_FP_F, 10 * 6 * 6 * 6, LB(L_S1, B_OUT), LB(L_F, B_PRE), LB(L_F, B_W), 0, GRID, TPB);
    launch(s, p, "fp_bias_f", K_FP_BIAS_F, 10, LB(L_F, B_PRE), LB(L_F, B_BIAS), NULL, 0, GRID, TPB);
    launch(s, p, "apply_step_function", K_STEP, LO[L_F], LB(L_F, B_PRE), LB(L_F, B_OUT), NULL, 0, GRID, TPB);
    if (!s->cpu) gms_prog_sync(p);
}

static void train_step(cn *s, gms_program *p, int label)
{
    for (int l = L_C1; l < NL; l++) {   /* bp_clear() */
        memset(s->b[l][B_DOUT].h, 0, s->b[l][B_DOUT].bytes);
        memset(s->b[l][B_DPRE].h, 0, s->b[l][B_DPRE].bytes);
        memset(s->b[l][B_DW].h, 0, s->b[l][B_DW].bytes);
        if (!s->cpu) {   /* cudaMemset: in the shadow memory too */
            wl_sh_init(p, s->b[l][B_DOUT].d, s->b[l][B_DOUT].h, s->b[l][B_DOUT].bytes);
            wl_sh_init(p, s->b[l][B_DPRE].d, s->b[l][B_DPRE].h, s->b[l][B_DPRE].bytes);
            wl_sh_init(p, s->b[l][B_DW].d, s->b[l][B_DW].h, s->b[l][B_DW].bytes);
        }
    }
    launch(s, p, "makeError", K_ERR, 10, LB(L_F, B_DPRE), LB(L_F, B_OUT), NULL, label, 10, 1);
    launch(s, p, "bp_weight_f", K_BP_WEIGHT_F, 10 * 6 * 6 * 6, LB(L_F, B_DW), LB(L_F, B_DPRE), LB(L_S1, B_OUT), 0, GRID, TPB);
    launch(s, p, "bp_bias_f", K_BP_BIAS_F, 10, LB(L_F, B_BIAS), LB(L_F, B_DPRE), NULL, 0, GRID, TPB);
    launch(s, p, "bp_output_s1", K_BP_OUTPUT_S1, 10 * 6 * 6 * 6, LB(L_S1, B_DOUT), LB(L_F, B_W), LB(L_F, B_DPRE), 0, GRID, TPB);
    launch(s, p, "bp_preact_s1", K_BP_PREACT_S1, 6 * 6 * 6, LB(L_S1, B_DPRE), LB(L_S1, B_DOUT), LB(L_S1, B_PRE), 0, GRID, TPB);
    launch(s, p, "bp_weight_s1", K_BP_WEIGHT_S1, 4 * 4 * 6 * 6 * 6, LB(L_S1, B_DW), LB(L_S1, B_DPRE), LB(L_C1, B_OUT), 0, GRID, TPB);
    launch(s, p, "bp_bias_s1", K_BP_BIAS_S1, 6 * 6 * 6, LB(L_S1, B_BIAS), LB(L_S1, B_DPRE), NULL, 0, GRID, TPB);
    launch(s, p, "bp_output_c1", K_BP_OUTPUT_C1, 4 * 4 * 6 * 6 * 6, LB(L_C1, B_DOUT), LB(L_S1, B_W), LB(L_S1, B_DPRE), 0, GRID, TPB);
    launch(s, p, "bp_preact_c1", K_BP_PREACT_C1, 6 * 24 * 24, LB(L_C1, B_DPRE), LB(L_C1, B_DOUT), LB(L_C1, B_PRE), 0, GRID, TPB);
    launch(s, p, "bp_weight_c1", K_BP_WEIGHT_C1, 6 * 5 * 5 * 24 * 24, LB(L_C1, B_DW), LB(L_C1, B_DPRE), LB(L_IN, B_OUT), 0, GRID, TPB);
    launch(s, p, "bp_bias_c1", K_BP_BIAS_C1, 6 * 24 * 24, LB(L_C1, B_BIAS), LB(L_C1, B_DPRE), NULL, 0, GRID, TPB);
    launch(s, p, "apply_grad", K_GRAD, LM[L_F] * LN[L_F], LB(L_F, B_W), LB(L_F, B_DW), NULL, 0, GRID, TPB);
    launch(s, p, "apply_grad", K_GRAD, LM[L_S1] * LN[L_S1], LB(L_S1, B_W), LB(L_S1, B_DW), NULL, 0, GRID, TPB);
    launch(s, p, "apply_grad", K_GRAD, LM[L_C1] * LN[L_C1], LB(L_C1, B_W), LB(L_C1, B_DW), NULL, 0, GRID, TPB);
    if (!s->cpu) gms_prog_sync(p);
}

static float crand(cn *s) { return 0.5f - (float)(gms_rng_next(&s->rng) >> 33) / (float)2147483647; }

static void make_image(gms_rng *r, float *img)
{
    /* a random stroke (line segment) and a random arc, blurred, values in [0, 1] */
    double x0 = 4 + gms_rng_double(r) * 20, y0 = 4 + gms_rng_double(r) * 20;
    double x1 = 4 + gms_rng_double(r) * 20, y1 = 4 + gms_rng_double(r) * 20;
    double cx = 8 + gms_rng_double(r) * 12, cy = 8 + gms_rng_double(r) * 12, rad = 3 + gms_rng_double(r) * 6;
    for (int i = 0; i < 28; i++)
        for (int j = 0; j < 28; j++) {
            double px = j, py = i, dx = x1 - x0, dy = y1 - y0, L2 = dx * dx + dy * dy + 1e-9;
            double u = ((px - x0) * dx + (py - y0) * dy) / L2;
            u = u < 0 ? 0 : u > 1 ? 1 : u;
            double ex = x0 + u * dx - px, ey = y0 + u * dy - py, d1 = sqrt(ex * ex + ey * ey);
            double d2 = fabs(sqrt((px - cx) * (px - cx) + (py - cy) * (py - cy)) - rad);
            double d = d1 < d2 ? d1 : d2, v = d < 1.5 ? 1.0 - d / 1.5 : 0.0;
            img[i * 28 + j] = (float)v;   /* the suite converts data[i][j] (double) to float */
        }
}

static cn *cn_new(int ntrain, int ntest, uint64_t seed, int cpu)
{
    cn *s = gms_xcalloc(1, sizeof *s);
    s->ntrain = ntrain; s->ntest = ntest; s->cpu = cpu;
    gms_rng_seed(&s->rng, seed);
    for (int l = 0; l < NL; l++) {
        uint64_t O = (uint64_t)LO[l], MN = (uint64_t)(LM[l] * LN[l]);
        wl_buf_new(&s->b[l][B_OUT], 4 * O);
        wl_buf_new(&s->b[l][B_PRE], 4 * O);
        wl_buf_new(&s->b[l][B_BIAS], 4 * (uint64_t)LN[l]);
        wl_buf_new(&s->b[l][B_W], 4 * MN);
        wl_buf_new(&s->b[l][B_DOUT], 4 * O);
        wl_buf_new(&s->b[l][B_DPRE], 4 * O);
        wl_buf_new(&s->b[l][B_DW], 4 * MN);
        for (int i = 0; i < LN[l]; i++) {
            F(&s->b[l][B_BIAS])[i] = crand(s);
            for (int j = 0; j < LM[l]; j++) F(&s->b[l][B_W])[LM[l] * i + j] = crand(s);
        }
    }
    int n = ntrain + ntest;
    s->images = gms_xmalloc(4 * 784 * (uint64_t)(n ? n : 1));
    s->labels = gms_xcalloc((uint64_t)(n ? n : 1), sizeof(int));
    s->pred = gms_xcalloc((uint64_t)(ntest ? ntest : 1), sizeof(int));
    for (int i = 0; i < n; i++) {
        make_image(&s->rng, s->images + 784 * i);
        s->labels[i] = (int)gms_rng_below(&s->rng, 10);
    }
    return s;
}

static void cn_free(cn *s)
{
    if (!s) return;
    for (int l = 0; l < NL; l++)
        for (int b = 0; b < NB; b++) wl_buf_free(&s->b[l][b]);
    free(s->images); free(s->labels); free(s->pred);
    free(s);
}

static void classify_result(cn *s, int t)
{
    const float *o = F(&s->b[L_F][B_OUT]);
    int mx = 0;
    for (int i = 1; i < 10; i++) if (o[mx] < o[i]) mx = i;
    s->pred[t] = mx;
}

static int drive(cn *s, gms_program *p)
{
    static const char *const names[NB] = {"output", "preact", "bias", "weight", "d_output", "d_preact", "d_weight"};
    static const char *const lnames[NL] = {"l_input", "l_c1", "l_s1", "l_f"};
    if (!s->cpu && !s->allocated) {
        for (int l = 0; l < NL; l++)
            for (int b = 0; b < NB; b++) {
                if (!s->b[l][b].bytes) continue;   /* l_input's zero-size bias and weights */
                char nm[64];
                snprintf(nm, sizeof nm, "%s.%s", lnames[l], names[b]);
                wl_buf_alloc_in(p, s->pool, &s->b[l][b], nm, b == B_BIAS || b == B_W);
            }
        s->allocated = 1;
    }
    if (!s->cpu) s->sh = p->shadow;
    /* results of the previous image */
    if (s->pending) {
        int i = s->img - 1;
        if (!s->cpu && wl_shadow_active(s->sh)) {
            /* the error norm's and the D2H copy's inputs: in a functional verify run, what the
             * kernels left at their device addresses */
            wl_buf *e = &s->b[L_F][B_DPRE], *o = &s->b[L_F][B_OUT];
            wl_shadow_read(s->sh, e->d, e->h, e->bytes);
            wl_shadow_read(s->sh, o->d, o->h, o->bytes);
        }
        if (i < s->ntrain) {
            const float *e = F(&s->b[L_F][B_DPRE]);
            float nrm = 0;
            for (int j = 0; j < 10; j++) nrm += e[j] * e[j];
            s->err_sum += sqrtf(nrm);
        } else {
            classify_result(s, i - s->ntrain);
        }
        s->pending = 0;
    }
    if (s->img >= s->ntrain + s->ntest) { s->done = 1; return 0; }
    int i = s->img++;
    forward(s, p, s->images + 784 * i);
    if (i < s->ntrain) train_step(s, p, s->labels[i]);
    else if (!s->cpu) gms_prog_copy_d2h(p, s->b[L_F][B_OUT].d, 4 * 10);
    s->pending = 1;
    return 1;
}

static const gms_wl_param params[] = {
    {"train", "0", "training images (one learn() epoch; the suite's main has learn() commented out)"},
    {"test", "1", "test images classified (the suite's test() sets test_cnt = 1)"},
    {"repeat", "1", "run the whole training and test N times from the same input (the same initial weights)"},
    {"scale", "1", "multiplies train and test (at least one image each where the unscaled count has one)"},
    {NULL, NULL, NULL},
};

typedef struct cnw {
    cn *run;
    int ntrain, ntest;
    uint64_t seed;
    uint64_t repeat, rep;  /* repetitions asked for; the one running (from 0) */
    wl_pool pool;
} cnw;

static uint64_t footprint(const gms_wl_args *a)
{
    (void)a;
    uint64_t t = 0;
    for (int l = 0; l < NL; l++) t += 4 * (4 * (uint64_t)LO[l] + (uint64_t)LN[l] + 2 * (uint64_t)(LM[l] * LN[l]));
    return t;
}

static int create(const gms_wl_args *a, void **out, gms_error *err)
{
    uint64_t tr, te, rep;
    if (wl_param(a, "train", 0, 1000000, &tr, err) || wl_param(a, "test", 0, 1000000, &te, err) ||
        wl_param(a, "repeat", 1, 1000000, &rep, err))
        return -1;
    double sc = gms_wl_f64(a, "scale");
    if (!(sc > 0) || !isfinite(sc))
        return gms_err(err, "workload cnn: parameter scale=%s must be a positive number", gms_wl_str(a, "scale"));
    /* a count of 0 stays 0 (train=0 is the suite's default: no learn()) */
    tr = wl_clamp_min(a, "train", wl_scaled(a, "train"), 1);
    te = wl_clamp_min(a, "test", wl_scaled(a, "test"), 1);
    if (tr > 1000000 || te > 1000000)
        return gms_err(err, "workload cnn: scale=%s gives %llu training and %llu test images (at most 1000000 each)",
                        gms_wl_str(a, "scale"), (unsigned long long)tr, (unsigned long long)te);
    if (tr + te == 0) return gms_err(err, "workload cnn: train=0 and test=0 run no kernel");
    cnw *w = gms_xcalloc(1, sizeof *w);
    w->ntrain = (int)tr; w->ntest = (int)te; w->seed = gms_wl_seed(a);
    w->repeat = rep;
    w->run = cn_new(w->ntrain, w->ntest, w->seed, 0);
    w->run->pool = &w->pool;
    *out = w;
    return 0;
}

static int drive_owner(void *o, gms_program *p, gms_error *err)
{
    (void)err;
    return drive(((cnw *)o)->run, p);
}

static void rebuild(void *o)
{
    cnw *w = o;
    cn_free(w->run);
    w->run = cn_new(w->ntrain, w->ntest, w->seed, 0);
    w->run->pool = &w->pool;
}

static int next(void *st, gms_program *p, gms_error *err)
{
    cnw *w = st;
    return wl_rerun(w, &w->rep, w->repeat, &w->pool, drive_owner, rebuild, p, err);
}

static int verify(void *st, gms_error *err)
{
    cnw *w = st;
    cn *g = w->run;
    if (!g->done) return gms_err(err, "workload cnn: the program did not finish");
    cn *r = cn_new(w->ntrain, w->ntest, w->seed, 1);
    while (drive(r, NULL)) {}
    int rc = 0;
    static const char *const lnames[NL] = {"l_input", "l_c1", "l_s1", "l_f"};
    char what[64];
    void *own = NULL;   /* the results as the kernels left them at their device addresses */
#define RES(b_) ((const float *)wl_result(g->sh, (b_)->d, (b_)->h, (b_)->bytes / 4, 4, &own))
    for (int l = 0; l < NL && !rc; l++) {
        snprintf(what, sizeof what, "%s.output", lnames[l]);
        rc = wl_check_f32_tol("cnn", what, RES(&g->b[l][B_OUT]), F(&r->b[l][B_OUT]), (uint64_t)LO[l], 1e-4, err);
        free(own);
        if (!rc && LN[l]) {
            snprintf(what, sizeof what, "%s.weight", lnames[l]);
            rc = wl_check_f32_tol("cnn", what, RES(&g->b[l][B_W]), F(&r->b[l][B_W]), (uint64_t)(LM[l] * LN[l]), 1e-4, err);
            free(own);
        }
        if (!rc && LN[l]) {
            snprintf(what, sizeof what, "%s.bias", lnames[l]);
            rc = wl_check_f32_tol("cnn", what, RES(&g->b[l][B_BIAS]), F(&r->b[l][B_BIAS]), (uint64_t)LN[l], 1e-4, err);
            free(own);
        }
    }
#undef RES
    if (!rc && fabsf(g->err_sum - r->err_sum) > 1e-3f * (1 + fabsf(r->err_sum)))
        rc = gms_err(err, "workload cnn: training error %g, reference %g", g->err_sum, r->err_sum);
    cn_free(r);
    return rc ? -1 : 0;
}

static void destroy(void *st)
{
    cnw *w = st;
    if (!w) return;
    cn_free(w->run);
    wl_pool_free(&w->pool);
    free(w);
}

const gms_workload_ops gms_wl_cnn = {
    .name = "cnn", .suite = "ml", .domain = "machine learning", .ri = "R",
    .summary = "CNN (LeNet-like, MNIST-sized): forward conv/subsample/FC kernels and training kernels, <<<64, 64>>>",
    .params = params, .create = create, .next = next, .verify = verify, .destroy = destroy,
    .footprint = footprint,
};
