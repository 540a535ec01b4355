/* libFuzzer harness for the config parser: the input is a GPGPU-Sim style config file, loaded
 * as if it were fuzz/seeds_config/fuzz.config (so "-config gtx480" includes a seed) and, when
 * it loads, decoded by every module's finalize (cache strings, DRAM timing, address mapping,
 * ...) and, for one input in eight, dumped (the dump is most of the time otherwise). Any crash,
 * leak or sanitizer report is a bug; a clean error with a message is the expected outcome for
 * malformed input. Build and run: fuzz/run.sh config (see docs/fuzzing.md). */
#include "config/params.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "-config /dev/stdin" and the like would block reading a device, not find a bug */
static int names_a_device(const uint8_t *d, size_t n)
{
    static const char *const bad[] = { "/dev", "/proc", "/sys" };
    for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++)
        if (memmem(d, n, bad[b], strlen(bad[b]))) return 1;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (names_a_device(data, size)) return -1;
    gms_params *p = gms_params_new();
    gms_params_set_ignore_unknown(p, size && data[0] == '#');   /* both paths for unknown names */
    gms_error err = {0};
    int rc = gms_params_load_text(p, "fuzz/seeds_config/fuzz.config", (const char *)data, size, &err);
    if (rc == 0) rc = gms_params_finalize(p, &err);
    if (rc != 0 && !err.msg[0]) abort();   /* errors must say why */
    if (rc == 0 && size % 8 == 0) {
        FILE *null = fopen("/dev/null", "w");
        if (!null) abort();
        gms_params_dump(p, null);
        gms_params_warn_unmodelled(p, null);
        fclose(null);
    }
    gms_params_free(p);
    return 0;
}
