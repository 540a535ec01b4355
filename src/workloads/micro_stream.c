/* stream: vector add c[i] = a[i] + b[i], the reference `vecadd` kernel
 *   __global__ void vecAdd(const float* a, const float* b, float* c, int n)
 *   { int i = blockIdx.x*blockDim.x + threadIdx.x; if (i < n) c[i] = a[i] + b[i]; }
 * 15 warp instructions per full warp, exactly as the Accel-Sim reference trace:
 * MOV S2R S2R IMAD ISETP @P0EXIT MOV IMAD.WIDE IMAD.WIDE LDG LDG IMAD.WIDE FADD STG EXIT. */
#include "workloads/wl_kernel_1d.h"
#include "workloads/wl_clamp.h"
#include <stdlib.h>

typedef struct stream_st {
    uint64_t n, repeat;
    uint32_t block;
    float *a, *b, *c;
    uint64_t da, db, dc;
    wl_shadow *sh;
    int done;
} stream_st;

static const gms_wl_param stream_params[] = {
    { "n", "1048576", "vector length (floats); the reference vecadd trace uses 262144" },
    { "block", "256", "threads per block" },
    { "repeat", "1", "launch the kernel this many times (data reuse across launches)" },
    { "scale", "1", "multiplies n (a size it takes to zero clamps to the smallest valid problem)" },
    { NULL, NULL, NULL },
};

static int stream_sizes(const gms_wl_args *a, uint64_t *n, gms_error *err)
{
    return wl_clamp_size(a, "stream", "n", 1, 1ULL << 36, n, err);
}

static int stream_create(const gms_wl_args *a, void **state, gms_error *err)
{
    uint64_t n;
    if (stream_sizes(a, &n, err)) return -1;
    if (gms_wl_check_range(a, "block", 1, 1024, err)) return -1;
    if (gms_wl_check_range(a, "repeat", 1, 1000000, err)) return -1;
    stream_st *s = gms_xcalloc(1, sizeof *s);
    s->n = n;
    s->block = (uint32_t)gms_wl_u64(a, "block");
    s->repeat = gms_wl_u64(a, "repeat");
    s->a = wl_malloc(n, sizeof(float));   /* written in full just below */
    s->b = wl_malloc(n, sizeof(float));
    s->c = wl_calloc(n, sizeof(float));
    gms_rng r;
    gms_rng_seed(&r, gms_wl_seed(a));
    for (uint64_t i = 0; i < n; i++) {
        s->a[i] = wl_randf(&r);
        s->b[i] = wl_randf(&r);
    }
    *state = s;
    return 0;
}

/* c[0..32) = a + b: a warp of consecutive indices (host speed: vectorisable, the same sums) */
static void add32(float *restrict c, const float *restrict a, const float *restrict b)
{
    for (int l = 0; l < 32; l++) c[l] = a[l] + b[l];
}

/* one warp past the guard (wl_fill_1d): loads of a[i] and b[i], FADD, STG c[i] */
static uint32_t stream_body(const wl_kernel *k, wl_warp *w, uint32_t m, uint64_t i[32], uint8_t ri)
{
    stream_st *s = k->st;
    wl_xy_regs ab = wl_ldg_xy(w, m, i, ri, s->da, s->a, s->db, s->b);
    uint8_t pc = wl_int(w, m, ri, ab.r4);                     /* IMAD.WIDE c+i */
    uint8_t vc = wl_fp(w, m, ab.vx, ab.vy, GMS_REG_NONE);     /* FADD */
    if (w->row && m == 0xffffffffu)   /* i[l] = i[0] + l */
        add32(s->c + i[0], s->a + i[0], s->b + i[0]);
    else
        WL_LANES(m, l) s->c[i[l]] = s->a[i[l]] + s->b[i[l]];
    wl_stg_idx(w, m, s->dc, i, pc, vc);
    WL_SH_ST(w, m, float, s->c[i[l]]);
    return m;
}

static int stream_fill(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    return wl_fill_1d(k, block, bt, ((const stream_st *)k->st)->n, stream_body);
}

static int stream_next(void *state, gms_program *p, gms_error *err)
{
    stream_st *s = state;
    if (!wl_once(&s->done)) return 0;
    uint64_t bytes = s->n * 4;
    s->da = gms_prog_alloc(p, bytes, "a");
    s->db = gms_prog_alloc(p, bytes, "b");
    s->dc = gms_prog_alloc(p, bytes, "c");
    gms_prog_copy_h2d(p, s->da, bytes);
    gms_prog_copy_h2d(p, s->db, bytes);
    s->sh = p->shadow;
    wl_sh_init(p, s->da, s->a, bytes);
    wl_sh_init(p, s->db, s->b, bytes);
    for (uint64_t r = 0; r < s->repeat; r++)
        wl_launch(p, "_Z6vecAddPKfS0_Pfi", wl_dim3(wl_cdiv(s->n, s->block), 1, 1), wl_dim3(s->block, 1, 1), 12, 0,
                  stream_fill, s, NULL, 0);
    gms_prog_copy_d2h(p, s->dc, bytes);
    gms_prog_sync(p);
    return 1;
}

/* 1 iff c[k] == a[k] + b[k] for k < 64 (host speed: vectorisable, no exit inside the block) */
static int sums64(const float *restrict c, const float *restrict a, const float *restrict b)
{
    int bad = 0;
    for (int k = 0; k < 64; k++) bad |= c[k] != a[k] + b[k];
    return !bad;
}

static int stream_verify(void *state, gms_error *err)
{
    stream_st *s = state;
    uint64_t i = 0;
    void *own;
    const float *c = wl_result(s->sh, s->dc, s->c, s->n, sizeof(float), &own);
    int rc = 0;
    /* whole blocks that match; the first mismatch is then found (and named) one by one */
    while (i + 64 <= s->n && sums64(c + i, s->a + i, s->b + i)) i += 64;
    for (; i < s->n && !rc; i++) {
        float want = s->a[i] + s->b[i];
        if (c[i] != want)
            rc = gms_err(err, "workload stream: c[%llu] = %.9g, CPU reference %.9g", (unsigned long long)i,
                         (double)c[i], (double)want);
    }
    free(own);
    return rc;
}

static void stream_destroy(void *state)
{
    stream_st *s = state;
    if (!s) return;
    free(s->a);
    free(s->b);
    free(s->c);
    free(s);
}

static uint64_t stream_footprint(const gms_wl_args *a)
{
    gms_error e;
    uint64_t n = 0;
    if (stream_sizes(a, &n, &e)) return 0;
    return 3 * n * 4;
}

const gms_workload_ops gms_wl_stream = {
    .name = "stream",
    .suite = "micro",
    .domain = "microbenchmark",
    .ri = "R",
    .summary = "vector add c[i] = a[i] + b[i] (reference kernel vecadd), streaming, fully coalesced",
    .params = stream_params,
    .create = stream_create,
    .next = stream_next,
    .verify = stream_verify,
    .destroy = stream_destroy,
    .footprint = stream_footprint,
};
