/* UVMSmart drop-in, allocation rounding (-uvm_alloc_round 1): its cudaMallocManaged rounds the
 * size to full 2 MiB regions + the remainder rounded up to a power of two >= 64 KiB, and every
 * page of the rounded size is managed, so the tree prefetcher migrates pages past the
 * program's last byte. Hand-computed on a 160 KiB allocation (40 pages, rounded to 256 KiB:
 * one region of four 64 KiB leaves, 16 pages each). */
#include "test_uvm_util.h"
#include "uvm/uvm_internal.h"

#define OPTS(...) (const char *const[]){ __VA_ARGS__, NULL }
#define PG 4096ULL

TEST(uvmsmart_round_alloc_sizes)
{
    CHECK_EQ(gms_uvm_round_alloc(1), 64 << 10);
    CHECK_EQ(gms_uvm_round_alloc(64 << 10), 64 << 10);
    CHECK_EQ(gms_uvm_round_alloc((64 << 10) + 1), 128 << 10);
    CHECK_EQ(gms_uvm_round_alloc(160 << 10), 256 << 10);
    CHECK_EQ(gms_uvm_round_alloc(2 << 20), 2 << 20);
    CHECK_EQ(gms_uvm_round_alloc((2 << 20) + 100), (2 << 20) + (64 << 10));
    CHECK_EQ(gms_uvm_round_alloc((4 << 20) + (600 << 10)), (4 << 20) + (1 << 20));   /* fdtd-2d's 4.6 MB arrays */
}

/* faults on leaves 0, 1, 2 one after the other: after leaf 2 the root holds more than half of
 * its pages, so the tree prefetcher fills the whole root */
static double migrated_rt(const char *runtime, int round, double *pages_alloc)
{
    uvm_h h;
    *pages_alloc = -1;
    if (uvm_h_start(&h, 1, OPTS("hardware_prefetch", "1", "page_fault_latency", "10", "uvm_runtime", runtime,
                                "uvm_alloc_round", round ? "1" : "0"), 160 << 10)) return -1;
    uvm_h_access_wait(&h, 0, UVM_BASE, GMS_MREQ_READ);             /* leaf 0: 16 pages */
    uvm_h_access_wait(&h, 0, UVM_BASE + 16 * PG, GMS_MREQ_READ);   /* leaf 1: 16 pages; root 32 of 64, not > half */
    uvm_h_access_wait(&h, 0, UVM_BASE + 32 * PG, GMS_MREQ_READ);   /* leaf 2, then the root is > half full */
    CHECK(uvm_h_run_idle(&h) == 0);
    double m = uvm_h_stat(&h, "Uvm_pages_migrated_in");
    *pages_alloc = uvm_h_stat(&h, "Uvm_footprint_bytes");
    CHECK_EQ(uvm_h_stat(&h, "Page_tot_fault"), 3);
    /* three pages touched of the program's 40 (the rounding's 24 padding pages are not
     * allocated pages for the touch rate, spec 000b) */
    CHECK_EQ(uvm_h_stat(&h, "Uvm_page_touch_rate"), 3.0 / 40);
    uvm_h_free(&h);
    return m;
}

static double migrated(int round, double *pages_alloc) { return migrated_rt("uvmsmart", round, pages_alloc); }

TEST(uvmsmart_round_alloc_tree_prefetch_reaches_past_the_end)
{
    double fp;
    /* without rounding leaf 2 holds pages 32..39 only and leaf 3 none: 16 + 16 + 8 = 40 pages */
    CHECK_EQ(migrated(0, &fp), 40);
    CHECK_EQ(fp, 160 << 10);
    /* UVMSmart: leaf 2 is pages 32..47 (8 past the end), root 48 > 32 fills leaf 3 (48..63): 64 */
    CHECK_EQ(migrated(1, &fp), 64);
    CHECK_EQ(fp, 160 << 10);            /* the footprint stays the program's bytes */
    /* a libcuda artefact: the batch runtime (the real driver) ignores it */
    CHECK_EQ(migrated_rt("batch", 1, &fp), 40);
}

TEST(uvmsmart_round_alloc_rejects_overlap_of_the_rounded_tail)
{
    /* the rounded tail is the allocation's: an allocation inside it overlaps */
    uvm_h h;
    REQUIRE(uvm_h_init(&h, 1, OPTS("uvm_alloc_round", "1")) == 0);
    REQUIRE(gms_uvm_alloc(h.u, UVM_BASE, 160 << 10, 1, "a", &h.err) == 0);
    CHECK(gms_uvm_alloc(h.u, UVM_BASE + (192 << 10), 4096, 1, "b", &h.err) != 0);
    CHECK(gms_uvm_alloc(h.u, UVM_BASE + (256 << 10), 4096, 1, "c", &h.err) == 0);
    uvm_h_free(&h);
}
