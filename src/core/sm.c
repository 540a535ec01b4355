/* The SM: see sm.h. Work is proportional to activity: a warp waiting on its scoreboard is
 * not polled (the register release re-arms it), and an SM with nothing to do goes idle and
 * is woken by its next register-release event, a reply, a translation or a new block. */
#include "core/sm_internal.h"
#include "core/local_mem.h"
#include "core/thread_oversub.h"
#include "mem/mrpb.h"
#include "core/bypass_policy.h"
#include "core/swl.h"
#include "core/ccws.h"
#include "core/pdp.h"
#include "uvm/uvm.h"
#include "workloads/classify.h"
#include "frontend/warp_refill.h"
#include "cke/cke.h"
#include "cke/cke_mi.h"   /* gms_cke_under_limit */
#include <stdlib.h>
#include <string.h>


static inflight *inf_alloc(gms_sm *s)
{
    if (!s->inf_free) {
        inflight *slab = gms_xcalloc(256, sizeof *slab);
        s->inf_slabs = gms_xrealloc(s->inf_slabs, (s->ninf_slabs + 1) * sizeof *s->inf_slabs);
        s->inf_slabs[s->ninf_slabs++] = slab;
        for (int i = 255; i >= 0; i--) { slab[i].next_free = s->inf_free; s->inf_free = &slab[i]; }
    }
    inflight *f = s->inf_free;
    s->inf_free = f->next_free;
    return f;
}
static void inf_release(gms_sm *s, inflight *f) { f->next_free = s->inf_free; s->inf_free = f; }

static void wheel_add(gms_sm *s, uint64_t cycle, uint16_t wi, uint8_t reg)
{
    uint32_t i = (uint32_t)(cycle & s->wheel_mask);
    bucket *b = &s->wheel[i];
    if (b->n >= WHEEL_INLINE && b->n - WHEEL_INLINE == b->cap) {
        if (b->cap >= WHEEL_MORE_MAX) {   /* the 16-bit count and capacity (sm_internal.h) */
            fprintf(stderr, "gpumemsim: internal: more than %u register releases in one SM cycle\n",
                    WHEEL_INLINE + WHEEL_MORE_MAX);
            abort();
        }
        b->cap = b->cap ? (uint16_t)(b->cap * 2) : 8;
        b->more = gms_xrealloc(b->more, b->cap * sizeof *b->more);
    }
    *bucket_ev(b, b->n++) = (event){ wi, reg, 0 };
    s->wheel_occ[i >> 6] |= 1ULL << (i & 63);
    s->wheel_events++;
    s->w[wi].reg_events++;
}

/* ---------------------------------------------------------------- deferred (host threads) */

/* inside a parallel phase (gms_engine_deferring) these shared side effects are replayed in
 * SM order after the phase (engine.h) */
static void defer_block_done(void *g, uint64_t k, uint64_t unused)
{
    (void)unused;
    gms_gpu_block_done(g, (gms_kernel *)(uintptr_t)k);
}
static void defer_send(void *n, uint64_t port, uint64_t r) { gms_icnt_send(n, (uint32_t)port, (gms_mreq *)(uintptr_t)r); }
static void send_to_icnt(gms_sm *s, gms_mreq *r);
static void defer_page(void *c, uint64_t page, uint64_t unused) { (void)unused; gms_classifier_observe(c, page); }
static void defer_range(void *c, uint64_t lo, uint64_t hi) { gms_classifier_observe_range(c, lo, hi, 12); }

/* ---------------------------------------------------------------- warp and block life */

/* the scheduler that issues first this cycle, before sched_of's modulo: GPGPU-Sim's
 * Issue_Prio, the SM's active cycles before this one */
static inline uint64_t issue_prio(gms_sm *s, uint64_t cycle)
{
    return s->prio_from <= cycle ? s->prio_acc + (cycle - s->prio_from) : s->prio_acc;
}

static void block_finished(gms_sm *s, uint32_t bi)
{
    block_slot *b = &s->blocks[bi];
    for (uint32_t i = 0; i < b->nwarps; i++) {
        uint32_t wi = b->first_warp + i;
        uint32_t sc = sched_of(s, wi);
        sched *q = &s->sc[sc];
        for (uint32_t k = 0; k < q->n; k++)
            if (q->order[k] == wi) {
                memmove(&q->order[k], &q->order[k + 1], (q->n - k - 1) * sizeof q->order[0]);
                q->n--;
                for (uint32_t j = k; j < q->n; j++) q->pos[local_of(s, q->order[j])] = (uint16_t)j;
                break;
            }
        s->w[wi].state = W_FREE;
    }
    s->threads_used -= b->threads;
    s->regs_used -= b->regs;
    s->shmem_used -= b->shmem;
    s->blocks_used--;
    if (s->blocks_used == 0 && s->prio_from != UINT64_MAX) {
        /* this cycle was active: Issue_Prio moved on in it */
        s->prio_acc += gms_engine_cycle(s->g->eng, GMS_DOM_CORE) + 1 - s->prio_from;
        s->prio_from = UINT64_MAX;
    }
    gms_kernel *k = b->k;
    if (s->cke) s->cke->a[k->cke_app].blocks_here--;
    b->used = 0;
    b->k = NULL;
    if (s->blocks_used == 0) s->kernel_here = NULL;
    if (s->to) gms_to_block_finished(s, bi);
    if (s->swl_on) gms_swl_update(s);
    s->ctr->blocks_done++;
    if (gms_engine_deferring()) gms_engine_defer(defer_block_done, s->g, (uintptr_t)k, 0);
    else gms_gpu_block_done(s->g, k);
}

static void maybe_finish_warp(gms_sm *s, uint32_t wi);

/* A warp has issued its last buffered instruction and its stream goes on (the source
 * generates long warps a chunk at a time): fetch the next chunk into the same buffer.
 * Safe because nothing refers to issued instructions (the LSU copies what it needs).
 * Returns 1 if the warp has instructions again. An error stops the run. */
static int warp_refill(gms_sm *s, uint32_t wi)
{
    warp *w = &s->w[wi];
    block_slot *b = &s->blocks[w->blk];
    const gms_kernel_src *k = &b->k->src;
    gms_gpu *g = s->g;
    int r = gms_warp_refill(k, gms_block_linear(k, &b->bt), wi - b->first_warp,
                            &b->bt.warps[wi - b->first_warp], g->err);
    if (r < 0 && !g->failed) { g->failed = 1; gms_engine_abort(g->eng, g->err->msg); }
    w->left = w->tr->n;
    warp_set_cur(s, wi, w->tr->insts);   /* the buffer may have moved */
    return r > 0;
}

/* warp of block b has issued its last instruction: it no longer counts at barriers, and the
 * warps waiting at one go on if it was the last they waited for */
static void release_barrier(gms_sm *s, block_slot *b);
static void bar_exit(gms_sm *s, block_slot *b)
{
    b->bar_live--;
    if (b->at_barrier && b->at_barrier == b->bar_live) release_barrier(s, b);
}

static void release_barrier(gms_sm *s, block_slot *b)
{
    b->at_barrier = 0;
    for (uint32_t i = 0; i < b->nwarps; i++) {
        warp *w = &s->w[b->first_warp + i];
        if (w->state != W_BARRIER) continue;
        /* a chunk ending with this BAR resumes only now, when every warp has reached it */
        if (!w->left && !(w->tr->more && warp_refill(s, b->first_warp + i))) {
            w->state = W_FINISHING;
            b->bar_live--;   /* (at_barrier is 0: nothing to release) */
            if (s->swl_on) gms_swl_update(s);
            maybe_finish_warp(s, b->first_warp + i);
            continue;
        }
        w->state = W_ACTIVE;
        cand_on(s, b->first_warp + i);
    }
    if (s->swl_on) gms_swl_update(s);
}

static void maybe_finish_warp(gms_sm *s, uint32_t wi)
{
    warp *w = &s->w[wi];
    if (w->state != W_FINISHING || w->outstanding || w->reg_events || !sb_empty(w)) return;
    w->state = W_DONE;   /* its slot is freed with its block's */
    block_slot *b = &s->blocks[w->blk];
    b->live--;
    gms_engine_progress(s->g->eng);
    if (b->live == 0) block_finished(s, w->blk);
}

static void reg_released(gms_sm *s, uint32_t wi, uint8_t reg)
{
    warp *w = &s->w[wi];
    if (reg == SB_ATOMIC) sb_atomic_clr(w);   /* a shared atomic has written back */
    else sb_clr(w, reg);
    if (w->blocked) { w->blocked = 0; if (w->state == W_ACTIVE) cand_on(s, wi); }
    if (w->state == W_FINISHING) maybe_finish_warp(s, wi);
}

/* a memory transaction has completed (load data back, store absorbed or acknowledged) */
static void txn_done(gms_sm *s, gms_mreq *r)
{
    inflight *f = r->inst;
    uint32_t wi = r->warp;
    int mine = r->warp_txn;
    gms_mreq_release(&s->g->pool, r);
    if (!mine) return;      /* internal request of the L1 (write-back, write-allocate read) */
    warp *w = &s->w[wi];
    if (w->outstanding) w->outstanding--;
    if (f && --f->pending == 0) {
        for (int i = 0; i < GMS_MAX_DST; i++)
            if (f->dst[i] != GMS_REG_NONE) sb_clr(w, f->dst[i]);
        if (f->atomic) sb_atomic_clr(w);   /* its last request is back */
        if (f->app1) gms_cke_mem_done(s->cke, f->app1 - 1u);
        inf_release(s, f);
        if (w->blocked) { w->blocked = 0; if (w->state == W_ACTIVE) cand_on(s, wi); }
    }
    gms_engine_progress(s->g->eng);
    if (w->state == W_FINISHING) maybe_finish_warp(s, wi);
}

uint32_t gms_shmem_conflict_degree(const uint64_t addrs[32], uint32_t mask, uint32_t width, uint32_t banks)
{
    /* 4-byte banks; lanes reading the same word are served by one broadcast */
    uint64_t words[32 * 4];
    uint32_t nw = 0, per_bank[64] = {0}, deg = 1;
    if (banks > 64) banks = 64;
    if (width == 0) width = 4;
    for (int lane = 0; lane < 32; lane++) {
        if (!(mask >> lane & 1u)) continue;
        for (uint64_t wd = addrs[lane] >> 2; wd <= (addrs[lane] + width - 1) >> 2; wd++) {
            uint32_t j;
            for (j = 0; j < nw; j++) if (words[j] == wd) break;
            if (j < nw) continue;
            if (nw < 128) words[nw++] = wd;
            uint32_t b = (uint32_t)(wd % banks);
            if (++per_bank[b] > deg) deg = per_bank[b];
        }
    }
    return deg;
}

/* ---------------------------------------------------------------- dispatch */

int gms_sm_add_block(gms_sm *s, gms_kernel *k, uint64_t blockid, gms_error *err)
{
    uint32_t bi = 0;
    while (bi < s->nblock_slots && s->blocks[bi].used) bi++;
    block_slot *b = &s->blocks[bi];
    uint32_t nw = k->warps_per_block, first = 0, run = 0;
    for (uint32_t i = 0; i < s->nwarps_max; i++) {
        run = s->w[i].state == W_FREE ? run + 1 : 0;
        if (run == nw) { first = i + 1 - nw; break; }
    }
    /* host memory: a slot never used (or pooled) takes an idle slot's buffers, so a run's
     * buffers stay as many as its most concurrently resident blocks, not as every slot any
     * kernel ever used (a short grid lands on other SMs each launch) */
    if (!b->bt.warps_cap && s->g->bt_pool_n) b->bt = s->g->bt_pool[--s->g->bt_pool_n];
    gms_block_trace_reset(&b->bt, nw);
    b->bt.x = (uint32_t)(blockid % k->src.grid.x);
    b->bt.y = (uint32_t)(blockid / k->src.grid.x % k->src.grid.y);
    b->bt.z = (uint32_t)(blockid / ((uint64_t)k->src.grid.x * k->src.grid.y));
    if (k->src.fill_block(k->src.self, blockid, &b->bt, err)) return -1;
    b->used = 1;
    b->k = k;
    if (s->cke) s->cke->a[k->cke_app].blocks_here++;
    b->first_warp = first;
    b->nwarps = nw;
    b->live = nw;
    b->bar_live = nw;
    b->at_barrier = 0;
    b->seq = s->blocks_launched++;
    b->threads = nw * 32;
    b->regs = k->regs_per_block;
    b->shmem = k->shmem_per_block;
    s->threads_used += b->threads;
    s->regs_used += b->regs;
    s->shmem_used += b->shmem;
    s->blocks_used++;
    s->l1_used = 1;
    /* the GPU hands out blocks after the SMs' tick: the SM is active from the next cycle */
    if (s->prio_from == UINT64_MAX) s->prio_from = gms_engine_cycle(s->g->eng, GMS_DOM_CORE) + 1;
    s->kernel_here = k;
    for (uint32_t i = 0; i < nw; i++) {
        uint32_t wi = first + i;
        warp *w = &s->w[wi];
        memset(w, 0, sizeof *w);
        s->ib[wi] = 0;
        s->ib_bad[wi] = 0;
        w->blk = (uint16_t)bi;
        w->tr = &b->bt.warps[i];
        w->left = w->tr->n;
        warp_set_cur(s, wi, w->tr->insts);
        if (w->tr->n == 0) {
            w->state = W_FINISHING;
            b->bar_live--;
        } else {
            w->state = W_ACTIVE;
            cand_on(s, wi);
        }
        sched *q = &s->sc[sched_of(s, wi)];
        q->pos[local_of(s, wi)] = (uint16_t)q->n;
        q->order[q->n++] = (uint16_t)wi;
    }
    for (uint32_t i = 0; i < nw; i++)
        if (s->w[first + i].state == W_FINISHING) maybe_finish_warp(s, first + i);
    if (s->to) gms_to_block_added(s, bi);
    if (s->swl_on) gms_swl_update(s);
    s->blk.until = 0;
    gms_engine_activate(s->g->eng, s->comp);
    return 0;
}

/* ---------------------------------------------------------------- memory side */

static gms_access_type acc_type(uint8_t mem, int is_write)
{
    if (mem == GMS_MEM_LD_LOCAL || mem == GMS_MEM_ST_LOCAL) return is_write ? GMS_ACC_LOCAL_W : GMS_ACC_LOCAL_R;
    return is_write ? GMS_ACC_GLOBAL_W : GMS_ACC_GLOBAL_R;
}

static void observe_pages(gms_sm *s, const uint64_t addrs[32], uint32_t mask)
{
    gms_gpu *g = s->g;
    if (gms_engine_deferring()) {
        /* the distinct pages in lane order, as gms_classifier_observe_lanes feeds them */
        uint64_t seen[32];
        int ns = 0;
        for (int l = 0; l < 32; l++) {
            if (!(mask >> l & 1u)) continue;
            uint64_t pg = addrs[l] >> 12;
            int dup = 0;
            for (int i = 0; i < ns && !dup; i++) dup = seen[i] == pg;
            if (dup) continue;
            seen[ns++] = pg;
            gms_engine_defer(defer_page, g->classifier, pg, 0);
        }
        return;   /* no observer in a parallel phase (gpu.c, par_gate) */
    }
    gms_classifier_observe_lanes(g->classifier, addrs, mask, 12);
    if (g->observe) g->observe(g->observe_ud, addrs, mask);
}

/* Whether lsu_accept reserves the destination registers: shared, constant and texture
 * accesses always (timed in the LSU); global/local ones only with an active lane. */
static int lsu_reserves_dst(const gms_inst *in)
{
    switch (in->mem) {
    case GMS_MEM_LD_SHARED: case GMS_MEM_ST_SHARED: case GMS_MEM_ATOM_SHARED:
    case GMS_MEM_LD_CONST: case GMS_MEM_LD_TEX: return 1;
    default: return in->mask != 0;
    }
}

/* ---------------------------------------------------------------- concurrent kernels (src/cke) */

static inline uint32_t cke_app_of(const gms_sm *s, uint32_t wi) { return s->blocks[s->w[wi].blk].k->cke_app; }

/* what an instruction is to the memory-issue schemes (cke.h GMS_CKE_BMI / GMS_CKE_MIL): a
 * global or local access with active lanes is both; a shared, constant or texture one only
 * under -gms_cke_bmi_insts lsu, and to the balance only */
static int cke_mem_kind(const gms_sm *s, const gms_inst *in)
{
    if (in->op != GMS_OP_MEM || !in->mask) return 0;
    switch (in->mem) {
    case GMS_MEM_NONE: return 0;   /* a MEMBAR: no memory request */
    case GMS_MEM_LD_SHARED: case GMS_MEM_ST_SHARED: case GMS_MEM_ATOM_SHARED: case GMS_MEM_LD_CONST:
    case GMS_MEM_LD_TEX: return s->cke->c->bmi_lsu ? GMS_CKE_BMI : 0;
    default: return GMS_CKE_BMI | GMS_CKE_MIL;
    }
}

int gms_sm_cke_gate(gms_sm *s, uint32_t wi, const gms_inst *in, uint64_t now)
{
    return gms_cke_gate(s->cke, cke_app_of(s, wi), cke_mem_kind(s, in), now);
}

/* the LSU took a global memory instruction of warp wi with s->ntxn requests: a store gets an
 * in-flight record too, so that its completion is seen */
static inflight *cke_accept(gms_sm *s, uint32_t wi, inflight *f, uint64_t now)
{
    uint32_t app = cke_app_of(s, wi);
    if (!f) {
        f = inf_alloc(s);
        f->warp = (uint16_t)wi;
        f->pending = (uint16_t)s->ntxn;
        f->atomic = 0;
        for (int i = 0; i < GMS_MAX_DST; i++) f->dst[i] = GMS_REG_NONE;
    }
    f->app1 = (uint8_t)(app + 1);
    gms_cke_requests(s->cke, app, s->ntxn, now);
    return f;
}

/* -gms_cke_bmi_demand parked (spec 001 4.4: the LSU grants "among warps (all schedulers) with a
 * ready memory instruction"): a warp parked because its scheduler's memory slot is full
 * (gms_sm_can_issue) never reaches the issue gate or the LSU's queue, where demand is otherwise
 * seen; with its operands ready it is demand for its kernel this cycle too. Without this a
 * kernel whose co-runner's instructions fill every slot shows no demand, so RBMI and QBMI
 * never hold the co-runner at the gate for it (docs/cke.md, "Demand at the arbitration"). */
static void cke_parked_demand(gms_sm *s, uint64_t now)
{
    uint32_t words = ((s->nwarps_max + s->nsched - 1) / s->nsched + 63) / 64;
    for (uint32_t si = 0; si < s->nsched; si++) {
        if (!(s->park_ops[si] >> GMS_OP_MEM & 1)) continue;
        for (uint32_t k = 0; k < words; k++)
            for (uint64_t m = s->park[si][GMS_OP_MEM][k]; m; m &= m - 1) {
                uint32_t wi = (k * 64 + (uint32_t)__builtin_ctzll(m)) * s->nsched + si;   /* park() set it */
                const warp *w = &s->w[wi];
                if (w->state != W_ACTIVE || !w->left || sb_blocks(w, w->cur)) continue;
                int kind = cke_mem_kind(s, w->cur);
                uint32_t app = cke_app_of(s, wi);
                /* a kernel at its in-flight limit (QBMI+DMIL) could not issue it: no part in the
                 * arbitration, as qdmil_gate checks the limit before it marks demand */
                if ((kind & GMS_CKE_MIL) && !gms_cke_under_limit(s->cke, app)) continue;
                if (kind & GMS_CKE_BMI) gms_cke_waiting(s->cke, app, now);
            }
    }
}

/* the LSU's choice among the memory instructions ready for it: the scheme's priority (QBMI:
 * the kernel with the largest quota; RBMI: the kernel whose turn it is), ties and schemes
 * without one to the oldest, as gms_memq_take. Every kernel with one the balance counts
 * (cke_mem_kind's GMS_CKE_BMI: what spends a quota and moves a turn) ready here this cycle,
 * the one taken included, has demand for the issue gate (cke.h; docs/cke.md: leaving the
 * taken one out was measured and loses QBMI's balance). Under -gms_cke_bmi_insts global a
 * shared, constant or texture instruction is no demand: it spends no quota and moves no turn,
 * so as demand it would hold the other kernel's global instructions at the gate for nothing */
static const gms_memq_ent *cke_take(gms_sm *s, uint64_t now)
{
    gms_memq *q = &s->memq;
    int best = -1;
    int64_t bp = 0;
    for (uint32_t k = 0; k < q->n; k++) {
        const gms_memq_ent *e = &q->e[k];
        if (!(e->in_ex && e->ready_at <= now)) continue;
        uint32_t app = cke_app_of(s, e->warp);
        if (cke_mem_kind(s, &e->in) & GMS_CKE_BMI) gms_cke_waiting(s->cke, app, now);
        int64_t p = gms_cke_take_prio(s->cke, app);
        if (best < 0 || p > bp) { best = (int)k; bp = p; }
    }
    return best < 0 ? NULL : gms_memq_take_index(q, (uint32_t)best);
}

void gms_sm_set_cke(gms_sm *s, struct gms_cke_sm *cs)
{
    s->cke = cs;
    if (cs)   /* blocks already resident count for SMK-W (cke.h) */
        for (uint32_t i = 0; i < s->nblock_slots; i++)
            if (s->blocks[i].used) cs->a[s->blocks[i].k->cke_app].blocks_here++;
    s->blk_on = 0;   /* the gates change with time and with other SMs' nothing: tick every cycle */
}

/* The LSU takes a memory instruction: shared memory is timed here, global/local accesses
 * become transactions that the LSU feeds to the L1 pipeline in order. */
/* the last byte of a unit-stride access's range: below base when it wraps past 2^64 */
static inline uint64_t unit_stride_last(const gms_inst *in)
{
    return in->base + (uint64_t)__builtin_popcount(in->mask) * in->width - 1;
}

static void lsu_accept(gms_sm *s, uint32_t wi, const gms_inst *in, const uint64_t *lane_addrs, uint64_t now)
{
    warp *w = &s->w[wi];
    gms_counters *c = s->ctr;
    uint64_t addrs[32];
    if (lane_addrs) memcpy(addrs, lane_addrs, sizeof addrs);
    switch (in->mem) {
    case GMS_MEM_NONE:
        /* a MEMBAR (opcodes.c): its LDST cycle, no access; the warp's wait is at issue */
        return;
    case GMS_MEM_LD_SHARED: case GMS_MEM_ST_SHARED: case GMS_MEM_ATOM_SHARED: {
        if (!lane_addrs) gms_inst_lane_addrs(w->tr, in, addrs);
        uint32_t deg = gms_shmem_conflict_degree(addrs, in->mask, in->width, s->p->core.shmem_num_banks);
        /* GPGPU-Sim: active threads; the instruction holds the LSU deg cycles, deg - 1 of them
         * stalls (ldst_unit::shared_cycle: BK_CONF); no active thread, no stall */
        c->n_shmem_insn += (uint32_t)__builtin_popcount(in->mask);
        if (in->mask) {
            c->shmem_bank_conflict_cycles += deg - 1;
            c->stall_shd_mem += deg - 1;
        }
        s->lsu_free_at = now + deg;
        if (s->wb_on && in->mem != GMS_MEM_ST_SHARED) {
            /* ldst_unit: a load (and an ATOMS) enters the shared-memory pipeline at the end of
             * its last conflict cycle, and writes back through the write-back slot */
            gms_shp_ent ent = { 0, (uint16_t)wi, { GMS_REG_NONE, GMS_REG_NONE },
                                (uint8_t)(in->mem == GMS_MEM_ATOM_SHARED && in->mask) };
            for (int i = 0; i < GMS_MAX_DST; i++)
                if (in->dst[i] != GMS_REG_NONE) { sb_set(w, in->dst[i]); ent.dst[i] = in->dst[i]; }
            w->outstanding++;   /* until it writes back (sh_written) */
            if (!gms_shpipe_full(&s->shp)) {
                /* entries only leave before then: the stage is free at now + deg - 1 */
                gms_shpipe_enter(&s->shp, now + deg - 1, &ent);
            } else {
                s->shp_full++;
                s->sh_wait = ent;
                s->sh_wait_e = now + deg - 1;
                s->sh_waiting = 1;
                s->lsu_free_at = UINT64_MAX;   /* the dispatch register stays taken (sh_enter) */
            }
            return;
        }
        for (int i = 0; i < GMS_MAX_DST; i++)
            if (in->dst[i] != GMS_REG_NONE) {
                sb_set(w, in->dst[i]);
                wheel_add(s, now + deg + s->p->core.smem_latency, (uint16_t)wi, in->dst[i]);
            }
        /* an ATOMS ends the warp's atomic wait when it writes back, with its register */
        if (in->mem == GMS_MEM_ATOM_SHARED && in->mask)
            wheel_add(s, now + deg + s->p->core.smem_latency, (uint16_t)wi, SB_ATOMIC);
        return;
    }
    case GMS_MEM_LD_CONST: case GMS_MEM_LD_TEX: {
        /* (the constant cache does not take the L1D's set-index latency) */
        uint32_t lat = in->mem == GMS_MEM_LD_TEX ? s->p->core.lat[GMS_OP_TEX].lat
                       : s->l1_latency - s->p->l1d.index_latency + 1;
        for (int i = 0; i < GMS_MAX_DST; i++)
            if (in->dst[i] != GMS_REG_NONE) {
                sb_set(w, in->dst[i]);
                wheel_add(s, now + lat, (uint16_t)wi, in->dst[i]);
            }
        return;
    }
    default: break;
    }
    if (in->mask == 0) return;
    int is_store = in->mem == GMS_MEM_ST_GLOBAL || in->mem == GMS_MEM_ST_LOCAL;
    int is_atom = in->mem == GMS_MEM_ATOM_GLOBAL;
    /* GPGPU-Sim's mem_instruction_stats: active threads; a global atomic counts as a load */
    uint32_t nact = (uint32_t)__builtin_popcount(in->mask);
    if (is_store) c->n_store_insn += nact;
    else c->n_load_insn += nact;
    if (is_atom) c->n_atomic_insn += nact;
    int bypass = is_atom || (in->flags & GMS_INST_BYPASS_L1) || !s->l1_enabled ||
                 /* GPGPU-Sim's ldst_unit::memory_cycle (3.x and 4.x): inst.space.is_global(),
                  * so global stores go around the L1D too (straight to the interconnect) */
                 (s->p->core.gmem_skip_l1d && (in->mem == GMS_MEM_LD_GLOBAL || in->mem == GMS_MEM_ST_GLOBAL ||
                                               in->mem == GMS_MEM_LDGSTS));   /* LDGSTS reads global space */
    /* -gms_l1d_bypass: a global load the L1D could serve; the policy sees its transactions
     * on either path and may send it around the L1D */
    s->lsu_observe = 0;
    if (s->byp_ops && !bypass && in->mem == GMS_MEM_LD_GLOBAL) {
        s->lsu_observe = s->byp_ops->observe != NULL;
        bypass = s->byp_ops->bypass(s->byp, s, wi);
        s->lsu_txn = !bypass && s->byp_ops->bypass_txn;
    } else {
        s->lsu_txn = 0;
    }
    s->txn_dec = 0;
    /* GPGPU-Sim 4.x's memory_coalescing_arch: 32 B sectors for arch >= 40 (Maxwell on: "all
     * requests should be 32 bytes", whatever the L1), and for arch 20-38 when the access goes
     * around the L1 by -gpgpu_gmem_skip_L1D (every space) or its own .cg / .STRONG.GPU
     * (CACHE_GLOBAL); else segments. A sectored L1 with an older arch (no preset has one)
     * also gets sectors, so that each request is one sector of its line */
    uint32_t arch = s->p->core.coalesce_arch;
    int sector = s->l1_sector || arch >= 40 ||
                 (arch >= 20 && arch < 39 && (s->p->core.gmem_skip_l1d || (in->flags & GMS_INST_BYPASS_L1)));
    if (is_atom) {
        /* lanes on the same bytes go in separate requests (coalesce_atomic.c); the access
         * queue is issued from its back */
        if (!lane_addrs) gms_inst_lane_addrs(w->tr, in, addrs);
        observe_pages(s, addrs, in->mask);
        int n = gms_coalesce_atomic(addrs, in->mask, in->width,
                                    gms_atomic_segment(s->p->core.coalesce_arch, in->width), s->txn);
        for (int i = 0, j = n - 1; i < j; i++, j--) { gms_txn x = s->txn[i]; s->txn[i] = s->txn[j]; s->txn[j] = x; }
        s->ntxn = (uint32_t)n;
    } else if (in->mem == GMS_MEM_LD_LOCAL || in->mem == GMS_MEM_ST_LOCAL) {
        /* each thread's local words, placed as GPGPU-Sim's translate_local_memaddr, coalesced
         * word by word (local_mem.h); the UVM and the observers see the placed addresses */
        if (!lane_addrs) gms_inst_lane_addrs(w->tr, in, addrs);
        const gms_kernel *k = s->blocks[w->blk].k;
        gms_local_map m = { s->p->core.local_mem_map, s->id, s->p->core.n_sm, k->warps_per_block * 32,
                            k->max_cta, s->p->core.max_threads_per_sm };
        uint64_t words[128];
        uint32_t aw;
        int nw = gms_local_translate(&m, wi, addrs, in->mask, in->width, words, &aw);
        for (int i = 0; i < nw; i += 32) {   /* page observers take lanes, 32 at a time */
            uint32_t nm = nw - i >= 32 ? 0xffffffffu : (1u << (nw - i)) - 1u;
            observe_pages(s, words + i, nm);
        }
        s->ntxn = (uint32_t)gms_coalesce_words(words, nw, aw, in->width, sector, s->txn);
    } else if (in->addr_mode == GMS_ADDR_STRIDE && in->width && in->stride == (int64_t)in->width && !s->g->observe &&
               unit_stride_last(in) >= in->base) {
        /* unit stride: the k-th active lane reads base + k*width, one contiguous range (one
         * that wraps past the end of the address space, bad input, goes lane by lane below) */
        uint64_t hi = unit_stride_last(in);
        if (gms_engine_deferring()) gms_engine_defer(defer_range, s->g->classifier, in->base, hi);
        else gms_classifier_observe_range(s->g->classifier, in->base, hi, 12);
        s->ntxn = (uint32_t)gms_coalesce_range(in->base, hi, in->width, sector, s->txn);
    } else {
        if (!lane_addrs) gms_inst_lane_addrs(w->tr, in, addrs);
        observe_pages(s, addrs, in->mask);
        s->ntxn = (uint32_t)gms_coalesce(addrs, in->mask, in->width, sector, s->txn);
    }
    if (!is_atom) gms_txn_issue_order(s->txn, (int)s->ntxn);
    s->txn_pos = 0;
    s->lsu_bypass = bypass;
    s->lsu_kind = is_atom ? GMS_MREQ_ATOMIC : is_store ? GMS_MREQ_WRITE : GMS_MREQ_READ;
    s->lsu_acc = acc_type(in->mem, is_store);
    inflight *f = NULL;
    if (!is_store) {   /* loads and atomics release their destination when every transaction is back */
        f = inf_alloc(s);
        f->warp = (uint16_t)wi;
        f->pending = (uint16_t)s->ntxn;
        f->atomic = (uint8_t)is_atom;
        f->app1 = 0;
        for (int i = 0; i < GMS_MAX_DST; i++) {
            f->dst[i] = in->dst[i];
            sb_set(w, in->dst[i]);
        }
    }
    if (s->cke) f = cke_accept(s, wi, f, now);
    s->lsu_inf = f;
    s->lsu_busy = 1;
    s->lsu_warp = (uint16_t)wi;
}

__attribute__((always_inline)) static inline void to_l1_pipe(gms_sm *s, gms_mreq *r, uint64_t now)
{
    uint32_t b = sm_bank_of(s, r->addr);
    r->t_ready = now + s->l1_latency;
    gms_fifo_push(&s->bank[b], r);
    if (s->l1 && !r->bypass_l1) gms_cache_prefetch_access(s->l1, r);   /* host speed: its probe in l1_latency cycles */
    s->bank_busy |= 1u << b;
}

/* a transaction whose translation is done (at once, or later from the UVM) */
static void txn_translated(gms_sm *s, gms_mreq *r, uint64_t now)
{
    if (r->bypass_l1) {
        gms_fifo_push(&s->bypass_out, r);
    } else if (s->mrpb) {
        gms_mrpb_push(s->mrpb, r);   /* its slot was reserved in lsu_feed; mrpb_drain feeds the L1 */
    } else {
        to_l1_pipe(s, r, now);
    }
}

void gms_sm_translated(gms_sm *s, gms_mreq *r)
{
    txn_translated(s, r, now_core(s));
    s->blk.until = 0;
    gms_engine_activate(s->g->eng, s->comp);
}

/* room in the interconnect's input for the bypassed transaction t: its request packet after
 * what this SM sent this cycle. Serially the L1's miss is in the network already; in a
 * parallel phase its injection is deferred, so its flits are added here (the same answer) */
static int bypass_icnt_room(gms_sm *s, const gms_txn *t)
{
    uint32_t bytes = s->lsu_kind == GMS_MREQ_WRITE ? t->bytes : 32u * t->nbytes_sectors;   /* as lsu_feed's request */
    return gms_icnt_can_send_after(&s->g->icnt, s->icnt_port, s->tick_l1_sent_flits, s->lsu_kind, bytes);
}

/* feed the current LSU instruction's transactions: up to one per L1 bank per cycle, in order */
static void lsu_feed(gms_sm *s, uint64_t now)
{
    gms_gpu *g = s->g;
    uint32_t used = 0, first = s->txn_pos;
    while (s->txn_pos < s->ntxn) {
        gms_txn *t = &s->txn[s->txn_pos];
        if (s->lsu_txn && s->txn_dec != s->txn_pos + 1) {   /* a per-transaction policy (PDP), once each */
            s->lsu_bypass = s->byp_ops->bypass_txn(s->byp, s, s->lsu_warp, t->addr);
            s->txn_dec = s->txn_pos + 1;
        }
        if (s->lsu_bypass) {
            /* one bypassed transaction per cycle: GPGPU-Sim's COAL_STALL. Tested before the
             * slot, so that a transaction that could not go this cycle anyway (its predecessor
             * took the last slot) is not a BpR reservation fail too (spec 001 3.6) */
            if (used >= 1) {
                s->ctr->stall_shd_mem++;
                s->ctr->stall_gl_coal++;
                return;
            }
            if (s->lsu_kind == GMS_MREQ_READ && s->p->l1d.bypass_slots &&
                s->bypass_inflight >= s->p->l1d.bypass_slots) {
                if (s->l1) gms_cache_count_fail(s->l1, s->lsu_acc, GMS_RF_BYPASS_SLOT);
                s->bp.rsfail++;
                s->ctr->stall_shd_mem++;
                if (s->txn_pos == first) s->tick_lsu = LSU_STALL_SLOT;
                return;
            }
            if (!bypass_icnt_room(s, t)) {
                /* GPGPU-Sim's ICNT_RC_FAIL: the interconnect's input buffer for this SM has no
                 * room for the packet, so the access waits in the LSU (no blocked snapshot:
                 * the buffer drains without an event the SM sees) */
                s->ctr->stall_shd_mem++;
                s->ctr->stall_icnt_rc++;
                return;
            }
        } else if (s->mrpb) {
            /* MRPB: the buffer's input is not banked; the LSU still makes at most one
             * transaction per L1 bank a cycle, and stalls on a full queue */
            if (used >= s->nbanks) {
                s->ctr->stall_shd_mem++;
                s->ctr->stall_gl_coal++;
                return;
            }
            if (!gms_mrpb_reserve(s->mrpb, s->lsu_warp)) {
                s->mrpb->st.full_stalls++;
                s->ctr->stall_shd_mem++;
                return;
            }
            used++;
        } else {
            uint32_t b = sm_bank_of(s, t->addr);
            if ((used >> b & 1u) || s->bank[b].n >= s->l1_latency) {
                /* GPGPU-Sim tries l1_banks accesses a cycle: a conflict among them is a
                 * BK_CONF, accesses left after that many went in a COAL_STALL */
                s->ctr->stall_shd_mem++;
                if ((uint32_t)__builtin_popcount(used) >= s->nbanks) s->ctr->stall_gl_coal++;
                else s->ctr->stall_gl_bank++;
                if (s->txn_pos == first) s->tick_lsu = LSU_STALL_BANK;
                return;
            }
            used |= 1u << b;
        }
        gms_mreq *r = gms_mreq_alloc(&g->pool);
        r->addr = t->addr;
        r->sector_mask = t->sector_mask;
        /* reads fetch whole sectors/lines; a store carries the bytes it writes (the cache's
         * lazy-fetch / fetch-on-write policies need them) */
        r->bytes = s->lsu_kind == GMS_MREQ_WRITE ? t->bytes : 32u * t->nbytes_sectors;
        r->kind = s->lsu_kind;
        r->access = (uint8_t)s->lsu_acc;
        r->bypass_l1 = (uint8_t)s->lsu_bypass;
        r->sm = (uint16_t)s->id;
        r->warp = s->lsu_warp;
        r->inst = s->lsu_inf;
        r->warp_txn = 1;
        r->t_issue = now;
        s->w[s->lsu_warp].outstanding++;
        if (s->lsu_bypass) {
            used++;
            if (r->kind == GMS_MREQ_READ) {
                gms_bypass_take(&s->bp, s->bypass_inflight, now);
                s->bypass_inflight++;
                s->ctr->n_bypass_reads++;
            }
        }
        if (s->lsu_observe) s->byp_ops->observe(s->byp, s, s->lsu_warp, r->addr, now);
        s->txn_pos++;
        if (g->uvm_on && !gms_uvm_translate(g->uvm, s->id, r, now)) continue;
        if (r->bypass_l1) {
            send_to_icnt(s, r);
            s->tick_lsu_sent = 1;
        } else {
            txn_translated(s, r, now);
        }
    }
    s->lsu_busy = 0;
    s->lsu_inf = NULL;
    if (s->lsu_hold) {   /* every transaction is counted: drop the instruction's own count */
        uint32_t wi = s->lsu_hold - 1;
        s->lsu_hold = 0;
        s->w[wi].outstanding--;
        if (s->w[wi].state == W_FINISHING) maybe_finish_warp(s, wi);
    }
}

/* RACB: room in the bypass queue for a read the L1D refused. A bypassed access goes to the
 * interconnect as GPGPU-Sim's L1D sends a miss, one request a cycle through a queue the
 * interconnect drains (drain_to_icnt), so the queue is bounded like the L1D's miss queue
 * (the -gpgpu_cache:dl1 miss-queue field) and with a read miss's test (GPGPU-Sim's
 * miss_queue_full(1): room while the queue holds fewer than size - 1). Everything waiting in
 * bypass_out counts (other bypasses too). */
static inline int racb_queue_room(const gms_sm *s)
{
    return s->bypass_out.n + 1 < s->p->l1d.dl1.miss_queue;
}

/* MRPB: may a read the L1D refused for `cause` bypass it? Only reads (writes and atomics
 * wait, as with RACB), for the causes -gms_mrpb_bypass names; it then needs a bypass slot
 * (gms_sm_bypass_read; spec 001 3.7: "subject to the bypass-slot limit") */
static int mrpb_bypasses(const gms_sm *s, const gms_mreq *r, gms_rf_cause cause)
{
    uint32_t how = s->p->l1d.mrpb.bypass;
    if (r->kind != GMS_MREQ_READ || how == GMS_MRPB_BYPASS_NONE) return 0;
    return how == GMS_MRPB_BYPASS_ANY || cause == GMS_RF_LINE_ALLOC;
}

/* MRPB: up to -gms_mrpb_drain_width requests a cycle from the buffer into the L1 pipeline,
 * in the drain policy's order; a full bank queue stops it (the order is kept: the head waits) */
static void mrpb_drain(gms_sm *s, uint64_t now)
{
    gms_mrpb *m = s->mrpb;
    for (uint32_t k = 0; k < s->p->l1d.mrpb.width; k++) {
        gms_mreq *r = gms_mrpb_peek(m);
        if (!r) return;
        uint32_t b = sm_bank_of(s, r->addr);
        if (s->bank[b].n >= s->l1_latency) { m->st.bank_stalls++; return; }
        gms_mrpb_pop(m);
        to_l1_pipe(s, r, now);
    }
}

/* -gms_cke_mshr_partition: the access's kernel may hold an equal share (rounded up) of the
 * L1D's MSHR entries and miss-queue entries among the kernels with blocks on this SM now (a
 * kernel alone on its SM, as under spatial partitioning, keeps them all); a request of no
 * warp is not counted */
static void cke_l1_partition(gms_sm *s, const gms_mreq *r)
{
    if (!r->warp_txn) { gms_cache_set_owner(s->l1, GMS_CACHE_NO_OWNER, 0, 0); return; }
    uint32_t present = 0;
    for (uint32_t i = 0; i < s->nblock_slots; i++)
        if (s->blocks[i].used) present |= 1u << s->blocks[i].k->cke_app;
    uint32_t share = (uint32_t)__builtin_popcount(present);
    /* alone: no cap at all (the table's own limit; under DL-MSHR that is more primaries than
     * the configured entries, which a cap of mshr_entries cut to that count) */
    if (share <= 1) { gms_cache_set_owner(s->l1, cke_app_of(s, r->warp), UINT32_MAX, UINT32_MAX); return; }
    const gms_cache_config *cfg = &s->p->l1d.dl1;
    gms_cache_set_owner(s->l1, cke_app_of(s, r->warp), (cfg->mshr_entries + share - 1) / share,
                        (cfg->miss_queue + share - 1) / share);
}

/* concurrent kernels around an L1D access: with ws-ucp (src/cke/cke_ucp.h) the kernel's own
 * ways are its victims and its UMON sees the access; every scheme counts the outcome */
__attribute__((cold, noinline)) static void cke_l1_before(gms_sm *s, const gms_mreq *r)
{
    if (s->cke->ucp && r->warp_txn) gms_cke_ucp_before(s->cke, s->l1, cke_app_of(s, r->warp));
    if (s->cke->c->mshr_partition) cke_l1_partition(s, r);
}

__attribute__((cold, noinline)) static void cke_l1_after(gms_sm *s, const gms_mreq *r, int outcome)
{
    if (!r->warp_txn) return;
    uint32_t app = cke_app_of(s, r->warp);
    if (s->cke->ucp && outcome != GMS_CACHE_RESERVATION_FAIL) gms_cke_ucp_after(s->cke, app, r->addr);
    gms_cke_l1(s->cke, app, outcome == GMS_CACHE_RESERVATION_FAIL ? 2
               : outcome == GMS_CACHE_MISS || outcome == GMS_CACHE_SECTOR_MISS ? 1 : 0);
}

/* a global load's read (the requests PDP may bypass and CCWS watches) */
static inline int global_load_read(const gms_mreq *r)
{
    return r->warp_txn && r->kind == GMS_MREQ_READ && r->access == GMS_ACC_GLOBAL_R;
}

/* policies that act inside the L1D: PDP (bypass_pdp.c) lets a global load go around a
 * protected set; CCWS (ccws.c) learns which warp brought a line in */
__attribute__((cold, noinline)) static void l1_hooks_before(gms_sm *s, const gms_mreq *r)
{
    if (s->l1_pdp) gms_cache_pdp_may_bypass(s->l1, global_load_read(r));
    if (s->ccws) gms_cache_set_alloc_owner(s->l1, r->warp_txn ? r->warp : GMS_CACHE_NO_LINE_OWNER);
}

/* after an L1D access that was not a reservation fail: PDP's sampler hears the access to the
 * set (as the L1D lowered its RPDs; r->addr, rewritten to the MSHR key by a primary miss, is
 * still in the same line); CCWS looks for lost locality */
__attribute__((cold, noinline)) static void l1_hooks_after(gms_sm *s, const gms_mreq *r, int outcome)
{
    if (s->l1_pdp) gms_pdp_set_touched(s, r->addr);
    if (s->ccws && global_load_read(r))
        gms_ccws_access(s, r->warp, r->addr, outcome == GMS_CACHE_MISS || outcome == GMS_CACHE_SECTOR_MISS);
}

/* a refused access goes back to its bank's head and is retried next cycle */
static inline void l1_retry(gms_sm *s, uint32_t b, gms_mreq *r)
{
    gms_fifo_push_front(&s->bank[b], r);
    s->bank_busy |= 1u << b;
}

/* each bank's head accesses the L1 once it has spent the L1 latency in the pipeline */
static void l1_access(gms_sm *s, uint64_t now)
{
    for (uint32_t m = s->bank_busy; m; m &= m - 1) {
        uint32_t b = (uint32_t)__builtin_ctz(m);
        gms_mreq *r = s->bank[b].head;
        if (r->t_ready > now) continue;
        gms_rf_cause cause;
        /* pop first: the cache links r into its own queues through r->next */
        gms_fifo_pop(&s->bank[b]);
        if (!s->bank[b].n) s->bank_busy &= ~(1u << b);
        /* concurrent kernels (cold: one test when there are none) */
        if (__builtin_expect(s->cke != NULL, 0)) cke_l1_before(s, r);
        if (__builtin_expect(s->l1_hooks, 0)) l1_hooks_before(s, r);
        int rc = gms_cache_access(s->l1, r, now, &cause);
        if (__builtin_expect(rc & GMS_CACHE_BYPASS, 0)) {
            if (gms_sm_bypass_read(s, r, now)) {
                gms_cache_pdp_bypassed(s->l1, r->addr);   /* an access to the set: RPDs lowered */
                gms_pdp_set_touched(s, r->addr);          /* ... and heard by the sampler */
                continue;
            }
            /* no bypass slot: a BpR fail (counted), retried next cycle; not a blocked tick the
             * snapshot could replay (its counts are the bypass path's) */
            l1_retry(s, b, r);
            s->tick_l1_changed = 1;
            continue;
        }
        int outcome = rc & 0xff;
        if (__builtin_expect(s->l1_hooks, 0) && outcome != GMS_CACHE_RESERVATION_FAIL) l1_hooks_after(s, r, outcome);
        if (__builtin_expect(s->cke != NULL, 0)) cke_l1_after(s, r, outcome);
        if (outcome == GMS_CACHE_RESERVATION_FAIL && (s->p->mem.racb & 1) && r->kind == GMS_MREQ_READ) {
            /* RACB (-gms_racb, docs/cart.md): the refused read takes the bypass path if that
             * has room, a bypass slot (none free: a BpR fail, counted by gms_sm_bypass_read)
             * and room in the bypass queue (racb_queue_room); else it stays the reservation
             * fail the L1D counted and retries next cycle. No blocked-tick snapshot either way:
             * the queue drains and slots free without the L1D changing, and a snapshot does
             * not replay BpR fails */
            s->tick_l1_changed = 1;
            if (racb_queue_room(s) && gms_sm_bypass_read(s, r, now)) continue;
            l1_retry(s, b, r);
            continue;
        }
        if (outcome == GMS_CACHE_RESERVATION_FAIL && s->mrpb && mrpb_bypasses(s, r, cause) &&
            gms_sm_bypass_read(s, r, now)) {
            /* MRPB's bypass on stall (docs/mrpb.md): the refused read went around the L1D
             * through a bypass slot (none free: a BpR fail, and it retries like any RF) */
            s->mrpb->st.bypassed++;
            continue;
        }
        if (outcome == GMS_CACHE_RESERVATION_FAIL) {
            l1_retry(s, b, r);
            /* not an LSU stall (GPGPU-Sim's L1_latency_queue_cycle counts none): the LSU
             * stalls once the bank's queue is full */
            s->tick_fail_mask |= 1u << b;
            s->tick_cause[b] = (uint8_t)cause;
            if (s->l1_ev) s->tick_ev[b] = gms_cache_refusal_events(s->l1);
            continue;
        }
        s->tick_l1_changed = 1;
        if (r->kind == GMS_MREQ_WRITE) {
            /* a store is complete when absorbed by the L1 (write-back hit); once sent down,
             * its acknowledgement completes it */
            if (!(rc & (GMS_CACHE_SENT | GMS_CACHE_WAIT))) txn_done(s, r);
            continue;
        }
        if (outcome == GMS_CACHE_HIT) txn_done(s, r);
        /* misses and pending hits wait in the MSHR; the fill returns them */
    }
}

/* Requests leave the SM into the interconnect: one L1 miss a cycle, a bypassed access the LSU
 * sends itself (lsu_feed, as GPGPU-Sim's memory_cycle pushes it), and, in a cycle where neither
 * went, one request of the bypass queue (RACB's and MRPB's bypasses, and bypassed accesses
 * whose translation came later). The L1's miss queue is drained before the cycle's L1
 * accesses, as GPGPU-Sim's ldst_unit::cycle
 * calls m_L1D->cycle() (baseline_cache::cycle: one miss to the interconnect) before
 * L1_latency_queue_cycle, so a miss queue that was full at the start of a cycle has room for
 * that cycle's misses. The destination sub-partition is decoded here, once, for every request
 * that leaves (L1 hits never need it); requests the L1 made itself (write-backs) are stamped
 * with this SM. Returns 1 if a request left. */
static int drain_to_icnt(gms_sm *s, int from_l1, uint64_t cycle)
{
    gms_gpu *g = s->g;
    gms_mreq *r = from_l1 ? gms_cache_mq_ready(s->l1, cycle) : s->bypass_out.head;
    if (!r || !gms_icnt_can_send(&g->icnt, s->icnt_port, r)) return 0;
    if (from_l1) {
        gms_cache_mq_pop(s->l1);
        /* only a deferred injection is not in the network yet (bypass_icnt_room) */
        if (gms_engine_deferring()) s->tick_l1_sent_flits = gms_icnt_request_flits(&g->icnt, r);
    } else {
        gms_fifo_pop(&s->bypass_out);
    }
    send_to_icnt(s, r);
    return 1;
}

/* r enters the interconnect now (or at the replay of a parallel phase) */
static void send_to_icnt(gms_sm *s, gms_mreq *r)
{
    gms_gpu *g = s->g;
    /* GPGPU-Sim's icnt_inject_request_packet: requests as they enter the interconnect, by
     * access type (an L1 write-back is a global write; write-allocate fills count nowhere) */
    switch (r->access) {
    case GMS_ACC_GLOBAL_R: s->ctr->n_mem_read_global++; break;
    case GMS_ACC_GLOBAL_W: case GMS_ACC_L1_WRBK: s->ctr->n_mem_write_global++; break;
    case GMS_ACC_LOCAL_R: s->ctr->n_mem_read_local++; break;
    case GMS_ACC_LOCAL_W: s->ctr->n_mem_write_local++; break;
    default: break;
    }
    r->sm = (uint16_t)s->id;
    r->subpart = g->mem.subpart_of(g->mem.self, r->addr);
    if (gms_engine_deferring()) gms_engine_defer(defer_send, &g->icnt, s->icnt_port, (uintptr_t)r);
    else gms_icnt_send(&g->icnt, s->icnt_port, r);
}

int gms_sm_accept_reply(gms_sm *s, gms_mreq *r)
{
    if (s->replies.n >= s->reply_cap) return 0;
    /* (a blocked snapshot need not end here: sm_blocked_tick sees replies.n; host speed, this
     * runs for every reply) */
    /* host speed: the fill's MSHR entry and line were last touched when the miss went out;
     * fetch them now, while the rest of this edge runs, not when the SM ticks */
    if (s->l1 && !r->bypass_l1 && r->kind != GMS_MREQ_WRITE) gms_cache_prefetch_fill(s->l1, r);
    /* GPGPU-Sim's simt_core_cluster::icnt_cycle hands the head of the cluster's response FIFO
     * to the LDST unit before it pops the interconnect into that FIFO, so a reply popped in a
     * cycle reaches the LDST unit (memlatstat_read_done, the L1 fill) in the next one: it is
     * taken at a core cycle after this instant's (process_reply). (With the interconnect's
     * clock slower than the core's this takes the core cycle of the last core edge, so a
     * delivery between two core edges waits for the next one only.) */
    r->t_ready = gms_engine_cycle(s->g->eng, GMS_DOM_CORE);
    gms_fifo_push(&s->replies, r);
    gms_engine_activate(s->g->eng, s->comp);
    return 1;
}

static void process_reply(gms_sm *s, uint64_t now)
{
    gms_mreq *r = s->replies.head;
    if (!r || r->t_ready >= now) return;   /* still in the cluster's response FIFO */
    /* ldst_unit::cycle: a bypassed read's reply waits at the head of the response FIFO, and
     * holds what is behind it, while m_next_global is taken */
    if (s->next_global && r->bypass_l1 && r->kind != GMS_MREQ_WRITE) return;
    (void)gms_fifo_pop(&s->replies);
    if (s->cl_replies) (*s->cl_replies)--;   /* (serial with several SMs a cluster) */
    s->tick_l1_changed = 1;   /* (a fill changes the L1; any reply: no blocked snapshot) */
    gms_counters *c = s->ctr;
    /* GPGPU-Sim's memlatstat_read_done, called for every data response the cluster hands to
     * the LDST unit: read replies and write acknowledgements alike */
    uint64_t lat = now - r->t_issue;
    c->mem_lat_sum += lat;
    c->mem_lat_n++;
    if (lat > c->mem_lat_max) c->mem_lat_max = lat;
    if (r->kind == GMS_MREQ_WRITE) {   /* write acknowledgement */
        txn_done(s, r);
        return;
    }
    if (r->bypass_l1) {
        if (r->kind == GMS_MREQ_READ && s->bypass_inflight) {
            gms_bypass_release(&s->bp, s->bypass_inflight, now);
            s->bypass_inflight--;
        }
        if (s->wb_on) s->next_global = r;   /* written back through the slot (writeback) */
        else txn_done(s, r);
        return;
    }
    gms_cache_fill_ready(s->l1, r, now);   /* its waiters leave through writeback() */
}

static int take_l1d(gms_sm *s, uint64_t now);

/* ldst_unit::writeback's clients, numbered as GPGPU-Sim's (1 texture, 2 constant: not here) */
enum { WB_SHARED = 0, WB_GLOBAL = 3, WB_L1D = 4 };

/* bit k: client k has a result for the write-back slot at `now` */
static inline uint32_t wb_ready_clients(const gms_sm *s, uint64_t now)
{
    return (uint32_t)(gms_shpipe_ready_at(&s->shp) <= now) << WB_SHARED |
           (uint32_t)(s->next_global != NULL) << WB_GLOBAL |
           (uint32_t)(s->l1 && gms_cache_access_ready(s->l1)) << WB_L1D;
}

/* a shared-memory load's registers are written (ldst_unit::writeback, shared client) */
static void sh_written(gms_sm *s, const gms_shp_ent *e)
{
    warp *w = &s->w[e->warp];
    if (w->outstanding) w->outstanding--;
    for (int i = 0; i < GMS_MAX_DST; i++)
        if (e->dst[i] != GMS_REG_NONE) reg_released(s, e->warp, e->dst[i]);
    if (e->atomic) reg_released(s, e->warp, SB_ATOMIC);
    gms_engine_progress(s->g->eng);
    maybe_finish_warp(s, e->warp);
}

/* the sub-core register banks take the write-back slot's registers (0: one of their banks is
 * taken by an ALU result this cycle; f: next_wb's instruction) */
static int scb_lsu_write(gms_sm *s, uint64_t now, const inflight *f)
{
    int ok = 1;
    if (s->wb_sh)
        ok = gms_scb_lsu_write(s->scb, now, sched_of(s, s->wb_sh_ent.warp), s->wb_sh_ent.warp, s->wb_sh_ent.dst,
                               &s->scb_wb_done);
    else if (s->next_wb->warp_txn && f)
        ok = gms_scb_lsu_write(s->scb, now, sched_of(s, f->warp), f->warp, f->dst, &s->scb_wb_done);
    if (ok) s->scb_wb_done = 0;   /* the slot is free for the next */
    return ok;
}

/* ldst_unit::writeback: the instruction taken into the write-back slot (m_next_wb) last
 * cycle writes its registers now; then, the slot being free, the next client is taken.
 * With -gms_lsu_writeback gpgpusim the clients are looked at round robin from the one after
 * the last served, in GPGPU-Sim's order: 0 the shared-memory pipeline's stage 0, (1 texture,
 * 2 constant: not modelled here, they write back after a fixed latency), 3 a bypassed read's
 * reply (m_next_global), 4 the next waiter of a filled L1D MSHR entry (mshr_table::next_access,
 * one per cycle; the entry is freed with its last waiter). So a load's register is released
 * two cycles after its fill at the earliest, and MSHR entries stay in use until their waiters
 * have been handed out. With none only the L1D is a client. With 3.x's register banks
 * (-gms_reg_banks gpgpusim) or the sub-core ones (-gms_subcore_reg_banks gpgpusim) the write
 * waits a cycle, and nothing new is taken, while an ALU result is written to one of its banks
 * (opndcoll_rfu_t::writeback refuses it). L1D hits never come here: GPGPU-Sim releases their
 * registers in the L1 without the collector (L1_latency_queue_cycle), as txn_done does. */
static void writeback(gms_sm *s, uint64_t now)
{
    if (s->next_wb || s->wb_sh) {
        const inflight *f = s->next_wb ? s->next_wb->inst : NULL;
        if (s->aluc && s->aluc->nbanks) {
            if (s->wb_sh ? !gms_aluc_lsu_write(s->aluc, now, s->wb_sh_ent.warp, s->wb_sh_ent.dst)
                         : (s->next_wb->warp_txn && f && !gms_aluc_lsu_write(s->aluc, now, f->warp, f->dst))) {
                s->wb_client_waits += (uint64_t)__builtin_popcount(wb_ready_clients(s, now));   /* all wait */
                return;
            }
        } else if (s->scb && !scb_lsu_write(s, now, f)) {
            s->wb_client_waits += (uint64_t)__builtin_popcount(wb_ready_clients(s, now));   /* all wait */
            return;
        }
        if (s->wb_sh) {
            s->wb_sh = 0;
            sh_written(s, &s->wb_sh_ent);
        } else {
            gms_mreq *r = s->next_wb;
            s->next_wb = NULL;
            txn_done(s, r);
        }
    }
    if (!(s->shp.n | (s->next_global != NULL))) {   /* the L1D alone (host speed: most cycles) */
        if (s->l1 && gms_cache_access_ready(s->l1) && take_l1d(s, now)) s->wb_arb = (WB_L1D + 1) % 5;
        return;
    }
    uint32_t ready = wb_ready_clients(s, now);
    if (!ready) return;
    for (uint32_t c = 0; c < 5; c++) {
        uint32_t k = (s->wb_arb + c) % 5;
        if (!(ready >> k & 1u)) continue;
        if (k == WB_SHARED) {
            s->wb_sh_ent = gms_shpipe_take(&s->shp, now);
            s->wb_sh = 1;
        } else if (k == WB_GLOBAL) {
            s->next_wb = s->next_global;
            s->next_global = NULL;
        } else if (!take_l1d(s, now)) {
            continue;
        }
        ready &= ~(1u << k);
        s->wb_arb = (uint8_t)((k + 1) % 5);
        break;
    }
    s->wb_client_waits += (uint64_t)__builtin_popcount(ready);
}

/* the L1D's next waiter into the write-back slot; 0 if it handed out none */
static int take_l1d(gms_sm *s, uint64_t now)
{
    gms_mreq *r = s->next_wb = gms_cache_next_access(s->l1, now);
    s->tick_l1_changed = 1;
    /* host speed: txn_done, next cycle, updates its warp and in-flight records */
    if (r && r->warp_txn) {
        __builtin_prefetch(&s->w[r->warp], 1);
        __builtin_prefetch(r->inst, 1);
    }
    return r != NULL;
}

/* the end of ldst_unit::cycle: a shared-memory load held in the dispatch register by a full
 * pipeline enters it once its conflict cycles are over and stage L-1 is free */
static void sh_enter(gms_sm *s, uint64_t now)
{
    if (now < s->sh_wait_e || gms_shpipe_full(&s->shp)) return;
    gms_shpipe_enter(&s->shp, now, &s->sh_wait);
    s->sh_waiting = 0;
    s->lsu_free_at = now + 1;
}

/* ---------------------------------------------------------------- issue to the LSU */

/* Memory instructions reach the LSU in issue order through the ID_OC_MEM slots and the
 * operand collector (memq.h). Their destination registers are reserved at issue, as
 * GPGPU-Sim's scoreboard does, so the warp goes on issuing independent instructions.
 *
 * Without the sub-core model GPGPU-Sim's schedulers share one ID_OC_MEM set of
 * -gpgpu_pipeline_widths' width, the memory collector units and the OC_EX_MEM set: at most
 * memq_cap = units + OC_EX_MEM width instructions of all schedulers are past ID_OC_MEM, and
 * each cycle the collector's input ports (times -gpgpu_reg_file_port_throughput steps) take
 * the oldest ones on. ALU instructions do not go through the collector. -gms_id_oc_mem
 * per-scheduler gives each scheduler its own slot and memq_cap = units + 1 of its own (our
 * model before: about twice the instructions in front of the LSU with two schedulers). With
 * the sub-core model and generic units, every instruction goes through the collector, unit
 * by unit (oc_cycle below). */
static void memq_push(gms_sm *s, uint32_t wi, const gms_inst *in)
{
    warp *w = &s->w[wi];
    gms_memq_ent *e = gms_memq_push(&s->memq, wi, sched_of(s, wi), in);
    /* the warp's buffer is refilled when this is its last instruction: keep the addresses */
    if (!w->left && w->tr->more && in->mask) {
        gms_inst_lane_addrs(w->tr, in, gms_memq_attach_addrs(&s->memq, e));
    }
    /* reserve what lsu_accept will reserve (and release) */
    if (lsu_reserves_dst(in))
        for (int i = 0; i < GMS_MAX_DST; i++) sb_set(w, in->dst[i]);
    w->outstanding++;   /* the warp may not finish before its memory instruction is done */
}

/* the sub-core operand collector (opndcoll_rfu_t::step, -gpgpu_reg_file_port_throughput
 * steps a cycle). dispatch_ready_cu first: a scheduler's free OC_EX_MEM slot takes the memory
 * instruction of its LOWEST-numbered ready unit (find_ready starts every scan at a sub-core's
 * first unit), so a newer instruction in unit 0 overtakes an older one in unit 1. Then
 * allocate_cu, per input port (-gpgpu_operand_collector_num_in_ports_gen) and per ID_OC type
 * in port order SP, SFU, MEM, DP, INT, then the specialised units 1-4 (BRA, TEX, TENSOR, UDP):
 * shader_core_ctx::create_exec_pipeline adds the tensor-core port before DP, but a trace's
 * tensor opcodes are specialised unit 3 (SPECIALIZED_UNIT_3_OP, opcodes.c), whose port comes
 * after INT's with the other specialised units', in unit order; the OLDEST
 * instruction of the type in any scheduler's slot (register_set::get_ready_reg_id) gets the
 * lowest free unit of its scheduler; if that scheduler has none, the port does nothing for
 * the type (the others wait behind it). A unit reads its operands in the next step
 * (allocate_reads) and dispatches in the step after: with 2 steps a cycle, the next cycle
 * (oc_busy 1), with 1 the cycle after (oc_busy 2). With register banks
 * (-gms_subcore_reg_banks gpgpusim, subcore_banks.h) its reads queue on their banks and may
 * take more steps (oc_reads): it dispatches in the step after its last. A non-memory instruction then waits for its scheduler's OC_EX slot
 * of its type, which the scheduler's function unit empties (execute, before read_operands)
 * once its dispatch register is free: it holds each instruction its initiation interval
 * (pipelined_simd_unit::cycle, warp_inst_t::dispatch_delay); from the unit's issue at e the
 * instruction reaches EX_WB and is written back at e + 2 + latency. A memory instruction in
 * OC_EX_MEM at d can be taken by the LSU at d + 1. A warp parked on a slot freed here is a
 * candidate again through sched_cands / cand_or_ready. */
static const uint8_t oc_port_order[] = { GMS_OP_SP, GMS_OP_SFU, GMS_OP_MEM, GMS_OP_DP, GMS_OP_INT,
                                         GMS_OP_BRA, GMS_OP_TEX, GMS_OP_TENSOR, GMS_OP_UDP };
/* each type's position in oc_port_order (only the types of ID_OC slots occur) */
static const uint8_t oc_port_pos[GMS_OP__COUNT] = {
    [GMS_OP_SP] = 0, [GMS_OP_SFU] = 1, [GMS_OP_MEM] = 2, [GMS_OP_DP] = 3,
    [GMS_OP_INT] = 4, [GMS_OP_BRA] = 5, [GMS_OP_TEX] = 6, [GMS_OP_TENSOR] = 7, [GMS_OP_UDP] = 8,
};

/* any of the 16 per-scheduler bytes set (schedulers past nsched have theirs at 0) */
static inline int any_byte(const uint8_t b[MAX_SCHED])
{
    uint64_t w[2];
    memcpy(w, b, sizeof w);
    return (w[0] | w[1]) != 0;
}

/* The sub-core collector's step (opndcoll_rfu_t::step), run -gpgpu_reg_file_port_throughput
 * times a cycle (read_operands; 2 on the QV100, more taken as 2): dispatch_ready_cu, then
 * allocate_cu. A unit given an instruction in a step reads its source registers in the next
 * step (allocate_reads) and may dispatch in the step after; a unit whose instruction has no
 * source register to read (MOV of an immediate, S2R, BAR, BRA, EXIT: collector_unit_t::allocate
 * sets no m_not_ready bit) may dispatch in the next step. With two steps a cycle, a unit given
 * its instruction in the first step of cycle t dispatches in the first step of t + 1 (no
 * source: in the second step of t), one given it in the second step in the second step of
 * t + 1 (no source: the first of t + 1); a unit that dispatches only in a second step is
 * `late` (oc_sched.cu_late, gms_memq_ent.late). The LSU or function unit takes what was
 * dispatched in cycle t at t + 1 (execute runs before read_operands) in either case, so the
 * step only decides which ready unit takes a free OC_EX slot first and which units are free
 * for allocate_cu. With register banks a unit's reads may be refused (queued behind others on
 * a bank, or the bank written that cycle): its readiness waits for its last read (oc_reads,
 * between dispatch_ready_cu and allocate_cu as in opndcoll_rfu_t::step), then follows the
 * same rule. */

/* a unit ready at cycle `ready` (late: its second step) may dispatch in step `second` of now */
static inline int oc_unit_ready(uint64_t ready, int late, uint64_t now, int second)
{
    return ready < now || (ready == now && (!late || second));
}

/* dispatch_ready_cu for the non-memory instructions: each free OC_EX slot of a type takes the
 * instruction of the scheduler's lowest-numbered ready unit of that type (find_ready scans a
 * sub-core's units from its first; the 8 dispatch units of the QV100 let every ready unit go
 * whose output slot is free). The function unit takes the instruction (execute, the next
 * cycle) once its dispatch register is free: it holds each one its initiation interval
 * (pipelined_simd_unit::cycle, dispatch_delay); registers written back at e + 2 + latency. */
static void oc_dispatch_alu(gms_sm *s, uint64_t now, int second)
{
    for (uint32_t si = 0; si < s->nsched; si++) {
        oc_sched *o = &s->oc[si];
        for (uint32_t held = s->oc_cu_held[si]; held; held &= held - 1) {
            uint32_t k = (uint32_t)__builtin_ctz(held);
            uint8_t op = o->cu_op[k];
            if (!oc_unit_ready(o->cu_ready[k], o->cu_late[k], now, second) || o->ex_free[op] > now) continue;
            const oc_slot *sl = &o->cu[k];
            uint64_t e = now + 1;
            if (o->fu_free[op] > e) e = o->fu_free[op];
            o->ex_free[op] = e;
            o->fu_free[op] = e + sl->ii;
            s->oc_cu_held[si] &= (uint8_t)~(1u << k);
            o->cu_op[k] = OC_CU_NONE;
            if (o->cu_late[k]) { o->cu_late[k] = 0; s->oc_late--; }
            s->oc_pending--;
            for (int i = 0; i < GMS_MAX_DST; i++)
                if (sl->dst[i] != GMS_REG_NONE) wheel_add(s, e + sl->delay, sl->warp, sl->dst[i]);
            /* (host speed: not for an instruction without destination, GMS_REG_NONE being 0xff) */
            _Static_assert(GMS_MAX_DST == 2 && GMS_REG_NONE == 0xff, "the test below");
            if (s->scb && (sl->dst[0] & sl->dst[1]) != GMS_REG_NONE)
                gms_scb_alu_write(s->scb, now, e + sl->delay, si, sl->warp, sl->dst);
            if (__builtin_expect(sl->hold, 0)) {
                /* an EXIT: the warp is held by its write-back event now (no atomic can
                 * be in flight behind an issued EXIT, so SB_ATOMIC's clear is a no-op) */
                s->w[sl->warp].outstanding--;
                wheel_add(s, e + sl->delay, sl->warp, SB_ATOMIC);
            }
        }
    }
}

/* allocate_cu: every input port tries each ID_OC type in port order; a port takes the OLDEST
 * instruction of that type in any scheduler's slot (register_set::get_ready_reg_id) and gives
 * it the lowest free unit of that scheduler, or does nothing for that type if the scheduler
 * has none. In step `second` of cycle now (above for when the unit may dispatch). */
static void oc_allocate(gms_sm *s, uint64_t now, int second)
{
    gms_memq *q = &s->memq;
    /* host speed: `pend` holds, by position in oc_port_order, the types some ID_OC slot
     * holds (s->oc_types; a memory instruction waits for a unit: q->idoc). A type whose
     * oldest instruction's scheduler has no free unit leaves `pend` for the rest of the step
     * (units are only taken here, and its slots do not change), as does a type with no slot
     * left; the ports stop when nothing is pending. Identical to trying every type at every
     * port. The units held now are those dispatched above left: oc_cu_held and q->cu_mem,
     * which a unit taken below joins. */
    uint32_t pend = q->idoc ? 1u << oc_port_pos[GMS_OP_MEM] : 0;
    for (uint32_t t = s->oc_types; t; t &= t - 1) pend |= 1u << oc_port_pos[__builtin_ctz(t)];
    if (!pend) return;
    /* dispatchable from: with two steps a cycle (oc_busy 1) the step after next, i.e. the
     * same step of the next cycle, and with no source the next step (this cycle's second,
     * late, if given in the first; else the next cycle's first); with one step a cycle
     * (oc_busy 2) 2 cycles on, 1 with no source */
    uint64_t rdy = now + s->oc_busy, rdy_nosrc = s->oc_busy == 1 && !second ? now : now + 1;
    int late = s->oc_busy == 1 && second, late_nosrc = s->oc_busy == 1 && !second;
    for (uint32_t port = 0; port < s->oc_ports && pend; port++) {
        for (uint32_t left = pend; left; left &= left - 1) {
            uint32_t p = (uint32_t)__builtin_ctz(left);
            uint8_t op = oc_port_order[p];
            if (op == GMS_OP_MEM) {
                gms_memq_ent *e = NULL;
                int r = gms_memq_alloc_cu_late(q, s->oc_cu_held, s->oc_cu, rdy, late, &e);
                if (r >= 0 && inst_no_src(&e->in)) { e->ready_at = rdy_nosrc; e->late = (uint8_t)late_nosrc; }
                else if (r >= 0 && s->scb &&
                         gms_scb_queue(s->scb, (uint32_t)r, e->cu, e->warp, e->in.src, (e->in.flags & GMS_INST_SRC_RZ) != 0)) {
                    e->ready_at = UINT64_MAX;   /* until its last read (oc_reads_done) */
                    e->late = 0;
                }
                if (r >= 0 && e->late) s->oc_late++;
                if (r < 0 || !q->idoc) pend &= ~(1u << p);
                continue;
            }
            uint32_t si = oc_oldest_sched(s, op);   /* one: op is pending */
            uint32_t k = (uint32_t)__builtin_ctz(~(uint32_t)(s->oc_cu_held[si] | q->cu_mem[si]));
            if (k >= s->oc_cu) { pend &= ~(1u << p); continue; }   /* no free unit: the port skips the type */
            oc_sched *o = &s->oc[si];
            oc_slot *sl = &o->slot[op];
            o->cu[k] = *sl;
            o->cu_op[k] = op;
            o->cu_ready[k] = sl->nosrc ? rdy_nosrc : rdy;
            o->cu_late[k] = (uint8_t)(sl->nosrc ? late_nosrc : late);
            if (!sl->nosrc && s->scb && gms_scb_queue(s->scb, si, k, sl->warp, sl->src, sl->rz)) {
                o->cu_ready[k] = UINT64_MAX;   /* until its last read (oc_reads_done) */
                o->cu_late[k] = 0;
            }
            if (o->cu_late[k]) s->oc_late++;
            s->oc_cu_held[si] |= (uint8_t)(1u << k);
            s->oc_slot_mask[si] &= (uint16_t)~(1u << op);
            s->oc_type_scheds[op] &= (uint16_t)~(1u << si);
            if (!s->oc_type_scheds[op]) { s->oc_types &= ~(1u << op); pend &= ~(1u << p); }
        }
    }
}

/* allocate_reads with register banks (gms_scb_reads): the units whose last read was granted
 * in step `second` of now may dispatch from the next step: the cycle's second (late) after
 * its first with two steps a cycle, else the next cycle's first */
static void oc_reads(gms_sm *s, uint64_t now, int second)
{
    uint8_t done[GMS_SCB_MAX_SCHED] = { 0 };
    uint32_t scheds = gms_scb_reads(s->scb, now, !second, done);
    int late = s->oc_busy == 1 && !second;
    uint64_t rdy = late ? now : now + 1;
    for (; scheds; scheds &= scheds - 1) {
        uint32_t si = (uint32_t)__builtin_ctz(scheds);
        for (uint32_t m = done[si]; m; m &= m - 1) {
            uint32_t k = (uint32_t)__builtin_ctz(m);
            if (s->oc_cu_held[si] >> k & 1u) {
                s->oc[si].cu_ready[k] = rdy;
                s->oc[si].cu_late[k] = (uint8_t)late;
            } else {
                gms_memq_ent *e = gms_memq_unit_entry(&s->memq, si, k);
                e->ready_at = rdy;
                e->late = (uint8_t)late;
            }
            s->oc_late += (uint32_t)late;
        }
    }
}

static void oc_step(gms_sm *s, uint64_t now, int second)
{
    _Static_assert(MAX_SCHED == 16 && GMS_MEMQ_MAX_SCHED == 16, "any_byte reads 16 bytes");
    gms_memq *q = &s->memq;
    /* dispatch_ready_cu: a scheduler's free OC_EX_MEM slot takes the memory instruction of its
     * lowest-numbered ready unit */
    if (any_byte(q->cu_mem))
        for (uint32_t si = 0; si < s->nsched; si++) {
            if (!q->cu_mem[si]) continue;   /* no unit of its holds a memory instruction */
            gms_memq_ent *e = gms_memq_dispatch_step(q, si, now, second);
            if (e && e->late) { e->late = 0; s->oc_late--; }
        }
    if (any_byte(s->oc_cu_held)) oc_dispatch_alu(s, now, second);
    if (s->scb && s->scb->nonempty) oc_reads(s, now, second);
    oc_allocate(s, now, second);
}

/* the collector's steps this cycle: the second does something only for a late unit (else its
 * dispatch finds what the first left, and allocate_cu no unit freed since) or, with register
 * banks, for queued reads (granted ones make units ready from the next cycle on: nothing else
 * in the step sees them) */
static void oc_cycle(gms_sm *s, uint64_t now)
{
    oc_step(s, now, 0);
    if (s->oc_busy != 1) return;
    if (s->oc_late) oc_step(s, now, 1);
    else if (s->scb && s->scb->nonempty) oc_reads(s, now, 1);   /* the step's reads alone do something */
}

/* 3.x's ALU collector: a function unit took e; its registers are written back at wb */
static void aluc_issued(void *ctx, const gms_aluc_ent *e, uint64_t wb)
{
    gms_sm *s = ctx;
    warp *w = &s->w[e->warp];
    for (int i = 0; i < GMS_MAX_DST; i++)
        if (e->dst[i] != GMS_REG_NONE) wheel_add(s, wb, e->warp, e->dst[i]);
    s->oc_pending--;
    w->outstanding--;
    if (w->state == W_FINISHING) maybe_finish_warp(s, e->warp);
}

static void memq_cycle(gms_sm *s, uint64_t now)
{
    if (!s->lsu_busy && s->lsu_free_at <= now) {
        const gms_memq_ent *e = s->cke ? cke_take(s, now) : gms_memq_take(&s->memq, now);
        if (e) {
            warp *w = &s->w[e->warp];
            lsu_accept(s, e->warp, &e->in, gms_memq_ent_addrs(&s->memq, e), now);
            if (s->lsu_busy) {
                /* the warp keeps its count until lsu_feed has counted every transaction:
                 * finishing now would free its slot under the LSU */
                s->lsu_hold = e->warp + 1u;
            } else {
                w->outstanding--;
                if (w->state == W_FINISHING) maybe_finish_warp(s, e->warp);
            }
        }
    }
    if (s->aluc && (s->aluc->pending || s->aluc->reading)) {
        gms_aluc_cycle(s->aluc, now, aluc_issued, s);
        if (s->aluc->mem_done) gms_memq_reads_done(&s->memq, gms_aluc_mem_done(s->aluc), now + 1);
    }
    /* the warps parked on the slots that free here are candidates again (sched_cands) */
    if (s->oc) oc_cycle(s, now);
    else if (s->memq.shared_w) (void)gms_memq_collect_shared(&s->memq, s->memq_cap, s->memq_moves, now + 1);
    else (void)gms_memq_collect(&s->memq, s->memq_cap, now + 1);
}

/* ---------------------------------------------------------------- issue */

/* into scheduler si's ID_OC slot of type op (can_issue found it free); oc_cycle times it from
 * its collector unit: delay from the function unit's issue to the write-back */
static void oc_enter(gms_sm *s, uint32_t wi, const gms_inst *in, uint32_t op, uint32_t delay, uint32_t ii, int hold)
{
    warp *w = &s->w[wi];
    uint32_t si = sched_of(s, wi);
    oc_slot *sl = &s->oc[si].slot[op];
    sl->warp = (uint16_t)wi;
    sl->delay = delay;
    sl->ii = ii;
    sl->hold = (uint8_t)hold;
    sl->nosrc = (uint8_t)inst_no_src(in);
    memcpy(sl->src, in->src, sizeof sl->src);
    sl->rz = (uint8_t)((in->flags & GMS_INST_SRC_RZ) != 0);
    sl->seq = s->oc_seq++;
    for (int i = 0; i < GMS_MAX_DST; i++) { sl->dst[i] = in->dst[i]; sb_set(w, in->dst[i]); }
    s->oc_slot_mask[si] |= (uint16_t)(1u << op);
    s->oc_type_scheds[op] |= (uint16_t)(1u << si);
    s->oc_types |= 1u << op;
    s->oc_pending++;
}

/* An instruction of a specialised unit the config lacks or has with 0 units (spec_bad).
 * GPGPU-Sim keeps the enabled -specialized_unit_N before the first disabled one
 * (shader_core_config::init) and scheduler_unit::cycle asserts spec_id <
 * m_specialized_unit.size(), so Accel-Sim aborts on a missing unit; we run it on the pipe of
 * its class (one per scheduler, the unit's latency: docs/traces.md) and say so once a run. A
 * unit enabled with 0 units never issues there (a deadlock): an error. */
static __attribute__((noinline)) void spec_unit_missing(gms_sm *s, uint32_t wi, const gms_inst *in)
{
    const gms_core_params *c = &s->p->core;
    gms_gpu *g = s->g;
    uint32_t u = in->spec_unit;
    const gms_kernel_src *k = &s->blocks[s->w[wi].blk].k->src;
    const char *txt = k->opcode_text ? k->opcode_text(k->self, in->opcode_id) : NULL;
    if (u <= c->spec_on) {
        if (!__atomic_exchange_n(&g->failed, 1, __ATOMIC_RELAXED)) {
            gms_err(g->err, "kernel %s: '%s' (pc 0x%x) runs on specialised unit %u, which -specialized_unit_%u "
                    "enables with 0 units: GPGPU-Sim never issues it (a deadlock)", k->name, txt ? txt : "?",
                    in->pc, u, u);
            gms_engine_abort(g->eng, g->err->msg);
        }
        return;
    }
    if (__atomic_exchange_n(&g->spec_warned, 1, __ATOMIC_RELAXED)) return;
    char has[32];
    if (!c->spec_on) snprintf(has, sizeof has, "it has none");
    else if (c->spec_on == 1) snprintf(has, sizeof has, "it has unit 1 only");
    else snprintf(has, sizeof has, "it has units 1-%u", c->spec_on);
    fprintf(stderr, "gpumemsim: warning: kernel %s: '%s' (pc 0x%x) runs on specialised unit %u (Accel-Sim's "
            "SPECIALIZED_UNIT_%u_OP), which the config does not have (%s): Accel-Sim aborts there; gpumemsim runs "
            "it on a pipe of its own (docs/traces.md; Accel-Sim's tested configs enable it, e.g. "
            "-specialized_unit_%u %s); said once a run\n", k->name, txt ? txt : "?", in->pc, u, u,
            has, u, u == 1 ? "1,4,4,4,4,BRA" : u == 2 ? "1,4,200,4,4,TEX" : u == 3 ? "1,4,8,4,4,TENSOR"
                                                                               : "1,4,4,4,4,UDP");
}

/* GPGPU-Sim's warp_waiting_at_mem_barrier: a warp that issued a MEMBAR issues nothing until
 * its scoreboard has no pending write (loads in flight included; stores are not waited for),
 * then the barrier clears and, with -gpgpu_flush_l1_cache, the SM's L1D is invalidated
 * ("to ensure coherence and avoid reading stale data") */
int gms_sm_membar_waits(gms_sm *s, uint32_t wi)
{
    warp *w = &s->w[wi];
    if (!sb_empty(w)) {
        w->blocked = 1;   /* re-armed when a register is released */
        cand_off(s, wi);
        return 1;
    }
    w->membar = 0;
    if (s->p->core.flush_l1_cache) gms_sm_flush_l1(s);
    return 0;
}

static void issue_one(gms_sm *s, uint32_t wi, const gms_inst *in, uint64_t now)
{
    warp *w = &s->w[wi];
    if (__builtin_expect(in->flags & GMS_INST_MEMBAR, 0)) w->membar = 1;
    if (__builtin_expect(in->spec_unit != 0, 0) && (s->spec_bad >> in->spec_unit & 1)) spec_unit_missing(s, wi, in);
    uint32_t pop = (uint32_t)__builtin_popcount(in->mask);
    /* the LSU mark apart from QBMI's balanced set: Table 6's statistics and ALU utilisation do
     * not depend on -gms_cke_bmi_insts */
    if (s->cke) gms_cke_issued(s->cke, cke_app_of(s, wi), cke_mem_kind(s, in) | (in->op == GMS_OP_SFU ? GMS_CKE_SFU : 0) |
                                                         (in->op == GMS_OP_MEM ? GMS_CKE_LSU : 0), pop, now);
    s->winst++;
    s->tinst += pop;
    s->ctr->warp_insts++;
    s->ctr->thread_insts += pop;
    w->left--;
    warp_set_cur(s, wi, w->cur + 1);
    switch (in->op) {
    case GMS_OP_MEM:
        memq_push(s, wi, in);
        /* GPGPU-Sim counts the atomic's lanes in flight from its issue (sm_internal.h) */
        if ((in->mem == GMS_MEM_ATOM_GLOBAL || in->mem == GMS_MEM_ATOM_SHARED) && in->mask) sb_atomic_set(w);
        break;
    case GMS_OP_BAR: {
        block_slot *b = &s->blocks[w->blk];
        w->state = W_BARRIER;
        cand_off(s, wi);
        b->at_barrier++;
        s->ctr->barrier_waits++;
        /* into its pipe before the release: releasing may refill this warp's buffer (a chunk
         * ending with this BAR), which moves `in` */
        if (s->oc) oc_enter(s, wi, in, s->op_slot[GMS_OP_BAR], 2 + s->p->core.lat[GMS_OP_BAR].lat, s->p->core.lat[GMS_OP_BAR].ii, 0);
        if (s->aluc) {
            /* 3.x: into the SP pipe as every op that is not memory or SFU (scheduler_unit::cycle) */
            gms_aluc_push(s->aluc, GMS_ALUC_SP, (uint16_t)wi, in, s->p->core.lat[GMS_OP_BAR].lat, s->p->core.lat[GMS_OP_BAR].ii);
            w->outstanding++;
            s->oc_pending++;
        }
        if (b->at_barrier == b->bar_live) release_barrier(s, b);
        if (s->swl_on) gms_swl_update(s);   /* a waiting warp gives its SWL place up */
        break;
    }
    default: {
        const gms_lat_ii *li = &s->p->core.lat[in->op];
        uint32_t lat = li->lat, ii = li->ii;
        if (in->spec_unit && in->spec_unit <= GMS_MAX_SPEC_UNITS) {
            lat = s->p->core.spec_lat[in->spec_unit].lat;
            ii = s->p->core.spec_lat[in->spec_unit].ii;
        }
        /* Accel-Sim halves a paired-FP16 instruction's interval (at least 1, as its newer
         * front end; the older one's 0 would index past the unit's pipeline) */
        if (in->flags & GMS_INST_HALF_II) ii = ii >= 2 ? ii / 2 : 1;
        if (s->aluc) {
            /* into its pipe's ID_OC set; the collector and function units time it (aluc_issued).
             * The warp may not finish before a function unit has taken it. */
            gms_aluc_push(s->aluc, gms_aluc_pipe_of(in->op), (uint16_t)wi, in, lat, ii);
            for (int i = 0; i < GMS_MAX_DST; i++) sb_set(w, in->dst[i]);
            w->outstanding++;
            s->oc_pending++;
            break;
        }
        uint64_t *pf = s->pipe_free[in->op];
        uint32_t n = s->p->core.units[in->op];
        if (!s->oc) for (uint32_t k = 0; k < n; k++) if (pf[k] <= now) { pf[k] = now + ii; break; }
        if (s->oc && (in->op <= GMS_OP_BRA || in->op == GMS_OP_TEX || in->op == GMS_OP_UDP || in->op == GMS_OP_EXIT)) {
            int exit = in->op == GMS_OP_EXIT;
            if (exit) w->outstanding++;   /* until a unit takes it (oc_cycle) */
            oc_enter(s, wi, in, s->op_slot[in->op], 2 + lat, ii, exit);
            break;
        }
        for (int i = 0; i < GMS_MAX_DST; i++)
            if (in->dst[i] != GMS_REG_NONE) {
                sb_set(w, in->dst[i]);
                wheel_add(s, now + lat, (uint16_t)wi, in->dst[i]);
            }
        break;
    }
    }
    if (!w->left && w->state == W_ACTIVE && !(w->tr->more && warp_refill(s, wi))) {
        w->state = W_FINISHING;
        bar_exit(s, &s->blocks[w->blk]);
        cand_off(s, wi);
        if (s->swl_on) gms_swl_update(s);   /* a done_exit warp gives its SWL place up */
        maybe_finish_warp(s, wi);
    }
}

/* GPGPU-Sim 4.x's exec_unit_type_t of the unit an instruction issues to: its pipe (op_slot:
 * the SP's for INT ops without INT units, ...), every specialised unit one type */
static inline uint32_t exec_type(const gms_sm *s, const gms_inst *in)
{
    return in->spec_unit ? GMS_OP__COUNT : s->op_slot[in->op];
}

/* the scheduler issues warp wi's next instruction `in` (gms_sm_can_issue said it may) */
void gms_sm_issue(gms_sm *s, uint32_t wi, const gms_inst *in, uint64_t now)
{
    /* Dual issue (scheduler_unit::cycle, -gpgpu_max_insn_issue_per_warp 2): having issued, the
     * scheduler looks at the warp's next buffered instruction in the same cycle, with the
     * first one's registers reserved and its pipe's register set taken. Both front ends: 3.x's
     * (fe_dual) and the sub-core pipeline's (sub_dual: with -gms_inst_fetch none the buffer is
     * taken as full, and -gpgpu_dual_issue_diff_exec_units allows only another kind of unit).
     * The first's unit type is read before issue_one, which may refill the buffer under `in`. */
    const int dual = s->fe_dual | s->sub_dual;
    const uint32_t t1 = s->sub_dual ? exec_type(s, in) : 0;
    issue_one(s, wi, in, now);
    if (s->fe_on) gms_ifetch_after_issue(s, wi, dual);
    if (__builtin_expect(!dual, 1)) return;
    const gms_inst *in2;
    if (s->w[wi].left && is_cand(s, wi) && (!s->fe_on || s->ib[wi]) &&
        gms_sm_can_issue(s, wi, now, gms_sm_mem_slot_free(s, sched_of(s, wi)), &in2) &&
        !(s->sub_dual && s->p->core.dual_issue_diff_exec_units && exec_type(s, in2) == t1)) {
        issue_one(s, wi, in2, now);
        if (s->fe_on) gms_ifetch_after_issue(s, wi, 1);
    }
}

/* ---------------------------------------------------------------- tick */

static void run_events(gms_sm *s, uint64_t cycle)
{
    if (!s->wheel_events) { s->last_cycle = cycle; return; }
    uint64_t from = s->last_cycle + 1;
    if (cycle - s->last_cycle > (uint64_t)s->wheel_mask + 1) from = cycle - s->wheel_mask;
    for (uint64_t c = from; c <= cycle && s->wheel_events; c++) {
        if (!wheel_has(s, c)) continue;
        uint32_t k = (uint32_t)(c & s->wheel_mask);
        bucket *b = &s->wheel[k];
        for (uint32_t i = 0; i < b->n; i++) {
            event e = *bucket_ev(b, i);
            s->wheel_events--;
            s->w[e.warp].reg_events--;
            reg_released(s, e.warp, e.reg);
        }
        b->n = 0;
        s->wheel_occ[k >> 6] &= ~(1ULL << (k & 63));
    }
    s->last_cycle = cycle;
}

/* per-cycle work other than requests waiting inside the L1 pipeline (bank queues) */
__attribute__((always_inline)) static inline int sm_has_work_outside_l1_pipe(const gms_sm *s)
{
    if (s->ncand || s->npark || s->memq.n || s->oc_pending || s->lsu_busy || s->replies.n || s->bypass_out.n) return 1;
    if (fe_busy(s)) return 1;   /* the front end fetches or decodes */
    if (s->mrpb && s->mrpb->n) return 1;
    if (s->wb_sh | s->sh_waiting || s->next_global || s->next_wb) return 1;
    return s->l1 && (gms_cache_mq_size(s->l1) || gms_cache_access_ready(s->l1));
}

/* Host speed: the SM has no work outside its L1 pipeline (sm_has_work_outside_l1_pipe). 0:
 * the pipeline is empty too; 1: the SM must tick next cycle (a request reaches the end of the
 * pipeline then, or -gms_sleep_blocked is off); else the cycle at which the first request
 * does. Ticking through the cycles before it would change nothing (the register-release
 * wheel is caught up by run_events; replies, translations and new blocks activate the SM).
 * New kinds of per-cycle work belong in sm_has_work_outside_l1_pipe (test: sleep_blocked_*). */
static uint64_t l1_pipe_wake(const gms_sm *s, uint64_t cycle)
{
    uint64_t t = UINT64_MAX;
    if (s->shp.n) {   /* the shared-memory pipeline's head reaches the write-back slot */
        uint64_t r = gms_shpipe_ready_at(&s->shp);
        if (r <= cycle + 1 || !s->p->sim.sleep_blocked) return 1;
        t = r;
    }
    for (uint32_t m = s->bank_busy; m; m &= m - 1) {
        uint64_t r = s->bank[__builtin_ctz(m)].head->t_ready;
        if (r <= cycle + 1 || !s->p->sim.sleep_blocked) return 1;
        if (r < t) t = r;
    }
    return t == UINT64_MAX ? 0 : t;
}

/* may a candidate warp issue (as far as the blocked-tick shortcut needs to know)? Any
 * candidate may, except under SWL one outside its K: gms_sm_can_issue refuses it at once and
 * changes nothing (under UVM the K oldest warps can all wait on far faults for tens of
 * thousands of cycles while the others stay candidates) */
static int sm_cands_may_issue(const gms_sm *s)
{
    if (!s->ncand) return 0;
    if (!s->p->core.swl) return 1;
    for (uint32_t w = 0; w < (s->nwarps_max + 63) / 64; w++)
        if (s->cand[w] & s->swl_ok[w]) return 1;
    return 0;
}

/* end of a full tick at `cycle` that keeps the SM active: record a snapshot if it is blocked
 * (sm_sleep.c), and sleep through it if it may. Returns the tick's result: 1 (stay active), or
 * 0 (asleep). The first tests (most full ticks fail them) are inline, the rest is not. */
static inline int sm_blocked_snapshot(gms_sm *s, uint64_t cycle)
{
    if (s->tick_l1_changed || s->next_wb || s->wb_sh || s->next_global || s->replies.n || !s->blk_on ||
        sm_cands_may_issue(s))
        return 1;
    if (fe_busy(s)) return 1;
    if (s->blk_skip) { s->blk_skip--; return 1; }
    int r = gms_sm_blocked_snapshot_rest(s, cycle);
    if (!r) gms_sm_blocked_wasted(s);
    return r != 2;
}

static int sm_tick_body(gms_sm *s, uint64_t cycle);

int gms_sm_tick(void *self, uint64_t cycle)
{
    gms_sm *s = self;
    /* one call site, so that the body stays inlined here; thread oversubscription runs after
     * the body (UVM runs are serial: no per-thread counters then) */
    gms_counters *tls = gms_par_ctr_tls;
    if (__builtin_expect(tls != NULL, 0)) s->ctr = tls;
    s->pipe_sleep = 0;
    int r = sm_tick_body(s, cycle);
    if (__builtin_expect(tls != NULL, 0)) s->ctr = &s->g->ctr;
    if (__builtin_expect(s->to != NULL, 0)) {
        if (s->pipe_sleep) {
            /* asleep on its L1 pipeline: ticked every cycle (-gms_sleep_blocked 0) the SM would
             * be active, so thread oversubscription must not take it for idle (a look now, and
             * none until an event) but look when it would next look at an active SM; if that
             * swapped or woke warps, the SM ticks on */
            gms_to_tick(s, cycle, 1);
            if (sm_has_work_outside_l1_pipe(s)) return 1;
            gms_engine_wake_at(s->g->eng, s->comp, gms_to_next_look(s));
            return 0;
        }
        if (r || s->blk.sleep_from != cycle + 1) return gms_to_tick(s, cycle, r);
        /* asleep since this tick: thread oversubscription sees the SM as its blocked ticks would
         * leave it (active), and looks again when it would next look at an active SM */
        r = gms_to_tick(s, cycle, 1);
        if (!s->blk.until) return 1;   /* it swapped or woke warps: the SM ticks on */
        gms_engine_wake_at(s->g->eng, s->comp, gms_to_next_look(s));
        return 0;
    }
    return r;
}

static int sm_tick_body(gms_sm *s, uint64_t cycle)
{
    if (__builtin_expect(s->blk.sleep_from != 0, 0)) {
        gms_sm_sleep_settle(s, cycle);
        s->blk.sleep_from = 0;
        /* woken by an event: the sleep's wake-up would be an extra, idle tick later, and thread
         * oversubscription looks at the SM at every idle tick (UVM runs are serial) */
        if (s->to) gms_engine_cancel_wake(s->g->eng, s->comp);
    }
    if (s->blk.until) {
        /* (asleep again at once when the SM woke for thread oversubscription's look) */
        if (gms_sm_blocked_tick(s, cycle)) { s->blk_hit = 1; return !gms_sm_sleep(s, cycle); }
        s->blk.until = 0;
        if (s->blk_hit) s->blk_backoff = 0; else gms_sm_blocked_wasted(s);
    }
    s->tick_fail_mask = 0;
    s->tick_l1_changed = 0;
    s->tick_lsu = LSU_STALL_NONE;
    s->tick_lsu_sent = 0;
    s->tick_l1_sent_flits = 0;
    run_events(s, cycle);
    if (s->l1 || s->wb_on) writeback(s, cycle);
    if (__builtin_expect(s->sh_waiting, 0)) sh_enter(s, cycle);
    process_reply(s, cycle);
    int sent = s->l1 && drain_to_icnt(s, 1, cycle);
    if (s->l1) l1_access(s, cycle);
    if (s->mrpb && s->mrpb->n) mrpb_drain(s, cycle);   /* a stage: what the LSU feeds now goes next cycle */
    if (s->lsu_busy) lsu_feed(s, cycle);
    if (s->cke && s->lsu_busy) s->cke->a[cke_app_of(s, s->lsu_warp)].lsu_stall++;   /* the LSU stays held */
    if (!sent && !s->tick_lsu_sent) drain_to_icnt(s, 0, cycle);
    if (s->memq.n || s->oc_pending) memq_cycle(s, cycle);
    s->op_busy = 0;
    if (__builtin_expect(s->cke != NULL, 0) && s->npark && s->cke->c->bmi_parked && s->cke->mi->prio)
        cke_parked_demand(s, cycle);   /* RBMI / QBMI: the ones with an arbitration */
    if (s->ncand || s->npark)
        for (uint32_t i = 0, first = (uint32_t)issue_prio(s, cycle) & s->issue_rot; i < s->nsched; i++) {
            uint32_t si = sched_of(s, i + first);
            if (s->sc[si].n && sched_has_cands(s, si)) s->sched_ops->pick(s, si, cycle);
        }
    /* 4.x's shader_core_ctx::cycle: -gpgpu_inst_fetch_throughput x (decode; fetch); 3.x: once */
    for (uint32_t k = 0; k < s->fe_tput && fe_busy(s); k++) gms_ifetch_cycle(s);
    if (sm_has_work_outside_l1_pipe(s)) return sm_blocked_snapshot(s, cycle);
    uint64_t t = l1_pipe_wake(s, cycle);
    if (t == 1) return sm_blocked_snapshot(s, cycle);
    /* sleep until then, or the next register release if that comes first */
    uint64_t wake = wake_or_release(s, cycle, t ? t : UINT64_MAX);
    if (wake != UINT64_MAX) gms_engine_wake_at(s->g->eng, s->comp, wake);
    s->pipe_sleep = t != 0;
    return 0;
}

