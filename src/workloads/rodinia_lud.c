/* LUD (Rodinia 3.1 lud, CUDA): in-place LU decomposition (no pivoting) of a size x size
 * matrix in 16 x 16 tiles. Per step i (offset i = 0, 16, ...) while size - i > 16:
 *   lud_diagonal   1 block of 16 threads: factors the diagonal tile in shared memory
 *   lud_perimeter  (size-i)/16 - 1 blocks of 32 threads: threads 0-15 solve the tile row
 *                  right of the diagonal (L^-1 * A), threads 16-31 the tile column below it
 *                  (A * U^-1), one tile pair per block; the halves diverge
 *   lud_internal   ((size-i)/16 - 1)^2 blocks of 16 x 16 threads: A -= col * row per tile
 * then a last lud_diagonal on the bottom-right tile.
 *
 * Input: the suite's run script reads 512.dat (a random matrix made for LU without pivoting);
 * here a matrix with uniform [0, 1) entries and size added to the diagonal (diagonally
 * dominant, so no pivot is needed), from the seed. Verified against a plain (untiled) LU in
 * double precision. */
#include "workloads/wl_util.h"
#include "workloads/wl_clamp.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define B 16

typedef struct lud {
    uint64_t n, repeat, rep;
    float *m, *m0;
    uint64_t d_m;
    wl_shadow *sh;
    /* lud_internal's shared-memory load addresses, the same for every block: warp w's lanes
     * at step i read temp_left[ty][i] (col) and temp_top[i][tx] (row); filled by the first
     * block (host speed: the loop then builds no addresses) */
    int sh_ready;
    uint64_t sh_col[8][B][32], sh_row[8][B][32];
} lud;

static const gms_wl_param params[] = {
    {"size", "512", "matrix dimension (512.dat), rounded down to a multiple of 16"},
    {"scale", "1", "multiplies size (rounded down to a multiple of 16)"},
    {"repeat", "1", "factor the input N times (uploaded again each time)"},
    {NULL, NULL, NULL},
};

static int sizes(const gms_wl_args *a, uint64_t *n, gms_error *err)
{
    if (wl_clamp_scaled(a, "lud", "size", B, B, 1 << 15, n, err)) return -1;
    if (*n < B) return gms_err(err, "workload lud: size=%llu must be at least 16", (unsigned long long)*n);
    return 0;
}

static uint64_t footprint(const gms_wl_args *a)
{
    gms_error e;
    uint64_t n;
    if (sizes(a, &n, &e)) return 0;
    return 4 * n * n;
}

static int create(const gms_wl_args *a, void **out, gms_error *err)
{
    uint64_t n;
    if (sizes(a, &n, err) || gms_wl_check_range(a, "repeat", 1, 1000000, err)) return -1;
    lud *s = gms_xcalloc(1, sizeof *s);
    s->n = n;
    s->repeat = gms_wl_u64(a, "repeat");
    s->m = wl_malloc(n * n, 4);
    s->m0 = wl_malloc(n * n, 4);
    gms_rng g;
    gms_rng_seed(&g, gms_wl_seed(a));
    for (uint64_t i = 0; i < n * n; i++) s->m0[i] = wl_randf(&g);
    for (uint64_t i = 0; i < n; i++) s->m0[i * n + i] += (float)n;
    *out = s;
    return 0;
}

#define M(r, c) s->m[(uint64_t)(r) * s->n + (uint64_t)(c)]
#define MA(r, c) (s->d_m + 4 * ((uint64_t)(r) * s->n + (uint64_t)(c)))

/* lud_diagonal, arg 0 = offset: one warp of 16 lanes */
static int k_diag(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    lud *s = k->st;
    uint64_t off = (uint64_t)k->arg[0];
    wl_warp w;
    wl_warp_begin(&w, bt, k, block, 0);
    uint32_t m = w.live;
    uint64_t a[32];
    float sh[B][B];
    uint8_t ri = wl_int(&w, m, GMS_REG_NONE, GMS_REG_NONE);   /* S2R tid */
    uint32_t pc = w.pc;
    for (int i = 0; i < B; i++) {
        w.pc = pc;
        WL_LANES(m, l) { a[l] = MA(off + (uint64_t)i, off + (uint64_t)l); sh[i][l] = M(off + (uint64_t)i, off + (uint64_t)l); }
        uint8_t v = wl_ldg(&w, m, a, ri);
        WL_SH_LD(&w, m, float, sh[i][l]);
        WL_LANES(m, l) a[l] = 4 * (uint64_t)(i * B + l);
        wl_st(&w, m, GMS_MEM_ST_SHARED, 4, a, GMS_REG_NONE, v);
        wl_bra(&w, m);
    }
    wl_bar(&w);
    pc = w.pc;
    for (int i = 0; i < B - 1; i++) {
        w.pc = pc;
        uint32_t mt = m & ~gms_lanes(i + 1);   /* tx > i */
        wl_bra(&w, m);
        uint32_t pj = w.pc;
        for (int j = 0; j < i; j++) {
            w.pc = pj;
            WL_LANES(mt, l) { a[l] = 4 * (uint64_t)(l * B + j); sh[l][i] -= sh[l][j] * sh[j][i]; }
            uint8_t x = wl_ld(&w, mt, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE);
            WL_LANES(mt, l) a[l] = 4 * (uint64_t)(j * B + i);
            uint8_t y = wl_ld(&w, mt, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE);
            WL_LANES(mt, l) a[l] = 4 * (uint64_t)(l * B + i);
            uint8_t z = wl_ld(&w, mt, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE);
            wl_st(&w, mt, GMS_MEM_ST_SHARED, 4, a, GMS_REG_NONE, wl_fp(&w, mt, x, y, z));
            wl_bra(&w, mt);
        }
        w.pc = pj + 6 * 16;
        WL_LANES(mt, l) { a[l] = 4 * (uint64_t)(i * B + i); sh[l][i] /= sh[i][i]; }
        uint8_t d = wl_ld(&w, mt, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE);
        d = wl_sfu(&w, mt, d);
        WL_LANES(mt, l) a[l] = 4 * (uint64_t)(l * B + i);
        uint8_t x = wl_ld(&w, mt, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE);
        wl_st(&w, mt, GMS_MEM_ST_SHARED, 4, a, GMS_REG_NONE, wl_fp(&w, mt, x, d, GMS_REG_NONE));
        wl_bar(&w);
        pj = w.pc;
        for (int j = 0; j < i + 1; j++) {
            w.pc = pj;
            WL_LANES(mt, l) { a[l] = 4 * (uint64_t)((i + 1) * B + j); sh[i + 1][l] -= sh[i + 1][j] * sh[j][l]; }
            uint8_t p = wl_ld(&w, mt, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE);
            WL_LANES(mt, l) a[l] = 4 * (uint64_t)(j * B + l);
            uint8_t q = wl_ld(&w, mt, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE);
            WL_LANES(mt, l) a[l] = 4 * (uint64_t)((i + 1) * B + l);
            uint8_t r = wl_ld(&w, mt, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE);
            wl_st(&w, mt, GMS_MEM_ST_SHARED, 4, a, GMS_REG_NONE, wl_fp(&w, mt, p, q, r));
            wl_bra(&w, mt);
        }
        w.pc = pj + 6 * 16;
        wl_bar(&w);
    }
    pc = w.pc;
    for (int i = 1; i < B; i++) {
        w.pc = pc;
        WL_LANES(m, l) a[l] = 4 * (uint64_t)(i * B + l);
        uint8_t v = wl_ld(&w, m, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE);
        WL_LANES(m, l) { a[l] = MA(off + (uint64_t)i, off + (uint64_t)l); M(off + (uint64_t)i, off + (uint64_t)l) = sh[i][l]; }
        wl_stg(&w, m, a, ri, v);
        WL_SH_ST(&w, m, float, sh[i][l]);
        wl_bra(&w, m);
    }
    wl_exit(&w, m);
    (void)err;
    return 0;
}

/* lud_perimeter, arg 0 = offset: one warp, lanes 0-15 the row tile, 16-31 the column tile */
static int k_peri(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    lud *s = k->st;
    uint64_t off = (uint64_t)k->arg[0], t = off + (block + 1) * B;   /* the tile's first row / col */
    wl_warp w;
    wl_warp_begin(&w, bt, k, block, 0);
    const uint32_t mr = 0xffffu, mc = 0xffff0000u;
    uint64_t a[32];
    float dia[B][B], row[B][B], col[B][B];
    uint8_t ri = wl_int(&w, 0xffffffffu, GMS_REG_NONE, GMS_REG_NONE);
    wl_pred(&w, 0xffffffffu, ri, GMS_REG_NONE);
    wl_bra(&w, 0xffffffffu);
    /* loads: each half its 8 rows of dia, then its 16 rows of peri_row / peri_col */
    uint32_t pc = w.pc;
    for (int h = 0; h < 2; h++) {
        uint32_t mh = h ? mc : mr;
        w.pc = pc + (uint32_t)h * 8 * 16;
        uint32_t pl = w.pc;
        for (int i = 0; i < B / 2; i++) {
            int ii = h * B / 2 + i;
            w.pc = pl;
            WL_LANES(mh, l) { int x = l % B; a[l] = MA(off + (uint64_t)ii, off + (uint64_t)x); dia[ii][x] = M(off + (uint64_t)ii, off + (uint64_t)x); }
            uint8_t v = wl_ldg(&w, mh, a, ri);
            WL_SH_LD(&w, mh, float, dia[ii][l % B]);
            WL_LANES(mh, l) a[l] = 4 * (uint64_t)(ii * B + l % B);
            wl_st(&w, mh, GMS_MEM_ST_SHARED, 4, a, GMS_REG_NONE, v);
            wl_bra(&w, mh);
        }
        w.pc = pl + 3 * 16;
        pl = w.pc;
        for (int i = 0; i < B; i++) {
            w.pc = pl;
            WL_LANES(mh, l) {
                int x = l % B;
                if (!h) { a[l] = MA(off + (uint64_t)i, t + (uint64_t)x); row[i][x] = M(off + (uint64_t)i, t + (uint64_t)x); }
                else { a[l] = MA(t + (uint64_t)i, off + (uint64_t)x); col[i][x] = M(t + (uint64_t)i, off + (uint64_t)x); }
            }
            uint8_t v = wl_ldg(&w, mh, a, ri);
            WL_SH_LD(&w, mh, float, h ? col[i][l % B] : row[i][l % B]);
            WL_LANES(mh, l) a[l] = 4 * (uint64_t)((1 + h) * B * B + i * B + l % B);
            wl_st(&w, mh, GMS_MEM_ST_SHARED, 4, a, GMS_REG_NONE, v);
            wl_bra(&w, mh);
        }
    }
    wl_bar(&w);
    /* peri-row: row[i][x] -= dia[i][j] * row[j][x]; peri-col: col[y][i] -= col[y][j] * dia[j][i], /= dia[i][i] */
    pc = w.pc;
    for (int i = 1; i < B; i++)
        for (int j = 0; j < i; j++) {
            w.pc = pc;
            WL_LANES(mr, l) { row[i][l] -= dia[i][j] * row[j][l]; a[l] = 4 * (uint64_t)(i * B + j); }
            uint8_t x = wl_ld(&w, mr, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE);
            WL_LANES(mr, l) a[l] = 4 * (uint64_t)(B * B + j * B + l);
            uint8_t y = wl_ld(&w, mr, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE);
            WL_LANES(mr, l) a[l] = 4 * (uint64_t)(B * B + i * B + l);
            uint8_t z = wl_ld(&w, mr, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE);
            wl_st(&w, mr, GMS_MEM_ST_SHARED, 4, a, GMS_REG_NONE, wl_fp(&w, mr, x, y, z));
            wl_bra(&w, mr);
        }
    pc = w.pc;
    for (int i = 0; i < B; i++) {
        uint32_t pj = pc;
        for (int j = 0; j < i; j++) {
            w.pc = pj;
            WL_LANES(mc, l) { int y = l - B; col[y][i] -= col[y][j] * dia[j][i]; a[l] = 4 * (uint64_t)(2 * B * B + y * B + j); }
            uint8_t x = wl_ld(&w, mc, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE);
            WL_LANES(mc, l) a[l] = 4 * (uint64_t)(j * B + i);
            uint8_t y = wl_ld(&w, mc, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE);
            WL_LANES(mc, l) a[l] = 4 * (uint64_t)(2 * B * B + (l - B) * B + i);
            uint8_t z = wl_ld(&w, mc, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE);
            wl_st(&w, mc, GMS_MEM_ST_SHARED, 4, a, GMS_REG_NONE, wl_fp(&w, mc, x, y, z));
            wl_bra(&w, mc);
        }
        w.pc = pc + 6 * 16;
        WL_LANES(mc, l) { int y = l - B; col[y][i] /= dia[i][i]; a[l] = 4 * (uint64_t)(i * B + i); }
        uint8_t d = wl_sfu(&w, mc, wl_ld(&w, mc, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE));
        WL_LANES(mc, l) a[l] = 4 * (uint64_t)(2 * B * B + (l - B) * B + i);
        uint8_t x = wl_ld(&w, mc, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE);
        wl_st(&w, mc, GMS_MEM_ST_SHARED, 4, a, GMS_REG_NONE, wl_fp(&w, mc, x, d, GMS_REG_NONE));
        wl_bra(&w, mc);
    }
    wl_bar(&w);
    /* stores: rows 1..15 of the row tile, rows 0..15 of the column tile */
    pc = w.pc;
    for (int i = 1; i < B; i++) {
        w.pc = pc;
        WL_LANES(mr, l) a[l] = 4 * (uint64_t)(B * B + i * B + l);
        uint8_t v = wl_ld(&w, mr, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE);
        WL_LANES(mr, l) { a[l] = MA(off + (uint64_t)i, t + (uint64_t)l); M(off + (uint64_t)i, t + (uint64_t)l) = row[i][l]; }
        wl_stg(&w, mr, a, ri, v);
        WL_SH_ST(&w, mr, float, row[i][l]);
        wl_bra(&w, mr);
    }
    pc = w.pc;
    for (int i = 0; i < B; i++) {
        w.pc = pc;
        WL_LANES(mc, l) a[l] = 4 * (uint64_t)(2 * B * B + i * B + l - B);
        uint8_t v = wl_ld(&w, mc, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE);
        WL_LANES(mc, l) {
            uint64_t x = (uint64_t)(l - B);
            a[l] = MA(t + (uint64_t)i, off + x);
            M(t + (uint64_t)i, off + x) = col[i][x];
        }
        wl_stg(&w, mc, a, ri, v);
        WL_SH_ST(&w, mc, float, col[i][l - B]);
        wl_bra(&w, mc);
    }
    wl_exit(&w, 0xffffffffu);
    (void)err;
    return 0;
}

/* lud_internal, arg 0 = offset: 8 warps of 16 x 16 threads */
static int k_internal(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    lud *s = k->st;
    uint64_t off = (uint64_t)k->arg[0];
    uint64_t bx = block % k->grid.x, by = block / k->grid.x;
    uint64_t gr = off + (by + 1) * B, gc = off + (bx + 1) * B;
    float prow[B][B], pcol[B][B];
    for (int y = 0; y < B; y++)
        for (int x = 0; x < B; x++) {
            prow[y][x] = M(off + (uint64_t)y, gc + (uint64_t)x);
            pcol[y][x] = M(gr + (uint64_t)y, off + (uint64_t)x);
        }
    wl_warp W[8];
    uint8_t ri[8];
    uint64_t a[32];
    for (uint32_t wi = 0; wi < 8; wi++) {
        wl_warp *w = &W[wi];
        wl_warp_begin(w, bt, k, block, wi);
        uint32_t m = w->live;
        ri[wi] = wl_int(w, m, GMS_REG_NONE, GMS_REG_NONE);
        WL_LANES(m, l) a[l] = MA(off + w->ty[l], gc + w->tx[l]);
        uint8_t v = wl_ldg(w, m, a, ri[wi]);
        WL_SH_LD(w, m, float, prow[w->ty[l]][w->tx[l]]);
        WL_LANES(m, l) a[l] = 4 * (uint64_t)(w->ty[l] * B + w->tx[l]);
        wl_st(w, m, GMS_MEM_ST_SHARED, 4, a, GMS_REG_NONE, v);
        WL_LANES(m, l) a[l] = MA(gr + w->ty[l], off + w->tx[l]);
        v = wl_ldg(w, m, a, ri[wi]);
        WL_SH_LD(w, m, float, pcol[w->ty[l]][w->tx[l]]);
        WL_LANES(m, l) a[l] = 4 * (uint64_t)(B * B + w->ty[l] * B + w->tx[l]);
        wl_st(w, m, GMS_MEM_ST_SHARED, 4, a, GMS_REG_NONE, v);
        wl_bar(w);
    }
    /* each thread's sum, over i in order from 0 (as the kernel adds them), a row of the
     * tile at a time (host speed: the x loop vectorises; the same roundings per element) */
    float acc[B][B];
    for (int y = 0; y < B; y++) {
        for (int x = 0; x < B; x++) acc[y][x] = 0;
        for (int i = 0; i < B; i++)
            for (int x = 0; x < B; x++) acc[y][x] += pcol[y][i] * prow[i][x];
    }
    if (!s->sh_ready) {
        for (uint32_t wi = 0; wi < 8; wi++) {
            const wl_warp *w = &W[wi];
            for (int i = 0; i < B; i++)
                for (int l = 0; l < 32; l++) {
                    s->sh_col[wi][i][l] = 4 * (uint64_t)(B * B + w->ty[l] * B + (uint32_t)i);
                    s->sh_row[wi][i][l] = 4 * (uint64_t)((uint32_t)i * B + w->tx[l]);
                }
        }
        s->sh_ready = 1;
    }
    for (uint32_t wi = 0; wi < 8; wi++) {
        wl_warp *w = &W[wi];
        uint32_t m = w->live;
        uint8_t sum = wl_int(w, m, GMS_REG_NONE, GMS_REG_NONE);
        float old[32];
        for (int i = 0; i < B; i++) {
            uint8_t x = wl_ld(w, m, GMS_MEM_LD_SHARED, 4, s->sh_col[wi][i], GMS_REG_NONE);
            uint8_t y = wl_ld(w, m, GMS_MEM_LD_SHARED, 4, s->sh_row[wi][i], GMS_REG_NONE);
            sum = wl_fp(w, m, x, y, sum);
        }
        WL_LANES(m, l) { a[l] = MA(gr + w->ty[l], gc + w->tx[l]); old[l] = M(gr + w->ty[l], gc + w->tx[l]); }
        uint8_t v = wl_ldg(w, m, a, ri[wi]);
        WL_SH_LD(w, m, float, old[l]);
        WL_LANES(m, l) M(gr + w->ty[l], gc + w->tx[l]) = old[l] - acc[w->ty[l]][w->tx[l]];
        wl_stg(w, m, a, ri[wi], wl_fp(w, m, v, sum, GMS_REG_NONE));
        WL_SH_ST(w, m, float, old[l] - acc[w->ty[l]][w->tx[l]]);
        wl_exit(w, m);
    }
    (void)err;
    return 0;
}

static int next(void *st, gms_program *p, gms_error *err)
{
    lud *s = st;
    if (s->rep == s->repeat) return 0;
    s->sh = p->shadow;
    uint64_t n = s->n;
    if (s->rep == 0) s->d_m = gms_prog_alloc(p, 4 * n * n, "m");
    memcpy(s->m, s->m0, 4 * n * n);
    gms_prog_copy_h2d(p, s->d_m, 4 * n * n);
    wl_sh_init(p, s->d_m, s->m, 4 * n * n);
    int64_t i = 0;
    for (; (uint64_t)i < n - B; i += B) {
        uint32_t nb = (uint32_t)((n - (uint64_t)i) / B - 1);
        wl_launch(p, "_Z12lud_diagonalPfii", wl_dim3(1, 1, 1), wl_dim3(B, 1, 1), 32, 4 * B * B, k_diag, s, &i, 1);
        wl_launch(p, "_Z13lud_perimeterPfii", wl_dim3(nb, 1, 1), wl_dim3(2 * B, 1, 1), 32, 3 * 4 * B * B, k_peri,
                  s, &i, 1);
        wl_launch(p, "_Z12lud_internalPfii", wl_dim3(nb, nb, 1), wl_dim3(B, B, 1), 24, 2 * 4 * B * B, k_internal, s,
                  &i, 1);
    }
    wl_launch(p, "_Z12lud_diagonalPfii", wl_dim3(1, 1, 1), wl_dim3(B, 1, 1), 32, 4 * B * B, k_diag, s, &i, 1);
    gms_prog_sync(p);
    gms_prog_copy_d2h(p, s->d_m, 4 * n * n);
    s->rep++;
    (void)err;
    return 1;
}

static int verify(void *st, gms_error *err)
{
    lud *s = st;
    uint64_t n = s->n;
    double *r = wl_malloc(n * n, 8);
    for (uint64_t i = 0; i < n * n; i++) r[i] = s->m0[i];
    for (uint64_t k = 0; k < n; k++)
        for (uint64_t i = k + 1; i < n; i++) {
            double f = r[i * n + k] /= r[k * n + k];
            for (uint64_t j = k + 1; j < n; j++) r[i * n + j] -= f * r[k * n + j];
        }
    float *want = wl_malloc(n * n, 4);
    for (uint64_t i = 0; i < n * n; i++) want[i] = (float)r[i];
    void *own;
    const float *got = wl_result(s->sh, s->d_m, s->m, n * n, 4, &own);
    int rc = wl_check_f32("lud", "LU", got, want, n * n, 1e-3, 1e-4, err);
    free(own); free(want); free(r);
    return rc;
}

static void destroy(void *st)
{
    lud *s = st;
    if (!s) return;
    free(s->m); free(s->m0); free(s);
}

const gms_workload_ops gms_wl_lud = {
    .name = "lud", .suite = "rodinia", .domain = "linear algebra", .ri = "-",
    .summary = "LU decomposition in 16x16 tiles: diagonal, perimeter and internal kernels per step (LUD)",
    .params = params, .create = create, .next = next, .verify = verify, .destroy = destroy,
    .footprint = footprint,
};
