/* HOTSPOT (Rodinia hotspot, UVMBench): transient chip temperature on a rows x rows grid.
 * Kernel calculate_temp, 16x16 threads, pyramid of `pyramid` time steps per launch staged in
 * shared memory, ceil(sim_time / pyramid) launches ping-ponging two temperature buffers. */
#include "workloads/wl_buf.h"
#include "workloads/wl_clamp.h"
#include "workloads/wl_pyramid.h"
#include "workloads/wl_pingpong.h"
#include "util/rng.h"
#include <stdlib.h>
#include <string.h>

#define BS 16
#define MAX_PD (3.0e6)
#define PRECISION 0.001
#define SPEC_HEAT_SI 1.75e6
#define K_SI 100
#define FACTOR_CHIP 0.5

typedef struct hs {
    uint64_t rows, pyramid, sim_time, repeat;
    uint64_t rep;       /* repetitions pushed so far */
    wl_buf power, temp[2];
    float *temp0;
    float step_div_cap, rx1, ry1, rz1;
    int final_buf;
    wl_shadow *sh;         /* functional verify runs: verify reads the result from it */
} hs;

static const gms_wl_param params[] = {
    {"rows", "512", "grid rows = cols (the suite's <grid_rows/grid_cols>)"},
    {"pyramid", "2", "pyramid height: time steps per kernel launch"},
    {"sim_time", "2", "number of time steps"},
    {"scale", "1", "multiplies rows"},
    {"repeat", "1", "run the whole simulation N times from the same input"},
    {NULL, NULL, NULL},
};

static uint64_t footprint(const gms_wl_args *a)
{
    gms_error e;
    uint64_t r = 0;
    if (wl_clamp_scaled(a, "hotspot", "rows", 1, 0, 1 << 16, &r, &e)) return 0;
    return 3 * 4 * r * r;
}

static void consts(hs *s)
{
    float chip_height = 0.016f, chip_width = 0.016f, t_chip = 0.0005f;
    float grid_height = chip_height / (float)s->rows, grid_width = chip_width / (float)s->rows;
    float Cap = (float)(FACTOR_CHIP * SPEC_HEAT_SI * t_chip * grid_width * grid_height);
    float Rx = (float)(grid_width / (2.0 * K_SI * t_chip * grid_height));
    float Ry = (float)(grid_height / (2.0 * K_SI * t_chip * grid_width));
    float Rz = (float)(t_chip / (K_SI * grid_height * grid_width));
    float max_slope = (float)(MAX_PD / (FACTOR_CHIP * t_chip * SPEC_HEAT_SI));
    float step = (float)(PRECISION / max_slope);
    s->step_div_cap = step / Cap;
    s->rx1 = 1 / Rx;
    s->ry1 = 1 / Ry;
    s->rz1 = 1 / Rz;
}

static float cell(const hs *s, float c, float p, float n, float so, float e, float w)
{
    float amb = 80.0f;
    return (float)(c + s->step_div_cap * (p + (so + n - 2.0 * c) * s->ry1 + (e + w - 2.0 * c) * s->rx1 +
                                          (amb - c) * s->rz1));
}

static int create(const gms_wl_args *a, void **out, gms_error *err)
{
    uint64_t rows, pyr, st, rep;
    if (wl_clamp_scaled(a, "hotspot", "rows", 1, 0, 1 << 16, &rows, err) || wl_param(a, "pyramid", 1, 7, &pyr, err) ||
        wl_param(a, "sim_time", 1, 1000000, &st, err) || wl_param(a, "repeat", 1, 1000000, &rep, err))
        return -1;
    hs *s = gms_xcalloc(1, sizeof *s);
    s->rows = rows;
    s->pyramid = pyr;
    s->sim_time = st;
    s->repeat = rep;
    consts(s);
    uint64_t n = rows * rows;
    wl_buf_new(&s->power, 4 * n);
    wl_buf_new(&s->temp[0], 4 * n);
    wl_buf_new(&s->temp[1], 4 * n);
    s->temp0 = gms_xmalloc(4 * n);
    gms_rng r;
    gms_rng_seed(&r, gms_wl_seed(a));
    for (uint64_t i = 0; i < n; i++) {
        s->temp0[i] = 323.0f + 20.0f * (float)gms_rng_double(&r);
        WL_F(s->power)[i] = 0.001f * (float)gms_rng_double(&r);
    }
    *out = s;
    return 0;
}

/* k->i: 0 iteration, 1 src, 2 dst */
static int k_temp(const wl_kernel *k, uint64_t b, gms_block_trace *out, gms_error *err)
{
    hs *s = k->st;
    wl_warp W[WL_MAXW];
    uint32_t nw = wl_block_begin(out, BS * BS, W);
    wl_warps_sh(W, nw, k);
    int iter = (int)k->arg[0];
    const wl_buf *src = &s->temp[k->arg[1]], *dst = &s->temp[k->arg[2]];
    int rows = (int)s->rows, cols = (int)s->rows;
    int bx = (int)(b % k->grid.x), by = (int)(b / k->grid.x);
    int border = (int)s->pyramid;  /* border_rows = border_cols = pyramid (host value) */
    int blkY, vYmin, vYmax, blkX, vXmin, vXmax;
    wl_pyramid_span(BS, iter, by, border, rows, &blkY, &vYmin, &vYmax);
    wl_pyramid_span(BS, iter, bx, border, cols, &blkX, &vXmin, &vXmax);
    float ton[BS][BS], pon[BS][BS], tt[BS][BS], lt[32], lp[32];
    int computed[BS * BS];
    uint64_t a[32], sa[32], sb[32];
    uint8_t ri[WL_MAXW];
    const float *ts = WL_F(*src), *pw = WL_F(s->power);
    for (uint32_t w = 0; w < nw; w++) {
        wl_warp *x = &W[w];
        ri[w] = wl_prologue_idx(x, x->live);
        uint8_t r = wl_int_at(x, 0x18, x->live, ri[w], GMS_REG_NONE);
        r = wl_int_at(x, 0x20, x->live, r, GMS_REG_NONE);
        uint32_t m = 0;
        WL_TLANES(x, x->live, l, t) {
            int tx = (int)(t % BS), ty = (int)(t / BS);
            int yi = blkY + ty, xi = blkX + tx;
            if (wl_in_range(yi, 0, rows - 1) && wl_in_range(xi, 0, cols - 1)) {
                m |= 1u << l;
                uint64_t idx = (uint64_t)cols * (uint64_t)yi + (uint64_t)xi;
                a[l] = 4 * idx;
                sa[l] = 4 * t;
                sb[l] = 4 * (BS * BS + t);
                ton[ty][tx] = lt[l] = ts[idx];
                pon[ty][tx] = lp[l] = pw[idx];
            }
        }
        wl_bra_at(x, 0x28, x->live, r);
        uint64_t at[32], ap[32];
        for (int l = 0; l < 32; l++) { at[l] = src->d + a[l]; ap[l] = s->power.d + a[l]; }
        uint8_t v1 = wl_ldg_at(x, 0x30, m, 4, at, r);
        WL_SH_LD(x, m, float, lt[l]);
        uint8_t v2 = wl_ldg_at(x, 0x38, m, 4, ap, r);
        WL_SH_LD(x, m, float, lp[l]);
        wl_sts_at(x, 0x40, m, 4, sa, GMS_REG_NONE, v1);
        wl_sts_at(x, 0x48, m, 4, sb, GMS_REG_NONE, v2);
    }
    wl_bar_all(W, nw, 0x50);
    for (int i = 0; i < iter; i++) {
        for (uint32_t w = 0; w < nw; w++) {
            wl_warp *x = &W[w];
            uint32_t m = 0;
            uint64_t an[32], as[32], ae[32], aw[32];
            WL_TLANES(x, x->live, l, t) {
                int tx = (int)(t % BS), ty = (int)(t / BS);
                computed[t] = 0;
                if (wl_in_range(tx, i + 1, BS - i - 2) && wl_in_range(ty, i + 1, BS - i - 2) &&
                    wl_in_range(tx, vXmin, vXmax) && wl_in_range(ty, vYmin, vYmax)) {
                    int N = ty - 1 < vYmin ? vYmin : ty - 1, S = ty + 1 > vYmax ? vYmax : ty + 1;
                    int Wd = tx - 1 < vXmin ? vXmin : tx - 1, E = tx + 1 > vXmax ? vXmax : tx + 1;
                    computed[t] = 1;
                    m |= 1u << l;
                    sa[l] = 4 * t;
                    sb[l] = 4 * (BS * BS + t);
                    an[l] = 4 * (N * BS + tx);
                    as[l] = 4 * (S * BS + tx);
                    ae[l] = 4 * (ty * BS + E);
                    aw[l] = 4 * (ty * BS + Wd);
                    tt[ty][tx] = cell(s, ton[ty][tx], pon[ty][tx], ton[N][tx], ton[S][tx], ton[ty][E], ton[ty][Wd]);
                }
            }
            uint8_t c = wl_int_at(x, 0x58, x->live, GMS_REG_NONE, GMS_REG_NONE);
            wl_bra_at(x, 0x60, x->live, c);
            uint8_t vc = wl_lds_at(x, 0x68, m, 4, sa, GMS_REG_NONE);
            uint8_t vp = wl_lds_at(x, 0x70, m, 4, sb, GMS_REG_NONE);
            uint8_t vs = wl_lds_at(x, 0x78, m, 4, as, GMS_REG_NONE);
            uint8_t vn = wl_lds_at(x, 0x80, m, 4, an, GMS_REG_NONE);
            uint8_t ve = wl_lds_at(x, 0x88, m, 4, ae, GMS_REG_NONE);
            uint8_t vw = wl_lds_at(x, 0x90, m, 4, aw, GMS_REG_NONE);
            uint8_t f = wl_fp_at(x, 0x98, m, vs, vn, vc);
            uint8_t g = wl_fp_at(x, 0xa0, m, ve, vw, vc);
            f = wl_fp_at(x, 0xa8, m, f, g, vp);
            f = wl_fp_at(x, 0xb0, m, f, vc, GMS_REG_NONE);
            f = wl_fp_at(x, 0xb8, m, f, vc, GMS_REG_NONE);
            uint64_t at[32];
            for (int l = 0; l < 32; l++) at[l] = 4 * (2 * BS * BS) + sa[l];
            wl_sts_at(x, 0xc0, m, 4, at, GMS_REG_NONE, f);
        }
        wl_bar_all(W, nw, 0xc8);
        if (i == iter - 1) break;
        /* temp_on_cuda = temp_t for the computed cells */
        for (int t = 0; t < BS * BS; t++)
            if (computed[t]) ton[t / BS][t % BS] = tt[t / BS][t % BS];
        wl_pyramid_copy(W, nw, computed, 0xd0, 4 * (2 * BS * BS), 0);
    }
    float *td = WL_F(*dst);
    uint64_t gaddr[BS * BS];
    float res[BS * BS];   /* what thread t stores, for the shadow memory */
    for (int t = 0; t < BS * BS; t++) {
        if (!computed[t]) continue;
        int tx = t % BS, ty = t / BS;
        uint64_t idx = (uint64_t)cols * (uint64_t)(blkY + ty) + (uint64_t)(blkX + tx);
        gaddr[t] = dst->d + 4 * idx;
        td[idx] = res[t] = tt[ty][tx];
    }
    uint32_t vals[BS * BS];
    memcpy(vals, res, sizeof vals);
    wl_pyramid_store(W, nw, computed, 0xf0, 4 * (2 * BS * BS), gaddr, ri, vals);
    (void)err;
    return 0;
}

/* One repetition per call: its reset of the input temperatures (host copy + H2D) must happen
 * only when the previous repetition's kernels have run, which is when next() is called again. */
static int next(void *st, gms_program *p, gms_error *err)
{
    hs *s = st;
    if (s->rep == s->repeat) return 0;
    uint64_t n = s->rows * s->rows;
    s->sh = p->shadow;
    if (s->rep == 0) {
        wl_buf_alloc(p, &s->temp[0], "MatrixTemp0", 0);
        wl_buf_alloc(p, &s->temp[1], "MatrixTemp1", 0);
        wl_buf_alloc(p, &s->power, "MatrixPower", 1);
    }
    uint64_t small = BS - s->pyramid * 2;
    uint32_t bc = (uint32_t)((s->rows + small - 1) / small);
    wl_kernel k = {.st = s, .fill = k_temp, .grid = {bc, bc, 1}, .block = {BS, BS, 1}};
    memcpy(s->temp[0].h, s->temp0, 4 * n);
    wl_buf_upload(p, &s->temp[0]);
    int dst = wl_pyramid_launches(p, &k, "calculate_temp", s->sim_time, s->pyramid, 32, 3 * 4 * BS * BS, 1);
    gms_prog_copy_d2h(p, s->temp[dst].d, s->temp[dst].bytes);
    s->final_buf = dst;
    s->rep++;
    (void)err;
    return 1;
}

/* one time step of the CPU reference (a wl_sweep_fn): b = the temperatures after a */
static void sweep(const void *ctx, const float *a, float *b)
{
    const hs *s = ctx;
    int64_t R = (int64_t)s->rows;
    const float *pw = WL_F(s->power);
    for (int64_t y = 0; y < R; y++)
        for (int64_t x = 0; x < R; x++) {
            int64_t N = y > 0 ? y - 1 : 0, S = y < R - 1 ? y + 1 : R - 1;
            int64_t Wd = x > 0 ? x - 1 : 0, E = x < R - 1 ? x + 1 : R - 1;
            b[y * R + x] = cell(s, a[y * R + x], pw[y * R + x], a[N * R + x], a[S * R + x], a[y * R + E],
                                a[y * R + Wd]);
        }
}

static int verify(void *st, gms_error *err)
{
    hs *s = st;
    return wl_check_pingpong_f32("hotspot", "temperature", s->sh, &s->temp[s->final_buf], s->temp0,
                                 s->rows * s->rows, s->sim_time, sweep, s, 1e-5, err);
}

static void destroy(void *st)
{
    hs *s = st;
    if (!s) return;
    wl_buf_free(&s->power);
    wl_buf_free(&s->temp[0]);
    wl_buf_free(&s->temp[1]);
    free(s->temp0);
    free(s);
}

const gms_workload_ops gms_wl_hotspot = {
    .name = "hotspot", .suite = "rodinia", .domain = "physics simulation", .ri = "R",
    .summary = "HotSpot: 2D transient thermal stencil, pyramid time-blocking in shared memory",
    .params = params, .create = create, .next = next, .verify = verify, .destroy = destroy,
    .footprint = footprint,
};
