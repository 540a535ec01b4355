/* Page log (spec 000b Fig. 5.1): one text record per global memory access,
 *     <access index> <page number> <allocation index>
 * after a header ("# gpumemsim page-log 1 page_shift S") and one "# alloc I ADDR BYTES NAME"
 * line per allocation (index in allocation order; -1 = outside every allocation). An access
 * is one distinct page touched by one warp instruction (lanes on the same page count once).
 * `gpumemsim plot pages` draws it. gms_workload_walk runs a workload functionally (no
 * timing) with warps of resident blocks interleaved round-robin, like an SM array would,
 * and reports every memory instruction: it feeds the page log and the access classifier. */
#ifndef GMS_WORKLOADS_PAGELOG_H
#define GMS_WORKLOADS_PAGELOG_H
#include <stdint.h>
#include <stdio.h>
#include "workloads/workload.h"

typedef struct gms_pagelog gms_pagelog;

gms_pagelog *gms_pagelog_open(const char *path, int page_shift, gms_error *err);
void gms_pagelog_alloc(gms_pagelog *l, uint64_t addr, uint64_t bytes, const char *name);
void gms_pagelog_access(gms_pagelog *l, uint64_t addr);
/* the distinct pages of one warp instruction's active lanes, in lane order */
void gms_pagelog_lanes(gms_pagelog *l, const uint64_t addrs[32], uint32_t mask);
uint64_t gms_pagelog_count(const gms_pagelog *l);
/* flushes and closes; 0, or -1 with err on a write error */
int gms_pagelog_close(gms_pagelog *l, gms_error *err);

/* parsed log (for plotting): records and allocation names */
typedef struct gms_pagelog_data {
    uint64_t n, cap;
    uint64_t *access, *page;
    int32_t *alloc;
    int nallocs;
    char (*names)[64];
    int page_shift;
} gms_pagelog_data;
int gms_pagelog_read(const char *path, gms_pagelog_data *d, gms_error *err);
void gms_pagelog_data_free(gms_pagelog_data *d);

/* functional walk */
typedef struct gms_walk_cb {
    void *ctx;
    void (*alloc)(void *ctx, const gms_cmd *c);                                  /* may be NULL */
    void (*mem)(void *ctx, const gms_warp_trace *w, const gms_inst *in);         /* memory instructions */
} gms_walk_cb;
#define GMS_WALK_RESIDENT_WARPS 1792   /* 28 SMs x 64 warps (GTX 1080 Ti) */
/* runs ops with parameters kv; verify() is called at the end (its failure is an error) */
int gms_workload_walk(const gms_workload_ops *ops, const char *const *kv, uint64_t seed,
                      uint32_t resident_warps, const gms_walk_cb *cb, gms_error *err);
/* gms_workload_walk writing every allocation and global access (loads, stores, atomics,
 * LDGSTS: what the timed run's observer sees) into the page log l */
int gms_pagelog_walk(const gms_workload_ops *ops, const char *const *kv, uint64_t seed, gms_pagelog *l,
                     gms_error *err);

/* `gpumemsim plot pages` (plot_pages.c): argv holds the options after "plot" (a leading
 * "pages" is skipped): --log FILE | --workload NAME [--set k=v]... [--seed N] [--keep-log FILE],
 * and --out PNG. Returns the process exit code (0 ok, 1 error, 2 usage). */
int gms_plot_pages(int argc, char **argv);

#endif
