/* SCALARPROD-DC: the data-cache version of the CUDA SDK's scalarProd used by spec 001's
 * Ch. 2 (SCP, from Li et al. [35]): `vectors` dot products of `elements` floats, 128 blocks of
 * 256 threads, each block taking vectors blockIdx.x, blockIdx.x + 128, ...; per vector every
 * thread accumulates ACCUM_N / 256 = 4 partial sums (elements iAccum, iAccum + 1024, ...),
 * then a tree reduction over the 1024 partial sums (strides 512 .. 1, a barrier before each)
 * and thread 0 stores the result. In the SDK the 1024 partial sums live in shared memory; in
 * the data-cache version they live in global memory (accumResult, 1024 floats per block), so
 * their loads and stores go through the L1D. Li et al. do not publish their version: this
 * one moves exactly the SDK's shared array to global memory and changes nothing else.
 * Inputs: uniform [0, 1) floats from the seed (the SDK's RandFloat(0, 1)). */
#include "workloads/wl_util.h"
#include "workloads/wl_clamp.h"
#include <stdlib.h>
#include <string.h>

#define ACCUM 1024
#define GRID 128
#define TPB 256

typedef struct sp {
    uint64_t nv, ne, repeat;
    float *a, *b, *c, *acc;
    uint64_t d_a, d_b, d_c, d_acc;
    wl_shadow *sh;
    int done;
} sp;

static const gms_wl_param params[] = {
    {"vectors", "256", "vector pairs (VECTOR_N)"},
    {"elements", "4096", "floats per vector (ELEMENT_N)"},
    {"scale", "1", "multiplies vectors"},
    {"repeat", "1", "launch the kernel N times"},
    {NULL, NULL, NULL},
};

static int sizes(const gms_wl_args *a, uint64_t *nv, uint64_t *ne, gms_error *err)
{
    if (wl_clamp_size(a, "scalarprod-dc", "vectors", 1, 1ULL << 20, nv, err)) return -1;
    if (gms_wl_check_range(a, "elements", 1, 1ULL << 24, err)) return -1;
    *ne = gms_wl_u64(a, "elements");
    return 0;
}

static uint64_t footprint(const gms_wl_args *a)
{
    gms_error e;
    uint64_t nv, ne;
    if (sizes(a, &nv, &ne, &e)) return 0;
    return 4 * (2 * nv * ne + nv + (uint64_t)GRID * ACCUM);
}

static int create(const gms_wl_args *a, void **out, gms_error *err)
{
    uint64_t nv, ne;
    if (sizes(a, &nv, &ne, err) || gms_wl_check_range(a, "repeat", 1, 1000000, err)) return -1;
    sp *s = gms_xcalloc(1, sizeof *s);
    s->nv = nv;
    s->ne = ne;
    s->repeat = gms_wl_u64(a, "repeat");
    s->a = wl_malloc(nv * ne, 4);
    s->b = wl_malloc(nv * ne, 4);
    s->c = wl_calloc(nv, 4);
    s->acc = wl_calloc((uint64_t)GRID * ACCUM, 4);
    gms_rng g;
    gms_rng_seed(&g, gms_wl_seed(a));
    for (uint64_t i = 0; i < nv * ne; i++) { s->a[i] = wl_randf(&g); s->b[i] = wl_randf(&g); }
    *out = s;
    return 0;
}

/* lane l's index l: the lane addresses base + 4*l as wl_ld_idx / wl_st_idx take them (the
 * records are the ones wl_ldg / wl_stg make of the built addresses; host speed) */
static const uint64_t lane_id[32] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
                                      16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31 };

/* Host speed: 4 floats per operation (GCC's generic vectors: SSE on x86-64, scalar code
 * elsewhere), each vector lane one thread's sum with the scalar operations (no contraction
 * under -std=c11): bit-identical */
typedef float sp_v4 __attribute__((vector_size(16)));
static inline sp_v4 sp_ld(const float *p) { sp_v4 v; memcpy(&v, p, sizeof v); return v; }
static inline void sp_st(float *p, sp_v4 v) { memcpy(p, &v, sizeof v); }

static int fill(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    sp *s = k->st;
    float *acc = s->acc + block * ACCUM;
    uint64_t dacc = s->d_acc + 4 * block * ACCUM, a[32];
    wl_warp W[TPB / 32];
    uint8_t ri[TPB / 32];
    for (uint32_t wi = 0; wi < TPB / 32; wi++) {
        wl_warp_begin(&W[wi], bt, k, block, wi);
        ri[wi] = wl_int(&W[wi], W[wi].live, GMS_REG_NONE, GMS_REG_NONE);
    }
    const uint32_t vloop = W[0].pc;
    for (uint64_t vec = block; vec < s->nv; vec += GRID) {
        uint64_t base = vec * s->ne, end = base + s->ne;
        for (uint32_t wi = 0; wi < TPB / 32; wi++) {
            wl_warp *w = &W[wi];
            w->pc = vloop;
            uint32_t m = w->live;
            for (uint32_t i0 = wi * 32; i0 < ACCUM; i0 += TPB) {
                w->pc = vloop + 16;
                uint8_t sum = wl_int(w, m, GMS_REG_NONE, GMS_REG_NONE);
                float fs[32];
                WL_LANES(m, l) fs[l] = 0.0f;
                for (uint64_t p0 = base + i0; p0 < end; p0 += ACCUM) {
                    w->pc = vloop + 32;
                    /* the lanes with p0 + l < end (p0 < end here) */
                    const uint32_t mm = m & gms_lanes(end - p0 < 32 ? (int)(end - p0) : 32);
                    if (!mm) break;
                    const float *pa = s->a + p0, *pb = s->b + p0;
                    uint8_t x = wl_ld_idx(w, mm, GMS_MEM_LD_GLOBAL, 4, s->d_a + 4 * p0, lane_id, 4, ri[wi]);
                    if (w->sh) wl_sh_last(w->sh, w->e.w, 0, pa, sizeof(float));   /* WL_SH_LD of pa[l] */
                    uint8_t y = wl_ld_idx(w, mm, GMS_MEM_LD_GLOBAL, 4, s->d_b + 4 * p0, lane_id, 4, ri[wi]);
                    if (w->sh) wl_sh_last(w->sh, w->e.w, 0, pb, sizeof(float));
                    sum = wl_fp(w, mm, x, y, sum);
                    if (mm == 0xffffffffu)
                        for (int l = 0; l < 32; l += 4) sp_st(fs + l, sp_ld(fs + l) + sp_ld(pa + l) * sp_ld(pb + l));
                    else
                        WL_LANES(mm, l) fs[l] += pa[l] * pb[l];
                    wl_bra(w, m);
                }
                w->pc = vloop + 7 * 16;
                WL_LANES(m, l) acc[i0 + (uint64_t)l] = fs[l];
                wl_st_idx(w, m, GMS_MEM_ST_GLOBAL, 4, dacc + 4 * i0, lane_id, 4, ri[wi], sum);
                if (w->sh) wl_sh_last(w->sh, w->e.w, 1, fs, sizeof(float));   /* WL_SH_ST of fs[l] */
                wl_bra(w, m);
            }
        }
        /* the reduction: before each stride a barrier; threads below it add acc[stride + i] */
        const uint32_t rloop = vloop + 9 * 16;
        for (uint32_t stride = ACCUM / 2; stride > 0; stride >>= 1) {
            for (uint32_t wi = 0; wi < TPB / 32; wi++) {
                wl_warp *w = &W[wi];
                w->pc = rloop;
                wl_bar(w);
                for (uint32_t i0 = wi * 32; i0 < stride; i0 += TPB) {
                    w->pc = rloop + 16;
                    /* the lanes with i0 + l < stride (i0 < stride here) */
                    const uint32_t m = w->live & gms_lanes(stride - i0 < 32 ? (int)(stride - i0) : 32);
                    /* lane l's old value acc[i0 + l] and addend acc[stride + i0 + l] (indices
                     * below stride and from stride on: the update below changes no addend) */
                    float *old = acc + i0;
                    const float *add = acc + stride + i0;
                    uint8_t x = wl_ld_idx(w, m, GMS_MEM_LD_GLOBAL, 4, dacc + 4 * (uint64_t)i0, lane_id, 4, ri[wi]);
                    if (w->sh) wl_sh_last(w->sh, w->e.w, 0, old, sizeof(float));   /* WL_SH_LD of old[l] */
                    uint8_t y = wl_ld_idx(w, m, GMS_MEM_LD_GLOBAL, 4, dacc + 4 * ((uint64_t)i0 + stride), lane_id, 4, ri[wi]);
                    if (w->sh) wl_sh_last(w->sh, w->e.w, 0, add, sizeof(float));
                    WL_LANES(m, l) old[l] = old[l] + add[l];
                    wl_st_idx(w, m, GMS_MEM_ST_GLOBAL, 4, dacc + 4 * (uint64_t)i0, lane_id, 4, ri[wi],
                              wl_fp(w, m, x, y, GMS_REG_NONE));
                    if (w->sh) wl_sh_last(w->sh, w->e.w, 1, old, sizeof(float));   /* WL_SH_ST of acc[i0 + l] */
                    wl_bra(w, m);
                }
                w->pc = rloop + 7 * 16;
                wl_bra(w, w->live);
            }
        }
        for (uint32_t wi = 0; wi < TPB / 32; wi++) {
            wl_warp *w = &W[wi];
            w->pc = rloop + 8 * 16;
            wl_bar(w);
            if (wi == 0) {
                a[0] = dacc;
                uint8_t v = wl_ldg(w, 1u, a, ri[0]);
                WL_SH_LD(w, 1u, float, acc[0]);
                s->c[vec] = acc[0];
                a[0] = s->d_c + 4 * vec;
                wl_stg(w, 1u, a, ri[0], v);
                WL_SH_ST(w, 1u, float, s->c[vec]);
            }
            w->pc = rloop + 11 * 16;
            wl_bra(w, w->live);
        }
    }
    for (uint32_t wi = 0; wi < TPB / 32; wi++) wl_exit(&W[wi], W[wi].live);
    (void)err;
    return 0;
}

static int next(void *st, gms_program *p, gms_error *err)
{
    sp *s = st;
    if (!wl_once(&s->done)) return 0;
    s->sh = p->shadow;
    uint64_t vb = 4 * s->nv * s->ne;
    s->d_a = gms_prog_alloc(p, vb, "d_A");
    s->d_b = gms_prog_alloc(p, vb, "d_B");
    s->d_c = gms_prog_alloc(p, 4 * s->nv, "d_C");
    s->d_acc = gms_prog_alloc(p, 4 * (uint64_t)GRID * ACCUM, "d_accumResult");
    gms_prog_copy_h2d(p, s->d_a, vb);
    gms_prog_copy_h2d(p, s->d_b, vb);
    wl_sh_init_ro(p, s->d_a, s->a, vb);   /* the inputs: read only */
    wl_sh_init_ro(p, s->d_b, s->b, vb);
    for (uint64_t r = 0; r < s->repeat; r++)
        wl_launch(p, "_Z13scalarProdGPUPfS_S_ii", wl_dim3(GRID, 1, 1), wl_dim3(TPB, 1, 1), 16, 0, fill, s, NULL, 0);
    gms_prog_sync(p);
    gms_prog_copy_d2h(p, s->d_c, 4 * s->nv);
    (void)err;
    return 1;
}

static int verify(void *st, gms_error *err)
{
    sp *s = st;
    float *want = wl_malloc(s->nv, 4);
    uint64_t v = 0;
    /* host speed: four vectors' sums side by side (four independent chains of additions),
     * each one still accumulated in element order */
    for (; v + 4 <= s->nv; v += 4) {
        double sum[4] = { 0, 0, 0, 0 };
        const float *a = s->a + v * s->ne, *b = s->b + v * s->ne;
        for (uint64_t i = 0; i < s->ne; i++)
            for (uint64_t q = 0; q < 4; q++) sum[q] += (double)a[q * s->ne + i] * (double)b[q * s->ne + i];
        for (uint64_t q = 0; q < 4; q++) want[v + q] = (float)sum[q];
    }
    for (; v < s->nv; v++) {
        double sum = 0;
        for (uint64_t i = 0; i < s->ne; i++) sum += (double)s->a[v * s->ne + i] * (double)s->b[v * s->ne + i];
        want[v] = (float)sum;
    }
    void *own;
    const float *got = wl_result(s->sh, s->d_c, s->c, s->nv, 4, &own);
    int rc = wl_check_f32("scalarprod-dc", "C", got, want, s->nv, 1e-5, 1e-6, err);
    free(own);
    free(want);
    return rc;
}

static void destroy(void *st)
{
    sp *s = st;
    if (!s) return;
    free(s->a); free(s->b); free(s->c); free(s->acc); free(s);
}

const gms_workload_ops gms_wl_scalarprod_dc = {
    .name = "scalarprod-dc", .suite = "sdk-dc", .domain = "linear algebra", .ri = "-",
    .summary = "scalarProd with its partial sums in global memory (the data-cache version, SCP)",
    .params = params, .create = create, .next = next, .verify = verify, .destroy = destroy,
    .footprint = footprint,
};
