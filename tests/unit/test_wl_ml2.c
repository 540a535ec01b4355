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
