/* Fault batches: one record per batch of the driver runtime, or per cycle's fault group of the
 * UVMSmart runtime (start, first transfer, end, demand faults, prefetched pages, evictions);
 * optionally streamed to a CSV file; summarised (count, mean and median size and time). */
#include <stdlib.h>
#include "uvm/uvm_internal.h"
#include "util/sort.h"

uint32_t gms_uvm_batch_open(gms_uvm *u, uint64_t now, uint32_t nfaults)
{
    if (u->nbatches == u->cap_batches) {
        u->cap_batches = u->cap_batches ? 2 * u->cap_batches : 256;
        u->batches = gms_xrealloc(u->batches, u->cap_batches * sizeof *u->batches);
    }
    uint32_t b = u->nbatches++;
    u->batches[b] = (gms_uvm_batch){ .start = now, .first_xfer = UINT64_MAX, .first_any = UINT64_MAX, .end = UINT64_MAX, .faults = nfaults };
    return b;
}

static void close_batch(gms_uvm *u, uint32_t b, uint64_t now)
{
    gms_uvm_batch *r = &u->batches[b];
    r->closed = 1;
    r->end = now;
    if (u->batch_csv) {
        fprintf(u->batch_csv, "%u,%llu,", b, (unsigned long long)r->start);
        if (r->first_xfer == UINT64_MAX) fprintf(u->batch_csv, ",");
        else fprintf(u->batch_csv, "%llu,", (unsigned long long)r->first_xfer);
        fprintf(u->batch_csv, "%llu,%u,%u,%u,%u\n", (unsigned long long)r->end, r->faults, r->prefetched, r->pages,
                r->evictions);
    }
    if (u->ev->batch) u->ev->batch(u->ev_st, r);
    if (u->rt->batch_done) u->rt->batch_done(u->rt_st, b, now);
}

void gms_uvm_batch_planned(gms_uvm *u, uint32_t b, uint64_t now)
{
    u->batches[b].planned = 1;
    if (!u->batches[b].outstanding && !u->batches[b].closed) close_batch(u, b, now);
}

void gms_uvm_batch_xfer_done(gms_uvm *u, uint32_t b, uint64_t now)
{
    gms_uvm_batch *r = &u->batches[b];
    if (--r->outstanding == 0 && r->planned && !r->closed) close_batch(u, b, now);
}

static double median(uint64_t *v, size_t n)
{
    if (!n) return 0;
    qsort(v, n, sizeof *v, gms_cmp_u64);
    return n % 2 ? (double)v[n / 2] : ((double)v[n / 2 - 1] + (double)v[n / 2]) / 2.0;
}

void gms_uvm_batch_report(gms_uvm *u, gms_stats *out)
{
    size_t n = 0;
    for (uint32_t b = 0; b < u->nbatches; b++) n += u->batches[b].closed;
    uint64_t *faults = gms_xmalloc((n + 1) * sizeof *faults), *pages = gms_xmalloc((n + 1) * sizeof *pages),
             *time = gms_xmalloc((n + 1) * sizeof *time), *fh = gms_xmalloc((n + 1) * sizeof *fh);
    double sf = 0, sp = 0, st = 0, sh = 0;
    size_t k = 0, nh = 0;
    uint64_t evictions = 0;
    for (uint32_t b = 0; b < u->nbatches; b++) {
        const gms_uvm_batch *r = &u->batches[b];
        if (!r->closed) continue;
        faults[k] = r->faults;
        pages[k] = r->pages;
        time[k] = r->end - r->start;
        sf += r->faults; sp += r->pages; st += (double)time[k];
        evictions += r->evictions;
        if (r->first_xfer != UINT64_MAX) { fh[nh] = r->first_xfer - r->start; sh += (double)fh[nh]; nh++; }
        k++;
    }
    gms_stat_u64(out, "Uvm_batches", n);
    gms_stat_f64(out, "Uvm_batch_faults_mean", n ? sf / (double)n : 0);
    gms_stat_f64(out, "Uvm_batch_faults_median", median(faults, n));
    gms_stat_f64(out, "Uvm_batch_pages_mean", n ? sp / (double)n : 0);
    gms_stat_f64(out, "Uvm_batch_pages_median", median(pages, n));
    gms_stat_f64(out, "Uvm_batch_time_mean", n ? st / (double)n : 0);
    gms_stat_f64(out, "Uvm_batch_time_median", median(time, n));
    /* spec 004 1.5: start to the first CPU->GPU transfer, over the batches that have one */
    gms_stat_f64(out, "Uvm_batch_fault_handling_mean", nh ? sh / (double)nh : 0);
    gms_stat_u64(out, "Uvm_batch_evictions", evictions);
    free(faults); free(pages); free(time); free(fh);
}
