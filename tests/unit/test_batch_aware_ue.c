/* Batch-aware UVM, runtime side (spec 004 section 3): unobtrusive eviction against the
 * serialised baseline on a hand-computed batch, instant eviction, premature evictions and page
 * lifetime, option errors.
 *
 * Setup shared by the cases: 64 KiB pages, device memory of 2 pages, batch runtime with 20 us
 * of fault handling (29620 cycles at 1481 MHz), a 100-cycle walk, no prefetcher, age-based LRU
 * per 64 KiB page, every victim written back, linear PCIe at 16 GB/s both ways:
 * one page = ceil(65536 x 1481e6 / 16e9) = ceil(6066.18) = 6067 cycles. */
#include <string.h>
#include "test_uvm_util.h"

#define PG64 65536ULL
#define FH 29620ULL
#define XF 6067ULL
#define OPTS(...) (const char *const[]){ __VA_ARGS__, NULL }
#define BASE_OPTS "uvm_runtime", "batch", "hardware_prefetch", "0", "hwprefetch_oversub", "0", \
    "uvm_fault_handling_us", "20", "page_size", "64KB", "gddr_size", "128KB", "uvm_eviction", "lru64k", \
    "uvm_lru_on_access", "0", "invalidate_clean", "0", "uvm_pcie_model", "linear", "pcie_bandwidth", "16"

typedef struct two_batches { uint64_t t_fill, T, d2, d3; } two_batches;

/* batch 1: pages 0 and 1 fill memory; batch 2: pages 2 and 3 fault in the same cycle and need
 * two evictions (victims 0 then 1, the oldest arrivals) */
static void run_two_batches(uvm_h *h, two_batches *r)
{
    uvm_h_access(h, 0, 0, UVM_BASE, GMS_MREQ_READ, NULL);
    uvm_h_access(h, 0, 1, UVM_BASE + PG64, GMS_MREQ_READ, NULL);
    uvm_h_run_deliveries(h, 2);
    r->t_fill = uvm_h_now(h);
    int a = uvm_h_access(h, 0, 2, UVM_BASE + 2 * PG64, GMS_MREQ_READ, NULL);
    int b = uvm_h_access(h, 0, 3, UVM_BASE + 3 * PG64, GMS_MREQ_READ, NULL);
    r->T = r->t_fill + 100;   /* the walks end, the batch starts */
    uvm_h_run_deliveries(h, 4);
    r->d2 = h->dcycle[a];
    r->d3 = h->dcycle[b];
}

TEST(batch_aware_serial_eviction_costs_evict_plus_migrate_per_page)
{
    /* the paper's baseline (Fig. 4): evict 0, migrate 2, evict 1, migrate 3, one at a time:
     * batch 2 = FH + 4 x XF; its migrations wait one eviction each (2 x XF) */
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 1, OPTS(BASE_OPTS, "gms_uvm_evict_serial", "1"), 1 << 20) == 0);
    two_batches r;
    run_two_batches(&h, &r);
    CHECK_EQ(r.t_fill, 100 + FH + 2 * XF);   /* batch 1: one 64 KiB DMA per page */
    CHECK_EQ(r.d2, r.T + FH + 2 * XF);
    CHECK_EQ(r.d3, r.T + FH + 4 * XF);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_batches"), 2);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_batch_time_mean"), ((FH + 2 * XF) + (FH + 4 * XF)) / 2.0);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_batch_evict_wait_mean"), (0 + 2 * XF) / 2.0);
    /* spec 004 1.5: fault handling = start to the first transfer to the GPU's memory: batch 2's
     * first migration waits for page 0's write-back, FH + XF (any direction: FH in both) */
    CHECK_EQ(uvm_h_stat(&h, "Uvm_batch_fault_handling_mean"), (FH + (FH + XF)) / 2.0);
    CHECK_EQ(uvm_h_stat(&h, "gms_uvm_batch_handling_any_xfer_mean"), FH);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_ue_preemptive"), 0);
    /* both victims leave at batch 2's planning, T + FH; pages 0 and 1 arrived at 100 + FH + XF
     * and 100 + FH + 2 XF */
    double life = ((double)(r.T + FH) - (100 + FH + XF) + (double)(r.T + FH) - (100 + FH + 2 * XF)) / 2;
    CHECK_EQ(uvm_h_stat(&h, "Uvm_page_lifetime_mean"), life);
    /* per-page time by halves: two batches of two pages, the tie broken by batch order */
    CHECK_EQ(uvm_h_stat(&h, "Uvm_batch_page_time_small_half"), (FH + 2 * XF) / 2.0);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_batch_page_time_large_half"), (FH + 4 * XF) / 2.0);
    uvm_h_free(&h);
}

TEST(batch_aware_ue_pairs_each_migration_with_an_eviction)
{
    /* UE: at batch 2's start memory is full, so page 0 is written back at once (T .. T + XF,
     * inside the handling time); at T + FH page 2 migrates into that frame while page 1 is
     * written back on the other lane; page 3 follows into page 1's frame:
     * batch 2 = FH + 2 x XF, no migration waits */
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 1, OPTS(BASE_OPTS, "gms_uvm_ue", "1"), 1 << 20) == 0);
    two_batches r;
    run_two_batches(&h, &r);
    CHECK_EQ(r.t_fill, 100 + FH + 2 * XF);
    CHECK_EQ(r.d2, r.T + FH + XF);
    CHECK_EQ(r.d3, r.T + FH + 2 * XF);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_batch_time_mean"), FH + 2 * XF);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_batch_evict_wait_mean"), 0);
    /* the preemptive write-back at T is the interrupt's, not batch 2's transfer */
    CHECK_EQ(uvm_h_stat(&h, "Uvm_batch_fault_handling_mean"), FH);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_ue_preemptive"), 1);   /* batch 1 started with memory empty */
    CHECK_EQ(uvm_h_stat(&h, "Uvm_batch_evictions"), 1); /* the paired one; the preemptive one is the interrupt's */
    CHECK_EQ(uvm_h_stat(&h, "Uvm_evictions"), 2);
    /* page 0 left at T, page 1 at T + FH */
    double life = ((double)r.T - (100 + FH + XF) + (double)(r.T + FH) - (100 + FH + 2 * XF)) / 2;
    CHECK_EQ(uvm_h_stat(&h, "Uvm_page_lifetime_mean"), life);
    uvm_h_free(&h);
}

TEST(batch_aware_instant_eviction_frees_frames_at_once)
{
    /* ideal eviction: nothing is copied back; pages 2-3 move one after the other right after
     * the handling time, page by page as under BASELINE and UE (each page's warp wakes when it
     * lands), with no write-back between them: batch 2 = FH + 2 x XF */
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 1, OPTS(BASE_OPTS, "gms_uvm_evict_instant", "1"), 1 << 20) == 0);
    two_batches r;
    run_two_batches(&h, &r);
    CHECK_EQ(r.t_fill, 100 + FH + 2 * XF);
    CHECK_EQ(r.d2, r.T + FH + XF);
    CHECK_EQ(r.d3, r.T + FH + 2 * XF);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_pcie_d2h_bytes"), 0);
    uvm_h_free(&h);
}

TEST(batch_aware_premature_evictions_count_refaults_of_evicted_pages)
{
    /* after the two batches pages 0 and 1 are on the host again and pages 2 and 3 resident:
     * touching page 3 (resident: no fault), then faulting page 0 (evicted before: premature)
     * and page 4 (never resident: not) counts one premature eviction */
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 1, OPTS(BASE_OPTS, "gms_uvm_evict_serial", "1"), 1 << 20) == 0);
    two_batches r;
    run_two_batches(&h, &r);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_premature_evictions"), 0);
    uvm_h_access_wait(&h, 0, UVM_BASE + 3 * PG64, GMS_MREQ_READ);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_premature_evictions"), 0);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_batches"), 2);
    uvm_h_access_wait(&h, 0, UVM_BASE, GMS_MREQ_READ);
    uvm_h_access_wait(&h, 0, UVM_BASE + 4 * PG64, GMS_MREQ_READ);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_premature_evictions"), 1);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_batch_faults_hist[1-1]"), 2);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_batch_faults_hist[2-3]"), 2);
    /* Fig. 3's trend: the two one-page batches (each evicts one page, then migrates one:
     * FH + 2 XF for its page) against the two-page ones (FH + 2 XF and FH + 4 XF for two) */
    CHECK_EQ(uvm_h_stat(&h, "Uvm_batch_page_time_small_half"), (double)(FH + 2 * XF));
    CHECK_EQ(uvm_h_stat(&h, "Uvm_batch_page_time_large_half"), ((FH + 2 * XF) / 2.0 + (FH + 4 * XF) / 2.0) / 2);
    uvm_h_free(&h);
}

TEST(batch_aware_pcie_compression_divides_link_bytes)
{
    /* F = 2: a 64 KiB page takes the time of 32 KiB, ceil(3033.09) = 3034 cycles */
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 1, OPTS(BASE_OPTS, "gms_pcie_compress", "2"), 1 << 20) == 0);
    CHECK_EQ(uvm_h_access_wait(&h, 0, UVM_BASE, GMS_MREQ_READ), 100 + FH + 3034);
    uvm_h_free(&h);
}

TEST(batch_aware_defaults_report_nothing_new)
{
    /* with every batch-aware option off the new statistics are absent (default output kept) */
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 1, OPTS(BASE_OPTS), 1 << 20) == 0);
    uvm_h_access_wait(&h, 0, UVM_BASE, GMS_MREQ_READ);
    gms_stats st;
    gms_stats_init(&st);
    gms_uvm_report(h.u, &st);
    CHECK(gms_stats_find(&st, "Uvm_premature_evictions") == NULL);
    gms_stats_free(&st);
    uvm_h_free(&h);
}

TEST(batch_aware_option_errors)
{
    uvm_h_expect_error(OPTS("gms_uvm_ue", "1"), "-gms_uvm_ue 1 needs -uvm_runtime batch");
    uvm_h_expect_error(OPTS("uvm_runtime", "batch", "gms_uvm_ue", "1", "gms_uvm_evict_serial", "1"),
                 "-gms_uvm_ue and -gms_uvm_evict_serial are both 1");
    uvm_h_expect_error(OPTS("gms_pcie_compress", "0.5"), "-gms_pcie_compress: 0.5 must be at least 1");
    uvm_h_expect_error(OPTS("gms_uvm_to", "1", "gms_uvm_to_factor", "1"), "-gms_uvm_to_factor: 1 must be in 2..8");
    /* a TO knob without TO would be accepted and never used */
    uvm_h_expect_error(OPTS("gms_uvm_to_factor", "3"), "-gms_uvm_to_factor is set, but it has no effect unless -gms_uvm_to 1");
    uvm_h_expect_error(OPTS("gms_uvm_ctx_switch_cycles", "1000"), "-gms_uvm_ctx_switch_cycles is set, but it has no effect");
}
