/* The memory partitions behind the interconnect (gms_memsys, memsys.h): n_mem channels, each
 * with n_sub L2 slices (l2_slice.c, L2 clock domain) and one DRAM channel with its
 * partition glue (memsys_chan.c, DRAM clock domain). Address -> sub-partition and DRAM
 * coordinates come from the address decoder (addrdec.h). Components go idle when they have
 * nothing to do; a slice waiting only on its ROP delay sleeps until then. */
#include "mem/memsys_impl.h"
#include "config/params.h"
#include "mem/dram_sched.h"
#include <stdio.h>
#include <stdlib.h>

/* (This was max(now_fs / P, (now_fs - 1) / P) with P the engine's own core period: the
 * second term is never the larger, so it is the engine's core cycle.) */
uint64_t gms_ms_core_now(const memsys *ms)
{
    return gms_engine_cycle(ms->eng, GMS_DOM_CORE);
}

uint64_t gms_ms_convert(const memsys *ms, uint64_t t, gms_domain to)
{
    uint64_t core = gms_ms_core_now(ms), cur = gms_engine_cycle(ms->eng, to);
    if (t <= core) return cur + 1;
    double f = to == GMS_DOM_L2 ? ms->l2_mhz : to == GMS_DOM_DRAM ? ms->dram_mhz : ms->core_mhz;
    uint64_t d = (uint64_t)((double)(t - core) * f / ms->core_mhz);
    return cur + (d ? d : 1);
}

static uint32_t ms_subpart_of(void *self, uint64_t addr)
{
    memsys *ms = self;
    return gms_addrdec_subpart(&ms->dec, addr);
}

static int ms_can_accept(void *self, uint32_t subpart)
{
    memsys *ms = self;
    return ms->accept[subpart] && ms->pushed_l2[subpart] != gms_engine_cycle(ms->eng, GMS_DOM_L2) + 1;
}

/* The busiest partition's requests in the window ending now (spec 001 3.x, partition
 * camping: at any moment most requests go to one partition, though over a whole run a
 * strided walk may visit every partition equally, so whole-run shares do not show it). */
static void share_close(memsys *ms)
{
    uint32_t top = 0;
    for (uint32_t c = 0; c < ms->nch; c++) {
        if (ms->share_cnt[c] > top) top = ms->share_cnt[c];
        ms->share_all += ms->share_cnt[c];
        ms->share_cnt[c] = 0;
    }
    ms->share_top += top;
}

static void ms_push(void *self, uint32_t subpart, gms_mreq *r)
{
    memsys *ms = self;
    uint64_t now = gms_ms_core_now(ms);
    /* No DRAM decode here: nothing above the DRAM reads bank/row/col; the channel decodes
     * every request it takes from a slice (memsys_chan.c), whose address may differ from
     * r's (sector children, write-backs, the MSHR key). */
    r->subpart = subpart;
    ms->pushed_l2[subpart] = gms_engine_cycle(ms->eng, GMS_DOM_L2) + 1;
    ms_slice *s = &ms->slices[subpart];
    if (now >> GMS_MS_SHARE_WINDOW_LOG2 != ms->share_win) {
        share_close(ms);
        ms->share_win = now >> GMS_MS_SHARE_WINDOW_LOG2;
    }
    ms->share_cnt[s->chan]++;
    if (ms->staging) {
        if (ms->nstaged == ms->capstaged) {
            ms->capstaged = ms->capstaged ? ms->capstaged * 2 : 256;
            ms->staged = gms_xrealloc(ms->staged, ms->capstaged * sizeof *ms->staged);
        }
        ms->staged[ms->nstaged++] = (struct ms_staged){ r, now, subpart };
    } else {
        gms_l2_slice_push(s->l2, r, now);
    }
    gms_engine_activate(ms->eng, s->comp);
}

static void ms_stage(void *self, int on) { ((memsys *)self)->staging = on; }

/* the pushes recorded since the last hand-over: the slices tick next after the interconnect
 * edge that made them, so doing them now is what the serial order did */
static void ms_hand_over(void *self)
{
    memsys *ms = self;
    uint32_t n = ms->nstaged;
    if (!n) return;
    /* their requests were written on the other host thread: ask for all of them at once */
    for (uint32_t i = 0; i < n; i++) __builtin_prefetch(ms->staged[i].r);
    for (uint32_t i = 0; i < n; i++) {
        const struct ms_staged *st = &ms->staged[i];
        gms_l2_slice_push(ms->slices[st->subpart].l2, st->r, st->now);
    }
    ms->nstaged = 0;
}

/* a sleeping slice's skipped cycles (sleep_cycle, upto): what each would have counted had the
 * slice ticked (a to-DRAM stall; the input queue's fill stalls). Nothing moves while it
 * sleeps, so every skipped cycle counts the same. Called at the wake-up tick, and before the
 * statistics are read (gms_ms_report), so they never depend on -gms_sleep_blocked. */
void gms_ms_slice_settle(ms_slice *s, uint64_t upto)
{
    if (upto <= s->sleep_cycle + 1) return;
    gms_l2_slice_slept(s->l2, upto - s->sleep_cycle - 1, s->sleep_stalls);
    s->sleep_cycle = upto - 1;
}

/* The L2->icnt pops. GPGPU-Sim pops every sub-partition's L2->icnt head in the interconnect
 * clock block of gpgpu_sim::cycle, which runs before the L2's block when both have an edge,
 * and pushes the reply into the network, which moves it in the same cycle. Here the pop for an
 * interconnect edge e is made at the last point before e that can change what it reads (the
 * L2->icnt queues change only in slice ticks, the reply network's inputs only in interconnect
 * ticks), so the reply is in the network when e ticks even if the interconnect was idle:
 *  - e shares the instant with an L2 edge: the slice's tick, before its cache cycle;
 *  - else the last L2 edge before e comes after the interconnect edge before e: that L2 tick,
 *    after its cache cycle (pop_ahead_of_l2);
 *  - else: reply_pop, ticking after the interconnect at the edge before e (interconnect faster
 *    than the L2 only).
 * Edges are at the multiples of a domain's period (engine.c). */
static inline int edge_at(uint64_t t, uint64_t period_fs) { return t % period_fs == 0; }
static inline uint64_t next_edge(uint64_t t, uint64_t period_fs) { return (t / period_fs + 1) * period_fs; }

/* in an L2 tick: after the cache cycle, pop for the next interconnect edge? */
static int pop_ahead_of_l2(const memsys *ms, uint64_t now_fs)
{
    return !edge_at(now_fs, ms->icnt_period_fs) &&
           next_edge(now_fs, ms->icnt_period_fs) < now_fs + ms->l2_period_fs;
}

static int slice_tick(void *self, uint64_t cycle)
{
    ms_slice *s = self;
    memsys *ms = s->ms;
    uint64_t before = gms_l2_slice_replies(s->l2);
    if (s->asleep) {
        gms_ms_slice_settle(s, gms_engine_cycle(ms->eng, GMS_DOM_L2));
        s->asleep = 0;
    }
    /* the L2->icnt pops that are this tick's (see edge_at above) */
    if (ms->icnt_period_fs == ms->l2_period_fs) {   /* every L2 edge an interconnect edge */
        gms_l2_slice_reply_out(s->l2);
        gms_l2_slice_cache_cycle(s->l2, gms_ms_core_now(ms));
    } else {
        uint64_t now_fs = gms_engine_time_fs(ms->eng);
        if (edge_at(now_fs, ms->icnt_period_fs)) gms_l2_slice_reply_out(s->l2);
        gms_l2_slice_cache_cycle(s->l2, gms_ms_core_now(ms));
        if (pop_ahead_of_l2(ms, now_fs)) gms_l2_slice_reply_out(s->l2);
    }
    ms->accept[s - ms->slices] = (uint8_t)gms_l2_slice_can_accept(s->l2);
    if (gms_l2_slice_replies(s->l2) != before) gms_engine_progress(ms->eng);
    if (ms->reply_pop && gms_l2_slice_has_reply(s->l2)) gms_engine_activate(ms->eng, ms->reply_pop);
    if (gms_l2_slice_to_dram_top(s->l2)) gms_engine_activate(ms->eng, ms->chans[s->chan].comp);
    uint64_t next = gms_l2_slice_next(s->l2);
    if (!next) {
        /* host speed: blocked towards DRAM, nothing else to do; the channel activates the
         * slice when it takes from its L2->DRAM queue, the interconnect when it delivers */
        uint64_t t = ms->sleep_blocked ? gms_l2_slice_blocked_until(s->l2) : 0;
        if (!t) return 1;
        if (t != UINT64_MAX) {
            uint64_t w = gms_ms_convert(ms, t, GMS_DOM_L2);
            if (w <= gms_engine_cycle(ms->eng, GMS_DOM_L2) + 1) return 1;
            gms_engine_wake_at(ms->eng, s->comp, w);
        }
        s->sleep_cycle = gms_engine_cycle(ms->eng, GMS_DOM_L2);
        s->sleep_stalls = gms_l2_slice_stalls_to_dram(s->l2);
        s->asleep = 1;
        return 0;
    }
    if (next != UINT64_MAX) gms_engine_wake_at(ms->eng, s->comp, gms_ms_convert(ms, next, GMS_DOM_L2));
    return 0;
}

/* interconnect domain, after the interconnect: at an edge followed by another one with no L2
 * edge up to it (the interconnect faster than the L2), each sub-partition's L2->icnt head goes
 * into the network for that next edge, in sub-partition order (gpgpu_sim::cycle's ICNT block:
 * one per sub-partition per interconnect cycle). */
static int reply_pop_tick(void *self, uint64_t cycle)
{
    (void)cycle;
    memsys *ms = self;
    uint64_t now_fs = gms_engine_time_fs(ms->eng);
    int sent = 0, left = 0, pop = next_edge(now_fs, ms->l2_period_fs) > now_fs + ms->icnt_period_fs;
    for (uint32_t i = 0; i < ms->nsub; i++) {
        gms_l2_slice *l2 = ms->slices[i].l2;
        if (!gms_l2_slice_has_reply(l2)) continue;
        if (pop) sent |= gms_l2_slice_reply_out(l2);
        left |= gms_l2_slice_has_reply(l2);
    }
    if (sent) gms_engine_progress(ms->eng);
    return left;
}

/* Called with the first kernel's start (gms_ms_kernel_time), a serial point of the run after the
 * interconnect was added: reply_pop pops after the interconnect's tick, for the next edge. An
 * interconnect no faster than the L2 has an L2 edge before each of its edges (or with it): the
 * slices' ticks make every pop then. */
void gms_ms_add_reply_pop(memsys *ms)
{
    if (ms->reply_pop || ms->icnt_period_fs >= ms->l2_period_fs) return;
    ms->reply_pop = gms_engine_add(ms->eng, GMS_DOM_ICNT, "L2->icnt pops", reply_pop_tick, NULL, ms);
    for (uint32_t i = 0; i < ms->nsub; i++)
        if (gms_l2_slice_has_reply(ms->slices[i].l2)) gms_engine_activate(ms->eng, ms->reply_pop);
}

static uint64_t ms_stranded(void *self)
{
    memsys *ms = self;
    uint64_t n = 0;
    for (uint32_t c = 0; c < ms->nch; c++)
        if (!ms->chans[c].latq.n) n += gms_dram_chan_stranded(ms->chans[c].dram);
    return n;
}

static void slice_report(void *self, FILE *out)
{
    ms_slice *s = self;
    if (gms_l2_slice_next(s->l2) != UINT64_MAX) gms_l2_slice_dump(s->l2, out);
}

static void ms_free(void *self)
{
    memsys *ms = self;
    if (!ms) return;
    for (uint32_t i = 0; i < ms->nsub; i++) gms_l2_slice_free(ms->slices[i].l2);
    for (uint32_t c = 0; c < ms->nch; c++) gms_ms_chan_fini(&ms->chans[c]);
    free(ms->slices);
    free(ms->chans);
    free(ms->accept);
    free(ms->pushed_l2);
    free(ms->staged);
    free(ms->share_cnt);
    free(ms);
}

/* -gpgpu_perf_sim_memcpy: gpgpu_sim::perf_memcpy_to_gpu for a host-to-device copy. Every 32 B
 * of the copy, from its first byte, fills sector (address % 128) / 32 of its line in the L2
 * slice its address decodes to (memory_sub_partition::force_l2_tag_update), with the slice's
 * memcpy offset added to the current cycle as the replacement key. low32: GPGPU-Sim keeps each
 * address in an `unsigned` (32 bits), so a 64-bit device address fills the lines of its low 32
 * bits (docs/memory-partitions.md). */
static void ms_memcpy_fill(void *self, uint64_t addr, uint64_t bytes, int low32)
{
    memsys *ms = self;
    uint64_t now = gms_engine_cycle(ms->eng, GMS_DOM_L2);
    uint64_t off = 0, a = low32 ? (uint32_t)addr : addr;
    uint32_t sp = bytes ? gms_addrdec_subpart(&ms->dec, a) : 0;
    /* GPGPU-Sim's perf_memcpy_to_gpu fills sector by sector, and so do we (every sector moves
     * its slice's key offset: there is no exact shortcut): a huge copy takes host time, about
     * a second per GiB, which must not look like a hang */
    if (bytes >= (4ull << 30))
        fprintf(stderr, "gpumemsim: note: filling the L2 with a %.1f GiB copy (-gpgpu_perf_sim_memcpy 1, as GPGPU-Sim: "
                "about a second of host time per GiB; 0 leaves the L2 alone)\n", (double)bytes / (double)(1ull << 30));
    while (off < bytes) {
        /* host speed: the sectors that follow in the same line and slice go in one call, the
         * i-th of them with key t0 + i, as one call per sector would give them */
        uint64_t line = a & ~(uint64_t)127;
        ms_slice *s = &ms->slices[sp];
        uint8_t sm = 0;
        uint64_t off0 = s->memcpy_offset;
        uint32_t next_sp = sp;
        do {
            sm |= (uint8_t)(1u << (a % 128 / 32));
            s->memcpy_offset++;
            ms->memcpy_sectors++;
            off += 32;
            if (off >= bytes) break;
            a = addr + off;
            if (low32) a = (uint32_t)a;
            next_sp = gms_addrdec_subpart(&ms->dec, a);
        } while ((a & ~(uint64_t)127) == line && next_sp == sp);
        gms_cache *c = gms_l2_slice_cache(s->l2);
        if (c) {
            /* the i-th sector keyed now + off0 + i (force_fill counts i); later accesses and
             * fills of this slice keyed now + the offset after the copy, as GPGPU-Sim's
             * cache_cycle adds m_memcpy_cycle_offset to every L2 access and fill time */
            gms_cache_set_key_offset(c, off0);
            gms_cache_force_fill(c, line, sm, now);
            gms_cache_set_key_offset(c, s->memcpy_offset);
        }
        sp = next_sp;
    }
}

static uint64_t ms_flush_l2(void *self)
{
    memsys *ms = self;
    uint64_t n = 0;
    for (uint32_t i = 0; i < ms->nsub; i++) {
        gms_cache *c = gms_l2_slice_cache(ms->slices[i].l2);
        if (c) n += gms_cache_drop_modified(c);
    }
    return n;
}

static void ms_dump_mshrs(void *self, FILE *out)
{
    memsys *ms = self;
    for (uint32_t i = 0; i < ms->nsub; i++) {
        gms_cache *c = gms_l2_slice_cache(ms->slices[i].l2);
        if (!c || !gms_cache_mshr_used(c)) continue;
        fprintf(out, "L2 slice %u: %u entries in use\n", i, gms_cache_mshr_used(c));
        gms_cache_mshr_dump(c, out);
    }
}

int gms_memsys_create(gms_memsys *out, const struct gms_params *p, gms_engine *e, gms_mreq_pool *pool,
                      gms_reply_fn reply, void *reply_ud, gms_error *err)
{
    const gms_memsys_params *mp = &p->mem;
    memsys *ms = gms_xcalloc(1, sizeof *ms);
    ms->eng = e;
    ms->pool = pool;
    ms->nch = mp->n_mem;
    ms->nsp = mp->n_sub_partition_per_mchannel;
    ms->nsub = ms->nch * ms->nsp;
    ms->dram_latency = mp->dram_latency;
    ms->energy = mp->energy;
    ms->core_mhz = gms_engine_mhz(e, GMS_DOM_CORE);
    ms->l2_mhz = gms_engine_mhz(e, GMS_DOM_L2);
    ms->dram_mhz = gms_engine_mhz(e, GMS_DOM_DRAM);
    ms->icnt_mhz = gms_engine_mhz(e, GMS_DOM_ICNT);
    ms->core_period_fs = (uint64_t)(1e9 / ms->core_mhz + 0.5);   /* engine.c: 1 MHz = 1e9 fs */
    ms->l2_period_fs = (uint64_t)(1e9 / ms->l2_mhz + 0.5);
    ms->icnt_period_fs = (uint64_t)(1e9 / ms->icnt_mhz + 0.5);
    ms->sleep_blocked = p->sim.sleep_blocked;
    if (!ms->nsub) { free(ms); return gms_err(err, "-gpgpu_n_mem: must be at least 1"); }
    if (gms_addrdec_init(&ms->dec, &mp->addrdec, err)) { free(ms); return -1; }
    const gms_l2q_ops *inq = gms_l2q_find(mp->l2q);
    if (!inq) { free(ms); return gms_err(err, "-gms_l2_input_queue: unknown policy \"%s\"", mp->l2q); }
    ms->slices = gms_xcalloc(ms->nsub, sizeof *ms->slices);
    ms->chans = gms_xcalloc(ms->nch, sizeof *ms->chans);
    ms->accept = gms_xcalloc(ms->nsub, 1);
    ms->pushed_l2 = gms_xcalloc(ms->nsub, sizeof *ms->pushed_l2);
    ms->share_cnt = gms_xcalloc(ms->nch, sizeof *ms->share_cnt);
    for (uint32_t i = 0; i < ms->nsub; i++) {
        ms_slice *s = &ms->slices[i];
        s->ms = ms;
        s->chan = i / ms->nsp;
        gms_l2_slice_cfg cfg = {
            .id = i, .cache = &mp->dl2, .rop_latency = mp->rop_latency,
            .q_icnt_l2 = mp->q_icnt_l2, .q_l2_dram = mp->q_l2_dram, .q_dram_l2 = mp->q_dram_l2,
            .q_l2_icnt = mp->q_l2_icnt, .inq = inq, .inq_params = mp->l2qp, .racb = (mp->racb & 2) != 0,
            .gate_block = mp->l2_gate_block,
            .dec = &ms->dec, .reply = reply,
            .reply_ud = reply_ud,
        };
        s->l2 = gms_l2_slice_new(&cfg, pool);
        ms->accept[i] = (uint8_t)gms_l2_slice_can_accept(s->l2);
        snprintf(s->name, sizeof s->name, "L2 slice %u", i);
        s->comp = gms_engine_add(e, GMS_DOM_L2, s->name, slice_tick, slice_report, s);
        gms_engine_set_hot(e, s->comp, s->l2);   /* host speed: the slice's state, not this wrapper */
    }
    for (uint32_t c = 0; c < ms->nch; c++) {
        if (gms_ms_chan_init(ms, &ms->chans[c], c, p, err)) { ms_free(ms); return -1; }
        ms->chans[c].comp = gms_engine_add(e, GMS_DOM_DRAM, ms->chans[c].name, gms_ms_chan_tick,
                                           gms_ms_chan_report, &ms->chans[c]);
        gms_engine_set_hot(e, ms->chans[c].comp, ms->chans[c].dram);
    }
    out->self = ms;
    out->n_subparts = ms->nsub;
    out->subpart_of = ms_subpart_of;
    out->can_accept = ms_can_accept;
    out->push = ms_push;
    out->report = gms_ms_report;
    out->stranded = ms_stranded;
    out->stage = ms_stage;
    out->hand_over = ms_hand_over;
    out->kernel_time = gms_ms_kernel_time;
    out->memcpy_fill = ms_memcpy_fill;
    out->flush_l2 = ms_flush_l2;
    out->dump_mshrs = ms_dump_mshrs;
    out->free = ms_free;
    return 0;
}
