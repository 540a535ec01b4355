/* Register-bank conflicts of GPGPU-Sim 4.x's sub-core operand collector (Accel-Sim's
 * gpgpu-sim_distribution, shader.cc / shader.h), -gms_subcore_reg_banks gpgpusim:
 *
 *  - register_bank: a register's bank is ((register + 1) + warp) modulo the banks per
 *    scheduler (-gpgpu_num_reg_banks / schedulers), within the issuing scheduler's share
 *    (sched * banks_per_sched + that). The + 1: Accel-Sim's trace front end numbers R0 as 1,
 *    RZ (R255) as 256; the warp is always added (bank_warp_shift = log2(32) is never 0, so
 *    -gpgpu_reg_bank_use_warp_id is read nowhere). So the schedulers' banks are disjoint:
 *    sub-cores never contend with each other.
 *  - collector_unit_t::allocate + arbiter_t::add_read_requests: a unit given an instruction
 *    queues one read per source operand (RZ too, duplicates too) at the back of its bank's
 *    FIFO.
 *  - arbiter_t::allocate_reads (4.x): the wavefront allocator with the one-read-per-unit check
 *    commented out ("allow OC to read multiple reg banks at the same cycle"): every bank with
 *    a queued read that is not allocated for a write grants its FRONT read, so a unit may
 *    collect several operands (from different banks) in one step; a unit whose last read is
 *    granted may dispatch in the next step.
 *  - opndcoll_rfu_t::writeback (the ALU results at the start of a cycle, then the LDST unit's
 *    write-back in execute): the destination registers' banks, in operand order, are
 *    allocated for a write if free, stopping at the first that is not (it returns false);
 *    a write-allocated bank grants no read in the cycle's first collector step
 *    (process_banks then frees every bank). The ALU path ignores the false (the result is
 *    written anyway); the LDST unit keeps its m_next_wb and retries the next cycle.
 *
 * One gms_scb per SM. Banks are numbered globally (sched * per_sched + local), at most 64.
 * Units are numbered per scheduler (0 .. units per scheduler - 1), as in sm.c's oc_sched. */
#ifndef GMS_CORE_SUBCORE_BANKS_H
#define GMS_CORE_SUBCORE_BANKS_H
#include <stdint.h>
#include "frontend/inst.h"

#define GMS_SCB_MAX_BANKS 64   /* a 64-bit mask */
#define GMS_SCB_MAX_CU 8       /* units per scheduler (sm_internal.h OC_MAX_CU) */
#define GMS_SCB_MAX_SCHED 16
#define GMS_SCB_READS 5        /* reads per instruction: GMS_MAX_SRC sources, or fewer plus an RZ */
#define GMS_SCB_QCAP 64         /* a power of two >= GMS_SCB_MAX_CU * GMS_SCB_READS (40) */
#define GMS_SCB_RING 512       /* write marks ahead of now (GPGPU-Sim's MAX_ALU_LATENCY) */

typedef struct gms_scb {
    uint32_t per_sched;                    /* banks per scheduler */
    uint32_t pow2_mask;                    /* per_sched - 1 if a power of two, else 0 (host speed) */
    uint64_t nonempty;                     /* bit b: bank b has a queued read */
    uint32_t reading;                      /* units with reads left (all schedulers) */
    uint8_t rq_head[GMS_SCB_MAX_BANKS], rq_n[GMS_SCB_MAX_BANKS];
    uint8_t left[GMS_SCB_MAX_SCHED][GMS_SCB_MAX_CU];   /* reads not granted yet, per unit */
    uint8_t rq[GMS_SCB_MAX_BANKS][GMS_SCB_QCAP];       /* FIFO of units (within the bank's scheduler) */
    /* banks written in a cycle (bit = global bank), by cycle modulo GMS_SCB_RING; wb_at: the
     * cycle the slot counts */
    uint64_t wb_at[GMS_SCB_RING], wb_mask[GMS_SCB_RING];
    uint64_t wait_steps;                   /* statistic: unit-steps ending with reads left */
    uint64_t lsu_wb_conflicts;             /* statistic: LDST write-backs refused */
} gms_scb;

/* nbanks: -gpgpu_num_reg_banks, a multiple of nsched with nbanks <= GMS_SCB_MAX_BANKS
 * (core_options.c checks) */
void gms_scb_init(gms_scb *b, uint32_t nbanks, uint32_t nsched);
/* register_bank for scheduler sched's warp (its slot in the SM); reg GMS_REG_NONE is RZ */
static inline uint32_t gms_scb_bank(const gms_scb *b, uint32_t sched, uint32_t warp, uint32_t reg)
{
    uint32_t r = reg + 1u + warp;
    return sched * b->per_sched + (b->pow2_mask ? r & b->pow2_mask : r % b->per_sched);
}
/* allocate + add_read_requests: scheduler sched's unit cu takes an instruction with sources
 * src (GMS_REG_NONE: none) and rz (its GMS_INST_SRC_RZ flag); returns the reads queued (0:
 * none, the unit is ready at once) */
uint32_t gms_scb_queue(gms_scb *b, uint32_t sched, uint32_t cu, uint32_t warp, const uint8_t src[GMS_MAX_SRC], int rz);
/* the ALU write-back of `dst` (scheduler sched's warp) at cycle wb, marked at now, when the
 * function unit takes the instruction (one GMS_SCB_RING or more ahead: not marked) */
void gms_scb_alu_write(gms_scb *b, uint64_t now, uint64_t wb, uint32_t sched, uint32_t warp,
                       const uint8_t dst[GMS_MAX_DST]);
/* the LDST unit's write-back at now: 1 if done (its banks taken for the cycle), 0 if one of
 * its banks was already taken this cycle (retried next cycle). *done (0 at the first try):
 * bit i, destination i is written; those before the refused one are written now and skipped
 * by the retry (writeback sets their arch_reg.dst to -1), so two destinations on one bank
 * take two cycles. */
int gms_scb_lsu_write(gms_scb *b, uint64_t now, uint32_t sched, uint32_t warp, const uint8_t dst[GMS_MAX_DST],
                      uint8_t *done);
/* allocate_reads in a collector step of cycle now (first: the cycle's first step, the only
 * one that sees the cycle's writes): done[s] (zeroed by the caller) gets bit u for every unit
 * u of scheduler s whose last read was granted (the caller makes those units ready). Returns
 * the schedulers (bit s) with such units. */
uint32_t gms_scb_reads(gms_scb *b, uint64_t now, int first, uint8_t done[GMS_SCB_MAX_SCHED]);

#endif
