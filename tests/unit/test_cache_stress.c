/* Liveness stress of the cache unit (issue 19: an L1D deadlock). Every combination of
 * geometry, allocation and write policies, MSHR shape and miss-queue size that the cache
 * string accepts is driven by a random request stream against a fake next level that takes
 * miss-queue requests when it has room and answers them after random delays, out of order.
 * Fills use GPGPU-Sim's protocol (fill_ready, then one next_access per cycle when the
 * "write-back stage" is free, as the SM and the L2 slice do) or the immediate gms_cache_fill.
 *
 * A watchdog ends a combination that makes no progress (no request accepted or finished) for
 * WATCHDOG cycles. After the stream, everything must drain: every accepted request finished
 * exactly once, no MSHR entry in use, nothing queued, no request leaked from the pool, and
 * after a flush no line left (a line still reserved when nothing is in flight is a
 * reservation that no fill will ever complete: enough of them fill a set and every later
 * miss to that set fails forever, the deadlock of the issue). */
#include "test.h"
#include "mem/cache.h"
#include "util/rng.h"
#include <stdlib.h>

#define WATCHDOG 4000u       /* cycles without progress; fills come back within 64 */
#define NSTREAM 4            /* independent requesters (warps), each retries its head */
#define MAXFLY 512

typedef struct mem_slot { gms_mreq *r; uint64_t at; } mem_slot;

typedef struct drv {
    gms_rng rng;
    gms_mreq_pool pool;
    gms_cache_config cfg;
    gms_cache *c;
    int ready_protocol;       /* 1: fill_ready + next_access; 0: gms_cache_fill */
    int drain_pct;            /* chance per cycle that the write-back stage takes a request */
    int mem_pct;              /* chance per cycle that the next level takes the miss-queue head */
    uint32_t maxdelay;
    uint64_t nblocks;         /* distinct blocks the stream touches */
    mem_slot fly[MAXFLY];     /* at the next level, answered at .at */
    int nfly;
    gms_mreq *head[NSTREAM];  /* each stream's request waiting to be accepted */
    uint64_t accepted, finished, last_progress;
    uint8_t wrbk;             /* the level's write-back access type */
} drv;

static gms_mreq *new_req(drv *d, int s)
{
    gms_mreq *r = gms_mreq_alloc(&d->pool);
    uint64_t blk = gms_rng_below(&d->rng, d->nblocks);
    unsigned sector = (unsigned)gms_rng_below(&d->rng, 4);
    int sec = d->cfg.type == 'S';
    r->addr = blk * d->cfg.line + (sec ? 32u * sector : 0);
    r->sector_mask = (uint8_t)(sec ? 1u << sector : 0xF);
    uint64_t k = gms_rng_below(&d->rng, 100);
    if (k < 60) { r->kind = GMS_MREQ_READ; r->access = GMS_ACC_GLOBAL_R; }
    else if (k < 65) { r->kind = GMS_MREQ_ATOMIC; r->access = GMS_ACC_GLOBAL_R; }
    else if (k < 70) { r->kind = GMS_MREQ_WRITE; r->access = GMS_ACC_LOCAL_W; }
    else { r->kind = GMS_MREQ_WRITE; r->access = GMS_ACC_GLOBAL_W; }
    uint32_t atom = sec ? 32 : d->cfg.line;
    /* writes: whole sector/line or a few bytes (partial: fetch-on-write, lazy unreadable) */
    r->bytes = (uint16_t)(r->kind == GMS_MREQ_WRITE && gms_rng_below(&d->rng, 2) ? 4 : atom);
    r->sm = 0;
    r->warp = (uint16_t)s;
    return r;
}

static void finish(drv *d, gms_mreq *r, uint64_t now)
{
    d->finished++;
    d->last_progress = now;
    gms_mreq_release(&d->pool, r);
}

/* the next level answers r (it came off the miss queue) */
static void answer(drv *d, gms_mreq *r, uint64_t now)
{
    if (r->kind == GMS_MREQ_WRITE) {
        if (r->access == d->wrbk) gms_mreq_release(&d->pool, r);   /* the cache's own */
        else finish(d, r, now);                                     /* a requester's write, acked */
        return;
    }
    if (d->ready_protocol) {
        gms_cache_fill_ready(d->c, r, now);
        return;
    }
    for (gms_mreq *w = gms_cache_fill(d->c, r, now), *nx; w; w = nx) {
        nx = w->next;
        finish(d, w, now);
    }
}

static void cycle(drv *d, uint64_t now, int issue)
{
    /* write-back stage: one waiter of a filled entry per cycle, when free */
    if (d->ready_protocol && gms_cache_access_ready(d->c) && (int)gms_rng_below(&d->rng, 100) < d->drain_pct) {
        gms_mreq *r = gms_cache_next_access(d->c, now);
        if (r) finish(d, r, now);
    }
    /* next level: answers due now (any order), then maybe take the miss-queue head */
    for (int i = 0; i < d->nfly;) {
        if (d->fly[i].at <= now) {
            gms_mreq *r = d->fly[i].r;
            d->fly[i] = d->fly[--d->nfly];
            answer(d, r, now);
        } else {
            i++;
        }
    }
    if (gms_cache_mq_size(d->c) && d->nfly < MAXFLY && (int)gms_rng_below(&d->rng, 100) < d->mem_pct) {
        gms_mreq *r = gms_cache_mq_pop(d->c);
        d->fly[d->nfly++] = (mem_slot){ r, now + 1 + gms_rng_below(&d->rng, d->maxdelay) };
    }
    if (!issue) return;
    /* up to two accesses a cycle, from random streams; a refused one is retried later */
    for (int k = 0; k < 2; k++) {
        int s = (int)gms_rng_below(&d->rng, NSTREAM);
        if (!d->head[s]) continue;
        gms_mreq *r = d->head[s];
        gms_rf_cause cause;
        int ret = gms_cache_access(d->c, r, now, &cause);
        if (ret == GMS_CACHE_RESERVATION_FAIL) continue;
        d->head[s] = NULL;
        d->accepted++;
        d->last_progress = now;
        if (!(ret & (GMS_CACHE_SENT | GMS_CACHE_WAIT))) finish(d, r, now);   /* done here */
    }
}

/* one combination; returns 0, or -1 after reporting what failed */
static int run_one(const char *str, const char *name, uint64_t seed, int ready_protocol, uint32_t nreq)
{
    drv *d = calloc(1, sizeof *d);
    gms_error err = { 0 };
    if (gms_cache_config_parse(str, "stress", &d->cfg, &err)) { free(d); return 1; }   /* not a valid combination */
    gms_mreq_pool_init(&d->pool);
    int l2 = !strncmp(name, "L2", 2);
    d->c = gms_cache_new(&d->cfg, &d->pool, name, l2 ? GMS_CACHE_L2 : GMS_CACHE_L1);
    gms_rng_seed(&d->rng, seed);
    d->ready_protocol = ready_protocol;
    d->drain_pct = 20 + (int)gms_rng_below(&d->rng, 70);
    d->mem_pct = 30 + (int)gms_rng_below(&d->rng, 70);
    d->maxdelay = 1 + (uint32_t)gms_rng_below(&d->rng, 64);
    uint64_t lines = (uint64_t)d->cfg.nsets * d->cfg.assoc;
    d->nblocks = lines + 1 + gms_rng_below(&d->rng, 2 * lines + 2);
    d->wrbk = l2 ? GMS_ACC_L2_WRBK : GMS_ACC_L1_WRBK;
    uint32_t made = 0;
    uint64_t now = 1;
    const char *why = NULL;
    for (;; now++) {
        for (int s = 0; s < NSTREAM; s++)
            if (!d->head[s] && made < nreq) { d->head[s] = new_req(d, s); made++; }
        int busy = d->nfly || gms_cache_mq_size(d->c) || gms_cache_mshr_used(d->c) || d->accepted < made;
        if (!busy && made == nreq) break;
        cycle(d, now, 1);
        if (now - d->last_progress > WATCHDOG) { why = "deadlock (watchdog: no progress)"; break; }
    }
    if (!why) {
        /* quiescent: a flush (its write-backs answered) must leave no line at all */
        gms_cache_flush(d->c);
        while (gms_cache_mq_size(d->c)) answer(d, gms_cache_mq_pop(d->c), now);
        if (gms_cache_mshr_used(d->c)) why = "MSHR entries still in use";
        else if (d->finished != d->accepted) why = "accepted requests not finished";
        else if (gms_cache_valid_lines(d->c)) why = "lines still reserved with nothing in flight";
    }
    int rc = 0;
    if (why) {
        char msg[400];
        snprintf(msg, sizeof msg, "%s %s seed %" PRIu64 " %s fills: %s (cycle %" PRIu64 ", accepted %" PRIu64
                 ", finished %" PRIu64 ", MSHRs %u, lines %u)", str, name, seed,
                 ready_protocol ? "ready" : "immediate", why, now, d->accepted, d->finished,
                 gms_cache_mshr_used(d->c), gms_cache_valid_lines(d->c));
        gms_test_fail(__FILE__, __LINE__, msg);
        rc = -1;
    } else if (d->pool.live) {
        char msg[300];
        snprintf(msg, sizeof msg, "%s %s seed %" PRIu64 ": %" PRIu64 " requests leaked", str, name, seed, d->pool.live);
        gms_test_fail(__FILE__, __LINE__, msg);
        rc = -1;
    }
    gms_cache_free(d->c);
    gms_mreq_pool_free(&d->pool);
    free(d);
    return rc;
}

TEST(cache_stress_every_combination_drains)
{
    static const char *const geom[] = { "N:1:128:1", "N:1:128:2", "N:2:64:4", "S:1:128:2", "S:2:128:4" };
    static const char *const pol[] = { "m", "f", "s" };
    static const char wpol[] = "RBTEL", walloc[] = "NWFL";
    static const uint32_t mshr[][2] = { { 1, 1 }, { 2, 8 }, { 8, 2 }, { 16, 16 } };
    static const uint32_t mq[] = { 3, 4, 16 };
    int quick = gms_test_quick();
    uint32_t nreq = quick ? 100 : 2000;
    int runs = 0, failed = 0;
    uint64_t seed = 19;
    for (size_t g = 0; g < sizeof geom / sizeof *geom; g++)
    for (size_t a = 0; a < sizeof pol / sizeof *pol; a++)
    for (size_t w = 0; w < sizeof wpol - 1; w++)
    for (size_t x = 0; x < sizeof walloc - 1; x++)
    for (size_t m = 0; m < sizeof mshr / sizeof *mshr; m++)
    for (size_t q = 0; q < sizeof mq / sizeof *mq; q++) {
        char str[96];
        snprintf(str, sizeof str, "%s,L:%c:%s:%c:L,A:%u:%u,%u", geom[g], wpol[w], pol[a], walloc[x],
                 mshr[m][0], mshr[m][1], mq[q]);
        seed++;
        /* alternate the level (L1 / L2 request types) and the fill protocol */
        const char *name = seed % 2 ? "L1D" : "L2";
        int r = run_one(str, name, seed, (seed / 2) % 4 != 0, nreq);
        if (r > 0) continue;       /* rejected by validation */
        runs++;
        if (r < 0 && ++failed >= 5) { printf("    (stopping after 5 failing combinations)\n"); return; }
    }
    /* geometry x policies accepted by validation: 5 x (on-miss: R N, B/T/E/L x N W F L = 17;
     * on-fill and streaming: R N, T/E/L x N W = 7 each) x 4 MSHR shapes x 3 miss queues */
    CHECK_EQ(runs, 5 * (17 + 7 + 7) * 4 * 3);
}
