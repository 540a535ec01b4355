/* UVM policies and translation details, hand-computed (1481 MHz, UVMSmart's PCIe curve). */
#include "test_uvm_util.h"
#include "uvm/uvm_internal.h"
#include <stdlib.h>
#include <unistd.h>

#define PG 4096ULL
#define OPTS(...) (const char *const[]){ __VA_ARGS__, NULL }

TEST(uvm_seq_prefetcher_block)
{
    /* sequential-local 64 KiB: the fault at page 5 migrates pages 0-15; the transfer is cut
     * just after the faulted page, so the warp replays after 6 pages (24 KiB) */
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 1, OPTS("uvm_prefetcher", "seq", "page_fault_latency", "1000"), 1 << 20) == 0);
    uint64_t t = uvm_h_access_wait(&h, 0, UVM_BASE + 5 * PG, GMS_MREQ_READ);
    CHECK_EQ(t, 100 + 1000 + uvm_h_pcie_cycles(6 * PG));
    REQUIRE(uvm_h_run_idle(&h) == 0);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_pages_migrated_in"), 16);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_pcie_h2d_transfers"), 2);
    /* 512 KiB block (Zheng et al.) */
    uvm_h h2;
    REQUIRE(uvm_h_init(&h2, 1, OPTS("uvm_prefetcher", "seq", "uvm_prefetch_size", "512KB")) == 0);
    REQUIRE(gms_uvm_alloc(h2.u, UVM_BASE, 1 << 20, 1, "a", &h2.err) == 0);
    gms_uvm_kernel_begin(h2.u, 0);
    uvm_h_access_wait(&h2, 0, UVM_BASE + 200 * PG, GMS_MREQ_READ);
    REQUIRE(uvm_h_run_idle(&h2) == 0);
    CHECK_EQ(uvm_h_stat(&h2, "Uvm_pages_migrated_in"), 128);
    /* prefetched pages used before eviction */
    for (int p = 128; p < 138; p++) uvm_h_access_wait(&h2, 0, UVM_BASE + (uint64_t)p * PG, GMS_MREQ_READ);
    CHECK_EQ(uvm_h_stat(&h2, "Uvm_prefetched_used"), 10);  /* all prefetched (page 200 was the demand page) */
    uvm_h_free(&h);
    uvm_h_free(&h2);
}

TEST(uvm_split_at_fault_0_sends_the_block_as_one_transfer)
{
    /* as uvm_seq_prefetcher_block with -uvm_split_at_fault 0: pages 0-15 go as one 64 KiB
     * transfer and the warp replays when the whole block has arrived */
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 1, OPTS("uvm_prefetcher", "seq", "page_fault_latency", "1000", "uvm_split_at_fault", "0"),
                        1 << 20) == 0);
    uint64_t t = uvm_h_access_wait(&h, 0, UVM_BASE + 5 * PG, GMS_MREQ_READ);
    CHECK_EQ(t, 100 + 1000 + uvm_h_pcie_cycles(16 * PG));
    REQUIRE(uvm_h_run_idle(&h) == 0);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_pages_migrated_in"), 16);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_pcie_h2d_transfers"), 1);
    uvm_h_free(&h);
    /* the batch runtime sends one run by default; 1 cuts it as UVMSmart does: 2 transfers */
    REQUIRE(uvm_h_start(&h, 1, OPTS("uvm_prefetcher", "seq", "uvm_runtime", "batch", "uvm_split_at_fault", "1"),
                        1 << 20) == 0);
    uvm_h_access_wait(&h, 0, UVM_BASE + 5 * PG, GMS_MREQ_READ);
    REQUIRE(uvm_h_run_idle(&h) == 0);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_pcie_h2d_transfers"), 2);
    uvm_h_free(&h);
    uvm_h_expect_error(OPTS("uvm_split_at_fault", "yes"), "-uvm_split_at_fault: 'yes' is not one of auto, 0, 1");
}

TEST(uvm_random_prefetcher_adds_at_most_one_page)
{
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 1, OPTS("hardware_prefetch", "3"), 2 << 20) == 0);
    for (int k = 0; k < 20; k++) uvm_h_access_wait(&h, 0, UVM_BASE + (uint64_t)k * 17 * PG, GMS_MREQ_READ);
    REQUIRE(uvm_h_run_idle(&h) == 0);
    double faults = uvm_h_stat(&h, "Page_tot_fault"), pf = uvm_h_stat(&h, "Uvm_pages_prefetched");
    CHECK(faults <= 20);
    CHECK(pf <= faults);
    CHECK(pf >= 1);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_pages_migrated_in"), faults + pf);
    uvm_h_free(&h);
}

static void on_bulk(void *ud) { ((uvm_h *)ud)->bulk_done++; }
static int bulks_done(void *ud) { return ((uvm_h *)ud)->bulk_done >= ((uvm_h *)ud)->want; }

static double evictions_after_fill(const char *policy, int tree_hole)
{
    /* allocation A (2 MiB) partly or fully prefetched until memory is full, then one fault in B */
    uvm_h h;
    const char *gddr = tree_hole ? "1966080" : "4MB";   /* 480 pages (30 leaves) or 1024 pages */
    if (uvm_h_init(&h, 1, OPTS("hardware_prefetch", "0", "hwprefetch_oversub", "0", "gddr_size", gddr,
                               "uvm_eviction", policy)))
        return -1;
    gms_uvm_alloc(h.u, UVM_BASE, 2 << 20, 1, "a", &h.err);
    gms_uvm_alloc(h.u, UVM_BASE + (2 << 20), 2 << 20, 1, "a2", &h.err);
    gms_uvm_alloc(h.u, UVM_BASE + (8 << 20), 64 << 10, 1, "b", &h.err);
    h.want = 2;
    if (tree_hole) {   /* leaves 0-1 and 4-31 of A: leaves 2-3 are absent */
        gms_uvm_prefetch(h.u, UVM_BASE, 128 << 10, on_bulk, &h);
        gms_uvm_prefetch(h.u, UVM_BASE + (256 << 10), (2 << 20) - (256 << 10), on_bulk, &h);
    } else {
        gms_uvm_prefetch(h.u, UVM_BASE, 2 << 20, on_bulk, &h);
        gms_uvm_prefetch(h.u, UVM_BASE + (2 << 20), 2 << 20, on_bulk, &h);
    }
    if (gms_engine_run(h.e, bulks_done, &h, 0, stderr, &h.err)) return -2;
    gms_uvm_kernel_begin(h.u, uvm_h_now(&h));
    uvm_h_access_wait(&h, 0, UVM_BASE + (8 << 20), GMS_MREQ_READ);
    uvm_h_run_idle(&h);
    double ev = uvm_h_stat(&h, "Uvm_evictions");
    uvm_h_free(&h);
    return ev;
}

TEST(uvm_eviction_granularity)
{
    CHECK_EQ(evictions_after_fill("lru4k", 0), 1);
    CHECK_EQ(evictions_after_fill("lru64k", 0), 16);
    CHECK_EQ(evictions_after_fill("lru2m", 0), 512);    /* the whole least recently used region */
    CHECK_EQ(evictions_after_fill("tree", 0), 16);      /* leaf 0; its sibling keeps node (0,1) at 50% */
    /* TE: leaf 0 goes; node (0-3) is then at 16/64 pages (< 50%), so leaf 1 goes as well */
    CHECK_EQ(evictions_after_fill("tree", 1), 32);
    CHECK_EQ(evictions_after_fill("lru64k", 1), 16);
    CHECK_EQ(evictions_after_fill("random", 0), 1);
}

TEST(uvm_prefetcher_switches_when_oversubscribed)
{
    /* 32 frames; tree prefetcher, -hwprefetch_oversub 0: leaves of 16 pages until memory is
     * full; the group that first needs an eviction still prefetches (its plan precedes the
     * trigger), later faults are on-demand */
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 1, OPTS("hardware_prefetch", "1", "hwprefetch_oversub", "0", "gddr_size", "128KB",
                                    "uvm_eviction", "lru4k", "page_fault_latency", "100"), 1 << 20) == 0);
    uvm_h_access_wait(&h, 0, UVM_BASE, GMS_MREQ_READ);
    uvm_h_access_wait(&h, 0, UVM_BASE + 16 * PG, GMS_MREQ_READ);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_oversubscribed"), 0);
    uvm_h_access_wait(&h, 0, UVM_BASE + 32 * PG, GMS_MREQ_READ);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_oversubscribed"), 1);
    /* (the fault at page 32 took leaf 2, and node 0-3 at 3/4 pulled in leaf 3 as well) */
    uvm_h_access_wait(&h, 0, UVM_BASE + 64 * PG, GMS_MREQ_READ);
    REQUIRE(uvm_h_run_idle(&h) == 0);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_pages_migrated_in"), 16 + 16 + 32 + 1);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_evictions"), 32 + 1);
    uvm_h_free(&h);
}

TEST(uvm_l2_tlb_and_walker_bound)
{
    /* device pages never fault; one walker: the second walk waits for the first */
    uvm_h h;
    REQUIRE(uvm_h_init(&h, 2, OPTS("uvm_max_concurrent_walks", "1", "uvm_l2_tlb_size", "64", "uvm_l2_tlb_assoc", "4",
                                   "uvm_l2_tlb_latency", "10")) == 0);
    REQUIRE(gms_uvm_alloc(h.u, UVM_BASE, 1 << 20, 1, "managed", &h.err) == 0);
    REQUIRE(gms_uvm_alloc(h.u, UVM_BASE + (4 << 20), 1 << 20, 0, "dev", &h.err) == 0);
    gms_uvm_kernel_begin(h.u, 0);
    int x = uvm_h_access(&h, 0, 0, UVM_BASE + (4 << 20), GMS_MREQ_READ, NULL);
    int y = uvm_h_access(&h, 0, 1, UVM_BASE + (4 << 20) + PG, GMS_MREQ_READ, NULL);
    REQUIRE(uvm_h_run_deliveries(&h, 2) == 0);
    CHECK_EQ(h.dcycle[x], 10 + 100);
    CHECK_EQ(h.dcycle[y], 10 + 100 + 100);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_walks_queued"), 1);
    uint64_t t0 = uvm_h_now(&h);
    int z = uvm_h_access(&h, 1, 0, UVM_BASE + (4 << 20), GMS_MREQ_READ, NULL);   /* other SM: L2 TLB hit */
    REQUIRE(uvm_h_run_deliveries(&h, 3) == 0);
    CHECK_EQ(h.dcycle[z], t0 + 10);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_l2_tlb_hit"), 1);
    /* extra L1 hit latency */
    uvm_h h2;
    REQUIRE(uvm_h_init(&h2, 1, OPTS("uvm_tlb_hit_latency", "3")) == 0);
    REQUIRE(gms_uvm_alloc(h2.u, UVM_BASE, 1 << 20, 0, "dev", &h2.err) == 0);
    REQUIRE(gms_uvm_alloc(h2.u, UVM_BASE + (4 << 20), 1 << 20, 1, "managed", &h2.err) == 0);
    uvm_h_access_wait(&h2, 0, UVM_BASE, GMS_MREQ_READ);
    t0 = uvm_h_now(&h2);
    int imm = 1;
    int w = uvm_h_access(&h2, 0, 0, UVM_BASE, GMS_MREQ_READ, &imm);
    CHECK_EQ(imm, 0);
    REQUIRE(uvm_h_run_deliveries(&h2, 2) == 0);
    CHECK_EQ(h2.dcycle[w], t0 + 3);
    uvm_h_free(&h);
    uvm_h_free(&h2);
}

static int cyclic_run(const char *const *opts, int n, int rounds)
{
    uvm_h h;
    if (uvm_h_init(&h, 1, opts)) { printf("    %s\n", h.err.msg); return -1; }
    gms_uvm_alloc(h.u, UVM_BASE, 1 << 20, 1, "a", &h.err);
    gms_uvm_kernel_begin(h.u, 0);
    for (int r = 0; r < rounds; r++)
        for (int k = 0; k < n; k++) {
            uvm_h_access_wait(&h, 0, UVM_BASE + (uint64_t)k * PG, GMS_MREQ_READ);
            uvm_h_access_wait(&h, 0, UVM_BASE + (uint64_t)k * PG + 128, GMS_MREQ_READ);  /* repeat: folded */
        }
    gms_uvm_kernel_end(h.u, uvm_h_now(&h));
    int f = (int)uvm_h_stat(&h, "Page_tot_fault");
    uvm_h_free(&h);
    return f;
}

TEST(uvm_belady_two_pass)
{
    char path[128];
    snprintf(path, sizeof path, "/tmp/gms_test_uvm_pages_%d.seq", (int)getpid());
    /* pass 1 under LRU records the page sequence; pass 2 replays it for Belady */
    CHECK_EQ(cyclic_run(OPTS("hardware_prefetch", "0", "hwprefetch_oversub", "0", "gddr_size", "24KB", "uvm_eviction", "lru4k",
                             "uvm_page_trace_out", path), 7, 3), 21);
    CHECK_EQ(cyclic_run(OPTS("hardware_prefetch", "0", "hwprefetch_oversub", "0", "gddr_size", "24KB", "uvm_eviction", "belady",
                             "uvm_belady_trace", path), 7, 3), 7 + 2);
    remove(path);
}

TEST(uvm_age_based_lru)
{
    /* capacity 2: pages 0, 1 migrated, page 0 re-read, then page 2 faults. Access-based LRU
     * evicts page 1; age-based (driver) evicts page 0, so the next access to 0 faults again */
    const char *base[] = { "hardware_prefetch", "0", "gddr_size", "8KB", "uvm_eviction", "lru4k", "uvm_lru_on_access",
                           "1", "hwprefetch_oversub", "0", NULL };
    for (int age = 0; age < 2; age++) {
        base[7] = age ? "0" : "1";
        uvm_h h;
        REQUIRE(uvm_h_start(&h, 1, base, 1 << 20) == 0);
        uvm_h_access_wait(&h, 0, UVM_BASE, GMS_MREQ_READ);
        uvm_h_access_wait(&h, 0, UVM_BASE + PG, GMS_MREQ_READ);
        uvm_h_access_wait(&h, 0, UVM_BASE, GMS_MREQ_READ);
        uvm_h_access_wait(&h, 0, UVM_BASE + 2 * PG, GMS_MREQ_READ);
        uvm_h_access_wait(&h, 0, UVM_BASE, GMS_MREQ_READ);
        CHECK_EQ(uvm_h_stat(&h, "Page_tot_fault"), age ? 4 : 3);
        uvm_h_free(&h);
    }
}

TEST(uvm_evict_whole_skips_partial_blocks)
{
    /* 32 frames = two 64 KiB blocks' worth. Page 0 alone (block 0, partial), pages 16-31
     * (block 1, whole), pages 32-46 (block 2, 15 of 16), in that order: memory is full. The
     * fault at page 48 needs a frame. SE takes the least recently used block's resident pages:
     * block 0's one page, and page 0 faults again when read (its frame then costs block 1: 1 + 16
     * evictions). Under -uvm_evict_whole 1 (UVMSmart's is_block_evictable) block 0 is partial,
     * so block 1 goes whole (16 evictions) and page 0 stays resident. */
    for (int whole = 0; whole < 2; whole++) {
        uvm_h h;
        REQUIRE(uvm_h_start(&h, 1, OPTS("hardware_prefetch", "0", "hwprefetch_oversub", "0", "gddr_size", "128KB",
                                        "uvm_eviction", "lru64k", "uvm_evict_whole", whole ? "1" : "0"), 1 << 20) == 0);
        uvm_h_access_wait(&h, 0, UVM_BASE, GMS_MREQ_READ);
        for (int pg = 16; pg < 47; pg++) uvm_h_access_wait(&h, 0, UVM_BASE + (uint64_t)pg * PG, GMS_MREQ_READ);
        CHECK_EQ(uvm_h_stat(&h, "Uvm_evictions"), 0);
        uvm_h_access_wait(&h, 0, UVM_BASE + 48 * PG, GMS_MREQ_READ);
        uvm_h_access_wait(&h, 0, UVM_BASE, GMS_MREQ_READ);
        REQUIRE(uvm_h_run_idle(&h) == 0);
        CHECK_EQ(uvm_h_stat(&h, "Uvm_evictions"), whole ? 16 : 1 + 16);
        CHECK_EQ(uvm_h_stat(&h, "Page_tot_fault"), whole ? 1 + 31 + 1 : 1 + 31 + 1 + 1);
        uvm_h_free(&h);
    }
}

TEST(uvm_lru_region_first_orders_blocks_by_region_recency)
{
    /* Two 2 MiB regions, A (pages 0-511) and B (512-1023); 3 frames, 4 KiB on demand. Pages 0
     * (A's block 0), 512 (B's block 0) and 16 (A's block 1) are read, then page 32 (A's block 2)
     * needs a frame. By the blocks' own recency SE and TE's first leaf take A's block 0 (page 0;
     * TE also takes page 16: A's node over leaves 0-1 is then under half valid), and page 0
     * faults again when read: 5 faults. Under -uvm_lru_region_first 1 (UVMSmart's
     * sort_valid_pages) region B, whose most recent block is older than A's, goes first: page
     * 512 is the victim and page 0 stays resident: 4 faults. */
    const char *pol[] = { "lru64k", "tree" };
    for (int k = 0; k < 2; k++)
        for (int rf = 0; rf < 2; rf++) {
            uvm_h h;
            REQUIRE(uvm_h_start(&h, 1, OPTS("hardware_prefetch", "0", "hwprefetch_oversub", "0", "gddr_size", "12KB",
                                            "uvm_eviction", pol[k], "uvm_lru_region_first", rf ? "1" : "0"),
                                4 << 20) == 0);
            const int seq[] = { 0, 512, 16, 32, 0 };
            for (int i = 0; i < 5; i++) uvm_h_access_wait(&h, 0, UVM_BASE + (uint64_t)seq[i] * PG, GMS_MREQ_READ);
            REQUIRE(uvm_h_run_idle(&h) == 0);
            CHECK_EQ(uvm_h_stat(&h, "Page_tot_fault"), rf ? 4 : 5);
            uvm_h_free(&h);
        }
}

TEST(uvm_random_pick_region_takes_a_wholly_resident_regions_first_page)
{
    /* Allocations A, B, C of 64 KiB: one region of 16 pages each. 32 frames; every page of A,
     * then of B read: memory full, both regions wholly resident. Under -uvm_random_pick region
     * (UVMSmart's code) the fault at C's page 0 takes the first page of A or of B (either may be
     * drawn) and drops that region's entry; the fault at C1 takes the other one's first page
     * (C is not wholly resident). Reading A5 (still resident) puts A back in the list, not
     * wholly resident. Then C2 and, 10 cycles later, C3 fault. C2's migration finds no region
     * wholly resident and nothing on the link: a random resident page goes instead
     * (Uvm_random_region_none; UVMSmart's reads would wait for ever). C3's finds C2's on the
     * link and waits (Uvm_random_region_waits), as UVMSmart's reads wait; C2's end checks
     * again, finds nothing whole and the link idle: a random page again. A0 and B0 then fault.
     * With the default (-uvm_random_pick page) every fault at C evicts one random page. */
    for (int region = 0; region < 2; region++) {
        uvm_h h;
        REQUIRE(uvm_h_init(&h, 1, OPTS("hardware_prefetch", "0", "hwprefetch_oversub", "0", "gddr_size", "128KB",
                                       "uvm_eviction", "random", "uvm_random_pick", region ? "region" : "page")) == 0);
        const uint64_t A = UVM_BASE, B = UVM_BASE + (1 << 20), C = UVM_BASE + (2 << 20);
        REQUIRE(gms_uvm_alloc(h.u, A, 64 << 10, 1, "a", &h.err) == 0);
        REQUIRE(gms_uvm_alloc(h.u, B, 64 << 10, 1, "b", &h.err) == 0);
        REQUIRE(gms_uvm_alloc(h.u, C, 64 << 10, 1, "c", &h.err) == 0);
        gms_uvm_kernel_begin(h.u, 0);
        for (int pg = 0; pg < 16; pg++) uvm_h_access_wait(&h, 0, A + (uint64_t)pg * PG, GMS_MREQ_READ);
        for (int pg = 0; pg < 16; pg++) uvm_h_access_wait(&h, 0, B + (uint64_t)pg * PG, GMS_MREQ_READ);
        CHECK_EQ(uvm_h_stat(&h, "Uvm_evictions"), 0);
        for (int pg = 0; pg < 2; pg++) uvm_h_access_wait(&h, 0, C + (uint64_t)pg * PG, GMS_MREQ_READ);
        CHECK_EQ(uvm_h_stat(&h, "Uvm_evictions"), 2);
        if (region) {
            CHECK_EQ(uvm_h_stat(&h, "Uvm_random_region_none"), 0);
            double f = uvm_h_stat(&h, "Uvm_far_faults");
            uvm_h_access_wait(&h, 0, A + 5 * PG, GMS_MREQ_READ);
            CHECK_EQ(uvm_h_stat(&h, "Uvm_far_faults"), f);
        }
        uvm_h_access(&h, 0, 0, C + 2 * PG, GMS_MREQ_READ, NULL);
        REQUIRE(uvm_h_run_until(&h, uvm_h_now(&h) + 10) == 0);
        uvm_h_access(&h, 0, 1, C + 3 * PG, GMS_MREQ_READ, NULL);
        REQUIRE(uvm_h_run_idle(&h) == 0);
        CHECK_EQ(uvm_h_stat(&h, "Uvm_evictions"), 4);
        if (region) {
            CHECK_EQ(uvm_h_stat(&h, "Uvm_random_region_none"), 2);
            CHECK_EQ(uvm_h_stat(&h, "Uvm_random_region_waits"), 1);
            double f = uvm_h_stat(&h, "Uvm_far_faults");
            uvm_h_access_wait(&h, 0, A, GMS_MREQ_READ);
            uvm_h_access_wait(&h, 0, B, GMS_MREQ_READ);
            CHECK_EQ(uvm_h_stat(&h, "Uvm_far_faults"), f + 2);
        }
        REQUIRE(uvm_h_run_idle(&h) == 0);
        CHECK_EQ(uvm_h_stat(&h, "Uvm_capacity_pages"), 32);
        uvm_h_free(&h);
    }
    uvm_h_expect_error(OPTS("uvm_random_pick", "block"), "-uvm_random_pick: 'block' is not one of page, region");
}

TEST(uvm_evict_whole_wait_waits_for_a_unit_to_become_whole)
{
    /* lru64k, -uvm_evict_whole 1, 4 KiB on demand, 32 frames, blocks of 16 pages. Blocks 0 and
     * 1 read whole (memory full); pages 32-46 (block 2: page 32 evicts block 0, the least
     * recently used whole block), 48 (block 3), then 64 (block 4: evicts block 1, whole) and
     * 65-78: 31 pages resident, no block whole, block 2 the least recently used. X = page 79
     * faults (a free frame: no eviction; its arrival makes block 4 whole), and 10 cycles later
     * Y = page 49, which needs a frame. With -uvm_evict_whole_wait 1 (UVMSmart's reads wait for
     * a unit to become whole) Y finds X's migration on the link and waits; X's end finds block 4
     * whole and evicts it (16 pages, X's page among them). Without, Y takes the least recently
     * used block's resident pages at once: block 2's 15. */
    for (int wait = 0; wait < 2; wait++) {
        uvm_h h;
        REQUIRE(uvm_h_start(&h, 1, OPTS("hardware_prefetch", "0", "hwprefetch_oversub", "0", "gddr_size", "128KB",
                                        "uvm_eviction", "lru64k", "uvm_evict_whole", "1",
                                        "uvm_evict_whole_wait", wait ? "1" : "0"), 320 << 10) == 0);
        for (int pg = 0; pg < 47; pg++) uvm_h_access_wait(&h, 0, UVM_BASE + (uint64_t)pg * PG, GMS_MREQ_READ);
        uvm_h_access_wait(&h, 0, UVM_BASE + 48 * PG, GMS_MREQ_READ);
        for (int pg = 64; pg < 79; pg++) uvm_h_access_wait(&h, 0, UVM_BASE + (uint64_t)pg * PG, GMS_MREQ_READ);
        REQUIRE(uvm_h_run_idle(&h) == 0);
        CHECK_EQ(uvm_h_stat(&h, "Uvm_evictions"), 32);
        uvm_h_access(&h, 0, 0, UVM_BASE + 79 * PG, GMS_MREQ_READ, NULL);
        REQUIRE(uvm_h_run_until(&h, uvm_h_now(&h) + 10) == 0);
        uvm_h_access(&h, 0, 1, UVM_BASE + 49 * PG, GMS_MREQ_READ, NULL);
        REQUIRE(uvm_h_run_idle(&h) == 0);
        CHECK_EQ(uvm_h_stat(&h, "Uvm_evictions"), wait ? 48 : 47);
        CHECK_EQ(uvm_h_stat(&h, "Uvm_evict_whole_fallbacks"), wait ? 0 : 1);
        if (wait) CHECK_EQ(uvm_h_stat(&h, "Uvm_evict_whole_waits"), 1);
        double f = uvm_h_stat(&h, "Uvm_far_faults");
        uvm_h_access_wait(&h, 0, UVM_BASE + (wait ? 32 : 79) * PG, GMS_MREQ_READ);   /* stayed */
        CHECK_EQ(uvm_h_stat(&h, "Uvm_far_faults"), f);
        uvm_h_access_wait(&h, 0, UVM_BASE + (wait ? 79 : 32) * PG, GMS_MREQ_READ);   /* went */
        CHECK_EQ(uvm_h_stat(&h, "Uvm_far_faults"), f + 1);
        uvm_h_free(&h);
    }
    uvm_h_expect_error(OPTS("uvm_evict_whole_wait", "1"), "-uvm_evict_whole_wait 1 needs -uvm_evict_whole 1");
}

/* The write-back rescue tests' start: 48 frames = three 64 KiB blocks, sequential-local
 * 64 KiB, SE, every victim written back. Blocks 0, 1, 2 fill memory (LRU in that order); faults
 * at pages 48 and 64 take blocks 0 and 1, each its own write-back: block 0's starts, block 1's
 * waits behind it (run 400 cycles in). The second fault's walk ends a cycle after the first's
 * (one miss a cycle into the GMMU), while block 0's write-back runs: -gms_uvm_evict_wb_count once
 * lets it choose block 1 then (UVMSmart's twice would wait for the write-back's end, when the
 * read of page 16 has made block 2 the least recently used). Victims stay present until their
 * write-back ends (-uvm_evict_invalid_at end): under UVMSmart's start, block 0 is absent from
 * its write-back's start and the tree prefetcher (the oversubscribed role's default) fetches it
 * again at the fault on page 64 (node 0-3 48 of 64 pages), a sequence of its own
 * (uvm_evict_invalid_at_start_refaults_during_the_writeback). 0, or -1 when the harness fails. */
static int rescue_start(uvm_h *h, const char *rescue, const char *keep)
{
    if (uvm_h_start(h, 1, OPTS("uvm_prefetcher", "seq", "gddr_size", "192KB", "uvm_eviction", "lru64k",
                               "invalidate_clean", "0", "page_fault_latency", "100", "uvm_evict_rescue", rescue,
                               "uvm_evict_tlb_keep", keep, "gms_uvm_evict_wb_count", "once",
                               "uvm_evict_invalid_at", "end"), 1 << 20))
        return -1;
    for (int pg = 0; pg < 48; pg += 16) uvm_h_access_wait(h, 0, UVM_BASE + (uint64_t)pg * PG, GMS_MREQ_READ);
    if (uvm_h_run_idle(h)) return -1;
    uvm_h_access(h, 0, 0, UVM_BASE + 48 * PG, GMS_MREQ_READ, NULL);
    uvm_h_access(h, 0, 1, UVM_BASE + 64 * PG, GMS_MREQ_READ, NULL);
    return uvm_h_run_until(h, uvm_h_now(h) + 400);
}

TEST(uvm_evict_rescue_cancels_a_queued_write_back)
{
    /* 48 frames = three 64 KiB blocks, sequential-local 64 KiB, SE, every victim written back.
     * Blocks 0, 1, 2 fill memory (LRU in that order). Faults at pages 48 and 64 take blocks 0
     * and 1, each its own write-back: block 0's starts, block 1's waits behind it. A read of
     * page 16 then finds block 1 still queued: under -uvm_evict_rescue 1 its write-back is
     * cancelled (16 pages stay, no fault) and SE chooses again: block 2, the least recently
     * used now. Without it page 16 faults again after its write-back. */
    for (int rescue = 0; rescue < 2; rescue++) {
        uvm_h h;
        REQUIRE(rescue_start(&h, rescue ? "1" : "0", "0") == 0);
        /* an eviction counts when its write-back starts (UVMSmart's Page_evict_dirty): block 0's */
        CHECK_EQ(uvm_h_stat(&h, "Uvm_evictions"), 16);
        CHECK_EQ(uvm_h_stat(&h, "Page_evict_not_dirty"), 16);
        CHECK_EQ(uvm_h_stat(&h, "Uvm_pages_written_back"), 0);   /* block 0's under way, block 1's queued */
        uvm_h_access_wait(&h, 0, UVM_BASE + 16 * PG, GMS_MREQ_READ);
        REQUIRE(uvm_h_run_idle(&h) == 0);
        if (rescue) {
            CHECK_EQ(uvm_h_stat(&h, "Uvm_evict_rescues"), 1);
            CHECK_EQ(uvm_h_stat(&h, "Uvm_evict_rescued_pages"), 16);
            CHECK_EQ(uvm_h_stat(&h, "Uvm_far_faults"), 5);          /* 0, 16, 32, 48, 64 */
            CHECK_EQ(uvm_h_stat(&h, "Uvm_evictions"), 32);          /* blocks 0 and 2; 1's was cancelled, never counted */
            CHECK_EQ(uvm_h_stat(&h, "Uvm_pages_written_back"), 32);
            double f = uvm_h_stat(&h, "Uvm_far_faults");
            uvm_h_access_wait(&h, 0, UVM_BASE + 20 * PG, GMS_MREQ_READ);   /* block 1 stayed */
            CHECK_EQ(uvm_h_stat(&h, "Uvm_far_faults"), f);
        } else {
            CHECK_EQ(uvm_h_stat(&h, "Uvm_faults_on_writeback"), 1);
            CHECK_EQ(uvm_h_stat(&h, "Uvm_far_faults"), 6);          /* page 16 again */
        }
        uvm_h_free(&h);
    }
    uvm_h_expect_error(OPTS("uvm_runtime", "batch", "uvm_evict_rescue", "1"),
                       "-uvm_evict_rescue 1 needs -uvm_runtime uvmsmart");
    uvm_h_expect_error(OPTS("uvm_evict_rescue", "1", "gms_uvm_evict_instant", "1"),
                       "-uvm_evict_rescue and -gms_uvm_evict_instant are both 1");
}

TEST(uvm_evict_rescue_by_a_prefetch)
{
    /* uvm_evict_rescue_cancels_a_queued_write_back's sequence up to block 1's write-back
     * queued; then, instead of a read, a prefetch finds block 1's pages. UVMSmart's user
     * prefetch sees them valid and cancels the write-back (check_write_stage_queue): with
     * -uvm_evict_rescue 1, a cudaMemPrefetchAsync of block 1 (mode 1) cancels it, SE chooses
     * block 2 instead, and the read of page 16 that follows does not fault (5 faults). The
     * hardware prefetcher's plan taking page 20 (mode 2) does not cancel it (UVMSmart's
     * do_hardware_prefetch plans invalid pages only): no rescue until the read of page 16
     * finds the write-back still queued and cancels it (5 faults). Without rescue (mode 0) the
     * prefetch counts the pages as present (UVMSmart's Tot_page_hit) and the read faults after
     * the write-back (6). */
    for (int mode = 0; mode < 3; mode++) {
        uvm_h h;
        REQUIRE(rescue_start(&h, mode ? "1" : "0", "0") == 0);
        CHECK_EQ(uvm_h_stat(&h, "Uvm_pages_written_back"), 0);
        if (mode == 2) {   /* what gms_uvm_migrate does around a prefetcher's plan */
            gms_uvm_pf_take(h.u, 20);
            gms_uvm_evict_check(h.u, 0, uvm_h_now(&h));
            gms_uvm_lanes_kick(h.u, uvm_h_now(&h));
            CHECK_EQ(uvm_h_stat(&h, "Uvm_evict_rescues"), 0);
            CHECK_EQ(h.u->pages[20].state, GMS_PG_WRITING);   /* skipped: its write-back waits */
        } else {
            h.bulk_done = 0;
            h.want = 1;
            gms_uvm_prefetch(h.u, UVM_BASE + 16 * PG, 16 * PG, on_bulk, &h);
            REQUIRE(gms_engine_run(h.e, bulks_done, &h, 0, stderr, &h.err) == 0);
        }
        if (mode == 1) CHECK_EQ(uvm_h_stat(&h, "Uvm_evict_rescues"), 1);
        uvm_h_access_wait(&h, 0, UVM_BASE + 16 * PG, GMS_MREQ_READ);
        REQUIRE(uvm_h_run_idle(&h) == 0);
        if (mode) CHECK_EQ(uvm_h_stat(&h, "Uvm_evict_rescues"), 1);
        CHECK_EQ(uvm_h_stat(&h, "Uvm_far_faults"), (mode ? 5 : 6));
        if (mode) CHECK_EQ(uvm_h_stat(&h, "Uvm_pages_written_back"), 32);   /* blocks 0 and 2 */
        else CHECK_EQ(uvm_h_stat(&h, "Uvm_faults_on_writeback"), 1);
        uvm_h_free(&h);
    }
}

TEST(uvm_evict_tlb_keep_rescues_on_a_tlb_hit)
{
    /* uvm_evict_rescue_cancels_a_queued_write_back's sequence, rescue on both times. Pages 0, 16
     * and 32 were read, so SM 0's TLB holds them. Victims leaving the TLBs when chosen (keep 0):
     * the read of page 16 misses, walks and then cancels; pages 0, 16 (blocks 0, 1 chosen) and 32
     * (block 2, chosen after the rescue) are shot down: 3 invalidations. Under
     * -uvm_evict_tlb_keep 1 (UVMSmart: at the write-back's start) the read hits the TLB and
     * cancels with no walk; block 0's write-back starts (page 0 goes), block 1's never does,
     * block 2's starts after the rescue (page 32 goes): 2 invalidations. */
    for (int keep = 0; keep < 2; keep++) {
        uvm_h h;
        REQUIRE(rescue_start(&h, "1", keep ? "1" : "0") == 0);
        CHECK_EQ(uvm_h_stat(&h, "Uvm_pages_written_back"), 0);
        CHECK_EQ(uvm_h_stat(&h, "Tlb_invalidate"), keep ? 1 : 2);
        double walks = uvm_h_stat(&h, "Uvm_walks"), hits = uvm_h_stat(&h, "Tlb_tot_hit");
        uvm_h_access_wait(&h, 0, UVM_BASE + 16 * PG, GMS_MREQ_READ);
        CHECK_EQ(uvm_h_stat(&h, "Uvm_walks") - walks, keep ? 0 : 1);
        CHECK_EQ(uvm_h_stat(&h, "Tlb_tot_hit") - hits, keep ? 1 : 0);
        CHECK_EQ(uvm_h_stat(&h, "Uvm_evict_rescues"), 1);
        REQUIRE(uvm_h_run_idle(&h) == 0);
        CHECK_EQ(uvm_h_stat(&h, "Uvm_far_faults"), 5);
        CHECK_EQ(uvm_h_stat(&h, "Uvm_pages_written_back"), 32);
        CHECK_EQ(uvm_h_stat(&h, "Tlb_invalidate"), keep ? 2 : 3);
        uvm_h_free(&h);
    }
    uvm_h_expect_error(OPTS("uvm_evict_tlb_keep", "1"), "-uvm_evict_tlb_keep 1 needs -uvm_evict_rescue 1");
}

