/* The crossbar's iSLIP arbiter (-icnt_arbiter_algo 1, GPGPU-Sim xbar_router::iSLIP_Advance),
 * hand-computed: outputs visited in index order, a per-output round-robin pointer, an input
 * granted by one output may send its next packet to a later output in the same cycle, whole
 * packets per cycle, buffers counted in packets, the receiver takes one packet per cycle. */
#include "test.h"
#include "mem/xbar.h"

typedef struct { uint64_t cyc[16]; uint32_t out[16]; uint64_t tag[16]; int n; uint64_t now; } log_t;

static int deliver(void *ud, uint32_t out, gms_mreq *r)
{
    log_t *l = ud;
    l->cyc[l->n] = l->now;
    l->out[l->n] = out;
    l->tag[l->n] = r->addr;
    l->n++;
    return 1;
}

static void send(gms_xbar *x, gms_mreq *r, uint32_t in, uint32_t out, uint64_t tag, uint32_t flits)
{
    r->addr = tag;
    r->subpart = out;
    gms_xbar_inject(x, in, r, flits);
}

static void run(gms_xbar *x, log_t *l, uint64_t cycles)
{
    for (l->now = 0; l->now < cycles; l->now++) gms_xbar_cycle(x, l->now);
}

/* three inputs, two outputs: input 0 sends to output 0 then output 1, input 1 to output 0;
 * once: -gms_icnt_islip once on a request net (3 SMs = nodes 0-2, 2 sub-partitions) */
static void two_inputs_case(int once, log_t *l, uint64_t cycles)
{
    gms_xbar x;
    gms_mreq r[3] = {{0}};
    gms_xbar_init(&x, 3, 2, 8, 8, 0, deliver, l);
    gms_xbar_set_islip(&x, 1);
    if (once) gms_xbar_set_islip_once(&x, 0, 5);
    send(&x, &r[0], 0, 0, 10, 1);
    send(&x, &r[1], 0, 1, 11, 1);
    send(&x, &r[2], 1, 0, 20, 1);
    run(&x, l, cycles);
    gms_xbar_free(&x);
}

TEST(xbar_islip_input_sends_to_later_outputs_same_cycle)
{
    log_t l = {0};
    two_inputs_case(0, &l, 4);
    /* cycle 0: output 0 grants input 0, whose next packet is then granted by output 1;
     * cycle 1: both arrive; output 0 grants input 1; cycle 2: it arrives */
    CHECK_EQ(l.n, 3);
    CHECK_EQ(l.cyc[0], 1); CHECK_EQ(l.out[0], 0); CHECK_EQ(l.tag[0], 10);
    CHECK_EQ(l.cyc[1], 1); CHECK_EQ(l.out[1], 1); CHECK_EQ(l.tag[1], 11);
    CHECK_EQ(l.cyc[2], 2); CHECK_EQ(l.out[2], 0); CHECK_EQ(l.tag[2], 20);
}

TEST(xbar_islip_per_output_round_robin_whole_packets)
{
    gms_xbar x;
    log_t l = {0};
    gms_mreq r[6] = {{0}};
    /* output buffer of one packet: a 4-flit packet still fits (packets, not flits) */
    gms_xbar_init(&x, 3, 1, 8, 1, 0, deliver, &l);
    gms_xbar_set_islip(&x, 1);
    for (uint32_t i = 0; i < 3; i++) {
        send(&x, &r[2 * i], i, 0, 100 + 10 * i, 4);
        send(&x, &r[2 * i + 1], i, 0, 101 + 10 * i, 4);
    }
    run(&x, &l, 8);
    /* one packet per cycle whatever its size; the pointer moves past each grantee:
     * inputs 0, 1, 2, 0, 1, 2 */
    static const uint64_t want[6] = {100, 110, 120, 101, 111, 121};
    CHECK_EQ(l.n, 6);
    for (int k = 0; k < 6 && k < l.n; k++) {
        CHECK_EQ(l.tag[k], want[k]);
        CHECK_EQ(l.cyc[k], (uint64_t)k + 1);
    }
    CHECK_EQ(x.flits, 24);
    CHECK_EQ(x.packets, 6);
    gms_xbar_free(&x);
}

/* -gms_icnt_islip once (Accel-Sim's GPGPU-Sim since 2024): one packet per input per cycle, the
 * search from just after the pointer's absolute node number (std::upper_bound) */
TEST(xbar_islip_once_one_packet_per_input_per_cycle)
{
    log_t l = {0};
    two_inputs_case(1, &l, 5);
    /* cycle 0: output 0's pointer is node 0, the search starts after it: input 1 (pointer -> 2);
     * cycle 1: after node 2 there is none, so from the first: input 0, whose next head (for
     * output 1) waits for the next cycle; cycle 2: output 1 takes it. (multi: 10 and 11 in
     * cycle 0, 20 in cycle 1) */
    CHECK_EQ(l.n, 3);
    CHECK_EQ(l.cyc[0], 1); CHECK_EQ(l.out[0], 0); CHECK_EQ(l.tag[0], 20);
    CHECK_EQ(l.cyc[1], 2); CHECK_EQ(l.out[1], 0); CHECK_EQ(l.tag[1], 10);
    CHECK_EQ(l.cyc[2], 3); CHECK_EQ(l.out[2], 1); CHECK_EQ(l.tag[2], 11);
}

TEST(xbar_islip_once_search_starts_after_the_pointer)
{
    log_t l = {0};
    gms_mreq r[6] = {{0}};
    gms_xbar x;
    gms_xbar_init(&x, 3, 1, 8, 8, 0, deliver, &l);
    gms_xbar_set_islip(&x, 1);
    gms_xbar_set_islip_once(&x, 0, 4);
    for (uint32_t i = 0; i < 3; i++) {
        send(&x, &r[2 * i], i, 0, 100 + 10 * i, 1);
        send(&x, &r[2 * i + 1], i, 0, 101 + 10 * i, 1);
    }
    run(&x, &l, 8);
    /* pointer 0 -> input 1 (pointer 2) -> after 2: wrap, input 0 (pointer 1) -> input 2
     * (pointer 3) -> wrap, input 0 (pointer 1) -> input 2 -> input 1: the input just after
     * the last one granted is passed over, as GPGPU-Sim's upper_bound does */
    static const uint64_t want[6] = {110, 100, 120, 101, 121, 111};
    CHECK_EQ(l.n, 6);
    for (int k = 0; k < 6 && k < l.n; k++) {
        CHECK_EQ(l.tag[k], want[k]);
        CHECK_EQ(l.cyc[k], (uint64_t)k + 1);
    }
    gms_xbar_free(&x);

    /* a reply net: inputs are nodes 3 and 4 of 5; after node 3 the pointer is 4, after which
     * the search wraps to node 3 again */
    log_t m = {0};
    gms_xbar_init(&x, 2, 3, 8, 8, 0, deliver, &m);
    gms_xbar_set_islip(&x, 1);
    gms_xbar_set_islip_once(&x, 3, 5);
    send(&x, &r[0], 0, 0, 30, 1);
    send(&x, &r[1], 0, 0, 31, 1);
    send(&x, &r[2], 1, 0, 40, 1);
    send(&x, &r[3], 1, 0, 41, 1);
    for (m.now = 0; m.now < 6; m.now++) gms_xbar_cycle(&x, m.now);
    static const uint64_t want2[4] = {30, 31, 40, 41};
    CHECK_EQ(m.n, 4);
    for (int k = 0; k < 4 && k < m.n; k++) CHECK_EQ(m.tag[k], want2[k]);
    gms_xbar_free(&x);
}

/* Back-pressure, both arbiters: a receiver that refuses every other offer and small buffers;
 * every packet arrives once, each input's packets in their order, the output buffer stays
 * within its limit, and the counters return to zero. */
typedef struct { gms_xbar *x; int n, offers; uint64_t last[2]; int bad_order, over_limit; } bp_t;

static int deliver_half(void *ud, uint32_t out, gms_mreq *r)
{
    bp_t *b = ud;
    if (b->x->out_flits[out] > b->x->out_limit) b->over_limit++;
    if (b->offers++ % 2) return 0;
    uint32_t in = (uint32_t)(r->addr >> 8);
    if (r->addr <= b->last[in]) b->bad_order++;
    b->last[in] = r->addr;
    b->n++;
    return 1;
}

TEST(xbar_refusals_keep_order_and_counts)
{
    for (int arb = 0; arb < 3; arb++) {   /* round robin, iSLIP multi, iSLIP once */
        gms_xbar x;
        bp_t b = { .x = &x };
        gms_mreq r[2][40] = {{{0}}};
        gms_xbar_init(&x, 2, 1, 3, 2, 1, deliver_half, &b);
        gms_xbar_set_islip(&x, arb > 0);
        if (arb == 2) gms_xbar_set_islip_once(&x, 0, 3);
        int sent[2] = {0, 0};
        for (uint64_t now = 0; now < 1000 && b.n < 80; now++) {
            for (uint32_t in = 0; in < 2; in++) {
                if (sent[in] == 40 || !gms_xbar_can_inject(&x, in, 1)) continue;
                gms_mreq *q = &r[in][sent[in]];
                q->addr = ((uint64_t)in << 8) + 1 + (uint64_t)sent[in]++;
                q->subpart = 0;
                gms_xbar_inject(&x, in, q, 1);
                CHECK(x.in_flits[in] <= 3);
            }
            gms_xbar_cycle(&x, now);
        }
        CHECK_EQ(b.n, 80);
        CHECK_EQ(b.bad_order, 0);
        CHECK_EQ(b.over_limit, 0);
        CHECK_EQ(x.packets, 80);
        CHECK_EQ(x.queued, 0);
        CHECK_EQ(x.in_queued + x.out_queued, 0);
        CHECK_EQ(x.in_flits[0] + x.in_flits[1] + x.out_flits[0], 0);
        gms_xbar_free(&x);
    }
}

/* -gms_sleep_blocked: a network asleep until its next arrival (gms_xbar_next_move), settled
 * by gms_xbar_slept when it ticks again, ends as the one ticked every cycle: same deliveries
 * at the same cycles, same occupancy sums, same round-robin pointer. */
TEST(xbar_next_move_is_the_first_arrival)
{
    gms_xbar x;
    log_t l = {0};
    gms_mreq r = {0};
    gms_xbar_init(&x, 2, 2, 8, 8, 5, deliver, &l);
    send(&x, &r, 1, 0, 7, 2);
    CHECK_EQ(gms_xbar_next_move(&x, 0), 0);        /* in an input buffer: may move next cycle */
    gms_xbar_cycle(&x, 0);
    /* a 2-flit packet crossing at cycle 0 with latency 5 arrives at 0 + 2 + 5 = 7 */
    CHECK_EQ(gms_xbar_next_move(&x, 0), 7);
    CHECK_EQ(x.rr, 1);
    gms_xbar_sleep_begin(&x);
    gms_xbar_slept(&x, 6);                          /* cycles 1..6 */
    CHECK_EQ(x.out_util, 7);                        /* one packet in an output buffer, cycles 0..6 */
    CHECK_EQ(x.in_util, 0);
    CHECK_EQ(x.rr, 1);                              /* (1 + 6) mod 2 */
    l.now = 7;
    CHECK_EQ(gms_xbar_cycle(&x, 7), 0);
    CHECK_EQ(l.n, 1);
    CHECK_EQ(l.cyc[0], 7);
    CHECK_EQ(gms_xbar_next_move(&x, 7), UINT64_MAX);   /* empty */
    gms_xbar_free(&x);
}

/* b sleeps as the interconnect component does (icnt.c), a ticks every cycle while it holds
 * packets; injections at cycles 0, 20, 24 and 27 (the last two while b sleeps with packets on
 * the wires: they wake it, and count from that tick on). The
 * receiver refuses every third offer, so an arrived head may wait (next_move 0). */
typedef struct { log_t l; int calls; } refl_t;
static int deliver_refusing(void *ud, uint32_t out, gms_mreq *r)
{
    refl_t *f = ud;
    if (++f->calls % 3 == 0) return 0;
    return deliver(&f->l, out, r);
}

TEST(xbar_sleeping_network_matches_the_ticked_one)
{
    for (int arb = 0; arb < 3; arb++) {   /* round robin, iSLIP multi, iSLIP once */
        gms_xbar xa, xb;
        refl_t fa = {0}, fb = {0};
        gms_mreq ra[8] = {{0}}, rb[8] = {{0}};
        gms_xbar_init(&xa, 3, 2, 8, 8, 5, deliver_refusing, &fa);
        gms_xbar_init(&xb, 3, 2, 8, 8, 5, deliver_refusing, &fb);
        gms_xbar_set_islip(&xa, arb > 0);
        gms_xbar_set_islip(&xb, arb > 0);
        if (arb == 2) { gms_xbar_set_islip_once(&xa, 0, 5); gms_xbar_set_islip_once(&xb, 0, 5); }
        static const uint64_t at[8] = {0, 0, 0, 20, 20, 20, 24, 27};
        static const uint32_t in[8] = {0, 1, 0, 2, 1, 0, 1, 2}, out[8] = {0, 1, 1, 0, 0, 1, 1, 1};
        uint64_t wake = UINT64_MAX, sleep_cycle = 0, ticks_b = 0, woken_by_send = 0;
        int b_active = 0, asleep = 0;
        for (uint64_t now = 0; now < 80; now++) {
            for (int k = 0; k < 8; k++) {
                if (at[k] != now) continue;
                send(&xa, &ra[k], in[k], out[k], 100 + (uint64_t)k, 1 + (uint32_t)k % 3);
                send(&xb, &rb[k], in[k], out[k], 100 + (uint64_t)k, 1 + (uint32_t)k % 3);
                woken_by_send += asleep && xb.queued > 1;
                b_active = 1;
            }
            fa.l.now = fb.l.now = now;
            if (xa.queued) gms_xbar_cycle(&xa, now);
            if (now == wake) { wake = UINT64_MAX; b_active = 1; }
            if (!b_active) continue;
            ticks_b++;
            if (asleep) { gms_xbar_slept(&xb, now - sleep_cycle - 1); asleep = 0; }
            b_active = gms_xbar_cycle(&xb, now);
            uint64_t t = b_active ? gms_xbar_next_move(&xb, now) : 0;
            if (t > now + 1) {   /* sleep until t */
                if (t < wake) wake = t;
                asleep = 1;
                sleep_cycle = now;
                gms_xbar_sleep_begin(&xb);
                b_active = 0;
            }
        }
        CHECK_EQ(fa.l.n, 8);
        CHECK_EQ(fb.l.n, fa.l.n);
        for (int k = 0; k < fa.l.n; k++) {
            CHECK_EQ(fb.l.cyc[k], fa.l.cyc[k]);
            CHECK_EQ(fb.l.tag[k], fa.l.tag[k]);
            CHECK_EQ(fb.l.out[k], fa.l.out[k]);
        }
        CHECK_EQ(xb.in_util, xa.in_util);
        CHECK_EQ(xb.out_util, xa.out_util);
        CHECK_EQ(xb.rr, xa.rr);
        CHECK(xb.out_util > 0);
        CHECK(ticks_b < 40);
        CHECK(woken_by_send > 0);   /* it did sleep (a ticks at most of the 80 cycles) */
        gms_xbar_free(&xa);
        gms_xbar_free(&xb);
    }
}
