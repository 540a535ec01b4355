#include "frontend/inst.h"
#include "util/err.h"
#include <stdlib.h>
#include <string.h>

void gms_block_trace_reset(gms_block_trace *b, uint32_t nwarps)
{
    if (nwarps > b->warps_cap) {
        b->warps = gms_xrealloc(b->warps, nwarps * sizeof *b->warps);
        memset(b->warps + b->warps_cap, 0, (nwarps - b->warps_cap) * sizeof *b->warps);
        b->warps_cap = nwarps;
    }
    b->nwarps = nwarps;
    for (uint32_t i = 0; i < b->warps_cap; i++) gms_warp_trace_end_stream(&b->warps[i]);
    for (uint32_t i = 0; i < nwarps; i++) {
        b->warps[i].n = 0;
        b->warps[i].naddr = 0;
    }
}

void gms_warp_trace_end_stream(gms_warp_trace *w)
{
    if (w->gen && w->gen_free) w->gen_free(w->gen);
    w->gen = NULL;
    w->gen_free = NULL;
    w->more = 0;
}

void gms_block_trace_free(gms_block_trace *b)
{
    for (uint32_t i = 0; i < b->warps_cap; i++) {
        gms_warp_trace_end_stream(&b->warps[i]);
        free(b->warps[i].insts);
        free(b->warps[i].addrs);
    }
    free(b->warps);
    memset(b, 0, sizeof *b);
}

void gms_warp_grow(gms_warp_trace *w)
{
    if (w->n < w->cap) return;
    w->cap = w->cap ? w->cap * 2 : 64;
    w->insts = gms_xrealloc(w->insts, w->cap * sizeof *w->insts);
}

gms_inst *gms_warp_push(gms_warp_trace *w)
{
    gms_inst *in = gms_warp_append(w);
    memset(in, 0, sizeof *in);
    memset(in->dst, GMS_REG_NONE, sizeof in->dst);
    memset(in->src, GMS_REG_NONE, sizeof in->src);
    return in;
}

uint64_t *gms_warp_addrs_reserve(gms_warp_trace *w, uint32_t n)
{
    if (w->naddr + n > w->addr_cap) {
        uint32_t c = w->addr_cap ? w->addr_cap : 256;
        while (c < w->naddr + n) c *= 2;
        w->addrs = gms_xrealloc(w->addrs, c * sizeof *w->addrs);
        w->addr_cap = c;
    }
    return w->addrs + w->naddr;
}

uint64_t gms_warp_push_addrs(gms_warp_trace *w, const uint64_t *addrs, uint32_t n)
{
    uint64_t at = w->naddr;
    memcpy(gms_warp_addrs_reserve(w, n), addrs, n * sizeof *addrs);
    w->naddr += n;
    return at;
}

int gms_inst_lane_addrs(const gms_warp_trace *w, const gms_inst *in, uint64_t out[32])
{
    uint32_t mask = in->mask;
    int n = __builtin_popcount(mask);
    /* Host speed: a full warp (the usual case) without per-lane mode and mask tests */
    if (mask == 0xffffffffu && in->addr_mode == GMS_ADDR_LIST) {
        memcpy(out, w->addrs + in->base, 32 * sizeof *out);
        return n;
    }
    if (mask == 0xffffffffu && in->addr_mode == GMS_ADDR_STRIDE) {
        uint64_t a = in->base;
        for (int lane = 0; lane < 32; lane++, a += (uint64_t)in->stride) out[lane] = a;
        return n;
    }
    /* k-th active lane: base + k*stride or addrs[base + k]; inactive lanes (and lanes of an
     * instruction without addresses) are 0. Host speed: the mode is tested once, not per lane. */
    memset(out, 0, 32 * sizeof *out);
    if (in->addr_mode == GMS_ADDR_STRIDE) {
        uint64_t a = in->base;
        for (uint32_t m = mask; m; m &= m - 1, a += (uint64_t)in->stride) out[__builtin_ctz(m)] = a;
    } else if (in->addr_mode == GMS_ADDR_LIST) {
        const uint64_t *src = w->addrs + in->base;
        for (uint32_t m = mask; m; m &= m - 1) out[__builtin_ctz(m)] = *src++;
    }
    return n;
}
