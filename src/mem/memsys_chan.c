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

int gms_ms_chan_tick(void *self, uint64_t cycle)
{
    ms_chan *c = self;
    memsys *ms = c->ms;
    uint64_t core = gms_ms_core_now(ms);
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
    int waiting = 0;
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
        break;
    }
    /* 4 */
    const gms_dram_in *in = latq_ready(&c->latq, core);
    if (in && !gms_dram_chan_full(c->dram, in->is_write)) {
        gms_dram_chan_enter(c->dram, in, cycle);
        latq_pop(&c->latq);
    }
    if (!gms_dram_chan_idle(c->dram) || waiting) return 1;
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
    if (gms_dram_chan_idle(c->dram) && !c->latq.n) return;
    gms_dram_chan_dump(c->dram, out);
    fprintf(out, "      %u in the DRAM latency queue, shared credits %d of %d\n", c->latq.n, c->shared_credit,
            c->shared_limit);
}
