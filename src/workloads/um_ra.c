/* um-ra: UVMSmart's benchmarks/Managed/ra (random access): three managed arrays of N = 2^20
 * floats, input[i] random in [0, 1) and table[i] = i set on the host, output untouched, then
 *   __global__ void kernel(float *input, float *output, float *table, size_t size)
 *   { int x = blockIdx.x*blockDim.x + threadIdx.x;
 *     if (x > size || x % 100 != 0) return;
 *     float in_f = input[x]; int in_i = (int)floor(in_f);
 *     int j = (int)((in_f - (float)in_i) * (float)N);
 *     output[j] = table[j] * in_f; }
 * on N / 256 blocks of 256 and cudaDeviceSynchronize. One thread in 100 works (at most one lane
 * of a warp, 10486 warps): two page-random accesses each (table[j], output[j]), the pattern
 * UVMSmart's authors use for random access. Threads that draw the same j race on output[j]:
 * verification accepts any of their values. The input is ours (the seed's), not rand()'s.
 * Warp stream (sm_61 shape): MOV S2R S2R IMAD ISETP.GT, x % 100 as IMAD.HI SHF IMAD ISETP.NE,
 * @P0 EXIT (10 for every warp); for the working lane IMAD.WIDE LDG FRND.FLOOR FADD FMUL F2I
 * IMAD.WIDE LDG FMUL IMAD.WIDE STG EXIT (12 more). */
#include "workloads/wl_util.h"
#include "workloads/wl_clamp.h"
#include <math.h>
#include <stdlib.h>
#include "util/sort.h"

typedef struct ra_st {
    uint64_t n;
    uint32_t block, stride;
    float *input, *output, *table;
    uint64_t din, dout, dtab;
    wl_shadow *sh;
    int done;
} ra_st;

static const gms_wl_param ra_params[] = {
    { "n", "1048576", "array length (floats) and table range, UVMSmart's N = 1<<20" },
    { "block", "256", "threads per block (UVMSmart's blockSize)" },
    { "every", "100", "one thread in this many works (UVMSmart's x % 100)" },
    { "scale", "1", "multiplies n (a size it takes to zero clamps to the smallest valid problem)" },
    { NULL, NULL, NULL },
};

static int ra_sizes(const gms_wl_args *a, uint64_t *n, gms_error *err)
{
    /* the kernel's int x and int j; (frac * n) stays exact in float up to 2^24 */
    return wl_clamp_size(a, "um-ra", "n", 1, 1ULL << 24, n, err);
}

/* the slot a thread writes: (int)((in - floor(in)) * (float)n), in float as the kernel */
static uint64_t ra_slot(float in, uint64_t n)
{
    float fr = in - (float)(int)floorf(in);
    return (uint64_t)(int)(fr * (float)n);
}

static int ra_create(const gms_wl_args *a, void **state, gms_error *err)
{
    uint64_t n;
    if (ra_sizes(a, &n, err)) return -1;
    if (gms_wl_check_range(a, "block", 1, 1024, err)) return -1;
    if (gms_wl_check_range(a, "every", 1, 1 << 20, err)) return -1;
    ra_st *s = gms_xcalloc(1, sizeof *s);
    s->n = n;
    s->block = (uint32_t)gms_wl_u64(a, "block");
    s->stride = (uint32_t)gms_wl_u64(a, "every");
    s->input = wl_malloc(n, sizeof(float));
    s->table = wl_malloc(n, sizeof(float));
    s->output = wl_calloc(n, sizeof(float));
    gms_rng r;
    gms_rng_seed(&r, gms_wl_seed(a));
    for (uint64_t i = 0; i < n; i++) {
        s->input[i] = wl_randf(&r);
        s->table[i] = (float)i;
    }
    *state = s;
    return 0;
}

static int ra_fill(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    ra_st *s = k->st;
    for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, k, block, wi);
        uint64_t x[32], j[32];
        uint32_t live = w.live, m = 0;
        WL_LANES(live, l) {
            x[l] = (uint64_t)w.bx * w.bdim.x + w.tx[l];
            /* UVMSmart's test is x > size, which lets x == size read past input when N is not a
             * multiple of the block; with its N = 2^20 no thread has x >= N, and here neither */
            if (x[l] < s->n && x[l] % s->stride == 0) m |= 1u << l;
        }
        wl_int(&w, live, GMS_REG_NONE, GMS_REG_NONE);                  /* MOV R1, c[0x0][0x28] */
        uint8_t cta = wl_int(&w, live, GMS_REG_NONE, GMS_REG_NONE);    /* S2R ctaid.x */
        uint8_t tid = wl_int(&w, live, GMS_REG_NONE, GMS_REG_NONE);    /* S2R tid.x */
        uint8_t rx = wl_int(&w, live, cta, tid);                       /* IMAD x */
        wl_pred(&w, live, rx, GMS_REG_NONE);                           /* ISETP.GT x > size */
        uint8_t hi = wl_int(&w, live, rx, GMS_REG_NONE);               /* IMAD.HI x * magic */
        uint8_t q = wl_int(&w, live, hi, GMS_REG_NONE);                /* SHF.R q */
        uint8_t rr = wl_int(&w, live, q, rx);                          /* IMAD r = x - 100 q */
        wl_pred(&w, live, rr, GMS_REG_NONE);                           /* ISETP.NE.OR */
        wl_exit(&w, live & ~m);                                        /* @P0 EXIT */
        if (!m) continue;
        uint8_t pin = wl_int(&w, m, rx, GMS_REG_NONE);                 /* IMAD.WIDE input+x */
        uint8_t vin = wl_ldg_idx(&w, m, s->din, x, pin);
        WL_SH_LD(&w, m, float, s->input[x[l]]);
        uint8_t fl = wl_fp(&w, m, vin, GMS_REG_NONE, GMS_REG_NONE);    /* FRND.FLOOR */
        uint8_t fr = wl_fp(&w, m, vin, fl, GMS_REG_NONE);              /* FADD in - floor */
        uint8_t fs = wl_fp(&w, m, fr, GMS_REG_NONE, GMS_REG_NONE);     /* FMUL by N */
        uint8_t rj = wl_fp(&w, m, fs, GMS_REG_NONE, GMS_REG_NONE);     /* F2I j */
        WL_LANES(m, l) j[l] = ra_slot(s->input[x[l]], s->n);
        uint8_t pt = wl_int(&w, m, rj, GMS_REG_NONE);                  /* IMAD.WIDE table+j */
        uint8_t vt = wl_ldg_idx(&w, m, s->dtab, j, pt);
        WL_SH_LD(&w, m, float, s->table[j[l]]);
        uint8_t vo = wl_fp(&w, m, vt, vin, GMS_REG_NONE);              /* FMUL t * in */
        uint8_t po = wl_int(&w, m, rj, GMS_REG_NONE);                  /* IMAD.WIDE output+j */
        WL_LANES(m, l) s->output[j[l]] = s->table[j[l]] * s->input[x[l]];
        wl_stg_idx(&w, m, s->dout, j, po, vo);
        WL_SH_ST(&w, m, float, s->output[j[l]]);
        wl_exit(&w, m);
    }
    return 0;
}

static int ra_next(void *state, gms_program *p, gms_error *err)
{
    ra_st *s = state;
    if (!wl_once(&s->done)) return 0;
    uint64_t bytes = s->n * 4;
    s->din = gms_prog_alloc(p, bytes, "input");
    s->dout = gms_prog_alloc(p, bytes, "output");
    s->dtab = gms_prog_alloc(p, bytes, "table");
    gms_prog_copy_h2d(p, s->din, bytes);       /* dropped under uvm=1 (managed) */
    gms_prog_copy_h2d(p, s->dout, bytes);
    gms_prog_copy_h2d(p, s->dtab, bytes);
    s->sh = p->shadow;
    wl_sh_init(p, s->din, s->input, bytes);
    wl_sh_init(p, s->dout, s->output, bytes);
    wl_sh_init(p, s->dtab, s->table, bytes);
    wl_launch(p, "_Z6kernelPfS_S_m", wl_dim3(wl_cdiv(s->n, s->block), 1, 1), wl_dim3(s->block, 1, 1), 12, 0, ra_fill, s,
              NULL, 0);
    gms_prog_copy_d2h(p, s->dout, bytes);
    gms_prog_sync(p);
    return 1;
}

/* output[j] is 0 where no thread writes, else table[j] x input[x] for one of the threads x
 * that draw j (they race) */
static int ra_verify(void *state, gms_error *err)
{
    ra_st *s = state;
    void *own;
    const float *out = wl_result(s->sh, s->dout, s->output, s->n, sizeof(float), &own);
    uint64_t nt = 0, grid = (uint64_t)wl_cdiv(s->n, s->block) * s->block;
    for (uint64_t x = 0; x < grid && x < s->n; x += s->stride) nt++;
    uint64_t *key = gms_xmalloc((nt + 1) * sizeof *key);   /* (j << 32) | thread number */
    uint64_t k = 0;
    for (uint64_t x = 0; x < grid && x < s->n; x += s->stride, k++) key[k] = ra_slot(s->input[x], s->n) << 32 | k;
    qsort(key, nt, sizeof *key, gms_cmp_u64);
    int rc = 0;
    uint64_t next = 0;   /* slots below next are checked */
    for (uint64_t a = 0; a < nt && !rc;) {
        uint64_t j = key[a] >> 32, b = a;
        for (; next < j && !rc; next++)
            if (out[next] != 0.0f)
                rc = gms_err(err, "workload um-ra: output[%llu] = %.9g, no thread writes it", (unsigned long long)next,
                             (double)out[next]);
        int ok = 0;
        for (; b < nt && key[b] >> 32 == j; b++)
            ok |= out[j] == s->table[j] * s->input[(key[b] & 0xffffffffu) * s->stride];
        if (!rc && !ok)
            rc = gms_err(err, "workload um-ra: output[%llu] = %.9g, not table[j] x input of a thread drawing it",
                         (unsigned long long)j, (double)out[j]);
        next = j + 1;
        a = b;
    }
    for (; next < s->n && !rc; next++)
        if (out[next] != 0.0f)
            rc = gms_err(err, "workload um-ra: output[%llu] = %.9g, no thread writes it", (unsigned long long)next,
                         (double)out[next]);
    free(key);
    free(own);
    return rc;
}

static void ra_destroy(void *state)
{
    ra_st *s = state;
    if (!s) return;
    free(s->input);
    free(s->output);
    free(s->table);
    free(s);
}

static uint64_t ra_footprint(const gms_wl_args *a)
{
    gms_error e;
    uint64_t n = 0;
    if (ra_sizes(a, &n, &e)) return 0;
    return 3 * n * 4;
}

const gms_workload_ops gms_wl_um_ra = {
    .name = "um-ra",
    .suite = "uvmsmart",
    .domain = "microbenchmark",
    .ri = "I",
    .summary = "UVMSmart Managed ra: one thread in 100 reads a random table slot and writes output there (2^20 floats)",
    .params = ra_params,
    .create = ra_create,
    .next = ra_next,
    .verify = ra_verify,
    .destroy = ra_destroy,
    .footprint = ra_footprint,
};
