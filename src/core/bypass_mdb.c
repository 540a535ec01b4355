/* MDB-local and MDB-global (spec 001 sections 2.2-2.3, docs/mdb.md): a Bypassing Parameter
 * Generator per SM (local) or one watching SM -gms_mdb_monitor whose choice every SM follows
 * (global). Calculator i (1..C, C = -gms_mdb_calculators, 8) models "warps/blocks 0..i-1 use the
 * L1D" with a shadow copy of the L1D's tags on 1 of -gms_mdb_sample sets, fed by every
 * transaction of a global load whose warp/block index is below i, whichever path the load
 * took. The SM's single reservation-fail counter is the L1D's RESERVATION_FAIL count (every
 * failed attempt, all causes). Every -gms_mdb_period such transactions the selector
 * (gms_mdb_choose) picks L; warps/blocks with index >= L bypass; the hit counters and the RF
 * counter are halved.
 *
 * Index and N (inferred, spec 2.3): with more than one block resident on the SM, block level:
 * index = the block's slot on the SM, N = the resident blocks (at the decision); with one,
 * warp level: index = the warp's place in its block, N = the block's warps. If the best L is
 * N or C, nothing bypasses. Before the first decision, -gms_mdb_start: l1d (nothing bypasses)
 * or bypass (everything bypasses, as the author's repo does). -gms_mdb_level sm-warp is the
 * repo's other reading: index = the warp's slot on the SM whatever the blocks, N = one more than
 * the highest slot in use (calculators up to the SM's warps with -gms_mdb_calculators). */
#include "core/bypass_policy.h"
#include "core/mdb.h"
#include "core/sm_internal.h"
#include "core/gpu.h"
#include "config/params.h"
#include <stdlib.h>
#include <string.h>

#define L_ALL UINT32_MAX   /* nothing bypasses */
#define SERIES_MAX 65536   /* decisions kept per SM for the series */

typedef struct mdb_pt { uint64_t cycle; uint32_t L, n; } mdb_pt;

/* a decision: L (L_ALL: nothing bypasses), made at block level (-gms_mdb_global_level monitor) */
typedef struct mdb_dec { uint32_t L; int decided; int L_blocks; } mdb_dec;
static const mdb_dec DEC_NONE = { L_ALL, 0, 0 };

typedef struct mdb_sm {
    int global;                 /* MDB-global */
    int monitor;                /* this SM decides (local: every SM; global: the monitored one) */
    uint32_t ncalc, ratio, nsamp, assoc;
    uint64_t *tags;             /* [calculator][sampled set][way] */
    uint32_t *stamps;
    uint32_t clock;
    uint64_t hits[GMS_MDB_MAX_CALC];
    uint64_t rf;                /* decayed reservation-fail count */
    uint64_t hit_max, rf_max;   /* the counters saturate here (-gms_mdb_hit_bits / _rf_bits) */
    uint64_t rf_seen;           /* the L1D's RESERVATION_FAIL total at the last decision */
    uint32_t accesses;          /* since the last decision */
    /* the decision in force: `next` from cycle next_from on, `cur` before (see publish); for
     * MDB-global the monitor's copy every SM reads */
    mdb_dec cur, next;
    uint64_t next_from;
    /* statistics */
    uint64_t decisions, none_bypass, sum_l;
    mdb_pt *series;
    uint32_t nseries;
} mdb_sm;

uint32_t gms_mdb_choose(const uint64_t *hits, uint32_t lmax, uint64_t rf, uint32_t n, double e, double scale)
{
    uint32_t best = 1;
    double best_adj = 0;
    for (uint32_t l = 1; l <= lmax; l++) {
        double f = (double)l / (double)n;
        double adj = (double)hits[l - 1] - (double)rf * f * f * f * e / scale;
        if (l == 1 || adj >= best_adj) { best = l; best_adj = adj; }
    }
    return best;
}

uint64_t gms_mdb_counter_max(uint32_t bits) { return bits && bits < 64 ? (UINT64_C(1) << bits) - 1 : UINT64_MAX; }

void gms_mdb_decay(uint64_t *hits, uint32_t n, uint64_t *rf)
{
    for (uint32_t i = 0; i < n; i++) hits[i] >>= 1;
    *rf >>= 1;
}

int gms_mdb_shadow_access(uint64_t *tags, uint32_t *stamps, uint32_t assoc, uint32_t *clock, uint64_t block)
{
    uint64_t t = block + 1;
    uint32_t victim = 0;
    ++*clock;
    for (uint32_t w = 0; w < assoc; w++) {
        if (tags[w] == t) { stamps[w] = *clock; return 1; }
        if (tags[victim] && (!tags[w] || stamps[w] < stamps[victim])) victim = w;
    }
    tags[victim] = t;
    stamps[victim] = *clock;
    return 0;
}

/* warp wi's index: its block's slot at block level (more than one block resident), else its
 * place in its block (see the top); under -gms_mdb_level sm-warp, its warp slot on the SM */
static uint32_t mdb_index(const gms_sm *s, uint32_t wi)
{
    if (s->p->core.mdb_sm_warp) return wi;
    const warp *w = &s->w[wi];
    if (s->blocks_used > 1) return w->blk;
    return wi - s->blocks[w->blk].first_warp;
}

/* N of the cubic model at a decision: the resident blocks at block level, the warps of the one
 * block at warp level; under sm-warp one more than the highest warp slot in use (the warps L
 * counts from slot 0 up, as the repo's "warp id <= L - 1 uses the L1D"); 0: no block here */
static uint32_t mdb_n(const gms_sm *s)
{
    if (s->p->core.mdb_sm_warp) {
        uint32_t top = 0;
        for (uint32_t i = 0; i < s->nblock_slots; i++)
            if (s->blocks[i].used && s->blocks[i].first_warp + s->blocks[i].nwarps > top)
                top = s->blocks[i].first_warp + s->blocks[i].nwarps;
        return top;
    }
    if (s->blocks_used > 1) return s->blocks_used;
    if (s->blocks_used == 1)
        for (uint32_t i = 0; i < s->nblock_slots; i++)
            if (s->blocks[i].used) return s->blocks[i].nwarps;
    return 0;
}

static void *mdb_new(gms_sm *s, int global)
{
    const gms_params *p = s->p;
    mdb_sm *m = gms_xcalloc(1, sizeof *m);
    m->global = global;
    uint32_t mon = p->core.mdb_monitor < s->g->n_sm ? p->core.mdb_monitor : s->g->n_sm - 1;
    m->monitor = !global || s->id == mon;
    m->ncalc = p->core.mdb_calcs;
    m->hit_max = gms_mdb_counter_max(p->core.mdb_hit_bits);
    m->rf_max = gms_mdb_counter_max(p->core.mdb_rf_bits);
    m->ratio = p->core.mdb_sample;
    m->cur = m->next = DEC_NONE;
    if (m->monitor && s->l1) {
        const gms_cache_config *c = &p->l1d.dl1;
        m->assoc = c->assoc;
        m->nsamp = (c->nsets + m->ratio - 1) / m->ratio;
        size_t n = (size_t)m->ncalc * m->nsamp * m->assoc;
        m->tags = gms_xcalloc(n, sizeof *m->tags);
        m->stamps = gms_xcalloc(n, sizeof *m->stamps);
    }
    return m;
}
static void *mdb_local_new(gms_sm *s) { return mdb_new(s, 0); }
static void *mdb_global_new(gms_sm *s) { return mdb_new(s, 1); }

static void mdb_free(void *st)
{
    mdb_sm *m = st;
    if (!m) return;
    free(m->tags);
    free(m->stamps);
    free(m->series);
    free(m);
}

/* the decision SM s follows */
static const mdb_sm *in_force(const mdb_sm *m, const gms_sm *s)
{
    if (!m->global || m->monitor) return m;
    uint32_t mon = s->p->core.mdb_monitor < s->g->n_sm ? s->p->core.mdb_monitor : s->g->n_sm - 1;
    return s->g->sms[mon]->byp;
}

static int mdb_bypass(void *st, gms_sm *s, uint32_t wi)
{
    const mdb_sm *m = st, *g = in_force(m, s);
    const mdb_dec *d = gms_engine_cycle(s->g->eng, GMS_DOM_CORE) >= g->next_from ? &g->next : &g->cur;
    if (!d->decided) return s->p->core.mdb_start[0] == 'b';
    if (d->L == L_ALL) return 0;
    if (m != g && s->p->core.mdb_global_level[0] == 'm' && !s->p->core.mdb_sm_warp) {
        /* MDB-global at the monitor's level: an SM whose residency differs from the monitored
         * SM's (a grid's last blocks, two blocks on one SM) still reads L as block slots or as
         * warps of each block, as the monitor meant it */
        const warp *w = &s->w[wi];
        return (d->L_blocks ? w->blk : wi - s->blocks[w->blk].first_warp) >= d->L;
    }
    return mdb_index(s, wi) >= d->L;
}

/* a new decision, in force from cycle `from` (a: L in the low 32 bits, the block-level flag in
 * bit 32). MDB-local: from the deciding cycle on (the SM's own later accesses see it).
 * MDB-global: from the next cycle on, for every SM, the monitor too. Each SM then reads the
 * same decision in a cycle whether the SMs tick serially (the monitor's tick comes before
 * some SMs' and after others') or on several host threads (the write is deferred to the end
 * of the parallel phase): the engine picks serial or parallel ticking by host timing, so a
 * broadcast seen mid-cycle by the SMs ticked after the monitor made runs differ. The previous
 * decision stays in `cur` for the rest of the deciding cycle. */
static void publish(void *mp, uint64_t a, uint64_t from)
{
    mdb_sm *m = mp;
    if (m->next_from < from) m->cur = m->next;   /* else: a second decision in one cycle */
    m->next = (mdb_dec){ (uint32_t)a, 1, (int)(a >> 32 & 1) };
    m->next_from = from;
}

/* the SM's L1D reservation fails so far, every cause (the RF counter counts their increase) */
static uint64_t l1_rf_total(const gms_sm *s)
{
    uint64_t tot = 0;
    if (!s->l1) return 0;
    const gms_cache_stats *cs = gms_cache_get_stats(s->l1);
    for (int t = 0; t < GMS_ACC__COUNT; t++) tot += cs->acc[t][GMS_CACHE_RESERVATION_FAIL];
    return tot;
}

static void decide(mdb_sm *m, gms_sm *s, uint64_t now)
{
    uint64_t tot = l1_rf_total(s);
    /* the hardware's RF counter saturates (spec 001 2.3: 12 bits) */
    m->rf = tot - m->rf_seen > m->rf_max - m->rf ? m->rf_max : m->rf + (tot - m->rf_seen);
    m->rf_seen = tot;
    m->accesses = 0;
    uint32_t n = mdb_n(s);
    if (!n) return;   /* no block: keep counting */
    uint32_t lmax = n < m->ncalc ? n : m->ncalc;
    double scale = s->p->core.mdb_rf_scale ? (double)m->ratio : 1.0;
    uint32_t l = gms_mdb_choose(m->hits, lmax, m->rf, n, s->p->core.mdb_e, scale);
    uint32_t eff = (l >= n || l >= m->ncalc) ? L_ALL : l;
    gms_mdb_decay(m->hits, m->ncalc, &m->rf);
    m->decisions++;
    m->sum_l += eff == L_ALL ? n : l;
    if (eff == L_ALL) m->none_bypass++;
    if (m->nseries < SERIES_MAX) {
        if (!(m->nseries & (m->nseries - 1)) || !m->series)   /* grow at powers of two */
            m->series = gms_xrealloc(m->series, (m->nseries ? 2 * m->nseries : 1) * sizeof *m->series);
        m->series[m->nseries++] = (mdb_pt){ now, eff == L_ALL ? n : l, n };
    }
    int blocks = !s->p->core.mdb_sm_warp && s->blocks_used > 1;
    uint64_t a = (uint64_t)eff | (uint64_t)(blocks != 0) << 32;
    if (!m->global) publish(m, a, now);
    else if (gms_engine_deferring()) gms_engine_defer(publish, m, a, now + 1);
    else publish(m, a, now + 1);
}

static void mdb_observe(void *st, gms_sm *s, uint32_t wi, uint64_t addr, uint64_t now)
{
    mdb_sm *m = st;
    if (!m->monitor || !m->tags) return;
    uint32_t idx = mdb_index(s, wi);
    const gms_cache_config *c = &s->p->l1d.dl1;
    uint32_t set = gms_cache_set_index(c, addr);
    if (gms_mdb_sampled(set, m->ratio) && idx < m->ncalc) {
        uint64_t block = addr / c->line;
        size_t per_calc = (size_t)m->nsamp * m->assoc, row = (size_t)(set / m->ratio) * m->assoc;
        /* calculator i (0-based) models indices 0..i: index idx feeds calculators idx.. */
        for (uint32_t i = idx; i < m->ncalc; i++) {
            size_t o = i * per_calc + row;
            if (gms_mdb_shadow_access(&m->tags[o], &m->stamps[o], m->assoc, &m->clock, block) && m->hits[i] < m->hit_max)
                m->hits[i]++;   /* a saturating counter (spec 001 2.3: 10 bits) */
        }
    }
    if (++m->accesses >= s->p->core.mdb_period) decide(m, s, now);
}

/* -gms_mdb_kernel_start restart: a kernel launched on an idle GPU finds every generator in its
 * start-up state (no decision in force, so -gms_mdb_start applies; hits, RF and the access count
 * cleared). The shadow tags stay: they mirror the L1D, which keeps its lines across kernels
 * unless -gpgpu_flush_l1_cache. Without it a generator goes on with the decision it made for the
 * previous kernel, which MDB-global then applies to a kernel whose monitored SM may have no
 * block at all (a grid smaller than the GPU) and so never revisits it. */
static void mdb_kernel_begin(void *st, gms_sm *s)
{
    mdb_sm *m = st;
    if (strcmp(s->p->core.mdb_kernel_start, "restart")) return;
    memset(m->hits, 0, sizeof m->hits);
    m->rf = 0;
    m->rf_seen = l1_rf_total(s);
    m->accesses = 0;
    m->cur = m->next = DEC_NONE;
    m->next_from = 0;
}

/* gms_mdb_decisions, gms_mdb_L_avg (mean chosen L, N when nothing bypasses), gms_mdb_no_bypass
 * (decisions that bypassed nothing), and per deciding SM the series of (cycle, L, N) at up to
 * 32 evenly spaced decisions: gms_mdb_series[smS][k]_cycle / _L / _N (a plot of L over time) */
static void mdb_report(gms_sm *const *sms, uint32_t n, gms_stats *out)
{
    uint64_t dec = 0, sum = 0, none = 0;
    for (uint32_t i = 0; i < n; i++) {
        const mdb_sm *m = sms[i]->byp;
        if (!m || !m->monitor) continue;
        dec += m->decisions;
        sum += m->sum_l;
        none += m->none_bypass;
    }
    gms_stat_u64(out, "gms_mdb_decisions", dec);
    gms_stat_f64(out, "gms_mdb_L_avg", dec ? (double)sum / (double)dec : 0.0);
    gms_stat_u64(out, "gms_mdb_no_bypass", none);
    for (uint32_t i = 0; i < n; i++) {
        const mdb_sm *m = sms[i]->byp;
        if (!m || !m->monitor || !m->nseries) continue;
        uint32_t k = m->nseries < 32 ? m->nseries : 32;
        for (uint32_t j = 0; j < k; j++) {
            const mdb_pt *pt = &m->series[(uint64_t)j * m->nseries / k];
            gms_stat_u64f(out, pt->cycle, "gms_mdb_series[sm%u][%u]_cycle", i, j);
            gms_stat_u64f(out, pt->L, "gms_mdb_series[sm%u][%u]_L", i, j);
            gms_stat_u64f(out, pt->n, "gms_mdb_series[sm%u][%u]_N", i, j);
        }
    }
}

const gms_bypass_ops gms_bypass_mdb_local = {
    .name = "mdb-local", .summary = "MDB with one bypassing-parameter generator per SM (spec 001 2.3)",
    .sm_new = mdb_local_new, .sm_free = mdb_free, .bypass = mdb_bypass, .observe = mdb_observe,
    .kernel_begin = mdb_kernel_begin, .report = mdb_report,
};
const gms_bypass_ops gms_bypass_mdb_global = {
    .name = "mdb-global", .summary = "MDB with one generator watching SM -gms_mdb_monitor, its choice used by every SM",
    .sm_new = mdb_global_new, .sm_free = mdb_free, .bypass = mdb_bypass, .observe = mdb_observe,
    .kernel_begin = mdb_kernel_begin, .report = mdb_report,
};
