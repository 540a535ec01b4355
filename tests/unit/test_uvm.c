/* UVM: far-fault timing, MSHR merging, capacity, write-back, bulk prefetch, batches, bad input.
 * Expected values are computed by hand from the model in docs/uvm.md (1481 MHz core; UVMSmart's
 * PCIe curve: 4 KiB = 2605 cycles, 64 KiB = 8702 cycles, spec 000b 1.4). */
#include "test_uvm_util.h"
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#define PG 4096ULL
#define OPTS(...) (const char *const[]){ __VA_ARGS__, NULL }

TEST(uvm_pcie_curve_matches_spec_table)
{
    CHECK_EQ(uvm_h_pcie_cycles(4096), 2605);
    CHECK_EQ(uvm_h_pcie_cycles(65536), 8702);
    CHECK_EQ(uvm_h_pcie_cycles(2 << 20), 242080);
}

TEST(uvm_one_far_fault_time)
{
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 1, OPTS("hardware_prefetch", "0", "page_fault_latency", "1000",
                                    "page_table_walk_latency", "100"), 1 << 20) == 0);
    CHECK(gms_uvm_enabled(h.u));
    int imm = 1;
    int i = uvm_h_access(&h, 0, 0, UVM_BASE + 5 * PG + 64, GMS_MREQ_READ, &imm);
    CHECK_EQ(imm, 0);
    REQUIRE(uvm_h_run_deliveries(&h, 1) == 0);
    /* walk (100) + fault latency (1000) + 4 KiB transfer (2605) */
    CHECK_EQ(h.dcycle[i], 100 + 1000 + 2605);
    CHECK_EQ(uvm_h_stat(&h, "Page_tot_fault"), 1);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_pages_migrated_in"), 1);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_pcie_h2d_bytes"), 4096);
    CHECK_EQ(uvm_h_stat(&h, "Average_latency"), 1000 + 2605);   /* UVMSmart: demand far-fault latency */
    /* now resident: the next access to the page hits the TLB at once */
    int j = uvm_h_access(&h, 0, 0, UVM_BASE + 5 * PG, GMS_MREQ_READ, &imm);
    CHECK_EQ(imm, 1);
    CHECK(h.delivered[j]);
    CHECK_EQ(uvm_h_stat(&h, "Tlb_tot_hit"), 1);
    uvm_h_free(&h);
}

TEST(uvm_one_far_fault_tree_leaf)
{
    /* tree prefetcher: the fault on the last page of a 64 KiB leaf migrates the whole leaf in one
     * transfer (cut just after the faulted page = at the end of the leaf) */
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 1, OPTS("hardware_prefetch", "1", "page_fault_latency", "66645"), 4 << 20) == 0);
    int i = uvm_h_access(&h, 0, 0, UVM_BASE + 15 * PG, GMS_MREQ_READ, NULL);
    REQUIRE(uvm_h_run_deliveries(&h, 1) == 0);
    CHECK_EQ(h.dcycle[i], 100 + 66645 + 8702);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_pages_migrated_in"), 16);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_pages_prefetched"), 15);
    uvm_h_free(&h);
}

TEST(uvm_two_warps_one_page_one_migration)
{
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 2, OPTS("hardware_prefetch", "0", "page_fault_latency", "1000"), 1 << 20) == 0);
    int a = uvm_h_access(&h, 0, 3, UVM_BASE + 7 * PG, GMS_MREQ_READ, NULL);
    int b = uvm_h_access(&h, 1, 5, UVM_BASE + 7 * PG + 128, GMS_MREQ_WRITE, NULL);
    REQUIRE(uvm_h_run_until(&h, 500) == 0);
    int c = uvm_h_access(&h, 1, 6, UVM_BASE + 7 * PG + 256, GMS_MREQ_READ, NULL);   /* joins the fault */
    REQUIRE(uvm_h_run_deliveries(&h, 3) == 0);
    CHECK_EQ(h.dcycle[a], 100 + 1000 + 2605);
    CHECK_EQ(h.dcycle[b], h.dcycle[a]);
    CHECK_EQ(h.dcycle[c], h.dcycle[a]);
    CHECK_EQ(uvm_h_stat(&h, "Page_tot_fault"), 1);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_pages_migrated_in"), 1);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_walks"), 1);   /* one walk; UVMSmart walks each of the 3 misses */
    CHECK_EQ(uvm_h_stat(&h, "Page_table_tot_access"), 3);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_pcie_h2d_transfers"), 1);
    /* two warps stalled 3605 cycles from cycle 100, one from 500 */
    CHECK_EQ(uvm_h_stat(&h, "Uvm_fault_stall_warp_cycles"), 2 * 3605 + (3705 - 500));
    uvm_h_free(&h);
}

TEST(uvm_tree_prefetcher_fills_2mb_region)
{
    /* spec 000b 1.5: faults at leaves 0, 1, 2, 4, 8, 16 of a 2 MiB tree bring in the whole region */
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 1, OPTS("hardware_prefetch", "1", "page_fault_latency", "100"), 2 << 20) == 0);
    static const int leaves[] = { 0, 1, 2, 4, 8, 16 };
    static const int pages_after[] = { 16, 32, 64, 128, 256, 512 };  /* leaves valid x 16 pages */
    for (int k = 0; k < 6; k++) {
        REQUIRE(uvm_h_access_wait(&h, 0, UVM_BASE + (uint64_t)leaves[k] * 65536, GMS_MREQ_READ) != UINT64_MAX);
        REQUIRE(uvm_h_run_idle(&h) == 0);
        CHECK_EQ(uvm_h_stat(&h, "Uvm_pages_migrated_in"), pages_after[k]);
        CHECK_EQ(uvm_h_stat(&h, "Page_tot_fault"), k + 1);
    }
    /* every page is resident: no further fault */
    for (int pg = 0; pg < 512; pg += 7) uvm_h_access_wait(&h, 0, UVM_BASE + (uint64_t)pg * PG, GMS_MREQ_READ);
    CHECK_EQ(uvm_h_stat(&h, "Page_tot_fault"), 6);
    uvm_h_free(&h);
}

TEST(uvm_tree_prefetcher_512k_example)
{
    /* Fig. 4.3-like: 512 KiB allocation = one 8-leaf tree. Faults at leaves 0, 2, 4, 6 bring only
     * their own leaves (no node above 50%); the fault at leaf 1 fills 0-3 (3/4 > 1/2) and then the
     * root (6/8 > 1/2): the whole tree. */
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 1, OPTS("hardware_prefetch", "1", "page_fault_latency", "100"), 512 << 10) == 0);
    static const int leaves[] = { 0, 2, 4, 6, 1 };
    static const int pages_after[] = { 16, 32, 48, 64, 128 };
    for (int k = 0; k < 5; k++) {
        uvm_h_access_wait(&h, 0, UVM_BASE + (uint64_t)leaves[k] * 65536 + 3 * PG, GMS_MREQ_READ);
        REQUIRE(uvm_h_run_idle(&h) == 0);
        CHECK_EQ(uvm_h_stat(&h, "Uvm_pages_migrated_in"), pages_after[k]);
    }
    uvm_h_free(&h);
}

static int cyclic_faults(const char *policy, int cap_pages, int rounds)
{
    char gddr[32];
    snprintf(gddr, sizeof gddr, "%d", cap_pages * 4096);
    uvm_h h;
    if (uvm_h_init(&h, 1, OPTS("hardware_prefetch", "0", "hwprefetch_oversub", "0", "page_fault_latency", "50",
                               "gddr_size", gddr, "uvm_eviction", policy))) {
        printf("    %s\n", h.err.msg);
        return -1;
    }
    if (gms_uvm_alloc(h.u, UVM_BASE, 1 << 20, 1, "a", &h.err)) return -1;
    int n = cap_pages + 1;
    uint64_t *seq = malloc((size_t)(n * rounds) * sizeof *seq);
    for (int r = 0; r < rounds; r++)
        for (int k = 0; k < n; k++) seq[r * n + k] = UVM_BASE + (uint64_t)k * PG;
    gms_uvm_set_future(h.u, seq, (size_t)(n * rounds));
    gms_uvm_kernel_begin(h.u, 0);
    for (int i = 0; i < n * rounds; i++)
        if (uvm_h_access_wait(&h, 0, seq[i], GMS_MREQ_READ) == UINT64_MAX) return -1;
    int f = (int)uvm_h_stat(&h, "Page_tot_fault");
    free(seq);
    uvm_h_free(&h);
    return f;
}

TEST(uvm_cyclic_lru_vs_belady)
{
    /* capacity C = 8 pages, 9 pages accessed cyclically 4 times: LRU faults on every access;
     * Belady faults on the 9 compulsory misses and then once per round */
    CHECK_EQ(cyclic_faults("lru4k", 8, 4), 9 * 4);
    CHECK_EQ(cyclic_faults("belady", 8, 4), 9 + 3);
    CHECK_EQ(cyclic_faults("lru64k", 8, 4), 9 * 4);
}

/* Belady on 2 pages of memory, given the future `rec` but run on `run` (page letters; '|'
 * where a kernel begins: a kernel mark in the future, gms_uvm_kernel_begin in the run) */
static int belady_replay_faults(const char *rec, const char *run, const char *progress)
{
    uvm_h h;
    if (uvm_h_init(&h, 1, OPTS("hardware_prefetch", "0", "hwprefetch_oversub", "0", "page_fault_latency", "50",
                               "gddr_size", "8192", "uvm_eviction", "belady", "gms_uvm_belady_progress", progress))) {
        printf("    %s\n", h.err.msg);
        return -1;
    }
    if (gms_uvm_alloc(h.u, UVM_BASE, 1 << 20, 1, "a", &h.err)) return -1;
    uint64_t seq[16];
    size_t n = strlen(rec);
    for (size_t i = 0; i < n; i++)
        seq[i] = rec[i] == '|' ? GMS_UVM_KERNEL_MARK : UVM_BASE + (uint64_t)(rec[i] - 'A') * PG;
    gms_uvm_set_future(h.u, seq, n);
    if (run[0] != '|') gms_uvm_kernel_begin(h.u, 0);
    for (const char *c = run; *c; c++) {
        if (*c == '|') {
            if (c != run) gms_uvm_kernel_end(h.u, uvm_h_now(&h));
            gms_uvm_kernel_begin(h.u, uvm_h_now(&h));
        } else if (uvm_h_access_wait(&h, 0, UVM_BASE + (uint64_t)(*c - 'A') * PG, GMS_MREQ_READ) == UINT64_MAX)
            return -1;
    }
    int f = (int)uvm_h_stat(&h, "Page_tot_fault");
    uvm_h_free(&h);
    return f;
}

TEST(uvm_belady_progress_match)
{
    /* future B A C B A C A C (positions 0-7); the run misses the first B: A C B A C A C.
     * k-th occurrence: the run's B is matched with position 0, so B's next use looks like 3 (in
     * the past) and B stays; A and C evict each other: faults A C B, C (evicts A, next 6 > B's 3),
     * A (evicts C), C = 6. Progress: the run's B is its 3rd reference (at 2), nearest to recorded
     * position 3 (not 0): B is never used again and goes at the next fault: faults A C B, C
     * (evicts B), then A and C hit = 4. */
    CHECK_EQ(belady_replay_faults("BACBACAC", "ACBACAC", "0"), 6);
    CHECK_EQ(belady_replay_faults("BACBACAC", "ACBACAC", "1"), 4);
    /* the run as recorded, where both rules are MIN: B A C (C evicts A: A at 4, B at 3), B hits,
     * A (evicts B, never used again), then C A C hit = 4 */
    CHECK_EQ(belady_replay_faults("BACBACAC", "BACBACAC", "0"), 4);
    CHECK_EQ(belady_replay_faults("BACBACAC", "BACBACAC", "1"), 4);
}

TEST(uvm_belady_progress_reanchors_at_kernels)
{
    /* future: kernel 1 = B, kernel 2 = B C B D A C A (positions 0-7; the B B across the kernel
     * start is not folded); the run's kernel 1 is B D A, consuming D's only occurrence (4) and
     * A's first (5). Progress without the kernel mark runs on from 3 in kernel 2, past B's
     * occurrence 1 (B looks dead at 3 and is evicted by C, then refaults): faults B D A, C B D
     * A = 7. With the mark, kernel 2 starts at position 1: B matches 1 (next use 3) and C
     * evicts A (next 7) instead: B D A, C D A = 6. */
    CHECK_EQ(belady_replay_faults("|B|BCBDACA", "BDABCBDACA", "1"), 7);   /* one kernel begin */
    CHECK_EQ(belady_replay_faults("|B|BCBDACA", "|BDA|BCBDACA", "1"), 6);
}

TEST(uvm_batch_does_not_take_late_faults)
{
    /* batch runtime, 20 us = 29620 cycles of fault handling per batch. Fault A (walk done at
     * 100) starts batch 1; fault B (walk done at 400) arrives during it and waits for batch 2,
     * which starts when batch 1 has migrated its page. */
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 1, OPTS("uvm_runtime", "batch", "hardware_prefetch", "0", "uvm_fault_handling_us", "20"),
                        1 << 20) == 0);
    int a = uvm_h_access(&h, 0, 0, UVM_BASE, GMS_MREQ_READ, NULL);
    REQUIRE(uvm_h_run_until(&h, 300) == 0);
    int b = uvm_h_access(&h, 0, 1, UVM_BASE + 9 * PG, GMS_MREQ_READ, NULL);
    REQUIRE(uvm_h_run_deliveries(&h, 2) == 0);
    uint64_t end1 = 100 + 29620 + 2605;
    CHECK_EQ(h.dcycle[a], end1);
    CHECK_EQ(h.dcycle[b], end1 + 29620 + 2605);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_batches"), 2);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_batch_faults_mean"), 1);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_batch_time_mean"), 29620 + 2605);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_batch_fault_handling_mean"), 29620);
    uvm_h_free(&h);
}

TEST(uvm_pcie_utilization_is_per_busy_cycle)
{
    /* UVM Smart records speed / 16 GB/s for every busy cycle of a transfer and averages the
     * records: a time-weighted mean. One batch moves pages 0-1 (8 KiB) and page 5 (4 KiB):
     * (u8 x d8 + u4 x d4) / (d8 + d4), not (u8 + u4) / 2 */
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 1, OPTS("uvm_runtime", "batch", "hardware_prefetch", "0", "uvm_fault_handling_us", "20"),
                        1 << 20) == 0);
    uvm_h_access(&h, 0, 0, UVM_BASE, GMS_MREQ_READ, NULL);
    uvm_h_access(&h, 0, 1, UVM_BASE + PG, GMS_MREQ_READ, NULL);
    uvm_h_access(&h, 0, 2, UVM_BASE + 5 * PG, GMS_MREQ_READ, NULL);
    REQUIRE(uvm_h_run_deliveries(&h, 3) == 0);
    /* the curve's speed (GB/s, spec 000b 1.4: 2a/pi atan(b kB), a = 12, b = 0.07292) / 16 */
    double u8 = (float)(2.0 * 12.0 / M_PI * atan(0.07292 * 8.0)) / 16.0;
    double u4 = (float)(2.0 * 12.0 / M_PI * atan(0.07292 * 4.0)) / 16.0;
    uint64_t d8 = uvm_h_pcie_cycles(8192), d4 = uvm_h_pcie_cycles(4096);
    CHECK_EQ(d4, 2605);
    CHECK(u8 > u4 + 0.05);
    double want = (u8 * (double)d8 + u4 * (double)d4) / (double)(d8 + d4);
    double got = uvm_h_stat(&h, "Pcie_read_utilization");
    printf("    utilisation %.6f (time-weighted %.6f, per transfer %.6f)\n", got, want, (u8 + u4) / 2);
    CHECK(got > want - 1e-6 && got < want + 1e-6);
    CHECK_EQ(uvm_h_stat(&h, "Pcie_write_utilization"), 0);
    uvm_h_free(&h);
}

TEST(uvm_batch_takes_faults_present)
{
    /* three faults before the interrupt is serviced... all in the same cycle form one batch;
     * with the tree prefetcher off, the batch moves 3 pages (2 transfers: pages 0-1, page 5) */
    uvm_h h;
    char csv[128];
    snprintf(csv, sizeof csv, "/tmp/gms_test_uvm_batches_%d.csv", (int)getpid());
    REQUIRE(uvm_h_start(&h, 1, OPTS("uvm_runtime", "batch", "hardware_prefetch", "0", "uvm_fault_handling_us", "20",
                                    "uvm_batch_csv", csv), 1 << 20) == 0);
    uvm_h_access(&h, 0, 0, UVM_BASE, GMS_MREQ_READ, NULL);
    uvm_h_access(&h, 0, 1, UVM_BASE + PG, GMS_MREQ_READ, NULL);
    uvm_h_access(&h, 0, 2, UVM_BASE + 5 * PG, GMS_MREQ_READ, NULL);
    REQUIRE(uvm_h_run_deliveries(&h, 3) == 0);
    CHECK_EQ(h.dcycle[0], 100 + 29620 + uvm_h_pcie_cycles(8192));
    CHECK_EQ(h.dcycle[2], h.dcycle[0] + 2605);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_batches"), 1);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_batch_faults_mean"), 3);
    gms_uvm_kernel_end(h.u, h.dcycle[2]);
    uvm_h_free(&h);
    FILE *f = fopen(csv, "r");
    REQUIRE(f);
    char line[256];
    CHECK(fgets(line, sizeof line, f) != NULL);
    CHECK_CONTAINS(line, "batch,start,first_transfer,end,demand_faults");
    CHECK(fgets(line, sizeof line, f) != NULL);
    char want[128];
    snprintf(want, sizeof want, "0,100,29720,%llu,3,0,3,0", (unsigned long long)h.dcycle[2]);
    CHECK_STR(strtok(line, "\n"), want);
    fclose(f);
    remove(csv);
}

TEST(uvm_batch_drops_overflowed_fault_served_meanwhile)
{
    /* one-entry fault buffer, sequential-local prefetch of 16 KiB (pages 0-3). Fault A (page 0,
     * walk done at 100) starts batch 1; then B (page 1) takes the buffer and C (page 2) waits
     * behind it. Batch 1's prefetch brings pages 1 and 2 with page 0 (one transfer): A's, B's
     * and C's waiters are served at its end. Batch 2 reads B's entry (the driver reads what is
     * in its buffer; page 1 is resident, nothing moves); C's waiting fault has no waiter left
     * and does not enter the buffer: no third batch (it had one, and with page 2 evicted
     * since it migrated it, and its prefetch, for nobody). */
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 1, OPTS("uvm_runtime", "batch", "uvm_fault_handling_us", "20", "uvm_fault_buffer_size", "1",
                                    "uvm_prefetcher", "seq", "uvm_prefetch_size", "16KB"), 1 << 20) == 0);
    int a = uvm_h_access(&h, 0, 0, UVM_BASE, GMS_MREQ_READ, NULL);
    REQUIRE(uvm_h_run_until(&h, 300) == 0);
    int b = uvm_h_access(&h, 0, 1, UVM_BASE + PG, GMS_MREQ_READ, NULL);
    int c = uvm_h_access(&h, 0, 2, UVM_BASE + 2 * PG, GMS_MREQ_READ, NULL);
    REQUIRE(uvm_h_run_deliveries(&h, 3) == 0);
    uint64_t end1 = 100 + 29620 + uvm_h_pcie_cycles(4 * PG);
    CHECK_EQ(h.dcycle[a], end1);
    CHECK_EQ(h.dcycle[b], end1);
    CHECK_EQ(h.dcycle[c], end1);
    REQUIRE(uvm_h_run_idle(&h) == 0);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_fault_buffer_overflow"), 1);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_fault_buffer_stale"), 1);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_batches"), 2);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_batch_faults_mean"), 1);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_pages_migrated_in"), 4);
    uvm_h_free(&h);
}

static void dirty_case(int invalidate_clean, double *d2h, double *dirty, double *clean, double *wb)
{
    uvm_h h;
    const char *ic = invalidate_clean ? "1" : "0";
    *d2h = *dirty = *clean = *wb = -1;
    if (uvm_h_init(&h, 1, OPTS("hardware_prefetch", "0", "hwprefetch_oversub", "0", "page_fault_latency", "10",
                               "gddr_size", "8KB", "uvm_eviction", "lru4k", "invalidate_clean", ic))) return;
    gms_uvm_alloc(h.u, UVM_BASE, 1 << 20, 1, "a", &h.err);
    gms_uvm_kernel_begin(h.u, 0);
    uvm_h_access_wait(&h, 0, UVM_BASE, GMS_MREQ_WRITE);           /* page 0 dirty */
    uvm_h_access_wait(&h, 0, UVM_BASE + PG, GMS_MREQ_READ);       /* page 1 clean */
    uvm_h_access_wait(&h, 0, UVM_BASE + 2 * PG, GMS_MREQ_READ);   /* evicts page 0 */
    uvm_h_access_wait(&h, 0, UVM_BASE + 3 * PG, GMS_MREQ_READ);   /* evicts page 1 */
    uvm_h_run_idle(&h);
    *d2h = uvm_h_stat(&h, "Uvm_pcie_d2h_bytes");
    *dirty = uvm_h_stat(&h, "Page_evict_dirty");
    *clean = uvm_h_stat(&h, "Page_evict_not_dirty");
    *wb = uvm_h_stat(&h, "Uvm_pages_written_back");
    CHECK_EQ(uvm_h_stat(&h, "Tlb_invalidate"), 2);
    uvm_h_free(&h);
}

TEST(uvm_dirty_pages_written_back_clean_dropped)
{
    double d2h, dirty, clean, wb;
    dirty_case(1, &d2h, &dirty, &clean, &wb);
    CHECK_EQ(dirty, 1);
    CHECK_EQ(clean, 1);
    CHECK_EQ(d2h, 4096);
    CHECK_EQ(wb, 1);
    /* UVMSmart's configuration (-invalidate_clean 0) writes back every evicted page */
    dirty_case(0, &d2h, &dirty, &clean, &wb);
    CHECK_EQ(d2h, 8192);
    CHECK_EQ(wb, 2);
}

TEST(uvm_writeback_before_migrate_when_full_batch)
{
    /* driver runtime, capacity 1 page: the second fault must wait for the dirty victim's
     * write-back (4 KiB D2H) before its own migration starts */
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 1, OPTS("uvm_runtime", "batch", "hardware_prefetch", "0", "hwprefetch_oversub", "0",
                                    "uvm_fault_handling_us", "20", "gddr_size", "4KB", "uvm_eviction", "lru4k"),
                        1 << 20) == 0);
    uint64_t t1 = uvm_h_access_wait(&h, 0, UVM_BASE, GMS_MREQ_WRITE);
    CHECK_EQ(t1, 100 + 29620 + 2605);
    uint64_t t0 = uvm_h_now(&h);
    uint64_t t2 = uvm_h_access_wait(&h, 0, UVM_BASE + PG, GMS_MREQ_READ);
    CHECK_EQ(t2, t0 + 100 + 29620 + 2605 + 2605);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_batch_evictions"), 1);
    uvm_h_free(&h);
}

static void on_bulk(void *ud) { ((uvm_h *)ud)->bulk_done++; }
static int bulk_done(void *ud) { return ((uvm_h *)ud)->bulk_done > 0; }

TEST(uvm_bulk_prefetch_removes_faults)
{
    uvm_h h;
    REQUIRE(uvm_h_init(&h, 2, OPTS("hardware_prefetch", "1")) == 0);
    REQUIRE(gms_uvm_alloc(h.u, UVM_BASE, 1 << 20, 1, "a", &h.err) == 0);
    REQUIRE(gms_uvm_alloc(h.u, UVM_BASE + (4 << 20), 3 << 20, 1, "b", &h.err) == 0);
    gms_uvm_prefetch(h.u, UVM_BASE, 1 << 20, on_bulk, &h);
    gms_uvm_prefetch(h.u, UVM_BASE + (4 << 20), 3 << 20, on_bulk, &h);
    REQUIRE(gms_engine_run(h.e, bulk_done, &h, 0, stderr, &h.err) == 0);
    REQUIRE(uvm_h_run_idle(&h) == 0);
    CHECK_EQ(h.bulk_done, 2);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_pages_bulk_prefetched"), 256 + 768);
    /* two kernels over all the data: no far fault, residency kept across launches */
    for (int k = 0; k < 2; k++) {
        gms_uvm_kernel_begin(h.u, uvm_h_now(&h));
        for (uint64_t a = 0; a < (1 << 20); a += PG) uvm_h_access_wait(&h, k, UVM_BASE + a, GMS_MREQ_READ);
        for (uint64_t a = 0; a < (3 << 20); a += PG) uvm_h_access_wait(&h, k, UVM_BASE + (4 << 20) + a, GMS_MREQ_READ);
        gms_uvm_kernel_end(h.u, uvm_h_now(&h));
    }
    CHECK_EQ(uvm_h_stat(&h, "Page_tot_fault"), 0);
    CHECK_EQ(uvm_h_stat(&h, "Page_table_tot_access"), 2 * 1024);
    uvm_h_free(&h);
}

static void on_copy(void *ud) { ((uvm_h *)ud)->bulk_done++; }

TEST(uvm_memcpy_takes_pcie_time)
{
    uvm_h h;
    REQUIRE(uvm_h_init(&h, 1, NULL) == 0);
    REQUIRE(gms_uvm_alloc(h.u, UVM_BASE, 4 << 20, 0, "dev", &h.err) == 0);
    CHECK(!gms_uvm_enabled(h.u));
    gms_uvm_memcpy(h.u, UVM_BASE, 1 << 20, 1, on_copy, &h);
    REQUIRE(gms_engine_run(h.e, bulk_done, &h, 0, stderr, &h.err) == 0);
    CHECK_EQ(uvm_h_now(&h), 121560);           /* 1 MiB: spec 000b 1.4 table */
    h.bulk_done = 0;
    uint64_t t0 = uvm_h_now(&h);
    gms_uvm_memcpy(h.u, UVM_BASE, 2 << 20, 1, on_copy, &h);   /* >= 2 MiB: half speed (memcpy rule) */
    REQUIRE(gms_engine_run(h.e, bulk_done, &h, 0, stderr, &h.err) == 0);
    CHECK_EQ(uvm_h_now(&h) - t0, 2 * 242080);
    uvm_h_free(&h);
}

TEST(uvm_memcpy_half_speed_0_copies_at_the_curve_speed)
{
    /* the 2 MiB copy above without UVMSmart's halving: the curve's 242080 cycles (spec 000b 1.4) */
    uvm_h h;
    REQUIRE(uvm_h_init(&h, 1, OPTS("uvm_memcpy_half_speed", "0")) == 0);
    REQUIRE(gms_uvm_alloc(h.u, UVM_BASE, 4 << 20, 0, "dev", &h.err) == 0);
    gms_uvm_memcpy(h.u, UVM_BASE, 2 << 20, 1, on_copy, &h);
    REQUIRE(gms_engine_run(h.e, bulk_done, &h, 0, stderr, &h.err) == 0);
    CHECK_EQ(uvm_h_now(&h), 242080);
    uvm_h_free(&h);
    uvm_h_expect_error(OPTS("uvm_pcie_model", "linear", "uvm_memcpy_half_speed", "0"),
                       "-uvm_memcpy_half_speed 0: has no effect with -uvm_pcie_model linear");
}

TEST(uvm_oversub_ratio_capacity)
{
    uvm_h h;
    REQUIRE(uvm_h_init(&h, 1, OPTS("uvm_oversub_ratio", "1.25")) == 0);
    REQUIRE(gms_uvm_alloc(h.u, UVM_BASE, 1 << 20, 1, "a", &h.err) == 0);
    REQUIRE(gms_uvm_alloc(h.u, UVM_BASE + (2 << 20), 1 << 20, 1, "b", &h.err) == 0);
    gms_uvm_kernel_begin(h.u, 0);
    CHECK_EQ(gms_uvm_capacity_pages(h.u), 410);   /* 2 MiB / 1.25 / 4 KiB = 409.6, the nearest whole page */
    uvm_h_free(&h);
}

static const char *bad(const char *const *opts)
{
    static char msg[256];
    uvm_h h;
    int rc = uvm_h_init(&h, 1, opts);
    snprintf(msg, sizeof msg, "%.200s", rc ? h.err.msg : "(accepted)");
    uvm_h_free(&h);
    return msg;
}

TEST(uvm_bad_input)
{
    CHECK_CONTAINS(bad(OPTS("gddr_size", "1KB")), "below one page");
    CHECK_CONTAINS(bad(OPTS("uvm_oversub_ratio", "0.5")), "below 1.0");
    CHECK_CONTAINS(bad(OPTS("uvm_eviction", "mru")), "unknown eviction policy 'mru'");
    CHECK_CONTAINS(bad(OPTS("uvm_prefetcher", "stride")), "unknown prefetcher 'stride'");
    CHECK_CONTAINS(bad(OPTS("eviction_policy", "9")), "-eviction_policy");
    CHECK_CONTAINS(bad(OPTS("eviction_policy", "4")), "not implemented");
    CHECK_CONTAINS(bad(OPTS("uvm_prefetch_size", "6KB")), "not a multiple of the page size");
    CHECK_CONTAINS(bad(OPTS("page_size", "8KB")), "-page_size");
    CHECK_CONTAINS(bad(OPTS("uvm_runtime", "magic")), "unknown fault runtime");
    CHECK_CONTAINS(bad(OPTS("pcie_bandwidth", "20GB/s")), "-pcie_bandwidth");
    CHECK_CONTAINS(bad(OPTS("uvm_belady_trace", "/nonexistent/x.seq", "uvm_eviction", "belady")), "-uvm_belady_trace");
    CHECK_STR(bad(OPTS("uvm_prefetch_size", "512KB", "uvm_eviction", "lru")), "(accepted)");
    /* managed allocation not page aligned */
    uvm_h h;
    REQUIRE(uvm_h_init(&h, 1, NULL) == 0);
    CHECK(gms_uvm_alloc(h.u, UVM_BASE + 12, 4096, 1, "x", &h.err) != 0);
    CHECK_CONTAINS(h.err.msg, "not aligned");
    REQUIRE(gms_uvm_alloc(h.u, UVM_BASE, 8192, 1, "y", &h.err) == 0);
    CHECK(gms_uvm_alloc(h.u, UVM_BASE + 4096, 8192, 0, "z", &h.err) != 0);
    CHECK_CONTAINS(h.err.msg, "overlaps");
    uvm_h_free(&h);
}

TEST(uvm_capacity_below_one_page_at_launch)
{
    /* a ratio so large that footprint / ratio rounds to one page (at least one), all of it
     * reserved: nothing left for managed pages, the run stops with an error */
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 1, OPTS("uvm_oversub_ratio", "1000", "uvm_reserved_bytes", "4KB"), 64 << 10) == 0);
    uvm_h_access(&h, 0, 0, UVM_BASE, GMS_MREQ_READ, NULL);
    CHECK(uvm_h_run_deliveries(&h, 1) != 0);
    CHECK_CONTAINS(h.err.msg, "below one page");
    uvm_h_free(&h);
}

/* -gms_uvm_gmmu_intake (UVMSmart's cu_gmmu_queue): an SM cluster hands the GMMU its TLB-missed
 * accesses N a cycle, in order. Pages 0-3 are made resident through SM 1 (so SM 0's and SM 2's
 * TLBs are empty); at cycle T SM 0 misses on pages 0-2 and SM 2 on page 3: each walk takes 100
 * cycles from the cycle the GMMU takes its access. */
static void intake_case_cpc(const char *n, const char *cpc, uint64_t want[4], uint64_t *waits)
{
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 3, OPTS("hardware_prefetch", "0", "page_fault_latency", "1000",
                                    "page_table_walk_latency", "100", "gms_uvm_gmmu_intake", n,
                                    "gpgpu_n_cores_per_cluster", cpc), 1 << 20) == 0);
    for (int p = 0; p < 4; p++) (void)uvm_h_access_wait(&h, 1, UVM_BASE + (uint64_t)p * PG, GMS_MREQ_READ);
    uint64_t t = uvm_h_now(&h);
    double w0 = strcmp(n, "0") ? uvm_h_stat(&h, "Uvm_gmmu_intake_wait_cycles") : 0;
    int i[4];
    for (int p = 0; p < 3; p++) i[p] = uvm_h_access(&h, 0, (uint16_t)p, UVM_BASE + (uint64_t)p * PG + 64, GMS_MREQ_READ, NULL);
    i[3] = uvm_h_access(&h, 2, 0, UVM_BASE + 3 * PG + 64, GMS_MREQ_READ, NULL);
    REQUIRE(uvm_h_run_deliveries(&h, 8) == 0);
    for (int k = 0; k < 4; k++) want[k] = h.dcycle[i[k]] - t;
    *waits = strcmp(n, "0") ? (uint64_t)(uvm_h_stat(&h, "Uvm_gmmu_intake_wait_cycles") - w0) : 0;
    uvm_h_free(&h);
}
static void intake_case(const char *n, uint64_t want[4], uint64_t *waits) { intake_case_cpc(n, "1", want, waits); }

TEST(uvm_gmmu_intake_one_miss_per_cluster_per_cycle)
{
    uint64_t d[4], w;
    intake_case("1", d, &w);   /* UVMSmart: SM 0's misses walk from T, T + 1, T + 2 */
    CHECK_EQ(d[0], 100u);
    CHECK_EQ(d[1], 101u);
    CHECK_EQ(d[2], 102u);
    CHECK_EQ(d[3], 100u);      /* another cluster's queue */
    CHECK_EQ(w, 3u);           /* 1 + 2 cycles held */
    intake_case("2", d, &w);
    CHECK_EQ(d[0], 100u);
    CHECK_EQ(d[1], 100u);
    CHECK_EQ(d[2], 101u);
    CHECK_EQ(w, 1u);
    intake_case("0", d, &w);   /* every walk at once */
    CHECK_EQ(d[0], 100u);
    CHECK_EQ(d[2], 100u);
    CHECK_EQ(w, 0u);
    intake_case("auto", d, &w);   /* the uvmsmart runtime's own: 1 */
    CHECK_EQ(d[2], 102u);
    /* 3 SMs to a cluster (GPGPU-Sim's default): SM 2's miss queues behind SM 0's three */
    intake_case_cpc("1", "3", d, &w);
    CHECK_EQ(d[2], 102u);
    CHECK_EQ(d[3], 103u);
    CHECK_EQ(w, 6u);
    uvm_h_expect_error(OPTS("gms_uvm_gmmu_intake", "-1"), "-gms_uvm_gmmu_intake: '-1' is not auto or a number 0-64");
    uvm_h_expect_error(OPTS("gms_uvm_gmmu_intake", "65"), "is not auto or a number 0-64");
}

/* Belady with a managed allocation that arrives mid-run (a program that allocates after its
 * first kernel): 2 frames, no prefetching, the run follows its recorded future P Q R S R Q S Q
 * S Q exactly (P, Q in allocation a; R, S in b). MIN: P, Q, R (evicts P, never used again),
 * S (evicts Q, next used at 6, before R's 5), R hits, Q (evicts R, never used again), then
 * S Q S Q hit: 5 faults. It must not matter whether b was allocated
 * before the kernel or just before its first reference: the pages already known keep how far
 * their references have come (before 2026-12-05 the page table's growth reset every page to
 * its first occurrence, which gave 6 faults, and 9 instead of 6 under the k-th match). */
#define BELADY_B (UVM_BASE + (64ULL << 20))
static int belady_late_alloc(int late, const char *progress, const int *s, int n)
{
    uvm_h h;
    if (uvm_h_init(&h, 1, OPTS("hardware_prefetch", "0", "hwprefetch_oversub", "0", "page_fault_latency", "50",
                               "gddr_size", "8192", "uvm_eviction", "belady", "gms_uvm_belady_progress", progress)))
        return -1;
    int f = -1;
    uint64_t seq[16];
    int firstb = -1;
    for (int i = 0; i < n; i++) {
        seq[i] = s[i] < 2 ? UVM_BASE + (uint64_t)s[i] * 4096 : BELADY_B + (uint64_t)(s[i] - 2) * 4096;
        if (s[i] >= 2 && firstb < 0) firstb = i;
    }
    if (gms_uvm_alloc(h.u, UVM_BASE, 1 << 20, 1, "a", &h.err)) goto out;
    if (!late && gms_uvm_alloc(h.u, BELADY_B, 1 << 20, 1, "b", &h.err)) goto out;
    gms_uvm_set_future(h.u, seq, (size_t)n);
    gms_uvm_kernel_begin(h.u, 0);
    for (int i = 0; i < n; i++) {
        if (i == firstb && late && gms_uvm_alloc(h.u, BELADY_B, 1 << 20, 1, "b", &h.err)) goto out;
        if (uvm_h_access_wait(&h, 0, seq[i], GMS_MREQ_READ) == UINT64_MAX) goto out;
    }
    f = (int)uvm_h_stat(&h, "Page_tot_fault");
out:
    if (f < 0) printf("    %s\n", h.err.msg);
    uvm_h_free(&h);
    return f;
}

TEST(uvm_belady_allocation_mid_run_keeps_the_progress)
{
    static const int pqrs[] = { 0, 1, 2, 3, 2, 1, 3, 1, 3, 1 };   /* P Q R S R Q S Q S Q */
    CHECK_EQ(belady_late_alloc(0, "1", pqrs, 10), 5);
    CHECK_EQ(belady_late_alloc(1, "1", pqrs, 10), 5);
    CHECK_EQ(belady_late_alloc(0, "0", pqrs, 10), 5);
    CHECK_EQ(belady_late_alloc(1, "0", pqrs, 10), 5);
    static const int pqsr[] = { 0, 1, 3, 2, 1, 0, 2, 0, 3, 0 };   /* P Q S R Q P R P S P, k-th match */
    int early = belady_late_alloc(0, "0", pqsr, 10);
    CHECK(early > 0);
    CHECK_EQ(belady_late_alloc(1, "0", pqsr, 10), early);
}
