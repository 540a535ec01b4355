/* CCWS: see ccws.h. */
#include "core/ccws.h"
#include "core/sm_internal.h"
#include "config/params.h"
#include <stdlib.h>
#include <string.h>

struct gms_ccws {
    uint32_t nsets, assoc, vta;
    uint64_t *tags;             /* copy of the L1D tags: block + 1, 0 = invalid */
    uint32_t *stamp;            /* LRU stamps */
    uint16_t *owner;            /* warp that brought the line in */
    uint64_t *vtag;             /* [warp][vta] evicted blocks + 1 */
    uint32_t *vpos;             /* [warp] next FIFO slot */
    uint32_t *score, *at;       /* [warp] score when last set, and `acc` then (lazy decay) */
    uint32_t acc, clock;
    uint64_t vta_hits, barred_checks;
};

static uint32_t eff(const gms_ccws *c, uint32_t w)
{
    uint32_t d = c->acc - c->at[w];
    return c->score[w] > d ? c->score[w] - d : 0;
}

gms_ccws *gms_ccws_new(gms_sm *s)
{
    gms_ccws *c = gms_xcalloc(1, sizeof *c);
    const gms_cache_config *cc = &s->p->l1d.dl1;
    uint32_t nw = s->nwarps_max;
    c->nsets = cc->nsets ? cc->nsets : 1;
    c->assoc = cc->assoc ? cc->assoc : 1;
    c->vta = s->p->core.ccws_vta;
    size_t nl = (size_t)c->nsets * c->assoc;
    c->tags = gms_xcalloc(nl, sizeof *c->tags);
    c->stamp = gms_xcalloc(nl, sizeof *c->stamp);
    c->owner = gms_xcalloc(nl, sizeof *c->owner);
    c->vtag = gms_xcalloc((size_t)nw * c->vta, sizeof *c->vtag);
    c->vpos = gms_xcalloc(nw, sizeof *c->vpos);
    c->score = gms_xcalloc(nw, sizeof *c->score);
    c->at = gms_xcalloc(nw, sizeof *c->at);
    return c;
}

void gms_ccws_free(gms_ccws *c)
{
    if (!c) return;
    free(c->tags); free(c->stamp); free(c->owner); free(c->vtag); free(c->vpos); free(c->score); free(c->at);
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

void gms_ccws_observe(gms_sm *s, uint32_t wi, uint64_t addr)
{
    gms_ccws *c = s->ccws;
    const gms_cache_config *cc = &s->p->l1d.dl1;
    uint64_t blk = addr / cc->line;
    uint32_t set = gms_cache_set_index(cc, addr) % c->nsets;
    size_t base = (size_t)set * c->assoc;
    c->acc++;
    c->clock++;
    uint32_t v = 0;
    for (uint32_t w = 0; w < c->assoc; w++) {
        if (c->tags[base + w] == blk + 1) { c->stamp[base + w] = c->clock; return; }   /* hit */
        if (!c->tags[base + w] || (c->tags[base + v] && c->stamp[base + w] < c->stamp[base + v])) v = w;
    }
    /* a miss: lost locality if the warp's own VTA holds the block */
    uint64_t *vt = c->vtag + (size_t)wi * c->vta;
    int lost = 0;
    for (uint32_t k = 0; k < c->vta; k++)
        if (vt[k] == blk + 1) { lost = 1; vt[k] = 0; break; }
    /* the victim's tag goes to its owner's VTA */
    if (c->tags[base + v]) {
        uint32_t o = c->owner[base + v];
        c->vtag[(size_t)o * c->vta + c->vpos[o]++ % c->vta] = c->tags[base + v];
    }
    c->tags[base + v] = blk + 1;
    c->stamp[base + v] = c->clock;
    c->owner[base + v] = (uint16_t)wi;
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
