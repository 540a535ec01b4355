/* gms_workload_walk: functional run with warps of resident blocks interleaved round-robin */
#include "frontend/warp_refill.h"
#include "workloads/pagelog.h"
#include <stdlib.h>
#include <string.h>

typedef struct slot {
    gms_block_trace bt;
    uint32_t *pos;      /* next instruction per warp */
    uint32_t poscap;
    int live;
} slot;

static int walk_kernel(gms_kernel_src *k, uint32_t resident_warps, const gms_walk_cb *cb, slot **slots,
                       uint32_t *nslots_cap, gms_error *err)
{
    uint64_t nb = gms_dim3_count(k->grid), next = 0;
    uint32_t nw = (uint32_t)((gms_dim3_count(k->block) + 31) / 32);
    uint32_t ns = resident_warps / (nw ? nw : 1);
    if (ns == 0) ns = 1;
    if (ns > nb) ns = (uint32_t)nb;
    if (ns > *nslots_cap) {
        *slots = gms_xrealloc(*slots, sizeof **slots * ns);
        memset(*slots + *nslots_cap, 0, sizeof **slots * (ns - *nslots_cap));
        *nslots_cap = ns;
    }
    slot *S = *slots;
    uint32_t live = 0;
    for (;;) {
        /* refill free slots in block order */
        for (uint32_t i = 0; i < ns && next < nb; i++) {
            if (S[i].live) continue;
            gms_block_trace_reset(&S[i].bt, nw);
            S[i].bt.x = (uint32_t)(next % k->grid.x);
            S[i].bt.y = (uint32_t)(next / k->grid.x % k->grid.y);
            S[i].bt.z = (uint32_t)(next / ((uint64_t)k->grid.x * k->grid.y));
            if (gms_block_fill_all(k, next, &S[i].bt, err)) return -1;
            if (S[i].poscap < nw) {
                S[i].pos = gms_xrealloc(S[i].pos, sizeof *S[i].pos * nw);
                S[i].poscap = nw;
            }
            memset(S[i].pos, 0, sizeof *S[i].pos * nw);
            S[i].live = 1;
            live++;
            next++;
        }
        if (!live) break;
        /* one instruction per warp per turn */
        for (uint32_t i = 0; i < ns; i++) {
            if (!S[i].live) continue;
            int more = 0;
            for (uint32_t w = 0; w < nw; w++) {
                gms_warp_trace *wt = &S[i].bt.warps[w];
                if (S[i].pos[w] >= wt->n) continue;
                const gms_inst *in = &wt->insts[S[i].pos[w]++];
                if (in->op == GMS_OP_MEM && in->mem != GMS_MEM_NONE && cb->mem) cb->mem(cb->ctx, wt, in);
                if (S[i].pos[w] < wt->n) more = 1;
            }
            if (!more) { S[i].live = 0; live--; }
        }
    }
    return 0;
}

int gms_workload_walk(const gms_workload_ops *ops, const char *const *kv, uint64_t seed,
                      uint32_t resident_warps, const gms_walk_cb *cb, gms_error *err)
{
    gms_wl_args *a = NULL;
    if (gms_wl_args_parse(ops, kv, seed, &a, err)) return -1;
    gms_program prog;
    gms_program_init(&prog);
    prog.uvm = gms_wl_uvm(a);
    prog.prefetch = gms_wl_prefetch(a);
    gms_program_src src;
    void *st = NULL;
    int rc = -1;
    slot *slots = NULL;
    uint32_t nslots = 0;
    if (!resident_warps) resident_warps = GMS_WALK_RESIDENT_WARPS;
    if (gms_workload_program(ops, a, &src, &st, err)) goto out_args;
    for (;;) {
        int r = src.next(src.self, &prog, err);
        if (r < 0) goto out;
        gms_cmd *c;
        while ((c = gms_prog_pop(&prog))) {
            if (c->kind == GMS_CMD_ALLOC && cb->alloc) cb->alloc(cb->ctx, c);
            if (c->kind != GMS_CMD_LAUNCH) continue;
            int kr = walk_kernel(&c->kernel, resident_warps, cb, &slots, &nslots, err);
            if (c->kernel.release) c->kernel.release(c->kernel.self);
            c->kernel.release = NULL;
            if (kr) goto out;
        }
        if (r == 0) break;
    }
    rc = ops->verify ? ops->verify(st, err) : 0;
out:
    src.destroy(src.self);
    ops->destroy(st);
    for (uint32_t i = 0; i < nslots; i++) {
        gms_block_trace_free(&slots[i].bt);
        free(slots[i].pos);
    }
    free(slots);
out_args:
    gms_program_free(&prog);
    gms_wl_args_free(a);
    return rc;
}

static void log_alloc(void *ctx, const gms_cmd *c) { gms_pagelog_alloc(ctx, c->addr, c->bytes, c->name); }

static void log_mem(void *ctx, const gms_warp_trace *w, const gms_inst *in)
{
    if (in->mem != GMS_MEM_LD_GLOBAL && in->mem != GMS_MEM_ST_GLOBAL && in->mem != GMS_MEM_ATOM_GLOBAL &&
        in->mem != GMS_MEM_LDGSTS)
        return;
    uint64_t a[32];
    gms_inst_lane_addrs(w, in, a);
    gms_pagelog_lanes(ctx, a, in->mask);
}

int gms_pagelog_walk(const gms_workload_ops *ops, const char *const *kv, uint64_t seed, gms_pagelog *l,
                     gms_error *err)
{
    gms_walk_cb cb = {.ctx = l, .alloc = log_alloc, .mem = log_mem};
    return gms_workload_walk(ops, kv, seed, 0, &cb, err);
}
