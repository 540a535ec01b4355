/* -uvm_oversub_ratio divides the program's whole managed footprint (core/footprint_prepass.h),
 * not the part allocated by the first kernel launch. backprop allocates two of its arrays after
 * its forward kernel; at scale=0.01 (in = 640 inputs, 16 hidden units, 40 blocks):
 *   before the first launch: input 641x4 + output_hidden 17x4 + input_hidden 641x17x4
 *                            + hidden_partial_sum 40x16x4 = 2564 + 68 + 43588 + 2560 = 48780
 *   after it:                hidden_delta 17x4 + input_prev_weights 641x17x4 = 68 + 43588
 *   whole program:           92436 bytes
 * ratio 2: capacity = floor(92436 / 2 / 4096) = 11 pages (the launch-time sum gave 5). */
#include "test.h"
#include "config/params.h"

static int run_backprop_basis(const char *ratio, const char *basis, double *footprint, double *cap_footprint,
                              double *cap_pages, double *touched)
{
    gms_params *p = gms_params_new();
    gms_error err = {0};
    int rc = gms_params_load_file(p, "configs/gtx1080ti.config", &err) ||
             gms_params_set(p, "uvm_oversub_ratio", ratio, &err) ||
             gms_params_set(p, "uvm_oversub_basis", basis, &err) || gms_params_finalize(p, &err);
    const char *kv[] = { "scale=0.01", "uvm=1", NULL };
    gms_workload_spec w = { "backprop", NULL, kv, 1, NULL };
    gms_sim *s = rc ? NULL : gms_sim_new(p, &w, &err);
    rc = s ? gms_sim_run(s, &err) : -1;
    if (rc) printf("    backprop: %s\n", err.msg);
    else {
        const gms_run_stats *r = gms_sim_stats(s);
        double v = 0;
        rc = gms_stats_total(r, "Uvm_footprint_bytes", footprint) ||
             gms_stats_total(r, "Uvm_capacity_footprint_bytes", cap_footprint) ||
             gms_stats_total(r, "Uvm_capacity_pages", cap_pages) ||
             gms_stats_total(r, "Uvm_pages_touched", touched) ||
             gms_stats_total(r, "gms_workload_verified", &v) || v != 1;
    }
    gms_sim_free(s);
    gms_params_free(p);
    return rc;
}

static int run_backprop(const char *ratio, double *footprint, double *cap_footprint, double *cap_pages)
{
    double touched;
    return run_backprop_basis(ratio, "footprint", footprint, cap_footprint, cap_pages, &touched);
}

TEST(uvm_oversub_ratio_over_whole_footprint)
{
    double fp = 0, cfp = 0, pages = 0;
    REQUIRE(run_backprop("2", &fp, &cfp, &pages) == 0);
    CHECK_EQ(fp, 92436);
    CHECK_EQ(cfp, 92436);   /* the ratio was applied to the whole footprint */
    CHECK_EQ(pages, 11);
    /* footprint / capacity is the ratio asked, within the page rounding */
    CHECK(fp / (pages * 4096) >= 2.0 && fp / ((pages + 1) * 4096) < 2.0);
    REQUIRE(run_backprop("1.25", &fp, &cfp, &pages) == 0);
    CHECK_EQ(pages, 18);    /* floor(92436 / 1.25 / 4096) = floor(18.05) */
}

/* -uvm_oversub_basis working-set: the ratio divides the managed pages the kernels touch. Of the
 * six arrays (each allocation starts a fresh 4 KiB page), the kernels touch input (1 page),
 * input_hidden (11), hidden_partial_sum (1), hidden_delta (1) and input_prev_weights (11);
 * output_hidden is passed to the forward kernel but never read: 25 pages, 102,400 bytes (more
 * than the 92,436 allocated: whole pages), capacity floor(25 / 2) = 12 pages. The timed run
 * touches the same 25. */
TEST(uvm_oversub_ratio_over_working_set)
{
    double fp = 0, cfp = 0, pages = 0, touched = 0;
    REQUIRE(run_backprop_basis("2", "working-set", &fp, &cfp, &pages, &touched) == 0);
    CHECK_EQ(fp, 92436);
    CHECK_EQ(cfp, 25 * 4096);
    CHECK_EQ(pages, 13);    /* 25 / 2 = 12.5, the nearest whole page (half up) */
    CHECK_EQ(touched, 25);
    REQUIRE(run_backprop_basis("1.25", "working-set", &fp, &cfp, &pages, &touched) == 0);
    CHECK_EQ(pages, 20);    /* 25 / 1.25 */
}
