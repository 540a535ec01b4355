/* The decoded-trace cache (host speed; GMS_TRACE_CACHE=DIR). Decompressing and parsing an
 * Accel-Sim kernel file is about 40% of a trace-driven run's host instructions (transpose,
 * bench/README.md), and a sweep reads the same file once per point. With a cache directory
 * set, the first run of a kernel file writes the records it parsed there, zstd-compressed
 * (one file per kernel file, named by a hash of its real path, size and modification time);
 * every later run of the same, unchanged file reads those records instead of the text. The
 * records are the ones the parser made, so results cannot depend on the cache. A file is
 * published (renamed into place) only after its kernel's every block was read without error,
 * so a run that failed or stopped early leaves nothing behind. Internal to the trace reader.
 */
#ifndef GMS_FRONTEND_TRACE_CACHE_H
#define GMS_FRONTEND_TRACE_CACHE_H
#include <stdint.h>
#include "frontend/trace_parse.h"

typedef struct gms_tcache gms_tcache;

/* GMS_TRACE_CACHE, or NULL when unset or empty (caching off) */
const char *gms_tcache_dir(void);

/* The cache for kernel file `trace_path` (nwarps per block, nblocks in the grid) in `dir`:
 * reading when a published file of the same source is there, else writing a new one. NULL
 * when nothing can be done (the directory cannot be used: a warning on stderr names it, and
 * the run reads the text as without a cache). */
gms_tcache *gms_tcache_open(const char *dir, const char *trace_path, uint32_t nwarps, uint64_t nblocks);
int gms_tcache_reading(const gms_tcache *c);
/* the cache file's path (messages, tests) */
const char *gms_tcache_path(const gms_tcache *c);

/* Reading: the next block into out; new opcode texts are added to oc in the order the parser
 * met them, so record opcode ids keep their texts. 1 = read, -1 with err (a damaged cache
 * file: the message names it and says to delete it). */
int gms_tcache_read_block(gms_tcache *c, gms_opcache *oc, gms_block_trace *out, gms_error *err);

/* Writing: append a block the parser read (oc: the parser's opcode texts so far). A write
 * failure (disk full) warns once and stops caching this file; the run goes on. */
void gms_tcache_write_block(gms_tcache *c, const gms_opcache *oc, const gms_block_trace *b);
/* Writing: every block is in; publish the file. */
void gms_tcache_commit(gms_tcache *c);

/* Close; a file being written and not committed is removed. */
void gms_tcache_close(gms_tcache *c);

#endif
