/* Helpers for built-in workload authors: append warp instructions to a gms_warp_trace.
 * Destination registers are handed out round-robin (R8..R239), so the dependencies a kernel
 * author writes (pass the returned register as a source) are the only ones the scoreboard
 * sees. Lane address arrays are indexed by lane (0..31); only lanes in `mask` are read.
 * Addresses are compressed to base+stride when the active lanes form one progression. */
#ifndef GMS_FRONTEND_EMIT_H
#define GMS_FRONTEND_EMIT_H
#include "frontend/inst.h"

typedef struct gms_emit {
    gms_warp_trace *w;
    uint8_t next_reg;
} gms_emit;

void gms_emit_begin(gms_emit *e, gms_warp_trace *w);
/* ALU-class instruction (INT, SP, DP, SFU, TENSOR, BRA, NOP); sources may be GMS_REG_NONE */
uint8_t gms_emit_alu(gms_emit *e, uint32_t pc, uint32_t mask, gms_op_class op,
                     uint8_t s0, uint8_t s1, uint8_t s2);
/* load of `width` bytes per lane from addrs[lane]; kind LD_GLOBAL/LD_LOCAL/LD_SHARED/LD_CONST/LD_TEX */
uint8_t gms_emit_load(gms_emit *e, uint32_t pc, uint32_t mask, gms_mem_kind kind, uint8_t width,
                      const uint64_t addrs[32], uint8_t addr_reg);
void gms_emit_store(gms_emit *e, uint32_t pc, uint32_t mask, gms_mem_kind kind, uint8_t width,
                    const uint64_t addrs[32], uint8_t addr_reg, uint8_t data_reg);
/* the same with lane addresses base + idx[lane]*elem, for indexed arrays (cheaper than
 * building the address array when the indices are consecutive) */
uint8_t gms_emit_load_idx(gms_emit *e, uint32_t pc, uint32_t mask, gms_mem_kind kind, uint8_t width,
                          uint64_t base, const uint64_t idx[32], uint64_t elem, uint8_t addr_reg);
void gms_emit_store_idx(gms_emit *e, uint32_t pc, uint32_t mask, gms_mem_kind kind, uint8_t width,
                        uint64_t base, const uint64_t idx[32], uint64_t elem, uint8_t addr_reg,
                        uint8_t data_reg);
/* atomic read-modify-write (ATOM_GLOBAL / ATOM_SHARED); returns the old-value register */
uint8_t gms_emit_atomic(gms_emit *e, uint32_t pc, uint32_t mask, gms_mem_kind kind, uint8_t width,
                        const uint64_t addrs[32], uint8_t addr_reg, uint8_t data_reg);
void gms_emit_bar(gms_emit *e, uint32_t pc);
void gms_emit_exit(gms_emit *e, uint32_t pc, uint32_t mask);
/* mask of the first n lanes, n in 0..32 */
static inline uint32_t gms_lanes(int n) { return n >= 32 ? 0xffffffffu : n <= 0 ? 0u : ((1u << n) - 1u); }

#endif
