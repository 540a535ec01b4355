#include "test.h"
#include <stdlib.h>

#define MAX_TESTS 4096
static struct { const char *name, *file; gms_test_fn fn; } tests[MAX_TESTS];
static int ntests, cur_failed;

void gms_test_register(const char *name, const char *file, gms_test_fn fn)
{
    if (ntests < MAX_TESTS) {
        tests[ntests].name = name;
        tests[ntests].file = file;
        tests[ntests].fn = fn;
        ntests++;
    }
}

void gms_test_fail(const char *file, int line, const char *msg)
{
    printf("    %s:%d: %s\n", file, line, msg);
    cur_failed++;
}

int gms_test_quick(void) { const char *q = getenv("GMS_QUICK"); return q && *q == '1'; }
const char *gms_test_bin(void) { const char *b = getenv("GMS_BIN"); return b ? b : "build/gpumemsim"; }

static int cmp(const void *a, const void *b)
{
    const char *fa = *(const char *const *)a, *fb = *(const char *const *)b;
    return strcmp(fa, fb);
}

int main(int argc, char **argv)
{
    (void)cmp;
    int passed = 0, failed = 0;
    for (int i = 0; i < ntests; i++) {
        if (argc > 1 && !strstr(tests[i].name, argv[1]) && !strstr(tests[i].file, argv[1])) continue;
        cur_failed = 0;
        tests[i].fn();
        if (cur_failed) { printf("FAIL %s (%s)\n", tests[i].name, tests[i].file); failed++; }
        else { printf("ok   %s\n", tests[i].name); passed++; }
        fflush(stdout);
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
