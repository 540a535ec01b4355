/* UVM under oversubscription with random and streaming accesses from many warps, for every
 * runtime x prefetcher x eviction policy (and the other page sizes): every request must be
 * delivered, nothing may deadlock, and the frame accounting must balance when idle. */
#include "test_uvm_mix.h"

TEST(uvm_stress_all_policies)
{
    static const char *const rts[] = { "uvmsmart", "batch" };
    static const char *const pfs[] = { "none", "tree", "seq", "random" };
    static const char *const evs[] = { "lru4k", "lru64k", "lru2m", "tree", "random", "belady" };
    int n = gms_test_quick() ? 1500 : 4000;
    char why[512];
    for (int r = 0; r < 2; r++)
        for (int p = 0; p < 4; p++)
            for (int e = 0; e < 6; e++)
                for (int pat = 0; pat < 2; pat++) {
                    const char *opts[] = { "uvm_runtime", rts[r], "uvm_prefetcher", pfs[p], "uvm_prefetcher_oversub", pfs[p],
                                           "uvm_eviction", evs[e], "uvm_oversub_ratio", "1.5", "page_fault_latency", "2000",
                                           "uvm_fault_handling_us", "2", "uvm_max_concurrent_walks", "8",
                                           "uvm_l2_tlb_size", "64", "uvm_l2_tlb_assoc", "4", "tlb_size", "16",
                                           /* UVMSmart's leaf sizes on one pattern of two */
                                           "uvm_tree_fill", pat ? "uvmsmart" : "exact",
                                           "uvm_evict_invalid_at", pat && r == 0 ? "start" : "end", NULL };
                    if (uvm_run_mix(opts, 8 << 20, n, pat, why, sizeof why)) {
                        char m[700];
                        snprintf(m, sizeof m, "%s %s %s pattern %d: %s", rts[r], pfs[p], evs[e], pat, why);
                        gms_test_fail(__FILE__, __LINE__, m);
                    }
                }
}

TEST(uvm_stress_page_sizes_and_tiny_capacity)
{
    char why[512];
    static const char *const sizes[] = { "64KB", "2MB" };
    for (int s = 0; s < 2; s++) {
        const char *opts[] = { "page_size", sizes[s], "uvm_prefetch_size", sizes[s], "hardware_prefetch", "1",
                               "uvm_oversub_ratio", "2", "eviction_policy", "1", "uvm_tree_fill", s ? "uvmsmart" : "exact", NULL };
        if (uvm_run_mix(opts, 16 << 20, 2000, 0, why, sizeof why)) {
            char m[600];
            snprintf(m, sizeof m, "page %s: %s", sizes[s], why);
            gms_test_fail(__FILE__, __LINE__, m);
        }
    }
    /* capacity of 3 pages with the tree prefetcher: transfers are cut to fit */
    const char *opts[] = { "gddr_size", "76KB", "hardware_prefetch", "1", "eviction_policy", "0", NULL };
    if (uvm_run_mix(opts, 1 << 20, 1000, 0, why, sizeof why)) gms_test_fail(__FILE__, __LINE__, why);
    const char *opts2[] = { "gddr_size", "76KB", "hardware_prefetch", "1", "eviction_policy", "0", "uvm_runtime", "batch",
                            "invalidate_clean", "0", NULL };
    if (uvm_run_mix(opts2, 1 << 20, 1000, 1, why, sizeof why)) gms_test_fail(__FILE__, __LINE__, why);
}
