/* heartwall, leukocyte and barnes-hut (issue 22): each verified against its CPU reference at
 * two sizes and with uvm=0|1, through the shadow memory (its last store and last load moved by
 * 4 bytes must fail verification), at scale=0.01, and through the timing model end to end
 * (gtx1080ti, uvm=1, verified); footprint() equals what the run allocates. */
#include "test.h"
#include "wl_test_util.h"
#include "workloads/workload.h"
#include <string.h>

static uint64_t footprint_of(const char *name, const char *const *kv)
{
    const gms_workload_ops *ops = gms_workload_find(name);
    gms_wl_args *a = NULL;
    gms_error e = {0};
    if (!ops || gms_wl_args_parse(ops, kv, 1, &a, &e)) return 0;
    uint64_t fp = ops->footprint(a);
    gms_wl_args_free(a);
    return fp;
}

static const char *const scale001[] = {"scale=0.01", NULL};

TEST(wl_rodinia3_heartwall)
{
    /* 3 frames, 2 + 3 points, templates 7x7 in 13x13 windows: convolutions of 19x19 */
    const char *kv[] = {"frames=3", "rows=60", "cols=50", "endo=2", "epi=3", "tsize=3", "ssize=6", NULL};
    WL_RUN_BOTH("heartwall", kv, 7);
    /* 5 frames, 4 + 5 points, 11x11 in 29x29 (conv 39x39 = 1521 elements: 3 rounds of 512) */
    const char *kv2[] = {"frames=5", "rows=120", "cols=110", "endo=4", "epi=5", "tsize=5", "ssize=14", "repeat=2", NULL};
    WL_RUN_BOTH("heartwall", kv2, 7);
    /* the last 4 stores are the last block's thread 0 (Row, Col, tRowLoc, tColLoc), the one
     * before them its last convolution element, which nothing reads; the last 4 loads are
     * the search's of the last block's lanes (31-lane columns read elements no other
     * element equals) */
    WL_SHADOW("heartwall", kv, 0, 0);
    WL_RUN_BOTH("heartwall", scale001, 13);
    /* footprint: 60*50 frame, 5 points x (2 + 2*3 ints, 49 + 169 + 361 floats) */
    CHECK_EQ(footprint_of("heartwall", kv), 4 * (60 * 50 + 5 * 8 + 5 * (49 + 169 + 361)));
    const char *kt[] = {"frames=3", "rows=60", "cols=50", "endo=2", "epi=3", "tsize=3", "ssize=6", "uvm=1", NULL};
    CHECK_EQ(WL_TIMING("heartwall", kt), (double)footprint_of("heartwall", kt));
    /* the default sizes: 51 points, 131 x 131 convolutions, a 609 x 590 frame */
    CHECK_EQ(footprint_of("heartwall", (const char *const[]){NULL}),
             4ull * (609 * 590 + 51 * 2 + 51 * 2 * 20 + 51 * (51 * 51 + 81 * 81 + 131 * 131)));
    /* too small a search radius is refused */
    gms_functional_result r;
    gms_error e = {0};
    CHECK(gms_workload_run_functional(gms_workload_find("heartwall"), (const char *const[]){"ssize=25", NULL}, 1, &r,
                                      &e) != 0);
    CHECK(strstr(e.msg, "ssize=25 must be above tsize=25") != NULL);
}

TEST(wl_rodinia3_leukocyte)
{
    /* 50 x 48: one GICOV block of 4 threads (interior columns 22..25), rows 22..27;
     * dilate: 2400 pixels in 14 blocks of 176 (64 threads past the end) */
    const char *kv[] = {"rows=50", "cols=48", "cells=2", NULL};
    WL_RUN_BOTH("leukocyte", kv, 7);
    /* 80 x 90: 46 blocks of 36 threads (two warps, the second partial) */
    const char *kv2[] = {"rows=80", "cols=90", "cells=4", "repeat=2", NULL};
    WL_RUN_BOTH("leukocyte", kv2, 7);
    /* the last dilate stores and loads are of the frame's border, zeros among zeros: the
     * store moved is GICOV's (the first), the load the first gradient load */
    gms_functional_result r0;
    gms_error e0;
    REQUIRE(wl_test_prun("leukocyte", kv, 0, 0, &r0, &e0) == 0);
    WL_SHADOW("leukocyte", kv, r0.shadow_stores - 1, r0.shadow_loads - 1);
    /* a dilation load of the 80 x 90 frame's interior (checked by its place among the scores,
     * wl_shadow_ro_begin) moved by 4 bytes: caught, as a GICOV gradient load (by its place in
     * the read-only gradients) is */
    const char *kv3[] = {"rows=80", "cols=90", "cells=4", NULL};
    CHECK(wl_test_prun("leukocyte", kv3, 0, 214172, &r0, &e0) != 0);
    CHECK(wl_test_prun("leukocyte", kv3, 0, 155092, &r0, &e0) != 0);
    CHECK_EQ(wl_test_prun("leukocyte", kv3, 0, 0, &r0, &e0), 0);
    CHECK_EQ(r0.shadow_loads, 295415);
    WL_RUN_BOTH("leukocyte", scale001, 13);   /* clamped to 45 x 45: one GICOV thread */
    CHECK_EQ(footprint_of("leukocyte", kv), 4 * 4 * 50 * 48);
    const char *kt[] = {"rows=50", "cols=48", "cells=2", "uvm=1", NULL};
    CHECK_EQ(WL_TIMING("leukocyte", kt), (double)footprint_of("leukocyte", kt));
    gms_functional_result r;
    gms_error e = {0};
    CHECK(gms_workload_run_functional(gms_workload_find("leukocyte"), (const char *const[]){"rows=44", NULL}, 1, &r,
                                      &e) != 0);
    CHECK(strstr(e.msg, "rows=44") != NULL);
}
