#include "workloads/rodinia_util.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

static int rw_fill(void *self, uint64_t block, gms_block_trace *out, gms_error *err)
{
    const rw_kernel *k = self;
    return k->fn(k, block, out, err);
}

/* resumable kernels: a fresh state per warp, stepped until its first yield */
static int rw_gen_fill(void *self, uint64_t block, gms_block_trace *out, gms_error *err)
{
    const rw_kernel *k = self;
    uint32_t tpb = (uint32_t)gms_dim3_count(k->block), nw = (tpb + 31) / 32;
    if (out->nwarps != nw) gms_block_trace_reset(out, nw);
    if (k->begin && k->begin(k, block, err)) return -1;
    for (uint32_t i = 0; i < nw; i++) {
        rw_wgen *ws = gms_xcalloc(1, k->wsize);
        gms_emit_begin(&ws->x.e, &out->warps[i]);
        ws->x.t0 = i * 32;
        ws->x.mask = gms_lanes((int)(tpb - i * 32));
        ws->block = block;
        ws->warp = i;
        ws->g.chunk = k->chunk;
        ws->g.e = &ws->x.e;
        ws->x.sh = k->sh;
        int r = k->step(k, ws, err);
        if (r <= 0) { free(ws); if (r < 0) return -1; continue; }
        out->warps[i].more = 1;
        out->warps[i].gen = ws;
        out->warps[i].gen_free = free;
    }
    return 0;
}

static int rw_gen_more(void *self, uint64_t block, uint32_t warp, gms_warp_trace *wt, gms_error *err)
{
    const rw_kernel *k = self;
    rw_wgen *ws = wt->gen;
    ws->x.e.w = wt;
    return k->step(k, ws, err);
}

void rw_launch(gms_program *p, const char *name, const rw_kernel *k, uint32_t shmem, uint32_t regs)
{
    gms_kernel_src ks;
    memset(&ks, 0, sizeof ks);
    snprintf(ks.name, sizeof ks.name, "%s", name);
    ks.grid = k->grid;
    ks.block = k->block;
    ks.shmem_bytes = shmem;
    ks.regs_per_thread = regs;
    ks.fill_block = k->step ? rw_gen_fill : rw_fill;
    ks.fill_warp_more = k->step ? rw_gen_more : NULL;
    ks.release = free;
    rw_kernel *c = gms_xmalloc(sizeof *c);
    *c = *k;
    c->chunk = wl_gen_chunk(p);
    c->sh = p->shadow;
    if (c->wsize < sizeof(rw_wgen)) c->wsize = sizeof(rw_wgen);
    ks.self = c;
    gms_prog_launch(p, &ks);
}

void rw_buf_new(rw_buf *b, uint64_t bytes)
{
    b->h = gms_xcalloc(1, bytes ? bytes : 1);
    b->bytes = bytes;
    b->d = 0;
}

void rw_buf_free(rw_buf *b)
{
    free(b->h);
    b->h = NULL;
}

void rw_buf_alloc(gms_program *p, rw_buf *b, const char *name, int upload)
{
    b->d = gms_prog_alloc(p, b->bytes, name);
    if (upload) rw_buf_upload(p, b);
}

void rw_buf_upload(gms_program *p, const rw_buf *b)
{
    gms_prog_copy_h2d(p, b->d, b->bytes);
    wl_sh_init(p, b->d, b->h, b->bytes);
}

void rw_pool_restart(rw_pool *pool)
{
    for (size_t i = 0; i < pool->n; i++) pool->e[i].used = 0;
}

int rw_rerun(void *owner, uint64_t *rep, uint64_t repeat, rw_pool *pool,
             int (*drive)(void *owner, gms_program *p, gms_error *err), void (*rebuild)(void *owner),
             gms_program *p, gms_error *err)
{
    for (;;) {
        int rc = drive(owner, p, err);
        if (rc || *rep + 1 >= repeat) return rc;
        rebuild(owner);
        rw_pool_restart(pool);
        (*rep)++;
    }
}

void rw_pool_free(rw_pool *pool)
{
    free(pool->e);
    memset(pool, 0, sizeof *pool);
}

void rw_buf_alloc_in(gms_program *p, rw_pool *pool, rw_buf *b, const char *name, int upload)
{
    if (!pool) {
        rw_buf_alloc(p, b, name, upload);
        return;
    }
    /* first free fit in allocation order: a repetition that allocates like the previous ones
     * (the same names, sizes and order) gets exactly their allocations back */
    for (size_t i = 0; i < pool->n; i++) {
        rw_pool_ent *e = &pool->e[i];
        if (e->used || e->bytes < b->bytes || strncmp(e->name, name, sizeof e->name - 1)) continue;
        e->used = 1;
        b->d = e->d;
        if (upload) rw_buf_upload(p, b);
        return;
    }
    rw_buf_alloc(p, b, name, upload);
    if (pool->n == pool->cap) {
        pool->cap = pool->cap ? 2 * pool->cap : 16;
        pool->e = gms_xrealloc(pool->e, pool->cap * sizeof *pool->e);
    }
    rw_pool_ent *e = &pool->e[pool->n++];
    memset(e, 0, sizeof *e);
    snprintf(e->name, sizeof e->name, "%s", name);
    e->d = b->d;
    e->bytes = b->bytes;
    e->used = 1;
}

uint32_t rw_block_begin(gms_block_trace *out, uint32_t tpb, rw_warp *w)
{
    uint32_t nw = (tpb + 31) / 32;
    if (out->nwarps != nw) gms_block_trace_reset(out, nw);
    for (uint32_t i = 0; i < nw; i++) {
        gms_emit_begin(&w[i].e, &out->warps[i]);
        w[i].t0 = i * 32;
        w[i].mask = gms_lanes((int)(tpb - i * 32));
        w[i].sh = NULL;
    }
    return nw;
}

uint8_t rw_int(rw_warp *w, uint32_t pc, uint32_t m, uint8_t s0, uint8_t s1)
{
    return gms_emit_alu(&w->e, pc, m, GMS_OP_INT, s0, s1, GMS_REG_NONE);
}

uint8_t rw_fp(rw_warp *w, uint32_t pc, uint32_t m, uint8_t s0, uint8_t s1, uint8_t s2)
{
    return gms_emit_alu(&w->e, pc, m, GMS_OP_SP, s0, s1, s2);
}

uint8_t rw_sfu(rw_warp *w, uint32_t pc, uint32_t m, uint8_t s0)
{
    return gms_emit_alu(&w->e, pc, m, GMS_OP_SFU, s0, GMS_REG_NONE, GMS_REG_NONE);
}

void rw_bra(rw_warp *w, uint32_t pc, uint32_t m, uint8_t s0)
{
    gms_emit_alu(&w->e, pc, m, GMS_OP_BRA, s0, GMS_REG_NONE, GMS_REG_NONE);
}

uint8_t rw_ldg(rw_warp *w, uint32_t pc, uint32_t m, uint8_t width, const uint64_t a[32], uint8_t r)
{
    return gms_emit_load(&w->e, pc, m, GMS_MEM_LD_GLOBAL, width, a, r);
}

void rw_stg(rw_warp *w, uint32_t pc, uint32_t m, uint8_t width, const uint64_t a[32], uint8_t r, uint8_t d)
{
    gms_emit_store(&w->e, pc, m, GMS_MEM_ST_GLOBAL, width, a, r, d);
}

uint8_t rw_lds(rw_warp *w, uint32_t pc, uint32_t m, uint8_t width, const uint64_t a[32], uint8_t r)
{
    return gms_emit_load(&w->e, pc, m, GMS_MEM_LD_SHARED, width, a, r);
}

void rw_sts(rw_warp *w, uint32_t pc, uint32_t m, uint8_t width, const uint64_t a[32], uint8_t r, uint8_t d)
{
    gms_emit_store(&w->e, pc, m, GMS_MEM_ST_SHARED, width, a, r, d);
}

uint8_t rw_atomg(rw_warp *w, uint32_t pc, uint32_t m, uint8_t width, const uint64_t a[32], uint8_t r, uint8_t d)
{
    return gms_emit_atomic(&w->e, pc, m, GMS_MEM_ATOM_GLOBAL, width, a, r, d);
}

uint8_t rw_prologue(rw_warp *w, uint32_t m)
{
    uint8_t tid = rw_int(w, 0x0, m, GMS_REG_NONE, GMS_REG_NONE);   /* S2R SR_TID */
    uint8_t cta = rw_int(w, 0x8, m, GMS_REG_NONE, GMS_REG_NONE);   /* S2R SR_CTAID */
    return rw_int(w, 0x10, m, cta, tid);                            /* IMAD */
}

uint32_t rw_guard_1d(rw_warp *w, uint64_t first, uint64_t n, uint8_t *ri, uint8_t *c)
{
    uint32_t act = 0;
    *ri = rw_prologue(w, w->mask);
    RW_LANES(w, w->mask, l, t) if (first + t < n) act |= 1u << l;
    *c = rw_int(w, 0x18, w->mask, *ri, GMS_REG_NONE);
    rw_bra(w, 0x20, w->mask, *c);
    return act;
}

void rw_exit(rw_warp *w, uint32_t m) { gms_emit_exit(&w->e, 0xfff0, m); }

void rw_bar(rw_warp *w, uint32_t nw, uint32_t pc)
{
    for (uint32_t i = 0; i < nw; i++) gms_emit_bar(&w[i].e, pc);
}

/* the lanes of warp x whose thread computed a cell */
static uint32_t computed_lanes(const rw_warp *x, const int *computed)
{
    uint32_t m = 0;
    RW_LANES(x, x->mask, l, t) if (computed[t]) m |= 1u << l;
    return m;
}

void rw_pyramid_copy(rw_warp *W, uint32_t nw, const int *computed, uint32_t pc, uint64_t from, uint64_t to)
{
    for (uint32_t w = 0; w < nw; w++) {
        rw_warp *x = &W[w];
        uint32_t m = computed_lanes(x, computed);
        uint64_t af[32], at[32];
        RW_LANES(x, m, l, t) {
            af[l] = from + 4 * (uint64_t)t;
            at[l] = to + 4 * (uint64_t)t;
        }
        rw_bra(x, pc, x->mask, GMS_REG_NONE);
        uint8_t v = rw_lds(x, pc + 0x8, m, 4, af, GMS_REG_NONE);
        rw_sts(x, pc + 0x10, m, 4, at, GMS_REG_NONE, v);
    }
    rw_bar(W, nw, pc + 0x18);
}

void rw_pyramid_store(rw_warp *W, uint32_t nw, const int *computed, uint32_t pc, uint64_t from,
                      const uint64_t *gaddr, const uint8_t *ri)
{
    rw_pyramid_store_v(W, nw, computed, pc, from, gaddr, ri, NULL);
}

void rw_pyramid_store_v(rw_warp *W, uint32_t nw, const int *computed, uint32_t pc, uint64_t from,
                        const uint64_t *gaddr, const uint8_t *ri, const uint32_t *vals)
{
    for (uint32_t w = 0; w < nw; w++) {
        rw_warp *x = &W[w];
        uint32_t m = computed_lanes(x, computed);
        uint64_t af[32], ag[32];
        RW_LANES(x, m, l, t) {
            af[l] = from + 4 * (uint64_t)t;
            ag[l] = gaddr[t];
        }
        rw_bra(x, pc, x->mask, GMS_REG_NONE);
        uint8_t v = rw_lds(x, pc + 0x8, m, 4, af, GMS_REG_NONE);
        rw_stg(x, pc + 0x10, m, 4, ag, ri[w], v);
        if (vals) WL_SH_ST(x, m, uint32_t, vals[x->t0 + (uint32_t)l]);
        rw_exit(x, x->mask);
    }
}

int rw_pyramid_launches(gms_program *p, rw_kernel *k, const char *name, uint64_t steps, uint64_t pyramid,
                        uint32_t shmem, uint32_t regs, int sync_each)
{
    int src = 1, dst = 0;
    for (uint64_t t = 0; t < steps; t += pyramid) {
        int tmp = src;
        src = dst;
        dst = tmp;
        k->i[0] = (int64_t)(pyramid < steps - t ? pyramid : steps - t);
        k->i[1] = src;
        k->i[2] = dst;
        k->i[3] = (int64_t)t;
        rw_launch(p, name, k, shmem, regs);
        if (sync_each) gms_prog_sync(p);
    }
    return dst;
}

int rw_param(const gms_wl_args *a, const char *name, uint64_t lo, uint64_t hi, uint64_t *out,
             gms_error *err)
{
    *out = 0;   /* written on every path */
    if (gms_wl_check_range(a, name, lo, hi, err)) return -1;
    *out = gms_wl_u64(a, name);
    return 0;
}

int rw_scaled(const gms_wl_args *a, const char *wl, const char *name, uint64_t mult, uint64_t max,
              uint64_t *out, gms_error *err)
{
    double sc = gms_wl_f64(a, "scale");
    if (!(sc > 0) || !isfinite(sc))
        return gms_err(err, "workload %s: parameter scale=%s must be a positive number", wl,
                       gms_wl_str(a, "scale"));
    double v = (double)gms_wl_u64(a, name) * sc;
    if (v > (double)max)
        return gms_err(err, "workload %s: %s=%s scaled by scale=%s is %.0f, above the limit %llu", wl,
                       name, gms_wl_str(a, name), gms_wl_str(a, "scale"), v, (unsigned long long)max);
    uint64_t u = (uint64_t)v;
    if (mult > 1) u = u / mult * mult;
    if (u == 0)
        return gms_err(err, "workload %s: %s=%s scaled by scale=%s is zero%s", wl, name,
                       gms_wl_str(a, name), gms_wl_str(a, "scale"),
                       mult > 1 ? " after rounding down to a multiple of its granule" : "");
    *out = u;
    return 0;
}

int rw_cmp_f(const char *wl, const char *what, const float *got, const float *ref, uint64_t n,
             double tol, gms_error *err)
{
    for (uint64_t i = 0; i < n; i++) {
        double g = got[i], r = ref[i];
        double d = fabs(g - r), s = fabs(r) > 1 ? fabs(r) : 1;
        if (!(d <= tol * s))
            return gms_err(err, "workload %s: %s[%llu] = %.9g, reference %.9g", wl, what,
                           (unsigned long long)i, g, r);
    }
    return 0;
}

int rw_cmp_i(const char *wl, const char *what, const int32_t *got, const int32_t *ref, uint64_t n,
             gms_error *err)
{
    for (uint64_t i = 0; i < n; i++)
        if (got[i] != ref[i])
            return gms_err(err, "workload %s: %s[%llu] = %d, reference %d", wl, what,
                           (unsigned long long)i, got[i], ref[i]);
    return 0;
}
