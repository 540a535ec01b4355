/* PATHFINDER (Rodinia pathfinder, UVMBench): minimum-cost path down a rows x cols grid of
 * random weights 0..9. Kernel dynproc_kernel, 256 threads, `pyramid` rows per launch staged
 * in shared memory, ceil((rows-1)/pyramid) launches ping-ponging two result rows. */
#include "workloads/wl_buf.h"
#include "workloads/wl_clamp.h"
#include "workloads/wl_pyramid.h"
#include "util/rng.h"
#include <stdlib.h>
#include <string.h>

#define BS 256

typedef struct pf {
    uint64_t cols, rows, pyramid, repeat;
    uint64_t rep;       /* repetitions pushed so far */
    int final_buf;
    wl_buf wall, res[2];
    int32_t *data;  /* rows x cols */
    wl_shadow *sh;  /* functional verify runs: verify reads the result from it */
} pf;

static const gms_wl_param params[] = {
    {"cols", "100000", "row length (the suite's row_len)"},
    {"rows", "100", "number of rows (col_len)"},
    {"pyramid", "20", "pyramid height: rows per kernel launch"},
    {"scale", "1", "multiplies cols"},
    {"repeat", "1", "run the whole search N times from the same input"},
    {NULL, NULL, NULL},
};

static int sizes(const gms_wl_args *a, uint64_t *cols, uint64_t *rows, gms_error *err)
{
    if (wl_clamp_scaled(a, "pathfinder", "cols", 1, 0, 1ULL << 30, cols, err) || wl_param(a, "rows", 2, 1ULL << 24, rows, err))
        return -1;
    if (*cols * *rows > (1ULL << 31))
        return gms_err(err, "workload pathfinder: rows*cols = %llu overflows the 32-bit index of the kernel",
                       (unsigned long long)(*cols * *rows));
    return 0;
}

static uint64_t footprint(const gms_wl_args *a)
{
    gms_error e;
    uint64_t c = 0, r = 0;
    if (sizes(a, &c, &r, &e)) return 0;
    return 4 * (c * (r - 1) + 2 * c);
}

static int create(const gms_wl_args *a, void **out, gms_error *err)
{
    uint64_t c, r, py, rep;
    if (sizes(a, &c, &r, err) || wl_param(a, "pyramid", 1, 127, &py, err) ||
        wl_param(a, "repeat", 1, 1000000, &rep, err))
        return -1;
    pf *s = gms_xcalloc(1, sizeof *s);
    s->cols = c;
    s->rows = r;
    s->pyramid = py;
    s->repeat = rep;
    s->data = gms_xmalloc(4 * r * c);
    gms_rng g;
    gms_rng_seed(&g, gms_wl_seed(a));
    for (uint64_t i = 0; i < r * c; i++) s->data[i] = (int32_t)gms_rng_below(&g, 10);
    wl_buf_new(&s->wall, 4 * c * (r - 1));
    wl_buf_new(&s->res[0], 4 * c);
    wl_buf_new(&s->res[1], 4 * c);
    memcpy(s->wall.h, s->data + c, 4 * c * (r - 1));
    *out = s;
    return 0;
}

/* i: 0 iteration, 1 src, 2 dst, 3 startStep (wl_pyramid_launches), 4 border */
static int k_dynproc(const wl_kernel *k, uint64_t b, gms_block_trace *out, gms_error *err)
{
    pf *s = k->st;
    wl_warp W[WL_MAXW];
    uint32_t nw = wl_block_begin(out, BS, W);
    wl_warps_sh(W, nw, k);
    int iter = (int)k->arg[0], cols = (int)s->cols, start = (int)k->arg[3], border = (int)k->arg[4];
    const wl_buf *src = &s->res[k->arg[1]], *dst = &s->res[k->arg[2]];
    int bx = (int)b;
    int blkX, vmin, vmax;
    wl_pyramid_span(BS, iter, bx, border, cols, &blkX, &vmin, &vmax);
    int32_t prev[BS], result[BS];
    int computed[BS];
    uint64_t a[32], sa[32];
    uint8_t ri[WL_MAXW];
    const int32_t *gs = WL_I(*src), *gw = WL_I(s->wall);
    for (uint32_t w = 0; w < nw; w++) {
        wl_warp *x = &W[w];
        ri[w] = wl_prologue_idx(x, x->live);
        uint8_t r = wl_int_at(x, 0x18, x->live, ri[w], GMS_REG_NONE);
        uint32_t m = 0;
        WL_TLANES(x, x->live, l, t) {
            int xi = blkX + (int)t;
            if (wl_in_range(xi, 0, cols - 1)) {
                m |= 1u << l;
                a[l] = src->d + 4 * (uint64_t)xi;
                sa[l] = 4 * t;
                prev[t] = gs[xi];
            }
        }
        wl_bra_at(x, 0x20, x->live, r);
        uint8_t v = wl_ldg_at(x, 0x28, m, 4, a, r);
        WL_SH_LD(x, m, int32_t, prev[x->t0 + (uint32_t)l]);
        wl_sts_at(x, 0x30, m, 4, sa, GMS_REG_NONE, v);
    }
    wl_bar_all(W, nw, 0x38);
    for (int i = 0; i < iter; i++) {
        for (uint32_t w = 0; w < nw; w++) {
            wl_warp *x = &W[w];
            uint32_t m = 0;
            uint64_t aw[32], ae[32], ar[32], gi[32];
            WL_TLANES(x, x->live, l, t) {
                int tx = (int)t;
                computed[t] = 0;
                if (wl_in_range(tx, i + 1, BS - i - 2) && wl_in_range(tx, vmin, vmax)) {
                    int Wd = tx - 1 < vmin ? vmin : tx - 1, E = tx + 1 > vmax ? vmax : tx + 1;
                    int32_t left = prev[Wd], up = prev[tx], right = prev[E];
                    int32_t sh = left <= up ? left : up;
                    sh = sh <= right ? sh : right;
                    uint64_t index = (uint64_t)cols * (uint64_t)(start + i) + (uint64_t)(blkX + tx);
                    result[t] = sh + gw[index];
                    gi[l] = index;
                    computed[t] = 1;
                    m |= 1u << l;
                    aw[l] = 4 * (uint64_t)Wd;
                    ae[l] = 4 * (uint64_t)E;
                    sa[l] = 4 * t;
                    ar[l] = 4 * (BS + t);
                    a[l] = s->wall.d + 4 * index;
                }
            }
            uint8_t c = wl_int_at(x, 0x40, x->live, GMS_REG_NONE, GMS_REG_NONE);
            wl_bra_at(x, 0x48, x->live, c);
            uint8_t v1 = wl_lds_at(x, 0x50, m, 4, aw, GMS_REG_NONE);
            uint8_t v2 = wl_lds_at(x, 0x58, m, 4, sa, GMS_REG_NONE);
            uint8_t v3 = wl_lds_at(x, 0x60, m, 4, ae, GMS_REG_NONE);
            uint8_t mn = wl_int_at(x, 0x68, m, v1, v2);
            mn = wl_int_at(x, 0x70, m, mn, v3);
            uint8_t ix = wl_int_at(x, 0x78, m, ri[w], GMS_REG_NONE);
            uint8_t g = wl_ldg_at(x, 0x80, m, 4, a, ix);
            WL_SH_LD(x, m, int32_t, gw[gi[l]]);
            uint8_t sum = wl_int_at(x, 0x88, m, mn, g);
            wl_sts_at(x, 0x90, m, 4, ar, GMS_REG_NONE, sum);
        }
        wl_bar_all(W, nw, 0x98);
        if (i == iter - 1) break;
        /* prev = result for the computed cells */
        for (int t = 0; t < BS; t++)
            if (computed[t]) prev[t] = result[t];
        wl_pyramid_copy(W, nw, computed, 0xa0, 4 * BS, 0);
    }
    int32_t *gr = WL_I(*dst);
    uint64_t gaddr[BS];
    for (int t = 0; t < BS; t++) {
        if (!computed[t]) continue;
        int xi = blkX + t;
        gaddr[t] = dst->d + 4 * (uint64_t)xi;
        gr[xi] = result[t];
    }
    wl_pyramid_store(W, nw, computed, 0xc0, 4 * BS, gaddr, ri, (const uint32_t *)result);
    (void)err;
    return 0;
}

/* One repetition per call: its reset of the input row (host copy + H2D) must happen only
 * when the previous repetition's kernels have run, which is when next() is called again. */
static int next(void *st, gms_program *p, gms_error *err)
{
    pf *s = st;
    if (s->rep == s->repeat) return 0;
    if (s->rep == 0) {
        wl_buf_alloc(p, &s->res[0], "gpuResult0", 0);
        wl_buf_alloc(p, &s->res[1], "gpuResult1", 0);
        wl_buf_alloc(p, &s->wall, "gpuWall", 0);
        wl_buf_upload(p, &s->wall);
    }
    uint64_t small = BS - s->pyramid * 2;
    uint32_t bc = (uint32_t)((s->cols + small - 1) / small);
    wl_kernel k = {.st = s, .fill = k_dynproc, .grid = {bc, 1, 1}, .block = {BS, 1, 1}};
    k.arg[4] = (int64_t)s->pyramid;
    memcpy(s->res[0].h, s->data, 4 * s->cols);
    s->sh = p->shadow;
    wl_buf_upload(p, &s->res[0]);
    int dst = wl_pyramid_launches(p, &k, "dynproc_kernel", s->rows - 1, s->pyramid, 24, 2 * 4 * BS, 0);
    gms_prog_sync(p);
    gms_prog_copy_d2h(p, s->res[dst].d, s->res[dst].bytes);
    s->final_buf = dst;
    s->rep++;
    (void)err;
    return 1;
}

static int verify(void *st, gms_error *err)
{
    pf *s = st;
    uint64_t c = s->cols;
    int32_t *a = gms_xmalloc(4 * c), *b = gms_xmalloc(4 * c);
    memcpy(a, s->data, 4 * c);
    for (uint64_t r = 1; r < s->rows; r++) {
        for (uint64_t x = 0; x < c; x++) {
            int32_t m = a[x];
            if (x > 0 && a[x - 1] < m) m = a[x - 1];
            if (x + 1 < c && a[x + 1] < m) m = a[x + 1];
            b[x] = m + s->data[r * c + x];
        }
        int32_t *t = a;
        a = b;
        b = t;
    }
    void *own;
    const wl_buf *res = &s->res[s->final_buf];
    int rc = wl_check_i32("pathfinder", "result", wl_result(s->sh, res->d, res->h, c, 4, &own), a, c, err);
    free(own);
    free(a);
    free(b);
    return rc ? -1 : 0;
}

static void destroy(void *st)
{
    pf *s = st;
    if (!s) return;
    wl_buf_free(&s->wall);
    wl_buf_free(&s->res[0]);
    wl_buf_free(&s->res[1]);
    free(s->data);
    free(s);
}

const gms_workload_ops gms_wl_pathfinder = {
    .name = "pathfinder", .suite = "rodinia", .domain = "grid traversal", .ri = "R",
    .summary = "PathFinder: dynamic-programming shortest path down a 2D grid, pyramid in shared memory",
    .params = params, .create = create, .next = next, .verify = verify, .destroy = destroy,
    .footprint = footprint,
};
