/* Functional runs of the second batch of UVMBench workloads (lr, svm, bn, cnn, sc, pfilter,
 * dwt2d) at small sizes: each computes its result while emitting addresses, and verify()
 * compares it with a CPU implementation. */
#include "test.h"
#include "workloads/workload.h"
#include "wl_test_util.h"


/* create() must reject a size that scales to zero */
static void rejects(const char *name, const char *const *kv, const char *needle)
{
    const gms_workload_ops *ops = gms_workload_find(name);
    if (!ops) { gms_test_fail(__FILE__, __LINE__, name); return; }
    gms_functional_result r;
    gms_error e = {0};
    CHECK(gms_workload_run_functional(ops, kv, 1, &r, &e) != 0);
    CHECK_CONTAINS(e.msg, needle);
}

static void has_footprint(const char *name)
{
    const gms_workload_ops *ops = gms_workload_find(name);
    REQUIRE(ops);
    CHECK(ops->footprint != NULL);
    CHECK(ops->ri && ops->domain && ops->summary);
}

TEST(wl_ml2_lr)
{
    const char *kv[] = {"instances=300", "features=20", "iter=5", NULL};
    WL_RUN_BOTH("lr", kv, 13);
    const char *kv2[] = {"instances=100", "features=7", "iter=3", NULL};
    WL_RUN("lr", kv2, 13);
    /* a size given as zero is refused; one that scale takes to zero clamps to 1 (wl_clamp.h) */
    const char *bad[] = {"instances=0", NULL};
    rejects("lr", bad, "zero");
    const char *tiny[] = {"scale=0.00001", NULL};
    WL_RUN("lr", tiny, 13);
    has_footprint("lr");
}

TEST(wl_ml2_dwt2d)
{
    /* level sizes 96x64, 48x32, 24x16: 64-wide windows with mirrored right columns */
    const char *kv[] = {"width=96", "height=64", "levels=3", NULL};
    WL_RUN_BOTH("dwt2d", kv, 13);
    /* several sliding-window steps (height > 120) and a 1-component image */
    const char *kv2[] = {"width=64", "height=256", "levels=2", "components=1", "repeat=2", NULL};
    WL_RUN("dwt2d", kv2, 13);
    const char *bad[] = {"width=16", "height=16", "levels=3", NULL};
    rejects("dwt2d", bad, "dwt2d");
    has_footprint("dwt2d");
}

TEST(wl_ml2_sc)
{
    const char *kv[] = {"k1=3", "k2=6", "dim=8", "n=400", "chunksize=400", "clustersize=50", NULL};
    WL_RUN_BOTH("sc", kv, 13);
    /* two chunks, then the final localSearch of the intermediate centers */
    const char *kv2[] = {"k1=2", "k2=4", "dim=5", "n=300", "chunksize=160", "clustersize=40", NULL};
    WL_RUN("sc", kv2, 13);
    /* a size given as zero is refused; scale shrinks dim too (wl_clamp.h) */
    const char *bad[] = {"n=0", NULL};
    rejects("sc", bad, "zero");
    const char *tiny[] = {"scale=0.01", NULL};   /* dim 2, n = chunksize = 655 */
    WL_RUN("sc", tiny, 13);
    has_footprint("sc");
}

TEST(wl_ml2_svm)
{
    const char *kv[] = {"train=100", "test=40", "M=32", NULL};
    const char *kvq[] = {"train=48", "test=16", "M=12", NULL};
    WL_RUN_BOTH("svm", gms_test_quick() ? kvq : kv, 13);
    /* a KKT tolerance that admits new violators into the working set */
    const char *kv2[] = {"train=80", "test=20", "M=24", "accuracy=0.5", "C=2", NULL};
    if (!gms_test_quick()) WL_RUN("svm", kv2, 13);
    const char *bad[] = {"M=2000", NULL};
    rejects("svm", bad, "M");
    has_footprint("svm");
}

TEST(wl_ml2_pfilter)
{
    const char *kv[] = {"x=40", "y=40", "z=5", "np=300", NULL};
    WL_RUN_BOTH("pfilter", kv, 13);
    const char *kv2[] = {"x=128", "y=128", "z=3", "np=1000", "scale=0.1", NULL};
    WL_RUN("pfilter", kv2, 13);
    const char *bad[] = {"np=10", "scale=0.01", NULL};
    rejects("pfilter", bad, "zero");
    has_footprint("pfilter");
}

TEST(wl_ml2_bn)
{
    const char *kv[] = {"nodes=9", "data=40", "iter=6", NULL};
    WL_RUN_BOTH("bn", kv, 13);
    const char *kv2[] = {"nodes=12", "data=100", "iter=2", "scale=0.5", NULL};
    if (!gms_test_quick()) WL_RUN("bn", kv2, 13);
    const char *bad[] = {"nodes=100", NULL};
    rejects("bn", bad, "nodes");
    has_footprint("bn");
}

TEST(wl_ml2_cnn)
{
    WL_RUN_BOTH("cnn", NULL, 13);
    const char *kv[] = {"train=3", "test=2", NULL};
    WL_RUN("cnn", kv, 13);
    const char *bad[] = {"train=0", "test=0", NULL};
    rejects("cnn", bad, "cnn");
    has_footprint("cnn");
}
