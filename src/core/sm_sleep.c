/* The SM's blocked ticks and sleep (host speed; sm.c's sm_tick_body calls in here). */
#include "core/sm_internal.h"
#include "mem/mrpb.h"

/* The blocked-tick shortcut (blocked_snap in sm_internal.h). sm_blocked_snapshot runs at the
 * end of a full tick at cycle T that keeps the SM active; it records a snapshot only if, with
 * nothing changing from outside, a full tick at any cycle c, T < c < until, would change
 * nothing but counters. Going through sm_tick_body at c from that state:
 *  - run_events: nothing if the wheel holds no release for c (checked at c: last_cycle is
 *    T + the fast ticks since, and the bucket of c is empty);
 *  - writeback: nothing (no next_wb, and no MSHR entry ready: none was at T's writeback, as
 *    it took no waiter, and none became ready since, as that needs a fill: a reply);
 *  - process_reply: nothing (no reply; a new one clears the snapshot);
 *  - drain_to_icnt (both): nothing while the interconnect refuses the heads or the MSHR
 *    access latency holds the L1 miss queue's head (gms_cache_mq_ready; checked at c:
 *    other components change that);
 *  - l1_access: every bank head that is ready at c was ready at T (the earliest other head's
 *    t_ready bounds `until`), was tried at T and failed, and no access succeeded at T; the
 *    L1 has not changed since (only this SM's ticks, fills and flushes change it), so each
 *    fails again the same way: a failed access only counts (gms_cache_count_reservation_fail);
 *  - lsu_feed: stalled at T on its first transaction (bank queue full: the queues do not
 *    move; bypass slots: they free with replies), so it stalls again;
 *  - memq_cycle: memq_frozen_until;
 *  - the schedulers: no candidate that may issue (sm_cands_may_issue: under SWL the others'
 *    picks fail at once, changing nothing) and no warp parked on a free slot (the slots do
 *    not move); the candidates stay as they are (blk.ncand: they change only in full ticks
 *    and through the events that end the snapshot);
 *  - the result: 1 again (the same state keeps the SM active).
 * A reply ends it (sm_blocked_tick sees replies.n); new blocks, translations (UVM:
 * gms_sm_translated), thread oversubscription's swaps (park_warps, wake_block) and L1
 * flushes or carve-out changes clear it. UVM's TLB lookups happen only in lsu_feed, which a
 * blocked SM does not reach past its stalled first transaction. The counters are those of
 * s->ctr, as the full tick's. */

/* the earliest cycle after `cycle` at which memq_cycle could do anything with the memq and
 * collector as they are (UINT64_MAX: never, until something else changes them); cycle or
 * less if it could at cycle + 1 */
static uint64_t memq_frozen_until(const gms_sm *s, uint64_t cycle)
{
    const gms_memq *q = &s->memq;
    if (s->aluc && (s->aluc->pending || s->aluc->reading)) return cycle;   /* ALU instructions and operand reads move every few cycles */
    if (s->scb && s->scb->nonempty) return cycle;   /* sub-core register banks: reads granted every step */
    uint64_t until = UINT64_MAX;
    uint32_t ex_sched = 0;   /* schedulers whose OC_EX_MEM slot is taken */
    const gms_memq_ent *oldest_idoc = NULL;
    for (uint32_t k = 0; k < q->n; k++) {
        const gms_memq_ent *e = &q->e[k];
        if (e->in_ex) {
            ex_sched |= 1u << e->sched;
            /* gms_memq_take: an idle LSU takes it once ready and free of shared-memory cycles */
            if (!s->lsu_busy) {
                uint64_t t = e->ready_at > s->lsu_free_at ? e->ready_at : s->lsu_free_at;
                if (t < until) until = t;
            }
        } else if (!e->collected) {
            if (!oldest_idoc) oldest_idoc = e;
            /* gms_memq_collect (no collector): moves on while its scheduler has room */
            if (!s->oc && (q->shared_w ? gms_memq_past_idoc(q) : q->collected[e->sched]) < s->memq_cap) return cycle;
        }
    }
    if (!s->oc) return until;
    /* gms_memq_dispatch: a unit's memory instruction moves on once ready if its scheduler's
     * OC_EX_MEM slot is free */
    for (uint32_t k = 0; k < q->n; k++) {
        const gms_memq_ent *e = &q->e[k];
        if (e->collected && !e->in_ex && !(ex_sched >> e->sched & 1u) && e->ready_at < until) until = e->ready_at;
    }
    /* a unit's other instruction dispatches once its operands are read and its OC_EX slot is free */
    for (uint32_t si = 0; si < s->nsched; si++) {
        const oc_sched *o = &s->oc[si];
        for (uint32_t held = s->oc_cu_held[si]; held; held &= held - 1) {
            uint32_t k = (uint32_t)__builtin_ctz(held);
            uint64_t t = o->cu_ready[k] > o->ex_free[o->cu_op[k]] ? o->cu_ready[k] : o->ex_free[o->cu_op[k]];
            if (t < until) until = t;
        }
    }
    /* allocate_cu (no time in it): the oldest instruction of each type waiting in an ID_OC slot
     * would take a free unit of its scheduler */
    if (oldest_idoc) {
        uint32_t si = oldest_idoc->sched;
        if ((uint32_t)__builtin_ctz(~(uint32_t)(s->oc_cu_held[si] | q->cu_mem[si])) < s->oc_cu) return cycle;
    }
    for (uint32_t t = s->oc_types; t; t &= t - 1) {
        uint32_t si = oc_oldest_sched(s, (uint32_t)__builtin_ctz(t));
        if (si == ~0u) continue;
        if ((uint32_t)__builtin_ctz(~(uint32_t)(s->oc_cu_held[si] | q->cu_mem[si])) < s->oc_cu) return cycle;
    }
    return until;
}

/* Host speed only (which ticks take the shortcut does not matter to the results): where the
 * blocked state seldom lasts (e.g. the interconnect takes a request every other cycle) an
 * attempt, or a snapshot that serves no tick, costs more than it saves. Each such waste
 * pauses the attempts for a number of candidate ticks that doubles up to BLK_BACKOFF_MAX; a
 * snapshot that serves a tick ends the pause. */
#define BLK_BACKOFF_MAX 15
void gms_sm_blocked_wasted(gms_sm *s)
{
    s->blk_backoff = (uint8_t)(s->blk_backoff * 2 + 1 < BLK_BACKOFF_MAX ? s->blk_backoff * 2 + 1 : BLK_BACKOFF_MAX);
    s->blk_skip = s->blk_backoff;
}

/* Sleeping through a snapshot (host speed: an SM refused bypass slots while far faults are
 * served waits tens of thousands of cycles). A snapshot whose blocked ticks could only end by
 * time (`until`, the register-release wheel: both are wake-ups) or by an event that activates
 * the SM (a reply, a translation, a new block, an L1 flush) needs no tick at all, provided
 * the interconnect plays no part (nothing waits to be sent: sm_blocked_tick's other test).
 * The SM goes idle and counts the ticks it slept through when it next ticks, or when the
 * statistics are read before (gms_sm_settle_all at a kernel's end). Thread
 * oversubscription looks at an active SM every few cycles: a sleeping one wakes for those
 * looks (sm_tick) and, if nothing changed, sleeps on. */
static int sm_may_sleep(const gms_sm *s)
{
    return !s->bypass_out.head && (!s->l1 || !gms_cache_mq_size(s->l1));
}

/* after a tick at `cycle` that leaves the SM in its snapshot: sleep through it if it may (1),
 * with wake-ups at the snapshot's end and the next register release */
int gms_sm_sleep(gms_sm *s, uint64_t cycle)
{
    if (!sm_may_sleep(s)) return 0;
    s->blk.sleep_from = cycle + 1;
    uint64_t wake = wake_or_release(s, cycle, s->blk.until);
    if (wake != UINT64_MAX) gms_engine_wake_at(s->g->eng, s->comp, wake);
    return 1;
}

__attribute__((noinline)) int gms_sm_blocked_snapshot_rest(gms_sm *s, uint64_t cycle)
{
    if (s->lsu_busy && s->tick_lsu == LSU_STALL_NONE) return 0;   /* it may feed next cycle */
    /* MRPB: a snapshot only with the buffer empty (it drains every cycle) and no L1 bank head
     * failing (a refused read may try MRPB's bypass, whose counts a blocked tick does not
     * replay): e.g. the LSU refused bypass slots while far faults are served */
    if (s->mrpb && (s->mrpb->n || s->tick_fail_mask)) return 0;
    /* the candidates: sm_cands_may_issue (under SWL those outside K do not count) */
    if (s->npark)
        for (uint32_t si = 0; si < s->nsched; si++)
            if (s->sc[si].n && sched_parked_ready(s, si)) return 0;
    uint64_t until = UINT64_MAX;
    for (uint32_t m = s->bank_busy & ~s->tick_fail_mask; m; m &= m - 1) {
        uint64_t t = s->bank[__builtin_ctz(m)].head->t_ready;   /* > cycle: not tried */
        if (t < until) until = t;
    }
    if (s->memq.n || s->oc_pending) {
        uint64_t t = memq_frozen_until(s, cycle);
        if (t < until) until = t;
    }
    if (s->shp.n) {   /* the shared-memory pipeline's head may take the write-back slot then */
        uint64_t t = gms_shpipe_ready_at(&s->shp);
        if (t < until) until = t;
    }
    if (until <= cycle + 1) return 0;
    s->blk.until = until;
    s->blk.ncand = s->ncand;
    s->blk_hit = 0;
    s->blk.fail_mask = s->tick_fail_mask;
    s->blk.lsu = s->lsu_busy ? s->tick_lsu : LSU_STALL_NONE;
    for (uint32_t m = s->tick_fail_mask; m; m &= m - 1) {
        uint32_t b = (uint32_t)__builtin_ctz(m);
        s->blk.cause[b] = s->tick_cause[b];
        if (s->l1_ev) s->blk_ev[b] = s->tick_ev[b];
    }
    return gms_sm_sleep(s, cycle) ? 2 : 1;
}

/* what n blocked ticks count (those of the snapshot b), the last of them at cycle `last`: the
 * counters of a full tick that finds the SM as the snapshot left it */
static inline void blocked_count(gms_sm *s, const blocked_snap *b, uint64_t n, uint64_t last)
{
    /* each of those ticks would have retried its refused L1D accesses, which moves the L1D's
     * clock (the MSHR table's occupancy integrals run to it when read: a run stopped early,
     * by -gpgpu_max_cycle say, reads them with the SM blocked) */
    if (b->fail_mask) gms_cache_clock_to(s->l1, last);
    for (uint32_t m = b->fail_mask; m; m &= m - 1) {
        uint32_t k = (uint32_t)__builtin_ctz(m);
        gms_cache_count_reservation_fails(s->l1, s->bank[k].head, (gms_rf_cause)b->cause[k], n);
        if (s->l1_ev) gms_cache_replay_mshr_events(s->l1, &s->blk_ev[k], n);
    }
    if (b->lsu != LSU_STALL_NONE) {
        if (b->lsu == LSU_STALL_SLOT) {
            if (s->l1) gms_cache_count_fails(s->l1, s->lsu_acc, GMS_RF_BYPASS_SLOT, n);
            s->bp.rsfail += n;
        }
        if (b->lsu == LSU_STALL_BANK) s->ctr->stall_gl_bank += n;
        s->ctr->stall_shd_mem += n;
    }
    s->blk_ticks += n;
}

/* a tick from a snapshot: 1 if done (the SM stays active), 0 if the full tick must run */
int gms_sm_blocked_tick(gms_sm *s, uint64_t cycle)
{
    const blocked_snap *b = &s->blk;
    if (cycle >= b->until || s->last_cycle + 1 != cycle || s->replies.n || s->ncand != b->ncand || s->fe_nwant) return 0;
    if (s->wheel_events && wheel_has(s, cycle)) return 0;
    gms_gpu *g = s->g;
    const gms_mreq *h = s->l1 ? gms_cache_mq_ready(s->l1, cycle) : NULL;
    if (h && gms_icnt_can_send(&g->icnt, s->icnt_port, h)) return 0;
    h = s->bypass_out.head;
    if (h && gms_icnt_can_send(&g->icnt, s->icnt_port, h)) return 0;
    /* what the full tick would count */
    s->last_cycle = cycle;
    s->op_busy = 0;
    blocked_count(s, b, 1, cycle);
    return 1;
}

/* count the blocked ticks slept through, cycles [sleep_from, upto), and go on from upto */
void gms_sm_sleep_settle(gms_sm *s, uint64_t upto)
{
    blocked_snap *b = &s->blk;
    if (upto > b->sleep_from) {
        blocked_count(s, b, upto - b->sleep_from, upto - 1);
        s->blk_hit = 1;
        s->last_cycle = upto - 1;
        b->sleep_from = upto;
    }
}

int gms_sm_any_asleep(gms_sm *const *sms, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (sms[i] && (sms[i]->blk.sleep_from || sms[i]->pipe_sleep)) return 1;
    return 0;
}

/* before the statistics are read: every sleeping SM counts the ticks it would have had by now */
void gms_sm_settle_all(gms_sm *const *sms, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        gms_sm *s = sms[i];
        if (s->blk.sleep_from) gms_sm_sleep_settle(s, gms_engine_next_tick_cycle(s->g->eng, s->comp));
    }
}

/* a change from outside that may end a snapshot: a sleeping SM must tick to see it */
void gms_sm_snapshot_clear(gms_sm *s)
{
    s->blk.until = 0;
    if (s->blk.sleep_from) gms_engine_activate(s->g->eng, s->comp);
}
