/* One memory sub-partition's L2 side (GPGPU-Sim memory_sub_partition + l2_cache): ROP delay,
 * input queue (pluggable, l2q.h), the L2 cache slice (cache.h), its miss queue, and the
 * queues to and from the DRAM channel and the interconnect.
 *
 * Per L2 cycle (gms_l2_slice_cycle), in GPGPU-Sim's cache_cycle order, preceded by the reply
 * to the interconnect (GPGPU-Sim pops it in the icnt cycle, before cache_cycle; memsys.c makes
 * one step 0 for every interconnect edge: "The L2->icnt pops" there):
 *   0. head of L2->icnt queue -> reply callback (kept if refused)
 *   1. one filled request (MSHR waiters) -> L2->icnt queue (fetch-on-write: the allocate
 *      read and the write behind it in one turn, as GPGPU-Sim replies with original_wr_mf)
 *   2. head of DRAM->L2 queue: a read fills the cache (fill port), a write ack goes up
 *   3. head of the cache miss queue -> L2->DRAM queue
 *   4. input queue -> cache access, if L2->DRAM and L2->icnt have room and the data port
 *      is free; a hit (or a write the cache absorbs) replies now, a miss waits for its fill
 *   5. one request whose ROP delay is over -> input queue
 * Sector caches: a request covering several 32 B sectors is split into one child per
 * sector at push (GPGPU-Sim breakdown_request_to_sector_requests); the parent goes back up
 * as the reply once every child is done. While split, the parent's t_ready holds the number
 * of children still out, and each child has inst = parent and sm = GMS_L2_CHILD_SM.
 * Times: `now` is the core cycle count (GPGPU-Sim runs ROP and cache timestamps on it). */
#ifndef GMS_MEM_L2_SLICE_H
#define GMS_MEM_L2_SLICE_H
#include <stdint.h>
#include <stdio.h>
#include "mem/addrdec.h"
#include "mem/cache.h"
#include "mem/l2q.h"
#include "mem/memsys.h"

#define GMS_L2_CHILD_SM 0xFFFEu

typedef struct gms_l2_slice_cfg {
    uint32_t id;                     /* global sub-partition id */
    const gms_cache_config *cache;   /* NULL or disabled: no L2, requests go to DRAM */
    uint32_t rop_latency;            /* core cycles */
    uint32_t q_icnt_l2, q_l2_dram, q_dram_l2, q_l2_icnt;   /* 0 = unbounded */
    const gms_l2q_ops *inq;
    gms_l2q_params inq_params;       /* the reordering members' sizes (zero: defaults) */
    int racb;                        /* RACB: a refused read goes to DRAM around the cache */
    int gate_block;                  /* no L2 access while L2->DRAM is full (GPGPU-Sim); else a
                                      * miss needs room in the cache's own miss queue only */
    const gms_addrdec *dec;          /* set index on the partition address */
    gms_reply_fn reply;
    void *reply_ud;
} gms_l2_slice_cfg;

typedef struct gms_l2_slice gms_l2_slice;

gms_l2_slice *gms_l2_slice_new(const gms_l2_slice_cfg *cfg, gms_mreq_pool *pool);
void gms_l2_slice_free(gms_l2_slice *s);

int gms_l2_slice_can_accept(const gms_l2_slice *s);
void gms_l2_slice_push(gms_l2_slice *s, gms_mreq *r, uint64_t now);
/* one L2 cycle: step 0 (gms_l2_slice_reply_out), then steps 1-5 (gms_l2_slice_cache_cycle).
 * The memory partitions call the two apart: GPGPU-Sim pops the L2->icnt queue on interconnect
 * edges, before the L2's cache_cycle when the two clocks share an edge (memsys.c) */
void gms_l2_slice_cycle(gms_l2_slice *s, uint64_t now);
void gms_l2_slice_cache_cycle(gms_l2_slice *s, uint64_t now);
/* offer the head of the L2->icnt queue to the interconnect: 1 if it left (kept if refused) */
int gms_l2_slice_reply_out(gms_l2_slice *s);
int gms_l2_slice_has_reply(const gms_l2_slice *s);
/* 0: has work for the next cycle; UINT64_MAX: nothing at all; else the core cycle at which
 * the ROP stage releases its next request */
uint64_t gms_l2_slice_next(const gms_l2_slice *s);
/* Host speed, when gms_l2_slice_next says 0: 0 if the slice may act next cycle; else it
 * cannot act before the channel takes from its full L2->DRAM queue or a request or reply
 * arrives, nor before the returned core cycle at which the ROP stage releases its next
 * request into an input queue with room (UINT64_MAX: no such request). */
uint64_t gms_l2_slice_blocked_until(const gms_l2_slice *s);
/* the to-DRAM head-of-line stall a cycle of this state counts (held requests, L2->DRAM full),
 * and the stalls of n cycles the slice slept through in that state (the sleep skips ticks
 * whose counts must still be made: statistics do not depend on -gms_sleep_blocked) */
int gms_l2_slice_stalls_to_dram(const gms_l2_slice *s);
/* the slice slept n cycles blocked (nothing moved): count what n ticks would have, the
 * to-DRAM stalls if to_dram_stalls, and the input queue's own (its idle hook) */
void gms_l2_slice_slept(gms_l2_slice *s, uint64_t n, int to_dram_stalls);

/* DRAM side (called by the channel glue) */
gms_mreq *gms_l2_slice_to_dram_top(const gms_l2_slice *s);
gms_mreq *gms_l2_slice_to_dram_pop(gms_l2_slice *s);
int gms_l2_slice_from_dram_full(const gms_l2_slice *s);
void gms_l2_slice_from_dram_push(gms_l2_slice *s, gms_mreq *r);

gms_cache *gms_l2_slice_cache(const gms_l2_slice *s);
uint64_t gms_l2_slice_replies(const gms_l2_slice *s);   /* 32 B reply units (L2_BW) */
/* add the input side's counters (stalls, occupancy, the member's own) to acc */
void gms_l2_slice_inq_stats(const gms_l2_slice *s, gms_l2q_stats *acc);
/* integrate the input queue's occupancy up to core cycle now (before the statistics are read:
 * a slice that slept or idled since its last tick still held its requests until now) */
void gms_l2_slice_settle_occupancy(gms_l2_slice *s, uint64_t now);
void gms_l2_slice_dump(const gms_l2_slice *s, FILE *out);

#endif
