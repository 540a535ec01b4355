#include "test.h"
#include <stdarg.h>
#include <stdlib.h>

/* The table grows as tests register (constructors, before main): a fixed table dropped the
 * tests past its end without a word. A failed allocation stops the runner. */
static struct test_entry { const char *name, *file; gms_test_fn fn; } *tests;
static int ntests, cap_tests;
static int cur_failed, cur_skipped;
static char cur_skip_why[512];

/* capture mode (harness self-tests): counted here instead of against the running test */
static int capturing, cap_failed, cap_skipped;
static char cap_msg[512];

void gms_test_register(const char *name, const char *file, gms_test_fn fn)
{
    if (ntests == cap_tests) {
        int ncap = cap_tests ? 2 * cap_tests : 256;
        struct test_entry *t = realloc(tests, (size_t)ncap * sizeof *t);
        if (!t) {
            fprintf(stderr, "gms_tests: out of memory registering test %s (%s)\n", name, file);
            exit(2);
        }
        tests = t;
        cap_tests = ncap;
    }
    tests[ntests].name = name;
    tests[ntests].file = file;
    tests[ntests].fn = fn;
    ntests++;
}

int gms_test_count(void) { return ntests; }

void gms_test_fail(const char *file, int line, const char *msg)
{
    if (capturing) {
        cap_failed++;
        snprintf(cap_msg, sizeof cap_msg, "%s", msg);
        return;
    }
    printf("    %s:%d: %s\n", file, line, msg);
    cur_failed++;
}

static int in_ci(void)
{
    const char *ci = getenv("CI");
    return ci && (!strcmp(ci, "true") || !strcmp(ci, "1"));
}

void gms_test_skip(const char *file, int line, int ci_fails, const char *fmt, ...)
{
    char why[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    if (ci_fails && in_ci()) {
        char m[700];
        snprintf(m, sizeof m, "skipped under CI=true, which provides what it needs: %s", why);
        gms_test_fail(file, line, m);
        return;
    }
    if (capturing) {
        cap_skipped++;
        snprintf(cap_msg, sizeof cap_msg, "%s", why);
        return;
    }
    cur_skipped++;
    snprintf(cur_skip_why, sizeof cur_skip_why, "%s", why);
}

void gms_test_capture_begin(void)
{
    capturing = 1;
    cap_failed = cap_skipped = 0;
    cap_msg[0] = 0;
}

void gms_test_capture_end(int *failures, int *skips, char *last_msg, size_t cap)
{
    capturing = 0;
    if (failures) *failures = cap_failed;
    if (skips) *skips = cap_skipped;
    if (last_msg && cap) snprintf(last_msg, cap, "%s", cap_msg);
}

int gms_test_quick(void) { const char *q = getenv("GMS_QUICK"); return q && *q == '1'; }
const char *gms_test_bin(void) { const char *b = getenv("GMS_BIN"); return b ? b : "build/gpumemsim"; }
const char *gms_test_shared_dir(void)
{
    const char *d = getenv("GMS_SHARED_DIR");
    return d && *d ? d : "../shared";
}

int main(int argc, char **argv)
{
    int passed = 0, failed = 0, skipped = 0;
    for (int i = 0; i < ntests; i++) {
        if (argc > 1 && !strstr(tests[i].name, argv[1]) && !strstr(tests[i].file, argv[1])) continue;
        cur_failed = cur_skipped = 0;
        tests[i].fn();
        /* a test that failed before skipping is a failure */
        if (cur_failed) { printf("FAIL %s (%s)\n", tests[i].name, tests[i].file); failed++; }
        else if (cur_skipped) { printf("skip %s: %s\n", tests[i].name, cur_skip_why); skipped++; }
        else { printf("ok   %s\n", tests[i].name); passed++; }
        fflush(stdout);
    }
    printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
    free(tests);
    return failed ? 1 : 0;
}
