/* Fixed-latency stand-in for the memory partitions (-gpgpu_perfect_mem 1): every request is
 * answered after a fixed number of core cycles, with unlimited bandwidth. Named as such in
 * `config --dump`, never used silently. */
#include "mem/memsys.h"
#include "config/params.h"
#include <stdlib.h>

typedef struct fixed_mem {
    gms_engine *eng;
    gms_component *comp;
    gms_mreq_pool *pool;
    gms_reply_fn reply;
    void *reply_ud;
    gms_mreq_fifo q;
    uint32_t latency, nsub;
    uint64_t reads, writes;
} fixed_mem;

static uint32_t fm_subpart_of(void *self, uint64_t addr)
{
    fixed_mem *m = self;
    return (uint32_t)((addr >> 8) % m->nsub);
}

static int fm_can_accept(void *self, uint32_t subpart) { (void)self; (void)subpart; return 1; }

static void fm_push(void *self, uint32_t subpart, gms_mreq *r)
{
    fixed_mem *m = self;
    uint64_t now = gms_engine_cycle(m->eng, GMS_DOM_CORE);
    if (r->kind == GMS_MREQ_WRITE) m->writes++; else m->reads++;
    if (gms_acc_is_writeback(r->access)) {   /* no acknowledgement */
        gms_mreq_release(m->pool, r);
        return;
    }
    r->t_ready = now + m->latency;
    gms_fifo_push(&m->q, r);
    gms_engine_activate(m->eng, m->comp);
}

static int fm_tick(void *self, uint64_t cycle)
{
    fixed_mem *m = self;
    while (m->q.head && m->q.head->t_ready <= cycle) {
        gms_mreq *r = m->q.head;
        gms_fifo_pop(&m->q);
        if (!m->reply(m->reply_ud, r->subpart, r)) {
            gms_fifo_push_front(&m->q, r);   /* refused: keep it first */
            return 1;
        }
    }
    if (m->q.head) { gms_engine_wake_at(m->eng, m->comp, m->q.head->t_ready); }
    return 0;
}

static void fm_report(void *self, gms_stats *out)
{
    fixed_mem *m = self;
    gms_stat_u64(out, "fixed_mem_reads", m->reads);
    gms_stat_u64(out, "fixed_mem_writes", m->writes);
}

static void fm_free(void *self) { free(self); }

int gms_fixed_mem_create(gms_memsys *out, const struct gms_params *p, gms_engine *e, gms_mreq_pool *pool,
                         gms_reply_fn reply, void *reply_ud, gms_error *err)
{
    fixed_mem *m = gms_xcalloc(1, sizeof *m);
    m->eng = e;
    m->pool = pool;
    m->reply = reply;
    m->reply_ud = reply_ud;
    m->latency = p->sim.perfect_mem_latency;
    m->nsub = p->mem.n_mem * p->mem.n_sub_partition_per_mchannel;
    if (!m->nsub) { free(m); return gms_err(err, "-gpgpu_n_mem: must be at least 1"); }
    m->comp = gms_engine_add(e, GMS_DOM_CORE, "fixed-latency memory", fm_tick, NULL, m);
    out->self = m;
    out->n_subparts = m->nsub;
    out->subpart_of = fm_subpart_of;
    out->can_accept = fm_can_accept;
    out->push = fm_push;
    out->report = fm_report;
    out->stranded = NULL;
    out->memcpy_fill = NULL;   /* no L2 */
    out->free = fm_free;
    return 0;
}
