/* One direction of the crossbar interconnect (GPGPU-Sim's local crossbar, -network_mode 2).
 * Two arbiters: iSLIP (xbar_islip.c, -icnt_arbiter_algo 1, GPGPU-Sim's semantics) and this
 * file's round robin (0, simplified, flit-based): per-input packet queues bounded in flits, one flit per cycle per input and per
 * output port (a packet of k flits holds both ports for k cycles), round-robin arbitration
 * between inputs, a fixed traversal latency, per-output buffers bounded in flits, and
 * back-pressure from the receiver (deliver may refuse). Times are interconnect cycles. */
#ifndef GMS_MEM_XBAR_H
#define GMS_MEM_XBAR_H
#include <stdint.h>
#include "mem/mreq.h"

typedef int (*gms_xbar_deliver_fn)(void *ud, uint32_t out, gms_mreq *r);  /* 0 = refused */

typedef struct gms_xbar {
    uint32_t nin, nout;
    uint32_t in_limit, out_limit, latency;
    gms_mreq_fifo *inq;
    uint32_t *in_flits, *out_flits;
    uint64_t *in_busy, *out_busy;
    gms_mreq_fifo *outq;
    /* Host speed: per output, its head packet's t_ready (UINT64_MAX when empty), so that
     * delivery skips an output whose head has not arrived without loading the head request */
    uint64_t *out_ready;
    uint64_t *in_active;     /* bitmap of inputs with queued packets */
    uint64_t *out_active;    /* bitmap of outputs with packets in flight or waiting */
    uint32_t in_words, out_words;
    uint32_t rr;
    /* iSLIP arbiter (-icnt_arbiter_algo 1, xbar_islip.c) */
    int islip;
    uint32_t *next;          /* per output: input to look at first */
    uint64_t *want;          /* per output, in_words words: inputs whose head packet is for it */
    uint32_t *want_n;        /* per output: number of such inputs */
    uint64_t *out_want;      /* bitmap of outputs with want_n > 0 */
    /* -gms_icnt_islip once: each input sends at most one packet per cycle (xbar_islip.c) */
    int once;
    uint32_t abs_base, abs_total;    /* GPGPU-Sim's node numbering: this net's inputs are abs_base.. */
    uint32_t *held_in, *held_dest, nheld;   /* inputs granted this cycle: their next heads wait */
    uint64_t queued;         /* packets anywhere in this network */
    gms_xbar_deliver_fn deliver;
    void *ud;
    /* the reply net with several SMs per cluster: a reply's output is its SM's cluster
     * (reply_port[sm], gms_xbar_set_reply_ports); NULL: the SM itself */
    const uint16_t *reply_port;
    /* stats */
    uint64_t packets, flits;
    uint64_t in_queued, out_queued;   /* packets in input / output buffers now */
    uint64_t in_util, out_util;       /* their sums over cycles (GPGPU-Sim in/out_buffer_util) */
    /* gms_xbar_sleep_begin: per cycle slept through, the sums' growth and the round-robin
     * pointer's step (1 if the network held packets, as gms_xbar_cycle moves it then) */
    uint64_t sl_in, sl_out;
    uint32_t sl_rr;
} gms_xbar;

void gms_xbar_init(gms_xbar *x, uint32_t nin, uint32_t nout, uint32_t in_limit, uint32_t out_limit,
                   uint32_t latency, gms_xbar_deliver_fn deliver, void *ud);
void gms_xbar_free(gms_xbar *x);
/* GPGPU-Sim's arbiter: 0 = round robin over inputs (the default member above), 1 = iSLIP
 * (xbar_islip.c); call before the first inject */
void gms_xbar_set_islip(gms_xbar *x, int on);
/* iSLIP as in Accel-Sim's GPGPU-Sim since its 2024 crossbar rewrite (xbar_islip.c): each input
 * sends at most one packet per cycle, and the search starts after the pointer. abs_base is
 * the absolute node number of input 0 (0 for the request net, the SM count for the reply
 * net), abs_total the nodes of the network (SMs + sub-partitions). Call after set_islip. */
void gms_xbar_set_islip_once(gms_xbar *x, uint32_t abs_base, uint32_t abs_total);
/* one cycle; returns 1 while packets remain */
int gms_xbar_cycle(gms_xbar *x, uint64_t now);
/* Host speed (-gms_sleep_blocked): after the cycle `now`, the first cycle at which the network
 * can move anything on its own: 0 if that may be the next one (a packet in an input buffer, or
 * an arrived packet its receiver refused), else the earliest arrival at an output
 * (UINT64_MAX: empty). Until then a cycle changes only what gms_xbar_slept accounts for. */
uint64_t gms_xbar_next_move(const gms_xbar *x, uint64_t now);
/* the network goes to sleep after a cycle: what every cycle slept through would have counted
 * is what it holds now (an injection during the sleep counts from the next tick, which it
 * causes, as in a network ticked every cycle) */
void gms_xbar_sleep_begin(gms_xbar *x);
/* the effect of k cycles slept through, as k calls of gms_xbar_cycle would have had: the
 * buffer-occupancy sums and the round-robin pointer */
void gms_xbar_slept(gms_xbar *x, uint64_t k);
/* the occupancy sums as they would be after k cycles slept through (statistics read while asleep) */
static inline uint64_t gms_xbar_in_util_after(const gms_xbar *x, uint64_t k)
{
    return x->in_util + x->sl_in * k;
}
static inline uint64_t gms_xbar_out_util_after(const gms_xbar *x, uint64_t k)
{
    return x->out_util + x->sl_out * k;
}

static inline uint32_t gms_xbar_dest(const gms_xbar *x, const gms_mreq *r)
{
    if (!r->is_reply) return r->subpart;
    return x->reply_port ? x->reply_port[r->sm] : r->sm;
}

/* append r (t_ready set) to output o's buffer */
static inline void gms_xbar_out_push(gms_xbar *x, uint32_t o, gms_mreq *r)
{
    if (!x->outq[o].head) x->out_ready[o] = r->t_ready;
    gms_fifo_push(&x->outq[o], r);
    x->out_active[o >> 6] |= 1ULL << (o & 63);
}

/* iSLIP internals shared with xbar.c: input `in`'s head packet is (set) or is no longer
 * (clear) for output o */
static inline void gms_xbar_want_set(gms_xbar *x, uint32_t in, uint32_t o)
{
    x->want[(size_t)o * x->in_words + (in >> 6)] |= 1ULL << (in & 63);
    x->want_n[o]++;
    x->out_want[o >> 6] |= 1ULL << (o & 63);
}
static inline void gms_xbar_want_clear(gms_xbar *x, uint32_t in, uint32_t o)
{
    x->want[(size_t)o * x->in_words + (in >> 6)] &= ~(1ULL << (in & 63));
    if (!--x->want_n[o]) x->out_want[o >> 6] &= ~(1ULL << (o & 63));
}
void gms_xbar_islip_switch(gms_xbar *x, uint64_t now);

/* buffer and port units of a packet: flits, or 1 with iSLIP (which counts packets) */
static inline uint32_t gms_xbar_units(const gms_xbar *x, uint32_t flits) { return x->islip ? 1 : flits; }

/* injection, inline (host speed: called per request from icnt.c) */
static inline int gms_xbar_can_inject(const gms_xbar *x, uint32_t in, uint32_t flits)
{
    return x->in_flits[in] + gms_xbar_units(x, flits) <= x->in_limit || x->in_flits[in] == 0;
}

/* the same, with a packet of pend_flits (0: none) sent to input `in` earlier in this cycle
 * but not injected yet (deferred by a parallel phase) */
static inline int gms_xbar_can_inject_after(const gms_xbar *x, uint32_t in, uint32_t pend_flits, uint32_t flits)
{
    uint32_t have = x->in_flits[in] + (pend_flits ? gms_xbar_units(x, pend_flits) : 0);
    return have + gms_xbar_units(x, flits) <= x->in_limit || have == 0;
}

/* the packet's flit count travels in r->icnt_flits; with iSLIP the packet queued before r
 * in input `in` keeps r's destination in its t_ready until it is scheduled (xbar.c) */
static inline void gms_xbar_inject(gms_xbar *x, uint32_t in, gms_mreq *r, uint32_t flits)
{
    r->icnt_flits = (uint16_t)flits;
    if (x->islip) {
        /* Host speed: the switch learns the next head's destination from the packet it moves
         * (whose line it reads anyway) instead of loading the next head's cold line; the tail's
         * line is written by the push below anyway */
        gms_mreq *t = x->inq[in].tail;
        if (t) t->t_ready = gms_xbar_dest(x, r);
        else gms_xbar_want_set(x, in, gms_xbar_dest(x, r));
    }
    gms_fifo_push(&x->inq[in], r);
    x->in_flits[in] += gms_xbar_units(x, flits);
    x->in_active[in >> 6] |= 1ULL << (in & 63);
    x->queued++;
    x->in_queued++;
}

#endif
