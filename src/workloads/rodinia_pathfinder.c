/* PATHFINDER (Rodinia pathfinder, UVMBench): minimum-cost path down a rows x cols grid of
 * random weights 0..9. Kernel dynproc_kernel, 256 threads, `pyramid` rows per launch staged
 * in shared memory, ceil((rows-1)/pyramid) launches ping-ponging two result rows. */
#include "workloads/rodinia_util.h"
#include "util/rng.h"
#include <stdlib.h>
#include <string.h>

#define BS 256

typedef struct pf {
    uint64_t cols, rows, pyramid, repeat;
    uint64_t rep;       /* repetitions pushed so far */
    int final_buf;
    rw_buf wall, res[2];
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
    if (rw_scaled(a, "pathfinder", "cols", 1, 1ULL << 30, cols, err) || rw_param(a, "rows", 2, 1ULL << 24, rows, err))
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
    if (sizes(a, &c, &r, err) || rw_param(a, "pyramid", 1, 127, &py, err) ||
        rw_param(a, "repeat", 1, 1000000, &rep, err))
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
    rw_buf_new(&s->wall, 4 * c * (r - 1));
    rw_buf_new(&s->res[0], 4 * c);
    rw_buf_new(&s->res[1], 4 * c);
    memcpy(s->wall.h, s->data + c, 4 * c * (r - 1));
    *out = s;
    return 0;
}

/* i: 0 iteration, 1 src, 2 dst, 3 startStep (rw_pyramid_launches), 4 border */
static int k_dynproc(const rw_kernel *k, uint64_t b, gms_block_trace *out, gms_error *err)
{
    pf *s = k->st;
    rw_warp W[RW_MAXW];
    uint32_t nw = rw_block_begin(out, BS, W);
    rw_warps_sh(W, nw, k);
    int iter = (int)k->i[0], cols = (int)s->cols, start = (int)k->i[3], border = (int)k->i[4];
    const rw_buf *src = &s->res[k->i[1]], *dst = &s->res[k->i[2]];
    int bx = (int)b;
    int blkX, vmin, vmax;
    rw_pyramid_span(BS, iter, bx, border, cols, &blkX, &vmin, &vmax);
    int32_t prev[BS], result[BS];
    int computed[BS];
    uint64_t a[32], sa[32];
    uint8_t ri[RW_MAXW];
    const int32_t *gs = RW_I(*src), *gw = RW_I(s->wall);
    for (uint32_t w = 0; w < nw; w++) {
        rw_warp *x = &W[w];
        ri[w] = rw_prologue(x, x->mask);
        uint8_t r = rw_int(x, 0x18, x->mask, ri[w], GMS_REG_NONE);
        uint32_t m = 0;
        RW_LANES(x, x->mask, l, t) {
            int xi = blkX + (int)t;
            if (rw_in_range(xi, 0, cols - 1)) {
                m |= 1u << l;
                a[l] = src->d + 4 * (uint64_t)xi;
                sa[l] = 4 * t;
                prev[t] = gs[xi];
            }
        }
        rw_bra(x, 0x20, x->mask, r);
        uint8_t v = rw_ldg(x, 0x28, m, 4, a, r);
        WL_SH_LD(x, m, int32_t, prev[x->t0 + (uint32_t)l]);
        rw_sts(x, 0x30, m, 4, sa, GMS_REG_NONE, v);
    }
    rw_bar(W, nw, 0x38);
    for (int i = 0; i < iter; i++) {
        for (uint32_t w = 0; w < nw; w++) {
            rw_warp *x = &W[w];
            uint32_t m = 0;
            uint64_t aw[32], ae[32], ar[32], gi[32];
            RW_LANES(x, x->mask, l, t) {
                int tx = (int)t;
                computed[t] = 0;
                if (rw_in_range(tx, i + 1, BS - i - 2) && rw_in_range(tx, vmin, vmax)) {
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
            uint8_t c = rw_int(x, 0x40, x->mask, GMS_REG_NONE, GMS_REG_NONE);
            rw_bra(x, 0x48, x->mask, c);
            uint8_t v1 = rw_lds(x, 0x50, m, 4, aw, GMS_REG_NONE);
            uint8_t v2 = rw_lds(x, 0x58, m, 4, sa, GMS_REG_NONE);
            uint8_t v3 = rw_lds(x, 0x60, m, 4, ae, GMS_REG_NONE);
            uint8_t mn = rw_int(x, 0x68, m, v1, v2);
            mn = rw_int(x, 0x70, m, mn, v3);
            uint8_t ix = rw_int(x, 0x78, m, ri[w], GMS_REG_NONE);
            uint8_t g = rw_ldg(x, 0x80, m, 4, a, ix);
            WL_SH_LD(x, m, int32_t, gw[gi[l]]);
            uint8_t sum = rw_int(x, 0x88, m, mn, g);
            rw_sts(x, 0x90, m, 4, ar, GMS_REG_NONE, sum);
        }
        rw_bar(W, nw, 0x98);
        if (i == iter - 1) break;
        /* prev = result for the computed cells */
        for (int t = 0; t < BS; t++)
            if (computed[t]) prev[t] = result[t];
        rw_pyramid_copy(W, nw, computed, 0xa0, 4 * BS, 0);
    }
    int32_t *gr = RW_I(*dst);
    uint64_t gaddr[BS];
    for (int t = 0; t < BS; t++) {
        if (!computed[t]) continue;
        int xi = blkX + t;
        gaddr[t] = dst->d + 4 * (uint64_t)xi;
        gr[xi] = result[t];
    }
    rw_pyramid_store_v(W, nw, computed, 0xc0, 4 * BS, gaddr, ri, (const uint32_t *)result);
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
        rw_buf_alloc(p, &s->res[0], "gpuResult0", 0);
        rw_buf_alloc(p, &s->res[1], "gpuResult1", 0);
        rw_buf_alloc(p, &s->wall, "gpuWall", 0);
        rw_buf_upload(p, &s->wall);
    }
    uint64_t small = BS - s->pyramid * 2;
    uint32_t bc = (uint32_t)((s->cols + small - 1) / small);
    rw_kernel k = {.st = s, .fn = k_dynproc, .grid = {bc, 1, 1}, .block = {BS, 1, 1}};
    k.i[4] = (int64_t)s->pyramid;
    memcpy(s->res[0].h, s->data, 4 * s->cols);
    s->sh = p->shadow;
    rw_buf_upload(p, &s->res[0]);
    int dst = rw_pyramid_launches(p, &k, "dynproc_kernel", s->rows - 1, s->pyramid, 2 * 4 * BS, 24, 0);
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
    const rw_buf *res = &s->res[s->final_buf];
    int rc = rw_cmp_i("pathfinder", "result", wl_result(s->sh, res->d, res->h, c, 4, &own), a, c, err);
    free(own);
    free(a);
    free(b);
    return rc ? -1 : 0;
}

static void destroy(void *st)
{
    pf *s = st;
    if (!s) return;
    rw_buf_free(&s->wall);
    rw_buf_free(&s->res[0]);
    rw_buf_free(&s->res[1]);
    free(s->data);
    free(s);
}

const gms_workload_ops gms_wl_pathfinder = {
    .name = "pathfinder", .suite = "rodinia", .domain = "grid traversal", .ri = "R",
    .summary = "PathFinder: dynamic-programming shortest path down a 2D grid, pyramid in shared memory",
    .params = params, .create = create, .next = next, .verify = verify, .destroy = destroy,
    .footprint = footprint,
};
