#include "workloads/wl_util.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- kernels */
static int wl_fill_thunk(void *self, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    const wl_kernel *k = self;
    return k->fill(k, block, bt, err);
}

static void wl_release(void *self) { free(self); }

/* resumable kernels: the block-wide begin, then a fresh state per warp, stepped until its
 * first yield */
static int wl_gen_fill(void *self, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    const wl_kernel *k = self;
    uint32_t nw = wl_nwarps(k);
    if (bt->nwarps != nw) gms_block_trace_reset(bt, nw);
    if (k->begin && k->begin(k, block, err)) return -1;
    for (uint32_t wi = 0; wi < nw; wi++) {
        wl_wgen *ws = gms_xcalloc(1, k->wsize);
        wl_warp_begin(&ws->w, bt, k, block, wi);
        ws->block = block;
        ws->g.chunk = k->chunk;
        ws->g.e = &ws->w.e;
        int r = k->step(k, ws, err);
        if (r <= 0) { free(ws); if (r < 0) return -1; continue; }
        bt->warps[wi].more = 1;
        bt->warps[wi].gen = ws;
        bt->warps[wi].gen_free = free;
    }
    return 0;
}

static int wl_gen_more(void *self, uint64_t block, uint32_t warp, gms_warp_trace *wt, gms_error *err)
{
    const wl_kernel *k = self;
    wl_wgen *ws = wt->gen;
    ws->w.e.w = wt;   /* the buffer is the same, but say so rather than assume it */
    return k->step(k, ws, err);
}

/* k is the launch's own heap record, released with the kernel */
static void launch_own(gms_program *p, const char *name, wl_kernel *k, uint32_t regs, uint32_t shmem)
{
    k->sh = p->shadow;
    k->chunk = wl_gen_chunk(p);
    if (k->step && k->wsize < sizeof(wl_wgen)) k->wsize = sizeof(wl_wgen);
    gms_kernel_src ks;
    memset(&ks, 0, sizeof ks);
    snprintf(ks.name, sizeof ks.name, "%s", name);
    ks.grid = k->grid;
    ks.block = k->block;
    ks.shmem_bytes = shmem;
    ks.regs_per_thread = regs;
    ks.stream = 0;
    ks.fill_block = k->step ? wl_gen_fill : wl_fill_thunk;
    ks.fill_warp_more = k->step ? wl_gen_more : NULL;
    ks.release = wl_release;
    ks.self = k;
    gms_prog_launch(p, &ks);
}

void wl_launch_k(gms_program *p, const char *name, const wl_kernel *k, uint32_t regs, uint32_t shmem)
{
    wl_kernel *c = gms_xmalloc(sizeof *c);
    *c = *k;
    launch_own(p, name, c, regs, shmem);
}

static wl_kernel *kernel_new(gms_dim3 grid, gms_dim3 block, void *st, const int64_t *args, int nargs)
{
    wl_kernel *k = gms_xcalloc(1, sizeof *k);
    k->st = st;
    k->grid = grid;
    k->block = block;
    for (int i = 0; args && i < nargs && i < WL_KARGS; i++) k->arg[i] = args[i];
    return k;
}

void wl_launch(gms_program *p, const char *name, gms_dim3 grid, gms_dim3 block, uint32_t regs,
               uint32_t shmem, wl_fill_fn fill, void *st, const int64_t *args, int nargs)
{
    wl_kernel *k = kernel_new(grid, block, st, args, nargs);
    k->fill = fill;
    launch_own(p, name, k, regs, shmem);
}

void wl_launch_gen(gms_program *p, const char *name, gms_dim3 grid, gms_dim3 block, uint32_t regs,
                   uint32_t shmem, wl_step_fn step, size_t wsize, void *st, const int64_t *args, int nargs)
{
    wl_kernel *k = kernel_new(grid, block, st, args, nargs);
    k->step = step;
    k->wsize = wsize;
    launch_own(p, name, k, regs, shmem);
}

/* ---------------------------------------------------------------- warps */
/* Host speed: the usual warp, 32 consecutive threads of one x-row, by direct stores */
static void warp_row(wl_warp *w, uint32_t x, uint32_t y, uint32_t z)
{
    w->live = 0xffffffffu;
    w->row = 1;
    for (int l = 0; l < 32; l++) {
        w->tx[l] = x + (uint32_t)l;
        w->ty[l] = y;
        w->tz[l] = z;
    }
}

/* lane 0's thread coordinates by division, the others by stepping x, then y, then z (the
 * three divisions per lane were most of the cost of starting a warp), one x-row segment at
 * a time; lanes past the block's last thread stay 0 and out of live */
static void warp_lanes(wl_warp *w, uint32_t nl, uint32_t x, uint32_t y, uint32_t z)
{
    w->live = gms_lanes((int)nl);
    w->row = 0;
    uint32_t l = 0;
    while (l < nl) {
        uint32_t run = w->bdim.x - x < nl - l ? w->bdim.x - x : nl - l;
        for (uint32_t r = 0; r < run; r++, l++) {
            w->tx[l] = x + r;
            w->ty[l] = y;
            w->tz[l] = z;
        }
        x = 0;
        if (++y == w->bdim.y) { y = 0; z++; }
    }
    for (; l < 32; l++) w->tx[l] = w->ty[l] = w->tz[l] = 0;
}

void wl_warp_begin(wl_warp *w, gms_block_trace *bt, const wl_kernel *k, uint64_t block, uint32_t warp)
{
    /* every field is set below (host speed: no memset of the whole struct) */
    gms_emit_begin(&w->e, &bt->warps[warp]);
    w->pc = 0;
    w->warp = warp;
    w->t0 = warp * 32;
    w->bdim = k->block;
    w->gdim = k->grid;
    w->sh = k->sh;
    w->bx = (uint32_t)(block % k->grid.x);
    w->by = (uint32_t)(block / k->grid.x % k->grid.y);
    w->bz = (uint32_t)(block / ((uint64_t)k->grid.x * k->grid.y));
    uint64_t nthr = gms_dim3_count(k->block);
    uint64_t t0 = (uint64_t)warp * 32;
    uint32_t x = (uint32_t)(t0 % k->block.x), y = (uint32_t)(t0 / k->block.x % k->block.y);
    uint32_t z = (uint32_t)(t0 / ((uint64_t)k->block.x * k->block.y));
    if (t0 + 32 <= nthr && (uint64_t)x + 32 <= k->block.x)
        warp_row(w, x, y, z);
    else
        warp_lanes(w, t0 >= nthr ? 0 : (uint32_t)(nthr - t0 < 32 ? nthr - t0 : 32), x, y, z);
}

uint8_t wl_ld(wl_warp *w, uint32_t mask, gms_mem_kind kind, uint8_t width, const uint64_t addrs[32], uint8_t areg)
{
    return gms_emit_load(&w->e, wl_next_pc(w), mask, kind, width, addrs, areg);
}

void wl_st(wl_warp *w, uint32_t mask, gms_mem_kind kind, uint8_t width, const uint64_t addrs[32], uint8_t areg,
           uint8_t dreg)
{
    gms_emit_store(&w->e, wl_next_pc(w), mask, kind, width, addrs, areg, dreg);
}

uint8_t wl_atom(wl_warp *w, uint32_t mask, gms_mem_kind kind, uint8_t width, const uint64_t addrs[32],
                uint8_t areg, uint8_t dreg)
{
    return gms_emit_atomic(&w->e, wl_next_pc(w), mask, kind, width, addrs, areg, dreg);
}

uint8_t wl_ldg(wl_warp *w, uint32_t mask, const uint64_t addrs[32], uint8_t areg)
{
    return wl_ld(w, mask, GMS_MEM_LD_GLOBAL, 4, addrs, areg);
}

void wl_stg(wl_warp *w, uint32_t mask, const uint64_t addrs[32], uint8_t areg, uint8_t dreg)
{
    wl_st(w, mask, GMS_MEM_ST_GLOBAL, 4, addrs, areg, dreg);
}

uint8_t wl_ld_idx(wl_warp *w, uint32_t mask, gms_mem_kind kind, uint8_t width, uint64_t base,
                  const uint64_t idx[32], uint32_t elem, uint8_t areg)
{
    return gms_emit_load_idx(&w->e, wl_next_pc(w), mask, kind, width, base, idx, elem, areg);
}

void wl_st_idx(wl_warp *w, uint32_t mask, gms_mem_kind kind, uint8_t width, uint64_t base,
               const uint64_t idx[32], uint32_t elem, uint8_t areg, uint8_t dreg)
{
    gms_emit_store_idx(&w->e, wl_next_pc(w), mask, kind, width, base, idx, elem, areg, dreg);
}

uint8_t wl_ldg_idx(wl_warp *w, uint32_t mask, uint64_t base, const uint64_t idx[32], uint8_t areg)
{
    return wl_ld_idx(w, mask, GMS_MEM_LD_GLOBAL, 4, base, idx, 4, areg);
}

void wl_stg_idx(wl_warp *w, uint32_t mask, uint64_t base, const uint64_t idx[32], uint8_t areg, uint8_t dreg)
{
    wl_st_idx(w, mask, GMS_MEM_ST_GLOBAL, 4, base, idx, 4, areg, dreg);
}

uint32_t wl_prologue_1d(wl_warp *w, uint64_t n, uint64_t gid[32], uint8_t *ireg)
{
    uint32_t live = w->live, in = 0;
    uint64_t b0 = (uint64_t)w->bx * w->bdim.x;
    if (w->row) {
        /* Host speed: consecutive indices g0..g0+31, so the lanes below n are a prefix */
        uint64_t g0 = b0 + w->tx[0];
        for (int l = 0; l < 32; l++) gid[l] = g0 + (uint64_t)l;
        in = g0 >= n ? 0u : n - g0 >= 32 ? 0xffffffffu : gms_lanes((int)(n - g0));
    } else {
        WL_LANES(live, l) {
            gid[l] = b0 + w->tx[l];
            if (gid[l] < n) in |= 1u << l;
        }
    }
    wl_int(w, live, GMS_REG_NONE, GMS_REG_NONE);                       /* MOV R1, c[0x0][0x28] */
    uint8_t cta = wl_int(w, live, GMS_REG_NONE, GMS_REG_NONE);         /* S2R ctaid.x */
    uint8_t tid = wl_int(w, live, GMS_REG_NONE, GMS_REG_NONE);         /* S2R tid.x */
    uint8_t i = wl_int(w, live, cta, tid);                             /* IMAD i */
    wl_pred(w, live, i, GMS_REG_NONE);                                 /* ISETP.GE.AND P0 */
    wl_exit(w, live & ~in);                                            /* @P0 EXIT */
    *ireg = i;
    return in;
}

uint32_t wl_block_begin(gms_block_trace *bt, uint32_t tpb, wl_warp *w)
{
    uint32_t nw = (tpb + 31) / 32;
    if (bt->nwarps != nw) gms_block_trace_reset(bt, nw);
    for (uint32_t i = 0; i < nw; i++) {
        gms_emit_begin(&w[i].e, &bt->warps[i]);
        w[i].pc = 0;
        w[i].warp = i;
        w[i].t0 = i * 32;
        w[i].live = gms_lanes((int)(tpb - i * 32));
        w[i].row = 0;
        w[i].sh = NULL;
    }
    return nw;
}

void wl_bar_all(wl_warp *w, uint32_t nw, uint32_t pc)
{
    for (uint32_t i = 0; i < nw; i++) gms_emit_bar(&w[i].e, pc);
}

uint8_t wl_prologue_idx(wl_warp *w, uint32_t m)
{
    uint8_t tid = wl_int_at(w, 0x0, m, GMS_REG_NONE, GMS_REG_NONE);   /* S2R SR_TID */
    uint8_t cta = wl_int_at(w, 0x8, m, GMS_REG_NONE, GMS_REG_NONE);   /* S2R SR_CTAID */
    return wl_int_at(w, 0x10, m, cta, tid);                            /* IMAD */
}

uint32_t wl_guard_1d(wl_warp *w, uint64_t first, uint64_t n, uint8_t *ri, uint8_t *c)
{
    uint32_t act = 0;
    *ri = wl_prologue_idx(w, w->live);
    WL_TLANES(w, w->live, l, t) if (first + t < n) act |= 1u << l;
    *c = wl_int_at(w, 0x18, w->live, *ri, GMS_REG_NONE);
    wl_bra_at(w, 0x20, w->live, *c);
    return act;
}

/* ---------------------------------------------------------------- shadow memory */
void wl_sh_last(wl_shadow *sh, gms_warp_trace *t, int store, const void *vals, size_t size)
{
    if (store) wl_shadow_store(sh, t, &t->insts[t->n - 1], vals, size);
    else wl_shadow_load(sh, t, &t->insts[t->n - 1], vals, size);
}

void wl_sh_init(const gms_program *p, uint64_t dev, const void *host, uint64_t bytes)
{
    if (p->shadow) wl_shadow_write(p->shadow, dev, host, bytes);
}

void wl_sh_init_ro(const gms_program *p, uint64_t dev, const void *host, uint64_t bytes)
{
    if (p->shadow) wl_shadow_write_ro(p->shadow, dev, host, bytes);
}

const void *wl_result(const wl_shadow *sh, uint64_t dev, const void *host, uint64_t n, size_t elem, void **owned)
{
    *owned = NULL;
    if (!wl_shadow_active(sh)) return host;
    *owned = wl_malloc(n, elem);
    wl_shadow_read(sh, dev, *owned, n * elem);
    return *owned;
}

/* ---------------------------------------------------------------- sizes */
uint64_t wl_scaled(const gms_wl_args *a, const char *name)
{
    uint64_t v = gms_wl_u64(a, name);
    const char *s = gms_wl_str(a, "scale");
    if (!s || !*s) return v;
    double sc = gms_wl_f64(a, "scale");
    if (!(sc > 0)) return 0;
    double r = floor((double)v * sc + 0.5);
    if (!(r < 1.8e19)) return UINT64_MAX;
    return (uint64_t)r;
}

int wl_param(const gms_wl_args *a, const char *name, uint64_t lo, uint64_t hi, uint64_t *out, gms_error *err)
{
    *out = 0;   /* written on every path */
    if (gms_wl_check_range(a, name, lo, hi, err)) return -1;
    *out = gms_wl_u64(a, name);
    return 0;
}

int wl_need_size(const char *wl, const gms_wl_args *a, const char *name, uint64_t v, uint64_t max,
                 gms_error *err)
{
    const char *s = gms_wl_str(a, "scale");
    int has_scale = s && *s;
    if (v == 0)
        return gms_err(err, "workload %s: parameter %s=%s%s%s gives a size of 0", wl, name, gms_wl_str(a, name),
                       has_scale ? " with scale=" : "", has_scale ? s : "");
    if (v > max)
        return gms_err(err, "workload %s: parameter %s=%s%s%s gives %llu, more than the maximum %llu", wl, name,
                       gms_wl_str(a, name), has_scale ? " with scale=" : "", has_scale ? s : "",
                       (unsigned long long)v, (unsigned long long)max);
    return 0;
}

int wl_bytes(const char *wl, const char *what, uint64_t x, uint64_t y, uint64_t z, uint64_t elem,
             uint64_t limit, uint64_t *out, gms_error *err)
{
    *out = 0;   /* written on every path */
    uint64_t v = elem;
    const uint64_t f[3] = { x, y, z };
    for (int i = 0; i < 3; i++) {
        if (f[i] == 0) return gms_err(err, "workload %s: %s has size 0", wl, what);
        if (v > limit / f[i])
            return gms_err(err, "workload %s: %s is too large (%llu x %llu x %llu x %llu bytes, limit %llu bytes)",
                           wl, what, (unsigned long long)x, (unsigned long long)y, (unsigned long long)z,
                           (unsigned long long)elem, (unsigned long long)limit);
        v *= f[i];
    }
    if (v > limit)
        return gms_err(err, "workload %s: %s is too large (%llu bytes, limit %llu bytes)", wl, what,
                       (unsigned long long)v, (unsigned long long)limit);
    *out = v;
    return 0;
}

/* n elements of `elem` bytes (n = 0 as 1); a size that overflows size_t ends the run */
static size_t wl_count(uint64_t n, uint64_t elem)
{
    if (n == 0) n = 1;
    if (elem && n > SIZE_MAX / elem) {
        fprintf(stderr, "gpumemsim: out of memory (%llu x %llu bytes)\n", (unsigned long long)n,
                (unsigned long long)elem);
        abort();
    }
    return (size_t)n;
}

void *wl_calloc(uint64_t n, uint64_t elem) { return gms_xcalloc(wl_count(n, elem), (size_t)elem); }

void *wl_malloc(uint64_t n, uint64_t elem) { return gms_xmalloc(wl_count(n, elem) * (size_t)(elem ? elem : 1)); }

/* ---------------------------------------------------------------- verification */
int wl_check_f32(const char *wl, const char *what, const float *got, const float *want, uint64_t n,
                 double rtol, double atol, gms_error *err)
{
    return wl_check_f32_from(wl, what, got, want, n, 0, rtol, atol, err);
}

int wl_check_f32_from(const char *wl, const char *what, const float *got, const float *want, uint64_t n,
                      uint64_t first, double rtol, double atol, gms_error *err)
{
    for (uint64_t i = 0; i < n; i++) {
        /* host speed: an equal element passes whatever the tolerance (an infinity equal to
         * the reference too), without the conversions and tests below */
        if (got[i] == want[i]) continue;
        double g = got[i], r = want[i];
        double d = fabs(g - r);
        int bad = !(d <= atol + rtol * fabs(r));
        if (isnan(r) && isnan(g)) bad = 0;
        if (bad)
            return gms_err(err, "workload %s: %s[%llu] = %.9g, CPU reference %.9g (tolerance %g + %g*|ref|)", wl,
                           what, (unsigned long long)(first + i), g, r, atol, rtol);
    }
    return 0;
}

int wl_check_u32(const char *wl, const char *what, const uint32_t *got, const uint32_t *want, uint64_t n,
                 gms_error *err)
{
    for (uint64_t i = 0; i < n; i++)
        if (got[i] != want[i])
            return gms_err(err, "workload %s: %s[%llu] = %u, CPU reference %u", wl, what, (unsigned long long)i,
                           got[i], want[i]);
    return 0;
}

int wl_check_i32(const char *wl, const char *what, const int32_t *got, const int32_t *want, uint64_t n,
                 gms_error *err)
{
    for (uint64_t i = 0; i < n; i++)
        if (got[i] != want[i])
            return gms_err(err, "workload %s: %s[%llu] = %d, reference %d", wl, what, (unsigned long long)i, got[i],
                           want[i]);
    return 0;
}

int wl_check_f32_tol(const char *wl, const char *what, const float *got, const float *want, uint64_t n,
                     double tol, gms_error *err)
{
    for (uint64_t i = 0; i < n; i++) {
        double g = got[i], r = want[i];
        double d = fabs(g - r), s = fabs(r) > 1 ? fabs(r) : 1;
        if (!(d <= tol * s))
            return gms_err(err, "workload %s: %s[%llu] = %.9g, reference %.9g", wl, what, (unsigned long long)i, g,
                           r);
    }
    return 0;
}

/* ---------------------------------------------------------------- data */
void wl_perm_prefix(gms_rng *r, uint32_t n, uint32_t k, uint32_t *out)
{
    /* partial Fisher-Yates over an implicit identity array: displaced entries kept in a
     * small open-addressing map so that memory is O(k), not O(n) */
    uint64_t cap = 16;
    while (cap < 4ULL * k + 16) cap <<= 1;
    /* host speed: keys and vals are read only where used[] is set, so need no zeroing */
    uint32_t *keys = wl_malloc(cap, sizeof *keys);
    uint32_t *vals = wl_malloc(cap, sizeof *vals);
    uint8_t *used = wl_calloc(cap, 1);
    for (uint32_t i = 0; i < k; i++) {
        uint32_t j = i + (uint32_t)gms_rng_below(r, (uint64_t)(n - i));
        /* value at j and at i (identity unless displaced) */
        uint64_t hj = ((uint64_t)j * 0x9e3779b97f4a7c15ULL) >> 20 & (cap - 1);
        while (used[hj] && keys[hj] != j) hj = (hj + 1) & (cap - 1);
        uint32_t vj = used[hj] ? vals[hj] : j;
        uint64_t hi = ((uint64_t)i * 0x9e3779b97f4a7c15ULL) >> 20 & (cap - 1);
        while (used[hi] && keys[hi] != i) hi = (hi + 1) & (cap - 1);
        uint32_t vi = used[hi] ? vals[hi] : i;
        out[i] = vj;
        /* position j now holds vi (position i is never read again) */
        if (!used[hj]) {
            /* re-probe: inserting may land on a slot; hj is the first free slot for key j */
            used[hj] = 1;
            keys[hj] = j;
        }
        vals[hj] = vi;
    }
    free(keys);
    free(vals);
    free(used);
}

void wl_random_cycle(gms_rng *r, uint32_t n, uint32_t *next)
{
    if (n == 0) return;
    /* a random order of the nodes, linked into one cycle */
    uint32_t *p = wl_calloc(n, sizeof *p);
    for (uint32_t i = 0; i < n; i++) p[i] = i;
    for (uint32_t i = n - 1; i > 0; i--) {
        uint32_t j = (uint32_t)gms_rng_below(r, (uint64_t)i + 1);
        uint32_t t = p[i];
        p[i] = p[j];
        p[j] = t;
    }
    for (uint32_t i = 0; i < n; i++) next[p[i]] = p[(i + 1) % n];
    free(p);
}
