#include "util/err.h"
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

int gms_err(gms_error *e, const char *fmt, ...)
{
    if (!e) return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    e->set = 1;
    return -1;
}

int gms_err_at(gms_error *e, const char *file, int line, const char *fmt, ...)
{
    if (!e) return -1;
    int n = line > 0 ? snprintf(e->msg, sizeof e->msg, "%s:%d: ", file, line)
                     : snprintf(e->msg, sizeof e->msg, "%s: ", file);
    if (n < 0 || (size_t)n >= sizeof e->msg) n = 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg + n, sizeof e->msg - (size_t)n, fmt, ap);
    va_end(ap);
    e->set = 1;
    return -1;
}

/* one clear line and a failed exit, not an abort (a problem size the host cannot hold is bad
 * input, not a crash) */
static void oom(size_t n)
{
    fprintf(stderr, "gpumemsim: out of memory allocating %zu bytes (is the problem size larger than this host's "
            "memory can hold?)\n", n);
    fflush(NULL);
    exit(1);
}

void *gms_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) oom(n);
    return p;
}

void *gms_xaligned(size_t align, size_t n)
{
    size_t sz = (n + align - 1) / align * align;   /* aligned_alloc wants a multiple */
    void *p = aligned_alloc(align, sz ? sz : align);
    if (!p) oom(n);
    return p;
}

void *gms_xcalloc(size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz ? sz : 1);
    if (!p) oom(n * sz);
    return p;
}

#define LAZY_MIN ((size_t)1 << 20)

void *gms_xcalloc_lazy(size_t n, size_t sz)
{
    if (sz && n > SIZE_MAX / sz) oom(SIZE_MAX);
    size_t bytes = n * sz;
    if (bytes < LAZY_MIN) return gms_xcalloc(n, sz);
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) oom(bytes);
    return p;
}

void gms_free_lazy(void *p, size_t n, size_t sz)
{
    if (!p) return;
    if (n * sz < LAZY_MIN) free(p);
    else munmap(p, n * sz);
}

void *gms_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) oom(n);
    return q;
}

char *gms_xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = gms_xmalloc(n);
    memcpy(p, s, n);
    return p;
}
