/* The simulation object (gms_sim): SMs, interconnect, memory side, UVM, the running
 * program and its kernels. Internal to the library. */
#ifndef GMS_CORE_GPU_H
#define GMS_CORE_GPU_H
#include <stdint.h>
#include "config/params.h"
#include "engine/engine.h"
#include "frontend/program.h"
#include "mem/icnt.h"
#include "mem/memsys.h"
#include "mem/mreq.h"
#include "mem/xbar.h"
#include "stats/memlat.h"
#include "stats/stats.h"
#include "util/rng.h"

typedef struct gms_sm gms_sm;
struct gms_classifier;
struct gms_uvm;
struct gms_cke;
struct gms_cke_sm;

/* a launched kernel */
typedef struct gms_kernel {
    gms_kernel_src src;
    uint32_t uid;
    uint64_t nblocks, next_block, blocks_done;
    uint32_t threads_per_block, warps_per_block;
    uint32_t regs_per_block, shmem_per_block;
    uint32_t max_blocks_per_sm;       /* occupancy limit */
    uint32_t max_cta;                 /* GPGPU-Sim's max_cta: the occupancy, capped at ceil(grid / SMs)
                                       * (gms_local_max_cta); the local memory map and the carve-out */
    uint32_t running_blocks;
    uint64_t start_cycle;             /* core cycle of launch (gms_kernel_cycles) */
    uint64_t dispatch_from;           /* launch latency: no block before this cycle */
    int active;
    uint32_t slot;                    /* its place in GPGPU-Sim's m_running_kernels (select_kernel's
                                       * round robin): the lowest free at launch; UINT32_MAX none */
    uint64_t par_safe_until;          /* host threads: no block of it can end the kernel before this core cycle */
    /* concurrent kernels (src/cke): its application, and the SMs [sm_lo, sm_hi) that may take
     * its blocks (sm_hi 0: every SM) */
    uint8_t cke_app;
    uint32_t sm_lo, sm_hi;
    struct gms_kernel *next;          /* list of running kernels */
} gms_kernel;

typedef struct gms_counters {
    uint64_t warp_insts, thread_insts;
    uint64_t mem_lat_sum, mem_lat_n, mem_lat_max;   /* replies from the memory side */
    uint64_t icnt2mem_sum, icnt2mem_n, icnt2sh_sum;
    /* GPGPU-Sim's gpgpu_n_stall_shd_mem: LSU cycles in which the instruction in it could not
     * send all its remaining accesses; of them, the gpgpu_stall_shd_mem[...] breakdown */
    uint64_t stall_shd_mem;
    uint64_t stall_gl_bank, stall_gl_coal;   /* [gl_mem][resource_stall], [gl_mem][coal_stall] */
    uint64_t stall_icnt_rc;                  /* GPGPU-Sim's ICNT_RC_FAIL (not printed there): a bypassed
                                              * access found the interconnect's input full */
    uint64_t shmem_bank_conflict_cycles;     /* [s_mem][bk_conf] */
    /* active threads of memory instructions (GPGPU-Sim's mem_instruction_stats) */
    uint64_t n_load_insn, n_store_insn, n_shmem_insn, n_atomic_insn;
    /* requests the SM injected into the interconnect, by access type (icnt_inject_request_packet) */
    uint64_t n_mem_read_global, n_mem_write_global, n_mem_read_local, n_mem_write_local;
    uint64_t n_bypass_reads;
    uint64_t barrier_waits;
    uint64_t blocks_done;
} gms_counters;

typedef struct gms_gpu {
    const gms_params *p;
    gms_engine *eng;
    gms_mreq_pool pool;
    gms_rng rng;
    struct gms_sm **sms;
    uint32_t n_sm;
    /* host memory: block instruction buffers of SM slots left idle when a kernel ended, for
     * slots that have none (a later kernel on other SMs than the first's) */
    gms_block_trace *bt_pool;
    uint32_t bt_pool_n, bt_pool_cap;
    gms_icnt icnt;                    /* SMs <-> memory sub-partitions (mem/icnt.h) */
    gms_memsys mem;
    struct gms_uvm *uvm;
    int uvm_on;
    gms_counters ctr;
    /* the program */
    gms_program prog;
    gms_program_src src;
    void *wl_state;
    const void *wl_ops;               /* gms_workload_ops* when a built-in workload */
    int program_done;
    int cmd_blocked;                  /* waiting for a copy/prefetch/sync */
    int pending_async;                /* copies/prefetches in flight */
    int copies_instant;               /* -gms_trace_memcpy instant on a trace: copies take no time */
    uint64_t copies_instant_done;     /* copies applied so (gms_trace_copies_instant) */
    gms_kernel *kernels;              /* running (launched, not finished) */
    uint32_t n_running;
    uint32_t next_uid;
    uint32_t dispatch_rr;            /* the cluster after the last that took a block */
    uint32_t *cta_next_core;         /* per cluster: its core that took the last block */
    uint8_t *cluster_took;           /* per cluster: took a block this cycle (dispatch's scratch) */
    /* with several SMs a cluster: per cluster, the replies its SMs hold (GPGPU-Sim's one
     * ejection FIFO of the cluster plus each core's LDST response FIFO; NULL with one SM) */
    uint32_t *cl_replies;
    /* GPGPU-Sim's kernel selection (dispatch without src/cke): the running kernels by slot
     * (m_running_kernels, -gpgpu_max_concurrent_kernel of them), the slot select_kernel handed out
     * last (m_last_issued_kernel) and each SM's kernel (shader_core_ctx::m_kernel: it keeps taking
     * that kernel's blocks while it has some, and chooses again only once idle) */
    gms_kernel **kslot;
    uint32_t last_issued_slot;
    gms_kernel **core_kernel;
    int l2_flushed;                  /* -gpgpu_flush_l2_cache: flushed since the last launch */
    uint64_t l2_flushed_lines;       /* modified L2 lines it dropped (gms_l2_flushed_lines) */
    int mshr_dumped;                 /* -gms_mshr_dump_at: done */
    uint64_t blocks_issued;          /* thread blocks handed out over the run (-gpgpu_max_cta) */
    gms_component *gpu_comp;
    gms_component *memlat_comp;      /* folds the latency windows (gpu.c memlat_tick) */
    uint64_t kernel_cycles_total;     /* sum of kernel durations (gpu_tot_sim_cycle) */
    uint64_t busy_since;              /* first cycle with a kernel running in the current busy period */
    /* GPGPU-Sim's update_stats, at every kernel's end after its statistics: gpu_sim_cycle,
     * gpu_sim_insn count from there (kernel time, thread and warp instructions then), and the
     * latency windows (memlat) start again */
    uint64_t upd_ktime, upd_tinsts, upd_winsts;
    gms_memlat memlat;                /* averagemflatency's folded windows (stats/memlat.h) */
    /* the windows' wake-ups stopped after a long time without activity (gpu.c memlat_tick), and
     * the last activity seen (a sum of counters) and its core cycle */
    int memlat_off;
    uint64_t memlat_act, memlat_act_cycle;
    gms_run_stats stats;
    gms_error *err;                   /* where asynchronous errors go */
    int failed;
    int spec_warned;                  /* a missing specialised unit was named (sm.c) */
    /* access-pattern classifier (always on) and an optional observer of every global memory
     * instruction's lane addresses and of every allocation (page log) */
    struct gms_classifier *classifier;
    void (*observe)(void *ud, const uint64_t addrs[32], uint32_t mask);
    void (*observe_alloc)(void *ud, uint64_t addr, uint64_t bytes, const char *name);
    void *observe_ud;
    gms_progress_fn progress;
    void *progress_ud;
    uint64_t progress_next_ms;
    /* -gms_host_threads: per-thread counter shards, summed into ctr after each parallel phase */
    unsigned host_threads;
    int host_pipeline;               /* -gms_host_pipeline in use */
    gms_counters *par_ctr;
    struct gms_cke *cke;             /* a multiprogrammed run (workload cke, src/cke) */
} gms_gpu;

/* the counters an SM tick adds to: its thread's shard inside a parallel phase */
extern _Thread_local gms_counters *gms_par_ctr_tls;

/* sm.c */
struct gms_sm *gms_sm_new(gms_gpu *g, uint32_t id);
void gms_sm_free(struct gms_sm *s);
int gms_sm_can_take(const struct gms_sm *s, const gms_kernel *k);
int gms_sm_add_block(struct gms_sm *s, gms_kernel *k, uint64_t block, gms_error *err);
int gms_sm_accept_reply(struct gms_sm *s, gms_mreq *r);    /* from the reply network */
void gms_sm_translated(struct gms_sm *s, gms_mreq *r);     /* from the UVM */
void gms_sm_flush_l1(struct gms_sm *s);
/* a kernel is launched on an idle GPU: the SM's policies that keep per-kernel state hear of it */
void gms_sm_kernel_begin(struct gms_sm *s);
/* at a kernel's end (serial): the buffers of the SM's idle block slots into g's pool */
void gms_sm_pool_idle_buffers(struct gms_sm *s, gms_gpu *g);
/* block slots holding instruction buffers (tests) */
uint32_t gms_sm_block_buffers(const struct gms_sm *s);
int gms_sm_set_l1_assoc(struct gms_sm *s, uint32_t assoc);
int gms_sm_set_l1_on_miss(struct gms_sm *s, int on_miss);
void gms_sm_flush_l1_if_idle(struct gms_sm *s);
int gms_sm_idle(const struct gms_sm *s);
/* the SM's engine component */
gms_component *gms_sm_component(const struct gms_sm *s);
/* the SM's L1D (NULL: none) */
struct gms_cache *gms_sm_l1(const struct gms_sm *s);
void gms_sm_report(struct gms_sm *const *sms, uint32_t n, gms_stats *out);
/* SMs asleep through blocked ticks count them up to now (before any statistic is read) */
void gms_sm_settle_all(struct gms_sm *const *sms, uint32_t n);
/* does an SM sleep where it would tick with -gms_sleep_blocked 0 (the watchdog's probe)? */
int gms_sm_any_asleep(struct gms_sm *const *sms, uint32_t n);
/* the most instructions a warp of kernel k on this SM has still to issue (host threads) */
uint64_t gms_sm_max_remaining(const struct gms_sm *s, const gms_kernel *k);

/* gpu.c: core edges whose SMs ticked on several host threads (-gms_host_threads; tests) */
uint64_t gms_sim_parallel_edges(const struct gms_sim *s);
/* gpu.c: core edges with the memory side ahead on a second host thread (-gms_host_pipeline; tests) */
uint64_t gms_sim_pipelined_edges(const struct gms_sim *s);
/* gpu.c: block instruction buffers held (SM slots with buffers plus the idle pool; tests) */
uint32_t gms_sim_block_buffers(const struct gms_sim *s);
/* gpu.c: launch a kernel now (the multiprogram driver, src/cke); NULL with g->err set */
gms_kernel *gms_gpu_launch(gms_gpu *g, const gms_kernel_src *src);
/* sm.c: the SM's concurrent-kernel state (src/cke/cke.h) */
void gms_sm_set_cke(struct gms_sm *s, struct gms_cke_sm *cs);
/* gpu.c: called by an SM when a block finished */
void gms_gpu_block_done(gms_gpu *g, gms_kernel *k);

#endif
