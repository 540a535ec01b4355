/* Parboil workloads (docs/workloads-parboil.md): each verified at two sizes with uvm=0 and
 * uvm=1 (functional runs with the shadow memory: values and emitted addresses), with a
 * hand-computed instruction count where the stream is regular, its last store and load moved
 * by 4 bytes failing the run, and end to end through the timing model. */
#include "test.h"
#include "wl_test_util.h"
#include "config/params.h"
#include "workloads/workload.h"
#include <stdlib.h>

static int frun(const char *name, const char *const *kv, uint64_t st, uint64_t ld, gms_functional_result *r,
                gms_error *e)
{
    gms_functional_opts o = { .shadow = 1, .perturb_store = st, .perturb_load = ld, .perturb_delta = 4 };
    memset(e, 0, sizeof *e);
    return gms_workload_run_functional_opts(gms_workload_find(name), kv, 1, &o, r, e);
}

/* runs and verifies; then the last store and the last load moved by 4 bytes must fail it
 * (st_back, ld_back: the store / load moved is that many before the last, when the last ones
 * write or read values that their neighbours hold too) */
static void perturbed(const char *name, const char *const *kv, uint64_t st_back, uint64_t ld_back)
{
    gms_functional_result r;
    gms_error e;
    if (frun(name, kv, 0, 0, &r, &e)) {
        printf("    %s: %s\n", name, e.msg);
        CHECK(0);
        return;
    }
    CHECK(r.shadow_loads > 0 && r.shadow_stores > 0 && !r.shadow_overflow);
    if (frun(name, kv, r.shadow_stores - st_back, 0, &r, &e) == 0) {
        printf("    %s: its last store moved by 4 bytes still verifies\n", name);
        CHECK(0);
    }
    gms_functional_result r2;
    if (frun(name, kv, 0, 0, &r2, &e) == 0 && frun(name, kv, 0, r2.shadow_loads - ld_back, &r, &e) == 0) {
        printf("    %s: its last load moved by 4 bytes still verifies\n", name);
        CHECK(0);
    }
}

/* the nth store and the nth load (1-based) moved by 4 bytes must each fail the run */
static void perturbed_nth(const char *name, const char *const *kv, uint64_t nst, uint64_t nld)
{
    gms_functional_result r;
    gms_error e;
    if (frun(name, kv, nst, 0, &r, &e) == 0) {
        printf("    %s: store %llu moved by 4 bytes still verifies\n", name, (unsigned long long)nst);
        CHECK(0);
    }
    if (frun(name, kv, 0, nld, &r, &e) == 0) {
        printf("    %s: load %llu moved by 4 bytes still verifies\n", name, (unsigned long long)nld);
        CHECK(0);
    }
}

/* One timing run on gtx1080ti: verified, and the same warp instructions as the functional
 * run. Returns thread instructions per L2 miss (spec 000a Table 2.3's M/C measure). */
static double timed(const char *name, const char *const *kv)
{
    gms_params *p = gms_params_new();
    gms_error err = {0};
    double ipm = -1;
    if (gms_params_load_file(p, "configs/gtx1080ti.config", &err) || gms_params_finalize(p, &err)) {
        printf("    %s\n", err.msg);
        gms_params_free(p);
        CHECK(0);
        return -1;
    }
    gms_workload_spec w = { name, NULL, kv, 1, NULL };
    gms_sim *s = gms_sim_new(p, &w, &err);
    int rc = s ? gms_sim_run(s, &err) : -1;
    if (rc) printf("    %s: %s\n", name, err.msg);
    CHECK_EQ(rc, 0);
    if (!rc) {
        const gms_run_stats *st = gms_sim_stats(s);
        double ver = -1, wi = -1, ti = -1, miss = -1;
        gms_stats_total(st, "gms_workload_verified", &ver);
        gms_stats_total(st, "gpgpu_n_tot_w_icount", &wi);
        gms_stats_total(st, "gpu_tot_sim_insn", &ti);
        gms_stats_total(st, "L2_total_cache_misses", &miss);
        CHECK_EQ(ver, 1);
        gms_functional_result r;
        gms_error e = {0};
        CHECK_EQ(gms_workload_run_functional(gms_workload_find(name), kv, 1, &r, &e), 0);
        CHECK_EQ(wi, (double)r.warp_insts);
        CHECK(miss > 0);
        ipm = miss > 0 ? ti / miss : -1;
    }
    gms_sim_free(s);
    gms_params_free(p);
    return ipm;
}

TEST(wl_parboil_sgemm)
{
    const char *kv[] = { "M=256", "N=64", "K=64", NULL };
    WL_RUN_BOTH("sgemm", kv, 7);
    const char *kv2[] = { "M=384", "N=48", "K=24", "repeat=2", NULL };
    WL_RUN_BOTH("sgemm", kv2, 7);
    /* M=256 N=64 K=64: 2 x 4 blocks of 4 warps; per warp 9 (S2R x4, IMAD, 2 LEA, ISETP, MOV),
     * 8 tiles x (IMAD, IMAD.WIDE, LDG, STS, BAR, 8 x (IMAD.WIDE, LDG, 4 LDS.128, 16 FFMA),
     * BAR, IADD3, ISETP, BRA) = 8 x 185, IMAD t, 16 x (IMAD.WIDE, LDG, FMUL, FFMA, STG), EXIT */
    gms_functional_result r;
    gms_error e = {0};
    REQUIRE(gms_workload_run_functional(gms_workload_find("sgemm"), kv, 1, &r, &e) == 0);
    CHECK_EQ(r.kernels, 1);
    CHECK_EQ(r.blocks, 8);
    CHECK_EQ(r.warp_insts, 32 * (9 + 8 * 185 + 1 + 16 * 5 + 1));
    /* the last 16 loads of the last warp read C, all zeros (beta = 0, main.cc uploads a zeroed
     * C): the one before them is its last A load */
    perturbed("sgemm", kv, 0, 16);
    /* sizes round down to the tile multiples; a scale below one tile clamps to it */
    const gms_workload_ops *o = gms_workload_find("sgemm");
    gms_wl_args *a = NULL;
    const char *k3[] = { "scale=0.001", NULL };
    REQUIRE(gms_wl_args_parse(o, k3, 1, &a, &e) == 0);
    CHECK_EQ(o->footprint(a), (128 * 8 + 16 * 8 + 128 * 16) * 4);
    gms_wl_args_free(a);
    const char *k4[] = { "M=100", NULL };
    CHECK(gms_workload_run_functional(o, k4, 1, &r, &e) != 0);
    CHECK_CONTAINS(e.msg, "M=100");
    double ipm = timed("sgemm", kv);
    CHECK(ipm > 0);
}

TEST(wl_parboil_spmv)
{
    const char *kv[] = { "rows=1000", "nnz=10000", "band=50", "iters=2", NULL };
    WL_RUN_BOTH("spmv", kv, 7);
    const char *kv2[] = { "rows=333", "nnz=1300", "iters=1", "repeat=2", NULL };
    WL_RUN_BOTH("spmv", kv2, 7);
    /* every row one nonzero (bound = 1): one block of 192 threads, 2 live warps of 24
     * (MOV S2R S2R IMAD ISETP @P0EXIT, SHF, LDC zcnt, LDC ptr, IADD, 3 x (IMAD.WIDE, LDG),
     * ISETP, BRA, FFMA, IMAD.WIDE, LDG perm, IMAD.WIDE, STG, EXIT) and 4 that exit (6) */
    gms_functional_result r;
    gms_error e = {0};
    const char *k1[] = { "rows=64", "nnz=64", "iters=3", NULL };
    REQUIRE(gms_workload_run_functional(gms_workload_find("spmv"), k1, 1, &r, &e) == 0);
    CHECK_EQ(r.kernels, 3);
    CHECK_EQ(r.warp_insts, 3 * (2 * 24 + 4 * 6));
    perturbed("spmv", kv, 0, 0);
    /* default footprint: Dubcova3's rows (perm, x, dst, and the warp counts) plus the padded
     * JDS arrays, at least the 3636643 nonzeros */
    const gms_workload_ops *o = gms_workload_find("spmv");
    gms_wl_args *a = NULL;
    REQUIRE(gms_wl_args_parse(o, NULL, 1, &a, &e) == 0);
    uint64_t fp = o->footprint(a);
    CHECK(fp >= 3 * 146689 * 4 + 4584 * 4 + 2 * 3636643ull * 4 * 99 / 100);
    CHECK(fp <= 3 * 146689 * 4 + 4585 * 4 + 2 * 3636643ull * 4 * 3 / 2);
    gms_wl_args_free(a);
    const char *kt[] = { "rows=2000", "nnz=20000", "iters=2", NULL };
    CHECK(timed("spmv", kt) > 0);
}

/* structure=mesh: a 4 x 4 grid (rows=16) and nnz/rows = 9, a 3 x 3 stencil (R = 1): corner
 * rows have 4 nonzeros, edge rows 6, the four inner rows 9 (100 in all), so the one warp's
 * JDS depth is 9; with band=1 a row keeps itself and its left and right grid neighbours (2 at
 * a grid row's ends, else 3). The results are checked against the CPU reference. */
static uint64_t spmv_footprint(const char *const *kv)
{
    const gms_workload_ops *o = gms_workload_find("spmv");
    gms_wl_args *a = NULL;
    gms_error e = {0};
    if (gms_wl_args_parse(o, kv, 1, &a, &e)) return 0;
    uint64_t fp = o->footprint(a);
    gms_wl_args_free(a);
    return fp;
}

TEST(wl_parboil_spmv_mesh)
{
    /* d_data and d_index: 32 x depth each; d_perm, x_vec, dst_vector: 16; d_nzcnt: 1 warp */
    const char *k9[] = { "rows=16", "nnz=144", "structure=mesh", "iters=1", NULL };
    CHECK_EQ(spmv_footprint(k9), 2 * 32 * 9 * 4 + 3 * 16 * 4 + 4);
    WL_RUN_BOTH("spmv", k9, 7);
    const char *kb[] = { "rows=16", "nnz=144", "structure=mesh", "band=1", "iters=1", NULL };
    CHECK_EQ(spmv_footprint(kb), 2 * 32 * 3 * 4 + 3 * 16 * 4 + 4);
    WL_RUN_BOTH("spmv", kb, 7);
    /* the uniform band model's lengths reach 3/2 x 9 (the mesh's 9 is its largest) */
    const char *kd[] = { "rows=16", "nnz=144", "iters=1", NULL };
    CHECK(spmv_footprint(kd) > 2 * 32 * 9 * 4 + 3 * 16 * 4 + 4);
    /* nnz/rows = 2: the nearest odd square is 1, the diagonal alone (depth 1) */
    const char *k1[] = { "rows=16", "nnz=32", "structure=mesh", "iters=1", NULL };
    CHECK_EQ(spmv_footprint(k1), 2 * 32 * 1 * 4 + 3 * 16 * 4 + 4);
    WL_RUN_BOTH("spmv", k1, 7);
    /* a larger mesh, several warps and blocks, 5 x 5 stencil */
    const char *kl[] = { "rows=5000", "nnz=125000", "structure=mesh", "iters=2", NULL };
    WL_RUN_BOTH("spmv", kl, 7);
    gms_functional_result r;
    gms_error e = {0};
    const char *bad[] = { "rows=16", "nnz=144", "structure=grid", NULL };
    CHECK(gms_workload_run_functional(gms_workload_find("spmv"), bad, 1, &r, &e) != 0);
    CHECK_CONTAINS(e.msg, "structure=grid");
}

TEST(wl_parboil_lbm)
{
    const char *kv[] = { "sx=40", "sy=8", "sz=6", "steps=3", NULL };
    WL_RUN_BOTH("lbm", kv, 7);
    const char *kv2[] = { "sx=33", "sy=5", "sz=7", "steps=2", "repeat=3", "obstacles=200000", NULL };
    WL_RUN_BOTH("lbm", kv2, 7);
    /* 32 x 3 x 3 cells, one step: 9 blocks of one warp; every cell a wall but (1..30, 1, 1).
     * Per warp 49: S2R x3, IMAD, 2 IMAD.WIDE, 20 LDG, LOP3, ISETP, BRA, 19 STG, EXIT; the
     * fluid warp 156 more: rho 18 FADD, 3 x (9 FADD + a division of 4), LOP3 ISETP 3 FSEL,
     * u2 4, OMEGA*rho and DFL1*, C 2, DFL2* and DFL3* 2, 12 FADD (u pairs), 18 x 4 */
    gms_functional_result r;
    gms_error e = {0};
    const char *k1[] = { "sx=32", "sy=3", "sz=3", "steps=1", "obstacles=0", NULL };
    REQUIRE(gms_workload_run_functional(gms_workload_find("lbm"), k1, 1, &r, &e) == 0);
    CHECK_EQ(r.blocks, 9);
    CHECK_EQ(r.warp_insts, 9 * 49 + 156);
    /* the last blocks are walls (y = 7 or z = 5) whose cells all hold the same values, and
     * the flow is the same along x away from the x walls, so a lane moved onto its x
     * neighbour reads or leaves the same value there: move the last fluid warp's (block y = 6,
     * z = 4, warp 1, x = 32..39) WB store, 9 blocks x 2 warps x 19 stores before the last, and
     * the flags load of the warp before it (lane 0 is the wall x = 0, its neighbour fluid),
     * 9 x 2 x 20 + 20 before the last */
    perturbed("lbm", kv, 342, 380);
    /* default footprint: two grids of 20 x 128 x 120 x 154 floats plus 2 x 2 planes of margin */
    const gms_workload_ops *o = gms_workload_find("lbm");
    gms_wl_args *a = NULL;
    REQUIRE(gms_wl_args_parse(o, NULL, 1, &a, &e) == 0);
    CHECK_EQ(o->footprint(a), 2 * (20ull * 128 * 120 * 154 + 4 * 128 * 120) * 4);
    gms_wl_args_free(a);
    const char *kt[] = { "sx=64", "sy=12", "sz=10", "steps=2", NULL };
    CHECK(timed("lbm", kt) > 0);
}

TEST(wl_parboil_stencil)
{
    const char *kv[] = { "nx=100", "ny=10", "nz=6", "iters=3", NULL };
    WL_RUN_BOTH("stencil", kv, 7);
    const char *kv2[] = { "nx=64", "ny=9", "nz=5", "iters=2", "repeat=3", NULL };
    WL_RUN_BOTH("stencil", kv2, 7);
    /* 64 x 4 x 3, one iteration: one block of 4 warps (rows j = 0..3). Each warp 27 before the
     * loop (8 index INTs, 2 IMAD.WIDE, 2 STS, BAR, 6 ISETP, 2 x (LDG LDG STS), BAR, MOV), per
     * column half LDG top, ISETP, BRA, then 9 (BAR, 2 x (LDS, STS), BAR, IADD3 ISETP BRA) and
     * EXIT. Rows 1 and 2 compute, 13 per half: up and down from shared memory, left/right
     * (the edge lane is a border cell), inner, centre, 5 FADD, FMUL, FFMA, STG */
    gms_functional_result r;
    gms_error e = {0};
    const char *k1[] = { "nx=64", "ny=4", "nz=3", "iters=1", NULL };
    REQUIRE(gms_workload_run_functional(gms_workload_find("stencil"), k1, 1, &r, &e) == 0);
    CHECK_EQ(r.warp_insts, 2 * (27 + 2 * (3 + 13) + 9 + 1) + 2 * (27 + 2 * 3 + 9 + 1));
    perturbed("stencil", kv, 0, 0);
    const gms_workload_ops *o = gms_workload_find("stencil");
    gms_wl_args *a = NULL;
    REQUIRE(gms_wl_args_parse(o, NULL, 1, &a, &e) == 0);
    CHECK_EQ(o->footprint(a), 2ull * 512 * 512 * 64 * 4);
    gms_wl_args_free(a);
    const char *kt[] = { "nx=128", "ny=32", "nz=8", "iters=2", NULL };
    CHECK(timed("stencil", kt) > 0);
}

TEST(wl_parboil_mriq)
{
    const char *kv[] = { "numX=512", "numK=100", NULL };
    WL_RUN_BOTH("mri-q", kv, 7);
    const char *kv2[] = { "numX=768", "numK=1030", "repeat=2", NULL };   /* two constant tiles */
    WL_RUN_BOTH("mri-q", kv2, 7);
    /* numX=256, numK=2: ComputePhiMag, one block of 16 warps: one live warp of 15 (prologue 6,
     * 2 x (IMAD.WIDE LDG), FMUL, FFMA, IMAD.WIDE, STG, EXIT), 15 that exit after the prologue
     * (6); ComputeQ, 8 warps of 44: 3 + 5 x (IMAD.WIDE LDG), MOV, ISETP, BRA, one pair of
     * samples 2 x 11 (LDC.128, FMUL, 2 FFMA, FMUL 2pi, FMUL, RRO, MUFU.COS, MUFU.SIN, 2 FFMA)
     * + IADD3 ISETP BRA, 2 STG, EXIT */
    gms_functional_result r;
    gms_error e = {0};
    const char *k1[] = { "numX=256", "numK=2", NULL };
    REQUIRE(gms_workload_run_functional(gms_workload_find("mri-q"), k1, 1, &r, &e) == 0);
    CHECK_EQ(r.kernels, 2);
    CHECK_EQ(r.warp_insts, 15 + 15 * 6 + 8 * 44);
    /* the last two loads read Qr and Qi, zeros (cudaMemset) like their neighbours: move the
     * last warp's z load */
    perturbed("mri-q", kv, 0, 2);
    const gms_workload_ops *o = gms_workload_find("mri-q");
    gms_wl_args *a = NULL;
    REQUIRE(gms_wl_args_parse(o, NULL, 1, &a, &e) == 0);
    CHECK_EQ(o->footprint(a), (3 * 2048 + 5 * 262144) * 4);   /* kx, ky, kz stay on the host */
    gms_wl_args_free(a);
    const char *kt[] = { "numX=2048", "numK=64", NULL };
    CHECK(timed("mri-q", kt) > 0);
}

TEST(wl_parboil_histo)
{
    /* a narrow spread: bins pass 255 in the shared sub-histograms (the overflow bookkeeping)
     * and saturate in the result */
    const char *kv[] = { "width=100", "height=512", "hwidth=28", "hheight=880", "iters=2", "sigma=3", NULL };
    WL_RUN_BOTH("histo", kv, 7);
    /* 996 x 272: every prescan thread samples, so the range [min, max] is real (several main
     * kernel rows, the global path for the outliers) */
    const char *kv2[] = { "width=996", "height=272", "hheight=1024", "iters=1", "sigma=20", "repeat=2", NULL };
    WL_RUN_BOTH("histo", kv2, 7);
    /* 100 x 32 pixels: the prescan's threads past the 1/8 sample have no element, their mean is
     * 0/0 and the range CUDA's float->uint makes of NaN is [0, 0]: per iteration 64 prescan
     * blocks, 32/16 intermediates blocks, 14 x 1 main blocks, 42 final blocks */
    gms_functional_result r;
    gms_error e = {0};
    const char *k1[] = { "width=100", "height=32", "hwidth=28", "hheight=880", "iters=2", NULL };
    REQUIRE(gms_workload_run_functional(gms_workload_find("histo"), k1, 1, &r, &e) == 0);
    CHECK_EQ(r.kernels, 8);
    CHECK_EQ(r.blocks, 2 * (64 + 2 + 14 + 42));
    /* histo's last stores and loads write and read zero bins (the final kernel's upper region,
     * the sub-histograms' empty words): move its first mapping store instead (store 129,
     * after the prescan's 64 x 2 range atomics: lane 0's element keeps 0) and its first load
     * (the prescan's first sample: lane 0 reads its neighbour's value) */
    const char *kp[] = { "width=100", "height=512", "hwidth=28", "hheight=880", "iters=1", NULL };
    perturbed_nth("histo", kp, 129, 1);
    /* default footprint: the pitched input and the mappings (996 x 1040), ranges, and the
     * width x histo_height buffers of 4, 2, 4 and 1 bytes */
    const gms_workload_ops *o = gms_workload_find("histo");
    gms_wl_args *a = NULL;
    REQUIRE(gms_wl_args_parse(o, NULL, 1, &a, &e) == 0);
    CHECK_EQ(o->footprint(a), 2ull * 996 * 1040 * 4 + 8 + 996ull * 4096 * (4 + 2 + 4 + 1));
    gms_wl_args_free(a);
    const char *k2[] = { "hwidth=30", NULL };
    CHECK(gms_workload_run_functional(o, k2, 1, &r, &e) != 0);
    CHECK_CONTAINS(e.msg, "hwidth=30");
    const char *kt[] = { "width=100", "height=64", "hwidth=28", "hheight=880", "iters=1", "sigma=3", NULL };
    CHECK(timed("histo", kt) > 0);
}

TEST(wl_parboil_cutcp)
{
    const char *kv[] = { "atoms=60", "box=4", "cutoff=4", NULL };
    WL_RUN_BOTH("cutcp", kv, 7);
    const char *kv2[] = { "atoms=200", "box=7", "cutoff=5", "repeat=2", NULL };
    WL_RUN_BOTH("cutcp", kv2, 7);
    /* a 4 A box padded by 0.5 A: 11 lattice points a side, 2 regions of 8: 2 z-plane launches
     * of 2 x 2 blocks */
    gms_functional_result r;
    gms_error e = {0};
    REQUIRE(gms_workload_run_functional(gms_workload_find("cutcp"), kv, 1, &r, &e) == 0);
    CHECK_EQ(r.kernels, 2);
    CHECK_EQ(r.blocks, 8);
    /* its last loads (and its first 24) fetch bins of the empty padding ring around the atoms
     * (zeros, like their neighbours): move load 25, the first that reads a bin holding atoms
     * (of the 224; 25-28, 35, 47, 48, ... do); and the first store (the last ones write
     * lattice points of the far corner beyond the cutoff of every atom: zeros) */
    REQUIRE(frun("cutcp", kv, 0, 0, &r, &e) == 0);
    CHECK_EQ(r.shadow_loads, 224);
    perturbed_nth("cutcp", kv, 1, 25);
    const char *kt[] = { "atoms=100", "box=6", "cutoff=4", NULL };
    CHECK(timed("cutcp", kt) > 0);
}

TEST(wl_parboil_sad)
{
    const char *kv[] = { "width=32", "height=32", NULL };
    WL_RUN_BOTH("sad", kv, 7);
    const char *kv2[] = { "width=48", "height=16", "repeat=2", NULL };
    WL_RUN_BOTH("sad", kv2, 7);
    /* 32 x 32: mb_sad_calc 8 x 8 blocks of 61 threads. Warp 0: 8, 16 lanes copy the block
     * (IMAD, LDG.U16, STS), BAR, 6 iterations of 142 (per row 4 LDS + 6 TEX + 12 x (IADD,
     * IABS-add); 3 STS; IADD3 ISETP BRA), BAR, IMAD, 9 x (LDS.64, STG.64, IADD3 ISETP BRA),
     * EXIT = 912; warp 1 (29 threads) the same without the copies = 863. larger_sad_calc_8:
     * 2 x 2 blocks of 4 warps, larger_sad_calc_16: 2 x 2 blocks of 1, each warp 11 + 18 x 17
     * (ISETP, BRA, 4 LDG, 5 x (IADD, STG), IADD) + ISETP BRA + EXIT = 320 */
    gms_functional_result r;
    gms_error e = {0};
    REQUIRE(gms_workload_run_functional(gms_workload_find("sad"), kv, 1, &r, &e) == 0);
    CHECK_EQ(r.kernels, 3);
    CHECK_EQ(r.warp_insts, 64 * (912 + 863) + 16 * 320 + 4 * 320);
    perturbed("sad", kv, 0, 0);
    const gms_workload_ops *o = gms_workload_find("sad");
    gms_wl_args *a = NULL;
    REQUIRE(gms_wl_args_parse(o, NULL, 1, &a, &e) == 0);
    CHECK_EQ(o->footprint(a), (99ull * 41 * 1096 + 2 * 176 * 144) * 2);
    gms_wl_args_free(a);
    CHECK(timed("sad", kv) > 0);
}

TEST(wl_parboil_tpacf)
{
    const char *kv[] = { "sets=2", "points=40", NULL };
    WL_RUN_BOTH("tpacf", kv, 7);
    const char *kv2[] = { "sets=1", "points=300", "repeat=2", NULL };   /* two tiles of 256 */
    WL_RUN_BOTH("tpacf", kv2, 7);
    /* 2*sets+1 blocks: DD, RR per set, DR per set */
    gms_functional_result r;
    gms_error e = {0};
    REQUIRE(gms_workload_run_functional(gms_workload_find("tpacf"), kv, 1, &r, &e) == 0);
    CHECK_EQ(r.kernels, 1);
    CHECK_EQ(r.blocks, 5);
    /* only the load side: the kernel's one global store writes 8-byte bins, so a lane moved by
     * 4 bytes writes its own upper half; lane 0 is bin 0 (1 to 1.6 arcmin), empty for these
     * points (and below float resolution near cos = 1), so no moved store can show */
    {
        gms_functional_result r1;
        REQUIRE(frun("tpacf", kv, 0, 0, &r1, &e) == 0);
        CHECK(frun("tpacf", kv, 0, r1.shadow_loads, &r, &e) != 0);
    }
    const gms_workload_ops *o = gms_workload_find("tpacf");
    gms_wl_args *a = NULL;
    REQUIRE(gms_wl_args_parse(o, NULL, 1, &a, &e) == 0);
    CHECK_EQ(o->footprint(a), 201ull * 20 * 8 + 3ull * 101 * 487 * 4);
    gms_wl_args_free(a);
    CHECK(timed("tpacf", kv) > 0);
}
