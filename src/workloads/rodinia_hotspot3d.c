/* HOTSPOT3D (Rodinia hotspot3D, UVMBench): 3D transient thermal stencil on rows x rows x
 * layers cells. Kernel hotspotOpt1 (64x4 threads, one thread per (x, y) column marching up
 * the z layers in registers), `iter` launches ping-ponging tIn / tOut. */
#include "workloads/wl_buf.h"
#include "workloads/wl_clamp.h"
#include "workloads/wl_pingpong.h"
#include "util/rng.h"
#include <stdlib.h>
#include <string.h>

#define BX 64
#define BY 4

typedef struct h3 {
    uint64_t nx, ny, nz, iters, repeat;
    uint64_t rep;       /* repetitions pushed so far */
    int final_buf;
    wl_buf p, t[2];
    float *t0;
    float sdc, ce, cw, cn, cs, ct, cb, cc;
    wl_shadow *sh;          /* functional verify runs: verify reads the result from it */
} h3;

static const gms_wl_param params[] = {
    {"rows", "512", "rows = cols of each layer (the suite's <rows/cols>); multiple of 64"},
    {"layers", "8", "number of layers"},
    {"iter", "100", "number of iterations (kernel launches)"},
    {"scale", "1", "multiplies rows"},
    {"repeat", "1", "run the whole simulation N times from the same input"},
    {NULL, NULL, NULL},
};

static uint64_t footprint(const gms_wl_args *a)
{
    gms_error e;
    uint64_t r = 0;
    if (wl_clamp_scaled(a, "hotspot3d", "rows", BX, BX, 1 << 15, &r, &e)) return 0;
    return 3 * 4 * r * r * gms_wl_u64(a, "layers");
}

static int create(const gms_wl_args *a, void **out, gms_error *err)
{
    uint64_t r, nz, it, rep;
    if (wl_clamp_scaled(a, "hotspot3d", "rows", BX, BX, 1 << 15, &r, err) || wl_param(a, "layers", 2, 1 << 16, &nz, err) ||
        wl_param(a, "iter", 1, 1000000, &it, err) || wl_param(a, "repeat", 1, 1000000, &rep, err))
        return -1;
    if (r * r * nz > (1ULL << 31))
        return gms_err(err, "workload hotspot3d: rows*rows*layers = %llu overflows the kernel's int index",
                       (unsigned long long)(r * r * nz));
    h3 *s = gms_xcalloc(1, sizeof *s);
    s->nx = s->ny = r;
    s->nz = nz;
    s->iters = it;
    s->repeat = rep;
    float t_chip = 0.0005f, chip_height = 0.016f, chip_width = 0.016f;
    float dx = chip_height / (float)r, dy = chip_width / (float)r, dz = t_chip / (float)nz;
    float Cap = (float)(0.5 * 1.75e6 * t_chip * dx * dy);
    float Rx = (float)(dy / (2.0 * 100 * t_chip * dx));
    float Ry = (float)(dx / (2.0 * 100 * t_chip * dy));
    float Rz = (float)(dz / (100 * dx * dy));
    float max_slope = (float)(3.0e6 / (0.5 * t_chip * 1.75e6));
    float dt = (float)(0.001 / max_slope);
    s->sdc = dt / Cap;
    s->ce = s->cw = s->sdc / Rx;
    s->cn = s->cs = s->sdc / Ry;
    s->ct = s->cb = s->sdc / Rz;
    s->cc = (float)(1.0 - (2.0 * s->ce + 2.0 * s->cn + 3.0 * s->ct));
    uint64_t n = r * r * nz;
    wl_buf_new(&s->p, 4 * n);
    wl_buf_new(&s->t[0], 4 * n);
    wl_buf_new(&s->t[1], 4 * n);
    s->t0 = gms_xmalloc(4 * n);
    gms_rng g;
    gms_rng_seed(&g, gms_wl_seed(a));
    for (uint64_t i = 0; i < n; i++) {
        WL_F(s->p)[i] = 0.001f * (float)gms_rng_double(&g);
        s->t0[i] = 323.0f + 20.0f * (float)gms_rng_double(&g);
    }
    *out = s;
    return 0;
}

static float cell(const h3 *s, float t1, float t2, float t3, float w, float e, float so, float n, float p)
{
    return s->cc * t2 + s->cw * w + s->ce * e + s->cs * so + s->cn * n + s->cb * t1 + s->ct * t3 + s->sdc * p +
           s->ct * 80.0f;
}

static int k_opt1(const wl_kernel *k, uint64_t blk, gms_block_trace *out, gms_error *err)
{
    h3 *s = k->st;
    wl_warp W[WL_MAXW];
    uint32_t nw = wl_block_begin(out, BX * BY, W);
    wl_warps_sh(W, nw, k);
    const wl_buf *ti = &s->t[k->arg[0]], *to = &s->t[k->arg[1]];
    const float *tin = WL_F(*ti), *p = WL_F(s->p);
    float *tout = WL_F(*to);
    int64_t nx = (int64_t)s->nx, ny = (int64_t)s->ny, nz = (int64_t)s->nz, xy = nx * ny;
    uint64_t bx = blk % k->grid.x, by = blk / k->grid.x;
    for (uint32_t w = 0; w < nw; w++) {
        wl_warp *x = &W[w];
        int64_t c[32], Wi[32], Ei[32], Ni[32], Si[32];
        float t1[32], t2[32], t3[32];
        float vw_[32], ve_[32], vs_[32], vn_[32], vp_[32], vo_[32];   /* for the shadow memory */
        uint64_t a[32], aw[32], ae[32], an[32], as[32], ap[32], at[32];
        uint8_t ri = wl_prologue_idx(x, x->live);
        uint8_t rj = wl_int_at(x, 0x18, x->live, ri, GMS_REG_NONE);
        WL_TLANES(x, x->live, l, t) {
            int64_t i = (int64_t)(bx * BX + t % BX), j = (int64_t)(by * BY + t / BX);
            c[l] = i + j * nx;
            Wi[l] = i == 0 ? c[l] : c[l] - 1;
            Ei[l] = i == nx - 1 ? c[l] : c[l] + 1;
            Ni[l] = j == 0 ? c[l] : c[l] - nx;
            Si[l] = j == ny - 1 ? c[l] : c[l] + nx;
            t1[l] = t2[l] = tin[c[l]];
            t3[l] = tin[c[l] + xy];
            a[l] = ti->d + 4 * (uint64_t)c[l];
            at[l] = ti->d + 4 * (uint64_t)(c[l] + xy);
        }
        uint8_t rw2 = wl_int_at(x, 0x20, x->live, rj, GMS_REG_NONE);
        uint8_t rt2 = wl_ldg_at(x, 0x28, x->live, 4, a, rj);
        WL_SH_LD(x, x->live, float, t2[l]);
        uint8_t rt3 = wl_ldg_at(x, 0x30, x->live, 4, at, rj);
        WL_SH_LD(x, x->live, float, t3[l]);
        for (int64_t z = 0; z < nz; z++) {
            if (z > 0) {
                WL_TLANES(x, x->live, l, t) {
                    t1[l] = t2[l];
                    t2[l] = t3[l];
                    if (z < nz - 1) { t3[l] = tin[c[l] + xy]; at[l] = ti->d + 4 * (uint64_t)(c[l] + xy); }
                }
                if (z < nz - 1) {
                    rt2 = rt3;
                    rt3 = wl_ldg_at(x, 0x38, x->live, 4, at, rw2);
                    WL_SH_LD(x, x->live, float, t3[l]);
                }
            }
            WL_TLANES(x, x->live, l, t) {
                aw[l] = ti->d + 4 * (uint64_t)Wi[l];
                ae[l] = ti->d + 4 * (uint64_t)Ei[l];
                an[l] = ti->d + 4 * (uint64_t)Ni[l];
                as[l] = ti->d + 4 * (uint64_t)Si[l];
                ap[l] = s->p.d + 4 * (uint64_t)c[l];
                a[l] = to->d + 4 * (uint64_t)c[l];
                vw_[l] = tin[Wi[l]]; ve_[l] = tin[Ei[l]]; vs_[l] = tin[Si[l]]; vn_[l] = tin[Ni[l]]; vp_[l] = p[c[l]];
                tout[c[l]] = vo_[l] = cell(s, t1[l], t2[l], t3[l], tin[Wi[l]], tin[Ei[l]], tin[Si[l]], tin[Ni[l]], p[c[l]]);
                c[l] += xy; Wi[l] += xy; Ei[l] += xy; Ni[l] += xy; Si[l] += xy;
            }
            uint8_t vw = wl_ldg_at(x, 0x40, x->live, 4, aw, rw2);
            WL_SH_LD(x, x->live, float, vw_[l]);
            uint8_t ve = wl_ldg_at(x, 0x48, x->live, 4, ae, rw2);
            WL_SH_LD(x, x->live, float, ve_[l]);
            uint8_t vs = wl_ldg_at(x, 0x50, x->live, 4, as, rw2);
            WL_SH_LD(x, x->live, float, vs_[l]);
            uint8_t vn = wl_ldg_at(x, 0x58, x->live, 4, an, rw2);
            WL_SH_LD(x, x->live, float, vn_[l]);
            uint8_t vp = wl_ldg_at(x, 0x60, x->live, 4, ap, rw2);
            WL_SH_LD(x, x->live, float, vp_[l]);
            uint8_t f = wl_fp_at(x, 0x68, x->live, rt2, GMS_REG_NONE, GMS_REG_NONE);
            f = wl_fp_at(x, 0x70, x->live, vw, f, GMS_REG_NONE);
            f = wl_fp_at(x, 0x78, x->live, ve, f, GMS_REG_NONE);
            f = wl_fp_at(x, 0x80, x->live, vs, f, GMS_REG_NONE);
            f = wl_fp_at(x, 0x88, x->live, vn, f, GMS_REG_NONE);
            f = wl_fp_at(x, 0x90, x->live, f, rt3, GMS_REG_NONE);
            f = wl_fp_at(x, 0x98, x->live, vp, f, GMS_REG_NONE);
            wl_stg_at(x, 0xa0, x->live, 4, a, rw2, f);
            WL_SH_ST(x, x->live, float, vo_[l]);
            rw2 = wl_int_at(x, 0xa8, x->live, rw2, GMS_REG_NONE);
            if (z > 0 && z < nz - 1) wl_bra_at(x, 0xb0, x->live, rw2);
        }
        wl_exit_at(x, WL_PC_END, x->live);
    }
    (void)err;
    return 0;
}

/* One repetition per call: its reset of the input temperatures (host copy + H2D) must happen
 * only when the previous repetition's kernels have run, which is when next() is called again. */
static int next(void *st, gms_program *p, gms_error *err)
{
    h3 *s = st;
    if (s->rep == s->repeat) return 0;
    uint64_t n = s->nx * s->ny * s->nz;
    if (s->rep == 0) {
        wl_buf_alloc(p, &s->p, "p_d", 1);
        wl_buf_alloc(p, &s->t[0], "tIn_d", 0);
        wl_buf_alloc(p, &s->t[1], "tOut_d", 0);
    }
    wl_kernel k = {.st = s, .fill = k_opt1, .grid = {(uint32_t)(s->nx / BX), (uint32_t)(s->ny / BY), 1}, .block = {BX, BY, 1}};
    memcpy(s->t[0].h, s->t0, 4 * n);
    s->sh = p->shadow;
    wl_buf_upload(p, &s->t[0]);
    int in = 0;
    for (uint64_t i = 0; i < s->iters; i++) {
        k.arg[0] = in;
        k.arg[1] = 1 - in;
        wl_launch_k(p, "hotspotOpt1", &k, 32, 0);
        in = 1 - in;
    }
    gms_prog_sync(p);
    gms_prog_copy_d2h(p, s->t[1 - in].d, s->t[1 - in].bytes);
    s->final_buf = in;
    s->rep++;
    (void)err;
    return 1;
}

/* one iteration of the CPU reference (a wl_sweep_fn): b = the temperatures after a */
static void sweep(const void *ctx, const float *a, float *b)
{
    const h3 *s = ctx;
    int64_t nx = (int64_t)s->nx, ny = (int64_t)s->ny, nz = (int64_t)s->nz;
    const float *p = WL_F(s->p);
    for (int64_t z = 0; z < nz; z++)
        for (int64_t y = 0; y < ny; y++)
            for (int64_t x = 0; x < nx; x++) {
                int64_t c = x + y * nx + z * nx * ny;
                int64_t w = x == 0 ? c : c - 1, e = x == nx - 1 ? c : c + 1;
                int64_t nn = y == 0 ? c : c - nx, so = y == ny - 1 ? c : c + nx;
                int64_t bo = z == 0 ? c : c - nx * ny, t = z == nz - 1 ? c : c + nx * ny;
                b[c] = cell(s, a[bo], a[c], a[t], a[w], a[e], a[so], a[nn], p[c]);
            }
}

static int verify(void *st, gms_error *err)
{
    h3 *s = st;
    return wl_check_pingpong_f32("hotspot3d", "temperature", s->sh, &s->t[s->final_buf], s->t0,
                                 s->nx * s->ny * s->nz, s->iters, sweep, s, 1e-5, err);
}

static void destroy(void *st)
{
    h3 *s = st;
    if (!s) return;
    wl_buf_free(&s->p);
    wl_buf_free(&s->t[0]);
    wl_buf_free(&s->t[1]);
    free(s->t0);
    free(s);
}

const gms_workload_ops gms_wl_hotspot3d = {
    .name = "hotspot3d", .suite = "rodinia", .domain = "physics simulation", .ri = "R",
    .summary = "HotSpot3D: 3D thermal stencil, one thread per column marching through the layers",
    .params = params, .create = create, .next = next, .verify = verify, .destroy = destroy,
    .footprint = footprint,
};
