#include "frontend/emit.h"
#include <string.h>

/* 1 iff a[i] == a[0] + i*stride (mod 2^64) for i < n, stride = a[1] - a[0]: the same test
 * as "every difference of neighbours equals the first one". Host speed: four lanes per
 * step without branches between them, still stopping early on scattered addresses. */
static inline int is_progression(const uint64_t *a, int n)
{
    uint64_t st = a[1] - a[0], v = a[0];
    int i = 0;
    for (; i + 4 <= n; i += 4, v += 4 * st) {
        uint64_t diff = (a[i] ^ v) | (a[i + 1] ^ (v + st)) | (a[i + 2] ^ (v + 2 * st)) | (a[i + 3] ^ (v + 3 * st));
        if (diff) return 0;
    }
    for (; i < n; i++, v += st)
        if (a[i] != v) return 0;
    return 1;
}

static void set_list(gms_emit *e, gms_inst *in, const uint64_t addrs[32], uint32_t mask, int n)
{
    gms_warp_trace *w = e->w;
    uint64_t *out = gms_warp_addrs_reserve(w, (uint32_t)n);
    if (mask == 0xffffffffu) {
        memcpy(out, addrs, 32 * sizeof *out);
    } else {
        int k = 0;
        for (uint32_t m = mask; m; m &= m - 1) out[k++] = addrs[__builtin_ctz(m)];
    }
    in->addr_mode = GMS_ADDR_LIST;
    in->base = w->naddr;
    w->naddr += (uint32_t)n;
}

/* The active lanes' addresses, as base+stride when the active lanes are contiguous and form
 * one progression (stride 0 for a single lane), else as a list in the warp's address array. */
static void set_addrs(gms_emit *e, gms_inst *in, const uint64_t addrs[32])
{
    uint32_t mask = in->mask;
    if (mask == 0xffffffffu) {   /* the common full warp: a fixed-length test */
        if (is_progression(addrs, 32)) {
            in->addr_mode = GMS_ADDR_STRIDE;
            in->base = addrs[0];
            in->stride = (int64_t)(addrs[1] - addrs[0]);
        } else {
            set_list(e, in, addrs, mask, 32);
        }
        return;
    }
    if (mask == 0) { in->addr_mode = GMS_ADDR_NONE; return; }
    int first = __builtin_ctz(mask), n = __builtin_popcount(mask);
    uint32_t run = mask >> first;
    /* contiguous lanes: run is 2^n - 1 */
    if ((run & (run + 1)) == 0 && (n == 1 || is_progression(addrs + first, n))) {
        in->addr_mode = GMS_ADDR_STRIDE;
        in->base = addrs[first];
        in->stride = n > 1 ? (int64_t)(addrs[first + 1] - addrs[first]) : 0;
    } else {
        set_list(e, in, addrs, mask, n);
    }
}

/* The same record as set_addrs for the lane addresses base + idx[l]*elem. Host speed: when
 * the active indices form one progression (step d), the addresses do too (stride d*elem,
 * mod 2^64), so the address array is only built for the other cases. */
static void set_addrs_idx(gms_emit *e, gms_inst *in, uint64_t base, const uint64_t idx[32], uint64_t elem)
{
    uint32_t mask = in->mask;
    if (mask != 0) {
        int first = __builtin_ctz(mask), n = __builtin_popcount(mask);
        uint32_t run = mask >> first;
        if ((run & (run + 1)) == 0 && (n == 1 || is_progression(idx + first, n))) {
            in->addr_mode = GMS_ADDR_STRIDE;
            in->base = base + idx[first] * elem;
            in->stride = n > 1 ? (int64_t)((idx[first + 1] - idx[first]) * elem) : 0;
            return;
        }
    }
    uint64_t addrs[32];
    for (uint32_t m = mask; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        addrs[l] = base + idx[l] * elem;
    }
    set_addrs(e, in, addrs);
}

static gms_inst *mem_inst(gms_emit *e, uint32_t pc, uint32_t mask, gms_mem_kind kind, uint8_t width,
                          const uint64_t addrs[32])
{
    gms_inst *in = gms_emit_put(e, pc, mask, GMS_OP_MEM);
    in->mem = (uint8_t)kind;
    in->width = width;
    set_addrs(e, in, addrs);
    return in;
}

static gms_inst *mem_inst_idx(gms_emit *e, uint32_t pc, uint32_t mask, gms_mem_kind kind, uint8_t width,
                              uint64_t base, const uint64_t idx[32], uint64_t elem)
{
    gms_inst *in = gms_emit_put(e, pc, mask, GMS_OP_MEM);
    in->mem = (uint8_t)kind;
    in->width = width;
    set_addrs_idx(e, in, base, idx, elem);
    return in;
}

static uint8_t load_regs(gms_emit *e, gms_inst *in, uint8_t addr_reg)
{
    in->src[0] = addr_reg;
    in->dst[0] = gms_emit_new_reg(e);
    return in->dst[0];
}

static void store_regs(gms_inst *in, uint8_t addr_reg, uint8_t data_reg)
{
    in->src[0] = addr_reg;
    in->src[1] = data_reg;
}

uint8_t gms_emit_load(gms_emit *e, uint32_t pc, uint32_t mask, gms_mem_kind kind, uint8_t width,
                      const uint64_t addrs[32], uint8_t addr_reg)
{
    return load_regs(e, mem_inst(e, pc, mask, kind, width, addrs), addr_reg);
}

void gms_emit_store(gms_emit *e, uint32_t pc, uint32_t mask, gms_mem_kind kind, uint8_t width,
                    const uint64_t addrs[32], uint8_t addr_reg, uint8_t data_reg)
{
    store_regs(mem_inst(e, pc, mask, kind, width, addrs), addr_reg, data_reg);
}

uint8_t gms_emit_load_idx(gms_emit *e, uint32_t pc, uint32_t mask, gms_mem_kind kind, uint8_t width,
                          uint64_t base, const uint64_t idx[32], uint64_t elem, uint8_t addr_reg)
{
    return load_regs(e, mem_inst_idx(e, pc, mask, kind, width, base, idx, elem), addr_reg);
}

uint8_t gms_emit_load_prog_list(gms_emit *e, uint32_t pc, uint32_t mask, gms_mem_kind kind, uint8_t width,
                                uint64_t base, uint64_t step, uint8_t addr_reg)
{
    uint64_t a[32];
    for (int l = 0; l < 32; l++) a[l] = base + (uint64_t)l * step;
    return gms_emit_load(e, pc, mask, kind, width, a, addr_reg);
}

void gms_emit_store_idx(gms_emit *e, uint32_t pc, uint32_t mask, gms_mem_kind kind, uint8_t width,
                        uint64_t base, const uint64_t idx[32], uint64_t elem, uint8_t addr_reg,
                        uint8_t data_reg)
{
    store_regs(mem_inst_idx(e, pc, mask, kind, width, base, idx, elem), addr_reg, data_reg);
}

uint8_t gms_emit_atomic(gms_emit *e, uint32_t pc, uint32_t mask, gms_mem_kind kind, uint8_t width,
                        const uint64_t addrs[32], uint8_t addr_reg, uint8_t data_reg)
{
    gms_inst *in = mem_inst(e, pc, mask, kind, width, addrs);
    in->src[0] = addr_reg;
    in->src[1] = data_reg;
    in->dst[0] = gms_emit_new_reg(e);
    return in->dst[0];
}
