/* Small helpers shared by the sweep harness: a growable string, whole-file reading,
 * directories, host name, wall-clock time, a 64-bit content hash and a shell-quoting
 * writer. Nothing here keeps state between calls. */
#ifndef GMS_HARNESS_UTIL_H
#define GMS_HARNESS_UTIL_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "util/err.h"
#include "util/fnv.h"

typedef struct gms_sbuf { char *s; size_t n, cap; } gms_sbuf;   /* s is always NUL-terminated */

void gms_sbuf_add(gms_sbuf *b, const char *s);
void gms_sbuf_addn(gms_sbuf *b, const char *s, size_t n);
void gms_sbuf_printf(gms_sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void gms_sbuf_free(gms_sbuf *b);
/* the contents, never NULL (an empty buffer gives "") */
const char *gms_sbuf_str(const gms_sbuf *b);

/* reads a whole file; *len may be NULL. NULL with err set on failure. */
char *gms_read_file(const char *path, size_t *len, gms_error *err);
/* mkdir -p */
int gms_mkdirs(const char *path, gms_error *err);
/* "a/b" from dir "a" and name "b"; name returned as is when absolute or dir is empty */
char *gms_path_join(const char *dir, const char *name);
/* directory part of a path ("." when none) and file name without its last extension */
char *gms_path_dir(const char *path);
char *gms_path_stem(const char *path);
/* absolute path (the file need not exist; relative paths are taken from the cwd) */
char *gms_path_abs(const char *path);
/* searches PATH for an executable; NULL if absent */
char *gms_which(const char *prog);

/* FNV-1a over bytes, continued from h (start with GMS_HASH_INIT), then mixed */
#define GMS_HASH_INIT GMS_FNV_OFFSET
uint64_t gms_hash_bytes(uint64_t h, const void *p, size_t n);
uint64_t gms_hash_final(uint64_t h);

void gms_hostname(char *buf, size_t n);
/* CPUs this process may run on (its affinity mask, as `nproc`; else the online CPUs), at least 1 */
int gms_usable_cpus(void);
double gms_now(void);                          /* seconds since the epoch, sub-second */
void gms_iso_time(double t, char *buf, size_t n); /* "2026-11-22T10:11:12Z" */

/* writes s as one shell word (single-quoted unless it needs no quotes) */
void gms_shell_quote(gms_sbuf *b, const char *s);
/* h:mm:ss or m:ss */
void gms_fmt_duration(double s, char *buf, size_t n);

#endif
