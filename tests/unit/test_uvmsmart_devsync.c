/* UVMSmart drop-in, device synchronisation (-uvm_sync_writeback 1): its cudaDeviceSynchronize
 * copies every dirty managed page back to the host, in calculate_devicesync_time's pieces (a
 * 4 KiB piece, then the rest of a chunk cycling 64, 64, 128, 256, 512 KiB, 1 MiB), and
 * invalidates them; clean pages stay valid. Times at 1481 MHz, 16 GB/s (4 KiB = 2605 cycles). */
#include "test_uvm_util.h"
#include "uvm/uvm_internal.h"

#define OPTS(...) (const char *const[]){ __VA_ARGS__, NULL }
#define PG 4096ULL

TEST(uvmsmart_devsync_pieces)
{
    uint64_t p[64];
    CHECK_EQ(gms_uvm_devsync_pieces(0, p, 64), 0);
    REQUIRE(gms_uvm_devsync_pieces(3 * PG, p, 64) == 2);            /* 4 KiB, then the 8 KiB left */
    CHECK_EQ(p[0], 4096);
    CHECK_EQ(p[1], 8192);
    REQUIRE(gms_uvm_devsync_pieces(16 * PG, p, 64) == 2);           /* exactly one 64 KiB chunk */
    CHECK_EQ(p[1], 61440);
    REQUIRE(gms_uvm_devsync_pieces(17 * PG, p, 64) == 3);           /* the next turn's 4 KiB piece */
    CHECK_EQ(p[2], 4096);
    /* 4 MiB: two cycles of six turns (64+64+128+256+512+1024 KiB = 2 MiB each), 24 pieces */
    REQUIRE(gms_uvm_devsync_pieces(4 << 20, p, 64) == 24);
    CHECK_EQ(p[10], 4096);
    CHECK_EQ(p[11], (1 << 20) - 4096);
    CHECK_EQ(p[12], 4096);
    CHECK_EQ(p[13], 61440);
}

static int sync_done;
static void on_done(void *ud) { (void)ud; sync_done++; }

TEST(uvmsmart_devsync_writes_back_dirty_pages_and_invalidates_them)
{
    /* pages 0 and 1 written, page 2 read; sync: 8 KiB dirty = 4 KiB + 4 KiB = 2 x 2605 cycles on
     * the D2H lane; then page 0 far-faults again and page 2 (clean) is still resident */
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 1, OPTS("hardware_prefetch", "0", "page_fault_latency", "10", "uvm_sync_writeback", "1"),
                        1 << 20) == 0);
    uvm_h_access_wait(&h, 0, UVM_BASE, GMS_MREQ_WRITE);
    uvm_h_access_wait(&h, 0, UVM_BASE + PG, GMS_MREQ_WRITE);
    uvm_h_access_wait(&h, 0, UVM_BASE + 2 * PG, GMS_MREQ_READ);
    REQUIRE(uvm_h_run_idle(&h) == 0);
    gms_uvm_kernel_end(h.u, uvm_h_now(&h));
    CHECK_EQ(uvm_h_stat(&h, "Page_tot_fault"), 3);
    sync_done = 0;
    CHECK_EQ(gms_uvm_device_sync(h.u, on_done, NULL), 1);
    CHECK_EQ(sync_done, 0);                                   /* never from inside the call */
    REQUIRE(uvm_h_run_idle(&h) == 0);
    CHECK_EQ(sync_done, 1);
    CHECK_EQ(uvm_h_stat(&h, "Tot_devicesync_time"), 2 * 2605);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_devsync_pages"), 2);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_pcie_d2h_bytes"), 2 * PG);
    CHECK_EQ(uvm_h_stat(&h, "Tot_memcpy_d2h_sync_wb_time"), 2 * 2605);
    gms_uvm_kernel_begin(h.u, uvm_h_now(&h));
    uvm_h_access_wait(&h, 0, UVM_BASE + 2 * PG, GMS_MREQ_READ);   /* clean: still valid */
    CHECK_EQ(uvm_h_stat(&h, "Page_tot_fault"), 3);
    uvm_h_access_wait(&h, 0, UVM_BASE, GMS_MREQ_READ);            /* written back: faults again */
    CHECK_EQ(uvm_h_stat(&h, "Page_tot_fault"), 4);
    /* UVM Smart's Page_tot_thrash counts in / evicted / in; the sync's invalidation is no
     * eviction (no mark), so page 0's second migration is no thrash */
    CHECK_EQ(uvm_h_stat(&h, "Page_tot_thrash"), 0);
    /* a second sync with nothing dirty: done through an event, no transfer */
    sync_done = 0;
    CHECK_EQ(gms_uvm_device_sync(h.u, on_done, NULL), 1);
    REQUIRE(uvm_h_run_idle(&h) == 0);
    CHECK_EQ(sync_done, 1);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_devsync_pages"), 2);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_devsyncs"), 2);
    uvm_h_free(&h);
}

TEST(uvmsmart_devsync_off_by_default)
{
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 1, OPTS("hardware_prefetch", "0"), 1 << 20) == 0);
    uvm_h_access_wait(&h, 0, UVM_BASE, GMS_MREQ_WRITE);
    sync_done = 0;
    CHECK_EQ(gms_uvm_device_sync(h.u, on_done, NULL), 0);
    REQUIRE(uvm_h_run_idle(&h) == 0);
    CHECK_EQ(sync_done, 0);
    CHECK_EQ(uvm_h_stat(&h, "Tot_devicesync_time"), -1);       /* not reported when off */
    uvm_h_free(&h);
    /* UVMSmart's libcuda only: the batch runtime (the real driver) leaves pages on the GPU */
    REQUIRE(uvm_h_start(&h, 1, OPTS("hardware_prefetch", "0", "uvm_runtime", "batch", "uvm_sync_writeback", "1"), 1 << 20) == 0);
    uvm_h_access_wait(&h, 0, UVM_BASE, GMS_MREQ_WRITE);
    CHECK_EQ(gms_uvm_device_sync(h.u, on_done, NULL), 0);
    uvm_h_free(&h);
}
