/* The test framework itself (test.h, main.c): CHECK_EQ is exact for floating operands and
 * for 64-bit integers, CHECK_NEAR/CHECK_REL hold their tolerance, SKIP ends a test as
 * skipped (a failure under CI=true for SKIP_OR_FAIL_IN_CI), and every TEST in the sources
 * is registered. Failures of the checks under test are captured, not recorded. */
#include "test.h"
#include <dirent.h>
#include <stdlib.h>

/* runs one check under capture; returns its failure count and keeps the message */
#define CAPTURED(stmt, fails, msg) do { gms_test_capture_begin(); stmt;                    \
    gms_test_capture_end(&(fails), NULL, msg, sizeof msg); } while (0)

TEST(framework_check_eq_exact_for_doubles)
{
    int f;
    char msg[512];
    /* the old CHECK_EQ cast both to long long: 2.5 == 2 passed */
    CAPTURED(CHECK_EQ(2.5, 2.0), f, msg);
    CHECK_EQ(f, 1);
    CHECK_CONTAINS(msg, "2.5 != 2");
    double avg = 7.0 / 2; /* an average: 3.5, not 3 */
    CAPTURED(CHECK_EQ(avg, 3), f, msg);
    CHECK_EQ(f, 1);
    CAPTURED(CHECK_EQ(3, avg), f, msg);
    CHECK_EQ(f, 1);
    CAPTURED(CHECK_EQ(0.1 + 0.2, 0.3), f, msg); /* exact: differs in the last bit */
    CHECK_EQ(f, 1);
    CHECK_CONTAINS(msg, "0.30000000000000004 != 0.29999999999999999");
    float fl = 0.5f;
    CAPTURED(CHECK_EQ(fl, 0), f, msg);
    CHECK_EQ(f, 1);
    /* equal values pass, across types */
    CAPTURED(CHECK_EQ(avg, 3.5); CHECK_EQ(2.0, 2); CHECK_EQ(4, 4.0f); CHECK_EQ(fl, 0.5), f, msg);
    CHECK_EQ(f, 0);
}

TEST(framework_check_eq_exact_for_integers)
{
    int f;
    char msg[512];
    /* 2^53 + 1 and 2^53 are one double apart only as integers: compared exactly */
    int64_t big = ((int64_t)1 << 53) + 1, big2 = (int64_t)1 << 53;
    CAPTURED(CHECK_EQ(big, big2), f, msg);
    CHECK_EQ(f, 1);
    CHECK_CONTAINS(msg, "9007199254740993 != 9007199254740992");
    uint64_t top = UINT64_MAX;
    CAPTURED(CHECK_EQ(top, UINT64_MAX); CHECK_EQ(-1, -1LL); CHECK_EQ((char)'a', 97), f, msg);
    CHECK_EQ(f, 0);
    CAPTURED(CHECK_EQ(top, UINT64_MAX - 1), f, msg);
    CHECK_EQ(f, 1);
    /* an unsigned 64-bit value against a double keeps its value (2^64 - 1 rounds to 2^64) */
    CAPTURED(CHECK_EQ(top, 18446744073709551616.0), f, msg);
    CHECK_EQ(f, 0);
    /* pointers still compare (as integers) */
    const char *s = "x";
    CAPTURED(CHECK_EQ(s, s); CHECK_EQ(s + 1, s + 1), f, msg);
    CHECK_EQ(f, 0);
    CAPTURED(CHECK_EQ(s, s + 1), f, msg);
    CHECK_EQ(f, 1);
}

TEST(framework_check_near_and_rel)
{
    int f;
    char msg[512];
    CAPTURED(CHECK_NEAR(1.0, 1.05, 0.1); CHECK_NEAR(-3, -3.1, 0.2), f, msg);
    CHECK_EQ(f, 0);
    CAPTURED(CHECK_NEAR(1.0, 1.2, 0.1), f, msg);
    CHECK_EQ(f, 1);
    /* relative to the expected (second) value, whatever its sign */
    CAPTURED(CHECK_REL(101.9, 100, 0.02); CHECK_REL(-98.1, -100, 0.02); CHECK_REL(0, 0, 0.01), f, msg);
    CHECK_EQ(f, 0);
    CAPTURED(CHECK_REL(102.1, 100, 0.02), f, msg);
    CHECK_EQ(f, 1);
    CAPTURED(CHECK_REL(-97.9, -100, 0.02), f, msg);
    CHECK_EQ(f, 1);
    CAPTURED(CHECK_REL(1e-9, 0, 0.5), f, msg); /* 0 expected: only 0 is within */
    CHECK_EQ(f, 1);
}

static int after_skip;
static void skips(void) { SKIP("no %s here", "thing"); after_skip = 1; }
static void skips_ci(void) { SKIP_OR_FAIL_IN_CI("service %d down", 7); after_skip = 1; }

TEST(framework_skip)
{
    int f, s;
    char msg[512];
    after_skip = 0;
    gms_test_capture_begin();
    skips();
    gms_test_capture_end(&f, &s, msg, sizeof msg);
    CHECK_EQ(f, 0);
    CHECK_EQ(s, 1);
    CHECK_STR(msg, "no thing here");
    CHECK_EQ(after_skip, 0); /* SKIP returns */

    /* outside CI the CI variant is a skip, under CI=true a failure */
    const char *old = getenv("CI");
    char saved[64] = "";
    if (old) snprintf(saved, sizeof saved, "%s", old);
    unsetenv("CI");
    gms_test_capture_begin();
    skips_ci();
    gms_test_capture_end(&f, &s, msg, sizeof msg);
    CHECK_EQ(f, 0);
    CHECK_EQ(s, 1);
    CHECK_STR(msg, "service 7 down");
    setenv("CI", "true", 1);
    gms_test_capture_begin();
    skips_ci();
    gms_test_capture_end(&f, &s, msg, sizeof msg);
    CHECK_EQ(f, 1);
    CHECK_EQ(s, 0);
    CHECK_CONTAINS(msg, "service 7 down");
    CHECK_CONTAINS(msg, "CI=true");
    gms_test_capture_begin();
    skips(); /* a plain SKIP stays a skip in CI */
    gms_test_capture_end(&f, &s, msg, sizeof msg);
    CHECK_EQ(f, 0);
    CHECK_EQ(s, 1);
    CHECK_EQ(after_skip, 0);
    if (old) setenv("CI", saved, 1);
    else unsetenv("CI");
}

/* Every "TEST(" at the start of a line of a .c file in tests/unit is registered (the runner
 * runs from the project root; every .c file there is built into it). A table that silently
 * dropped the tests past its size (the old fixed one) fails this. */
TEST(framework_registers_every_test)
{
    DIR *d = opendir("tests/unit");
    REQUIRE(d);
    struct dirent *e;
    int in_sources = 0, files = 0;
    char path[600], line[4096];
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 3 || strcmp(e->d_name + n - 2, ".c")) continue;
        snprintf(path, sizeof path, "tests/unit/%s", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        files++;
        while (fgets(line, sizeof line, f))
            if (!strncmp(line, "TEST(", 5)) in_sources++;
        fclose(f);
    }
    closedir(d);
    CHECK(files > 10);
    CHECK(in_sources > 200);
    CHECK_EQ(gms_test_count(), in_sources);
}
