/* libFuzzer harness for the trace reader: the input is a kernel trace file (plain, or xz/zstd
 * by magic bytes). It is written to a per-process temporary directory next to a kernelslist.g
 * naming it, then read completely (header, every block). Any crash, leak or sanitizer report
 * is a bug; a clean error return is the expected outcome for malformed input.
 * Build and run: fuzz/run.sh (see docs/traces.md). */
#include "frontend/trace_stat.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64], kpath[128], lpath[128];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/gms_fuzz_%d", (int)getpid());
        mkdir(dir, 0700);
        snprintf(kpath, sizeof kpath, "%s/kernel-1.traceg", dir);
        snprintf(lpath, sizeof lpath, "%s/kernelslist.g", dir);
        FILE *l = fopen(lpath, "w");
        if (!l) abort();
        fputs("MemcpyHtoD,0x00007f0000000000,4096\nkernel-1.traceg\n", l);
        fclose(l);
    }
    FILE *f = fopen(kpath, "wb");
    if (!f) abort();
    fwrite(data, 1, size, f);
    fclose(f);
    gms_trace_stats st;
    gms_error err = {0};
    if (gms_trace_stat(lpath, &st, &err) != 0 && !err.msg[0]) abort();   /* errors must say why */
    return 0;
}
