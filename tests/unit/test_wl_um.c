/* UVMSmart's benchmarks/Managed workloads (um-*, issue 21): hand-counted warp streams,
 * verified against the host reference with uvm=0|1, the shadow memory catches a moved store, and a timing run on the UVMSmart preset gives hand-computed UVM counters. */
#include "test.h"
#include "wl_test_util.h"
#include "config/params.h"
#include "workloads/workload.h"
#include <string.h>

static int frun(const char *name, const char *const *kv, gms_functional_opts *o, gms_functional_result *r, gms_error *e)
{
    memset(e, 0, sizeof *e);
    return gms_workload_run_functional_opts(gms_workload_find(name), kv, 1, o, r, e);
}

/* warps, instructions per warp and memory instructions per warp, hand-counted */
static void counts(const char *name, const char *const *kv, uint64_t warps, uint64_t per_warp, uint64_t mem_per_warp)
{
    gms_functional_opts o = {.shadow = 1};
    gms_functional_result r;
    gms_error e;
    int rc = frun(name, kv, &o, &r, &e);
    if (rc) printf("    %s: %s\n", name, e.msg);
    REQUIRE(rc == 0);
    CHECK_EQ(r.kernels, 1);
    CHECK_EQ(r.warp_insts, warps * per_warp);
    CHECK_EQ(r.mem_insts, warps * mem_per_warp);
    /* the last store moved by 4 bytes: verification fails. (A moved load cannot be caught: the
     * benchmarks' inputs are constant arrays, x = 1 and y = 2, as UVMSmart initialises them.) */
    CHECK(r.shadow_loads > 0);
    gms_functional_opts ps = {.shadow = 1, .perturb_store = r.shadow_stores, .perturb_delta = 4};
    CHECK(frun(name, kv, &ps, &r, &e) != 0);
}

TEST(wl_um_addvectors_stream)
{
    /* n = 1000, 256 threads: 4 blocks x 8 warps, every warp has a live lane (the last 992..999).
     * Per warp: prologue MOV S2R S2R IMAD ISETP @P0 EXIT (6), stride (1), one loop pass
     * MOV IMAD.WIDE IMAD.WIDE LDG LDG FADD STG IADD ISETP BRA (10), EXIT: 18, 3 memory */
    const char *kv[] = {"n=1000", NULL};
    counts("um-addvectors", kv, 32, 18, 3);
    WL_RUN_BOTH("um-addvectors", kv, 3);
    const char *kv2[] = {"n=4097", "block=128", NULL};
    WL_RUN_BOTH("um-addvectors", kv2, 5);
}

TEST(wl_um_streamtriad_stream)
{
    /* as addvectors plus I2F of the scalar before the loop and the third address: 20, 3 memory */
    const char *kv[] = {"n=1000", NULL};
    counts("um-streamtriad", kv, 32, 20, 3);
    WL_RUN_BOTH("um-streamtriad", kv, 3);
    const char *kv2[] = {"n=777", "scalar=7", NULL};
    WL_RUN_BOTH("um-streamtriad", kv2, 5);
}

TEST(wl_um_ra_stream)
{
    /* n = 1000, 256 threads: 32 warps; threads 0, 100, ..., 900 work, one lane each in 10
     * different warps. Every warp: MOV S2R S2R IMAD ISETP, x % 100 (IMAD.HI SHF IMAD ISETP),
     * @P0 EXIT = 10; the 10 working warps add 12 (3 memory): 32 x 10 + 10 x 12 = 440, 30 */
    const char *kv[] = {"n=1000", NULL};
    counts("um-ra", kv, 1, 440, 30);
    WL_RUN_BOTH("um-ra", kv, 3);
    /* scale=0.25: 2622 working threads over 2^18 slots, about 13 pairs race on one output slot */
    const char *kv2[] = {"scale=0.25", NULL};
    WL_RUN_BOTH("um-ra", kv2, 5);
    const char *kv3[] = {"n=5000", "every=7", "block=96", NULL};
    WL_RUN_BOTH("um-ra", kv3, 7);
}

static double stat_of(const gms_run_stats *r, const char *name)
{
    double v = -1;
    return gms_stats_total(r, name, &v) ? -1 : v;
}

TEST(wl_um_addvectors_prefetched_on_the_uvmsmart_preset)
{
    /* n = 2^19: x and y are 2 MiB each, both prefetched before the launch in one 2 MiB chunk
     * each (UVMSmart's cudaMemPrefetchAsync): 2 x 242080 cycles (atan curve at 16 GB/s, no
     * memcpy halving for prefetches), 1024 pages, no far fault */
    gms_params *p = gms_params_new();
    gms_error err = {0};
    REQUIRE(gms_params_load_file(p, "configs/gtx1080ti.config", &err) == 0);
    REQUIRE(gms_params_finalize(p, &err) == 0);
    const char *kv[] = {"n=524288", "uvm=1", NULL};
    gms_workload_spec w = {"um-addvectors", NULL, kv, 1, NULL};
    gms_sim *s = gms_sim_new(p, &w, &err);
    REQUIRE(s);
    int rc = gms_sim_run(s, &err);
    if (rc) printf("    %s\n", err.msg);
    REQUIRE(rc == 0);
    const gms_run_stats *r = gms_sim_stats(s);
    CHECK_EQ(stat_of(r, "gms_workload_verified"), 1);
    CHECK_EQ(stat_of(r, "Tot_prefetch_time"), 2 * 242080);
    CHECK_EQ(stat_of(r, "Tot_page_miss"), 1024);
    CHECK_EQ(stat_of(r, "Page_tot_fault"), 0);
    CHECK_EQ(stat_of(r, "Uvm_pages_migrated_in"), 1024);
    gms_sim_free(s);
    gms_params_free(p);
}

TEST(wl_um_addvectors_without_its_prefetch_faults)
{
    /* prefetch_xy=0: the same program without cudaMemPrefetchAsync far-faults every page in */
    gms_params *p = gms_params_new();
    gms_error err = {0};
    REQUIRE(gms_params_load_file(p, "configs/gtx1080ti.config", &err) == 0);
    REQUIRE(gms_params_finalize(p, &err) == 0);
    const char *kv[] = {"n=65536", "uvm=1", "prefetch_xy=0", NULL};
    gms_workload_spec w = {"um-addvectors", NULL, kv, 1, NULL};
    gms_sim *s = gms_sim_new(p, &w, &err);
    REQUIRE(s);
    REQUIRE(gms_sim_run(s, &err) == 0);
    const gms_run_stats *r = gms_sim_stats(s);
    CHECK_EQ(stat_of(r, "gms_workload_verified"), 1);
    CHECK_EQ(stat_of(r, "Tot_prefetch_time"), 0);
    CHECK(stat_of(r, "Page_tot_fault") > 0);
    CHECK_EQ(stat_of(r, "Uvm_pages_migrated_in"), 128);   /* 2 x 256 KiB, every page once */
    gms_sim_free(s);
    gms_params_free(p);
}

/* one run on the UVMSmart preset (gtx1080ti.config), -uvm_alloc_round as given; a statistic */
static double preset_stat(const char *name, const char *const *kv, const char *round, const char *stat)
{
    gms_params *p = gms_params_new();
    gms_error err = {0};
    double v = -1;
    if (gms_params_load_file(p, "configs/gtx1080ti.config", &err) || gms_params_set(p, "uvm_alloc_round", round, &err) ||
        gms_params_finalize(p, &err)) {
        printf("    %s\n", err.msg);
        gms_params_free(p);
        return -1;
    }
    gms_workload_spec w = {name, NULL, kv, 1, NULL};
    gms_sim *s = gms_sim_new(p, &w, &err);
    if (s && gms_sim_run(s, &err) == 0) {
        const gms_run_stats *r = gms_sim_stats(s);
        if (stat_of(r, "gms_workload_verified") == 1) v = stat_of(r, stat);
    } else {
        printf("    %s: %s\n", name, err.msg);
    }
    gms_sim_free(s);
    gms_params_free(p);
    return v;
}

TEST(wl_um_polybench_set_verifies)
{
    const char *kc[] = {"NI=64", "NJ=96", NULL};
    WL_RUN_BOTH("um-2dconv", kc, 3);
    const char *ka[] = {"NX=100", "NY=70", NULL};
    WL_RUN_BOTH("um-atax", ka, 3);
    const char *kf[] = {"tmax=2", "NX=40", "NY=50", NULL};
    WL_RUN_BOTH("um-fdtd2d", kf, 3);
}

TEST(wl_um_atax_rounded_allocations_migrate_more)
{
    /* NX = NY = 100: A is 40000 bytes (10 pages), x, y, tmp 400 bytes (1 page each). The tree
     * prefetcher takes every page of each allocation: 13 pages; with UVMSmart's rounding A and
     * each vector span 64 KiB: 4 x 16 = 64 pages */
    const char *kv[] = {"NX=100", "NY=100", "uvm=1", NULL};
    CHECK_EQ(preset_stat("um-atax", kv, "0", "Uvm_pages_migrated_in"), 13);
    CHECK_EQ(preset_stat("um-atax", kv, "1", "Uvm_pages_migrated_in"), 64);
}

TEST(wl_um_fdtd2d_ends_without_device_sync)
{
    /* UVMSmart's FDTD-2D never calls cudaDeviceSynchronize: nothing is copied back at its end,
     * while um-2dconv's final sync copies its dirty B back */
    const char *kf[] = {"tmax=1", "NX=32", "NY=32", "uvm=1", NULL};
    CHECK_EQ(preset_stat("um-fdtd2d", kf, "1", "Uvm_devsyncs"), 0);
    const char *kc[] = {"NI=32", "NJ=32", "uvm=1", NULL};
    CHECK_EQ(preset_stat("um-2dconv", kc, "1", "Uvm_devsyncs"), 1);
    /* B: rows 1..30 written, 128 bytes each, all in B's first page (4 KiB) */
    CHECK_EQ(preset_stat("um-2dconv", kc, "1", "Uvm_devsync_pages"), 1);
}

TEST(wl_um_pathfinder_prefetches_wall_and_first_row)
{
    /* cols 300, rows 50: gpuWall 4 x 300 x 49 = 58800 bytes (15 pages) and gpuResult0 1200 bytes
     * (1 page) are prefetched before the first launch: Tot_page_miss 16, no fault on them;
     * gpuResult1 is written by the first kernel: 1 far fault, and the tree prefetcher takes its
     * rounded 64 KiB leaf, 16 pages: 32 migrated */
    const char *kv[] = {"cols=300", "rows=50", "pyramid=10", "uvm=1", NULL};
    CHECK_EQ(preset_stat("um-pathfinder", kv, "1", "Tot_page_miss"), 16);
    CHECK_EQ(preset_stat("um-pathfinder", kv, "1", "Page_tot_fault"), 1);
    CHECK_EQ(preset_stat("um-pathfinder", kv, "1", "Uvm_pages_migrated_in"), 32);
    const char *kn[] = {"cols=300", "rows=50", "pyramid=10", NULL};
    WL_RUN_BOTH("um-pathfinder", kn, 3);
}

TEST(wl_um_hotspot_syncs_once_at_the_end)
{
    /* 64x64 grid, pyramid 2, 8 steps: 4 launches. The built-in (UVMBench) hotspot synchronises
     * after each, so -uvm_sync_writeback copies back 4 times; UVMSmart's launches them back to
     * back and synchronises once: both 16 KiB temperature buffers are dirty then, 8 pages */
    const char *kv[] = {"rows=64", "pyramid=2", "sim_time=8", "uvm=1", NULL};
    CHECK_EQ(preset_stat("hotspot", kv, "1", "Uvm_devsyncs"), 4);
    CHECK_EQ(preset_stat("um-hotspot", kv, "1", "Uvm_devsyncs"), 1);
    CHECK_EQ(preset_stat("um-hotspot", kv, "1", "Uvm_devsync_pages"), 8);
    const char *kn[] = {"rows=64", "pyramid=2", "sim_time=8", NULL};
    WL_RUN_BOTH("um-hotspot", kn, 3);
}

TEST(wl_um_nw_back_to_back_and_rounded)
{
    /* dim 64: referrence and itemsets are 65 x 65 ints = 16900 bytes (5 pages), rounded to
     * 64 KiB each: 32 pages migrated; 4 + 3 launches, one sync copying itemsets' 5 pages back */
    const char *kv[] = {"dim=64", "uvm=1", NULL};
    CHECK_EQ(preset_stat("um-nw", kv, "1", "Uvm_pages_migrated_in"), 32);
    CHECK_EQ(preset_stat("um-nw", kv, "1", "Uvm_devsyncs"), 1);
    CHECK_EQ(preset_stat("um-nw", kv, "1", "Uvm_devsync_pages"), 5);
    const char *kn[] = {"dim=64", NULL};
    WL_RUN_BOTH("um-nw", kn, 3);
}

TEST(wl_um_srad_v2_only_j_is_managed)
{
    /* 64x64, 2 iterations: only J (16 KiB, 4 pages) is managed; rounded to 64 KiB, the first
     * fault's leaf brings 16 pages; each iteration's sync copies J's 4 dirty pages back and
     * invalidates them, the second iteration faults those 4 again (the 12 clean padding pages
     * stay): 20 pages migrated, 2 syncs, 8 pages copied back */
    const char *kv[] = {"rows=64", "cols=64", "iter=2", "y2=31", "x2=31", "uvm=1", NULL};
    CHECK_EQ(preset_stat("um-srad_v2", kv, "1", "Uvm_footprint_bytes"), 16384);
    CHECK_EQ(preset_stat("um-srad_v2", kv, "1", "Uvm_pages_migrated_in"), 20);
    CHECK_EQ(preset_stat("um-srad_v2", kv, "1", "Uvm_devsyncs"), 2);
    CHECK_EQ(preset_stat("um-srad_v2", kv, "1", "Uvm_devsync_pages"), 8);
    const char *kn[] = {"rows=64", "cols=64", "iter=2", "y2=31", "x2=31", NULL};
    WL_RUN_BOTH("um-srad_v2", kn, 3);
}

TEST(wl_um_stencil_one_sync_for_its_launches)
{
    /* 32 x 32 x 8, 3 launches: each array 32 KiB (8 pages, one 4 KiB xy plane per page),
     * rounded to 64 KiB: 32 pages migrated; one sync; planes z = 1..6 written in both arrays
     * (ping-pong): 12 pages copied back */
    const char *kv[] = {"nx=32", "ny=32", "nz=8", "iters=3", "uvm=1", NULL};
    CHECK_EQ(preset_stat("um-stencil", kv, "1", "Uvm_pages_migrated_in"), 32);
    CHECK_EQ(preset_stat("um-stencil", kv, "1", "Uvm_devsyncs"), 1);
    CHECK_EQ(preset_stat("um-stencil", kv, "1", "Uvm_devsync_pages"), 12);
    const char *kn[] = {"nx=32", "ny=32", "nz=8", "iters=3", NULL};
    WL_RUN_BOTH("um-stencil", kn, 3);
}

TEST(wl_um_backprop_adjusts_the_second_weight_copy)
{
    /* input 64: 4 blocks of 16x16. Managed arrays, all allocated before the first launch:
     * input_units 65 floats, hidden_delta 17, input_weights, input_weights2, input_prev_weights
     * 65 x 17 = 1105 each, output_hidden_cuda 17, hidden_partial_sum 4 x 16:
     * 4 x (65 + 17 + 3 x 1105 + 17 + 64) = 13912 bytes (9492 without input_weights2).
     * Rounded to 64 KiB, each array the GPU touches brings its 16-page leaf: the forward kernel
     * input_units, input_weights, hidden_partial_sum; the adjust kernel also hidden_delta,
     * input_weights2, input_prev_weights (output_hidden_cuda is never touched): 6 x 16 = 96.
     * Two syncs copy back the dirty pages: input_weights (rows 1..64 of 17 floats from byte 72:
     * 2 pages) and the partial sums (1), then input_weights2 and input_prev_weights (2 + 2): 7 */
    const char *kv[] = {"input=64", "uvm=1", NULL};
    CHECK_EQ(preset_stat("um-backprop", kv, "1", "Uvm_footprint_bytes"), 13912);
    CHECK_EQ(preset_stat("um-backprop", kv, "1", "Uvm_pages_migrated_in"), 96);
    CHECK_EQ(preset_stat("um-backprop", kv, "1", "Uvm_devsyncs"), 2);
    CHECK_EQ(preset_stat("um-backprop", kv, "1", "Uvm_devsync_pages"), 7);
    const char *k0[] = {"input=64", "uvm=1", "weights2=0", NULL};
    CHECK_EQ(preset_stat("um-backprop", k0, "1", "Uvm_footprint_bytes"), 9492);
    const char *kn[] = {"input=256", NULL};
    WL_RUN_BOTH("um-backprop", kn, 3);
    /* shadow: input 32, 2 blocks. A moved load in the adjust kernel (its last, lane 0 of
     * input_weights2[1] read at [2]) is caught; so is a moved store: the forward kernel makes
     * 2 x 8 warps x 2 stores = 32, the adjust kernel per warp an input_weights2 store and then
     * an input_prev_weights store, so store 34 is warp 0's input_prev_weights store: [18] left
     * 0 where the update is -1.4e-10. (At this size the hidden units are nearly saturated and
     * the updates, ~1e-10, vanish in the weights themselves, w + dw == w: a moved weight store
     * cannot be seen; at input 256 and up they are exactly 0, in backprop as well.) */
    const char *ks[] = {"input=32", NULL};
    gms_functional_opts o = {.shadow = 1};
    gms_functional_result r;
    gms_error e;
    REQUIRE(frun("um-backprop", ks, &o, &r, &e) == 0);
    CHECK_EQ(r.kernels, 2);
    CHECK_EQ(r.shadow_stores, 66);   /* 32 + 2 x 8 warps x 2 + 2 (block 0's row-0 update) */
    gms_functional_opts pl = {.shadow = 1, .perturb_load = r.shadow_loads, .perturb_delta = 4};
    CHECK(frun("um-backprop", ks, &pl, &r, &e) != 0);
    gms_functional_opts ps = {.shadow = 1, .perturb_store = 34, .perturb_delta = 4};
    CHECK(frun("um-backprop", ks, &ps, &r, &e) != 0);
}

TEST(wl_um_bfs_graphgen_levels)
{
    /* 1000 nodes drawing exactly 2 neighbours each, both directions stored: 4000 edges.
     * Managed: graph_nodes 8000 bytes, three 1000-byte masks, graph_edges 16000, cost 4000:
     * 31000 bytes (d_over is cudaMalloc). Page-aligned: 2 + 3 x 1 + 4 + 1 = 10 pages, all
     * touched over the search; rounded to 64 KiB: 6 x 16 = 96. The one sync finds the three
     * masks and cost dirty: 4 pages */
    const char *kv[] = {"nodes=1000", "deg_min=2", "deg_max=2", "uvm=1", NULL};
    CHECK_EQ(preset_stat("um-bfs", kv, "1", "Uvm_footprint_bytes"), 31000);
    CHECK_EQ(preset_stat("um-bfs", kv, "0", "Uvm_pages_migrated_in"), 10);
    CHECK_EQ(preset_stat("um-bfs", kv, "1", "Uvm_pages_migrated_in"), 96);
    CHECK_EQ(preset_stat("um-bfs", kv, "1", "Uvm_devsyncs"), 1);
    CHECK_EQ(preset_stat("um-bfs", kv, "1", "Uvm_devsync_pages"), 4);
    const char *kn[] = {"nodes=3000", NULL};
    WL_RUN_BOTH("um-bfs", kn, 3);
    const char *kr[] = {"nodes=700", "repeat=2", NULL};
    WL_RUN_BOTH("um-bfs", kr, 5);
    /* one Kernel + Kernel2 pair per level and one more that changes nothing: even. A moved
     * load is caught; so is the first store moved (graph_mask[0] cleared at [4] instead: node
     * 4 would expand, node 0 again). (A moved cost store can hide behind another frontier
     * node writing the same value to a shared neighbour.) */
    gms_functional_opts o = {.shadow = 1};
    gms_functional_result r;
    gms_error e;
    REQUIRE(frun("um-bfs", kn, &o, &r, &e) == 0);
    CHECK(r.kernels >= 4 && r.kernels % 2 == 0);
    uint64_t nl = r.shadow_loads, ns = r.shadow_stores;
    gms_functional_opts pl = {.shadow = 1, .perturb_load = nl / 2, .perturb_delta = 4};
    CHECK(frun("um-bfs", kn, &pl, &r, &e) != 0);
    CHECK(ns > 0);
    gms_functional_opts ps = {.shadow = 1, .perturb_store = 1, .perturb_delta = 4};
    CHECK(frun("um-bfs", kn, &ps, &r, &e) != 0);
}

TEST(wl_um_sssp_fifteen_rounds)
{
    /* 1024 vertices, 2 out-edges each: managed vertexArray 4096 bytes, edgeArray and
     * weightArray 8192 each, the distances and the updating distances 4096 each: 28672 bytes
     * (finalizedVertices is cudaMalloc). Pages: 1 + 2 + 2 + 1 + 1 = 7; rounded to 64 KiB each:
     * 5 x 16 = 80. The one sync finds both distance arrays dirty: 2 pages */
    const char *kv[] = {"vertices=1024", "uvm=1", NULL};
    CHECK_EQ(preset_stat("um-sssp", kv, "1", "Uvm_footprint_bytes"), 28672);
    CHECK_EQ(preset_stat("um-sssp", kv, "0", "Uvm_pages_migrated_in"), 7);
    CHECK_EQ(preset_stat("um-sssp", kv, "1", "Uvm_pages_migrated_in"), 80);
    CHECK_EQ(preset_stat("um-sssp", kv, "1", "Uvm_devsyncs"), 1);
    CHECK_EQ(preset_stat("um-sssp", kv, "1", "Uvm_devsync_pages"), 2);
    /* initializeArrays + 15 Kernel1/Kernel2 pairs (3 batches of 5: 1024 vertices are more
     * than 15 hops deep from vertex 0 for some). 2 vertices, 1 out-edge each (0 -> 1 -> 0):
     * round 1 settles vertex 1, round 2 changes nothing, so the flags read after the first
     * batch are all clear: initializeArrays + 5 pairs */
    gms_functional_opts o = {.shadow = 1};
    gms_functional_result r;
    gms_error e;
    const char *kn[] = {"vertices=1024", NULL};
    REQUIRE(frun("um-sssp", kn, &o, &r, &e) == 0);
    CHECK_EQ(r.kernels, 31);
    uint64_t nl = r.shadow_loads;
    const char *ks[] = {"vertices=2", "neighbors=1", NULL};
    REQUIRE(frun("um-sssp", ks, &o, &r, &e) == 0);
    CHECK_EQ(r.kernels, 11);
    WL_RUN_BOTH("um-sssp", kn, 3);
    const char *kr[] = {"vertices=500", "repeat=2", NULL};
    WL_RUN_BOTH("um-sssp", kr, 5);
    /* a moved load and the first store moved (finalizedVertices[0] set at [4]) are caught */
    gms_functional_opts pl = {.shadow = 1, .perturb_load = nl / 2, .perturb_delta = 4};
    CHECK(frun("um-sssp", kn, &pl, &r, &e) != 0);
    gms_functional_opts ps = {.shadow = 1, .perturb_store = 1, .perturb_delta = 4};
    CHECK(frun("um-sssp", kn, &ps, &r, &e) != 0);
}
