/* One SM (streaming multiprocessor): thread-block slots with occupancy limits, warps with a
 * register scoreboard, warp schedulers (LRR, GTO, two-level), ALU/SFU/DP/tensor pipes with
 * latency and initiation interval, barriers, and the in-order load/store unit with its
 * coalescer, shared memory (bank conflicts), L1D access pipeline, bypass path and miss queue.
 * It is an engine component of the core domain that ticks only while it has work. */
#ifndef GMS_CORE_SM_H
#define GMS_CORE_SM_H
#include "core/gpu.h"
#include "mem/cache.h"

/* the coalescer, exposed for tests: groups the active lanes' accesses of one warp memory
 * instruction into transactions. sector = 1: one transaction per touched 32 B sector; 0: one
 * per touched segment (32 B for 1-byte accesses, 64 B for 2-byte, 128 B otherwise), reduced
 * to the half or chunk it uses. Returns the number of transactions. addr: the (reduced)
 * transaction's address; sector_mask: the 32 B chunks of its 128 B line it touches;
 * nbytes_sectors: its size / 32; bytes: distinct bytes the active lanes touch in it (what a
 * store writes) */
typedef struct gms_txn { uint64_t addr; uint8_t sector_mask; uint8_t nbytes_sectors; uint16_t bytes; } gms_txn;
int gms_coalesce(const uint64_t addrs[32], uint32_t mask, uint32_t width, int sector, gms_txn out[128]);
int gms_coalesce_words(const uint64_t *addrs, int n, uint32_t acc_width, uint32_t inst_width, int sector,
                       gms_txn out[128]);
/* the same for the contiguous bytes [lo, hi] (hi - lo < 4096): a unit-stride warp access */
int gms_coalesce_range(uint64_t lo, uint64_t hi, uint32_t width, int sector, gms_txn out[128]);
/* the segment GPGPU-Sim coalesces a `width`-byte load or store into (32, 64 or 128 B) */
uint32_t gms_coalesce_segment(uint32_t width, int sector);
/* reduce_and_send: the transaction of segment `seg` (`segment` bytes) whose lanes touch the
 * 32 B chunks `chunks` of its line: a 128 B segment using one half shrinks to 64 B, a 64 B one
 * using one chunk to 32 B */
gms_txn gms_segment_reduce(uint64_t seg, uint32_t segment, uint8_t chunks, uint32_t nbytes);
/* global atomics (coalesce_atomic.c): one request per segment and per set of lanes whose
 * bytes do not overlap, in GPGPU-Sim's access-queue order (ascending segment, then the order
 * the requests were opened; the LSU issues from the back). sector_mask = the 32 B chunks of
 * its line a request touches, nbytes_sectors = its size / 32 (a 128 B or 64 B segment shrinks
 * to the half or chunk it uses), bytes = the distinct bytes its lanes touch. */
int gms_coalesce_atomic(const uint64_t addrs[32], uint32_t mask, uint32_t width, uint32_t segment, gms_txn out[128]);
/* the segment size GPGPU-Sim coalesces an atomic of `width` bytes with (32, 64 or 128) */
uint32_t gms_atomic_segment(uint32_t coalesce_arch, uint32_t width);
/* put a warp instruction's transactions in GPGPU-Sim's issue order: descending address */
void gms_txn_issue_order(gms_txn *t, int n);
/* shared-memory bank conflict degree: cycles the access needs (1 = conflict-free) */
uint32_t gms_shmem_conflict_degree(const uint64_t addrs[32], uint32_t mask, uint32_t width, uint32_t banks);
/* occupancy: thread blocks of this shape that fit on one SM */
uint32_t gms_occupancy(const gms_core_params *c, uint32_t threads_per_block, uint32_t regs_per_thread,
                       uint32_t shmem_per_block);

#endif
