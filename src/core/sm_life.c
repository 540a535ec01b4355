/* The SM's life cycle (see sm.h): construction (the structures each option asks for), the
 * occupancy and resource checks of block dispatch, the watchdog's dump, the statistics and
 * teardown. What the SM does cycle by cycle is in sm.c, its blocked ticks in sm_sleep.c. */
#include "core/sm_internal.h"
#include "core/thread_oversub.h"
#include "mem/mrpb.h"
#include "core/bypass_policy.h"
#include "core/ccws.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint32_t gms_occupancy(const gms_core_params *c, uint32_t tpb, uint32_t regs, uint32_t shmem)
{
    uint32_t padded = (tpb + 31) / 32 * 32;
    if (padded == 0 || padded > c->max_threads_per_sm) return 0;
    uint32_t n = c->shader_cta;
    uint32_t by_threads = c->max_threads_per_sm / padded;
    if (by_threads < n) n = by_threads;
    uint32_t rpt = (regs + 3) & ~3u;                 /* GPGPU-Sim rounds registers up to 4 */
    if (rpt) {
        uint32_t by_regs = c->shader_registers / (padded * rpt);
        if (by_regs < n) n = by_regs;
    }
    if (shmem) {
        uint32_t by_shmem = c->shmem_size / shmem;
        if (by_shmem < n) n = by_shmem;
    }
    return n;
}

int gms_sm_can_take(const gms_sm *s, const gms_kernel *k)
{
    if (s->to) return gms_to_can_take(s, k);   /* thread oversubscription: inactive blocks too */
    if (s->blocks_used >= s->nblock_slots) return 0;
    if (!s->p->core.concurrent_kernel_sm && !s->cke && s->kernel_here && s->kernel_here != k) return 0;
    if (k->sm_hi && (s->id < k->sm_lo || s->id >= k->sm_hi)) return 0;   /* spatial partition (src/cke) */
    if (s->threads_used + k->warps_per_block * 32 > s->p->core.max_threads_per_sm) return 0;
    if (s->regs_used + k->regs_per_block > s->p->core.shader_registers) return 0;
    if (s->shmem_used + k->shmem_per_block > s->p->core.shmem_size) return 0;
    uint32_t per_k = 0;
    for (uint32_t i = 0; i < s->nblock_slots; i++) if (s->blocks[i].used && s->blocks[i].k == k) per_k++;
    if (per_k >= k->max_blocks_per_sm) return 0;
    /* contiguous warp slots */
    uint32_t run = 0;
    for (uint32_t i = 0; i < s->nwarps_max; i++) {
        run = s->w[i].state == W_FREE ? run + 1 : 0;
        if (run == k->warps_per_block) return 1;
    }
    return 0;
}

/* memq's rd_alloc under 3.x's register banks: the instruction's unit reads its operands */
static int memq_rd_alloc(void *ctx, gms_memq_ent *e)
{
    int u = gms_aluc_mem_alloc(ctx, e->warp, &e->in);
    if (u == GMS_ALUC_NO_READS) return 0;
    if (u < 0) return -1;
    e->cu = (uint8_t)u;
    return 1;
}

static void memq_init(gms_sm *s)
{
    const gms_core_params *c = &s->p->core;
    uint32_t cu = c->oc_mem_units;
    if (c->sub_core_model) cu /= s->nsched ? s->nsched : 1;
    s->memq_cap = (cu ? cu : 1) + 1;
    if (c->id_oc_mem_shared) {
        s->memq.shared_w = c->idoc_mem_w;
        s->memq_cap = cu + c->ocex_mem_w;
        s->memq_moves = c->oc_mem_moves;
    }
    if (c->aluc) {
        const gms_aluc_shape shape[GMS_ALUC_PIPES] = {
            [GMS_ALUC_SP] = { c->idoc_w[0], c->ocex_w[0], c->oc_units_sp, c->oc_in_sp, c->oc_out_sp, c->num_sp_units },
            [GMS_ALUC_SFU] = { c->idoc_w[1], c->ocex_w[1], c->oc_units_sfu, c->oc_in_sfu, c->oc_out_sfu,
                               c->units[GMS_OP_SFU] },
        };
        s->aluc = gms_xcalloc(1, sizeof *s->aluc);
        gms_aluc_init(s->aluc, shape, c->exwb_w);
        if (c->regbanks) gms_aluc_banks(s->aluc, c->num_reg_banks, c->oc_units_mem + c->oc_units_gen);
        s->memq.src_reads = 1;
        if (c->regbanks && !c->oc_units_gen && c->oc_units_mem && !strcmp(c->reg_banks_mem, "gpgpusim")) {
            /* the memory units' reads on the banks too */
            gms_aluc_mem_reads(s->aluc, c->oc_units_mem);   /* at most GMS_ALUC_MAX_CU (core_options.c) */
            s->memq.rd_alloc = memq_rd_alloc;
            s->memq.rd_ctx = s->aluc;
        }
    }
    for (uint32_t op = 0; op < GMS_OP__COUNT; op++) s->op_slot[op] = (uint8_t)op;
    if (c->sub_core_model && c->oc_units_gen) {
        /* GPGPU-Sim 4.x's scheduler_unit::cycle sends every op that is not memory, SP, SFU, DP,
         * tensor or a specialised unit's to the INT pipe (the SP pipe without INT units, as
         * the ALU ops): BAR and EXIT take an ID_OC_INT slot, a collector unit and the unit
         * with latency and interval 1 (trace_config::set_latency's default). Without INT
         * units (-gpgpu_num_int_units 0, Pascal's "there is no INT unit") the INT/ALU ops
         * share the SP pipe's slot, collector dispatch and function unit; without DP units
         * DP ops take the SFU's (sf_unit::can_issue takes DP_OP "for compute <= 29") */
        uint8_t alu = c->num_int_units ? GMS_OP_INT : GMS_OP_SP;
        s->op_slot[GMS_OP_INT] = alu;
        s->op_slot[GMS_OP_BAR] = s->op_slot[GMS_OP_EXIT] = alu;
        if (!c->num_dp_units) s->op_slot[GMS_OP_DP] = GMS_OP_SFU;
        s->oc = gms_xcalloc(s->nsched, sizeof *s->oc);
        for (uint32_t si = 0; si < s->nsched; si++)
            for (uint32_t k = 0; k < OC_MAX_CU; k++) s->oc[si].cu_op[k] = OC_CU_NONE;
        s->oc_cu = cu < OC_MAX_CU ? (cu ? cu : 1) : OC_MAX_CU;
        s->oc_ports = c->oc_in_ports_gen ? c->oc_in_ports_gen : 1;
        /* opndcoll_rfu_t::step runs reg_file_port_throughput times a cycle: with 2 or more a
         * unit allocated in the first step reads its operands in the second and dispatches in
         * the next cycle's first; with 1 it reads the next cycle and dispatches the one after */
        s->oc_busy = c->reg_file_port_throughput >= 2 ? 1 : 2;
        if (c->scbanks) {
            s->scb = gms_xcalloc(1, sizeof *s->scb);
            gms_scb_init(s->scb, c->num_reg_banks, s->nsched);
        }
    }
}

static void sm_stuck(void *self, FILE *out)
{
    gms_sm *s = self;
    if (!s->blocks_used) return;
    if (s->id >= 4) {   /* details for the first SMs only; the rest in one line each */
        if (s->id < 16)
            fprintf(out, "    SM %u: %u block(s), LSU %s, %u reply(s) queued\n", s->id, s->blocks_used,
                    s->lsu_busy ? "busy" : "idle", s->replies.n);
        return;
    }
    fprintf(out, "    SM %u: %u block(s), %u warp candidate(s), LSU %s, %u reply(s) queued, L1 MSHRs used %u, "
            "miss queue %u, register events %llu, %u memory instruction(s) before the LSU, %u instruction(s) "
            "in ID_OC slots, %u warp(s) parked on a slot\n", s->id, s->blocks_used, s->ncand,
            s->lsu_busy ? "busy" : "idle", s->replies.n, s->l1 ? gms_cache_mshr_used(s->l1) : 0,
            s->l1 ? gms_cache_mq_size(s->l1) : 0, (unsigned long long)s->wheel_events, s->memq.n, s->oc_pending,
            s->npark);
    if (s->mrpb)
        fprintf(out, "      MRPB: %u request(s) queued, %u slot(s) held, last drained queue %u\n", s->mrpb->n,
                s->mrpb->held, s->mrpb->cur);
    for (uint32_t b = 0; b < s->nbanks; b++)
        if (s->bank[b].n) {
            gms_rf_cause cause = GMS_RF__COUNT;
            gms_mreq *h = s->bank[b].head;
            fprintf(out, "      L1 bank %u: %u request(s) waiting, head %s 0x%llx ready at %llu\n", b, s->bank[b].n,
                    h->kind == GMS_MREQ_WRITE ? "write" : "read", (unsigned long long)h->addr,
                    (unsigned long long)h->t_ready);
            (void)cause;
        }
    if (s->wb_on && (s->shp.n || s->sh_waiting || s->next_global || s->next_wb || s->wb_sh))
        fprintf(out, "      LDST write-back: slot %s, %u shared load(s) in the pipeline (head ready at %llu)%s%s\n",
                s->wb_sh ? "holds a shared load" : s->next_wb ? "holds a global load" : "free", s->shp.n,
                (unsigned long long)gms_shpipe_ready_at(&s->shp), s->sh_waiting ? ", one waiting to enter" : "",
                s->next_global ? ", a bypassed reply waiting" : "");
    if (s->fe_on)
        fprintf(out, "      front end: %u warp(s) waiting for a fetch, fetch buffer %s\n", s->fe_nwant,
                s->fe_buf >= 0 ? "full" : "empty");
    /* the warps not at a barrier first: a barrier that never opens waits for one of them */
    int shown = 0;
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t i = 0; i < s->nwarps_max && shown < 4; i++) {
            warp *w = &s->w[i];
            if (w->state == W_FREE || w->state == W_DONE || (w->state == W_BARRIER) != pass) continue;
            static const char *const st[] = { "free", "active", "at barrier", "finishing", "done", "switched out" };
            fprintf(out, "      warp %u: %s, next instruction %u of %u, %u memory transaction(s) outstanding%s", i,
                    st[w->state], w->tr->n - w->left, w->tr->n, w->outstanding, w->blocked ? ", waiting on the scoreboard" : "");
            if (s->fe_on)
                fprintf(out, ", %u in its instruction buffer%s%s", s->ib[i], s->ib_bad[i] ? " (+1 to flush)" : "",
                        s->fe_want[i >> 6] >> (i & 63) & 1 ? ", waiting for a fetch" : "");
            fputc('\n', out);
            shown++;
        }
}

/* ---------------------------------------------------------------- life cycle */

gms_sm *gms_sm_new(gms_gpu *g, uint32_t id)
{
    const gms_params *p = g->p;
    gms_sm *s = gms_xcalloc(1, sizeof *s);
    s->g = g;
    s->ctr = &g->ctr;
    s->p = p;
    s->id = id;
    /* a reply popped from the interconnect waits in the cluster's FIFO, then in the LDST unit's,
     * which takes one a cycle: with one SM a cluster the two hold ejection + LDST replies (the
     * cluster's pops stop when its own is full, and it fills only while the LDST unit's is full);
     * with several, the cluster's SMs together at most ejection + each one's LDST replies
     * (reply_to_cluster, gpu.c) */
    s->reply_cap = p->core.ejection_buf + p->core.ldst_resp_buf;
    s->icnt_port = id / (p->core.n_cores_per_cluster ? p->core.n_cores_per_cluster : 1);
    s->cl_replies = g->cl_replies ? &g->cl_replies[s->icnt_port] : NULL;
    s->nwarps_max = p->core.max_warps_per_sm < MAX_WARPS ? p->core.max_warps_per_sm : MAX_WARPS;
    s->nblock_slots = p->core.shader_cta;
    s->blocks = gms_xcalloc(s->nblock_slots, sizeof *s->blocks);
    if (p->uvm.to) gms_to_init(s);   /* more block and warp slots for inactive contexts */
    s->nsched = p->core.num_sched_per_core < MAX_SCHED ? p->core.num_sched_per_core : MAX_SCHED;
    if (s->nsched && !(s->nsched & (s->nsched - 1))) {
        s->sched_pow2 = 1;
        s->sched_mask = s->nsched - 1;
        s->sched_shift = (uint32_t)__builtin_ctz(s->nsched);
    }
    for (uint32_t i = 0; i < s->nsched; i++) s->sc[i].last = -1;
    s->sched_ops = gms_warp_sched_find(p->core.scheduler);
    if (s->sched_ops->init) s->sched_ops->init(s);
    for (uint32_t u = 1; u <= GMS_MAX_SPEC_UNITS && u < 32; u++)
        if (u > p->core.spec_on || !p->core.spec_nunits[u]) s->spec_bad |= 1u << u;
    memq_init(s);
    s->wb_on = (uint8_t)(p->core.lsu_wb != 0);
    if (s->wb_on) gms_shpipe_init(&s->shp, p->core.smem_latency);
    s->issue_rot = p->core.issue_fixed ? 0 : ~0u;
    s->prio_from = UINT64_MAX;
    s->fe_on = (uint8_t)(p->core.ifetch != 0);
    s->fe_dual = (uint8_t)(p->core.ifetch && !p->core.sub_core_model && p->core.max_insn_issue_per_warp >= 2);
    s->sub_dual = (uint8_t)(s->oc && p->core.max_insn_issue_per_warp >= 2);
    s->fe_tput = p->core.inst_fetch_throughput;
    s->fe_buf = -1;
    s->fe_last = 0;   /* 3.x's m_last_warp_fetched starts at 0: the first scan starts at warp 1 */
    for (int op = 0; op < GMS_OP__COUNT; op++)
        s->pipe_free[op] = gms_xcalloc(p->core.units[op] ? p->core.units[op] : 1, sizeof(uint64_t));
    uint32_t maxlat = 64 + p->core.smem_latency + 1024;
    /* a write-back is at most latency + a few initiation intervals ahead (the sub-core
     * collector queues up to its units + 1 instructions of a type for a function unit) */
    for (int op = 0; op < GMS_OP__COUNT; op++) {
        uint32_t l = p->core.lat[op].lat + (OC_MAX_CU + 2) * p->core.lat[op].ii + 64;
        if (l > maxlat) maxlat = l;
    }
    for (int i = 1; i <= GMS_MAX_SPEC_UNITS; i++) {
        uint32_t l = p->core.spec_lat[i].lat + (OC_MAX_CU + 2) * p->core.spec_lat[i].ii + 64;
        if (l > maxlat) maxlat = l;
    }
    uint32_t ws = 64;   /* a multiple of 64: the occupancy words (wheel_next) */
    while (ws < maxlat) ws <<= 1;
    s->wheel = gms_xaligned(64, ws * sizeof *s->wheel);
    memset(s->wheel, 0, ws * sizeof *s->wheel);
    s->wheel_occ = gms_xcalloc(ws / 64, sizeof *s->wheel_occ);
    s->wheel_mask = ws - 1;
    s->l1_enabled = p->l1d.dl1.enabled;
    if (s->l1_enabled) {
        char name[32];
        snprintf(name, sizeof name, "L1D[%u]", id);
        s->l1 = gms_cache_new(&p->l1d.dl1, &g->pool, name, GMS_CACHE_L1);
        s->l1_sector = p->l1d.dl1.type == 'S';
    }
    s->nbanks = p->l1d.l1_banks ? p->l1d.l1_banks : 1;
    if (s->nbanks > MAX_BANKS) s->nbanks = MAX_BANKS;
    /* the set-index function's latency is one more pipeline stage in front of the tag lookup:
     * every access takes it, and each bank's pipeline holds that many more requests */
    s->l1_latency = (p->l1d.l1_latency ? p->l1d.l1_latency : 1) + p->l1d.index_latency;
    s->blk_on = p->sim.sleep_blocked;
    if (s->blk_on && s->l1) {
        gms_cache_track_refusals(s->l1);
        s->l1_ev = 1;
    }
    if (p->l1d.mrpb.on && s->l1) {
        s->mrpb = gms_mrpb_new(&p->l1d.mrpb, s->nwarps_max);   /* (blocked ticks: see sm_blocked_snapshot_rest) */
    }
    s->byp_ops = gms_bypass_find(p->core.l1d_bypass);
    if (s->byp_ops && !s->byp_ops->bypass) s->byp_ops = NULL;   /* "none" */
    if (s->byp_ops && s->byp_ops->sm_new) s->byp = s->byp_ops->sm_new(s);
    s->swl_on = p->core.swl != 0 || p->core.ccws;   /* (CCWS re-sorts when SWL would) */
    if (p->core.ccws && s->l1) s->ccws = gms_ccws_new(s);
    s->l1_hooks = s->l1_pdp || s->ccws;
    snprintf(s->name, sizeof s->name, "SM%u", id);
    s->comp = gms_engine_add(g->eng, GMS_DOM_CORE, s->name, gms_sm_tick, sm_stuck, s);
    gms_engine_mark_parallel(s->comp);
    return s;
}

void gms_sm_pool_idle_buffers(gms_sm *s, gms_gpu *g)
{
    for (uint32_t i = 0; i < s->nblock_slots; i++) {
        block_slot *b = &s->blocks[i];
        if (b->used || !b->bt.warps_cap) continue;
        gms_block_trace_reset(&b->bt, 0);   /* ends any resumable stream it still held */
        if (g->bt_pool_n == g->bt_pool_cap) {
            g->bt_pool_cap = g->bt_pool_cap ? 2 * g->bt_pool_cap : 64;
            g->bt_pool = gms_xrealloc(g->bt_pool, g->bt_pool_cap * sizeof *g->bt_pool);
        }
        g->bt_pool[g->bt_pool_n++] = b->bt;
        memset(&b->bt, 0, sizeof b->bt);
    }
}

uint32_t gms_sm_block_buffers(const gms_sm *s)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < s->nblock_slots; i++) n += s->blocks[i].bt.warps_cap > 0;
    return n;
}

void gms_sm_free(gms_sm *s)
{
    if (!s) return;
    for (uint32_t i = 0; i < s->nblock_slots; i++) gms_block_trace_free(&s->blocks[i].bt);
    gms_to_free(s);
    free(s->blocks);
    for (int op = 0; op < GMS_OP__COUNT; op++) free(s->pipe_free[op]);
    for (uint32_t i = 0; i <= s->wheel_mask; i++) free(s->wheel[i].more);
    free(s->wheel);
    free(s->wheel_occ);
    for (uint32_t i = 0; i < s->ninf_slabs; i++) free(s->inf_slabs[i]);
    free(s->inf_slabs);
    if (s->l1) gms_cache_free(s->l1);
    gms_mrpb_free(s->mrpb);
    if (s->byp_ops && s->byp_ops->sm_free) s->byp_ops->sm_free(s->byp);
    gms_ccws_free(s->ccws);
    free(s->oc);
    gms_shpipe_free(&s->shp);
    if (s->aluc) gms_aluc_free(s->aluc);
    free(s->aluc);
    free(s->scb);
    free(s);
}

int gms_sm_set_l1_assoc(gms_sm *s, uint32_t assoc)
{
    gms_sm_snapshot_clear(s);
    return s->l1 ? gms_cache_set_assoc(s->l1, assoc) : 0;
}

int gms_sm_set_l1_on_miss(gms_sm *s, int on_miss)
{
    gms_sm_snapshot_clear(s);
    return s->l1 ? gms_cache_set_on_miss(s->l1, on_miss) : 0;
}

void gms_sm_flush_l1(gms_sm *s)
{
    s->l1_used = 0;
    gms_sm_snapshot_clear(s);   /* the L1's answers may change */
    if (s->l1) {
        gms_cache_flush(s->l1);
        if (gms_cache_mq_size(s->l1)) gms_engine_activate(s->g->eng, s->comp);
    }
}

/* -gpgpu_flush_l1_cache: GPGPU-Sim invalidates the L1 of every cluster with no thread left,
 * each cycle after handing out blocks (gpgpu_sim::cycle); an SM flushed and not used since
 * needs nothing */
void gms_sm_flush_l1_if_idle(gms_sm *s)
{
    if (s->l1_used && s->blocks_used == 0) gms_sm_flush_l1(s);
}

int gms_sm_idle(const gms_sm *s) { return s->blocks_used == 0; }
gms_component *gms_sm_component(const gms_sm *s) { return s->comp; }
gms_cache *gms_sm_l1(const gms_sm *s) { return s->l1; }

void gms_sm_kernel_begin(gms_sm *s)
{
    if (s->byp_ops && s->byp_ops->kernel_begin) s->byp_ops->kernel_begin(s->byp, s);
}

void gms_sm_report(gms_sm *const *sms, uint32_t n, gms_stats *out)
{
    gms_cache **c = gms_xcalloc(n ? n : 1, sizeof *c);
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) if (sms[i]->l1) c[k++] = sms[i]->l1;
    if (k) gms_cache_report(c, k, "L1D", out);
    free(c);
    if (n && sms[0]->to) gms_to_report(sms, n, out);   /* thread oversubscription */
    if (n && sms[0]->mrpb) {   /* MRPB statistics only when it is on (docs/counters.md) */
        gms_mrpb_stats t = {0};
        for (uint32_t i = 0; i < n; i++) {
            const gms_mrpb_stats *x = &sms[i]->mrpb->st;
            t.requests += x->requests;
            t.bypassed += x->bypassed;
            t.full_stalls += x->full_stalls;
            t.bank_stalls += x->bank_stalls;
            t.switches += x->switches;
            if (x->max_occupancy > t.max_occupancy) t.max_occupancy = x->max_occupancy;
        }
        gms_stat_u64(out, "gms_mrpb_requests", t.requests);
        gms_stat_u64(out, "gms_mrpb_bypassed", t.bypassed);
        gms_stat_u64(out, "gms_mrpb_full_stalls", t.full_stalls);
        gms_stat_u64(out, "gms_mrpb_bank_stalls", t.bank_stalls);
        gms_stat_u64(out, "gms_mrpb_queue_switches", t.switches);
        gms_stat_u64(out, "gms_mrpb_max_occupancy", t.max_occupancy);
    }
    if (n && sms[0]->aluc && sms[0]->aluc->nbanks) {   /* register banks (-gms_reg_banks gpgpusim) */
        uint64_t t = 0;
        uint64_t w = 0;
        for (uint32_t i = 0; i < n; i++) { t += sms[i]->aluc->bank_conflicts; w += sms[i]->aluc->lsu_wb_conflicts; }
        gms_stat_u64(out, "gms_regfile_bank_conflicts", t);
        gms_stat_u64(out, "gms_regfile_lsu_wb_conflicts", w);
    }
    if (n && sms[0]->scb) {   /* sub-core register banks (-gms_subcore_reg_banks gpgpusim) */
        uint64_t t = 0, w = 0;
        for (uint32_t i = 0; i < n; i++) { t += sms[i]->scb->wait_steps; w += sms[i]->scb->lsu_wb_conflicts; }
        gms_stat_u64(out, "gms_subcore_bank_wait_steps", t);
        gms_stat_u64(out, "gms_regfile_lsu_wb_conflicts", w);
    }
    if (n && sms[0]->wb_on) {   /* the LDST unit's write-back clients (-gms_lsu_writeback gpgpusim) */
        uint64_t wt = 0, full = 0;
        for (uint32_t i = 0; i < n; i++) { wt += sms[i]->wb_client_waits; full += sms[i]->shp_full; }
        gms_stat_u64(out, "gms_lsu_wb_client_waits", wt);
        gms_stat_u64(out, "gms_lsu_shmem_pipe_full", full);
    }
    if (n && gms_bypass_stats_on(sms[0]->p)) {   /* bypass path statistics (bypass_path.h) */
        const gms_bypass_sm **b = gms_xcalloc(n, sizeof *b);
        uint32_t *inf = gms_xcalloc(n, sizeof *inf);
        for (uint32_t i = 0; i < n; i++) { b[i] = &sms[i]->bp; inf[i] = sms[i]->bypass_inflight; }
        gms_bypass_report(b, n, now_core(sms[0]), inf, out);
        free(b);
        free(inf);
    }
    if (n && sms[0]->byp_ops && sms[0]->byp_ops->report) sms[0]->byp_ops->report(sms, n, out);
    if (n && sms[0]->ccws) gms_ccws_report(sms, n, out);
}

uint64_t gms_sm_max_remaining(const gms_sm *s, const gms_kernel *k)
{
    uint64_t m = 0;
    if (!s->blocks_used) return 0;
    for (uint32_t i = 0; i < s->nwarps_max; i++) {
        const warp *w = &s->w[i];
        if ((w->state != W_ACTIVE && w->state != W_BARRIER && w->state != W_SWAPPED) || s->blocks[w->blk].k != k) continue;
        uint64_t r = w->left;
        if (w->tr->more) r++;
        if (r > m) m = r;
    }
    return m;
}
