/* L2 input queue "p1": a non-blocking, fully associative incoming buffer, CART's first
 * precursor (spec 000a 2.1, Fig. 2.2b). Arrival order is kept; the oldest request is tried
 * first. When one fails (reservation fail), the buffer remembers the resource it stalled on
 * and, until that is likely to have changed, picks the oldest request not stalled by the
 * same resource:
 *   MSHR merge-full, read/write pending: the resource is the line: later requests to the
 *     same line are skipped (which also keeps the order within a line);
 *   line allocation: the resource is the set (every way reserved), but without a tag probe
 *     the buffer cannot tell which later requests to the set would miss, so it skips the
 *     failed line as above and a miss to the same set then fails the same way and joins;
 *   MSHR entry-full, miss queue full: any new miss; the buffer cannot tell a hit from a miss
 *     without a tag probe, so it skips only the lines that failed and tries the next one
 *     (a miss then fails the same way and its line joins the set).
 * The set holds up to 8 failed lines; it is forgotten when it is full, when nothing
 * qualifies, or 32 core cycles after its first failure (the resource has likely freed: a
 * fill or a miss-queue drain), and the oldest request is tried again. The spec says
 * "round-robin, e.g."; oldest-first among the qualifying requests is our choice
 * (docs/cart.md). The scan over every entry is the design's drawback the spec names. */
#include "mem/l2q.h"
#include <stdlib.h>

#define P1_LINES 8
#define P1_FORGET 32

typedef struct p1q {
    gms_mreq_fifo in;           /* arrival order; removal from the middle keeps the rest */
    uint64_t failed[P1_LINES];
    uint32_t nfailed;
    uint64_t first_fail;
    gms_mreq *sel, *sel_prev, *out_prev;
    uint64_t skipped;
} p1q;

static void *p1_create(const gms_l2q_env *env)
{
    p1q *p = gms_xcalloc(1, sizeof *p);
    p->in.cap = env->capacity;
    return p;
}
static void p1_destroy(void *self) { free(self); }
static uint32_t p1_space(const void *self)
{
    const p1q *p = self;
    if (!p->in.cap) return UINT32_MAX;
    return p->in.n >= p->in.cap ? 0 : p->in.cap - p->in.n;
}
static void p1_push(void *self, gms_mreq *r, uint64_t now) { gms_fifo_push(&((p1q *)self)->in, r); }
static uint32_t p1_len(const void *self) { return ((const p1q *)self)->in.n; }

static int blocked(const p1q *p, const gms_mreq *r)
{
    uint64_t line = r->addr >> 7;
    for (uint32_t i = 0; i < p->nfailed; i++)
        if (p->failed[i] == line) return 1;
    return 0;
}

static gms_mreq *p1_peek(void *self, uint64_t now)
{
    p1q *p = self;
    p->sel = p->in.head;
    p->sel_prev = NULL;
    if (!p->sel || !p->nfailed) return p->sel;
    if (now >= p->first_fail + P1_FORGET) {
        p->nfailed = 0;
        return p->sel;
    }
    for (gms_mreq *prev = NULL, *r = p->in.head; r; prev = r, r = r->next)
        if (!blocked(p, r)) {
            p->sel = r;
            p->sel_prev = prev;
            return r;
        }
    p->nfailed = 0;              /* everything waits on a known resource: retry the oldest */
    return p->sel;
}

static void p1_pop(void *self, gms_mreq *r)
{
    p1q *p = self;
    if (p->sel_prev) p->skipped++;
    gms_mreq **link = p->sel_prev ? &p->sel_prev->next : &p->in.head;
    *link = r->next;
    if (p->in.tail == r) p->in.tail = p->sel_prev;
    p->in.n--;
    r->next = NULL;
    p->out_prev = p->sel_prev;
}

static void p1_putback(void *self, gms_mreq *r, uint64_t now, int cause)
{
    p1q *p = self;
    gms_mreq **link = p->out_prev ? &p->out_prev->next : &p->in.head;   /* back in its place */
    r->next = *link;
    *link = r;
    if (!r->next) p->in.tail = r;
    p->in.n++;
    if (p->out_prev) p->skipped--;   /* counted at the pop: a skip counts once the request is drained */
    if (p->nfailed == P1_LINES) p->nfailed = 0;
    if (!p->nfailed) p->first_fail = now;
    if (!blocked(p, r)) p->failed[p->nfailed++] = r->addr >> 7;
}

static void p1_stats(const void *self, gms_l2q_stats *acc) { acc->skipped += ((const p1q *)self)->skipped; }

const gms_l2q_ops gms_l2q_p1 = {
    .name = "p1", .summary = "non-blocking buffer: the oldest request not stalled on a failed resource (CART precursor P1)",
    .create = p1_create, .destroy = p1_destroy, .space = p1_space, .push = p1_push,
    .peek = p1_peek, .pop = p1_pop, .putback = p1_putback, .len = p1_len, .stats = p1_stats,
    .reorders = 1,
};
