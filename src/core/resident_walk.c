#include "core/resident_walk.h"
#include "frontend/warp_refill.h"
#include <stdlib.h>

enum { RUN, AT_BAR, DONE, WAIT };

typedef struct slot {
    gms_block_trace bt;   /* buffers reused by the blocks that take the slot in turn */
    uint64_t block;
    uint8_t *state;       /* per warp */
    uint32_t *at;         /* per warp: next instruction in its buffer */
    uint32_t *due;        /* per warp: wakes its last instruction still waits for */
    uint64_t *nrun;       /* the walk's count of warps in RUN */
    uint32_t cap, live, at_bar;
    int used;
} slot;

typedef struct walker {
    const gms_kernel_src *k;
    gms_walk_inst_fn fn;
    void *ud;
    gms_error *err;
    uint32_t nwarps;
    uint64_t nrun;
} walker;

void gms_walk_pend(gms_walk_warp h, uint32_t n)
{
    slot *s = h.slot;
    s->due[h.warp] += n;
}

void gms_walk_wake(gms_walk_warp h)
{
    slot *s = h.slot;
    uint32_t w = h.warp;
    if (!s->due[w] || --s->due[w] || s->state[w] != WAIT) return;
    s->state[w] = RUN;
    ++*s->nrun;
}

static void release_if_all_wait(slot *s)
{
    if (!s->at_bar || s->at_bar != s->live) return;
    for (uint32_t w = 0; w < s->bt.nwarps; w++)
        if (s->state[w] == AT_BAR) s->state[w] = RUN;
    *s->nrun += s->at_bar;
    s->at_bar = 0;
}

static int place(walker *r, slot *s, uint64_t block)
{
    const gms_kernel_src *k = r->k;
    uint32_t nw = r->nwarps;
    if (nw > s->cap) {
        s->state = gms_xrealloc(s->state, nw * sizeof *s->state);
        s->at = gms_xrealloc(s->at, nw * sizeof *s->at);
        s->due = gms_xrealloc(s->due, nw * sizeof *s->due);
        s->cap = nw;
    }
    gms_block_trace_reset(&s->bt, nw);
    s->bt.x = (uint32_t)(block % k->grid.x);
    s->bt.y = (uint32_t)(block / k->grid.x % k->grid.y);
    s->bt.z = (uint32_t)(block / ((uint64_t)k->grid.x * k->grid.y));
    s->block = block;
    s->used = 1;
    s->live = nw;
    s->at_bar = 0;
    s->nrun = &r->nrun;
    r->nrun += nw;
    for (uint32_t w = 0; w < nw; w++) { s->state[w] = RUN; s->at[w] = s->due[w] = 0; }
    return k->fill_block(k->self, block, &s->bt, r->err);
}

/* one step of warp w: instructions to fn until it counts one, a BAR, or the stream's end; an
 * instruction fn leaves pending makes the warp wait for it */
static int step(walker *r, slot *s, uint32_t w)
{
    gms_warp_trace *wt = &s->bt.warps[w];
    for (;;) {
        if (s->at[w] == wt->n) {
            if (!wt->more) {
                s->state[w] = DONE;
                s->live--;
                r->nrun--;
                release_if_all_wait(s);
                return 0;
            }
            if (gms_warp_refill(r->k, s->block, w, wt, r->err) < 0) return -1;
            s->at[w] = 0;
            continue;
        }
        const gms_inst *in = &wt->insts[s->at[w]++];
        if (in->op == GMS_OP_BAR) {
            s->state[w] = AT_BAR;
            s->at_bar++;
            r->nrun--;
            release_if_all_wait(s);
            return 0;
        }
        int c = r->fn(r->ud, (gms_walk_warp){ s, w }, wt, in);
        if (c < 0) return -1;
        if (s->due[w]) {
            s->state[w] = WAIT;
            r->nrun--;
            return 0;
        }
        if (c) return 0;
    }
}

int gms_walk_resident(const gms_kernel_src *k, uint32_t n_sm, uint32_t blocks_per_sm, gms_walk_inst_fn fn,
                      gms_walk_idle_fn idle, void *ud, gms_error *err)
{
    uint64_t nb = gms_dim3_count(k->grid);
    if (!n_sm) n_sm = 1;
    if (!blocks_per_sm) blocks_per_sm = 1;
    walker r = { k, fn, ud, err, (uint32_t)((gms_dim3_count(k->block) + 31) / 32), 0 };
    slot *sl = gms_xcalloc((size_t)n_sm * blocks_per_sm, sizeof *sl);   /* SM i: sl[i * blocks_per_sm ..] */
    uint32_t *busy = gms_xcalloc(n_sm, sizeof *busy);                    /* blocks resident per SM */
    uint64_t next = 0, resident = 0;
    uint32_t rr = 0;   /* the SM the next dispatch pass starts at */
    int rc = 0;
    while (rc == 0) {
        /* dispatch: one block per SM per pass, SMs in turn from rr, until full or none left */
        for (int any = 1; any && next < nb && rc == 0;) {
            any = 0;
            uint32_t from = rr;
            for (uint32_t n = 0; n < n_sm && next < nb && rc == 0; n++) {
                uint32_t i = (from + n) % n_sm;
                if (busy[i] == blocks_per_sm) continue;
                slot *s = &sl[(size_t)i * blocks_per_sm];
                while (s->used) s++;
                rc = place(&r, s, next++);
                any = 1;
                rr = (i + 1) % n_sm;
                if (!s->live) { s->used = 0; continue; }   /* no warps: done at once */
                busy[i]++;
                resident++;
            }
        }
        if (rc || resident == 0) break;
        while (!r.nrun && rc == 0) {   /* every unfinished warp waits (at a barrier: for one that does) */
            int x = idle ? idle(ud) : 0;
            if (x < 0) rc = -1;
            else if (x == 0) rc = gms_err(err, "kernel %s: the functional walk is stuck (every warp waits, none to wake)", k->name);
        }
        if (rc) break;
        /* one round */
        for (uint32_t i = 0; i < n_sm && rc == 0; i++) {
            if (!busy[i]) continue;
            for (uint32_t j = 0; j < blocks_per_sm && rc == 0; j++) {
                slot *s = &sl[(size_t)i * blocks_per_sm + j];
                if (!s->used) continue;
                for (uint32_t w = 0; w < s->bt.nwarps && rc == 0; w++)
                    if (s->state[w] == RUN) rc = step(&r, s, w);
                if (s->live == 0) { s->used = 0; busy[i]--; resident--; }
            }
        }
    }
    for (size_t i = 0; i < (size_t)n_sm * blocks_per_sm; i++) {
        gms_block_trace_free(&sl[i].bt);
        free(sl[i].state);
        free(sl[i].at);
        free(sl[i].due);
    }
    free(sl);
    free(busy);
    return rc;
}
