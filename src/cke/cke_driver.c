/* The multiprogram driver (spec 001 section 4.1, docs/cke.md). Each application is a built-in
 * workload with its own command queue: its kernels run one at a time on stream = its index,
 * and when its program is over it is created again and restarts, until the window ends.
 * Documented choices: copies and prefetches take no time (the window measures kernels; the
 * dissertation's runs have no copies in it); allocations of application k live at
 * ALLOC_BASE + k * 2^36, the same addresses at every restart; UVM is not supported.
 * The isolated IPC of each application is measured by a run of it alone on the whole GPU for
 * the same window (gms_cke_isolated); Warped-Slicer's curves by profile runs, and SMK-W's quota
 * shares by either (-gms_cke_smkw_rate). */
#include "cke/cke_driver.h"
#include "cke/cke_apps.h"
#include "cke/cke_memo.h"
#include "core/sm.h"
#include "cke/cke_ucp.h"
#include "config/params.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define APP_SPACING (1ULL << 36)

#define ALLOC_BASE 0x7f0000000000ULL   /* frontend/program.c's GMS_ALLOC_BASE */

typedef struct cke_app {
    const gms_cke_app_spec *spec;
    gms_wl_args *args;
    void *state;
    gms_program_src src;
    gms_program prog;
    uint64_t base;
    const gms_kernel *running;
    uint64_t kernels_done, runs_done;
    gms_cke_shape shape;
    uint32_t cap, sm_lo, sm_hi;
    double alone_ipc;
    double alone_wipc;            /* warp instructions per cycle alone: SMK-W's quota unit */
} cke_app;

struct gms_cke {
    gms_gpu *g;
    gms_cke_apps apps;
    uint32_t napps;
    cke_app app[GMS_CKE_MAX_APPS];
    gms_cke_sm *sms;
    gms_cke_plan plan;
    uint64_t window;
    long mi_idx;
    uint64_t seed;
};

static void app_close(cke_app *a)
{
    gms_program_free(&a->prog);
    if (a->src.destroy) a->src.destroy(a->src.self);
    if (a->state) a->spec->ops->destroy(a->state);
    a->src.destroy = NULL;
    a->state = NULL;
}

static int app_open(gms_cke *c, cke_app *a, gms_error *err)
{
    gms_program_init(&a->prog);
    a->prog.next_addr = a->base;
    a->prog.chunk = gms_wl_chunk(a->args);
    return gms_workload_program(a->spec->ops, a->args, &a->src, &a->state, err);
}

/* run application a's commands until one has to wait; launch = 0: stop at its next launch
 * (planning). Returns the commands taken, or -1. */
static int app_step(gms_cke *c, uint32_t k, int launch, gms_error *err)
{
    cke_app *a = &c->app[k];
    int taken = 0;
    for (int restarts = 0;; taken++) {
        if (a->prog.head == a->prog.n) {
            if (a->running) return taken;
            int r = a->src.next(a->src.self, &a->prog, err);
            if (r < 0) return -1;
            if (r == 0 && a->prog.head == a->prog.n) {
                /* the program is over: the application restarts */
                if (++restarts > 1) return gms_err(err, "workload cke: application %s launches no kernel", a->spec->abbrev);
                app_close(a);
                a->runs_done++;
                if (app_open(c, a, err)) return -1;
            }
            continue;
        }
        gms_cmd *cmd = &a->prog.q[a->prog.head];
        switch (cmd->kind) {
        case GMS_CMD_LAUNCH: {
            if (!launch || a->running) return taken;
            gms_kernel_src ks = cmd->kernel;
            ks.stream = (int)k;
            gms_kernel *kn = gms_gpu_launch(c->g, &ks);
            a->prog.head++;
            if (!kn) return -1;
            kn->cke_app = (uint8_t)k;
            if (a->cap && a->cap < kn->max_blocks_per_sm) kn->max_blocks_per_sm = a->cap;
            kn->sm_lo = a->sm_lo;
            kn->sm_hi = a->sm_hi;
            a->running = kn;
            return taken + 1;
        }
        case GMS_CMD_SYNC:
            if (a->running) return taken;
            break;
        default:   /* allocations, copies, prefetches, frees: no time in the window */
            break;
        }
        a->prog.head++;
    }
}

int gms_cke_commands(gms_cke *c)
{
    int taken = 0;
    for (uint32_t k = 0; k < c->napps; k++) {
        int r = app_step(c, k, 1, c->g->err);
        if (r < 0) return -1;
        taken += r;
    }
    return taken;
}

void gms_cke_kernel_done(gms_cke *c, const gms_kernel *k)
{
    for (uint32_t i = 0; i < c->napps; i++)
        if (c->app[i].running == k) { c->app[i].running = NULL; c->app[i].kernels_done++; }
}

int gms_cke_window_over(const gms_cke *c, uint64_t now) { return now >= c->window; }

/* ---------------------------------------------------------------- isolated and profile runs */

/* application k alone on the GPU for `window` cycles with at most cap blocks per SM: its IPC */
static int run_alone(gms_cke *c, uint32_t k, uint32_t cap, uint64_t window, double *ipc, double *wipc, gms_error *err)
{
    const gms_cke_app_spec *s = &c->apps.a[k];
    char apps[64], capv[32], win[48], args[512] = "", seed[40];
    snprintf(apps, sizeof apps, "apps=%s", s->abbrev);
    snprintf(capv, sizeof capv, "cap=%u", cap);
    snprintf(win, sizeof win, "window=%llu", (unsigned long long)window);
    snprintf(seed, sizeof seed, "seed=%llu", (unsigned long long)c->seed);
    /* its own parameters as args=ABBREV:k=v,... (scale among them) */
    size_t len = (size_t)snprintf(args, sizeof args, "args=%s:", s->abbrev);
    for (int i = 0; s->kv[i] && len < sizeof args; i++)
        len += (size_t)snprintf(args + len, sizeof args - len, "%s%s", i ? "," : "", s->kv[i]);
    const char *kv[] = { apps, "alone=1", capv, win, args, seed, NULL };
    /* out[0] IPC, out[1] warp instructions per cycle: from the memo when it has them */
    double out[2] = {0, 0};
    const char *dir = gms_cke_memo_dir();
    char *key = dir ? gms_cke_memo_key(c->g->p, kv) : NULL;
    int rc = key ? gms_cke_memo_get(dir, key, out, 2, err) : 0;
    if (rc == 0) {
        gms_workload_spec w = { "cke", NULL, kv, c->seed, NULL };
        gms_sim *sim = gms_sim_new(c->g->p, &w, err);
        if (!sim) { free(key); return -1; }
        rc = gms_sim_run(sim, err);
        double wi = 0, ti = 0;
        if (!rc && gms_stats_total(gms_sim_stats(sim), "gms_cke_app0_ipc", &out[0])) rc = gms_err(err, "internal: no gms_cke_app0_ipc");
        if (!rc && (gms_stats_total(gms_sim_stats(sim), "gms_cke_app0_warp_insts", &wi) ||
                    gms_stats_total(gms_sim_stats(sim), "gms_cke_app0_thread_insts", &ti)))
            rc = gms_err(err, "internal: no gms_cke_app0_warp_insts / thread_insts");
        gms_sim_free(sim);
        out[1] = ti > 0 ? out[0] * wi / ti : 0;   /* the same cycles: IPC x warp / thread instructions */
        if (!rc && key) gms_cke_memo_put(dir, key, out, 2);
    } else if (rc == 1) {
        rc = 0;
    }
    free(key);
    *ipc = out[0];
    if (wipc) *wipc = out[1];
    return rc;
}

static int profile(void *ud, uint32_t app, uint32_t t, double *ipc, gms_error *err)
{
    gms_cke *c = ud;
    return run_alone(c, app, t, c->g->p->cke.profile_window, ipc, NULL, err);
}

/* ---------------------------------------------------------------- set-up */

static void shape_of(const gms_core_params *cp, const gms_kernel_src *s, gms_cke_shape *out)
{
    uint32_t tpb = (uint32_t)gms_dim3_count(s->block);
    uint32_t warps = (tpb + 31) / 32;
    uint32_t rpt = (s->regs_per_thread + 3) & ~3u;
    out->threads = warps * 32;
    out->regs = rpt * warps * 32;
    out->shmem = s->shmem_bytes;
    out->occ = gms_occupancy(cp, tpb, s->regs_per_thread, s->shmem_bytes);
}

int gms_cke_attach(gms_gpu *g, const gms_wl_args *args, gms_error *err)
{
    const gms_params *p = g->p;
    gms_cke *c = gms_xcalloc(1, sizeof *c);
    c->g = g;
    c->seed = gms_wl_seed(args);
    if (gms_cke_apps_parse(args, &c->apps, err)) { free(c); return -1; }
    c->napps = c->apps.n;
    c->window = c->apps.window ? c->apps.window : p->cke.window;
    c->mi_idx = c->apps.alone ? 0 : p->cke.mi_idx;
    /* every launch (each restart too) waits -gpgpu_kernel_launch_latency before its first block:
     * a window no longer than that runs nothing and reports zeros */
    if (c->window <= p->core.kernel_launch_latency) {
        unsigned long long w = (unsigned long long)c->window;
        gms_cke_apps_free(&c->apps);
        free(c);
        return gms_err(err, "workload cke: the %llu-cycle window (-gms_cke_window) is not longer than "
                       "-gpgpu_kernel_launch_latency (%u cycles): no kernel would start in it", w,
                       p->core.kernel_launch_latency);
    }
    g->cke = c;   /* freed with the simulation from here on */
    for (uint32_t k = 0; k < c->napps; k++) {
        cke_app *a = &c->app[k];
        a->spec = &c->apps.a[k];
        a->base = ALLOC_BASE + k * APP_SPACING;
        if (gms_wl_args_parse(a->spec->ops, (const char *const *)a->spec->kv, c->seed, &a->args, err)) return -1;
        if (gms_wl_uvm(a->args)) return gms_err(err, "workload cke: %s: uvm=1 is not supported in multiprogrammed runs", a->spec->abbrev);
        if (app_open(c, a, err) || app_step(c, k, 0, err) < 0) return -1;
        /* the shape of its first kernel stands for the application's (documented) */
        const gms_cmd *cmd = &a->prog.q[a->prog.head];
        shape_of(&p->core, &cmd->kernel, &a->shape);
        if (!a->shape.occ) return gms_err(err, "workload cke: %s: its first kernel's block does not fit on an SM", a->spec->abbrev);
    }
    gms_cke_plan_ctx x = { .napps = c->napps, .n_sm = g->n_sm, .c = &p->cke, .profile = profile, .ud = c };
    for (uint32_t k = 0; k < c->napps; k++) { x.shape[k] = c->app[k].shape; x.name[k] = c->app[k].spec->abbrev; }
    x.lim = (gms_cke_sm_limits){ p->core.max_threads_per_sm, p->core.shader_registers, p->core.shmem_size, p->core.shader_cta };
    if (c->apps.alone) {
        memset(&c->plan, 0, sizeof c->plan);
        c->plan.cap[0] = c->apps.cap;
        c->plan.sm_hi[0] = g->n_sm;
    } else {
        if (p->cke.isolated)
            for (uint32_t k = 0; k < c->napps; k++)
                if (run_alone(c, k, 0, c->window, &c->app[k].alone_ipc, &c->app[k].alone_wipc, err)) return -1;
        if (gms_cke_tb_at(p->cke.tb_idx)->plan(&x, &c->plan, err)) return -1;
    }
    for (uint32_t k = 0; k < c->napps; k++) {
        c->app[k].cap = c->plan.cap[k];
        c->app[k].sm_lo = c->plan.sm_lo[k];
        c->app[k].sm_hi = c->plan.sm_hi[k];
    }
    /* SMK-W: each kernel's warp instructions per epoch in proportion to its isolated IPC, in
     * warp instructions, the quota's unit (so that each kernel gets the same share of its alone
     * rate; thread IPC would short the kernels whose warps run fewer active lanes) */
    uint32_t share[GMS_CKE_MAX_APPS] = {0};
    double rate[GMS_CKE_MAX_APPS] = {0}, sum = 0;
    int smkw = !strcmp(gms_cke_mi_at(c->mi_idx)->name, "smkw");
    for (uint32_t k = 0; k < c->napps; k++) {
        rate[k] = c->app[k].alone_wipc;
        /* -gms_cke_smkw_rate profile: the rates of a profiling run, as Warped-Slicer's curves
         * (spec 001 4.3: "based on isolated profiling"), not of the run STP divides by */
        if (smkw && !c->apps.alone && p->cke.smkw_profile) {
            double ipc;
            if (run_alone(c, k, 0, p->cke.profile_window, &ipc, &rate[k], err)) return -1;
        }
        sum += rate[k];
    }
    for (uint32_t k = 0; k < c->napps; k++) {
        double v = sum > 0 ? p->cke.wq_epoch * rate[k] / sum : (double)p->cke.wq_epoch / c->napps;
        share[k] = v < 1 ? 1 : (uint32_t)(v + 0.5);
    }
    c->sms = gms_xcalloc(g->n_sm, sizeof *c->sms);
    for (uint32_t i = 0; i < g->n_sm; i++) {
        /* alone: scheme none whatever -gms_cke_mi says */
        gms_cke_sm *cs = &c->sms[i];
        gms_cke_sm_init(cs, &p->cke, c->napps, gms_cke_mi_at(c->mi_idx), share);
        if (!c->apps.alone && gms_cke_tb_at(p->cke.tb_idx)->l1_ucp && p->l1d.dl1.enabled) {
            cs->ucp = gms_xcalloc(1, sizeof *cs->ucp);
            if (gms_ucp_init(cs->ucp, c->napps, p->l1d.dl1.assoc, p->l1d.dl1.nsets, p->cke.ucp_period))
                return gms_err(err, "workload cke: out of memory for the UCP monitors");
            cs->ucp->l1 = &p->l1d.dl1;
            cs->ucp->by_ways = p->cke.ucp_ways;
        }
        gms_sm_set_cke(g->sms[i], cs);
    }
    return 0;
}

void gms_cke_free(gms_cke *c)
{
    if (!c) return;
    for (uint32_t k = 0; k < c->napps; k++) {
        app_close(&c->app[k]);
        gms_wl_args_free(c->app[k].args);
    }
    gms_cke_apps_free(&c->apps);
    for (uint32_t i = 0; c->sms && i < c->g->n_sm; i++)
        if (c->sms[i].ucp) { gms_ucp_free(c->sms[i].ucp); free(c->sms[i].ucp); }
    free(c->sms);
    free(c);
}

/* ---------------------------------------------------------------- metrics */

void gms_cke_report(const gms_cke *c, gms_stats *st)
{
    double np[GMS_CKE_MAX_APPS] = {0}, stp = 0, antt = 0, mn = 1e300, mx = 0;
    double sm_cycles = (double)c->window * c->g->n_sm;
    uint64_t reqs[GMS_CKE_MAX_APPS] = {0}, all_acc = 0, all_miss = 0, all_rf = 0, all_stall = 0, alu = 0, sfu = 0;
    const double sched_cycles = sm_cycles * c->g->p->core.num_sched_per_core;
    int have_alone = 1;
    gms_stat_u64(st, "gms_cke_apps", c->napps);
    gms_stat_u64(st, "gms_cke_window", c->window);
    gms_stat_f64(st, "gms_cke_ws_predicted_stp", c->plan.predicted_stp);
    for (uint32_t k = 0; k < c->napps; k++) {
        const cke_app *a = &c->app[k];
        gms_cke_app_sm t = {0};
        for (uint32_t i = 0; i < c->g->n_sm; i++) {
            const gms_cke_app_sm *s = &c->sms[i].a[k];
            t.tinst += s->tinst; t.winst += s->winst; t.minst += s->minst; t.reqs += s->reqs; t.sinst += s->sinst;
            t.ginst += s->ginst; t.linst += s->linst;
            t.l1_acc += s->l1_acc; t.l1_miss += s->l1_miss; t.l1_rf += s->l1_rf; t.lsu_stall += s->lsu_stall;
            t.denied += s->denied;
            if (s->peak_inflight > t.peak_inflight) t.peak_inflight = s->peak_inflight;
        }
        double ipc = (double)t.tinst / (double)c->window;
        gms_stat_f64f(st, ipc, "gms_cke_app%u_ipc", k);
        gms_stat_u64f(st, t.tinst, "gms_cke_app%u_thread_insts", k);
        gms_stat_u64f(st, t.winst, "gms_cke_app%u_warp_insts", k);
        /* Table 6's columns whatever -gms_cke_bmi_insts says: Minst = global (and local) memory
         * instructions, the ones that make requests (Req/Minst = coalescing degree); Cinst =
         * the instructions the LSU does not execute (docs/cke.md, "Statistics") */
        gms_stat_u64f(st, t.ginst, "gms_cke_app%u_mem_insts", k);
        gms_stat_u64f(st, t.linst, "gms_cke_app%u_lsu_insts", k);
        gms_stat_u64f(st, t.minst, "gms_cke_app%u_bmi_insts", k);
        gms_stat_f64f(st, t.ginst ? (double)t.reqs / (double)t.ginst : 0, "gms_cke_app%u_req_per_minst", k);
        gms_stat_f64f(st, t.ginst ? (double)(t.winst - t.linst) / (double)t.ginst : 0, "gms_cke_app%u_cinst_per_minst", k);
        /* QBMI's own Req/Minst: per instruction it balances */
        gms_stat_f64f(st, t.minst ? (double)t.reqs / (double)t.minst : 0, "gms_cke_app%u_req_per_bmi_inst", k);
        gms_stat_f64f(st, t.l1_acc ? (double)t.l1_miss / (double)t.l1_acc : 0, "gms_cke_app%u_l1d_miss_rate", k);
        gms_stat_f64f(st, t.l1_acc ? (double)t.l1_rf / (double)t.l1_acc : 0, "gms_cke_app%u_l1d_rsfail_rate", k);
        gms_stat_f64f(st, t.winst ? 1000.0 * (double)t.l1_miss / (double)t.winst : 0, "gms_cke_app%u_l1d_mpki", k);
        /* cycles in which the LSU stayed held by an instruction of this kernel, of all SM cycles */
        gms_stat_f64f(st, (double)t.lsu_stall / sm_cycles, "gms_cke_app%u_lsu_stall_frac", k);
        gms_stat_u64f(st, t.reqs, "gms_cke_app%u_requests", k);
        reqs[k] = t.reqs;
        all_acc += t.l1_acc; all_miss += t.l1_miss; all_rf += t.l1_rf; all_stall += t.lsu_stall;
        alu += t.winst - t.linst;
        sfu += t.sinst;
        /* its issue utilisation (warp instructions per scheduler cycle): ALU (neither executed
         * by the LSU nor SFU) and SFU apart */
        gms_stat_f64f(st, (double)(t.winst - t.linst - t.sinst) / sched_cycles, "gms_cke_app%u_alu_util", k);
        gms_stat_f64f(st, (double)t.sinst / sched_cycles, "gms_cke_app%u_sfu_util", k);
        gms_stat_u64f(st, t.denied, "gms_cke_app%u_gate_denied", k);
        gms_stat_u64f(st, t.peak_inflight, "gms_cke_app%u_peak_inflight", k);
        gms_stat_u64f(st, a->kernels_done, "gms_cke_app%u_kernels_done", k);
        gms_stat_u64f(st, a->runs_done, "gms_cke_app%u_runs_done", k);
        gms_stat_u64f(st, a->cap ? a->cap : a->shape.occ, "gms_cke_app%u_blocks_per_sm", k);
        gms_stat_u64f(st, a->sm_hi - a->sm_lo, "gms_cke_app%u_sms", k);
        if (!strcmp(gms_cke_mi_at(c->mi_idx)->name, "smkw"))   /* SMK-W: its warp instructions per epoch and SM */
            gms_stat_u64f(st, c->sms[0].wq_share[k], "gms_cke_app%u_wq_share", k);
        if (c->sms[0].ucp) {   /* ws-ucp: its mean L1D ways over every repartition of every SM */
            uint64_t n = 0, w = 0;
            for (uint32_t i = 0; i < c->g->n_sm; i++) { n += c->sms[i].ucp->repartitions; w += c->sms[i].ucp->way_sum[k]; }
            /* no repartition yet: the even split it started with */
            gms_stat_f64f(st, n ? (double)w / (double)n : (double)c->sms[0].ucp->ways[k], "gms_cke_app%u_l1d_ways", k);
            if (k == 0) gms_stat_u64(st, "gms_cke_ucp_repartitions", n);
        }
        /* Table 6's static occupancy of its first kernel alone: registers, shared memory, threads */
        const gms_core_params *cp = &c->g->p->core;
        gms_stat_f64f(st, (double)a->shape.occ * a->shape.regs / cp->shader_registers, "gms_cke_app%u_rf_oc", k);
        gms_stat_f64f(st, cp->shmem_size ? (double)a->shape.occ * a->shape.shmem / cp->shmem_size : 0, "gms_cke_app%u_smem_oc", k);
        gms_stat_f64f(st, (double)a->shape.occ * a->shape.threads / cp->max_threads_per_sm, "gms_cke_app%u_thread_oc", k);
        if (c->apps.alone) continue;
        gms_stat_f64f(st, a->alone_ipc, "gms_cke_app%u_alone_ipc", k);
        gms_stat_f64f(st, a->alone_wipc, "gms_cke_app%u_alone_warp_ipc", k);
        if (a->alone_ipc <= 0) { have_alone = 0; continue; }
        np[k] = ipc / a->alone_ipc;
        gms_stat_f64f(st, np[k], "gms_cke_app%u_norm_ipc", k);
        stp += np[k];
        antt += np[k] > 0 ? 1.0 / np[k] : INFINITY;
        if (np[k] < mn) mn = np[k];
        if (np[k] > mx) mx = np[k];
    }
    /* the whole GPU: L1D miss and reservation-fail rates of the kernels' accesses, LSU stall
     * cycles, and ALU/SFU issue utilisation (non-memory warp instructions per scheduler cycle) */
    gms_stat_f64(st, "gms_cke_l1d_miss_rate", all_acc ? (double)all_miss / (double)all_acc : 0);
    gms_stat_f64(st, "gms_cke_l1d_rsfail_rate", all_acc ? (double)all_rf / (double)all_acc : 0);
    gms_stat_f64(st, "gms_cke_lsu_stall_frac", (double)all_stall / sm_cycles);
    gms_stat_f64(st, "gms_cke_alu_util", (double)alu / sched_cycles);
    gms_stat_f64(st, "gms_cke_sfu_util", (double)sfu / sched_cycles);   /* the SFU part of it */
    /* Fig. 34: requests of kernel 1 per request of kernel 0 (balanced: near 1) */
    if (c->napps >= 2) gms_stat_f64(st, "gms_cke_req_ratio", reqs[0] ? (double)reqs[1] / (double)reqs[0] : 0);
    /* the series (Fig. 32-34): requests of each kernel in each of the first GMS_CKE_SAMPLES
     * periods of GMS_CKE_SAMPLE_EVERY cycles, and kernel 1's per request of kernel 0 */
    uint32_t ns = (uint32_t)(c->window / GMS_CKE_SAMPLE_EVERY);
    if (ns > GMS_CKE_SAMPLES) ns = GMS_CKE_SAMPLES;
    for (uint32_t j = 0; j < ns && !c->apps.alone; j++) {
        uint64_t d[GMS_CKE_MAX_APPS] = {0};
        for (uint32_t k = 0; k < c->napps; k++) {
            for (uint32_t i = 0; i < c->g->n_sm; i++) d[k] += c->sms[i].a[k].req_t[j];
            gms_stat_u64f(st, d[k], "gms_cke_app%u_requests_t[%u]", k, j);
        }
        gms_stat_f64f(st, d[0] ? (double)d[1] / (double)d[0] : 0, "gms_cke_req_ratio_t[%u]", j);
    }
    if (c->apps.alone || !have_alone) return;
    /* an application that issued nothing in the shared window (still copying its input, say)
     * has no slowdown to average: ANTT is undefined, not 0; say so instead of printing it */
    uint32_t starved = 0;
    for (uint32_t k = 0; k < c->napps; k++) starved += np[k] <= 0;
    gms_stat_u64(st, "gms_cke_starved_apps", starved);
    if (starved)
        fprintf(stderr, "gpumemsim: warning: %u application(s) issued no instruction in the %llu-cycle window; "
                "ANTT is not reported (raise -gms_cke_window)\n", starved, (unsigned long long)c->window);
    gms_stat_f64(st, "gms_cke_stp", stp);
    if (!starved) gms_stat_f64(st, "gms_cke_antt", antt / c->napps);
    gms_stat_f64(st, "gms_cke_fairness", mx > 0 ? mn / mx : 0);
}
