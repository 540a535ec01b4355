/* Byte streams from plain, xz (liblzma) or zstd (libzstd) files. The format is detected from
 * the file's first bytes (magic numbers), not from its name, so a renamed file still reads.
 * Errors (open failure, corrupt or truncated compressed data) name the file. */
#ifndef GMS_FRONTEND_DECOMPRESS_H
#define GMS_FRONTEND_DECOMPRESS_H
#include <stddef.h>
#include <stdint.h>
#include "util/err.h"

typedef enum { GMS_STREAM_PLAIN = 0, GMS_STREAM_XZ, GMS_STREAM_ZSTD } gms_stream_kind;

typedef struct gms_instream gms_instream;

/* NULL with err set when the file cannot be opened or its compressed header is bad. */
gms_instream *gms_instream_open(const char *path, gms_error *err);
/* Up to n decompressed bytes into buf: returns the count, 0 at the end, -1 with err set. A
 * compressed stream that ends before its end marker is an error ("truncated"). xz streams
 * (with stream padding) and zstd frames one after another read as one; bytes after the last
 * one that do not start another are an error ("trailing data", with their offset). */
long gms_instream_read(gms_instream *s, void *buf, size_t n, gms_error *err);
gms_stream_kind gms_instream_kind(const gms_instream *s);
const char *gms_stream_kind_name(gms_stream_kind k);
/* 1 if a compressed stream may be decoded ahead on a thread of its own (decompress.c):
 * GMS_TRACE_READAHEAD=0|1 if set, else when the process may run on two CPUs or more and
 * GMS_HOST_CPUS (set by sweep runners) is not below 2 */
int gms_instream_readahead_allowed(void);
/* compressed bytes consumed so far (file position; with the read-ahead, as far as it has
 * decoded) */
uint64_t gms_instream_raw_pos(const gms_instream *s);
void gms_instream_close(gms_instream *s);

#endif
