/* Warp instruction records: what the SM consumes, whether they come from a built-in workload
 * or an Accel-Sim trace. A thread block's warps are filled into a gms_block_trace when the
 * block is dispatched (lazily), so memory is bounded by the resident blocks, not the kernel. */
#ifndef GMS_FRONTEND_INST_H
#define GMS_FRONTEND_INST_H
#include <stdint.h>
#include <stddef.h>

/* Execution unit class (what pipe executes it and which latency applies). */
typedef enum {
    GMS_OP_INT = 0,   /* integer ALU (IADD, IMAD, ISETP, LEA, SHF, MOV, S2R...) */
    GMS_OP_SP,        /* single-precision FP (FADD, FFMA, FMUL) */
    GMS_OP_DP,        /* double precision */
    GMS_OP_SFU,       /* transcendental, integer divide, conversions */
    GMS_OP_TENSOR,
    GMS_OP_BRA,       /* branch / control (Volta: specialised unit) */
    GMS_OP_MEM,       /* anything executed by the LSU (see gms_mem_kind) */
    GMS_OP_BAR,       /* __syncthreads */
    GMS_OP_EXIT,
    GMS_OP_NOP,
    GMS_OP_TEX,
    GMS_OP_UDP,       /* Turing+ uniform datapath (Accel-Sim's specialised unit 4): a pipe of its own */
    GMS_OP__COUNT
} gms_op_class;

typedef enum {
    GMS_MEM_NONE = 0,
    GMS_MEM_LD_GLOBAL,
    GMS_MEM_ST_GLOBAL,
    GMS_MEM_LD_LOCAL,
    GMS_MEM_ST_LOCAL,
    GMS_MEM_LD_SHARED,
    GMS_MEM_ST_SHARED,
    GMS_MEM_LD_CONST,
    GMS_MEM_LD_TEX,
    GMS_MEM_ATOM_GLOBAL,  /* ATOM / RED: executed at L2 */
    GMS_MEM_ATOM_SHARED,
    GMS_MEM_LDGSTS,       /* async global->shared copy: global read side */
    GMS_MEM__COUNT
} gms_mem_kind;

/* flags */
#define GMS_INST_BYPASS_L1 0x01u   /* .cg / .STRONG.GPU / -gpgpu_gmem_skip_L1D: goes to L2 */
#define GMS_INST_HALF_II   0x02u   /* paired FP16 (HFMA2, ...): half its unit's initiation interval */
#define GMS_INST_MEMBAR    0x04u   /* MEMBAR: the warp waits for its pending writes, then the L1
                                    * is invalidated under -gpgpu_flush_l1_cache (sm.c) */
#define GMS_INST_SRC_RZ    0x08u   /* a trace source operand is R255 (RZ): no dependency, but a register
                                    * the operand collector reads (Accel-Sim keeps every listed source) */

/* address modes of a memory instruction */
#define GMS_ADDR_NONE   0u
#define GMS_ADDR_STRIDE 1u   /* lane i (i-th ACTIVE lane) at base + i*stride */
#define GMS_ADDR_LIST   2u   /* one address per active lane, in warp->addrs[base ...] */

#define GMS_REG_NONE 0xffu   /* also R255 = RZ in SASS traces: never a dependency */
#define GMS_MAX_DST 2
#define GMS_MAX_SRC 4

typedef struct gms_inst {
    uint32_t pc;
    uint32_t mask;         /* active lanes */
    uint8_t op;            /* gms_op_class */
    uint8_t mem;           /* gms_mem_kind */
    uint8_t width;         /* bytes per lane for memory instructions (1,2,4,8,16) */
    uint8_t flags;
    uint8_t dst[GMS_MAX_DST];  /* GMS_REG_NONE if unused */
    uint8_t src[GMS_MAX_SRC];
    uint8_t addr_mode;
    uint8_t spec_unit;     /* Accel-Sim specialised unit id (1..8) or 0 */
    uint16_t opcode_id;    /* index in the trace opcode table, for export; 0 if none */
    uint64_t base;         /* STRIDE: address of first active lane; LIST: index into addrs */
    int64_t stride;
} gms_inst;

typedef struct gms_warp_trace {
    gms_inst *insts;
    uint32_t n, cap;
    uint64_t *addrs;       /* storage for GMS_ADDR_LIST */
    uint32_t naddr, addr_cap;
    /* Resumable streams (see gms_kernel_src.fill_warp_more): `more` = the warp's stream
     * continues after insts[n-1]; `gen` is the source's per-warp generator state, freed by
     * gen_free when the stream ends or the buffer is reset or freed. */
    int more;
    void *gen;
    void (*gen_free)(void *gen);
} gms_warp_trace;

typedef struct gms_block_trace {
    uint32_t x, y, z;      /* block index */
    uint32_t nwarps;
    gms_warp_trace *warps; /* nwarps entries; buffers are reused between blocks */
    uint32_t warps_cap;
} gms_block_trace;

/* buffer management (inst.c); reset and free also end any resumable stream (gen_free) */
void gms_block_trace_reset(gms_block_trace *b, uint32_t nwarps);
void gms_warp_trace_end_stream(gms_warp_trace *w);   /* more = 0; frees gen */
void gms_block_trace_free(gms_block_trace *b);
gms_inst *gms_warp_push(gms_warp_trace *w);   /* zeroed record with dst/src = GMS_REG_NONE */
void gms_warp_grow(gms_warp_trace *w);        /* room for at least one more record */
/* Host speed: an uninitialised record, for writers that then set every byte (emit.c copies
 * a template); saves gms_warp_push's call and its zeroing of each generated instruction. */
static inline gms_inst *gms_warp_append(gms_warp_trace *w)
{
    if (w->n == w->cap) gms_warp_grow(w);
    return &w->insts[w->n++];
}
/* room for n more addresses; returns where they go (warp->addrs + naddr) without counting
 * them: the caller writes them, then adds n to naddr */
uint64_t *gms_warp_addrs_reserve(gms_warp_trace *w, uint32_t n);
uint64_t gms_warp_push_addrs(gms_warp_trace *w, const uint64_t *addrs, uint32_t n);
/* expand the per-lane addresses of a memory instruction into out[32] (inactive lanes = 0);
 * returns the number of active lanes */
int gms_inst_lane_addrs(const gms_warp_trace *w, const gms_inst *in, uint64_t out[32]);

/* dim3 */
typedef struct gms_dim3 { uint32_t x, y, z; } gms_dim3;
static inline uint64_t gms_dim3_count(gms_dim3 d) { return (uint64_t)d.x * d.y * d.z; }
/* the source registers an instruction reads (an operand collector reads one a cycle) */
static inline uint32_t gms_inst_nsrc(const gms_inst *in)
{
    uint32_t n = 0;
    for (int i = 0; i < GMS_MAX_SRC; i++) n += in->src[i] != GMS_REG_NONE;
    return n;
}

#endif
