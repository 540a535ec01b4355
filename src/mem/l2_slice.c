/* L2 slice of one memory sub-partition. See l2_slice.h for the per-cycle order.
 * Choices:
 *  - the set index uses GPGPU-Sim's partition address (channel and sub-partition bits
 *    removed) through gms_cache_set_index_xform; tags and requests keep full addresses;
 *  - data port: a hit holds it ceil(bytes / port width) cycles, a miss that writes a dirty
 *    victim back floor(victim bytes / port width) cycles (GPGPU-Sim's use_data_port); a fill
 *    holds the fill port atom / port width cycles;
 *  - L2_BW counts 32 B per reply sector, as GPGPU-Sim's partiton_replys_in_parallel x 32. */
#include "mem/l2_slice.h"
#include "mem/memsys_tq.h"
#include <stdlib.h>

struct gms_l2_slice {
    gms_l2_slice_cfg cfg;
    gms_mreq_pool *pool;
    gms_cache *cache;
    int sector;
    int fow_one_turn;                 /* fetch-on-write: an allocate read and its write, one turn */
    uint32_t port_width, fill_cycles;
    uint32_t data_port, fill_port;    /* busy cycles left */
    gms_tq rop;
    const gms_l2q_ops *inq;
    void *inq_self;
    uint32_t accept_need;             /* free input queue entries the interconnect needs */
    int inq_busy;                     /* the queue's tick may still move a request (CART's fill) */
    uint32_t occ_len;                 /* requests held at the end of the last cycle */
    uint64_t occ_t;                   /* core cycle of the last cycle */
    gms_l2q_stats qst;                /* head-of-line stalls, occupancy (l2q.h) */
    gms_mreq_fifo to_dram, from_dram, to_icnt;
    uint64_t replies;
    uint64_t split_parents;
};

static uint64_t part_addr(void *ctx, uint64_t addr) { return gms_addrdec_partition_addr(ctx, addr); }

gms_l2_slice *gms_l2_slice_new(const gms_l2_slice_cfg *cfg, gms_mreq_pool *pool)
{
    gms_l2_slice *s = gms_xcalloc(1, sizeof *s);
    s->cfg = *cfg;
    s->pool = pool;
    if (cfg->cache && cfg->cache->enabled) {
        char name[32];
        snprintf(name, sizeof name, "L2_bank_%03u", cfg->id);
        s->cache = gms_cache_new(cfg->cache, pool, name, GMS_CACHE_L2);
        if (cfg->dec) gms_cache_set_index_xform(s->cache, part_addr, (void *)cfg->dec);
        s->sector = cfg->cache->type == 'S';
        s->fow_one_turn = cfg->cache->write_alloc == 'F';
        s->port_width = cfg->cache->data_port_width ? cfg->cache->data_port_width : cfg->cache->line;
        uint32_t atom = s->sector ? 32 : cfg->cache->line;
        s->fill_cycles = atom / s->port_width ? atom / s->port_width : 1;
    }
    s->inq = cfg->inq;
    gms_l2q_env env = { cfg->q_icnt_l2, cfg->id, cfg->dec, cfg->inq_params };
    s->inq_self = s->inq->create(&env);
    s->accept_need = cfg->q_icnt_l2 && cfg->q_icnt_l2 < 4 ? cfg->q_icnt_l2 : 4;
    s->to_dram.cap = cfg->q_l2_dram;
    s->from_dram.cap = cfg->q_dram_l2;
    s->to_icnt.cap = cfg->q_l2_icnt;
    return s;
}

void gms_l2_slice_free(gms_l2_slice *s)
{
    if (!s) return;
    gms_cache_free(s->cache);
    s->inq->destroy(s->inq_self);
    gms_tq_free(&s->rop);
    free(s);
}

int gms_l2_slice_can_accept(const gms_l2_slice *s)
{
    return s->inq->space(s->inq_self) >= s->accept_need;
}

static uint8_t sectors_of(const gms_mreq *r)
{
    if (r->sector_mask) return r->sector_mask;
    uint32_t first = (uint32_t)((r->addr >> 5) & 3), n = r->bytes ? (r->bytes + 31) / 32 : 1;
    uint8_t m = 0;
    for (uint32_t i = first; i < first + n && i < 4; i++) m |= (uint8_t)(1u << i);
    return m;
}

void gms_l2_slice_push(gms_l2_slice *s, gms_mreq *r, uint64_t now)
{
    uint8_t sm = sectors_of(r);
    if (!s->sector || __builtin_popcount(sm) <= 1) {
        gms_tq_push(&s->rop, r, now + s->cfg.rop_latency);
        return;
    }
    r->t_ready = (uint64_t)__builtin_popcount(sm);   /* children still out */
    s->split_parents++;
    for (uint32_t i = 0; i < 4; i++) {
        if (!(sm & (1u << i))) continue;
        gms_mreq *c = gms_mreq_alloc(s->pool);
        c->addr = (r->addr & ~(uint64_t)127) + 32 * i;
        c->bytes = 32;
        c->sector_mask = (uint8_t)(1u << i);
        c->kind = r->kind;
        c->access = r->access;
        c->bypass_l1 = r->bypass_l1;
        c->is_prefetch = r->is_prefetch;
        c->sm = GMS_L2_CHILD_SM;
        c->warp = r->warp;
        c->subpart = r->subpart;
        c->t_issue = r->t_issue;
        c->inst = r;
        gms_tq_push(&s->rop, c, now + s->cfg.rop_latency);
    }
}

/* the request is done at this level: reply up, or drop a write-back, or count a child */
static void complete(gms_l2_slice *s, gms_mreq *r)
{
    if (r->sm == GMS_L2_CHILD_SM && r->inst) {
        gms_mreq *parent = r->inst;
        gms_mreq_release(s->pool, r);
        if (--parent->t_ready) return;
        r = parent;
    }
    if (gms_acc_is_writeback(r->access)) {
        gms_mreq_release(s->pool, r);
        return;
    }
    r->is_reply = 1;
    gms_fifo_push(&s->to_icnt, r);
}

/* GPGPU-Sim's use_data_port for a MISS or HIT_RESERVED access: a dirty victim written back is
 * read out of the data array, holding the data port its modified bytes / port width cycles
 * (rounded down). The cache puts a write-back last on its miss queue (send_wrbk): the entries
 * past the mq_before that were there before the access are this access's own. */
static uint32_t victim_port_cycles(gms_l2_slice *s, uint32_t mq_before)
{
    uint32_t n = gms_cache_mq_size(s->cache), cyc = 0;
    if (n <= mq_before) return 0;
    gms_mreq *m = gms_cache_mq_head(s->cache);
    for (uint32_t i = 0; i < mq_before; i++) m = m->next;
    for (uint32_t i = mq_before; i < n; i++, m = m->next)
        if (gms_acc_is_writeback(m->access)) cyc += m->bytes / s->port_width;
    return cyc;
}

/* (the DRAM coordinates are decoded by the channel when it takes the request: memsys_chan.c) */
static void to_dram(gms_l2_slice *s, gms_mreq *m)
{
    m->subpart = s->cfg.id;
    gms_fifo_push(&s->to_dram, m);
}

static uint32_t reply_units(const gms_l2_slice *s, const gms_mreq *r)
{
    return s->sector ? (uint32_t)__builtin_popcount(sectors_of(r)) : 1;
}

void gms_l2_slice_settle_occupancy(gms_l2_slice *s, uint64_t now)
{
    if (now <= s->occ_t) return;
    s->qst.occ_integral += (uint64_t)s->occ_len * (now - s->occ_t);
    s->occ_t = now;
}

/* 0. the head of the L2->icnt queue to the interconnect (GPGPU-Sim pops it in the interconnect's
 * clock block: memsys.c decides on which edges) */
int gms_l2_slice_reply_out(gms_l2_slice *s)
{
    gms_mreq *r = gms_fifo_pop(&s->to_icnt);   /* popped first: the receiver may recycle it */
    if (!r) return 0;
    uint32_t units = reply_units(s, r);
    if (s->cfg.reply(s->cfg.reply_ud, s->cfg.id, r)) {
        s->replies += units;
        return 1;
    }
    r->next = s->to_icnt.head;                 /* refused: back at the head */
    s->to_icnt.head = r;
    if (!s->to_icnt.tail) s->to_icnt.tail = r;
    s->to_icnt.n++;
    return 0;
}

int gms_l2_slice_has_reply(const gms_l2_slice *s) { return s->to_icnt.n != 0; }

/* 1. one filled request goes up (GPGPU-Sim's next_access: the MSHR entry is released with its
 * last request). Fetch-on-write: GPGPU-Sim's MSHR holds only the allocate read, and the turn
 * that hands it out puts the write it carries (original_wr_mf) on the L2->icnt queue
 * (memory_sub_partition::cache_cycle); our MSHR holds the write right behind its allocate
 * read (gms_cache_next_access gives NULL for the read), so both go in the one turn */
static void hand_out_filled(gms_l2_slice *s, uint64_t now)
{
    if (!s->cache || !gms_cache_access_ready(s->cache) || gms_fifo_full(&s->to_icnt)) return;
    gms_mreq *f = gms_cache_next_access(s->cache, now);
    if (!f && s->fow_one_turn && gms_cache_access_ready(s->cache)) f = gms_cache_next_access(s->cache, now);
    if (f) complete(s, f);
}

void gms_l2_slice_cycle(gms_l2_slice *s, uint64_t now)
{
    gms_l2_slice_reply_out(s);
    gms_l2_slice_cache_cycle(s, now);
}

void gms_l2_slice_cache_cycle(gms_l2_slice *s, uint64_t now)
{
    /* the queue's length only changes inside this function: integrate it over the cycles
     * since the last call (skipped cycles included) */
    gms_l2_slice_settle_occupancy(s, now);
    gms_mreq *r;
    hand_out_filled(s, now);
    /* 2. DRAM -> L2 */
    r = s->from_dram.head;
    if (r) {
        int fills = s->cache && r->kind != GMS_MREQ_WRITE && !gms_acc_is_writeback(r->access) && !r->bypass_l2;
        if (fills) {
            if (!s->fill_port) {
                gms_fifo_pop(&s->from_dram);
                s->fill_port += s->fill_cycles;
                gms_cache_fill_ready(s->cache, r, now);
            }
        } else if (!gms_fifo_full(&s->to_icnt)) {
            gms_fifo_pop(&s->from_dram);
            r->bypass_l2 = 0;
            complete(s, r);
        }
    }
    /* 3. miss queue -> L2->DRAM; ports replenish (l2_cache::cycle) */
    if (s->cache) {
        if (gms_cache_mq_ready(s->cache, now) && !gms_fifo_full(&s->to_dram)) to_dram(s, gms_cache_mq_pop(s->cache));
        if (s->data_port) s->data_port--;
        if (s->fill_port) s->fill_port--;
    }
    /* 4. input queue -> L2 access. r leaves the queue before the access: the cache links a
     * primary miss into its miss queue (through r->next). GPGPU-Sim tries nothing while
     * L2->DRAM is full (gate_block); a reordering member may (-gms_l2q_dram_gate): then a hit
     * is served and a miss needs room in the cache's own miss queue, as it does anyway */
    int dram_full = gms_fifo_full(&s->to_dram);
    if (dram_full && (s->cfg.gate_block || !s->cache)) {
        if (s->occ_len) s->qst.stall[GMS_L2Q_STALL_TO_DRAM]++;
    } else if ((r = s->inq->peek(s->inq_self, now))) {
        if (!s->cache) {
            s->inq->pop(s->inq_self, r);
            to_dram(s, r);
        } else if (gms_fifo_full(&s->to_icnt)) {
            s->qst.stall[GMS_L2Q_STALL_TO_ICNT]++;
        } else if (s->data_port) {
            s->qst.stall[GMS_L2Q_STALL_PORT]++;
        } else {
            s->inq->pop(s->inq_self, r);
            gms_rf_cause cause;
            uint32_t mq_before = gms_cache_mq_size(s->cache);
            int ret = gms_cache_access(s->cache, r, now, &cause);
            gms_cache_outcome oc = GMS_CACHE_OUTCOME(ret);
            if (oc == GMS_CACHE_RESERVATION_FAIL && s->cfg.racb && r->kind == GMS_MREQ_READ && !dram_full) {
                /* RACB: a read goes around the cache (when L2->DRAM has room) and
                 * its reply goes up without a fill (step 2). Writes and atomics wait: a
                 * write around a dirty line would be lost to the next read */
                s->qst.racb++;
                r->bypass_l2 = 1;
                to_dram(s, r);
            } else if (oc == GMS_CACHE_RESERVATION_FAIL) {
                s->qst.stall[GMS_L2Q_STALL_RF]++;
                s->qst.rf[cause < 8 ? cause : 7]++;
                s->inq->putback(s->inq_self, r, now, (int)cause);
            } else {
                s->qst.accessed++;
                if (oc == GMS_CACHE_HIT) s->data_port += (r->bytes + s->port_width - 1) / s->port_width;
                else s->data_port += victim_port_cycles(s, mq_before);
                /* WAIT: the fill returns it; SENT alone: it went down and comes back as an
                 * ack (or is a write-back that ends in DRAM); neither: done here */
                if (!(ret & (GMS_CACHE_WAIT | GMS_CACHE_SENT))) complete(s, r);
            }
        }
    } else if (s->occ_len) {
        s->qst.stall[GMS_L2Q_STALL_NOTREADY]++;   /* held behind the queue's own stage */
    }
    /* 4b. a member with a stage behind its incoming buffer moves one request (CART's fill,
     * after the drain: at least one cycle more than the FIFO) */
    if (s->inq->tick) s->inq_busy = s->inq->tick(s->inq_self, now);
    /* 5. ROP -> input queue */
    if (gms_tq_ready(&s->rop, now) && s->inq->space(s->inq_self)) {
        gms_mreq *in = gms_tq_pop(&s->rop);
        s->inq->push(s->inq_self, in, now);
        /* a member's next tick may move what just came in (CART's fill): the slice must not
         * sleep on the tick above, which ran before the push */
        if (s->inq->tick) s->inq_busy = 1;
        if (s->cache) gms_cache_prefetch_access(s->cache, in);   /* host speed: its coming probe */
    }
    s->occ_len = s->inq->len(s->inq_self);
    if (s->occ_len > s->qst.max_held) s->qst.max_held = s->occ_len;
}

void gms_l2_slice_inq_stats(const gms_l2_slice *s, gms_l2q_stats *acc)
{
    for (int i = 0; i < GMS_L2Q_STALL__N; i++) acc->stall[i] += s->qst.stall[i];
    for (int i = 0; i < 8; i++) acc->rf[i] += s->qst.rf[i];
    acc->racb += s->qst.racb;
    acc->accessed += s->qst.accessed;
    acc->occ_integral += s->qst.occ_integral;
    acc->occ_cycles += s->occ_t;
    if (s->qst.max_held > acc->max_held) acc->max_held = s->qst.max_held;
    if (s->inq->stats) s->inq->stats(s->inq_self, acc);
}

uint64_t gms_l2_slice_next(const gms_l2_slice *s)
{
    if (s->to_icnt.n || (s->cache && gms_cache_access_ready(s->cache)) || s->from_dram.n || s->inq->len(s->inq_self) ||
        (s->cache && gms_cache_mq_size(s->cache)))
        return 0;
    return gms_tq_head_time(&s->rop);
}

/* Every step of gms_l2_slice_cycle is then idle: 0-2 have nothing queued, 3 and 4 need room
 * in to_dram (4 only when gated, or with nothing held), the ports count nothing down, and 5 waits for the ROP head or for room in the
 * input queue (which only step 4 makes). */
uint64_t gms_l2_slice_blocked_until(const gms_l2_slice *s)
{
    if (!s->cache || !gms_fifo_full(&s->to_dram) || s->inq_busy) return 0;
    if (!s->cfg.gate_block && s->inq->len(s->inq_self)) return 0;   /* step 4 tries them anyway */
    if (s->to_icnt.n || gms_cache_access_ready(s->cache) || s->from_dram.n || s->data_port || s->fill_port) return 0;
    if (!s->inq->space(s->inq_self)) return UINT64_MAX;
    return gms_tq_head_time(&s->rop);
}

int gms_l2_slice_stalls_to_dram(const gms_l2_slice *s)
{
    return s->cfg.gate_block && s->occ_len && gms_fifo_full(&s->to_dram);
}
void gms_l2_slice_slept(gms_l2_slice *s, uint64_t n, int to_dram_stalls)
{
    if (to_dram_stalls) s->qst.stall[GMS_L2Q_STALL_TO_DRAM] += n;
    if (s->inq->idle) s->inq->idle(s->inq_self, n);
}

gms_mreq *gms_l2_slice_to_dram_top(const gms_l2_slice *s) { return s->to_dram.head; }
gms_mreq *gms_l2_slice_to_dram_pop(gms_l2_slice *s) { return gms_fifo_pop(&s->to_dram); }
int gms_l2_slice_from_dram_full(const gms_l2_slice *s) { return gms_fifo_full(&s->from_dram); }
void gms_l2_slice_from_dram_push(gms_l2_slice *s, gms_mreq *r)
{
    /* host speed only: the fill (step 2, a later cycle) finds its MSHR entry and line in the
     * host cache */
    if (s->cache && r->kind != GMS_MREQ_WRITE && !r->bypass_l2) gms_cache_prefetch_fill(s->cache, r);
    gms_fifo_push(&s->from_dram, r);
}
gms_cache *gms_l2_slice_cache(const gms_l2_slice *s) { return s->cache; }
uint64_t gms_l2_slice_replies(const gms_l2_slice *s) { return s->replies; }

void gms_l2_slice_dump(const gms_l2_slice *s, FILE *out)
{
    fprintf(out, "    L2 slice %u: ROP %u, input queue %u, MSHRs in use %u, miss queue %u, to DRAM %u, from DRAM %u, "
            "filled %u, to icnt %u%s\n", s->cfg.id, s->rop.n, s->inq->len(s->inq_self),
            s->cache ? gms_cache_mshr_used(s->cache) : 0, s->cache ? gms_cache_mq_size(s->cache) : 0, s->to_dram.n,
            s->from_dram.n, s->cache ? gms_cache_access_ready(s->cache) : 0, s->to_icnt.n, s->to_icnt.n ? " (reply refused?)" : "");
    if (s->to_icnt.head)
        fprintf(out, "      oldest reply: addr 0x%llx sm %u, issued at core cycle %llu\n",
                (unsigned long long)s->to_icnt.head->addr, s->to_icnt.head->sm,
                (unsigned long long)s->to_icnt.head->t_issue);
}
