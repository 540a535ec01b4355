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
 *   Uvm_batch_faults_hist[lo-hi]  batches by demand faults, power-of-two bins
 *   Uvm_batch_faults_p90      90th percentile of faults per batch (the ceil(0.9 n)-th smallest)
 * and our own (spec 004 4.5 sizes a batch in pages, Fig. 16 is its histogram):
 *   gms_uvm_batch_pages_hist[lo-hi], gms_uvm_batch_pages_p90  the same by pages migrated
 *   gms_uvm_batch_mb_mean     pages per batch in MB (pages x page size), over all batches
 *   gms_uvm_batch_handling_any_xfer_mean  start to the first transfer of either direction (a
 *                             victim's write-back counts; the reading used until 2026-12-06)
 *   gms_uvm_batches_no_h2d    batches with no CPU->GPU transfer (every fault already in flight):
 *                             in Uvm_batch_time_mean, in neither of its parts
 *   gms_uvm_batch_time_h2d_mean  Uvm_batch_time_mean over the other batches: the sum of
 *                             Uvm_batch_fault_handling_mean and Uvm_batch_migration_mean */
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

/* power-of-two bins 1, 2-3, ..., the last one open; 0 in none */
static void bin_add(uint64_t *bins, uint32_t nbin, uint32_t v)
{
    if (!v) return;
    uint32_t k = 0;
    while (k + 1 < nbin && v >= 2u << k) k++;
    bins[k]++;
}

/* the 90th percentile, nearest rank: the ceil(0.9 n)-th smallest (sorts v) */
static uint32_t p90(uint32_t *v, size_t n)
{
    if (!n) return 0;
    qsort(v, n, sizeof *v, gms_cmp_u32);
    return v[(9 * n + 9) / 10 - 1];
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
    uint64_t bins[NBIN] = { 0 }, pbins[NBIN] = { 0 };
    double mig = 0, wait = 0, per_page = 0, any = 0, h2d_time = 0, pages = 0;
    size_t n = 0, nmig = 0, npp = 0, nany = 0;
    uint32_t *f = gms_xmalloc((u->nbatches + 1) * sizeof *f), *pg = gms_xmalloc((u->nbatches + 1) * sizeof *pg);
    ba_pp *pp = gms_xmalloc((u->nbatches + 1) * sizeof *pp);
    for (uint32_t b = 0; b < u->nbatches; b++) {
        const gms_uvm_batch *r = &u->batches[b];
        if (!r->closed) continue;
        pg[n] = r->pages;
        f[n++] = r->faults;
        bin_add(bins, NBIN, r->faults);
        bin_add(pbins, NBIN, r->pages);
        pages += r->pages;
        wait += (double)r->evict_wait;
        if (r->first_xfer != UINT64_MAX) {
            mig += (double)(r->end - r->first_xfer);
            h2d_time += (double)(r->end - r->start);
            nmig++;
        }
        if (r->first_any != UINT64_MAX) { any += (double)(r->first_any - r->start); nany++; }
        if (r->pages) {
            double t = (double)(r->end - r->start) / r->pages;
            per_page += t;
            pp[npp++] = (ba_pp){ r->pages, b, t };
        }
    }
    gms_stat_f64(out, "Uvm_batch_migration_mean", nmig ? mig / (double)nmig : 0);
    gms_stat_f64(out, "Uvm_batch_evict_wait_mean", n ? wait / (double)n : 0);
    gms_stat_f64(out, "Uvm_batch_page_time_mean", npp ? per_page / (double)npp : 0);
    gms_stat_f64(out, "gms_uvm_batch_handling_any_xfer_mean", nany ? any / (double)nany : 0);
    gms_stat_u64(out, "gms_uvm_batches_no_h2d", n - nmig);
    gms_stat_f64(out, "gms_uvm_batch_time_h2d_mean", nmig ? h2d_time / (double)nmig : 0);
    gms_stat_f64(out, "gms_uvm_batch_mb_mean", n ? pages * (double)u->page_size / (1024.0 * 1024.0) / (double)n : 0);
    /* halves by rank (an odd middle batch in neither): 0 with fewer than two batches */
    qsort(pp, npp, sizeof *pp, cmp_pp);
    double lo = 0, hi = 0;
    size_t half = npp / 2;
    for (size_t i = 0; i < half; i++) lo += pp[i].per_page, hi += pp[npp - 1 - i].per_page;
    gms_stat_f64(out, "Uvm_batch_page_time_small_half", half ? lo / (double)half : 0);
    gms_stat_f64(out, "Uvm_batch_page_time_large_half", half ? hi / (double)half : 0);
    free(pp);
    gms_stat_u64(out, "Uvm_batch_faults_p90", p90(f, n));
    for (uint32_t k = 0; k < NBIN; k++) {
        if (k + 1 < NBIN) gms_stat_u64f(out, bins[k], "Uvm_batch_faults_hist[%u-%u]", 1u << k, (2u << k) - 1);
        else gms_stat_u64f(out, bins[k], "Uvm_batch_faults_hist[%u+]", 1u << k);
    }
    gms_stat_u64(out, "gms_uvm_batch_pages_p90", p90(pg, n));
    for (uint32_t k = 0; k < NBIN; k++) {
        if (k + 1 < NBIN) gms_stat_u64f(out, pbins[k], "gms_uvm_batch_pages_hist[%u-%u]", 1u << k, (2u << k) - 1);
        else gms_stat_u64f(out, pbins[k], "gms_uvm_batch_pages_hist[%u+]", 1u << k);
    }
    free(f); free(pg);
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
