/* Device arrays of built-in workloads: a host copy (the data the kernels compute on, wl_util.h)
 * with its device address, allocation pools for programs that rebuild their host state for
 * each repetition, and the repetition driver of such programs. */
#ifndef GMS_WORKLOADS_WL_BUF_H
#define GMS_WORKLOADS_WL_BUF_H
#include <stdint.h>
#include "workloads/wl_util.h"

/* a device array: host copy + device address */
typedef struct wl_buf {
    void *h;
    uint64_t d;
    uint64_t bytes;
} wl_buf;
#define WL_F(b) ((float *)(b).h)
#define WL_I(b) ((int32_t *)(b).h)
void wl_buf_new(wl_buf *b, uint64_t bytes);          /* zeroed host copy */
void wl_buf_free(wl_buf *b);
/* allocate on the device; copy host->device when `upload` (wl_buf_upload: the shadow memory
 * of a functional verify run gets the host copy too) */
void wl_buf_alloc(gms_program *p, wl_buf *b, const char *name, int upload);
/* cudaMemcpy of the whole host copy to the device, and to the shadow memory of a functional
 * verify run (wl_shadow.h) */
void wl_buf_upload(gms_program *p, const wl_buf *b);

/* Device allocations kept across the repetitions (repeat=N) of a program that rebuilds its
 * host state for each repetition (the drive() state machines of pfilter, sc, svm, bn, cnn):
 * an allocation of a later repetition reuses a free one of the same name and at least its size
 * from the earlier repetitions, so every repetition runs on the first one's allocations, as a
 * program that launches its kernels N times would (UVMBench's data-reuse study). */
typedef struct wl_pool_ent { char name[64]; uint64_t d, bytes; int used; } wl_pool_ent;
typedef struct wl_pool { wl_pool_ent *e; size_t n, cap; } wl_pool;
/* a new repetition begins: every allocation of the pool may be reused again */
void wl_pool_restart(wl_pool *pool);
void wl_pool_free(wl_pool *pool);
/* next() of such a program: drive(owner) pushes commands until its repetition is done; then,
 * while repetitions remain, rebuild(owner) makes a fresh host state from the same seed (the
 * same input, uploaded again) and the pool is restarted, so the next repetition runs on the
 * first one's allocations. *rep counts the repetitions done. */
int wl_rerun(void *owner, uint64_t *rep, uint64_t repeat, wl_pool *pool,
             int (*drive)(void *owner, gms_program *p, gms_error *err), void (*rebuild)(void *owner),
             gms_program *p, gms_error *err);
/* wl_buf_alloc, through `pool` (NULL: plain wl_buf_alloc). The first repetition allocates
 * exactly as wl_buf_alloc does; a reused allocation is only uploaded (when `upload`). */
void wl_buf_alloc_in(gms_program *p, wl_pool *pool, wl_buf *b, const char *name, int upload);

#endif
