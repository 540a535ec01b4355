/* alignedtypes (SDK alignedTypes, seed AT): copies of a mem_size-byte buffer as arrays of
 * 12 element types, cuda-samples alignedTypes.cu:
 *   testKernel<TData><<<64, 256>>>(d_odata, d_idata, numElements)
 *   { for (pos = tid; pos < numElements; pos += 64*256) d_odata[pos] = d_idata[pos]; }
 * NUM_ITERATIONS (32) launches per type, numElements = mem_size / sizeof(TData) (rounded down).
 * The types, in the sample's order, and how an element is moved (what nvcc emits for them):
 *   1 uint8 (LDG.U8)  2 uint16 (LDG.U16)  3 RGBA8_misaligned (4 x U8)  4 RGBA8 (32 bits)
 *   5 I32 (32)  6 LA32_misaligned (2 x 32)  7 LA32 (64)  8 RGB32_misaligned (3 x 32)
 *   9 RGB32 (align 16, 16 bytes: 128)  10 RGBA32_misaligned (4 x 32)  11 RGBA32 (128)
 *   12 RGBA32_2 (2 x 128)
 * Narrow or member-wise accesses put many requests on each line: the seed's example of
 * secondary misses (32 per line against 8 MSHR slots). The grid-stride loop is long (3052
 * steps for uint8 at the default size): generated resumably. Inputs random bytes; verify()
 * checks the last type's copy byte for byte. */
#include "workloads/sdk_util.h"
#include <stdlib.h>

#define AT_TYPES 12
#define AT_BLOCKS 64u
#define AT_THREADS 256u

/* element size, part width, parts */
static const struct { uint32_t size, width, parts; const char *name; } at_types[AT_TYPES + 1] = {
    { 0, 0, 0, "" },
    { 1, 1, 1, "_Z10testKernelIhEvPT_S1_i" },
    { 2, 2, 1, "_Z10testKernelItEvPT_S1_i" },
    { 4, 1, 4, "_Z10testKernelI16RGBA8_misalignedEvPT_S2_i" },
    { 4, 4, 1, "_Z10testKernelI5RGBA8EvPT_S1_i" },
    { 4, 4, 1, "_Z10testKernelIjEvPT_S1_i" },
    { 8, 4, 2, "_Z10testKernelI15LA32_misalignedEvPT_S2_i" },
    { 8, 8, 1, "_Z10testKernelI4LA32EvPT_S1_i" },
    { 12, 4, 3, "_Z10testKernelI16RGB32_misalignedEvPT_S2_i" },
    { 16, 16, 1, "_Z10testKernelI5RGB32EvPT_S1_i" },
    { 16, 4, 4, "_Z10testKernelI17RGBA32_misalignedEvPT_S2_i" },
    { 16, 16, 1, "_Z10testKernelI6RGBA32EvPT_S1_i" },
    { 32, 16, 2, "_Z10testKernelI8RGBA32_2EvPT_S1_i" },
};

typedef struct at_st {
    uint64_t bytes, iters, repeat;
    int type, last;
    uint8_t *in, *out;
    uint64_t din, dout;
    wl_shadow *sh;
    int done;
} at_st;

static const gms_wl_param at_params[] = {
    { "mem_size", "49999872", "bytes of each buffer (MEM_SIZE)" },
    { "type", "0", "0: all 12 element types in the sample's order; 1..12 one of them (see the summary)" },
    { "iterations", "32", "launches per type (NUM_ITERATIONS)" },
    { "scale", "1", "multiplies mem_size" },
    { "repeat", "1", "run the whole launch sequence this many times" },
    { NULL, NULL, NULL },
};

static int at_sizes(const gms_wl_args *a, uint64_t *b, gms_error *err)
{
    return wl_clamp_size(a, "alignedtypes", "mem_size", 32, 1ULL << 40, b, err);
}

static int at_create(const gms_wl_args *a, void **state, gms_error *err)
{
    uint64_t b, rep;
    if (at_sizes(a, &b, err) || sdk_repeat(a, &rep, err)) return -1;
    if (gms_wl_check_range(a, "type", 0, AT_TYPES, err) || gms_wl_check_range(a, "iterations", 1, 100000, err))
        return -1;
    at_st *s = gms_xcalloc(1, sizeof *s);
    s->bytes = b;
    s->type = (int)gms_wl_u64(a, "type");
    s->last = s->type ? s->type : AT_TYPES;
    s->iters = gms_wl_u64(a, "iterations");
    s->repeat = rep;
    s->in = wl_malloc(b, 1);
    s->out = wl_calloc(b, 1);
    gms_rng r;
    gms_rng_seed(&r, gms_wl_seed(a));
    for (uint64_t i = 0; i < b; i++) s->in[i] = (uint8_t)(gms_rng_next(&r) >> 56);
    *state = s;
    return 0;
}

typedef struct at_warp {
    wl_wgen ws;
    uint64_t pos[32];
    uint32_t m;
    uint8_t rp;
} at_warp;

/* the shadow values of a part of `width` bytes at byte offset o of in[] (if-else: the
 * protothread's body may not contain a switch) */
#define AT_SH(wp, mask, width, store, o)                                                               \
    do {                                                                                                \
        if ((width) == 1) WL_SH_(wp, mask, uint8_t, s->in[o], store);                                   \
        else if ((width) == 2) WL_SH_(wp, mask, uint16_t, rd16(s->in + (o)), store);                    \
        else if ((width) == 4) WL_SH_(wp, mask, uint32_t, rd32(s->in + (o)), store);                    \
        else if ((width) == 8) WL_SH_(wp, mask, uint64_t, rd64(s->in + (o)), store);                    \
        else WL_SH_(wp, mask, unsigned __int128, rd128(s->in + (o)), store);                            \
    } while (0)

static uint16_t rd16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }
static uint32_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t rd64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static unsigned __int128 rd128(const uint8_t *p) { unsigned __int128 v; memcpy(&v, p, 16); return v; }

/* arg 0: type */
static int at_step(const wl_kernel *k, wl_wgen *ws, gms_error *err)
{
    at_warp *g = (at_warp *)ws;
    wl_warp *w = &ws->w;
    at_st *s = k->st;
    int t = (int)k->arg[0];
    uint32_t size = at_types[t].size, pw = at_types[t].width, np = at_types[t].parts;
    uint64_t n = s->bytes / size, tn = (uint64_t)AT_BLOCKS * AT_THREADS;
    WL_GEN_BEGIN(&ws->g)
    g->m = w->live;
    g->rp = sdk_prologue(w, g->m);
    wl_int(w, g->m, GMS_REG_NONE, GMS_REG_NONE);                           /* numThreads */
    WL_LANES(g->m, l) g->pos[l] = (uint64_t)w->bx * AT_THREADS + w->tx[l];
    for (;;) {
        uint32_t mk = 0;
        WL_LANES(g->m, l) if (g->pos[l] < n) mk |= 1u << l;
        wl_pred(w, g->m, g->rp, GMS_REG_NONE);
        wl_bra(w, g->m & ~mk);
        if (!mk) break;
        uint64_t A[32], O[32];
        uint8_t v[4];
        uint8_t pa = wl_int(w, mk, g->rp, GMS_REG_NONE), po = wl_int(w, mk, g->rp, GMS_REG_NONE);   /* IMAD.WIDE x2 */
        for (uint32_t j = 0; j < np; j++) {
            WL_LANES(mk, l) A[l] = s->din + g->pos[l] * size + j * pw;
            v[j] = wl_ld(w, mk, GMS_MEM_LD_GLOBAL, (uint8_t)pw, A, pa);
            AT_SH(w, mk, pw, 0, g->pos[l] * size + j * pw);
        }
        for (uint32_t j = 0; j < np; j++) {
            WL_LANES(mk, l) O[l] = s->dout + g->pos[l] * size + j * pw;
            wl_st(w, mk, GMS_MEM_ST_GLOBAL, (uint8_t)pw, O, po, v[j]);
            AT_SH(w, mk, pw, 1, g->pos[l] * size + j * pw);
        }
        WL_LANES(mk, l) memcpy(s->out + g->pos[l] * size, s->in + g->pos[l] * size, size);
        g->rp = wl_int(w, mk, g->rp, GMS_REG_NONE);                          /* pos += numThreads */
        WL_LANES(mk, l) g->pos[l] += tn;
        wl_bra(w, mk);
        WL_GEN_YIELD(&ws->g);
    }
    wl_exit(w, g->m);
    WL_GEN_END(&ws->g);
}

static int at_next(void *state, gms_program *p, gms_error *err)
{
    at_st *s = state;
    if (!wl_once(&s->done)) return 0;
    s->sh = p->shadow;
    s->din = sdk_alloc(p, s->in, s->bytes, "d_idata");
    s->dout = sdk_alloc(p, NULL, s->bytes, "d_odata");
    for (uint64_t r = 0; r < s->repeat; r++)
        for (int t = s->type ? s->type : 1; t <= s->last; t++) {
            int64_t arg = t;
            for (uint64_t i = 0; i < s->iters; i++)
                wl_launch_gen(p, at_types[t].name, wl_dim3(AT_BLOCKS, 1, 1), wl_dim3(AT_THREADS, 1, 1), 12, 0, at_step,
                              sizeof(at_warp), s, &arg, 1);
        }
    gms_prog_copy_d2h(p, s->dout, s->bytes);
    gms_prog_sync(p);
    return 1;
}

static int at_verify(void *state, gms_error *err)
{
    at_st *s = state;
    uint64_t n = s->bytes / at_types[s->last].size * at_types[s->last].size;
    void *own;
    const uint8_t *got = wl_result(s->sh, s->dout, s->out, n, 1, &own);
    int rc = 0;
    for (uint64_t i = 0; i < n && !rc; i++)
        if (got[i] != s->in[i])
            rc = gms_err(err, "workload alignedtypes: d_odata byte %llu = %u, d_idata %u (type %d)",
                         (unsigned long long)i, got[i], s->in[i], s->last);
    free(own);
    return rc;
}

static void at_destroy(void *state)
{
    at_st *s = state;
    if (!s) return;
    free(s->in);
    free(s->out);
    free(s);
}

static uint64_t at_footprint(const gms_wl_args *a)
{
    gms_error e;
    uint64_t b;
    return at_sizes(a, &b, &e) ? 0 : 2 * b;
}

const gms_workload_ops gms_wl_sdk_alignedtypes = {
    .name = "alignedtypes",
    .suite = "sdk",
    .domain = "microbenchmark",
    .ri = "-",
    .summary = "AT: grid-stride copies as 12 element types (1..32 bytes, aligned and member-wise), 64 x 256 threads",
    .params = at_params,
    .create = at_create,
    .next = at_next,
    .verify = at_verify,
    .destroy = at_destroy,
    .footprint = at_footprint,
};
