/* um-streamtriad: UVMSmart's benchmarks/Managed/StreamTriad: three managed arrays x = 1.0f,
 * y = 2.0f, z = 0.0f of N = 2^20 floats initialised on the host (no prefetch), then
 *   __global__ void stream_triad(int n, int scalar, float *x, float *y, float *z)
 *   { int index = blockIdx.x*blockDim.x + threadIdx.x, stride = blockDim.x*gridDim.x;
 *     for (int i = index; i < n; i += stride) z[i] = scalar * x[i] + y[i]; }
 * with scalar = 3 on ceil(N / 256) blocks of 256, and cudaDeviceSynchronize before the host
 * checks z == 5. Every thread runs the body at most once (stride >= n). Warp stream (sm_61
 * shape): the 1-D prologue, stride, I2F scalar, addresses, LDG x, LDG y, FFMA, STG z,
 * i += stride, ISETP, BRA, EXIT. */
#include "workloads/wl_kernel_1d.h"
#include "workloads/wl_clamp.h"
#include <stdlib.h>

typedef struct triad_st {
    uint64_t n;
    uint32_t block;
    int scalar;
    float *x, *y, *z;
    uint64_t dx, dy, dz;
    wl_shadow *sh;
    int done;
} triad_st;

static const gms_wl_param triad_params[] = {
    { "n", "1048576", "array length (floats), UVMSmart's N = 1<<20" },
    { "block", "256", "threads per block (UVMSmart's blockSize)" },
    { "scalar", "3", "the int scalar of z = scalar * x + y" },
    { "scale", "1", "multiplies n (a size it takes to zero clamps to the smallest valid problem)" },
    { NULL, NULL, NULL },
};

static int triad_sizes(const gms_wl_args *a, uint64_t *n, gms_error *err)
{
    return wl_clamp_size(a, "um-streamtriad", "n", 1, 1ULL << 31, n, err);   /* the kernel's int n */
}

static int triad_create(const gms_wl_args *a, void **state, gms_error *err)
{
    uint64_t n;
    if (triad_sizes(a, &n, err)) return -1;
    if (gms_wl_check_range(a, "block", 1, 1024, err)) return -1;
    if (gms_wl_check_range(a, "scalar", 0, 1000000, err)) return -1;
    triad_st *s = gms_xcalloc(1, sizeof *s);
    s->n = n;
    s->block = (uint32_t)gms_wl_u64(a, "block");
    s->scalar = (int)gms_wl_u64(a, "scalar");
    s->x = wl_malloc(n, sizeof(float));
    s->y = wl_malloc(n, sizeof(float));
    s->z = wl_calloc(n, sizeof(float));
    for (uint64_t i = 0; i < n; i++) {
        s->x[i] = 1.0f;
        s->y[i] = 2.0f;
    }
    *state = s;
    return 0;
}

/* one warp past the guard (wl_fill_1d): the grid-stride loop, then EXIT of the whole warp */
static uint32_t triad_body(const wl_kernel *k, wl_warp *w, uint32_t m, uint64_t i[32], uint8_t ri)
{
    triad_st *s = k->st;
    float sc = (float)s->scalar;
    uint8_t rs = wl_int(w, m, GMS_REG_NONE, GMS_REG_NONE);                 /* stride = blockDim.x * gridDim.x */
    uint8_t rk = wl_fp(w, m, GMS_REG_NONE, GMS_REG_NONE, GMS_REG_NONE);   /* I2F scalar */
    while (m) {
        wl_xy_regs xy = wl_ldg_xy(w, m, i, ri, s->dx, s->x, s->dy, s->y);
        uint8_t pz = wl_int(w, m, ri, xy.r4);                  /* IMAD.WIDE z+i */
        uint8_t vz = wl_fp(w, m, rk, xy.vx, xy.vy);            /* FFMA */
        WL_LANES(m, l) s->z[i[l]] = sc * s->x[i[l]] + s->y[i[l]];
        wl_stg_idx(w, m, s->dz, i, pz, vz);
        WL_SH_ST(w, m, float, s->z[i[l]]);
        m = wl_grid_stride_next(w, m, i, &ri, rs, s->n);
    }
    return w->live;
}

static int triad_fill(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    return wl_fill_1d(k, block, bt, ((const triad_st *)k->st)->n, triad_body);
}

static int triad_next(void *state, gms_program *p, gms_error *err)
{
    triad_st *s = state;
    if (!wl_once(&s->done)) return 0;
    uint64_t bytes = s->n * 4;
    s->dx = gms_prog_alloc(p, bytes, "x");
    s->dy = gms_prog_alloc(p, bytes, "y");
    s->dz = gms_prog_alloc(p, bytes, "z");
    gms_prog_copy_h2d(p, s->dx, bytes);        /* dropped under uvm=1 (managed) */
    gms_prog_copy_h2d(p, s->dy, bytes);
    gms_prog_copy_h2d(p, s->dz, bytes);
    s->sh = p->shadow;
    wl_sh_init(p, s->dx, s->x, bytes);
    wl_sh_init(p, s->dy, s->y, bytes);
    wl_sh_init(p, s->dz, s->z, bytes);
    int64_t args[1] = { s->scalar };
    wl_launch(p, "_Z12stream_triadiiPfS_S_", wl_dim3(wl_cdiv(s->n, s->block), 1, 1), wl_dim3(s->block, 1, 1), 12, 0,
              triad_fill, s, args, 1);
    gms_prog_copy_d2h(p, s->dz, bytes);
    gms_prog_sync(p);
    return 1;
}

static int triad_verify(void *state, gms_error *err)
{
    triad_st *s = state;
    void *own;
    const float *z = wl_result(s->sh, s->dz, s->z, s->n, sizeof(float), &own);
    float want = (float)s->scalar * 1.0f + 2.0f;
    int rc = 0;
    for (uint64_t i = 0; i < s->n && !rc; i++)
        if (z[i] != want)
            rc = gms_err(err, "workload um-streamtriad: z[%llu] = %.9g, expected %.9g", (unsigned long long)i,
                         (double)z[i], (double)want);
    free(own);
    return rc;
}

static void triad_destroy(void *state)
{
    triad_st *s = state;
    if (!s) return;
    free(s->x);
    free(s->y);
    free(s->z);
    free(s);
}

static uint64_t triad_footprint(const gms_wl_args *a)
{
    gms_error e;
    uint64_t n = 0;
    if (triad_sizes(a, &n, &e)) return 0;
    return 3 * n * 4;
}

const gms_workload_ops gms_wl_um_streamtriad = {
    .name = "um-streamtriad",
    .suite = "uvmsmart",
    .domain = "microbenchmark",
    .ri = "R",
    .summary = "UVMSmart Managed StreamTriad: z = 3 x + y over 2^20 floats, grid-stride loop, no prefetch",
    .params = triad_params,
    .create = triad_create,
    .next = triad_next,
    .verify = triad_verify,
    .destroy = triad_destroy,
    .footprint = triad_footprint,
};
