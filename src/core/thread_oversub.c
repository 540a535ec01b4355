/* Thread oversubscription, the SM side (thread_oversub.h; spec 004 2.2-2.5). */
#include <stdlib.h>
#include <string.h>
#include "core/sm_internal.h"
#include "core/thread_oversub.h"
#include "core/swl.h"
#include "uvm/uvm.h"

enum { TO_B_ACTIVE = 0, TO_B_FRESH, TO_B_OUT, TO_B_IN };
#define NONE UINT32_MAX
#define CHECK_EVERY 16   /* cycles between looks for a full stall while the SM is busy */

static uint64_t now_of(const gms_sm *s) { return gms_engine_cycle(s->g->eng, GMS_DOM_CORE); }

/* a far fault began on some warp: that SM looks for a switch at its next tick */
static void fault_hook(void *ud, uint32_t sm, uint32_t wi)
{
    (void)wi;
    gms_gpu *g = ud;
    if (sm >= g->n_sm) return;
    gms_sm *s = g->sms[sm];
    s->to->dirty = 1;
    gms_engine_activate(g->eng, s->comp);
}

void gms_to_init(gms_sm *s)
{
    const gms_params *p = s->p;
    gms_to_sm *t = gms_xcalloc(1, sizeof *t);
    uint32_t f = p->uvm.to_factor;
    t->hw_cta = s->nblock_slots;
    /* room for the inactive contexts: F x the hardware's block slots and warp slots */
    free(s->blocks);
    s->nblock_slots = t->hw_cta * f;
    s->blocks = gms_xcalloc(s->nblock_slots, sizeof *s->blocks);
    uint64_t nw = (uint64_t)s->nwarps_max * f;
    s->nwarps_max = nw < MAX_WARPS ? (uint32_t)nw : MAX_WARPS;
    t->st = gms_xcalloc(s->nblock_slots, 1);
    t->ready_at = gms_xcalloc(s->nblock_slots, sizeof *t->ready_at);
    s->to = t;
}

void gms_to_free(gms_sm *s)
{
    if (!s->to) return;
    free(s->to->st);
    free(s->to->ready_at);
    free(s->to);
    s->to = NULL;
}

static uint32_t active_of(const gms_sm *s, const gms_kernel *k)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < s->nblock_slots; i++)
        if (s->blocks[i].used && s->blocks[i].k == k &&
            (s->to->st[i] == TO_B_ACTIVE || s->to->st[i] == TO_B_IN))
            n++;
    return n;
}

/* would block x (inactive) fit the hardware once block `out` (NONE: none) gives its resources back? */
static int fits(const gms_sm *s, uint32_t x, uint32_t out)
{
    const gms_to_sm *t = s->to;
    const block_slot *b = &s->blocks[x], *o = out == NONE ? NULL : &s->blocks[out];
    uint32_t act = t->n_active - (o ? 1 : 0);
    uint32_t per_k = active_of(s, b->k) - (o && o->k == b->k ? 1 : 0);
    return act < t->hw_cta && per_k < b->k->max_blocks_per_sm &&
           s->threads_used - (o ? o->threads : 0) + b->threads <= s->p->core.max_threads_per_sm &&
           s->regs_used - (o ? o->regs : 0) + b->regs <= s->p->core.shader_registers &&
           s->shmem_used - (o ? o->shmem : 0) + b->shmem <= s->p->core.shmem_size;
}

/* the extra blocks kernel k may have on an SM now: the runtime's degree (to_ctl.c) under the
 * cap, (F - 1) x its blocks per SM or -gms_uvm_to_extra_blocks if lower */
static uint32_t extra_of(const gms_sm *s, const gms_kernel *k)
{
    uint32_t cap = (s->p->uvm.to_factor - 1) * k->max_blocks_per_sm;
    if (s->p->uvm.to_extra_blocks && s->p->uvm.to_extra_blocks < cap) cap = s->p->uvm.to_extra_blocks;
    return gms_uvm_to_extra(s->g->uvm, now_of(s), cap);
}

static uint32_t allocated_of(const gms_sm *s, const gms_kernel *k)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < s->nblock_slots; i++) n += s->blocks[i].used && s->blocks[i].k == k;
    return n;
}

int gms_to_can_take(const gms_sm *s, const gms_kernel *k)
{
    gms_to_sm *t = s->to;
    if (!t->hooked) { gms_uvm_set_fault_hook(s->g->uvm, fault_hook, s->g); t->hooked = 1; }
    if (s->blocks_used >= s->nblock_slots) return 0;
    if (!s->p->core.concurrent_kernel_sm && s->kernel_here && s->kernel_here != k) return 0;
    uint32_t hw = k->max_blocks_per_sm;
    if (allocated_of(s, k) >= hw + extra_of(s, k)) return 0;
    uint32_t run = 0, ok = 0;
    for (uint32_t i = 0; i < s->nwarps_max && !ok; i++) {
        run = s->w[i].state == W_FREE ? run + 1 : 0;
        ok = run == k->warps_per_block;
    }
    if (!ok) return 0;
    t->admit_inactive = !(t->n_active < t->hw_cta && active_of(s, k) < hw &&
                          s->threads_used + k->warps_per_block * 32 <= s->p->core.max_threads_per_sm &&
                          s->regs_used + k->regs_per_block <= s->p->core.shader_registers &&
                          s->shmem_used + k->shmem_per_block <= s->p->core.shmem_size);
    return 1;
}

static void give_back(gms_sm *s, const block_slot *b)
{
    s->threads_used -= b->threads;
    s->regs_used -= b->regs;
    s->shmem_used -= b->shmem;
}

static void take(gms_sm *s, const block_slot *b)
{
    s->threads_used += b->threads;
    s->regs_used += b->regs;
    s->shmem_used += b->shmem;
}

static void park_warps(gms_sm *s, const block_slot *b)
{
    for (uint32_t i = 0; i < b->nwarps; i++) {
        uint32_t wi = b->first_warp + i;
        warp *w = &s->w[wi];
        if (w->state != W_ACTIVE) continue;
        if (!is_cand(s, wi) && s->npark) {
            /* parked on a collector slot: take it off that list */
            uint32_t si = sched_of(s, wi), li = local_of(s, wi), op = s->cur_op[wi];
            if (s->park[si][op][li >> 6] >> (li & 63) & 1) unpark(s, wi, op);
        }
        cand_off(s, wi);
        w->state = W_SWAPPED;
    }
    if (s->swl_on) gms_swl_update(s);   /* swapped warps give their SWL places up */
    s->blk.until = 0;   /* the schedulers' candidates and parked warps changed */
}

void gms_to_block_added(gms_sm *s, uint32_t bi)
{
    gms_to_sm *t = s->to;
    block_slot *b = &s->blocks[bi];
    if (!b->used) return;   /* it had nothing to run and is gone */
    if (!t->admit_inactive) { t->st[bi] = TO_B_ACTIVE; t->n_active++; return; }
    /* an inactive context from the start: no hardware resources, its warps do not issue */
    t->st[bi] = TO_B_FRESH;
    give_back(s, b);
    park_warps(s, b);
    t->inactive_adds++;
}

/* the block's warps may issue now */
static void wake_block(gms_sm *s, uint32_t bi)
{
    gms_to_sm *t = s->to;
    block_slot *b = &s->blocks[bi];
    t->st[bi] = TO_B_ACTIVE;
    t->n_in--;
    t->wakes++;
    for (uint32_t i = 0; i < b->nwarps; i++) {
        uint32_t wi = b->first_warp + i;
        warp *w = &s->w[wi];
        if (w->state != W_SWAPPED) continue;
        w->state = W_ACTIVE;
        if (!w->blocked) cand_on(s, wi);
    }
    if (s->swl_on) gms_swl_update(s);   /* and the woken ones take theirs again */
    s->blk.until = 0;
    gms_engine_activate(s->g->eng, s->comp);
}

/* block bi (inactive) takes hardware resources; its warps issue from cycle `at` */
static void bring_in(gms_sm *s, uint32_t bi, uint64_t at, uint64_t now)
{
    gms_to_sm *t = s->to;
    if (t->st[bi] == TO_B_OUT) t->switches_in++;
    else t->fresh_in++;
    take(s, &s->blocks[bi]);
    t->st[bi] = TO_B_IN;
    t->ready_at[bi] = at;
    t->n_active++;
    t->n_in++;
    if (at <= now) wake_block(s, bi);
}

/* a warp's far faults (or, -gms_uvm_to_on_mem, any memory) it waits on */
static int waits(const gms_sm *s, uint32_t wi)
{
    if (s->p->uvm.to_on_mem && s->w[wi].outstanding) return 1;
    return gms_uvm_warp_far_waits(s->g->uvm, s->id, wi) > 0;
}

/* inactive block ready to run: a switched-out one whose waits are all served first (it holds
 * the context storage), else one that never ran; NONE if neither */
static uint32_t pick_ready(const gms_sm *s)
{
    const gms_to_sm *t = s->to;
    uint32_t fresh = NONE;
    for (uint32_t i = 0; i < s->nblock_slots; i++) {
        if (!s->blocks[i].used) continue;
        if (t->st[i] == TO_B_FRESH) { if (fresh == NONE) fresh = i; continue; }
        if (t->st[i] != TO_B_OUT) continue;
        const block_slot *b = &s->blocks[i];
        int ready = 1;
        for (uint32_t k = 0; k < b->nwarps && ready; k++)
            if (s->w[b->first_warp + k].state == W_SWAPPED && waits(s, b->first_warp + k)) ready = 0;
        if (ready) return i;
    }
    return fresh;
}

/* every live warp of active block bi waits on a far fault (finished warps count as stalled,
 * at least one must be waiting; a warp at a barrier or able to issue is not stalled) */
static int stalled(const gms_sm *s, uint32_t bi)
{
    const block_slot *b = &s->blocks[bi];
    int any = 0;
    for (uint32_t k = 0; k < b->nwarps; k++) {
        uint32_t wi = b->first_warp + k;
        const warp *w = &s->w[wi];
        if (w->state == W_DONE || w->state == W_FINISHING) continue;
        if (w->state != W_ACTIVE || !w->blocked || !waits(s, wi)) return 0;
        any = 1;
    }
    return any;
}

static void sample(gms_sm *s, uint64_t now)
{
    gms_to_sm *t = s->to;
    for (int k = 0; k < TO_WS_N; k++) t->ws_cycles[k] += (uint64_t)t->counts[k] * (now - t->last_sample);
    memset(t->counts, 0, sizeof t->counts);
    t->last_sample = now;
    for (uint32_t bi = 0; bi < s->nblock_slots; bi++) {
        const block_slot *b = &s->blocks[bi];
        if (!b->used) continue;
        for (uint32_t k = 0; k < b->nwarps; k++) {
            uint32_t wi = b->first_warp + k;
            const warp *w = &s->w[wi];
            int st;
            if (w->state == W_SWAPPED) st = TO_WS_INACTIVE;
            else if (w->state == W_ACTIVE && !w->blocked) st = TO_WS_READY;
            else if (w->state == W_ACTIVE && gms_uvm_warp_far_waits(s->g->uvm, s->id, wi)) st = TO_WS_FAR_FAULT;
            else if (w->state == W_ACTIVE && gms_uvm_warp_trans_waits(s->g->uvm, s->id, wi)) st = TO_WS_TRANSLATION;
            else if (w->state == W_ACTIVE && w->outstanding) st = TO_WS_MEMORY;
            else if (w->state == W_DONE) continue;
            else st = TO_WS_OTHER;
            t->counts[st]++;
        }
    }
}

static void check(gms_sm *s, uint64_t now)
{
    gms_to_sm *t = s->to;
    sample(s, now);
    if (s->blocks_used == t->n_active) return;   /* no inactive block */
    uint64_t cs = s->p->uvm.ctx_switch_cycles;
    /* free hardware room first (a block finished, or the degree grew) */
    for (uint32_t x; (x = pick_ready(s)) != NONE && fits(s, x, NONE);) {
        uint64_t cost = t->st[x] == TO_B_OUT ? cs : 0;   /* restore only */
        t->ctx_cycles += cost;
        bring_in(s, x, now + cost, now);
    }
    for (uint32_t o = 0; o < s->nblock_slots; o++) {
        if (!s->blocks[o].used || t->st[o] != TO_B_ACTIVE || !stalled(s, o)) continue;
        uint32_t x = pick_ready(s);
        if (x == NONE) break;
        if (!fits(s, x, o)) continue;
        /* a throttled degree stops the switching (spec 004 2.4: "does not allow any more context
         * switching by decrementing (and limiting) the number of concurrently runnable thread
         * blocks"): while x's kernel has more blocks here than the limit now allows, its
         * inactive blocks come in only as active ones finish (the loop above) */
        const gms_kernel *xk = s->blocks[x].k;
        if (allocated_of(s, xk) > xk->max_blocks_per_sm + extra_of(s, xk)) break;
        /* save the outgoing context, then restore the incoming one (none for a fresh block) */
        uint64_t cost = cs + (t->st[x] == TO_B_OUT ? cs : 0);
        park_warps(s, &s->blocks[o]);
        give_back(s, &s->blocks[o]);
        t->st[o] = TO_B_OUT;
        t->n_active--;
        t->switches_out++;
        t->ctx_cycles += cost;
        bring_in(s, x, now + cost, now);
    }
}

void gms_to_block_finished(gms_sm *s, uint32_t bi)
{
    gms_to_sm *t = s->to;
    if (t->st[bi] == TO_B_ACTIVE || t->st[bi] == TO_B_IN) t->n_active--;
    if (t->st[bi] == TO_B_IN) t->n_in--;
    t->st[bi] = TO_B_ACTIVE;
    /* its slot goes to a ready inactive block before the grid's next block is dispatched */
    if (s->blocks_used > t->n_active) check(s, now_of(s));
}

int gms_to_tick(gms_sm *s, uint64_t cycle, int r)
{
    gms_to_sm *t = s->to;
    uint64_t first = UINT64_MAX;
    if (t->n_in)
        for (uint32_t i = 0; i < s->nblock_slots; i++) {
            if (!s->blocks[i].used || t->st[i] != TO_B_IN) continue;
            if (t->ready_at[i] <= cycle) { wake_block(s, i); r = 1; }
        }
    /* a full stall leaves the SM idle: look before it sleeps, when a far fault began, and
     * every few cycles while it works */
    if (t->dirty || !r || cycle >= t->next_check) {
        t->dirty = 0;
        t->next_check = cycle + CHECK_EVERY;
        uint64_t before = t->wakes;
        check(s, cycle);
        if (t->wakes != before) r = 1;   /* warps that may issue now */
    }
    for (uint32_t i = 0; t->n_in && i < s->nblock_slots; i++)
        if (s->blocks[i].used && t->st[i] == TO_B_IN && t->ready_at[i] < first) first = t->ready_at[i];
    if (first != UINT64_MAX && !r) gms_engine_wake_at(s->g->eng, s->comp, first);
    return r;
}

uint64_t gms_to_next_look(const gms_sm *s)
{
    const gms_to_sm *t = s->to;
    uint64_t at = t->next_check;
    for (uint32_t i = 0; t->n_in && i < s->nblock_slots; i++)
        if (s->blocks[i].used && t->st[i] == TO_B_IN && t->ready_at[i] < at) at = t->ready_at[i];
    return at;
}

void gms_to_report(gms_sm *const *sms, uint32_t n, gms_stats *out)
{
    uint64_t so = 0, si = 0, fi = 0, cc = 0, ia = 0, ws[TO_WS_N] = { 0 };
    for (uint32_t i = 0; i < n; i++) {
        const gms_to_sm *t = sms[i]->to;
        so += t->switches_out; si += t->switches_in; fi += t->fresh_in; cc += t->ctx_cycles; ia += t->inactive_adds;
        for (int k = 0; k < TO_WS_N; k++) ws[k] += t->ws_cycles[k];
    }
    gms_stat_u64(out, "gms_to_context_switches", so);
    gms_stat_u64(out, "gms_to_switched_back_in", si);
    gms_stat_u64(out, "gms_to_inactive_blocks", ia);
    gms_stat_u64(out, "gms_to_inactive_started", fi);
    gms_stat_u64(out, "gms_to_context_switch_cycles", cc);
    static const char *const names[TO_WS_N] = { "ready", "memory", "far_fault", "other", "inactive", "translation" };
    for (int k = 0; k < TO_WS_N; k++) gms_stat_u64f(out, ws[k], "gms_to_warp_cycles[%s]", names[k]);
}
