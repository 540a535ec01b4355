/* UVMSmart drop-in, counters: every counter carrying a UVMSmart name counts what its
 * gpgpu_new_stats counts (gpu-sim.cc print, shader.cc refresh_tlb / access_cycle, gmmu_t::cycle),
 * each on a small case computed by hand. Times at 1481 MHz with UVMSmart's PCIe curve
 * (4 KiB = 2605 cycles, 64 KiB = 8702). */
#include "test_uvm_util.h"
#include <stdlib.h>

#define OPTS(...) (const char *const[]){ __VA_ARGS__, NULL }
#define PG 4096ULL

TEST(uvmsmart_tlb_counters_fully_associative_lru)
{
    /* one SM, 2-entry TLB; pages A B C resident after their faults; then A again (evicted by C:
     * a miss whose walk hits), then A once more (TLB hit); one access to device memory */
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 1, OPTS("hardware_prefetch", "0", "page_fault_latency", "10", "tlb_size", "2"), 1 << 20) == 0);
    REQUIRE(gms_uvm_alloc(h.u, UVM_BASE + (64 << 20), 1 << 20, 0, "dev", &h.err) == 0);
    uint64_t A = UVM_BASE, B = UVM_BASE + PG, C = UVM_BASE + 2 * PG;
    uvm_h_access_wait(&h, 0, A, GMS_MREQ_READ);
    uvm_h_access_wait(&h, 0, B, GMS_MREQ_READ);
    uvm_h_access_wait(&h, 0, C, GMS_MREQ_READ);          /* fills C, evicts A */
    uvm_h_access_wait(&h, 0, A, GMS_MREQ_READ);          /* fills A, evicts B: A filled, evicted, filled */
    uvm_h_access_wait(&h, 0, A, GMS_MREQ_READ);          /* hit */
    uvm_h_access_wait(&h, 0, UVM_BASE + (64 << 20), GMS_MREQ_READ);   /* device memory */
    CHECK_EQ(uvm_h_stat(&h, "Tlb_tot_access"), 5);       /* managed pages only */
    CHECK_EQ(uvm_h_stat(&h, "Uvm_tlb_lookups"), 6);
    CHECK_EQ(uvm_h_stat(&h, "Tlb_tot_hit"), 1);
    CHECK_EQ(uvm_h_stat(&h, "Tlb_tot_miss"), 4);
    CHECK_NEAR(uvm_h_stat(&h, "Tlb_tot_hit_rate"), 0.2, 1e-12);
    CHECK_EQ(uvm_h_stat(&h, "Tlb_tot_valiate"), 4);      /* A B C A */
    CHECK_EQ(uvm_h_stat(&h, "Tlb_tot_evict"), 2);        /* A by C, B by A; the device entry's victim C is not
                                                            counted: UVMSmart's TLB holds managed pages only */
    CHECK_EQ(uvm_h_stat(&h, "Tlb_tot_evict_page"), 0);
    CHECK_EQ(uvm_h_stat(&h, "Tlb_invalidate"), 2);       /* capacity evictions + shootdowns */
    CHECK_EQ(uvm_h_stat(&h, "Tlb_tot_thrash"), 1);       /* A: fill, evict, fill */
    CHECK_EQ(uvm_h_stat(&h, "Page_table_tot_access"), 4);
    CHECK_EQ(uvm_h_stat(&h, "Page_tot_hit"), 1);         /* A's second walk */
    CHECK_EQ(uvm_h_stat(&h, "Page_tot_miss"), 3);
    CHECK_NEAR(uvm_h_stat(&h, "Page_tot_hit_rate"), 0.25, 1e-12);
    CHECK_EQ(uvm_h_stat(&h, "Page_tot_fault"), 3);
    CHECK_EQ(uvm_h_stat(&h, "Page_tot_pending"), 0);
    CHECK_EQ(uvm_h_stat(&h, "Page_validate"), 3);
    uvm_h_free(&h);
}

TEST(uvmsmart_page_table_counts_every_miss)
{
    /* a (SM 0) and b (SM 1) miss on one page in the same cycle, c (SM 1) misses at 500 while the
     * fault is pending: UVMSmart walks all three; the first is the fault, the others pending */
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 2, OPTS("hardware_prefetch", "0", "page_fault_latency", "1000"), 1 << 20) == 0);
    uvm_h_access(&h, 0, 3, UVM_BASE + 7 * PG, GMS_MREQ_READ, NULL);
    uvm_h_access(&h, 1, 5, UVM_BASE + 7 * PG + 128, GMS_MREQ_WRITE, NULL);
    REQUIRE(uvm_h_run_until(&h, 500) == 0);
    uvm_h_access(&h, 1, 6, UVM_BASE + 7 * PG + 256, GMS_MREQ_READ, NULL);
    REQUIRE(uvm_h_run_deliveries(&h, 3) == 0);
    CHECK_EQ(uvm_h_stat(&h, "Page_table_tot_access"), 3);
    CHECK_EQ(uvm_h_stat(&h, "Page_tot_hit"), 0);
    CHECK_EQ(uvm_h_stat(&h, "Page_tot_miss"), 3);
    CHECK_EQ(uvm_h_stat(&h, "Page_tot_fault"), 1);
    CHECK_EQ(uvm_h_stat(&h, "Page_tot_pending"), 2);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_walks"), 1);             /* ours: b shares a's walk, c joins the fault */
    CHECK_EQ(uvm_h_stat(&h, "Tlb_tot_valiate"), 2);       /* one fill per SM: c's SM already has it */
    CHECK_EQ(uvm_h_stat(&h, "Total_memory_access_page_fault"), 1);
    CHECK_EQ(uvm_h_stat(&h, "Average_latency"), 1000 + 2605);
    uvm_h_free(&h);
}

TEST(uvmsmart_shootdown_and_page_thrash)
{
    /* one page of device memory, LRU 4 KiB: B's fault evicts A (clean: dropped), whose entry is
     * shot down; A again is a second migration of A */
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 1, OPTS("hardware_prefetch", "0", "page_fault_latency", "10", "gddr_size", "4KB",
                                    "eviction_policy", "5", "invalidate_clean", "1"), 1 << 20) == 0);
    uvm_h_access_wait(&h, 0, UVM_BASE, GMS_MREQ_READ);
    uvm_h_access_wait(&h, 0, UVM_BASE + PG, GMS_MREQ_READ);
    uvm_h_access_wait(&h, 0, UVM_BASE, GMS_MREQ_READ);
    /* every evicted page was in SM 0's TLB: one shootdown each (the model evicts a third time
     * here, after A's return; the counters must follow the evictions, whatever their number) */
    double ev = uvm_h_stat(&h, "Uvm_evictions");
    CHECK(ev >= 2);
    CHECK_EQ(uvm_h_stat(&h, "Tlb_tot_evict_page"), ev);
    CHECK_EQ(uvm_h_stat(&h, "Tlb_tot_evict"), 0);
    CHECK_EQ(uvm_h_stat(&h, "Tlb_invalidate"), ev);
    CHECK_EQ(uvm_h_stat(&h, "Tlb_tot_thrash"), 0);       /* a shootdown is not a TLB eviction */
    CHECK_EQ(uvm_h_stat(&h, "Page_evict_not_dirty"), ev);
    CHECK_EQ(uvm_h_stat(&h, "Page_validate"), 3);
    CHECK_EQ(uvm_h_stat(&h, "Page_tot_thrash"), 1);      /* A: in, out, in */
    CHECK_EQ(uvm_h_stat(&h, "Page_tot_fault"), 3);
    CHECK_EQ(uvm_h_stat(&h, "dma_read"), 0);
    uvm_h_free(&h);
}

TEST(uvmsmart_kernel_plus_fault_time)
{
    /* -enable_accurate_simulation 0: the fault costs nothing in the run (walk 100 + 4 KiB 2605);
     * the plotted runtime adds faults x -page_fault_latency */
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 1, OPTS("hardware_prefetch", "0", "page_fault_latency", "1000",
                                    "enable_accurate_simulation", "0"), 1 << 20) == 0);
    uint64_t t = uvm_h_access_wait(&h, 0, UVM_BASE, GMS_MREQ_READ);
    CHECK_EQ(t, 2705);
    gms_uvm_kernel_end(h.u, t);
    CHECK_EQ(uvm_h_stat(&h, "Tot_kernel_exec_time"), 2705);
    CHECK_EQ(uvm_h_stat(&h, "Tot_kernel_exec_time_and_fault_time"), 2705 + 1000);
    /* a second kernel adds its own time */
    gms_uvm_kernel_begin(h.u, 3000);
    gms_uvm_kernel_end(h.u, 3500);
    CHECK_EQ(uvm_h_stat(&h, "Tot_kernel_exec_time"), 2705 + 500);
    uvm_h_free(&h);
    /* accurate (ours): the latency is already inside the kernel time */
    REQUIRE(uvm_h_start(&h, 1, OPTS("hardware_prefetch", "0", "page_fault_latency", "1000"), 1 << 20) == 0);
    t = uvm_h_access_wait(&h, 0, UVM_BASE, GMS_MREQ_READ);
    gms_uvm_kernel_end(h.u, t);
    CHECK_EQ(uvm_h_stat(&h, "Tot_kernel_exec_time"), 3705);
    CHECK_EQ(uvm_h_stat(&h, "Tot_kernel_exec_time_and_fault_time"), 3705);
    uvm_h_free(&h);
}

static void on_done(void *ud) { ((uvm_h *)ud)->bulk_done++; }
static int done_yet(void *ud) { return ((uvm_h *)ud)->bulk_done > 0; }

TEST(uvmsmart_prefetch_and_memcpy_counters)
{
    /* page 0 is faulted in first; cudaMemPrefetchAsync of pages 0..15 then finds 1 valid page
     * and moves 15 in one chunk (61440 bytes) */
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 1, OPTS("hardware_prefetch", "0", "page_fault_latency", "10"), 1 << 20) == 0);
    uvm_h_access_wait(&h, 0, UVM_BASE, GMS_MREQ_READ);
    gms_uvm_prefetch(h.u, UVM_BASE, 16 * PG, on_done, &h);
    REQUIRE(gms_engine_run(h.e, done_yet, &h, 0, stderr, &h.err) == 0);
    uint64_t x = uvm_h_pcie_cycles(15 * PG);
    CHECK_EQ(uvm_h_stat(&h, "Tot_page_hit"), 1);
    CHECK_EQ(uvm_h_stat(&h, "Tot_page_miss"), 15);
    CHECK_EQ(uvm_h_stat(&h, "Tot_page_fault"), 1);          /* chunks */
    CHECK_EQ(uvm_h_stat(&h, "Avg_prefetch_size"), 15 * PG);
    CHECK_EQ(uvm_h_stat(&h, "Avg_prefetch_latency"), x);
    CHECK_EQ(uvm_h_stat(&h, "Avg_page_latency"), x);
    CHECK_EQ(uvm_h_stat(&h, "Tot_prefetch_time"), x);
    /* a 4 KiB copy each way */
    h.bulk_done = 0;
    gms_uvm_memcpy(h.u, UVM_BASE, PG, 1, on_done, &h);
    REQUIRE(gms_engine_run(h.e, done_yet, &h, 0, stderr, &h.err) == 0);
    h.bulk_done = 0;
    gms_uvm_memcpy(h.u, UVM_BASE, PG, 0, on_done, &h);
    REQUIRE(gms_engine_run(h.e, done_yet, &h, 0, stderr, &h.err) == 0);
    CHECK_EQ(uvm_h_stat(&h, "Tot_memcpy_h2d_time"), 2605);
    CHECK_EQ(uvm_h_stat(&h, "Tot_memcpy_d2h_time"), 2605);
    CHECK_EQ(uvm_h_stat(&h, "Tot_memcpy_time"), 2 * 2605);
    uvm_h_free(&h);
}
