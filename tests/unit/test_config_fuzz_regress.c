/* Inputs the config and sweep-spec fuzzers (fuzz/run.sh config|spec) found or that guard what
 * they exercise: each must give a clean error (or load), never a crash or an abort. */
#include "test.h"
#include "config/params.h"
#include "harness/spec.h"
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int load(const char *text, gms_error *err)
{
    gms_params *p = gms_params_new();
    memset(err, 0, sizeof *err);
    int rc = gms_params_load_text(p, "fuzz/seeds_config/fuzz.config", text, strlen(text), err);
    if (rc == 0) rc = gms_params_finalize(p, err);
    gms_params_free(p);
    return rc;
}

/* "-config DIR" read the directory's size with ftell (LLONG_MAX on ext4) and aborted
 * allocating it; '-config ""' names the including file's directory */
TEST(config_fuzz_include_of_a_directory)
{
    char dir[] = "/tmp/gms_cfgdir_XXXXXX";
    REQUIRE(mkdtemp(dir) != NULL);
    char text[128];
    snprintf(text, sizeof text, "-config %s\n", dir);
    gms_error err;
    CHECK(load(text, &err) != 0);
    CHECK_CONTAINS(err.msg, "is a directory, not a config file");
    CHECK(load("-config \"\"\n", &err) != 0);
    CHECK_CONTAINS(err.msg, "is a directory");
    rmdir(dir);
}

TEST(config_fuzz_malformed_inputs_are_clean_errors)
{
    /* each input with (a part of) the one error it must give */
    static const char *const bad[][2] = {
        { "-gpgpu_n_clusters", "-gpgpu_n_clusters: missing value" },
        { "-gpgpu_n_clusters \"4", "unterminated quoted value" },
        { "gpgpu_n_clusters 4", "expected an option starting with '-', found 'gpgpu_n_clusters'" },
        { "-pcie_bandwidth 1e400", "'1e400' is out of range" },
        { "-pcie_bandwidth -", "'-' is not a number" },
        { "-gddr_size 0x", "unit 'x' is not accepted" },
        { "-gddr_size .GB", "'.GB' is not an unsigned 64-bit integer" },
        { "-gpgpu_pipeline_widths ,", "',' is not a comma-separated list of integers" },
        { "-gpgpu_pipeline_widths -", "'-' is not a comma-separated list of integers" },
        { "-gpgpu_cache:dl1 S:4:128:64,L:T:m:L:L,A:256:32,16:0,32:::::", "unexpected text ':::::' after the last field" },
        { "-gpgpu_dram_timing_opt \"nbk=16:CCD=1:RRD=\"", "field RRD: \"\" is not a non-negative integer" },
        { "-gpgpu_mem_addr_mapping dramid@99;0000", "needs a bit position 0..63" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gms_error err;
        CHECK(load(bad[i][0], &err) != 0);
        CHECK_CONTAINS(err.msg, bad[i][1]);
    }
}

/* a config that includes itself stops at the nesting limit with its error (the fuzzer's
 * include loops), not at a missing file */
TEST(config_fuzz_include_loop_hits_the_depth_limit)
{
    char path[] = "/tmp/gms_cfgloop_XXXXXX";
    int fd = mkstemp(path);
    REQUIRE(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "-gpgpu_n_clusters 2\n-config %s\n", path);
    fclose(f);
    gms_params *p = gms_params_new();
    gms_error err = {0};
    CHECK(gms_params_load_file(p, path, &err) != 0);
    CHECK_CONTAINS(err.msg, "-config nesting deeper than 8 (an include loop?)");
    gms_params_free(p);
    unlink(path);
}

TEST(spec_fuzz_malformed_inputs_are_clean_errors)
{
    static const char *const bad[] = {
        "variant a x={",                        /* open brace */
        "variant a x={|}\nworkload stream",     /* empty alternatives */
        "seeds 5..1\nvariant a\nworkload stream",
        "seeds 1..99999999999999999999999\nvariant a\nworkload stream",
        "variant a\\",                          /* continuation at the end */
        "workload stream as\nvariant a",
        "exclude\nvariant a\nworkload stream",
        "\"",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gms_sweep_spec *s = NULL;
        gms_error err = {0};
        int rc = gms_sweep_spec_parse_text("fuzz/seeds_spec/study.sweep", bad[i], &s, &err);
        if (rc == 0) rc = gms_sweep_spec_check(s, 0, &err);
        CHECK(rc != 0);
        CHECK(err.msg[0] != 0);
        gms_sweep_spec_free(s);
    }
}

/* found by the spec fuzzer (a time-out): "seeds 1..65536" checked every seed against all the
 * earlier ones, O(n^2) (over 10 s under ASan); now a hash set. CPU time, not wall time. */
TEST(spec_fuzz_many_seeds_are_linear)
{
    gms_sweep_spec *s = NULL;
    gms_error err = {0};
    clock_t t0 = clock();
    int rc = gms_sweep_spec_parse_text("fuzz/seeds_spec/study.sweep",
                                       "config ../../configs/qv100.config\nseeds 0..49999 50000..99998 18446744073709551615\n"
                                       "variant a\nworkload stream\n",
                                       &s, &err);
    double cpu = (double)(clock() - t0) / CLOCKS_PER_SEC;
    if (rc) fprintf(stderr, "    %s\n", err.msg);
    REQUIRE(rc == 0);
    CHECK_EQ(s->nseeds, 100000u);
    CHECK_EQ(s->seeds[99998], 99998u);
    CHECK_EQ(s->seeds[99999], 18446744073709551615ull);
    CHECK(cpu < 0.5);
    gms_sweep_spec_free(s);
    /* duplicates are still found, with their line, also the map's reserved key */
    static const char *const dup[] = { "seeds 1..5\nseeds 3\n", "seeds 18446744073709551615 18446744073709551615\n" };
    static const char *const want[] = { "study.sweep:2: seed 3 listed twice", "seed 18446744073709551615 listed twice" };
    for (int i = 0; i < 2; i++) {
        s = NULL;
        memset(&err, 0, sizeof err);
        CHECK(gms_sweep_spec_parse_text("fuzz/seeds_spec/study.sweep", dup[i], &s, &err) != 0);
        CHECK_CONTAINS(err.msg, want[i]);
        gms_sweep_spec_free(s);
    }
}

/* the fuzzers' seeds load (they are meant to reach deep: a failing seed fuzzes nothing) */
TEST(config_and_spec_fuzz_seeds_load)
{
    static const char *const configs[] = { "fuzz/seeds_config/small", "fuzz/seeds_config/gtx480" };
    for (size_t i = 0; i < 2; i++) {
        gms_params *p = gms_params_new();
        gms_error err = {0};
        int rc = gms_params_load_file(p, configs[i], &err);
        if (!rc) rc = gms_params_finalize(p, &err);
        if (rc) fprintf(stderr, "    %s\n", err.msg);
        CHECK(rc == 0);
        gms_params_free(p);
    }
    gms_sweep_spec *s = NULL;
    gms_error err = {0};
    int rc = gms_sweep_spec_load("fuzz/seeds_spec/small.sweep", 1, &s, &err);
    if (rc) fprintf(stderr, "    %s\n", err.msg);
    CHECK(rc == 0);
    gms_sweep_spec_free(s);
}
