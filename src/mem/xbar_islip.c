/* The iSLIP switch allocation of GPGPU-Sim's local crossbar (local_interconnect.cc,
 * xbar_router::iSLIP_Advance, -network_mode 2 with -icnt_arbiter_algo 1):
 *  - outputs are visited in index order; an output with room in its buffer (counted in
 *    packets) grants the first input, round robin from its own pointer, whose head packet is
 *    for it, and moves that packet, whatever its size, in one cycle;
 *  - the pointer moves to the input after the one granted, so every output serves its
 *    competing inputs in turn (fair per output, unlike the round-robin member's one global
 *    pointer);
 *  - an input granted by one output shows its next head packet to the outputs visited after it
 *    in the same cycle, so an input may send several packets per cycle (to increasing output
 *    indices), as in GPGPU-Sim 4.x (-gms_icnt_islip multi, the default);
 *  - -gms_icnt_islip once is the version Accel-Sim's GPGPU-Sim has had since its 2024
 *    crossbar rewrite (a std::set of the inputs with packets, each erased when granted): an
 *    input sends at most one packet per cycle (its next head waits for the next cycle), and
 *    an output's search starts strictly after its pointer (std::upper_bound on the absolute
 *    node number), so the input just after the last one granted comes last.
 * `want` keeps, per output, the inputs whose head packet is for it, so a cycle costs one
 * bit scan per output with requests instead of a scan of all inputs. */
#include "mem/xbar.h"

/* first input at or after `from` (cyclically) whose head packet is for output o */
static uint32_t first_wanting(const gms_xbar *x, uint32_t o, uint32_t from)
{
    const uint64_t *w = &x->want[(size_t)o * x->in_words];
    uint32_t fw = from >> 6;
    uint64_t bits = w[fw] & (~0ULL << (from & 63));
    if (bits) return fw * 64 + (uint32_t)__builtin_ctzll(bits);
    for (uint32_t k = 1; k <= x->in_words; k++) {
        uint32_t wi = fw + k < x->in_words ? fw + k : fw + k - x->in_words;   /* (fw + k) % in_words */
        if (w[wi]) return wi * 64 + (uint32_t)__builtin_ctzll(w[wi]);
    }
    return UINT32_MAX;   /* not reached: want_n[o] > 0 */
}

/* output o, with room, takes the packet of the first input from its pointer wanting it */
static inline void grant(gms_xbar *x, uint32_t o, uint64_t now)
{
    uint32_t from = x->next[o];
    if (x->once) {
        /* next[o] is GPGPU-Sim's absolute node number; std::upper_bound starts strictly after
         * it, so the input right after the last one granted comes last (as there) */
        from = x->next[o] >= x->abs_base ? x->next[o] - x->abs_base + 1 : 0;
        if (from >= x->nin) from = 0;
    }
    uint32_t i = first_wanting(x, o, from);
    gms_mreq *r = gms_fifo_pop(&x->inq[i]);
    gms_xbar_want_clear(x, i, o);   /* r, input i's head, was for o */
    x->in_flits[i]--;
    x->in_queued--;
    x->out_queued++;
    /* the new head's destination was left in r->t_ready by gms_xbar_inject; with `once` the
     * input is done for this cycle, so its new head waits for the next one */
    if (!x->inq[i].head) x->in_active[i >> 6] &= ~(1ULL << (i & 63));
    else if (x->once) { x->held_in[x->nheld] = i; x->held_dest[x->nheld++] = (uint32_t)r->t_ready; }
    else gms_xbar_want_set(x, i, (uint32_t)r->t_ready);
    if (x->once) x->next[o] = (x->abs_base + i + 1) % x->abs_total;
    else x->next[o] = i + 1 < x->nin ? i + 1 : 0;
    r->t_ready = now + 1 + x->latency;
    x->out_flits[o]++;
    gms_xbar_out_push(x, o, r);
    x->packets++;
    x->flits += r->icnt_flits;
}

void gms_xbar_islip_switch(gms_xbar *x, uint64_t now)
{
    /* outputs with requests in index order; a grant may give a later output a new candidate,
     * so the rest of the word is read again after each output (only bits above o) */
    for (uint32_t w = 0; w < x->out_words; w++) {
        uint64_t bits = x->out_want[w];
        while (bits) {
            uint32_t o = w * 64 + (uint32_t)__builtin_ctzll(bits);
            if (x->out_flits[o] + 1 <= x->out_limit) grant(x, o, now);
            bits = x->out_want[w] & ~((2ULL << (o & 63)) - 1);   /* 2ULL << 63 == 0: none left */
        }
    }
    for (uint32_t k = 0; k < x->nheld; k++) gms_xbar_want_set(x, x->held_in[k], x->held_dest[k]);
    x->nheld = 0;
}
