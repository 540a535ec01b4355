/* DRAM scheduler "frfcfs": first-ready FCFS exactly as GPGPU-Sim's frfcfs_scheduler
 * (dram_sched.cc). Per bank, requests wait in arrival order. When a free bank asks:
 *  - if it is not already draining a row: take the row open in the bank if any request wants
 *    it (a row hit), else the row of the oldest request (a row miss);
 *  - serve that row's requests oldest first, one per ask, until none is left ("sticky" row:
 *    younger requests to that row, even ones arriving later, go before older other rows).
 * Row_Buffer_Locality counts a hit for every request served from a row chosen because it was
 * open (and for the rest of that row's run), a miss for the first request of a new row.
 * With -dram_seperate_write_queue_enable, writes wait in their own per-bank queues; the
 * scheduler switches to writes when write_high_watermark writes wait and back below
 * write_low_watermark (GPGPU-Sim's m_mode). Row lookup is a scan of the bank's queue, which
 * the queue size bounds (64 in the presets): no allocation after create. */
#include "mem/dram_sched.h"
#include "util/err.h"
#include <stdlib.h>

typedef struct bankq {
    gms_dram_rlist q;
    int draining;             /* m_last_row != NULL */
    uint32_t row;             /* the row being drained */
    gms_dram_req *next_of_row;   /* host speed, while draining: the oldest request of row */
} bankq;

typedef struct frfcfs {
    gms_dram_sched_env env;
    bankq *rd, *wr;
    uint32_t n_rd, n_wr;      /* m_num_pending, m_num_write_pending */
    int write_mode;
    uint64_t rd_nonempty, wr_nonempty;   /* bit b: that bank's queue holds a request (b < 64) */
} frfcfs;

static inline uint64_t bank_bit(uint32_t b) { return b < 64 ? 1ULL << b : 0; }

static void *fr_create(const gms_dram_sched_env *env)
{
    frfcfs *s = gms_xcalloc(1, sizeof *s);
    s->env = *env;
    s->rd = gms_xcalloc(env->nbk, sizeof *s->rd);
    s->wr = gms_xcalloc(env->nbk, sizeof *s->wr);
    return s;
}
static void fr_destroy(void *self)
{
    frfcfs *s = self;
    free(s->rd);
    free(s->wr);
    free(s);
}
static int fr_full(const void *self, int is_write)
{
    const frfcfs *s = self;
    if (!s->env.queue_size) return 0;
    if (s->env.sep_write && is_write) return s->n_wr >= s->env.wq_size;
    return s->n_rd >= s->env.queue_size;
}
static void fr_add(void *self, gms_dram_req *r)
{
    frfcfs *s = self;
    if (s->env.sep_write && r->is_write) {
        gms_dram_rlist_append(&s->wr[r->bank].q, r);
        s->wr_nonempty |= bank_bit(r->bank);
        s->n_wr++;
    } else {
        gms_dram_rlist_append(&s->rd[r->bank].q, r);
        s->rd_nonempty |= bank_bit(r->bank);
        s->n_rd++;
    }
}
static gms_dram_req *oldest_of_row(const gms_dram_rlist *l, uint32_t row)
{
    for (gms_dram_req *r = l->head; r; r = r->next)
        if (r->row == row) return r;
    return NULL;
}
static void update_mode(frfcfs *s)
{
    if (s->env.sep_write) {
        if (!s->write_mode && s->n_wr >= s->env.wq_high) s->write_mode = 1;
        else if (s->write_mode && s->n_wr < s->env.wq_low) s->write_mode = 0;
    }
}
static gms_dram_req *fr_pick(void *self, uint32_t bank, uint32_t open_row, int *row_hit)
{
    frfcfs *s = self;
    update_mode(s);
    bankq *b = s->write_mode ? &s->wr[bank] : &s->rd[bank];
    int hit = 1;
    gms_dram_req *r;
    if (!b->draining) {
        if (!b->q.n) return NULL;
        if ((r = oldest_of_row(&b->q, open_row))) {
            b->row = open_row;
        } else {
            r = b->q.head;   /* the oldest request, and so the oldest of its row */
            b->row = r->row;
            hit = 0;
        }
        b->draining = 1;
    } else {
        /* = oldest_of_row(&b->q, b->row): the last pick found it, and since then requests
         * were only appended (younger) */
        r = b->next_of_row;
    }
    /* younger requests of the row can only follow r in arrival order */
    gms_dram_req *more = r->next;
    while (more && more->row != b->row) more = more->next;
    gms_dram_rlist_remove(&b->q, r);
    if (!b->q.n) *(s->write_mode ? &s->wr_nonempty : &s->rd_nonempty) &= ~bank_bit(bank);
    if (!more) b->draining = 0;
    b->next_of_row = more;
    if (s->write_mode) s->n_wr--; else s->n_rd--;
    *row_hit = hit;
    return r;
}
/* a bank is served iff its queue (of the current mode) is not empty: `draining` implies a
 * request of the drained row is still queued */
static uint64_t fr_ready_banks(void *self)
{
    frfcfs *s = self;
    update_mode(s);
    return s->write_mode ? s->wr_nonempty : s->rd_nonempty;
}
/* the writes pick will not serve until more requests come: read mode (or write mode about to
 * end below the low watermark), no read waiting, fewer writes than the high watermark */
static uint32_t fr_stranded(const void *self)
{
    const frfcfs *s = self;
    if (!s->env.sep_write || s->n_rd || s->n_wr >= s->env.wq_high) return 0;
    if (s->write_mode && s->n_wr >= s->env.wq_low) return 0;
    return s->n_wr;
}
static uint32_t fr_pending(const void *self)
{
    const frfcfs *s = self;
    return s->n_rd + s->n_wr;
}

const gms_dram_sched_ops gms_dram_sched_frfcfs = {
    .name = "frfcfs", .summary = "first-ready FCFS: open-row hits first, then oldest (GPGPU-Sim, -gpgpu_dram_scheduler 1)",
    .create = fr_create, .destroy = fr_destroy, .full = fr_full, .add = fr_add,
    .pick = fr_pick, .pending = fr_pending, .ready_banks = fr_ready_banks, .stranded = fr_stranded,
};
