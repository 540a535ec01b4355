/* cutcp (Parboil, src/cuda/cutoff6overlap.cu): the electrostatic potential of a set of atoms
 * on a lattice (spacing h = 0.5 A) with a cutoff (12 A): the host bins the atoms into 4 A
 * cubes of at most 8 atoms (float4 x, y, z, q; the overflow goes to the CPU), lists the
 * neighbouring bins within the cutoff of a region (constant memory NbrList) and launches
 * cuda_cutoff_potential_lattice6overlap once per z plane of 8^3-point regions: grid (x
 * regions, y regions), block 8 x 2 x 8 (one thread per (x, z) column pair of y points, four y
 * points each, 2h apart). Per pass of 32 bins each half-warp copies four bins (two coalesced
 * 16-float loads each) into shared memory, BAR, then every thread walks the cached bins' atoms
 * (until a zero charge), accumulating q / r * (1 - r^2/c^2)^2 for each of its four points
 * inside the cutoff, BAR; at the end the four energies go to the region's 512 floats.
 * The CPU parts (extra atoms, exclusions, the transpose of the regions into the lattice) are
 * not device work and are left out; verify compares the regions with a CPU evaluation of the
 * same binned sum. Defaults: the small dataset's scale, a 40 A water box (watbox.sl40.pqr
 * becomes 6414 atoms = 2138 waters at 1 g/cm^3, placed uniformly, charges -0.834 / +0.417 /
 * +0.417). Each thread loops over every neighbour bin: resumable. */
#include "workloads/parboil_util.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <immintrin.h>
#endif

enum { REGIONS, BINS };
enum { NATOMS, BOX, CUTOFF, XR, YR, ZR, BX, BY, BZ, C_, NBRLEN };
#define H 0.5f
#define BIN_DEPTH 8
#define BIN_LENGTH 4.f
#define BIN_INVLEN (1.f / BIN_LENGTH)
#define PADDING 0.5f
#define NBR_MAX (11 * 11 * 11)

static const gms_wl_param params[] = {
    { "atoms", "6414", "atoms (small dataset: a 40 A water box)" },
    { "box", "40", "side of the cubic box the atoms fill, in A" },
    { "cutoff", "12", "cutoff distance in A (Parboil: 12; at most 20)" },
    { "scale", "1", "multiplies atoms and box (the box's side by the cube root, keeping the density)" },
    { "repeat", "1", "run the kernel planes this many times (the regions are recomputed)" },
    { NULL, NULL, NULL },
};

/* the generated atoms (positions, charges) from the seed */
static void gen_atoms(uint64_t n, float box, uint64_t seed, float *xyzq)
{
    gms_rng r;
    gms_rng_seed(&r, seed);
    for (uint64_t i = 0; i < n; i++) {
        for (int c = 0; c < 3; c++) xyzq[4 * i + (uint64_t)c] = box * wl_randf(&r);
        xyzq[4 * i + 3] = i % 3 == 0 ? -0.834f : 0.417f;
    }
}

/* lattice extent (main.c: the atoms' extent padded by 0.5 A) and its origin */
static void extent(const float *xyzq, uint64_t n, float lo[3], uint64_t nl[3])
{
    float mn[3] = { INFINITY, INFINITY, INFINITY }, mx[3] = { -INFINITY, -INFINITY, -INFINITY };
    for (uint64_t i = 0; i < n; i++)
        for (int c = 0; c < 3; c++) {
            float v = xyzq[4 * i + (uint64_t)c];
            if (v < mn[c]) mn[c] = v;
            if (v > mx[c]) mx[c] = v;
        }
    for (int c = 0; c < 3; c++) {
        lo[c] = mn[c] - PADDING;
        nl[c] = (uint64_t)floorf((mx[c] + PADDING - lo[c]) / H) + 1;
    }
}

static int sizes(const gms_wl_args *a, uint64_t *d, gms_error *err)
{
    double sc = gms_wl_f64(a, "scale"), box = gms_wl_f64(a, "box") * cbrt(sc > 0 ? sc : 1);
    if (wl_clamp_scaled(a, "cutcp", "atoms", 1, 1, 1u << 26, &d[NATOMS], err) ||
        gms_wl_check_range(a, "cutoff", 1, 20, err))
        return -1;
    if (!(box >= 1 && box <= 4096))
        return gms_err(err, "workload cutcp: box=%s (scaled: %g A) must be in [1, 4096]", gms_wl_str(a, "box"), box);
    d[BOX] = (uint64_t)(box * 1000 + 0.5);   /* mA */
    d[CUTOFF] = gms_wl_u64(a, "cutoff");
    float *xyzq = wl_malloc(d[NATOMS], 4 * sizeof(float)), lo[3];
    uint64_t nl[3];
    gen_atoms(d[NATOMS], (float)d[BOX] / 1000, gms_wl_seed(a), xyzq);
    extent(xyzq, d[NATOMS], lo, nl);
    free(xyzq);
    uint64_t c = (uint64_t)ceil((double)d[CUTOFF] * BIN_INVLEN);
    for (int k = 0; k < 3; k++) {
        d[XR + k] = (nl[k] + 7) / 8;
        d[BX + k] = (uint64_t)ceil((double)(8 * d[XR + k]) * H * BIN_INVLEN) + 2 * c;
    }
    d[C_] = c;
    return 0;
}

static uint64_t nbins(const uint64_t *d) { return d[BX] * d[BY] * d[BZ]; }
static uint64_t elems(const uint64_t *d, int k)
{
    return k == REGIONS ? 512 * d[XR] * d[YR] * d[ZR] : nbins(d) * BIN_DEPTH * 4;
}

/* the neighbour list (8h = BIN_LENGTH: the "around 1 cell" case); returns its length */
static int nbrlist(const uint64_t *d, int *nb)
{
    int c = (int)d[C_], cnt = 0;
    float s = sqrtf(3), cut = (float)d[CUTOFF], r2 = (cut + s * BIN_LENGTH) * (cut + s * BIN_LENGTH);
    for (int k = -c; k <= c; k++)
        for (int j = -c; j <= c; j++)
            for (int i = -c; i <= c; i++) {
                if ((float)(i * i + j * j + k * k) * BIN_LENGTH * BIN_LENGTH >= r2) continue;
                nb[3 * cnt] = i;
                nb[3 * cnt + 1] = j;
                nb[3 * cnt + 2] = k;
                cnt++;
            }
    return cnt;
}

/* bins: atoms hashed in order, at most 8 per bin (the rest go to the CPU in the source) */
static void init(const pbl_state *s, void **h)
{
    const uint64_t *d = s->dim;
    float *xyzq = wl_malloc(d[NATOMS], 4 * sizeof(float)), lo[3];
    uint64_t nl[3];
    gen_atoms(d[NATOMS], (float)d[BOX] / 1000, s->seed, xyzq);
    extent(xyzq, d[NATOMS], lo, nl);
    float *bins = h[BINS];
    uint32_t *cnt = wl_calloc(nbins(d), sizeof *cnt);
    const int64_t c = (int64_t)d[C_];
    for (uint64_t n = 0; n < d[NATOMS]; n++) {
        float p[4] = { xyzq[4 * n] - lo[0], xyzq[4 * n + 1] - lo[1], xyzq[4 * n + 2] - lo[2], xyzq[4 * n + 3] };
        int64_t i = (int64_t)floorf(p[0] * BIN_INVLEN), j = (int64_t)floorf(p[1] * BIN_INVLEN),
                k = (int64_t)floorf(p[2] * BIN_INVLEN);
        if (i < -c || i >= (int64_t)d[BX] - c || j < -c || j >= (int64_t)d[BY] - c || k < -c ||
            k >= (int64_t)d[BZ] - c || p[3] == 0)
            continue;
        uint64_t b = (uint64_t)(((k + c) * (int64_t)d[BY] + j + c) * (int64_t)d[BX] + i + c);
        if (cnt[b] >= BIN_DEPTH) continue;
        memcpy(bins + (b * BIN_DEPTH + cnt[b]) * 4, p, sizeof p);
        cnt[b]++;
    }
    free(cnt);
    free(xyzq);
}

/* float index of bin (i, j, k) (relative to the zero bin) */
static inline uint64_t bin_at(const uint64_t *d, int64_t i, int64_t j, int64_t k)
{
    int64_t c = (int64_t)d[C_];
    return (uint64_t)(((k + c) * (int64_t)d[BY] + j + c) * (int64_t)d[BX] + i + c) * BIN_DEPTH * 4;
}

static inline int64_t my_bin(uint64_t region) { return (int64_t)floorf((float)(8 * region + 4) * H * BIN_INVLEN); }

/* one atom's contribution to a lattice point's four energies (y, y+2h, y+4h, y+6h); returns
 * the points inside the cutoff (bit q: point q), which are the ones updated. With SSE the four
 * points are one vector: each lane's operations, in each expression's order, are the scalar
 * code's (IEEE single precision, no contraction: the same bits). */
static inline unsigned atom_term(const float *at, float x, float y, float z, float cut2, float inv, float *e)
{
    float dx = at[0] - x, dz = at[2] - z, dxdz2 = PBL_MAD(dz, dz, dx * dx), dy = at[1] - y;
#if defined(__SSE2__)
    float dyq[4];
    for (int q = 0; q < 4; q++) {
        dyq[q] = dy;
        dy -= 2.0f * H;
    }
    __m128 vdy = _mm_loadu_ps(dyq);
    __m128 r2 = _mm_add_ps(_mm_mul_ps(vdy, vdy), _mm_set1_ps(dxdz2));
    __m128 in = _mm_cmplt_ps(r2, _mm_set1_ps(cut2));
    unsigned mask = (unsigned)_mm_movemask_ps(in);
    if (!mask) return 0;
    __m128 s = _mm_add_ps(_mm_mul_ps(_mm_xor_ps(r2, _mm_set1_ps(-0.0f)), _mm_set1_ps(inv)), _mm_set1_ps(1.f));
    __m128 rs = _mm_div_ps(_mm_set1_ps(1.0f), _mm_sqrt_ps(r2));
    __m128 ev = _mm_loadu_ps(e);
    __m128 ne = _mm_add_ps(_mm_mul_ps(_mm_mul_ps(_mm_mul_ps(_mm_set1_ps(at[3]), rs), s), s), ev);
    _mm_storeu_ps(e, _mm_or_ps(_mm_and_ps(in, ne), _mm_andnot_ps(in, ev)));
    return mask;
#else
    unsigned mask = 0;
    for (int q = 0; q < 4; q++) {
        float r2 = PBL_MAD(dy, dy, dxdz2);
        if (r2 < cut2) {
            float s = PBL_MAD(-r2, inv, 1.f);
            e[q] = PBL_MAD(at[3] * (1.0f / sqrtf(r2)) * s, s, e[q]);
            mask |= 1u << q;
        }
        dy -= 2.0f * H;
    }
    return mask;
#endif
}

typedef struct cut_warp cut_warp;
static void lanes_term(cut_warp *g, const float *at, float cut2, float inv, uint32_t m, uint32_t in4[4]);

typedef struct cut_warp {
    wl_wgen ws;
    uint64_t pass, b, atom;          /* 32-bin pass, cached bin, atom in the bin */
    int64_t bin[3];                  /* myBinIndex */
    float x[32], y[32], z[32], e[4][32];   /* e[point][lane] */
    uint8_t re[4], rx, ry, rz, rdx, rdz, rdy, rxz;
} cut_warp;

/* atom_term for the lanes of m of a warp: their energies, and in in4[q] the lanes whose point
 * q is inside the cutoff. With SSE four lanes at a time for one point q (each lane's
 * operations as atom_term's scalar code, in its order: the same bits), so the cutoff masks
 * come out per point without a transposition. */
static void lanes_term(cut_warp *g, const float *at, float cut2, float inv, uint32_t m, uint32_t in4[4])
{
#if defined(__SSE2__)
    const __m128 ax = _mm_set1_ps(at[0]), ay = _mm_set1_ps(at[1]), az = _mm_set1_ps(at[2]), aq = _mm_set1_ps(at[3]);
    const __m128 vc = _mm_set1_ps(cut2), vi = _mm_set1_ps(inv), one = _mm_set1_ps(1.f), h2 = _mm_set1_ps(2.0f * H);
    const __m128 sgn = _mm_set1_ps(-0.0f);
    for (int l = 0; l < 32; l += 4) {
        if (!(m >> l & 0xfu)) continue;
        __m128 dx = _mm_sub_ps(ax, _mm_loadu_ps(g->x + l)), dz = _mm_sub_ps(az, _mm_loadu_ps(g->z + l));
        __m128 dxdz2 = _mm_add_ps(_mm_mul_ps(dz, dz), _mm_mul_ps(dx, dx));
        __m128 dy = _mm_sub_ps(ay, _mm_loadu_ps(g->y + l));
        for (int q = 0; q < 4; q++) {
            __m128 r2 = _mm_add_ps(_mm_mul_ps(dy, dy), dxdz2);
            __m128 in = _mm_cmplt_ps(r2, vc);
            in4[q] |= (uint32_t)_mm_movemask_ps(in) << l;
            __m128 sv = _mm_add_ps(_mm_mul_ps(_mm_xor_ps(r2, sgn), vi), one);
            __m128 rs = _mm_div_ps(one, _mm_sqrt_ps(r2));
            __m128 ev = _mm_loadu_ps(&g->e[q][l]);
            __m128 ne = _mm_add_ps(_mm_mul_ps(_mm_mul_ps(_mm_mul_ps(aq, rs), sv), sv), ev);
            _mm_storeu_ps(&g->e[q][l], _mm_or_ps(_mm_and_ps(in, ne), _mm_andnot_ps(in, ev)));
            dy = _mm_sub_ps(dy, h2);
        }
    }
    for (int q = 0; q < 4; q++) in4[q] &= m;   /* a lane outside m (zeroed state) computed nothing of use */
#else
    WL_LANES(m, l) {
        float e4[4] = { g->e[0][l], g->e[1][l], g->e[2][l], g->e[3][l] };
        unsigned mk = atom_term(at, g->x[l], g->y[l], g->z[l], cut2, inv, e4);
        for (int q = 0; q < 4; q++) {
            g->e[q][l] = e4[q];
            in4[q] |= (mk >> q & 1u) << l;
        }
    }
#endif
}

static int step(const wl_kernel *k, wl_wgen *ws, gms_error *err)
{
    cut_warp *g = (cut_warp *)ws;
    wl_warp *w = &ws->w;
    pbl_state *s = k->st;
    const uint64_t *d = s->dim;
    const int *nb = s->aux;
    const int len = (int)k->arg[1];
    const uint64_t zr = (uint64_t)k->arg[0];
    const float *bins = PBL_F(s, BINS);
    const float cut2 = (float)d[CUTOFF] * (float)d[CUTOFF], inv = 1.f / cut2;
    const uint32_t m = w->live;
    uint64_t ad[32];
    WL_GEN_BEGIN(&ws->g)
    {
        for (int q = 0; q < 5; q++) wl_int(w, m, GMS_REG_NONE, GMS_REG_NONE);       /* S2R */
        uint8_t t = wl_int(w, m, GMS_REG_NONE, GMS_REG_NONE);                        /* tid */
        wl_int(w, m, t, GMS_REG_NONE);                                               /* myRegionAddr */
        uint8_t *r[3] = { &g->rx, &g->ry, &g->rz };
        for (int c = 0; c < 3; c++) *r[c] = wl_fp(w, m, wl_sfu(w, m, t), GMS_REG_NONE, GMS_REG_NONE);  /* I2F, FMUL h */
        for (int c = 0; c < 3; c++) wl_int(w, m, wl_sfu(w, m, wl_fp(w, m, GMS_REG_NONE, GMS_REG_NONE, GMS_REG_NONE)),
                                           GMS_REG_NONE);                                /* floorf -> myBinIndex */
        g->bin[0] = my_bin(w->bx);
        g->bin[1] = my_bin(w->by);
        g->bin[2] = my_bin(zr);
        WL_LANES(m, l) {
            g->x[l] = (float)(8 * w->bx + w->tx[l]) * H;
            g->y[l] = (float)(8 * w->by + w->ty[l]) * H;
            g->z[l] = (float)(8 * zr + w->tz[l]) * H;
            for (int q = 0; q < 4; q++) g->e[q][l] = 0.f;
        }
        for (int q = 0; q < 4; q++) g->re[q] = GMS_REG_NONE;
    }
    for (g->pass = 0; g->pass * 32 < (uint64_t)len; g->pass++) {
        w->pc = 0x200;
        /* each half-warp caches up to 4 bins: nbrid = half-warp + 8*bincnt + 32*pass */
        for (int bc = 0; bc < 4; bc++) {
            uint32_t mk = 0;
            int id[2];
            for (int hw = 0; hw < 2; hw++) {
                id[hw] = (int)(2 * w->warp) + hw + 8 * bc + 32 * (int)g->pass;
                if (id[hw] < len) mk |= 0xffffu << (16 * hw);
            }
            mk &= m;
            wl_pred(w, m, GMS_REG_NONE, GMS_REG_NONE);                               /* bincnt < 4 && nbrid < len */
            wl_bra(w, m & ~mk);
            if (!mk) break;
            WL_LANES(mk, l) ad[l] = 12 * (uint64_t)id[l >> 4];
            uint8_t nv = wl_ld(w, mk, GMS_MEM_LD_CONST, 8, ad, GMS_REG_NONE);          /* NbrList[nbrid].xy */
            WL_LANES(mk, l) ad[l] += 8;
            uint8_t nz = wl_ld(w, mk, GMS_MEM_LD_CONST, 4, ad, GMS_REG_NONE);          /* .z */
            uint8_t ij = wl_int(w, mk, nv, GMS_REG_NONE), kk = wl_int(w, mk, nz, GMS_REG_NONE);
            uint8_t fl = wl_int3(w, mk, ij, kk, GMS_REG_NONE);                         /* (k*bdy + j)*bdx + i */
            uint8_t pg = wl_int(w, mk, fl, GMS_REG_NONE);                              /* << 5, LEA */
            for (int hf = 0; hf < 2; hf++) {
                uint64_t el[32];
                WL_LANES(mk, l) {
                    const int *o = nb + 3 * id[l >> 4];
                    el[l] = bin_at(d, g->bin[0] + o[0], g->bin[1] + o[1], g->bin[2] + o[2]) + (uint64_t)(l & 15) +
                            16 * (uint64_t)hf;
                    ad[l] = s->d[BINS] + 4 * el[l];
                }
                uint8_t v = wl_ldg(w, mk, ad, pg);
                WL_SH_LD(w, mk, float, bins[el[l]]);
                WL_LANES(mk, l) ad[l] = 4 * (32 * (uint64_t)(id[l >> 4] - 32 * (int)g->pass) + (uint64_t)(l & 15) + 16 * (uint64_t)hf);
                wl_st(w, mk, GMS_MEM_ST_SHARED, 4, ad, GMS_REG_NONE, v);
            }
        }
        wl_bar(w);
        wl_pred(w, m, GMS_REG_NONE, GMS_REG_NONE);                                   /* numbins */
        for (g->b = 0; g->b < 32 && g->pass * 32 + g->b < (uint64_t)len; g->b++) {
            w->pc = 0x400;
            for (g->atom = 0; g->atom < BIN_DEPTH; g->atom++) {
                const int *o = nb + 3 * (g->pass * 32 + g->b);
                const float *at = bins + bin_at(d, g->bin[0] + o[0], g->bin[1] + o[1], g->bin[2] + o[2]) + 4 * g->atom;
                for (int l = 0; l < 32; l++) ad[l] = 4 * (32 * g->b + 4 * g->atom);
                uint8_t av = wl_ld(w, m, GMS_MEM_LD_SHARED, 16, ad, GMS_REG_NONE);     /* x y z q (broadcast) */
                wl_pred(w, m, av, GMS_REG_NONE);                                       /* 0 == aq */
                wl_bra(w, at[3] == 0.f ? m : 0);
                if (at[3] == 0.f) break;
                /* the lanes' energies, and per point q the lanes inside the cutoff */
                uint32_t in4[4] = { 0, 0, 0, 0 };
                lanes_term(g, at, cut2, inv, m, in4);
                g->rdx = wl_fp(w, m, av, g->rx, GMS_REG_NONE);
                g->rdz = wl_fp(w, m, av, g->rz, GMS_REG_NONE);
                g->rxz = wl_fp(w, m, g->rdz, g->rdz, wl_fp(w, m, g->rdx, g->rdx, GMS_REG_NONE));
                g->rdy = wl_fp(w, m, av, g->ry, GMS_REG_NONE);
                for (int q = 0; q < 4; q++) {
                    uint8_t r2 = wl_fp(w, m, g->rdy, g->rdy, g->rxz);                  /* FFMA r2 */
                    uint32_t in = in4[q];
                    wl_pred(w, m, r2, GMS_REG_NONE);                                   /* r2 < cutoff2 */
                    wl_bra(w, m & ~in);
                    if (in) {
                        uint8_t sr = wl_fp(w, in, r2, GMS_REG_NONE, GMS_REG_NONE);    /* s = 1 - r2*inv */
                        uint8_t rs = wl_sfu(w, in, r2);                                /* MUFU.RSQ */
                        uint8_t t = wl_fp(w, in, av, rs, GMS_REG_NONE);                /* aq * rsq */
                        t = wl_fp(w, in, t, sr, GMS_REG_NONE);                         /* * s */
                        g->re[q] = wl_fp(w, in, t, sr, g->re[q]);                      /* FFMA energy */
                    }
                    g->rdy = wl_fp(w, m, g->rdy, GMS_REG_NONE, GMS_REG_NONE);         /* dy -= 2h */
                }
                wl_int(w, m, GMS_REG_NONE, GMS_REG_NONE);                              /* i++ */
                wl_pred(w, m, GMS_REG_NONE, GMS_REG_NONE);
                wl_bra(w, g->atom + 1 < BIN_DEPTH ? m : 0);
            }
            pbl_loop_back(w, m, g->b + 1 < 32 && g->pass * 32 + g->b + 1 < (uint64_t)len ? m : 0, GMS_REG_NONE);
            WL_GEN_YIELD(&ws->g);
        }
        wl_bar(w);
        pbl_loop_back(w, m, (g->pass + 1) * 32 < (uint64_t)len ? m : 0, GMS_REG_NONE);
        WL_GEN_YIELD(&ws->g);
    }
    {
        float *R = PBL_F(s, REGIONS);
        const uint64_t reg = ((zr * d[YR] + w->by) * d[XR] + w->bx) * 512;
        uint8_t pr = wl_int(w, m, GMS_REG_NONE, GMS_REG_NONE);
        for (int q = 0; q < 4; q++) {
            uint64_t el[32];
            WL_LANES(m, l) {
                el[l] = reg + w->tz[l] * 64 + (w->ty[l] + 2 * (uint64_t)q) * 8 + w->tx[l];
                ad[l] = s->d[REGIONS] + 4 * el[l];
                R[el[l]] = g->e[q][l];
            }
            wl_stg(w, m, ad, pr, g->re[q]);
            WL_SH_ST(w, m, float, g->e[q][l]);
        }
        wl_exit(w, m);
    }
    WL_GEN_END(&ws->g);
}

static void launch(pbl_state *s, gms_program *p, uint64_t rep)
{
    if (!s->aux) s->aux = wl_malloc(3 * NBR_MAX, sizeof(int));
    int64_t args[2] = { 0, nbrlist(s->dim, s->aux) };
    for (uint64_t zr = 0; zr < s->dim[ZR]; zr++) {
        args[0] = (int64_t)zr;
        wl_launch_gen(p, "_ZL37cuda_cutoff_potential_lattice6overlapiiP6float4fffPfi",
                      wl_dim3((uint32_t)s->dim[XR], (uint32_t)s->dim[YR], 1), wl_dim3(8, 2, 8), 32, 32 * 8 * 4 * 4 + 16,
                      step, sizeof(cut_warp), s, args, 2);
    }
}

static void cpu(const pbl_state *s, void **h, uint64_t rep)
{
    const uint64_t *d = s->dim;
    int *nb = wl_malloc(3 * NBR_MAX, sizeof(int));
    int len = nbrlist(d, nb);
    const float *bins = h[BINS];
    float *R = h[REGIONS];
    const float cut2 = (float)d[CUTOFF] * (float)d[CUTOFF], inv = 1.f / cut2;
    /* a region's atoms in the order every point of it sums them (neighbour bins in list
     * order, each bin's atoms up to the first zero charge): gathered once per region */
    const float **at = wl_malloc((size_t)len * BIN_DEPTH, sizeof *at);
#if defined(__SSE2__)
    __m128 *ab = wl_malloc((size_t)len * BIN_DEPTH * 4, sizeof *ab);   /* the atoms' x, y, z, q, each broadcast */
#endif
    for (uint64_t zr = 0; zr < d[ZR]; zr++)
        for (uint64_t yr = 0; yr < d[YR]; yr++)
            for (uint64_t xr = 0; xr < d[XR]; xr++) {
                int64_t bi = my_bin(xr), bj = my_bin(yr), bk = my_bin(zr);
                size_t na = 0;
                for (int n = 0; n < len; n++) {
                    const float *b = bins + bin_at(d, bi + nb[3 * n], bj + nb[3 * n + 1], bk + nb[3 * n + 2]);
                    for (int a = 0; a < BIN_DEPTH && b[4 * a + 3] != 0.f; a++) at[na++] = b + 4 * a;
                }
                uint64_t reg = ((zr * d[YR] + yr) * d[XR] + xr) * 512;
#if defined(__SSE2__)
                /* four points of consecutive tx per SSE vector, their four energies in
                 * registers over the region's atoms (each lane's operations and atom order as
                 * atom_term's: the same bits) */
                for (size_t i = 0; i < na; i++)
                    for (int c = 0; c < 4; c++) ab[4 * i + (size_t)c] = _mm_set1_ps(at[i][c]);
                const __m128 vc = _mm_set1_ps(cut2), vi = _mm_set1_ps(inv), one = _mm_set1_ps(1.f);
                const __m128 h2 = _mm_set1_ps(2.0f * H), sgn = _mm_set1_ps(-0.0f);
                for (uint64_t tz = 0; tz < 8; tz++)
                    for (uint64_t ty = 0; ty < 2; ty++)
                        for (uint64_t tx0 = 0; tx0 < 8; tx0 += 4) {
                            const __m128 xv = _mm_setr_ps((float)(8 * xr + tx0) * H, (float)(8 * xr + tx0 + 1) * H,
                                                          (float)(8 * xr + tx0 + 2) * H, (float)(8 * xr + tx0 + 3) * H);
                            const __m128 yv = _mm_set1_ps((float)(8 * yr + ty) * H), zv = _mm_set1_ps((float)(8 * zr + tz) * H);
                            __m128 e[4] = { _mm_setzero_ps(), _mm_setzero_ps(), _mm_setzero_ps(), _mm_setzero_ps() };
                            for (size_t i = 0; i < na; i++) {
                                const __m128 *A = ab + 4 * i;
                                __m128 dx = _mm_sub_ps(A[0], xv), dz = _mm_sub_ps(A[2], zv);
                                __m128 dxdz2 = _mm_add_ps(_mm_mul_ps(dz, dz), _mm_mul_ps(dx, dx));
                                __m128 dy = _mm_sub_ps(A[1], yv);
                                for (int q = 0; q < 4; q++) {
                                    __m128 r2 = _mm_add_ps(_mm_mul_ps(dy, dy), dxdz2);
                                    __m128 in = _mm_cmplt_ps(r2, vc);
                                    __m128 sv = _mm_add_ps(_mm_mul_ps(_mm_xor_ps(r2, sgn), vi), one);
                                    __m128 rs = _mm_div_ps(one, _mm_sqrt_ps(r2));
                                    __m128 ne = _mm_add_ps(_mm_mul_ps(_mm_mul_ps(_mm_mul_ps(A[3], rs), sv), sv), e[q]);
                                    e[q] = _mm_or_ps(_mm_and_ps(in, ne), _mm_andnot_ps(in, e[q]));
                                    dy = _mm_sub_ps(dy, h2);
                                }
                            }
                            for (uint64_t q = 0; q < 4; q++) _mm_storeu_ps(R + reg + tz * 64 + (ty + 2 * q) * 8 + tx0, e[q]);
                        }
#else
                for (uint64_t tz = 0; tz < 8; tz++)
                    for (uint64_t ty = 0; ty < 2; ty++)
                        for (uint64_t tx = 0; tx < 8; tx++) {
                            float x = (float)(8 * xr + tx) * H, y = (float)(8 * yr + ty) * H, z = (float)(8 * zr + tz) * H;
                            float e[4] = { 0, 0, 0, 0 };
                            for (size_t i = 0; i < na; i++) atom_term(at[i], x, y, z, cut2, inv, e);
                            for (uint64_t q = 0; q < 4; q++) R[reg + tz * 64 + (ty + 2 * q) * 8 + tx] = e[q];
                        }
#endif
            }
    free(at);
#if defined(__SSE2__)
    free(ab);
#endif
    free(nb);
}

static const pbl_def def = {
    .name = "cutcp",
    .arrs = { { "regionZeroCuda", 0, 1, 1, PBL_F32 }, { "binBaseCuda", 1, 0, 0, PBL_F32 } },
    .sizes = sizes, .elems = elems, .init = init, .launch = launch, .cpu = cpu,
    .rtol = 0, .atol = 0,
};

PBL_WORKLOAD(cutcp, "cutcp", def, params, "molecular dynamics", "R",
             "cutoff Coulomb potential on a lattice: atom bins cached in shared memory, neighbour list in constant memory");
