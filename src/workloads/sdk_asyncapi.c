/* asyncapi (SDK asyncAPI, seed AA): one increment of n ints, cuda-samples asyncAPI.cu:
 *   cudaMemcpyAsync(d_a, a, H2D); increment_kernel<<<n/512, 512>>>(d_a, value = 26);
 *   cudaMemcpyAsync(a, d_a, D2H)   (the host polls an event meanwhile)
 *   increment_kernel: idx = blockIdx.x*blockDim.x + threadIdx.x; g_data[idx] += inc_value;
 * a read-modify-write stream (one LDG, IADD, STG per thread). The input is zeros as in the
 * sample (memset), so every element ends equal to `value` (times `repeat`). */
#include "workloads/sdk_util.h"
#include <stdlib.h>

typedef struct aa_st {
    uint64_t n, repeat;
    int32_t value;
    int32_t *a;
    uint64_t da;
    wl_shadow *sh;
    int done;
} aa_st;

static const gms_wl_param aa_params[] = {
    { "n", "16777216", "ints (16 * 1024 * 1024; a multiple of 512)" },
    { "value", "26", "the increment" },
    { "scale", "1", "multiplies n" },
    { "repeat", "1", "run the copy-kernel-copy sequence this many times (the values accumulate)" },
    { NULL, NULL, NULL },
};

static int aa_sizes(const gms_wl_args *a, uint64_t *n, gms_error *err)
{
    return wl_clamp_scaled(a, "asyncapi", "n", 512, 512, 1ULL << 40, n, err);
}

static int aa_create(const gms_wl_args *a, void **state, gms_error *err)
{
    uint64_t n, rep;
    if (aa_sizes(a, &n, err) || sdk_repeat(a, &rep, err)) return -1;
    if (gms_wl_check_range(a, "value", 0, 1000000, err)) return -1;
    aa_st *s = gms_xcalloc(1, sizeof *s);
    s->n = n;
    s->repeat = rep;
    s->value = (int32_t)gms_wl_u64(a, "value");
    s->a = wl_calloc(n, 4);
    *state = s;
    return 0;
}

static int aa_fill(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    aa_st *s = k->st;
    for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, k, block, wi);
        uint32_t m = w.live;
        uint64_t A[32];
        uint8_t ri = sdk_prologue(&w, m);
        uint8_t p = wl_int(&w, m, ri, GMS_REG_NONE);                     /* IMAD.WIDE */
        WL_LANES(m, l) A[l] = s->da + (block * k->block.x + w.tx[l]) * 4;
        uint8_t v = wl_ldg(&w, m, A, p);
        WL_SH_LD(&w, m, int32_t, s->a[block * k->block.x + w.tx[l]]);
        WL_LANES(m, l) s->a[block * k->block.x + w.tx[l]] += s->value;
        wl_stg(&w, m, A, p, wl_int(&w, m, v, GMS_REG_NONE));
        WL_SH_ST(&w, m, int32_t, s->a[block * k->block.x + w.tx[l]]);
        wl_exit(&w, m);
    }
    return 0;
}

static int aa_next(void *state, gms_program *p, gms_error *err)
{
    aa_st *s = state;
    if (!wl_once(&s->done)) return 0;
    uint64_t b = s->n * 4;
    s->sh = p->shadow;
    s->da = sdk_alloc(p, s->a, b, "d_a");
    for (uint64_t r = 0; r < s->repeat; r++) {
        if (r) gms_prog_copy_h2d(p, s->da, b);   /* the host array holds the last result: the same bytes */
        wl_launch(p, "_Z16increment_kernelPii", wl_dim3((uint32_t)(s->n / 512), 1, 1), wl_dim3(512, 1, 1), 8, 0, aa_fill,
                  s, NULL, 0);
        gms_prog_copy_d2h(p, s->da, b);
    }
    gms_prog_sync(p);
    return 1;
}

static int aa_verify(void *state, gms_error *err)
{
    aa_st *s = state;
    void *own;
    const int32_t *got = wl_result(s->sh, s->da, s->a, s->n, 4, &own);
    int32_t want = (int32_t)(s->value * (int64_t)s->repeat);
    int rc = 0;
    for (uint64_t i = 0; i < s->n && !rc; i++)   /* correct_output */
        if (got[i] != want)
            rc = gms_err(err, "workload asyncapi: a[%llu] = %d, expected %d", (unsigned long long)i, got[i], want);
    free(own);
    return rc;
}

static void aa_destroy(void *state)
{
    aa_st *s = state;
    if (!s) return;
    free(s->a);
    free(s);
}

static uint64_t aa_footprint(const gms_wl_args *a)
{
    gms_error e;
    uint64_t n;
    return aa_sizes(a, &n, &e) ? 0 : n * 4;
}

const gms_workload_ops gms_wl_sdk_asyncapi = {
    .name = "asyncapi",
    .suite = "sdk",
    .domain = "microbenchmark",
    .ri = "-",
    .summary = "AA: increment_kernel, one read-modify-write per thread over n ints, 512-thread blocks",
    .params = aa_params,
    .create = aa_create,
    .next = aa_next,
    .verify = aa_verify,
    .destroy = aa_destroy,
    .footprint = aa_footprint,
};
