/* Functional runs of the Rodinia half of UVMBench at small sizes: each computes its result
 * while emitting addresses, and verify() compares it with a CPU implementation. */
#include "test.h"
#include "workloads/workload.h"
#include "wl_test_util.h"


TEST(wl_rodinia_backprop)
{
    const char *kv[] = {"input=256", NULL};
    WL_RUN_BOTH("backprop", kv, 7);
    const char *kv2[] = {"input=512", "repeat=2", NULL};
    WL_RUN("backprop", kv2, 7);
}

TEST(wl_rodinia_hotspot)
{
    const char *kv[] = {"rows=40", "pyramid=2", "sim_time=6", NULL};
    WL_RUN_BOTH("hotspot", kv, 7);
    const char *kv2[] = {"rows=37", "pyramid=3", "sim_time=3", "repeat=2", NULL};
    WL_RUN("hotspot", kv2, 7);
}

TEST(wl_rodinia_pathfinder)
{
    const char *kv[] = {"cols=1000", "rows=30", "pyramid=4", NULL};
    WL_RUN_BOTH("pathfinder", kv, 7);
    const char *kv2[] = {"cols=300", "rows=9", "pyramid=20", NULL};
    WL_RUN("pathfinder", kv2, 7);
}

TEST(wl_rodinia_bfs)
{
    const char *kv[] = {"vertices=3000", "edges=5000", NULL};
    WL_RUN_BOTH("bfs", kv, 7);
    /* Rodinia text format: 4 nodes, path 0-1-2, node 3 isolated */
    const char *path = "/tmp/gms_test_bfs_graph.txt";
    FILE *f = fopen(path, "w");
    REQUIRE(f);
    fprintf(f, "4\n0 1\n1 2\n3 1\n4 0\n\n0\n\n4\n1 1\n0 1\n2 1\n1 1\n");
    fclose(f);
    const char *kv2[] = {"graph=/tmp/gms_test_bfs_graph.txt", NULL};
    WL_RUN("bfs", kv2, 7);
    f = fopen(path, "w");
    REQUIRE(f);
    fprintf(f, "4\n0 1\n1 2\n3 1\n4 0\n\n0\n\n4\n1 1\n0 1\nx\n1 1\n");
    fclose(f);
    gms_functional_result r;
    gms_error e = {0};
    CHECK(gms_workload_run_functional(gms_workload_find("bfs"), kv2, 1, &r, &e) != 0);
    CHECK_CONTAINS(e.msg, "gms_test_bfs_graph.txt:12");
    remove(path);
}

TEST(wl_rodinia_gaussian)
{
    const char *kv[] = {"size=37", NULL};
    WL_RUN_BOTH("gaussian", kv, 7);
}

TEST(wl_rodinia_nw)
{
    const char *kv[] = {"dim=64", NULL};
    WL_RUN_BOTH("nw", kv, 7);
    const char *kv2[] = {"dim=32", "penalty=3", "repeat=2", NULL};
    WL_RUN("nw", kv2, 7);
}

TEST(wl_rodinia_srad)
{
    const char *kv[] = {"rows=64", "cols=48", "y2=20", "x2=30", "iter=3", NULL};
    WL_RUN_BOTH("srad", kv, 7);
}

TEST(wl_rodinia_hotspot3d)
{
    const char *kv[] = {"rows=64", "layers=4", "iter=3", NULL};
    WL_RUN_BOTH("hotspot3d", kv, 7);
}
