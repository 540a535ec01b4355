/* um-addvectors: UVMSmart's benchmarks/Managed/AddVectors (after NVIDIA's "Unified Memory for
 * CUDA beginners" post): two managed arrays x = 1.0f, y = 2.0f of N = 2^20 floats initialised on
 * the host, cudaMemPrefetchAsync of both to the GPU, then
 *   __global__ void add(int n, float *x, float *y)
 *   { int index = blockIdx.x*blockDim.x + threadIdx.x, stride = blockDim.x*gridDim.x;
 *     for (int i = index; i < n; i += stride) y[i] = x[i] + y[i]; }
 * on ceil(N / 256) blocks of 256, and cudaDeviceSynchronize before the host checks y == 3.
 * With that grid every thread runs the loop body at most once (stride >= n). Named apart from
 * the micro `stream` (c = a + b, no prefetch). Warp stream (sm_61 shape): the 1-D prologue,
 * stride = blockDim x gridDim, address, LDG x, LDG y, FADD, STG y, i += stride, ISETP, BRA, EXIT. */
#include "workloads/wl_kernel_1d.h"
#include "workloads/wl_clamp.h"
#include <stdlib.h>

typedef struct addv_st {
    uint64_t n;
    uint32_t block;
    int prefetch;
    float *x, *y;
    uint64_t dx, dy;
    wl_shadow *sh;
    int done;
} addv_st;

static const gms_wl_param addv_params[] = {
    { "n", "1048576", "array length (floats), UVMSmart's N = 1<<20" },
    { "block", "256", "threads per block (UVMSmart's blockSize)" },
    { "prefetch_xy", "1", "1: the benchmark's cudaMemPrefetchAsync of x and y before the launch (managed memory only)" },
    { "scale", "1", "multiplies n (a size it takes to zero clamps to the smallest valid problem)" },
    { NULL, NULL, NULL },
};

static int addv_sizes(const gms_wl_args *a, uint64_t *n, gms_error *err)
{
    /* the kernel's int n and int index */
    return wl_clamp_size(a, "um-addvectors", "n", 1, 1ULL << 31, n, err);
}

static int addv_create(const gms_wl_args *a, void **state, gms_error *err)
{
    uint64_t n;
    if (addv_sizes(a, &n, err)) return -1;
    if (gms_wl_check_range(a, "block", 1, 1024, err)) return -1;
    if (gms_wl_check_range(a, "prefetch_xy", 0, 1, err)) return -1;
    addv_st *s = gms_xcalloc(1, sizeof *s);
    s->n = n;
    s->block = (uint32_t)gms_wl_u64(a, "block");
    s->prefetch = (int)gms_wl_u64(a, "prefetch_xy");
    s->x = wl_malloc(n, sizeof(float));
    s->y = wl_malloc(n, sizeof(float));
    for (uint64_t i = 0; i < n; i++) {
        s->x[i] = 1.0f;
        s->y[i] = 2.0f;
    }
    *state = s;
    return 0;
}

/* one warp past the guard (wl_fill_1d): the grid-stride loop, then EXIT of the whole warp */
static uint32_t addv_body(const wl_kernel *k, wl_warp *w, uint32_t m, uint64_t i[32], uint8_t ri)
{
    addv_st *s = k->st;
    uint8_t rs = wl_int(w, m, GMS_REG_NONE, GMS_REG_NONE);   /* stride = blockDim.x * gridDim.x */
    /* the loop: each pass runs the body for the lanes still below n */
    while (m) {
        wl_xy_regs xy = wl_ldg_xy(w, m, i, ri, s->dx, s->x, s->dy, s->y);
        uint8_t vs = wl_fp(w, m, xy.vx, xy.vy, GMS_REG_NONE);    /* FADD */
        WL_LANES(m, l) s->y[i[l]] = s->x[i[l]] + s->y[i[l]];
        wl_stg_idx(w, m, s->dy, i, xy.py, vs);
        WL_SH_ST(w, m, float, s->y[i[l]]);
        m = wl_grid_stride_next(w, m, i, &ri, rs, s->n);
    }
    return w->live;
}

static int addv_fill(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    return wl_fill_1d(k, block, bt, ((const addv_st *)k->st)->n, addv_body);
}

static int addv_next(void *state, gms_program *p, gms_error *err)
{
    addv_st *s = state;
    if (!wl_once(&s->done)) return 0;
    uint64_t bytes = s->n * 4;
    s->dx = gms_prog_alloc(p, bytes, "x");
    s->dy = gms_prog_alloc(p, bytes, "y");
    gms_prog_copy_h2d(p, s->dx, bytes);        /* dropped under uvm=1 (managed) */
    gms_prog_copy_h2d(p, s->dy, bytes);
    if (p->uvm && s->prefetch) {
        gms_prog_prefetch(p, s->dx, bytes);
        gms_prog_prefetch(p, s->dy, bytes);
    }
    s->sh = p->shadow;
    wl_sh_init(p, s->dx, s->x, bytes);
    wl_sh_init(p, s->dy, s->y, bytes);
    wl_launch(p, "_Z3addiPfS_", wl_dim3(wl_cdiv(s->n, s->block), 1, 1), wl_dim3(s->block, 1, 1), 12, 0, addv_fill, s,
              NULL, 0);
    gms_prog_copy_d2h(p, s->dy, bytes);
    gms_prog_sync(p);
    return 1;
}

static int addv_verify(void *state, gms_error *err)
{
    addv_st *s = state;
    void *own;
    const float *y = wl_result(s->sh, s->dy, s->y, s->n, sizeof(float), &own);
    int rc = 0;
    for (uint64_t i = 0; i < s->n && !rc; i++)
        if (y[i] != 3.0f)
            rc = gms_err(err, "workload um-addvectors: y[%llu] = %.9g, expected 3", (unsigned long long)i, (double)y[i]);
    free(own);
    return rc;
}

static void addv_destroy(void *state)
{
    addv_st *s = state;
    if (!s) return;
    free(s->x);
    free(s->y);
    free(s);
}

static uint64_t addv_footprint(const gms_wl_args *a)
{
    gms_error e;
    uint64_t n = 0;
    if (addv_sizes(a, &n, &e)) return 0;
    return 2 * n * 4;
}

const gms_workload_ops gms_wl_um_addvectors = {
    .name = "um-addvectors",
    .suite = "uvmsmart",
    .domain = "microbenchmark",
    .ri = "R",
    .summary = "UVMSmart Managed AddVectors: y = x + y over 2^20 floats, grid-stride loop, both arrays prefetched",
    .params = addv_params,
    .create = addv_create,
    .next = addv_next,
    .verify = addv_verify,
    .destroy = addv_destroy,
    .footprint = addv_footprint,
};
