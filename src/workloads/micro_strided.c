/* strided: b[i] = a[i*S], the reference `strided` kernel (S = 32: every lane of a warp reads
 * its own 128-byte line)
 *   __global__ void strided(const float* a, float* b, int n)
 *   { int i = blockIdx.x*blockDim.x + threadIdx.x; if (i < n) b[i] = a[i*32]; }
 * 13 warp instructions per full warp, as in the trace: MOV S2R S2R IMAD ISETP @P0EXIT MOV
 * SHF.L.U32 (IMAD when S is not a power of two) IMAD.WIDE LDG IMAD.WIDE STG EXIT.
 * A stride that is a multiple of (channels x interleave) bytes, e.g. S=2048 (8 KiB) with 32
 * channels of 256 B and linear partition indexing, sends every access to one partition. */
#include "workloads/wl_kernel_1d.h"
#include "workloads/wl_clamp.h"
#include <stdlib.h>

typedef struct strided_st {
    uint64_t n, stride, repeat;
    uint32_t block;
    float *a, *b;
    uint64_t da, db;
    wl_shadow *sh;
    int done;
} strided_st;

static const gms_wl_param strided_params[] = {
    { "n", "131072", "threads (elements of b); the reference trace uses 131072" },
    { "stride", "32", "S in floats: thread i reads a[i*S] (a has n*S floats)" },
    { "block", "256", "threads per block" },
    { "repeat", "1", "launch the kernel this many times" },
    { "scale", "1", "multiplies n (not stride, the access pattern) (a size it takes to zero clamps to the smallest valid problem)" },
    { NULL, NULL, NULL },
};

static int strided_sizes(const gms_wl_args *a, uint64_t *n, uint64_t *S, uint64_t *abytes, gms_error *err)
{
    *S = gms_wl_u64(a, "stride");
    if (wl_clamp_size(a, "strided", "n", 1, 1ULL << 36, n, err)) return -1;
    if (wl_need_size("strided", a, "stride", *S, 1ULL << 30, err)) return -1;
    return wl_bytes("strided", "array a (n*stride floats)", *n, *S, 1, 4, WL_MAX_ARRAY_BYTES, abytes, err);
}

static int strided_create(const gms_wl_args *a, void **state, gms_error *err)
{
    uint64_t n, S, ab;
    if (strided_sizes(a, &n, &S, &ab, err)) return -1;
    if (gms_wl_check_range(a, "block", 1, 1024, err)) return -1;
    if (gms_wl_check_range(a, "repeat", 1, 1000000, err)) return -1;
    strided_st *s = gms_xcalloc(1, sizeof *s);
    s->n = n;
    s->stride = S;
    s->block = (uint32_t)gms_wl_u64(a, "block");
    s->repeat = gms_wl_u64(a, "repeat");
    /* host copy of a holds only the elements the kernel reads: as[i] = a[i*S] (the device
     * array has n*S floats; the others are never read) */
    s->a = wl_calloc(n, sizeof(float));
    s->b = wl_calloc(n, sizeof(float));
    gms_rng r;
    gms_rng_seed(&r, gms_wl_seed(a));
    for (uint64_t i = 0; i < n; i++) s->a[i] = wl_randf(&r);
    *state = s;
    return 0;
}

/* one warp past the guard (wl_fill_1d): LDG a[i*S], STG b[i] */
static uint32_t strided_body(const wl_kernel *k, wl_warp *w, uint32_t m, uint64_t i[32], uint8_t ri)
{
    strided_st *s = k->st;
    uint64_t j[32];
    uint8_t r4 = wl_int(w, m, GMS_REG_NONE, GMS_REG_NONE);   /* MOV R7, 0x4 */
    uint8_t ij = wl_int(w, m, ri, GMS_REG_NONE);             /* SHF.L.U32 / IMAD i*S */
    uint8_t pa = wl_int(w, m, ij, r4);                       /* IMAD.WIDE */
    WL_LANES(m, l) j[l] = i[l] * s->stride;
    uint8_t v = wl_ldg_idx(w, m, s->da, j, pa);
    WL_SH_LD(w, m, float, s->a[i[l]]);                       /* a[i*S] is as[i] */
    uint8_t pb = wl_int(w, m, ri, r4);                       /* IMAD.WIDE */
    WL_LANES(m, l) s->b[i[l]] = s->a[j[l] / s->stride];
    wl_stg_idx(w, m, s->db, i, pb, v);
    WL_SH_ST(w, m, float, s->b[i[l]]);
    return m;
}

static int strided_fill(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    return wl_fill_1d(k, block, bt, ((const strided_st *)k->st)->n, strided_body);
}

static int strided_next(void *state, gms_program *p, gms_error *err)
{
    strided_st *s = state;
    if (!wl_once(&s->done)) return 0;
    s->da = gms_prog_alloc(p, s->n * s->stride * 4, "a");
    s->db = gms_prog_alloc(p, s->n * 4, "b");
    gms_prog_copy_h2d(p, s->da, s->n * s->stride * 4);
    s->sh = p->shadow;
    if (s->sh)   /* the elements the kernel reads, at their places in the device array */
        for (uint64_t i = 0; i < s->n; i++) wl_sh_init(p, s->da + i * s->stride * 4, &s->a[i], 4);
    for (uint64_t r = 0; r < s->repeat; r++)
        wl_launch(p, "_Z7stridedPKfPfi", wl_dim3(wl_cdiv(s->n, s->block), 1, 1), wl_dim3(s->block, 1, 1), 8, 0,
                  strided_fill, s, NULL, 0);
    gms_prog_copy_d2h(p, s->db, s->n * 4);
    gms_prog_sync(p);
    return 1;
}

static int strided_verify(void *state, gms_error *err)
{
    strided_st *s = state;
    void *own;
    const float *b = wl_result(s->sh, s->db, s->b, s->n, sizeof(float), &own);
    int rc = 0;
    for (uint64_t i = 0; i < s->n && !rc; i++)
        if (b[i] != s->a[i])
            rc = gms_err(err, "workload strided: b[%llu] = %.9g, CPU reference a[%llu] = %.9g",
                         (unsigned long long)i, (double)b[i], (unsigned long long)(i * s->stride),
                         (double)s->a[i]);
    free(own);
    return rc;
}

static void strided_destroy(void *state)
{
    strided_st *s = state;
    if (!s) return;
    free(s->a);
    free(s->b);
    free(s);
}

static uint64_t strided_footprint(const gms_wl_args *a)
{
    gms_error e;
    uint64_t n = 0, S = 0, ab = 0;
    if (strided_sizes(a, &n, &S, &ab, &e)) return 0;
    return ab + n * 4;
}

const gms_workload_ops gms_wl_strided = {
    .name = "strided",
    .suite = "micro",
    .domain = "microbenchmark",
    .ri = "R",
    .summary = "strided copy b[i] = a[i*S] (reference kernel strided): one line per lane, partition camping",
    .params = strided_params,
    .create = strided_create,
    .next = strided_next,
    .verify = strided_verify,
    .destroy = strided_destroy,
    .footprint = strided_footprint,
};
