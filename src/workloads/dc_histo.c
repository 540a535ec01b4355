/* HISTO-DC: the data-cache version of the CUDA SDK's histogram used by spec 001's Ch. 2 (HST,
 * from Li et al. [35]): a 64-bin histogram of `bytes` random bytes, the SDK's histogram64
 * structure with its per-thread sub-histograms moved from shared to global memory:
 *   histogram64Kernel       ceil(words / (64 * 63)) blocks of 64 threads; each thread zeroes
 *                           its 64 counters, then reads 4-byte words (grid-stride) and for
 *                           each of the word's 4 bytes adds 1 to counter (byte >> 2) of its own
 *                           sub-histogram: a load and a store of the global counter, bin-major
 *                           within the block ([block][bin][thread], the SDK's shared layout),
 *                           so every warp's 32 lanes touch 32 rows of 256 bytes; then each
 *                           thread sums one bin over the block's 64 threads
 *   mergeHistogram64Kernel  64 blocks (one per bin) of 256 threads: sum of the bin over the
 *                           partial histograms, a shared-memory tree, thread 0 stores
 * The counters are 32-bit (the SDK's shared ones are bytes, flushed before they overflow).
 * Li et al. do not publish their version; this is the SDK kernel with the shared array in
 * global memory and nothing else changed. Input: uniform random bytes from the seed. */
#include "workloads/wl_util.h"
#include "workloads/wl_clamp.h"
#include <stdlib.h>
#include <string.h>

#define BINS 64
#define TPB 64
#define WPT 63          /* words per thread per block of the grid size */
#define MTPB 256

typedef struct hd {
    uint64_t nwords, blocks, repeat;
    uint32_t *data, *th, *partial, *hist;
    uint64_t d_data, d_th, d_partial, d_hist;
    wl_shadow *sh;
    int done;
} hd;

static const gms_wl_param params[] = {
    {"bytes", "67108864", "bytes to histogram (the SDK's 64 MB)"},
    {"scale", "1", "multiplies bytes"},
    {"repeat", "1", "run both kernels N times"},
    {NULL, NULL, NULL},
};

static int sizes(const gms_wl_args *a, uint64_t *nw, gms_error *err)
{
    uint64_t b;
    if (wl_clamp_size(a, "histo-dc", "bytes", 4, 1ULL << 34, &b, err)) return -1;
    if (b < 4) return gms_err(err, "workload histo-dc: bytes=%llu must be at least 4 (one word)", (unsigned long long)b);
    *nw = b / 4;   /* whole 4-byte words, as the SDK reads them */
    return 0;
}

static uint64_t nblocks(uint64_t nw) { return (nw + TPB * WPT - 1) / (TPB * WPT); }

static uint64_t footprint(const gms_wl_args *a)
{
    gms_error e;
    uint64_t nw = 0;   /* set by sizes(); initialised for the LTO build's flow analysis */
    if (sizes(a, &nw, &e)) return 0;
    uint64_t nb = nblocks(nw);
    return 4 * (nw + nb * BINS * TPB + nb * BINS + BINS);
}

static int create(const gms_wl_args *a, void **out, gms_error *err)
{
    uint64_t nw = 0;
    if (sizes(a, &nw, err) || gms_wl_check_range(a, "repeat", 1, 1000000, err)) return -1;
    hd *s = gms_xcalloc(1, sizeof *s);
    s->nwords = nw;
    s->blocks = nblocks(nw);
    s->repeat = gms_wl_u64(a, "repeat");
    s->data = wl_malloc(nw, 4);
    s->th = wl_calloc(s->blocks * BINS * TPB, 4);
    s->partial = wl_calloc(s->blocks * BINS, 4);
    s->hist = wl_calloc(BINS, 4);
    gms_rng g;
    gms_rng_seed(&g, gms_wl_seed(a));
    for (uint64_t i = 0; i < nw; i++) s->data[i] = (uint32_t)(gms_rng_next(&g) >> 32);
    *out = s;
    return 0;
}

/* histogram64Kernel: one block = 2 warps; they never share a counter, so each warp runs
 * through */
static int k_hist(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    hd *s = k->st;
    uint32_t *th = s->th + block * BINS * TPB;
    uint64_t dth = s->d_th + 4 * block * BINS * TPB, a[32], nthr = s->blocks * TPB;
    wl_warp W[TPB / 32];
    uint8_t ri[TPB / 32];
    for (uint32_t wi = 0; wi < TPB / 32; wi++) {
        wl_warp *w = &W[wi];
        wl_warp_begin(w, bt, k, block, wi);
        uint32_t m = w->live;
        ri[wi] = wl_int(w, m, GMS_REG_NONE, GMS_REG_NONE);
        uint32_t pc = w->pc;
        for (uint64_t b = 0; b < BINS; b++) {
            w->pc = pc;
            WL_LANES(m, l) { uint64_t i = b * TPB + wi * 32 + (uint64_t)l; a[l] = dth + 4 * i; th[i] = 0; }
            wl_stg(w, m, a, ri[wi], GMS_REG_NONE);
            WL_SH_ST(w, m, uint32_t, 0);
            wl_bra(w, m);
        }
        pc = w->pc;
        for (uint64_t p0 = block * TPB + wi * 32; p0 < s->nwords; p0 += nthr) {
            w->pc = pc;
            uint32_t mm = 0;
            WL_LANES(m, l) if (p0 + (uint64_t)l < s->nwords) mm |= 1u << l;
            WL_LANES(mm, l) a[l] = s->d_data + 4 * (p0 + (uint64_t)l);
            uint8_t d = wl_ldg(w, mm, a, ri[wi]);
            WL_SH_LD(w, mm, uint32_t, s->data[p0 + (uint64_t)l]);
            for (int byte = 0; byte < 4; byte++) {
                uint32_t old[32];
                uint8_t bin = wl_int(w, mm, d, GMS_REG_NONE);
                bin = wl_int(w, mm, bin, ri[wi]);
                WL_LANES(mm, l) {
                    uint32_t b = (s->data[p0 + (uint64_t)l] >> (8 * byte) & 0xFFu) >> 2;
                    uint64_t i = (uint64_t)b * TPB + wi * 32 + (uint64_t)l;
                    a[l] = dth + 4 * i;
                    old[l] = th[i];
                    th[i]++;
                }
                uint8_t c = wl_ldg(w, mm, a, bin);
                WL_SH_LD(w, mm, uint32_t, old[l]);
                wl_stg(w, mm, a, bin, wl_int(w, mm, c, GMS_REG_NONE));
                WL_SH_ST(w, mm, uint32_t, old[l] + 1);
            }
            wl_bra(w, m);
        }
        w->pc = pc + 23 * 16;
        wl_bar(w);
    }
    /* thread t < 64 sums bin t over the block's threads */
    for (uint32_t wi = 0; wi < TPB / 32; wi++) {
        wl_warp *w = &W[wi];
        uint32_t m = w->live;
        uint8_t sum = wl_int(w, m, GMS_REG_NONE, GMS_REG_NONE);
        uint32_t acc[32] = {0};
        uint32_t pc = w->pc;
        for (uint64_t i = 0; i < TPB; i++) {
            w->pc = pc;
            /* the SDK staggers the start, (i + tid) & 63, against bank conflicts */
            WL_LANES(m, l) {
                uint64_t bin = wi * 32 + (uint64_t)l, t = (i + bin) & (TPB - 1);
                a[l] = dth + 4 * (bin * TPB + t);
                acc[l] += th[bin * TPB + t];
            }
            uint8_t v = wl_ldg(w, m, a, ri[wi]);
            WL_SH_LD(w, m, uint32_t, th[(wi * 32 + (uint64_t)l) * TPB + ((i + wi * 32 + (uint64_t)l) & (TPB - 1))]);
            sum = wl_int(w, m, v, sum);
            wl_bra(w, m);
        }
        w->pc = pc + 3 * 16;
        WL_LANES(m, l) {
            uint64_t bin = wi * 32 + (uint64_t)l;
            a[l] = s->d_partial + 4 * (block * BINS + bin);
            s->partial[block * BINS + bin] = acc[l];
        }
        wl_stg(w, m, a, ri[wi], sum);
        WL_SH_ST(w, m, uint32_t, acc[l]);
        wl_exit(w, m);
    }
    (void)err;
    return 0;
}

/* mergeHistogram64Kernel: block = bin; thread t sums partials t, t + 256, ...; shared tree */
static int k_merge(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    hd *s = k->st;
    uint64_t bin = block, a[32];
    uint32_t sums[MTPB];
    wl_warp W[MTPB / 32];
    for (uint32_t wi = 0; wi < MTPB / 32; wi++) {
        wl_warp *w = &W[wi];
        wl_warp_begin(w, bt, k, block, wi);
        uint32_t m = w->live;
        uint8_t ri = wl_int(w, m, GMS_REG_NONE, GMS_REG_NONE);
        uint8_t sum = wl_int(w, m, GMS_REG_NONE, GMS_REG_NONE);
        WL_LANES(m, l) sums[wi * 32 + (uint32_t)l] = 0;
        uint32_t pc = w->pc;
        for (uint64_t i0 = wi * 32; i0 < s->blocks; i0 += MTPB) {
            w->pc = pc;
            uint32_t mm = 0;
            WL_LANES(m, l) if (i0 + (uint64_t)l < s->blocks) mm |= 1u << l;
            WL_LANES(mm, l) { a[l] = s->d_partial + 4 * ((i0 + (uint64_t)l) * BINS + bin); sums[wi * 32 + (uint32_t)l] += s->partial[(i0 + (uint64_t)l) * BINS + bin]; }
            uint8_t v = wl_ldg(w, mm, a, ri);
            WL_SH_LD(w, mm, uint32_t, s->partial[(i0 + (uint64_t)l) * BINS + bin]);
            sum = wl_int(w, mm, v, sum);
            wl_bra(w, m);
        }
        w->pc = pc + 3 * 16;
        WL_LANES(m, l) a[l] = 4 * (wi * 32 + (uint64_t)l);
        wl_st(w, m, GMS_MEM_ST_SHARED, 4, a, GMS_REG_NONE, sum);
    }
    for (uint32_t stride = MTPB / 2; stride > 0; stride >>= 1) {
        for (uint32_t wi = 0; wi < MTPB / 32; wi++) {
            wl_warp *w = &W[wi];
            w->pc = 0x80;
            wl_bar(w);
            uint32_t m = 0;
            WL_LANES(w->live, l) if (wi * 32 + (uint32_t)l < stride) m |= 1u << l;
            WL_LANES(m, l) a[l] = 4 * (uint64_t)(stride + wi * 32 + (uint32_t)l);
            uint8_t x = wl_ld(w, m, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE);
            WL_LANES(m, l) a[l] = 4 * (uint64_t)(wi * 32 + (uint32_t)l);
            uint8_t y = wl_ld(w, m, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE);
            wl_st(w, m, GMS_MEM_ST_SHARED, 4, a, GMS_REG_NONE, wl_int(w, m, x, y));
            wl_bra(w, w->live);
        }
        for (uint32_t t = 0; t < stride; t++) sums[t] += sums[t + stride];
    }
    for (uint32_t wi = 0; wi < MTPB / 32; wi++) {
        wl_warp *w = &W[wi];
        w->pc = 0xe0;
        if (wi == 0) {
            a[0] = 0;
            uint8_t v = wl_ld(w, 1u, GMS_MEM_LD_SHARED, 4, a, GMS_REG_NONE);
            a[0] = s->d_hist + 4 * bin;
            s->hist[bin] = sums[0];
            wl_stg(w, 1u, a, GMS_REG_NONE, v);
            WL_SH_ST(w, 1u, uint32_t, sums[0]);
        }
        w->pc = 0x100;
        wl_exit(w, w->live);
    }
    (void)err;
    return 0;
}

static int next(void *st, gms_program *p, gms_error *err)
{
    hd *s = st;
    if (!wl_once(&s->done)) return 0;
    s->sh = p->shadow;
    s->d_data = gms_prog_alloc(p, 4 * s->nwords, "d_Data");
    s->d_th = gms_prog_alloc(p, 4 * s->blocks * BINS * TPB, "d_ThreadHistograms");
    s->d_partial = gms_prog_alloc(p, 4 * s->blocks * BINS, "d_PartialHistograms");
    s->d_hist = gms_prog_alloc(p, 4 * BINS, "d_Histogram");
    gms_prog_copy_h2d(p, s->d_data, 4 * s->nwords);
    wl_sh_init(p, s->d_data, s->data, 4 * s->nwords);
    for (uint64_t r = 0; r < s->repeat; r++) {
        wl_launch(p, "_Z17histogram64KernelPjP5uint4j", wl_dim3((uint32_t)s->blocks, 1, 1), wl_dim3(TPB, 1, 1), 24, 0,
                  k_hist, s, NULL, 0);
        wl_launch(p, "_Z22mergeHistogram64KernelPjS_j", wl_dim3(BINS, 1, 1), wl_dim3(MTPB, 1, 1), 16, 4 * MTPB, k_merge,
                  s, NULL, 0);
    }
    gms_prog_sync(p);
    gms_prog_copy_d2h(p, s->d_hist, 4 * BINS);
    (void)err;
    return 1;
}

static int verify(void *st, gms_error *err)
{
    hd *s = st;
    uint32_t want[BINS] = {0};
    for (uint64_t i = 0; i < s->nwords; i++)
        for (int b = 0; b < 4; b++) want[(s->data[i] >> (8 * b) & 0xFFu) >> 2]++;
    void *own;
    const uint32_t *got = wl_result(s->sh, s->d_hist, s->hist, BINS, 4, &own);
    int rc = wl_check_u32("histo-dc", "histogram", got, want, BINS, err);
    free(own);
    return rc;
}

static void destroy(void *st)
{
    hd *s = st;
    if (!s) return;
    free(s->data); free(s->th); free(s->partial); free(s->hist); free(s);
}

const gms_workload_ops gms_wl_histo_dc = {
    .name = "histo-dc", .suite = "sdk-dc", .domain = "image processing", .ri = "-",
    .summary = "histogram64 with per-thread sub-histograms in global memory (the data-cache version, HST)",
    .params = params, .create = create, .next = next, .verify = verify, .destroy = destroy,
    .footprint = footprint,
};
