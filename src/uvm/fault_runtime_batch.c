/* The real driver's fault batches (spec 004 1.3-1.5): far faults enter a fault buffer
 * (-uvm_fault_buffer_size entries, one per page); the fault interrupt starts a batch, which
 * takes every fault present in the buffer, spends the GPU runtime fault handling time
 * (-uvm_fault_handling_us + -uvm_fault_handling_per_fault per fault), then migrates the pages
 * with the prefetcher's additions, evicting first when memory is full (frames of dirty victims
 * come back only when their write-back ends: evict, then migrate). Faults arriving meanwhile
 * wait for the next batch, which starts as soon as this one has migrated its last page.
 * Batches never overlap. A full buffer keeps further faults waiting in the TLB MSHRs; they
 * enter the buffer (in arrival order) when a batch drains it, except those whose waiters
 * have been served meanwhile (the page arrived with a batch's prefetch: the TLB MSHR entry is
 * gone), counted in Uvm_fault_buffer_stale. (They entered: a page evicted again since was
 * migrated for nobody, with the prefetcher's additions, and under heavy oversubscription with
 * a small buffer such a backlog took every batch for millions of cycles while the faults with
 * waiters queued behind it.) A fault in the buffer stays: the driver reads every entry. */
#include <stdlib.h>
#include "uvm/uvm_internal.h"
#include "uvm/etc_internal.h"

enum { ST_IDLE = 0, ST_HANDLING, ST_MIGRATING };

typedef struct rt_batch {
    gms_uvm *u;
    uint32_t *buf; uint32_t cap, head, n;  /* fault buffer (ring) */
    gms_uvm_vec overflow;                 /* faults that found the buffer full */
    size_t overflow_head;
    gms_uvm_vec cur;                      /* faults of the batch in progress */
    uint32_t batch;
    int state;
    uint64_t handling_cycles;
} rt_batch;

static void *create(gms_uvm *u, gms_error *err)
{
    (void)err;
    rt_batch *s = gms_xcalloc(1, sizeof *s);
    s->u = u;
    s->cap = u->prm->fault_buffer_size;
    s->buf = gms_xmalloc(s->cap * sizeof *s->buf);
    s->batch = GMS_UVM_NONE;
    s->handling_cycles = (uint64_t)(u->prm->fault_handling_us * u->core_mhz + 0.5);
    return s;
}

static void destroy(void *st)
{
    rt_batch *s = st;
    free(s->buf);
    free(s->overflow.v);
    free(s->cur.v);
    free(s);
}

static void fault(void *st, uint32_t page, uint64_t now)
{
    rt_batch *s = st;
    gms_uvm_ba_fault(s->u, page);
    if (s->u->ba.etc && s->u->pages[page].n_in) gms_uvm_etc_refault(s->u, now);   /* ETC: thrashing */
    if (s->n < s->cap && s->overflow.n == s->overflow_head) {
        s->buf[(s->head + s->n++) % s->cap] = page;
    } else {
        s->u->c.fault_buffer_overflow++;
        gms_uvm_vec_push(&s->overflow, page);
    }
}

/* the fault's waiters have been served (see above): counted, and to be dropped */
static int stale(rt_batch *s, uint32_t page)
{
    if (s->u->pages[page].pend != GMS_UVM_NONE) return 0;
    s->u->c.fault_buffer_stale++;
    return 1;
}

static void start_batch(rt_batch *s, uint64_t now)
{
    gms_uvm *u = s->u;
    s->cur.n = 0;
    while (s->n) {
        gms_uvm_vec_push(&s->cur, s->buf[s->head]);
        s->head = (s->head + 1) % s->cap;
        s->n--;
    }
    /* waiting faults enter the buffer, except those whose waiters have been served */
    while (s->overflow_head < s->overflow.n && s->n < s->cap) {
        uint32_t p = s->overflow.v[s->overflow_head++];
        if (!stale(s, p)) s->buf[(s->head + s->n++) % s->cap] = p;
    }
    if (s->overflow_head == s->overflow.n) s->overflow.n = s->overflow_head = 0;
    s->batch = gms_uvm_batch_open(u, now, (uint32_t)s->cur.n);
    s->state = ST_HANDLING;
    gms_uvm_ue_batch_start(u, now);   /* UE: one eviction ahead, inside the handling time */
    uint64_t t = now + s->handling_cycles + u->prm->fault_handling_per_fault * s->cur.n;
    if (t <= now) t = now + 1;
    gms_uvm_schedule(u, t, GMS_UEV_RT_TIMER, s->batch, NULL);
}

static void end_of_cycle(void *st, uint64_t now)
{
    rt_batch *s = st;
    if (s->state == ST_IDLE && s->n) start_batch(s, now);
}

static void timer(void *st, uint64_t now, uint32_t tag)
{
    rt_batch *s = st;
    if (s->state != ST_HANDLING || tag != s->batch) return;
    s->state = ST_MIGRATING;
    gms_uvm_migrate(s->u, s->cur.v, s->cur.n, s->batch, 0, now);
    gms_uvm_batch_planned(s->u, s->batch, now);
}

static void batch_done(void *st, uint32_t b, uint64_t now)
{
    rt_batch *s = st;
    if (b != s->batch) return;
    s->batch = GMS_UVM_NONE;
    s->state = ST_IDLE;
    if (s->n) start_batch(s, now);   /* waiting faults: no new interrupt needed */
}

static int busy(void *st)
{
    const rt_batch *s = st;
    return s->state != ST_IDLE || s->n;
}

static void report(void *st, gms_stats *out)
{
    const rt_batch *s = st;
    gms_stat_u64(out, "Uvm_fault_buffer_overflow", s->u->c.fault_buffer_overflow);
    gms_stat_u64(out, "Uvm_fault_buffer_stale", s->u->c.fault_buffer_stale);
}

static void describe(const gms_uvm_params *prm, char *buf, size_t n)
{
    snprintf(buf, n, "(%g us per batch + %llu cycles per fault, %u-entry fault buffer)", prm->fault_handling_us,
             (unsigned long long)prm->fault_handling_per_fault, prm->fault_buffer_size);
}

const gms_uvm_runtime_ops gms_uvm_runtime_batch = {
    .name = "batch",
    .help = "driver fault batches: fault buffer, per-batch fault handling time, then migration",
    .describe = describe,
    .create = create,
    .destroy = destroy,
    .fault = fault,
    .end_of_cycle = end_of_cycle,
    .timer = timer,
    .batch_done = batch_done,
    .busy = busy,
    .report = report,
    .free_at_wb_end = 1,
    .cut_after_fault = 0,
};
