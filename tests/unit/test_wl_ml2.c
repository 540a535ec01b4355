/* Functional runs of the second batch of UVMBench workloads (lr, svm, bn, cnn, sc, pfilter,
 * dwt2d) at small sizes: each computes its result while emitting addresses, and verify()
 * compares it with a CPU implementation. */
#include "test.h"
#include "workloads/workload.h"

static void run(const char *name, const char *const *kv)
{
    const gms_workload_ops *ops = gms_workload_find(name);
    if (!ops) { gms_test_fail(__FILE__, __LINE__, name); return; }
    gms_functional_result r;
    gms_error e = {0};
    if (gms_workload_run_functional(ops, kv, 13, &r, &e)) {
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
    run_both("lr", kv);
    const char *kv2[] = {"instances=100", "features=7", "iter=3", NULL};
    run("lr", kv2);
    const char *bad[] = {"scale=0.00001", NULL};
    rejects("lr", bad, "zero");
    has_footprint("lr");
}

TEST(wl_ml2_dwt2d)
{
    /* level sizes 96x64, 48x32, 24x16: 64-wide windows with mirrored right columns */
    const char *kv[] = {"width=96", "height=64", "levels=3", NULL};
    run_both("dwt2d", kv);
    /* several sliding-window steps (height > 120) and a 1-component image */
    const char *kv2[] = {"width=64", "height=256", "levels=2", "components=1", "repeat=2", NULL};
    run("dwt2d", kv2);
    const char *bad[] = {"width=16", "height=16", "levels=3", NULL};
    rejects("dwt2d", bad, "dwt2d");
    has_footprint("dwt2d");
}

TEST(wl_ml2_sc)
{
    const char *kv[] = {"k1=3", "k2=6", "dim=8", "n=400", "chunksize=400", "clustersize=50", NULL};
    run_both("sc", kv);
    /* two chunks, then the final localSearch of the intermediate centers */
    const char *kv2[] = {"k1=2", "k2=4", "dim=5", "n=300", "chunksize=160", "clustersize=40", NULL};
    run("sc", kv2);
    const char *bad[] = {"scale=0.00001", NULL};
    rejects("sc", bad, "zero");
    has_footprint("sc");
}

TEST(wl_ml2_svm)
{
    const char *kv[] = {"train=100", "test=40", "M=32", NULL};
    const char *kvq[] = {"train=48", "test=16", "M=12", NULL};
    run_both("svm", gms_test_quick() ? kvq : kv);
    /* a KKT tolerance that admits new violators into the working set */
    const char *kv2[] = {"train=80", "test=20", "M=24", "accuracy=0.5", "C=2", NULL};
    if (!gms_test_quick()) run("svm", kv2);
    const char *bad[] = {"M=2000", NULL};
    rejects("svm", bad, "M");
    has_footprint("svm");
}

TEST(wl_ml2_pfilter)
{
    const char *kv[] = {"x=40", "y=40", "z=5", "np=300", NULL};
    run_both("pfilter", kv);
    const char *kv2[] = {"x=128", "y=128", "z=3", "np=1000", "scale=0.1", NULL};
    run("pfilter", kv2);
    const char *bad[] = {"np=10", "scale=0.01", NULL};
    rejects("pfilter", bad, "zero");
    has_footprint("pfilter");
}

TEST(wl_ml2_bn)
{
    const char *kv[] = {"nodes=9", "data=40", "iter=6", NULL};
    run_both("bn", kv);
    const char *kv2[] = {"nodes=12", "data=100", "iter=2", "scale=0.5", NULL};
    if (!gms_test_quick()) run("bn", kv2);
    const char *bad[] = {"nodes=100", NULL};
    rejects("bn", bad, "nodes");
    has_footprint("bn");
}

TEST(wl_ml2_cnn)
{
    run_both("cnn", NULL);
    const char *kv[] = {"train=3", "test=2", NULL};
    run("cnn", kv);
    const char *bad[] = {"train=0", "test=0", NULL};
    rejects("cnn", bad, "cnn");
    has_footprint("cnn");
}
