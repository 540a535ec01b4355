/* Host speed only: back the simulator's heap with transparent huge pages. The state of a
 * large GPU (80 SMs, 64 L2 slices: tags, MSHRs, warps, request pool, tens of MB) is touched
 * a few random host cache lines per request and does not fit in the TLB's reach with 4 KiB
 * pages. On a kernel whose THP mode is "madvise" (the default of many distributions) glibc
 * asks for huge pages only with GLIBC_TUNABLES=glibc.malloc.hugetlb=1 set before start.
 * Instead, before anything is allocated: large allocations stay in the heap (mmap threshold
 * 32 MiB), the heap grows 256 MiB at a time (virtual until touched), and the heap is advised
 * MADV_HUGEPAGE once, so every later page fault in it maps a huge page. Nothing is copied.
 * Measured on stream/qv100: see bench/README.md. Statistics never depend on it. */
#include "util/hugepage.h"
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define HUGE_2M (2ULL << 20)

int gms_host_hugepages_begin(void)
{
#if defined(__linux__) && defined(__GLIBC__) && defined(MADV_HUGEPAGE)
    const char *env = getenv("GMS_HOST_HUGEPAGES");
    if (env && !strcmp(env, "0")) return 0;
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TOP_PAD, 256 << 20);
    free(malloc(64));   /* the first heap extension, with the padding */
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f) return 0;
    char line[512];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned long long lo, hi;
        if (!strstr(line, "[heap]") || sscanf(line, "%llx-%llx", &lo, &hi) != 2) continue;
        /* whole 2 MiB pages inside the heap only */
        unsigned long long a = (lo + HUGE_2M - 1) & ~(HUGE_2M - 1), b = hi & ~(HUGE_2M - 1);
        if (b > a && madvise((void *)(uintptr_t)a, b - a, MADV_HUGEPAGE) == 0) n++;
    }
    fclose(f);
    return n;
#else
    return 0;
#endif
}
