/* Batch-aware statistics (spec 004 1.5 and 4.5), reported only when a batch-aware option is on
 * (so the default statistics stay as they were):
 *   Uvm_premature_evictions   far faults on pages that had been resident and were evicted
 *   Uvm_page_lifetime_mean    mean of t_evict - t_arrival over evicted pages (cycles)
 *   Uvm_ue_preemptive         UE's evictions at batch start
 *   Uvm_batch_migration_mean  first transfer to last page (the batch time after fault handling)
 *   Uvm_batch_evict_wait_mean cycles a batch's migrations waited for frames (evictions on the
 *                             critical path; 0 with UE when D2H keeps up, and with instant eviction)
 *   Uvm_batch_page_time_mean  per-page handling time (batch time / pages, Fig. 3), mean over batches
 *   Uvm_batch_page_time_small_half, _large_half  the same over the half of the batches with the
 *                             fewest / most pages (Fig. 3's trend within one run: spec 004 T1)
 *   Uvm_batch_faults_hist[lo-hi]  batches by demand faults, power-of-two bins (Fig. 16)
 *   Uvm_batch_faults_p90      90th percentile of faults per batch */
#include <stdlib.h>
#include "uvm/uvm_internal.h"
#include "uvm/etc_internal.h"
#include "util/sort.h"

void gms_uvm_ba_fault(gms_uvm *u, uint32_t page)
{
    /* n_in counts arrivals: a page on the host again after an arrival was evicted */
    if (u->ba.on && u->pages[page].n_in) u->ba.premature++;
}

void gms_uvm_ba_evicted(gms_uvm *u, uint32_t page, uint64_t now)
{
    if (!u->ba.on) return;
    if (u->prm->to && u->prm->to_dynamic) gms_uvm_to_epochs(u, now);
    if (u->ba.etc) gms_uvm_etc_evicted(u, now);   /* ETC: the first eviction triggers MT */
    const gms_uvm_page *pg = &u->pages[page];
    if (now >= pg->t_in) {
        u->ba.lifetime_sum += now - pg->t_in;
        u->ba.lifetime_n++;
        u->ba.to_win_sum += now - pg->t_in;
        u->ba.to_win_n++;
    }
}

void gms_uvm_ba_h2d_wait(gms_uvm *u, const gms_uvm_xfer *x, int blocked, uint64_t now)
{
    if (!u->ba.on) return;
    if (blocked) {
        if (u->ba.h2d_wait_since == UINT64_MAX) { u->ba.h2d_wait_since = now; u->ba.h2d_wait_batch = x->batch; }
        return;
    }
    if (u->ba.h2d_wait_since == UINT64_MAX) return;
    if (u->ba.h2d_wait_batch != GMS_UVM_NONE && u->ba.h2d_wait_batch < u->nbatches)
        u->batches[u->ba.h2d_wait_batch].evict_wait += now - u->ba.h2d_wait_since;
    u->ba.h2d_wait_since = UINT64_MAX;
}

void gms_uvm_page_lifetime(const gms_uvm *u, uint64_t *sum, uint64_t *n)
{
    *sum = u->ba.lifetime_sum;
    *n = u->ba.lifetime_n;
}

typedef struct ba_pp {
    uint32_t pages;
    uint32_t idx;                 /* batch order: the tie-break, so the halves are deterministic */
    double per_page;
} ba_pp;

static int cmp_pp(const void *a, const void *b)
{
    const ba_pp *x = a, *y = b;
    if (x->pages != y->pages) return x->pages < y->pages ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

void gms_uvm_ba_report(gms_uvm *u, gms_stats *out)
{
    gms_uvm_etc_report(u, out);   /* ETC, the working-set window: only when on */
    if (!u->ba.on) return;
    gms_stat_u64(out, "Uvm_premature_evictions", u->ba.premature);
    gms_stat_f64(out, "Uvm_page_lifetime_mean",
                 u->ba.lifetime_n ? (double)u->ba.lifetime_sum / (double)u->ba.lifetime_n : 0);
    gms_stat_u64(out, "Uvm_ue_preemptive", u->ba.ue_preemptive);
    if (u->prm->to && u->prm->to_dynamic) {
        gms_stat_u64(out, "Uvm_to_extra_blocks", u->ba.to_extra < u->ba.to_cap ? u->ba.to_extra : u->ba.to_cap);
        gms_stat_u64(out, "Uvm_to_throttles", u->ba.to_throttles);
        gms_stat_u64(out, "Uvm_to_epochs", u->ba.to_epochs);
    }
    enum { NBIN = 11 };   /* 1, 2-3, ..., 512-1023, >= 1024 */
    uint64_t bins[NBIN] = { 0 };
    double mig = 0, wait = 0, per_page = 0;
    size_t n = 0, nmig = 0, npp = 0;
    uint32_t *f = gms_xmalloc((u->nbatches + 1) * sizeof *f);
    ba_pp *pp = gms_xmalloc((u->nbatches + 1) * sizeof *pp);
    for (uint32_t b = 0; b < u->nbatches; b++) {
        const gms_uvm_batch *r = &u->batches[b];
        if (!r->closed) continue;
        f[n++] = r->faults;
        uint32_t k = 0;
        while (k + 1 < NBIN && r->faults >= 2u << k) k++;
        if (r->faults) bins[k]++;
        wait += (double)r->evict_wait;
        if (r->first_xfer != UINT64_MAX) { mig += (double)(r->end - r->first_xfer); nmig++; }
        if (r->pages) {
            double t = (double)(r->end - r->start) / r->pages;
            per_page += t;
            pp[npp++] = (ba_pp){ r->pages, b, t };
        }
    }
    gms_stat_f64(out, "Uvm_batch_migration_mean", nmig ? mig / (double)nmig : 0);
    gms_stat_f64(out, "Uvm_batch_evict_wait_mean", n ? wait / (double)n : 0);
    gms_stat_f64(out, "Uvm_batch_page_time_mean", npp ? per_page / (double)npp : 0);
    /* halves by rank (an odd middle batch in neither): 0 with fewer than two batches */
    qsort(pp, npp, sizeof *pp, cmp_pp);
    double lo = 0, hi = 0;
    size_t half = npp / 2;
    for (size_t i = 0; i < half; i++) lo += pp[i].per_page, hi += pp[npp - 1 - i].per_page;
    gms_stat_f64(out, "Uvm_batch_page_time_small_half", half ? lo / (double)half : 0);
    gms_stat_f64(out, "Uvm_batch_page_time_large_half", half ? hi / (double)half : 0);
    free(pp);
    qsort(f, n, sizeof *f, gms_cmp_u32);
    gms_stat_u64(out, "Uvm_batch_faults_p90", n ? f[(n * 9) / 10 < n ? (n * 9) / 10 : n - 1] : 0);
    for (uint32_t k = 0; k < NBIN; k++) {
        if (k + 1 < NBIN) gms_stat_u64f(out, bins[k], "Uvm_batch_faults_hist[%u-%u]", 1u << k, (2u << k) - 1);
        else gms_stat_u64f(out, bins[k], "Uvm_batch_faults_hist[%u+]", 1u << k);
    }
    free(f);
}

uint32_t gms_uvm_warp_far_waits(const gms_uvm *u, uint32_t sm, uint32_t warp)
{
    if (sm >= u->n_sm || warp >= u->warps_per_sm) return 0;
    return (uint32_t)u->warp_waits[2 * ((size_t)sm * u->warps_per_sm + warp)];
}

uint32_t gms_uvm_warp_trans_waits(const gms_uvm *u, uint32_t sm, uint32_t warp)
{
    if (sm >= u->n_sm || warp >= u->warps_per_sm) return 0;
    return u->warp_trans[(size_t)sm * u->warps_per_sm + warp];
}
