/* GPGPU-Sim 3.x's ALU operand collector without sub-cores: see alu_collector.h. */
#include "core/alu_collector.h"
#include <string.h>

void gms_aluc_init(gms_aluc *a, const gms_aluc_shape shape[GMS_ALUC_PIPES], uint32_t nbus)
{
    memset(a, 0, sizeof *a);
    a->nbus = nbus;
    for (uint32_t i = 0; i < GMS_ALUC_MAX_LAT; i++) a->bus_at[i] = UINT64_MAX;
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

/* the oldest of n entries (register_set::get_ready: smallest uid) */
static uint32_t oldest(const gms_aluc_ent *v, uint32_t n)
{
    uint32_t j = 0;
    for (uint32_t k = 1; k < n; k++) if (v[k].seq < v[j].seq) j = k;
    return j;
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
            issued(ctx, &e, now + e.lat + 2);
        }
    }
    /* opndcoll_rfu_t::step (in ldst_unit::cycle, after them) */
    for (int p = 0; p < GMS_ALUC_PIPES; p++) {
        gms_aluc_pipe *P = &a->p[p];
        if (!(P->n_id | P->cu_used)) continue;
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
        /* allocate_cu: each input port gives the oldest instruction in ID_OC the lowest free
         * unit; its operands are read one a cycle from the next step */
        for (uint32_t port = 0; port < P->in_ports && P->n_id; port++) {
            if (P->cu_used == ~0ULL) break;
            uint32_t u = (uint32_t)__builtin_ctzll(~P->cu_used);
            if (u >= P->ncu) break;
            uint32_t j = oldest(P->id, P->n_id);
            P->cu[u] = P->id[j];
            P->cu[u].ready = now + 1 + P->cu[u].nsrc;
            P->id[j] = P->id[--P->n_id];
            P->cu_used |= 1ULL << u;
        }
    }
}
