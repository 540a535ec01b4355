/* Helpers for built-in workload authors: append warp instructions to a gms_warp_trace.
 * Destination registers are handed out round-robin (R8..R239), so the dependencies a kernel
 * author writes (pass the returned register as a source) are the only ones the scoreboard
 * sees. Lane address arrays are indexed by lane (0..31); only lanes in `mask` are read.
 * Addresses are compressed to base+stride when the active lanes form one progression. */
#ifndef GMS_FRONTEND_EMIT_H
#define GMS_FRONTEND_EMIT_H
#include <string.h>
#include "frontend/inst.h"

typedef struct gms_emit {
    gms_warp_trace *w;
    uint8_t next_reg;
} gms_emit;

#define GMS_EMIT_REG_FIRST 8
#define GMS_EMIT_REG_LAST 239

static inline void gms_emit_begin(gms_emit *e, gms_warp_trace *w)
{
    e->w = w;
    e->next_reg = GMS_EMIT_REG_FIRST;
}

static inline uint8_t gms_emit_new_reg(gms_emit *e)
{
    uint8_t r = e->next_reg;
    e->next_reg = (uint8_t)(r == GMS_EMIT_REG_LAST ? GMS_EMIT_REG_FIRST : r + 1);
    return r;
}

/* Append a record with pc, mask and op set, the rest as gms_warp_push leaves it (zero, no
 * registers). Host speed: inline, one block copy of a template (static storage, so its
 * padding is zero too) instead of a call and three memsets per generated instruction. */
static inline gms_inst *gms_emit_put(gms_emit *e, uint32_t pc, uint32_t mask, uint8_t op)
{
    static const gms_inst blank = {
        .dst = { GMS_REG_NONE, GMS_REG_NONE },
        .src = { GMS_REG_NONE, GMS_REG_NONE, GMS_REG_NONE, GMS_REG_NONE },
    };
    gms_inst *in = gms_warp_append(e->w);
    memcpy(in, &blank, sizeof *in);
    in->pc = pc;
    in->mask = mask;
    in->op = op;
    return in;
}

/* ALU-class instruction (INT, SP, DP, SFU, TENSOR, BRA, NOP); sources may be GMS_REG_NONE */
static inline uint8_t gms_emit_alu(gms_emit *e, uint32_t pc, uint32_t mask, gms_op_class op,
                                   uint8_t s0, uint8_t s1, uint8_t s2)
{
    gms_inst *in = gms_emit_put(e, pc, mask, (uint8_t)op);
    in->src[0] = s0;
    in->src[1] = s1;
    in->src[2] = s2;
    if (op == GMS_OP_BRA || op == GMS_OP_NOP) return GMS_REG_NONE;
    in->dst[0] = gms_emit_new_reg(e);
    return in->dst[0];
}

/* load of `width` bytes per lane from addrs[lane]; kind LD_GLOBAL/LD_LOCAL/LD_SHARED/LD_CONST/LD_TEX */
uint8_t gms_emit_load(gms_emit *e, uint32_t pc, uint32_t mask, gms_mem_kind kind, uint8_t width,
                      const uint64_t addrs[32], uint8_t addr_reg);
void gms_emit_store(gms_emit *e, uint32_t pc, uint32_t mask, gms_mem_kind kind, uint8_t width,
                    const uint64_t addrs[32], uint8_t addr_reg, uint8_t data_reg);
/* the same with lane addresses base + idx[lane]*elem, for indexed arrays (cheaper than
 * building the address array when the indices are consecutive) */
uint8_t gms_emit_load_idx(gms_emit *e, uint32_t pc, uint32_t mask, gms_mem_kind kind, uint8_t width,
                          uint64_t base, const uint64_t idx[32], uint64_t elem, uint8_t addr_reg);
/* the same with lane l at base + l*step (step 0: one address for every lane), recorded as
 * set_addrs would record those addresses but without building and testing them when the
 * active lanes are one run */
uint8_t gms_emit_load_prog_list(gms_emit *e, uint32_t pc, uint32_t mask, gms_mem_kind kind, uint8_t width,
                                uint64_t base, uint64_t step, uint8_t addr_reg);   /* (the general case) */
static inline uint8_t gms_emit_load_prog(gms_emit *e, uint32_t pc, uint32_t mask, gms_mem_kind kind, uint8_t width,
                                         uint64_t base, uint64_t step, uint8_t addr_reg)
{
    const uint32_t run = mask ? mask >> __builtin_ctz(mask) : 1;
    if (!mask || (run & (run + 1)))   /* no lane, or not one run of lanes: set_addrs decides */
        return gms_emit_load_prog_list(e, pc, mask, kind, width, base, step, addr_reg);
    /* one run of lanes from `first`: set_addrs' record of a progression (stride 0 for one lane);
     * inline, as the hot loads of leukocyte and heartwall need it */
    const int first = __builtin_ctz(mask);
    gms_inst *in = gms_emit_put(e, pc, mask, GMS_OP_MEM);
    in->mem = (uint8_t)kind;
    in->width = width;
    in->addr_mode = GMS_ADDR_STRIDE;
    in->base = base + (uint64_t)first * step;
    in->stride = run > 1 ? (int64_t)step : 0;
    in->src[0] = addr_reg;
    in->dst[0] = gms_emit_new_reg(e);
    return in->dst[0];
}
void gms_emit_store_idx(gms_emit *e, uint32_t pc, uint32_t mask, gms_mem_kind kind, uint8_t width,
                        uint64_t base, const uint64_t idx[32], uint64_t elem, uint8_t addr_reg,
                        uint8_t data_reg);
/* atomic read-modify-write (ATOM_GLOBAL / ATOM_SHARED); returns the old-value register */
uint8_t gms_emit_atomic(gms_emit *e, uint32_t pc, uint32_t mask, gms_mem_kind kind, uint8_t width,
                        const uint64_t addrs[32], uint8_t addr_reg, uint8_t data_reg);
static inline void gms_emit_bar(gms_emit *e, uint32_t pc) { gms_emit_put(e, pc, 0xffffffffu, GMS_OP_BAR); }
static inline void gms_emit_exit(gms_emit *e, uint32_t pc, uint32_t mask) { gms_emit_put(e, pc, mask, GMS_OP_EXIT); }
/* mask of the first n lanes, n in 0..32 */
static inline uint32_t gms_lanes(int n) { return n >= 32 ? 0xffffffffu : n <= 0 ? 0u : ((1u << n) - 1u); }

#endif
