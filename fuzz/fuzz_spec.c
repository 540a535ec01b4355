/* libFuzzer harness for the sweep-spec parser (src/harness/spec_parse.c): the input is a
 * .sweep file's text. It is parsed, checked without asking the simulator (config files are
 * hashed when they exist) and planned. Any crash, leak or sanitizer report is a bug; a clean
 * error with a message is the expected outcome for malformed input.
 * Build and run: fuzz/run.sh spec (see docs/fuzzing.md). */
#include "harness/spec.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* a config path such as /dev/stdin would block reading a device, not find a bug */
static int names_a_device(const char *s)
{
    return strstr(s, "/dev") || strstr(s, "/proc") || strstr(s, "/sys");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text) abort();
    memcpy(text, data, size);
    text[size] = 0;   /* the parser takes C text: the part up to a NUL byte */
    if (names_a_device(text)) { free(text); return -1; }
    gms_sweep_spec *s = NULL;
    gms_error err = {0};
    int rc = gms_sweep_spec_parse_text("fuzz/seeds_spec/study.sweep", text, &s, &err);
    if (rc == 0) rc = gms_sweep_spec_check(s, 0, &err);
    if (rc == 0) {
        gms_sweep_plan plan;
        rc = gms_sweep_plan_build(s, &plan, &err);
        if (rc == 0) {
            for (size_t i = 0; i < plan.n && i < 64; i++) free(gms_sweep_point_canonical(&plan.points[i]));
            gms_sweep_plan_free(&plan);
        }
    }
    if (rc != 0 && !err.msg[0]) abort();   /* errors must say why */
    gms_sweep_spec_free(s);
    free(text);
    return 0;
}
