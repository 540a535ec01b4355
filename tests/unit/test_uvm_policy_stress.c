/* The seeds' policies (CAP, TURE, HPE, RRIP, CLOCK-Pro) under oversubscription with random and
 * streaming accesses from many warps, for both runtimes and with the prefetchers they pair with
 * (and the other page sizes): every request must be delivered, nothing may deadlock, and the
 * frame accounting must balance when idle. The harness is test_uvm_mix.c. */
#include "test_uvm_mix.h"

TEST(uvm_stress_seed_policies)
{
    static const char *const rts[] = { "uvmsmart", "batch" };
    static const char *const pfs[] = { "none", "tree", "cap" };
    static const char *const evs[][5] = {
        { "ture", NULL }, { "hpe", NULL }, { "hpe", "uvm_hpe_hir_entries", "0", NULL }, { "rrip", NULL },
        { "rrip", "uvm_rrip_insert", "1", "uvm_rrip_delay", "128" }, { "clockpro", NULL },
        { "clockpro", "uvm_clockpro_adaptive", "1", "uvm_policy_refs", "1" },
    };
    int n = gms_test_quick() ? 1500 : 4000;
    char why[512];
    for (int r = 0; r < 2; r++)
        for (int p = 0; p < 3; p++)
            for (size_t e = 0; e < sizeof evs / sizeof evs[0]; e++)
                for (int pat = 0; pat < 2; pat++) {
                    const char *opts[32] = { "uvm_runtime", rts[r], "uvm_prefetcher", pfs[p], "uvm_prefetcher_oversub", pfs[p],
                                             "uvm_eviction", evs[e][0], "uvm_oversub_ratio", "1.5", "page_fault_latency", "2000",
                                             "uvm_fault_handling_us", "2", "uvm_max_concurrent_walks", "8",
                                             "uvm_l2_tlb_size", "64", "uvm_l2_tlb_assoc", "4", "tlb_size", "16",
                                             "uvm_ture_window", "3000", "uvm_ture_period", "5000", "uvm_ture_table_entries", "8" };
                    int k = 26;
                    for (int j = 1; j < 5 && evs[e][j]; j++) opts[k++] = evs[e][j];
                    opts[k] = NULL;
                    if (uvm_run_mix(opts, 8 << 20, n, pat, why, sizeof why)) {
                        char m[700];
                        snprintf(m, sizeof m, "%s %s %s (%s) pattern %d: %s", rts[r], pfs[p], evs[e][0], evs[e][1] ? evs[e][1] : "", pat, why);
                        gms_test_fail(__FILE__, __LINE__, m);
                    }
                }
}

TEST(uvm_stress_seed_policies_page_sizes)
{
    char why[512];
    static const char *const sizes[] = { "64KB", "2MB" };
    static const char *const pols[] = { "capture", "nphpe", "nprrip", "npclockpro", "nplru", "npture" };
    for (int s = 0; s < 2; s++)
        for (int p = 0; p < 6; p++) {
            const char *opts[] = { "page_size", sizes[s], "uvm_prefetch_size", sizes[s], "uvm_policy", pols[p],
                                   "uvm_oversub_ratio", "2", NULL };
            /* streaming at 2 MiB pages hits the TLB on every request, which this harness (waiting
             * for one more delivery) reads as a deadlock: random accesses there */
            if (uvm_run_mix(opts, 16 << 20, 2000, s == 0 ? p & 1 : 0, why, sizeof why)) {
                char m[600];
                snprintf(m, sizeof m, "page %s %s: %s", sizes[s], pols[p], why);
                gms_test_fail(__FILE__, __LINE__, m);
            }
        }
}

TEST(uvm_stress_evict_rescue)
{
    /* -uvm_evict_rescue with every victim written back, so write-backs queue and are cancelled
     * often: a page chosen again into a write-back that a later walk cancels must not keep
     * its waiters (the bfs deadlock this test was written for); half the runs keep victims in the
     * TLBs until their write-back starts (-uvm_evict_tlb_keep), each eviction both ways; the
     * tree prefetcher's runs order the block LRUs by region first (-uvm_lru_region_first) */
    static const char *const evs[] = { "lru64k", "lru2m", "tree", "ture", "random", "lru4k", "random" };   /* the last: pick region */
    static const char *const pfs[] = { "none", "tree", "cap" };
    int n = gms_test_quick() ? 1500 : 4000;
    char why[512];
    for (size_t e = 0; e < sizeof evs / sizeof evs[0]; e++)
        for (int p = 0; p < 3; p++)
            for (int pat = 0; pat < 2; pat++) {
                const char *opts[] = { "uvm_prefetcher", pfs[p], "uvm_prefetcher_oversub", pfs[p], "uvm_eviction", evs[e],
                                       "uvm_oversub_ratio", "1.5", "page_fault_latency", "2000", "invalidate_clean", "0",
                                       "uvm_evict_rescue", "1", "tlb_size", "16", "uvm_ture_window", "3000",
                                       "uvm_ture_period", "5000", "uvm_ture_table_entries", "8",
                                       "uvm_evict_tlb_keep", (e + (size_t)p + (size_t)pat) & 1 ? "1" : "0",
                                       "uvm_random_pick", e == 6 ? "region" : "page",
                                       /* SE's and TE's block LRUs by region first in half the runs */
                                       "uvm_lru_region_first", p & 1 ? "1" : "0",
                                       /* LRU 64 KiB / 2 MiB and tree: UVMSmart's whole units, waiting */
                                       e < 3 ? "uvm_evict_whole" : NULL, "1", "uvm_evict_whole_wait", "1", NULL };
                if (uvm_run_mix(opts, 8 << 20, n, pat, why, sizeof why)) {
                    char m[600];
                    snprintf(m, sizeof m, "rescue %s %s pattern %d keep %d: %s", evs[e], pfs[p], pat,
                             (int)((e + (size_t)p + (size_t)pat) & 1), why);
                    gms_test_fail(__FILE__, __LINE__, m);
                }
            }
}
