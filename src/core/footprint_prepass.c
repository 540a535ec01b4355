#include "core/footprint_prepass.h"
#include "config/params.h"
#include "frontend/program.h"
#include "frontend/warp_refill.h"
#include "workloads/workload.h"
#include "util/hashmap.h"

/* -uvm_oversub_basis working-set: the managed pages the kernels' global accesses touch */
typedef struct ws_pages {
    const gms_program *prog;
    uint32_t page_shift;
    gms_u64map pages;
} ws_pages;

static int managed_addr(const gms_program *prog, uint64_t a)
{
    for (size_t i = 0; i < prog->nallocs; i++)
        if (prog->allocs[i].managed && a >= prog->allocs[i].addr && a - prog->allocs[i].addr < prog->allocs[i].bytes)
            return 1;
    return 0;
}

static int touch_chunk(void *ud, uint32_t warp, const gms_warp_trace *wt)
{
    (void)warp;
    ws_pages *ws = ud;
    uint64_t a[32];
    for (uint32_t i = 0; i < wt->n; i++) {
        const gms_inst *in = &wt->insts[i];
        if (in->mem != GMS_MEM_LD_GLOBAL && in->mem != GMS_MEM_ST_GLOBAL && in->mem != GMS_MEM_ATOM_GLOBAL &&
            in->mem != GMS_MEM_LDGSTS)
            continue;
        gms_inst_lane_addrs(wt, in, a);
        /* last: the latest page known to be in the set, so the lanes after it on the same
         * page cost no lookup (a page is remembered only once in the set: a lane whose address
         * is not managed does not stand for the rest of its page) */
        uint64_t last = UINT64_MAX;
        for (int l = 0; l < 32; l++) {
            uint64_t pg = a[l] >> ws->page_shift;
            if (!a[l] || pg == last) continue;
            if (gms_u64map_get(&ws->pages, pg)) { last = pg; continue; }
            if (managed_addr(ws->prog, a[l])) { gms_u64map_put(&ws->pages, pg, 1); last = pg; }
        }
    }
    return 0;
}

static int ignore_chunk(void *ud, uint32_t warp, const gms_warp_trace *wt) { (void)ud; (void)warp; (void)wt; return 0; }

/* the managed bytes program `src` allocates over its whole run; 0, or -1 with err. With ws,
 * also the managed pages its kernels touch (ws->pages) */
static int managed_bytes(gms_program_src *src, gms_program *prog, uint64_t *bytes, ws_pages *ws, gms_error *err)
{
    gms_block_trace bt = {0};
    int rc = 0;
    *bytes = 0;
    for (;;) {
        int r = src->next(src->self, prog, err);
        if (r < 0) { rc = -1; break; }
        if (r == 0 && prog->head == prog->n) break;
        gms_cmd *c;
        while (rc == 0 && (c = gms_prog_pop(prog))) {
            if (c->kind == GMS_CMD_ALLOC && c->managed) *bytes += c->bytes;
            if (c->kind != GMS_CMD_LAUNCH) continue;
            /* the kernel is filled (its results computed) because later host steps may read them */
            gms_kernel_src *k = &c->kernel;
            uint64_t nb = gms_dim3_count(k->grid);
            uint32_t nw = (uint32_t)((gms_dim3_count(k->block) + 31) / 32);
            for (uint64_t b = 0; b < nb && rc == 0; b++) {
                gms_block_trace_reset(&bt, nw);
                bt.x = (uint32_t)(b % k->grid.x);
                bt.y = (uint32_t)(b / k->grid.x % k->grid.y);
                bt.z = (uint32_t)(b / ((uint64_t)k->grid.x * k->grid.y));
                if (k->fill_block(k->self, b, &bt, err) ||
                    gms_block_drain(k, &bt, ws ? touch_chunk : ignore_chunk, ws, err))
                    rc = -1;
            }
            if (k->release) k->release(k->self);
        }
        if (rc || r == 0) break;
    }
    gms_block_trace_free(&bt);
    return rc;
}

int gms_footprint_prepass(gms_uvm *u, const gms_params *p, const gms_workload_spec *w, gms_error *err)
{
    if (!u || !(p->uvm.oversub_ratio > 0) || p->uvm.gddr_size) return 0;
    if (p->uvm.oversub_ws && (w->program || w->trace))
        return gms_err(err, "-uvm_oversub_basis working-set: needs a built-in workload (the pages a trace or an "
                       "embedded program touches are not known before it runs); use footprint");
    if (w->program || w->trace) return 0;
    const gms_workload_ops *ops = gms_workload_find(w->workload ? w->workload : "stream");
    if (!ops) return 0;   /* the timed run reports it */
    gms_wl_args *a = NULL;
    if (gms_wl_args_parse(ops, w->wl_params, w->seed ? w->seed : p->sim.seed, &a, err)) return -1;
    gms_wl_args_quiet(a);   /* the timed run says what was clamped */
    gms_program prog;
    gms_program_init(&prog);
    prog.uvm = gms_wl_uvm(a);
    prog.prefetch = gms_wl_prefetch(a);
    prog.chunk = gms_wl_chunk(a);
    gms_program_src src;
    void *st = NULL;
    uint64_t bytes = 0;
    ws_pages ws = { &prog, p->uvm.page_shift, {0} };
    if (p->uvm.oversub_ws) gms_u64map_init(&ws.pages, 1024);
    int rc = gms_workload_program(ops, a, &src, &st, err);
    if (rc == 0) {
        rc = managed_bytes(&src, &prog, &bytes, p->uvm.oversub_ws ? &ws : NULL, err);
        src.destroy(src.self);
        ops->destroy(st);
    }
    gms_program_free(&prog);
    gms_wl_args_free(a);
    if (rc == 0 && p->uvm.oversub_ws) {
        /* at least one page, so that a program touching nothing managed still runs */
        uint64_t n = ws.pages.n ? ws.pages.n : 1;
        gms_uvm_plan_working_set(u, n << ws.page_shift);
    } else if (rc == 0) {
        gms_uvm_plan_footprint(u, bytes);
    }
    if (p->uvm.oversub_ws) gms_u64map_free(&ws.pages);
    return rc;
}
