/* CCWS: see ccws.h. */
#include "core/ccws.h"
#include "core/sm_internal.h"
#include "config/params.h"
#include <stdlib.h>
#include <string.h>

struct gms_ccws {
    uint32_t vta, nwarps, line;
    uint64_t *vtag;             /* [warp][vta] evicted blocks + 1 */
    uint32_t *vpos;             /* [warp] next FIFO slot */
    uint32_t *score, *at;       /* [warp] score when last set, and `acc` then (lazy decay) */
    uint32_t acc;
    uint64_t vta_hits, barred_checks;
};

static uint32_t eff(const gms_ccws *c, uint32_t w)
{
    uint32_t d = c->acc - c->at[w];
    return c->score[w] > d ? c->score[w] - d : 0;
}

/* the L1D replaced a line that warp `owner` had brought in: its tag goes to the owner's VTA */
static void ccws_evicted(void *ctx, uint64_t line_addr, uint32_t owner)
{
    gms_ccws *c = ((gms_sm *)ctx)->ccws;
    if (owner >= c->nwarps) return;   /* a line of no warp (a write-back's, a fill of no warp) */
    c->vtag[(size_t)owner * c->vta + c->vpos[owner]++ % c->vta] = line_addr / c->line + 1;
}

gms_ccws *gms_ccws_new(gms_sm *s)
{
    gms_ccws *c = gms_xcalloc(1, sizeof *c);
    uint32_t nw = s->nwarps_max;
    c->nwarps = nw;
    c->line = s->p->l1d.dl1.line;
    c->vta = s->p->core.ccws_vta;
    c->vtag = gms_xcalloc((size_t)nw * c->vta, sizeof *c->vtag);
    c->vpos = gms_xcalloc(nw, sizeof *c->vpos);
    c->score = gms_xcalloc(nw, sizeof *c->score);
    c->at = gms_xcalloc(nw, sizeof *c->at);
    gms_cache_track_evictions(s->l1, ccws_evicted, s);
    return c;
}

void gms_ccws_free(gms_ccws *c)
{
    if (!c) return;
    free(c->vtag); free(c->vpos); free(c->score); free(c->at);
    free(c);
}

void gms_ccws_allowed(const uint32_t *scores, uint32_t n, uint32_t base, uint8_t *allowed)
{
    /* selection by repeated maximum: n is at most a few dozen warps, and this runs at VTA
     * hits and warp changes only */
    uint64_t cutoff = (uint64_t)base * n, sum = 0;
    memset(allowed, 0, n);
    uint8_t *taken = gms_xcalloc(n ? n : 1, 1);
    for (uint32_t k = 0; k < n; k++) {
        uint32_t best = UINT32_MAX;
        for (uint32_t i = 0; i < n; i++)
            if (!taken[i] && (best == UINT32_MAX || scores[i] > scores[best])) best = i;
        taken[best] = 1;
        sum += (uint64_t)base + scores[best];
        if (k > 0 && sum > cutoff) break;   /* the first always may */
        allowed[best] = 1;
    }
    free(taken);
}

void gms_ccws_update(gms_sm *s)
{
    gms_ccws *c = s->ccws;
    uint32_t idx[MAX_WARPS], sc[MAX_WARPS] = {0}, n = 0;
    uint8_t ok[MAX_WARPS];
    /* active warps in age order: by scheduler order, oldest first, schedulers interleaved
     * (ties in score go to the earlier one) */
    for (uint32_t si = 0; si < s->nsched; si++)
        for (uint32_t j = 0; j < s->sc[si].n; j++) {
            uint32_t wi = s->sc[si].order[j];
            if (s->w[wi].state != W_ACTIVE || !(s->swl_ok[wi >> 6] >> (wi & 63) & 1)) continue;   /* swl.c */
            idx[n] = wi;
            sc[n++] = eff(c, wi);
        }
    gms_ccws_allowed(sc, n, s->p->core.ccws_base, ok);
    memset(s->ccws_barred, 0, sizeof s->ccws_barred);
    for (uint32_t i = 0; i < n; i++)
        if (!ok[i]) s->ccws_barred[idx[i] >> 6] |= 1ULL << (idx[i] & 63);
}

void gms_ccws_access(gms_sm *s, uint32_t wi, uint64_t addr, int miss)
{
    gms_ccws *c = s->ccws;
    c->acc++;
    int lost = 0;
    if (miss) {   /* lost locality if the warp's own VTA holds the block */
        uint64_t *vt = c->vtag + (size_t)wi * c->vta, t = addr / c->line + 1;
        for (uint32_t k = 0; k < c->vta; k++)
            if (vt[k] == t) { lost = 1; vt[k] = 0; break; }
    }
    if (lost) {
        c->score[wi] = eff(c, wi) + s->p->core.ccws_k;
        c->at[wi] = c->acc;
        c->vta_hits++;
        gms_ccws_update(s);
    } else if (!(c->acc & 63)) gms_ccws_update(s);   /* scores decayed: re-sort now and then */
}

void gms_ccws_report(gms_sm *const *sms, uint32_t n, gms_stats *out)
{
    uint64_t hits = 0;
    for (uint32_t i = 0; i < n; i++) if (sms[i]->ccws) hits += sms[i]->ccws->vta_hits;
    gms_stat_u64(out, "gms_ccws_vta_hits", hits);
}
