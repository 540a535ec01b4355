/* UVMBench's data-reuse extra, repeat=N: the workload's kernel sequence runs N times on the
 * same allocations, each repetition from the same input, and the result still verifies. The
 * hand-checkable invariant: exactly N times the kernels, blocks and warp instructions of
 * repeat=1, and no more allocations (wl_test_repeat). */
#include "test.h"
#include "wl_test_util.h"

/* The five whose repetitions used to run on the previous repetition's output: each pushed all
 * repetitions at once, resetting the host-side input before any kernel had run. */
TEST(wl_repeat_reset_between_repetitions)
{
    const char *pf[] = {"cols=1000", "rows=23", "pyramid=5", NULL};
    WL_REPEAT("pathfinder", pf, 2, 7);
    const char *ga[] = {"size=37", NULL};
    WL_REPEAT("gaussian", ga, 3, 7);
    const char *hs[] = {"rows=40", "pyramid=2", "sim_time=6", NULL};   /* 3 launches per repetition */
    WL_REPEAT("hotspot", hs, 2, 7);
    const char *h3[] = {"rows=64", "layers=4", "iter=3", NULL};
    WL_REPEAT("hotspot3d", h3, 2, 7);
    const char *nw[] = {"dim=32", "penalty=3", NULL};
    WL_REPEAT("nw", nw, 2, 7);
}

/* The workloads that had no repeat parameter */
TEST(wl_repeat_rodinia_new)
{
    const char *bfs[] = {"vertices=3000", "edges=5000", NULL};
    WL_REPEAT("bfs", bfs, 2, 7);
    const char *sr[] = {"rows=64", "cols=48", "y2=20", "x2=30", "iter=3", NULL};
    WL_REPEAT("srad", sr, 3, 7);
    const char *pf[] = {"x=40", "y=40", "z=5", "np=300", NULL};
    WL_REPEAT("pfilter", pf, 2, 13);
    const char *sc[] = {"k1=3", "k2=6", "dim=8", "n=400", "chunksize=400", "clustersize=50", NULL};
    WL_REPEAT("sc", sc, 2, 13);
}

TEST(wl_repeat_ml_new)
{
    const char *km[] = {"points=2000", "k=3", "reps=4", NULL};
    WL_REPEAT("kmeans", km, 3, 11);
    const char *kn[] = {"ref=300", "query=200", "dim=20", "k=7", "iter=2", NULL};
    WL_REPEAT("knn", kn, 2, 11);
    const char *lr[] = {"instances=300", "features=20", "iter=5", NULL};
    WL_REPEAT("lr", lr, 3, 13);
    const char *sv[] = {"train=48", "test=16", "M=12", NULL};
    WL_REPEAT("svm", sv, 2, 13);
    const char *bn[] = {"nodes=9", "data=40", "iter=6", NULL};
    WL_REPEAT("bn", bn, 2, 13);
    const char *cn[] = {"train=2", "test=2", NULL};
    WL_REPEAT("cnn", cn, 2, 13);
}
