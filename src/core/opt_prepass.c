#include "core/opt_prepass.h"
#include "config/params.h"
#include "frontend/program.h"
#include "frontend/trace.h"
#include "frontend/warp_refill.h"
#include "uvm/opt_bound.h"
#include "workloads/workload.h"
#include <stdlib.h>

typedef struct range { uint64_t base, end; uint32_t first; } range;   /* a managed allocation */

typedef struct walk {
    uint32_t shift;
    range *r; size_t nr, cap_r;
    uint32_t npages;
    uint32_t *refs; size_t n, cap;
    uint32_t inst[64]; uint32_t ninst;   /* the pages of the current instruction */
} walk;

static void add_range(walk *w, uint64_t base, uint64_t bytes)
{
    uint64_t np = (bytes + (1ULL << w->shift) - 1) >> w->shift;
    if (!np) return;
    if (w->nr == w->cap_r) w->r = gms_xrealloc(w->r, (w->cap_r = w->cap_r ? 2 * w->cap_r : 16) * sizeof *w->r);
    /* kept sorted by base (the bump allocator hands out increasing addresses; insertion for others) */
    size_t i = w->nr++;
    while (i > 0 && w->r[i - 1].base > base) { w->r[i] = w->r[i - 1]; i--; }
    w->r[i] = (range){ base >> w->shift, (base >> w->shift) + np, w->npages };
    w->npages += (uint32_t)np;
}

/* the dense page of virtual page vpn, or UINT32_MAX outside managed memory */
static uint32_t page_of(const walk *w, uint64_t vpn)
{
    size_t lo = 0, hi = w->nr;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (w->r[mid].end <= vpn) lo = mid + 1; else hi = mid;
    }
    return lo < w->nr && w->r[lo].base <= vpn ? w->r[lo].first + (uint32_t)(vpn - w->r[lo].base) : UINT32_MAX;
}

static void touch(walk *w, uint64_t addr)
{
    uint32_t p = page_of(w, addr >> w->shift);
    if (p == UINT32_MAX) return;
    for (uint32_t i = 0; i < w->ninst; i++)
        if (w->inst[i] == p) return;
    if (w->ninst < 64) w->inst[w->ninst++] = p;
    if (w->n && w->refs[w->n - 1] == p) return;   /* consecutive repeats never fault */
    if (w->n == w->cap) w->refs = gms_xrealloc(w->refs, (w->cap = w->cap ? 2 * w->cap : 1 << 16) * sizeof *w->refs);
    w->refs[w->n++] = p;
}

/* the accesses the timed run translates (sm.c): shared, constant and texture ones are timed
 * in the LSU and never reach the TLB */
static int translated(uint8_t mem)
{
    switch (mem) {
    case GMS_MEM_LD_GLOBAL: case GMS_MEM_ST_GLOBAL: case GMS_MEM_LD_LOCAL: case GMS_MEM_ST_LOCAL:
    case GMS_MEM_ATOM_GLOBAL: case GMS_MEM_LDGSTS: return 1;
    default: return 0;
    }
}

static int chunk(void *ud, uint32_t warp, const gms_warp_trace *wt)
{
    (void)warp;
    walk *w = ud;
    for (uint32_t i = 0; i < wt->n; i++) {
        const gms_inst *in = &wt->insts[i];
        if (!translated(in->mem) || in->addr_mode == GMS_ADDR_NONE || !w->nr) continue;
        w->ninst = 0;
        uint32_t lanes = (uint32_t)__builtin_popcount(in->mask);
        uint64_t last = in->width ? in->width - 1u : 0;
        for (uint32_t l = 0; l < lanes; l++) {
            uint64_t a;
            if (in->addr_mode == GMS_ADDR_STRIDE) a = in->base + (uint64_t)((int64_t)l * in->stride);
            else if (in->base + l < wt->naddr) a = wt->addrs[in->base + l];
            else break;
            touch(w, a);
            if (last && ((a + last) >> w->shift) != (a >> w->shift)) touch(w, a + last);
        }
    }
    return 0;
}

/* the whole program, functionally (kernels filled: later host steps may read their results) */
static int run(gms_program_src *src, gms_program *prog, walk *w, gms_error *err)
{
    gms_block_trace bt = {0};
    int rc = 0;
    for (;;) {
        int r = src->next(src->self, prog, err);
        if (r < 0) { rc = -1; break; }
        if (r == 0 && prog->head == prog->n) break;
        gms_cmd *c;
        while (rc == 0 && (c = gms_prog_pop(prog))) {
            if (c->kind == GMS_CMD_ALLOC && c->managed) add_range(w, c->addr, c->bytes);
            if (c->kind != GMS_CMD_LAUNCH) continue;
            gms_kernel_src *k = &c->kernel;
            uint64_t nb = gms_dim3_count(k->grid);
            uint32_t nw = (uint32_t)((gms_dim3_count(k->block) + 31) / 32);
            for (uint64_t b = 0; b < nb && rc == 0; b++) {
                gms_block_trace_reset(&bt, nw);
                bt.x = (uint32_t)(b % k->grid.x);
                bt.y = (uint32_t)(b / k->grid.x % k->grid.y);
                bt.z = (uint32_t)(b / ((uint64_t)k->grid.x * k->grid.y));
                if (k->fill_block(k->self, b, &bt, err) || gms_block_drain(k, &bt, chunk, w, err)) rc = -1;
            }
            if (k->release) k->release(k->self);
            k->release = NULL;
        }
        if (rc || r == 0) break;
    }
    gms_block_trace_free(&bt);
    return rc;
}

int gms_opt_prepass(gms_uvm *u, const gms_params *p, const gms_workload_spec *w, gms_error *err)
{
    if (!u || !p->uvm.opt_bound) return 0;
    if (w->program)
        return gms_err(err, "-gms_uvm_opt_bound: needs a built-in workload or a trace (a program source cannot be walked twice)");
    walk wk = { .shift = (uint32_t)__builtin_ctzll(p->uvm.page_size) };
    gms_program prog;
    gms_program_init(&prog);
    gms_program_src src = {0};
    gms_wl_args *a = NULL;
    const gms_workload_ops *ops = NULL;
    void *st = NULL;
    int rc;
    if (w->trace) {
        rc = gms_trace_program(w->trace, &src, err);
    } else {
        ops = gms_workload_find(w->workload ? w->workload : "stream");
        if (!ops) { gms_program_free(&prog); return 0; }   /* the timed run reports it */
        rc = gms_wl_args_parse(ops, w->wl_params, w->seed ? w->seed : p->sim.seed, &a, err);
        if (rc == 0) {
            gms_wl_args_quiet(a);   /* the timed run says what was clamped */
            prog.uvm = gms_wl_uvm(a);
            prog.prefetch = gms_wl_prefetch(a);
            prog.chunk = gms_wl_chunk(a);
            rc = gms_workload_program(ops, a, &src, &st, err);
        }
    }
    if (rc == 0) {
        rc = run(&src, &prog, &wk, err);
        src.destroy(src.self);
        if (ops) ops->destroy(st);
    }
    gms_program_free(&prog);
    gms_wl_args_free(a);
    free(wk.r);
    if (rc) { free(wk.refs); return -1; }
    gms_uvm_set_opt_refs(u, wk.refs, wk.n, wk.npages);
    return 0;
}
