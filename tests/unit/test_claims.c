/* Claims files and their evaluation (src/harness/claims_*.c, repro.c): parse errors with
 * file:line, and verdicts on a hand-made store whose values give hand-computed metrics. */
#include "test.h"
#include "harness/report.h"
#include "harness/claims.h"
#include "harness/point.h"
#include "harness/repro.h"
#include "harness/util.h"
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

static int parse_fails(const char *text, const char *expect)
{
    gms_claims *c = NULL;
    gms_error e = {0};
    int rc = gms_claims_parse_text("t.claims", text, &c, &e);
    gms_claims_free(c);
    if (rc == 0) { printf("    parsed, expected an error containing \"%s\"\n", expect); return 0; }
    if (!strstr(e.msg, expect)) { printf("    error \"%s\" lacks \"%s\"\n", e.msg, expect); return 0; }
    return 1;
}

TEST(claims_parse_errors_name_file_and_line)
{
    CHECK(parse_fails("claim A\n says \"x\"\n metric gm(ipc, v)\n holds > 1\nbogus 3\n", "t.claims:5: unknown statement 'bogus'"));
    CHECK(parse_fails("says \"x\"\n", "t.claims:1: 'says' before the first 'claim'"));
    CHECK(parse_fails("claim A\n says x\n holds > 1\n", "t.claims:3: claim A: 'holds' before any 'metric'"));
    CHECK(parse_fails("claim A\n says x\n metric gmean(ipc, v)\n", "t.claims:3: metric: unknown function 'gmean'"));
    CHECK(parse_fails("claim A\n says x\n metric speedup(ipc, v)\n", "speedup() takes 3 or 4 arguments, not 2"));
    CHECK(parse_fails("claim A\n says x\n metric a = gm(ipc, v)\n holds a > b\n", "t.claims:4: holds: 'b' is not a metric of claim A"));
    CHECK(parse_fails("claim A\n says x\n metric a = b * 2\n", "'b' is not a metric defined before it"));
    CHECK(parse_fails("claim A\n says x\n needs \"y\"\nclaim A\n says z\n needs w\n", "t.claims:4: claim A: defined twice (first at line 1)"));
    CHECK(parse_fails("claim A\n metric gm(ipc, v)\n holds > 1\n", "t.claims:1: claim A: needs 'says'"));
    CHECK(parse_fails("claim A\n says x\n metric gm(ipc, v)\n", "claim A: needs 'holds'"));
    CHECK(parse_fails("claim A\n says x\n metric gm(ipc, v)\n holds 1\n", "holds: needs a comparison"));
    CHECK(parse_fails("claim A\n says x\n metric gm(ipc, v)\n holds > 1 ! 2\n", "holds: expected <, <=, > or >= at '! 2'"));
    CHECK(parse_fails("claim A\n says x\n metric gm(ipc, v\n", "missing ')'"));
    CHECK(parse_fails("title a\nfigure pie ipc\n", "t.claims:2: figure: unknown kind 'pie'"));
    CHECK(parse_fails("figure lines ipc\n", "needs x=SETTING"));
    CHECK(parse_fails("# nothing\n", "no claims"));
    CHECK(parse_fails("claim A\n says x \\\n", "ends in a continued line"));
}

TEST(claims_parse_forms)
{
    gms_claims *c = NULL;
    gms_error e = {0};
    int rc = gms_claims_parse_text("t.claims",
        "title \"A study\"\n"
        "claim C1   # comment\n"
        "  says \"B beats A\"\n  paper \"1.5x\"\n"
        "  metric speedup(ipc, b, a)\n  holds > 1\n"
        "claim C2\n  says order\n  metric x = gm(ipc, b)\n  metric y = gm(ipc, \\\n a) * 2\n  holds x > y >= 0.5\n  holds y < 100\n"
        "claim C3\n  says later\n  needs \"MRPB (issue 24)\"\n"
        "figure bars ipc baseline=a title=\"IPC over A\"\nfigure lines ipc x=gpgpu_l1_latency\n", &c, &e);
    if (rc) printf("    %s\n", e.msg);
    REQUIRE(rc == 0);
    CHECK_STR(c->title, "A study");
    REQUIRE(c->n == 3);
    CHECK_STR(c->claims[0].says, "B beats A");
    CHECK_STR(c->claims[0].paper, "1.5x");
    CHECK_EQ(c->claims[0].nmetrics, 1);
    CHECK_STR(c->claims[0].metrics[0].name, "m");
    REQUIRE(c->claims[0].nholds == 1);
    CHECK_EQ(c->claims[0].holds[0].n, 2);
    CHECK(c->claims[0].holds[0].cmps[0] == GMS_CMP_GT);
    CHECK_EQ(c->claims[1].nmetrics, 2);
    CHECK_STR(c->claims[1].metrics[1].name, "y");
    REQUIRE(c->claims[1].nholds == 2);
    CHECK_EQ(c->claims[1].holds[0].n, 3);
    CHECK(c->claims[1].holds[0].cmps[0] == GMS_CMP_GT && c->claims[1].holds[0].cmps[1] == GMS_CMP_GE);
    CHECK_STR(c->claims[1].holds_text, "x > y >= 0.5; y < 100");
    CHECK_STR(c->claims[2].needs, "MRPB (issue 24)");
    REQUIRE(c->nfigs == 2);
    CHECK(c->figs[0].kind == GMS_FIG_BARS);
    CHECK_STR(c->figs[0].baseline, "a");
    CHECK_STR(c->figs[0].title, "IPC over A");
    CHECK_STR(c->figs[1].x, "gpgpu_l1_latency");
    gms_claims_free(c);
}

/* a store with variants base, v1, v2 and workloads a (g1), b (g1), c (g2), one seed:
 * ipc base 2/4/10, v1 4/2/20, v2 6/failed/not run; cycles 100 everywhere */
typedef struct fixture { char *dir, *cfg, *db; gms_sweep_spec *s; gms_sweep_plan plan; gms_store *st; } fixture;

static int put(fixture *f, const char *v, const char *w, const char *status, double ipc)
{
    const gms_sweep_point *p = NULL;
    for (size_t i = 0; i < f->plan.n; i++)
        if (!strcmp(f->plan.points[i].variant->name, v) && !strcmp(f->plan.points[i].workload->label, w)) p = &f->plan.points[i];
    if (!p) return -1;
    gms_sbuf b = {0};
    int ok = !strcmp(status, "ok");
    gms_sbuf_printf(&b, "{\"format\": \"%s\", \"point_id\": \"%s\", \"attempt\": \"%s-%s\", \"status\": \"%s\", "
                        "\"exit_code\": %d, \"error\": \"%s\", \"wall_s\": 1, \"host\": \"h\", \"version\": \"t\", ",
                    GMS_POINT_FORMAT, p->id, v, w, status, !ok, ok ? "" : "timed out after 1 s");
    /* evict: 0 on workload a under every variant, else the ipc; evict2: 0 only on a under base */
    double ev = strcmp(w, "a") ? ipc : 0, ev2 = strcmp(w, "a") || strcmp(v, "base") ? ipc : 0;
    if (ok) gms_sbuf_printf(&b, "\"stats\": {\"total\": {\"ipc\": %.17g, \"cycles\": 100, \"evict\": %.17g, "
                                "\"evict2\": %.17g}, \"kernels\": []}}", ipc, ev, ev2);
    else gms_sbuf_add(&b, "\"stats\": null}");
    gms_error e = {0};
    gms_json *j = gms_json_parse(b.s, b.n, "hand", &e);
    gms_sbuf_free(&b);
    int added = 0;
    int rc = !j || gms_store_begin(f->st, &e) || gms_store_ingest(f->st, j, "hand", &added, &e) || gms_store_commit(f->st, &e);
    if (rc) printf("    %s\n", e.msg);
    gms_json_free(j);
    return rc ? -1 : 0;
}

static int setup(fixture *f)
{
    memset(f, 0, sizeof *f);
    char tmpl[] = "/tmp/gms-test-claims-XXXXXX";
    if (!mkdtemp(tmpl)) return -1;
    f->dir = gms_xstrdup(tmpl);
    f->cfg = gms_path_join(f->dir, "base.config");
    f->db = gms_path_join(f->dir, "t.db");
    FILE *c = fopen(f->cfg, "w");
    if (!c) return -1;
    fputs("-gpgpu_l1_latency 20\n", c);
    fclose(c);
    char *sp = gms_path_join(f->dir, "t.sweep");
    gms_error e = {0};
    int rc = gms_sweep_spec_parse_text(sp, "config base.config\nvariant base\nvariant v1 gpgpu_l1_latency=10\n"
                                       "variant v2 gpgpu_l1_latency=40\nworkload stream as a n=1K group g1\n"
                                       "workload stream as b n=2K group g1\nworkload stream as c n=4K group g2\n", &f->s, &e);
    free(sp);
    if (rc || gms_sweep_spec_check(f->s, 0, &e) || gms_sweep_plan_build(f->s, &f->plan, &e) ||
        gms_store_open(f->db, 1, &f->st, &e) || gms_store_begin(f->st, &e) ||
        gms_store_sync_plan(f->st, f->s, &f->plan, &e) || gms_store_commit(f->st, &e)) { printf("    %s\n", e.msg); return -1; }
    return put(f, "base", "a", "ok", 2) || put(f, "base", "b", "ok", 4) || put(f, "base", "c", "ok", 10) ||
           put(f, "v1", "a", "ok", 4) || put(f, "v1", "b", "ok", 2) || put(f, "v1", "c", "ok", 20) ||
           put(f, "v2", "a", "ok", 6) || put(f, "v2", "b", "failed", 0) ? -1 : 0;
}

static void teardown(fixture *f)
{
    gms_store_close(f->st);
    gms_sweep_plan_free(&f->plan);
    gms_sweep_spec_free(f->s);
    unlink(f->db); unlink(f->cfg); rmdir(f->dir);
    free(f->db); free(f->cfg); free(f->dir);
}

/* a fresh hand-made store, the claims of `text` parsed and evaluated on it: 0 if both worked
 * (the caller frees c and r and tears f down) */
static int parse_and_eval(fixture *f, const char *text, gms_claims **c, gms_claim_result **r)
{
    gms_error e = {0};
    *c = NULL;
    *r = NULL;
    if (setup(f)) return -1;
    if (gms_claims_parse_text("t.claims", text, c, &e) || gms_claims_eval(*c, f->st, r, &e)) {
        printf("    %s\n", e.msg);
        return -1;
    }
    return 0;
}

TEST(claims_eval_verdicts_on_a_hand_made_store)
{
    fixture f;
    REQUIRE(setup(&f) == 0);
    gms_claims *c = NULL;
    gms_error e = {0};
    int rc = gms_claims_parse_text("t.claims",
        "claim S1\n says \"v1 faster on average\"\n metric speedup(ipc, v1, base)\n holds > 1\n"       /* 2^(1/3): holds */
        "claim S2\n says \"v1 faster on every app\"\n metric minratio(ipc, v1, base)\n holds > 1\n"   /* 0.5: fails */
        "claim S3\n says g2\n metric speedup(ipc, v1, base, g2)\n holds 1.9 <= m <= 2.1\n"           /* 2: holds */
        "claim S4\n says v2\n metric speedup(ipc, v2, base)\n holds > 1\n"                           /* b failed: no data */
        "claim S5\n says order\n metric hi = maxratio(ipc, v1, base)\n metric lo = minratio(ipc, v1, base)\n"
        "  metric mid = am(ipc, v1, g1) / am(ipc, base, g1)\n holds hi > mid > lo\n"               /* 2 > 1 > 0.5 */
        "claim S6\n says derived\n metric val(cycles/ipc, base, c) + sum(ipc, base) - gm(ipc, v1, g1)\n holds < 0\n" /* 10+16-2.83 */
        "claim S7\n says later\n needs \"MRPB\"\n"
        "claim S8\n says nothing\n metric gm(ipc, v9)\n holds > 0\n"
        "claim S9\n says both\n metric speedup(ipc, v1, base, g2)\n holds > 1\n holds < 1.5\n"
        "claim S10\n says misspelt\n metric speedup(ipcc, v1, base)\n holds > 0\n"
        "claim S11\n says pending\n metric val(cycles/ipc, v2, c)\n holds > 0\n", &c, &e);
    if (rc) printf("    %s\n", e.msg);
    REQUIRE(rc == 0);
    gms_claim_result *r = NULL;
    REQUIRE(gms_claims_eval(c, f.st, &r, &e) == 0);
    CHECK(r[0].verdict == GMS_VERDICT_HOLDS);
    CHECK_NEAR(r[0].values[0], cbrt(2.0), 1e-12);
    CHECK(r[1].verdict == GMS_VERDICT_FAILS);
    CHECK_EQ(r[1].values[0], 0.5);
    CHECK(r[2].verdict == GMS_VERDICT_HOLDS);
    CHECK_EQ(r[2].values[0], 2.0);
    CHECK(r[3].verdict == GMS_VERDICT_NO_DATA);
    CHECK_CONTAINS(r[3].why, "no value of ipc for b under v2 (the point failed: timed out after 1 s)");
    CHECK(r[4].verdict == GMS_VERDICT_HOLDS);
    CHECK_EQ(r[4].values[2], 1.0);
    CHECK(r[5].verdict == GMS_VERDICT_FAILS);
    CHECK_NEAR(r[5].values[0], 10.0 + 16.0 - sqrt(8.0), 1e-12);
    CHECK(r[6].verdict == GMS_VERDICT_NOT_RUNNABLE);
    CHECK_STR(r[6].why, "MRPB");
    CHECK(r[7].verdict == GMS_VERDICT_NO_DATA);
    CHECK_CONTAINS(r[7].why, "no variant 'v9'");
    CHECK(r[8].verdict == GMS_VERDICT_FAILS);   /* 2 > 1 holds, 2 < 1.5 does not */
    /* why a value is missing, from the store: a name no run has, a point not run yet */
    CHECK(r[9].verdict == GMS_VERDICT_NO_DATA);
    CHECK_CONTAINS(r[9].why, "no run has a total stat named 'ipcc' (some that exist: cycles, evict, evict2, ipc");
    CHECK(r[10].verdict == GMS_VERDICT_NO_DATA);
    CHECK_CONTAINS(r[10].why, "no value of cycles/ipc for c under v2 (not run yet)");

    /* the report's closing line counts every claim; not-runnable ones apart */
    char *buf = NULL;
    size_t n = 0;
    FILE *md = open_memstream(&buf, &n);
    REQUIRE(md != NULL);
    gms_repro_write_md(c, r, "t", "quick", NULL, NULL, md);
    fclose(md);
    CHECK_CONTAINS(buf, "| S2 | v1 faster on every app |  | m = 0.500 | > 1 | does not hold |");
    CHECK_CONTAINS(buf, "\nt: 3 of 11 claims hold, 1 not yet runnable\n");
    free(buf);
    gms_claim_results_free(r, c->n);
    gms_claims_free(c);
    teardown(&f);
}

TEST(claims_countratio_and_group_unions)
{
    /* v1 / base per workload: a 4/2 = 2, b 2/4 = 0.5, c 20/10 = 2 */
    fixture f;
    REQUIRE(setup(&f) == 0);
    gms_claims *c = NULL;
    gms_error e = {0};
    int rc = gms_claims_parse_text("t.claims",
        "claim N1\n says two\n metric countratio(ipc, v1, base, 1)\n holds 1.5 <= m <= 2.5\n"
        "claim N2\n says strict\n metric countratio(ipc, v1, base, 2)\n holds < 0.5\n"
        "claim N3\n says group\n metric countratio(ipc, v1, base, 150%, g1)\n holds 0.5 <= m <= 1.5\n"
        "claim N4\n says failed point\n metric countratio(ipc, v2, base, 1)\n holds > 0\n"
        "claim N5\n says union\n metric speedup(ipc, v1, base, g1+g2)\n holds > 1\n"
        "claim N6\n says a workload in a union\n metric speedup(ipc, v1, base, g2+b)\n holds > 0\n"
        "claim N7\n says a workload alone\n metric countratio(ipc, v1, base, 1, a)\n holds > 0\n", &c, &e);
    if (rc) printf("    %s\n", e.msg);
    REQUIRE(rc == 0);
    gms_claim_result *r = NULL;
    REQUIRE(gms_claims_eval(c, f.st, &r, &e) == 0);
    CHECK_EQ(r[0].values[0], 2.0);
    CHECK(r[0].verdict == GMS_VERDICT_HOLDS);
    CHECK_EQ(r[1].values[0], 0.0);           /* 2 is not above 2 */
    CHECK_EQ(r[2].values[0], 1.0);           /* of g1 (a, b) only a */
    CHECK(r[3].verdict == GMS_VERDICT_NO_DATA);
    CHECK_NEAR(r[4].values[0], cbrt(2.0), 1e-12);   /* g1+g2: all three, (2 x 0.5 x 2)^(1/3) */
    CHECK_NEAR(r[5].values[0], 1.0, 1e-12);         /* g2+b: c and b, (2 x 0.5)^(1/2) */
    CHECK_EQ(r[6].values[0], 1.0);                  /* a alone: 2 > 1 */
    gms_claim_results_free(r, c->n);
    gms_claims_free(c);
    teardown(&f);

    /* countval: workloads whose value under one variant is above X (v1: a 4, b 2, c 20; base:
     * a 2, b 4, c 10); X = -1 counts the group's workloads; a bad threshold is a parse error */
    REQUIRE(parse_and_eval(&f,
        "claim V1\n says x\n metric countval(ipc, v1, 3)\n holds > 0\n"
        "claim V2\n says x\n metric countval(ipc, base, 3, g1)\n holds > 0\n"
        "claim V3\n says x\n metric countval(ipc, v1, -1, g1)\n holds > 0\n"
        "claim V4\n says x\n metric countval(ipc, v1, 1000%)\n holds < 1\n", &c, &r) == 0);
    CHECK_EQ(r[0].values[0], 2.0);           /* a and c */
    CHECK_EQ(r[1].values[0], 1.0);           /* of a, b only b */
    CHECK_EQ(r[2].values[0], 2.0);
    CHECK_EQ(r[3].values[0], 1.0);           /* 1000% = 10: c (20) */
    CHECK(r[3].verdict == GMS_VERDICT_FAILS);
    gms_claim_results_free(r, c->n);
    gms_claims_free(c);
    teardown(&f);

    /* countany: workloads where at least one test of a ratio passes. v1 / base: ipc a 2, b 0.5,
     * c 2; cycles/ipc (cycles 100 everywhere) a 0.5, b 2, c 0.5 */
    REQUIRE(parse_and_eval(&f,
        "claim Y1\n says x\n metric countany(v1, base, ipc > 1)\n holds > 0\n"
        "claim Y2\n says x\n metric countany(v1, base, ipc > 1 | cycles/ipc > 1.5)\n holds > 0\n"
        "claim Y3\n says x\n metric countany(v1, base, ipc >= 2 | cycles/ipc < 0.5, g1)\n holds > 0\n"
        "claim Y4\n says x\n metric countany(v1, base, ipc <= 50%, g1+g2)\n holds > 0\n"
        "claim Y5\n says x\n metric countany(v2, base, ipc > 1)\n holds > 0\n"
        "claim Y6\n says x\n metric countany(v1, base, evict2 > 1)\n holds > 0\n"
        "claim Y7\n says every workload improves in one\n metric any = countany(v1, base, ipc > 1 | cycles/ipc > 1)\n"
        "  metric n = countval(ipc, base, -1)\n holds any >= n\n", &c, &r) == 0);
    CHECK_EQ(r[0].values[0], 2.0);           /* a and c */
    CHECK_EQ(r[1].values[0], 3.0);           /* b through cycles/ipc = 2 */
    CHECK_EQ(r[2].values[0], 1.0);           /* of g1: a (2 >= 2); b passes neither */
    CHECK_EQ(r[3].values[0], 1.0);           /* b (0.5 <= 0.5) */
    CHECK(r[4].verdict == GMS_VERDICT_NO_DATA);
    CHECK_CONTAINS(r[4].why, "no value of ipc for b under v2");
    CHECK(r[5].verdict == GMS_VERDICT_NO_DATA);
    CHECK_CONTAINS(r[5].why, "evict2 is 0 for a under base (the ratio is undefined)");
    CHECK(r[6].verdict == GMS_VERDICT_HOLDS);
    CHECK_EQ(r[6].values[0], 3.0);
    CHECK_EQ(r[6].values[1], 3.0);
    gms_claim_results_free(r, c->n);
    gms_claims_free(c);
    teardown(&f);
    c = NULL;
    CHECK(gms_claims_parse_text("t.claims", "claim Y8\n says x\n metric countany(v1, base, ipc ~ 1)\n holds > 0\n", &c, &e) != 0);
    CHECK_CONTAINS(e.msg, "countany(): 'ipc ~ 1' is not a test STAT OP NUMBER (OP: < <= > >=)");
    gms_claims_free(c);
    c = NULL;
    CHECK(gms_claims_parse_text("t.claims", "claim Y9\n says x\n metric countany(v1, base, ipc > 1 | > 2)\n holds > 0\n", &c, &e) != 0);
    CHECK_CONTAINS(e.msg, "countany(): ' > 2' is not a test");
    gms_claims_free(c);
    c = NULL;
    CHECK(gms_claims_parse_text("t.claims", "claim V5\n says x\n metric countval(ipc, v1, lots)\n holds > 0\n", &c, &e) != 0);
    CHECK_CONTAINS(e.msg, "countval(): the threshold 'lots' is not a number");
    gms_claims_free(c);

    /* speedup_nz: a count that is 0 under both variants says nothing about their ratio */
    REQUIRE(setup(&f) == 0);
    c = NULL;
    rc = gms_claims_parse_text("t.claims",
        "claim Z1\n says x\n metric speedup_nz(evict, v1, base)\n holds > 0\n"    /* a left out: (0.5 x 2)^(1/2) = 1 */
        "claim Z2\n says x\n metric speedup(evict, v1, base)\n holds > 0\n"       /* 0/0 on a: no data */
        "claim Z3\n says x\n metric speedup_nz(evict2, v1, base)\n holds > 0\n"   /* 4/0 on a: no data */
        "claim Z4\n says x\n metric speedup_nz(evict, v1, base, g1)\n holds > 0\n"  /* b alone: 0.5 */
        "claim Z5\n says x\n metric speedup_nz(evict, v1, base, g3)\n holds > 0\n", &c, &e);   /* no workload */
    if (rc) printf("    %s\n", e.msg);
    REQUIRE(rc == 0);
    r = NULL;
    REQUIRE(gms_claims_eval(c, f.st, &r, &e) == 0);
    CHECK_NEAR(r[0].values[0], 1.0, 1e-12);
    CHECK(r[0].verdict == GMS_VERDICT_HOLDS);
    CHECK(r[1].verdict == GMS_VERDICT_NO_DATA);
    CHECK_CONTAINS(r[1].why, "evict is 0 for a under base (the ratio is undefined; speedup_nz leaves out");
    CHECK(r[2].verdict == GMS_VERDICT_NO_DATA);
    CHECK_CONTAINS(r[2].why, "evict2 is 0 for a under base (the ratio is undefined)");
    CHECK_NEAR(r[3].values[0], 0.5, 1e-12);
    CHECK(r[4].verdict == GMS_VERDICT_NO_DATA);
    gms_claim_results_free(r, c->n);
    gms_claims_free(c);
    teardown(&f);

    /* meanratio: the arithmetic mean of per-workload ratios, leaving out workloads whose
     * baseline value is 0 (nothing to normalise to); sums of stats as STAT */
    REQUIRE(setup(&f) == 0);
    c = NULL;
    rc = gms_claims_parse_text("t.claims",
        "claim M1\n says x\n metric meanratio(ipc, v1, base)\n holds > 0\n"          /* (2 + 0.5 + 2) / 3 */
        "claim M2\n says x\n metric meanratio(evict2, v1, base)\n holds > 0\n"       /* a left out: (0.5 + 2) / 2 */
        "claim M3\n says x\n metric meanratio(evict, v1, base, g1)\n holds > 0\n"    /* b alone: 0.5 */
        "claim M4\n says x\n metric meanratio(evict, v1, base, g3)\n holds > 0\n"    /* no workload */
        "claim M5\n says x\n metric val(ipc+cycles, base, a)\n holds > 0\n"          /* 2 + 100 */
        "claim M6\n says x\n metric val(ipc+evict/cycles, v1, c)\n holds > 0\n"      /* (20 + 20) / 100 */
        "claim M7\n says x\n metric sum(ipc+evict, base)\n holds > 0\n", &c, &e);    /* 2+0 + 4+4 + 10+10 */
    if (rc) printf("    %s\n", e.msg);
    REQUIRE(rc == 0);
    r = NULL;
    REQUIRE(gms_claims_eval(c, f.st, &r, &e) == 0);
    CHECK_NEAR(r[0].values[0], 1.5, 1e-12);
    CHECK_NEAR(r[1].values[0], 1.25, 1e-12);
    CHECK_NEAR(r[2].values[0], 0.5, 1e-12);
    CHECK(r[3].verdict == GMS_VERDICT_NO_DATA);
    CHECK_NEAR(r[4].values[0], 102.0, 1e-12);
    CHECK_NEAR(r[5].values[0], 0.4, 1e-12);
    CHECK_NEAR(r[6].values[0], 30.0, 1e-12);
    gms_claim_results_free(r, c->n);
    gms_claims_free(c);
    teardown(&f);

    /* the threshold must be a number */
    c = NULL;
    CHECK(gms_claims_parse_text("t.claims", "claim N5\n says x\n metric countratio(ipc, v1, base, high)\n holds > 0\n",
                                &c, &e) != 0);
    CHECK_CONTAINS(e.msg, "countratio(): the threshold 'high' is not a number");
    gms_claims_free(c);
}

/* figure lines STAT x=variant variants=...: one line per workload over the listed variants, and
 * the geometric mean over the workloads with a value under every one of them */
TEST(series_over_variants_from_a_report)
{
    fixture f;
    REQUIRE(setup(&f) == 0);
    gms_report *r = NULL;
    gms_error e = {0};
    REQUIRE(gms_report_build(f.st, "ipc", "base", &r, &e) == 0);
    /* base: a 2, b 4, c 10; v1: 4, 2, 20; v2: 6, failed, not run */
    gms_series_set *ss = NULL;
    REQUIRE(gms_series_from_report(r, "base,v1", 0, &ss, &e) == 0);
    CHECK(ss->x_categorical);
    CHECK_EQ(ss->nxlabels, 2);
    CHECK_STR(ss->xlabels[1], "v1");
    CHECK_EQ(ss->n, 4);                       /* a, b, c and the geometric mean */
    CHECK_STR(ss->s[1].name, "b");
    CHECK_EQ(ss->s[1].y[0], 1.0);
    CHECK_EQ(ss->s[1].y[1], 0.5);
    CHECK_STR(ss->s[3].name, "geomean");
    CHECK_NEAR(ss->s[3].y[1], cbrt(2.0), 1e-12);   /* (2 x 0.5 x 2)^(1/3) */
    gms_series_free(ss);
    ss = NULL;
    /* absolute, with v2: b failed and c not run there, so only a is complete: no mean of one */
    REQUIRE(gms_series_from_report(r, "base,v1,v2", 1, &ss, &e) == 0);
    CHECK_EQ(ss->n, 3);
    CHECK_EQ(ss->s[0].y[2], 6.0);
    CHECK(ss->s[1].ystate[2] == GMS_CELL_FAILED);
    CHECK(ss->s[2].ystate[2] == GMS_CELL_MISSING);
    gms_series_free(ss);
    ss = NULL;
    CHECK(gms_series_from_report(r, "base", 0, &ss, &e) != 0);
    CHECK_CONTAINS(e.msg, "two or more");
    e.msg[0] = 0;
    CHECK(gms_series_from_report(r, "base,v9", 0, &ss, &e) != 0);
    CHECK_CONTAINS(e.msg, "'v9' is not among the variants reported");
    gms_report_free(r);
    teardown(&f);
}

/* line figures normalised to a baseline variant (figure lines ... baseline=V) */
TEST(series_normalised_to_baseline)
{
    fixture f;
    REQUIRE(setup(&f) == 0);
    gms_series_set *ss = NULL;
    gms_error e = {0};
    REQUIRE(gms_series_build(f.st, "ipc", "gpgpu_l1_latency", &ss, &e) == 0);
    REQUIRE(gms_series_normalise(f.st, ss, "base", &e) == 0);
    CHECK_STR(ss->normalised_to, "base");
    /* base: a 2, b 4, c 10; v1 (latency 10): 4, 2, 20; v2 (40): 6, failed, not run */
    int seen = 0;
    for (size_t i = 0; i < ss->n; i++) {
        const gms_series *se = &ss->s[i];
        REQUIRE(se->n == 2);
        CHECK_EQ(se->x[0], 10.0);
        CHECK_EQ(se->x[1], 40.0);
        if (!strcmp(se->workload, "a")) { seen++; CHECK_EQ(se->y[0], 2.0); CHECK_EQ(se->y[1], 3.0); }
        if (!strcmp(se->workload, "b")) { seen++; CHECK_EQ(se->y[0], 0.5); CHECK(se->ystate[1] == GMS_CELL_FAILED); }
        if (!strcmp(se->workload, "c")) { seen++; CHECK_EQ(se->y[0], 2.0); CHECK(se->ystate[1] == GMS_CELL_MISSING); }
    }
    CHECK_EQ(seen, 3);
    gms_series_free(ss);
    ss = NULL;
    REQUIRE(gms_series_build(f.st, "ipc", "gpgpu_l1_latency", &ss, &e) == 0);
    CHECK(gms_series_normalise(f.st, ss, "v9", &e) != 0);
    CHECK_CONTAINS(e.msg, "baseline 'v9' is not a variant of this study");
    gms_series_free(ss);
    teardown(&f);
}

/* nesting is bounded (the parser, evaluator and free recurse per level): 50,000 parentheses
 * or a 50,000-term chain is one error naming the line, 200 levels still parse */
TEST(claims_expression_depth_bounded)
{
    size_t n = 50000, cap = 2 * n + 128;
    char *t = gms_xmalloc(cap);
    size_t k = (size_t)snprintf(t, cap, "claim A\n says x\n metric m = ");
    for (size_t i = 0; i < n; i++) t[k++] = '(';
    t[k++] = '1';
    for (size_t i = 0; i < n; i++) t[k++] = ')';
    snprintf(t + k, cap - k, "\n holds m > 0\n");
    CHECK(parse_fails(t, "nests more than 256 levels"));
    k = (size_t)snprintf(t, cap, "claim A\n says x\n metric m = 1");
    for (size_t i = 0; i < n / 2; i++) { t[k++] = '+'; t[k++] = '1'; }
    snprintf(t + k, cap - k, "\n holds m > 0\n");
    CHECK(parse_fails(t, "nests more than 256 levels"));
    k = (size_t)snprintf(t, cap, "claim A\n says x\n metric m = ");
    for (size_t i = 0; i < 200; i++) t[k++] = '(';
    t[k++] = '1';
    for (size_t i = 0; i < 200; i++) t[k++] = ')';
    snprintf(t + k, cap - k, "\n holds m > 0\n");
    gms_claims *c = NULL;
    gms_error e = {0};
    CHECK(gms_claims_parse_text("t.claims", t, &c, &e) == 0);
    gms_claims_free(c);
    free(t);
}
