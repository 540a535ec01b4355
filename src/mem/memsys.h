/* What lies below the interconnect: the memory sub-partitions (L2 slice + DRAM channel),
 * or a fixed-latency stand-in (-gpgpu_perfect_mem 1). The interconnect talks to it only
 * through this table, so either plugs in.
 *
 * Requests: the icnt asks can_accept(subpart) and then push(subpart, req) (back-pressure:
 * the L2 input queue is bounded). Replies: the memory side calls reply(ud, subpart, req);
 * it returns 0 if the reply network cannot take it now, in which case the memory side keeps
 * the reply and tries again on a later cycle (and stays active meanwhile).
 * Writes: an L1 write-through write gets a reply (write ack) when the L2 has taken it,
 * as in GPGPU-Sim. Write-backs from the L2 to DRAM get no reply. */
#ifndef GMS_MEM_MEMSYS_H
#define GMS_MEM_MEMSYS_H
#include <stdint.h>
#include <stdio.h>
#include "mem/mreq.h"
#include "stats/stats.h"
#include "engine/engine.h"
#include "util/err.h"

struct gms_params;
typedef int (*gms_reply_fn)(void *ud, uint32_t subpart, gms_mreq *reply);

typedef struct gms_memsys {
    void *self;
    uint32_t n_subparts;
    uint32_t (*subpart_of)(void *self, uint64_t addr);
    int (*can_accept)(void *self, uint32_t subpart);
    void (*push)(void *self, uint32_t subpart, gms_mreq *req);
    void (*report)(void *self, gms_stats *out);
    /* optional (NULL: none): requests the DRAM schedulers hold and will not serve unless more
     * arrive (gms_dram_chan_stranded), summed over the channels */
    uint64_t (*stranded)(void *self);
    /* optional (NULL: none), host speed (-gms_host_pipeline): stage(self, 1) makes push only
     * record the request (and wake its slice); hand_over(self) then does the recorded pushes,
     * in order, before the memory side's next edge, on the thread that ticks it */
    void (*stage)(void *self, int on);
    void (*hand_over)(void *self);
    /* optional (NULL: none): a kernel runs (on) or none does (off) from this instant on; the
     * DRAM's per-cycle counters (n_cmd, bw_util, ...) count kernel time only, as GPGPU-Sim's */
    void (*kernel_time)(void *self, int on);
    /* optional (NULL: no L2): -gpgpu_perf_sim_memcpy, a host-to-device copy of `bytes` at addr
     * fills the L2 (low32: of each address's low 32 bits, as GPGPU-Sim); call it only while the
     * memory side runs on the caller's thread (no kernel running) */
    void (*memcpy_fill)(void *self, uint64_t addr, uint64_t bytes, int low32);
    /* optional (NULL: no L2): -gpgpu_flush_l2_cache, every L2 slice drops its modified lines
     * (gms_cache_drop_modified); returns the lines dropped. Only while the memory side runs on
     * the caller's thread (no kernel running) */
    uint64_t (*flush_l2)(void *self);
    /* optional (NULL: no L2): print every L2 slice's MSHR table in use (gms_cache_mshr_dump), debug;
     * only while the memory side runs on the caller's thread */
    void (*dump_mshrs)(void *self, FILE *out);
    void (*free)(void *self);
} gms_memsys;

/* The real memory partitions (src/mem/memsys.c). Registers its components with the engine
 * (L2 slices in the L2 domain, DRAM channels in the DRAM domain). */
int gms_memsys_create(gms_memsys *out, const struct gms_params *p, gms_engine *e, gms_mreq_pool *pool,
                      gms_reply_fn reply, void *reply_ud, gms_error *err);
/* The fixed-latency stand-in (src/mem/fixed_mem.c). */
int gms_fixed_mem_create(gms_memsys *out, const struct gms_params *p, gms_engine *e, gms_mreq_pool *pool,
                         gms_reply_fn reply, void *reply_ud, gms_error *err);

#endif
