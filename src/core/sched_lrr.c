/* LRR (loose round robin): the scheduler's warp slots in slot order, starting after the last
 * one that issued (GPGPU-Sim's order_lrr), skipping warps that are not candidates. */
#include "core/sm_internal.h"

static void lrr_pick(gms_sm *s, uint32_t si, uint64_t now)
{
    sched *q = &s->sc[si];
    const gms_inst *in;
    int lsu_free = gms_sm_mem_slot_free(s, si);
    uint32_t nloc = local_of(s, s->nwarps_max + s->nsched - 1 - si);
    uint32_t start = q->last_pos + 1 < nloc ? q->last_pos + 1 : 0;
    uint32_t words = (nloc + 63) / 64;
    uint64_t buf[MAX_WARPS / 64];
    const uint64_t *cb = sched_cands(s, si, words, buf);
    if (words == 1) {
        /* host speed (64 warps or fewer per scheduler, the common case): slots start..nloc-1,
         * then 0..start-1, as the two passes below */
        uint64_t bits = cb[0], part[2] = { bits & (~0ULL << start), bits & ~(~0ULL << start) };
        for (int pass = 0; pass < 2; pass++)
            for (uint64_t b = part[pass]; b; b &= b - 1) {
                uint32_t li = (uint32_t)__builtin_ctzll(b);
                uint32_t wi = li * s->nsched + si;
                if (gms_sm_can_issue(s, wi, now, lsu_free, &in)) { q->last_pos = li; gms_sm_issue(s, wi, in, now); return; }
            }
        return;
    }
    for (int pass = 0; pass < 2; pass++) {
        uint32_t lo = pass ? 0 : start, hi = pass ? start : nloc;
        for (uint32_t wd = lo >> 6; wd < words && wd * 64 < hi; wd++) {
            uint64_t bits = cb[wd];
            if (wd == lo >> 6) bits &= ~0ULL << (lo & 63);
            while (bits) {
                uint32_t li = wd * 64 + (uint32_t)__builtin_ctzll(bits);
                bits &= bits - 1;
                if (li >= hi) break;
                uint32_t wi = li * s->nsched + si;
                if (gms_sm_can_issue(s, wi, now, lsu_free, &in)) { q->last_pos = li; gms_sm_issue(s, wi, in, now); return; }
            }
        }
    }
}

/* GPGPU-Sim's done_adding_supervised_warps sets m_last_supervised_issued to end(), so the
 * first scan starts at the scheduler's first slot: last_pos + 1 wraps to 0 */
static void lrr_init(gms_sm *s)
{
    for (uint32_t i = 0; i < s->nsched; i++) s->sc[i].last_pos = UINT32_MAX;
}

const gms_warp_sched_ops gms_sched_lrr = { .name = "lrr", .summary = "loose round robin (LRR)", .pick = lrr_pick,
                                           .init = lrr_init };
