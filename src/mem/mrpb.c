/* MRPB's prioritization buffer: the queues, the signature and the drain policies (mrpb.h). */
#include "mem/mrpb.h"
#include <stdlib.h>
#include <string.h>

int gms_mrpb_params_finalize(gms_mrpb_params *p, gms_error *err)
{
    if (!strcmp(p->drain_str, "fixed")) p->drain = GMS_MRPB_DRAIN_FIXED;
    else if (!strcmp(p->drain_str, "sticky")) p->drain = GMS_MRPB_DRAIN_STICKY;
    else return gms_err(err, "-gms_mrpb_drain: must be fixed or sticky, got '%s'", p->drain_str);
    if (!strcmp(p->bypass_str, "any")) p->bypass = GMS_MRPB_BYPASS_ANY;
    else if (!strcmp(p->bypass_str, "line")) p->bypass = GMS_MRPB_BYPASS_LINE;
    else if (!strcmp(p->bypass_str, "none")) p->bypass = GMS_MRPB_BYPASS_NONE;
    else return gms_err(err, "-gms_mrpb_bypass: must be any, line or none, got '%s'", p->bypass_str);
    if (p->queue_size == 0) return gms_err(err, "-gms_mrpb_queue_size: must be at least 1");
    if (p->width == 0) return gms_err(err, "-gms_mrpb_drain_width: must be at least 1");
    if (p->queues > 4096) return gms_err(err, "-gms_mrpb_queues: at most 4096, got %u", p->queues);
    return 0;
}

gms_mrpb *gms_mrpb_new(const gms_mrpb_params *p, uint32_t nwarps)
{
    gms_mrpb *m = gms_xcalloc(1, sizeof *m);
    m->nq = p->queues ? p->queues : (nwarps ? nwarps : 1);
    m->cap = p->queue_size;
    m->drain = p->drain;
    m->sel = UINT32_MAX;
    m->q = gms_xcalloc(m->nq, sizeof *m->q);
    m->used = gms_xcalloc(m->nq, sizeof *m->used);
    m->nonempty = gms_xcalloc((m->nq + 63) / 64, sizeof *m->nonempty);
    return m;
}

void gms_mrpb_free(gms_mrpb *m)
{
    if (!m) return;
    free(m->q);
    free(m->used);
    free(m->nonempty);
    free(m);
}

int gms_mrpb_reserve(gms_mrpb *m, uint32_t warp)
{
    uint32_t k = gms_mrpb_queue_of(m, warp);
    if (m->used[k] >= m->cap) return 0;
    m->used[k]++;
    if (++m->held > m->st.max_occupancy) m->st.max_occupancy = m->held;
    return 1;
}

void gms_mrpb_push(gms_mrpb *m, gms_mreq *r)
{
    uint32_t k = gms_mrpb_queue_of(m, r->warp);
    gms_fifo_push(&m->q[k], r);
    m->nonempty[k >> 6] |= 1ULL << (k & 63);
    m->n++;
    m->st.requests++;
    m->sel = UINT32_MAX;   /* a request in a lower queue may change the fixed policy's pick */
}

/* the first non-empty queue at or after `from`, wrapping around; UINT32_MAX if none */
static uint32_t next_nonempty(const gms_mrpb *m, uint32_t from)
{
    uint32_t words = (m->nq + 63) / 64;
    for (uint32_t i = 0; i <= words; i++) {
        uint32_t w = (from / 64 + i) % words;
        uint64_t bits = m->nonempty[w];
        if (i == 0) bits &= ~0ULL << (from & 63);                   /* from itself onwards */
        else if (i == words) bits &= (from & 63) ? ~(~0ULL << (from & 63)) : 0;  /* wrapped back */
        if (bits) return w * 64 + (uint32_t)__builtin_ctzll(bits);
    }
    return UINT32_MAX;
}

gms_mreq *gms_mrpb_peek(gms_mrpb *m)
{
    if (!m->n) return NULL;
    if (m->sel == UINT32_MAX) {
        if (m->drain == GMS_MRPB_DRAIN_FIXED) m->sel = next_nonempty(m, 0);
        else if (m->q[m->cur].n) m->sel = m->cur;                /* stick to it until empty */
        else m->sel = next_nonempty(m, (m->cur + 1) % m->nq);   /* then round-robin */
    }
    return m->q[m->sel].head;
}

gms_mreq *gms_mrpb_pop(gms_mrpb *m)
{
    if (!gms_mrpb_peek(m)) return NULL;
    uint32_t k = m->sel;
    gms_mreq *r = gms_fifo_pop(&m->q[k]);
    if (!m->q[k].n) m->nonempty[k >> 6] &= ~(1ULL << (k & 63));
    m->used[k]--;
    m->held--;
    m->n--;
    if (k != m->cur) m->st.switches++;
    m->cur = k;
    /* the same queue stays the pick while it holds requests, under both policies (a push to a
     * lower queue clears sel for the fixed one) */
    if (!m->q[k].n) m->sel = UINT32_MAX;
    return r;
}
