/* UVMSmart drop-in, options: every UVM option of UVMSmart's registry (gpu-sim.cc) is accepted
 * with its type; the ones not modelled are reported as such; -enable_accurate_simulation 0 takes
 * the far-fault latency off the critical path as UVMSmart's default does; the unknown-option hint
 * names a related option or none. */
#include "test_uvm_util.h"
#include <stdlib.h>

#define OPTS(...) (const char *const[]){ __VA_ARGS__, NULL }
#define PG 4096ULL

TEST(uvmsmart_registry_options_accepted)
{
    /* the UVM section of UVMSmart's GTX1080Ti config, as its users write it */
    static const char *const cfg[][2] = {
        { "gddr_size", "1GB" }, { "page_size", "4KB" }, { "tlb_size", "4096" },
        { "page_table_walk_latency", "100" }, { "eviction_policy", "0" }, { "invalidate_clean", "0" },
        { "reserve_accessed_page_percent", "0" }, { "percentage_of_free_page_buffer", "0" },
        { "pcie_bandwidth", "16.0GB/s" }, { "enable_dma", "0" }, { "migrate_threshold", "8" },
        { "multiply_dma_penalty", "2" }, { "enable_smart_runtime", "0" }, { "hardware_prefetch", "1" },
        { "hwprefetch_oversub", "1" }, { "page_fault_latency", "66645" },
        { "enable_accurate_simulation", "0" }, { "sim_prof_enable", "1" },
    };
    gms_params *p = gms_params_new();
    gms_error err = {0};
    for (size_t i = 0; i < sizeof cfg / sizeof cfg[0]; i++) {
        err.msg[0] = 0;
        CHECK(gms_params_set(p, cfg[i][0], cfg[i][1], &err) == 0);
        if (err.msg[0]) fprintf(stderr, "  %s: %s\n", cfg[i][0], err.msg);
    }
    REQUIRE(gms_params_finalize(p, &err) == 0);
    /* not modelled and set away from UVMSmart's registered default (10, 0, 0): named, nothing else */
    const char *names[16];
    size_t n = gms_params_unmodelled(p, names, 16);
    REQUIRE(n == 3);
    CHECK_STR(names[0], "migrate_threshold");
    CHECK_STR(names[1], "multiply_dma_penalty");
    CHECK_STR(names[2], "sim_prof_enable");
    gms_params_free(p);
}

TEST(uvmsmart_options_bad_values)
{
    struct { const char *name, *val, *expect; } bad[] = {
        { "enable_dma", "4", "-enable_dma: 4 is not a mode" },
        { "enable_dma", "-1", "-enable_dma: -1 is not a mode" },
        { "reserve_accessed_page_percent", "100", "must be in [0, 100)" },
        { "enable_smart_runtime", "2", "not a boolean" },
        { "migrate_threshold", "ten", "migrate_threshold" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gms_params *p = gms_params_new();
        gms_error err = {0};
        int rc = gms_params_set(p, bad[i].name, bad[i].val, &err);
        if (!rc) rc = gms_params_finalize(p, &err);
        CHECK(rc != 0);
        CHECK_CONTAINS(err.msg, bad[i].expect);
        gms_params_free(p);
    }
}

TEST(uvmsmart_unknown_option_hint)
{
    struct { const char *name, *expect; } c[] = {
        { "enable_dmaa", "did you mean -enable_dma?" },           /* was -gms_seed by plain edit distance */
        { "migrate_treshold", "did you mean -migrate_threshold?" },
        { "gpgpu_n_clustres", "did you mean -gpgpu_n_clusters?" },
        { "pcie_transfer_rate", "did you mean -pcie_bandwidth?" }, /* UVMSmart's older PCIe option */
        { "num_of_qubits", "no option has a similar name" },
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        gms_params *p = gms_params_new();
        gms_error err = {0};
        CHECK(gms_params_set(p, c[i].name, "1", &err) != 0);
        CHECK_CONTAINS(err.msg, c[i].expect);
        gms_params_free(p);
    }
}

TEST(uvmsmart_accurate_simulation_off_takes_fault_latency_out)
{
    /* one far fault: walk 100 + 4 KiB transfer 2605, without the 1000-cycle fault latency */
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 1, OPTS("hardware_prefetch", "0", "page_fault_latency", "1000",
                                    "enable_accurate_simulation", "0"), 1 << 20) == 0);
    int i = uvm_h_access(&h, 0, 0, UVM_BASE + 5 * PG, GMS_MREQ_READ, NULL);
    REQUIRE(uvm_h_run_deliveries(&h, 1) == 0);
    CHECK_EQ(h.dcycle[i], 100 + 2605);
    CHECK_EQ(uvm_h_stat(&h, "Page_tot_fault"), 1);
    uvm_h_free(&h);
    /* default (accurate): the latency is on the critical path */
    REQUIRE(uvm_h_start(&h, 1, OPTS("hardware_prefetch", "0", "page_fault_latency", "1000"), 1 << 20) == 0);
    i = uvm_h_access(&h, 0, 0, UVM_BASE + 5 * PG, GMS_MREQ_READ, NULL);
    REQUIRE(uvm_h_run_deliveries(&h, 1) == 0);
    CHECK_EQ(h.dcycle[i], 100 + 1000 + 2605);
    uvm_h_free(&h);
}
