/* GPGPU-Sim 3.x's ALU operand collector without sub-cores: see alu_collector.h. */
#include "core/alu_collector.h"
#include <stdlib.h>
#include <string.h>
#include "util/err.h"

void gms_aluc_init(gms_aluc *a, const gms_aluc_shape shape[GMS_ALUC_PIPES], uint32_t nbus)
{
    memset(a, 0, sizeof *a);
    a->nbus = nbus;
    for (uint32_t i = 0; i < GMS_ALUC_MAX_LAT; i++) a->bus_at[i] = a->wb_at[i] = UINT64_MAX;
    for (int p = 0; p < GMS_ALUC_PIPES; p++) {
        gms_aluc_pipe *P = &a->p[p];
        P->w_id = shape[p].w_id;
        P->w_ex = shape[p].w_ex;
        P->ncu = shape[p].ncu;
        P->in_ports = shape[p].in_ports;
        P->out_ports = shape[p].out_ports;
        P->nfu = shape[p].nfu;
        /* find_ready starts after the unit taken last: unit 0 first */
        for (uint32_t d = 0; d < GMS_ALUC_MAX_W; d++) P->last_cu[d] = P->ncu - 1;
    }
}

void gms_aluc_banks(gms_aluc *a, uint32_t nbanks, uint32_t n_other)
{
    a->nbanks = nbanks;
    a->ncoll = a->p[GMS_ALUC_SP].ncu + a->p[GMS_ALUC_SFU].ncu;
    uint32_t all = a->ncoll + n_other;
    a->square = nbanks > all ? nbanks : all;
    a->pri = 0;
    /* a bank never holds more reads than the units (memory units included) have operands */
    a->qcap = all * GMS_MAX_SRC;
    free(a->rq);
    a->rq = gms_xcalloc((size_t)nbanks * a->qcap, sizeof *a->rq);
}

void gms_aluc_mem_reads(gms_aluc *a, uint32_t nmem)
{
    a->nmem = nmem;
}

/* register_bank: GPGPU-Sim adds the warp id (the warp's slot in the SM) whenever
 * m_bank_warp_shift is set, and opndcoll_rfu_t::init always sets it (log2 of the warp size);
 * -gpgpu_reg_bank_use_warp_id is registered but read nowhere */
static inline uint32_t reg_bank(const gms_aluc *a, uint8_t reg, uint16_t warp)
{
    return ((uint32_t)reg + warp) % a->nbanks;
}

/* add_read_requests: one read per source operand, in operand order, on its register's bank */
static void queue_reads(gms_aluc *a, uint16_t gid, uint16_t warp, const uint8_t src[GMS_MAX_SRC])
{
    for (int k = 0; k < GMS_MAX_SRC; k++) {
        if (src[k] == GMS_REG_NONE) continue;
        uint32_t b = reg_bank(a, src[k], warp);
        a->rq[b * a->qcap + (a->rq_head[b] + a->rq_n[b]) % a->qcap] = gid;
        a->rq_n[b]++;
        a->nonempty |= 1ULL << b;
    }
}

int gms_aluc_mem_alloc(gms_aluc *a, uint16_t warp, const gms_inst *in)
{
    uint32_t n = gms_inst_nsrc(in);
    if (!n) return GMS_ALUC_NO_READS;
    if (a->mem_busy == ~0ULL) return -1;
    uint32_t u = (uint32_t)__builtin_ctzll(~a->mem_busy);
    if (u >= a->nmem) return -1;
    a->mem_busy |= 1ULL << u;
    a->mem_left[u] = (uint8_t)n;
    a->reading++;
    queue_reads(a, (uint16_t)(a->ncoll + u), warp, in->src);
    return (int)u;
}

void gms_aluc_free(gms_aluc *a)
{
    free(a->rq);
    a->rq = NULL;
}

void gms_aluc_push(gms_aluc *a, int pipe, uint16_t warp, const gms_inst *in, uint32_t lat, uint32_t ii)
{
    gms_aluc_pipe *P = &a->p[pipe];
    gms_aluc_ent *e = &P->id[P->n_id++];
    e->seq = a->seq++;
    e->ready = 0;
    e->lat = lat;
    e->ii = ii ? ii : 1;
    e->warp = warp;
    e->nsrc = (uint8_t)gms_inst_nsrc(in);
    memcpy(e->dst, in->dst, sizeof e->dst);
    memcpy(e->src, in->src, sizeof e->src);
    a->pending++;
}

/* test_res_bus: may a result come out at cycle `at` (fewer than nbus due then)? If so, reserve */
static int bus_reserve(gms_aluc *a, uint64_t at, uint32_t lat)
{
    if (lat >= GMS_ALUC_MAX_LAT) return 1;
    uint32_t k = (uint32_t)(at % GMS_ALUC_MAX_LAT);
    if (a->bus_at[k] != at) { a->bus_at[k] = at; a->bus_n[k] = 0; }
    if (a->bus_n[k] >= a->nbus) return 0;
    a->bus_n[k]++;
    return 1;
}

/* the banks of a warp's destination registers, as a mask (register_bank) */
static uint64_t dst_banks(const gms_aluc *a, uint16_t warp, const uint8_t dst[GMS_MAX_DST])
{
    uint64_t m = 0;
    for (int i = 0; i < GMS_MAX_DST; i++)
        if (dst[i] != GMS_REG_NONE)
            m |= 1ULL << reg_bank(a, dst[i], warp);
    return m;
}

/* writeback: the banks of e's destination registers are written at the start of cycle wb,
 * before that cycle's step, which then reads nothing from them */
static void mark_writeback(gms_aluc *a, const gms_aluc_ent *e, uint64_t wb)
{
    if (e->lat + 2 >= GMS_ALUC_MAX_LAT) return;   /* beyond the ring */
    uint32_t k = (uint32_t)(wb % GMS_ALUC_MAX_LAT);
    if (a->wb_at[k] != wb) { a->wb_at[k] = wb; a->wb_mask[k] = 0; }
    a->wb_mask[k] |= dst_banks(a, e->warp, e->dst);
}

int gms_aluc_lsu_write(gms_aluc *a, uint64_t now, uint16_t warp, const uint8_t dst[GMS_MAX_DST])
{
    uint64_t m = dst_banks(a, warp, dst);
    if (!m) return 1;
    uint32_t k = (uint32_t)(now % GMS_ALUC_MAX_LAT);
    if (a->wb_at[k] != now) { a->wb_at[k] = now; a->wb_mask[k] = 0; }
    if (a->wb_mask[k] & m) { a->lsu_wb_conflicts++; return 0; }
    a->wb_mask[k] |= m;
    return 1;
}

/* the oldest of n entries (register_set::get_ready: smallest uid) */
static uint32_t oldest(const gms_aluc_ent *v, uint32_t n)
{
    uint32_t j = 0;
    for (uint32_t k = 1; k < n; k++) if (v[k].seq < v[j].seq) j = k;
    return j;
}

/* arbiter_t::allocate_reads: the wavefront allocator over (bank, unit) with the front read of
 * each bank as its one request. Diagonal q holds the pairs with unit = (pri + q + bank) mod
 * square, visited in order of q, banks in order within one; every bank has one request, so a
 * request is granted unless its bank is being written back or an earlier-visited request took
 * its unit: per unit, the request of least (q, bank) wins. A granted unit's read is done; its
 * last one makes it ready to dispatch in the next step. */
static void allocate_reads(gms_aluc *a, uint64_t now)
{
    uint32_t k = (uint32_t)(now % GMS_ALUC_MAX_LAT);
    uint64_t wmask = a->wb_at[k] == now ? a->wb_mask[k] : 0;
    uint32_t best[GMS_ALUC_MAX_BANKS], win_bank[GMS_ALUC_MAX_BANKS], nwin = 0;
    uint16_t win_unit[GMS_ALUC_MAX_BANKS];
    uint32_t sq = a->square;
    for (uint64_t m = a->nonempty; m; m &= m - 1) {
        uint32_t b = (uint32_t)__builtin_ctzll(m);
        if (wmask >> b & 1) continue;
        uint32_t o = a->rq[b * a->qcap + a->rq_head[b]];
        uint32_t q = (o + 2 * sq - a->pri - b % sq) % sq;   /* o = (pri + q + b) mod sq */
        uint32_t key = q * GMS_ALUC_MAX_BANKS + b;
        uint32_t i = 0;
        while (i < nwin && win_unit[i] != o) i++;
        if (i == nwin) { win_unit[nwin] = (uint16_t)o; best[nwin] = key; win_bank[nwin++] = b; }
        else if (key < best[i]) { best[i] = key; win_bank[i] = b; }
    }
    a->pri = (a->pri + 1) % sq;
    a->bank_conflicts += a->reading - nwin;   /* units that read nothing this step */
    for (uint32_t i = 0; i < nwin; i++) {
        uint32_t b = win_bank[i], o = win_unit[i];
        a->rq_head[b] = (a->rq_head[b] + 1) % a->qcap;
        if (!--a->rq_n[b]) a->nonempty &= ~(1ULL << b);
        if (o >= a->ncoll) {   /* a memory unit */
            uint32_t u = o - a->ncoll;
            if (!--a->mem_left[u]) { a->mem_busy &= ~(1ULL << u); a->mem_done |= 1ULL << u; a->reading--; }
            continue;
        }
        gms_aluc_pipe *P = &a->p[o < a->p[GMS_ALUC_SP].ncu ? GMS_ALUC_SP : GMS_ALUC_SFU];
        gms_aluc_ent *c = &P->cu[o < a->p[GMS_ALUC_SP].ncu ? o : o - a->p[GMS_ALUC_SP].ncu];
        if (!--c->left) { c->ready = now + 1; a->reading--; }
    }
}

void gms_aluc_cycle(gms_aluc *a, uint64_t now, gms_aluc_issued_fn issued, void *ctx)
{
    /* shader_core_ctx::execute: the SP units, then the SFU units, each take the oldest
     * instruction of their OC_EX set if their dispatch register is free */
    for (int p = 0; p < GMS_ALUC_PIPES; p++) {
        gms_aluc_pipe *P = &a->p[p];
        for (uint32_t k = 0; k < P->nfu && P->n_ex; k++) {
            if (P->fu_free[k] > now) continue;
            uint32_t j = oldest(P->ex, P->n_ex);
            /* no result bus then: the pipe's other units would test the same instruction */
            if (!bus_reserve(a, now + P->ex[j].lat, P->ex[j].lat)) break;
            gms_aluc_ent e = P->ex[j];
            P->ex[j] = P->ex[--P->n_ex];
            P->fu_free[k] = now + e.ii;
            a->pending--;
            if (a->nbanks) mark_writeback(a, &e, now + e.lat + 2);
            issued(ctx, &e, now + e.lat + 2);
        }
    }
    /* opndcoll_rfu_t::step (in ldst_unit::cycle, after them): dispatch_ready_cu, allocate_reads,
     * allocate_cu */
    for (int p = 0; p < GMS_ALUC_PIPES; p++) {
        gms_aluc_pipe *P = &a->p[p];
        /* dispatch_ready_cu: each dispatch unit, round robin from the unit it took last (host
         * speed: over the held units only, those after it first, then the rest) */
        for (uint32_t d = 0; d < P->out_ports && P->cu_used && P->n_ex < P->w_ex; d++) {
            uint32_t last = P->last_cu[d];
            uint64_t after = last >= 63 ? 0 : P->cu_used & ~((2ULL << last) - 1);
            for (uint64_t m = after, round = 0; round < 2; m = P->cu_used & ~after, round++) {
                for (; m; m &= m - 1) {
                    uint32_t c = (uint32_t)__builtin_ctzll(m);
                    if (P->cu[c].ready > now) continue;
                    P->ex[P->n_ex++] = P->cu[c];
                    P->cu_used &= ~(1ULL << c);
                    P->last_cu[d] = c;
                    goto dispatched;
                }
            }
        dispatched:;
        }
    }
    if (a->nonempty) allocate_reads(a, now);
    for (int p = 0; p < GMS_ALUC_PIPES; p++) {
        gms_aluc_pipe *P = &a->p[p];
        /* allocate_cu: each input port gives the oldest instruction in ID_OC the lowest free
         * unit; its operands are read one a cycle from the next step */
        for (uint32_t port = 0; port < P->in_ports && P->n_id; port++) {
            if (P->cu_used == ~0ULL) break;
            uint32_t u = (uint32_t)__builtin_ctzll(~P->cu_used);
            if (u >= P->ncu) break;
            uint32_t j = oldest(P->id, P->n_id);
            gms_aluc_ent *c = &P->cu[u];
            *c = P->id[j];
            c->ready = now + 1 + c->nsrc;
            if (a->nbanks && c->nsrc) {
                /* add_read_requests: one read per source operand, in operand order */
                queue_reads(a, (uint16_t)(p == GMS_ALUC_SP ? u : a->p[GMS_ALUC_SP].ncu + u), c->warp, c->src);
                c->left = c->nsrc;
                a->reading++;
                c->ready = UINT64_MAX;   /* until its last read is granted */
            }
            P->id[j] = P->id[--P->n_id];
            P->cu_used |= 1ULL << u;
        }
    }
}
