/* Functional runs of the GraphBIG workloads on small generated graphs (R-MAT and uniform),
 * uvm=0 and uvm=1: each verifies its result against a CPU reference (BFS levels, Dijkstra,
 * PageRank in the kernel's float order, ...) through the shadow memory, so the emitted
 * addresses are checked too. */
#include "test.h"
#include "workloads/workload.h"
#include "wl_test_util.h"
#include <string.h>

static const char *const gb_names[] = {"bfs-twc", "pr", "sssp-twc", "bfs-ttc", "bfs-ta", "bfs-tf", "gc-ttc", "gc-dtc", "kcore", "gb-bc", "bfs-dwc"};
#define NGB (sizeof gb_names / sizeof gb_names[0])

TEST(wl_graphbig_small_rmat_and_uniform)
{
    const char *kv1[] = {"vertices=600", "edges=2400", NULL};
    const char *kv2[] = {"graph=uniform", "vertices=2100", "degree=6", NULL};
    for (size_t i = 0; i < NGB; i++) {
        WL_RUN_BOTH(gb_names[i], kv1, 7);
        WL_RUN_BOTH(gb_names[i], kv2, 11);
    }
}
