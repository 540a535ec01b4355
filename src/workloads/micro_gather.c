/* gather: b[i] = a[idx[i]], the reference `gather` kernel; idx[0..n) is the first n entries
 * of a seeded random permutation of 0..asize-1 (every lane reads its own random line)
 *   __global__ void gather(const int* idx, const float* a, float* b, int n)
 *   { int i = blockIdx.x*blockDim.x + threadIdx.x; if (i < n) b[i] = a[idx[i]]; }
 * 14 warp instructions per full warp, as in the trace: MOV S2R S2R IMAD ISETP @P0EXIT MOV
 * IMAD.WIDE LDG(idx) IMAD.WIDE LDG(a) IMAD.WIDE STG EXIT. The reference permutation used
 * another generator (seed 12345), so the random addresses differ but their statistics match. */
#include "workloads/wl_kernel_1d.h"
#include "workloads/wl_clamp.h"
#include <stdlib.h>

typedef struct gather_st {
    uint64_t n, asize, repeat, seed;
    uint32_t block;
    uint32_t *idx;
    float *b;
    uint64_t didx, da, db;
    wl_shadow *sh;
    int done;
} gather_st;

static const gms_wl_param gather_params[] = {
    { "n", "131072", "threads (gathered elements)" },
    { "asize", "16777216", "floats in the source array a (64 MiB by default); n <= asize" },
    { "block", "256", "threads per block" },
    { "repeat", "1", "launch the kernel this many times" },
    { "scale", "1", "multiplies n and asize (a size it takes to zero clamps to the smallest valid problem)" },
    { NULL, NULL, NULL },
};

/* the contents of a: a fixed function of (seed, index), so a 64 MiB host copy is not needed */
static float gather_aval(uint64_t seed, uint64_t j)
{
    uint64_t z = seed * 0x9e3779b97f4a7c15ULL + j + 1;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return (float)(z >> 40) * (1.0f / 16777216.0f);
}

static int gather_sizes(const gms_wl_args *a, uint64_t *n, uint64_t *as, gms_error *err)
{
    if (wl_clamp_size(a, "gather", "n", 1, 0xffffffffULL, n, err)) return -1;
    if (wl_clamp_size(a, "gather", "asize", 1, 0xffffffffULL, as, err)) return -1;
    if (*n > *as)
        return gms_err(err, "workload gather: n=%llu must not exceed asize=%llu (indices are a permutation)",
                       (unsigned long long)*n, (unsigned long long)*as);
    return 0;
}

static int gather_create(const gms_wl_args *a, void **state, gms_error *err)
{
    uint64_t n, as;
    if (gather_sizes(a, &n, &as, err)) return -1;
    if (gms_wl_check_range(a, "block", 1, 1024, err)) return -1;
    if (gms_wl_check_range(a, "repeat", 1, 1000000, err)) return -1;
    gather_st *s = gms_xcalloc(1, sizeof *s);
    s->n = n;
    s->asize = as;
    s->seed = gms_wl_seed(a);
    s->block = (uint32_t)gms_wl_u64(a, "block");
    s->repeat = gms_wl_u64(a, "repeat");
    s->idx = wl_calloc(n, sizeof *s->idx);
    s->b = wl_calloc(n, sizeof *s->b);
    gms_rng r;
    gms_rng_seed(&r, s->seed);
    wl_perm_prefix(&r, (uint32_t)as, (uint32_t)n, s->idx);
    *state = s;
    return 0;
}

/* one warp past the guard (wl_fill_1d): LDG idx[i], LDG a[idx[i]], STG b[i] */
static uint32_t gather_body(const wl_kernel *k, wl_warp *w, uint32_t m, uint64_t i[32], uint8_t ri)
{
    gather_st *s = k->st;
    uint64_t j[32];
    uint8_t r4 = wl_int(w, m, GMS_REG_NONE, GMS_REG_NONE);   /* MOV R7, 0x4 */
    uint8_t pi = wl_int(w, m, ri, r4);                       /* IMAD.WIDE idx+i */
    uint8_t vj = wl_ldg_idx(w, m, s->didx, i, pi);
    WL_SH_LD(w, m, uint32_t, s->idx[i[l]]);
    uint8_t pa = wl_int(w, m, vj, r4);                       /* IMAD.WIDE a+idx[i] */
    WL_LANES(m, l) j[l] = s->idx[i[l]];
    uint8_t v = wl_ldg_idx(w, m, s->da, j, pa);
    WL_SH_LD(w, m, float, gather_aval(s->seed, j[l]));
    uint8_t pb = wl_int(w, m, ri, r4);                       /* IMAD.WIDE b+i */
    WL_LANES(m, l) s->b[i[l]] = gather_aval(s->seed, j[l]);
    wl_stg_idx(w, m, s->db, i, pb, v);
    WL_SH_ST(w, m, float, s->b[i[l]]);
    return m;
}

static int gather_fill(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    return wl_fill_1d(k, block, bt, ((const gather_st *)k->st)->n, gather_body);
}

static int gather_next(void *state, gms_program *p, gms_error *err)
{
    gather_st *s = state;
    if (!wl_once(&s->done)) return 0;
    s->didx = gms_prog_alloc(p, s->n * 4, "idx");
    s->da = gms_prog_alloc(p, s->asize * 4, "a");
    s->db = gms_prog_alloc(p, s->n * 4, "b");
    gms_prog_copy_h2d(p, s->didx, s->n * 4);
    gms_prog_copy_h2d(p, s->da, s->asize * 4);
    s->sh = p->shadow;
    if (s->sh) {   /* idx, and the elements of a the kernel reads (a has no host copy) */
        wl_sh_init(p, s->didx, s->idx, s->n * 4);
        for (uint64_t i = 0; i < s->n; i++) {
            float v = gather_aval(s->seed, s->idx[i]);
            wl_sh_init(p, s->da + (uint64_t)s->idx[i] * 4, &v, 4);
        }
    }
    for (uint64_t r = 0; r < s->repeat; r++)
        wl_launch(p, "_Z6gatherPKiPKfPfi", wl_dim3(wl_cdiv(s->n, s->block), 1, 1), wl_dim3(s->block, 1, 1), 8, 0,
                  gather_fill, s, NULL, 0);
    gms_prog_copy_d2h(p, s->db, s->n * 4);
    gms_prog_sync(p);
    return 1;
}

static int gather_verify(void *state, gms_error *err)
{
    gather_st *s = state;
    /* the indices must be distinct and in range (a permutation prefix) */
    uint8_t *seen = wl_calloc(s->asize / 8 + 1, 1);
    void *own;
    const float *b = wl_result(s->sh, s->db, s->b, s->n, sizeof(float), &own);
    int rc = 0;
    for (uint64_t i = 0; i < s->n && !rc; i++) {
        uint32_t j = s->idx[i];
        if (j >= s->asize || (seen[j / 8] >> (j % 8) & 1))
            rc = gms_err(err, "workload gather: idx[%llu] = %u is out of range or repeated", (unsigned long long)i, j);
        else
            seen[j / 8] |= (uint8_t)(1u << (j % 8));
        float want = gather_aval(s->seed, j);
        if (!rc && b[i] != want)
            rc = gms_err(err, "workload gather: b[%llu] = %.9g, CPU reference %.9g", (unsigned long long)i,
                         (double)b[i], (double)want);
    }
    free(seen);
    free(own);
    return rc;
}

static void gather_destroy(void *state)
{
    gather_st *s = state;
    if (!s) return;
    free(s->idx);
    free(s->b);
    free(s);
}

static uint64_t gather_footprint(const gms_wl_args *a)
{
    gms_error e;
    uint64_t n = 0, as = 0;
    if (gather_sizes(a, &n, &as, &e)) return 0;
    return 2 * n * 4 + as * 4;
}

const gms_workload_ops gms_wl_gather = {
    .name = "gather",
    .suite = "micro",
    .domain = "microbenchmark",
    .ri = "I",
    .summary = "random gather b[i] = a[idx[i]] (reference kernel gather): uncoalesced, one line per lane",
    .params = gather_params,
    .create = gather_create,
    .next = gather_next,
    .verify = gather_verify,
    .destroy = gather_destroy,
    .footprint = gather_footprint,
};
