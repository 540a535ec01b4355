/* Polybench (UVMBench) workloads: each runs functionally at a small size and verify()
 * compares its output with a plain CPU implementation. */
#include "test.h"
#include "workloads/workload.h"
#include <stdlib.h>

static int prun(const char *name, const char *const *kv, gms_functional_result *r, gms_error *e)
{
    const gms_workload_ops *ops = gms_workload_find(name);
    memset(e, 0, sizeof *e);
    if (!ops) { snprintf(e->msg, sizeof e->msg, "no workload %s", name); return -1; }
    return gms_workload_run_functional(ops, kv, 1, r, e);
}

#define PRUN_OK(name, r, ...) do { const char *_kv[] = { __VA_ARGS__, NULL }; gms_error _e;     \
    int _rc = prun(name, _kv, r, &_e); if (_rc) printf("    %s: %s\n", name, _e.msg); REQUIRE(_rc == 0); } while (0)

TEST(wl_pb_2mm)
{
    gms_functional_result r;
    PRUN_OK("2mm", &r, "NI=40", "NJ=24", "NK=20", "NL=36");
    CHECK_EQ(r.kernels, 2);
    PRUN_OK("2mm", &r, "scale=0.01", "uvm=1", "repeat=2");
    CHECK_EQ(r.kernels, 4);
}

TEST(wl_pb_3mm)
{
    gms_functional_result r;
    PRUN_OK("3mm", &r, "scale=0.0625");
    CHECK_EQ(r.kernels, 3);
    PRUN_OK("3mm", &r, "NI=10", "NJ=33", "NK=7", "NL=9", "NM=12", "prefetch=1", "uvm=1");
}

TEST(wl_pb_gemm)
{
    gms_functional_result r;
    PRUN_OK("gemm", &r, "scale=0.0625");
    /* 32x32: grid 1x4 blocks of 32x8; per warp: guard 10, C prep 4 (IMAD, MOV, IMAD.WIDE,
     * LDG) + FMUL + STG, loop prep 4 (MOV, 2 IMAD.WIDE, MOV), 32 x (LDG LDG FMUL FFMA STG),
     * 8 x (IADD3 + 2x(IADD3, IADD3.X) + ISETP + BRA), EXIT */
    CHECK_EQ(r.blocks, 4);
    CHECK_EQ(r.warp_insts, 32 * (10 + 6 + 4 + 32 * 5 + 8 * 7 + 1));
    PRUN_OK("gemm", &r, "NI=40", "NJ=24", "NK=8", "repeat=3");
}

TEST(wl_pb_2dconv)
{
    gms_functional_result r;
    PRUN_OK("2dconv", &r, "NI=40", "NJ=40");
    CHECK_EQ(r.kernels, 1);
    PRUN_OK("2dconv", &r, "NI=20", "NJ=50", "repeat=2", "uvm=1");
}

TEST(wl_pb_3dconv)
{
    gms_functional_result r;
    PRUN_OK("3dconv", &r, "NI=10", "NJ=12", "NK=40");
    CHECK_EQ(r.kernels, 8);
}

TEST(wl_pb_atax_bicg_mvt_gesummv)
{
    gms_functional_result r;
    PRUN_OK("atax", &r, "NX=70", "NY=300");
    CHECK_EQ(r.kernels, 2);
    PRUN_OK("atax", &r, "scale=0.01", "repeat=2");
    PRUN_OK("bicg", &r, "NX=300", "NY=70");
    CHECK_EQ(r.kernels, 2);
    PRUN_OK("mvt", &r, "N=100", "repeat=2");
    CHECK_EQ(r.kernels, 4);
    PRUN_OK("gesummv", &r, "N=100");
    CHECK_EQ(r.kernels, 1);
}

TEST(wl_pb_syrk_syr2k)
{
    gms_functional_result r;
    PRUN_OK("syrk", &r, "N=40", "M=24");
    PRUN_OK("syr2k", &r, "N=40", "M=12", "repeat=2");
}

TEST(wl_pb_corr)
{
    gms_functional_result r;
    PRUN_OK("corr", &r, "M=256", "N=8");
    CHECK_EQ(r.kernels, 4);
    gms_error e;
    const char *kv[] = { "M=100", NULL };
    CHECK(prun("corr", kv, &r, &e) != 0);
    CHECK_CONTAINS(e.msg, "grid");
}

TEST(wl_pb_covar)
{
    gms_functional_result r;
    PRUN_OK("covar", &r, "M=256", "N=32");
    CHECK_EQ(r.kernels, 3);
}

TEST(wl_pb_fdtd2d)
{
    gms_functional_result r;
    PRUN_OK("fdtd-2d", &r, "tmax=4", "NX=20", "NY=40");
    CHECK_EQ(r.kernels, 12);
    PRUN_OK("fdtd-2d", &r, "tmax=2", "scale=0.01", "repeat=2");
    CHECK_EQ(r.kernels, 12);
}

TEST(wl_pb_gramschm)
{
    gms_functional_result r;
    PRUN_OK("gramschm", &r, "M=24", "N=20");
    CHECK_EQ(r.kernels, 60);
}

TEST(wl_pb_errors_and_footprints)
{
    gms_functional_result r;
    gms_error e;
    const char *k1[] = { "NI=0", NULL };
    CHECK(prun("2mm", k1, &r, &e) != 0);
    CHECK_CONTAINS(e.msg, "NI=0");
    const char *k2[] = { "scale=0.0001", NULL };
    CHECK(prun("gemm", k2, &r, &e) != 0);
    CHECK_CONTAINS(e.msg, "scale=0.0001");
    const char *k3[] = { "N=4000000", NULL };
    CHECK(prun("syrk", k3, &r, &e) != 0);
    CHECK_CONTAINS(e.msg, "maximum");
    const char *k4[] = { "bogus=1", NULL };
    CHECK(prun("atax", k4, &r, &e) != 0);
    CHECK_CONTAINS(e.msg, "unknown parameter 'bogus'");
    const char *k5[] = { "repeat=0", NULL };
    CHECK(prun("mvt", k5, &r, &e) != 0);
    CHECK_CONTAINS(e.msg, "repeat");
    const char *k6[] = { "N=1M", "M=1M", NULL };   /* 4 TiB arrays: over the 1 TiB limit */
    CHECK(prun("syr2k", k6, &r, &e) != 0);
    CHECK_CONTAINS(e.msg, "too large");

    /* default footprints: the suite's sizes (spec 000b 6.3) */
    static const struct { const char *name; uint64_t bytes; } fp[] = {
        { "2dconv", 128ULL << 20 }, { "2mm", 80ULL << 20 }, { "3dconv", 128ULL << 20 }, { "3mm", 7ULL << 20 },
        { "gemm", 3ULL << 20 },     { "gramschm", 48ULL << 20 }, { "syr2k", 48ULL << 20 }, { "syrk", 8ULL << 20 },
    };
    for (size_t i = 0; i < sizeof fp / sizeof fp[0]; i++) {
        const gms_workload_ops *o = gms_workload_find(fp[i].name);
        REQUIRE(o);
        gms_wl_args *a = NULL;
        REQUIRE(gms_wl_args_parse(o, NULL, 1, &a, &e) == 0);
        CHECK_EQ(o->footprint(a), fp[i].bytes);
        gms_wl_args_free(a);
    }
}

TEST(wl_pb_registry)
{
    static const char *const names[] = { "2dconv", "2mm", "3dconv", "3mm", "atax", "bicg", "corr", "covar",
                                         "fdtd-2d", "gemm", "gesummv", "gramschm", "mvt", "syr2k", "syrk" };
    static const char *const ri = "RRRRIIIIIIIIIIR";
    for (size_t i = 0; i < 15; i++) {
        const gms_workload_ops *o = gms_workload_find(names[i]);
        REQUIRE(o);
        CHECK_STR(o->suite, "polybench");
        CHECK_EQ(o->ri[0], ri[i]);
        CHECK(o->domain && *o->domain && o->summary && *o->summary);
    }
}
