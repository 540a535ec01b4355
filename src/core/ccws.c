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

/* a warp's age on its SM: its block's launch order, then its index in the block (smaller:
 * older) */
static uint64_t warp_age(const gms_sm *s, uint32_t wi)
{
    const block_slot *b = &s->blocks[s->w[wi].blk];
    return b->seq << 16 | (wi - b->first_warp);
}

uint32_t gms_ccws_age_order(const gms_sm *s, uint32_t *idx)
{
    /* each scheduler's order[] holds its warps in launch order: merge the lists by age */
    uint32_t at[MAX_SCHED] = {0}, n = 0;
    for (;;) {
        uint32_t best = UINT32_MAX;
        uint64_t best_age = 0;
        for (uint32_t si = 0; si < s->nsched; si++) {
            if (at[si] >= s->sc[si].n) continue;
            uint64_t a = warp_age(s, s->sc[si].order[at[si]]);
            if (best == UINT32_MAX || a < best_age) { best = si; best_age = a; }
        }
        if (best == UINT32_MAX) return n;
        uint32_t wi = s->sc[best].order[at[best]++];
        if (s->w[wi].state != W_ACTIVE || !(s->swl_ok[wi >> 6] >> (wi & 63) & 1)) continue;   /* swl.c */
        idx[n++] = wi;
    }
}

void gms_ccws_update(gms_sm *s)
{
    gms_ccws *c = s->ccws;
    uint32_t idx[MAX_WARPS], sc[MAX_WARPS] = {0};
    uint8_t ok[MAX_WARPS];
    /* ties in score go to the older warp (gms_ccws_allowed keeps the list's order) */
    uint32_t n = gms_ccws_age_order(s, idx);
    for (uint32_t i = 0; i < n; i++) sc[i] = eff(c, idx[i]);
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
