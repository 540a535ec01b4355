/* The result store and reports (src/harness/store.c, collect.c, report.c), on a store built
 * by hand: a plan from a small spec, point results ingested from hand-written JSON, and
 * normalised values and geometric means checked against hand computation. */
#include "test.h"
#include "harness/report.h"
#include "harness/point.h"
#include "harness/util.h"
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct fixture {
    char *dir, *cfg, *db;
    gms_sweep_spec *s;
    gms_sweep_plan plan;
    gms_store *st;
} fixture;

/* variants base, v1, v2; workloads a (group g1), b (g1), c (g2); seeds 1, 2 */
static int setup(fixture *f)
{
    memset(f, 0, sizeof *f);
    char tmpl[] = "/tmp/gms-test-store-XXXXXX";
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
    int rc = gms_sweep_spec_parse_text(sp, "config base.config\nbaseline base\nseeds 1 2\nvariant base\n"
                                       "variant v1 gpgpu_l1_latency=10\nvariant v2 gpgpu_l1_latency=40\n"
                                       "workload stream as a n=1K group g1\nworkload stream as b n=2K group g1\n"
                                       "workload stream as c n=4K group g2\n", &f->s, &e);
    free(sp);
    if (rc || gms_sweep_spec_check(f->s, 0, &e) || gms_sweep_plan_build(f->s, &f->plan, &e) ||
        gms_store_open(f->db, 1, &f->st, &e)) { printf("    %s\n", e.msg); return -1; }
    if (gms_store_begin(f->st, &e) || gms_store_sync_plan(f->st, f->s, &f->plan, &e) || gms_store_commit(f->st, &e)) {
        printf("    %s\n", e.msg);
        return -1;
    }
    return 0;
}

static void teardown(fixture *f)
{
    gms_store_close(f->st);
    gms_sweep_plan_free(&f->plan);
    gms_sweep_spec_free(f->s);
    if (f->db) unlink(f->db);
    if (f->cfg) unlink(f->cfg);
    if (f->dir) rmdir(f->dir);
    free(f->db); free(f->cfg); free(f->dir);
}

static const gms_sweep_point *find(const fixture *f, const char *v, const char *w, uint64_t seed)
{
    for (size_t i = 0; i < f->plan.n; i++) {
        const gms_sweep_point *p = &f->plan.points[i];
        if (!strcmp(p->variant->name, v) && !strcmp(p->workload->label, w) && p->seed == seed) return p;
    }
    return NULL;
}

/* ingests one hand-made result; status "ok" with ipc, or "failed" */
static int put(fixture *f, const char *v, const char *w, uint64_t seed, const char *status, double ipc, const char *attempt)
{
    const gms_sweep_point *p = find(f, v, w, seed);
    if (!p) return -1;
    gms_sbuf b = {0};
    gms_sbuf_printf(&b, "{\"format\": \"%s\", \"point_id\": \"%s\", \"attempt\": \"%s\", \"status\": \"%s\", "
                        "\"exit_code\": %d, \"error\": \"%s\", \"wall_s\": 1.5, \"host\": \"h\", \"version\": \"t\", ",
                    GMS_POINT_FORMAT, p->id, attempt, status, strcmp(status, "ok") ? 1 : 0, strcmp(status, "ok") ? "boom" : "");
    if (!strcmp(status, "ok"))
        gms_sbuf_printf(&b, "\"stats\": {\"gpumemsim_version\": \"t\", \"workload\": \"stream\", \"config_digest\": \"d\", "
                            "\"total\": {\"gpu_tot_ipc\": %.17g, \"cycles\": 100}, \"kernels\": [{\"name\": \"k0\", \"uid\": 1, "
                            "\"stream\": 0, \"stats\": {\"gpu_tot_ipc\": %.17g}}]}}", ipc, ipc);
    else gms_sbuf_add(&b, "\"stats\": null}");
    gms_error e = {0};
    gms_json *j = gms_json_parse(b.s, b.n, "hand", &e);
    gms_sbuf_free(&b);
    if (!j) { printf("    %s\n", e.msg); return -1; }
    int added = 0;
    int rc = gms_store_begin(f->st, &e) || gms_store_ingest(f->st, j, "hand", &added, &e) || gms_store_commit(f->st, &e);
    if (rc) printf("    %s\n", e.msg);
    gms_json_free(j);
    return rc ? -1 : added;
}

static long count(gms_store *st, const char *sql)
{
    sqlite3_stmt *q;
    long n = -1;
    if (sqlite3_prepare_v2(st->db, sql, -1, &q, NULL) == SQLITE_OK && sqlite3_step(q) == SQLITE_ROW) n = sqlite3_column_int64(q, 0);
    sqlite3_finalize(q);
    return n;
}

/* a report's Markdown (normalised or absolute) as a string the caller frees */
static char *md_of(const gms_report *r, int absolute)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    gms_report_write_md(r, absolute, m);
    fclose(m);
    return buf;
}

TEST(harness_report_geomeans)
{
    fixture f;
    REQUIRE(setup(&f) == 0);
    REQUIRE(f.plan.n == 18);
    /* base: a = 2 (seeds 1, 3), b = 4, c = 10; v1: a = 3 (2x), b = 2 (0.5x), c = 20 (2x);
     * v2: a = 4, b failed (seed 2), c not run */
    int n = 0;
    n += put(&f, "base", "a", 1, "ok", 1, "t1") + put(&f, "base", "a", 2, "ok", 3, "t2");
    n += put(&f, "base", "b", 1, "ok", 4, "t3") + put(&f, "base", "b", 2, "ok", 4, "t4");
    n += put(&f, "base", "c", 1, "ok", 10, "t5") + put(&f, "base", "c", 2, "ok", 10, "t6");
    n += put(&f, "v1", "a", 1, "ok", 4, "t7") + put(&f, "v1", "a", 2, "ok", 4, "t8");
    n += put(&f, "v1", "b", 1, "ok", 2, "t9") + put(&f, "v1", "b", 2, "ok", 2, "t10");
    n += put(&f, "v1", "c", 1, "ok", 20, "t11") + put(&f, "v1", "c", 2, "ok", 20, "t12");
    n += put(&f, "v2", "a", 1, "ok", 6, "t13") + put(&f, "v2", "a", 2, "ok", 6, "t14");
    n += put(&f, "v2", "b", 1, "ok", 4, "t15") + put(&f, "v2", "b", 2, "failed", 0, "t16");
    CHECK_EQ(n, 16);
    /* ingesting the same attempts again changes nothing */
    long runs = count(f.st, "SELECT count(*) FROM runs"), stats = count(f.st, "SELECT count(*) FROM stats");
    CHECK_EQ(put(&f, "v1", "a", 1, "ok", 4, "t7"), 0);
    CHECK_EQ(put(&f, "v2", "b", 2, "failed", 0, "t16"), 0);
    CHECK_EQ(count(f.st, "SELECT count(*) FROM runs"), runs);
    CHECK_EQ(count(f.st, "SELECT count(*) FROM stats"), stats);
    CHECK_EQ(runs, 16);
    CHECK_EQ(stats, 15 * 3);   /* 15 ok runs x (2 totals + 1 kernel stat) */

    gms_report *r;
    gms_error e = {0};
    int rc = gms_report_build(f.st, "gpu_tot_ipc", NULL, &r, &e);
    if (rc) printf("    %s\n", e.msg);
    REQUIRE(rc == 0);
    REQUIRE(r->nvariants == 3 && r->nworkloads == 3 && r->ngroups == 2);
    CHECK_STR(r->baseline, "base");
    const gms_report_cell *c = r->cells;
    /* rows a, b, c; columns base, v1, v2 */
    CHECK(c[0].state == GMS_CELL_OK); CHECK_NEAR(c[0].value, 2, 1e-12); CHECK_NEAR(c[0].norm, 1, 1e-12);
    CHECK_NEAR(c[1].norm, 2, 1e-12);
    CHECK_NEAR(c[2].norm, 3, 1e-12);
    CHECK_NEAR(c[3 + 1].norm, 0.5, 1e-12);
    CHECK(c[3 + 2].state == GMS_CELL_FAILED && c[3 + 2].nstate == GMS_CELL_FAILED);
    CHECK_NEAR(c[6 + 1].norm, 2, 1e-12);
    CHECK(c[6 + 2].state == GMS_CELL_MISSING);
    /* geometric means: group g1 = {a, b}, g2 = {c}, all */
    const gms_report_gm *g = r->gm_norm;
    CHECK_NEAR(g[0 * 3 + 1].value, 1.0, 1e-12);            /* sqrt(2 * 0.5) */
    CHECK_EQ(g[0 * 3 + 1].n_used, 2);
    CHECK_NEAR(g[0 * 3 + 2].value, 3.0, 1e-12);            /* only a: b failed */
    CHECK_EQ(g[0 * 3 + 2].n_used, 1); CHECK_EQ(g[0 * 3 + 2].n_total, 2);
    CHECK_NEAR(g[1 * 3 + 1].value, 2.0, 1e-12);
    CHECK_EQ(g[1 * 3 + 2].n_used, 0);
    CHECK_NEAR(g[2 * 3 + 0].value, 1.0, 1e-12);
    CHECK_NEAR(g[2 * 3 + 1].value, cbrt(2.0), 1e-12);      /* (2 * 0.5 * 2)^(1/3) */
    CHECK_NEAR(r->gm_abs[2 * 3 + 0].value, cbrt(2.0 * 4 * 10), 1e-9);

    char *buf = md_of(r, 0);
    size_t len = 0;
    CHECK_CONTAINS(buf, "| a | g1 | 2 | 1.0000 | 2.0000 | 3.0000 |");
    CHECK_CONTAINS(buf, "| b | g1 | 4 | 1.0000 | 0.5000 | failed |");
    CHECK_CONTAINS(buf, "| c | g2 | 10 | 1.0000 | 2.0000 | - |");
    CHECK_CONTAINS(buf, "**3.0000 (1/2)**");
    CHECK_CONTAINS(buf, "| **geomean** | all |");
    free(buf);
    FILE *m = open_memstream(&buf, &len);
    gms_report_write_csv(r, 0, m);
    fclose(m);
    CHECK_CONTAINS(buf, "workload,group,base,v1,v2\na,g1,1,2,3\nb,g1,1,0.5,failed\nc,g2,1,2,-\n");
    CHECK_CONTAINS(buf, "geomean,g1,1,1,3\n");
    free(buf);
    gms_report_free(r);

    /* another baseline, unknown baseline, unknown metric */
    REQUIRE(gms_report_build(f.st, "gpu_tot_ipc", "v1", &r, &e) == 0);
    CHECK_NEAR(r->cells[0].norm, 0.5, 1e-12);
    gms_report_free(r);
    CHECK(gms_report_build(f.st, "gpu_tot_ipc", "v9", &r, &e) != 0);
    CHECK_CONTAINS(e.msg, "baseline 'v9' is not a variant of this study (variants: base, v1, v2)");
    CHECK(gms_report_build(f.st, "gpu_tot_ipx", NULL, &r, &e) != 0);
    CHECK_CONTAINS(e.msg, "no run has a total stat named 'gpu_tot_ipx'");

    /* a part of the study (--only) that left the baseline out: the absolute values stand,
     * nothing is normalised, the table says why (until 2026-12-07 every claim of such a part
     * failed with "baseline 'base' is not a variant of this study") */
    REQUIRE(sqlite3_exec(f.st->db, "UPDATE points SET in_plan = 0 WHERE variant = 'base'", NULL, NULL, NULL) == SQLITE_OK);
    rc = gms_report_build(f.st, "gpu_tot_ipc", NULL, &r, &e);
    if (rc) printf("    %s\n", e.msg);
    REQUIRE(rc == 0);
    REQUIRE(r->nvariants == 2);
    CHECK(r->baseline_idx == GMS_REPORT_NO_BASELINE);
    CHECK_STR(r->variants[0], "v1");
    CHECK(r->cells[0].state == GMS_CELL_OK && r->cells[0].nstate == GMS_CELL_MISSING);
    CHECK_NEAR(r->cells[0].value, 4, 1e-12);               /* v1 on a: 2 x its norm 2 */
    CHECK_EQ(r->gm_norm[2 * 2 + 0].n_used, 0);
    buf = md_of(r, 0);
    CHECK_CONTAINS(buf, "The baseline 'base' is not in this part of the study (--only): the values are absolute.");
    CHECK_CONTAINS(buf, "| a | g1 | 4 | 6 |");
    free(buf);
    gms_report_free(r);
    /* a baseline that is no variant of the store at all is still an error */
    CHECK(gms_report_build(f.st, "gpu_tot_ipc", "v9", &r, &e) != 0);
    CHECK_CONTAINS(e.msg, "baseline 'v9' is not a variant of this study (variants: v1, v2)");
    teardown(&f);
}

/* Two reports drawing the same figure at once (two `repro report` runs on one store): each
 * must get a whole figure and leave no partial file behind. Until 2026-12-07 gnuplot drew into
 * the figure's own path after unlinking it, so one process could delete the figure the other
 * had just drawn ("gnuplot failed ... (exit 0): no output file"). */
TEST(harness_plot_same_figure_concurrently)
{
    char *gp = gms_which("gnuplot");
    if (!gp) SKIP_OR_FAIL_IN_CI("gnuplot is not installed");
    free(gp);
    fixture f;
    REQUIRE(setup(&f) == 0);
    int n = 0;
    const char *vs[] = { "base", "v1", "v2" }, *ws[] = { "a", "b", "c" };
    for (int v = 0; v < 3; v++)
        for (int w = 0; w < 3; w++)
            for (uint64_t seed = 1; seed <= 2; seed++) {
                char att[32];
                snprintf(att, sizeof att, "p%d%d%d", v, w, (int)seed);
                n += put(&f, vs[v], ws[w], seed, "ok", 1 + v + 2 * w, att);
            }
    CHECK_EQ(n, 18);
    gms_report *r;
    gms_error e = {0};
    REQUIRE(gms_report_build(f.st, "gpu_tot_ipc", NULL, &r, &e) == 0);
    char *png = gms_path_join(f.dir, "fig.png");
    enum { PROCS = 4, ROUNDS = 3 };
    pid_t kids[PROCS];
    for (int k = 0; k < PROCS; k++) {
        kids[k] = fork();
        REQUIRE(kids[k] >= 0);
        if (kids[k] == 0) {
            int bad = 0;
            for (int i = 0; i < ROUNDS; i++) {
                gms_error ce = {0};
                if (gms_plot_bars(r, 0, png, &ce)) { fprintf(stderr, "    child: %s\n", ce.msg); bad = 1; }
            }
            _exit(bad);
        }
    }
    int failed = 0;
    for (int k = 0; k < PROCS; k++) {
        int st = 0;
        waitpid(kids[k], &st, 0);
        if (!WIFEXITED(st) || WEXITSTATUS(st)) failed++;
    }
    CHECK_EQ(failed, 0);
    struct stat sb;
    CHECK(stat(png, &sb) == 0 && sb.st_size > 0);
    /* no partial figure left in the directory */
    int parts = 0;
    DIR *d = opendir(f.dir);
    REQUIRE(d);
    for (struct dirent *de; (de = readdir(d));)
        if (strstr(de->d_name, ".part")) parts++;
    closedir(d);
    CHECK_EQ(parts, 0);
    unlink(png);
    free(png);
    gms_report_free(r);
    teardown(&f);
}

TEST(harness_store_retry_and_schema)
{
    fixture f;
    REQUIRE(setup(&f) == 0);
    /* a failed attempt, then an ok one: the point counts as done, both attempts are kept */
    CHECK_EQ(put(&f, "base", "a", 1, "failed", 0, "x1"), 1);
    CHECK_EQ(put(&f, "base", "a", 1, "ok", 5, "x2"), 1);
    CHECK_EQ(count(f.st, "SELECT count(*) FROM runs"), 2);
    CHECK_EQ(count(f.st, "SELECT count(*) FROM best_runs b JOIN runs r ON r.id = b.run_id WHERE r.status = 'ok'"), 1);
    gms_error e = {0};
    /* a result for a point that is not in the store */
    const char *txt = "{\"point_id\": \"0000000000000000\", \"attempt\": \"z\", \"status\": \"ok\"}";
    gms_json *j = gms_json_parse(txt, strlen(txt), "x", &e);
    REQUIRE(j);
    int added;
    CHECK(gms_store_ingest(f.st, j, "x.json", &added, &e) != 0);
    CHECK_CONTAINS(e.msg, "x.json: point 0000000000000000 is not in the store's plan");
    gms_json_free(j);
    /* a store from a newer schema is refused with a clear error */
    CHECK(gms_store_exec(f.st, "UPDATE schema_version SET version = 99", &e) == 0);
    gms_store_close(f.st);
    f.st = NULL;
    gms_store *st2 = NULL;
    CHECK(gms_store_open(f.db, 0, &st2, &e) != 0);
    CHECK_CONTAINS(e.msg, "schema version 99, newer than this gpumemsim");
    gms_store_close(st2);
    /* not a store */
    CHECK(gms_store_open(f.cfg, 0, &st2, &e) != 0);
    CHECK(gms_store_open("/nonexistent/x.db", 0, &st2, &e) != 0);
    CHECK_CONTAINS(e.msg, "no such result store");
    teardown(&f);
}
