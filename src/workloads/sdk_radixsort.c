/* radixsort (SDK radixSortThrust, seed RST): thrust::sort_by_key of n uint keys with uint
 * values (the sample's default: keys uniform in [0, UINT_MAX], values 0..n-1, every
 * iteration copying the unsorted data in again and sorting it; 100 iterations for n < 16M).
 * Thrust hands this to CUB's multi-pass DeviceRadixSort; the kernels here have its structure,
 * with our own tiling (CUB's tuning policies, its digit width and its block-wide ranking
 * code are not reproduced): per 4-bit digit, least significant first (8 passes, ping-pong
 * between two key and two value buffers):
 *   upsweep<<<tiles, 128>>>: each thread loads 16 keys of a 2048-key tile (coalesced rows),
 *     counts their digits with shared-memory atomics; 16 threads store the tile's counts,
 *     digit-major (counts[digit*tiles + tile])
 *   scan<<<1, 1024>>>: exclusive scan of the 16*tiles counts, 1024 at a time (Hillis-Steele
 *     in shared memory, a carry between chunks)
 *   downsweep<<<tiles, 128>>>: each thread loads its 16 keys and values again, ranks them
 *     stably within the tile (shared-memory digit counters), and scatters key and value to
 *     offset[digit][tile] + rank: writes spread over 16 runs per tile
 * Stable, so verify() compares keys and values exactly with the CPU's sort by (key, index). */
#include "workloads/sdk_util.h"
#include <stdlib.h>

#define RBITS 4u
#define RBINS 16u
#define RPASSES (32u / RBITS)
#define RT 128u          /* threads per tile block */
#define RITEMS 16u       /* keys per thread */
#define RTILE (RT * RITEMS)
#define RSCAN 1024u

typedef struct rst_st {
    uint64_t n, tiles, iters, repeat;
    uint32_t *key0, *val0;
    uint32_t *k[2], *v[2], *cnt;
    uint64_t dk[2], dv[2], dcnt;
    wl_shadow *sh;
    int done;
} rst_st;

static const gms_wl_param rst_params[] = {
    { "n", "1048576", "key/value pairs (numElements)" },
    { "iterations", "100", "sorts, each of the unsorted data copied in again (numIterations)" },
    { "scale", "1", "multiplies n" },
    { "repeat", "1", "run the whole sequence this many times" },
    { NULL, NULL, NULL },
};

static int rst_sizes(const gms_wl_args *a, uint64_t *n, gms_error *err)
{
    return wl_clamp_size(a, "radixsort", "n", 1, 1ULL << 31, n, err);
}

static int rst_create(const gms_wl_args *a, void **state, gms_error *err)
{
    uint64_t n, rep;
    if (rst_sizes(a, &n, err) || sdk_repeat(a, &rep, err)) return -1;
    if (gms_wl_check_range(a, "iterations", 1, 100000, err)) return -1;
    rst_st *s = gms_xcalloc(1, sizeof *s);
    s->n = n;
    s->tiles = (n + RTILE - 1) / RTILE;
    s->iters = gms_wl_u64(a, "iterations");
    s->repeat = rep;
    s->key0 = wl_malloc(n, 4);
    s->val0 = wl_malloc(n, 4);
    for (int i = 0; i < 2; i++) {
        s->k[i] = wl_malloc(n, 4);
        s->v[i] = wl_malloc(n, 4);
    }
    s->cnt = wl_calloc(RBINS * s->tiles, 4);
    gms_rng r;
    gms_rng_seed(&r, gms_wl_seed(a));
    for (uint64_t i = 0; i < n; i++) {
        s->key0[i] = (uint32_t)(gms_rng_next(&r) >> 32);
        s->val0[i] = (uint32_t)i;
    }
    memcpy(s->k[0], s->key0, n * 4);
    memcpy(s->v[0], s->val0, n * 4);
    *state = s;
    return 0;
}

static uint32_t digit(uint32_t key, unsigned pass) { return key >> (pass * RBITS) & (RBINS - 1); }

/* args: 0 kernel (0 upsweep, 1 scan, 2 downsweep), 1 pass, 2 reset (first kernel of an
 * iteration after the first: the keys and values are copied in again; here, when block 0 is
 * generated, the host arrays and the shadow) */
static int rst_fill(const wl_kernel *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    rst_st *s = k->st;
    int kind = (int)k->arg[0];
    unsigned pass = (unsigned)k->arg[1];
    int in = pass & 1;
    if (k->arg[2] && block == 0) {
        memcpy(s->k[0], s->key0, s->n * 4);
        memcpy(s->v[0], s->val0, s->n * 4);
        if (wl_shadow_active(k->sh)) {
            wl_shadow_write(k->sh, s->dk[0], s->key0, s->n * 4);
            wl_shadow_write(k->sh, s->dv[0], s->val0, s->n * 4);
        }
    }
    const uint32_t *key = s->k[in], *val = s->v[in];
    uint64_t t0 = block * RTILE;
    if (kind == 1) {   /* the scan of the digit counts, one block */
        uint64_t nc = RBINS * s->tiles;
        uint32_t *off = wl_malloc(nc, 4), acc = 0;
        for (uint64_t i = 0; i < nc; i++) {
            off[i] = acc;
            acc += s->cnt[i];
        }
        for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
            wl_warp w;
            wl_warp_begin(&w, bt, k, block, wi);
            uint32_t m = w.live;
            uint8_t ri = sdk_prologue(&w, m), carry = wl_int(&w, m, GMS_REG_NONE, GMS_REG_NONE);
            for (uint64_t c = 0; c < nc; c += RSCAN) {
                uint64_t A[32], S[32], T[32];
                uint32_t mk = 0;
                WL_LANES(m, l) {
                    if (c + w.tx[l] < nc) mk |= 1u << l;
                    S[l] = w.tx[l] * 4;
                }
                wl_pred(&w, m, ri, GMS_REG_NONE);
                uint8_t v = wl_int(&w, m, GMS_REG_NONE, GMS_REG_NONE);
                if (mk) {
                    WL_LANES(mk, l) A[l] = s->dcnt + (c + w.tx[l]) * 4;
                    v = wl_ldg(&w, mk, A, ri);
                    WL_SH_LD(&w, mk, uint32_t, s->cnt[c + w.tx[l]]);
                }
                sdk_sts(&w, m, 4, S, GMS_REG_NONE, v);
                for (uint32_t d = 1; d < RSCAN; d <<= 1) {   /* Hillis-Steele */
                    uint32_t md = 0;
                    WL_LANES(m, l) if (w.tx[l] >= d) {
                        md |= 1u << l;
                        T[l] = (w.tx[l] - d) * 4;
                    }
                    wl_bar(&w);
                    uint8_t x = v;
                    if (md) x = wl_int(&w, md, v, sdk_lds(&w, md, 4, T, GMS_REG_NONE));
                    wl_bar(&w);
                    sdk_sts(&w, m, 4, S, GMS_REG_NONE, x);
                    v = x;
                }
                v = wl_int(&w, m, wl_int(&w, m, v, carry), GMS_REG_NONE);   /* + carry - own: exclusive */
                if (mk) {
                    WL_LANES(mk, l) A[l] = s->dcnt + (c + w.tx[l]) * 4;
                    wl_stg(&w, mk, A, ri, v);
                    WL_SH_ST(&w, mk, uint32_t, off[c + w.tx[l]]);
                }
                wl_bar(&w);
                uint64_t L[32];
                WL_LANES(m, l) L[l] = (RSCAN - 1) * 4;
                carry = wl_int(&w, m, carry, sdk_lds(&w, m, 4, L, GMS_REG_NONE));   /* the chunk's total */
                wl_bar(&w);
            }
            wl_exit(&w, m);
        }
        memcpy(s->cnt, off, nc * 4);
        free(off);
        return 0;
    }
    /* upsweep / downsweep: the tile's keys, by item (item j of thread t: t0 + j*128 + t) */
    uint32_t run[RBINS] = { 0 }, tcount[RBINS] = { 0 };
    uint32_t *rank = kind == 2 ? wl_malloc(RTILE, 4) : NULL;
    for (uint64_t i = t0; i < t0 + RTILE && i < s->n; i++) {
        uint32_t d = digit(key[i], pass);
        if (rank) rank[i - t0] = run[d];
        run[d]++;
        tcount[d]++;
    }
    for (uint32_t wi = 0; wi < wl_nwarps(k); wi++) {
        wl_warp w;
        wl_warp_begin(&w, bt, k, block, wi);
        uint32_t m = w.live;
        uint8_t ri = sdk_prologue(&w, m);
        uint64_t Z[32];
        WL_LANES(m, l) Z[l] = (w.tx[l] % RBINS) * 4;
        uint32_t mz = 0;
        WL_LANES(m, l) if (w.tx[l] < RBINS) mz |= 1u << l;
        if (mz) sdk_sts(&w, mz, 4, Z, GMS_REG_NONE, GMS_REG_NONE);          /* zero the counters */
        wl_bar(&w);
        for (uint32_t j = 0; j < RITEMS; j++) {
            uint64_t A[32], D[32];
            uint32_t mk = 0;
            WL_LANES(m, l) if (t0 + j * RT + w.tx[l] < s->n) mk |= 1u << l;
            wl_pred(&w, m, ri, GMS_REG_NONE);
            if (!mk) continue;
            WL_LANES(mk, l) {
                uint64_t i = t0 + j * RT + w.tx[l];
                A[l] = s->dk[in] + i * 4;
                D[l] = digit(key[i], pass) * 4;
            }
            uint8_t kv = wl_ldg(&w, mk, A, ri);
            WL_SH_LD(&w, mk, uint32_t, key[t0 + j * RT + w.tx[l]]);
            uint8_t dg = wl_int(&w, mk, wl_int(&w, mk, kv, GMS_REG_NONE), GMS_REG_NONE);   /* SHF, LOP */
            if (kind == 0) {
                wl_atom(&w, mk, GMS_MEM_ATOM_SHARED, 4, D, dg, GMS_REG_NONE);      /* ATOMS.ADD counts[d] */
                continue;
            }
            /* downsweep: the value, the rank (the digit's running count in the tile, a
             * shared-memory counter read and bumped), the scatter */
            WL_LANES(mk, l) A[l] = s->dv[in] + (t0 + j * RT + w.tx[l]) * 4;
            uint8_t vv = wl_ldg(&w, mk, A, ri);
            WL_SH_LD(&w, mk, uint32_t, val[t0 + j * RT + w.tx[l]]);
            uint8_t rk = wl_atom(&w, mk, GMS_MEM_ATOM_SHARED, 4, D, dg, GMS_REG_NONE);
            uint64_t O[32], P[32];
            WL_LANES(mk, l) {
                uint64_t i = t0 + j * RT + w.tx[l];
                uint32_t d = digit(key[i], pass);
                uint64_t dst = s->cnt[d * s->tiles + block] + rank[i - t0];
                O[l] = s->dk[!in] + dst * 4;
                P[l] = s->dv[!in] + dst * 4;
                s->k[!in][dst] = key[i];
                s->v[!in][dst] = val[i];
            }
            uint8_t pos = wl_int(&w, mk, rk, wl_ld(&w, mk, GMS_MEM_LD_SHARED, 4, D, dg));   /* + offset[d] (staged) */
            wl_stg(&w, mk, O, pos, kv);
            WL_SH_ST(&w, mk, uint32_t, key[t0 + j * RT + w.tx[l]]);
            wl_stg(&w, mk, P, pos, vv);
            WL_SH_ST(&w, mk, uint32_t, val[t0 + j * RT + w.tx[l]]);
        }
        if (kind == 0) {   /* threads < 16: counts[digit*tiles + tile] */
            wl_bar(&w);
            if (mz) {
                uint64_t C[32];
                WL_LANES(mz, l) C[l] = s->dcnt + ((uint64_t)w.tx[l] * s->tiles + block) * 4;
                uint8_t c = sdk_lds(&w, mz, 4, Z, GMS_REG_NONE);
                wl_stg(&w, mz, C, ri, c);
                WL_SH_ST(&w, mz, uint32_t, tcount[w.tx[l]]);
            }
        }
        wl_exit(&w, m);
    }
    if (kind == 0)
        for (uint32_t d = 0; d < RBINS; d++) s->cnt[d * s->tiles + block] = tcount[d];
    free(rank);
    return 0;
}

static int rst_next(void *state, gms_program *p, gms_error *err)
{
    rst_st *s = state;
    if (!wl_once(&s->done)) return 0;
    uint64_t b = s->n * 4;
    s->sh = p->shadow;
    s->dk[0] = sdk_alloc(p, s->key0, b, "d_keys");
    s->dv[0] = sdk_alloc(p, s->val0, b, "d_values");
    s->dk[1] = sdk_alloc(p, NULL, b, "keys (alternate buffer)");
    s->dv[1] = sdk_alloc(p, NULL, b, "values (alternate buffer)");
    s->dcnt = sdk_alloc(p, NULL, RBINS * s->tiles * 4, "digit counts");
    gms_dim3 g = wl_dim3((uint32_t)s->tiles, 1, 1), t = wl_dim3(RT, 1, 1);
    for (uint64_t r = 0; r < s->repeat; r++)
        for (uint64_t it = 0; it < s->iters; it++) {
            if (r || it) {   /* d_keys = h_keys; d_values = h_values */
                gms_prog_copy_h2d(p, s->dk[0], b);
                gms_prog_copy_h2d(p, s->dv[0], b);
            }
            for (unsigned pass = 0; pass < RPASSES; pass++) {
                int64_t up[3] = { 0, pass, pass == 0 && (r || it) }, sc[3] = { 1, pass, 0 }, dn[3] = { 2, pass, 0 };
                wl_launch(p, "RadixSortUpsweepKernel", g, t, 32, RBINS * 4, rst_fill, s, up, 3);
                wl_launch(p, "RadixSortScanBinsKernel", wl_dim3(1, 1, 1), wl_dim3(RSCAN, 1, 1), 32, RSCAN * 4, rst_fill,
                          s, sc, 3);
                wl_launch(p, "RadixSortDownsweepKernel", g, t, 32, RBINS * 4, rst_fill, s, dn, 3);
            }
        }
    gms_prog_copy_d2h(p, s->dk[0], b);
    gms_prog_copy_d2h(p, s->dv[0], b);
    gms_prog_sync(p);
    return 1;
}

static int rst_verify(void *state, gms_error *err)
{
    rst_st *s = state;
    /* sort by (key, index): a stable LSD sort on the CPU, 16 bits at a time */
    uint32_t *k = wl_malloc(s->n, 4), *v = wl_malloc(s->n, 4), *k2 = wl_malloc(s->n, 4), *v2 = wl_malloc(s->n, 4);
    uint64_t *c = wl_malloc(65537, 8);
    memcpy(k, s->key0, s->n * 4);
    memcpy(v, s->val0, s->n * 4);
    for (unsigned sh = 0; sh < 32; sh += 16) {
        memset(c, 0, 65537 * 8);
        for (uint64_t i = 0; i < s->n; i++) c[(k[i] >> sh & 0xffff) + 1]++;
        for (int i = 0; i < 65536; i++) c[i + 1] += c[i];
        for (uint64_t i = 0; i < s->n; i++) {
            uint64_t d = c[k[i] >> sh & 0xffff]++;
            k2[d] = k[i];
            v2[d] = v[i];
        }
        uint32_t *t = k; k = k2; k2 = t;
        t = v; v = v2; v2 = t;
    }
    void *o1, *o2;
    const uint32_t *gk = wl_result(s->sh, s->dk[0], s->k[0], s->n, 4, &o1);
    const uint32_t *gv = wl_result(s->sh, s->dv[0], s->v[0], s->n, 4, &o2);
    int rc = wl_check_u32("radixsort", "keys", gk, k, s->n, err) || wl_check_u32("radixsort", "values", gv, v, s->n, err);
    free(o1);
    free(o2);
    free(k);
    free(v);
    free(k2);
    free(v2);
    free(c);
    return rc ? -1 : 0;
}

static void rst_destroy(void *state)
{
    rst_st *s = state;
    if (!s) return;
    free(s->key0);
    free(s->val0);
    for (int i = 0; i < 2; i++) {
        free(s->k[i]);
        free(s->v[i]);
    }
    free(s->cnt);
    free(s);
}

static uint64_t rst_footprint(const gms_wl_args *a)
{
    gms_error e;
    uint64_t n;
    return rst_sizes(a, &n, &e) ? 0 : 4 * n * 4 + RBINS * ((n + RTILE - 1) / RTILE) * 4;
}

const gms_workload_ops gms_wl_sdk_radixsort = {
    .name = "radixsort",
    .suite = "sdk",
    .domain = "sorting",
    .ri = "-",
    .summary = "RST: thrust::sort_by_key as an LSD radix sort with CUB's pass structure (upsweep counts, scan, "
               "scatter), 4-bit digits",
    .params = rst_params,
    .create = rst_create,
    .next = rst_next,
    .verify = rst_verify,
    .destroy = rst_destroy,
    .footprint = rst_footprint,
};
