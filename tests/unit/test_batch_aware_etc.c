/* ETC as spec 004's comparison point (src/uvm/etc.c): capacity compression's frames,
 * memory-aware throttling's phases on a hand-driven timeline, the fixed active-SM count, the
 * working-set window (etc_ws.c), option errors. Setup as test_batch_aware_ue.c: 64 KiB pages,
 * 2 frames of device memory, batch runtime, no prefetcher. */
#include "test_uvm_util.h"
#include "uvm/etc.h"
#include "uvm/etc_internal.h"

#define PG64 65536ULL
#define OPTS(...) (const char *const[]){ __VA_ARGS__, NULL }
#define BASE_OPTS "uvm_runtime", "batch", "hardware_prefetch", "0", "hwprefetch_oversub", "0", \
    "uvm_fault_handling_us", "20", "page_size", "64KB", "gddr_size", "128KB", "uvm_eviction", "lru64k", \
    "uvm_lru_on_access", "0", "invalidate_clean", "0", "uvm_pcie_model", "linear", "pcie_bandwidth", "16", \
    "gms_uvm_evict_serial", "1"

TEST(batch_aware_etc_cc_holds_ratio_times_the_frames)
{
    /* 2 frames x 1.5 = 3 pages: three pages fit, the fourth evicts one */
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 1, OPTS(BASE_OPTS, "gms_uvm_etc", "1", "gms_uvm_etc_mt", "0", "gms_uvm_etc_cc", "1.5"),
                        1 << 20) == 0);
    CHECK_EQ(gms_uvm_capacity_pages(h.u), 3);
    for (int i = 0; i < 3; i++) uvm_h_access(&h, 0, (uint16_t)i, UVM_BASE + (uint64_t)i * PG64, GMS_MREQ_READ, NULL);
    uvm_h_run_deliveries(&h, 3);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_evictions"), 0);
    uvm_h_access(&h, 0, 3, UVM_BASE + 3 * PG64, GMS_MREQ_READ, NULL);
    uvm_h_run_deliveries(&h, 4);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_evictions"), 1);
    uvm_h_free(&h);
}

TEST(batch_aware_etc_mt_throttles_half_then_follows_refaults)
{
    /* 4 SMs, detection 1000 cycles, execution 4000. The first eviction at 100 throttles SMs 2-3
     * until 4100; detection 4100-5100 sees 3 re-faults (no earlier epoch: kept); execution to
     * 9100; detection 9100-10100 sees 1 (fewer: SM 2 back at 10100); execution to 14100;
     * detection 14100-15100 sees 5 (more: SM 2 out again at 15100). */
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 4, OPTS(BASE_OPTS, "gms_uvm_etc", "1", "gms_uvm_etc_cc", "1", "gms_uvm_etc_detect", "1000",
                                    "gms_uvm_etc_exec", "4000"), 1 << 20) == 0);
    gms_uvm *u = h.u;
    CHECK_EQ(gms_uvm_sm_throttled(u, 3, 50), 0);   /* not triggered yet */
    gms_uvm_etc_refault(u, 60);                      /* ignored before the trigger */
    gms_uvm_etc_evicted(u, 100);
    CHECK_EQ(gms_uvm_sm_throttled(u, 1, 100), 0);
    CHECK_EQ(gms_uvm_sm_throttled(u, 2, 100), 1);
    CHECK_EQ(gms_uvm_sm_throttled(u, 3, 4099), 1);
    gms_uvm_etc_refault(u, 4099);                    /* still the initial phase: not counted */
    for (int i = 0; i < 3; i++) gms_uvm_etc_refault(u, 4200);
    CHECK_EQ(gms_uvm_sm_throttled(u, 2, 5100), 1);
    gms_uvm_etc_refault(u, 6000);                    /* execution epoch: not counted */
    gms_uvm_etc_refault(u, 9500);
    CHECK_EQ(gms_uvm_sm_throttled(u, 2, 10099), 1);
    CHECK_EQ(gms_uvm_sm_throttled(u, 2, 10100), 0);
    CHECK_EQ(gms_uvm_sm_throttled(u, 3, 10100), 1);
    for (int i = 0; i < 5; i++) gms_uvm_etc_refault(u, 14500);
    CHECK_EQ(gms_uvm_sm_throttled(u, 2, 15100), 1);
    const gms_uvm_etc *e = u->ba.etc;
    CHECK_EQ(e->throttles, 2);     /* the trigger and 15100 */
    CHECK_EQ(e->unthrottles, 1);
    CHECK_EQ(e->detections, 3);
    CHECK_EQ(e->active, 2);
    /* time-weighted: 2 SMs over 100..10100, 3 over 10100..15100 */
    CHECK_EQ(e->active_cycles, 2.0 * 10000 + 3.0 * 5000);
    uvm_h_free(&h);
}

TEST(batch_aware_etc_mt_keeps_one_sm)
{
    /* 1 SM: nothing to throttle at the trigger, and more re-faults cannot take the last one */
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 1, OPTS(BASE_OPTS, "gms_uvm_etc", "1", "gms_uvm_etc_detect", "10", "gms_uvm_etc_exec", "10"),
                        1 << 20) == 0);
    gms_uvm_etc_evicted(h.u, 0);
    gms_uvm_etc_refault(h.u, 15);
    gms_uvm_etc_refault(h.u, 35); gms_uvm_etc_refault(h.u, 36);
    CHECK_EQ(gms_uvm_sm_throttled(h.u, 0, 100), 0);
    CHECK_EQ(h.u->ba.etc->active, 1);
    uvm_h_free(&h);
}

TEST(batch_aware_active_sms_fixes_the_sms_that_take_blocks)
{
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 4, OPTS(BASE_OPTS, "gms_uvm_active_sms", "3"), 1 << 20) == 0);
    CHECK_EQ(gms_uvm_sm_throttled(h.u, 2, 0), 0);
    CHECK_EQ(gms_uvm_sm_throttled(h.u, 3, 0), 1);
    uvm_h_free(&h);
    REQUIRE(uvm_h_start(&h, 4, OPTS(BASE_OPTS), 1 << 20) == 0);
    CHECK_EQ(gms_uvm_sm_throttled(h.u, 3, 0), 0);   /* off: every SM */
    CHECK(h.u->ba.etc == NULL);
    uvm_h_free(&h);
}

TEST(batch_aware_ws_window_counts_distinct_pages_per_window)
{
    /* window 1000: pages 0, 1, 0 in [0, 1000) = 2; page 2 twice in [1000, 2000) = 1;
     * nothing in [2000, 3000) (left out); pages 3, 4, 5 in [3000, 4000) = 3 */
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 1, OPTS(BASE_OPTS, "gms_uvm_ws_window", "1000"), 1 << 20) == 0);
    gms_uvm *u = h.u;
    gms_uvm_ws_note(u, 0, 10); gms_uvm_ws_note(u, 1, 20); gms_uvm_ws_note(u, 0, 30);
    gms_uvm_ws_note(u, 2, 1500); gms_uvm_ws_note(u, 2, 1600);
    gms_uvm_ws_note(u, 3, 3000); gms_uvm_ws_note(u, 4, 3100); gms_uvm_ws_note(u, 5, 3999);
    gms_uvm_etc *e = u->ba.etc;
    CHECK_EQ(e->ws_n, 2);
    CHECK_EQ(e->ws_sum, 3);
    CHECK_EQ(e->ws_count, 3);
    CHECK_EQ(e->ws_max, 2);
    uvm_h_free(&h);
}

TEST(batch_aware_etc_option_errors)
{
    uvm_h_expect_error(OPTS("gms_uvm_etc_cc", "2"), "-gms_uvm_etc_cc is set, but it has no effect unless -gms_uvm_etc 1");
    uvm_h_expect_error(OPTS("gms_uvm_etc", "1"), "-gms_uvm_etc 1 needs -uvm_runtime batch");
    uvm_h_expect_error(OPTS("uvm_runtime", "batch", "gms_uvm_etc", "1", "gms_uvm_etc_cc", "0.5"),
                 "-gms_uvm_etc_cc: 0.5 must be at least 1");
    uvm_h_expect_error(OPTS("uvm_runtime", "batch", "gms_uvm_etc", "1", "gms_uvm_to", "1"),
                 "-gms_uvm_etc and -gms_uvm_to are both 1");
    uvm_h_expect_error(OPTS("uvm_runtime", "batch", "gms_uvm_etc", "1", "gms_uvm_etc_exec", "0"), "epochs must be at least 1");
}
