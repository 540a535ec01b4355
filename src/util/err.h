/* One clear error: where (file, line, field) and what. Every fallible function takes a
 * gms_error* and returns non-zero (or NULL) after filling it; the CLI prints it and exits 1. */
#ifndef GMS_UTIL_ERR_H
#define GMS_UTIL_ERR_H
#include <stddef.h>
#include "gpumemsim.h"   /* gms_error */

/* printf-style; the message should name file:line and the field when they are known. */
int gms_err(gms_error *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* like gms_err but prefixed "file:line: " (line 0 = no line). */
int gms_err_at(gms_error *e, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* allocation that exits (status 1) with one message on out-of-memory: a problem size the host
 * cannot hold is reported, not recovered from */
void *gms_xmalloc(size_t n);
/* n bytes aligned to `align` (a power of two), or exit */
void *gms_xaligned(size_t align, size_t n);
void *gms_xcalloc(size_t n, size_t sz);
/* zeroed like gms_xcalloc, but a large array (1 MiB or more) gets fresh pages of its own that
 * cost nothing until touched (host memory and time: an array sized for the worst case, e.g.
 * an MSHR pool of a config with 1024 x 1024 slots, of which a run uses the first few pages).
 * Free it with gms_free_lazy and the same sizes. */
void *gms_xcalloc_lazy(size_t n, size_t sz);
void gms_free_lazy(void *p, size_t n, size_t sz);
void *gms_xrealloc(void *p, size_t n);
char *gms_xstrdup(const char *s);

#endif
