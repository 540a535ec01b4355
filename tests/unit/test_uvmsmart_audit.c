/* UVMSmart audit (2026-12): the fault time as UVMSmart's own PAGE_FAULT item, the eviction
 * trigger's count of the write-back on the lane, -uvm_oversub_ratio's whole pages and UVMSmart's
 * float -percentage_of_free_page_buffer. Hand-computed on small cases (docs/uvm.md). */
#include "test_uvm_util.h"
#include "uvm/uvm_internal.h"

#define PG 4096ULL
#define OPTS(...) (const char *const[]){ __VA_ARGS__, NULL }
#define L 66645ULL   /* -page_fault_latency */

/* 17 frames, sequential-local 64 KiB (16 pages), LRU 4 KiB pages, every victim written back
 * (each its own 4 KiB write-back, XF4 = 2605 cycles). Page 15's fault brings block 0 (one
 * transfer, the faulted page last): 16 frames held, 1 free. Page 31's fault then needs block 1's
 * 16 pages: 15 victims of block 0, written back one after another; UVMSmart frees a victim's
 * frame when its write-back starts, so the 16 frames are free when the 15th starts,
 * 14 x XF4 after the fault.
 *   fault: frames for the 16 pages first, then the fault time, then the data:
 *          page 31 arrives 14 x XF4 + L + XF64 after its walk.
 *   data:  the fault time needs one free frame (there is one): it runs while the write-backs
 *          do, and the data starts at its end (all 15 started by then: 14 x 2605 < L):
 *          L + XF64 after the walk, as page 15's did on an empty device. */
static int fault_time_case(const char *mode, uint64_t *first, uint64_t *second, double *wb)
{
    uvm_h h;
    if (uvm_h_start(&h, 1, OPTS("uvm_prefetcher", "seq", "uvm_prefetcher_oversub", "seq", "uvm_eviction", "lru4k",
                                "gddr_size", "68KB", "invalidate_clean", "0", "gms_uvm_fault_frames", mode), 1 << 20))
        return -1;
    uint64_t t = uvm_h_now(&h);
    *first = uvm_h_access_wait(&h, 0, UVM_BASE + 15 * PG, GMS_MREQ_READ) - t;
    if (uvm_h_run_idle(&h)) return -1;
    t = uvm_h_now(&h);
    *second = uvm_h_access_wait(&h, 0, UVM_BASE + 31 * PG, GMS_MREQ_READ) - t;
    if (uvm_h_run_idle(&h)) return -1;
    *wb = uvm_h_stat(&h, "Uvm_pages_written_back");
    uvm_h_free(&h);
    return 0;
}

TEST(uvmsmart_fault_time_overlaps_the_write_backs)
{
    uint64_t xf4 = uvm_h_pcie_cycles(4096), xf64 = uvm_h_pcie_cycles(65536);
    CHECK_EQ(xf4, 2605);
    CHECK_EQ(xf64, 8702);
    uint64_t a1, a2, b1, b2;
    double wa, wb;
    REQUIRE(fault_time_case("data", &a1, &a2, &wa) == 0);
    REQUIRE(fault_time_case("fault", &b1, &b2, &wb) == 0);
    /* the first fault meets an empty device: the same in both readings, walk + L + XF64 */
    CHECK_EQ(a1, b1);
    CHECK(a1 > L + xf64 && a1 - L - xf64 <= 110);
    CHECK_EQ(a2, a1);
    CHECK_EQ(b2, b1 + 14 * xf4);
    CHECK_EQ(wa, 15);
    CHECK_EQ(wb, 15);
}

/* -gms_uvm_fault_frames data-counted: a fault time not yet started is one more page to read
 * in the trigger (UVMSmart's 1-page PAGE_FAULT item in its read stage queue). 2 frames, no
 * prefetch, clean victims dropped. Page 1's fault: 1 held + 1 to read + 1 item = 3 > 2, so
 * page 0 goes (and faults again); under data, 2 > 2 does not hold. */
TEST(uvmsmart_fault_item_counted_in_the_trigger)
{
    for (int counted = 0; counted < 2; counted++) {
        uvm_h h;
        REQUIRE(uvm_h_start(&h, 1, OPTS("hardware_prefetch", "0", "hwprefetch_oversub", "0", "uvm_eviction", "lru4k",
                                        "gddr_size", "8KB", "page_fault_latency", "100",
                                        "gms_uvm_fault_frames", counted ? "data-counted" : "data"), 1 << 20) == 0);
        uvm_h_access_wait(&h, 0, UVM_BASE, GMS_MREQ_READ);
        uvm_h_access_wait(&h, 0, UVM_BASE + PG, GMS_MREQ_READ);
        REQUIRE(uvm_h_run_idle(&h) == 0);
        CHECK_EQ(uvm_h_stat(&h, "Uvm_evictions"), counted);
        uvm_h_access_wait(&h, 0, UVM_BASE, GMS_MREQ_READ);
        CHECK_EQ(uvm_h_stat(&h, "Uvm_far_faults"), 2 + counted);
        uvm_h_free(&h);
    }
    uvm_h_expect_error(OPTS("gms_uvm_fault_frames", "later"), "-gms_uvm_fault_frames: 'later' is not one of data, data-counted, fault");
    uvm_h_expect_error(OPTS("uvm_runtime", "batch", "gms_uvm_fault_frames", "fault"), "gms_uvm_fault_frames is set");
    uvm_h_expect_error(OPTS("enable_accurate_simulation", "0", "gms_uvm_fault_frames", "fault"), "gms_uvm_fault_frames is set");
}

/* The write-back on the D2H lane in the trigger. 2 frames, no prefetch, LRU pages, every victim
 * written back, faults free (-enable_accurate_simulation 0). Pages 0 and 1 fill the device. Page
 * 2's fault evicts page 0: its write-back starts at once and frees its frame, page 2's read
 * takes it. Page 3 faults 50 cycles later, while page 0's write-back runs: 2 frames held + 1 to
 * read = 3. once: 3 > 2, page 1 is chosen and waits behind page 0's write-back. twice
 * (UVMSmart): page 0's 1 page still counts as pending, 3 - 1 > 2 does not hold; page 1 is chosen
 * when page 0's write-back ends, and starts then, as it would have: page 3 arrives at the same
 * cycle. */
TEST(uvmsmart_running_write_back_counted_twice)
{
    uint64_t d[2];
    for (int twice = 0; twice < 2; twice++) {
        uvm_h h;
        REQUIRE(uvm_h_start(&h, 1, OPTS("hardware_prefetch", "0", "hwprefetch_oversub", "0", "uvm_eviction", "lru4k",
                                        "gddr_size", "8KB", "invalidate_clean", "0", "enable_accurate_simulation", "0",
                                        "gms_uvm_evict_wb_count", twice ? "twice" : "once"), 1 << 20) == 0);
        uvm_h_access_wait(&h, 0, UVM_BASE, GMS_MREQ_READ);
        uvm_h_access_wait(&h, 0, UVM_BASE + PG, GMS_MREQ_READ);
        REQUIRE(uvm_h_run_idle(&h) == 0);
        uint64_t t = uvm_h_now(&h);
        uvm_h_access(&h, 0, 0, UVM_BASE + 2 * PG, GMS_MREQ_READ, NULL);
        REQUIRE(uvm_h_run_until(&h, t + 50) == 0);
        int i3 = uvm_h_access(&h, 0, 1, UVM_BASE + 3 * PG, GMS_MREQ_READ, NULL);
        REQUIRE(uvm_h_run_until(&h, t + 300) == 0);
        const gms_uvm_xfer *w = h.u->lane[GMS_LANE_D2H].cur;
        CHECK(w && w->kind == GMS_XF_WRITEBACK && w->first_page == 0);
        CHECK_EQ(h.u->pending_free, twice ? 0 : 1);
        REQUIRE(uvm_h_run_idle(&h) == 0);
        CHECK(h.delivered[i3]);
        d[twice] = h.dcycle[i3] - t;
        CHECK_EQ(uvm_h_stat(&h, "Uvm_pages_written_back"), 2);
        CHECK_EQ(uvm_h_stat(&h, "Uvm_far_faults"), 4);
        uvm_h_free(&h);
    }
    CHECK_EQ(d[0], d[1]);
    uvm_h_expect_error(OPTS("gms_uvm_evict_wb_count", "2"), "-gms_uvm_evict_wb_count: '2' is not one of auto, twice, once");
}

/* -uvm_oversub_ratio: capacity = footprint / R in the nearest whole number of pages, at least
 * one; gms_uvm_oversub_ratio_effective = footprint / that capacity */
static int ratio_case(const char *ratio, const char *page, uint64_t bytes, double *pages, double *eff)
{
    uvm_h h;
    if (uvm_h_start(&h, 1, OPTS("uvm_oversub_ratio", ratio, "page_size", page), bytes)) return -1;
    *pages = uvm_h_stat(&h, "Uvm_capacity_pages");
    *eff = uvm_h_stat(&h, "gms_uvm_oversub_ratio_effective");
    uvm_h_free(&h);
    return 0;
}

TEST(uvm_oversub_ratio_nearest_whole_pages)
{
    double n, e;
    /* stream n=1M's 12 MiB with 2 MiB pages at 1.1: 5.45 pages -> 5, a ratio of 1.2 */
    REQUIRE(ratio_case("1.1", "2MB", 12 << 20, &n, &e) == 0);
    CHECK_EQ(n, 5);
    CHECK_NEAR(e, 1.2, 1e-12);
    /* 2 MiB at 1.25 in 4 KiB pages: 409.6 -> 410 (floor gave 409) */
    REQUIRE(ratio_case("1.25", "4KB", 2 << 20, &n, &e) == 0);
    CHECK_EQ(n, 410);
    CHECK_NEAR(e, 512.0 / 410, 1e-12);
    /* 64 KiB at 1000: 0.016 pages -> at least one (the run stopped with "below one page") */
    REQUIRE(ratio_case("1000", "4KB", 64 << 10, &n, &e) == 0);
    CHECK_EQ(n, 1);
    CHECK_NEAR(e, 16, 1e-12);
}

/* -percentage_of_free_page_buffer is UVMSmart's float, a percent: occupancy above
 * capacity x (1 - N / 100) evicts. 40 frames at 1.25: above 39.5. No prefetch, clean victims
 * dropped: 39 pages fit, the 40th fault (39 held + 1 to read = 40 > 39.5) evicts one page.
 * 0.0 (UVMSmart's config's spelling) keeps all 40. */
TEST(uvmsmart_free_page_buffer_is_a_float_percent)
{
    for (int k = 0; k < 2; k++) {
        uvm_h h;
        REQUIRE(uvm_h_start(&h, 1, OPTS("hardware_prefetch", "0", "hwprefetch_oversub", "0", "uvm_eviction", "lru4k",
                                        "gddr_size", "160KB", "page_fault_latency", "100",
                                        "percentage_of_free_page_buffer", k ? "1.25" : "0.0"), 1 << 20) == 0);
        for (uint64_t p = 0; p < 39; p++) uvm_h_access_wait(&h, 0, UVM_BASE + p * PG, GMS_MREQ_READ);
        CHECK_EQ(uvm_h_stat(&h, "Uvm_evictions"), 0);
        uvm_h_access_wait(&h, 0, UVM_BASE + 39 * PG, GMS_MREQ_READ);
        REQUIRE(uvm_h_run_idle(&h) == 0);
        CHECK_EQ(uvm_h_stat(&h, "Uvm_evictions"), k);
        uvm_h_free(&h);
    }
    uvm_h_expect_error(OPTS("percentage_of_free_page_buffer", "100"), "-percentage_of_free_page_buffer: 100 must be in [0, 100)");
    uvm_h_expect_error(OPTS("percentage_of_free_page_buffer", "-2.5"), "-percentage_of_free_page_buffer: -2.5 must be in [0, 100)");
}
