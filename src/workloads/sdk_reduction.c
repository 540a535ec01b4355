/* sdk-reduction (SDK reduction, seed RED): sum of n ints with the sample's default kernel 6
 * (reduce6, cuda-samples reduction_kernel.cu), 256 threads, at most 64 blocks:
 *   i = blockIdx.x*blockSize*2 + tid; gridSize = blockSize*2*gridDim.x   (n a power of two;
 *   while (i < n) { sum += in[i]; if (i + blockSize < n) sum += in[i + blockSize];   else
 *                   i += gridSize; }                         i = blockIdx.x*blockSize + tid,
 *   sum = warpReduceSum(sum)           (5 __shfl_down_sync)   one load per step)
 *   if (tid % 32 == 0) sdata[tid/32] = sum; __syncthreads();
 *   if (tid < blockSize/32) { sum = sdata[tid]; sum = warpReduceSum(sum); }
 *   if (tid == 0) out[blockIdx.x] = sum;
 * then, as the sample's GPU final reduction, the block sums again (s = blocks) with
 * getNumBlocksAndThreads' shapes (threads = n < 512 ? nextPow2((n+1)/2) : 256) until one is
 * left; testIterations (100) times. Data as the sample: rand() & 0xFF; sums wrap mod 2^32 as
 * the sample's int sums do. The grid-stride loop is long (n / (2*64*256) = 512 steps at the
 * default n): the kernel is generated resumably, a chunk at a time (wl_gen.h). The sample's
 * device-to-device copy of the block sums into d_intermediateSums before each further level is
 * not issued (a few hundred bytes); the next level reads them where they are. SHFL is emitted
 * as an integer instruction. */
#include "workloads/sdk_util.h"
#include <stdlib.h>

#define RED_MAXBLOCKS 64u

typedef struct red_st {
    uint64_t n, iters, repeat;
    uint32_t threads;
    uint32_t *in, *buf[2];     /* host data and the two block-sum buffers */
    uint32_t *wsum;            /* per-warp sums (the block's sdata), indexed block*32 + warp */
    uint32_t result;
    uint64_t din, dbuf[2];
    int final_buf;
    wl_shadow *sh;
    int done;
} red_st;

static const gms_wl_param red_params[] = {
    { "n", "16777216", "ints to sum (--n, default 1<<24)" },
    { "threads", "256", "maxThreads (a power of two, 32..1024)" },
    { "iterations", "100", "times the whole reduction runs (testIterations)" },
    { "scale", "1", "multiplies n" },
    { "repeat", "1", "run the whole launch sequence this many times" },
    { NULL, NULL, NULL },
};

static int red_sizes(const gms_wl_args *a, uint64_t *n, gms_error *err)
{
    return wl_clamp_size(a, "sdk-reduction", "n", 1, 1ULL << 32, n, err);
}

static int red_create(const gms_wl_args *a, void **state, gms_error *err)
{
    uint64_t n, rep;
    if (red_sizes(a, &n, err) || sdk_repeat(a, &rep, err)) return -1;
    if (gms_wl_check_range(a, "iterations", 1, 100000, err) || gms_wl_check_range(a, "threads", 32, 1024, err))
        return -1;
    uint64_t t = gms_wl_u64(a, "threads");
    if (t & (t - 1)) return gms_err(err, "workload sdk-reduction: threads=%llu must be a power of two", (unsigned long long)t);
    red_st *s = gms_xcalloc(1, sizeof *s);
    s->n = n;
    s->threads = (uint32_t)t;
    s->iters = gms_wl_u64(a, "iterations");
    s->repeat = rep;
    s->in = wl_malloc(n, 4);
    s->buf[0] = wl_calloc(RED_MAXBLOCKS, 4);
    s->buf[1] = wl_calloc(RED_MAXBLOCKS, 4);
    s->wsum = wl_calloc(RED_MAXBLOCKS * 32, 4);
    gms_rng r;
    gms_rng_seed(&r, gms_wl_seed(a));
    for (uint64_t i = 0; i < n; i++) s->in[i] = (uint32_t)(gms_rng_next(&r) >> 40) & 0xFF;
    *state = s;
    return 0;
}

typedef struct red_warp {
    wl_wgen ws;
    uint64_t i[32];
    uint32_t sum[32];
    uint32_t m;
    uint8_t rs, ri;
} red_warp;

static uint64_t next_pow2(uint64_t x)
{
    uint64_t p = 1;
    while (p < x) p <<= 1;
    return p;
}

/* getNumBlocksAndThreads for kernel 6 */
static void shape(const red_st *s, uint64_t n, uint32_t *threads, uint32_t *blocks)
{
    uint64_t t = n < (uint64_t)s->threads * 2 ? next_pow2((n + 1) / 2) : s->threads;
    uint64_t b = (n + t * 2 - 1) / (t * 2);
    *threads = (uint32_t)t;
    *blocks = (uint32_t)(b < RED_MAXBLOCKS ? b : RED_MAXBLOCKS);
}

/* args: 0 n, 1 input (-1: in, else buf index), 2 output buf index */
static int red_step(const wl_kernel *k, wl_wgen *ws, gms_error *err)
{
    red_warp *g = (red_warp *)ws;
    wl_warp *w = &ws->w;
    red_st *s = k->st;
    uint64_t n = (uint64_t)k->arg[0];
    int src = (int)k->arg[1], dst = (int)k->arg[2];
    const uint32_t *in = src < 0 ? s->in : s->buf[src];
    uint64_t din = src < 0 ? s->din : s->dbuf[src];
    uint64_t bs = k->block.x, grid = k->grid.x;
    int pow2 = (n & (n - 1)) == 0;
    uint64_t gsize = pow2 ? bs * 2 * grid : bs * grid;
    WL_GEN_BEGIN(&ws->g)
    g->m = w->live;
    g->ri = sdk_prologue(w, g->m);
    g->rs = wl_int(w, g->m, GMS_REG_NONE, GMS_REG_NONE);                  /* mySum = 0 */
    WL_LANES(g->m, l) {
        g->i[l] = pow2 ? w->bx * bs * 2 + w->tx[l] : w->bx * bs + w->tx[l];
        g->sum[l] = 0;
    }
    for (;;) {
        uint32_t mk = 0, m2 = 0;
        WL_LANES(g->m, l) {
            if (g->i[l] < n) mk |= 1u << l;
            if (pow2 && g->i[l] + bs < n) m2 |= 1u << l;
        }
        wl_pred(w, g->m, g->ri, GMS_REG_NONE);                              /* i < n */
        wl_bra(w, g->m & ~mk);
        if (!mk) break;
        uint64_t A[32];
        WL_LANES(mk, l) A[l] = din + g->i[l] * 4;
        uint8_t v = wl_ldg(w, mk, A, wl_int(w, mk, g->ri, GMS_REG_NONE));
        WL_SH_LD(w, mk, uint32_t, in[g->i[l]]);
        g->rs = wl_int(w, mk, g->rs, v);
        WL_LANES(mk, l) g->sum[l] += in[g->i[l]];
        if (pow2) {
            wl_pred(w, mk, wl_int(w, mk, g->ri, GMS_REG_NONE), GMS_REG_NONE);   /* i + blockSize < n */
            if (m2) {
                WL_LANES(m2, l) A[l] = din + (g->i[l] + bs) * 4;
                v = wl_ldg(w, m2, A, g->ri);
                WL_SH_LD(w, m2, uint32_t, in[g->i[l] + bs]);
                g->rs = wl_int(w, m2, g->rs, v);
                WL_LANES(m2, l) g->sum[l] += in[g->i[l] + bs];
            }
        }
        g->ri = wl_int(w, mk, g->ri, GMS_REG_NONE);                         /* i += gridSize */
        WL_LANES(mk, l) g->i[l] += gsize;
        wl_bra(w, mk);
        WL_GEN_YIELD(&ws->g);
    }
    {
        uint32_t t = 0;
        WL_LANES(g->m, l) t += g->sum[l];
        for (int i = 0; i < 5; i++) g->rs = wl_int(w, g->m, wl_int(w, g->m, g->rs, GMS_REG_NONE), g->rs);  /* SHFL, IADD */
        s->wsum[w->bx * 32 + w->warp] = t;
        uint64_t o[32] = { 0 };
        o[0] = w->warp * 4;
        wl_pred(w, g->m, GMS_REG_NONE, GMS_REG_NONE);                         /* tid % 32 == 0 */
        sdk_sts(w, 1, 4, o, GMS_REG_NONE, g->rs);
        wl_bar(w);
    }
    WL_GEN_YIELD_ALWAYS(&ws->g);
    {
        uint32_t ext = bs / 32 ? (uint32_t)(bs / 32) : 1, me = 0;
        WL_LANES(g->m, l) if (w->warp == 0 && w->tx[l] < ext) me |= 1u << l;
        wl_pred(w, g->m, GMS_REG_NONE, GMS_REG_NONE);                         /* tid < shmem_extent */
        wl_bra(w, g->m & ~me);
        uint32_t tot = 0;
        if (me) {
            uint64_t o[32];
            WL_LANES(me, l) o[l] = w->tx[l] * 4;
            uint8_t r = sdk_lds(w, me, 4, o, GMS_REG_NONE);
            for (int i = 0; i < 5; i++) r = wl_int(w, me, wl_int(w, me, r, GMS_REG_NONE), r);
            for (uint32_t t = 0; t < ext; t++) tot += s->wsum[w->bx * 32 + t];
            uint64_t O[32];
            O[0] = s->dbuf[dst] + w->bx * 4;
            s->buf[dst][w->bx] = tot;
            wl_stg(w, 1, O, wl_int(w, 1, g->ri, GMS_REG_NONE), r);
            WL_SH_ST(w, 1u, uint32_t, tot);
        }
        wl_exit(w, g->m);
    }
    WL_GEN_END(&ws->g);
}

static int red_next(void *state, gms_program *p, gms_error *err)
{
    red_st *s = state;
    if (!wl_once(&s->done)) return 0;
    s->sh = p->shadow;
    s->din = sdk_alloc(p, s->in, s->n * 4, "d_idata");
    s->dbuf[0] = sdk_alloc(p, NULL, RED_MAXBLOCKS * 4, "d_odata");
    s->dbuf[1] = sdk_alloc(p, NULL, RED_MAXBLOCKS * 4, "d_intermediateSums");
    for (uint64_t r = 0; r < s->repeat; r++)
        for (uint64_t it = 0; it < s->iters; it++) {
            uint64_t n = s->n;
            int src = -1, dst = 0;
            do {
                uint32_t t, b;
                shape(s, n, &t, &b);
                int64_t args[3] = { (int64_t)n, src, dst };
                wl_launch_gen(p, "_Z7reduce6IiLj256ELb1EEvPT_S1_j", wl_dim3(b, 1, 1), wl_dim3(t, 1, 1), 24,
                              (t <= 32 ? 2 * t : t) * 4, red_step, sizeof(red_warp), s, args, 3);
                n = b;
                src = dst;
                dst ^= 1;
            } while (n > 1);
            s->final_buf = src;
        }
    gms_prog_copy_d2h(p, s->dbuf[s->final_buf], 4);
    gms_prog_sync(p);
    return 1;
}

static int red_verify(void *state, gms_error *err)
{
    red_st *s = state;
    uint32_t want = 0;
    for (uint64_t i = 0; i < s->n; i++) want += s->in[i];
    void *own;
    const uint32_t *got = wl_result(s->sh, s->dbuf[s->final_buf], s->buf[s->final_buf], 1, 4, &own);
    int rc = wl_check_u32("sdk-reduction", "sum", got, &want, 1, err);
    free(own);
    return rc ? -1 : 0;
}

static void red_destroy(void *state)
{
    red_st *s = state;
    if (!s) return;
    free(s->in);
    free(s->buf[0]);
    free(s->buf[1]);
    free(s->wsum);
    free(s);
}

static uint64_t red_footprint(const gms_wl_args *a)
{
    gms_error e;
    uint64_t n;
    return red_sizes(a, &n, &e) ? 0 : n * 4 + 2 * RED_MAXBLOCKS * 4;
}

const gms_workload_ops gms_wl_sdk_reduction = {
    .name = "sdk-reduction",
    .suite = "sdk",
    .domain = "parallel primitive",
    .ri = "-",
    .summary = "RED: sum of n ints with reduce6 (grid-stride loads, warp shuffles), 64 x 256, then the block sums",
    .params = red_params,
    .create = red_create,
    .next = red_next,
    .verify = red_verify,
    .destroy = red_destroy,
    .footprint = red_footprint,
};
