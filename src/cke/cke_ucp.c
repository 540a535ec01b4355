/* UCP's utility monitors and lookahead way allocation (cke_ucp.h). */
#include "cke/cke_ucp.h"
#include <stdlib.h>
#include <string.h>

int gms_ucp_init(gms_ucp *u, uint32_t napps, uint32_t assoc, uint32_t nsets, uint32_t period)
{
    memset(u, 0, sizeof *u);
    u->napps = napps;
    u->assoc = assoc;
    u->nsets = nsets;
    u->period = period ? period : 1;
    uint32_t ns = (nsets + GMS_UCP_SAMPLE - 1) / GMS_UCP_SAMPLE;
    for (uint32_t k = 0; k < napps; k++) {
        gms_ucp_umon *m = &u->mon[k];
        m->assoc = assoc;
        m->nsample = ns;
        m->tags = calloc((size_t)ns * assoc, sizeof *m->tags);
        m->hits = calloc(assoc, sizeof *m->hits);
        if (!m->tags || !m->hits) { gms_ucp_free(u); return -1; }
        u->ways[k] = assoc / napps + (k < assoc % napps);
    }
    gms_ucp_ranges(u);
    return 0;
}

void gms_ucp_free(gms_ucp *u)
{
    for (uint32_t k = 0; k < GMS_CKE_MAX_APPS; k++) {
        free(u->mon[k].tags);
        free(u->mon[k].hits);
        u->mon[k].tags = u->mon[k].hits = NULL;
    }
}

void gms_ucp_ranges(gms_ucp *u)
{
    uint32_t lo = 0;
    for (uint32_t k = 0; k < u->napps; k++) { u->lo[k] = lo; lo += u->ways[k]; }
}

/* the shadow set's LRU stack: a hit at position p moves the block to the front; a miss
 * pushes it in front and drops the last */
static void umon_access(gms_ucp_umon *m, uint32_t sample, uint64_t blk)
{
    uint64_t *st = m->tags + (size_t)sample * m->assoc, key = blk + 1;
    uint32_t p = 0;
    while (p < m->assoc && st[p] != key) p++;
    if (p < m->assoc) m->hits[p]++;
    else p = m->assoc - 1;
    memmove(st + 1, st, (size_t)p * sizeof *st);
    st[0] = key;
}

void gms_ucp_lookahead(const uint64_t *const *hits, uint32_t napps, uint32_t assoc, uint32_t *ways)
{
    uint32_t left = assoc;
    for (uint32_t k = 0; k < napps; k++) { ways[k] = left ? 1 : 0; left -= ways[k]; }
    while (left) {
        /* marginal utility compared as a fraction gain/j without division: a/j > b/i iff
         * a*i > b*j (hit counts are far below 2^32 per period) */
        uint64_t best_gain = 0;
        uint32_t best_j = 0, best_k = 0;
        for (uint32_t k = 0; k < napps; k++) {
            uint64_t gain = 0;
            for (uint32_t j = 1; j <= left && ways[k] + j <= assoc; j++) {
                gain += hits[k][ways[k] + j - 1];
                if (!best_j || gain * best_j > best_gain * j) { best_gain = gain; best_j = j; best_k = k; }
            }
        }
        if (!best_j) break;   /* (only when every kernel holds every way: not reached) */
        /* with no gain anywhere the first kernel takes one way at a time, as in the paper */
        ways[best_k] += best_j;
        left -= best_j;
    }
}

void gms_ucp_access(gms_ucp *u, uint32_t app, uint32_t set, uint64_t blk)
{
    if (set % GMS_UCP_SAMPLE == 0) umon_access(&u->mon[app], set / GMS_UCP_SAMPLE, blk);
    if (++u->count < u->period) return;
    u->count = 0;
    const uint64_t *h[GMS_CKE_MAX_APPS];
    for (uint32_t k = 0; k < u->napps; k++) h[k] = u->mon[k].hits;
    gms_ucp_lookahead(h, u->napps, u->assoc, u->ways);
    gms_ucp_ranges(u);
    u->repartitions++;
    for (uint32_t k = 0; k < u->napps; k++) u->way_sum[k] += u->ways[k];
    for (uint32_t k = 0; k < u->napps; k++)
        for (uint32_t p = 0; p < u->assoc; p++) u->mon[k].hits[p] /= 2;
}
