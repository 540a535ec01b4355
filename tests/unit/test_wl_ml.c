/* Functional runs of the machine-learning half of UVMBench (kmeans, knn, lr, svm, bn, cnn)
 * at small sizes: each verify() compares the computed result with a CPU implementation. */
#include "test.h"
#include "workloads/workload.h"

static void run(const char *name, const char *const *kv)
{
    const gms_workload_ops *ops = gms_workload_find(name);
    if (!ops) { gms_test_fail(__FILE__, __LINE__, name); return; }
    gms_functional_result r;
    gms_error e = {0};
    if (gms_workload_run_functional(ops, kv, 11, &r, &e)) {
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

TEST(wl_ml_kmeans)
{
    const char *kv[] = {"points=2000", "k=3", "reps=4", NULL};
    run_both("kmeans", kv);
}

TEST(wl_ml_knn)
{
    const char *kv[] = {"ref=300", "query=200", "dim=20", "k=7", "iter=2", NULL};
    run_both("knn", kv);
}
