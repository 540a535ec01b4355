/* Functional runs of the Rodinia half of UVMBench at small sizes: each computes its result
 * while emitting addresses, and verify() compares it with a CPU implementation. */
#include "test.h"
#include "workloads/workload.h"

static void run(const char *name, const char *const *kv)
{
    const gms_workload_ops *ops = gms_workload_find(name);
    if (!ops) { gms_test_fail(__FILE__, __LINE__, name); return; }
    gms_functional_result r;
    gms_error e = {0};
    int rc = gms_workload_run_functional(ops, kv, 7, &r, &e);
    if (rc) {
        char m[1200];
        snprintf(m, sizeof m, "%s: %s", name, e.msg);
        gms_test_fail(__FILE__, __LINE__, m);
        return;
    }
    CHECK(r.kernels > 0);
    CHECK(r.mem_insts > 0);
}

static void run_both(const char *name, const char *const *kv)
{
    run(name, kv);
    const char *kv2[16];
    int n = 0;
    for (; kv && kv[n] && n < 13; n++) kv2[n] = kv[n];
    kv2[n++] = "uvm=1";
    kv2[n++] = "prefetch=1";
    kv2[n] = NULL;
    run(name, kv2);
}

TEST(wl_rodinia_backprop)
{
    const char *kv[] = {"input=256", NULL};
    run_both("backprop", kv);
    const char *kv2[] = {"input=512", "repeat=2", NULL};
    run("backprop", kv2);
}

TEST(wl_rodinia_hotspot)
{
    const char *kv[] = {"rows=40", "pyramid=2", "sim_time=6", NULL};
    run_both("hotspot", kv);
    const char *kv2[] = {"rows=37", "pyramid=3", "sim_time=3", "repeat=2", NULL};
    run("hotspot", kv2);
}

TEST(wl_rodinia_pathfinder)
{
    const char *kv[] = {"cols=1000", "rows=30", "pyramid=4", NULL};
    run_both("pathfinder", kv);
    const char *kv2[] = {"cols=300", "rows=9", "pyramid=20", NULL};
    run("pathfinder", kv2);
}

TEST(wl_rodinia_bfs)
{
    const char *kv[] = {"vertices=3000", "edges=5000", NULL};
    run_both("bfs", kv);
    /* Rodinia text format: 4 nodes, path 0-1-2, node 3 isolated */
    const char *path = "/tmp/gms_test_bfs_graph.txt";
    FILE *f = fopen(path, "w");
    REQUIRE(f);
    fprintf(f, "4\n0 1\n1 2\n3 1\n4 0\n\n0\n\n4\n1 1\n0 1\n2 1\n1 1\n");
    fclose(f);
    const char *kv2[] = {"graph=/tmp/gms_test_bfs_graph.txt", NULL};
    run("bfs", kv2);
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
    run_both("gaussian", kv);
}

TEST(wl_rodinia_nw)
{
    const char *kv[] = {"dim=64", NULL};
    run_both("nw", kv);
    const char *kv2[] = {"dim=32", "penalty=3", "repeat=2", NULL};
    run("nw", kv2);
}

TEST(wl_rodinia_srad)
{
    const char *kv[] = {"rows=64", "cols=48", "y2=20", "x2=30", "iter=3", NULL};
    run_both("srad", kv);
}

TEST(wl_rodinia_hotspot3d)
{
    const char *kv[] = {"rows=64", "layers=4", "iter=3", NULL};
    run_both("hotspot3d", kv);
}
