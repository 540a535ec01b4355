/* Sweep specs and plans (src/harness/spec_parse.c, spec_check.c, plan.c). */
#include "test.h"
#include "harness/spec.h"
#include "harness/util.h"
#include <stdlib.h>
#include <unistd.h>

/* a temporary directory with a small config file; returns its path */
static char *tmpdir_with_config(const char *content)
{
    char tmpl[] = "/tmp/gms-test-spec-XXXXXX";
    char *d = mkdtemp(tmpl);
    if (!d) return NULL;
    char *dir = gms_xstrdup(d);
    char *cfg = gms_path_join(dir, "base.config");
    FILE *f = fopen(cfg, "w");
    if (f) { fputs(content, f); fclose(f); }
    free(cfg);
    return dir;
}

static void rmdir_all(char *dir)
{
    char *cfg = gms_path_join(dir, "base.config");
    unlink(cfg);
    free(cfg);
    rmdir(dir);
    free(dir);
}

static int load(const char *dir, const char *text, int check, gms_sweep_spec **s, gms_sweep_plan *plan, gms_error *e)
{
    char *path = gms_path_join(dir, "t.sweep");
    int rc = gms_sweep_spec_parse_text(path, text, s, e);
    free(path);
    if (rc) return rc;
    if (gms_sweep_spec_check(*s, check, e) || gms_sweep_plan_build(*s, plan, e)) { gms_sweep_spec_free(*s); *s = NULL; return -1; }
    return 0;
}

static const char *const SPEC =
    "# study\n"
    "config base.config\n"
    "baseline base\n"
    "seeds 1..2 7\n"
    "variant base\n"
    "variant lat gpgpu_l1_latency={10|40}   # two variants\n"
    "workload stream n=65536 group mem\n"
    "workload stream as big n=131072 group mem\n"
    "exclude variant=lat-40 workload=big seed=7\n";

TEST(harness_plan_counts_and_ids)
{
    char *dir = tmpdir_with_config("-gpgpu_l1_latency 20\n");
    REQUIRE(dir);
    gms_sweep_spec *s;
    gms_sweep_plan plan;
    gms_error e = {0};
    int rc = load(dir, SPEC, 0, &s, &plan, &e);
    if (rc) printf("    %s\n", e.msg);
    REQUIRE(rc == 0);
    CHECK_EQ(s->nvariants, 3);
    CHECK_STR(s->variants[1].name, "lat-10");
    CHECK_STR(s->variants[2].name, "lat-40");
    CHECK_EQ(s->nworkloads, 2);
    CHECK_STR(s->workloads[1].label, "big");
    CHECK_STR(s->workloads[1].group, "mem");
    CHECK_EQ(s->nseeds, 3);
    CHECK_EQ(plan.n, 3 * 2 * 3 - 1);
    CHECK_EQ(plan.excluded, 1);
    /* ids: 16 hex digits, distinct, and fixed for this content (a change here orphans every
     * finished point of every study: only on purpose) */
    for (size_t i = 0; i < plan.n; i++) {
        CHECK_EQ(strlen(plan.points[i].id), 16);
        for (size_t j = 0; j < i; j++) CHECK(strcmp(plan.points[i].id, plan.points[j].id));
    }
    char *canon = gms_sweep_point_canonical(&plan.points[0]);
    CHECK_CONTAINS(canon, "workload stream\nparam n=65536\nseed 1\n");
    free(canon);
    char first[17], lat10[17];
    snprintf(first, sizeof first, "%s", plan.points[0].id);
    snprintf(lat10, sizeof lat10, "%s", plan.points[6].id);
    CHECK_STR(plan.points[6].variant->name, "lat-10");
    CHECK_STR(first, "790e7222f89a1f50");
    gms_sweep_plan_free(&plan);
    gms_sweep_spec_free(s);

    /* renaming, reordering and adding lines keep the ids of unchanged points */
    const char *edited =
        "config base.config\nseeds 7 2 1 3\n"
        "variant fast gpgpu_l1_latency=10\n"
        "variant reference\n"
        "workload stream n=65536\n";
    REQUIRE(load(dir, edited, 0, &s, &plan, &e) == 0);
    CHECK_EQ(plan.n, 8);
    CHECK(gms_sweep_plan_find(&plan, first) != NULL);
    CHECK(gms_sweep_plan_find(&plan, lat10) != NULL);
    CHECK_STR(gms_sweep_plan_find(&plan, first)->variant->name, "reference");
    CHECK_STR(s->baseline, "fast");   /* no baseline line: the first variant */
    gms_sweep_plan_free(&plan);
    gms_sweep_spec_free(s);

    /* changing the config file's contents changes every id */
    char *cfg = gms_path_join(dir, "base.config");
    FILE *f = fopen(cfg, "w");
    REQUIRE(f);
    fputs("-gpgpu_l1_latency 21\n", f);
    fclose(f);
    free(cfg);
    REQUIRE(load(dir, SPEC, 0, &s, &plan, &e) == 0);
    CHECK(gms_sweep_plan_find(&plan, first) == NULL);
    gms_sweep_plan_free(&plan);
    gms_sweep_spec_free(s);
    rmdir_all(dir);
}

/* --only (gms_sweep_spec_add_only): on SPEC's 3 variants x 2 workloads x 3 seeds minus one
 * excluded point, a restriction keeps the points matching one of its globs, restrictions of
 * different keys all apply, ids stay those of the whole plan, and a glob naming nothing is an
 * error */
TEST(harness_plan_only_restrictions)
{
    char *dir = tmpdir_with_config("-gpgpu_l1_latency 20\n");
    REQUIRE(dir);
    gms_sweep_spec *s;
    gms_sweep_plan whole, plan;
    gms_error e = {0};
    REQUIRE(load(dir, SPEC, 0, &s, &whole, &e) == 0);

    REQUIRE(gms_sweep_spec_add_only(s, "variant=lat-*", &e) == 0);
    REQUIRE(gms_sweep_plan_build(s, &plan, &e) == 0);
    CHECK_EQ(plan.n, 2 * 2 * 3 - 1);     /* lat-10, lat-40; the exclude line still removes one */
    CHECK_EQ(plan.excluded, 1);
    CHECK_EQ(plan.left_out, 6);          /* base's 2 x 3 */
    for (size_t i = 0; i < plan.n; i++) {
        CHECK(strncmp(plan.points[i].variant->name, "lat-", 4) == 0);
        const gms_sweep_point *same = gms_sweep_plan_find(&whole, plan.points[i].id);
        CHECK(same != NULL);
        if (same) CHECK_STR(same->variant->name, plan.points[i].variant->name);
    }
    gms_sweep_plan_free(&plan);

    /* a second key: both apply; a workload's label, not its built-in name */
    REQUIRE(gms_sweep_spec_add_only(s, "workload=big,nothing*", &e) != 0);   /* 'nothing*' names no workload */
    CHECK_CONTAINS(e.msg, "--only workload=nothing*: ");
    CHECK_EQ(s->nonly, 1);
    REQUIRE(gms_sweep_spec_add_only(s, "workload=big", &e) == 0);
    REQUIRE(gms_sweep_plan_build(s, &plan, &e) == 0);
    CHECK_EQ(plan.n, 2 * 3 - 1);         /* lat-10 / big x 3 seeds, lat-40 / big x 2 (seed 7 excluded) */
    gms_sweep_plan_free(&plan);

    /* a group keeps both workloads; alternatives in one restriction */
    gms_sweep_spec_free(s);
    gms_sweep_plan_free(&whole);
    REQUIRE(load(dir, SPEC, 0, &s, &whole, &e) == 0);
    REQUIRE(gms_sweep_spec_add_only(s, "group=mem", &e) == 0);
    REQUIRE(gms_sweep_spec_add_only(s, "variant=base,lat-10", &e) == 0);
    REQUIRE(gms_sweep_plan_build(s, &plan, &e) == 0);
    CHECK_EQ(plan.n, 2 * 2 * 3);
    CHECK_EQ(plan.left_out, 2 * 3 - 1);
    gms_sweep_plan_free(&plan);

    /* restrictions that leave nothing together */
    REQUIRE(gms_sweep_spec_add_only(s, "variant=lat-40", &e) == 0);
    CHECK(gms_sweep_plan_build(s, &plan, &e) != 0);
    CHECK_CONTAINS(e.msg, "no point passes the --only restrictions together");

    CHECK(gms_sweep_spec_add_only(s, "seed=1", &e) != 0);
    CHECK_CONTAINS(e.msg, "expected variant=GLOB, workload=GLOB or group=GLOB");
    CHECK(gms_sweep_spec_add_only(s, "group=mem,,x", &e) != 0);
    CHECK_CONTAINS(e.msg, "an empty glob");
    CHECK(gms_sweep_spec_add_only(s, "group=cpu", &e) != 0);
    CHECK_CONTAINS(e.msg, "has no workload group of that name");
    gms_sweep_spec_free(s);
    gms_sweep_plan_free(&whole);
    rmdir_all(dir);
}

static void expect_error(const char *dir, const char *text, int check, const char *needle)
{
    gms_sweep_spec *s = NULL;
    gms_sweep_plan plan;
    gms_error e = {0};
    int rc = load(dir, text, check, &s, &plan, &e);
    CHECK(rc != 0);
    if (!rc) { gms_sweep_plan_free(&plan); gms_sweep_spec_free(s); return; }
    CHECK_CONTAINS(e.msg, needle);
}

TEST(harness_spec_errors)
{
    char *dir = tmpdir_with_config("-gpgpu_l1_latency 20\n");
    REQUIRE(dir);
    expect_error(dir, "config base.config\nvariant a\nvariant a\nworkload stream\n", 0,
                 "t.sweep:3: duplicate variant name 'a' (first defined at line 2)");
    expect_error(dir, "config base.config\nvariant a x={1|2}\nvariant a-2\nworkload stream\n", 0, "duplicate variant name 'a-2'");
    expect_error(dir, "config base.config\nbaseline zz\nvariant a\nworkload stream\n", 0,
                 "t.sweep:2: baseline 'zz' is not a variant of this sweep (variants: a)");
    expect_error(dir, "config base.config\nvariant a\n", 0, "no 'workload' or 'trace' lines");
    expect_error(dir, "config base.config\nworkload stream\n", 0, "no 'variant' lines");
    expect_error(dir, "config base.config\nvariant a\nworkload stream\nexclude variant=a\n", 0,
                 "the sweep has no points: all 1 are excluded");
    expect_error(dir, "config base.config\nvariant a\nworkload stream\nexclude variant=b*\n", 0,
                 "t.sweep:4: this exclude line matches no point");
    expect_error(dir, "config base.config\nvariant a\nwrkload stream\n", 0, "t.sweep:3: unknown statement 'wrkload'");
    expect_error(dir, "config base.config\nkernel_stats some\nvariant a\nworkload stream\n", 0,
                 "t.sweep:2: 'kernel_stats' takes 'all' (every kernel's statistics, the default) or 'totals'");
    expect_error(dir, "variant a\nworkload stream\n", 0, "t.sweep:1: variant 'a' has no config file");
    expect_error(dir, "config base.config\nvariant a\nvariant b\nworkload stream\n", 0, "run exactly the same simulation");
    expect_error(dir, "config base.config\nseeds 1 x\nvariant a\nworkload stream\n", 0, "t.sweep:2: seed 'x'");
    expect_error(dir, "config base.config\nvariant a k=\"unterminated\nworkload stream\n", 0, "t.sweep:2: unterminated double quote");
    expect_error(dir, "config missing.config\nvariant a\nworkload stream\n", 0, "t.sweep:2: variant 'a': ");
    /* asking the simulator: unknown option, bad value, unknown workload and parameter */
    expect_error(dir, "config base.config\nvariant a\nvariant b gpgpu_l1_latncy=3\nworkload stream\n", 1,
                 "t.sweep:3: variant 'b': --set unknown option -gpgpu_l1_latncy: neither a gpumemsim nor a GPGPU-Sim option (did you mean -gpgpu_l1_latency?");
    expect_error(dir, "config base.config\nvariant b gpgpu_l1_latency=abc\nworkload stream\n", 1, "t.sweep:2: variant 'b': ");
    expect_error(dir, "config base.config\nvariant a\nworkload nosuchworkload\n", 1, "t.sweep:3: unknown workload 'nosuchworkload'");
    expect_error(dir, "config base.config\nvariant a\nworkload stream bogus=1\n", 1, "t.sweep:3: workload stream: unknown parameter 'bogus'");
    rmdir_all(dir);
}

TEST(harness_spec_syntax)
{
    char *dir = tmpdir_with_config("-gpgpu_l1_latency 20\n");
    REQUIRE(dir);
    gms_sweep_spec *s;
    gms_sweep_plan plan;
    gms_error e = {0};
    const char *text = "db out/x.db\nresults out/res\nconfig base.config\nset gpgpu_l1_latency=5\n"
                       "variant a \\\n   gpgpu_l1_banks=2\nvariant b gpgpu_l1_latency=7\n"
                       "workload stream as \"s1\" n=1K\ntimeout 30\nslurm partition=debug time=5 chunk=4\nkernel_stats totals\n";
    int rc = load(dir, text, 0, &s, &plan, &e);
    if (rc) printf("    %s\n", e.msg);
    REQUIRE(rc == 0);
    CHECK_CONTAINS(s->db, "/out/x.db");
    CHECK_CONTAINS(s->results, "/out/res");
    CHECK_STR(gms_kvlist_get(&s->variants[0].sets, "gpgpu_l1_latency"), "5");   /* the global set */
    CHECK_STR(gms_kvlist_get(&s->variants[0].sets, "gpgpu_l1_banks"), "2");     /* continued line */
    CHECK_STR(gms_kvlist_get(&s->variants[1].sets, "gpgpu_l1_latency"), "7");   /* the variant's own wins */
    CHECK_STR(s->workloads[0].label, "s1");
    CHECK_NEAR(s->timeout, 30, 0);
    CHECK_EQ(s->kernel_totals_only, 1);
    CHECK_STR(s->slurm.partition, "debug");
    CHECK_EQ(s->slurm.chunk, 4);
    CHECK_EQ(plan.n, 2);
    gms_sweep_plan_free(&plan);
    gms_sweep_spec_free(s);
    rmdir_all(dir);
}
