/* DRAM channel: bank state machine, command timing, data pipeline. See dram.h.
 * Counter semantics follow GPGPU-Sim dram.cc; every "xxc" count-down counter there is an
 * absolute cycle here ("allowed from"): a counter set to T at cycle t allows the command
 * again at cycle t + T. */
#include "mem/dram.h"
#include "util/err.h"
#include <stdlib.h>
#include <string.h>

typedef struct bank {
    uint8_t active;           /* row open (BANK_ACTIVE) */
    uint32_t curr_row;
    gms_dram_req *mrq;        /* request being served */
    uint64_t rcd, rcdwr, ras, rc, rp, wtp, rtp;   /* allowed-from cycles */
    uint32_t grp;
    uint64_t n_access;
} bank;

typedef struct bankgrp { uint64_t ccdl, rtpl; } bankgrp;

/* One burst on the data bus. The last one of a request carries what data_out needs of it,
 * so the request's record is freed at its last column command (host speed: the record would
 * be cold in the host's cache when the burst leaves). */
typedef struct rwq_ent {
    gms_mreq *mf;             /* the request, on its last burst; NULL on the others */
    uint64_t ready;
    uint64_t t_push;
    uint8_t is_write, access;
} rwq_ent;

struct gms_dram_chan {
    uint32_t id;
    gms_dram_timing t;
    const gms_dram_sched_ops *sops;
    void *sched;
    bank *bk;
    bankgrp *grp;
    uint64_t ccd, rrd, rtw, wtr;   /* channel-wide allowed-from cycles */
    uint64_t faw[4];               /* cycles of the last 4 ACTs (tFAW), ring */
    uint32_t faw_pos, faw_n;
    uint64_t next_ref;             /* next refresh deadline (tREFI), 0 = off */
    int ref_pending;
    uint32_t prio;
    uint32_t busy_banks;           /* banks holding a request */
    uint32_t npend;                /* host speed: = sops->pending (adds minus requests picked) */
    uint64_t mrq_mask;             /* bit b: bank b holds a request (nbk <= 64) */
    /* host speed (nbk <= 64): bit b: bank b is open (open_mask), and on the row of its
     * request (hit_mask) */
    uint64_t open_mask, hit_mask;
    /* data pipeline: one entry per column command, in issue order */
    rwq_ent *rwq;
    uint32_t rwq_cap, rwq_head, rwq_n;
    gms_mreq_fifo returnq, done;
    /* request records */
    gms_dram_req *free_reqs;
    void **slabs;
    uint32_t nslabs;
    uint32_t live_reqs;
    uint64_t last;                 /* last cycle accounted */
    int count_cycles;              /* the per-cycle counters count (gms_dram_chan_count_cycles) */
    gms_dram_stats st;
    gms_dram_trace_fn trace;
    void *trace_ud;
    int plain_loop;                /* gms_dram_chan_set_plain_loop (tests) */
};

#define REQ_SLAB 256

static gms_dram_req *req_alloc(gms_dram_chan *c)
{
    if (!c->free_reqs) {
        gms_dram_req *s = gms_xaligned(64, REQ_SLAB * sizeof *s);
        c->slabs = gms_xrealloc(c->slabs, (c->nslabs + 1) * sizeof *c->slabs);
        c->slabs[c->nslabs++] = s;
        for (int i = REQ_SLAB - 1; i >= 0; i--) {
            s[i].next = c->free_reqs;
            c->free_reqs = &s[i];
        }
    }
    gms_dram_req *r = c->free_reqs;
    c->free_reqs = r->next;
    memset(r, 0, sizeof *r);
    c->live_reqs++;
    return r;
}

static void req_free(gms_dram_chan *c, gms_dram_req *r)
{
    r->next = c->free_reqs;
    c->free_reqs = r;
    c->live_reqs--;
}

gms_dram_chan *gms_dram_chan_new(uint32_t id, const gms_dram_timing *t, const gms_dram_sched_ops *sched,
                                 const gms_dram_sched_env *env, uint32_t return_queue_size)
{
    gms_dram_chan *c = gms_xcalloc(1, sizeof *c);
    c->id = id;
    c->t = *t;
    c->sops = sched;
    gms_dram_sched_env e = *env;
    e.nbk = t->nbk;
    c->sched = sched->create(&e);
    c->bk = gms_xcalloc(t->nbk, sizeof *c->bk);
    c->grp = gms_xcalloc(t->nbkgrp, sizeof *c->grp);
    for (uint32_t b = 0; b < t->nbk; b++) c->bk[b].grp = gms_dram_bankgrp(t, b);
    /* at most one column command per cycle enters, one leaves per cycle: latency + slack */
    uint32_t lat = (t->CL > t->WL ? t->CL : t->WL) + t->burst_cycles + 4;
    c->rwq_cap = 1;
    while (c->rwq_cap < lat) c->rwq_cap <<= 1;
    c->rwq = gms_xcalloc(c->rwq_cap, sizeof *c->rwq);
    c->returnq.cap = return_queue_size ? return_queue_size : 1024;
    c->next_ref = t->tREFI;
    c->count_cycles = 1;
    return c;
}

void gms_dram_chan_free(gms_dram_chan *c)
{
    if (!c) return;
    c->sops->destroy(c->sched);
    for (uint32_t i = 0; i < c->nslabs; i++) free(c->slabs[i]);
    free(c->slabs);
    free(c->rwq);
    free(c->bk);
    free(c->grp);
    free(c);
}

void gms_dram_chan_set_trace(gms_dram_chan *c, gms_dram_trace_fn fn, void *ud)
{
    c->trace = fn;
    c->trace_ud = ud;
}

void gms_dram_chan_set_plain_loop(gms_dram_chan *c, int on) { c->plain_loop = on; }

int gms_dram_chan_full(const gms_dram_chan *c, int w) { return c->sops->full(c->sched, w); }

void gms_dram_chan_push(gms_dram_chan *c, gms_mreq *m, const gms_addrdec_dram *at, uint64_t now)
{
    gms_dram_in in = gms_dram_in_of(m, at);
    gms_dram_chan_enter(c, &in, now);
}

void gms_dram_chan_enter(gms_dram_chan *c, const gms_dram_in *in, uint64_t now)
{
    gms_dram_req *r = req_alloc(c);
    r->mf = in->mf;
    r->bank = in->bank;
    r->row = in->row;
    r->col = in->col;
    r->nbytes = in->bytes ? in->bytes : c->t.atom;
    r->is_write = in->is_write;
    r->access = in->access;
    r->t_push = now;
    c->sops->add(c->sched, r);
    c->st.n_req++;
    /* memlatstat_dram_access from dram_t::push: data size / dram_atom_size, both unsigned */
    uint32_t atoms = (in->data_size ? in->data_size : r->nbytes) / c->t.atom;
    if (in->is_write) c->st.bank_writes += atoms;
    else c->st.bank_reads += atoms;
    uint32_t p = ++c->npend;
    if (p > c->st.max_mrqs) c->st.max_mrqs = p;
}

/* cycles in [from, to) in which a timer would have kept GPGPU-Sim's activity counter on */
static uint64_t timers_until(const gms_dram_chan *c)
{
    uint64_t u = c->ccd;
    if (c->rrd > u) u = c->rrd;
    if (c->rtw > u) u = c->rtw;
    if (c->wtr > u) u = c->wtr;
    for (uint32_t b = 0; b < c->t.nbk; b++) {
        const bank *k = &c->bk[b];
        if (k->rcd > u) u = k->rcd;
        if (k->ras > u) u = k->ras;
        if (k->rc > u) u = k->rc;
        if (k->rp > u) u = k->rp;
        if (k->rcdwr > u) u = k->rcdwr;
    }
    return u;
}

/* refresh deadlines passed while idle: all banks closed at each, blocked for tRFC */
static void catch_up_refresh(gms_dram_chan *c, uint64_t now)
{
    if (!c->t.tREFI || c->ref_pending || now <= c->next_ref) return;
    if (c->busy_banks || c->rwq_n || c->npend) return;   /* only while idle */
    uint64_t k = (now - c->next_ref) / c->t.tREFI + 1;
    uint64_t last_ref = c->next_ref + (k - 1) * c->t.tREFI;
    c->st.n_ref += k;
    for (uint32_t b = 0; b < c->t.nbk; b++) {
        c->bk[b].active = 0;
        if (c->bk[b].rp < last_ref + c->t.tRFC) c->bk[b].rp = last_ref + c->t.tRFC;
    }
    c->open_mask = c->hit_mask = 0;
    c->next_ref = last_ref + c->t.tREFI;
}

static void account_idle(gms_dram_chan *c, uint64_t upto /* exclusive */)
{
    if (upto <= c->last + 1) return;
    uint64_t from = c->last + 1, gap = upto - from;
    c->last = upto - 1;
    if (!c->count_cycles) return;
    c->st.n_cmd += gap;
    c->st.n_nop += gap;
    uint64_t tu = timers_until(c);
    if (tu > from) c->st.n_activity += (tu < upto ? tu : upto) - from;
}

void gms_dram_chan_count_cycles(gms_dram_chan *c, int on, uint64_t now)
{
    account_idle(c, now + 1);
    c->count_cycles = on;
}

void gms_dram_chan_sync(gms_dram_chan *c, uint64_t now)
{
    if (!gms_dram_chan_idle(c) && now <= c->last + 1) return;
    account_idle(c, now + 1);
}

static void trace(gms_dram_chan *c, uint64_t now, gms_dram_cmd cmd, uint32_t b, uint32_t row)
{
    if (c->trace) c->trace(c->trace_ud, now, cmd, b, row);
}

static int rwq_full(const gms_dram_chan *c)
{
    /* GPGPU-Sim: the rwq stops shifting while the return queue is full */
    return c->rwq_n == c->rwq_cap || (c->rwq_n && gms_fifo_full(&c->returnq));
}

static void rwq_push(gms_dram_chan *c, const gms_dram_req *r, uint64_t ready, int last)
{
    uint32_t tail = (c->rwq_head + c->rwq_n) & (c->rwq_cap - 1);
    c->rwq[tail] = (rwq_ent){ .mf = last ? r->mf : NULL, .ready = ready, .t_push = r->t_push,
                              .is_write = r->is_write, .access = r->access };
    c->rwq_n++;
}

/* (1) one burst leaves the data bus */
static void data_out(gms_dram_chan *c, uint64_t now)
{
    if (!c->rwq_n || gms_fifo_full(&c->returnq)) return;
    const rwq_ent *e = &c->rwq[c->rwq_head];
    if (e->ready > now) return;
    c->rwq_head = (c->rwq_head + 1) & (c->rwq_cap - 1);
    c->rwq_n--;
    if (!e->mf) return;   /* not its request's last burst */
    if (gms_acc_is_writeback(e->access)) {
        gms_fifo_push(&c->done, e->mf);
    } else {
        if (!e->is_write) {
            c->st.rd_lat_sum += now - e->t_push;
            c->st.rd_lat_n++;
        }
        gms_fifo_push(&c->returnq, e->mf);
    }
}

/* (2) give one free bank its next request */
static void schedule(gms_dram_chan *c)
{
    if (!c->npend) return;
    uint32_t nbk = c->t.nbk;
    uint32_t b = 0;
    gms_dram_req *r = NULL;
    int hit = 0;
    if (c->sops->ready_banks && nbk <= 64) {
        /* host speed: ask only the first free bank, in the rotated order from prio of the
         * loop below, that the scheduler would serve; the loop stops at its first request and
         * pick has no side effect on the banks it returns nothing for */
        uint64_t free_banks = ~c->mrq_mask & (nbk == 64 ? ~0ULL : (1ULL << nbk) - 1);
        if (!free_banks) return;
        uint64_t cand = c->sops->ready_banks(c->sched) & free_banks;
        uint64_t hi = cand & (~0ULL << c->prio), lo = cand & ~(~0ULL << c->prio);
        if (!(cand = hi ? hi : lo)) return;
        b = (uint32_t)__builtin_ctzll(cand);
        r = c->sops->pick(c->sched, b, c->bk[b].curr_row, &hit);
    } else {
        for (uint32_t i = 0; i < nbk && !r; i++) {
            b = i + c->prio;   /* (i + prio) % nbk, both terms < nbk */
            if (b >= nbk) b -= nbk;
            if (!c->bk[b].mrq) r = c->sops->pick(c->sched, b, c->bk[b].curr_row, &hit);
        }
    }
    if (!r) return;
    c->npend--;
    c->prio = c->prio + 1 < nbk ? c->prio + 1 : 0;
    c->bk[b].mrq = r;
    c->busy_banks++;
    if (b < 64) {
        c->mrq_mask |= 1ULL << b;
        if (c->bk[b].active && c->bk[b].curr_row == r->row) c->hit_mask |= 1ULL << b;
    }
    c->st.access_num++;
    if (r->is_write) c->st.write_num++; else c->st.read_num++;
    if (hit) {
        c->st.hits_num++;
        if (r->is_write) c->st.hits_write_num++; else c->st.hits_read_num++;
    }
}

static int issue_col(gms_dram_chan *c, uint32_t j, uint64_t now)
{
    bank *k = &c->bk[j];
    gms_dram_req *r = k->mrq;
    if (!r || !k->active || k->curr_row != r->row) return 0;
    bankgrp *g = &c->grp[k->grp];
    const gms_dram_timing *t = &c->t;
    if (now < c->ccd || now < g->ccdl || rwq_full(c)) return 0;
    uint64_t ready;
    if (!r->is_write) {
        if (now < k->rcd || now < c->wtr) return 0;
        ready = now + t->CL;   /* GPGPU-Sim's rwq: a fifo_pipeline of CL stages (dram_t::cycle) */
        c->rtw = now + t->tRTW;
        k->rtp = now + t->burst_cycles;
        g->rtpl = now + t->tRTPL;
        if (r->access == GMS_ACC_L2_WR_ALLOC_R) c->st.n_rd_L2_A++; else c->st.n_rd++;
        k->n_access++;
        trace(c, now, GMS_DRAM_RD, j, r->row);
    } else {
        if (now < k->rcdwr || now < c->rtw) return 0;
        ready = now + t->WL;
        c->wtr = now + t->tWTR;
        k->wtp = now + t->tWTP;
        if (r->access == GMS_ACC_L2_WRBK) c->st.n_wr_WB++; else c->st.n_wr++;
        trace(c, now, GMS_DRAM_WR, j, r->row);
    }
    r->txbytes += t->atom;
    int last = r->txbytes >= r->nbytes;
    rwq_push(c, r, ready, last);
    c->ccd = now + t->tCCD;
    g->ccdl = now + t->tCCDL;
    if (c->count_cycles) c->st.bwutil += t->burst_cycles;
    if (last) {
        k->mrq = NULL;
        c->busy_banks--;
        if (j < 64) {
            c->mrq_mask &= ~(1ULL << j);
            c->hit_mask &= ~(1ULL << j);
        }
        req_free(c, r);
    }
    return 1;
}

static int faw_ok(const gms_dram_chan *c, uint64_t now)
{
    if (!c->t.tFAW || c->faw_n < 4) return 1;
    return now >= c->faw[c->faw_pos] + c->t.tFAW;   /* faw_pos = oldest of the last 4 */
}

static int issue_row(gms_dram_chan *c, uint32_t j, uint64_t now)
{
    bank *k = &c->bk[j];
    gms_dram_req *r = k->mrq;
    if (!r) return 0;
    const gms_dram_timing *t = &c->t;
    if (!k->active) {
        if (now < c->rrd || now < k->rp || now < k->rc || c->ref_pending || !faw_ok(c, now)) return 0;
        k->curr_row = r->row;
        k->active = 1;
        if (j < 64) {
            c->open_mask |= 1ULL << j;
            c->hit_mask |= 1ULL << j;
        }
        c->rrd = now + t->tRRD;
        k->rcd = now + t->tRCD;
        k->rcdwr = now + t->tRCDWR;
        k->ras = now + t->tRAS;
        k->rc = now + t->tRC;
        if (t->tFAW) {
            c->faw[c->faw_pos] = now;
            c->faw_pos = (c->faw_pos + 1) & 3;
            if (c->faw_n < 4) c->faw_n++;
        }
        c->prio = j + 1 < t->nbk ? j + 1 : 0;
        c->st.n_act++;
        trace(c, now, GMS_DRAM_ACT, j, r->row);
        return 1;
    }
    if (k->curr_row == r->row) return 0;
    if (now < k->ras || now < k->wtp || now < k->rtp || now < c->grp[k->grp].rtpl) return 0;
    k->active = 0;
    if (j < 64) c->open_mask &= ~(1ULL << j);   /* not in hit_mask: its row missed */
    k->rp = now + t->tRP;
    c->prio = j + 1 < t->nbk ? j + 1 : 0;
    c->st.n_pre++;
    trace(c, now, GMS_DRAM_PRE, j, k->curr_row);
    return 1;
}

/* Host speed (both bus modes): issue_col's bank checks past the row (hit_mask) and the channel's
 * tCCD and data pipeline (checked before the scan), inlined in the scan: issue_col returns
 * 0 without side effects for a bank failing them, so such banks are skipped uncalled. */
static inline int col_ready(const gms_dram_chan *c, const bank *k, uint64_t now)
{
    if (now < c->grp[k->grp].ccdl) return 0;
    return k->mrq->is_write ? now >= k->rcdwr && now >= c->rtw : now >= k->rcd && now >= c->wtr;
}

/* GPGPU-Sim's "k": a bank without a request whose timers have all run out does not keep the
 * channel active */
static int bank_quiet(const gms_dram_chan *c, const bank *k, uint64_t now)
{
    return !k->mrq && now >= c->ccd && now >= c->rrd && now >= c->rtw && now >= c->wtr && now >= k->rcd &&
           now >= k->ras && now >= k->rc && now >= k->rp && now >= k->rcdwr;
}

/* the quiet banks counted up to the first that is not (the count is only compared with nbk),
 * for a channel in which no bank holds a request: each bank once, in any order */
static uint32_t quiet_banks(const gms_dram_chan *c, uint64_t now)
{
    uint32_t quiet = 0;
    for (uint32_t b = 0; b < c->t.nbk && quiet == b; b++) quiet += bank_quiet(c, &c->bk[b], now);
    return quiet;
}

/* ours: all-bank refresh when due, once every open bank may be precharged */
static void refresh(gms_dram_chan *c, uint64_t now)
{
    if (!c->t.tREFI) return;
    if (!c->ref_pending && now >= c->next_ref) c->ref_pending = 1;
    if (!c->ref_pending) return;
    for (uint32_t b = 0; b < c->t.nbk; b++) {
        const bank *k = &c->bk[b];
        if (k->active && (now < k->ras || now < k->wtp || now < k->rtp || now < c->grp[k->grp].rtpl)) return;
    }
    for (uint32_t b = 0; b < c->t.nbk; b++) {
        c->bk[b].active = 0;
        c->bk[b].rp = now + c->t.tRFC;
    }
    c->open_mask = c->hit_mask = 0;
    c->ref_pending = 0;
    c->next_ref += c->t.tREFI;
    c->st.n_ref++;
    trace(c, now, GMS_DRAM_REF, 0, 0);
}

void gms_dram_chan_cycle(gms_dram_chan *c, uint64_t now)
{
    catch_up_refresh(c, now);
    if (now > c->last + 1) account_idle(c, now);   /* host speed: its own first test, inlined */
    c->last = now;
    data_out(c, now);
    schedule(c);
    uint32_t p = c->npend;
    if (p > c->st.max_mrqs) c->st.max_mrqs = p;
    if (c->count_cycles) {
        c->st.ave_mrqs += p;
        c->st.banks_1time += c->busy_banks;
        if (c->busy_banks) c->st.banks_access_total++;
    }
    refresh(c, now);

    uint32_t nbk = c->t.nbk, quiet = 0;
    int col = 0, row = 0;
    if (c->t.dual_bus && nbk <= 64) {
        /* Only banks holding a request can issue: visit them in the same rotated order from
         * prio as the full scan (each loop stops at its first command, and prio only changes
         * on a command, so skipping empty banks changes nothing). Host speed: likewise skip
         * the banks for which issue_col / issue_row return 0 without looking further: a
         * column command needs a bank open on its request's row (hit_mask) and the channel's
         * tCCD and data pipeline; a row command a bank not open on that row, and an ACT (a
         * closed bank) tRRD, no refresh pending and tFAW. */
        uint64_t pend = now >= c->ccd && !rwq_full(c) ? c->hit_mask : 0;
        uint32_t p0 = c->prio;
        uint64_t hi = pend & (~0ULL << p0), lo = pend & ~(~0ULL << p0);
        for (uint64_t m = hi; m && !col; m &= m - 1) {
            uint32_t j = (uint32_t)__builtin_ctzll(m);
            if (col_ready(c, &c->bk[j], now)) col = issue_col(c, j, now);
        }
        for (uint64_t m = lo; m && !col; m &= m - 1) {
            uint32_t j = (uint32_t)__builtin_ctzll(m);
            if (col_ready(c, &c->bk[j], now)) col = issue_col(c, j, now);
        }
        pend = c->mrq_mask & ~c->hit_mask;    /* a column command may have finished a request */
        if (now < c->rrd || c->ref_pending || !faw_ok(c, now)) pend &= c->open_mask;
        hi = pend & (~0ULL << p0);
        lo = pend & ~(~0ULL << p0);
        for (uint64_t m = hi; m && !row; m &= m - 1) row = issue_row(c, (uint32_t)__builtin_ctzll(m), now);
        for (uint64_t m = lo; m && !row; m &= m - 1) row = issue_row(c, (uint32_t)__builtin_ctzll(m), now);
        /* GPGPU-Sim's activity counter: on while some bank is not quiet. A bank holding a
         * request never is, so the bank scan is needed only when none holds one; it stops at
         * the first bank that is not quiet (quiet is only compared with nbk). */
        quiet = c->busy_banks ? 0 : quiet_banks(c, now);
    } else if (nbk <= 64 && c->t.tCCD > 0 && !c->plain_loop) {
        /* GPGPU-Sim's loop below, visiting only the banks that hold a request, in the same
         * order: i runs over the steps, the bank of step i being (i + prio) % nbk with prio
         * as it is at that step (an ACT/PRE moves it). A bank without a request gets no
         * command (issue_col and issue_row return 0 at once, changing nothing), nor does one
         * that hit_mask / open_mask and the channel's timers rule out before the call: tCCD
         * and the data pipeline for a column command, and tRRD, refresh and tFAW for an ACT,
         * which no call in the loop changes before the loop's first command of that kind.
         * The activity count: with no request anywhere no bank gets a command, every bank is
         * visited once and the count is order-free (the scan as in the dual-bus case); with
         * one, some step adds 0 (a bank holding a request, or one whose request a column
         * command just finished: the channel's tCCD > 0 keeps it busy), so quiet < nbk. */
        if (!c->mrq_mask) {
            quiet = quiet_banks(c, now);
        } else {
            const uint64_t full = nbk == 64 ? ~0ULL : (1ULL << nbk) - 1;
            const int col_ok = now >= c->ccd && !rwq_full(c);
            const uint64_t act_ok = now < c->rrd || c->ref_pending || !faw_ok(c, now) ? c->open_mask : ~0ULL;
            /* host speed: the step's candidates (banks the two tests below could pass) in the
             * loop's rotated order, recomputed only after a call, the one thing that moves
             * prio or the masks; a column command ends the loop (nothing can follow it) */
            uint32_t pr = 0;
            uint64_t rot = 0;
            int fresh = 0;
            for (uint32_t i = 0; i < nbk; i++) {
                if (!fresh) {
                    pr = c->prio;
                    uint64_t m = c->mrq_mask & ((col_ok ? c->hit_mask : 0) | (row ? 0 : ~c->hit_mask & act_ok));
                    rot = pr ? ((m >> pr) | (m << (nbk - pr))) & full : m;
                    fresh = 1;
                }
                uint64_t r = rot & (~0ULL << i);
                if (!r) break;
                i = (uint32_t)__builtin_ctzll(r);
                uint32_t j = i + pr;
                if (j >= nbk) j -= nbk;
                /* col_ready: issue_col's remaining checks, without the call (it changes
                 * nothing when they fail, and issues when they pass) */
                if (col_ok && (c->hit_mask >> j & 1) && col_ready(c, &c->bk[j], now)) {
                    col = issue_col(c, j, now);
                    break;
                }
                if (!row && ((c->mrq_mask & ~c->hit_mask & act_ok) >> j & 1)) {
                    fresh = 0;
                    row = issue_row(c, j, now);
                }
            }
            quiet = 0;
        }
    } else {
        /* GPGPU-Sim's loop, as written (tCCD = 0 or more than 64 banks): `prio` may move
         * inside it (an ACT/PRE sets it), and the bank index is recomputed from the current
         * prio on every step */
        for (uint32_t i = 0; i < nbk; i++) {
            uint32_t j = (i + c->prio) % nbk;
            if (!col) col = issue_col(c, j, now);
            if (!col && !row) row = issue_row(c, j, now);
            bank *k = &c->bk[j];
            if (!k->mrq) quiet += bank_quiet(c, k, now);
        }
    }
    if (!c->count_cycles) return;
    if (!col && !row) c->st.n_nop++;
    if (quiet < nbk) c->st.n_activity++;
    c->st.n_cmd++;
}

gms_mreq *gms_dram_chan_return_top(const gms_dram_chan *c) { return c->returnq.head; }
gms_mreq *gms_dram_chan_return_pop(gms_dram_chan *c) { return gms_fifo_pop(&c->returnq); }
gms_mreq *gms_dram_chan_done_pop(gms_dram_chan *c) { return gms_fifo_pop(&c->done); }

int gms_dram_chan_idle(const gms_dram_chan *c)
{
    return !c->busy_banks && !c->rwq_n && !c->returnq.n && !c->done.n && !c->npend &&
           !c->ref_pending;
}

uint32_t gms_dram_chan_stranded(const gms_dram_chan *c)
{
    if (!c->sops->stranded || c->busy_banks || c->rwq_n || c->returnq.n || c->done.n) return 0;
    uint32_t n = c->sops->stranded(c->sched);
    return n == c->npend ? n : 0;
}

const gms_dram_stats *gms_dram_chan_stats(const gms_dram_chan *c) { return &c->st; }
uint64_t gms_dram_chan_bank_accesses(const gms_dram_chan *c, uint32_t b) { return c->bk[b].n_access; }
uint32_t gms_dram_chan_pending(const gms_dram_chan *c) { return c->npend; }

int gms_dram_chan_bank_open(const gms_dram_chan *c, uint32_t b, uint32_t *row)
{
    if (row) *row = c->bk[b].curr_row;
    return c->bk[b].active;
}

void gms_dram_chan_dump(const gms_dram_chan *c, FILE *out)
{
    fprintf(out, "    DRAM[%u]: %u waiting in scheduler, %u banks busy, %u bursts on the bus, %u in return queue, "
            "last cycle %llu\n", c->id, c->sops->pending(c->sched), c->busy_banks, c->rwq_n, c->returnq.n,
            (unsigned long long)c->last);
    for (uint32_t b = 0; b < c->t.nbk; b++) {
        const bank *k = &c->bk[b];
        if (!k->mrq) continue;
        fprintf(out, "      bank %u: %s row %u, serving row %u (%s, pushed at %llu)\n", b,
                k->active ? "open" : "closed", k->curr_row, k->mrq->row, k->mrq->is_write ? "write" : "read",
                (unsigned long long)k->mrq->t_push);
    }
}
