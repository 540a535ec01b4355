/* gms_series_from_run on bad or unusual input: every bad value is one error line naming the
 * file, line and statistic (empty, nan/inf, junk after the number, out of range); lines of any
 * length; a directory; a long star; an --x that matches nothing or none of --y's points. */
#include "test.h"
#include "harness/report.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *write_tmp(const char *text)
{
    char *path = strdup("/tmp/gms-series-in-XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0) { free(path); return NULL; }
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

/* the error of ypat (and xpat) on text, "" when it succeeded; *path_out (if not NULL) the
 * file it was in (removed by then). Both to free. */
static char *error_of(const char *text, const char *ypat, const char *xpat, char **path_out)
{
    char *p = write_tmp(text);
    if (!p) return strdup("(no temp file)");
    gms_series_set *ss = NULL;
    gms_error e = {0};
    char *msg = strdup(gms_series_from_run(p, ypat, xpat, &ss, &e) ? e.msg : "");
    gms_series_free(ss);
    unlink(p);
    if (path_out) *path_out = p;
    else free(p);
    return msg;
}

/* "PATH" followed by suffix */
static char *at(const char *path, const char *suffix)
{
    char *s = NULL;
    if (asprintf(&s, "%s%s", path, suffix) < 0) return NULL;
    return s;
}

TEST(series_run_input_empty_value_is_an_error)
{
    char *p = NULL, *m = error_of("v[0] = 1\nv[1] = \nv[2] = 3\n", "v[*]", NULL, &p);
    char *want = at(p, ":2: v[1]: '' is not a number");
    CHECK_STR(m, want);
    free(want); free(m); free(p);
    /* `name =` with nothing, not even the space, after it */
    m = error_of("v[0] = 1\nv[1] =\n", "v[*]", NULL, NULL);
    CHECK_CONTAINS(m, ":2: v[1]: '' is not a number");
    free(m);
}

TEST(series_run_input_nan_inf_refused)
{
    const char *bad[] = { "nan", "NaN", "inf", "-inf", "infinity", "nan(0x1)" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char text[128], want[128];
        snprintf(text, sizeof text, "v[0] = 1\nv[1] = %s\n", bad[i]);
        snprintf(want, sizeof want, ":2: v[1]: '%s' is not a number", bad[i]);
        char *m = error_of(text, "v[*]", NULL, NULL);
        CHECK_CONTAINS(m, want);
        free(m);
    }
}

TEST(series_run_input_bad_value_error_is_one_line)
{
    char *p = NULL, *m = error_of("v[0] = 1\nv[1] = 2 junk\n", "v[*]", NULL, &p);
    char *want = at(p, ":2: v[1]: '2 junk' is not a number");
    CHECK_STR(m, want);
    free(want); free(m); free(p);
    m = error_of("v[0] = 1\r\nv[1] = 1e400\r\n", "v[*]", NULL, NULL);
    CHECK_CONTAINS(m, ":2: v[1]: '1e400' is out of range");
    CHECK(!strchr(m, '\n') && !strchr(m, '\r'));
    free(m);
    m = error_of("v[0] = 1e-400\n", "v[*]", NULL, NULL);
    CHECK_CONTAINS(m, ":1: v[0]: '1e-400' is out of range");
    free(m);
    /* '*' alone on a run's lines: the first statistic that is not a series point */
    m = error_of("gpu_tot_sim_cycle = 500\nkernel_name = stream\n", "*", NULL, NULL);
    CHECK_CONTAINS(m, ":1: gpu_tot_sim_cycle: the point's index 'gpu_tot_sim_cycle' is not a number");
    free(m);
    m = error_of("kernel_name = stream\n", "*", NULL, NULL);
    CHECK_CONTAINS(m, ":1: kernel_name: 'stream' is not a number");
    CHECK(!strchr(m, '\n'));
    free(m);
    /* trailing blanks and a CRLF ending are not junk */
    m = error_of("v[0] = 1  \r\nv[1] = 2\t\n", "v[*]", NULL, NULL);
    CHECK_STR(m, "");
    free(m);
}

TEST(series_run_input_long_lines)
{
    /* "kernel_name = " and 1009 'y' (1023 characters), then "v[7] = 5": that tail is no
     * statistic of its own */
    char *text = malloc(9 + 14 + 1009 + 64);
    REQUIRE(text);
    strcpy(text, "v[0] = 1\nkernel_name = ");
    memset(text + 9 + 14, 'y', 1009);
    strcpy(text + 9 + 14 + 1009, "v[7] = 5\nv[1] = 2\n");
    char *p = write_tmp(text);
    REQUIRE(p);
    gms_series_set *ss = NULL;
    gms_error e = {0};
    REQUIRE(gms_series_from_run(p, "v[*]", NULL, &ss, &e) == 0);
    REQUIRE(ss->n == 1);
    CHECK_EQ(ss->s[0].n, 2);
    if (ss->s[0].n == 2) { CHECK_EQ(ss->s[0].x[1], 1); CHECK_EQ(ss->s[0].y[1], 2); }
    gms_series_free(ss);
    unlink(p);
    free(p);
    /* the lines after a long line keep their numbers */
    strcpy(text + 9 + 14 + 1009, "v[7] = 5\nv[1] = x\n");
    char *m = error_of(text, "v[*]", NULL, NULL);
    CHECK_CONTAINS(m, ":3: v[1]: 'x' is not a number");
    free(m);
    free(text);
    /* a long value in an error is quoted by its start, and the message stays whole */
    char big[4096] = "v[0] = ";
    memset(big + 7, '9', 3000);
    strcpy(big + 3007, "x\n");
    m = error_of(big, "v[*]", NULL, NULL);
    CHECK_CONTAINS(m, ":1: v[0]: '999");
    CHECK_CONTAINS(m, "...' is not a number");
    free(m);
}

TEST(series_run_input_long_star)
{
    /* a line name of 100 characters: matched, not "no statistic matches" */
    char text[256] = "s[";
    memset(text + 2, 'a', 100);
    strcpy(text + 102, "][0] = 4\n");
    char *p = write_tmp(text);
    REQUIRE(p);
    gms_series_set *ss = NULL;
    gms_error e = {0};
    int rc = gms_series_from_run(p, "s[*][*]", NULL, &ss, &e);
    CHECK_EQ(rc, 0);
    if (!rc) {
        REQUIRE(ss->n == 1);
        CHECK_EQ(strlen(ss->s[0].name), 100);
        CHECK_EQ(ss->s[0].y[0], 4);
        gms_series_free(ss);
    } else CHECK_CONTAINS(e.msg, "(no error)");
    unlink(p);
    free(p);
}

TEST(series_run_input_directory)
{
    gms_series_set *ss = NULL;
    gms_error e = {0};
    CHECK(gms_series_from_run("/tmp", "v[*]", NULL, &ss, &e) != 0);
    CHECK_CONTAINS(e.msg, "/tmp: is a directory, not a run's text output");
    CHECK(ss == NULL);
}

TEST(series_run_input_x_matches_nothing)
{
    char *p = NULL, *m = error_of("v[0] = 1\nv[1] = 2\n", "v[*]", "w[*]", &p);
    CHECK_CONTAINS(m, "--x w[*] matches no statistic of ");
    CHECK_CONTAINS(m, p);
    free(m); free(p);
    /* --x's line part differs from --y's: x names the line "sm1", y "1" */
    m = error_of("s[sm1][0]_L = 1\nc[sm1][0] = 100\n", "s[sm*][*]_L", "c[*][*]", NULL);
    CHECK_CONTAINS(m, "--x c[*][*] matches statistics of ");
    CHECK_CONTAINS(m, "but none of the same line and point as --y s[sm*][*]_L");
    free(m);
    /* some points with an x: the others are gaps, not an error */
    m = error_of("v[0] = 1\nv[1] = 2\nw[0] = 10\n", "v[*]", "w[*]", NULL);
    CHECK_STR(m, "");
    free(m);
}
