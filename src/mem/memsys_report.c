/* Counters of the memory partitions, GPGPU-Sim names where they exist:
 *  L2: gms_cache_report over every slice ("L2_total_cache_accesses", ...), L2_BW_total
 *      (GB/s, GPGPU-Sim: replies x 32 B over kernel core cycles x icnt period);
 *  DRAM per channel "DRAM[i].n_rd", ... and summed: n_cmd n_nop n_act n_pre n_ref n_req n_rd
 *      n_rd_L2_A n_write n_wr_bk, bw_util (mean of bwutil / n_cmd), dram_eff, Row_Buffer_Locality
 *      (and _read/_write), Bank_Level_Parallism (sic), gpgpu_n_dram_reads/writes/activate/...;
 *  totals the fidelity harness compares: dram_reads (sum n_rd), dram_writes (sum n_write +
 *      n_wr_bk), row_buffer_locality (each channel's locality weighted by its n_req, as in
 *      shared/reference/accelsim/README.md), dram_avg_read_latency (DRAM cycles, ours).
 *  The DRAM's per-cycle counters (n_cmd, n_nop, n_activity, bwutil and so bw_util and dram_eff,
 *  mrqq_avg, Bank_Level_Parallism) are over kernel time only (gms_ms_kernel_time). */
#include "mem/memsys_impl.h"
#include <stdlib.h>

static double ratio(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }

/* DRAM edges up to now (the engine's count lags while the DRAM domain is idle) */
static uint64_t dram_now(const memsys *ms)
{
    uint64_t dcyc = gms_engine_cycle(ms->eng, GMS_DOM_DRAM);
    uint64_t dper = (uint64_t)(1e9 / ms->dram_mhz + 0.5);
    if (gms_engine_time_fs(ms->eng) / dper > dcyc) dcyc = gms_engine_time_fs(ms->eng) / dper;
    return dcyc;
}

/* GPGPU-Sim clocks its DRAM only while a kernel runs (gpgpu_sim::cycle between launch and
 * the kernel's end; copies take no cycles): the DRAM cycles after this instant count in
 * n_cmd, bw_util and the other per-cycle counters while on. Called on the core edge at which
 * the first kernel starts or the last one ends, when the memory side is not running ahead. */
void gms_ms_kernel_time(void *self, int on)
{
    memsys *ms = self;
    if (on) gms_ms_add_reply_pop(ms);
    uint64_t dcyc = dram_now(ms);
    for (uint32_t c = 0; c < ms->nch; c++) gms_dram_chan_count_cycles(ms->chans[c].dram, on, dcyc);
    uint64_t core = gms_ms_core_now(ms);
    if (ms->kcore_on && !on) ms->kcore_total += core - ms->kcore_since;
    if (on && !ms->kcore_on) ms->kcore_since = core;
    ms->kcore_on = on;
}

void gms_ms_report(void *self, gms_stats *out)
{
    memsys *ms = self;
    gms_cache **caches = gms_xcalloc(ms->nsub, sizeof *caches);
    size_t nc = 0;
    uint64_t replies = 0;
    for (uint32_t i = 0; i < ms->nsub; i++) {
        gms_cache *c = gms_l2_slice_cache(ms->slices[i].l2);
        if (c) caches[nc++] = c;
        replies += gms_l2_slice_replies(ms->slices[i].l2);
    }
    if (nc) gms_cache_report(caches, nc, "L2", out);
    uint64_t dropped = 0;
    for (size_t i = 0; i < nc; i++) dropped += gms_cache_memcpy_dirty_dropped(caches[i]);
    free(caches);
    gms_stat_u64(out, "gms_memcpy_l2_sectors", ms->memcpy_sectors);
    gms_stat_u64(out, "gms_memcpy_l2_dirty_dropped", dropped);
    gms_l2q_stats qst = { 0 };
    for (uint32_t i = 0; i < ms->nsub; i++) {
        ms_slice *s = &ms->slices[i];
        if (s->asleep) gms_ms_slice_settle(s, gms_engine_next_tick_cycle(ms->eng, s->comp));
        gms_l2_slice_settle_occupancy(s->l2, gms_ms_core_now(ms));
        gms_l2_slice_inq_stats(s->l2, &qst);
    }
    gms_l2q_report(&qst, out);
    gms_energy_events ev = { .l2_accesses = qst.accessed + qst.stall[GMS_L2Q_STALL_RF] + qst.racb,
                             .queue_ops = 2 * qst.fills };   /* DRAM events below */
    /* GPGPU-Sim: replies x 32 B / (gpu_tot_sim_cycle x icnt period): kernel core cycles, timed
     * with the interconnect's clock (so it is in GB/s only when the two clocks are equal) */
    uint64_t core = ms->kcore_total + (ms->kcore_on ? gms_ms_core_now(ms) - ms->kcore_since : 0);
    double secs = core / (ms->icnt_mhz * 1e6);
    gms_stat_f64(out, "L2_BW_total", secs > 0 ? (double)replies * 32.0 / secs / 1e9 : 0.0);
    /* the open window counts as if it ended now (read-only: a report between kernels leaves
     * the window running) */
    uint64_t top = ms->share_top, all = ms->share_all, wtop = 0;
    for (uint32_t c = 0; c < ms->nch; c++) {
        all += ms->share_cnt[c];
        if (ms->share_cnt[c] > wtop) wtop = ms->share_cnt[c];
    }
    gms_stat_f64(out, "gms_partition_busiest_share", ratio(top + wtop, all));

    uint64_t dcyc = dram_now(ms);
    gms_dram_stats sum;
    memset(&sum, 0, sizeof sum);
    double bw = 0, eff = 0, blp = 0, rbl_w = 0;
    for (uint32_t c = 0; c < ms->nch; c++) {
        gms_dram_chan *d = ms->chans[c].dram;
        gms_dram_chan_sync(d, dcyc);
        const gms_dram_stats *s = gms_dram_chan_stats(d);
        double rbl = ratio(s->hits_num, s->access_num);
        gms_stat_u64f(out, s->n_cmd, "DRAM[%u].n_cmd", c);
        gms_stat_u64f(out, s->n_act, "DRAM[%u].n_act", c);
        gms_stat_u64f(out, s->n_pre, "DRAM[%u].n_pre", c);
        gms_stat_u64f(out, s->n_req, "DRAM[%u].n_req", c);
        gms_stat_u64f(out, s->n_rd, "DRAM[%u].n_rd", c);
        gms_stat_u64f(out, s->n_wr, "DRAM[%u].n_write", c);
        gms_stat_u64f(out, s->n_wr_WB, "DRAM[%u].n_wr_bk", c);
        gms_stat_f64f(out, ratio(s->bwutil, s->n_cmd), "DRAM[%u].bw_util", c);
        gms_stat_f64f(out, rbl, "DRAM[%u].Row_Buffer_Locality", c);
        gms_stat_f64f(out, ratio(s->banks_1time, s->banks_access_total), "DRAM[%u].Bank_Level_Parallism", c);
        gms_stat_u64f(out, s->n_activity, "DRAM[%u].n_activity", c);
        gms_stat_f64f(out, ratio(s->ave_mrqs, s->n_cmd), "DRAM[%u].mrqq_avg", c);
        gms_stat_u64f(out, s->max_mrqs, "DRAM[%u].mrqq_max", c);
        bw += ratio(s->bwutil, s->n_cmd);
        eff += ratio(s->bwutil, s->n_activity);
        blp += ratio(s->banks_1time, s->banks_access_total);
        rbl_w += rbl * (double)s->n_req;
        uint64_t *dst = (uint64_t *)&sum;
        const uint64_t *src = (const uint64_t *)s;
        for (size_t k = 0; k < sizeof sum / sizeof(uint64_t); k++) dst[k] += src[k];
    }
    gms_stat_u64(out, "n_cmd", sum.n_cmd);
    gms_stat_u64(out, "n_nop", sum.n_nop);
    gms_stat_u64(out, "n_act", sum.n_act);
    gms_stat_u64(out, "n_pre", sum.n_pre);
    gms_stat_u64(out, "n_ref_event", sum.n_ref);
    gms_stat_u64(out, "n_req", sum.n_req);
    gms_stat_u64(out, "n_rd", sum.n_rd);
    gms_stat_u64(out, "n_rd_L2_A", sum.n_rd_L2_A);
    gms_stat_u64(out, "n_write", sum.n_wr);
    gms_stat_u64(out, "n_wr_bk", sum.n_wr_WB);
    /* GPGPU-Sim's totalbankreads / totalbankwrites: atoms of the requests the channels took
     * (gms_dram_stats), the text log's "total dram reads / writes" */
    gms_stat_u64(out, "gms_dram_bank_reads", sum.bank_reads);
    gms_stat_u64(out, "gms_dram_bank_writes", sum.bank_writes);
    gms_stat_u64(out, "gpgpu_n_dram_reads", sum.n_rd);
    gms_stat_u64(out, "gpgpu_n_dram_writes", sum.n_wr + sum.n_wr_WB);
    gms_stat_u64(out, "gpgpu_n_dram_activate", sum.n_act);
    gms_stat_u64(out, "gpgpu_n_dram_commands", sum.n_cmd);
    gms_stat_u64(out, "gpgpu_n_dram_noops", sum.n_nop);
    gms_stat_u64(out, "gpgpu_n_dram_precharges", sum.n_pre);
    gms_stat_u64(out, "gpgpu_n_dram_requests", sum.n_req);
    gms_stat_f64(out, "bw_util", ms->nch ? bw / ms->nch : 0);
    gms_stat_f64(out, "dram_eff", ms->nch ? eff / ms->nch : 0);
    /* spec 000a 7 "DRAM efficiency": active cycles over cycles (GPGPU-Sim's dram_eff is the
     * bandwidth used over active cycles) */
    gms_stat_f64(out, "gms_dram_active_fraction", ratio(sum.n_activity, sum.n_cmd));
    gms_stat_f64(out, "Row_Buffer_Locality", ratio(sum.hits_num, sum.access_num));
    gms_stat_f64(out, "Row_Buffer_Locality_read", ratio(sum.hits_read_num, sum.read_num));
    gms_stat_f64(out, "Row_Buffer_Locality_write", ratio(sum.hits_write_num, sum.write_num));
    gms_stat_f64(out, "Bank_Level_Parallism", ms->nch ? blp / ms->nch : 0);
    gms_stat_u64(out, "dram_reads", sum.n_rd);
    gms_stat_u64(out, "dram_writes", sum.n_wr + sum.n_wr_WB);
    gms_stat_f64(out, "row_buffer_locality", sum.n_req ? rbl_w / (double)sum.n_req : 0);
    gms_stat_f64(out, "dram_avg_read_latency", ratio(sum.rd_lat_sum, sum.rd_lat_n));
    ev.dram_act = sum.n_act;
    /* every column burst: the L2's write-allocate reads (n_rd_L2_A) are read bursts too */
    ev.dram_rw = sum.n_rd + sum.n_rd_L2_A + sum.n_wr + sum.n_wr_WB;
    ev.seconds = (double)core / (ms->core_mhz * 1e6);
    gms_energy_report(&ms->energy, &ev, out);
}
