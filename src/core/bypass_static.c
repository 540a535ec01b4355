/* static-L (-gms_l1d_bypass static -gms_bypass_l L): the first L warps (one block resident)
 * or blocks (more resident) of each SM use the L1D, the rest bypass it: the (w, N-L, N) and
 * (b, N-L, N) points of spec 001 Fig. 3, against which MDB's choice is judged.
 *
 * It also records what MDB's cubic reservation-fail model (spec 001 2.2) predicts for this
 * run, so that a sweep over L can check the model's fit (claim C2.4): at every global load
 * asked, N (resident blocks, or the block's warps) and (min(L, N) / N)^3, the fraction of the
 * all-L1D run's reservation failures the model expects. N changes as blocks come and go, so
 * the prediction is their mean over the loads. */
#include "core/bypass_policy.h"
#include "core/mdb.h"
#include "core/sm_internal.h"
#include <stdlib.h>

typedef struct static_sm { uint64_t loads; double sum_n, sum_model; } static_sm;

static void *static_new(gms_sm *s) { (void)s; return gms_xcalloc(1, sizeof(static_sm)); }
static void static_free(void *st) { free(st); }

/* the RF model's prediction for L of N: (min(L, N) / N)^3 */
double gms_static_rf_model(uint32_t l, uint32_t n)
{
    if (!n) return 1.0;
    double f = (double)(l < n ? l : n) / (double)n;
    return f * f * f;
}

static int static_bypass(void *st, gms_sm *s, uint32_t wi)
{
    const warp *w = &s->w[wi];
    int block_level = s->blocks_used > 1;
    uint32_t idx = block_level ? w->blk : wi - s->blocks[w->blk].first_warp;
    uint32_t n = block_level ? s->blocks_used : s->blocks[w->blk].nwarps;
    static_sm *m = st;
    m->loads++;
    m->sum_n += n;
    m->sum_model += gms_static_rf_model(s->p->core.bypass_l, n);
    return idx >= s->p->core.bypass_l;
}

/* gms_static_N_avg: mean N at the global loads asked; gms_static_rf_model: the mean predicted
 * fraction (min(L, N)/N)^3 of the all-L1D reservation failures (over all SMs' loads) */
static void static_report(gms_sm *const *sms, uint32_t n, gms_stats *out)
{
    uint64_t loads = 0;
    double sn = 0, sm = 0;
    for (uint32_t i = 0; i < n; i++) {
        const static_sm *m = sms[i]->byp;
        if (!m) continue;
        loads += m->loads;
        sn += m->sum_n;
        sm += m->sum_model;
    }
    gms_stat_f64(out, "gms_static_N_avg", loads ? sn / (double)loads : 0.0);
    gms_stat_f64(out, "gms_static_rf_model", loads ? sm / (double)loads : 1.0);
}

const gms_bypass_ops gms_bypass_static = {
    .name = "static", .summary = "the first -gms_bypass_l warps/blocks of each SM use the L1D, the rest bypass it",
    .sm_new = static_new, .sm_free = static_free, .bypass = static_bypass, .report = static_report,
};
