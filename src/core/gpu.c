/* The simulation object: builds the GPU from the parameters, runs the host program
 * (commands, kernel launches, block dispatch) and collects the statistics. */
#include "core/gpu.h"
#include "core/local_mem.h"
#include "config/config_digest.h"
#include "core/sm.h"
#include "frontend/trace.h"
#include "uvm/uvm.h"
#include "uvm/etc.h"
#include "workloads/workload.h"
#include "workloads/classify.h"
#include "core/belady_prepass.h"
#include "core/footprint_prepass.h"
#include "core/opt_prepass.h"
#include "cke/cke_driver.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct gms_sim {
    gms_gpu g;
    gms_error async_err;
    const gms_workload_ops *ops;
    gms_wl_args *args;
    uint64_t done_calls;
    int stopped_early;
};

/* ---------------------------------------------------------------- stats */

/* gpu_tot_sim_cycle at core cycle `now`: the core cycles in which a kernel ran (copies,
 * prefetches and gaps between kernels are not kernel time: GPGPU-Sim does not clock them) */
static uint64_t kernel_cycles(const gms_gpu *g, uint64_t now)
{
    return g->kernel_cycles_total + (g->n_running ? now - g->busy_since : 0);
}

/* the watchdog's probe: an SM asleep through blocked ticks or on its L1 pipeline, and the
 * interconnect asleep with packets on the wires, would be ticked (active) with
 * -gms_sleep_blocked 0 */
static int gpu_sms_asleep(void *ud)
{
    const gms_gpu *g = ud;
    /* the interconnect first: one flag, where the SMs' test reads every SM */
    return gms_icnt_asleep(&g->icnt) || gms_sm_any_asleep(g->sms, g->n_sm);
}

/* spec 001 Fig. 7's figures (MDB and its comparison schemes), ours by name: L1D hits and
 * reservation fails per kilo-instruction (thread instructions, gpu_tot_sim_insn), L2 accesses per
 * kilo-instruction (the L1D's misses, bypasses and write-throughs all reach the L2 as accesses)
 * and MIPC, load instructions (threads, gpgpu_n_load_insn) served per cycle */
static double stat_or0(const gms_stats *st, const char *name)
{
    const gms_stat *v = gms_stats_find(st, name);
    return v ? v->value : 0.0;
}

static void per_kilo_insn(gms_stats *st, uint64_t insts, uint64_t cycles)
{
    if (!gms_stats_find(st, "L1D_total_cache_accesses")) return;   /* no L1D */
    double k = insts ? 1000.0 / (double)insts : 0.0;
    double hits = stat_or0(st, "L1D_total_cache_accesses") - stat_or0(st, "L1D_total_cache_misses") -
                  stat_or0(st, "L1D_total_cache_pending_hits");
    gms_stat_f64(st, "gms_l1d_hits_pki", hits * k);
    gms_stat_f64(st, "gms_l1d_rfki", stat_or0(st, "L1D_total_cache_reservation_fails") * k);
    gms_stat_f64(st, "gms_l2_accesses_pki", stat_or0(st, "L2_total_cache_accesses") * k);
    gms_stat_f64(st, "gms_mipc", cycles ? stat_or0(st, "gpgpu_n_load_insn") / (double)cycles : 0.0);
}

static void collect(gms_gpu *g, gms_stats *st)
{
    gms_sm_settle_all(g->sms, g->n_sm);
    uint64_t now = gms_engine_cycle(g->eng, GMS_DOM_CORE);
    uint64_t ktot = kernel_cycles(g, now);
    gms_counters *c = &g->ctr;
    gms_stat_u64(st, "gpu_tot_sim_cycle", ktot);
    gms_stat_u64(st, "gpu_tot_sim_insn", c->thread_insts);
    gms_stat_f64(st, "gpu_tot_ipc", ktot ? (double)c->thread_insts / (double)ktot : 0.0);
    gms_stat_u64(st, "gpgpu_n_tot_w_icount", c->warp_insts);
    /* GPGPU-Sim's m_num_sim_insn: a whole warp per warp instruction unless its lanes are clock
     * gated, where gpu_tot_sim_insn always counts the active ones */
    gms_stat_u64(st, "gpgpu_n_tot_thrd_icount",
                 g->p->core.clock_gated_lanes ? c->thread_insts : c->warp_insts * g->p->core.warp_size);
    gms_stat_u64(st, "gms_elapsed_core_cycles", now);
    if (g->p->core.flush_l2_cache) gms_stat_u64(st, "gms_l2_flushed_lines", g->l2_flushed_lines);
    /* GPGPU-Sim's meanings (docs/counters.md): instructions in active threads, global atomics
     * among the loads; requests as injected into the interconnect */
    gms_stat_u64(st, "gpgpu_n_load_insn", c->n_load_insn);
    gms_stat_u64(st, "gpgpu_n_store_insn", c->n_store_insn);
    gms_stat_u64(st, "gpgpu_n_shmem_insn", c->n_shmem_insn);
    gms_stat_u64(st, "gms_n_atomic_insn", c->n_atomic_insn);
    gms_stat_u64(st, "gpgpu_n_mem_read_global", c->n_mem_read_global);
    gms_stat_u64(st, "gpgpu_n_mem_write_global", c->n_mem_write_global);
    gms_stat_u64(st, "gpgpu_n_mem_read_local", c->n_mem_read_local);
    gms_stat_u64(st, "gpgpu_n_mem_write_local", c->n_mem_write_local);
    gms_stat_u64(st, "gpgpu_n_stall_shd_mem", c->stall_shd_mem);
    gms_stat_u64(st, "gpgpu_stall_shd_mem[s_mem][bk_conf]", c->shmem_bank_conflict_cycles);
    gms_stat_u64(st, "gpgpu_stall_shd_mem[gl_mem][resource_stall]", c->stall_gl_bank);
    gms_stat_u64(st, "gpgpu_stall_shd_mem[gl_mem][coal_stall]", c->stall_gl_coal);
    gms_stat_u64(st, "gms_stall_shd_mem_icnt_rc_fail", c->stall_icnt_rc);
    gms_stat_u64(st, "gms_bypassed_reads", c->n_bypass_reads);
    gms_stat_u64(st, "gms_thread_blocks_done", c->blocks_done);
    gms_stat_u64(st, "maxmflatency", c->mem_lat_max);
    /* GPGPU-Sim's averagemflatency and avg_icnt2mem_latency: over the replies of the latency
     * windows folded so far (stats/memlat.h), absent while none was */
    gms_memlat_report(&g->memlat, g->icnt.icnt2mem_sum, st);
    /* ours: the replies those cover (GPGPU-Sim's num_mfs), every reply so far and their mean
     * latency, and the mean from LSU issue to arrival at the memory side per request */
    gms_stat_u64(st, "gms_averagemflatency_replies", g->memlat.n);
    gms_stat_u64(st, "gms_mem_latency_replies", c->mem_lat_n);
    gms_stat_f64(st, "gms_mem_latency_mean", c->mem_lat_n ? (double)c->mem_lat_sum / (double)c->mem_lat_n : 0.0);
    gms_stat_f64(st, "gms_icnt2mem_latency_mean",
                 g->icnt.icnt2mem_n ? (double)g->icnt.icnt2mem_sum / (double)g->icnt.icnt2mem_n : 0.0);
    gms_sm_report(g->sms, g->n_sm, st);
    gms_icnt_report(&g->icnt, st);
    g->mem.report(g->mem.self, st);
    if (g->uvm) gms_uvm_report(g->uvm, st);
    gms_classifier_report(g->classifier, st);
    per_kilo_insn(st, c->thread_insts, ktot);
    gms_stat_u64(st, "gms_engine_edges", gms_engine_edges_visited(g->eng));
    gms_stat_u64(st, "gms_engine_ticks", gms_engine_ticks(g->eng));
}

/* ---------------------------------------------------------------- kernels */

/* A busy period (some kernel running) is kernel time. -gpgpu_max_cycle bounds the kernel time
 * (GPGPU-Sim: gpu_tot_sim_cycle + gpu_sim_cycle >= gpu_max_cycle_opt ends the run): the core
 * cycle at which this period would use up what is left of it gets a wake-up, so that idle
 * skipping cannot jump over it; sim_done stops the run right after that instant. */
static void arm_max_cycle(gms_gpu *g)
{
    uint64_t max = g->p->sim.max_cycles;
    if (max && g->n_running && g->kernel_cycles_total < max)
        gms_engine_wake_at(g->eng, g->gpu_comp, g->busy_since + (max - g->kernel_cycles_total));
}

/* GPGPU-Sim's gpu_sim_cycle at core cycle `now`: kernel cycles since the last kernel's end
 * (update_stats) */
static uint64_t gpu_sim_cycle_at(const gms_gpu *g, uint64_t now) { return kernel_cycles(g, now) - g->upd_ktime; }

/* a wake-up of the latency windows' component at the core cycle at which gpu_sim_cycle
 * reaches the next window's end (idle skipping must not jump over it) */
static void arm_memlat(gms_gpu *g)
{
    if (!g->n_running) return;
    g->memlat_off = 0;
    gms_engine_wake_at(g->eng, g->memlat_comp,
                       g->busy_since + (g->upd_ktime + g->memlat.next - g->kernel_cycles_total));
}

/* anything at all happening: an instruction, a reply taken, a request at the memory side, a
 * packet in either network */
static uint64_t memlat_activity(const gms_gpu *g)
{
    return g->ctr.thread_insts + g->ctr.mem_lat_n + g->icnt.icnt2mem_n + g->icnt.req_net.packets +
           g->icnt.reply_net.packets;
}

/* GPGPU-Sim's gpgpu_sim::cycle folds the latency window at the end of every core cycle whose
 * gpu_sim_cycle is a multiple of -gpgpu_runtime_stat's period (memlatstat_lat_pw): a component
 * of its own, after the SMs (which take the replies) in the core domain, woken at those cycles
 * only; it does nothing else (the gpu component's ticks hand out blocks and flush L1s, so
 * waking it would move the timing). Its wake-ups would keep a run in which nothing happens any
 * more from ending as a deadlock ("nothing scheduled"), so after -gms_watchdog_cycles (10^6
 * when off) without any activity it stops, and the next reply into an SM starts it again
 * (memlat_resume): the windows it skipped folded nothing new, replies being what they count */
static int memlat_tick(void *self, uint64_t cycle)
{
    gms_gpu *g = self;
    if (!g->n_running) return 0;
    gms_memlat_cycle(&g->memlat, gpu_sim_cycle_at(g, cycle), g->ctr.mem_lat_sum, g->ctr.mem_lat_n);
    uint64_t act = memlat_activity(g), lim = g->p->sim.watchdog_cycles ? g->p->sim.watchdog_cycles : 1000000;
    if (act != g->memlat_act) {
        g->memlat_act = act;
        g->memlat_act_cycle = cycle;
    } else if (cycle - g->memlat_act_cycle > lim && cycle - g->memlat_act_cycle >= g->memlat.freq) {
        g->memlat_off = 1;
        return 0;
    }
    arm_memlat(g);
    return 0;
}

/* a reply on its way into an SM (from the interconnect's tick): the windows' wake-ups again if
 * they had stopped. The windows that ended meanwhile, up to the current core cycle's, fold
 * the replies taken so far: the SM takes this reply at a later core cycle (sm.c: t_ready is
 * the current core cycle), and none came while they had stopped */
static inline void memlat_resume(gms_gpu *g)
{
    if (__builtin_expect(!g->memlat_off, 1) || !g->n_running) return;
    uint64_t now = gms_engine_cycle(g->eng, GMS_DOM_CORE);
    gms_memlat_cycle(&g->memlat, gpu_sim_cycle_at(g, now), g->ctr.mem_lat_sum, g->ctr.mem_lat_n);
    g->memlat_act_cycle = now;
    arm_memlat(g);
}

static void busy_begin(gms_gpu *g)
{
    if (g->n_running++ != 0) return;
    g->busy_since = gms_engine_cycle(g->eng, GMS_DOM_CORE);
    for (uint32_t i = 0; i < g->n_sm; i++) gms_sm_kernel_begin(g->sms[i]);
    arm_max_cycle(g);
    g->memlat_act_cycle = g->busy_since;
    arm_memlat(g);
    if (g->mem.kernel_time) g->mem.kernel_time(g->mem.self, 1);
    gms_icnt_kernel_time(&g->icnt, 1);
}

static void busy_end(gms_gpu *g)
{
    if (--g->n_running != 0) return;
    g->kernel_cycles_total += gms_engine_cycle(g->eng, GMS_DOM_CORE) - g->busy_since;
    if (g->mem.kernel_time) g->mem.kernel_time(g->mem.self, 0);
    gms_icnt_kernel_time(&g->icnt, 0);
}

static void kernel_finished(gms_gpu *g, gms_kernel *k)
{
    uint64_t now = gms_engine_cycle(g->eng, GMS_DOM_CORE);
    if (gms_engine_replaying(g->eng) && !g->failed) {
        /* par_gate rules this out: the SMs ticked after this one would have seen the end */
        gms_err(g->err, "internal: a kernel ended in a parallel edge (-gms_host_threads)");
        g->failed = 1;
        gms_engine_abort(g->eng, g->err->msg);
    }
    for (uint32_t i = 0; i < g->n_sm; i++) gms_sm_pool_idle_buffers(g->sms[i], g);
    if (g->uvm) gms_uvm_kernel_end(g->uvm, now);
    busy_end(g);
    if (g->cke) gms_cke_kernel_done(g->cke, k);
    /* a multiprogrammed run restarts kernels for a whole window: no statistics per kernel */
    gms_kernel_stats *ks = g->cke ? NULL : gms_run_stats_add_kernel(&g->stats, k->src.name, k->uid, k->src.stream);
    /* Accel-Sim's loop prints a kernel's statistics after the gpgpu_sim::cycle in which it
     * ended (whose window, if one ends there, is folded first), then calls update_stats:
     * gpu_sim_cycle and gpu_sim_insn count from the previous kernel's end (from its launch
     * when none ended while it ran), so an overlapping kernel's do not start at its launch */
    uint64_t kt = kernel_cycles(g, now);
    gms_counters *c = &g->ctr;
    gms_memlat_cycle(&g->memlat, kt - g->upd_ktime, c->mem_lat_sum, c->mem_lat_n);
    uint64_t cyc = kt - g->upd_ktime;
    uint64_t ti = c->thread_insts - g->upd_tinsts;
    if (ks) {
        gms_stat_u64(&ks->st, "gpu_sim_cycle", cyc);
        gms_stat_u64(&ks->st, "gpu_sim_insn", ti);
        gms_stat_f64(&ks->st, "gpu_ipc", cyc ? (double)ti / (double)cyc : 0.0);
        gms_stat_u64(&ks->st, "gpu_sim_warp_insn", c->warp_insts - g->upd_winsts);
        gms_stat_u64(&ks->st, "gms_kernel_cycles", now - k->start_cycle);
        gms_stat_u64(&ks->st, "kernel_grid_blocks", k->nblocks);
        gms_stat_u64(&ks->st, "kernel_max_blocks_per_sm", k->max_blocks_per_sm);
        collect(g, &ks->st);
    }
    /* update_stats */
    gms_memlat_update(&g->memlat, c->mem_lat_sum, c->mem_lat_n);
    g->upd_ktime = kt;
    g->upd_tinsts = c->thread_insts;
    g->upd_winsts = c->warp_insts;
    g->memlat_act_cycle = now;
    arm_memlat(g);
    /* unlink and release */
    if (k->slot != UINT32_MAX) g->kslot[k->slot] = NULL;
    for (uint32_t i = 0; i < g->n_sm; i++)
        if (g->core_kernel[i] == k) g->core_kernel[i] = NULL;   /* as a kernel with no block left */
    gms_kernel **pp = &g->kernels;
    while (*pp && *pp != k) pp = &(*pp)->next;
    if (*pp) *pp = k->next;
    if (k->src.release) k->src.release(k->src.self);
    free(k);
    gms_engine_progress(g->eng);
    gms_engine_activate(g->eng, g->gpu_comp);
}

void gms_gpu_block_done(gms_gpu *g, gms_kernel *k)
{
    k->blocks_done++;
    k->running_blocks--;
    if (k->blocks_done == k->nblocks) kernel_finished(g, k);
    else gms_engine_activate(g->eng, g->gpu_comp);
}

/* GPGPU-Sim's adaptive carve-out (-gpgpu_adaptive_cache_config): the L1D gets the unified
 * storage that the smallest shared-memory option covering the kernel's needs leaves free,
 * and a streaming L1 allocates on miss if the kernel needs no shared memory.
 * Applied when no other kernel is running (the L1s are idle then). */
static void adapt_l1(gms_gpu *g, const gms_kernel *k)
{
    const gms_core_params *c = &g->p->core;
    const gms_cache_config *l1 = &g->p->l1d.dl1;
    if (!c->adaptive_cache_config || !l1->enabled || g->n_running) return;
    uint64_t need = (uint64_t)k->shmem_per_block * k->max_cta;
    uint64_t unified = (uint64_t)c->unified_l1d_size * 1024;
    uint64_t per_way = (uint64_t)l1->nsets * l1->line;
    uint32_t max_assoc = (uint32_t)(unified / per_way);
    for (uint32_t i = 0; i < c->n_shmem_opts; i++) {
        uint64_t opt = (uint64_t)c->shmem_opts[i] * 1024;
        if (need > opt) continue;
        double ratio = opt >= unified ? 0.0 : 1.0 - (double)opt / (double)unified;
        uint32_t assoc = (uint32_t)(max_assoc * ratio + 0.5);
        if (assoc == 0) assoc = 1;
        for (uint32_t s = 0; s < g->n_sm; s++) gms_sm_set_l1_assoc(g->sms[s], assoc);
        /* a streaming L1 allocates on miss when the whole storage is cache, else on fill
         * (GPGPU-Sim's max_cta: "to eliminate line allocation fails") */
        if (l1->alloc_policy == 's')
            for (uint32_t s = 0; s < g->n_sm; s++) gms_sm_set_l1_on_miss(g->sms[s], need == 0);
        return;
    }
}

static int launch(gms_gpu *g, gms_cmd *c)
{
    gms_kernel_src *s = &c->kernel;
    gms_kernel *k = gms_xcalloc(1, sizeof *k);
    k->src = *s;
    k->uid = ++g->next_uid;
    k->nblocks = gms_dim3_count(s->grid);
    uint64_t tpb = gms_dim3_count(s->block);
    if (k->nblocks == 0 || tpb == 0 || tpb > 1024) {
        gms_err(g->err, "kernel %s: grid (%u,%u,%u) x block (%u,%u,%u) is not a valid launch", s->name, s->grid.x,
                s->grid.y, s->grid.z, s->block.x, s->block.y, s->block.z);
        if (s->release) s->release(s->self);
        free(k);
        return -1;
    }
    k->threads_per_block = (uint32_t)tpb;
    k->warps_per_block = (k->threads_per_block + 31) / 32;
    uint32_t rpt = (s->regs_per_thread + 3) & ~3u;
    k->regs_per_block = rpt * k->warps_per_block * 32;
    k->shmem_per_block = s->shmem_bytes;
    k->max_blocks_per_sm = gms_occupancy(&g->p->core, k->threads_per_block, s->regs_per_thread, s->shmem_bytes);
    if (k->max_blocks_per_sm == 0) {
        gms_err(g->err, "kernel %s: a block of %u threads, %u registers/thread and %u B shared memory does not fit "
                "on one SM (%u threads, %u registers, %u B shared memory)", s->name, k->threads_per_block,
                s->regs_per_thread, s->shmem_bytes, g->p->core.max_threads_per_sm, g->p->core.shader_registers,
                g->p->core.shmem_size);
        if (s->release) s->release(s->self);
        free(k);
        return -1;
    }
    k->max_cta = gms_local_max_cta(k->max_blocks_per_sm, k->nblocks, g->p->core.n_sm);
    adapt_l1(g, k);
    uint64_t now = gms_engine_cycle(g->eng, GMS_DOM_CORE);
    k->start_cycle = now;
    /* GPGPU-Sim's kernel_info_t: m_kernel_TB_latency = launch latency + blocks x TB launch
     * latency, counted down every core cycle; select_kernel hands out no block before 0
     * (saturating: a delay past 2^62 cycles never ends within a run anyway) */
    uint64_t tbl = g->p->core.tb_launch_latency, wait = g->p->core.kernel_launch_latency;
    wait += tbl && k->nblocks > (UINT64_C(1) << 62) / tbl ? UINT64_C(1) << 62 : k->nblocks * tbl;
    k->dispatch_from = now + wait;
    k->active = 1;
    g->l2_flushed = 0;
    /* GPGPU-Sim's launch takes the first empty m_running_kernels slot (a multiprogrammed run,
     * which keeps more kernels, dispatches by its own rules and needs none) */
    k->slot = UINT32_MAX;
    for (uint32_t i = 0; i < g->p->core.max_concurrent_kernel; i++)
        if (!g->kslot[i]) { g->kslot[i] = k; k->slot = i; break; }
    gms_kernel **pp = &g->kernels;
    while (*pp) pp = &(*pp)->next;
    *pp = k;
    busy_begin(g);
    if (g->uvm) gms_uvm_kernel_begin(g->uvm, now);
    return 0;
}

gms_kernel *gms_gpu_launch(gms_gpu *g, const gms_kernel_src *src)
{
    gms_cmd c;
    memset(&c, 0, sizeof c);
    c.kind = GMS_CMD_LAUNCH;
    c.kernel = *src;
    if (launch(g, &c)) return NULL;
    gms_kernel *k = g->kernels;
    while (k->next) k = k->next;
    return k;
}

static void async_done(void *ud)
{
    gms_gpu *g = ud;
    g->pending_async--;
    gms_engine_progress(g->eng);
    gms_engine_activate(g->eng, g->gpu_comp);
}

static int stream_busy(const gms_gpu *g, int stream)
{
    for (const gms_kernel *k = g->kernels; k; k = k->next)
        if (k->src.stream == stream) return 1;
    return 0;
}

/* process host commands until one has to wait; returns the number of commands taken,
 * or -1 on error */
static int run_commands(gms_gpu *g)
{
    int taken = 0;
    for (;; taken++) {
        if (g->prog.head == g->prog.n) {
            if (g->program_done) return taken;
            if (g->n_running || g->pending_async) return taken;  /* next() sees completed results */
            int r = g->src.next(g->src.self, &g->prog, g->err);
            if (r < 0) return -1;
            if (r == 0 && g->prog.head == g->prog.n) { g->program_done = 1; return taken + 1; }
            continue;
        }
        gms_cmd *c = &g->prog.q[g->prog.head];
        switch (c->kind) {
        case GMS_CMD_ALLOC:
            if (g->uvm && gms_uvm_alloc(g->uvm, c->addr, c->bytes, c->managed, c->name, g->err)) return -1;
            if (c->managed) g->uvm_on = g->uvm && gms_uvm_enabled(g->uvm);
            if (g->observe_alloc) g->observe_alloc(g->observe_ud, c->addr, c->bytes, c->name);
            break;
        case GMS_CMD_COPY_H2D: case GMS_CMD_COPY_D2H: case GMS_CMD_PREFETCH:
            /* stream-ordered: wait (Accel-Sim's trace driver applies a copy once the kernel
             * before it has finished, with its default window of one kernel) */
            if (g->n_running || g->pending_async) return taken;
            /* gpgpu_sim::perf_memcpy_to_gpu, at the copy's start (its data is functional) */
            if (c->kind == GMS_CMD_COPY_H2D && g->p->mem.perf_sim_memcpy && g->mem.memcpy_fill)
                g->mem.memcpy_fill(g->mem.self, c->addr, c->bytes, g->p->mem.perf_memcpy_low32);
            if (g->copies_instant && c->kind != GMS_CMD_PREFETCH) {
                g->copies_instant_done++;
                break;   /* Accel-Sim: no simulated time; MemcpyDtoH is not a command there */
            }
            g->pending_async++;
            g->prog.head++;
            if (c->kind == GMS_CMD_PREFETCH) gms_uvm_prefetch(g->uvm, c->addr, c->bytes, async_done, g);
            else gms_uvm_memcpy(g->uvm, c->addr, c->bytes, c->kind == GMS_CMD_COPY_H2D, async_done, g);
            return taken + 1;
        case GMS_CMD_LAUNCH:
            if (g->pending_async || stream_busy(g, c->kernel.stream) ||
                g->n_running >= g->p->core.max_concurrent_kernel)
                return taken;
            /* Accel-Sim's trace driver reads one kernel at a time unless
             * -gpgpu_concurrent_kernel_sm (main.cc: window_size 1), whatever the streams */
            if (c->kernel.traced && g->n_running && !g->p->core.concurrent_kernel_sm) return taken;
            if (launch(g, c)) { g->prog.head++; return -1; }
            break;
        case GMS_CMD_SYNC:
            if (g->n_running || g->pending_async) return taken;
            /* UVMSmart's cudaDeviceSynchronize copies dirty managed pages back (-uvm_sync_writeback) */
            if (g->uvm_on && gms_uvm_device_sync(g->uvm, async_done, g)) {
                g->pending_async++;
                g->prog.head++;
                return taken + 1;
            }
            break;
        case GMS_CMD_FREE:
            break;
        }
        g->prog.head++;
    }
}

/* GPGPU-Sim's gpgpu_sim::select_kernel: the kernel it handed out last while that one has blocks
 * left and its launch latency is over, else the next such kernel in slot order after it
 * (which becomes the last handed out); NULL if none */
static gms_kernel *select_kernel(gms_gpu *g, uint64_t now)
{
    uint32_t nk = g->p->core.max_concurrent_kernel;
    gms_kernel *k = g->kslot[g->last_issued_slot];
    if (k && k->next_block < k->nblocks && now >= k->dispatch_from) return k;
    for (uint32_t n = 0; n < nk; n++) {
        uint32_t idx = (g->last_issued_slot + 1 + n) % nk;
        k = g->kslot[idx];
        if (k && k->next_block < k->nblocks && now >= k->dispatch_from) {
            g->last_issued_slot = idx;
            return k;
        }
    }
    return NULL;
}

/* the kernel core i (SM i) would take a block of now, GPGPU-Sim's simt_core_cluster::
 * issue_block2core: with -gpgpu_concurrent_kernel_sm the selected kernel; else its own kernel
 * while that one has blocks left, and only once the SM is idle a newly selected one */
static gms_kernel *kernel_for_core(gms_gpu *g, uint32_t i, uint64_t now)
{
    if (g->p->core.concurrent_kernel_sm) return select_kernel(g, now);
    gms_kernel *k = g->core_kernel[i];
    if ((!k || k->next_block >= k->nblocks) && gms_sm_idle(g->sms[i])) {
        gms_kernel *sel = select_kernel(g, now);
        if (sel) g->core_kernel[i] = k = sel;
    }
    return k;
}

/* core i of cluster c takes kernel k's next block */
static int take_block(gms_gpu *g, gms_kernel *k, uint32_t c, uint32_t core, uint32_t i)
{
    if (gms_sm_add_block(g->sms[i], k, k->next_block, g->err)) return -1;
    g->blocks_issued++;
    k->next_block++;
    k->running_blocks++;
    g->cta_next_core[c] = core;
    g->cluster_took[c] = 1;
    return 0;
}

/* GPGPU-Sim's hit_max_cta_count: no kernel has blocks left once -gpgpu_max_cta are out */
static inline int hit_max_cta(const gms_gpu *g)
{
    return g->p->sim.max_cta && g->blocks_issued >= g->p->sim.max_cta;
}

/* A multiprogrammed run (src/cke) places its kernels' blocks by its own schemes (spatial
 * partitions, shared SMs): kernels in launch order, each offered to every cluster that took no
 * block yet this cycle */
static int dispatch_cke(gms_gpu *g, uint64_t now)
{
    int any = 0;
    uint32_t ncl = g->p->core.n_clusters, cpc = g->p->core.n_cores_per_cluster;
    uint32_t last = g->dispatch_rr ? g->dispatch_rr - 1 : ncl - 1;
    memset(g->cluster_took, 0, ncl);
    for (gms_kernel *k = g->kernels; k; k = k->next) {
        if (k->next_block >= k->nblocks || now < k->dispatch_from) continue;
        for (uint32_t n = 0; n < ncl && k->next_block < k->nblocks; n++) {
            uint32_t c = (g->dispatch_rr + n) % ncl;
            if (g->cluster_took[c]) continue;
            if (hit_max_cta(g)) break;
            for (uint32_t j = 0; j < cpc; j++) {
                uint32_t core = (g->cta_next_core[c] + 1 + j) % cpc, i = c * cpc + core;
                if (!gms_sm_can_take(g->sms[i], k)) continue;
                if (g->uvm && gms_uvm_sm_throttled(g->uvm, i, now)) continue;
                if (take_block(g, k, c, core, i)) return -1;
                any = 1;
                last = c;
                break;
            }
        }
    }
    if (any) g->dispatch_rr = (last + 1) % ncl;
    return any;
}

/* One block per cluster per cycle (GPGPU-Sim's simt_core_cluster::issue_block2core issues one
 * and stops), clusters in round-robin order starting after the cluster that took the last
 * block (gpgpu_sim::issue_block2core, m_last_cluster_issue), and within a cluster its cores in
 * round-robin order starting after the core that took its last block (m_cta_issue_next_core).
 * With one core per cluster (every preset), SM i of n gets blocks i, i + n, i + 2n, ... while
 * every SM is free. Which kernel a core takes is GPGPU-Sim's choice (kernel_for_core): a core
 * that cannot fit that kernel's block takes none, even if another kernel's would fit. */
static int dispatch(gms_gpu *g, uint64_t now)
{
    if (hit_max_cta(g)) return 0;
    if (g->cke) return dispatch_cke(g, now);
    int any = 0;
    uint32_t ncl = g->p->core.n_clusters, cpc = g->p->core.n_cores_per_cluster;
    uint32_t last = g->dispatch_rr ? g->dispatch_rr - 1 : ncl - 1;
    memset(g->cluster_took, 0, ncl);
    for (uint32_t n = 0; n < ncl; n++) {
        uint32_t c = (g->dispatch_rr + n) % ncl;
        for (uint32_t j = 0; j < cpc; j++) {
            uint32_t core = (g->cta_next_core[c] + 1 + j) % cpc, i = c * cpc + core;
            gms_kernel *k = kernel_for_core(g, i, now);
            if (!k || k->next_block >= k->nblocks || !gms_sm_can_take(g->sms[i], k)) continue;
            if (g->uvm && gms_uvm_sm_throttled(g->uvm, i, now)) continue;   /* ETC's throttling (uvm/etc.c) */
            if (take_block(g, k, c, core, i)) return -1;
            any = 1;
            last = c;
            break;
        }
        if (hit_max_cta(g)) break;
    }
    if (any) g->dispatch_rr = (last + 1) % ncl;
    return any;
}

/* -gms_mshr_dump_at: every MSHR table in use, SMs' L1Ds then L2 slices (the run is serial, so
 * the memory side is on this thread) */
static void dump_mshrs(gms_gpu *g, uint64_t cycle)
{
    g->mshr_dumped = 1;
    fprintf(stderr, "gpumemsim: MSHR tables at core cycle %llu%s:\n", (unsigned long long)cycle,
            g->cke ? " (the shared run of the multiprogrammed run; its isolated and profile runs are not dumped)" : "");
    for (uint32_t i = 0; i < g->n_sm; i++) {
        gms_cache *c = gms_sm_l1(g->sms[i]);
        if (!c || !gms_cache_mshr_used(c)) continue;
        fprintf(stderr, "SM %u L1D: %u entries in use\n", i, gms_cache_mshr_used(c));
        gms_cache_mshr_dump(c, stderr);
    }
    if (g->mem.dump_mshrs) g->mem.dump_mshrs(g->mem.self, stderr);
}

static int gpu_tick(void *self, uint64_t cycle)
{
    gms_gpu *g = self;
    if (g->failed) return 0;
    /* -gpgpu_flush_l2_cache: GPGPU-Sim's gpgpu_sim::cycle flushes the L2 in every cycle in which
     * no cluster has a thread to complete; dirty lines appear only while threads run, so the
     * flush at a kernel's end (before the next launch) is the one that drops anything. Only with
     * no kernel running: then the memory side runs on this thread (pipe_gate) */
    if (g->p->core.flush_l2_cache && g->mem.flush_l2 && !g->n_running && !g->l2_flushed) {
        g->l2_flushed_lines += g->mem.flush_l2(g->mem.self);
        g->l2_flushed = 1;
    }
    int taken = g->cke ? gms_cke_commands(g->cke) : run_commands(g);
    if (taken < 0) {
        g->failed = 1;
        gms_engine_abort(g->eng, g->err->msg);
        return 0;
    }
    int d = dispatch(g, cycle);
    if (d < 0) {
        g->failed = 1;
        gms_engine_abort(g->eng, g->err->msg);
        return 0;
    }
    /* after handing out blocks, the L1s of every cluster left without a block (GPGPU-Sim's
     * gpgpu_sim::cycle: clusters with no thread to complete; never an SM another kernel uses) */
    if (g->p->core.flush_l1_cache) {
        uint32_t cpc = g->p->core.n_cores_per_cluster;
        for (uint32_t c = 0; c < g->p->core.n_clusters; c++) {
            uint32_t j = 0;
            while (j < cpc && gms_sm_idle(g->sms[c * cpc + j])) j++;
            if (j == cpc)
                for (j = 0; j < cpc; j++) gms_sm_flush_l1_if_idle(g->sms[c * cpc + j]);
        }
    }
    /* wake up for launch latency */
    for (gms_kernel *k = g->kernels; k; k = k->next)
        if (k->next_block < k->nblocks && cycle < k->dispatch_from)
            gms_engine_wake_at(g->eng, g->gpu_comp, k->dispatch_from);
    /* the engine keeps one wake-up per component, the earliest: the max-cycle one that an
     * earlier wake-up (launch latency) displaced is set again, or a run whose SMs all sleep
     * (far faults) would stop at the next event after the limit instead of at it */
    arm_max_cycle(g);
    if (g->p->sim.mshr_dump_at && !g->mshr_dumped) {   /* the debug dump, likewise */
        if (cycle >= g->p->sim.mshr_dump_at) dump_mshrs(g, cycle);
        else gms_engine_wake_at(g->eng, g->gpu_comp, g->p->sim.mshr_dump_at);
    }
    return d > 0 || taken > 0;
}

static void gpu_stuck(void *self, FILE *out)
{
    gms_gpu *g = self;
    for (gms_kernel *k = g->kernels; k; k = k->next)
        fprintf(out, "    kernel %s (uid %u): %llu of %llu blocks dispatched, %llu done\n", k->src.name, k->uid,
                (unsigned long long)k->next_block, (unsigned long long)k->nblocks, (unsigned long long)k->blocks_done);
    if (g->pending_async) fprintf(out, "    %d copy/prefetch operation(s) pending\n", g->pending_async);
}

static void deliver_translated(void *ud, uint32_t sm, gms_mreq *r)
{
    gms_gpu *g = ud;
    gms_sm_translated(g->sms[sm], r);
}

/* ---------------------------------------------------------------- host threads */

_Thread_local gms_counters *gms_par_ctr_tls;

/* May a kernel end at core cycle `cycle` (both kinds of host threads keep such an edge
 * serial)? A kernel can only end once all its blocks are dispatched, and not before each of
 * its warps has issued its remaining instructions, one per cycle at most: the scan below
 * bounds the first cycle at which it could end. */
static int kernel_may_end(gms_gpu *g, uint64_t cycle)
{
    for (gms_kernel *k = g->kernels; k; k = k->next) {
        if (k->next_block < k->nblocks) continue;
        if (k->par_safe_until == UINT64_MAX) return 1;   /* may end in any cycle now */
        if (cycle < k->par_safe_until) continue;
        uint64_t maxr = 0;
        for (uint32_t i = 0; i < g->n_sm; i++) {
            uint64_t r = gms_sm_max_remaining(g->sms[i], k);
            if (r > maxr) maxr = r;
        }
        /* remaining instructions only shrink (every block is dispatched): once the kernel may
         * end in the next cycles it stays so, and the warps need not be scanned again */
        if (maxr <= 1) { k->par_safe_until = UINT64_MAX; return 1; }
        k->par_safe_until = cycle + maxr - 1;
    }
    return 0;
}

/* May the SMs of this core edge tick on several host threads? Every side effect of an SM tick
 * on shared state is sharded or deferred (sm.c, engine.c, mreq.c) except these, which make
 * the edge serial: the UVM (translations through the shared GMMU), a page observer, warp
 * streams that are refilled during the run (their generators compute real results in shared
 * workload state), and the end of a kernel (it flushes every L1 and snapshots the statistics
 * in the middle of the edge). */
static int par_gate(void *ud, uint64_t cycle)
{
    gms_gpu *g = ud;
    if (g->uvm_on || g->observe || g->failed || g->cke) return 0;
    for (gms_kernel *k = g->kernels; k; k = k->next)
        if (k->src.fill_warp_more) return 0;
    if (kernel_may_end(g, cycle)) return 0;
    gms_mreq_shards_fill(&g->pool);
    return 1;
}

/* -gms_host_pipeline: may the memory side run ahead of this core edge on the worker? Not if
 * the edge may touch the memory side or read its state: the UVM (the GMMU migrates pages
 * through it), a page observer, a copy in flight, the end of a kernel (its statistics
 * snapshot reads the memory side), a stop at a cycle or instruction count (checked between
 * instants, which the worker runs ahead of). */
static int pipe_gate(void *ud, uint64_t cycle)
{
    gms_gpu *g = ud;
    if (g->uvm_on || g->observe || g->failed || g->pending_async || !g->n_running || g->cke) return 0;
    if (kernel_may_end(g, cycle)) return 0;
    gms_mreq_shards_fill(&g->pool);
    return 1;
}
static void pipe_enter(void *ud)
{
    gms_gpu *g = ud;
    gms_mreq_tls = &g->pool.shards[0];
    g->mem.hand_over(g->mem.self);
}
static void pipe_hand_over(void *ud) { gms_gpu *g = ud; g->mem.hand_over(g->mem.self); }
static void pipe_leave(void *ud) { (void)ud; gms_mreq_tls = NULL; }
/* the interconnect's SM side: the reply network delivers straight into the SM (out of its
 * cluster's port: cores of a cluster share it, and a reply its SM refuses holds the port) */
static int reply_to_sm(void *ud, uint32_t cluster, gms_mreq *r)
{
    gms_gpu *g = ud;
    memlat_resume(g);
    return gms_sm_accept_reply(g->sms[cluster], r);   /* one SM a cluster: the same number */
}
/* several SMs a cluster: the cluster's FIFO is shared, ejection + each core's LDST FIFO in all */
static int reply_to_cluster(void *ud, uint32_t cluster, gms_mreq *r)
{
    gms_gpu *g = ud;
    const gms_core_params *c = &g->p->core;
    memlat_resume(g);
    if (g->cl_replies[cluster] >= c->ejection_buf + c->n_cores_per_cluster * c->ldst_resp_buf) return 0;
    if (!gms_sm_accept_reply(g->sms[r->sm], r)) return 0;
    g->cl_replies[cluster]++;
    return 1;
}

static void pipe_merge(void *ud)
{
    gms_gpu *g = ud;
    gms_mreq_shards_merge(&g->pool);
    gms_icnt_hand_over_replies(&g->icnt);
}

static void par_enter(void *ud, unsigned tid)
{
    gms_gpu *g = ud;
    gms_par_ctr_tls = &g->par_ctr[tid];
    gms_mreq_tls = &g->pool.shards[tid];
}

static void par_leave(void *ud, unsigned tid)
{
    (void)ud; (void)tid;
    gms_par_ctr_tls = NULL;
    gms_mreq_tls = NULL;
}

static void par_merge(void *ud, unsigned n)
{
    gms_gpu *g = ud;
    gms_counters *d = &g->ctr;
    for (unsigned t = 0; t < n; t++) {
        gms_counters *c = &g->par_ctr[t];
        d->warp_insts += c->warp_insts;
        d->thread_insts += c->thread_insts;
        d->mem_lat_sum += c->mem_lat_sum;
        d->mem_lat_n += c->mem_lat_n;
        if (c->mem_lat_max > d->mem_lat_max) d->mem_lat_max = c->mem_lat_max;
        d->icnt2mem_sum += c->icnt2mem_sum;
        d->icnt2mem_n += c->icnt2mem_n;
        d->icnt2sh_sum += c->icnt2sh_sum;
        d->stall_shd_mem += c->stall_shd_mem;
        d->stall_gl_bank += c->stall_gl_bank;
        d->stall_gl_coal += c->stall_gl_coal;
        d->stall_icnt_rc += c->stall_icnt_rc;
        d->n_load_insn += c->n_load_insn;
        d->n_store_insn += c->n_store_insn;
        d->n_shmem_insn += c->n_shmem_insn;
        d->n_atomic_insn += c->n_atomic_insn;
        d->n_mem_read_global += c->n_mem_read_global;
        d->n_mem_write_global += c->n_mem_write_global;
        d->n_mem_read_local += c->n_mem_read_local;
        d->n_mem_write_local += c->n_mem_write_local;
        d->n_bypass_reads += c->n_bypass_reads;
        d->shmem_bank_conflict_cycles += c->shmem_bank_conflict_cycles;
        d->barrier_waits += c->barrier_waits;
        d->blocks_done += c->blocks_done;
        memset(c, 0, sizeof *c);
    }
    gms_mreq_shards_merge(&g->pool);
}

static void host_threads_init(gms_gpu *g, unsigned n)
{
    /* statistics are identical with any count; fewer threads where determinism needs it.
     * SMs of one cluster share its interconnect input (gms_icnt_init): whether one SM's request
     * finds room depends on what the SMs before it in the cycle sent, so they tick in order
     * on one thread */
    if (n <= 1 || g->p->sim.perfect_mem || g->p->core.n_cores_per_cluster > 1 || g->p->sim.mshr_dump_at) return;
    _Static_assert(sizeof(gms_counters) == 24 * sizeof(uint64_t), "par_merge sums every counter");
    g->par_ctr = gms_xcalloc(n, sizeof *g->par_ctr);
    gms_mreq_pool_shards(&g->pool, n);
    gms_par_hooks h = { .gate = par_gate, .enter = par_enter, .leave = par_leave,
                        .merge = par_merge, .ud = g, .min_active = 8 };
    if (gms_engine_set_parallel(g->eng, GMS_DOM_CORE, n, &h) == 0) g->host_threads = n;
}

/* min_active 32: with fewer active SMs a core cycle takes a few microseconds, too short to
 * pay for the two hand-offs between the threads (gtx480, 15 SMs: stream x0.95, transpose
 * x0.97 pipelined; qv100, 80: x1.17-1.28; bench/README.md) */
static void host_pipeline_init(gms_gpu *g)
{
    const gms_sim_params *sp = &g->p->sim;
    if (!sp->host_pipeline || g->host_threads > 1 || sp->perfect_mem || sp->max_cycles || sp->max_insn || sp->max_cta ||
        sp->max_completed_cta || sp->mshr_dump_at ||
        !g->mem.stage || !g->mem.hand_over)
        return;
    gms_mreq_pool_shards(&g->pool, 1);
    gms_pipe_hooks h = { .gate = pipe_gate, .enter = pipe_enter, .leave = pipe_leave, .merge = pipe_merge,
                         .hand_over = pipe_hand_over, .ud = g, .min_active = 32 };
    if (gms_engine_set_pipeline(g->eng, &h) == 0) {
        g->host_pipeline = 1;
        g->mem.stage(g->mem.self, 1);
    }
}

/* ---------------------------------------------------------------- public API */

gms_sim *gms_sim_new(const gms_params *p, const gms_workload_spec *w, gms_error *err)
{
    if (!p->finalized) { gms_err(err, "internal: parameters not finalized"); return NULL; }
    /* GPGPU-Sim divides gpu_sim_cycle by it (gpgpu_sim::cycle) */
    uint64_t stat_freq = gms_memlat_parse_freq(p->g3.runtime_stat);
    if (!stat_freq) {
        gms_err(err, "-gpgpu_runtime_stat %s: the sampling period (the first field) must be at least 1"
                " (CYCLES[:FLAGS], CYCLES a decimal number up to 2147483647, FLAGS hex)", p->g3.runtime_stat);
        return NULL;
    }
    gms_sim *s = gms_xcalloc(1, sizeof *s);
    gms_gpu *g = &s->g;
    g->p = p;
    gms_memlat_init(&g->memlat, stat_freq);
    g->err = &s->async_err;
    double mhz[GMS_NDOM] = { p->core.mhz_core, p->core.mhz_icnt, p->core.mhz_l2, p->core.mhz_dram };
    g->eng = gms_engine_new(mhz, p->sim.skip_idle);
    gms_engine_set_sleep_probe(g->eng, gpu_sms_asleep, g);
    gms_mreq_pool_init(&g->pool);
    gms_rng_seed(&g->rng, w->seed ? w->seed : p->sim.seed);
    gms_run_stats_init(&g->stats);
    gms_config_digest(p, g->stats.config_digest, sizeof g->stats.config_digest);
    g->stats.core_mhz = p->core.mhz_core;
    gms_program_init(&g->prog);
    g->classifier = gms_classifier_new(0, 0);

    int rc = p->sim.perfect_mem
        ? gms_fixed_mem_create(&g->mem, p, g->eng, &g->pool, gms_icnt_reply, &g->icnt, err)
        : gms_memsys_create(&g->mem, p, g->eng, &g->pool, gms_icnt_reply, &g->icnt, err);
    if (rc) { gms_sim_free(s); return NULL; }
    if (g->mem.kernel_time) g->mem.kernel_time(g->mem.self, 0);   /* no kernel yet */
    g->n_sm = p->core.n_sm;
    g->sms = gms_xcalloc(g->n_sm, sizeof *g->sms);
    g->cta_next_core = gms_xcalloc(p->core.n_clusters, sizeof *g->cta_next_core);
    g->cluster_took = gms_xcalloc(p->core.n_clusters, 1);
    if (p->core.n_cores_per_cluster > 1) g->cl_replies = gms_xcalloc(p->core.n_clusters, sizeof *g->cl_replies);
    g->kslot = gms_xcalloc(p->core.max_concurrent_kernel ? p->core.max_concurrent_kernel : 1, sizeof *g->kslot);
    g->core_kernel = gms_xcalloc(g->n_sm, sizeof *g->core_kernel);
    /* the first block goes to core 0 of cluster 0 (GPGPU-Sim starts both pointers at the end) */
    for (uint32_t c = 0; c < p->core.n_clusters; c++) g->cta_next_core[c] = p->core.n_cores_per_cluster - 1;
    for (uint32_t i = 0; i < g->n_sm; i++) g->sms[i] = gms_sm_new(g, i);
    /* GPGPU-Sim's simt_core_cluster::core_cycle: with -gpgpu_simt_core_sim_order 1 a cluster's
     * cores tick in an order rotated by one each cycle (which decides who finds room first in
     * the cluster's interconnect input); the SMs' components are consecutive */
    if (p->core.n_cores_per_cluster > 1 && p->core.simt_core_sim_order == 1 && g->n_sm)
        gms_engine_set_rotation(g->eng, gms_sm_component(g->sms[0]), g->n_sm, p->core.n_cores_per_cluster);
    gms_icnt_ports ports = { g->cl_replies ? reply_to_cluster : reply_to_sm, g, g->mem.can_accept, g->mem.push, g->mem.self };
    gms_icnt_init(&g->icnt, &p->icnt, g->eng, g->n_sm, p->core.n_cores_per_cluster, g->mem.n_subparts, &ports);
    gms_icnt_set_sleep(&g->icnt, p->sim.sleep_blocked);
    if (gms_uvm_create(&g->uvm, p, g->eng, g->n_sm, deliver_translated, g, err)) { gms_sim_free(s); return NULL; }
    g->gpu_comp = gms_engine_add(g->eng, GMS_DOM_CORE, "gpu", gpu_tick, gpu_stuck, g);
    g->memlat_comp = gms_engine_add(g->eng, GMS_DOM_CORE, "latency windows", memlat_tick, NULL, g);

    uint64_t seed = w->seed ? w->seed : p->sim.seed;
    if (w->program) {
        g->src = *w->program;
        snprintf(g->stats.workload, sizeof g->stats.workload, "program");
    } else if (w->trace) {
        if (gms_trace_program(w->trace, &g->src, err)) { gms_sim_free(s); return NULL; }
        g->copies_instant = !p->sim.trace_memcpy_pcie;
        snprintf(g->stats.workload, sizeof g->stats.workload, "trace:%s", w->trace);
    } else {
        const char *name = w->workload ? w->workload : "stream";
        s->ops = gms_workload_find(name);
        if (!s->ops) {
            char known[2048] = "";
            for (size_t i = 0, n = gms_workload_count(); i < n; i++) {
                strncat(known, i ? ", " : "", sizeof known - strlen(known) - 1);
                strncat(known, gms_workload_at(i)->name, sizeof known - strlen(known) - 1);
            }
            gms_err(err, "unknown workload '%s' (built-in: %s)", name, known);
            gms_sim_free(s);
            return NULL;
        }
        if (gms_wl_args_parse(s->ops, w->wl_params, seed, &s->args, err)) { gms_sim_free(s); return NULL; }
        if (!strcmp(s->ops->name, "cke")) {
            /* a multiprogrammed run: the driver runs the applications (src/cke), and its
             * isolated and profile runs inside gms_cke_attach: -gms_mshr_dump_at dumps (or says
             * it could not dump) the shared run only, once (dump_mshrs says so) */
            static _Thread_local unsigned attaching;
            if (attaching) g->mshr_dumped = 1;
            attaching++;
            int arc = gms_cke_attach(g, s->args, err);
            attaching--;
            if (arc) { gms_sim_free(s); return NULL; }
            g->program_done = 1;
            snprintf(g->stats.workload, sizeof g->stats.workload, "cke");
            gms_engine_activate(g->eng, g->gpu_comp);
            return s;
        }
        g->prog.uvm = gms_wl_uvm(s->args);
        g->prog.prefetch = gms_wl_prefetch(s->args);
        g->prog.chunk = gms_wl_chunk(s->args);
        if (gms_workload_program(s->ops, s->args, &g->src, &g->wl_state, err)) { gms_sim_free(s); return NULL; }
        g->wl_ops = s->ops;
        snprintf(g->stats.workload, sizeof g->stats.workload, "%s", s->ops->name);
    }
    /* Belady without a future file: a first run records the program's page sequence;
     * -uvm_oversub_ratio divides the program's whole footprint, known from a functional walk */
    if (gms_belady_prepass(g->uvm, p, w, err) || gms_footprint_prepass(g->uvm, p, w, err) ||
        gms_opt_prepass(g->uvm, p, w, err)) {
        gms_sim_free(s);
        return NULL;
    }
    gms_engine_activate(g->eng, g->gpu_comp);
    host_threads_init(g, p->sim.host_threads);
    host_pipeline_init(g);
    return s;
}

/* the live requests, if every one of them is a write the DRAM schedulers will not serve
 * unless more requests come (the separate write queue below its high watermark with no read
 * waiting: GPGPU-Sim leaves them there and ends the run at the kernel's end); else 0 */
static uint64_t stranded_writes(const gms_gpu *g)
{
    if (!g->pool.live || !g->mem.stranded) return 0;
    return g->mem.stranded(g->mem.self) == g->pool.live ? g->pool.live : 0;
}

static int sim_done(void *ud)
{
    gms_sim *s = ud;
    gms_gpu *g = &s->g;
    const gms_sim_params *sp = &g->p->sim;
    /* GPGPU-Sim's gpgpu_sim::active(): kernel cycles (gpu_tot_sim_cycle) and thread
     * instructions (gpu_tot_sim_insn) against their limits, after every instant (the limits
     * are exact; busy_begin keeps idle skipping from jumping over the cycle limit) */
    if (g->cke) {   /* a multiprogrammed run ends with its window, never with its program */
        if (!gms_cke_window_over(g->cke, gms_engine_cycle(g->eng, GMS_DOM_CORE))) return g->failed;
        s->stopped_early = 1;
        return 1;
    }
    /* -gpgpu_max_cta: its blocks handed out (dispatch hands out no more) and all done, as
     * GPGPU-Sim's active() once no cluster has a thread left and get_more_cta_left is false;
     * -gpgpu_max_completed_cta: that many blocks done */
    if ((sp->max_cycles && kernel_cycles(g, gms_engine_cycle(g->eng, GMS_DOM_CORE)) >= sp->max_cycles) ||
        (sp->max_insn && g->ctr.thread_insts >= sp->max_insn) ||
        (sp->max_cta && g->blocks_issued >= sp->max_cta && g->ctr.blocks_done >= g->blocks_issued) ||
        (sp->max_completed_cta && g->ctr.blocks_done >= sp->max_completed_cta)) {
        s->stopped_early = 1;
        return 1;
    }
    if ((++s->done_calls & 0x3fff) == 0) {
        uint64_t cyc = gms_engine_cycle(g->eng, GMS_DOM_CORE);
        if (g->progress) {
            struct timespec ts;
            clock_gettime(CLOCK_MONOTONIC, &ts);
            uint64_t ms = (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
            if (ms >= g->progress_next_ms) {
                g->progress_next_ms = ms + 500;
                g->progress(g->progress_ud, g->kernels ? g->kernels->src.name : "-", cyc, g->ctr.warp_insts);
            }
        }
    }
    /* done when the program is over and the memory system has drained (an L2 write-allocate
     * read, say, may still be in flight after the last kernel finished), but for writes the
     * DRAM will not serve (stranded_writes) */
    return g->failed || (g->program_done && !g->n_running && !g->pending_async && g->prog.head == g->prog.n &&
                         (g->pool.live == 0 || stranded_writes(g)));
}

int gms_sim_run(gms_sim *s, gms_error *err)
{
    gms_gpu *g = &s->g;
    int rc = gms_engine_run(g->eng, sim_done, s, g->p->sim.watchdog_cycles, stderr, err);
    if (rc == 0 && g->failed) rc = gms_err(err, "%s", g->err->msg);
    uint64_t stranded = rc == 0 ? stranded_writes(g) : 0;
    if (rc == 0 && g->pool.live && !s->stopped_early && !stranded) {
        /* conservation: every request issued has been answered and freed */
        rc = gms_err(err, "internal: %llu memory request(s) never completed", (unsigned long long)g->pool.live);
        fprintf(stderr, "gpumemsim: requests never completed:\n");
        gms_mreq_pool_dump_live(&g->pool, stderr, 8);
    }
    /* GPGPU-Sim's last update_stats (after the last kernel, or the stop at a limit) folds
     * what is left: the run's total covers every reply */
    gms_memlat_update(&g->memlat, g->ctr.mem_lat_sum, g->ctr.mem_lat_n);
    collect(g, &g->stats.total);
    if (g->cke) gms_cke_report(g->cke, &g->stats.total);
    if (rc == 0 && g->p->sim.mshr_dump_at && !g->mshr_dumped)   /* an option the run never used: say so */
        fprintf(stderr, "gpumemsim: warning: -gms_mshr_dump_at %llu: the run ended at core cycle %llu, before it; no dump\n",
                (unsigned long long)g->p->sim.mshr_dump_at, (unsigned long long)gms_engine_cycle(g->eng, GMS_DOM_CORE));
    if (g->host_threads > 1 && getenv("GMS_HOST_THREADS_REPORT"))   /* not a statistic: they are identical */
        fprintf(stderr, "gpumemsim: %u host threads ticked %llu core edge(s) in parallel\n", g->host_threads,
                (unsigned long long)gms_engine_parallel_edges(g->eng));
    if (g->host_pipeline && getenv("GMS_HOST_THREADS_REPORT"))
        fprintf(stderr, "gpumemsim: the memory side ran ahead on a second host thread on %llu core edge(s)\n",
                (unsigned long long)gms_engine_pipelined_edges(g->eng));
    gms_stat_u64(&g->stats.total, "gms_completed", rc == 0 && !s->stopped_early);
    gms_stat_u64(&g->stats.total, "gms_dram_writes_stranded", stranded);
    gms_stat_u64(&g->stats.total, "gms_copies_instant", g->copies_instant_done);
    if (s->args) gms_wl_report(s->args, &g->stats.total);   /* sizes used (clamped by a tiny scale) */
    if (rc == 0 && !s->stopped_early && s->ops && s->ops->verify) {
        gms_error verr = {0};
        int v = s->ops->verify(g->wl_state, &verr);
        gms_stat_u64(&g->stats.total, "gms_workload_verified", v == 0);
        if (v) return gms_err(err, "workload %s: result check failed: %s", s->ops->name, verr.msg);
    }
    return rc;
}

const gms_run_stats *gms_sim_stats(const gms_sim *s) { return &s->g.stats; }
uint64_t gms_sim_parallel_edges(const gms_sim *s) { return gms_engine_parallel_edges(s->g.eng); }
int gms_sim_used_managed(const gms_sim *s) { return s->g.uvm_on; }
uint64_t gms_sim_pipelined_edges(const gms_sim *s) { return gms_engine_pipelined_edges(s->g.eng); }

uint32_t gms_sim_block_buffers(const gms_sim *s)
{
    uint32_t n = s->g.bt_pool_n;
    for (uint32_t i = 0; i < s->g.n_sm; i++) n += gms_sm_block_buffers(s->g.sms[i]);
    return n;
}

void gms_sim_set_progress(gms_sim *s, gms_progress_fn fn, void *ud)
{
    s->g.progress = fn;
    s->g.progress_ud = ud;
}

void gms_sim_set_observer(gms_sim *s, void (*fn)(void *ud, const uint64_t addrs[32], uint32_t mask),
                          void (*alloc_fn)(void *ud, uint64_t addr, uint64_t bytes, const char *name), void *ud)
{
    s->g.observe = fn;
    s->g.observe_alloc = alloc_fn;
    s->g.observe_ud = ud;
}

void gms_sim_free(gms_sim *s)
{
    if (!s) return;
    gms_gpu *g = &s->g;
    while (g->kernels) {
        gms_kernel *k = g->kernels;
        g->kernels = k->next;
        if (k->src.release) k->src.release(k->src.self);
        free(k);
    }
    gms_cke_free(g->cke);
    gms_program_free(&g->prog);
    if (g->src.destroy) g->src.destroy(g->src.self);
    if (s->ops && g->wl_state) s->ops->destroy(g->wl_state);
    gms_wl_args_free(s->args);
    if (g->sms) {
        for (uint32_t i = 0; i < g->n_sm; i++) gms_sm_free(g->sms[i]);
        free(g->sms);
        free(g->cta_next_core);
        free(g->cluster_took);
        free(g->cl_replies);
        free(g->kslot);
        free(g->core_kernel);
    }
    for (uint32_t i = 0; i < g->bt_pool_n; i++) gms_block_trace_free(&g->bt_pool[i]);
    free(g->bt_pool);
    if (g->icnt.comp) gms_icnt_free(&g->icnt);
    if (g->mem.free) g->mem.free(g->mem.self);
    if (g->uvm) gms_uvm_free(g->uvm);
    gms_engine_free(g->eng);          /* stops the host threads */
    free(g->par_ctr);
    gms_mreq_pool_free(&g->pool);
    gms_run_stats_free(&g->stats);
    gms_classifier_free(g->classifier);
    free(s);
}
