#include "mem/xbar.h"
#include "util/err.h"
#include <stdlib.h>
#include <string.h>

/* While a request is inside the network, icnt_flits holds its size in flits and t_ready
 * the interconnect cycle at which it has fully arrived at its output. With the iSLIP
 * arbiter (xbar_islip.c) buffers and port bandwidth count packets, not flits.
 * Host speed, iSLIP only: while a packet waits in an input buffer behind which another has
 * been queued, its t_ready holds the destination of that next packet (see gms_xbar_inject, xbar.h);
 * the switch overwrites t_ready when it moves the packet, so no one else ever sees it. */

void gms_xbar_init(gms_xbar *x, uint32_t nin, uint32_t nout, uint32_t in_limit, uint32_t out_limit,
                   uint32_t latency, gms_xbar_deliver_fn deliver, void *ud)
{
    memset(x, 0, sizeof *x);
    x->nin = nin;
    x->nout = nout;
    x->in_limit = in_limit ? in_limit : UINT32_MAX;
    x->out_limit = out_limit ? out_limit : UINT32_MAX;
    x->latency = latency;
    x->inq = gms_xcalloc(nin, sizeof *x->inq);
    x->outq = gms_xcalloc(nout, sizeof *x->outq);
    x->out_ready = gms_xcalloc(nout, sizeof *x->out_ready);
    for (uint32_t o = 0; o < nout; o++) x->out_ready[o] = UINT64_MAX;
    x->in_flits = gms_xcalloc(nin, sizeof *x->in_flits);
    x->out_flits = gms_xcalloc(nout, sizeof *x->out_flits);
    x->in_busy = gms_xcalloc(nin, sizeof *x->in_busy);
    x->out_busy = gms_xcalloc(nout, sizeof *x->out_busy);
    x->in_words = (nin + 63) / 64;
    x->out_words = (nout + 63) / 64;
    x->in_active = gms_xcalloc(x->in_words, sizeof *x->in_active);
    x->out_active = gms_xcalloc(x->out_words, sizeof *x->out_active);
    x->deliver = deliver;
    x->ud = ud;
}

void gms_xbar_set_islip(gms_xbar *x, int on)
{
    x->islip = on;
    free(x->next);
    free(x->want);
    free(x->want_n);
    free(x->out_want);
    x->next = x->want_n = NULL;
    x->want = x->out_want = NULL;
    if (!on) return;
    x->out_want = gms_xcalloc(x->out_words, sizeof *x->out_want);
    x->next = gms_xcalloc(x->nout, sizeof *x->next);
    x->want_n = gms_xcalloc(x->nout, sizeof *x->want_n);
    x->want = gms_xcalloc((size_t)x->nout * x->in_words, sizeof *x->want);
}

void gms_xbar_set_islip_once(gms_xbar *x, uint32_t abs_base, uint32_t abs_total)
{
    x->once = 1;
    x->abs_base = abs_base;
    x->abs_total = abs_total;
    free(x->held_in);
    free(x->held_dest);
    x->held_in = gms_xcalloc(x->nin, sizeof *x->held_in);
    x->held_dest = gms_xcalloc(x->nin, sizeof *x->held_dest);
    x->nheld = 0;
}

void gms_xbar_free(gms_xbar *x)
{
    free(x->inq); free(x->outq); free(x->out_ready); free(x->in_flits); free(x->out_flits);
    free(x->in_busy); free(x->out_busy); free(x->in_active); free(x->out_active);
    free(x->next); free(x->want); free(x->want_n); free(x->out_want);
    free(x->held_in); free(x->held_dest);
    memset(x, 0, sizeof *x);
}

/* hand output o's arrived packets (its head has arrived) to the receiver, in order, until it
 * refuses one. Host speed: the head is offered in place (not popped and pushed back when
 * refused); its link is cleared during the offer as a pop would, and restored if refused. */
static void deliver_ready(gms_xbar *x, uint32_t o, uint64_t now)
{
    gms_mreq_fifo *q = &x->outq[o];
    for (;;) {
        gms_mreq *r = q->head, *nxt = r->next;
        uint32_t fl = gms_xbar_units(x, r->icnt_flits);
        r->next = NULL;
        if (!x->deliver(x->ud, o, r)) {
            r->next = nxt;   /* refused: stays at the head */
            return;
        }
        q->head = nxt;
        q->n--;
        x->out_flits[o] -= fl;
        x->queued--;
        x->out_queued--;
        if (!nxt) {
            q->tail = NULL;
            x->out_ready[o] = UINT64_MAX;
            return;
        }
        x->out_ready[o] = nxt->t_ready;
        __builtin_prefetch(nxt->next);   /* host speed: the head after it, read at its delivery */
        if (x->islip || nxt->t_ready > now) return;   /* GPGPU-Sim: the receiver pops one packet per cycle */
    }
}

int gms_xbar_cycle(gms_xbar *x, uint64_t now)
{
    /* 1. hand arrived packets to their receivers, in order per output */
    for (uint32_t w = 0; w < x->out_words; w++) {
        uint64_t bits = x->out_active[w];
        while (bits) {
            uint32_t o = w * 64 + (uint32_t)__builtin_ctzll(bits);
            bits &= bits - 1;
            if (x->out_ready[o] > now) continue;   /* head not arrived (an active output is not empty) */
            deliver_ready(x, o, now);
            if (!x->outq[o].head) x->out_active[w] &= ~(1ULL << (o & 63));
        }
    }
    /* 2. switch allocation: active inputs in round-robin order from x->rr, one packet per free
     * input/output pair */
    if (x->queued && x->islip) {
        gms_xbar_islip_switch(x, now);
    } else if (x->queued) {
        uint32_t n = x->nin, start = x->rr;
        for (int pass = 0; pass < 2; pass++) {
            uint32_t lo = pass ? 0 : start, hi = pass ? start : n;
            for (uint32_t w = lo >> 6; w < x->in_words && w * 64 < hi; w++) {
                uint64_t bits = x->in_active[w];
                if (w == lo >> 6) bits &= ~0ULL << (lo & 63);
                while (bits) {
                    uint32_t i = w * 64 + (uint32_t)__builtin_ctzll(bits);
                    bits &= bits - 1;
                    if (i >= hi) break;
                    if (x->in_busy[i] > now) continue;
                    gms_mreq *r = x->inq[i].head;
                    uint32_t o = gms_xbar_dest(x, r);
                    uint32_t fl = r->icnt_flits;
                    if (x->out_busy[o] > now) continue;
                    if (x->out_flits[o] + fl > x->out_limit && x->out_flits[o] > 0) continue;
                    gms_fifo_pop(&x->inq[i]);
                    x->in_flits[i] -= fl;
                    x->in_queued--;
                    x->out_queued++;
                    if (!x->inq[i].head) x->in_active[i >> 6] &= ~(1ULL << (i & 63));
                    x->in_busy[i] = now + fl;
                    x->out_busy[o] = now + fl;
                    r->t_ready = now + fl + x->latency;
                    x->out_flits[o] += fl;
                    gms_xbar_out_push(x, o, r);
                    x->packets++;
                    x->flits += fl;
                }
            }
        }
        x->rr = x->rr + 1 < n ? x->rr + 1 : 0;
    }
    /* sampled after the transfers, as xbar_router::Advance does; an idle network is not
     * ticked, but then both buffers are empty */
    x->in_util += x->in_queued;
    x->out_util += x->out_queued;
    return x->queued != 0;
}

uint64_t gms_xbar_next_move(const gms_xbar *x, uint64_t now)
{
    if (x->in_queued) return 0;
    uint64_t t = UINT64_MAX;
    for (uint32_t w = 0; w < x->out_words; w++) {
        uint64_t bits = x->out_active[w];
        while (bits) {
            uint32_t o = w * 64 + (uint32_t)__builtin_ctzll(bits);
            bits &= bits - 1;
            if (x->out_ready[o] <= now) return 0;   /* arrived and refused: retried every cycle */
            if (x->out_ready[o] < t) t = x->out_ready[o];
        }
    }
    return t;
}

void gms_xbar_sleep_begin(gms_xbar *x)
{
    /* gms_xbar_cycle on a network with packets: the sums grow by the buffers' contents, and
     * the round-robin member's pointer moves by one (iSLIP's pointers move only on grants);
     * on an empty one (not ticked) nothing changes */
    int held = x->queued != 0;
    x->sl_in = held ? x->in_queued : 0;
    x->sl_out = held ? x->out_queued : 0;
    x->sl_rr = held && !x->islip;
}

void gms_xbar_slept(gms_xbar *x, uint64_t k)
{
    x->in_util += x->sl_in * k;
    x->out_util += x->sl_out * k;
    if (x->sl_rr) x->rr = (uint32_t)((x->rr + k % x->nin) % x->nin);
}
