/* CAPTURE (spec 000b 2.2-2.4): CAP's granularity and first-page checks, TURE's lease countdown,
 * recall and both triggers, and the -uvm_policy presets, hand-computed. */
#include "test_uvm_util.h"
#include "uvm/prefetch_cap.h"
#include "uvm/uvm_internal.h"
#include <string.h>

extern const gms_config_module gms_config_module_uvm;

#define PG 4096ULL
#define KB 1024ULL
#define MB (1024ULL * 1024ULL)
#define OPTS(...) (const char *const[]){ __VA_ARGS__, NULL }

TEST(uvm_cap_granularity_rule)
{
    /* G = avail x req / (agg x 1.1), down to 64K..1M, at most the largest candidate <= req */
    CHECK_EQ(gms_cap_granularity(1024 * MB, 4 * MB, 12 * MB, 1.1, 64 * KB, MB), MB);        /* 310 MiB -> 1 MiB */
    CHECK_EQ(gms_cap_granularity(2 * MB, 4 * MB, 12 * MB, 1.1, 64 * KB, MB), 512 * KB);     /* 620.6 KiB */
    CHECK_EQ(gms_cap_granularity(462 * KB, 4 * MB, 4 * MB, 1.1, 64 * KB, MB), 256 * KB);    /* 420 KiB (the seed's example) */
    CHECK_EQ(gms_cap_granularity(1024 * MB, 220 * KB, 12 * MB, 1.1, 64 * KB, MB), 128 * KB); /* small allocation: 220 KiB */
    CHECK_EQ(gms_cap_granularity(1024 * MB, 16 * KB, 12 * MB, 1.1, 64 * KB, MB), 64 * KB);   /* below 64 KiB */
    CHECK_EQ(gms_cap_granularity(10 * KB, 4 * MB, 4 * MB, 1.1, 64 * KB, MB), 64 * KB);       /* G below the minimum */
    CHECK_EQ(gms_cap_granularity(70 * KB, 4 * MB, 4 * MB, 1.0, 64 * KB, MB), 64 * KB);       /* c = 1: 70 KiB -> 64 */
    CHECK_EQ(gms_cap_granularity(1024 * MB, 4 * MB, 4 * MB, 1.1, 64 * KB, 2 * MB), 2 * MB);  /* -uvm_cap_max 2MB */
}

static double migrated_after(uvm_h *h, uint64_t page)
{
    uvm_h_access_wait(h, 0, UVM_BASE + page * PG, GMS_MREQ_READ);
    uvm_h_run_idle(h);
    return uvm_h_stat(h, "Uvm_pages_migrated_in");
}

TEST(uvm_cap_granularity_shrinks_with_free_memory)
{
    /* one 4 MiB allocation (Magg = Mreq), 2 MiB of device memory (512 frames). Free frames at
     * each fault, minus the faulted page: 511, 255, 127, 63, 31, 15 pages; G = free x 4 KiB / 1.1
     * = 1858, 927, 462, 229, 113, 55 KiB -> 1M, 512K, 256K, 128K, 64K, 64K windows */
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 1, OPTS("uvm_policy", "capture", "gddr_size", "2MB",
                                    "page_fault_latency", "100"), 4 * MB) == 0);
    CHECK_EQ(migrated_after(&h, 0), 256);
    CHECK_EQ(migrated_after(&h, 256), 256 + 128);
    CHECK_EQ(migrated_after(&h, 384), 384 + 64);
    CHECK_EQ(migrated_after(&h, 448), 448 + 32);
    CHECK_EQ(migrated_after(&h, 480), 480 + 16);
    CHECK_EQ(migrated_after(&h, 496), 496 + 16);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_evictions"), 0);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_oversubscribed"), 0);
    CHECK_NEAR(uvm_h_stat(&h, "Uvm_cap_avg_granularity"), (1024.0 + 512 + 256 + 128 + 64 + 64) * 1024 / 6, 1e-6);
    /* full: the next fault takes 64 KiB (no free memory) and sets the oversubscribed mode;
     * TURE makes room with 4 granules (no lease has expired: the 4 least recently used blocks) */
    CHECK_EQ(migrated_after(&h, 512), 512 + 16);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_oversubscribed"), 1);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_evictions"), 64);
    /* oversubscribed: 512 KiB windows; the window [2.5 MiB, 3 MiB) of page 700 is 128 pages */
    double before = uvm_h_stat(&h, "Uvm_pages_migrated_in");
    CHECK_EQ(migrated_after(&h, 700) - before, 128);
    uvm_h_free(&h);
}

static void on_bulk(void *ud) { ((uvm_h *)ud)->bulk_done++; }
static int bulk_is_done(void *ud) { return ((uvm_h *)ud)->bulk_done >= 1; }

TEST(uvm_cap_checks_the_first_page_of_each_chunk)
{
    /* 128 KiB windows (cap_max); page 64 (first of chunk 4) is made resident beforehand. The fault
     * at page 80 covers chunks 4 and 5: chunk 4 is skipped on its first page, chunk 5 (the
     * fault's own) comes whole. The fault at page 70 then takes the rest of chunk 4 (its own). */
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 1, OPTS("uvm_prefetcher", "cap", "uvm_cap_max", "128KB", "page_fault_latency", "100"),
                        1 * MB) == 0);
    gms_uvm_prefetch(h.u, UVM_BASE + 64 * PG, PG, on_bulk, &h);
    REQUIRE(gms_engine_run(h.e, bulk_is_done, &h, 0, stderr, &h.err) == 0);
    CHECK_EQ(migrated_after(&h, 80), 1 + 16);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_cap_presence_checks"), 1);
    CHECK_EQ(migrated_after(&h, 70), 1 + 16 + 15);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_cap_presence_checks"), 2);
    uvm_h_free(&h);
}

static void touch(uvm_h *h, uint64_t page) { uvm_h_access_wait(h, 0, UVM_BASE + page * PG, GMS_MREQ_READ); }

/* TURE with the sampler always on (periods of 100000 cycles), no prefetching, one more option
 * pair; period 0 references block 0 4 times over 2 pages (F = 4 / 2 = 2), then the run goes on
 * to period 1. 0 on success. */
static int ture_start_lease_2(uvm_h *h, const char *name, const char *value)
{
    /* the countdown tests count references to resident pages only (a renewed lease has no
     * countdown, and the option is refused with it) */
    int renew = !strcmp(name, "uvm_ture_lease");
    if (uvm_h_start(h, 1, OPTS("uvm_prefetcher", "none", "uvm_eviction", "ture", "uvm_ture_window", "100000",
                               "uvm_ture_period", "100000", name, value, "page_fault_latency", "100",
                               renew ? "page_fault_latency" : "uvm_ture_count_faulted", renew ? "100" : "0"), 1 * MB))
        return -1;
    touch(h, 0); touch(h, 1); touch(h, 0); touch(h, 1);
    if (uvm_h_stat(h, "Uvm_ture_expired_pages") != 0) return -1;   /* no lease before the first estimate */
    return uvm_h_run_until(h, 100000);
}

TEST(uvm_ture_lease_countdown_recall_and_table_full)
{
    /* a 2-entry coalescing table */
    uvm_h h;
    REQUIRE(ture_start_lease_2(&h, "uvm_ture_table_entries", "2") == 0);
    touch(&h, 2);                                            /* period 1: L = 2 */
    CHECK_EQ(uvm_h_stat(&h, "Uvm_ture_sampling_windows"), 1);
    CHECK_NEAR(uvm_h_stat(&h, "Uvm_ture_avg_lease"), 2, 1e-9);
    touch(&h, 0); touch(&h, 1);                              /* pages 0, 1 take L = 2: 1 left */
    CHECK_EQ(uvm_h_stat(&h, "Uvm_ture_expired_pages"), 0);
    touch(&h, 0); touch(&h, 1);                              /* 0 left: both expire, one entry */
    CHECK_EQ(uvm_h_stat(&h, "Uvm_ture_expired_pages"), 2);
    touch(&h, 0);                                            /* recall: pages 0, 1 get L/2 = 1 */
    CHECK_EQ(uvm_h_stat(&h, "Uvm_ture_recalls"), 1);
    touch(&h, 1);                                            /* page 1 expires again */
    CHECK_EQ(uvm_h_stat(&h, "Uvm_ture_expired_pages"), 3);
    /* blocks 1 and 2 each get an expired page; the second finds the table full (blocks 0, 1)
     * and block 0, the least recently updated, goes whole: pages 0, 1, 2 */
    touch(&h, 16); touch(&h, 32); touch(&h, 16); touch(&h, 32); touch(&h, 16);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_ture_table_full_evictions"), 0);
    touch(&h, 32);
    REQUIRE(uvm_h_run_idle(&h) == 0);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_ture_table_full_evictions"), 1);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_ture_table_full_pages"), 3);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_evictions"), 3);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_capacity_pages"), 0);      /* proactive: memory was not full */
    uvm_h_free(&h);
}

/* -uvm_ture_count_faulted (default 1): a reference that finds its page absent counts down the
 * lease the page gets when it arrives, as the sampler counted it. Period 0 gives L = 2 (as
 * above). Page 2 faults (1 reference owed) and arrives with 2 - 1 = 1 left, so its next
 * reference expires it (with 0, 2 -> 1: no expiry). Pages 3, 4, 3 are then referenced before any
 * arrives (the second reference to 3 joins its fault): page 3 owes 2 = L and arrives with its
 * lease used up; it expires at the next reference anywhere (page 1's), and a reference to it
 * after that recalls it. Returns the expired pages after each step in e[0..2], the recalls and
 * the faulted references counted, or -1. */
static int ture_faulted_refs(const char *count, double e[3], double *recalls, double *owed)
{
    uvm_h h;
    if (uvm_h_start(&h, 1, OPTS("uvm_prefetcher", "none", "uvm_eviction", "ture", "uvm_ture_window", "100000",
                                "uvm_ture_period", "100000", "page_fault_latency", "100",
                                "uvm_ture_count_faulted", count), 1 * MB))
        return -1;
    touch(&h, 0); touch(&h, 1); touch(&h, 0); touch(&h, 1);
    if (uvm_h_run_until(&h, 100000)) return -1;
    touch(&h, 2);                                 /* the window ends: L = 2; page 2 owes 1 */
    touch(&h, 0);                                 /* page 0 takes L = 2: 1 left */
    touch(&h, 2);                                 /* page 2: 1 -> 0 (count 1) or 2 -> 1 (count 0) */
    e[0] = uvm_h_stat(&h, "Uvm_ture_expired_pages");
    uvm_h_access(&h, 0, 0, UVM_BASE + 3 * PG, GMS_MREQ_READ, NULL);
    uvm_h_access(&h, 0, 1, UVM_BASE + 4 * PG, GMS_MREQ_READ, NULL);
    uvm_h_access(&h, 0, 2, UVM_BASE + 3 * PG, GMS_MREQ_READ, NULL);
    if (uvm_h_run_idle(&h)) return -1;
    e[1] = uvm_h_stat(&h, "Uvm_ture_expired_pages");   /* page 3 waits for the next reference */
    touch(&h, 1);                                 /* page 3 expires; page 1 takes L = 2: 1 left */
    e[2] = uvm_h_stat(&h, "Uvm_ture_expired_pages");
    touch(&h, 3);                                 /* expired and resident: recalled */
    *recalls = uvm_h_stat(&h, "Uvm_ture_recalls");
    *owed = count[0] == '1' ? uvm_h_stat(&h, "Uvm_ture_faulted_references") : 0;
    uvm_h_free(&h);
    return 0;
}

TEST(uvm_ture_faulted_references_count_down_on_arrival)
{
    double e[3], recalls, owed;
    REQUIRE(ture_faulted_refs("1", e, &recalls, &owed) == 0);
    CHECK_EQ(e[0], 1);
    CHECK_EQ(e[1], 1);
    CHECK_EQ(e[2], 2);
    CHECK_EQ(recalls, 1);
    CHECK_EQ(owed, 4);            /* pages 2 (1), 3 (2), 4 (1) */
    REQUIRE(ture_faulted_refs("0", e, &recalls, &owed) == 0);
    CHECK_EQ(e[0], 0);
    CHECK_EQ(e[2], 0);            /* page 3 arrived with 2 left */
    CHECK_EQ(recalls, 0);
}

/* Recall gives half the lease the page was given at fill time, every time: a page recalled a
 * second time gets L/2 again, not L/4 (spec 000b 2.3, "half of the initial lease"). */
TEST(uvm_ture_second_recall_half_the_initial_lease)
{
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 1, OPTS("uvm_prefetcher", "none", "uvm_eviction", "ture", "uvm_ture_window", "100000",
                                    "uvm_ture_period", "100000", "page_fault_latency", "100"), 1 * MB) == 0);
    for (int i = 0; i < 4; i++) { touch(&h, 0); touch(&h, 1); }   /* N = 8 over P = 2 pages */
    REQUIRE(uvm_h_run_until(&h, 100000) == 0);
    touch(&h, 2);                                                /* period 1: L = 4 */
    CHECK_NEAR(uvm_h_stat(&h, "Uvm_ture_avg_lease"), 4, 1e-9);
    for (int i = 0; i < 4; i++) { touch(&h, 0); touch(&h, 1); }   /* 4 each: both expire */
    CHECK_EQ(uvm_h_stat(&h, "Uvm_ture_expired_pages"), 2);
    touch(&h, 0);                                                /* recall 1: both get 4 / 2 = 2 */
    CHECK_EQ(uvm_h_stat(&h, "Uvm_ture_recalls"), 1);
    touch(&h, 1); touch(&h, 0); touch(&h, 1);                    /* page 1: 2 -> 0, expires */
    CHECK_EQ(uvm_h_stat(&h, "Uvm_ture_expired_pages"), 3);
    touch(&h, 0);                                                /* page 0: 1 -> 0, expires */
    CHECK_EQ(uvm_h_stat(&h, "Uvm_ture_expired_pages"), 4);
    touch(&h, 2);                                                /* (a repeat of page 0 would fold) */
    touch(&h, 0);                                                /* recall 2: 4 / 2 = 2 again */
    CHECK_EQ(uvm_h_stat(&h, "Uvm_ture_recalls"), 2);
    touch(&h, 1);                                                /* page 1: 2 -> 1 (L/4 would expire it) */
    CHECK_EQ(uvm_h_stat(&h, "Uvm_ture_expired_pages"), 4);
    touch(&h, 0); touch(&h, 1);                                  /* page 1: 1 -> 0 */
    CHECK_EQ(uvm_h_stat(&h, "Uvm_ture_expired_pages"), 5);
    uvm_h_free(&h);
}

/* The table-full sequence above, with seq-local 64 KiB prefetching once oversubscribed: returns
 * the pages a fault at page 48 migrates after the proactive eviction (1 = still on demand). */
static double ture_table_full_then_fault(const char *flag, double *oversub)
{
    uvm_h h;
    if (uvm_h_start(&h, 1, OPTS("uvm_prefetcher", "none", "uvm_prefetcher_oversub", "seq", "uvm_eviction", "ture",
                                "uvm_ture_window", "100000", "uvm_ture_period", "100000", "uvm_ture_table_entries", "2",
                                "page_fault_latency", "100", "gms_uvm_oversub_flag", flag), 1 * MB))
        return -1;
    touch(&h, 0); touch(&h, 1); touch(&h, 0); touch(&h, 1);
    if (uvm_h_run_until(&h, 100000)) return -1;
    touch(&h, 2); touch(&h, 0); touch(&h, 1); touch(&h, 0); touch(&h, 1); touch(&h, 0); touch(&h, 1);
    touch(&h, 16); touch(&h, 32); touch(&h, 16); touch(&h, 32); touch(&h, 16); touch(&h, 32);
    uvm_h_run_idle(&h);
    double evicted = uvm_h_stat(&h, "Uvm_ture_table_full_pages");
    *oversub = uvm_h_stat(&h, "Uvm_oversubscribed");
    double before = uvm_h_stat(&h, "Uvm_pages_migrated_in");
    touch(&h, 48);
    uvm_h_run_idle(&h);
    double got = uvm_h_stat(&h, "Uvm_pages_migrated_in") - before;
    uvm_h_free(&h);
    return evicted == 3 ? got : -2;
}

TEST(uvm_oversub_flag_any_eviction_counts_ture_table_full)
{
    /* memory is never full (unlimited): UVMSmart's flag waits for a fault that finds it full, so
     * the prefetcher stays on demand; under any-eviction TURE's proactive eviction sets it */
    double os = -1;
    CHECK_EQ(ture_table_full_then_fault("fault", &os), 1);
    CHECK_EQ(os, 0);
    CHECK_EQ(ture_table_full_then_fault("any-eviction", &os), 16);
    CHECK_EQ(os, 1);
}

/* -uvm_ture_group_cap with a 4-entry sampler over a 768 KiB group a and a 256 KiB group b:
 * a may hold round(4 x 0.75) = 3 entries, b round(4 x 0.25) = 1. Blocks 0-3 of a are each
 * referenced once (F = 1), then two pages of b three times each, alternating (repeats of one
 * page in a row fold into one reference): F = 6 / 2 = 3. First come, a fills the
 * sampler and b's 6 references are dropped: one estimate, lease 1. Capped, a's fourth block is dropped and b
 * gets its entry: two estimates, mean lease (1 + 3) / 2 = 2. */
static void ture_sampler_two_groups(const char *cap, double *drops, double *cap_drops, double *lease)
{
    uvm_h h;
    *drops = *cap_drops = *lease = -1;
    if (uvm_h_init(&h, 1, OPTS("uvm_prefetcher", "none", "uvm_eviction", "ture", "uvm_ture_window", "100000",
                               "uvm_ture_period", "100000", "uvm_ture_sampler_entries", "4",
                               "uvm_ture_group_cap", cap, "page_fault_latency", "100")))
        return;
    if (gms_uvm_alloc(h.u, UVM_BASE, 768 * KB, 1, "a", &h.err) ||
        gms_uvm_alloc(h.u, UVM_BASE + 16 * MB, 256 * KB, 1, "b", &h.err)) {
        uvm_h_free(&h);
        return;
    }
    gms_uvm_kernel_begin(h.u, 0);
    touch(&h, 0); touch(&h, 16); touch(&h, 32); touch(&h, 48);
    for (int k = 0; k < 3; k++) { touch(&h, 4096); touch(&h, 4097); }
    if (uvm_h_run_until(&h, 100000) == 0) {
        touch(&h, 1);                             /* the next period: the window ends */
        *drops = uvm_h_stat(&h, "Uvm_ture_sampler_drops");
        if (cap[0] == '1') *cap_drops = uvm_h_stat(&h, "Uvm_ture_sampler_group_cap_drops");
        *lease = uvm_h_stat(&h, "Uvm_ture_avg_lease");
    }
    uvm_h_free(&h);
}

TEST(uvm_ture_group_cap_keeps_a_sampler_entry_for_a_small_group)
{
    double drops, cap_drops, lease;
    ture_sampler_two_groups("0", &drops, &cap_drops, &lease);
    CHECK_EQ(drops, 6);       /* each of b's references finds the sampler full */
    CHECK_EQ(lease, 1);
    ture_sampler_two_groups("1", &drops, &cap_drops, &lease);
    CHECK_EQ(drops, 0);
    CHECK_EQ(cap_drops, 1);
    CHECK_NEAR(lease, 2, 1e-9);
}

TEST(uvm_ture_renew_lease_ends_l_references_after_the_last_one)
{
    /* -uvm_ture_lease renew: the clock counts references (4 in period 0, which gives L = 2 as
     * in the countdown test). Clock 5: page 2 faults and arrives with a lease ending at 7.
     * Pages 0 and 1 alternate at clocks 6-9: each reference renews them (ends 8, 9, 10, 11),
     * so neither expires, where under countdown both would; page 2 expires at 7. */
    uvm_h h;
    REQUIRE(ture_start_lease_2(&h, "uvm_ture_lease", "renew") == 0);
    touch(&h, 2);
    CHECK_NEAR(uvm_h_stat(&h, "Uvm_ture_avg_lease"), 2, 1e-9);
    touch(&h, 0); touch(&h, 1); touch(&h, 0); touch(&h, 1);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_ture_expired_pages"), 1);
    /* clock 10: page 2 is recalled (lease 2 / 2 = 1, ends at 11); page 0's lease (from
     * clock 8) ends now */
    touch(&h, 2);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_ture_recalls"), 1);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_ture_expired_pages"), 2);
    /* clock 11: page 3 faults; pages 1 and 2 expire */
    touch(&h, 3);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_ture_expired_pages"), 4);
    REQUIRE(uvm_h_run_idle(&h) == 0);
    uvm_h_free(&h);
    uvm_h_expect_error(OPTS("uvm_eviction", "ture", "uvm_ture_lease", "clock"),
                       "-uvm_ture_lease: 'clock' is not one of countdown, renew");
    uvm_h_expect_error(OPTS("uvm_eviction", "ture", "uvm_ture_lease", "renew", "uvm_ture_count_faulted", "0"),
                       "-uvm_ture_count_faulted: counts down a countdown lease");
}

TEST(uvm_ture_memory_full_takes_expired_granules_first)
{
    /* 64 frames = 4 granules, sequential-local 64 KiB: faults at 0, 16, 32, 48 fill memory.
     * Lease 1 from period 0 (F = 2 references / 2 pages = 1). Pages 33 and 0 expire, so granules
     * 2 and 0 are in the table; with 2 granules per eviction, the fault at page 64 evicts exactly
     * those two (least recently updated first), not the least recently used blocks 1 and 3 */
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 1, OPTS("uvm_prefetcher", "seq", "uvm_eviction", "ture", "uvm_ture_window", "100000",
                                    "uvm_ture_period", "100000", "uvm_ture_evict_blocks", "2", "gddr_size", "256KB",
                                    "page_fault_latency", "100", "uvm_ture_count_faulted", "0"), 1 * MB) == 0);
    touch(&h, 0); touch(&h, 1);                 /* period 0: F = 2 references / 2 pages = 1 */
    REQUIRE(uvm_h_run_until(&h, 100000) == 0);
    touch(&h, 16); touch(&h, 32); touch(&h, 48);
    touch(&h, 33);                              /* lease 1 -> expires: granule 2 in the table */
    CHECK_EQ(uvm_h_stat(&h, "Uvm_ture_expired_pages"), 1);
    touch(&h, 0);                               /* no lease yet (migrated before the estimate): takes L = 1, expires */
    CHECK_EQ(uvm_h_stat(&h, "Uvm_ture_expired_pages"), 2);
    touch(&h, 64);                              /* full: 2 granules, both from the table (2 then 0) */
    REQUIRE(uvm_h_run_idle(&h) == 0);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_evictions"), 32);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_ture_memory_full_table_granules"), 2);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_ture_memory_full_lru_granules"), 0);
    /* pages 16 and 48 stayed: no new fault */
    double faults = uvm_h_stat(&h, "Uvm_far_faults");
    touch(&h, 16); touch(&h, 48);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_far_faults"), faults);
    uvm_h_free(&h);
}

TEST(uvm_ture_memory_full_lru_reading_takes_lru_blocks)
{
    /* the same sequence as above under -uvm_ture_pressure lru (the seed's "four blocks based on
     * the LRU policy" read literally): the access-ordered 64 KiB LRU after the touches is
     * block 1 (page 16), 3 (48), 2 (33), 0 (0), so the fault at page 64 evicts blocks 1 and 3,
     * and the expired granules 2 and 0 stay */
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 1, OPTS("uvm_prefetcher", "seq", "uvm_eviction", "ture", "uvm_ture_window", "100000",
                                    "uvm_ture_period", "100000", "uvm_ture_evict_blocks", "2", "gddr_size", "256KB",
                                    "page_fault_latency", "100", "uvm_ture_count_faulted", "0", "uvm_ture_pressure", "lru"), 1 * MB) == 0);
    touch(&h, 0); touch(&h, 1);
    REQUIRE(uvm_h_run_until(&h, 100000) == 0);
    touch(&h, 16); touch(&h, 32); touch(&h, 48);
    REQUIRE(uvm_h_run_idle(&h) == 0);           /* block 3's prefetched pages in too */
    touch(&h, 33);
    touch(&h, 0);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_ture_expired_pages"), 2);
    touch(&h, 64);
    REQUIRE(uvm_h_run_idle(&h) == 0);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_evictions"), 32);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_ture_memory_full_table_granules"), 0);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_ture_memory_full_lru_granules"), 2);
    double faults = uvm_h_stat(&h, "Uvm_far_faults");
    touch(&h, 33); touch(&h, 0);                /* granules 2 and 0 stayed */
    CHECK_EQ(uvm_h_stat(&h, "Uvm_far_faults"), faults);
    touch(&h, 16);                              /* block 1 went */
    REQUIRE(uvm_h_run_idle(&h) == 0);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_far_faults"), faults + 1);
    uvm_h_free(&h);
    uvm_h_expect_error(OPTS("uvm_eviction", "ture", "uvm_ture_pressure", "expired"),
                       "-uvm_ture_pressure: 'expired' is not one of table, lru");
}

TEST(uvm_policy_presets)
{
    gms_params *p = gms_params_new();
    gms_error err;
    REQUIRE(gms_params_set(p, "uvm_policy", "CAPTURE", &err) == 0);
    REQUIRE(gms_config_module_uvm.finalize(p, &err) == 0);
    CHECK_EQ(p->uvm.prefetch_id, gms_uvm_prefetch_find("cap"));
    CHECK_EQ(p->uvm.prefetch_oversub_id, gms_uvm_prefetch_find("cap"));
    CHECK_EQ(p->uvm.evict_id, gms_uvm_evict_find("ture"));
    REQUIRE(gms_params_set(p, "uvm_policy", "tpne", &err) == 0);
    REQUIRE(gms_config_module_uvm.finalize(p, &err) == 0);
    CHECK_EQ(p->uvm.prefetch_id, gms_uvm_prefetch_find("tree"));
    CHECK_EQ(p->uvm.evict_id, gms_uvm_evict_find("lru2m"));
    REQUIRE(gms_params_set(p, "uvm_policy", "rpre", &err) == 0);
    REQUIRE(gms_config_module_uvm.finalize(p, &err) == 0);
    CHECK_EQ(p->uvm.prefetch_id, gms_uvm_prefetch_find("random"));
    CHECK_EQ(p->uvm.evict_id, gms_uvm_evict_find("random"));
    REQUIRE(gms_params_set(p, "uvm_policy", "spse", &err) == 0);
    REQUIRE(gms_config_module_uvm.finalize(p, &err) == 0);
    CHECK_EQ(p->uvm.evict_id, gms_uvm_evict_find("lru64k"));
    REQUIRE(gms_params_set(p, "uvm_policy", "tpxx", &err) == 0);
    CHECK(gms_config_module_uvm.finalize(p, &err) != 0);
    CHECK(strstr(err.msg, "-uvm_policy: unknown preset 'tpxx'") != NULL);
    REQUIRE(gms_params_set(p, "uvm_policy", "", &err) == 0);
    REQUIRE(gms_params_set(p, "uvm_cap_max", "96KB", &err) == 0);
    CHECK(gms_config_module_uvm.finalize(p, &err) != 0);
    CHECK(strstr(err.msg, "-uvm_cap_max") != NULL);
    gms_params_free(p);
}

/* Regression (2026-12-05 audit): TURE's hook can evict the page being referenced, after the
 * TLB said hit. Table of 1 entry, L = 2 (period 0: N = 4 over P = 2 pages). Page 0 expires
 * and block 0 (pages 0-15) takes the only entry. Page 16 is referenced twice while absent and
 * arrives with its lease used up. The next reference, a write to page 1 (block 0, in SM 0's
 * TLB), first expires page 16: the table is full, its entry (block 0, page 1 with it) is
 * written back and its translations shot down. The write must then miss and fault (it was
 * served as a TLB hit on a page in host memory), and page 1 comes back. */
TEST(uvm_ture_hook_evicting_the_referenced_page_faults_it)
{
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 1, OPTS("uvm_prefetcher", "none", "uvm_eviction", "ture", "uvm_ture_window", "100000",
                                    "uvm_ture_period", "100000", "uvm_ture_table_entries", "1",
                                    "page_fault_latency", "100"), 1 * MB) == 0);
    touch(&h, 0); touch(&h, 1); touch(&h, 0); touch(&h, 1);
    REQUIRE(uvm_h_run_until(&h, 100000) == 0);
    touch(&h, 2);                                  /* L = 2 */
    touch(&h, 0); touch(&h, 1); touch(&h, 0);      /* page 0 expires: the entry is block 0's */
    CHECK_EQ(uvm_h_stat(&h, "Uvm_ture_expired_pages"), 1);
    uvm_h_access(&h, 0, 1, UVM_BASE + 16 * PG, GMS_MREQ_READ, NULL);
    uvm_h_access(&h, 0, 2, UVM_BASE + 17 * PG, GMS_MREQ_READ, NULL);
    uvm_h_access(&h, 0, 3, UVM_BASE + 16 * PG, GMS_MREQ_READ, NULL);
    REQUIRE(uvm_h_run_idle(&h) == 0);
    CHECK_EQ(h.u->pages[1].state, GMS_PG_RESIDENT);
    double faults = uvm_h_stat(&h, "Uvm_far_faults"), full = uvm_h_stat(&h, "Uvm_ture_table_full_evictions");
    int imm = -1;
    uvm_h_access(&h, 0, 4, UVM_BASE + 1 * PG, GMS_MREQ_WRITE, &imm);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_ture_table_full_evictions"), full + 1);   /* block 0 left */
    CHECK_EQ(imm, 0);                              /* not served as a hit */
    REQUIRE(uvm_h_run_idle(&h) == 0);
    CHECK_EQ(uvm_h_stat(&h, "Uvm_far_faults"), faults + 1);
    CHECK_EQ(h.u->pages[1].state, GMS_PG_RESIDENT);
    uvm_h_free(&h);
}
