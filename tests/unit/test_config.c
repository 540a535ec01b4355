/* Config: GPGPU-Sim syntax, overrides, includes, errors. */
#include "test.h"
#include "frontend/inst.h"
#include "config/params.h"
#include "config/gpgpusim_names.h"
#include "core/warp_sched.h"
#include <stdlib.h>
#include <unistd.h>

static char *write_tmp(const char *text)
{
    char *path = strdup("/tmp/gms_cfg_XXXXXX");
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

TEST(config_defaults_are_gpgpusim)
{
    gms_params *p = gms_params_new();
    gms_error err = {0};
    REQUIRE(gms_params_finalize(p, &err) == 0);
    CHECK_EQ(p->core.n_clusters, 10);
    CHECK_EQ(p->core.n_cores_per_cluster, 3);
    CHECK_EQ(p->core.n_sm, 30);
    CHECK_EQ(p->core.max_threads_per_sm, 1024);
    CHECK_NEAR(p->core.mhz_core, 500.0, 1e-9);
    gms_params_free(p);
}

TEST(config_file_override_and_comments)
{
    char *a = write_tmp("# a comment\n-gpgpu_n_clusters 15   # trailing comment\n-gpgpu_n_cores_per_cluster 1\n"
                        "-gpgpu_clock_domains 1400.0:1400.0:1400.0:924.0\n");
    char *b = write_tmp("-gpgpu_n_clusters 16\n");
    gms_params *p = gms_params_new();
    gms_error err = {0};
    REQUIRE(gms_params_load_file(p, a, &err) == 0);
    REQUIRE(gms_params_load_file(p, b, &err) == 0);
    REQUIRE(gms_params_set(p, "gpgpu_shader_cta", "16", &err) == 0);
    REQUIRE(gms_params_finalize(p, &err) == 0);
    CHECK_EQ(p->core.n_sm, 16);          /* later file wins */
    CHECK_EQ(p->core.shader_cta, 16);    /* --set wins */
    CHECK_NEAR(p->core.mhz_dram, 924.0, 1e-9);
    gms_params_free(p);
    unlink(a); unlink(b); free(a); free(b);
}

TEST(config_quoted_value_spanning_lines)
{
    char *a = write_tmp("-gpgpu_scheduler \"two_level_active:\n      6:0:1\"\n-gpgpu_n_clusters 2\n");
    gms_params *p = gms_params_new();
    gms_error err = {0};
    REQUIRE(gms_params_load_file(p, a, &err) == 0);
    CHECK_STR(p->core.scheduler, "two_level_active:6:0:1");
    CHECK_EQ(p->core.n_clusters, 2);
    REQUIRE(gms_params_finalize(p, &err) == 0);
    CHECK_STR(gms_warp_sched_find(p->core.scheduler)->name, "two_level_active");
    CHECK_EQ(p->core.two_level_active, 6);
    gms_params_free(p);
    unlink(a); free(a);
}

TEST(config_unknown_option_names_nearest)
{
    char *a = write_tmp("-gpgpu_n_clusters 2\n-gpgpu_n_clustrs 3\n");
    gms_params *p = gms_params_new();
    gms_error err = {0};
    CHECK(gms_params_load_file(p, a, &err) != 0);
    CHECK_CONTAINS(err.msg, ":2:");
    CHECK_CONTAINS(err.msg, "unknown option -gpgpu_n_clustrs");
    CHECK_CONTAINS(err.msg, "did you mean -gpgpu_n_clusters");
    gms_params_free(p);
    /* with ignore_unknown it is listed instead */
    p = gms_params_new();
    gms_params_set_ignore_unknown(p, 1);
    memset(&err, 0, sizeof err);
    CHECK_EQ(gms_params_load_file(p, a, &err), 0);
    CHECK_EQ(gms_params_n_ignored(p), 1);
    CHECK_CONTAINS(gms_params_ignored(p, 0), "gpgpu_n_clustrs");
    gms_params_free(p);
    unlink(a); free(a);
}

/* GPGPU-Sim's / Accel-Sim's / UVMSmart's own options that gpumemsim does not model load without
 * --ignore-unknown and are listed as ignored; a name in neither gpumemsim's registry nor that
 * catalogue is still an error naming the nearest option */
TEST(config_gpgpusim_catalogue)
{
    size_t n = gms_gpgpusim_option_count();
    CHECK(n > 250);
    for (size_t i = 1; i < n; i++) CHECK(strcmp(gms_gpgpusim_option_at(i - 1), gms_gpgpusim_option_at(i)) < 0);
    CHECK(gms_gpgpusim_option_at(n) == NULL);
    CHECK(gms_gpgpusim_option_known("gpgpu_stack_size_limit"));
    CHECK(gms_gpgpusim_option_known("-gpgpu_TB_launch_latency"));
    CHECK(gms_gpgpusim_option_known("gpgpu_dual_issue_diff_exec_units"));
    CHECK(gms_gpgpusim_option_known("gpgpu_n_clusters"));
    CHECK(!gms_gpgpusim_option_known("gpgpu_n_clustrs"));
    CHECK(!gms_gpgpusim_option_known("gpgpu_tb_launch_latency"));   /* names are case-sensitive */
    static const char text[] = "-gpgpu_n_clusters 2\n-gpgpu_stack_size_limit 1024\n-gpgpu_heap_size_limit 8388608\n";
    gms_params *p = gms_params_new();
    gms_error err = {0};
    REQUIRE(gms_params_load_text(p, "a.config", text, sizeof text - 1, &err) == 0);
    REQUIRE(gms_params_finalize(p, &err) == 0);
    CHECK_EQ(p->core.n_clusters, 2);
    CHECK_EQ(gms_params_n_ignored(p), 2);
    CHECK_STR(gms_params_ignored(p, 0), "a.config:2: -gpgpu_stack_size_limit 1024");
    CHECK_STR(gms_params_ignored_name(p, 1), "-gpgpu_heap_size_limit");
    CHECK(gms_params_accepts_option("gpgpu_stack_size_limit"));
    CHECK(!gms_params_has_option("gpgpu_stack_size_limit"));
    CHECK(!gms_params_accepts_option("gpgpu_stack_size_limt"));
    /* a typo is an error; with --ignore-unknown it is listed, marked unknown */
    CHECK(gms_params_set(p, "gpgpu_stack_size_limt", "1", &err) != 0);
    CHECK_CONTAINS(err.msg, "unknown option -gpgpu_stack_size_limt: neither a gpumemsim nor a GPGPU-Sim option");
    CHECK_CONTAINS(err.msg, "did you mean -gpgpu_stack_size_limit, a GPGPU-Sim option gpumemsim does not model?");
    CHECK(gms_params_set(p, "gpgpu_n_clustrs", "1", &err) != 0);   /* a registered option still wins */
    CHECK_CONTAINS(err.msg, "did you mean -gpgpu_n_clusters?");
    gms_params_set_ignore_unknown(p, 1);
    CHECK(gms_params_set(p, "gpgpu_stack_size_limt", "1", &err) == 0);
    CHECK_EQ(gms_params_n_ignored(p), 3);
    CHECK_CONTAINS(gms_params_ignored(p, 2), "(unknown: neither a gpumemsim nor a GPGPU-Sim option)");
    gms_params_free(p);
}

/* the crossbar's traversal latency: none by default (GPGPU-Sim's local crossbar), 8 for a
 * BookSim config (-network_mode 1) that does not set it, and what a config sets in any case */
TEST(config_icnt_latency_follows_network_mode)
{
    static const char *const text[] = { "", "-network_mode 1\n", "-network_mode 1\n-icnt_latency 3\n",
                                        "-network_mode 2\n-icnt_latency 5\n" };
    static const uint32_t want[] = { 0, 8, 3, 5 };
    for (size_t i = 0; i < 4; i++) {
        gms_params *p = gms_params_new();
        gms_error err = {0};
        REQUIRE(gms_params_load_text(p, "n.config", text[i], strlen(text[i]), &err) == 0);
        REQUIRE(gms_params_finalize(p, &err) == 0);
        CHECK_EQ(p->icnt.latency, want[i]);
        REQUIRE(gms_params_finalize(p, &err) == 0);   /* finalizing again changes nothing */
        CHECK_EQ(p->icnt.latency, want[i]);
        gms_params_free(p);
    }
}

TEST(config_bad_values_are_errors)
{
    struct { const char *name, *val, *expect; } cases[] = {
        { "gpgpu_n_clusters", "abc", "not an unsigned" },
        { "gpgpu_n_clusters", "-3", "negative" },
        { "gpgpu_flush_l1_cache", "2", "boolean" },
        { "gms_seed", "1.5", "not an unsigned 64-bit integer" },   /* a seed is a plain integer, no units */
        /* a string longer than its field (32 bytes) is refused, not written past it */
        { "gms_l1d_mshr", "conventional-conventional-conventional", "longer than 31 characters" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gms_params *p = gms_params_new();
        gms_error err = {0};
        CHECK(gms_params_set(p, cases[i].name, cases[i].val, &err) != 0);
        CHECK_CONTAINS(err.msg, cases[i].name);
        CHECK_CONTAINS(err.msg, cases[i].expect);
        gms_params_free(p);
    }
}

TEST(config_impossible_geometry_is_error)
{
    struct { const char *name, *val, *expect; } cases[] = {
        { "gpgpu_clock_domains", "1000:1000:1000", "gpgpu_clock_domains" },
        { "gpgpu_shader_core_pipeline", "1000:32", "multiple of the warp size" },
        { "gpgpu_n_clusters", "0", "at least 1" },
        { "gpgpu_scheduler", "fifo", "unknown warp scheduler 'fifo'; known: lrr, gto, two_level_active" },
        { "gpgpu_num_sched_per_core", "0", "gpgpu_num_sched_per_core" },
        { "trace_opcode_latency_initiation_sp", "0,1", "trace_opcode_latency_initiation_sp" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gms_params *p = gms_params_new();
        gms_error err = {0};
        REQUIRE(gms_params_set(p, cases[i].name, cases[i].val, &err) == 0);
        CHECK(gms_params_finalize(p, &err) != 0);
        CHECK_CONTAINS(err.msg, cases[i].expect);
        gms_params_free(p);
    }
}

TEST(config_missing_file_and_include)
{
    gms_params *p = gms_params_new();
    gms_error err = {0};
    CHECK(gms_params_load_file(p, "/nonexistent/x.config", &err) != 0);
    CHECK_CONTAINS(err.msg, "/nonexistent/x.config");
    gms_params_free(p);
    char *inner = write_tmp("-gpgpu_n_clusters 7\n");
    char text[512];
    snprintf(text, sizeof text, "-config %s\n-gpgpu_n_cores_per_cluster 2\n", inner);
    char *outer = write_tmp(text);
    p = gms_params_new();
    REQUIRE(gms_params_load_file(p, outer, &err) == 0);
    REQUIRE(gms_params_finalize(p, &err) == 0);
    CHECK_EQ(p->core.n_sm, 14);
    gms_params_free(p);
    unlink(inner); unlink(outer); free(inner); free(outer);
}

TEST(config_presets_load)
{
    const char *presets[] = { "configs/qv100.config", "configs/gtx480.config", "configs/maxwell-sound-baseline.config",
                              "configs/dlmshr-28sm.config", "configs/gtx1080ti.config" };
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++) {
        gms_params *p = gms_params_new();
        gms_error err = {0};
        int rc = gms_params_load_file(p, presets[i], &err);
        if (!rc) rc = gms_params_finalize(p, &err);
        if (rc) printf("    %s: %s\n", presets[i], err.msg);
        CHECK_EQ(rc, 0);
        gms_params_free(p);
    }
}

/* a mechanism's knobs set while the mechanism is off would be accepted and never used */
TEST(config_knobs_of_an_off_mechanism_are_errors)
{
    struct { const char *name, *val, *expect; } cases[] = {
        { "gms_mrpb_queues", "4", "-gms_mrpb_queues is set, but it has no effect unless -gms_mrpb 1" },
        { "gms_mdb_period", "500", "-gms_mdb_period is set, but it has no effect unless -gms_l1d_bypass is mdb" },
        { "gms_bypass_l", "2", "unless -gms_l1d_bypass static" },
        { "gms_ccws_vta", "4", "unless -gms_ccws 1" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gms_params *p = gms_params_new();
        gms_error err = {0};
        REQUIRE(gms_params_set(p, cases[i].name, cases[i].val, &err) == 0);
        CHECK(gms_params_finalize(p, &err) != 0);
        CHECK_CONTAINS(err.msg, cases[i].expect);
        gms_params_free(p);
    }
    /* with the mechanism on, the same knob is fine */
    gms_params *p = gms_params_new();
    gms_error err = {0};
    REQUIRE(gms_params_set(p, "gms_mrpb", "1", &err) == 0);
    REQUIRE(gms_params_set(p, "gms_mrpb_queues", "4", &err) == 0);
    CHECK_EQ(gms_params_finalize(p, &err), 0);
    gms_params_free(p);
}

TEST(config_initiation_interval_zero_is_one)
{
    /* an older Accel-Sim trace.config gives the tensor unit "1,0": GPGPU-Sim's dispatch_delay
     * treats an interval of 0 as 1 */
    gms_params *p = gms_params_new();
    gms_error err = {0};
    REQUIRE(gms_params_set(p, "trace_opcode_latency_initiation_tensor", "1,0", &err) == 0);
    REQUIRE(gms_params_finalize(p, &err) == 0);
    CHECK_EQ(p->core.lat[GMS_OP_TENSOR].lat, 1);
    CHECK_EQ(p->core.lat[GMS_OP_TENSOR].ii, 1);
    gms_params_free(p);
    p = gms_params_new();
    REQUIRE(gms_params_set(p, "trace_opcode_latency_initiation_sp", "4,100001", &err) == 0);
    CHECK(gms_params_finalize(p, &err) != 0);
    CHECK_CONTAINS(err.msg, "initiation interval in 0..100000");
    gms_params_free(p);
}
