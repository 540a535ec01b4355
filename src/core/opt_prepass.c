#include "core/opt_prepass.h"
#include "config/params.h"
#include "core/resident_walk.h"
#include "core/sm.h"
#include "core/walk_faults.h"
#include "frontend/program.h"
#include "frontend/trace.h"
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
    const gms_uvm *u;                    /* for the capacity (NULL: frames) */
    uint64_t frames;
    uint64_t managed_bytes, device_bytes;
    gms_walk_faults *flt;                /* created at the first launch, with the capacity */
    int resident;                        /* the order: GMS_OPT_RESIDENT or GMS_OPT_SERIAL */
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

/* one instruction of the walk: in the resident order a translated access is the warp's step
 * and waits on far faults; in the serial order a warp goes on to its next barrier */
static int inst(void *ud, gms_walk_warp h, const gms_warp_trace *wt, const gms_inst *in)
{
    walk *w = ud;
    /* serially a resumable warp yields after each buffered piece, as gms_block_drain has it */
    int yield = !w->resident && wt->more && in == &wt->insts[wt->n - 1];
    if (!translated(in->mem) || in->addr_mode == GMS_ADDR_NONE) return yield;
    w->ninst = 0;
    uint32_t lanes = w->nr ? (uint32_t)__builtin_popcount(in->mask) : 0;
    uint64_t last = in->width ? in->width - 1u : 0;
    for (uint32_t l = 0; l < lanes; l++) {
        uint64_t a;
        if (in->addr_mode == GMS_ADDR_STRIDE) a = in->base + (uint64_t)((int64_t)l * in->stride);
        else if (in->base + l < wt->naddr) a = wt->addrs[in->base + l];
        else break;
        touch(w, a);
        if (last && ((a + last) >> w->shift) != (a >> w->shift)) touch(w, a + last);
    }
    if (!w->resident) return yield;
    gms_walk_faults_access(w->flt, h, w->inst, w->ninst);
    return 1;
}

static int service(void *ud) { return gms_walk_faults_service(((walk *)ud)->flt); }

/* the whole program, functionally (kernels filled: later host steps may read their results).
 * Resident: each kernel's blocks resident and its warps interleaved as on the GPU p describes
 * (core/resident_walk.h), warps waiting on far faults (core/walk_faults.h). Serial: one block
 * at a time, warp after warp up to each barrier (the only order before; a warp looping over
 * more pages than fit makes the next warp's identical loop thrash even for MIN, where on the
 * GPU the warps share each page: hybridsort at 75%, MIN 9040 faults against LRU's 2312) */
static int run(gms_program_src *src, gms_program *prog, const gms_params *p, walk *w, gms_error *err)
{
    int rc = 0;
    for (;;) {
        int r = src->next(src->self, prog, err);
        if (r < 0) { rc = -1; break; }
        if (r == 0 && prog->head == prog->n) break;
        gms_cmd *c;
        while (rc == 0 && (c = gms_prog_pop(prog))) {
            if (c->kind == GMS_CMD_ALLOC && c->managed) { add_range(w, c->addr, c->bytes); w->managed_bytes += c->bytes; }
            if (c->kind == GMS_CMD_ALLOC && !c->managed) w->device_bytes += (c->bytes + (1ULL << w->shift) - 1) >> w->shift << w->shift;
            if (c->kind != GMS_CMD_LAUNCH && c->kind != GMS_CMD_PREFETCH) continue;
            /* the capacity is fixed at the first launch or prefetch, from what is allocated then */
            if (!w->flt) w->flt = gms_walk_faults_new(w->u ? gms_uvm_capacity_preview(w->u, w->managed_bytes, w->device_bytes) : w->frames);
            if (c->kind != GMS_CMD_LAUNCH) continue;
            gms_kernel_src *k = &c->kernel;
            uint64_t tpb = gms_dim3_count(k->block);
            /* 0 (does not fit) is the timed run's error to report; the walk takes one */
            uint32_t occ = tpb && tpb <= 1024 ? gms_occupancy(&p->core, (uint32_t)tpb, k->regs_per_thread, k->shmem_bytes) : 1;
            rc = w->resident ? gms_walk_resident(k, p->core.n_sm, occ, inst, service, w, err)
                             : gms_walk_resident(k, 1, 1, inst, NULL, w, err);
            if (k->release) k->release(k->self);
            k->release = NULL;
        }
        if (rc || r == 0) break;
    }
    return rc;
}

int gms_opt_walk(gms_program_src *src, gms_program *prog, const gms_params *p, int order, const gms_uvm *u,
                 uint64_t cap, uint32_t **refs, size_t *n, uint32_t *npages, gms_error *err)
{
    walk wk = { .shift = (uint32_t)__builtin_ctzll(p->uvm.page_size), .u = u, .frames = cap,
                .resident = order == GMS_OPT_RESIDENT };
    int rc = run(src, prog, p, &wk, err);
    free(wk.r);
    gms_walk_faults_free(wk.flt);
    if (rc) { free(wk.refs); return -1; }
    *refs = wk.refs;
    *n = wk.n;
    *npages = wk.npages;
    return 0;
}

/* one walk of the program w names, in `order` */
static int walk_program(const gms_uvm *u, const gms_params *p, const gms_workload_spec *w, int order, uint32_t **refs,
                        size_t *n, uint32_t *npages, gms_error *err)
{
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
        if (!ops) { gms_program_free(&prog); return 1; }   /* the timed run reports it */
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
        rc = gms_opt_walk(&src, &prog, p, order, u, 0, refs, n, npages, err);
        src.destroy(src.self);
        if (ops) ops->destroy(st);
    }
    gms_program_free(&prog);
    gms_wl_args_free(a);
    return rc ? -1 : 0;
}

int gms_opt_prepass(gms_uvm *u, const gms_params *p, const gms_workload_spec *w, gms_error *err)
{
    if (!u || !p->uvm.opt_bound) return 0;
    if (w->program)
        return gms_err(err, "-gms_uvm_opt_bound: needs a built-in workload or a trace (a program source cannot be walked twice)");
    uint32_t *refs[GMS_OPT_ORDERS] = {0}, npages = 0;
    size_t n[GMS_OPT_ORDERS] = {0};
    int rc = 0;
    for (int o = 0; o < GMS_OPT_ORDERS && rc == 0; o++) rc = walk_program(u, p, w, o, &refs[o], &n[o], &npages, err);
    if (rc) {   /* 1: an unknown workload, the timed run's error */
        for (int o = 0; o < GMS_OPT_ORDERS; o++) free(refs[o]);
        return rc < 0 ? -1 : 0;
    }
    gms_uvm_set_opt_refs(u, refs, n, npages);
    return 0;
}
