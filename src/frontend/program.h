/* A workload is a host program: a stream of commands (allocate, copy, prefetch, launch,
 * synchronize) produced on demand. The simulator calls the source's next() whenever every
 * command pushed so far has completed; next() pushes more commands (returning 1) or says
 * the program is over (returning 0). Host decisions that depend on kernel results (BFS's
 * "while changed" loop) therefore see the results of the kernels before them.
 * Kernels are launched as gms_kernel_src: blocks are filled lazily at dispatch. */
#ifndef GMS_FRONTEND_PROGRAM_H
#define GMS_FRONTEND_PROGRAM_H
#include <stdint.h>
#include "frontend/inst.h"
#include "util/err.h"

typedef enum {
    GMS_CMD_ALLOC = 1,   /* addr,bytes,managed,name: recorded by gms_prog_alloc */
    GMS_CMD_COPY_H2D,    /* addr,bytes: explicit cudaMemcpy host->device */
    GMS_CMD_COPY_D2H,
    GMS_CMD_PREFETCH,    /* addr,bytes: cudaMemPrefetchAsync to the device */
    GMS_CMD_LAUNCH,      /* kernel */
    GMS_CMD_SYNC,        /* cudaDeviceSynchronize */
    GMS_CMD_FREE,
} gms_cmd_kind;

typedef struct gms_kernel_src {
    char name[256];
    gms_dim3 grid, block;
    uint32_t shmem_bytes;      /* dynamic + static shared memory per block */
    uint32_t regs_per_thread;
    int stream;
    /* the instructions are an Accel-Sim trace's: a warp's next instruction is always the one
     * it executes (Accel-Sim's fetch follows the trace, so no wrong path after a branch) */
    int traced;
    /* Fill the warps of block number `block_linear` (launch order: x fastest, then y, z).
     * Called once per block, in increasing block_linear order, when the block is dispatched.
     * Built-in workloads compute the block's real results here. Returns 0, or -1 with err. */
    int (*fill_block)(void *self, uint64_t block_linear, gms_block_trace *out, gms_error *err);
    /* Optional (may be NULL): resumable warps. fill_block may leave a warp's stream
     * unfinished (warps[w].more = 1, its state in warps[w].gen). Once the warp has consumed
     * its buffer, the consumer empties the buffer (n = naddr = 0) and calls this, which
     * appends the next instructions and returns 1 if the stream goes on after them, or 0 if
     * it is over (possibly after appending its last instructions), or -1 with err. The
     * consumer then ends the stream (gms_warp_trace_end_stream frees gen). A warp whose buffer ends with a BAR is resumed only
     * when the barrier is released, so a generator may read, after a BAR, shared results
     * the block's other warps computed before it. See frontend/warp_refill.h. */
    int (*fill_warp_more)(void *self, uint64_t block_linear, uint32_t warp, gms_warp_trace *wt, gms_error *err);
    /* called once when the kernel has completed (may be NULL); frees self */
    void (*release)(void *self);
    /* Optional (may be NULL): the text of a record's opcode_id, for messages */
    const char *(*opcode_text)(void *self, uint16_t id);
    void *self;
} gms_kernel_src;

#define GMS_WARP_CHUNK 1024u

typedef struct gms_cmd {
    gms_cmd_kind kind;
    uint64_t addr, bytes;
    int managed;               /* ALLOC: 1 = cudaMallocManaged */
    int stream;
    char name[64];             /* ALLOC: allocation name (for reports and page plots) */
    gms_kernel_src kernel;     /* LAUNCH */
} gms_cmd;

typedef struct gms_alloc_rec { uint64_t addr, bytes; int managed; char name[64]; } gms_alloc_rec;

typedef struct gms_program {
    gms_cmd *q;                /* pending commands, consumed from head */
    size_t head, n, cap;
    uint64_t next_addr;        /* bump allocator: 2 MiB-aligned, from 0x7f0000000000 */
    int uvm;                   /* 1: gms_prog_alloc allocates managed memory, copies dropped */
    int prefetch;              /* 1: prefetch every managed allocation before each launch */
    uint32_t chunk;            /* warp instructions a resumable warp generates per refill
                                  (0: GMS_WARP_CHUNK; UINT32_MAX: whole streams at once) */
    gms_alloc_rec *allocs;
    size_t nallocs, cap_allocs;
    void *shadow;              /* a built-in workload's shadow memory (workloads/wl_shadow.h) in
                                  functional verify runs; NULL otherwise (owned by the runner) */
} gms_program;

void gms_program_init(gms_program *p);
void gms_program_free(gms_program *p);
/* allocate `bytes` (device memory, or managed when p->uvm); records an ALLOC command */
uint64_t gms_prog_alloc(gms_program *p, uint64_t bytes, const char *name);
/* allocate with an explicit kind regardless of p->uvm */
uint64_t gms_prog_alloc_kind(gms_program *p, uint64_t bytes, int managed, const char *name);
void gms_prog_copy_h2d(gms_program *p, uint64_t addr, uint64_t bytes); /* dropped when uvm */
void gms_prog_copy_d2h(gms_program *p, uint64_t addr, uint64_t bytes); /* dropped when uvm */
void gms_prog_prefetch(gms_program *p, uint64_t addr, uint64_t bytes);
void gms_prog_launch(gms_program *p, const gms_kernel_src *k);         /* adds prefetches first if p->prefetch */
void gms_prog_sync(gms_program *p);
/* pop next command; returns NULL when the queue is empty */
gms_cmd *gms_prog_pop(gms_program *p);

typedef struct gms_program_src {
    int (*next)(void *self, gms_program *prog, gms_error *err); /* 1 pushed, 0 done, -1 error */
    void (*destroy)(void *self);
    void *self;
} gms_program_src;

#endif
