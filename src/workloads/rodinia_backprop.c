/* BACKPROP (Rodinia backprop, UVMBench): one training step of a 3-layer network with
 * `input` input units, 16 hidden units and 1 output. Kernels bpnn_layerforward_CUDA and
 * bpnn_adjust_weights_cuda, 16x16 threads per block, grid (1, input/16); the host part
 * between them (hidden/output layer, errors) runs on the CPU as in the suite.
 * repeat=N is UVMBench's data-reuse loop (ITERATIONS): each kernel launched N times in a row,
 * the copies, allocations and host part once.
 * weights2=1 is UVMSmart's benchmarks/Managed version (um-backprop): the network carries a
 * second copy of the input weights, input_weights2, which the adjust kernel updates instead of
 * the weights the forward kernel overwrote with its partial products, and every array is
 * allocated with the network, before the first launch (bpnn_internal_create). */
#include "workloads/wl_buf.h"
#include "workloads/wl_clamp.h"
#include "util/rng.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define HID 16
#define ETA 0.3f
#define MOMENTUM 0.3f

typedef struct bp {
    uint64_t in, nblk, repeat;   /* repeat: runs of each kernel (UVMBench's ITERATIONS) */
    int phase;                   /* 0 allocate, 1 forward, 2 host part and adjust, 3 done */
    wl_buf input, out_hidden, in_hidden, partial, hdelta, prevw;
    wl_buf w2;                     /* weights2=1: input_weights2 */
    wl_buf *wadj;                  /* the weights the adjust kernel updates: in_hidden or w2 */
    int weights2;
    float *w0, *pw0;               /* original input->hidden weights, prev weights (flattened) */
    float hidden_w[HID + 1][2], hidden_pw[HID + 1][2];
    float hidden_units[HID + 1], output_units[2], output_delta[2], hidden_delta[HID + 1], target[2];
    wl_shadow *sh;   /* functional verify runs: the host and verify read the results from it */
} bp;

static const gms_wl_param params[] = {
    {"input", "65536", "number of input units (the suite's command-line argument); multiple of 16"},
    {"weights2", "0", "1: UVMSmart's second input-weight array, updated by the adjust kernel"},
    {"scale", "1", "multiplies input"},
    {"repeat", "1", "run each kernel N times in a row (UVMBench's ITERATIONS: the copies and the host part once)"},
    {NULL, NULL, NULL},
};

static int sizes(const gms_wl_args *a, uint64_t *in, gms_error *err)
{
    return wl_clamp_scaled(a, "backprop", "input", 16, 0, 1ULL << 28, in, err);
}

static uint64_t footprint(const gms_wl_args *a)
{
    gms_error e;
    uint64_t in = 0;
    if (sizes(a, &in, &e)) return 0;
    uint64_t w2 = gms_wl_u64(a, "weights2") ? (in + 1) * (HID + 1) : 0;
    return 4 * ((in + 1) + (HID + 1) * 2 + 2 * (in + 1) * (HID + 1) + in / 16 * HID + w2);
}

static int create(const gms_wl_args *a, void **out, gms_error *err)
{
    uint64_t in, rep;
    uint64_t w2;
    if (sizes(a, &in, err) || wl_param(a, "repeat", 1, 1000000, &rep, err) || wl_param(a, "weights2", 0, 1, &w2, err))
        return -1;
    bp *s = gms_xcalloc(1, sizeof *s);
    s->weights2 = (int)w2;
    s->wadj = w2 ? &s->w2 : &s->in_hidden;
    s->in = in;
    s->nblk = in / 16;
    s->repeat = rep;
    gms_rng r;
    gms_rng_seed(&r, gms_wl_seed(a));
    uint64_t nw = (in + 1) * (HID + 1);
    wl_buf_new(&s->input, 4 * (in + 1));
    wl_buf_new(&s->out_hidden, 4 * (HID + 1));
    wl_buf_new(&s->in_hidden, 4 * nw);
    wl_buf_new(&s->partial, 4 * s->nblk * HID);
    wl_buf_new(&s->hdelta, 4 * (HID + 1));
    wl_buf_new(&s->prevw, 4 * nw);
    if (w2) wl_buf_new(&s->w2, 4 * nw);
    s->w0 = gms_xmalloc(4 * nw);
    s->pw0 = gms_xcalloc(nw, 4);
    for (uint64_t i = 1; i <= in; i++) WL_F(s->input)[i] = (float)gms_rng_double(&r);
    for (uint64_t i = 0; i < nw; i++) s->w0[i] = (float)gms_rng_double(&r);
    for (int j = 0; j <= HID; j++) s->hidden_w[j][1] = (float)gms_rng_double(&r);
    s->target[1] = 0.1f;
    *out = s;
    return 0;
}

static float squash(float x) { return (float)(1.0 / (1.0 + exp(-x))); }

/* host part between the kernels (bpnn_train_cuda): hidden units from the partial sums, then
 * the output layer, the errors and the hidden->output weight update */
static void host_middle(bp *s, const float *partial, const float *w0)
{
    for (int j = 1; j <= HID; j++) {
        float sum = 0;
        for (uint64_t k = 0; k < s->nblk; k++) sum += partial[k * HID + (uint64_t)j - 1];
        sum += w0[j];
        s->hidden_units[j] = (float)(1.0 / (1.0 + exp(-sum)));
    }
    s->hidden_units[0] = 1.0f;
    float sum = 0;
    for (int k = 0; k <= HID; k++) sum += s->hidden_w[k][1] * s->hidden_units[k];
    s->output_units[1] = squash(sum);
    float o = s->output_units[1];
    s->output_delta[1] = o * (1.0f - o) * (s->target[1] - o);
    for (int j = 1; j <= HID; j++) {
        float h = s->hidden_units[j];
        s->hidden_delta[j] = h * (1.0f - h) * (s->output_delta[1] * s->hidden_w[j][1]);
    }
    for (int k = 0; k <= HID; k++) {
        float dw = ETA * s->output_delta[1] * s->hidden_units[k] + MOMENTUM * s->hidden_pw[k][1];
        s->hidden_w[k][1] += dw;
        s->hidden_pw[k][1] = dw;
    }
}

#define IDX(by, ty, tx) ((uint64_t)(HID + 1) * HID * (by) + (uint64_t)(HID + 1) * (ty) + (tx) + 1 + (HID + 1))

static int k_forward(const wl_kernel *k, uint64_t b, gms_block_trace *out, gms_error *err)
{
    bp *s = k->st;
    wl_warp W[WL_MAXW];
    uint32_t nw = wl_block_begin(out, 256, W);
    wl_warps_sh(W, nw, k);
    uint64_t by = b;
    float node[HID], wm[HID][HID];
    float *in = WL_F(s->input), *ih = WL_F(s->in_hidden), *ps = WL_F(s->partial);
    uint64_t a[32], sa[32];
    uint8_t ri[WL_MAXW];
    /* if (tx == 0) input_node[ty] = input_cuda[index_in] */
    for (uint32_t w = 0; w < nw; w++) {
        wl_warp *x = &W[w];
        ri[w] = wl_prologue_idx(x, x->live);
        uint32_t m = 0;
        WL_TLANES(x, x->live, l, t) {
            uint32_t tx = t % 16, ty = t / 16;
            if (tx == 0) {
                m |= 1u << l;
                a[l] = s->input.d + 4 * (HID * by + ty + 1);
                sa[l] = 4 * ty;
                node[ty] = in[HID * by + ty + 1];
            }
        }
        uint8_t r = wl_int_at(x, 0x18, x->live, ri[w], GMS_REG_NONE);
        wl_bra_at(x, 0x20, x->live, r);
        uint8_t v = wl_ldg_at(x, 0x28, m, 4, a, r);
        WL_SH_LD(x, m, float, in[HID * by + (x->t0 + (uint32_t)l) / 16 + 1]);
        wl_sts_at(x, 0x30, m, 4, sa, GMS_REG_NONE, v);
    }
    wl_bar_all(W, nw, 0x38);
    for (uint32_t w = 0; w < nw; w++) {
        wl_warp *x = &W[w];
        WL_TLANES(x, x->live, l, t) {
            uint32_t tx = t % 16, ty = t / 16;
            a[l] = s->in_hidden.d + 4 * IDX(by, ty, tx);
            sa[l] = 64 + 4 * t;
            wm[ty][tx] = ih[IDX(by, ty, tx)];
        }
        uint8_t r = wl_int_at(x, 0x40, x->live, ri[w], GMS_REG_NONE);
        uint8_t v = wl_ldg_at(x, 0x48, x->live, 4, a, r);
        WL_SH_LD(x, x->live, float, ih[IDX(by, (x->t0 + (uint32_t)l) / 16, (x->t0 + (uint32_t)l) % 16)]);
        wl_sts_at(x, 0x50, x->live, 4, sa, GMS_REG_NONE, v);
    }
    wl_bar_all(W, nw, 0x58);
    for (uint32_t w = 0; w < nw; w++) {
        wl_warp *x = &W[w];
        uint64_t na[32];
        WL_TLANES(x, x->live, l, t) {
            uint32_t tx = t % 16, ty = t / 16;
            sa[l] = 64 + 4 * t;
            na[l] = 4 * ty;
            wm[ty][tx] = wm[ty][tx] * node[ty];
        }
        uint8_t v1 = wl_lds_at(x, 0x60, x->live, 4, sa, GMS_REG_NONE);
        uint8_t v2 = wl_lds_at(x, 0x68, x->live, 4, na, GMS_REG_NONE);
        uint8_t p = wl_fp_at(x, 0x70, x->live, v1, v2, GMS_REG_NONE);
        wl_sts_at(x, 0x78, x->live, 4, sa, GMS_REG_NONE, p);
    }
    wl_bar_all(W, nw, 0x80);
    for (int i = 1; i <= 4; i++) {
        int p2 = 1 << i;
        for (uint32_t w = 0; w < nw; w++) {
            wl_warp *x = &W[w];
            uint32_t m = 0;
            uint64_t ob[32];
            WL_TLANES(x, x->live, l, t) {
                uint32_t tx = t % 16, ty = t / 16;
                if (ty % (uint32_t)p2 == 0) {
                    m |= 1u << l;
                    sa[l] = 64 + 4 * t;
                    ob[l] = 64 + 4 * ((ty + (uint32_t)p2 / 2) * 16 + tx);
                }
            }
            uint8_t c = wl_int_at(x, 0x88, x->live, GMS_REG_NONE, GMS_REG_NONE);
            wl_bra_at(x, 0x90, x->live, c);
            uint8_t v1 = wl_lds_at(x, 0x98, m, 4, sa, GMS_REG_NONE);
            uint8_t v2 = wl_lds_at(x, 0xa0, m, 4, ob, GMS_REG_NONE);
            uint8_t v = wl_fp_at(x, 0xa8, m, v1, v2, GMS_REG_NONE);
            wl_sts_at(x, 0xb0, m, 4, sa, GMS_REG_NONE, v);
        }
        /* ty % p2 == 0 rows read rows ty + p2/2, which are not written in this step */
        for (int ty = 0; ty < HID; ty += p2)
            for (int tx = 0; tx < HID; tx++) wm[ty][tx] = wm[ty][tx] + wm[ty + p2 / 2][tx];
        wl_bar_all(W, nw, 0xb8);
    }
    for (uint32_t w = 0; w < nw; w++) {
        wl_warp *x = &W[w];
        WL_TLANES(x, x->live, l, t) {
            uint32_t tx = t % 16, ty = t / 16;
            sa[l] = 64 + 4 * t;
            a[l] = s->in_hidden.d + 4 * IDX(by, ty, tx);
            ih[IDX(by, ty, tx)] = wm[ty][tx];
        }
        uint8_t v = wl_lds_at(x, 0xc0, x->live, 4, sa, GMS_REG_NONE);
        wl_stg_at(x, 0xc8, x->live, 4, a, ri[w], v);
        WL_SH_ST(x, x->live, float, ih[IDX(by, (x->t0 + (uint32_t)l) / 16, (x->t0 + (uint32_t)l) % 16)]);
    }
    wl_bar_all(W, nw, 0xd0);
    for (uint32_t w = 0; w < nw; w++) {
        wl_warp *x = &W[w];
        uint32_t m = 0;
        WL_TLANES(x, x->live, l, t) {
            uint32_t tx = t % 16, ty = t / 16;
            if (tx == 0) {
                m |= 1u << l;
                sa[l] = 64 + 4 * (tx * 16 + ty);
                a[l] = s->partial.d + 4 * (by * HID + ty);
                ps[by * HID + ty] = wm[tx][ty];
            }
        }
        uint8_t v = wl_lds_at(x, 0xd8, m, 4, sa, GMS_REG_NONE);
        wl_stg_at(x, 0xe0, m, 4, a, ri[w], v);
        WL_SH_ST(x, m, float, ps[by * HID + (x->t0 + (uint32_t)l) / 16]);
        wl_exit_at(x, WL_PC_END, x->live);
    }
    (void)err;
    return 0;
}

static int k_adjust(const wl_kernel *k, uint64_t b, gms_block_trace *out, gms_error *err)
{
    bp *s = k->st;
    wl_warp W[WL_MAXW];
    uint32_t nw = wl_block_begin(out, 256, W);
    wl_warps_sh(W, nw, k);
    uint64_t by = b;
    /* for the shadow memory: each lane's loaded operands (before the host's update) and the
     * values it stores */
    float ld_[32], ly_[32], lo_[32], lw_[32], so_[32], sw_[32];
    float *delta = WL_F(s->hdelta), *ly = WL_F(s->input), *wv = WL_F(*s->wadj), *ow = WL_F(s->prevw);
    uint64_t ad[32], al[32], aw[32], ao[32];
    uint8_t ri[WL_MAXW];
    for (uint32_t w = 0; w < nw; w++) {
        wl_warp *x = &W[w];
        ri[w] = wl_prologue_idx(x, x->live);
        WL_TLANES(x, x->live, l, t) {
            uint32_t tx = t % 16, ty = t / 16;
            uint64_t index = IDX(by, ty, tx), iy = HID * by + ty + 1, ix = tx + 1;
            ad[l] = s->hdelta.d + 4 * ix;
            al[l] = s->input.d + 4 * iy;
            aw[l] = s->wadj->d + 4 * index;
            ao[l] = s->prevw.d + 4 * index;
            ld_[l] = delta[ix]; ly_[l] = ly[iy]; lo_[l] = ow[index]; lw_[l] = wv[index];
            float nd = ETA * delta[ix] * ly[iy] + MOMENTUM * ow[index];
            wv[index] += nd;
            ow[index] = nd;
            sw_[l] = wv[index]; so_[l] = nd;
        }
        uint8_t r = wl_int_at(x, 0x18, x->live, ri[w], GMS_REG_NONE);
        uint8_t d = wl_ldg_at(x, 0x20, x->live, 4, ad, r);
        WL_SH_LD(x, x->live, float, ld_[l]);
        uint8_t y = wl_ldg_at(x, 0x28, x->live, 4, al, r);
        WL_SH_LD(x, x->live, float, ly_[l]);
        uint8_t o = wl_ldg_at(x, 0x30, x->live, 4, ao, r);
        WL_SH_LD(x, x->live, float, lo_[l]);
        uint8_t v = wl_ldg_at(x, 0x38, x->live, 4, aw, r);
        WL_SH_LD(x, x->live, float, lw_[l]);
        uint8_t p = wl_fp_at(x, 0x40, x->live, d, y, GMS_REG_NONE);
        uint8_t q = wl_fp_at(x, 0x48, x->live, o, p, GMS_REG_NONE);
        uint8_t n = wl_fp_at(x, 0x50, x->live, v, q, GMS_REG_NONE);
        wl_stg_at(x, 0x58, x->live, 4, aw, r, n);
        WL_SH_ST(x, x->live, float, sw_[l]);
        wl_stg_at(x, 0x60, x->live, 4, ao, r, q);
        WL_SH_ST(x, x->live, float, so_[l]);
    }
    wl_bar_all(W, nw, 0x68);
    for (uint32_t w = 0; w < nw; w++) {
        wl_warp *x = &W[w];
        uint32_t m = 0;
        WL_TLANES(x, x->live, l, t) {
            uint32_t tx = t % 16, ty = t / 16;
            if (ty == 0 && by == 0) {
                uint64_t ix = tx + 1;
                m |= 1u << l;
                ad[l] = s->hdelta.d + 4 * ix;
                aw[l] = s->wadj->d + 4 * ix;
                ao[l] = s->prevw.d + 4 * ix;
                ld_[l] = delta[ix]; lo_[l] = ow[ix]; lw_[l] = wv[ix];
                float nd = ETA * delta[ix] + MOMENTUM * ow[ix];
                wv[ix] += nd;
                ow[ix] = nd;
                sw_[l] = wv[ix]; so_[l] = nd;
            }
        }
        uint8_t c = wl_int_at(x, 0x70, x->live, ri[w], GMS_REG_NONE);
        wl_bra_at(x, 0x78, x->live, c);
        if (m) {
            uint8_t d = wl_ldg_at(x, 0x80, m, 4, ad, c);
            WL_SH_LD(x, m, float, ld_[l]);
            uint8_t o = wl_ldg_at(x, 0x88, m, 4, ao, c);
            WL_SH_LD(x, m, float, lo_[l]);
            uint8_t v = wl_ldg_at(x, 0x90, m, 4, aw, c);
            WL_SH_LD(x, m, float, lw_[l]);
            uint8_t q = wl_fp_at(x, 0x98, m, d, o, GMS_REG_NONE);
            uint8_t n = wl_fp_at(x, 0xa0, m, v, q, GMS_REG_NONE);
            wl_stg_at(x, 0xa8, m, 4, aw, c, n);
            WL_SH_ST(x, m, float, sw_[l]);
            wl_stg_at(x, 0xb0, m, 4, ao, c, q);
            WL_SH_ST(x, m, float, so_[l]);
        }
        wl_exit_at(x, WL_PC_END, x->live);
    }
    (void)err;
    return 0;
}

static int next(void *st, gms_program *p, gms_error *err)
{
    bp *s = st;
    uint64_t nw = (s->in + 1) * (HID + 1);
    wl_kernel k = {.st = s, .grid = {1, (uint32_t)s->nblk, 1}, .block = {16, 16, 1}};
    s->sh = p->shadow;
    if (s->phase == 0 && s->weights2) {
        /* UVMSmart's order: the network's arrays (bpnn_internal_create), then the two the
         * training step allocates */
        wl_buf_alloc(p, &s->input, "input_units", 0);
        wl_buf_alloc(p, &s->hdelta, "hidden_delta", 0);
        wl_buf_alloc(p, &s->in_hidden, "input_weights", 0);
        wl_buf_alloc(p, &s->w2, "input_weights2", 0);
        wl_buf_alloc(p, &s->prevw, "input_prev_weights", 0);
        wl_buf_alloc(p, &s->out_hidden, "output_hidden_cuda", 0);
        wl_buf_alloc(p, &s->partial, "hidden_partial_sum", 0);
        s->phase = 1;
    }
    if (s->phase == 0) {
        wl_buf_alloc(p, &s->input, "input_cuda", 0);
        wl_buf_alloc(p, &s->out_hidden, "output_hidden_cuda", 0);
        wl_buf_alloc(p, &s->in_hidden, "input_hidden_cuda", 0);
        wl_buf_alloc(p, &s->partial, "hidden_partial_sum", 0);
        s->phase = 1;
    }
    if (s->phase == 1) {
        /* cudaMemcpy input_cuda, input_hidden_cuda; then UVMBench's data-reuse loop
         * (ITERATIONS): the forward kernel and a cudaDeviceSynchronize, `repeat` times on the
         * same data (each run reads the weights the previous one overwrote with its products) */
        memcpy(s->in_hidden.h, s->w0, 4 * nw);
        wl_buf_upload(p, &s->input);
        wl_buf_upload(p, &s->in_hidden);
        k.fill = k_forward;
        for (uint64_t r = 0; r < s->repeat; r++) {
            wl_launch_k(p, "bpnn_layerforward_CUDA", &k, 24, 4 * (HID + HID * HID));
            gms_prog_sync(p);
        }
        gms_prog_copy_d2h(p, s->partial.d, s->partial.bytes);
        s->phase = 2;
        return 1;
    }
    if (s->phase == 3) return 0;
    /* phase 2: host part, then the weight adjustment */
    void *own;   /* the partial sums as the kernel left them at their device address */
    host_middle(s, wl_result(s->sh, s->partial.d, s->partial.h, s->nblk * HID, 4, &own), s->w0);
    free(own);
    if (!s->weights2) {
        wl_buf_alloc(p, &s->hdelta, "hidden_delta_cuda", 0);
        wl_buf_alloc(p, &s->prevw, "input_prev_weights_cuda", 0);
    }
    memcpy(s->hdelta.h, s->hidden_delta, 4 * (HID + 1));
    memcpy(s->prevw.h, s->pw0, 4 * nw);
    memcpy(s->wadj->h, s->w0, 4 * nw);
    wl_buf_upload(p, &s->hdelta);
    wl_buf_upload(p, &s->prevw);
    wl_buf_upload(p, s->wadj);
    /* the adjust kernel's reuse loop: the UVM version syncs after every launch, the non-UVM
     * one only through the copies after the loop */
    k.fill = k_adjust;
    for (uint64_t r = 0; r < s->repeat; r++) {
        wl_launch_k(p, "bpnn_adjust_weights_cuda", &k, 24, 0);
        if (p->uvm) gms_prog_sync(p);
    }
    gms_prog_copy_d2h(p, s->input.d, s->input.bytes);
    gms_prog_copy_d2h(p, s->wadj->d, s->wadj->bytes);
    s->phase = 3;
    (void)err;
    return 1;
}

static int verify(void *st, gms_error *err)
{
    bp *s = st;
    uint64_t in = s->in, nb = s->nblk, nw = (in + 1) * (HID + 1);
    const float *x = WL_F(s->input);
    /* reference partial sums: per block, sum over the 16 inputs of w*x (tree order); each of
     * the `repeat` forward runs stores its whole 16x16 tile back into the weights, which the
     * next run multiplies again */
    float *part = gms_xcalloc(nb * HID, 4), *fw = gms_xmalloc(4 * nw);
    memcpy(fw, s->w0, 4 * nw);
    for (uint64_t r = 0; r < s->repeat; r++)
        for (uint64_t by = 0; by < nb; by++)
            for (int tx = 0; tx < HID; tx++) {
                float v[HID];
                for (int ty = 0; ty < HID; ty++) v[ty] = fw[IDX(by, ty, tx)] * x[HID * by + ty + 1];
                for (int p2 = 2; p2 <= HID; p2 *= 2)
                    for (int ty = 0; ty < HID; ty += p2) v[ty] += v[ty + p2 / 2];
                for (int ty = 0; ty < HID; ty++) fw[IDX(by, ty, tx)] = v[ty];
                part[by * HID + tx] = v[0];
            }
    free(fw);
    void *op, *ow_, *oo;   /* the results as the kernels left them at their device addresses */
    const float *gp = wl_result(s->sh, s->partial.d, s->partial.h, nb * HID, 4, &op);
    const float *gw = wl_result(s->sh, s->wadj->d, s->wadj->h, nw, 4, &ow_);
    const float *go = wl_result(s->sh, s->prevw.d, s->prevw.h, nw, 4, &oo);
    int rc = wl_check_f32_tol("backprop", "hidden_partial_sum", gp, part, nb * HID, 1e-5, err);
    /* weight update with the hidden deltas (from the checked sums) */
    const float *hd = WL_F(s->hdelta);
    float *w = gms_xmalloc(4 * nw), *ow = gms_xmalloc(4 * nw);
    memcpy(w, s->w0, 4 * nw);
    memcpy(ow, s->pw0, 4 * nw);
    for (uint64_t r = 0; r < s->repeat; r++)   /* the adjust kernel's `repeat` runs */
        for (uint64_t k = 0; k <= in; k++)
            for (uint64_t j = 1; j <= HID; j++) {
                uint64_t ix = k * (HID + 1) + j;
                float nd = k == 0 ? ETA * hd[j] + MOMENTUM * ow[ix] : ETA * hd[j] * x[k] + MOMENTUM * ow[ix];
                w[ix] += nd;
                ow[ix] = nd;
            }
    /* exact: the kernel model and this reference compute each update with the same float
     * operations, and the updates (~1e-6) are below any tolerance that would be of use here
     * (1e-5 could not tell a missing update from a present one) */
    if (!rc) rc = wl_check_f32_tol("backprop", s->weights2 ? "input_weights2" : "input_hidden_cuda", gw, w, nw, 0, err);
    if (!rc) rc = wl_check_f32_tol("backprop", "input_prev_weights_cuda", go, ow, nw, 0, err);
    free(op);
    free(ow_);
    free(oo);
    free(w);
    free(ow);
    free(part);
    return rc ? -1 : 0;
}

static void destroy(void *st)
{
    bp *s = st;
    if (!s) return;
    wl_buf_free(&s->input);
    wl_buf_free(&s->out_hidden);
    wl_buf_free(&s->in_hidden);
    wl_buf_free(&s->partial);
    wl_buf_free(&s->hdelta);
    wl_buf_free(&s->prevw);
    if (s->weights2) wl_buf_free(&s->w2);
    free(s->w0);
    free(s->pw0);
    free(s);
}

const gms_workload_ops gms_wl_backprop = {
    .name = "backprop", .suite = "rodinia", .domain = "machine learning", .ri = "R",
    .summary = "Backpropagation: one training step of an N-16-1 network (2 kernels, 16x16 threads)",
    .params = params, .create = create, .next = next, .verify = verify, .destroy = destroy,
    .footprint = footprint,
};
