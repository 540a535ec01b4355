/* Audit fixes (TURE rescue as a recall, batch statistics, HPE's ratios and MRU-C fallback),
 * hand-computed on small cases. */
#include "test_uvm_util.h"
#include "uvm/uvm_internal.h"
#include "uvm/hpe_chain.h"
#include <string.h>

#define PG 4096ULL
#define OPTS(...) (const char *const[]){ __VA_ARGS__, NULL }

static void touch(uvm_h *h, uint64_t page) { uvm_h_access_wait(h, 0, UVM_BASE + page * PG, GMS_MREQ_READ); }

/* -uvm_ture_rescue_recall. 64 frames = 4 granules, sequential-local 64 KiB, every victim written
 * back, 2 granules per memory-full eviction. Period 0: pages 0, 1 referenced 4 times each
 * (F = 8 / 2 = 4). Period 1: faults at 16, 32, 48 fill memory (their pages arrive with L = 4);
 * pages 33, 34 and then 0, 1 are referenced 4 times each and expire (granules 2 and 0 in the
 * table, 2 updated first). The fault at 64 evicts both granules: block 0's write-back starts,
 * block 2's waits behind it; a touch of page 33 cancels it (16 pages back). As a recall, 33 and
 * 34 get 4 / 2 = 2 (the rescuing touch, counted as owed, is the recall's own): after 34, 33, 34,
 * 33 both have expired again (6 expired pages). As a migration (0), 33 gets 4 - 1 owed = 3 and
 * 34 gets 4: 34 -> 2, 33 -> 1, none expires (4). */
static int ture_rescue(const char *recall, double *expired, double *rescued, double *recalls)
{
    uvm_h h;
    if (uvm_h_start(&h, 1, OPTS("uvm_prefetcher", "seq", "uvm_eviction", "ture", "uvm_ture_window", "100000",
                                "uvm_ture_period", "100000", "uvm_ture_evict_blocks", "2", "gddr_size", "256KB",
                                "invalidate_clean", "0", "page_fault_latency", "100", "uvm_evict_rescue", "1",
                                "uvm_ture_rescue_recall", recall), 1 << 20))
        return -1;
    for (int i = 0; i < 4; i++) { touch(&h, 0); touch(&h, 1); }
    if (uvm_h_run_until(&h, 100000)) return -1;
    touch(&h, 16); touch(&h, 32); touch(&h, 48);
    if (uvm_h_run_idle(&h)) return -1;
    for (int i = 0; i < 4; i++) { touch(&h, 33); touch(&h, 34); }
    for (int i = 0; i < 4; i++) { touch(&h, 0); touch(&h, 1); }
    if (uvm_h_stat(&h, "Uvm_ture_expired_pages") != 4) return -2;
    uvm_h_access(&h, 0, 0, UVM_BASE + 64 * PG, GMS_MREQ_READ, NULL);
    if (uvm_h_run_until(&h, uvm_h_now(&h) + 400)) return -1;
    if (uvm_h_stat(&h, "Uvm_ture_memory_full_table_granules") != 2) return -3;
    touch(&h, 33);
    *rescued = uvm_h_stat(&h, "Uvm_evict_rescued_pages");
    touch(&h, 34); touch(&h, 33); touch(&h, 34); touch(&h, 33);
    *expired = uvm_h_stat(&h, "Uvm_ture_expired_pages");
    *recalls = recall[0] == '1' ? uvm_h_stat(&h, "Uvm_ture_rescue_recalls") : -1;
    uvm_h_free(&h);
    return 0;
}

TEST(uvm_ture_rescued_page_gets_half_its_initial_lease)
{
    double e, r, rc;
    REQUIRE(ture_rescue("1", &e, &r, &rc) == 0);
    CHECK_EQ(r, 16);
    CHECK_EQ(rc, 2);    /* pages 33 and 34 were expired */
    CHECK_EQ(e, 6);
    REQUIRE(ture_rescue("0", &e, &r, &rc) == 0);
    CHECK_EQ(r, 16);
    CHECK_EQ(e, 4);
}

/* Batch statistics on the serialised BASELINE (test_batch_aware_ue.c's setup): 64 KiB pages,
 * 2 frames, 20 us of fault handling (FH = 29620 cycles), one page over PCIe XF = 6067 cycles.
 * Batch 1 (T0 = 100): pages 0 and 1 migrate, FH + 2 XF. Batch 2 (T = after batch 1 + 100):
 * pages 2 and 3, serialised: write back 0, migrate 2, write back 1, migrate 3, FH + 4 XF. */
#define PG64 65536ULL
#define FH 29620ULL
#define XF 6067ULL
#define BASE_OPTS "uvm_runtime", "batch", "hardware_prefetch", "0", "hwprefetch_oversub", "0", \
    "uvm_fault_handling_us", "20", "page_size", "64KB", "gddr_size", "128KB", "uvm_eviction", "lru64k", \
    "uvm_lru_on_access", "0", "invalidate_clean", "0", "uvm_pcie_model", "linear", "pcie_bandwidth", "16"

TEST(batch_fault_handling_ends_at_the_first_transfer_to_the_gpu)
{
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 1, OPTS(BASE_OPTS, "gms_uvm_evict_serial", "1"), 1 << 20) == 0);
    uvm_h_access(&h, 0, 0, UVM_BASE, GMS_MREQ_READ, NULL);
    uvm_h_access(&h, 0, 1, UVM_BASE + PG64, GMS_MREQ_READ, NULL);
    REQUIRE(uvm_h_run_deliveries(&h, 2) == 0);
    uvm_h_access(&h, 0, 2, UVM_BASE + 2 * PG64, GMS_MREQ_READ, NULL);
    uvm_h_access(&h, 0, 3, UVM_BASE + 3 * PG64, GMS_MREQ_READ, NULL);
    REQUIRE(uvm_h_run_deliveries(&h, 4) == 0);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_batches"), 2);
    /* spec 004 1.5: batch 2's handling ends when page 2 starts moving, after page 0's write-back */
    CHECK_EQ(uvm_h_stat(&h, "Uvm_batch_fault_handling_mean"), (FH + (FH + XF)) / 2.0);
    CHECK_EQ(uvm_h_stat(&h, "gms_uvm_batch_handling_any_xfer_mean"), FH);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_batch_migration_mean"), (2 * XF + 3 * XF) / 2.0);
    /* the parts sum to the time over the batches with a migration (here all) */
    CHECK_EQ(uvm_h_stat(&h, "gms_uvm_batches_no_h2d"), 0);
    CHECK_EQ(uvm_h_stat(&h, "gms_uvm_batch_time_h2d_mean"), ((FH + 2 * XF) + (FH + 4 * XF)) / 2.0);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_batch_time_mean"), ((FH + 2 * XF) + (FH + 4 * XF)) / 2.0);
    /* 2 pages of 64 KiB a batch */
    CHECK_EQ(uvm_h_stat(&h, "gms_uvm_batch_mb_mean"), 0.125);
    CHECK_EQ(uvm_h_stat(&h, "gms_uvm_batch_pages_hist[2-3]"), 2);
    uvm_h_free(&h);
}

/* Hand-made batch records (batch-aware statistics on): ten batches of 1..10 faults, each
 * migrating 4 pages per fault, all with a migration but the first (3 faults and 12 pages
 * already in flight count in the size, not in the parts). Batch k (1-based) starts at 1000 k,
 * its first migration at +100, ends at +100 + 10 k; the first ends at +50. */
TEST(batch_size_p90_and_transfer_less_batches)
{
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 1, OPTS("gms_uvm_batch_stats", "1"), 1 << 20) == 0);
    for (uint32_t k = 1; k <= 10; k++) {
        uint32_t b = gms_uvm_batch_open(h.u, 1000 * k, k);
        gms_uvm_batch *r = &h.u->batches[b];
        r->pages = 4 * k;
        r->closed = 1;
        if (k == 1) { r->end = r->start + 50; continue; }
        r->first_xfer = r->first_any = r->start + 100;
        r->end = r->start + 100 + 10 * k;
    }
    /* nearest rank: the ceil(0.9 x 10) = 9th smallest, not the largest */
    CHECK_EQ(uvm_h_stat(&h, "Uvm_batch_faults_p90"), 9);
    CHECK_EQ(uvm_h_stat(&h, "gms_uvm_batch_pages_p90"), 36);
    /* pages 4, 8, ..., 40: bins 4-7 {4}, 8-15 {8, 12}, 16-31 {16, 20, 24, 28}, 32-63 {32, 36, 40} */
    CHECK_EQ(uvm_h_stat(&h, "gms_uvm_batch_pages_hist[4-7]"), 1);
    CHECK_EQ(uvm_h_stat(&h, "gms_uvm_batch_pages_hist[8-15]"), 2);
    CHECK_EQ(uvm_h_stat(&h, "gms_uvm_batch_pages_hist[16-31]"), 4);
    CHECK_EQ(uvm_h_stat(&h, "gms_uvm_batch_pages_hist[32-63]"), 3);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_batch_faults_hist[8-15]"), 3);
    /* 220 pages of 4 KiB over 10 batches */
    CHECK_NEAR(uvm_h_stat(&h, "gms_uvm_batch_mb_mean"), 220.0 * 4096 / (1024 * 1024) / 10, 1e-12);
    /* times: all ten (50, 120, ..., 200) against the nine with a migration (120..200) */
    CHECK_EQ(uvm_h_stat(&h, "gms_uvm_batches_no_h2d"), 1);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_batch_time_mean"), (50 + 9 * 100 + 10 * (2 + 10) * 9 / 2) / 10.0);
    CHECK_EQ(uvm_h_stat(&h, "gms_uvm_batch_time_h2d_mean"), 100 + 10 * (2 + 10) / 2.0);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_batch_fault_handling_mean"), 100);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_batch_migration_mean"), 10 * (2 + 10) / 2.0);
    uvm_h_free(&h);
}

/* Table III over sets with a fault history only: a set made by a page that arrived without a
 * fault (counter 0) is in neither ratio. Sets 16 and 20 with three counter-0 sets: ratio_1 =
 * 1 irregular / 1 regular = 1 > 0.3 (irregular #2); counting the zeros as regular gave 1 / 4 =
 * 0.25 (regular). */
TEST(uvm_hpe_classification_leaves_out_counter_zero_sets)
{
    hpe_chain c;
    double r1, r2;
    hpe_chain_init(&c, 16, 64);
    hpe_chain_touch(&c, 0x100000, 16, 1);
    hpe_chain_touch(&c, 0x100010, 20, 1);
    for (uint64_t i = 2; i < 5; i++) hpe_chain_touch(&c, 0x100000 + 16 * i, 0, 0);
    CHECK_EQ(c.count[HPE_NEW], 5);
    CHECK_EQ(hpe_chain_classify(&c, 0.3, 2, &r1, &r2), HPE_IRREGULAR2);
    CHECK_NEAR(r1, 1.0, 1e-12);
    CHECK_NEAR(r2, 0.0, 1e-12);   /* 0 large of 1 small */
    hpe_chain_free(&c);
}

/* MRU-C's fallback (spec 003 5.7: old first, middle or new only when old is empty). Old holds
 * sets A (LRU end), B, C (MRU end), middle holds D, all usable but A and B. A jump of 1 skips C,
 * the only usable old set: the scan finds nothing, and the victim is old's LRU end (C), not
 * middle's D. With no usable old set at all it is D; without the jump MRU-C finds C itself. */
static uint8_t usable_mask;
static int usable_bit(void *ud, uint32_t set) { (void)ud; return usable_mask >> set & 1; }

TEST(uvm_hpe_mruc_falls_back_to_old_before_middle)
{
    hpe_chain c;
    hpe_chain_init(&c, 16, 64);
    uint32_t a = hpe_chain_touch(&c, 0x100000, 32, 1), b = hpe_chain_touch(&c, 0x100010, 32, 1),
             cc = hpe_chain_touch(&c, 0x100020, 48, 1);
    hpe_chain_interval(&c);
    hpe_chain_interval(&c);                                  /* old: A, B, C */
    uint32_t d = hpe_chain_touch(&c, 0x100030, 16, 1);
    hpe_chain_interval(&c);                                  /* middle: D */
    REQUIRE(c.count[HPE_OLD] == 3 && c.tail[HPE_OLD] == cc && c.head[HPE_MIDDLE] == d);
    usable_mask = (uint8_t)(1u << cc | 1u << d);
    int part, lru;
    uint64_t cmp = 0;
    CHECK_EQ(hpe_chain_victim(&c, 1, 1, usable_bit, NULL, &part, &lru, &cmp), cc);
    CHECK_EQ(part, HPE_OLD);
    CHECK_EQ(lru, 1);
    CHECK_EQ(cmp, 0);
    CHECK_EQ(hpe_chain_victim(&c, 1, 0, usable_bit, NULL, &part, &lru, &cmp), cc);   /* MRU-C's own pick */
    CHECK_EQ(lru, 0);
    CHECK_EQ(cmp, 1);
    usable_mask = (uint8_t)(1u << d);
    CHECK_EQ(hpe_chain_victim(&c, 1, 1, usable_bit, NULL, &part, &lru, &cmp), d);
    CHECK_EQ(part, HPE_MIDDLE);
    usable_mask = (uint8_t)(1u << a | 1u << cc);                     /* LRU: old's LRU end */
    CHECK_EQ(hpe_chain_victim(&c, 0, 0, usable_bit, NULL, &part, &lru, &cmp), a);
    (void)b;
    hpe_chain_free(&c);
}

/* -uvm_lru_on_access walk (spec 003 section 4: LRU "updated by page-walk hits and faults"):
 * uvm_age_based_lru's sequence, capacity 2: pages 0, 1 migrated, page 0 re-read, page 2
 * faults, page 0 read. With the default TLB the re-read hits the TLB: no walk, no refresh,
 * page 0 is evicted and faults again (4 faults, as age-based). With a 1-entry TLB (it holds
 * page 1) the re-read walks and finds page 0 resident: refreshed, page 1 goes (3 faults, as
 * access-based). */
static double walk_lru_faults(const char *tlb)
{
    uvm_h h;
    if (uvm_h_start(&h, 1, OPTS("hardware_prefetch", "0", "hwprefetch_oversub", "0", "gddr_size", "8KB",
                                "uvm_eviction", "lru4k", "uvm_lru_on_access", "walk", "tlb_size", tlb), 1 << 20))
        return -1;
    touch(&h, 0); touch(&h, 1); touch(&h, 0); touch(&h, 2); touch(&h, 0);
    double f = uvm_h_stat(&h, "Page_tot_fault");
    uvm_h_free(&h);
    return f;
}

TEST(uvm_lru_walk_refreshes_on_walk_hits_only)
{
    CHECK_EQ(walk_lru_faults("4096"), 4);
    CHECK_EQ(walk_lru_faults("1"), 3);
    uvm_h_expect_error(OPTS("uvm_lru_on_access", "walks"), "-uvm_lru_on_access: 'walks' is not one of 1, 0, walk");
}
