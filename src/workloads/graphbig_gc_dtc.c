/* GC-DTC (GraphBIG gpu_GraphColoring, gc_data_thread_centric.cu): graph coloring,
 * data-driven, thread-centric: thread tid takes item tid of the in-worklist (at first every
 * vertex); a vertex that must wait is pushed to the out-worklist (atomicAdd on its end). The
 * host swaps the lists, reads the new size and clears the other, and sizes the next grid by
 * it (min(size, 1024) threads a block), until the list is empty. GraphBIG allocates
 * WORKLIST_SIZE = 8777216 items a list; here a list holds the vertex count, which no round
 * exceeds. */
#include "workloads/graphbig_util.h"

enum { VPL = GB_FIRST, RND, W1, W1E, W2, W2E };
static const char *const names[] = {"vproplist", "randlist", "worklist1", "worklist1_end", "worklist2",
                                    "worklist2_end"};

static uint64_t bytes(int i, uint64_t nv, uint64_t ne, const gms_wl_args *a)
{
    (void)ne;
    (void)a;
    static const int per[] = {4, 4, 8, 0, 8, 0};
    return per[i] ? per[i] * nv : 4;
}

static int run(gb *s, gms_program *p, gms_error *err)
{
    (void)err;
    int in = s->it % 2 ? W2 : W1, out = s->it % 2 ? W1 : W2;
    uint32_t n;
    if (s->phase == 0) {
        gb_init_inf(p, s, VPL);
        /* worklist init (end = 0 each), host_initPush of every vertex, randlist */
        GB_U32(s, W2E)[0] = 0;
        gb_h2d(p, s, W2E, 0, 4);
        for (uint64_t v = 0; v < s->g.nv; v++) GB_U64(s, W1)[v] = v;
        GB_U32(s, W1E)[0] = (uint32_t)s->g.nv;
        gb_h2d(p, s, W1E, 0, 4);
        gb_h2d(p, s, W1, 0, 8 * s->g.nv);
        gb_h2d(p, s, RND, 0, 4 * s->g.nv);
        s->it = 0;
        in = W1;
        out = W2;
        n = (uint32_t)s->g.nv;
        s->phase = 1;
    } else if (!(n = gb_worklist_turn(p, s, in, out))) {
        return 0;
    }
    uint32_t tpb = gb_worklist_tpb(n);
    int64_t i[7] = {s->it++, 1, VPL, RND, VPL, in, out};
    gb_launch_tpb(p, s, "kernel", gb_gc_step, (n + tpb - 1) / tpb, tpb, i, 7);
    gb_d2h(p, s, out + 1, 0, 4);
    gms_prog_sync(p);
    return 1;
}

static const gb_algo algo = {"gc-dtc", 6, names, bytes, gb_gc_setup, run, gb_gc_check, gb_free_x};
static const gms_wl_param params[] = {GB_PARAMS, {NULL, NULL, NULL}};
GB_WORKLOAD(gms_wl_gb_gc_dtc, "gc-dtc", algo, params,
            "GraphBIG graph coloring, data-driven thread-centric (worklist of uncoloured vertices)");
