/* sdk-transpose (SDK transpose, seed TRP): the sample's six full kernels on a size_x x size_y
 * float matrix, TILE_DIM = BLOCK_ROWS = 16 (16 x 16 blocks, one element per thread), grid
 * (size_x/16, size_y/16), each run once as warm-up and then NUM_REPS times, in the sample's
 * order (kernel=0) or one of them (kernel=1..6):
 *   1 copy                      odata[i] = idata[i]                       (i = x + width*y)
 *   2 copySharedMem             tile[ty][tx] = idata[i]; sync; odata[i] = tile[ty][tx]
 *   3 transposeNaive            odata[x*height + y] = idata[i]            (16-line writes)
 *   4 transposeCoalesced        tile[ty][tx] = idata[i]; sync; odata[(bx*16+ty)*height +
 *                               by*16+tx] = tile[tx][ty]  (tile[16][16]: bank conflicts)
 *   5 transposeNoBankConflicts  the same with tile[16][17]
 *   6 transposeDiagonal         the same on diagonally reordered block indices
 * (transposeFineGrained / CoarseGrained, which the sample itself does not check as full
 * transposes, are left out.) Distinct from the `transpose` microbenchmark (one naive kernel).
 * verify() checks the output of the last kernel run (a copy or the transpose). */
#include "workloads/sdk_util.h"
#include <stdlib.h>

#define TILE 16u

typedef struct trp_st {
    uint64_t w, h, reps, repeat;
    int kernel;
    float *in, *out;
    uint64_t din, dout;
    wl_shadow *sh;
    int done;
} trp_st;

static const gms_wl_param trp_params[] = {
    { "size_x", "1024", "matrix width (floats, a multiple of 16)" },
    { "size_y", "1024", "matrix height (a multiple of 16)" },
    { "kernel", "0", "0: all six in the sample's order; 1 copy, 2 copySharedMem, 3 naive, 4 coalesced, "
                     "5 noBankConflicts, 6 diagonal" },
    { "reps", "100", "timed launches of each kernel after its warm-up launch (NUM_REPS)" },
    { "scale", "1", "multiplies size_x and size_y" },
    { "repeat", "1", "run the whole launch sequence this many times" },
    { NULL, NULL, NULL },
};

static const char *const trp_names[7] = {
    "", "_Z4copyPfS_ii", "_Z13copySharedMemPfS_ii", "_Z14transposeNaivePfS_ii", "_Z18transposeCoalescedPfS_ii",
    "_Z24transposeNoBankConflictsPfS_ii", "_Z17transposeDiagonalPfS_ii",
};

static int trp_sizes(const gms_wl_args *a, uint64_t *w, uint64_t *h, uint64_t *bytes, gms_error *err)
{
    if (wl_clamp_scaled(a, "sdk-transpose", "size_x", TILE, TILE, 1ULL << 20, w, err)) return -1;
    if (wl_clamp_scaled(a, "sdk-transpose", "size_y", TILE, TILE, 1ULL << 20, h, err)) return -1;
    return wl_bytes("sdk-transpose", "matrix", *w, *h, 1, 4, WL_MAX_ARRAY_BYTES, bytes, err);
}

static int trp_create(const gms_wl_args *a, void **state, gms_error *err)
{
    uint64_t w, h, b, rep;
    if (trp_sizes(a, &w, &h, &b, err) || sdk_repeat(a, &rep, err)) return -1;
    if (gms_wl_check_range(a, "kernel", 0, 6, err) || gms_wl_check_range(a, "reps", 0, 100000, err)) return -1;
    trp_st *s = gms_xcalloc(1, sizeof *s);
    s->w = w;
    s->h = h;
    s->reps = gms_wl_u64(a, "reps");
    s->kernel = (int)gms_wl_u64(a, "kernel");
    s->repeat = rep;
    s->in = wl_malloc(w * h, 4);
    s->out = wl_calloc(w * h, 4);
    for (uint64_t i = 0; i < w * h; i++) s->in[i] = (float)i;   /* the sample's h_idata[i] = i */
    *state = s;
    return 0;
}

static int trp_fill(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    trp_st *s = k->st;
    int kind = (int)k->arg[0];
    uint64_t W = s->w, H = s->h;
    wl_warp W8[SDK_MAX_WARPS];
    uint32_t nw = sdk_warps(W8, bt, k, block);
    uint32_t bx = W8[0].bx, by = W8[0].by, gx = k->grid.x, gy = k->grid.y;
    if (kind == 6) {   /* diagonal block reordering */
        if (W == H) {
            by = W8[0].bx;
            bx = (W8[0].bx + W8[0].by) % gx;
        } else {
            uint32_t bid = W8[0].bx + gx * W8[0].by;
            by = bid % gy;
            bx = (bid / gy + by) % gx;
        }
    }
    int shared = kind == 2 || kind >= 4;
    uint32_t pitch = kind >= 5 ? TILE + 1 : TILE;
    uint8_t rv[SDK_MAX_WARPS], ri[SDK_MAX_WARPS];
    for (uint32_t i = 0; i < nw; i++) {
        wl_warp *w = &W8[i];
        uint32_t m = w->live;
        uint64_t A[32], T[32];
        wl_int(w, m, GMS_REG_NONE, GMS_REG_NONE);                     /* MOV R1 */
        uint8_t r = sdk_ints(w, m, 4, GMS_REG_NONE);                  /* S2R x4 */
        if (kind == 6) r = sdk_ints(w, m, 8, r);                      /* the reordering (IMAD, I2F, ...) */
        ri[i] = wl_int(w, m, r, GMS_REG_NONE);                        /* index_in */
        WL_LANES(m, l) A[l] = s->din + ((by * TILE + w->ty[l]) * W + bx * TILE + w->tx[l]) * 4;
        rv[i] = wl_ldg(w, m, A, wl_int(w, m, ri[i], GMS_REG_NONE));
        WL_SH_LD(w, m, float, s->in[(by * TILE + w->ty[l]) * W + bx * TILE + w->tx[l]]);
        if (shared) {
            WL_LANES(m, l) T[l] = (w->ty[l] * pitch + w->tx[l]) * 4;
            sdk_sts(w, m, 4, T, GMS_REG_NONE, rv[i]);
            wl_bar(w);
        }
    }
    for (uint32_t i = 0; i < nw; i++) {
        wl_warp *w = &W8[i];
        uint32_t m = w->live;
        uint64_t O[32], T[32], oi[32];
        float v[32];
        int trans = kind >= 3;
        WL_LANES(m, l) {
            uint32_t tx = w->tx[l], ty = w->ty[l];
            uint64_t x = bx * TILE + tx, y = by * TILE + ty;
            if (!trans) {
                oi[l] = y * W + x;
                v[l] = s->in[oi[l]];
            } else if (kind == 3) {
                oi[l] = x * H + y;
                v[l] = s->in[y * W + x];
            } else {   /* write row bx*16+ty, column by*16+tx, the element tile[tx][ty] */
                oi[l] = (bx * TILE + ty) * H + by * TILE + tx;
                v[l] = s->in[(by * TILE + tx) * W + bx * TILE + ty];
            }
            s->out[oi[l]] = v[l];
        }
        uint8_t r = rv[i];
        if (shared) {
            WL_LANES(m, l) T[l] = kind == 2 ? (w->ty[l] * pitch + w->tx[l]) * 4 : (w->tx[l] * pitch + w->ty[l]) * 4;
            r = sdk_lds(w, m, 4, T, GMS_REG_NONE);
        }
        uint8_t ro = wl_int(w, m, wl_int(w, m, ri[i], GMS_REG_NONE), GMS_REG_NONE);   /* index_out, IMAD.WIDE */
        WL_LANES(m, l) O[l] = s->dout + oi[l] * 4;
        wl_stg(w, m, O, ro, r);
        WL_SH_ST(w, m, float, v[l]);
        wl_exit(w, m);
    }
    return 0;
}

static int trp_next(void *state, gms_program *p, gms_error *err)
{
    trp_st *s = state;
    if (!wl_once(&s->done)) return 0;
    uint64_t b = s->w * s->h * 4;
    s->sh = p->shadow;
    s->din = sdk_alloc(p, s->in, b, "d_idata");
    s->dout = sdk_alloc(p, NULL, b, "d_odata");
    gms_dim3 g = wl_dim3((uint32_t)(s->w / TILE), (uint32_t)(s->h / TILE), 1), blk = wl_dim3(TILE, TILE, 1);
    for (uint64_t r = 0; r < s->repeat; r++)
        for (int kk = s->kernel ? s->kernel : 1; kk <= (s->kernel ? s->kernel : 6); kk++) {
            int64_t arg = kk;
            int shared = kk == 2 || kk >= 4;
            uint32_t shm = shared ? TILE * (kk >= 5 ? TILE + 1 : TILE) * 4 : 0;
            for (uint64_t i = 0; i <= s->reps; i++) wl_launch(p, trp_names[kk], g, blk, 12, shm, trp_fill, s, &arg, 1);
        }
    gms_prog_copy_d2h(p, s->dout, b);
    gms_prog_sync(p);
    return 1;
}

static int trp_verify(void *state, gms_error *err)
{
    trp_st *s = state;
    void *own;
    const float *out = wl_result(s->sh, s->dout, s->out, s->w * s->h, 4, &own);
    int trans = s->kernel == 0 || s->kernel >= 3;
    int rc = 0;
    for (uint64_t y = 0; y < s->h && !rc; y++)
        for (uint64_t x = 0; x < s->w && !rc; x++) {
            uint64_t o = trans ? x * s->h + y : y * s->w + x;
            if (out[o] != s->in[y * s->w + x])
                rc = gms_err(err, "workload sdk-transpose: odata[%llu] = %.9g, CPU reference %.9g (kernel %d)",
                             (unsigned long long)o, (double)out[o], (double)s->in[y * s->w + x], s->kernel);
        }
    free(own);
    return rc;
}

static void trp_destroy(void *state)
{
    trp_st *s = state;
    if (!s) return;
    free(s->in);
    free(s->out);
    free(s);
}

static uint64_t trp_footprint(const gms_wl_args *a)
{
    gms_error e;
    uint64_t w, h, b;
    return trp_sizes(a, &w, &h, &b, &e) ? 0 : 2 * b;
}

const gms_workload_ops gms_wl_sdk_transpose = {
    .name = "sdk-transpose",
    .suite = "sdk",
    .domain = "linear algebra",
    .ri = "-",
    .summary = "TRP: the SDK's copy and transpose kernels (naive, coalesced, no bank conflicts, diagonal), 16x16 tiles",
    .params = trp_params,
    .create = trp_create,
    .next = trp_next,
    .verify = trp_verify,
    .destroy = trp_destroy,
    .footprint = trp_footprint,
};
