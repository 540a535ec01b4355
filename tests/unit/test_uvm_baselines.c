/* Spec 003's baselines, hand-computed victims: RRIP (FP promotion, delay field) and CLOCK-Pro.
 * 4 frames, no prefetching, a 1-entry TLB so every return to another page is a page-walk hit
 * (the walk-level reference stream these policies see by default). */
#include "test_uvm_util.h"
#include "uvm/uvm_internal.h"

#define PG 4096ULL
#define OPTS(...) (const char *const[]){ __VA_ARGS__, NULL }

static void touch(uvm_h *h, uint64_t page) { uvm_h_access_wait(h, 0, UVM_BASE + page * PG, GMS_MREQ_READ); }
static int resident(uvm_h *h, uint32_t page) { return h->u->pages[page].state == GMS_PG_RESIDENT; }

#define BASE_OPTS "uvm_prefetcher", "none", "uvm_prefetcher_oversub", "none", "gddr_size", "16KB", "tlb_size", "1", \
                  "page_fault_latency", "100"

TEST(uvm_rrip_victims)
{
    /* M = 2, insert at long (2), no delay. p1 referenced twice (0), p2 once (1): p0 2, p3 2.
     * Fault p4: no page at 3, so all age by 1 (p0 3, p1 1, p2 2, p3 3); the scan from slot 0
     * takes p0. Slot 0 then holds p3 (the last page moved in); fault p5 takes p3 (3). */
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 1, OPTS(BASE_OPTS, "uvm_eviction", "rrip"), 1 << 20) == 0);
    for (int p = 0; p < 4; p++) touch(&h, (uint64_t)p);
    touch(&h, 1); touch(&h, 2); touch(&h, 1);
    touch(&h, 4);
    CHECK(!resident(&h, 0));
    CHECK(resident(&h, 1) && resident(&h, 2) && resident(&h, 3));
    touch(&h, 5);
    CHECK(!resident(&h, 3));
    CHECK(resident(&h, 1) && resident(&h, 2) && resident(&h, 4));
    uvm_h_free(&h);

    /* distant insertion with a delay of 3 faults: p0..p3 inserted at faults 1..4, p0 and p1
     * referenced (2). Fault 5: p2 is 2 faults old, p3 1: no distant page qualifies, so the
     * distant page inserted first (p2) goes and the fallback is counted. With a delay of 2, p2
     * qualifies in the scan itself. */
    for (int delay = 3; delay >= 2; delay--) {
        char d[8];
        snprintf(d, sizeof d, "%d", delay);
        REQUIRE(uvm_h_start(&h, 1, OPTS(BASE_OPTS, "uvm_eviction", "rrip", "uvm_rrip_insert", "1", "uvm_rrip_delay", d),
                            1 << 20) == 0);
        for (int p = 0; p < 4; p++) touch(&h, (uint64_t)p);
        touch(&h, 0); touch(&h, 1);
        touch(&h, 4);
        CHECK(!resident(&h, 2));
        CHECK(resident(&h, 0) && resident(&h, 1) && resident(&h, 3));
        CHECK_EQ(uvm_h_stat(&h, "Uvm_rrip_delay_fallbacks"), delay == 3 ? 1 : 0);
        uvm_h_free(&h);
    }
}

TEST(uvm_clockpro_victims)
{
    /* m = 4, m_c = 1. p0..p3 arrive cold in their test period; p1 is referenced.
     * Fault p4: HAND_cold at p0 (bit 0) -> p0 goes, kept as non-resident in its test period.
     * Fault p5: p1 (bit 1, in test) is promoted to hot; p2 (bit 0) goes.
     * Fault p0 (non-resident, in test): p3 goes, p0 comes back hot. */
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 1, OPTS(BASE_OPTS, "uvm_eviction", "clockpro", "uvm_clockpro_cold", "1"), 1 << 20) == 0);
    for (int p = 0; p < 4; p++) touch(&h, (uint64_t)p);
    touch(&h, 1);
    touch(&h, 4);
    CHECK(!resident(&h, 0));
    touch(&h, 5);
    CHECK(!resident(&h, 2));
    CHECK(resident(&h, 1));
    CHECK_EQ(uvm_h_stat(&h, "Uvm_clockpro_promotions"), 1);
    touch(&h, 0);
    CHECK(!resident(&h, 3));
    CHECK(resident(&h, 0) && resident(&h, 1) && resident(&h, 4) && resident(&h, 5));
    CHECK_EQ(uvm_h_stat(&h, "Uvm_clockpro_test_hits"), 1);
    /* LRU takes p0, then p2 (p1 was referenced), then p3: the same first two, but p0 would
     * come back cold; CLOCK-Pro keeps it hot: the next faults go to cold pages (p4, p5 and,
     * with bit 0, the oldest cold first) */
    touch(&h, 6);
    CHECK(!resident(&h, 4));
    CHECK(resident(&h, 0) && resident(&h, 1));
    uvm_h_free(&h);
}

/* CLOCK-Pro's adaptive m_c (-uvm_clockpro_adaptive 1): +1 for every cold page re-referenced in
 * its test period, whether HAND_cold finds it resident with its bit set or it faults back after
 * its eviction; -1 for every test period that ends without one. The victims of
 * uvm_clockpro_victims with m_c starting at 1: p1 promoted by HAND_cold at p5's fault (m_c 2),
 * then p0 faulting back in its test period (m_c 3): two hot pages (p1, p0) over m - m_c = 1, so
 * HAND_hot runs, demotes p1 (its bit clear since its promotion) and ends the test periods of
 * the cold pages it passes, down to the floor of 1. Before 2026-12-05 the first hit did not
 * count: m_c stayed 1 at p5, p0's return made it 2, two hot pages fit m - m_c = 2 and HAND_hot
 * did not run (no demotion). */
TEST(uvm_clockpro_adaptive_counts_both_test_hits)
{
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 1, OPTS(BASE_OPTS, "uvm_eviction", "clockpro", "uvm_clockpro_cold", "1",
                                    "uvm_clockpro_adaptive", "1"), 1 << 20) == 0);
    for (int p = 0; p < 4; p++) touch(&h, (uint64_t)p);
    touch(&h, 1);
    touch(&h, 4);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_clockpro_cold_target"), 1);
    touch(&h, 5);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_clockpro_promotions"), 1);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_clockpro_cold_target"), 2);
    touch(&h, 0);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_clockpro_test_hits"), 1);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_clockpro_demotions"), 1);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_clockpro_cold_target"), 1);
    uvm_h_free(&h);
}
