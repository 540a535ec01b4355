/* B+TREE (Rodinia 3.1 b+tree, CUDA): queries on a B+ tree of `records` keys flattened into an
 * array of knodes (transform_to_cuda). Two kernels, as the suite's command file runs them:
 *   findRangeK  rcount blocks x order threads: the leaves holding start and end of each range
 *               (rsize keys wide), then the first record's index and the range's length
 *   findK       count blocks x order threads: the record of each key
 * Each block walks the tree one level per iteration: every thread tests its key slot pair
 * keys[t] <= key < keys[t+1] of the current node, the one that matches stores the child in
 * offset[bid], thread 0 copies it to currKnode[bid], two barriers per level.
 *
 * knode layout as in common.h with DEFAULT_ORDER = order: int location; int indices[order+1];
 * int keys[order+1]; bool is_leaf; int num_keys (4*(2*order+5) bytes with padding). Slot 0
 * holds INT_MIN, slots 1..nk the node's keys, the rest INT_MAX (transform_to_cuda); an inner
 * node's indices[0..nk] are its children's node numbers (breadth-first), a leaf's indices[1..nk]
 * its records' indices.
 *
 * Input: mil.txt (1M keys inserted one by one) is replaced by the keys 1..records, each the
 * value of its record, in a tree built bottom-up whose nodes are filled uniformly at random
 * between half full and full (what random insertion into a B+ tree leaves, ~70% on average).
 * The query keys are uniform in [0, records] (the suite: rand()/RAND_MAX * size); range starts
 * uniform in [0, records - rsize], ends start + rsize. */
#include "workloads/wl_util.h"
#include "workloads/wl_clamp.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>

typedef struct bt {
    uint64_t n, count, rcount, rsize, order, repeat;
    uint64_t nn, ksz;          /* knodes, bytes per knode */
    uint32_t height;           /* edges from the root to the leaves */
    uint8_t *kn;               /* the knodes as the device holds them */
    int32_t *rec;              /* records[i].value */
    int32_t *keys, *ans;       /* findK */
    int64_t *cur, *off;
    int32_t *start, *end, *rstart, *rlen;   /* findRangeK */
    int64_t *cur2, *off2, *last, *off22;
    uint64_t d_kn, d_rec, d_keys, d_ans, d_cur, d_off;
    uint64_t d_start, d_end, d_rstart, d_rlen, d_cur2, d_off2, d_last, d_off22;
    wl_shadow *sh;
    int done;
} bt;

static const gms_wl_param params[] = {
    {"records", "1000000", "keys in the tree (the suite's mil.txt)"},
    {"order", "256", "B+ tree order = threads per block (DEFAULT_ORDER)"},
    {"count", "10000", "findK queries (command 'k 10000')"},
    {"rcount", "6000", "findRangeK queries (command 'j 6000 3000')"},
    {"rsize", "3000", "keys per range query"},
    {"scale", "1", "multiplies records, count, rcount and rsize"},
    {"repeat", "1", "run both kernels N times"},
    {NULL, NULL, NULL},
};

static int sizes(const gms_wl_args *a, uint64_t v[5], gms_error *err)
{
    if (wl_clamp_size(a, "b+tree", "records", 2, 1ULL << 30, &v[0], err) ||
        wl_clamp_size(a, "b+tree", "count", 1, 1ULL << 31, &v[1], err) ||
        wl_clamp_size(a, "b+tree", "rcount", 1, 1ULL << 31, &v[2], err) ||
        wl_clamp_size(a, "b+tree", "rsize", 1, 1ULL << 30, &v[3], err))
        return -1;
    if (gms_wl_check_range(a, "order", 4, 1024, err)) return -1;
    v[4] = gms_wl_u64(a, "order");
    if (v[3] >= v[0])
        return gms_err(err, "workload b+tree: rsize=%llu must be below records=%llu", (unsigned long long)v[3],
                       (unsigned long long)v[0]);
    return 0;
}

/* The tree's shape, level by level from the leaves: cnt[l] nodes on level l, node j holding
 * fill[l][j] keys (leaves) or children (inner nodes), each between half full and full,
 * uniformly at random; the root takes every node of the level below. fill may be NULL (the
 * node count only, for the footprint: the same random draws). Returns the number of levels. */
static uint64_t shape(uint64_t n, uint64_t order, gms_rng *r, uint32_t **fill, uint64_t *cnt)
{
    uint64_t nl = 0, lo = order / 2, hi = order - 1, items = n;   /* keys per leaf */
    for (;;) {
        uint32_t *f = fill ? wl_malloc(items, 4) : NULL;
        uint64_t m = 0, left = items;
        while (left) {
            uint64_t k = lo + gms_rng_below(r, hi - lo + 1);
            /* the last node takes what is left; a rest below half full is not left behind */
            if (k >= left) k = left;
            else if (left - k < lo) k = left <= hi ? left : left - lo;
            if (f) f[m] = (uint32_t)k;
            m++;
            left -= k;
        }
        if (fill) fill[nl] = f;
        cnt[nl++] = m;
        if (m == 1) break;
        items = m;
        lo = order / 2;   /* children per inner node */
        hi = order;
        if (m <= hi) lo = hi = m;
    }
    return nl;
}

/* knodes of the tree create() builds (its first random draws are the shape's) */
static uint64_t node_count(uint64_t n, uint64_t order, uint64_t seed)
{
    gms_rng r;
    gms_rng_seed(&r, seed);
    uint64_t cnt[64], tot = 0, nl = shape(n, order, &r, NULL, cnt);
    for (uint64_t l = 0; l < nl; l++) tot += cnt[l];
    return tot;
}

static uint64_t footprint(const gms_wl_args *a)
{
    gms_error e;
    uint64_t v[5];
    if (sizes(a, v, &e)) return 0;
    return node_count(v[0], v[4], gms_wl_seed(a)) * 4 * (2 * v[4] + 5) + 4 * v[0] + v[1] * 24 + v[2] * 48;
}

#define KN_KEYS(s, i) ((int32_t *)((s)->kn + (i) * (s)->ksz + 4 + 4 * ((s)->order + 1)))
#define KN_IDX(s, i) ((int32_t *)((s)->kn + (i) * (s)->ksz + 4))

/* Build the tree bottom-up; level sizes first, then breadth-first numbering from the root.
 * fill[l][j] = children (inner) or keys (leaf) of node j of level l (0 = leaves). */
static void build(bt *s, gms_rng *r)
{
    uint64_t order = s->order;
    uint32_t **fill = gms_xcalloc(64, sizeof *fill);   /* levels: at most log2(records) + 1 */
    uint64_t *cnt = gms_xcalloc(64, sizeof *cnt);
    uint64_t nl = shape(s->n, order, r, fill, cnt);
    s->height = (uint32_t)(nl - 1);
    s->nn = 0;
    for (uint64_t l = 0; l < nl; l++) s->nn += cnt[l];
    s->ksz = 4 * (2 * order + 5);
    s->kn = wl_calloc(s->nn, s->ksz);
    /* first node number and first key (smallest key below it) of every node, per level */
    uint64_t **first = gms_xcalloc(nl, sizeof *first);
    for (uint64_t l = 0; l < nl; l++) first[l] = wl_malloc(cnt[l] + 1, 8);
    /* node numbers: root level first */
    uint64_t *lvbase = gms_xcalloc(nl, sizeof *lvbase);
    for (uint64_t l = nl, b = 0; l-- > 0;) { lvbase[l] = b; b += cnt[l]; }
    /* smallest key of each node: leaves from their key ranges, inner nodes from children */
    uint64_t key = 1;
    for (uint64_t j = 0; j < cnt[0]; j++) { first[0][j] = key; key += fill[0][j]; }
    first[0][cnt[0]] = key;
    for (uint64_t l = 1; l < nl; l++) {
        uint64_t c = 0;
        for (uint64_t j = 0; j < cnt[l]; j++) { first[l][j] = first[l - 1][c]; c += fill[l][j]; }
    }
    uint64_t recidx = 0;
    for (uint64_t l = nl; l-- > 0;) {
        uint64_t child = 0;
        for (uint64_t j = 0; j < cnt[l]; j++) {
            uint64_t id = lvbase[l] + j;
            int32_t *k = KN_KEYS(s, id), *ix = KN_IDX(s, id);
            uint32_t nk = l ? fill[l][j] - 1 : fill[l][j];
            *(int32_t *)(s->kn + id * s->ksz) = (int32_t)id;   /* location */
            k[0] = INT_MIN;
            for (uint64_t t = nk + 1; t <= order; t++) k[t] = INT_MAX;
            if (l) {
                for (uint32_t t = 0; t <= nk; t++) {
                    ix[t] = (int32_t)(lvbase[l - 1] + child + t);
                    if (t) k[t] = (int32_t)first[l - 1][child + t];
                }
                child += nk + 1;
            } else {
                for (uint32_t t = 1; t <= nk; t++) {
                    k[t] = (int32_t)(first[0][j] + t - 1);
                    ix[t] = (int32_t)recidx;
                    s->rec[recidx] = k[t];
                    recidx++;
                }
            }
            ix[nk + 1] = (int32_t)(id + 1);   /* transform_to_cuda's queueindex */
            s->kn[id * s->ksz + s->ksz - 8] = l == 0;   /* is_leaf */
            *(int32_t *)(s->kn + id * s->ksz + s->ksz - 4) = (int32_t)(nk + 2);
        }
    }
    for (uint64_t l = 0; l < nl; l++) { free(fill[l]); free(first[l]); }
    free(fill); free(first); free(cnt); free(lvbase);
}

static int create(const gms_wl_args *a, void **out, gms_error *err)
{
    uint64_t v[5];
    if (sizes(a, v, err) || gms_wl_check_range(a, "repeat", 1, 1000000, err)) return -1;
    bt *s = gms_xcalloc(1, sizeof *s);
    s->n = v[0]; s->count = v[1]; s->rcount = v[2]; s->rsize = v[3]; s->order = v[4];
    s->repeat = gms_wl_u64(a, "repeat");
    gms_rng r;
    gms_rng_seed(&r, gms_wl_seed(a));
    s->rec = wl_malloc(s->n, 4);
    build(s, &r);
    s->keys = wl_malloc(s->count, 4);
    s->ans = wl_malloc(s->count, 4);
    s->cur = wl_calloc(s->count, 8);
    s->off = wl_calloc(s->count, 8);
    for (uint64_t i = 0; i < s->count; i++) s->keys[i] = (int32_t)gms_rng_below(&r, s->n + 1);
    s->start = wl_malloc(s->rcount, 4);
    s->end = wl_malloc(s->rcount, 4);
    s->rstart = wl_calloc(s->rcount, 4);
    s->rlen = wl_calloc(s->rcount, 4);
    s->cur2 = wl_calloc(s->rcount, 8);
    s->off2 = wl_calloc(s->rcount, 8);
    s->last = wl_calloc(s->rcount, 8);
    s->off22 = wl_calloc(s->rcount, 8);
    for (uint64_t i = 0; i < s->rcount; i++) {
        s->start[i] = (int32_t)gms_rng_below(&r, s->n - s->rsize + 1);
        s->end[i] = s->start[i] + (int32_t)s->rsize;
    }
    *out = s;
    return 0;
}

/* the kernels' per-launch state, reset before each launch as the host does (cudaMemcpy) */
static void reset(bt *s)
{
    for (uint64_t i = 0; i < s->count; i++) { s->ans[i] = -1; s->cur[i] = s->off[i] = 0; }
    memset(s->rstart, 0, 4 * s->rcount);
    memset(s->rlen, 0, 4 * s->rcount);
    memset(s->cur2, 0, 8 * s->rcount);
    memset(s->off2, 0, 8 * s->rcount);
    memset(s->last, 0, 8 * s->rcount);
    memset(s->off22, 0, 8 * s->rcount);
}

static void same(uint64_t a[32], uint64_t addr) { for (int l = 0; l < 32; l++) a[l] = addr; }

/* One tree level of one search in warp w (14 instruction slots): node = cur[bid] (device
 * array dcur), key at dkey; the lane whose slot pair brackets the key stores its child in
 * off[bid] (the suite's bounds check on the child number included). */
static void level(bt *s, wl_warp *w, uint32_t t0, uint32_t m, uint64_t bid, uint64_t dcur, uint64_t doff,
                  uint64_t dkey, int64_t *cur, int64_t *off, int32_t key, uint8_t rt)
{
    uint64_t a[32];
    int64_t node = cur[bid];
    const int32_t *k = KN_KEYS(s, (uint64_t)node), *ix = KN_IDX(s, (uint64_t)node);
    /* host speed: the broadcasts and the two progressions recorded without address arrays */
    uint8_t rc = wl_ld_bcast(w, m, GMS_MEM_LD_GLOBAL, 8, dcur + 8 * bid, rt);
    WL_SH_LD(w, m, int64_t, node);
    uint8_t p = wl_int(w, m, rc, rt);
    uint64_t kb = s->d_kn + (uint64_t)node * s->ksz + 4 + 4 * (s->order + 1) + 4 * (uint64_t)t0;
    uint8_t k0 = wl_ld_prog(w, m, GMS_MEM_LD_GLOBAL, 4, kb, 4, p);
    WL_SH_LD(w, m, int32_t, k[t0 + l]);
    uint8_t kv = wl_ldg_bcast(w, m, dkey + 4 * bid, rt);
    WL_SH_LD(w, m, int32_t, key);
    wl_pred(w, m, k0, kv);
    uint8_t k1 = wl_ld_prog(w, m, GMS_MEM_LD_GLOBAL, 4, kb + 4, 4, p);
    WL_SH_LD(w, m, int32_t, k[t0 + l + 1]);
    wl_pred(w, m, k1, kv);
    uint32_t mm = 0;
    WL_LANES(m, l) if (k[t0 + l] <= key && k[t0 + l + 1] > key) mm |= 1u << l;
    wl_bra(w, m);
    uint32_t pc = w->pc;
    if (mm) {
        int l0 = __builtin_ctz(mm);
        int64_t o = off[bid];
        const int32_t *ox = KN_IDX(s, (uint64_t)o);
        same(a, doff + 8 * bid);
        uint8_t ro = wl_ld(w, mm, GMS_MEM_LD_GLOBAL, 8, a, rt);
        WL_SH_LD(w, mm, int64_t, o);
        uint8_t q = wl_int(w, mm, ro, rt);
        a[l0] = s->d_kn + (uint64_t)o * s->ksz + 4 + 4 * (t0 + (uint64_t)l0);
        uint8_t v = wl_ldg(w, mm, a, q);
        WL_SH_LD(w, mm, int32_t, ox[t0 + l]);
        wl_pred(w, mm, v, GMS_REG_NONE);
        wl_bra(w, mm);
        if ((uint64_t)ox[t0 + l0] < s->nn) {
            off[bid] = ox[t0 + l0];
            same(a, doff + 8 * bid);
            wl_st(w, mm, GMS_MEM_ST_GLOBAL, 8, a, rt, v);
            WL_SH_ST(w, mm, int64_t, off[bid]);
        }
    }
    w->pc = pc + 6 * 16;
    (void)ix;
}

/* thread 0: cur[bid] = off[bid] */
static void advance(wl_warp *w, uint64_t bid, uint64_t dcur, uint64_t doff, int64_t *cur, const int64_t *off,
                    uint8_t rt)
{
    uint64_t a[32];
    same(a, doff + 8 * bid);
    uint8_t v = wl_ld(w, 1u, GMS_MEM_LD_GLOBAL, 8, a, rt);
    WL_SH_LD(w, 1u, int64_t, off[bid]);
    cur[bid] = off[bid];
    same(a, dcur + 8 * bid);
    wl_st(w, 1u, GMS_MEM_ST_GLOBAL, 8, a, rt, v);
    WL_SH_ST(w, 1u, int64_t, cur[bid]);
}

/* the leaf's slot t with keys[t] == key in warp w: returns the lanes (at most one) */
static uint32_t leaf_hit(bt *s, wl_warp *w, uint32_t t0, uint32_t m, uint64_t bid, uint64_t dcur, uint64_t dkey,
                         const int64_t *cur, int32_t key, uint8_t rt, uint8_t *rp)
{
    uint64_t a[32];
    int64_t node = cur[bid];
    const int32_t *k = KN_KEYS(s, (uint64_t)node);
    same(a, dcur + 8 * bid);
    uint8_t rc = wl_ld(w, m, GMS_MEM_LD_GLOBAL, 8, a, rt);
    WL_SH_LD(w, m, int64_t, node);
    uint8_t p = wl_int(w, m, rc, rt);
    uint64_t kb = s->d_kn + (uint64_t)node * s->ksz + 4 + 4 * (s->order + 1);
    WL_LANES(m, l) a[l] = kb + 4 * (t0 + (uint64_t)l);
    uint8_t k0 = wl_ldg(w, m, a, p);
    WL_SH_LD(w, m, int32_t, k[t0 + l]);
    same(a, dkey + 4 * bid);
    uint8_t kv = wl_ldg(w, m, a, rt);
    WL_SH_LD(w, m, int32_t, key);
    wl_pred(w, m, k0, kv);
    wl_bra(w, m);
    uint32_t mm = 0;
    WL_LANES(m, l) if (k[t0 + l] == key) mm |= 1u << l;
    *rp = p;
    return mm;
}

/* index of the record in slot t0+l of node cur[bid] (lanes mm), loaded; returns the register */
static uint8_t leaf_index(bt *s, wl_warp *w, uint32_t t0, uint32_t mm, uint64_t bid, const int64_t *cur, uint8_t p,
                          int32_t *idx)
{
    uint64_t a[32];
    int l0 = __builtin_ctz(mm);
    const int32_t *ix = KN_IDX(s, (uint64_t)cur[bid]);
    a[l0] = s->d_kn + (uint64_t)cur[bid] * s->ksz + 4 + 4 * (t0 + (uint64_t)l0);
    uint8_t v = wl_ldg(w, mm, a, p);
    WL_SH_LD(w, mm, int32_t, ix[t0 + l]);
    *idx = ix[t0 + l0];
    return v;
}

static int fill_findk(const wl_kernel *k, uint64_t bid, gms_block_trace *bt_, gms_error *err)
{
    bt *s = k->st;
    uint32_t nw = wl_nwarps(k);
    wl_warp W[32];
    uint8_t rt[32];
    for (uint32_t i = 0; i < nw; i++) {
        wl_warp_begin(&W[i], bt_, k, bid, i);
        wl_int(&W[i], W[i].live, GMS_REG_NONE, GMS_REG_NONE);             /* S2R tid */
        rt[i] = wl_int(&W[i], W[i].live, GMS_REG_NONE, GMS_REG_NONE);     /* S2R ctaid */
    }
    int32_t key = s->keys[bid];
    /* PCs: the level loop at LOOP (14 instructions of level(), BAR, thread 0's two, BAR, BRA) */
    const uint32_t loop = 0x20, fin = loop + 19 * 16;
    for (uint32_t lv = 0; lv < s->height; lv++) {
        for (uint32_t i = 0; i < nw; i++) {
            W[i].pc = loop;
            level(s, &W[i], 32 * i, W[i].live, bid, s->d_cur, s->d_off, s->d_keys, s->cur, s->off, key, rt[i]);
            wl_bar(&W[i]);
        }
        advance(&W[0], bid, s->d_cur, s->d_off, s->cur, s->off, rt[0]);
        for (uint32_t i = 0; i < nw; i++) {
            W[i].pc = loop + 17 * 16;
            wl_bar(&W[i]);
            wl_bra(&W[i], W[i].live);   /* loop back */
        }
    }
    for (uint32_t i = 0; i < nw; i++) {
        wl_warp *w = &W[i];
        w->pc = fin;
        uint8_t p;
        uint32_t mm = leaf_hit(s, w, 32 * i, w->live, bid, s->d_cur, s->d_keys, s->cur, key, rt[i], &p);
        uint32_t pc = w->pc;
        if (mm) {
            int32_t idx;
            uint8_t v = leaf_index(s, w, 32 * i, mm, bid, s->cur, p, &idx);
            uint64_t a[32];
            a[__builtin_ctz(mm)] = s->d_rec + 4 * (uint64_t)idx;
            uint8_t val = wl_ldg(w, mm, a, v);
            WL_SH_LD(w, mm, int32_t, s->rec[idx]);
            s->ans[bid] = s->rec[idx];
            same(a, s->d_ans + 4 * bid);
            wl_stg(w, mm, a, rt[i], val);
            WL_SH_ST(w, mm, int32_t, s->ans[bid]);
        }
        w->pc = pc + 3 * 16;
        wl_exit(w, w->live);
    }
    (void)err;
    return 0;
}

static int fill_range(const wl_kernel *k, uint64_t bid, gms_block_trace *bt_, gms_error *err)
{
    bt *s = k->st;
    uint32_t nw = wl_nwarps(k);
    wl_warp W[32];
    uint8_t rt[32];
    for (uint32_t i = 0; i < nw; i++) {
        wl_warp_begin(&W[i], bt_, k, bid, i);
        wl_int(&W[i], W[i].live, GMS_REG_NONE, GMS_REG_NONE);
        rt[i] = wl_int(&W[i], W[i].live, GMS_REG_NONE, GMS_REG_NONE);
    }
    int32_t st = s->start[bid], en = s->end[bid];
    /* PCs: the level loop (two level()s, BAR, thread 0's four, BAR, BRA), then the leaves */
    const uint32_t loop = 0x20, fin = loop + 35 * 16;
    for (uint32_t lv = 0; lv < s->height; lv++) {
        for (uint32_t i = 0; i < nw; i++) {
            W[i].pc = loop;
            level(s, &W[i], 32 * i, W[i].live, bid, s->d_cur2, s->d_off2, s->d_start, s->cur2, s->off2, st, rt[i]);
            level(s, &W[i], 32 * i, W[i].live, bid, s->d_last, s->d_off22, s->d_end, s->last, s->off22, en, rt[i]);
            wl_bar(&W[i]);
        }
        advance(&W[0], bid, s->d_cur2, s->d_off2, s->cur2, s->off2, rt[0]);
        advance(&W[0], bid, s->d_last, s->d_off22, s->last, s->off22, rt[0]);
        for (uint32_t i = 0; i < nw; i++) {
            W[i].pc = loop + 33 * 16;
            wl_bar(&W[i]);
            wl_bra(&W[i], W[i].live);
        }
    }
    uint8_t pr[32];
    for (uint32_t i = 0; i < nw; i++) {
        wl_warp *w = &W[i];
        w->pc = fin;
        uint32_t mm = leaf_hit(s, w, 32 * i, w->live, bid, s->d_cur2, s->d_start, s->cur2, st, rt[i], &pr[i]);
        uint32_t pc = w->pc;
        if (mm) {
            int32_t idx;
            uint8_t v = leaf_index(s, w, 32 * i, mm, bid, s->cur2, pr[i], &idx);
            s->rstart[bid] = idx;
            uint64_t a[32];
            same(a, s->d_rstart + 4 * bid);
            wl_stg(w, mm, a, rt[i], v);
            WL_SH_ST(w, mm, int32_t, s->rstart[bid]);
        }
        w->pc = pc + 2 * 16;
        wl_bar(w);
    }
    for (uint32_t i = 0; i < nw; i++) {
        wl_warp *w = &W[i];
        uint8_t p;
        uint32_t mm = leaf_hit(s, w, 32 * i, w->live, bid, s->d_last, s->d_end, s->last, en, rt[i], &p);
        uint32_t pc = w->pc;
        if (mm) {
            int32_t idx;
            uint8_t v = leaf_index(s, w, 32 * i, mm, bid, s->last, p, &idx);
            uint64_t a[32];
            same(a, s->d_rstart + 4 * bid);
            uint8_t r0 = wl_ldg(w, mm, a, rt[i]);
            WL_SH_LD(w, mm, int32_t, s->rstart[bid]);
            s->rlen[bid] = idx - s->rstart[bid] + 1;
            uint8_t d = wl_int3(w, mm, v, r0, GMS_REG_NONE);
            same(a, s->d_rlen + 4 * bid);
            wl_stg(w, mm, a, rt[i], d);
            WL_SH_ST(w, mm, int32_t, s->rlen[bid]);
        }
        w->pc = pc + 4 * 16;
        wl_exit(w, w->live);
    }
    (void)err;
    return 0;
}

static uint64_t up(gms_program *p, const void *h, uint64_t bytes, const char *name)
{
    uint64_t d = gms_prog_alloc(p, bytes, name);
    gms_prog_copy_h2d(p, d, bytes);
    wl_sh_init(p, d, h, bytes);
    return d;
}

static int next(void *st, gms_program *p, gms_error *err)
{
    bt *s = st;
    if (!wl_once(&s->done)) return 0;
    s->sh = p->shadow;
    reset(s);
    /* kernel_gpu_cuda_wrapper_2 (command j) runs first, then kernel_gpu_cuda_wrapper (k) */
    s->d_kn = up(p, s->kn, s->nn * s->ksz, "knodesD");
    s->d_cur2 = up(p, s->cur2, 8 * s->rcount, "currKnodeD");
    s->d_off2 = up(p, s->off2, 8 * s->rcount, "offsetD");
    s->d_last = up(p, s->last, 8 * s->rcount, "lastKnodeD");
    s->d_off22 = up(p, s->off22, 8 * s->rcount, "offset_2D");
    s->d_start = up(p, s->start, 4 * s->rcount, "startD");
    s->d_end = up(p, s->end, 4 * s->rcount, "endD");
    s->d_rstart = up(p, s->rstart, 4 * s->rcount, "ansDStart");
    s->d_rlen = up(p, s->rlen, 4 * s->rcount, "ansDLength");
    s->d_rec = up(p, s->rec, 4 * s->n, "recordsD");
    s->d_cur = up(p, s->cur, 8 * s->count, "currKnodeD");
    s->d_off = up(p, s->off, 8 * s->count, "offsetD");
    s->d_keys = up(p, s->keys, 4 * s->count, "keysD");
    s->d_ans = up(p, s->ans, 4 * s->count, "ansD");
    uint32_t thr = (uint32_t)(s->order < 1024 ? s->order : 1024);
    for (uint64_t r = 0; r < s->repeat; r++) {
        wl_launch(p, "_Z10findRangeKlP5knodelPlS1_S1_S1_PiS2_S2_S2_", wl_dim3((uint32_t)s->rcount, 1, 1),
                  wl_dim3(thr, 1, 1), 28, 0, fill_range, s, NULL, 0);
        gms_prog_sync(p);
        wl_launch(p, "_Z5findKlP5knodelP6recordPlS3_PiS1_", wl_dim3((uint32_t)s->count, 1, 1), wl_dim3(thr, 1, 1),
                  24, 0, fill_findk, s, NULL, 0);
        gms_prog_sync(p);
    }
    gms_prog_copy_d2h(p, s->d_rstart, 4 * s->rcount);
    gms_prog_copy_d2h(p, s->d_rlen, 4 * s->rcount);
    gms_prog_copy_d2h(p, s->d_ans, 4 * s->count);
    (void)err;
    return 1;
}

static int verify(void *st, gms_error *err)
{
    bt *s = st;
    /* the CPU reference: keys 1..n hold records 0..n-1 with value = key */
    int32_t *want = wl_malloc(s->count, 4), *ws = wl_malloc(s->rcount, 4), *wl = wl_malloc(s->rcount, 4);
    for (uint64_t i = 0; i < s->count; i++) want[i] = s->keys[i] >= 1 && (uint64_t)s->keys[i] <= s->n ? s->keys[i] : -1;
    for (uint64_t i = 0; i < s->rcount; i++) {
        ws[i] = s->start[i] >= 1 ? s->start[i] - 1 : 0;
        wl[i] = (s->end[i] - 1) - ws[i] + 1;   /* end is always a key: start <= n - rsize */
    }
    void *o1, *o2, *o3;
    const uint32_t *ga = wl_result(s->sh, s->d_ans, s->ans, s->count, 4, &o1);
    const uint32_t *gs = wl_result(s->sh, s->d_rstart, s->rstart, s->rcount, 4, &o2);
    const uint32_t *gl = wl_result(s->sh, s->d_rlen, s->rlen, s->rcount, 4, &o3);
    int rc = wl_check_u32("b+tree", "ans", ga, (const uint32_t *)want, s->count, err);
    if (!rc) rc = wl_check_u32("b+tree", "recstart", gs, (const uint32_t *)ws, s->rcount, err);
    if (!rc) rc = wl_check_u32("b+tree", "reclength", gl, (const uint32_t *)wl, s->rcount, err);
    free(o1); free(o2); free(o3); free(want); free(ws); free(wl);
    return rc;
}

static void destroy(void *st)
{
    bt *s = st;
    if (!s) return;
    free(s->kn); free(s->rec); free(s->keys); free(s->ans); free(s->cur); free(s->off);
    free(s->start); free(s->end); free(s->rstart); free(s->rlen);
    free(s->cur2); free(s->off2); free(s->last); free(s->off22);
    free(s);
}

const gms_workload_ops gms_wl_btree = {
    .name = "b+tree", .suite = "rodinia", .domain = "search", .ri = "-",
    .summary = "B+ tree: findRangeK and findK, one block per query walking a flattened tree (B+T)",
    .params = params, .create = create, .next = next, .verify = verify, .destroy = destroy,
    .footprint = footprint,
};
