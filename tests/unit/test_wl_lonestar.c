/* LonestarGPU barnes-hut (issue 22): every time step checked against the CPU reference
 * (tree, summaries, sort, forces) and the last integration, at two sizes and with uvm=0|1,
 * through the shadow memory (its last store and last load moved by 4 bytes must fail), with
 * repeat=2 (exactly twice the work on the same allocations), at a tiny scale (clamped), and
 * through the timing model end to end; footprint() equals what the run allocates. */
#include "test.h"
#include "wl_test_util.h"
#include "workloads/workload.h"
#include <string.h>

static uint64_t bh_footprint(const char *const *kv)
{
    const gms_workload_ops *ops = gms_workload_find("barnes-hut");
    gms_wl_args *a = NULL;
    gms_error e = {0};
    if (!ops || gms_wl_args_parse(ops, kv, 1, &a, &e)) return 0;
    uint64_t fp = ops->footprint(a);
    gms_wl_args_free(a);
    return fp;
}

TEST(wl_lonestar_bh_sizes)
{
    /* 300 bodies on 2 SMs: nnodes = 2048 - 1 (1024 x SMs is more than 2 x 300) */
    const char *kv[] = {"nbodies=300", "timesteps=2", "sms=2", NULL};
    WL_RUN_BOTH("barnes-hut", kv, 3);
    /* 3000 bodies on 4 SMs: nnodes = 6016 - 1 (6000 rounded up to 32) */
    const char *kv2[] = {"nbodies=3000", "timesteps=2", "sms=4", NULL};
    WL_RUN_BOTH("barnes-hut", kv2, 11);
    /* footprint: childl 8 (nnodes + 1) ints, mass/posx/posy/posz/count/start nnodes + 1 each,
     * 6 x (FACTOR1 x SMs) block results, 32 bytes of __device__ scalars */
    CHECK_EQ(bh_footprint(kv), 4ull * (8 * 2048 + 6 * 2048 + 6 * 2) + 32);
    CHECK_EQ(bh_footprint(kv2), 4ull * (8 * 6016 + 6 * 6016 + 6 * 4) + 32);
    /* the defaults: 300000 bodies, 15 SMs: nnodes + 1 = 600000 */
    CHECK_EQ(bh_footprint((const char *const[]){NULL}), 4ull * (8 * 600000 + 6 * 600000 + 6 * 15) + 32);
}

TEST(wl_lonestar_bh_counts)
{
    /* InitializationKernel, then per step 6 kernels of (1 + 2 + 1 + 1 + 2 + 1) x SMs blocks */
    const char *kv[] = {"nbodies=256", "timesteps=3", "sms=2", NULL};
    gms_functional_result r;
    gms_error e = {0};
    REQUIRE(gms_workload_run_functional(gms_workload_find("barnes-hut"), kv, 5, &r, &e) == 0);
    CHECK_EQ(r.kernels, 1 + 3 * 6);
    CHECK_EQ(r.blocks, 1 + 3 * 8 * 2);
    CHECK(r.shadow_loads > 0);
    CHECK(r.shadow_stores > 0);
    /* repeat=2: the same input again on the same allocations, exactly twice the work */
    const char *kr[] = {"nbodies=256", "timesteps=2", "sms=2", NULL};
    WL_REPEAT("barnes-hut", kr, 2, 5);
}

TEST(wl_lonestar_bh_shadow)
{
    /* the last store and load are the last integration's (velocity store, position load) */
    const char *kv[] = {"nbodies=256", "timesteps=1", "sms=2", NULL};
    WL_SHADOW("barnes-hut", kv, 0, 0);
    /* scale clamps to the smallest valid problem, 224 bodies */
    const char *tiny[] = {"scale=0.0001", "timesteps=1", "sms=1", NULL};
    WL_RUN_BOTH("barnes-hut", tiny, 13);
    gms_functional_result r;
    gms_error e = {0};
    CHECK(gms_workload_run_functional(gms_workload_find("barnes-hut"), (const char *const[]){"nbodies=100", NULL}, 1,
                                      &r, &e) != 0);
    CHECK(strstr(e.msg, "nbodies") != NULL);
}

TEST(wl_lonestar_bh_timing)
{
    const char *kt[] = {"nbodies=224", "timesteps=1", "sms=1", "uvm=1", NULL};
    CHECK_EQ(WL_TIMING("barnes-hut", kt), (double)bh_footprint(kt));
}
