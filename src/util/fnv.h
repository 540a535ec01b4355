/* FNV-1a, 64 bits: the one byte hash the project uses for names and digests (config digests,
 * decoded-trace and memo file names, the sweep store's ids, workloads' result checks). Not
 * for hash tables (util/hashmap.h mixes its keys). */
#ifndef GMS_UTIL_FNV_H
#define GMS_UTIL_FNV_H
#include <stddef.h>
#include <stdint.h>

#define GMS_FNV_OFFSET 0xcbf29ce484222325ULL

/* h continued over n bytes at p (start with GMS_FNV_OFFSET) */
static inline uint64_t gms_fnv1a(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ULL;
    return h;
}

#endif
