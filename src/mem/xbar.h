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
    uint64_t queued;         /* packets anywhere in this network */
    gms_xbar_deliver_fn deliver;
    void *ud;
    /* stats */
    uint64_t packets, flits;
    uint64_t in_queued, out_queued;   /* packets in input / output buffers now */
    uint64_t in_util, out_util;       /* their sums over cycles (GPGPU-Sim in/out_buffer_util) */
} gms_xbar;

void gms_xbar_init(gms_xbar *x, uint32_t nin, uint32_t nout, uint32_t in_limit, uint32_t out_limit,
                   uint32_t latency, gms_xbar_deliver_fn deliver, void *ud);
void gms_xbar_free(gms_xbar *x);
int gms_xbar_can_inject(const gms_xbar *x, uint32_t in, uint32_t flits);
/* the packet's flit count travels in r->t_ready until it is scheduled */
void gms_xbar_inject(gms_xbar *x, uint32_t in, gms_mreq *r, uint32_t flits);
/* GPGPU-Sim's arbiter: 0 = round robin over inputs (the default member above), 1 = iSLIP
 * (xbar_islip.c); call before the first inject */
void gms_xbar_set_islip(gms_xbar *x, int on);
/* one cycle; returns 1 while packets remain */
int gms_xbar_cycle(gms_xbar *x, uint64_t now);

static inline uint32_t gms_xbar_dest(const gms_mreq *r) { return r->is_reply ? r->sm : r->subpart; }
/* iSLIP internals shared with xbar.c */
void gms_xbar_want(gms_xbar *x, uint32_t in, const gms_mreq *head, int set);
void gms_xbar_islip_switch(gms_xbar *x, uint64_t now);

#endif
