/* The LDST unit's shared-memory pipeline, as GPGPU-Sim 3.x and 4.x time it
 * (ldst_unit::m_pipeline_reg, -gpgpu_smem_latency stages; -gms_lsu_writeback gpgpusim).
 *
 * A shared-memory load (or ATOMS) leaves the LDST unit's dispatch register at the end of its
 * last bank-conflict cycle e into stage L-1 (L = smem_latency), if that stage is free. Each
 * cycle an entry moves one stage down when the stage below is free, so it reaches stage 0 at
 * the shift of cycle e + L - 1 unless the entries ahead are held. Stage 0 is one of the
 * write-back clients of ldst_unit::writeback, which runs before the shift: the entry waits
 * there until the arbitration gives it the write-back slot (m_next_wb), at the earliest the
 * cycle after it arrived, and writes its registers the cycle after that.
 *
 * Entries behave like cars in one lane, so the pipeline is a FIFO: with x the cycle the
 * previous head was taken, an entry arrives at stage 0 at max(e + L - 1, x) (if it was held
 * it is right behind the head, and moves in the same cycle's shift). Stage L-1 is taken (a
 * new entry must wait in the dispatch register) only when L entries are in the pipeline,
 * all held. Unheld, a load entering at e is written back at e + L + 1: issued to the LSU at
 * t with d conflict cycles (e = t + d - 1), its registers are free at t + d + L, as before
 * this model (a fixed latency). */
#ifndef GMS_LSU_SHPIPE_H
#define GMS_LSU_SHPIPE_H
#include "frontend/inst.h"
#include <stdint.h>

typedef struct gms_shp_ent {
    uint64_t arrive;                /* e + L - 1: at stage 0 after that cycle's shift, if unheld */
    uint16_t warp;
    uint8_t dst[GMS_MAX_DST];       /* GMS_REG_NONE if unused */
    uint8_t atomic;                 /* an ATOMS with active lanes: ends the warp's atomic wait */
} gms_shp_ent;

typedef struct gms_shpipe {
    gms_shp_ent *e;                 /* ring of cap = L entries */
    uint32_t cap, head, n;
    uint64_t last_out;              /* the cycle the last head was taken (0: none yet) */
} gms_shpipe;

/* stages >= 1 (GPGPU-Sim asserts smem_latency > 1; core_options.c checks it) */
void gms_shpipe_init(gms_shpipe *p, uint32_t stages);
void gms_shpipe_free(gms_shpipe *p);
static inline int gms_shpipe_full(const gms_shpipe *p) { return p->n >= p->cap; }
/* enters stage L-1 at the end of cycle e (the caller checked it is not full) */
void gms_shpipe_enter(gms_shpipe *p, uint64_t e, const gms_shp_ent *ent);
/* the first cycle whose write-back may take the head; UINT64_MAX when empty */
static inline uint64_t gms_shpipe_ready_at(const gms_shpipe *p)
{
    if (!p->n) return UINT64_MAX;
    uint64_t a = p->e[p->head].arrive;
    return (a > p->last_out ? a : p->last_out) + 1;
}
/* takes the head at cycle now's write-back (now >= gms_shpipe_ready_at) */
gms_shp_ent gms_shpipe_take(gms_shpipe *p, uint64_t now);

#endif
