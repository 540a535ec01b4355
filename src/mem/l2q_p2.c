/* L2 input queue "p2": bank-classified queues, CART's second precursor (spec 000a 2.1,
 * Fig. 2.3). The FIFO incoming buffer stays; behind it an address extractor files one
 * request per L2 cycle (tick) into queue bank mod B (a FIFO of `depth` entries; the head
 * waits while that queue is full); the slice drains one request per cycle from the next
 * non-empty queue after the one drained last (round-robin). A reservation fail puts the
 * request back at its queue's head and the next cycle moves on. B and depth:
 * -gms_l2q_p2 (the spec gives neither; default 16:4, docs/cart.md). Bank: the DRAM bank of
 * the request's line, decoded as the memory controller does (the same coordinates as CART). */
#include "mem/l2q.h"
#include "mem/addrdec.h"
#include <stdlib.h>

typedef struct p2q {
    gms_mreq_fifo in;
    gms_mreq_fifo *q;
    uint32_t nq, held, last, sel, out;
    const gms_addrdec *dec;
    uint64_t fills, fill_stalls;
} p2q;

static void *p2_create(const gms_l2q_env *env)
{
    p2q *p = gms_xcalloc(1, sizeof *p);
    gms_l2q_params prm = env->prm;
    if (!prm.p2_queues) gms_l2q_params_default(&prm);
    p->in.cap = env->capacity;
    p->dec = env->dec;
    p->nq = prm.p2_queues;
    p->q = gms_xcalloc(p->nq, sizeof *p->q);
    for (uint32_t i = 0; i < p->nq; i++) p->q[i].cap = prm.p2_depth;
    p->last = p->nq - 1;
    return p;
}
static void p2_destroy(void *self) { p2q *p = self; free(p->q); free(p); }
static uint32_t p2_space(const void *self)
{
    const p2q *p = self;
    if (!p->in.cap) return UINT32_MAX;
    return p->in.n >= p->in.cap ? 0 : p->in.cap - p->in.n;
}
static void p2_push(void *self, gms_mreq *r, uint64_t now) { gms_fifo_push(&((p2q *)self)->in, r); }
static uint32_t p2_len(const void *self) { const p2q *p = self; return p->in.n + p->held; }

static uint32_t bank_of(const p2q *p, uint64_t addr)
{
    uint64_t line = addr >> 7;
    if (!p->dec) return (uint32_t)((line >> 5) & 15);
    gms_addrdec_dram d;
    gms_addrdec_dram_of(p->dec, line << 7, &d);
    return d.bank;
}

static int p2_tick(void *self, uint64_t now)
{
    p2q *p = self;
    gms_mreq *r = p->in.head;
    if (!r) return 0;
    gms_mreq_fifo *q = &p->q[bank_of(p, r->addr) % p->nq];
    if (gms_fifo_full(q)) {
        p->fill_stalls++;
        return 0;
    }
    gms_fifo_push(q, gms_fifo_pop(&p->in));
    p->held++;
    p->fills++;
    return p->in.n > 0;
}

/* slept n cycles: each tick would have found the head's queue full (a stall) or nothing */
static void p2_idle(void *self, uint64_t n)
{
    p2q *p = self;
    if (p->in.head && gms_fifo_full(&p->q[bank_of(p, p->in.head->addr) % p->nq])) p->fill_stalls += n;
}

static gms_mreq *p2_peek(void *self, uint64_t now)
{
    p2q *p = self;
    if (!p->held) return NULL;
    for (uint32_t k = 1; k <= p->nq; k++) {
        uint32_t i = (p->last + k) % p->nq;
        if (p->q[i].n) {
            p->sel = i;
            return p->q[i].head;
        }
    }
    return NULL;
}
static void p2_pop(void *self, gms_mreq *r)
{
    p2q *p = self;
    gms_fifo_pop(&p->q[p->sel]);
    p->held--;
    p->last = p->out = p->sel;
}
static void p2_putback(void *self, gms_mreq *r, uint64_t now, int cause)
{
    p2q *p = self;
    gms_fifo_push_front(&p->q[p->out], r);
    p->held++;
}
static void p2_stats(const void *self, gms_l2q_stats *acc)
{
    const p2q *p = self;
    acc->fills += p->fills;
    acc->fill_stalls += p->fill_stalls;
}

const gms_l2q_ops gms_l2q_p2 = {
    .name = "p2", .knobs = GMS_KNOBS("gms_l2q_p2"), .summary = "bank-classified queues behind the FIFO, round-robin drain (CART precursor P2; -gms_l2q_p2)",
    .create = p2_create, .destroy = p2_destroy, .space = p2_space, .push = p2_push,
    .peek = p2_peek, .pop = p2_pop, .putback = p2_putback, .len = p2_len, .tick = p2_tick, .idle = p2_idle, .stats = p2_stats,
    .reorders = 1,
};
