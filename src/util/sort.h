#ifndef GMS_UTIL_SORT_H
#define GMS_UTIL_SORT_H
#include <stdint.h>

/* qsort comparator for uint64_t, ascending */
static inline int gms_cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* qsort comparator for uint32_t, ascending */
static inline int gms_cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

#endif
