/* DRAM scheduler "fcfs": strict arrival order (GPGPU-Sim scheduler_fifo): only the oldest
 * request may go to its bank, and only when that bank is free; it blocks everything behind
 * it. Choice: the queue holds -gpgpu_frfcfs_dram_sched_queue_size requests like FR-FCFS
 * (GPGPU-Sim's FIFO mrqq holds 2), so the two differ only in order; and a request counts
 * as a row hit when its row is the one open in its bank (GPGPU-Sim's FIFO path does not
 * count row locality at all). */
#include "mem/dram_sched.h"
#include "util/err.h"
#include <stdlib.h>

typedef struct fcfs { gms_dram_rlist q; uint32_t cap; } fcfs;

static void *fcfs_create(const gms_dram_sched_env *env)
{
    fcfs *s = gms_xcalloc(1, sizeof *s);
    s->cap = env->queue_size;
    return s;
}
static void fcfs_destroy(void *self) { free(self); }
static int fcfs_full(const void *self, int is_write)
{
    const fcfs *s = self;
    return s->cap && s->q.n >= s->cap;
}
static void fcfs_add(void *self, gms_dram_req *r) { gms_dram_rlist_append(&((fcfs *)self)->q, r); }
static gms_dram_req *fcfs_pick(void *self, uint32_t bank, uint32_t open_row, int *row_hit)
{
    fcfs *s = self;
    gms_dram_req *r = s->q.head;
    if (!r || r->bank != bank) return NULL;
    gms_dram_rlist_remove(&s->q, r);
    *row_hit = r->row == open_row;
    return r;
}
static uint32_t fcfs_pending(const void *self) { return ((const fcfs *)self)->q.n; }

const gms_dram_sched_ops gms_dram_sched_fcfs = {
    .name = "fcfs", .summary = "first come first served, in-order (GPGPU-Sim FIFO, -gpgpu_dram_scheduler 0)",
    .create = fcfs_create, .destroy = fcfs_destroy, .full = fcfs_full, .add = fcfs_add,
    .pick = fcfs_pick, .pending = fcfs_pending,
};
