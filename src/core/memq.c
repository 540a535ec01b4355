/* Issued memory instructions on their way to the LSU: see memq.h. At most GMS_MEMQ_CAP
 * entries in issue order; removal shifts the (short) array. */
#include "core/memq.h"
#include <string.h>

gms_memq_ent *gms_memq_push(gms_memq *q, uint32_t warp, uint32_t sched, const gms_inst *in)
{
    q->uncoll |= 1u << q->n;   /* n < GMS_MEMQ_CAP (32): gms_memq_slot_free */
    gms_memq_ent *e = &q->e[q->n++];
    if (!q->shared_w) q->idoc |= 1u << sched;
    else if ((uint32_t)__builtin_popcount(q->uncoll) >= q->shared_w) q->idoc = ~0u;   /* the set is full */
    e->in = *in;
    e->warp = (uint16_t)warp;
    e->sched = (uint8_t)sched;
    e->collected = 0;
    e->in_ex = 0;
    e->late = 0;
    e->cu = 0;
    e->aslot = 0;
    return e;
}

uint64_t *gms_memq_attach_addrs(gms_memq *q, gms_memq_ent *e)
{
    /* at most GMS_MEMQ_CAP entries plus the taken one hold a row (GMS_MEMQ_CAP + 1 rows) */
    uint32_t r = (uint32_t)__builtin_ctzll(~q->aused);
    q->aused |= 1ULL << r;
    e->aslot = (uint8_t)(r + 1);
    return q->addrs[r];
}

/* entry k leaves ID_OC_MEM (no unit-by-unit collector): the LSU may take it from ready_at.
 * Returns 0 when it cannot (register banks: no memory collector unit free). */
static int collect_one(gms_memq *q, uint32_t k, uint64_t ready_at)
{
    gms_memq_ent *e = &q->e[k];
    int queued = q->rd_alloc ? q->rd_alloc(q->rd_ctx, e) : 0;
    if (queued < 0) return 0;
    e->collected = 1;
    q->uncoll &= ~(1u << k);
    e->in_ex = 1;
    q->n_ex[e->sched]++;
    /* 3.x: allocated to a unit at c, its operands read one a cycle from c + 1, dispatched to
     * OC_EX_MEM and taken by ldst_unit::issue in the step after the last read */
    e->ready_at = queued ? UINT64_MAX : ready_at + (q->src_reads ? gms_inst_nsrc(&e->in) : 0);
    q->collected[e->sched]++;
    return 1;
}

void gms_memq_reads_done(gms_memq *q, uint64_t mask, uint64_t ready_at)
{
    for (uint32_t k = 0; k < q->n && mask; k++) {
        gms_memq_ent *e = &q->e[k];
        if (e->collected && e->ready_at == UINT64_MAX && (mask >> e->cu & 1u)) {
            e->ready_at = ready_at;
            mask &= ~(1ULL << e->cu);
        }
    }
}

uint32_t gms_memq_collect(gms_memq *q, uint32_t max_per_sched, uint64_t ready_at)
{
    uint32_t freed = 0;
    for (uint32_t k = 0; k < q->n; k++) {
        const gms_memq_ent *e = &q->e[k];
        if (e->collected || q->collected[e->sched] >= max_per_sched) continue;
        if (!collect_one(q, k, ready_at)) break;   /* no collector unit free */
        freed |= 1u << e->sched;
    }
    q->idoc &= ~freed;
    return freed;
}

uint32_t gms_memq_collect_shared(gms_memq *q, uint32_t cap, uint32_t moves, uint64_t ready_at)
{
    uint32_t past = gms_memq_past_idoc(q), moved = 0;
    for (; q->uncoll && past < cap && moved < moves; past++, moved++)
        if (!collect_one(q, (uint32_t)__builtin_ctz(q->uncoll), ready_at)) break;   /* the oldest in ID_OC_MEM */
    if (moved) q->idoc = 0;   /* the set has room again */
    return moved;
}

const gms_memq_ent *gms_memq_take(gms_memq *q, uint64_t now)
{
    uint32_t k = 0;
    while (k < q->n && !(q->e[k].in_ex && q->e[k].ready_at <= now)) k++;
    if (k == q->n) return 0;
    return gms_memq_take_index(q, k);
}

const gms_memq_ent *gms_memq_take_index(gms_memq *q, uint32_t k)
{
    if (q->taken.aslot) q->aused &= ~(1ULL << (q->taken.aslot - 1));   /* the previous one's row */
    q->taken = q->e[k];
    q->collected[q->taken.sched]--;
    if (q->taken.in_ex) q->n_ex[q->taken.sched]--;
    q->n--;
    /* the bits of the entries after k move down with them */
    q->uncoll = (q->uncoll & ((1u << k) - 1u)) | (k < 31 ? q->uncoll >> (k + 1) << k : 0u);
    /* only the entries after k move */
    memmove(&q->e[k], &q->e[k + 1], (q->n - k) * sizeof q->e[0]);
    return &q->taken;
}

int gms_memq_alloc_cu(gms_memq *q, const uint8_t *held, uint32_t ncu, uint64_t ready_at)
{
    gms_memq_ent *e;
    return gms_memq_alloc_cu_late(q, held, ncu, ready_at, 0, &e);
}

int gms_memq_alloc_cu_late(gms_memq *q, const uint8_t *held, uint32_t ncu, uint64_t ready_at, int late,
                           gms_memq_ent **given)
{
    if (!q->uncoll) return -1;
    uint32_t k = (uint32_t)__builtin_ctz(q->uncoll);   /* the oldest not collected */
    gms_memq_ent *e = &q->e[k];
    uint32_t si = e->sched, u = 0, busy = (uint32_t)(held[si] | q->cu_mem[si]);
    while (u < ncu && (busy >> u & 1u)) u++;
    if (u == ncu) return -1;    /* the oldest one's scheduler has no free unit: no one moves */
    q->cu_mem[si] |= (uint8_t)(1u << u);
    e->collected = 1;
    q->uncoll &= ~(1u << k);
    e->cu = (uint8_t)u;
    e->ready_at = ready_at;
    e->late = (uint8_t)(late != 0);
    *given = e;
    q->collected[si]++;
    q->idoc &= ~(1u << si);
    return (int)si;
}

gms_memq_ent *gms_memq_dispatch(gms_memq *q, uint32_t sched, uint64_t now)
{
    return gms_memq_dispatch_step(q, sched, now, 1);
}

gms_memq_ent *gms_memq_dispatch_step(gms_memq *q, uint32_t sched, uint64_t now, int second)
{
    if (q->n_ex[sched]) return NULL;   /* the slot is taken */
    /* the scheduler's collected entries (none in_ex) are the ones alloc_cu gave a unit: one bit
     * of cu_mem each, so the scan stops at the last of them (host speed; they are the oldest) */
    uint32_t left = (uint32_t)__builtin_popcount(q->cu_mem[sched]);
    gms_memq_ent *best = NULL;
    for (uint32_t k = 0; k < q->n && left; k++) {
        gms_memq_ent *e = &q->e[k];
        if (e->sched != sched || !e->collected) continue;
        left--;
        if (e->ready_at > now || (e->ready_at == now && e->late && !second)) continue;
        if (!best || e->cu < best->cu) best = e;
    }
    if (!best) return NULL;
    best->in_ex = 1;
    q->n_ex[sched]++;
    q->cu_mem[sched] &= (uint8_t)~(1u << best->cu);
    best->ready_at = now + 1;    /* ldst_unit::issue (in execute) the next cycle */
    return best;
}

gms_memq_ent *gms_memq_unit_entry(gms_memq *q, uint32_t sched, uint32_t cu)
{
    for (uint32_t k = 0; k < q->n; k++) {
        gms_memq_ent *e = &q->e[k];
        if (e->sched == sched && e->collected && !e->in_ex && e->cu == cu) return e;
    }
    return NULL;   /* not reached: the unit holds one */
}
