/* HYBRIDSORT (Rodinia 3.1 hybridsort, CUDA: `hybridsort r`): sorts `size` random floats in
 * [0, 1] with a bucket sort into DIVISIONS = 1024 buckets followed by a float4 merge sort
 * within each bucket. Per sort (cudaSort; the suite runs TEST = 4 of them):
 *   histogram1024Kernel  64 x 96 threads, grid-stride over the list: per-warp 1024-bin
 *                        histograms in shared memory (tag-and-retry updates), atomicAdd to
 *                        the global histogram; the host derives 1024 pivots from it
 *   bucketcount          ceil(size / (32*128)) blocks of 32 threads, grid-stride: binary
 *                        search of the pivots (9 steps), a per-warp shared counter per
 *                        bucket, indice[i] = (rank << 10) + bucket
 *   bucketprefixoffset   8 x 128 threads: exclusive scan of each bucket's per-block counts
 *   bucketsort           the scatter output[bucket start + rank] = input[i]; the host pads
 *                        each bucket to a multiple of 4 with zeros (the memset output)
 *   mergeSortFirst       one thread per float4: sorts its 4 floats
 *   mergeSortPass        nrElems = 2, 4, ...: each thread merges two sorted runs of nrElems/2
 *                        float4s of one bucket (208 threads per block; at least 8 blocks),
 *                        until one thread covers the largest bucket; a data-dependent loop
 *                        generated a chunk at a time
 *   mergepack            (ceil(largest / 256), 1024) x 256: drops each bucket's padding
 * The suite reads the pivots and the merge inputs through textures; tex=0 (default) emits
 * them as global loads (the model times texture fetches as a fixed latency without memory
 * traffic), tex=1 as texture fetches. Verified: the result equals the sorted input.
 * Differences: the cudaMemsets (histogram, offsets, output) are host writes without device
 * traffic; the arrays of the 4 sorts are allocated once (the suite frees and allocates them
 * again per sort); input from the run's seed instead of rand(). */
#include "workloads/wl_util.h"
#include "workloads/wl_clamp.h"
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LOGD 10
#define DIV (1 << LOGD)
#define HBINS 1024
#define HWARPS 3
#define HBLOCKS 64
#define BAND 128

typedef struct f4 { float x, y, z, w; } f4;

typedef struct hs {
    uint64_t n, repeat, rep;
    int tex;
    float *in, *out0;                 /* input list; the sorted result of the last sort */
    float *bufA, *bufB;               /* d_input, d_output: n + 4*DIV floats each */
    uint32_t *hist, *prefix, *offs;   /* global histogram, per-block prefix offsets, d_offsets */
    int32_t *indice;
    float pivot[DIV];
    uint32_t loffs[DIV];
    int32_t sizes[DIV], nulls[DIV], start[DIV + 1];
    uint32_t orig[DIV + 1];
    uint64_t blocks, newsize, largest;
    float mn, mx;
    int phase;                        /* 0: histogram, 1: bucket kernels, 2: merges, 3: done */
    uint64_t d_a, d_b, d_hist, d_prefix, d_offs, d_ind, d_piv, d_loffs;
    uint64_t d_res;                   /* where the last sort's result is */
    wl_shadow *sh;
} hs;

static const gms_wl_param params[] = {
    {"size", "4194304", "floats to sort (SIZE = 1 << 22)"},
    {"tex", "0", "1: pivots and merge inputs through texture fetches (the suite); 0: global loads"},
    {"scale", "1", "multiplies size"},
    {"repeat", "4", "sorts of the same list (the suite's TEST = 4)"},
    {NULL, NULL, NULL},
};

static int sizes_of(const gms_wl_args *a, uint64_t *n, gms_error *err)
{
    if (wl_clamp_size(a, "hybridsort", "size", 4, 1ULL << 28, n, err)) return -1;
    if (*n < 4) return gms_err(err, "workload hybridsort: size=%llu must be at least 4 (one float4)", (unsigned long long)*n);
    return 0;
}

static uint64_t bblocks(uint64_t n) { return (n - 1) / (32 * BAND) + 1; }

static uint64_t footprint(const gms_wl_args *a)
{
    gms_error e;
    uint64_t n;
    if (sizes_of(a, &n, &e)) return 0;
    /* d_input, d_output, indice, histogram, d_offsets, prefix offsets, pivots, l_offsets */
    return 2 * 4 * (n + 4 * DIV) + 4 * n + 4 * HBINS + 4 * HBINS + 4 * bblocks(n) * DIV + 4 * DIV + 4 * DIV;
}

static int create(const gms_wl_args *a, void **out, gms_error *err)
{
    uint64_t n;
    if (sizes_of(a, &n, err) || gms_wl_check_range(a, "tex", 0, 1, err) ||
        gms_wl_check_range(a, "repeat", 1, 1000000, err))
        return -1;
    hs *s = gms_xcalloc(1, sizeof *s);
    s->n = n;
    s->tex = (int)gms_wl_u64(a, "tex");
    s->repeat = gms_wl_u64(a, "repeat");
    s->blocks = bblocks(n);
    s->in = wl_malloc(n, 4);
    s->out0 = wl_malloc(n, 4);
    s->bufA = wl_calloc(n + 4 * DIV, 4);
    s->bufB = wl_calloc(n + 4 * DIV, 4);
    s->hist = wl_calloc(HBINS, 4);
    s->offs = wl_calloc(HBINS, 4);
    s->prefix = wl_calloc(s->blocks * DIV, 4);
    s->indice = wl_calloc(n, 4);
    gms_rng g;
    gms_rng_seed(&g, gms_wl_seed(a));
    s->mn = FLT_MAX;
    s->mx = -FLT_MAX;
    for (uint64_t i = 0; i < n; i++) {
        float v = (float)(gms_rng_next(&g) >> 33) / 2147483647.0f;   /* rand() / RAND_MAX */
        s->in[i] = v;
        s->mn = fminf(s->mn, v);
        s->mx = fmaxf(s->mx, v);
    }
    *out = s;
    return 0;
}

/* the shadow value of a 16-byte access */
static void sh16(wl_warp *w, int store, uint32_t m, const f4 *v)
{
    if (!w->sh) return;
    f4 buf[32];
    WL_LANES(m, l) buf[l] = v[l];
    wl_sh_last(w->sh, w->e.w, store, buf, 16);
}

/* lanes of m grouped by equal key: the rounds a tag-and-retry shared update takes (the
 * largest group), and rank[l] = the round in which lane l succeeds (the highest lane of a
 * group writes last and wins first) */
static int retry_rounds(uint32_t m, const uint32_t key[32], int rank[32])
{
    /* host speed: lanes from the highest down, each lane's rank the count of its key seen so
     * far (keys are bins or buckets, below 1024), instead of comparing every pair */
    _Static_assert(HBINS <= 1024 && DIV <= 1024, "retry_rounds' key table");
    uint8_t seen[1024];
    int rounds = 0;
    for (uint32_t r = m; r; r &= r - 1) seen[key[__builtin_ctz(r)]] = 0;
    for (uint32_t r = m; r; ) {
        const int l = 31 - __builtin_clz(r);
        r &= ~(1u << l);
        rank[l] = seen[key[l]]++;
        if (rank[l] + 1 > rounds) rounds = rank[l] + 1;
    }
    return rounds;
}

/* the shared-memory update loop of addData1024 / addOffset: per round LDS, IADD, STS, LDS,
 * ISETP, BRA for the lanes still trying */
static void retry_emit(wl_warp *w, uint32_t m, const uint32_t key[32], int rounds, const int rank[32], uint64_t base)
{
    uint64_t a[32];
    WL_LANES(m, l) a[l] = base + 4 * (uint64_t)key[l];
    uint32_t pc = w->pc;
    for (int r = 0; r < rounds; r++) {
        uint32_t mr = 0;
        WL_LANES(m, l) if (rank[l] >= r) mr |= 1u << l;
        w->pc = pc;
        uint8_t c = wl_ld(w, mr, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE);
        c = wl_int(w, mr, c, GMS_REG_NONE);
        wl_st(w, mr, GMS_MEM_ST_SHARED, 4, a, GMS_REG_NONE, c);
        uint8_t d = wl_ld(w, mr, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE);
        wl_pred(w, mr, d, c);
        wl_bra(w, mr);
    }
    w->pc = pc + 6 * 16;
}

static uint32_t hbin(const hs *s, float v)
{
    /* all values equal: the suite divides by zero; here every value goes to bin 0 */
    if (!(s->mx > s->mn)) return 0;
    return (uint32_t)(((v - s->mn) / (s->mx - s->mn)) * HBINS) & 0x3FFu;
}

static int k_hist(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    hs *s = k->st;
    uint64_t nthr = (uint64_t)HBLOCKS * HWARPS * 32;
    uint64_t a[32];
    uint32_t cnt[HWARPS][HBINS];
    memset(cnt, 0, sizeof cnt);
    wl_warp W[HWARPS];
    for (uint32_t wi = 0; wi < HWARPS; wi++) {
        wl_warp *w = &W[wi];
        wl_warp_begin(w, bt, k, block, wi);
        uint8_t ri = wl_int(w, w->live, GMS_REG_NONE, GMS_REG_NONE);
        /* clear: 3072 words by 96 threads */
        uint32_t pc = w->pc;
        for (int i = 0; i < HWARPS * HBINS / (HWARPS * 32); i++) {
            w->pc = pc;
            WL_LANES(w->live, l) a[l] = 4 * ((uint64_t)i * HWARPS * 32 + wi * 32 + (uint64_t)l);
            wl_st(w, w->live, GMS_MEM_ST_SHARED, 4, a, GMS_REG_NONE, GMS_REG_NONE);
            wl_bra(w, w->live);
        }
        wl_bar(w);
        pc = w->pc;
        for (uint64_t pos0 = block * HWARPS * 32 + wi * 32; pos0 < s->n; pos0 += nthr) {
            w->pc = pc;
            uint32_t m = 0, key[32];
            int rank[32];
            WL_LANES(w->live, l) if (pos0 + (uint64_t)l < s->n) m |= 1u << l;
            WL_LANES(m, l) { a[l] = s->d_a + 4 * (pos0 + (uint64_t)l); key[l] = hbin(s, s->in[pos0 + (uint64_t)l]); cnt[wi][key[l]]++; }
            uint8_t v = wl_ldg(w, m, a, ri);
            WL_SH_LD(w, m, float, s->in[pos0 + (uint64_t)l]);
            v = wl_fp(w, m, v, GMS_REG_NONE, GMS_REG_NONE);
            v = wl_fp(w, m, v, GMS_REG_NONE, GMS_REG_NONE);
            wl_int(w, m, v, GMS_REG_NONE);
            int rounds = retry_rounds(m, key, rank);
            retry_emit(w, m, key, rounds, rank, 4 * (uint64_t)wi * HBINS);
            wl_bra(w, m);
        }
        w->pc = pc + 12 * 16;
        wl_bar(w);
    }
    /* merge: thread t sums bin t (t < 1024, stride 96) of the three warps, atomicAdd */
    for (uint32_t wi = 0; wi < HWARPS; wi++) {
        wl_warp *w = &W[wi];
        uint32_t pc = w->pc;
        for (uint64_t p0 = wi * 32; p0 < HBINS; p0 += HWARPS * 32) {
            w->pc = pc;
            uint32_t m = 0;
            WL_LANES(w->live, l) if (p0 + (uint64_t)l < HBINS) m |= 1u << l;
            uint8_t sum = GMS_REG_NONE;
            for (int b = 0; b < HWARPS; b++) {
                WL_LANES(m, l) a[l] = 4 * ((uint64_t)b * HBINS + p0 + (uint64_t)l);
                sum = wl_int(w, m, wl_ld(w, m, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE), sum);
            }
            WL_LANES(m, l) {
                uint64_t bin = p0 + (uint64_t)l;
                a[l] = s->d_hist + 4 * bin;
                s->hist[bin] += cnt[0][bin] + cnt[1][bin] + cnt[2][bin];
            }
            wl_atom(w, m, GMS_MEM_ATOM_GLOBAL, 4, a, GMS_REG_NONE, sum);
            wl_bra(w, m);
        }
        wl_exit(w, w->live);
    }
    (void)err;
    return 0;
}

/* calcPivotPoints, as the suite computes it in float */
static void pivots(hs *s)
{
    float histo[HBINS];
    for (int i = 0; i < HBINS; i++) histo[i] = (float)s->hist[i];
    float width = (s->mx - s->mn) / (float)HBINS;
    float per = (float)s->n / (float)DIV, startsAt = s->mn, endsAt = s->mn + width, need = per;
    int p = 0;
    for (int i = 0; i < HBINS; i++) {
        if (i == HBINS - 1) {
            break;   /* the last bin adds no pivot: the fill below ends the list (at most DIV) */
        }
        while (histo[i] > need) {
            if (p >= DIV) break;   /* the suite exits here; a uniform list never gets here */
            s->pivot[p++] = startsAt + (need / histo[i]) * width;
            startsAt += (need / histo[i]) * width;
            histo[i] -= need;
            need = per;
        }
        need -= histo[i];
        startsAt = endsAt;
        endsAt += width;
    }
    if (p == 0) s->pivot[p++] = s->mx;
    while (p < DIV) { s->pivot[p] = s->pivot[p - 1]; p++; }
}

static uint32_t bucket_of(const hs *s, float e, uint32_t steps_idx[9])
{
    int idx = DIV / 2 - 1, jump = DIV / 4;
    float piv = s->pivot[idx];
    int st = 0;
    while (jump >= 1) {
        idx = e < piv ? idx - jump : idx + jump;
        steps_idx[st++] = (uint32_t)idx;
        piv = s->pivot[idx];
        jump /= 2;
    }
    return (uint32_t)(e < piv ? idx : idx + 1);
}

/* bucketcount: one warp per block */
static int k_bcount(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    hs *s = k->st;
    uint64_t nthr = (uint64_t)k->grid.x * 32, a[32];
    gms_mem_kind kind = s->tex ? GMS_MEM_LD_TEX : GMS_MEM_LD_GLOBAL;
    uint32_t cnt[DIV];
    memset(cnt, 0, sizeof cnt);
    wl_warp w;
    wl_warp_begin(&w, bt, k, block, 0);
    uint8_t ri = wl_int(&w, w.live, GMS_REG_NONE, GMS_REG_NONE);
    uint32_t pc = w.pc;
    for (int i = 0; i < DIV / 32; i++) {
        w.pc = pc;
        WL_LANES(w.live, l) a[l] = 4 * ((uint64_t)i * 32 + (uint64_t)l);
        wl_st(&w, w.live, GMS_MEM_ST_SHARED, 4, a, GMS_REG_NONE, GMS_REG_NONE);
        wl_bra(&w, w.live);
    }
    wl_bar(&w);
    pc = w.pc;
    for (uint64_t t0 = block * 32; t0 < s->n; t0 += nthr) {
        w.pc = pc;
        uint32_t m = 0, key[32], st[32][9];
        int rank[32];
        WL_LANES(w.live, l) if (t0 + (uint64_t)l < s->n) m |= 1u << l;
        WL_LANES(m, l) { a[l] = s->d_a + 4 * (t0 + (uint64_t)l); key[l] = bucket_of(s, s->in[t0 + (uint64_t)l], st[l]); }
        uint8_t e = wl_ldg(&w, m, a, ri);
        WL_SH_LD(&w, m, float, s->in[t0 + (uint64_t)l]);
        WL_LANES(m, l) a[l] = s->d_piv + 4 * (DIV / 2 - 1);
        uint8_t p = wl_ld(&w, m, kind, 4, a, ri);
        if (!s->tex) WL_SH_LD(&w, m, float, s->pivot[DIV / 2 - 1]);
        for (int j = 0; j < 9; j++) {
            wl_pred(&w, m, e, p);
            uint8_t ix = wl_int(&w, m, p, GMS_REG_NONE);
            WL_LANES(m, l) a[l] = s->d_piv + 4 * (uint64_t)st[l][j];
            p = wl_ld(&w, m, kind, 4, a, ix);
            if (!s->tex) WL_SH_LD(&w, m, float, s->pivot[st[l][j]]);
        }
        wl_pred(&w, m, e, p);
        /* addOffset: the lane of rank r in its bucket's group (r lanes above it) gets the
         * counter + r; the group adds its size */
        int rounds = retry_rounds(m, key, rank);
        uint32_t rk[32];
        WL_LANES(m, l) rk[l] = cnt[key[l]] + (uint32_t)rank[l];
        retry_emit(&w, m, key, rounds, rank, 0);
        WL_LANES(m, l) cnt[key[l]]++;   /* each key's counter grows by its group's size */
        WL_LANES(m, l) { s->indice[t0 + (uint64_t)l] = (int32_t)((rk[l] << LOGD) + key[l]); a[l] = s->d_ind + 4 * (t0 + (uint64_t)l); }
        uint8_t v = wl_int3(&w, m, e, p, GMS_REG_NONE);
        wl_stg(&w, m, a, ri, v);
        WL_SH_ST(&w, m, int32_t, s->indice[t0 + (uint64_t)l]);
        wl_bra(&w, m);
    }
    w.pc = pc + 36 * 16;
    wl_bar(&w);
    pc = w.pc;
    for (int i = 0; i < DIV / 32; i++) {
        w.pc = pc;
        WL_LANES(w.live, l) a[l] = 4 * ((uint64_t)i * 32 + (uint64_t)l);
        uint8_t v = wl_ld(&w, w.live, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE);
        WL_LANES(w.live, l) {
            uint64_t b = (uint64_t)i * 32 + (uint64_t)l;
            a[l] = s->d_prefix + 4 * (block * DIV + b);
            s->prefix[block * DIV + b] = cnt[b];
        }
        wl_stg(&w, w.live, a, ri, v);
        WL_SH_ST(&w, w.live, uint32_t, cnt[i * 32 + l]);
        wl_bra(&w, w.live);
    }
    wl_exit(&w, w.live);
    (void)err;
    return 0;
}

static int k_bprefix(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    hs *s = k->st;
    uint64_t a[32];
    for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, k, block, wi);
        uint32_t m = w.live;
        uint64_t t0 = block * k->block.x + wi * 32;
        uint8_t ri = wl_int(&w, m, GMS_REG_NONE, GMS_REG_NONE);
        uint32_t sum[32] = {0};
        uint8_t rs = wl_int(&w, m, GMS_REG_NONE, GMS_REG_NONE);
        uint32_t pc = w.pc;
        for (uint64_t b = 0; b < s->blocks; b++) {
            w.pc = pc;
            uint32_t x[32];
            WL_LANES(m, l) { uint64_t i = b * DIV + t0 + (uint64_t)l; a[l] = s->d_prefix + 4 * i; x[l] = s->prefix[i]; }
            uint8_t v = wl_ldg(&w, m, a, ri);
            WL_SH_LD(&w, m, uint32_t, x[l]);
            WL_LANES(m, l) { s->prefix[b * DIV + t0 + (uint64_t)l] = sum[l]; }
            wl_stg(&w, m, a, ri, rs);
            WL_SH_ST(&w, m, uint32_t, sum[l]);
            WL_LANES(m, l) sum[l] += x[l];
            rs = wl_int(&w, m, rs, v);
            wl_bra(&w, m);
        }
        w.pc = pc + 5 * 16;
        WL_LANES(m, l) { a[l] = s->d_offs + 4 * (t0 + (uint64_t)l); s->offs[t0 + (uint64_t)l] = sum[l]; }
        wl_stg(&w, m, a, ri, rs);
        WL_SH_ST(&w, m, uint32_t, sum[l]);
        wl_exit(&w, m);
    }
    (void)err;
    return 0;
}

static int k_bsort(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    hs *s = k->st;
    uint64_t nthr = (uint64_t)k->grid.x * 32, a[32];
    uint32_t so[DIV];
    wl_warp w;
    wl_warp_begin(&w, bt, k, block, 0);
    uint8_t ri = wl_int(&w, w.live, GMS_REG_NONE, GMS_REG_NONE);
    uint32_t pc = w.pc;
    for (int i = 0; i < DIV / 32; i++) {
        w.pc = pc;
        WL_LANES(w.live, l) a[l] = s->d_loffs + 4 * ((uint64_t)i * 32 + (uint64_t)l);
        uint8_t x = wl_ldg(&w, w.live, a, ri);
        WL_SH_LD(&w, w.live, uint32_t, s->loffs[i * 32 + l]);
        WL_LANES(w.live, l) a[l] = s->d_prefix + 4 * (block * DIV + (uint64_t)i * 32 + (uint64_t)l);
        uint8_t y = wl_ldg(&w, w.live, a, ri);
        WL_SH_LD(&w, w.live, uint32_t, s->prefix[block * DIV + (uint64_t)i * 32 + (uint64_t)l]);
        WL_LANES(w.live, l) {
            uint64_t b = (uint64_t)i * 32 + (uint64_t)l;
            so[b] = s->loffs[b] + s->prefix[block * DIV + b];
            a[l] = 4 * b;
        }
        wl_st(&w, w.live, GMS_MEM_ST_SHARED, 4, a, GMS_REG_NONE, wl_int(&w, w.live, x, y));
        wl_bra(&w, w.live);
    }
    wl_bar(&w);
    pc = w.pc;
    for (uint64_t t0 = block * 32; t0 < s->n; t0 += nthr) {
        w.pc = pc;
        uint32_t m = 0;
        WL_LANES(w.live, l) if (t0 + (uint64_t)l < s->n) m |= 1u << l;
        WL_LANES(m, l) a[l] = s->d_a + 4 * (t0 + (uint64_t)l);
        uint8_t e = wl_ldg(&w, m, a, ri);
        WL_SH_LD(&w, m, float, s->in[t0 + (uint64_t)l]);
        WL_LANES(m, l) a[l] = s->d_ind + 4 * (t0 + (uint64_t)l);
        uint8_t id = wl_ldg(&w, m, a, ri);
        WL_SH_LD(&w, m, int32_t, s->indice[t0 + (uint64_t)l]);
        WL_LANES(m, l) a[l] = 4 * (uint64_t)((uint32_t)s->indice[t0 + (uint64_t)l] & (DIV - 1));
        uint8_t o = wl_ld(&w, m, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE);
        o = wl_int(&w, m, o, id);
        WL_LANES(m, l) {
            uint32_t id2 = (uint32_t)s->indice[t0 + (uint64_t)l];
            uint64_t pos = (uint64_t)so[id2 & (DIV - 1)] + (id2 >> LOGD);
            a[l] = s->d_b + 4 * pos;
            s->bufB[pos] = s->in[t0 + (uint64_t)l];
        }
        wl_stg(&w, m, a, o, e);
        WL_SH_ST(&w, m, float, s->in[t0 + (uint64_t)l]);
        wl_bra(&w, m);
    }
    w.pc = pc + 7 * 16;
    wl_exit(&w, w.live);
    (void)err;
    return 0;
}

/* the host between bucketprefixoffset and bucketsort (bucketSort's loops) */
static void host_offsets(hs *s)
{
    uint32_t h[DIV];
    memcpy(h, s->offs, sizeof h);
    s->orig[0] = 0;
    for (int i = 0; i < DIV; i++) {
        s->orig[i + 1] = h[i] + s->orig[i];
        s->nulls[i] = h[i] % 4 ? (int32_t)((h[i] & ~3u) + 4 - h[i]) : 0;
    }
    for (int i = 0; i < DIV; i++) s->sizes[i] = (int32_t)((h[i] + (uint32_t)s->nulls[i]) / 4);
    for (int i = 0; i < DIV; i++) if (h[i] % 4) h[i] = (h[i] & ~3u) + 4;
    for (int i = 1; i < DIV; i++) h[i] = h[i - 1] + h[i];
    for (int i = DIV - 1; i > 0; i--) h[i] = h[i - 1];
    h[0] = 0;
    memcpy(s->loffs, h, sizeof h);
    /* runMergeSort's start addresses (float4 units) and largest bucket (floats) */
    int32_t largest = -1;
    s->start[0] = 0;
    s->newsize = 0;
    for (int i = 1; i <= DIV; i++) {
        s->start[i] = s->start[i - 1] + s->sizes[i - 1];
        if (s->sizes[i - 1] > largest) largest = s->sizes[i - 1];
    }
    for (int i = 0; i < DIV; i++) s->newsize += (uint64_t)s->sizes[i] * 4;
    s->largest = (uint64_t)largest * 4;
}

static f4 sort_elem(f4 r)
{
    f4 nr;
    nr.x = (r.x > r.y) ? r.y : r.x;
    nr.y = (r.y > r.x) ? r.y : r.x;
    nr.z = (r.z > r.w) ? r.w : r.z;
    nr.w = (r.w > r.z) ? r.w : r.z;
    r.x = (nr.x > nr.z) ? nr.z : nr.x;
    r.y = (nr.y > nr.w) ? nr.w : nr.y;
    r.z = (nr.z > nr.x) ? nr.z : nr.x;
    r.w = (nr.w > nr.y) ? nr.w : nr.y;
    nr.x = r.x;
    nr.y = (r.y > r.z) ? r.z : r.y;
    nr.z = (r.z > r.y) ? r.z : r.y;
    nr.w = r.w;
    return nr;
}
static f4 lowest(f4 a, f4 b)
{
    a.x = (a.x < b.w) ? a.x : b.w;
    a.y = (a.y < b.z) ? a.y : b.z;
    a.z = (a.z < b.y) ? a.z : b.y;
    a.w = (a.w < b.x) ? a.w : b.x;
    return a;
}
static f4 highest(f4 a, f4 b)
{
    b.x = (a.w >= b.x) ? a.w : b.x;
    b.y = (a.z >= b.y) ? a.z : b.y;
    b.z = (a.y >= b.z) ? a.y : b.z;
    b.w = (a.x >= b.w) ? a.x : b.w;
    return b;
}

/* arg 0: source buffer (0 = bufA/d_a, 1 = bufB/d_b) */
static float *buf(hs *s, int64_t i) { return i ? s->bufB : s->bufA; }
static uint64_t dbuf(const hs *s, int64_t i) { return i ? s->d_b : s->d_a; }

static int k_first(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    hs *s = k->st;
    f4 *src = (f4 *)buf(s, k->arg[0]), *dst = (f4 *)buf(s, 1 - k->arg[0]);
    uint64_t ds = dbuf(s, k->arg[0]), dd = dbuf(s, 1 - k->arg[0]);
    for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, k, block, wi);
        uint64_t gid[32];
        uint8_t ri;
        uint32_t m = wl_prologue_1d(&w, s->newsize / 4, gid, &ri);
        if (!m) continue;
        f4 v[32];
        WL_LANES(m, l) v[l] = src[gid[l]];
        uint8_t r = wl_ld_idx(&w, m, s->tex ? GMS_MEM_LD_TEX : GMS_MEM_LD_GLOBAL, 16, ds, gid, 16, ri);
        if (!s->tex) sh16(&w, 0, m, v);
        for (int q = 0; q < 12; q++) r = wl_fp(&w, m, r, r, GMS_REG_NONE);
        WL_LANES(m, l) { v[l] = sort_elem(v[l]); dst[gid[l]] = v[l]; }
        wl_st_idx(&w, m, GMS_MEM_ST_GLOBAL, 16, dd, gid, 16, ri, r);
        sh16(&w, 1, m, v);
        wl_exit(&w, m);
    }
    (void)err;
    return 0;
}

/* mergeSortPass: arg 0 source buffer, 1 nrElems, 2 threadsPerDiv. One warp resumably. */
typedef struct mp_warp {
    wl_wgen ws;
    uint32_t run;                    /* lanes still merging */
    uint32_t tail;                   /* lanes copying a lone A run */
    uint8_t ri;
    int64_t astart[32], bstart[32], aidx[32], bidx[32], outidx[32], end[32], ci[32];
    f4 a[32], b[32];
} mp_warp;

static int k_pass(const wl_kernel *k, wl_wgen *ws, gms_error *err)
{
    mp_warp *g = (mp_warp *)ws;
    wl_warp *w = &ws->w;
    hs *s = k->st;
    const f4 *src = (const f4 *)buf(s, k->arg[0]);
    f4 *dst = (f4 *)buf(s, 1 - k->arg[0]);
    uint64_t ds = dbuf(s, k->arg[0]), dd = dbuf(s, 1 - k->arg[0]);
    int64_t nr = k->arg[1], tpd = k->arg[2];
    gms_mem_kind kind = s->tex ? GMS_MEM_LD_TEX : GMS_MEM_LD_GLOBAL;
    uint64_t a[32];
    f4 v[32];
    WL_GEN_BEGIN(&ws->g)
    g->run = g->tail = 0;
    WL_LANES(w->live, l) {
        int64_t tid = (int64_t)w->bx * (int64_t)w->bdim.x + (int64_t)w->tx[l];
        int64_t div = tid / tpd;
        if (div >= DIV) continue;
        int64_t it = tid - div * tpd;
        g->astart[l] = s->start[div] + it * nr;
        g->bstart[l] = g->astart[l] + nr / 2;
        g->end[l] = s->start[div + 1];
        if (g->astart[l] >= g->end[l]) continue;
        if (g->bstart[l] >= g->end[l]) { g->tail |= 1u << l; g->ci[l] = 0; continue; }
        g->run |= 1u << l;
        g->aidx[l] = g->bidx[l] = g->outidx[l] = 0;
    }
    g->ri = wl_int(w, w->live, GMS_REG_NONE, GMS_REG_NONE);
    wl_int(w, w->live, GMS_REG_NONE, GMS_REG_NONE);
    wl_int(w, w->live, g->ri, GMS_REG_NONE);
    wl_pred(w, w->live, g->ri, GMS_REG_NONE);
    wl_bra(w, w->live);
    /* a lone A run: copied float4 by float4 */
    while (g->tail) {
        w->pc = 0x50;
        WL_LANES(g->tail, l) { a[l] = ds + 16 * (uint64_t)(g->astart[l] + g->ci[l]); v[l] = src[g->astart[l] + g->ci[l]]; }
        {
            uint8_t r = wl_ld(w, g->tail, kind, 16, a, g->ri);
            if (!s->tex) sh16(w, 0, g->tail, v);
            WL_LANES(g->tail, l) { a[l] = dd + 16 * (uint64_t)(g->astart[l] + g->ci[l]); dst[g->astart[l] + g->ci[l]] = v[l]; }
            wl_st(w, g->tail, GMS_MEM_ST_GLOBAL, 16, a, g->ri, r);
            sh16(w, 1, g->tail, v);
        }
        wl_bra(w, g->tail);
        WL_LANES(g->tail, l) if (++g->ci[l] >= g->end[l] - g->astart[l]) g->tail &= ~(1u << l);
        WL_GEN_YIELD(&ws->g);
    }
    if (g->run) {
        w->pc = 0x80;
        WL_LANES(g->run, l) { a[l] = ds + 16 * (uint64_t)g->astart[l]; g->a[l] = src[g->astart[l]]; }
        wl_ld(w, g->run, kind, 16, a, g->ri);
        if (!s->tex) sh16(w, 0, g->run, g->a);
        WL_LANES(g->run, l) { a[l] = ds + 16 * (uint64_t)g->bstart[l]; g->b[l] = src[g->bstart[l]]; }
        wl_ld(w, g->run, kind, 16, a, g->ri);
        if (!s->tex) sh16(w, 0, g->run, g->b);
    }
    while (g->run) {
        w->pc = 0xa0;
        {
            uint32_t m = g->run;
            f4 na[32], nb[32];
            /* nextA / nextB (past a run's end they read the next elements, as the suite does) */
            WL_LANES(m, l) { a[l] = ds + 16 * (uint64_t)(g->astart[l] + g->aidx[l] + 1); na[l] = src[g->astart[l] + g->aidx[l] + 1]; }
            uint8_t ra = wl_ld(w, m, kind, 16, a, g->ri);
            if (!s->tex) sh16(w, 0, m, na);
            WL_LANES(m, l) { a[l] = ds + 16 * (uint64_t)(g->bstart[l] + g->bidx[l] + 1); nb[l] = src[g->bstart[l] + g->bidx[l] + 1]; }
            uint8_t rb = wl_ld(w, m, kind, 16, a, g->ri);
            if (!s->tex) sh16(w, 0, m, nb);
            uint8_t r = ra;
            for (int q = 0; q < 20; q++) r = wl_fp(w, m, r, rb, GMS_REG_NONE);
            WL_LANES(m, l) {
                f4 lo = lowest(g->a[l], g->b[l]), hi = highest(g->a[l], g->b[l]);
                g->a[l] = sort_elem(lo);
                g->b[l] = sort_elem(hi);
                v[l] = g->a[l];
                a[l] = dd + 16 * (uint64_t)(g->astart[l] + g->outidx[l]);
                dst[g->astart[l] + g->outidx[l]] = g->a[l];
                g->outidx[l]++;
            }
            wl_st(w, m, GMS_MEM_ST_GLOBAL, 16, a, g->ri, r);
            sh16(w, 1, m, v);
            wl_pred(w, m, r, GMS_REG_NONE);
            wl_pred(w, m, r, GMS_REG_NONE);
            wl_bra(w, m);
            uint32_t fin = 0;
            WL_LANES(m, l) {
                int la = g->aidx[l] + 1 < nr / 2;
                int lb = g->bidx[l] + 1 < nr / 2 && g->bstart[l] + g->bidx[l] + 1 < g->end[l];
                if (la && lb) {
                    if (na[l].x < nb[l].x) { g->aidx[l]++; g->a[l] = na[l]; }
                    else { g->bidx[l]++; g->a[l] = nb[l]; }
                } else if (la) { g->aidx[l]++; g->a[l] = na[l]; }
                else if (lb) { g->bidx[l]++; g->a[l] = nb[l]; }
                else fin |= 1u << l;
            }
            if (fin) {   /* resStart[outidx++] = b */
                w->pc = 0x1f0;
                WL_LANES(fin, l) {
                    v[l] = g->b[l];
                    a[l] = dd + 16 * (uint64_t)(g->astart[l] + g->outidx[l]);
                    dst[g->astart[l] + g->outidx[l]] = g->b[l];
                }
                wl_st(w, fin, GMS_MEM_ST_GLOBAL, 16, a, g->ri, r);
                sh16(w, 1, fin, v);
                g->run &= ~fin;
            }
        }
        WL_GEN_YIELD(&ws->g);
    }
    w->pc = 0x200;
    wl_exit(w, w->live);
    (void)err;
    WL_GEN_END(&ws->g);
}

/* mergepack: arg 0 = source buffer (the last pass's result) */
static int k_pack(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    hs *s = k->st;
    const float *src = buf(s, k->arg[0]);
    float *dst = buf(s, 1 - k->arg[0]);
    uint64_t ds = dbuf(s, k->arg[0]), dd = dbuf(s, 1 - k->arg[0]), a[32];
    uint64_t div = block / k->grid.x, bx = block % k->grid.x;
    for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, k, block, wi);
        uint32_t m = 0;
        uint64_t idx[32];
        WL_LANES(w.live, l) {
            idx[l] = bx * k->block.x + w.tx[l];
            if (s->orig[div] + idx[l] < s->orig[div + 1]) m |= 1u << l;
        }
        uint8_t ri = wl_int(&w, w.live, GMS_REG_NONE, GMS_REG_NONE);
        ri = wl_int(&w, w.live, ri, GMS_REG_NONE);
        wl_pred(&w, w.live, ri, GMS_REG_NONE);
        wl_exit(&w, w.live & ~m);
        if (!m) continue;
        WL_LANES(m, l) a[l] = ds + 4 * ((uint64_t)s->start[div] * 4 + (uint64_t)s->nulls[div] + idx[l]);
        uint8_t v = wl_ldg(&w, m, a, ri);
        WL_SH_LD(&w, m, float, src[(uint64_t)s->start[div] * 4 + (uint64_t)s->nulls[div] + idx[l]]);
        WL_LANES(m, l) {
            a[l] = dd + 4 * (s->orig[div] + idx[l]);
            dst[s->orig[div] + idx[l]] = src[(uint64_t)s->start[div] * 4 + (uint64_t)s->nulls[div] + idx[l]];
        }
        wl_stg(&w, m, a, ri, v);
        WL_SH_ST(&w, m, float, dst[s->orig[div] + idx[l]]);
        wl_exit(&w, m);
    }
    (void)err;
    return 0;
}

/* host writes standing for a cudaMemset (no device traffic) */
static void zero(gms_program *p, void *h, uint64_t d, uint64_t bytes)
{
    memset(h, 0, bytes);
    wl_sh_init(p, d, h, bytes);
}

/* next(): three phases per sort, each after the host has read what the previous one left:
 * histogram -> pivots; bucket kernels -> offsets; merges */
static int next(void *st, gms_program *p, gms_error *err)
{
    hs *s = st;
    s->sh = p->shadow;
    uint64_t lb = 4 * (s->n + 4 * DIV);
    if (s->rep == s->repeat) return 0;
    if (s->phase == 0) {
        if (s->rep == 0) {
            s->d_a = gms_prog_alloc(p, lb, "d_input");
            s->d_b = gms_prog_alloc(p, lb, "d_output");
            s->d_offs = gms_prog_alloc(p, 4 * HBINS, "d_offsets");
            s->d_ind = gms_prog_alloc(p, 4 * s->n, "d_indice");
            s->d_piv = gms_prog_alloc(p, 4 * DIV, "l_pivotpoints");
            s->d_loffs = gms_prog_alloc(p, 4 * DIV, "l_offsets");
            s->d_prefix = gms_prog_alloc(p, 4 * s->blocks * DIV, "d_prefixoffsets");
            s->d_hist = gms_prog_alloc(p, 4 * HBINS, "d_Result1024");
        }
        memcpy(s->bufA, s->in, 4 * s->n);
        gms_prog_copy_h2d(p, s->d_a, 4 * s->n);
        wl_sh_init(p, s->d_a, s->bufA, 4 * s->n);
        zero(p, s->hist, s->d_hist, 4 * HBINS);
        wl_launch(p, "_Z19histogram1024KernelPjPfffi", wl_dim3(HBLOCKS, 1, 1), wl_dim3(HWARPS * 32, 1, 1), 16,
                  4 * HWARPS * HBINS, k_hist, s, NULL, 0);
        gms_prog_copy_d2h(p, s->d_hist, 4 * HBINS);
        s->phase = 1;
        return 1;
    }
    if (s->phase == 1) {
        pivots(s);
        gms_prog_copy_h2d(p, s->d_piv, 4 * DIV);
        wl_sh_init(p, s->d_piv, s->pivot, 4 * DIV);
        zero(p, s->offs, s->d_offs, 4 * DIV);
        wl_launch(p, "_Z11bucketcountPfPiPji", wl_dim3((uint32_t)s->blocks, 1, 1), wl_dim3(32, 1, 1), 24, 4 * DIV,
                  k_bcount, s, NULL, 0);
        wl_launch(p, "_Z18bucketprefixoffsetPjS_i", wl_dim3(DIV / 128, 1, 1), wl_dim3(128, 1, 1), 16, 0, k_bprefix,
                  s, NULL, 0);
        gms_prog_copy_d2h(p, s->d_offs, 4 * DIV);
        s->phase = 2;
        return 1;
    }
    host_offsets(s);
    gms_prog_copy_h2d(p, s->d_loffs, 4 * DIV);
    wl_sh_init(p, s->d_loffs, s->loffs, 4 * DIV);
    zero(p, s->bufB, s->d_b, lb);
    wl_launch(p, "_Z10bucketsortPfPiS_iPjS0_", wl_dim3((uint32_t)s->blocks, 1, 1), wl_dim3(32, 1, 1), 24, 4 * DIV,
              k_bsort, s, NULL, 0);
    /* runMergeSort: origList = d_output (1), resultList = d_input (0) */
    int64_t src = 1;
    uint64_t q = s->newsize / 4;
    wl_launch(p, "_Z14mergeSortFirstP6float4i", wl_dim3(q % 256 ? (uint32_t)(q / 256 + 1) : (uint32_t)(q / 256), 1, 1),
              wl_dim3(256, 1, 1), 16, 0, k_first, s, &src, 1);
    src = 0;   /* the result list of mergeSortFirst */
    for (int64_t nr = 2;; nr *= 2) {
        int64_t fpt = nr * 4;
        int64_t tpd = (int64_t)ceil((double)s->largest / (double)fpt);
        int64_t need = tpd * DIV;
        int64_t thr = 208, grid = need % thr ? need / thr + 1 : need / thr;
        if (grid < 8) { grid = 8; thr = need % grid ? need / grid + 1 : need / grid; }
        /* the swap: the pass reads the previous result (src) and writes the other buffer */
        int64_t args[3] = {src, nr, tpd};
        wl_launch_gen(p, "_Z13mergeSortPassP6float4ii", wl_dim3((uint32_t)grid, 1, 1), wl_dim3((uint32_t)thr, 1, 1),
                      32, 0, k_pass, sizeof(mp_warp), s, args, 3);
        src = 1 - src;
        if (tpd == 1) break;
    }
    uint32_t gx = (uint32_t)(s->largest % 256 ? s->largest / 256 + 1 : s->largest / 256);
    wl_launch(p, "_Z9mergepackPfS_", wl_dim3(gx ? gx : 1, DIV, 1), wl_dim3(256, 1, 1), 12, 0, k_pack, s, &src, 1);
    s->d_res = dbuf(s, 1 - src);
    gms_prog_sync(p);
    gms_prog_copy_d2h(p, s->d_res, 4 * s->n);
    s->phase = 0;
    s->rep++;
    (void)err;
    return 1;
}

/* The reference order: ascending floats, by an LSD radix sort on the keys' IEEE bits mapped to
 * unsigned order (negative: all bits flipped; else the sign bit set), four 8-bit passes. Same
 * result as qsort with a < comparator for inputs without NaN and signed zeros (the inputs are
 * rand() / RAND_MAX), at a fraction of its cost (qsort was a quarter of the functional run). */
static uint32_t fkey(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u & 0x80000000u ? ~u : u | 0x80000000u;
}

static void sort_f32(float *v, uint64_t n)
{
    float *tmp = wl_malloc(n, 4), *src = v, *dst = tmp;
    for (unsigned sh = 0; sh < 32; sh += 8) {
        uint64_t cnt[257] = { 0 };
        for (uint64_t i = 0; i < n; i++) cnt[(fkey(src[i]) >> sh & 0xFFu) + 1]++;
        for (unsigned b = 0; b < 256; b++) cnt[b + 1] += cnt[b];
        for (uint64_t i = 0; i < n; i++) dst[cnt[fkey(src[i]) >> sh & 0xFFu]++] = src[i];
        float *t = src; src = dst; dst = t;
    }
    /* four passes: the result is back in v */
    free(tmp);
}

static int verify(void *st, gms_error *err)
{
    hs *s = st;
    float *want = wl_malloc(s->n, 4);
    memcpy(want, s->in, 4 * s->n);
    sort_f32(want, s->n);
    void *own;
    const float *host = s->d_res == s->d_a ? s->bufA : s->bufB;
    const float *got = wl_result(s->sh, s->d_res, host, s->n, 4, &own);
    int rc = wl_check_f32("hybridsort", "sorted list", got, want, s->n, 0, 0, err);
    free(own);
    free(want);
    return rc;
}

static void destroy(void *st)
{
    hs *s = st;
    if (!s) return;
    free(s->in); free(s->out0); free(s->bufA); free(s->bufB); free(s->hist); free(s->offs); free(s->prefix);
    free(s->indice); free(s);
}

const gms_workload_ops gms_wl_hybridsort = {
    .name = "hybridsort", .suite = "rodinia", .domain = "sorting", .ri = "-",
    .summary = "Hybrid sort: histogram, bucket count/prefix/scatter, float4 merge sort passes, pack (HYB)",
    .params = params, .create = create, .next = next, .verify = verify, .destroy = destroy,
    .footprint = footprint,
};
