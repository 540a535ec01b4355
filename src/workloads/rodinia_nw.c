/* NW (Rodinia nw, UVMBench): Needleman-Wunsch alignment score matrix of two random sequences
 * (blosum62 scores, gap `penalty`). 16x16 tiles along anti-diagonals: needle_cuda_shared_1
 * for the top-left half, needle_cuda_shared_2 for the bottom-right, 16 threads per block. */
#include "workloads/wl_buf.h"
#include "workloads/wl_clamp.h"
#include "util/rng.h"
#include <stdlib.h>
#include <string.h>

#define BS 16

static const int8_t blosum62[24][24] = {
    {4, -1, -2, -2, 0, -1, -1, 0, -2, -1, -1, -1, -1, -2, -1, 1, 0, -3, -2, 0, -2, -1, 0, -4},
    {-1, 5, 0, -2, -3, 1, 0, -2, 0, -3, -2, 2, -1, -3, -2, -1, -1, -3, -2, -3, -1, 0, -1, -4},
    {-2, 0, 6, 1, -3, 0, 0, 0, 1, -3, -3, 0, -2, -3, -2, 1, 0, -4, -2, -3, 3, 0, -1, -4},
    {-2, -2, 1, 6, -3, 0, 2, -1, -1, -3, -4, -1, -3, -3, -1, 0, -1, -4, -3, -3, 4, 1, -1, -4},
    {0, -3, -3, -3, 9, -3, -4, -3, -3, -1, -1, -3, -1, -2, -3, -1, -1, -2, -2, -1, -3, -3, -2, -4},
    {-1, 1, 0, 0, -3, 5, 2, -2, 0, -3, -2, 1, 0, -3, -1, 0, -1, -2, -1, -2, 0, 3, -1, -4},
    {-1, 0, 0, 2, -4, 2, 5, -2, 0, -3, -3, 1, -2, -3, -1, 0, -1, -3, -2, -2, 1, 4, -1, -4},
    {0, -2, 0, -1, -3, -2, -2, 6, -2, -4, -4, -2, -3, -3, -2, 0, -2, -2, -3, -3, -1, -2, -1, -4},
    {-2, 0, 1, -1, -3, 0, 0, -2, 8, -3, -3, -1, -2, -1, -2, -1, -2, -2, 2, -3, 0, 0, -1, -4},
    {-1, -3, -3, -3, -1, -3, -3, -4, -3, 4, 2, -3, 1, 0, -3, -2, -1, -3, -1, 3, -3, -3, -1, -4},
    {-1, -2, -3, -4, -1, -2, -3, -4, -3, 2, 4, -2, 2, 0, -3, -2, -1, -2, -1, 1, -4, -3, -1, -4},
    {-1, 2, 0, -1, -3, 1, 1, -2, -1, -3, -2, 5, -1, -3, -1, 0, -1, -3, -2, -2, 0, 1, -1, -4},
    {-1, -1, -2, -3, -1, 0, -2, -3, -2, 1, 2, -1, 5, 0, -2, -1, -1, -1, -1, 1, -3, -1, -1, -4},
    {-2, -3, -3, -3, -2, -3, -3, -3, -1, 0, 0, -3, 0, 6, -4, -2, -2, 1, 3, -1, -3, -3, -1, -4},
    {-1, -2, -2, -1, -3, -1, -1, -2, -2, -3, -3, -1, -2, -4, 7, -1, -1, -4, -3, -2, -2, -1, -2, -4},
    {1, -1, 1, 0, -1, 0, 0, 0, -1, -2, -2, 0, -1, -2, -1, 4, 1, -3, -2, -2, 0, 0, 0, -4},
    {0, -1, 0, -1, -1, -1, -1, -2, -2, -1, -1, -1, -1, -2, -1, 1, 5, -2, -2, 0, -1, -1, 0, -4},
    {-3, -3, -4, -4, -2, -2, -3, -2, -2, -3, -2, -3, -1, 1, -4, -3, -2, 11, 2, -3, -4, -3, -2, -4},
    {-2, -2, -2, -3, -2, -1, -2, -3, 2, -1, -1, -2, -1, 3, -3, -2, -2, 2, 7, -1, -3, -2, -1, -4},
    {0, -3, -3, -3, -1, -2, -2, -3, -3, 3, 1, -2, 1, -1, -2, -2, 0, -3, -1, 4, -3, -2, -1, -4},
    {-2, -1, 3, 4, -3, 0, 1, -1, 0, -3, -4, 0, -3, -3, -2, 0, -1, -4, -3, -3, 4, 1, -1, -4},
    {-1, 0, 0, 1, -3, 3, 4, -2, 0, -3, -3, 1, -1, -3, -1, 0, -1, -3, -2, -2, 1, 4, -1, -4},
    {0, -1, -1, -1, -2, -1, -1, -1, -1, -1, -1, -1, -1, -1, -2, 0, 0, -2, -1, -1, -1, -1, -1, -4},
    {-4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, 1},
};

typedef struct nw {
    uint64_t dim, cols, repeat;
    int32_t penalty;
    uint64_t rep;       /* repetitions pushed so far */
    wl_buf ref, mat;
    int32_t *mat0;
    wl_shadow *sh;      /* functional verify runs: verify reads the scores from it */
} nw;

static const gms_wl_param params[] = {
    {"dim", "2048", "sequence length (the suite's <max_rows/max_cols>); multiple of 16"},
    {"penalty", "10", "gap penalty"},
    {"scale", "1", "multiplies dim"},
    {"repeat", "1", "run the alignment N times from the same input"},
    {NULL, NULL, NULL},
};

static uint64_t footprint(const gms_wl_args *a)
{
    gms_error e;
    uint64_t d = 0;
    if (wl_clamp_scaled(a, "nw", "dim", BS, BS, 1 << 15, &d, &e)) return 0;
    return 2 * 4 * (d + 1) * (d + 1);
}

static int create(const gms_wl_args *a, void **out, gms_error *err)
{
    uint64_t d, pen, rep;
    if (wl_clamp_scaled(a, "nw", "dim", BS, BS, 1 << 15, &d, err) || wl_param(a, "penalty", 0, 1000, &pen, err) ||
        wl_param(a, "repeat", 1, 1000000, &rep, err))
        return -1;
    nw *s = gms_xcalloc(1, sizeof *s);
    s->dim = d;
    s->cols = d + 1;
    s->penalty = (int32_t)pen;
    s->repeat = rep;
    uint64_t c = s->cols, n = c * c;
    wl_buf_new(&s->ref, 4 * n);
    wl_buf_new(&s->mat, 4 * n);
    s->mat0 = gms_xcalloc(n, 4);
    gms_rng r;
    gms_rng_seed(&r, gms_wl_seed(a));
    int32_t *in = s->mat0, *ref = WL_I(s->ref);
    for (uint64_t i = 1; i < c; i++) in[i * c] = (int32_t)gms_rng_below(&r, 10) + 1;
    for (uint64_t j = 1; j < c; j++) in[j] = (int32_t)gms_rng_below(&r, 10) + 1;
    for (uint64_t i = 1; i < c; i++)
        for (uint64_t j = 1; j < c; j++) ref[i * c + j] = blosum62[in[i * c]][in[j]];
    for (uint64_t i = 1; i < c; i++) in[i * c] = -(int32_t)i * s->penalty;
    for (uint64_t j = 1; j < c; j++) in[j] = -(int32_t)j * s->penalty;
    *out = s;
    return 0;
}

static int32_t maximum(int32_t a, int32_t b, int32_t c)
{
    int32_t k = a <= b ? b : a;
    return k <= c ? c : k;
}

#define TEMP(y, x) (4u * ((y) * (BS + 1) + (x)))
#define REF(y, x) (4u * ((BS + 1) * (BS + 1) + (y) * BS + (x)))

/* i[0] = i, i[1] = block_width, i[2] = kernel 1 or 2 */
static int k_needle(const wl_kernel *k, uint64_t bx, gms_block_trace *out, gms_error *err)
{
    nw *s = k->st;
    wl_warp W[WL_MAXW];
    wl_warps_sh(W, wl_block_begin(out, BS, W), k);
    wl_warp *x = &W[0];
    int64_t i = k->arg[0], bw = k->arg[1], c = (int64_t)s->cols;
    int64_t bix, biy;
    if (k->arg[2] == 1) { bix = (int64_t)bx; biy = i - 1 - (int64_t)bx; }
    else { bix = (int64_t)bx + bw - i; biy = bw - (int64_t)bx - 1; }
    int64_t base = c * BS * biy + BS * bix;
    int64_t index = base + c + 1, index_n = base + 1, index_w = base + c, index_nw = base;
    int32_t temp[BS + 1][BS + 1], ref[BS][BS];
    int32_t *mat = WL_I(s->mat), *gref = WL_I(s->ref);
    int32_t pen = s->penalty;
    uint64_t a[32], sa[32];
    uint32_t m16 = x->live;
    uint8_t ri = wl_prologue_idx(x, m16);
    uint8_t r = wl_int_at(x, 0x18, m16, ri, GMS_REG_NONE);
    /* kernel 1 loads temp[0][0] before the ref loop, kernel 2 after the first barrier */
    if (k->arg[2] == 1) {
        a[0] = s->mat.d + 4 * (uint64_t)index_nw;
        sa[0] = TEMP(0, 0);
        uint8_t v = wl_ldg_at(x, 0x20, 1u, 4, a, r);
        WL_SH_LD(x, 1u, int32_t, mat[index_nw]);
        wl_sts_at(x, 0x28, 1u, 4, sa, GMS_REG_NONE, v);
    }
    temp[0][0] = mat[index_nw];
    for (int ty = 0; ty < BS; ty++) {
        WL_TLANES(x, m16, l, tx) {
            a[l] = s->ref.d + 4 * (uint64_t)(index + tx + c * ty);
            sa[l] = REF(ty, tx);
            ref[ty][tx] = gref[index + tx + c * ty];
        }
        uint8_t ad = wl_int_at(x, 0x30, m16, r, GMS_REG_NONE);
        uint8_t v = wl_ldg_at(x, 0x38, m16, 4, a, ad);
        WL_SH_LD(x, m16, int32_t, ref[ty][l]);
        wl_sts_at(x, 0x40, m16, 4, sa, GMS_REG_NONE, v);
        wl_bra_at(x, 0x48, m16, ad);
    }
    gms_emit_bar(&x->e, 0x50);
    if (k->arg[2] == 2) {
        a[0] = s->mat.d + 4 * (uint64_t)index_nw;
        sa[0] = TEMP(0, 0);
        uint8_t v = wl_ldg_at(x, 0x58, 1u, 4, a, r);
        WL_SH_LD(x, 1u, int32_t, mat[index_nw]);
        wl_sts_at(x, 0x60, 1u, 4, sa, GMS_REG_NONE, v);
    }
    WL_TLANES(x, m16, l, tx) {
        a[l] = s->mat.d + 4 * (uint64_t)(index_w + c * tx);
        sa[l] = TEMP(tx + 1, 0);
        temp[tx + 1][0] = mat[index_w + c * tx];
    }
    uint8_t v = wl_ldg_at(x, 0x68, m16, 4, a, r);
    WL_SH_LD(x, m16, int32_t, temp[l + 1][0]);
    wl_sts_at(x, 0x70, m16, 4, sa, GMS_REG_NONE, v);
    if (k->arg[2] == 1) gms_emit_bar(&x->e, 0x78);
    WL_TLANES(x, m16, l, tx) {
        a[l] = s->mat.d + 4 * (uint64_t)(index_n + tx);
        sa[l] = TEMP(0, tx + 1);
        temp[0][tx + 1] = mat[index_n + tx];
    }
    v = wl_ldg_at(x, 0x80, m16, 4, a, r);
    WL_SH_LD(x, m16, int32_t, temp[0][l + 1]);
    wl_sts_at(x, 0x88, m16, 4, sa, GMS_REG_NONE, v);
    gms_emit_bar(&x->e, 0x90);
    for (int phase = 0; phase < 2; phase++) {
        for (int mm = phase == 0 ? 0 : BS - 2; phase == 0 ? mm < BS : mm >= 0; mm += phase == 0 ? 1 : -1) {
            uint32_t act = 0;
            uint64_t a1[32], a2[32], a3[32], a4[32];
            WL_TLANES(x, m16, l, tx) {
                if ((int)tx > mm) continue;
                int xi = phase == 0 ? (int)tx + 1 : (int)tx + BS - mm;
                int yi = phase == 0 ? mm - (int)tx + 1 : BS - (int)tx;
                act |= 1u << l;
                a1[l] = TEMP(yi - 1, xi - 1);
                a2[l] = REF(yi - 1, xi - 1);
                a3[l] = TEMP(yi, xi - 1);
                a4[l] = TEMP(yi - 1, xi);
                sa[l] = TEMP(yi, xi);
                temp[yi][xi] = maximum(temp[yi - 1][xi - 1] + ref[yi - 1][xi - 1], temp[yi][xi - 1] - pen,
                                       temp[yi - 1][xi] - pen);
            }
            uint8_t cc = wl_int_at(x, 0x98, m16, GMS_REG_NONE, GMS_REG_NONE);
            wl_bra_at(x, 0xa0, m16, cc);
            uint8_t v1 = wl_lds_at(x, 0xa8, act, 4, a1, GMS_REG_NONE);
            uint8_t v2 = wl_lds_at(x, 0xb0, act, 4, a2, GMS_REG_NONE);
            uint8_t v3 = wl_lds_at(x, 0xb8, act, 4, a3, GMS_REG_NONE);
            uint8_t v4 = wl_lds_at(x, 0xc0, act, 4, a4, GMS_REG_NONE);
            uint8_t s1 = wl_int_at(x, 0xc8, act, v1, v2);
            uint8_t s2 = wl_int_at(x, 0xd0, act, v3, v4);
            uint8_t mx = wl_int_at(x, 0xd8, act, s1, s2);
            wl_sts_at(x, 0xe0, act, 4, sa, GMS_REG_NONE, mx);
            gms_emit_bar(&x->e, 0xe8);
        }
    }
    for (int ty = 0; ty < BS; ty++) {
        WL_TLANES(x, m16, l, tx) {
            a[l] = s->mat.d + 4 * (uint64_t)(index + ty * c + tx);
            sa[l] = TEMP(ty + 1, tx + 1);
            mat[index + ty * c + tx] = temp[ty + 1][tx + 1];
        }
        uint8_t vv = wl_lds_at(x, 0xf0, m16, 4, sa, GMS_REG_NONE);
        uint8_t ad = wl_int_at(x, 0xf8, m16, r, GMS_REG_NONE);
        wl_stg_at(x, 0x100, m16, 4, a, ad, vv);
        WL_SH_ST(x, m16, int32_t, temp[ty + 1][l + 1]);
        wl_bra_at(x, 0x108, m16, ad);
    }
    wl_exit_at(x, WL_PC_END, m16);
    (void)err;
    return 0;
}

/* One repetition per call: its reset of the score matrix (host copy + H2D) must happen only
 * when the previous repetition's kernels have run, which is when next() is called again. */
static int next(void *st, gms_program *p, gms_error *err)
{
    nw *s = st;
    if (s->rep == s->repeat) return 0;
    if (s->rep == 0) {
        wl_buf_alloc(p, &s->ref, "referrence_cuda", 1);
        wl_buf_alloc(p, &s->mat, "matrix_cuda", 0);
    }
    int64_t bw = (int64_t)(s->cols - 1) / BS;
    wl_kernel k = {.st = s, .fill = k_needle, .block = {BS, 1, 1}};
    uint32_t shm = 4 * ((BS + 1) * (BS + 1) + BS * BS);
    memcpy(s->mat.h, s->mat0, 4 * s->cols * s->cols);
    s->sh = p->shadow;
    wl_buf_upload(p, &s->mat);
    k.arg[1] = bw;
    for (int64_t i = 1; i <= bw; i++) {
        k.grid = (gms_dim3){(uint32_t)i, 1, 1};
        k.arg[0] = i;
        k.arg[2] = 1;
        wl_launch_k(p, "needle_cuda_shared_1", &k, 32, shm);
    }
    for (int64_t i = bw - 1; i >= 1; i--) {
        k.grid = (gms_dim3){(uint32_t)i, 1, 1};
        k.arg[0] = i;
        k.arg[2] = 2;
        wl_launch_k(p, "needle_cuda_shared_2", &k, 32, shm);
    }
    gms_prog_sync(p);
    gms_prog_copy_d2h(p, s->mat.d, s->mat.bytes);
    s->rep++;
    (void)err;
    return 1;
}

static int verify(void *st, gms_error *err)
{
    nw *s = st;
    uint64_t c = s->cols;
    int32_t *m = gms_xmalloc(4 * c * c);
    const int32_t *ref = WL_I(s->ref);
    memcpy(m, s->mat0, 4 * c * c);
    for (uint64_t i = 1; i < c; i++)
        for (uint64_t j = 1; j < c; j++)
            m[i * c + j] = maximum(m[(i - 1) * c + j - 1] + ref[i * c + j], m[i * c + j - 1] - s->penalty,
                                   m[(i - 1) * c + j] - s->penalty);
    void *own;   /* the scores as the kernels left them at their device address */
    int rc = wl_check_i32("nw", "score", wl_result(s->sh, s->mat.d, s->mat.h, c * c, 4, &own), m, c * c, err);
    free(own);
    free(m);
    return rc ? -1 : 0;
}

static void destroy(void *st)
{
    nw *s = st;
    if (!s) return;
    wl_buf_free(&s->ref);
    wl_buf_free(&s->mat);
    free(s->mat0);
    free(s);
}

const gms_workload_ops gms_wl_nw = {
    .name = "nw", .suite = "rodinia", .domain = "bioinformatics", .ri = "I",
    .summary = "Needleman-Wunsch: anti-diagonal 16x16 tiles of the alignment matrix (2 kernels, 16 threads)",
    .params = params, .create = create, .next = next, .verify = verify, .destroy = destroy,
    .footprint = footprint,
};
