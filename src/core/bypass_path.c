/* The SM's L1D bypass path: slots, BpR reservation failures, in-flight statistics. See
 * bypass_path.h. */
#include "core/bypass_path.h"
#include "core/sm_internal.h"
#include "config/params.h"
#include <string.h>

/* the in-flight count changes at `now` from `nfl`: the cycles since the last change had
 * `nfl` reads in flight (event-driven, so that sleeping or blocked SM ticks cost nothing) */
static void bp_change(gms_bypass_sm *b, uint32_t nfl, uint64_t now)
{
    if (now > b->since) {
        uint64_t dt = now - b->since;
        b->area += dt * nfl;
        if (nfl) b->busy += dt;
        b->since = now;
    }
}

void gms_bypass_take(gms_bypass_sm *b, uint32_t nfl, uint64_t now)
{
    bp_change(b, nfl, now);
    b->reads++;
    if (nfl + 1 > b->max) b->max = nfl + 1;
}

void gms_bypass_release(gms_bypass_sm *b, uint32_t nfl, uint64_t now) { bp_change(b, nfl, now); }

int gms_sm_bypass_slot_free(const gms_sm *s)
{
    uint32_t slots = s->p->l1d.bypass_slots;
    return !slots || s->bypass_inflight < slots;
}

int gms_sm_bypass_read(gms_sm *s, gms_mreq *r, uint64_t now)
{
    if (!gms_sm_bypass_slot_free(s)) {
        s->bp.rsfail++;
        if (s->l1) gms_cache_count_fail(s->l1, (gms_access_type)r->access, GMS_RF_BYPASS_SLOT);
        return 0;
    }
    r->bypass_l1 = 1;
    gms_bypass_take(&s->bp, s->bypass_inflight, now);
    s->bypass_inflight++;
    s->ctr->n_bypass_reads++;
    gms_fifo_push(&s->bypass_out, r);
    s->tick_l1_changed = 1;   /* the SM's state changed: no blocked-tick snapshot of this tick */
    return 1;
}

int gms_bypass_stats_on(const gms_params *p)
{
    return p->l1d.bypass_slots || (p->mem.racb & 1) || strcmp(p->core.l1d_bypass, "none") != 0 || p->core.swl ||
           p->l1d.mrpb.on;
}

void gms_bypass_report(const gms_bypass_sm *const *b, uint32_t n, uint64_t now, const uint32_t *nfl,
                       gms_stats *out)
{
    uint64_t reads = 0, rsfail = 0, area = 0, busy = 0;
    uint32_t max = 0;
    for (uint32_t i = 0; i < n; i++) {
        gms_bypass_sm t = *b[i];
        bp_change(&t, nfl[i], now);   /* up to now, without changing the SM's record */
        reads += t.reads;
        rsfail += t.rsfail;
        area += t.area;
        busy += t.busy;
        if (t.max > max) max = t.max;
    }
    gms_stat_u64(out, "gms_bpr_reads", reads);
    gms_stat_u64(out, "gms_bpr_rsfail", rsfail);
    gms_stat_f64(out, "gms_bpr_rsfail_rate", reads ? (double)rsfail / (double)reads : 0.0);
    gms_stat_f64(out, "gms_bpr_inflight_avg", busy ? (double)area / (double)busy : 0.0);
    gms_stat_u64(out, "gms_bpr_inflight_max", max);
}
