/* Options gpumemsim accepts but does not model: their syntax is checked as GPGPU-Sim's type
 * would be, and a configuration that sets one to a non-default value is reported (one warning
 * line, gms_unmodelled_options in the statistics, a mark in config --dump). */
#include "test.h"
#include "config/params.h"
#include "stats/stats.h"
#include <stdlib.h>

static char *capture(void (*fn)(const void *, FILE *), const void *arg)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&buf, &n);
    fn(arg, m);
    fclose(m);
    return buf;
}
static void warn_fn(const void *p, FILE *out) { gms_params_warn_unmodelled(p, out); }
static void dump_fn(const void *p, FILE *out) { gms_params_dump(p, out); }
static void json_fn(const void *r, FILE *out) { gms_stats_write_json(r, out); }
static void text_fn(const void *r, FILE *out) { gms_stats_write_text(r, out); }

TEST(config_unmodelled_syntax_checked)
{
    struct { const char *name, *val, *expect; } bad[] = {
        { "gpgpu_pipeline_widths", "banana", "not a comma-separated list of integers" },
        { "gpgpu_pipeline_widths", "4,4,x", "not a comma-separated list of integers" },
        { "gpgpu_pipeline_widths", "4,,4", "not a comma-separated list of integers" },
        { "gpgpu_pipeline_widths", "4,4,", "not a comma-separated list of integers" },
        { "gpgpu_pipeline_widths", "1,99999999999", "out of range" },
        { "network_mode", "crossbar", "not an unsigned 32-bit integer" },
        { "icnt_subnets", "two", "not an unsigned 32-bit integer" },
        { "gpgpu_cache:dl2_texture_only", "yes", "not a boolean" },
        { "gpgpu_perf_sim_memcpy", "2", "not a boolean" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gms_params *p = gms_params_new();
        gms_error err = {0};
        CHECK(gms_params_set(p, bad[i].name, bad[i].val, &err) != 0);
        CHECK_CONTAINS(err.msg, bad[i].name);
        CHECK_CONTAINS(err.msg, bad[i].expect);
        gms_params_free(p);
    }
    gms_params *p = gms_params_new();
    gms_error err = {0};
    CHECK(gms_params_set(p, "gpgpu_pipeline_widths", "2,1,1,2,1,1,2", &err) == 0);   /* GT200-era, 7 stages */
    CHECK(gms_params_set(p, "gpgpu_pipeline_widths", "-1,0,4", &err) == 0);          /* %d takes signs */
    gms_params_free(p);
}

TEST(config_unmodelled_lists_only_non_defaults)
{
    gms_params *p = gms_params_new();
    gms_error err = {0};
    const char *names[16];
    CHECK_EQ(gms_params_unmodelled(p, names, 16), 0u);
    /* the defaults, written out, are still the defaults */
    REQUIRE(gms_params_set(p, "network_mode", "2", &err) == 0);
    REQUIRE(gms_params_set(p, "icnt_subnets", "2", &err) == 0);
    REQUIRE(gms_params_set(p, "gpgpu_pipeline_widths", "1,1,1,1,1,1,1,1,1,1,1,1,1", &err) == 0);
    CHECK_EQ(gms_params_unmodelled(p, names, 16), 0u);
    char *w = capture(warn_fn, p);
    CHECK_STR(w, "");
    free(w);
    REQUIRE(gms_params_set(p, "network_mode", "1", &err) == 0);
    REQUIRE(gms_params_set(p, "icnt_subnets", "4", &err) == 0);
    REQUIRE(gms_params_finalize(p, &err) == 0);    /* accepted: -network_mode 1 runs the crossbar */
    REQUIRE(gms_params_unmodelled(p, names, 16) == 2);
    CHECK_STR(names[0], "network_mode");
    CHECK_STR(names[1], "icnt_subnets");
    w = capture(warn_fn, p);
    CHECK_CONTAINS(w, "warning: set but not modelled");
    CHECK_CONTAINS(w, "-network_mode, -icnt_subnets");
    CHECK(strchr(w, '\n') == w + strlen(w) - 1);    /* one line */
    free(w);
    gms_params_free(p);
}

TEST(config_unmodelled_preset_and_dump)
{
    gms_params *p = gms_params_new();
    gms_error err = {0};
    REQUIRE(gms_params_load_file(p, "configs/qv100.config", &err) == 0);
    REQUIRE(gms_params_finalize(p, &err) == 0);
    /* qv100 sets -gpgpu_pipeline_widths 4,...,8,4,4 and enables specialised units 1-3 (its
     * -gpgpu_perf_sim_memcpy 1 is modelled); its -network_mode 2, -icnt_subnets 2 and
     * -gpgpu_cache:dl2_texture_only 0 are the defaults */
    const char *names[16];
    REQUIRE(gms_params_unmodelled(p, names, 16) == 4);
    CHECK_STR(names[0], "gpgpu_pipeline_widths");
    CHECK_STR(names[1], "specialized_unit_1");
    CHECK_STR(names[2], "specialized_unit_2");
    CHECK_STR(names[3], "specialized_unit_3");
    char *d = capture(dump_fn, p);
    CHECK_CONTAINS(d, "-icnt_subnets");
    CHECK_CONTAINS(d, "[not modelled: requests and replies always travel on two separate crossbars]");
    CHECK_CONTAINS(d, "[partly modelled: an enabled unit (<enabled> not 0) is not built");
    free(d);
    gms_params_free(p);
}

/* -specialized_unit_N is modelled in part (its opcodes' latency comes from
 * -trace_opcode_latency_initiation_spec_op_N, a unit named BRA or TEX sets that latency): an
 * enabled one is named as only partly modelled, a disabled one is not, whatever its fields */
TEST(config_unmodelled_specialized_unit_when_enabled)
{
    gms_params *p = gms_params_new();
    gms_error err = {0};
    const char *names[16];
    REQUIRE(gms_params_set(p, "specialized_unit_5", "0,8,32,2,2,TEX", &err) == 0);   /* disabled */
    REQUIRE(gms_params_finalize(p, &err) == 0);
    CHECK_EQ(gms_params_unmodelled(p, names, 16), 0u);
    char *w = capture(warn_fn, p);
    CHECK_STR(w, "");
    free(w);
    REQUIRE(gms_params_set(p, "specialized_unit_3", "1,4,8,4,4,TENSOR", &err) == 0);
    REQUIRE(gms_params_finalize(p, &err) == 0);
    REQUIRE(gms_params_unmodelled(p, names, 16) == 1);
    CHECK_STR(names[0], "specialized_unit_3");
    w = capture(warn_fn, p);
    CHECK_STR(w, "gpumemsim: warning: set but only partly modelled: -specialized_unit_3 "
                 "(gpumemsim config --dump says what is simulated instead)\n");
    free(w);
    /* with an option not modelled at all: both parts on one line */
    REQUIRE(gms_params_set(p, "network_mode", "1", &err) == 0);
    REQUIRE(gms_params_unmodelled(p, names, 16) == 2);
    w = capture(warn_fn, p);
    CHECK_CONTAINS(w, "set but not modelled (no effect on the results): -network_mode; "
                      "set but only partly modelled: -specialized_unit_3 (");
    CHECK(strchr(w, '\n') == w + strlen(w) - 1);
    free(w);
    char *d = capture(dump_fn, p);
    CHECK_CONTAINS(d, "run on the tensor pipelines with -trace_opcode_latency_initiation_spec_op_3's latency");
    CHECK_CONTAINS(d, "no trace opcode belongs to it");
    free(d);
    gms_params_free(p);
}

TEST(stats_list_unmodelled_options)
{
    gms_run_stats r;
    gms_run_stats_init(&r);
    snprintf(r.workload, sizeof r.workload, "w");
    gms_stat_u64(&r.total, "gpu_tot_sim_cycle", 7);
    char *j = capture(json_fn, &r), *t = capture(text_fn, &r);
    CHECK_CONTAINS(j, "\"gms_unmodelled_options\": []");
    CHECK_CONTAINS(t, "gms_unmodelled_options = none\n");
    free(j); free(t);
    const char *names[] = { "gpgpu_pipeline_widths", "network_mode" };
    gms_run_stats_set_unmodelled(&r, names, 2);
    j = capture(json_fn, &r);
    t = capture(text_fn, &r);
    CHECK_CONTAINS(j, "\"gms_unmodelled_options\": [\"gpgpu_pipeline_widths\", \"network_mode\"]");
    CHECK_CONTAINS(t, "gms_unmodelled_options = gpgpu_pipeline_widths,network_mode\n");
    free(j); free(t);
    gms_run_stats_free(&r);
}

/* the collector units GPGPU-Sim would build against ours: with sub-cores the generic units
 * only, every ready one dispatching (as with at least as many dispatch units as units) */
TEST(config_unmodelled_collector_units_and_dispatch)
{
    static const struct { const char *v[4]; size_t n; const char *name; } cases[] = {
        { { "8", "8", "0", "1" }, 0, NULL },                                        /* Accel-Sim's QV100 */
        { { "8", "4", "0", "1" }, 1, "gpgpu_operand_collector_num_out_ports_gen" }, /* 4 dispatch units, 8 units */
        { { "8", "8", "1", "1" }, 1, "gpgpu_enable_specialized_operand_collector" },/* per-pipe units too */
        { { "0", "0", "1", "0" }, 0, NULL },                                        /* 3.x: per-pipe units */
        { { "0", "0", "0", "0" }, 1, "gpgpu_enable_specialized_operand_collector" },/* 4.x without them */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gms_params *p = gms_params_new();
        gms_error err = {0};
        const char *names[16];
        REQUIRE(gms_params_set(p, "gpgpu_num_sched_per_core", "4", &err) == 0);
        REQUIRE(gms_params_set(p, "gpgpu_operand_collector_num_units_gen", cases[i].v[0], &err) == 0);
        REQUIRE(gms_params_set(p, "gpgpu_operand_collector_num_out_ports_gen", cases[i].v[1], &err) == 0);
        REQUIRE(gms_params_set(p, "gpgpu_enable_specialized_operand_collector", cases[i].v[2], &err) == 0);
        REQUIRE(gms_params_set(p, "gpgpu_sub_core_model", cases[i].v[3], &err) == 0);
        if (!strcmp(cases[i].v[3], "1")) REQUIRE(gms_params_set(p, "gpgpu_operand_collector_num_in_ports_gen", "8", &err) == 0);
        if (gms_params_finalize(p, &err)) { printf("    case %zu: %s\n", i, err.msg); CHECK(0); gms_params_free(p); continue; }
        size_t n = gms_params_unmodelled(p, names, 16);
        size_t k = 0;   /* the collector's options among them */
        for (size_t j = 0; j < n && j < 16; j++)
            if (strstr(names[j], "operand_collector")) {
                k++;
                if (cases[i].name) CHECK_STR(names[j], cases[i].name);
            }
        if (k != cases[i].n) printf("    case %zu: %zu collector option(s) named, want %zu\n", i, k, cases[i].n);
        CHECK_EQ(k, cases[i].n);
        gms_params_free(p);
    }
}
