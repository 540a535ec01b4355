#include "core/footprint_prepass.h"
#include "config/params.h"
#include "frontend/program.h"
#include "frontend/warp_refill.h"
#include "workloads/workload.h"

static int ignore_chunk(void *ud, uint32_t warp, const gms_warp_trace *wt) { (void)ud; (void)warp; (void)wt; return 0; }

/* the managed bytes program `src` allocates over its whole run; 0, or -1 with err */
static int managed_bytes(gms_program_src *src, gms_program *prog, uint64_t *bytes, gms_error *err)
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
                if (k->fill_block(k->self, b, &bt, err) || gms_block_drain(k, &bt, ignore_chunk, NULL, err)) rc = -1;
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
    if (!u || !(p->uvm.oversub_ratio > 0) || p->uvm.gddr_size || w->program || w->trace) return 0;
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
    int rc = gms_workload_program(ops, a, &src, &st, err);
    if (rc == 0) {
        rc = managed_bytes(&src, &prog, &bytes, err);
        src.destroy(src.self);
        ops->destroy(st);
    }
    gms_program_free(&prog);
    gms_wl_args_free(a);
    if (rc == 0) gms_uvm_plan_footprint(u, bytes);
    return rc;
}
