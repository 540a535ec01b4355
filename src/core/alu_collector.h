/* GPGPU-Sim 3.x's operand collector for the ALU instructions of an SM without sub-cores
 * (shader.cc as UVM Smart and the sound-baseline fork ship it; -gms_alu_collector gpgpusim).
 *
 * Two pipes: SP (every ALU instruction but SFU ones: 3.x has no DP, INT or tensor pipes) and
 * SFU. For each pipe:
 *  - issue puts the instruction into the pipe's ID_OC register set (-gpgpu_pipeline_widths);
 *    a scheduler may issue to the pipe only while the set has a free register
 *    (scheduler_unit::cycle: m_sp_out / m_sfu_out->has_free()); the function units' state is
 *    not looked at;
 *  - the collector steps once a cycle, inside ldst_unit::cycle, so after the SP and SFU units
 *    have taken their instructions for the cycle (shader_core_ctx::execute runs m_fu in the
 *    order SP units, SFU units, LDST unit): dispatch_ready_cu first, each of the pipe's
 *    -gpgpu_operand_collector_num_out_ports_<pipe> dispatch units taking one ready unit, round
 *    robin from the unit it took last (dispatch_unit_t::find_ready), into the OC_EX set if it
 *    has room; then allocate_cu, each of the -gpgpu_operand_collector_num_in_ports_<pipe>
 *    input ports giving the OLDEST instruction of the ID_OC set (register_set::get_ready:
 *    smallest uid) the lowest free collector unit (-gpgpu_operand_collector_num_units_<pipe>);
 *  - a unit reads one source operand a cycle from the step after its allocation
 *    (arbiter_t::allocate_reads: one read per collector unit per cycle), and is ready to
 *    dispatch in the step after its last read: allocated at c, it may dispatch from
 *    c + 1 + (source operands);
 *  - each function unit of the pipe (-gpgpu_num_sp_units / _sfu_units, in order) takes the
 *    oldest instruction in the OC_EX set when its dispatch register is free; it holds the
 *    dispatch register for the initiation interval (pipelined_simd_unit::cycle,
 *    dispatch_delay), and the result reaches EX_WB at e + latency + 1, written back (the
 *    scoreboard released) at the start of e + latency + 2, so a dependent instruction can
 *    issue then.
 * So a dependent instruction with two sources waits latency + 7 cycles after the first's
 * issue, not the latency alone.
 *  - a function unit takes an instruction only if one of the EX_WB-width result buses is free
 *    in the cycle its result will come out (shader_core_ctx::test_res_bus: a bitset per bus,
 *    bit `latency` set at issue and shifted every cycle), else that pipe issues nothing this
 *    cycle (its other units would test the same oldest instruction); latencies of
 *    GMS_ALUC_MAX_LAT or more, which GPGPU-Sim refuses (MAX_ALU_LATENCY), reserve no bus.
 *  - register banks (gms_aluc_banks, -gms_reg_banks gpgpusim): the unit's reads are queued at
 *    allocation, one per source operand in operand order, on the bank of its register
 *    (register_bank: register + warp id modulo the banks, as GPGPU-Sim: its m_bank_warp_shift is
 *    log2 of the warp size whatever -gpgpu_reg_bank_use_warp_id says); each step, after dispatch and before
 *    allocation, arbiter_t::allocate_reads grants the front read of every bank not being written
 *    back that cycle, at most one per unit: a wavefront allocator over banks x units (all units:
 *    SP, SFU, then MEM, the square being the larger count) whose diagonal of highest priority
 *    moves on by one every step; a unit is ready to dispatch in the step after its last read.
 *    Written back in a cycle: the destination registers of the results due then (writeback runs
 *    before the step). Without conflicts this is the one-read-a-cycle timing above.
 *  - the LDST unit's write-backs (gms_aluc_lsu_write: loads from the L1D, and with
 *    -gms_lsu_writeback gpgpusim shared-memory loads and bypassed replies) take their banks for
 *    the cycle, and wait a cycle when an ALU result is written to one of them.
 *  - with gms_aluc_mem_reads, the memory collector units' reads go through the same arbiter
 *    (memq.c asks gms_aluc_mem_alloc when an instruction leaves ID_OC_MEM).
 * Not modelled: generic collector units. */
#ifndef GMS_CORE_ALU_COLLECTOR_H
#define GMS_CORE_ALU_COLLECTOR_H
#include <stdint.h>
#include "frontend/inst.h"

enum { GMS_ALUC_SP = 0, GMS_ALUC_SFU = 1, GMS_ALUC_PIPES = 2 };
#define GMS_ALUC_MAX_W 32     /* an ID_OC or OC_EX set's registers, a pipe's ports */
#define GMS_ALUC_MAX_CU 64    /* a pipe's collector units */
#define GMS_ALUC_MAX_FU 64    /* a pipe's function units */
#define GMS_ALUC_MAX_LAT 512  /* GPGPU-Sim's MAX_ALU_LATENCY: the result buses' bitset length */
#define GMS_ALUC_MAX_BANKS 64 /* register banks (a 64-bit mask) */

typedef struct gms_aluc_ent {
    uint64_t seq;             /* issue order (warp_inst_t uid): the oldest goes first */
    uint64_t ready;           /* in a unit: the cycle from which it may dispatch */
    uint32_t lat, ii;
    uint16_t warp;
    uint8_t nsrc;
    uint8_t left;             /* register banks: reads not yet granted */
    uint8_t dst[GMS_MAX_DST];
    uint8_t src[GMS_MAX_SRC];
} gms_aluc_ent;

typedef struct gms_aluc_pipe {
    uint32_t w_id, w_ex;      /* ID_OC and OC_EX set widths */
    uint32_t ncu, in_ports, out_ports, nfu;
    uint32_t n_id, n_ex;
    uint64_t cu_used;         /* bit k: unit k holds an instruction */
    gms_aluc_ent id[GMS_ALUC_MAX_W];
    gms_aluc_ent ex[GMS_ALUC_MAX_W];
    gms_aluc_ent cu[GMS_ALUC_MAX_CU];
    uint32_t last_cu[GMS_ALUC_MAX_W];   /* per dispatch unit: the unit it dispatched last */
    uint64_t fu_free[GMS_ALUC_MAX_FU];  /* per function unit: its dispatch register is free from */
} gms_aluc_pipe;

typedef struct gms_aluc {
    gms_aluc_pipe p[GMS_ALUC_PIPES];
    uint32_t pending;         /* instructions not yet taken by a function unit */
    uint32_t nbus;            /* result buses (the EX_WB width) */
    uint64_t seq;
    /* results due per cycle, by cycle modulo GMS_ALUC_MAX_LAT (bus_at: the cycle a slot counts) */
    uint64_t bus_at[GMS_ALUC_MAX_LAT];
    uint8_t bus_n[GMS_ALUC_MAX_LAT];
    /* register banks (nbanks 0: none): per bank a FIFO of reads, each the global id of the unit
     * (SP units, then SFU units); wb_mask: the banks written back at cycle wb_at (mod MAX_LAT) */
    uint32_t nbanks, ncoll, square, pri, qcap;
    uint32_t reading;         /* units with reads not yet granted */
    uint64_t nonempty;        /* banks with a queued read */
    uint16_t *rq;             /* nbanks x qcap */
    uint32_t rq_head[GMS_ALUC_MAX_BANKS], rq_n[GMS_ALUC_MAX_BANKS];
    uint64_t wb_at[GMS_ALUC_MAX_LAT], wb_mask[GMS_ALUC_MAX_LAT];
    uint64_t bank_conflicts;  /* unit-steps in which a unit with reads left read nothing (its reads
                               * queued behind other units' on their banks, or a bank written back) */
    uint64_t lsu_wb_conflicts;   /* cycles in which the LSU's write-back found a bank taken */
    /* the memory collector units' reads (gms_aluc_mem_reads): unit k is global unit ncoll + k */
    uint32_t nmem;
    uint64_t mem_busy;        /* bit k: memory unit k has reads not yet granted */
    uint64_t mem_done;        /* bit k: its last read was granted in this cycle's step */
    uint8_t mem_left[GMS_ALUC_MAX_CU];
} gms_aluc;

/* the shape of one pipe (widths, units, ports: each at least 1 and at most the limits above) */
typedef struct gms_aluc_shape { uint32_t w_id, w_ex, ncu, in_ports, out_ports, nfu; } gms_aluc_shape;

/* nbus: the result buses (EX_WB width, 1..255) */
void gms_aluc_init(gms_aluc *a, const gms_aluc_shape shape[GMS_ALUC_PIPES], uint32_t nbus);
/* register banks: nbanks 1..GMS_ALUC_MAX_BANKS, a register's bank (register + warp id) modulo
 * nbanks; n_other: the units after SP and SFU in the arbiter's order (MEM), which only widen
 * its square */
void gms_aluc_banks(gms_aluc *a, uint32_t nbanks, uint32_t n_other);
/* the memory instructions' operand reads on the banks too: nmem (1..GMS_ALUC_MAX_CU, at most
 * gms_aluc_banks' n_other) memory collector units, after SP and SFU in the arbiter's order */
void gms_aluc_mem_reads(gms_aluc *a, uint32_t nmem);
/* allocate_cu for a memory instruction `in` of `warp`: the lowest memory unit
 * with no reads left takes it and its reads are queued (add_read_requests). Returns the unit,
 * GMS_ALUC_NO_READS when it has no register to read (no unit is held), or -1 when every unit is
 * still reading. gms_aluc_mem_done then says when its last read has been granted. */
#define GMS_ALUC_NO_READS (-2)
int gms_aluc_mem_alloc(gms_aluc *a, uint16_t warp, const gms_inst *in);
/* the memory units whose last read was granted in the last gms_aluc_cycle (cleared by the call):
 * they may dispatch from the next cycle */
static inline uint64_t gms_aluc_mem_done(gms_aluc *a) { uint64_t m = a->mem_done; a->mem_done = 0; return m; }
void gms_aluc_free(gms_aluc *a);   /* what gms_aluc_banks allocated (not a itself) */
/* the pipe an ALU op class runs on */
static inline int gms_aluc_pipe_of(uint8_t op) { return op == GMS_OP_SFU ? GMS_ALUC_SFU : GMS_ALUC_SP; }
/* may an instruction of that pipe issue (its ID_OC set has a free register)? */
static inline int gms_aluc_idoc_free(const gms_aluc *a, int pipe) { return a->p[pipe].n_id < a->p[pipe].w_id; }
/* issue into the pipe's ID_OC set (only when gms_aluc_idoc_free) */
void gms_aluc_push(gms_aluc *a, int pipe, uint16_t warp, const gms_inst *in, uint32_t lat, uint32_t ii);
/* a function unit took e at cycle `now`: its registers are written back at `wb` */
typedef void (*gms_aluc_issued_fn)(void *ctx, const gms_aluc_ent *e, uint64_t wb);
/* ldst_unit::writeback through opndcoll_rfu_t::writeback (register banks only): may warp's
 * destination registers dst[GMS_MAX_DST] be written at cycle `now`? Not if one of their banks is
 * written back by an ALU result that cycle (shader_core_ctx::writeback runs first and takes its
 * banks); the LSU then retries next cycle. If they may, their banks are taken for the cycle: the
 * collector's step reads nothing from them. Two registers of one instruction on one bank do not
 * refuse each other (GPGPU-Sim would refuse the write every cycle and hang). Call before
 * gms_aluc_cycle(now). */
int gms_aluc_lsu_write(gms_aluc *a, uint64_t now, uint16_t warp, const uint8_t dst[GMS_MAX_DST]);
/* one cycle: the function units take their instructions, then the collector steps */
void gms_aluc_cycle(gms_aluc *a, uint64_t now, gms_aluc_issued_fn issued, void *ctx);

#endif
