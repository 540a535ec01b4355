/* UVMSmart-code readings of the UVM runtime. -uvm_tree_fill: the tree prefetcher's exact page counts against UVMSmart's leaf sizes
 * (docs/uvm.md Differences 13). A 512 KiB allocation is one tree of 8 leaves of 16 pages:
 * heap nodes 8..15 are leaves 0..7, node 4 = leaves 0-1, node 2 = leaves 0-3, node 1 = root.
 * Every count below is worked out by hand in the comments. */
#include "test_uvm_util.h"
#include "uvm/uvm_internal.h"

#define PG 4096ULL
#define LEAF (64ULL << 10)
#define OPTS(...) (const char *const[]){ __VA_ARGS__, NULL }

/* faults on leaves 0 and 2 (16 pages each), then pages 0..7 of leaf 0 evicted (clean: dropped
 * at once) */
static int setup(uvm_h *h, const char *fill, const char *eviction)
{
    if (uvm_h_start(h, 1, OPTS("hardware_prefetch", "1", "hwprefetch_oversub", "1", "page_fault_latency", "100",
                               "uvm_eviction", eviction, "uvm_tree_fill", fill), 512 << 10))
        return -1;
    if (uvm_h_access_wait(h, 0, UVM_BASE + 3 * PG, GMS_MREQ_READ) == UINT64_MAX) return -1;
    if (uvm_h_access_wait(h, 0, UVM_BASE + 2 * LEAF + 3 * PG, GMS_MREQ_READ) == UINT64_MAX) return -1;
    if (uvm_h_run_idle(h)) return -1;
    uint32_t pages[8];
    for (uint32_t i = 0; i < 8; i++) pages[i] = i;
    gms_uvm_evict_pages(h->u, pages, 8, uvm_h_now(h));
    return uvm_h_run_idle(h);
}

static double migrated(uvm_h *h) { return uvm_h_stat(h, "Uvm_pages_migrated_in"); }

TEST(uvm_tree_fill_uvmsmart_refault_counts_a_whole_leaf)
{
    uvm_h h;
    /* exact: leaf 0 holds 8 pages; the fault on page 0 brings its 8 missing pages; node 4 =
     * 16 + 0 (not over 16), node 2 = 16 + 0 + 16 + 0 = 32 (not over 32), root 32: no fill */
    REQUIRE(setup(&h, "exact", "lru4k") == 0);
    CHECK_EQ(migrated(&h), 32);
    REQUIRE(uvm_h_access_wait(&h, 0, UVM_BASE, GMS_MREQ_READ) != UINT64_MAX);
    REQUIRE(uvm_h_run_idle(&h) == 0);
    CHECK_EQ(migrated(&h), 32 + 8);
    uvm_h_free(&h);
    /* uvmsmart: leaf 0's size is 16 - 8 = 8; the fault adds a whole leaf: 24. Node 4 = 24 + 0
     * (> 16, not 32): leaf 1 is empty, filled (16 pages), node 4 = 40. Node 2 = 40 + 16 + 0 = 56
     * (> 32, not 64): leaf 3 filled (16), 72. Root = 72 (> 64, not 128): leaves 4-7 filled (64).
     * 8 + 16 + 16 + 64 = 104 pages come in where the exact counts bring 8 */
    REQUIRE(setup(&h, "uvmsmart", "lru4k") == 0);
    CHECK_EQ(migrated(&h), 32);
    REQUIRE(uvm_h_access_wait(&h, 0, UVM_BASE, GMS_MREQ_READ) != UINT64_MAX);
    REQUIRE(uvm_h_run_idle(&h) == 0);
    CHECK_EQ(migrated(&h), 32 + 104);
    CHECK_EQ(uvm_h_stat(&h, "Page_tot_fault"), 3);
    uvm_h_free(&h);
}

TEST(uvm_tree_fill_uvmsmart_leaves_a_partial_leaf_partial)
{
    uvm_h h;
    /* a fault on leaf 1. exact: node 4 = 8 + 16 = 24 (> 16): leaf 0's 8 missing pages come too;
     * node 2 = 48 (> 32): leaf 3 (16); root 64 (not over half). Page 0 is then resident */
    REQUIRE(setup(&h, "exact", "lru4k") == 0);
    REQUIRE(uvm_h_access_wait(&h, 0, UVM_BASE + LEAF + 3 * PG, GMS_MREQ_READ) != UINT64_MAX);
    REQUIRE(uvm_h_run_idle(&h) == 0);
    CHECK_EQ(migrated(&h), 32 + 16 + 8 + 16);
    REQUIRE(uvm_h_access_wait(&h, 0, UVM_BASE, GMS_MREQ_READ) != UINT64_MAX);
    CHECK_EQ(uvm_h_stat(&h, "Page_tot_fault"), 3);
    uvm_h_free(&h);
    /* uvmsmart: node 4 = 8 + 16 = 24 (> 16, not 32) but no leaf under it has size 0: leaf 0
     * stays at 8 pages. Node 2 = 8 + 16 + 16 + 0 = 40 (> 32): leaf 3 (16). Root 56: no. Then
     * page 0 faults: leaf 0 = 8 + 16 = 24, its 8 pages come; node 2 = 24 + 16 + 16 + 16 = 72
     * (> 32, not 64, no empty leaf); root 72 (> 64): leaves 4-7 (64) */
    REQUIRE(setup(&h, "uvmsmart", "lru4k") == 0);
    REQUIRE(uvm_h_access_wait(&h, 0, UVM_BASE + LEAF + 3 * PG, GMS_MREQ_READ) != UINT64_MAX);
    REQUIRE(uvm_h_run_idle(&h) == 0);
    CHECK_EQ(migrated(&h), 32 + 16 + 16);
    REQUIRE(uvm_h_access_wait(&h, 0, UVM_BASE, GMS_MREQ_READ) != UINT64_MAX);
    REQUIRE(uvm_h_run_idle(&h) == 0);
    CHECK_EQ(uvm_h_stat(&h, "Page_tot_fault"), 4);
    CHECK_EQ(migrated(&h), 32 + 16 + 16 + 8 + 64);
    uvm_h_free(&h);
}

TEST(uvm_tree_fill_uvmsmart_lru2m_clears_the_region)
{
    uvm_h h;
    /* UVMSmart's LRU 2 MB clears the whole tree (evict_whole_tree): after the eviction every leaf
     * counts 0, leaf 2's 16 resident pages too. Page 0: leaf 0 = 16, its 8 pages; no node over
     * half. Leaf 1: 16 more; node 4 = 32 (full), node 2 = 32 (not over 32): no fill, where the
     * exact counts see node 2 = 48 and fill leaf 3 */
    REQUIRE(setup(&h, "uvmsmart", "lru2m") == 0);
    CHECK_EQ(h.u->regions[0].lsize[2], 0);
    REQUIRE(uvm_h_access_wait(&h, 0, UVM_BASE, GMS_MREQ_READ) != UINT64_MAX);
    REQUIRE(uvm_h_access_wait(&h, 0, UVM_BASE + LEAF + 3 * PG, GMS_MREQ_READ) != UINT64_MAX);
    REQUIRE(uvm_h_run_idle(&h) == 0);
    CHECK_EQ(migrated(&h), 32 + 8 + 16);
    uvm_h_free(&h);
    REQUIRE(setup(&h, "exact", "lru2m") == 0);
    REQUIRE(uvm_h_access_wait(&h, 0, UVM_BASE, GMS_MREQ_READ) != UINT64_MAX);
    REQUIRE(uvm_h_access_wait(&h, 0, UVM_BASE + LEAF + 3 * PG, GMS_MREQ_READ) != UINT64_MAX);
    REQUIRE(uvm_h_run_idle(&h) == 0);
    CHECK_EQ(migrated(&h), 32 + 8 + 16 + 16);
    uvm_h_free(&h);
}

TEST(uvm_tree_fill_uvmsmart_counts_pages_of_the_none_prefetcher)
{
    /* no prefetcher before oversubscription (UVMSmart's DISABLED branch adds a page per fault),
     * so 9 faults on leaf 0 leave it at 9 of 16 and 9 on leaf 1 the same; the tree prefetcher,
     * were it to run now, would see node 4 = 18 > 16 with no empty leaf. Checked on the sizes */
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 1, OPTS("hardware_prefetch", "0", "page_fault_latency", "100", "uvm_tree_fill", "uvmsmart"),
                        512 << 10) == 0);
    for (int k = 0; k < 9; k++) {
        REQUIRE(uvm_h_access_wait(&h, 0, UVM_BASE + (uint64_t)k * PG, GMS_MREQ_READ) != UINT64_MAX);
        REQUIRE(uvm_h_access_wait(&h, 0, UVM_BASE + LEAF + (uint64_t)k * PG, GMS_MREQ_READ) != UINT64_MAX);
    }
    REQUIRE(uvm_h_run_idle(&h) == 0);
    CHECK_EQ(h.u->regions[0].lsize[0], 9);
    CHECK_EQ(h.u->regions[0].lsize[1], 9);
    CHECK_EQ(h.u->regions[0].lsize[2], 0);
    CHECK_EQ(migrated(&h), 18);
    uvm_h_free(&h);
}

/* -uvm_evict_invalid_at (docs/uvm.md Differences 14): page 0 is evicted at 7410 and written
 * back (invalidate_clean 0: clean pages too) on the idle D2H lane, 7410 -> 10015 (4 KiB = 2605
 * cycles), and touched at once. `end`: the walk (100) finds it being written back, waits for
 * the end, then faults: 10015 + 1000 + 2605 = 13620. `start` (UVMSmart invalidates it when the
 * write-back starts): the walk finds it absent and it faults at once: 7510 + 1000 + 2605 */
static uint64_t touch_during_writeback(const char *at, double *on_wb)
{
    uvm_h h;
    if (uvm_h_start(&h, 1, OPTS("hardware_prefetch", "0", "hwprefetch_oversub", "0", "page_fault_latency", "1000",
                                "invalidate_clean", "0", "uvm_evict_invalid_at", at), 16 << 10))
        return 0;
    CHECK_EQ(uvm_h_access_wait(&h, 0, UVM_BASE, GMS_MREQ_READ), 3705);
    CHECK_EQ(uvm_h_access_wait(&h, 0, UVM_BASE + PG, GMS_MREQ_READ), 7410);
    uint64_t now = uvm_h_now(&h);
    uint32_t victim = 0;
    gms_uvm_evict_pages(h.u, &victim, 1, now);
    gms_uvm_lanes_kick(h.u, now);
    int i = uvm_h_access(&h, 0, 1, UVM_BASE + 64, GMS_MREQ_READ, NULL);
    uint64_t t = uvm_h_run_deliveries(&h, 3) == 0 ? h.dcycle[i] - now : 0;   /* the third delivery */
    *on_wb = uvm_h_stat(&h, "Uvm_faults_on_writeback");
    CHECK_EQ(uvm_h_stat(&h, "Page_tot_fault"), 3);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_pages_written_back"), 1);
    uvm_h_free(&h);
    return t;
}

TEST(uvm_evict_invalid_at_start_refaults_during_the_writeback)
{
    double on_wb;
    CHECK_EQ(touch_during_writeback("end", &on_wb), 2605 + 1000 + 2605);
    CHECK_EQ(on_wb, 1);
    CHECK_EQ(touch_during_writeback("start", &on_wb), 100 + 1000 + 2605);
    CHECK_EQ(on_wb, 0);
}

/* A walk that found its page queued for write-back (no rescue) waits; when the write-back
 * starts outside a UVM tick (here the test kicks the idle D2H lane at 7600, as a TLB hit's
 * rescue or a bulk copy would), the page faults at the next cycle: 7601 + 1000 + 2605 = 11206,
 * not at the next event that wakes the GMMU (the write-back's end, 10205, then 13810) */
TEST(uvm_evict_invalid_at_start_waiter_faults_next_cycle)
{
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 1, OPTS("hardware_prefetch", "0", "hwprefetch_oversub", "0", "page_fault_latency", "1000",
                                    "invalidate_clean", "0", "uvm_evict_invalid_at", "start"), 16 << 10) == 0);
    CHECK_EQ(uvm_h_access_wait(&h, 0, UVM_BASE, GMS_MREQ_READ), 3705);
    CHECK_EQ(uvm_h_access_wait(&h, 0, UVM_BASE + PG, GMS_MREQ_READ), 7410);
    uint32_t victim = 0;
    gms_uvm_evict_pages(h.u, &victim, 1, uvm_h_now(&h));   /* queued: nothing kicks the lane yet */
    int i = uvm_h_access(&h, 0, 1, UVM_BASE + 64, GMS_MREQ_READ, NULL);
    REQUIRE(uvm_h_run_until(&h, 7600) == 0);
    CHECK_EQ(h.u->pages[0].state, GMS_PG_WRITING);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_faults_on_writeback"), 1);
    gms_uvm_lanes_kick(h.u, 7600);
    CHECK_EQ(h.u->pages[0].state, GMS_PG_HOST);
    REQUIRE(uvm_h_run_deliveries(&h, 3) == 0);
    CHECK_EQ(h.dcycle[i], 7601 + 1000 + 2605);
    CHECK_EQ(uvm_h_stat(&h, "Page_tot_fault"), 3);
    uvm_h_free(&h);
}
