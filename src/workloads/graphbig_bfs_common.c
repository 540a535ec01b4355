/* The pieces the GraphBIG BFS variants (graphbig_bfs_*.c) share: the reference levels and
 * their check, and the host loop of the variants with one `changed` flag (TA, TTC, TWC). */
#include "workloads/graphbig_util.h"
#include <stdlib.h>

enum { VPL = GB_FIRST, CHG };   /* the arrays of the `changed` variants */

uint64_t gb_bfs_bytes(int i, uint64_t nv, uint64_t ne, const gms_wl_args *a)
{
    (void)ne;
    (void)a;
    return i == 0 ? 4 * nv : 1;
}

int gb_bfs_setup(gb *s, const gms_wl_args *a, gms_error *err)
{
    (void)a;
    (void)err;
    s->x = gms_xmalloc(4 * s->g.nv);
    gb_ref_bfs(&s->g, s->root, s->x);
    return 0;
}

void gb_bfs_check(gb *s) { gb_check_u32(s, GB_FIRST, "vproplist", s->x); }

void gb_free_x(gb *s) { free(s->x); }

int gb_bfs_changed_run(gb *s, gms_program *p, wl_step_fn step, uint32_t blocks)
{
    if (s->phase == 0) {
        gb_init_inf(p, s, VPL);
        gms_prog_sync(p);
        s->phase = 1;
        return 1;
    }
    if (s->phase == 1) {   /* after initialize has run: the root's entry (cudaMemcpy) */
        GB_U32(s, VPL)[s->root] = 0;
        gb_h2d(p, s, VPL, 4 * s->root, 4);
        s->it = 0;
        s->phase = 2;
    } else if (!gb_flag_read(s, CHG)) {
        gb_d2h(p, s, VPL, 0, 4 * s->g.nv);
        return 0;
    }
    gb_flag_set(p, s, CHG, 0);
    int64_t i[1] = {s->it++};   /* the kernel's k->arg[0]: the level */
    gb_launch(p, s, "kernel", step, blocks, i, 1);
    gb_d2h(p, s, CHG, 0, 1);
    gms_prog_sync(p);
    return 1;
}
