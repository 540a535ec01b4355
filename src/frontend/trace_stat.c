#include "frontend/warp_refill.h"
#include "frontend/trace_stat.h"
#include "frontend/trace.h"
#include <string.h>

int gms_program_walk(gms_program_src *src, gms_trace_stats *st, gms_block_fn fn, void *ud, gms_error *err)
{
    memset(st, 0, sizeof *st);
    gms_program prog;
    gms_program_init(&prog);
    gms_block_trace bt = {0};
    int rc = 0;
    for (;;) {
        int r = src->next(src->self, &prog, err);
        if (r < 0) { rc = -1; break; }
        gms_cmd *c;
        while (rc == 0 && (c = gms_prog_pop(&prog))) {
            if (c->kind == GMS_CMD_COPY_H2D) { st->copies++; st->copy_bytes += c->bytes; }
            if (c->kind != GMS_CMD_LAUNCH) continue;
            gms_kernel_src *k = &c->kernel;
            uint64_t nb = gms_dim3_count(k->grid);
            uint32_t nw = (uint32_t)((gms_dim3_count(k->block) + 31) / 32);
            st->kernels++;
            if ((uint64_t)k->stream + 1 > st->streams_max) st->streams_max = (uint64_t)k->stream + 1;
            for (uint64_t b = 0; b < nb && rc == 0; b++) {
                gms_block_trace_reset(&bt, nw);
                bt.x = (uint32_t)(b % k->grid.x);
                bt.y = (uint32_t)(b / k->grid.x % k->grid.y);
                bt.z = (uint32_t)(b / ((uint64_t)k->grid.x * k->grid.y));
                if (gms_block_fill_all(k, b, &bt, err)) { rc = -1; break; }
                st->blocks++;
                for (uint32_t w = 0; w < bt.nwarps; w++)
                    for (uint32_t i = 0; i < bt.warps[w].n; i++) {
                        const gms_inst *in = &bt.warps[w].insts[i];
                        st->warp_insts++;
                        st->thread_insts += (uint64_t)__builtin_popcount(in->mask);
                        st->mem_insts += in->op == GMS_OP_MEM && in->mem != GMS_MEM_NONE;   /* not MEMBARs */
                    }
                if (fn && rc == 0) rc = fn(ud, k, b, &bt);
            }
            if (k->release) k->release(k->self);
            k->release = NULL;
        }
        if (rc || r == 0) break;
    }
    gms_block_trace_free(&bt);
    gms_program_free(&prog);   /* releases launches still queued after an error */
    return rc;
}

int gms_trace_stat(const char *kernelslist, gms_trace_stats *st, gms_error *err)
{
    gms_program_src src;
    memset(st, 0, sizeof *st);
    if (gms_trace_program(kernelslist, &src, err)) return -1;
    int rc = gms_program_walk(&src, st, NULL, NULL, err);
    src.destroy(src.self);
    return rc;
}
