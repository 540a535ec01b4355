/* Functional runs of the machine-learning half of UVMBench (kmeans, knn, lr, svm, bn, cnn)
 * at small sizes: each verify() compares the computed result with a CPU implementation. */
#include "test.h"
#include "workloads/workload.h"
#include "wl_test_util.h"


TEST(wl_ml_kmeans)
{
    const char *kv[] = {"points=2000", "k=3", "reps=4", NULL};
    WL_RUN_BOTH("kmeans", kv, 11);
}

TEST(wl_ml_knn)
{
    const char *kv[] = {"ref=300", "query=200", "dim=20", "k=7", "iter=2", NULL};
    WL_RUN_BOTH("knn", kv, 11);
}
