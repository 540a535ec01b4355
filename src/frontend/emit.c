#include "frontend/emit.h"

#define REG_FIRST 8
#define REG_LAST 239

void gms_emit_begin(gms_emit *e, gms_warp_trace *w)
{
    e->w = w;
    e->next_reg = REG_FIRST;
}

static uint8_t new_reg(gms_emit *e)
{
    uint8_t r = e->next_reg;
    e->next_reg = (uint8_t)(r == REG_LAST ? REG_FIRST : r + 1);
    return r;
}

uint8_t gms_emit_alu(gms_emit *e, uint32_t pc, uint32_t mask, gms_op_class op,
                     uint8_t s0, uint8_t s1, uint8_t s2)
{
    gms_inst *in = gms_warp_push(e->w);
    in->pc = pc;
    in->mask = mask;
    in->op = (uint8_t)op;
    in->src[0] = s0;
    in->src[1] = s1;
    in->src[2] = s2;
    if (op == GMS_OP_BRA || op == GMS_OP_NOP) return GMS_REG_NONE;
    in->dst[0] = new_reg(e);
    return in->dst[0];
}

static void set_addrs(gms_emit *e, gms_inst *in, const uint64_t addrs[32])
{
    if (in->mask == 0xffffffffu) {   /* the common full warp: no compaction needed */
        int64_t st = (int64_t)(addrs[1] - addrs[0]);
        int l = 2;
        while (l < 32 && (int64_t)(addrs[l] - addrs[l - 1]) == st) l++;
        if (l == 32) {
            in->addr_mode = GMS_ADDR_STRIDE;
            in->base = addrs[0];
            in->stride = st;
        } else {
            in->addr_mode = GMS_ADDR_LIST;
            in->base = gms_warp_push_addrs(e->w, addrs, 32);
        }
        return;
    }
    uint64_t act[32];
    int n = 0;
    int first = -1, last = -1;
    for (int l = 0; l < 32; l++)
        if (in->mask >> l & 1u) {
            if (first < 0) first = l;
            last = l;
            act[n++] = addrs[l];
        }
    if (n == 0) { in->addr_mode = GMS_ADDR_NONE; return; }
    /* base+stride only when active lanes are contiguous and form one progression */
    int contiguous = (last - first + 1) == n;
    int64_t stride = n > 1 ? (int64_t)(act[1] - act[0]) : 0;
    int prog = contiguous;
    for (int i = 2; prog && i < n; i++)
        if ((int64_t)(act[i] - act[i - 1]) != stride) prog = 0;
    if (prog) {
        in->addr_mode = GMS_ADDR_STRIDE;
        in->base = act[0];
        in->stride = stride;
    } else {
        in->addr_mode = GMS_ADDR_LIST;
        in->base = gms_warp_push_addrs(e->w, act, (uint32_t)n);
    }
}

static gms_inst *mem_inst(gms_emit *e, uint32_t pc, uint32_t mask, gms_mem_kind kind, uint8_t width,
                          const uint64_t addrs[32])
{
    gms_inst *in = gms_warp_push(e->w);
    in->pc = pc;
    in->mask = mask;
    in->op = GMS_OP_MEM;
    in->mem = (uint8_t)kind;
    in->width = width;
    set_addrs(e, in, addrs);
    return in;
}

uint8_t gms_emit_load(gms_emit *e, uint32_t pc, uint32_t mask, gms_mem_kind kind, uint8_t width,
                      const uint64_t addrs[32], uint8_t addr_reg)
{
    gms_inst *in = mem_inst(e, pc, mask, kind, width, addrs);
    in->src[0] = addr_reg;
    in->dst[0] = new_reg(e);
    return in->dst[0];
}

void gms_emit_store(gms_emit *e, uint32_t pc, uint32_t mask, gms_mem_kind kind, uint8_t width,
                    const uint64_t addrs[32], uint8_t addr_reg, uint8_t data_reg)
{
    gms_inst *in = mem_inst(e, pc, mask, kind, width, addrs);
    in->src[0] = addr_reg;
    in->src[1] = data_reg;
}

uint8_t gms_emit_atomic(gms_emit *e, uint32_t pc, uint32_t mask, gms_mem_kind kind, uint8_t width,
                        const uint64_t addrs[32], uint8_t addr_reg, uint8_t data_reg)
{
    gms_inst *in = mem_inst(e, pc, mask, kind, width, addrs);
    in->src[0] = addr_reg;
    in->src[1] = data_reg;
    in->dst[0] = new_reg(e);
    return in->dst[0];
}

void gms_emit_bar(gms_emit *e, uint32_t pc)
{
    gms_inst *in = gms_warp_push(e->w);
    in->pc = pc;
    in->mask = 0xffffffffu;
    in->op = GMS_OP_BAR;
}

void gms_emit_exit(gms_emit *e, uint32_t pc, uint32_t mask)
{
    gms_inst *in = gms_warp_push(e->w);
    in->pc = pc;
    in->mask = mask;
    in->op = GMS_OP_EXIT;
}
