/* PDP bypassing (-gms_l1d_bypass pdp; CBWT = -gms_swl K with it, spec 001 2.4). The
 * protection itself is the L1D's (gms_cache_pdp_*, cache.h): each line's remaining protection
 * distance, victims only among unprotected lines, and a global-load read whose set has none
 * bypasses the L1D (sm.c's L1 access sends it through the bypass path). This file is PDP's
 * predictor: the reuse-distance sampler watches 1 of -gms_mdb_sample sets, hearing the same
 * accesses to them that lower the RPDs (gms_pdp_set_touched), remembering the last 64 blocks
 * of each with the set's access count; every -gms_mdb_period global-load transactions PD is
 * recomputed (gms_pdp_best_pd), given to the L1D, and the histogram halved. */
#include "core/bypass_policy.h"
#include "core/pdp.h"
#include "core/sm_internal.h"
#include "config/params.h"
#include <stdlib.h>
#include <string.h>

typedef struct pdp_sm {
    uint32_t ratio, nsamp;
    gms_pdp_set *sets;          /* [sampled set]; NULL without an L1D */
    uint64_t n[GMS_PDP_DMAX + 1], nt;
    uint32_t pd, accesses;
    uint64_t seen, pd_sum, recomputes;
} pdp_sm;

uint32_t gms_pdp_best_pd(const uint64_t *n, uint32_t dmax, uint64_t nt, uint32_t de)
{
    double hits = 0, cost = 0, best = 0;
    uint32_t pd = 0;
    for (uint32_t d = 1; d <= dmax; d++) {
        hits += (double)n[d];
        cost += (double)d * (double)n[d];
        double den = cost + ((double)nt - hits) * (double)(d + de);
        double e = den > 0 ? hits / den : 0;
        if (e > best) { best = e; pd = d; }
    }
    return pd;
}

static void *pdp_new(gms_sm *s)
{
    pdp_sm *m = gms_xcalloc(1, sizeof *m);
    if (!s->l1) return m;
    const gms_cache_config *c = &s->p->l1d.dl1;
    m->ratio = s->p->core.mdb_sample;
    m->nsamp = (c->nsets + m->ratio - 1) / m->ratio;
    gms_cache_pdp_enable(s->l1);
    s->l1_pdp = 1;
    m->sets = gms_xcalloc(m->nsamp, sizeof *m->sets);
    return m;
}

static void pdp_free(void *st)
{
    pdp_sm *m = st;
    if (!m) return;
    free(m->sets);
    free(m);
}

uint32_t gms_pdp_set_access(gms_pdp_set *set, uint64_t block)
{
    uint32_t now = ++set->n;
    for (uint32_t i = 0; i < GMS_PDP_HIST; i++)
        if (set->blk[i] == block + 1) {
            uint32_t d = now - set->at[i];
            set->at[i] = now;
            return d;
        }
    uint32_t p = set->pos++ % GMS_PDP_HIST;
    set->blk[p] = block + 1;
    set->at[p] = now;
    return 0;
}

void gms_pdp_set_touched(gms_sm *s, uint64_t addr)
{
    pdp_sm *m = s->byp;
    const gms_cache_config *c = &s->p->l1d.dl1;
    uint32_t set = gms_cache_set_index(c, addr);
    if (set % m->ratio) return;
    uint32_t d = gms_pdp_set_access(&m->sets[set / m->ratio], addr / c->line);
    m->nt++;
    if (d && d <= GMS_PDP_DMAX) m->n[d]++;
}

static int pdp_bypass(void *st, gms_sm *s, uint32_t wi) { (void)st; (void)s; (void)wi; return 0; }

/* every transaction of a global load: PD recomputed each period; the L1D decides the bypass
 * itself (never here) and the sampler hears the L1D's set accesses (gms_pdp_set_touched) */
static int pdp_bypass_txn(void *st, gms_sm *s, uint32_t wi, uint64_t addr)
{
    (void)wi;
    (void)addr;
    pdp_sm *m = st;
    if (!m->sets) return 0;
    const gms_cache_config *c = &s->p->l1d.dl1;
    m->seen++;
    if (++m->accesses >= s->p->core.mdb_period) {
        m->accesses = 0;
        m->pd = gms_pdp_best_pd(m->n, GMS_PDP_DMAX, m->nt, c->assoc);
        gms_cache_pdp_set_pd(s->l1, m->pd);
        for (uint32_t d = 0; d <= GMS_PDP_DMAX; d++) m->n[d] >>= 1;
        m->nt >>= 1;
        m->pd_sum += m->pd;
        m->recomputes++;
    }
    return 0;
}

/* gms_pdp_transactions (global-load transactions the predictor saw), gms_pdp_bypassed (reads
 * that found their L1D set protected and went around it), gms_pdp_forced (other misses that
 * found it so and evicted a protected line), gms_pdp_pd_avg (mean PD over the recomputations) */
static void pdp_report(gms_sm *const *sms, uint32_t n, gms_stats *out)
{
    uint64_t seen = 0, byp = 0, forced = 0, sum = 0, rc = 0;
    for (uint32_t i = 0; i < n; i++) {
        const pdp_sm *m = sms[i]->byp;
        if (!m) continue;
        seen += m->seen;
        sum += m->pd_sum;
        rc += m->recomputes;
        if (sms[i]->l1) {
            uint64_t b, f;
            gms_cache_pdp_counts(sms[i]->l1, &b, &f);
            byp += b;
            forced += f;
        }
    }
    gms_stat_u64(out, "gms_pdp_transactions", seen);
    gms_stat_u64(out, "gms_pdp_bypassed", byp);
    gms_stat_u64(out, "gms_pdp_forced", forced);
    gms_stat_f64(out, "gms_pdp_pd_avg", rc ? (double)sum / (double)rc : 0.0);
}

const gms_bypass_ops gms_bypass_pdp = {
    .name = "pdp", .summary = "PDP: L1D lines protected for a predicted reuse distance; a load finding its set all protected bypasses (with -gms_swl: CBWT)",
    .sm_new = pdp_new, .sm_free = pdp_free, .bypass = pdp_bypass, .bypass_txn = pdp_bypass_txn, .report = pdp_report,
};
