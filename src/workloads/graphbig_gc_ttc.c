/* GC-TTC (GraphBIG gpu_GraphColoring, gc_topo_thread_centric.cu): graph coloring,
 * topology-driven, thread-centric: every round launches a thread per vertex (graphbig_gc.c);
 * a vertex that must wait clears `over` (stop), and the host runs rounds until one leaves
 * it set. */
#include "workloads/graphbig_util.h"

enum { VPL = GB_FIRST, RND, OVER };
static const char *const names[] = {"vproplist", "randlist", "over"};

static uint64_t bytes(int i, uint64_t nv, uint64_t ne, const gms_wl_args *a)
{
    (void)ne;
    (void)a;
    return i < 2 ? 4 * nv : 1;
}

static int run(gb *s, gms_program *p, gms_error *err)
{
    (void)err;
    if (s->phase == 0) {
        gb_init_inf(p, s, VPL);
        gb_h2d(p, s, RND, 0, 4 * s->g.nv);
        s->it = 0;
        s->phase = 1;
    } else if (gb_flag_read(s, OVER)) {
        gb_d2h(p, s, VPL, 0, 4 * s->g.nv);
        return 0;
    }
    gb_flag_set(p, s, OVER, 1);
    int64_t i[7] = {s->it++, 0, VPL, RND, OVER, 0, 0};
    gb_launch(p, s, "kernel", gb_gc_step, gb_blocks(s, s->g.nv), i, 7);
    gb_d2h(p, s, OVER, 0, 1);
    gms_prog_sync(p);
    return 1;
}


static const gb_algo algo = {"gc-ttc", 3, names, bytes, gb_gc_setup, run, gb_gc_check, gb_free_x};
static const gms_wl_param params[] = {GB_PARAMS, {NULL, NULL, NULL}};
GB_WORKLOAD(gms_wl_gb_gc_ttc, "gc-ttc", algo, params,
            "GraphBIG graph coloring, topology-driven thread-centric (Jones-Plassmann, a thread per vertex)");
