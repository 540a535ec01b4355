/* PDP bypassing (-gms_l1d_bypass pdp; CBWT = -gms_swl K with it, spec 001 2.4): each
 * transaction of a global load is decided on its own. The SM keeps a copy of the L1D's tags
 * (same sets, ways and index) with an RPD per line (pdp.h); a transaction whose set has no
 * unprotected line bypasses the L1D. The reuse-distance sampler watches 1 of -gms_mdb_sample
 * sets, remembering the last 64 blocks of each with the set's access count; every
 * -gms_mdb_period transactions PD is recomputed and the histogram halved.
 *
 * Approximation (docs/mdb.md): the L1D itself still replaces LRU; the copy follows PDP's own
 * replacement, so it can disagree with the L1D about which lines are resident. PDP proper
 * would protect lines inside the L1D's victim search. */
#include "core/bypass_policy.h"
#include "core/pdp.h"
#include "core/sm_internal.h"
#include "config/params.h"
#include <stdlib.h>
#include <string.h>

#define HIST 64   /* blocks remembered per sampled set */

typedef struct pdp_sm {
    uint32_t nsets, assoc, ratio, nsamp;
    uint64_t *tags;
    uint16_t *rpd;
    uint64_t *h_blk;            /* [sampled set][HIST] */
    uint32_t *h_at;             /* the set's access count when h_blk was accessed */
    uint32_t *h_pos, *set_n;    /* per sampled set: next slot; accesses */
    uint64_t n[GMS_PDP_DMAX + 1], nt;
    uint32_t pd, accesses;
    uint64_t decided, bypassed, pd_sum, recomputes;
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

int gms_pdp_access(uint64_t *tags, uint16_t *rpd, uint32_t assoc, uint64_t block, uint32_t pd)
{
    uint64_t t = block + 1;
    uint32_t hit = UINT32_MAX, inv = UINT32_MAX, free0 = UINT32_MAX;
    for (uint32_t w = 0; w < assoc; w++) {
        if (rpd[w]) rpd[w]--;
        if (tags[w] == t) hit = w;
        else if (!tags[w]) { if (inv == UINT32_MAX) inv = w; }
        else if (!rpd[w] && free0 == UINT32_MAX) free0 = w;
    }
    if (hit != UINT32_MAX) { rpd[hit] = (uint16_t)pd; return 1; }
    uint32_t v = inv != UINT32_MAX ? inv : free0;
    if (v == UINT32_MAX) return -1;
    tags[v] = t;
    rpd[v] = (uint16_t)pd;
    return 0;
}

static void *pdp_new(gms_sm *s)
{
    pdp_sm *m = gms_xcalloc(1, sizeof *m);
    if (!s->l1) return m;
    const gms_cache_config *c = &s->p->l1d.dl1;
    m->nsets = c->nsets;
    m->assoc = c->assoc;
    m->ratio = s->p->core.mdb_sample;
    m->nsamp = (c->nsets + m->ratio - 1) / m->ratio;
    m->tags = gms_xcalloc((size_t)c->nsets * c->assoc, sizeof *m->tags);
    m->rpd = gms_xcalloc((size_t)c->nsets * c->assoc, sizeof *m->rpd);
    m->h_blk = gms_xcalloc((size_t)m->nsamp * HIST, sizeof *m->h_blk);
    m->h_at = gms_xcalloc((size_t)m->nsamp * HIST, sizeof *m->h_at);
    m->h_pos = gms_xcalloc(m->nsamp, sizeof *m->h_pos);
    m->set_n = gms_xcalloc(m->nsamp, sizeof *m->set_n);
    return m;
}

static void pdp_free(void *st)
{
    pdp_sm *m = st;
    if (!m) return;
    free(m->tags); free(m->rpd); free(m->h_blk); free(m->h_at); free(m->h_pos); free(m->set_n);
    free(m);
}

/* the reuse-distance sampler: distance = accesses to the set since the block's last one */
static void sample(pdp_sm *m, uint32_t row, uint64_t block)
{
    uint64_t *hb = m->h_blk + (size_t)row * HIST;
    uint32_t *ha = m->h_at + (size_t)row * HIST;
    uint32_t now = ++m->set_n[row];
    m->nt++;
    for (uint32_t i = 0; i < HIST; i++)
        if (hb[i] == block + 1) {
            uint32_t d = now - ha[i];
            if (d <= GMS_PDP_DMAX) m->n[d]++;
            ha[i] = now;
            return;
        }
    uint32_t p = m->h_pos[row]++ % HIST;
    hb[p] = block + 1;
    ha[p] = now;
}

static int pdp_bypass(void *st, gms_sm *s, uint32_t wi) { (void)st; (void)s; (void)wi; return 0; }

static int pdp_bypass_txn(void *st, gms_sm *s, uint32_t wi, uint64_t addr)
{
    (void)wi;
    pdp_sm *m = st;
    if (!m->tags) return 0;
    const gms_cache_config *c = &s->p->l1d.dl1;
    uint32_t set = gms_cache_set_index(c, addr);
    uint64_t block = addr / c->line;
    if (set % m->ratio == 0) sample(m, set / m->ratio, block);
    size_t o = (size_t)set * m->assoc;
    int r = gms_pdp_access(&m->tags[o], &m->rpd[o], m->assoc, block, m->pd);
    m->decided++;
    if (r < 0) m->bypassed++;
    if (++m->accesses >= s->p->core.mdb_period) {
        m->accesses = 0;
        m->pd = gms_pdp_best_pd(m->n, GMS_PDP_DMAX, m->nt, m->assoc);
        for (uint32_t d = 0; d <= GMS_PDP_DMAX; d++) m->n[d] >>= 1;
        m->nt >>= 1;
        m->pd_sum += m->pd;
        m->recomputes++;
    }
    return r < 0;
}

/* gms_pdp_transactions, gms_pdp_bypassed (transactions that found their set protected),
 * gms_pdp_pd_avg (mean PD over the recomputations) */
static void pdp_report(gms_sm *const *sms, uint32_t n, gms_stats *out)
{
    uint64_t dec = 0, byp = 0, sum = 0, rc = 0;
    for (uint32_t i = 0; i < n; i++) {
        const pdp_sm *m = sms[i]->byp;
        if (!m) continue;
        dec += m->decided;
        byp += m->bypassed;
        sum += m->pd_sum;
        rc += m->recomputes;
    }
    gms_stat_u64(out, "gms_pdp_transactions", dec);
    gms_stat_u64(out, "gms_pdp_bypassed", byp);
    gms_stat_f64(out, "gms_pdp_pd_avg", rc ? (double)sum / (double)rc : 0.0);
}

const gms_bypass_ops gms_bypass_pdp = {
    .name = "pdp", .summary = "PDP: a transaction whose L1D set has only protected lines bypasses (with -gms_swl: CBWT)",
    .sm_new = pdp_new, .sm_free = pdp_free, .bypass = pdp_bypass, .bypass_txn = pdp_bypass_txn, .report = pdp_report,
};
