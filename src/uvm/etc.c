/* ETC (Li et al., ASPLOS'19) as spec 004 section 4.4 uses it for irregular workloads: proactive
 * eviction off (its authors disable it for irregular applications; not built), memory-aware
 * throttling (MT) and capacity compression (CC), on top of the BASELINE's batch runtime.
 *  - CC: compressed pages let the device hold -gms_uvm_etc_cc times as many pages (frames x F).
 *    The (de)compression latency on device-memory accesses is not modelled (inferred: the spec
 *    gives no ratio or latency; docs/batch-aware.md).
 *  - MT (spec 004 footnote 8): "When triggered, MT statically throttles half of the SMs in the
 *    beginning. After the initial phase, it repeats two epochs, the detection epoch and the
 *    execution epoch. Depending on the behavior monitored during the detection epoch, MT decides
 *    to throttle or unthrottle SMs." Inferred (the epochs and the rule are gaps): MT triggers at
 *    the first eviction (memory oversubscribed); floor(n/2) SMs are throttled for one execution
 *    epoch; then each detection epoch (-gms_uvm_etc_detect cycles) counts re-faults on evicted
 *    pages (thrashing, the premature evictions of spec 004 2.4); more than in the previous
 *    detection epoch throttles one more SM (at least one stays), fewer unthrottles one, the same
 *    keeps; the decision holds for the execution epoch (-gms_uvm_etc_exec cycles).
 *  - A throttled SM is given no new block; its running blocks finish (the dispatcher asks
 *    gms_uvm_sm_throttled). The SMs throttled are the highest-numbered ones.
 *  - -gms_uvm_active_sms N fixes the SMs that take blocks to the first N (spec 004 Fig. 1's
 *    "active GPU core count"; with ETC it is the most MT may unthrottle). */
#include <stdlib.h>
#include "uvm/etc.h"
#include "uvm/etc_internal.h"

static uint32_t sm_cap(const gms_uvm *u)
{
    uint32_t n = u->n_sm;
    if (u->prm->active_sms && u->prm->active_sms < n) n = u->prm->active_sms;
    return n;
}

void gms_uvm_etc_init(gms_uvm *u)
{
    const gms_uvm_params *p = u->prm;
    if (!p->etc && !p->active_sms && !p->ws_window) return;
    gms_uvm_etc *e = gms_xcalloc(1, sizeof *e);
    e->n_sm = u->n_sm;
    e->active = sm_cap(u);
    e->mt = p->etc && p->etc_mt;
    e->ws_window = p->ws_window;
    u->ba.etc = e;
}

void gms_uvm_etc_free(gms_uvm *u)
{
    if (!u->ba.etc) return;
    free(u->ba.etc->ws_stamp);
    free(u->ba.etc);
    u->ba.etc = NULL;
}

uint64_t gms_uvm_etc_frames(const gms_uvm *u, uint64_t frames)
{
    if (!u->prm->etc || !(u->prm->etc_cc > 1.0)) return frames;
    return (uint64_t)((double)frames * u->prm->etc_cc);
}

static void set_active(gms_uvm_etc *e, uint32_t n, uint64_t t)
{
    e->active_cycles += (double)e->active * (double)(t - e->since);
    e->since = t;
    e->active = n;
}

void gms_uvm_etc_advance(gms_uvm *u, uint64_t now)
{
    gms_uvm_etc *e = u->ba.etc;
    if (!e || !e->mt || e->phase == GMS_ETC_OFF) return;
    const gms_uvm_params *p = u->prm;
    while (now >= e->phase_end) {
        uint64_t t = e->phase_end;
        if (e->phase == GMS_ETC_DETECT) {
            e->detections++;
            if (e->have_prev && e->det_thrash > e->prev_thrash && e->active > 1) {
                set_active(e, e->active - 1, t);
                e->throttles++;
            } else if (e->have_prev && e->det_thrash < e->prev_thrash && e->active < sm_cap(u)) {
                set_active(e, e->active + 1, t);
                e->unthrottles++;
            }
            e->prev_thrash = e->det_thrash;
            e->have_prev = 1;
            e->phase = GMS_ETC_EXEC;
            e->phase_end = t + p->etc_exec;
        } else {   /* the initial phase or an execution epoch ends: detect */
            e->phase = GMS_ETC_DETECT;
            e->det_thrash = 0;
            e->phase_end = t + p->etc_detect;
        }
    }
}

void gms_uvm_etc_evicted(gms_uvm *u, uint64_t now)
{
    gms_uvm_etc *e = u->ba.etc;
    if (!e || !e->mt) return;
    if (e->phase != GMS_ETC_OFF) { gms_uvm_etc_advance(u, now); return; }
    /* triggered: memory is oversubscribed; half of the SMs stop taking blocks */
    e->phase = GMS_ETC_INITIAL;
    e->t_trigger = e->since = now;
    e->active_cycles = 0;
    uint32_t cap = sm_cap(u), half = e->n_sm - e->n_sm / 2;   /* floor(n/2) SMs throttled */
    e->active = half < cap ? half : cap;
    if (!e->active) e->active = 1;
    e->throttles++;
    e->phase_end = now + u->prm->etc_exec;
}

void gms_uvm_etc_refault(gms_uvm *u, uint64_t now)
{
    gms_uvm_etc *e = u->ba.etc;
    if (!e || !e->mt || e->phase == GMS_ETC_OFF) return;
    gms_uvm_etc_advance(u, now);
    if (e->phase == GMS_ETC_DETECT) e->det_thrash++;
}

int gms_uvm_sm_throttled(gms_uvm *u, uint32_t sm, uint64_t now)
{
    gms_uvm_etc *e = u->ba.etc;
    if (!e) return 0;
    if (e->mt && e->phase != GMS_ETC_OFF) gms_uvm_etc_advance(u, now);
    return sm >= e->active;
}

void gms_uvm_etc_report(gms_uvm *u, gms_stats *out)
{
    gms_uvm_etc *e = u->ba.etc;
    if (!e) return;
    gms_uvm_ws_report(u, out);
    if (!e->mt) return;
    uint64_t now = u->now;
    gms_uvm_etc_advance(u, now);
    int on = e->phase != GMS_ETC_OFF;
    double span = on && now > e->t_trigger ? (double)(now - e->t_trigger) : 0;
    double cyc = e->active_cycles + (on ? (double)e->active * (double)(now - e->since) : 0);
    gms_stat_u64(out, "gms_etc_mt_triggered", (uint64_t)on);
    gms_stat_f64(out, "gms_etc_mt_active_sms_mean", span > 0 ? cyc / span : (double)e->active);
    gms_stat_u64(out, "gms_etc_mt_active_sms_end", e->active);
    gms_stat_u64(out, "gms_etc_mt_throttles", e->throttles);
    gms_stat_u64(out, "gms_etc_mt_unthrottles", e->unthrottles);
    gms_stat_u64(out, "gms_etc_mt_detections", e->detections);
}
