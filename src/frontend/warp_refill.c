#include "frontend/warp_refill.h"
#include <stdlib.h>

static int ends_at_bar(const gms_warp_trace *wt) { return wt->n && wt->insts[wt->n - 1].op == GMS_OP_BAR; }

/* Ask for more instructions, appended to wt's current contents: 1 if some were appended */
static int append_more(const gms_kernel_src *k, uint64_t block, uint32_t warp, gms_warp_trace *wt, gms_error *err)
{
    if (!wt->more) return 0;
    if (!k->fill_warp_more) {
        gms_warp_trace_end_stream(wt);
        return gms_err(err, "kernel %s: a warp stream is resumable but the source has no fill_warp_more", k->name);
    }
    uint32_t before = wt->n;
    int r = k->fill_warp_more(k->self, block, warp, wt, err);
    if (r == 1 && wt->n == before)   /* would make consumers spin (or read past the buffer) */
        r = gms_err(err, "kernel %s: a resumed warp produced no instructions", k->name);
    if (r <= 0) gms_warp_trace_end_stream(wt);
    if (r < 0) return -1;
    return wt->n > before;   /* r == 0 may still have appended the stream's last instructions */
}

int gms_warp_refill(const gms_kernel_src *k, uint64_t block, uint32_t warp, gms_warp_trace *wt, gms_error *err)
{
    wt->n = 0;
    wt->naddr = 0;
    return append_more(k, block, warp, wt, err);
}

/* One barrier-respecting round over the block's unfinished warps: resume those not waiting
 * at a BAR; if every unfinished warp waits at one, resume them all (the barrier releases).
 * `resume` empties (drain) or appends (fill_all). Returns 1 if some warp was resumed, 0 when
 * every stream is over, -1 on error. */
static int round_robin(const gms_kernel_src *k, uint64_t block, gms_block_trace *bt, int append,
                       uint8_t *fresh, gms_error *err)
{
    int pending = 0, free_run = 0;
    for (uint32_t w = 0; w < bt->nwarps; w++) {
        const gms_warp_trace *wt = &bt->warps[w];
        if (!wt->more) continue;
        pending = 1;
        /* with append, "ends at a BAR" is about the piece generated last */
        if (!ends_at_bar(wt)) free_run = 1;
    }
    if (!pending) return 0;
    int any = 0;
    for (uint32_t w = 0; w < bt->nwarps; w++) {
        gms_warp_trace *wt = &bt->warps[w];
        if (!wt->more || (free_run && ends_at_bar(wt))) continue;
        int r = append ? append_more(k, block, w, wt, err) : gms_warp_refill(k, block, w, wt, err);
        if (r < 0) return -1;
        if (fresh) fresh[w] = 1;
        any = 1;
    }
    return any;
}

int gms_block_drain(const gms_kernel_src *k, gms_block_trace *bt, gms_chunk_fn fn, void *ud, gms_error *err)
{
    uint64_t block = gms_block_linear(k, bt);
    uint8_t small[64], *fresh = bt->nwarps <= 64 ? small : malloc(bt->nwarps);
    int rc = 0;
    for (uint32_t w = 0; w < bt->nwarps; w++) fresh[w] = 1;
    for (;;) {
        for (uint32_t w = 0; w < bt->nwarps && rc == 0; w++)
            if (fresh[w]) {
                fresh[w] = 0;
                rc = fn(ud, w, &bt->warps[w]);
            }
        if (rc) break;
        int r = round_robin(k, block, bt, 0, fresh, err);
        if (r <= 0) { rc = r; break; }
    }
    if (fresh != small) free(fresh);
    return rc;
}

int gms_block_fill_all(const gms_kernel_src *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    if (k->fill_block(k->self, block, bt, err)) return -1;
    return gms_block_append_rest(k, block, bt, err);
}

int gms_block_append_rest(const gms_kernel_src *k, uint64_t block, gms_block_trace *bt, gms_error *err)
{
    int r;
    while ((r = round_robin(k, block, bt, 1, NULL, err)) > 0) {}
    return r;
}
