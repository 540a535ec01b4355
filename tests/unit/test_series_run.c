/* gms_series_from_run (gpumemsim plot series): a statistic's series in one run's text output,
 * hand-made files: lines and points from the stars, the last value of a name, x from a second
 * pattern, and the errors. */
#include "test.h"
#include "harness/report.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char *write_tmp(const char *text)
{
    char *path = strdup("/tmp/gms-series-XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0) { free(path); return NULL; }
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

TEST(series_run_lines_points_last_value_and_x)
{
    char *p = write_tmp("kernel_name = k1\n"
                        "s[sm1][0]_L = 9\n"          /* a kernel's block: the totals below replace it */
                        "gpu_tot_sim_cycle = 500\n"
                        "s[sm10][1]_L = 4\n"
                        "s[sm1][1]_L = 2\n"
                        "s[sm1][0]_L = 1\n"
                        "s[sm10][0]_L = 3\n"
                        "s[sm1][0]_c = 100\n"
                        "s[sm1][1]_c = 200\n"
                        "s[sm10][0]_c = 150\n"
                        "other[sm1][0]_L = 7\n");
    REQUIRE(p);
    gms_series_set *ss = NULL;
    gms_error e = {0};
    REQUIRE(gms_series_from_run(p, "s[sm*][*]_L", "s[sm*][*]_c", &ss, &e) == 0);
    REQUIRE(ss->n == 2);
    CHECK_STR(ss->s[0].name, "1");            /* lines by number: 1 before 10 */
    CHECK_STR(ss->s[1].name, "10");
    REQUIRE(ss->s[0].n == 2);
    CHECK_EQ(ss->s[0].y[0], 1);               /* the last value of s[sm1][0]_L */
    CHECK_EQ(ss->s[0].x[0], 100);
    CHECK_EQ(ss->s[0].y[1], 2);
    CHECK_EQ(ss->s[0].x[1], 200);
    REQUIRE(ss->s[1].n == 2);
    CHECK_EQ(ss->s[1].y[0], 3);
    CHECK_EQ(ss->s[1].x[0], 150);
    CHECK(ss->s[1].ystate[1] == GMS_CELL_MISSING);   /* s[sm10][1]_c is not in the file */
    gms_series_free(ss);
    /* one star: one line, x = the point's index */
    REQUIRE(gms_series_from_run(p, "s[sm1][*]_L", NULL, &ss, &e) == 0);
    REQUIRE(ss->n == 1);
    REQUIRE(ss->s[0].n == 2);
    CHECK_EQ(ss->s[0].x[1], 1);
    CHECK_EQ(ss->s[0].y[1], 2);
    gms_series_free(ss);
    /* errors: no match, star counts, a star that is not an index */
    CHECK(gms_series_from_run(p, "t[*]", NULL, &ss, &e) != 0);
    CHECK_CONTAINS(e.msg, "no statistic matches t[*]");
    CHECK(gms_series_from_run(p, "s[sm*][*]_L", "gpu_tot_sim_cycle", &ss, &e) != 0);
    CHECK_CONTAINS(e.msg, "as many '*'");
    CHECK(gms_series_from_run(p, "gpu_tot_sim_cycle", NULL, &ss, &e) != 0);
    CHECK_CONTAINS(e.msg, "one '*'");
    CHECK(gms_series_from_run(p, "s[*][0]_L", NULL, &ss, &e) != 0);
    CHECK_CONTAINS(e.msg, "the point's index 'sm1' is not a number");
    CHECK(gms_series_from_run("/nonexistent/run.txt", "s[*]", NULL, &ss, &e) != 0);
    CHECK_CONTAINS(e.msg, "/nonexistent/run.txt");
    unlink(p);
    free(p);
}
