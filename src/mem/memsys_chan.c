/* Partition glue around one DRAM channel (GPGPU-Sim memory_partition_unit::dram_cycle), one
 * DRAM command cycle per tick:
 *   1. the oldest finished read goes to its sub-partition's DRAM->L2 queue (credit back)
 *   2. the channel cycles (dram.c); finished write-backs return their credit
 *   3. one request from the L2->DRAM queues (sub-partitions round robin after the last
 *      one served) enters the -dram_latency delay, if its sub-partition has a credit and
 *      room for the reply, and the scheduler is not full
 *   4. the head of the delay queue whose time has come enters the scheduler.
 * Credits (arbitration_metadata): each sub-partition one private credit, the rest shared:
 * scheduler queue + return queue - (n_sub - 1), unlimited if either queue is. */
#include "mem/memsys_impl.h"
#include "config/params.h"
#include "mem/dram_sched.h"
#include <stdlib.h>

int gms_ms_chan_init(memsys *ms, ms_chan *c, uint32_t id, const struct gms_params *p, gms_error *err)
{
    const gms_memsys_params *mp = &p->mem;
    const gms_dram_sched_ops *so = mp->dram_sched_name[0] ? gms_dram_sched_find(mp->dram_sched_name)
                                   : mp->dram_scheduler < gms_dram_sched_nregistry
                                       ? gms_dram_sched_registry[mp->dram_scheduler] : NULL;
    if (!so) return gms_err(err, "-gpgpu_dram_scheduler: unknown scheduler");
    c->ms = ms;
    c->id = id;
    gms_dram_sched_env env = {
        .nbk = mp->timing.nbk, .queue_size = mp->frfcfs_queue, .sep_write = mp->sep_write_queue,
        .wq_size = mp->wq_size, .wq_high = mp->wq_high, .wq_low = mp->wq_low,
    };
    c->dram = gms_dram_chan_new(id, &mp->timing, so, &env, mp->return_queue);
    c->priv_credit = gms_xcalloc(ms->nsp, sizeof *c->priv_credit);
    c->priv_limit = 1;
    c->shared_limit = (int32_t)mp->frfcfs_queue + (int32_t)mp->return_queue - (int32_t)(ms->nsp - 1);
    if (mp->sep_write_queue) c->shared_limit += (int32_t)mp->wq_size;
    if (!mp->frfcfs_queue || !mp->return_queue) c->shared_limit = 0;   /* unlimited */
    if (c->shared_limit < 0) c->shared_limit = 0;
    c->last_borrower = ms->nsp - 1;
    snprintf(c->name, sizeof c->name, "DRAM channel %u", id);
    return 0;
}

void gms_ms_chan_fini(ms_chan *c)
{
    gms_dram_chan_free(c->dram);
    free(c->latq.v);
    free(c->priv_credit);
}

static int has_credit(const ms_chan *c, uint32_t sp)
{
    return c->priv_credit[sp] < c->priv_limit || !c->shared_limit || c->shared_credit < c->shared_limit;
}

static void borrow(ms_chan *c, uint32_t sp)
{
    if (c->priv_credit[sp] < c->priv_limit) c->priv_credit[sp]++;
    else c->shared_credit++;
    c->last_borrower = sp;
}

static void give_back(ms_chan *c, uint32_t sp)
{
    if (c->priv_credit[sp] > 0) c->priv_credit[sp]--;
    else if (c->shared_credit > 0) c->shared_credit--;
}

static void latq_push(ms_latq *q, gms_dram_in in, uint64_t ready)
{
    if (q->n == q->cap) q->v = gms_ring_grow(q->v, &q->cap, &q->head, q->n, sizeof *q->v);
    q->v[(q->head + q->n) & (q->cap - 1)] = (ms_latq_ent){ in, ready };
    q->n++;
}

/* the head if it may leave at core cycle `now`, else NULL */
static const gms_dram_in *latq_ready(const ms_latq *q, uint64_t now)
{
    return q->n && q->v[q->head].ready <= now ? &q->v[q->head].in : NULL;
}

static void latq_pop(ms_latq *q)
{
    q->head = (q->head + 1) & (q->cap - 1);
    q->n--;
}

/* the first DRAM cycle at whose edge the core cycle count (gms_ms_core_now: core edges at or
 * before the instant, floor(instant / core period)) is at least `t`: edge k is at k x the DRAM
 * period, so k >= t x Pcore / Pdram, rounded up (exact, where gms_ms_convert may be a cycle
 * late or early) */
static uint64_t dram_cycle_reaching(const memsys *ms, uint64_t t)
{
    return (t * ms->core_period_fs + ms->dram_period_fs - 1) / ms->dram_period_fs;
}

void gms_ms_chan_settle(ms_chan *c, uint64_t dcyc)
{
    if (c->asleep) gms_dram_chan_settle(c->dram, dcyc);
}

/* Host speed (-gms_sleep_blocked): a busy channel whose next cycles can only count sleeps until
 * the first cycle that may do more, and counts the skipped cycles at its wake-up tick
 * (gms_dram_chan_cycle) or before its statistics are read (gms_ms_chan_settle). Why the
 * sleep is exact: a tick here does, in order, (1) a reply to its slice: none waits (the DRAM's
 * return queue is empty); (2) the DRAM cycle: nothing but counting before
 * gms_dram_chan_next_event's answer; (3) a request from a slice's L2->DRAM queue: this tick
 * took none, so each head waiting there is held back by its slice's full DRAM->L2 queue, by
 * credits or by a full scheduler, and the same slices are asked in the same order next cycle;
 * credits come back only with a reply or a finished write-back, and the scheduler frees room
 * only at a pick (DRAM events, below); a slice that pushes a request, or pops its full
 * DRAM->L2 queue, activates the channel (slice_tick), which then ticks at the next DRAM edge
 * as it would have seen the change; (4) the latency
 * queue's head enters the scheduler: not before the DRAM cycle at which the core reaches its
 * ready cycle (dram_cycle_reaching), and if it is ready but the scheduler is full, not before
 * a request leaves the scheduler, which takes a DRAM event. No credit, queue or scheduler
 * state changes in between, since only the channel's own ticks change them. The engine's wake-up
 * may come early (an activation): that tick is an ordinary one. Returns 0 (asleep) or 1. */
/* the answer was "the next cycle": ask again after 1, 2, 4, then every 8 ticks (ms_chan.ask_in) */
static int chan_stay(ms_chan *c)
{
    c->backoff = c->backoff ? (c->backoff < 8 ? 2 * c->backoff : 8) : 1;
    c->ask_in = c->backoff - 1;
    return 1;
}

static int chan_sleep(ms_chan *c, uint64_t cycle, uint64_t core)
{
    memsys *ms = c->ms;
    if (gms_dram_chan_return_top(c->dram)) return 1;
    if (c->ask_in) {
        c->ask_in--;
        return 1;
    }
    uint64_t w = gms_dram_chan_next_event(c->dram, cycle);
    if (w <= cycle + 1) return chan_stay(c);
    if (c->latq.n) {
        const ms_latq_ent *h = &c->latq.v[c->latq.head];
        if (h->ready <= core) {
            if (!gms_dram_chan_full(c->dram, h->in.is_write)) return chan_stay(c);
        } else {
            uint64_t l = dram_cycle_reaching(ms, h->ready);
            if (l <= cycle + 1) return chan_stay(c);
            if (l < w) w = l;
        }
    }
    /* nothing happens without a new request: tick on (the watchdog sees a channel that never
     * issues as busy, and the run's end waits for stranded writes) */
    if (w == UINT64_MAX) return 1;
    gms_engine_wake_at(ms->eng, c->comp, w);
    c->backoff = 0;
    c->asleep = 1;
    ms->chans_asleep++;
    return 0;
}

int gms_ms_chan_tick(void *self, uint64_t cycle)
{
    ms_chan *c = self;
    memsys *ms = c->ms;
    uint64_t core = gms_ms_core_now(ms);
    if (c->asleep) {
        c->asleep = 0;
        ms->chans_asleep--;
    }
    uint32_t base = c->id * ms->nsp;
    /* 1 */
    gms_mreq *r = gms_dram_chan_return_top(c->dram);
    if (r) {
        uint32_t sp = r->subpart - base;
        ms_slice *s = &ms->slices[r->subpart];
        if (!gms_l2_slice_from_dram_full(s->l2)) {
            gms_dram_chan_return_pop(c->dram);
            gms_l2_slice_from_dram_push(s->l2, r);
            give_back(c, sp);
            gms_engine_activate(ms->eng, s->comp);
            gms_engine_progress(ms->eng);
        }
    }
    /* 2 */
    gms_dram_chan_cycle(c->dram, cycle);
    while ((r = gms_dram_chan_done_pop(c->dram))) {
        give_back(c, r->subpart - base);
        gms_mreq_release(ms->pool, r);
        gms_engine_progress(ms->eng);
    }
    /* 3 */
    int waiting = 0, took = 0;
    for (uint32_t k = 0; k < ms->nsp; k++) {
        uint32_t sp = k + c->last_borrower + 1;   /* (k + last + 1) mod nsp, both terms < nsp */
        if (sp >= ms->nsp) sp -= ms->nsp;
        ms_slice *s = &ms->slices[base + sp];
        gms_mreq *m = gms_l2_slice_to_dram_top(s->l2);
        if (!m) continue;
        waiting = 1;
        if (gms_l2_slice_from_dram_full(s->l2) || !has_credit(c, sp)) continue;
        if (gms_dram_chan_full(c->dram, gms_dram_is_write(m))) break;
        gms_l2_slice_to_dram_pop(s->l2);
        gms_addrdec_dram at;
        gms_addrdec_dram_of(&ms->dec, m->addr, &at);
        latq_push(&c->latq, gms_dram_in_of(m, &at), core + ms->dram_latency);
        borrow(c, sp);
        gms_engine_activate(ms->eng, s->comp);   /* its L2->DRAM queue has room again */
        took = 1;
        break;
    }
    /* 4 */
    const gms_dram_in *in = latq_ready(&c->latq, core);
    if (in && !gms_dram_chan_full(c->dram, in->is_write)) {
        gms_dram_chan_enter(c->dram, in, cycle);
        latq_pop(&c->latq);
    }
    if (took) return 1;
    if (!gms_dram_chan_idle(c->dram) || waiting) return ms->sleep_blocked ? chan_sleep(c, cycle, core) : 1;
    for (uint32_t k = 0; k < ms->nsp; k++)
        if (gms_l2_slice_to_dram_top(ms->slices[base + k].l2)) return 1;
    if (c->latq.n) {
        uint64_t t = c->latq.v[c->latq.head].ready;
        if (t <= core) return 1;
        gms_engine_wake_at(ms->eng, c->comp, gms_ms_convert(ms, t, GMS_DOM_DRAM));
    }
    return 0;
}

void gms_ms_chan_report(void *self, FILE *out)
{
    ms_chan *c = self;
    gms_ms_chan_settle(c, gms_ms_dram_now(c->ms));
    if (gms_dram_chan_idle(c->dram) && !c->latq.n) return;
    gms_dram_chan_dump(c->dram, out);
    fprintf(out, "      %u in the DRAM latency queue, shared credits %d of %d\n", c->latq.n, c->shared_credit,
            c->shared_limit);
}
