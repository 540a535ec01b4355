/* GPGPU-Sim's front end (-gms_inst_fetch gpgpusim): shader_core_ctx::fetch, ::decode and the
 * warps' instruction buffers (shd_warp_t::m_ibuffer), on every pipeline (GPGPU-Sim 3.x's
 * without sub-cores, 4.x's with them: the code is the same).
 *
 * An SM has one fetch buffer. Each cycle, after the schedulers have issued, the SM runs
 * -gpgpu_inst_fetch_throughput decode/fetch pairs (4.x's shader_core_ctx::cycle: issue, then
 * `for (i < inst_fetch_throughput) { decode(); fetch(); }`; 3.x has one pair, the option's
 * default):
 *  - decode: the warp in the fetch buffer (fetched by the pair before, or in the last pair of
 *    the cycle before) gets its next two instructions in its buffer (one if it has one left);
 *    it is a scheduler candidate from the next cycle;
 *  - fetch: the buffer is free (decode has just emptied it), so it takes the first warp after
 *    the one fetched last, round robin over the warp slots, whose instruction buffer is empty
 *    and that has instructions to come (!functional_done && ibuffer_empty; a warp waiting at a
 *    barrier is fetched too). With 4 pairs (the QV100's) three warps a cycle are decoded in the
 *    cycle they are fetched, the fourth in the next cycle's first pair.
 * The instruction cache is perfect (-gpgpu_cache:il1 is not modelled: every fetch hits, as
 * with -gpgpu_perfect_inst_const_cache 1). Not modelled: the fetch loop also frees the warps
 * that have finished (hardware_done) when it passes their slot; here a warp is freed when it
 * finishes (docs/validation.md, "sub-core front end").
 *
 * Issue takes the buffer's entries in order; a warp whose buffer is empty is not a candidate
 * (cand_on in sm_internal.h sends it here instead). With -gpgpu_max_insn_issue_per_warp 2 the
 * scheduler looks at the warp's second entry in the same cycle after issuing the first
 * (scheduler_unit::cycle's `checked <= issued` loop; gms_sm_issue in sm.c).
 *
 * Decode takes the two instructions at pc and pc + size without following branches; when the
 * first is a taken branch (the warp's next instruction is not the one after it in the code)
 * the second entry is on the wrong path: the scheduler flushes it when it reaches it (the
 * control hazard of scheduler_unit::cycle) and the warp is fetched again. Taken = the next
 * instruction's pc is not 1 to 16 bytes after the branch's (instructions are 8 or 16 bytes;
 * streams without pcs, all 0, are sequential). A trace's warps have no wrong path: Accel-Sim's
 * trace front end fetches the trace's next instruction, and its get_pdom_stack_top_info gives
 * the buffered instruction's own pc, so the control hazard check never fires (until
 * 2026-12-05 a trace's taken branches and loop back-edges cost a re-fetch here). */
#include "core/sm_internal.h"

static int taken_between(const gms_inst *a, const gms_inst *b)
{
    if (!(a->pc | b->pc)) return 0;
    return b->pc <= a->pc || b->pc - a->pc > 16;
}

/* warp wi has issued one instruction from its buffer; flush_now: the scheduler looks at its
 * next entry in this cycle (dual issue), so a wrong-path entry there is flushed now */
void gms_ifetch_after_issue(gms_sm *s, uint32_t wi, int flush_now)
{
    if (s->ib[wi]) s->ib[wi]--;
    if (s->ib[wi]) return;
    const warp *w = &s->w[wi];
    /* finished, or a stream chunk ending at a barrier: fetched when it resumes (cand_on) */
    if ((w->state != W_ACTIVE && w->state != W_BARRIER) || !w->left) { s->ib_bad[wi] = 0; return; }
    /* a wrong-path entry stays until the scheduler reaches it (gms_sm_can_issue), at the
     * earliest next cycle; at a barrier the warp is not looked at: flushed on its release */
    if (s->ib_bad[wi] && !flush_now) return;
    if (w->state == W_ACTIVE) cand_off(s, wi);
    fe_want_on(s, wi);
}

/* first set bit of fe_want at or after warp slot `from` (< n), wrapping; fe_nwant > 0 */
static uint32_t want_from(const gms_sm *s, uint32_t from, uint32_t n)
{
    uint32_t words = (n + 63) / 64;
    uint32_t k = from >> 6;
    uint64_t bits = s->fe_want[k] & (~0ULL << (from & 63));
    for (uint32_t i = 0; i <= words; i++) {
        if (bits) return k * 64 + (uint32_t)__builtin_ctzll(bits);
        k = k + 1 == words ? 0 : k + 1;
        bits = s->fe_want[k];
    }
    return UINT32_MAX;   /* not reached: fe_nwant counts the bits */
}

void gms_ifetch_cycle(gms_sm *s)
{
    if (s->fe_buf >= 0) {   /* decode last cycle's fetch */
        uint32_t wi = (uint32_t)s->fe_buf;
        warp *w = &s->w[wi];
        s->fe_buf = -1;
        uint32_t n = w->left < 2 ? w->left : 2;
        uint8_t bad = 0;
        if (n == 2 && !s->blocks[w->blk].k->src.traced && taken_between(&w->cur[0], &w->cur[1])) { n = 1; bad = 1; }
        s->ib[wi] = (uint8_t)n;
        s->ib_bad[wi] = bad;
        if (n && w->state == W_ACTIVE && !w->blocked) cand_on(s, wi);
    }
    if (s->fe_nwant) {
        uint32_t n = s->nwarps_max, from = s->fe_last + 1 >= n ? 0 : s->fe_last + 1;
        uint32_t wi = want_from(s, from, n);
        if (wi == UINT32_MAX) return;
        s->fe_want[wi >> 6] &= ~(1ULL << (wi & 63));
        s->fe_nwant--;
        s->fe_buf = (int32_t)wi;
        s->fe_last = wi;
    }
}
