/* GPGPU-Sim 4.x's register banks in the sub-core operand collector: see subcore_banks.h. */
#include "core/subcore_banks.h"
#include <string.h>

void gms_scb_init(gms_scb *b, uint32_t nbanks, uint32_t nsched)
{
    memset(b, 0, sizeof *b);
    b->per_sched = nbanks / (nsched ? nsched : 1);
    if (!b->per_sched) b->per_sched = 1;
    b->pow2_mask = (b->per_sched & (b->per_sched - 1)) ? 0 : b->per_sched - 1;
    if (b->per_sched == 1) b->pow2_mask = 0;   /* (r % 1: the modulo path gives 0 too) */
    for (uint32_t i = 0; i < GMS_SCB_RING; i++) b->wb_at[i] = UINT64_MAX;
}

static void push_read(gms_scb *b, uint32_t bank, uint32_t cu)
{
    b->rq[bank][(b->rq_head[bank] + b->rq_n[bank]) & (GMS_SCB_QCAP - 1)] = (uint8_t)cu;
    b->rq_n[bank]++;
    b->nonempty |= 1ULL << bank;
}

/* The reads are those of Accel-Sim's arch_reg.src: every listed source, RZ included. Our
 * instruction keeps the first GMS_MAX_SRC slots, RZ as an empty slot flagged GMS_INST_SRC_RZ
 * (trace_parse.c): an empty slot before the last register in use was RZ; with none such the
 * flag stands for one RZ after them (trace_write.c put_srcs_rz writes that back). So a
 * record with several RZ after its last register, or more than GMS_MAX_SRC sources, reads
 * fewer than Accel-Sim's (docs/validation.md). */
uint32_t gms_scb_queue(gms_scb *b, uint32_t sched, uint32_t cu, uint32_t warp, const uint8_t src[GMS_MAX_SRC], int rz)
{
    uint32_t n = 0;
    int last = -1;
    for (int k = 0; k < GMS_MAX_SRC; k++) {
        if (src[k] == GMS_REG_NONE) continue;
        push_read(b, gms_scb_bank(b, sched, warp, src[k]), cu);
        last = k;
        n++;
    }
    if (rz) {
        uint32_t nrz = 0;
        for (int k = 0; k < last; k++) nrz += src[k] == GMS_REG_NONE;
        if (!nrz) nrz = 1;
        for (uint32_t k = 0; k < nrz; k++) push_read(b, gms_scb_bank(b, sched, warp, GMS_REG_NONE), cu);
        n += nrz;
    }
    if (n) {
        b->left[sched][cu] = (uint8_t)n;
        b->reading++;
    }
    return n;
}

/* the write mask of cycle t (0 if nothing marked for it) */
static inline uint64_t *wb_slot(gms_scb *b, uint64_t t)
{
    uint32_t k = (uint32_t)(t % GMS_SCB_RING);
    if (b->wb_at[k] != t) { b->wb_at[k] = t; b->wb_mask[k] = 0; }
    return &b->wb_mask[k];
}

/* opndcoll_rfu_t::writeback: each destination's bank, in operand order, if free this cycle;
 * stops at the first taken one (returns 0). *done: bit i, destination i was written (arch_reg.dst
 * set to -1): skipped, and set for those written now. */
static inline int write_banks(const gms_scb *b, uint64_t *m, uint32_t sched, uint32_t warp,
                              const uint8_t dst[GMS_MAX_DST], uint8_t *done)
{
    uint64_t taken = *m;
    uint8_t d = *done;
    int ok = 1;
    for (int i = 0; i < GMS_MAX_DST; i++) {
        if (dst[i] == GMS_REG_NONE || (d >> i & 1u)) continue;
        uint64_t bit = 1ULL << gms_scb_bank(b, sched, warp, dst[i]);
        if (taken & bit) { ok = 0; break; }
        taken |= bit;
        d |= (uint8_t)(1u << i);
    }
    *m = taken;
    *done = d;
    return ok;
}

void gms_scb_alu_write(gms_scb *b, uint64_t now, uint64_t wb, uint32_t sched, uint32_t warp,
                       const uint8_t dst[GMS_MAX_DST])
{
    if (wb - now >= GMS_SCB_RING) return;   /* beyond the ring (GPGPU-Sim refuses such latencies) */
    /* (the ALU path ignores writeback's false: the result is written, its later banks free) */
    uint8_t done = 0;
    (void)write_banks(b, wb_slot(b, wb), sched, warp, dst, &done);
}

int gms_scb_lsu_write(gms_scb *b, uint64_t now, uint32_t sched, uint32_t warp, const uint8_t dst[GMS_MAX_DST],
                      uint8_t *done)
{
    if (write_banks(b, wb_slot(b, now), sched, warp, dst, done)) return 1;
    b->lsu_wb_conflicts++;
    return 0;
}

uint32_t gms_scb_reads(gms_scb *b, uint64_t now, int first, uint8_t done[GMS_SCB_MAX_SCHED])
{
    uint32_t scheds = 0;
    uint64_t m = b->nonempty;
    if (first) {
        uint32_t k = (uint32_t)(now % GMS_SCB_RING);
        if (b->wb_at[k] == now) m &= ~b->wb_mask[k];   /* written this cycle: no read in the first step */
    }
    for (; m; m &= m - 1) {
        uint32_t bank = (uint32_t)__builtin_ctzll(m), sched = bank / b->per_sched;
        uint32_t cu = b->rq[bank][b->rq_head[bank]];
        b->rq_head[bank] = (uint8_t)((b->rq_head[bank] + 1) & (GMS_SCB_QCAP - 1));
        if (!--b->rq_n[bank]) b->nonempty &= ~(1ULL << bank);
        if (!--b->left[sched][cu]) {
            done[sched] |= (uint8_t)(1u << cu);
            scheds |= 1u << sched;
            b->reading--;
        }
    }
    b->wait_steps += b->reading;
    return scheds;
}
