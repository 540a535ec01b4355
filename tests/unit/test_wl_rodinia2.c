/* The Rodinia / LonestarGPU / data-cache workloads beyond UVMBench (issue 22): each verified
 * against its CPU reference at two sizes and with uvm=0|1, through the shadow memory (its last
 * store and last load moved by 4 bytes must fail verification), at scale=0.01, and through the
 * timing model end to end (gtx1080ti, uvm=1, verified). */
#include "test.h"
#include "wl_test_util.h"
#include "workloads/workload.h"
#include <string.h>

static const char *const scale001[] = {"scale=0.01", NULL};

TEST(wl_rodinia2_btree)
{
    /* 3000 keys, order 16: leaves of 8..15 keys, a 3-level tree */
    const char *kv[] = {"records=3000", "order=16", "count=50", "rcount=40", "rsize=100", NULL};
    WL_RUN_BOTH("b+tree", kv, 7);
    /* the default order (256 threads) on a 2-level tree */
    const char *kv2[] = {"records=40000", "count=20", "rcount=10", "rsize=500", "repeat=2", NULL};
    WL_RUN_BOTH("b+tree", kv2, 7);
    WL_SHADOW("b+tree", kv, 0, 0);
    WL_RUN_BOTH("b+tree", scale001, 13);
    const char *kt[] = {"scale=0.01", "uvm=1", NULL};
    WL_TIMING("b+tree", kt);
}

TEST(wl_rodinia2_btree_tree_shape)
{
    /* order 16, 3000 keys: leaves hold 8..15 keys (200..375 leaves), inner nodes 8..16
     * children, so 214..429 knodes of 4 * (2*16 + 5) = 148 bytes; footprint() draws the same
     * node fills as create() and equals what the run allocates */
    const char *kv[] = {"records=3000", "order=16", "count=50", "rcount=40", "rsize=100", "uvm=1", NULL};
    const gms_workload_ops *ops = gms_workload_find("b+tree");
    REQUIRE(ops);
    gms_wl_args *a = NULL;
    gms_error e = {0};
    REQUIRE(gms_wl_args_parse(ops, kv, 1, &a, &e) == 0);
    uint64_t fp = ops->footprint(a);
    gms_wl_args_free(a);
    uint64_t rest = 4 * 3000 + 50 * 24 + 40 * 48;
    REQUIRE(fp > rest);
    CHECK_EQ((fp - rest) % 148, 0);
    CHECK((fp - rest) / 148 >= 214 && (fp - rest) / 148 <= 429);
    CHECK_EQ((double)fp, WL_TIMING("b+tree", kv));
    /* a range as wide as the tree is refused */
    const char *bad[] = {"records=100", "rsize=100", NULL};
    gms_functional_result r;
    CHECK(gms_workload_run_functional(ops, bad, 1, &r, &e) != 0);
    CHECK(strstr(e.msg, "rsize=100 must be below records=100") != NULL);
}

/* footprint() is what the program allocates, for every workload of this file */
TEST(wl_rodinia2_footprints)
{
    static const struct { const char *name; const char *kv[6]; } c[] = {
        {"cfd", {"elements=500", "iterations=1", "uvm=1"}},
        {"lud", {"size=64", "uvm=1"}},
        {"kmeans-rodinia", {"points=3000", "features=8", "uvm=1"}},
        {"hybridsort", {"size=5000", "repeat=1", "uvm=1"}},
        {"pfilter-rodinia", {"x=64", "y=64", "z=2", "np=600", "uvm=1"}},
        {"histo-dc", {"bytes=40000", "uvm=1"}},
        {"scalarprod-dc", {"vectors=16", "uvm=1"}},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        const gms_workload_ops *ops = gms_workload_find(c[i].name);
        REQUIRE(ops);
        gms_wl_args *a = NULL;
        gms_error e = {0};
        REQUIRE(gms_wl_args_parse(ops, c[i].kv, 1, &a, &e) == 0);
        double fp = (double)ops->footprint(a), got = WL_TIMING(c[i].name, c[i].kv);
        gms_wl_args_free(a);
        if (fp != got) printf("    %s: footprint %.0f, allocated %.0f\n", c[i].name, fp, got);
        CHECK_EQ(fp, got);
    }
}

TEST(wl_rodinia2_cfd)
{
    /* 500 elements (3 blocks of 192, 76 padding elements), 3 iterations */
    const char *kv[] = {"elements=500", "iterations=3", NULL};
    WL_RUN_BOTH("cfd", kv, 7);
    const char *kv2[] = {"elements=2000", "iterations=2", "repeat=2", NULL};
    WL_RUN_BOTH("cfd", kv2, 7);
    /* 190: the last warp holds real elements (padding elements all compute the same); 100
     * iterations spread the walls' disturbance to the last one (a uniform region reads the same
     * values 4 bytes away; the walls, nearly parallel to the flow, disturb it gently: at 30
     * iterations a store moved 4 bytes still verified) */
    const char *kvs[] = {"elements=190", "iterations=100", NULL};
    /* the last two stores write momentum y and z, which can stay at the far field's
     * values; the one before them writes momentum x */
    WL_SHADOW("cfd", kvs, 2, 0);
    /* scale=0.01 at the suite's 2000 iterations takes seconds: bench/scale001.sh runs it */
    const char *ks[] = {"scale=0.01", "iterations=2", NULL};
    WL_RUN_BOTH("cfd", ks, 13);
    const char *kt[] = {"elements=400", "iterations=1", "uvm=1", NULL};
    WL_TIMING("cfd", kt);
}

TEST(wl_rodinia2_lud)
{
    /* 48: two steps (perimeter grids of 2 and 1 blocks, internal 2x2 and 1x1), last diagonal */
    const char *kv[] = {"size=48", NULL};
    WL_RUN_BOTH("lud", kv, 7);
    const char *kv2[] = {"size=128", "repeat=2", NULL};
    WL_RUN_BOTH("lud", kv2, 7);
    WL_SHADOW("lud", kv, 0, 0);
    WL_RUN_BOTH("lud", scale001, 13);   /* 512 * 0.01 = 5: clamped to one 16 x 16 tile */
    const char *kt[] = {"size=64", "uvm=1", NULL};
    WL_TIMING("lud", kt);
}

TEST(wl_rodinia2_kmeans_rodinia)
{
    const char *kv[] = {"points=3000", "features=8", NULL};
    WL_RUN_BOTH("kmeans-rodinia", kv, 7);
    const char *kv2[] = {"points=6000", "features=34", "clusters=7", "tex=1", "repeat=2", NULL};
    WL_RUN_BOTH("kmeans-rodinia", kv2, 7);
    /* the last kmeansPoint finds no point moving: its membership stores rewrite what is there,
     * so the store moved is invert_mapping's last (94 warps x 8 features: store 752) */
    gms_functional_result r;
    gms_error e;
    REQUIRE(wl_test_prun("kmeans-rodinia", kv, 0, 0, &r, &e) == 0);
    WL_SHADOW("kmeans-rodinia", kv, r.shadow_stores - 752, 0);
    WL_RUN_BOTH("kmeans-rodinia", scale001, 13);
    const char *kt[] = {"points=4000", "features=8", "uvm=1", NULL};
    WL_TIMING("kmeans-rodinia", kt);
}

TEST(wl_rodinia2_hybridsort)
{
    const char *kv[] = {"size=5000", "repeat=1", NULL};
    WL_RUN_BOTH("hybridsort", kv, 7);
    /* 100000 floats: 25 bucketcount blocks, 7 merge passes; texture fetches */
    const char *kv2[] = {"size=100000", "tex=1", "repeat=2", NULL};
    WL_RUN_BOTH("hybridsort", kv2, 7);
    WL_SHADOW("hybridsort", kv, 0, 0);
    WL_RUN_BOTH("hybridsort", scale001, 13);
    const char *kt[] = {"size=5000", "repeat=1", "uvm=1", NULL};
    WL_TIMING("hybridsort", kt);
}

TEST(wl_rodinia2_histo_dc)
{
    /* 40000 bytes: 10000 words, 3 blocks of 64 threads (4032 words each) */
    const char *kv[] = {"bytes=40000", NULL};
    WL_RUN_BOTH("histo-dc", kv, 7);
    const char *kv2[] = {"bytes=300000", "repeat=2", NULL};
    WL_RUN_BOTH("histo-dc", kv2, 7);
    WL_SHADOW("histo-dc", kv, 0, 0);
    WL_RUN_BOTH("histo-dc", scale001, 13);
    WL_TIMING("histo-dc", (const char *const[]){"bytes=40000", "uvm=1", NULL});
}

TEST(wl_rodinia2_scalarprod_dc)
{
    /* 3 vectors: blocks 0-2 take one each, the other 125 blocks none */
    const char *kv[] = {"vectors=3", "elements=3000", NULL};
    WL_RUN_BOTH("scalarprod-dc", kv, 7);
    const char *kv2[] = {"vectors=300", "elements=512", "repeat=2", NULL};
    WL_RUN_BOTH("scalarprod-dc", kv2, 7);
    WL_SHADOW("scalarprod-dc", kv, 0, 0);
    WL_RUN_BOTH("scalarprod-dc", scale001, 13);
    WL_TIMING("scalarprod-dc", (const char *const[]){"vectors=16", "uvm=1", NULL});
}

TEST(wl_rodinia2_pfilter_rodinia)
{
    /* 1000 particles: 2 blocks of 512; 4 frames */
    const char *kv[] = {"x=64", "y=64", "z=4", "np=1000", NULL};
    WL_RUN_BOTH("pfilter-rodinia", kv, 7);
    const char *kv2[] = {"x=128", "y=128", "z=3", "np=1500", "repeat=2", NULL};
    WL_RUN_BOTH("pfilter-rodinia", kv2, 7);
    /* the last find_index_kernel's xj/yj stores (32 warps x 2) feed no later kernel: the
     * store moved is normalize_weights' last u store, which find_index loads */
    WL_SHADOW("pfilter-rodinia", kv, 64, 0);
    WL_RUN_BOTH("pfilter-rodinia", scale001, 13);
    WL_TIMING("pfilter-rodinia", (const char *const[]){"x=64", "y=64", "z=3", "np=600", "uvm=1", NULL});
}

/* sizes given too small are refused with one message naming the parameter */
TEST(wl_rodinia2_bad_sizes)
{
    static const struct { const char *name; const char *kv[3]; const char *msg; } c[] = {
        {"histo-dc", {"bytes=2"}, "bytes=2 must be at least 4"},
        {"hybridsort", {"size=3"}, "size=3 must be at least 4"},
        {"kmeans-rodinia", {"points=3", "clusters=5"}, "points=3 must be at least clusters=5"},
        {"b+tree", {"order=2"}, "order=2 must be in [4, 1024]"},
        {"lud", {"size=8"}, "size=8 scaled by scale=1 is zero"},
        {"hybridsort", {"tex=2"}, "tex=2 must be in [0, 1]"},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        gms_functional_result r;
        gms_error e = {0};
        CHECK(gms_workload_run_functional(gms_workload_find(c[i].name), c[i].kv, 1, &r, &e) != 0);
        if (!strstr(e.msg, c[i].msg)) printf("    %s: '%s'\n", c[i].name, e.msg);
        CHECK(strstr(e.msg, c[i].msg) != NULL);
    }
}
